"""Port of asc-devkit examples/03_simt_api/00_introduction/01_gather/basic_gather/gather_1d/gather_1d.asc.

Line for line: the pure SIMT kernel ``gather_1d_custom<<<48, 256, 0, stream>>>`` copies
``output[idx] = input[index[idx]]`` for every global thread id below ``index_total_length``;
the host code makes ``input[i] = i * 1.2f`` (100000 floats) and ``index[i] = (i * 97 + 13) %
100000`` (48 * 256 of them), as the example's ``main`` does, and compares with ``std::equal``
(bit-exact). Sizes are the example's own.
"""

from __future__ import annotations

import sys

import numpy as np

from ascreg import GmPtr, acl, float32_t, int32_t, uint64_t
from ascreg.machine.kernel import __global__
from ascreg.simt import blockDim, blockIdx, threadIdx


@__global__
def gather_1d_custom(
    input: GmPtr[float32_t],
    index: GmPtr[int32_t],
    output: GmPtr[float32_t],
    index_total_length: int,
) -> None:
    # Calculate global thread ID
    idx = int32_t(blockIdx.x * blockDim.x + threadIdx.x)

    # Maps to the index of output tensor
    if idx >= index_total_length:
        return
    output[idx] = input[index[idx]]


def gather_1d(input: np.ndarray, index: np.ndarray) -> np.ndarray:
    input_total_length = input.size
    index_total_length = index.size

    input_total_byte_size = input_total_length * float32_t.size
    index_total_byte_size = index_total_length * int32_t.size
    output_total_byte_size = index_total_length * float32_t.size

    device_id = 0
    # Init
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    # Allocate host and device memory, and copy input data from host to device
    output_host, _ = acl.rt.malloc_host(output_total_byte_size)
    input_device, _ = acl.rt.malloc(input_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    index_device, _ = acl.rt.malloc(index_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(output_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        input_device,
        input_total_byte_size,
        input,
        input_total_byte_size,
        acl.ACL_MEMCPY_HOST_TO_DEVICE,
    )
    acl.rt.memcpy(
        index_device,
        index_total_byte_size,
        index,
        index_total_byte_size,
        acl.ACL_MEMCPY_HOST_TO_DEVICE,
    )

    # Configure kernel launch parameters
    blocks_per_grid = 48  # Number of thread blocks (Grid size)
    threads_per_block = 256  # Number of threads per block (Block size)
    dyn_ubuf_size = 0  # No dynamic memory required in this sample

    # Call kernel function with <<<...>>>
    gather_1d_custom[blocks_per_grid, threads_per_block, dyn_ubuf_size, stream](
        input_device.cast(float32_t),
        index_device.cast(int32_t),
        output_device.cast(float32_t),
        uint64_t(index_total_length),
    )

    # Wait for the gather_1d_custom kernel to complete
    acl.rt.synchronize_stream(stream)

    # Copy the result from device memory to host memory
    acl.rt.memcpy(
        output_host,
        output_total_byte_size,
        output_device,
        output_total_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )
    output = output_host.view(np.float32).copy()

    # free memory
    acl.rt.free(input_device)
    acl.rt.free(index_device)
    acl.rt.free(output_device)
    acl.rt.free_host(output_host)

    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)

    # DeInit
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``std::equal``: every element bit-for-bit (as float ==)."""
    return bool(np.array_equal(output, golden))


input_total_length = 100000
index_total_length = 48 * 256


def make_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The example's ``main``: ``input[i] = i * 1.2f``, ``index[i] = (i * 97 + 13) % n``."""
    i = np.arange(input_total_length, dtype=np.uint32)
    input = i.astype(np.float32) * np.float32(1.2)
    j = np.arange(index_total_length, dtype=np.uint32)
    index = ((j * np.uint32(97) + np.uint32(13)) % np.uint32(input_total_length)).astype(np.int32)
    golden = input[index]
    return input, index, golden


def test_gather_1d_matches_the_examples_golden() -> None:
    input, index, golden = make_data()
    output = gather_1d(input, index)
    assert verify_result(output, golden)
    assert not verify_result(output, np.roll(golden, 1))  # the check fails on a wrong answer


def test_gather_1d_catches_a_wrong_index() -> None:
    input, index, golden = make_data()
    index[77] += 1
    assert not verify_result(gather_1d(input, index), golden)

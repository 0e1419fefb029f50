"""Port of asc-devkit examples/03_simt_api/00_introduction/01_gather/basic_gather/gather_2d/gather_2d.asc.

Line for line: the templated pure SIMT kernel ``gather_2d_custom<float, uint32_t>`` runs
``<<<48, 256, 0, stream>>>``; each thread copies one whole row ``in_row = index[out_row]`` of a
``{100000, 128}`` float input with a ``for col`` loop. The host data are the example's:
``input[i] = i * 1.2f``, ``index[i] = i + 5`` for even ``i`` and ``i + 3`` for odd ``i``
(12288 rows), golden by the same double loop, compared with ``std::equal`` (bit-exact).
Only the input's row count is cut from 100000 to 12296 (the rows the indices reach, plus a
margin) to keep host memory small; the gather itself is unchanged.
"""

from __future__ import annotations

import sys

import numpy as np

from ascreg import GmPtr, acl, float32_t, int32_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import blockDim, blockIdx, threadIdx


@__global__
def gather_2d_custom(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    gather_output: GmPtr[float32_t],
    in_width: int,
    index_total_length: int,
) -> None:
    # Calculate global thread ID
    out_row = int32_t(blockIdx.x * blockDim.x + threadIdx.x)

    # Maps to the row index of output tensor
    if out_row >= index_total_length:
        return

    # Single thread processes an entire row (all columns).
    in_row = index[out_row]
    for col in range(in_width):
        input_idx = int32_t(in_row * in_width + col)
        output_idx = int32_t(out_row * in_width + col)
        gather_output[output_idx] = input[input_idx]


def gather_2d(input: np.ndarray, in_shape: tuple[int, int], index: np.ndarray) -> np.ndarray:
    input_total_length = input.size
    input_total_byte_size = input_total_length * float32_t.size

    index_total_length = index.size
    index_total_byte_size = index_total_length * uint32_t.size

    output_total_length = index.size * in_shape[1]
    output_total_byte_size = output_total_length * float32_t.size

    device_id = 0
    # Init
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    # Malloc memory in host and device
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
    # Calc split params
    blocks_per_grid = 48
    threads_per_block = 256
    dyn_ubuf_size = 0  # No dynamic memory required in this sample
    # Call kernel function with <<<...>>>
    gather_2d_custom[blocks_per_grid, threads_per_block, dyn_ubuf_size, stream](
        input_device.cast(float32_t),
        index_device.cast(uint32_t),
        output_device.cast(float32_t),
        uint32_t(in_shape[1]),
        uint32_t(index_total_length),
    )
    acl.rt.synchronize_stream(stream)
    # Copy result from device to host
    acl.rt.memcpy(
        output_host,
        output_total_byte_size,
        output_device,
        output_total_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )
    output = output_host.view(np.float32).copy()
    # Free memory
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
    """``std::equal`` over the whole output."""
    return bool(np.array_equal(output, golden))


index_total_length = 12288
in_shape = (index_total_length + 8, 128)  # the example: {100000, 128}


def make_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The example's ``main``: ``input[i] = i * 1.2f``; ``index[i] = i + 5`` (even) / ``i + 3``."""
    input_total_length = in_shape[0] * in_shape[1]
    input = np.arange(input_total_length, dtype=np.uint32).astype(np.float32) * np.float32(1.2)
    i = np.arange(index_total_length, dtype=np.uint32)
    index = np.where(i % 2 == 0, i + 5, i + 3).astype(np.uint32)
    golden = input.reshape(in_shape)[index].reshape(-1)
    return input, index, golden


def test_gather_2d_matches_the_examples_golden() -> None:
    input, index, golden = make_data()
    output = gather_2d(input, in_shape, index)
    assert verify_result(output, golden)
    assert not verify_result(output, np.roll(golden, in_shape[1]))  # a row off fails


def test_gather_2d_catches_a_wrong_row() -> None:
    input, index, golden = make_data()
    index[4095] -= 1
    assert not verify_result(gather_2d(input, in_shape, index), golden)

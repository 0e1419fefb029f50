"""Port of asc-devkit examples/03_simt_api/00_introduction/01_gather/general_gather/gather.asc.

Line for line: ``block_split`` sizes the launch from the vector core count (``GetCoreNumAiv``,
the emulated device's ``acl.DEVICE_INFO[ACL_DEV_ATTR_VECTOR_CORE_NUM]``: 64; the platform
query needs no ``aclInit``), one thread per output
row, capped at 2048 threads a block; the templated pure SIMT kernel ``gather_custom<float,
uint32_t>`` (``__launch_bounds__(2048)``) returns past the last row, then copies the whole row
``index[out_row]`` of a ``{20001, 1023}`` float input with running ``input_idx``/``output_idx``
in a ``for col`` loop. Host data are the example's: ``input[i] = i * 1.2f``, ``index[i] = i + 1``
for even ``i`` and ``i + 2`` for odd ``i`` (12288 rows), golden by its double loop, compared
with ``std::equal`` (bit-exact).

Smaller: the input is 12296 x 127 instead of 20001 x 1023 (the rows the indices reach plus a
margin; 127 columns: each column is a step of every block's loop, and the full 1023 take about
100 s here); the index, the launch (64 x 192) and the gather are the example's.
"""

from __future__ import annotations

import sys

import numpy as np

from ascreg import GmPtr, Ref, acl, float32_t, int32_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import __launch_bounds__, blockDim, blockIdx, threadIdx

MAX_THREAD_COUNT = 2048
MAX_BLOCK_COUNT = 65535


@__global__
@__launch_bounds__(MAX_THREAD_COUNT)
def gather_custom(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    gather_output: GmPtr[float32_t],
    in_width: int,
    index_total_length: int,
) -> None:
    # global thread id
    out_row = int32_t(blockIdx.x * blockDim.x + threadIdx.x)

    # one output row per thread
    if out_row >= index_total_length:
        return
    # the thread copies a whole row (every column)
    in_row = index[out_row]
    input_idx = int32_t(in_row * in_width)
    output_idx = int32_t(out_row * in_width)
    for _col in range(in_width):
        gather_output[output_idx] = input[input_idx]
        input_idx += 1
        output_idx += 1


def block_split(
    index_total_length: int, blocks_per_grid: Ref[int], threads_per_block: Ref[int]
) -> bool:
    real_core_num = acl.DEVICE_INFO[acl.ACL_DEV_ATTR_VECTOR_CORE_NUM]  # GetCoreNumAiv()
    blocks_per_grid.value = real_core_num
    threads_per_block.value = (index_total_length + real_core_num - 1) // real_core_num
    if threads_per_block.value > MAX_THREAD_COUNT:
        threads_per_block.value = MAX_THREAD_COUNT
        blocks_per_grid.value = (index_total_length + MAX_THREAD_COUNT - 1) // MAX_THREAD_COUNT
        if blocks_per_grid.value > MAX_BLOCK_COUNT:
            return False  # index_total_length is too big
    return True


def gather(input: np.ndarray, in_shape: tuple[int, int], index: np.ndarray) -> np.ndarray:
    input_total_byte_size = input.size * float32_t.size
    index_total_length = index.size
    index_total_byte_size = index_total_length * uint32_t.size
    output_total_length = index.size * in_shape[1]
    output_total_byte_size = output_total_length * float32_t.size
    # split parameters
    blocks_per_grid, threads_per_block = Ref(0), Ref(0)
    if not block_split(index_total_length, blocks_per_grid, threads_per_block):
        return np.zeros(0, np.float32)

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    output_host, _ = acl.rt.malloc_host(output_total_byte_size)
    input_device, _ = acl.rt.malloc(input_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    index_device, _ = acl.rt.malloc(index_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(output_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    h2d = acl.ACL_MEMCPY_HOST_TO_DEVICE
    acl.rt.memcpy(input_device, input_total_byte_size, input, input_total_byte_size, h2d)
    acl.rt.memcpy(index_device, index_total_byte_size, index, index_total_byte_size, h2d)

    dyn_ubuf_size = 0  # no dynamic UB
    gather_custom[blocks_per_grid.value, threads_per_block.value, dyn_ubuf_size, stream](
        input_device.cast(float32_t),
        index_device.cast(uint32_t),
        output_device.cast(float32_t),
        uint32_t(in_shape[1]),
        uint32_t(index_total_length),
    )
    acl.rt.synchronize_stream(stream)
    d2h = acl.ACL_MEMCPY_DEVICE_TO_HOST
    acl.rt.memcpy(output_host, output_total_byte_size, output_device, output_total_byte_size, d2h)
    output = output_host.view(np.float32).copy()
    for buffer in (input_device, index_device, output_device):
        acl.rt.free(buffer)
    acl.rt.free_host(output_host)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``std::equal`` over the output."""
    return bool(np.array_equal(output, golden))


index_total_length = 12288
in_shape = (index_total_length + 8, 127)  # the example: {20001, 1023}


def make_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The example's ``main``: input, index and the golden of its double loop."""
    input_total_length = in_shape[0] * in_shape[1]
    input = np.arange(input_total_length, dtype=np.uint32).astype(np.float32) * np.float32(1.2)
    i = np.arange(index_total_length, dtype=np.uint32)
    index = np.where(i % 2 == 0, i + 1, i + 2).astype(np.uint32)
    golden = input.reshape(in_shape)[index].reshape(-1)
    return input, index, golden


def test_general_gather_matches_the_golden() -> None:
    blocks, threads = Ref(0), Ref(0)
    assert block_split(index_total_length, blocks, threads)
    assert (blocks.value, threads.value) == (64, 192)
    input, index, golden = make_data()
    output = gather(input, in_shape, index)
    assert verify_result(output, golden)
    index[5000] += 1  # one wrong row: the check must see it
    assert not verify_result(output, input.reshape(in_shape)[index].reshape(-1))

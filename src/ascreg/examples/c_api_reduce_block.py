"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/reduce_block/reduce_block.asc``, line for line.

The per-data-block sums of 256 floats: each repeat reduces a register with
``asc_reduce_sum_datablock`` (each 32-byte data block summed in a pairwise tree; the 8 sums land
in lanes 0-7, the other lanes are 0) and stores the whole register; the host picks the 8 sums of
each 64-float repeat out of the copied-back floats. The input is made as the example's
``scripts/gen_data.py`` makes it (uniform in [1, 2), golden the 32 block sums by ``np.sum``);
the host compares with ``std::equal``.

Differences from the C++: the host takes the arrays from ``gen_golden_data_simple`` instead of ``./input/*.bin``
files (``ReadFile``).

Examples
--------
>>> main()
[Success] C API reduce_block (asc-devkit reduce_block.asc, 256 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_create_mask_b32,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_reduce_sum_datablock,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_float,
)

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def reduce_block_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``reduce_block_vf``: reduce each repeat with ``asc_reduce_sum_datablock``, store the whole register."""
    vmask = asc_create_mask_b32(PAT_ALL)
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_reduce_sum_datablock(dst_reg, src_reg, vmask)
        asc_storealign(y_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def reduce_block_custom(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """``reduce_block_custom``: copy in, run ``reduce_block_vf``, copy the block out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    reduce_block_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_reduce_block(x: Arr) -> Arr:
    """Run the host side: copy in, launch ``reduce_block_custom<<<1, 0>>>``, pick the results out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    output_length = total_length // 8
    x_byte_size = total_length * float32_t.size
    y_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(y_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    reduce_block_custom[num_blocks, 0](x_device.cast(float32_t), y_device.cast(float32_t))
    acl.rt.synchronize_device()

    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y = np.zeros(output_length, dtype=np.float32)
    one_rep_size = 64
    blocks_per_rep = 8
    for i in range(output_length):
        repeat_idx = i // blocks_per_rep
        elem_idx = i % blocks_per_rep
        actual_idx = repeat_idx * one_rep_size + elem_idx
        y[i] = y_host.view(np.float32)[actual_idx]

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return y


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output."""
    return bool(np.array_equal(golden, output[: golden.size]))


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [1, 2) of shape [1, 256], golden the sum of each 8 floats."""
    total_length = 256
    data_type = np.float32
    x = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    num_blocks = total_length // 8
    golden = np.zeros(num_blocks, dtype=data_type)
    for i in range(num_blocks):
        golden[i] = np.sum(x[0, i * 8 : (i + 1) * 8])
    return x, golden


def main() -> bool:
    """Make the data, run the kernel, compare with the golden."""
    x, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_reduce_block(x.reshape(-1))
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} C API reduce_block (asc-devkit reduce_block.asc, 256 float32) matches the golden."
    )
    return ok

"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/mergemode/mergemode.asc``, line for line.

A MERGING copy over 128 floats: each repeat loads x and y, ``asc_copy(dst_reg, src_reg,
PAT_H)`` overwrites the first half of y's register with x's lanes and keeps the rest, and the
whole register is stored (``PAT_ALL``). The inputs and the golden are made as the example's
``scripts/gen_data.py`` makes them (x uniform in [1, 100), y all -1; golden the first 32 of
every 64 lanes from x, the rest from y); the host compares with ``std::equal``.

Differences from the C++: none beyond the spellings (``__ubuf__`` arrays are allocations,
pointers are :class:`~ascreg.UbPtr`).

Examples
--------
>>> main()
[Success] C API mergemode (asc-devkit mergemode.asc, 128 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PAT_H,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_create_mask_b32,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_float,
)

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 128
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def copy_merge_vf(
    src_local: UbPtr[float32_t],
    dst_local: UbPtr[float32_t],
    out_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``copy_merge_vf``: ``asc_copy`` of the ``PAT_H`` lanes of src over dst, stored whole."""
    vmask1 = asc_create_mask_b32(PAT_H)
    vmask2 = asc_create_mask_b32(PAT_ALL)
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        asc_loadalign(src_reg, src_local + i * one_rep_size)
        asc_loadalign(dst_reg, dst_local + i * one_rep_size)
        asc_copy(dst_reg, src_reg, vmask1)
        asc_storealign(out_local + i * one_rep_size, dst_reg, vmask2)


@__global__
@__vector__
def mergemode_custom(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``mergemode_custom``: copy in, run ``copy_merge_vf``, copy out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length
    z_gm = z + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)
    z_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_copy_gm2ub_align(y_local, y_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    copy_merge_vf(x_local, y_local, z_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_mergemode(x: Arr, y: Arr) -> Arr:
    """Run the host side: copy in, launch ``mergemode_custom<<<1, 0>>>``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = TOTAL_LENGTH
    input_byte_size = total_length * float32_t.size
    output_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    z_host, _ = acl.rt.malloc_host(output_byte_size)
    x_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(output_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, input_byte_size, x, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(y_device, input_byte_size, y, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    mergemode_custom[num_blocks, 0](
        x_device.cast(float32_t), y_device.cast(float32_t), z_device.cast(float32_t)
    )
    acl.rt.synchronize_device()

    acl.rt.memcpy(
        z_host, output_byte_size, z_device, output_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    z: Arr = z_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free(z_device)
    acl.rt.free_host(z_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return z


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the output and the golden."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [1, 100), y all -1, the golden half by half."""
    total_length = 128
    data_type = np.float32
    x = rng.uniform(1, 100, [total_length]).astype(data_type)
    y = np.full(total_length, -1.0, dtype=data_type)
    golden = np.zeros(total_length, dtype=data_type)

    one_rep_size = 64
    half_rep_size = one_rep_size // 2
    for i in range(0, total_length, one_rep_size):
        golden[i : i + half_rep_size] = x[i : i + half_rep_size]
        golden[i + half_rep_size : i + one_rep_size] = y[i + half_rep_size : i + one_rep_size]
    return x, y, golden


def main() -> bool:
    """Make the data, run the kernel, compare with the golden."""
    x, y, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_mergemode(x, y)
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API mergemode (asc-devkit mergemode.asc, 128 float32) matches the golden.")
    return ok

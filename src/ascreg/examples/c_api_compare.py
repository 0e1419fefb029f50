"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/compare/compare.asc``, line for line.

Two scenarios over 256 floats (``SCENARIO_NUM`` picks the kernel): 1, ``z = x > y ? x : y``
with ``asc_gt`` then ``asc_select``; 2, ``z = x > 0 ? x : y`` with ``asc_gt_scalar`` then
``asc_select``. The inputs and the golden are made as the example's ``scripts/gen_data.py``
makes them (x, y uniform in [-2, 2); golden ``np.maximum(x, y)``, or y with x's lanes where
``x > 0``); the host compares with ``std::equal``.

Differences from the C++: the ``#if SCENARIO_NUM`` launch is a parameter of
:func:`kernel_compare`; ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&`` argument,
so the VFs keep ``data_len`` in a :class:`~ascreg.Ref`; ``0.0f`` is ``float32_t(0.0)``.

Examples
--------
>>> main()
[Success] C API compare (asc-devkit compare.asc, scenarios 1 and 2, 256 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
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
    asc_get_vf_len,
    asc_gt,
    asc_gt_scalar,
    asc_init,
    asc_loadalign,
    asc_select,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    block_idx,
    vector_bool,
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
def compare_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    z_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``compare_vf``: ``asc_gt`` of the two registers selects between them."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    cmp_mask = vector_bool()
    src0_reg = vector_float()
    src1_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src0_reg, x_local + i * one_rep_size)
        asc_loadalign(src1_reg, y_local + i * one_rep_size)
        asc_gt(cmp_mask, src0_reg, src1_reg, vmask)
        asc_select(dst_reg, src0_reg, src1_reg, cmp_mask)
        asc_storealign(z_local + i * one_rep_size, dst_reg, vmask)


@__simd_vf__
def compares_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    z_local: UbPtr[float32_t],
    scalar: Any,
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``compares_vf``: ``asc_gt_scalar`` of x against *scalar* selects between x and y."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    cmp_mask = vector_bool()
    src0_reg = vector_float()
    src1_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src0_reg, x_local + i * one_rep_size)
        asc_loadalign(src1_reg, y_local + i * one_rep_size)
        asc_gt_scalar(cmp_mask, src0_reg, scalar, vmask)
        asc_select(dst_reg, src0_reg, src1_reg, cmp_mask)
        asc_storealign(z_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def compare_custom_s1(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``compare_custom_s1``: copy in, run ``compare_vf``, copy out."""
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
    compare_vf(x_local, y_local, z_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


@__global__
@__vector__
def compare_custom_s2(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``compare_custom_s2``: copy in, run ``compares_vf``, copy out."""
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
    compares_vf(x_local, y_local, z_local, float32_t(0.0), block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_compare(x: Arr, y: Arr, scenario_num: int) -> Arr:
    """Run the host side: copy in, launch ``compare_custom_s<scenario_num><<<1, 0>>>``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    total_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    z_host, _ = acl.rt.malloc_host(total_byte_size)
    x_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, total_byte_size, x, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(y_device, total_byte_size, y, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    kernel = compare_custom_s1 if scenario_num == 1 else compare_custom_s2  # #if SCENARIO_NUM
    kernel[num_blocks, 0](
        x_device.cast(float32_t), y_device.cast(float32_t), z_device.cast(float32_t)
    )
    acl.rt.synchronize_device()

    acl.rt.memcpy(z_host, total_byte_size, z_device, total_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
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


def gen_golden_data_simple(rng: np.random.Generator, scenario_num: int) -> tuple[Arr, Arr, Arr]:
    """``scripts/gen_data.py``: x, y uniform in [-2, 2); golden max(x, y) or (x > 0 ? x : y)."""
    total_length = 256
    data_type = np.float32
    scalar = 0.0
    x = rng.uniform(-2, 2, [1, total_length]).astype(data_type)
    y = rng.uniform(-2, 2, [1, total_length]).astype(data_type)
    if scenario_num == 1:
        golden = np.maximum(x, y)
    else:
        golden = y.copy()
        golden[x > scalar] = x[x > scalar]
    return x, y, golden


def main() -> bool:
    """Run both scenarios on their ``gen_data.py`` data; compare with the goldens."""
    ok = True
    for scenario_num in (1, 2):
        x, y, golden = gen_golden_data_simple(np.random.default_rng(scenario_num), scenario_num)
        output = kernel_compare(x, y, scenario_num)
        ok = verify_result(output, golden) and ok
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} C API compare (asc-devkit compare.asc, scenarios 1 and 2, 256 float32) "
        "matches the golden."
    )
    return ok

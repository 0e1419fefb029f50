"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/cast/cast.asc``, line for line.

Both scenarios of the compile-time ``SCENARIO_NUM``: scenario 1 widens half to int32_t
(``asc_loadalign_unpack`` puts ``x[i]`` in lane ``2i``, ``asc_half2int32_rd`` floors the even
lanes), scenario 2 narrows float to int16_t (``asc_float2int16_rna_sat`` writes the even
lanes; ``asc_storealign_pack`` of the register read as ``vector_int32_t`` stores their low
halves contiguously). The input and the golden are made as the example's
``scripts/gen_data.py`` makes them (256 values uniform in [-100, 100); golden ``floor(x)`` as
int32, or ``round(x)`` clipped to int16); the host compares with ``std::equal``.

Differences from the C++: the C casts ``(vector_int32_t)dst_reg`` and ``(__ubuf__
int32_t*)y_local`` are ``vector_int32_t(dst_reg)`` (the same register bytes, docs/porting.md)
and ``UbPtr.cast``; the host reads the arrays from ``gen_golden_data_simple`` instead of
``./input/*.bin`` files (``ReadFile``).

Examples
--------
>>> main()
[Success] C API cast scenario 1 (asc-devkit cast.asc, half -> int32_t) matches the golden.
[Success] C API cast scenario 2 (asc-devkit cast.asc, float -> int16_t) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, UbPtr, acl, float32_t, half, int16_t, int32_t, uint16_t
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
    asc_loadalign_unpack,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_storealign_pack,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_float,
    vector_half,
    vector_int16_t,
    vector_int32_t,
)
from ascreg.c_api.convert import CONVERSIONS

# Generated from the Cast table by a loop (ascreg.c_api.convert): `from ascreg.c_api import asc_float2int16_rna_sat`
# works, but only the wheel's stubs declare it to a type checker.
asc_float2int16_rna_sat = CONVERSIONS["asc_float2int16_rna_sat"]
asc_half2int32_rd = CONVERSIONS["asc_half2int32_rd"]

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def cast_vf_s1(x_local: UbPtr[half], y_local: UbPtr[int32_t], data_len: int, one_rep_size: int,
               repeat_time: int) -> None:  # fmt: skip
    """``cast_vf_s1``: unpacking load, ``asc_half2int32_rd`` (floor), store."""
    vmask = asc_create_mask_b32(PAT_ALL)
    src_reg = vector_half()
    dst_reg = vector_int32_t()
    for i in range(repeat_time):
        asc_loadalign_unpack(src_reg, x_local + i * one_rep_size)
        asc_half2int32_rd(dst_reg, src_reg, vmask)
        asc_storealign(y_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def cast_custom_s1(x: GmPtr[half], y: GmPtr[int32_t]) -> None:
    """``cast_custom_s1``: copy in, run ``cast_vf_s1``, copy out."""
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length
    x_local = __ubuf__(half, block_length)
    y_local = __ubuf__(int32_t, block_length)
    burst_length = block_length * half.size
    out_burst_length = block_length * int32_t.size
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = uint16_t(asc_get_vf_len() // int32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    cast_vf_s1(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


@__simd_vf__
def cast_vf_s2(x_local: UbPtr[float32_t], y_local: UbPtr[int16_t], data_len: int,
               one_rep_size: int, repeat_time: int) -> None:  # fmt: skip
    """``cast_vf_s2``: load, ``asc_float2int16_rna_sat`` (round half away, saturate), pack store."""
    vmask = asc_create_mask_b32(PAT_ALL)
    src_reg = vector_float()
    dst_reg = vector_int16_t()
    for i in range(repeat_time):
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_float2int16_rna_sat(dst_reg, src_reg, vmask)
        asc_storealign_pack(y_local.cast(int32_t) + i * one_rep_size // 2, vector_int32_t(dst_reg), vmask)  # fmt: skip


@__global__
@__vector__
def cast_custom_s2(x: GmPtr[float32_t], y: GmPtr[int16_t]) -> None:
    """``cast_custom_s2``: copy in, run ``cast_vf_s2``, copy out."""
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length
    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(int16_t, block_length)
    burst_length = block_length * float32_t.size
    out_burst_length = block_length * int16_t.size
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    cast_vf_s2(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def _run(kernel: Any, x: Arr, src: Any, dst: Any) -> Arr:
    """``kernel_cast_s1`` / ``kernel_cast_s2``: the same host code for the two type pairs."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    x_byte_size = total_length * src.size
    y_byte_size = total_length * dst.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    y_host, _ = acl.rt.malloc_host(y_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    kernel[num_blocks, 0](x_device.cast(src), y_device.cast(dst))
    acl.rt.synchronize_device()
    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: Arr = y_host.view(dst.np_dtype).copy()
    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return y


def kernel_cast_s1(x: Arr) -> Arr:
    """Host side of scenario 1: launch ``cast_custom_s1<<<1, 0>>>``."""
    return _run(cast_custom_s1, x, half, int32_t)


def kernel_cast_s2(x: Arr) -> Arr:
    """Host side of scenario 2: launch ``cast_custom_s2<<<1, 0>>>``."""
    return _run(cast_custom_s2, x, float32_t, int16_t)


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the output and the golden."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def get_saturation(data: Arr, data_type: Any) -> Arr:
    """``get_saturation``: clip to the integer type's range."""
    return np.clip(data, np.iinfo(data_type).min, np.iinfo(data_type).max)


def gen_golden_data_simple(scenario_num: int, rng: np.random.Generator) -> tuple[Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [-100, 100); golden per scenario."""
    total_length = 256
    if scenario_num == 1:
        x = rng.uniform(-100, 100, [1, total_length]).astype(np.float16)
        golden = np.floor(x).astype(np.int32)
    else:
        x = rng.uniform(-100, 100, [1, total_length]).astype(np.float32)
        golden = get_saturation(np.round(x), np.int16).astype(np.int16)
    return x, golden


def main() -> bool:
    """Make the data, run both scenarios, compare each with its golden."""
    ok = True
    for scenario, kernel, what in ((1, kernel_cast_s1, "half -> int32_t"),
                                   (2, kernel_cast_s2, "float -> int16_t")):  # fmt: skip
        x, golden = gen_golden_data_simple(scenario, np.random.default_rng(scenario))
        passed = verify_result(kernel(x.reshape(-1)), golden)
        verdict = "[Success]" if passed else "[Failed]"
        print(f"{verdict} C API cast scenario {scenario} (asc-devkit cast.asc, {what}) matches the golden.")  # fmt: skip
        ok = ok and passed
    return ok

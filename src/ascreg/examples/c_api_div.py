"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/div/div.asc``, line for line.

``z[i] = x[i] / y[i]`` over 1024 floats, one ``asc_div`` a repeat under an
``asc_update_mask_b32`` tail mask. The host's ``main`` makes the data itself (``x[i] = i *
0.5f + 1.0f``, ``y[i] = (i % 50 + 1) * 0.1f + 0.5f``, golden ``x[i] / y[i]`` in float) and
accepts a result within 1 ulp of the golden (``calc_ulp_diff``), the chip's ``vdiv`` bound.

The example's ``scripts/gen_data.py`` (five normal/subnormal patterns tiled, golden the
float64 quotient rounded to float32) is ported as :func:`gen_golden_data`; the C++ ``main``
never reads its files, and its subnormal cases do not hold under ``asc_div``'s flushing of
subnormal inputs and results (the default mode of ``Reg.Div``).

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the float literals are
``np.float32``, so the host arithmetic rounds to float as C++ does.

Examples
--------
>>> main()
[Success] C API div (asc-devkit div.asc, 1024 float32) is within 1 ulp of the golden.
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
    asc_div,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    block_idx,
    vector_float,
)

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 1024
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def div_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    z_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``div_vf``: ``repeat_time`` repeats of two loads, ``asc_div``, store."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    x_reg = vector_float()
    y_reg = vector_float()
    z_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(x_reg, x_local + i * one_rep_size)
        asc_loadalign(y_reg, y_local + i * one_rep_size)
        asc_div(z_reg, x_reg, y_reg, vmask)
        asc_storealign(z_local + i * one_rep_size, z_reg, vmask)


@__global__
@__vector__
def div_custom(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``div_custom``: copy in, run ``div_vf``, copy out."""
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
    div_vf(x_local, y_local, z_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_div(x: Arr, y: Arr) -> Arr:
    """Run the host side: copy in, launch ``div_custom<<<1, 0>>>``, copy out."""
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

    div_custom[num_blocks, 0](
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


def calc_ulp_diff(a: np.float32, b: np.float32) -> int:
    """``calc_ulp_diff``: the distance in ulps of two floats of one sign (``UINT32_MAX`` else)."""
    uint32_max = 0xFFFFFFFF
    if a == b:
        return 0
    if np.isnan(a) or np.isnan(b):
        return uint32_max
    if np.isinf(a) and np.isinf(b):
        return 0 if a == b else uint32_max

    hex_a = int(np.float32(a).view(np.uint32))
    hex_b = int(np.float32(b).view(np.uint32))

    sign_a = (hex_a >> 31) & 1
    sign_b = (hex_b >> 31) & 1

    if sign_a != sign_b:
        if a == 0.0 and b == 0.0:
            return 0
        return uint32_max

    abs_a = hex_a & 0x7FFFFFFF
    abs_b = hex_b & 0x7FFFFFFF

    diff = (abs_a - abs_b) if abs_a > abs_b else (abs_b - abs_a)
    return diff


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: pass when no lane is more than 1 ulp from the golden."""
    wrong_num = 0
    for i in range(output.size):
        ulp_diff = calc_ulp_diff(output[i], golden[i])
        if ulp_diff > 1:
            wrong_num += 1
    return wrong_num == 0


def gen_golden_data() -> tuple[Arr, Arr, Arr]:
    """``scripts/gen_data.py``: five normal (N) / subnormal (S) quotient patterns, tiled.

    N / N = S, N / S = N, S / N = S, S / N = N, S / S = N; the golden is the float64 quotient
    rounded to float32.
    """
    total_length = 1024
    x_small = np.array(
        [np.power(2.0, -126), np.power(2.0, -125), np.power(2.0, -130), np.power(2.0, -130),
         np.power(2.0, -140)]
    )  # fmt: skip
    y_small = np.array([4.0, np.power(2.0, -127), 2.0, np.power(2.0, -20), np.power(2.0, -145)])
    reps = int(np.ceil(total_length / len(x_small)))
    x = (np.tile(x_small, reps)[:total_length]).astype(np.float32)
    y = (np.tile(y_small, reps)[:total_length]).astype(np.float32)

    golden = (x.astype(np.float64) / y.astype(np.float64)).astype(np.float32)
    return x, y, golden


def main() -> bool:
    """Make x and y as ``main`` does, run the kernel, check within 1 ulp of ``x[i] / y[i]``."""
    total_length = TOTAL_LENGTH
    x = np.zeros(total_length, np.float32)
    y = np.zeros(total_length, np.float32)

    for i in range(total_length):
        x[i] = np.float32(i) * np.float32(0.5) + np.float32(1.0)
        y[i] = np.float32(i % 50 + 1) * np.float32(0.1) + np.float32(0.5)

    output = kernel_div(x, y)
    golden = np.zeros(total_length, np.float32)
    for i in range(total_length):
        golden[i] = x[i] / y[i]

    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API div (asc-devkit div.asc, 1024 float32) is within 1 ulp of the golden.")
    return ok

"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/muls/muls.asc``, line for line.

``z[i] = x[i] * scalar`` over 256 floats on 8 blocks of 32: each block runs one repeat of
``asc_mul_scalar`` under an ``asc_update_mask_b32(32)`` mask (half a register) and copies its
32 lanes out. The host's ``main`` makes the data itself (``x[i] = i * 0.1f``, ``scalar =
2.0f``, golden ``x[i] * scalar`` in float) and compares with ``std::equal``; the example's
``scripts/gen_data.py`` (x uniform in [1, 2), golden ``x * 2.0``) is ported too, as
:func:`gen_golden_data_simple`, though the C++ ``main`` does not read its files.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the float literals
``0.1f``/``2.0f`` are ``np.float32``, so the host arithmetic rounds to float as C++ does.
The C++ loads a whole register from a half-register array: a read past the array that is
legal on the chip, whose lanes past it are undefined and masked off (see the semantics page),
so the port keeps the C++ array size (:data:`LOAD_SLACK` is 0).

Examples
--------
>>> main()
[Success] C API muls (asc-devkit muls.asc, 8 blocks x 32 float32) matches the golden.
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
    asc_init,
    asc_loadalign,
    asc_mul_scalar,
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

TOTAL_LENGTH = 256
NUM_BLOCKS = 8
BLK_NUM = 1
LOAD_SLACK = 0
"""Floats allocated past ``x_local`` (0: the C++ array). A block's 32 floats are half a register
and ``asc_loadalign`` reads a whole one (256 bytes), 128 bytes past the array: the chip reads
whatever UB holds there and the lanes are masked off later, which ascreg models with undefined
lanes (an error only if an active lane of a store used them)."""


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def muls_vf(
    x_local: UbPtr[float32_t],
    z_local: UbPtr[float32_t],
    scalar: Any,
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``muls_vf``: ``repeat_time`` repeats of load, ``asc_mul_scalar``, store."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_mul_scalar(dst_reg, src_reg, scalar, vmask)
        asc_storealign(z_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def muls_custom(x: GmPtr[float32_t], z: GmPtr[float32_t], scalar: Any) -> None:
    """``muls_custom``: each block copies its 32 floats in, runs ``muls_vf``, copies out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    z_gm = z + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length + LOAD_SLACK)  # C++: x_local[block_length]
    z_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * float32_t.size
    out_burst_length = block_length * float32_t.size
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    muls_vf(x_local, z_local, scalar, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_muls(x: Arr, scalar: Any) -> Arr:
    """Run the host side: copy in, launch ``muls_custom<<<8, 0>>>(x, z, scalar)``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    x_byte_size = total_length * float32_t.size
    z_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    z_host, _ = acl.rt.malloc_host(z_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(z_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    muls_custom[num_blocks, 0](x_device.cast(float32_t), z_device.cast(float32_t), scalar)
    acl.rt.synchronize_device()

    acl.rt.memcpy(z_host, z_byte_size, z_device, z_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    z: Arr = z_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(z_device)
    acl.rt.free_host(z_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return z


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the output and the golden."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Any, Arr]:
    """``scripts/gen_data.py``: x uniform in [1, 2), ``scalar = 2.0``, golden ``x * scalar``."""
    total_length = 256
    data_type = np.float32
    scalar = 2.0
    x = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    golden = x * scalar
    return x, float32_t(scalar), golden


def main() -> bool:
    """Run ``main``: ``x[i] = i * 0.1f``, ``scalar = 2.0f``, golden ``x[i] * scalar`` in float."""
    total_length = TOTAL_LENGTH
    x = np.zeros(total_length, np.float32)
    scalar = np.float32(2.0)

    for i in range(total_length):
        x[i] = np.float32(i) * np.float32(0.1)
    output = kernel_muls(x, scalar)
    golden = np.zeros(total_length, np.float32)
    for i in range(total_length):
        golden[i] = np.float32(x[i] * scalar)
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API muls (asc-devkit muls.asc, 8 blocks x 32 float32) matches the golden.")
    return ok

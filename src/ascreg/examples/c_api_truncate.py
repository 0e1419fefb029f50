"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/truncate/truncate.asc``, line for line.

``y[i] = floor(x[i])`` over 256 floats, one ``asc_floor`` a repeat under an
``asc_update_mask_b32`` tail mask. The input and the golden are made as the example's
``scripts/gen_data.py`` makes them (256 floats uniform in [-100, 100), golden ``np.floor``); the
host compares with ``std::equal``.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the host reads the arrays from
``gen_golden_data_simple`` instead of ``./input/*.bin`` files (``ReadFile``).

Examples
--------
>>> main()
[Success] C API truncate (asc-devkit truncate.asc, 256 float32) matches the golden.
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
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    block_idx,
    vector_float,
)
from ascreg.c_api.convert import TRUNCATIONS

# Generated from the Cast table by a loop (ascreg.c_api.convert): `from ascreg.c_api import asc_floor`
# works, but only the wheel's stubs declare it to a type checker.
asc_floor = TRUNCATIONS["asc_floor"]

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def truncate_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``truncate_vf``: ``repeat_time`` repeats of load, ``asc_floor``, store under the tail mask."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_floor(dst_reg, src_reg, vmask)
        asc_storealign(y_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def truncate_custom(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """``truncate_custom``: copy in, run ``truncate_vf``, copy out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0
    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    truncate_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_truncate(x: Arr) -> Arr:
    """Run the host side: copy in, launch ``truncate_custom<<<1, 0>>>``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    total_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(total_byte_size)
    x_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, total_byte_size, x, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    truncate_custom[num_blocks, 0](x_device.cast(float32_t), y_device.cast(float32_t))
    acl.rt.synchronize_device()

    acl.rt.memcpy(y_host, total_byte_size, y_device, total_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: Arr = y_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return y


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the output and the golden."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [-100, 100), golden ``np.floor(x)``."""
    total_length = 256
    data_type = np.float32
    x = rng.uniform(-100, 100, [1, total_length]).astype(data_type)
    golden = np.floor(x)
    return x, golden


def main() -> bool:
    """Make the data, run the kernel, compare with the golden."""
    x, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_truncate(x)
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API truncate (asc-devkit truncate.asc, 256 float32) matches the golden.")
    return ok

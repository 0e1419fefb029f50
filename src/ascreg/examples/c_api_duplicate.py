"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/duplicate/duplicate.asc``, line for line.

Fills 256 floats with the scalar ``3.14f`` (``asc_duplicate_scalar`` under an
``asc_update_mask_b32`` tail mask); the golden is the example's ``scripts/gen_data.py``:
``np.full(256, 3.14, np.float32)``.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the host's ``3.14f`` is the
C cast ``float32_t(3.14)``.

Examples
--------
>>> main()
[Success] C API duplicate (asc-devkit duplicate.asc, 256 x 3.14f) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_ub2gm_align,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_init,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    block_idx,
    vector_float,
)

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def duplicate_vf(
    y_local: UbPtr[float32_t], scalar: Any, data_len: int, one_rep_size: int, repeat_time: int
) -> None:
    """``duplicate_vf``: fill ``data_len`` lanes with *scalar*, one register a repeat."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_duplicate_scalar(dst_reg, scalar, vmask)
        asc_storealign(y_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def duplicate_custom(y: GmPtr[float32_t], scalar: Any) -> None:
    """``duplicate_custom``: run ``duplicate_vf`` into UB, copy out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    y_gm = y + block_idx * block_length

    y_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    duplicate_vf(y_local, scalar, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_duplicate(scalar: Any) -> np.ndarray[Any, Any]:
    """Run the host side: launch ``duplicate_custom<<<1, 0>>>(y_device, scalar)``, copy out."""
    num_blocks = NUM_BLOCKS
    y_byte_size = TOTAL_LENGTH * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(y_byte_size)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memset(y_device, y_byte_size, 0, y_byte_size)

    duplicate_custom[num_blocks, 0](y_device.cast(float32_t), scalar)
    acl.rt.synchronize_device()

    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: np.ndarray[Any, Any] = y_host.view(np.float32).copy()

    acl.rt.free(y_device)
    acl.rt.free_host(y_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return y


def main() -> bool:
    """Run with ``3.14f`` and compare with the golden of ``scripts/gen_data.py``."""
    golden = np.full([1, TOTAL_LENGTH], 3.14, dtype=np.float32)
    output = kernel_duplicate(float32_t(3.14))
    ok = bool(np.array_equal(output, golden.reshape(-1)))
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API duplicate (asc-devkit duplicate.asc, 256 x 3.14f) matches the golden.")
    return ok

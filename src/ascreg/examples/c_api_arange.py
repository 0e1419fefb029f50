"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/arange/arange.asc``, line for line.

``y = 0, 1, ..., 255`` as floats: the kernel calls ``arange_vf`` once a repeat, each call an
``asc_arange`` from ``start_value`` stored whole (``PAT_ALL``), ``start_value`` advancing by
64. The golden is the example's ``scripts/gen_data.py``: ``np.arange(0, 256, 1)`` as float32.

Differences from the C++: ``static_cast<float>`` is ``float32_t(...)``; there is no input, so
the host only allocates, launches and copies out.

Examples
--------
>>> main()
[Success] C API arange (asc-devkit arange.asc, 256 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_arange,
    asc_copy_ub2gm_align,
    asc_create_mask_b32,
    asc_get_vf_len,
    asc_init,
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
def arange_vf(y_local: UbPtr[float32_t], start_value: Any) -> None:
    """``arange_vf``: one register of ``start_value + i``, stored at ``y_local``."""
    vmask = asc_create_mask_b32(PAT_ALL)
    dst_reg = vector_float()
    asc_arange(dst_reg, start_value)
    asc_storealign(y_local, dst_reg, vmask)


@__global__
@__vector__
def arange_custom(y: GmPtr[float32_t]) -> None:
    """``arange_custom``: ``repeat_time`` calls of ``arange_vf``, then copy out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    y_gm = y + block_idx * block_length

    y_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    start_value = float32_t(block_idx * block_length)
    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    for i in range(repeat_time):
        arange_vf(y_local + i * one_rep_size, start_value)
        start_value += float32_t(one_rep_size)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_arange() -> Arr:
    """Run the host side: launch ``arange_custom<<<1, 0>>>(y_device)``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = TOTAL_LENGTH
    total_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(total_byte_size)
    y_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    arange_custom[num_blocks, 0](y_device.cast(float32_t))
    acl.rt.synchronize_device()

    acl.rt.memcpy(y_host, total_byte_size, y_device, total_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: Arr = y_host.view(np.float32).copy()

    acl.rt.free(y_device)
    acl.rt.free_host(y_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return y


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the output and the golden."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def gen_golden_data_simple() -> Arr:
    """``scripts/gen_data.py``: the golden ``0, 1, ..., 255`` as float32."""
    total_length = 256
    data_type = np.float32
    golden = np.arange(0, total_length, 1).astype(data_type)
    return golden


def main() -> bool:
    """Run the kernel and compare with the golden."""
    golden = gen_golden_data_simple()
    output = kernel_arange()
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API arange (asc-devkit arange.asc, 256 float32) matches the golden.")
    return ok

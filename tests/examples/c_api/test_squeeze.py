"""Port of asc-devkit examples/02_simd_c_api/03_c_api/02_reg_vector_compute/squeeze/squeeze.asc.

Line for line: ``squeeze_vf`` keeps every 4th float of each register with ``asc_squeeze`` under
``PAT_M4`` and stores the whole register at ``y_local + i * one_rep_size / 4``, each store's
zero tail overwritten by the next. The input is made as scripts/gen_data.py makes it
(``uniform(-2, 2)`` floats, golden ``x[::4]``) and checked as ``verify_result`` does
(``std::equal``).

Difference from the C++: each ``asc_storealign`` writes a whole register (64 floats) at
``y_local + 16 i``, so the last ones write up to 48 floats past the 64-float ``y_local``; ascreg
rejects that write (``OutOfBoundsError``), so the port allocates :data:`STORE_SLACK` more floats.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, float32_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PAT_M4,
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
    asc_squeeze,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_float,
)

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1
STORE_SLACK = 48
"""Floats allocated past ``y_local`` (not in the C++): the last register stores reach them."""


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def squeeze_vf(x_local: UbPtr[float32_t], y_local: UbPtr[float32_t], data_len: int, one_rep_size: int, repeat_time: int) -> None:  # fmt: skip
    vmask = asc_create_mask_b32(PAT_M4)
    store_mask = asc_create_mask_b32(PAT_ALL)
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_squeeze(dst_reg, src_reg, vmask)
        asc_storealign(y_local + i * one_rep_size // 4, dst_reg, store_mask)


@__global__
@__vector__
def squeeze_custom(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    output_length = block_length // 4
    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * output_length
    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, output_length + STORE_SLACK)
    burst_length = block_length * 4
    out_burst_length = output_length * 4
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = asc_get_vf_len() // float32_t.size
    repeat_time = ceil_division(block_length, one_rep_size)
    squeeze_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_squeeze(x: np.ndarray) -> np.ndarray:
    num_blocks = NUM_BLOCKS
    output_length = x.size // 4
    x_byte_size = x.size * float32_t.size
    y_byte_size = output_length * float32_t.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    y_host, _ = acl.rt.malloc_host(y_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    squeeze_custom[num_blocks, 0](x_device.cast(float32_t), y_device.cast(float32_t))
    acl.rt.synchronize_device()
    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: np.ndarray = y_host.view(np.float32).copy()
    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return y


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output."""
    return bool(np.array_equal(output, golden.reshape(-1)))


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    x = np.random.default_rng(seed).uniform(-2, 2, [1, TOTAL_LENGTH]).astype(np.float32)
    return x.flatten(), x.reshape(TOTAL_LENGTH // 4, 4)[:, 0].copy()


@pytest.mark.parametrize("seed", [0, 1])
def test_c_api_squeeze_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert verify_result(kernel_squeeze(x), golden)


def test_c_api_squeeze_check_rejects_the_wrong_phase() -> None:
    """Keeping lanes 1, 5, 9, ... instead of 0, 4, 8, ... must fail the check."""
    x, _golden = gen_golden_data_simple(2)
    assert not verify_result(kernel_squeeze(x), x.reshape(-1, 4)[:, 1])

"""Port of asc-devkit examples/02_simd_c_api/03_c_api/02_reg_vector_compute/histogram/histogram.asc.

Line for line: ``histogram_vf`` zeroes two ``vector_uint16_t`` with ``asc_duplicate_scalar``,
counts the 256 uint8 inputs with ``asc_frequency_histogram_bin0`` / ``_bin1`` and stores the two
halves of the 256-bin count. The input is made as scripts/gen_data.py makes it (``randint(0,
256)`` bytes, golden the per-value count) and checked as ``verify_result`` does
(``std::equal``).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, uint8_t, uint16_t
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
    asc_create_mask_b8,
    asc_create_mask_b16,
    asc_duplicate_scalar,
    asc_frequency_histogram_bin0,
    asc_frequency_histogram_bin1,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_uint8_t,
    vector_uint16_t,
)

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def histogram_vf(x_local: UbPtr[uint8_t], y_local: UbPtr[uint16_t], data_len: int, one_rep_size: int, repeat_time: int) -> None:  # fmt: skip
    vmask_u8 = asc_create_mask_b8(PAT_ALL)
    vmask_u16 = asc_create_mask_b16(PAT_ALL)
    src_reg = vector_uint8_t()
    dst0_reg = vector_uint16_t()
    dst1_reg = vector_uint16_t()
    asc_duplicate_scalar(dst0_reg, 0)
    asc_duplicate_scalar(dst1_reg, 0)
    for i in range(repeat_time):
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_frequency_histogram_bin0(dst0_reg, src_reg, vmask_u8)
        asc_frequency_histogram_bin1(dst1_reg, src_reg, vmask_u8)
    asc_storealign(y_local, dst0_reg, vmask_u16)
    asc_storealign(y_local + 128, dst1_reg, vmask_u16)


@__global__
@__vector__
def histogram_custom(x: GmPtr[uint8_t], y: GmPtr[uint16_t]) -> None:
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    x_gm = x + block_idx * block_length
    y_gm = y
    x_local = __ubuf__(uint8_t, block_length)
    y_local = __ubuf__(uint16_t, 256)
    burst_length = block_length * 1
    out_burst_length = 256 * 2
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = asc_get_vf_len() // uint8_t.size
    repeat_time = ceil_division(block_length, one_rep_size)
    histogram_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_histogram(x: np.ndarray) -> np.ndarray:
    num_blocks = NUM_BLOCKS
    x_byte_size = x.size * uint8_t.size
    y_byte_size = 256 * uint16_t.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    y_host, _ = acl.rt.malloc_host(y_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    histogram_custom[num_blocks, 0](x_device.cast(uint8_t), y_device.cast(uint16_t))
    acl.rt.synchronize_device()
    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y: np.ndarray = y_host.view(np.uint16).copy()
    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return y


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output."""
    return bool(np.array_equal(output, golden))


def gen_golden_data_histogram(seed: int) -> tuple[np.ndarray, np.ndarray]:
    x = np.random.default_rng(seed).integers(0, 256, [1, TOTAL_LENGTH]).astype(np.uint8)
    golden = np.zeros(256, dtype=np.uint16)
    for val in x.flatten():
        golden[val] += 1
    return x.flatten(), golden


@pytest.mark.parametrize("seed", [0, 1])
def test_c_api_histogram_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_histogram(seed)
    assert verify_result(kernel_histogram(x), golden)


def test_c_api_histogram_check_rejects_swapped_halves() -> None:
    """Storing the BIN1 half first must fail the check."""
    x, golden = gen_golden_data_histogram(2)
    assert not verify_result(kernel_histogram(x), np.concatenate([golden[128:], golden[:128]]))

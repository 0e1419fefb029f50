"""Port of asc-devkit examples/02_simd_c_api/03_c_api/02_reg_vector_compute/data_relayout/data_relayout.asc.

Line for line, both scenarios of the compile-time ``SCENARIO_NUM``:

1. ``interleave_custom``: ``interleave_vf`` interleaves two 128-lane uint16 registers with
   ``asc_intlv`` (the low halves into ``dst0``, the high halves into ``dst1``);
2. ``pack_custom``: ``pack_vf`` keeps the low 16 bits of 64 uint32 lanes per repeat with
   ``asc_pack_to_low`` and stores the uint16 register at ``dst_local + i * one_rep_size``.

Inputs and goldens are made as scripts/gen_data.py makes them (``uniform(0, 65535)`` uint16
pairs with the interleaved golden; ``uniform(0, 0xFFFFFFFF)`` uint32 with golden ``x & 0xFFFF``)
and checked as ``verify_result`` does (``std::equal``).

A finding, the same as the Reg port's (tests/examples/reg/test_data_relayout.py): scenario 2's
``asc_storealign`` writes all 128 uint16 lanes (``PAT_ALL``) but steps by ``one_rep_size = 64``,
so the second repeat writes 64 lanes past the 128-element ``dst_local``. ascreg rejects that
write (``OutOfBoundsError``); the port allocates :data:`STORE_SLACK` more elements, and
``test_pack_stores_past_dst_local`` pins the finding with the slack removed.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, uint16_t, uint32_t
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
    asc_create_mask_b16,
    asc_get_vf_len,
    asc_init,
    asc_intlv,
    asc_loadalign,
    asc_pack_to_low,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_uint16_t,
    vector_uint32_t,
)
from ascreg.errors import OutOfBoundsError

TOTAL_LENGTH = 128
NUM_BLOCKS = 1
BLK_NUM = 1
STORE_SLACK = 64
"""uint16 elements allocated past scenario 2's ``dst_local`` (not in the C++): the second
repeat's whole-register store reaches them."""


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def interleave_vf(dst0_local: UbPtr[uint16_t], dst1_local: UbPtr[uint16_t], src0_local: UbPtr[uint16_t], src1_local: UbPtr[uint16_t]) -> None:  # fmt: skip
    src0_reg = vector_uint16_t()
    src1_reg = vector_uint16_t()
    dst0_reg = vector_uint16_t()
    dst1_reg = vector_uint16_t()
    vmask = asc_create_mask_b16(PAT_ALL)
    asc_loadalign(src0_reg, src0_local)
    asc_loadalign(src1_reg, src1_local)
    asc_intlv(dst0_reg, dst1_reg, src0_reg, src1_reg)
    asc_storealign(dst0_local, dst0_reg, vmask)
    asc_storealign(dst1_local, dst1_reg, vmask)


@__global__
@__vector__
def interleave_custom(src0: GmPtr[uint16_t], src1: GmPtr[uint16_t], dst0: GmPtr[uint16_t], dst1: GmPtr[uint16_t]) -> None:  # fmt: skip
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    src0_gm = src0 + block_idx * block_length
    src1_gm = src1 + block_idx * block_length
    dst0_gm = dst0 + block_idx * block_length
    dst1_gm = dst1 + block_idx * block_length
    src0_local = __ubuf__(uint16_t, block_length)
    src1_local = __ubuf__(uint16_t, block_length)
    dst0_local = __ubuf__(uint16_t, block_length)
    dst1_local = __ubuf__(uint16_t, block_length)
    burst_length = block_length * 2
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(src0_local, src0_gm, burst_length)
    asc_copy_gm2ub_align(src1_local, src1_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    interleave_vf(dst0_local, dst1_local, src0_local, src1_local)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        dst0_gm, dst0_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_copy_ub2gm_align(
        dst1_gm, dst1_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


@__simd_vf__
def pack_vf(dst_local: UbPtr[uint16_t], src_local: UbPtr[uint32_t], one_rep_size: int, repeat_time: int) -> None:  # fmt: skip
    src_reg = vector_uint32_t()
    dst_reg = vector_uint16_t()
    vmask = asc_create_mask_b16(PAT_ALL)
    for i in range(repeat_time):
        asc_loadalign(src_reg, src_local + i * one_rep_size)
        asc_pack_to_low(dst_reg, src_reg)
        asc_storealign(dst_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def pack_custom(src: GmPtr[uint32_t], dst: GmPtr[uint16_t], store_slack: int) -> None:
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    src_gm = src + block_idx * block_length
    dst_gm = dst + block_idx * block_length
    src_local = __ubuf__(uint32_t, block_length)
    dst_local = __ubuf__(uint16_t, block_length + store_slack)  # C++: dst_local[block_length]
    burst_length = block_length * 4
    out_burst_length = block_length * 2
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(src_local, src_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = asc_get_vf_len() // uint32_t.size
    repeat_time = ceil_division(block_length, one_rep_size)
    pack_vf(dst_local, src_local, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        dst_gm, dst_local, BLK_NUM, out_burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_interleave(src0: np.ndarray, src1: np.ndarray) -> list[np.ndarray]:
    num_blocks = NUM_BLOCKS
    byte_size = src0.size * uint16_t.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    dst0_host, _ = acl.rt.malloc_host(byte_size)
    dst1_host, _ = acl.rt.malloc_host(byte_size)
    src0_device, _ = acl.rt.malloc(byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    src1_device, _ = acl.rt.malloc(byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dst0_device, _ = acl.rt.malloc(byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dst1_device, _ = acl.rt.malloc(byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src0_device, byte_size, src0, byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(src1_device, byte_size, src1, byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    interleave_custom[num_blocks, 0](
        src0_device.cast(uint16_t), src1_device.cast(uint16_t),
        dst0_device.cast(uint16_t), dst1_device.cast(uint16_t),
    )  # fmt: skip
    acl.rt.synchronize_device()
    acl.rt.memcpy(dst0_host, byte_size, dst0_device, byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.memcpy(dst1_host, byte_size, dst1_device, byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    dst = [dst0_host.view(np.uint16).copy(), dst1_host.view(np.uint16).copy()]
    for device in (src0_device, src1_device, dst0_device, dst1_device):
        acl.rt.free(device)
    acl.rt.free_host(dst0_host)
    acl.rt.free_host(dst1_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return dst


def kernel_pack(src: np.ndarray, store_slack: int = STORE_SLACK) -> np.ndarray:
    num_blocks = NUM_BLOCKS
    src_byte_size = src.size * uint32_t.size
    dst_byte_size = src.size * uint16_t.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    dst_host, _ = acl.rt.malloc_host(dst_byte_size)
    src_device, _ = acl.rt.malloc(src_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dst_device, _ = acl.rt.malloc(dst_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src_device, src_byte_size, src, src_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    pack_custom[num_blocks, 0](src_device.cast(uint32_t), dst_device.cast(uint16_t), store_slack)
    acl.rt.synchronize_device()
    acl.rt.memcpy(dst_host, dst_byte_size, dst_device, dst_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    dst: np.ndarray = dst_host.view(np.uint16).copy()
    acl.rt.free(src_device)
    acl.rt.free(dst_device)
    acl.rt.free_host(dst_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return dst


def verify_result(output: list[np.ndarray], golden: list[np.ndarray]) -> bool:
    """Both overloads of ``verify_result``: ``std::equal`` of each golden and its output."""
    return all(np.array_equal(o, g) for o, g in zip(output, golden, strict=True))


def gen_golden_data_interleave(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:  # fmt: skip
    """scripts/gen_data.py scenario 1: two uint16 vectors and their half-by-half interleaving."""
    total_length = 128
    x = rng.uniform(0, 65535, [1, total_length]).astype(np.uint16)
    y = rng.uniform(0, 65535, [1, total_length]).astype(np.uint16)
    x_flat, y_flat = x.flatten(), y.flatten()
    dst0 = np.zeros(total_length, dtype=np.uint16)
    dst1 = np.zeros(total_length, dtype=np.uint16)
    dst0[0::2] = x_flat[:64]
    dst0[1::2] = y_flat[:64]
    dst1[0::2] = x_flat[64:]
    dst1[1::2] = y_flat[64:]
    return x_flat, y_flat, [dst0, dst1]


def gen_golden_data_pack(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 2: uint32 values and their low 16 bits."""
    total_length = 128
    x = rng.uniform(0, 0xFFFFFFFF, [1, total_length]).astype(np.uint32)
    golden = (x & 0xFFFF).astype(np.uint16).flatten()
    return x.flatten(), golden


@pytest.mark.parametrize("seed", [0, 1])
def test_interleave_matches_the_golden(seed: int) -> None:
    x, y, golden = gen_golden_data_interleave(np.random.default_rng(seed))
    assert verify_result(kernel_interleave(x, y), golden)


def test_interleave_check_rejects_swapped_halves() -> None:
    """``dst0`` and ``dst1`` swapped (high halves first) must fail the check."""
    x, y, golden = gen_golden_data_interleave(np.random.default_rng(2))
    assert not verify_result(kernel_interleave(x, y), golden[::-1])


@pytest.mark.parametrize("seed", [0, 1])
def test_pack_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_pack(np.random.default_rng(seed))
    assert verify_result([kernel_pack(x)], [golden])


def test_pack_check_rejects_the_high_half() -> None:
    """The high 16 bits instead of the low ones must fail the check."""
    x, _golden = gen_golden_data_pack(np.random.default_rng(2))
    assert not verify_result([kernel_pack(x)], [(x >> 16).astype(np.uint16)])


def test_pack_stores_past_dst_local() -> None:
    """A finding: the second repeat's ``PAT_ALL`` store leaves the 128-element ``dst_local``."""
    x, _golden = gen_golden_data_pack(np.random.default_rng(3))
    with pytest.raises(OutOfBoundsError, match=r"uint16_t\[128\]"):
        kernel_pack(x, store_slack=0)
    acl.rt.reset_device(0)
    acl.finalize()

"""Cross-core and per-pipe sync (they inform the pipe checker) and the copy engine's store
atomics (ascreg.c_api.coresync)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, int8_t, int32_t, uint8_t, uint32_t
from ascreg._spec.c_api import STORE_ATOMIC_OPS, STORE_ATOMIC_TYPES
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.kernel import BlockContext, block
from reference.common import to_bits
from reference.store_atomic import merge
from strategies import assert_same_lanes, lane_bits

ELEMENTS = 64
"""Bytes per copy in the atomic tests are ELEMENTS * sizeof(T) (a multiple of 32)."""


# ---- store atomics -------------------------------------------------------------------------------

ATOMIC_ROWS = [f"asc_set_atomic_{op}_{s}" for op in STORE_ATOMIC_OPS for s in STORE_ATOMIC_TYPES]


@pytest.mark.rows(*ATOMIC_ROWS, "asc_set_atomic_none")
@pytest.mark.parametrize("op", STORE_ATOMIC_OPS)
@pytest.mark.parametrize("suffix", list(STORE_ATOMIC_TYPES))
@given(data=st.data())
def test_atomic_copies_merge_into_gm(op: str, suffix: str, data: Any) -> None:
    dtype = STORE_ATOMIC_TYPES[suffix]
    old = data.draw(lane_bits(dtype, ELEMENTS))
    new = data.draw(lane_bits(dtype, ELEMENTS))
    nbytes = ELEMENTS * dtype.size
    gm = GlobalMemory().alloc(dtype, ELEMENTS)
    gm.write(np.array(old, f"<u{dtype.size}").view(dtype.np_dtype))
    with block(BlockContext()):
        ub = C.__ubuf__(dtype, ELEMENTS)
        ub.write(np.array(new, f"<u{dtype.size}").view(dtype.np_dtype))
        C.asc_sync()
        getattr(C, f"asc_set_atomic_{op}_{suffix}")()
        C.asc_copy_ub2gm(gm, ub, nbytes)
        C.asc_set_atomic_none()
        C.asc_sync_pipe(C.PIPE_MTE3)
        C.asc_copy_ub2gm(gm + ELEMENTS // 2, ub, nbytes // 2)  # plain again: overwrites
    want = [merge(op, a, b, dtype) for a, b in zip(old, new, strict=True)]
    want[ELEMENTS // 2 :] = new[: ELEMENTS // 2]
    assert_same_lanes(to_bits(gm.read(ELEMENTS)), want, dtype)


def test_documented_atomic_add_example() -> None:
    """simd_atomic/asc_set_atomic_add.md: ones, then twos added atomically, give threes."""
    total_length = 256
    dst = GlobalMemory().alloc(int8_t, total_length)

    @C.__global__
    @C.__aicore__
    def kernel(dst: GmPtr[int8_t]) -> None:
        src0 = C.__ubuf__(int8_t, total_length)
        src1 = C.__ubuf__(int8_t, total_length)
        src0.write(np.ones(total_length, np.int8))
        src1.write(np.full(total_length, 2, np.int8))
        C.asc_sync()
        C.asc_copy_ub2gm(dst, src0, total_length * int8_t.size)
        C.asc_sync_pipe(C.PIPE_MTE3)
        C.asc_set_atomic_add_int8()
        C.asc_copy_ub2gm(dst, src1, total_length * int8_t.size)
        C.asc_set_atomic_none()

    kernel[1, 0, None](dst)
    assert dst.read(total_length).tolist() == [3] * total_length


def test_atomic_writes_of_several_blocks_are_no_race() -> None:
    out = GlobalMemory().alloc(int32_t, 8)
    out.write(np.zeros(8, np.int32))

    @C.__global__
    @C.__aicore__
    def kernel(out: GmPtr[int32_t], atomic: bool) -> None:
        C.asc_init()
        buf = C.__ubuf__(int32_t, 8)
        buf.write(np.full(8, C.asc_get_block_idx() + 1, np.int32))
        C.asc_sync()
        if atomic:
            C.asc_set_atomic_add_int()
        C.asc_copy_ub2gm_align(out, buf, 32)

    kernel[4, 0, None](out, True)
    assert out.read(8).tolist() == [10] * 8
    with pytest.raises(SyncError, match="block 1 writes"):
        kernel[2, 0, None](out, False)


def test_asc_init_clears_the_atomic_mode_and_a_partial_element_is_an_error() -> None:
    gm = GlobalMemory().alloc(uint8_t, 64)
    gm.write(np.full(64, 5, np.uint8))
    with block(BlockContext()):
        ub = C.__ubuf__(uint8_t, 64)
        ub.write(np.ones(64, np.uint8))
        C.asc_sync()
        C.asc_set_atomic_add_float()
        C.asc_init()
        C.asc_copy_ub2gm(gm, ub, 64)
        C.asc_sync_pipe(C.PIPE_MTE3)
        assert gm.read(64).tolist() == [1] * 64
        C.asc_set_atomic_max_int()
        with pytest.raises(AscregError, match="not a whole number of int32_t"):
            C.asc_copy_ub2gm(gm, ub, 1, 2, 0, 0)


@pytest.mark.rows("asc_get_store_atomic_config")
def test_get_store_atomic_config_reports_the_mode_and_is_deprecated() -> None:
    cfg = C.asc_store_atomic_config()
    codes = {"float": 1, "float16": 2, "int16": 3, "int": 4, "int8": 5, "bfloat": 6}
    with block(BlockContext()):
        with pytest.warns(DeprecationWarning, match="use asc_atomic_add"):
            C.asc_get_store_atomic_config(cfg)
        assert (cfg.atomic_type, cfg.atomic_op, cfg.config) == (0, 0, 0)
        for op, op_code in zip(STORE_ATOMIC_OPS, (0, 1, 2), strict=True):
            for suffix, type_code in codes.items():
                getattr(C, f"asc_set_atomic_{op}_{suffix}")()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    C.asc_get_store_atomic_config(cfg)
                assert (cfg.atomic_type, cfg.atomic_op) == (type_code, op_code)
                assert cfg.config == type_code | op_code << 3
        with pytest.warns(DeprecationWarning), pytest.raises(AscregTypeError, match="config"):
            C.asc_get_store_atomic_config(0)


# ---- cross-core flags ----------------------------------------------------------------------------

FLAG_ROWS = [
    f"asc_sync_{k}_{s}" for k in ("block", "subblock", "inter") for s in ("arrive", "wait")
]


@pytest.mark.rows(*FLAG_ROWS)
@pytest.mark.parametrize("kind", ["block", "subblock", "inter"])
def test_arrive_wait_orders_the_pipes_like_a_flag(kind: str) -> None:
    arrive, wait = getattr(C, f"asc_sync_{kind}_arrive"), getattr(C, f"asc_sync_{kind}_wait")
    gm = GlobalMemory().alloc(uint32_t, 8)
    gm.write(np.arange(8, dtype=np.uint32))
    with block(BlockContext()):
        ub = C.__ubuf__(uint32_t, 8)
        C.asc_copy_gm2ub(ub, gm, 32)
        arrive(C.PIPE_MTE2, 3)
        wait(C.PIPE_S, 3)
        assert ub.read(8).tolist() == list(range(8))  # the scalar read is ordered after MTE2
    with block(BlockContext()):
        ub = C.__ubuf__(uint32_t, 8)
        C.asc_copy_gm2ub(ub, gm, 32)
        arrive(C.PIPE_V, 3)  # the wrong pipe: nothing orders MTE2 before the read
        wait(C.PIPE_S, 3)
        with pytest.raises(SyncError):
            ub.read(8)


@pytest.mark.rows(*FLAG_ROWS)
def test_the_three_waits_share_one_counter_per_flag() -> None:
    with block(BlockContext()):
        C.asc_sync_block_arrive(C.PIPE_S, 0)
        C.asc_sync_subblock_arrive(C.PIPE_S, 0)
        C.asc_sync_inter_arrive(C.PIPE_S, 0)
        C.asc_sync_inter_wait(C.PIPE_S, 0)
        C.asc_sync_block_wait(C.PIPE_S, 0)
        C.asc_sync_subblock_wait(C.PIPE_S, 0)
        with pytest.raises(SyncError, match="counter at 0"):
            C.asc_sync_block_wait(C.PIPE_S, 0)


@pytest.mark.rows(*FLAG_ROWS)
def test_flag_limits() -> None:
    with block(BlockContext()):
        for _ in range(15):
            C.asc_sync_block_arrive(C.PIPE_S, 15)
        with pytest.raises(SyncError, match="4-bit counter of flag 15"):
            C.asc_sync_block_arrive(C.PIPE_S, 15)
        with pytest.raises(AscregTypeError, match=r"flag_id 16 is outside \[0, 15\]"):
            C.asc_sync_inter_arrive(C.PIPE_S, 16)
        with pytest.raises(SyncError, match="not a single pipe_t"):
            C.asc_sync_block_wait(C.PIPE_ALL, 15)


@pytest.mark.rows("asc_sync_inter_arrive", "asc_sync_inter_wait", "asc_sync_block_arrive")
def test_inter_arrive_reaches_later_blocks_block_arrive_does_not() -> None:
    @C.__global__
    @C.__aicore__
    def kernel(kind: str, waiter: int) -> None:
        if C.asc_get_block_idx() == waiter:
            C.asc_sync_inter_wait(C.PIPE_S, 2)
        else:
            getattr(C, f"asc_sync_{kind}_arrive")(C.PIPE_S, 2)

    kernel[2, 0, None]("inter", 1)
    with pytest.raises(SyncError, match="an arrive must come from this block or an earlier one"):
        kernel[2, 0, None]("inter", 0)
    with pytest.raises(SyncError, match="counter at 0"):
        kernel[2, 0, None]("block", 1)


@pytest.mark.rows("asc_sync_intra_arrive", "asc_sync_intra_wait")
def test_intra_signals_of_a_vector_only_kernel_reach_no_cube_core() -> None:
    """A __mix__(1, 2) launch runs the cube core (tests/basic/test_crosscore.py)."""
    with block(BlockContext()):
        C.asc_sync_intra_arrive(C.PIPE_S, 1)
        with pytest.raises(
            SyncError, match=r"this launch runs no cube core \(declare the kernel __mix__\(1, 2\)\)"
        ):
            C.asc_sync_intra_wait(C.PIPE_S, 1)
        with pytest.raises(AscregTypeError, match=r"sync_id 16 is outside \[0, 15\]"):
            C.asc_sync_intra_arrive(C.PIPE_S, 16)


# ---- per-pipe barriers ---------------------------------------------------------------------------


@pytest.mark.rows("asc_sync_mte2", "asc_sync_mte3", "asc_sync_vec")
def test_copy_pipe_barriers_order_the_copy_pipes() -> None:
    gm_in = GlobalMemory().alloc(uint32_t, 8)
    gm_in.write(np.arange(8, dtype=np.uint32))
    gm_out = GlobalMemory().alloc(uint32_t, 8)
    with block(BlockContext()):
        ub = C.__ubuf__(uint32_t, 8)
        C.asc_copy_gm2ub(ub, gm_in, 32)
        C.asc_sync_mte2(0)  # MTE2 -> MTE3 and MTE2 -> V
        C.asc_copy_ub2gm(gm_out, ub, 32)
        C.asc_sync_mte3(1)  # MTE3 -> MTE2: the next copy in may overwrite ub
        C.asc_copy_gm2ub(ub, gm_in, 32)
        C.asc_sync_vec()
        assert ub.read(8).tolist() == list(range(8))
        with pytest.raises(AscregTypeError, match=r"id 8 is outside \[0, 7\]"):
            C.asc_sync_mte2(8)
    assert gm_out.read(8).tolist() == list(range(8))
    with block(BlockContext()):
        ub = C.__ubuf__(uint32_t, 8)
        C.asc_copy_gm2ub(ub, gm_in, 32)
        with pytest.raises(SyncError):
            C.asc_copy_ub2gm(gm_out, ub, 32)  # no asc_sync_mte2 in between

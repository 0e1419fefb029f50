"""Pipe-sync checking: UB reads and writes across pipes need a notify/wait pair or a barrier, and a
launch ends with no flag left set."""

from __future__ import annotations

import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, UbPtr, uint16_t
from ascreg.errors import SyncError
from helpers import launch


def test_missing_notify_wait_between_mte2_and_vector_read_is_an_error() -> None:
    gm = GlobalMemory()
    x = gm.alloc(uint16_t, 128)

    @C.__simd_vf__
    def vf(src: UbPtr[uint16_t]) -> None:
        C.asc_loadalign(C.vector_uint16_t(), src)

    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        vf(buf)

    with pytest.raises(SyncError, match=r"asc_loadalign: PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        launch(body, x)


def test_wait_without_notify_would_hang() -> None:
    def body() -> None:
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)

    with pytest.raises(SyncError, match=r"asc_sync_wait: .*would hang"):
        launch(body)


def test_a_flag_of_the_wrong_pipe_pair_does_not_order_the_access() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_MTE3, C.EVENT_ID0)  # wrong consumer
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_MTE3, C.EVENT_ID0)
        buf.read(1)  # the scalar unit is still unordered after MTE2

    with pytest.raises(SyncError, match="PIPE_S reads"):
        launch(body, GlobalMemory().alloc(uint16_t, 128))


def test_transitive_chain_orders_mte2_before_mte3() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_copy_ub2gm_align(x, buf, 256)

    launch(body, GlobalMemory().alloc(uint16_t, 128))


def test_mte3_read_after_vector_write_without_sync_is_an_error() -> None:
    @C.__simd_vf__
    def vf(dst: UbPtr[uint16_t]) -> None:
        reg = C.vector_uint16_t()
        C.asc_duplicate_scalar(reg, 1)
        C.asc_storealign(dst, reg, C.asc_create_mask_b16(C.PAT_ALL))

    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_vf_call[vf](buf)
        C.asc_copy_ub2gm_align(x, buf, 256)

    with pytest.raises(SyncError, match=r"PIPE_MTE3 reads UB .* that PIPE_V wrote"):
        launch(body, GlobalMemory().alloc(uint16_t, 128))


def test_barrier_orders_everything() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync()
        buf.read(128)

    launch(body, GlobalMemory().alloc(uint16_t, 128))


def test_a_notify_without_wait_fails_the_launch_naming_the_flag() -> None:
    def body() -> None:
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)

    with pytest.raises(
        SyncError,
        match=r"body<<<2, 0, None>>>: block 0 ended with flags set but never waited for: "
        r"\(PIPE_MTE2 -> PIPE_V, EVENT_ID2\) x1; on the chip a leftover flag",
    ):
        launch(body, blocks=2)


def test_pre_set_flags_balanced_after_the_loop_pass() -> None:
    """The floor_mod example's pattern: notify before the loop, wait after it."""

    def body() -> None:
        for event in (C.EVENT_ID0, C.EVENT_ID1):
            C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE2, event)
        for tile in range(4):
            C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE2, tile % 2)
            C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE2, tile % 2)
        for event in (C.EVENT_ID0, C.EVENT_ID1):
            C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE2, event)

    launch(body)


def test_an_error_inside_the_kernel_is_not_replaced_by_the_end_check() -> None:
    def body() -> None:
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        raise ValueError("user bug")

    with pytest.raises(ValueError, match="user bug"):
        launch(body)

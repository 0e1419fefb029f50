"""Mutexes (asc_lock/asc_unlock), barriers and the _sync copies of the C API."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, UbPtr, uint32_t
from ascreg.errors import AscregTypeError, SyncError
from ascreg.machine.kernel import BlockContext, block
from helpers import launch


def _locked_add(lock: bool, mode: Any = C.ASC_LOCK_BLOCK) -> tuple[GmPtr[Any], GmPtr[Any]]:
    """The c_api_simd_add example's shape: MTE2 / V / MTE3 each under mutex 1."""
    gm = GlobalMemory()
    x, z = gm.alloc(uint32_t, 64), gm.alloc(uint32_t, 64)
    x.write(np.arange(64))

    @C.__simd_vf__
    def vf(src: UbPtr[uint32_t], dst: UbPtr[uint32_t]) -> None:
        r, m = C.vector_uint32_t(), C.asc_create_mask_b32(C.PAT_ALL)
        C.asc_loadalign(r, src)
        C.asc_storealign(dst, r, m)

    def body(x: GmPtr[uint32_t], z: GmPtr[uint32_t]) -> None:
        xl, zl = C.__ubuf__(uint32_t, 64), C.__ubuf__(uint32_t, 64)
        for pipe, work in (
            (C.PIPE_MTE2, lambda: C.asc_copy_gm2ub_align(xl, x, 256)),
            (C.PIPE_V, lambda: vf(xl, zl)),
            (C.PIPE_MTE3, lambda: C.asc_copy_ub2gm_align(z, zl, 256)),
        ):
            if lock:
                C.asc_lock(pipe, 1, mode)
            work()
            if lock:
                C.asc_unlock(pipe, 1, mode)

    launch(body, x, z)
    return x, z


def test_lock_unlock_pairs_order_the_pipes() -> None:
    _, z = _locked_add(lock=True)
    assert z.read(64).tolist() == list(range(64))
    with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        _locked_add(lock=False)
    with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        _locked_add(lock=True, mode=C.ASC_LOCK_NON_BLOCK)  # a non-blocking lock orders nothing


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        ([("lock", 1), ("lock", 1)], r"asc_lock: .* still locked .* must not nest"),
        ([("unlock", 2)], r"asc_unlock: .* without an earlier asc_lock of mutex 2"),
        ([("lock", 32)], r"asc_lock: mutex id 32 is outside \[0, 31\]"),
        ([("lock", -1)], r"mutex id -1 is outside"),
        ([("lock", 3)], r"block 0 ended holding asc_lock\(PIPE_MTE2, 3\) with no asc_unlock"),
    ],
)
def test_lock_misuse(calls: list[tuple[str, int]], message: str) -> None:
    def body() -> None:
        for kind, mutex in calls:
            getattr(C, f"asc_{kind}")(C.PIPE_MTE2, mutex)

    with pytest.raises(SyncError, match=message):
        launch(body)


def test_lock_mode_and_pipe_checks() -> None:
    with block(BlockContext()):
        C.asc_lock(C.PIPE_V, 0)
        with pytest.raises(SyncError, match="another mode than its asc_lock"):
            C.asc_unlock(C.PIPE_V, 0, C.ASC_LOCK_NON_BLOCK)
        with pytest.raises(AscregTypeError, match="is not ASC_LOCK_BLOCK or ASC_LOCK_NON_BLOCK"):
            C.asc_unlock(C.PIPE_V, 0, 0)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="is not a single pipe"):
            C.asc_lock(C.PIPE_ALL, 4)


@pytest.mark.parametrize(
    "name",
    [
        "asc_copy_gm2ub_sync",
        "asc_copy_gm2ub_align_sync",
        "asc_copy_ub2gm_sync",
        "asc_copy_ub2gm_align_sync",
    ],
)
def test_sync_copies_end_with_a_full_barrier(name: str) -> None:
    gm = GlobalMemory()
    g = gm.alloc(uint32_t, 64)
    g.write(np.arange(64))
    copy = getattr(C, name)
    assert copy.__name__ == name

    def body(g: GmPtr[uint32_t]) -> None:
        u = C.__ubuf__(uint32_t, 64)
        if "gm2ub" in name:
            copy(u, g, 256)
            u.write(u.read(64) + 1)  # scalar after MTE2: ordered by the barrier
            C.asc_sync()
            C.asc_copy_ub2gm_align(g, u, 256)
        else:
            u.write(np.arange(64, dtype=np.uint32) * 2)
            C.asc_sync()
            copy(g, u, 256)
            u.write(np.zeros(64, np.uint32))  # overwrite after MTE3: ordered by the barrier

    launch(body, g)
    assert g.read(2).tolist() == ([1, 2] if "gm2ub" in name else [0, 2])
    with block(BlockContext()), pytest.raises(TypeError):
        copy(C.__ubuf__(uint32_t, 8), g, 1, 32, 0, 0)  # no burst form


def test_data_barrier_mem_bar_and_sync_pipe_arguments() -> None:
    with block(BlockContext()):
        for arg in (C.mem_dsb_t.DSB_ALL, C.mem_dsb_t.DSB_DDR, C.mem_dsb_t.DSB_UB):
            C.asc_sync_data_barrier(arg)
        with pytest.raises(AscregTypeError, match="DSB_SEQ is reserved"):
            C.asc_sync_data_barrier(C.mem_dsb_t.DSB_SEQ)
        with pytest.raises(AscregTypeError, match="is not a mem_dsb_t"):
            C.asc_sync_data_barrier(2)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="asc_sync_pipe: 7 is not a pipe_t"):
            C.asc_sync_pipe(7)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="asc_mem_bar orders UB streams inside a __simd_vf__"):
            C.asc_mem_bar(C.VST_VLD)

    names = [m.name for m in C.MEM_TYPE]
    assert all(getattr(C, n) is C.MEM_TYPE[n] for n in names) and len(names) == 16

    @C.__simd_vf__
    def vf() -> None:
        for kind in C.MEM_TYPE:
            C.asc_mem_bar(kind)
        with pytest.raises(AscregTypeError, match="is not a MEM_TYPE"):
            C.asc_mem_bar("VST_VLD")  # type: ignore[arg-type]

    launch(lambda: C.asc_vf_call[vf]())

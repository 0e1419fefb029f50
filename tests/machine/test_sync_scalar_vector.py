"""Scalar <-> vector ordering (issue 25): a VF call is no synchronisation; S waits are.

The scalar unit runs ahead of the VF it starts (a scalar UB write before it needs ``S_V``, a
scalar read of what it wrote needs ``V_S``), and it dispatches every pipe's instructions in
program order, so an instruction issued after a wait on ``PIPE_S`` runs after what the wait
waited for: ``V_S`` then an MTE3 copy is ordered (asc-devkit
``docs/zh/guide/编程指南/高级编程/硬件实现/基本架构.md``, "典型的指令流").
"""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, UbPtr, float32_t
from ascreg import basic as B  # noqa: N812 (short alias for the basic namespace)
from ascreg.errors import SyncError
from ascreg.machine.sync import Pipe, PipeTracker
from ascreg.simt import __simt_vf__, dim3, threadIdx
from helpers import launch


@C.__simd_vf__
def _double(buf: UbPtr[float32_t]) -> None:
    v = C.vector_float()
    C.asc_loadalign(v, buf)
    C.asc_add(v, v, v, C.asc_create_mask_b32(C.PAT_ALL))
    C.asc_storealign(buf, v, C.asc_create_mask_b32(C.PAT_ALL))


@__simt_vf__
def _simt_double(buf: UbPtr[float32_t]) -> None:
    buf[threadIdx.x] = buf[threadIdx.x] * 2


def _sync(src: Pipe, dst: Pipe) -> None:
    C.asc_sync_notify(src, dst, C.EVENT_ID0)
    C.asc_sync_wait(src, dst, C.EVENT_ID0)


@pytest.mark.parametrize("flag", [False, True], ids=["no flag", "S_V"])
@pytest.mark.parametrize("simt", [False, True], ids=["SIMD VF", "SIMT VF"])
def test_a_scalar_write_then_a_vf_read_needs_s_v(flag: bool, simt: bool) -> None:
    def body() -> None:
        buf = C.__ubuf__(float32_t, 64)
        B.LocalTensor[float32_t](B.TPosition.VECCALC, buf.address, 64).SetValue(0, 1.0)
        buf.write(np.ones(64, np.float32))  # the scalar unit fills the rest
        if flag:
            _sync(C.PIPE_S, C.PIPE_V)
        if simt:
            C.asc_vf_call[_simt_double](dim3(64), buf)
        else:
            C.asc_vf_call[_double](buf)
        _sync(C.PIPE_V, C.PIPE_S)

    if flag:
        launch(body)
    else:
        with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_S wrote"):
            launch(body)


@pytest.mark.parametrize("flag", [False, True], ids=["no flag", "V_S"])
def test_a_vf_write_then_a_scalar_read_needs_v_s(flag: bool) -> None:
    def body() -> None:
        buf = C.__ubuf__(float32_t, 64)
        buf.write(np.ones(64, np.float32))
        _sync(C.PIPE_S, C.PIPE_V)
        C.asc_vf_call[_double](buf)
        if flag:
            _sync(C.PIPE_V, C.PIPE_S)
        assert B.LocalTensor[float32_t](B.TPosition.VECCALC, buf.address, 64).GetValue(3) == 2

    if flag:
        launch(body)
    else:
        with pytest.raises(SyncError, match=r"LocalTensor.GetValue: PIPE_S reads UB .* PIPE_V"):
            launch(body)


def test_a_wait_on_the_scalar_pipe_orders_the_copies_it_issues_after() -> None:
    """V -> S then an MTE3 copy: the copy is issued after the wait (no S_MTE3 needed)."""
    out = GlobalMemory().alloc(float32_t, 64)

    def body(out: GmPtr[float32_t]) -> None:
        buf = C.__ubuf__(float32_t, 64)
        buf.write(np.full(64, 3.0, np.float32))
        _sync(C.PIPE_S, C.PIPE_V)
        C.asc_vf_call[_double](buf)
        _sync(C.PIPE_V, C.PIPE_S)
        C.asc_copy_ub2gm_align(out, buf, 256)

    launch(body, out)
    assert out.read(64).tolist() == [6.0] * 64


def test_without_the_wait_the_copy_races_the_vf() -> None:
    def body(out: GmPtr[float32_t]) -> None:
        buf = C.__ubuf__(float32_t, 64)
        buf.write(np.full(64, 3.0, np.float32))
        _sync(C.PIPE_S, C.PIPE_V)
        C.asc_vf_call[_double](buf)
        _sync(C.PIPE_S, C.PIPE_MTE3)  # orders the scalar fill, not the VF it started
        C.asc_copy_ub2gm_align(out, buf, 256)

    with pytest.raises(SyncError, match=r"PIPE_MTE3 reads UB .* that PIPE_V wrote"):
        launch(body, GlobalMemory().alloc(float32_t, 64))


def test_the_scalar_units_own_writes_still_need_s_mte3() -> None:
    """A wait on S orders what S waited for, not S's own stores (the SetValue page's S_MTE3)."""

    def body(out: GmPtr[float32_t]) -> None:
        buf = C.__ubuf__(float32_t, 64)
        buf.write(np.full(64, 3.0, np.float32))
        _sync(C.PIPE_S, C.PIPE_V)
        C.asc_vf_call[_double](buf)
        _sync(C.PIPE_V, C.PIPE_S)
        buf.write(np.full(8, 5.0, np.float32))  # a scalar store after the wait
        C.asc_copy_ub2gm_align(out, buf, 256)

    with pytest.raises(SyncError, match=r"PIPE_MTE3 reads UB .* that PIPE_S wrote"):
        launch(body, GlobalMemory().alloc(float32_t, 64))


def test_the_tracker_rule() -> None:
    t = PipeTracker()
    t.access(Pipe.PIPE_V, 0, 32, write=True)
    t.notify(Pipe.PIPE_V, Pipe.PIPE_S, 0)
    t.wait(Pipe.PIPE_V, Pipe.PIPE_S, 0)
    t.access(Pipe.PIPE_MTE3, 0, 32, write=False)  # ordered through the scalar unit's wait
    t.access(Pipe.PIPE_S, 64, 96, write=True)
    with pytest.raises(SyncError, match=r"PIPE_MTE3 reads UB .* that PIPE_S wrote"):
        t.access(Pipe.PIPE_MTE3, 64, 96, write=False)

"""``__VEC_SCOPE__ { ... }`` blocks of older arch35 kernels, as ``with __VEC_SCOPE__:``."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import GlobalMemory, GmPtr, MicroAPI, UbPtr, float32_t
from ascreg.basic import (
    __VEC_SCOPE__,
    PIPE_ALL,
    DataCopy,
    GetTPipePtr,
    GetVRegSize,
    GlobalTensor,
    HardEvent,
    PipeBarrier,
    SetFlag,
    TBuf,
    TPipe,
    WaitFlag,
)
from ascreg.errors import EagerLoopWarning, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __aicore__, __global__, __vector__

N = 256


@__aicore__
def scale_in_scope(addr: UbPtr[float32_t], count: int) -> None:
    """The C++ shape: an __aicore__ helper whose Reg code sits in a __VEC_SCOPE__ block."""
    vl = GetVRegSize() // float32_t.size
    with __VEC_SCOPE__:
        reg = MicroAPI.RegTensor[float32_t]()
        for i in range(count // vl):
            mask = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
            MicroAPI.LoadAlign(reg, addr + i * vl)
            MicroAPI.Muls(reg, reg, float32_t(3.0), mask)
            MicroAPI.StoreAlign(addr + i * vl, reg, mask)


def scale_undeclared(addr: UbPtr[float32_t], count: int) -> None:
    """The same without ``@__aicore__``: its block's loop runs eagerly (and says so)."""
    vl = GetVRegSize() // float32_t.size
    with __VEC_SCOPE__:
        reg = MicroAPI.RegTensor[float32_t]()
        for i in range(count // vl):
            mask = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
            MicroAPI.LoadAlign(reg, addr + i * vl)
            MicroAPI.Muls(reg, reg, 3.0, mask)
            MicroAPI.StoreAlign(addr + i * vl, reg, mask)


def make_kernel(sync_out: bool, scale: Any = scale_in_scope):
    @__global__
    @__vector__
    def kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
        TPipe()
        buf = TBuf()
        GetTPipePtr().InitBuffer(buf, N * 4)
        xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        xGm.SetGlobalBuffer(x, N)
        yGm.SetGlobalBuffer(y, N)
        t = buf.Get[float32_t]()
        DataCopy(t, xGm, N)
        eventId = GetTPipePtr().FetchEventID(HardEvent.MTE2_V)
        SetFlag[HardEvent.MTE2_V](eventId)
        WaitFlag[HardEvent.MTE2_V](eventId)
        scale(t.GetPhyAddr(), N)
        if sync_out:
            eventId = GetTPipePtr().FetchEventID(HardEvent.V_MTE3)
            SetFlag[HardEvent.V_MTE3](eventId)
            WaitFlag[HardEvent.V_MTE3](eventId)
        DataCopy(yGm, t, N)

    return kernel


def test_a_vec_scope_block_is_a_vf_on_pipe_v() -> None:
    x, y = GlobalMemory().alloc(float32_t, N), GlobalMemory().alloc(float32_t, N)
    x.write(np.arange(N, dtype=np.float32))
    make_kernel(sync_out=True)[1, 0](x, y)
    np.testing.assert_array_equal(y.read(N), np.arange(N, dtype=np.float32) * 3)


def test_its_loops_run_batched_in_an_aicore_function_and_say_so_elsewhere() -> None:
    x, y = GlobalMemory().alloc(float32_t, N), GlobalMemory().alloc(float32_t, N)
    x.write(np.arange(N, dtype=np.float32))
    make_kernel(sync_out=True)[1, 0](x, y)
    sites = scale_in_scope.__ascreg_runner__[0].__ascreg_sites__  # type: ignore[attr-defined]
    assert [s.counts["eager"] for s in sites] == [0] and sum(sites[0].counts.values()) >= 1
    with pytest.warns(EagerLoopWarning, match="scale_undeclared: the loops of its __VEC_SCOPE__"):
        make_kernel(sync_out=True, scale=scale_undeclared)[1, 0](x, y)
    np.testing.assert_array_equal(y.read(N), np.arange(N, dtype=np.float32) * 3)


def test_its_writes_need_the_v_to_mte3_flag() -> None:
    x, y = GlobalMemory().alloc(float32_t, N), GlobalMemory().alloc(float32_t, N)
    x.write(np.zeros(N, dtype=np.float32))
    with pytest.raises(SyncError, match="PIPE_MTE3 reads UB"):
        make_kernel(sync_out=False)[1, 0](x, y)


def test_the_scope_is_left_on_an_error() -> None:
    with block(BlockContext()) as ctx:
        with pytest.raises(ZeroDivisionError), __VEC_SCOPE__:
            assert ctx.pipe.name == "PIPE_V"
            _ = 1 / 0
        assert ctx.pipe.name == "PIPE_S" and not ctx.in_simd_vf
    with __VEC_SCOPE__:  # outside a kernel: plain code
        pass


def test_the_decorator_form_is_simd_vf() -> None:
    @__VEC_SCOPE__
    def body(addr: UbPtr[float32_t]) -> None:
        reg = MicroAPI.RegTensor[float32_t]()
        MicroAPI.Duplicate(reg, 1.5)
        MicroAPI.StoreAlign(addr, reg, MicroAPI.CreateMask[float32_t]())

    assert body.__ascreg_kind__ == "simd_vf"  # type: ignore[attr-defined]
    with block(BlockContext()) as ctx:
        out = ctx.ub.alloc(float32_t, 64)
        body(out)
        PipeBarrier[PIPE_ALL]()  # the scalar read below waits for the vector store
        assert out.read(64).tolist() == [1.5] * 64


def test_explain_lists_the_loops_of_the_blocks() -> None:
    lines, first = inspect.getsourcelines(scale_in_scope.__wrapped__)  # type: ignore[attr-defined]
    loop = first + next(k for k, line in enumerate(lines) if "for i in range" in line)
    [said] = ascreg.explain(scale_in_scope)  # (with what its runs did, once it has run)
    assert said.startswith(f"scale_in_scope line {loop}: batched when the run-time checks pass")

"""Queues as production kernels use them: positioned EnQue/DeQue, DeQue<T> of another type, views.

``TQueBind<VECIN, VECOUT>`` reused for GM -> VECIN then VECOUT -> GM with
``EnQue<srcUserPos, dstUserPos>`` / ``DeQue<srcUserPos, dstUserPos, T>``; ``DeQue<int8_t>`` of a
buffer allocated as ``uint8_t``; ``FreeTensor`` / ``EnQue`` of a ``ReinterpretCast`` view.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, float32_t, half, int8_t, uint8_t
from ascreg.basic import (
    DataCopy,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    LocalTensor,
    QuePosition,
    TPipe,
    TPosition,
    TQue,
    TQueBind,
    asc_vf_call,
)
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__

N = 128


@__simd_vf__
def AddOneVF(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    step = GetVecLen() // float32_t.size
    one, reg = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    mask = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    Reg.Duplicate(one, 1.0)
    for i in range(count // step):
        Reg.LoadAlign(reg, src + i * step)
        Reg.Add(reg, reg, one, mask)
        Reg.StoreAlign(dst + i * step, reg, mask)


@__global__
@__vector__
def reuse_kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """One TQueBind<VECIN, VECOUT> buffer: GM -> VECIN, compute in place, VECOUT -> GM."""
    pipe = TPipe()
    dataQueue = TQueBind[QuePosition.VECIN, QuePosition.VECOUT, 1]()
    pipe.InitBuffer(dataQueue, 2, N * 4)
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x, 2 * N)
    yGm.SetGlobalBuffer(y, 2 * N)
    for tile in range(2):
        local = dataQueue.AllocTensor[float32_t]()
        DataCopy(local, xGm[tile * N], N)
        dataQueue.EnQue[QuePosition.GM, QuePosition.VECIN, float32_t](local)
        inLocal = dataQueue.DeQue[QuePosition.GM, QuePosition.VECIN, float32_t]()
        asc_vf_call[AddOneVF](inLocal.GetPhyAddr(), inLocal.GetPhyAddr(), N)
        dataQueue.EnQue[QuePosition.VECOUT, QuePosition.GM](inLocal)
        outLocal = dataQueue.DeQue[QuePosition.VECOUT, QuePosition.GM, float32_t]()
        DataCopy(yGm[tile * N], outLocal, N)
        dataQueue.FreeTensor(outLocal)


def test_positioned_enque_deque_order_each_hand_over() -> None:
    x, y = GlobalMemory().alloc(float32_t, 2 * N), GlobalMemory().alloc(float32_t, 2 * N)
    data = np.arange(2 * N, dtype=np.float32)
    x.write(data)
    reuse_kernel[1, 0](x, y)
    np.testing.assert_array_equal(y.read(2 * N), data + 1)


@__global__
@__vector__
def unpositioned_kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """The same without positions: the queue's own path is VECIN -> VECOUT (MTE2 -> MTE3)."""
    pipe = TPipe()
    dataQueue = TQueBind[TPosition.VECIN, TPosition.VECOUT, 1]()
    pipe.InitBuffer(dataQueue, 1, N * 4)
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x, N)
    yGm.SetGlobalBuffer(y, N)
    local = dataQueue.AllocTensor[float32_t]()
    DataCopy(local, xGm, N)
    dataQueue.EnQue(local)
    inLocal = dataQueue.DeQue[float32_t]()
    asc_vf_call[AddOneVF](inLocal.GetPhyAddr(), inLocal.GetPhyAddr(), N)


def test_the_bind_queue_path_orders_mte2_before_mte3_only() -> None:
    """The asc-devkit's GetQueEvt: UB -> UB is MTE2_MTE3, so a VF after it races the copy."""
    x, y = GlobalMemory().alloc(float32_t, N), GlobalMemory().alloc(float32_t, N)
    x.write(np.zeros(N, dtype=np.float32))
    with pytest.raises(SyncError, match="PIPE_V reads UB"):
        unpositioned_kernel[1, 0](x, y)


def test_copy_through_bind_queue_needs_no_vector_sync() -> None:
    src = GlobalTensor[half]()
    src.SetGlobalBuffer(GlobalMemory().alloc(half, N), N)
    dst = GlobalTensor[half]()
    dst.SetGlobalBuffer(GlobalMemory().alloc(half, N), N)
    src.GetPhyAddr().write(np.arange(N))
    with block(BlockContext()):
        pipe = TPipe()
        que = TQueBind[TPosition.VECIN, TPosition.VECOUT, 1]()
        pipe.InitBuffer(que, 1, N * 2)
        t = que.AllocTensor[half]()
        assert t.GetPosition() is TPosition.VECOUT  # GetPosition(src, dst): dst unless GM
        DataCopy(t, src, N)
        que.EnQue(t)
        DataCopy(dst, que.DeQue[half](), N)
    np.testing.assert_array_equal(dst.GetPhyAddr().read(N), np.arange(N))


def test_deque_names_the_positions_its_enque_named() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQueBind[TPosition.VECIN, TPosition.VECOUT, 2]()
        pipe.InitBuffer(que, 2, 64)
        que.EnQue[TPosition.GM, TPosition.VECIN](que.AllocTensor[float32_t]())
        with pytest.raises(SyncError) as info:
            que.DeQue[TPosition.VECOUT, TPosition.GM, float32_t]()
        assert "queued for MTE2_V (MTE2 -> V) but this DeQue waits for V_MTE3" in str(info.value)
        assert que.GetTensorCountInQue() == 1  # the refused DeQue left it queued
        assert que.DeQue[TPosition.GM, TPosition.VECIN, float32_t]().GetSize() == 16
        assert pipe.FetchEventID(HardEvent.MTE2_V) == 0


def test_positioned_paths_the_devkit_refuses() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQueBind[TPosition.VECIN, TPosition.VECOUT, 1]()
        pipe.InitBuffer(que, 1, 64)
        t = que.AllocTensor[float32_t]()
        with pytest.raises(AscregTypeError, match="got GM -> GM"):
            que.EnQue[TPosition.GM, TPosition.GM](t)
        with pytest.raises(AscregTypeError, match="got A1 -> VECIN"):
            que.EnQue[TPosition.A1, TPosition.VECIN](t)
        zero = TQueBind[TPosition.VECIN, TPosition.VECOUT, 0]()
        pipe.InitBuffer(zero, 1, 64)
        u = LocalTensor[float32_t]()
        zero.AllocTensor[float32_t](u)
        with pytest.raises(AscregError, match="positioned EnQue needs depth >= 1"):
            zero.EnQue[TPosition.VECOUT, TPosition.GM](u)
    with pytest.raises(AscregTypeError, match="a queue path runs GM -> UB"):
        TQueBind[TPosition.GM, TPosition.GM, 1]()


def test_deque_of_another_element_type_views_the_buffer() -> None:
    """DeQue<int8_t> of a buffer allocated and enqueued as uint8_t (the C++ Buf2Tensor<T>)."""
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECIN, 1]()
        pipe.InitBuffer(que, 1, 64)
        raw = que.AllocTensor[uint8_t]()
        raw.GetPhyAddr().write(np.arange(250, 250 + 64) % 256)
        que.EnQue[uint8_t](raw)
        signed = que.DeQue[int8_t]()
        assert signed.GetSize() == 64 and signed.GetPhyAddr().address == raw.GetPhyAddr().address
        assert signed.GetPhyAddr().read(8).tolist() == [-6, -5, -4, -3, -2, -1, 0, 1]
        que.FreeTensor(signed)
        que.EnQue(que.AllocTensor[uint8_t]())
        assert que.DeQue[half]().GetSize() == 32  # any T: the buffer's bytes as T


def test_a_refused_deque_leaves_the_queue_intact() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECIN, 1]()
        pipe.InitBuffer(que, 1, 64)
        que.EnQue(que.AllocTensor[uint8_t]())
        with pytest.raises(AscregError, match="in-place"):
            que.DeQue[int8_t](LocalTensor[int8_t]())  # the in-place form needs depth 0
        with pytest.raises(AscregTypeError, match="does not hold T = uint8_t"):
            que.DeQue[uint8_t](LocalTensor[int8_t]())
        assert que.HasTensorInQue()
        assert que.DeQue[int8_t]().GetSize() == 64


def test_views_that_start_at_the_buffer_name_it() -> None:
    """FreeTensor / EnQue of a ReinterpretCast view work as in C++; an offset view is refused."""
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECOUT, 1]()
        pipe.InitBuffer(que, 1, 64)
        t = que.AllocTensor[float32_t]()
        que.EnQue(t.ReinterpretCast[uint8_t]())
        out = que.DeQue[float32_t]()
        que.FreeTensor(out.ReinterpretCast[int8_t]())
        assert que.HasIdleBuffer()
        t = que.AllocTensor[float32_t]()
        with pytest.raises(AscregError, match="a view into a queue buffer"):
            que.FreeTensor(t[4].ReinterpretCast[uint8_t]())

"""TPipe / TQue / TBuf: buffers are really held and released; misuse is a clear ascreg error."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, float32_t, half
from ascreg.basic import (
    MAX_ALLOCATED_PER_POSITION,
    DataCopy,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    LocalTensor,
    SetAtomicAdd,
    TBuf,
    TPipe,
    TPosition,
    TQue,
    TQueBind,
    asc_vf_call,
)
from ascreg.errors import AscregError, AscregTypeError, CapacityError, OutOfBoundsError, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from ascreg.machine.sysregs import system_registers


def queue(depth: int = 1, num: int = 1, pos: TPosition = TPosition.VECIN) -> TQueBind:
    que = TQue[pos, depth]()
    TPipe().InitBuffer(que, num, 256)
    return que


def test_alloc_enque_deque_free_cycle_reuses_the_buffer() -> None:
    with block(BlockContext()):
        que = queue()
        a = que.AllocTensor[float32_t]()
        assert not que.HasIdleBuffer() and a.GetSize() == 64
        assert que.EnQue(a) and que.HasTensorInQue()
        b = que.DeQue[float32_t]()
        assert b.GetPhyAddr() == a.GetPhyAddr() and b.GetPosition() is TPosition.VECIN
        que.FreeTensor(b)
        assert que.HasIdleBuffer()
        assert que.AllocTensor[float32_t]().GetPhyAddr() == a.GetPhyAddr()


def test_queue_rules_name_the_call_the_value_and_the_rule() -> None:
    with block(BlockContext()):
        que = queue(depth=1, num=2)
        a, b = que.AllocTensor[float32_t](), que.AllocTensor[float32_t]()
        with pytest.raises(AscregError, match=r"AllocTensor: no idle buffer: all 2 buffer"):
            que.AllocTensor[float32_t]()
        que.EnQue(a)
        with pytest.raises(
            SyncError, match=r"TQue<VECIN, 1>\.EnQue: the queue is full.*depth is 1"
        ):
            que.EnQue(b)
        with pytest.raises(AscregError, match="still in the queue"):
            que.FreeTensor(a)
        que.DeQue[float32_t]()
        with pytest.raises(SyncError, match=r"DeQue on an empty queue"):
            que.DeQue[float32_t]()
        que.FreeTensor(a)
        with pytest.raises(AscregError, match="already freed"):
            que.FreeTensor(a)
        with pytest.raises(AscregError, match="not allocated from this queue"):
            que.FreeTensor(LocalTensor[float32_t](TPosition.VECIN, 0, 8))
        with pytest.raises(AscregError, match="a view into a queue buffer"):
            que.FreeTensor(b[8])
        with pytest.raises(AscregTypeError, match="LocalTensor<float> does not hold T = half"):
            que.EnQue[half](b)


def test_depth_zero_is_the_in_place_form() -> None:
    with block(BlockContext()):
        que = queue(depth=0)
        with pytest.raises(AscregError, match="returning AllocTensor needs depth >= 1"):
            que.AllocTensor[float32_t]()
        t = LocalTensor[float32_t]()
        que.AllocTensor[float32_t](t)
        que.EnQue(t)
        que.DeQue[float32_t](t)
        que.FreeTensor(t)
        assert t.GetSize() == 64


def test_init_buffer_rules() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        with pytest.raises(AscregError, match="exactly one TPipe"):
            TPipe()
        que = TQue[TPosition.VECOUT, 1]()
        with pytest.raises(CapacityError, match=r"TPipe.InitBuffer: 2 buffer\(s\) of 160000 bytes"):
            pipe.InitBuffer(que, 2, 160000)
        assert pipe.InitBuffer(que, 2, 100)  # rounds up to 128 bytes
        assert que.AllocTensor[float32_t]().GetSize() == 32
        with pytest.raises(AscregError, match="already has its buffers"):
            pipe.InitBuffer(que, 1, 64)
        with pytest.raises(CapacityError, match="at most 64"):
            for _ in range(40):
                pipe.InitBuffer(TQue[TPosition.VECIN, 1](), 2, 32)
    with block(BlockContext()), pytest.raises(AscregTypeError, match="VECIN or VECOUT"):
        TQue[TPosition.A1, 1]()


def test_at_most_eight_pending_enques_per_event() -> None:
    """Each pending EnQue holds an id of its HardEvent; the pool has QUE_MAX_EVENT (8) ids."""
    with block(BlockContext()):
        pipe = TPipe()
        queues = [TQue[TPosition.VECIN, 1]() for _ in range(MAX_ALLOCATED_PER_POSITION + 1)]
        for que in queues:
            pipe.InitBuffer(que, 1, 32)
        tensors = [que.AllocTensor[float32_t]() for que in queues]  # allocating takes no id
        for que, tensor in zip(queues[:-1], tensors, strict=False):
            que.EnQue(tensor)
        with pytest.raises(CapacityError, match="all 8 event ids of HardEvent::MTE2_V"):
            queues[-1].EnQue(tensors[-1])
        queues[0].DeQue[float32_t]()  # releases its id
        assert queues[-1].EnQue(tensors[-1])


def test_tbuf_get_and_get_with_offset() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        buf = TBuf[TPosition.VECCALC]()
        pipe.InitBuffer(buf, 1000)  # rounds up to 1024
        assert buf.Get[float32_t]().GetSize() == 256
        assert buf.Get[half](10).GetLength() == 20
        tail = buf.GetWithOffset[float32_t](8, 992)
        assert tail.GetPhyAddr() == buf.Get[float32_t]().GetPhyAddr() + 248
        with pytest.raises(AscregError, match="leave the 1024-byte TBuf"):
            buf.GetWithOffset[float32_t](16, 992)
        with pytest.raises(AscregError, match="not a multiple of 32"):
            buf.GetWithOffset[float32_t](1, 4)


def test_tbuf_takes_the_queue_interface_it_inherits() -> None:
    """``TBuf<>`` (position LCM, which is VECCALC) with ``AllocTensor`` / ``DeQue`` as ``Get``
    and ``EnQue`` / ``FreeTensor`` doing nothing, any number of times (kernel_tbuf_impl.h)."""
    with block(BlockContext()):
        pipe = TPipe()
        buf = TBuf[()]()
        pipe.InitBuffer(buf, 256)
        first = buf.AllocTensor[float32_t]()
        again = buf.AllocTensor[half]()  # no queue: the same bytes again
        assert first.GetSize() == 64 and again.GetSize() == 128
        assert again.GetPhyAddr().address == first.GetPhyAddr().address
        assert first.GetPosition() is TPosition.VECCALC
        buf.EnQue(first)
        buf.EnQue[float32_t](first)
        assert buf.DeQue[float32_t]().GetPhyAddr() == first.GetPhyAddr()
        buf.FreeTensor(first)
        buf.FreeTensor[float32_t](first)
        with pytest.raises(AscregTypeError, match=r"TBuf<VECCALC>.FreeTensor: takes a LocalTensor"):
            buf.FreeTensor(np.zeros(4))
        with pytest.raises(AscregTypeError, match=r"write AllocTensor\[T\]\(\)"):
            buf.AllocTensor()
    with pytest.raises(AscregError, match="the TBuf has no buffer"):
        TBuf().AllocTensor[half]()


N = 128


@__simd_vf__
def DoubleVF(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    step = GetVecLen() // float32_t.size
    reg = Reg.RegTensor[float32_t]()
    mask = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    for i in range(count // step):
        Reg.LoadAlign(reg, src + i * step)
        Reg.Add(reg, reg, reg, mask)
        Reg.StoreAlign(dst + i * step, reg, mask)


@__global__
@__vector__
def double_kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """The TPipe/TQue pattern: CopyIn, Compute, CopyOut with no SetFlag of its own."""
    pipe = TPipe()
    inQueue, outQueue = TQue[TPosition.VECIN, 1](), TQue[TPosition.VECOUT, 1]()
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x, 2 * N)
    yGm.SetGlobalBuffer(y, 2 * N)
    pipe.InitBuffer(inQueue, 2, N * 4)
    pipe.InitBuffer(outQueue, 2, N * 4)
    for tile in range(2):
        xLocal = inQueue.AllocTensor[float32_t]()
        DataCopy(xLocal, xGm[tile * N], N)
        inQueue.EnQue(xLocal)
        xIn = inQueue.DeQue[float32_t]()
        yLocal = outQueue.AllocTensor[float32_t]()
        asc_vf_call[DoubleVF](yLocal.GetPhyAddr(), xIn.GetPhyAddr(), N)
        outQueue.EnQue(yLocal)
        inQueue.FreeTensor(xIn)
        yOut = outQueue.DeQue[float32_t]()
        DataCopy(yGm[tile * N], yOut, N)
        outQueue.FreeTensor(yOut)


def test_queues_order_the_pipes_like_flags() -> None:
    x = GlobalMemory().alloc(float32_t, 2 * N)
    y = GlobalMemory().alloc(float32_t, 2 * N)
    data = np.arange(2 * N, dtype=np.float32)
    x.write(data)
    double_kernel[1, 0, None](x, y)
    np.testing.assert_array_equal(y.read(2 * N), data * 2)


def test_skipping_deque_is_a_pipe_hazard() -> None:
    with block(BlockContext()):
        que = queue()
        xGm = GlobalTensor[float32_t]()
        xGm.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 64))
        xLocal = que.AllocTensor[float32_t]()
        DataCopy(xLocal, xGm, 64)
        with pytest.raises(SyncError, match="PIPE_V reads UB"):
            asc_vf_call[DoubleVF](xLocal.GetPhyAddr(), xLocal.GetPhyAddr(), 64)


def test_destroy_then_a_new_tpipe_reuses_the_ub() -> None:
    """The production pattern: one phase's TPipe, Destroy(), then another TPipe."""
    with block(BlockContext()):
        first = TPipe()
        que = TQue[TPosition.VECOUT, 1]()
        first.InitBuffer(que, 2, 1024)
        old = que.AllocTensor[float32_t]()
        first.Destroy()
        with pytest.raises(OutOfBoundsError):
            old.GetValue(0)
        with pytest.raises(AscregError, match="the queue has no buffers"):
            que.AllocTensor[float32_t]()
        with pytest.raises(AscregError, match="destroyed: Init"):
            first.InitBuffer(TBuf(), 64)
        with pytest.raises(AscregError, match=r"destroyed: Init\(\) it before Destroy"):
            first.Destroy()
        second = TPipe()
        buf = TBuf()
        second.InitBuffer(buf, 256)
        assert buf.Get[float32_t]().GetPhyAddr().address == 0
        with pytest.raises(AscregError, match="initialised already"):
            second.Init()
        with pytest.raises(AscregError, match="another TPipe is live"):
            first.Init()


def test_reset_keeps_the_pipe_and_resets_the_modes() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECIN, 1]()
        pipe.InitBuffer(que, 1, 64)
        que.EnQue(que.AllocTensor[float32_t]())
        SetAtomicAdd[float32_t]()
        pipe.Reset()
        assert system_registers().atomic is None
        assert pipe.FetchEventID(HardEvent.MTE2_V) == 0  # the EnQue's id went with the reset
        pipe.InitBuffer(que, 1, 64)
        assert que.AllocTensor[float32_t]().GetPhyAddr().address == 0


def test_free_all_event_settles_the_freed_buffers() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECOUT, 2]()
        pipe.InitBuffer(que, 2, 64)
        for _ in range(2):
            que.EnQue(que.AllocTensor[float32_t]())
            que.FreeTensor(que.DeQue[float32_t]())
        assert pipe.FetchEventID(HardEvent.MTE3_V) == 2
        que.FreeAllEvent()
        assert pipe.FetchEventID(HardEvent.MTE3_V) == 0
        que.EnQue(que.AllocTensor[float32_t]())
        with pytest.raises(AscregError, match="still in the queue: DeQue it before FreeAllEvent"):
            que.FreeAllEvent()
        zero = TQue[TPosition.VECIN, 0]()
        pipe.InitBuffer(zero, 1, 64)
        with pytest.raises(AscregError, match="not for a depth-0"):
            zero.FreeAllEvent()


def test_buffers_are_handed_out_round_robin() -> None:
    """As the C++ bufCursor: double buffering alternates the two buffers."""
    with block(BlockContext()):
        que = queue(depth=1, num=2)
        seen = []
        for _ in range(4):
            t = que.AllocTensor[float32_t]()
            seen.append(t.GetPhyAddr().address)
            que.EnQue(t)
            que.FreeTensor(que.DeQue[float32_t]())
        assert seen == [0, 256, 0, 256]

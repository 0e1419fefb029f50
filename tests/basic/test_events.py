"""Event ids: GetTPipePtr()->FetchEventID / AllocEventID / ReleaseEventID, as production spells them.

The TPipe hands ids out of one pool per HardEvent (QUE_MAX_EVENT = 8 each, dav-3510); the
queues take theirs from the same pools, so a fetched id never collides with one a pending EnQue
or FreeTensor holds.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t
from ascreg.basic import (
    QUE_MAX_EVENT,
    DataCopy,
    GetTPipePtr,
    GlobalTensor,
    HardEvent,
    SetFlag,
    TBuf,
    TEventID,
    TPipe,
    TPosition,
    TQue,
    WaitFlag,
    event_t,
)
from ascreg.basic._events import EventPool
from ascreg.errors import AscregError, AscregTypeError, CapacityError, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __vector__


def test_alloc_takes_the_lowest_free_id_until_released() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        ids = [GetTPipePtr().AllocEventID[HardEvent.V_MTE3]() for _ in range(3)]
        assert ids == [0, 1, 2]
        pipe.ReleaseEventID[HardEvent.V_MTE3](1)
        assert pipe.AllocEventID[HardEvent.V_MTE3]() == 1
        assert pipe.AllocEventID[HardEvent.MTE2_V]() == 0  # one pool per HardEvent


def test_fetch_does_not_occupy_and_has_both_spellings() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        assert pipe.FetchEventID[HardEvent.V_S]() == pipe.FetchEventID(HardEvent.V_S) == 0
        pipe.AllocEventID[HardEvent.V_S]()
        assert GetTPipePtr().FetchEventID(HardEvent.V_S) == 1
        with pytest.raises(AscregTypeError, match="FetchEventID takes a HardEvent"):
            pipe.FetchEventID(3)  # type: ignore[arg-type]
        with pytest.raises(AscregTypeError, match=r"write FetchEventID\[HardEvent.X\]\(\)"):
            pipe.FetchEventID()


def test_exhaustion_and_bad_releases_are_clear_errors() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        for expected in range(QUE_MAX_EVENT):
            assert pipe.AllocEventID[HardEvent.S_MTE3]() == expected
        with pytest.raises(CapacityError) as info:
            pipe.AllocEventID[HardEvent.S_MTE3]()
        assert str(info.value).startswith(
            "TPipe.AllocEventID: all 8 event ids of HardEvent::S_MTE3 are occupied"
        )
        with pytest.raises(CapacityError, match="all 8 event ids"):
            pipe.FetchEventID(HardEvent.S_MTE3)
        pipe.ReleaseEventID[HardEvent.S_MTE3](5)
        assert pipe.FetchEventID(HardEvent.S_MTE3) == 5
        with pytest.raises(AscregError, match="event id 5 of HardEvent::S_MTE3 is not occupied"):
            pipe.ReleaseEventID[HardEvent.S_MTE3](5)
        with pytest.raises(AscregError, match=r"event id 9 is outside \[0, 8\)"):
            pipe.ReleaseEventID[HardEvent.S_MTE3](9)
        with pytest.raises(AscregTypeError, match="must be an integer"):
            pipe.ReleaseEventID[HardEvent.S_MTE3](True)


def test_queues_take_their_ids_from_the_same_pools() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        inQue, outQue = TQue[TPosition.VECIN, 2](), TQue[TPosition.VECOUT, 1]()
        pipe.InitBuffer(inQue, 2, 64)
        pipe.InitBuffer(outQue, 1, 64)
        a, b = inQue.AllocTensor[float32_t](), inQue.AllocTensor[float32_t]()
        inQue.EnQue(a)
        inQue.EnQue(b)  # MTE2_V ids 0 and 1 until DeQue
        assert pipe.FetchEventID(HardEvent.MTE2_V) == 2
        inQue.FreeTensor(inQue.DeQue[float32_t]())  # releases MTE2_V 0, takes V_MTE2 0
        assert pipe.FetchEventID(HardEvent.MTE2_V) == 0
        assert pipe.FetchEventID(HardEvent.V_MTE2) == 1
        inQue.AllocTensor[float32_t]()  # the freed buffer's V_MTE2 id goes back
        assert pipe.FetchEventID(HardEvent.V_MTE2) == 0
        outQue.EnQue(outQue.AllocTensor[float32_t]())
        assert pipe.FetchEventID(HardEvent.V_MTE3) == 1


def test_freed_buffers_hold_ids_until_reallocated() -> None:
    """As the C++ CPU-debug build checks: eight freed, not reallocated buffers of one event."""
    with block(BlockContext()):
        pipe = TPipe()
        queues = [TQue[TPosition.VECIN, 1]() for _ in range(QUE_MAX_EVENT + 1)]
        for que in queues:
            pipe.InitBuffer(que, 1, 32)
        for que in queues[:-1]:
            que.EnQue(que.AllocTensor[float32_t]())
            que.FreeTensor(que.DeQue[float32_t]())
        last = queues[-1]
        last.EnQue(last.AllocTensor[float32_t]())
        kept = last.DeQue[float32_t]()
        with pytest.raises(CapacityError, match="HardEvent::V_MTE2 are occupied"):
            last.FreeTensor(kept)
        queues[0].AllocTensor[float32_t]()
        last.FreeTensor(kept)


def test_get_tpipe_ptr_needs_a_tpipe() -> None:
    with block(BlockContext()), pytest.raises(AscregError, match="made no TPipe"):
        GetTPipePtr()
    with block(BlockContext()):
        pipe = TPipe()
        assert GetTPipePtr() is pipe


def test_event_t_and_teventid_casts() -> None:
    assert event_t(7) == TEventID(7) == 7 and type(event_t(np.int64(3) + 0)) is int
    for bad in (8, -1, True, 1.0, "0"):
        with pytest.raises(AscregTypeError, match="is not an event id"):
            event_t(bad)


def test_event_pool_on_its_own() -> None:
    pool = EventPool()
    assert [pool.alloc(HardEvent.V_S) for _ in range(3)] == [0, 1, 2]
    pool.release(HardEvent.V_S, 0)
    assert pool.fetch(HardEvent.V_S) == 0 and pool.alloc(HardEvent.V_S) == 0


N = 64


@__global__
@__vector__
def fetch_kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """The production pattern: a fetched V_MTE3 / MTE2_V id around a copy."""
    pipe = TPipe()
    buf = TBuf[TPosition.VECCALC]()
    pipe.InitBuffer(buf, N * 4)
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x, N)
    yGm.SetGlobalBuffer(y, N)
    t = buf.Get[float32_t]()
    DataCopy(t, xGm, N)
    eventIdMte2ToS = event_t(GetTPipePtr().FetchEventID(HardEvent.MTE2_S))
    SetFlag[HardEvent.MTE2_S](eventIdMte2ToS)
    WaitFlag[HardEvent.MTE2_S](eventIdMte2ToS)
    t.SetValue(0, t.GetValue(0) + 100)
    eventIdSToMte3 = event_t(GetTPipePtr().AllocEventID[HardEvent.S_MTE3]())
    SetFlag[HardEvent.S_MTE3](eventIdSToMte3)
    WaitFlag[HardEvent.S_MTE3](eventIdSToMte3)
    GetTPipePtr().ReleaseEventID[HardEvent.S_MTE3](eventIdSToMte3)
    DataCopy(yGm, t, N)


def test_fetched_ids_order_a_kernel_as_flags() -> None:
    x, y = GlobalMemory().alloc(float32_t, N), GlobalMemory().alloc(float32_t, N)
    x.write(np.arange(N, dtype=np.float32))
    fetch_kernel[1, 0](x, y)
    expected = np.arange(N, dtype=np.float32)
    expected[0] += 100
    np.testing.assert_array_equal(y.read(N), expected)


@__global__
@__vector__
def unsynced_kernel(x: GmPtr[float32_t]) -> None:
    pipe = TPipe()
    buf = TBuf[TPosition.VECCALC]()
    pipe.InitBuffer(buf, N * 4)
    xGm = GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x, N)
    t = buf.Get[float32_t]()
    DataCopy(t, xGm, N)
    eventId = GetTPipePtr().FetchEventID(HardEvent.V_S)  # the wrong event for a copy
    SetFlag[HardEvent.V_S](eventId)
    WaitFlag[HardEvent.V_S](eventId)
    t.GetValue(0)


def test_a_fetched_id_of_the_wrong_event_orders_nothing() -> None:
    x = GlobalMemory().alloc(float32_t, N)
    x.write(np.zeros(N, dtype=np.float32))
    with pytest.raises(SyncError, match="PIPE_S reads UB"):
        unsynced_kernel[1, 0](x)


def test_tquesync_is_setflag_waitflag_of_its_pipe_pair() -> None:
    from ascreg.basic import PIPE_MTE2, PIPE_MTE3, PIPE_V, TQueSync

    with block(BlockContext()):
        sync = TQueSync[PIPE_MTE2, PIPE_V]()
        sync.SetFlag(3)
        WaitFlag[HardEvent.MTE2_V](3)  # the same hardware flag
        with pytest.raises(SyncError, match="no earlier notify"):
            TQueSync[PIPE_V, PIPE_MTE3]().WaitFlag(0)
    with block(BlockContext()), pytest.raises(AscregTypeError, match="no HardEvent joins"):
        TQueSync[PIPE_MTE3, PIPE_MTE3]()

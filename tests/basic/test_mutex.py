"""Mutex::Lock / Unlock order pipes; AllocMutexID / ReleaseMutexID share ids with the queues."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import float32_t
from ascreg.basic import (
    PIPE_MTE2,
    PIPE_V,
    AllocMutexID,
    LocalTensor,
    Mutex,
    ReleaseMutexID,
    TPipe,
    TPosition,
    TQue,
)
from ascreg.errors import AscregTypeError, CapacityError, SyncError
from ascreg.machine.block import BlockContext, block


def test_ids_are_the_lowest_free_and_queue_buffers_hold_some() -> None:
    with block(BlockContext()):
        assert [AllocMutexID() for _ in range(3)] == [0, 1, 2]
        ReleaseMutexID(1)
        assert AllocMutexID() == 1
        pipe = TPipe()  # a new pipe clears the ids; its queue buffers take 0 and 1
        pipe.InitBuffer(TQue[TPosition.VECIN, 1](), 2, 64)
        assert AllocMutexID() == 2
        ids = [AllocMutexID() for _ in range(25)]
        assert ids[-1] == 27
        with pytest.raises(CapacityError, match=r"all mutex ids 0\.\.27 are taken"):
            AllocMutexID()
        with pytest.raises(AscregTypeError, match=r"id 27 is outside \[0, 26\]"):
            ReleaseMutexID(27)
        pipe.Destroy()
        assert AllocMutexID() == 0


def test_lock_orders_a_pipe_after_the_unlock() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
        mutex = AllocMutexID()
        Mutex.Lock[PIPE_MTE2](mutex)
        with ctx.on_pipe(PIPE_MTE2):
            x.GetPhyAddr().write(np.ones(8, np.float32))
        Mutex.Unlock[PIPE_MTE2](mutex)
        Mutex.Lock[PIPE_V](mutex)
        with ctx.on_pipe(PIPE_V):
            assert x.GetPhyAddr().read(8).sum() == 8  # ordered: no hazard
        Mutex.Unlock[PIPE_V](mutex)
        with pytest.raises(SyncError, match="must not nest"):
            Mutex.Lock[PIPE_V](mutex)
            Mutex.Lock[PIPE_V](mutex)

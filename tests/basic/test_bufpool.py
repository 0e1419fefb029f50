"""TBufPool: TPipe.InitBufPool, the pool's InitBuffer / InitBufPool / Reset (dav-3510)."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, float32_t
from ascreg.basic import (
    PIPE_ALL,
    DataCopy,
    GlobalTensor,
    PipeBarrier,
    TBuf,
    TBufPool,
    TPipe,
    TPosition,
    TQue,
)
from ascreg.errors import AscregError, CapacityError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block


def gm(values: np.ndarray) -> GlobalTensor:  # type: ignore[type-arg]
    ptr = GlobalMemory().alloc(float32_t, values.size)
    ptr.write(values)
    tensor = GlobalTensor[float32_t]()
    tensor.SetGlobalBuffer(ptr, values.size)
    return tensor


def stage(pool: TBufPool, src: GlobalTensor, dst: GlobalTensor) -> int:  # type: ignore[type-arg]
    """Copy 64 floats in and out through a queue of *pool*; return the buffer's address."""
    que = TQue[TPosition.VECIN, 1]()
    pool.InitBuffer(que, 1, 256)
    local = que.AllocTensor[float32_t]()
    DataCopy(local, src, 64)
    que.EnQue(local)
    local = que.DeQue[float32_t]()
    PipeBarrier[PIPE_ALL]()
    DataCopy(dst, local, 64)
    que.FreeTensor(local)
    return int(local.GetPhyAddr().address)


def test_two_stages_share_one_region() -> None:
    a, b = gm(np.arange(64, dtype=np.float32)), gm(np.arange(64, 128, dtype=np.float32))
    out_a, out_b = gm(np.zeros(64, np.float32)), gm(np.zeros(64, np.float32))
    with block(BlockContext()):
        pipe = TPipe()
        first, second = TBufPool[TPosition.VECCALC](), TBufPool[TPosition.VECCALC]()
        assert pipe.InitBufPool(first, 512)
        assert pipe.InitBufPool(second, 256, first)
        address_a = stage(first, a, out_a)
        first.Reset()
        address_b = stage(second, b, out_b)
        PipeBarrier[PIPE_ALL]()
    assert address_a == address_b == 0
    assert out_a.GetPhyAddr().read(64).tolist() == list(range(64))
    assert out_b.GetPhyAddr().read(64).tolist() == list(range(64, 128))


def test_sub_pools_and_buffers_are_carved_in_order() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        _ = pipe.InitBufPool(TBufPool[TPosition.VECIN](), 96)  # the pipe's first 96 bytes
        outer, inner = TBufPool[TPosition.VECCALC, 2](), TBufPool[TPosition.VECCALC]()
        pipe.InitBufPool(outer, 1024)
        scratch = TBuf()
        outer.InitBuffer(scratch, 33)  # 64 bytes
        outer.InitBufPool(inner, 128)
        calc = TBuf()
        inner.InitBuffer(calc, 128)
        assert scratch.Get[float32_t]().GetPhyAddr().address == 96
        assert calc.Get[float32_t]().GetPhyAddr().address == 96 + 64
        with pytest.raises(CapacityError, match="bufIDSize is 2"):
            outer.InitBuffer(TQue[TPosition.VECIN, 1](), 2, 32)
        with pytest.raises(CapacityError, match=r"needs 64 bytes but .* has 0 left"):
            inner.InitBuffer(TBuf(), 64)
        with pytest.raises(AscregError, match="longer than shareBuf"):
            pipe.InitBufPool(TBufPool[TPosition.VECCALC](), 2048, outer)
        with pytest.raises(AscregError, match="has no UB"):
            TBufPool[TPosition.VECCALC]().InitBuffer(TBuf(), 32)


def test_reset_frees_the_region_and_destroy_takes_the_buffers_back() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        pool = TBufPool[TPosition.VECCALC]()
        pipe.InitBufPool(pool, 64)
        first = TBuf()
        pool.InitBuffer(first, 64)
        with pytest.raises(CapacityError):
            pool.InitBuffer(TBuf(), 32)
        pool.Reset()
        again = TBuf()
        pool.InitBuffer(again, 32)
        tensor = again.Get[float32_t]()
        pipe.Destroy()
        with pytest.raises(AscregError, match="no buffer"):
            again.Get[float32_t]()
        with pytest.raises(OutOfBoundsError):
            tensor.GetPhyAddr().read(1)

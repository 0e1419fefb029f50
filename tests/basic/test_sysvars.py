"""System variables, memory barriers, cache control and L2 hints as arch35 kernels spell them."""

from __future__ import annotations

import pytest

from ascreg import GlobalMemory, float32_t, half
from ascreg.basic import (
    CacheLine,
    CacheMode,
    CacheRwMode,
    DataCacheCleanAndInvalid,
    DataSyncBarrier,
    DcciDst,
    GetBlockIdx,
    GetDataBlockSizeInBytes,
    GetRuntimeUBSize,
    GetSubBlockIdx,
    GetSubBlockNum,
    GetTaskRatio,
    GetUBSizeInBytes,
    GlobalTensor,
    LocalMemAllocator,
    MemDsbT,
)
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __vector__


def test_a_vector_only_launch_has_one_sub_block_per_block() -> None:
    seen: list[tuple[int, int, int, int]] = []

    @__global__
    @__vector__
    def ids() -> None:
        seen.append((int(GetBlockIdx()), GetSubBlockIdx(), GetSubBlockNum(), GetTaskRatio()))

    ids[3, 0]()
    assert seen == [(0, 0, 1, 1), (1, 0, 1, 1), (2, 0, 1, 1)]
    with pytest.raises(AscregError, match="no kernel is running"):
        GetSubBlockIdx()


def test_sizes() -> None:
    assert GetDataBlockSizeInBytes() == 32
    assert GetUBSizeInBytes() == GetRuntimeUBSize() == 248 * 1024


def test_barriers_and_cache_control_check_their_arguments() -> None:
    g = GlobalTensor[float32_t]()
    g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 16), 16)
    with block(BlockContext()):
        for kind in MemDsbT:
            DataSyncBarrier[kind]()
        with pytest.raises(AscregTypeError, match=r"write DataSyncBarrier\[MemDsbT.X\]\(\)"):
            DataSyncBarrier()
        DataCacheCleanAndInvalid[float32_t, CacheLine.SINGLE_CACHE_LINE](g)
        DataCacheCleanAndInvalid[float32_t, CacheLine.ENTIRE_DATA_CACHE, DcciDst.CACHELINE_OUT](
            g[8]
        )
        t = LocalMemAllocator().Alloc[float32_t, 8]()
        DataCacheCleanAndInvalid[float32_t, CacheLine.SINGLE_CACHE_LINE, DcciDst.CACHELINE_UB](t)
        with pytest.raises(
            AscregTypeError, match=r"with DcciDst\.CACHELINE_OUT dst is a GlobalTensor"
        ):
            DataCacheCleanAndInvalid[float32_t, CacheLine.SINGLE_CACHE_LINE](t)
        with pytest.raises(AscregTypeError, match="GlobalTensor<float> does not hold T = half"):
            DataCacheCleanAndInvalid[half, CacheLine.SINGLE_CACHE_LINE](g)
    with pytest.raises(AscregError, match="no kernel is running"):
        DataSyncBarrier[MemDsbT.UB]()


def test_l2_cache_hints() -> None:
    g = GlobalTensor[float32_t]()
    g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 16), 16)
    g.SetL2CacheHint(CacheMode.CACHE_MODE_DISABLE)
    g.SetL2CacheHint()
    g.SetL2CacheHint[CacheRwMode.READ](CacheMode.CACHE_MODE_NORMAL)
    with pytest.raises(AscregTypeError, match="mode must be a CacheMode"):
        g.SetL2CacheHint(0)  # type: ignore[arg-type]


def test_icache_preload_takes_lengths_below_the_vector_icache() -> None:
    from ascreg.basic import ICachePreLoad

    with block(BlockContext()):
        ICachePreLoad(0)
        ICachePreLoad(7)
        for bad in (-1, 8):
            with pytest.raises(AscregTypeError, match="preFetchLen"):
                ICachePreLoad(bad)

"""Cooperative groups: the lane arithmetic against ``reference.groups``, and every group and
member in kernels, in the vectorised tier and one thread at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, int32_t, uint32_t, uint64_t
from ascreg.c_api import __ubuf__
from ascreg.core import groups
from ascreg.errors import AscregError, UnsupportedError
from ascreg.machine.simt.engine import divergence
from ascreg.simt import (
    binary_partition,
    coalesced_threads,
    dim3,
    run_simt_kernel,
    sync,
    this_thread_block,
    thread_rank,
    threadIdx,
    tiled_partition,
)
from reference.groups import ref_compact, ref_lane_of, ref_rank_of

masks = st.integers(0, 2**32 - 1)


@given(masks, st.integers(0, 31), st.integers(0, 33), masks)
def test_mask_arithmetic_matches_reference(mask: int, lane: int, rank: int, bits: int) -> None:
    m = np.uint32(mask)
    assert int(groups.rank_of(m, lane)) == ref_rank_of(mask, lane)
    assert int(groups.lane_of(m, rank)) == ref_lane_of(mask, rank)
    assert int(groups.compact(np.uint32(bits), m)) == ref_compact(bits, mask)
    assert int(groups.popcount(m)) == bin(mask).count("1")


MODES = ["masked", "per-thread"]


def run(kernel: Any, block: dim3, *outs: Any, mode: str = "masked") -> None:
    with divergence(mode):
        run_simt_kernel(kernel, dim3(1), block, 0, outs)


@pytest.mark.parametrize("mode", MODES)
def test_thread_block_members(mode: str) -> None:
    out = GlobalMemory().alloc(uint32_t, 24)

    def kernel(out: Any) -> None:
        block = this_thread_block()
        index, dims = block.thread_index(), block.dim_threads()
        out[block.thread_rank()] = block.size() * 1000 + index.z * 100 + index.y * 10 + index.x
        assert dims == block.group_dim() and (dims.x, dims.y, dims.z) == (2, 3, 4)
        assert block.num_threads() == 24 and block.group_index().x == 0

    run(kernel, dim3(2, 3, 4), out, mode=mode)
    t = np.arange(24)
    assert out.read(24).tolist() == (24000 + t // 6 * 100 + t // 2 % 3 * 10 + t % 2).tolist()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", [1, 2, 4, 8, 16, 32])
def test_single_warp_tiles_shuffle_and_vote_within_the_tile(mode: str, size: int) -> None:
    out = GlobalMemory().alloc(uint32_t, 64 * 6)

    def kernel(out: Any) -> None:
        tile = tiled_partition(this_thread_block(), size)
        t = threadIdx.x
        tile.sync()
        out[t] = tile.shfl(t, 0)
        out[64 + t] = tile.shfl_down(t, 1)
        out[128 + t] = tile.shfl_xor(t, 1 if size > 1 else 0)
        out[192 + t] = tile.ballot(t % 3 == 0)
        out[256 + t] = tile.any(t == 5) * 10 + tile.all(t < 60)
        out[320 + t] = tile.meta_group_rank() * 100 + tile.thread_rank()

    run(kernel, dim3(64), out, mode=mode)
    got = out.read(64 * 6).reshape(6, 64)
    t = np.arange(64)
    base, rank = t // size * size, t % size
    assert got[0].tolist() == base.tolist()
    assert got[1].tolist() == np.where(rank + 1 < size, t + 1, t).tolist()
    assert got[2].tolist() == (t ^ (1 if size > 1 else 0)).tolist()
    ballots = [sum(1 << r for r in range(size) if (b + r) % 3 == 0) for b in base]
    assert got[3].tolist() == ballots
    any5 = (base <= 5) & (base + size > 5)
    all60 = base + size <= 60
    assert got[4].tolist() == (any5 * 10 + all60).tolist()
    assert got[5].tolist() == (t // size * 100 + rank).tolist()


@pytest.mark.parametrize("mode", MODES)
def test_coalesced_groups_rank_the_active_lanes(mode: str) -> None:
    out = GlobalMemory().alloc(uint64_t, 32 * 4)

    def kernel(out: Any) -> None:
        t = threadIdx.x
        if t % 3 != 1:
            g = coalesced_threads()
            out[t] = g.thread_rank() * 100 + g.size()
            out[32 + t] = g.shfl_down(t, 2)
            out[64 + t] = g.shfl(t, 4) + 1000 * g.ballot(t > 20)
            part = binary_partition(g, t < 10)
            out[96 + t] = part.thread_rank() * 100 + thread_rank(part) * 0 + part.size()

    run(kernel, dim3(32), out, mode=mode)
    got = out.read(32 * 4).reshape(4, 32)
    members = [t for t in range(32) if t % 3 != 1]
    size = len(members)
    for rank, t in enumerate(members):
        assert got[0, t] == rank * 100 + size
        assert got[1, t] == (members[rank + 2] if rank + 2 < size else t)
        ballot = sum(1 << r for r, m in enumerate(members) if m > 20)
        assert got[2, t] == members[4] + 1000 * ballot
        side = [m for m in members if (m < 10) == (t < 10)]
        assert got[3, t] == side.index(t) * 100 + len(side)


@pytest.mark.parametrize("mode", MODES)
def test_block_and_multi_warp_tile_sync_order_shared_memory(mode: str) -> None:
    out = GlobalMemory().alloc(int32_t, 128)

    def kernel(out: Any) -> None:
        tile = __ubuf__(int32_t, 128)
        block = this_thread_block()
        big = tiled_partition[64](block)
        t = threadIdx.x
        tile[t] = t * 2
        sync(block)
        value = tile[127 - t]
        big.sync()
        tile[t] = value + big.meta_group_rank()
        block.sync()
        out[t] = tile[t ^ 64]

    run(kernel, dim3(128), out, mode=mode)
    t = np.arange(128)
    assert out.read(128).tolist() == ((127 - (t ^ 64)) * 2 + (t ^ 64) // 64).tolist()


def test_what_is_not_modelled_says_so() -> None:
    def wide_shfl() -> None:
        tiled_partition(this_thread_block(), 64).shfl(threadIdx.x, 0)

    with pytest.raises(
        UnsupportedError, match="multi-warp tiles exchange through block_tile_memory"
    ):
        run_simt_kernel(wide_shfl, dim3(1), dim3(64), 0, ())

    def bad_size() -> None:
        tiled_partition(this_thread_block(), 12)

    with pytest.raises(AscregError, match=r"power of two in 1\.\.2048"):
        run_simt_kernel(bad_size, dim3(1), dim3(64), 0, ())

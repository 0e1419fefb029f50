"""Cooperative groups: the lane arithmetic against ``reference.groups``, and every group and
member in kernels, in the vectorised tier and one thread at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, int32_t, uint32_t, uint64_t
from ascreg._spec.simt import GROUP_FUNCTIONS
from ascreg.c_api import __ubuf__
from ascreg.core import groups
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.simt.engine import divergence
from ascreg.simt import all as group_all
from ascreg.simt import any as group_any
from ascreg.simt import (
    ballot,
    binary_partition,
    coalesced_threads,
    dim3,
    dim_threads,
    group_dim,
    group_index,
    meta_group_rank,
    meta_group_size,
    num_threads,
    run_simt_kernel,
    shfl,
    shfl_down,
    shfl_up,
    shfl_xor,
    size,
    sync,
    this_thread_block,
    thread_index,
    thread_rank,
    threadIdx,
    tiled_partition,
)
from reference.groups import ref_coalesced, ref_compact, ref_lane_of, ref_rank_of, ref_tile

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


TILE_MEMBERS = ("thread_rank", "meta_group_rank", "shfl", "shfl_up", "shfl_down", "shfl_xor",
                "ballot", "any", "all")  # fmt: skip
WARP_MEMBERS = ("thread_rank", "size", "shfl", "shfl_up", "shfl_down", "ballot", "any", "all",
                "partition")  # fmt: skip


@pytest.mark.rows(*GROUP_FUNCTIONS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("active", [0xFFFFFFFF, 0xB6E15F0D])
# `value` is an int32 (the tiles loop) in the lanes outside the divergent `if` and a uint64 in
# it: one array cannot hold both (the masked tier does not know that those lanes never read it)
@pytest.mark.filterwarnings("ignore::ascreg.errors.SlowPathWarning")
def test_free_functions_match_the_lane_references(mode: str, active: int) -> None:
    n, tile_size = 64, 8
    rows = 4 + len(TILE_MEMBERS) + len(WARP_MEMBERS)
    out = GlobalMemory().alloc(uint32_t, n * rows)
    var = [(7 * t + 3) % 100 for t in range(n)]
    pred = [t % 3 == 0 or t == 41 for t in range(n)]

    def kernel(out: Any) -> None:
        t = threadIdx.x
        v, p = np.uint32([(7 * i + 3) % 100 for i in range(64)])[t], (t % 3 == 0) | (t == 41)
        block = this_thread_block()
        tile = tiled_partition(block, 8)
        sync(block)
        sync(tile)
        out[t] = thread_rank(block) + 1000 * size(block) + 100000 * num_threads(block)
        out[n + t] = group_index(block).x + 10 * dim_threads(block).x + 1000 * group_dim(block).x
        out[2 * n + t] = thread_index(block).x
        out[3 * n + t] = num_threads(tile) + 100 * size(tile) + 10000 * meta_group_size(tile)
        tiles = (thread_rank(tile), meta_group_rank(tile), shfl(tile, v, 3), shfl_up(tile, v, 1),
                 shfl_down(tile, v, 2), shfl_xor(tile, v, 5), ballot(tile, p),
                 group_any(tile, p), group_all(tile, p))  # fmt: skip
        for k, value in enumerate(tiles):
            out[(4 + k) * n + t] = value
        if (active >> (t % 32)) & 1:
            g = coalesced_threads()
            sync(g)
            part = binary_partition(g, t % 2 == 0)
            assert meta_group_rank(g) == 0 and meta_group_size(g) == 1
            warps = (thread_rank(g), size(g), shfl(g, v, 3), shfl_up(g, v, 1), shfl_down(g, v, 2),
                     ballot(g, p), group_any(g, p), group_all(g, p),
                     thread_rank(part) + 100 * num_threads(part))  # fmt: skip
            for k, value in enumerate(warps):
                out[(4 + len(tiles) + k) * n + t] = value

    run(kernel, dim3(n), out, mode=mode)
    got = out.read(n * rows).reshape(rows, n)
    threads = range(n)
    assert got[0].tolist() == [t + 1000 * n + 100000 * n for t in threads]
    assert got[1].tolist() == [10 * n + 1000 * n] * n
    assert got[2].tolist() == list(threads)
    assert got[3].tolist() == [tile_size + 100 * tile_size + 10000 * (n // tile_size)] * n
    for k, member in enumerate(TILE_MEMBERS):
        assert got[4 + k].tolist() == [ref_tile(tile_size, t, var, pred)[member] for t in threads]
    for k, member in enumerate(WARP_MEMBERS):
        row = 4 + len(TILE_MEMBERS) + k
        for t in (t for t in threads if active >> (t % 32) & 1):
            base = t - t % 32
            want = ref_coalesced(active, t % 32, var[base : base + 32], pred[base : base + 32])
            assert got[row, t] == want[member], (member, t)


def test_a_free_function_checks_the_group_class() -> None:
    seen: list[str] = []

    def kernel() -> None:
        for call, group in (
            (shfl_xor, coalesced_threads()),
            (group_index, tiled_partition(this_thread_block(), 4)),
        ):
            try:
                call(group, 1, 1) if call is shfl_xor else call(group)
            except AscregTypeError as error:
                seen.append(str(error))

    run_simt_kernel(kernel, dim3(1), dim3(8), 0, ())
    assert "shfl_xor" in seen[0] and "takes a thread_block_tile" in seen[0]
    assert "group_index" in seen[1] and "takes a thread_block" in seen[1]

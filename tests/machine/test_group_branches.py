"""Branches on per-block values in block groups: the twins of a kernel's code.

A twin must give each block what the function as written gives it: the tests run a function
once per block with plain values and once with the blocks' values as lanes, under
:func:`twins`, and compare block by block; and whole kernels with a tail block's branch run as
one group with the results of their blocks one at a time.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, GmPtr, float32_t, uint8_t, uint32_t, uint64_t
from ascreg.basic import (
    GET_TILING_DATA,
    PIPE_ALL,
    REGISTER_TILING_DEFAULT,
    DataCopy,
    GetBlockIdx,
    GetBlockNum,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
    Struct,
    asc_vf_call,
)
from ascreg.engine import groups
from ascreg.engine.groups import BlockLanes, Divergent
from ascreg.engine.groups.branches import MERGED, choose, twin_code, twins, where
from ascreg.machine.kernel import __global__, __vector__
from group_kernels import affine


class Tiling:
    def __init__(self, factor: int, tail: int) -> None:
        self.factor, self.tail = factor, tail


class Sizes:
    """A kernel class in the production style: Init sets the block's sizes."""

    def Init(self, idx: Any, blocks: int, tiling: Tiling) -> None:
        self.length = tiling.factor
        count = tiling.factor * 2
        if idx == blocks - 1:
            self.length = tiling.tail
            count = self.length * 2
        else:
            count += 1
        self.count = count
        self.loops = 3 if idx == blocks - 1 else 2
        # the same value either way
        self.unchanged = tiling.factor if idx < 0 else tiling.factor + 0

    def private(self) -> int:  # a private name: its twin mangles it as the class does
        return 1 if self.length else self.__hidden  # type: ignore[no-any-return]


def sizes(idx: Any, blocks: int, factor: int, tail: int) -> tuple[Any, ...]:
    obj = Sizes()
    obj.Init(idx, blocks, Tiling(factor, tail))
    return obj.length, obj.count, obj.loops, obj.unchanged


def _per_block(values: Any, k: int) -> Any:
    return values.values[k].item() if isinstance(values, BlockLanes) else values


@settings(max_examples=40, deadline=None, derandomize=True)
@given(blocks=st.integers(2, 9), factor=st.integers(1, 50), tail=st.integers(1, 50))
def test_a_twin_gives_each_block_what_the_code_gives_it(
    blocks: int, factor: int, tail: int
) -> None:
    alone = [sizes(k, blocks, factor, tail) for k in range(blocks)]
    functions = [sizes, Sizes.Init]
    with twins(functions):  # type: ignore[list-item]
        together = sizes(BlockLanes(np.arange(blocks)), blocks, factor, tail)
    MERGED.clear()
    for k in range(blocks):
        assert tuple(_per_block(v, k) for v in together) == alone[k]
    assert together[3] == factor and type(together[3]) is int  # equal values stay one value
    assert sizes.__code__.co_name == "sizes" and Sizes.Init.__code__ is not twin_code(Sizes.Init)


def test_a_twin_of_a_method_reads_its_private_names() -> None:
    obj = Sizes()
    obj.length = BlockLanes(np.array([0, 5, 0]))  # type: ignore[assignment]
    obj._Sizes__hidden = 7  # type: ignore[attr-defined]
    with twins([Sizes.private]):  # type: ignore[list-item]
        got = obj.private()
    MERGED.clear()
    assert twin_code(Sizes.private) is not None
    assert got.values.tolist() == [7, 1, 7]  # type: ignore[attr-defined]


def test_code_a_twin_cannot_keep_has_none() -> None:
    def calls(idx: Any) -> Any:
        return print(idx) if idx else 0  # a branch that acts: not rewritten

    assert twin_code(calls) is None
    base = 3

    def closes(idx: Any) -> Any:
        return base if idx else base + 1

    twin = twin_code(closes)
    assert twin is not None and twin.co_freevars == ("base",)


def test_values_that_cannot_be_merged_split_the_group() -> None:
    truth = BlockLanes(np.array([False, False, True]))
    assert where(truth, lambda: 2, lambda: 2) == 2
    assert where(truth, lambda: 2, lambda: 5).values.tolist() == [5, 5, 2]
    for taken, other in (
        (lambda: 2, lambda: 2.5),
        (lambda: "a", lambda: "b"),
        (lambda: 1 // 0, lambda: 1),
    ):
        with pytest.raises(Divergent) as split:
            where(truth, taken, other)
        assert split.value.agree.tolist() == [True, True, False]
    assert choose(True, lambda: 1, lambda: 1 // 0) == 1  # as Python: one branch only
    MERGED.clear()


@__global__
@__vector__
def tail_sized(x: GmPtr[float32_t], y: GmPtr[float32_t], n: int, tail: int) -> None:
    """Each block scales its n floats; the tail block's branch names its own count."""
    count = n
    if GetBlockIdx() == GetBlockNum() - 1:
        count = tail
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * n)
    yGm.SetGlobalBuffer(y + GetBlockIdx() * n)
    allocator = LocalMemAllocator[Hardware.UB]()
    xLocal, yLocal = allocator.Alloc[float32_t, 256](), allocator.Alloc[float32_t, 256]()
    DataCopy(xLocal, xGm, count)
    PipeBarrier[PIPE_ALL]()
    asc_vf_call[affine](yLocal.GetPhyAddr(), xLocal.GetPhyAddr(), count, 2.0)
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, yLocal, count)


def _run(blocks: int, n: int, tail: int, x: Any) -> Any:
    gm = GlobalMemory()
    xg, yg = gm.alloc(float32_t, blocks * n), gm.alloc(float32_t, blocks * n)
    xg.write(x)
    tail_sized[blocks, 0, None](xg, yg, n, tail)
    return yg.read(blocks * n)


@pytest.mark.parametrize(("tail", "grouped"), [(256, "blocks 0-7"), (128, "blocks 0-6")])
def test_a_tail_blocks_branch_splits_the_group_only_where_its_values_differ(
    caplog: pytest.LogCaptureFixture, tail: int, grouped: str
) -> None:
    caplog.set_level(logging.DEBUG, logger="ascreg.groups")
    x = np.random.default_rng(tail).uniform(-2, 2, 8 * 256).astype(np.float32)
    got = _run(8, 256, tail, x)
    before, groups.GROUPS[0] = groups.GROUPS[0], False
    try:
        want = _run(8, 256, tail, x)
    finally:
        groups.GROUPS[0] = before
    np.testing.assert_array_equal(got, want)
    expected = x * np.float32(2) + np.float32(1)
    expected[7 * 256 + tail :] = 0
    np.testing.assert_array_equal(got, expected)
    messages = [record.getMessage() for record in caplog.records]
    assert [m for m in messages if m.startswith("tail_sized: ") and "as one group" in m] == [
        f"tail_sized: {grouped} ran as one group"
    ]


class Sizes32(Struct):
    n: uint32_t
    scale: float32_t


@__global__
@__vector__
def tiled_by_struct(x: GmPtr[float32_t], y: GmPtr[float32_t], tiling: GmPtr[uint8_t]) -> None:
    """Each block reads the tiling struct from GM (every block the same bytes), then scales."""
    REGISTER_TILING_DEFAULT(Sizes32)
    t = GET_TILING_DATA(tiling)
    n = int(t.n)
    offset = uint64_t(GetBlockIdx()) * n  # a C cast of per-block values
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + offset)
    yGm.SetGlobalBuffer(y + offset)
    allocator = LocalMemAllocator[Hardware.UB]()
    xLocal, yLocal = allocator.Alloc[float32_t, 256](), allocator.Alloc[float32_t, 256]()
    DataCopy(xLocal, xGm, n)
    PipeBarrier[PIPE_ALL]()
    asc_vf_call[affine](yLocal.GetPhyAddr(), xLocal.GetPhyAddr(), n, float(t.scale))
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, yLocal, n)


def _run_struct(overlap: bool) -> Any:
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 4 * 64), gm.alloc(float32_t, 4 * 64)
    tiling = gm.alloc(uint8_t, 64)
    if overlap:  # the tiling's bytes are the last 8 of block 3's output: no group may run
        tiling = (y + (4 * 64 - 2)).cast(uint8_t)
    tiling.write(np.frombuffer(Sizes32(64, np.float32(3.0)).tobytes(), np.uint8))
    x.write(np.arange(4 * 64))
    tiled_by_struct[4, 0, None](x, y, tiling)
    return y.read(4 * 64)


@pytest.mark.parametrize("overlap", [False, True])
def test_a_gm_read_every_block_makes_is_made_once_for_the_group(
    caplog: pytest.LogCaptureFixture, overlap: bool
) -> None:
    caplog.set_level(logging.DEBUG, logger="ascreg.groups")
    got = _run_struct(overlap)
    before, groups.GROUPS[0] = groups.GROUPS[0], False
    try:
        want = _run_struct(overlap)
    finally:
        groups.GROUPS[0] = before
    np.testing.assert_array_equal(got, want)
    messages = [r.getMessage() for r in caplog.records if r.getMessage().startswith("tiled_by")]
    grouped = "tiled_by_struct: blocks 0-3 ran as one group" in messages
    assert grouped is not overlap, messages
    np.testing.assert_array_equal(got, np.arange(256) * np.float32(3) + 1)


def test_a_block_that_takes_another_branch_than_the_next_runs_alone_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="ascreg.groups")
    x = np.random.default_rng(9).uniform(-2, 2, 2 * 256).astype(np.float32)
    got = _run(2, 256, 128, x)
    expected = x * np.float32(2) + np.float32(1)
    expected[256 + 128 :] = 0
    np.testing.assert_array_equal(got, expected)
    messages = [record.getMessage() for record in caplog.records]
    assert "tail_sized: block 0 runs alone: it takes another branch than block 1" in messages

"""SIMD block groups give exactly what the blocks give one at a time: results, errors, output.

Each kernel runs twice, with groups (the default) and with ``GROUPS[0]`` off, and the GM
results (or the error messages) must be equal; the ``ascreg.groups`` log says whether the
blocks really ran as a group, so a test of the grouped path cannot pass by falling back.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    GlobalMemory,
    GmPtr,
    MemType,
    ReduceType,
    Ref,
    Reg,
    StoreDist,
    UbPtr,
    float32_t,
    uint32_t,
)
from ascreg.basic import (
    __VEC_SCOPE__,
    PIPE_ALL,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    GetBlockIdx,
    GetBlockNum,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
    asc_vf_call,
)
from ascreg.engine import chains, groups
from ascreg.engine.batch import RowPointer
from ascreg.engine.groups import BlockGmPtr, BlockLanes, Divergent, GroupRefused
from ascreg.engine.groups import group as group_state
from ascreg.errors import AscregError, EagerLoopWarning, OutOfBoundsError, SyncError
from ascreg.machine.coop import BlockRunner
from ascreg.machine.kernel import __aicore__, __global__, __simd_vf__, __vector__
from ascreg.machine.mte import Burst, gm_to_ub
from ascreg.reg import RegTensor
from group_kernels import affine

N = 256  # floats per block


@__global__
@__vector__
def tile_kernel(x: GmPtr[float32_t], y: GmPtr[float32_t], n: int, scale: float) -> None:
    """Each block: copy its n floats in, the VF, copy them out (a tail block has fewer)."""
    count = n
    if GetBlockIdx() == GetBlockNum() - 1:
        count = n - 8  # the tail block's branch: the group splits before it
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * n)
    yGm.SetGlobalBuffer(y)
    allocator = LocalMemAllocator[Hardware.UB]()
    xLocal = allocator.Alloc[float32_t, N]()
    yLocal = allocator.Alloc[float32_t, N]()
    DataCopy(xLocal, xGm, n)
    PipeBarrier[PIPE_ALL]()
    asc_vf_call[affine](yLocal.GetPhyAddr(), xLocal.GetPhyAddr(), count, scale)
    PipeBarrier[PIPE_ALL]()
    DataCopyPad(
        yGm[GetBlockIdx() * n], yLocal, DataCopyExtParams(1, count * float32_t.size, 0, 0, 0)
    )


@pytest.fixture
def group_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG, logger="ascreg.groups")
    yield caplog


@pytest.fixture
def without_groups() -> Iterator[Callable[[Callable[[], Any]], Any]]:
    before = groups.GROUPS[0]

    def run(call: Callable[[], Any]) -> Any:
        groups.GROUPS[0] = False
        try:
            return call()
        finally:
            groups.GROUPS[0] = before

    yield run


def _grouped(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith(name)]


def one_vf_kernel(vf: Any, *vf_args: Any, out: int = N, skip: int = 0) -> Any:
    """A kernel whose blocks copy N floats in, run *vf* (y, x, *vf_args), copy *out* floats out.

    The copy out leaves the first *skip* floats of each block's output (the VF does not write
    them).

    *vf* is a ``__simd_vf__`` (called with ``asc_vf_call``) or a kernel class whose ``Compute``
    method the block calls.
    """

    def compute(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
        vf().Compute(y, x, *vf_args)

    def call(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
        asc_vf_call[vf](y, x, *vf_args)

    run = compute if isinstance(vf, type) else call

    @__global__
    @__vector__
    def kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
        xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        xGm.SetGlobalBuffer(x + GetBlockIdx() * N)
        yGm.SetGlobalBuffer(y + GetBlockIdx() * N)
        allocator = LocalMemAllocator[Hardware.UB]()
        xLocal, yLocal = allocator.Alloc[float32_t, N](), allocator.Alloc[float32_t, N]()
        DataCopy(xLocal, xGm, N)
        PipeBarrier[PIPE_ALL]()
        run(yLocal.GetPhyAddr(), xLocal.GetPhyAddr())
        PipeBarrier[PIPE_ALL]()
        DataCopy(yGm[skip], yLocal[skip], out - skip)

    return kernel


def _run_one_vf(kernel: Any, blocks: int, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    gm = GlobalMemory()
    xg, yg = gm.alloc(float32_t, blocks * N), gm.alloc(float32_t, blocks * N)
    xg.write(x)
    kernel[blocks, 0, None](xg, yg)
    return yg.read(blocks * N).reshape(blocks, N)


def _run_tile(blocks: int, n: int, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    gm = GlobalMemory()
    xg, yg = gm.alloc(float32_t, blocks * n), gm.alloc(float32_t, blocks * n)
    xg.write(x)
    tile_kernel[blocks, 0, None](xg, yg, n, 0.5)
    return yg.read(blocks * n)


def test_a_group_gives_the_blocks_results_and_splits_before_a_tail_block(
    group_log: pytest.LogCaptureFixture, without_groups: Any
) -> None:
    x = np.random.default_rng(1).uniform(-4, 4, 8 * N).astype(np.float32)
    grouped = _run_tile(8, N, x)
    alone = without_groups(lambda: _run_tile(8, N, x))
    np.testing.assert_array_equal(grouped, alone)
    expected = (x * np.float32(0.5) + np.float32(1.0)).reshape(8, N)
    expected[-1, -8:] = 0  # the tail block copies out n - 8 floats
    np.testing.assert_array_equal(grouped.reshape(8, N), expected)
    assert "tile_kernel: blocks 0-6 ran as one group" in _grouped(group_log, "tile_kernel")


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    blocks=st.integers(2, 9),
    n=st.sampled_from([64, 72, 128, 200, 256]),
    seed=st.integers(0, 2**16),
)
def test_groups_equal_blocks_one_at_a_time(blocks: int, n: int, seed: int) -> None:
    x = np.random.default_rng(seed).standard_normal(blocks * n).astype(np.float32)
    grouped = _run_tile(blocks, n, x)
    before, groups.GROUPS[0] = groups.GROUPS[0], False
    try:
        alone = _run_tile(blocks, n, x)
    finally:
        groups.GROUPS[0] = before
    np.testing.assert_array_equal(grouped, alone)


def test_an_error_of_one_block_is_the_error_of_that_block(without_groups: Any) -> None:
    def run() -> str:
        gm = GlobalMemory()
        x, y = gm.alloc(float32_t, 4 * N - 64), gm.alloc(float32_t, 4 * N)  # block 3 overruns x
        with pytest.raises(OutOfBoundsError) as error:
            tile_kernel[4, 0, None](x, y, N, 2.0)
        return re.sub(r"launch \d+", "launch N", str(error.value) + "".join(error.value.__notes__))

    assert run() == without_groups(run)
    assert "in block 3 of tile_kernel" in run()


@__global__
@__vector__
def chained(x: GmPtr[float32_t], n: int) -> None:
    """Block k reads the floats block k - 1 writes (blocks run in order give a running copy)."""
    gm = GlobalTensor[float32_t]()
    gm.SetGlobalBuffer(x)
    local = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, N]()
    DataCopy(local, gm[GetBlockIdx() * n], n)
    PipeBarrier[PIPE_ALL]()
    DataCopy(gm[(GetBlockIdx() + 1) * n], local, n)


def test_a_block_reading_another_blocks_bytes_runs_in_block_order(
    group_log: pytest.LogCaptureFixture,
) -> None:
    gm = GlobalMemory()
    x = gm.alloc(float32_t, 5 * 64)
    x.write(np.concatenate([np.arange(64), np.zeros(4 * 64)]))
    chained[4, 0, None](x, 64)
    assert (x.read(5 * 64).reshape(5, 64) == np.arange(64)).all()  # copied down the chain
    assert any("ran one at a time" in m for m in _grouped(group_log, "chained"))


@__global__
@__vector__
def same_bytes(x: GmPtr[float32_t], ways: int) -> None:
    """Block k writes the floats at ``blocks + k % ways``: the same for blocks *ways* apart."""
    local = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    gm = GlobalTensor[float32_t]()
    gm.SetGlobalBuffer(x)
    DataCopy(local, gm[GetBlockIdx() * 64], 64)
    PipeBarrier[PIPE_ALL]()
    DataCopy(gm[(GetBlockNum() + GetBlockIdx() % ways) * 64], local, 64)


def _race(ways: int) -> str:
    x = GlobalMemory().alloc(float32_t, (5 + ways) * 64)
    with pytest.raises(SyncError) as error:
        same_bytes[4, 0, None](x, ways)
    return str(error.value)


def test_a_cross_block_race_is_reported_as_one_at_a_time(without_groups: Any) -> None:
    assert _race(1) == without_groups(lambda: _race(1))
    assert "block 1 writes" in _race(1)


def test_a_race_with_a_block_of_an_earlier_group_is_reported_as_one_at_a_time(
    without_groups: Any, monkeypatch: pytest.MonkeyPatch, group_log: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(groups, "GROUP_BLOCKS", 2)  # blocks 0-1, then 2-3: no race inside one
    assert _race(2) == without_groups(lambda: _race(2))
    assert "block 2 writes" in _race(2)
    assert "same_bytes: blocks 0-1 ran as one group" in _grouped(group_log, "same_bytes")


class ScopedScale:
    """A production-style kernel class: its compute method's Reg code in a __VEC_SCOPE__ block
    (``RegTensor`` a name of this module: the group admission reads the method's own names)."""

    @__aicore__
    def Compute(self, dst: UbPtr[float32_t], src: UbPtr[float32_t], early: bool) -> None:
        with __VEC_SCOPE__:
            x = RegTensor[float32_t]()
            full = Reg.CreateMask[float32_t]()
            if early:  # an access outside a batched loop: a group cannot make it for all blocks
                Reg.LoadAlign(x, src)
            for i in range(N // 64):
                Reg.LoadAlign(x, src + i * 64)
                Reg.Muls(x, x, 3.0, full)
                Reg.StoreAlign(dst + i * 64, x, full)


@pytest.mark.parametrize("early", [False, True], ids=["loops only", "an access outside"])
def test_a_vec_scope_block_runs_for_the_whole_group(
    early: bool, without_groups: Any, group_log: pytest.LogCaptureFixture
) -> None:
    source = np.random.default_rng(5).standard_normal(4 * N).astype(np.float32)
    kernel = one_vf_kernel(ScopedScale, early)
    grouped = _run_one_vf(kernel, 4, source)
    np.testing.assert_array_equal(grouped, without_groups(lambda: _run_one_vf(kernel, 4, source)))
    np.testing.assert_array_equal(grouped.reshape(-1), source * np.float32(3.0))
    # an access outside a loop: the block runs once per block, on its row (it is a function)
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


class BlockScaled:
    """A __VEC_SCOPE__ block that reads a value of each block (computed from GetBlockIdx())."""

    @__aicore__
    def Compute(self, dst: UbPtr[float32_t], src: UbPtr[float32_t]) -> None:
        factor = GetBlockIdx() + 1
        with __VEC_SCOPE__:
            x = RegTensor[float32_t]()
            full = Reg.CreateMask[float32_t]()
            for i in range(N // 64):
                Reg.LoadAlign(x, src + i * 64)
                Reg.Muls(x, x, float(factor), full)  # one number: each block's own
                Reg.StoreAlign(dst + i * 64, x, full)


class BlockCopied:
    """A __VEC_SCOPE__ block that changes a value of each block the kernel never reads again
    (copied into the block's function: each block's run starts from its own)."""

    @__aicore__
    def Compute(self, dst: UbPtr[float32_t], src: UbPtr[float32_t]) -> None:
        factor = GetBlockIdx() + 1
        with __VEC_SCOPE__:
            x = RegTensor[float32_t]()
            full = Reg.CreateMask[float32_t]()
            factor *= 2
            Reg.LoadAlign(x, src)  # outside a loop: the block runs once per block
            Reg.Muls(x, x, float(factor), full)
            Reg.StoreAlign(dst, x, full)
            for i in range(1, N // 64):
                Reg.LoadAlign(x, src + i * 64)
                Reg.Muls(x, x, float(factor), full)
                Reg.StoreAlign(dst + i * 64, x, full)


@pytest.mark.parametrize(("kernel_class", "scale"), [(BlockScaled, 1), (BlockCopied, 2)])
def test_a_vec_scope_block_sees_each_blocks_own_values_in_the_group(
    kernel_class: Any, scale: int, without_groups: Any, group_log: pytest.LogCaptureFixture
) -> None:
    """A value of each block the block reads (BlockScaled) or copies in and changes
    (BlockCopied) is that block's while it runs."""
    source = np.random.default_rng(6).standard_normal(4 * N).astype(np.float32)
    kernel = one_vf_kernel(kernel_class)
    grouped = _run_one_vf(kernel, 4, source)
    np.testing.assert_array_equal(grouped, without_groups(lambda: _run_one_vf(kernel, 4, source)))
    factors = np.repeat(np.arange(1, 5, dtype=np.float32) * scale, N)
    np.testing.assert_array_equal(grouped.reshape(-1), source * factors)
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


NARROW, ROWS = 32, 7
"""Rows of 32 floats (half a register), 7 of them: each row's load stays inside the block's N."""


@__simd_vf__
def narrow_rows(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
    """Each row's masked register: whole registers of two rows overlap, their enabled lanes not."""
    r = RegTensor[float32_t]()
    for i in range(ROWS):
        count = Ref(NARROW)
        mask = Reg.UpdateMask[float32_t](count)
        Reg.LoadAlign(r, x + i * NARROW)
        Reg.Muls(r, r, 2.0, mask)
        Reg.StoreAlign(y + i * NARROW, r, mask)


def test_masked_rows_closer_than_a_register_are_stored_for_the_whole_group(
    without_groups: Any, caplog: pytest.LogCaptureFixture, group_log: pytest.LogCaptureFixture
) -> None:
    """Each row's enabled lanes written, every block's at once (no two rows' lanes meet)."""
    source = np.random.default_rng(8).standard_normal(4 * N).astype(np.float32)
    kernel = one_vf_kernel(narrow_rows, out=ROWS * NARROW)
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        grouped = _run_one_vf(kernel, 4, source)
    np.testing.assert_array_equal(grouped, without_groups(lambda: _run_one_vf(kernel, 4, source)))
    done = ROWS * NARROW
    np.testing.assert_array_equal(grouped[:, :done], source.reshape(4, N)[:, :done] * 2)
    messages = [r.getMessage() for r in caplog.records]
    assert any(f"batched over {ROWS} iterations" in m for m in messages), messages
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


@__simd_vf__
def shifted_tail(y: UbPtr[float32_t], x: UbPtr[float32_t], count: int) -> None:
    """y[8:8 + count] = 2 x[8:8 + count], a register at a time: the last one ends past x and y."""
    a, b = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    left = Ref(count)
    for i in range((count + 63) // 64):
        mask = Reg.UpdateMask[float32_t](left)
        Reg.LoadAlign(a, x + 8 + i * 64)  # the last register reads past x's end (lanes off)
        Reg.Muls(b, a, np.float32(2.0), mask)
        Reg.StoreAlign(y + 8 + i * 64, b, mask)  # ... and ends past y's, its lanes there off


def test_registers_past_their_buffers_end_run_for_the_whole_group(
    without_groups: Any, group_log: pytest.LogCaptureFixture
) -> None:
    """A load past the allocation gives every block its own lanes (undefined where past); a
    masked store whose register ends past the buffer writes every block's own enabled lanes."""

    past_ends = one_vf_kernel(shifted_tail, N - 8, skip=8)
    source = np.random.default_rng(9).standard_normal(4 * N).astype(np.float32)
    grouped = _run_one_vf(past_ends, 4, source)  # (the VF's group run is checked: no defect)
    np.testing.assert_array_equal(
        grouped, without_groups(lambda: _run_one_vf(past_ends, 4, source))
    )
    np.testing.assert_array_equal(grouped[:, 8:], source.reshape(4, N)[:, 8:] * 2)
    assert _grouped(group_log, "shifted_tail") == []  # not block by block
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


@__simd_vf__
def row_folds(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
    """Row i of x (3 rows of 64 floats): its eight 8-float sums streamed to y[i * 8 ...].

    (Three rows: the registers of a fourth would run past x into y, which the rows store.)
    """
    a, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    eight = Reg.CreateMask[float32_t, Reg.MaskPattern.VL8]()
    u, dst = Reg.UnalignRegForStore(), Ref(y)
    for i in range(3):
        dst.value = y + i * 8
        for j in range(8):
            Reg.LoadAlign(a, x + i * 64 + j * 8)
            Reg.Reduce[ReduceType.SUM](total, a, eight)
            Reg.StoreUnAlign(dst, total, u, 1)
        Reg.StoreUnAlignPost(dst, u, 0)


def test_a_stream_per_row_runs_for_the_whole_group(
    without_groups: Any, group_log: pytest.LogCaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    """Each row's own unaligned stream (its address set in the loop), every block's at once."""
    folds = one_vf_kernel(row_folds, out=24)
    source = np.random.default_rng(10).integers(-8, 8, 4 * N).astype(np.float32)
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        grouped = _run_one_vf(folds, 4, source)
    np.testing.assert_array_equal(grouped, without_groups(lambda: _run_one_vf(folds, 4, source)))
    sums = source.reshape(4, 32, 8)[:, :24].sum(axis=-1)  # (exact: small integers)
    np.testing.assert_array_equal(grouped[:, :24], sums)
    messages = [r.getMessage() for r in caplog.records]
    assert any("row_folds line" in m and "batched over 3 iterations" in m for m in messages)
    per_block = [r for r in group_log.records if r.name == "ascreg.groups" and "row_folds" in r.getMessage()]  # fmt: skip
    assert per_block == []  # not block by block
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


@__simd_vf__
def folds_into_the_same_buffer(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
    """Rows of 40 floats at x, each one's five 8-float sums streamed to x[192 + 8 i ...].

    The last row's registers run into the sums rows 0-2 stored, in the same buffer (lanes
    masked off): the loop batches rows 0-2, then row 3 as a part of its own, whose loads race
    with those stores as eager order's do (their lanes undefined). The sums then go to y.
    """
    a, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    eight = Reg.CreateMask[float32_t, Reg.MaskPattern.VL8]()
    u, dst = Reg.UnalignRegForStore(), Ref(x)
    for i in range(4):
        dst.value = x + 192 + i * 8
        for j in range(5):
            Reg.LoadAlign(a, x + i * 40 + j * 8)
            Reg.Reduce[ReduceType.SUM](total, a, eight)
            Reg.StoreUnAlign(dst, total, u, 1)
        Reg.StoreUnAlignPost(dst, u, 0)
    Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    for k in range(1):  # (a loop: a group runs only loops' accesses for all its blocks)
        Reg.LoadAlign(a, x + 192 + k)
        Reg.StoreAlign(y + k, a, Reg.CreateMask[float32_t, Reg.MaskPattern.VL32]())


def _one_group_run(
    vf: Any, out: int, seed: int, logs: tuple[Any, ...]
) -> tuple[Any, Any, list[str]]:
    """Run a four-block :func:`one_vf_kernel` of *vf* grouped, then one block at a time.

    Asserts the same output and that the VF ran once for the group (never block by block);
    returns the source rows, the output and the VF's loops' batch log.
    """
    without_groups, group_log, caplog = logs
    kernel = one_vf_kernel(vf, out=out)
    source = np.random.default_rng(seed).integers(-8, 8, 4 * N).astype(np.float32)
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        grouped = _run_one_vf(kernel, 4, source)
    np.testing.assert_array_equal(grouped, without_groups(lambda: _run_one_vf(kernel, 4, source)))
    name = vf.__name__
    per_block = [r for r in group_log.records if r.name == "ascreg.groups" and name in r.getMessage()]  # fmt: skip
    assert per_block == []  # not block by block
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")
    messages = [r.getMessage() for r in caplog.records if f"{name} line" in r.getMessage()]
    return source.reshape(4, N), grouped, messages


def test_a_split_loop_runs_its_rest_as_a_part_for_the_whole_group(
    without_groups: Any, group_log: pytest.LogCaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    """The rows after the split run batched for every block at once, not block by block."""
    logs = (without_groups, group_log, caplog)
    rows, grouped, messages = _one_group_run(folds_into_the_same_buffer, 32, 11, logs)
    want = rows[:, 192:224].copy()  # (the gaps between each row's sums keep x's bytes)
    want.reshape(4, 4, 8)[..., :5] = rows[:, :160].reshape(4, 4, 5, 8).sum(axis=-1)
    np.testing.assert_array_equal(grouped[:, :32], want)  # (exact: small integers)
    assert any("tried again up to iteration 3" in m for m in messages), messages
    assert any("batched over 1 iterations" in m for m in messages), messages


@__simd_vf__
def sums_after_rows(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
    """Twelve 8-float rows at x, each one's sum stored at x[96 + i] (rms_norm's last reduce).

    From row 5 on, a row's register runs into the sums the rows before it stored (lanes
    masked off): rows 0-4 batch, then each later row as a part of its own (a part of one
    iteration: a group's blocks are rows enough), whose loads race with those stores.
    """
    a, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    eight = Reg.CreateMask[float32_t, Reg.MaskPattern.VL8]()
    one = Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
    for i in range(12):
        Reg.LoadAlign(a, x + i * 8)
        Reg.Reduce[ReduceType.SUM](total, a, eight)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](x + 96 + i, total, one)
    Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    for k in range(1):  # (a loop: a group runs only loops' accesses for all its blocks)
        Reg.LoadAlign(a, x + 96 + k)
        Reg.StoreAlign(y + k, a, Reg.CreateMask[float32_t, Reg.MaskPattern.VL16]())


def test_parts_of_one_iteration_run_for_the_whole_group(
    without_groups: Any, group_log: pytest.LogCaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    """Every row from the first reader on splits off: still one run for the group."""
    logs = (without_groups, group_log, caplog)
    rows, grouped, messages = _one_group_run(sums_after_rows, 16, 12, logs)
    want = rows[:, 96:112].copy()  # (lanes past the twelve sums keep x's bytes)
    want[:, :12] = rows[:, :96].reshape(4, 12, 8).sum(axis=-1)  # (exact: small integers)
    np.testing.assert_array_equal(grouped[:, :16], want)
    assert any("tried again up to iteration 5" in m for m in messages), messages
    assert any("tried again up to iteration 1" in m for m in messages), messages


SEEN: list[int] = []


@__global__
@__vector__
def noting(x: GmPtr[float32_t]) -> None:
    SEEN.append(int(GetBlockIdx()))  # a host side effect: once per block, in order


@__global__
@__vector__
def printing(x: GmPtr[float32_t]) -> None:
    local = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    gm = GlobalTensor[float32_t]()
    gm.SetGlobalBuffer(x + GetBlockIdx() * 64)
    DataCopy(local, gm, 64)
    PipeBarrier[PIPE_ALL]()
    print("block", GetBlockIdx())


def test_host_effects_and_output_stay_one_per_block(capsys: pytest.CaptureFixture[str]) -> None:
    x = GlobalMemory().alloc(float32_t, 4 * 64)
    SEEN.clear()
    noting[4, 0, None](x)
    assert SEEN == [0, 1, 2, 3]
    line = noting.func.__code__.co_firstlineno + 3  # (the decorators, then the def)
    assert groups.why_not_grouped(noting.func) == (
        f"noting (line {line}): calls SEEN.append, a method of a host object ('SEEN')"
    )
    printing[4, 0, None](x)
    assert capsys.readouterr().out == "".join(f"block {k}\n" for k in range(4))


def test_a_group_that_writes_other_bytes_than_its_blocks_turns_groups_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @__global__
    @__vector__
    def checked(x: GmPtr[float32_t], y: GmPtr[float32_t], n: int, scale: float) -> None:
        tile_kernel.func(x, y, n, scale)

    real = group_state.Group._move

    def wrong(self: Any, *args: Any) -> None:  # a defect: every block moves block 0's bytes
        real(self, *args)
        self.ub.rows[1:] = self.ub.rows[:1]

    monkeypatch.setattr(group_state.Group, "_move", wrong)
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 4 * N), gm.alloc(float32_t, 4 * N)
    x.write(np.arange(4 * N))
    with pytest.warns(RuntimeWarning, match="an ascreg defect"):
        checked[4, 0, None](x, y, N, 1.0)
    assert y.read(4 * N)[N] == np.float32(N + 1)  # the blocks' own result stays
    assert groups._CHECKED[checked.func.__code__] is False


def test_the_first_launch_check_runs_the_first_and_last_block_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @__global__
    @__vector__
    def sampled(x: GmPtr[float32_t], y: GmPtr[float32_t], n: int, scale: float) -> None:
        tile_kernel.func(x, y, n, scale)

    alone: list[int] = []
    real = BlockRunner.run_block

    def counted(self: Any, index: int) -> None:
        alone.append(index)
        real(self, index)

    monkeypatch.setattr(BlockRunner, "run_block", counted)
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 8 * N), gm.alloc(float32_t, 8 * N)
    x.write(np.arange(8 * N))
    sampled[8, 0, None](x, y, N, 2.0)
    # the group is blocks 0-6 (the tail block 7 takes another branch: it runs alone after it);
    # its check ran 0 and 6 alone, and blocks 1-5 keep the group's bytes
    assert alone == [0, 6, 7]
    assert groups._CHECKED[sampled.func.__code__] is True
    expected = np.arange(8 * N, dtype=np.float32) * 2 + 1
    expected[-8:] = 0  # the tail block's last 8 floats are not written
    np.testing.assert_array_equal(y.read(8 * N), expected)


def test_block_lanes_keep_per_block_values_and_refuse_to_be_one() -> None:
    lanes = BlockLanes(np.arange(4, dtype=np.int64))
    assert ((lanes * 3 + 1) // 2).values.tolist() == [0, 2, 3, 5]
    assert (7 - lanes).values.tolist() == [7, 6, 5, 4]
    assert int(lanes * 0 + 5) == 5 and not bool(lanes < 0)
    assert bool(lanes + 1)  # different values, one truth value: `if size:` of per-block sizes
    with pytest.raises(Divergent) as divergent:
        bool(lanes == 3)
    assert divergent.value.agree.tolist() == [True, True, True, False]
    with pytest.raises(Divergent):
        range(lanes)  # type: ignore[call-overload]
    ptr = GlobalMemory().alloc(float32_t, 64) + lanes * 4
    assert isinstance(ptr, BlockGmPtr) and (ptr + 1).addresses.tolist() == [4, 20, 36, 52]
    with pytest.raises(GroupRefused):
        ptr.address  # noqa: B018 (the access is the test)


@__simd_vf__
def running_max(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    """dst[0:64] = the lane-wise maximum over the 64-float rows (a carried register)."""
    x, m = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    Reg.Duplicate(m, np.float32(-np.inf), full)
    for i in range(count // 64):
        Reg.LoadAlign(x, src + i * 64)
        Reg.Max(m, m, x, full)
    Reg.StoreAlign(dst, m, full)


def test_a_vf_runs_once_for_a_group_and_is_checked_against_its_blocks(
    group_log: pytest.LogCaptureFixture,
) -> None:
    code = affine.__wrapped__.__code__  # type: ignore[attr-defined]
    x = np.random.default_rng(5).uniform(-4, 4, 6 * N).astype(np.float32)
    for _ in range(3):
        _run_tile(6, N, x)
    assert group_state._VF_CHECKS[code] == group_state._VF_CHECK_RUNS  # checked, then trusted
    assert not any("affine" in m for m in _grouped(group_log, "affine"))


@__simd_vf__
def minus_max(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    """dst = src - (the lane-wise maximum over its 64-float rows): a carried register, then
    read by a second loop."""
    x, m = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    Reg.Duplicate(m, np.float32(-np.inf), full)
    for i in range(count // 64):
        Reg.LoadAlign(x, src + i * 64)
        Reg.Max(m, m, x, full)
    for i in range(count // 64):
        Reg.LoadAlign(x, src + i * 64)
        Reg.Sub(x, x, m, full)
        Reg.StoreAlign(dst + i * 64, x, full)


@pytest.mark.parametrize("vf", [running_max, minus_max])
def test_a_vf_with_a_carried_register_gives_its_blocks_results(
    vf: Any,
    group_log: pytest.LogCaptureFixture,
    without_groups: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel = one_vf_kernel(vf, N, out=64 if vf is running_max else N)
    source = np.random.default_rng(2).standard_normal(4 * N).astype(np.float32)
    chained: list[tuple[int, ...]] = []  # the accumulator chains run, by their steps' shape
    chain = chains.chain

    def counted(op: Any, initial: Any, steps: Any) -> Any:
        result = chain(op, initial, steps)
        chained.append(steps.shape if result is not None else ())
        return result

    monkeypatch.setattr(chains, "chain", counted)

    def run() -> np.ndarray[Any, Any]:
        return _run_one_vf(kernel, 4, source)

    grouped = run()
    if vf is minus_max:  # the group's Max chain: every block's rows at once (blocks first)
        assert (4, N // 64, 64) in chained
    np.testing.assert_array_equal(grouped, without_groups(run))
    rows = source.reshape(4, -1, 64)
    if vf is running_max:  # its store after the loop: the VF runs block by block
        np.testing.assert_array_equal(grouped[:, :64], rows.max(axis=1))
        assert any("block by block" in m for m in _grouped(group_log, "running_max"))
    else:  # the whole VF runs once for the group, checked against its blocks
        np.testing.assert_array_equal(grouped, (rows - rows.max(axis=1)[:, None]).reshape(4, N))
        assert group_state._VF_CHECKS[vf.__wrapped__.__code__] >= 1
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


def test_a_vf_whose_group_run_differs_from_its_blocks_runs_block_by_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @__simd_vf__
    def copy_rows(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
        x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
        for i in range(count // 64):
            Reg.LoadAlign(x, src + i * 64)
            Reg.StoreAlign(dst + i * 64, x, full)

    real = RowPointer._block_rows

    def first_block_only(self: Any, data: Any, *args: Any) -> Any:  # a defect
        rows, fresh = real(self, data, *args)
        if rows.base is not None and rows.flags.writeable:
            return rows, fresh
        return rows[:1].repeat(rows.shape[0], axis=0), True

    monkeypatch.setattr(RowPointer, "_block_rows", first_block_only)
    source = np.arange(4 * N, dtype=np.float32)
    with pytest.warns(RuntimeWarning, match="an ascreg defect"):
        result = _run_one_vf(one_vf_kernel(copy_rows, N), 4, source)
    np.testing.assert_array_equal(result.reshape(-1), source)  # the blocks' own result
    assert group_state._VF_CHECKS[copy_rows.__wrapped__.__code__] == -1  # type: ignore[attr-defined]


@__simd_vf__
def bump_then_spread(dst: UbPtr[float32_t], src: UbPtr[float32_t], spread: int) -> None:
    """src += 1 in place (not idempotent) and dst = src; then twice src's first three registers
    into dst; with *spread* 1 at registers 0, 1 and 3, unevenly spaced rows a group refuses."""
    x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    for i in range(N // 64):
        Reg.LoadAlign(x, src + i * 64)
        Reg.Adds(x, x, 1.0, full)
        Reg.StoreAlign(src + i * 64, x, full)
        Reg.StoreAlign(dst + i * 64, x, full)
    Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    for i in range(3):
        Reg.LoadAlign(x, src + i * 64)
        Reg.Muls(x, x, 2.0, full)
        Reg.StoreAlign(dst + (i + spread * (i * (i - 1) // 2)) * 64, x, full)


def test_a_vf_refused_after_its_checked_runs_is_undone_before_its_blocks_run(
    without_groups: Any,
) -> None:
    source = np.arange(4 * N, dtype=np.float32)
    for spread in (0, 0, 0, 1):  # two checked group runs, one trusted, then a refusal
        kernel = one_vf_kernel(bump_then_spread, spread)
        grouped = _run_one_vf(kernel, 4, source)
        alone = without_groups(lambda: _run_one_vf(kernel, 4, source))  # noqa: B023
        np.testing.assert_array_equal(grouped, alone)
    code = bump_then_spread.__wrapped__.__code__  # type: ignore[attr-defined]
    assert group_state._VF_CHECKS[code] == group_state._VF_CHECK_RUNS
    want = (source + 1).reshape(4, N)
    want[:, 192:], want[:, :128] = 2 * want[:, 128:192], 2 * want[:, :128]
    np.testing.assert_array_equal(grouped, want)


@__simd_vf__
def scale_rows(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, cols: int) -> None:
    """Row r of dst = row r of src times (r + 1): nested loops (rows x 64-float chunks)."""
    x, factor = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    for r in range(rows):
        Reg.Duplicate(factor, np.float32(1.0), full)
        Reg.Adds(factor, factor, np.float32(r), full)
        for j in range(cols // 64):
            Reg.LoadAlign(x, src + r * cols + j * 64)
            Reg.Mul(x, x, factor, full)
            Reg.StoreAlign(dst + r * cols + j * 64, x, full)


@pytest.mark.parametrize("rows", [1, 2, 4])
def test_nested_and_one_iteration_loops_run_once_for_a_group(
    rows: int, group_log: pytest.LogCaptureFixture, without_groups: Any
) -> None:
    x = np.random.default_rng(rows).uniform(-2, 2, 5 * N).astype(np.float32)
    kernel = one_vf_kernel(scale_rows, rows, N // rows)

    def run() -> np.ndarray[Any, Any]:
        return _run_one_vf(kernel, 5, x)

    grouped = run()
    np.testing.assert_array_equal(grouped, without_groups(run))
    factors = np.repeat(np.arange(1, rows + 1, dtype=np.float32), N // rows)
    np.testing.assert_array_equal(grouped.reshape(5, N), x.reshape(5, N) * factors)
    assert not any("block by block" in m for m in _grouped(group_log, "scale_rows"))


def test_a_kernel_writing_into_its_argument_runs_one_block_at_a_time() -> None:
    class Counter:
        seen = 0

    @__global__
    @__vector__
    def counting(x: GmPtr[float32_t], counter: Any) -> None:
        counter.seen = counter.seen + 1  # the caller's object: every block's

    counter = Counter()
    counting[4, 0, None](GlobalMemory().alloc(float32_t, 64), counter)
    assert counter.seen == 4
    assert "writes into counter.seen" in (groups.why_not_grouped(counting.func) or "")


@__simd_vf__
def carried_offset(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    """Copy *count* floats; the offset is a Python value carried between iterations (eager)."""
    x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    offset = 0
    for _ in range(count // 64):
        Reg.LoadAlign(x, src + offset)
        Reg.StoreAlign(dst + offset, x, full)
        offset = offset + 64


def test_a_loop_that_runs_eagerly_in_a_group_is_still_said_once(
    group_log: pytest.LogCaptureFixture,
) -> None:
    source = np.arange(4 * N, dtype=np.float32)
    kernel = one_vf_kernel(carried_offset, N)
    with pytest.warns(EagerLoopWarning, match="carried_offset") as said:
        result = _run_one_vf(kernel, 4, source)
    assert len([w for w in said if issubclass(w.category, EagerLoopWarning)]) == 1
    np.testing.assert_array_equal(result.reshape(-1), source)
    assert "kernel: blocks 0-3 ran as one group" in _grouped(group_log, "kernel")


@__global__
@__vector__
def zero_stride(x: GmPtr[float32_t]) -> None:
    local = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    burst = Burst(n_burst=2, len_burst=32, src_stride=0, dst_stride=32)  # refused: stride 0
    gm_to_ub(local.GetPhyAddr(), x + GetBlockIdx() * 16, burst, "gm_to_ub")


def test_a_copy_form_the_hardware_refuses_is_refused_in_a_group_too(without_groups: Any) -> None:
    def run() -> str:
        with pytest.raises(AscregError) as error:
            zero_stride[4, 0, None](GlobalMemory().alloc(float32_t, 4 * 16))
        return re.sub(r"launch \d+", "launch N", str(error.value))

    alone = without_groups(run)
    groups._CHECKED[zero_stride.func.__code__] = True  # past the first-group check: a group alone
    assert run() == alone
    assert "a stride of 0 is only allowed when n_burst is 1" in alone


def _shares_bytes(spans: list[tuple[Any, Any, bool]], count: int) -> bool:
    """The rule of ``_no_sharing`` byte by byte: some block reads a byte another writes."""
    writers: dict[int, set[int]] = {}
    for starts, ends, write in spans:
        for k in range(count) if write else ():
            for byte in range(int(starts[k]), int(ends[k])):
                writers.setdefault(byte, set()).add(k)
    return any(
        writers.get(byte, set()) - {k}
        for starts, ends, write in spans
        if not write
        for k in range(count)
        for byte in range(int(starts[k]), int(ends[k]))
    )


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.integers(1, 4).flatmap(
        lambda count: st.tuples(
            st.just(count),
            st.lists(
                st.tuples(
                    st.lists(
                        st.tuples(st.integers(0, 40), st.integers(0, 8)),
                        min_size=count,
                        max_size=count,
                    ),
                    st.booleans(),
                ),
                min_size=1,
                max_size=5,
            ),
        )
    )
)
def test_the_cross_block_sharing_check_is_the_byte_rule(case: Any) -> None:
    count, accesses = case
    spans = [
        (np.array([s for s, _ in blocks]), np.array([s + n for s, n in blocks]), write)
        for blocks, write in accesses
    ]
    try:
        group_state._no_sharing(spans, count)
        refused = False
    except GroupRefused:
        refused = True
    assert refused == _shares_bytes(spans, count)


@__global__
@__vector__
def read_back(x: GmPtr[float32_t], y: GmPtr[float32_t], barrier: bool) -> None:
    """Each block copies its floats to y and reads them back, with or without a barrier."""
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * 64)
    yGm.SetGlobalBuffer(y + GetBlockIdx() * 128)  # another offset per block than x's
    allocator = LocalMemAllocator[Hardware.UB]()
    first, second = allocator.Alloc[float32_t, 64](), allocator.Alloc[float32_t, 64]()
    DataCopy(first, xGm, 64)
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, first, 64)
    if barrier:
        PipeBarrier[PIPE_ALL]()
    DataCopy(second, yGm, 64)  # MTE2 reads what MTE3 writes: a hazard without the barrier
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm[64], second, 64)


def test_a_gm_hazard_inside_each_block_is_the_error_of_one_at_a_time(
    group_log: pytest.LogCaptureFixture, without_groups: Any
) -> None:
    def run(barrier: bool) -> Any:
        gm = GlobalMemory()
        x, y = gm.alloc(float32_t, 4 * 64), gm.alloc(float32_t, 4 * 128)
        x.write(np.arange(4 * 64))
        if barrier:
            read_back[4, 0, None](x, y, True)
            return y.read(4 * 128)
        with pytest.raises(SyncError) as error:
            read_back[4, 0, None](x, y, False)
        return re.sub(r"launch \d+", "launch N", str(error.value))

    np.testing.assert_array_equal(
        run(True), np.repeat(np.arange(256).reshape(4, 1, 64), 2, 1).reshape(-1)
    )
    assert "read_back: blocks 0-3 ran as one group" in _grouped(group_log, "read_back")
    assert run(False) == without_groups(lambda: run(False))


@__global__
@__vector__
def with_header(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """Each block adds the shared first 8 floats of x to its own 64 (one buffer, two offsets)."""
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x)
    yGm.SetGlobalBuffer(y + GetBlockIdx() * 64)
    allocator = LocalMemAllocator[Hardware.UB]()
    head, own = allocator.Alloc[float32_t, 64](), allocator.Alloc[float32_t, 64]()
    DataCopy(head, xGm, 8)
    DataCopy(own, xGm[8 + GetBlockIdx() * 64], 64)
    PipeBarrier[PIPE_ALL]()
    asc_vf_call[affine](own.GetPhyAddr(), own.GetPhyAddr(), 64, 2.0)
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, own, 64)


def test_a_buffer_reached_at_several_offsets_per_block_still_runs_as_a_group(
    group_log: pytest.LogCaptureFixture, without_groups: Any
) -> None:
    def run() -> Any:
        gm = GlobalMemory()
        x, y = gm.alloc(float32_t, 8 + 4 * 64), gm.alloc(float32_t, 4 * 64)
        x.write(np.arange(8 + 4 * 64))
        with_header[4, 0, None](x, y)
        return y.read(4 * 64)

    grouped = run()
    np.testing.assert_array_equal(grouped, without_groups(run))
    np.testing.assert_array_equal(grouped, np.arange(8, 8 + 256) * np.float32(2) + 1)
    assert "with_header: blocks 0-3 ran as one group" in _grouped(group_log, "with_header")


class _Moves:
    """What ``Group._move`` needs of a group: the rows, a journal that saves nothing."""

    def __init__(self, rows: np.ndarray[Any, Any]) -> None:
        self.ub = type("Rows", (), {"rows": rows})()

    def _journal(self, *_: Any) -> None:
        pass

    _journal_views = _journal
    _move_bursts = group_state.Group._move_bursts


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    count=st.integers(1, 4),
    n=st.integers(1, 4),
    length=st.integers(1, 12),
    steps=st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 90)),
    into_ub=st.booleans(),
)
def test_a_groups_copy_moves_the_bytes_of_its_bursts_in_order(
    count: int, n: int, length: int, steps: tuple[int, int, int], into_ub: bool
) -> None:
    ub_step, gm_step, block_step = steps
    rng = np.random.default_rng(count * 1000 + n * 100 + length)
    ub_starts = 4 + np.arange(n) * ub_step
    gm_starts = 2 + np.arange(count)[:, None] * block_step + np.arange(n) * gm_step
    rows = rng.integers(0, 256, (count, 4 + n * max(ub_step, length) + length), np.uint8)
    data = rng.integers(0, 256, 2 + count * block_step + n * gm_step + length, np.uint8)
    memory = type("Gm", (), {"data": data})()
    bursts = (rows.copy(), data.copy())
    step = block_step if count > 1 else 0  # the blocks' step, as their layout gives it
    group_state.Group._move(_Moves(rows), ub_starts, gm_starts, length, memory, into_ub, step)  # type: ignore[arg-type]
    memory.data = bursts[1]
    _Moves(bursts[0])._move_bursts(ub_starts, gm_starts, length, memory, into_ub)  # type: ignore[arg-type]
    np.testing.assert_array_equal(rows, bursts[0])
    np.testing.assert_array_equal(data, bursts[1])


@__global__
@__vector__
def bump_then_read_past(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """y[2k*64 : 2k*64 + 64] += 1 in place, then read x past its end (the last block fails)."""
    yGm, xGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    yGm.SetGlobalBuffer(y + GetBlockIdx() * 128)  # every other 64 floats: spans with gaps
    xGm.SetGlobalBuffer(x + GetBlockIdx() * 64)
    allocator = LocalMemAllocator[Hardware.UB]()
    local, other = allocator.Alloc[float32_t, 64](), allocator.Alloc[float32_t, 64]()
    DataCopy(local, yGm, 64)
    PipeBarrier[PIPE_ALL]()
    asc_vf_call[affine](local.GetPhyAddr(), local.GetPhyAddr(), 64, 1.0)
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, local, 64)
    PipeBarrier[PIPE_ALL]()
    DataCopy(other, xGm[64], 64)  # block 3 reads past x


def test_a_stopped_group_puts_back_the_bytes_its_copies_wrote(without_groups: Any) -> None:
    def run() -> Any:
        gm = GlobalMemory()
        x, y = gm.alloc(float32_t, 4 * 64), gm.alloc(float32_t, 8 * 64)
        y.write(np.arange(8 * 64))
        with pytest.raises(OutOfBoundsError):
            bump_then_read_past[4, 0, None](x, y)
        return y.read(8 * 64)

    got = run()
    np.testing.assert_array_equal(got, without_groups(run))
    expected = np.arange(8 * 64, dtype=np.float32).reshape(4, 2, 64)
    expected[:, 0] += 1  # each block bumped its own 64 floats once, block 3 too before failing
    np.testing.assert_array_equal(got, expected.reshape(-1))


@__simd_vf__
def row_maxima(y: UbPtr[float32_t], x: UbPtr[float32_t]) -> None:
    """Two 128-float rows of x: a register carried through an inner loop (softmax's row max).

    The inner loop's ``Max`` runs on 64 then 32 lanes (an ``UpdateMask`` count), zeroing the
    others (masked-off lanes of a ZEROING op are 0): each row's result is
    ``max(x[:32].max(), x[64:96].max(), 0)``, stored in lane 0 of 64.
    """
    acc, v, out = (Reg.RegTensor[float32_t]() for _ in range(3))
    full = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    for k in range(2):
        Reg.Duplicate(acc, np.float32(-np.inf), full)
        count = Ref(uint32_t(96))
        for i in range(2):
            mask = Reg.UpdateMask[float32_t](count)
            Reg.LoadAlign(v, x + k * 128 + i * 64)
            Reg.Max(acc, acc, v, mask)
        Reg.Reduce[ReduceType.MAX](out, acc, full)
        Reg.StoreAlign(y + k * 64, out, full)


def test_a_register_carried_through_a_flattened_inner_loop_in_a_group(
    without_groups: Any, group_log: pytest.LogCaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    """The inner loop runs flattened for all blocks: its carried ``Max`` runs in order on
    the group's rows (blocks first), not back in order after a failed attempt."""
    logs = (without_groups, group_log, caplog)
    rows, grouped, messages = _one_group_run(row_maxima, 128, 5, logs)
    halves = rows.reshape(4, 2, 128)
    want = np.maximum(np.maximum(halves[..., :32].max(-1), halves[..., 64:96].max(-1)), 0)
    np.testing.assert_array_equal(grouped[:, [0, 64]], want)
    assert not any("cannot run flattened" in m for m in messages), messages

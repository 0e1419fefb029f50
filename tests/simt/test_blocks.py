"""Blocks of a pure SIMT launch run side by side (ascreg.engine.simt.blocks), exactly as in turn.

Every kernel runs three ways: batched (the default), block by block (``BATCHING`` off) and one
thread at a time; memory and the first error must agree. Where the batch should be kept, the
test also checks that it was (and where it must stop, that it did, and why).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, float32_t, int32_t, uint32_t
from ascreg.c_api import __ubuf__
from ascreg.engine.simt import batch, blocks
from ascreg.errors import AscregError
from ascreg.machine.simt.engine import divergence
from ascreg.machine.simt.lanes import WeakLanes
from ascreg.simt import (
    asc_atomic_add,
    asc_reduce_add,
    asc_shfl_xor,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    laneid,
    run_simt_kernel,
    threadIdx,
)


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str | None]]:
    """The outcome of every batch tried (None: kept, else why it stopped)."""
    seen: list[str | None] = []
    run = blocks._run_batch

    def counted(*args: Any) -> str | None:
        why = run(*args)
        seen.append(why)
        return why

    monkeypatch.setattr(blocks, "_run_batch", counted)
    monkeypatch.setattr(blocks, "_REFUSED", {})
    yield seen


def outcome(kernel: Any, grid: int, threads: int, inputs: list[np.ndarray]) -> Any:
    """Run *kernel* on fresh GM copies of *inputs*; return them read back, or the error."""
    gm = GlobalMemory()
    pointers = []
    for values in inputs:
        p = gm.alloc({np.int32: int32_t, np.uint32: uint32_t, np.float32: float32_t}[
            values.dtype.type], values.size)  # fmt: skip
        p.write(values)
        pointers.append(p)
    try:
        run_simt_kernel(kernel, dim3(grid), dim3(threads), 0, tuple(pointers))
    except AscregError as exc:
        return type(exc).__name__, str(exc)
    return [p.read(v.size).tolist() for p, v in zip(pointers, inputs, strict=True)]


def three_ways(
    kernel: Any, grid: int, threads: int, *inputs: np.ndarray, per_thread: bool = True
) -> Any:
    """The outcome batched and block by block (asserted equal), and per thread.

    The per-thread tier names an error by its one thread (the vectorised tiers by the lanes
    that meet it): its errors are compared by type. Without *per_thread* the kernel depends
    on the order of its threads' atomics, which differs in that tier (see ascreg.simt).
    """
    batched = outcome(kernel, grid, threads, list(inputs))
    batch.BATCHING[0] = False
    try:
        alone = outcome(kernel, grid, threads, list(inputs))
    finally:
        batch.BATCHING[0] = True
    assert batched == alone
    if per_thread:
        with divergence("per-thread"):
            reference = outcome(kernel, grid, threads, list(inputs))
        if isinstance(batched, tuple):
            assert reference[0] == batched[0]
        else:
            assert reference == batched
    return batched


def histogram(out: Any, words: Any) -> None:
    bins = __ubuf__(uint32_t, 8)
    if threadIdx.x < 8:
        bins[threadIdx.x] = 0
    asc_syncthreads()
    i = blockIdx.x * blockDim.x + threadIdx.x
    while i < 200:  # a grid-stride loop: different trip counts per thread
        asc_atomic_add(bins + words[i] % 8, uint32_t(1))
        i += blockDim.x * gridDim.x
    asc_syncthreads()
    if threadIdx.x < 8:
        out[blockIdx.x * 8 + threadIdx.x] = bins[threadIdx.x]


def test_a_ub_histogram_runs_as_one_batch(batches: list[str | None]) -> None:
    words = np.random.default_rng(1).integers(0, 1000, 200).astype(np.uint32)
    out = three_ways(histogram, 5, 24, np.zeros(40, np.uint32), words)
    assert batches[0] is None
    per_block = np.array(out[0]).reshape(5, 8)
    assert per_block.sum() == 200
    assert per_block.sum(axis=0).tolist() == np.bincount(words % 8, minlength=8).tolist()


@pytest.mark.parametrize(("grid", "spans"), [(5, [5]), (6, [6]), (7, [4, 3]), (9, [4, 5])])
def test_the_last_batch_takes_a_small_tail_of_blocks(
    monkeypatch: pytest.MonkeyPatch, grid: int, spans: list[int]
) -> None:
    # 4 blocks a batch; a tail of at most half a batch joins the last one
    monkeypatch.setattr(blocks, "BATCH_THREADS", 4 * 24)
    seen: list[int] = []
    run = blocks._run_batch

    def counted(*args: Any) -> str | None:
        seen.append(args[5][1])
        return run(*args)

    monkeypatch.setattr(blocks, "_run_batch", counted)
    words = np.random.default_rng(2).integers(0, 1000, 200).astype(np.uint32)
    out = three_ways(histogram, grid, 24, np.zeros(8 * grid, np.uint32), words)
    assert seen == spans
    assert np.array(out[0]).reshape(grid, 8).sum(axis=0).tolist() == (
        np.bincount(words % 8, minlength=8).tolist()
    )


def warp_sums(out: Any, x: Any) -> None:
    # 40 threads: each block's second warp is partial, as when the block runs alone
    v = x[blockIdx.x * blockDim.x + threadIdx.x]
    total = asc_reduce_add(v)
    down = asc_shfl_xor(v, 1)
    if laneid() == 0:
        out[blockIdx.x * 2 + threadIdx.x // 32] = total
    if threadIdx.x % 3 == 1:
        x[blockIdx.x * blockDim.x + threadIdx.x] = down


def test_warp_functions_see_each_blocks_own_warps(batches: list[str | None]) -> None:
    x = np.arange(160, dtype=np.int32) % 7
    out, _ = three_ways(warp_sums, 4, 40, np.zeros(8, np.int32), x)
    assert out == [int(x[b * 40 + w * 32 : b * 40 + min(w * 32 + 32, 40)].sum())
                   for b in range(4) for w in range(2)]  # fmt: skip
    assert batches == [None]


def block_index_arithmetic(out: Any) -> None:
    t = threadIdx.x
    before = blockIdx.x - 1  # a Python int per block: -1 for block 0, not a wrapped uint32
    if before < 0:
        out[t] = 100
    else:
        out[before * blockDim.x + t + blockDim.x] = before * t  # uint32 lanes, as alone


def test_block_index_behaves_as_a_python_int(batches: list[str | None]) -> None:
    (out,) = three_ways(block_index_arithmetic, 3, 8, np.zeros(24, np.uint32))
    assert out[:8] == [100] * 8 and out[8:16] == [0] * 8 and out[16:] == list(range(8))
    assert batches == [None]


def overflow_from_block_index(out: Any) -> None:
    out[threadIdx.x] = threadIdx.x + (blockIdx.x - 2)  # uint32 + (-2): OverflowError in block 0


def test_an_error_of_one_block_is_the_error_of_that_block(batches: list[str | None]) -> None:
    with pytest.raises(OverflowError, match="-2 out of bounds for uint32"):
        three_ways(overflow_from_block_index, 3, 4, np.zeros(4, np.uint32))
    assert batches[0] is not None and "OverflowError" in batches[0]


def out_of_bounds_in_the_last_block(out: Any) -> None:
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1


def test_an_access_error_is_raised_by_the_block_that_makes_it(batches: list[str | None]) -> None:
    error = three_ways(out_of_bounds_in_the_last_block, 3, 8, np.zeros(20, np.int32))
    assert error[0] == "OutOfBoundsError"


def last_block_sums(out: Any, partial: Any, ticket: Any) -> None:
    # the last-block pattern: every block leaves a partial sum; the block that draws the last
    # ticket reads the other blocks' partial sums (cross-block communication)
    is_last = __ubuf__(uint32_t, 1)
    if threadIdx.x == 0:
        partial[blockIdx.x] = blockIdx.x * 10 + 1
        got = asc_atomic_add(ticket, uint32_t(1))
        is_last[0] = got == gridDim.x - 1
    asc_syncthreads()
    if is_last[0] and threadIdx.x == 0:
        total = uint32_t(0)
        for b in range(gridDim.x):
            total += partial[b]
        out[0] = total


def test_blocks_that_read_each_others_writes_run_in_turn(batches: list[str | None]) -> None:
    out, _, _ = three_ways(
        last_block_sums, 4, 32, np.zeros(1, np.uint32), np.zeros(4, np.uint32),
        np.zeros(1, np.uint32),
    )  # fmt: skip
    assert out == [1 + 11 + 21 + 31]
    assert batches[0] == "two blocks of the batch share memory one of them writes"


def two_tickets(out: Any, ticket: Any) -> None:
    first = asc_atomic_add(ticket, uint32_t(1))
    second = asc_atomic_add(ticket, uint32_t(1))
    out[blockIdx.x * blockDim.x * 2 + threadIdx.x * 2] = first
    out[blockIdx.x * blockDim.x * 2 + threadIdx.x * 2 + 1] = second


def test_atomics_out_of_block_order_run_in_turn(batches: list[str | None]) -> None:
    out, ticket = three_ways(
        two_tickets, 3, 4, np.zeros(24, np.uint32), np.zeros(1, np.uint32), per_thread=False
    )
    assert ticket == [24] and out[:8] == [0, 4, 1, 5, 2, 6, 3, 7]  # block 0 took 0..7
    assert batches[0] == "atomics of two blocks meet an address out of block order"


def one_ticket_each(out: Any, ticket: Any) -> None:
    out[blockIdx.x * blockDim.x + threadIdx.x] = asc_atomic_add(ticket, uint32_t(2))


def test_atomics_in_block_order_stay_batched(batches: list[str | None]) -> None:
    out, ticket = three_ways(one_ticket_each, 3, 4, np.zeros(12, np.uint32), np.zeros(1, np.uint32))
    assert out == list(range(0, 24, 2)) and ticket == [24]
    assert batches == [None]


def neighbours_bytes(out: Any) -> None:
    # blocks of 3 threads write neighbouring int32 words: no sharing (units follow the data)
    out[blockIdx.x * 3 + threadIdx.x] = blockIdx.x


def test_neighbouring_writes_of_two_blocks_are_not_shared(batches: list[str | None]) -> None:
    (out,) = three_ways(neighbours_bytes, 4, 3, np.zeros(12, np.int32))
    assert out == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert batches == [None]


def reads_unwritten_ub(out: Any) -> None:
    buf = __ubuf__(int32_t, 4)
    if blockIdx.x == 0:
        buf[threadIdx.x] = 5
    out[blockIdx.x * 4 + threadIdx.x] = buf[threadIdx.x]  # garbage in blocks 1 and 2


def test_a_read_of_unwritten_ub_is_the_error_of_that_block(batches: list[str | None]) -> None:
    error = three_ways(reads_unwritten_ub, 3, 4, np.zeros(12, np.int32))
    assert error[0] == "UninitializedMemoryError"
    assert batches[0] == "a read of UB bytes the block has not written"


def reads_written_then_unwritten_ub(out: Any) -> None:
    buf = __ubuf__(int32_t, 8)
    if threadIdx.x < 4 or blockIdx.x == 0:  # blocks 1 and 2 leave elements 4 .. 7 unwritten
        buf[threadIdx.x] = threadIdx.x
    asc_syncthreads()
    first = buf[threadIdx.x % 4]  # written in every block
    out[blockIdx.x * 8 + threadIdx.x] = first + buf[threadIdx.x]  # then the unwritten ones


def test_a_read_of_unwritten_ub_after_written_ones_is_still_found(
    batches: list[str | None],
) -> None:
    error = three_ways(reads_written_then_unwritten_ub, 3, 8, np.zeros(24, np.int32))
    assert error[0] == "UninitializedMemoryError"
    assert batches[0] == "a read of UB bytes the block has not written"


def writes_then_reads_all_ub(out: Any) -> None:
    buf = __ubuf__(int32_t, 8)
    buf[threadIdx.x] = threadIdx.x * 2 + blockIdx.x
    asc_syncthreads()
    for k in range(3):  # every block wrote the whole array: reads after it stay batched
        out[blockIdx.x * 8 + threadIdx.x] += buf[(threadIdx.x + k) % 8]


def test_reads_of_a_wholly_written_ub_array_stay_batched(batches: list[str | None]) -> None:
    (out,) = three_ways(writes_then_reads_all_ub, 3, 8, np.zeros(24, np.int32))
    want = [sum(((t + k) % 8) * 2 + b for k in range(3)) for b in range(3) for t in range(8)]
    assert out == want
    assert batches == [None]


def prints(out: Any) -> None:
    if threadIdx.x == 0:
        print("block", blockIdx.x)
    out[blockIdx.x] = 1


def test_output_comes_block_by_block(
    batches: list[str | None], capsys: pytest.CaptureFixture[str]
) -> None:
    three_ways(prints, 2, 2, np.zeros(2, np.int32))
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["block 0", "block 1"]
    assert batches[0] == "it prints (each block prints in turn)"


def test_a_refused_kernel_runs_its_next_launch_block_by_block(batches: list[str | None]) -> None:
    three_ways(two_tickets, 3, 4, np.zeros(24, np.uint32), np.zeros(1, np.uint32), per_thread=False)
    assert blocks.why_not_batched(two_tickets) is not None
    outcome(two_tickets, 3, 4, [np.zeros(24, np.uint32), np.zeros(1, np.uint32)])
    assert len(batches) == 1  # the second launch did not try


def test_weak_lanes_follow_numpy_rules_for_python_ints() -> None:
    weak = np.array([0, 1, 2]).view(WeakLanes)
    lanes = np.array([5, 6, 7], dtype=np.uint32)
    for op in [
        lambda a, b: a + b,
        lambda a, b: a * b - 1,
        lambda a, b: b // (a + 1),
        lambda a, b: a < b,
        lambda a, b: np.float32(1.5) * a + b,
    ]:
        got = op(weak, lanes)
        # each lane as a block alone computes it: a Python int with a one-lane array
        want = [op(a, lanes[i : i + 1]) for i, a in enumerate(range(3))]
        assert got.dtype == want[0].dtype
        assert got.tolist() == [w[0].item() for w in want]
    assert type(weak + 1) is WeakLanes and type(weak.astype(np.uint32)) is not WeakLanes
    with pytest.raises(OverflowError, match="-1 out of bounds for uint32"):
        lanes + (weak - 1)


def scatter_add(var: Any, rows: Any, updates: Any) -> None:
    # the ops-nn pattern: a grid-stride loop, an early `continue`, a float atomic add to GM
    for i in range(blockIdx.x * blockDim.x + threadIdx.x, 96, gridDim.x * blockDim.x):
        row = rows[i // 4]
        if row < 0:
            continue
        asc_atomic_add(var + row * 4 + i % 4, updates[i])


def test_dropped_gm_atomics_apply_in_block_order_when_the_batch_ends(
    batches: list[str | None],
) -> None:
    rng = np.random.default_rng(5)
    rows = rng.integers(-1, 3, 24).astype(np.int32)  # three rows, hit again and again
    updates = (rng.standard_normal(96) * 1e3).astype(np.float32)  # sums that round
    var, _, _ = three_ways(
        scatter_add, 3, 8, np.zeros(12, np.float32), rows, updates, per_thread=False
    )
    assert batches == [None]
    want = np.zeros(12, np.float32)
    for b in range(3):  # block by block, each thread's iterations in turn, lanes in order
        for start in range(b * 8, 96, 24):
            for i in range(start, start + 8):
                if rows[i // 4] >= 0:
                    want[rows[i // 4] * 4 + i % 4] += updates[i]
    assert np.array_equal(np.array(var, np.float32), want)


def add_then_read(out: Any, counter: Any) -> None:
    asc_atomic_add(counter, uint32_t(1))
    asc_syncthreads()
    out[blockIdx.x * blockDim.x + threadIdx.x] = counter[0]  # sees the other blocks' adds


def test_a_read_of_a_deferred_atomic_runs_in_turn(batches: list[str | None]) -> None:
    out, counter = three_ways(
        add_then_read, 3, 4, np.zeros(12, np.uint32), np.zeros(1, np.uint32), per_thread=False
    )
    assert counter == [12] and out == [4] * 4 + [8] * 4 + [12] * 4
    assert batches[0] == "two blocks of the batch share memory one of them writes"

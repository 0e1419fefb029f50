"""Divergent control flow runs vectorised, with the results and errors of the one-thread tier.

Every kernel here runs twice: in the default ``masked`` mode (divergent ``if``/``while``/``for``,
``return``/``break``/``continue`` under active masks) and in the ``per-thread`` reference tier;
the memory they leave, or the error they raise, must be identical. Where the masked run should
need no per-thread re-run, the test also checks that none happened. The example ports of
``tests/examples/simt`` run the same way at small sizes.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, UnifiedBuffer, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from ascreg.engine.simt.masked import masked_version
from ascreg.errors import AscregError, OutOfBoundsError, SlowPathWarning, SyncError
from ascreg.machine.simt import engine
from ascreg.machine.simt.engine import divergence
from ascreg.simt import (
    Simt,
    __simt_callee__,
    asc_atomic_add,
    asc_atomic_max,
    asc_ballot,
    asc_reduce_add,
    asc_shfl_xor,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    run_simt_kernel,
    run_simt_vf,
    threadIdx,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "simt"


@pytest.fixture
def per_thread_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Count the blocks that run one thread at a time."""
    runs: list[int] = []
    execute = engine.Scheduler.execute

    def counted(self: engine.Scheduler) -> None:
        if self.journal is None:  # not the path runner's (ascreg.machine.simt.engine.run_paths)
            runs.append(self.run.nthreads)
        execute(self)

    monkeypatch.setattr(engine.Scheduler, "execute", counted)
    yield runs


@pytest.fixture
def slow_paths(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], list[str]]]:
    """Return the SlowPathWarning messages so far (each kernel warns once per process)."""
    monkeypatch.setattr(engine, "_WARNED", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SlowPathWarning)
        yield lambda: [str(w.message) for w in caught if w.category is SlowPathWarning]


def outcome(run: Callable[[], Any]) -> Any:
    """What *run* leaves: its result as lists with dtypes, or its error's type and message."""
    try:
        result = run()
    except AscregError as exc:
        return type(exc).__name__, str(exc)
    arrays = result if isinstance(result, tuple) else (result,)
    return [(np.asarray(a).dtype.str, np.asarray(a).tolist()) for a in arrays]


def both_tiers(run: Callable[[], Any]) -> Any:
    """Run *run* masked and per thread; assert the same outcome; return it."""
    with divergence("masked"):
        masked = outcome(run)
    with divergence("per-thread"):
        reference = outcome(run)
    assert masked == reference
    return masked


def launch(kernel: Any, threads: int, *sizes: tuple[Any, int], blocks: int = 1) -> Any:
    """Run *kernel* on fresh zeroed GM buffers of *sizes* ``(dtype, count)``; return them read."""
    gm = GlobalMemory()
    buffers = [gm.alloc(dtype, count) for dtype, count in sizes]

    def go() -> tuple[np.ndarray, ...]:
        for b, (_, count) in zip(buffers, sizes, strict=True):
            b.write(np.zeros(count, dtype=b.dtype.np_dtype))
        run_simt_kernel(kernel, dim3(blocks), dim3(threads), 0, tuple(buffers))
        return tuple(b.read(count) for b, (_, count) in zip(buffers, sizes, strict=True))

    return go


# -- kernels ----------------------------------------------------------------------------------------


def nested_ifs(out: Any) -> None:
    t = int32_t(threadIdx.x)
    v = int32_t(0)
    if t < 20:
        if t % 2 == 0:
            v = t * 3
        else:
            if t % 3 == 0:
                v = -t
            elif t % 3 == 1:
                v = int32_t(100)
    else:
        v = int32_t(7)
    out[t] = v


def while_break_continue(out: Any) -> None:
    t = int32_t(threadIdx.x)
    i = t
    s = int32_t(0)
    while i < 40:
        i += 7
        if i % 5 == 0:
            continue
        if i > 30 and t > 3:
            break
        s += i
    else:
        s += 1000  # only the lanes that did not break
    out[t] = s


def early_return(out: Any, n: Any) -> None:
    t = int32_t(threadIdx.x)
    if t >= 11:
        return
    for j in range(5):
        if j == t % 4:
            out[t] = j
            return
    out[t] = -1


def lane_trip_counts(out: Any) -> None:
    t = int32_t(threadIdx.x)
    s = int32_t(0)
    for j in range(t % 5):
        s += j * 10
    for j in range(t, 40, 3):
        if j % 4 == 0:
            continue
        s += 1
    x = t + 1
    steps = int32_t(0)
    while x > 1:  # Collatz: a trip count per lane
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    out[t] = s * 1000 + steps


def atomics_under_masks(old: Any, counter: Any) -> None:
    t = int32_t(threadIdx.x)
    if t % 3 == 0:
        old[t] = asc_atomic_add(counter, uint32_t(1))
    elif t % 3 == 1:
        old[t] = asc_atomic_max(counter + 1 + t % 4, uint32_t(t))
    for j in range(t % 4):
        asc_atomic_add(counter + 8 + j, uint32_t(1))


def expressions(out: Any) -> None:
    t = int32_t(threadIdx.x)
    flag = (t > 3 and t < 10) or t == 15
    v = t if t % 2 == 0 else -t
    if not (2 < t <= 9):
        v = v * 100
    out[t] = v + (1000 if flag else 0)


def pointer_merge(out: Any) -> None:
    t = int32_t(threadIdx.x)
    q = out
    if t % 2 == 1:
        q = out + 32
    q[t] = t + 1


def warp_calls_in_branches(out: Any) -> None:
    t = int32_t(threadIdx.x)
    v = uint32_t(0)
    if t % 2 == 1:  # noqa: SIM108 - a branch on purpose
        v = asc_ballot(t % 4 == 1)
    else:
        v = uint32_t(asc_reduce_add(t))
    out[t] = v


def assorted_statements(out: Any) -> None:
    t = int32_t(threadIdx.x)
    local = [int32_t(0), int32_t(0)]  # a thread's small local array
    a, b = t, t * 2
    if t % 3 == 0:
        a, b = b, a  # tuple assignment under a mask
        local[1] = t  # a local array element under a mask
    k = int32_t(0)
    while True:
        k += 1
        if k * k > t:
            break
    for w in (1, 2, 3):
        if w > t % 4:
            break
        local[0] += w
    for i in range(t % 6):
        for j in range(3):
            if i + j > 4:
                out[t] = -(a + b + k)  # stored, then the lane leaves
                return
    out[t] = a * 1000 + b + 100000 * k + 10 * local[0] + local[1]


def cast_loop_counter(out: Any) -> None:
    """The grid-stride loop of production SIMT kernels: ``for (uint32_t i = t; ...)``.

    ``i = uint32_t(i)`` must keep the per-lane counter's type uint32 (issue 25): an int64 ``i``
    plus a uint64 offset is a float64 (no index: the block ran one thread at a time), and
    ``~i`` must be the 32-bit complement, as C's is.
    """
    t = threadIdx.x
    base = uint64_t(16)
    for i in range(t, 40, 24):
        i = uint32_t(i)
        out[base + i] = uint64_t(~i)


def typed_counter(out: Any, quotient: Any) -> None:
    """``for (uint32_t i = uint32_t(t); ...)`` written ``range(uint32_t(t), 40, 24)``.

    The counter takes its start's type in every tier (issue 25), with per-thread bounds (the
    masked tier's per-lane loop) and with bounds every thread shares (``k``): ``~i`` is the
    32-bit complement and ``Simt::UintDiv`` deduces ``T = uint32_t`` from the counter alone.
    """
    t = threadIdx.x
    for i in range(uint32_t(t), 40, 24):
        out[i] = uint64_t(~i)
        quotient[i] = Simt.UintDiv(i, uint32_t(613566757), uint32_t(3))  # i / 7
    for k in range(uint16_t(2), 4):
        out[40 + 8 * k + t % 8] = uint64_t(~k)


KERNELS: list[tuple[Callable[..., None], int, tuple[tuple[Any, int], ...]]] = [
    (nested_ifs, 32, ((int32_t, 32),)),
    (while_break_continue, 64, ((int32_t, 64),)),
    (early_return, 16, ((int32_t, 16), (int32_t, 1))),
    (lane_trip_counts, 48, ((int32_t, 48),)),
    (atomics_under_masks, 40, ((uint32_t, 40), (uint32_t, 16))),
    (expressions, 20, ((int32_t, 20),)),
    (pointer_merge, 32, ((int32_t, 64),)),
    (warp_calls_in_branches, 48, ((uint32_t, 48),)),
    (assorted_statements, 40, ((int32_t, 40),)),
    (cast_loop_counter, 24, ((uint64_t, 56),)),
    (typed_counter, 24, ((uint64_t, 72), (uint32_t, 40))),
]


@pytest.mark.parametrize(
    ("kernel", "threads", "sizes"), KERNELS, ids=[k[0].__name__ for k in KERNELS]
)
def test_divergent_kernel_runs_masked_with_per_thread_results(
    kernel: Any, threads: int, sizes: Any, per_thread_runs: list[int]
) -> None:
    result = both_tiers(launch(kernel, threads, *sizes, blocks=2))
    assert isinstance(result, list)
    assert masked_version(kernel) is not kernel
    assert per_thread_runs == [threads] * 2  # the per-thread tier's two blocks, no fallback


def test_cast_loop_counter_values() -> None:
    (out,) = launch(cast_loop_counter, 24, (uint64_t, 56))()
    want = [0] * 16 + [2**32 - 1 - i for i in range(40)]
    assert out.tolist() == want


def test_typed_counter_values() -> None:
    out, quotient = both_tiers(launch(typed_counter, 24, (uint64_t, 72), (uint32_t, 40)))
    assert (
        out[1] == [2**32 - 1 - i for i in range(40)] + [0] * 16 + [2**16 - 3] * 8 + [2**16 - 4] * 8
    )
    assert quotient == ("<u4", [i // 7 for i in range(40)])


def counter_leaving_its_type(out: Any) -> None:
    for i in range(uint8_t(threadIdx.x + 250), 300, 3):
        out[threadIdx.x] = i


@pytest.mark.parametrize("threads", [1, 4], ids=["bounds-shared", "bounds-per-thread"])
def test_a_counter_value_its_type_cannot_hold_is_an_error(threads: int) -> None:
    error = both_tiers(launch(counter_leaving_its_type, threads, (int32_t, 4)))
    assert error[0] == "AscregError"
    assert re.search(
        r"range\(\): the loop counter has its start's type uint8, which cannot hold 2\d\d", error[1]
    )


def test_nested_ifs_values() -> None:
    (out,) = launch(nested_ifs, 32, (int32_t, 32))()
    assert out.tolist()[:8] == [0, 100, 6, -3, 12, 0, 18, 100]
    assert out.tolist()[20:] == [7] * 12


# -- errors and the sync rules are those of the one-thread tier --------------------------------------


def oob_in_one_lane(out: Any, _: Any) -> None:
    t = int32_t(threadIdx.x)
    if t == 5:
        out[t + 1000] = 1


def sync_in_a_branch(out: Any, _: Any) -> None:
    if threadIdx.x < 4:
        asc_syncthreads()
    out[threadIdx.x] = 1


def sync_after_return(out: Any, _: Any) -> None:
    if threadIdx.x >= 4:
        return
    asc_syncthreads()
    out[threadIdx.x] = 1


def sync_on_both_sides(out: Any, _: Any) -> None:
    v = 0
    if threadIdx.x < 4:
        asc_syncthreads()
        v = 1
    else:
        asc_syncthreads()
        v = 2
    out[threadIdx.x] = v


def divide_in_a_branch(out: Any, d: Any) -> None:
    t = int32_t(threadIdx.x)
    y = d[t]
    if y != 0:
        out[t] = 100 // y


@pytest.mark.parametrize(
    ("kernel", "error", "slow"),
    [
        (oob_in_one_lane, OutOfBoundsError, False),
        (sync_in_a_branch, SyncError, False),
        (sync_after_return, SyncError, False),
        (sync_on_both_sides, None, True),
        (divide_in_a_branch, None, False),
    ],
)
def test_errors_and_sync_match_the_one_thread_tier(
    kernel: Any, error: Any, slow: bool, slow_paths: Callable[[], list[str]]
) -> None:
    result = both_tiers(launch(kernel, 8, (int32_t, 8), (int32_t, 8)))
    if error is None:
        assert isinstance(result, list)
    else:
        assert result[0] == error.__name__
    # an error path (the per-thread run raises the kernel's error) does not warn
    assert len(slow_paths()) == slow


def test_a_slow_path_warns_once_per_kernel(slow_paths: Callable[[], list[str]]) -> None:
    for _ in range(3):
        both_tiers(launch(sync_on_both_sides, 8, (int32_t, 8), (int32_t, 8)))
    (said,) = slow_paths()
    line = sync_on_both_sides.__code__.co_firstlineno + 3
    assert said == (
        f"sync_on_both_sides: asc_syncthreads() reached by part of the block (at {__file__}:"
        f"{line}); blocks that meet it run one thread at a time"
    )


def test_a_slow_path_warning_made_an_error_leaves_the_memory_of_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "_WARNED", set())
    run = launch(sync_on_both_sides, 8, (int32_t, 8), (int32_t, 8))
    with warnings.catch_warnings():
        warnings.simplefilter("error", SlowPathWarning)
        for _ in range(2):  # raised every time: an error is not "said once"
            with pytest.raises(
                SlowPathWarning, match=re.escape("asc_syncthreads() reached by part")
            ):
                run()


def test_a_plain_helper_that_branches_runs_masked(per_thread_runs: list[int]) -> None:
    def clamp(t: Any, low: int) -> Any:  # no __simt_callee__: rewritten all the same
        if t < low:
            return low
        for k in range(3):
            if t == 10 + k:
                return -k
        return t

    class Box:
        def pick(self, t: Any) -> Any:
            return 1 if t % 2 else 2

    def k(out: Any) -> None:
        out[threadIdx.x] = clamp(int32_t(threadIdx.x), 3) + 100 * Box().pick(threadIdx.x)

    with divergence("masked"):
        result = outcome(launch(k, 16, (int32_t, 16)))
    assert per_thread_runs == []
    assert result == both_tiers(launch(k, 16, (int32_t, 16)))


def test_a_fallback_is_logged_with_its_reason_and_line(
    caplog: pytest.LogCaptureFixture, slow_paths: Callable[[], list[str]]
) -> None:
    helper_branches = eval("lambda t: 1 if t < 3 else 2")  # no source: runs as written

    def k(out: Any) -> None:
        out[threadIdx.x] = helper_branches(threadIdx.x)

    with caplog.at_level(logging.INFO, logger="ascreg.simt"):
        result = both_tiers(launch(k, 8, (int32_t, 8)))
    assert result == [("<i4", [1, 1, 1, 2, 2, 2, 2, 2])]
    assert any(
        "k: bool() of a thread-varying value" in r.message
        and "run one thread at a time" in r.message
        for r in caplog.records
    )
    assert len(slow_paths()) == 1


def test_a_function_without_source_runs_path_by_path(
    caplog: pytest.LogCaptureFixture,
    slow_paths: Callable[[], list[str]],
    per_thread_runs: list[int],
) -> None:
    kernel = eval(
        "lambda out: out.__setitem__(threadIdx.x, 1 if threadIdx.x < 3 else 2)",
        {"threadIdx": threadIdx},
    )
    assert both_tiers(launch(kernel, 8, (int32_t, 8))) == [("<i4", [1, 1, 1, 2, 2, 2, 2, 2])]
    assert masked_version(kernel) is kernel
    assert per_thread_runs == [8]  # the per-thread reference only
    assert slow_paths() == []


SOURCELESS = """
def grid_stride(out, data, n):
    i = blockIdx.x * blockDim.x + threadIdx.x
    while i < n:  # trip counts differ per thread
        v = data[i]
        if v % 3 == 0:  # and so do the branches
            out[i] = v // 3
        elif v < 0:
            continue_value = -v
            out[i] = continue_value
        else:
            out[i] = helper(v)
        i += blockDim.x * gridDim.x

def helper(v):  # no source either, and it branches too
    return v * 2 if v > 10 else v + 100

def shuffles(out):
    v = threadIdx.x
    if v < 5:
        v = v + 1
    out[threadIdx.x] = asc_shfl_xor(v, 1)  # where the paths meet again is unknown
"""


def test_code_piped_to_python_runs_vectorised_path_by_path(
    slow_paths: Callable[[], list[str]], per_thread_runs: list[int]
) -> None:
    scope = {"threadIdx": threadIdx, "blockIdx": blockIdx, "blockDim": blockDim}
    scope.update(gridDim=engine.gridDim, asc_shfl_xor=asc_shfl_xor)
    exec(compile(SOURCELESS, "<stdin>", "exec"), scope)  # what `python -` makes of a file
    data = np.random.default_rng(3).integers(-30, 30, 100).astype(np.int32)

    def run() -> Any:
        gm = GlobalMemory()
        out, inp = gm.alloc(int32_t, 100), gm.alloc(int32_t, 100)
        inp.write(data)
        run_simt_kernel(scope["grid_stride"], dim3(3), dim3(16), 0, (out, inp, 100))
        return out.read(100)

    got = outcome(run)
    assert per_thread_runs == [] and slow_paths() == []
    want = np.where(data % 3 == 0, data // 3, np.where(data < 0, -data, 0))
    rest = (data % 3 != 0) & (data >= 0)
    want[rest] = np.where(data[rest] > 10, data[rest] * 2, data[rest] + 100)
    assert got == [("<i4", want.tolist())]
    assert both_tiers(run) == got
    result = both_tiers(launch(scope["shuffles"], 8, (uint32_t, 8)))
    assert result == [("<u4", [2, 1, 4, 3, 5, 5, 7, 6])]
    (said,) = slow_paths()
    assert "shuffles: a warp function while the threads take different paths" in said
    assert "its source is not available" in said


# -- the example ports, small -------------------------------------------------------------------------


def example(name: str) -> Any:
    """Import tests/examples/simt/<name>.py under a private module name."""
    spec = importlib.util.spec_from_file_location(f"_divergence_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sobel_port_small_matches_per_thread() -> None:
    sobel = example("test_sobel_warp_shfl")
    image = np.random.default_rng(1).integers(0, 256, 31 * 9).astype(np.uint8)  # with edges
    result = both_tiers(lambda: np.array(sorted(sobel.launch_sobel(image, 31, 9)[0])))
    assert len(result[0][1]) == len(sobel.sobel_ref(image, 31, 9)) > 0


@pytest.mark.parametrize("kind", [0, 1])
def test_cache_hint_port_small_matches_per_thread(kind: int) -> None:
    hint = example("test_data_cache_hint")
    inputs, _ = hint.generate_input_and_golden_data(1024)
    table = hint.generate_sin_table(hint.TABLE_SIZE)
    both_tiers(lambda: hint.launch_kernel(inputs, table, 1024, hint.TABLE_SIZE, kind, 32))


@pytest.mark.parametrize("kernel", ["floor_mod_simt_non_contiguous", "floor_mod_simt_contiguous"])
def test_floor_mod_simt_kernels_small_match_per_thread(kernel: str) -> None:
    floor_mod = example("test_floor_mod")
    ub = UnifiedBuffer()
    x, y, z = (ub.alloc(int32_t, floor_mod.TILE_LENGTH) for _ in range(3))
    rng = np.random.default_rng(5)
    x.write(rng.integers(-1000, 1000, floor_mod.TILE_LENGTH))
    y.write(rng.integers(1, 50, floor_mod.TILE_LENGTH) * rng.choice([-1, 1], floor_mod.TILE_LENGTH))

    def run() -> np.ndarray:
        z.write(np.zeros(floor_mod.TILE_LENGTH, np.int32))
        run_simt_vf(
            getattr(floor_mod, kernel),
            dim3(64),
            (x, y, z, 300),
            grid_dim=dim3(1),
            block_idx=dim3(0),
        )
        return z.read(floor_mod.TILE_LENGTH)

    out = both_tiers(run)[0][1]
    assert np.array_equal(out[:300], np.mod(x.read(300), y.read(300)))  # floor mod


def test_histogram_merge_port_small_matches_per_thread() -> None:
    histogram = example("test_histogram256")
    partial = np.arange(72 * 256, dtype=np.uint32) % 1000
    gm = GlobalMemory()
    final, partials = gm.alloc(uint32_t, 256), gm.alloc(uint32_t, 72 * 256)
    partials.write(partial)

    def run() -> np.ndarray:
        final.write(np.zeros(256, np.uint32))
        histogram.merge_block_local_histogram[8, histogram.REDUCE_BLOCK_SIZE, 0, None](
            final, partials, uint32_t(72)
        )
        return final.read(8)

    out = both_tiers(run)[0][1]
    assert out == partial.reshape(72, 256).sum(axis=0)[:8].tolist()


def test_grid_stride_loop_with_uneven_trip_counts() -> None:
    def k(out: Any, n: Any) -> None:
        i = blockIdx.x * blockDim.x + threadIdx.x
        while i < 150:
            out[i] = out[i] + i
            i += blockDim.x * 3

    result = both_tiers(launch(k, 32, (uint32_t, 160), (uint32_t, 1), blocks=3))
    assert result[0][1][:150] == list(range(150))


@__simt_callee__
def clamp_or_flag(v: Any, hi: Any) -> Any:
    if v > hi:
        return hi
    if v < 0:
        return -1
    for k in range(3):
        if v == k:
            return 100 + k
    return v


def calls_a_branching_helper(out: Any) -> None:
    t = int32_t(threadIdx.x)
    if t % 5 != 4:
        out[t] = clamp_or_flag(t - 3, 20)


def test_a_simt_callee_branches_and_returns_per_lane(per_thread_runs: list[int]) -> None:
    result = both_tiers(launch(calls_a_branching_helper, 32, (int32_t, 32)))
    assert result[0][1][:8] == [-1, -1, -1, 100, 0, 102, 3, 4]  # thread 4 is skipped
    assert result[0][1][26:] == [20, 20, 20, 0, 20, 20]
    assert per_thread_runs == [32]  # the per-thread reference only


def test_a_store_through_a_captured_pointer_honours_the_mask(per_thread_runs: list[int]) -> None:
    gm = GlobalMemory()
    hidden = gm.alloc(int32_t, 16)  # reached through the closure, never an argument

    def k() -> None:
        t = int32_t(threadIdx.x)
        if t % 2 == 0:
            hidden[t] = t + 1
        else:
            hidden[t + 100 * (t > 20)] += 7  # an out-of-range address in no active lane

    def run() -> np.ndarray:
        hidden.write(np.zeros(16, np.int32))
        run_simt_kernel(k, dim3(1), dim3(16), 0, ())
        return hidden.read(16)

    assert both_tiers(run) == [("<i4", [1, 7, 3, 7, 5, 7, 7, 7, 9, 7, 11, 7, 13, 7, 15, 7])]
    assert per_thread_runs == [16]  # the reference only


def test_divergence_modes_are_checked() -> None:
    with (
        pytest.raises(AscregError, match="divergence mode 'fast' is not one of"),
        divergence("fast"),
    ):
        pass

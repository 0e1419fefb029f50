"""Differential property tests: divergent SIMT kernels run vectorised give the per-thread results.

Hypothesis writes kernels as source text: nested thread-dependent ``if``/``else``, ``for``
loops over ``range()`` with a trip count per thread (with ``continue`` and ``break``), bounded
``while`` loops, early ``return``, a plain helper function that branches, integer atomics on a
shared UB or GM counter whose value is dropped, a warp reduction and shuffle where every
thread that has not returned takes part, and, rarely, an out-of-bounds store by some threads.
Each kernel runs on 1-3 blocks of 5-40 threads in four ways, on fresh identical buffers:

* ``per-thread``: one thread at a time (the reference);
* ``masked``: the kernel's source rewritten into masked form (:mod:`ascreg.engine.simt.masked`),
  the blocks run side by side in a batch (:mod:`ascreg.engine.simt.blocks`);
* ``block by block``: the same, one block at a time;
* ``no source``: the same code compiled without a source file (what ``python -`` makes), run
  path by path (:func:`ascreg.machine.simt.engine.run_paths`), or per thread where it says so.

Compared: every element of the output and the counters, and the type of the first error (the
per-thread tier names one thread's access, the vectorised ones all the lanes that make it).
The masked run must never fall back to the per-thread tier; the test counts those runs.

Known difference, kept out of the kernels: the loop variable of a ``range()`` with per-thread
bounds is ``int64`` lanes in the masked tier and a Python ``int`` per thread, so ``s + j`` with
an ``int32`` ``s`` is ``int64`` in one tier and ``int32`` in the other (a warp function then
rejects the ``int64``); the generated loops convert ``j`` with ``int32_t(j)``.
"""

from __future__ import annotations

import linecache
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import event, example, given, note, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, int32_t
from ascreg.c_api import __ubuf__
from ascreg.engine.simt import batch
from ascreg.engine.simt import blocks as blocks_module
from ascreg.errors import AscregError, SlowPathWarning
from ascreg.machine.simt import engine
from ascreg.machine.simt.engine import divergence
from ascreg.simt import (
    asc_atomic_add,
    asc_reduce_add,
    asc_shfl_xor,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    run_simt_kernel,
    threadIdx,
)

SLOTS = 4
"""Output elements per thread (``out[g * SLOTS + k]``)."""
COUNTERS = 8
VALUES = ("v", "s", "t")


# -- the kernels ----------------------------------------------------------------------------------


@st.composite
def expressions(draw: Any) -> str:
    """An int32 expression of the thread's values, kept small (no overflow in any tier)."""
    a, b = draw(st.sampled_from(VALUES)), draw(st.sampled_from(VALUES))
    k = draw(st.integers(1, 9))
    return draw(
        st.sampled_from(
            [
                f"({a} * {k} + {b}) % 1000",
                f"({a} + {k}) // ({b} % 3 + 1)",
                f"data[(g + {k}) % {N_DATA}] % 100 + {a} % 7",
                f"helper({a}) % 1000",
                f"{a} - {b} % {k + 1}",
            ]
        )
    )


@st.composite
def conditions(draw: Any) -> str:
    a = draw(st.sampled_from(VALUES))
    k = draw(st.integers(2, 5))
    c = draw(st.integers(0, k - 1))
    return draw(
        st.sampled_from(
            [f"{a} % {k} == {c}", f"{a} % {k} < {c}", f"t < {draw(st.integers(1, 30))}"]
        )
    )


def indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


@st.composite
def statements(draw: Any, depth: int, in_loop: bool) -> list[str]:
    """A few statements; compound ones down to *depth*."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        kinds = ["assign", "assign", "store", "atomic"]
        if depth > 0:
            kinds += ["if", "if", "for", "while", "return"]
        if in_loop:
            kinds += ["continue", "break"]
        kind = draw(st.sampled_from(kinds))
        if kind == "assign":
            out.append(f"{draw(st.sampled_from(('v', 's')))} = {draw(expressions())}")
        elif kind == "store":
            out.append(
                f"out[g * {SLOTS} + {draw(st.integers(2, SLOTS - 1))}] = {draw(expressions())}"
            )
        elif kind == "atomic":
            where = draw(st.sampled_from(["counts", "gm_counts"]))
            out.append(f"asc_atomic_add({where} + (v % {COUNTERS} + {COUNTERS}) % {COUNTERS}, 1)")
        elif kind == "if":
            out.append(f"if {draw(conditions())}:")
            out += indent(draw(statements(depth - 1, in_loop)))
            if draw(st.booleans()):
                out.append("else:")
                out += indent(draw(statements(depth - 1, in_loop)))
        elif kind == "for":
            out.append(f"for j in range({draw(st.sampled_from(VALUES))} % 4):")
            # int32_t(j): an untyped per-lane range() counts in int64 lanes, per thread in ints
            # (s + j would widen s to int64 in the masked tier only: see the module docstring)
            out += indent(["s = (s + int32_t(j)) % 1000", *draw(statements(depth - 1, True))])
        elif kind == "while":
            # the body may undo the step towards the exit: a trip counter of this depth (nested
            # loops have their own) ends every loop, or some seeds draw a kernel that never ends
            trips = f"w{depth}"
            out.append(f"{trips} = int32_t(0)")
            out.append(f"while s % 5 != {draw(st.integers(0, 4))}:")
            bound = [f"{trips} = {trips} + 1", f"if {trips} > 12:", "    break", "s = s + 1"]
            out += indent([*bound, *draw(statements(depth - 1, True))])
        elif kind == "return":
            out.append(f"if {draw(conditions())}:")
            out += indent(["out[g * 4 + 1] = s", "return"])
        else:
            out.append(f"if {draw(conditions())}:")
            out.append(f"    {kind}")
    return out


@dataclass
class Program:
    source: str
    blocks: int
    threads: int
    data: np.ndarray


N_DATA = 128


@st.composite
def programs(draw: Any) -> Program:
    body = draw(statements(2, False))
    error = draw(st.integers(0, 9)) == 0  # rarely: an out-of-bounds store by some threads
    warp = draw(st.booleans())
    lines = [
        "def helper(x):",
        "    if x % 2 == 0:",
        "        return x // 2",
        "    return x * 3 + 1",
        "",
        "def kernel(out, data, gm_counts):",
        f"    counts = __ubuf__(int32_t, {COUNTERS})",
        f"    if threadIdx.x < {COUNTERS}:",
        "        counts[threadIdx.x] = 0",
        "    asc_syncthreads()",
        "    g = int32_t(blockIdx.x * blockDim.x + threadIdx.x)",
        "    t = int32_t(threadIdx.x)",
        f"    v = data[g % {N_DATA}] % 1000",
        "    s = int32_t(0)",
        *indent(body if not error else [*body, "if v % 7 == 3:", "    out[g * 4 + 100000] = 1"]),
        "    out[g * 4] = v",
        "    out[g * 4 + 1] = s",
    ]
    if warp:  # every thread still running takes part (as in every tier)
        lines += ["    out[g * 4 + 2] = asc_reduce_add(v) + asc_shfl_xor(s, 1)"]
    source = "\n".join(lines) + "\n"
    blocks = draw(st.integers(1, 3))
    threads = draw(st.integers(max(5, COUNTERS), 40))
    data = np.array(
        draw(st.lists(st.integers(-500, 500), min_size=N_DATA, max_size=N_DATA)), np.int32
    )
    return Program(source, blocks, threads, data)


SCOPE = {
    "__ubuf__": __ubuf__,
    "asc_atomic_add": asc_atomic_add,
    "asc_reduce_add": asc_reduce_add,
    "asc_shfl_xor": asc_shfl_xor,
    "asc_syncthreads": asc_syncthreads,
    "blockDim": blockDim,
    "blockIdx": blockIdx,
    "int32_t": int32_t,
    "threadIdx": threadIdx,
}


def build(program: Program, filename: str, *, with_source: bool) -> Callable[..., None]:
    """Compile the kernel; with its source in ``linecache`` (a file) or without (``python -``)."""
    if with_source:
        lines = program.source.splitlines(keepends=True)
        linecache.cache[filename] = (len(program.source), None, lines, filename)
    scope = dict(SCOPE)
    exec(compile(program.source, filename, "exec"), scope)
    kernel: Callable[..., None] = scope["kernel"]
    return kernel


def outcome(kernel: Callable[..., None], program: Program) -> Any:
    """Memory after the launch and the type of its error (None)."""
    gm = GlobalMemory()
    size = program.blocks * program.threads * SLOTS
    out, data, counts = (
        gm.alloc(int32_t, size),
        gm.alloc(int32_t, N_DATA),
        gm.alloc(int32_t, COUNTERS),
    )
    data.write(program.data)
    error = None
    try:
        run_simt_kernel(kernel, dim3(program.blocks), dim3(program.threads), 0, (out, data, counts))
    except AscregError as exc:
        error = type(exc).__name__
    return error, out.read(size).tolist(), counts.read(COUNTERS).tolist()


_SEEN = [0]


@pytest.fixture
def per_thread_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The blocks run one thread at a time by a fallback (not the reference runs)."""
    runs: list[int] = []
    execute = engine.Scheduler.execute

    def counted(self: engine.Scheduler) -> None:
        if self.journal is None and engine._MODE[-1] == "masked":
            runs.append(self.run.nthreads)
        execute(self)

    monkeypatch.setattr(engine.Scheduler, "execute", counted)
    return runs


ERROR_IN_STEP = Program(
    source="""def kernel(out, data, gm_counts):
    counts = __ubuf__(int32_t, 8)
    if threadIdx.x < 8:
        counts[threadIdx.x] = 0
    asc_syncthreads()
    g = int32_t(blockIdx.x * blockDim.x + threadIdx.x)
    v = data[g % 128] % 1000
    out[g * 4 + 2] = v * 2
    v = (v + 6) // 2
    if v % 7 == 3:
        out[g * 4 + 100000] = 1
""",
    blocks=1,
    threads=8,
    data=np.array([0] * 7 + [1] + [0] * (N_DATA - 8), np.int32),
)
"""Every thread meets the error with every thread active, thread 7 having written 2 before it:
one thread at a time, thread 0 meets it first and thread 7 never wrote (found by the test)."""


@settings(deadline=None)
@given(program=programs())
@example(program=ERROR_IN_STEP)
def test_generated_kernels_run_vectorised_with_the_per_thread_results(program: Program) -> None:
    note(program.source)
    _SEEN[0] += 1
    with_source = build(program, f"<generated {_SEEN[0]}>.py", with_source=True)
    without = build(program, f"<stdin {_SEEN[0]}>", with_source=False)
    with divergence("per-thread"):
        reference = outcome(with_source, program)
    fallbacks: list[int] = []
    execute = engine.Scheduler.execute

    def counted(self: engine.Scheduler) -> None:
        if self.journal is None and engine._MODE[-1] == "masked":
            fallbacks.append(self.run.nthreads)
        execute(self)

    engine.Scheduler.execute = counted  # type: ignore[method-assign]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SlowPathWarning)
            masked = outcome(with_source, program)
            masked_fallbacks = list(fallbacks)
            batch.BATCHING[0] = False
            try:
                alone = outcome(with_source, program)
            finally:
                batch.BATCHING[0] = True
            sourceless = outcome(without, program)
    finally:
        engine.Scheduler.execute = execute  # type: ignore[method-assign]
    assert masked == reference
    assert alone == reference
    assert sourceless == reference
    if reference[0] is None:  # an error in divergent code runs per thread for its exact place
        assert masked_fallbacks == []


ATOMICS = """
def kernel(out, ints, floats, data):
    g = int32_t(blockIdx.x * blockDim.x + threadIdx.x)
    v = data[g % 128]
    s = float32_t(0.0)
{body}
    out[g] = s
"""


@st.composite
def atomic_statements(draw: Any, depth: int) -> list[str]:
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(["v % 3", "g % 5", "0", "(v + g) % 4"]))
        kinds = ["used", "dropped", "float used", "float dropped"] + ["branch"] * (depth > 0)
        kind = draw(st.sampled_from(kinds))
        if kind == "used":
            out.append(f"s = s + float32_t(asc_atomic_add(ints + {where}, 1) % 100)")
        elif kind == "dropped":
            out.append(f"asc_atomic_add(ints + {where}, 2)")
        elif kind == "float used":
            out.append(f"s = s + asc_atomic_add(floats + {where}, float32_t(v) * 0.37)")
        elif kind == "float dropped":
            out.append(f"asc_atomic_add(floats + {where}, float32_t(v) * 1.3)")
        else:
            out.append(f"if v % {draw(st.integers(2, 4))} == 0:")
            out += indent(draw(atomic_statements(depth - 1)))
            out.append(f"for j in range(v % {draw(st.integers(2, 4))}):")
            out += indent(draw(atomic_statements(depth - 1)))
    return out


@settings(deadline=None)
@given(
    body=atomic_statements(2),
    blocks=st.integers(2, 4),
    threads=st.integers(3, 40),
    data=st.lists(st.integers(-50, 50), min_size=128, max_size=128),
)
def test_atomics_of_a_batch_of_blocks_are_those_of_the_blocks_in_turn(
    body: list[str], blocks: int, threads: int, data: list[int]
) -> None:
    # the values atomics return depend on the order of the threads' calls, which differs in
    # the per-thread tier (see ascreg.simt); batched and block by block must agree bit for bit
    source = ATOMICS.format(body="\n".join(indent(body)))
    note(source)
    _SEEN[0] += 1
    filename = f"<atomics {_SEEN[0]}>.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    scope = {**SCOPE, "float32_t": float32_t}
    exec(compile(source, filename, "exec"), scope)

    def run() -> Any:
        gm = GlobalMemory()
        n = blocks * threads
        out, ints, floats = gm.alloc(float32_t, n), gm.alloc(int32_t, 8), gm.alloc(float32_t, 8)
        inp = gm.alloc(int32_t, 128)
        inp.write(np.array(data, np.int32))
        floats.write(np.linspace(-3, 7, 8).astype(np.float32))
        run_simt_kernel(scope["kernel"], dim3(blocks), dim3(threads), 0, (out, ints, floats, inp))
        return out.read(n).tobytes(), ints.read(8).tolist(), floats.read(8).tobytes()

    outcomes: list[str | None] = []
    attempt = blocks_module._run_batch

    def watched(*args: Any) -> str | None:
        outcomes.append(attempt(*args))
        return outcomes[-1]

    blocks_module._run_batch = watched  # type: ignore[assignment]
    blocks_module._REFUSED.clear()
    try:
        batched = run()
    finally:
        blocks_module._run_batch = attempt  # type: ignore[assignment]
    event(f"batch kept: {outcomes[:1] == [None]}")
    batch.BATCHING[0] = False
    try:
        alone = run()
    finally:
        batch.BATCHING[0] = True
    assert batched == alone

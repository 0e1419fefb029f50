"""Differential property tests: a batched VF loop gives exactly what eager execution gives.

The batched execution of ``__simd_vf__`` loops (``ascreg.engine.batch``) is an optimisation:
it must never change a result. These tests are its safety net. Hypothesis draws straight-line
loop bodies from the row-wise ops of ``ascreg.engine.batching`` on both surfaces (the Reg
API and its C API twins: ``UpdateMask`` over a running count, ``LoadAlign`` / ``StoreAlign`` in
the plain, ``DIST_NORM``, offset and post-update forms, compares in every ``CMPMODE``,
``Select``, the four shifts, the element-wise arithmetic and logic ops, ``Not`` / ``Abs`` /
``Neg`` / ``Relu``, the scalar forms, ``Duplicate`` and ``Move``), with legal dtypes, tail
counts, 1-40 iterations and, rarely, what must make the loop fall back or raise: a register
read before it is written, a negative shift count, a misaligned or out-of-bounds address, a
store into the bytes another iteration loads (see ``tests/vf_programs.py``).

Each VF runs once under ``ascreg.policy(execution="eager")`` and once under the default policy
(batched where possible), on fresh identical buffers. Compared after every call:

* every UB byte (after an error too: that shows the error came in the same iteration, since
  eager execution has stored exactly the iterations before it);
* every local the VF holds after its loop, also when it raised (registers' and masks' bits,
  ``Ref`` values, pointers, the loop variable), handed out by a ``finally``;
* the error: its type and message.

Caches and recorded plans shared between calls are what a faster batched path adds, so the same
VF object is also called several times in a row: other data, other counts (a host loop's full
tiles and tail alternating), other pointers (the same buffers, new allocations, a reset UB, a
new UB), a call that falls back between calls that batch; and inside a ``__global__
__vector__`` kernel through ``asc_vf_call``, with GM <-> UB copies, flags and ping-pong
buffers, some flags missing (a ``SyncError``) or some UB never copied in (an unwritten read).

A differential test proves nothing if every loop ran eagerly: the ``ascreg.batch`` DEBUG log
says which calls ran batched, and :func:`test_a_good_fraction_runs_batched` checks over fixed
seeds that most generated calls batched, and that the fallbacks and errors occur too.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, event, given, note, settings
from hypothesis import strategies as st

import ascreg
import vf_programs as vp
from ascreg import GlobalMemory, UnifiedBuffer, uint8_t
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor

BATCH_LOG = logging.getLogger("ascreg.batch")


def examples(share: float) -> settings:
    """Settings running *share* of the profile's example count (50 under ``ci``), in the
    profile's phases but "explain" (minutes on these large examples, for little)."""
    phases = [phase for phase in settings().phases if phase is not Phase.explain]
    return settings(max_examples=max(1, round(settings().max_examples * share)), phases=phases)


# -- what a call leaves behind ---------------------------------------------------------------------


def value_state(value: Any) -> Any:
    """Return a comparable picture of one local of a VF (bits, not objects)."""
    if isinstance(value, RegTensor):
        lanes = np.asarray(value).tobytes() if value.written else None
        return type(value).__name__, value.dtype.cpp_name, lanes
    if isinstance(value, MaskReg):
        return "mask", np.asarray(value).tobytes() if value.written else None
    if isinstance(value, Ref):
        return "Ref", value_state(value.value)
    if isinstance(value, Pointer):  # with its allocation's bytes (a kernel's UB, after an error)
        block = value.block
        where = None
        if block is not None:
            where = (
                block.start,
                block.size,
                block.live,
                used_bytes(value.memory.data[block.start : block.end]),
            )
        return type(value).__name__, value.memory.space, value.address, value.dtype, where
    if isinstance(value, bool | int | float | np.generic):
        return type(value).__name__, np.asarray(value).tobytes()
    return type(value).__name__, repr(value)


class Recorder:
    """The ``RECORD`` of generated VFs: a picture of their locals at the end of each call."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []

    def __call__(self, scope: dict[str, Any]) -> None:
        self.states.append(
            {k: value_state(v) for k, v in scope.items() if not k.startswith("__ascreg")}
        )

    def take(self) -> list[dict[str, Any]]:
        states, self.states = self.states, []
        return states


@dataclass
class Outcome:
    """What one call (or one kernel launch) left: memory bytes, VF locals, error, log lines."""

    memory: list[bytes] = field(repr=False)
    states: list[dict[str, Any]] = field(repr=False)
    error: str
    log: list[str] = field(default_factory=list, compare=False)

    @property
    def batched(self) -> bool:
        return any("batched over" in line for line in self.log)


def used_bytes(data: np.ndarray[Any, Any]) -> bytes:
    """The memory's bytes without the trailing zeros (the array grows on demand)."""
    return np.trim_zeros(data, "b").tobytes()


class LogLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def take(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines


@contextlib.contextmanager
def mode(eager: bool) -> Iterator[LogLines]:
    """Run under the eager or the default policy, collecting the ``ascreg.batch`` log."""
    handler = LogLines()
    level = BATCH_LOG.level
    BATCH_LOG.addHandler(handler)
    BATCH_LOG.setLevel(logging.DEBUG)
    policy = ascreg.policy(execution="eager") if eager else contextlib.nullcontext()
    try:
        with policy:
            yield handler
    finally:
        BATCH_LOG.removeHandler(handler)
        BATCH_LOG.setLevel(level)


def error_text(error: Exception) -> str:
    """``"Type: message"``; a non-ascreg error is a bug (of the library or of the generator)."""
    assert isinstance(error, ascreg.errors.AscregError), repr(error)
    return f"{type(error).__name__}: {error}"


# -- direct calls ------------------------------------------------------------------------------------


class Placement:
    """Where a sequence of calls puts its buffers (see ``vf_programs.PLACES``)."""

    def __init__(self, program: vp.Program) -> None:
        self.program = program
        self.ub: UnifiedBuffer | None = None
        self.pointers: dict[str, Pointer[Any]] = {}
        self.sizes: dict[str, int] = {}

    def place(self, call: vp.Call) -> dict[str, Pointer[Any]]:
        program = self.program
        sizes = vp.buffer_sizes(program, call)
        place = call.place if self.ub is not None else "new UB"
        if place == "same" and any(sizes[p] > self.sizes.get(p, -1) for p in sizes):
            place = "new allocations"
        need = sum(sizes[p] * program.param_type(p).size + 32 for p in sizes)
        if place == "new allocations" and self.ub is not None and self.ub.free_bytes < need:
            place = "reset UB"
        if place == "new UB":
            self.ub = UnifiedBuffer()  # the old one may be collected and its id reused
        assert self.ub is not None
        if place == "reset UB":
            self.ub.reset()  # the same addresses again, in new allocations
        if place != "same":
            types = {p: program.param_type(p) for p in sizes}
            self.pointers = {p: self.ub.alloc(types[p], sizes[p]) for p in sizes}
            self.sizes = sizes
        vp.write_data(self.pointers, program, call, self.sizes)
        return self.pointers


def run_calls(
    program: vp.Program, vf: Any, recorder: Recorder, calls: Sequence[vp.Call], *, eager: bool
) -> list[Outcome]:
    """Call *vf* once per call, on buffers placed as the calls say; one outcome per call."""
    placement = Placement(program)
    outcomes = []
    with mode(eager) as log:
        for call in calls:
            pointers = placement.place(call)
            error = ""
            try:
                vf(*vp.arguments(program, call, pointers))
            except Exception as exc:
                error = error_text(exc)
            assert placement.ub is not None
            memory = [used_bytes(placement.ub.data)]
            outcomes.append(Outcome(memory, recorder.take(), error, log.take()))
    return outcomes


def differential(
    program: vp.Program, calls: Sequence[vp.Call], runner: Any = run_calls
) -> list[Outcome]:
    """Run *calls* eagerly and batched; assert each outcome is the same; return the batched."""
    recorder = Recorder()
    vf = vp.compile_vf(program, recorder)
    eager = runner(program, vf, recorder, calls, eager=True)
    batched = runner(program, vf, recorder, calls, eager=False)
    assert len(eager) == len(batched)
    for j, (want, got) in enumerate(zip(eager, batched, strict=True)):
        where = f"call {j} ({got.log})"
        assert got.error == want.error, where
        assert got.memory == want.memory, f"{where}: memory{difference(got.memory, want.memory)}"
        states = got.states
        assert states == want.states, f"{where}: {local_difference(states, want.states)}"
    return batched


def difference(got: Any, want: Any) -> str:
    """Where two pictures (tuples, lists, bytes) first differ, briefly."""
    if isinstance(got, tuple | list) and isinstance(want, tuple | list) and len(got) == len(want):
        k = next(k for k in range(len(got)) if got[k] != want[k])
        return f"[{k}]{difference(got[k], want[k])}"
    if isinstance(got, bytes) and isinstance(want, bytes):
        size = min(len(got), len(want))
        k = next((k for k in range(size) if got[k] != want[k]), size)
        return f": from byte {k}, batched {got[k : k + 8].hex()}.., eager {want[k : k + 8].hex()}.."
    return f": batched {got!r:.200}, eager {want!r:.200}"


def local_difference(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    for j, (g, w) in enumerate(zip(got, want, strict=False)):
        for name in sorted(set(g) | set(w)):
            if g.get(name) != w.get(name):
                return f"VF call {j}: local {name!r}{difference(g.get(name), w.get(name))}"
    return f"{len(got)} VF calls batched, {len(want)} eager"


def report(outcomes: Sequence[Outcome]) -> None:
    """Tell hypothesis' statistics how the calls ran."""
    for outcome in outcomes:
        if outcome.batched:
            event("batched")
        else:
            event(f"eager: {(outcome.error or 'fallback').split(':')[0]}")


def note_program(program: vp.Program, calls: Sequence[vp.Call]) -> None:
    note(vp.describe(program, calls))


# -- 1: generated VFs, one call ---------------------------------------------------------------------


@pytest.mark.parametrize("focus", [op.name for op in vp.OPS])
@pytest.mark.parametrize("surface", ["reg", "c_api"])
@examples(4 / (2 * len(vp.OPS)))
@given(data=st.data())
def test_generated_vf_batched_matches_eager(surface: str, focus: str, data: Any) -> None:
    """One call of a VF whose body calls *focus* (and other ops) on *surface*."""
    choose = vp.DrawChooser(data)
    program = vp.draw_program(choose, surface, focus)
    calls = [vp.draw_call(choose, program)]
    note_program(program, calls)
    report(differential(program, calls))


# -- 2: the same body in a nest (flattened into the outer loop's batch) -------------------------------


def nested(program: vp.Program, inner: int) -> vp.Program:
    """Return *program* with its loop split into ``for o: for j in range(inner)`` (``i`` made
    of both, in the same order; an *n* that *inner* does not divide runs past the buffers)."""
    loop = "range(n)" if program.step == 1 else f"range(0, {program.step} * n, {program.step})"
    header = f"        for i in {loop}:\n"
    head, body_and_tail = program.source.split(header)
    body, tail = body_and_tail.split("\n    finally:\n")
    source = (
        head.replace(f"def {program.name}(", f"def {program.name}_nested(")
        + f"        for o in range(-(-n // {inner})):\n"
        + f"            for j in range({inner}):\n"
        + f"                i = (o * {inner} + j) * {program.step}\n"
        + textwrap.indent(body, "    ")
        + "\n    finally:\n"
        + tail
    )
    return dataclasses.replace(program, name=f"{program.name}_nested", source=source)


@examples(1)
@given(st.data())
def test_generated_nest_batched_matches_eager(data: Any) -> None:
    """A generated body as the inner loop of a nest: flattened, in order or eager, as eager."""
    choose = vp.DrawChooser(data)
    program = nested(vp.draw_program(choose), choose.number(2, 3))
    calls = vp.draw_calls(choose, program, choose.number(1, 3))
    note_program(program, calls)
    report(differential(program, calls))


# -- 3: repeated calls of the same VF ----------------------------------------------------------------


@examples(2)
@given(st.data())
def test_repeated_calls_match_eager(data: Any) -> None:
    """The same VF object, called again and again: caches and replays must not leak."""
    choose = vp.DrawChooser(data)
    program = vp.draw_program(choose)
    calls = vp.draw_calls(choose, program, choose.number(2, 6))
    note_program(program, calls)
    report(differential(program, calls))


# -- 4: inside a kernel, through asc_vf_call -------------------------------------------------------

HAZARDS = (
    "none",
    "no MTE2->V flag",
    "no V->MTE3 flag",
    "no MTE3->MTE2 flag",
    "unwritten UB",
    "partly unwritten UB",
)
"""What a kernel tile may leave out (at one tile, for one parameter where it is a copy)."""


@dataclass(frozen=True)
class Hazard:
    kind: str
    tile: int
    param: str


def draw_hazard(choose: vp.Chooser, program: vp.Program, tiles: int) -> Hazard:
    kind = "none" if not choose.rarely(40) else choose.pick(HAZARDS[1:])
    return Hazard(kind, choose.number(0, tiles - 1), choose.pick(program.params))


def tile_sizes(program: vp.Program, calls: Sequence[vp.Call]) -> dict[str, int]:
    """Each parameter's UB buffer in elements: the largest any call needs, in whole 32 bytes."""
    sizes: dict[str, int] = {}
    for call in calls:
        for param, size in vp.buffer_sizes(program, call).items():
            sizes[param] = max(sizes.get(param, 0), size)
    for param, size in sizes.items():
        block = max(1, 32 // program.param_type(param).size)
        sizes[param] = -(-size // block) * block
    return sizes


def make_kernel(program: vp.Program, vf: Any, calls: Sequence[vp.Call], hazard: Hazard) -> Any:
    """A one-block kernel: per call (tile), copy in, flag, ``asc_vf_call``, flag, copy out, flag.

    The tiles use two sets of UB buffers in turn (ping-pong): every other call gets other
    pointers, and the bytes a tile finds there are the tile before last's.
    """
    from ascreg.c_api import (
        EVENT_ID0,
        PIPE_MTE2,
        PIPE_MTE3,
        PIPE_V,
        __global__,
        __ubuf__,
        __vector__,
        asc_copy_gm2ub_align,
        asc_copy_ub2gm_align,
        asc_sync_notify,
        asc_sync_wait,
        asc_vf_call,
    )

    sizes = tile_sizes(program, calls)
    nbytes = {p: sizes[p] * program.param_type(p).size for p in sizes}

    def flag(tile: int, source: Any, target: Any, name: str) -> None:
        if (hazard.kind, hazard.tile) != (name, tile):
            asc_sync_notify(source, target, EVENT_ID0)
            asc_sync_wait(source, target, EVENT_ID0)

    def copied(tile: int, param: str) -> int:
        """The bytes of *param* copied in at *tile* (none or half of them: unwritten UB)."""
        whole = nbytes[param]
        if (hazard.tile, hazard.param) == (tile, param):
            if hazard.kind == "unwritten UB":
                return 0
            if hazard.kind == "partly unwritten UB":
                return whole // 64 * 32
        return whole

    @__global__
    @__vector__
    def kernel(*gm: Any) -> None:
        sets = [
            {p: __ubuf__(program.param_type(p), sizes[p]) for p in program.params} for _ in range(2)
        ]
        for tile, call in enumerate(calls):
            ub = sets[tile % 2]
            for param, source in zip(program.params, gm, strict=True):
                if copied(tile, param):  # as bytes: the copies do not take 64-bit elements
                    at = (source + tile * sizes[param]).cast(uint8_t)
                    asc_copy_gm2ub_align(ub[param].cast(uint8_t), at, copied(tile, param))
            flag(tile, PIPE_MTE2, PIPE_V, "no MTE2->V flag")
            asc_vf_call[vf](*vp.arguments(program, call, ub))
            flag(tile, PIPE_V, PIPE_MTE3, "no V->MTE3 flag")
            for param, target in zip(program.params, gm, strict=True):
                at = (target + tile * sizes[param]).cast(uint8_t)
                asc_copy_ub2gm_align(at, ub[param].cast(uint8_t), 1, nbytes[param], 0, 0, 0)
            flag(tile, PIPE_MTE3, PIPE_MTE2, "no MTE3->MTE2 flag")

    return kernel, sizes


def run_kernel(
    program: vp.Program,
    vf: Any,
    recorder: Recorder,
    calls: Sequence[vp.Call],
    *,
    eager: bool,
    hazard: Hazard,
) -> list[Outcome]:
    """Launch the kernel of *calls* once; one outcome for the launch (GM bytes, every VF call)."""
    kernel, sizes = make_kernel(program, vf, calls, hazard)
    gm = GlobalMemory()
    buffers = [gm.alloc(program.param_type(p), sizes[p] * len(calls)) for p in program.params]
    for tile, call in enumerate(calls):
        tiles = {p: b + tile * sizes[p] for p, b in zip(program.params, buffers, strict=True)}
        vp.write_data(tiles, program, call, sizes)
    error = ""
    with mode(eager) as log:
        try:
            kernel[1, 0, None](*buffers)
        except Exception as exc:
            error = error_text(exc)
    memory = [
        used_bytes(b.cast(uint8_t).read(sizes[p] * len(calls) * b.dtype.size))
        for p, b in zip(program.params, buffers, strict=True)
    ]
    return [Outcome(memory, recorder.take(), error, log.take())]


def kernel_differential(program: vp.Program, calls: Sequence[vp.Call], hazard: Hazard) -> Outcome:
    def runner(*args: Any, eager: bool) -> list[Outcome]:
        return run_kernel(*args, eager=eager, hazard=hazard)

    (outcome,) = differential(program, calls, runner)
    return outcome


@examples(2)
@given(st.data())
def test_vf_calls_in_a_kernel_match_eager(data: Any) -> None:
    """``asc_vf_call`` per tile inside a kernel, with flags and copies, some left out."""
    choose = vp.DrawChooser(data)
    program = vp.draw_program(choose)
    calls = vp.draw_calls(choose, program, choose.number(1, 4))
    hazard = draw_hazard(choose, program, len(calls))
    note_program(program, calls)
    note(f"hazard: {hazard}")
    outcome = kernel_differential(program, calls, hazard)
    event(f"kernel: {'batched' if outcome.batched else 'eager'} {outcome.error.split(':')[0]}")


@examples(1)
@given(st.data())
def test_nests_in_a_kernel_match_eager(data: Any) -> None:
    """The nested VFs of ``test_generated_nest_batched_matches_eager`` per tile of a kernel (the
    block's checks see the flattened accesses in eager order)."""
    choose = vp.DrawChooser(data)
    program = nested(vp.draw_program(choose), choose.number(2, 3))
    calls = vp.draw_calls(choose, program, choose.number(1, 3))
    hazard = draw_hazard(choose, program, len(calls))
    note_program(program, calls)
    note(f"hazard: {hazard}")
    outcome = kernel_differential(program, calls, hazard)
    event(f"kernel: {'batched' if outcome.batched else 'eager'} {outcome.error.split(':')[0]}")


# -- 2: the generated calls do run batched -------------------------------------------------------

SEEDS = range(100)


def seeded_outcomes(seed: int, kind: str) -> tuple[vp.Program, list[Outcome]]:
    """The outcomes of seed *seed*'s program: one call, four calls, or a kernel of three."""
    choose = vp.SeededChooser(seed)
    program = vp.draw_program(choose)
    if kind == "one call":
        return program, differential(program, [vp.draw_call(choose, program)])
    calls = vp.draw_calls(choose, program, 4 if kind == "repeated calls" else 3)
    if kind == "repeated calls":
        return program, differential(program, calls)
    hazard = draw_hazard(choose, program, len(calls))
    return program, [kernel_differential(program, calls, hazard)]


@pytest.mark.parametrize(
    ("kind", "batched", "errors", "fallbacks"),
    [
        ("one call", 0.5, 0.1, 0.05),
        ("repeated calls", 0.5, 0.1, 0.05),
        # a kernel stops at its first tile's error; its loads of bytes other iterations store
        # run batched up to the first iteration that reads them (no longer a fallback)
        ("kernel", 0.3, 0.2, 0.03),
    ],
)
def test_a_good_fraction_runs_batched(
    kind: str, batched: float, errors: float, fallbacks: float
) -> None:
    """Over fixed seeds, most generated calls batch; fallbacks and errors occur too.

    Without this the differential tests could pass with every loop running eagerly. (A
    kernel counts as batched when one of its VF calls did.) The generator only makes legal
    calls: no ``IllegalDtypeError``.
    """
    kinds: collections.Counter[str] = collections.Counter()
    for seed in SEEDS:
        program, outcomes = seeded_outcomes(seed, kind)
        for outcome in outcomes:
            assert not outcome.error.startswith("IllegalDtypeError"), program.source
            kinds["batched" if outcome.batched else "error" if outcome.error else "fallback"] += 1
    total = sum(kinds.values())
    assert kinds["batched"] >= batched * total, kinds
    assert kinds["error"] >= errors * total, kinds
    assert kinds["fallback"] >= fallbacks * total, kinds


# -- 3: a call that falls back between calls that batch -------------------------------------------

SHIFT_VF = {
    "reg": (
        ["a, out, s = Reg.RegTensor[{t}](), Reg.RegTensor[{t}](), Reg.RegTensor[{s}]()"],
        ["m = Reg.UpdateMask[{t}](remaining)", "Reg.LoadAlign(a, p0 + i * {L})",
         "Reg.LoadAlign(s, q0 + i * {L})", "Reg.ShiftRight(out, a, s, m)",
         "Reg.StoreAlign(p2 + i * {L}, out, m)"],
    ),
    "c_api": (
        ["a, out, s = vector_{t}(), vector_{t}(), vector_{s}()"],
        ["m = asc_update_mask_b{bits}(remaining)", "asc_loadalign(a, p0 + i * {L})",
         "asc_loadalign(s, q0 + i * {L})", "asc_shiftright(out, a, s, m)",
         "asc_storealign(p2 + i * {L}, out, m)"],
    ),
}  # fmt: skip
"""``out = a >> s`` under the tail mask, the counts loaded from UB (one per lane)."""


def shift_program(surface: str, dtype: Any) -> vp.Program:
    shift = vp.shift_type(dtype)
    assert shift is not None
    lanes = vp.VL // dtype.size
    names = {"t": dtype.__name__, "s": shift.__name__, "bits": dtype.bits, "L": lanes}
    prelude, body = ([line.format(**names) for line in part] for part in SHIFT_VF[surface])
    index = f"i * {lanes}"
    accesses = [
        vp.Access("p0", index, False),
        vp.Access("q0", index, False),
        vp.Access("p2", index, True),
    ]
    name = f"shift_vf_{surface}_{dtype.__name__}"
    return vp.make_program(
        name, surface, dtype, [*prelude, "remaining = Ref(count)"], body, accesses
    )


@pytest.mark.parametrize(
    ("surface", "dtype"),
    [
        ("reg", ascreg.uint16_t),
        ("reg", ascreg.int64_t),
        ("c_api", ascreg.int32_t),
        ("c_api", ascreg.uint8_t),
    ],
)
def test_a_negative_shift_in_the_third_call_only(surface: str, dtype: Any) -> None:
    """Full tiles and tails alternate; the third call's data holds a negative shift count.

    That call runs eagerly and raises in the iteration of that count; the calls before and
    after it run batched, on the same buffers, on new allocations and in a new UB.
    """
    program = shift_program(surface, dtype)
    lanes = program.lanes
    places = ["new UB", "same", "same", "new allocations", "same", "new UB"]
    calls = [
        vp.Call(
            n=9,
            count=9 * lanes - (j % 2) * 7,
            seed=j,
            data="bits",
            k=(0, 0),
            h=0,
            slack=dict.fromkeys(program.params, 0),
            offset=0,
            negative_shift=j == 2,
            place=place,
        )
        for j, place in enumerate(places)
    ]
    outcomes = differential(program, calls)
    assert [o.batched for o in outcomes] == [True, True, False, True, True, True]
    assert [o.error.split(":")[0] for o in outcomes] == ["", "", "NegativeShiftError", "", "", ""]


# -- forms the documentation says batch ----------------------------------------------------------

FORMS = {
    "asc_loadalign offset": (
        "c_api", ["r, full = vector_uint16_t(), asc_create_mask_b16(PAT_ALL)"],
        ["asc_loadalign(r, p0, i * 128)", "asc_storealign(p2 + i * 128, r, full)"],
    ),
    "asc_storealign offset": (
        "c_api", ["r, full = vector_uint16_t(), asc_create_mask_b16(PAT_ALL)"],
        ["asc_loadalign(r, p0 + i * 128)", "asc_storealign(p2, r, i * 128, full)"],
    ),
    "reversed StoreAlign": (
        "reg", ["r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()"],
        ["Reg.LoadAlign(r, p0 + i * 128)", "Reg.StoreAlign(p2 + (n - 1 - i) * 128, r, full)"],
    ),
    "ShiftRights of a loop-invariant register": (
        "reg", ["r, y, full = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), "
                "Reg.CreateMask[uint16_t]()", "Reg.Duplicate(r, 5, full)"],
        ["m = Reg.UpdateMask[uint16_t](remaining)", "Reg.ShiftRights(y, r, 1, m)",
         "Reg.StoreAlign(p2 + i * 128, y, m)"],
    ),
    "BRC LoadAlign one element apart": (
        "reg", ["r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()"],
        ["Reg.LoadAlign[uint16_t, LoadDist.DIST_BRC_B16](r, p0 + i)",
         "Reg.StoreAlign(p2 + i * 128, r, full)"],
    ),
    "US and UNPACK LoadAlign": (
        "reg", ["r, s, full = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), "
                "Reg.CreateMask[uint16_t]()"],
        ["Reg.LoadAlign[uint16_t, LoadDist.DIST_US_B16](r, p0 + i * 64)",
         "Reg.LoadAlign[uint16_t, LoadDist.DIST_UNPACK_B16](s, p0 + i * 128)",
         "Reg.Add(r, r, s, full)", "Reg.StoreAlign(p2 + i * 128, r, full)"],
    ),
    "FIRST_ELEMENT StoreAlign one element apart": (
        "reg", ["r, one = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t, MaskPattern.VL1]()"],
        ["Reg.LoadAlign(r, p0 + i * 128)",
         "Reg.StoreAlign[uint16_t, StoreDist.DIST_FIRST_ELEMENT_B16](p2 + i, r, one)"],
    ),
    "asc_loadalign_brc and asc_storealign_1st": (
        "c_api", ["r, s, full = vector_uint16_t(), vector_uint16_t(), asc_create_mask_b16(PAT_ALL)"],
        ["asc_loadalign_brc(r, p0 + i)", "asc_loadalign_upsample(s, p1 + i * 64)",
         "asc_storealign_1st(p2 + i, r)", "asc_storealign_pack(p3 + i * 64, s, full)"],
    ),
    "PACK StoreAlign under a tail mask": (
        "reg", ["r = Reg.RegTensor[uint16_t]()"],
        ["m = Reg.UpdateMask[uint16_t](remaining)", "Reg.LoadAlign(r, p0 + i * 128)",
         "Reg.StoreAlign[uint16_t, StoreDist.DIST_PACK_B16](p2 + i * 64, r, m)"],
    ),
    "a nested loop count made in the body": (
        "reg", ["r = Reg.RegTensor[uint16_t]()"],
        ["c, q = Ref(count % 300), Ref(p0 + i * 384)", "for j in range(3):",
         "    m = Reg.UpdateMask[uint16_t](c)",
         "    Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](r, q, 128)",
         "    Reg.StoreAlign(p2 + (i * 3 + j) * 128, r, m)"],
    ),
}  # fmt: skip
"""Loops that docs/performance.md says run batched, as (surface, prelude, body): the C API's
offset forms with a loop-index offset, descending stores, and a scalar shift of a register
written before the loop under a per-iteration mask (each ran eagerly once); the loads' and
stores' single-register distributions, with addresses one element apart (a broadcast load, a
first-element store: rms_norm's forms) or under a tail mask (a packing store: ascend_quant's);
a nested loop whose running count is made anew in each iteration of the batched one."""


@pytest.mark.parametrize("gap", FORMS)
def test_documented_batched_forms_run_batched(gap: str) -> None:
    surface, prelude, body = FORMS[gap]
    accesses = [vp.Access(f"p{k}", "i * 384 + 256", store=k > 1) for k in range(4)]
    name = "gap_" + "_".join(gap.split()).replace("-", "_")
    program = vp.make_program(
        name, surface, ascreg.uint16_t, [*prelude, "remaining = Ref(count)"], body, accesses
    )
    calls = [  # the second call replays the first's plan; the third has another count
        vp.Call(
            n=6,
            count=6 * 128 - cut,
            seed=seed,
            data="bits",
            k=(0, 0),
            h=0,
            slack=dict.fromkeys(program.params, 0),
            offset=0,
        )
        for seed, cut in ((1, 3), (2, 3), (3, 100))
    ]
    for outcome in differential(program, calls):
        assert not outcome.error
        assert outcome.batched, outcome.log


def test_an_undone_attempt_leaves_no_names_bound() -> None:
    """A name the body binds (``t = asc_shiftright_scalar(...)``) is unbound after the VF
    raises in iteration 0 before binding it, as in eager execution.

    The batched attempt runs the whole body (it binds ``t``) and only then, in the kernel's
    aggregate check, finds the missing MTE2 -> V flag; the eager rerun raises the
    ``SyncError`` at the first load.
    """
    prelude = ["r, full = vector_uint16_t(), asc_create_mask_b16(PAT_ALL)", "remaining = Ref(0)"]
    body = ["asc_loadalign(r, p0 + i * 128)", "t = asc_shiftright_scalar(r, 1, full)",
            "asc_storealign(p2 + i * 128, t, full)"]  # fmt: skip
    accesses = [vp.Access("p0", "i * 128", False), vp.Access("p2", "i * 128", True)]
    program = vp.make_program("leaking_vf", "c_api", ascreg.uint16_t, prelude, body, accesses)
    call = vp.Call(n=4, count=0, seed=1, data="bits", k=(0, 0), h=0,
                   slack=dict.fromkeys(program.params, 0), offset=0)  # fmt: skip
    hazard = Hazard("no MTE2->V flag", 0, "p0")

    def runner(*args: Any, eager: bool) -> list[Outcome]:
        return run_kernel(*args, eager=eager, hazard=hazard)

    (outcome,) = differential(program, [call], runner)
    assert outcome.error.startswith("SyncError")

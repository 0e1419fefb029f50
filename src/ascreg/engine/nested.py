"""Nested loops inside a batched loop: the inner loop runs as one batch of outer x inner rows.

A batched loop (:mod:`ascreg.engine.batch`) over *N* iterations runs its body once, each
value holding one row per iteration. A ``for j in range(M)`` loop in that body would run in
order, *M* times over the *N* rows, each op call paying its Python overhead *M* times. When
*M* is the same in every outer iteration (a plain ``range``), the inner loop runs instead as
one *phase* of the batch over ``N x M`` rows, row ``i * M + j`` standing for inner iteration
*j* of outer iteration *i* (eager order):

* when the phase begins, every register the batch wrote (one row per outer iteration) holds
  each row *M* times, and so do the loop index and pointers the inner body reads from the
  outer body (:func:`expand`); the inner index holds ``0 .. M-1`` once per outer iteration;
* a register one op of the inner body reads and then writes (an accumulator: ``Max(m, m,
  x)``) is scanned over the inner iterations in order, all outer iterations at once
  (:func:`scan`); a register carried otherwise (read by one op, written by another), a
  ``Ref`` updated twice in one inner iteration, a post-update address: the phase cannot
  give the eager result;
* a ``Ref`` count the outer body made (or the loop's caller) and the inner body takes down
  with ``UpdateMask`` holds ``max(count - j * lanes, 0)`` in inner iteration *j*
  (:func:`inner_counts`);
* when the phase ends, every register, ``Ref`` and name the inner body assigned holds what
  its last inner iteration left, one row per outer iteration.

Memory accesses keep their order: an access made by the outer body between inner loops, or
by inner iteration *j*, is numbered as the eager iteration it belongs to (:func:`renumber`),
so the batch's checks (memory shared between iterations, the block's checks) see the eager
order. When anything goes wrong the whole batch is undone and runs eagerly
(:class:`Unflattened`), and that inner loop runs in order in later batches. A recorded plan
replays a phase's start and end as steps (:func:`begin`, :func:`end`).

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, float32_t
>>> from ascreg.machine.kernel import __simd_vf__
>>> @__simd_vf__
... def scale_rows(dst, src, rows):
...     x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
...     for i in range(rows):
...         for j in range(4):
...             Reg.LoadAlign(x, src + i * 256 + j * 64)
...             Reg.Add(x, x, x, full)
...             Reg.StoreAlign(dst + i * 256 + j * 64, x, full)
>>> ub = UnifiedBuffer(); a, b = ub.alloc(float32_t, 1024), ub.alloc(float32_t, 1024)
>>> a.write(np.arange(1024, dtype=np.float32)); scale_rows(b, a, 4)
>>> b.read(1024)[[0, 300, 1023]].tolist()
[0.0, 600.0, 2046.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.engine import chains
from ascreg.engine.batch import (
    _ACTIVE,
    MAX_ITERATIONS,
    Batch,
    Fallback,
    RowInts,
    RowPointer,
    Unflattened,
    _layout,
    fallback,
)
from ascreg.machine.ref import EPOCH
from ascreg.machine.registers import MaskReg, RegTensor, storage

MIN_INNER = 2
"""Inner loops with fewer iterations run in order (a phase would save nothing)."""


class Phase:
    """The state of a batch while an inner loop runs flattened (``Batch.phase``)."""

    __slots__ = ("count", "expanded", "m", "read_first", "refs", "registers", "scanned")

    def __init__(self, count: int, m: int, registers: dict[int, Any]) -> None:
        self.count = count
        """The batch's (outer) iteration count."""
        self.m = m
        """The inner loop's iteration count."""
        self.registers = registers
        """The batch's register journal before the phase (the phase keeps its own)."""
        self.expanded: list[tuple[Any, Any]] = []
        """The registers the phase repeated, with what they held (given back at the end)."""
        self.read_first: dict[int, Any] = {}
        """The batch's registers read before it wrote them, before the phase."""
        self.refs: set[int] = set()
        """The ``Ref`` boxes made before the phase that an op of the phase took down (by id)."""
        self.scanned: dict[int, int] = {}
        """The batch's registers scanned before the phase (the phase scans its own)."""

    def merge(self, batch: Batch) -> None:
        """Give *batch* back its journal, with the registers first written in the phase."""
        _merge(batch, self)

    def counts(self, batch: Batch, value: Any, lanes: int, carried: bool) -> Any:
        """:func:`inner_counts` (what ``Batch.carried_count`` asks of a phase)."""
        return inner_counts(batch, value, lanes, carried)


def flatten(site: Any, iterations: Any, inputs: tuple[Any, ...] | None) -> Inner | None:
    """Start the inner loop *site* over *iterations* as a phase of the running batch, or None.

    None (the loop runs in order inside the batch) unless it is a plain ``range`` of at least
    :data:`MIN_INNER` iterations whose body's inputs are known, the site was never refused,
    and the batch runs no other phase and stays within ``MAX_ITERATIONS`` rows.
    """
    batch = _ACTIVE[-1]
    if (
        not site.flatten
        or inputs is None
        or batch.phase is not None
        or type(iterations) is not range
        or (batch.recorder is not None and batch.recorder.inside)
    ):
        return None
    m = len(iterations)
    if m < MIN_INNER or batch.count * m > MAX_ITERATIONS:
        return None
    try:
        expanded = tuple(expand(inputs[k], m) for k in site.locals)
    except Fallback:  # an input it cannot repeat: the loop runs in order
        site.flatten = False
        return None
    inner = Inner(batch, site, iterations, expanded)
    site.ran("flattened")
    return inner


class Inner:
    """A flattened inner loop, as the rewritten loop sees an attempt (``index``, ``finish``).

    ``expanded`` gives the values of the body's local inputs (``Site.locals``) for the phase.
    """

    __slots__ = ("batch", "expanded", "index", "iterations", "site")
    rest = range(0)
    """No iterations run eagerly after it (a flattened loop does not split)."""

    def __init__(
        self, batch: Batch, site: Any, iterations: range, expanded: tuple[Any, ...]
    ) -> None:
        self.batch = batch
        self.site = site
        self.iterations = iterations
        m = len(iterations)
        count = batch.count
        batch.flattened.append(site)
        begin(m)
        recorder = batch.recorder
        if recorder is not None:
            recorder.phase(begin, m)
        self.index = RowInts(np.tile(np.arange(iterations.start, iterations.stop,
                                               iterations.step), count))  # fmt: skip
        self.expanded = expanded

    def finish(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """End the phase; return the inner index's and *values*' last inner iteration's values."""
        batch = self.batch
        m = len(self.iterations)
        end()
        recorder = batch.recorder
        if recorder is not None:
            recorder.phase(end)
        return (self.iterations[-1], *[collapse(v, m) for v in values])

    def abandon(self, error: BaseException) -> None:  # it raises
        """Give up the phase: the inner loop runs in order from now on; undo the whole batch."""
        phase = self.batch.phase
        if phase is not None:
            _merge(self.batch, phase)
        if not isinstance(error, Exception):
            raise error
        self.site.flatten = False
        reason = f"{type(error).__name__}: {error}"
        raise Unflattened(f"{self.site.where} cannot run flattened ({reason})") from error


def begin(m: int) -> None:
    """Start a phase of *m* inner iterations in the running batch (a plan replays it too)."""
    batch = _ACTIVE[-1]
    count = batch.count
    phase = batch.phase = Phase(count, m, batch.registers)
    for reg, _old, _shape in batch.registers.values():
        held = reg.held()
        if _per_row(held):
            phase.expanded.append((reg, held))
            reg.restore(np.repeat(held, m, axis=-2))
    batch.registers = {}
    phase.read_first, batch.read_first = batch.read_first, {}
    phase.scanned, batch.scanned = batch.scanned, {}
    batch.count = count * m
    _new_epoch(batch)
    batch.segment(m)
    batch.renumber = renumber


def end() -> None:
    """End the running batch's phase: each value written in it keeps its last inner row."""
    batch = _ACTIVE[-1]
    phase = batch.phase
    assert phase is not None
    m, rows = phase.m, batch.count
    inner = batch.registers
    for reg, _old, _shape in inner.values():
        held = reg.held()
        if _per_row(held) and held.shape[-2] == rows:
            reg.restore(held[..., m - 1 :: m, :])
    for reg, held in phase.expanded:
        if id(reg) not in inner:
            reg.restore(held)
    for ref, _old in batch.refs.values():
        ref.value = collapse(ref.value, m, rows)
    _merge(batch, phase)
    batch.segment(1, advance=m - 1)
    _new_epoch(batch)


def _merge(batch: Batch, phase: Phase) -> None:
    """Give the batch back its journal, with the registers first written in the phase."""
    journal = phase.registers
    for key, entry in batch.registers.items():
        journal.setdefault(key, entry)  # a register written before keeps its pre-loop value
    for key, read in batch.read_first.items():  # a pre-loop value read in the phase
        if key not in journal:
            phase.read_first.setdefault(key, read)
    batch.registers = journal
    batch.read_first = phase.read_first
    batch.scanned = phase.scanned  # a chain scanned in the phase ends with it
    batch.count = phase.count
    batch.phase = None


def _new_epoch(batch: Batch) -> None:
    """Give ``Ref`` boxes made from now on a new birth mark (one of the batch's)."""
    EPOCH[0] += 1
    batch.epoch = EPOCH[0]
    batch.epochs.add(batch.epoch)


def expand(value: Any, m: int) -> Any:
    """Return *value* with each per-iteration row repeated *m* times (a plain value as it is)."""
    if isinstance(value, RowInts):
        return RowInts(np.repeat(value.values, m))
    if isinstance(value, RowPointer):
        moved = RowPointer.at(value, np.repeat(value.rows, m))
        if value.which is not None:
            raise fallback("a pointer of some iterations only read by an inner loop")
        return moved
    return value


def collapse(value: Any, m: int, rows: int | None = None) -> Any:
    """Return the last inner iteration's row of each outer iteration of *value*.

    *rows*: the phase's row count (a per-iteration array of another length is left as it
    is); None takes any per-iteration value.
    """
    if isinstance(value, RowInts):
        if rows is not None and value.values.size != rows:
            return value
        return RowInts(value.values[m - 1 :: m].copy())
    if isinstance(value, RowPointer):
        if rows is not None and value.rows.size != rows:
            return value
        if value.which is not None:
            raise fallback("a pointer of some iterations only left by an inner loop")
        return RowPointer.at(value, value.rows[m - 1 :: m].copy())
    if type(value) is np.ndarray and value.ndim == 1 and (rows is None or value.size == rows):
        return value[m - 1 :: m]
    return value


_COUNTS: dict[tuple[Any, ...], np.ndarray[Any, Any]] = {}
"""Inner running counts by (start, lanes, outer, inner), shared between batches (read-only)."""


def inner_counts(batch: Batch, value: Any, lanes: int, carried: bool) -> np.ndarray[Any, Any]:
    """Return the running count of an inner ``UpdateMask`` in each row of the phase.

    *value* is what the ``Ref`` holds when the phase first takes it down: one count for every
    outer iteration, or one per outer iteration; *carried*: the ``Ref`` is the loop's
    caller's, never updated in the outer body (its count runs on over every row in order).
    """
    phase = batch.phase
    assert phase is not None
    outer, m = phase.count, phase.m
    if isinstance(value, RowInts):
        value = value.values
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        start = int(value)
        if start < 0 or start >= 1 << 32:
            raise fallback("a count outside uint32_t", scope="layout")
        key = (start, lanes, outer, m, carried)
        counts = _COUNTS.get(key)
        if counts is None:
            if len(_COUNTS) >= 64:
                _COUNTS.clear()
            k = np.arange(outer * m) if carried else np.tile(np.arange(m), outer)
            counts = np.maximum(start - k * lanes, 0)
            counts.flags.writeable = False
            _COUNTS[key] = counts
        return counts
    if type(value) is np.ndarray and value.shape == (outer,) and not carried:
        starts = np.repeat(np.asarray(value, dtype=np.int64), m)
        if starts.size and (starts.min() < 0 or starts.max() >= 1 << 32):
            raise fallback("a count outside uint32_t", scope="layout")
        result: np.ndarray[Any, Any] = np.maximum(starts - np.tile(np.arange(m), outer) * lanes, 0)
        return result
    raise fallback(f"an inner UpdateMask count of type {type(value).__name__}")


_WHICH: dict[tuple[int, int, int, int], np.ndarray[Any, Any]] = {}
"""Eager iteration numbers of whole-row accesses by (rows, slots, cursor, m), read-only."""


def renumber(batch: Batch) -> int:
    """Give the batch's accesses their eager iterations; return how many there are in all.

    Outer iteration *i* has ``slots`` eager iterations: the outer body's accesses before an
    inner loop belong to the same one as the inner loop's first iteration, those after it to
    its last. An access in segment ``(cursor, m)`` made by row *w* is iteration
    ``(w // m) * slots + cursor + w % m``.
    """
    slots = batch.cursor + 1
    marks = batch.segments
    accesses = batch.accesses
    for n, (position, cursor, m) in enumerate(marks):
        stop = marks[n + 1][0] if n + 1 < len(marks) else len(accesses)
        for p in range(position, stop):
            memory, rows, nbytes, write, which, step, span = accesses[p]
            if which is None:
                key = (rows.size, slots, cursor, m)
                fine = _WHICH.get(key)
                if fine is None:
                    if len(_WHICH) >= 256:
                        _WHICH.clear()
                    fine = _number(np.arange(rows.size), slots, cursor, m)
                    fine.flags.writeable = False
                    _WHICH[key] = fine
            else:
                fine = _number(which, slots, cursor, m)
                fine.flags.writeable = False
            accesses[p] = (memory, rows, nbytes, write, fine, step, span)
    return batch.count * slots


def _number(which: Any, slots: int, cursor: int, m: int) -> np.ndarray[Any, Any]:
    which = np.asarray(which, dtype=np.int64)
    numbered: np.ndarray[Any, Any] = (which // m) * slots + cursor + which % m
    return numbered


def scan(op: Any, impl: Any, args: tuple[Any, ...], batch: Batch) -> Any:
    """Run a call that carries a register from one inner iteration to the next, in order.

    The phase's other ops have run on all rows; this call runs once per inner iteration *j*,
    on the rows of iteration *j* of every outer iteration (each operand register's rows
    ``j::m``), the registers it writes holding what the call of iteration *j - 1* left
    (iteration 0: what they held when the phase began): each outer iteration's chain in eager
    order (the same float rounding), all outer iterations at once. Afterwards each register
    it writes holds every row, and no other op of the phase may write it.
    """
    phase = batch.phase
    assert phase is not None
    m, rows = phase.m, batch.count
    for reg, old in reversed(batch.touched):  # undo what the batched call wrote before it saw
        reg.restore(old)
    operands = (storage(a) for a in args if isinstance(a, RegTensor | MaskReg))
    registers = list({id(a): a for a in operands}.values())
    held = [reg.held() for reg in registers]
    if any(_per_row(v) and v.shape[-2] != rows for v in held):
        raise fallback(f"{op.name} carries a register of another row count")
    journal = batch.registers
    # the registers neither the outer body (before the phase) nor the phase has written
    entered = {id(r) for r in registers if id(r) not in journal and id(r) not in phase.registers}
    for reg, value in zip(registers, held, strict=True):  # its writes carry it on, unchecked
        journal.setdefault(id(reg), (reg, value, _layout(reg)))
    chained = _chained(op, args, m, rows)
    if chained is not None:
        acc, partials = chained
        if rows // m > 1 and id(acc) in entered:  # (as the calls one by one would say)
            raise fallback(f"{op.name} carries {type(acc).__name__} across the outer loop too")
        batch.serial += m
        batch.touched.clear()
        acc.restore(partials)
        batch.scanned[id(acc)] = batch.serial
        return None
    written: dict[int, list[Any]] = {}
    batch.count = rows // m
    result = None
    try:
        for j in range(m):
            for reg, value in zip(registers, held, strict=True):
                found = written.get(id(reg))
                if found is not None:
                    reg.restore(found[-1])  # what iteration j - 1 left
                elif _per_row(value):
                    reg.restore(value[..., j::m, :])
            before = [reg.held() for reg in registers]
            batch.serial += 1
            batch.touched.clear()
            result = impl(op, *args)
            for reg, was in zip(registers, before, strict=True):
                now = reg.held()
                if now is not was:
                    written.setdefault(id(reg), []).append(now)
    finally:
        batch.count = rows
    for reg, value in zip(registers, held, strict=True):
        found = written.get(id(reg))
        if found is None:
            reg.restore(value)
            continue
        shape = found[0].shape
        if (
            len(found) != m
            or not _per_row(found[0])
            or shape[-2] != rows // m
            or any(f.shape != shape for f in found)
        ):
            raise fallback(f"{op.name} writes {type(reg).__name__} in some iterations only")
        if rows // m > 1 and id(reg) in entered:
            # not set again by the outer body: each outer iteration's chain starts from what
            # the one before it left, which runs them in order (eagerly)
            raise fallback(f"{op.name} carries {type(reg).__name__} across the outer loop too")
        # iteration j's rows of each outer iteration, back in row order (after the blocks)
        reg.restore(np.stack(found, axis=len(shape) - 1).reshape(*shape[:-2], rows, -1))
        batch.scanned[id(reg)] = batch.serial
    return result


def _chained(
    op: Any, args: tuple[Any, ...], m: int, rows: int
) -> tuple[Any, np.ndarray[Any, Any]] | None:
    """Return the accumulator and its rows after an accumulator step's chain (:mod:`.chains`).

    The other operand holds one row per (outer, inner) iteration; the accumulator one row
    each too (its value at inner iteration 0 is its first row of each outer iteration), or
    one value for all. None when the chain does not apply.
    """
    pair = chains.accumulator(op, args)
    if pair is None:
        return None
    acc, x = pair
    start, steps = acc.held(), x.held()
    if not _per_row(steps) or steps.shape[-2] != rows:
        return None
    lead, lanes = steps.shape[:-2], steps.shape[-1]
    if _per_row(start):
        first = start[..., 0::m, :]
    elif start.ndim == 1:
        first = np.broadcast_to(start, (*lead, rows // m, lanes))
    else:
        return None
    if first.shape != (*lead, rows // m, lanes):
        return None
    split = steps.reshape(*lead, rows // m, m, lanes)
    partials = chains.chain(op, first[..., None, :], split)
    return None if partials is None else (acc, partials.reshape(*lead, rows, lanes))


def _per_row(value: Any) -> bool:
    """Say whether a register's *value* holds one row per iteration.

    ``rows x lanes``, or a block group's ``blocks x rows x lanes``: the rows axis is always
    the second to last.
    """
    return value is not None and value.ndim in (2, 3)

"""Batched hardware loops: one run of a VF loop's body over all of its iterations at once.

:mod:`ascreg.engine.loops` rewrites each ``for i in range(n)`` loop of a ``__simd_vf__``
function that may be batched (see there) into "try the body once with ``i`` standing for every
iteration; if that cannot give the eager result, undo it and run the loop as written". This
module is the run-time half: while a :class:`Batch` is active,

* the loop index is a :class:`RowInts` (one integer per iteration); arithmetic on it gives
  more of them, ``pointer + offset`` gives a :class:`RowPointer` (one address per iteration);
* a register written in the loop holds one row of lanes per iteration (an ``iterations x
  lanes`` array), and the ops compute on those rows with the same core functions;
* a register read before the loop body writes it (a loop-carried value, such as an
  accumulator), a memory byte stored by one iteration and accessed by another, a loop index
  used as a plain number (Python control flow that depends on the iteration), an op whose
  batching rule does not take the call (``ascreg.engine.batching``), or *any* error raise
  :class:`Fallback`;
* :meth:`Batch.abandon` then restores every register, ``Ref``, UB byte and the block's
  bookkeeping (written-byte marks, pipe tracker) as they were before the loop, and the loop
  runs eagerly, so the result, and any error with its message, is exactly the eager one.

On success :meth:`Batch.commit` leaves each register, ``Ref`` and loop variable holding what the
last iteration left in it, as eager execution would.

Whether a loop ran batched is logged at DEBUG level on the ``ascreg.batch`` logger.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t
>>> from ascreg.machine.kernel import __simd_vf__
>>> @__simd_vf__
... def double(dst, src, n):
...     r = Reg.RegTensor[uint16_t]()
...     for i in range(n // 128):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.Add(r, r, r, Reg.CreateMask[uint16_t]())
...         Reg.StoreAlign(dst + i * 128, r, Reg.CreateMask[uint16_t]())
>>> ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
>>> a.write(np.arange(512)); double(b, a, 512); b.read(4), int(b.read(512)[-1])
(array([0, 2, 4, 6], dtype=uint16), 1022)
"""

from __future__ import annotations

import itertools
import logging
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.errors import OutOfBoundsError, get_policy
from ascreg.machine.block import BlockContext, RowsPlan
from ascreg.machine.memory import Memory, Pointer, UbPtr, UnifiedBuffer, strided
from ascreg.machine.ref import EPOCH, Ref
from ascreg.machine.registers import (
    BATCHING,
    MASK_BITS,
    MaskReg,
    RegTensor,
    UnalignRegForLoad,
    storage,
)
from ascreg.machine.sync import PIPE_V, RowsAccess
from ascreg.machine.undefined import UndefinedLanes, undefined_lanes, with_undefined

LOG = logging.getLogger("ascreg.batch")
"""Reports, at DEBUG level, each VF loop that ran batched or eagerly and why."""

MAX_ITERATIONS = 1 << 12
"""Loops with more iterations run eagerly (every register would hold this many rows)."""
MIN_ITERATIONS = 2
"""Loops with fewer iterations run eagerly (a batch would save nothing)."""

Lanes = np.ndarray[Any, Any]


class Fallback(Exception):
    """Raised inside a batched attempt when only eager execution gives the right result.

    ``scope`` says what the reason depends on, and so for which later calls the refusal is
    remembered (:mod:`ascreg.engine.sites`): ``"body"`` (an op of the body that never runs
    batched: every call), ``"form"`` (the body and the form of its inputs: every call of that
    form), ``"layout"`` (the addresses, allocation bounds and values of
    this call: calls with the same ones) or ``"state"`` (the block's or a register's state
    before the loop: not remembered).
    """

    scope = "form"


_ACTIVE: list[Batch] = BATCHING
"""The running batch (at most one: loops inside a batched body are never batched)."""


UNBOUND = type("Unbound", (), {"__repr__": lambda self: "<unbound>"})()
"""What a batched body's name holds at its end when no iteration assigned it (a branch the
body did not take): the rewrite unbinds it again (:mod:`ascreg.engine.loops`)."""


class _PastEnd(Fallback):
    """Raised by the rows of a load some of which run past the allocation's end, inside UB.

    :meth:`RowPointer._lanes` turns it into the load's ``OutOfBoundsError`` (the core then
    reads the rows as one load past the end: :meth:`RowPointer.view_past_allocation`); any
    other access falls back on it, as on any :class:`Fallback`.
    """

    scope = "layout"


class Unflattened(Exception):
    """Raised through a batch whose flattened inner loop could not give the eager result.

    Not a :class:`Fallback`: the batch is undone and runs eagerly this once, without a
    warning and without remembering a refusal; the inner loop runs in order in later batches
    (``Site.flatten``, :mod:`ascreg.engine.nested`).
    """


class Split(Exception):
    """Raised through a batch whose iteration ``count`` first reads bytes an earlier one stores.

    A whole-register load over-reading into another iteration's output, say. Not a
    :class:`Fallback`: the batch is undone and runs again over its first ``count`` iterations,
    which give the eager result, and the loop runs the rest eagerly (in a block group, whose
    VF cannot run eagerly, as another part: ``ascreg.engine.plans.rest``).
    """

    def __init__(self, count: int) -> None:
        super().__init__(f"iteration {count} reads bytes an earlier iteration stores")
        self.count = count


MIN_SPLIT = 2
"""A batch splits only when it keeps at least this many iterations batched."""


class Carried(Fallback):
    """Raised when an op call writes a register it read first: a chain carried by one op.

    :func:`ascreg.engine.batching.batched` catches it and scans the op over the iterations in
    order; anything else undoes the batch, as for any :class:`Fallback`.
    """


ALL_BLOCKS = [False]
"""True while a block group's VF runs once for all its blocks (:mod:`ascreg.engine.groups`):
its loads hold one row of lanes per block and iteration (blocks first); a register keeps one
row per block after its loop (``blocks x 1 x lanes``), a carried register is scanned on every
block's rows at once, and an access outside a batched loop refuses."""


def fallback(reason: str, *, scope: str = "form") -> Fallback:
    """Return the :class:`Fallback` for *reason* (raise it); *scope*: see :class:`Fallback`."""
    error = Fallback(reason)
    error.scope = scope
    return error


# -- values with one entry per iteration --------------------------------------------------------


def _step(name: str, mine: int | None, other: Any, swap: bool) -> int | None:
    """Return the constant difference between iterations of ``self <name> other``, if known."""
    if mine is None:
        return None
    if isinstance(other, RowInts):
        if name in ("add", "sub") and other.step is not None:
            return (
                mine + other.step
                if name == "add"
                else (other.step - mine if swap else mine - other.step)
            )
        return None
    if name in ("add", "sub"):
        return -mine if swap and name == "sub" else mine
    if name == "mul":
        return mine * int(other)
    if name == "lshift" and not swap:
        return mine << int(other)
    return None


def _rows_of(value: Any) -> Any:
    """Return the per-iteration array of a :class:`RowInts`, or *value* if it is an integer."""
    if isinstance(value, RowInts):
        return value.values
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise fallback(f"{type(value).__name__} in loop-index arithmetic")
    return int(value)


def _ctype(self: RowInts, other: Any) -> np.dtype[Any] | None:
    """Return the C integer type of ``self <op> other`` (numpy's promotion), or None (Python).

    Python integers are weak (``uint32_t(i) * 4`` stays ``uint32_t``), as in numpy.
    """
    typed = [t for t in (self.ctype, _ctype_of(other)) if t is not None]
    return np.result_type(*typed) if typed else None


def _ctype_of(value: Any) -> np.dtype[Any] | None:
    if isinstance(value, RowInts):
        return value.ctype
    return value.dtype if isinstance(value, np.integer) else None


def _typed(values: Lanes, ctype: np.dtype[Any] | None) -> None:
    """Raise :class:`Fallback` when *values* leave *ctype*'s range (numpy would wrap there)."""
    if ctype is not None and values.size:
        info = np.iinfo(ctype)
        if values.min() < info.min or values.max() > info.max:
            raise fallback(f"{ctype} arithmetic that wraps in loop-index arithmetic")


def _arith(name: str, swap: bool = False) -> Callable[[RowInts, Any], Any]:
    """Return the binary operator *name* of :class:`RowInts` (integer semantics, as Python).

    With a C integer type on either side (``uint32_t(i)``, a numpy integer) the result has
    numpy's promoted type; a value outside it raises :class:`Fallback` (the eager run wraps).
    """
    apply = getattr(operator, name)
    affine = name in ("add", "sub", "mul")

    def method(self: RowInts, other: Any) -> Any:
        if isinstance(other, Pointer):
            if name == "add":
                return RowPointer.moved(other, self)
            return NotImplemented
        ctype = _ctype(self, other)
        if ctype is not None:
            return _typed_arith(apply, name, self, other, swap, ctype)
        if affine and self.step is not None and type(other) is int:
            # an affine index op an int stays affine: its extremes are its first and last values
            memo, key = self.derived, (name, swap, other)
            if memo is not None and key in memo:
                known: RowInts = memo[key]
                return known
            values = self.values
            ends = [int(values[0]), int(values[-1])]
            if max(abs(apply(other, e) if swap else apply(e, other)) for e in ends) >= _LIMIT:
                raise fallback("loop-index arithmetic beyond 62 bits", scope="layout")
            result = apply(other, values) if swap else apply(values, other)
            made = RowInts(result, _step(name, self.step, other, swap))
            if memo is not None:
                _share(memo, key, made)
            return made
        left, right = (_rows_of(other), self.values) if swap else (self.values, _rows_of(other))
        _check_operands(name, left, right)
        result = apply(left, right)
        if np.abs(result).max(initial=0) >= _LIMIT:
            raise fallback("loop-index arithmetic beyond 62 bits", scope="layout")
        return RowInts(result, _step(name, self.step, other, swap))

    method.__name__ = f"__{'r' if swap else ''}{name}__"
    return method


def _typed_arith(
    apply: Callable[[Any, Any], Any],
    name: str,
    self: RowInts,
    other: Any,
    swap: bool,
    ctype: np.dtype[Any],
) -> RowInts:
    """``self <name> other`` in the C integer type *ctype* (:class:`Fallback` where it wraps)."""
    left, right = (_rows_of(other), self.values) if swap else (self.values, _rows_of(other))
    _check_operands(name, left, right)
    result = apply(left, right)
    _typed(result, ctype)
    plain = int(other) if isinstance(other, np.integer) else other
    return RowInts(result, _step(name, self.step, plain, swap), ctype)


_LIMIT = 1 << 62
"""Loop-index arithmetic stays below this magnitude (int64 then gives Python's results)."""
_SHARED = 16
"""At most this many values are remembered per shared value (:attr:`RowInts.derived`)."""


KEPT_WRITES: list[list[tuple[Memory, int, Lanes]]] = []
"""While a block group's VF runs for all its blocks at once (``ascreg.engine.groups``), the
undo of that VF: each batch that completes adds the bytes its stores replaced (in store order),
so the VF can be undone after a later batch of it fails."""


def _grid_of(rows: Lanes) -> tuple[int, int, int] | None:
    """Return ``(inner, outer step, inner step)`` of byte addresses laid out as a grid, or None.

    A grid is ``rows[i * inner + j] == rows[0] + i * outer step + j * inner step`` with at least
    two rows each way, a positive inner step and an outer step that is not the inner row's
    continuation (evenly spaced rows are not a grid); 0 repeats the inner row (a loop over
    columns inside one over rows, reading the same row of a vector each time).

    Examples
    --------
    >>> _grid_of(np.array([0, 8, 100, 108, 200, 208]))
    (2, 100, 8)
    >>> _grid_of(np.array([0, 8, 0, 8]))
    (2, 0, 8)
    >>> _grid_of(np.array([0, 8, 16, 24])) is None, _grid_of(np.array([0, 8, 100, 116])) is None
    (True, True)
    """
    if rows.size < 4:
        return None
    diffs = np.diff(rows)
    inner_step = int(diffs[0])
    breaks = np.flatnonzero(diffs != inner_step)
    if inner_step <= 0 or breaks.size == 0:
        return None
    inner = int(breaks[0]) + 1
    outer_step = int(rows[inner] - rows[0]) if inner < rows.size else -1
    if inner < 2 or rows.size % inner or outer_step < 0:
        return None
    outer = rows.size // inner
    laid = rows[0] + np.arange(outer)[:, None] * outer_step + np.arange(inner) * inner_step
    if not np.array_equal(rows.reshape(outer, inner), laid):
        return None
    return inner, outer_step, inner_step


def _gathered(typed: Lanes, rows: Lanes, count: int, grid: tuple[int, int, int] | None) -> Lanes:
    """Return a new array of the *count* elements at each byte address of *rows*.

    *typed*'s last axis holds the elements (a block group's UB: one row per block, every
    block's elements at the same addresses). A *grid* of addresses (:func:`_grid_of`) is copied
    through one strided view; other addresses are gathered element by element.
    """
    size = typed.itemsize
    if grid is not None:
        inner, outer_step, inner_step = grid
        outer, first = rows.size // inner, int(rows[0]) // size
        last = first + ((outer - 1) * outer_step + (inner - 1) * inner_step) // size + count
        if last <= typed.shape[-1]:
            lead = typed.shape[:-1]
            view = strided(
                typed, first * size, (*lead, outer, inner, count),
                (*typed.strides[:-1], outer_step, inner_step, size), writeable=False,
            )  # fmt: skip
            copied = np.empty(view.shape, typed.dtype)
            copied[...] = view
            return copied.reshape(*lead, rows.size, count)
    found: Lanes = typed[..., (rows // size)[:, None] + np.arange(count)]
    return found


def _share(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any) -> None:
    """Remember *value* (a RowInts, or an array of addresses) as ``memo[key]``, shared.

    Shared arrays are read-only: an op that wrote into one would raise (and the loop would
    run eagerly) instead of changing what a later batch reads.
    """
    if len(memo) >= _SHARED:
        memo.clear()
    if isinstance(value, RowInts):
        value.values.flags.writeable = False
        value.derived = {}
    else:
        value.flags.writeable = False
    memo[key] = value


def _keep(
    memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], pointer: RowPointer
) -> RowPointer:
    """Remember *pointer* as ``memo[key]`` (a shared value's pointers) and return it."""
    if len(memo) >= _SHARED:
        memo.clear()
    memo[key] = pointer
    return pointer


_INDEXES: dict[tuple[int, int, int], RowInts] = {}
"""Loop indexes by their range (shared between batches: see :attr:`RowInts.derived`)."""


def _index(iterations: range) -> RowInts:
    """Return the loop index of *iterations* (one value per iteration), shared."""
    key = (iterations.start, iterations.stop, iterations.step)
    index = _INDEXES.get(key)
    if index is None:
        if len(_INDEXES) >= 64:
            _INDEXES.clear()
        values = np.arange(iterations.start, iterations.stop, iterations.step)
        values.flags.writeable = False
        index = _INDEXES[key] = RowInts(values, iterations.step)
        index.derived = {}
    return index


def _magnitude(value: Any) -> int:
    return int(np.abs(value).max(initial=0)) if isinstance(value, np.ndarray) else abs(value)


def _check_operands(name: str, left: Any, right: Any) -> None:
    """Raise :class:`Fallback` where int64 arithmetic could differ from Python's integers.

    Python raises on a zero divisor or a negative shift and never overflows; numpy would warn
    or wrap, so those cases run eagerly (where Python raises or computes them).
    """
    if name in ("floordiv", "mod") and not np.all(right != 0):
        raise fallback("a division by zero in loop-index arithmetic", scope="layout")
    if name in ("lshift", "rshift"):
        if np.min(right) < 0 or np.max(right) > 62:
            raise fallback("a shift count outside [0, 62] in loop-index arithmetic", scope="layout")
        if name == "lshift" and _magnitude(left) << int(np.max(right)) >= _LIMIT:
            raise fallback("loop-index arithmetic beyond 62 bits", scope="layout")
    if name == "mul" and _magnitude(left) * _magnitude(right) >= _LIMIT:
        raise fallback("loop-index arithmetic beyond 62 bits", scope="layout")


def _unusable(self: Any, *args: Any) -> Any:
    raise fallback("a loop-dependent value is used as a plain Python value")


class RowInts:
    """An integer with one value per loop iteration (the loop index and what is computed from it).

    Arithmetic with integers gives another ``RowInts``; adding it to a pointer gives a
    :class:`RowPointer`. Using it as one number (``int()``, ``if``, ``range()``, a comparison's
    truth) raises :class:`Fallback`: the body's control flow would differ per iteration.

    Examples
    --------
    >>> i = RowInts(np.arange(4), 1)
    >>> (i * 128 + 1).values.tolist(), (i * 128 + 1).step, ((i - 5) // 2).values.tolist()
    ([1, 129, 257, 385], 128, [-3, -2, -2, -1])
    """

    __slots__ = ("ctype", "derived", "step", "values")
    __ascreg_rows__ = True

    def __init__(
        self, values: Lanes, step: int | None = None, ctype: np.dtype[Any] | None = None
    ) -> None:
        self.values = values
        self.step = step
        """The difference between consecutive iterations' values when it is constant and known
        (the loop index and affine expressions of it), else None."""
        self.ctype = ctype
        """The C integer type of the values (``uint32_t(i)``), or None for Python integers."""
        self.derived: dict[tuple[Any, ...], Any] | None = None
        """For a value shared between batches (a loop index, :func:`_index`, and the affine
        values and pointers made from it), what its arithmetic gave before: a VF called once
        per tile computes the same offsets and addresses every time. None: not shared."""

    def __neg__(self) -> RowInts:
        _typed(-self.values, self.ctype)
        return RowInts(-self.values, None if self.step is None else -self.step, self.ctype)

    def __pos__(self) -> RowInts:
        return self

    def __invert__(self) -> RowInts:
        _typed(~self.values, self.ctype)
        return RowInts(~self.values, None, self.ctype)

    def __ascreg_map__(self, cast: Callable[[Lanes], Lanes]) -> RowInts:
        """``uint32_t(i)``: the values as that C integer type, if the cast keeps every one.

        A cast that changes a value (a wrap, a float type) raises :class:`Fallback`.
        """
        cast_values = cast(self.values)
        if cast_values.dtype.kind not in "iu" or not np.array_equal(cast_values, self.values):
            raise fallback("a C cast of a loop-dependent value that changes it")
        return RowInts(self.values, self.step, cast_values.dtype)

    def __repr__(self) -> str:
        return f"RowInts({self.values.tolist()!r:.60})"

    __int__ = __index__ = __bool__ = __float__ = __hash__ = __format__ = _unusable
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _unusable


for _name in ("add", "sub", "mul", "floordiv", "mod", "lshift", "rshift", "and_", "or_", "xor"):
    _short = _name.rstrip("_")
    setattr(RowInts, f"__{_short}__", _arith(_name))
    setattr(RowInts, f"__r{_short}__", _arith(_name, swap=True))
del _name, _short


class RowPointer(UbPtr[Any]):
    """A ``__ubuf__`` pointer with one address per loop iteration (``rows``, in bytes).

    ``address`` is the first iteration's. Loads and stores through it read or write one row per
    iteration (:meth:`view`); anything else (``p[i]``, ``read``, comparisons) raises
    :class:`Fallback`.
    """

    __slots__ = ("known", "rows", "step", "streams", "which")
    rows: Lanes
    streams: bool
    """Each row starts its own unaligned store stream (an address a ``Ref`` gets per iteration
    in the body, :meth:`Batch.assign`, and the addresses made from it)."""
    step: int | None
    """Bytes between consecutive iterations' addresses when constant and known, else None."""
    which: Lanes | None
    known: dict[Any, Any] | None
    """The facts that depend on the rows alone, worked out once (for each ``(count, write)``
    what :meth:`view` needs, see :meth:`_layout`; for each byte count whether :meth:`fits`)."""

    @classmethod
    def moved(cls, base: Pointer[Any], offset: RowInts | int) -> RowPointer:
        """Return *base* moved by *offset* elements (one count per iteration, or one for all)."""
        if not isinstance(base, UbPtr):
            raise fallback(f"per-iteration offsets of {base!r}")
        size = base.dtype.size
        start: Any = base.address
        step: int | None = 0
        if isinstance(base, RowPointer):
            start, step = base.rows, base.step
        key: tuple[Any, ...] = ()
        memo = None
        if isinstance(offset, RowInts):
            memo = offset.derived
            step = None if step is None or offset.step is None else step + offset.step * size
            if memo is not None and not isinstance(start, np.ndarray) and step is not None:
                # a pointer with a known step is never changed: the same one serves every batch
                # (it keeps its memory and allocation alive, so their ids stay theirs)
                made_key = ("pointer", start, size, id(base.memory), base.dtype, id(base.block))
                made: RowPointer | None = memo.get(made_key)
                if made is not None:
                    return made
                key = ("rows", start, size)  # the addresses depend on these alone
                known = memo.get(key)
                if known is not None:
                    return _keep(memo, made_key, cls.at(base, known, step))
            elements: Any = offset.values
        else:
            elements = offset
        rows = start + elements * size
        if type(rows) is not np.ndarray or rows.dtype != np.int64:
            rows = np.asarray(rows, dtype=np.int64)
        if memo is not None and key:
            _share(memo, key, rows)
            return _keep(memo, made_key, cls.at(base, rows, step))
        return cls.at(base, rows, step)

    @classmethod
    def at(cls, base: Pointer[Any], rows: Lanes, step: int | None = None) -> RowPointer:
        """Return a pointer like *base* (memory, type, allocation) at the byte addresses *rows*.

        *rows* become read-only: a pointer's addresses never change, so a recorded plan that
        keeps the pointer also keeps what the checks worked out from them (:func:`_known_plan`).
        """
        rows.flags.writeable = False
        moved = object.__new__(cls)
        moved.memory, moved.dtype, moved.block = base.memory, base.dtype, base.block
        moved.rows = rows
        moved.step = step
        moved.which = None
        moved.known = None
        moved.streams = type(base) is RowPointer and base.streams
        moved.address = int(rows[0])
        return moved

    def elsewhere(self, memory: Memory, block: Any) -> RowPointer:
        """Return the same addresses in *memory*, in *block* (an allocation of the same bounds).

        What the checks worked out from the addresses and bounds alone is kept; the views of
        the old memory are kept only when *memory* is the same (a queue's next buffer of the
        same bounds: :meth:`view` checks the allocation's liveness every time, and a view is
        used only while the memory's array is the one it views).
        """
        moved = object.__new__(type(self))  # RowPointer.at, without its work: rows are read-only
        moved.memory, moved.dtype, moved.block = memory, self.dtype, block
        moved.rows, moved.step, moved.which = self.rows, self.step, self.which
        moved.address, moved.streams = self.address, self.streams
        known = self.known
        if known is None or memory is self.memory:  # the same facts: one dict serves both
            moved.known = known
        else:
            moved.known = {
                key: (*fact[:-1], None) if type(key) is tuple and type(key[1]) is bool else fact
                for key, fact in known.items()
            }
        return moved

    def __add__(self, n: Any) -> Any:
        if isinstance(n, RowInts):
            return RowPointer.moved(self, n)
        return RowPointer.moved(self, operator.index(n))

    __radd__ = __add__

    def __sub__(self, n: Any) -> Any:
        if isinstance(n, Pointer):
            raise fallback("pointer difference inside a batched loop")
        return self + (-n)

    def offset_bytes(self, nbytes: int) -> Any:
        """Return the pointer moved by *nbytes* bytes in every iteration."""
        return RowPointer.at(self, self.rows + int(nbytes), self.step)

    def cast(self, dtype: Any) -> Any:
        """Return the same addresses viewed as *dtype*."""
        cast = RowPointer.at(self, self.rows, self.step)
        cast.dtype = dtype
        return cast

    def fits(self, nbytes: int) -> bool:
        """Return True when every iteration's access fits its allocation (or memory)."""
        known = self.known
        if known is None:
            known = self.known = {}
        inside = known.get(nbytes)
        if inside is None:  # the span depends on the rows alone; liveness is checked each time
            inside = known[nbytes] = self._inside(*self._span(nbytes))
        block = self.block
        return inside and (block is None or block.live)

    def row(self, k: int) -> RowPointer:
        """Return the pointer of iteration *k* alone (a masked tail store, one row at a time)."""
        single = RowPointer.at(self, self.rows[k : k + 1])
        single.which = self.iterations()[k : k + 1]
        return single

    def write_bytes(self, starts: Lanes, rows: Lanes, data: Lanes) -> None:
        """Write ``data[j]`` (bytes) at ``starts[j]``, a write of the iteration of row ``rows[j]``.

        An unaligned store stream's writes (``ascreg.core.unaligned.store_rows``), in this
        pointer's memory and allocation; reported to the batch as one access.
        """
        memory, width = self.memory, data.shape[-1]
        low, high = int(starts.min()), int(starts.max()) + width
        if self.block is None or not self._holds(low, high):
            raise fallback("an access leaves its allocation in some iteration", scope="layout")
        self._cover(high)
        gaps = np.diff(starts)
        step = int(gaps[0]) if gaps.size and (gaps == gaps[0]).all() else None
        _ACTIVE[-1].access(memory, starts, width, True, self.iterations()[rows], step, (low, high))
        memory.data[..., starts[:, None] + np.arange(width)] = data  # (a group's: every block's)

    def stream_rows(self, register: Any) -> None:
        """Check a store about to continue *register*'s streams, one per row (journal them first).

        ``ascreg.core.unaligned.store_streams``: the batch journals the register when its
        streams start (:meth:`Batch.row_streams`); every row's stream must lie alike in its
        32-byte block (where its held bytes start, or the row), so that the rows write alike.
        """
        _ACTIVE[-1].row_streams(register)
        held = register.held
        begin = register.start if held.ndim > 1 and held.shape[-1] else self.rows
        offsets = begin % 32
        if (offsets != offsets[0]).any():
            raise fallback("unaligned streams placed unlike in their blocks", scope="layout")

    def read_ahead(self, start: int, nbytes: int) -> None:
        """Note that the last iteration reads bytes ``[start, start + nbytes)`` unreported.

        An unaligned load stream's read-ahead block (``ascreg.core.unaligned.load_rows``): the
        eager run reads it in the last iteration, after the other iterations' stores, so the
        batch checks it against those (not reported to the block's checks: eager order does
        not report it either).
        """
        if self.memory.data.ndim != 1:
            raise fallback("an unaligned load stream in a block group", scope="state")
        at = np.array([start], dtype=np.int64)
        _ACTIVE[-1].access(self.memory, at, nbytes, False, self.iterations()[-1:], reported=False)

    def head(self, k: int) -> RowPointer:
        """Return the pointer of the first *k* rows alone."""
        part = RowPointer.at(self, self.rows[:k], self.step)
        part.which = self.iterations()[:k]
        return part

    def rows_fitting(self, nbytes: int) -> int:
        """Return how many leading rows' accesses of *nbytes* fit their allocation (or memory)."""
        block, rows = self.block, self.rows
        if block is None:
            inside = (rows >= 0) & (rows + nbytes <= self.memory.capacity)
        elif block.live:
            inside = (rows >= block.start) & (rows + nbytes <= block.end)
        else:
            return 0
        return int(inside.size if inside.all() else np.argmin(inside))

    def stores_enabled(self, active: Lanes) -> None:
        """Tell the batch that the store just viewed writes each row's enabled lanes only.

        *active*: one flag per lane, per row (or one set for every row; a block group's rows
        of every block count together). Each row's bytes up to its last enabled lane are what
        the batch's overlap check compares (:meth:`Batch.check_memory`).
        """
        _ACTIVE[-1].store_enabled(lambda: self._enabled_widths(active))  # (worked out if asked)

    def _enabled_widths(self, active: Lanes) -> Lanes:
        """Return the bytes from each row's start to the end of its last enabled lane."""
        if active.ndim == 3:  # (a block group's: blocks x rows x lanes)
            active = np.logical_or.reduce(active, axis=0)
        lanes = active.shape[-1]
        last = lanes - np.argmax(active[..., ::-1], axis=-1)  # one past the last enabled lane
        widths = np.where(active.any(axis=-1), last, 0) * self.dtype.size
        if widths.ndim and widths.shape != self.rows.shape:  # (not one mask per row: all lanes)
            return np.full(self.rows.shape, lanes * self.dtype.size, np.int64)
        return np.broadcast_to(widths, self.rows.shape).astype(np.int64)

    def write_enabled(self, values: Lanes, active: Lanes) -> bool:
        """Store the enabled lanes of rows whose whole registers overlap; False: not such rows.

        Rows of different iterations closer than a register (a row's masked tail register
        spans the next row's start, as a kernel's rows of any width not a multiple of the
        register's lanes do) are written lane by lane where enabled, when no two iterations'
        enabled lanes share a byte (else the batch falls back: eager order decides). The
        access reported is each row's whole register, as an eager store's is.
        """
        count = values.shape[-1]
        if self.block is None or active.ndim > 2 or not self._overlapping(count):
            return False  # (masks that differ between blocks; rows apart: the usual path)
        block, rows, size = self.block, self.rows, self.dtype.size
        if (rows % size).any():
            raise fallback("an address in some iteration is not on an element", scope="layout")
        nbytes = count * size
        low, high = int(rows.min()), int(rows.max()) + nbytes
        widths = self._enabled_widths(active)
        order = np.argsort(rows, kind="stable")
        starts, ends = rows[order], rows[order] + widths[order]
        if not block.live or low < block.start or int(ends.max()) > block.end:
            raise fallback("an access leaves its allocation in some iteration", scope="layout")
        if (starts[1:] < ends[:-1]).any():
            raise fallback("stores of different iterations overlap", scope="layout")
        self._cover(high)
        self._report_enabled(nbytes, widths, self.step if rows.size > 1 else 0, (low, high))
        elements = (rows // self.dtype.size)[:, None] + np.arange(count)
        if values.ndim < 2:  # (one register for every row)
            values = np.broadcast_to(values, elements.shape)
        typed = self._typed()
        if values.dtype != typed.dtype:  # (the lanes' bits, as a store writes them)
            values = values.view(typed.dtype)
        # the enabled (row, lane) places in row order, and every block's lanes there: a take
        # along one axis (a boolean index over the last two axes costs 3.5x as much)
        picked = np.flatnonzero(np.broadcast_to(active, elements.shape))
        lanes = values.reshape(*values.shape[:-2], -1).take(picked, axis=-1)
        typed[..., elements.reshape(-1).take(picked)] = lanes  # (every block's rows)
        return True

    def _report_enabled(
        self, nbytes: int, widths: Lanes, step: int | None, span: tuple[int, int]
    ) -> None:
        """Record a masked store of *nbytes* per row as eager order reports it.

        Each row's whole register where it fits the allocation; a row whose register runs
        past the end, up to its last enabled lane (none if none is enabled), on its own.
        """
        batch, rows, end = _ACTIVE[-1], self.rows, self.block.end  # type: ignore[union-attr]
        fits = rows + nbytes <= end
        if fits.all():
            batch.access(self.memory, rows, nbytes, True, self.which, step, span)
            batch.store_enabled(lambda: widths)
            return
        which = self.iterations()
        if fits.any():
            batch.access(self.memory, rows[fits], nbytes, True, which[fits])
            batch.store_enabled(lambda: widths[fits])
        for k in np.flatnonzero(~fits):
            if widths[k]:
                batch.access(self.memory, rows[k : k + 1], int(widths[k]), True, which[k : k + 1])

    def _overlapping(self, count: int) -> bool:
        """Tell whether the whole *count*-element registers of two iterations overlap."""
        known = self.known
        if known is None:
            known = self.known = {}
        found = known.get(("overlapping", count))
        if found is None:
            rows = self.rows
            gaps = np.diff(np.sort(rows)) if rows.size > 1 else np.zeros(0, np.int64)
            found = known["overlapping", count] = bool((gaps < count * self.dtype.size).any())
        return bool(found)

    def iterations(self) -> Lanes:
        """Return the iteration of each address (all, in order, unless this is one row)."""
        which = self.which
        return np.arange(self.rows.size) if which is None else which

    def require_alignment(self, nbytes: int, rule: str) -> None:
        """Raise :class:`Fallback` unless every iteration's address is *nbytes*-aligned.

        The core's accesses ask this of every per-iteration pointer (their test of the
        first ``address`` alone would not see the other rows').
        """
        if not self.is_aligned(nbytes):
            raise fallback(f"a misaligned address in some iteration ({rule})", scope="layout")

    def is_aligned(self, nbytes: int) -> bool:
        """Return True when every iteration's address is a multiple of *nbytes*."""
        known = self.known
        if known is None:
            known = self.known = {}
        key = ("aligned", nbytes)
        aligned = known.get(key)
        if aligned is None:  # the rows alone decide it
            aligned = known[key] = not (self.rows % nbytes).any()
        return aligned

    def view(self, count: int, action: str = "reads") -> Lanes:
        """Return ``iterations x count`` elements at the addresses (a view to write through).

        The access is reported to the batch (:meth:`Batch.access`). What depends on the
        addresses alone (their alignment, span and layout) is worked out once per pointer,
        count and direction; the allocation's liveness and the memory's size every time. Reads
        past the allocation's end raise as :meth:`loaded`'s do.
        """
        return self._lanes(count, action == "writes")[0]

    reads_past_end = True
    """Its whole-register loads may run past the allocation's end (:meth:`view_past_allocation`)."""

    def loaded(self, count: int) -> Lanes:
        """Return a copy of ``iterations x count`` elements (a gather is not copied again).

        Rows that run past the end of the allocation, still inside UB, raise the
        :class:`~ascreg.errors.OutOfBoundsError` of one such load: the load then reads them as
        a load of one register does (:meth:`view_past_allocation`).
        """
        lanes, fresh = self._lanes(count, False)
        loaded = lanes if fresh else lanes.copy()
        context = _watcher(self.memory)
        if context is not None:  # bytes its VF stored before the loop: they race
            batch = _ACTIVE[-1]
            raced = context.raced_rows(self.rows, count * self.dtype.size, batch.accesses[-1][6])
            if raced is not None:
                batch.raced.add(len(batch.accesses) - 1)
                flags = raced[1].reshape(self.rows.size, count, -1).any(axis=2)
                undefined = np.broadcast_to(flags, loaded.shape) | undefined_lanes(loaded)
                return with_undefined(loaded, undefined, raced[0].origin)  # type: ignore[no-any-return]
        return loaded

    def view_past_allocation(self, count: int, action: str) -> tuple[Lanes, Lanes]:
        """Return ``iterations x count`` elements of rows that may run past the allocation.

        What :meth:`~ascreg.machine.memory.Pointer.view_past_allocation` gives one load, per
        row: the UB bytes there and, per element, whether it lies (partly) past the end. The
        batch checks every row's whole span against its other iterations' stores (bytes past
        the end another iteration stores: the batch falls back), but reports to the block's
        checks what eager order does: each row's bytes up to the allocation's end
        (``_inside_parts``).
        """
        block, memory, size = self.block, self.memory, self.dtype.size
        if action != "reads" or block is None:
            raise fallback("an access leaves its allocation in some iteration", scope="layout")
        rows = self.rows
        self._cover(int(rows.max()) + count * size)
        batch = _ACTIVE[-1]
        batch.access(memory, rows, count * size, False, self.which, reported=False)
        for part in self._inside_parts(count * size, block.end):
            batch.access(memory, *part)
        elements = (rows // size)[:, None] + np.arange(count)
        values = self._typed()[..., elements]  # (a block group's: blocks x rows x count)
        past = rows[:, None] + (np.arange(count) + 1) * size > block.end
        return values, past

    def _cover(self, high: int) -> None:
        """Make the memory's data reach byte *high* (a block group's rows cannot grow)."""
        data: Lanes = self.memory.data
        if data.ndim == 2 and high > int(data.shape[-1]):
            raise fallback("an access past the group's UB rows", scope="state")
        if data.ndim == 1 and high > data.size:
            self.memory._grow(high)

    def _typed(self) -> Lanes:
        """Return the memory's data as elements (a block group's: one row of them per block)."""
        typed: Lanes = np.asarray(self.memory.data).view(self.dtype.np_dtype)
        return typed

    def _inside_parts(self, nbytes: int, end: int) -> list[tuple[Lanes, int, bool, Lanes]]:
        """Return the rows' reads of *nbytes* cut at *end*, as accesses (rows, bytes, write, which).

        The rows that end by *end* as one access, then each row that runs past it as one of
        its bytes up to *end* (few: every row starts before *end*). Worked out once per count
        (read-only arrays: a kept plan may compare them).
        """
        known = self.known
        if known is None:
            known = self.known = {}
        found: list[tuple[Lanes, int, bool, Lanes]] | None = known.get(("inside", nbytes, end))
        if found is None:
            rows = self.rows
            which = np.arange(rows.size) if self.which is None else self.which
            ends = rows + nbytes <= end
            found = [(rows[ends], nbytes, False, which[ends])] if ends.any() else []
            for k in np.flatnonzero(~ends):
                found.append((rows[k : k + 1], end - int(rows[k]), False, which[k : k + 1]))
            for part_rows, _, _, part_which in found:
                part_rows.flags.writeable = part_which.flags.writeable = False
            known["inside", nbytes, end] = found
        return found

    def _lanes(self, count: int, write: bool) -> tuple[Lanes, bool]:
        """:meth:`view`, and whether the elements are a new array (gathered) rather than a view."""
        known = self.known
        facts = None if known is None else known.get((count, write))
        if facts is None:
            try:
                facts = self._layout(count, write)
            except _PastEnd as past:  # a load past the end: one register's error (loaded())
                raise OutOfBoundsError(str(past)) from None
        low, high, step, nbytes, start, span, last = facts
        block = self.block
        if block is not None and not block.live:
            raise fallback("an access leaves its allocation in some iteration", scope="layout")
        memory = self.memory
        data = memory.data
        if data.ndim == 2:  # the UB rows of a block group (ascreg.engine.groups), all at once
            _ACTIVE[-1].access(memory, self.rows, nbytes, write, self.which, step, span)
            return self._block_rows(data, count, step, start, write)
        if high > data.size:
            memory._grow(high)
            data = memory.data
        rows = self.rows
        _ACTIVE[-1].access(memory, rows, nbytes, write, self.which, step, span)
        if last is not None and last[0] is data:  # the same array as last time: its view
            cached: Lanes = last[1]
            return cached, False
        np_dtype = self.dtype.np_dtype
        typed = memory._typed.get(np_dtype)  # the cached typed view (Memory.typed)
        if typed is None:
            typed = memory.typed(np_dtype)
        if step is None:
            return _gathered(typed, rows, count, self._grid()), True
        if step == nbytes:  # consecutive rows: one contiguous span
            view = typed[start : start + rows.size * count].reshape(rows.size, count)
        elif step < 0:  # descending rows: the ascending view of the same rows, upside down
            ascending = typed[low // self.dtype.size :]
            view = np.lib.stride_tricks.as_strided(
                ascending, shape=(rows.size, count), strides=(-step, typed.itemsize),
                writeable=write,
            )[::-1]  # fmt: skip
        else:
            view = strided(
                typed, start * typed.itemsize, (rows.size, count), (step, typed.itemsize), write
            )
        # kept for the next call on the same array (a plan's replay makes the same accesses)
        self.known[count, write] = (*facts[:-1], (data, view))  # type: ignore[index]
        return view, False

    def _block_rows(
        self, data: Lanes, count: int, step: int | None, start: int, write: bool
    ) -> tuple[Lanes, bool]:
        """Return ``blocks x iterations x count`` elements: :meth:`view` in every block's row.

        *data* holds one row of UB bytes per block of a group; a store needs a view (evenly
        spaced rows), a load may gather (then the elements are a new array: True).
        """
        typed = np.asarray(data).view(self.dtype.np_dtype)  # blocks x elements, plain
        rows, size = self.rows, self.dtype.size
        if rows.size == 1:  # one iteration: any step views it
            step = count * size
        if step is None or step <= 0:
            if write:
                raise fallback("a block group stores through unevenly spaced rows", scope="state")
            return _gathered(typed, rows, count, self._grid()), True
        strides = (typed.strides[0], step, typed.itemsize)
        if (rows.size - 1) * step + count * size > data.shape[1] - rows[0]:
            raise fallback("an access past the group's UB rows", scope="state")
        view = strided(
            typed, start * typed.itemsize, (typed.shape[0], rows.size, count), strides, write
        )
        return view, False

    def _grid(self) -> tuple[int, int, int] | None:
        """Return :func:`_grid_of` of the rows (a flattened inner loop's), worked out once."""
        known = self.known
        if known is None:
            known = self.known = {}
        if "grid" not in known:
            known["grid"] = _grid_of(self.rows)
        grid: tuple[int, int, int] | None = known["grid"]
        return grid

    def _layout(self, count: int, write: bool) -> tuple[Any, ...]:
        """Check the rows of a *count*-element access; return what :meth:`view` needs.

        That is the span (as two ints and as a tuple), the step, the bytes per row, the first
        element and the contiguous view of the rows made last (with the memory's array it is
        a view of; None until one is made).

        Raises :class:`Fallback` where :meth:`view` cannot give one row per iteration (the
        rows differ in alignment, overlap in a store, or leave the allocation).
        """
        size = self.dtype.size
        nbytes = count * size
        rows = self.rows
        n = rows.size
        step = self.step if n > 1 else 0
        if step is None and (np.diff(rows) == rows[1] - rows[0]).all():
            step = self.step = int(rows[1] - rows[0])
        address = self.address  # rows[0]
        # each row must start on an element (a typed view); the alignment each access needs is
        # checked on every row by the access itself (require_alignment)
        if (
            (step is None and ((rows - address) % size).any())
            or (step or 0) % size
            or address % size
        ):
            raise fallback("an address in some iteration is not on an element", scope="layout")
        if step is None:
            low, high = int(rows.min()), int(rows.max()) + nbytes
        else:  # :meth:`_span`, inline: evenly spaced rows end at address + (n - 1) * step
            last = address + (n - 1) * step
            low, high = (address, last + nbytes) if step >= 0 else (last, address + nbytes)
        if not self._holds(low, high):
            if not write and self._starts_inside(low, high):
                raise _PastEnd("a whole-register load runs past its allocation's end")
            raise fallback("an access leaves its allocation in some iteration", scope="layout")
        if write and n > 1 and (step is None or abs(step) < nbytes):
            raise fallback("stores of different iterations overlap", scope="layout")
        facts = (low, high, step, nbytes, address // size, (low, high), None)
        if self.known is None:
            self.known = {}
        self.known[count, write] = facts
        return facts

    def _span(self, nbytes: int) -> tuple[int, int]:
        """Return the lowest address and one past the highest byte the rows access."""
        rows, step = self.rows, self.step
        if step is None:
            return int(rows.min()), int(rows.max()) + nbytes
        first = self.address  # rows[0]; evenly spaced rows end (n - 1) * step further on
        last = first + (rows.size - 1) * step
        return (first, last + nbytes) if step >= 0 else (last, first + nbytes)

    def _starts_inside(self, low: int, high: int) -> bool:
        """Tell whether every row starts inside the live allocation and all end inside UB."""
        block, rows = self.block, self.rows
        return (
            block is not None
            and block.live
            and isinstance(self.memory, UnifiedBuffer)
            and block.start <= low
            and int(rows.max()) < block.end
            and high <= self.memory.capacity
        )

    def _holds(self, low: int, high: int) -> bool:
        block = self.block
        return self._inside(low, high) and (block is None or block.live)

    def _inside(self, low: int, high: int) -> bool:
        """Return True when ``[low, high)`` lies in the allocation (or memory), live or not."""
        block = self.block
        if block is None:
            return low >= 0 and high <= self.memory.capacity
        return block.start <= low and high <= block.end

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise fallback("a per-iteration pointer used outside a vector load or store")

    bytes = read = write = __getitem__ = __setitem__ = __eq__ = __hash__ = _refuse

    def __repr__(self) -> str:
        return f"<{self.space} {self.dtype.cpp_name}* one address per iteration from {self.address:#x}>"


_COUNTS: dict[tuple[int, int, int], Lanes] = {}
"""Running counts by (start, step, iterations), shared between batches (read-only)."""


def _counts(start: int, step: int, count: int) -> Lanes:
    """Return ``max(start - k * step, 0)`` for each iteration k, shared and read-only.

    A VF called once per tile asks for the same counts each time.
    """
    key = (start, step, count)
    counts = _COUNTS.get(key)
    if counts is None:
        if len(_COUNTS) >= 64:
            _COUNTS.clear()
        counts = np.maximum(start - _index(range(count)).values * step, 0)
        counts.flags.writeable = False
        _COUNTS[key] = counts
    return counts


def current() -> Batch:
    """Return the running batch (only called while one runs)."""
    return _ACTIVE[-1]


# -- the batch ------------------------------------------------------------------------------------


class Batch:
    """One batched attempt at a loop: its iterations, and the journal that undoes it.

    Parameters
    ----------
    site
        The loop (its ``where`` names it in log messages: ``"vf line 12"``).
    iterations
        The loop's ``range``.
    """

    def __init__(self, site: Any, iterations: range) -> None:
        EPOCH[0] += 1
        self.epoch = EPOCH[0]
        self.site = site
        """The loop (:class:`~ascreg.engine.sites.Site`)."""
        self.where = site.where
        self.iterations = iterations
        self.count = len(iterations)
        self.index = _index(iterations)
        self.registers: dict[int, tuple[Any, Any, tuple[int, Any]]] = {}
        """For each register written in the batch (by id), the register, its pre-loop content
        and its lane count and dtype (None for a mask)."""
        self.read_first: dict[int, tuple[Any, int]] = {}
        """The registers (by id) read before the batch wrote them, with the :attr:`serial` of
        the op call that read them first."""
        self.serial = 0
        """The op call running (counted from 1 by :func:`ascreg.engine.batching.batched`)."""
        self.touched: list[tuple[Any, Any]] = []
        """The registers the running op call wrote, with what they held before it."""
        self.scanned: dict[int, int] = {}
        """The registers (by id) carried between iterations by one op's scan, by its serial."""
        self.refs: dict[int, tuple[Ref[Any], Any]] = {}
        """For each Ref the batch changed (by id), the Ref and its value before the loop."""
        self.saved: list[tuple[Memory, int, Lanes]] = []
        """The bytes the batch stored over, as (memory, start, old bytes), to put back."""
        self.streams: dict[int, tuple[Any, dict[str, Any]]] = {}
        """The unaligned registers the batch streams through, with their state before it."""
        self.accesses: list[Access] = []
        """Every access, as (memory, row addresses, bytes per row, write, iterations, step)."""
        self.unreported: set[int] = set()
        """The positions in :attr:`accesses` of those the block's checks are not told of."""
        self.enabled: dict[int, Callable[[], Lanes]] = {}
        """Per position in :attr:`accesses` of a masked store: what gives the bytes each row
        writes, from its start up to its last enabled lane (:meth:`check_memory` asks only
        when the whole registers overlap)."""
        self.raced: set[int] = set()
        """The positions in :attr:`accesses` of the loads whose lanes over bytes their VF
        stored before the loop are undefined (``BlockContext.raced_rows``)."""
        self.recorder: Any = None
        """The :class:`~ascreg.engine.plans.Recorder` of this run's op calls, if it records a
        plan (set by :func:`ascreg.engine.plans.start`)."""
        self.inputs: tuple[Any, ...] | None = None
        """The values of the names the body reads from outside, if known (what a refusal at
        run time is remembered for, :meth:`ascreg.engine.sites.Site.refuse`)."""
        self.replayed = ""
        """Which plan's program runs in this batch instead of the loop body, if any (``"loop"``,
        or ``"whole"`` for the whole VF)."""
        self.watched = False
        """True once an access reached a memory with a hook (a running block's UB)."""
        self.retry: Callable[..., Batch | None] | None = None
        """What starts the attempt anew, over the given iterations or all of them (set by
        :func:`ascreg.engine.plans.start`)."""
        self.rest: range = range(0)
        """The iterations the loop runs eagerly after this batch (:class:`Split`)."""
        self.expanded = None
        """What a flattened inner loop gives its local inputs (never, for a batch)."""
        self.base_epoch = self.epoch
        """The birth mark of the ``Ref`` boxes made in the body before any phase."""
        self.epochs = {self.epoch}
        """The birth marks of the ``Ref`` boxes made in the body (one per phase)."""
        self.phase: Any = None
        """The running phase of a flattened inner loop (:mod:`ascreg.engine.nested`), if any."""
        self.flattened: list[Any] = []
        """The inner loops (sites) this batch ran flattened."""
        self.segments: list[tuple[int, int, int]] = []
        """The segments of the accesses, once an inner loop ran flattened (else empty), each
        as the position of its first access, the eager iteration of its outer iteration it
        starts at and its rows per outer iteration (``nested.renumber``)."""
        self.cursor = 0
        """The eager iteration (within an outer one) the body has reached (phases only)."""
        self.renumber: Callable[[Batch], int] | None = None
        """What numbers the accesses in eager order, once an inner loop ran flattened."""

    def segment(self, m: int, advance: int = 0) -> None:
        """Start a segment of accesses *m* rows per outer iteration, *advance* iterations on."""
        if not self.segments:
            self.segments.append((0, 0, 1))
        self.cursor += advance
        self.segments.append((len(self.accesses), self.cursor, m))

    # -- what the ops' batching rules ask (``ascreg._frontend.rules``) --

    @staticmethod
    def per_iteration(obj: Any) -> bool:
        """Return True for an operand that may differ between iterations, or carries state.

        Registers and masks holding one row per iteration, per-iteration integers and
        pointers, but also every pointer, ``Ref`` and container: an op that is not known to
        take them row by row must not run once for all iterations.
        """
        if isinstance(obj, Pointer | Ref | RowInts | list | tuple | dict):
            return True
        if isinstance(obj, RegTensor | MaskReg):
            held = obj.held()
            return held is not None and held.ndim > 1
        return False

    def address(self, pointer: Any) -> Any:
        """Return *pointer* with one address per iteration (the same one when it is plain)."""
        if isinstance(pointer, RowPointer) or not isinstance(pointer, Pointer):
            return pointer
        rows = np.full(self.count, pointer.address, dtype=np.int64)
        return RowPointer.at(pointer, rows, 0)

    # -- registers and refs --

    def read(self, reg: Any, value: Any) -> None:
        """Note a register read: a pre-loop value read and later written is loop-carried."""
        key = id(reg)
        if key in self.registers:
            return
        if value is None:
            raise fallback(
                f"{type(reg).__name__} is read before anything was written to it", scope="state"
            )
        if type(value) is UndefinedLanes:  # their masks follow the lanes in eager order only
            raise fallback(f"{type(reg).__name__} holds undefined lanes", scope="state")
        if key not in self.read_first:
            self.read_first[key] = (reg, self.serial)

    def write(self, reg: Any, old: Any, new: Any) -> None:
        """Note a register write, keeping its pre-loop content to restore.

        *new* must be one row of the register's lanes, or one row per iteration.
        """
        key = id(reg)
        self.touched.append((reg, old))
        known = self.registers.get(key)
        if known is not None and self.replayed:
            return  # a replay makes the calls its recording checked, on operands of one shape
        if self.phase is not None and key in self.phase.scanned:
            raise fallback(f"{type(reg).__name__} is scanned and written by an inner loop")
        lanes, dtype = _layout(reg) if known is None else known[2]
        shape = new.shape
        if (
            len(shape) not in ((1, 2, 3) if ALL_BLOCKS[0] else (1, 2))
            or shape[-1] != lanes
            or (dtype is not None and new.dtype is not dtype and new.dtype != dtype)
        ):
            raise fallback(f"an op produced {new.dtype}{new.shape} for {type(reg).__name__}")
        if known is not None:
            scanned = self.scanned.get(key)
            if scanned is not None and scanned != self.serial:
                raise fallback(
                    f"{type(reg).__name__} is carried between iterations by one op and "
                    "written by another"
                )
            return
        first = self.read_first.get(key)
        if first is not None:
            name = type(reg).__name__
            if first[1] == self.serial:  # read and written by this very call: a scan
                raise Carried(f"{name} is carried between iterations by one op")
            raise fallback(f"{name} is read before the loop body writes it (loop-carried)")
        self.registers[key] = (reg, old, (lanes, dtype))

    def carried(self, reg: Any, old: Any, rows: Any) -> None:
        """Give *reg* the *rows* a scan of the running op computed (:mod:`ascreg.engine.batching`).

        *reg* is a register that holds its bytes (never a view: :func:`ascreg.engine.batching.scan` gives
        the storage of each); *old* is what it held before the loop (journaled to undo); the
        register may not be written by another op of the body after this one.
        """
        key = id(reg)
        self.scanned[key] = self.serial
        if key not in self.registers:
            self.registers[key] = (reg, old, _layout(reg))
        reg.restore(rows)

    def journal(self, regs: list[Any]) -> None:
        """Journal every register of *regs* at once, as ``wrote`` would before each write.

        A plan's replay journals its input registers up front (a register it only reads is
        journaled as it is: the commit and the undo leave it as it was).
        """
        self.registers.update({id(r): _entry(r) for r in map(storage, regs)})

    def _claim(self, ref: Ref[Any]) -> bool:
        """Journal a ``Ref`` an op updates; return True if it is carried from before the loop.

        A second update of the same carried ``Ref`` in one iteration is eager (its values in
        iteration *k* would depend on how many updates the body makes); a ``Ref`` made in the
        body holds each iteration's own value (a nested loop's running count): its updates
        carry it on, however many there are.
        """
        key = id(ref)
        carried = ref.born not in self.epochs
        if key in self.refs:
            if carried:
                raise fallback("a Ref is updated twice in one iteration")
            return False
        self.refs[key] = (ref, ref.value)
        return carried

    def assign(self, ref: Ref[Any], value: Any) -> None:
        """``ref.value = value`` in the body: from here the ``Ref`` holds each iteration's value.

        Journaled (the undo gives it back its value), and born in the batch: to the ops that
        take it later it is a ``Ref`` the body made, so each iteration starts from its own
        value (a store stream's address set per iteration: every row its own stream). Refused
        in a flattened inner loop.
        """
        if self.phase is not None:
            raise fallback("a Ref's .value is assigned in a flattened inner loop")
        key = id(ref)
        if key not in self.refs:
            self.refs[key] = (ref, ref.value)
        ref.born = self.epoch
        if type(value) is RowPointer:  # an address per iteration: each starts its own stream
            value = RowPointer.at(value, value.rows, value.step)
            value.streams = True
        ref.value = value

    def carried_count(self, ref: Ref[Any], lanes: int) -> Lanes:
        """Return the per-iteration values of a count an ``UpdateMask`` decrements in the loop.

        A pre-loop ``Ref(count)`` seen by one ``UpdateMask`` per iteration holds
        ``max(count - k * lanes, 0)`` in iteration *k*. A count the body computes per iteration
        (a ``RowInts``, or a ``Ref`` made in the body) is taken as it is.
        """
        phase = self.phase
        if phase is not None and ref.born != self.epoch:  # taken down in an inner loop
            key = id(ref)
            if key in phase.refs:
                raise fallback("a Ref is updated twice in one inner iteration")
            phase.refs.add(key)
            from_caller = ref.born not in self.epochs
            if from_caller and key in self.refs:
                raise fallback("a Ref is updated by the outer and the inner loop")
            self.refs.setdefault(key, (ref, ref.value))
            counts: Lanes = phase.counts(self, ref.value, lanes, from_caller)
            return counts
        carried = self._claim(ref)
        value = ref.value
        if isinstance(value, RowInts):
            rows = value.values
        elif type(value) is np.ndarray and value.shape == (self.count,) and not carried:
            rows = value  # what an update in this iteration left (a count made in the body)
        elif isinstance(value, int | np.integer) and not isinstance(value, bool):
            start, step = int(value), lanes if carried else 0
            if start < 0 or start >= 1 << 32:  # the rows lie between start and max(..., 0)
                raise fallback("a count outside uint32_t", scope="layout")
            return _counts(start, step, self.count)
        else:
            raise fallback(f"an UpdateMask count of type {type(value).__name__}")
        if rows.size and (rows.min() < 0 or rows.max() >= 1 << 32):
            raise fallback("a count outside uint32_t", scope="layout")
        return np.asarray(rows, dtype=np.int64)

    def own_streams(self, ref: Ref[Any]) -> bool:
        """Return True if *ref* holds addresses the body set, each iteration its own stream."""
        value = ref.value
        return type(value) is RowPointer and value.streams

    def row_streams(self, register: Any) -> None:
        """Check a store through *register*'s streams, one per iteration; journal it at their start.

        Each iteration's stream starts empty: refused when the register holds bytes from
        before the loop, and in a flattened inner loop (its rows chain). In a block group the
        register holds each block's streams (blocks first).
        :meth:`commit` refuses streams that end an iteration holding bytes (the next
        iteration's first store would lose them).
        """
        if self.phase is not None:
            raise fallback("per-iteration unaligned streams in a flattened inner loop")
        if register.held.ndim > 1:
            return  # (journaled when its streams started)
        if isinstance(register, UnalignRegForLoad) or register.pending:
            raise fallback("an unaligned store stream holding bytes from before the loop")
        if id(register) in self.streams:
            raise fallback("two kinds of stream through one unaligned register")
        self.streams[id(register)] = (register, register.state())

    def _end_streams(self) -> None:
        """Leave each register of per-iteration streams as the last iteration's left it."""
        for register, _state in self.streams.values():
            held = getattr(register, "held", None)  # (a load stream's register holds none)
            if held is None or held.ndim == 1:
                continue
            if held.shape[-1]:
                raise fallback("an iteration's unaligned store stream ends holding bytes")
            register.held = np.zeros(0, dtype=np.uint8)
            register.start = int(register.start[-1])

    def carried_stream(self, ref: Ref[Any], stride: Any, register: Any) -> None:
        """Give an unaligned stream's post-update ``Ref`` one pointer per iteration (in place).

        An unaligned store (``StoreUnAlign(Ref(dst), src, ureg, stride)``) or load
        (``LoadUnAlign(dst, ureg, Ref(src), stride)``) in every iteration continues the stream
        of the one before: the ``Ref`` must be carried from before the loop, and no other call
        of the body may stream through *register*, whose state (the bytes it holds) the batch
        puts back if it is undone. Refused in a block group (each block's register would hold
        its own bytes).
        """
        if ALL_BLOCKS[0]:
            raise fallback("an unaligned stream in a block group", scope="state")
        if id(register) in self.streams:
            raise fallback("two calls of the body stream through one unaligned register")
        before = ref.value
        self.carried_pointer(ref, stride)
        if not isinstance(ref.value, RowPointer) or ref.value.step != stride * before.dtype.size:
            raise fallback("an unaligned stream whose address is not carried")
        self.streams[id(register)] = (register, register.state())

    def carried_pointer(self, ref: Ref[Any], stride: Any) -> None:
        """Give a post-update address ``Ref`` one pointer per iteration (in place).

        A pre-loop ``Ref(p)`` advanced by *stride* elements once per iteration holds
        ``p + k * stride`` in iteration *k*; one made in the body holds what it was made with.
        """
        if type(stride) is not int:
            raise fallback("a post-update stride that is not a plain int")
        if self.phase is not None:
            raise fallback("a post-update address in a flattened inner loop")
        carried = self._claim(ref)
        value = ref.value
        if isinstance(value, RowPointer) or not isinstance(value, UbPtr):
            if carried or not isinstance(value, RowPointer):
                raise fallback(f"a post-update address {value!r:.60}")
            return
        step = stride * value.dtype.size if carried else 0
        rows = value.address + np.arange(self.count, dtype=np.int64) * step
        ref.value = RowPointer.at(value, rows, step)

    # -- memory --

    def access(
        self,
        memory: Memory,
        rows: Lanes,
        nbytes: int,
        write: bool,
        which: Lanes | None = None,
        step: int | None = None,
        span: tuple[int, int] | None = None,
        *,
        reported: bool = True,
    ) -> None:
        """Record one access per iteration (*which*: their iterations, None: all in order).

        Journals the bytes a store overwrites and reports the access to the block's checks
        (not with *reported* False: a read the batch checks against its own stores only).
        *span*: the lowest address and one past the highest byte, when the caller knows them.
        """
        if span is None:
            span = int(rows.min()), int(rows.max()) + nbytes
        if write:  # (``...``: a block group's UB holds one row of bytes per block)
            low, high = span
            self.saved.append((memory, low, memory.data[..., low:high].copy()))
        if not reported:
            self.unreported.add(len(self.accesses))
        self.accesses.append((memory, rows, nbytes, write, which, step, span))
        hook = memory.on_access
        if hook is not None:
            if not isinstance(getattr(hook, "__self__", None), BlockContext):
                raise fallback("a memory watched by another checker")
            self.watched = True

    def report(self, plan: RowsPlan | None = None, count: int | None = None) -> None:
        """Report the accesses to the blocks' checks in aggregate, one group per op.

        :meth:`BlockContext.access_rows` checks them as eager order would see them (why that
        is the same outcome is explained there) or says it is unsure; then this raises
        :class:`Fallback`, the batch is undone, and the eager run meets (and raises) the
        exact error of the first failing access. What depends on the accesses alone (their
        groups, eager ranks and static checks) is planned once (*plan*: the kept one,
        :func:`_known_plan`).
        """
        if plan is None:
            context, positions = self._reported()
            if context is None:
                return
            plan = _new_plan(self, positions, self.count if count is None else count)
        else:  # every access is to one memory: its block is the one to report to
            context = _watcher(self.accesses[0][0])
            if context is None:
                return
        # no checkpoint to undo: access_rows changes the block only when it returns True, and
        # nothing after it in commit() can fail
        if not context.access_rows(plan, self.raced):
            raise fallback("the block's checks need the accesses one by one", scope="state")

    def _reported(self) -> tuple[BlockContext | None, list[int]]:
        """Return the block the accesses report to and their positions (those it watches)."""
        context: BlockContext | None = None
        positions = []
        for position, access in enumerate(self.accesses):
            ctx = _watcher(access[0])
            if ctx is None or position in self.unreported:
                continue
            if context is None:
                context = ctx
            elif ctx is not context:
                raise fallback("accesses to the UB of more than one block", scope="state")
            positions.append(position)
        return context, positions

    def check_memory(self) -> None:
        """Raise :class:`Fallback` if an iteration stores bytes another iteration accesses.

        Unless eager order reads them before it stores them, as the batch does: a load made by
        an op before the store's, in an iteration before the storing one. When a later
        iteration reads bytes an earlier one stores (the masked-off tail of a whole-register
        load running into another iteration's output), this raises :class:`Split` at the first
        such iteration: the iterations before it give the eager result batched, and eager order
        runs the rest (its loads of the stored bytes race with the stores as they always do).
        A masked store counts the bytes up to each row's last enabled lane (:attr:`enabled`).
        """
        accesses, enabled = self.accesses, self.enabled
        split: int | None = None
        for mine, store in enumerate(accesses):
            if not store[3]:
                continue
            low, high = store[6]
            for theirs, other in enumerate(accesses):
                # a store's own rows never overlap (view() refuses overlapping rows, and
                # write_enabled rows whose enabled lanes meet), and accesses whose whole spans
                # are apart cannot overlap in any iteration
                if other is store or other[0] is not store[0]:
                    continue
                start, end = other[6]
                if not (start < high and low < end and _cross_iteration(store, other)):
                    continue
                widths = [None if w is None else w() for w in (enabled.get(mine), enabled.get(theirs))]  # fmt: skip
                masked = widths[0] is not None or widths[1] is not None
                # a load the block's checks see races with a store's whole span in eager order
                # (masked-off lanes too): those spans decide, not the enabled lanes
                checked = not other[3] and theirs not in self.unreported
                if masked and not checked and not _cross_iteration(store, other, *widths):
                    continue
                first = None
                if not other[3] and theirs < mine and self.renumber is None:
                    first = _first_reading_after(store, other, *([] if checked else widths))
                    if first is None:
                        continue  # each iteration reads the bytes before another stores them
                if first is None or first < (1 if ALL_BLOCKS[0] else MIN_SPLIT):  # (a group's
                    # parts batch with one iteration: its blocks are rows enough)
                    raise fallback(
                        "an iteration accesses UB bytes another iteration stores", scope="layout"
                    )
                split = first if split is None else min(split, first)
        if split is not None:
            raise Split(split)

    def store_enabled(self, widths: Callable[[], Lanes]) -> None:
        """Note that the store just recorded writes only what *widths* gives of each row.

        *widths* returns the bytes from each row's start to the end of its last enabled lane.
        """
        position = len(self.accesses) - 1
        if self.accesses[position][3]:
            self.enabled[position] = widths

    # -- ending --

    def commit(self) -> None:
        """Check what only the whole batch shows, then leave the last iteration's state."""
        self._end_streams()
        self._check()
        self._last_rows()
        self._close()

    def _check(self) -> None:
        """:meth:`check_memory` and :meth:`report`, once per set of accesses.

        A kept plan (:func:`_known_plan`) was made of the same accesses after they passed
        :meth:`check_memory` (which depends on nothing else): only the block's checks remain.
        """
        if self.renumber is None:
            self._check_accesses(self.count)
            return
        try:  # numbered in eager order, outer x inner (``nested.renumber``)
            self._check_accesses(self.renumber(self))
        except Fallback as refused:  # perhaps only because of the flattened inner loops
            for site in self.flattened:
                site.flatten = False
            raise Unflattened(f"flattened inner loops: {refused}") from refused

    def _check_accesses(self, count: int) -> None:
        plan = _known_plan(self.accesses, count)
        if plan is None or self.enabled:  # (what masks enable changes from run to run)
            self.check_memory()
        if self.watched:  # a block's UB: its checks see the accesses (else there are none)
            self.report(plan, count)

    def end(self) -> None:
        """:meth:`commit` for a batch whose registers and ``Ref`` boxes nobody reads after it.

        A whole VF's replay (:class:`ascreg.engine.plans.Whole`): its registers die with it.
        """
        self._end_streams()
        self._check()
        self._close()

    def _last_rows(self) -> None:
        """Leave every register and ``Ref`` the batch wrote holding its last iteration's value."""
        # the last row, a view: ops replace a register's array, never write into it
        for reg, _old, _layout in self.registers.values():
            held = reg.held()
            if held is not None and held.ndim == 2:
                reg.restore(held[-1])
            elif held is not None and held.ndim == 3:  # a block group's: one row per block
                reg.restore(held[:, -1:])
        for ref, _old in self.refs.values():
            ref.value = self.last(ref.value)

    def _close(self) -> None:
        _ACTIVE.pop()
        if KEPT_WRITES:  # a block group's VF: its undo keeps what this batch's stores replaced
            KEPT_WRITES[-1].extend(self.saved)
        self.site.ran("replayed" if self.replayed else "batched")
        if LOG.isEnabledFor(logging.DEBUG):
            LOG.debug(
                "%s: batched over %d iterations%s",
                self.where, self.count, _REPLAYED[self.replayed],
            )  # fmt: skip

    def finish(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """:meth:`commit`, then return the loop variable's and *values*' final values.

        *values* are what the names the body assigns hold after the batched body. A run that
        recorded its op calls leaves its plan with the loop (:mod:`ascreg.engine.plans`).
        """
        recorder = self.recorder
        if any(value is UNBOUND for value in values):
            recorder = None  # (a plan keeps values; "unassigned" is not one)
        plan = None if recorder is None else recorder.plan(self, values)  # before commit: an
        self.commit()  # error in either undoes the batch
        self.recorder = None
        if plan is not None:  # (a split range's head is not the whole VF's loop)
            self.site.keep(plan, recorder, self.iterations, whole=not self.rest)
        return (self.final_index(), *[self.last(v) for v in values])

    def last(self, value: Any) -> Any:
        """Return what *value* (a loop variable) holds after the last iteration."""
        if isinstance(value, RowInts):
            return int(value.values[-1])
        if isinstance(value, RowPointer):
            plain = object.__new__(UbPtr)
            plain.memory, plain.dtype, plain.block = value.memory, value.dtype, value.block
            plain.address = int(value.rows[-1])
            return plain
        if isinstance(value, np.ndarray) and value.shape == (self.count,):
            return int(value[-1])
        return value

    def final_index(self) -> int:
        """Return the loop variable after the loop (the last iteration's index)."""
        return self.iterations[-1]

    def abandon(self, error: BaseException, *, replay: bool = False) -> Batch | None:
        """Undo everything the attempt changed; the caller then runs the loop eagerly.

        *replay*: the attempt replayed a plan (the caller then runs the loop without it).
        Returns None, or, when only a flattened inner loop failed (:class:`Unflattened`), a
        new attempt at the loop (its inner loops then run in order), when it can start.
        """
        self.recorder = None
        if self.phase is not None:
            self.phase.merge(self)
        for memory, start, old in reversed(self.saved):
            memory.data[..., start : start + old.shape[-1]] = old
        for reg, old, _layout in self.registers.values():
            reg.restore(old)
        for ref, old in self.refs.values():
            ref.value = old
        for register, state in self.streams.values():
            register.put_state(state)
        _ACTIVE.pop()
        if isinstance(error, Unflattened) and not replay and self.retry is not None:
            LOG.debug("%s: tried again, its inner loops in order (%s)", self.where, error)
            return self.retry()
        if isinstance(error, Split) and not replay and self.retry is not None:
            LOG.debug("%s: tried again up to %s, then the rest", self.where, error)
            whole = self.iterations  # (a part already: the loop ends where its rest does)
            if self.rest:
                whole = range(whole.start, self.rest.stop, whole.step)
            self.site.split(whole, self.inputs, error.count)  # the next run starts with it
            head = self.retry(self.iterations[: error.count])
            if head is not None:  # (a part of that part, if one split before)
                head.rest = whole[len(head.iterations) :]
            return head
        refused = isinstance(error, Fallback)
        reason = str(error) if refused else f"{type(error).__name__}: {error}"
        what = "its plan is not replayed" if replay else "runs eagerly"
        LOG.debug("%s: %s (%s)", self.where, what, reason)
        if not replay and not ALL_BLOCKS[0]:  # (a block group's VF runs again block by block)
            if refused:  # remembered for the calls it depends on: no second attempt at them
                self.site.refuse(self.iterations, self.inputs, error.scope, reason)  # type: ignore[attr-defined]
            self.site.eager(reason, warn=refused)
        if not isinstance(error, Exception):
            raise error
        return None


_REPLAYED = {"": "", "loop": " (a recorded plan)", "whole": " (a recorded plan of the whole VF)"}
"""How the log says what a batch ran (:attr:`Batch.replayed`)."""


def _watcher(memory: Any) -> BlockContext | None:
    """Return the block whose checks watch *memory*, or None.

    :meth:`Batch.access` refuses a memory any other checker watches, so past it the hook is
    a block's.
    """
    hook = memory.on_access
    return None if hook is None else hook.__self__


def _layout(reg: Any) -> tuple[int, Any]:
    """Return the lane count and numpy dtype of a register (``(256, None)`` for a mask)."""
    if isinstance(reg, RegTensor):
        return reg.lanes, reg.dtype.np_dtype
    return MASK_BITS, None


def _entry(reg: Any) -> tuple[Any, Any, tuple[int, Any]]:
    """Return the journal entry of *reg* as it is now: itself, its content, its layout."""
    if isinstance(reg, MaskReg):
        return reg, reg.held(), (MASK_BITS, None)
    return reg, reg.held(), (reg.lanes, reg.dtype.np_dtype)


Access = tuple[Memory, Lanes, int, bool, Lanes | None, int | None, tuple[int, int]]


def _first_reading_after(
    store: Access, read: Access, widths: Lanes | None = None, read_widths: Lanes | None = None
) -> int | None:
    """Return the first iteration whose *read* meets bytes an earlier iteration's *store* wrote.

    None when every overlap is read by an iteration before the storing one. *widths*,
    *read_widths*: the bytes each row accesses, where not every row's whole width.
    """
    _, rows, width, _, stored_in, _, (low, high) = store
    _, others, other_width, _, read_in, _, _ = read
    reach = other_width if read_widths is None else read_widths
    near = np.flatnonzero((others < high) & (others + reach > low))  # (few, usually)
    begins = others[near][None, :]
    ends: Any = width if widths is None else widths[:, None]
    other_ends: Any = other_width if read_widths is None else read_widths[near][None, :]
    overlap = (rows[:, None] < begins + other_ends) & (begins < rows[:, None] + ends)
    storer = np.arange(rows.size) if stored_in is None else stored_in
    reader = (np.arange(others.size) if read_in is None else read_in)[near]
    overlap &= storer[:, None] < reader[None, :]
    hit = overlap.any(axis=0)
    return int(reader[hit].min()) if hit.any() else None


def _cross_iteration(
    store: Access, other: Access, widths: Lanes | None = None, other_widths: Lanes | None = None
) -> bool:
    """Return True if iteration k's *store* overlaps iteration j's *other* access, j != k.

    *widths*, *other_widths*: the bytes each row accesses, where not every row's whole width
    (a masked store's).
    """
    _, rows, width, _, mine, step, _ = store
    _, others, other_width, _, theirs, other_step, _ = other
    count = rows.size
    ends: Any = width if widths is None else widths[:, None]  # (bytes from each row's start)
    other_ends: Any = other_width if other_widths is None else other_widths[None, :]
    regular = mine is None and theirs is None and others.size == count
    whole = widths is None and other_widths is None  # (else the rows' own widths: below)
    if count > 1 and regular and whole and step is not None and step > 0 and other_step == step:
        # iteration j's access starts d + (j - k) * step after iteration k's store
        d = int(others[0] - rows[0])
        lowest = (-other_width - d) // step + 1
        highest = -((d - width) // step) - 1
        lowest, highest = max(lowest, 1 - count), min(highest, count - 1)
        return lowest <= highest and not lowest == highest == 0
    starts = np.asarray(rows)[:, None]
    begins = np.asarray(others)[None, :]
    overlap = (starts < begins + other_ends) & (begins < starts + ends)
    first = np.arange(rows.size) if mine is None else mine
    second = np.arange(others.size) if theirs is None else theirs
    overlap &= first[:, None] != second[None, :]
    return bool(overlap.any())


_PLANS: dict[tuple[int, int], tuple[list[Any], list[Any], list[Any], RowsPlan]] = {}
"""Report plans of batches whose accesses are all to one memory through read-only (shared)
arrays, by (id of the first access's rows, iteration count): each with what it was made of,
per access its rows, its iterations (``which``) and its (width, kind, step, span). A kept plan
keeps its arrays alive, so an id always names the same unchanged array."""
_MEMORY, _ROWS, _WHICH, _SHAPE = (operator.itemgetter(0), operator.itemgetter(1),
                                  operator.itemgetter(4), operator.itemgetter(2, 3, 5, 6))  # fmt: skip
"""The parts of an access (:data:`Access`) a kept plan is compared by."""


def _known_plan(accesses: list[Access], count: int) -> RowsPlan | None:
    """Return the kept plan of *accesses* if one was made of the same accesses, else None.

    The same arrays (by identity), widths, kinds, steps and spans, all to one memory: the
    plan :func:`_new_plan` would make now (it depends on nothing else), for every access.
    """
    if not accesses:
        return None
    found = _PLANS.get((id(accesses[0][1]), count))
    if found is None:
        return None
    rows, which, shapes, plan = found
    same = (
        list(map(_SHAPE, accesses)) == shapes  # compares the lengths too
        and all(map(operator.is_, map(_ROWS, accesses), rows))
        and all(map(operator.is_, map(_WHICH, accesses), which))
        and all(map(operator.is_, map(_MEMORY, accesses), itertools.repeat(accesses[0][0])))
    )
    return plan if same else None


def _new_plan(batch: Batch, positions: list[int], count: int) -> RowsPlan:
    """Make the report plan of the accesses at *positions*; keep it if :func:`_known_plan` can."""
    accesses = batch.accesses
    groups = []
    for position in positions:
        _, rows, nbytes, write, which, step, (low, high) = accesses[position]
        groups.append(
            RowsAccess(PIPE_V, low, high, write, 0, rows=rows, width=nbytes, which=which, step=step)
        )
    _eager_ranks(groups, count)
    plan = RowsPlan(groups, positions)
    keep = len(positions) == len(accesses) and all(
        access[0] is accesses[0][0]
        and _shared(access[1])
        and (access[4] is None or _shared(access[4]))
        for access in accesses
    )
    if keep:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        made = (list(map(_ROWS, accesses)), list(map(_WHICH, accesses)))
        _PLANS[id(accesses[0][1]), count] = (*made, list(map(_SHAPE, accesses)), plan)
    return plan


def _shared(values: Lanes) -> bool:
    return not values.flags.writeable


def _eager_ranks(groups: list[RowsAccess], count: int) -> None:
    """Rank each group's rows in eager order (by iteration, then op), from 1.

    Sets each group's ``ranks``, and its ``seq`` and ``order`` to its highest and lowest rank.
    Two accesses in a row that are the same access are one record in eager order (the later
    extends the earlier): their groups get ``merged`` and ``orders`` (:class:`RowsAccess`).
    """
    ops = len(groups)
    if all(g.which is None and g.rows.size == count for g in groups):  # every op, every iteration
        # each op's access, then the next op's; iteration k's last, then k + 1's first
        previous, shift, merges = groups[-1], 1, False
        for group in groups:
            merges = merges or _meets(previous, group, shift)
            previous, shift = group, 0
        if not merges:
            for j, (group, column) in enumerate(zip(groups, _grid(count, ops), strict=True)):
                group.ranks = column
                group.order, group.seq = j + 1, (count - 1) * ops + j + 1
            return
    k = np.concatenate([np.arange(g.rows.size) if g.which is None else g.which for g in groups])
    p = np.concatenate([np.full(g.rows.size, j) for j, g in enumerate(groups)])
    order = np.lexsort((p, k))
    ranks = np.empty(order.size, dtype=np.int64)
    ranks[order] = np.arange(1, order.size + 1)
    starts = np.concatenate([g.rows for g in groups])[order]
    kinds = np.concatenate([np.full(g.rows.size, g.width * 2 + g.write) for g in groups])[order]
    extends = np.zeros(order.size, dtype=bool)  # in eager order: extends the access before it
    extends[1:] = (starts[1:] == starts[:-1]) & (kinds[1:] == kinds[:-1])
    merged = orders = None
    if extends.any():
        merged, orders = np.empty_like(extends), np.empty_like(ranks)
        merged[order] = np.append(extends[1:], False)
        orders[order] = np.arange(1, order.size + 1) - np.cumsum(extends)
    offset = 0
    for group in groups:
        rows = slice(offset, offset + group.rows.size)
        group.ranks = ranks[rows]
        group.seq = int(group.ranks.max())
        if merged is not None and orders is not None:
            group.merged, group.orders = merged[rows], orders[rows]
            group.order = int(group.orders.min())
        else:
            group.order = int(group.ranks.min())
        offset += group.rows.size


_GRIDS: dict[tuple[int, int], list[Lanes]] = {}


def _grid(count: int, ops: int) -> list[Lanes]:
    """Return the eager ranks of *ops* accesses per iteration, one column per op.

    Rank ``k * ops + j + 1`` is op *j*'s access in iteration *k*; the columns are shared
    between batches (read-only).
    """
    columns = _GRIDS.get((count, ops))
    if columns is None:
        if len(_GRIDS) >= 64:
            _GRIDS.clear()
        grid = np.arange(1, count * ops + 1).reshape(count, ops)
        grid.flags.writeable = False
        columns = _GRIDS[count, ops] = [grid[:, j] for j in range(ops)]
    return columns


def _meets(one: RowsAccess, then: RowsAccess, shift: int) -> bool:
    """Return True if row k of *one* and row k + *shift* of *then* are the same access."""
    if one.write != then.write or one.width != then.width:
        return False
    if one.step is not None and one.step == then.step:  # two evenly spaced rows: compare one
        return int(one.rows[0]) == int(then.rows[0]) + shift * one.step
    size = one.rows.size - shift
    return bool((one.rows[:size] == then.rows[shift : shift + size]).any())


def enter(site: Any, iterations: Any, *, quiet: bool = False) -> Batch | None:
    """Start a batched attempt at the loop *site* over *iterations*, or return None (eager).

    *site* is the loop's :class:`~ascreg.engine.sites.Site`, which counts an eager run and
    says why (a loop inside a running batch runs inside it: not an eager run). *quiet*: say
    nothing (a plan's replay asks first, then the loop itself).
    """
    if _ACTIVE:
        if not quiet:
            site.ran("inside")
        return None
    if not isinstance(iterations, range):
        return None
    policy = get_policy()
    if policy.execution == "eager" or policy.undefined != "error":
        if not quiet:
            reason = (
                f"the policy says execution={policy.execution!r}, undefined={policy.undefined!r}"
            )
            LOG.debug("%s: runs eagerly (%s)", site.where, reason)
            site.eager(reason, warn=False)
        return None
    count = len(iterations)
    fewest = 1 if ALL_BLOCKS[0] else MIN_ITERATIONS  # (a group's blocks are rows enough)
    if not fewest <= count <= MAX_ITERATIONS:
        if not quiet:
            LOG.debug("%s: runs eagerly (%d iterations)", site.where, count)
            many = count > MAX_ITERATIONS
            limit = f"more than {MAX_ITERATIONS}" if many else f"fewer than {MIN_ITERATIONS}"
            site.eager(f"{count} iterations ({limit})", warn=many)
        return None
    batch = Batch(site, iterations)
    _ACTIVE.append(batch)
    return batch

"""Divergent control flow run vectorised: a kernel's syntax tree rewritten into masked form.

The vectorised tier runs a block's kernel once with one numpy lane per thread. Python control
flow needs one answer, so a kernel whose ``if`` or ``while`` condition differs between threads
used to be re-run one thread at a time. :func:`masked_version` instead rewrites the kernel
function's syntax tree once (cached per code object) so that it runs as the hardware does: every
lane under an *active mask* (``Group.active`` of :mod:`~ascreg.machine.simt.engine`, ``None``
when every lane is active), both sides of a branch under complementary masks, a loop until no
lane is still iterating.

======================================  ==========================================================
Python construct                        masked form (``_ascreg_f`` is the call's :class:`Frame`)
======================================  ==========================================================
``if c: A else: B``                     ``c`` is tested over the active lanes: all true runs ``A``,
                                        all false runs ``B``, a mix runs ``A`` under ``c`` and then
                                        ``B`` under ``~c``
``while c: A``                          iterates while any lane's ``c`` holds; lanes whose ``c``
                                        fails leave the loop (inactive until it ends)
``for x in range(a, b, s): A``          as Python when ``a, b, s`` agree over the active lanes,
                                        else a per-lane counted loop; ``x`` has the type of a
                                        typed ``a`` (:func:`counter_type`), else ``int64`` lanes
``return`` / ``break`` / ``continue``   the active lanes leave (the function / the loop / the
                                        iteration); the statements after them run for the others
``x = v``, ``x op= v``                  ``x = where(active, v, x)`` (a merge), also for pointers
``p[i] = v``, ``p[i]`` (memory)         only the active lanes store and load (the pointers do it)
``a if c else b``, ``and``, ``or``,     per lane, each side evaluated under its own mask
``not``, ``a < b < c``
======================================  ==========================================================

Atomics, warp functions and ``asc_syncthreads`` read the same mask (see their modules).

What the rewrite cannot express makes the block run one thread at a time, as before, and says
so: a :class:`~ascreg.errors.SlowPathWarning` once per kernel (after the block ran, so a
warning filter set to ``"error"`` never hides the kernel's own error) and an INFO record once per
place on the ``ascreg.simt`` logger (``logging.getLogger("ascreg.simt")``). The cases: a function
whose source is not available (a lambda, code built at run time) or that uses ``yield``, ``await``
or ``match``; at run time, a value that cannot be merged per lane (a list, a per-lane function
result, values of two types whose union would round), ``asc_syncthreads`` reached by part of the
block, a helper of library code or without source that branches on a thread-varying value (the
user's own helpers, marked ``__simt_callee__`` or not, are rewritten too: :func:`helper`), and
any exception raised while only part of the block is active (the one-thread tier then reports
it exactly as it always did).

A ``while`` loop that runs :data:`SPIN_ITERATIONS` iterations in a row without progress (the same
running lanes, the same values of every name its body assigns, no store that changed memory)
spins on something that only another warp of the block could change, and the lockstep run holds
that warp at the end of the same loop. The block then runs one thread at a time, where a thread
whose loop makes no progress for :data:`YIELD_AFTER` iterations lets the other threads run
(:meth:`_Runtime.turn`) as the chip's independent warp scheduling does; if no thread can make
progress any more, the block raises :class:`SpinError` instead of hanging.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, int32_t
>>> from ascreg.machine.simt.engine import dim3, run_simt_kernel, threadIdx
>>> out = GlobalMemory().alloc(int32_t, 6)
>>> def k(out):
...     t = threadIdx.x
...     v = 0
...     if t % 3 == 0:
...         v = 10
...     elif t % 3 == 1:
...         return
...     else:
...         v = -1
...     out[t] = v
>>> run_simt_kernel(k, dim3(1), dim3(6), 0, (out,))
>>> out.read(6).tolist()
[10, 0, -1, 10, 0, -1]
"""

from __future__ import annotations

import ast
import copy
import inspect
import logging
import operator
import os
import sysconfig
import textwrap
import types
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg.errors import AscregError
from ascreg.machine.memory import Pointer
from ascreg.machine.simt.engine import Journal, activate, wrap_pointer
from ascreg.machine.simt.lanes import STATE, DivergenceSignal, Lanes, weak_to_match
from ascreg.machine.simt.vectors import VectorValue

Arr = np.ndarray[Any, Any]
LOG = logging.getLogger("ascreg.simt")
"""Where the engine says that a block runs one thread at a time, and why (once per place)."""
PREFIX = "_ascreg_"
"""Prefix of every name the rewrite introduces (no double underscore: no name mangling)."""
_told: set[tuple[Any, ...]] = set()
SPIN_ITERATIONS = 200
"""Iterations in a row without progress after which a masked ``while`` loop counts as a spin."""
YIELD_AFTER = 8
"""Iterations in a row without progress after which a thread of the per-thread tier yields."""


def tell_once(key: tuple[Any, ...], message: str) -> None:
    """Log *message* at INFO level on the ``ascreg.simt`` logger, once per *key*.

    Examples
    --------
    >>> tell_once(("doc", 1), "said once")
    """
    if key not in _told:
        _told.add(key)
        LOG.info(message)


class Unbound:
    """The value of a local the kernel has not assigned yet (merges keep the new value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = Unbound()


# -- the runtime of a rewritten kernel --------------------------------------------------------------


class SpinWatch:
    """What a ``while`` loop of the per-thread tier left last time round (see :meth:`_Runtime.turn`).

    Examples
    --------
    >>> SpinWatch().still
    0
    """

    __slots__ = ("changes", "state", "still")

    def __init__(self) -> None:
        self.state: tuple[Any, ...] | None = None
        self.changes = -1
        self.still = 0


class Loop:
    """The lanes of one running loop: at entry, still iterating, left with ``break``/``continue``.

    A ``while`` loop also keeps what its last iteration left (``state``: a fingerprint of the
    names its body assigns, ``stored``: the journal length, ``still``: iterations in a row
    without progress) for the spin check of :meth:`Frame.next`.
    """

    __slots__ = ("broken", "continued", "entry", "running", "state", "still", "stored")

    def __init__(self, entry: Arr | None, running: Arr) -> None:
        self.entry = entry
        self.running = running
        self.broken = np.zeros_like(running)
        self.continued = np.zeros_like(running)
        self.state: tuple[Any, ...] | None = None
        self.still = 0
        self.stored = 0


class LaneRange:
    """``range(start, stop, step)`` whose bounds differ between the active lanes.

    *kind* is the counter's integer type (:func:`counter_type`), or None for ``int64`` lanes.
    """

    __slots__ = ("kind", "start", "step", "stop")

    def __init__(self, start: Any, stop: Any, step: Any, kind: np.dtype[Any] | None) -> None:
        self.start, self.stop, self.step, self.kind = start, stop, step, kind


def counter_type(bounds: tuple[Any, ...]) -> np.dtype[Any] | None:
    """Return the integer type of a ``range(start, stop[, step])`` counter: its typed start's.

    A C++ loop ``for (uint32_t i = uint32_t(threadIdx.x); i < n; i += blockDim.x)`` is ported as
    ``for i in range(uint32_t(threadIdx.x), n, blockDim.x)``: the counter is a ``uint32_t`` in
    both tiers (a template such as ``Simt::UintDiv<T>`` deduces ``T`` from it, and its arithmetic
    wraps as C++'s does). A start without a type (a Python ``int``, or ``range(n)``) leaves the
    counter a Python ``int`` (per thread) or ``int64`` lanes (vectorised).

    Examples
    --------
    >>> counter_type((np.uint32(3), 10)), counter_type((3, np.uint32(10))), counter_type((5,))
    (dtype('uint32'), None, None)
    """
    if len(bounds) < 2:
        return None
    kind = getattr(bounds[0], "dtype", None)
    return kind if isinstance(kind, np.dtype) and kind.kind in "iu" else None


def typed_range(*bounds: Any) -> Any:
    """``range(*bounds)`` whose values have the type :func:`counter_type` gives (per thread).

    Raises :class:`~ascreg.errors.AscregError` when a value of the range does not fit that
    type (C++ would wrap the counter and loop differently).

    Examples
    --------
    >>> [type(i).__name__ for i in typed_range(np.uint16(1), 3)], list(typed_range(2))
    (['uint16', 'uint16'], [0, 1])
    >>> [i.tolist() for i in typed_range(np.array([7], np.uint32).view(Lanes), 9)]
    [[7], [8]]
    >>> list(typed_range(np.uint32(2), -2, -1))
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: range(): the loop counter has its start's type uint32, which cannot hold -1 (the C++ counter would wrap): give the start a type that holds every value, or a plain int
    """
    counted = range(*bounds)
    kind = counter_type(bounds)
    if kind is None:
        return counted
    return _typed_values(counted, kind, isinstance(bounds[0], Lanes))


def _typed_values(counted: range, kind: np.dtype[Any], varying: bool) -> Iterator[Any]:
    """Yield the values of *counted* as *kind*, raising at one that *kind* cannot hold.

    One-lane :class:`Lanes` if *varying* (as ``threadIdx.x`` is per thread), else numpy scalars.
    """
    info = np.iinfo(kind)
    for value in counted:
        _check_fits(kind, np.array([value]), info)
        yield np.array([value], kind).view(Lanes) if varying else kind.type(value)


def _check_fits(kind: np.dtype[Any], values: Arr, info: np.iinfo[Any] | None = None) -> None:
    """Raise unless every one of the counter's *values* fits *kind*.

    The error names the first value that does not fit (the lowest thread's).
    """
    info = np.iinfo(kind) if info is None else info
    outside = (values < info.min) | (values > info.max)
    if outside.any():
        raise AscregError(
            f"the loop counter has its start's type {kind}, which cannot hold "
            f"{int(values[np.argmax(outside)])} (the C++ counter would wrap): give the start a "
            "type that holds every value, or a plain int",
            call="range()",
        )


_COMPARE = {
    "Lt": operator.lt,
    "LtE": operator.le,
    "Gt": operator.gt,
    "GtE": operator.ge,
    "Eq": operator.eq,
    "NotEq": operator.ne,
}


class Frame:
    """One call of a rewritten kernel: the active mask lives on the running group.

    The methods are what the rewritten code calls (see the module table); every mask is a
    boolean array with one entry per lane of the group, ``None`` meaning every lane.

    Examples
    --------
    >>> Frame.__name__
    'Frame'
    """

    __slots__ = ("bound", "entry", "group", "loops", "n", "result", "returned")

    def __init__(self) -> None:
        group = STATE.group
        self.group = group
        self.n = group.size
        self.entry: Arr | None = group.active  # a helper's caller may be in divergent code
        self.returned: Arr | None = None
        self.result: Any = UNBOUND
        self.loops: list[Loop] = []
        self.bound: dict[str, Arr] = {}
        """The lanes that hold a value of a local first bound in divergent code (by name)."""

    def value(self) -> Any:
        """Leave the function: the lanes active at the call are active again; return its result.

        The result holds, per lane, what each lane returned. (An exception leaves the mask as
        it is: the engine then knows it was raised in divergent code.)
        """
        self._set(self.entry)
        return None if self.result is UNBOUND else self.result

    # masks ------------------------------------------------------------------------------------

    def full(self, mask: Arr | None) -> Arr:
        """*mask* as an array (``None``: every lane)."""
        return np.ones(self.n, dtype=bool) if mask is None else mask

    def _set(self, mask: Arr | None) -> None:
        """Make *mask* the active mask (an all-true one becomes ``None``)."""
        if mask is not None and mask.all():
            mask = None
        activate(self.group, mask)

    def _gone(self) -> Arr | None:
        """Lanes that left the current scope: returned, or broke/continued the innermost loop."""
        gone = self.returned
        if self.loops:
            loop = self.loops[-1]
            left = loop.broken | loop.continued
            gone = left if gone is None else gone | left
        return gone

    def alive(self) -> bool:
        """Return whether some lane is still active (guards the statements after a leaving one)."""
        active = self.group.active
        return active is None or bool(active.any())

    def test(self, condition: Any) -> Any:
        """Return True/False when *condition* agrees over the active lanes, else where it holds.

        The mask returned in the divergent case holds the active lanes where it is true.
        """
        if not isinstance(condition, Lanes) or condition.size != self.n or self.n == 1:
            return bool(condition)
        holds = np.asarray(condition).astype(bool).reshape(-1)
        active = self.group.active
        if active is None:
            if holds.all():
                return True
            return holds if holds.any() else False
        holds = holds & active
        if not holds.any():
            return False
        return True if (holds == active).all() else holds

    # branches --------------------------------------------------------------------------------

    def enter(self, mask: Arr) -> Arr | None:
        """Start the true side of a divergent branch; return the mask to come back to."""
        saved: Arr | None = self.group.active
        self._set(mask)
        return saved

    def other(self, saved: Arr | None, mask: Arr) -> bool:
        """Switch to the false side: the saved lanes outside *mask* that have not left."""
        rest = self.full(saved) & ~mask
        gone = self._gone()
        self._set(rest if gone is None else rest & ~gone)
        return self.alive()

    def leave(self, saved: Arr | None) -> None:
        """End a divergent branch: the saved lanes that have not left."""
        gone = self._gone()
        self._set(saved if gone is None else self.full(saved) & ~gone)

    def pick(self, condition: Any, then: Callable[[], Any], otherwise: Callable[[], Any]) -> Any:
        """``then() if condition else otherwise()`` per lane."""
        holds = self.test(condition)
        if holds is True:
            return then()
        if holds is False:
            return otherwise()
        saved = self.enter(holds)
        try:
            first = then()
            self._set(self.full(saved) & ~holds)
            second = otherwise()
        finally:
            self._set(saved)
        return blend(holds, first, second)

    def and_(self, first: Any, *rest: Callable[[], Any]) -> Any:
        """``first and rest[0]() and ...`` per lane."""
        return self._logic(first, rest, keep_going=True)

    def or_(self, first: Any, *rest: Callable[[], Any]) -> Any:
        """``first or rest[0]() or ...`` per lane."""
        return self._logic(first, rest, keep_going=False)

    def _logic(self, value: Any, rest: tuple[Callable[[], Any], ...], *, keep_going: bool) -> Any:
        for i, operand in enumerate(rest):
            holds = self.test(value)
            if holds is not True and holds is not False:
                go_on = holds if keep_going else self.full(self.group.active) & ~holds
                saved = self.enter(go_on)
                try:
                    later = self._logic(operand(), rest[i + 1 :], keep_going=keep_going)
                finally:
                    self._set(saved)
                return blend(go_on, later, value)
            if holds is not keep_going:
                return value
            value = operand()
        return value

    def void(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func(args)`` as a statement: the call may know that its value is dropped.

        ``Group.discarding`` holds *func* during the call (an atomic then skips computing the
        old values nobody reads).
        """
        group = self.group
        previous, group.discarding = group.discarding, func
        try:
            return helper(func)(*args, **kwargs)
        finally:
            group.discarding = previous

    @staticmethod
    def call(func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func(args)``: a plain Python helper of the user's runs in masked form too."""
        return helper(func)(*args, **kwargs)

    def not_(self, value: Any) -> Any:
        """``not value`` per lane."""
        if isinstance(value, Lanes) and value.size > 1:
            return np.logical_not(np.asarray(value)).view(Lanes)
        return not value

    def chain(self, operands: tuple[Callable[[], Any], ...], ops: tuple[str, ...]) -> Any:
        """Return ``a < b <= c ...`` per lane (each operand evaluated once, lazily)."""
        left = operands[0]()
        right = operands[1]()
        result = _COMPARE[ops[0]](left, right)
        if len(ops) == 1:
            return result
        holder = [right]

        def rest() -> Any:
            return self.chain((lambda: holder[0], *operands[2:]), ops[1:])

        return self.and_(result, rest)

    # leaving ---------------------------------------------------------------------------------

    def ret(self, value: Any) -> bool:
        """``return value`` by the active lanes; True when every lane of the call has returned."""
        active = self.group.active
        if value is not None or self.result is not UNBOUND:
            self.result = value if active is None else self.merge(value, self.result, _RESULT)
        active = self.full(active)
        self.returned = active.copy() if self.returned is None else self.returned | active
        self._set(np.zeros(self.n, dtype=bool))
        return bool(self.returned[self.full(self.entry)].all())

    def brk(self) -> None:
        """``break`` by the active lanes."""
        loop = self.loops[-1]
        loop.broken |= self.full(self.group.active)
        self._set(np.zeros(self.n, dtype=bool))

    def cont(self) -> None:
        """``continue`` by the active lanes."""
        loop = self.loops[-1]
        loop.continued |= self.full(self.group.active)
        self._set(np.zeros(self.n, dtype=bool))

    # loops -------------------------------------------------------------------------------------

    def loop(self) -> Loop:
        """Start a loop over the active lanes."""
        entry = self.group.active
        loop = Loop(entry, self.full(entry).copy())
        self.loops.append(loop)
        return loop

    def keep(self, loop: Loop, condition: Any) -> bool:
        """Test a ``while`` condition: the running lanes where it holds go on; return if any."""
        holds = self.test(condition)
        if holds is True:
            return True
        if holds is False:
            loop.running = np.zeros(self.n, dtype=bool)
            self._set(loop.running)
            return False
        loop.running = holds
        self._set(holds)
        return True

    def next(self, loop: Loop, state: tuple[Any, ...] | None = None, line: int = 0) -> bool:
        """End an iteration: lanes that continued come back; return whether any lane runs.

        A ``while`` loop passes *state*, the values of the names its body assigns, and its
        *line*: an iteration that changed neither them, the running lanes nor memory counts
        towards :data:`SPIN_ITERATIONS`, after which the block runs one thread at a time.
        """
        running = loop.running & ~loop.broken
        if self.returned is not None:
            running &= ~self.returned
        loop.running = running
        loop.continued[:] = False
        self._set(running)
        if state is not None:
            self._check_spin(loop, (running.tobytes(), *state), line)
        return bool(running.any())

    def _check_spin(self, loop: Loop, state: tuple[Any, ...], line: int) -> None:
        journal = self.group.journal
        entries = journal.entries if journal is not None else []
        fingerprint = _fingerprint(state)
        stored = any(
            not np.array_equal(Journal.now(memory, start, old), old)
            for memory, start, old in entries[loop.stored :]
        )
        same = fingerprint is not None and not stored and fingerprint == loop.state
        loop.still = loop.still + 1 if same else 0
        loop.state, loop.stored = fingerprint, len(entries)
        if loop.still >= SPIN_ITERATIONS:
            raise DivergenceSignal(f"the while loop at line {line} spins on another warp")

    def end(self, loop: Loop) -> bool:
        """Leave the loop: its entry lanes that did not return or break (for an ``else``)."""
        self.loops.pop()
        lanes = self.full(loop.entry) & ~loop.broken
        if self.returned is not None:
            lanes &= ~self.returned
        self._set(lanes)
        return self.alive()

    def done(self, loop: Loop) -> None:
        """After a loop (and its ``else``): its entry lanes that did not return."""
        if self.returned is None:
            self._set(loop.entry)
        else:
            self._set(self.full(loop.entry) & ~self.returned)

    def range(self, *bounds: Any) -> Any:
        """``range(...)``: a Python range when the bounds agree over the active lanes."""
        if not any(isinstance(b, Lanes) and b.size > 1 for b in bounds):
            return typed_range(*bounds)
        kind = counter_type(bounds)
        active = self.group.active
        lanes = [np.broadcast_to(np.asarray(b).astype(np.int64), (self.n,)) for b in bounds]
        chosen = [b if active is None else b[active] for b in lanes]
        if all((c == c[0]).all() for c in chosen if c.size):
            agreed = tuple(int(c[0]) if c.size else 0 for c in chosen)
            if kind is None:
                return typed_range(*agreed)
            first = np.array([agreed[0]], kind).view(Lanes)  # still thread-varying
            return typed_range(first, *agreed[1:])
        start, stop, step = (
            (np.zeros(self.n, np.int64), lanes[0], np.ones(self.n, np.int64))
            if len(lanes) == 1
            else (*lanes, np.ones(self.n, np.int64))[:3]
        )
        if (np.asarray(step)[self.full(active)] == 0).any():
            raise DivergenceSignal("range() with a zero step")
        return LaneRange(start.view(Lanes), stop, step, kind)

    def iterate(self, loop: Loop, iterable: Any) -> Any:
        """Return the values of a ``for`` loop: *iterable* itself, or per-lane counting."""
        if isinstance(iterable, LaneRange):
            return self._count(loop, iterable)
        return iterable

    def _count(self, loop: Loop, lanes: LaneRange) -> Iterator[Any]:
        value, stop, step, kind = lanes.start, lanes.stop, lanes.step, lanes.kind
        up = step > 0
        rising = bool(up.all())  # the usual loop: one comparison per trip
        while True:
            more = value < stop if rising else np.where(up, value < stop, value > stop)
            more = more.view(Lanes)
            if not self.keep(loop, more):
                return
            if kind is None:
                yield value
            else:
                _check_fits(kind, np.asarray(value)[self.full(self.group.active)])
                yield value.astype(kind).view(Lanes)
            value = (value + step).view(Lanes)

    # assignment ------------------------------------------------------------------------------

    def merge(self, new: Any, old: Any, name: str | None = None) -> Any:
        """Return the value of ``x = new`` where ``x`` held *old*: *new* on the active lanes.

        *name* (the local's name) lets a local first bound in divergent code take *new*
        whole, of any type, while no lane outside the active ones holds a value of it (C's
        uninitialised variable: its other lanes are never read). Otherwise the lanes outside
        the active mask keep *old* (:func:`blend`).
        """
        active = self.group.active
        if new is old:
            return new
        if active is None:
            if name is not None and self.bound:
                self.bound.pop(name, None)
            return value_copy(new)
        if old is UNBOUND:
            if name is not None:
                self.bound[name] = active.copy()
            return value_copy(new)
        if name is not None:
            bound = self.bound.get(name)
            if bound is not None:
                self.bound[name] = bound | active
                if not (bound & ~active).any():  # only active lanes hold a value: replace
                    return value_copy(new)
        return blend(active, new, old)

    def setitem(self, target: Any, index: Any, value: Any) -> None:
        """``target[index] = value`` (memory masks its own stores; other containers merge)."""
        if self.group.active is not None and not getattr(target, "masks_stores", False):
            if isinstance(target, Pointer):  # a pointer the engine did not wrap (a global)
                raise DivergenceSignal("a store through a pointer that is not lane-aware")
            try:
                old = target[index]
            except (IndexError, KeyError):
                old = UNBOUND
            value = self.merge(value, old)
        target[index] = value

    def setattr(self, target: Any, name: str, value: Any) -> None:
        """``target.name = value`` under the active mask (a merge with the old value)."""
        if self.group.active is not None:
            value = self.merge(value, getattr(target, name, UNBOUND))
        setattr(target, name, value)


_LIBRARY = tuple(
    {
        os.path.dirname(os.path.dirname(os.path.dirname(__file__))) + os.sep,  # ascreg itself
        *(sysconfig.get_paths()[key] + os.sep for key in ("stdlib", "platstdlib", "purelib")),
        *(sysconfig.get_paths()[key] + os.sep for key in ("platlib",)),
    }
)
"""Where library code lives (ascreg, the standard library, installed packages): not a helper
the masked form rewrites."""
_USER: dict[types.CodeType, bool] = {}


def helper(func: Any) -> Any:
    """Return the masked form of a user's helper function (or method), else *func* itself.

    A plain Python function of the user's (its code outside ascreg, the standard library and
    installed packages) called from masked code may branch on a thread-varying value: it runs
    in masked form, as a ``__simt_callee__`` does. Other callables are returned unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> helper(len) is len, helper(np.clip) is np.clip  # library code runs as it is
    (True, True)
    """
    kind = type(func)
    if kind is types.MethodType:
        made = helper(func.__func__)
        return func if made is func.__func__ else types.MethodType(made, func.__self__)
    if kind is not types.FunctionType:
        return func
    code = func.__code__
    user = _USER.get(code)
    if user is None:
        name = code.co_filename
        user = _USER[code] = not name.startswith(_LIBRARY)  # without source: runs as it is
    if not user or PREFIX + "rt" in code.co_freevars:  # library code, or masked already
        return func
    return masked_version(func, wrap_pointer)


def _fingerprint(values: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Return comparable copies of *values* (lanes, scalars, pointers); None if one is opaque."""
    out: list[Any] = []
    for value in values:
        if isinstance(value, np.ndarray | np.generic):
            out.append((value.dtype.str, np.shape(value), value.tobytes()))
        elif isinstance(value, Pointer):
            out.append(("pointer", id(value.memory), value.address))
        elif value is None or value is UNBOUND or isinstance(value, int | float | str | bytes):
            out.append(value)
        else:
            return None  # cannot tell whether it changed: count as progress
    return tuple(out)


def _is_value(x: Any, lanes: int) -> bool:
    # np.ndarray.size, not x.size: a vector type's class attribute ``size`` is its sizeof
    return isinstance(x, np.generic | int | float | bool) or (
        isinstance(x, np.ndarray) and _SIZE(x) in (1, lanes)
    )


def _as_assigned(merged: Arr, mask: Arr, new: Any, old: Any) -> Arr:
    """Return *merged* in the integer type of the assigned value *new* when nothing is lost.

    ``x = v`` gives ``x`` the type of ``v`` (the per-thread tier rebinds the name), but
    ``np.where`` promotes: ``i = uint32_t(i)`` on the ``int64`` counter of a per-lane ``range``
    would stay ``int64`` on every lane, and a later ``uint64`` offset plus ``i`` would become a
    float. So when *new* has an integer type and every lane that keeps *old* holds a value of
    that type, the merge takes it; otherwise (a value would change) numpy's promotion stays.

    Examples
    --------
    >>> m = np.array([True, False])
    >>> _as_assigned(np.where(m, np.uint32(7), np.array([1, 2])), m, np.uint32(7), np.array([1, 2])).dtype
    dtype('uint32')
    >>> _as_assigned(np.where(m, np.uint32(7), np.array([1, -2])), m, np.uint32(7), np.array([1, -2])).dtype
    dtype('int64')
    """
    target = getattr(new, "dtype", None)
    if target is None or merged.dtype == target or target.kind not in "iu":
        return merged
    kept = np.asarray(old)
    if kept.dtype.kind not in "iub":
        return merged
    kept = kept[~mask] if kept.ndim else kept.reshape(1)
    if kept.size:
        bounds = np.iinfo(target)
        if int(kept.min()) < bounds.min or int(kept.max()) > bounds.max:
            return merged
    return merged.astype(target)


_SIZE = np.ndarray.size.__get__


def blend(mask: Arr, new: Any, old: Any) -> Any:
    """Per lane: *new* where *mask* holds, else *old* (numbers, lanes, pointers, tuples of them).

    Two numpy values of different types share one array of their common type when that is an
    integer type holding both exactly (``int32`` and ``uint32`` lanes become ``int64``, as
    numpy's arithmetic on the two would); where the common type is a float type (``float32``
    and ``float64``, ``int64`` and ``uint64``) later arithmetic would round differently in some
    lanes: that is a :class:`DivergenceSignal`. A Python number takes the other side's type.

    Examples
    --------
    >>> import numpy as np
    >>> blend(np.array([True, False]), np.int32(1), np.int32(2))
    Lanes([1, 2], dtype=int32)
    >>> blend(np.array([True, False]), (np.int32(1), 5), (np.int32(2), 6))
    (Lanes([1, 2], dtype=int32), Lanes([5, 6]))
    """
    if _is_value(new, mask.size) and _is_value(old, mask.size):
        new, old = weak_to_match(new, old), weak_to_match(old, new)  # a Python int per lane
        a, b = getattr(new, "dtype", None), getattr(old, "dtype", None)
        if a is not None and b is not None and a != b and not _exact_union(a, b):
            raise DivergenceSignal(
                f"a {a} and a {b} value cannot be merged per lane (one array holds one type, "
                "and theirs would round)"
            )
        if isinstance(new, VectorValue):
            return np.where(mask, new, old).view(type(new))
        return _as_assigned(np.where(mask, new, old), mask, new, old).view(Lanes)
    if new is old:
        return new
    if type(new) is tuple and type(old) is tuple and len(new) == len(old):
        return tuple(blend(mask, a, b) for a, b in zip(new, old, strict=True))
    offsets = _pointer_offsets(new, old)
    if offsets is None:
        raise DivergenceSignal(
            f"a {type(new).__name__} and a {type(old).__name__} cannot be merged per lane"
        )
    base, new_off, old_off = offsets
    return _lane_pointer(base, np.where(mask, new_off, old_off))


def _exact_union(a: np.dtype[Any], b: np.dtype[Any]) -> bool:
    """Tell whether lanes of types *a* and *b* merge exactly (an integer common type)."""
    if a.names is not None or b.names is not None:
        return False
    return a.kind in "biu" and b.kind in "biu" and np.promote_types(a, b).kind in "iu"


def _as_lane_offsets(p: Any) -> tuple[Any, Any] | None:
    """Return ``(base pointer, element offsets)`` of a pointer or a per-lane pointer."""
    if hasattr(p, "offsets") and hasattr(p, "base"):
        return p.base, p.offsets
    if isinstance(p, Pointer):
        return p, np.int64(0)
    return None


def _pointer_offsets(new: Any, old: Any) -> tuple[Any, Any, Any] | None:
    a, b = _as_lane_offsets(new), _as_lane_offsets(old)
    if a is None or b is None:
        return None
    (base_a, off_a), (base_b, off_b) = a, b
    if base_a.memory is not base_b.memory or base_a.dtype != base_b.dtype:
        return None
    shift, rest = divmod(base_b.address - base_a.address, base_a.dtype.size)
    if rest:
        return None
    return base_a, np.asarray(off_a, dtype=np.int64), np.asarray(off_b, dtype=np.int64) + shift


def _lane_pointer(base: Any, offsets: Arr) -> Any:
    return base + offsets.astype(np.int64).view(Lanes)  # a SIMT pointer + lanes: a LanePointer


# -- the rewrite -----------------------------------------------------------------------------------


class NotRewritable(Exception):
    """The function uses a construct the rewrite does not handle (message: construct and line)."""


_FRAME = PREFIX + "f"
_RESULT = PREFIX + "result"
"""The name under which :meth:`Frame.merge` tracks the lanes that returned a value."""


def _call(method: str, *args: ast.expr) -> ast.Call:
    return ast.Call(
        func=ast.Attribute(value=ast.Name(_FRAME, ast.Load()), attr=method, ctx=ast.Load()),
        args=list(args),
        keywords=[],
    )


def _thunk(expr: ast.expr) -> ast.Lambda:
    no_args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.Lambda(args=no_args, body=expr)


def _leaves(stmt: ast.stmt, *, loop_level: bool) -> bool:
    """Return whether *stmt* may make lanes leave the enclosing block.

    Leaving is a ``return``, or (when *loop_level*) a ``break``/``continue`` of the enclosing loop.
    """

    def visit(node: ast.AST, in_inner_loop: bool) -> bool:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            return False
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, ast.Break | ast.Continue):
            return loop_level and not in_inner_loop
        inner = in_inner_loop or isinstance(node, ast.While | ast.For)
        return any(visit(child, inner) for child in ast.iter_child_nodes(node))

    if isinstance(stmt, ast.While | ast.For):
        return any(visit(s, True) for s in [*stmt.body, *stmt.orelse])
    return visit(stmt, False)


class _Expressions(ast.NodeTransformer):
    """Per-lane forms of ``a if c else b``, ``and``/``or``, ``not`` and chained comparisons."""

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node  # its own scope: left alone

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda  # type: ignore[assignment]

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("locals", "super", "range"):
            return node  # they look at the caller's frame (range: see do_For)
        made = _call("call", node.func, *node.args)
        made.keywords = node.keywords
        return made

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return _call("pick", node.test, _thunk(node.body), _thunk(node.orelse))

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        method = "and_" if isinstance(node.op, ast.And) else "or_"
        return _call(method, node.values[0], *(_thunk(v) for v in node.values[1:]))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return _call("not_", node.operand) if isinstance(node.op, ast.Not) else node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        names = [type(op).__name__ for op in node.ops]
        if len(names) == 1 or not all(n in _COMPARE for n in names):
            return node
        thunks = ast.Tuple([_thunk(e) for e in [node.left, *node.comparators]], ast.Load())
        ops = ast.Tuple([ast.Constant(n) for n in names], ast.Load())
        return _call("chain", thunks, ops)


class _Statements:
    """Rewrites a function body statement by statement (see the module table)."""

    def __init__(self) -> None:
        self.count = 0
        self.expressions = _Expressions()

    def temp(self) -> str:
        self.count += 1
        return f"{PREFIX}t{self.count}"

    def expr(self, node: ast.expr) -> ast.expr:
        result = self.expressions.visit(node)
        assert isinstance(result, ast.expr)
        return result

    def block(self, stmts: list[ast.stmt], *, in_loop: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(stmts):
            out.extend(self.stmt(stmt, in_loop=in_loop))
            if isinstance(stmt, ast.Return | ast.Break | ast.Continue):
                break  # the rest of the block is dead code
            rest = stmts[i + 1 :]
            if rest and _leaves(stmt, loop_level=in_loop):
                guarded = self.block(rest, in_loop=in_loop)
                guard = ast.If(test=_call("alive"), body=guarded or [ast.Pass()], orelse=[])
                out.append(ast.copy_location(guard, rest[0]))
                break
        return out

    def stmt(self, node: ast.stmt, *, in_loop: bool) -> list[ast.stmt]:
        handler = getattr(self, f"do_{type(node).__name__}", None)
        if handler is None:
            if isinstance(node, ast.Match | ast.AsyncWith | ast.AsyncFor):
                raise NotRewritable(f"'{type(node).__name__.lower()}' at line {node.lineno}")
            return [node]
        made = handler(node, in_loop)
        for new in made:
            ast.copy_location(new, node)
            ast.fix_missing_locations(new)
        return list(made)

    # simple statements -------------------------------------------------------------------------

    def do_Expr(self, node: ast.Expr, in_loop: bool) -> list[ast.stmt]:
        call = node.value
        if not isinstance(call, ast.Call):
            return [ast.Expr(self.expr(call))]
        # f(args) as a statement: its value is dropped (Frame.void tells the callee)
        void = _call("void", self.expr(call.func), *(self.expr(a) for a in call.args))
        void.keywords = [ast.keyword(k.arg, self.expr(k.value)) for k in call.keywords]
        return [ast.Expr(void)]

    def do_Assign(self, node: ast.Assign, in_loop: bool) -> list[ast.stmt]:
        value = self.expr(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            return self.assign(node.targets[0], value)
        temp = self.temp()
        out: list[ast.stmt] = [ast.Assign([ast.Name(temp, ast.Store())], value)]
        for target in node.targets:
            out.extend(self.assign(target, ast.Name(temp, ast.Load())))
        return out

    def do_AnnAssign(self, node: ast.AnnAssign, in_loop: bool) -> list[ast.stmt]:
        if node.value is None:
            return []
        return self.assign(node.target, self.expr(node.value))

    def assign(self, target: ast.expr, value: ast.expr) -> list[ast.stmt]:
        """``target = value`` as merges (names), masked stores (subscripts) or attribute merges."""
        if isinstance(target, ast.Name):
            merged = _call("merge", value, ast.Name(target.id, ast.Load()), ast.Constant(target.id))
            return [ast.Assign([ast.Name(target.id, ast.Store())], merged)]
        if isinstance(target, ast.Subscript):
            return [
                ast.Expr(_call("setitem", self.expr(target.value), self.expr(target.slice), value))
            ]
        if isinstance(target, ast.Attribute):
            name = ast.Constant(target.attr)
            return [ast.Expr(_call("setattr", self.expr(target.value), name, value))]
        if isinstance(target, ast.Tuple | ast.List):
            temps: list[ast.expr] = []
            later: list[ast.stmt] = []
            for element in target.elts:
                inner = element.value if isinstance(element, ast.Starred) else element
                temp = self.temp()
                store: ast.expr = ast.Name(temp, ast.Store())
                temps.append(ast.Starred(store, ast.Store()) if inner is not element else store)
                later.extend(self.assign(inner, ast.Name(temp, ast.Load())))
            return [ast.Assign([ast.Tuple(temps, ast.Store())], value), *later]
        raise NotRewritable(f"assignment to {type(target).__name__} at line {target.lineno}")

    def do_AugAssign(self, node: ast.AugAssign, in_loop: bool) -> list[ast.stmt]:
        value = self.expr(node.value)
        temp = self.temp()
        target = node.target
        out: list[ast.stmt] = []
        if isinstance(target, ast.Name):
            read: ast.expr = ast.Name(target.id, ast.Load())
            store_to: ast.expr = target
        elif isinstance(target, ast.Subscript | ast.Attribute):
            holder = self.temp()
            out.append(ast.Assign([ast.Name(holder, ast.Store())], self.expr(target.value)))
            if isinstance(target, ast.Subscript):
                key = self.temp()
                out.append(ast.Assign([ast.Name(key, ast.Store())], self.expr(target.slice)))
                read = ast.Subscript(
                    ast.Name(holder, ast.Load()), ast.Name(key, ast.Load()), ast.Load()
                )
                store_to = ast.Subscript(
                    ast.Name(holder, ast.Load()), ast.Name(key, ast.Load()), ast.Store()
                )
            else:
                read = ast.Attribute(ast.Name(holder, ast.Load()), target.attr, ast.Load())
                store_to = ast.Attribute(ast.Name(holder, ast.Load()), target.attr, ast.Store())
        else:
            raise NotRewritable(f"augmented assignment at line {node.lineno}")
        out.append(ast.Assign([ast.Name(temp, ast.Store())], read))
        out.append(ast.AugAssign(ast.Name(temp, ast.Store()), node.op, value))
        out.extend(self.assign(store_to, ast.Name(temp, ast.Load())))
        return out

    def do_Return(self, node: ast.Return, in_loop: bool) -> list[ast.stmt]:
        temp = self.temp()
        value = self.expr(node.value) if node.value is not None else ast.Constant(None)
        done = ast.If(
            test=_call("ret", ast.Name(temp, ast.Load())),
            body=[ast.Return(_call("value"))],
            orelse=[],
        )
        return [ast.Assign([ast.Name(temp, ast.Store())], value), done]

    def do_Break(self, node: ast.Break, in_loop: bool) -> list[ast.stmt]:
        return [ast.Expr(_call("brk"))]

    def do_Continue(self, node: ast.Continue, in_loop: bool) -> list[ast.stmt]:
        return [ast.Expr(_call("cont"))]

    # compound statements ---------------------------------------------------------------------

    def do_If(self, node: ast.If, in_loop: bool) -> list[ast.stmt]:
        holds, saved = self.temp(), self.temp()
        body = self.block(node.body, in_loop=in_loop)
        orelse = self.block(node.orelse, in_loop=in_loop)
        name = ast.Name(holds, ast.Load())
        divergent: list[ast.stmt] = [
            ast.Assign([ast.Name(saved, ast.Store())], _call("enter", name)),
            *copy.deepcopy(body),
        ]
        if orelse:
            switch = _call("other", ast.Name(saved, ast.Load()), name)
            divergent.append(ast.If(test=switch, body=copy.deepcopy(orelse), orelse=[]))
        divergent.append(ast.Expr(_call("leave", ast.Name(saved, ast.Load()))))
        is_true = ast.Compare(name, [ast.Is()], [ast.Constant(True)])
        is_false = ast.Compare(name, [ast.Is()], [ast.Constant(False)])
        uniform_false: list[ast.stmt] = [
            ast.If(test=is_false, body=orelse or [ast.Pass()], orelse=divergent)
        ]
        return [
            ast.Assign([ast.Name(holds, ast.Store())], _call("test", self.expr(node.test))),
            ast.If(test=is_true, body=body or [ast.Pass()], orelse=uniform_false),
        ]

    def _loop_tail(self, loop: str, orelse: list[ast.stmt], in_loop: bool) -> list[ast.stmt]:
        name = ast.Name(loop, ast.Load())
        rest = self.block(orelse, in_loop=in_loop)
        return [
            ast.If(test=_call("end", name), body=rest or [ast.Pass()], orelse=[]),
            ast.Expr(_call("done", name)),
        ]

    def _next(self, loop: str, *spin: ast.expr) -> ast.stmt:
        more = _call("next", ast.Name(loop, ast.Load()), *spin)
        return ast.If(test=ast.UnaryOp(ast.Not(), more), body=[ast.Break()], orelse=[])

    def do_While(self, node: ast.While, in_loop: bool) -> list[ast.stmt]:
        loop = self.temp()
        test = _call("keep", ast.Name(loop, ast.Load()), self.expr(node.test))
        state = ast.Tuple([ast.Name(n, ast.Load()) for n in _assigned(node.body)], ast.Load())
        spin = (state, ast.Constant(node.lineno))
        body = [*self.block(node.body, in_loop=True), self._next(loop, *spin)]
        return [
            ast.Assign([ast.Name(loop, ast.Store())], _call("loop")),
            ast.While(test=test, body=body, orelse=[]),
            *self._loop_tail(loop, node.orelse, in_loop),
        ]

    def do_For(self, node: ast.For, in_loop: bool) -> list[ast.stmt]:
        loop, item = self.temp(), self.temp()
        iterable = node.iter
        if (
            isinstance(iterable, ast.Call)
            and isinstance(iterable.func, ast.Name)
            and iterable.func.id == "range"
            and not iterable.keywords
        ):
            iterable = _call("range", *(self.expr(a) for a in iterable.args))
        else:
            iterable = self.expr(iterable)
        values = _call("iterate", ast.Name(loop, ast.Load()), iterable)
        body = [
            *self.assign(node.target, ast.Name(item, ast.Load())),
            *self.block(node.body, in_loop=True),
            self._next(loop),
        ]
        return [
            ast.Assign([ast.Name(loop, ast.Store())], _call("loop")),
            ast.For(target=ast.Name(item, ast.Store()), iter=values, body=body, orelse=[]),
            *self._loop_tail(loop, node.orelse, in_loop),
        ]

    def do_With(self, node: ast.With, in_loop: bool) -> list[ast.stmt]:
        node.body = self.block(node.body, in_loop=in_loop) or [ast.Pass()]
        return [node]

    def do_Try(self, node: ast.Try, in_loop: bool) -> list[ast.stmt]:
        node.body = self.block(node.body, in_loop=in_loop) or [ast.Pass()]
        for handler in node.handlers:
            handler.body = self.block(handler.body, in_loop=in_loop) or [ast.Pass()]
        node.orelse = self.block(node.orelse, in_loop=in_loop)
        node.finalbody = self.block(node.finalbody, in_loop=in_loop)
        return [node]


def _assigned(body: list[ast.stmt]) -> list[str]:
    """Names a loop body binds or stores into (``x = ..``, ``x.a = ..``, ``x[i] = ..``), in order.

    Nested functions, lambdas and comprehensions are their own scopes and are skipped.
    """
    found: dict[str, None] = {}
    scopes: tuple[type[ast.AST], ...] = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    scopes += (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, scopes):
                continue
            target = child
            if isinstance(child, ast.Attribute | ast.Subscript) and isinstance(
                child.ctx, ast.Store
            ):
                while isinstance(target, ast.Attribute | ast.Subscript):
                    target = target.value
            if isinstance(target, ast.Name) and (
                isinstance(target.ctx, ast.Store) or target is not child
            ):
                found[target.id] = None
            visit(child)

    for stmt in body:
        visit(stmt)
    return list(found)


def _local_names(func: ast.FunctionDef) -> list[str]:
    """Names the function binds (its locals), parameters and global/nonlocal names excluded."""
    declared: set[str] = set()
    bound: dict[str, None] = {}

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Global | ast.Nonlocal):
                declared.update(child.names)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                bound[child.id] = None
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound[child.name] = None
                continue
            if isinstance(
                child, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
            ):
                continue
            if isinstance(child, ast.Yield | ast.YieldFrom | ast.Await):
                raise NotRewritable(f"'{type(child).__name__.lower()}' at line {child.lineno}")
            visit(child)

    for stmt in func.body:
        visit(ast.Module(body=[stmt], type_ignores=[]))
    params = {a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]}
    params |= {a.arg for a in (func.args.vararg, func.args.kwarg) if a is not None}
    return [n for n in bound if n not in params and n not in declared]


def value_copy(value: Any) -> Any:
    """Return what C's ``b = a`` stores in ``b``: a copy of a vector value, else *value* itself.

    Vector values (``int2``, ``half2`` ...) are C structs: assignment copies them, so writing
    ``b.x`` after ``b = a`` leaves ``a`` unchanged. Numbers and lanes are never written in place
    and pointers are values already, so they are not copied.

    Examples
    --------
    >>> from ascreg import int32_t
    >>> from ascreg.machine.simt.vectors import vector_type
    >>> a = vector_type("int2", int32_t, 2)(1, 2)
    >>> b = value_copy(a); b.x = 5; a.x, b.x
    (np.int32(1), np.int32(5))
    """
    return value.copy() if isinstance(value, VectorValue) else value


class _CopyOnAssign(ast.NodeTransformer):
    """``name = v`` -> ``name = _ascreg_rt.copy(v)`` (the tiers that run a kernel as written).

    ``while c:`` becomes ``w = _ascreg_rt.watch()`` and ``while _ascreg_rt.turn(w, locals(),
    names, line) and c:`` (the spin check of :meth:`_Runtime.turn`). ``for x in range(...)``
    becomes ``for x in _ascreg_rt.range(...)`` (:func:`typed_range`: a typed start types the
    counter, as in the masked form).
    """

    def __init__(self) -> None:
        self.count = 0

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        iterable = node.iter
        if (
            isinstance(iterable, ast.Call)
            and isinstance(iterable.func, ast.Name)
            and iterable.func.id == "range"
            and not iterable.keywords
        ):
            node.iter = ast.copy_location(_runtime_call("range", *iterable.args), iterable)
        return node

    def visit_While(self, node: ast.While) -> list[ast.stmt]:
        self.generic_visit(node)
        self.count += 1
        watch = f"{PREFIX}w{self.count}"
        assigned = ast.Tuple([ast.Constant(n) for n in _assigned(node.body)], ast.Load())
        local = ast.Call(ast.Name("locals", ast.Load()), [], [])
        turn = _runtime_call("turn", ast.Name(watch, ast.Load()), local, assigned)
        turn.args.append(ast.Constant(node.lineno))
        node.test = ast.BoolOp(ast.And(), [turn, node.test])
        start = ast.Assign([ast.Name(watch, ast.Store())], _runtime_call("watch"))
        return [ast.copy_location(start, node), node]

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        self.generic_visit(node)
        if any(isinstance(t, ast.Name) for t in node.targets):
            node.value = _runtime_call("copy", node.value)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        if node.value is not None and isinstance(node.target, ast.Name):
            node.value = _runtime_call("copy", node.value)
        return node


def _runtime_call(method: str, *args: ast.expr) -> ast.Call:
    runtime = ast.Name(PREFIX + "rt", ast.Load())
    return ast.Call(ast.Attribute(runtime, method, ast.Load()), list(args), [])


def _strip_annotations(func: ast.FunctionDef) -> None:
    args = func.args
    for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if a is not None:
            a.annotation = None
    func.returns = None
    func.decorator_list = []


def _rewrite_tree(
    source: str, name: str, first_line: int, freevars: tuple[str, ...], *, masked: bool = True
) -> ast.Module:
    tree = ast.parse(textwrap.dedent(source))
    ast.increment_lineno(tree, first_line - 1)
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not found:
        raise NotRewritable("its source is not a plain 'def'")
    func = found[0]
    _strip_annotations(func)
    if not masked:
        copying = _CopyOnAssign()
        module = copying.visit(ast.Module(body=func.body, type_ignores=[]))
        func.body = module.body
        return _factory(func, name, freevars)
    locals_ = _local_names(func)
    body = _Statements().block(func.body, in_loop=False)
    start = ast.Assign(
        [ast.Name(_FRAME, ast.Store())], ast.Call(ast.Name(PREFIX + "rt", ast.Load()), [], [])
    )
    prologue: list[ast.stmt] = [start]
    if locals_:
        unbound = ast.Attribute(ast.Name(PREFIX + "rt", ast.Load()), "UNBOUND", ast.Load())
        targets: list[ast.expr] = [ast.Name(n, ast.Store()) for n in locals_]
        prologue.append(ast.Assign(targets, unbound))
    body.append(ast.Return(_call("value")))  # lanes that returned earlier keep their value
    for stmt in [*prologue, body[-1]]:
        ast.copy_location(stmt, func)
    func.body = [*prologue, *body]
    return _factory(func, name, freevars)


def _factory(func: ast.FunctionDef, name: str, freevars: tuple[str, ...]) -> ast.Module:
    """Return a module defining ``_ascreg_factory(_ascreg_rt, *freevars)``, which returns *func*."""
    params = [ast.arg(PREFIX + "rt"), *(ast.arg(v) for v in freevars)]
    factory = ast.FunctionDef(
        name=PREFIX + "factory",
        args=ast.arguments(posonlyargs=[], args=params, kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[func, ast.Return(ast.Name(name, ast.Load()))],
        decorator_list=[],
        returns=None,
    )
    ast.copy_location(factory, func)
    module = ast.Module(body=[factory], type_ignores=[])
    return ast.fix_missing_locations(module)


class _Runtime:
    """What the rewritten code's ``_ascreg_rt`` is: calling it makes a :class:`Frame`."""

    UNBOUND = UNBOUND
    copy = staticmethod(value_copy)
    watch = SpinWatch
    range = staticmethod(typed_range)

    @staticmethod
    def turn(watch: SpinWatch, names: dict[str, Any], assigned: tuple[str, ...], line: int) -> bool:
        """Before a ``while`` test as written: yield the thread if its loop makes no progress.

        Progress is a change of a name in *assigned* (taken from *names*, the caller's
        ``locals()``) or of memory since the last test; after :data:`YIELD_AFTER` tests without
        it the group yields (``Group.spin``) so that other threads may run. Returns True.
        """
        group = STATE.group
        fingerprint = _fingerprint(tuple(names.get(n, UNBOUND) for n in assigned))
        changes = group.changes()
        same = fingerprint is not None and fingerprint == watch.state
        if same and changes == watch.changes:
            watch.still += 1
            if watch.still >= YIELD_AFTER:
                watch.still = 0
                group.spin(line)
        else:
            watch.still = 0
            group.moved()
        watch.state, watch.changes = fingerprint, changes
        return True

    def __call__(self) -> Frame:
        return Frame()


_RUNTIME = _Runtime()


def _captured(cell: types.CellType, wrap: Callable[[Any], Any] | None) -> types.CellType:
    """*cell*, or a new cell holding its pointer made lane-aware by *wrap*."""
    if wrap is None:
        return cell
    try:
        value = cell.cell_contents
    except ValueError:  # not assigned yet
        return cell
    return types.CellType(wrap(value)) if isinstance(value, Pointer) else cell


_CODE: dict[tuple[types.CodeType, bool], types.CodeType | None] = {}
_WHY: dict[types.CodeType, str] = {}


def _rewritten_code(func: types.FunctionType, masked: bool) -> types.CodeType | None:
    code = func.__code__
    if (code, masked) in _CODE:
        return _CODE[code, masked]
    made: types.CodeType | None = None
    try:
        lines, first = inspect.getsourcelines(func)
        module = _rewrite_tree("".join(lines), code.co_name, first, code.co_freevars, masked=masked)
        factory = compile(module, code.co_filename, "exec", dont_inherit=True)
        outer = next(c for c in factory.co_consts if isinstance(c, types.CodeType))
        made = next(
            c
            for c in outer.co_consts
            if isinstance(c, types.CodeType) and c.co_name == code.co_name
        )
    except (OSError, TypeError, SyntaxError, NotRewritable, StopIteration, IndexError) as exc:
        if masked:
            _WHY[code] = (
                str(exc) if isinstance(exc, NotRewritable) else "its source is not available"
            )
    _CODE[code, masked] = made
    return made


def why_not_rewritten(func: Any) -> str | None:
    """Return why *func* runs as written (not in masked form), or None if it was rewritten.

    Examples
    --------
    >>> f = eval("lambda: 1")
    >>> masked_version(f) is f, why_not_rewritten(f)
    (True, 'its source is not available')
    """
    code = getattr(func, "__code__", None)
    return _WHY.get(code) if code is not None else "it is not a Python function"


def copying_version(func: Any) -> Any:
    """Return *func* with C's copy on assignment of vector values (cached), or *func* itself.

    The tiers that run a kernel as written (``per-thread``, ``unmasked``) use this: every
    ``name = value`` stores :func:`value_copy` of the value, as the masked form's merges do.

    Examples
    --------
    >>> from ascreg import int32_t
    >>> from ascreg.machine.simt.vectors import vector_type
    >>> int2 = vector_type("int2", int32_t, 2)
    >>> def f(a):
    ...     b = a
    ...     b.x = 7
    ...     return a.x
    >>> int(copying_version(f)(int2(1, 2))), int(f(int2(1, 2)))
    (1, 7)
    """
    return masked_version(func, None, masked=False)


def masked_version(
    func: Any, wrap: Callable[[Any], Any] | None = None, *, masked: bool = True
) -> Any:
    """Return *func* rewritten into masked form (cached), or *func* itself if it cannot be.

    *wrap* is applied to the values the function captures from enclosing scopes (the engine
    passes the function that makes a pointer lane-aware, so that its loads and stores honour
    the active mask). With ``masked=False`` only the copy on assignment is added
    (:func:`copying_version`).

    Examples
    --------
    >>> def k(x):
    ...     if x:
    ...         return 1
    >>> masked_version(k) is k, masked_version(len) is len
    (False, True)
    """
    if not isinstance(func, types.FunctionType):
        return func
    key = _made_from(func, wrap)
    made_before = _MADE[masked]
    cached = made_before.get(func)
    if cached is not None and _same(cached[0], key) and _untouched(cached[1]):
        return cached[2]  # every block of a launch reuses one function
    code = _rewritten_code(func, masked)
    if code is None:
        made_before[func] = (key, (), func)
        return func
    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or (), strict=True))
    closure = tuple(
        types.CellType(_RUNTIME) if name == PREFIX + "rt" else _captured(cells[name], wrap)
        for name in code.co_freevars
    )
    made = types.FunctionType(code, func.__globals__, func.__name__, func.__defaults__, closure)
    made.__kwdefaults__ = func.__kwdefaults__
    shared = {id(cell) for cell in func.__closure__ or ()}
    own = tuple((cell, cell.cell_contents) for cell in closure if id(cell) not in shared)
    made_before[func] = (key, own, made)
    return made


_MADE: dict[bool, weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], Any, Any]]] = {
    masked: weakref.WeakKeyDictionary() for masked in (True, False)
}
"""Per form (masked, or copy on assignment only) and kernel function: what its rewritten version
was made from, the cells made for it with their values, and the rewritten version (rebuilt when
any of them changed)."""
_EMPTY = object()


def _made_from(func: types.FunctionType, wrap: Any) -> tuple[Any, ...]:
    """Everything :func:`masked_version` builds from: code, defaults, captured values, *wrap*."""
    contents = []
    for cell in func.__closure__ or ():
        try:
            contents.append(cell.cell_contents)
        except ValueError:  # not assigned yet
            contents.append(_EMPTY)
    return (func.__code__, func.__defaults__, func.__kwdefaults__, wrap, *contents)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Identity, item by item (captured values may be arrays: no ``==``)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _untouched(own: tuple[tuple[types.CellType, Any], ...]) -> bool:
    """Tell whether no run rebound a variable in the cells made for the masked version."""
    try:
        return all(cell.cell_contents is value for cell, value in own)
    except ValueError:  # a run deleted one
        return False

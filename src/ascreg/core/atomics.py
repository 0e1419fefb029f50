"""Lane semantics of the SIMT atomics: each thread's read-modify-write, serialised in thread order.

One call stands for every thread of a group (one lane each). Threads that hit the same address
are serialised in thread order (one of the orders the hardware may pick): integer add/sub in one
pass with a segmented prefix sum, everything else in rounds of distinct addresses, lowest thread
first. :data:`UPDATES` holds the value each atomic stores, as a function of the old value and
the operands; argument checking lives in :mod:`ascreg.simt.atomics`.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> p = GlobalMemory().alloc(uint32_t, 2); p.write([10, 20])
>>> from ascreg.machine.simt.engine import LanePointer
>>> at = LanePointer(p, np.array([0, 1, 0]))
>>> read_modify_write("add", at, 3, [np.array([1, 2, 3], np.uint32)]).tolist()
[10, 20, 11]
>>> p.read(2).tolist()
[14, 22]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ascreg.core.fpenv import quiet
from ascreg.machine.memory import Pointer
from ascreg.machine.simt.engine import LanePointer

Arr = np.ndarray[Any, Any]


def dec(old: Arr, val: Arr) -> Arr:
    """``asc_atomic_dec``: ``(old == 0 || old > val) ? val : old - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> dec(np.array([0, 5, 9], np.uint32), np.array([7, 7, 7], np.uint32)).tolist()
    [7, 4, 7]
    """
    return np.where((old == 0) | (old > val), val, old - old.dtype.type(1))


def inc(old: Arr, val: Arr) -> Arr:
    """``asc_atomic_inc``: ``old >= val ? 0 : old + 1``.

    Examples
    --------
    >>> import numpy as np
    >>> inc(np.array([3, 7], np.uint32), np.array([7, 7], np.uint32)).tolist()
    [4, 0]
    """
    new: Arr = np.where(old >= val, old.dtype.type(0), old + old.dtype.type(1))
    return new


def cas(old: Arr, compare: Arr, val: Arr) -> Arr:
    """``asc_atomic_cas``: ``old == compare ? val : old``.

    Examples
    --------
    >>> import numpy as np
    >>> cas(np.array([1, 2]), np.array([1, 1]), np.array([9, 9])).tolist()
    [9, 2]
    """
    return np.where(old == compare, val, old)


UPDATES: dict[str, Callable[..., Arr]] = {
    "add": np.add,
    "sub": np.subtract,
    "exch": lambda old, val: val,
    "cas": cas,
    "max": np.maximum,
    "min": np.minimum,
    "inc": inc,
    "dec": dec,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
"""The value each ``asc_atomic_<op>`` stores: ``UPDATES[op](old, *operands)``."""
_PREFIX_SUMS = {"add": False, "sub": True}
"""The atomics that run as one prefix sum on integers (value: whether the operand is negated)."""


UFUNC_ATOMICS = {
    "add": np.add,
    "sub": np.subtract,
    "max": np.maximum,
    "min": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
"""The atomics whose update is a ufunc: with the old values unused, ``ufunc.at`` applies them
(element by element, in lane order: the same serialisation, float rounding included)."""
DENSE = 16
"""An address range at most this many times the lanes is updated through a dense scratch array
(no sort)."""


def read_modify_write(
    op: str,
    address: Pointer[Any] | LanePointer,
    lanes: int,
    operands: Sequence[Arr],
    active: Arr | None = None,
    *,
    discard: bool = False,
) -> Arr:
    """Apply ``asc_atomic_<op>`` for each of *lanes* lanes at *address*; return their old values.

    *address* is one pointer for every lane or ``p + idx`` (one element per lane); *operands*
    are arrays of the element type, broadcastable to one value per lane. Where addresses repeat,
    lanes are served in order, lane 0 first. *active* (divergent code) marks the lanes that
    make the call; the others change nothing and get 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, int32_t
    >>> p = GlobalMemory().alloc(int32_t, 1)
    >>> read_modify_write("cas", p, 3, [np.int32(0), np.arange(1, 4, dtype=np.int32)])
    array([0, 1, 1], dtype=int32)
    """
    if active is not None:
        return _some_lanes(op, address, lanes, operands, active, discard)
    if isinstance(address, LanePointer):
        base, offsets = address.base, np.broadcast_to(address.offsets, (lanes,))
    else:
        base, offsets = address, np.zeros(lanes, dtype=np.int64)
    values = [np.broadcast_to(v, (lanes,)) for v in operands]
    if discard and op in UFUNC_ATOMICS and lanes:
        apply_at(UFUNC_ATOMICS[op], base, offsets, values[0])
        return np.zeros(lanes, dtype=base.dtype.np_dtype)
    old = np.empty(lanes, dtype=base.dtype.np_dtype)
    order = np.argsort(offsets, kind="stable")
    ordered = offsets[order]
    starts = np.ones(lanes, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    if op in _PREFIX_SUMS and old.dtype.kind in "iu":
        _prefix_add(base, ordered, order, starts, values[0], old, negate=_PREFIX_SUMS[op])
    else:
        _rounds(base, offsets, order, starts, values, old, UPDATES[op])
    return old


def apply_at(ufunc: Any, base: Pointer[Any], offsets: Arr, values: Arr) -> None:
    """Update the elements at *offsets* lane by lane with ``ufunc.at``, through *base*.

    The old values are read and the new ones written once per distinct element, through the
    pointer (its checks and hooks see them as a gather and a scatter).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, float32_t
    >>> p = GlobalMemory().alloc(float32_t, 2)
    >>> apply_at(np.add, p, np.array([1, 0, 1]), np.float32([1e8, 2, 1]))  # lane order
    >>> p.read(2).tolist()  # element 1: (0 + 1e8) + 1 rounds back to 1e8
    [2.0, 100000000.0]
    """
    low, high = int(offsets.min()), int(offsets.max())
    span = high - low + 1
    if base.memory.on_access is None:  # no hook to report to: update the elements in place
        view = (base + low).view(span, "gathers")  # the bounds check of the gather
        with np.errstate(over="ignore", invalid="ignore"):
            ufunc.at(view, offsets - low, values)
        return
    if span <= DENSE * offsets.size:  # a dense scratch array: no sort
        at = offsets - low
        touched = np.zeros(span, dtype=bool)
        touched[at] = True
        where = np.flatnonzero(touched)
        scratch = np.zeros(span, dtype=base.dtype.np_dtype)
        scratch[where] = np.asarray(base[where + low])
        with np.errstate(over="ignore", invalid="ignore"):
            ufunc.at(scratch, at, values)
        base[where + low] = scratch[where]
        return
    order = np.argsort(offsets, kind="stable")
    ordered = offsets[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    distinct = ordered[starts]
    current = np.asarray(base[distinct]).copy()
    slot = np.empty(offsets.size, dtype=np.int64)
    slot[order] = np.cumsum(starts) - 1
    with np.errstate(over="ignore", invalid="ignore"):
        ufunc.at(current, slot, values)
    base[distinct] = current


def _some_lanes(
    op: str,
    address: Pointer[Any] | LanePointer,
    lanes: int,
    operands: Sequence[Arr],
    active: Arr,
    discard: bool = False,
) -> Arr:
    """:func:`read_modify_write` for the *active* lanes only (in lane order)."""
    chosen = np.flatnonzero(active)
    if isinstance(address, LanePointer):
        offsets = np.broadcast_to(address.offsets, (lanes,))[chosen]
        address = LanePointer(address.base, offsets)
    values = [np.broadcast_to(v, (lanes,))[chosen] for v in operands]
    some = read_modify_write(op, address, chosen.size, values, discard=discard)
    old = np.zeros(lanes, dtype=some.dtype)
    old[chosen] = some
    return old


def _rounds(
    base: Pointer[Any],
    offsets: Arr,
    order: Arr,
    starts: Arr,
    values: list[Arr],
    old: Arr,
    update: Callable[..., Arr],
) -> None:
    """Serve one lane per distinct address per round, lowest lane first."""
    positions = np.arange(order.size)
    rank = positions - np.maximum.accumulate(np.where(starts, positions, 0))
    for r in range(int(rank.max()) + 1 if rank.size else 0):
        lanes = order[rank == r]  # distinct addresses, lowest thread first
        where = offsets[lanes]
        current = np.asarray(base[where])
        old[lanes] = current
        with quiet():
            base[where] = update(current, *(v[lanes] for v in values))


def _prefix_add(
    base: Pointer[Any], ordered: Arr, order: Arr, starts: Arr, value: Arr, old: Arr, *, negate: bool
) -> None:
    """Integer add/sub for every lane at once: a segmented prefix sum modulo 2**N per address."""
    unsigned = np.dtype(f"u{old.dtype.itemsize}")
    step = np.ascontiguousarray(value[order]).view(unsigned)
    if negate:
        step = (~step) + unsigned.type(1)  # two's complement: x - v == x + (-v) mod 2**N
    running = np.cumsum(step, dtype=unsigned)
    before = running - step  # exclusive prefix over the whole sorted order
    first = np.flatnonzero(starts)
    segment = np.cumsum(starts) - 1
    within = before - before[first][segment]
    initial = np.ascontiguousarray(np.asarray(base[ordered[first]])).view(unsigned)
    old[order] = (initial[segment] + within).view(old.dtype)
    last = np.r_[first[1:], ordered.size] - 1
    totals = running[last] - before[first]
    base[ordered[first]] = (initial + totals).view(old.dtype)

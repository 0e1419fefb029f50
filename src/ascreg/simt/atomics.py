"""Atomic read-modify-write on UB or GM: ``asc_atomic_add`` ... ``asc_atomic_cas`` (return the old value).

In the vectorised tier one call stands for every thread of the block. Threads that hit the same
address are serialised in thread order (one of the orders the hardware may pick): integer
add/sub in one pass with a segmented prefix sum, everything else in rounds of distinct addresses.

The address is a pointer (the same address for every thread) or ``p + idx`` with a per-thread
``idx`` (a :class:`~ascreg.simt.LanePointer`). 64-bit atomics are GM-only.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.simt import dim3, threadIdx, run_simt_kernel, asc_atomic_add
>>> gm = GlobalMemory(); counter = gm.alloc(uint32_t, 1); old = gm.alloc(uint32_t, 8)
>>> def k(counter, old):
...     old[threadIdx.x] = asc_atomic_add(counter, 1)
>>> run_simt_kernel(k, dim3(1), dim3(8), 0, (counter, old))
>>> counter.read(1), old.read(8)
(array([8], dtype=uint32), array([0, 1, 2, 3, 4, 5, 6, 7], dtype=uint32))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._spec import SIMT_ATOMIC_TYPES, SPECS
from ascreg.errors import AddressSpaceError, AscregTypeError
from ascreg.machine.memory import Pointer, UbPtr, to_dtype
from ascreg.machine.simt.engine import LanePointer, current_group, wrap_pointer
from ascreg.machine.simt.lanes import Lanes

Arr = np.ndarray[Any, Any]
LEGAL: dict[str, tuple[np.dtype[Any], ...]] = {
    op: tuple(combo[0].np_dtype for combo in SPECS[f"asc_atomic_{op}"].combos)
    for op in SIMT_ATOMIC_TYPES
}
"""Legal element types per atomic (the ``address`` column of the ``asc_atomic_*`` rows)."""


def _dec(old: Arr, val: Arr) -> Arr:
    return np.where((old == 0) | (old > val), val, old - old.dtype.type(1))


def _cas(old: Arr, compare: Arr, val: Arr) -> Arr:
    return np.where(old == compare, val, old)


_NEW: dict[str, Callable[..., Arr]] = {
    "add": lambda old, v: old + v,
    "sub": lambda old, v: old - v,
    "exch": lambda old, v: v,
    "cas": _cas,
    "max": np.maximum,
    "min": np.minimum,
    "inc": lambda old, v: np.where(old >= v, old.dtype.type(0), old + old.dtype.type(1)),
    "dec": _dec,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


def _target(call: str, address: Any, n: int) -> tuple[Pointer[Any], Arr]:
    if isinstance(address, LanePointer):
        return address.base, np.broadcast_to(address.offsets, (n,))
    if isinstance(address, Pointer):
        return wrap_pointer(address), np.zeros(n, dtype=np.int64)
    raise AscregTypeError(
        f"the address must be a __gm__ or __ubuf__ pointer, got {address!r:.60}", call=call
    )


def _atomic(call: str, op: str, address: Any, operands: tuple[Any, ...]) -> Any:
    group = current_group(call)
    n = group.size
    base, offsets = _target(call, address, n)
    dtype = base.dtype.np_dtype
    if dtype not in LEGAL[op]:
        legal = ", ".join(d.name for d in LEGAL[op])
        raise AscregTypeError(f"{dtype.name} is not supported (legal: {legal})", call=call)
    if dtype.itemsize == 8 and isinstance(base, UbPtr):
        raise AddressSpaceError(f"64-bit atomics work on GM only, not on {base!r}", call=call)
    values = [np.broadcast_to(to_dtype(v, base.dtype), (n,)) for v in operands]
    old = np.empty(n, dtype=dtype)
    order = np.argsort(offsets, kind="stable")
    ordered = offsets[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    if op in ("add", "sub") and dtype.kind in "iu":
        _prefix_add(base, ordered, order, starts, values[0], old, negate=op == "sub")
    else:
        _rounds(base, offsets, order, starts, values, old, _NEW[op])
    return old.view(Lanes)


def _rounds(
    base: Pointer[Any],
    offsets: Arr,
    order: Arr,
    starts: Arr,
    values: list[Arr],
    old: Arr,
    new: Callable[..., Arr],
) -> None:
    positions = np.arange(order.size)
    rank = positions - np.maximum.accumulate(np.where(starts, positions, 0))
    for r in range(int(rank.max()) + 1 if rank.size else 0):
        lanes = order[rank == r]  # distinct addresses, lowest thread first
        where = offsets[lanes]
        current = np.asarray(base[where])
        old[lanes] = current
        with np.errstate(over="ignore", invalid="ignore"):
            base[where] = new(current, *(v[lanes] for v in values))


def _prefix_add(
    base: Pointer[Any], ordered: Arr, order: Arr, starts: Arr, value: Arr, old: Arr, *, negate: bool
) -> None:
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


def _doc(op: str, formula: str) -> str:
    return f"""``T asc_atomic_{op}(T* address, T val)``: store ``{formula}``; return the old value.

    Legal T: {", ".join(d.name for d in LEGAL[op])}.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(uint32_t, 1); p.write([6])
    >>> run_simt_kernel(lambda p: asc_atomic_{op}(p, 3), dim3(1), dim3(1), 0, (p,))
    >>> int(p.read(1)[0])
    {{result}}
    """


def _binary_atomic(op: str, formula: str, example_result: int) -> Callable[[Any, Any], Any]:
    """Build ``asc_atomic_<op>(address, val)`` from its table row."""
    name = f"asc_atomic_{op}"

    def atomic(address: Any, val: Any) -> Any:
        _ascreg_call = name
        return _atomic(_ascreg_call, op, address, (val,))

    atomic.__name__ = atomic.__qualname__ = name
    atomic.__doc__ = _doc(op, formula).replace("{result}", str(example_result))
    return atomic


# The example in each docstring applies the op to old = 6 and val = 3.
asc_atomic_add = _binary_atomic("add", "old + val", 9)
asc_atomic_sub = _binary_atomic("sub", "old - val", 3)
asc_atomic_exch = _binary_atomic("exch", "val", 3)
asc_atomic_max = _binary_atomic("max", "max(old, val)", 6)
asc_atomic_min = _binary_atomic("min", "min(old, val)", 3)
asc_atomic_inc = _binary_atomic("inc", "old >= val ? 0 : old + 1", 0)
asc_atomic_dec = _binary_atomic("dec", "(old == 0 || old > val) ? val : old - 1", 3)
asc_atomic_and = _binary_atomic("and", "old & val", 2)
asc_atomic_or = _binary_atomic("or", "old | val", 7)
asc_atomic_xor = _binary_atomic("xor", "old ^ val", 5)


def asc_atomic_cas(address: Any, compare: Any, val: Any) -> Any:
    """``T asc_atomic_cas(T* address, T compare, T val)``: store ``val`` if ``old == compare``.

    Returns the old value. Legal T: int32, uint32, float32, int64, uint64.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(int32_t, 1)
    >>> won = GlobalMemory().alloc(int32_t, 4)
    >>> def k(p, won):  # only the first thread (in thread order) swaps 0 -> its id + 1
    ...     won[threadIdx.x] = asc_atomic_cas(p, 0, threadIdx.x.astype('int32') + 1)
    >>> run_simt_kernel(k, dim3(1), dim3(4), 0, (p, won))
    >>> p.read(1), won.read(4)
    (array([1], dtype=int32), array([0, 1, 1, 1], dtype=int32))
    """
    _ascreg_call = "asc_atomic_cas"
    return _atomic(_ascreg_call, "cas", address, (compare, val))

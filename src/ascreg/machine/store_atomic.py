"""The copy engine's store atomics (``asc_set_atomic_add_float``, ``SetAtomicAdd<T>`` ...).

With a store-atomic mode set (:attr:`ascreg.machine.sysregs.SystemRegisters.atomic`), a UB -> GM
copy does not overwrite GM: every element it writes is combined with the element already there,
``gm = op(gm, ub)``, in the mode's element type (whatever the pointers' types). Integer sums
wrap (two's complement); float sums round to nearest even in the element type; ``max``/``min``
propagate NaN and keep GM's value on a tie. :func:`combiner` returns the function the copy
engine (:func:`ascreg.machine.mte.ub_to_gm`, the one path of every UB -> GM copy on every
surface) applies to each burst's bytes. It lives with the copy engine, below the core, because
the engine applies it to every copy whatever API made it.

Examples
--------
>>> import numpy as np
>>> from ascreg import int8_t
>>> merge = combiner("add", int8_t)
>>> old, new = np.array([1, 127], np.int8).view(np.uint8), np.array([2, 1], np.int8).view(np.uint8)
>>> merge(old, new).view(np.int8).tolist()
[3, -128]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.errors import AscregError

Arr = np.ndarray[Any, Any]


def _keeping_ties(wins: Callable[[Arr, Arr], Arr]) -> Callable[[Arr, Arr], Arr]:
    """Return ``op(old, new)``: *new* where it wins, else *old*; NaN on either side wins.

    A tie keeps the GM value, so max/min of -0 and +0 keep what GM held (numpy's own
    ``maximum`` answers differently for float16 and bfloat16).
    """

    def pick(old: Arr, new: Arr) -> Arr:
        chosen = np.where(wins(new, old), new, old)
        if old.dtype.kind in "iu":
            return chosen
        return np.where(np.isnan(new), new, np.where(np.isnan(old), old, chosen))

    return pick


STORE_ATOMIC_OPS: dict[str, Callable[[Arr, Arr], Arr]] = {
    "add": np.add,
    "max": _keeping_ties(np.greater),
    "min": _keeping_ties(np.less),
}
"""The element operation of each store-atomic mode: ``new_gm = op(old_gm, written)``."""


def combine(op: str, dtype: Any, old: Arr, new: Arr) -> Arr:
    """Return the bytes ``op(old, new)`` element by element in *dtype* (both are byte arrays).

    Raises
    ------
    AscregError
        When the byte count is not a whole number of *dtype* elements.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> a, b = np.array([1.5, -2], np.float16), np.array([0.25, 3], np.float16)
    >>> combine("max", half, a.view(np.uint8), b.view(np.uint8)).view(np.float16).tolist()
    [1.5, 3.0]
    """
    if old.size % dtype.size:
        raise AscregError(
            f"an atomic {op} copy of {old.size} bytes is not a whole number of "
            f"{dtype.cpp_name} elements (the store-atomic element type)"
        )
    np_dtype = np.dtype(dtype.np_dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        merged = STORE_ATOMIC_OPS[op](old.view(np_dtype), new.view(np_dtype))
    return np.asarray(merged, dtype=np_dtype).view(np.uint8)


@functools.cache
def combiner(op: str, dtype: Any) -> Callable[[Arr, Arr], Arr]:
    """Return ``merge(old_bytes, new_bytes)`` for the store-atomic mode ``(op, dtype)``.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> combiner("min", float32_t).__name__
    'merge'
    """

    def merge(old: Arr, new: Arr) -> Arr:
        return combine(op, dtype, old, new)

    return merge

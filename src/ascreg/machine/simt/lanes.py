"""``Lanes``: a thread-varying value, one numpy lane per SIMT thread of the running group.

Inside a SIMT kernel, ``threadIdx.x`` and everything computed from it (loads through a pointer
indexed by it, intrinsic results) are :class:`Lanes` arrays. Arithmetic stays lane-wise (numpy
ufuncs keep the subclass). Python control flow needs *one* answer, so ``bool()``, ``int()``,
``float()`` and ``operator.index()`` of a ``Lanes`` return the common value when every lane
agrees and otherwise raise :class:`DivergentBranchError` — never a silently chosen lane. In
divergent code only the lanes of the active mask count. A kernel's own ``if``/``while``/``for``
run in masked form (:mod:`ascreg.engine.simt.masked`) and never ask; where something else does
(a helper function's branch, ``int()`` of such a value), the engine catches the signal and
re-runs the block one thread at a time (see :mod:`ascreg.machine.simt.engine`).

Examples
--------
>>> import numpy as np
>>> t = np.arange(4, dtype=np.uint32).view(Lanes)
>>> bool((t * 0) == 0)
True
>>> bool(t < 2)
Traceback (most recent call last):
...
ascreg.machine.simt.lanes.DivergentBranchError: bool() of a thread-varying value: ...
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.errors import AscregError


class DivergentBranchError(AscregError):
    """A thread-varying value was used where Python needs a single value (``if``, ``int()``).

    Inside a kernel the engine handles it by re-running the block per thread; outside a kernel
    (or where no fallback exists) it reaches the user with the differing lanes in the message.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([3, 4], dtype=np.int32).view(Lanes)
    >>> bool(v > 3)
    Traceback (most recent call last):
    ...
    ascreg.machine.simt.lanes.DivergentBranchError: bool() of a thread-varying value: lane 0 holds np.False_ but lane 1 holds np.True_; a branch on it must run per thread
    >>> issubclass(DivergentBranchError, AscregError)
    True
    """


class SpinError(AscregError):
    """Every running thread of a block spins in a ``while`` loop that no thread can end.

    Raised by the per-thread tier when the threads that have not exited all spin (or wait at
    ``asc_syncthreads``) and a whole round of them changed neither memory nor a loop's state:
    the block would hang on the chip too (see :mod:`ascreg.engine.simt.masked`).

    Examples
    --------
    >>> issubclass(SpinError, AscregError)
    True
    """


class DivergenceSignal(BaseException):
    """The vectorised tier's "this block diverges" signal (caught by the engine, never by users).

    Raised instead of :class:`DivergentBranchError` while a block runs vectorised with a per-thread
    fallback ready. It derives from ``BaseException`` (as ``KeyboardInterrupt`` does) so that a
    kernel's own ``except Exception`` around a thread-dependent branch cannot swallow it; the
    engine catches it, undoes the attempt and re-runs the block one thread at a time.

    Examples
    --------
    >>> issubclass(DivergenceSignal, Exception), issubclass(DivergenceSignal, BaseException)
    (False, True)
    """


def _compound(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Return an in-place operator that computes ``op`` and converts back to the left type."""

    def compound(self: Any, other: Any) -> Any:
        return np.asarray(op(np.asarray(self), other)).astype(self.dtype).view(Lanes)

    compound.__doc__ = f"``a {op.__name__.strip('_')}= b`` as C does it: ``a = (T)(a op b)``."
    return compound


class Lanes(np.ndarray[Any, Any]):
    """A numpy array holding one value per SIMT thread (lane) of the running thread group.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([7, 7, 7], dtype=np.int32).view(Lanes)
    >>> int(v + 1), v.uniform()
    (8, np.int32(7))
    >>> i = v; i += np.int64(2**32 - 1); i, v  # C's `i += n`: i keeps its type, v is unchanged
    (Lanes([6, 6, 6], dtype=int32), Lanes([7, 7, 7], dtype=int32))
    """

    def uniform(self) -> Any:
        """Return the value every lane holds, or raise :class:`DivergentBranchError`."""
        flat = np.asarray(self).reshape(-1)
        group = STATE.group
        active = None if group is None else group.active
        if active is not None and active.size == flat.size:
            flat = flat[active]  # divergent code: only the active lanes count
        if flat.size == 0:
            raise DivergentBranchError("a thread-varying value with no lanes has no value")
        first = flat[0]
        if flat.size > 1 and not (flat == first).all():
            if group is not None and group.journal is not None:  # vectorised, fallback ready
                raise DivergenceSignal(self._describe())
            raise DivergentBranchError(self._describe())
        return first

    def _describe(self, what: str = "bool()") -> str:
        flat = np.asarray(self).reshape(-1)
        group = STATE.group
        active = None if group is None else group.active
        if active is not None and active.size == flat.size:
            flat = flat[active]
        differ = int(np.argmax(flat != flat[0]))
        return (
            f"{what} of a thread-varying value: lane 0 holds {flat[0]!r} but lane {differ} "
            f"holds {flat[differ]!r}; a branch on it must run per thread"
        )

    def __bool__(self) -> bool:
        return bool(self.uniform())

    def __int__(self) -> int:
        return int(self.uniform())

    def __index__(self) -> int:
        value = self.uniform()
        if not isinstance(value, np.integer | np.bool_):
            raise TypeError(f"a {self.dtype} value cannot be used as an index")
        return int(value)

    def __float__(self) -> float:
        return float(self.uniform())

    # C compound assignment ``a op= b`` is ``a = (T)(a op b)``: a new value of a's type. Lanes are
    # values, never shared storage, so ``i = threadIdx.x; i += blockDim.x`` must neither write
    # into threadIdx (read-only) nor change another name bound to the same lanes.
    __iadd__ = _compound(operator.add)
    __isub__ = _compound(operator.sub)
    __imul__ = _compound(operator.mul)
    __ifloordiv__ = _compound(operator.floordiv)
    __imod__ = _compound(operator.mod)
    __ilshift__ = _compound(operator.lshift)
    __irshift__ = _compound(operator.rshift)
    __iand__ = _compound(operator.and_)
    __ior__ = _compound(operator.or_)
    __ixor__ = _compound(operator.xor)


def as_lanes(value: Any) -> Lanes:
    """View *value* (array-like) as :class:`Lanes`.

    Examples
    --------
    >>> as_lanes([1, 2]).dtype == np.array([1, 2]).dtype
    True
    """
    return np.asarray(value).view(Lanes)


def is_lanes(value: Any) -> bool:
    """Return True when *value* is a thread-varying :class:`Lanes` array.

    Examples
    --------
    >>> is_lanes(as_lanes([1])), is_lanes(np.array([1]))
    (True, False)
    """
    return isinstance(value, Lanes)


class _State(threading.local):
    """Per-Python-thread pointer to the running SIMT thread group (None outside kernels)."""

    group: Any = None


STATE = _State()
"""The running thread group of this Python thread (set by :mod:`ascreg.machine.simt.engine`)."""


def apply_lanewise(values: Any, converted: Any, impl: Any) -> Any:
    """Run *impl* on the converted arguments and shape the result like the call's arguments.

    The result is a :class:`Lanes` array if any original argument (*values*) was one, a numpy
    scalar if every argument was a scalar, else an array of the broadcast shape. *impl* always
    sees at least 1-d arrays: numpy warns on wrap-around in scalar arithmetic, not in arrays.

    Examples
    --------
    >>> apply_lanewise([1, 2], [np.asarray(1), np.asarray(2)], np.add)
    np.int64(3)
    """
    shapes = [c.shape for c in converted]
    shape = shapes[0] if shapes.count(shapes[0]) == len(shapes) else np.broadcast_shapes(*shapes)
    result = np.asarray(impl(*(c if c.ndim else c.reshape(1) for c in converted))).reshape(shape)
    if any(isinstance(v, Lanes) for v in values):
        return result.view(Lanes)
    if result.ndim == 0:
        return result[()]
    return result

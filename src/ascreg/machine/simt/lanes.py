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

Arr = np.ndarray[Any, Any]


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


class PathSplit(DivergenceSignal):
    """A kernel run path by path met a value its active lanes disagree on (``values``: per lane).

    The engine's path runner (:func:`~ascreg.machine.simt.engine.run_paths`) undoes the run
    and runs each group of lanes that agree on its own.

    Examples
    --------
    >>> import numpy as np
    >>> PathSplit("bool()", np.array([1, 2])).values.tolist()
    [1, 2]
    """

    def __init__(self, message: str, values: Any) -> None:
        super().__init__(message)
        self.values = values
        self.lanes: Any = None
        """The lanes of the block that took the path (set by the path runner)."""


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
                if group.paths and self.size == group.size:  # a kernel run path by path
                    raise PathSplit(self._describe(), np.array(self).reshape(-1))
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


def _rebinding(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Return an in-place operator that computes ``op`` (no conversion back: a Python int)."""

    def rebind(self: Any, other: Any) -> Any:
        return op(self, other)

    rebind.__doc__ = f"``x {op.__name__.strip('_')}= n`` as Python does it: ``x = x op n``."
    return rebind


_COMPARISONS = frozenset(
    {np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal}
)


class WeakLanes(Lanes):
    """One Python number per lane: numpy's rules for a Python ``int`` (or ``float``), lane-wise.

    ``blockIdx.x`` of a block run alone is a Python ``int``: with numpy values it takes their
    type (NEP 50: ``uint32`` lanes ``+ 1`` stay ``uint32``, ``- 1`` from a ``uint32`` ``0``
    raises ``OverflowError``). A batch of blocks holds each lane's block here and converts it
    the same way wherever it meets a numpy value; with other Python numbers (or itself) it
    computes as Python would (``int64``, or ``float64`` after ``/``) and stays weak.

    Examples
    --------
    >>> import numpy as np
    >>> b = np.array([0, 1, 2]).view(WeakLanes)
    >>> (b * np.uint32(4) + np.arange(3, dtype=np.uint32)).dtype
    dtype('uint32')
    >>> b - 1, type(b - 1).__name__
    (WeakLanes([-1,  0,  1]), 'WeakLanes')
    >>> np.uint32(5) + (b - 1)  # what np.uint32(5) + (-1) does
    Traceback (most recent call last):
    ...
    OverflowError: Python integer -1 out of bounds for uint32
    """

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        plain = [np.asarray(x).view(np.ndarray) if isinstance(x, WeakLanes) else x for x in inputs]
        if method != "__call__" or "out" in kwargs or ufunc.nout != 1:
            return getattr(ufunc, method)(*plain, **kwargs)
        strong = [x for x in inputs if not isinstance(x, WeakLanes | int | float | complex)]
        if not strong or ufunc in _COMPARISONS:  # Python arithmetic, or an exact comparison
            result = ufunc(*plain, **kwargs)
            kind = WeakLanes if not strong and result.dtype.kind in "if" else Lanes
            return result.view(kind)
        example = 0.0 if any(np.asarray(x).dtype.kind == "f" for x in inputs) else 0
        target = np.result_type(*strong, example)
        converted = [_weak_to(x, target) if isinstance(x, WeakLanes) else x for x in inputs]
        return np.asarray(ufunc(*converted, **kwargs)).view(Lanes)

    def astype(self, *args: Any, **kwargs: Any) -> Any:
        """Return a numpy-typed value (``Lanes``, no longer weak), as a conversion does."""
        return np.asarray(self).view(np.ndarray).astype(*args, **kwargs).view(Lanes)

    # Python's `x += n` rebinds x to a new int: the result of the plain operator, still weak
    __iadd__ = _rebinding(operator.add)
    __isub__ = _rebinding(operator.sub)
    __imul__ = _rebinding(operator.mul)
    __ifloordiv__ = _rebinding(operator.floordiv)
    __imod__ = _rebinding(operator.mod)


def _weak_to(values: Any, dtype: np.dtype[Any]) -> Arr:
    """Convert weak lanes to *dtype* as numpy converts a Python number (``OverflowError``)."""
    array = np.asarray(values).view(np.ndarray)
    converted = array.astype(dtype)
    if dtype.kind in "iub" and array.dtype.kind in "iu":
        wrong = converted.astype(array.dtype) != array
        group = STATE.group
        active = None if group is None else group.active
        if active is not None and active.shape == wrong.shape:
            wrong &= active  # inactive lanes do not run the conversion
        if wrong.any():
            bad = int(array[np.argmax(wrong)])
            raise OverflowError(f"Python integer {bad} out of bounds for {dtype}")
    return converted


def weak_to_match(value: Any, other: Any) -> Any:
    """Return *value* converted to *other*'s type when it is weak and *other* is a numpy value.

    What a merge (``np.where``) of a Python number with a numpy value does (used by
    :func:`~ascreg.engine.simt.masked.blend`).

    Examples
    --------
    >>> import numpy as np
    >>> weak_to_match(np.array([1, 2]).view(WeakLanes), np.uint32(0)).dtype
    dtype('uint32')
    """
    if not isinstance(value, WeakLanes) or isinstance(other, WeakLanes):
        return value
    dtype = getattr(other, "dtype", None)
    if dtype is None:
        return value
    return _weak_to(value, np.result_type(dtype, 0)).view(Lanes)


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

_CHOSEN: list[Any] = [None, None]
"""The last active mask :func:`active_indices` saw, and its lanes."""


def active_indices() -> np.ndarray[Any, Any] | None:
    """Return the lanes of the running group's active mask (None: every lane), read-only.

    Kept for the mask last asked about: the accesses of one stretch of divergent code share it
    (a mask is replaced, never changed, while it is active).

    Examples
    --------
    >>> active_indices() is None  # outside a kernel: no group, no mask
    True
    """
    group = STATE.group
    active = None if group is None else group.active
    if active is None:
        return None
    if _CHOSEN[0] is not active:
        chosen = np.flatnonzero(active)
        chosen.flags.writeable = False
        _CHOSEN[0], _CHOSEN[1] = active, chosen
    lanes: np.ndarray[Any, Any] = _CHOSEN[1]
    return lanes


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

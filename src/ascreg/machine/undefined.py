"""Undefined lanes: what a whole-register load reads past its allocation, or unordered.

An unmasked ``LoadAlign`` of a whole register whose last bytes run past its allocation but stay
inside UB is legal on the chip (rms_norm-style kernels load their tail that way and mask it
off); the lanes covering those bytes hold whatever UB holds there, which the kernel must not
use. ascreg loads those bytes (the UB bytes actually there) and marks the lanes *undefined*.
So does a load of UB bytes its ``__simd_vf__`` stored with no store-to-load barrier between
(the chip may run the load before the store: the lanes may hold the old bytes or the new):
the register's lane array is an :class:`UndefinedLanes`, a numpy array that carries a boolean
``undefined`` mask through the core's numpy arithmetic:

* an element-wise operation's lane is undefined when one of its operands' lanes is;
* ``numpy.where(c, a, b)`` takes the mask of the side it picks (a zeroing op's masked-off lanes
  become 0, defined again; a merging op keeps the old lane's mask) plus the condition's;
* reshapes, views, slices, repeats, ``take`` and concatenations move the mask with the lanes;
  a function it does not know marks every lane undefined if any input lane was.

Using an undefined lane is an error (an :class:`~ascreg.errors.UndefinedLaneError`, a warning
under ``undefined="warn"``) where the value would leave the register: an *active* lane of a
store, an active lane of a reduction, a lane read as a scalar (:func:`require_defined`). A
mask computed from undefined lanes is not tracked (a ``Compare`` of them gives plain bits).

Examples
--------
>>> import numpy as np
>>> x = with_undefined(np.float32([1, 2, 3, 4]), np.array([False, False, True, True]), "demo")
>>> undefined_lanes(x * 2).tolist()
[False, False, True, True]
>>> y = np.where(np.array([True, True, False, False]), x * 2, 0)
>>> undefined_lanes(y).any()  # the zeroed lanes are defined again
np.False_
>>> require_defined(x + 1, np.array([True, False, False, True]), "a store")
Traceback (most recent call last):
...
ascreg.errors.UndefinedLaneError: a store uses lane 3, which is undefined (demo): ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ascreg.errors import UndefinedLaneError, undefined_behaviour

Arr = np.ndarray[Any, Any]


class Origin(NamedTuple):
    """Where undefined lanes came from: the words of the error their use raises, and its class.

    Examples
    --------
    >>> Origin("loaded past the end").error.__name__
    'UndefinedLaneError'
    """

    where: str
    """What made the lanes undefined (the load, its bytes, the allocation)."""
    advice: str = (
        "the lanes a whole-register load reads past the end of its allocation hold whatever UB "
        "holds there; mask them off (UpdateMask of the element count) or pad the buffer"
    )
    """How to avoid using them."""
    error: type[UndefinedLaneError] = UndefinedLaneError
    """The error a use of one raises (or warns with, per policy)."""


_NOWHERE = Origin("")


class UndefinedLanes(np.ndarray[Any, Any]):
    """Lanes some of which are undefined (see the module docstring).

    ``undefined`` has the array's shape; ``origin`` (an :class:`Origin`) says where the
    undefined lanes came from.
    Arithmetic returns :class:`UndefinedLanes` while some lane is undefined, else a plain array.
    """

    undefined: Arr
    origin: Origin

    def __array_finalize__(self, obj: Any) -> None:
        # a view numpy made itself: the parent's mask when the shape is the same, else every
        # lane (a view this class does not know how to follow; see _taint)
        parent = getattr(obj, "undefined", None)
        self.undefined = parent if parent is not None else np.zeros(self.shape, dtype=bool)
        self.origin = getattr(obj, "origin", _NOWHERE)

    # -- numpy protocols --------------------------------------------------------------------

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(plain(o) for o in out)
        result = getattr(ufunc, method)(*map(plain, inputs), **kwargs)
        taints = [_taint(x) for x in inputs if isinstance(x, np.ndarray)]
        origin = _origin(inputs)
        if method == "__call__":
            mask = _any_of(taints, np.shape(result[0] if isinstance(result, tuple) else result))
        elif method == "reduce" and np.ndim(result):
            axis = kwargs.get("axis", 0)
            mask = np.logical_or.reduce(
                taints[0], axis=axis, keepdims=kwargs.get("keepdims", False)
            )
        elif method == "accumulate":
            mask = np.logical_or.accumulate(taints[0], axis=kwargs.get("axis", 0))
        else:
            mask = np.full(np.shape(result), any(t.any() for t in taints))
        if out is not None:
            for target in out:
                if isinstance(target, UndefinedLanes):
                    target.undefined = np.broadcast_to(mask, target.shape).copy()
        if isinstance(result, tuple):
            return tuple(with_undefined(r, mask, origin) for r in result)
        return with_undefined(result, mask, origin)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        result = func(*_plain_all(args), **_plain_all(kwargs))
        if not isinstance(result, np.ndarray):
            return result
        origin = _origin((*args, *kwargs.values()))
        if func is np.where and len(args) == 3:
            condition, first, second = args
            picked = np.where(plain(condition), _taint(first), _taint(second))
            mask = picked | _taint(condition)
        elif func in _STRUCTURAL:
            mask = func(*_taints_all(args), **_taints_all(kwargs))
        else:
            leaves = [_taint(a) for a in _leaves((args, kwargs))]
            mask = np.full(result.shape, any(t.any() for t in leaves))
        return with_undefined(result, np.broadcast_to(mask, result.shape), origin)

    # -- methods that move lanes -------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:
        result = plain(self)[key]
        if not isinstance(result, np.ndarray):
            return result
        return with_undefined(result, _taint(self)[_plain_all(key)], self.origin)

    def __setitem__(self, key: Any, value: Any) -> None:
        plain(self)[key] = plain(value)
        mask = _taint(self).copy()
        mask[_plain_all(key)] = _taint(value) if isinstance(value, np.ndarray) else False
        self.undefined = mask

    def view(self, *args: Any, **kwargs: Any) -> Any:
        """``ndarray.view``; a lane's mask covers each of its narrower elements."""
        result = plain(self).view(*args, **kwargs)
        if not isinstance(result, np.ndarray) or isinstance(result, UndefinedLanes):
            return result
        return with_undefined(result, _resized(_taint(self), result.shape), self.origin)

    def astype(self, *args: Any, **kwargs: Any) -> Any:
        """``ndarray.astype``; the lanes keep their masks."""
        return with_undefined(plain(self).astype(*args, **kwargs), _taint(self), self.origin)

    def reshape(self, *args: Any, **kwargs: Any) -> Any:
        """``ndarray.reshape``; the mask is reshaped the same way."""
        result = plain(self).reshape(*args, **kwargs)
        return with_undefined(result, _taint(self).reshape(result.shape), self.origin)

    def ravel(self, *args: Any, **kwargs: Any) -> Any:
        """``ndarray.ravel``; the mask is flattened the same way."""
        return with_undefined(plain(self).ravel(*args), _taint(self).ravel(*args), self.origin)

    def copy(self, *args: Any, **kwargs: Any) -> Any:
        """``ndarray.copy``; the copy keeps the mask."""
        return with_undefined(plain(self).copy(*args, **kwargs), _taint(self), self.origin)

    def __repr__(self) -> str:
        lanes = np.flatnonzero(_taint(self))
        return f"{plain(self)!r} (undefined lanes: {lanes.tolist()!r:.80})"


_STRUCTURAL: frozenset[Callable[..., Any]] = frozenset(
    [
        np.concatenate,
        np.stack,
        np.repeat,
        np.take,
        np.broadcast_to,
        np.reshape,
        np.ravel,
        np.transpose,
        np.squeeze,
        np.flip,
        np.roll,
        np.tile,
        np.atleast_1d,
        np.expand_dims,
        np.moveaxis,
        np.swapaxes,
        np.resize,
        np.take_along_axis,
    ]
)
"""Functions that only move lanes: the same call on the masks gives the result's mask."""


def plain(value: Any) -> Any:
    """Return *value* without its undefined-lane mask (a plain ndarray view), or as it is."""
    return np.ndarray.view(value, np.ndarray) if isinstance(value, UndefinedLanes) else value


def _taint(value: Any) -> Arr:
    """Return the undefined-lane mask of *value*: False everywhere for a plain value.

    A view numpy made in a way this module does not follow (the mask kept the parent's shape)
    counts as wholly undefined if any of the parent's lanes was.
    """
    if isinstance(value, UndefinedLanes):
        mask = value.undefined
        if mask.shape == value.shape:
            return mask
        return np.full(value.shape, bool(mask.any()))
    return np.zeros(np.shape(value), dtype=bool)


def undefined_lanes(values: Any) -> Arr:
    """Return which lanes of *values* are undefined (all False for a plain array).

    Examples
    --------
    >>> undefined_lanes(np.zeros(3)).tolist()
    [False, False, False]
    """
    return _taint(values)


def _resized(mask: Arr, shape: tuple[int, ...]) -> Arr:
    """Return the mask of a ``view`` to another element size (a lane's bytes share its mask)."""
    if mask.shape == shape:
        return mask
    if not mask.ndim or not len(shape):
        return np.full(shape, bool(mask.any()))
    old, new = mask.shape[-1], shape[-1]
    if new > old and new % old == 0:
        return np.repeat(mask, new // old, axis=-1).reshape(shape)
    if old > new and old % new == 0:
        return mask.reshape(*mask.shape[:-1], new, old // new).any(axis=-1).reshape(shape)
    return np.full(shape, bool(mask.any()))


def _any_of(masks: list[Arr], shape: tuple[int, ...]) -> Arr:
    result = np.zeros(shape, dtype=bool)
    for mask in masks:
        result = result | mask
    return np.broadcast_to(result, shape)


def _origin(values: Any) -> Origin:
    """Return the origin of the first undefined lanes among *values* (lists of arrays too)."""
    leaves = _leaves(list(values))
    found = (v.origin for v in leaves if isinstance(v, UndefinedLanes) and v.origin.where)
    return next(found, _NOWHERE)


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, list | tuple):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return _leaves(list(tree.values()))
    return [tree] if isinstance(tree, np.ndarray) else []


def _plain_all(tree: Any) -> Any:
    if isinstance(tree, list | tuple):
        return type(tree)(_plain_all(item) for item in tree)
    if isinstance(tree, dict):
        return {key: _plain_all(item) for key, item in tree.items()}
    return plain(tree)


def _taints_all(tree: Any) -> Any:
    if isinstance(tree, list | tuple):
        return type(tree)(_taints_all(item) for item in tree)
    if isinstance(tree, dict):
        return {key: _taints_all(item) for key, item in tree.items()}
    return _taint(tree) if isinstance(tree, np.ndarray) else tree


def with_undefined(values: Any, mask: Any, origin: Origin | str) -> Any:
    """Return *values* carrying the undefined-lane *mask* (plain when no lane is undefined).

    *origin*: an :class:`Origin`, or its ``where`` (a read past an allocation's end).

    Examples
    --------
    >>> type(with_undefined(np.zeros(2), np.array([False, True]), "x")).__name__
    'UndefinedLanes'
    >>> type(with_undefined(np.zeros(2), np.zeros(2, bool), "x")).__name__
    'ndarray'
    """
    if not isinstance(values, np.ndarray):
        return values
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return plain(values)
    tainted = np.ndarray.view(plain(values), UndefinedLanes)
    tainted.undefined = np.broadcast_to(mask, values.shape).copy()
    tainted.origin = Origin(origin) if isinstance(origin, str) else origin
    return tainted


def looked_up(table: Arr, codes: Arr) -> Arr:
    """Return ``table[codes]`` (a table look-up), a lane undefined where its code is.

    (``ndarray.take`` and indexing by an array are methods, which keep no mask themselves.)

    Examples
    --------
    >>> codes = with_undefined(np.array([0, 1, 1]), np.array([False, False, True]), "demo")
    >>> undefined_lanes(looked_up(np.array([5.0, 7.0]), codes)).tolist()
    [False, False, True]
    """
    if type(codes) is not UndefinedLanes:
        found: Arr = table.take(codes)
        return found
    return with_undefined(table.take(plain(codes)), _taint(codes), codes.origin)  # type: ignore[no-any-return]


def require_defined(values: Any, active: Any, what: str) -> None:
    """Raise (or warn, per policy) when an *active* lane of *values* is undefined.

    *active* is one flag per lane (None: every lane); *what* names the use ("a store", "a
    reduction", "a scalar read") in the message. A plain array passes at the cost of one type
    check.
    """
    if type(values) is not UndefinedLanes:
        return
    mask = _taint(values)
    enables = None if active is None else np.asarray(plain(active), dtype=bool)
    if enables is not None and enables.shape == mask.shape[mask.ndim - enables.ndim :]:
        mask = mask & enables  # (a batch's rows: one mask for every iteration, or one each)
    if not mask.any():
        return
    lane = int(np.flatnonzero(mask.reshape(-1))[0]) % mask.shape[-1]  # (in its register)
    where, advice, error = values.origin
    undefined_behaviour(error(f"{what} uses lane {lane}, which is undefined ({where}): {advice}"))

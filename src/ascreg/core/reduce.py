"""Reductions on numpy lane arrays: per register, per 32-byte data block, per lane pair.

``Reduce`` reduces the whole register, ``ReduceDataBlock`` each 32-byte data block and
``PairReduceElem`` each two adjacent lanes.

* SUM adds in a pairwise binary tree, in the element type, one rounding per step: lanes
  (0, 1), (2, 3), ... first, then pairs of those partial sums, until one value is left.
  Integers wrap; floats are IEEE 754 round to nearest even (numpy's float16 add is computed
  in float32 and rounded once more, which is exact for a sum of two halves).
* MAX / MIN return the extreme and the index of its *first* occurrence. ``-0 < +0`` for this
  ordering, so ``max(-0, +0) = +0`` and ``min(-0, +0) = -0``. Any NaN wins: the result is that
  NaN and the index is the first NaN's.

The caller replaces masked-off lanes by the neutral value first (:func:`fill_masked`).

Examples
--------
>>> import numpy as np
>>> tree_sum(np.array([1, 2, 3, 4], np.int8))
np.int8(10)
>>> extreme(np.array([3, 7, 7, 1], np.int16), largest=True)
(np.int16(7), 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.core.fpenv import quiet
from ascreg.machine.undefined import require_defined

Lanes = np.ndarray[Any, Any]


def tree_sum(values: Lanes) -> Any:
    """Sum a power-of-two number of lanes pairwise: ``((v0+v1)+(v2+v3))+...``.

    A 2-D array is summed along its last axis (one tree per row).

    Examples
    --------
    >>> v = np.array([2048, 1, 1, 1], np.float16)  # tree: 2048 + 2; left to right: 2048
    >>> float(tree_sum(v))
    2050.0
    >>> tree_sum(np.arange(8, dtype=np.int16).reshape(2, 4))
    array([ 6, 22], dtype=int16)
    """
    with quiet():  # wrap-around and IEEE overflow/NaN are results here
        while values.shape[-1] > 1:
            values = np.add(values[..., 0::2], values[..., 1::2], dtype=values.dtype)
    return values[..., 0][()]  # a scalar for 1-D input


def _order_key(values: Lanes) -> Lanes:
    """Return an integer key whose order is the lanes' numeric order (floats: -0 below +0)."""
    if values.dtype.kind in "iu":
        return values
    unsigned = np.dtype(f"u{values.dtype.itemsize}")
    bits = values.view(unsigned)
    sign = unsigned.type(1 << (8 * values.dtype.itemsize - 1))
    negative = (bits & sign) != 0
    key: Lanes = np.where(negative, ~bits, bits | sign)  # monotonic over the non-NaN values
    return key


def extreme(values: Lanes, *, largest: bool) -> tuple[Any, Any]:
    """Return ``(value, index)`` of the first maximum (*largest*) or minimum of *values*.

    Examples
    --------
    >>> extreme(np.array([-0.0, 0.0, np.nan, np.nan], np.float32), largest=True)
    (np.float32(nan), 2)
    >>> extreme(np.array([0.0, -0.0, 1.0], np.float32), largest=False)
    (np.float32(-0.0), 1)
    """
    value, index = extremes(values, largest=largest)
    return value[()], int(index)


def extremes(values: Lanes, *, largest: bool) -> tuple[Lanes, Lanes]:
    """Return the first maximum (*largest*) or minimum of the last axis, and its index.

    One value and index per row of a 2-D array (a batched loop's rows), 0-d for 1-D.

    Examples
    --------
    >>> v, i = extremes(np.array([[3, 7, 7], [9, 1, 9]], np.int16), largest=True)
    >>> v.tolist(), i.tolist()
    ([7, 9], [1, 0])
    """
    key = _order_key(values)
    index = np.argmax(key, axis=-1) if largest else np.argmin(key, axis=-1)
    if values.dtype.kind == "f":
        nan = np.isnan(values)
        index = np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), index)
    picked: Lanes = np.take_along_axis(values, np.expand_dims(index, -1), axis=-1)[..., 0]
    return picked, np.asarray(index)


FLOAT_TYPE_MIN_IS_FINITE = False
"""Decision: the "type-min" / "type-max" a masked-off lane counts as in a float MAX / MIN (and
the empty-mask result) is -inf / +inf, as the C API reduce page states for the same hardware
instruction ("unselected lanes treated as -inf/+inf"); the Reg page only says "type-min".
True would use the lowest / highest *finite* value (half -65504 / 65504) instead."""


def identity(kind: str, dtype: np.dtype[Any]) -> Any:
    """Return what a masked-off lane counts as: 0 (SUM), type-min (MAX), type-max (MIN).

    Examples
    --------
    >>> int(identity("MAX", np.dtype(np.int16))), float(identity("MIN", np.dtype(np.float16)))
    (-32768, inf)
    """
    if kind == "SUM":
        return dtype.type(0)
    info: Any = np.iinfo(dtype) if dtype.kind in "iu" else np.finfo(dtype)
    if dtype.kind == "f" and not FLOAT_TYPE_MIN_IS_FINITE:
        return dtype.type(-np.inf if kind == "MAX" else np.inf)
    return dtype.type(info.min if kind == "MAX" else info.max)


def fill_masked(values: Lanes, active: Lanes, neutral: Any) -> Lanes:
    """Lanes of *values* where *active*, else *neutral* (the reduction's identity).

    Examples
    --------
    >>> fill_masked(np.array([5, 6], np.int16), np.array([False, True]), -32768)
    array([-32768,      6], dtype=int16)
    """
    return np.where(active, values, np.asarray(neutral, dtype=values.dtype))


def result_lanes(value: Any, index: Any, dtype: np.dtype[Any], lanes: int) -> Lanes:
    """Build the dst lanes: the value in lane 0, the index's raw bits in lane 1, else 0.

    Examples
    --------
    >>> result_lanes(np.float16(1.0), 114, np.dtype(np.float16), 4).view(np.uint16)
    array([15360,   114,     0,     0], dtype=uint16)
    """
    out = np.zeros((*np.shape(value), lanes), dtype=dtype)  # rows of a batched loop: one each
    out[..., 0] = value
    if index is not None:
        unsigned = np.dtype(f"u{dtype.itemsize}")
        out.view(unsigned)[..., 1] = index
    return out


def reduce(kind: str, values: Lanes, active: Lanes, target: np.dtype[Any], lanes: int) -> Lanes:
    """Reduce the *active* lanes of *values* (``SUM``/``MAX``/``MIN``) into dst lanes of *target*.

    *values* is first converted to *target* (the int16 -> int32 SUM widening); masked-off lanes
    count as the identity; SUM adds in the pairwise tree; MAX/MIN put the first extreme's index
    in lane 1 (see :func:`result_lanes`).

    Examples
    --------
    >>> import numpy as np
    >>> reduce("SUM", np.arange(4, dtype=np.int16), np.ones(4, bool), np.dtype(np.int32), 4)
    array([6, 0, 0, 0], dtype=int32)
    >>> reduce("MAX", np.int32([3, 9, 9, 1]), np.ones(4, bool), np.dtype(np.int32), 4)
    array([9, 1, 0, 0], dtype=int32)
    """
    require_defined(values, active, "a reduction")
    widened = values if values.dtype == target else values.astype(target)
    filled = fill_masked(widened, active, identity(kind, target))
    if kind == "SUM":
        return result_lanes(tree_sum(filled), None, target, lanes)
    value, index = extremes(filled, largest=kind == "MAX")
    return result_lanes(value, index, target, lanes)


DATA_BLOCK_BYTES = 32
"""The size of one data block: ``ReduceDataBlock`` reduces each 32-byte block of the source."""


def block_extremes(blocks: Lanes, *, largest: bool) -> Lanes:
    """Return the maximum (*largest*) or minimum along the last axis of *blocks*.

    A row holding a NaN gives its first NaN; ``-0 < +0`` as in :func:`extreme`.

    Examples
    --------
    >>> block_extremes(np.float32([[1, np.nan], [-0.0, 0.0]]), largest=True)
    array([nan,  0.], dtype=float32)
    """
    key = _order_key(blocks)
    pick = np.argmax(key, axis=-1) if largest else np.argmin(key, axis=-1)
    if blocks.dtype.kind == "f":
        nan = np.isnan(blocks)
        pick = np.where(nan.any(axis=-1), np.argmax(nan, axis=-1), pick)
    picked: Lanes = np.take_along_axis(blocks, pick[..., None], axis=-1)[..., 0]
    return picked


def reduce_blocks(
    kind: str, values: Lanes, active: Lanes, target: np.dtype[Any], lanes: int
) -> Lanes:
    """Reduce each 32-byte data block of *values* (``SUM``/``MAX``/``MIN``) into dst lanes.

    The blocks are cut in the *source* type (16 half lanes, 8 float lanes, ...); each block's
    result, in *target*, goes to dst lane ``block`` in order and the other dst lanes are 0.
    Masked-off lanes count as the identity (:func:`identity`); SUM widens to *target* and adds
    in the pairwise tree; MAX/MIN give the extreme (no index) or the block's first NaN.

    Examples
    --------
    >>> values = np.arange(16, dtype=np.int32)  # two blocks of 8 int32 lanes
    >>> reduce_blocks("SUM", values, np.ones(16, bool), np.dtype(np.int32), 16)[:3]
    array([28, 92,  0], dtype=int32)
    >>> reduce_blocks("MIN", values, values > 2, np.dtype(np.int32), 16)[:3]
    array([3, 8, 0], dtype=int32)
    """
    require_defined(values, active, "a reduction")
    per_block = DATA_BLOCK_BYTES // values.dtype.itemsize
    widened = values if values.dtype == target else values.astype(target)
    filled = fill_masked(widened, active, identity(kind, target))
    blocks = filled.reshape(*filled.shape[:-1], -1, per_block)  # rows: blocks of each row
    results = tree_sum(blocks) if kind == "SUM" else block_extremes(blocks, largest=kind == "MAX")
    return _leading(results, target, lanes)


def _leading(results: Lanes, target: np.dtype[Any], lanes: int) -> Lanes:
    """Return dst lanes of *target* holding *results* from lane 0 on (each row's), then 0."""
    out = np.zeros((*results.shape[:-1], lanes), dtype=target)
    out[..., : results.shape[-1]] = results
    return out


def pair_reduce(
    kind: str, values: Lanes, active: Lanes, target: np.dtype[Any], lanes: int
) -> Lanes:
    """Add each two adjacent lanes (``PairReduceElem``; *kind* ``SUM`` is the only one).

    dst lane ``i`` is ``v[2i] + v[2i+1]`` in *target* (one rounding), masked-off lanes
    counting as +0; the upper half of dst is 0.

    Examples
    --------
    >>> active = np.array([True, True, False, True])
    >>> pair_reduce("SUM", np.float16([1, 2, 3, 4]), active, np.dtype(np.float16), 4)
    array([3., 4., 0., 0.], dtype=float16)
    """
    require_defined(values, active, "a reduction")
    filled = fill_masked(values.astype(target), active, identity(kind, target))
    pairs = tree_sum(filled.reshape(*filled.shape[:-1], -1, 2))
    return _leading(pairs, target, lanes)

"""The 950's order of the 2-D reductions ``ReduceSum/Max/Min<T, Pattern::Reduce::AR|RA>``.

The advanced API reduces a ``(dimA, dimR)`` (AR) or ``(dimR, dimA)`` (RA) matrix with register
``Add`` / ``Max`` / ``Min`` on whole vectors and a last register ``Reduce`` inside one vector
(``impl/adv_api/detail/reduce/reduce_common_*_3510_impl.h``). Integer sums and extremes do not
depend on that order, float sums do, so the order is followed step by step:

1. ``mainR`` is the largest power of two ``<= dimR`` (at most ``2**15``), ``tailR = dimR -
   mainR``; without ``isReuseSource`` (aligned rows only) a ``tailR`` of 0 halves ``mainR``. The
   first ``tailR`` elements (AR) or rows (RA) add the ``tailR`` after ``mainR``.
2. Folds halve what is left, first half plus second half: AR works on whole vectors of the row
   (``vl = 256 / sizeof(T)`` lanes, 64 for 64-bit types), RA on whole rows. The "main" folds run
   4 halvings at a time (3 for 64-bit types) and store their result; the 32-byte-aligned AR rows
   of 16- and 32-bit types fold each group of 16 *consecutive* vectors, every other path 16 vectors
   ``n`` apart (the same as four halvings); RA rows of ``vl / 2 < dimA <= vl`` group 16
   consecutive rows.
3. AR: the last vector's lanes reduce with the register ``Reduce`` (the pairwise tree of
   :func:`ascreg.core.reduce.tree_sum`). Short rows (``dimR <= vl``) reduce at once: one 32-byte
   block with the per-block reduce, up to ``vl / 2`` elements by adding the blocks in order into
   the first, longer ones with the register ``Reduce`` over ``dimR`` lanes.

The algorithm stores into ``src`` (``isReuseSource = true``, and always for AR rows or RA
columns that are not 32-byte aligned) or into the temporary buffer; :class:`Plan` records those
stores so that the op writes them too.

Examples
--------
>>> import numpy as np
>>> x = np.arange(8 * 100, dtype=np.float32).reshape(8, 100)
>>> plan = reduce_ar(x, "SUM", reuse=True)
>>> bool((plan.dst == x.sum(axis=1)).all()), plan.src is not None
(True, True)
>>> reduce_ra(np.ones((5, 16), np.int32), "MAX", reuse=False).dst[:3]
array([1, 1, 1], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import attrs
import ml_dtypes
import numpy as np

from ascreg.core.arith import BINARY_OPS
from ascreg.core.reduce import block_extremes, identity, tree_sum

Array = np.ndarray[Any, Any]

VL_BYTES = 256
"""Bytes of one vector register."""
BLOCK_BYTES = 32
"""Bytes of one DataBlock (the alignment that picks the aligned algorithms)."""
U16_STRIDE = 65535
"""RA columns past this many take the concatenating path."""
BINARY = {"SUM": "Add", "MAX": "Max", "MIN": "Min", "PROD": "Mul"}
"""The register op each reduction folds with."""


def main_r(dim: int) -> int:
    """``CalculateMainR``: the largest power of two ``<= dim``, at most ``2**15`` (1 for 0, 1).

    Examples
    --------
    >>> main_r(100), main_r(64), main_r(1), main_r(1 << 17)
    (64, 64, 1, 32768)
    """
    main = 1
    for i in range(1, 16):
        if dim >> i == 0:
            break
        main = 1 << i
    return main


def folds_of(count: int) -> int:
    """``CalculateFolds``: how many halvings take *count* (a power of two) to 1 (at most 15)."""
    return sum(1 for i in range(1, 16) if count >> i)


def lanes_of(dtype: np.dtype[Any]) -> int:
    """Lanes of one vector of *dtype* (64-bit types: 64, two registers)."""
    return 64 if dtype.itemsize == 8 else VL_BYTES // dtype.itemsize


@attrs.define
class Work:
    """A working copy of the elements the algorithm stores into, and which it stored.

    Attributes
    ----------
    values
        The rows, in the layout of the buffer (``src``'s, or the temporary buffer's).
    stored
        The elements some step stored.
    """

    values: Array
    stored: Array

    @classmethod
    def of(cls, values: Array) -> Work:
        """Start from a copy of *values*, nothing stored."""
        return cls(values.copy(), np.zeros(values.shape, dtype=bool))


@attrs.frozen
class Plan:
    """The result of one reduction: dst and what the algorithm stored elsewhere.

    Attributes
    ----------
    dst
        One element per A index.
    src
        The stores into ``src`` (its layout), or None.
    tmp
        The stores into the temporary buffer (rows of ``tmp_stride`` elements), or None.
    tmp_stride
        The row stride of :attr:`tmp`.
    """

    dst: Array
    src: Work | None = None
    tmp: Work | None = None
    tmp_stride: int = 0


def _op(kind: str) -> Any:
    return BINARY_OPS[BINARY[kind]]


def halves(values: Array, kind: str, axis: int) -> Array:
    """Fold *values* along *axis* (a power of two long), first half plus second half, to one.

    Examples
    --------
    >>> halves(np.float32([[1, 2, 3, 4]]), "SUM", 1)  # (1 + 3) + (2 + 4)
    array([10.], dtype=float32)
    """
    op = _op(kind)
    while values.shape[axis] > 1:
        half = values.shape[axis] // 2
        first = np.take(values, np.arange(half), axis=axis)
        second = np.take(values, np.arange(half, 2 * half), axis=axis)
        values = op(first, second)
    folded: Array = np.take(values, 0, axis=axis)
    return folded


def pair_product(rows: Array) -> Array:
    """Return each row's product in ``ReduceProd``'s register order (reduce_prod_3510_impl.h).

    Lanes past the row are 1, then ``DeInterleave`` + ``Mul`` halve the register until lane 0
    holds the product: lane ``i`` of each step is lanes ``2i`` times ``2i + 1`` of the one
    before (a tree of neighbours).

    Examples
    --------
    >>> pair_product(np.float32([[1, 2, 3, 4]])).tolist()  # (1 * 2) * (3 * 4)
    [24.0]
    """
    while rows.shape[1] > 1:
        rows = rows[:, 0::2] * rows[:, 1::2]
    product: Array = rows[:, 0]
    return product


def lane_reduce(kind: str, rows: Array, lanes: int) -> Array:
    """Reduce each row with the register ``Reduce`` over *lanes* lanes (the rest inactive).

    bfloat16 reduces in float32 and casts back (``CastTraitBF16F32``), exact for Max / Min.
    """
    if rows.dtype == np.dtype(ml_dtypes.bfloat16):
        wide: Array = lane_reduce(kind, rows.astype(np.float32), lanes)
        return wide.astype(rows.dtype)
    if kind == "PROD":
        ones = np.ones((rows.shape[0], lanes), dtype=rows.dtype)
        ones[:, : rows.shape[1]] = rows
        return pair_product(ones)
    padded = np.full((rows.shape[0], lanes), identity(kind, rows.dtype), dtype=rows.dtype)
    padded[:, : rows.shape[1]] = rows
    return block_reduce(kind, padded)


def block_reduce(kind: str, rows: Array) -> Array:
    """Reduce each row (a data block, or a register's lanes) in the register ``Reduce``'s order."""
    if kind == "SUM":
        summed: Array = tree_sum(rows)
        return np.atleast_1d(summed)
    if kind == "PROD":
        return pair_product(rows)
    if rows.dtype == np.dtype(ml_dtypes.bfloat16):
        wide: Array = block_extremes(rows.astype(np.float32), largest=kind == "MAX")
        return wide.astype(rows.dtype)
    return block_extremes(rows, largest=kind == "MAX")


def _cast_path(dtype: np.dtype[Any]) -> bool:
    """bfloat16 and 8-bit types reduce in float / half (exactly, for Max and Min)."""
    return dtype.itemsize == 1 or dtype == np.dtype(ml_dtypes.bfloat16)


def _short_ar(x: Array, kind: str, vl: int, grouped: bool = True) -> Array:
    """AR rows of ``1 < dimR <= vl`` elements, 32-byte aligned (``ReduceARReuseSourceLessThanVL``).

    *grouped*: the op passes its ``groupReduceType`` (``ReduceSum/Max/Min``); ``ReduceAll`` /
    ``ReduceAny`` pass none and reduce each row in one register.
    """
    dim_r = x.shape[1]
    size = x.dtype.itemsize
    if size == 8 or _cast_path(x.dtype) or not grouped or kind == "PROD":
        return lane_reduce(kind, x, vl)
    block = BLOCK_BYTES // size
    if dim_r == block:
        return block_reduce(kind, x)
    if dim_r < vl // 2:
        op = _op(kind)
        acc = x[:, :block]
        for k in range(1, dim_r // block):
            acc = op(x[:, k * block : (k + 1) * block], acc)
        return block_reduce(kind, acc)
    return lane_reduce(kind, x, vl)


def reduce_ar(x: Array, kind: str, *, reuse: bool, grouped: bool = True) -> Plan:
    """Reduce each row of *x* (``(dimA, dimR)``) as ``Pattern::Reduce::AR`` does on the 950.

    *reuse* is ``isReuseSource``; *grouped* as in :func:`_short_ar`.

    Examples
    --------
    >>> x = np.full((2, 8), 0.1, np.float32)
    >>> reduce_ar(x, "SUM", reuse=False).dst
    array([0.8, 0.8], dtype=float32)
    """
    dim_a, dim_r = x.shape
    size = x.dtype.itemsize
    vl = lanes_of(x.dtype)
    aligned = (dim_r * size) % BLOCK_BYTES == 0
    if dim_r == 1:
        return Plan(x[:, 0].copy())
    if dim_r <= vl and aligned:
        return Plan(_short_ar(x, kind, vl, grouped))
    if dim_r < vl:
        return Plan(lane_reduce(kind, x, vl))
    op = _op(kind)
    main = main_r(dim_r)
    tail = dim_r - main
    inplace = reuse or not aligned
    if not inplace and tail == 0:
        main //= 2
        tail = main
    if inplace:
        work = Work.of(x)
        work.values[:, :tail] = op(x[:, :tail], x[:, main : main + tail])
        work.stored[:, :tail] = True
    else:
        work = Work.of(x[:, :main])
        full = tail // vl * vl
        rest = tail % vl
        work.values[:, :full] = op(x[:, :full], x[:, main : main + full])
        if rest:  # the remainder goes into the first elements of the row
            work.values[:, :rest] = op(work.values[:, :rest], x[:, main + full : main + tail])
        work.stored[:] = True
    values = work.values
    count = main // vl
    group = 3 if size == 8 else 4
    consecutive = aligned and size != 8
    for _ in range(folds_of(count) // group):
        count >>= group
        span = values[:, : count * vl << group]
        if consecutive:
            folded = halves(span.reshape(dim_a, count, 1 << group, vl), kind, 2)
        else:
            folded = halves(span.reshape(dim_a, 1 << group, count, vl), kind, 1)
        values[:, : count * vl] = folded.reshape(dim_a, count * vl)
        work.stored[:, : count * vl] = True
    last = halves(values[:, : count * vl].reshape(dim_a, count, vl), kind, 1)
    dst = block_reduce(kind, last)
    if inplace:
        return Plan(dst, src=work)
    return Plan(dst, tmp=work, tmp_stride=main)


def reduce_ra(x: Array, kind: str, *, reuse: bool) -> Plan:
    """Reduce each column of *x* (``(dimR, dimA)``) as ``Pattern::Reduce::RA`` does on the 950.

    *reuse* is ``isReuseSource``.

    Examples
    --------
    >>> reduce_ra(np.float32([[1, 2], [3, 4], [5, 6]]), "SUM", reuse=True).dst
    array([ 9., 12.], dtype=float32)
    """
    dim_r, dim_a = x.shape
    size = x.dtype.itemsize
    vl = lanes_of(x.dtype)
    aligned = (dim_a * size) % BLOCK_BYTES == 0
    if dim_r == 1:
        return Plan(x[0].copy())
    op = _op(kind)
    concat = aligned and size != 8 and (dim_a <= vl // 2 or dim_a > U16_STRIDE)
    concat = concat or (aligned and size == 8 and kind == "MIN" and dim_a * size <= VL_BYTES // 2)
    consecutive = aligned and size != 8 and not concat and dim_a <= vl
    main = 1 << (dim_r.bit_length() - 1) if concat else main_r(dim_r)
    tail = dim_r - main
    inplace = reuse or not aligned
    if not inplace and tail == 0 and main > 1:
        main //= 2
        tail = main
    # two rows go straight to dst: the concatenating path, and the 16/32-bit over-VL path when
    # the halving left one main row
    over_vl = aligned and size != 8 and not concat and not consecutive
    if (dim_r == 2 and concat) or (over_vl and main == 1):
        return Plan(op(x[0], x[1]))
    if inplace:
        work = Work.of(x)
    else:
        work = Work.of(np.zeros((main, dim_a), dtype=x.dtype))
        work.values[tail:main] = x[tail:main]
        work.stored[tail:main] = True
    values = work.values
    values[:tail] = op(x[:tail], x[main : main + tail])
    work.stored[:tail] = True
    count = main
    if concat:  # every halving but the last stores
        stored_folds, group = max(folds_of(main) - 1, 0), 1
    else:
        group = 3 if size == 8 else 4
        stored_folds = folds_of(main) // group
    for _ in range(stored_folds):
        count >>= group
        span = values[: count << group]
        if consecutive:
            folded = halves(span.reshape(count, 1 << group, dim_a), kind, 1)
        else:
            folded = halves(span.reshape(1 << group, count, dim_a), kind, 0)
        values[:count] = folded
        work.stored[:count] = True
    dst = halves(values[:count], kind, 0)
    if inplace:
        return Plan(dst, src=work)
    return Plan(dst, tmp=work, tmp_stride=dim_a)

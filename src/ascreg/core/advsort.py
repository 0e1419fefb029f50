"""Lane semantics of the advanced API's sorts.

``Sort`` with a ``SortConfig``, the 32-element record sort and its full-sort merge:

* :func:`radix_order` is ``SortType::RADIX_SORT``: a stable sort on the *twiddled* keys of the
  dav-3510 implementation. A float's bits become an unsigned key that orders as the value does
  (a negative float has all bits inverted, a positive one its sign bit set), a signed integer
  has its sign bit flipped, and a descending sort inverts every key; the LSD radix passes are
  stable, so equal values keep their input order in both directions. The order is the bit
  patterns' total order: ``-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN``.
* :func:`merge_order` is ``SortType::MERGE_SORT``: the record sort (``Sort32``) of 32-value
  groups and their 4-way merges, descending by value with ``-0.0 == +0.0`` and NaN last, stable;
  ascending flips the sign bit of every value first and back after (as the implementation does,
  through ``Xor`` with the sign mask).
* :func:`full_records` is the record sort of ``Sort<T, isFullSort>``: (score, index) records,
  per 32-element group or, with *full*, across all of them.

Examples
--------
>>> import numpy as np
>>> x = np.array([3.0, -0.0, 0.0, -1.0, np.nan, 3.0], np.float32)
>>> radix_order(x, descending=False).tolist(), radix_order(x, descending=True).tolist()
([3, 1, 2, 0, 5, 4], [4, 0, 5, 2, 1, 3])
>>> merge_order(x[:6], descending=True).tolist()
[0, 5, 1, 2, 3, 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.core.sort import SORT_GROUP, bitsort32, descending_order, records, scores

Arr = np.ndarray[Any, Any]

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def radix_keys(values: Arr, descending: bool) -> Arr:
    """Return the unsigned keys the radix sort orders (``TwiddleInData``).

    Examples
    --------
    >>> radix_keys(np.array([-1, 0, 1], np.int8), descending=False).tolist()
    [127, 128, 129]
    >>> hex(int(radix_keys(np.array([-2.0], np.float32), descending=False)[0]))
    '0x3fffffff'
    """
    width = values.dtype.itemsize
    unsigned = _UNSIGNED[width]
    bits = np.ascontiguousarray(values).view(unsigned)
    sign = unsigned(1 << (8 * width - 1))
    kind = values.dtype.kind
    if kind in "fV":  # float16/float32/bfloat16: negative -> all bits inverted, else sign set
        negative = (bits & sign) != 0
        keys = np.where(negative, ~bits, bits | sign).astype(unsigned)
    elif kind == "i":
        keys = bits ^ sign
    else:
        keys = bits.copy()
    if descending:
        keys = ~keys
    return keys


def radix_order(values: Arr, descending: bool) -> Arr:
    """Return the stable permutation ``SortType::RADIX_SORT`` puts *values* in.

    Examples
    --------
    >>> radix_order(np.array([2, 1, 2, 0], np.uint8), descending=True).tolist()
    [0, 2, 1, 3]
    """
    return np.argsort(radix_keys(values, descending), kind="stable")


def _sign_flipped(values: Arr) -> Arr:
    unsigned = _UNSIGNED[values.dtype.itemsize]
    sign = unsigned(1 << (8 * values.dtype.itemsize - 1))
    flipped: Arr = (np.ascontiguousarray(values).view(unsigned) ^ sign).view(values.dtype)
    return flipped


def merge_order(values: Arr, descending: bool) -> Arr:
    """Return the permutation ``SortType::MERGE_SORT`` puts *values* (half or float) in.

    Examples
    --------
    >>> merge_order(np.array([1.0, -2.0, 1.0, 0.5], np.float16), descending=False).tolist()
    [1, 3, 0, 2]
    """
    keys = values if descending else _sign_flipped(values)
    return descending_order(keys.astype(np.float32))


def sign_flipped(values: Arr) -> Arr:
    """Return *values* with the sign bit flipped (what the ascending merge sort leaves in src).

    Examples
    --------
    >>> sign_flipped(np.array([1.5, -0.0], np.float32)).tolist()
    [-1.5, 0.0]
    """
    return _sign_flipped(values)


def full_records(score_values: Arr, index_values: Arr, full: bool) -> Arr:
    """Return the ``(n, 2)`` record words of ``Sort<T, isFullSort>`` (n a multiple of 32).

    Each group of 32 is sorted, highest score first, ties in input order; *full* merges the
    groups into one such sequence (the merge keeps ties in group order, so it is the stable
    sort of all of them).

    Examples
    --------
    >>> s = np.arange(64, dtype=np.float32); i = np.arange(64, dtype=np.uint32)
    >>> full_records(s, i, full=False)[[0, 32], 1].tolist(), full_records(s, i, full=True)[[0, 32], 1].tolist()
    ([31, 63], [63, 31])
    """
    if not full:
        return bitsort32(score_values, index_values)
    order = descending_order(score_values.astype(np.float32))
    return records(score_values[order], index_values[order])


def merge_taken(queues: list[Arr], dtype: np.dtype[Any]) -> list[int]:
    """Return how many records of each queue a merge that stops on exhaustion takes.

    The same merge as :func:`ascreg.core.sort.merge_queues` with *stop_on_exhaustion*
    (``MrgSort<T, true>``'s ``sortedNum``).

    Examples
    --------
    >>> def queue(*s):
    ...     return records(np.array(s, np.float32), np.arange(len(s), dtype=np.uint32))
    >>> merge_taken([queue(5.0, 1.0), queue(4.0)], np.dtype(np.float32))
    [1, 1]
    """
    if any(len(q) == 0 for q in queues):
        return [0] * len(queues)
    source = np.concatenate([np.full(len(q), k) for k, q in enumerate(queues)])
    keys = np.concatenate([np.minimum.accumulate(scores(q, dtype)) for q in queues])
    order = descending_order(keys.astype(np.float32))
    ends = np.cumsum([len(q) for q in queues]) - 1
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    taken = order[: int(rank[ends].min()) + 1]
    return [int(c) for c in np.bincount(source[taken], minlength=len(queues))]


__all__ = [
    "SORT_GROUP",
    "full_records",
    "merge_order",
    "merge_taken",
    "radix_keys",
    "radix_order",
    "sign_flipped",
]

"""The advanced API's ``Sort`` with a ``SortConfig`` (Sort.md), one element at a time.

Written from the page (both algorithms are stable; ascending unless ``isDescend``) and the
orders ascreg documents where the page is silent: the radix sort compares bit patterns in the
total order ``-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN`` (the sign decides, then a
larger magnitude is larger for positives and smaller for negatives), the merge sort compares
float values (``-0.0 == +0.0``) with NaN below every number when descending. Values are bit
patterns (Python ints); nothing here calls ascreg.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reference.common import decode_float, is_float, signed, width


def _total_order_key(bits: int, dtype: object, is_signed: bool) -> int:
    """An integer that orders as the bit patterns' total order (floats) or the values (ints)."""
    w = width(dtype)  # type: ignore[arg-type]
    sign = bits >> (w - 1)
    magnitude = bits & ((1 << (w - 1)) - 1)
    if is_float(dtype):  # type: ignore[arg-type]
        return -magnitude - 1 if sign else magnitude
    return signed(bits, w) if is_signed else bits


def _stable_insert(items: list[tuple[int, int]], before: Callable[[int, int], bool]) -> list[int]:
    """Insertion sort of (key position, bits) pairs: an item moves up only past items it goes before."""
    out: list[tuple[int, int]] = []
    for item in items:
        at = len(out)
        while at > 0 and before(item[1], out[at - 1][1]):
            at -= 1
        out.insert(at, item)
    return [position for position, _ in out]


def radix_sort(bits: Sequence[int], dtype: object, is_signed: bool, descending: bool) -> list[int]:
    """The permutation of the radix sort (stable, bit-pattern total order)."""
    keys = {b: _total_order_key(b, dtype, is_signed) for b in bits}
    if descending:
        return _stable_insert(list(enumerate(bits)), lambda a, b: keys[a] > keys[b])
    return _stable_insert(list(enumerate(bits)), lambda a, b: keys[a] < keys[b])


def merge_sort(bits: Sequence[int], dtype: object, descending: bool) -> list[int]:
    """The permutation of the merge sort (stable; values compared as floats)."""

    def above(a: float, b: float) -> bool:  # NaN below every number
        if math.isnan(a):
            return False
        return math.isnan(b) or a > b

    values = [decode_float(b, dtype) for b in bits]  # type: ignore[arg-type]
    if not descending:  # the implementation negates (sign bit) and sorts highest first
        values = [-v for v in values]
    return _stable_insert(list(enumerate(values)), above)  # type: ignore[arg-type]

"""Scalar reference of the copy engine's store atomics: one GM element merged with one written.

Written from the asc-devkit pages (simd_atomic/asc_set_atomic_{add,max,min}.md) and ascreg's
documented choices: integer sums wrap, float sums round to nearest even in the element type,
max/min give NaN when either side is NaN and keep the GM value on a tie (so -0 vs +0 keeps GM's).
Values are bit patterns (see :mod:`reference.common`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from reference.common import encode_float, is_float, value_of, wrap


def merge(op: str, old: int, new: int, dtype: Any) -> int:
    """The GM element after an atomic *op* copy writes *new* over *old* (bit patterns)."""
    a, b = value_of(old, dtype), value_of(new, dtype)
    if is_float(dtype) and (math.isnan(a) or math.isnan(b)):
        return encode_float(math.nan, dtype)
    if op == "add":
        if not is_float(dtype):
            return wrap(a + b, dtype)
        if math.isinf(a) or math.isinf(b):
            return encode_float(a + b, dtype)
        total = Fraction(a) + Fraction(b)
        both_negative_zero = total == 0 and math.copysign(1, a) < 0 and math.copysign(1, b) < 0
        return encode_float(total, dtype, negative_zero=both_negative_zero)
    wins = b > a if op == "max" else b < a
    return new if wins else old

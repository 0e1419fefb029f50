"""``half2`` / ``bfloat16x2_t`` component math, one Python float at a time, rounded exactly.

Each result is the exact rational value (``fractions.Fraction``) rounded once to nearest even
into the element format (significand bits, smallest normal exponent, largest finite value);
special values come from Python's float arithmetic, which is IEEE 754.
"""

from __future__ import annotations

import math
from fractions import Fraction

FORMATS = {"half": (11, -14, 65504.0), "bfloat16": (8, -126, 3.3895313892515355e38)}
"""Significand bits, smallest normal exponent and largest finite value of each element type."""


def round_exact(q: Fraction, fmt: str, negative_zero: bool = False) -> float:
    """Round the exact value *q* to the format *fmt*, to nearest even; overflow gives inf."""
    bits, emin, largest = FORMATS[fmt]
    if q == 0:
        return -0.0 if negative_zero else 0.0
    size = abs(q)
    e = size.numerator.bit_length() - size.denominator.bit_length()
    if Fraction(2) ** e > size:
        e -= 1
    ulp = Fraction(2) ** (max(e, emin) - bits + 1)
    value = float(round(size / ulp) * ulp)
    value = math.inf if value > largest else value
    return math.copysign(value, q)


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def ref_add(a: float, b: float, fmt: str) -> float:
    if not _finite(a, b):
        return a + b
    exact = Fraction(a) + Fraction(b)
    return round_exact(
        exact, fmt, negative_zero=math.copysign(1, a) < 0 and math.copysign(1, b) < 0 and exact == 0
    )


def ref_sub(a: float, b: float, fmt: str) -> float:
    return ref_add(a, -b, fmt)


def ref_mul(a: float, b: float, fmt: str) -> float:
    if not _finite(a, b):
        return a * b
    return round_exact(Fraction(a) * Fraction(b), fmt, negative_zero=math.copysign(1, a * b) < 0)


def ref_div(a: float, b: float, fmt: str) -> float:
    if not _finite(a, b) or b == 0:
        if b == 0 and not math.isnan(a):
            return math.nan if a == 0 else math.copysign(math.inf, a) * math.copysign(1, b)
        return a / b if b != 0 else math.nan
    return round_exact(
        Fraction(a) / Fraction(b), fmt, negative_zero=math.copysign(1, a) * math.copysign(1, b) < 0
    )


def ref_fma(a: float, b: float, c: float, fmt: str) -> float:
    if not _finite(a, b, c):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    product_negative = math.copysign(1, a) * math.copysign(1, b) < 0
    both_negative_zeros = (
        exact == 0 and a * b == 0 and c == 0 and product_negative and math.copysign(1, c) < 0
    )
    return round_exact(exact, fmt, negative_zero=both_negative_zeros)


def ref_fma_relu(a: float, b: float, c: float, fmt: str) -> float:
    r = ref_fma(a, b, c, fmt)
    return 0.0 if r <= 0 else r


def ref_max(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0:
        return -0.0 if math.copysign(1, a) < 0 and math.copysign(1, b) < 0 else 0.0
    return a if a > b else b


def ref_min(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0:
        return -0.0 if math.copysign(1, a) < 0 or math.copysign(1, b) < 0 else 0.0
    return a if a < b else b


OPERATORS = {
    "eq": "__eq__",
    "ne": "__ne__",
    "lt": "__lt__",
    "le": "__le__",
    "gt": "__gt__",
    "ge": "__ge__",
}


def ref_compare(op: str, a: float, b: float, unordered: bool) -> bool:
    if math.isnan(a) or math.isnan(b):
        return unordered
    return bool(getattr(a, OPERATORS[op])(b))

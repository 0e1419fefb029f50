"""Div, Sqrt, Exp, Ln/Log, Log2 and Log10 on bit patterns, from the pages and IEEE 754.

* Float results are the correctly rounded value of the exact result. Division is exact in
  :class:`~fractions.Fraction`; sqrt, exp and the logarithms are evaluated with :mod:`decimal`
  (its sqrt, exp, ln and log10 are correctly rounded to the context precision) and the
  precision is raised until both ends of the error interval round to the same lane value.
* Default mode (Div.md 关键特性说明, the precision appendix: "not support denormalized
  numbers"): subnormal inputs are read as zeros of their sign and subnormal results become
  zeros of their sign. ``ftz=False`` is the ``*_FTZ_FALSE`` algorithms.
* Integer Div truncates toward zero; decision: ``x / 0`` is all ones and ``MIN / -1`` is
  ``MIN`` (DivS64Impl / DivU64Impl of the dav-3510 implementation).
* Special values follow IEEE 754 and the boundary-value appendix (tables 1-5, 8, 18).
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from fractions import Fraction

from ascreg._dtypes import Scalar
from reference.common import (
    FLOAT_FORMATS,
    decode_float,
    encode_float,
    is_float,
    sign_bit,
    value_of,
    width,
    wrap,
)

NAN = float("nan")


def flush(bits: int, dtype: type[Scalar]) -> int:
    """A subnormal pattern becomes the zero of its sign; others are unchanged."""
    ebits, mbits = FLOAT_FORMATS[dtype]
    exponent = (bits >> mbits) & ((1 << ebits) - 1)
    return bits & sign_bit(dtype) if exponent == 0 else bits


def _negative(bits: int, dtype: type[Scalar]) -> bool:
    return bool(bits & sign_bit(dtype))


def _int_div(x: int, y: int, dtype: type[Scalar]) -> int:
    a, b = value_of(x, dtype), value_of(y, dtype)
    if b == 0:
        return (1 << width(dtype)) - 1
    quotient = abs(a) // abs(b)
    return wrap(quotient if (a < 0) == (b < 0) else -quotient, dtype)


def _float_div(x: int, y: int, dtype: type[Scalar]) -> int:
    a, b = decode_float(x, dtype), decode_float(y, dtype)
    negative = _negative(x, dtype) != _negative(y, dtype)
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)) or a == b == 0:
        return encode_float(NAN, dtype)
    if math.isinf(a) or b == 0:
        return encode_float(-math.inf if negative else math.inf, dtype)
    if math.isinf(b) or a == 0:
        return encode_float(Fraction(0), dtype, negative_zero=negative)
    return encode_float(Fraction(a) / Fraction(b), dtype)


def div_lane(x: int, y: int, dtype: type[Scalar], ftz: bool = True) -> int:
    """One lane of ``Div``."""
    if not is_float(dtype):
        return _int_div(x, y, dtype)
    if ftz:
        return flush(_float_div(flush(x, dtype), flush(y, dtype), dtype), dtype)
    return _float_div(x, y, dtype)


def _log2(x: decimal.Decimal) -> decimal.Decimal:
    return x.ln() / decimal.Decimal(2).ln()


DECIMAL: dict[str, Callable[[decimal.Decimal], decimal.Decimal]] = {
    "Sqrt": decimal.Decimal.sqrt,
    "Exp": decimal.Decimal.exp,
    "Ln": decimal.Decimal.ln,
    "Log": decimal.Decimal.ln,
    "Log2": _log2,
    "Log10": decimal.Decimal.log10,
}


def _rounded(op: str, x: float, dtype: type[Scalar]) -> int:
    """Correctly rounded *op* of the finite *x* inside the domain (Ziv's strategy)."""
    digits = 30
    while True:
        with decimal.localcontext(decimal.Context(prec=digits)):
            value = DECIMAL[op](decimal.Decimal(x))
        if value == 0:
            return 0
        error = abs(Fraction(value)) * Fraction(1, 10 ** (digits - 5))
        low = encode_float(Fraction(value) - error, dtype)
        if low == encode_float(Fraction(value) + error, dtype):
            return low
        digits *= 2


def _special(op: str, x: float, negative: bool) -> float | None:
    """The IEEE 754 result of *op* at a NaN, an infinity, a zero or outside the domain."""
    if math.isnan(x):
        return NAN
    if op == "Exp":  # e**200 > 2**128 overflows, e**-200 < 2**-150 rounds to +0 (half, float)
        return math.inf if x >= 200 else 0.0 if x <= -200 else None
    if op == "Sqrt":
        if x == 0:
            return -0.0 if negative else 0.0
        return NAN if x < 0 else (math.inf if math.isinf(x) else None)
    if x == 0:
        return -math.inf
    return NAN if x < 0 else (math.inf if math.isinf(x) else None)


def unary_lane(op: str, x: int, dtype: type[Scalar], ftz: bool = True) -> int:
    """One lane of ``Sqrt``, ``Exp``, ``Ln``, ``Log``, ``Log2`` or ``Log10``."""
    if ftz:
        x = flush(x, dtype)
    value = decode_float(x, dtype)
    special = _special(op, value, _negative(x, dtype))
    result = encode_float(special, dtype) if special is not None else _rounded(op, value, dtype)
    return flush(result, dtype) if ftz else result

"""SIMT half / bfloat16 scalar functions, one lane at a time, in exact rational arithmetic.

Values are Python floats (decoded exactly from the lane bits); every exact intermediate is a
:class:`~fractions.Fraction`, rounded once by :func:`round_fraction` with the rounding mode of the
C name's suffix. The math library's transcendental functions use Python's ``math`` (float64),
then one exact rounding; ``tests/simt/test_halfmath.py`` shows exhaustively that float64 is
accurate enough for that (no input lands near a rounding boundary).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ascreg import bfloat16_t, half
from ascreg._dtypes import Scalar

PRECISION = {half: (11, -14, 15), bfloat16_t: (8, -126, 127)}
"""Significand bits, smallest normal exponent and largest exponent of each format."""


def largest(dtype: type[Scalar]) -> float:
    p, _emin, emax = PRECISION[dtype]
    return float((2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax)


def _exponent(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    return e


def _round_integer(m: Fraction, mode: str) -> int:
    floor = math.floor(m)
    rest = m - floor
    if mode == "rz":
        return math.trunc(m)
    if mode == "rd":
        return floor
    if mode == "ru":
        return math.ceil(m)
    if mode == "ro":
        t = math.trunc(m)
        return t + (1 if m > 0 else -1) if t != m and t % 2 == 0 else t
    if rest != Fraction(1, 2):
        return floor + (1 if rest > Fraction(1, 2) else 0)
    if mode == "rna":
        return floor + 1 if m > 0 else floor
    return floor if floor % 2 == 0 else floor + 1  # rn: ties to even


def round_fraction(
    q: Fraction, dtype: type[Scalar], mode: str = "rn", *, negative: bool = False
) -> float:
    """Round the exact value *q* once to *dtype* (*negative*: the sign of a zero *q*)."""
    if q == 0:
        return -0.0 if negative else 0.0
    p, emin, _emax = PRECISION[dtype]
    e = max(_exponent(abs(q)), emin)
    ulp = Fraction(2) ** (e - p + 1)
    r = _round_integer(q / ulp, mode) * ulp
    top = largest(dtype)
    if abs(r) > top:
        toward_zero = mode == "rz" or (mode == "rd" and q > 0) or (mode == "ru" and q < 0)
        return math.copysign(top if toward_zero else math.inf, q)
    return math.copysign(float(r), q)


def saturated(value: float, dtype: type[Scalar]) -> float:
    """The saturation mode's result: NaN to +0, ±inf and beyond-range to ±max."""
    if math.isnan(value):
        return 0.0
    top = largest(dtype)
    return max(-top, min(top, value))


def _nan(*xs: float) -> bool:
    return any(math.isnan(x) for x in xs)


def _signbit(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def add(x: float, y: float, dtype: type[Scalar]) -> float:
    if _nan(x, y) or (math.isinf(x) and math.isinf(y) and _signbit(x) != _signbit(y)):
        return math.nan
    if math.isinf(x) or math.isinf(y):
        return x if math.isinf(x) else y
    exact = Fraction(x) + Fraction(y)
    return round_fraction(exact, dtype, negative=exact == 0 and _signbit(x) and _signbit(y))


def sub(x: float, y: float, dtype: type[Scalar]) -> float:
    return add(x, -y, dtype)


def mul(x: float, y: float, dtype: type[Scalar]) -> float:
    negative = _signbit(x) != _signbit(y)
    if _nan(x, y) or (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
        return math.nan
    if math.isinf(x) or math.isinf(y):
        return -math.inf if negative else math.inf
    return round_fraction(Fraction(x) * Fraction(y), dtype, negative=negative)


def _flush(x: float, dtype: type[Scalar], flushing: bool) -> float:
    _p, emin, _emax = PRECISION[dtype]
    if flushing and math.isfinite(x) and abs(x) < 2.0**emin:
        return math.copysign(0.0, x)
    return x


def div(x: float, y: float, dtype: type[Scalar]) -> float:
    flushing = dtype is bfloat16_t
    x, y = _flush(x, dtype, flushing), _flush(y, dtype, flushing)
    negative = _signbit(x) != _signbit(y)
    if _nan(x, y) or (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
        return math.nan
    if math.isinf(x) or y == 0:
        return -math.inf if negative else math.inf
    if math.isinf(y):
        return -0.0 if negative else 0.0
    return _flush(
        round_fraction(Fraction(x) / Fraction(y), dtype, negative=negative), dtype, flushing
    )


def fma(x: float, y: float, z: float, dtype: type[Scalar]) -> float:
    if _nan(x, y, z) or (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
        return math.nan
    product_negative = _signbit(x) != _signbit(y)
    if math.isinf(x) or math.isinf(y):
        if math.isinf(z) and _signbit(z) != product_negative:
            return math.nan
        return -math.inf if product_negative else math.inf
    if math.isinf(z):
        return z
    product = Fraction(x) * Fraction(y)
    exact = product + Fraction(z)
    negative = exact == 0 and product == 0 and product_negative and _signbit(z)
    return round_fraction(exact, dtype, negative=negative)


def fma_relu(x: float, y: float, z: float, dtype: type[Scalar]) -> float:
    r = fma(x, y, z, dtype)
    return 0.0 if r < 0 else r


def absolute(x: float, dtype: type[Scalar]) -> float:
    return math.nan if math.isnan(x) else abs(x)


def neg(x: float, dtype: type[Scalar]) -> float:
    return math.nan if math.isnan(x) else -x


def maximum(x: float, y: float, dtype: type[Scalar], nan_wins: bool = False) -> float:
    if _nan(x, y):
        return math.nan if nan_wins or (_nan(x) and _nan(y)) else (y if math.isnan(x) else x)
    if x == y == 0:
        return -0.0 if _signbit(x) and _signbit(y) else 0.0
    return x if x > y else y


def minimum(x: float, y: float, dtype: type[Scalar], nan_wins: bool = False) -> float:
    if _nan(x, y):
        return math.nan if nan_wins or (_nan(x) and _nan(y)) else (y if math.isnan(x) else x)
    if x == y == 0:
        return -0.0 if _signbit(x) or _signbit(y) else 0.0
    return x if x < y else y


RELATIONS = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "le": lambda a, b: a <= b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "gt": lambda a, b: a > b,
}  # fmt: skip


def compare(relation: str, x: float, y: float) -> bool:
    """``__h<relation>`` (ordered: false on NaN) or ``__h<relation>u`` (true on NaN)."""
    unordered = relation.endswith("u")
    if _nan(x, y):
        return unordered
    return bool(RELATIONS[relation.removesuffix("u")](x, y))


def _sqrt_fraction(q: Fraction) -> tuple[Fraction, bool]:
    """sqrt(q) to 300 fractional bits, and whether it is exact (else the half-step is added)."""
    scale = 600
    n = q.numerator << scale
    root = math.isqrt(n // q.denominator)
    exact = root * root * q.denominator == n
    return Fraction(2 * root + (0 if exact else 1), 2 << (scale // 2)), exact


def _sqrt(x: float, dtype: type[Scalar], reciprocal: bool) -> float:
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0:
        return math.copysign(math.inf, x) if reciprocal else x
    if math.isinf(x):
        return 0.0 if reciprocal else math.inf
    q = 1 / Fraction(x) if reciprocal else Fraction(x)
    root, _exact = _sqrt_fraction(q)
    return round_fraction(root, dtype)


_TRANSCENDENTAL = {
    "sin": math.sin, "cos": math.cos, "tanh": math.tanh, "exp": math.exp,
    "exp2": lambda v: 2.0**v, "exp10": lambda v: 10.0**v, "log": math.log, "log2": math.log2,
    "log10": math.log10,
}  # fmt: skip
_INTEGRAL = {"floor": "rd", "ceil": "ru", "trunc": "rz", "rint": "rn"}
FLUSHED_BF16 = {"exp", "exp2", "exp10", "sqrt", "rsqrt", "rcp"}


def _transcendental(name: str, x: float, dtype: type[Scalar]) -> float:
    if math.isnan(x):
        return math.nan
    if name.startswith("log"):
        if x < 0:
            return math.nan
        if x == 0:
            return -math.inf
        if math.isinf(x):
            return math.inf
    if math.isinf(x):
        specials = {"sin": math.nan, "cos": math.nan, "tanh": math.copysign(1.0, x)}
        return specials.get(name, math.inf if x > 0 else 0.0)
    try:
        v = _TRANSCENDENTAL[name](x)
    except OverflowError:
        return math.inf
    if v == 0 or math.isinf(v):
        return v
    return round_fraction(Fraction(v), dtype)


def math_function(name: str, x: float, dtype: type[Scalar]) -> float:
    """``h<name>(x)`` for one lane."""
    flushing = dtype is bfloat16_t and name in FLUSHED_BF16
    x = _flush(x, dtype, flushing)
    if name in _INTEGRAL:
        r = integral(x, _INTEGRAL[name])
    elif name in ("sqrt", "rsqrt"):
        r = _sqrt(x, dtype, reciprocal=name == "rsqrt")
    elif name == "rcp":
        r = _rcp(x, dtype)
    else:
        r = _transcendental(name, x, dtype)
    return _flush(r, dtype, flushing)


def _rcp(x: float, dtype: type[Scalar]) -> float:
    if math.isnan(x):
        return math.nan
    if x == 0:
        return math.copysign(math.inf, x)
    if math.isinf(x):
        return math.copysign(0.0, x)
    return round_fraction(1 / Fraction(x), dtype)


def integral(x: float, mode: str) -> float:
    """Round to an integral value by *mode* (every half / bfloat16 integral value is exact)."""
    if not math.isfinite(x) or x == 0:
        return x
    return math.copysign(float(_round_integer(Fraction(x), mode)), x)


def to_int(x: float, mode: str, low: int, high: int) -> int:
    """Float to integer: round by *mode*, NaN -> 0, saturate to [low, high]."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return high if x > 0 else low
    return max(low, min(high, _round_integer(Fraction(x), mode)))


def to_format(x: float | int, dtype: type[Scalar], mode: str, saturate: bool = False) -> float:
    """A float or integer converted to half / bfloat16 by *mode* (optionally saturating)."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        r = x
    else:
        r = round_fraction(Fraction(x), dtype, mode, negative=isinstance(x, float) and _signbit(x))
    return saturated(r, dtype) if saturate else r

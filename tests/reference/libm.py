"""The SIMT float math library and conversions, one lane at a time, from the C definitions.

Exact results are computed with :class:`fractions.Fraction` and rounded to float32 by
:func:`round_f32` (every rounding mode of the conversions). Transcendental functions use Python's
:mod:`math` in float64 (C's special values where :mod:`math` raises come from numpy's C library
call) and :mod:`decimal` for the exactly rounded check of exp, log, pow and sqrt.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

FLT_MAX = float(np.finfo(np.float32).max)
_OVERFLOW = Fraction(2**128 - 2**103)  # FLT_MAX plus half an ulp: rounds to inf


def f32(x: float) -> float:
    """Round a float64 to float32 (nearest, ties to even) as a Python float."""
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def bits(x: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", x))[0])


def _next32(x: float, toward: float) -> float:
    with np.errstate(over="ignore"):
        return float(np.nextafter(np.float32(x), np.float32(toward)))


def round_f32(q: Fraction, mode: str = "rn") -> float:
    """Round an exact rational to float32 in *mode* (``rn``, ``rz``, ``ru``, ``rd``, ``rna``)."""
    if q == 0:
        return 0.0
    magnitude = abs(q)
    if mode in ("rn", "rna") and magnitude >= _OVERFLOW:
        return math.copysign(math.inf, q)
    guess = f32(float(max(min(q, Fraction(FLT_MAX)), Fraction(-FLT_MAX))))
    candidates = {guess, _next32(guess, math.inf), _next32(guess, -math.inf)}
    candidates = {c for c in candidates if math.isfinite(c)}
    below = max((c for c in candidates if Fraction(c) <= q), default=-math.inf)
    above = min((c for c in candidates if Fraction(c) >= q), default=math.inf)
    if below == above:
        return below
    toward_zero = below if q > 0 else above
    away = above if q > 0 else below
    if mode == "rz":
        return toward_zero
    if mode == "ru":
        return above
    if mode == "rd":
        return below
    low, high = _distance(q, below), _distance(q, above)
    if low != high:
        return below if low < high else above
    if mode == "rna":
        return away
    return below if bits(below) % 2 == 0 else above


def _distance(q: Fraction, candidate: float) -> Fraction:
    return abs(q - Fraction(candidate)) if math.isfinite(candidate) else Fraction(2**300)


def _c_libm(name: str | Callable[..., float], *args: float) -> float:
    """C's value where Python's math raises (poles, overflow, domain errors)."""
    fn = getattr(np, name) if isinstance(name, str) else name
    with np.errstate(all="ignore"):
        return float(fn(*(np.float64(a) for a in args)))


def _math(fn: Callable[..., float], c_name: str | Callable[..., float]) -> Callable[..., float]:
    def evaluate(*args: float) -> float:
        try:
            return fn(*args)
        except (ValueError, OverflowError):
            return _c_libm(c_name, *args)

    return evaluate


def _sinpi(x: float) -> float:
    if math.isinf(x):
        return math.nan
    r = math.fmod(x, 2.0)
    r = r - 2 if r > 1 else r + 2 if r < -1 else r
    r = 1 - r if r > 0.5 else -1 - r if r < -0.5 else r
    value = math.sin(math.pi * r)
    return value if value else math.copysign(0.0, x)


def _cospi(x: float) -> float:
    return 0.0 if math.fmod(abs(x), 1.0) == 0.5 else _sinpi(0.5 - math.fmod(abs(x), 2.0))


def _tanpi(x: float) -> float:
    if math.isinf(x):
        return math.nan
    r = math.fmod(x, 1.0)
    if abs(r) == 0.5:
        return math.copysign(math.inf, r)
    value = _sinpi(r) / _cospi(r)
    return value if value else math.copysign(0.0, x)


def _norm(*xs: float) -> float:
    return math.hypot(*xs)


def _erfcx(x: float) -> float:
    if x < 25:
        return math.exp(x * x) * math.erfc(x) if x > -9.5 else math.inf
    return (1 - 1 / (2 * x * x) + 3 / (4 * x**4) - 15 / (8 * x**6)) / (x * math.sqrt(math.pi))


def _solve(f: Callable[[float], float], target: float, increasing: bool) -> float:
    """Bisection for ``f(y) = target`` on [-30, 30] (f monotonic)."""
    low, high = -30.0, 30.0
    for _ in range(200):
        middle = (low + high) / 2
        if (f(middle) < target) == increasing:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _erfcinv(z: float) -> float:
    if math.isnan(z) or not 0 <= z <= 2:
        return math.nan
    if z in (0, 2):
        return math.inf if z == 0 else -math.inf
    if z == 1:
        return 0.0
    if z > 1:
        return -_erfcinv(2 - z)
    return _solve(math.erfc, z, increasing=False)


def _erfinv(x: float) -> float:
    if math.isnan(x) or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    if x == 0:
        return x
    if abs(x) < 0.5:
        return _solve(math.erf, x, increasing=True)
    return math.copysign(_erfcinv(1 - abs(x)), x)


def _tgamma(x: float) -> float:
    if math.isnan(x) or x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan
    if x == 0:
        return math.copysign(math.inf, x)
    try:
        return math.gamma(x)
    except OverflowError:
        return math.inf if x > 0 or math.floor(x) % 2 == 0 else -math.inf


def _lgamma(x: float) -> float:
    if math.isnan(x):
        return x
    if math.isinf(x) or (x <= 0 and x == math.floor(x)):
        return math.inf
    return math.lgamma(x)


def _bessel_i(x: float, order: int) -> float:
    """``I_order(x)`` from its power series (positive terms) in float64."""
    if math.isnan(x):
        return x
    if math.isinf(x) or abs(x) > 95:  # beyond float32 range
        return math.copysign(math.inf, x) if order else math.inf
    half = x / 2
    term = half**order / math.factorial(order)
    total = term
    for k in range(1, 200):
        term = term * half * half / (k * (k + order))
        total += term
    return total


TRANSCENDENTAL: dict[str, Callable[..., float]] = {
    "expf": _math(math.exp, "exp"),
    "exp2f": _math(math.exp2, "exp2"),
    "exp10f": _math(lambda x: math.pow(10.0, x), lambda x: np.power(10.0, x)),
    "expm1f": _math(math.expm1, "expm1"),
    "logf": _math(math.log, "log"),
    "log2f": _math(math.log2, "log2"),
    "log10f": _math(math.log10, "log10"),
    "log1pf": _math(math.log1p, "log1p"),
    "powf": _math(math.pow, "power"),
    "sqrtf": _math(math.sqrt, "sqrt"),
    "rsqrtf": _math(lambda x: 1 / math.sqrt(x), "sqrt"),
    "cbrtf": _math(math.cbrt, "cbrt"),
    "rcbrtf": _math(lambda x: 1 / math.cbrt(x), "cbrt"),
    "hypotf": _norm,
    "rhypotf": lambda x, y: 1 / _norm(x, y),
    "norm3df": _norm,
    "norm4df": _norm,
    "rnorm3df": lambda *xs: 1 / _norm(*xs),
    "rnorm4df": lambda *xs: 1 / _norm(*xs),
    "sinf": _math(math.sin, "sin"),
    "cosf": _math(math.cos, "cos"),
    "tanf": _math(math.tan, "tan"),
    "sinpif": _sinpi,
    "cospif": lambda x: math.nan if math.isinf(x) else _cospi(x),
    "tanpif": _tanpi,
    "asinf": _math(math.asin, "arcsin"),
    "acosf": _math(math.acos, "arccos"),
    "atanf": _math(math.atan, "arctan"),
    "atan2f": _math(math.atan2, "arctan2"),
    "sinhf": _math(math.sinh, "sinh"),
    "coshf": _math(math.cosh, "cosh"),
    "tanhf": _math(math.tanh, "tanh"),
    "asinhf": _math(math.asinh, "arcsinh"),
    "acoshf": _math(math.acosh, "arccosh"),
    "atanhf": _math(math.atanh, "arctanh"),
    "erff": math.erf,
    "erfcf": math.erfc,
    "erfcxf": lambda x: 0.0 if x == math.inf else math.nan if math.isnan(x) else _erfcx(x),
    "normcdff": lambda x: math.erfc(-x / math.sqrt(2)) / 2,
    "erfinvf": _erfinv,
    "erfcinvf": _erfcinv,
    "normcdfinvf": lambda p: -math.sqrt(2) * _erfcinv(2 * p),
    "tgammaf": _tgamma,
    "lgammaf": _lgamma,
    "cyl_bessel_i0f": lambda x: _bessel_i(x, 0),
    "cyl_bessel_i1f": lambda x: _bessel_i(x, 1),
}
"""float64 values of the transcendental functions (rounded to float32 by the tests: within one
ulp of the correctly rounded result; the exact check is :data:`EXACT_DECIMAL`)."""

_SIGNED_POLE = {"rsqrtf", "rcbrtf"}


def reference_f32(name: str, *args: float) -> float:
    """The float64 reference of a transcendental function, rounded once to float32."""
    with np.errstate(all="ignore"):
        try:
            value = TRANSCENDENTAL[name](*args)
        except ZeroDivisionError:
            value = math.copysign(math.inf, args[0]) if name in _SIGNED_POLE else math.inf
    return f32(value)


def _decimal(fn: Callable[..., Decimal]) -> Callable[..., Fraction]:
    def evaluate(*args: float) -> Fraction:
        with localcontext() as ctx:
            ctx.prec = 60
            return Fraction(fn(*(Decimal(a) for a in args)))

    return evaluate


EXACT_DECIMAL: dict[str, Callable[..., Fraction]] = {
    "expf": _decimal(lambda x: x.exp()),
    "logf": _decimal(lambda x: x.ln()),
    "log10f": _decimal(lambda x: x.log10()),
    "sqrtf": _decimal(lambda x: x.sqrt()),
    "powf": _decimal(lambda x, y: (y * x.ln()).exp()),
    "exp2f": _decimal(lambda x: (x * Decimal(2).ln()).exp()),
}
"""Exact values (60 digits) of a few functions, for positive finite arguments."""


# -- exact functions ----------------------------------------------------------------------------


def _integral(x: float, rounded: int | None) -> float:
    if rounded is None:
        return x
    return math.copysign(float(rounded), x) if rounded == 0 else float(rounded)


def round_integral(x: float, mode: str) -> float:
    """IEEE roundToIntegral of a float in *mode*; ±0, ±inf, NaN unchanged."""
    if not math.isfinite(x) or x == 0:
        return x
    q = Fraction(x)
    floor = math.floor(q)
    rounded = {
        "rd": floor,
        "ru": math.ceil(q),
        "rz": math.trunc(q),
        "rn": round(q),  # Fraction rounds half to even
        "rna": int(math.copysign(math.floor(abs(q) + Fraction(1, 2)), x)),
    }[mode]
    return _integral(x, rounded)


def to_integer(x: float, mode: str, low: int, high: int) -> int:
    """A float converted to an integer range in *mode*: saturating, NaN gives 0."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return high if x > 0 else low
    return min(max(int(round_integral(x, mode)), low), high)


def remainder(x: float, y: float) -> float:
    return f32(math.remainder(x, y)) if not (math.isnan(x) or math.isnan(y)) else math.nan


def remquo_bits(x: float, y: float) -> int:
    """The low three bits of the quotient of remquof, with its sign (0 for a NaN result)."""
    if not (math.isfinite(x) and y != 0 and not math.isnan(y)) or math.isinf(y):
        return 0
    q = round(Fraction(x) / Fraction(y))
    magnitude = abs(q) % 8
    negative = (x < 0) != (y < 0) or (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
    return -magnitude if negative else magnitude


def fma(x: float, y: float, z: float) -> float:
    if not all(math.isfinite(v) for v in (x, y, z)):
        with np.errstate(all="ignore"):
            return f32(x * y + z)
    q = Fraction(x) * Fraction(y) + Fraction(z)
    if q == 0:  # the sign of an exact zero sum: IEEE's for x*y + z
        product_negative = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
        if x * y == 0 and z == 0:
            return -0.0 if product_negative and math.copysign(1, z) < 0 else 0.0
        return 0.0
    return round_f32(q)


def ldexp(x: float, n: int) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    return math.copysign(round_f32(abs(Fraction(x)) * Fraction(2) ** n), x)


def fmin(x: float, y: float) -> float:
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y == 0:
        return -0.0 if math.copysign(1, x) < 0 or math.copysign(1, y) < 0 else 0.0
    return min(x, y)


def fmax(x: float, y: float) -> float:
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y == 0:
        return -0.0 if math.copysign(1, x) < 0 and math.copysign(1, y) < 0 else 0.0
    return max(x, y)


def ilogb(x: float) -> int:
    if math.isnan(x) or x == 0:
        return -(2**31)
    if math.isinf(x):
        return 2**31 - 1
    return math.frexp(x)[1] - 1


def frexp(x: float) -> tuple[float, int]:
    if not math.isfinite(x) or x == 0:
        return x, 0
    return math.frexp(x)


def modf(x: float) -> tuple[float, float]:
    if math.isinf(x):
        return math.copysign(0.0, x), x
    if math.isnan(x):
        return x, x
    return math.modf(x)


def norm(values: list[float], n: int, reciprocal: bool = False) -> float:
    """``normf(n, a)`` / ``rnormf``: from the documented rules, the sum of squares by ``fsum``."""
    used = values[: max(n, 1)]
    if any(math.isinf(v) for v in used):
        return 0.0 if reciprocal else math.inf
    if any(math.isnan(v) for v in used):
        return math.nan
    if n >= 1 and all(0 < abs(v) < 2.0**-126 for v in used):
        return math.nan  # documented: every element subnormal gives NaN on the Ascend 950
    value = math.sqrt(math.fsum(v * v for v in used))
    with np.errstate(all="ignore"):
        return f32(float(np.float64(1) / value) if reciprocal else value)

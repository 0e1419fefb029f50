"""Lane semantics of the SIMT float math library (``sinf``, ``powf``, ``floorf``, ``fmaf`` ...).

Every function takes float32 arrays (already C ``float`` arguments) and returns the correctly
rounded float32 result of every lane (round to nearest, ties to even), with the C/IEEE special
values (±0, ±inf, NaN, domain errors give NaN).

How the rounding is made exact
------------------------------
* **Exact operations** (``floorf``, ``fmodf``, ``remainderf``, ``fminf``, ``ldexpf`` ...) are
  computed exactly with numpy operations whose results are representable.
* **fmaf** forms the product exactly in float64 and the sum with its exact error (TwoSum); a sum
  that lands on a float32 midpoint while the error is nonzero is moved one float64 step towards
  the error before the single rounding to float32.
* **Transcendental functions** (:data:`TRANSCENDENTAL`) are evaluated in float64 (error far below
  :data:`NEAR_MIDPOINT` relative) and rounded once with the interval test of
  :func:`ascreg.core.rounding.round_decided`, which proves each lane; an undecided lane (its
  float64 value within about twice that bound of a float32 midpoint) is recomputed with
  :mod:`ascreg.core.exact` (130 decimal digits) and rounded from the exact value. Only those
  rare lanes run Python code per lane.

Examples
--------
>>> import numpy as np
>>> TRANSCENDENTAL["sinf"](np.array([0.0, 1.0], np.float32))
array([0.       , 0.84147096], dtype=float32)
>>> remainder(np.array([5.0, 7.0], np.float32), np.array([2.0, 2.0], np.float32))
array([ 1., -1.], dtype=float32)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np

from ascreg import errors
from ascreg.core import bessel, erf, exact, gamma, rounding
from ascreg.core.fpenv import quiet

Arr = np.ndarray[Any, Any]
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
I32, I64 = np.dtype(np.int32), np.dtype(np.int64)

NEAR_MIDPOINT = rounding.RELATIVE_BOUND
"""The relative error bound the float64 evaluations here are checked with (they err by a few
float64 ulps, 2**-52 relative, at most): a lane whose float64 value lies within about twice
this bound of a float32 midpoint is recomputed exactly."""

_FLT_MAX = float(np.finfo(np.float32).max)


def _f64(a: Arr) -> Arr:
    with quiet():  # a signalling NaN becomes a quiet one: data, not a warning
        return np.asarray(a).astype(F64)


def _midpoint_distance(approx: Arr, rounded: Arr) -> Arr:
    """Distance of each float64 lane from the float32 midpoint on its side of *rounded*."""
    finite32 = np.where(np.isfinite(rounded), rounded, np.copysign(np.float32(_FLT_MAX), rounded))
    base = finite32.astype(F64)
    toward = np.where(approx > base, np.float32(np.inf), np.float32(-np.inf))
    neighbour = np.nextafter(finite32, toward).astype(F64)
    neighbour = np.where(np.isfinite(neighbour), neighbour, base + np.copysign(2.0**104, base))
    return np.abs(approx - (base + neighbour) / 2)


def correctly_rounded(
    approx: Arr,
    exact_value: Callable[..., Decimal],
    args: tuple[Arr, ...],
    force: Arr | None = None,
) -> Arr:
    """Round float64 lanes *approx* to float32, recomputing near-midpoint lanes exactly.

    *exact_value* gets the lane's arguments as :class:`~decimal.Decimal` (inside
    :func:`ascreg.core.exact.context`) and returns the exact result; it runs only for lanes with
    finite arguments whose rounding the interval test of
    :func:`ascreg.core.rounding.round_decided` leaves undecided (a finite, nonzero float64
    result within about twice :data:`NEAR_MIDPOINT` of a float32 midpoint), or marked in
    *force* (lanes whose float64 value is known to be less accurate than that bound).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([1 + 2.0**-24], np.float64)  # a midpoint: recomputed, ties to even
    >>> correctly_rounded(x, lambda v: v, (x,))
    array([1.], dtype=float32)
    """
    with quiet():
        rounded, undecided = rounding.round_decided(approx, F32)
    if undecided is None and force is None:
        return rounded
    near = np.zeros(approx.shape, dtype=bool)
    if undecided is not None:
        near.reshape(-1)[undecided] = True
    if force is not None:
        near |= force & np.isfinite(approx)
    if not near.any():
        return rounded
    lanes = [np.broadcast_to(a, approx.shape) for a in args]
    with exact.context():
        for index in zip(*np.nonzero(near), strict=True):
            values = [float(lane[index]) for lane in lanes]
            if all(np.isfinite(v) for v in values):
                rounded[index] = exact.to_float32(exact_value(*map(Decimal, values)))
    return rounded


# -- float64 evaluations whose error is a few float64 ulps -------------------------------------


def _reduce_pi(x: Arr) -> Arr:
    """``x mod 2`` folded into [-1/2, 1/2] for ``sin(pi x)`` (exact: float32 x in float64)."""
    r = np.fmod(x, 2.0)  # (-2, 2), exact
    r = np.where(r > 1, r - 2, np.where(r < -1, r + 2, r))  # [-1, 1], exact
    return np.where(r > 0.5, 1 - r, np.where(r < -0.5, -1 - r, r))


def _sinpi64(x: Arr) -> Arr:
    x = _f64(x)
    value = np.sin(np.pi * _reduce_pi(x))
    return np.where(np.isinf(x), np.nan, np.where(value == 0, np.copysign(0.0, x), value))


def _cospi64(x: Arr) -> Arr:
    a = np.abs(_f64(x))
    r = np.fmod(a, 2.0)  # [0, 2)
    r = np.where(r > 1, 2 - r, r)  # cos(pi r) on [0, 1]
    value = np.sin(np.pi * _reduce_pi(0.5 - r))
    return np.where(np.isinf(a), np.nan, np.where(value == 0, 0.0, value))


def _tanpi64(x: Arr) -> Arr:
    x = _f64(x)
    r = np.fmod(x, 1.0)  # tan has period pi: (-1, 1), exact
    r = np.where(r > 0.5, r - 1, np.where(r < -0.5, r + 1, r))  # [-1/2, 1/2]
    sin = np.sin(np.pi * np.where(np.abs(r) == 0.5, 0.0, r))
    cos = np.sin(np.pi * (0.5 - np.abs(r)))
    value = np.where(np.abs(r) == 0.5, np.copysign(np.inf, r), sin / cos)
    return np.where(np.isinf(x), np.nan, np.where(value == 0, np.copysign(0.0, x), value))


def _norm64(*xs: Arr) -> Arr:
    squares = sum((_f64(x) ** 2 for x in xs), start=np.zeros((), F64))
    value = np.sqrt(squares)
    return np.where(np.any([np.isinf(x) for x in xs], axis=0), np.inf, value)


def _reciprocal(f: Callable[..., Arr]) -> Callable[..., Arr]:
    def evaluate(*xs: Arr) -> Arr:
        return 1.0 / f(*xs)

    return evaluate


def _dec_norm(*xs: Decimal) -> Decimal:
    return sum((x * x for x in xs), start=Decimal(0)).sqrt()


def _dec_reciprocal(f: Callable[..., Decimal]) -> Callable[..., Decimal]:
    def evaluate(*xs: Decimal) -> Decimal:
        return 1 / f(*xs)

    return evaluate


_LN2, _LN10 = Decimal(2).ln, Decimal(10).ln

_EVALUATIONS: dict[str, tuple[Callable[..., Arr], Callable[..., Decimal]]] = {
    "expf": (np.exp, lambda x: x.exp()),
    "exp2f": (np.exp2, lambda x: (x * _LN2()).exp()),
    "exp10f": (lambda x: np.power(10.0, x), lambda x: (x * _LN10()).exp()),
    "expm1f": (np.expm1, lambda x: x.exp() - 1),
    "logf": (np.log, lambda x: x.ln()),
    "log2f": (np.log2, lambda x: x.ln() / _LN2()),
    "log10f": (np.log10, lambda x: x.log10()),
    "log1pf": (np.log1p, lambda x: (1 + x).ln()),
    "powf": (np.power, exact.power),
    "sqrtf": (np.sqrt, lambda x: x.sqrt()),
    "rsqrtf": (_reciprocal(np.sqrt), lambda x: 1 / x.sqrt()),
    "cbrtf": (np.cbrt, exact.cbrt),
    "rcbrtf": (_reciprocal(np.cbrt), _dec_reciprocal(exact.cbrt)),
    "hypotf": (np.hypot, _dec_norm),
    "rhypotf": (_reciprocal(np.hypot), _dec_reciprocal(_dec_norm)),
    "norm3df": (_norm64, _dec_norm),
    "norm4df": (_norm64, _dec_norm),
    "rnorm3df": (_reciprocal(_norm64), _dec_reciprocal(_dec_norm)),
    "rnorm4df": (_reciprocal(_norm64), _dec_reciprocal(_dec_norm)),
    "sinf": (np.sin, exact.sin),
    "cosf": (np.cos, exact.cos),
    "tanf": (np.tan, exact.tan),
    "sinpif": (_sinpi64, exact.sinpi),
    "cospif": (_cospi64, exact.cospi),
    "tanpif": (_tanpi64, exact.tanpi),
    "asinf": (np.arcsin, exact.asin),
    "acosf": (np.arccos, exact.acos),
    "atanf": (np.arctan, exact.atan),
    "atan2f": (np.arctan2, exact.atan2),
    "sinhf": (np.sinh, exact.sinh),
    "coshf": (np.cosh, exact.cosh),
    "tanhf": (np.tanh, exact.tanh),
    "asinhf": (np.arcsinh, exact.asinh),
    "acoshf": (np.arccosh, exact.acosh),
    "atanhf": (np.arctanh, exact.atanh),
    "erff": (erf.erf, exact.erf),
    "erfcf": (erf.erfc, exact.erfc),
    "erfcxf": (erf.erfcx, exact.erfcx),
    "normcdff": (erf.normcdf, exact.normcdf),
    "erfinvf": (erf.erfinv, exact.erfinv),
    "erfcinvf": (erf.erfcinv, exact.erfcinv),
    "normcdfinvf": (erf.normcdfinv, exact.normcdfinv),
    "tgammaf": (gamma.tgamma, exact.tgamma),
    "lgammaf": (gamma.lgamma, exact.lgamma),
    "cyl_bessel_i0f": (
        functools.partial(bessel.bessel_i, order=0),
        functools.partial(exact.bessel_i, order=0),
    ),
    "cyl_bessel_i1f": (
        functools.partial(bessel.bessel_i, order=1),
        functools.partial(exact.bessel_i, order=1),
    ),
}
"""Each transcendental function: its float64 evaluation and its exact (decimal) value."""


_LESS_ACCURATE: dict[str, Callable[[Arr, Arr], Arr]] = {"lgammaf": gamma.lgamma_needs_exact}
"""Functions whose float64 value is less accurate on some lanes: which lanes (always exact)."""


def _transcendental(name: str) -> Callable[..., Arr]:
    approximate, exact_value = _EVALUATIONS[name]
    less_accurate = _LESS_ACCURATE.get(name)

    def evaluate(*xs: Arr) -> Arr:
        with quiet():
            approx = np.asarray(approximate(*(_f64(x) for x in xs)), dtype=F64)
        force = None if less_accurate is None else less_accurate(_f64(xs[0]), approx)
        return correctly_rounded(approx, exact_value, xs, force)

    evaluate.__name__ = evaluate.__qualname__ = name
    evaluate.__doc__ = f"``{name}``: correctly rounded float32 lanes (float64, exact near ties)."
    return evaluate


TRANSCENDENTAL: dict[str, Callable[..., Arr]] = {
    name: _transcendental(name) for name in _EVALUATIONS
}
"""The correctly rounded transcendental lane functions, by C name."""


# -- exact operations ---------------------------------------------------------------------------


def round_half_away(x: Arr) -> Arr:
    """``roundf``: nearest integer, halfway cases away from zero (exact, keeps ±0, inf, NaN).

    Examples
    --------
    >>> import numpy as np
    >>> round_half_away(np.array([0.5, -2.5, 1.49999994], np.float32))
    array([ 1., -3.,  1.], dtype=float32)
    """
    x = np.asarray(x)
    with quiet():
        t = np.trunc(x)
        away = np.abs(x - t) >= 0.5
        return np.asarray(np.where(away, t + np.copysign(np.float32(1), x), t), dtype=x.dtype)


def fdim(x: Arr, y: Arr) -> Arr:
    """``fdimf``: ``x - y`` if ``x > y``, else +0; NaN if either is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> fdim(np.array([3, 1], np.float32), np.array([1, 3], np.float32))
    array([2., 0.], dtype=float32)
    """
    with quiet():
        difference = np.subtract(x, y, dtype=F32)
        result = np.where(np.asarray(x) > np.asarray(y), difference, np.float32(0))
    return np.where(np.isnan(x) | np.isnan(y), np.float32(np.nan), result).astype(F32)


def _remainder_and_quotient(x: Arr, y: Arr) -> tuple[Arr, Arr]:
    """IEEE remainder ``x - n y`` (n nearest ``x / y``, ties even) and ``n mod 8`` with its sign."""
    ax, ay = np.abs(_f64(x)), np.abs(_f64(y))
    with quiet():
        r8 = np.fmod(ax, 8 * ay)  # exact; keeps n mod 8
        q = np.rint(r8 / ay)  # correctly rounded quotient of floats: its ties are exact
        rem = r8 - q * ay  # exact: |rem| <= ay / 2
        rem = np.where(rem == 0, 0.0, rem) * np.sign(_f64(x))
        rem = np.where(np.isinf(ay) & np.isfinite(ax), _f64(x), rem)
        rem = np.where(rem == 0, np.copysign(0.0, _f64(x)), rem)
        sign = np.where(np.signbit(_f64(x)) != np.signbit(_f64(y)), -1, 1)
        quotient = np.where(np.isfinite(q), (q % 8) * sign, 0).astype(I32)
    return rem.astype(F32), np.where(np.isnan(rem), 0, quotient).astype(I32)


def remainder(x: Arr, y: Arr) -> Arr:
    """``remainderf``: the IEEE remainder (NaN for ``y == 0`` or infinite x; x for infinite y).

    Examples
    --------
    >>> import numpy as np
    >>> remainder(np.array([5.0, 6.0, -1.0], np.float32), np.array([2.0, 4.0, np.inf], np.float32))
    array([ 1., -2., -1.], dtype=float32)
    """
    return _remainder_and_quotient(x, y)[0]


def remquo(x: Arr, y: Arr) -> tuple[Arr, Arr]:
    """``remquof``: the remainder and the low three bits of the quotient, with its sign.

    Examples
    --------
    >>> import numpy as np
    >>> remquo(np.array([29.0], np.float32), np.array([3.0], np.float32))
    (array([-1.], dtype=float32), array([2], dtype=int32))
    """
    return _remainder_and_quotient(x, y)


def fma(x: Arr, y: Arr, z: Arr) -> Arr:
    """``fmaf``: ``x * y + z`` rounded once (exact product, TwoSum, midpoint nudge).

    Examples
    --------
    >>> import numpy as np
    >>> a = np.float32(1 + 2.0**-12)
    >>> fma(np.array([a]), np.array([a]), np.array([-1 - 2.0**-11], np.float32))  # 2**-24 exactly
    array([5.9604645e-08], dtype=float32)
    """
    with quiet():
        product = _f64(x) * _f64(y)  # exact: 24 + 24 bits
        total = product + _f64(z)
        virtual = total - product
        error = (product - (total - virtual)) + (_f64(z) - virtual)  # TwoSum: exact error
        error = np.where(np.isfinite(total), error, 0.0)
        rounded = total.astype(F32)
        tie = (error != 0) & (_midpoint_distance(total, rounded) == 0)
        nudged = np.nextafter(total, np.where(error > 0, np.inf, -np.inf))
        return np.where(tie, nudged, total).astype(F32)


def _ignoring_nan(pick: Callable[[Arr, Arr], Arr], x: Arr, y: Arr) -> Arr:
    """Return ``pick(x, y)`` with a NaN operand ignored, signalling NaNs included.

    numpy's SIMD ``fmin``/``fmax`` return a NaN for a signalling NaN operand on some machines.
    """
    return np.where(np.isnan(x), y, np.where(np.isnan(y), x, pick(x, y)))


def fmin(x: Arr, y: Arr) -> Arr:
    """``fminf``: the smaller value; a NaN operand is ignored; ``fminf(-0, +0)`` is -0.

    Examples
    --------
    >>> import numpy as np
    >>> fmin(np.array([np.nan, 0.0], np.float32), np.array([2.0, -0.0], np.float32))
    array([ 2., -0.], dtype=float32)
    """
    both_zero = (np.asarray(x) == 0) & (np.asarray(y) == 0)
    zero = np.where(np.signbit(x) | np.signbit(y), np.float32(-0.0), np.float32(0.0))
    return np.where(both_zero, zero, _ignoring_nan(np.fmin, x, y)).astype(F32)


def fmax(x: Arr, y: Arr) -> Arr:
    """``fmaxf``: the larger value; a NaN operand is ignored; ``fmaxf(-0, +0)`` is +0.

    Examples
    --------
    >>> import numpy as np
    >>> fmax(np.array([np.nan, -0.0], np.float32), np.array([2.0, 0.0], np.float32))
    array([2., 0.], dtype=float32)
    """
    both_zero = (np.asarray(x) == 0) & (np.asarray(y) == 0)
    zero = np.where(np.signbit(x) & np.signbit(y), np.float32(-0.0), np.float32(0.0))
    return np.where(both_zero, zero, _ignoring_nan(np.fmax, x, y)).astype(F32)


_EXPONENT_CLAMP = 512
"""Scaling exponents beyond ±512 give the same float32 result as ±512 (overflow or zero)."""


def ldexp(x: Arr, n: Arr) -> Arr:
    """``ldexpf`` / ``scalbnf`` / ``scalblnf``: ``x * 2**n`` rounded once.

    Examples
    --------
    >>> import numpy as np
    >>> ldexp(np.array([1.5, 1.0], np.float32), np.array([2, -149], np.int32))
    array([6.e+00, 1.e-45], dtype=float32)
    """
    clamped = np.clip(np.asarray(n).astype(I64), -_EXPONENT_CLAMP, _EXPONENT_CLAMP).astype(I32)
    with quiet():
        return np.ldexp(np.asarray(x, dtype=F32), clamped).astype(F32)


def frexp(x: Arr) -> tuple[Arr, Arr]:
    """``frexpf``: the mantissa in [1/2, 1) with x's sign, and the exponent (0 for 0, inf, NaN).

    Examples
    --------
    >>> import numpy as np
    >>> frexp(np.array([8.0, -0.75, np.inf], np.float32))
    (array([ 0.5 , -0.75,   inf], dtype=float32), array([4, 0, 0], dtype=int32))
    """
    mantissa, exponent = np.frexp(np.asarray(x, dtype=F32))
    exponent = np.where(np.isfinite(x), exponent, 0)
    return mantissa.astype(F32), exponent.astype(I32)


def modf(x: Arr) -> tuple[Arr, Arr]:
    """``modff``: the fractional part (±0 for infinities) and the integral part.

    Examples
    --------
    >>> import numpy as np
    >>> modf(np.array([-2.5, np.inf], np.float32))
    (array([-0.5,  0. ], dtype=float32), array([-2., inf], dtype=float32))
    """
    fraction, integral = np.modf(np.asarray(x, dtype=F32))
    fraction = np.where(np.isinf(x), np.copysign(np.float32(0), x), fraction)
    return fraction.astype(F32), integral.astype(F32)


ILOGB_ZERO_OR_NAN = np.int32(-(2**31))
"""``ilogbf(±0)`` and ``ilogbf(NaN)``: ``ASCRT_MIN_VAL_S`` (0x80000000)."""
ILOGB_INF = np.int32(2**31 - 1)
"""``ilogbf(±inf)``: ``ASCRT_MAX_VAL_S`` (0x7FFFFFFF)."""


def _exponent(x: Arr) -> Arr:
    with quiet():
        return (np.frexp(np.asarray(x, dtype=F32))[1] - 1).astype(I32)


def ilogb(x: Arr) -> Arr:
    """``ilogbf``: the unbiased exponent of x as an int (subnormals by their value).

    Examples
    --------
    >>> import numpy as np
    >>> ilogb(np.array([8.0, 1e-45, 0.0, np.inf, np.nan], np.float32))
    array([          3,        -149, -2147483648,  2147483647, -2147483648], dtype=int32)
    """
    special = np.where(np.isinf(x), ILOGB_INF, ILOGB_ZERO_OR_NAN)
    normal = np.isfinite(x) & (np.asarray(x) != 0)
    return np.where(normal, _exponent(x), special).astype(I32)


def logb(x: Arr) -> Arr:
    """``logbf``: the unbiased exponent as a float (-inf for 0, +inf for ±inf, NaN for NaN).

    Examples
    --------
    >>> import numpy as np
    >>> logb(np.array([8.0, 0.0, -np.inf], np.float32))
    array([  3., -inf,  inf], dtype=float32)
    """
    x = np.asarray(x, dtype=F32)
    special = np.where(x == 0, np.float32(-np.inf), np.abs(x))
    return np.where(np.isfinite(x) & (x != 0), _exponent(x).astype(F32), special).astype(F32)


def to_long(x: Arr, rounding: Callable[[Arr], Arr]) -> Arr:
    """``lrintf`` ... ``llroundf``: round with *rounding*, as a 64-bit ``long`` (NaN gives 0).

    A value outside the ``long`` range saturates (C leaves it undefined; the conversions'
    documented rule ``__float2ll_*`` is used).

    Examples
    --------
    >>> import numpy as np
    >>> to_long(np.array([2.5, -3.5, np.nan, 1e30], np.float32), np.rint)
    array([                  2,                  -4,                   0,
           9223372036854775807])
    """
    return saturate_to_integer(rounding(np.asarray(x, dtype=F32)), I64)


def saturate_to_integer(integral: Arr, dtype: np.dtype[Any]) -> Arr:
    """Convert integral float lanes to *dtype*, saturating at its range; NaN gives 0.

    Examples
    --------
    >>> import numpy as np
    >>> saturate_to_integer(np.array([-1.0, 5e9, np.nan], np.float32), np.dtype(np.uint32))
    array([         0, 4294967295,          0], dtype=uint32)
    """
    info = np.iinfo(dtype)
    values = _f64(integral)
    low, high = values <= info.min, values >= float(info.max)
    safe = np.where(low | high | np.isnan(values), 0.0, values)
    result = safe.astype(dtype)
    result = np.where(low, info.min, np.where(high, info.max, result))
    return np.asarray(result, dtype=dtype)


ROUND_TO_INTEGRAL: dict[str, Callable[[Arr], Arr]] = {
    "rn": np.rint,
    "rz": np.trunc,
    "ru": np.ceil,
    "rd": np.floor,
    "rna": round_half_away,
}
"""Rounding to an integral float by mode (ties to even, toward zero, up, down, ties away);
each keeps ±0, ±inf and NaN (IEEE roundToIntegral)."""


def _integral(mode: str) -> Callable[[Arr], Arr]:
    rounding = ROUND_TO_INTEGRAL[mode]

    def evaluate(x: Arr) -> Arr:
        return np.asarray(rounding(np.asarray(x, dtype=F32)), dtype=F32)

    return evaluate


def _predicate(test: Callable[[Arr], Arr], dtype: type[np.generic]) -> Callable[[Arr], Arr]:
    def evaluate(x: Arr) -> Arr:
        return np.asarray(test(x)).astype(dtype)

    return evaluate


def _long(mode: str) -> Callable[[Arr], Arr]:
    rounding = ROUND_TO_INTEGRAL[mode]

    def evaluate(x: Arr) -> Arr:
        return to_long(x, rounding)

    return evaluate


def _sincos(name: str) -> Callable[[Arr], tuple[Arr, Arr]]:
    sin, cos = TRANSCENDENTAL[name[:3] + name[6:]], TRANSCENDENTAL["cos" + name[6:]]

    def evaluate(x: Arr) -> tuple[Arr, Arr]:
        return sin(x), cos(x)

    return evaluate


def _exact32(f: Callable[..., Arr]) -> Callable[..., Arr]:
    def evaluate(*xs: Arr) -> Arr:
        with quiet():
            return np.asarray(f(*(np.asarray(x, dtype=F32) for x in xs)), dtype=F32)

    return evaluate


_SMALLEST_NORMAL = 2.0**-126


def array_norm(n: Arr, values: Arr, *, reciprocal: bool = False) -> Arr:
    """``normf`` / ``rnormf``: the (reciprocal) Euclidean norm of each lane's first n values.

    *values* is ``(k, lanes)``: row k holds ``a[k]`` of every lane, where ``k < n`` (the other
    entries are ignored). The squares are exact in float64 and summed with an exact error term,
    so the one rounding to float32 is correct (near-tie lanes are recomputed exactly). Any ±inf
    gives inf, else any NaN gives NaN; ``n < 1`` gives ``|a[0]|``. Documented Ascend 950 quirk:
    if every element is a (nonzero) subnormal and n >= 1, the result is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> array_norm(np.array([2, 3, 0]), np.array([[3.0, 1.0, -2.0], [4.0, 2.0, 9.0], [9.0, 2.0, 9.0]], np.float32))
    array([5., 3., 2.], dtype=float32)
    """
    n = np.asarray(n).astype(I64)
    count = np.maximum(n, 1)
    values = np.asarray(values, dtype=F32)
    active = np.arange(values.shape[0])[:, None] < count[None, :]
    used = np.where(active, values.astype(F64), 0.0)
    with quiet():
        approx = _compensated_norm(used, reciprocal)
    exact_value = _exact_norm(reciprocal)
    result = correctly_rounded(approx, exact_value, tuple(np.where(active, used, 0.0)))
    magnitude = np.abs(used)
    infinite = np.any(np.isinf(magnitude), axis=0)
    nan = np.any(np.isnan(magnitude), axis=0)
    tiny = (magnitude > 0) & (magnitude < _SMALLEST_NORMAL)
    subnormal = np.all(~active | tiny, axis=0) & (n >= 1)  # n < 1 is |a[0]|, no division
    special = np.where(infinite, np.float32(0 if reciprocal else np.inf), np.float32(np.nan))
    return np.where(infinite | nan | subnormal, special, result).astype(F32)


def _compensated_norm(used: Arr, reciprocal: bool) -> Arr:
    """Return the float64 norm of each column, summing the exact squares with Neumaier's error term."""
    total, error = np.zeros(used.shape[1], F64), np.zeros(used.shape[1], F64)
    for row in used * used:
        step = total + row
        error += np.where(np.abs(total) >= np.abs(row), (total - step) + row, (row - step) + total)
        total = step
    norm = np.sqrt(total + error)
    return np.asarray(1 / norm if reciprocal else norm, dtype=F64)


def _exact_norm(reciprocal: bool) -> Callable[..., Decimal]:
    def evaluate(*xs: Decimal) -> Decimal:
        norm = sum((x * x for x in xs), start=Decimal(0)).sqrt()
        return 1 / norm if reciprocal else norm

    return evaluate


# -- Bessel functions of the first and second kind -----------------------------------------------

MAX_BESSEL_ORDER = 128
"""The documented largest order n of ``jnf`` and ``ynf``."""
_PROVEN = 2.0**-46
"""A float64 lane whose error bound is below this (relative) is decided by the midpoint check."""


def bessel_jy(n: Arr, x: Arr, *, second_kind: bool, name: str = "jnf") -> Arr:
    """``J_n(x)`` or ``Y_n(x)`` per lane, correctly rounded to float32.

    :func:`ascreg.core.bessel.bessel_jy` gives a float64 value and a bound on its error; a lane
    whose bound is not below 2**-46 of its value (near a zero of the function, or in the middle
    range ``2 < x < max(25, n**2)``) is computed by :func:`ascreg.core.exact.bessel_jy`, which
    raises its precision until the rounding is decided. Special values (documented): n < 0 and
    NaN give NaN, ±inf gives +0 for J; for Y, x < 0 gives NaN, ±0 gives -inf, +inf gives +0.
    ``J_n(-x) = (-1)**n J_n(x)``. An order above 128 (the documented maximum) is an error.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([1.0, -1.0, 0.0, np.inf], np.float32)
    >>> bessel_jy(np.array([1, 1, 0, 0]), x, second_kind=False)
    array([ 0.44005057, -0.44005057,  1.        ,  0.        ], dtype=float32)
    >>> bessel_jy(np.array([0, 0, 0, 0]), x, second_kind=True)
    array([0.08825696,        nan,       -inf,  0.        ], dtype=float32)
    """
    n64 = np.asarray(n).astype(I64)
    x64 = _f64(x)
    n64, x64 = np.broadcast_arrays(n64, x64)
    if (n64 > MAX_BESSEL_ORDER).any():
        largest = int(n64.max())
        raise errors.UnsupportedError(
            f"{name}: n = {largest} is above the documented maximum order {MAX_BESSEL_ORDER}"
        )
    usable = np.isfinite(x64) & (n64 >= 0) & ((x64 > 0) if second_kind else True)
    order, magnitude = np.where(usable, n64, 0), np.where(usable, np.abs(x64), 1.0)
    approx, bound = bessel.bessel_jy(order, magnitude, second_kind=second_kind)
    approx = np.where(np.signbit(x64) & (order % 2 == 1), -approx, approx)
    with quiet():
        force = usable & ~(bound <= _PROVEN * np.abs(approx)) & (approx != 0)
    placeholder = np.where(usable & ~force, approx, 1.0)

    def exact_value(order: Decimal, value: Decimal) -> Decimal:
        return exact.bessel_jy(order, value, second_kind)

    result = correctly_rounded(placeholder, exact_value, (order, x64), force)
    return _bessel_special(n64, x64, result, second_kind)


def _bessel_special(n: Arr, x: Arr, result: Arr, second_kind: bool) -> Arr:
    nan, zero = np.float32(np.nan), np.float32(0)
    if second_kind:
        result = np.where(x == 0, np.float32(-np.inf), np.where(x == np.inf, zero, result))
        result = np.where(x < 0, nan, result)
    else:
        result = np.where(np.isinf(x), zero, result)
    return np.where((n < 0) | np.isnan(x), nan, result).astype(F32)


def _bessel(order: int | None, second_kind: bool, name: str) -> Callable[..., Arr]:
    def evaluate(*args: Arr) -> Arr:
        n, x = (np.full(np.shape(args[0]), order), args[0]) if order is not None else args
        return bessel_jy(n, x, second_kind=second_kind, name=name)

    evaluate.__name__ = evaluate.__qualname__ = name
    evaluate.__doc__ = f"``{name}``: correctly rounded float32 lanes (see :func:`bessel_jy`)."
    return evaluate


BESSEL: dict[str, Callable[..., Arr]] = {
    "j0f": _bessel(0, False, "j0f"),
    "j1f": _bessel(1, False, "j1f"),
    "jnf": _bessel(None, False, "jnf"),
    "y0f": _bessel(0, True, "y0f"),
    "y1f": _bessel(1, True, "y1f"),
    "ynf": _bessel(None, True, "ynf"),
}
"""The Bessel functions of the first and second kind, by C name."""


FUNCTIONS: dict[str, Callable[..., Any]] = {
    **BESSEL,
    **TRANSCENDENTAL,
    "floorf": _integral("rd"),
    "ceilf": _integral("ru"),
    "truncf": _integral("rz"),
    "roundf": _integral("rna"),
    "rintf": _integral("rn"),
    "nearbyintf": _integral("rn"),
    "fabsf": _exact32(np.abs),
    "copysignf": _exact32(np.copysign),
    "nextafterf": _exact32(np.nextafter),
    "fmodf": _exact32(np.fmod),
    "remainderf": remainder,
    "remquof": remquo,
    "fminf": fmin,
    "fmaxf": fmax,
    "fdimf": fdim,
    "fmaf": fma,
    "ldexpf": ldexp,
    "scalbnf": ldexp,
    "scalblnf": ldexp,
    "frexpf": frexp,
    "modff": modf,
    "ilogbf": ilogb,
    "logbf": logb,
    "lrintf": _long("rn"),
    "llrintf": _long("rn"),
    "lroundf": _long("rna"),
    "llroundf": _long("rna"),
    "isnan": _predicate(np.isnan, np.bool_),
    "isinf": _predicate(np.isinf, np.bool_),
    "isfinite": _predicate(np.isfinite, np.bool_),
    "signbit": _predicate(np.signbit, np.int32),
    "sincosf": _sincos("sincosf"),
    "sincospif": _sincos("sincospif"),
    "normf": array_norm,
    "rnormf": functools.partial(array_norm, reciprocal=True),
}
"""Every float math library function's lanes, by C name (the rows' ``core`` targets). A
function with output pointers returns a tuple: its return value (if not ``void``), then one
array per output, in parameter order."""

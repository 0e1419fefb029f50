"""float64 evaluations of ``tgamma`` and ``lgamma`` for the correctly rounded float32 library.

* ``tgamma(x)``, x > 0: shift to ``y = x + N >= 12`` and use Stirling's series in the form
  ``pow(y, y - 1/2) exp(-y) sqrt(2 pi) exp(S(y))`` (each factor good to an ulp), then divide by
  ``x (x + 1) ... (x + N - 1)``; x < 0 by the reflection ``pi / (sinpi(x) tgamma(1 - x))``.
* ``lgamma(x)``: ``log |tgamma(x)|`` where that is well conditioned; near its zeros at 1 and 2
  the series ``lgamma(1 + z) = -gamma z + sum (-1)**k zeta(k) z**k / k``; for large x Stirling's
  series directly. The zeros of ``lgamma`` for x < 0 (where ``|tgamma(x)| = 1``) are the rare
  lanes :func:`lgamma_needs_exact` marks for the exact recomputation.

Examples
--------
>>> import numpy as np
>>> tgamma(np.array([5.0, 0.5, -1.5])).round(12).tolist()
[24.0, 1.772453850906, 2.363271801207]
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from ascreg.core.fpenv import quiet

Arr = np.ndarray[Any, Any]
_SHIFT_TO = 12.0
_BERNOULLI = (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30),
              Fraction(5, 66), Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510))  # fmt: skip
"""B2, B4, ..., B16: the Stirling series ``sum B2k / (2k (2k-1) y**(2k-1))``."""
_STIRLING = tuple(float(b / (2 * k * (2 * k - 1))) for k, b in enumerate(_BERNOULLI, start=1))
_EULER_GAMMA = 0.57721566490153286061
_SERIES_RADIUS = 0.25
_ZETA_TERMS = 40
_CANCELLING = 2.0**-5
"""Below this |lgamma(x)| for x < 0, the float64 sum of logarithms (absolute error up to about
2**-50.5) may not be relatively accurate enough for the rounding check (2**-44)."""


def _stirling_tail(y: Arr) -> Arr:
    """``S(y) = lgamma(y) - ((y - 1/2) log y - y + log(2 pi) / 2)`` for y >= 12."""
    inverse = 1 / y
    square = inverse * inverse
    total = np.zeros_like(y)
    for coefficient in reversed(_STIRLING):
        total = total * square + coefficient
    return total * inverse


def _gamma_positive(x: Arr) -> Arr:
    """``tgamma`` of x > 0 (float64; inf beyond its range)."""
    shift = np.where(x < _SHIFT_TO, np.ceil(_SHIFT_TO - x), 0.0)
    y = np.minimum(x + shift, 180.0)
    value = np.power(y, y - 0.5) * np.exp(-y) * math.sqrt(2 * math.pi) * np.exp(_stirling_tail(y))
    product = np.ones_like(x)
    for j in range(int(_SHIFT_TO) + 1):
        product = np.where(j < shift, product * (x + j), product)
    return np.where(x > 171.0, np.inf, value / product)


def _sinpi(x: Arr) -> Arr:
    """``sin(pi x)`` with exact reduction (x a float32 value in float64)."""
    r = np.fmod(x, 2.0)
    r = np.where(r > 1, r - 2, np.where(r < -1, r + 2, r))
    r = np.where(r > 0.5, 1 - r, np.where(r < -0.5, -1 - r, r))
    return np.sin(np.pi * r)


def tgamma(x: Arr) -> Arr:
    """Return the gamma function of float64 lanes (poles: ±0 gives ±inf, negative integers NaN).

    Examples
    --------
    >>> import numpy as np
    >>> tgamma(np.array([-0.0, -2.0, np.inf, -np.inf])).tolist()
    [-inf, nan, inf, nan]
    """
    with quiet():
        return _tgamma(x)


def _tgamma(x: Arr) -> Arr:
    positive = _gamma_positive(np.where(x > 0, x, 1.0))
    reflected = np.pi / (_sinpi(x) * _gamma_positive(np.where(x < 0, 1 - x, 1.0)))
    value = np.where(x > 0, positive, reflected)
    pole = (x < 0) & (x == np.floor(x))
    value = np.where(pole | np.isneginf(x), np.nan, value)
    return np.where(x == 0, np.copysign(np.inf, x), value)


@cache
def _zeta_coefficients() -> tuple[Arr, Arr]:
    """``(-1)**k zeta(k) / k`` and ``(-1)**k (zeta(k) - 1) / k`` for k = 2 .. 41."""
    near_one, near_two = [], []
    for k in range(2, 2 + _ZETA_TERMS):
        minus_one = _zeta_minus_one(k)
        sign = -1 if k % 2 else 1
        near_one.append(sign * float((1 + minus_one) / k))
        near_two.append(sign * float(minus_one / k))
    return np.array(near_one), np.array(near_two)


def _zeta_minus_one(k: int) -> Decimal:
    """``zeta(k) - 1`` to 40 digits (Euler-Maclaurin from n = 10)."""
    n = 10
    total = sum((Decimal(m) ** -k for m in range(2, n)), start=Decimal(0))
    total += Decimal(n) ** (1 - k) / (k - 1) + Decimal(n) ** -k / 2
    rising = Decimal(k)  # k (k+1) ... (k+2j-2)
    factorial = Decimal(2)  # (2j)!
    for j, b in enumerate(_BERNOULLI, start=1):
        total += (
            Decimal(b.numerator)
            / b.denominator
            / factorial
            * rising
            * Decimal(n) ** (-k - 2 * j + 1)
        )
        rising *= (k + 2 * j - 1) * (k + 2 * j)
        factorial *= (2 * j + 1) * (2 * j + 2)
    return total


def _log_gamma_positive(x: Arr) -> Arr:
    """``lgamma`` of x > 0 away from 1 and 2: ``log(tgamma)``, Stirling's series above 30."""
    large = np.where(x > 30, x, 30.0)
    half_log_two_pi = 0.5 * math.log(2 * math.pi)
    stirling = (large - 0.5) * np.log(large) - large + half_log_two_pi + _stirling_tail(large)
    return np.where(x > 30, stirling, np.log(_gamma_positive(np.where(x > 30, 1.5, x))))


def _log_gamma_series(z: Arr, coefficients: Arr, linear: float) -> Arr:
    """``linear * z + sum coefficients[k-2] z**k`` (Horner, k = 2 .. 41)."""
    total = np.zeros_like(z)
    for c in coefficients[::-1]:
        total = (total + c) * z
    return (total + linear) * z


def lgamma(x: Arr) -> Arr:
    """``log |tgamma(x)|`` of float64 lanes (+inf at the poles and ±inf; NaN stays NaN).

    Examples
    --------
    >>> import numpy as np
    >>> lgamma(np.array([1.0, 2.0, 0.5, -np.inf])).round(12).tolist()
    [0.0, 0.0, 0.572364942925, inf]
    >>> round(float(lgamma(np.array([-142.43239212036133]))[0]), 4)  # by reflection
    -566.1025
    """
    with quiet():
        return _lgamma(x)


def _lgamma(x: Arr) -> Arr:
    near_one, near_two = _zeta_coefficients()
    z1, z2 = x - 1, x - 2  # exact for float32 x near 1 and 2
    series_one = _log_gamma_series(
        np.where(np.abs(z1) < _SERIES_RADIUS, z1, 0.0), near_one, -_EULER_GAMMA
    )
    series_two = _log_gamma_series(
        np.where(np.abs(z2) < _SERIES_RADIUS, z2, 0.0), near_two, 1 - _EULER_GAMMA
    )
    far = (x > 30) | (x < -30)
    general = np.log(np.abs(_tgamma(np.where(far | (x == 0), 1.5, x))))
    value = np.where(x > 30, _log_stirling(np.where(x > 30, x, 30.0)), general)
    # x < -30: the reflection log|gamma(x)| = log(pi) - log|sin(pi x)| - lgamma(1 - x), in
    # logarithms (gamma(x) itself leaves float64 below x = -170 and loses digits before)
    reflected = np.where(x < -30, x, -30.5)
    sine = np.abs(np.sin(math.pi * (reflected - np.round(reflected))))  # exact reduction
    mirrored = math.log(math.pi) - np.log(sine) - _log_stirling(1 - reflected)
    value = np.where(x < -30, mirrored, value)
    value = np.where(np.abs(z2) < _SERIES_RADIUS, series_two, value)
    value = np.where(np.abs(z1) < _SERIES_RADIUS, series_one, value)
    pole = (x <= 0) & (x == np.floor(x))
    value = np.where(pole | np.isinf(x), np.inf, np.where(value == 0, 0.0, value))
    return np.where(np.isnan(x), x, value)


def _log_stirling(x: Arr) -> Arr:
    """Stirling's series for ``log gamma(x)``, x >= 30 (float64 accurate there)."""
    result: Arr = (x - 0.5) * np.log(x) - x + 0.5 * math.log(2 * math.pi) + _stirling_tail(x)
    return result


def lgamma_needs_exact(x: Arr, value: Arr) -> Arr:
    """Lanes whose float64 ``lgamma`` may be less accurate than the rounding check assumes.

    Near a zero of ``lgamma`` at x < 0 (``|tgamma(x)| = 1``) the logarithm of the float64 gamma
    value loses relative accuracy; those lanes are few (narrow windows around each zero).

    Examples
    --------
    >>> import numpy as np
    >>> lgamma_needs_exact(np.array([-2.457, 3.0]), np.array([0.001, 0.69])).tolist()
    [True, False]
    """
    return (x < 0) & (np.abs(value) < _CANCELLING)

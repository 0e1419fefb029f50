"""float64 evaluations of the modified Bessel functions I0 and I1 (``cyl_bessel_i0f/i1f``).

For ``|x| <= 30`` the power series ``sum (x/2)**(2k+n) / (k! (k+n)!)`` (all terms positive: no
cancellation); beyond, the asymptotic series ``e**|x| / sqrt(2 pi |x|) (1 - (mu-1)/(8|x|) + ...)``
(mu = 4 n**2), whose smallest term there is below 2**-80. Both are far inside the rounding
check's bound of :mod:`ascreg.core.libm`, which recomputes near-tie lanes exactly.

Examples
--------
>>> import numpy as np
>>> v = bessel_i(np.array([0.0, 1.0, 50.0]), 0)
>>> v[:2].round(9).tolist(), round(float(v[2]) / 1e20, 9)
([1.0, 1.266065878], 2.932553784)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]
_SERIES_LIMIT = 30.0
_SERIES_TERMS = 90
_ASYMPTOTIC_TERMS = 30
_OVERFLOW = 720.0  # e**720 overflows float64; the float32 result overflowed long before


def _series(a: Arr, order: int) -> Arr:
    half = a / 2
    term = half**order / math.factorial(order)
    total = term.copy()
    square = half * half
    for k in range(1, _SERIES_TERMS):
        term = term * square / (k * (k + order))
        total = total + term
    return np.asarray(total, dtype=np.float64)


def _asymptotic(a: Arr, order: int) -> Arr:
    mu = 4.0 * order * order
    term = np.ones_like(a)
    total = term.copy()
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * a)
        total = total + term
    return np.asarray(np.exp(a) / np.sqrt(2 * np.pi * a) * total, dtype=np.float64)


def bessel_i(x: Arr, order: int) -> Arr:
    """``I_order(x)`` for order 0 or 1 (I1 is odd: ``I1(-x) = -I1(x)``).

    Examples
    --------
    >>> import numpy as np
    >>> bessel_i(np.array([-np.inf, -2.0, np.nan]), 1).round(12).tolist()
    [-inf, -1.590636854637, nan]
    """
    with np.errstate(all="ignore"):
        a = np.abs(x)
        small = _series(np.where(a <= _SERIES_LIMIT, a, 0.0), order)
        large = _asymptotic(np.where(a > _SERIES_LIMIT, np.minimum(a, _OVERFLOW), 100.0), order)
        value = np.where(a <= _SERIES_LIMIT, small, np.where(a > _OVERFLOW, np.inf, large))
        if order % 2:
            value = np.copysign(value, x)
        return np.where(np.isnan(x), x, value)

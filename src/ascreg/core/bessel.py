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

from ascreg.core.fpenv import quiet

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
    with quiet():
        a = np.abs(x)
        small = _series(np.where(a <= _SERIES_LIMIT, a, 0.0), order)
        large = _asymptotic(np.where(a > _SERIES_LIMIT, np.minimum(a, _OVERFLOW), 100.0), order)
        value = np.where(a <= _SERIES_LIMIT, small, np.where(a > _OVERFLOW, np.inf, large))
        if order % 2:
            value = np.copysign(value, x)
        return np.where(np.isnan(x), x, value)


# -- Bessel functions of the first and second kind, J_n and Y_n (``j0f`` ... ``ynf``) -------------

EPS = 2.0**-53
"""float64 unit roundoff."""
_SERIES_END = 2.0
"""Below this the power series is used: ``(x/2)**2 <= 1``, so its terms shrink from the start."""
_SERIES_TERMS_JY = 24
"""Terms of the power series: the next one is below ``1 / (24!)**2``, far below float64 rounding."""
_HANKEL_START = 25.0
"""The Hankel expansion is used for ``x >= max(25, n**2)``: its terms shrink for ``k < 2x``."""
_HANKEL_TERMS = 50
"""At least this many Hankel terms (and ``2n + 4``): the smallest is below ``e**-50`` there."""
_EULER_GAMMA = 0.5772156649015329
"""Euler's constant (rounded to float64)."""
_UNBOUNDED = np.inf
_UNDERFLOW = 2.0**-1000
"""An absolute error allowed for float64 underflow; far below half the smallest float32."""


def _harmonic(k: int) -> float:
    return math.fsum(1.0 / j for j in range(1, k + 1))


def _series_j(n: Arr, x: Arr) -> tuple[Arr, Arr]:
    """``J_n(x)`` for ``0 <= x <= 2`` by its power series, with a bound on the absolute error."""
    factorials = np.array([float(math.factorial(k)) for k in range(int(n.max(initial=0)) + 1)])
    prefactor = np.power(x / 2, n) / factorials[n]
    q = x * x / 4
    term, total, weighted = np.ones_like(x), np.ones_like(x), np.full_like(x, 4.0)
    for k in range(1, _SERIES_TERMS_JY):
        term = -term * q / (k * (k + n))
        total, weighted = total + term, weighted + (4 * k + 4) * np.abs(term)
    bound = EPS * (weighted + 8 * np.abs(total)) * prefactor  # term k: 4k + 4 roundings at most
    bound += _UNDERFLOW  # (x/2)**n / n! may underflow float64: the value is then below this
    return total * prefactor, bound


def _series_y(n: Arr, x: Arr) -> tuple[Arr, Arr]:
    """``Y_0`` or ``Y_1`` (n in {0, 1}) for ``0 < x <= 2`` by their power series, and a bound.

    ``Y_n = (2/pi) log(x/2) J_n - (1/pi) sum_k (psi(k+1) + psi(n+k+1)) (-x**2/4)**k
    (x/2)**n / (k! (n+k)!)`` minus ``1/(pi x)`` times 2 for n = 1 (``psi(m+1) = H_m - gamma``).
    """
    j, j_bound = _series_j(n, x)
    log_half = np.log(x / 2)
    q, half = x * x / 4, x / 2
    term = np.where(n == 1, half, 1.0)  # (x/2)**n / (k! (n+k)!) at k = 0
    total, weighted = np.zeros_like(x), np.zeros_like(x)
    for k in range(_SERIES_TERMS_JY):
        psi = np.where(n == 1, _harmonic(k) + _harmonic(k + 1), 2 * _harmonic(k)) - 2 * _EULER_GAMMA
        total, weighted = total + psi * term, weighted + (4 * k + 8) * np.abs(psi * term)
        term = -term * q / ((k + 1) * (k + 1 + n))
    pole = np.where(n == 1, 2 / (np.pi * x), 0.0)
    value = (2 / np.pi) * log_half * j - total / np.pi - pole
    parts = 8 * (2 / np.pi) * np.abs(log_half * j) + weighted / np.pi + 8 * pole + 8 * np.abs(value)
    bound = EPS * parts + (2 / np.pi) * np.abs(log_half) * j_bound
    return value, bound


_PHASE_SIGNS = np.array([(1, 1), (-1, 1), (-1, -1), (1, -1)], dtype=np.float64) / math.sqrt(2)
"""``(cos, sin)`` of ``(2n + 1) pi / 4`` for ``n mod 4``."""


def _hankel(n: Arr, x: Arr, second_kind: bool) -> tuple[Arr, Arr]:
    """``J_n`` or ``Y_n`` for ``x >= max(25, n**2)`` by Hankel's expansion, and a bound.

    ``J_n = sqrt(2/(pi x)) (P cos chi - Q sin chi)``, ``Y_n = sqrt(2/(pi x)) (P sin chi +
    Q cos chi)``, ``chi = x - (2n+1) pi/4``; ``cos chi`` and ``sin chi`` come from ``cos x`` and
    ``sin x`` (numpy's, accurate to a few ulps for every float64 argument). For real x the
    remainder of P and Q is below the first omitted term once ``2k > n - 1/2`` (Watson, 7.32),
    and the terms shrink up to ``k = 2x``: the last term kept per lane is k < max(50, 2n + 4).
    """
    last = np.maximum(_HANKEL_TERMS, 2 * n + 4)
    mu = 4.0 * n * n
    term, p, q, omitted = np.ones_like(x), np.ones_like(x), np.zeros_like(x), np.zeros_like(x)
    weighted = np.full_like(x, 4.0)
    for k in range(1, int(last.max(initial=_HANKEL_TERMS)) + 2):
        term = term * (mu - (2 * k - 1) ** 2) / (8 * k * x)
        signed = term if k % 4 in (0, 1) else -term
        keep = k < last
        weighted = weighted + np.where(keep, (4 * k + 4) * np.abs(term), 0.0)
        p = p + np.where(keep & (k % 2 == 0), signed, 0.0)
        q = q + np.where(keep & (k % 2 == 1), signed, 0.0)
        omitted = omitted + np.where((k == last) | (k == last + 1), np.abs(term), 0.0)
    cos_phase, sin_phase = _PHASE_SIGNS[n % 4].T
    cos_x, sin_x = np.cos(x), np.sin(x)
    cos_chi = cos_x * cos_phase + sin_x * sin_phase
    sin_chi = sin_x * cos_phase - cos_x * sin_phase
    bracket = p * sin_chi + q * cos_chi if second_kind else p * cos_chi - q * sin_chi
    prefactor = np.sqrt(2 / (np.pi * x))
    value = prefactor * bracket
    rounding = (np.abs(p) + np.abs(q)) * 2.0**-47 + EPS * weighted  # sin, cos: a few ulps
    bound = prefactor * (rounding + omitted) + 2.0**-50 * np.abs(value)
    return value, bound


def bessel_jy(n: Arr, x: Arr, *, second_kind: bool) -> tuple[Arr, Arr]:
    """float64 ``J_n(x)`` or ``Y_n(x)`` (n >= 0, finite x >= 0) and a bound on its absolute error.

    The power series for ``x <= 2`` (J: every n; Y: n = 0, 1), Hankel's expansion for
    ``x >= max(25, n**2)``; elsewhere the bound is infinite (the lane must be computed exactly,
    :func:`ascreg.core.exact.bessel_jy`).

    Examples
    --------
    >>> import numpy as np
    >>> v, b = bessel_jy(np.array([0, 1, 3]), np.array([1.0, 30.0, 10.0]), second_kind=False)
    >>> v[:2].round(10).tolist(), bool(b[0] < 2**-46 * v[0]), float(b[2])
    ([0.7651976866, -0.1187510626], True, inf)
    """
    n = np.asarray(n, dtype=np.int64)
    x = np.asarray(x, dtype=np.float64)
    value, bound = np.full_like(x, np.nan), np.full_like(x, _UNBOUNDED)
    with quiet():
        small = (x <= _SERIES_END) & (x > 0 if second_kind else True)
        small &= n <= 1 if second_kind else True
        large = x >= np.maximum(_HANKEL_START, n.astype(np.float64) ** 2)
        for lanes, evaluate in (
            (small, _series_y if second_kind else _series_j),
            (large, lambda m, a: _hankel(m, a, second_kind)),
        ):
            if lanes.any():
                value[lanes], bound[lanes] = evaluate(n[lanes], x[lanes])
    return value, bound

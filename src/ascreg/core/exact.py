"""Exact (high-precision decimal) values of the elementary functions, for correct rounding.

:mod:`ascreg.core.libm` evaluates every lane in float64 and rounds once to float32; a lane whose
float64 value lies so close to a float32 rounding midpoint that the float64 error could decide
the rounding is recomputed here, in :mod:`decimal` with :data:`DIGITS` significant digits, and
rounded from the decimal value (:func:`to_float32`). Such lanes are rare (about one in 2**19
random lanes), so these scalar routines never dominate a kernel's run time.

Every function takes and returns :class:`~decimal.Decimal` values and must be called inside
:func:`context` (which sets the precision).

Examples
--------
>>> from decimal import Decimal
>>> with context():
...     str(sin(Decimal(1)))[:12], float(to_float32(Decimal("0.1")))
('0.8414709848', 0.10000000149011612)
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import cache

import numpy as np

from ascreg.core import erf as float64
from ascreg.core.fpenv import quiet

DIGITS = 130
"""Working precision: a float32 argument of magnitude up to 2**128 keeps about 90 digits after
the trigonometric reduction, far more than any rounding decision of a float32 result needs."""


@contextmanager
def context() -> Iterator[decimal.Context]:
    """Run a block with :data:`DIGITS` digits and an exponent range wide enough for every float.

    Examples
    --------
    >>> with context() as ctx:
    ...     ctx.prec
    130
    """
    ctx = decimal.Context(prec=DIGITS, Emax=10**6, Emin=-(10**6), traps=[decimal.InvalidOperation])
    with decimal.localcontext(ctx) as local:
        yield local


def _series_atan(t: Decimal) -> Decimal:
    """``atan(t)`` for ``|t| <= 1/4`` by its Taylor series."""
    total, power, square, k = Decimal(0), t, t * t, 0
    eps = Decimal(10) ** -(DIGITS + 5)
    while abs(power) > eps * abs(t):
        term = power / (2 * k + 1)
        total += -term if k % 2 else term
        power *= square
        k += 1
    return total


@cache
def _pi() -> Decimal:
    with context():
        return 16 * _series_atan(Decimal(1) / 5) - 4 * _series_atan(Decimal(1) / 239)


def pi() -> Decimal:
    """Return pi to :data:`DIGITS` digits.

    Examples
    --------
    >>> str(pi())[:10]
    '3.14159265'
    """
    return +_pi()


def _sin_series(r: Decimal) -> Decimal:
    total, term, k = Decimal(0), r, 1
    eps = Decimal(10) ** -(DIGITS + 5)
    while abs(term) > eps:
        total += term
        term *= -r * r / ((k + 1) * (k + 2))
        k += 2
    return total


def _cos_series(r: Decimal) -> Decimal:
    total, term, k = Decimal(0), Decimal(1), 0
    eps = Decimal(10) ** -(DIGITS + 5)
    while abs(term) > eps:
        total += term
        term *= -r * r / ((k + 1) * (k + 2))
        k += 2
    return total


def _quadrant(x: Decimal) -> tuple[int, Decimal]:
    """``x = q * pi/2 + r`` with ``|r| <= pi/4``: return ``(q mod 4, r)``."""
    half_pi = pi() / 2
    q = (x / half_pi).to_integral_value(rounding=decimal.ROUND_HALF_EVEN)
    return int(q % 4), x - q * half_pi


def sin(x: Decimal) -> Decimal:
    """Sine.

    Examples
    --------
    >>> with context():
    ...     round(float(sin(pi() / 6)), 12)
    0.5
    """
    q, r = _quadrant(x)
    return (_sin_series(r), _cos_series(r), -_sin_series(r), -_cos_series(r))[q]


def cos(x: Decimal) -> Decimal:
    """Cosine.

    Examples
    --------
    >>> with context():
    ...     round(float(cos(pi() / 3)), 12)
    0.5
    """
    q, r = _quadrant(x)
    return (_cos_series(r), -_sin_series(r), -_cos_series(r), _sin_series(r))[q]


def tan(x: Decimal) -> Decimal:
    """Tangent.

    Examples
    --------
    >>> with context():
    ...     round(float(tan(pi() / 4)), 12)
    1.0
    """
    return sin(x) / cos(x)


def _pi_times_reduced(x: Decimal) -> Decimal:
    """``pi * (x mod 2)``: the exact reduction of the ``...pi`` functions."""
    return pi() * (x % 2)


def sinpi(x: Decimal) -> Decimal:
    """``sin(pi * x)``.

    Examples
    --------
    >>> with context():
    ...     float(sinpi(Decimal("0.5")))
    1.0
    """
    return sin(_pi_times_reduced(x))


def cospi(x: Decimal) -> Decimal:
    """``cos(pi * x)``.

    Examples
    --------
    >>> with context():
    ...     float(cospi(Decimal(1)))
    -1.0
    """
    return cos(_pi_times_reduced(x))


def tanpi(x: Decimal) -> Decimal:
    """``tan(pi * x)``.

    Examples
    --------
    >>> with context():
    ...     round(float(tanpi(Decimal("0.25"))), 12)
    1.0
    """
    return tan(_pi_times_reduced(x))


def atan(x: Decimal) -> Decimal:
    """Arc tangent.

    Examples
    --------
    >>> with context():
    ...     round(float(4 * atan(Decimal(1))), 12)
    3.14159265359
    """
    if x < 0:
        return -atan(-x)
    if x > 1:
        return pi() / 2 - atan(1 / x)
    halvings = 0
    while x > Decimal("0.25"):
        x = x / (1 + (1 + x * x).sqrt())
        halvings += 1
    return _series_atan(x) * Decimal(2**halvings)


def atan2(y: Decimal, x: Decimal) -> Decimal:
    """Return the angle of the point (x, y), in (-pi, pi] (finite, not both zero).

    Examples
    --------
    >>> with context():
    ...     round(float(atan2(Decimal(1), Decimal(-1))), 9)
    2.35619449
    """
    if x == 0:
        return pi() / 2 if y > 0 else -pi() / 2
    angle = atan(y / x)
    if x > 0:
        return angle
    return angle + pi() if y >= 0 else angle - pi()


def asin(x: Decimal) -> Decimal:
    """Arc sine on [-1, 1].

    Examples
    --------
    >>> with context():
    ...     round(float(asin(Decimal("0.5")) * 6), 12)
    3.14159265359
    """
    if abs(x) == 1:
        return pi() / 2 * x
    return atan(x / (1 - x * x).sqrt())


def acos(x: Decimal) -> Decimal:
    """Arc cosine on [-1, 1].

    Examples
    --------
    >>> with context():
    ...     float(acos(Decimal(1)))
    0.0
    """
    return pi() / 2 - asin(x)


def sinh(x: Decimal) -> Decimal:
    """Hyperbolic sine.

    Examples
    --------
    >>> with context():
    ...     round(float(sinh(Decimal(1))), 12)
    1.175201193644
    """
    e = x.exp()
    return (e - 1 / e) / 2


def cosh(x: Decimal) -> Decimal:
    """Hyperbolic cosine.

    Examples
    --------
    >>> with context():
    ...     float(cosh(Decimal(0)))
    1.0
    """
    e = x.exp()
    return (e + 1 / e) / 2


def tanh(x: Decimal) -> Decimal:
    """Hyperbolic tangent.

    Examples
    --------
    >>> with context():
    ...     round(float(tanh(Decimal(1))), 12)
    0.761594155956
    """
    e = (2 * x).exp()
    return (e - 1) / (e + 1)


def asinh(x: Decimal) -> Decimal:
    """Inverse hyperbolic sine.

    Examples
    --------
    >>> with context():
    ...     round(float(asinh(sinh(Decimal(2)))), 12)
    2.0
    """
    if x < 0:
        return -asinh(-x)
    return (x + (x * x + 1).sqrt()).ln()


def acosh(x: Decimal) -> Decimal:
    """Inverse hyperbolic cosine (x >= 1).

    Examples
    --------
    >>> with context():
    ...     float(acosh(Decimal(1)))
    0.0
    """
    return (x + (x * x - 1).sqrt()).ln()


def atanh(x: Decimal) -> Decimal:
    """Inverse hyperbolic tangent (|x| < 1).

    Examples
    --------
    >>> with context():
    ...     round(float(atanh(tanh(Decimal("0.5")))), 12)
    0.5
    """
    return ((1 + x) / (1 - x)).ln() / 2


def cbrt(x: Decimal) -> Decimal:
    """Real cube root.

    Examples
    --------
    >>> with context():
    ...     round(float(cbrt(Decimal(-27))), 12)
    -3.0
    """
    if x == 0:
        return x
    root = (abs(x).ln() / 3).exp()
    return root if x > 0 else -root


def power(x: Decimal, y: Decimal) -> Decimal:
    """``x ** y`` (x < 0 only for integral y; finite, nonzero x).

    Examples
    --------
    >>> with context():
    ...     float(power(Decimal(-2), Decimal(3)))
    -8.0
    """
    if y == y.to_integral_value() and abs(y) <= 4096:
        return x ** int(y)
    if x < 0:
        magnitude = (y * (-x).ln()).exp()
        return -magnitude if y % 2 else magnitude
    return (y * x.ln()).exp()


def to_float32(value: Decimal) -> np.float32:
    """Round an exact value to the nearest float32 (ties to even), once.

    ``float(value)`` rounds to float64; if that lands exactly on a float32 midpoint while the
    value itself is not one, it is moved one float64 step towards the value before rounding to
    float32, so the double rounding never decides a tie that is not there.

    Examples
    --------
    >>> with context():  # just above the tie between 1 and the next float32
    ...     float(to_float32(Decimal(1) + Decimal(2) ** -24 + Decimal(10) ** -40))
    1.0000001192092896
    """
    nearest = float(value)
    residual = value - Decimal(nearest)
    if residual and math.isfinite(nearest) and _is_float32_midpoint(nearest):
        nearest = math.nextafter(nearest, math.inf if residual > 0 else -math.inf)
    with quiet():
        return np.float32(nearest)


def _is_float32_midpoint(value: float) -> bool:
    with quiet():
        rounded = np.float32(value)
    if not np.isfinite(rounded):
        rounded = np.float32(math.copysign(float(np.finfo(np.float32).max), value))
    if float(rounded) == value:
        return False
    with quiet():
        other = np.nextafter(rounded, np.float32(math.copysign(math.inf, value - float(rounded))))
    other_value = float(other) if np.isfinite(other) else math.copysign(2.0**128, value)
    return (float(rounded) + other_value) / 2 == value


# -- the error-function family ------------------------------------------------------------------


def _two_over_sqrt_pi() -> Decimal:
    return 2 / pi().sqrt()


def erf(x: Decimal) -> Decimal:
    """Error function (the positive series ``exp(-x**2) sum 2**n x**(2n+1) / (2n+1)!!``).

    Examples
    --------
    >>> with context():
    ...     round(float(erf(Decimal("0.5"))), 15)
    0.520499877813047
    """
    square = x * x
    term = total = x
    eps = Decimal(10) ** -(DIGITS + 5)
    n = 1
    while abs(term) > eps * abs(total) or n < 2 * square:
        term = term * 2 * square / (2 * n + 1)
        total += term
        n += 1
    return _two_over_sqrt_pi() * (-square).exp() * total


def erfc(x: Decimal) -> Decimal:
    """Complementary error function ``1 - erf(x)``, with the digits its cancellation needs.

    Examples
    --------
    >>> with context():
    ...     round(float(erfc(Decimal(10))) * 1e45, 12)
    2.088487583763
    """
    extra = int(x * x / Decimal("2.3")) + 10 if x > 0 else 0
    with decimal.localcontext() as ctx:
        ctx.prec = DIGITS + extra
        value = 1 - erf(x)
    return +value


def erfcx(x: Decimal) -> Decimal:
    """Scaled complementary error function ``exp(x**2) erfc(x)`` (asymptotic series for x > 12).

    Examples
    --------
    >>> with context():
    ...     round(float(erfcx(Decimal(20))), 15)
    0.028174348741051
    """
    if x <= 12:
        with decimal.localcontext() as ctx:
            ctx.prec = DIGITS + int(x * x / Decimal("2.3")) + 10
            value = (x * x).exp() * erfc(x)
        return +value
    total, term, k = Decimal(1), Decimal(1), 1
    eps = Decimal(10) ** -(DIGITS + 5)
    while True:
        term = -term * (2 * k - 1) / (2 * x * x)
        if abs(term) < eps or k > x * x:
            break
        total += term
        k += 1
    return total / (x * pi().sqrt())


def normcdf(x: Decimal) -> Decimal:
    """Return the standard normal distribution function ``erfc(-x / sqrt(2)) / 2``.

    Examples
    --------
    >>> with context():
    ...     float(normcdf(Decimal(0)))
    0.5
    """
    return erfc(-x / Decimal(2).sqrt()) / 2


def _newton(start: float, residual: Callable[[Decimal], Decimal], sign: int) -> Decimal:
    """Solve ``residual(y) = 0`` (an erf/erfc equation) from a float64 start."""
    y = Decimal(start)
    for _ in range(5):
        y -= sign * residual(y) / (_two_over_sqrt_pi() * (-y * y).exp())
    return y


def erfinv(x: Decimal) -> Decimal:
    """Inverse error function on (-1, 1).

    Examples
    --------
    >>> with context():
    ...     round(float(erfinv(Decimal("0.5"))), 12)
    0.476936276204
    """
    a = abs(x)
    with quiet():
        start = float(float64.erfinv(np.array([float(a)]))[0])
    if a < Decimal("0.5"):
        y = _newton(start, lambda y: erf(y) - a, 1)
    else:
        y = _newton(start, lambda y: (1 - a) - erfc(y), 1)
    return y if x >= 0 else -y


def erfcinv(z: Decimal) -> Decimal:
    """Inverse complementary error function on (0, 2).

    Examples
    --------
    >>> with context():
    ...     round(float(erfcinv(Decimal("1e-30"))), 11)
    8.14861622317
    """
    small = min(z, 2 - z)
    with quiet():
        start = float(float64.erfcinv(np.array([float(small)]))[0])
    y = _newton(start, lambda y: erfc(y) - small, -1)
    return y if z <= 1 else -y


def normcdfinv(p: Decimal) -> Decimal:
    """Inverse of :func:`normcdf` on (0, 1).

    Examples
    --------
    >>> with context():
    ...     round(float(normcdfinv(Decimal("0.975"))), 9)
    1.959963985
    """
    return -Decimal(2).sqrt() * erfcinv(2 * p)


# -- the gamma function -------------------------------------------------------------------------

_SPOUGE_A = 170
"""Spouge's parameter: relative error below (2 pi)**-(a + 1/2), far beyond :data:`DIGITS`."""
_SPOUGE_DIGITS = DIGITS + 120
"""The coefficients alternate and cancel: they are summed with this many digits."""


@cache
def _spouge_coefficients() -> tuple[Decimal, ...]:
    with decimal.localcontext(decimal.Context(prec=_SPOUGE_DIGITS, Emax=10**6, Emin=-(10**6))):
        a = Decimal(_SPOUGE_A)
        coefficients = [(2 * _pi_digits(_SPOUGE_DIGITS)).sqrt()]
        factorial = Decimal(1)
        for k in range(1, _SPOUGE_A):
            term = (a - k) ** (Decimal(k) - Decimal("0.5")) * (a - k).exp() / factorial
            coefficients.append(term if k % 2 else -term)
            factorial *= k
        return tuple(coefficients)


def _pi_digits(digits: int) -> Decimal:
    with decimal.localcontext(decimal.Context(prec=digits + 10)):
        return 16 * _series_atan_to(Decimal(1) / 5, digits) - 4 * _series_atan_to(
            Decimal(1) / 239, digits
        )


def _series_atan_to(t: Decimal, digits: int) -> Decimal:
    total, power, square, k = Decimal(0), t, t * t, 0
    eps = Decimal(10) ** -(digits + 5)
    while abs(power) > eps * abs(t):
        term = power / (2 * k + 1)
        total += -term if k % 2 else term
        power *= square
        k += 1
    return total


def _gamma_positive(x: Decimal) -> Decimal:
    """Gamma of x > 0 by Spouge's formula for ``Gamma(z + 1)``, z = x - 1."""
    coefficients = _spouge_coefficients()
    with decimal.localcontext() as ctx:
        ctx.prec = _SPOUGE_DIGITS
        z = x - 1
        a = Decimal(_SPOUGE_A)
        total = coefficients[0] + sum(
            (c / (z + k) for k, c in enumerate(coefficients[1:], start=1)), start=Decimal(0)
        )
        value = (z + a) ** (z + Decimal("0.5")) * (-(z + a)).exp() * total
    return +value


def tgamma(x: Decimal) -> Decimal:
    """Return the gamma function (x not a pole).

    Examples
    --------
    >>> with context():
    ...     round(float(tgamma(Decimal("0.5")) ** 2), 12)
    3.14159265359
    """
    if x > 0:
        return _gamma_positive(x)
    return pi() / (sin(pi() * x) * _gamma_positive(1 - x))


def lgamma(x: Decimal) -> Decimal:
    """``log |gamma(x)|`` (x not a pole).

    Examples
    --------
    >>> with context():
    ...     round(float(lgamma(Decimal(10))), 12)
    12.801827480081
    """
    return abs(tgamma(x)).ln()


def bessel_i(x: Decimal, order: int) -> Decimal:
    """``I_order(x)`` by its power series (positive terms).

    Examples
    --------
    >>> with context():
    ...     round(float(bessel_i(Decimal(1), 0)), 12)
    1.266065877752
    """
    half = x / 2
    term = half**order / math.factorial(order)
    total = term
    k = 1
    while abs(term) > abs(total) * Decimal(10) ** -(DIGITS + 5) or k < abs(half):
        term = term * half * half / (k * (k + order))
        total += term
        k += 1
    return total


# -- Bessel functions of the first and second kind (with a proven rounding) -------------------

_ZIV_DIGITS = (40, 80, 160, 320, 640)
"""Working precisions tried in turn until the error bound decides the float32 rounding."""


@cache
def _pi_to(digits: int) -> Decimal:
    return _pi_digits(digits)


@cache
def euler_gamma(digits: int) -> Decimal:
    """Euler's constant to about *digits* digits (Brent and McMillan: error below ``e**-4N``).

    ``gamma = A / B - log N`` with ``B = sum (N**k / k!)**2`` and ``A = sum (N**k / k!)**2 H_k``.

    Examples
    --------
    >>> str(euler_gamma(30))[:14]
    '0.577215664901'
    """
    with decimal.localcontext(decimal.Context(prec=digits + 20, Emax=10**6, Emin=-(10**6))):
        big = Decimal(int(digits * 0.6) + 2)
        term, harmonic, a, b, k = Decimal(1), Decimal(0), Decimal(0), Decimal(1), 0
        eps = Decimal(10) ** -(digits + 15)
        while k < 4 * big or term > eps * b:
            k += 1
            term *= big * big / (k * k)
            harmonic += Decimal(1) / k
            a += term * harmonic
            b += term
        return a / b - big.ln()


def _sin_cos(r: Decimal) -> tuple[Decimal, Decimal]:
    """``sin r`` and ``cos r`` for ``|r| <= 4`` by their Taylor series at the context precision."""
    eps = Decimal(10) ** -(decimal.getcontext().prec + 3)
    sin, cos, term, k = Decimal(0), Decimal(0), Decimal(1), 0
    while abs(term) > eps or k < 2:
        if k % 2:
            sin += term if k % 4 == 1 else -term
        else:
            cos += term if k % 4 == 0 else -term
        k += 1
        term = term * r / k
    return sin, cos


def _hankel_jy(n: int, x: Decimal, second_kind: bool) -> tuple[Decimal, Decimal]:
    """Hankel's expansion (x >= 25) and a bound.

    For real x the remainders of P and Q are below their first omitted terms once each holds
    more than ``(n - 1/2) / 2`` terms (Watson, 7.32); the sum stops at its smallest term or
    below the working precision, and the rounding error counts every (cancelling) term.
    """
    prec = decimal.getcontext().prec
    eps = Decimal(10) ** -(prec + 3)
    mu = 4 * n * n
    terms = [Decimal(1)]
    while True:
        k = len(terms)
        term = terms[-1] * (mu - (2 * k - 1) ** 2) / (8 * k * x)
        watson = k > n + 2  # P and Q each hold more than (n - 1/2) / 2 terms
        growing = abs(term) > abs(terms[-1]) and watson
        if growing or (abs(term) < eps and watson) or k > 4 * prec + 2 * n:
            omitted = abs(term) + abs(terms[-1] * (mu - (2 * k + 1) ** 2) / (8 * (k + 1) * x))
            break
        terms.append(term)
    p = sum((t if k % 4 == 0 else -t for k, t in enumerate(terms) if k % 2 == 0), Decimal(0))
    q = sum((t if k % 4 == 1 else -t for k, t in enumerate(terms) if k % 2 == 1), Decimal(0))
    with decimal.localcontext() as ctx:
        ctx.prec = prec + len(str(int(x))) + 10
        pi = _pi_to(-(-ctx.prec // 64) * 64 + 10)
        chi = x - (2 * n + 1) * pi / 4
        reduced = chi - (chi / (2 * pi)).to_integral_value() * 2 * pi
    sin, cos = _sin_cos(+reduced)
    bracket = p * sin + q * cos if second_kind else p * cos - q * sin
    prefactor = (2 / (_pi_to(-(-prec // 64) * 64 + 10) * x)).sqrt()
    rounding = sum(((k + 8) * abs(t) for k, t in enumerate(terms)), Decimal(0))  # P, Q cancel
    error = prefactor * (omitted + (rounding + abs(p) + abs(q)) * Decimal(10) ** (8 - prec))
    return prefactor * bracket, error


def _series_jy(n: int, x: Decimal, second_kind: bool) -> tuple[Decimal, Decimal]:
    """Sum the power series (DLMF 10.2.2, 10.8.1) with the digits its cancellation needs.

    The sum stops past ``k = x`` (each term then at most half the previous one, so the tail is
    below twice the first omitted term) once the terms are below the working precision.
    """
    prec = decimal.getcontext().prec
    with decimal.localcontext() as ctx:
        ctx.prec = prec + int(x / Decimal("2.3")) + 10
        half, q = x / 2, -(x * x) / 4
        unit = Decimal(10) ** (5 - ctx.prec)
        term = half**n / math.factorial(n)  # (x/2)**n (-x**2/4)**k / (k! (n+k)!)
        gamma = euler_gamma(-(-ctx.prec // 64) * 64)  # cached: a few precisions only
        harmonic_k = Decimal(0)
        harmonic_nk = sum((Decimal(1) / j for j in range(1, n + 1)), Decimal(0))
        j = y = Decimal(0)
        weight = Decimal(0)
        k = 0
        while True:
            weight_j = term if not second_kind else term * (harmonic_k + harmonic_nk - 2 * gamma)
            j, y = j + term, y + weight_j
            weight += (k + 4) * abs(weight_j) + (k + 4) * abs(term)
            k += 1
            term = term * q / (k * (k + n))
            harmonic_k += Decimal(1) / k
            harmonic_nk += Decimal(1) / (k + n)
            if k > 2 * half and abs(term) * (1 + abs(harmonic_k + harmonic_nk)) < unit * weight:
                break
        omitted = abs(term) * (
            1 + 2 * abs(harmonic_k + harmonic_nk + 2 * gamma) + 2 * abs(half.ln())
        )
        if not second_kind:
            return +j, omitted + unit * weight
        pi = _pi_to(-(-ctx.prec // 64) * 64 + 10)
        finite = sum(
            (Decimal(math.factorial(n - i - 1)) / math.factorial(i) * half ** (2 * i - n)
             for i in range(n)),
            Decimal(0),
        )  # fmt: skip
        value = -finite / pi + 2 / pi * half.ln() * j - y / pi
        scale = abs(finite) + 2 * abs(half.ln() * j) + weight
        return +value, omitted + unit * (scale + 2 * abs(half.ln()) * weight)


def _decided(value: Decimal, error: Decimal) -> bool:
    """Whether every value within *error* of *value* rounds to one float32 (sums made exactly)."""
    error += abs(value) * Decimal(10) ** (1 - decimal.getcontext().prec)  # the final rounding
    span = max(value.adjusted(), error.adjusted()) - min(value.adjusted(), error.adjusted())
    with decimal.localcontext() as ctx:
        ctx.prec = span + 2 * decimal.getcontext().prec + 10
        low, high = to_float32(value - error), to_float32(value + error)
    return bool(low.view(np.uint32) == high.view(np.uint32))


_SERIES_LIMIT = 2000
"""Beyond this x the power series would need too many digits; Hankel's expansion decides."""


def _methods(
    order: int, a: Decimal
) -> list[Callable[[int, Decimal, bool], tuple[Decimal, Decimal]]]:
    """Hankel's expansion first where it converges fast (``x >= max(25, n**2 / 4)``)."""
    if a > _SERIES_LIMIT:
        return [_hankel_jy]
    if a < 25:
        return [_series_jy]
    return [_hankel_jy, _series_jy] if a >= order * order / 4 else [_series_jy, _hankel_jy]


def bessel_jy(n: Decimal, x: Decimal, second_kind: bool) -> Decimal:
    """``J_n(x)`` or ``Y_n(x)`` close enough to decide its float32 rounding.

    ``0 <= n <= 128``, finite x; ``x > 0`` for Y (``J_n(-x) = (-1)**n J_n(x)``).

    Ziv's strategy: each method returns a value and a bound on its error (rounding of the
    working precision, and the first omitted term); the precision grows until the whole
    interval rounds to one float32, and an undecided lane is an error, never a guess.
    Hankel's expansion is tried first for ``x >= max(25, n**2 / 4)``, then the power series
    (for x <= 2000), or the other way round.

    Examples
    --------
    >>> with context():
    ...     print(to_float32(bessel_jy(Decimal(0), Decimal("2.4048255"), False)))
    2.9952616e-08
    """
    order = int(n)
    sign = -1 if x < 0 and order % 2 else 1
    a = abs(x)
    for digits in _ZIV_DIGITS:
        with decimal.localcontext(decimal.Context(prec=digits, Emax=10**6, Emin=-(10**6))):
            for method in _methods(order, a):
                value, error = method(order, a, second_kind)
                if _decided(value, error):
                    return sign * value
    raise ArithmeticError(f"bessel_jy({n}, {x}): the rounding was not decided")  # pragma: no cover

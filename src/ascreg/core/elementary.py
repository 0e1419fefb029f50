"""Division, square root, exp and the logarithms on lanes: correctly rounded, optionally FTZ.

Every float result is the correctly rounded (round to nearest even) value of the exact result
of the (possibly flushed) inputs. The hardware promises 1 ulp for its intrinsics, so a chip may
differ from ascreg by one ulp there; :func:`ascreg.testing.assert_ulp_close` compares with that
tolerance. With *ftz* (the default mode of every op here), a subnormal input is read as a zero
of its sign and a subnormal result becomes a zero of its sign.

Integer division truncates toward zero. Decision ([IMPL], the pages are silent): ``x / 0`` is
all ones (``-1`` signed, the maximum unsigned) and ``MIN / -1`` wraps to ``MIN``, as the dav-3510
software division of 64-bit lanes computes (``DivS64Impl`` / ``DivU64Impl``); the 16- and
32-bit instruction is given the same results.

Examples
--------
>>> import numpy as np
>>> divide(np.array([7, -7, 5, -128], np.int8), np.array([2, 2, 0, -1], np.int8))
array([   3,   -3,   -1, -128], dtype=int8)
>>> elementary("exp", np.array([0.0, 1.0, -100.0], np.float32))
array([1.       , 2.7182817, 0.       ], dtype=float32)
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]

_FORMATS = {np.dtype(np.float16): (11, -14, 15), np.dtype(np.float32): (24, -126, 127)}
"""Precision p (bits, with the hidden one), minimum and maximum normal exponent per format."""


def flush_subnormals(values: Lanes) -> Lanes:
    """Replace every subnormal lane by the zero of its sign (zeros, normals, inf, NaN stay).

    Examples
    --------
    >>> flush_subnormals(np.array([1e-45, -1e-45, 1.0], np.float32))
    array([ 0., -0.,  1.], dtype=float32)
    """
    unsigned = np.dtype(f"u{values.dtype.itemsize}")
    p, _, emax = _FORMATS[values.dtype]
    sign = unsigned.type(1 << (8 * values.dtype.itemsize - 1))
    exponent = unsigned.type((2 * emax + 1) << (p - 1))
    bits = values.view(unsigned)
    flushed: Lanes = np.where(bits & exponent == 0, bits & sign, bits).astype(unsigned)
    return flushed.view(values.dtype)


def _integer_divide(a: Lanes, b: Lanes) -> Lanes:
    """Divide truncating toward zero; ``x / 0`` is all ones, ``MIN / -1`` is ``MIN``."""
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    ua, ub = a.view(unsigned), b.view(unsigned)
    zero = unsigned.type(0)
    if a.dtype.kind == "i":  # magnitudes as unsigned: |MIN| = 2**(bits-1) fits
        ua = np.where(a < 0, zero - ua, ua).astype(unsigned)
        ub = np.where(b < 0, zero - ub, ub).astype(unsigned)
    safe = np.where(ub == 0, unsigned.type(1), ub).astype(unsigned)
    quotient = ua // safe
    if a.dtype.kind == "i":
        quotient = np.where((a < 0) != (b < 0), zero - quotient, quotient).astype(unsigned)
    result: Lanes = np.where(ub == 0, ~zero, quotient).astype(unsigned).view(a.dtype)
    return result


def divide(a: Lanes, b: Lanes, *, ftz: bool = True) -> Lanes:
    """Return ``a / b`` per lane: integers truncate, floats are correctly rounded.

    With *ftz*, subnormal inputs and results are flushed to signed zeros.

    Float lanes are divided in float64 and rounded once more to half/float: a float64 quotient
    has 53 >= 2p + 2 bits for p = 11 and 24, so this double rounding is innocuous (Figueroa,
    "When is double rounding innocuous?", 1995) and the result is the correctly rounded one.

    Examples
    --------
    >>> divide(np.array([1.0, 1.0], np.float32), np.array([3.0, -1e-39], np.float32))
    array([0.33333334,       -inf], dtype=float32)
    >>> divide(np.array([2.0**-10], np.float32), np.array([-(2.0**-130)], np.float32), ftz=False)
    array([-1.329228e+36], dtype=float32)
    """
    if a.dtype.kind in "iu":
        return _integer_divide(a, b)
    if ftz:
        a, b = flush_subnormals(a), flush_subnormals(b)
    with np.errstate(all="ignore"):  # 0/0, x/0 and overflow are IEEE results, not warnings
        quotient: Lanes = (a.astype(np.float64) / b.astype(np.float64)).astype(a.dtype)
    return flush_subnormals(quotient) if ftz else quotient


def square_root(values: Lanes, *, ftz: bool = True) -> Lanes:
    """``sqrt(x)`` per lane, correctly rounded: negative -> NaN, ``-0`` -> ``-0``.

    Computed in float64 and rounded to the lane format: innocuous double rounding, as in
    :func:`divide` (53 >= 2p + 2). No square root of a half/float is subnormal.

    Examples
    --------
    >>> square_root(np.array([2.0, -0.0, -1.0], np.float16))
    array([ 1.414, -0.   ,    nan], dtype=float16)
    """
    if ftz:
        values = flush_subnormals(values)
    with np.errstate(invalid="ignore"):
        root: Lanes = np.sqrt(values.astype(np.float64)).astype(values.dtype)
    return root


def _exact_ln2(ctx: decimal.Context) -> decimal.Decimal:
    return ctx.ln(decimal.Decimal(2))


def _decimal_value(name: str, x: decimal.Decimal, ctx: decimal.Context) -> decimal.Decimal:
    """*name* of *x* at the context's precision, within a few units of its last digit."""
    if name == "exp":
        return ctx.exp(x)
    if name == "ln":
        return ctx.ln(x)
    if name == "log10":
        return ctx.log10(x)
    return ctx.divide(ctx.ln(x), _exact_ln2(ctx))


def _round_fraction(value: Fraction, p: int, emin: int, emax: int) -> float:
    """Round *value* to the format (p, emin, emax) to nearest even; overflow gives inf."""
    if value == 0:
        return 0.0
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1  # now 2**exponent <= |value| < 2**(exponent + 1)
    quantum = Fraction(2) ** (max(exponent, emin) - p + 1)
    rounded = round(magnitude / quantum) * quantum  # Fraction.__round__: ties to even
    result = float("inf") if rounded >= Fraction(2) ** (emax + 1) else float(rounded)
    return result if value > 0 else -result


def _correctly_rounded(name: str, x: float, dtype: np.dtype[Any]) -> float:
    """*name* of the finite, in-domain *x* rounded once to *dtype*: Ziv's strategy.

    The function is evaluated in decimal at growing precision until both ends of the error
    interval round to the same value. It terminates: exp, ln, log2 and log10 of a dyadic
    rational are either exact (``exp(0)``, ``ln(1)``, ``log2(2**k)``, ``log10(10**k)``, never a
    rounding midpoint) or transcendental, hence never a midpoint either.
    """
    p, emin, emax = _FORMATS[dtype]
    digits = 40
    while True:
        ctx = decimal.Context(prec=digits + 10)
        value = _decimal_value(name, decimal.Decimal(x), ctx)
        if value == 0:
            return 0.0
        error = Fraction(abs(value)) / 10**digits  # generous: the last 10 digits may be off
        center = Fraction(value)
        low = _round_fraction(center - error, p, emin, emax)
        if low == _round_fraction(center + error, p, emin, emax):
            return low
        digits *= 2


_FAST: dict[str, Callable[[Lanes], Lanes]] = {
    "exp": np.exp,
    "ln": np.log,
    "log2": np.log2,
    "log10": np.log10,
}
_RELATIVE_ERROR = 2.0**-45
"""A bound on the relative error of numpy's float64 exp/log/log2/log10 (about 256 float64 ulps;
the platform libraries promise a few ulps at most)."""


def _undecided(approx: Lanes, p: int, emin: int) -> Lanes:
    """Lanes whose float64 *approx* may lie on the other side of a rounding midpoint.

    With ``|approx| = t * 2**q``, ``2**q`` the lane format's ulp at that magnitude, midpoints
    are at half-integer ``t``; a lane is undecided when the error bound reaches one.
    """
    magnitude = np.abs(approx)
    finite = np.isfinite(approx) & (magnitude > 0)
    _, exponent = np.frexp(np.where(finite, magnitude, 1.0))
    quantum = np.maximum(exponent - p, emin - p + 1)
    scaled = np.ldexp(np.where(finite, magnitude, 1.0), -quantum)
    distance = np.abs(scaled - np.floor(scaled) - 0.5)
    undecided: Lanes = finite & (distance <= scaled * _RELATIVE_ERROR + 2.0**-40)
    return undecided


def elementary(name: str, values: Lanes, *, ftz: bool = True) -> Lanes:
    """``exp``, ``ln``, ``log2`` or ``log10`` per half/float lane, correctly rounded.

    IEEE 754 special values: ``exp(-inf) = +0``, ``exp(+inf) = +inf``; the logarithms give
    ``-inf`` at ``±0``, NaN below zero and ``+inf`` at ``+inf``; NaN stays NaN.

    All lanes are evaluated in float64 at once. A lane's float64 value rounds to the correctly
    rounded result unless the exact value and the float64 one straddle a rounding midpoint of
    the lane format; only lanes within the error bound of a midpoint (about one in a million
    random float lanes, none of most registers) are evaluated again exactly
    (:func:`_correctly_rounded`).

    Examples
    --------
    >>> elementary("log2", np.array([8.0, 0.0, -1.0, 1e-45], np.float32))
    array([  3., -inf,  nan, -inf], dtype=float32)
    >>> elementary("log2", np.array([1e-45], np.float32), ftz=False)
    array([-149.], dtype=float32)
    """
    p, emin, _ = _FORMATS[values.dtype]
    if ftz:
        values = flush_subnormals(values)
    with np.errstate(all="ignore"):  # signalling NaNs, log(0), log(<0), overflow: IEEE data
        wide = values.astype(np.float64)
        approx = _FAST[name](wide)
        result: Lanes = approx.astype(values.dtype)
    flat, exact = result.reshape(-1), wide.reshape(-1)  # (rows of a batched loop too)
    for lane in np.flatnonzero(_undecided(approx, p, emin)):  # rare: see the docstring
        flat[lane] = _correctly_rounded(name, float(exact[lane]), values.dtype)
    return flush_subnormals(result) if ftz else result


def _named(name: str) -> Callable[..., Lanes]:
    def run(values: Lanes, *, ftz: bool = True) -> Lanes:
        return elementary(name, values, ftz=ftz)

    run.__name__ = run.__qualname__ = name
    return run


UNARY_OPS: dict[str, Callable[..., Lanes]] = {
    "Sqrt": square_root,
    "Exp": _named("exp"),
    "Ln": _named("ln"),
    "Log": _named("ln"),
    "Log2": _named("log2"),
    "Log10": _named("log10"),
}
"""The lane function of each correctly rounded unary op: ``f(lanes, *, ftz=True)``.

Examples
--------
>>> UNARY_OPS["Log10"](np.array([1000.0, 1e-45], np.float32), ftz=False)
array([  3.     , -44.85347], dtype=float32)
"""

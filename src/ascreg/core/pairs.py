"""Lane semantics of the ``half2`` / ``bfloat16x2_t`` device functions, one component at a time.

Every function takes element arrays (``float16`` or ``bfloat16``; the front end passes the two
components of each pair along the last axis) and returns an array of the same shape: element
values, ``bool`` for the comparisons, or, for the reductions over the pair, one value per pair.

Rounding: each result component is rounded **once**, to nearest even, from the exact value:
sums and fused multiply-adds are computed as a float64 value plus its exact error (TwoSum),
made round-to-odd in float64, then rounded to the element type (round-to-odd with at least two
extra bits makes the second rounding correct); bfloat16 goes through a round-to-odd float32
step because ``ml_dtypes`` narrows float64 through float32 with two roundings. Products of two
elements are exact in float64; quotients, square roots and reciprocals of 11- or 8-bit
operands cannot fall within one float64 ulp of an element-type midpoint unless exact, so one
float64 operation then one rounding is correctly rounded. The transcendental functions
(``sin``, ``exp``, ``log`` ...) are numpy's float64 functions (error below one float64 ulp)
rounded once to the element type: correctly rounded unless the float64 result lies within one
float64 ulp of a midpoint, which the tests check for every half input of the reference grid.

Special values are IEEE 754 (the documented non-saturating mode); the saturation mode of the
global saturation register is not modelled.

Examples
--------
>>> import numpy as np
>>> add(np.array([1, 65504], np.float16), np.array([2**-11, 65504], np.float16))
array([ 1., inf], dtype=float16)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

Arr = np.ndarray[Any, Any]
BF16 = np.dtype(ml_dtypes.bfloat16)
F64 = np.dtype(np.float64)


def _quiet(function: Callable[..., Arr]) -> Callable[..., Arr]:
    """Run *function* with numpy's floating-point warnings off (NaN and inf are results here)."""

    @functools.wraps(function)
    def quiet(*args: Any, **kwargs: Any) -> Arr:
        with np.errstate(all="ignore"):
            return function(*args, **kwargs)

    return quiet


def _wide(a: Arr) -> Arr:
    return np.asarray(a).astype(F64)


def _odd64(value: Arr, error: Arr) -> Arr:
    """Round-to-odd of ``value + error`` (exact) at float64 precision."""
    even = (value.view(np.uint64) & np.uint64(1)) == 0
    nudge = (error != 0) & even & np.isfinite(value)
    toward = np.where(error > 0, np.inf, -np.inf)
    return np.where(nudge, np.nextafter(value, toward), value)


def _odd32(value: Arr) -> Arr:
    """Round-to-odd of float64 *value* to float32 (finite values; inf and NaN pass)."""
    with np.errstate(over="ignore"):
        near = value.astype(np.float32)
    back = near.astype(F64)
    inexact = np.isfinite(value) & (back != value)
    toward_zero = np.where(
        inexact & (np.abs(back) > np.abs(value)), np.nextafter(near, np.float32(0)), near
    )
    bits = toward_zero.view(np.uint32) | np.where(inexact, np.uint32(1), np.uint32(0))
    return bits.astype(np.uint32).view(np.float32)


@_quiet
def round_to(dtype: np.dtype[Any], value: Arr, error: Arr | None = None) -> Arr:
    """Round the exact value ``value + error`` (float64 arrays) once to *dtype*.

    Examples
    --------
    >>> import numpy as np
    >>> round_to(BF16, np.array([1 + 2**-8]), np.array([2**-30]))  # just above a tie: up
    array([1.00781], dtype=bfloat16)
    """
    value = np.asarray(value, dtype=F64)
    if error is not None:
        value = _odd64(value, np.asarray(error, dtype=F64))
    if np.dtype(dtype) == BF16:
        return np.asarray(_odd32(value).astype(BF16))
    with np.errstate(over="ignore"):
        return np.asarray(value.astype(dtype))


def _two_sum(a: Arr, b: Arr) -> tuple[Arr, Arr]:
    with np.errstate(invalid="ignore", over="ignore"):
        total = a + b
        b_part = total - a
        error = (a - (total - b_part)) + (b - b_part)
    return total, np.where(np.isfinite(total), error, 0.0)


@_quiet
def add(a: Arr, b: Arr) -> Arr:
    """Componentwise ``a + b``, rounded once."""
    return round_to(np.asarray(a).dtype, *_two_sum(_wide(a), _wide(b)))


@_quiet
def sub(a: Arr, b: Arr) -> Arr:
    """Componentwise ``a - b``, rounded once."""
    return round_to(np.asarray(a).dtype, *_two_sum(_wide(a), -_wide(b)))


@_quiet
def mul(a: Arr, b: Arr) -> Arr:
    """Componentwise ``a * b`` (exact in float64), rounded once."""
    with np.errstate(invalid="ignore"):
        return round_to(np.asarray(a).dtype, _wide(a) * _wide(b))


@_quiet
def div(a: Arr, b: Arr) -> Arr:
    """Componentwise ``a / b``, rounded once (IEEE: ``x/0`` is ±inf, ``0/0`` NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return round_to(np.asarray(a).dtype, _wide(a) / _wide(b))


@_quiet
def fma(a: Arr, b: Arr, c: Arr) -> Arr:
    """Componentwise ``a * b + c`` with one rounding."""
    with np.errstate(invalid="ignore"):
        product = _wide(a) * _wide(b)
    return round_to(np.asarray(a).dtype, *_two_sum(product, _wide(c)))


@_quiet
def fma_relu(a: Arr, b: Arr, c: Arr) -> Arr:
    """:func:`fma`, then results ``<= 0`` become +0 (NaN stays NaN)."""
    result = fma(a, b, c)
    with np.errstate(invalid="ignore"):
        return np.where(result <= 0, np.zeros_like(result), result)


@_quiet
def neg(a: Arr) -> Arr:
    """Componentwise ``-a`` (the sign bit flips, NaN too)."""
    return np.asarray(np.negative(np.asarray(a)))


@_quiet
def absolute(a: Arr) -> Arr:
    """Componentwise ``|a|`` (the sign bit clears, NaN too)."""
    return np.asarray(np.abs(np.asarray(a)))


@_quiet
def cmadd(x: Arr, y: Arr, z: Arr) -> Arr:
    """Complex ``x * y + z`` of pairs (component 0 real, 1 imaginary), as documented.

    Real part ``fma(-x.y, y.y, fma(x.x, y.x, z.x))``, imaginary part
    ``fma(x.y, y.x, fma(x.x, y.y, z.y))``: four fused multiply-adds, each rounded once.

    Examples
    --------
    >>> import numpy as np
    >>> h = lambda *v: np.array(v, np.float16)
    >>> cmadd(h(1, 2), h(3, 4), h(0.5, 0.25))  # (1+2i)(3+4i) + (0.5+0.25i)
    array([-4.5 , 10.25], dtype=float16)
    """
    xr, xi, yr, yi, zr, zi = x[..., 0], x[..., 1], y[..., 0], y[..., 1], z[..., 0], z[..., 1]
    real = fma(neg(xi), yi, fma(xr, yr, zr))
    imag = fma(xi, yr, fma(xr, yi, zi))
    return np.stack([real, imag], axis=-1)


@_quiet
def maximum(a: Arr, b: Arr) -> Arr:
    """Componentwise maximum; NaN if either is NaN (the documented table); max(+0, -0) = +0."""
    a, b = np.asarray(a), np.asarray(b)
    zeros = np.where(np.signbit(a), b, a)
    return np.where(a == b, zeros, np.maximum(a, b))


@_quiet
def minimum(a: Arr, b: Arr) -> Arr:
    """Componentwise minimum; NaN if either is NaN; min(+0, -0) = -0."""
    a, b = np.asarray(a), np.asarray(b)
    zeros = np.where(np.signbit(a), a, b)
    return np.where(a == b, zeros, np.minimum(a, b))


@_quiet
def isnan(a: Arr) -> Arr:
    """Componentwise NaN test (``bool``)."""
    return np.isnan(np.asarray(a).astype(np.float32))


_ORDERED: dict[str, Callable[[Arr, Arr], Arr]] = {
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
}  # fmt: skip
"""The ordered comparisons (false when either component is NaN; ``ne`` too)."""


@_quiet
def compare(op: str, a: Arr, b: Arr, *, unordered: bool = False) -> Arr:
    """Componentwise comparison *op* (``"eq"``, ``"lt"`` ...) as ``bool``.

    Ordered comparisons are false where either component is NaN (``ne`` included); the
    *unordered* forms (``__hequx2`` ...) are true there.

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([1, np.nan], np.float16), np.array([1, 1], np.float16)
    >>> compare("ne", a, b), compare("ne", a, b, unordered=True)
    (array([False, False]), array([False,  True]))
    """
    wa, wb = _wide(a), _wide(b)
    with np.errstate(invalid="ignore"):
        ordered = np.asarray(_ordered(op)(wa, wb)) & ~(np.isnan(wa) | np.isnan(wb))
    return ordered | (np.isnan(wa) | np.isnan(wb)) if unordered else ordered


def _ordered(op: str) -> Callable[[Arr, Arr], Arr]:
    return _ORDERED[op]


@_quiet
def as_numbers(flags: Arr, dtype: np.dtype[Any]) -> Arr:
    """1.0 where *flags* holds, else 0.0, as *dtype* (the ``__heqx2`` result form)."""
    return np.asarray(flags).astype(dtype)


def both(flags: Arr) -> Arr:
    """Return, per pair, whether both components hold (the ``__hbeqx2`` result form)."""
    return np.asarray(np.asarray(flags).all(axis=-1))


def as_mask(flags: Arr) -> Arr:
    """``unsigned int`` per pair: 0xFFFF in the low half for component 0, the high for 1.

    Examples
    --------
    >>> import numpy as np
    >>> hex(int(as_mask(np.array([False, True]))))
    '0xffff0000'
    """
    flags = np.asarray(flags)
    low = np.where(flags[..., 0], np.uint32(0xFFFF), np.uint32(0))
    high = np.where(flags[..., 1], np.uint32(0xFFFF0000), np.uint32(0))
    return (low | high).astype(np.uint32)


def _rsqrt(x: Arr) -> Arr:
    return 1.0 / np.sqrt(x)


def _rcp(x: Arr) -> Arr:
    return 1.0 / x


def _exp10(x: Arr) -> Arr:
    return np.power(10.0, x)


MATH: dict[str, Callable[[Arr], Arr]] = {
    "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "exp": np.exp, "exp2": np.exp2,
    "exp10": _exp10, "log": np.log, "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt,
    "rsqrt": _rsqrt, "rcp": _rcp, "floor": np.floor, "rint": np.rint, "ceil": np.ceil,
    "trunc": np.trunc,
}  # fmt: skip
"""The float64 function of each ``h2<name>`` math function."""


@_quiet
def math_function(name: str, a: Arr) -> Arr:
    """Componentwise ``h2<name>`` (:data:`MATH`), computed in float64 and rounded once.

    Examples
    --------
    >>> import numpy as np
    >>> math_function("sqrt", np.array([2, -1], np.float16))
    array([1.414,   nan], dtype=float16)
    """
    with np.errstate(all="ignore"):
        return round_to(np.asarray(a).dtype, MATH[name](_wide(a)))

"""Lane semantics of the ``half2`` / ``bfloat16x2_t`` device functions, one component at a time.

Every function takes element arrays (``float16`` or ``bfloat16``; the front end passes the two
components of each pair along the last axis) and returns an array of the same shape: element
values, ``bool`` for the comparisons, or, for the reductions over the pair, one value per pair.

Rounding: each result component is rounded **once**, to nearest even, from the exact value,
by the scalar functions of :mod:`ascreg.core.halfmath` (``__hadd`` ... ``hsin``), which this
module applies componentwise. Only ``div`` and ``math_function`` differ from their scalar twins:
they never flush bfloat16 subnormals (the scalar ``__hdiv``, ``hexp`` ... do, per their pages).

Special values are IEEE 754 (the documented non-saturating mode); the saturation mode of the
global saturation register is not modelled.

Examples
--------
>>> import numpy as np
>>> add(np.array([1, 65504], np.float16), np.array([2**-11, 65504], np.float16))
array([ 1., inf], dtype=float16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.core import halfmath as scalar
from ascreg.core.fpenv import quietly

Arr = np.ndarray[Any, Any]
BF16 = scalar.BF16.dtype
MATH = scalar.MATH
"""The float64 function of each ``h2<name>`` math function (the scalar ``h<name>`` table)."""

# The componentwise arithmetic is the scalar ``half`` / ``bfloat16_t`` functions' own.
add, sub, mul, fma = scalar.add, scalar.sub, scalar.mul, scalar.fma
neg, absolute, isnan = scalar.neg, scalar.absolute, scalar.isnan


def round_to(dtype: np.dtype[Any], value: Arr, error: Arr | None = None) -> Arr:
    """Round the exact value ``value + error`` (float64 arrays) once to *dtype*, nearest even.

    Examples
    --------
    >>> import numpy as np
    >>> round_to(BF16, np.array([1 + 2**-8]), np.array([2**-30]))  # just above a tie: up
    array([1.00781], dtype=bfloat16)
    """
    fmt = scalar.FORMATS[np.dtype(dtype)]
    if error is None:
        return scalar.round_to(value, fmt)
    return scalar.round_exact(value, error, fmt)


@quietly  # NaN and inf are results here, not warnings
def div(a: Arr, b: Arr) -> Arr:
    """Componentwise ``a / b``, rounded once (IEEE: ``x/0`` is ±inf, ``0/0`` NaN).

    Unlike the scalar bfloat16 ``__hdiv``, subnormals are not flushed (the pair pages say
    nothing of it).
    """
    a = np.asarray(a)
    return round_to(a.dtype, a.astype(np.float64) / np.asarray(b).astype(np.float64))


@quietly  # NaN and inf are results here, not warnings
def fma_relu(a: Arr, b: Arr, c: Arr) -> Arr:
    """:func:`fma`, then results ``<= 0`` become +0 (NaN stays NaN)."""
    result = fma(a, b, c)
    return np.where(result <= 0, np.zeros_like(result), result)


@quietly  # NaN and inf are results here, not warnings
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


@quietly  # NaN and inf are results here, not warnings
def maximum(a: Arr, b: Arr) -> Arr:
    """Componentwise maximum; NaN if either is NaN (the documented table); max(+0, -0) = +0."""
    a, b = np.asarray(a), np.asarray(b)
    zeros = np.where(np.signbit(a), b, a)
    return np.where(a == b, zeros, np.maximum(a, b))


@quietly  # NaN and inf are results here, not warnings
def minimum(a: Arr, b: Arr) -> Arr:
    """Componentwise minimum; NaN if either is NaN; min(+0, -0) = -0."""
    a, b = np.asarray(a), np.asarray(b)
    zeros = np.where(np.signbit(a), a, b)
    return np.where(a == b, zeros, np.minimum(a, b))


@quietly  # NaN and inf are results here, not warnings
def compare(op: str, a: Arr, b: Arr, *, unordered: bool = False) -> Arr:
    """Componentwise comparison *op* (``"eq"``, ``"lt"`` ...) as ``bool``.

    Ordered comparisons are false where either component is NaN (``ne`` included); the
    *unordered* forms (``__hequx2`` ...) are true there: the scalar ``__heq`` ... tables.

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([1, np.nan], np.float16), np.array([1, 1], np.float16)
    >>> compare("ne", a, b), compare("ne", a, b, unordered=True)
    (array([False, False]), array([False,  True]))
    """
    return scalar.COMPARES[op + ("u" if unordered else "")](a, b)


@quietly  # NaN and inf are results here, not warnings
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


@quietly  # NaN and inf are results here, not warnings
def math_function(name: str, a: Arr) -> Arr:
    """Componentwise ``h2<name>`` (:data:`MATH`), computed in float64 and rounded once.

    Unlike some scalar bfloat16 functions, subnormals are not flushed.

    Examples
    --------
    >>> import numpy as np
    >>> math_function("sqrt", np.array([2, -1], np.float16))
    array([1.414,   nan], dtype=float16)
    """
    return scalar.math_lanes(name, a)

"""Lane semantics of the SIMT ``half`` and ``bfloat16_t`` scalar functions (``asc_fp16.h``, ``asc_bf16.h``).

Every function takes numpy arrays already of the C parameter types (``float16`` for ``half``,
``ml_dtypes.bfloat16`` for ``bfloat16_t``, ``float32``, or the integer types) and returns arrays
of the C return type. Nothing here parses arguments; :mod:`ascreg.simt.halfmath` does.

How results are rounded (and why it is exact)
---------------------------------------------
One routine, :func:`round_to`, rounds a float64 value to a target format (half: 11-bit
significand, exponents -14..15; bfloat16: 8-bit significand, -126..127) under any of the
documented rounding modes (``rn`` nearest-even, ``rz`` toward zero, ``rd`` down, ``ru`` up,
``rna`` nearest with ties away, ``ro`` to odd), with subnormals and overflow. Every result is
*one* rounding of the exact value:

* Conversions from float, half, bfloat16 and 32-bit integers: the input is exact in float64.
* 64-bit integers and sums (``__hadd``, ``__hsub``, ``__hfma``): the exact value is a float64
  sum ``s`` plus its exact error ``e`` (TwoSum); :func:`round_exact` first rounds ``s + e`` to
  odd in float64 (53 bits, so at least ``p + 2`` for both formats), which makes the final
  rounding correct in every mode.
* Products of two halves (22 bits) or bfloat16s (16 bits) are exact in float64.
* Quotients and square roots: the float64 result is correctly rounded, and rounding it again
  to ``p`` bits with ``53 >= 2p + 2`` gives the correctly rounded result (double rounding is
  innocuous for ``+ - * / sqrt`` at these precisions).
* The math library (``hsin``, ``hexp`` ...): float64 libm values, then one rounding. For both
  formats every one of the 65536 inputs was checked (``tests/simt/test_halfmath.py``): the
  float64 value is never within 2**-40 (relative) of a rounding boundary, so libm's error
  (a few float64 ulps) cannot change the result; these functions are correctly rounded.
  Each is computed once for all 65536 inputs of its format (:func:`math_lanes`): a call is one
  table lookup.

NaN results are the default quiet NaN of the format; payloads are not modelled.

Examples
--------
>>> import numpy as np
>>> round_to(np.array([1 + 2**-11, 65520.0, 1e-8]), HALF, "rn").tolist()
[1.0, inf, 0.0]
>>> round_to(np.array([1 + 2**-11, 65520.0]), HALF, "ru").tolist()
[1.0009765625, inf]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import ml_dtypes
import numpy as np

from ascreg.core import rounding
from ascreg.core.fpenv import quiet

Arr = np.ndarray[Any, Any]
_F64 = np.dtype(np.float64)


@attrs.frozen
class Format:
    """A binary floating-point target format.

    Examples
    --------
    >>> HALF.max, BF16.digits
    (65504.0, 8)
    """

    dtype: np.dtype[Any]
    digits: int  # significand bits, the hidden bit included
    emin: int  # exponent of the smallest normal
    emax: int  # exponent of the largest finite

    @property
    def max(self) -> float:
        """The largest finite value."""
        return float((2 - 2.0 ** (1 - self.digits)) * 2.0**self.emax)

    @property
    def smallest_normal(self) -> float:
        """The smallest positive normal value."""
        return float(2.0**self.emin)


HALF = Format(np.dtype(np.float16), 11, -14, 15)
"""IEEE binary16 (``half``)."""
BF16 = Format(np.dtype(ml_dtypes.bfloat16), 8, -126, 127)
"""``bfloat16_t``."""
FORMATS = {HALF.dtype: HALF, BF16.dtype: BF16}
"""The format of each dtype."""


def _rna(m: Arr) -> Arr:
    return np.copysign(np.floor(np.abs(m) + 0.5), m)


def _ro(m: Arr) -> Arr:
    t = np.trunc(m)
    odd_up = (t != m) & (np.fmod(t, 2) == 0)
    return np.where(odd_up, t + np.copysign(1.0, m), t)


ROUNDINGS: dict[str, Callable[[Arr], Arr]] = {
    "rn": np.rint,
    "rz": np.trunc,
    "rd": np.floor,
    "ru": np.ceil,
    "rna": _rna,
    "ro": _ro,
}
"""Round a float64 array to integers, per rounding mode (the suffix of the C names)."""


def _overflow(v: Arr, fmt: Format, mode: str) -> Arr:
    """Return the result of a finite value beyond the format's range, per mode (IEEE 754)."""
    big, inf = fmt.max, np.inf
    to_max = {"rz": (big, big), "rd": (big, inf), "ru": (inf, big)}.get(mode, (inf, inf))
    return np.where(v > 0, to_max[0], -to_max[1])


def round_to(v: Arr, fmt: Format, mode: str = "rn", *, saturate: bool = False) -> Arr:
    """Round float64 values *v* once to *fmt* with rounding *mode*.

    ``saturate`` gives the documented saturation mode (±inf and out-of-range values become
    ±max, NaN becomes +0); otherwise they are ±inf (or ±max where the rounding direction says
    so: ``rz``, and ``rd``/``ru`` on the side they round toward zero) and NaN stays NaN.

    Examples
    --------
    >>> import numpy as np
    >>> round_to(np.array([2.5, -2.5, 3.5]) * 2.0**-24, HALF, "rna").tolist()
    [1.7881393432617188e-07, -1.7881393432617188e-07, 2.384185791015625e-07]
    >>> round_to(np.array([np.inf, np.nan, 1e6]), HALF, saturate=True).tolist()
    [65504.0, 0.0, 65504.0]
    """
    v = np.asarray(v, dtype=_F64)
    with quiet():
        _, exponent = np.frexp(v)
        ulp = np.ldexp(1.0, np.maximum(exponent - 1, fmt.emin) - (fmt.digits - 1))
        rounded = ROUNDINGS[mode](v / ulp) * ulp
        finite = np.isfinite(v)
        over = finite & (np.abs(rounded) > fmt.max)
        result = np.where(over, _overflow(v, fmt, mode), rounded)
        if saturate:
            result = np.clip(np.where(np.isnan(result), 0.0, result), -fmt.max, fmt.max)
        result = np.where(finite, result, v if not saturate else result)
    return _narrow(result, fmt.dtype)


def _two_sum(a: Arr, b: Arr) -> tuple[Arr, Arr]:
    """``s = fl(a + b)`` and the exact error ``e`` (``a + b = s + e``), Knuth's TwoSum."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _to_odd(s: Arr, e: Arr) -> Arr:
    """Round the exact ``s + e`` (``s`` its nearest float64) to odd in float64."""
    even = (s.view(np.uint64) & np.uint64(1)) == 0
    nudge = (e != 0) & even & np.isfinite(s)
    return np.where(nudge, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def round_exact(s: Arr, e: Arr, fmt: Format, mode: str = "rn", *, saturate: bool = False) -> Arr:
    """Round the exact value ``s + e`` (``s = fl64(s + e)``) once to *fmt*.

    Examples
    --------
    >>> import numpy as np
    >>> s, e = np.array([2049.0]), np.array([2.0**-40])  # just above a half midpoint
    >>> round_exact(s, e, HALF).tolist(), round_to(s, HALF).tolist()
    ([2050.0], [2048.0])
    """
    with quiet():
        return round_to(
            _to_odd(np.asarray(s, _F64), np.asarray(e, _F64)), fmt, mode, saturate=saturate
        )


def _wide(x: Arr) -> Arr:
    """Widen exactly to float64 (ml_dtypes warns when it widens a signalling NaN: harmless)."""
    with quiet():
        return np.asarray(x).astype(_F64)


def _narrow(r: Arr, dtype: np.dtype[Any]) -> Arr:
    """Cast values already representable in *dtype* (NaN included) without warnings."""
    with quiet():
        return np.asarray(r).astype(dtype)


def flush(x: Arr, fmt: Format) -> Arr:
    """Subnormal values of *fmt* become a zero of their sign (float64 in, float64 out).

    Examples
    --------
    >>> import numpy as np
    >>> flush(np.array([1e-39, -1e-39, 1.0]), BF16).tolist()
    [0.0, -0.0, 1.0]
    """
    x = np.asarray(x, _F64)
    return np.where(np.abs(x) < fmt.smallest_normal, np.copysign(0.0, x), x)


# --- arithmetic (round to nearest even) ------------------------------------------------------


def _format_of(x: Arr) -> Format:
    return FORMATS[np.asarray(x).dtype]


def add(x: Arr, y: Arr) -> Arr:
    """``__hadd``: ``x + y`` rounded once (nearest even).

    Examples
    --------
    >>> import numpy as np
    >>> add(np.float16([1, 2048]), np.float16([2**-11, 1])).tolist()
    [1.0, 2048.0]
    """
    fmt = _format_of(x)
    with quiet():
        s, e = _two_sum(_wide(x), _wide(y))
    return round_exact(s, np.where(np.isfinite(s), e, 0.0), fmt)


def sub(x: Arr, y: Arr) -> Arr:
    """``__hsub``: ``x - y`` rounded once.

    Examples
    --------
    >>> import numpy as np
    >>> sub(np.float16([1.0]), np.float16([1.0])).tolist()
    [0.0]
    """
    return add(x, neg(y))


def mul(x: Arr, y: Arr) -> Arr:
    """``__hmul``: ``x * y`` (exact in float64) rounded once.

    Examples
    --------
    >>> import numpy as np
    >>> mul(np.float16([300.0]), np.float16([300.0])).tolist()
    [inf]
    """
    with quiet():
        return round_to(_wide(x) * _wide(y), _format_of(x))


def div(x: Arr, y: Arr) -> Arr:
    """``__hdiv``: ``x / y`` rounded once; bfloat16 flushes subnormal inputs and results (950).

    Examples
    --------
    >>> import numpy as np
    >>> div(np.float16([1, 1, 0]), np.float16([3, 0, 0])).tolist()
    [0.333251953125, inf, nan]
    """
    fmt = _format_of(x)
    a, b = _wide(x), _wide(y)
    flush_subnormals = fmt is BF16
    if flush_subnormals:
        a, b = flush(a, fmt), flush(b, fmt)
    with quiet():
        q = a / b
    result = round_to(q, fmt)
    return _flush_result(result, fmt) if flush_subnormals else result


def _flush_result(r: Arr, fmt: Format) -> Arr:
    return _narrow(flush(_wide(r), fmt), fmt.dtype)


def fma(x: Arr, y: Arr, z: Arr) -> Arr:
    """``__hfma``: ``x * y + z`` with one rounding (the product is exact, the sum by TwoSum).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.float16([1 + 2**-10])
    >>> fma(x, x, np.float16([-1])).tolist()  # 2**-9 + 2**-20: no intermediate rounding
    [0.001953125]
    """
    fmt = _format_of(x)
    with quiet():
        s, e = _two_sum(_wide(x) * _wide(y), _wide(z))
    return round_exact(s, np.where(np.isfinite(s), e, 0.0), fmt)


def fma_relu(x: Arr, y: Arr, z: Arr) -> Arr:
    """``__hfma_relu``: :func:`fma`, then a negative result becomes +0 (NaN stays NaN).

    Examples
    --------
    >>> import numpy as np
    >>> fma_relu(np.float16([2, 2]), np.float16([3, -3]), np.float16([1, 1])).tolist()
    [7.0, 0.0]
    """
    r = fma(x, y, z)
    return np.where(_wide(r) < 0, np.zeros_like(r), r)


def neg(x: Arr) -> Arr:
    """``__hneg``: flip the sign bit (NaN stays NaN).

    Examples
    --------
    >>> import numpy as np
    >>> neg(np.float16([0.0, -2.0])).tolist()
    [-0.0, 2.0]
    """
    x = np.asarray(x)
    return (x.view(np.uint16) ^ np.uint16(0x8000)).view(x.dtype)


def absolute(x: Arr) -> Arr:
    """``__habs``: clear the sign bit (``-0`` gives ``+0``, NaN stays NaN).

    Examples
    --------
    >>> import numpy as np
    >>> absolute(np.float16([-0.0, -3.0])).tolist()
    [0.0, 3.0]
    """
    x = np.asarray(x)
    return (x.view(np.uint16) & np.uint16(0x7FFF)).view(x.dtype)


# --- comparisons, max/min, classification ----------------------------------------------------


def _either_nan(x: Arr, y: Arr) -> Arr:
    return np.isnan(_wide(x)) | np.isnan(_wide(y))


def _compare(op: Callable[[Arr, Arr], Arr], unordered: bool) -> Callable[[Arr, Arr], Arr]:
    def compare(x: Arr, y: Arr) -> Arr:
        nan = _either_nan(x, y)
        result = op(_wide(x), _wide(y)) & ~nan
        return result | nan if unordered else result

    return compare


_ORDERED = {"eq": np.equal, "ne": np.not_equal, "le": np.less_equal, "ge": np.greater_equal,
            "lt": np.less, "gt": np.greater}  # fmt: skip

COMPARES: dict[str, Callable[[Arr, Arr], Arr]] = {
    **{name: _compare(op, unordered=False) for name, op in _ORDERED.items()},
    **{name + "u": _compare(op, unordered=True) for name, op in _ORDERED.items()},
}
"""``__heq`` ... ``__hgt`` (false when either is NaN) and ``__hequ`` ... ``__hgtu`` (true then).

Examples
--------
>>> import numpy as np
>>> x, y = np.float16([1, np.nan]), np.float16([1, 1])
>>> COMPARES["ne"](x, y).tolist(), COMPARES["neu"](x, y).tolist()
([False, False], [False, True])
"""


def _extreme(x: Arr, y: Arr, bigger: bool, nan_wins: bool) -> Arr:
    a, b = _wide(x), _wide(y)
    # equal values (±0): max takes +0 unless both are -0, min takes -0 unless both are +0
    pick_a = (a > b) if bigger else (a < b)
    both_zero = (a == 0) & (b == 0)
    zero = np.where(
        np.signbit(a) & np.signbit(b) if bigger else np.signbit(a) | np.signbit(b), -0.0, 0.0
    )
    r = np.where(both_zero, zero, np.where(pick_a | np.isnan(b), a, b))
    r = np.where(np.isnan(a) & ~np.isnan(b), b, r)
    if nan_wins:
        r = np.where(np.isnan(a) | np.isnan(b), np.nan, r)
    return _narrow(r, np.asarray(x).dtype)


def maximum(x: Arr, y: Arr) -> Arr:
    """``__hmax``: the larger value; a NaN operand is ignored (NaN only if both are NaN).

    Examples
    --------
    >>> import numpy as np
    >>> maximum(np.float16([np.nan, 0.0, -0.0]), np.float16([1, -0.0, -0.0])).tolist()
    [1.0, 0.0, -0.0]
    """
    return _extreme(x, y, bigger=True, nan_wins=False)


def minimum(x: Arr, y: Arr) -> Arr:
    """``__hmin``: the smaller value; a NaN operand is ignored; ``min(+0, -0)`` is -0.

    Examples
    --------
    >>> import numpy as np
    >>> minimum(np.float16([np.nan, 0.0]), np.float16([1, -0.0])).tolist()
    [1.0, -0.0]
    """
    return _extreme(x, y, bigger=False, nan_wins=False)


def maximum_nan(x: Arr, y: Arr) -> Arr:
    """``__hmax_nan``: :func:`maximum`, but NaN when either operand is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> maximum_nan(np.float16([np.nan, 2]), np.float16([1, 1])).tolist()
    [nan, 2.0]
    """
    return _extreme(x, y, bigger=True, nan_wins=True)


def minimum_nan(x: Arr, y: Arr) -> Arr:
    """``__hmin_nan``: :func:`minimum`, but NaN when either operand is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> minimum_nan(np.float16([np.nan, 2]), np.float16([1, 1])).tolist()
    [nan, 1.0]
    """
    return _extreme(x, y, bigger=False, nan_wins=True)


def isnan(x: Arr) -> Arr:
    """``__hisnan``.

    Examples
    --------
    >>> import numpy as np
    >>> isnan(np.float16([np.nan, np.inf])).tolist()
    [True, False]
    """
    return np.isnan(_wide(x))


def isinf(x: Arr) -> Arr:
    """``__hisinf``: true for ±inf.

    Examples
    --------
    >>> import numpy as np
    >>> isinf(np.float16([np.nan, -np.inf])).tolist()
    [False, True]
    """
    return np.isinf(_wide(x))


# --- the math library ------------------------------------------------------------------------


def _rsqrt(v: Arr) -> Arr:
    return 1.0 / np.sqrt(v)


def _exp10(v: Arr) -> Arr:
    return np.power(10.0, v)


MATH: dict[str, Callable[[Arr], Arr]] = {
    "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "exp": np.exp, "exp2": np.exp2,
    "exp10": _exp10, "log": np.log, "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt,
    "rsqrt": _rsqrt, "rcp": np.reciprocal, "floor": np.floor, "rint": np.rint,
    "ceil": np.ceil, "trunc": np.trunc,
}  # fmt: skip
"""The float64 function of each ``h<name>`` math function (``hsin`` -> ``"sin"``)."""

FLUSHED_BF16 = frozenset({"exp", "exp2", "exp10", "sqrt", "rsqrt", "rcp"})
"""The bfloat16 math functions that flush subnormal inputs and results to ±0 (the 950 pages)."""


def math(name: str, x: Arr) -> Arr:
    """``h<name>(x)``: the float64 function of :data:`MATH`, rounded once (nearest even).

    For bfloat16, the functions of :data:`FLUSHED_BF16` flush subnormal inputs and results to a
    zero of their sign first (documented for the Ascend 950).

    Examples
    --------
    >>> import numpy as np
    >>> math("sqrt", np.float16([2, -1, -0.0])).tolist()
    [1.4140625, nan, -0.0]
    >>> math("rsqrt", np.array([1e-39], dtype=BF16.dtype)).tolist()  # flushed to +0
    [inf]
    """
    fmt = _format_of(x)
    return math_lanes(name, x, flushing=fmt is BF16 and name in FLUSHED_BF16)


def math_lanes(name: str, x: Arr, *, flushing: bool = False) -> Arr:
    """Return the :data:`MATH` function *name* of half or bfloat16 lanes, optionally with FTZ.

    One lookup in a table of the function's results for all 65536 inputs, built once with
    :func:`round_to` (:func:`ascreg.core.rounding.table`): the same results as computing them.

    Examples
    --------
    >>> import numpy as np
    >>> math_lanes("exp", np.float16([0.0, 1.0])).tolist()
    [1.0, 2.71875]
    """
    x = np.asarray(x)
    fmt = FORMATS[x.dtype]
    results = rounding.table(("halfmath", name, fmt, flushing), fmt.dtype, lambda every: _evaluate(name, every, fmt, flushing))  # fmt: skip
    return np.asarray(rounding.lookup(results, x))


def _evaluate(name: str, x: Arr, fmt: Format, flushing: bool) -> Arr:
    v = flush(_wide(x), fmt) if flushing else _wide(x)
    with quiet():
        result = round_to(MATH[name](v), fmt)
    return _flush_result(result, fmt) if flushing else result


# --- conversions ------------------------------------------------------------------------------


def to_float(x: Arr, dst: np.dtype[Any], mode: str = "rn", *, saturate: bool = False) -> Arr:
    """Convert float, half or bfloat16 lanes to half, bfloat16 or float (one rounding).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.float32([1 + 2**-11 + 2**-13])
    >>> [to_float(x, HALF.dtype, m).tolist() for m in ("rn", "rz", "ro")]
    [[1.0009765625], [1.0], [1.0009765625]]
    """
    if dst == np.dtype(np.float32):
        return _narrow(x, np.dtype(np.float32))  # half / bfloat16 widen exactly
    return round_to(_wide(x), FORMATS[np.dtype(dst)], mode, saturate=saturate)


def round_integral(x: Arr, mode: str) -> Arr:
    """``__half2half_<mode>`` / ``__bfloat162bfloat16_<mode>``: round to an integral value.

    Examples
    --------
    >>> import numpy as np
    >>> round_integral(np.float16([2.5, -2.5]), "rna").tolist()
    [3.0, -3.0]
    """
    x = np.asarray(x)
    with quiet():
        return _narrow(ROUNDINGS[mode](_wide(x)), x.dtype)


def _split_int(x: Arr) -> tuple[Arr, Arr]:
    """Split integers into the exact float64 pair ``(s, e)``: ``x = s + e``, ``s = fl64(x)``."""
    x = np.asarray(x)
    if x.dtype.itemsize < 8:
        return x.astype(_F64), np.zeros(x.shape)
    low = x & x.dtype.type(0xFFFFFFFF)
    high = (x - low).astype(_F64)  # at most 32 significant bits: exact
    return _two_sum(high, low.astype(_F64))


def from_int(x: Arr, dst: np.dtype[Any], mode: str, *, saturate: bool = False) -> Arr:
    """Convert integer lanes (32- or 64-bit, signed or unsigned) to half or bfloat16.

    Examples
    --------
    >>> import numpy as np
    >>> from_int(np.int64([2049, -2049, 2**62 + 1]), HALF.dtype, "ru").tolist()
    [2050.0, -2048.0, inf]
    >>> from_int(np.uint64([2**64 - 1]), BF16.dtype, "rd").tolist()
    [1.8374686479671624e+19]
    """
    s, e = _split_int(x)
    return round_exact(s, e, FORMATS[np.dtype(dst)], mode, saturate=saturate)


def to_int(x: Arr, dst: np.dtype[Any], mode: str) -> Arr:
    """Convert half or bfloat16 lanes to an integer type: round by *mode*, then saturate.

    NaN gives 0, +inf and values above the range give the maximum, -inf and values below it
    the minimum (the documented float-to-integer rule: always saturating).

    Examples
    --------
    >>> import numpy as np
    >>> to_int(np.float16([2.5, -2.5, np.nan, -np.inf]), np.dtype(np.int32), "rd").tolist()
    [2, -3, 0, -2147483648]
    >>> to_int(np.float16([-1, np.inf]), np.dtype(np.uint32), "rn").tolist()
    [0, 4294967295]
    """
    dst = np.dtype(dst)
    info = np.iinfo(dst)
    with quiet():
        r = ROUNDINGS[mode](_wide(x))
        high = r >= float(info.max) + 1  # 2**31, 2**32, 2**63, 2**64: exact
        low = r < float(info.min)
        nan = np.isnan(r)
        safe = np.where(high | low | nan, 0.0, r)
    out = safe.astype(dst)
    out = np.where(high, dst.type(info.max), out)
    return np.where(low, dst.type(info.min), out).astype(dst)


def bits_as(x: Arr, dst: np.dtype[Any]) -> Arr:
    """``__ushort_as_half`` / ``__ushort_as_bfloat16``: reinterpret 16 bits.

    Examples
    --------
    >>> import numpy as np
    >>> bits_as(np.uint16([0x3C00, 0x7C00]), HALF.dtype).tolist()
    [1.0, inf]
    """
    return np.asarray(x, dtype=np.uint16).view(dst)

"""Lane semantics of the advanced API's math (数学计算) and activation functions.

Each function re-expresses the dav-3510 implementation of the API (``impl/adv_api/detail/
math/*/*_3510_impl.h`` of asc-devkit) with the core functions of the register ops it is built
from, in the same order, so the result is the chip's wherever those ops are: ``Mul``, ``Add``,
``Muls``, ``Adds`` (IEEE float32), ``Truncate`` (:func:`ascreg.core.convert.round_integral`),
``FusedMulDstAdd`` / ``Mula`` (one rounding), ``Max`` / ``Min`` (their NaN rules), ``Div``,
``Exp``, ``Ln``, ``Sqrt`` (correctly rounded here; the chip promises 1 ulp, see
:mod:`ascreg.core.elementary`), the half <-> float ``Cast`` (``CAST_RINT``).

A ``half`` input is computed in float32 when the implementation casts it up (most of the
transcendental functions) and in half where the implementation computes on half registers.

Examples
--------
>>> import numpy as np
>>> ceil(np.float16([1.5, -1.5, -0.25])).tolist(), sign(np.float32([-3.0, -0.0, np.nan])).tolist()
([2.0, -1.0, -0.0], [-1.0, 0.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import bfloat16_t, float32_t, half, int8_t, int32_t
from ascreg.core import arith, compound, convert, elementary
from ascreg.core.bitwise import bitwise
from ascreg.core.compare import compare
from ascreg.enums import RoundMode

Lanes = np.ndarray[Any, Any]

F32 = np.dtype(np.float32)
F16 = np.dtype(np.float16)


# -- the register ops, as the implementations use them ---------------------------------------


def mul(a: Lanes, b: Lanes) -> Lanes:
    """``Reg::Mul``: IEEE products of the lanes."""
    return arith.BINARY_OPS["Mul"](a, b)


def add(a: Lanes, b: Lanes) -> Lanes:
    """``Reg::Add``."""
    return arith.BINARY_OPS["Add"](a, b)


def sub(a: Lanes, b: Lanes) -> Lanes:
    """``Reg::Sub``."""
    return arith.BINARY_OPS["Sub"](a, b)


def _scalar(a: Lanes, s: float) -> Lanes:
    return np.full(a.shape, s, dtype=a.dtype)


def muls(a: Lanes, s: float) -> Lanes:
    """``Reg::Muls`` by the scalar *s* (of the lane type: a C++ ``constexpr float``)."""
    return mul(a, _scalar(a, s))


def adds(a: Lanes, s: float) -> Lanes:
    """``Reg::Adds``."""
    return add(a, _scalar(a, s))


def maxs(a: Lanes, s: float) -> Lanes:
    """``Reg::Maxs``."""
    return arith.BINARY_OPS["Max"](a, _scalar(a, s))


def mins(a: Lanes, s: float) -> Lanes:
    """``Reg::Mins``."""
    return arith.BINARY_OPS["Min"](a, _scalar(a, s))


def fma(a: Lanes, b: Lanes, c: Lanes) -> Lanes:
    """Return ``a * b + c`` rounded once (``FusedMulDstAdd``, ``Mula``, ``MulAddDst``)."""
    return compound.fused_multiply_add(a, b, c)


def div(a: Lanes, b: Lanes) -> Lanes:
    """``Reg::Div`` (the default, flushing mode)."""
    return elementary.divide(a, b)


def exp(a: Lanes) -> Lanes:
    """``Reg::Exp`` (the default mode)."""
    return elementary.UNARY_OPS["Exp"](a)


def ln(a: Lanes) -> Lanes:
    """``Reg::Log`` / ``Ln`` (the default mode)."""
    return elementary.UNARY_OPS["Ln"](a)


def sqrt(a: Lanes) -> Lanes:
    """``Reg::Sqrt`` (the default mode)."""
    return elementary.UNARY_OPS["Sqrt"](a)


def truncate(a: Lanes, mode: RoundMode) -> Lanes:
    """``Reg::Truncate<T, mode>``: round to an integral value of the same type."""
    return convert.round_integral(a, mode)


def to_float(a: Lanes) -> Lanes:
    """``Cast<float, half>`` (exact)."""
    return a.astype(np.float32)


def to_half(a: Lanes, *, saturate: bool = False) -> Lanes:
    """``Cast<half, float>`` with ``CAST_RINT`` (``SatMode::SAT`` clamps to +-65504)."""
    return convert.convert(a, float32_t, half, RoundMode.CAST_RINT, saturate)


def in_float(
    function: Callable[[Lanes], Lanes], *, saturate: bool = False
) -> Callable[[Lanes], Lanes]:
    """Return *function* (float32 lanes) applied to half lanes as the implementations do.

    A half input is cast up (exact), computed in float32 and cast back (``CAST_RINT``).
    """

    def run(values: Lanes) -> Lanes:
        if values.dtype == F16:
            return to_half(function(to_float(values)), saturate=saturate)
        return function(values)

    run.__name__ = getattr(function, "__name__", "run")
    run.__doc__ = function.__doc__
    return run


# -- rounding and predicates -----------------------------------------------------------------


def ceil(values: Lanes) -> Lanes:
    """``Ceil``: ``Truncate<T, CAST_CEIL>`` (half on half lanes; ``ceil(-0.25) = -0.0``).

    Examples
    --------
    >>> ceil(np.float32([0.5, -0.5])).tolist()
    [1.0, -0.0]
    """
    return truncate(values, RoundMode.CAST_CEIL)


def floor(values: Lanes) -> Lanes:
    """``Floor``: ``Truncate<T, CAST_FLOOR>``.

    Examples
    --------
    >>> floor(np.float16([0.5, -0.5])).tolist()
    [0.0, -1.0]
    """
    return truncate(values, RoundMode.CAST_FLOOR)


def trunc(values: Lanes) -> Lanes:
    """``Trunc``: ``Truncate<T, CAST_TRUNC>``.

    Examples
    --------
    >>> trunc(np.float32([1.9, -1.9])).tolist()
    [1.0, -1.0]
    """
    return truncate(values, RoundMode.CAST_TRUNC)


def rint(values: Lanes) -> Lanes:
    """``Rint`` and ``Round``: ``Truncate<T, CAST_RINT>`` (ties to even, on the 950 both).

    Examples
    --------
    >>> rint(np.float32([0.5, 1.5, 2.5, -0.5])).tolist()
    [0.0, 2.0, 2.0, -0.0]
    """
    return truncate(values, RoundMode.CAST_RINT)


def sign(values: Lanes) -> Lanes:
    """``Sign``: -1 where ``x < 0``, 1 where ``x > 0``, else 0 (NaN and -0.0 give +0).

    Examples
    --------
    >>> sign(np.int64([-5, 0, 7])).tolist()
    [-1, 0, 1]
    """
    negative = compare("LT", values, 0)
    positive = compare("GT", values, 0)
    out = np.where(negative, values.dtype.type(-1), values.dtype.type(0)).astype(values.dtype)
    result: Lanes = np.where(positive, values.dtype.type(1), out).astype(values.dtype)
    return result


def _special(values: Lanes) -> tuple[Lanes, Lanes]:
    """Return (NaN, +-inf) lane predicates by the implementations' compares (``x != x``, bits)."""
    unsigned = values.view(f"u{values.dtype.itemsize}")
    width = 8 * values.dtype.itemsize
    mantissa = {16: 10 if values.dtype == F16 else 7, 32: 23}[width]
    inf = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    infinite = (unsigned == inf) | (unsigned == (inf | (1 << (width - 1))))
    nan = (unsigned & np.array((1 << (width - 1)) - 1, unsigned.dtype)) > inf
    return nan, infinite


def is_finite(values: Lanes) -> Lanes:
    """``IsFinite``: whether each lane is neither NaN nor +-inf (bool lanes).

    Examples
    --------
    >>> is_finite(np.float16([1.0, np.inf, np.nan, -0.0])).tolist()
    [True, False, False, True]
    """
    nan, infinite = _special(values)
    return ~(nan | infinite)


def is_inf(values: Lanes) -> Lanes:
    """``IsInf``: whether each lane is +-inf.

    Examples
    --------
    >>> is_inf(np.float32([np.inf, -np.inf, np.nan, 1e38])).tolist()
    [True, True, False, False]
    """
    return _special(values)[1]


def is_nan(values: Lanes) -> Lanes:
    """``IsNan``: whether each lane is a NaN.

    Examples
    --------
    >>> is_nan(np.float32([np.nan, np.inf, 0.0])).tolist()
    [True, False, False]
    """
    return _special(values)[0]


def truth(values: Lanes) -> Lanes:
    """Whether each lane is nonzero (the logical ops' ``CompareScalar<NE>`` with 0).

    -0.0 is zero; NaN is not.

    Examples
    --------
    >>> truth(np.float32([0.0, -0.0, np.nan, 2.0])).tolist()
    [False, False, True, True]
    """
    if values.dtype == np.bool_:
        flags: Lanes = values.view(np.uint8) != 0
        return flags
    nonzero: Lanes = compare("NE", values, 0)
    return nonzero


LOGICAL: dict[str, Callable[[Lanes, Lanes], Lanes]] = {
    "LogicalAnd": np.logical_and,
    "LogicalOr": np.logical_or,
    "LogicalXor": np.logical_xor,
}
"""The binary logical ops on the operands' truth values (a bool result)."""

BITWISE: dict[str, str] = {"BitwiseAnd": "and", "BitwiseOr": "or", "BitwiseXor": "xor"}
"""The binary bitwise ops (on the integer lanes' bits)."""


def bitwise_op(name: str, a: Lanes, b: Lanes | None = None) -> Lanes:
    """``BitwiseAnd`` / ``Or`` / ``Xor`` (and ``BitwiseNot`` with no *b*) on integer lanes.

    Examples
    --------
    >>> bitwise_op("BitwiseXor", np.int8([5, -1]), np.int8([3, 1])).tolist()
    [6, -2]
    >>> bitwise_op("BitwiseNot", np.uint16([0])).tolist()
    [65535]
    """
    return bitwise("not", a) if b is None else bitwise(BITWISE[name], a, b)


# -- logarithms --------------------------------------------------------------------------------

LN2_RECIPROCAL = np.float32(1.4426950408889634)
"""``Log2``'s ``1 / ln 2`` as the implementation's ``const float``."""
LN10_RECIPROCAL = np.float32(0.4342944819032518)
"""``Log10``'s ``1 / ln 10`` as the implementation's ``const float``."""


def log(values: Lanes) -> Lanes:
    """``Log``: the ``Log`` intrinsic on the lanes' own type (half on half).

    Examples
    --------
    >>> log(np.float32([1.0, 4.0])).tolist()
    [0.0, 1.3862943649291992]
    """
    return ln(values)


def _log_scaled(reciprocal: np.float32) -> Callable[[Lanes], Lanes]:
    def scaled(values: Lanes) -> Lanes:
        if values.dtype == F16:  # cast up, Log, Muls, cast back saturating
            return to_half(muls(ln(to_float(values)), float(reciprocal)), saturate=True)
        return muls(ln(values), float(reciprocal))

    return scaled


log2 = _log_scaled(LN2_RECIPROCAL)
"""``Log2``: ``Log`` times ``1 / ln 2`` in float32 (half cast up and back, saturating)."""
log10 = _log_scaled(LN10_RECIPROCAL)
"""``Log10``: ``Log`` times ``1 / ln 10`` in float32 (half cast up and back, saturating)."""


# -- trigonometric and hyperbolic functions (float32 sequences of the 3510 implementations) ---

_ONE_OVER_PI = 0.3183098733425140380859375
_PI_PARTS = (3.140625, 0.0009670257568359375, 6.2771141529083251953125e-7,
             1.21644916362129151821136474609375e-10)  # fmt: skip
"""pi split into float parts for the Cody-Waite reduction ``x - k*pi``."""
_COS_PI_PART_4 = -1.0290623200529979163359041220560e-13
_HALF_PI_HIGH = 1.57079637050628662109375
_HALF_PI_LOW = -0.00000004371139000189375
_SIN_POLY = (2.604926501e-6, -0.0001980894471, 0.008333049340, -0.1666665792)
"""The odd polynomial ``sin(x) = x (1 + x^2 (c3 + x^2 (c2 + x^2 (c1 + x^2 c0))))`` on [-pi/2, pi/2]."""


def _sin_kernel(x: Lanes, k: Lanes) -> Lanes:
    """Return ``(-1)^k sin(x)`` from the reduced *x* and the count *k* (Sin and Cos's tail).

    The sign is ``floor(k / 2) * 4 - 2k + 1`` (1 for even k, -1 for odd), as the
    implementation computes it.
    """
    x2 = mul(x, x)
    sgn = truncate(muls(k, 0.5), RoundMode.CAST_FLOOR)
    sgn = adds(add(muls(sgn, 4.0), muls(k, -2.0)), 1.0)
    poly = adds(muls(x2, _SIN_POLY[0]), _SIN_POLY[1])
    poly = adds(mul(poly, x2), _SIN_POLY[2])
    poly = adds(mul(poly, x2), _SIN_POLY[3])
    poly = adds(mul(poly, x2), 1.0)
    return mul(mul(poly, x), sgn)


def _sin32(x: Lanes) -> Lanes:
    """``SinPolynomialApproximation`` on float32 lanes."""
    k = truncate(muls(x, _ONE_OVER_PI), RoundMode.CAST_RINT)
    r = x
    for part in _PI_PARTS:
        r = sub(r, muls(k, part))
    return _sin_kernel(r, k)


def _cos32(x: Lanes) -> Lanes:
    """``CosPolynomialApproximation``: ``cos(x) = sin(x + pi/2)``, clamped to [-1, 1]."""
    k = truncate(adds(muls(x, _ONE_OVER_PI), 0.5), RoundMode.CAST_RINT)
    r = sub(x, muls(k, _PI_PARTS[0]))
    r = sub(r, muls(k, _PI_PARTS[1]))
    r = adds(r, _HALF_PI_HIGH)
    for part in (*_PI_PARTS[2:], _COS_PI_PART_4):
        r = sub(r, muls(k, part))
    r = adds(r, _HALF_PI_LOW)
    return maxs(mins(_sin_kernel(r, k), 1.0), -1.0)


sin = in_float(_sin32)
"""``Sin`` (``SinAlgo::POLYNOMIAL_APPROXIMATION``): Cody-Waite reduction by pi, then an odd
polynomial; half lanes are computed in float.

Examples
--------
>>> sin(np.float32([0.0, 1.0, 3.0])).tolist()
[0.0, 0.8414709568023682, 0.14112000167369843]
"""
cos = in_float(_cos32)
"""``Cos`` (``CosAlgo::POLYNOMIAL_APPROXIMATION``): ``sin(x + pi/2)`` clamped to [-1, 1].

Examples
--------
>>> cos(np.float32([0.0, 1.0])).tolist()
[1.0, 0.5403022766113281]
"""

_TANH_CLAMP = 8.8
_TANH_POLY = (0.0157296831, -0.0523029624, 0.133152977, -0.333327681)
_TANH_SWITCH = 0.55


def _tanh_exp(x: Lanes) -> Lanes:
    """``(e^2x - 1) / (e^2x + 1)``."""
    e = exp(muls(x, 2.0))
    return div(adds(e, -1.0), adds(e, 1.0))


def _tanh_intrinsic(x: Lanes) -> Lanes:
    """``TanhAlgo::INTRINSIC``: the input clamped to [-8.8, 8.8], then :func:`_tanh_exp`."""
    return _tanh_exp(maxs(mins(x, _TANH_CLAMP), -_TANH_CLAMP))


def _tanh_compensated(x: Lanes) -> Lanes:
    """``TanhAlgo::SUBSECTION_COMPENSATION``: a polynomial below ``|x| < 0.55``, else e^2x.

    The polynomial is ``x + x^3 (c3 + x^2 (c2 + x^2 (c1 + x^2 c0)))`` evaluated with fused
    multiply-adds; the exponential path clamps x at 20 from above.
    """
    x2 = mul(x, x)
    poly = adds(muls(x2, _TANH_POLY[0]), _TANH_POLY[1])
    poly = fma(poly, x2, _scalar(x, _TANH_POLY[2]))
    poly = fma(poly, x2, _scalar(x, _TANH_POLY[3]))
    poly = fma(mul(poly, x2), x, x)
    far = _tanh_exp(mins(x, 20.0))
    return np.where(compare("LT", arith.abs_lanes(x), _TANH_SWITCH), poly, far)


tanh = in_float(_tanh_intrinsic)
"""``Tanh`` (``TanhAlgo::INTRINSIC``).

Examples
--------
>>> tanh(np.float32([0.5, 100.0])).tolist()
[0.46211716532707214, 1.0]
"""
tanh_compensated = in_float(_tanh_compensated)
"""``Tanh`` with ``TanhAlgo::SUBSECTION_COMPENSATION``.

Examples
--------
>>> tanh_compensated(np.float32([0.1, 1.0])).tolist()
[0.0996679961681366, 0.7615941762924194]
"""

_NEG_LN2 = -0.6931472


def _sinh32(x: Lanes) -> Lanes:
    """``e^(x - ln 2) - 0.25 / e^(x - ln 2)``."""
    e = exp(adds(x, _NEG_LN2))
    return sub(e, div(_scalar(x, 0.25), e))


def _cosh32(x: Lanes) -> Lanes:
    """``e^(x - ln 2) + 0.25 / e^(x - ln 2)``."""
    e = exp(adds(x, _NEG_LN2))
    return add(e, div(_scalar(x, 0.25), e))


def _acosh32(x: Lanes) -> Lanes:
    """``ln(x + sqrt(x^2 - 1))``."""
    return ln(add(sqrt(adds(mul(x, x), -1.0)), x))


def _atanh32(x: Lanes) -> Lanes:
    """``0.5 ln((1 + x) / (1 - x))``."""
    return muls(ln(div(adds(x, 1.0), sub(_scalar(x, 1.0), x))), 0.5)


def _sigmoid32(x: Lanes) -> Lanes:
    """``1 / (1 + e^-x)``."""
    return div(_scalar(x, 1.0), adds(exp(muls(x, -1.0)), 1.0))


sinh = in_float(_sinh32)
"""``Sinh``: ``e^(x - ln 2) - 0.25 e^-(x - ln 2)`` in float.

Examples
--------
>>> sinh(np.float32([1.0])).tolist()
[1.175201177597046]
"""
cosh = in_float(_cosh32)
"""``Cosh``: ``e^(x - ln 2) + 0.25 e^-(x - ln 2)`` in float.

Examples
--------
>>> cosh(np.float32([0.0])).tolist()
[1.0]
"""
acosh = in_float(_acosh32)
"""``Acosh``: ``ln(x + sqrt(x^2 - 1))`` in float.

Examples
--------
>>> acosh(np.float32([1.0, 2.0])).tolist()
[0.0, 1.316957950592041]
"""
atanh = in_float(_atanh32)
"""``Atanh``: ``0.5 ln((1 + x) / (1 - x))`` in float.

Examples
--------
>>> atanh(np.float32([0.5])).tolist()
[0.5493061542510986]
"""
sigmoid = in_float(_sigmoid32)
"""``Sigmoid``: ``1 / (1 + e^-x)`` in float.

Examples
--------
>>> sigmoid(np.float32([0.0, 2.0])).tolist()
[0.5, 0.8807970285415649]
"""


def swish(values: Lanes, beta: Any) -> Lanes:
    """``Swish``: ``x / (1 + e^(-beta x))`` on the lanes' own type (half on half lanes).

    The scalar is ``T(-1.0f * float(beta))``, as the implementation makes it.

    Examples
    --------
    >>> swish(np.float32([1.0, -2.0]), 1.0).tolist()
    [0.7310585975646973, -0.23840583860874176]
    """
    scalar = values.dtype.type(np.float32(-1.0) * np.float32(beta))
    return div(values, adds(exp(muls(values, scalar)), 1.0))


# -- Power ------------------------------------------------------------------------------------------

_F32_NAN_BITS = np.int32(0x7FC00000)
_F32_INF_BITS = 0x7F800000


def _bits32(values: Lanes) -> Lanes:
    bits: Lanes = np.ascontiguousarray(values, dtype=np.float32).view(np.int32)
    return bits


def _float32(bits: Lanes) -> Lanes:
    values: Lanes = np.ascontiguousarray(bits, dtype=np.int32).view(np.float32)
    return values


def _odd_integer(b: Lanes) -> Lanes:
    """``fmaf(-2.0f, floorf(0.5f * b), b) == 1.0f``: whether *b* is an odd integer."""
    half_floor = truncate(muls(b, 0.5), RoundMode.CAST_FLOOR)
    return compare("EQ", fma(half_floor, _scalar(b, -2.0), b), 1.0)


def _power_special(r: Lanes, a: Lanes, b: Lanes) -> Lanes:
    """``ProcessSpecialCaseForPowF``: the IEEE special cases over the computed power *r*.

    In order (each on the lanes no earlier case took): ``b == 0`` or ``a == 1`` give 1; a NaN
    operand gives the quiet NaN 0x7FC00000; ``a`` infinite or zero gives the signed zero or
    infinity from *a*'s bits (``a ^ 0x7F800000`` for ``b < 0``, the sign kept only for an odd
    integer ``b``); a negative ``a`` negates *r* for an odd integer ``b`` and gives NaN for a
    non-integer ``b``; ``a == -1`` with an infinite ``b`` gives 1.
    """
    one = np.float32(1.0)
    out = r.copy()
    first = compare("EQ", b, 0.0) | compare("EQ", a, 1.0)
    out[first] = one
    rest = ~first
    nan = (np.isnan(a) | np.isnan(b)) & rest
    out[nan] = _float32(np.full(1, _F32_NAN_BITS))[0]
    rest &= ~nan
    a_bits = _bits32(a)
    edge = ((a_bits & 0x7FFFFFFF) == _F32_INF_BITS) | compare("EQ", a, 0.0)
    edge &= rest
    odd = _odd_integer(b)
    flipped = np.where(compare("LT", b, 0.0), a_bits ^ _F32_INF_BITS, a_bits)
    signless = flipped & 0x7FFFFFFF
    out[edge] = _float32(np.where(odd, flipped, signless))[edge]
    rest &= ~edge
    negated = np.where(odd, -out, out)
    negated = np.where(
        compare("NE", b, truncate(b, RoundMode.CAST_FLOOR)),
        _float32(np.full(b.shape, _F32_NAN_BITS)),
        negated,
    )
    negative = compare("LT", a, 0.0) & rest
    out[negative] = negated[negative]
    b_bits = _bits32(b)
    unit = rest & ((b_bits & 0x7FFFFFFF) == _F32_INF_BITS) & compare("EQ", a, -1.0)
    out[unit] = one
    return out


def _power_intrinsic32(a: Lanes, b: Lanes) -> Lanes:
    """``PowerAlgo::INTRINSIC`` for floats: ``exp(b * ln|a|)`` with the special cases."""
    r = exp(mul(b, ln(arith.abs_lanes(a))))
    return _power_special(r, a, b)


_LOG_SMALLEST = 1.175494351e-38
_LOG_SCALE = 8388608.0
_LOG_REDUCE = 0x3F3504F3  # __float_as_int(0.70710678f)
_LOG_E_MASK = np.int32(-8388608)  # 0xff800000
_LOG_E_SCALE = 1.19209290e-7
_LOG_POLY = (0.129394531, 0.141957462, 0.200015724, 0.333333254)
_LOG2_HI = 6.93147182e-1
_LOG2_LO = -1.90465421e-9
_EXP_HIGH = 88.7228390
_EXP_LOW = -104.0


def _log_extended(a: Lanes) -> tuple[Lanes, Lanes]:
    """``GetLogFExtStepOne`` + ``StepTwo``: ``ln(a)`` of float32 *a* as a (high, low) pair."""
    small = compare("LT", a, _LOG_SMALLEST)
    a = np.where(small, muls(a, _LOG_SCALE), a)
    i = np.where(small, np.float32(-23.0), np.float32(0.0)).astype(np.float32)
    a_bits = _bits32(a)
    e = ((a_bits.astype(np.int64) - _LOG_REDUCE).astype(np.int32)) & _LOG_E_MASK
    m = _float32((a_bits.astype(np.int64) - e).astype(np.int32))
    i = fma(e.astype(np.float32), _scalar(i, _LOG_E_SCALE), i)  # Axpy(i, float(e), 2^-23)
    p = adds(m, 1.0)
    m = adds(m, -1.0)
    r = div(_scalar(p, 1.0), p)
    qhi = mul(m, r)
    t = add(muls(qhi, -2.0), m)
    qhi1 = fma(arith.neg_lanes(m), qhi, t)  # FusedMulDstAdd(-m, qhi, t)
    qlo = mul(r, qhi1)
    s = mul(qhi, qhi)
    poly = fma(s, _scalar(s, _LOG_POLY[0]), _scalar(s, _LOG_POLY[1]))  # Axpy(0.1419..., s, c0)
    poly = fma(poly, s, _scalar(s, _LOG_POLY[2]))
    poly = fma(poly, s, _scalar(s, _LOG_POLY[3]))
    poly = mul(poly, s)
    qhi = add(qhi, qhi)
    qlo = add(qlo, qlo)
    first_hi = add(muls(i, _LOG2_HI), qhi)
    first_lo = sub(qhi, fma(i, _scalar(i, -_LOG2_HI), first_hi))
    second_lo = fma(qhi, poly, first_lo)
    last_lo = fma(muls(qlo, 3.0), poly, qlo)
    sum_lo = add(fma(i, _scalar(i, _LOG2_LO), last_lo), second_lo)
    high = add(first_hi, sum_lo)
    low = add(sub(first_hi, high), sum_lo)
    return high, low


def _exp_extended(high: Lanes, low: Lanes, b: Lanes) -> Lanes:
    """``GetExpCore``: ``exp(b * (high + low))`` with the product's rounding error fed back."""
    phi = mul(high, b)
    plo = fma(high, b, arith.neg_lanes(phi))
    plo = fma(low, b, plo)
    r = exp(phi)
    r = fma(plo, r, r)
    saturated = np.where(compare("GE", phi, 0.0), np.float32(np.inf), np.float32(0.0))
    outside = compare("GE", phi, _EXP_HIGH) | compare("LT", phi, _EXP_LOW)
    result: Lanes = np.where(outside, saturated, r).astype(np.float32)
    return result


def _power_double32(a: Lanes, b: Lanes) -> Lanes:
    """``PowerAlgo::DOUBLE_FLOAT_TECH``: an extended-precision ``ln|a|``, ``exp`` with correction."""
    high, low = _log_extended(arith.abs_lanes(a))
    return _power_special(_exp_extended(high, low, b), a, b)


def _to_type(values: Lanes, dtype: np.dtype[Any]) -> Lanes:
    if dtype == F16:
        return to_half(values)
    if dtype == F32:
        return values
    return convert.convert(values, float32_t, bfloat16_t, RoundMode.CAST_RINT, False)


def power_float(a: Lanes, b: Lanes, *, double_float: bool) -> Lanes:
    """``Power`` of half, bfloat16 or float lanes: in float32, cast back with ``CAST_RINT``.

    Examples
    --------
    >>> power_float(np.float32([2.0, -2.0, -8.0, 0.0]), np.float32([10.0, 3.0, 1 / 3, -1.0]), double_float=False).tolist()
    [1024.0, -8.0, nan, inf]
    >>> power_float(np.float32([3.0]), np.float32([2.5]), double_float=True).tolist()
    [15.588457107543945]
    """
    dtype = a.dtype
    core = _power_double32 if double_float else _power_intrinsic32
    return _to_type(core(a.astype(np.float32), b.astype(np.float32)), dtype)


def power_int(a: Lanes, b: Lanes) -> Lanes:
    """``Power`` of integer lanes: square-and-multiply, wrapping, then the special cases.

    ``b == 0`` or ``a == 1`` give 1; a signed ``b < 0`` gives 0, or +-1 for ``a == -1``.

    The implementation runs as many rounds as the largest exponent has bits, so every
    non-negative exponent is used whole: the result is ``a ** b`` modulo 2**bits.

    Examples
    --------
    >>> power_int(np.int8([3, 2, -1, -1, 5, 7]), np.int8([4, 7, -3, -2, -1, 0])).tolist()
    [81, -128, -1, 1, 0, 1]
    """
    bits = 8 * a.dtype.itemsize
    base = a.copy()
    exponent = b.copy()
    result = np.ones_like(a)
    with np.errstate(over="ignore"):
        for _ in range(bits):
            result = np.where((exponent & 1) == 1, (result * base).astype(a.dtype), result)
            exponent = exponent >> 1
            base = (base * base).astype(a.dtype)
    result = np.where((b == 0) | (a == 1), a.dtype.type(1), result)
    if a.dtype.kind == "i":
        negative = (b < 0) & ~((b == 0) | (a == 1))
        minus_one = a == -1
        unit = np.where((b & 1) == 1, a.dtype.type(-1), a.dtype.type(1))
        result = np.where(negative & ~minus_one, a.dtype.type(0), result)
        result = np.where(negative & minus_one, unit, result)
    out: Lanes = result.astype(a.dtype)
    return out


# -- Asin, Acos, Atan, Tan ---------------------------------------------------------------------


def _abs(a: Lanes) -> Lanes:
    return arith.abs_lanes(a)


def _neg(a: Lanes) -> Lanes:
    return arith.neg_lanes(a)


def _min(a: Lanes, b: Lanes) -> Lanes:
    return arith.BINARY_OPS["Min"](a, b)


def _cast(a: Lanes, src: Any, dst: Any, mode: RoundMode, saturate: bool) -> Lanes:
    return convert.convert(a, src, dst, mode, saturate)


_ASIN_COEF = (1.0, 0.16666666666666666, 0.075, 0.04464285714285714, 0.030381944444444444,
              0.022372159090909092, 0.017352764423076924, 0.01396484375)  # fmt: skip
_HALF_PI = 1.5707963267948966
_BOUNDARY = 0.7071067811865476


def _half_constant(c: float) -> float:
    """Return a ``static_cast<half>`` constant (used on float lanes)."""
    return float(np.float16(c))


def _asin_series(d: Lanes, square: Lanes, c: Callable[[float], float]) -> Lanes:
    """``AsinTaylorComputeInner``: ``d * k7 + k6``, then ``* x^2 + k_i`` down to ``k0``."""
    d = adds(muls(d, c(_ASIN_COEF[7])), c(_ASIN_COEF[6]))
    for k in range(5, -1, -1):
        d = adds(mul(d, square), c(_ASIN_COEF[k]))
    return d


def _asin_taylor(x: Lanes, c: Callable[[float], float]) -> Lanes:
    """``AsinTaylorCompute``: ``x * series(x^2)``."""
    square = mul(x, x)
    return mul(_asin_series(square, square, c), x)


def _asin_taylor_of_square(square: Lanes, c: Callable[[float], float]) -> Lanes:
    """``AsinTaylorComputeBySquareValue``: ``series(s) * sqrt(s)`` of a square *s*."""
    return mul(_asin_series(muls(square, c(1.0)), square, c), sqrt(square))


def _sign_ratio(x: Lanes) -> Lanes:
    """``GetSign`` / atan's ``Sign``: ``x M / (|x M| + m)`` (M, m = 2^62, 2^-62; half 2^15, 2^-15)."""
    big, small = (2.0**62, 2.0**-62) if x.dtype == F32 else (2.0**15, 2.0**-15)
    scaled = muls(x, big)
    return div(scaled, adds(_abs(scaled), small))


def _choice(magnitude: Lanes, integer: Any) -> Lanes:
    """``floor(min(|x|, 1/sqrt 2) - 1/sqrt 2)``: -1 below the boundary, else 0 (same type)."""
    shifted = adds(mins(magnitude, _BOUNDARY), -_BOUNDARY)
    lanes = half if shifted.dtype == F16 else float32_t
    whole = _cast(shifted, lanes, integer, RoundMode.CAST_FLOOR, True)
    return _cast(whole, integer, lanes, RoundMode.CAST_RINT, False)


def _asin32(x: Lanes, acos: bool) -> Lanes:
    """Return ``AsinComputeVFF32``'s lanes: both branches, blended by the 0/1 choice."""
    far = _asin_taylor(sqrt(adds(muls(mul(x, x), -1.0), 1.0)), float)
    far = adds(muls(far, -1.0), _HALF_PI)
    near = _asin_taylor_of_square(mul(x, x), float)
    magnitude = sqrt(mul(x, x))
    choice = muls(_choice(magnitude, int32_t), -1.0)
    blended = add(mul(near, choice), mul(far, adds(muls(choice, -1.0), 1.0)))
    result = mul(blended, _sign_ratio(x))
    return muls(adds(result, -_HALF_PI), -1.0) if acos else result


def _asin16(x: Lanes, acos: bool) -> Lanes:
    """``AsinComputeVFF16``: the far branch in float, the near one on half lanes."""
    xf = to_float(x)
    far = _asin_taylor_of_square(adds(muls(mul(xf, xf), -1.0), 1.0), _half_constant)
    far = adds(muls(far, -1.0), _HALF_PI)
    magnitude = _abs(x)
    near = _asin_taylor(magnitude, float)
    choice = muls(_choice(magnitude, int8_t), -1.0)
    near = mul(near, choice)
    other = to_float(adds(muls(choice, -1.0), 1.0))
    blended = add(to_float(near), mul(far, other))
    result = mul(blended, to_float(_sign_ratio(x)))
    if acos:
        result = muls(adds(result, -_HALF_PI), -1.0)
    return to_half(result, saturate=True)


def asin(values: Lanes) -> Lanes:
    """``Asin``: a Taylor series of ``x`` below ``|x| < 1/sqrt 2``, else ``pi/2 - series(sqrt(1 - x^2))``.

    Half lanes compute the far branch in float and the near one in half (as the
    implementation does); the result is cast back saturating.

    Examples
    --------
    >>> asin(np.float32([0.5, -1.0, 0.0])).tolist()
    [0.5235986709594727, -1.5707963705062866, 0.0]
    """
    return _asin16(values, False) if values.dtype == F16 else _asin32(values, False)


def acos(values: Lanes) -> Lanes:
    """``Acos``: ``-(asin(x) - pi/2)`` with asin's lanes (:func:`asin`).

    Examples
    --------
    >>> acos(np.float32([1.0, 0.0])).tolist()
    [-0.0, 1.5707963705062866]
    """
    return _asin16(values, True) if values.dtype == F16 else _asin32(values, True)


_ATAN_FACTORS = (1.0, -0.3333333333333333, 0.2, -0.14285714285714285, 0.1111111111111111,
                 -0.09090909090909091, 0.07692307692307693)  # fmt: skip
_PI_BY_FOUR = 0.7853981633974483
_PI_BY_EIGHT = 0.39269908169872414
_TAN_PI_BY_EIGHT = 0.4142135623730950


def _atan_series(x: Lanes, level: int) -> Lanes:
    """``TaylorExpand``: the series in ``x^2`` from ``f[level]``, times x.

    ``x^2 * f[level] + f[level]`` (level 6: then ``* x^2 + f5``), then ``* x^2 + f_k`` down to
    ``f0``, as the implementation writes it.
    """
    square = mul(x, x)
    d = muls(mul(x, x), _ATAN_FACTORS[level])
    if level == 6:
        d = adds(mul(adds(d, _ATAN_FACTORS[6]), square), _ATAN_FACTORS[5])
    d = adds(d, _ATAN_FACTORS[4])
    for k in (3, 2, 1, 0):
        d = adds(mul(d, square), _ATAN_FACTORS[k])
    return mul(d, x)


def _atan_transform(x: Lanes, factor: float) -> Lanes:
    """``|(x - f) / (x f + 1)|``."""
    return _abs(div(adds(x, -factor), adds(muls(x, factor), 1.0)))


def _atan32(x: Lanes) -> Lanes:
    """``AtanCompute``: the least of four range-reduced series, with the sign ratio."""
    clipped = maxs(mins(x, 10000.0), -10000.0)
    a = _abs(clipped)
    d = _atan_series(a, 4)
    d = _min(d, adds(_atan_series(_atan_transform(a, _TAN_PI_BY_EIGHT), 4), _PI_BY_EIGHT))
    t = _abs(div(adds(a, -1.0), adds(a, 1.0)))
    d = _min(d, adds(_atan_series(t, 4), _PI_BY_FOUR))
    far = adds(
        adds(_atan_series(_atan_transform(t, _TAN_PI_BY_EIGHT), 6), _PI_BY_EIGHT), _PI_BY_FOUR
    )
    return mul(_min(d, far), _sign_ratio(clipped))


atan = in_float(_atan32)
"""``Atan`` (``AtanAlgo::TAYLOR_EXPANSION``): in float, half cast back without saturation.

Examples
--------
>>> atan(np.float32([1.0, -0.5])).tolist()
[0.7853981256484985, -0.46364763379096985]
"""

_ATAN_POLY = (-0.333329409, 0.199887753, -0.141718030, 0.105184801, -0.0725297481,
              0.0398497507, -0.0143969795, 0.00245002890)  # fmt: skip
_ATAN_B = (1.68325555, 0.933189452)


def atan_polynomial(x: Lanes) -> Lanes:
    """``Atan`` with ``AtanAlgo::POLYNOMIAL_APPROXIMATION`` (float only).

    A fused odd polynomial of ``min(|x|, 1/|x|)``, ``b1 b2 - y`` above 1, the input's sign bit
    ORed in.

    Examples
    --------
    >>> atan_polynomial(np.float32([1.0, -3.0, 0.25])).tolist()
    [0.7853981256484985, -1.249045729637146, 0.244978666305542]
    """
    a = _abs(x)
    reciprocal = div(_scalar(x, 1.0), a)
    above = compare("GE", a, np.float32(1.0))
    xc = np.where(above, reciprocal, a).astype(np.float32)
    s = mul(xc, xc)
    y = fma(_scalar(x, _ATAN_POLY[7]), s, _scalar(x, _ATAN_POLY[6]))
    for k in range(5, -1, -1):
        y = fma(y, s, _scalar(x, _ATAN_POLY[k]))
    t = fma(mul(y, s), xc, xc)
    flipped = fma(_scalar(x, _ATAN_B[0]), _scalar(x, _ATAN_B[1]), _neg(t))
    result = np.where(above, flipped, t).astype(np.float32)
    sign = _bits32(x) & np.int32(-(2**31))
    return _float32(sign | _bits32(result))


_TAN_INV_PI = 0.3183098733425140380859375
_TAN_PI = (3.140625, 0.0009670257568359375, 6.2771141529083251953125e-7,
           1.21644916362129151821136474609375e-10, -1.0291767438275201129727065563201904296875e-13)  # fmt: skip
_TAN_HALF_PI = 1.57079637050628662109375
_TAN_HALF_PI_LOW = 0.00000004371139000189375
_TAN_R = (0.0698520831551998762793, -6.8711573651634203789, 61.20362572811089435388,
          -24.8048928861126769186219)  # fmt: skip


def _tan32(x: Lanes) -> Lanes:
    """``TanRound`` then ``TanPolynomialApproximation``: ``x P(x^2) / ((pi/2 + x)(x - pi/2) Q)``."""
    k = truncate(muls(x, _TAN_INV_PI), RoundMode.CAST_RINT)
    r = sub(sub(x, muls(k, _TAN_PI[0])), muls(k, _TAN_PI[1]))
    up, down = adds(r, _TAN_HALF_PI), adds(r, -_TAN_HALF_PI)
    t = muls(k, _TAN_PI[2])
    r, up, down = sub(r, t), sub(up, t), sub(down, t)
    up, down = adds(up, -_TAN_HALF_PI_LOW), adds(down, _TAN_HALF_PI_LOW)
    for part in _TAN_PI[3:]:
        t = muls(k, part)
        r, up, down = sub(r, t), sub(up, t), sub(down, t)
    s = mul(r, r)
    p = mul(adds(mul(adds(muls(s, _TAN_R[0]), _TAN_R[1]), s), _TAN_R[2]), r)
    q = mul(mul(adds(s, _TAN_R[3]), up), down)
    return div(p, q)


tan = in_float(_tan32, saturate=True)
"""``Tan``: the reduction by pi in five parts and a rational approximation, in float.

Examples
--------
>>> tan(np.float32([0.5, -1.0])).tolist()
[0.5463024973869324, -1.5574077367782593]
"""


# -- Erf, Erfc ---------------------------------------------------------------------------------

_ERF_P = (0.29639384698e5, 0.50637915060e4, 0.13938061484e4, 0.10162808918e3, 0.75517016694e1,
          0.053443748819)  # fmt: skip
_ERF_Q = (0.26267224157e5, 0.13243365831e5, 0.30231248150e4, 0.39856963806e3, 0.31212858877e2)


def _erf_pade32(x: Lanes) -> Lanes:
    """``ErfPadeCompute``: ``P(c) / Q(c)`` of ``c = clamp(x, -3.92, 3.92)``."""
    c = maxs(mins(x, 3.92), -3.92)
    s = mul(c, c)
    p = adds(muls(s, _ERF_P[5]), _ERF_P[4])
    for coefficient in _ERF_P[3::-1]:
        p = adds(mul(p, s), coefficient)
    return div(mul(p, c), _erf_q(s))


def _erf_q(s: Lanes) -> Lanes:
    q = adds(s, _ERF_Q[4])
    for coefficient in _ERF_Q[3::-1]:
        q = adds(mul(q, s), coefficient)
    return q


_ERF_SPLIT = 0x3F8060FE
_ERF_NEAR = (0x38B1E96A, 0xBA574D20, 0x3BAAD5EA, 0xBCDC1BE7, 0x3DE718AF, 0xBEC093AC, 0x3E0375D3)
_ERF_FAR = (0x38EB4C3A, 0xBAAE005B, 0x3C09919F, 0xBD24D99A, 0x3E235519, 0x3F69B4F9, 0x3F210A14)


def _from_bits(value: int, like: Lanes) -> Lanes:
    return np.full(like.shape, value, np.uint32).view(np.float32)


def _erf_subsection32(x: Lanes) -> Lanes:
    """``ErfSubsectionCompute``: a fused polynomial, past ``|x| = 1.0029`` as ``1 - 2^p``.

    Below the split the polynomial is erf itself; above it is an exponent p, and the result
    ``1 - 2^p`` takes x's sign bit.
    """
    a = _abs(x)
    split = _from_bits(_ERF_SPLIT, x)
    far = compare("GE", a, split)
    f7 = np.where(far, a, mul(x, x)).astype(np.float32)

    def coefficient(k: int) -> Lanes:
        return np.where(far, _from_bits(_ERF_FAR[k], x), _from_bits(_ERF_NEAR[k], x))

    f = coefficient(0).astype(np.float32)
    for k in range(1, 7):
        f = fma(f, f7, coefficient(k).astype(np.float32))
    f22 = np.where(far, _neg(a), x).astype(np.float32)
    f26 = fma(f, f22, f22)
    near = compare("LT", a, split)
    f23 = exp(mul(f26, ln(_scalar(x, 2.0))))
    f25 = sub(_scalar(x, 1.0), f23)
    signed = _float32((_bits32(x) & np.int32(-(2**31))) | _bits32(f25))
    return np.where(near, f26, signed).astype(np.float32)


erf = in_float(_erf_pade32)
"""``Erf`` (``ErfAlgo::PADE_APPROXIMATION``): in float, half cast back without saturation.

Examples
--------
>>> erf(np.float32([0.5, -4.0])).tolist()
[0.5204998850822449, -1.0000001192092896]
"""
erf_subsection = in_float(_erf_subsection32)
"""``Erf`` with ``ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION``.

Examples
--------
>>> erf_subsection(np.float32([0.5, -4.0])).tolist()
[0.5204998850822449, -1.0]
"""

_ERFC_R = (0.1735313680e-7, -0.9856738394e-6, 0.2517003236e-4, -0.3848015171e-3, 0.5681528564e0,
           0.5245623129e1, 0.2107740710e2, 0.4212761755e2, 0.4380524149e2)  # fmt: skip
_ERFC_S = (0.9349684299e1, 0.3756930664e2, 0.8058268949e2, 0.9155653738e2, 0.4380524152e2)


def _erfc32(x: Lanes) -> Lanes:
    """``ErfcPublicSteps``: ``e^(-xa^2) (x/xa) R(z)/S(z) + (1 - x/xa)``."""
    c = maxs(mins(x, 10.0), -10.0)
    xa = adds(_abs(c), 2.0**-62)
    e = exp(_neg(mul(xa, xa)))
    z = mins(xa, 10.0)
    xb = div(c, xa)
    r = adds(mul(z, _scalar(z, _ERFC_R[0])), _ERFC_R[1])
    for coefficient in _ERFC_R[2:]:
        r = adds(mul(r, z), coefficient)
    s = adds(z, _ERFC_S[0])
    for coefficient in _ERFC_S[1:]:
        s = adds(mul(s, z), coefficient)
    result = div(mul(mul(e, xb), r), s)
    return add(result, sub(_scalar(x, 1.0), xb))


erfc = in_float(_erfc32)
"""``Erfc``: in float, half cast back without saturation.

Examples
--------
>>> erfc(np.float32([0.0, 1.0])).tolist()
[1.0, 0.15729917585849762]
"""


# -- Gelu --------------------------------------------------------------------------------------


def _gelu(x: Lanes) -> Lanes:
    """``x e^min(t, 0) / (1 + e^-|t|)`` with ``t = 1.5957691 (x + 0.044715 x^3)``."""
    t = muls(add(muls(mul(mul(x, x), x), 0.044715), x), 1.5957691216057308)
    high = exp(mins(t, 0.0))
    return mul(high, div(x, adds(exp(muls(_abs(t), -1.0)), 1.0)))


def _faster_gelu(x: Lanes) -> Lanes:
    """``x / (1 + e^(-1.702 x))``."""
    return div(x, adds(exp(muls(x, -1.702)), 1.0))


def _faster_gelu_v2(x: Lanes) -> Lanes:
    """``x (0.5 + sign(x) (0.5 - 0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2))``."""
    a = adds(mins(_abs(muls(x, 0.7071)), 1.769), -1.769)
    a = adds(muls(mul(a, a), -0.1444), 0.5)
    shifted = adds(x, 0.000000000001)
    a = adds(mul(a, div(shifted, _abs(shifted))), 0.5)
    return mul(x, a)


GELUS = {"Gelu": _gelu, "FasterGelu": _faster_gelu, "FasterGeluV2": _faster_gelu_v2}
"""The Gelu family's lane functions on the lanes' own type."""


def gelu(name: str, values: Lanes, high_precision: bool) -> Lanes:
    """``Gelu`` / ``FasterGelu`` / ``FasterGeluV2`` of half or float lanes.

    Half lanes are computed in half, or with *high_precision* in float and cast back
    (``CAST_RINT``, no saturation).

    Examples
    --------
    >>> gelu("Gelu", np.float32([1.0, -1.0]), False).tolist()
    [0.8411920070648193, -0.15880799293518066]
    """
    function = GELUS[name]
    if high_precision and values.dtype == F16:
        return to_half(function(to_float(values)))
    return function(values)

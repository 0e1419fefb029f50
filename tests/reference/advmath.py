"""The advanced API's math (数学计算) one lane at a time, on bit patterns.

Each function follows the page (and, where the page leaves the algorithm open, the steps of the
dav-3510 implementation that ascreg documents it follows) with the per-lane references of the
register ops it is made of (tests/reference/arith.py, elementary.py, compound.py, convert.py):
an independent, scalar path to the vectorised :mod:`ascreg.core.advmath`. Nothing here calls
ascreg's core.
"""

from __future__ import annotations

import math

from ascreg import RoundMode, bfloat16_t, bool_, float32_t, half
from ascreg._dtypes import Scalar
from reference.arith import binary
from reference.common import decode_float, encode_float, is_float, signed, value_of, width
from reference.compound import fma_lane
from reference.convert import convert_element, truncate_element
from reference.elementary import div_lane, unary_lane

F = float32_t


# -- float32 register ops on bit patterns --------------------------------------------------------


def const(value: float) -> int:
    """A C++ ``constexpr float``: the value rounded to float32."""
    return encode_float(value, F)


def mul(x: int, y: int) -> int:
    return binary("Mul", F, x, y)


def add(x: int, y: int) -> int:
    return binary("Add", F, x, y)


def sub(x: int, y: int) -> int:
    return binary("Sub", F, x, y)


def muls(x: int, s: float) -> int:
    return mul(x, const(s))


def adds(x: int, s: float) -> int:
    return add(x, const(s))


def maxs(x: int, s: float) -> int:
    return binary("Max", F, x, const(s))


def mins(x: int, s: float) -> int:
    return binary("Min", F, x, const(s))


def fma(x: int, y: int, z: int) -> int:
    return fma_lane(x, y, z, F)


def div(x: int, y: int) -> int:
    return div_lane(x, y, F)


def exp(x: int) -> int:
    return unary_lane("Exp", x, F)


def ln(x: int) -> int:
    return unary_lane("Ln", x, F)


def sqrt(x: int) -> int:
    return unary_lane("Sqrt", x, F)


def truncate(x: int, mode: RoundMode, dtype: type[Scalar] = F) -> int:
    return truncate_element(x, dtype, mode)


def up(x: int) -> int:
    """``Cast<float, half>``."""
    return convert_element(x, half, F, RoundMode.CAST_RINT, False)


def down(x: int, saturate: bool = False) -> int:
    """``Cast<half, float>`` with ``CAST_RINT``."""
    return convert_element(x, F, half, RoundMode.CAST_RINT, saturate)


def value(x: int) -> float:
    return decode_float(x, F)


def in_float(function, dtype: type[Scalar], x: int, saturate: bool = False) -> int:  # type: ignore[no-untyped-def]
    """*function* of float32 bits, on a half lane cast up and back as the implementations do."""
    if dtype is half:
        return down(function(up(x)), saturate)
    return function(x)


# -- the functions --------------------------------------------------------------------------------

ROUNDING = {
    "Ceil": RoundMode.CAST_CEIL,
    "Floor": RoundMode.CAST_FLOOR,
    "Trunc": RoundMode.CAST_TRUNC,
    "Round": RoundMode.CAST_RINT,  # the 950's Round: ties to even, as Rint
    "Rint": RoundMode.CAST_RINT,
}


def rounding(name: str, x: int, dtype: type[Scalar]) -> int:
    """Ceil, Floor, Trunc, Round, Rint: round to an integral value of the same type."""
    return truncate(x, ROUNDING[name], dtype)


def sign(x: int, dtype: type[Scalar]) -> int:
    """Sign.md: -1, 0 or 1 (NaN and -0.0 give +0, as the compares with 0 find neither)."""
    v = value_of(x, dtype)
    result = -1 if v < 0 else 1 if v > 0 else 0
    if is_float(dtype):
        return encode_float(float(result), dtype)
    return result & ((1 << width(dtype)) - 1)


def classify(name: str, x: int, dtype: type[Scalar]) -> bool:
    """IsFinite / IsInf / IsNan of one lane."""
    v = decode_float(x, dtype)
    return {"IsFinite": math.isfinite(v), "IsInf": math.isinf(v), "IsNan": math.isnan(v)}[name]


def as_bits(flag: bool, dtype: type[Scalar]) -> int:
    """A predicate stored as the destination type: bool 1/0, or 1.0 / 0.0."""
    if dtype is bool_:
        return int(flag)
    return encode_float(1.0 if flag else 0.0, dtype)


def truth(x: int, dtype: type[Scalar]) -> bool:
    """Nonzero (the logical ops): -0.0 is zero, NaN is not."""
    if dtype is bool_:
        return x != 0
    if is_float(dtype):
        v = decode_float(x, dtype)
        return math.isnan(v) or v != 0
    return x != 0


LOGICAL = {
    "LogicalAnd": lambda a, b: a and b,
    "LogicalOr": lambda a, b: a or b,
    "LogicalXor": lambda a, b: a != b,
}


def bitwise(name: str, x: int, y: int, dtype: type[Scalar]) -> int:
    mask = (1 << width(dtype)) - 1
    return {"BitwiseAnd": x & y, "BitwiseOr": x | y, "BitwiseXor": x ^ y}[name] & mask


LN2_RECIPROCAL = 1.4426950408889634
LN10_RECIPROCAL = 0.4342944819032518


def log(name: str, x: int, dtype: type[Scalar]) -> int:
    """Log (the intrinsic on T), Log2 / Log10 (Log in float times the reciprocal constant)."""
    if name == "Log":
        return unary_lane("Ln", x, dtype)
    scale = LN2_RECIPROCAL if name == "Log2" else LN10_RECIPROCAL
    return in_float(lambda f: muls(ln(f), scale), dtype, x, saturate=True)


# -- trigonometric and hyperbolic functions: the implementations' float32 steps, lane by lane ---

ONE_OVER_PI = 0.3183098733425140380859375
PI_PARTS = (3.140625, 0.0009670257568359375, 6.2771141529083251953125e-7,
            1.21644916362129151821136474609375e-10)  # fmt: skip
COS_PI_PART_4 = -1.0290623200529979163359041220560e-13
SIN_POLY = (2.604926501e-6, -0.0001980894471, 0.008333049340, -0.1666665792)


def _sin_tail(x: int, k: int) -> int:
    """sin's odd polynomial of the reduced x, times (-1)^k."""
    x2 = mul(x, x)
    sgn = truncate(muls(k, 0.5), RoundMode.CAST_FLOOR)
    sgn = adds(add(muls(sgn, 4.0), muls(k, -2.0)), 1.0)
    poly = adds(muls(x2, SIN_POLY[0]), SIN_POLY[1])
    for c in SIN_POLY[2:]:
        poly = adds(mul(poly, x2), c)
    poly = adds(mul(poly, x2), 1.0)
    return mul(mul(poly, x), sgn)


def sin32(x: int) -> int:
    """Sin.md (POLYNOMIAL_APPROXIMATION): k = rint(x / pi), x - k pi in four parts, polynomial."""
    k = truncate(muls(x, ONE_OVER_PI), RoundMode.CAST_RINT)
    for part in PI_PARTS:
        x = sub(x, muls(k, part))
    return _sin_tail(x, k)


def cos32(x: int) -> int:
    """Cos.md (POLYNOMIAL_APPROXIMATION): sin(x + pi/2), clamped to [-1, 1]."""
    k = truncate(adds(muls(x, ONE_OVER_PI), 0.5), RoundMode.CAST_RINT)
    x = sub(sub(x, muls(k, PI_PARTS[0])), muls(k, PI_PARTS[1]))
    x = adds(x, 1.57079637050628662109375)
    for part in (*PI_PARTS[2:], COS_PI_PART_4):
        x = sub(x, muls(k, part))
    x = adds(x, -0.00000004371139000189375)
    return maxs(mins(_sin_tail(x, k), 1.0), -1.0)


def _tanh_exp(x: int) -> int:
    e = exp(muls(x, 2.0))
    return div(adds(e, -1.0), adds(e, 1.0))


def tanh32(x: int) -> int:
    """Tanh (INTRINSIC): x clamped to [-8.8, 8.8], (e^2x - 1) / (e^2x + 1)."""
    return _tanh_exp(maxs(mins(x, 8.8), -8.8))


def tanh_compensated32(x: int) -> int:
    """Tanh (SUBSECTION_COMPENSATION): a fused polynomial for |x| < 0.55, else the exp form."""
    x2 = mul(x, x)
    poly = adds(muls(x2, 0.0157296831), -0.0523029624)
    poly = fma(poly, x2, const(0.133152977))
    poly = fma(poly, x2, const(-0.333327681))
    poly = fma(mul(poly, x2), x, x)
    far = _tanh_exp(mins(x, 20.0))
    return poly if abs(value(x)) < value(const(0.55)) else far


def sinh32(x: int) -> int:
    e = exp(adds(x, -0.6931472))
    return sub(e, div(const(0.25), e))


def cosh32(x: int) -> int:
    e = exp(adds(x, -0.6931472))
    return add(e, div(const(0.25), e))


def acosh32(x: int) -> int:
    return ln(add(sqrt(adds(mul(x, x), -1.0)), x))


def atanh32(x: int) -> int:
    return muls(ln(div(adds(x, 1.0), sub(const(1.0), x))), 0.5)


def sigmoid32(x: int) -> int:
    return div(const(1.0), adds(exp(muls(x, -1.0)), 1.0))


FLOAT_FUNCTIONS = {
    "Sin": sin32, "Cos": cos32, "Tanh": tanh32, "Sinh": sinh32, "Cosh": cosh32,
    "Acosh": acosh32, "Atanh": atanh32, "Sigmoid": sigmoid32,
}  # fmt: skip
"""The functions computed in float32 (a half lane cast up and back)."""


def float_function(name: str, x: int, dtype: type[Scalar]) -> int:
    return in_float(FLOAT_FUNCTIONS[name], dtype, x)


def swish(x: int, beta: float, dtype: type[Scalar]) -> int:
    """Swish: x / (1 + e^(-beta x)) on T's lanes, the scalar T(-1.0f * float(beta))."""
    scalar = encode_float(-value(const(beta)), dtype)

    def op(name: str, a: int, b: int) -> int:
        return binary(name, dtype, a, b)

    e = unary_lane("Exp", op("Mul", x, scalar), dtype)
    return div_lane(x, op("Add", e, encode_float(1.0, dtype)), dtype)


# -- Power --------------------------------------------------------------------------------------

NAN_BITS = 0x7FC00000


def _odd_integer(b: int) -> bool:
    v = value(b)
    return math.isfinite(v) and v == math.floor(v) and math.fmod(v, 2.0) != 0.0


def power_special(r: int, a: int, b: int) -> int:
    """Power.md's special cases over the computed power *r* (float32 bits), in the
    implementation's order."""
    va, vb = value(a), value(b)
    if vb == 0 or va == 1:
        return const(1.0)
    if math.isnan(va) or math.isnan(vb):
        return NAN_BITS
    if math.isinf(va) or va == 0:
        flipped = a ^ 0x7F800000 if vb < 0 else a
        return flipped if _odd_integer(b) else flipped & 0x7FFFFFFF
    if va < 0:
        if math.isfinite(vb) and vb != math.floor(vb):
            r = NAN_BITS
        elif _odd_integer(b):
            r ^= 0x80000000
    if va == -1 and math.isinf(vb):
        return const(1.0)
    return r


def power_intrinsic32(a: int, b: int) -> int:
    """INTRINSIC: exp(b * ln|a|) (each step an intrinsic), then the special cases."""
    return power_special(exp(mul(b, ln(a & 0x7FFFFFFF))), a, b)


def _log_extended(a: int) -> tuple[int, int]:
    """The extended logarithm of the implementation (GetLogFExtStepOne/Two), step by step."""
    i = const(0.0)
    if value(a) < value(const(1.175494351e-38)):
        a, i = muls(a, 8388608.0), const(-23.0)
    e = ((a - 0x3F3504F3) & 0xFF800000) & 0xFFFFFFFF
    m = (a - e) & 0xFFFFFFFF
    e_value = signed(e, 32)
    i = fma(encode_float(float(e_value), F), const(1.19209290e-7), i)
    p = adds(m, 1.0)
    m = adds(m, -1.0)
    r = div(const(1.0), p)
    qhi = mul(m, r)
    qhi1 = fma(m ^ 0x80000000, qhi, add(muls(qhi, -2.0), m))
    qlo = mul(r, qhi1)
    s = mul(qhi, qhi)
    poly = fma(s, const(0.129394531), const(0.141957462))
    poly = fma(poly, s, const(0.200015724))
    poly = fma(poly, s, const(0.333333254))
    poly = mul(poly, s)
    qhi, qlo = add(qhi, qhi), add(qlo, qlo)
    first_hi = add(muls(i, 6.93147182e-1), qhi)
    first_lo = sub(qhi, fma(i, const(-6.93147182e-1), first_hi))
    second_lo = fma(qhi, poly, first_lo)
    last_lo = fma(muls(qlo, 3.0), poly, qlo)
    sum_lo = add(fma(i, const(-1.90465421e-9), last_lo), second_lo)
    high = add(first_hi, sum_lo)
    return high, add(sub(first_hi, high), sum_lo)


def power_double32(a: int, b: int) -> int:
    """DOUBLE_FLOAT_TECH: the extended logarithm, exp with the product's error fed back."""
    high, low = _log_extended(a & 0x7FFFFFFF)
    phi = mul(high, b)
    plo = fma(low, b, fma(high, b, phi ^ 0x80000000))
    r = exp(phi)
    r = fma(plo, r, r)
    vphi = value(phi)
    if vphi >= value(const(88.7228390)) or vphi < -104.0:
        r = const(math.inf) if vphi >= 0 else const(0.0)
    return power_special(r, a, b)


def power_float(a: int, b: int, dtype: type[Scalar], double_float: bool) -> int:
    """A half, bfloat16 or float lane: cast up, the float32 steps, cast back (CAST_RINT)."""
    core = power_double32 if double_float else power_intrinsic32
    if dtype is F:
        return core(a, b)
    up_ = lambda x: convert_element(x, dtype, F, RoundMode.CAST_RINT, False)  # noqa: E731
    result = core(up_(a), up_(b))
    return convert_element(result, F, dtype, RoundMode.CAST_RINT, False)


def power_int(a: int, b: int, dtype: type[Scalar]) -> int:
    """Integers: a ** b modulo 2**bits; b == 0 or a == 1: 1; signed b < 0: 0, or +-1 for a == -1."""
    bits = width(dtype)
    va, vb = value_of(a, dtype), value_of(b, dtype)
    if vb == 0 or va == 1:
        return 1
    if vb < 0:
        return (-1 if vb % 2 else 1) & ((1 << bits) - 1) if va == -1 else 0
    return pow(va, vb, 1 << bits)


def signed_value(x: int, dtype: type[Scalar]) -> int:
    return signed(x, width(dtype))


__all__ = ["bfloat16_t"]  # (re-exported for the tests' dtype lists)

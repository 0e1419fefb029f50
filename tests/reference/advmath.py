"""The advanced API's math (数学计算) one lane at a time, on bit patterns.

Each function follows the page (and, where the page leaves the algorithm open, the steps of the
dav-3510 implementation that ascreg documents it follows) with the per-lane references of the
register ops it is made of (tests/reference/arith.py, elementary.py, compound.py, convert.py):
an independent, scalar path to the vectorised :mod:`ascreg.core.advmath`. Nothing here calls
ascreg's core.
"""

from __future__ import annotations

import math

from ascreg import RoundMode, bfloat16_t, bool_, float32_t, half, int8_t, int32_t
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

SATURATING = {"Tan"}
"""The float functions whose half result is cast back saturating."""
"""The functions computed in float32 (a half lane cast up and back)."""


def float_function(name: str, x: int, dtype: type[Scalar]) -> int:
    return in_float(FLOAT_FUNCTIONS[name], dtype, x, saturate=name in SATURATING)


def swish(x: int, beta: float, dtype: type[Scalar]) -> int:
    """Swish: x / (1 + e^(-beta x)) on T's lanes, the scalar T(-1.0f * float(beta))."""
    scalar = encode_float(-value(const(beta)), dtype)

    def op(name: str, a: int, b: int) -> int:
        return binary(name, dtype, a, b)

    e = unary_lane("Exp", op("Mul", x, scalar), dtype)
    return div_lane(x, op("Add", e, encode_float(1.0, dtype)), dtype)


# -- inverse trigonometric functions, Tan, Erf, Erfc, the Gelus ----------------------------------

HALF_PI = 1.5707963267948966
BOUNDARY = 0.7071067811865476
ASIN_COEF = (1.0, 0.16666666666666666, 0.075, 0.04464285714285714, 0.030381944444444444,
             0.022372159090909092, 0.017352764423076924, 0.01396484375)  # fmt: skip


def _ops(dtype: type[Scalar]):  # type: ignore[no-untyped-def]
    """Mul / Add / Muls / Adds / Mins / Div / Sqrt on *dtype* lanes (scalars rounded to it)."""
    c = lambda v: encode_float(v, dtype)  # noqa: E731
    return (
        lambda a, b: binary("Mul", dtype, a, b),
        lambda a, b: binary("Add", dtype, a, b),
        lambda a, v: binary("Mul", dtype, a, c(v)),
        lambda a, v: binary("Add", dtype, a, c(v)),
        lambda a, v: binary("Min", dtype, a, c(v)),
        lambda a, b: div_lane(a, b, dtype),
        lambda a: unary_lane("Sqrt", a, dtype),
    )


def _abs(x: int, dtype: type[Scalar] = F) -> int:
    return x & ~(1 << (width(dtype) - 1))


def _asin_series(d: int, square: int, dtype: type[Scalar], coef) -> int:  # type: ignore[no-untyped-def]
    mul_, _, muls_, adds_, _, _, _ = _ops(dtype)
    d = adds_(muls_(d, coef(ASIN_COEF[7])), coef(ASIN_COEF[6]))
    for k in (5, 4, 3, 2, 1, 0):
        d = adds_(mul_(d, square), coef(ASIN_COEF[k]))
    return d


def _sign_ratio(x: int, dtype: type[Scalar]) -> int:
    _, _, muls_, adds_, _, div_, _ = _ops(dtype)
    big, small = (2.0**62, 2.0**-62) if dtype is F else (2.0**15, 2.0**-15)
    scaled = muls_(x, big)
    return div_(scaled, adds_(_abs(scaled, dtype), small))


def _choice(magnitude: int, dtype: type[Scalar], integer: type[Scalar]) -> int:
    """floor(min(|x|, 1/sqrt 2) - 1/sqrt 2) as *dtype*: -1 below the boundary, else 0."""
    _, _, _, adds_, mins_, _, _ = _ops(dtype)
    shifted = adds_(mins_(magnitude, BOUNDARY), -BOUNDARY)
    whole = convert_element(shifted, dtype, integer, RoundMode.CAST_FLOOR, True)
    return convert_element(whole, integer, dtype, RoundMode.CAST_RINT, False)


def asin_lane(x: int, dtype: type[Scalar], acos: bool) -> int:
    """Asin.md / Acos.md: blend of the near series and pi/2 - series(sqrt(1 - x^2))."""
    f = float
    h = lambda v: value_of(encode_float(v, half), half)  # noqa: E731  (static_cast<half>)
    if dtype is F:
        square = mul(x, x)
        root = sqrt(adds(muls(mul(x, x), -1.0), 1.0))
        far = mul(_asin_series(mul(root, root), mul(root, root), F, f), root)
        far = adds(muls(far, -1.0), HALF_PI)
        near = mul(_asin_series(muls(square, 1.0), square, F, f), sqrt(square))
        choice = muls(_choice(sqrt(square), F, int32_t), -1.0)
        blended = add(mul(near, choice), mul(far, adds(muls(choice, -1.0), 1.0)))
        result = mul(blended, _sign_ratio(x, F))
        return muls(adds(result, -HALF_PI), -1.0) if acos else result
    hmul, _, hmuls, hadds, _, _, _ = _ops(half)
    xf = up(x)
    rest = adds(muls(mul(xf, xf), -1.0), 1.0)
    far = mul(_asin_series(muls(rest, h(1.0)), rest, F, h), sqrt(rest))
    far = adds(muls(far, -1.0), HALF_PI)
    magnitude = _abs(x, half)
    hsq = hmul(magnitude, magnitude)
    near = hmul(_asin_series(hsq, hsq, half, f), magnitude)
    choice = hmuls(_choice(magnitude, half, int8_t), -1.0)
    near = hmul(near, choice)
    other = up(hadds(hmuls(choice, -1.0), 1.0))
    result = mul(add(up(near), mul(far, other)), up(_sign_ratio(x, half)))
    if acos:
        result = muls(adds(result, -HALF_PI), -1.0)
    return down(result, saturate=True)


ATAN_FACTORS = (1.0, -0.3333333333333333, 0.2, -0.14285714285714285, 0.1111111111111111,
                -0.09090909090909091, 0.07692307692307693)  # fmt: skip


def _atan_series(x: int, level: int) -> int:
    square = mul(x, x)
    d = muls(mul(x, x), ATAN_FACTORS[level])
    if level == 6:
        d = adds(mul(adds(d, ATAN_FACTORS[6]), square), ATAN_FACTORS[5])
    d = adds(d, ATAN_FACTORS[4])
    for k in (3, 2, 1, 0):
        d = adds(mul(d, square), ATAN_FACTORS[k])
    return mul(d, x)


def _fmin(a: int, b: int) -> int:
    return binary("Min", F, a, b)


def _transform(x: int, factor: float) -> int:
    return _abs(div(adds(x, -factor), adds(muls(x, factor), 1.0)))


def atan32(x: int) -> int:
    """Atan.md (TAYLOR_EXPANSION): the least of four range-reduced series, signed."""
    clipped = maxs(mins(x, 10000.0), -10000.0)
    a = _abs(clipped)
    d = _atan_series(a, 4)
    d = _fmin(d, adds(_atan_series(_transform(a, 0.4142135623730950), 4), 0.39269908169872414))
    t = _abs(div(adds(a, -1.0), adds(a, 1.0)))
    d = _fmin(d, adds(_atan_series(t, 4), 0.7853981633974483))
    far = adds(adds(_atan_series(_transform(t, 0.4142135623730950), 6), 0.39269908169872414),
               0.7853981633974483)  # fmt: skip
    return mul(_fmin(d, far), _sign_ratio(clipped, F))


ATAN_POLY = (-0.333329409, 0.199887753, -0.141718030, 0.105184801, -0.0725297481, 0.0398497507,
             -0.0143969795, 0.00245002890)  # fmt: skip


def atan_polynomial32(x: int) -> int:
    """Atan (POLYNOMIAL_APPROXIMATION): fused odd polynomial of min(|x|, 1/|x|), sign bit ORed."""
    a = _abs(x)
    above = value(a) >= 1.0
    xc = div(const(1.0), a) if above else a
    s = mul(xc, xc)
    y = fma(const(ATAN_POLY[7]), s, const(ATAN_POLY[6]))
    for k in (5, 4, 3, 2, 1, 0):
        y = fma(y, s, const(ATAN_POLY[k]))
    t = fma(mul(y, s), xc, xc)
    if above:
        t = fma(const(1.68325555), const(0.933189452), t ^ 0x80000000)
    return t | (x & 0x80000000)


TAN_PI = (3.140625, 0.0009670257568359375, 6.2771141529083251953125e-7,
          1.21644916362129151821136474609375e-10, -1.0291767438275201129727065563201904296875e-13)  # fmt: skip
TAN_R = (0.0698520831551998762793, -6.8711573651634203789, 61.20362572811089435388,
         -24.8048928861126769186219)  # fmt: skip


def tan32(x: int) -> int:
    """Tan.md: k = rint(x / pi), x - k pi in five parts with pi/2 +- x alongside, rational P/Q."""
    k = truncate(muls(x, ONE_OVER_PI), RoundMode.CAST_RINT)
    r = sub(sub(x, muls(k, TAN_PI[0])), muls(k, TAN_PI[1]))
    hi, lo = adds(r, 1.57079637050628662109375), adds(r, -1.57079637050628662109375)
    t = muls(k, TAN_PI[2])
    r, hi, lo = sub(r, t), sub(hi, t), sub(lo, t)
    hi, lo = adds(hi, -0.00000004371139000189375), adds(lo, 0.00000004371139000189375)
    for part in TAN_PI[3:]:
        t = muls(k, part)
        r, hi, lo = sub(r, t), sub(hi, t), sub(lo, t)
    s = mul(r, r)
    p = mul(adds(mul(adds(muls(s, TAN_R[0]), TAN_R[1]), s), TAN_R[2]), r)
    return div(p, mul(mul(adds(s, TAN_R[3]), hi), lo))


ERF_P = (0.29639384698e5, 0.50637915060e4, 0.13938061484e4, 0.10162808918e3, 0.75517016694e1,
         0.053443748819)  # fmt: skip
ERF_Q = (0.26267224157e5, 0.13243365831e5, 0.30231248150e4, 0.39856963806e3, 0.31212858877e2)


def erf_pade32(x: int) -> int:
    """Erf.md (PADE_APPROXIMATION): P(c) / Q(c), c = x clamped to +-3.92."""
    c = maxs(mins(x, 3.92), -3.92)
    s = mul(c, c)
    p = adds(muls(s, ERF_P[5]), ERF_P[4])
    for k in (3, 2, 1, 0):
        p = adds(mul(p, s), ERF_P[k])
    q = adds(s, ERF_Q[4])
    for k in (3, 2, 1, 0):
        q = adds(mul(q, s), ERF_Q[k])
    return div(mul(p, c), q)


ERF_NEAR = (0x38B1E96A, 0xBA574D20, 0x3BAAD5EA, 0xBCDC1BE7, 0x3DE718AF, 0xBEC093AC, 0x3E0375D3)
ERF_FAR = (0x38EB4C3A, 0xBAAE005B, 0x3C09919F, 0xBD24D99A, 0x3E235519, 0x3F69B4F9, 0x3F210A14)
ERF_SPLIT = 0x3F8060FE


def erf_subsection32(x: int) -> int:
    """Erf (SUBSECTION_POLYNOMIAL_APPROXIMATION): near/far fused polynomials, 1 - 2^p far."""
    a = _abs(x)
    far = value(a) >= value(ERF_SPLIT)
    coef = ERF_FAR if far else ERF_NEAR
    f7 = a if far else mul(x, x)
    f = coef[0]
    for k in range(1, 7):
        f = fma(f, f7, coef[k])
    f22 = a ^ 0x80000000 if far else x
    f26 = fma(f, f22, f22)
    if value(a) < value(ERF_SPLIT):
        return f26
    f25 = sub(const(1.0), exp(mul(f26, ln(const(2.0)))))
    return (x & 0x80000000) | f25


ERFC_R = (0.1735313680e-7, -0.9856738394e-6, 0.2517003236e-4, -0.3848015171e-3, 0.5681528564e0,
          0.5245623129e1, 0.2107740710e2, 0.4212761755e2, 0.4380524149e2)  # fmt: skip
ERFC_S = (0.9349684299e1, 0.3756930664e2, 0.8058268949e2, 0.9155653738e2, 0.4380524152e2)


def erfc32(x: int) -> int:
    """Erfc.md: e^(-xa^2) (x / xa) R(z) / S(z) + (1 - x / xa)."""
    c = maxs(mins(x, 10.0), -10.0)
    xa = adds(_abs(c), 2.0**-62)
    e = exp(mul(xa, xa) ^ 0x80000000)
    z = mins(xa, 10.0)
    xb = div(c, xa)
    r = adds(mul(z, const(ERFC_R[0])), ERFC_R[1])
    for k in range(2, 9):
        r = adds(mul(r, z), ERFC_R[k])
    s = adds(z, ERFC_S[0])
    for k in range(1, 5):
        s = adds(mul(s, z), ERFC_S[k])
    return add(div(mul(mul(e, xb), r), s), sub(const(1.0), xb))


def gelu_lane(name: str, x: int, dtype: type[Scalar]) -> int:
    """Gelu / FasterGelu / FasterGeluV2 on *dtype* lanes (constants rounded to it)."""
    mul_, add_, muls_, adds_, mins_, div_, _ = _ops(dtype)
    exp_ = lambda a: unary_lane("Exp", a, dtype)  # noqa: E731
    if name == "Gelu":
        t = muls_(add_(muls_(mul_(mul_(x, x), x), 0.044715), x), 1.5957691216057308)
        return mul_(exp_(mins_(t, 0.0)), div_(x, adds_(exp_(muls_(_abs(t, dtype), -1.0)), 1.0)))
    if name == "FasterGelu":
        return div_(x, adds_(exp_(muls_(x, -1.702)), 1.0))
    a = adds_(mins_(_abs(muls_(x, 0.7071), dtype), 1.769), -1.769)
    a = adds_(muls_(mul_(a, a), -0.1444), 0.5)
    shifted = adds_(x, 0.000000000001)
    a = adds_(mul_(a, div_(shifted, _abs(shifted, dtype))), 0.5)
    return mul_(x, a)


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

FLOAT_FUNCTIONS.update(
    {
        "Atan": atan32,
        "AtanPolynomial": atan_polynomial32,
        "Tan": tan32,
        "Erf": erf_pade32,
        "ErfSubsection": erf_subsection32,
        "Erfc": erfc32,
    }
)

"""Binary arithmetic and logic, Not, Abs, Neg, Relu and Arange on bit patterns (spec §5, §7)."""

from __future__ import annotations

import math
from fractions import Fraction

from ascreg import bfloat16_t, float32_t
from ascreg._dtypes import Scalar
from reference.common import (
    decode_float,
    encode_float,
    is_float,
    sign_bit,
    signed,
    value_of,
    width,
    wrap,
)
from reference.elementary import div_lane


def _float_binary(op: str, x: float, y: float) -> float:
    if op == "Add":
        return x + y
    if op == "Sub":
        return x - y
    return x * y  # Python floats: inf * 0 is NaN, overflow is inf


def _round_through(value: float, dtype: type[Scalar]) -> int:
    """Round an exactly-or-double-computed result to *dtype*.

    Doubles carry 53 bits, at least 2p+2 for every target here, so rounding a double result
    once more is the correctly rounded result for + - * (half, float). bfloat16 is defined by
    the spec as fp32 arithmetic rounded to bf16 (RNE), so it goes through float32 first.
    """
    if dtype is bfloat16_t:
        return encode_float(decode_float(encode_float(value, float32_t), float32_t), bfloat16_t)
    return encode_float(value, dtype)


def binary(op: str, dtype: type[Scalar], x: int, y: int) -> int:
    """One lane of Add/Sub/Mul/Max/Min/And/Or/Xor/Prelu on bit patterns."""
    w = width(dtype)
    if op == "Div":  # the C API's asc_div: the default (flushing) mode of Reg.Div
        return div_lane(x, y, dtype)
    if op in ("And", "Or", "Xor"):
        return {"And": x & y, "Or": x | y, "Xor": x ^ y}[op]
    if is_float(dtype):
        a, b = decode_float(x, dtype), decode_float(y, dtype)
        if op == "Prelu":  # Prelu.md: src0 > 0 ? src0 : src0 * src1 (NaN, -0, +0 take the product)
            return x if a > 0 else _round_through(_float_binary("Mul", a, b), dtype)
        if op in ("Max", "Min"):
            if math.isnan(a) or math.isnan(b):
                return encode_float(math.nan, dtype)
            if a == 0 and b == 0:  # max(-0, +0) = +0, min(-0, +0) = -0
                sign = 1 << (w - 1)
                neg = (x & sign and y & sign) if op == "Max" else (x & sign or y & sign)
                return sign if neg else 0
            return x if (a > b) == (op == "Max") else y
        return _round_through(_float_binary(op, a, b), dtype)
    a, b = value_of(x, dtype), value_of(y, dtype)
    if op == "Max":
        return x if a >= b else y
    if op == "Min":
        return x if a <= b else y
    result = {"Add": a + b, "Sub": a - b, "Mul": a * b}[op]
    return wrap(result, dtype)


def bit_not(x: int, dtype: type[Scalar]) -> int:
    return ~x & ((1 << width(dtype)) - 1)


def abs_lane(x: int, dtype: type[Scalar]) -> int:
    """``Abs``: integers wrap (abs(INT_MIN) = INT_MIN); floats clear the sign bit."""
    if is_float(dtype):
        return x & ~sign_bit(dtype)
    return wrap(abs(signed(x, width(dtype))), dtype)


def neg_lane(x: int, dtype: type[Scalar]) -> int:
    """``Neg``: integers wrap (-INT_MIN = INT_MIN); floats flip the sign bit."""
    if is_float(dtype):
        return x ^ sign_bit(dtype)
    return wrap(-value_of(x, dtype), dtype)


def relu_lane(x: int, dtype: type[Scalar]) -> int:
    """``asc_relu`` (asc_relu.md): ``src >= 0 ? src : 0``; -0 >= 0 holds, NaN >= 0 does not."""
    value = decode_float(x, dtype) if is_float(dtype) else value_of(x, dtype)
    return x if value >= 0 else 0


SIGN_LANES = {"Abs": abs_lane, "Neg": neg_lane, "Relu": relu_lane}
"""The exact unary references by family name."""


def arange(dtype: type[Scalar], start: int, lanes: int, decrease: bool, span: int) -> list[int]:
    """``Arange``: lane i = start + i (or start + span - 1 - i), integers wrapped, floats
    rounded once (to nearest even) from the exact sum."""
    out = []
    for i in range(lanes):
        offset = span - 1 - i if decrease else i
        if not is_float(dtype):
            out.append(wrap(value_of(start, dtype) + offset, dtype))
            continue
        x = decode_float(start, dtype)
        if math.isnan(x) or math.isinf(x):
            out.append(encode_float(x, dtype))  # NaN stays NaN, inf + i = inf
        else:
            out.append(encode_float(Fraction(x) + offset, dtype))  # -0 + 0 = +0
    return out


def duplicate_register(src: list[int]) -> list[int]:
    """``Duplicate(dst, srcReg, mask)``: every lane gets the bits of ``srcReg`` lane 0 (LOWEST)."""
    return [src[0]] * len(src)


def scalar_formula(family: str) -> str:
    """The :func:`binary` op a scalar form applies with every ``src1`` lane the scalar.

    ``Adds`` is ``Add``'s; ``LeakyRelu`` (LeakyRelu.md: ``src > 0 ? src : src * scalar``) is
    ``Prelu``'s.
    """
    return "Prelu" if family == "LeakyRelu" else family.removesuffix("s")

"""Compound and carry arithmetic on bit patterns, written from the pages (复合计算, AddC, SubC, Mull).

* MulAddDst / MulDstAdd / Axpy: the precision appendix says "equivalent to Fma(x, y, z)": the
  exact ``x * y + z`` (a :class:`~fractions.Fraction`) rounded once; integers wrap.
* AbsSub: ``Abs(Sub(x, y))``; ExpSub: ``Exp(Sub(f32(x), f32(y)))`` with Exp's default (flushing)
  mode.
* Mull: ``(x * y) mod 2**32`` and the high word ``floor(x * y / 2**32)``.
* AddC / SubC: ``{carry, dst} = x + y + c`` / ``x + ~y + c`` on the unsigned bits.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ascreg import float32_t
from ascreg._dtypes import Scalar
from reference.arith import abs_lane, binary
from reference.common import decode_float, encode_float, is_float, value_of, width, wrap
from reference.elementary import unary_lane


def _negative(bits: int, dtype: type[Scalar]) -> bool:
    return bool(bits >> (width(dtype) - 1) & 1)


def fma_lane(x: int, y: int, z: int, dtype: type[Scalar]) -> int:
    """``x * y + z`` rounded once to nearest even (IEEE fusedMultiplyAdd); integers wrap."""
    if not is_float(dtype):
        return wrap(value_of(x, dtype) * value_of(y, dtype) + value_of(z, dtype), dtype)
    a, b, c = (decode_float(v, dtype) for v in (x, y, z))
    if any(math.isnan(v) or math.isinf(v) for v in (a, b, c)):
        return encode_float(a * b + c, dtype)  # inf * 0, inf - inf: NaN; else the infinity
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # a zero sum is -0 only when both addends are -0 (round to nearest)
        product_negative = _negative(x, dtype) != _negative(y, dtype)
        both_negative = product_negative and _negative(z, dtype) and (a == 0 or b == 0)
        return encode_float(exact, dtype, negative_zero=bool(both_negative))
    return encode_float(exact, dtype)


MULTIPLY_ADDS = {
    "MulAddDst": lambda src0, src1, dst, dtype: fma_lane(src0, src1, dst, dtype),
    "MulDstAdd": lambda src0, src1, dst, dtype: fma_lane(dst, src0, src1, dtype),
    "Axpy": lambda src, scalar, dst, dtype: fma_lane(scalar, src, dst, dtype),
}
"""Each multiply-add as ``f(first source, second source or scalar, old dst, dtype)``."""


def abs_sub_lane(x: int, y: int, dtype: type[Scalar]) -> int:
    """``|x - y|``: the difference rounded (or wrapped), then its sign cleared."""
    return abs_lane(binary("Sub", dtype, x, y), dtype)


def exp_sub_lane(x: int, y: int, dtype: type[Scalar]) -> int:
    """``exp(f32(x) - f32(y))`` as float32 bits: one rounding of the difference, then Exp."""
    a, b = decode_float(x, dtype), decode_float(y, dtype)
    if any(math.isnan(v) or math.isinf(v) for v in (a, b)):
        difference = encode_float(a - b, float32_t)
    else:
        difference = encode_float(Fraction(a) - Fraction(b), float32_t, negative_zero=False)
    return unary_lane("Exp", difference, float32_t, ftz=True)


def mull_lane(x: int, y: int, dtype: type[Scalar]) -> tuple[int, int]:
    """The low and the high word of the exact product (the high word floors)."""
    product = value_of(x, dtype) * value_of(y, dtype)
    return wrap(product, dtype), wrap(product >> width(dtype), dtype)


def carry_lane(x: int, y: int, carry_in: int, *, subtract: bool) -> tuple[int, int]:
    """``{carry, sum} = x + y + carry_in`` (``x + ~y + carry_in``) on 32-bit patterns."""
    second = ~y & 0xFFFFFFFF if subtract else y
    total = x + second + carry_in
    return total & 0xFFFFFFFF, total >> 32

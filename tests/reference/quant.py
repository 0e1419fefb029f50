"""AscendQuant one element at a time on bit patterns (the register-op and cast references).

AscendQuant.md gives ``dst = cast(src * scale + offset)``; the dav-3510 order is: int8_t and
hifloat8_t in half (source, scale and offset to half first, ``CAST_RINT`` saturating for a
tensor, a C cast for a scalar), fp8 in float; then the product and the sum each rounded to the
working type; then the cast to the destination (int8_t and fp8 to nearest even, hifloat8_t half
away from zero; saturating). Nothing here calls ascreg's core.
"""

from __future__ import annotations

from ascreg import (
    RoundMode,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int16_t,
    int32_t,
    uint64_t,
)
from ascreg._dtypes import Scalar
from reference.arith import binary
from reference.common import decode_float, encode_float
from reference.convert import convert_element


def working_type(dst: type[Scalar]) -> type[Scalar]:
    """half for int8_t / hifloat8_t, float for the fp8 types."""
    return float32_t if dst in (fp8_e4m3fn_t, fp8_e5m2_t) else half


def tensor_param(bits: int, src: type[Scalar], dst: type[Scalar]) -> int:
    """A source or parameter element's bits in the working type (the vector Cast)."""
    work = working_type(dst)
    if src is work:
        return bits
    return convert_element(bits, src, work, RoundMode.CAST_RINT, True)


def scalar_param(value: float, src: type[Scalar], dst: type[Scalar]) -> int:
    """A scalar scale / offset (a C value of *src*) in the working type: C casts via float."""
    as_src = decode_float(encode_float(value, src), src)
    as_float = decode_float(encode_float(as_src, float32_t), float32_t)
    return encode_float(as_float, working_type(dst))


def quant_element(x: int, src: type[Scalar], dst: type[Scalar], scale: int, offset: int) -> int:
    """One destination element's bits from the source element *x* and working-type parameters."""
    work = working_type(dst)
    y = binary("Add", work, binary("Mul", work, tensor_param(x, src, dst), scale), offset)
    mode = RoundMode.CAST_ROUND if dst is hifloat8_t else RoundMode.CAST_RINT
    return convert_element(y, work, dst, mode, True)


def dequant_scale(bits: int, scale_t: type[Scalar]) -> int:
    """A deqScale element's float32 bits: bfloat16 widened exactly, uint64_t's low word."""
    if scale_t is uint64_t:
        return bits & 0xFFFFFFFF
    if scale_t is float32_t:
        return bits
    return encode_float(decode_float(bits, scale_t), float32_t)


def dequant_element(x: int, scale: int, dst: type[Scalar]) -> int:
    """AscendDequant of one int32 element's bits by a float32 scale's bits (AscendDequant.md:
    both to float, multiply, cast to dstT; int32 -> float rounds half away from zero on the
    950, float -> half / bfloat16 to nearest even, saturating)."""
    wide = convert_element(x, int32_t, float32_t, RoundMode.CAST_ROUND, False)
    product = binary("Mul", float32_t, wide, scale)
    if dst is float32_t:
        return product
    return convert_element(product, float32_t, dst, RoundMode.CAST_RINT, True)


def antiquant_element(x: int, src: type[Scalar], dst: type[Scalar], offset: int, scale: int) -> int:
    """PER_TENSOR AscendAntiQuant of one element's bits: ``(x + offset) * scale``
    (AscendAntiQuant.md), *offset* and *scale* bits of *dst*. fp8 sources and bfloat16
    destinations compute in float, int8_t / hifloat8_t to half in half; each step rounded."""
    fp8 = src in (fp8_e4m3fn_t, fp8_e5m2_t)
    work = half if dst is half and not fp8 else float32_t
    if fp8:
        wide = convert_element(x, src, float32_t, RoundMode.CAST_RINT, False)
    else:
        wide = convert_element(x, src, half, RoundMode.CAST_RINT, False)
        if work is float32_t:
            wide = convert_element(wide, half, float32_t, RoundMode.CAST_RINT, False)
    if work is float32_t:
        offset = encode_float(decode_float(offset, dst), float32_t)
        scale = encode_float(decode_float(scale, dst), float32_t)
    y = binary("Mul", work, binary("Add", work, wide, offset), scale)
    if work is dst:
        return y
    return convert_element(y, float32_t, dst, RoundMode.CAST_RINT, True)


def antiquant_channel_element(x: int, src: type[Scalar], dst: type[Scalar], offset: int,
                              scale: int) -> int:  # fmt: skip
    """PER_CHANNEL AscendAntiQuant of one element by its column's offset and scale bits: as
    PER_TENSOR, except that an int8_t / hifloat8_t source to bfloat16 goes half -> bfloat16
    (to nearest even) and adds and multiplies in bfloat16."""
    if dst is half or src in (fp8_e4m3fn_t, fp8_e5m2_t):
        return antiquant_element(x, src, dst, offset, scale)
    wide = convert_element(x, src, half, RoundMode.CAST_RINT, False)
    narrow = convert_element(wide, half, dst, RoundMode.CAST_RINT, False)
    return binary("Mul", dst, binary("Add", dst, narrow, offset), scale)


def antiquantize_element(x: int, src: type[Scalar], dst: type[Scalar], param_t: type[Scalar],
                         offset: int | None, scale: int) -> int:  # fmt: skip
    """``AntiQuantize`` of one element's bits (AntiQuantize.md; every policy of an 8-bit
    source computes in float): the source widens to float (fp8 directly, int8_t / hifloat8_t
    through half), the *offset* (bits of *param_t*; None: no offset) is added and the *scale*
    multiplied, each rounded to float, then the result is cast to *dst* to nearest even,
    saturating (a float *dst* keeps it)."""
    if src in (fp8_e4m3fn_t, fp8_e5m2_t):
        y = convert_element(x, src, float32_t, RoundMode.CAST_RINT, False)
    else:
        wide = convert_element(x, src, half, RoundMode.CAST_RINT, False)
        y = convert_element(wide, half, float32_t, RoundMode.CAST_RINT, False)
    if offset is not None:
        y = binary("Add", float32_t, y, encode_float(decode_float(offset, param_t), float32_t))
    y = binary("Mul", float32_t, y, encode_float(decode_float(scale, param_t), float32_t))
    if dst is float32_t:
        return y
    return convert_element(y, float32_t, dst, RoundMode.CAST_RINT, True)


QUANTIZE_INT8_ROUNDINGS = (RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR,
                           RoundMode.CAST_CEIL, RoundMode.CAST_TRUNC)  # fmt: skip


def quantize_element(x: int, src: type[Scalar], dst: type[Scalar], param_t: type[Scalar],
                     scale: int, offset: int | None, rounding: RoundMode) -> int:  # fmt: skip
    """``Quantize`` of one element's bits (Quantize.md, quantize_impl.h): the source widened to
    float, times the *scale* then plus the *offset* (bits of *param_t*; None: no offset), each
    rounded to float; then, saturating, to fp8 to nearest even; to hifloat8 with *rounding*
    when it is CAST_ROUND or CAST_HYBRID, else CAST_ROUND; to int8 through int16 (*rounding*
    when the table lists it for int8, else CAST_RINT), half and int8 to nearest even."""
    y = x if src is float32_t else convert_element(x, src, float32_t, RoundMode.CAST_RINT, False)
    y = binary("Mul", float32_t, y, encode_float(decode_float(scale, param_t), float32_t))
    if offset is not None:
        y = binary("Add", float32_t, y, encode_float(decode_float(offset, param_t), float32_t))
    if dst in (fp8_e4m3fn_t, fp8_e5m2_t):
        return convert_element(y, float32_t, dst, RoundMode.CAST_RINT, True)
    if dst is hifloat8_t:
        keep = rounding in (RoundMode.CAST_ROUND, RoundMode.CAST_HYBRID)
        return convert_element(y, float32_t, dst, rounding if keep else RoundMode.CAST_ROUND, True)
    mode = rounding if rounding in QUANTIZE_INT8_ROUNDINGS else RoundMode.CAST_RINT
    wide = convert_element(y, float32_t, int16_t, mode, True)
    narrow = convert_element(wide, int16_t, half, RoundMode.CAST_RINT, True)
    return convert_element(narrow, half, dst, RoundMode.CAST_RINT, True)

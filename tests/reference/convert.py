"""Scalar reference of ``Cast`` / ``Truncate``: one element at a time, exact ``Fraction`` arithmetic.

Written from the Cast, RoundMode, RegLayout and Truncate pages (and the decisions in
docs/semantics.md, "Conversions"), never from ``ascreg.core.convert``: every format is decoded
and encoded from its field layout, hifloat8 by the page's bit-level pseudocode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ascreg import (
    RoundMode,
    bfloat16_t,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4x2_t,
)
from ascreg._dtypes import Kind, Scalar

NAN = "nan"
"""A decoded NaN (its sign is carried separately)."""

# (exponent bits, mantissa bits, has inf, NaN rule) of each binary format; NaN rule: "ieee"
# (exponent all ones, mantissa != 0), "ones" (every bit but the sign set), None (no NaN).
FORMATS: dict[type[Scalar], tuple[int, int, bool, str | None]] = {
    half: (5, 10, True, "ieee"),
    bfloat16_t: (8, 7, True, "ieee"),
    float32_t: (8, 23, True, "ieee"),
    fp8_e5m2_t: (5, 2, True, "ieee"),
    fp8_e4m3fn_t: (4, 3, False, "ones"),
    fp4x2_e2m1_t: (2, 1, False, None),
    fp4x2_e1m2_t: (1, 2, False, None),
}
NIBBLES = (int4x2_t, fp4x2_e2m1_t, fp4x2_e1m2_t)


def elem_bits(dtype: type[Scalar]) -> int:
    return 4 if dtype in NIBBLES else 8 * dtype.size


# ---- binary formats -------------------------------------------------------------------------


def _bias(ebits: int) -> int:
    return max((1 << (ebits - 1)) - 1, 1)  # e1m2: bias 1 (the SDK's fp4 -> bf16 table)


def decode(bits: int, dtype: type[Scalar]) -> tuple[bool, Fraction | float | str]:
    """(negative, value) of one element; value is a Fraction, ``math.inf`` or :data:`NAN`."""
    if dtype is hifloat8_t:
        return decode_hif8(bits)
    if dtype is fp8_e8m0_t:  # dav-3510: the code is the bfloat16 exponent field, 255 NaN
        return False, NAN if bits == 255 else decode(bits << 7, bfloat16_t)[1]
    ebits, mbits, _inf, nan_rule = FORMATS[dtype]
    total = 1 + ebits + mbits
    negative = bool(bits >> (total - 1) & 1)
    field, man = (bits >> mbits) & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    top = (1 << ebits) - 1
    if nan_rule == "ieee" and field == top:
        return negative, (math.inf if man == 0 else NAN)
    if nan_rule == "ones" and field == top and man == (1 << mbits) - 1:
        return negative, NAN
    if field == 0:
        value = Fraction(man, 1 << mbits) * Fraction(2) ** (1 - _bias(ebits))
    else:
        value = (1 + Fraction(man, 1 << mbits)) * Fraction(2) ** (field - _bias(ebits))
    return negative, value


def largest(dtype: type[Scalar]) -> Fraction:
    ebits, mbits, has_inf, nan_rule = FORMATS[dtype]
    top = (1 << ebits) - 1
    field, man = (top - 1, (1 << mbits) - 1) if has_inf else (top, (1 << mbits) - 1)
    if nan_rule == "ones":
        man -= 1
    return (1 + Fraction(man, 1 << mbits)) * Fraction(2) ** (field - _bias(ebits))


def binary_exponent(value: Fraction) -> int:
    """floor(log2(value)) of a positive Fraction, exactly."""
    exponent = value.numerator.bit_length() - value.denominator.bit_length()
    while Fraction(2) ** exponent > value:
        exponent -= 1
    while Fraction(2) ** (exponent + 1) <= value:
        exponent += 1
    return exponent


def carries(mode: RoundMode, rest: Fraction, odd: bool, negative: bool) -> bool:
    """The RoundMode page's carry rule for a dropped part *rest* in [0, 1) of one unit."""
    if mode is RoundMode.CAST_ROUND:
        return rest >= Fraction(1, 2)
    if mode is RoundMode.CAST_FLOOR:
        return rest > 0 and negative
    if mode is RoundMode.CAST_CEIL:
        return rest > 0 and not negative
    if mode is RoundMode.CAST_TRUNC:
        return False
    if mode is RoundMode.CAST_ODD:
        return rest > 0 and not odd
    return rest > Fraction(1, 2) or (rest == Fraction(1, 2) and odd)  # RINT


def round_to_unit(x: Fraction, unit: Fraction, mode: RoundMode, negative: bool) -> Fraction:
    """|x| rounded to a multiple of *unit* (magnitude)."""
    q = x / unit
    kept = math.floor(q)
    return (kept + carries(mode, q - kept, kept % 2 == 1, negative)) * unit


def encode(negative: bool, value: Fraction | float | str, dtype: type[Scalar]) -> int:
    """Bits of an exactly representable value (or inf / NaN) in a binary format."""
    ebits, mbits, _inf, nan_rule = FORMATS[dtype]
    total = 1 + ebits + mbits
    sign = int(negative) << (total - 1)
    top = (1 << ebits) - 1
    if value == NAN:
        quiet = (
            (top << mbits) | (1 << (mbits - 1)) if nan_rule == "ieee" else (1 << (total - 1)) - 1
        )
        return sign | quiet
    if value == math.inf:
        return sign | (top << mbits)
    assert isinstance(value, Fraction)
    if value == 0:
        return sign
    exponent = max(binary_exponent(value), 1 - _bias(ebits))
    scaled = value / Fraction(2) ** exponent * (1 << mbits)
    assert scaled.denominator == 1
    man = int(scaled)
    if man >= 1 << mbits:
        return sign | (exponent + _bias(ebits)) << mbits | (man - (1 << mbits))
    return sign | man


def to_float(negative: bool, value: Fraction | float | str, dtype: type[Scalar], mode: RoundMode,
             saturate: bool) -> tuple[bool, Fraction | float | str]:  # fmt: skip
    """Round a decoded value into a binary format with the overflow / NaN decisions."""
    ebits, mbits, has_inf, nan_rule = FORMATS[dtype]
    big = largest(dtype)
    if value == NAN:
        return (False, Fraction(0)) if saturate or nan_rule is None else (negative, NAN)
    if value == math.inf:
        if saturate or nan_rule is None:
            return negative, big
        return negative, (math.inf if has_inf else NAN)
    assert isinstance(value, Fraction)
    exponent = 1 - _bias(ebits)
    if value > 0:
        exponent = max(exponent, binary_exponent(value))
    rounded = round_to_unit(value, Fraction(2) ** (exponent - mbits), mode, negative)
    if rounded <= big:
        return negative, rounded
    if saturate or nan_rule is None:
        return negative, big
    toward_zero = mode in (RoundMode.CAST_TRUNC, RoundMode.CAST_ODD) or (
        mode is RoundMode.CAST_FLOOR and not negative) or (mode is RoundMode.CAST_CEIL and negative)  # fmt: skip
    if toward_zero:
        return negative, big
    return negative, (math.inf if has_inf else NAN)


# ---- hifloat8 ---------------------------------------------------------------------------------


def decode_hif8(code: int) -> tuple[bool, Fraction | float | str]:
    """The SDK decoder's reading: sign, dot prefix (exponent width), exponent, mantissa."""
    negative = bool(code & 0x80)
    if code == 0x80:
        return False, NAN
    if code & 0x7F == 0x6F:
        return negative, math.inf
    if code & 0x7F == 0:
        return negative, Fraction(0)
    b = [(code >> i) & 1 for i in range(8)]
    if not (b[6] or b[5] or b[4] or b[3]):
        return negative, Fraction(2) ** ((code & 7) - 23)
    if b[6]:
        ew, dw = (4 if b[5] else 3), 2
    elif b[5]:
        ew, dw = 2, 2
    elif b[4]:
        ew, dw = 1, 3
    else:
        ew, dw = 0, 4
    mw = 7 - dw - ew
    exponent = 0
    if ew:
        field = (code >> mw) & ((1 << ew) - 1)
        exponent = (field & ((1 << (ew - 1)) - 1)) | (1 << (ew - 1))
        if field >> (ew - 1):
            exponent = -exponent
    man = code & ((1 << mw) - 1)
    return negative, (1 + Fraction(man, 1 << mw)) * Fraction(2) ** exponent


def decode_hif8_values() -> list[float]:
    """The value of every finite hifloat8 code (the float -> hifloat8 tests probe around them)."""
    out = []
    for code in range(256):
        negative, value = decode_hif8(code)
        if isinstance(value, Fraction):
            out.append(float(-value if negative else value))
    return out


def encode_hif8(bits: int, src: type[Scalar], mode: RoundMode, saturate: bool) -> int:
    """The page's float/half -> hifloat8 pseudocode, one element (subnormal sources normalised)."""
    width, total, bias = (23, 32, 127) if src is float32_t else (10, 16, 15)
    sign = bits >> (total - 1) & 1
    field, man = (bits >> width) & (2 * bias + 1), bits & ((1 << width) - 1)
    if field == 2 * bias + 1:
        if man:
            return 0 if saturate else 0x80
        code = 0x6E if saturate else 0x6F
        return code | sign << 7
    if field == 0 and man == 0:
        return 0
    ev = field - bias
    if field == 0:  # normalise a subnormal half (decision)
        lead = man.bit_length() - 1
        ev = lead + 1 - bias - width
        man = (man << (width - lead)) & ((1 << width) - 1)
    hybrid = mode is RoundMode.CAST_HYBRID
    span = 14 if width == 23 else 2
    thr = man & 0x3FFF if width == 23 else ((man & 1) << 1) | 1
    if ev > 15:
        return (0x6E if saturate else 0x6F) | sign << 7
    if ev < -23:
        return 0
    if ev == -23:
        lead14 = (1 << (span - 1)) | (man >> (width - span + 1))
        up = (not hybrid) or lead14 >= thr
        return (0x01 | sign << 7) if up else 0
    if ev < -15:  # denormal range
        ta = man >> (width - 1) & 1
        frac = man >> (width - span)
        inexact = man != 0
        up = ta == 1 if not hybrid else (inexact and frac >= thr)
        ev += up
        if ev == -15:
            return _hif8_normal(sign, -15, 0, saturate)
        return sign << 7 | (ev + 23)
    keep = 3 if abs(ev) <= 3 else 2 if abs(ev) <= 7 else 1
    m = man >> (width - keep)
    ta = man >> (width - keep - 1) & 1
    frac = (man >> (width - keep - span)) & ((1 << span) - 1)
    inexact = man & ((1 << (width - keep)) - 1) != 0
    up = ta == 1 if abs(ev) <= 3 or not hybrid else inexact and frac >= thr
    m += up
    if m == 1 << keep:
        m, ev = 0, ev + 1
    if ev > 15:
        return (0x6E if saturate else 0x6F) | sign << 7
    return _hif8_normal(sign, ev, m, saturate)


def _hif8_normal(sign: int, ev: int, m: int, saturate: bool) -> int:
    mag, es = abs(ev), int(ev < 0)
    if mag == 0:
        body = 0b0001 << 3 | m
    elif mag == 1:
        body = 0b001 << 4 | es << 3 | m
    elif mag <= 3:
        body = 0b01 << 5 | es << 4 | (mag - 2) << 3 | m
    elif mag <= 7:
        body = 0b10 << 5 | es << 4 | (mag - 4) << 2 | m
    else:
        body = 0b11 << 5 | es << 4 | (mag - 8) << 1 | m
    if body == 0x6F and saturate:
        body = 0x6E
    return sign << 7 | body


# ---- one element ------------------------------------------------------------------------------


def int_range(dtype: type[Scalar]) -> tuple[int, int, int]:
    if dtype is int4x2_t:
        return -8, 7, 4
    n = 8 * dtype.size
    return (
        (-(1 << (n - 1)), (1 << (n - 1)) - 1, n) if dtype.kind is Kind.INT else (0, (1 << n) - 1, n)
    )


def is_int(dtype: type[Scalar]) -> bool:
    return dtype is int4x2_t or dtype.kind in (Kind.INT, Kind.UINT)


def source_value(bits: int, src: type[Scalar]) -> tuple[bool, Fraction | float | str]:
    if is_int(src):
        lo, _hi, n = int_range(src)
        v = bits - (1 << n) if lo < 0 and bits >> (n - 1) else bits
        return v < 0, Fraction(v)
    return decode(bits, src)


def convert_element(bits: int, src: type[Scalar], dst: type[Scalar], mode: RoundMode,
                    saturate: bool) -> int:  # fmt: skip
    """One source element's bits -> the destination element's bits."""
    if dst is hifloat8_t:
        return encode_hif8(bits, src, mode, saturate)
    if dst is fp8_e8m0_t:  # dav-3510: the exponent field of the bfloat16 source
        return (bits >> 7) & 0xFF
    if src is fp8_e8m0_t:
        return 0x7FC0 if bits == 255 else bits << 7
    negative, value = source_value(bits, src)
    if is_int(dst):
        lo, hi, n = int_range(dst)
        if value == NAN:
            return 0
        if value == math.inf:
            return (lo if negative else hi) & ((1 << n) - 1)
        assert isinstance(value, Fraction)
        magnitude = round_to_unit(abs(value), Fraction(1), mode, negative)
        v = int(-magnitude if negative else magnitude)
        if saturate:
            v = min(max(v, lo), hi)
        return v & ((1 << n) - 1)
    if src is hifloat8_t and value == NAN:
        return (1 << (elem_bits(dst) - 1)) - 1  # the SDK decoder's all-ones NaN
    if value == NAN and not saturate and src in FORMATS and FORMATS[src][1] <= FORMATS[dst][1]:
        return widen_nan(bits, src, dst)
    if isinstance(value, Fraction):
        value = abs(value)
    n_negative, result = to_float(negative, value, dst, mode, saturate)
    return encode(n_negative, result, dst)


def widen_nan(bits: int, src: type[Scalar], dst: type[Scalar]) -> int:
    """A NaN widened as numpy / ml_dtypes do (decision): computed by the library itself."""

    from reference.common import from_bits, to_bits

    return to_bits(from_bits([bits], src).astype(dst.np_dtype))[0]


def truncate_element(bits: int, dtype: type[Scalar], mode: RoundMode) -> int:
    """``Truncate``: round to an integral value in the same format (zero keeps its sign)."""
    negative, value = decode(bits, dtype)
    if not isinstance(value, Fraction):
        return bits
    magnitude = round_to_unit(value, Fraction(1), mode, negative)
    return encode(negative, magnitude, dtype)


# ---- the register: RegLayout placement, the source mask -------------------------------------


def split(lanes: Sequence[int], dtype: type[Scalar]) -> list[int]:
    """Elements of a register: lanes, or two nibbles per byte (low first) for the 4-bit types."""
    if dtype not in NIBBLES:
        return list(lanes)
    return [n for b in lanes for n in (b & 15, b >> 4)]


def join(elements: Sequence[int], dtype: type[Scalar]) -> list[int]:
    if dtype not in NIBBLES:
        return list(elements)
    return [elements[i] | elements[i + 1] << 4 for i in range(0, len(elements), 2)]


def cast_register(lanes: Sequence[int], mask: Sequence[int], src: type[Scalar],
                  dst: type[Scalar], layout: int | None, mode: RoundMode, saturate: bool,
                  src_lanes_per_reg: int) -> list[int]:  # fmt: skip
    """The RegLayout page's pseudocode: part selection and placement, mask by source element.

    *layout* None: lane i to lane i (same width or a RegTraitNumTwo 64-bit side).
    """
    src_elems = split(lanes, src)
    ws, wd = elem_bits(src), elem_bits(dst)
    conv = lambda b: convert_element(b, src, dst, mode, saturate)  # noqa: E731
    if layout is None:
        stride = 256 // src_lanes_per_reg
        return [conv(b) if mask[i * stride] else 0 for i, b in enumerate(src_elems)]
    out_count = 2048 // wd
    if ws < wd:  # widening: dst element j from source element (group j, position layout)
        out = []
        for j in range(out_count):
            if ws == 4:  # pairs: dst (2m, 2m+1) from the nibbles of byte 4m + layout
                m, low = divmod(j, 2)
                k = 8 * m + 2 * layout + low
                enabled = mask[4 * m + layout]
            else:
                k = (wd // ws) * j + layout
                enabled = mask[k * ws // 8]
            out.append(conv(src_elems[k]) if enabled else 0)
        return join(out, dst)
    out = [0] * out_count
    for i, b in enumerate(src_elems):
        if wd == 4:  # pairs: source (2m, 2m+1) to the nibbles of byte 4m + layout; bit of 2m
            m, low = divmod(i, 2)
            enabled = mask[2 * m * ws // 8]
            out[8 * m + 2 * layout + low] = conv(b) if enabled else 0
        else:
            enabled = mask[i * ws // 8]
            out[(ws // wd) * i + layout] = conv(b) if enabled else 0
    return join(out, dst)


def muls_cast_register(values: Sequence[int], scalar_bits: int, mask: Sequence[int],
                       layout: int) -> list[int]:  # fmt: skip
    """``MulsCast``: half(x * scalar) rounded once (CAST_ROUND, no saturation) into part *layout*.

    A NaN product is 0x7E00 (decision); the mask is the float source's (bit 4i).
    """
    out = [0] * 128
    s_negative, s_value = decode(scalar_bits, float32_t)
    for i, bits in enumerate(values):
        if not mask[4 * i]:
            continue
        x_negative, x_value = decode(bits, float32_t)
        negative = x_negative != s_negative
        if NAN in (x_value, s_value) or {x_value, s_value} == {math.inf, Fraction(0)}:
            out[2 * i + layout] = 0x7E00
            continue
        product = math.inf if math.inf in (x_value, s_value) else x_value * s_value  # type: ignore[operator]
        n, r = to_float(negative, product, half, RoundMode.CAST_ROUND, saturate=False)
        out[2 * i + layout] = encode(n, r, half)
    return out

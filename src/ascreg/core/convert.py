"""Conversions between the dav-3510 number formats: ``Reg.Cast``, ``Reg.Truncate``, ``asc_*2*``.

:func:`convert` maps source lanes to destination lanes value by value; :func:`cast_lanes` adds
the register geometry of a width-changing cast (``RegLayout`` part selection, the source mask,
zeroed unused positions); :func:`round_integral` is ``Truncate`` (round to an integral value,
same format).

Every source value is first made exact: floats and integers up to 32 bits as float64, int64 by
rounding to the destination's precision in integer arithmetic. One rounding step then takes it
to the destination (``RoundMode``: nearest-even, nearest-away, floor, ceil, trunc, odd;
``CAST_NONE``/``UNKNOWN`` act as nearest-even). Results are built with numpy on whole lane
arrays. Decisions where the documentation is silent are listed in ``docs/semantics.md``
("Conversions"): subnormals are kept both ways, a narrowing NaN becomes the destination's quiet
NaN with the sign kept, a widening one keeps its payload.

Examples
--------
>>> import numpy as np
>>> from ascreg import RoundMode, half, int8_t, float32_t, hifloat8_t
>>> convert(np.float16([2.5, -2.5, 300.0]), half, int8_t, RoundMode.CAST_ROUND, saturate=True)
array([   3,   -3,  127], dtype=int8)
>>> convert(np.float16([2.5, 300.0]), half, int8_t, RoundMode.CAST_RINT, saturate=False)
array([ 2, 44], dtype=int8)
>>> convert(np.float32([1.0, 32768.0, 1e9]), float32_t, hifloat8_t, RoundMode.CAST_ROUND, saturate=False)
array([  8, 110, 111], dtype=uint8)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import ml_dtypes
import numpy as np

from ascreg._dtypes import (
    Kind,
    Scalar,
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
    int32_t,
    uint32_t,
)
from ascreg.core.compare import zero_masked
from ascreg.core.fpenv import quiet
from ascreg.core.rounding import lookup
from ascreg.core.rounding import table as code_table
from ascreg.enums import RoundMode
from ascreg.machine.undefined import UndefinedLanes, plain, undefined_lanes, with_undefined

Lanes = np.ndarray[Any, Any]

NIBBLE_TYPES = (int4x2_t, fp4x2_e2m1_t, fp4x2_e1m2_t)
"""The packed 4-bit pair types: a register lane (a byte) holds two elements, low nibble first."""


def element_bits(dtype: type[Scalar]) -> int:
    """Return the width of one element of *dtype* in bits (4 for the packed pair types).

    Examples
    --------
    >>> from ascreg import int4x2_t, half
    >>> element_bits(int4x2_t), element_bits(half)
    (4, 16)
    """
    return 4 if dtype in NIBBLE_TYPES else dtype.bits


# ---- formats ----------------------------------------------------------------------------------


class FloatFormat(NamedTuple):
    """A binary floating format: ``mantissa`` fraction bits, ``emin`` the least normal exponent.

    ``largest`` is the largest finite magnitude; ``inf`` / ``nan`` say which specials exist;
    ``quiet_nan`` is the bit pattern of the positive quiet NaN (sign added separately).
    """

    mantissa: int
    emin: int
    largest: float
    inf: bool
    nan: bool
    quiet_nan: int


_BF16_MAX = float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)  # type: ignore[no-untyped-call]
FORMATS: dict[type[Scalar], FloatFormat] = {
    half: FloatFormat(10, -14, 65504.0, True, True, 0x7E00),
    bfloat16_t: FloatFormat(7, -126, _BF16_MAX, True, True, 0x7FC0),
    float32_t: FloatFormat(23, -126, float(np.finfo(np.float32).max), True, True, 0x7FC00000),
    fp8_e4m3fn_t: FloatFormat(3, -6, 448.0, False, True, 0x7F),
    fp8_e5m2_t: FloatFormat(2, -14, 57344.0, True, True, 0x7E),
    fp4x2_e2m1_t: FloatFormat(1, 0, 6.0, False, False, 0),
    fp4x2_e1m2_t: FloatFormat(2, 0, 1.75, False, False, 0),
}
"""The IEEE-like formats a conversion rounds to with :func:`quantize`."""


def _fp4_values(fmt: FloatFormat) -> Lanes:
    """Return the 16 values of a 4-bit format (sign in bit 3; exponent bias 1, as the SDK's tables)."""
    codes = np.arange(16)
    field, frac = (codes & 7) >> fmt.mantissa, codes & ((1 << fmt.mantissa) - 1)
    scale = np.ldexp(1.0, np.maximum(field, 1) - 1 - fmt.mantissa)  # bias 1 in both formats
    magnitude = (frac + np.where(field > 0, 1 << fmt.mantissa, 0)) * scale
    result: Lanes = np.where(codes & 8, -magnitude, magnitude)
    return result


FP4_VALUES = {t: _fp4_values(FORMATS[t]) for t in (fp4x2_e2m1_t, fp4x2_e1m2_t)}
"""Each 4-bit code's value (e2m1: 0 .. 6, e1m2: 0 .. 1.75, sign in bit 3)."""


# ---- hifloat8 ---------------------------------------------------------------------------------

HIF8_NAN, HIF8_INF, HIF8_MAX = 0x80, 0x6F, 0x6E
"""hifloat8 codes: the one NaN, +inf (``| 0x80`` for -inf) and the largest finite (+2**15)."""


def _hif8_values() -> Lanes:
    """Return the value of each of the 256 hifloat8 codes (float64; NaN and the infinities included).

    A code is ``sign | dot | exponent | mantissa``: the dot prefix ``11``/``10``/``01``/``001``/
    ``0001`` gives 4/3/2/1/0 exponent bits (1/2/3/3/3 mantissa bits); the exponent field is a
    sign bit then the magnitude without its leading 1; dot ``0000`` is a denormal ``2**(m-23)``.
    """
    codes = np.arange(256)
    body = codes & 0x7F
    ebits = np.select(
        [body >= 0x60, body >= 0x40, body >= 0x20, body >= 0x10, body >= 0x08], [4, 3, 2, 1, 0], -1
    )
    mbits = np.where(ebits >= 3, 5 - ebits, 3)
    mant = body & ((1 << mbits) - 1)
    field = (body >> mbits) & ((1 << np.maximum(ebits, 0)) - 1)
    top = np.where(ebits > 0, 1 << np.maximum(ebits - 1, 0), 0)
    magnitude = (field & (top - 1)) | top
    exponent = np.where(field & top, -magnitude, magnitude)
    value = np.ldexp(1.0 + mant / (1 << mbits), exponent)
    value = np.where(ebits < 0, np.ldexp(1.0, (body & 7) - 23), value)
    value = np.where(body == 0, 0.0, value)
    value = np.where(body == HIF8_INF, np.inf, value)
    value = np.where(codes & 0x80, -value, value)
    return np.where(codes == HIF8_NAN, np.nan, value)


HIF8_VALUES = _hif8_values()
"""The value of each hifloat8 code: 0x00 is 0, 0x80 NaN, 0x6F/0xEF the infinities."""


def _split(values: Lanes, src: type[Scalar]) -> tuple[Lanes, Lanes, Lanes, int]:
    """Return (negative, exponent, mantissa field, field width) of half or float lanes.

    A subnormal is normalised: its exponent is its true one and its field the bits after its
    leading 1 (decision: the page's pseudocode reads the raw exponent field only). Zeros,
    infinities and NaNs give meaningless exponents; the callers treat them first.
    """
    width = 23 if src is float32_t else 10
    bias = 127 if src is float32_t else 15
    bits = values.view(np.uint32 if src is float32_t else np.uint16).astype(np.int64)
    negative = (bits >> (8 * values.dtype.itemsize - 1)) == 1
    field, man = (bits >> width) & (2 * bias + 1), bits & ((1 << width) - 1)
    lead = np.frexp(np.maximum(man, 1))[1].astype(np.int64) - 1  # position of the leading 1
    subnormal = (field == 0) & (man != 0)
    exponent = np.where(subnormal, lead + 1 - bias - width, field - bias)
    man = np.where(subnormal, (man << (width - lead)) & ((1 << width) - 1), man)
    return negative, exponent, man, width


def _hif8_carry(man: Lanes, exponent: Lanes, width: int, hybrid: bool) -> Lanes:
    """Whether rounding a float/half value to hifloat8 carries (the page's TA-bit / threshold rule).

    Exponents of magnitude 0..3 round half away in both modes; 4..15 and the denormal range
    (-22..-16) compare the dropped bits with the source's low bits in ``CAST_HYBRID``; -23 rounds
    to the least denormal or to zero. Decision: ``CAST_HYBRID`` leaves an exactly representable
    value alone (the page's ``frac >= thr`` would carry when both are 0; the RoundMode page
    says rounding acts only where precision is lost).
    """
    span = 14 if width == 23 else 2
    threshold = man & 0x3FFF if width == 23 else ((man & 1) << 1) | 1
    dropped = width - _hif8_kept_bits(exponent)
    tie_bit = ((man >> (dropped - 1)) & 1) == 1
    window = (man >> (dropped - span)) & ((1 << span) - 1)
    edge = ((1 << (span - 1)) | (man >> (width - span + 1))) >= threshold
    if not hybrid:
        result: Lanes = tie_bit | (exponent == -23)
        return result
    inexact = (man & ((1 << dropped) - 1)) != 0  # decision: an exact value is never rounded
    return np.select([exponent == -23, np.abs(exponent) <= 3], [edge, tie_bit],
                     inexact & (window >= threshold))  # fmt: skip


def _hif8_kept_bits(exponent: Lanes) -> Lanes:
    """Mantissa bits hifloat8 keeps at each exponent: 3 (|e| <= 3), 2 (<= 7), 1 (<= 15), 0 (denormal)."""
    magnitude = np.abs(exponent)
    kept = np.where(magnitude <= 3, 3, np.where(magnitude <= 7, 2, 1))
    return np.where(exponent < -15, 0, kept)


def _hif8_pack(exponent: Lanes, kept: Lanes) -> Lanes:
    """Return the 7 low bits of the hifloat8 code of ``2**exponent * 1.kept`` (or a denormal)."""
    magnitude = np.abs(exponent)
    esign = (exponent < 0).astype(np.int64)
    normal = np.select(
        [magnitude == 0, magnitude == 1, magnitude <= 3, magnitude <= 7],
        [
            0x08 | kept,
            0x10 | esign << 3 | kept,
            0x20 | esign << 4 | (magnitude & 1) << 3 | kept,
            0x40 | esign << 4 | (magnitude & 3) << 2 | kept,
        ],
        0x60 | esign << 4 | (magnitude & 7) << 1 | kept,
    )
    return np.where(exponent < -15, exponent + 23, normal)


def to_hifloat8(values: Lanes, src: type[Scalar], rounding: RoundMode, saturate: bool) -> Lanes:
    """Encode float or half lanes as hifloat8 codes (``CAST_ROUND`` or ``CAST_HYBRID``).

    The page's bit-level rule: exponents past 15 are inf, below -23 zero (always +0); see
    :func:`_hif8_carry` for the rounding. Saturation turns the infinities into the largest
    finite code (``0x6E``/``0xEE``) and NaN into 0; otherwise NaN is ``0x80``.

    Examples
    --------
    >>> from ascreg import RoundMode, float32_t
    >>> to_hifloat8(np.float32([1.5, -0.75, 2.0**-23, np.nan]), float32_t, RoundMode.CAST_ROUND, False)
    array([ 12, 156,   1, 128], dtype=uint8)
    """
    negative, exponent, man, width = _split(values, src)
    up = _hif8_carry(man, exponent, width, rounding is RoundMode.CAST_HYBRID)
    kept_bits = _hif8_kept_bits(exponent)
    kept = np.where(exponent < -15, 0, (man >> (width - kept_bits)) + up)
    carry = np.where(exponent < -15, up, kept >> kept_bits)
    exponent = exponent + carry
    kept = np.where(kept >> kept_bits == 1, 0, kept)
    code = np.where(exponent > 15, HIF8_INF, _hif8_pack(exponent, kept))
    code = np.where(np.isinf(values), HIF8_INF, code)
    if saturate:
        code = np.where(code == HIF8_INF, HIF8_MAX, code)
    code = np.where(negative, code | 0x80, code)
    code = np.where((exponent < -22) | (values == 0), 0, code)
    code = np.where(np.isnan(values), 0 if saturate else HIF8_NAN, code)
    return code.astype(np.uint8)


# ---- rounding ---------------------------------------------------------------------------------


def _carries(
    rounding: RoundMode, above: Lanes, tie: Lanes, inexact: Lanes, odd: Lanes, negative: Lanes
) -> Lanes:
    """Whether rounding a magnitude down to its kept bits must add one unit.

    *above* / *tie*: the dropped part is more than / exactly half a unit; *inexact*: it is not
    zero; *odd*: the kept part's last bit; *negative*: the value's sign.
    """
    if rounding is RoundMode.CAST_ROUND:
        return above | tie
    if rounding is RoundMode.CAST_FLOOR:
        return inexact & negative
    if rounding is RoundMode.CAST_CEIL:
        return inexact & ~negative
    if rounding is RoundMode.CAST_TRUNC:
        return np.zeros_like(inexact)
    if rounding is RoundMode.CAST_ODD:
        return inexact & ~odd
    return above | (tie & odd)  # CAST_RINT, and CAST_NONE / UNKNOWN where rounding happens


def _round_at(
    magnitude: Lanes, unit_exponent: Lanes, rounding: RoundMode, negative: Lanes
) -> Lanes:
    """Round exact float64 *magnitude* to a multiple of ``2**unit_exponent`` (lane-wise)."""
    scaled = np.ldexp(magnitude, -unit_exponent)
    kept = np.floor(scaled)
    dropped = scaled - kept
    odd = np.fmod(kept, 2) == 1
    up = _carries(rounding, dropped > 0.5, dropped == 0.5, dropped > 0, odd, negative)
    result: Lanes = np.ldexp(kept + up, unit_exponent)
    return result


def quantize(exact: Lanes, fmt: FloatFormat, rounding: RoundMode) -> Lanes:
    """Round finite float64 lanes to *fmt*'s precision (unbounded exponent above, subnormals below).

    Examples
    --------
    >>> quantize(np.array([1.0 + 2.0**-11, -1.0 - 2.0**-11]), FORMATS[half], RoundMode.CAST_FLOOR)
    array([ 1.        , -1.00097656])
    """
    negative = np.signbit(exact)
    magnitude = np.abs(np.where(np.isfinite(exact), exact, 0.0))
    exponent = np.maximum(np.frexp(magnitude)[1] - 1, fmt.emin)
    rounded = _round_at(magnitude, exponent - fmt.mantissa, rounding, negative)
    return np.where(negative, -rounded, rounded)


def _round_int64(values: Lanes, bits: int, rounding: RoundMode) -> Lanes:
    """Round int64 lanes to *bits* significant bits in integer arithmetic; exact float64 result."""
    negative = values < 0
    raw = values.view(np.uint64)
    magnitude = np.where(negative, ~raw + np.uint64(1), raw)
    length = np.minimum(np.frexp(magnitude.astype(np.float64))[1], 64).astype(np.uint64)
    length = np.where(
        (length > 0) & (magnitude >> np.maximum(length, 1) - 1 == 0), length - 1, length
    )
    shift = np.maximum(length.astype(np.int64) - bits, 0).astype(np.uint64)
    kept = magnitude >> shift
    dropped = magnitude - (kept << shift)
    half_unit = np.where(shift > 0, np.uint64(1) << np.maximum(shift, 1) - np.uint64(1), 0)
    up = _carries(rounding, (shift > 0) & (dropped > half_unit), (shift > 0) & (dropped == half_unit),
                  dropped > 0, (kept & np.uint64(1)) == 1, negative)  # fmt: skip
    rounded = np.ldexp((kept + up.astype(np.uint64)).astype(np.float64), shift.astype(np.int64))
    return np.where(negative, -rounded, rounded)


def round_integral(values: Lanes, rounding: RoundMode) -> Lanes:
    """``Truncate``: round float lanes to an integral value of the same format.

    NaN and the infinities pass through; a zero result keeps the source's sign
    (``ceil(-0.5) = -0.0``); subnormals are rounded, not flushed.

    Examples
    --------
    >>> round_integral(np.float16([2.5, -0.5, 3.5]), RoundMode.CAST_ROUND)
    array([ 3., -1.,  4.], dtype=float16)
    >>> round_integral(np.float32([2.5, -0.5]), RoundMode.CAST_CEIL)
    array([ 3., -0.], dtype=float32)
    """
    with quiet():
        exact = values.astype(np.float64)
    negative = np.signbit(exact)
    finite = np.isfinite(exact)
    rounded = _round_at(
        np.abs(np.where(finite, exact, 0.0)), np.zeros(exact.shape, np.int64), rounding, negative
    )
    result = np.where(finite, np.where(negative, -rounded, rounded), exact)
    out: Lanes = result.astype(values.dtype)
    return np.where(finite, out, values)


# ---- decoding: every source as exact float64 (or int64) ----------------------------------------


def decode(lanes: Lanes, src: type[Scalar]) -> Lanes:
    """Return source element values: exact float64 for floats, int64 for integers.

    *lanes* hold one element each (a 4-bit type: one nibble per entry). fp8_e8m0 follows the
    dav-3510 implementation (``code << 7`` as bfloat16 bits): 0 is +0 and 255 NaN.

    Examples
    --------
    >>> from ascreg import hifloat8_t, int4x2_t
    >>> decode(np.uint8([0x08, 0x01, 0x6F]), hifloat8_t)
    array([1.00000000e+00, 2.38418579e-07,            inf])
    >>> decode(np.uint8([7, 8, 15]), int4x2_t)
    array([ 7, -8, -1])
    """
    if src is hifloat8_t:
        return HIF8_VALUES[lanes]
    if src in FP4_VALUES:
        return FP4_VALUES[src][lanes & 15]  # type: ignore[no-any-return]
    if src is int4x2_t:
        return ((lanes.astype(np.int64) & 15) ^ 8) - 8
    if src is fp8_e8m0_t:
        codes = lanes.view(np.uint8).astype(np.uint16)
        as_bf16 = (codes << 7).view(ml_dtypes.bfloat16).astype(np.float64)
        return np.where(codes == 255, np.nan, as_bf16)
    if src.kind is Kind.FLOAT:
        return lanes.astype(np.float64)
    return lanes.astype(np.int64)


# ---- encoding ---------------------------------------------------------------------------------


def _integer_range(dst: type[Scalar]) -> tuple[int, int, int]:
    """(least, largest, bits) of an integer destination; int4x2_t elements are signed 4-bit."""
    if dst is int4x2_t:
        return -8, 7, 4
    info = np.iinfo(dst.np_dtype)
    return int(info.min), int(info.max), dst.bits


def _to_integer(exact: Lanes, dst: type[Scalar], rounding: RoundMode, saturate: bool) -> Lanes:
    """Integer destination lanes (a nibble per entry for int4x2_t) from exact values.

    Floats round with *rounding*; NaN is 0; the infinities are the type's extremes. Out of
    range, *saturate* clamps and otherwise the low bits are kept (two's complement).
    """
    least, largest, _bits = _integer_range(dst)
    if exact.dtype.kind == "f":
        finite = np.isfinite(exact)
        magnitude = _round_at(np.abs(np.where(finite, exact, 0.0)), np.zeros(exact.shape, np.int64),
                              rounding, np.signbit(exact))  # fmt: skip
        value = np.where(finite, np.where(np.signbit(exact), -magnitude, magnitude), exact)
        value = np.where(np.isnan(exact), 0.0, value)
        inside = np.clip(
            np.where(np.isnan(value), 0.0, value), -(2.0**63), np.nextafter(2.0**63, 0)
        )
        clamped = np.where(value >= largest, largest, np.where(value <= least, least,
                                                               inside.astype(np.int64)))  # fmt: skip
        clamped = clamped.astype(np.int64).view(np.uint64)
        wrapped = np.fmod(np.abs(np.where(finite, value, 0.0)), 2.0**64).astype(np.uint64)
        wrapped = np.where(value < 0, ~wrapped + np.uint64(1), wrapped)
        pattern = np.where(saturate | ~finite, clamped, wrapped)
    else:
        clamped = np.clip(exact, least, largest).view(np.uint64)
        pattern = clamped if saturate else exact.view(np.uint64)
    if dst is int4x2_t:
        return (pattern & np.uint64(15)).astype(np.uint8)
    return pattern.astype(np.dtype(f"u{dst.size}")).view(dst.np_dtype)


def _to_float(exact: Lanes, dst: type[Scalar], rounding: RoundMode, saturate: bool) -> Lanes:
    """Round exact float64 lanes to *dst*'s format, with its overflow and NaN rules (float64 out).

    Saturation (and the 4-bit formats, which have no specials) turns overflow and the
    infinities into the largest finite value and NaN into +0. Otherwise overflow follows
    IEEE 754 for the rounding direction (toward zero: the largest finite; else inf, NaN in a
    format without inf).
    """
    fmt = FORMATS[dst]
    rounded = quantize(exact, fmt, rounding)
    negative, finite = np.signbit(exact), np.isfinite(exact)
    largest = np.where(negative, -fmt.largest, fmt.largest)
    over = finite & (np.abs(rounded) > fmt.largest)
    if saturate or not fmt.nan:
        result = np.where(over | np.isinf(exact), largest, rounded)
        return np.where(np.isnan(exact), 0.0, result)
    toward_zero = {
        RoundMode.CAST_TRUNC: np.ones_like(negative),
        RoundMode.CAST_ODD: np.ones_like(negative),
        RoundMode.CAST_FLOOR: ~negative,
        RoundMode.CAST_CEIL: negative,
    }.get(rounding, np.zeros_like(negative))
    infinite = np.copysign(np.inf if fmt.inf else np.nan, np.where(negative, -1.0, 1.0))
    result = np.where(over, np.where(toward_zero, largest, infinite), rounded)
    result = np.where(finite, result, exact)
    return result if fmt.inf else np.where(np.isinf(result), np.copysign(np.nan, result), result)


def _float_lanes(values: Lanes, source: Lanes, src: type[Scalar], dst: type[Scalar]) -> Lanes:
    """Store float64 *values* as *dst* lanes; fix the bits of the NaN lanes.

    A widening conversion keeps a NaN's payload as numpy / ml_dtypes do (hifloat8's NaN
    becomes the all-ones NaN of the SDK's decoder); a narrowing one gives the destination's
    quiet NaN with the source's sign.
    """
    if dst in FP4_VALUES:
        codes = np.abs(FP4_VALUES[dst][:8] - np.abs(values)[..., None]).argmin(axis=-1)
        result: Lanes = (codes | np.where(np.signbit(values), 8, 0)).astype(np.uint8)
        return result
    out = values.astype(dst.np_dtype)
    nan = np.isnan(values)
    if not nan.any():
        return out
    unsigned = np.dtype(f"u{dst.size}")
    if src is hifloat8_t:
        fill = np.full(values.shape, (1 << (dst.bits - 1)) - 1, unsigned)
    elif src in FORMATS and FORMATS[src].mantissa <= FORMATS[dst].mantissa:
        fill = source.astype(dst.np_dtype).view(unsigned)
    else:
        sign = np.signbit(values).astype(unsigned) << unsigned.type(dst.bits - 1)
        fill = unsigned.type(FORMATS[dst].quiet_nan) | sign
    return np.where(nan, fill, out.view(unsigned)).astype(unsigned).view(dst.np_dtype)


def _half_away(values: Lanes) -> Lanes:
    """Round to an integral value, ties away from zero (exact for |x| < 2**52: the sum is)."""
    rounded: Lanes = np.copysign(np.floor(np.abs(values) + 0.5), values)
    return rounded


_INTEGRAL: dict[RoundMode, Any] = {
    RoundMode.CAST_RINT: np.rint,
    RoundMode.CAST_NONE: np.rint,
    RoundMode.UNKNOWN: np.rint,
    RoundMode.CAST_ROUND: _half_away,
    RoundMode.CAST_FLOOR: np.floor,
    RoundMode.CAST_CEIL: np.ceil,
    RoundMode.CAST_TRUNC: np.trunc,
}
"""numpy's rounding to integral float64 values for each mode the fast conversions know."""


def _float_range(dst: type[Scalar]) -> tuple[Lanes, Lanes]:
    """Return an integer type's least and largest value as float64 0-d arrays (cached)."""
    found = _FLOAT_RANGES.get(dst)
    if found is None:
        least, largest, _bits = _integer_range(dst)
        found = _FLOAT_RANGES[dst] = (np.array(float(least)), np.array(float(largest)))
    return found


_FLOAT_RANGES: dict[type[Scalar], tuple[Lanes, Lanes]] = {}


def _common_conversion(
    lanes: Lanes, src: type[Scalar], dst: type[Scalar], rounding: RoundMode
) -> Lanes | None:
    """Convert float32 to an integer type in a few numpy calls, or return None (general path).

    Rounding to nearest even, ties away, down, up or toward zero: the value rounded by numpy
    (in float32, exact; ties away in float64, where the sum it takes is exact); taken only
    when every lane is finite and inside the destination's range, where saturation and
    wrapping agree. It gives bit for bit what the general path gives
    (``tests/reg/test_convert.py``). (8- and 16-bit sources go by their tables.)

    Also float32, int32 and uint32 to half, bfloat16 or float32 rounding to nearest even
    (:func:`_nearest_even`).
    """
    if dst in _NEAREST_EVEN_FORMATS:
        return _nearest_even(lanes, src, dst) if _INTEGRAL.get(rounding) is np.rint else None
    if src is not float32_t or dst.kind not in (Kind.INT, Kind.UINT) or dst is int4x2_t:
        return None
    integral = _INTEGRAL.get(rounding)
    if integral is None:
        return None
    least, largest = _float_range(dst)
    rounded: Lanes = integral(lanes.astype(np.float64) if integral is _half_away else lanes)
    # out of range, infinite or NaN (whose comparisons are false): the general path
    if rounded.size and not (rounded.min() >= least and rounded.max() <= largest):
        return None
    return rounded.astype(dst.np_dtype)


def _nearest_even(lanes: Lanes, src: type[Scalar], dst: type[Scalar]) -> Lanes | None:
    """Round float32, int32 or uint32 lanes to nearest even in *dst*'s format, or return None.

    numpy rounds a float32 or float64 value to half and float32 correctly to nearest even,
    subnormal results included, and ml_dtypes a float32 value to bfloat16 (a float64 one it
    rounds twice, through float32); an int32 or uint32 value is exact in float64. Taken only
    when every result is finite: infinities, NaN and overflow (where saturation decides) are
    the general path's.
    """
    if src is float32_t:
        wide = lanes
    elif src in _EXACT_IN_FLOAT64 and dst is not bfloat16_t:
        wide = lanes.astype(np.float64)
    else:
        return None
    rounded: Lanes = wide.astype(dst.np_dtype)
    return rounded if np.isfinite(rounded).all() else None


_NEAREST_EVEN_FORMATS = frozenset({half, bfloat16_t, float32_t})
_EXACT_IN_FLOAT64 = frozenset({int32_t, uint32_t})


def convert(lanes: Lanes, src: type[Scalar], dst: type[Scalar], rounding: RoundMode,
            saturate: bool) -> Lanes:  # fmt: skip
    """Convert source elements to destination elements (one element per array entry).

    *lanes* hold source elements in their storage (a nibble per entry for the 4-bit types);
    the result holds destination elements likewise. ``CAST_NONE`` and ``UNKNOWN`` round as
    ``CAST_RINT``. fp8_e8m0 follows the dav-3510 implementation: bfloat16 -> e8m0 keeps the
    exponent field (sign dropped, inf and NaN 0xFF), e8m0 -> bfloat16 is ``code << 7`` with
    255 as NaN 0x7FC0.

    Examples
    --------
    >>> from ascreg import RoundMode, float32_t, half, int16_t, uint32_t
    >>> convert(np.float32([65520.0, 1e-8]), float32_t, half, RoundMode.CAST_RINT, False)
    array([inf,  0.], dtype=float16)
    >>> convert(np.int16([-5, 7]), int16_t, uint32_t, RoundMode.UNKNOWN, True)
    array([0, 7], dtype=uint32)
    """
    with quiet():  # NaN and out-of-range lanes are handled explicitly
        return _convert(lanes, src, dst, rounding, saturate)


def _convert(lanes: Lanes, src: type[Scalar], dst: type[Scalar], rounding: RoundMode,
             saturate: bool) -> Lanes:  # fmt: skip
    if src.size <= 2 and src not in NIBBLE_TYPES:  # every code's result, made once: one take
        key = ("convert", src, dst, rounding, saturate)
        every = code_table(key, src.np_dtype, lambda v: _converted(v, src, dst, rounding, saturate))
        return lookup(every, lanes)
    return _converted(lanes, src, dst, rounding, saturate)


def _converted(lanes: Lanes, src: type[Scalar], dst: type[Scalar], rounding: RoundMode,
               saturate: bool) -> Lanes:  # fmt: skip
    """:func:`convert` by the general path (the table of an 8- or 16-bit source is made so)."""
    if dst is hifloat8_t:
        return to_hifloat8(lanes, src, rounding, saturate)
    if dst is fp8_e8m0_t:
        return ((lanes.view(np.uint16) >> 7) & 0xFF).astype(np.uint8).view(dst.np_dtype)
    if src is fp8_e8m0_t:
        codes = lanes.view(np.uint8).astype(np.uint16)
        return np.where(codes == 255, 0x7FC0, codes << 7).astype(np.uint16).view(dst.np_dtype)
    fast = _common_conversion(lanes, src, dst, rounding)
    if fast is not None:
        return fast
    exact = decode(lanes, src)
    if dst is int4x2_t or dst.kind in (Kind.INT, Kind.UINT):
        return _to_integer(exact, dst, rounding, saturate)
    if exact.dtype.kind != "f":
        exact = _round_int64(exact, FORMATS[dst].mantissa + 1, rounding)
    return _float_lanes(_to_float(exact, dst, rounding, saturate), lanes, src, dst)


# ---- register geometry -------------------------------------------------------------------------


def _elements(lanes: Lanes, dtype: type[Scalar]) -> Lanes:
    """Return a register's elements: its lanes, or the two nibbles of each byte (low first)."""
    if dtype not in NIBBLE_TYPES:
        return lanes
    nibbles = np.stack([lanes & 15, lanes >> 4], axis=-1)
    return nibbles.reshape(*lanes.shape[:-1], -1).astype(np.uint8)


def _lanes(elements: Lanes, dtype: type[Scalar]) -> Lanes:
    """Return the register lanes of *elements* (the inverse of :func:`_elements`)."""
    if dtype not in NIBBLE_TYPES:
        return elements
    pairs = elements.reshape(*elements.shape[:-1], -1, 2)
    result: Lanes = (pairs[..., 0] | (pairs[..., 1] << 4)).astype(np.uint8)
    return result


def cast_lanes(
    lanes: Lanes,
    mask_bits: Lanes,
    src: type[Scalar],
    dst: type[Scalar],
    layout: int | None,
    rounding: RoundMode,
    saturate: bool,
) -> Lanes:
    """``Cast`` on a register: convert, place by *layout*, zero what the mask leaves out.

    The source mask chooses the elements (bit ``i * sizeof(U)`` for source element ``i``).
    Width changes work on *units*: one element, or for the 4-bit types a byte (two elements)
    against two wide elements. Widening by k converts the narrow unit ``k*j + layout`` into
    wide unit ``j``; narrowing writes source unit ``j`` to narrow unit ``k*j + layout`` and
    zeros the other units (a wide pair's first element's bit governs the pair). With *layout*
    None the lane counts match (same width, or a 64-bit ``RegTraitNumTwo`` side): element i to
    element i.

    Examples
    --------
    >>> from ascreg import RoundMode, half, float32_t
    >>> bits = np.ones(256, bool)
    >>> src = np.arange(128, dtype=np.float16)
    >>> cast_lanes(src, bits, half, float32_t, 1, RoundMode.UNKNOWN, False)[:3]
    array([1., 3., 5.], dtype=float32)
    >>> cast_lanes(np.float32([1.0001] * 64), bits, float32_t, half, 1, RoundMode.CAST_CEIL, False)[:4]
    array([0.   , 1.001, 0.   , 1.001], dtype=float16)
    """
    source = _elements(lanes, src)  # (a batched loop's rows: every step works on the last axis)
    if layout is None:
        enabled = mask_bits[..., :: 256 // lanes.shape[-1]]
        converted = convert(source, src, dst, rounding, saturate)
        return zero_masked(converted, enabled)
    nibble = src in NIBBLE_TYPES or dst in NIBBLE_TYPES
    unit = 2 if nibble else 1  # elements per unit
    src_unit, dst_unit = element_bits(src) * unit // 8, element_bits(dst) * unit // 8  # bytes
    if src_unit < dst_unit:  # unit j of the result is source unit ratio * j + layout
        ratio = dst_unit // src_unit
        enabled = mask_bits[..., layout * src_unit :: dst_unit]  # (dst_unit: ratio * src_unit)
        if unit > 1:
            enabled = np.repeat(enabled, unit, axis=-1)
        lead = source.shape[:-1]
        chosen = source.reshape(*lead, -1, unit)[..., layout::ratio, :].reshape(*lead, -1)
        converted = convert(chosen, src, dst, rounding, saturate)
        return _lanes(zero_masked(converted, enabled), dst)
    converted = convert(source, src, dst, rounding, saturate)
    return _narrowed(converted, mask_bits, src_unit, dst_unit, unit, layout, dst)


def _narrowed(converted: Lanes, mask_bits: Lanes, src_unit: int, dst_unit: int, unit: int,
              layout: int, dst: type[Scalar]) -> Lanes:  # fmt: skip
    """Place narrowed units at ``ratio * j + layout``; 0 for the others and masked-off units."""
    bits = mask_bits[..., ::src_unit]
    enabled = bits if unit == 1 else np.repeat(bits, unit, axis=-1)
    kept = zero_masked(converted, enabled)
    lead = kept.shape[:-1]  # rows of a batched loop, or none
    kept = kept.reshape(*lead, -1, unit)
    placed = np.zeros((*lead, 256 // dst_unit, unit), dtype=converted.dtype)
    units = (..., slice(layout, None, src_unit // dst_unit), slice(None))  # ratio * j + layout
    placed[units] = plain(kept)
    if type(kept) is UndefinedLanes:  # (a plain array written into keeps no mask)
        undefined = np.zeros(placed.shape, dtype=np.bool_)
        undefined[units] = undefined_lanes(kept)
        placed = with_undefined(placed, undefined, kept.origin)
    return _lanes(placed.reshape(*lead, -1), dst)


def muls_cast(lanes: Lanes, scalar: Any, mask_bits: Lanes, layout: int) -> Lanes:
    """``MulsCast``: ``half(src * scalar)`` of float lanes, one rounding (``CAST_ROUND``).

    The product is exact (float64 holds every float32 product), so the fused operation rounds
    once; overflow is inf (no saturation), a NaN result is ``0x7E00``. Placement and mask as
    the float -> half ``Cast`` (source mask, part *layout*, 0 elsewhere).

    Examples
    --------
    >>> bits = np.ones(256, bool)
    >>> muls_cast(np.float32([1.0 + 2.0**-11] * 64), np.float32(1.0), bits, 0)[:2]
    array([1.001, 0.   ], dtype=float16)
    """
    return _narrowed(scaled_to_half(lanes, scalar), mask_bits, 4, 2, 1, layout, half)


def scaled_to_half(values: Lanes, scalar: Any, *, saturate: bool = False) -> Lanes:
    """Return ``half(values * scalar)`` element by element: ``MulsCast``'s arithmetic.

    The float product is exact in float64, then rounded once with ``CAST_ROUND``; overflow is
    inf, or +-65504 with *saturate*; a NaN result is ``0x7E00``.

    Examples
    --------
    >>> scaled_to_half(np.float32([3.0, 1e30, np.nan]), np.float32(0.5)).tolist()
    [1.5, inf, nan]
    >>> scaled_to_half(np.float32([-1e30]), np.float32(0.5), saturate=True).tolist()
    [-65504.0]
    """
    with quiet():
        product = values.astype(np.float64) * np.float64(scalar)
        rounded = _to_float(product, half, RoundMode.CAST_ROUND, saturate=saturate)
        halves = np.where(np.isnan(rounded), np.float16(np.nan), rounded.astype(np.float16))
    result: Lanes = np.where(np.isnan(rounded), np.uint16(0x7E00), halves.view(np.uint16))
    return result.view(np.float16)

"""SIMT float device functions ``__saturatef`` and ``__fdividef`` / ``fdividef``, per lane."""

from __future__ import annotations

import ctypes
import math
import struct

SMALLEST_NORMAL = 2.0**-126


def f32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def bits_of(value: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", value))[0])


def flush(v: float) -> float:
    return math.copysign(0.0, v) if 0 < abs(v) < SMALLEST_NORMAL else v


def ref_saturatef(x: float) -> float:
    if math.isnan(x) or x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return x


def ref_fdividef(x: float, y: float) -> float:
    x, y = flush(x), flush(y)
    if math.isnan(x) or math.isnan(y) or (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
        return math.nan
    if y == 0:
        return math.inf if (math.copysign(1, x) > 0) == (math.copysign(1, y) > 0) else -math.inf
    # float32 operands: the double quotient rounded once more to float is correctly rounded
    return flush(ctypes.c_float(x / y).value)


def ref_int_to_float(value: int) -> float:
    """C's conversion of an integer to ``float``: round once to 24 significant bits, ties to even."""
    magnitude, shift = abs(value), max(abs(value).bit_length() - 24, 0)
    quotient, rest = divmod(magnitude, 1 << shift)
    half = (1 << shift) >> 1
    if shift and (rest > half or (rest == half and quotient & 1)):
        quotient += 1
    return math.copysign(float(quotient << shift), value)

"""ShiftLeft / ShiftRight (vector counts) and the scalar-count forms, on bit patterns."""

from __future__ import annotations

from ascreg._dtypes import Scalar
from reference.common import SIGNED, signed, width, wrap


def shift_right(bits: int, n: int, dtype: type[Scalar]) -> int:
    """Logical for unsigned, arithmetic for signed; n >= width gives 0 or the sign fill."""
    w = width(dtype)
    if dtype in SIGNED:
        x = signed(bits, w)
        if n >= w:
            return wrap(-1 if x < 0 else 0, dtype)
        return wrap(x >> n, dtype)
    return 0 if n >= w else bits >> n


def shift_left(bits: int, n: int, dtype: type[Scalar]) -> int:
    """Logical for unsigned; signed keeps the sign bit: (x & SIGN) | ((x << n) & ~SIGN)."""
    w = width(dtype)
    if n >= w:
        return 0
    full = (1 << w) - 1
    if dtype in SIGNED:
        sign = 1 << (w - 1)
        return (bits & sign) | ((bits << n) & full & ~sign)
    return (bits << n) & full


def vector_shift_count(count_bits: int, count_dtype: type[Scalar]) -> int:
    """The shift amount a lane of the count register means.

    The signed value of the whole lane, for every width: the Reg pages list int64_t counts
    for b64 data and say nothing of cutting them to 32 bits (docs/zh/api/SIMD-API/基础API/
    Reg矢量计算/逻辑计算/ShiftLeft.md, ShiftRight.md; ascreg.core.shifts.B64_COUNT_RULE).
    """
    return signed(count_bits, width(count_dtype))

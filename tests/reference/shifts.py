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

    b8/b16/b32: the signed value. b64: only the low 32 bits, read as int32 (spec §6.2).
    """
    if width(count_dtype) == 64:
        return signed(count_bits, 32)
    return signed(count_bits, width(count_dtype))

"""Shared facts and helpers of the scalar references: dtype geometry, the float codec, lane glue.

Everything in :mod:`reference` works one lane at a time on plain Python values: integers as
Python ``int`` bit patterns, floats decoded and re-encoded by hand (IEEE 754 round to nearest
even written with ``fractions``), masks as lists of 256 bits, memory as ``bytearray``. Nothing
here calls the vectorised core in ``src/ascreg/core``: the tests compare the two.

A lane value is always carried as its *bit pattern* (an unsigned int of the element width);
:func:`signed` and :func:`decode_float` interpret it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ascreg import (
    bfloat16_t,
    bool_,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._dtypes import Kind, Scalar

VL = 256

MASK_BITS = 256

FLOAT_FORMATS: dict[type[Scalar], tuple[int, int]] = {
    half: (5, 10),
    bfloat16_t: (8, 7),
    float32_t: (8, 23),
}
"""(exponent bits, mantissa bits) of the IEEE-style float formats."""

SIGNED = {int8_t, int16_t, int32_t, int64_t}

UNSIGNED = {uint8_t, uint16_t, uint32_t, uint64_t, bool_}


def width(dtype: type[Scalar]) -> int:
    """Bits per element."""
    return 8 * dtype.size


def lane_count(dtype: type[Scalar], trait_two: bool = False) -> int:
    """Lanes of a register: VL / sizeof(T), doubled for the two-register 64-bit layout."""
    return VL // dtype.size * (2 if trait_two else 1)


def mask_stride(dtype: type[Scalar], trait_two: bool = False) -> int:
    """Mask bits owned by one lane: sizeof(T); TraitTwo b64 uses the b32 format (4)."""
    return 4 if trait_two else dtype.size


def is_float(dtype: type[Scalar]) -> bool:
    return dtype in FLOAT_FORMATS


def signed(bits: int, nbits: int) -> int:
    """Two's complement value of an *nbits* pattern."""
    bits &= (1 << nbits) - 1
    return bits - (1 << nbits) if bits >> (nbits - 1) else bits


def value_of(bits: int, dtype: type[Scalar]) -> Any:
    """The number a lane's bit pattern stands for (int or float)."""
    if is_float(dtype):
        return decode_float(bits, dtype)
    if dtype in SIGNED:
        return signed(bits, width(dtype))
    return bits


def wrap(value: int, dtype: type[Scalar]) -> int:
    """Bit pattern of an integer result reduced modulo 2**width (the default CTRL[53]=0 mode)."""
    return value & ((1 << width(dtype)) - 1)


def decode_float(bits: int, dtype: type[Scalar]) -> float:
    """Decode an IEEE-style bit pattern of *dtype* into a Python float (exact)."""
    ebits, mbits = FLOAT_FORMATS[dtype]
    sign = -1.0 if bits >> (ebits + mbits) & 1 else 1.0
    exp = bits >> mbits & ((1 << ebits) - 1)
    man = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if exp == (1 << ebits) - 1:
        return sign * math.inf if man == 0 else math.nan
    if exp == 0:
        return sign * math.ldexp(man, 1 - bias - mbits)
    return sign * math.ldexp((1 << mbits) | man, exp - bias - mbits)


def encode_float(x: float | Fraction, dtype: type[Scalar], *, negative_zero: bool = False) -> int:
    """Round *x* to *dtype* (round to nearest, ties to even) and return its bit pattern.

    NaN gives the canonical quiet NaN; overflow gives infinity; a zero keeps its sign
    (``negative_zero`` gives the sign of a zero :class:`~fractions.Fraction`).
    """
    ebits, mbits = FLOAT_FORMATS[dtype]
    sign_bit = 1 << (ebits + mbits)
    inf = ((1 << ebits) - 1) << mbits
    if isinstance(x, float):
        if math.isnan(x):
            return inf | 1 << (mbits - 1)
        if math.isinf(x):
            return inf | (sign_bit if x < 0 else 0)
        negative_zero = math.copysign(1.0, x) < 0
    exact = Fraction(x)
    sign = sign_bit if exact < 0 or (exact == 0 and negative_zero) else 0
    magnitude = abs(exact)
    if magnitude == 0:
        return sign
    bias = (1 << (ebits - 1)) - 1
    exponent = math.floor(math.log2(magnitude))
    # log2 of a Fraction may be off by one at exact powers of two: settle it exactly.
    while Fraction(2) ** exponent > magnitude:
        exponent -= 1
    while Fraction(2) ** (exponent + 1) <= magnitude:
        exponent += 1
    emin = 1 - bias
    if exponent < emin:  # subnormal range: fixed quantum; n == 2**mbits is the smallest normal
        n = round(magnitude / Fraction(2) ** (emin - mbits))
        return sign | n
    n = round(magnitude / Fraction(2) ** (exponent - mbits))  # in [2**mbits, 2**(mbits+1)]
    bits = ((exponent + bias) << mbits) + (n - (1 << mbits))
    return sign | min(bits, inf)


def is_nan_bits(bits: int, dtype: type[Scalar]) -> bool:
    return is_float(dtype) and math.isnan(decode_float(bits, dtype))


def zeroing(values: Sequence[int], active: Sequence[bool]) -> list[int]:
    return [v if a else 0 for v, a in zip(values, active, strict=True)]


def merging(values: Sequence[int], old: Sequence[int], active: Sequence[bool]) -> list[int]:
    return [v if a else o for v, o, a in zip(values, old, active, strict=True)]


def elements(data: bytes | bytearray, offset: int, count: int, size: int) -> list[int]:
    """Read *count* little-endian elements of *size* bytes at byte *offset*."""
    return [
        int.from_bytes(data[offset + k * size : offset + (k + 1) * size], "little")
        for k in range(count)
    ]


def put(data: bytearray, offset: int, value: int, size: int) -> None:
    data[offset : offset + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def to_bits(array: Any) -> list[int]:
    """Bit patterns of a numpy array's elements as Python ints."""
    arr = np.ascontiguousarray(array)  # bool lanes are bytes too: view them, no 0/1 folding
    return [int(v) for v in arr.view(f"<u{arr.dtype.itemsize}")]


def from_bits(bits: Sequence[int], dtype: type[Scalar]) -> Any:
    """numpy array of *dtype* holding the given bit patterns."""
    return np.array(bits, dtype=f"<u{dtype.size}").view(dtype.np_dtype)


def same_lanes(got: Sequence[int], want: Sequence[int], dtype: type[Scalar]) -> bool:
    """Bit-exact equality, except that any NaN matches any NaN for arithmetic results."""
    if len(got) != len(want):
        return False
    return all(
        g == w or (is_nan_bits(g, dtype) and is_nan_bits(w, dtype))
        for g, w in zip(got, want, strict=True)
    )


def first_difference(got: Sequence[int], want: Sequence[int]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"lane {i}: got {g:#x}, want {w:#x}"
    return f"lengths {len(got)} != {len(want)}"


def boundary_bits(dtype: type[Scalar]) -> list[int]:
    """Boundary values of *dtype* as bit patterns: 0, 1, max, min, -1, and the IEEE specials."""
    w = width(dtype)
    full = (1 << w) - 1
    if dtype is bool_:
        return [0, 1]
    if is_float(dtype):
        ebits, mbits = FLOAT_FORMATS[dtype]
        sign = 1 << (w - 1)
        inf = ((1 << ebits) - 1) << mbits
        one = encode_float(1.0, dtype)
        specials = [
            0, sign, one, sign | one, inf, sign | inf,
            inf | 1 << (mbits - 1), sign | inf | 1 << (mbits - 1) | 3, inf | 1,  # NaNs with payloads
            1, sign | 1,  # smallest subnormals
            (1 << mbits) - 1,  # largest subnormal
            1 << mbits,  # smallest normal
            inf - 1, sign | (inf - 1),  # +-max
            encode_float(2.0, dtype), encode_float(-0.5, dtype),
        ]  # fmt: skip
        return specials
    if dtype.kind is Kind.INT:
        return [0, 1, full, 1 << (w - 1), (1 << (w - 1)) - 1, 2, full - 1, 0xAA & full]
    return [0, 1, full, full - 1, 1 << (w - 1), (1 << (w - 1)) - 1, 2, int("AA" * (w // 8), 16)]


def apply_lanes(func: Callable[..., int], *columns: Sequence[int]) -> list[int]:
    return [func(*row) for row in zip(*columns, strict=True)]


def sign_bit(dtype: type[Scalar]) -> int:
    return 1 << (width(dtype) - 1)

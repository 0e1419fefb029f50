"""Scalar references for the Reg API, written from the spec (docs/shared/spec/reg_api.md).

Everything here works one lane at a time on plain Python values: integers as Python ``int``
bit patterns, floats decoded and re-encoded by hand (IEEE 754 round to nearest even written
with ``fractions``), masks as lists of 256 bits, memory as ``bytearray``. Nothing here calls
the vectorised core in ``src/ascreg/core``: the tests compare the two.

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

# -- dtype facts (restated from the spec, not read from the implementation) ------------------

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


# -- hand-written float codec ----------------------------------------------------------------


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


# -- masks -----------------------------------------------------------------------------------

PATTERNS = {
    "ALL": 0, "VL1": 1, "VL2": 2, "VL3": 3, "VL4": 4, "VL8": 5, "VL16": 6, "VL32": 7,
    "VL64": 8, "VL128": 9, "M3": 10, "M4": 11, "H": 12, "Q": 13, "ALLF": 15,
}  # fmt: skip


def pattern_active(name: str, lanes: int) -> list[bool]:
    """Lanes a ``MaskPattern`` enables on a register of *lanes* lanes (spec §2.1 table).

    For b64 TraitOne (*lanes* == 32) H and Q are remapped to VL16 and VL8, i.e. half and
    quarter of 32, which is what the generic rule gives.
    """
    out = []
    for i in range(lanes):
        if name == "ALL":
            on = True
        elif name == "ALLF":
            on = False
        elif name.startswith("VL"):
            on = i < int(name[2:])  # n >= lanes: every lane
        elif name == "M3":
            on = i % 3 == 0
        elif name == "M4":
            on = i % 4 == 0
        elif name == "H":
            on = i < lanes // 2
        elif name == "Q":
            on = i < lanes // 4
        else:
            raise ValueError(name)
        out.append(on)
    return out


def lanes_to_mask(active: Sequence[bool], stride: int) -> list[int]:
    """256 mask bits: lane i at bit i*stride, every other bit 0."""
    bits = [0] * MASK_BITS
    for i, on in enumerate(active):
        bits[i * stride] = int(bool(on))
    return bits


def mask_to_lanes(bits: Sequence[int], lanes: int, stride: int) -> list[bool]:
    """Lane enables read from a 256-bit mask: only the lowest bit of each lane's group counts."""
    return [bool(bits[i * stride]) for i in range(lanes)]


def create_mask(dtype: type[Scalar], pattern: str, trait_two: bool = False) -> list[int]:
    lanes = lane_count(dtype, trait_two)
    return lanes_to_mask(pattern_active(pattern, lanes), mask_stride(dtype, trait_two))


def update_mask(dtype: type[Scalar], count: int, trait_two: bool = False) -> tuple[list[int], int]:
    """``UpdateMask``: the first min(count, VL_T) lanes; count -> 0 if count < VL_T else count - VL_T."""
    lanes = lane_count(dtype, trait_two)
    active = [i < count for i in range(lanes)]
    rest = 0 if count < lanes else count - lanes
    return lanes_to_mask(active, mask_stride(dtype, trait_two)), rest


def mask_op(op: str, a: Sequence[int], b: Sequence[int] | None, pred: Sequence[int]) -> list[int]:
    """MaskReg Not/And/Or/Xor/Move: bitwise over 256 bits, unselected bits 0."""
    out = []
    for k in range(MASK_BITS):
        x = a[k]
        y = b[k] if b is not None else 0
        r = {"Not": 1 - x, "And": x & y, "Or": x | y, "Xor": x ^ y, "Move": x}[op]
        out.append(r if pred[k] else 0)
    return out


def mask_select(a: Sequence[int], b: Sequence[int], sel: Sequence[int]) -> list[int]:
    return [a[k] if sel[k] else b[k] for k in range(MASK_BITS)]


def mask_from_bytes(data: bytes) -> list[int]:
    """Mask bit k = bit k%8 of byte k//8 (LSB first)."""
    return [(data[k // 8] >> (k % 8)) & 1 for k in range(8 * len(data))]


def mask_to_bytes(bits: Sequence[int]) -> bytes:
    out = bytearray(len(bits) // 8)
    for k, bit in enumerate(bits):
        out[k // 8] |= (bit & 1) << (k % 8)
    return bytes(out)


# -- compare / select ------------------------------------------------------------------------

CMP = {
    "EQ": lambda a, b: a == b,
    "NE": lambda a, b: a != b,
    "GT": lambda a, b: a > b,
    "GE": lambda a, b: a >= b,
    "LT": lambda a, b: a < b,
    "LE": lambda a, b: a <= b,
}
"""Python's operators on ints and floats are exactly the spec's rules (NaN false except NE,
+0 == -0)."""


def compare(
    mode: str, dtype: type[Scalar], a: Sequence[int], b: Sequence[int], active: Sequence[bool]
) -> list[bool]:
    return [
        bool(act) and CMP[mode](value_of(x, dtype), value_of(y, dtype))
        for x, y, act in zip(a, b, active, strict=True)
    ]


def select(a: Sequence[int], b: Sequence[int], sel: Sequence[bool]) -> list[int]:
    return [x if s else y for x, y, s in zip(a, b, sel, strict=True)]


# -- shifts ----------------------------------------------------------------------------------


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


# -- arithmetic ------------------------------------------------------------------------------


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
    """One lane of Add/Sub/Mul/Max/Min/And/Or/Xor on bit patterns."""
    w = width(dtype)
    if op in ("And", "Or", "Xor"):
        return {"And": x & y, "Or": x | y, "Xor": x ^ y}[op]
    if is_float(dtype):
        a, b = decode_float(x, dtype), decode_float(y, dtype)
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


def zeroing(values: Sequence[int], active: Sequence[bool]) -> list[int]:
    return [v if a else 0 for v, a in zip(values, active, strict=True)]


def merging(values: Sequence[int], old: Sequence[int], active: Sequence[bool]) -> list[int]:
    return [v if a else o for v, o, a in zip(values, old, active, strict=True)]


# -- memory ----------------------------------------------------------------------------------


def elements(data: bytes | bytearray, offset: int, count: int, size: int) -> list[int]:
    """Read *count* little-endian elements of *size* bytes at byte *offset*."""
    return [
        int.from_bytes(data[offset + k * size : offset + (k + 1) * size], "little")
        for k in range(count)
    ]


def put(data: bytearray, offset: int, value: int, size: int) -> None:
    data[offset : offset + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def load_dist(data: bytes, offset: int, dist: str, size: int, lanes: int) -> list[int]:
    """Lanes of a single-register ``LoadAlign`` with *dist* (spec §3.3 table)."""
    if dist == "DIST_NORM":
        return elements(data, offset, lanes, size)
    if dist.startswith("DIST_BRC"):
        return elements(data, offset, 1, size) * lanes
    if dist.startswith("DIST_US"):
        half_ = elements(data, offset, lanes // 2, size)
        return [half_[i // 2] for i in range(lanes)]
    if dist.startswith("DIST_DS"):
        double = elements(data, offset, 2 * lanes, size)
        return [double[2 * i] for i in range(lanes)]
    if dist.startswith("DIST_UNPACK4"):
        quarter = elements(data, offset, lanes // 4, size)
        return [quarter[i // 4] if i % 4 == 0 else 0 for i in range(lanes)]
    if dist.startswith("DIST_UNPACK"):
        half_ = elements(data, offset, lanes // 2, size)
        return [half_[i // 2] if i % 2 == 0 else 0 for i in range(lanes)]
    if dist == "DIST_BLK":
        block = bytes(data[offset : offset + 32])
        return elements(block * 8, 0, lanes, size)
    if dist.startswith("DIST_E2B"):
        eight = elements(data, offset, 8, size)
        per_block = 32 // size
        return [eight[i // per_block] for i in range(lanes)]
    raise ValueError(dist)


def load_dual(data: bytes, offset: int, size: int, lanes: int) -> tuple[list[int], list[int]]:
    """``DIST_DINTLV_B*``: 2*VL bytes, even elements to dst0, odd to dst1."""
    both = elements(data, offset, 2 * lanes, size)
    return both[0::2], both[1::2]


def store_norm(
    data: bytearray, offset: int, lanes: Sequence[int], active: Sequence[bool], size: int
) -> None:
    for i, (value, on) in enumerate(zip(lanes, active, strict=True)):
        if on:
            put(data, offset + i * size, value, size)


def store_pack(
    data: bytearray, offset: int, lanes: Sequence[int], active: Sequence[bool], narrow: int
) -> None:
    """PACK dists: the low *narrow* bytes of each enabled lane at its packed position."""
    for i, (value, on) in enumerate(zip(lanes, active, strict=True)):
        if on:
            put(data, offset + i * narrow, value, narrow)


def store_intlv(
    data: bytearray, offset: int, a: Sequence[int], b: Sequence[int], size: int
) -> None:
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        put(data, offset + 2 * i * size, x, size)
        put(data, offset + (2 * i + 1) * size, y, size)


MASK_LOAD_BYTES = {"DIST_NORM": 32, "DIST_US": 16, "DIST_DS": 64}


def load_mask(data: bytes, offset: int, dist: str) -> list[int]:
    """MaskReg LoadAlign: NORM 32 B; US 16 B, each bit twice; DS 64 B, every other bit."""
    bits = mask_from_bytes(bytes(data[offset : offset + MASK_LOAD_BYTES[dist]]))
    if dist == "DIST_US":
        return [bits[k // 2] for k in range(MASK_BITS)]
    if dist == "DIST_DS":
        return [bits[2 * k] for k in range(MASK_BITS)]
    return bits


def store_mask(data: bytearray, offset: int, bits: Sequence[int], dist: str) -> int:
    """MaskReg StoreAlign: NORM writes 32 B; PACK keeps the even bits, 16 B. Returns bytes."""
    kept = list(bits) if dist == "DIST_NORM" else list(bits[0::2])
    packed = mask_to_bytes(kept)
    data[offset : offset + len(packed)] = packed
    return len(packed)


# -- glue between numpy arrays and bit lists -------------------------------------------------


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


# -- unary, index, reduction, rearrangement (spec §7) -----------------------------------------


def sign_bit(dtype: type[Scalar]) -> int:
    return 1 << (width(dtype) - 1)


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


def type_extreme_bits(dtype: type[Scalar], largest: bool) -> int:
    """Bits of the type's max (largest) or min; floats: +inf / -inf (the C API reduce page)."""
    w = width(dtype)
    if is_float(dtype):
        ebits, mbits = FLOAT_FORMATS[dtype]
        infinity = ((1 << ebits) - 1) << mbits
        return infinity if largest else sign_bit(dtype) | infinity
    if dtype in SIGNED:
        return (1 << (w - 1)) - 1 if largest else 1 << (w - 1)
    return (1 << w) - 1 if largest else 0


def _greater(x: int, y: int, dtype: type[Scalar]) -> bool:
    """x > y in value, with -0 < +0 for floats (no NaN here)."""
    a, b = value_of(x, dtype), value_of(y, dtype)
    if a != b:
        return bool(a > b)
    if is_float(dtype) and a == 0:
        return not x & sign_bit(dtype) and bool(y & sign_bit(dtype))
    return False


def widen(bits: int, src: type[Scalar], dst: type[Scalar]) -> int:
    """A lane converted to the dst type: i16 -> i32 sign-extends, u16 -> u32 zero-extends."""
    return bits if src is dst else wrap(value_of(bits, src), dst)


def reduce(
    kind: str,
    dst: type[Scalar],
    src: type[Scalar],
    values: Sequence[int],
    active: Sequence[bool],
    dst_lanes: int,
) -> list[int]:
    """``Reduce``: lane 0 the result, lane 1 the first extreme's index (MAX/MIN), else 0."""
    if kind == "SUM":
        # widen each lane to the dst type (i16 -> i32 sign-extends, u16 -> u32 zero-extends)
        lanes = [widen(v, src, dst) if a else 0 for v, a in zip(values, active, strict=True)]
        while len(lanes) > 1:  # pairwise tree: (0,1), (2,3), ..., then pairs of partial sums
            lanes = [binary("Add", dst, lanes[k], lanes[k + 1]) for k in range(0, len(lanes), 2)]
        return [lanes[0]] + [0] * (dst_lanes - 1)
    largest = kind == "MAX"
    neutral = type_extreme_bits(src, largest=not largest)
    lanes = [v if a else neutral for v, a in zip(values, active, strict=True)]
    nans = [k for k, v in enumerate(lanes) if is_nan_bits(v, src)]
    if nans:
        best = nans[0]
    else:
        best = 0
        for k, v in enumerate(lanes):
            if _greater(v, lanes[best], src) if largest else _greater(lanes[best], v, src):
                best = k
    return [lanes[best], best] + [0] * (dst_lanes - 2)


def interleave(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], list[int]]:
    """dst0 = a0, b0, a1, b1, ... over the low halves; dst1 the same over the high halves."""
    n = len(a)
    zipped = []
    for k in range(n):
        zipped += [a[k], b[k]]
    return zipped[:n], zipped[n:]


def deinterleave(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], list[int]]:
    """Even lanes of concat(a, b) to dst0, odd lanes to dst1."""
    both = list(a) + list(b)
    return [both[k] for k in range(0, len(both), 2)], [both[k] for k in range(1, len(both), 2)]


# -- DataBlock mode and unaligned streams (spec §3.6, §3.7) -----------------------------------

DATA_BLOCK = 32


def load_blocks(
    data: bytes, offset: int, size: int, active: Sequence[bool], block_stride: int
) -> list[int]:
    """``DATA_BLOCK_COPY`` load: block b from ``offset + b*block_stride*32``; idle blocks are 0."""
    per_block = DATA_BLOCK // size
    out: list[int] = []
    for b in range(len(active) // per_block):
        lanes = active[b * per_block : (b + 1) * per_block]
        start = offset + b * block_stride * DATA_BLOCK
        out += elements(data, start, per_block, size) if any(lanes) else [0] * per_block
    return out


def store_blocks(
    data: bytearray,
    offset: int,
    values: Sequence[int],
    active: Sequence[bool],
    size: int,
    block_stride: int,
) -> None:
    """``DATA_BLOCK_COPY`` store: lane i of block b to ``offset + b*block_stride*32 + i*size``."""
    per_block = DATA_BLOCK // size
    for i, (value, on) in enumerate(zip(values, active, strict=True)):
        if on:
            b, k = divmod(i, per_block)
            put(data, offset + b * block_stride * DATA_BLOCK + k * size, value, size)


def unaligned_store_visible(
    original: bytes, stream_start: int, written: bytes, flushed: bool
) -> bytes:
    """UB after a contiguous StoreUnAlign stream that wrote *written* from *stream_start*.

    Before ``StoreUnAlignPost`` only the bytes up to the last 32-byte boundary at or before the
    stream's end are in UB (the rest wait in the register); after it, all of them are.
    """
    end = stream_start + len(written)
    visible_end = end if flushed else max(end - end % DATA_BLOCK, stream_start)
    out = bytearray(original)
    out[stream_start:visible_end] = written[: visible_end - stream_start]
    return bytes(out)

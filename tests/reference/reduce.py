"""Reduce SUM / MAX / MIN (spec §7): the pairwise tree, the first extreme's index."""

from __future__ import annotations

from collections.abc import Sequence

from ascreg._dtypes import Scalar
from reference.arith import binary
from reference.common import (
    FLOAT_FORMATS,
    SIGNED,
    is_float,
    is_nan_bits,
    sign_bit,
    value_of,
    width,
    wrap,
)


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


DATA_BLOCK_BYTES = 32
"""ReduceDataBlock.md: each DataBlock (32B) of the source is reduced on its own."""


def reduce_datablock(
    kind: str,
    dst: type[Scalar],
    src: type[Scalar],
    values: Sequence[int],
    active: Sequence[bool],
    dst_lanes: int,
) -> list[int]:
    """``ReduceDataBlock``: block ``k``'s SUM / MAX / MIN (no index) in dst lane ``k``, else 0."""
    per_block = DATA_BLOCK_BYTES * 8 // width(src)
    results = [
        reduce(kind, dst, src, values[k : k + per_block], active[k : k + per_block], 2)[0]
        for k in range(0, len(values), per_block)
    ]
    return results + [0] * (dst_lanes - len(results))


def pair_reduce(dtype: type[Scalar], values: Sequence[int], active: Sequence[bool]) -> list[int]:
    """``PairReduceElem`` SUM: ``v[2i] + v[2i+1]`` in the lower half (masked-off lanes +0)."""
    lanes = [v if a else 0 for v, a in zip(values, active, strict=True)]
    sums = [binary("Add", dtype, lanes[k], lanes[k + 1]) for k in range(0, len(lanes), 2)]
    return sums + [0] * (len(values) - len(sums))

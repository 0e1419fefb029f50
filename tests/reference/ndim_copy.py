"""Scalar reference of ``asc_ndim_copy_gm2ub`` (vector_datamove/asc_ndim_copy_gm2ub.md).

One output position at a time over the five nested loops (loop 0 innermost): a position inside
``[lp, lp + size)`` of every dimension copies the source element at ``sum((p - lp) * src_stride)``;
any other position is padding, the constant or (nearest-value mode) the source element with every
index clamped into its dimension. Later positions overwrite earlier ones at the same address.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any


def ndim_copy(
    src: Sequence[Any],
    dst: list[Any],
    loops: Sequence[tuple[int, int, int, int, int]],
    pad: Any,
) -> list[Any]:
    """*loops*: ``(size, left, right, dst_stride, src_stride)`` per dimension, loop 0 first;
    *pad*: the constant, or None for nearest-value padding."""
    out = list(dst)
    ranges = [range(left + size + right) for size, left, right, _, _ in reversed(loops)]
    for outer_first in itertools.product(*ranges):
        position = outer_first[::-1]
        src_at, dst_at, inside = 0, 0, True
        for p, (size, left, _, dst_stride, src_stride) in zip(position, loops, strict=True):
            relative = p - left
            inside = inside and 0 <= relative < size
            src_at += min(max(relative, 0), size - 1) * src_stride
            dst_at += p * dst_stride
        out[dst_at] = src[src_at] if inside or pad is None else pad
    return out

"""Interleave / DeInterleave of two registers' lanes."""

from __future__ import annotations

from collections.abc import Sequence


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


def gather(src: Sequence[int], index: Sequence[int]) -> list[int]:
    """dst[i] = src[index[i]]; an index past the register wraps: index % lane count."""
    return [src[index[i] % len(src)] for i in range(len(src))]


def squeeze(src: Sequence[int], mask: Sequence[int], size: int) -> list[int]:
    """The lanes whose mask bit (bit i * size) is 1, in order from lane 0; the rest 0."""
    dst = [0] * len(src)
    filled = 0
    for i in range(len(src)):
        if mask[i * size]:
            dst[filled] = src[i]
            filled += 1
    return dst

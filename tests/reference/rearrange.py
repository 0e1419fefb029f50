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

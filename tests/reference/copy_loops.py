"""Scalar reference of the basic API's ``DataCopyPad`` under the copy loop registers.

Written from the DataCopyPad (GM -> UB, UB -> GM) and SetLoopModePara pages: byte by byte,
one repetition of the two loops at a time, one block at a time.
"""

from __future__ import annotations

from typing import Any

DATA_BLOCK = 32


def _ceil32(n: int) -> int:
    return -(-n // DATA_BLOCK) * DATA_BLOCK


def _repetitions(loops: tuple[int, ...]) -> list[tuple[int, int]]:
    """(src, dst) byte offsets of the repetitions of ``(l1, l2, s1, d1, s2, d2)``."""
    l1, l2, s1, d1, s2, d2 = loops
    return [(i1 * s1 + i2 * s2, i1 * d1 + i2 * d2) for i2 in range(l2) for i1 in range(l1)]


def gm_to_ub(
    ub: bytearray,
    gm: bytes,
    size: int,
    copy: tuple[int, int, int, int],
    pads: tuple[bool, int, int, bytes],
    compact: bool,
    loops: tuple[int, ...] = (1, 1, 0, 0, 0, 0),
    pad_register: bytes | None = None,
) -> None:
    """``DataCopyPad`` GM -> UB into *ub*: *copy* = (blockCount, blockLen, srcStride, dstStride),
    *pads* = (isPad, leftPadding, rightPadding, paddingValue as *size* bytes)."""
    count, length, src_gap, dst_gap = copy
    is_pad, left, right, value = pads
    register = pad_register if pad_register is not None else bytes(size)
    for src_base, dst_base in _repetitions(loops):
        blocks = [
            gm[src_base + b * (length + src_gap) : src_base + b * (length + src_gap) + length]
            for b in range(count)
        ]
        if compact:
            at = dst_base
            for data in blocks:
                ub[at : at + length] = data
                at += length
            fill = value if is_pad else blocks[-1][:size]
            end = dst_base + _ceil32(count * length)
            for p in range(at, end, size):
                ub[p : p + size] = fill
            continue
        pad = value if is_pad else register
        span = _ceil32((left + right) * size + length)
        for b, data in enumerate(blocks):
            at = dst_base + b * (span + dst_gap * DATA_BLOCK)
            for i in range(left):
                ub[at + i * size : at + (i + 1) * size] = pad
            ub[at + left * size : at + left * size + length] = data
            after = at + left * size + length
            for i in range(right):
                ub[after + i * size : after + (i + 1) * size] = pad
            dummy = pad if (is_pad or left or right) else data[:size]
            for p in range(after + right * size, at + span, size):
                ub[p : p + size] = dummy


def ub_to_gm(
    gm: bytearray,
    ub: bytes,
    copy: tuple[int, int, int, int],
    compact: bool,
    loops: tuple[int, ...] = (1, 1, 0, 0, 0, 0),
) -> None:
    """``DataCopyPad`` UB -> GM into *gm*: *copy* = (blockCount, blockLen, srcStride
    (DataBlocks), dstStride (bytes))."""
    count, length, src_gap, dst_gap = copy
    step = length if compact else _ceil32(length) + src_gap * DATA_BLOCK
    for src_base, dst_base in _repetitions(loops):
        for b in range(count):
            s = src_base + b * step
            d = dst_base + b * (length + dst_gap)
            gm[d : d + length] = ub[s : s + length]


def as_bytes(values: Any, dtype: Any) -> bytes:
    import numpy as np

    return np.asarray(values, dtype=dtype).tobytes()

"""asc_transto5hd_b8/_b16/_b32 (asc_transto5hd.md, TransDataTo5HD.md), one element at a time.

Memory is a ``bytearray``; blocks are given by their byte addresses in it (16 sources, 16
destinations); elements are little-endian byte groups of *width* bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

BLOCK = 32


def iteration_offsets(repeat: int, stride: int) -> list[int]:
    """asc_transto5hd.md: one iteration starts a stride in; more start at 0, 1, 2, ... strides."""
    if repeat == 1:
        return [stride * BLOCK]
    return [r * stride * BLOCK for r in range(repeat)]


def _copy(src: bytearray, src_at: int, dst: bytearray, dst_at: int, width: int) -> None:
    dst[dst_at : dst_at + width] = src[src_at : src_at + width]


def transto5hd(
    src_mem: bytearray,
    dst_mem: bytearray,
    src_blocks: Sequence[int],
    dst_blocks: Sequence[int],
    width: int,
    repeat: int,
    strides: tuple[int, int],
    halves: tuple[bool, bool] = (False, False),
) -> None:
    """Pass j gathers element j of source blocks 0..15: b16 into destination block j; b32 into
    blocks 2j (sources 0-7) and 2j+1 (8-15); b8 from each source's low/high half into the
    low/high half of destination block j."""
    dst_offsets = iteration_offsets(repeat, strides[0])
    src_offsets = iteration_offsets(repeat, strides[1])
    for dst_off, src_off in zip(dst_offsets, src_offsets, strict=True):
        src = [a + src_off for a in src_blocks]
        dst = [a + dst_off for a in dst_blocks]
        if width == 1:
            dst_half, src_half = (16 * int(h) for h in halves)
            for j in range(16):
                for i in range(16):
                    _copy(src_mem, src[i] + src_half + j, dst_mem, dst[j] + dst_half + i, 1)
        elif width == 2:
            for j in range(16):
                for i in range(16):
                    _copy(src_mem, src[i] + 2 * j, dst_mem, dst[j] + 2 * i, 2)
        else:
            for j in range(8):
                for i in range(16):
                    _copy(src_mem, src[i] + 4 * j, dst_mem, dst[2 * j + i // 8] + 4 * (i % 8), 4)

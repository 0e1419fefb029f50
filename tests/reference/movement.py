"""UB gathers, scatter, DataBlock gather, histograms, Unsqueeze and the MaskReg Interleave.

Plain per-element loops written from the pages (Reg数据搬入/离散搬入（Gather|GatherB）.md,
Reg数据搬出/离散搬出（Scatter）.md, 直方图计算/Histograms.md, 数据压缩/Unsqueeze.md,
MaskReg计算/Interleave.md and the C API twins); values are bit patterns (ints).
"""

from __future__ import annotations

from collections.abc import Sequence

VL = 256


def _bytes_of(value: int, size: int) -> list[int]:
    return [(value >> (8 * k)) & 0xFF for k in range(size)]


def _lanes_of(data: Sequence[int], size: int) -> list[int]:
    return [sum(data[i + k] << (8 * k) for k in range(size)) for i in range(0, len(data), size)]


def gather_ub(
    memory: Sequence[int],
    index: Sequence[int],
    enabled: Sequence[bool],
    src_size: int,
    slot: int,
    dst_size: int,
) -> list[int]:
    """Slot i (``slot`` bytes) of dst holds ``memory[index[i]]`` zero-extended, or 0 if disabled.

    The result is dst's lanes (``dst_size`` bytes each), little-endian over the slots.
    """
    data: list[int] = []
    for i, on in enumerate(enabled):
        value = memory[index[i]] if on else 0
        data += _bytes_of(value, src_size) + [0] * (slot - src_size)
    return _lanes_of(data, dst_size)


def scatter(
    memory: Sequence[int],
    src_bytes: Sequence[int],
    index: Sequence[int],
    enabled: Sequence[bool],
    size: int,
    slot: int,
) -> list[int]:
    """``memory[index[i]] = `` the low ``size`` bytes of source slot i, for the enabled slots."""
    out = list(memory)
    for i, on in enumerate(enabled):
        if on:
            out[index[i]] = sum(src_bytes[i * slot + k] << (8 * k) for k in range(size))
    return out


def gather_blocks(
    memory_bytes: Sequence[int], offsets: Sequence[int], enabled: Sequence[bool], dst_size: int
) -> list[int]:
    """DataBlock k of dst is the 32 bytes at byte ``offsets[k]``, or 0 if disabled (k < 8)."""
    data: list[int] = []
    for k in range(8):
        start = offsets[k]
        data += list(memory_bytes[start : start + 32]) if enabled[k] else [0] * 32
    return _lanes_of(data, dst_size)


def histogram(
    dst: Sequence[int], src: Sequence[int], enabled: Sequence[bool], high: bool, cumulative: bool
) -> list[int]:
    """dst[n] += count of enabled src == base + n (FREQUENCY) or in [base, base + n]; wraps."""
    base = 128 if high else 0
    out = []
    for n in range(128):
        low = base if cumulative else base + n
        count = sum(1 for v, on in zip(src, enabled, strict=True) if on and low <= v <= base + n)
        out.append((dst[n] + count) % 65536)
    return out


def unsqueeze(enabled: Sequence[bool], bits: int) -> list[int]:
    """dst[0] = 0; dst[i] = dst[i-1] + 1 if lane i-1 is enabled else dst[i-1] (mod 2**bits)."""
    out = [0]
    for i in range(1, len(enabled)):
        out.append((out[-1] + (1 if enabled[i - 1] else 0)) % (1 << bits))
    return out


def mask_interleave(
    bits0: Sequence[int], bits1: Sequence[int], group: int, inverse: bool
) -> tuple[list[int], list[int]]:
    """Interleave (or de-interleave) two 256-bit masks in groups of *group* bits."""
    a = [list(bits0[k : k + group]) for k in range(0, len(bits0), group)]
    b = [list(bits1[k : k + group]) for k in range(0, len(bits1), group)]
    n = len(a)
    if inverse:
        both = a + b
        first, second = both[0::2], both[1::2]
    else:
        zipped = []
        for k in range(n):
            zipped += [a[k], b[k]]
        first, second = zipped[:n], zipped[n:]
    return [x for g in first for x in g], [x for g in second for x in g]


def spr_mask(spr: int, size: int) -> list[int]:
    """MoveMask<T>: bit i of the SPR (i < 256 / size) repeated *size* times."""
    return [(spr >> (k // size)) & 1 for k in range(VL)]

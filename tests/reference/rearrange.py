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


def pack(src: Sequence[int], src_bits: int, dst_bits: int, dst_lanes: int, high: bool) -> list[int]:
    """Pack.md: the low ``dst_bits`` of each lane into the low / high half of dst, else 0."""
    narrowed = [v & ((1 << dst_bits) - 1) for v in src]
    pad = [0] * (dst_lanes - len(narrowed))
    return pad + narrowed if high else narrowed + pad


def unpack(
    src: Sequence[int], src_bits: int, dst_bits: int, dst_lanes: int, high: bool, signed: bool
) -> list[int]:
    """UnPack.md: the low / high half of src widened (sign- or zero-extended), as dst bits."""
    part = src[len(src) - dst_lanes :] if high else src[:dst_lanes]
    out = []
    for v in part:
        negative = signed and v >> (src_bits - 1)
        out.append(v | (((1 << dst_bits) - 1) ^ ((1 << src_bits) - 1)) if negative else v)
    return out


def mask_pack(bits: Sequence[int], high: bool) -> list[int]:
    """MaskReg Pack.md: the even bits of src into the low / high half of dst, else 0."""
    even = list(bits[0::2])
    pad = [0] * (len(bits) - len(even))
    return pad + even if high else even + pad


def mask_unpack(bits: Sequence[int], high: bool) -> list[int]:
    """MaskReg UnPack.md: each bit of the low / high half becomes two bits, the upper one 0."""
    half = len(bits) // 2
    part = bits[half:] if high else bits[:half]
    return [b for bit in part for b in (bit, 0)]


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

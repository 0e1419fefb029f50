"""LoadAlign / StoreAlign: every dist, MaskReg loads and stores, DataBlock mode (spec §3.1-3.6).

Memory is a ``bytes`` / ``bytearray`` copy of the UB region; offsets are in bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference.common import MASK_BITS, elements, put
from reference.masks import mask_from_bytes, mask_to_bytes


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

"""MaskPattern, UpdateMask and the MaskReg bit operations (spec §2.1), on lists of 256 bits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar
from reference.common import MASK_BITS, lane_count, mask_stride

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


def part_mask(lanes: np.ndarray[Any, Any], part: int, size: int) -> list[bool]:
    """Per-bit reference from the doc: block *part* of 32 / size bytes, each bit repeated size times."""
    block_bytes = 32 // size
    raw = lanes.astype(lanes.dtype.newbyteorder("<")).tobytes()[part * block_bytes :][:block_bytes]
    bits = [(raw[k // 8] >> (k % 8)) & 1 == 1 for k in range(8 * block_bytes)]
    return [bit for bit in bits for _ in range(size)]


def mask_from_block(data: bytes, offset: int, size: int) -> list[int]:
    """MaskGenWithRegTensor: block *offset* (``32 / size`` bytes) of the register, each bit
    (LSB first) broadcast to the *size* mask bits of one lane."""
    block = 32 // size
    chunk = data[offset * block : (offset + 1) * block]
    return [(byte >> k) & 1 for byte in chunk for k in range(8) for _ in range(size)]

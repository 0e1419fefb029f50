"""Width changes between a register's halves: ``Pack`` / ``UnPack`` (registers and masks).

* Pack keeps the low half of the bits of each source lane (b16 -> 8, b32 -> 16, b64 -> 32)
  and writes the narrowed lanes to the low (``high`` False) or high half of the destination;
  the other half is 0 (the dav-3510 64-bit path builds it from a zero register).
* UnPack widens the lanes of the source's low or high half: zero-extended for unsigned types,
  sign-extended for signed ones.
* The MaskReg forms: Pack keeps the even bits of the 256 mask bits (128) in the low or high
  half of the result, the other half 0; UnPack spreads each bit of the chosen half over two
  bits (the upper one 0).

A destination as wide as the source (a 64-bit RegTraitNumTwo register) takes every lane.

Examples
--------
>>> import numpy as np
>>> pack(np.int16([0x1234, -1]), np.dtype(np.uint8), 4, high=True)
array([  0,   0,  52, 255], dtype=uint8)
>>> unpack(np.int8([1, -2, 3, -4]), np.dtype(np.int16), 2, high=True)
array([ 3, -4], dtype=int16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]


def pack(values: Lanes, target: np.dtype[Any], lanes: int, *, high: bool) -> Lanes:
    """Narrow *values* to *target* (their low bits) into the low or *high* half of *lanes*.

    Examples
    --------
    >>> pack(np.uint32([0x12345678, 7]), np.dtype(np.uint16), 4, high=False)
    array([22136,     7,     0,     0], dtype=uint16)
    """
    unsigned = np.dtype(f"u{values.dtype.itemsize}")
    narrow = values.view(unsigned).astype(target)  # integer casts keep the low bits
    out = np.zeros((*narrow.shape[:-1], lanes), dtype=target)  # (rows of a batched loop too)
    count = narrow.shape[-1]
    start = lanes - count if high else 0
    out[..., start : start + count] = narrow
    return out


def unpack(values: Lanes, target: np.dtype[Any], lanes: int, *, high: bool) -> Lanes:
    """Widen the low or *high* half of *values* (its last *lanes* lanes) to *target*.

    Signed lanes are sign-extended, unsigned lanes zero-extended.

    Examples
    --------
    >>> unpack(np.uint8([1, 255, 3, 4]), np.dtype(np.uint16), 2, high=False)
    array([  1, 255], dtype=uint16)
    """
    start = values.shape[-1] - lanes if high else 0
    widened: Lanes = values[..., start : start + lanes].astype(target)
    return widened


def mask_pack(bits: Lanes, *, high: bool) -> Lanes:
    """Keep the even *bits* (half of them) in the low or *high* half of the result, else 0.

    Examples
    --------
    >>> mask_pack(np.array([1, 0, 0, 1, 1, 1, 0, 0], bool), high=False).astype(int)
    array([1, 0, 1, 0, 0, 0, 0, 0])
    """
    out = np.zeros_like(bits)
    half = bits.shape[-1] // 2
    out[..., half * high : half * high + half] = bits[..., 0::2]
    return out


def mask_unpack(bits: Lanes, *, high: bool) -> Lanes:
    """Spread each bit of the low or *high* half of *bits* over two bits (the upper one 0).

    Examples
    --------
    >>> mask_unpack(np.array([1, 1, 0, 1], bool), high=True).astype(int)
    array([0, 0, 1, 0])
    """
    half = bits.shape[-1] // 2
    out = np.zeros_like(bits)
    out[..., 0::2] = bits[..., half * high : half * high + half]
    return out

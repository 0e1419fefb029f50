"""Lane semantics of the advanced API's ``Arange`` and ``PhiloxRandom`` on dav-3510.

* :func:`arange`: the arithmetic progression as the implementation builds it: one register of
  ``lane * diff + first`` (``Arange``, ``Muls``, ``Adds`` on T's lanes), then each next
  register the previous one plus ``lanes * diff`` (``Add``): a float sequence accumulates its
  roundings register by register, an integer one wraps.
* :func:`philox`: the Philox4x32 counter-based generator (Salmon et al., "Parallel random
  numbers: as easy as 1, 2, 3", SC 2011) with the implementation's constants and *rounds*
  (7 or 10): block b of the output is ``philox(counter + b, key)``, four 32-bit words, the
  128-bit counter incremented with carry; :func:`unit_floats` maps words to ``[0, 1)`` floats
  as ``UInt2Float`` does (23 random mantissa bits under exponent 0, minus 1).

Examples
--------
>>> import numpy as np
>>> arange(np.dtype(np.int32), 5, 3, 4).tolist()
[5, 8, 11, 14]
>>> [hex(int(w)) for w in philox(np.zeros(2, np.uint32), np.zeros(4, np.uint32), [0], 10)[0]]
['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ascreg.core import arith

Lanes = np.ndarray[Any, Any]

VECTOR_BYTES = 256
"""One register's bytes (``ONE_REPEAT_BYTE_SIZE``)."""

PHILOX_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
PHILOX_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)


def arange(dtype: np.dtype[Any], first: Any, diff: Any, count: int) -> Lanes:
    """Return ``count`` elements of the progression ``first, first + diff, ...`` (see the module).

    Examples
    --------
    >>> arange(np.dtype(np.float16), 0.0, 0.1, 130)[[1, 127, 128, 129]].tolist()
    [0.0999755859375, 12.6953125, 12.796875, 12.8984375]
    """
    lanes = VECTOR_BYTES // dtype.itemsize * (2 if dtype.itemsize == 8 else 1)
    mul, add = arith.BINARY_OPS["Mul"], arith.BINARY_OPS["Add"]
    d = np.full(lanes, diff, dtype)
    register = add(mul(np.arange(lanes).astype(dtype), d), np.full(lanes, first, dtype))
    step = mul(np.full(lanes, lanes, dtype), d)
    out = np.empty(-(-count // lanes) * lanes, dtype)
    for r in range(out.size // lanes):
        out[r * lanes : (r + 1) * lanes] = register
        register = add(register, step)
    return out[:count]


def _counters(counter: Lanes, blocks: Lanes) -> Lanes:
    """Return the 128-bit ``counter + block`` of each block as four uint32 words (with carry)."""
    low = (int(counter[0]) | int(counter[1]) << 32) + blocks.astype(object)
    high = (int(counter[2]) | int(counter[3]) << 32) + (low >> 64)
    words = [
        low & 0xFFFFFFFF,
        (low >> 32) & 0xFFFFFFFF,
        high & 0xFFFFFFFF,
        (high >> 32) & 0xFFFFFFFF,
    ]
    return np.stack([np.asarray(w, dtype=np.uint64).astype(np.uint32) for w in words], axis=-1)


def philox(key: Lanes, counter: Lanes, blocks: Sequence[int] | Lanes, rounds: int) -> Lanes:
    """Return the four Philox4x32 words of each counter block ``counter + b`` (uint32, (n, 4)).

    Each round multiplies words 0 and 2 by the two constants (64-bit products), makes the new
    words ``(hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)`` and bumps the key by the Weyl steps.

    Examples
    --------
    >>> philox(np.uint32([1, 2]), np.uint32([3, 4, 5, 6]), [0, 1], 7).shape
    (2, 4)
    """
    c = _counters(np.asarray(counter, np.uint32), np.asarray(blocks, np.int64))
    c0, c1, c2, c3 = (c[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = (np.uint64(int(k)) for k in np.asarray(key, np.uint32))
    m0, m1 = (np.uint64(m) for m in PHILOX_MULTIPLIERS)
    mask = np.uint64(0xFFFFFFFF)
    for _ in range(rounds):
        p0, p1 = c0 * m0, c2 * m1
        hi0, lo0, hi1, lo1 = p0 >> np.uint64(32), p0 & mask, p1 >> np.uint64(32), p1 & mask
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0 = (k0 + np.uint64(PHILOX_KEY_STEPS[0])) & mask
        k1 = (k1 + np.uint64(PHILOX_KEY_STEPS[1])) & mask
    return np.stack([c0, c1, c2, c3], axis=-1).astype(np.uint32)


def unit_floats(words: Lanes) -> Lanes:
    """``UInt2Float``: ``float(0x3F800000 | (w & 0x7FFFFF)) - 1.0``, a float in ``[0, 1)``.

    Examples
    --------
    >>> unit_floats(np.uint32([0, 0xFFFFFFFF, 0x400000])).tolist()
    [0.0, 0.9999998807907104, 0.5]
    """
    ones = ((words & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32)
    result: Lanes = arith.BINARY_OPS["Add"](ones, np.full(ones.shape, -1.0, np.float32))
    return result


MAX_BROADCAST_RANK = 9


def broadcast_tiling(
    dst_shape: Sequence[int], src_shape: Sequence[int], itemsize: int
) -> dict[str, Any]:
    """Return the ``BroadcastTiling`` fields ``GetBroadcastTilingInfo`` computes (dynamic rank).

    Runs of broadcast axes and of copied axes are fused; a 64-bit type is handled as pairs of
    32-bit words (a last axis of 2 appended, or the last axis doubled); strides are row-major
    with 0 on broadcast axes (``srcStride[9]`` for the 9-axis 64-bit loop).

    Examples
    --------
    >>> t = broadcast_tiling([4, 3, 5], [4, 1, 1], 4)
    >>> t["rank"], t["dstShape"][:2], t["srcStride"][:2]
    (2, [4, 15], [1, 0])
    """
    rank = len(dst_shape)
    dst = [int(v) for v in dst_shape] + [1] * (MAX_BROADCAST_RANK - rank)
    src = [int(v) for v in src_shape] + [1] * (MAX_BROADCAST_RANK - rank)
    src_size = int(np.prod(src[:rank], dtype=np.int64))
    dst_size = int(np.prod(dst[:rank], dtype=np.int64))
    out = {"oriRank": rank, "oriSrcShape": src[:], "oriDstShape": dst[:], "loopNum": 0}
    new_dst, new_src, fused = [], [], rank
    i = 0
    while i < rank:
        begin, size = i, 1
        while i < rank and src[i] == 1 and dst[i] != 1:
            size *= dst[i]
            i += 1
        if i > begin:
            new_dst.append(size)
            new_src.append(1)
            fused -= i - begin - 1
        begin, size = i, 1
        while i < rank and src[i] == dst[i]:
            size *= dst[i]
            i += 1
        if i > begin:
            new_dst.append(size)
            new_src.append(size)
            fused -= i - begin - 1
    new_dst += [1] * (MAX_BROADCAST_RANK - len(new_dst))
    new_src += [1] * (MAX_BROADCAST_RANK - len(new_src))
    rank = fused
    src_stride = [0] * (MAX_BROADCAST_RANK + 1)
    if itemsize == 8 and src_size != dst_size:
        if new_src[rank - 1] == 1 and new_dst[rank - 1] != 1:
            if rank < MAX_BROADCAST_RANK:
                new_dst[rank], new_src[rank] = 2, 2
                rank += 1
            else:
                out["loopNum"] = new_dst[0]
        else:
            new_src[rank - 1] *= 2
            new_dst[rank - 1] *= 2
        src_size, dst_size = src_size * 2, dst_size * 2
    zero_outer = False
    if out["loopNum"]:
        if new_src[0] == 1 and new_dst[0] != 1:
            zero_outer = True
        new_dst = [*new_dst[1:], 2]
        new_src = [*new_src[1:], 2]
    dst_stride = [0] * MAX_BROADCAST_RANK
    last_src = last_dst = 1
    for k in range(min(rank, MAX_BROADCAST_RANK) - 1, -1, -1):
        dst_stride[k] = last_dst
        last_dst *= new_dst[k]
        if new_src[k] == 1 and new_dst[k] != 1:
            src_stride[k] = 0
        else:
            src_stride[k] = last_src
            last_src *= new_src[k]
    if out["loopNum"] and not zero_outer:
        src_stride[MAX_BROADCAST_RANK] = last_src
    out.update(rank=rank, dstSize=dst_size, srcSize=src_size, dstShape=new_dst,
               dstStride=dst_stride, srcStride=src_stride)  # fmt: skip
    return out

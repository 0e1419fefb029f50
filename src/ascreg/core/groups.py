"""Lane semantics of the cooperative groups: ranks and lanes inside a 32-bit warp lane mask.

A coalesced group is a set of lanes of one warp, a ``uint32`` mask (bit *i*: lane *i*). Its
members are numbered by rank: the rank of a lane is the number of member lanes below it. Every
function works per lane on numpy arrays (one mask, lane and value per SIMT thread).

Examples
--------
>>> import numpy as np
>>> mask = np.uint32(0b1011_0100)
>>> rank_of(mask, np.array([2, 4, 5, 7])).tolist(), lane_of(mask, np.array([0, 3])).tolist()
([0, 1, 2, 3], [2, 7])
"""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]
_BITS = np.arange(32, dtype=np.uint64)


def _bits(mask: Any) -> Arr:
    """Return the 32 bits of each mask, least significant first, on a new last axis."""
    wide = np.asarray(mask).astype(np.uint64)[..., None]
    return ((wide >> _BITS) & np.uint64(1)).astype(bool)


def popcount(mask: Any) -> Arr:
    """Return the number of lanes in each mask (``__popc``).

    Examples
    --------
    >>> popcount(np.array([0, 0xFFFFFFFF], np.uint32)).tolist()
    [0, 32]
    """
    return np.asarray(_bits(mask).sum(axis=-1).astype(np.uint32))


def rank_of(mask: Any, lane: Any) -> Arr:
    """Return the rank of *lane* in *mask*: the member lanes below it.

    Examples
    --------
    >>> rank_of(np.uint32(0xF0), np.array([4, 6])).tolist()
    [0, 2]
    """
    below = (np.uint64(1) << np.asarray(lane).astype(np.uint64)) - np.uint64(1)
    return popcount(np.asarray(mask).astype(np.uint64) & below)


def lane_of(mask: Any, rank: Any) -> Arr:
    """Return the lane of member *rank* of *mask* (the rank-th set bit); 32 when there is none.

    Examples
    --------
    >>> lane_of(np.uint32(0xF0), np.array([0, 3, 4])).tolist()
    [4, 7, 32]
    """
    bits = _bits(mask)
    ranks = np.cumsum(bits, axis=-1) - 1  # the rank of each member lane
    hit = bits & (ranks == np.asarray(rank)[..., None])
    return np.asarray(np.where(hit.any(axis=-1), hit.argmax(axis=-1), 32).astype(np.int32))


def compact(bits: Any, mask: Any) -> Arr:
    """Pack the bits of *bits* at the lanes of *mask* into rank order (bit *r*: member *r*).

    Examples
    --------
    >>> hex(int(compact(np.uint32(0b1010_0000), np.uint32(0xF0))))
    '0xa'
    """
    member = _bits(mask)
    ranks = np.cumsum(member, axis=-1) - 1
    chosen = member & _bits(bits)
    weights = np.where(chosen, np.uint64(1) << np.maximum(ranks, 0).astype(np.uint64), 0)
    return np.asarray(weights.sum(axis=-1).astype(np.uint32))


def tile_bits(ballot: Any, lane: Any, size: int) -> Arr:
    """Return the *size* bits of a warp-wide *ballot* that belong to *lane*'s tile of *size* lanes.

    Examples
    --------
    >>> hex(int(tile_bits(np.uint32(0xABCD1234), 9, 8)))
    '0x12'
    """
    start = (np.asarray(lane).astype(np.uint64) // np.uint64(size)) * np.uint64(size)
    low = np.uint64((1 << size) - 1)
    return np.asarray(((np.asarray(ballot).astype(np.uint64) >> start) & low).astype(np.uint32))

"""Register rearrangement: ``Interleave`` / ``DeInterleave``, ``Gather`` and ``Squeeze``.

All are pure lane moves (bit-exact for every type, NaN payloads included):

* Interleave: ``dst0 = [a0, b0, a1, b1, ...]`` over the low halves of ``a`` and ``b``,
  ``dst1`` the same over the high halves.
* DeInterleave: the even lanes of ``concat(a, b)`` go to ``dst0``, the odd lanes to ``dst1``
  (the inverse of Interleave).
* Gather: ``dst[i] = src[index[i] % lanes]``.
* Squeeze: the lanes the mask selects, packed from lane 0 up in order; the tail is 0.

Examples
--------
>>> import numpy as np
>>> interleave(np.array([0, 1, 2, 3]), np.array([10, 11, 12, 13]))
(array([ 0, 10,  1, 11]), array([ 2, 12,  3, 13]))
>>> deinterleave(np.array([0, 10, 1, 11]), np.array([2, 12, 3, 13]))
(array([0, 1, 2, 3]), array([10, 11, 12, 13]))
>>> gather(np.array([5, 6, 7, 8]), np.array([3, 0, 6, 1], dtype=np.uint8))
array([8, 5, 7, 6])
>>> squeeze(np.array([5, 6, 7, 8]), np.array([False, True, False, True]))
array([6, 8, 0, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]


def interleave(a: Lanes, b: Lanes) -> tuple[Lanes, Lanes]:
    """Return ``(dst0, dst1)``: ``a`` and ``b`` zipped lane by lane, split in two halves."""
    both = np.empty(2 * a.size, dtype=a.dtype)
    both[0::2] = a
    both[1::2] = b
    return both[: a.size].copy(), both[a.size :].copy()


def deinterleave(a: Lanes, b: Lanes) -> tuple[Lanes, Lanes]:
    """Return ``(dst0, dst1)``: the even and the odd lanes of ``concat(a, b)``."""
    both = np.concatenate([a, b])
    return both[0::2].copy(), both[1::2].copy()


def gather(src: Lanes, index: Lanes) -> Lanes:
    """Return ``src[index[i] % lanes]`` for every lane i (an index wraps modulo the lane count)."""
    return src[index.astype(np.int64) % src.size]


def squeeze(src: Lanes, enables: Lanes) -> Lanes:
    """Return the enabled lanes of *src* packed from lane 0 up, the remaining lanes 0."""
    kept = src[enables]
    out = np.zeros_like(src)
    out[: kept.size] = kept
    return out

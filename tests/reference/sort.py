"""asc_bitsort / asc_mrgsort4 (Sort32.md, MrgSort.md, asc_mrgsort4.md), one record at a time.

A record is a ``(score, index)`` tuple; the score is a Python float (NaN allowed), the index an
int (for ``half`` the reserved bytes are carried as part of the index word's neighbour: the tests
compare whole 8-byte records).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Record = tuple[float, int]


def _above(a: float, b: float) -> bool:
    """Whether score *a* goes before *b*: larger first; NaN is below every number."""
    if math.isnan(a):
        return False
    return math.isnan(b) or a > b


def sort32(scores: Sequence[float], indices: Sequence[int]) -> list[Record]:
    """Sort32.md: each group of 32 sorted by score, highest first; score[j] before an equal
    score[i] when i > j (insertion sort keeps the input order of equal scores)."""
    out: list[Record] = []
    for start in range(0, len(scores), 32):
        group: list[Record] = []
        for pair in zip(scores[start : start + 32], indices[start : start + 32], strict=True):
            at = len(group)
            while at > 0 and _above(pair[0], group[at - 1][0]):
                at -= 1
            group.insert(at, pair)
        out += group
    return out


def merge4(queues: Sequence[Sequence[Record]], stop_on_exhaustion: bool) -> list[Record]:
    """MrgSort.md: repeatedly take the highest queue head (ties: the lower queue); with
    *stop_on_exhaustion* stop as soon as one queue is empty."""
    heads = [0] * len(queues)
    out: list[Record] = []
    while True:
        left = [q for q in range(len(queues)) if heads[q] < len(queues[q])]
        if not left or (stop_on_exhaustion and len(left) < len(queues)):
            return out
        best = left[0]
        for q in left[1:]:
            if _above(queues[q][heads[q]][0], queues[best][heads[best]][0]):
                best = q
        out.append(queues[best][heads[best]])
        heads[best] += 1

"""Scalar reference of TopK's RADIX_SELECT (TopK.md, the dav-3510 implementation's order).

One value at a time: the radix key of its bit pattern, the k-th key, the values above it then
those equal to it (both in index order), then Python's stable sort by key, largest first.
"""

from __future__ import annotations


def radix_key(bits: int, width: int, kind: str, smallest: bool) -> int:
    """The unsigned key of a *width*-bit pattern: ``f`` float, ``i`` signed, ``u`` unsigned."""
    sign = 1 << (width - 1)
    full = (1 << width) - 1
    if kind == "f":
        key = (~bits & full) if bits & sign else (bits | sign)
    elif kind == "i":
        key = bits ^ sign
    else:
        key = bits
    return (~key & full) if smallest else key


def topk_row(keys: list[int], k: int, sort: bool) -> list[int]:
    """The positions TopK outputs for one row of keys."""
    kth = sorted(keys, reverse=True)[k - 1]
    above = [i for i, key in enumerate(keys) if key > kth]
    equal = [i for i, key in enumerate(keys) if key == kth]
    taken = (above + equal)[:k]
    if sort:
        taken = sorted(taken, key=lambda i: -keys[i])  # stable
    return taken

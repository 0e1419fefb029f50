"""Cooperative-group lane arithmetic, one lane at a time with Python ints."""

from __future__ import annotations


def ref_members(mask: int) -> list[int]:
    """The lanes of *mask*, lowest first (rank order)."""
    return [lane for lane in range(32) if mask >> lane & 1]


def ref_rank_of(mask: int, lane: int) -> int:
    return sum(1 for member in ref_members(mask) if member < lane)


def ref_lane_of(mask: int, rank: int) -> int:
    members = ref_members(mask)
    return members[rank] if rank < len(members) else 32


def ref_compact(bits: int, mask: int) -> int:
    return sum(1 << r for r, lane in enumerate(ref_members(mask)) if bits >> lane & 1)

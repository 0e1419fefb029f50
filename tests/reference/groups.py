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


def ref_coalesced(mask: int, lane: int, var: list[int], pred: list[bool]) -> dict[str, int]:
    """Every member of the coalesced group *mask*, seen from *lane* (values by lane)."""
    members = ref_members(mask)
    rank, count = ref_rank_of(mask, lane), len(members)
    votes = sum(1 << m for m in members if pred[m])
    same = [m for m in members if (m % 2 == 0) == (lane % 2 == 0)]
    return {
        "thread_rank": rank,
        "size": count,
        "shfl": var[members[3 % count]],
        "shfl_up": var[members[rank - 1]] if rank >= 1 else var[lane],
        "shfl_down": var[members[rank + 2]] if rank + 2 < count else var[lane],
        "ballot": ref_compact(votes, mask),
        "any": int(votes != 0),
        "all": int(votes == sum(1 << m for m in members)),
        "partition": same.index(lane) + 100 * len(same),
    }


def ref_tile(size: int, t: int, var: list[int], pred: list[bool]) -> dict[str, int]:
    """Every member of the tile of *size* threads holding thread *t* (values by thread)."""
    base, rank = t - t % size, t % size
    votes = [pred[base + r] for r in range(size)]
    return {
        "thread_rank": rank,
        "meta_group_rank": t // size,
        "shfl": var[base + 3 % size],
        "shfl_up": var[t - 1] if rank >= 1 else var[t],
        "shfl_down": var[t + 2] if rank + 2 < size else var[t],
        "shfl_xor": var[base + (rank ^ 5)],
        "ballot": sum(1 << r for r, v in enumerate(votes) if v),
        "any": int(any(votes)),
        "all": int(all(votes)),
    }

"""SIMT warp functions (shuffles, votes, reductions) over 32-lane warps, per thread."""

from __future__ import annotations

WARP = 32


def warp_reference(v: list[int]) -> list[list[int]]:
    """The ten columns ``tests/simt/test_warp.py`` writes, for int32 lanes *v* (thread t = v[t]).

    In order: ``asc_shfl(v, t*7 % 32, 8)``, ``asc_shfl_up(v, 3)``, ``asc_shfl_down(v, 5, 16)``,
    ``asc_shfl_xor(v, 6, 4)``, ``asc_ballot(v % 3 == 0)``, ``asc_all(v > -1000)``,
    ``asc_any(v == 5)``, ``asc_reduce_add(v)``, ``asc_reduce_max(v)``, ``laneid()``.
    """
    n = len(v)
    out: list[list[int]] = [[] for _ in range(10)]
    for t in range(n):
        base, lane = t - t % WARP, t % WARP

        def at(lane_: int, base: int = base) -> int:
            return v[base + lane_]

        g8 = lane // 8 * 8
        out[0].append(at(g8 + (t * 7 % 32) % 8))
        out[1].append(at(lane - 3) if lane - 3 >= 0 else v[t])
        g16 = lane // 16 * 16
        out[2].append(at(lane + 5) if lane + 5 < g16 + 16 else v[t])
        g4 = lane // 4 * 4
        out[3].append(at(lane ^ 6) if (lane ^ 6) < g4 + 4 else v[t])
        warp = v[base : base + WARP]
        bits = sum(1 << i for i, w in enumerate(warp) if w % 3 == 0)
        out[4].append(bits - (1 << 32) if bits >= 1 << 31 else bits)
        out[5].append(int(all(w > -1000 for w in warp)))
        out[6].append(int(any(w == 5 for w in warp)))
        total = sum(warp) % (1 << 32)
        out[7].append(total - (1 << 32) if total >= 1 << 31 else total)
        out[8].append(max(warp))
        out[9].append(lane)
    return out


def warp_reduce_min(v: list[int]) -> list[int]:
    """``asc_reduce_min``: every thread gets the minimum of its warp's lanes."""
    return [min(v[t - t % WARP : t - t % WARP + WARP]) for t in range(len(v))]

"""The masked compare/select/shift VF over about a million uint16 elements.

Three implementations of the same work, timed with the best of several runs:

* ascreg: the VF written with ``Reg.*`` calls (128 lanes per iteration, tail of 45 lanes);
* a hand-written numpy loop over the same 128-lane slices (what a careful prototype costs);
* whole-array numpy (the floor).

Target (issue 2): ascreg <= 2x the per-128-lane numpy loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg import CMPMODE, VL, Ref, Reg, UbPtr, UnifiedBuffer, int16_t, uint16_t

LANES = VL // uint16_t.size
COUNT = 1_048_576 - LANES + 45  # 8192 iterations, the last one with 45 lanes
CHUNK = 24 * 1024  # elements per UB tile (4 buffers x 48 KiB fit in 248 KiB)


def ascreg_vf(
    dst: UbPtr[uint16_t], a: UbPtr[uint16_t], b: UbPtr[uint16_t], s: UbPtr[int16_t], count: int
) -> None:
    """``__simd_vf__``: dst = (a > b ? a : b) >> s on the enabled lanes."""
    ra, rb, rs = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t]()
    sel, out, gt = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.MaskReg()
    remaining = Ref(count)
    for i in range(-(-count // LANES)):
        mask = Reg.UpdateMask[uint16_t](remaining)
        offset = i * LANES
        Reg.LoadAlign(ra, a + offset)
        Reg.LoadAlign(rb, b + offset)
        Reg.LoadAlign(rs, s + offset)
        Reg.Compare[uint16_t, CMPMODE.GT](gt, ra, rb, mask)
        Reg.Select(sel, ra, rb, gt)
        Reg.ShiftRight(out, sel, rs, mask)
        Reg.StoreAlign(dst + offset, out, mask)


def run_ascreg(a: Any, b: Any, s: Any) -> Any:
    """Tile the data through a UnifiedBuffer and run the VF on each tile."""
    ub = UnifiedBuffer()
    pa, pb, pd = (ub.alloc(uint16_t, CHUNK) for _ in range(3))
    ps = ub.alloc(int16_t, CHUNK)
    out = np.zeros(COUNT, dtype=np.uint16)
    for start in range(0, COUNT, CHUNK):
        n = min(CHUNK, COUNT - start)
        padded = -(-n // LANES) * LANES
        pa.write(a[start : start + padded])
        pb.write(b[start : start + padded])
        ps.write(s[start : start + padded])
        ascreg_vf(pd, pa, pb, ps, n)
        out[start : start + n] = pd.read(n)
    return out


def run_numpy_loop(a: Any, b: Any, s: Any) -> Any:
    """The same VF as a hand-written numpy loop over 128-lane slices."""
    out = np.zeros(COUNT, dtype=np.uint16)
    lane = np.arange(LANES)
    for i in range(-(-COUNT // LANES)):
        lo = i * LANES
        mask = lane < COUNT - lo
        ra, rb, rs = a[lo : lo + LANES], b[lo : lo + LANES], s[lo : lo + LANES]
        gt = (ra > rb) & mask
        sel = np.where(gt, ra, rb)
        shifted = np.where(rs >= 16, 0, sel >> np.minimum(rs, 15).astype(np.uint16))
        res = np.where(mask, shifted, 0).astype(np.uint16)
        np.copyto(
            out[lo : lo + LANES],
            res[: out[lo : lo + LANES].size],
            where=mask[: out[lo : lo + LANES].size],
        )
    return out


def run_numpy_whole(a: Any, b: Any, s: Any) -> Any:
    """Whole-array numpy."""
    a, b, s = a[:COUNT], b[:COUNT], s[:COUNT]
    sel = np.maximum(a, b)
    return np.where(s >= 16, 0, sel >> np.minimum(s, 15).astype(np.uint16)).astype(np.uint16)


def best_of(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Return the best wall time of *repeats* runs and the last result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def run() -> list[str]:
    """Time the three implementations and report ratios."""
    rng = np.random.default_rng(0)
    total = -(-COUNT // LANES) * LANES
    a = rng.integers(0, 1 << 16, total).astype(np.uint16)
    b = rng.integers(0, 1 << 16, total).astype(np.uint16)
    s = rng.integers(0, 18, total).astype(np.int16)
    t_reg, r_reg = best_of(lambda: run_ascreg(a, b, s), 3)
    t_loop, r_loop = best_of(lambda: run_numpy_loop(a, b, s), 3)
    t_whole, r_whole = best_of(lambda: run_numpy_whole(a, b, s), 5)
    assert np.array_equal(r_reg, r_whole) and np.array_equal(r_loop, r_whole)
    return [
        f"VF compare/select/shift over {COUNT} uint16 ({LANES} lanes/iter, tail {COUNT % LANES}):",
        f"  ascreg              {t_reg * 1e3:9.1f} ms",
        f"  numpy 128-lane loop {t_loop * 1e3:9.1f} ms   ascreg / loop  = {t_reg / t_loop:6.2f}x (target <= 2x)",
        f"  numpy whole-array   {t_whole * 1e3:9.1f} ms   ascreg / whole = {t_reg / t_whole:6.0f}x",
    ]

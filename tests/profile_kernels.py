"""Kernels and cost tables the profiler tests share (tests/profile/).

``pipeline`` is the copy-compute-copy kernel of the property tests: each tile is copied in on
MTE2, doubled by a ``__simd_vf__`` on V and copied out on MTE3, with one or two buffers per
stage, ordered by hand-written flags (one event id per buffer), and optionally a ``PIPE_ALL``
barrier after chosen tiles. :func:`record` runs it once per shape and keeps the recording (the
tests schedule it with many cost tables).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import ascreg
from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, float32_t
from ascreg.c_api import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
)
from ascreg.machine.kernel import __simd_vf__
from ascreg.profile import Cost, CostTable, Profile

TILE = 256
"""Floats per tile (1 KiB: four vector registers)."""
REPEATS = TILE // 64
"""Vector repeats per tile (64 floats a register)."""


@__simd_vf__
def double_vf(dst: UbPtr[float32_t], src: UbPtr[float32_t], n: int) -> None:
    mask = Reg.CreateMask[float32_t]()
    r = Reg.RegTensor[float32_t]()
    for i in range(n // 64):
        Reg.LoadAlign(r, src + i * 64)
        Reg.Add(r, r, r, mask)
        Reg.StoreAlign(dst + i * 64, r, mask)


@__global__
@__vector__
def pipeline(
    x: GmPtr[float32_t], y: GmPtr[float32_t], tiles: int, buffers: int, barriers: tuple[int, ...]
) -> None:
    xs = [__ubuf__(float32_t, TILE) for _ in range(buffers)]
    ys = [__ubuf__(float32_t, TILE) for _ in range(buffers)]
    for t in range(tiles):
        b = t % buffers
        if t >= buffers:
            asc_sync_wait(PIPE_V, PIPE_MTE2, b)  # x[b] read by the VF of tile t - buffers
        asc_copy_gm2ub_align(xs[b], x + t * TILE, TILE * 4)
        asc_sync_notify(PIPE_MTE2, PIPE_V, b)
        asc_sync_wait(PIPE_MTE2, PIPE_V, b)
        if t >= buffers:
            asc_sync_wait(PIPE_MTE3, PIPE_V, b)  # y[b] copied out for tile t - buffers
        double_vf(ys[b], xs[b], TILE)
        asc_sync_notify(PIPE_V, PIPE_MTE2, b)
        asc_sync_notify(PIPE_V, PIPE_MTE3, b)
        asc_sync_wait(PIPE_V, PIPE_MTE3, b)
        asc_copy_ub2gm_align(y + t * TILE, ys[b], TILE * 4)
        asc_sync_notify(PIPE_MTE3, PIPE_V, b)
        if t in barriers:
            asc_sync()
    for b in range(min(buffers, tiles)):  # the flags of the last tiles nobody waited for
        asc_sync_wait(PIPE_V, PIPE_MTE2, b)
        asc_sync_wait(PIPE_MTE3, PIPE_V, b)


@functools.lru_cache(maxsize=256)
def record(tiles: int, buffers: int, barriers: tuple[int, ...] = ()) -> Profile:
    """Run :func:`pipeline` under a profile (checking its result) and return the profile."""
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, tiles * TILE), gm.alloc(float32_t, tiles * TILE)
    data = np.arange(tiles * TILE, dtype=np.float32)
    x.write(data)
    with ascreg.profile() as prof:
        pipeline[1, 0, None](x, y, tiles, buffers, barriers)
    assert np.array_equal(y.read(tiles * TILE), 2 * data)
    return prof


def equal_stages(stage: float = 1000.0) -> CostTable:
    """A table where a tile's copy in, its VF and its copy out each take *stage* cycles."""
    per_op = stage / (3 * REPEATS)  # LoadAlign, Add, StoreAlign a repeat
    return ascreg.profile.DAV_3510.override(
        {
            "MTE2": Cost(0, stage / (TILE * 4), "test"),
            "MTE3": Cost(0, stage / (TILE * 4), "test"),
            "vf_call": Cost(0, 0, "test"),
            "CreateMask:float": Cost(0, 0, "test"),
            "LoadAlign:b32": Cost(0, per_op, "test"),
            "Add:float": Cost(0, per_op, "test"),
            "StoreAlign:b32": Cost(0, per_op, "test"),
        },
        name="equal stages",
    )


def golden_table() -> CostTable:
    """Small round costs for the schedules computed by hand."""
    costs = {
        "issue": Cost(1), "scalar": Cost(1), "set_flag": Cost(1), "wait_flag": Cost(1),
        "barrier": Cost(2), "pipe_barrier": Cost(2), "vf_call": Cost(4), "vector": Cost(0, 1),
        "MTE2": Cost(10, 1 / 32), "MTE3": Cost(6, 1 / 64), "CreateMask:float": Cost(0, 1),
        "LoadAlign:b32": Cost(0, 1), "Add:float": Cost(0, 2), "StoreAlign:b32": Cost(0, 1),
    }  # fmt: skip
    return ascreg.profile.CostTable("golden", 1.0, "test", costs)


def slices(profile: Profile, block: int = 0) -> list[tuple[str, str, float, float]]:
    """Return ``(track, name, start, end)`` of a block's slices, in schedule order."""
    found = profile.timeline.blocks[block].slices
    return [(s.track, s.name, s.start, s.end) for s in found]


def any_table(costs: Any) -> CostTable:
    """Return the default table with the drawn *costs* (key -> (issue, per_unit)) in it."""
    entries = {key: Cost(issue, per_unit, "drawn") for key, (issue, per_unit) in costs.items()}
    return ascreg.profile.DAV_3510.override(entries, name="drawn")

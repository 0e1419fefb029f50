"""The kernel runtime's checks cost O(1) per access: the time per step does not grow with the run.

Two figures, each the time per step of a long run over the time per step of a short one (the
same kernel, 8x the steps; round-robin minimums in one process). A check that rescans earlier
accesses would make the long run's steps slower in proportion to their number (about 8x here);
linear-time checking keeps the ratio near 1 (target 1.5x):

* **pipe-hazard tracker**: one ``__vector__`` block streams 2 KiB tiles through the same UB
  buffers, each tile copied in on MTE2, through a VF on V, out on MTE3, with flags between the
  pipes; 64 against 512 tiles;
* **SIMT sync checker**: one block of 256 threads writes a UB array, synchronises, reads its
  neighbour's element and synchronises again in every round of a loop; 16 against 128 rounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import VL, GlobalMemory, GmPtr, Reg, UbPtr, uint16_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync_notify,
    asc_sync_wait,
    asc_vf_call,
)
from ascreg.simt import asc_syncthreads, blockDim, threadIdx
from benchmarks.report import Figure, best_times

LANES = VL // uint16_t.size
TILE = 1024  # uint16 elements per tile: 2 KiB, eight registers
SHORT_TILES, LONG_TILES = 64, 512
THREADS = 256
SHORT_ROUNDS, LONG_ROUNDS = 16, 128
REPEATS = 5


@__simd_vf__
def double(dst: UbPtr[uint16_t], src: UbPtr[uint16_t]) -> None:
    """``dst = src + src`` over one tile."""
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(TILE // LANES):
        Reg.LoadAlign(r, src + i * LANES)
        Reg.Add(r, r, r, full)
        Reg.StoreAlign(dst + i * LANES, r, full)


@__global__
@__vector__
def streamed(dst: GmPtr[uint16_t], src: GmPtr[uint16_t], tiles: int) -> None:
    """Copy each tile in, double it, copy it out, through the same two UB buffers."""
    pin, pout = __ubuf__(uint16_t, TILE), __ubuf__(uint16_t, TILE)
    for t in range(tiles):
        asc_copy_gm2ub_align(pin, src + t * TILE, TILE * uint16_t.size)
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_vf_call[double](pout, pin)
        asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_copy_ub2gm_align(dst + t * TILE, pout, 1, TILE * uint16_t.size, 0, 0, 0)
        # the next tile's copies overwrite what this tile's VF read and copied out
        asc_sync_notify(PIPE_MTE3, PIPE_MTE2, EVENT_ID0)
        asc_sync_wait(PIPE_MTE3, PIPE_MTE2, EVENT_ID0)


@__global__
def neighbours(out: GmPtr[uint32_t], rounds: int) -> None:
    """Each round: write my UB element, sync, add my right neighbour's, sync."""
    h = __ubuf__(uint32_t, THREADS)
    total = uint32_t(0)
    for k in range(rounds):
        h[threadIdx.x] = threadIdx.x + k
        asc_syncthreads()
        total += h[(threadIdx.x + 1) % blockDim.x]
        asc_syncthreads()
    out[threadIdx.x] = total


def run_streamed(dst: Any, src: Any, tiles: int) -> None:
    """Launch :func:`streamed` on one block."""
    streamed[1, 0, None](dst, src, tiles)


def run_neighbours(out: Any, rounds: int) -> None:
    """Launch :func:`neighbours` on one block of ``THREADS`` threads."""
    neighbours[1, THREADS, 0, None](out, rounds)


def expected_neighbours(rounds: int) -> Any:
    """The sum each thread adds up: its right neighbour's index plus each round's number."""
    right = (np.arange(THREADS) + 1) % THREADS
    return (right * rounds + rounds * (rounds - 1) // 2).astype(np.uint32)


def run() -> list[Figure]:
    """Time the short and long runs of both kernels (round-robin, best of ``REPEATS``)."""
    gm = GlobalMemory()
    src, dst = gm.alloc(uint16_t, LONG_TILES * TILE), gm.alloc(uint16_t, LONG_TILES * TILE)
    values = np.arange(LONG_TILES * TILE, dtype=np.uint16)
    src.write(values)
    out = gm.alloc(uint32_t, THREADS)
    run_streamed(dst, src, LONG_TILES)
    assert np.array_equal(dst.read(LONG_TILES * TILE), values + values)
    run_neighbours(out, LONG_ROUNDS)
    assert np.array_equal(out.read(THREADS), expected_neighbours(LONG_ROUNDS))
    best = best_times(
        {
            "short tiles": lambda: run_streamed(dst, src, SHORT_TILES),
            "long tiles": lambda: run_streamed(dst, src, LONG_TILES),
            "short rounds": lambda: run_neighbours(out, SHORT_ROUNDS),
            "long rounds": lambda: run_neighbours(out, LONG_ROUNDS),
        },
        REPEATS,
    )
    numpy = _numpy_floor(values)
    per_tile = best["short tiles"] / SHORT_TILES, best["long tiles"] / LONG_TILES
    per_round = best["short rounds"] / SHORT_ROUNDS, best["long rounds"] / LONG_ROUNDS
    tracker, simt = "pipe-hazard tracker (2 KiB tiles)", f"SIMT sync checker ({THREADS} threads)"
    return [
        Figure(tracker, f"{SHORT_TILES} tiles, per tile", per_tile[0], numpy),
        Figure(
            tracker,
            f"(d) {LONG_TILES} tiles, per tile",
            per_tile[1],
            numpy,
            f"{SHORT_TILES} tiles",
            per_tile[1] / per_tile[0],
            1.5,
        ),
        Figure(simt, f"{SHORT_ROUNDS} rounds, per round", per_round[0], numpy),
        Figure(
            simt,
            f"(e) {LONG_ROUNDS} rounds, per round",
            per_round[1],
            numpy,
            f"{SHORT_ROUNDS} rounds",
            per_round[1] / per_round[0],
            1.5,
        ),
    ]


def _numpy_floor(values: Any) -> float:
    """Whole-array numpy time of one tile's work (``src + src`` over 1024 uint16)."""
    tile = values[:TILE]
    return best_times({"numpy": lambda: tile + tile}, 50)["numpy"]

"""``__byte_perm`` over 1,048,576 threads as a SIMT VF, in 1024-thread and in 128-thread blocks.

Figures, each the best of a few runs, each divided by whole-array numpy (the documented formula
on the whole 1M-element arrays at once):

* ``run_simt_vf`` per 1024-thread block: the SIMT engine alone (target 5x numpy);
* the seed's shape end to end: a ``__global__ __vector__`` kernel on 1024 blocks, each starting
  ``asc_vf_call[KernelByte_perm](dim3(1024), ...)``;
* (c) the same kernel on 8192 blocks of 128 threads, against the 1024-thread one: the per-block
  fixed cost (block state, the SIMT attempt, one Python call per intrinsic and per memory access
  regardless of the thread count): target 2x.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ascreg import GlobalMemory, GmPtr, uint32_t
from ascreg.c_api import __global__, __vector__, asc_vf_call
from ascreg.examples.byte_perm_simt import KernelByte_perm, byte_perm_kernel, reference
from ascreg.simt import dim3, run_simt_vf
from benchmarks.report import Figure, best_times

THREADS = 1024
SMALL = 128
N = 1024 * THREADS
REPEATS = 3


@__global__
@__vector__
def small_block_kernel(
    dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
) -> None:
    """``byte_perm_kernel`` with 128-thread SIMT blocks (launched on 8 times the blocks)."""
    asc_vf_call[KernelByte_perm](dim3(SMALL), dst, x, y, s)


def run() -> list[Figure]:
    """Time the engine and both launches against numpy; return the figures."""
    rng = np.random.default_rng(0)
    host = [rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32) for _ in range(3)]
    gm = GlobalMemory()
    dst, x, y, s = (gm.alloc(uint32_t, N) for _ in range(4))
    for ptr, values in zip((x, y, s), host, strict=True):
        ptr.write(values)
    expected = reference(*host)

    def engine() -> None:
        grid = dim3(N // THREADS)
        for b in range(N // THREADS):
            run_simt_vf(
                KernelByte_perm, dim3(THREADS), (dst, x, y, s), grid_dim=grid, block_idx=dim3(b)
            )

    candidates: dict[str, Callable[[], object]] = {
        "numpy": lambda: reference(*host),
        "engine": engine,
        "1024": lambda: byte_perm_kernel[N // THREADS, 0, None](dst, x, y, s),
        "128": lambda: small_block_kernel[N // SMALL, 0, None](dst, x, y, s),
    }
    for name in ("engine", "1024", "128"):
        dst.write(np.zeros(N, dtype=np.uint32))
        candidates[name]()
        assert np.array_equal(dst.read(N), expected), name
    best = best_times(candidates, REPEATS)
    numpy, big, small = best["numpy"], best["1024"], best["128"]
    what = "byte_perm (1,048,576 threads)"
    return [
        Figure(what, "numpy whole-array", numpy, numpy),
        Figure(
            what,
            "run_simt_vf, 1024 blocks x 1024 threads",
            best["engine"],
            numpy,
            "numpy whole-array",
            best["engine"] / numpy,
            5,
        ),
        Figure(what, "__global__ + asc_vf_call, 1024 x 1024 threads", big, numpy),
        Figure(
            what,
            "(c) __global__ + asc_vf_call, 8192 x 128 threads",
            small,
            numpy,
            "1024-thread blocks",
            small / big,
            2,
        ),
    ]

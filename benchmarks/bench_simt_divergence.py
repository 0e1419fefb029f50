"""SIMT kernels whose threads take different paths: masked execution and the one-thread tier.

Figures, each the best of a few runs, each divided by whole-array numpy doing the same work:

* the asc-devkit histogram256 example at full size (the port in
  ``tests/examples/simt/test_histogram256.py``: 72 blocks x 1024 threads with per-warp UB
  histograms, ``asc_atomic_add`` and a grid-stride loop, then 256 blocks x 128 threads of
  strided sums and a tree reduction), against a 5 s budget;
* a floor-mod kernel (a grid-stride loop, an ``if``/``else`` on the signs of each element) on
  data whose signs differ inside every warp, against the same kernel on data that takes the
  same branch everywhere: the price of divergence, target 5x;
* the one-thread tier's cost per thread at 1024 threads against 128 threads per block (the same
  work per thread): the sync and hazard checks cost O(1) per access, target 1.5x.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, int32_t, uint32_t
from ascreg.c_api import __global__, __ubuf__
from ascreg.machine.simt.engine import divergence
from ascreg.simt import asc_atomic_add, asc_syncthreads, blockDim, blockIdx, gridDim, threadIdx
from benchmarks.report import Figure, best_times

PORT = (
    Path(__file__).resolve().parent.parent / "tests" / "examples" / "simt" / "test_histogram256.py"
)
BUDGET_SECONDS = 5.0
BLOCKS, THREADS = 16, 1024
N = BLOCKS * THREADS * 4
REPEATS = 3


def histogram_port() -> Any:
    """Import the histogram256 port (a test module) by its path.

    The port imports ``stdrandom`` from ``tests/`` as the test run does (tests/conftest.py puts
    ``tests/`` on ``sys.path``).
    """
    if str(PORT.parents[2]) not in sys.path:
        sys.path.insert(0, str(PORT.parents[2]))
    spec = importlib.util.spec_from_file_location("_bench_histogram256", PORT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@__global__
def floor_mod(z: GmPtr[int32_t], x: GmPtr[int32_t], y: GmPtr[int32_t], n: int) -> None:
    """``z = x mod y`` rounded toward minus infinity, from C's truncated remainder."""
    index = blockIdx.x * blockDim.x + threadIdx.x
    while index < n:
        y_value = y[index]
        rem = np.fmod(x[index], y_value)
        if (rem < 0) != (y_value < 0) and rem != 0:
            z[index] = rem + y_value
        else:
            z[index] = rem
        index += gridDim.x * blockDim.x


@__global__
def ub_counts(out: GmPtr[uint32_t]) -> None:
    """Per thread: clear, count four times into a UB histogram with atomics, read back."""
    h = __ubuf__(uint32_t, 2048)
    h[threadIdx.x] = 0
    asc_syncthreads()
    for r in range(4):
        asc_atomic_add(h + (threadIdx.x * 7 + r) % blockDim.x, uint32_t(1))  # counters all cleared
    asc_syncthreads()
    out[threadIdx.x] = h[threadIdx.x]


def per_thread(threads: int, out: Any) -> None:
    """``ub_counts`` on one block, one thread at a time."""
    with divergence("per-thread"):
        ub_counts[1, threads, 0, None](out)


def run() -> list[Figure]:
    """Time the kernels (round-robin, best of ``REPEATS``) and return the figures."""
    port = histogram_port()
    data = port.seed_input_bytes(port.FIXED_INPUT_BYTE_COUNT, port.FIXED_SEED)
    expected = port.compute_histogram_cpu(data, port.FIXED_INPUT_BYTE_COUNT)
    assert np.array_equal(port.compute_histogram_npu(data), expected)

    rng = np.random.default_rng(0)
    x = rng.integers(-100000, 100001, N).astype(np.int32)
    y = rng.integers(1, 128, N).astype(np.int32) * rng.choice([-1, 1], N).astype(np.int32)
    gm = GlobalMemory()
    z_gm, x_gm, y_gm = (gm.alloc(int32_t, N) for _ in range(3))
    y_gm.write(y)
    uniform_x, uniform_y = np.abs(x), np.abs(y)  # every lane: the else branch

    def launch(xs: np.ndarray, ys: np.ndarray) -> None:
        x_gm.write(xs)
        y_gm.write(ys)
        floor_mod[BLOCKS, THREADS, 0, None](z_gm, x_gm, y_gm, uint32_t(N))

    launch(x, y)
    assert np.array_equal(z_gm.read(N), np.mod(x, y))
    counts = GlobalMemory().alloc(uint32_t, 1024)
    best = best_times(
        {
            "numpy histogram": lambda: np.bincount(data, minlength=256),
            "histogram": lambda: port.compute_histogram_npu(data),
            "numpy mod": lambda: np.mod(x, y),
            "divergent": lambda: launch(x, y),
            "uniform": lambda: launch(uniform_x, uniform_y),
            "128 threads": lambda: per_thread(128, counts),
            "1024 threads": lambda: per_thread(1024, counts),
        },
        REPEATS,
    )
    small, large = best["128 threads"] / 128, best["1024 threads"] / 1024
    modulo = f"floor mod ({BLOCKS} x {THREADS} threads, {N} elements)"
    tier = "one thread at a time (UB atomics, 2 syncs)"
    return [
        Figure(
            "histogram256 (72 x 1024, then 256 x 128)",
            "masked SIMT",
            best["histogram"],
            best["numpy histogram"],
            f"{BUDGET_SECONDS:g} s budget",
            best["histogram"] / BUDGET_SECONDS,
            1.0,
        ),
        Figure(modulo, "same branch in every lane", best["uniform"], best["numpy mod"]),
        Figure(
            modulo,
            "signs differ inside warps",
            best["divergent"],
            best["numpy mod"],
            "same branch in every lane",
            best["divergent"] / best["uniform"],
            5.0,
        ),
        Figure(tier, "per thread, 128-thread block", small, best["numpy mod"] / N),
        Figure(
            tier,
            "per thread, 1024-thread block",
            large,
            best["numpy mod"] / N,
            "per thread, 128-thread block",
            large / small,
            1.5,
        ),
    ]

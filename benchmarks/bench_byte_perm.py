"""A 1,048,576-thread ``__byte_perm`` SIMT kernel (1024 threads per block) vs whole-array numpy.

Three timings, each the best of a few runs:

* ``numpy``: the documented formula on the whole 1M-element arrays at once (the baseline);
* ``run_simt_vf``: 1024 calls of the hybrid entry point, one per block (the SIMT engine alone);
* ``kernel launch``: the seed's shape end to end, a ``__global__ __vector__`` kernel on 1024
  blocks, each starting ``asc_vf_call[KernelByte_perm](dim3(1024), ...)``.

Target: the SIMT engine within 5x of numpy.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ascreg import GlobalMemory, uint32_t
from ascreg.examples.byte_perm_simt import KernelByte_perm, byte_perm_kernel, reference
from ascreg.simt import dim3, run_simt_vf

THREADS = 1024
BLOCKS = 1024
N = THREADS * BLOCKS


def _best(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run() -> list[str]:
    rng = np.random.default_rng(0)
    host = [rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32) for _ in range(3)]
    gm = GlobalMemory()
    dst, x, y, s = (gm.alloc(uint32_t, N) for _ in range(4))
    for ptr, values in zip((x, y, s), host, strict=True):
        ptr.write(values)
    expected = reference(*host)

    def engine() -> None:
        grid = dim3(BLOCKS)
        for b in range(BLOCKS):
            run_simt_vf(
                KernelByte_perm, dim3(THREADS), (dst, x, y, s), grid_dim=grid, block_idx=dim3(b)
            )

    base = _best(lambda: reference(*host))
    simt = _best(engine)
    assert np.array_equal(dst.read(N), expected)
    dst.write(np.zeros(N, dtype=np.uint32))
    launch = _best(lambda: byte_perm_kernel[BLOCKS, 0, None](dst, x, y, s))
    assert np.array_equal(dst.read(N), expected)
    return [
        f"byte_perm: {N} threads ({BLOCKS} blocks x {THREADS}); numpy whole-array {base * 1e3:.1f} ms",
        f"byte_perm: run_simt_vf per block {simt * 1e3:.1f} ms = {simt / base:.2f}x numpy (target <= 5x)",
        f"byte_perm: __global__ kernel + asc_vf_call {launch * 1e3:.1f} ms = {launch / base:.2f}x numpy",
    ]

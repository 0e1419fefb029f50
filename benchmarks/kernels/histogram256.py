"""histogram256: asc-devkit ``examples/03_simt_api/02_features/01_api_features/02_atomic_operation/histogram/histogram.asc``.

The two SIMT kernels of the line-for-line port (``tests/examples/simt/test_histogram256.py``,
imported from there): ``accumulate_block_local_histogram<<<72, 1024>>>`` (per-warp UB histograms,
``asc_atomic_add`` of each byte of each word in a grid-stride loop, then the block's partial
histogram), ``merge_block_local_histogram<<<256, 128>>>`` (a strided sum and a tree reduction per
bin). The example histograms 72 * 1024 * 4 bytes; here 2**20 bytes (the grid-stride loop
covers them with the same grid). Input: the example's ``std::rand() % 256`` bytes; golden:
``np.bincount`` (the same counts), checked bin for bin.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GlobalMemory, uint32_t
from benchmarks.kernels import RealKernel, exact_check, load_port

PORT = load_port("simt/test_histogram256.py", "_kernels_histogram256")
BINS = PORT.HISTOGRAM_BIN_COUNT


def inputs(size: int, seed: int) -> tuple[Any]:
    """*size* bytes of ``std::rand() % 256`` after ``std::srand(2009 + seed)``."""
    return (PORT.seed_input_bytes(size, PORT.FIXED_SEED + seed),)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(bytes) -> histogram`` (both launches)."""
    gm = GlobalMemory()
    words = gm.alloc(uint32_t, size // 4)
    partial = gm.alloc(uint32_t, PORT.PARTIAL_HISTOGRAM_COUNT * BINS)
    final = gm.alloc(uint32_t, BINS)

    def run(data: Any) -> Any:
        words.write(data.view(np.uint32))
        PORT.accumulate_block_local_histogram[
            PORT.PARTIAL_HISTOGRAM_COUNT, PORT.THREADS_PER_BLOCK, 0, None
        ](partial, words, uint32_t(size // 4))
        PORT.merge_block_local_histogram[BINS, PORT.REDUCE_BLOCK_SIZE, 0, None](
            final, partial, uint32_t(PORT.PARTIAL_HISTOGRAM_COUNT)
        )
        return final.read(BINS)

    return run


def golden(data: Any) -> Any:
    """The same counts in whole-array numpy."""
    return np.bincount(data, minlength=BINS).astype(np.uint32)


KERNEL = RealKernel(
    name="histogram256",
    origin="asc-devkit 03_simt_api/.../02_atomic_operation/histogram (SIMT, atomics)",
    size=1 << 20,
    small=16 * 1024,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=exact_check,
)

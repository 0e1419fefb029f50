"""The benchmarks' own kernels still run and give their expected results.

The benchmarks are not part of the default run (``nox -s benchmarks``), so a change elsewhere
(a moved test helper, a stricter check) could break them unnoticed; these tests run their
kernels once, at a small size.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ascreg import GlobalMemory, uint32_t

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_simt_divergence  # noqa: E402


def test_histogram_port_loads_and_matches_its_cpu_golden() -> None:
    port = bench_simt_divergence.histogram_port()
    data = port.seed_input_bytes(4096, port.FIXED_SEED)
    expected = port.compute_histogram_cpu(data, 4096)
    assert expected.sum() == 4096


def test_per_thread_kernel_counts_four_per_thread() -> None:
    for threads in (128, 1024):
        out = GlobalMemory().alloc(uint32_t, threads)
        bench_simt_divergence.per_thread(threads, out)
        counts = np.array([out[i] for i in range(threads)], dtype=np.uint32)
        assert counts.sum() == 4 * threads
        assert np.array_equal(counts, np.full(threads, 4, np.uint32))

"""The SIMT kernel benchmark's own kernel and loaders still work (at a small size)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ascreg import GlobalMemory, float32_t, int32_t, uint32_t

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_simt_kernels  # noqa: E402


def test_the_scatter_add_kernel_adds_each_update_in_block_order() -> None:
    rows, cols, count = 8, 4, 40
    rng = np.random.default_rng(2)
    indices = rng.integers(-2, rows, count).astype(np.int32)
    updates = rng.standard_normal(count * cols).astype(np.float32)
    gm = GlobalMemory()
    var = gm.alloc(float32_t, rows * cols)
    ind, upd = bench_simt_kernels.device(gm, indices, int32_t), gm.alloc(float32_t, count * cols)
    upd.write(updates)
    bench_simt_kernels.scatter_add_simt[3, 32, 0, None](
        var, ind, upd, uint32_t(cols), uint32_t(count), uint32_t(rows)
    )
    want = np.zeros(rows * cols, np.float32)
    stride = 3 * 32
    for block in range(3):  # blocks in turn; a thread's iterations in turn; lanes in order
        for start in range(block * 32, count * cols, stride):
            for i in range(start, min(start + 32, count * cols)):
                if indices[i // cols] >= 0:
                    want[indices[i // cols] * cols + i % cols] += updates[i]
    assert np.array_equal(var.read(rows * cols), want)


def test_the_ports_load_by_path() -> None:
    port = bench_simt_kernels.port("test_spmv")
    assert port.kernel_spmv_thread.__name__ == "kernel_spmv_thread"
    assert bench_simt_kernels.tiers(lambda: None) == ""  # nothing launched: no tier

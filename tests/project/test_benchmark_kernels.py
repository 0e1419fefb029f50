"""The benchmarks' own kernels still run and give their expected results.

The benchmarks are not part of the default run (``nox -s benchmarks``), so a change elsewhere
(a moved test helper, a stricter check) could break them unnoticed; these tests run their
kernels once, at a small size.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import ascreg
from ascreg import GlobalMemory, UnifiedBuffer, int16_t, uint16_t, uint32_t

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_checking, bench_simt_divergence, bench_vf, vf_breakdown  # noqa: E402


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


def test_vf_benchmark_vfs_agree_with_numpy_batched_and_eager() -> None:
    count = 3 * 128 + 45  # whole iterations and a tail, as in the benchmark
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 1 << 16, 512).astype(np.uint16) for _ in range(2))
    s = rng.integers(0, 18, 512).astype(np.int16)
    sel = np.maximum(a, b)[:count]
    expected = np.where(s[:count] >= 16, 0, sel >> np.minimum(s[:count], 15).astype(np.uint16))
    for vf in (bench_vf.ascreg_vf, bench_vf.c_api_vf):
        for execution in ("batched", "eager"):
            ub = UnifiedBuffer()
            pa, pb, pd = (ub.alloc(uint16_t, 512) for _ in range(3))
            ps = ub.alloc(int16_t, 512)
            pa.write(a), pb.write(b), ps.write(s)
            with ascreg.policy(execution=execution):
                vf(pd, pa, pb, ps, count)
            assert np.array_equal(pd.read(count), expected), (vf.__name__, execution)


def test_checking_benchmark_kernels_give_their_results() -> None:
    gm = GlobalMemory()
    tiles = 3
    src, dst = (gm.alloc(uint16_t, tiles * bench_checking.TILE) for _ in range(2))
    values = np.arange(tiles * bench_checking.TILE, dtype=np.uint16) * 3
    src.write(values)
    bench_checking.run_streamed(dst, src, tiles)
    assert np.array_equal(dst.read(values.size), values + values)
    out = gm.alloc(uint32_t, bench_checking.THREADS)
    bench_checking.run_neighbours(out, 3)
    assert np.array_equal(out.read(bench_checking.THREADS), bench_checking.expected_neighbours(3))
    assert bench_checking.expected_neighbours(3)[0] == 1 * 3 + 3  # neighbour 1, rounds 0+1+2


def test_vf_breakdown_times_every_phase_and_puts_the_calls_back() -> None:
    (a, b, s), (gd, ga, gb, gs) = bench_vf.operands(seed=2)
    expected = bench_vf.run_numpy_whole(a, b, s)
    count = bench_vf.TILE + 45  # a whole tile and a partial one
    originals = {name: getattr(bench_vf, name) for name in vf_breakdown.KERNEL_PHASES}
    kernel = vf_breakdown.Clock()
    with vf_breakdown.kernel_timers(kernel):
        bench_vf.streamed_kernel[1, 0, None](gd, ga, gb, gs, count)
    assert np.array_equal(gd.read(count), expected[:count])
    assert set(kernel.spent) == {"copies in (3)", "flags (3 pairs)", "VF call", "copy out"}
    assert all(seconds > 0 for seconds in kernel.spent.values())
    assert {name: getattr(bench_vf, name) for name in originals} == originals
    host, methods = vf_breakdown.Clock(), (ascreg.UbPtr.write, ascreg.UbPtr.read)
    with vf_breakdown.host_timers(host):
        out = bench_vf.run_ascreg(a, b, s, host.timed("VF call", bench_vf.ascreg_vf))
    assert np.array_equal(out, expected)
    assert set(host.spent) == {"writes (3)", "VF call", "read"}
    assert (ascreg.UbPtr.write, ascreg.UbPtr.read) == methods


def test_checks_waived_keeps_the_result_and_puts_the_checks_back() -> None:
    (a, b, s), (gd, ga, gb, gs) = bench_vf.operands(seed=3)
    count = bench_vf.TILE + 45
    originals = [getattr(cls, name) for cls, name, _ in vf_breakdown.WAIVED]
    with vf_breakdown.checks_waived():
        assert all(getattr(cls, name) is fake for cls, name, fake in vf_breakdown.WAIVED)
        bench_vf.streamed_kernel[1, 0, None](gd, ga, gb, gs, count)
    assert np.array_equal(gd.read(count), bench_vf.run_numpy_whole(a, b, s)[:count])
    assert [getattr(cls, name) for cls, name, _ in vf_breakdown.WAIVED] == originals

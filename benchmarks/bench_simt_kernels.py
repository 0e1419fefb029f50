"""Real SIMT kernels, each against whole-array numpy doing the same math.

The kernels are the asc-devkit examples' own, through their ports in ``tests/examples/simt``
(launched directly on prepared ``__gm__`` buffers: the time is the launch), plus the ops-nn
``ScatterAddSimtCompute`` pattern (a grid-stride loop with a ``continue`` and a float
``asc_atomic_add`` to GM) written here:

* ``histogram256``: 72 blocks x 1024 threads, per-warp UB histograms, ``asc_atomic_add`` and a
  grid-stride loop, then 256 blocks x 128 threads of strided sums and a tree reduction with
  ``asc_syncthreads`` (numpy: ``np.bincount``);
* ``sobel``: the 1023 x 1025 image, 513 blocks of 2048 threads, boundary branches, warp
  shuffles, ``asc_ballot`` and one ``asc_atomic_add`` per warp to compact the edges (numpy:
  the 3 x 3 stencil on the whole image, the threshold and the edge list);
* ``spmv`` one thread per row (per-thread loops of 1 .. 64 trips, an early ``return``) and one
  warp per row (lane-strided loops and ``asc_reduce_add``), 8192 rows (numpy:
  ``np.add.reduceat`` of the products);
* ``gather``: the grid-stride gather of 2^21 elements on 64 blocks of 2048 threads (numpy:
  ``input[index]``);
* ``scatter_add``: 2^20 updates of 2^15 rows (numpy: ``np.add.at``).

Each figure is the best of a few runs (CPU time). The second column says which tier ran: the
number of blocks run as batches, one at a time, and one thread at a time.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ascreg import GlobalMemory, float32_t, int32_t, uint8_t, uint16_t, uint32_t
from ascreg.engine.simt import blocks
from ascreg.machine.kernel import __global__
from ascreg.machine.simt import engine
from ascreg.simt import __launch_bounds__, asc_atomic_add, blockDim, blockIdx, gridDim, threadIdx
from benchmarks.report import Figure, best_times

EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "examples" / "simt"
REPEATS = 3


def port(name: str) -> Any:
    """Import the port ``tests/examples/simt/<name>.py`` (it imports ``stdrandom`` from tests/)."""
    tests = str(EXAMPLES.parents[1])
    if tests not in sys.path:
        sys.path.insert(0, tests)
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def device(gm: GlobalMemory, values: np.ndarray, dtype: Any) -> Any:
    """A ``__gm__`` copy of *values*."""
    pointer = gm.alloc(dtype, values.size)
    pointer.write(values)
    return pointer


# -- ops-nn ScatterAddSimtCompute, as a pure SIMT kernel ----------------------------------------


@__global__
@__launch_bounds__(1024)
def scatter_add_simt(
    var: Any, indices: Any, updates: Any, total_col: int, indices_size: int, var_rows: int
) -> None:
    total_size = indices_size * total_col
    for i in range(blockIdx.x * blockDim.x + threadIdx.x, total_size, gridDim.x * blockDim.x):
        indice_row = i // total_col
        var_row = indices[indice_row]
        if not (var_row >= 0 and var_row < var_rows):
            continue
        tail_row_idx = i - indice_row * total_col
        var_data_idx = var_row * total_col + tail_row_idx
        asc_atomic_add(var + var_data_idx, updates[i])


# -- the cases -------------------------------------------------------------------------------------


class Case:
    """One kernel: its launch, its numpy twin and a check that both agree."""

    def __init__(
        self,
        name: str,
        launch: Callable[[], Any],
        numpy: Callable[[], Any],
        check: Callable[[], None],
    ) -> None:
        self.name, self.launch, self.numpy, self.check = name, launch, numpy, check


def histogram_case() -> Case:
    h = port("test_histogram256")
    data = h.seed_input_bytes(h.FIXED_INPUT_BYTE_COUNT, h.FIXED_SEED)
    gm = GlobalMemory()
    words = device(gm, data.view(np.uint32), uint32_t)
    partial = gm.alloc(uint32_t, h.PARTIAL_HISTOGRAM_COUNT * 256)
    final = gm.alloc(uint32_t, 256)
    count = uint32_t(data.size // 4)

    def launch() -> None:
        h.accumulate_block_local_histogram[72, 1024, 0, None](partial, words, count)
        h.merge_block_local_histogram[256, 128, 0, None](final, partial, uint32_t(72))

    def check() -> None:
        assert np.array_equal(final.read(256), np.bincount(data, minlength=256))

    return Case("histogram256", launch, lambda: np.bincount(data, minlength=256), check)


def sobel_case() -> Case:
    s = port("test_sobel_warp_shfl")
    width, height = s.IMAGE_WIDTH, s.IMAGE_HEIGHT
    image = s.fill_input(width, height)
    gm = GlobalMemory()
    pixels = device(gm, image, uint8_t)
    edges = gm.alloc(uint16_t, width * height * 3)
    count = gm.alloc(uint32_t, 1)
    threads = -(-width // 32) * height * 32

    def launch() -> None:
        count.write([0])
        s.sobel_edge_detect[-(-threads // 2048), 2048, 0, None](
            edges, count, pixels, int32_t(width), int32_t(height)
        )

    def numpy() -> np.ndarray:
        img = image.reshape(height, width).astype(np.int32)

        def at(dy: int, dx: int) -> np.ndarray:
            return img[1 + dy : height - 1 + dy, 1 + dx : width - 1 + dx]

        gx = -at(-1, -1) + at(-1, 1) - 2 * at(0, -1) + 2 * at(0, 1) - at(1, -1) + at(1, 1)
        gy = -at(-1, -1) - 2 * at(-1, 0) - at(-1, 1) + at(1, -1) + 2 * at(1, 0) + at(1, 1)
        strength = (np.abs(gx) + np.abs(gy)).astype(np.uint16)
        ys, xs = np.nonzero(strength >= s.THRESHOLD)
        return np.stack([xs + 1, ys + 1, strength[ys, xs]], axis=1).astype(np.uint16)

    def check() -> None:
        n = int(count.read(1)[0])
        got = edges.read(n * 3).reshape(n, 3)
        want = numpy()
        assert sorted(map(tuple, got.tolist())) == sorted(map(tuple, want.tolist()))

    return Case("sobel", launch, numpy, check)


def spmv_cases() -> list[Case]:
    p = port("test_spmv")
    values, col_idx, row_ptr = p.generate_sparse_matrix(p.NUM_ROWS, p.NUM_COLS, p.MAX_NNZ_PER_ROW)
    x = np.random.default_rng(123).integers(-10, 11, p.NUM_COLS).astype(np.float32)
    gm = GlobalMemory()
    args = [
        device(gm, values, float32_t),
        device(gm, col_idx, uint32_t),
        device(gm, row_ptr, uint32_t),
        device(gm, x, float32_t),
    ]
    y = gm.alloc(float32_t, p.NUM_ROWS)

    def numpy() -> np.ndarray:
        return np.add.reduceat(values * x[col_idx], row_ptr[:-1])

    def check() -> None:
        assert np.array_equal(y.read(p.NUM_ROWS), numpy())  # small integers: exact

    def launcher(kernel: Any) -> Callable[[], None]:
        return lambda: kernel[8, 1024, 0, None](*args, y, uint32_t(p.NUM_ROWS))

    return [
        Case("spmv, a thread per row", launcher(p.kernel_spmv_thread), numpy, check),
        Case("spmv, a warp per row", launcher(p.kernel_spmv_warp), numpy, check),
    ]


def gather_case() -> Case:
    g = port("test_grid_config")
    config = g.SCENARIOS[7]
    source, index, _ = g.make_data(config)
    gm = GlobalMemory()
    inp, idx = device(gm, source, float32_t), device(gm, index, uint32_t)
    out = gm.alloc(float32_t, index.size)
    threads = g.resolve_thread_num(64, index.size)

    def launch() -> None:
        g.gather_strided_kernel[64, threads, 0, None](
            inp, idx, out, uint32_t(source.size), uint32_t(index.size)
        )

    def numpy() -> np.ndarray:
        return source[np.where(index < source.size, index, 0)]

    def check() -> None:
        assert np.array_equal(out.read(index.size), numpy())

    return Case("gather, grid-stride (2^21)", launch, numpy, check)


def scatter_case() -> Case:
    rows, cols, count = 1 << 15, 32, 1 << 15  # 2^20 updates
    rng = np.random.default_rng(7)
    indices = rng.integers(-100, rows, count).astype(np.int32)  # some out of range: skipped
    updates = rng.integers(-8, 9, count * cols).astype(np.float32)
    gm = GlobalMemory()
    var = gm.alloc(float32_t, rows * cols)
    ind, upd = device(gm, indices, int32_t), device(gm, updates, float32_t)

    def launch() -> None:
        var.write(np.zeros(rows * cols, np.float32))
        scatter_add_simt[64, 1024, 0, None](
            var, ind, upd, uint32_t(cols), uint32_t(count), uint32_t(rows)
        )

    def numpy() -> np.ndarray:
        out = np.zeros((rows, cols), np.float32)
        keep = indices >= 0
        np.add.at(out, indices[keep], updates.reshape(count, cols)[keep])
        return out

    def check() -> None:
        assert np.array_equal(var.read(rows * cols).reshape(rows, cols), numpy())

    return Case("scatter_add (ops-nn), 2^20 updates", launch, numpy, check)


def tiers(launch: Callable[[], Any]) -> str:
    """Run *launch* once and say how its blocks ran."""
    counts = {"batched": 0, "alone": 0, "per thread": 0}
    batch, alone, thread = blocks._run_batch, engine.run_block, engine.Scheduler.execute

    def batched(*args: Any) -> Any:
        why = batch(*args)
        if why is None:
            counts["batched"] += args[5][1]
        return why

    def one(*args: Any, **kwargs: Any) -> Any:
        counts["alone"] += 1
        return alone(*args, **kwargs)

    def per_thread(self: Any) -> Any:
        counts["per thread"] += 1
        return thread(self)

    blocks._run_batch, engine.run_block = batched, one  # type: ignore[assignment]
    engine.Scheduler.execute = per_thread  # type: ignore[method-assign]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the slow paths are counted here
            launch()
    finally:
        blocks._run_batch, engine.run_block = batch, alone  # type: ignore[assignment]
        engine.Scheduler.execute = thread  # type: ignore[method-assign]
    return ", ".join(f"{n} {k}" for k, n in counts.items() if n)


def cases() -> list[Case]:
    """Every case, its inputs made."""
    return [histogram_case(), sobel_case(), *spmv_cases(), gather_case(), scatter_case()]


def run() -> list[Figure]:
    """Time every case against its numpy twin; return the figures."""
    figures = []
    for case in cases():
        how = tiers(case.launch)
        case.check()
        best = best_times({"kernel": case.launch, "numpy": case.numpy}, REPEATS)
        figures.append(Figure(case.name, how, best["kernel"], best["numpy"]))
    return figures

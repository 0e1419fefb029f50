"""One 128 x 128 x 256 half ``Mmad`` tile (L0A and L0B full, float results in L0C).

Figures, each the best of a few runs, against ``numpy.matmul`` on the same shapes:

* the basic-API ``Mmad`` alone (NZ reads of L0A / L0B, the float64 accumulation model, the NZ
  write of L0C, the pipe tracker's checks), against ``numpy.matmul`` of the float32 copies of the
  inputs (target 3x);
* the same against ``numpy.matmul`` of the half inputs themselves (numpy has no BLAS for half).

The Mmad tile and the float32 product alternate (round robin, each one's minimum). numpy's half
product takes about 12 ms, and whatever runs right after it finds its caches cold (so does a
12 ms Python loop): in the round robin that was always the Mmad tile, 80-110 us slower than
after the float32 product. It is timed on its own, after the other two.
"""

from __future__ import annotations

import numpy as np

from ascreg import float32_t, half
from ascreg.basic import PIPE_ALL, LocalTensor, Mmad, MmadParams, PipeBarrier, TPosition
from ascreg.machine.block import BlockContext, block
from benchmarks.report import Figure, best_times

M, N, K = 128, 128, 256
REPEATS = 50
"""Rounds of the round robin (about 0.3 ms each)."""
HALF_REPEATS = 3
"""Runs of numpy's half product (about 12 ms each)."""


def run() -> list[Figure]:
    """Time one Mmad tile and numpy.matmul; return the figures."""
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    with block(BlockContext()):
        a2 = LocalTensor[half](TPosition.A2, 0, M * K)
        b2 = LocalTensor[half](TPosition.B2, 0, K * N)
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, M * N)
        # NZ: column blocks of 16 elements, M (or N) rows each
        a2.GetPhyAddr().write(a.reshape(M, K // 16, 16).transpose(1, 0, 2).reshape(-1))
        b2.GetPhyAddr().write(b.T.reshape(N, K // 16, 16).transpose(1, 0, 2).reshape(-1))
        PipeBarrier[PIPE_ALL]()
        params = MmadParams(M, N, K)

        def tile() -> None:
            Mmad(c1, a2, b2, params)

        best = best_times({"float32": lambda: np.matmul(a32, b32), "mmad": tile}, REPEATS)
        best |= best_times({"half": lambda: np.matmul(a, b)}, HALF_REPEATS)
        PipeBarrier[PIPE_ALL]()
        got = c1.GetPhyAddr().read(M * N).reshape(N // 16, M, 16).transpose(1, 0, 2)
        exact = a.astype(np.float64) @ b.astype(np.float64)
        assert np.allclose(got.reshape(M, N), exact, rtol=1e-6, atol=1e-6)
    what = "Mmad 128 x 128 x 256 half -> float"
    f32, f16, mmad = best["float32"], best["half"], best["mmad"]
    return [
        Figure(what, "numpy.matmul float32", f32, f32),
        Figure(what, "basic Mmad tile", mmad, f32, "numpy.matmul float32", mmad / f32, 3),
        Figure(what, "basic Mmad tile", mmad, f32, "numpy.matmul half", mmad / f16, 3),
    ]

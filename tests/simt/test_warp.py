"""SIMT warp functions: the vectorised tier and the per-thread tier against a lane reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, int32_t, uint32_t
from ascreg.errors import UndefinedBehaviourError, policy
from ascreg.simt import (
    asc_all,
    asc_any,
    asc_ballot,
    asc_reduce_add,
    asc_reduce_max,
    asc_reduce_min,
    asc_shfl,
    asc_shfl_down,
    asc_shfl_up,
    asc_shfl_xor,
    dim3,
    laneid,
    run_simt_kernel,
    threadIdx,
)
from reference.warp import warp_reduce_min, warp_reference


def launch(kernel: Any, threads: int, *args: Any, blocks: int = 1) -> None:
    run_simt_kernel(kernel, dim3(blocks), dim3(threads), 0, args)


def _warp_kernel(diverge: bool) -> Any:
    def k(out: Any, src: Any, n: int) -> None:
        t = threadIdx.x
        if diverge and t % 2 == 0:  # forces the per-thread tier
            pass
        v = src[t]
        results = [
            asc_shfl(v, t * 7 % 32, 8),
            asc_shfl_up(v, 3),
            asc_shfl_down(v, 5, 16),
            asc_shfl_xor(v, 6, 4),
            asc_ballot(v % 3 == 0).astype(np.int32),
            asc_all(v > -1000),
            asc_any(v == 5),
            asc_reduce_add(v),
            asc_reduce_max(v),
            laneid(),
        ]
        for j, r in enumerate(results):
            out[t + j * n] = r

    return k


@pytest.mark.rows(
    "asc_shfl",
    "asc_shfl_up",
    "asc_shfl_down",
    "asc_shfl_xor",
    "asc_ballot",
    "asc_all",
    "asc_any",
    "asc_reduce_add",
    "asc_reduce_max",
)
@pytest.mark.parametrize("diverge", [False, True], ids=["vectorised", "per-thread"])
def test_warp_functions_match_reference(diverge: bool) -> None:
    n = 64
    gm = GlobalMemory()
    v = np.random.default_rng(1).integers(-50, 50, n).astype(np.int32)
    src, out = gm.alloc(int32_t, n), gm.alloc(int32_t, 10 * n)
    src.write(v)
    launch(_warp_kernel(diverge), n, out, src, n)
    got = out.read(10 * n).reshape(10, n).tolist()
    assert got == warp_reference(v.tolist())


def test_reading_an_inactive_lane_is_undefined() -> None:
    out = GlobalMemory().alloc(uint32_t, 40)

    def k(out: Any) -> None:
        out[threadIdx.x] = asc_shfl(threadIdx.x, 20)  # lanes 8.. of the last warp do not exist

    with pytest.raises(UndefinedBehaviourError, match="not active"):
        launch(k, 40, out)
    with policy(undefined="warn"), pytest.warns(UserWarning, match="not active"):
        launch(k, 40, out)
    assert out.read(40)[32:].tolist() == list(range(32, 40))


@pytest.mark.rows("asc_reduce_min")
@pytest.mark.parametrize("diverge", [False, True], ids=["vectorised", "per-thread"])
def test_reduce_min_matches_reference(diverge: bool) -> None:
    n = 70  # two full warps and a partial one
    gm = GlobalMemory()
    v = np.random.default_rng(2).integers(-(2**31), 2**31, n).astype(np.int32)
    src, out = gm.alloc(int32_t, n), gm.alloc(int32_t, n)
    src.write(v)

    def k(out: Any, src: Any) -> None:
        t = threadIdx.x
        if diverge and t % 2 == 0:  # forces the per-thread tier
            pass
        out[t] = asc_reduce_min(src[t])

    launch(k, n, out, src)
    assert out.read(n).tolist() == warp_reduce_min(v.tolist())

"""SIMT engine: indices, launch checks, divergence fallback, UB arrays, a grid reduce with atomics."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, int32_t, uint32_t
from ascreg.c_api import __ubuf__
from ascreg.errors import LaunchError, SyncError, UnsupportedError
from ascreg.simt import (
    DivergentBranchError,
    Lanes,
    __byte_perm,
    __launch_bounds__,
    __simt_vf__,
    asc_atomic_add,
    asc_reduce_add,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    laneid,
    run_simt_kernel,
    run_simt_vf,
    threadIdx,
)


def launch(kernel: Any, threads: int, *args: Any, blocks: int = 1) -> None:
    run_simt_kernel(kernel, dim3(blocks), dim3(threads), 0, args)


def test_three_dimensional_indices() -> None:
    out = GlobalMemory().alloc(uint32_t, 3 * 16 * 2)

    def k(out: Any) -> None:
        linear = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y
        base = (blockIdx.x + blockIdx.y * gridDim.x) * 16 * 3
        out[base + linear * 3] = threadIdx.x
        out[base + linear * 3 + 1] = threadIdx.y
        out[base + linear * 3 + 2] = threadIdx.z

    run_simt_kernel(k, dim3(1, 2), dim3(4, 2, 2), 0, (out,))
    got = out.read(96).reshape(2, 16, 3)
    t = np.arange(16)
    expected = np.stack([t % 4, (t // 4) % 2, t // 8], axis=1)
    assert (got == expected).all()


def test_lanes_bool_outside_kernel_is_an_error() -> None:
    with pytest.raises(DivergentBranchError, match="lane 0 holds"):
        bool(np.arange(3).view(Lanes) > 0)


def test_divergent_branch_reruns_per_thread_and_undoes_writes() -> None:
    out = GlobalMemory().alloc(int32_t, 64)
    out.write(np.arange(64))

    def k(out: Any) -> None:
        i = threadIdx.x
        out[i] = out[i] + 1000  # a read-modify-write before the branch: must happen once
        if i % 3 == 0:
            out[i] = out[i] * -1
        else:
            out[i] = out[i] + 1

    launch(k, 64, out)
    v = np.arange(64) + 1000
    assert out.read(64).tolist() == np.where(np.arange(64) % 3 == 0, -v, v + 1).tolist()


def test_uniform_branch_stays_vectorised() -> None:
    out = GlobalMemory().alloc(uint32_t, 8)
    seen: list[int] = []

    def k(out: Any) -> None:
        seen.append(threadIdx.x.size)
        if blockIdx.x == 0 and (threadIdx.x < 100):
            out[threadIdx.x] = 7

    launch(k, 8, out)
    assert seen == [8] and out.read(8).tolist() == [7] * 8


def test_loop_with_thread_dependent_trip_count() -> None:
    out = GlobalMemory().alloc(uint32_t, 40)

    def k(out: Any) -> None:
        total = threadIdx.x * 0
        for j in range(threadIdx.x):  # int() of lanes: per-thread
            total = total + j
        out[threadIdx.x] = total

    launch(k, 40, out)
    assert out.read(40).tolist() == [n * (n - 1) // 2 for n in range(40)]


def test_launch_bounds_and_limits() -> None:
    @__launch_bounds__(64)
    def k(out: Any) -> None: ...

    out = GlobalMemory().alloc(uint32_t, 1)
    with pytest.raises(LaunchError, match=r"exceeds __launch_bounds__\(64\)"):
        launch(k, 65, out)
    with pytest.raises(LaunchError, match="default launch bounds"):
        launch(lambda out: None, 1025, out)
    with pytest.raises(LaunchError, match="hardware limit of 2048"):
        launch(__launch_bounds__(2048)(lambda out: None), 2049, out)
    with pytest.raises(LaunchError, match="outside"):
        __launch_bounds__(0)
    launch(__launch_bounds__(2048)(lambda out: None), 2048, out)


def test_byte_perm_rejected_in_pure_simt_but_not_in_vf() -> None:
    out = GlobalMemory().alloc(uint32_t, 4)

    def pure(out: Any) -> None:
        out[threadIdx.x] = __byte_perm(1, 1, 1)

    with pytest.raises(UnsupportedError, match="not supported in pure SIMT"):
        launch(pure, 4, out)
    run_simt_vf(__simt_vf__(pure), dim3(4), (out,), grid_dim=dim3(1), block_idx=dim3(0))
    assert out.read(4).tolist() == [16843008] * 4


def test_run_simt_vf_needs_the_mark() -> None:
    with pytest.raises(LaunchError, match="not a __simt_vf__"):
        run_simt_vf(lambda: None, dim3(1), (), grid_dim=dim3(1), block_idx=dim3(0))


def test_ub_arrays_are_shared_by_the_block_even_per_thread() -> None:
    out = GlobalMemory().alloc(uint32_t, 2 * 48)

    def k(out: Any) -> None:
        tile = __ubuf__(uint32_t, 48)
        dyn = __ubuf__.extern(uint32_t)
        t = threadIdx.x
        tile[t] = t * 2
        dyn[t] = t
        if t % 2 == 0:  # diverge: the rest runs one thread at a time
            pass
        asc_syncthreads()
        out[blockIdx.x * 48 + t] = tile[47 - t] + dyn[47 - t] * 1000

    run_simt_kernel(k, dim3(2), dim3(48), 48 * 4, (out,))
    r = 47 - np.arange(48)
    assert out.read(96).tolist() == np.tile(r * 2 + r * 1000, 2).tolist()


def test_grid_reduce_with_atomics_across_blocks() -> None:
    gm = GlobalMemory()
    total = gm.alloc(uint32_t, 1)

    def k(total: Any) -> None:
        i = threadIdx.x + blockIdx.x * blockDim.x
        warp_sum = asc_reduce_add(i)
        if laneid() == 0:  # divergent: one thread per warp adds
            asc_atomic_add(total, warp_sum)

    launch(k, 64, total, blocks=3)
    assert int(total.read(1)[0]) == sum(range(192))


def test_syncthreads_reached_by_only_some_threads_is_a_deadlock() -> None:
    """asc-devkit asc_syncthreads.md: every thread of the block must reach the sync point
    (a call in a branch deadlocks the block), so a partial arrival is a SyncError."""
    out = GlobalMemory().alloc(uint32_t, 32)

    def k(out: Any) -> None:
        t = threadIdx.x
        if t < 16:
            asc_syncthreads()
        out[t] = t

    with pytest.raises(SyncError, match=r"^asc_syncthreads\(\): 16 of 32 threads .* 16, 17"):
        run_simt_kernel(k, dim3(1), dim3(32), 0, (out,))

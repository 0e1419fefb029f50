"""SIMT engine: indices, launch checks, divergence fallback, warp functions, atomics, UB."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, int32_t, uint32_t, uint64_t
from ascreg.c_api import __ubuf__
from ascreg.errors import LaunchError, UndefinedBehaviourError, UnsupportedError, policy
from ascreg.simt import (
    DivergentBranchError,
    Lanes,
    __byte_perm,
    __launch_bounds__,
    __simt_vf__,
    asc_all,
    asc_any,
    asc_atomic_add,
    asc_atomic_and,
    asc_atomic_cas,
    asc_atomic_dec,
    asc_atomic_exch,
    asc_atomic_inc,
    asc_atomic_max,
    asc_atomic_min,
    asc_atomic_or,
    asc_atomic_sub,
    asc_atomic_xor,
    asc_ballot,
    asc_reduce_add,
    asc_reduce_max,
    asc_shfl,
    asc_shfl_down,
    asc_shfl_up,
    asc_shfl_xor,
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


# -- warp functions: vectorised tier vs per-thread tier vs a lane reference ----------------------


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


def _warp_reference(v: list[int]) -> list[list[int]]:
    n = len(v)
    out: list[list[int]] = [[] for _ in range(10)]
    for t in range(n):
        base, lane = t - t % 32, t % 32

        def at(lane_: int, base: int = base) -> int:
            return v[base + lane_]

        g8 = lane // 8 * 8
        out[0].append(at(g8 + (t * 7 % 32) % 8))
        out[1].append(at(lane - 3) if lane - 3 >= 0 else v[t])
        g16 = lane // 16 * 16
        out[2].append(at(lane + 5) if lane + 5 < g16 + 16 else v[t])
        g4 = lane // 4 * 4
        out[3].append(at(lane ^ 6) if (lane ^ 6) < g4 + 4 else v[t])
        warp = v[base : base + 32]
        bits = sum(1 << i for i, w in enumerate(warp) if w % 3 == 0)
        out[4].append(bits - (1 << 32) if bits >= 1 << 31 else bits)
        out[5].append(int(all(w > -1000 for w in warp)))
        out[6].append(int(any(w == 5 for w in warp)))
        total = sum(warp) % (1 << 32)
        out[7].append(total - (1 << 32) if total >= 1 << 31 else total)
        out[8].append(max(warp))
        out[9].append(lane)
    return out


@pytest.mark.parametrize("diverge", [False, True], ids=["vectorised", "per-thread"])
def test_warp_functions_match_reference(diverge: bool) -> None:
    n = 64
    gm = GlobalMemory()
    v = np.random.default_rng(1).integers(-50, 50, n).astype(np.int32)
    src, out = gm.alloc(int32_t, n), gm.alloc(int32_t, 10 * n)
    src.write(v)
    launch(_warp_kernel(diverge), n, out, src, n)
    got = out.read(10 * n).reshape(10, n).tolist()
    assert got == _warp_reference(v.tolist())


def test_reading_an_inactive_lane_is_undefined() -> None:
    out = GlobalMemory().alloc(uint32_t, 40)

    def k(out: Any) -> None:
        out[threadIdx.x] = asc_shfl(threadIdx.x, 20)  # lanes 8.. of the last warp do not exist

    with pytest.raises(UndefinedBehaviourError, match="not active"):
        launch(k, 40, out)
    with policy(undefined="warn"), pytest.warns(UserWarning, match="not active"):
        launch(k, 40, out)
    assert out.read(40)[32:].tolist() == list(range(32, 40))


# -- atomics ------------------------------------------------------------------------------------

ATOMICS = {
    "add": (asc_atomic_add, lambda old, v: old + v),
    "sub": (asc_atomic_sub, lambda old, v: old - v),
    "exch": (asc_atomic_exch, lambda old, v: v),
    "max": (asc_atomic_max, max),
    "min": (asc_atomic_min, min),
    "inc": (asc_atomic_inc, lambda old, v: 0 if old >= v else old + 1),
    "dec": (asc_atomic_dec, lambda old, v: v if old == 0 or old > v else old - 1),
    "and": (asc_atomic_and, lambda old, v: old & v),
    "or": (asc_atomic_or, lambda old, v: old | v),
    "xor": (asc_atomic_xor, lambda old, v: old ^ v),
}


@pytest.mark.parametrize("op", list(ATOMICS))
@given(data=st.data())
def test_atomics_serialise_in_thread_order(op: str, data: Any) -> None:
    func, ref = ATOMICS[op]
    n = data.draw(st.integers(1, 70))
    slots = data.draw(st.integers(1, 6))
    where = data.draw(st.lists(st.integers(0, slots - 1), min_size=n, max_size=n))
    vals = data.draw(st.lists(st.integers(0, 2**32 - 1), min_size=n, max_size=n))
    init = data.draw(st.lists(st.integers(0, 2**32 - 1), min_size=slots, max_size=slots))
    diverge = data.draw(st.booleans())
    gm = GlobalMemory()
    mem, idx, val, old = (
        gm.alloc(uint32_t, slots),
        gm.alloc(int32_t, n),
        gm.alloc(uint32_t, n),
        gm.alloc(uint32_t, n),
    )
    mem.write(init), idx.write(where), val.write(vals)

    def k(mem: Any, idx: Any, val: Any, old: Any) -> None:
        t = threadIdx.x
        if diverge and t % 2 == 0:
            pass
        old[t] = func(mem + idx[t], val[t])

    launch(k, n, mem, idx, val, old)
    state = list(init)
    expected_old = []
    for w, v in zip(where, vals, strict=True):
        expected_old.append(state[w])
        state[w] = ref(state[w], v) % 2**32
    assert old.read(n).tolist() == expected_old
    assert mem.read(slots).tolist() == state


def test_cas_and_64_bit_rules() -> None:
    gm = GlobalMemory()
    lock, got = gm.alloc(int32_t, 1), gm.alloc(int32_t, 8)

    def k(lock: Any, got: Any) -> None:
        got[threadIdx.x] = asc_atomic_cas(lock, 0, 1)

    launch(k, 8, lock, got)
    assert got.read(8).tolist() == [0] + [1] * 7
    counter = gm.alloc(uint64_t, 1)
    launch(lambda c: asc_atomic_add(c, 2**40), 100, counter)
    assert int(counter.read(1)[0]) == 100 * 2**40


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

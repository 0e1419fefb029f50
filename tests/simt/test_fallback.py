"""Per-thread fallback leaves no trace of the discarded vectorised attempt; pure-SIMT launches.

Covers: writes through pointers that never were kernel arguments (closures, raw addresses) are
undone; ``print`` output of the discarded attempt is dropped; a kernel's own ``except Exception``
cannot swallow the divergence signal; the kernel runtime's UB hook keeps working (chained); and
the pure-SIMT ``kernel[grid, block, dyn_ub_bytes, stream](args)`` launch through the runtime.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, UnifiedBuffer, float32_t, int32_t, uint32_t
from ascreg.c_api import __global__, __ubuf__, __vector__, asc_vf_call
from ascreg.errors import (
    AddressSpaceError,
    AscregTypeError,
    LaunchError,
    OutOfBoundsError,
    UnsupportedError,
)
from ascreg.machine import kernel as runtime
from ascreg.machine.simt.engine import divergence
from ascreg.simt import (
    __byte_perm,
    __simt_vf__,
    asc_atomic_add,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    run_simt_kernel,
    threadIdx,
)
from ascreg.simt.engine import Journal
from ascreg.simt.lanes import DivergenceSignal, DivergentBranchError, Lanes


def launch(kernel: Any, threads: int, *args: Any, blocks: int = 1) -> None:
    run_simt_kernel(kernel, dim3(blocks), dim3(threads), 0, args)


# -- item: every write of the discarded attempt is undone -----------------------------------------


def test_write_through_a_captured_pointer_is_not_repeated() -> None:
    gm = GlobalMemory()
    hidden = gm.alloc(int32_t, 16)  # reached through the closure, never an argument
    raw = gm.pointer(int32_t, hidden.address)  # and through a raw address
    out = gm.alloc(int32_t, 16)

    def k(out: Any) -> None:
        t = threadIdx.x
        hidden[t] = hidden[t] + 1
        raw[t] = raw[t] + 10
        if t % 2 == 0:
            out[t] = 1

    launch(k, 16, out)
    assert hidden.read(16).tolist() == [11] * 16
    assert out.read(16).tolist() == [1, 0] * 8


def test_atomic_on_a_captured_counter_counts_each_thread_once() -> None:
    gm = GlobalMemory()
    counter = gm.alloc(uint32_t, 1)

    def k() -> None:
        asc_atomic_add(counter, 1)
        if threadIdx.x < 3:
            asc_atomic_add(counter, 100)

    run_simt_kernel(k, dim3(2), dim3(8), 0, ())
    assert int(counter.read(1)[0]) == 2 * (8 + 300)


def test_memory_created_outside_and_written_in_a_vf_is_restored() -> None:
    ub = UnifiedBuffer()  # a standalone UB, not a kernel's: tracked like GM
    scratch = ub.alloc(float32_t, 8)
    out = GlobalMemory().alloc(float32_t, 8)

    @__simt_vf__
    def f(out: Any) -> None:
        t = threadIdx.x
        scratch[t] = scratch[t] + np.float32(0.5)
        out[t] = scratch[t] if t < 4 else -scratch[t]

    from ascreg.simt import run_simt_vf

    run_simt_vf(f, dim3(8), (out,), grid_dim=dim3(1), block_idx=dim3(0))
    assert scratch.read(8).tolist() == [0.5] * 8
    assert out.read(8).tolist() == [0.5] * 4 + [-0.5] * 4


def test_journal_chains_and_restores_the_previous_hook() -> None:
    gm = GlobalMemory()
    p = gm.alloc(uint32_t, 4)
    seen: list[tuple[int, int, str]] = []
    gm.on_access = lambda start, end, action: seen.append((start, end, action))
    journal = Journal()
    with journal.watching([gm, gm]):  # duplicates are hooked once
        p.write([1, 2, 3, 4])
        assert gm.on_access is not None and gm.on_access is not seen.append
    assert seen == [(p.address, p.address + 16, "writes")]
    assert len(journal.entries) == 1
    journal.rollback()
    assert p.read(4).tolist() == [0] * 4
    hook = gm.on_access
    assert hook is not None and getattr(hook, "__name__", "") == "<lambda>"


def test_runtime_pipe_hook_survives_a_divergent_block() -> None:
    hooks: list[Any] = []
    out = GlobalMemory().alloc(uint32_t, 32)

    @__global__
    def k(out: Any) -> None:
        ctx = runtime.current_block()
        hooks.append(ctx.ub.on_access)
        tile = __ubuf__(uint32_t, 32)
        tile[threadIdx.x] = threadIdx.x + 1
        if threadIdx.x < 5:
            tile[threadIdx.x] = 0
        asc_syncthreads()
        out[threadIdx.x] = tile[threadIdx.x]
        hooks.append(ctx.ub.on_access)

    with divergence("unmasked"):  # the branch would run masked, not per thread
        k[1, 32, 0, None](out)
    expected = [0] * 5 + list(range(6, 33))
    assert out.read(32).tolist() == expected
    # the vectorised attempt saw the journal hook; every per-thread run saw the runtime's own
    assert type(hooks[0]).__name__ == "_WriteHook"
    assert all(getattr(h, "__func__", None) is runtime.BlockContext._on_access for h in hooks[1:])


# -- item: print output of the discarded attempt is dropped ---------------------------------------


def test_print_of_a_discarded_attempt_is_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    def k() -> None:
        print("hello from", int(threadIdx.x) if threadIdx.x.size == 1 else "all")
        if threadIdx.x % 2 == 0:
            pass

    with divergence("unmasked"):  # the branch would run masked, not per thread
        launch(k, 4)
    assert capsys.readouterr().out.splitlines() == [f"hello from {t}" for t in range(4)]


def test_print_of_a_vectorised_block_appears_once(capsys: pytest.CaptureFixture[str]) -> None:
    def k() -> None:
        print("block", blockIdx.x, "threads", blockDim.x)

    launch(k, 32, blocks=2)
    assert capsys.readouterr().out.splitlines() == ["block 0 threads 32", "block 1 threads 32"]


def test_print_before_a_real_error_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    out = GlobalMemory().alloc(uint32_t, 4)

    def k(out: Any) -> None:
        print("before")
        out[threadIdx.x + 100] = 1  # out of bounds

    with pytest.raises(OutOfBoundsError, match="leaves the allocation"):
        launch(k, 4, out)
    assert capsys.readouterr().out == "before\n"


# -- item: the divergence signal is not an Exception ---------------------------------------------


def test_except_exception_does_not_swallow_the_fallback() -> None:
    out = GlobalMemory().alloc(int32_t, 8)

    def k(out: Any) -> None:
        t = threadIdx.x
        try:
            if t < 3:
                out[t] = 1
            else:
                out[t] = 2
        except Exception:  # user code: must not catch the engine's signal
            out[t] = 99

    launch(k, 8, out)
    assert out.read(8).tolist() == [1, 1, 1, 2, 2, 2, 2, 2]


def test_divergence_outside_a_kernel_is_still_an_ordinary_error() -> None:
    assert issubclass(DivergenceSignal, BaseException)
    assert not issubclass(DivergenceSignal, Exception)
    with pytest.raises(DivergentBranchError):
        bool(np.arange(2).view(Lanes) > 0)


# -- item: pure-SIMT kernels through the real runtime --------------------------------------------


@__global__
def gather_1d(out: Any, src: Any, idx: Any, n: int) -> None:
    i = threadIdx.x + blockIdx.x * blockDim.x
    if i < n:  # the tail block diverges and runs per thread
        out[i] = src[idx[i]]


def test_pure_simt_launch_through_the_runtime() -> None:
    gm = GlobalMemory()
    n, size = 200, 1000
    src, idx, out = gm.alloc(float32_t, size), gm.alloc(uint32_t, n), gm.alloc(float32_t, 256)
    host = (np.arange(size) * 1.2).astype(np.float32)
    index = (97 * np.arange(n) + 13) % size
    src.write(host)
    idx.write(index)
    gather_1d[dim3(4), dim3(64), 0, None](out, src, idx, n)
    assert np.array_equal(out.read(n), host[index])
    assert not out.read(256)[n:].any()


def test_pure_simt_launch_with_ints_and_dynamic_ub() -> None:
    out = GlobalMemory().alloc(uint32_t, 3 * 32)

    @__global__
    def k(out: Any) -> None:
        dyn = __ubuf__.extern(uint32_t)
        t = threadIdx.x
        dyn[t] = t * 3
        asc_syncthreads()
        out[blockIdx.x * blockDim.x + t] = dyn[31 - t] + blockIdx.x

    k[3, 32, 32 * 4, None](out)
    r = (31 - np.arange(32)) * 3
    assert out.read(96).tolist() == np.concatenate([r, r + 1, r + 2]).tolist()


def test_byte_perm_in_a_pure_simt_launch_is_rejected() -> None:
    out = GlobalMemory().alloc(uint32_t, 32)

    @__global__
    def k(out: Any) -> None:
        out[threadIdx.x] = __byte_perm(threadIdx.x, 0, 0x3210)

    with pytest.raises(UnsupportedError, match=r"__byte_perm: .*not supported in pure SIMT"):
        k[1, 32, 0, None](out)


def test_byte_perm_in_a_vf_started_from_a_vector_kernel_works() -> None:
    out = GlobalMemory().alloc(uint32_t, 64)

    @__simt_vf__
    def perm(out: Any) -> None:
        t = threadIdx.x + blockIdx.x * blockDim.x
        out[t] = __byte_perm(t, 0, 0x3210)

    @__global__
    @__vector__
    def k(out: Any) -> None:
        asc_vf_call[perm](dim3(32), out)

    k[2, 0, None](out)
    assert out.read(64).tolist() == list(range(64))


def test_pure_simt_launch_errors() -> None:
    @__global__
    def k() -> None: ...

    with pytest.raises(LaunchError, match="exceeds the default launch bounds"):
        k[1, 1025, 0, None]()
    with pytest.raises(LaunchError, match="outside"):
        k[0, 32, 0, None]()


def test_pure_simt_launch_checks_its_arguments_like_a_vector_launch() -> None:
    @__global__
    def k(out: Any) -> None:
        out[threadIdx.x] = 1

    with pytest.raises(AddressSpaceError, match=r"argument 'out' is <__ubuf__ .*takes __gm__"):
        k[1, 32, 0, None](UnifiedBuffer().alloc(uint32_t, 32))
    with pytest.raises(AscregTypeError, match="argument 'out' is a host numpy array"):
        k[1, 32, 0, None](np.zeros(32, np.uint32))

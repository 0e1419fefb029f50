"""SIMT block batches (:mod:`ascreg.engine.simt.batch`) give exactly the block-by-block run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, uint32_t
from ascreg.c_api import __global__, __ubuf__, __vector__, asc_vf_call
from ascreg.engine.simt import batch
from ascreg.simt import (
    __byte_perm,
    __simt_vf__,
    asc_shfl,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    threadIdx,
)

THREADS = 32


@__simt_vf__
def vf_byte_perm(dst: Any, x: Any, y: Any, s: Any) -> None:
    idx = threadIdx.x + blockIdx.x * blockDim.x
    dst[idx] = __byte_perm(x[idx], y[idx], s[idx])


@__global__
@__vector__
def byte_perm_kernel(
    dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
) -> None:
    asc_vf_call[vf_byte_perm](dim3(THREADS), dst, x, y, s)


@__simt_vf__
def vf_gather(dst: Any, x: Any, where: Any) -> None:
    i = blockIdx.x * blockDim.x + threadIdx.x
    dst[i] = x[where[i]] * 3 + 1


@__global__
@__vector__
def gather_kernel(dst: GmPtr[uint32_t], x: GmPtr[uint32_t], where: GmPtr[uint32_t]) -> None:
    asc_vf_call[vf_gather](dim3(THREADS), dst, x, where)


@__simt_vf__
def vf_wrap(dst: Any, x: Any, n: Any) -> None:
    i = threadIdx.x + blockIdx.x * blockDim.x
    dst[i % n] = x[i]


@__global__
@__vector__
def wrap_kernel(dst: GmPtr[uint32_t], x: GmPtr[uint32_t], n: int) -> None:
    asc_vf_call[vf_wrap](dim3(THREADS), dst, x, n)


@__simt_vf__
def vf_shared(dst: Any, x: Any) -> None:
    buf = __ubuf__(uint32_t, THREADS)
    buf[threadIdx.x] = x[threadIdx.x + blockIdx.x * blockDim.x]
    asc_syncthreads()
    dst[threadIdx.x + blockIdx.x * blockDim.x] = buf[THREADS - 1 - threadIdx.x]


@__global__
@__vector__
def shared_kernel(dst: GmPtr[uint32_t], x: GmPtr[uint32_t]) -> None:
    asc_vf_call[vf_shared](dim3(THREADS), dst, x)


@__simt_vf__
def vf_block_only(dst: Any) -> None:
    dst[blockIdx.x] = threadIdx.x


@__global__
@__vector__
def block_only_kernel(dst: GmPtr[uint32_t]) -> None:
    asc_vf_call[vf_block_only](dim3(THREADS), dst)


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Four blocks per batch; count the batches that ran."""
    monkeypatch.setattr(batch, "BATCH_LANES", 4 * THREADS)
    ran: list[int] = []
    real = batch.run_batched

    def counted(*args: Any) -> bool:
        ok = real(*args)
        ran.append(int(ok))
        return ok

    monkeypatch.setattr(batch, "run_batched", counted)
    yield ran


def _both(launch: Callable[[bool], Any]) -> tuple[Any, Any]:
    """Run *launch* batched and block by block: (result or error text) each."""
    outcomes = []
    for on in (True, False):
        batch.BATCHING[0] = on
        try:
            outcomes.append(launch(on))
        except Exception as exc:
            outcomes.append(f"{type(exc).__name__}: {exc}")
        finally:
            batch.BATCHING[0] = True
    return outcomes[0], outcomes[1]


def _random(n: int, seed: int, high: int = 2**32) -> np.ndarray[Any, Any]:
    return np.random.default_rng(seed).integers(0, high, n, dtype=np.uint64).astype(np.uint32)


def test_byte_perm_batched_equals_per_block(small_batches: list[int]) -> None:
    blocks = 10  # not a multiple of the batch size (4): batches of 4, 4 and 2 blocks
    n = blocks * THREADS
    host = [_random(n, seed) for seed in range(3)]

    def launch(_: bool) -> list[int]:
        gm = GlobalMemory()
        dst, x, y, s = (gm.alloc(uint32_t, n) for _ in range(4))
        for ptr, values in zip((x, y, s), host, strict=True):
            ptr.write(values)
        byte_perm_kernel[blocks, 0, None](dst, x, y, s)
        return dst.read(n).tolist()  # type: ignore[no-any-return]

    batched, single = _both(launch)
    assert batched == single
    assert small_batches == [1, 1, 1]


def test_the_seed_byte_perm_with_its_int32_t_index_batches(small_batches: list[int]) -> None:
    """The shipped example casts its index (``int32_t idx = ...`` in C++): a cast to a scalar
    type is lane-wise, so its launches batch (a regression: they ran block by block, 6x slower
    at 128 threads, since the cast was added for emit)."""
    from ascreg.examples.byte_perm_simt import KernelByte_perm, reference

    assert batch.why_not_batched(KernelByte_perm) is None
    blocks = 6
    n = blocks * THREADS
    host = [_random(n, seed) for seed in range(3)]

    @__global__
    @__vector__
    def seed_kernel(
        dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
    ) -> None:
        asc_vf_call[KernelByte_perm](dim3(THREADS), dst, x, y, s)

    def launch(_: bool) -> list[int]:
        gm = GlobalMemory()
        dst, x, y, s = (gm.alloc(uint32_t, n) for _ in range(4))
        for ptr, values in zip((x, y, s), host, strict=True):
            ptr.write(values)
        seed_kernel[blocks, 0, None](dst, x, y, s)
        return dst.read(n).tolist()  # type: ignore[no-any-return]

    batched, single = _both(launch)
    assert batched == single == reference(*host).tolist()
    assert small_batches == [1, 1]


def test_gather_batched_equals_per_block(small_batches: list[int]) -> None:
    blocks, size = 8, 100
    n = blocks * THREADS
    values, where = _random(size, 4, 1000), _random(n, 5, size)

    def launch(_: bool) -> list[int]:
        gm = GlobalMemory()
        dst, x, w = gm.alloc(uint32_t, n), gm.alloc(uint32_t, size), gm.alloc(uint32_t, n)
        x.write(values)
        w.write(where)
        gather_kernel[blocks, 0, None](dst, x, w)
        return dst.read(n).tolist()  # type: ignore[no-any-return]

    batched, single = _both(launch)
    assert batched == single
    assert small_batches == [1, 1]


@pytest.mark.parametrize("wrap", [3 * THREADS, 5 * THREADS + 7])
def test_a_race_between_blocks_reports_the_same_error(small_batches: list[int], wrap: int) -> None:
    blocks = 8
    n = blocks * THREADS

    def launch(_: bool) -> Any:
        gm = GlobalMemory()
        dst, x = gm.alloc(uint32_t, n), gm.alloc(uint32_t, n)
        x.write(_random(n, 6))
        try:
            wrap_kernel[blocks, 0, None](dst, x, wrap)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}", dst.read(n).tolist()
        return dst.read(n).tolist()

    batched, single = _both(launch)
    assert batched == single
    assert "SyncError" in batched[0]
    assert 0 in small_batches  # the racing batch ran again block by block


def test_an_out_of_bounds_access_in_a_late_block_reports_the_same_error(
    small_batches: list[int],
) -> None:
    blocks = 10
    n = blocks * THREADS

    def launch(_: bool) -> Any:
        gm = GlobalMemory()
        dst, x = gm.alloc(uint32_t, n - 5), gm.alloc(uint32_t, n)  # block 9 runs off dst
        x.write(_random(n, 7))
        try:
            wrap_kernel[blocks, 0, None](dst, x, n)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}", dst.read(n - 5).tolist()
        return dst.read(n - 5).tolist()

    batched, single = _both(launch)
    assert batched == single
    assert "OutOfBoundsError" in batched[0]
    assert small_batches == [1, 1, 0]


def test_a_kernel_with_shared_state_never_batches(small_batches: list[int]) -> None:
    assert batch.why_not_batched(vf_shared) is not None
    blocks = 6
    n = blocks * THREADS
    host = _random(n, 8)

    def launch(_: bool) -> list[int]:
        gm = GlobalMemory()
        dst, x = gm.alloc(uint32_t, n), gm.alloc(uint32_t, n)
        x.write(host)
        shared_kernel[blocks, 0, None](dst, x)
        return dst.read(n).tolist()  # type: ignore[no-any-return]

    batched, single = _both(launch)
    assert batched == single == host.reshape(blocks, THREADS)[:, ::-1].reshape(-1).tolist()
    assert small_batches == []


def test_a_launch_that_cannot_batch_says_why_once(caplog: pytest.LogCaptureFixture) -> None:
    """Block by block is the slow path: the ``ascreg.simt`` logger says so, once per kernel."""

    @__global__
    @__vector__
    def quiet_kernel(dst: GmPtr[uint32_t], x: GmPtr[uint32_t]) -> None:
        asc_vf_call[vf_shared](dim3(THREADS), dst, x)

    gm = GlobalMemory()
    dst, x = gm.alloc(uint32_t, 2 * THREADS), gm.alloc(uint32_t, 2 * THREADS)
    x.write(np.zeros(2 * THREADS, np.uint32))
    with caplog.at_level("INFO", logger="ascreg.simt"):
        quiet_kernel[2, 0, None](dst, x)
        quiet_kernel[2, 0, None](dst, x)
    said = [r.getMessage() for r in caplog.records if "no block batches" in r.getMessage()]
    assert said == [
        "quiet_kernel: its blocks run one at a time (no block batches): vf_shared it reads the "
        "name 'uint32_t'"
    ]


def test_block_identity_outside_the_global_index_never_batches(small_batches: list[int]) -> None:
    assert batch.why_not_batched(vf_block_only) is not None
    dst = GlobalMemory().alloc(uint32_t, 4)
    block_only_kernel[4, 0, None](dst)
    assert dst.read(4).tolist() == [THREADS - 1] * 4
    assert small_batches == []


def test_aliased_input_and_output_run_block_by_block(small_batches: list[int]) -> None:
    blocks = 8
    n = blocks * THREADS
    host = _random(n, 9, 1000)

    def launch(_: bool) -> list[int]:
        gm = GlobalMemory()
        buf, where = gm.alloc(uint32_t, n), gm.alloc(uint32_t, n)
        buf.write(host)
        where.write((np.arange(n, dtype=np.uint32) + THREADS) % n)  # read the next block's
        gather_kernel[blocks, 0, None](buf, buf, where)
        return buf.read(n).tolist()  # type: ignore[no-any-return]

    batched, single = _both(launch)
    assert batched == single
    assert small_batches == []


def _branches(dst: Any) -> None:
    if threadIdx.x < 2:
        dst[threadIdx.x] = 1


def _shuffles(dst: Any) -> None:
    dst[threadIdx.x] = asc_shfl(threadIdx.x, 0)


def _block_plus(dst: Any) -> None:
    dst[threadIdx.x] = blockIdx.x + threadIdx.x


def _prints(dst: Any) -> None:
    print(threadIdx.x)


def _pointer_arithmetic(dst: Any) -> None:
    p = dst + 1
    p[threadIdx.x] = 1


@pytest.mark.parametrize(
    ("func", "reason"),
    [
        (_branches, "(If)"),
        (_shuffles, "calls asc_shfl"),
        (_block_plus, "blockIdx outside"),
        (_prints, "(Expr)"),
        (_pointer_arithmetic, "assigns to something other"),
    ],
)
def test_what_does_not_batch(func: Callable[..., Any], reason: str) -> None:
    why = batch.why_not_batched(func)
    assert why is not None and reason in why


def test_the_switch_and_the_reference_tiers_turn_batching_off(small_batches: list[int]) -> None:
    from ascreg.machine.simt.engine import divergence

    dst, x = GlobalMemory().alloc(uint32_t, 4 * THREADS), GlobalMemory().alloc(uint32_t, 4)
    x.write([0, 1, 2, 3])
    where = GlobalMemory().alloc(uint32_t, 4 * THREADS)
    where.write(np.arange(4 * THREADS, dtype=np.uint32) % 4)
    batch.BATCHING[0] = False
    try:
        gather_kernel[4, 0, None](dst, x, where)
    finally:
        batch.BATCHING[0] = True
    for mode in ("unmasked", "per-thread"):
        with divergence(mode):
            gather_kernel[4, 0, None](dst, x, where)
    assert small_batches == []
    gather_kernel[4, 0, None](dst, x, where)
    assert small_batches == [1]
    assert dst.read(4 * THREADS).tolist() == [3 * (i % 4) + 1 for i in range(4 * THREADS)]

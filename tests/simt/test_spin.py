"""Spin loops: a warp waiting for another warp finishes, a spin nobody can end raises."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, int32_t
from ascreg.engine.simt import masked
from ascreg.machine.simt.engine import __simt_callee__, divergence
from ascreg.machine.simt.lanes import SpinError
from ascreg.simt import asc_atomic_cas, asc_atomic_exch, dim3, run_simt_kernel, threadIdx

TIMEOUT_SECONDS = 60.0


def run_guarded(kernel: Any, threads: int, *args: Any) -> BaseException | None:
    """Run *kernel* in a daemon thread; fail (never hang) if it has not ended in time."""
    failure: list[BaseException] = []

    def body() -> None:
        try:
            run_simt_kernel(kernel, dim3(1), dim3(threads), 0, args)
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=body, daemon=True)
    worker.start()
    worker.join(TIMEOUT_SECONDS)
    assert not worker.is_alive(), "the kernel hangs"
    return failure[0] if failure else None


def flag_spin(flag: Any, out: Any) -> None:
    t = threadIdx.x
    if t < 32:
        while flag[0] == 0:  # warp 0 waits for warp 1
            pass
        out[t] = flag[0]
    else:
        flag[0] = 7
        out[t] = 1


def cas_spin(lock: Any, out: Any) -> None:
    t = threadIdx.x
    if t >= 32:
        n = 0  # warp 1 holds the lock from the start (lock[0] == 1) until it has counted
        while n < 4:
            n += 1
        out[t] = n
        asc_atomic_exch(lock, 0)
    else:
        while asc_atomic_cas(lock, 0, 1) != 0:  # warp 0 spins on warp 1's lock
            pass
        out[t] = out[t] + 1
        asc_atomic_exch(lock, 0)


def take_turns(lock: Any, total: Any) -> None:
    done = False
    while not done:
        if asc_atomic_cas(lock, 0, 1) == 0:  # one lane at a time holds the lock
            total[0] = total[0] + threadIdx.x + 1
            asc_atomic_exch(lock, 0)
            done = True


def deadlock(flags: Any, out: Any) -> None:
    t = threadIdx.x
    mine, theirs = t // 32, 1 - t // 32
    while flags[theirs] == 0:  # each warp waits for the other one
        pass
    flags[mine] = 1
    out[t] = 1


MODES = ["masked", "unmasked", "per-thread"]


@pytest.mark.parametrize("mode", MODES)
def test_a_warp_waiting_for_a_flag_of_another_warp_finishes(mode: str) -> None:
    gm = GlobalMemory()
    flag, out = gm.alloc(int32_t, 1), gm.alloc(int32_t, 64)
    with divergence(mode):
        assert run_guarded(flag_spin, 64, flag, out) is None
    assert out.read(64).tolist() == [7] * 32 + [1] * 32


@pytest.mark.parametrize("mode", MODES)
def test_a_warp_waiting_for_a_lock_of_another_warp_finishes(mode: str) -> None:
    gm = GlobalMemory()
    lock, out = gm.alloc(int32_t, 1), gm.alloc(int32_t, 64)
    with divergence(mode):
        lock.write([1])
        assert run_guarded(cas_spin, 64, lock, out) is None
    assert out.read(64).tolist() == [1] * 32 + [4] * 32
    assert lock.read(1).tolist() == [0]


def test_the_masked_tier_says_it_falls_back(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(masked, "_told", set())  # said once per place: say it again here
    gm = GlobalMemory()
    with caplog.at_level("INFO", logger="ascreg.simt"):
        assert run_guarded(flag_spin, 64, gm.alloc(int32_t, 1), gm.alloc(int32_t, 64)) is None
    assert "spins on another warp" in caplog.text


@pytest.mark.parametrize("mode", MODES)
def test_a_spin_no_thread_can_end_raises_naming_the_loop(mode: str) -> None:
    gm = GlobalMemory()
    with divergence(mode):
        error = run_guarded(deadlock, 64, gm.alloc(int32_t, 2), gm.alloc(int32_t, 64))
    assert isinstance(error, SpinError)
    message = str(error)
    assert "deadlock" in message and "spin" in message and "the block hangs" in message
    lineno = int(message.split("at line(s) ")[1].split(" ")[0])
    with open(__file__) as source:
        assert source.readlines()[lineno - 1].strip().startswith("while flags[theirs]")


@pytest.mark.parametrize("mode", MODES)
def test_a_lock_taken_in_turn_makes_progress(mode: str) -> None:
    gm = GlobalMemory()
    lock, total = gm.alloc(int32_t, 1), gm.alloc(int32_t, 1)
    with divergence(mode):
        assert run_guarded(take_turns, 64, lock, total) is None
    assert total.read(1).tolist() == [sum(range(1, 65))]
    assert lock.read(1).tolist() == [0]


def counts_to(out: Any) -> None:
    t = threadIdx.x
    while out[t] < 2000:  # no local changes, but every iteration stores
        out[t] = out[t] + 1


def spins_down(out: Any) -> None:
    t = threadIdx.x
    n = 3000 + t
    while n > 0:  # no stores, but the loop state changes
        n -= 1
    out[t] = n


@pytest.mark.parametrize("kernel", [counts_to, spins_down])
def test_long_loops_that_progress_are_no_spins(kernel: Any) -> None:
    out = GlobalMemory().alloc(int32_t, 64)
    assert run_guarded(kernel, 64, out) is None
    expected = np.full(64, 2000 if kernel is counts_to else 0)
    assert out.read(64).tolist() == expected.tolist()


@__simt_callee__
def wait_for(flag: Any) -> Any:
    seen = flag[0]
    while seen == 0:  # a helper's loop spins too
        seen = flag[0]
    return seen


def helper_spin(flag: Any, out: Any) -> None:
    t = threadIdx.x
    if t < 32:
        out[t] = wait_for(flag)
    else:
        flag[0] = 5
        out[t] = 1


@pytest.mark.parametrize("mode", MODES)
def test_a_spin_in_a_simt_callee_finishes(mode: str) -> None:
    gm = GlobalMemory()
    flag, out = gm.alloc(int32_t, 1), gm.alloc(int32_t, 64)
    with divergence(mode):
        assert run_guarded(helper_spin, 64, flag, out) is None
    assert out.read(64).tolist() == [5] * 32 + [1] * 32

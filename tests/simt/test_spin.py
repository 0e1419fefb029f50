"""Spin loops in the masked tier: a lockstep spin raises, a spin that makes progress finishes."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, int32_t
from ascreg.machine.simt.engine import divergence
from ascreg.machine.simt.masked import LockstepSpinError
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
        lock[0] = 1  # warp 1 holds the lock while it counts
        n = 0
        while n < 4:
            n += 1
        out[t] = n
        asc_atomic_exch(lock, 0)
    else:
        while asc_atomic_cas(lock, 0, 1) != 0:  # warp 0 spins on warp 1's lock
            pass
        out[t] = 1


def take_turns(lock: Any, total: Any) -> None:
    done = False
    while not done:
        if asc_atomic_cas(lock, 0, 1) == 0:  # one lane at a time holds the lock
            total[0] = total[0] + threadIdx.x + 1
            asc_atomic_exch(lock, 0)
            done = True


@pytest.mark.parametrize(
    ("kernel", "line"), [(flag_spin, "while flag[0]"), (cas_spin, "while asc")]
)
def test_a_spin_on_another_warp_raises_naming_the_loop(kernel: Any, line: str) -> None:
    gm = GlobalMemory()
    error = run_guarded(kernel, 64, gm.alloc(int32_t, 1), gm.alloc(int32_t, 64))
    assert isinstance(error, LockstepSpinError)
    message = str(error)
    lineno = int(message.split(f"{__file__}:")[1].split(" ")[0])
    with open(__file__) as source:
        assert source.readlines()[lineno - 1].strip().startswith(line)
    assert kernel.__name__ in message
    assert "lockstep" in message and "spin" in message


def test_the_error_is_not_left_to_the_per_thread_tier(caplog: pytest.LogCaptureFixture) -> None:
    gm = GlobalMemory()
    with caplog.at_level("INFO", logger="ascreg.simt"):
        error = run_guarded(flag_spin, 64, gm.alloc(int32_t, 1), gm.alloc(int32_t, 64))
    assert isinstance(error, LockstepSpinError)
    assert "one thread at a time" not in caplog.text


@pytest.mark.parametrize("mode", ["masked", "per-thread"])
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

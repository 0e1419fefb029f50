"""Where figure (b)'s time goes: the kernel's tile and the host-tiled call's, phase by phase.

``python -m benchmarks.vf_breakdown`` runs :func:`~benchmarks.bench_vf.streamed_kernel` and
:func:`~benchmarks.bench_vf.run_ascreg` with every call their tile loops make wrapped in a
timer, and prints the time per tile of each phase: in the kernel the three copies in, the
three notify/wait pairs, the VF call and the copy out; on the host the three ``write`` calls,
the VF call and the ``read``. Each figure is the smallest of ``REPEATS`` runs' means. The
timers are wall-clock (``time.perf_counter``: a CPU-time clock costs a system call per reading)
and add about a microsecond per call; the rest of a tile (the loop, the pointer arithmetic) is
the run's time less the phases'. A third column runs the kernel with its checks waived
(:func:`checks_waived`): what the kernel's calls cost if checking them cost nothing, the floor
of figure (b) that a cheaper checker alone can reach. Not part of ``python -m benchmarks``: it
explains a ratio, it is not one.
"""

from __future__ import annotations

import collections
import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from ascreg import UbPtr
from ascreg.c_api import asc_vf_call
from ascreg.machine import races
from ascreg.machine.block import BlockContext
from ascreg.machine.sync import PipeTracker
from benchmarks import bench_vf

REPEATS = 5
TILES = -(-bench_vf.COUNT // bench_vf.TILE)
KERNEL_PHASES = {
    "asc_copy_gm2ub_align": "copies in (3)",
    "asc_sync_notify": "flags (3 pairs)",
    "asc_sync_wait": "flags (3 pairs)",
    "asc_copy_ub2gm_align": "copy out",
}
"""The kernel's calls by the phase they are counted in (the VF call is timed apart)."""
ORDER = ("copies in (3)", "writes (3)", "flags (3 pairs)", "VF call", "copy out", "read", "the rest",
         "tile")  # fmt: skip
"""The table's rows: each host phase after the kernel phase it stands for."""


class Clock:
    """Time spent per phase by the calls :meth:`timed` wraps."""

    def __init__(self) -> None:
        self.spent: collections.defaultdict[str, float] = collections.defaultdict(float)

    def timed(self, phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Return *fn* adding the time of each call to *phase*."""

        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[phase] += time.perf_counter() - start

        return run


class _TimedVfCall:
    """``asc_vf_call`` whose ``asc_vf_call[f]`` is timed as the "VF call" phase."""

    def __init__(self, clock: Clock, vf_call: Any) -> None:
        self.clock, self.vf_call = clock, vf_call

    def __getitem__(self, func: Any) -> Callable[..., Any]:
        return self.clock.timed("VF call", self.vf_call[func])


@contextmanager
def kernel_timers(clock: Clock) -> Iterator[None]:
    """Time the kernel body's calls (its globals are the module's, looked up per call)."""
    names = {
        name: clock.timed(phase, getattr(bench_vf, name)) for name, phase in KERNEL_PHASES.items()
    }
    vf_call = _TimedVfCall(clock, asc_vf_call)
    with mock.patch.dict(bench_vf.__dict__, {**names, "asc_vf_call": vf_call}):
        yield


@contextmanager
def host_timers(clock: Clock) -> Iterator[None]:
    """Time the host loop's pointer writes and reads."""
    with (
        mock.patch.object(UbPtr, "write", clock.timed("writes (3)", UbPtr.write)),
        mock.patch.object(UbPtr, "read", clock.timed("read", UbPtr.read)),
    ):
        yield


def _nothing(*_: Any, **__: Any) -> None:
    return None


def _passes(*_: Any, **__: Any) -> bool:
    return True


def _chain_only(hook: Any, start: int, end: int, action: str) -> None:
    if hook.previous is not None:
        hook.previous(start, end, action)


WAIVED = (
    *(
        (PipeTracker, name, _nothing)
        for name in ("access", "notify", "wait", "begin_copy", "complete")
    ),
    (PipeTracker, "access_rows", _passes),
    (BlockContext, "mem_bar", _nothing),
    (BlockContext, "all_written", _passes),
    (BlockContext, "access_rows", _passes),
    (races._OwnerHook, "__call__", _chain_only),
)
"""The checks :func:`checks_waived` replaces: (class, method, what it does instead)."""


@contextmanager
def checks_waived() -> Iterator[None]:
    """Run the kernel runtime with the pipe tracker's, the block's and the GM race checks waived.

    Each check in :data:`WAIVED` records and checks nothing (every UB byte counts as written;
    the written marks are still set, which costs nothing once a range is all marked, and the
    copies' fast path needs them): the data still moves, so a kernel that is correct computes
    the same result, only faster. A diagnostic of what the checks cost, never for real runs.
    """
    with contextlib.ExitStack() as stack:
        for cls, name, stand_in in WAIVED:
            stack.enter_context(mock.patch.object(cls, name, stand_in))
        yield


def per_tile(run: Callable[[Clock | None], None]) -> dict[str, float]:
    """Run *run* ``REPEATS`` times; return each phase's smallest time per tile, and the rest."""
    best: dict[str, float] = {}
    for _ in range(REPEATS):
        clock = Clock()
        start = time.perf_counter()
        run(clock)
        total = time.perf_counter() - start
        times = {**clock.spent, "the rest": total - sum(clock.spent.values()), "tile": total}
        for phase, spent in times.items():
            best[phase] = min(best.get(phase, spent), spent / TILES)
    return best


def untimed_tile(run: Callable[[Clock | None], None]) -> float:
    """:func:`per_tile`'s whole tile for *run* without timers (the clock it is given unused)."""
    return per_tile(lambda _clock: run(None))["tile"]


def main() -> None:
    """Measure both paths and print one table of microseconds per tile, then the ratios."""
    (a, b, s), (gd, ga, gb, gs) = bench_vf.operands()

    def kernel(clock: Clock | None) -> None:
        with kernel_timers(clock) if clock else contextlib.nullcontext():
            bench_vf.streamed_kernel[1, 0, None](gd, ga, gb, gs, bench_vf.COUNT)

    def host(clock: Clock | None) -> None:
        with host_timers(clock) if clock else contextlib.nullcontext():
            vf = clock.timed("VF call", bench_vf.ascreg_vf) if clock else bench_vf.ascreg_vf
            bench_vf.run_ascreg(a, b, s, vf)

    def waived(clock: Clock | None) -> None:
        with checks_waived():
            kernel(clock)

    runs = {"(b) kernel": kernel, "(a) host-tiled": host, "(b) checks waived": waived}
    kernel(Clock())  # first calls: plans recorded, forms validated
    host(Clock())
    rows = {name: per_tile(run) for name, run in runs.items()}
    print(f"microseconds per {bench_vf.TILE}-element tile ({TILES} tiles), best of {REPEATS}")
    print(f"| phase | {' | '.join(rows)} |")
    print("|---|" + "---:|" * len(rows))
    for phase in ORDER:
        cells = (f"{times[phase] * 1e6:.1f}" if phase in times else "" for times in rows.values())
        print(f"| {phase} | {' | '.join(cells)} |")
    for label, tile in (
        ("timed", {name: times["tile"] for name, times in rows.items()}),
        ("untimed", {name: untimed_tile(run) for name, run in runs.items()}),
    ):
        host_tile = tile["(a) host-tiled"]
        print(
            f"{label}: kernel / host-tiled {tile['(b) kernel'] / host_tile:.2f}x, "
            f"with the checks waived {tile['(b) checks waived'] / host_tile:.2f}x "
            f"({', '.join(f'{name} {t * 1e6:.1f} us' for name, t in tile.items())})"
        )


if __name__ == "__main__":
    main()

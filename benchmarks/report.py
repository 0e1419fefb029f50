"""Timing and reporting shared by the benchmarks.

Every figure is the minimum of repeated runs, measured in the same process as the numpy
baseline it is divided by. A run's time is the CPU time of this process (the work is
single-threaded: numpy's element-wise calls do not start threads), so other jobs on a shared
machine, which take the CPU away from it, add little to it; wall-clock time would count every
moment the process waited for a core. The candidates of one comparison are also run
round-robin (a, b, a, b, ...), so what load remains (caches and memory bandwidth shared with
other jobs) slows one run of each rather than every run of one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured figure: its best time and its ratios.

    ``numpy`` is the whole-array numpy time of the same work, measured in this process;
    ``versus`` names the figure this one is compared with (``ratio`` = this / that), and
    ``target`` is the ratio the project aims for (None: no target).
    """

    benchmark: str
    name: str
    seconds: float
    numpy: float
    versus: str = ""
    ratio: float | None = None
    target: float | None = None


def best_times(candidates: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Run the candidates round-robin *repeats* times; return each one's minimum CPU time."""
    best = dict.fromkeys(candidates, float("inf"))
    for _ in range(repeats):
        for name, fn in candidates.items():
            start = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - start)
    return best


HEADER = (
    "| benchmark | figure | best time | / numpy whole-array | compared with | ratio | target |",
    "|---|---|---:|---:|---|---:|---:|",
)


def _duration(seconds: float) -> str:
    """Render a time in ms, or in us below a millisecond (three significant digits at most)."""
    return f"{seconds * 1e3:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} us"


def table(figures: list[Figure]) -> list[str]:
    """Format *figures* as the lines of a markdown table (readable as plain text too)."""
    rows = []
    for f in figures:
        ratio = "" if f.ratio is None else f"{f.ratio:.2f}x"
        met = (
            ""
            if f.target is None or f.ratio is None
            else (" ok" if f.ratio <= f.target else " MISSED")
        )
        target = "" if f.target is None else f"<= {f.target:g}x{met}"
        rows.append(
            f"| {f.benchmark} | {f.name} | {_duration(f.seconds)} | {f.seconds / f.numpy:.1f}x "
            f"| {f.versus} | {ratio} | {target} |"
        )
    return [*HEADER, *rows]

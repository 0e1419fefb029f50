"""Real kernels end to end, at 2**20 elements, against the same math in whole-array numpy.

Each kernel of :mod:`benchmarks.kernels` (GELU, softmax, RmsNorm, AscendQuant, histogram256,
sobel, byte_perm) is run through its ``kernel[blocks, ub, stream](...)`` launches: the inputs
copied into global memory, the launches, the outputs copied out (global memory is allocated
once, outside the timing). Its numpy baseline is the same math on the whole arrays. Target: at
most 10x numpy (aim 3x), divergent SIMT included.

The run before the timing checks each result with the example's own verification and records
which of the kernel's loops ran eagerly and why (the ``ascreg.batch`` and ``ascreg.simt`` logs),
listed under the table in ``NOTES``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from benchmarks.kernels import RealKernel, kernels
from benchmarks.report import Figure, best_times

REPEATS = 3
TARGET = 10.0
NOTES: list[str] = []
"""Lines for the report under the table: the loops of each kernel that ran eagerly, and why."""

_LOGGERS = ("ascreg.batch", "ascreg.simt")


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def recorded() -> Iterator[list[str]]:
    """Collect the batching and SIMT log messages of the block (at DEBUG level)."""
    handler = _Records()
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    try:
        yield handler.messages
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)


_WHERE = re.compile(r"^(?P<where>[\w.]+ line \d+): (?P<what>.*)$")


def eager_loops(messages: list[str]) -> list[str]:
    """The loops that ran eagerly at least once: ``where: reason (n calls)``, most frequent first.

    A loop some calls of which ran batched says so (``..., batched n times``).
    """
    eager: Counter[tuple[str, str]] = Counter()
    batched: Counter[str] = Counter()
    for message in messages:
        found = _WHERE.match(message)
        if found is None:
            continue
        where, what = found["where"], found["what"]
        if what.startswith("runs eagerly") or what.startswith("eager:"):
            eager[where, what.removeprefix("eager: ")] += 1
        elif what.startswith("batched over"):
            batched[where] += 1
    lines = []
    for (where, why), count in eager.most_common():
        if why.startswith("runs eagerly (0 iterations)") or why == "runs eagerly (1 iterations)":
            continue  # nothing to batch
        also = f", batched {batched[where]} times" if batched[where] else ""
        lines.append(f"{where}: {why} ({count} call{'s' if count > 1 else ''}{also})")
    return lines


def _measure(kernel: RealKernel) -> tuple[list[Figure], list[str]]:
    inputs = kernel.inputs(kernel.size, 0)
    launch = kernel.launcher(kernel.size)
    with recorded() as messages:
        output = launch(*inputs)
    assert kernel.check(output, kernel.golden(*inputs)), f"{kernel.name}: wrong result"
    best = best_times(
        {"numpy": lambda: kernel.golden(*inputs), "kernel": lambda: launch(*inputs)}, REPEATS
    )
    what = f"{kernel.name} ({kernel.size:,} elements)"
    numpy, total = best["numpy"], best["kernel"]
    figures = [
        Figure(what, "numpy whole-array", numpy, numpy),
        Figure(
            what, "kernel[...] launches", total, numpy, "numpy whole-array", total / numpy, TARGET
        ),
    ]
    loops = eager_loops(messages)
    note = f"* **{kernel.name}** ({kernel.origin}): "
    note += "no loop ran eagerly." if not loops else "eager loops: " + "; ".join(loops) + "."
    return figures, [note]


def run() -> list[Figure]:
    """Time every real kernel against numpy; fill :data:`NOTES`; return the figures."""
    NOTES.clear()
    figures: list[Figure] = []
    for kernel in kernels():
        found, notes = _measure(kernel)
        figures += found
        NOTES.extend(notes)
    return figures


def main() -> None:  # pragma: no cover - a script
    """Print the figures and the eager loops of each kernel."""
    from benchmarks.report import table

    print("\n".join(table(run())))
    print("\n".join(NOTES))


if __name__ == "__main__":  # pragma: no cover
    main()

"""What recording a profile (``ascreg.profile``) adds to a run.

Figures, each the best of several runs (CPU time), the runs with and without a profile made
round-robin:

* the ``sigmoid_f32`` example (ops-nn arch35: one block, 16 tiles of 4096 floats, double
  buffered), whose ``__VEC_SCOPE__`` loops run eagerly: every op call is recorded, the worst
  case; against the same run without a profile (target 1.3x), and the plain run against
  whole-array numpy doing its math;
* every bundled example (``python -m ascreg.examples``) run once each, with and without a
  profile (target 1.3x); the numpy column there is the sigmoid's floor, for scale only.

The profile is scheduled only when its timeline is asked for; neither figure asks.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from collections.abc import Callable

import numpy as np

import ascreg
from ascreg.examples import EXAMPLES, sigmoid_f32
from benchmarks.report import Figure, best_times

REPEATS = 7
SHAPE = {"blocks": 1, "tiles": 16, "tile": 4096}
TARGET = 1.3


def _quiet(fn: Callable[[], object], traced: bool) -> Callable[[], None]:
    """Return *fn* with its output swallowed, run under a profile when *traced*."""

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            if traced:
                with ascreg.profile():
                    fn()
            else:
                fn()

    return run


def _all_examples() -> None:
    for name in EXAMPLES:
        importlib.import_module(f"ascreg.examples.{name}").main()


def run() -> list[Figure]:
    """Time the sigmoid and the bundled examples with and without a profile."""
    x = np.random.default_rng(0).uniform(-12, 12, 16 * 4096).astype(np.float32)

    def sigmoid() -> None:
        sigmoid_f32.main(**SHAPE)

    candidates = {
        "numpy": lambda: sigmoid_f32.golden(x),
        "sigmoid": _quiet(sigmoid, False),
        "sigmoid traced": _quiet(sigmoid, True),
        "examples": _quiet(_all_examples, False),
        "examples traced": _quiet(_all_examples, True),
    }
    for fn in candidates.values():  # warm up: first calls analyse loops and fill caches
        fn()
    best = best_times(candidates, REPEATS)
    numpy, name = best["numpy"], "profile recording"
    return [
        Figure(name, "sigmoid_f32, 16 tiles, no profile", best["sigmoid"], numpy),
        Figure(
            name,
            "sigmoid_f32, 16 tiles, profiled",
            best["sigmoid traced"],
            numpy,
            "no profile",
            best["sigmoid traced"] / best["sigmoid"],
            TARGET,
        ),
        Figure(name, f"{len(EXAMPLES)} bundled examples, no profile", best["examples"], numpy),
        Figure(
            name,
            f"{len(EXAMPLES)} bundled examples, profiled",
            best["examples traced"],
            numpy,
            "no profile",
            best["examples traced"] / best["examples"],
            TARGET,
        ),
    ]

"""The benchmarks' real kernels (``benchmarks/kernels``) at a small size against their numpy
goldens, with each example's own check, so they cannot rot while the benchmarks stay out of the
default run. Also the report's summary of the eager loops.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_kernels  # noqa: E402
from benchmarks.kernels import MODULES, kernels  # noqa: E402

KERNELS = {k.name: k for k in kernels()}


@pytest.mark.parametrize("name", MODULES)
def test_kernel_matches_its_numpy_golden(name: str) -> None:
    kernel = KERNELS[name]
    assert kernel.size >= 1 << 20  # the benchmark's size is realistic
    inputs = kernel.inputs(kernel.small, 3)
    run = kernel.launcher(kernel.small)
    output = run(*inputs)
    golden = kernel.golden(*inputs)
    assert kernel.check(output, golden)
    assert kernel.check(run(*inputs), golden)  # a second launch on the same memory agrees
    assert not kernel.check(_spoiled(output), golden)  # and the check is not vacuous


def _spoiled(output: Any) -> Any:
    """A wrong result: one element (or row) changed, keeping the shape."""
    if isinstance(output, tuple):
        return (_spoiled(output[0]), *output[1:])
    wrong = np.array(output, copy=True)
    flat = wrong.reshape(-1)
    flat[: max(1, flat.size // 50)] += 7 if flat.dtype.kind in "iu" else 1.5
    return wrong


def test_eager_loops_are_summarised_per_loop() -> None:
    messages = [
        "Vf line 3: runs eagerly (Reg.Cast is not known to compute row-wise in this form)",
        "Vf line 3: runs eagerly (Reg.Cast is not known to compute row-wise in this form)",
        "Vf line 3: batched over 16 iterations",
        "Vf line 9: eager: calls np.float32, which is not an ascreg operation",
        "Vf line 12: runs eagerly (0 iterations)",
        "Vf line 20: batched over 8 iterations (a recorded plan)",
        "unrelated message",
    ]
    assert bench_kernels.eager_loops(messages) == [
        "Vf line 3: runs eagerly (Reg.Cast is not known to compute row-wise in this form)"
        " (2 calls, batched 1 times)",
        "Vf line 9: calls np.float32, which is not an ascreg operation (1 call)",
    ]


def test_recorded_collects_the_batch_log_and_restores_the_loggers() -> None:
    import logging

    log = logging.getLogger("ascreg.batch")
    before = (log.level, list(log.handlers))
    with bench_kernels.recorded() as messages:
        log.debug("Vf line 1: runs eagerly (%s)", "why")
    assert messages == ["Vf line 1: runs eagerly (why)"]
    assert (log.level, log.handlers) == before

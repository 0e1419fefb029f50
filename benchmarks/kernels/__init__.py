"""Real kernels for the benchmarks, written as the asc-devkit examples and the ops-nn arch35
kernels spell them (``python -m benchmarks kernels`` times them; ``tests/project/
test_real_kernels.py`` runs each at a small size against its numpy golden).

Each module defines its kernel(s) and one :class:`RealKernel`: how to make inputs, a launcher
(global memory allocated once, then ``run(*inputs) -> outputs`` copies the inputs in, launches
``kernel[blocks, ub, stream](...)`` and copies the outputs out), the same math as whole-array
numpy (``golden``) and the example's own correctness check.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

MODULES = ("gelu", "softmax", "rms_norm", "ascend_quant", "histogram256", "sobel", "byte_perm")
"""The kernel modules, in the order the benchmark reports them."""


@dataclass(frozen=True)
class RealKernel:
    """One real kernel: its inputs, its launches, its numpy golden and its check."""

    name: str
    origin: str
    size: int
    """Elements at the benchmark's size (at least 2**20)."""
    small: int
    """Elements at the test suite's size."""
    inputs: Callable[[int, int], tuple[Any, ...]]
    """``inputs(size, seed)``: the host arrays."""
    launcher: Callable[[int], Callable[..., Any]]
    """``launcher(size)`` allocates global memory and returns ``run(*inputs) -> outputs``."""
    golden: Callable[..., Any]
    """The same math in whole-array numpy (the benchmark's baseline)."""
    check: Callable[[Any, Any], bool]
    """``check(outputs, golden outputs)``: the example's own verification."""
    vfs: tuple[Any, ...] = field(default=())
    """The ``__simd_vf__`` functions (their loops are explained in the report)."""


def isclose_check(rtol: float, atol: float, ratio: float = 1e-4) -> Callable[[Any, Any], bool]:
    """The examples' ``verify_result.py``: ``isclose``, at most *ratio* of the elements off."""

    def check(output: Any, golden: Any) -> bool:
        close = np.isclose(np.ravel(output), np.ravel(golden), rtol=rtol, atol=atol, equal_nan=True)
        return float(np.count_nonzero(~close)) / close.size <= ratio

    return check


def exact_check(output: Any, golden: Any) -> bool:
    """Bit-equal outputs (integer kernels)."""
    outs = output if isinstance(output, tuple) else (output,)
    wants = golden if isinstance(golden, tuple) else (golden,)
    return all(np.array_equal(a, b) for a, b in zip(outs, wants, strict=True))


def load_port(relative: str, name: str) -> Any:
    """Import an example port (a test module under ``tests/examples``) by its path.

    The ports import helpers from ``tests/`` (as the test run does: tests/conftest.py puts
    ``tests/`` on ``sys.path``).
    """
    found = sys.modules.get(name)
    if found is not None:
        return found
    tests = ROOT / "tests"
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    spec = importlib.util.spec_from_file_location(name, tests / "examples" / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def kernels() -> list[RealKernel]:
    """Return every kernel's :class:`RealKernel`, importing its module."""
    return [importlib.import_module(f"benchmarks.kernels.{m}").KERNEL for m in MODULES]

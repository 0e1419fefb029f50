"""One eager call of each correctly rounded math op on one register, against numpy on its lanes.

``Reg.Exp``, ``Reg.Ln``, ``Reg.Log2``, ``Reg.Log10``, ``Reg.Sqrt`` and ``Reg.Div`` (default
flushing mode) and their C API twins ``asc_exp`` / ``asc_div``, each called on a whole register
(64 float lanes, 128 half lanes) outside any loop, the front end included; the baseline is
numpy's own function on the same lanes (``np.exp(x)``, ``np.divide(x, y)``). Target: at most 5x.
Each time is the best of repeated batches of calls, made round-robin with the baseline.

``python -m benchmarks math`` runs it; ``PYTHONPATH=<another checkout>/src python -m benchmarks
math`` measures another version of ascreg on the same machine (the before/after of a change).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg import Reg, float32_t, half
from ascreg.c_api import (
    PAT_ALL,
    asc_create_mask_b16,
    asc_create_mask_b32,
    asc_div,
    asc_exp,
    vector_float,
    vector_half,
)
from benchmarks.report import Figure, best_times

CALLS = 2000
REPEATS = 9
TARGET = 5.0
NUMPY = {"Exp": np.exp, "Ln": np.log, "Log2": np.log2, "Log10": np.log10, "Sqrt": np.sqrt}


def _batch(call: Callable[[], Any]) -> Callable[[], None]:
    def run() -> None:
        for _ in range(CALLS):
            call()

    return run


def _registers(dtype: Any, rng: np.random.Generator) -> tuple[Any, Any, Any, Any]:
    """Two source registers (positive values, where every function is defined), dst, mask."""
    lanes = 256 // dtype.size
    a, b, d = (Reg.RegTensor[dtype]() for _ in range(3))
    a.set(rng.uniform(0.5, 8.0, lanes).astype(dtype.np_dtype))
    b.set(rng.uniform(0.5, 8.0, lanes).astype(dtype.np_dtype))
    return a, b, d, Reg.CreateMask[dtype]()


def _c_registers(dtype: Any, rng: np.random.Generator) -> tuple[Any, Any, Any, Any]:
    vector, mask = (vector_float, asc_create_mask_b32) if dtype is float32_t else (vector_half, asc_create_mask_b16)  # fmt: skip
    a, b, d = vector(), vector(), vector()
    lanes = 256 // dtype.size
    a.set(rng.uniform(0.5, 8.0, lanes).astype(dtype.np_dtype))
    b.set(rng.uniform(0.5, 8.0, lanes).astype(dtype.np_dtype))
    return a, b, d, mask(PAT_ALL)


def _calls(dtype: Any) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    """Per op: (the ascreg call, numpy's function on the same lanes)."""
    rng = np.random.default_rng(7)
    a, b, d, m = _registers(dtype, rng)
    x, y = np.asarray(a).copy(), np.asarray(b).copy()
    calls: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {}
    for name, function in NUMPY.items():
        op = getattr(Reg, name)
        calls[f"Reg.{name}"] = (lambda op=op: op(d, a, m), lambda f=function: f(x))
    calls["Reg.Div"] = (lambda: Reg.Div(d, a, b, m), lambda: np.divide(x, y))
    ca, cb, cd, cm = _c_registers(dtype, rng)
    cx, cy = np.asarray(ca).copy(), np.asarray(cb).copy()
    calls["asc_exp"] = (lambda: asc_exp(cd, ca, cm), lambda: np.exp(cx))
    calls["asc_div"] = (lambda: asc_div(cd, ca, cb, cm), lambda: np.divide(cx, cy))
    return calls


def run() -> list[Figure]:
    """Time each call against numpy on the same lanes; return the figures."""
    figures = []
    for dtype, lanes in ((float32_t, 64), (half, 128)):
        for name, (call, baseline) in _calls(dtype).items():
            call()  # the first call checks the operands and builds what it keeps
            best = best_times({"numpy": _batch(baseline), "ascreg": _batch(call)}, REPEATS)
            ours, numpy = best["ascreg"] / CALLS, best["numpy"] / CALLS
            what = f"one eager call, {lanes} {dtype.cpp_name} lanes"
            figures.append(
                Figure(what, name, ours, numpy, "numpy on the lanes", ours / numpy, TARGET)
            )
    return figures

"""The result checks that the asc-devkit examples share, re-expressed for their ports in
``tests/examples/``.

Each asc-devkit Reg example's host code carries its own copy of the same ``CompareResult``; the
ports share this one instead of repeating it.
"""

from __future__ import annotations

import numpy as np


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray, EPS: float = 1e-4) -> bool:
    """The examples' element-wise check: an element is wrong when its absolute error and its
    relative error both exceed ``EPS`` (1e-4 in most examples; compared in float32, as the C++
    does, after widening half exactly); the result passes only with no wrong element."""
    eps = np.float32(EPS)
    a = outputData.reshape(-1).astype(np.float32)
    b = goldenData.reshape(-1).astype(np.float32)
    ae = np.abs(a - b)
    with np.errstate(divide="ignore", invalid="ignore"):
        re = ae / np.abs(b)
    wrongNum = int(np.count_nonzero((ae > eps) & (re > eps)))
    return wrongNum == 0

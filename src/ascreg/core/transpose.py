"""Lane semantics of ``asc_transpose``: one 16 x 16 matrix of 16-bit elements, transposed.

Examples
--------
>>> import numpy as np
>>> out = transpose16(np.arange(256, dtype=np.int16))
>>> out[:3].tolist(), out[16:19].tolist()
([0, 16, 32], [1, 17, 33])
"""

from __future__ import annotations

from typing import Any

import numpy as np

SIDE = 16
"""Rows and columns of the matrix ``asc_transpose`` transposes (one 512-byte block)."""


def transpose16(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Return the 256 row-major elements of *values* transposed (element (r, c) -> (c, r))."""
    return np.ascontiguousarray(values.reshape(SIDE, SIDE).T).reshape(SIDE * SIDE)

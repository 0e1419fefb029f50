"""Lane semantics of ``asc_transpose`` and ``asc_transto5hd_b8/_b16/_b32``.

``asc_transpose`` transposes one 16 x 16 matrix of 16-bit elements; ``asc_transto5hd`` gathers
16 data blocks position by position.

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


def to_5hd(blocks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Return the 16 destination blocks ``asc_transto5hd`` builds from 16 source blocks.

    *blocks* is ``(16, n)``: row ``i`` holds the ``n`` elements ``asc_transto5hd`` reads from
    source block ``i`` (16 for b16, 8 for b32, a 16-byte half block for b8). Pass ``j`` gathers
    element ``j`` of every source block, in block order, and the results fill the destination
    blocks in turn: for b16 and b8 one (half) block per pass, for b32 two blocks per pass (sources
    0-7, then 8-15).

    Examples
    --------
    >>> import numpy as np
    >>> out = to_5hd(np.arange(128, dtype=np.uint32).reshape(16, 8))
    >>> out[0].tolist(), out[1].tolist()
    ([0, 8, 16, 24, 32, 40, 48, 56], [64, 72, 80, 88, 96, 104, 112, 120])
    """
    return np.ascontiguousarray(blocks.T).reshape(SIDE, -1)

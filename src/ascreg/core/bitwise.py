"""Bitwise lane ops on the raw bits of any lane type (float lanes are bit patterns here).

Examples
--------
>>> import numpy as np
>>> bitwise("xor", np.array([1.0], np.float16), np.array([-1.0], np.float16))
array([-0.], dtype=float16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]

BITWISE: dict[str, Callable[[Lanes, Lanes], Lanes]] = {
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "not": lambda a, _b: np.invert(a),
}
"""The lane formula of each op on unsigned views of the lanes."""


def bitwise(op: str, a: Lanes, b: Lanes | None = None) -> Lanes:
    """Apply *op* to the bits of *a* (and *b*), returning lanes of *a*'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> bitwise("not", np.array([0x0F], np.uint8))
    array([240], dtype=uint8)
    """
    unsigned = f"u{a.dtype.itemsize}"
    other = a if b is None else b
    result: Lanes = BITWISE[op](a.view(unsigned), other.view(unsigned)).view(a.dtype)
    return result

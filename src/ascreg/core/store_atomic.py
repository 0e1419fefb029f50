"""The store-atomic arithmetic of the copy engine (kept under its core name).

The element operations live with the copy engine that applies them to every UB -> GM copy:
:mod:`ascreg.machine.store_atomic`.

Examples
--------
>>> import numpy as np
>>> from ascreg import int8_t
>>> merge = combiner("add", int8_t)
>>> old, new = np.array([1, 127], np.int8).view(np.uint8), np.array([2, 1], np.int8).view(np.uint8)
>>> merge(old, new).view(np.int8).tolist()
[3, -128]
"""

from __future__ import annotations

from ascreg.machine.store_atomic import STORE_ATOMIC_OPS, combine, combiner

__all__ = ["STORE_ATOMIC_OPS", "combine", "combiner"]

"""The Unified Buffer of a block group: every block's bytes at the same addresses.

Examples
--------
>>> from ascreg import float32_t
>>> ub = StackedUb(3); p = ub.alloc(float32_t, 8)
>>> ub.rows.shape[0], p.address
(3, 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.engine.groups.values import GroupRefused
from ascreg.machine.memory import UB_BYTES, Pointer, UnifiedBuffer

_NO_BYTES = np.zeros(0, dtype=np.uint8)


class BlockRows(np.ndarray):
    """A block group's UB rows as its memory's ``data`` (:meth:`StackedUb.use_all`).

    Its ``size`` is 0, so code that knows only one row of bytes per memory finds every access
    outside the data and takes the bounds check, which refuses.
    """

    @property
    def size(self) -> int:
        """0: no byte of the rows is one memory's (see the class)."""
        return 0


class StackedUb(UnifiedBuffer):
    """The Unified Buffers of a group's blocks: the same allocations, one row of bytes each.

    Only :meth:`Group.copy` reads and writes :attr:`rows` directly; while a block's VF runs
    (:meth:`use_row`) the memory is that block's UB. Otherwise every access refuses.
    """

    def __init__(self, count: int) -> None:
        super().__init__(UB_BYTES)
        self.rows = np.zeros((count, 0), dtype=np.uint8)
        self.used = 0
        """Bytes from here on have never been allocated or accessed: still zeros."""
        self.active: int | None = None
        self.data = _NO_BYTES

    def _grow(self, nbytes: int) -> None:
        width = self.rows.shape[1]
        if nbytes > width:
            grown = np.zeros((self.rows.shape[0], -(-max(nbytes, 2 * width) // 8) * 8), np.uint8)
            grown[:, :width] = self.rows
            self.rows = grown
            if self.active is not None:
                self.use_row(self.active)

    def alloc_bytes(self, dtype: type[Any], nbytes: int, *, label: str | None = None) -> Any:
        """Allocate in every block's row (zeroed, as a block's own allocation is).

        Bytes past :attr:`used` are still the zeros the rows were made with.
        """
        ptr = super().alloc_bytes(dtype, nbytes, label=label)
        start, end = ptr.address, ptr.address + nbytes
        if start < self.used:
            self.rows[:, start : min(end, self.used)] = 0
        self.used = max(self.used, end)
        return ptr

    def check(self, ptr: Pointer[Any], nbytes: int, action: str) -> int:
        """Bounds-check an access of the running block's VF; refuse any other."""
        if self.active is None:
            raise GroupRefused(f"{action} UB outside the group's copies and VFs ({ptr!r})")
        start = super().check(ptr, nbytes, action)
        self.used = max(self.used, start + nbytes)
        return start

    def use_all(self) -> None:
        """Make the memory every block's UB at once (a VF runs for the whole group).

        Its ``data`` is then the blocks x bytes rows (:class:`BlockRows`): only a batched
        loop's accesses (``ascreg.engine.batch.RowPointer``) know it; every other access
        refuses.
        """
        self.active, self.data = None, self.rows.view(BlockRows)
        self._typed.clear()
        self.used = self.rows.shape[1]  # its stores may reach any byte of the rows

    def use_row(self, k: int) -> None:
        """Make the memory block *k*'s UB (a VF of that block runs)."""
        self.active, self.data = k, self.rows[k]
        self._typed.clear()

    def leave_row(self) -> None:
        """Make every access refuse again."""
        self.active, self.data = None, _NO_BYTES
        self._typed.clear()

"""Lane semantics of the SIMT cache-hinted accesses (``asc_ldcg`` ... ``asc_stwt``).

A cache hint chooses which caches keep the line, never the value: each of these is a plain
``*address`` / ``*address = val`` on its lanes (one element per lane for ``p + idx``, the same
element for every lane for a plain pointer). Argument checking lives in :mod:`ascreg.simt.access`.

Examples
--------
>>> from ascreg import GlobalMemory, int32_t
>>> p = GlobalMemory().alloc(int32_t, 2)
>>> store(p, 7); int(load(p))
7
"""

from __future__ import annotations

from typing import Any

from ascreg.machine.memory import Pointer
from ascreg.machine.simt.engine import LanePointer


def load(address: Pointer[Any] | LanePointer) -> Any:
    """Return ``*address``: one value per lane for ``p + idx``.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> p = GlobalMemory().alloc(uint8_t, 1); p.write([5])
    >>> int(load(p))
    5
    """
    return address[0]


def store(address: Pointer[Any] | LanePointer, value: Any) -> None:
    """Store ``*address = value`` with a plain store's value rules (no silent integer wrap).

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> p = GlobalMemory().alloc(uint8_t, 1)
    >>> store(p, 9); p.read(1).tolist()
    [9]
    """
    address[0] = value

"""Lane semantics of the SIMT generic address space (``__isGlobal``, ``__cvta_*``).

A generic pointer (``void*``) is a 64-bit value. The pages fix these points, and ascreg's model
is the simplest layout that meets every one of them:

=======================================  ========================================================
documented                               model
=======================================  ========================================================
``__cvta_generic_to_ubuf(nullptr)`` is   the Unified Buffer window starts at generic
``0xfff80000``                           ``UBUF_BASE = 0x80000``; ``generic_to_ubuf(p)`` is
                                         ``(p - UBUF_BASE) mod 2**32``
``__cvta_generic_to_local(nullptr)`` is  the stack (local) window starts at ``LOCAL_BASE =
``0xfff00000``                           0x100000``; ``generic_to_local(p)`` is
                                         ``(p - LOCAL_BASE) mod 2**32``
``local_to_generic(all ones)`` is a      the windows are adjacent: UB is ``[0x80000, 0x100000)``
UB pointer                               (512 KiB)
``ubuf_to_generic(all ones)``, nullptr,  addresses below ``UBUF_BASE`` are in no space
``(void*)0x1`` are in no space
all ones is a Global Memory pointer;     global and generic addresses are the same value
``global_to_generic(0)``/``(1)`` are     (``global_to_generic`` and ``generic_to_global`` are
not                                      the identity); a generic value at or above
                                         ``GLOBAL_BASE`` is global
=======================================  ========================================================

Not documented, chosen here: the stack window's size (``LOCAL_BYTES``, 1 MiB, so
``GLOBAL_BASE = 0x200000``). Raw values (``size_t rawbits``) are 64-bit; the ``to_generic``
conversions wrap modulo ``2**64``.

Examples
--------
>>> import numpy as np
>>> hex(int(from_generic("ubuf", np.uint64(0))))
'0xfff80000'
>>> int(classify("local", to_generic("local", np.uint64(2**64 - 1))))  # lands in the UB window
0
>>> int(classify("ubuf", to_generic("local", np.uint64(2**64 - 1))))
1
"""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]
U64 = np.dtype(np.uint64)
UBUF_BASE = 0x80000
"""The first generic address of the Unified Buffer window."""
LOCAL_BASE = 0x100000
"""The first generic address of the stack (local memory) window, right after the UB window."""
LOCAL_BYTES = 0x100000
"""The size of the stack window (not documented: 1 MiB)."""
GLOBAL_BASE = LOCAL_BASE + LOCAL_BYTES
"""Generic addresses from here on are Global Memory addresses."""
WINDOWS = {"ubuf": (UBUF_BASE, LOCAL_BASE), "local": (LOCAL_BASE, GLOBAL_BASE),
           "global": (GLOBAL_BASE, 2**64)}  # fmt: skip
"""Each space's generic window ``[start, end)``."""
SPACES = tuple(WINDOWS)
"""The address spaces a generic pointer may be in: ``"global"``, ``"ubuf"``, ``"local"``."""


def classify(space: str, generic: Any) -> Arr:
    """Return 1 where the generic address is in *space*'s window, else 0 (``unsigned int``).

    Examples
    --------
    >>> import numpy as np
    >>> classify("global", np.array([0, 1, 2**64 - 1], np.uint64)).tolist()
    [0, 0, 1]
    """
    start, end = WINDOWS[space]
    values = np.asarray(generic, dtype=U64)
    inside = values >= np.uint64(start)
    if end < 2**64:
        inside &= values < np.uint64(end)
    return inside.astype(np.uint32)


def to_generic(space: str, raw: Any) -> Arr:
    """Return the generic address of the *space* address *raw* (wrapping modulo ``2**64``).

    Examples
    --------
    >>> import numpy as np
    >>> hex(int(to_generic("ubuf", np.uint64(0x100))))
    '0x80100'
    """
    offset = {"global": 0, "ubuf": UBUF_BASE, "local": LOCAL_BASE}[space]
    return np.asarray(raw, dtype=U64) + np.uint64(offset)


def from_generic(space: str, generic: Any) -> Arr:
    """Return the *space* address value of a generic address (``size_t``).

    The UB and stack values are 32-bit offsets from their window, zero-extended (nullptr gives
    ``0xfff80000`` / ``0xfff00000``, as documented); a global address is the generic value.

    Examples
    --------
    >>> import numpy as np
    >>> hex(int(from_generic("local", np.uint64(0))))
    '0xfff00000'
    """
    values = np.asarray(generic, dtype=U64)
    if space == "global":
        return values
    offset = UBUF_BASE if space == "ubuf" else LOCAL_BASE
    return (values - np.uint64(offset)) & np.uint64(0xFFFFFFFF)


def flush_cache(generic: Any) -> None:
    """``asc_dcci_entire`` / ``asc_dcci_single``: nothing to do in ascreg's memory model.

    ascreg models no Data Cache: every load reads the memory and every store writes it, so the
    data another core wrote is always what a load returns, and a flush changes no value.

    Examples
    --------
    >>> flush_cache(0) is None
    True
    """


def idle() -> None:
    """``asc_nop``: one no-operation instruction (15 cycles on the chip; ascreg has no clock).

    Examples
    --------
    >>> idle() is None
    True
    """

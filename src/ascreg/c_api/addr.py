"""``addr_reg``: iterative addressing driven by the enclosing hardware loops.

On the chip, ``asc_update_addr_reg_b16(off0[, off1[, off2[, off3]]])`` reads the counters of the
(up to four) hardware loops around it -- ``index0`` is the innermost one -- and returns
``index0 * off0 + index1 * off1 + ...`` in units of 1 / 2 / 4 bytes (b8 / b16 / b32). The
compiler turns a VF's ``for (uint16_t i = 0; i < n; ++i)`` into such a hardware loop, so the
indices never appear in the C call. Python cannot see a ``for ... in range(n)`` loop's counter,
so ascreg spells the hardware loop explicitly:

=====================================================  ===========================================
C (inside a ``__simd_vf__`` function)                  Python
=====================================================  ===========================================
``for (uint16_t i = 0; i < n; ++i) {``                 ``for i in hw_range(n):``
``addr_reg off = asc_update_addr_reg_b16(stride);``    ``off = asc_update_addr_reg_b16(stride)``
``asc_loadalign(data, src, off);``                     ``asc_loadalign(data, src, off)``
=====================================================  ===========================================

Calling ``asc_update_addr_reg_*`` outside every ``hw_range`` loop, or with more offsets than
open loops, is an error (C would have no loop counter to read). An ``addr_reg`` is the Reg API's
:class:`~ascreg.machine.registers.AddrReg` (the same ``vector_address`` builtin, with its unit): a
load or store at ``(ptr, areg)`` accesses ``ptr`` moved by ``areg.offset * areg.width`` bytes,
which is ``areg.offset`` elements when the width matches the pointer's element size.

Examples
--------
>>> import numpy as np
>>> from ascreg import UnifiedBuffer, half
>>> from ascreg.c_api import *
>>> ub = UnifiedBuffer(); src = ub.alloc(half, 384); src.write(np.arange(384))
>>> data = vector_half(); firsts = []
>>> for i in hw_range(3):
...     off = asc_update_addr_reg_b16(128)
...     asc_loadalign(data, src, off)
...     firsts.append(float(np.asarray(data)[0]))
>>> firsts
[0.0, 128.0, 256.0]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import attrs

from ascreg._frontend import operands
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.registers import AddrReg

MAX_HW_LOOPS = 4
"""Hardware loops an ``addr_reg`` can see (the HardwareLoop limit: at most 4 nested levels)."""
ADDR_REG_WIDTHS = {"b8": 1, "b16": 2, "b32": 4}
"""Bytes per offset unit of each ``asc_update_addr_reg_*`` suffix."""

_LOOPS: list[list[int]] = []
"""The counters of the open ``hw_range`` loops, outermost first (one-element boxes)."""


@attrs.frozen
class addr_reg(AddrReg):
    """C ``addr_reg`` (builtin ``vector_address``): an offset in units of ``width`` bytes.

    Built by ``asc_update_addr_reg_b8/_b16/_b32``; ``width`` is 1, 2 or 4. It is the Reg
    API's :class:`~ascreg.machine.registers.AddrReg` under its C name: either works wherever
    the other does.

    Examples
    --------
    >>> a = addr_reg(64, 2)
    >>> a.offset, a.width, a.byte_offset
    (64, 2, 128)
    """


def hw_range(count: int) -> Iterator[int]:
    """Run a hardware loop: ``for i in hw_range(n):`` is ``for (uint16_t i = 0; i < n; ++i)``.

    Yields ``0 .. count - 1`` like ``range(count)`` and makes the counter visible to
    ``asc_update_addr_reg_*`` inside the body. At most four loops nest (the hardware limit).

    Examples
    --------
    >>> [(i, j, int(asc_update_addr_reg_b8(1, 10).offset)) for i in hw_range(2) for j in hw_range(2)]
    [(0, 0, 0), (0, 1, 1), (1, 0, 10), (1, 1, 11)]
    """
    _ascreg_call = "hw_range"
    if not operands.is_integer(count) or count < 0:
        raise AscregTypeError(f"the trip count must be a non-negative integer, got {count!r:.40}")
    if len(_LOOPS) >= MAX_HW_LOOPS:
        raise AscregError(
            f"a hardware loop nests at most {MAX_HW_LOOPS} deep (addr_reg sees 4 loop counters)"
        )
    return _loop(int(count))


def _loop(count: int) -> Iterator[int]:
    box = [0]
    _LOOPS.append(box)
    try:
        for i in range(count):
            box[0] = i
            yield i
    finally:  # also when the body breaks out or raises (the generator is closed)
        for k in range(len(_LOOPS) - 1, -1, -1):
            if _LOOPS[k] is box:
                del _LOOPS[k]
                break


class UpdateAddrReg(Protocol):
    """The call signature of ``asc_update_addr_reg_b8/_b16/_b32``."""

    def __call__(
        self, offset0: int, offset1: int = ..., offset2: int = ..., offset3: int = ..., /
    ) -> addr_reg: ...


def _update(width: str) -> UpdateAddrReg:
    name = f"asc_update_addr_reg_{width}"
    unit = ADDR_REG_WIDTHS[width]

    def update(*offsets: Any) -> addr_reg:
        _ascreg_call = name
        if not 1 <= len(offsets) <= MAX_HW_LOOPS:
            raise AscregTypeError(f"takes 1 to 4 uint32_t offsets, got {len(offsets)}")
        for k, off in enumerate(offsets):
            if not operands.is_integer(off):
                raise AscregTypeError(f"offset{k} must be a uint32_t, got {off!r:.40}")
            if not 0 <= off < 1 << 32:
                raise AscregTypeError(f"offset{k} {int(off)} is not a uint32_t value")
        if len(offsets) > len(_LOOPS):
            raise AscregError(
                f"{len(offsets)} offset(s) read the counters of the {len(offsets)} innermost "
                f"enclosing hardware loops, but {len(_LOOPS)} are open: write each loop as "
                "`for i in hw_range(n):` (the C compiler maps a VF's for loop onto a hardware loop)"
            )
        counters = [box[0] for box in reversed(_LOOPS)]  # index0 = innermost
        value = sum(i * int(off) for i, off in zip(counters, offsets, strict=False))
        return addr_reg(value, unit)

    update.__name__ = update.__qualname__ = name
    update.__doc__ = f"""``addr_reg {name}(uint32_t offset0[, offset1[, offset2[, offset3]]])``.

    Returns ``index0 * offset0 + index1 * offset1 + ...`` in units of {unit} byte(s), where
    ``index0`` is the counter of the innermost enclosing :func:`hw_range` loop, ``index1`` the
    next one out, and so on. Offsets count elements of {unit}-byte types.

    Examples
    --------
    >>> for i in hw_range(3):
    ...     for j in hw_range(2):
    ...         a = {name}(1, 100)
    >>> a.offset, a.width
    (201, {unit})
    """
    return update


asc_update_addr_reg_b8, asc_update_addr_reg_b16, asc_update_addr_reg_b32 = (
    _update(w) for w in ADDR_REG_WIDTHS
)

__all__ = [
    "addr_reg",
    "asc_update_addr_reg_b8",
    "asc_update_addr_reg_b16",
    "asc_update_addr_reg_b32",
    "hw_range",
]

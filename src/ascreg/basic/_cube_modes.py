"""The multiply-add's mode switches in the basic API (dav-3510): HF32 and the result order.

``SetHF32Mode`` / ``SetHF32TransMode`` and ``SetMMRowMajor`` / ``SetMMColumnMajor`` (the
"Mmad计算辅助配置接口" pages) set the CTRL bits the C API's ``asc_enable_hf32``,
``asc_enable_hf32_trans`` and ``asc_set_mmad_direction_m/n`` set
(:data:`ascreg._frontend.cube.HF32_MODE` ...): with HF32 on, a float ``Mmad`` raises
:class:`~ascreg.errors.UnsupportedError` (the HF32 format is given by a figure only); the
result order changes no value.

Examples
--------
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     SetHF32Mode(HF32Mode.ENABLE)
...     SetHF32TransMode(HF32TransMode.NEAREST_ZERO)
...     GetCtrlSpr[46, 47]()
3
"""

from __future__ import annotations

import enum

from ascreg._frontend.cube import HF32_MODE, HF32_TRANS_MODE, MM_LAYOUT_MODE, set_cube_mode
from ascreg.errors import AscregTypeError

__all__ = [
    "HF32Mode",
    "HF32TransMode",
    "SetHF32Mode",
    "SetHF32TransMode",
    "SetMMColumnMajor",
    "SetMMRowMajor",
]


class HF32Mode(enum.Enum):
    """``AscendC::HF32Mode``: ``ENABLE`` rounds float ``Mmad`` operands to HF32 first.

    Examples
    --------
    >>> HF32Mode.DISABLE.value
    1
    """

    ENABLE = 0
    DISABLE = 1


class HF32TransMode(enum.Enum):
    """``AscendC::HF32TransMode``: how float rounds to HF32 (toward zero, or to nearest even).

    Examples
    --------
    >>> HF32TransMode.NEAREST_EVEN.value
    1
    """

    NEAREST_ZERO = 0
    NEAREST_EVEN = 1


def SetHF32Mode(mode: HF32Mode) -> None:
    """``SetHF32Mode(HF32Mode mode)``: switch HF32 on (``ENABLE``) or off (CTRL[46]).

    Examples
    --------
    >>> from ascreg.basic import GetCtrlSpr
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetHF32Mode(HF32Mode.ENABLE)
    ...     GetCtrlSpr[46, 46]()
    1
    """
    _ascreg_call = "SetHF32Mode"
    if not isinstance(mode, HF32Mode):
        raise AscregTypeError(f"mode must be an HF32Mode, got {mode!r:.40}")
    set_cube_mode(HF32_MODE, mode is HF32Mode.ENABLE)


def SetHF32TransMode(mode: HF32TransMode) -> None:
    """``SetHF32TransMode(HF32TransMode mode)``: ``NEAREST_ZERO`` sets CTRL[47], else clears it.

    Examples
    --------
    >>> from ascreg.basic import GetCtrlSpr
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetHF32TransMode(HF32TransMode.NEAREST_EVEN)
    ...     GetCtrlSpr[47, 47]()
    0
    """
    _ascreg_call = "SetHF32TransMode"
    if not isinstance(mode, HF32TransMode):
        raise AscregTypeError(f"mode must be an HF32TransMode, got {mode!r:.40}")
    set_cube_mode(HF32_TRANS_MODE, mode is HF32TransMode.NEAREST_ZERO)


def SetMMRowMajor() -> None:
    """``SetMMRowMajor()``: the cube produces results along N first, then M (CTRL[51] = 1).

    No value changes (only the order the chip writes the result fractals in).

    Examples
    --------
    >>> from ascreg.basic import GetCtrlSpr
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetMMRowMajor()
    ...     GetCtrlSpr[51, 51]()
    1
    """
    set_cube_mode(MM_LAYOUT_MODE, True)


def SetMMColumnMajor() -> None:
    """``SetMMColumnMajor()``: the cube produces results along M first, then N (CTRL[51] = 0).

    Examples
    --------
    >>> from ascreg.basic import GetCtrlSpr
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetMMRowMajor(); SetMMColumnMajor()
    ...     GetCtrlSpr[51, 51]()
    0
    """
    set_cube_mode(MM_LAYOUT_MODE, False)

"""The special-register access of the basic API: ``SetCtrlSpr``, ``GetCtrlSpr``, ``ResetCtrlSpr``, ``GetSpr``.

``AscendC::SetCtrlSpr<startBit, endBit>(value)`` writes bits ``[startBit, endBit]`` of the
running block's CTRL register, ``GetCtrlSpr<startBit, endBit>()`` reads them and
``ResetCtrlSpr<startBit, endBit>()`` puts back their documented default
(:data:`~ascreg.machine.sysregs.CTRL_DEFAULT`); the register is the one the C API's
``asc_get_ctrl`` / ``asc_set_ctrl`` access (:class:`~ascreg.machine.sysregs.SystemRegisters`).
``GetSpr<SpecialPurposeReg::AR>()`` reads AR, the byte count ``Squeeze<T, STORE_REG>`` adds to.
Template arguments are subscripts: ``SetCtrlSpr[60, 60](0)``.

What the bits do is modelled where results depend on them (CTRL[59] / CTRL[60] select the
conversions' saturation; CTRL[10:6] is the store-atomic mode); writing a setting ascreg does not
model is an :class:`~ascreg.errors.UnsupportedError` (:func:`~ascreg.machine.sysregs.check_ctrl`).

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> FLOAT_OVERFLOW_MODE_CTRL = 60
>>> with block(BlockContext()):
...     oriOverflowMode = GetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL]()
...     SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](0)  # Cast's satMode decides
...     now = GetCtrlSpr[60, 60]()
...     SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](oriOverflowMode)
>>> oriOverflowMode, now
(1, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ascreg.enums import SpecialPurposeReg
from ascreg.errors import AscregTypeError
from ascreg.machine import spr
from ascreg.machine.block import current_block
from ascreg.machine.sync import Pipe
from ascreg.machine.sysregs import CTRL_DEFAULT, SPR_FIELDS, system_registers


def _bits(name: str, params: Any, *, settable: bool) -> tuple[int, int]:
    """Return the ``(startBit, endBit)`` of a subscript, checked as the header's static_asserts."""
    if not (isinstance(params, tuple) and len(params) == 2 and all(type(p) is int for p in params)):
        raise AscregTypeError(
            f"takes two int8_t template arguments <startBit, endBit>, got {params!r}: write "
            f"{name}[60, 60]",
            call=name,
        )
    start, end = params
    if not 0 <= start <= end < 64:
        raise AscregTypeError(
            f"bit range [{start}, {end}] is not inside CTRL[63:0] with startBit <= endBit "
            "(C++: static_assert 'Invalid bit range on current device!')",
            call=name,
        )
    inside_atomic = start >= 6 and end <= 10
    if settable and not inside_atomic and (start, end) not in SPR_FIELDS:
        fields = ", ".join(f"[{a}]" if a == b else f"[{b}:{a}]" for a, b in SPR_FIELDS)
        raise AscregTypeError(
            f"CTRL[{end}:{start}] is not a field dav-3510 lets you set (bits 6-10 or one of "
            f"{fields}; C++: static_assert 'Invalid startBit/endBit on current device!')",
            call=name,
        )
    return start, end


def _field(start: int, end: int) -> int:
    return ((1 << (end - start + 1)) - 1) << start


class _CtrlSpr:
    """``SetCtrlSpr`` / ``GetCtrlSpr`` / ``ResetCtrlSpr``: one subscriptable function each."""

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind

    def __getitem__(self, params: Any) -> Callable[..., Any]:
        start, end = _bits(self.name, params, settable=self.kind != "get")
        mask, name = _field(start, end), f"{self.name}<{start}, {end}>"
        if self.kind == "get":

            def get() -> int:
                _ascreg_call = name
                return (system_registers().ctrl & mask) >> start

            return get
        if self.kind == "reset":

            def reset() -> None:
                _ascreg_call = name
                regs = system_registers()
                regs.ctrl = regs.ctrl & ~mask | CTRL_DEFAULT & mask

            return reset

        def set_(value: int) -> None:
            _ascreg_call = name
            if type(value) is not int and not hasattr(value, "__index__"):
                raise AscregTypeError(f"value must be an int64_t, got {value!r}")
            bits = int(value)
            if not 0 <= bits < 1 << (end - start + 1):
                raise AscregTypeError(
                    f"value {bits} does not fit CTRL[{end}:{start}] ({end - start + 1} bit(s); "
                    "C++: a constant outside the range is a compile error)"
                )
            regs = system_registers()
            regs.ctrl = regs.ctrl & ~mask | bits << start

        return set_

    def __repr__(self) -> str:
        return self.name


SetCtrlSpr = _CtrlSpr("SetCtrlSpr", "set")
"""``AscendC::SetCtrlSpr<startBit, endBit>(int64_t value)``: ``SetCtrlSpr[60, 60](0)``.

Writes ``value`` into CTRL bits ``[startBit, endBit]``: bits 6-10 (the store-atomic type and
operation) or one of CTRL[45], [48], [50], [53], [59], [60] (the header's static_assert); a
value wider than the field is an error.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     SetCtrlSpr[59, 59](1); GetCtrlSpr[59, 59]()
1
>>> SetCtrlSpr[49, 49]
Traceback (most recent call last):
...
ascreg.errors.AscregTypeError: SetCtrlSpr: CTRL[49:49] is not a field dav-3510 lets you set (bits 6-10 or one of [8:6], [10:9], [45], [48], [50], [53], [59], [60]; C++: static_assert 'Invalid startBit/endBit on current device!')
"""
GetCtrlSpr = _CtrlSpr("GetCtrlSpr", "get")
"""``AscendC::GetCtrlSpr<startBit, endBit>()``: CTRL bits ``[startBit, endBit]`` as an integer.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     GetCtrlSpr[60, 60](), GetCtrlSpr[48, 48](), GetCtrlSpr[0, 63]() == 0x1001000000000008
(1, 1, True)
"""
ResetCtrlSpr = _CtrlSpr("ResetCtrlSpr", "reset")
"""``AscendC::ResetCtrlSpr<startBit, endBit>()``: put the documented default back into the bits.

The default (:data:`~ascreg.machine.sysregs.CTRL_DEFAULT`) has CTRL[48] = 0: with CTRL[60] = 1
that is saturating float arithmetic, which ascreg does not model (an
:class:`~ascreg.errors.UnsupportedError`).

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     SetCtrlSpr[60, 60](0); ResetCtrlSpr[60, 60](); GetCtrlSpr[60, 60]()
1
"""


class _GetSpr:
    """``GetSpr<SpecialPurposeReg::AR>()`` as ``GetSpr[SpecialPurposeReg.AR]()``."""

    def __getitem__(self, register: Any) -> Callable[[], int]:
        if register is not SpecialPurposeReg.AR:
            raise AscregTypeError(
                f"takes SpecialPurposeReg.AR (the only special register dav-3510 reads), got "
                f"{register!r}",
                call="GetSpr",
            )

        def get() -> int:
            _ascreg_call = "GetSpr<SpecialPurposeReg::AR>"
            if current_block().pipe is Pipe.PIPE_V:
                raise AscregTypeError(
                    "GetSpr runs outside a __simd_vf__ function only (the page): read AR after "
                    "the VF returns"
                )
            return spr.read_ar()

        return get

    def __repr__(self) -> str:
        return "GetSpr"


GetSpr = _GetSpr()
"""``AscendC::GetSpr<SpecialPurposeReg::AR>()``: the AR register (bytes ``Squeeze`` kept).

Called in the kernel body after the VF (the page: outside a VF). AR counts the bytes every
``Squeeze<T, GatherMaskMode::STORE_REG>`` since the last ``ClearSpr<AR>`` kept.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     spr.add_ar(96); GetSpr[SpecialPurposeReg.AR]() // 4
24
"""

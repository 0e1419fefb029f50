"""Mask creation: ``CreateMask`` and ``UpdateMask``.

Examples
--------
>>> from ascreg import Reg, Ref, uint16_t, MaskPattern
>>> print(Reg.CreateMask[uint16_t, MaskPattern.VL16]())
MaskReg(b16: lanes 0-15 on, 16 of 128)
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg._frontend.template import define, trait_of
from ascreg.core import masks as core
from ascreg.enums import MaskPattern
from ascreg.errors import AscregTypeError
from ascreg.machine.ref import require_ref
from ascreg.machine.registers import MaskReg, lane_geometry


def _geometry_setup(op: Any) -> None:
    """Derive ``(lanes, mask stride)`` of the subscript's ``T`` and trait (None without ``T``)."""
    dtypes = op.t.dtypes
    op.geometry = lane_geometry(dtypes[0], trait_of(op.t)) if dtypes else None


def _geometry(op: Any, spelling: str) -> tuple[int, int]:
    """Return the op's lane geometry; C++ cannot deduce ``T``, so a bare call is an error."""
    if op.geometry is None:
        raise AscregTypeError(f"needs its element type (C++ cannot deduce T): {spelling}")
    geometry: tuple[int, int] = op.geometry
    return geometry


def _mask(bits: core.Bits) -> MaskReg:
    mask = MaskReg()
    mask.set_bits(bits)
    return mask


@define("Reg.CreateMask", enum_kinds=(MaskPattern,), traits=True, _setup=_geometry_setup)
def CreateMask(op: Any) -> MaskReg:
    """``CreateMask<T, MaskPattern pattern = ALL, RegTrait trait = RegTraitNumOne>()``.

    Returns a mask enabling the lanes of an op on ``T`` that *pattern* selects: ``ALL``,
    ``ALLF`` (none), ``VLn`` (the first n; all lanes when n exceeds the lane count), ``M3`` /
    ``M4`` (every 3rd / 4th lane), ``H`` / ``Q`` (first half / quarter). For 64-bit ``T`` the
    TraitOne form uses 32 lanes (bit 8i), TraitTwo 64 lanes in the b32 format.

    Examples
    --------
    >>> from ascreg import Reg, MaskPattern, int64_t, uint8_t
    >>> print(Reg.CreateMask[int64_t, MaskPattern.H]())
    MaskReg(b64: lanes 0-15 on, 16 of 32)
    >>> Reg.CreateMask[uint8_t, MaskPattern.M3]().count()
    86
    """
    lanes, stride = _geometry(op, "CreateMask[uint16_t]()")
    pattern = op.t.enum(MaskPattern, MaskPattern.ALL)
    return _mask(core.pattern_bits(pattern.value, lanes, stride))


@define("Reg.UpdateMask", traits=True, _setup=_geometry_setup)
def UpdateMask(op: Any, count: Any) -> MaskReg:
    """``UpdateMask<T, RegTrait trait = RegTraitNumOne>(uint32_t& count)``.

    Returns the mask of the first ``min(count, lanes)`` lanes and decrements ``count.value`` by
    the lane count, saturating at 0 (the tail idiom of every VF loop). ``count`` must be a
    :class:`ascreg.Ref`.

    Examples
    --------
    >>> from ascreg import Reg, Ref, uint16_t
    >>> count = Ref(320)
    >>> [Reg.UpdateMask[uint16_t](count).count() for _ in range(4)], count.value
    ([128, 128, 64, 0], 0)
    """
    box = require_ref(count, "uint32_t& scalarValue")
    lanes, stride = _geometry(op, "UpdateMask[uint16_t](count)")
    value = operands.in_range(box.value, "count", 0, operands.UINT32_MAX, "a uint32_t value")
    bits, box.value = core.update_mask(value, lanes, stride)
    return _mask(bits)

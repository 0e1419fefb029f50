"""Mask creation: ``CreateMask`` and ``UpdateMask``.

Examples
--------
>>> from ascreg import Reg, Ref, uint16_t, MaskPattern
>>> print(Reg.CreateMask[uint16_t, MaskPattern.VL16]())
MaskReg(b16: lanes 0-15 on, 16 of 128)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend.template import Template, trait_of
from ascreg.core import masks as core
from ascreg.enums import MaskPattern
from ascreg.errors import AscregTypeError
from ascreg.machine.ref import require_ref
from ascreg.machine.registers import MaskReg, lane_geometry


class _CreateMask(Template):
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

    name = "Reg.CreateMask"
    enum_kinds = (MaskPattern,)
    traits = True

    def __call__(self) -> MaskReg:
        _ascreg_call = self.name
        if not self.t.dtypes:
            raise AscregTypeError("CreateMask needs its element type: CreateMask[uint16_t]()")
        lanes, stride = lane_geometry(self.t.dtypes[0], trait_of(self.t))
        pattern = self.t.enum(MaskPattern, MaskPattern.ALL)
        return MaskReg.from_bits(
            core.lanes_to_bits(core.pattern_lanes(pattern.value, lanes), stride)
        )


class _UpdateMask(Template):
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

    name = "Reg.UpdateMask"
    traits = True

    def _setup(self) -> None:
        dtypes = self.t.dtypes
        self.geometry = lane_geometry(dtypes[0], trait_of(self.t)) if dtypes else None

    def __call__(self, count: Any) -> MaskReg:
        _ascreg_call = self.name
        box = require_ref(count, "uint32_t& scalarValue")
        if self.geometry is None:
            raise AscregTypeError("UpdateMask needs its element type: UpdateMask[uint16_t](count)")
        value = box.value
        if not isinstance(value, int | np.integer) or not 0 <= value < 1 << 32:
            raise AscregTypeError(f"count {value!r} is not a uint32_t value")
        lanes, stride = self.geometry
        bits, box.value = core.update_mask(int(value), lanes, stride)
        mask = MaskReg()
        mask.set_bits(bits)
        return mask


CreateMask = _CreateMask()
UpdateMask = _UpdateMask()

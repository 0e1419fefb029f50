"""Mask creation: ``CreateMask``, ``UpdateMask``, ``MaskGenWithRegTensor`` and ``MoveMask``.

Examples
--------
>>> from ascreg import Reg, Ref, uint16_t, MaskPattern
>>> print(Reg.CreateMask[uint16_t, MaskPattern.VL16]())
MaskReg(b16: lanes 0-15 on, 16 of 128)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands, rules
from ascreg._frontend.template import define, trait_of
from ascreg.core import masks as core
from ascreg.enums import MaskPattern
from ascreg.errors import AscregTypeError
from ascreg.machine.ref import Ref, require_ref
from ascreg.machine.registers import MASK_BITS, MaskReg, lane_geometry
from ascreg.machine.spr import read_mask_spr


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


def _mask(bits: core.Bits, enables: core.Bits | None = None, stride: int = 0) -> MaskReg:
    mask = MaskReg()
    mask.set_bits(bits, enables, stride)
    return mask


@define(
    "Reg.CreateMask",
    enum_kinds=(MaskPattern,),
    traits=True,
    _setup=_geometry_setup,
    batch=rules.ROWS,
)
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
    bits, enables = core.pattern_mask(pattern.value, lanes, stride)
    return _mask(bits, enables if lanes * stride == MASK_BITS else None, stride)


@define("Reg.UpdateMask", traits=True, _setup=_geometry_setup, batch=rules.TAIL_COUNT)
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
    if type(count) is Ref and op.geometry is not None:
        value = count.value
        if type(value) is int and 0 <= value <= operands.UINT32_MAX:  # only the range to check
            lanes, stride = op.geometry
            bits, enables, count.value = core.update_mask_enables(value, lanes, stride)
            return _mask(bits, enables, stride)
        if type(value) is np.ndarray:  # one count per iteration of a batched loop (as below)
            lanes, stride = op.geometry
            rows, enables, count.value = core.tail_rows(value, lanes, stride)
            return _mask(rows, enables, stride)
    box = require_ref(count, "uint32_t& scalarValue")
    lanes, stride = _geometry(op, "UpdateMask[uint16_t](count)")
    if isinstance(box.value, np.ndarray):  # one count per iteration of a batched loop
        rows, enables, box.value = core.tail_rows(box.value, lanes, stride)
        return _mask(rows, enables, stride)
    value = operands.in_range(box.value, "count", 0, operands.UINT32_MAX, "a uint32_t value")
    bits, box.value = core.update_mask(value, lanes, stride)
    return _mask(bits)


def _offset_setup(op: Any) -> None:
    op.offset = op.t.enum(int, None)


@define("Reg.MaskGenWithRegTensor", enum_kinds=(int,), _setup=_offset_setup, batch=rules.ROWS)
def MaskGenWithRegTensor(op: Any, dst: MaskReg, src: Any) -> None:
    """``MaskGenWithRegTensor<T, int16_t offset>(MaskReg& dst, U& srcReg)``: a mask from bits.

    The 256-byte ``src`` is cut into blocks of ``32 / sizeof(T)`` bytes (16 blocks of 16 B for
    b16, 32 of 8 B for b32); block ``offset`` becomes the mask, each of its bits (LSB first)
    broadcast to the ``sizeof(T)`` mask bits of one lane. ``offset`` must be written and lie in
    [0, 15] (b16) or [0, 31] (b32). The same rule as C ``asc_copy(vector_bool&, src, part)``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint16_t
    >>> src, mask = Reg.RegTensor[uint16_t](), Reg.MaskReg()
    >>> src.set(np.where(np.arange(128) == 8, 0b1011, 0))  # bytes 16, 17: block 1 for b16
    >>> Reg.MaskGenWithRegTensor[uint16_t, 1](mask, src)
    >>> mask.count(), mask.bits()[:8].astype(int).tolist()
    (6, [1, 1, 1, 1, 0, 0, 1, 1])
    """
    reg = operands.register(src, "src", op.surface)
    operands.mask(dst, "dst", op.surface)
    dtype = op.template_dtype(reg)
    op.spec.check(dtype)
    block_bytes = MASK_BITS // 8 // dtype.size  # 32 mask bytes, each bit spread to a lane
    blocks = MASK_BITS // block_bytes  # a 256-byte register
    if op.offset is None or not 0 <= op.offset < blocks:
        raise AscregTypeError(
            f"offset must be written as a template argument in [0, {blocks - 1}] for "
            f"{dtype.cpp_name} ({blocks} blocks of {block_bytes} bytes), "
            f"got {op.offset!r}"
        )
    raw = reg.get().view(np.uint8)
    dst.set_bits(core.spread_block_bits(raw, op.offset, dtype.size))


@define("Reg.MoveMask", batch=rules.ROWS)  # reads the mask SPR, which no VF op changes
def MoveMask(op: Any) -> MaskReg:
    """``MaskReg MoveMask<T>()``: the mask SPR ``{MASK1, MASK0}`` in ``T``'s lane layout.

    b16: the 128 bits of ``{MASK1, MASK0}``, each repeated twice; b32: the 64 bits of ``MASK0``,
    each repeated four times. The SPR is the running block's (``ascreg.machine.spr``), written by
    ``asc_init()`` (all ones); reading it before anything wrote it, or outside a kernel, is an
    error. A compatibility interface: prefer ``CreateMask`` / ``UpdateMask``.

    Examples
    --------
    >>> from ascreg import Reg, half
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.spr import write_mask_spr
    >>> with block(BlockContext()) as ctx, ctx.simd_vf():
    ...     write_mask_spr(0b101); Reg.MoveMask[half]().bits()[:6].astype(int).tolist()
    [1, 1, 0, 0, 1, 1]
    """
    dtypes = op.t.dtypes
    if not dtypes:
        raise AscregTypeError("needs its element type (C++ cannot deduce T): MoveMask[T]()")
    op.spec.check(dtypes[0])
    return _mask(core.spr_bits(read_mask_spr(), dtypes[0].size))

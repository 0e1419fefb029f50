"""Implementations shared by the Reg and C API twins that move data by index or count values.

``Gather`` from UB / ``asc_gather`` (UB form), ``GatherB`` / ``asc_gather_datablock``,
``Scatter`` / ``asc_scatter``, ``Histograms`` / ``asc_*_histogram_*``, ``Unsqueeze`` /
``asc_unsqueeze`` and the MaskReg ``Interleave`` / ``asc_intlv_b*``. Each checks its operands
in the wording of ``op.surface``, accesses UB through typed pointers (so the bounds, alignment,
unwritten-byte and pipe checks of the running block see every access) and leaves the lane math
to :mod:`ascreg.core`.

A register of ``VL`` bytes is split into *slots*: one per index lane (a b8 gather with uint16
indices fills 128 two-byte slots, the element in the low byte, the high byte 0). 64-bit data
uses one slot per data lane; a uint32 index register then has more lanes than are used (the
documented "only the first 32 indices are valid" of RegTraitNumOne).

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, int8_t, int16_t, uint16_t
>>> ub = UnifiedBuffer(); src = ub.alloc(int8_t, 256); src.write(np.arange(256) - 128)
>>> dst, idx = Reg.RegTensor[int16_t](), Reg.RegTensor[uint16_t](); idx.set(np.arange(128))
>>> Reg.Gather(dst, src, idx, Reg.CreateMask[int16_t]())
>>> np.asarray(dst)[:2].tolist()  # -128 and -127 as zero-extended bytes
[128, 129]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, uint8_t
from ascreg._frontend import compute as shared
from ascreg._frontend import operands
from ascreg.core import histogram as histogram_core
from ascreg.core import rearrange
from ascreg.core.masks import interleave_bits
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine import spr
from ascreg.machine.memory import Pointer
from ascreg.machine.registers import VL, MaskReg, RegTensor, RegTraitNumOne
from ascreg.machine.undefined import require_defined

DATA_BLOCK = 32
"""Bytes per DataBlock: the alignment of every base address here, and GatherB's unit."""
GATHER_B_BLOCKS = 8
"""``GatherB`` reads one DataBlock per index for the first 8 index lanes."""
GATHER_B_MASK_STRIDE = 4
"""``GatherB``'s mask is read in the b32 layout: block k is enabled by bit ``4 * k``."""


def _base(op: Any, base: Any, role: str) -> Pointer[Any]:
    ptr = operands.value_address(base, role, op.surface)
    ptr.require_alignment(DATA_BLOCK, f"{role} must be 32-byte aligned")
    return ptr


def _check_template(op: Any, *pairs: tuple[str, type[Scalar]]) -> None:
    """Check the written template dtypes against the operands' (in template order)."""
    written = (*op.t.dtypes, *op.t.others)  # Gather<T0, T1, T2>: "X" arguments
    for given, (role, actual) in zip(written, pairs, strict=False):
        if given is not actual:
            raise TemplateMismatchError(
                f"template dtype {role}={given.cpp_name} does not match the operand's "
                f"{actual.cpp_name} (C++: static_assert '{role} type is not correct!')"
            )


def _slots(
    op: Any, data: RegTensor[Any, Any], index: RegTensor[Any, Any], size: int, mask: Any
) -> tuple[int, int, np.ndarray[Any, Any]]:
    """Return (slot count, slot bytes, slot enables) of an access of *size*-byte elements."""
    if size == 8:
        if index.lanes < data.lanes:
            raise AscregTypeError(
                f"{type(data).__name__} needs {data.lanes} indices but {type(index).__name__} "
                "has fewer lanes (C++: static_assert, RegTraitNumTwo data needs a "
                "RegTraitNumTwo uint64_t index)"
            )
        enables = np.ones(data.lanes, np.bool_) if mask is None else None
        if enables is None:
            enables = operands.lane_enables(operands.mask(mask, "mask", op.surface), data)
        return data.lanes, 8, enables
    slots = index.lanes
    slot = VL // slots
    bits = operands.mask(mask, "mask", op.surface).bits()
    return slots, slot, bits[0 : slots * slot : slot]


def gather_ub(op: Any, dst: Any, base: Any, index: Any, mask: Any, *, legal: Any) -> None:
    """``dst`` slot i = ``base[index[i]]`` for the enabled slots, 0 for the others.

    *legal* checks the (dst, src, index) dtypes: the row itself (C API) or the table of the UB
    form (``GATHER_UB_COMBOS``, Reg). Only the enabled indices are read (a disabled one may
    point anywhere, as documented).
    """
    d = operands.register(dst, "dst", op.surface)
    i = operands.register(index, "index", op.surface)
    ptr = _base(op, base, "src" if op.surface is operands.C_API else "base")
    legal(d.dtype, ptr.dtype, i.dtype)
    _check_template(op, ("T0", d.dtype), ("T1", ptr.dtype), ("T2", i.dtype))
    slots, slot, enables = _slots(op, d, i, ptr.dtype.size, mask)
    indices = i.get()[:slots].astype(np.int64)[enables]
    picked = ptr[indices]
    d.put(rearrange.gather_slots(picked, enables, slot).view(d.dtype.np_dtype))


def check_triple(name: str, combos: tuple[tuple[type[Scalar], ...], ...]) -> Any:
    """Return a checker of (dst, src, index) dtypes against *combos*, naming them on failure."""

    def check(*dtypes: type[Scalar]) -> None:
        if dtypes not in combos:
            legal = "; ".join("(" + ", ".join(d.cpp_name for d in c) + ")" for c in combos)
            given = ", ".join(f"{r}={d.cpp_name}" for r, d in zip(("dst", "src", "index"), dtypes, strict=True))  # fmt: skip
            raise IllegalDtypeError(f"illegal dtypes ({given}); legal: {legal}", call=name)

    return check


def scatter(op: Any, base: Any, src: Any, index: Any, mask: Any) -> None:
    """``base[index[i]] = src`` slot i for the enabled slots; other UB bytes are untouched.

    Indices must be unique among the enabled slots: a repeat is undefined behaviour (the chip
    keeps one of the values, which one is not documented). When the policy lets it run, the
    highest lane wins.
    """
    s = operands.register(src, "src", op.surface)
    i = operands.register(index, "index", op.surface)
    ptr = _base(op, base, "dst" if op.surface is operands.C_API else "base")
    operands.pointer_type(ptr, s, op.surface)
    op.spec.check(s.dtype, i.dtype)
    _check_template(op, ("T", s.dtype), ("U", i.dtype))
    size = s.dtype.size
    slots, _slot, enables = _slots(op, s, i, size, mask)
    elements = rearrange.slot_elements(s.get().view(np.uint8), slots, size)
    values = elements[enables].view(s.dtype.np_dtype).ravel()
    indices = i.get()[:slots].astype(np.int64)[enables]
    keep, repeated = rearrange.last_writer(indices)
    if repeated.size:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"index {int(repeated[0])} is written by more than one selected lane: the chip "
                "keeps one of the values, which one is not defined (indices must be unique)"
            )
        )
    require_defined(values, None, "a store")
    require_defined(indices, None, "a store's index")
    if indices.size:  # through the index array: the checks see the elements, not the gaps
        ptr[indices[keep]] = values[keep]


def gather_blocks(op: Any, dst: Any, base: Any, index: Any, mask: Any) -> None:
    """``dst`` DataBlock k = the 32 bytes at ``base + index[k]`` bytes (k < 8), or 0 if disabled."""
    d = operands.register(dst, "dst", op.surface)
    i = operands.register(index, "index", op.surface)
    ptr = _base(op, base, "src" if op.surface is operands.C_API else "base")
    operands.pointer_type(ptr, d, op.surface)
    op.spec.check(d.dtype, i.dtype)
    _check_template(op, ("T", d.dtype))
    if d.trait is not RegTraitNumOne:
        raise AscregTypeError(f"{type(d).__name__}: GatherB supports RegTraitNumOne registers only")
    offsets = i.get()[:GATHER_B_BLOCKS].astype(np.int64)
    if mask is None:
        enables = np.ones(GATHER_B_BLOCKS, np.bool_)
    else:
        bits = operands.mask(mask, "mask", op.surface).bits()
        enables = bits[0 : GATHER_B_BLOCKS * GATHER_B_MASK_STRIDE : GATHER_B_MASK_STRIDE]
    wanted = offsets[enables]
    for offset in wanted[wanted % DATA_BLOCK != 0]:
        undefined_behaviour(
            AlignmentError(f"index {int(offset)} is not a multiple of 32 (one DataBlock)")
        )
    bytes_ptr = ptr.cast(uint8_t)
    blocks = [(bytes_ptr + int(offset)).view(DATA_BLOCK).copy() for offset in wanted]
    d.put(rearrange.gather_blocks(blocks, enables, DATA_BLOCK).view(d.dtype.np_dtype))


def histogram(op: Any, dst: Any, src: Any, mask: Any, *, high: bool, cumulative: bool) -> None:
    """Add the histogram of the enabled ``src`` lanes (one half of 0-255) to ``dst``."""
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    op.spec.check(s.dtype, d.dtype)
    _check_template(op, ("T", s.dtype), ("U", d.dtype))
    enabled = operands.lane_enables(operands.mask(mask, "mask", op.surface), s)
    d.put(histogram_core.histogram(d.get(), s.get(), enabled, high=high, cumulative=cumulative))


def squeeze_counting(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``Squeeze`` that also adds the bytes it kept to the running block's AR register.

    Decision: AR accumulates (``+=``), as the pages' "total bytes of the valid elements" and the
    ``ClearSpr<AR>`` / ``asc_clear_ar_spr`` before a squeeze loop imply.
    """
    d, s = shared.vectors(op, (dst, "dst"), (src, "src"))
    enabled = shared.enables(op, mask, s)
    d.put(rearrange.squeeze(s.get(), enabled))
    spr.note_squeeze(int(enabled.sum()) * s.dtype.size)


def unsqueeze(op: Any, dst: Any, mask: Any) -> None:
    """``dst`` lane i = the number of lanes before i that *mask* selects."""
    d = operands.register(dst, "dst", op.surface)
    op.spec.check(d.dtype)
    _check_template(op, ("T", d.dtype))
    enabled = operands.lane_enables(operands.mask(mask, "mask", op.surface), d)
    d.put(rearrange.unsqueeze(enabled, d.dtype.np_dtype))


MASK_GROUPS = (1, 2, 4)
"""The lane widths (bytes, one mask bit each) the MaskReg Interleave / DeInterleave move."""


def mask_interleave(
    op: Any, group: int, dst0: Any, dst1: Any, src0: Any, src1: Any, *, inverse: bool
) -> None:
    """Interleave (or de-interleave) two masks in groups of *group* bits into ``dst0, dst1``."""
    if group not in MASK_GROUPS:
        raise AscregTypeError(f"the MaskReg form supports b8/b16/b32 lanes, not {8 * group}-bit")
    outs = [operands.mask(m, role, op.surface) for m, role in ((dst0, "dst0"), (dst1, "dst1"))]
    if outs[0] is outs[1]:
        raise AscregTypeError("dst0 and dst1 must be different mask registers")
    bits = [operands.mask(m, role, op.surface).bits() for m, role in ((src0, "src0"), (src1, "src1"))]  # fmt: skip
    first, second = interleave_bits(bits[0], bits[1], group, inverse=inverse)
    outs[0].set_bits(first)
    outs[1].set_bits(second)


def interleave_registers(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    """``op.formula`` (``rearrange.interleave`` / ``deinterleave``) of two registers into two.

    64-bit lanes need RegTraitNumTwo registers (C++: static_assert); both sources are read
    before either destination is written, so they may alias.
    """
    d0, d1, a, b = shared.vectors(
        op, (dst0, "dst0"), (dst1, "dst1"), (src0, "src0"), (src1, "src1")
    )
    if d0.dtype.size == 8 and d0.trait is RegTraitNumOne:
        raise AscregTypeError(
            f"{op.name} of 64-bit lanes needs RegTraitNumTwo registers, got "
            f"{type(d0).__name__} (C++: static_assert 'only support RegTraitNumTwo')"
        )
    first, second = op.formula(a.get(), b.get())
    d0.put(first)
    d1.put(second)


def is_mask(obj: Any) -> bool:
    """Return True for a MaskReg operand (the MaskReg forms of the rearrangements)."""
    return isinstance(obj, MaskReg)

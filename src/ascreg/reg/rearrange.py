"""Register rearrangement: Interleave, Gather, Squeeze, Pack, Unsqueeze, Histograms, ClearSpr.

``ClearSpr`` zeroes the AR register that ``Squeeze`` can count into.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, uint32_t
>>> a, b, lo, hi = (Reg.RegTensor[uint32_t]() for _ in range(4))
>>> a.set(np.arange(64)); b.set(np.arange(64) + 100)
>>> Reg.Interleave(lo, hi, a, b)
>>> np.asarray(lo)[:4].tolist(), np.asarray(hi)[:2].tolist()
([0, 100, 1, 101], [32, 132])
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import compute as shared
from ascreg._frontend import movement, rules
from ascreg._frontend.template import define
from ascreg._spec.dtypes import GATHER_UB_COMBOS
from ascreg.core import pack, rearrange
from ascreg.enums import (
    GatherMaskMode,
    HighLowPart,
    HistogramsBinType,
    HistogramsType,
    SpecialPurposeReg,
)
from ascreg.errors import AscregTypeError
from ascreg.machine import spr
from ascreg.machine.registers import RegTensor


def _rearrange(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    """Shared body of Interleave and DeInterleave: ``op.formula`` maps the sources to dst0, dst1.

    MaskReg operands take the MaskReg form ``Op<T>``: the same permutation on groups of
    ``sizeof(T)`` mask bits (``T`` must be written: C++ cannot deduce it).
    """
    if movement.is_mask(dst0):
        if not op.t.dtypes:
            raise AscregTypeError(
                f"the MaskReg form needs its element type (C++ cannot deduce T): "
                f"{op.name}[T](dst0, dst1, src0, src1)"
            )
        group = op.t.dtypes[0].size
        movement.mask_interleave(op, group, dst0, dst1, src0, src1, inverse=op.inverse)
        return
    movement.interleave_registers(op, dst0, dst1, src0, src1)


Interleave = define(
    "Reg.Interleave",
    doc="""``Interleave(U& dst0, U& dst1, U& src0, U& src1)``: zip two registers lane by lane.

    ``dst0 = [a0, b0, a1, b1, ...]`` over the low halves of ``a = src0`` and ``b = src1``;
    ``dst1`` the same over the high halves. No mask; a bit-exact permutation for every type
    (bool and the raw-bit b8 types included). 64-bit lanes need ``RegTraitNumTwo`` registers
    (64 lanes; the low and high words are interleaved alike, which is the same lane
    permutation); ``RegTraitNumOne`` 64-bit registers are rejected, as the C++ static_assert
    does. Both sources are read before either destination is written, so they may alias.

    ``Interleave[T](MaskReg& dst0, dst1, src0, src1)`` is the MaskReg form: the same zip over
    groups of ``sizeof(T)`` bits (b8/b16/b32; ``T`` is required). ``dst0`` and ``dst1`` must
    differ.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> a, b, d0, d1 = (Reg.RegTensor[int16_t]() for _ in range(4))
    >>> a.set(1); b.set(-1)
    >>> Reg.Interleave(d0, d1, a, b)
    >>> np.asarray(d0)[:4].tolist()
    [1, -1, 1, -1]
    """,
    formula=staticmethod(rearrange.interleave),
    inverse=False,
    batch=rules.ROWS,  # registers and masks, row by row (the last axis)
)(_rearrange)
DeInterleave = define(
    "Reg.DeInterleave",
    doc="""``DeInterleave(U& dst0, U& dst1, U& src0, U& src1)``: split even and odd lanes.

    ``dst0`` gets the even lanes and ``dst1`` the odd lanes of ``concat(src0, src1)``: the
    inverse of :data:`Interleave`. Same types and rules as ``Interleave``, MaskReg form
    included (``DeInterleave[T](MaskReg& dst0, dst1, src0, src1)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint8_t
    >>> a, b, even, odd = (Reg.RegTensor[uint8_t]() for _ in range(4))
    >>> a.set(np.arange(256) % 2); b.set(np.arange(256) % 2)
    >>> Reg.DeInterleave(even, odd, a, b)
    >>> int(np.asarray(even).max()), int(np.asarray(odd).min())
    (0, 1)
    """,
    formula=staticmethod(rearrange.deinterleave),
    inverse=True,
    batch=rules.ROWS,
)(_rearrange)


_GATHER_UB = movement.check_triple("Reg.Gather", GATHER_UB_COMBOS)
"""The (dst, src, index) dtypes of Gather's UB form."""


@define("Reg.Gather", max_dtypes=2, batch=rules.ROWS)  # the register form; the UB one is eager
def Gather(op: Any, dst: Any, src: Any, index: Any, mask: Any = None) -> None:
    """``Gather<T, U>(S& dst, S& src, V& index)``: ``dst[i] = src[index[i]]``, no mask.

    ``T`` is any b8/b16/b32 type, ``U`` the unsigned index type of the same width (uint8_t,
    uint16_t, uint32_t); indices count elements and may repeat. An index past the register
    wraps: ``index % (VL / sizeof(T))`` (the documented rule, e.g. 168 reads lane 40 of a
    128-lane half register), so no index is out of range. ``src`` is read before ``dst`` is
    written, so they may alias.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half, uint16_t
    >>> src, dst, idx = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[uint16_t]()
    >>> src.set(np.arange(128)); idx.set(np.arange(128)[::-1] + 40)
    >>> Reg.Gather[half, uint16_t](dst, src, idx)
    >>> np.asarray(dst)[:3].tolist()
    [39.0, 38.0, 37.0]

    The UB form ``Gather(T3& dst, __ubuf__ T1* base, T4& index, MaskReg& mask)`` (older name
    ``DataCopyGather``) reads ``base[index[i]]`` (indices in elements, repeats allowed) into the
    enabled lanes; the others become 0, and their indices are never dereferenced. ``base`` is
    32-byte aligned. A b8 source fills b16 lanes zero-extended (int8 -40 reads as 216); 64-bit
    data takes uint32 or uint64 indices (a RegTraitNumOne register uses the first 32). Call it
    without template arguments (its dtypes are deduced and checked against the table), or
    with ``Gather[T0, T1, T2]`` (destination, source and index types, as C++ writes them).

    >>> from ascreg import UnifiedBuffer, uint32_t, float32_t
    >>> base = UnifiedBuffer().alloc(float32_t, 64); base.write(np.arange(64) * 0.5)
    >>> out, at = Reg.RegTensor[float32_t](), Reg.RegTensor[uint32_t](); at.set(np.arange(64)[::-1])
    >>> Reg.Gather(out, base, at, Reg.CreateMask[float32_t, Reg.MaskPattern.VL2]())
    >>> np.asarray(out)[:3].tolist()
    [31.5, 31.0, 0.0]
    """
    if mask is not None or not isinstance(src, RegTensor):
        movement.gather_ub(op, dst, src, index, mask, legal=_GATHER_UB)
        return
    if op.t.others:  # Gather<T0, T1, T2> of the UB form, with registers
        op.spec.check_prefix(*op.t.others)
    shared.gather(op, dst, src, index)


def _squeeze_rows(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit ``Squeeze`` row by row, but not ``STORE_REG`` (each call adds to AR, in order)."""
    if op.t.enum(GatherMaskMode, GatherMaskMode.NO_STORE_REG) is GatherMaskMode.STORE_REG:
        return None
    return rules.ROWS.admit(op, args, batch)


_SQUEEZE_ROWS = rules.BatchRule(
    "squeeze", "row by row, except STORE_REG (each call adds its bytes to AR)", _squeeze_rows
)


@define("Reg.Squeeze", enum_kinds=(GatherMaskMode,), batch=_SQUEEZE_ROWS)
def Squeeze(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``Squeeze<T, GatherMaskMode store = NO_STORE_REG>(U& dst, U& src, MaskReg& mask)``.

    Copies the lanes of ``src`` that ``mask`` selects to ``dst``, in order, from lane 0 up;
    the remaining lanes of ``dst`` become 0. ``store=GatherMaskMode.STORE_REG`` also adds the
    bytes it kept to the running block's AR register (``ascreg.machine.spr``), which the AR
    form of ``StoreUnAlign`` (``StoreUnAlign(dst, src, ureg)``, next) uses as its offset; the
    two must alternate, and a kernel clears AR first with ``ClearSpr<AR>``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int32_t
    >>> src, dst = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t]()
    >>> src.set(np.arange(64))
    >>> Reg.Squeeze(dst, src, Reg.CreateMask[int32_t, Reg.MaskPattern.H]())
    >>> np.asarray(dst)[[0, 1, 31, 32]].tolist()
    [0, 1, 31, 0]
    """
    if op.t.enum(GatherMaskMode, GatherMaskMode.NO_STORE_REG) is GatherMaskMode.STORE_REG:
        movement.squeeze_counting(op, dst, src, mask)
        return
    shared.squeeze(op, dst, src, mask)


def _halves(op: Any, dst: Any, src: Any) -> None:
    high = op.t.enum(HighLowPart, HighLowPart.LOWEST) is HighLowPart.HIGHEST
    if op.t.dtypes:
        op.spec.check_prefix(*op.t.dtypes)
    shared.template_pair(op, dst, src)
    shared.halves(op, dst, src, high=high)


Pack = define(
    "Reg.Pack",
    enum_kinds=(HighLowPart,),
    max_dtypes=2,
    formula=staticmethod(pack.pack),
    mask_formula=staticmethod(pack.mask_pack),
    doc="""``Pack<T, U, HighLowPart part = LOWEST>(S& dst, V& src)``; ``Pack<part>(MaskReg& dst, MaskReg& src)``.

    Keeps the low half of each ``src`` lane's bits (b16 -> 8, b32 -> 16, b64 -> 32 bits) and
    writes the narrowed lanes to the low (``LOWEST``) or high (``HIGHEST``) half of ``dst``.
    Decision: the other half of ``dst`` becomes 0 (the page does not say; the dav-3510 64-bit
    path builds it from a zero register). A 64-bit RegTraitNumTwo ``src`` fills all of
    ``dst`` and supports ``LOWEST`` only.

    The MaskReg form keeps the even bits of ``src`` (one per two) in the low or high half of
    ``dst``, the other half 0 (the same decision). No mask operand.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, HighLowPart, uint8_t, uint16_t
    >>> src, dst = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint8_t]()
    >>> src.set(np.arange(128, dtype=np.uint16) + 0x100)
    >>> Reg.Pack[uint8_t, uint16_t, HighLowPart.HIGHEST](dst, src)
    >>> np.asarray(dst)[[0, 127, 128, 129]].tolist()
    [0, 0, 0, 1]
    >>> m = Reg.MaskReg()
    >>> Reg.Pack[HighLowPart.LOWEST](m, Reg.CreateMask[uint16_t]())  # b16 -> b8 mask layout
    >>> m.count()
    128
    """,
    batch=rules.ROWS,
)(_halves)

UnPack = define(
    "Reg.UnPack",
    enum_kinds=(HighLowPart,),
    max_dtypes=2,
    formula=staticmethod(pack.unpack),
    mask_formula=staticmethod(pack.mask_unpack),
    doc="""``UnPack<T, U, HighLowPart part = LOWEST>(S& dst, V& src)``; ``UnPack<part>(MaskReg& dst, MaskReg& src)``.

    Widens the lanes of the low (``LOWEST``) or high (``HIGHEST``) half of ``src`` to ``T``:
    zero-extended for unsigned types, sign-extended for signed ones. A 64-bit RegTraitNumTwo
    ``dst`` takes all of ``src`` and supports ``LOWEST`` only.

    The MaskReg form spreads each bit of the chosen half of ``src`` over two bits of ``dst``
    (the upper bit 0): a b8-layout mask becomes a b16-layout one.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, HighLowPart, int8_t, int16_t
    >>> src, dst = Reg.RegTensor[int8_t](), Reg.RegTensor[int16_t]()
    >>> src.set(np.arange(256) - 128)
    >>> Reg.UnPack[int16_t, int8_t, HighLowPart.HIGHEST](dst, src)
    >>> np.asarray(dst)[[0, 127]].tolist()
    [0, 127]
    >>> m = Reg.MaskReg()
    >>> Reg.UnPack(m, Reg.CreateMask[int8_t, Reg.MaskPattern.VL4]())
    >>> m.count(), m.bits()[:4].astype(int).tolist()
    (4, [1, 0, 1, 0])
    """,
    batch=rules.ROWS,
)(_halves)


@define("Reg.Unsqueeze", batch=rules.ROWS)
def Unsqueeze(op: Any, dst: Any, mask: Any) -> None:
    """``Unsqueeze<T>(U& dst, MaskReg& mask)``: lane i = how many lanes before i the mask selects.

    ``dst[0] = 0`` and ``dst[i] = dst[i-1] + mask[i-1]``: the inverse bookkeeping of
    :data:`Squeeze` (the last lane's mask bit is never counted). int8/uint8/int16/uint16/
    int32/uint32; the count wraps in 8-bit lanes (it reaches 255). Older name ``PrefixSum``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int32_t
    >>> dst = Reg.RegTensor[int32_t]()
    >>> Reg.Unsqueeze(dst, Reg.CreateMask[int32_t, Reg.MaskPattern.M3]())
    >>> np.asarray(dst)[:7].tolist()
    [0, 1, 1, 1, 2, 2, 2]
    """
    movement.unsqueeze(op, dst, mask)


@define(
    "Reg.Histograms",
    max_dtypes=2,
    enum_kinds=(HistogramsBinType, HistogramsType),
    batch=rules.ROWS,
)
def Histograms(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``Histograms<T, U, HistogramsBinType mode, HistogramsType type>(V& dst, S& src, MaskReg& mask)``.

    Adds to the uint16 lanes of ``dst`` the histogram of the uint8 lanes of ``src`` the mask
    selects: ``BIN0`` counts the values 0-127 (lane n: value n), ``BIN1`` 128-255 (lane n:
    value 128 + n). ``FREQUENCY`` counts each value; ``ACCUMULATE`` counts the values from the
    start of the half up to lane n's value (decision: the running count restarts at 128 for
    ``BIN1``, "in the corresponding interval" as the page says). The counts wrap at 65536.
    ``mode`` and ``type`` must be written (C++ has no default for them).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, HistogramsBinType, HistogramsType, uint8_t, uint16_t
    >>> src, dst = Reg.RegTensor[uint8_t](), Reg.RegTensor[uint16_t]()
    >>> src.set(np.arange(256) % 4); dst.set(0)
    >>> mask = Reg.CreateMask[uint8_t]()
    >>> Reg.Histograms[uint8_t, uint16_t, HistogramsBinType.BIN0, HistogramsType.FREQUENCY](dst, src, mask)
    >>> np.asarray(dst)[:5].tolist()
    [64, 64, 64, 64, 0]
    """
    modes = op.t.enums
    if HistogramsBinType not in modes or HistogramsType not in modes:
        raise AscregTypeError(
            "needs its HistogramsBinType and HistogramsType template arguments: "
            "Histograms[uint8_t, uint16_t, HistogramsBinType.BIN0, HistogramsType.FREQUENCY]"
        )
    high = modes[HistogramsBinType] is HistogramsBinType.BIN1
    cumulative = modes[HistogramsType] is HistogramsType.ACCUMULATE
    movement.histogram(op, dst, src, mask, high=high, cumulative=cumulative)


@define("Reg.ClearSpr", enum_kinds=(SpecialPurposeReg,))
def ClearSpr(op: Any) -> None:
    """``ClearSpr<SpecialPurposeReg spr>()``: zero a special register (only ``AR`` exists).

    AR is the running block's byte counter (``ascreg.machine.spr``), the one
    ``Squeeze<T, GatherMaskMode::STORE_REG>`` adds to; outside a kernel there is none (error).

    Examples
    --------
    >>> from ascreg import Reg, SpecialPurposeReg
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine import spr
    >>> with block(BlockContext()) as ctx, ctx.simd_vf():
    ...     spr.add_ar(96); Reg.ClearSpr[SpecialPurposeReg.AR](); spr.read_ar()
    0
    """
    if SpecialPurposeReg not in op.t.enums:
        raise AscregTypeError("needs its register: ClearSpr[SpecialPurposeReg.AR]()")
    spr.clear_ar()


# The older spellings (each row's ``aliases``): the same op objects.
DataCopyGather, GatherMask, PrefixSum = Gather, Squeeze, Unsqueeze
MaskPack, MaskUnPack, MaskInterleave, MaskDeInterleave = Pack, UnPack, Interleave, DeInterleave

"""Implementations shared by the Reg and C API twins: compare, select, logic, shift, copy.

Each function here is an op implementation ``impl(op, ...)`` (see
:func:`ascreg._frontend.template.define`): it checks the operands against ``op.spec`` in the
wording of ``op.surface`` and makes one core call. ``Reg.Select`` and ``asc_select`` are the
same implementation defined under two rows.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg
>>> from ascreg.c_api import asc_select, asc_create_mask_b16, vector_half, PAT_VL1
>>> a, b, d = vector_half(), vector_half(), vector_half(); a.set(1.0); b.set(2.0)
>>> asc_select(d, a, b, asc_create_mask_b16(PAT_VL1)); np.asarray(d)[:2]
array([1., 2.], dtype=float16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import Kind, bool_, float32_t, int16_t
from ascreg._frontend import operands
from ascreg.core import arith, compound, elementary, rearrange, shifts
from ascreg.core import bitwise as bits_core
from ascreg.core import compare as cmp
from ascreg.core import masks as mask_core
from ascreg.core.masks import _ALL_ON_IDS
from ascreg.enums import MaskMergeMode, RegLayout
from ascreg.errors import AscregTypeError, IllegalDtypeError, TemplateMismatchError
from ascreg.machine.registers import BATCHING, MaskReg, RegTensor
from ascreg.machine.undefined import require_defined

Lanes = np.ndarray[Any, Any]


def vectors(op: Any, *named: tuple[Any, str], check: bool = True) -> list[RegTensor[Any, Any]]:
    """Check ``(operand, role)`` pairs as registers of one type, legal for *op*'s row.

    A combination of operand types that passed once is remembered on the op (calls in a loop
    cost one set lookup). With *check* False the row is not consulted (rows whose dtype tuple
    has more than the register's dtype check it themselves).
    """
    regs = [obj for obj, _role in named]
    key = (check, *map(type, regs))
    if key in op._checked:
        return regs
    for obj, role in named:
        operands.register(obj, role, op.surface)
    operands.same_type(op.surface, *regs)
    dtype = op.template_dtype(regs[0])
    if check:
        op.spec.check(dtype)
    op._checked.add(key)
    return regs


def enables(op: Any, mask: Any, reg: RegTensor[Any, Any]) -> Lanes:
    """Return the lane enables of the *mask* operand for an op on *reg*."""
    return operands.lane_enables(operands.mask(mask, "mask", op.surface), reg)


def mask_bits(op: Any, obj: Any, role: str) -> Lanes:
    """Return the 256 bits of a mask operand."""
    return operands.mask(obj, role, op.surface).bits()


def select(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``dst = mask ? src0 : src1`` on registers (lane-wise) or on masks (bit-wise)."""
    form = (type(dst), type(src0), type(src1), type(mask))
    if form in op._forms:  # register operands of these types passed every check before
        a, b = src0.get(), src1.get()
        if a.size >= cmp.BITWISE_SELECT_FROM:  # rows of a batched loop: select on the raw bits
            words = mask.kept_words(dst.mask_stride)
            if words is not None and words.shape == a.shape == b.shape:
                dst.put_known(cmp.select_words(words, a, b))
                return
        dst.put_known(cmp.select(operands.lane_enables(mask, dst), a, b))
        return
    selector = operands.mask(mask, "mask", op.surface)
    if isinstance(dst, MaskReg):
        if op.surface is operands.C_API:
            op.spec.check(bool_)
        dst.set_bits(
            mask_core.mask_select(
                mask_bits(op, src0, "src0"), mask_bits(op, src1, "src1"), selector.bits()
            )
        )
        return
    d, a, b = vectors(op, (dst, "dst"), (src0, "src0"), (src1, "src1"))
    d.put(cmp.select(operands.lane_enables(selector, d), a.get(), b.get()))
    op._forms.add(form)  # every operand passed its check: the next call of this form skips them


def mask_logic(op: Any, logic: str, dst: MaskReg, sources: list[Any], mask: Any) -> None:
    """Bitwise AND/OR/XOR/NOT of mask registers; unselected bits become 0."""
    if op.surface is operands.C_API:
        op.spec.check(bool_)
    bits = [
        mask_bits(op, s, "src" if len(sources) == 1 else f"src{i}") for i, s in enumerate(sources)
    ]
    second = bits[1] if len(bits) > 1 else None
    dst.set_bits(mask_core.mask_logic(logic, bits[0], second, mask_bits(op, mask, "mask")))


def logic(op: Any, logic: str, dst: Any, sources: list[Any], mask: Any) -> None:
    """Bitwise *logic* (``and``/``or``/``xor``/``not``) of registers or masks; masked-off 0."""
    if isinstance(dst, MaskReg):
        mask_logic(op, logic.capitalize(), dst, sources, mask)
        return
    roles = ["src"] if len(sources) == 1 else ["src0", "src1"]
    d, *regs = vectors(op, (dst, "dst"), *zip(sources, roles, strict=True))
    lanes = [r.get() for r in regs]
    result = bits_core.bitwise(logic, lanes[0], lanes[1] if len(lanes) > 1 else None)
    d.put(cmp.zero_masked(result, enables(op, mask, d)))


def compare(op: Any, mode: str, dst: Any, src0: Any, src1: Any, mask: Any, scalar: bool) -> None:
    """``dst`` bit i = ``src0[i] <mode> src1[i]`` (or the scalar) on the selected lanes."""
    form = (type(dst), type(src0), type(src1), type(mask))
    if not scalar and form in op._forms:  # these operand types passed every check before
        right = src1.get()
        left = src0.get()
        stride = src0.mask_stride
        active = operands.lane_enables(mask, src0)
        if not BATCHING:  # one whole register: its bits are spread only if something reads them
            dst.set_enables(cmp.compare_enables(mode, left, right, active), stride)
            return
        bits, lanes = cmp.compare_mask(mode, left, right, active, stride)
        dst.set_bits(bits, lanes, stride)
        return
    out = operands.mask(dst, "dst", op.surface)
    if scalar:
        (a,) = vectors(op, (src0, "src" if op.surface is operands.C_API else "register"))
        b: Any = operands.scalar(src1, a.dtype, "scalar")
    else:
        a, other = vectors(op, (src0, "src0"), (src1, "src1"))
        b = other.get()
    stride = a.mask_stride
    bits, lanes = cmp.compare_mask(mode, a.get(), b, enables(op, mask, a), stride)
    out.set_bits(bits, lanes, stride)
    if not scalar:  # every operand passed its check: the next call of this form skips them
        op._forms.add(form)


def shift(op: Any, dst: Any, src: Any, counts: Lanes, mask: Any, *, left: bool) -> None:
    """Shift ``src`` by per-lane *counts* into ``dst`` (zeroing shift; negative is an error)."""
    d: RegTensor[Any, Any] = dst
    d.put(shifts.zeroing_shift(src.get(), counts, enables(op, mask, d), left=left))


def scalar_count(op: Any, count: Any, dtype: Any) -> Lanes:
    """Return the ``int16_t`` count of a scalar shift, checked against the row."""
    if isinstance(count, RegTensor):
        raise AscregTypeError(f"{op.name} takes a scalar int16_t count, not a register")
    op.spec.check(dtype, int16_t)
    converted: Lanes = operands.scalar(count, int16_t, "count")
    return converted


def copy(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """Copy the selected lanes (MERGING); on masks the unselected bits become 0."""
    if isinstance(dst, MaskReg):
        if op.surface is operands.C_API:
            op.spec.check(bool_)
        predicate = None if mask is None else mask_bits(op, mask, "mask")
        dst.set_bits(mask_core.mask_move(mask_bits(op, src, "src"), predicate))
        return
    d, s = vectors(op, (dst, "dst"), (src, "src"))
    if mask is None:
        d.put(s.get().copy())
        return
    enabled = enables(op, mask, d)
    d.put(s.get().copy() if enabled.all() else cmp.select(enabled, s.get(), d.get()))


def broadcast(op: Any, dst: RegTensor[Any, Any], value: Any, mask: Any, merging: bool) -> None:
    """Write *value* to every lane of *dst* the mask selects; the others 0 (or kept, MERGING)."""
    filled = arith.fill(value, dst.dtype.np_dtype, dst.lanes)
    if mask is None:
        dst.put(filled)
        return
    old = dst.get() if merging else None
    dst.put(cmp.merge_masked(filled, enables(op, mask, dst), old))


def duplicate_lane0(op: Any, dst: Any, src: Any, mask: Any, *, merging: bool = False) -> None:
    """Broadcast lane 0 of the register *src* into *dst* (the bits: raw-bit types too).

    ``Reg.Duplicate(dst, srcReg, mask)`` and ``asc_duplicate`` share it.
    """
    d, s = vectors(op, (dst, "dst"), (src, "src"))
    lanes = s.get()
    require_defined(lanes[..., :1], None, "a scalar read (lane 0)")
    broadcast(op, d, lanes[..., :1] if lanes.ndim > 1 else lanes[0], mask, merging)


MERGING_BINARY = frozenset({"Reg.Add", "Reg.Max", "Reg.Min"})
"""The binary ops that also accept ``MaskMergeMode.MERGING`` (the others are ZEROING only)."""


def binary(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """Element-wise ``op.formula(src0, src1)`` into ``dst``; masked-off lanes 0 (or kept).

    ``op.formula`` is the row's lane formula (``ascreg.core.arith.BINARY_OPS``). The logic ops
    (``op.logic`` set) also take MaskReg operands: the bitwise mask ops, unselected bits 0.
    """
    form = (type(dst), type(src0), type(src1), type(mask))
    merging = op._derived.get(form)
    if merging is not None:  # register operands of these classes passed every check before
        result = op.formula(src0.get(), src1.get())
        active = operands.lane_enables(mask, dst)
        dst.put_known(cmp.merge_masked(result, active, dst.get() if merging else None))
        return
    if isinstance(dst, MaskReg):
        if getattr(op, "logic", None) is None:
            raise AscregTypeError(f"{op.name} has no MaskReg form")
        mask_logic(op, op.logic.capitalize(), dst, [src0, src1], mask)
        return
    d, a, b = vectors(op, (dst, "dst"), (src0, "src0"), (src1, "src1"))
    merge = op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING)
    if merge is MaskMergeMode.MERGING and op.name not in MERGING_BINARY:
        raise AscregTypeError(f"{op.name} does not support MaskMergeMode.{merge.name}")
    old = d.get() if merge is MaskMergeMode.MERGING else None
    d.put(cmp.merge_masked(op.formula(a.get(), b.get()), enables(op, mask, d), old))
    op._derived[form] = old is not None


FLOAT32_ONLY_ALGOS = frozenset({"PRECISION_0ULP_FTZ_TRUE", "PRECISION_0ULP_FTZ_FALSE"})
"""Algorithms the dav-3510 implementation accepts for float only (``static_assert``)."""


def flushes_subnormals(op: Any, dtype: Any) -> bool:
    """Return whether *op* flushes subnormals, from its ``mode`` subscript (checked for *dtype*).

    The mode is a ``MaskMergeMode`` (ZEROING only) or the op's ``*SpecificMode`` struct
    (``op.mode_type``); the C API functions are the default intrinsic (flushing) mode. A
    struct that C++ rejects for *dtype* (``static_assert``) is an error.
    """
    if op.surface is operands.C_API:
        return True
    mode = op.t.enum(op.mode_type, None)
    merge = op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) if mode is None else mode.mrgMode
    if merge is not MaskMergeMode.ZEROING:
        raise AscregTypeError(
            f"{op.name} supports MaskMergeMode.ZEROING only on dav-3510, not {merge.name}"
        )
    if mode is None:
        return True
    float32_only = mode.precisionMode or mode.algo.name in FLOAT32_ONLY_ALGOS
    if (float32_only and dtype is not float32_t) or (
        mode.keeps_subnormals and dtype.kind is not Kind.FLOAT
    ):
        raise TemplateMismatchError(
            f"{mode!r} does not support {dtype.cpp_name} (C++: static_assert on the "
            f"{'precision mode' if float32_only else 'algorithm'}'s data types)"
        )
    return not mode.keeps_subnormals


def precise_unary(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``dst = op.formula(src, ftz=...)`` for Sqrt, Exp and the logarithms; masked-off 0.

    ``op.formula`` takes the lanes and ``ftz``: whether subnormal inputs and results are
    flushed to zero (the mode's choice).
    """
    lanes = op._derived.get((type(dst), type(src), type(mask)))
    if lanes is not None:  # these operand classes passed every check before: the form's function
        dst.put_known(_zero_masked(lanes(src.get()), mask, dst))
        return
    _precise(op, dst, [(src, "src")], mask)


def precise_binary(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``dst = op.formula(src0, src1, ftz=...)`` for Div; masked-off lanes 0."""
    lanes = op._derived.get((type(dst), type(src0), type(src1), type(mask)))
    if lanes is not None:  # these operand classes passed every check before: the form's function
        dst.put_known(_zero_masked(lanes(src0.get(), src1.get()), mask, dst))
        return
    _precise(op, dst, [(src0, "src0"), (src1, "src1")], mask)


def _zero_masked(result: Lanes, mask: MaskReg, dst: RegTensor[Any, Any]) -> Lanes:
    """Return *result* with the lanes *mask* leaves off zeroed.

    A mask made from all-on enables of the register's lanes costs two look-ups.
    """
    known = mask.kept_enables(dst.mask_stride)
    if known is not None and id(known) in _ALL_ON_IDS and known.shape == result.shape:
        return result
    return cmp.zero_masked(result, operands.lane_enables(mask, dst))


def _precise(op: Any, dst: Any, sources: list[tuple[Any, str]], mask: Any) -> None:
    """Check and run :func:`precise_unary` / :func:`precise_binary`; remember the form."""
    d, *regs = vectors(op, (dst, "dst"), *sources)
    ftz = flushes_subnormals(op, d.dtype)
    lanes = elementary.lanes_function(op.formula, d.dtype.np_dtype, ftz)
    d.put(cmp.zero_masked(lanes(*(r.get() for r in regs)), enables(op, mask, d)))
    op._derived[(type(dst), *(type(s) for s, _ in sources), type(mask))] = lanes


def unary(op: Any, dst: Any, src: Any, mask: Any, *, role: str = "src") -> None:
    """``dst = op.formula(src)`` for the exact unary ops (Abs, Neg, Relu); masked-off lanes 0."""
    form = (type(dst), type(src), type(mask))
    if form in op._forms:  # these operand classes passed every check before
        dst.put_known(cmp.zero_masked(op.formula(src.get()), operands.lane_enables(mask, dst)))
        return
    d, s = vectors(op, (dst, "dst"), (src, role))
    d.put(cmp.zero_masked(op.formula(s.get()), enables(op, mask, d)))
    op._forms.add(form)


def scalar_binary(
    op: Any,
    dst: Any,
    src: Any,
    scalar: Any,
    mask: Any,
    *,
    roles: tuple[str, str] = ("src", "value"),
) -> None:
    """``dst = op.formula(src, scalar)`` (``Reg.Adds``, ``asc_add_scalar``, ...); masked-off 0.

    The scalar is converted to the register's element type (an integer outside its range, or a
    float for an integer type, is an error); a register in its place names the vector twin.
    """
    form = (type(dst), type(src), type(scalar), type(mask))
    if form in op._forms:  # these operand classes passed every check before
        value = operands.template_scalar(op, scalar, dst.dtype, roles[1])  # (each call: via U)
        lanes = arith.fill(value, dst.dtype.np_dtype, dst.lanes)
        active = operands.lane_enables(mask, dst)
        dst.put_known(cmp.zero_masked(op.formula(src.get(), lanes), active))
        return
    d, s = vectors(op, (dst, "dst"), (src, roles[0]))
    if isinstance(scalar, RegTensor | MaskReg):
        vector = op.name.removesuffix("s").removesuffix("_scalar")
        raise AscregTypeError(
            f"{op.name} takes a scalar, got {type(scalar).__name__} (use {vector})"
        )
    value = arith.fill(operands.template_scalar(op, scalar, d.dtype, roles[1]), d.dtype.np_dtype,
                       d.lanes)  # fmt: skip
    d.put(cmp.zero_masked(op.formula(s.get(), value), enables(op, mask, d)))
    op._forms.add(form)


def reduction(op: Any, dst: Any, src: Any, mask: Any, *, kind: str, rule: Any) -> None:
    """``dst = op.reducer(kind, src, enables, dst type, dst lanes)``; *rule* the legal pairs.

    The reductions (``Reg.Reduce``, ``Reg.ReduceDataBlock``, ``Reg.PairReduceElem`` and their
    C twins): ``op.reducer`` is the row's core function (``ascreg.core.reduce``), *kind* its
    ``SUM``/``MAX``/``MIN``, *rule* the row (or per-kind row) whose (dst, src) pairs are legal.
    """
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    rule.check(d.dtype, s.dtype)
    if d.trait is not s.trait:
        raise AscregTypeError(
            f"dst {type(d).__name__} and src {type(s).__name__} use different RegTraits"
        )
    d.put(op.reducer(kind, s.get(), enables(op, mask, s), d.dtype.np_dtype, d.lanes))


def template_pair(op: Any, dst: Any, src: Any) -> None:
    """Check the written template dtypes ``T`` (dst) and ``U`` (src) against the registers."""
    for given, reg, role in zip(op.t.dtypes, (dst, src), ("T", "U"), strict=False):
        if isinstance(reg, RegTensor) and given is not reg.dtype:
            raise TemplateMismatchError(
                f"template dtype {role}={given.cpp_name} does not match the register "
                f"{type(reg).__name__} (C++: static_assert '{role} type is not correct!')"
            )


def halves(op: Any, dst: Any, src: Any, *, high: bool) -> None:
    """``Pack`` / ``UnPack`` of one half: ``op.formula`` (``core.pack``) on registers or masks.

    ``op.formula(values, target, lanes, high=)`` narrows or widens register lanes;
    ``op.mask_formula(bits, high=)`` is the MaskReg form. A 64-bit RegTraitNumTwo register
    fills or takes the whole other register, so only the low half (LOWEST) exists for it.
    """
    if isinstance(dst, MaskReg) or isinstance(src, MaskReg):
        operands.mask(dst, "dst", op.surface)
        dst.set_bits(op.mask_formula(mask_bits(op, src, "src"), high=high))
        return
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    op.spec.check(d.dtype, s.dtype)
    if high and max(d.lanes, s.lanes) == min(d.lanes, s.lanes):
        raise AscregTypeError(
            f"{op.name}: a RegTraitNumTwo register supports HighLowPart.LOWEST only, "
            f"got HIGHEST for {type(d).__name__} <- {type(s).__name__}"
        )
    d.put(op.formula(s.get(), d.dtype.np_dtype, d.lanes, high=high))


def gather(op: Any, dst: Any, src: Any, index: Any, legal: Any = None) -> None:
    """``dst[i] = src[index[i] % lanes]``: *index* an unsigned register of the data's width.

    *legal* checks (dst, src, index) dtypes when the row also has other forms (``asc_gather``);
    by default the row's (T, U) pairs are checked.
    """
    d, s = vectors(op, (dst, "dst"), (src, "src"), check=False)
    i = operands.register(index, "index", op.surface)
    if len(op.t.dtypes) > 1 and op.t.dtypes[1] is not i.dtype:
        raise TemplateMismatchError(
            f"template dtype U={op.t.dtypes[1].cpp_name} does not match the index register "
            f"{type(i).__name__} (C++: static_assert 'Gather U data type is not correct')"
        )
    if legal is None:
        op.spec.check(d.dtype, i.dtype)
    else:
        legal(d.dtype, s.dtype, i.dtype)
    d.put(rearrange.gather(s.get(), i.get()))


def squeeze(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """Pack the lanes of *src* that *mask* selects into *dst* from lane 0 up; the tail is 0."""
    d, s = vectors(op, (dst, "dst"), (src, "src"))
    d.put(rearrange.squeeze(s.get(), enables(op, mask, s)))


# ---- compound and carry arithmetic (AbsSub, MulAddDst, MulDstAdd, Axpy, ExpSub, Mull, AddC) ----


def zeroing_only(op: Any) -> None:
    """Reject ``MaskMergeMode.MERGING`` (the compound ops static_assert ZEROING on dav-3510)."""
    merge = op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING)
    if merge is not MaskMergeMode.ZEROING:
        raise AscregTypeError(
            f"{op.name} supports MaskMergeMode.ZEROING only on dav-3510, not {merge.name} "
            "(C++: static_assert 'only supported Mode ZEROING')"
        )


def ternary(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``dst = op.formula(src0, src1, dst)`` (the fused multiply-adds); masked-off lanes 0."""
    form = (type(dst), type(src0), type(src1), type(mask))
    if form in op._forms:  # these operand classes passed every check before
        result = op.formula(src0.get(), src1.get(), dst.get())
        dst.put_known(cmp.zero_masked(result, operands.lane_enables(mask, dst)))
        return
    zeroing_only(op)
    d, a, b = vectors(op, (dst, "dst"), (src0, "src0"), (src1, "src1"))
    d.put(cmp.zero_masked(op.formula(a.get(), b.get(), d.get()), enables(op, mask, d)))
    op._forms.add(form)


def axpy(op: Any, dst: Any, src: Any, scalar: Any, mask: Any) -> None:
    """``dst = scalar * src + dst`` (fused); the scalar converted to the lane type."""
    zeroing_only(op)
    d, s = vectors(op, (dst, "dst"), (src, "src"))
    if isinstance(scalar, RegTensor | MaskReg):
        raise AscregTypeError(f"{op.name} takes a scalar, got {type(scalar).__name__}")
    value = arith.fill(operands.template_scalar(op, scalar, d.dtype), d.dtype.np_dtype, d.lanes)
    d.put(cmp.zero_masked(op.formula(s.get(), value, d.get()), enables(op, mask, d)))


def exp_sub_part(op: Any) -> int:
    """Return the source lane ``ExpSub`` reads of each pair (``RegLayout`` ZERO or ONE)."""
    layout = op.t.enum(RegLayout, RegLayout.ZERO)
    if layout not in (RegLayout.ZERO, RegLayout.ONE):
        raise AscregTypeError(
            f"{op.name} supports RegLayout.ZERO and RegLayout.ONE only, not {layout.name}"
        )
    return int(layout)


def exp_sub(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``dst = exp(f32(src0) - f32(src1))``: float32 lanes from float or half sources.

    ``op.part`` (0 or 1) picks the half source lane of each pair (``RegLayout``, the C
    ``asc_exp_sub`` / ``asc_exp_sub_v2``); it is ignored for float sources.
    """
    zeroing_only(op)
    d = operands.register(dst, "dst", op.surface)
    a = operands.register(src0, "src0", op.surface)
    b = operands.register(src1, "src1", op.surface)
    operands.same_type(op.surface, a, b)
    template_pair(op, d, a)
    op.spec.check(d.dtype, a.dtype)
    part = exp_sub_part(op) if op.surface is operands.REG else op.part
    d.put(compound.exp_sub(a.get(), b.get(), enables(op, mask, a), part=part))


def mull(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``dst0, dst1 = low, high word of src0 * src1``; masked-off lanes 0 in both."""
    d0, d1, a, b = vectors(op, (dst0, "dst0"), (dst1, "dst1"), (src0, "src0"), (src1, "src1"))
    low, high = compound.widening_multiply(a.get(), b.get())
    active = enables(op, mask, d0)
    d0.put(cmp.zero_masked(low, active))
    d1.put(cmp.zero_masked(high, active))


def carry_sum(
    op: Any, carry: Any, dst: Any, src0: Any, src1: Any, carry_src: Any, mask: Any, *, tag: str
) -> None:
    """``{carry, dst} = src0 + src1 + carry_src`` (``op.subtract``: ``src0 + ~src1 + ...``).

    *carry_src* None is the carry-out overload of ``Add``/``Sub`` (carry in 0 for a sum, 1 for
    a difference, so ``Sub`` is the plain difference). *tag* names the row's form whose
    ``dtypes`` the registers must match (``"carry"``: int32/uint32 only).
    """
    out = operands.mask(carry, "carry", op.surface)
    d, a, b = vectors(op, (dst, "dst"), (src0, "src0"), (src1, "src1"))
    form = next(f for f in op.spec.shape.forms if f.tag == tag)
    if not form.applies((d.dtype,)):
        legal = ", ".join(t.cpp_name for t in form.dtypes or ())
        raise IllegalDtypeError(
            f"the carry overload takes {legal}, not {d.dtype.cpp_name}", call=op.name
        )
    if op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) is not MaskMergeMode.ZEROING:
        raise AscregTypeError(f"the carry overload of {op.name} has no MaskMergeMode")
    active = enables(op, mask, d)
    if carry_src is None:
        carry_in = np.full(d.lanes, op.subtract, dtype=np.uint64)
    else:
        carry_in = operands.lane_enables(operands.mask(carry_src, "carry_src", op.surface), d)
    total, bits = compound.add_with_carry(
        a.get(), b.get(), carry_in.astype(np.uint64), active,
        subtract=op.subtract, stride=d.mask_stride,
    )  # fmt: skip
    d.put(total)
    out.set_bits(bits)


def binary_or_carry(op: Any, dst: Any, src0: Any, src1: Any, mask: Any, *carry_form: Any) -> None:
    """``Add``/``Sub``: :func:`binary`, or with five arguments the carry-out overload.

    ``Op(dst, src0, src1, mask)`` or ``Op(carry, dst, src0, src1, mask)`` (C++ overloads).
    """
    if not carry_form:
        binary(op, dst, src0, src1, mask)
        return
    if len(carry_form) > 1:
        raise AscregTypeError(f"{op.name} takes 4 or 5 arguments, got {4 + len(carry_form)}")
    carry_sum(op, dst, src0, src1, mask, None, carry_form[0], tag="carry")

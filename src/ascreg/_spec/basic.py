"""The rows of the memory-level basic API (``ascreg.basic``): vector ops on ``LocalTensor``.

On the Ascend 950 every memory-level vector op is a VF that runs the register op of the same
name repeat by repeat (the pages say so: "该接口通过VF调用Reg矢量计算API实现兼容"), so each row names
the same core function as its register twin and shares its family. The dtypes are the pages'
Ascend 950PR/950DT lists (complex32, complex64 and double are not emulated); a type the page
allows in "tensor前n个数据计算" (the count form) only is absent from the repeat forms' ``dtypes``.

Three call forms recur, one :class:`~ascreg._spec.shapes.BasicForm` each:

* ``count``: ``Op(dst, src..., count)``, the first *count* elements;
* ``mask bits``: ``Op(dst, src..., mask[], repeatTime, repeatParams)``, a bit per lane;
* ``mask count``: ``Op(dst, src..., mask, repeatTime, repeatParams)``, the first *mask* lanes
  of each repeat.

Examples
--------
>>> from ascreg._spec import SPECS
>>> row = SPECS["basic.Adds"]
>>> row.spelling, row.family, row.core
('Adds', 'Adds', 'ascreg.core.arith:BINARY_OPS.Add')
>>> [form.tag for form in row.shape.forms if form.applies((row.combos[0][0],))]
['count']
"""

from __future__ import annotations

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec.dtypes import Combos, singles
from ascreg._spec.row import BASIC_QUALIFIER, MaskRule, OpSpec
from ascreg._spec.shapes import BasicForm, BasicShape
from ascreg.enums import RoundMode

_DOCS = "docs/zh/api/SIMD-API/基础API/Memory矢量计算/"
_CORE = "ascreg.core."
_MODULE = "basic/_vector"

INTS = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t)
"""The integer element types, in the pages' order."""
B16_B32 = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""The 16- and 32-bit types the repeat forms of ``Add``, ``Sub``, ``Max``, ``Min`` take."""

# ---- parameter annotations (stub spellings; {T0} is the first dtype, {S0} its scalar type) -------
TENSOR = "LocalTensor[{T0}]"
COUNT = ("count", "_IntLike")
MASK_BITS = (("mask", "Sequence[_IntLike]"), ("repeatTime", "_IntLike"))
MASK_COUNT = (("mask", "_IntLike"), ("repeatTime", "_IntLike"))
UNARY_PARAMS = ("repeatParams", "UnaryRepeatParams | tuple[_IntLike, ...]")
BINARY_PARAMS = ("repeatParams", "BinaryRepeatParams | tuple[_IntLike, ...]")


def forms(
    operands: tuple[tuple[str, str], ...],
    repeat: tuple[type[Scalar], ...] | None,
    params: tuple[str, str],
    *,
    tail: tuple[tuple[str, str], ...] = (),
) -> tuple[BasicForm, ...]:
    """Return the count form, then the two repeat forms (only for *repeat* dtypes; none if empty).

    *operands* are the tensors and scalars before the count or mask; *params* the repeat-stride
    struct of the repeat forms; *tail* parameters after it (``ShiftRight``'s ``roundEn``).

    Examples
    --------
    >>> [f.tag for f in forms((("dst", TENSOR),), (half,), UNARY_PARAMS)]
    ['count', 'mask bits', 'mask count']
    >>> [f.tag for f in forms((("dst", TENSOR),), (), UNARY_PARAMS)]
    ['count']
    """
    count = BasicForm("count", (*operands, COUNT))
    if repeat == ():
        return (count,)
    return (
        count,
        BasicForm("mask bits", (*operands, *MASK_BITS, params, *tail), dtypes=repeat),
        BasicForm("mask count", (*operands, *MASK_COUNT, params, *tail), dtypes=repeat),
    )


def _row(
    name: str,
    page: str,
    roles: tuple[str, ...],
    combos: Combos,
    shape_forms: tuple[BasicForm, ...],
    core: str,
    *,
    family: str | None = None,
    mask: MaskRule = MaskRule.STORE,
    module: str = _MODULE,
    docs: str = _DOCS,
) -> OpSpec:
    return OpSpec(
        BASIC_QUALIFIER + name,
        f"AscendC::{name}",
        roles,
        combos,
        mask,
        docs + page,
        surface="basic",
        family=family or name,
        shape=BasicShape(module, name, shape_forms),
        core=core,
    )


# ---- unary: Op(dst, src, ...) with UnaryRepeatParams -------------------------------------------
UNARY_OPS: dict[str, tuple[str, tuple[type[Scalar], ...], tuple[type[Scalar], ...], str]] = {
    "Abs": ("基础算术/Abs.md", (int8_t, int16_t, half, int32_t, float32_t, int64_t),
            (int16_t, half, int32_t, float32_t), "arith:abs_lanes"),
    "Relu": ("基础算术/Relu.md", (half, int32_t, float32_t, int64_t), (half, int32_t, float32_t),
             "arith:relu_lanes"),
    "Exp": ("基础算术/Exp.md", (half, float32_t), (half, float32_t), "elementary:UNARY_OPS.Exp"),
    "Ln": ("基础算术/Ln.md", (half, float32_t), (half, float32_t), "elementary:UNARY_OPS.Ln"),
    "Sqrt": ("基础算术/Sqrt.md", (half, float32_t), (half, float32_t),
             "elementary:UNARY_OPS.Sqrt"),
    "Reciprocal": ("基础算术/Reciprocal.md", (half, float32_t, int64_t, uint64_t),
                   (half, float32_t), "composite:reciprocal"),
    "Rsqrt": ("基础算术/Rsqrt.md", (half, float32_t), (half, float32_t), "composite:rsqrt"),
    "Not": ("逻辑计算/Not.md", (int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t,
                              float32_t, int64_t, uint64_t),
            (int16_t, uint16_t, half, int32_t, uint32_t, float32_t), "composite:bitwise_not"),
    "Neg": ("基础算术/Neg(ISASI).md", (int8_t, int16_t, half, int32_t, float32_t, int64_t), (),
            "arith:neg_lanes"),
}  # fmt: skip
"""``name: (page, count-form dtypes, repeat-form dtypes, core)``; repeat forms take
``UnaryRepeatParams``."""

# ---- binary: Op(dst, src0, src1, ...) with BinaryRepeatParams ----------------------------------
BINARY_OPS: dict[str, tuple[str, tuple[type[Scalar], ...], tuple[type[Scalar], ...], str]] = {
    "Add": ("基础算术/Add.md", (*INTS[:4], half, bfloat16_t, int32_t, uint32_t, float32_t,
                              int64_t, uint64_t), B16_B32, "arith:BINARY_OPS.Add"),
    "Sub": ("基础算术/Sub.md", (*INTS[:4], half, bfloat16_t, int32_t, uint32_t, float32_t,
                              int64_t, uint64_t), B16_B32, "arith:BINARY_OPS.Sub"),
    "Mul": ("基础算术/Mul.md", (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
                              int64_t, uint64_t), B16_B32, "arith:BINARY_OPS.Mul"),
    "Div": ("基础算术/Div.md", (int16_t, uint16_t, half, int32_t, uint32_t, float32_t, int64_t,
                              uint64_t), (int16_t, uint16_t, half, int32_t, uint32_t, float32_t),
            "elementary:divide"),
    "Max": ("基础算术/Max.md", (*INTS[:4], half, bfloat16_t, int32_t, uint32_t, float32_t,
                              int64_t, uint64_t), B16_B32, "arith:BINARY_OPS.Max"),
    "Min": ("基础算术/Min.md", (*INTS[:4], half, bfloat16_t, int32_t, uint32_t, float32_t,
                              int64_t, uint64_t), B16_B32, "arith:BINARY_OPS.Min"),
    "And": ("逻辑计算/And.md", INTS, (int16_t, uint16_t, int32_t, uint32_t),
            "arith:BINARY_OPS.And"),
    "Or": ("逻辑计算/Or.md", INTS, (int16_t, uint16_t, int32_t, uint32_t), "arith:BINARY_OPS.Or"),
    "AddRelu": ("复合计算/AddRelu.md", (int16_t, half, float32_t, int64_t, uint64_t),
                (int16_t, half, float32_t), "composite:add_relu"),
    "SubRelu": ("复合计算/SubRelu.md", (int16_t, half, float32_t, int64_t, uint64_t),
                (int16_t, half, float32_t), "composite:sub_relu"),
    "FusedMulAdd": ("复合计算/FusedMulAdd.md", (half, bfloat16_t, float32_t, int64_t, uint64_t),
                    (half, bfloat16_t, float32_t), "compound:TERNARY_OPS.MulDstAdd"),
    "MulAddRelu": ("复合计算/MulAddRelu.md", (half, float32_t, int64_t, uint64_t),
                   (half, float32_t), "composite:mul_add_relu"),
    "Prelu": ("基础算术/Prelu(ISASI).md", (half, float32_t), (), "arith:prelu"),
    "AbsSub": ("复合计算/AbsSub(ISASI).md", (half, float32_t), (), "compound:abs_sub"),
}  # fmt: skip
"""``name: (page, count-form dtypes, repeat-form dtypes, core)``; repeat forms take
``BinaryRepeatParams``. ``FusedMulAdd`` and ``MulAddRelu`` read ``dst`` as a third source."""

ACCUMULATING = frozenset({"Add", "Sub", "Mul", "Max", "Min", "AddRelu", "SubRelu"})
"""The binary ops whose repeat forms may read in a later repeat what an earlier repeat wrote:
``dst`` overlapping ``src1`` only, with ``src1RepStride`` or ``dstRepStride`` 0, for half, int32_t
and float (the general address-overlap constraints of 通用说明和约束.md)."""
ACCUMULATING_TYPES = (half, int32_t, float32_t)
"""The types of the accumulating exception (:data:`ACCUMULATING`)."""

# ---- tensor and scalar: Op(dst, src0, src1, ...) with one of src0/src1 a scalar ------------------
SCALAR_OPS: dict[str, tuple[str, tuple[type[Scalar], ...], tuple[type[Scalar], ...], str]] = {
    "Adds": ("基础算术/Adds.md", (int8_t, uint8_t, int16_t, half, bfloat16_t, int32_t, float32_t,
                                int64_t, uint64_t), (int16_t, half, bfloat16_t, int32_t, float32_t),
             "arith:BINARY_OPS.Add"),
    "Subs": ("基础算术/Subs（灵活标量位置）.md", (int16_t, half, bfloat16_t, int32_t, float32_t,
                                          int64_t, uint64_t),
             (int16_t, half, bfloat16_t, int32_t, float32_t), "arith:BINARY_OPS.Sub"),
    "Muls": ("基础算术/Muls.md", (int16_t, half, bfloat16_t, int32_t, float32_t, int64_t, uint64_t),
             (int16_t, half, bfloat16_t, int32_t, float32_t), "arith:BINARY_OPS.Mul"),
    "Divs": ("基础算术/Divs（灵活标量位置）.md", (half, float32_t, int64_t, uint64_t),
             (half, float32_t), "elementary:divide"),
    "Maxs": ("基础算术/Maxs.md", (int8_t, uint8_t, int16_t, half, bfloat16_t, int32_t, float32_t,
                                int64_t, uint64_t), (int16_t, half, bfloat16_t, int32_t, float32_t),
             "arith:BINARY_OPS.Max"),
    "Mins": ("基础算术/Mins.md", (int8_t, uint8_t, int16_t, half, bfloat16_t, int32_t, float32_t,
                                int64_t, uint64_t), (int16_t, half, bfloat16_t, int32_t, float32_t),
             "arith:BINARY_OPS.Min"),
    "Ands": ("逻辑计算/Ands.md", (int16_t, uint16_t, int64_t, uint64_t), (int16_t, uint16_t),
             "arith:BINARY_OPS.And"),
    "Ors": ("逻辑计算/Ors.md", (int16_t, uint16_t, int64_t, uint64_t), (int16_t, uint16_t),
            "arith:BINARY_OPS.Or"),
    "LeakyRelu": ("基础算术/LeakyRelu.md", (half, float32_t), (half, float32_t),
                  "arith:BINARY_OPS.Prelu"),
}  # fmt: skip
"""``name: (page, count-form dtypes, repeat-form dtypes, core)``: the tensor-and-scalar ops (the
"灵活标量位置" forms: either source may be the scalar, or a LocalTensor whose element 0 is it).
Repeat forms take ``UnaryRepeatParams``."""
SHIFT_PAIRS = ((int8_t, int8_t), (uint8_t, int8_t), (int16_t, int16_t), (uint16_t, int16_t),
               (int32_t, int32_t), (uint32_t, int32_t), (int64_t, int64_t), (uint64_t, int64_t))  # fmt: skip
"""``ShiftLeft`` / ``ShiftRight``: ``(T, U)``, U the signed type of a per-element count tensor
(ShiftLeft（左移位数为Tensor）.md); the scalar forms take the count as ``T``."""
SHIFT_REPEAT = (int16_t, uint16_t, int32_t, uint32_t)
"""The types of the shifts' repeat forms."""
# ---- fills: Op(dst, value, ...) with (dstBlockStride, dstRepeatStride) in the repeat forms -------
FILL_OPS: dict[str, tuple[str, tuple[type[Scalar], ...], tuple[type[Scalar], ...], str]] = {
    "Duplicate": ("数据填充/Duplicate.md", (bool_, int8_t, uint8_t, fp4x2_e2m1_t, fp4x2_e1m2_t,
                                         hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t, int16_t,
                                         uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
                                         int64_t, uint64_t), B16_B32, "arith:fill"),
    "CreateVecIndex": ("数据填充/CreateVecIndex.md", (int8_t, int16_t, half, int32_t, float32_t,
                                                   int64_t), (int16_t, half, int32_t, float32_t),
                       "arith:arange"),
}  # fmt: skip
"""``name: (page, count-form dtypes, repeat-form dtypes, core)``: ``Duplicate`` (the value, or
element 0 of a LocalTensor in the count form) and ``CreateVecIndex`` (``firstValue + i``)."""
FILL_STRIDES = (("dstBlockStride", "_IntLike"), ("dstRepeatStride", "_IntLike"))


def _unary_rows() -> list[OpSpec]:
    operands = (("dst", TENSOR), ("src", TENSOR))
    return [
        _row(name, page, ("T",), singles(*count), forms(operands, repeat, UNARY_PARAMS),
             _CORE + core)
        for name, (page, count, repeat, core) in UNARY_OPS.items()
    ]  # fmt: skip


def _binary_rows() -> list[OpSpec]:
    operands = (("dst", TENSOR), ("src0", TENSOR), ("src1", TENSOR))
    return [
        _row(name, page, ("T",), singles(*count), forms(operands, repeat, BINARY_PARAMS),
             _CORE + core)
        for name, (page, count, repeat, core) in BINARY_OPS.items()
    ]  # fmt: skip


def _scalar_rows() -> list[OpSpec]:
    either = f"{TENSOR} | {{S0}}"
    operands = (("dst", TENSOR), ("src0", either), ("src1", either))
    return [
        _row(name, page, ("T",), singles(*count), forms(operands, repeat, UNARY_PARAMS),
             _CORE + core)
        for name, (page, count, repeat, core) in SCALAR_OPS.items()
    ]  # fmt: skip


def _shift_rows() -> list[OpSpec]:
    scalar = (("dst", TENSOR), ("src", TENSOR), ("scalarValue", "{S0}"))
    rows = []
    for name in ("ShiftLeft", "ShiftRight"):
        tail = (("roundEn", "bool"),) if name == "ShiftRight" else ()
        shape_forms = (
            *forms(scalar, SHIFT_REPEAT, UNARY_PARAMS),
            *(forms(scalar, SHIFT_REPEAT, UNARY_PARAMS, tail=tail)[1:] if tail else ()),
            BasicForm("count tensor", (("dst", TENSOR), ("src0", TENSOR),
                                       ("src1", "LocalTensor[{T1}]"), COUNT)),
        )  # fmt: skip
        rows.append(_row(name, f"逻辑计算/{name}.md", ("T", "U"), SHIFT_PAIRS, shape_forms,
                         _CORE + "shifts:zeroing_shift"))  # fmt: skip
    return rows


# ---- conversions ------------------------------------------------------------------------------
_R5 = (RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL, RoundMode.CAST_ROUND,
       RoundMode.CAST_TRUNC)  # fmt: skip
_NONE = (RoundMode.CAST_NONE,)
_HIF8 = (RoundMode.CAST_ROUND, RoundMode.CAST_HYBRID)
MEMORY_CASTS: dict[tuple[type[Scalar], type[Scalar]], tuple[RoundMode, ...]] = {
    (int8_t, int16_t): _NONE, (int8_t, half): _NONE, (int8_t, int32_t): _NONE,
    (uint8_t, uint16_t): _NONE, (uint8_t, half): _NONE, (uint8_t, uint32_t): _NONE,
    (hifloat8_t, half): _NONE, (hifloat8_t, float32_t): _NONE, (fp8_e5m2_t, float32_t): _NONE,
    (fp8_e4m3fn_t, float32_t): _NONE, (int16_t, uint8_t): _NONE, (int16_t, half): _R5,
    (int16_t, int32_t): _NONE, (int16_t, uint32_t): _NONE, (int16_t, float32_t): _NONE,
    (uint16_t, uint8_t): _NONE, (uint16_t, uint32_t): _NONE, (half, int8_t): _R5,
    (half, uint8_t): _R5, (half, hifloat8_t): _HIF8, (half, int16_t): _R5, (half, bfloat16_t): _R5,
    (half, int32_t): _R5, (half, float32_t): _NONE, (bfloat16_t, half): _R5,
    (bfloat16_t, int32_t): _R5, (bfloat16_t, float32_t): _NONE, (int32_t, uint8_t): _NONE,
    (int32_t, int16_t): _NONE, (int32_t, uint16_t): _NONE, (int32_t, half): (*_NONE, *_R5, RoundMode.CAST_ODD, RoundMode.CAST_HYBRID),
    (int32_t, float32_t): _R5, (int32_t, int64_t): _NONE, (uint32_t, uint8_t): _NONE,
    (uint32_t, int16_t): _NONE, (uint32_t, uint16_t): _NONE, (float32_t, hifloat8_t): _HIF8,
    (float32_t, fp8_e5m2_t): (RoundMode.CAST_RINT,), (float32_t, fp8_e4m3fn_t): (RoundMode.CAST_RINT,),
    (float32_t, int16_t): _R5, (float32_t, half): (*_R5, RoundMode.CAST_ODD, RoundMode.CAST_NONE),
    (float32_t, bfloat16_t): _R5, (float32_t, int32_t): _R5, (float32_t, float32_t): _R5,
    (float32_t, int64_t): _R5, (int64_t, int32_t): _NONE, (int64_t, float32_t): _R5,
}  # fmt: skip
"""``(src, dst): round modes`` of the Cast page's Ascend 950 table, in its order (the 4-bit,
complex and double pairs are not emulated). ``int32_t -> half`` takes any mode and ignores it
(the ``SetDeqScale`` path)."""
CAST_NONE_AS_RINT = frozenset({(half, int8_t), (half, uint8_t), (int16_t, half),
                               (int32_t, float32_t)})  # fmt: skip
"""Pairs whose ``CAST_NONE`` the 950 implementation also takes, rounding as ``CAST_RINT``
(``using_cast_rint`` in ``kernel_operator_vec_vconv_impl.h``); the page's table lists it for
``float -> half`` only."""
CAST_WIDE = frozenset(pair for pair in MEMORY_CASTS if 8 in (pair[0].size, pair[1].size))
"""The pairs with a 64-bit side: the count form only here (their repeat forms are not
modelled)."""
TRUNCATE_TYPES = (half, float32_t, bfloat16_t)
"""``Truncate``'s types (the ISASI page)."""


_FUSED_PAIRS = ((int8_t, half), (int8_t, int16_t), (half, float32_t), (float32_t, int64_t),
                (int32_t, int64_t))  # fmt: skip
FUSED_CASTS: dict[str, tuple[str, tuple[tuple[type[Scalar], ...], ...], str]] = {
    "AddReluCast": ("复合计算/AddReluCast.md", _FUSED_PAIRS, "composite:add_relu"),
    "SubReluCast": ("复合计算/SubReluCast.md", _FUSED_PAIRS, "composite:sub_relu"),
    "MulCast": ("复合计算/MulCast.md", ((int8_t, half), (uint8_t, half), (float32_t, int64_t),
                                      (int32_t, int64_t)), "arith:BINARY_OPS.Mul"),
}  # fmt: skip
"""``name: (page, (dst, src) pairs, the source-type arithmetic's core)``: ``dst = Cast(f(src0,
src1))``, the arithmetic in the source type, then the register ``Cast`` with ``CastTrait{ZERO,
SAT, ZEROING, CAST_RINT}`` (``kernel_operator_vec_vconv_impl.h`` / ``_mulcast_impl.h``;
``int16_t -> int8_t`` goes through half). The pages' 950 tables; the pairs with an int64_t
source take the count form only (the pages' note; the implementation's repeat forms
static_assert them)."""
EXP_SUB_PAIRS = ((float32_t, half), (float32_t, float32_t))
"""``ExpSub<T, U>``'s ``(dst, src)`` pairs: the page's "half, float" as the 950 implementation
takes them (``FusedExpSubImpl``: src half / float, dst float)."""


CAST_DEQUANT_PAIRS = ((half, int32_t), (int8_t, int16_t), (uint8_t, int16_t))
"""``CastDequant<T, U>``'s ``(dst, src)`` pairs on the 950 (its page's table)."""


def _fused_rows() -> list[OpSpec]:
    operands = (("dst", TENSOR), ("src0", "LocalTensor[{T1}]"), ("src1", "LocalTensor[{T1}]"))
    rows = []
    for name, (page, pairs, core) in FUSED_CASTS.items():
        narrow = tuple(p for p in pairs if p[1].size < 8)
        shape_forms = (
            BasicForm("count", (*operands, COUNT)),
            BasicForm("mask bits", (*operands, *MASK_BITS, BINARY_PARAMS), combos=narrow),
            BasicForm("mask count", (*operands, *MASK_COUNT, BINARY_PARAMS), combos=narrow),
        )
        rows.append(_row(name, page, ("T", "U"), pairs, shape_forms, _CORE + core,
                         module="basic/_cast"))  # fmt: skip
    deq_forms = (
        BasicForm("count", (*operands, COUNT)),
        BasicForm("mask bits", (*operands, *MASK_BITS, BINARY_PARAMS)),
        BasicForm("mask count", (*operands, *MASK_COUNT, BINARY_PARAMS)),
    )
    rows.append(_row("AddDeqRelu", "复合计算/AddDeqRelu.md", ("T", "U"), ((half, int32_t),),
                     deq_forms, _CORE + "composite:add_deq_relu", module="basic/_cast"))  # fmt: skip
    unary = (("dst", TENSOR), ("src", "LocalTensor[{T1}]"))
    rows.append(_row("CastDequant", "复合计算/CastDequant.md", ("T", "U"), CAST_DEQUANT_PAIRS,
                     forms(unary, None, UNARY_PARAMS), _CORE + "composite:dequantize_to_half",
                     module="basic/_cast"))  # fmt: skip
    either = "LocalTensor[{T1}] | {S1}"
    rows += [
        _row("MulsCast", "复合计算/MulsCast(ISASI).md", ("T2", "T3"), ((half, float32_t),),
             (BasicForm("count", (("dst", TENSOR), ("src0", either), ("src1", either), COUNT)),),
             _CORE + "convert:muls_cast", module="basic/_cast"),
        _row("ExpSub", "复合计算/ExpSub(ISASI).md", ("T", "U"), EXP_SUB_PAIRS,
             (BasicForm("count", (*operands, COUNT)),), _CORE + "compound:exp_sub",
             module="basic/_cast"),
    ]  # fmt: skip
    return rows


def _conversion_rows() -> list[OpSpec]:
    combos = tuple((dst, src) for src, dst in MEMORY_CASTS)
    narrow = tuple((dst, src) for src, dst in MEMORY_CASTS if (src, dst) not in CAST_WIDE)
    operands = (("dst", TENSOR), ("src", "LocalTensor[{T1}]"), ("roundMode", "RoundMode"))
    shape_forms = (
        BasicForm("count", (*operands, COUNT)),
        BasicForm("mask bits", (*operands, *MASK_BITS, UNARY_PARAMS), combos=narrow),
        BasicForm("mask count", (*operands, *MASK_COUNT, UNARY_PARAMS), combos=narrow),
    )
    truncate = BasicForm("count", (("dst", TENSOR), ("src", TENSOR), COUNT))
    return [
        _row("Cast", "类型转换/Cast.md", ("dst", "src"), combos, shape_forms,
             _CORE + "convert:convert", module="basic/_cast"),
        _row("Truncate", "类型转换/Truncate(ISASI).md", ("T",), singles(*TRUNCATE_TYPES),
             (truncate,), _CORE + "convert:round_integral", module="basic/_cast"),
    ]  # fmt: skip


# ---- compare and select -------------------------------------------------------------------------
CMP_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
             int64_t, uint64_t)  # fmt: skip
"""``Compare`` / ``Compares`` / ``Select``'s element types (double and complex not emulated)."""
CMP_REPEAT = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""Their repeat forms' types (8- and 64-bit types have the count form only)."""
SEL_MASK_TYPES = (uint8_t, uint16_t, uint32_t, uint64_t)
"""``Select``'s ``selMask`` element types (the bits are what counts)."""


def _compare_rows() -> list[OpSpec]:
    mode = ("cmpMode", "CMPMODE")
    either = f"{TENSOR} | {{S0}}"
    compare = (("dst", "LocalTensor[{T1}]"), ("src0", TENSOR), ("src1", TENSOR), mode)
    compares = (("dst", "LocalTensor[{T1}]"), ("src0", either), ("src1", either), mode)
    select = (("dst", TENSOR), ("selMask", "LocalTensor[{T1}]"), ("src0", either),
              ("src1", either), ("selMode", "SELMODE"))  # fmt: skip
    pages = {"Compare": "比较与选择/Compare.md", "Compares": "比较与选择/Compares.md",
             "Select": "比较与选择/Select.md"}  # fmt: skip
    table = (
        ("Compare", compare, BINARY_PARAMS, (int8_t, uint8_t), "compare:compare"),
        ("Compares", compares, UNARY_PARAMS, (uint8_t,), "compare:compare"),
        ("Select", select, BINARY_PARAMS, SEL_MASK_TYPES, "compare:select"),
    )
    return [
        _row(name, pages[name], ("T", "U"), tuple((t, u) for t in CMP_TYPES for u in second),
             forms(operands, CMP_REPEAT, params), _CORE + core, module="basic/_select")
        for name, operands, params, second, core in table
    ]  # fmt: skip


def _fill_rows() -> list[OpSpec]:
    rows = []
    for name, (page, count, repeat, core) in FILL_OPS.items():
        value = f"{TENSOR} | {{S0}}" if name == "Duplicate" else "{S0}"
        first = (("dst", TENSOR), ("scalarValue" if name == "Duplicate" else "firstValue", value))
        scalar = (first[0], (first[1][0], "{S0}"))
        shape_forms = (
            BasicForm("count", (*first, COUNT)),
            BasicForm("mask bits", (*scalar, *MASK_BITS, *FILL_STRIDES), dtypes=repeat),
            BasicForm("mask count", (*scalar, *MASK_COUNT, *FILL_STRIDES), dtypes=repeat),
        )
        rows.append(_row(name, page, ("T",), singles(*count), shape_forms, _CORE + core))
    return rows


# ---- reductions ---------------------------------------------------------------------------------
PATTERN_DOCS = "docs/zh/api/SIMD-API/高阶API/归约操作/"
_MINMAX_PATTERN = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float32_t, int64_t, uint64_t)  # fmt: skip
REDUCE_OPS: dict[str, tuple[str, tuple[type[Scalar], ...], tuple[type[Scalar], ...],
                            tuple[type[Scalar], ...]]] = {
    "ReduceSum": ("归约计算/ReduceSum.md", (half, float32_t, int32_t, uint32_t, int64_t, uint64_t),
                  (half, float32_t, int32_t, uint32_t),
                  (int32_t, uint32_t, float32_t, int64_t, uint64_t)),
    "ReduceMax": ("归约计算/ReduceMax.md", (int16_t, uint16_t, half, int32_t, uint32_t, float32_t,
                                          int64_t, uint64_t),
                  (int16_t, uint16_t, half, int32_t, uint32_t, float32_t), _MINMAX_PATTERN),
    "ReduceMin": ("归约计算/ReduceMin.md", (int16_t, uint16_t, half, int32_t, uint32_t, float32_t,
                                          int64_t, uint64_t),
                  (int16_t, uint16_t, half, int32_t, uint32_t, float32_t), _MINMAX_PATTERN),
}  # fmt: skip
"""``name: (page, count-form dtypes, repeat-form dtypes, pattern dtypes)``: the whole-tensor
reductions. Without a ``Pattern`` template argument they are the basic API's
(``kernel_operator_vec_reduce_intf.h``: ``Op(dst, src, sharedTmpBuffer, count)`` and the repeat
forms with ``srcRepStride``; ``ReduceMax`` / ``ReduceMin`` add ``calIndex``); with
``Pattern.Reduce.AR`` / ``RA`` the advanced API's 2-D reductions (高阶API/归约操作, the pattern
forms ``Op[T, pattern, isReuseSource](dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``)."""
LOGICAL_REDUCE_OPS = {
    "ReduceAll": ("ReduceAll接口/ReduceAll.md", "MIN", (uint8_t, float32_t)),
    "ReduceAny": ("ReduceAny接口/ReduceAny.md", "MAX", (uint8_t, float32_t)),
    "ReduceProd": ("ReduceProd接口/ReduceProd.md", "PROD", (float32_t,)),
}
"""``name: (page, the fold's register op, types)``: the advanced API's ``ReduceAll`` /
``ReduceAny`` / ``ReduceProd<T, pattern, isReuseSource>`` (AR / RA, 32-byte aligned rows): the
``Min`` / ``Max`` / ``Mul`` folds of ``reduce_all/any/prod_3510_impl.h``."""
REPEAT_SUM_PAIRS = ((int32_t, int16_t), (int32_t, int32_t), (uint32_t, uint16_t),
                    (uint32_t, uint32_t), (half, half), (float32_t, float32_t))  # fmt: skip
"""``ReduceRepeat<ReduceType::SUM, T, U>``'s ``(dst, src)`` pairs on the 950 (MAX / MIN: T == U)."""
REPEAT_REDUCE_TYPES = (int16_t, uint16_t, half, int32_t, uint32_t, float32_t)
"""``ReduceRepeat``'s element types on the 950."""
REPEAT_REDUCE_OPS: dict[str, tuple[str, tuple[tuple[type[Scalar], ...], ...], bool]] = {
    "ReduceRepeat": ("归约计算/ReduceRepeat.md",
                     tuple(dict.fromkeys((*REPEAT_SUM_PAIRS,
                                          *((t, t) for t in REPEAT_REDUCE_TYPES)))), True),
    "ReduceDataBlock": ("归约计算/ReduceDataBlock.md", ((half, half), (float32_t, float32_t)),
                        False),
    "ReducePairElem": ("归约计算/ReducePairElem.md", ((half, half), (float32_t, float32_t)),
                       False),
}  # fmt: skip
"""``name: (page, (T, U) pairs, takes ReduceOrder)``: the per-repeat reductions
``Op<ReduceType, T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
srcRepStride[, order])``."""
REDUCE_CORES = {"ReduceRepeat": "reduce:reduce", "ReduceDataBlock": "reduce:reduce_blocks",
                "ReducePairElem": "reduce:pair_reduce"}  # fmt: skip
"""The core function of each per-repeat reduction (the register ``Reduce`` op it runs per repeat)."""
_WHOLE = ("mask", "repeatTime", "dstRepStride", "srcBlkStride", "srcRepStride")
_BLOCK = ("repeatTime", "mask", "dstRepStride", "srcBlkStride", "srcRepStride")
REDUCE_ALIASES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "WholeReduceSum": ("ReduceRepeat", "SUM", _WHOLE),
    "WholeReduceMax": ("ReduceRepeat", "MAX", (*_WHOLE, "order")),
    "WholeReduceMin": ("ReduceRepeat", "MIN", (*_WHOLE, "order")),
    "RepeatReduceSum": ("ReduceRepeat", "SUM", ("repeatTime", "mask", "dstBlkStride",
                                                "srcBlkStride", "dstRepStride", "srcRepStride")),
    "BlockReduceSum": ("ReduceDataBlock", "SUM", _BLOCK),
    "BlockReduceMax": ("ReduceDataBlock", "MAX", _BLOCK),
    "BlockReduceMin": ("ReduceDataBlock", "MIN", _BLOCK),
    "PairReduceSum": ("ReducePairElem", "SUM", _BLOCK),
}  # fmt: skip
"""The deprecated spellings (``kernel_operator_vec_reduce_intf_impl.h``): ``name: (op it forwards
to, reduce type, its parameters after dst and src)``. ``WholeReduceSum`` / ``RepeatReduceSum``
are ``<T, isSetMask, U = T>`` with a ``LocalTensor<U>`` dst and a ``LocalTensor<T>`` src; the
others take one ``T``. ``RepeatReduceSum``'s ``dstBlkStride`` is unused and its mask is the
count form only."""
_SHAPE = (("srcShape", "Sequence[_IntLike]"), ("srcInnerPad", "_BoolLike"))
_PARAM_TYPES = {"mask": "Sequence[_IntLike]", "order": "ReduceOrder = ..."}


def _reduce_rows() -> list[OpSpec]:
    shape_forms: tuple[BasicForm, ...]
    operands: tuple[tuple[str, str], ...]
    tmp = ("sharedTmpBuffer", TENSOR)
    stride = ("srcRepStride", "_IntLike")
    rows = []
    for name, (page, count, repeat, pattern) in REDUCE_OPS.items():
        index = (("calIndex", "_BoolLike = ..."),) if name != "ReduceSum" else ()
        operands = (("dst", TENSOR), ("src", TENSOR), tmp)
        shape_forms = (
            BasicForm("count", (*operands, COUNT, *index), dtypes=count),
            BasicForm("mask bits", (*operands, *MASK_BITS, stride, *index), dtypes=repeat),
            BasicForm("mask count", (*operands, *MASK_COUNT, stride, *index), dtypes=repeat),
            BasicForm("pattern", (("dst", TENSOR), ("src", TENSOR), *_SHAPE), dtypes=pattern),
            BasicForm("pattern tmp", (("dst", TENSOR), ("src", TENSOR),
                                      ("sharedTmpBuffer", "LocalTensor[uint8_t]"), *_SHAPE),
                      dtypes=pattern),
        )  # fmt: skip
        legal = tuple(t for t in _MINMAX_PATTERN if t in count + pattern)
        rows.append(_row(name, page, ("T",), singles(*legal), shape_forms,
                         _CORE + "reduce:reduce", module="basic/_reduce"))  # fmt: skip
    rows.append(_row("ReduceMean", "ReduceMean接口/ReduceMean.md", ("T",), singles(float32_t),
                     (BasicForm("pattern", (("dst", TENSOR), ("src", TENSOR), *_SHAPE)),
                      BasicForm("pattern tmp", (("dst", TENSOR), ("src", TENSOR),
                                                ("sharedTmpBuffer", "LocalTensor[uint8_t]"),
                                                *_SHAPE))),
                     _CORE + "reduce:reduce", module="basic/_reduce", docs=PATTERN_DOCS))  # fmt: skip
    for name, (page, _kind, types) in LOGICAL_REDUCE_OPS.items():
        shape_forms = (
            BasicForm("pattern", (("dst", TENSOR), ("src", TENSOR), *_SHAPE)),
            BasicForm("pattern tmp", (("dst", TENSOR), ("src", TENSOR),
                                      ("sharedTmpBuffer", "LocalTensor[uint8_t]"), *_SHAPE)),
        )  # fmt: skip
        rows.append(_row(name, page, ("T",), singles(*types), shape_forms,
                         _CORE + "reduce:reduce", module="basic/_reduce",
                         docs=PATTERN_DOCS))  # fmt: skip
    strides = (("dstRepStride", "_IntLike"), ("srcBlkStride", "_IntLike"),
               ("srcRepStride", "_IntLike"))  # fmt: skip
    operands = (("dst", TENSOR), ("src", "LocalTensor[{T1}]"))
    for name, (page, pairs, ordered) in REPEAT_REDUCE_OPS.items():
        order = (("order", _PARAM_TYPES["order"]),) if ordered else ()
        shape_forms = (
            BasicForm("mask bits", (*operands, *MASK_BITS, *strides, *order)),
            BasicForm("mask count", (*operands, *MASK_COUNT, *strides, *order)),
        )
        rows.append(_row(name, page, ("T", "U"), pairs, shape_forms,
                         _CORE + REDUCE_CORES[name], module="basic/_reduce"))  # fmt: skip
    for name, (target, kind, params) in REDUCE_ALIASES.items():
        page, pairs, _ = REPEAT_REDUCE_OPS[target]
        two = target == "ReduceRepeat" and kind == "SUM"  # <T, isSetMask, U>: src T, dst U
        dst, src = ("LocalTensor[{T1}]", TENSOR) if two else (TENSOR, TENSOR)
        tags = ("mask count",) if name == "RepeatReduceSum" else ("mask bits", "mask count")
        shape_forms = tuple(
            BasicForm(tag, (("dst", dst), ("src", src),
                            *((p, _PARAM_TYPES.get(p, "_IntLike") if p != "mask" or
                               tag == "mask bits" else "_IntLike") for p in params)))
            for tag in tags
        )  # fmt: skip
        combos = (tuple((u, t) for t, u in REPEAT_SUM_PAIRS) if two
                  else singles(*(p[0] for p in pairs if p[0] is p[1])))  # fmt: skip
        rows.append(_row(name, page, ("T", "U") if two else ("T",), combos, shape_forms,
                         _CORE + REDUCE_CORES[target], family=target,
                         module="basic/_reduce"))  # fmt: skip
    return rows


# ---- data movement and layout -------------------------------------------------------------------
COPY_TYPES = (int8_t, uint8_t, fp4x2_e2m1_t, fp4x2_e1m2_t, hifloat8_t, fp8_e8m0_t, fp8_e5m2_t,
              fp8_e4m3fn_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
              int64_t, uint64_t)  # fmt: skip
"""``Copy``'s types on the 950 (both pages)."""
COPY_REPEAT = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""The types of ``Copy``'s repeat forms: the 950 implementation takes 16- and 32-bit types only
("Copy from ubuf to ubuf only support type b16/b32"), though the page lists all."""
TRANS5HD_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                  float32_t)  # fmt: skip
"""``TransDataTo5HD``'s types on the 950."""


def _layout_rows() -> list[OpSpec]:
    copy_params = ("repeatParams", "CopyRepeatParams | tuple[_IntLike, ...]")
    operands = (("dst", TENSOR), ("src", TENSOR))
    params = ("nchwconvParams", "TransDataTo5HDParams | tuple[Any, ...]")
    to5hd = (
        BasicForm("address lists", (("dstList", "Sequence[_IntLike | UbPtr[Any]]"),
                                    ("srcList", "Sequence[_IntLike | UbPtr[Any]]"), params)),
        BasicForm("address tensors", (("dst", "LocalTensor[uint64_t]"),
                                      ("src", "LocalTensor[uint64_t]"), params)),
        BasicForm("tensor lists", (("dstList", "Sequence[LocalTensor[{T0}]]"),
                                   ("srcList", "Sequence[LocalTensor[{T0}]]"), params)),
    )  # fmt: skip
    return [
        _row("Copy", "数据搬运/Copy（UBToUB掩码式高维数据搬运）.md", ("T",), singles(*COPY_TYPES),
             forms(operands, COPY_REPEAT, copy_params), _CORE + "datamove:store",
             module="basic/_layout"),
        _row("TransDataTo5HD", "数据排布转换/TransDataTo5HD.md", ("T",), singles(*TRANS5HD_TYPES),
             to5hd, _CORE + "transpose:to_5hd", module="basic/_layout"),
    ]  # fmt: skip


# ---- mixed-type multiply-adds, rearrangement, broadcast, gather ---------------------------------
_MIXED = ((half, half), (float32_t, float32_t), (float32_t, half))
MIXED_OPS: dict[str, tuple[str, tuple[tuple[type[Scalar], ...], ...],
                           tuple[tuple[type[Scalar], ...], ...], str]] = {
    "MulAddDst": ("复合计算/MulAddDst.md", (*_MIXED, (int64_t, int64_t), (uint64_t, uint64_t)),
                  _MIXED, "compound:TERNARY_OPS.MulAddDst"),
    "Axpy": ("复合计算/Axpy.md", (*_MIXED, (int64_t, int64_t), (uint64_t, uint64_t),
                                (bfloat16_t, bfloat16_t)),
             (*_MIXED, (bfloat16_t, bfloat16_t)), "compound:TERNARY_OPS.Axpy"),
}  # fmt: skip
"""``name: (page, count-form (T, U) pairs, repeat-form pairs, core)``: ``dst`` (``T``) plus a
product of ``U`` values, ``half`` sources of a ``float`` dst converted exactly first
(``MulAddDst(dst, src0, src1, ...)``: ``src0 * src1 + dst``; ``Axpy(dst, src, scalar, ...)``:
``scalar * src + dst``), one rounding (the register ops' fused multiply-add)."""
REARRANGE_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float32_t, int64_t, uint64_t)  # fmt: skip
"""``Interleave`` / ``DeInterleave`` / ``Brcb`` / ``Gather`` / ``Scatter``'s types on the 950."""
GATHER_MASK_PAIRS = ((int8_t, uint8_t), (uint8_t, uint8_t), (int16_t, uint16_t),
                     (uint16_t, uint16_t), (half, uint16_t), (bfloat16_t, uint16_t),
                     (int32_t, uint32_t), (uint32_t, uint32_t), (float32_t, uint32_t))  # fmt: skip
"""``GatherMask``'s ``(T, U)`` pairs on the 950: ``src0`` / ``dst`` and the pattern tensor."""
GATHER_REPEAT = REARRANGE_TYPES[2:]
"""``Gather`` / ``Scatter``'s repeat-form types (8-bit types: the count form only)."""


def _misc_rows() -> list[OpSpec]:
    rows = []
    for name, (page, count, repeat, core) in MIXED_OPS.items():
        second = (
            (("src0", "LocalTensor[{T1}]"), ("src1", "LocalTensor[{T1}]"))
            if (name == "MulAddDst")
            else (("src", "LocalTensor[{T1}]"), ("scalarValue", "{S1}"))
        )
        params = BINARY_PARAMS if name == "MulAddDst" else UNARY_PARAMS
        operands = (("dst", TENSOR), *second)
        shape_forms = (
            BasicForm("count", (*operands, COUNT)),
            BasicForm("mask bits", (*operands, *MASK_BITS, params), combos=repeat),
            BasicForm("mask count", (*operands, *MASK_COUNT, params), combos=repeat),
        )
        rows.append(_row(name, page, ("T", "U"), count, shape_forms, _CORE + core))
    pair = (("dst0", TENSOR), ("dst1", TENSOR))
    rows += [
        _row("Mull", "基础算术/Mull(ISASI).md", ("T",), singles(int32_t, uint32_t),
             (BasicForm("count", (*pair, ("src0", TENSOR), ("src1", TENSOR), COUNT)),),
             _CORE + "compound:widening_multiply", module="basic/_layout"),
        _row("Interleave", "数据重排（ISASI）/Interleave.md", ("T",), singles(*REARRANGE_TYPES),
             (BasicForm("count", (*pair, ("src0", TENSOR), ("src1", TENSOR), COUNT)),),
             _CORE + "rearrange:interleave", module="basic/_layout"),
        _row("DeInterleave", "数据重排（ISASI）/DeInterleave.md", ("T",),
             singles(*REARRANGE_TYPES),
             (BasicForm("two sources", (*pair, ("src0", TENSOR), ("src1", TENSOR), COUNT)),
              BasicForm("one source", (*pair, ("src", TENSOR), ("srcCount", "_IntLike")))),
             _CORE + "rearrange:deinterleave", module="basic/_layout"),
        _row("Brcb", "数据填充/Brcb.md", ("T",), singles(*REARRANGE_TYPES),
             (BasicForm("repeat", (("dst", TENSOR), ("src", TENSOR), ("repeatTime", "_IntLike"),
                                   ("repeatParams", "BrcbRepeatParams | tuple[_IntLike, ...]"))),),
             _CORE + "arith:fill", module="basic/_layout"),
    ]  # fmt: skip
    offset = (
        ("dst", TENSOR),
        ("src", TENSOR),
        ("srcOffset", "LocalTensor[uint32_t]"),
        ("srcBaseAddr", "_IntLike"),
    )
    stride = ("dstRepStride", "_IntLike")
    rows.append(_row("Gather", "离散与聚合/Gather.md", ("T",), singles(*REARRANGE_TYPES),
                     (BasicForm("count", (*offset, COUNT)),
                      BasicForm("mask bits", (*offset, *MASK_BITS, stride), dtypes=GATHER_REPEAT),
                      BasicForm("mask count", (*offset, *MASK_COUNT, stride),
                                dtypes=GATHER_REPEAT)),
                     _CORE + "rearrange:gather", module="basic/_layout"))  # fmt: skip
    gather_mask = (("dst", TENSOR), ("src0", TENSOR))
    gather_mask_tail = (
        ("reduceMode", "bool"),
        ("mask", "_IntLike"),
        ("gatherMaskParams", "GatherMaskParams"),
        ("rsvdCnt", "Ref[Any]"),
    )
    rows.append(_row("GatherMask", "比较与选择/GatherMask.md", ("T", "U"), GATHER_MASK_PAIRS,
                     (BasicForm("pattern tensor",
                                (*gather_mask, ("src1Pattern", "LocalTensor[{T1}]"),
                                 *gather_mask_tail)),
                      BasicForm("fixed pattern",
                                (*gather_mask, ("src1Pattern", "_IntLike"), *gather_mask_tail))),
                     _CORE + "rearrange:gather_mask", module="basic/_layout"))  # fmt: skip
    scatter = (
        ("dst", TENSOR),
        ("src", TENSOR),
        ("dstOffset", "LocalTensor[uint32_t]"),
        ("dstBaseAddr", "_IntLike"),
    )
    src_stride = ("srcRepStride", "_IntLike")
    rows.append(_row("Scatter", "离散与聚合/Scatter(ISASI).md", ("T",), singles(*REARRANGE_TYPES),
                     (BasicForm("count", (*scatter, COUNT)),
                      BasicForm("mask bits", (*scatter, *MASK_BITS, src_stride),
                                dtypes=GATHER_REPEAT),
                      BasicForm("mask count", (*scatter, *MASK_COUNT, src_stride),
                                dtypes=GATHER_REPEAT)),
                     _CORE + "rearrange:scatter_index", module="basic/_layout"))  # fmt: skip
    return rows


BASIC_ROWS: tuple[OpSpec, ...] = (
    *_unary_rows(), *_binary_rows(), *_scalar_rows(), *_shift_rows(), *_fill_rows(),
    *_conversion_rows(), *_fused_rows(), *_compare_rows(), *_reduce_rows(), *_layout_rows(),
    *_misc_rows(),
)  # fmt: skip
"""Every row of the memory-level basic API, in table order."""

BASIC_NAMES = frozenset(row.name for row in BASIC_ROWS)
"""Names of the rows of the memory-level basic API (``ascreg.basic``; keyed ``basic.<name>``)."""

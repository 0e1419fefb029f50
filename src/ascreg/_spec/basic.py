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
) -> OpSpec:
    return OpSpec(
        BASIC_QUALIFIER + name,
        f"AscendC::{name}",
        roles,
        combos,
        mask,
        _DOCS + page,
        surface="basic",
        family=family or name,
        shape=BasicShape(_MODULE, name, shape_forms),
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


BASIC_ROWS: tuple[OpSpec, ...] = (
    *_unary_rows(), *_binary_rows(), *_scalar_rows(), *_shift_rows(), *_fill_rows()
)  # fmt: skip
"""Every row of the memory-level basic API, in table order."""

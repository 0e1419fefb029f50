"""The rows of the Reg surface (``AscendC::Reg``, ``ascreg.Reg``): one row per op object.

Each row carries its dtype facts, its call shape (the forms and subscripts of the op object) and
the function that does its work.

Examples
--------
>>> [row.name for row in REG_ROWS[:3]]
['Reg.CreateMask', 'Reg.UpdateMask', 'Reg.LoadAlign']
"""

from __future__ import annotations

from collections.abc import Mapping

from ascreg._dtypes import int16_t
from ascreg._spec.dtypes import (
    ABS_SUB_TYPES,
    ABS_TYPES,
    ADD_TYPES,
    ARANGE_TYPES,
    AXPY_TYPES,
    CARRY_TYPES,
    CMP_TYPES,
    DIV_TYPES,
    DUP_TYPES,
    EXP_SUB_COMBOS,
    GATHER_PAIRS,
    GATHERB_PAIRS,
    HISTOGRAM_PAIRS,
    INTERLEAVE_TYPES,
    LOGIC_TYPES,
    MASK_GEN_TYPES,
    MASK_TYPES,
    MATH_TYPES,
    MAXMIN_TYPES,
    MOVE_MASK_TYPES,
    MUL_ADD_DST_TYPES,
    MUL_DST_ADD_TYPES,
    MUL_TYPES,
    MULS_TYPES,
    NEG_TYPES,
    NOT_TYPES,
    PACK_COMBOS,
    PAIR_REDUCE_TYPES,
    PRELU_TYPES,
    REDUCE_BLOCK_COMBOS,
    REDUCE_COMBOS,
    REG_TYPES,
    RELU_TYPES,
    SCATTER_PAIRS,
    SELECT_TYPES,
    SHIFT_DATA,
    SHIFT_PAIRS,
    SQUEEZE_TYPES,
    UNPACK_COMBOS,
    UNSQUEEZE_TYPES,
    Combos,
    singles,
)
from ascreg._spec.row import MaskRule, OpSpec
from ascreg._spec.shapes import PLAIN_ONLY, Param, RegForm, RegShape, SubscriptPatterns, cxx

_DOCS = "docs/zh/api/SIMD-API/基础API/Reg矢量计算/"

# ---- call-shape builders ------------------------------------------------------------------------
MASK = Param("mask", "mask")
MASK_FORM = RegForm(
    "MaskReg operands",
    (Param("dst", "mask"), Param("src0", "mask"), Param("src1", "mask"), MASK),
    per_combo=False,
)
"""The bitwise MaskReg form of And/Or/Xor/Select: ``Op(MaskReg& dst, src0, src1, mask)``."""
MERGE: tuple[tuple[str, SubscriptPatterns], ...] = (("plain", cxx("T", "MaskMergeMode")),)
"""``Op<T, MaskMergeMode mode, U>`` (``U`` the register type): ``Op[T]``, ``Op[T, mode]``."""
SCALAR_MERGE: tuple[tuple[str, SubscriptPatterns], ...] = (
    ("plain", cxx("T", "U", "MaskMergeMode")),
)
"""``Op<T, U, MaskMergeMode mode, S>`` (``U`` the scalar's type): ``Op[T]``, ``Op[T, U]``,
``Op[T, U, mode]`` (kernel_reg_compute_vec_binary_scalar_intf.h)."""
DTYPES_MERGE: tuple[tuple[str, SubscriptPatterns], ...] = (
    ("plain", cxx("T", "T", "MaskMergeMode")),
)
"""``Op<T, U, MaskMergeMode mode, S, V>`` with ``U`` a second dtype of the row (the shift
count's type): ``Op[T]``, ``Op[T, U]``, ``Op[T, U, mode]``."""


def _regs(*names: str, kind: str = "regr", arg: int = 0) -> tuple[Param, ...]:
    return tuple(Param(n, kind, arg) for n in names)


def _shape(
    name: str,
    module: str,
    *forms: RegForm,
    subscripts: tuple[tuple[str, SubscriptPatterns], ...] = PLAIN_ONLY,
    needs_template: bool = False,
    positional: bool = False,
    lead: tuple[tuple[str, Combos], ...] = (),
    fixed: tuple[tuple[str, str], ...] = (),
) -> RegShape:
    """Build the shape of the op object ``name`` in ``reg/<module>`` (stub class ``_<name>``)."""
    return RegShape(
        f"reg/{module}",
        name,
        f"_{name}",
        forms,
        subscripts,
        needs_template=needs_template,
        positional=positional,
        lead=lead,
        fixed=fixed,
    )


def _binary(name: str, mask_form: bool) -> RegShape:
    """``Op(dst, src0, src1, mask)``, with the MaskReg form for the logic ops.

    ``Add`` and ``Sub`` also have the carry overload ``Op(MaskReg& carry, dst, src0, src1,
    mask)`` (int32/uint32 only).
    """
    form = RegForm("", (*_regs("dst", "src0", "src1"), MASK))
    extra = (MASK_FORM,) if mask_form else ()
    if name in ("Add", "Sub"):
        extra = (RegForm("carry", (Param("carry", "mask"), *_regs("dst", "src0", "src1"), MASK),
                         dtypes=CARRY_TYPES),)  # fmt: skip
    return _shape(name, "compute", form, *extra, subscripts=MERGE)


def _shift(name: str, scalar: bool) -> RegShape:
    """``Op(dst, src, count, mask)``: a register of counts, or one scalar count."""
    count = Param("count", "scalar", 1) if scalar else Param("count", "regr", 1)
    form = RegForm("", (*_regs("dst", "src"), count, MASK))
    return _shape(name, "compute", form, subscripts=DTYPES_MERGE)


def _scalar_op(name: str) -> RegShape:
    """``Adds``/``Muls``/``Maxs``/``Mins``: (dst, src, scalar, mask)."""
    form = RegForm("", (*_regs("dst", "src"), Param("scalar", "scalar"), MASK))
    return _shape(name, "arith", form, subscripts=SCALAR_MERGE)


def _unary(name: str) -> RegShape:
    return _shape(name, "arith", RegForm("", (*_regs("dst", "src"), MASK)), subscripts=MERGE)


def _precise(name: str, mode: str, binary: bool) -> RegShape:
    """``Op<T, mode>(dst, src[, src1], mask)``: *mode* a MaskMergeMode or a ``*SpecificMode``."""
    sources = _regs("src0", "src1") if binary else _regs("src")
    form = RegForm("", (Param("dst", "regr"), *sources, MASK))
    lists = (*cxx("T", "MaskMergeMode"), ("T", mode))  # Op<T, auto mode, U>
    return _shape(name, "arith", form, subscripts=(("plain", lists),))


def _reduce_row(
    name: str,
    combos: Mapping[str, Combos],
    enum: str,
    doc: str,
    core: str,
    fixed: tuple[tuple[str, str], ...] = (),
    lists: SubscriptPatterns = (),
) -> OpSpec:
    """``Reduce``-like rows: ``Op[<enum>.X, T, U, mode](dst, src, mask)``, combos per member.

    *fixed*: the older spellings with the lead member fixed (``RegShape.fixed``); *lists*: the
    template argument lists after the lead member.
    """
    union = tuple(dict.fromkeys(c for member in combos.values() for c in member))
    form = RegForm("", (Param("dst", "regr", 0), Param("src", "regr", 1), MASK))
    shape = _shape(name, "arith", form, subscripts=(("plain", lists),),
                   lead=tuple((f"{enum}.{k}", v) for k, v in combos.items()), fixed=fixed)  # fmt: skip
    return _reg(name, ("T", "U"), union, MaskRule.REDUCE, f"归约计算/{doc}", shape, _CORE + core)


def _pack_row(name: str, combos: Combos, core: str) -> OpSpec:
    """``Pack`` / ``UnPack<T, U, HighLowPart>(dst, src)``, and the MaskReg form ``Op<part>``."""
    forms = (
        RegForm("", (Param("dst", "regr", 0), Param("src", "regr", 1))),
        RegForm("MaskReg", (Param("dst", "mask"), Param("src", "mask")), per_combo=False),
    )
    lists = (*cxx("T", "T", "HighLowPart"), ("HighLowPart",))  # Op<T, U, part, S, V>, Op<part>
    shape = _shape(name, "rearrange", *forms, subscripts=(("plain", lists),))
    return _reg(name, ("T", "U"), combos, MaskRule.NONE, f"数据压缩/{name}.md", shape,
                f"{_CORE}pack:{core}")  # fmt: skip


def _precise_rows() -> tuple[OpSpec, ...]:
    """``Div``, ``Sqrt``, ``Exp`` and the logarithms: correctly rounded, FTZ by default."""
    rows = []
    for name, mode, types, core in (
        ("Div", "DivSpecificMode", DIV_TYPES, "divide"),
        ("Sqrt", "SqrtSpecificMode", MATH_TYPES, "square_root"),
        ("Exp", "ExpSpecificMode", MATH_TYPES, "elementary"),
        ("Ln", "LnSpecificMode", MATH_TYPES, "elementary"),
        ("Log", "LogSpecificMode", MATH_TYPES, "elementary"),
        ("Log2", "Log2SpecificMode", MATH_TYPES, "elementary"),
        ("Log10", "Log10SpecificMode", MATH_TYPES, "elementary"),
    ):
        rows.append(_reg(name, ("T",), singles(*types), MaskRule.ZEROING, f"基础算术/{name}.md",
                         _precise(name, mode, name == "Div"), f"{_CORE}elementary:{core}"))  # fmt: skip
    return tuple(rows)


def _interleave(name: str) -> RegShape:
    """No mask; 64-bit lanes only as RegTraitNumTwo registers (kind ``reg2``).

    The MaskReg form ``Op<T>(MaskReg& dst0, dst1, src0, src1)`` needs ``T`` written (b8/b16/b32:
    the bits moved together).
    """
    masks = RegForm("MaskReg", tuple(Param(n, "mask") for n in ("dst0", "dst1", "src0", "src1")),
                    deduced=False, per_combo=False)  # fmt: skip
    return _shape(
        name, "rearrange", RegForm("", _regs("dst0", "dst1", "src0", "src1", kind="reg2")), masks
    )


def _access_subscripts(dist: str) -> tuple[tuple[str, SubscriptPatterns], ...]:
    """Return the LoadAlign / StoreAlign lists (*dist*: ``"LoadDist"`` or ``"StoreDist"``).

    ``<T, dist, U>``, ``<T, MaskDist>``, ``<T, PostLiteral, dist | MaskDist, U>`` and the
    DataBlock lists ``<T, DataCopyMode[, PostLiteral], U>`` (kernel_reg_compute_datacopy_intf.h).
    """
    return (
        ("plain", (("T",), ("T", dist), ("T", "MaskDist"), ("T", "NORMAL"),
                   ("T", "NORMAL", dist), ("T", "NORMAL", "MaskDist"))),
        ("post", (("T", "POST"), ("T", "POST", dist), ("T", "POST", "MaskDist"))),
        ("block", (("T", "DataCopyMode"),)),
        ("blocknormal", (("T", "DataCopyMode", "NORMAL"),)),
        ("blockpost", (("T", "DataCopyMode", "POST"),)),
    )  # fmt: skip


_BLOCK_STRIDES = (Param("block_stride", "int"),)
_REPEAT_STRIDES = (Param("block_stride", "int"), Param("repeat_stride", "int"))


def _block_forms(load: bool) -> tuple[RegForm, ...]:
    """Build the DataBlock overloads (spec §3.6): (reg, addr, strides..., mask), addr first for stores."""

    def params(addr: Param, strides: tuple[Param, ...]) -> tuple[Param, ...]:
        reg = Param("dst" if load else "src", "reg")
        first = (reg, addr) if load else (addr, reg)
        return (*first, *strides, MASK)

    name = "src" if load else "dst"
    return (
        RegForm("DataBlock", params(Param(name, "ptr"), _BLOCK_STRIDES), bound="block", deduced=False),
        RegForm("DataBlock repeat", params(Param(name, "ptr"), _REPEAT_STRIDES), bound="blocknormal", deduced=False),
        RegForm("DataBlock post-update", params(Param(name, "ptrref"), _REPEAT_STRIDES), bound="blockpost", deduced=False),
    )  # fmt: skip


def _load_align() -> RegShape:
    dst, dst1, src, offset = Param("dst", "reg"), Param("dst1", "reg"), Param("src", "ptr"), Param("offset", "addr")  # fmt: skip
    post_src, stride = Param("src", "ptrref"), Param("stride", "int")
    mask_dst, any_src = Param("dst", "mask"), Param("src", "anyptr")
    forms = (
        RegForm("", (Param("dst", "regr"), src)),
        RegForm("AddrReg", (dst, src, offset)),
        RegForm("dual", (dst, dst1, src)),
        RegForm("dual AddrReg", (dst, dst1, src, offset)),
        RegForm("MaskReg", (mask_dst, any_src), per_combo=False),
        RegForm("MaskReg AddrReg", (mask_dst, any_src, offset), per_combo=False),
        RegForm("post-update", (Param("dst", "regr"), post_src, stride), bound="post", deduced=False),
        RegForm("dual post-update", (dst, dst1, post_src, stride), bound="post", deduced=False),
        RegForm("MaskReg post-update", (mask_dst, Param("src", "anyptrref"), stride), bound="post", deduced=False, per_combo=False),
        *_block_forms(load=True),
    )  # fmt: skip
    return _shape("LoadAlign", "datamove", *forms, subscripts=_access_subscripts("LoadDist"), positional=True)  # fmt: skip


def _store_align() -> RegShape:
    dst, src, src1, offset = Param("dst", "ptr"), Param("src", "reg"), Param("src1", "reg"), Param("offset", "addr")  # fmt: skip
    any_dst, mask_src, stride = Param("dst", "anyptr"), Param("src", "mask"), Param("stride", "int")
    forms = (
        RegForm("", (dst, Param("src", "regr"), MASK)),
        RegForm("AddrReg", (dst, src, offset, MASK)),
        RegForm("dual", (dst, src, src1, MASK)),
        RegForm("dual AddrReg", (dst, src, src1, offset, MASK)),
        RegForm("MaskReg", (any_dst, mask_src), per_combo=False),
        RegForm("MaskReg AddrReg", (any_dst, mask_src, offset), per_combo=False),
        RegForm("post-update", (Param("dst", "ptrref"), Param("src", "regr"), stride, MASK), bound="post", deduced=False),
        RegForm("MaskReg post-update", (Param("dst", "anyptrref"), mask_src, stride), bound="post", deduced=False, per_combo=False),
        *_block_forms(load=False),
    )  # fmt: skip
    return _shape("StoreAlign", "datamove", *forms, subscripts=_access_subscripts("StoreDist"), positional=True)  # fmt: skip


def _post_twice(form: RegForm) -> tuple[RegForm, RegForm]:
    """Offer a post-update form whose PostLiteral defaults to UPDATE bare and as ``[T, POST]``."""
    return form, RegForm(form.tag, form.params, bound="post", deduced=False)


def _unaligned(name: str, *forms: RegForm, post: bool = False) -> RegShape:
    """``Op<T, PostLiteral postMode = POST_MODE_UPDATE, U>`` (*post*) or ``Op<T, U>``."""
    post_lists = (("T", "POST"), ("T", "NORMAL"))  # NORMAL: an UnsupportedError at the call
    subscripts = (("plain", (("T",),)), ("post", post_lists)) if post else PLAIN_ONLY
    return _shape(name, "unaligned", *forms, subscripts=subscripts)


# ---- the AR forms of the unaligned stores (issue 10: Squeeze<T, STORE_REG>) ----

_AR_STORE_FORMS: dict[str, tuple[RegForm, ...]] = {
    # StoreUnAlign(T* dst, U& src, UnalignRegForStore& ureg): the offset comes from AR.
    "StoreUnAlign": _post_twice(
        RegForm("AR", (Param("dst", "ptrval"), Param("src", "reg"), Param("ureg", "ustore")))
    ),
    # StoreUnAlignPost(T* dst, UnalignRegForStore& ureg): no PostLiteral.
    "StoreUnAlignPost": (RegForm("AR", (Param("dst", "ptrval"), Param("ureg", "ustore"))),),
}
"""The AR forms ``_unaligned_shapes`` adds to StoreUnAlign / StoreUnAlignPost."""

_ADDR_REG_FORMS: dict[str, tuple[RegForm, ...]] = {
    # LoadUnAlign(U& dst, UnalignRegForLoad& ureg, T*& src, AddrReg& areg, uint32_t inc): no
    # PostLiteral; inc is unused.
    "LoadUnAlign": (
        RegForm(
            "AddrReg",
            (
                Param("dst", "reg"),
                Param("ureg", "uload"),
                Param("src", "ptrval"),
                Param("offset", "addr"),
                Param("inc", "int"),
            ),
        ),
    ),
    # StoreUnAlign(T*& dst, U& src, UnalignRegForStore& ureg, AddrReg& areg)
    "StoreUnAlign": _post_twice(
        RegForm(
            "AddrReg",
            (
                Param("dst", "ptrval"),
                Param("src", "reg"),
                Param("ureg", "ustore"),
                Param("offset", "addr"),
            ),
        )
    ),
    # StoreUnAlignPost(T*& dst, UnalignRegForStore& ureg, AddrReg& areg): no PostLiteral.
    "StoreUnAlignPost": (
        RegForm(
            "AddrReg", (Param("dst", "ptrval"), Param("ureg", "ustore"), Param("offset", "addr"))
        ),
    ),
}
"""The AddrReg forms of the unaligned family (issue 10)."""

_MASK_STORE_UNALIGN = RegForm(
    "MaskReg",
    (Param("dst", "anyptrref"), Param("src", "mask"), Param("ureg", "ustore")),
    per_combo=False,
)
"""``StoreUnAlign<T>(T*& dst, MaskReg& mask, UnalignRegForStore& ureg)`` (b16 / b32 ``T``)."""


def _unaligned_shapes() -> dict[str, RegShape]:
    ureg, sreg, stride = Param("ureg", "uload"), Param("ureg", "ustore"), Param("stride", "int")
    return {
        "LoadUnAlignPre": _unaligned(
            "LoadUnAlignPre",
            RegForm("", (ureg, Param("src", "ptrval"))),
            RegForm("AddrReg", (ureg, Param("src", "ptrval"), Param("offset", "addr"))),
        ),
        "LoadUnAlign": _unaligned(
            "LoadUnAlign",
            RegForm("", (Param("dst", "reg"), ureg, Param("src", "ptrval"))),
            *_post_twice(
                RegForm("post-update", (Param("dst", "regr"), ureg, Param("src", "ptrref"), stride))
            ),
            *_ADDR_REG_FORMS["LoadUnAlign"],
            post=True,
        ),
        "StoreUnAlign": _unaligned(
            "StoreUnAlign",
            *_post_twice(
                RegForm("post-update", (Param("dst", "ptrref"), Param("src", "regr"), sreg, stride))
            ),
            *_AR_STORE_FORMS["StoreUnAlign"],
            *_ADDR_REG_FORMS["StoreUnAlign"],
            _MASK_STORE_UNALIGN,
            post=True,
        ),
        "StoreUnAlignPost": _unaligned(
            "StoreUnAlignPost",
            *_post_twice(RegForm("post-update", (Param("dst", "ptrref"), sreg, stride))),
            *_AR_STORE_FORMS["StoreUnAlignPost"],
            *_ADDR_REG_FORMS["StoreUnAlignPost"],
            post=True,
        ),
        "Load": _unaligned("Load", RegForm("", (Param("dst", "reg"), Param("src", "ptrval")))),
        "Store": _unaligned(
            "Store",
            RegForm("", (Param("dst", "ptrval"), Param("src", "reg"), Param("count", "int?"))),
        ),
    }


def _masks(name: str, params: tuple[Param, ...], subscripts: SubscriptPatterns) -> RegShape:
    """``CreateMask[T, ...]()`` / ``UpdateMask[T](count)``: C++ cannot deduce ``T``."""
    form = RegForm("", params, returns="MaskReg", deduced=False)
    return _shape(name, "masks", form, subscripts=(("plain", subscripts),), needs_template=True)


def _compare(name: str, src1: Param) -> RegShape:
    form = RegForm("", (Param("dst", "mask"), Param("src0", "regr"), src1, MASK))
    return _shape(name, "compute", form, subscripts=(("plain", cxx("T", "CMPMODE")),))


# ---- the rows -----------------------------------------------------------------------------------


_MI = "impl/basic_api/reg_compute/kernel_reg_compute_"
ALIASES: dict[str, tuple[tuple[str, ...], str]] = {
    "And": (("MaskAnd",), "maskreg"),
    "Or": (("MaskOr",), "maskreg"),
    "Xor": (("MaskXor",), "maskreg"),
    "Not": (("MaskNot",), "maskreg"),
    "Select": (("MaskSel",), "maskreg"),
    "Move": (("MaskMov", "Copy"), "maskreg"),  # Copy: ..._copy_intf_impl.h
    "Compares": (("CompareScalar",), "vec_cmpsel"),
    "LoadUnAlignPre": (("DataCopyUnAlignPre",), "datacopy"),
    "StoreUnAlignPost": (("DataCopyUnAlignPost",), "datacopy"),
    "Reduce": (("ReduceSum", "ReduceMax", "ReduceMin"), "vec_reduce"),
    # compound and carry arithmetic: the older spellings of the fused ops and carry overloads
    "Add": (("AddCarryOut",), "vec_binary"),  # Add(carry, dst, src0, src1, mask)
    "Sub": (("SubCarryOut",), "vec_binary"),  # Sub(carry, dst, src0, src1, mask)
    "AddC": (("AddCarryOuts",), "vec_binary"),
    "SubC": (("SubCarryOuts",), "vec_binary"),
    "MulAddDst": (("Mula",), "vec_binary"),
    "AbsSub": (("FusedAbsSub",), "vec_fused"),
    "ExpSub": (("FusedExpSub",), "vec_fused"),
    "MulDstAdd": (("FusedMulDstAdd",), "vec_fused"),
}
"""The older spellings of each op, and the header (``_MI + <key> + "_intf_impl.h"``) that
forwards them to the same implementation. An older name of two ops (``DataCopy``) is not here."""

# ---- older spellings of the data-movement and rearrangement ops (issue 10) ------------------------
ALIASES.update({
    "Gather": (("DataCopyGather",), "datacopy"),  # the UB form's older name (same overload set)
    "GatherB": (("DataCopyGatherB",), "datacopy"),
    "Scatter": (("DataCopyScatter",), "datacopy"),
    "Pack": (("MaskPack",), "maskreg"),  # the MaskReg form's older name
    "UnPack": (("MaskUnPack",), "maskreg"),
    "Interleave": (("MaskInterleave",), "maskreg"),
    "DeInterleave": (("MaskDeInterleave",), "maskreg"),
    "Squeeze": (("GatherMask",), "gather_mask"),
    "Unsqueeze": (("PrefixSum",), "gather_mask"),
    "ReduceDataBlock": (("ReduceSumWithDataBlock", "ReduceMaxWithDataBlock",
                         "ReduceMinWithDataBlock"), "vec_reduce"),
    "PairReduceElem": (("PairReduceSum",), "vec_reduce"),
})  # fmt: skip
_BLOCK_REDUCE_ALIASES = tuple(
    (f"Reg.Reduce{k.capitalize()}WithDataBlock", f"ReduceType.{k}") for k in REDUCE_BLOCK_COMBOS
)
"""``ReduceSumWithDataBlock`` is ``ReduceDataBlock[ReduceType.SUM]`` (its lead fixed)."""

_REDUCE_ALIASES = tuple((f"Reg.Reduce{k.capitalize()}", f"ReduceType.{k}") for k in REDUCE_COMBOS)
"""``ReduceSum`` is ``Reduce[ReduceType.SUM]``: an alias with the leading template argument fixed."""


def _reg(
    name: str,
    roles: tuple[str, ...],
    combos: Combos,
    mask: MaskRule,
    doc: str,
    shape: RegShape,
    core: str,
) -> OpSpec:
    older, _header = ALIASES.get(name, ((), ""))
    return OpSpec(
        f"Reg.{name}",
        f"AscendC::Reg::{name}",
        roles,
        combos,
        mask,
        _DOCS + doc,
        surface="reg",
        family=name,
        shape=shape,
        core=core,
        aliases=tuple(f"Reg.{alias}" for alias in older),
    )


_CORE = "ascreg.core."
_BINARY = "ascreg.core.arith:BINARY_OPS."
_SCALAR_SHIFTS = tuple((d, int16_t) for d in SHIFT_DATA)
_UNALIGNED = _unaligned_shapes()


def _arith_rows() -> tuple[OpSpec, ...]:
    """Build the rows of the element-wise binary ops."""
    rows = []
    for name, types, doc, logic in (
        ("Add", ADD_TYPES, "基础算术/Add.md", False),
        ("Sub", ADD_TYPES, "基础算术/Sub.md", False),
        ("Mul", MUL_TYPES, "基础算术/Mul.md", False),
        ("Max", MAXMIN_TYPES, "基础算术/Max.md", False),
        ("Min", MAXMIN_TYPES, "基础算术/Min.md", False),
        ("And", LOGIC_TYPES, "逻辑计算/And.md", True),
        ("Or", LOGIC_TYPES, "逻辑计算/Or.md", True),
        ("Xor", LOGIC_TYPES, "逻辑计算/Xor.md", True),
        ("Prelu", PRELU_TYPES, "基础算术/Prelu.md", False),
    ):
        rows.append(_reg(name, ("T",), singles(*types), MaskRule.ZEROING, doc,
                         _binary(name, logic), _BINARY + name))  # fmt: skip
    return tuple(rows)


def _scalar_rows() -> tuple[OpSpec, ...]:
    """``Adds``/``Muls``/``Maxs``/``Mins``: the formula of the vector twin, one scalar operand."""
    return tuple(
        _reg(
            f"{name}s",
            ("T",),
            singles(*types),
            MaskRule.ZEROING,
            f"基础算术/{name}s.md",
            _scalar_op(f"{name}s"),
            _BINARY + name,
        )
        for name, types in (
            ("Add", ADD_TYPES),
            ("Mul", MULS_TYPES),
            ("Max", MAXMIN_TYPES),
            ("Min", MAXMIN_TYPES),
        )
    )


def _unaligned_rows() -> tuple[OpSpec, ...]:
    docs = {
        "LoadUnAlignPre": ("Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md", "load_pre"),
        "LoadUnAlign": ("Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md", "load"),
        "StoreUnAlign": ("Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md", "store"),
        "StoreUnAlignPost": ("Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md", "store_post"),
        "Load": ("Reg数据搬入/Load.md", "load"),
        "Store": ("Reg数据搬出/Store.md", "store"),
    }
    return tuple(
        _reg(
            name,
            ("T",),
            singles(*REG_TYPES),
            MaskRule.NONE,
            doc,
            _UNALIGNED[name],
            f"{_CORE}unaligned:{core}",
        )
        for name, (doc, core) in docs.items()
    )


# ---- compound and carry arithmetic (复合计算; AddC, SubC, Mull) ----------------------------------

_COMPOUND = "ascreg.core.compound:"


def _compound_rows() -> tuple[OpSpec, ...]:
    """``AbsSub``, ``MulAddDst``, ``MulDstAdd``, ``Axpy``, ``ExpSub``, ``Mull``, ``AddC``, ``SubC``."""
    three = RegForm("", (*_regs("dst", "src0", "src1"), MASK))
    axpy = RegForm("", (*_regs("dst", "src"), Param("scalar", "scalar"), MASK))
    exp_sub = RegForm("", (Param("dst", "regr", 0), *_regs("src0", "src1", arg=1), MASK))
    mull = RegForm("", (*_regs("dst0", "dst1", "src0", "src1"), MASK))
    carry = RegForm("", (Param("carry", "mask"), *_regs("dst", "src0", "src1"),
                         Param("carry_src", "mask"), MASK))  # fmt: skip
    layout = (("plain", cxx("T", "T", "RegLayout", "MaskMergeMode")),)  # ExpSub<T, U, layout, mode>
    single = ("T",)
    return (
        _reg("AbsSub", single, singles(*ABS_SUB_TYPES), MaskRule.ZEROING, "复合计算/AbsSub.md",
             _shape("AbsSub", "compound", three, subscripts=MERGE), _COMPOUND + "abs_sub"),
        _reg("MulAddDst", single, singles(*MUL_ADD_DST_TYPES), MaskRule.ZEROING,
             "复合计算/MulAddDst.md", _shape("MulAddDst", "compound", three, subscripts=MERGE),
             _COMPOUND + "TERNARY_OPS.MulAddDst"),
        _reg("MulDstAdd", single, singles(*MUL_DST_ADD_TYPES), MaskRule.ZEROING,
             "复合计算/MulDstAdd.md", _shape("MulDstAdd", "compound", three, subscripts=MERGE),
             _COMPOUND + "TERNARY_OPS.MulDstAdd"),
        _reg("Axpy", single, singles(*AXPY_TYPES), MaskRule.ZEROING, "复合计算/Axpy.md",
             _shape("Axpy", "compound", axpy, subscripts=SCALAR_MERGE), _COMPOUND + "TERNARY_OPS.Axpy"),
        _reg("ExpSub", ("T", "U"), EXP_SUB_COMBOS, MaskRule.ZEROING, "复合计算/ExpSub.md",
             _shape("ExpSub", "compound", exp_sub, subscripts=layout),
             _COMPOUND + "exp_sub"),
        _reg("Mull", single, singles(*CARRY_TYPES), MaskRule.ZEROING, "基础算术/Mull.md",
             _shape("Mull", "compound", mull), _COMPOUND + "widening_multiply"),
        _reg("AddC", single, singles(*CARRY_TYPES), MaskRule.ZEROING, "基础算术/AddC.md",
             _shape("AddC", "compound", carry), _COMPOUND + "add_with_carry"),
        _reg("SubC", single, singles(*CARRY_TYPES), MaskRule.ZEROING, "基础算术/SubC.md",
             _shape("SubC", "compound", carry), _COMPOUND + "add_with_carry"),
    )  # fmt: skip


# ---- data movement and rearrangement: UB gathers, scatter, histograms (issue 10) -----------------
_GATHER_SUBSCRIPTS: tuple[tuple[str, SubscriptPatterns], ...] = (
    ("plain", (*cxx("T", "T"), *cxx("X", "X", "X"))),
)
"""``Gather<T, U, S, V>`` (registers: data and index types) and the UB form
``Gather<T0, T1, T2, T3, T4>`` (destination, source and index types, checked by the op)."""
_DUPLICATE_SUBSCRIPTS: tuple[tuple[str, SubscriptPatterns], ...] = (
    ("plain", tuple(dict.fromkeys((*cxx("T", "U"), *cxx("T", "MaskMergeMode", "U"),
                                   *cxx("T", "HighLowPart", "MaskMergeMode"))))),
)  # fmt: skip
"""``Duplicate<T, U, S>(dst, scalar)``, ``Duplicate<T, mode, U, S>(dst, scalar, mask)`` and
``Duplicate<T, pos, mode, S>(dst, srcReg, mask)`` (``U`` the scalar's type)."""

_GATHER_UB_FORM = RegForm(
    "UB",
    (Param("dst", "anyreg"), Param("base", "anyptr"), Param("index", "anyreg"), MASK),
    per_combo=False,
)
"""``Gather(T3& dst, __ubuf__ T1* base, T4& index, MaskReg& mask)``: typed loosely, its
(dst, src, index) triples (``GATHER_UB_COMBOS``) are checked at run time."""


def _rearr_rows() -> tuple[OpSpec, ...]:
    """``Scatter``, ``GatherB``, ``Histograms``, ``Unsqueeze`` and ``MoveMask``."""
    scatter = RegForm(
        "", (Param("dst", "ptr"), Param("src", "regr"), Param("index", "regr", 1), MASK)
    )
    gather_b = RegForm(
        "", (Param("dst", "reg"), Param("base", "ptr"), Param("index", "reg", 1), MASK)
    )
    histograms = RegForm("", (Param("dst", "regr", 1), Param("src", "regr"), MASK), deduced=False)
    return (
        _reg("Scatter", ("T", "U"), SCATTER_PAIRS, MaskRule.STORE, "Reg数据搬出/离散搬出（Scatter）.md",
             _shape("Scatter", "discrete", scatter, subscripts=(("plain", cxx("T", "T")),)),
             _CORE + "rearrange:slot_elements"),
        _reg("GatherB", ("T", "U"), GATHERB_PAIRS, MaskRule.ZEROING,
             "Reg数据搬入/离散搬入（GatherB）.md", _shape("GatherB", "discrete", gather_b),
             _CORE + "rearrange:gather_blocks"),
        _reg("Histograms", ("T", "U"), HISTOGRAM_PAIRS, MaskRule.REDUCE, "直方图计算/Histograms.md",
             _shape("Histograms", "rearrange", histograms, needs_template=True,
                    subscripts=(("plain", cxx("T", "T", "HistogramsBinType", "HistogramsType",
                                              required=4)),)),
             _CORE + "histogram:histogram"),
        _reg("Unsqueeze", ("T",), singles(*UNSQUEEZE_TYPES), MaskRule.NONE, "数据压缩/Unsqueeze.md",
             _shape("Unsqueeze", "rearrange", RegForm("", (Param("dst", "regr"), MASK))),
             _CORE + "rearrange:unsqueeze"),
        _reg("MoveMask", ("T",), singles(*MOVE_MASK_TYPES), MaskRule.NONE, "MaskReg计算/MoveMask.md",
             _masks("MoveMask", (), cxx("T")), _CORE + "masks:spr_bits"),
    )  # fmt: skip


REG_ROWS: tuple[OpSpec, ...] = (
    _reg("CreateMask", ("T",), singles(*MASK_TYPES), MaskRule.NONE, "寄存器数据类型/MaskReg.md",
         _masks("CreateMask", (), cxx("T", "MaskPattern", "TRAIT")),
         _CORE + "masks:pattern_bits"),
    _reg("UpdateMask", ("T",), singles(*MASK_TYPES), MaskRule.NONE, "寄存器数据类型/MaskReg.md",
         _masks("UpdateMask", (Param("count", "count"),), cxx("T", "TRAIT")),
         _CORE + "masks:update_mask"),
    _reg("LoadAlign", ("T",), singles(*REG_TYPES), MaskRule.NONE,
         "Reg数据搬入/连续对齐搬入（LoadAlign）.md", _load_align(), _CORE + "datamove:load"),
    _reg("StoreAlign", ("T",), singles(*REG_TYPES), MaskRule.STORE,
         "Reg数据搬出/连续对齐搬出（StoreAlign）.md", _store_align(), _CORE + "datamove:store"),
    _reg("Compare", ("T",), singles(*CMP_TYPES), MaskRule.ZEROING, "比较与选择/Compare.md",
         _compare("Compare", Param("src1", "regr")), _CORE + "compare:compare"),
    _reg("Compares", ("T",), singles(*CMP_TYPES), MaskRule.ZEROING, "比较与选择/Compares.md",
         _compare("Compares", Param("scalar", "scalar")), _CORE + "compare:compare"),
    _reg("Select", ("T",), singles(*SELECT_TYPES), MaskRule.SELECTOR, "比较与选择/Select.md",
         _shape("Select", "compute", RegForm("", (*_regs("dst", "src0", "src1"), MASK)), MASK_FORM),
         _CORE + "compare:select"),
    _reg("ShiftRight", ("src", "shift"), SHIFT_PAIRS, MaskRule.ZEROING, "逻辑计算/ShiftRight.md",
         _shift("ShiftRight", scalar=False), _CORE + "shifts:zeroing_shift"),
    _reg("ShiftLeft", ("src", "shift"), SHIFT_PAIRS, MaskRule.ZEROING, "逻辑计算/ShiftLeft.md",
         _shift("ShiftLeft", scalar=False), _CORE + "shifts:zeroing_shift"),
    _reg("ShiftRights", ("src", "scalar"), _SCALAR_SHIFTS, MaskRule.ZEROING,
         "逻辑计算/ShiftRights.md", _shift("ShiftRights", scalar=True),
         _CORE + "shifts:zeroing_shift"),
    _reg("ShiftLefts", ("src", "scalar"), _SCALAR_SHIFTS, MaskRule.ZEROING,
         "逻辑计算/ShiftLefts.md", _shift("ShiftLefts", scalar=True),
         _CORE + "shifts:zeroing_shift"),
    *_arith_rows(),
    _reg("Not", ("T",), singles(*NOT_TYPES), MaskRule.ZEROING, "逻辑计算/Not.md",
         _shape("Not", "compute", RegForm("", (*_regs("dst", "src"), MASK)),
                RegForm("MaskReg operands", (Param("dst", "mask"), Param("src", "mask"), MASK),
                        per_combo=False),
                subscripts=MERGE),
         "ascreg.core.bitwise:bitwise"),
    _reg("Move", ("T",), singles(*SELECT_TYPES), MaskRule.MERGING, "Reg数据搬入/Move.md",
         _shape("Move", "compute", RegForm("", (*_regs("dst", "src"), Param("mask", "mask?"))),
                RegForm("MaskReg operands",
                        (Param("dst", "mask"), Param("src", "mask"), Param("mask", "mask?")),
                        per_combo=False),
                subscripts=MERGE),
         _CORE + "compare:select"),
    _reg("Duplicate", ("T",), singles(*DUP_TYPES), MaskRule.ZEROING, "数据填充/Duplicate.md",
         _shape("Duplicate", "compute",
                RegForm("", (Param("dst", "regr"), Param("scalar", "scalar"), Param("mask", "mask?"))),
                RegForm("srcReg", (Param("dst", "regr"), Param("scalar", "regr"), MASK)),
                subscripts=_DUPLICATE_SUBSCRIPTS),
         "ascreg.core.arith:fill"),
    *_scalar_rows(),
    _reg("Abs", ("T",), singles(*ABS_TYPES), MaskRule.ZEROING, "基础算术/Abs.md", _unary("Abs"),
         _CORE + "arith:abs_lanes"),
    _reg("Neg", ("T",), singles(*NEG_TYPES), MaskRule.ZEROING, "基础算术/Neg.md", _unary("Neg"),
         _CORE + "arith:neg_lanes"),
    _reg("Relu", ("T",), singles(*RELU_TYPES), MaskRule.ZEROING, "基础算术/Relu.md",
         _unary("Relu"), _CORE + "arith:relu_lanes"),
    _reg("LeakyRelu", ("T",), singles(*PRELU_TYPES), MaskRule.ZEROING, "基础算术/LeakyRelu.md",
         _scalar_op("LeakyRelu"), _BINARY + "Prelu"),  # Prelu with every src1 lane = scalar
    *_precise_rows(),
    _reg("Interleave", ("T",), singles(*INTERLEAVE_TYPES), MaskRule.NONE,
         "数据重排/Interleave.md", _interleave("Interleave"), _CORE + "rearrange:interleave"),
    _reg("DeInterleave", ("T",), singles(*INTERLEAVE_TYPES), MaskRule.NONE,
         "数据重排/DeInterleave.md", _interleave("DeInterleave"), _CORE + "rearrange:deinterleave"),
    _reg("Gather", ("T", "U"), GATHER_PAIRS, MaskRule.NONE, "离散操作/Gather.md",
         _shape("Gather", "rearrange",
                RegForm("", (Param("dst", "reg"), Param("src", "reg"), Param("index", "reg", 1))),
                _GATHER_UB_FORM, subscripts=_GATHER_SUBSCRIPTS),
         _CORE + "rearrange:gather"),
    _reg("Squeeze", ("T",), singles(*SQUEEZE_TYPES), MaskRule.SQUEEZE, "比较与选择/Squeeze.md",
         _shape("Squeeze", "rearrange", RegForm("", (*_regs("dst", "src", kind="reg"), MASK)),
                subscripts=(("plain", cxx("T", "GatherMaskMode")),)),
         _CORE + "rearrange:squeeze"),
    _reg("Arange", ("T",), singles(*ARANGE_TYPES), MaskRule.NONE, "索引操作/Arange.md",
         _shape("Arange", "arith", RegForm("", (Param("dst", "regr"), Param("start", "scalar"))),
                subscripts=(("plain", cxx("T", "IndexOrder", "U")),)),
         _CORE + "arith:arange"),
    _reg("Reduce", ("T", "U"),
         tuple(dict.fromkeys(c for combos in REDUCE_COMBOS.values() for c in combos)),
         MaskRule.REDUCE, "归约计算/Reduce.md",
         _shape("Reduce", "arith",
                RegForm("", (Param("dst", "regr", 0), Param("src", "regr", 1), MASK)),
                subscripts=(("plain", cxx("T", "T", "MaskMergeMode", required=0)),),
                lead=tuple((f"ReduceType.{k}", v) for k, v in REDUCE_COMBOS.items()),
                fixed=_REDUCE_ALIASES),
         _CORE + "reduce:tree_sum"),  # SUM; MAX/MIN go through reduce.extreme
    _pack_row("Pack", PACK_COMBOS, "pack"),
    _pack_row("UnPack", UNPACK_COMBOS, "unpack"),
    _reduce_row("ReduceDataBlock", REDUCE_BLOCK_COMBOS, "ReduceType", "ReduceDataBlock.md",
                "reduce:reduce_blocks", _BLOCK_REDUCE_ALIASES,
                # <type, T, mode, U> and <type, T, U, mode, S, V>
                (*cxx("T", "MaskMergeMode", required=0), *cxx("T", "T", "MaskMergeMode")[1:])),
    _reduce_row("PairReduceElem", {"SUM": tuple((t, t) for t in PAIR_REDUCE_TYPES)},
                "PairReduce", "PairReduceElem.md", "reduce:pair_reduce",
                (("Reg.PairReduceSum", "PairReduce.SUM"),), cxx("T", "MaskMergeMode", required=0)),
    _reg("MaskGenWithRegTensor", ("T",), singles(*MASK_GEN_TYPES), MaskRule.NONE,
         "Reg数据搬入/MaskReg搬入（MaskGenWithRegTensor）.md",
         _shape("MaskGenWithRegTensor", "masks",
                RegForm("", (Param("dst", "mask"), Param("src", "regr")), deduced=False),
                subscripts=(("plain", cxx("T", "OFFSET", required=2)),), needs_template=True),
         _CORE + "masks:spread_block_bits"),
    *_unaligned_rows(),
    *_compound_rows(),
    *_rearr_rows(),
)  # fmt: skip
"""The Reg rows, in the order the stubs and type tests list them."""


# ---- conversions: Cast, Truncate (issue 10) -------------------------------------------------------
# Cast's legal pairs and their CastTrait controls are the table in ascreg._spec.convert.
from ascreg._dtypes import float32_t, half  # noqa: E402
from ascreg._spec.convert import CAST_COMBOS, TRUNCATE_TYPES  # noqa: E402

ALIASES["MulsCast"] = (("FusedMulsCast",), "vec_fused")

_CONVERT_FORM = RegForm("", (Param("dst", "regr", 0), Param("src", "regr", 1), MASK))
CONVERT_ROWS: tuple[OpSpec, ...] = (
    _reg("Cast", ("T", "U"), CAST_COMBOS, MaskRule.ZEROING, "类型转换/Cast.md",
         _shape("Cast", "convert", _CONVERT_FORM,
                subscripts=(("plain", cxx("T", "T", "CastTrait")),)),
         _CORE + "convert:cast_lanes"),
    _reg("Truncate", ("T",), singles(*TRUNCATE_TYPES), MaskRule.ZEROING, "类型转换/Truncate.md",
         _shape("Truncate", "convert", RegForm("", (*_regs("dst", "src"), MASK)),
                subscripts=(("plain", cxx("T", "RoundMode", "MaskMergeMode")),)),
         _CORE + "convert:round_integral"),
    _reg("MulsCast", ("T0", "T1", "T2"), ((half, float32_t, float32_t),), MaskRule.ZEROING,
         "复合计算/MulsCast.md",
         _shape("MulsCast", "convert",
                RegForm("", (*_regs("dst"), Param("src", "regr", 1), Param("scalar", "scalar", 2), MASK)),
                subscripts=(("plain", cxx("T", "T", "T", "RegLayout")),)),
         _CORE + "convert:muls_cast"),
)  # fmt: skip
"""The conversion rows (``ascreg.reg.convert``)."""
REG_ROWS = REG_ROWS + CONVERT_ROWS

"""Scalar forms (Adds, Muls, Maxs, Mins), unary math, Div, Arange and the reductions.

The reductions are Reduce, ReduceDataBlock and PairReduceElem.

The unary ops are Abs, Neg, Sqrt, Exp and the logarithms (Ln, Log, Log2, Log10).

The scalar forms apply the lane formula of their vector twin (:data:`ascreg.core.arith.BINARY_OPS`) to every lane
and the scalar converted to ``T`` (an integer that does not fit ``T`` is an error, as in
``Compares``). All of these ops are ZEROING only on dav-3510 (spec §7; the implementation
static_asserts ``MaskMergeMode::ZEROING``), so ``MaskMergeMode.MERGING`` is rejected.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, ReduceType, int16_t, int32_t
>>> x, y = Reg.RegTensor[int16_t](), Reg.RegTensor[int32_t]()
>>> Reg.Arange(x, 0)
>>> Reg.Reduce[ReduceType.SUM](y, x, Reg.CreateMask[int16_t]())  # int16 -> int32 sum
>>> int(np.asarray(y)[0])
8128
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from ascreg._frontend import compute as shared
from ascreg._frontend import operands, rules
from ascreg._frontend.template import define
from ascreg._spec import REDUCE_BLOCK_COMBOS, REDUCE_COMBOS, SPECS, OpSpec
from ascreg._spec.dtypes import Combos
from ascreg.core import arith, elementary
from ascreg.core import reduce as red
from ascreg.enums import (
    DivSpecificMode,
    ExpSpecificMode,
    IndexOrder,
    MaskMergeMode,
    PairReduce,
    ReduceType,
    SqrtSpecificMode,
)
from ascreg.errors import AscregTypeError
from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumOne

Lanes = np.ndarray[Any, Any]


def _zeroing_only(op: Any) -> None:
    merge = op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING)
    if merge is not MaskMergeMode.ZEROING:
        raise AscregTypeError(
            f"{op.name} supports MaskMergeMode.ZEROING only on dav-3510, not {merge.name} "
            "(C++: static_assert 'only supported Mode ZEROING')"
        )


def _scalar_binary(op: Any, dst: Any, src: Any, scalar: Any, mask: MaskReg) -> None:
    """``Op(S& dst, S& src, U scalar, MaskReg& mask)``: the vector op against one scalar."""
    _zeroing_only(op)
    shared.scalar_binary(op, dst, src, scalar, mask, roles=("src0", "scalar"))


def _scalar_op(name: str, summary: str, dtype: str, example: str, result: str) -> Any:
    doc = f"""``{name}(S& dst, S& src, U scalar, MaskReg& mask)``: {summary}

    The lane formula is ``{name.removesuffix("s")}``'s with every ``src1`` lane equal to
    *scalar* converted to ``T``: integers wrap, floats are IEEE 754 round to nearest even
    (bfloat16 computed in float32, then rounded). An integer scalar outside ``T``'s range, or a
    float scalar for an integer ``T``, is an error rather than a silent conversion.
    Masked-off lanes become 0 (ZEROING only; MERGING is rejected, as on dav-3510).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, {dtype}
    >>> src, dst = Reg.RegTensor[{dtype}](), Reg.RegTensor[{dtype}]()
    >>> src.set(np.arange(src.lanes) % 8 - 2)
    >>> Reg.{name}(dst, src, {example}, Reg.CreateMask[{dtype}, MaskPattern.VL4]())
    >>> np.asarray(dst)[:6].tolist()
    {result}
    """
    formula = arith.BINARY_OPS[name.removesuffix("s")]
    return define(
        f"Reg.{name}", doc=doc, enum_kinds=(MaskMergeMode,), formula=staticmethod(formula)
    )(_scalar_binary)


Adds = _scalar_op("Adds", "add a scalar to every lane.", "int8_t", "127",
                  "[125, 126, 127, -128, 0, 0]")  # fmt: skip
Muls = _scalar_op("Muls", "multiply every lane by a scalar.", "half", "0.5",
                  "[-1.0, -0.5, 0.0, 0.5, 0.0, 0.0]")  # fmt: skip
Maxs = _scalar_op("Maxs", "lane-wise maximum with a scalar (NaN propagates; +0 > -0).",
                  "int32_t", "0", "[0, 0, 0, 1, 0, 0]")  # fmt: skip
Mins = _scalar_op("Mins", "lane-wise minimum with a scalar (NaN propagates; -0 < +0).",
                  "float32_t", "-1.5", "[-2.0, -1.5, -1.5, -1.5, 0.0, 0.0]")  # fmt: skip
LeakyRelu = define(
    "Reg.LeakyRelu",
    doc="""``LeakyRelu(S& dst, S& src, U scalar, MaskReg& mask)``: ``src > 0 ? src : src * scalar``.

    ``Prelu``'s lane formula with every ``src1`` lane equal to *scalar* converted to ``T`` (the
    product rounded once, to nearest even; ``-0`` and NaN lanes take the product). Masked-off
    lanes become 0 (ZEROING only). Types: half, float. The C twin is ``asc_leakyrelu``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half
    >>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> src.set(np.resize(np.float16([2.0, -2.0]), 128))
    >>> Reg.LeakyRelu(dst, src, 0.25, Reg.CreateMask[half]())
    >>> np.asarray(dst)[:2].tolist()
    [2.0, -0.5]
    """,
    enum_kinds=(MaskMergeMode,),
    formula=staticmethod(arith.BINARY_OPS["Prelu"]),
)(_scalar_binary)


def _unary(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """``Op(U& dst, U& src, MaskReg& mask)``: a lane-wise unary op; masked-off lanes 0."""
    _zeroing_only(op)
    shared.unary(op, dst, src, mask, role="src0")


_UNARY: dict[str, Any] = {"enum_kinds": (MaskMergeMode,)}
Abs = define(
    "Reg.Abs",
    doc="""``Abs(U& dst, U& src, MaskReg& mask)``: absolute value; masked-off lanes 0.

    Integers wrap: ``abs(INT_MIN) = INT_MIN`` (int8 ``abs(-128) = -128``). Floats clear the
    sign bit, so ``abs(-0) = +0``, ``abs(-inf) = +inf`` and a NaN keeps its payload.
    (The complex32/complex64 modulus forms of the C++ API are not emulated.)

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int8_t
    >>> src, dst = Reg.RegTensor[int8_t](), Reg.RegTensor[int8_t]()
    >>> src.set(np.resize(np.array([-128, -5, 7], np.int8), 256))
    >>> Reg.Abs(dst, src, Reg.CreateMask[int8_t]())
    >>> np.asarray(dst)[:3].tolist()
    [-128, 5, 7]
    """,
    formula=staticmethod(arith.abs_lanes),
    **_UNARY,
)(_unary)
Neg = define(
    "Reg.Neg",
    doc="""``Neg(U& dst, U& src, MaskReg& mask)``: negation; masked-off lanes 0.

    Integers wrap (``-INT_MIN = INT_MIN``); floats flip the sign bit (``-(+0) = -0``, a NaN
    keeps its payload with the sign flipped).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half
    >>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> src.set(np.float16(0.0))
    >>> Reg.Neg(dst, src, Reg.CreateMask[half]())
    >>> hex(int(np.asarray(dst).view(np.uint16)[0]))
    '0x8000'
    """,
    formula=staticmethod(arith.neg_lanes),
    **_UNARY,
)(_unary)
Relu = define(
    "Reg.Relu",
    doc="""``Relu(U& dst, U& src, MaskReg& mask)``: ``src >= 0 ? src : 0``; masked-off lanes 0.

    The C twin ``asc_relu``'s formula (Relu.md writes ``max(0, src)``): ``-0`` passes
    unchanged (``-0 >= 0``) and a NaN lane gives +0. Types: half, int32_t, float, int64_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, float32_t
    >>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> src.set(np.resize(np.float32([-1.5, -0.0, np.nan, 2.0]), 64))
    >>> Reg.Relu(dst, src, Reg.CreateMask[float32_t]())
    >>> np.asarray(dst)[:4].tolist()
    [0.0, -0.0, 0.0, 2.0]
    """,
    formula=staticmethod(arith.relu_lanes),
    **_UNARY,
)(_unary)


_PRECISION = """
    Float results are the correctly rounded value of the exact result (the chip's intrinsic is
    within {ulp} of it: compare chip output with ``ascreg.testing.assert_ulp_close``). The
    default mode flushes subnormals: a subnormal input is read as a zero of its sign and a
    subnormal result becomes a zero of its sign; a ``{mode}`` whose ``algo`` is
    ``PRECISION_1ULP_FTZ_FALSE``{more} keeps them. Masked-off lanes become 0 (ZEROING only;
    MERGING is rejected). Types: {types}.
"""


def _precise(name: str, mode: type, summary: str, example: str, more: str = "") -> Any:
    doc = f"""``{name}<T, auto mode = MaskMergeMode::ZEROING>(U& dst, U& src, MaskReg& mask)``.

    {summary}
    {
        _PRECISION.format(
            ulp="1 ulp",
            mode=f"{name}SpecificMode",
            more=more,
            types=SPECS[f"Reg.{name}"].legal_text(),
        ).strip()
    }

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, float32_t
    >>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    {example}
    """
    return define(
        f"Reg.{name}",
        doc=doc,
        enum_kinds=(MaskMergeMode, mode),
        mode_type=mode,
        formula=staticmethod(elementary.UNARY_OPS[name]),
    )(shared.precise_unary)


Sqrt = _precise(
    "Sqrt", SqrtSpecificMode,
    "Square root: ``sqrt(-0) = -0``, a negative lane gives NaN, ``sqrt(+inf) = +inf``.",
    """>>> src.set(np.float32(2))
    >>> Reg.Sqrt(dst, src, Reg.CreateMask[float32_t]())
    >>> float(np.asarray(dst)[0])
    1.4142135381698608""",
    " (or ``precisionMode=True`` / ``PRECISION_0ULP_FTZ_FALSE``, float only)",
)  # fmt: skip
Exp = _precise(
    "Exp", ExpSpecificMode,
    "``e**x``: ``exp(-inf) = +0``, ``exp(+inf) = +inf``, overflow gives +inf.",
    """>>> src.set(np.float32(-88.0))
    >>> Reg.Exp(dst, src, Reg.CreateMask[float32_t]())  # 6e-39 is subnormal: flushed
    >>> mode = Reg.ExpSpecificMode(algo=Reg.ExpAlgo.PRECISION_1ULP_FTZ_FALSE)
    >>> keep = Reg.RegTensor[float32_t]()
    >>> Reg.Exp[float32_t, mode](keep, src, Reg.CreateMask[float32_t]())
    >>> float(np.asarray(dst)[0]), float(np.asarray(keep)[0])
    (0.0, 6.054601485195952e-39)""",
)  # fmt: skip
_LOG = "``{0}(±0) = -inf``, a negative lane gives NaN, ``{0}(+inf) = +inf``."
_LOG_EXAMPLE = """>>> src.set(np.float32({arg}))
    >>> Reg.{name}(dst, src, Reg.CreateMask[float32_t]())
    >>> float(np.asarray(dst)[0])
    {result}"""
Ln = _precise("Ln", ExpSpecificMode, "Natural logarithm: " + _LOG.format("ln"),
              _LOG_EXAMPLE.format(arg=1, name="Ln", result="0.0"))  # fmt: skip
Log = _precise("Log", ExpSpecificMode, "Natural logarithm (``Ln`` under its C name): "
               + _LOG.format("log"), _LOG_EXAMPLE.format(arg=2, name="Log",
                                                          result="0.6931471824645996"))  # fmt: skip
Log2 = _precise("Log2", ExpSpecificMode, "Base-2 logarithm: " + _LOG.format("log2"),
                _LOG_EXAMPLE.format(arg=0.125, name="Log2", result="-3.0"))  # fmt: skip
Log10 = _precise("Log10", ExpSpecificMode, "Base-10 logarithm: " + _LOG.format("log10"),
                 _LOG_EXAMPLE.format(arg=1000, name="Log10", result="3.0"))  # fmt: skip

Div = define(
    "Reg.Div",
    doc=f"""``Div<T, auto mode = MaskMergeMode::ZEROING>(U& dst, U& src0, U& src1, MaskReg& mask)``.

    ``dst = src0 / src1``. Integers truncate toward zero; decision ([IMPL], the page is
    silent): ``x / 0`` is all ones (``-1`` signed, the maximum unsigned) and ``MIN / -1`` wraps
    to ``MIN``, as the dav-3510 64-bit software division computes (the 16/32-bit instruction is
    given the same results). Floats follow IEEE 754 (``0/0`` and ``inf/inf`` are NaN, ``x/±0``
    is a signed infinity).
    {
        _PRECISION.format(
            ulp="1 ulp (0 ulp with ``precisionMode=True``)",
            mode="DivSpecificMode",
            more=" or ``PRECISION_0ULP_FTZ_FALSE`` (float only)",
            types=SPECS["Reg.Div"].legal_text(),
        ).strip()
    }
    The boundary table's subnormal examples hold: ``1 / -5.02e-39`` is ``-inf`` (the divisor is
    flushed to -0), and subnormal / subnormal is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int32_t
    >>> a, b, d = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t]()
    >>> a.set(np.arange(64) - 7); b.set(2)
    >>> Reg.Div(d, a, b, Reg.CreateMask[int32_t]())
    >>> np.asarray(d)[:4].tolist()
    [-3, -3, -2, -2]
    """,
    enum_kinds=(MaskMergeMode, DivSpecificMode),
    mode_type=DivSpecificMode,
    formula=staticmethod(elementary.divide),
)(shared.precise_binary)


B64_DECREASE_SPAN = 64
"""Decision ([IMPL], spec silent): ``Arange<int64_t, DECREASE_ORDER>`` on a RegTraitNumOne register
counts down from ``start + 63``, not ``start + 31``. The dav-3510 implementation builds the index
as a 64-lane TraitTwo register (``vci`` on the int32 low words) and keeps its first 32 lanes
(``ArangeB64Impl`` + ``B64TraitTwoToTraitOne``)."""


@define("Reg.Arange", enum_kinds=(IndexOrder,), batch=rules.ROWS)
def Arange(op: Any, dst: Any, start: Any) -> None:
    """``Arange<T, IndexOrder order = INCREASE_ORDER>(S& dst, U start)``: an index sequence.

    Lane ``i`` is ``start + i`` (``INCREASE_ORDER``) or ``start + VL_T - 1 - i``
    (``DECREASE_ORDER``), ``VL_T`` the register's lane count. No mask: every lane is written.

    * Integers wrap (int8 from 127: 127, -128, -127, ...).
    * half and float compute ``start + i`` in the element type with **one IEEE rounding to
      nearest even** (so half from 65504 gives 16 lanes of 65504, then +inf; from -0 the first
      lane is +0). Known conflict: the boundary-value appendix lists half from -65504 as 16,
      32, 32, 32, 16 lanes of -65504, -65472, -65440, -65408, -65376, which matches rounding
      ties *upwards*; round-to-nearest-even gives 16, 33, 31, 33, 15.
    * int64 with ``RegTraitNumOne`` and ``DECREASE_ORDER`` counts down from ``start + 63``
      (``B64_DECREASE_SPAN`` in ``ascreg.reg.arith``).
    * *start* is converted to ``T``; an integer outside ``T``'s range is an error.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, IndexOrder, int16_t
    >>> d = Reg.RegTensor[int16_t]()
    >>> Reg.Arange[int16_t, IndexOrder.DECREASE_ORDER](d, 10)
    >>> np.asarray(d)[[0, 1, 127]].tolist()
    [137, 136, 10]
    """
    (d,) = shared.vectors(op, (dst, "register"))
    if isinstance(start, RegTensor | MaskReg):
        raise AscregTypeError(f"start must be a scalar, got {type(start).__name__}")
    decrease = op.t.enum(IndexOrder, IndexOrder.INCREASE_ORDER) is IndexOrder.DECREASE_ORDER
    wide = d.dtype.size == 8 and d.trait is RegTraitNumOne
    d.put(
        arith.arange(
            operands.template_scalar(op, start, d.dtype, "start"),
            d.dtype.np_dtype,
            d.lanes,
            decrease=decrease,
            span=B64_DECREASE_SPAN if wide else d.lanes,
        )
    )


def _kind_specs(row: str, combos: Mapping[str, Combos], enum: type[Any]) -> dict[Any, OpSpec]:
    """Return the per-member rows of a reduction: ``Reg.Reduce[ReduceType.MAX]`` and its pairs."""
    return {
        member: attrs.evolve(
            SPECS[row], name=f"{row}[{enum.__name__}.{member.name}]", combos=combos[member.name]
        )
        for member in enum
    }


REDUCE_SPECS: dict[ReduceType, OpSpec] = _kind_specs("Reg.Reduce", REDUCE_COMBOS, ReduceType)
"""The legal (dst, src) pairs of each ReduceType (the ``Reg.Reduce`` row is their union)."""


def _reduce_setup(op: Any) -> None:
    op.kind = op.t.enum(op.kind_type, op.kind_type.SUM)
    op.rule = op.kind_rules[op.kind]
    if op.t.dtypes:
        op.rule.check_prefix(*op.t.dtypes)


def _reduce(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """Check the template dtypes against the registers and ZEROING, then reduce (Reg surface)."""
    shared.template_pair(op, dst, src)
    _zeroing_only(op)
    shared.reduction(op, dst, src, mask, kind=op.kind.name, rule=op.rule)


@define(
    "Reg.Reduce",
    enum_kinds=(ReduceType, MaskMergeMode),
    max_dtypes=2,
    _setup=_reduce_setup,
    kind_type=ReduceType,
    kind_rules=REDUCE_SPECS,
    reducer=staticmethod(red.reduce),
    batch=rules.ROWS,  # reduces each row (last axis) alone
)
def Reduce(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """``Reduce<ReduceType type = SUM, T, U, mode = ZEROING>(S& dst, V src, MaskReg mask)``.

    Reduces the lanes ``mask`` selects to one value in ``dst`` lane 0; every other lane of
    ``dst`` is 0, except that MAX/MIN put the **index** of the first extreme in lane 1 as raw
    bits of ``T`` (for a half dst, index 114 reads as the half whose bits are 114; view the
    lanes as ``uint16`` to read it). ``T`` is the dst type, ``U`` the src type: SUM also widens
    int16 -> int32 and uint16 -> uint32; MAX/MIN need ``T == U``.

    * SUM adds in a pairwise binary tree in ``T``: lanes (0, 1), (2, 3), ..., then pairs of
      the partial sums, rounding each step (IEEE round to nearest even; integers wrap).
    * Masked-off lanes count as 0 (SUM), type-min (MAX) or type-max (MIN); an empty mask gives
      0 / type-min / type-max with index 0. Decision: for half/float, type-min/max are
      ``-inf`` / ``+inf``, as the C API reduce page says for the same instruction.
      Decision: a masked-off lane takes part in the index search with that value, so if it
      ties with the extreme and comes first, its index is the one reported.
    * Any NaN among the counted lanes makes the result that (first) NaN and the index the first
      NaN's. ``max(-0, +0) = +0`` and ``min(-0, +0) = -0``.
    * 64-bit lanes: RegTraitNumOne (32 lanes) and RegTraitNumTwo (64 lanes, b32 mask format);
      dst and src have the same layout.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, ReduceType, half
    >>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> src.set(np.where(np.arange(128) == 114, 1.14, 0.5).astype(np.float16))
    >>> Reg.Reduce[ReduceType.MAX](dst, src, Reg.CreateMask[half]())
    >>> lanes = np.asarray(dst)
    >>> float(lanes[0]), int(lanes.view(np.uint16)[1]), int(lanes.view(np.uint16)[2:].max())
    (1.1396484375, 114, 0)
    """
    _reduce(op, dst, src, mask)


@define(
    "Reg.ReduceDataBlock",
    enum_kinds=(ReduceType, MaskMergeMode),
    max_dtypes=2,
    _setup=_reduce_setup,
    kind_type=ReduceType,
    kind_rules=_kind_specs("Reg.ReduceDataBlock", REDUCE_BLOCK_COMBOS, ReduceType),
    reducer=staticmethod(red.reduce_blocks),
    batch=rules.ROWS,  # reduces each row (last axis) alone
)
def ReduceDataBlock(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """``ReduceDataBlock<ReduceType type = SUM, T, mode = ZEROING, U>(U& dst, U src, MaskReg mask)``.

    Reduces each 32-byte data block of ``src`` (16 half / 8 float lanes, cut in the *src*
    type) to one value; block ``k``'s result goes to ``dst`` lane ``k`` and every other lane of
    ``dst`` is 0 (8 results per register). SUM also widens int16 -> int32 and uint16 -> uint32
    (``T`` is the dst type, ``U`` the src type); MAX/MIN need ``T == U`` and give no index.

    * SUM adds each block in the pairwise binary tree of ``Reduce`` (one rounding per step,
      integers wrap); masked-off lanes count as 0, an all-off block gives +0.
    * MAX/MIN: masked-off lanes count as type-min / type-max (``-inf`` / ``+inf`` for floats, as
      the ``asc_reduce_max_datablock`` page states), so an all-off block gives that value.
      ``max(-0, +0) = +0``, ``min(-0, +0) = -0``. A block holding a NaN gives a NaN: decision,
      the block's first NaN (its payload kept), as ``Reduce`` does.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, ReduceType, float32_t
    >>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> src.set(np.arange(64, dtype=np.float32))
    >>> Reg.ReduceDataBlock[ReduceType.SUM](dst, src, Reg.CreateMask[float32_t]())
    >>> np.asarray(dst)[:9].tolist()
    [28.0, 92.0, 156.0, 220.0, 284.0, 348.0, 412.0, 476.0, 0.0]
    >>> Reg.ReduceDataBlock[ReduceType.MAX](dst, src, Reg.CreateMask[float32_t]())
    >>> np.asarray(dst)[:3].tolist()
    [7.0, 15.0, 23.0]
    """
    _reduce(op, dst, src, mask)


@define(
    "Reg.PairReduceElem",
    enum_kinds=(PairReduce, MaskMergeMode),
    max_dtypes=2,
    _setup=_reduce_setup,
    kind_type=PairReduce,
    kind_rules=_kind_specs(
        "Reg.PairReduceElem", {"SUM": SPECS["Reg.PairReduceElem"].combos}, PairReduce
    ),
    reducer=staticmethod(red.pair_reduce),
    batch=rules.ROWS,  # reduces each row (last axis) alone
)
def PairReduceElem(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """``PairReduceElem<PairReduce type = SUM, T, mode = ZEROING, U>(U& dst, U src, MaskReg mask)``.

    Adds each two adjacent lanes: ``dst[i] = src[2i] + src[2i+1]`` for the lower half of
    ``dst`` (one IEEE rounding); the upper half is 0. half and float.

    Masked-off lanes count as 0 (both off gives 0, one off gives the other). Decision: they
    count as **+0** and the pair is still added, so a lone ``-0`` with a masked-off partner
    gives ``+0`` (``-0 + +0``), the rule of ``Reduce`` SUM; the page's "the result is a" is
    read as the value, not the sign of zero.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, PairReduce, half
    >>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> src.set(np.arange(128) % 4)
    >>> Reg.PairReduceElem[PairReduce.SUM](dst, src, Reg.CreateMask[half, Reg.MaskPattern.VL4]())
    >>> np.asarray(dst)[:4].tolist(), float(np.asarray(dst)[64:].max())
    ([1.0, 5.0, 0.0, 0.0], 0.0)
    """
    _reduce(op, dst, src, mask)


# The older spellings of Reduce (the row's ``aliases``): the op with its ReduceType fixed.
ReduceSum = Reduce.fixing("Reg.ReduceSum", ReduceType.SUM)
ReduceMax = Reduce.fixing("Reg.ReduceMax", ReduceType.MAX)
ReduceMin = Reduce.fixing("Reg.ReduceMin", ReduceType.MIN)

# The older spellings of ReduceDataBlock and PairReduceElem (their rows' ``aliases``).
ReduceSumWithDataBlock = ReduceDataBlock.fixing("Reg.ReduceSumWithDataBlock", ReduceType.SUM)
ReduceMaxWithDataBlock = ReduceDataBlock.fixing("Reg.ReduceMaxWithDataBlock", ReduceType.MAX)
ReduceMinWithDataBlock = ReduceDataBlock.fixing("Reg.ReduceMinWithDataBlock", ReduceType.MIN)
PairReduceSum = PairReduceElem.fixing("Reg.PairReduceSum", PairReduce.SUM)

"""Compound and carry arithmetic: AbsSub, MulAddDst, MulDstAdd, Axpy, ExpSub, Mull, AddC, SubC.

The multiply-adds are fused (one rounding: the precision appendix states each "equals
Fma(x, y, z)"); ``AbsSub`` and ``ExpSub`` are serial (``Abs(Sub)`` and ``Exp(Sub)``); integer
results wrap. All of them are ZEROING only on dav-3510: masked-off lanes become 0.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, float32_t
>>> a, b, acc = (Reg.RegTensor[float32_t]() for _ in range(3))
>>> a.set(np.float32(1 + 2**-23)); b.set(np.float32(1 - 2**-23)); acc.set(np.float32(-1))
>>> Reg.MulAddDst(acc, a, b, Reg.CreateMask[float32_t]())  # one rounding: not 0
>>> float(np.asarray(acc)[0]) == -(2.0**-46)
True
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import compute as shared
from ascreg._frontend.template import define
from ascreg.core.compound import TERNARY_OPS, abs_sub
from ascreg.enums import MaskMergeMode, RegLayout

_FUSED = """Fused: the float result is the exact ``{formula}`` rounded **once** to nearest
    even (the precision appendix: "equivalent to Fma(x, y, z)", 0 ulp), so it can differ from
    a ``Mul`` then an ``Add``; IEEE special values as ``fma`` (``inf * 0 + c`` is NaN).
    Integers wrap. Masked-off lanes become 0 (ZEROING only; MERGING is rejected)."""

AbsSub = define(
    "Reg.AbsSub",
    doc="""``AbsSub<T, mode = ZEROING>(U& dst, U& src0, U& src1, MaskReg& mask)``: ``|src0 - src1|``.

    Serial, as the precision appendix states: ``Abs(Sub(x, y))``, the difference rounded to
    nearest even (0 ulp, subnormals kept), then its sign bit cleared; int64 wraps
    (``|INT64_MIN - 0| = INT64_MIN``). Masked-off lanes become 0 (ZEROING only; MERGING is
    rejected). Types: half, float, int64_t. The C twin is ``asc_abs_sub`` (half, float).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half
    >>> a, b, d = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> a.set(np.float16(1.5)); b.set(np.resize(np.float16([4.0, -1.0]), 128))
    >>> Reg.AbsSub(d, a, b, Reg.CreateMask[half]())
    >>> np.asarray(d)[:2].tolist()
    [2.5, 2.5]
    """,
    enum_kinds=(MaskMergeMode,),
    formula=staticmethod(abs_sub),
)(shared.binary)

MulAddDst = define(
    "Reg.MulAddDst",
    doc=f"""``MulAddDst<T, mode = ZEROING>(U& dst, U& src0, U& src1, MaskReg& mask)``.

    ``dst = src0 * src1 + dst``.

    {_FUSED.format(formula="src0 * src1 + dst")}
    (int64/uint64 are software-emulated on the chip, with the same wrapped result.) Types:
    int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float, int64_t, uint64_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> a, b, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> a.set(300); b.set(300); d.set(7)
    >>> Reg.MulAddDst(d, a, b, Reg.CreateMask[int16_t]())  # 90007 wraps
    >>> int(np.asarray(d)[0])
    24471
    """,
    enum_kinds=(MaskMergeMode,),
    formula=staticmethod(TERNARY_OPS["MulAddDst"]),
)(shared.ternary)

MulDstAdd = define(
    "Reg.MulDstAdd",
    doc=f"""``MulDstAdd<T, mode = ZEROING>(U& dst, U& src0, U& src1, MaskReg& mask)``.

    ``dst = dst * src0 + src1``.

    {_FUSED.format(formula="dst * src0 + src1")}
    Types: half, bfloat16_t, float, one type for all three registers as the implementation
    requires (the page's "half, half -> float" row does not compile). The C twin is
    ``asc_madd``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half
    >>> a, b, d = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> d.set(np.float16(3)); a.set(np.float16(0.5)); b.set(np.float16(-1))
    >>> Reg.MulDstAdd(d, a, b, Reg.CreateMask[half]())
    >>> float(np.asarray(d)[0])
    0.5
    """,
    enum_kinds=(MaskMergeMode,),
    formula=staticmethod(TERNARY_OPS["MulDstAdd"]),
)(shared.ternary)

Axpy = define(
    "Reg.Axpy",
    doc=f"""``Axpy<T, U, mode = ZEROING>(S& dst, S& src, const U scalar, MaskReg& mask)``.

    ``dst = scalar * src + dst``; the scalar is converted to ``T`` (an integer out of range,
    or a float for an integer ``T``, is an error).

    {_FUSED.format(formula="scalar * src + dst")}
    Types: half, float, int64_t, uint64_t. The C twin is ``asc_axpy`` (half, float).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, float32_t
    >>> x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> x.set(np.arange(64, dtype=np.float32)); y.set(np.float32(1))
    >>> Reg.Axpy(y, x, 2.0, Reg.CreateMask[float32_t, Reg.MaskPattern.VL4]())
    >>> np.asarray(y)[:6].tolist()
    [1.0, 3.0, 5.0, 7.0, 0.0, 0.0]
    """,
    enum_kinds=(MaskMergeMode,),
    formula=staticmethod(TERNARY_OPS["Axpy"]),
)(shared.axpy)

ExpSub = define(
    "Reg.ExpSub",
    doc="""``ExpSub<T, U, RegLayout layout = ZERO, mode = ZEROING>(S& dst, V& src0, V& src1, MaskReg& mask)``.

    ``dst = exp(f32(src0) - f32(src1))`` into float lanes (``T`` float, ``U`` half or float).
    Serial, as the precision appendix states (``Exp(Sub(cast_to_f32(x), cast_to_f32(y)))``):
    the float difference is rounded once, then ``Exp`` in its default mode: within 1 ulp on
    the chip (ascreg gives the correctly rounded value: compare chip output with
    ``ascreg.testing.assert_ulp_close``), subnormals flushed (a result below the float normal
    range is +0). ``exp(-inf) = +0``; ``inf - inf`` gives NaN.

    Half sources (128 lanes) feed the 64 float lanes: dst lane ``i`` reads source lane
    ``2 * i + layout`` (``RegLayout.ZERO``: the even lanes, ``ONE``: the odd ones) and is
    enabled by that source lane's bit of the b16 mask (bit ``2 * (2 * i + layout)``); for
    float sources the layout has no effect. Masked-off lanes become 0 (ZEROING only). The C
    twins are ``asc_exp_sub`` (layout ZERO) and ``asc_exp_sub_v2`` (ONE).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half, float32_t
    >>> a, b, d = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[float32_t]()
    >>> a.set(np.resize(np.float16([1.0, 2.0]), 128)); b.set(np.float16(1))
    >>> Reg.ExpSub[float32_t, half, Reg.RegLayout.ONE](d, a, b, Reg.CreateMask[half]())
    >>> float(np.asarray(d)[0])
    2.7182817459106445
    """,
    enum_kinds=(RegLayout, MaskMergeMode),
    max_dtypes=2,
)(shared.exp_sub)


@define("Reg.Mull")
def Mull(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``Mull<T>(U& dst0, U& dst1, U& src0, U& src1, MaskReg& mask)``: the full 64-bit product.

    ``dst0`` gets the low 32 bits of ``src0 * src1`` (``mod 2**32``), ``dst1`` the high 32 bits.
    Decision (the page writes ``/ 2**bit``): for int32 the high word is the top half of the
    two's-complement 64-bit product (``floor``: ``-2 * 3`` gives ``dst1 = -1``), as a widening
    multiply produces. Masked-off lanes are 0 in both. Types: int32_t, uint32_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint32_t
    >>> a, b = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t]()
    >>> lo, hi = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t]()
    >>> a.set(np.uint32(0x80000001)); b.set(np.uint32(4))
    >>> Reg.Mull(lo, hi, a, b, Reg.CreateMask[uint32_t]())
    >>> int(np.asarray(lo)[0]), int(np.asarray(hi)[0])
    (4, 2)
    """
    shared.mull(op, dst0, dst1, src0, src1, mask)


_CARRY_DOC = """``{name}<T>(MaskReg& carry, U& dst, U& src0, U& src1, MaskReg& carrySrc, MaskReg& mask)``.

    ``{{carry, dst}} = {formula}``: the 32-bit lanes are added as unsigned numbers (int32
    too); ``dst`` gets the low 32 bits and ``carry`` the bit carried out of the top{extra}.
    ``carrySrc`` and ``carry`` use the b32 mask layout (lane ``i`` is bit ``4 * i``), so the
    carry of one word feeds the next word's ``{name}`` in a multi-word {what}. Masked-off lanes
    give 0 in ``dst`` and in ``carry``. Types: int32_t, uint32_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, uint32_t
    >>> a, b, d = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t]()
    >>> a.set(np.uint32({a})); b.set(np.uint32({b}))
    >>> carry, carry_in = Reg.MaskReg(), Reg.CreateMask[uint32_t, MaskPattern.{pattern}]()
    >>> Reg.{name}(carry, d, a, b, carry_in, Reg.CreateMask[uint32_t]())
    >>> int(np.asarray(d)[0]), carry.count()
    {result}
    """


def _carry(op: Any, carry: Any, dst: Any, src0: Any, src1: Any, carry_src: Any, mask: Any) -> None:
    shared.carry_sum(op, carry, dst, src0, src1, carry_src, mask, tag="")


AddC = define(
    "Reg.AddC",
    doc=_CARRY_DOC.format(
        name="AddC", formula="src0 + src1 + carrySrc", extra="", what="sum",
        a="0xFFFFFFFF", b="8", pattern="ALL", result="(8, 64)",
    ),
    subtract=False,
)(_carry)  # fmt: skip
SubC = define(
    "Reg.SubC",
    doc=_CARRY_DOC.format(
        name="SubC", formula="src0 + ~src1 + carrySrc", what="difference",
        extra=" (1: no borrow). With carrySrc 1 it is ``src0 - src1``; with 0, ``src0 - src1 - 1``",
        a="5", b="7", pattern="ALLF", result="(4294967293, 0)",
    ),
    subtract=True,
)(_carry)  # fmt: skip

# The older spellings (each row's ``aliases``): the same op objects.
FusedAbsSub, FusedExpSub, FusedMulDstAdd, Mula = AbsSub, ExpSub, MulDstAdd, MulAddDst
AddCarryOuts, SubCarryOuts = AddC, SubC

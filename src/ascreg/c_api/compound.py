"""C API compound and carry arithmetic: the C twins of Reg.AbsSub, Axpy, MulDstAdd, ExpSub, ...

``asc_abs_sub``, ``asc_axpy``, ``asc_madd`` (``Reg.MulDstAdd``), ``asc_exp_sub`` /
``asc_exp_sub_v2`` (``Reg.ExpSub`` with ``RegLayout`` ZERO / ONE), ``asc_mull``, ``asc_addc``
and ``asc_subc``: the same implementations as their Reg twins, under the C API's own dtype rows.
Masked-off lanes become 0.

Examples
--------
>>> import numpy as np
>>> from ascreg.c_api import asc_axpy, asc_create_mask_b32, vector_float, PAT_ALL
>>> x, y = vector_float(), vector_float(); x.set(np.float32(3)); y.set(np.float32(1))
>>> asc_axpy(y, x, 0.5, asc_create_mask_b32(PAT_ALL)); float(np.asarray(y)[0])
2.5
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import compute as shared
from ascreg._frontend.template import define
from ascreg.core.compound import TERNARY_OPS, abs_sub

__all__ = [
    "asc_abs_sub",
    "asc_addc",
    "asc_axpy",
    "asc_exp_sub",
    "asc_exp_sub_v2",
    "asc_madd",
    "asc_mull",
    "asc_subc",
]

asc_abs_sub = define(
    "asc_abs_sub",
    doc="""``void asc_abs_sub(vector_T& dst, vector_T src0, vector_T src1, vector_bool mask)``.

    ``dst = |src0 - src1|``: ``Reg.AbsSub``'s serial ``Abs(Sub(x, y))`` (the difference
    rounded once, then its sign cleared). Types: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> a, b, d = vector_half(), vector_half(), vector_half()
    >>> a.set(np.float16(-1)); b.set(np.float16(2))
    >>> asc_abs_sub(d, a, b, asc_create_mask_b16(PAT_ALL)); float(np.asarray(d)[0])
    3.0
    """,
    formula=staticmethod(abs_sub),
)(shared.binary)


def _axpy(op: Any, dst: Any, src: Any, value: Any, mask: Any) -> None:
    shared.axpy(op, dst, src, value, mask)  # the C parameter is named ``value``


asc_axpy = define(
    "asc_axpy",
    doc="""``void asc_axpy(vector_T& dst, vector_T src, T value, vector_bool mask)``.

    ``dst = value * src + dst``, fused (one rounding), as ``Reg.Axpy``. Types: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> x, y = vector_half(), vector_half(); x.set(np.float16(2)); y.set(np.float16(1))
    >>> asc_axpy(y, x, -0.25, asc_create_mask_b16(PAT_ALL)); float(np.asarray(y)[0])
    0.5
    """,
    formula=staticmethod(TERNARY_OPS["Axpy"]),
)(_axpy)

asc_madd = define(
    "asc_madd",
    doc="""``void asc_madd(vector_T& dst, vector_T src0, vector_T src1, vector_bool mask)``.

    ``dst = dst * src0 + src1``, fused (one rounding): ``Reg.MulDstAdd`` (the same ``vmadd``
    instruction). Types: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> a, b, d = vector_float(), vector_float(), vector_float()
    >>> d.set(np.float32(3)); a.set(np.float32(2)); b.set(np.float32(1))
    >>> asc_madd(d, a, b, asc_create_mask_b32(PAT_ALL)); float(np.asarray(d)[0])
    7.0
    """,
    formula=staticmethod(TERNARY_OPS["MulDstAdd"]),
)(shared.ternary)

_EXP_SUB = """``void {name}(vector_float& dst, vector_T src0, vector_T src1, vector_bool mask)``.

    ``dst = exp(f32(src0) - f32(src1))``: ``Reg.ExpSub`` with ``RegLayout.{layout}``: half
    sources are read from their {which} lanes (dst lane ``i`` from source lane
    ``2 * i + {part}``, enabled by that source lane's b16 mask bit); float sources as they are.
    The float difference is rounded once; ``exp`` is within 1 ulp on the chip (ascreg:
    correctly rounded) with subnormals flushed. T: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> a, b, d = vector_half(), vector_half(), vector_float()
    >>> a.set(np.resize(np.float16([0.0, 1.0]), 128)); b.set(np.float16(0))
    >>> {name}(d, a, b, asc_create_mask_b16(PAT_ALL)); float(np.asarray(d)[0])
    {result}
    """

asc_exp_sub = define(
    "asc_exp_sub",
    doc=_EXP_SUB.format(name="asc_exp_sub", layout="ZERO", which="even", part=0, result="1.0"),
    part=0,
)(shared.exp_sub)
asc_exp_sub_v2 = define(
    "asc_exp_sub_v2",
    doc=_EXP_SUB.format(
        name="asc_exp_sub_v2", layout="ONE", which="odd", part=1, result="2.7182817459106445"
    ),
    part=1,
)(shared.exp_sub)


@define("asc_mull")
def asc_mull(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``void asc_mull(vector_T& dst0, vector_T& dst1, vector_T src0, vector_T src1, vector_bool mask)``.

    ``dst0`` / ``dst1`` = the low / high 32 bits of the 64-bit product (``Reg.Mull``; for int32
    the high word of the two's-complement product). Types: uint32_t, int32_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> a, b, lo, hi = (vector_int32_t() for _ in range(4)); a.set(-2); b.set(3)
    >>> asc_mull(lo, hi, a, b, asc_create_mask_b32(PAT_ALL))
    >>> int(np.asarray(lo)[0]), int(np.asarray(hi)[0])
    (-6, -1)
    """
    shared.mull(op, dst0, dst1, src0, src1, mask)


def _carry(op: Any, carry: Any, dst: Any, src0: Any, src1: Any, carry_src: Any, mask: Any) -> None:
    shared.carry_sum(op, carry, dst, src0, src1, carry_src, mask, tag="")


_CARRY = """``void {name}(vector_bool& carry, vector_uint32_t& dst, vector_uint32_t src0, vector_uint32_t src1, vector_bool carry_src, vector_bool mask)``.

    ``{{carry, dst}} = {formula}`` per lane (``Reg.{family}``): ``carry`` gets the bit carried
    out of the top{more}; ``carry_src`` and ``carry`` use the b32 mask layout. Masked-off lanes
    give 0 in ``dst`` and ``carry``. Types: uint32_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> a, b, d, carry = vector_uint32_t(), vector_uint32_t(), vector_uint32_t(), vector_bool()
    >>> a.set(np.uint32(0xFFFFFFFF)); b.set(np.uint32(1))
    >>> {name}(carry, d, a, b, asc_create_mask_b32(PAT_ALL), asc_create_mask_b32(PAT_ALL))
    >>> int(np.asarray(d)[0]), carry.count()
    {result}
    """

asc_addc = define(
    "asc_addc",
    doc=_CARRY.format(name="asc_addc", formula="src0 + src1 + carry_src", family="AddC",
                      more="", result="(1, 64)"),
    subtract=False,
)(_carry)  # fmt: skip
asc_subc = define(
    "asc_subc",
    doc=_CARRY.format(name="asc_subc", formula="src0 + ~src1 + carry_src", family="SubC",
                      more=" (1: no borrow)", result="(4294967294, 64)"),
    subtract=True,
)(_carry)  # fmt: skip

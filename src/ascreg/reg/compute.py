"""Compute ops: compare, select, shifts, element-wise arithmetic and logic, duplicate, move.

Every op writes its destination in place, as the C++ ``dst`` reference parameter does, checks
its dtypes against the op's row in ``_spec.py`` and applies its mask rule: masked-off lanes of
the destination become 0 (ZEROING) except for ``Select`` (the mask *is* the selector) and
``Move`` (MERGING).

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, uint16_t, int16_t
>>> src, shift, dst = Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[uint16_t]()
>>> src.set(np.arange(128)); shift.set(1)
>>> Reg.ShiftRight(dst, src, shift, Reg.CreateMask[uint16_t]())
>>> np.asarray(dst)[:5]
array([0, 0, 1, 1, 2], dtype=uint16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import Kind
from ascreg._frontend import compute as shared
from ascreg._frontend import operands
from ascreg._frontend.template import NO_ARGS, define
from ascreg._spec import SPECS
from ascreg.core.arith import ACCUMULATIONS, BINARY_OPS
from ascreg.core.shifts import zeroing_shift
from ascreg.enums import CMPMODE, HighLowPart, MaskMergeMode
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.registers import MaskReg, RegTensor

Lanes = np.ndarray[Any, Any]


def _mode_setup(op: Any) -> None:
    """Name the subscript's ``CMPMODE`` once (``EQ`` when none is given)."""
    op.cmp_mode = op.t.enum(CMPMODE, CMPMODE.EQ).name


@define("Reg.Compare", enum_kinds=(CMPMODE,), _setup=_mode_setup)
def Compare(op: Any, dst: MaskReg, src0: Any, src1: Any, mask: MaskReg) -> None:
    """``Compare<T, CMPMODE mode = EQ>(MaskReg& dst, U& src0, U& src1, MaskReg& mask)``.

    ``dst`` lane i is 1 when the mask selects lane i and ``src0[i] <mode> src1[i]`` holds;
    masked-off lanes are 0. Floats follow IEEE 754: a NaN makes every mode false except NE,
    and +0 == -0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, CMPMODE, float32_t
    >>> a, b = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> a.set(np.float32(np.nan)); b.set(np.float32(np.nan))
    >>> out = Reg.MaskReg()
    >>> Reg.Compare[float32_t, CMPMODE.NE](out, a, b, Reg.CreateMask[float32_t]())
    >>> out.count()
    64
    """
    shared.compare(op, op.cmp_mode, dst, src0, src1, mask, scalar=False)


@define("Reg.Compares", enum_kinds=(CMPMODE,), _setup=_mode_setup)
def Compares(op: Any, dst: MaskReg, src0: Any, scalar: Any, mask: MaskReg) -> None:
    """``Compares<T, CMPMODE mode = EQ>(MaskReg& dst, U& src, T scalar, MaskReg& mask)``.

    :class:`Compare` against one scalar (converted to ``T``; a value that does not fit is an
    error rather than a silent wrap).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, CMPMODE, int32_t
    >>> a = Reg.RegTensor[int32_t](); a.set(np.arange(64) - 32)
    >>> out = Reg.MaskReg()
    >>> Reg.Compares[int32_t, CMPMODE.LT](out, a, 0, Reg.CreateMask[int32_t]())
    >>> print(out)
    MaskReg(b32: lanes 0-31 on, 32 of 64)
    """
    shared.compare(op, op.cmp_mode, dst, src0, scalar, mask, scalar=True)


@define("Reg.Select")
def Select(op: Any, dst: Any, src0: Any, src1: Any, mask: MaskReg) -> None:
    """``Select(U& dst, U& src0, U& src1, MaskReg& mask)``: ``dst[i] = mask[i] ? src0[i] : src1[i]``.

    Every lane is written (nothing is zeroed) and the copy is bit-exact, NaN payloads
    included. With MaskReg operands it is the bitwise ``(sel & src0) | (~sel & src1)``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, half
    >>> a, b, d = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> a.set(np.float16(1)); b.set(np.float16(2))
    >>> Reg.Select(d, a, b, Reg.CreateMask[half, MaskPattern.VL1]())
    >>> np.asarray(d)[:3]
    array([1., 2., 2.], dtype=float16)
    """
    shared.select(op, dst, src0, src1, mask)


def _shift(op: Any, dst: Any, src: Any, count: Any, mask: MaskReg) -> None:
    """Shared body of the four shifts (vector or scalar count, left or right)."""
    form = ("shift", type(dst), type(src), type(count))
    if form in op._checked:  # this op with these operand types passed every check before
        if not op.scalar and isinstance(mask, MaskReg):  # the vector form: no check left to make
            counts = count.get()
            values = src.get()
            active = operands.lane_enables(mask, dst)
            dst.put_known(zeroing_shift(values, counts, active, left=op.left))
            return
        counts = shared.scalar_count(op, count, dst.dtype) if op.scalar else count.get()
        shared.shift(op, dst, src, counts, mask, left=op.left)
        return
    d, s = shared.vectors(op, (dst, "dst"), (src, "src0"), check=False)
    if op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) is not MaskMergeMode.ZEROING:
        raise AscregTypeError("shifts support MaskMergeMode.ZEROING only on dav-3510")
    if op.scalar:
        counts = shared.scalar_count(op, count, d.dtype)
    else:
        c = operands.register(count, "src1 (shift counts)", op.surface)
        op.spec.check(d.dtype, c.dtype)
        counts = c.get()  # b64 too: the whole int64 count (see core.shifts.B64_COUNT_RULE)
    shared.shift(op, d, s, counts, mask, left=op.left)
    op._checked.add(form)


_SHIFT_OPTIONS: dict[str, Any] = {"enum_kinds": (MaskMergeMode,), "max_dtypes": 2}
ShiftRight = define(
    "Reg.ShiftRight",
    doc="""``ShiftRight(S& dst, S& src0, V& src1, MaskReg& mask)``: per-lane counts from ``src1``.

    Logical for unsigned, arithmetic for signed lanes; counts at or above the width give 0
    (-1 for a negative signed value); masked-off lanes 0; negative counts are an error.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> s, c, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> s.set(np.int16(-21846)); c.set(np.int16(3))
    >>> Reg.ShiftRight(d, s, c, Reg.CreateMask[int16_t]())
    >>> hex(int(np.asarray(d)[0].view(np.uint16)))
    '0xf555'
    """,
    left=False,
    scalar=False,
    **_SHIFT_OPTIONS,
)(_shift)
ShiftLeft = define(
    "Reg.ShiftLeft",
    doc="""``ShiftLeft(S& dst, S& src0, V& src1, MaskReg& mask)``: per-lane counts from ``src1``.

    Logical for unsigned lanes; for signed lanes the sign bit is kept and the bit below it
    dropped (int16 0xAAAA << 1 = 0xD554); counts at or above the width give 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> s, c, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> s.set(np.int16(-21846)); c.set(np.int16(1))
    >>> Reg.ShiftLeft(d, s, c, Reg.CreateMask[int16_t]())
    >>> hex(int(np.asarray(d)[0].view(np.uint16)))
    '0xd554'
    """,
    left=True,
    scalar=False,
    **_SHIFT_OPTIONS,
)(_shift)
ShiftRights = define(
    "Reg.ShiftRights",
    doc="""``ShiftRights(S& dst, S& src, int16_t scalar, MaskReg& mask)``: one count for all lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint8_t
    >>> s, d = Reg.RegTensor[uint8_t](), Reg.RegTensor[uint8_t](); s.set(np.uint8(200))
    >>> Reg.ShiftRights(d, s, 3, Reg.CreateMask[uint8_t]())
    >>> int(np.asarray(d)[0])
    25
    """,
    left=False,
    scalar=True,
    **_SHIFT_OPTIONS,
)(_shift)
ShiftLefts = define(
    "Reg.ShiftLefts",
    doc="""``ShiftLefts(S& dst, S& src, int16_t scalar, MaskReg& mask)``: one count for all lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint32_t
    >>> s, d = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t](); s.set(np.uint32(3))
    >>> Reg.ShiftLefts(d, s, 31, Reg.CreateMask[uint32_t]())
    >>> int(np.asarray(d)[0])
    2147483648
    """,
    left=True,
    scalar=True,
    **_SHIFT_OPTIONS,
)(_shift)


def _binary_op(
    name: str, summary: str, dtype: str = "int16_t", result: str = "", carry: str = ""
) -> Any:
    doc = f"""``{name}(U& dst, U& src0, U& src1, MaskReg& mask)``: {summary}
{carry}
    Masked-off lanes become 0 (``Add``, ``Max``, ``Min`` also accept
    ``MaskMergeMode.MERGING``). Integer results wrap; float results are IEEE 754 (bfloat16 is
    computed in float32 and rounded to nearest even). Types: {SPECS[f"Reg.{name}"].legal_text()}.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, {dtype}
    >>> a, b, d = Reg.RegTensor[{dtype}](), Reg.RegTensor[{dtype}](), Reg.RegTensor[{dtype}]()
    >>> a.set(12); b.set(-10)
    >>> Reg.{name}(d, a, b, Reg.CreateMask[{dtype}]())
    >>> np.asarray(d)[0].item()
    {result}
    """
    logic = name.lower() if name in ("And", "Or", "Xor") else None
    return define(
        f"Reg.{name}",
        doc=doc,
        enum_kinds=(MaskMergeMode,),
        formula=staticmethod(BINARY_OPS[name]),
        accumulate=staticmethod(ACCUMULATIONS[name]) if name in ACCUMULATIONS else None,
        logic=logic,
        subtract=name == "Sub",
    )(shared.binary_or_carry if carry else shared.binary)


_CARRY = """
    The carry overload ``{name}(MaskReg& carry, U& dst, U& src0, U& src1, MaskReg& mask)``
    (int32_t, uint32_t; older spelling ``{name}CarryOut``) also writes, per lane, the carry out
    of the top bit of ``src0 {sign} src1`` into ``carry`` (b32 layout: bit ``4 * i``).{more}
    Masked-off lanes give 0 in ``dst`` and in ``carry``. ``{name}C`` takes a carry in.
"""


Add = _binary_op("Add", "lane-wise sum.", result="2",
                 carry=_CARRY.format(name="Add", sign="+", more=""))  # fmt: skip
_BORROW = """
    It is ``src0 + ~src1 + 1``: a carry of 1 means no borrow (``src0 >= src1`` unsigned)."""
Sub = _binary_op("Sub", "lane-wise difference.", result="22",
                 carry=_CARRY.format(name="Sub", sign="-", more=_BORROW))  # fmt: skip
Mul = _binary_op("Mul", "lane-wise product (low bits for integers).", result="-120")
Max = _binary_op("Max", "lane-wise maximum (NaN propagates; max(-0, +0) = +0).", result="12")
Min = _binary_op("Min", "lane-wise minimum (NaN propagates; min(-0, +0) = -0).", result="-10")
And = _binary_op("And", "bitwise AND.", result="4")
Or = _binary_op("Or", "bitwise OR.", result="-2")
Xor = _binary_op("Xor", "bitwise XOR.", result="-6")
Prelu = _binary_op("Prelu", "``src0 > 0 ? src0 : src0 * src1`` (parametric ReLU).", "half", "12.0")


@define("Reg.Not", enum_kinds=(MaskMergeMode,))
def Not(op: Any, dst: Any, src: Any, mask: MaskReg) -> None:
    """``Not<T, mode>(U& dst, U& src, MaskReg& mask)``: bitwise NOT; masked-off lanes (bits) 0.

    ``mode`` is ``MaskMergeMode::ZEROING`` (the page: MERGING is not supported).

    Examples
    --------
    >>> from ascreg import Reg, MaskPattern, uint8_t
    >>> out = Reg.MaskReg()
    >>> Reg.Not(out, Reg.CreateMask[uint8_t, MaskPattern.ALLF](), Reg.CreateMask[uint8_t, MaskPattern.VL8]())
    >>> out.count()
    8
    """
    shared.zeroing_only(op)
    shared.logic(op, "not", dst, [src], mask)


@define("Reg.Move", enum_kinds=(MaskMergeMode,))
def Move(op: Any, dst: Any, src: Any, mask: MaskReg | None = None) -> None:
    """``Move(dst, src[, mask])`` on registers (MERGING) or masks (unselected bits 0).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, int32_t
    >>> s, d = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t](); s.set(1); d.set(2)
    >>> Reg.Move(d, s, Reg.CreateMask[int32_t, MaskPattern.VL1]())
    >>> np.asarray(d)[:3]
    array([1, 2, 2], dtype=int32)
    """
    if not isinstance(dst, MaskReg):
        shared.vectors(op, (dst, "dst"), (src, "src"))
        if op.t.enum(MaskMergeMode, MaskMergeMode.MERGING) is not MaskMergeMode.MERGING:
            raise AscregTypeError("Move supports MaskMergeMode.MERGING only")
    shared.copy(op, dst, src, mask)


@define("Reg.Duplicate", enum_kinds=(MaskMergeMode, HighLowPart))
def Duplicate(op: Any, dst: Any, scalar: Any, mask: MaskReg | None = None) -> None:
    """``Duplicate(dst, scalar[, mask])`` or ``Duplicate(dst, srcReg, mask)``: broadcast.

    A scalar is converted to the element type (through ``U`` first when the subscript names
    it); a register as the second argument broadcasts its lane 0 (``HighLowPart::LOWEST``, the
    only position the page supports; bit for bit). Masked-off lanes are 0, or keep their old
    value with ``MaskMergeMode.MERGING``. The three C++ overloads take
    ``Duplicate<T, U>(dst, scalar)``, ``Duplicate<T, mode, U>(dst, scalar, mask)`` and
    ``Duplicate<T, pos, mode>(dst, srcReg, mask)``; a subscript of one of them with the
    arguments of another is an error, as the C++ overload resolution is.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, half, int32_t
    >>> d = Reg.RegTensor[half]()
    >>> Reg.Duplicate(d, 1.5, Reg.CreateMask[half, MaskPattern.VL2]())
    >>> np.asarray(d)[:3]
    array([1.5, 1.5, 0. ], dtype=float16)
    >>> s, e = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t](); s.set(np.arange(64) + 7)
    >>> Reg.Duplicate(e, s, Reg.CreateMask[int32_t, MaskPattern.VL2]())
    >>> np.asarray(e)[:3]
    array([7, 7, 0], dtype=int32)
    """
    merging = op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) is MaskMergeMode.MERGING
    _duplicate_overload(op, isinstance(scalar, RegTensor), mask is not None)
    if isinstance(scalar, RegTensor):
        shared.duplicate_lane0(op, dst, scalar, mask, merging=merging)
        return
    (d,) = shared.vectors(op, (dst, "dst"))
    if d.dtype.kind is Kind.RAW:
        raise AscregTypeError(f"Duplicate of raw-bit type {d.dtype.cpp_name} is not emulated yet")
    shared.broadcast(op, d, operands.template_scalar(op, scalar, d.dtype), mask, merging)


def _duplicate_overload(op: Any, register: bool, masked: bool) -> None:
    """Raise unless the subscript's arguments fit the Duplicate overload the call takes."""
    t = op.t
    if t is NO_ARGS:
        return
    position = t.enums.get(HighLowPart)
    if register and t.scalar is not None:
        raise AscregTypeError("Duplicate<T, pos, mode>(dst, srcReg, mask) takes no scalar type U")
    if not register and position is not None:
        raise AscregTypeError(
            "HighLowPart is a template argument of Duplicate(dst, srcReg, mask) only"
        )
    if position is not None and position is not HighLowPart.LOWEST:
        raise UnsupportedError(
            f"Duplicate broadcasts HighLowPart::LOWEST only (the page), not {position.name}"
        )
    if not register and not masked and MaskMergeMode in t.enums:
        raise AscregTypeError(
            "Duplicate<T, U>(dst, scalar) takes no MaskMergeMode (the masked overload "
            "Duplicate<T, mode, U>(dst, scalar, mask) does)"
        )
    if not register and masked and t.scalar is not None and MaskMergeMode not in t.enums:
        raise AscregTypeError(
            "the masked Duplicate<T, mode, U>(dst, scalar, mask) takes its MaskMergeMode before "
            "U: write Duplicate[T, MaskMergeMode.ZEROING, U]"
        )


# The older spellings operator code still writes (each row's ``aliases``): the same op objects.
MaskAnd, MaskOr, MaskXor, MaskNot, MaskSel = And, Or, Xor, Not, Select
MaskMov = Copy = Move
CompareScalar = Compares
AddCarryOut, SubCarryOut = Add, Sub  # the carry overloads' older names (same op objects)

"""C API register compute: shifts, compares, select, logic, duplicate and copy.

Every function checks its dtypes against its own row of ``_spec.py`` (the C API tables differ
from the Reg ones: e.g. vector ``asc_ne`` has no bfloat16, ``asc_and`` takes half and float) and
then calls the shared core. Masked-off lanes become 0, except ``asc_select`` (the mask is the
selector) and ``asc_copy`` (merging).

The shifts have both forms the documentation shows: ``asc_shiftright(dst, src, shift, mask)``
writes ``dst`` (C's ``void asc_shiftright(vector_T& dst, ...)``) and
``asc_shiftright(src, shift, mask)`` returns a new register (C's value-returning form).

Examples
--------
>>> import numpy as np
>>> from ascreg.c_api import *
>>> src, shift = vector_uint16_t(), vector_int16_t()
>>> src.set(np.arange(128)); shift.set(1)
>>> dst = asc_shiftright(src, shift, asc_create_mask_b16(PAT_ALL))
>>> type(dst).__name__, np.asarray(dst)[:5]
('vector_uint16_t', array([0, 0, 1, 1, 2], dtype=uint16))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend import compute as shared
from ascreg._frontend import movement, operands, rules
from ascreg._frontend.operands import C_API
from ascreg._frontend.template import define
from ascreg._spec import C_COMPARES, C_COPY_MASK_PART, SPECS
from ascreg._spec.dtypes import C_GATHER, C_GATHER_UB, C_SCALAR, C_SIGN
from ascreg._spec.row import C_API_QUALIFIER
from ascreg.c_api._types import vector_of
from ascreg.core import arith, pack
from ascreg.core import masks as mask_core
from ascreg.core import reduce as red
from ascreg.core.arith import ACCUMULATIONS, BINARY_OPS, SIGN_OPS
from ascreg.core.elementary import UNARY_OPS
from ascreg.core.shifts import zeroing_shift
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
)
from ascreg.machine.registers import MASK_BITS, MaskReg, RegTensor

Lanes = np.ndarray[Any, Any]

__all__ = [
    "asc_abs",
    "asc_add",
    "asc_add_scalar",
    "asc_and",
    "asc_arange",
    "asc_arange_descend",
    "asc_copy",
    "asc_div",
    "asc_duplicate",
    "asc_duplicate_scalar",
    "asc_eq",
    "asc_eq_scalar",
    "asc_exp",
    "asc_gather",
    "asc_ge",
    "asc_ge_scalar",
    "asc_gt",
    "asc_gt_scalar",
    "asc_le",
    "asc_le_scalar",
    "asc_leakyrelu",
    "asc_ln",
    "asc_lt",
    "asc_lt_scalar",
    "asc_max",
    "asc_max_scalar",
    "asc_min",
    "asc_min_scalar",
    "asc_mul",
    "asc_mul_scalar",
    "asc_ne",
    "asc_ne_scalar",
    "asc_neg",
    "asc_not",
    "asc_or",
    "asc_pack_to_high",
    "asc_pack_to_low",
    "asc_pair_reduce_sum",
    "asc_prelu",
    "asc_reduce_max",
    "asc_reduce_max_datablock",
    "asc_reduce_min",
    "asc_reduce_min_datablock",
    "asc_reduce_sum",
    "asc_reduce_sum_datablock",
    "asc_relu",
    "asc_select",
    "asc_shiftleft",
    "asc_shiftleft_scalar",
    "asc_shiftright",
    "asc_shiftright_scalar",
    "asc_sqrt",
    "asc_squeeze",
    "asc_sub",
    "asc_unpack_lower",
    "asc_unpack_upper",
    "asc_xor",
]


# -- shifts -----------------------------------------------------------------------------------


def _shift_impl(op: Any, *args: Any) -> Any:
    if len(args) == 4:
        dst, src, count, mask = args
        if (type(dst), type(src), type(count), type(mask)) in op._forms:  # checked before
            counts = count.get()  # read before src, as the checked path does
            values = src.get()
            dst.put_known(
                zeroing_shift(values, counts, operands.lane_enables(mask, dst), left=op.left)
            )
            return None
    elif len(args) == 3:
        dst, (src, count, mask) = None, args
    else:
        operand = "value" if op.scalar else "shift"
        raise AscregTypeError(
            f"takes (dst, src, {operand}, mask) or (src, {operand}, mask), got {len(args)} arguments"
        )
    s = operands.register(src, "src", C_API)
    d = vector_of(s.dtype)() if dst is None else operands.register(dst, "dst", C_API)
    operands.same_type(C_API, d, s)
    if op.scalar:
        counts = shared.scalar_count(op, count, s.dtype)
    else:
        c = operands.register(count, "shift", C_API)
        op.spec.check(s.dtype, c.dtype)
        counts = c.get()
    shared.shift(op, d, s, counts, mask, left=op.left)
    if dst is not None and not op.scalar:  # every operand passed its check
        op._forms.add(tuple(map(type, args)))
    return d if dst is None else None


def _shift(direction: str, scalar: bool) -> Any:
    name = f"asc_shift{direction}{'_scalar' if scalar else ''}"
    left = direction == "left"
    kind = (
        "logical for unsigned lanes, arithmetic for signed ones"
        if not left
        else ("logical for unsigned lanes; signed lanes keep their sign bit")
    )
    operand = "int16_t value" if scalar else "vector_S shift"
    example_count = "2" if scalar else "n"
    return define(
        name,
        left=left,
        scalar=scalar,
        doc=f"""``{name}([vector_T& dst,] vector_T src, {operand}, vector_bool mask)``.

    Shifts each lane {direction} ({kind}); counts at or above the width give 0 (-1 for a
    negative signed value shifted right); masked-off lanes 0; negative counts are an error.
    With ``dst`` the result is written there, without it a new register is returned.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> src, n = vector_uint16_t(), vector_int16_t(); src.set(np.uint16(8)); n.set(2)
    >>> out = vector_uint16_t()
    >>> {name}(out, src, {example_count}, asc_create_mask_b16(PAT_ALL))
    >>> int(np.asarray(out)[0])
    {8 << 2 if left else 8 >> 2}
    """,
    )(_shift_impl)


asc_shiftright, asc_shiftleft = (_shift(d, False) for d in ("right", "left"))
asc_shiftright_scalar, asc_shiftleft_scalar = (_shift(d, True) for d in ("right", "left"))


# -- element-wise arithmetic -------------------------------------------------------------------


def _add_or_carry(op: Any, *args: Any) -> None:
    """``asc_add``/``asc_sub``: (dst, src0, src1, mask), or (carry, dst, src0, src1, mask)."""
    if len(args) not in (4, 5):
        raise AscregTypeError(f"takes 4 or 5 arguments, got {len(args)}")
    shared.binary_or_carry(op, *args)


_CARRY = """
    The carry overload ``{name}(vector_bool& carry, vector_uint32_t& dst, src0, src1, mask)``
    also writes the carry out of the top bit per lane (b32 layout){more}; masked-off lanes
    give 0 in ``dst`` and ``carry`` (``Reg.{family}``'s carry overload)."""


def _binary(op: str, summary: str, example: str, result: str) -> Any:
    name = f"asc_{op}"
    family = op.title()
    carry = op in ("add", "sub")
    more = ", 1 meaning no borrow" if op == "sub" else ""
    carry_doc = _CARRY.format(name=name, more=more, family=family) if carry else ""
    return define(
        name,
        formula=staticmethod(BINARY_OPS[family]),
        accumulate=staticmethod(ACCUMULATIONS[family]) if family in ACCUMULATIONS else None,
        subtract=op == "sub",
        doc=f"""``void {name}(vector_T& dst, vector_T src0, vector_T src1, vector_bool mask)``.

    {summary} The lane formula of ``Reg.{family}``; masked-off lanes become 0.
    Types: {SPECS[name].legal_text()}.{carry_doc}

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, b, d = vector_half(), vector_half(), vector_half()
    >>> {example}
    >>> {name}(d, a, b, asc_create_mask_b16(PAT_VL2)); np.asarray(d)[:3].tolist()
    {result}
    """,
    )(_add_or_carry if carry else shared.binary)


_HALVES = "a.set(np.float16(-2.0)); b.set(np.float16(0.25))"
asc_add = _binary("add", "Lane-wise sum (integers wrap).", _HALVES, "[-1.75, -1.75, 0.0]")
asc_sub = _binary("sub", "Lane-wise difference (integers wrap).", _HALVES, "[-2.25, -2.25, 0.0]")
asc_mul = _binary("mul", "Lane-wise product (low bits for integers).", _HALVES,
                  "[-0.5, -0.5, 0.0]")  # fmt: skip
asc_max = _binary("max", "Lane-wise maximum (NaN propagates; max(-0, +0) = +0).", _HALVES,
                  "[0.25, 0.25, 0.0]")  # fmt: skip
asc_min = _binary("min", "Lane-wise minimum (NaN propagates; min(-0, +0) = -0).", _HALVES,
                  "[-2.0, -2.0, 0.0]")  # fmt: skip
asc_prelu = _binary("prelu", "``src0 > 0 ? src0 : src0 * src1`` (parametric ReLU).", _HALVES,
                    "[-0.5, -0.5, 0.0]")  # fmt: skip


asc_div = _binary(
    "div",
    "Lane-wise quotient: integers truncate toward zero (``x / 0`` is all ones, ``MIN / -1`` "
    "wraps to ``MIN``); floats are the correctly rounded quotient of the inputs with "
    "subnormals flushed to signed zeros, the result flushed too (the chip's ``vdiv`` is "
    "within 1 ulp).",
    _HALVES,
    "[-8.0, -8.0, 0.0]",
)

_UNARY_SUMMARY = {
    "exp": "``e**x``",
    "ln": "The natural logarithm (``ln(±0) = -inf``, negative lanes NaN)",
    "sqrt": "The square root (``sqrt(-0) = -0``, negative lanes NaN)",
}


def _unary(op: str, result: str) -> Any:
    name = f"asc_{op}"
    family = SPECS[name].family
    return define(
        name,
        formula=staticmethod(UNARY_OPS[family]),
        doc=f"""``void {name}(vector_T& dst, vector_T src, vector_bool mask)``.

    {_UNARY_SUMMARY[op]}, correctly rounded (the chip is within 1 ulp: compare with
    ``ascreg.testing.assert_ulp_close``). Subnormal inputs are read as zeros of their sign and
    subnormal results become zeros of their sign (the intrinsic's flush-to-zero mode, the
    default of ``Reg.{family}``); masked-off lanes become 0. Types: {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, d = vector_float(), vector_float(); a.set(np.float32(4.0))
    >>> {name}(d, a, asc_create_mask_b32(PAT_VL2)); np.asarray(d)[:3].tolist()
    {result}
    """,
    )(shared.precise_unary)


asc_exp = _unary("exp", "[54.598148345947266, 54.598148345947266, 0.0]")
asc_ln = _unary("ln", "[1.3862943649291992, 1.3862943649291992, 0.0]")
asc_sqrt = _unary("sqrt", "[2.0, 2.0, 0.0]")


_SIGN_SUMMARY = {
    "abs": ("``|x|``: integers wrap (``abs(INT_MIN) = INT_MIN``); floats clear the sign bit, so "
            "``abs(-0) = +0`` and a NaN keeps its payload", "[1.0, 0.0, 1.0]"),
    "neg": ("``-x``: integers wrap (``-INT_MIN = INT_MIN``); floats flip the sign bit "
            "(``-(+0) = -0``)", "[1.0, -0.0, -1.0]"),
    "relu": ("``src >= 0 ? src : 0`` (the page's formula): ``-0`` passes unchanged, a NaN "
             "lane gives +0", "[0.0, 0.0, 1.0]"),
}  # fmt: skip


def _sign_impl(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.unary(op, dst, src, mask)


def _sign(op: str) -> Any:
    name = f"asc_{op}"
    summary, result = _SIGN_SUMMARY[op]
    return define(
        name,
        formula=staticmethod(SIGN_OPS[op.title()]),
        doc=f"""``void {name}(vector_T& dst, vector_T src, vector_bool mask)``.

    {summary}. Exact (no rounding); masked-off lanes become 0. Types: {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, d = vector_half(), vector_half(); a.set(np.arange(128) - 1)
    >>> {name}(d, a, asc_create_mask_b16(PAT_ALL)); np.asarray(d)[:3].tolist()
    {result}
    """,
    )(_sign_impl)


asc_abs, asc_neg, asc_relu = (_sign(op) for op in C_SIGN)

_SCALAR_RESULTS = {
    "add": "[-0.5, 0.5, 1.5]",
    "mul": "[-0.5, 0.0, 0.5]",
    "max": "[0.5, 0.5, 1.0]",
    "min": "[-1.0, 0.0, 0.5]",
}


def _scalar_impl(op: Any, dst: Any, src: Any, value: Any, mask: Any) -> None:
    shared.scalar_binary(op, dst, src, value, mask)


def _scalar(op: str) -> Any:
    name = f"asc_{op}_scalar"
    family = op.title()
    return define(
        name,
        formula=staticmethod(BINARY_OPS[family]),
        doc=f"""``void {name}(vector_T& dst, vector_T src, T value, vector_bool mask)``.

    ``asc_{op}`` with every ``src1`` lane equal to *value* converted to ``T`` (the lane formula
    of ``Reg.{family}s``): integers wrap, floats round once to nearest even (bfloat16 through
    float32). An integer *value* outside ``T``'s range, or a float one for an integer ``T``, is
    an error. Masked-off lanes become 0. Types: {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, d = vector_half(), vector_half(); a.set(np.arange(128) - 1)
    >>> {name}(d, a, 0.5, asc_create_mask_b16(PAT_ALL)); np.asarray(d)[:3].tolist()
    {_SCALAR_RESULTS[op]}
    """,
    )(_scalar_impl)


asc_add_scalar, asc_mul_scalar, asc_max_scalar, asc_min_scalar = (_scalar(op) for op in C_SCALAR)

asc_leakyrelu = define(
    "asc_leakyrelu",
    formula=staticmethod(BINARY_OPS["Prelu"]),
    doc="""``void asc_leakyrelu(vector_T& dst, vector_T src, T value, vector_bool mask)``.

    ``dst = src > 0 ? src : src * value`` (``Reg.LeakyRelu``'s lane formula: ``asc_prelu``
    with every ``src1`` lane equal to *value*); masked-off lanes 0. Types: half, float.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, d = vector_float(), vector_float(); a.set(np.resize(np.float32([3, -4]), 64))
    >>> asc_leakyrelu(d, a, 0.5, asc_create_mask_b32(PAT_ALL)); np.asarray(d)[:2].tolist()
    [3.0, -2.0]
    """,
)(_scalar_impl)


def _arange_impl(op: Any, dst: Any, value: Any) -> None:
    (d,) = shared.vectors(op, (dst, "dst"))
    start = operands.scalar(value, d.dtype, "value")
    d.put(arith.arange(start, d.dtype.np_dtype, d.lanes, decrease=op.decrease))


def _arange(decrease: bool) -> Any:
    name = "asc_arange_descend" if decrease else "asc_arange"
    order = "``value + VL_T - 1 - i``" if decrease else "``value + i``"
    return define(
        name,
        decrease=decrease,
        batch=rules.ROWS,
        doc=f"""``void {name}(vector_T& dst, T value)``: an index sequence, lane i = {order}.

    ``VL_T`` is the register's lane count; every lane is written (no mask). Integers wrap;
    half and float add in the element type with one rounding to nearest even (``Reg.Arange``).
    Types: {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> d = vector_float(); {name}(d, 10.0); np.asarray(d)[:3].tolist()
    {[73.0, 72.0, 71.0] if decrease else [10.0, 11.0, 12.0]}
    """,
    )(_arange_impl)


asc_arange, asc_arange_descend = _arange(False), _arange(True)


# -- compares ---------------------------------------------------------------------------------


def _compare_impl(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    shared.compare(op, op.mode, dst, src0, src1, mask, scalar=op.scalar)


def _compare(op: str, scalar: bool) -> Any:
    name = f"asc_{op}{'_scalar' if scalar else ''}"
    spec = SPECS[name]  # for the legal types in the docstring
    operand = "T value" if scalar else "vector_T src1"
    return define(
        name,
        mode=op.upper(),
        scalar=scalar,
        doc=f"""``void {name}(vector_bool& dst, vector_T src0, {operand}, vector_bool mask)``.

    Bit i of ``dst`` is ``src0[i] {op} {"value" if scalar else "src1[i]"}`` for the lanes the
    mask selects, 0 elsewhere. Floats: a NaN makes the predicate false (``ne``: true) and
    +0 == -0. Types: {spec.legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, b = vector_int16_t(), vector_int16_t(); a.set(np.arange(128) - 64); b.set(0)
    >>> m = vector_bool()
    >>> {name}(m, a, {"0" if scalar else "b"}, asc_create_mask_b16(PAT_ALL))
    >>> m.count()
    {sum(_PY_CMP[op](i - 64, 0) for i in range(128))}
    """,
    )(_compare_impl)


_PY_CMP: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "lt": lambda x, y: x < y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
    "le": lambda x, y: x <= y,
}

asc_eq, asc_ne, asc_lt, asc_gt, asc_ge, asc_le = (_compare(op, False) for op in C_COMPARES)
(
    asc_eq_scalar, asc_ne_scalar, asc_lt_scalar, asc_gt_scalar, asc_ge_scalar, asc_le_scalar,
) = (_compare(op, True) for op in C_COMPARES)  # fmt: skip


# -- select, logic ----------------------------------------------------------------------------


@define("asc_select")
def asc_select(op: Any, dst: Any, src0: Any, src1: Any, mask: Any) -> None:
    """``void asc_select(vector_T& dst, vector_T src0, vector_T src1, vector_bool mask)``.

    Lane i is ``src0[i]`` where the mask selects it, else ``src1[i]`` (nothing is zeroed; the
    copy is bit-exact). On ``vector_bool`` operands it selects bits.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, b, d = vector_float(), vector_float(), vector_float()
    >>> a.set(np.float32(1)); b.set(np.float32(2))
    >>> asc_select(d, a, b, asc_create_mask_b32(PAT_VL1)); np.asarray(d)[:3]
    array([1., 2., 2.], dtype=float32)
    """
    shared.select(op, dst, src0, src1, mask)


def _logic_impl(op: Any, dst: Any, *args: Any) -> None:
    unary = op.logic == "not"
    if len(args) != (2 if unary else 3):
        shape = "(dst, src, mask)" if unary else "(dst, src0, src1, mask)"
        raise AscregTypeError(f"takes {shape}, got {len(args) + 1} arguments")
    *sources, mask = args
    shared.logic(op, op.logic, dst, sources, mask)


def _logic(op: str) -> Any:
    name = f"asc_{op}"
    spec = SPECS[name]  # for the legal types in the docstring
    unary = op == "not"

    operands = "vector_T src" if unary else "vector_T src0, vector_T src1"
    call = "d, a, m" if unary else "d, a, b, m"
    expected = {"and": 0x0C & 0x0A, "or": 0x0C | 0x0A, "xor": 0x0C ^ 0x0A, "not": 0xF3}[op]
    return define(
        name,
        logic=op,
        doc=f"""``void {name}(vector_T& dst, {operands}, vector_bool mask)`` (also on ``vector_bool``).

    Bitwise {op.upper()} of the raw lane bits; masked-off lanes (bits, for masks) are 0.
    Types: {spec.legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> a, b, d = vector_uint8_t(), vector_uint8_t(), vector_uint8_t(); a.set(0x0C); b.set(0x0A)
    >>> m = asc_create_mask_b8(PAT_VL1)
    >>> {name}({call}); np.asarray(d)[:2]
    array([{expected},   0], dtype=uint8)
    """,
    )(_logic_impl)


asc_and, asc_or, asc_xor, asc_not = (_logic(op) for op in ("and", "or", "xor", "not"))


# -- gather, squeeze --------------------------------------------------------------------------


_GATHER_FORMS = {
    "register": movement.check_triple("asc_gather", tuple((t, t, u) for t, u in C_GATHER)),
    "UB": movement.check_triple("asc_gather", C_GATHER_UB),
}
"""The (dst, src, index) dtypes of each ``asc_gather`` form (the row lists their union)."""


@define("asc_gather", batch=rules.ROWS)  # the register form; the UB one is eager
def asc_gather(op: Any, *args: Any) -> None:
    """``void asc_gather(vector_T& dst, vector_T src, vector_U index)``: ``dst[i] = src[index[i]]``.

    The register form (``Reg.Gather``): ``U`` is the unsigned type of ``T``'s width; an index
    past the register wraps modulo the lane count. The UB form
    ``asc_gather(vector_T0& dst, __ubuf__ T1* src, vector_U index, vector_bool mask)``
    (``Reg.Gather``'s UB form) reads ``src[index[i]]`` into the selected lanes, 0 elsewhere;
    a b8 source lands zero-extended in 16-bit slots, a uint32 index fills 32-bit slots (the
    element in the low bytes). ``src`` is 32-byte aligned.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> s, d, i = vector_int32_t(), vector_int32_t(), vector_uint32_t()
    >>> s.set(np.arange(64) * 10); i.set(np.arange(64) + 62)
    >>> asc_gather(d, s, i); np.asarray(d)[:3]
    array([620, 630,   0], dtype=int32)
    >>> from ascreg import UnifiedBuffer, int8_t
    >>> p = UnifiedBuffer().alloc(int8_t, 256); p.write(np.arange(256) - 128)
    >>> d16, i16 = vector_int16_t(), vector_uint16_t(); i16.set(np.arange(128) + 88)
    >>> asc_gather(d16, p, i16, asc_create_mask_b16(PAT_ALL)); np.asarray(d16)[:2]
    array([216, 217], dtype=int16)
    """
    if len(args) not in (3, 4):
        raise AscregTypeError(f"takes (dst, src, index[, mask]), got {len(args)} arguments")
    dst, src, index, *mask = args
    if mask or not isinstance(src, RegTensor):  # the UB form: (dst, src, index, mask)
        movement.gather_ub(op, dst, src, index, *(mask or (None,)), legal=_GATHER_FORMS["UB"])
        return
    shared.gather(op, dst, src, index, legal=_GATHER_FORMS["register"])


@define("asc_squeeze", batch=rules.ROWS)
def asc_squeeze(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``void asc_squeeze(vector_T& dst, vector_T src, vector_bool mask)``: pack selected lanes.

    The lanes of ``src`` the mask selects go to ``dst`` in order from lane 0 up; the remaining
    lanes are 0 (``Reg.Squeeze`` without ``STORE_REG``).

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> s, d = vector_int8_t(), vector_int8_t(); s.set(np.arange(256) % 100)
    >>> asc_squeeze(d, s, asc_create_mask_b8(PAT_VL4)); np.asarray(d)[:5]
    array([0, 1, 2, 3, 0], dtype=int8)
    """
    shared.squeeze(op, dst, src, mask)


# -- duplicate, copy --------------------------------------------------------------------------


@define("asc_duplicate_scalar")
def asc_duplicate_scalar(op: Any, dst: Any, value: Any, mask: Any = None) -> None:
    """``void asc_duplicate_scalar(vector_T& dst, T value[, vector_bool mask])``.

    Every (selected) lane becomes *value*; masked-off lanes 0.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> d = vector_half(); asc_duplicate_scalar(d, 1.5, asc_create_mask_b16(PAT_VL2))
    >>> np.asarray(d)[:3]
    array([1.5, 1.5, 0. ], dtype=float16)
    """
    (d,) = shared.vectors(op, (dst, "dst"))
    if isinstance(value, RegTensor):
        raise AscregTypeError("takes a scalar value; use asc_duplicate for a register source")
    shared.broadcast(op, d, operands.scalar(value, d.dtype, "value"), mask, merging=False)


@define("asc_duplicate")
def asc_duplicate(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``void asc_duplicate(vector_T& dst, vector_T src, vector_bool mask)``: broadcast lane 0.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> s, d = vector_int32_t(), vector_int32_t(); s.set(np.arange(64))
    >>> s.set(np.arange(64) + 7); asc_duplicate(d, s, asc_create_mask_b32(PAT_VL2))
    >>> np.asarray(d)[:3]
    array([7, 7, 0], dtype=int32)
    """
    shared.duplicate_lane0(op, dst, src, mask)


@define("asc_copy")
def asc_copy(op: Any, dst: Any, src: Any, /, *args: Any) -> None:
    """``void asc_copy(vector_T& dst, vector_T src, vector_bool mask)``: MERGING copy.

    Selected lanes come from ``src``, the others keep ``dst``'s old value. On ``vector_bool``
    operands, ``asc_copy(dst, src[, mask])`` copies the bits (unselected bits 0).

    ``asc_copy(vector_bool& dst, vector_uint16_t src, int16_t part)`` makes a mask from a
    register: the 256 bytes are 16 blocks of 16 bytes (``vector_uint32_t``: 32 blocks of 8),
    block ``part`` is read LSB-first and each bit is repeated 2 (4) times, so bit k of the
    block enables lane k of a b16 (b32) op.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> s, d = vector_float(), vector_float(); s.set(np.float32(1)); d.set(np.float32(-1))
    >>> asc_copy(d, s, asc_create_mask_b32(PAT_H)); np.asarray(d)[[0, 31, 32]]
    array([ 1.,  1., -1.], dtype=float32)
    >>> u, m = vector_uint16_t(), vector_bool(); u.set(np.arange(128))
    >>> asc_copy(m, u, 1)  # block 1 holds lanes 8..15 = 8, 9, ...: bit k enables b16 lane k
    >>> np.flatnonzero(m.active(uint16_t))[:6].tolist(), m.bits()[6:8].tolist()
    ([3, 16, 19, 33, 35, 48], [True, True])
    """
    if len(args) > 1:
        raise AscregTypeError(f"takes (dst, src, mask | part), got {len(args) + 2} arguments")
    mask = args[0] if args else None
    if isinstance(dst, MaskReg) and isinstance(src, RegTensor):
        if not args:
            raise AscregTypeError("the vector_bool <- vector form takes a part: (dst, src, part)")
        _mask_from_vector(dst, operands.register(src, "src", C_API), mask)
        return
    if not isinstance(dst, MaskReg) and mask is None:
        shared.vectors(op, (dst, "dst"), (src, "src"))
        raise AscregTypeError("the vector form takes a mask: asc_copy(dst, src, mask)")
    shared.copy(op, dst, src, mask)


def _mask_from_vector(dst: MaskReg, src: RegTensor[Any, Any], part: Any) -> None:
    """``asc_copy(vector_bool& dst, vector_uint16_t|vector_uint32_t src, int16_t part)``."""
    if src.dtype not in C_COPY_MASK_PART:
        raise IllegalDtypeError(
            f"the vector_bool <- vector form takes vector_uint16_t or vector_uint32_t, not "
            f"{type(src).__name__}"
        )
    blocks = MASK_BITS // (MASK_BITS // 8 // src.dtype.size)
    if not operands.is_integer(part):
        raise AscregTypeError(f"part must be an int16_t block index, got {part!r:.40}")
    if not 0 <= part < blocks:
        raise AscregTypeError(
            f"part {int(part)} is outside [0, {blocks - 1}] ({blocks} blocks of "
            f"{MASK_BITS // 8 // src.dtype.size} bytes in a {type(src).__name__})"
        )
    raw = src.get().view(np.uint8)
    dst.set_bits(mask_core.spread_block_bits(raw, int(part), src.dtype.size))


# -- reductions --------------------------------------------------------------------------------


def _reduce_impl(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.reduction(op, dst, src, mask, kind=op.kind, rule=op.spec)


_REDUCE_RULES = {
    "SUM": "masked-off lanes count as 0; a pairwise binary tree in ``T``, rounding each step "
    "(int16/uint16 widen to 32 bits); an empty mask gives +0",
    "MAX": "lane 1 the index of the first maximum (the raw bits of a ``T``); masked-off lanes count as the type's "
    "minimum (-inf for floats), ``max(-0, +0) = +0``, a NaN gives the first NaN and its index",
    "MIN": "lane 1 the index of the first minimum (the raw bits of a ``T``); masked-off lanes count as the type's "
    "maximum (+inf for floats), ``min(-0, +0) = -0``, a NaN gives the first NaN and its index",
}
_REDUCE_EXAMPLES = {"SUM": "(2016.0, 0)", "MAX": "(63.0, 63)", "MIN": "(0.0, 0)"}
"""The docstring results (lane 0, lane 1 read as an index) of ``asc_reduce_<kind>`` on 0..63."""


def _reduce(kind: str) -> Any:
    name = f"asc_reduce_{kind.lower()}"
    return define(
        C_API_QUALIFIER + name,
        kind=kind,
        reducer=staticmethod(red.reduce),
        batch=rules.ROWS,  # reduces each row (last axis) alone
        doc=f"""``void {name}(vector_T& dst, vector_U src, vector_bool mask)``.

    ``Reg.Reduce[ReduceType.{kind}]``: the {kind} of the lanes ``mask`` selects in ``dst`` lane
    0, the other lanes 0; {_REDUCE_RULES[kind]}.
    Types (dst, src): {SPECS[C_API_QUALIFIER + name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> src, dst = vector_float(), vector_float(); src.set(np.arange(64, dtype=np.float32))
    >>> {name}(dst, src, asc_create_mask_b32(PAT_ALL)); lanes = np.asarray(dst)
    >>> float(lanes[0]), int(lanes.view(np.uint32)[1])
    {_REDUCE_EXAMPLES[kind]}
    """,
    )(_reduce_impl)


asc_reduce_sum, asc_reduce_max, asc_reduce_min = (_reduce(kind) for kind in ("SUM", "MAX", "MIN"))


_BLOCK_EXAMPLES = {"SUM": "[28.0, 92.0, 0.0]", "MAX": "[7.0, 15.0, 0.0]", "MIN": "[0.0, 8.0, 0.0]"}
"""The docstring results of ``asc_reduce_<kind>_datablock`` on 0, 1, ..., 63 (float)."""


def _block_reduce(kind: str) -> Any:
    name = f"asc_reduce_{kind.lower()}_datablock"
    rule = {
        "SUM": "masked-off lanes count as 0 and each block is added in the pairwise tree of "
        "``Reg.Reduce`` (int16/uint16 widen to 32 bits); an all-off block gives +0",
        "MAX": "masked-off lanes count as the type's minimum (-inf for floats), "
        "``max(-0, +0) = +0``, a block holding a NaN gives its first NaN; no index",
        "MIN": "masked-off lanes count as the type's maximum (+inf for floats), "
        "``min(-0, +0) = -0``, a block holding a NaN gives its first NaN; no index",
    }[kind]
    return define(
        name,
        kind=kind,
        reducer=staticmethod(red.reduce_blocks),
        batch=rules.ROWS,  # reduces each row (last axis) alone
        doc=f"""``void {name}(vector_T& dst, vector_U src, vector_bool mask)``.

    ``Reg.ReduceDataBlock[ReduceType.{kind}]``: the {kind} of each 32-byte data block of
    ``src`` in ``dst`` lanes 0, 1, ... (8 results), the other lanes 0; {rule}.
    Types (dst, src): {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> src, dst = vector_float(), vector_float(); src.set(np.arange(64, dtype=np.float32))
    >>> {name}(dst, src, asc_create_mask_b32(PAT_ALL)); np.asarray(dst)[[0, 1, 8]].tolist()
    {_BLOCK_EXAMPLES[kind]}
    """,
    )(_reduce_impl)


asc_reduce_sum_datablock, asc_reduce_max_datablock, asc_reduce_min_datablock = (
    _block_reduce(kind) for kind in ("SUM", "MAX", "MIN")
)


@define("asc_pair_reduce_sum", kind="SUM", reducer=staticmethod(red.pair_reduce), batch=rules.ROWS)
def asc_pair_reduce_sum(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``void asc_pair_reduce_sum(vector_T& dst, vector_T src, vector_bool mask)``.

    ``Reg.PairReduceElem``: ``dst[i] = src[2i] + src[2i+1]`` in the lower half of ``dst``
    (one IEEE rounding), the upper half 0; masked-off lanes count as +0. half and float.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> src, dst = vector_half(), vector_half(); src.set(np.arange(128) % 4)
    >>> asc_pair_reduce_sum(dst, src, asc_create_mask_b16(PAT_ALL))
    >>> np.asarray(dst)[[0, 1, 64]].tolist()
    [1.0, 5.0, 0.0]
    """
    _reduce_impl(op, dst, src, mask)


# -- pack / unpack -----------------------------------------------------------------------------


def _halves_impl(op: Any, dst: Any, src: Any) -> None:
    shared.halves(op, dst, src, high=op.high)


_PACK_PARTS = {
    "asc_pack_to_low": (False, "Pack", "HighLowPart.LOWEST"),
    "asc_pack_to_high": (True, "Pack", "HighLowPart.HIGHEST"),
    "asc_unpack_lower": (False, "UnPack", "HighLowPart.LOWEST"),
    "asc_unpack_upper": (True, "UnPack", "HighLowPart.HIGHEST"),
}
"""Each function's half (high or not), its Reg twin and that twin's HighLowPart."""


_PACK_EXAMPLES = {
    "asc_pack_to_low": ("vector_uint8_t", "vector_uint16_t", "np.arange(128) + 0x100", "[0, 1]", "[0, 1]"),
    "asc_pack_to_high": ("vector_uint8_t", "vector_uint16_t", "np.arange(128) + 0x100", "[128, 129]", "[0, 1]"),
    "asc_unpack_lower": ("vector_int16_t", "vector_int8_t", "np.arange(256) - 128", "[0, 1]", "[-128, -127]"),
    "asc_unpack_upper": ("vector_int16_t", "vector_int8_t", "np.arange(256) - 128", "[0, 1]", "[0, 1]"),
}  # fmt: skip
"""Per function: dst and src classes, src values, the lanes shown and their values."""


def _pack_doc(name: str) -> str:
    high, twin, part = _PACK_PARTS[name]
    half = "high" if high else "low"
    if twin == "Pack":
        what = (
            f"the low half of each ``src`` lane's bits into the {half} half of ``dst``, the "
            "other half 0; on ``vector_bool``, the even bits of ``src``"
        )
    else:
        what = (
            f"the lanes of the {half} half of ``src`` widened (zero- or sign-extended) into "
            "``dst``; on ``vector_bool``, each bit of that half becomes two (the upper one 0)"
        )
    dst_t, src_t, values, index, result = _PACK_EXAMPLES[name]
    return f"""``void {name}(vector_T& dst, vector_U src)`` (also on ``vector_bool``).

    ``Reg.{twin}[T, U, {part}]``: {what}. No mask.
    Types (dst, src): {SPECS[name].legal_text()}.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> import numpy as np
    >>> src, dst = {src_t}(), {dst_t}(); src.set({values})
    >>> {name}(dst, src); np.asarray(dst)[{index}].tolist()
    {result}
    """


asc_pack_to_low, asc_pack_to_high, asc_unpack_lower, asc_unpack_upper = (
    define(
        name,
        high=_PACK_PARTS[name][0],
        formula=staticmethod(pack.pack if _PACK_PARTS[name][1] == "Pack" else pack.unpack),
        mask_formula=staticmethod(
            pack.mask_pack if _PACK_PARTS[name][1] == "Pack" else pack.mask_unpack
        ),
        doc=_pack_doc(name),
        batch=rules.ROWS,
    )(_halves_impl)
    for name in _PACK_PARTS
)

"""Tiling template programming: template arguments of a kernel chosen through its tiling key.

An op declares its kernel's template parameters (``ASCENDC_TPL_ARGS_DECL``) and the
combinations it builds (``ASCENDC_TPL_SEL``) in a header both the host and the kernel include;
the host turns the chosen values into the tiling key (``GET_TPL_TILING_KEY``) and the runtime
runs the kernel instantiated with the values the key encodes. The Python spelling keeps the
header line for line: the macros take the parameter names as strings (C++ stringifies the
identifier), and ``ASCENDC_TPL_ARGS_DECL`` / ``ASCENDC_TPL_SEL`` set ``g_tilingDeclareParams``
/ ``g_tilingSelectParams`` in the calling module, as the C++ macros define those statics.

The key (``EncodeTilingKey``, template_argument.cpp): each declared parameter in order
occupies its bit width from bit 0 up; a DTYPE, FORMAT, BOOL or SHARED_KERNEL_TYPE value is
stored as it is, a UINT value as its index in the declared values (ranges expanded);
the values must form one of the selected combinations. :func:`DecodeTilingKey` inverts it,
and a :func:`~ascreg.machine.template.template` kernel of the module takes the key as its
template arguments: ``kernel[GET_TPL_TILING_KEY(...)]``.

Examples
--------
>>> ASCENDC_TPL_ARGS_DECL("Demo",
...     ASCENDC_TPL_UINT_DECL("mode", 3, ASCENDC_TPL_UI_LIST, 1, 2, 5),
...     ASCENDC_TPL_BOOL_DECL("fast", 0, 1))
>>> ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(
...     ASCENDC_TPL_UINT_SEL("mode", ASCENDC_TPL_UI_LIST, 2, 5), ASCENDC_TPL_BOOL_SEL("fast", 1)))
>>> key = GET_TPL_TILING_KEY(5, 1); key, DecodeTilingKey(g_tilingDeclareParams, key)
(10, (5, 1))
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import attrs

from ascreg.errors import AscregError, AscregTypeError

__all__ = [
    "ASCENDC_TPL_1_BW",
    "ASCENDC_TPL_2_BW",
    "ASCENDC_TPL_4_BW",
    "ASCENDC_TPL_8_BW",
    "ASCENDC_TPL_AICORE",
    "ASCENDC_TPL_AIC_ONLY",
    "ASCENDC_TPL_AIV_ONLY",
    "ASCENDC_TPL_ARGS_DECL",
    "ASCENDC_TPL_ARGS_SEL",
    "ASCENDC_TPL_BOOL",
    "ASCENDC_TPL_BOOL_DECL",
    "ASCENDC_TPL_BOOL_SEL",
    "ASCENDC_TPL_DATATYPE_DECL",
    "ASCENDC_TPL_DATATYPE_SEL",
    "ASCENDC_TPL_DETERMINISTIC",
    "ASCENDC_TPL_DETERMINISTIC_SEL",
    "ASCENDC_TPL_DTYPE",
    "ASCENDC_TPL_DTYPE_DECL",
    "ASCENDC_TPL_DTYPE_SEL",
    "ASCENDC_TPL_FORMAT",
    "ASCENDC_TPL_FORMAT_DECL",
    "ASCENDC_TPL_FORMAT_SEL",
    "ASCENDC_TPL_INPUT",
    "ASCENDC_TPL_KERNEL_TYPE",
    "ASCENDC_TPL_KERNEL_TYPE_DECL",
    "ASCENDC_TPL_KERNEL_TYPE_SEL",
    "ASCENDC_TPL_MIX_AICORE",
    "ASCENDC_TPL_MIX_AIC_1_0",
    "ASCENDC_TPL_MIX_AIC_1_1",
    "ASCENDC_TPL_MIX_AIC_1_2",
    "ASCENDC_TPL_MIX_AIV_1_0",
    "ASCENDC_TPL_MIX_VECTOR_CORE",
    "ASCENDC_TPL_OUTPUT",
    "ASCENDC_TPL_SEL",
    "ASCENDC_TPL_SHARED_KERNEL_TYPE",
    "ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL",
    "ASCENDC_TPL_TILING_STRUCT_SEL",
    "ASCENDC_TPL_UINT",
    "ASCENDC_TPL_UINT_DECL",
    "ASCENDC_TPL_UINT_SEL",
    "ASCENDC_TPL_UI_LIST",
    "ASCENDC_TPL_UI_MIX",
    "ASCENDC_TPL_UI_RANGE",
    "ASCENDC_TPL_VECTORCORE",
    "GET_TPL_TILING_KEY",
    "INVALID_TILING_KEY",
    "DecodeTilingKey",
    "EncodeTilingKey",
    "ParamStruct",
]

ASCENDC_TPL_AIV_ONLY = 0
"""``ASCENDC_TPL_AIV_ONLY``: kernel type: the vector cores only."""
ASCENDC_TPL_AIC_ONLY = 1
"""``ASCENDC_TPL_AIC_ONLY``: kernel type: the cube cores only."""
ASCENDC_TPL_MIX_AIV_1_0 = 4
"""``ASCENDC_TPL_MIX_AIV_1_0``: kernel type: mixed, only the vector cores started."""
ASCENDC_TPL_MIX_AIC_1_0 = 5
"""``ASCENDC_TPL_MIX_AIC_1_0``: kernel type: mixed, only the cube cores started."""
ASCENDC_TPL_MIX_AIC_1_1 = 6
"""``ASCENDC_TPL_MIX_AIC_1_1``: kernel type: mixed, cube and vector cores 1:1."""
ASCENDC_TPL_MIX_AIC_1_2 = 7
"""``ASCENDC_TPL_MIX_AIC_1_2``: kernel type: mixed, cube and vector cores 1:2."""
ASCENDC_TPL_AICORE = 8
"""``ASCENDC_TPL_AICORE``: kernel type: the AI Cores only."""
ASCENDC_TPL_VECTORCORE = 9
"""``ASCENDC_TPL_VECTORCORE``: kernel type: reserved."""
ASCENDC_TPL_MIX_AICORE = 10
"""``ASCENDC_TPL_MIX_AICORE``: kernel type: reserved."""
ASCENDC_TPL_MIX_VECTOR_CORE = 11
"""``ASCENDC_TPL_MIX_VECTOR_CORE``: kernel type: AI Cores and Vector Cores."""
ASCENDC_TPL_1_BW = 1
"""``ASCENDC_TPL_1_BW``: a 1-bit field of the key."""
ASCENDC_TPL_2_BW = 2
"""``ASCENDC_TPL_2_BW``: a 2-bit field of the key."""
ASCENDC_TPL_4_BW = 4
"""``ASCENDC_TPL_4_BW``: a 4-bit field of the key."""
ASCENDC_TPL_8_BW = 8
"""``ASCENDC_TPL_8_BW``: an 8-bit field of the key."""
ASCENDC_TPL_DTYPE = 0
"""``ASCENDC_TPL_DTYPE``: parameter type: a data type (stored as its value)."""
ASCENDC_TPL_FORMAT = 1
"""``ASCENDC_TPL_FORMAT``: parameter type: a format (stored as its value)."""
ASCENDC_TPL_UINT = 2
"""``ASCENDC_TPL_UINT``: parameter type: an unsigned value (stored as its index)."""
ASCENDC_TPL_BOOL = 3
"""``ASCENDC_TPL_BOOL``: parameter type: a bool."""
ASCENDC_TPL_KERNEL_TYPE = 4
"""``ASCENDC_TPL_KERNEL_TYPE``: parameter type: a combination's kernel type (not in the key)."""
ASCENDC_TPL_DETERMINISTIC = 5
"""``ASCENDC_TPL_DETERMINISTIC``: parameter type: deterministic build (not in the key)."""
ASCENDC_TPL_SHARED_KERNEL_TYPE = 6
"""``ASCENDC_TPL_SHARED_KERNEL_TYPE``: parameter type: a kernel type template argument."""
ASCENDC_TPL_UI_RANGE = 0
"""``ASCENDC_TPL_UI_RANGE``: UINT mode: a count of ranges, then (first, last) pairs."""
ASCENDC_TPL_UI_LIST = 1
"""``ASCENDC_TPL_UI_LIST``: UINT mode: the values listed."""
ASCENDC_TPL_UI_MIX = 2
"""``ASCENDC_TPL_UI_MIX``: UINT mode: ranges, then listed values."""
INVALID_TILING_KEY = 0xFFFFFFFFFFFFFFFF
"""``AscendC::INVALID_TILING_KEY``: what the C++ returns for a rejected combination."""

_INPUT_BIAS, _OUTPUT_BIAS = 100000000, 900000000
_TYPES = ("DTYPE", "FORMAT", "UINT", "BOOL", "KERNEL_TYPE", "DETERMINISTIC", "SHARED_KERNEL_TYPE")
_NOT_ENCODED = (ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_DETERMINISTIC)


@attrs.frozen
class ParamStruct:
    """``AscendC::ParamStruct``: one declared or selected template parameter.

    ``vals`` are as the macro lists them (a UINT's mode flag and ranges first).

    Examples
    --------
    >>> ASCENDC_TPL_UINT_DECL("n", 4, ASCENDC_TPL_UI_RANGE, 1, 0, 3).values()
    (0, 1, 2, 3)
    """

    name: str
    paramType: int
    bitWidth: int
    vals: tuple[int, ...]
    macroType: str

    def values(self) -> tuple[int, ...]:
        """Return the legal values (a UINT's ranges expanded), checked as the C++ checks them."""
        where = f"ASCENDC_TPL_{_TYPES[self.paramType]}_{self.macroType}({self.name})"
        vals = self.vals
        if self.paramType == ASCENDC_TPL_UINT:
            vals = _uint_values(where, vals)
        if not vals:
            raise AscregError(f"{where}: no values")
        if len(set(vals)) != len(vals):
            raise AscregError(f"{where}: duplicate values {list(vals)}")
        return vals


def _uint_values(where: str, vals: tuple[int, ...]) -> tuple[int, ...]:
    if len(vals) < 2:
        raise AscregError(f"{where}: a UINT parameter needs a mode and values")
    mode, rest = vals[0], vals[1:]
    if mode == ASCENDC_TPL_UI_LIST:
        return rest
    if mode not in (ASCENDC_TPL_UI_RANGE, ASCENDC_TPL_UI_MIX):
        raise AscregError(f"{where}: mode {mode} is not UI_RANGE, UI_LIST or UI_MIX")
    count = rest[0]
    if 2 * count > len(rest) - 1:
        raise AscregError(f"{where}: {count} ranges declared, fewer given")
    out: list[int] = []
    for k in range(count):
        low, high = rest[1 + 2 * k], rest[2 + 2 * k]
        out.extend(range(low, high + 1))
    if mode == ASCENDC_TPL_UI_MIX:
        out.extend(rest[1 + 2 * count :])
    return tuple(out)


def _param(name: Any, kind: int, width: int, vals: Sequence[Any], macro: str) -> ParamStruct:
    if not isinstance(name, str):
        raise AscregTypeError(
            f"ASCENDC_TPL_{_TYPES[kind]}_{macro}: the parameter name is a string (C++ #x), "
            f"got {name!r:.40}"
        )
    return ParamStruct(name, kind, int(width), tuple(int(v) for v in vals), macro)


def ASCENDC_TPL_DTYPE_DECL(x: str, *values: int) -> ParamStruct:
    """Declare a custom data-type parameter (8 bits, stored as its value).

    Examples
    --------
    >>> ASCENDC_TPL_DTYPE_DECL("D_T_X", 10, 20).bitWidth
    8
    """
    return _param(x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, values, "DECL")


def ASCENDC_TPL_DATATYPE_DECL(x: str, *values: int) -> ParamStruct:
    """Declare a native ``C_DT_*`` data-type parameter (8 bits; ``ASCENDC_TPL_INPUT(i)`` allowed).

    Examples
    --------
    >>> ASCENDC_TPL_DATATYPE_DECL("D", 0, 1).paramType == ASCENDC_TPL_DTYPE
    True
    """
    return _param(x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, values, "DECL")


def ASCENDC_TPL_FORMAT_DECL(x: str, *values: int) -> ParamStruct:
    """Declare a format parameter (8 bits, stored as its value).

    Examples
    --------
    >>> ASCENDC_TPL_FORMAT_DECL("F", 2).vals
    (2,)
    """
    return _param(x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, values, "DECL")


def ASCENDC_TPL_UINT_DECL(x: str, bw: int, *values: int) -> ParamStruct:
    """Declare an unsigned parameter of *bw* bits: ``UI_LIST`` values, ``UI_RANGE`` n ranges, ``UI_MIX``.

    The key stores the value's index among the declared values.

    Examples
    --------
    >>> ASCENDC_TPL_UINT_DECL("k", 4, ASCENDC_TPL_UI_MIX, 1, 0, 2, 9).values()
    (0, 1, 2, 9)
    """
    return _param(x, ASCENDC_TPL_UINT, bw, values, "DECL")


def ASCENDC_TPL_BOOL_DECL(x: str, *values: int) -> ParamStruct:
    """Declare a bool parameter (1 bit).

    Examples
    --------
    >>> ASCENDC_TPL_BOOL_DECL("on", 0, 1).bitWidth
    1
    """
    return _param(x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, values, "DECL")


def ASCENDC_TPL_KERNEL_TYPE_DECL(x: str, *values: int) -> ParamStruct:
    """Declare a kernel-type parameter (8 bits), paired with ``ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL``.

    Examples
    --------
    >>> ASCENDC_TPL_KERNEL_TYPE_DECL("kt", ASCENDC_TPL_AIV_ONLY).paramType
    6
    """
    return _param(x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, values, "DECL")


def ASCENDC_TPL_DTYPE_SEL(x: str, *values: int) -> ParamStruct:
    """Select the data-type values a combination takes.

    Examples
    --------
    >>> ASCENDC_TPL_DTYPE_SEL("D_T_X", 10).macroType
    'SEL'
    """
    return _param(x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, values, "SEL")


def ASCENDC_TPL_DATATYPE_SEL(x: str, *values: int) -> ParamStruct:
    """Select the native data-type values a combination takes.

    Examples
    --------
    >>> ASCENDC_TPL_DATATYPE_SEL("D", 0).vals
    (0,)
    """
    return _param(x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, values, "SEL")


def ASCENDC_TPL_FORMAT_SEL(x: str, *values: int) -> ParamStruct:
    """Select the format values a combination takes.

    Examples
    --------
    >>> ASCENDC_TPL_FORMAT_SEL("F", 2).paramType == ASCENDC_TPL_FORMAT
    True
    """
    return _param(x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, values, "SEL")


def ASCENDC_TPL_UINT_SEL(x: str, *values: int) -> ParamStruct:
    """Select the unsigned values a combination takes (mode first, as in the declaration).

    Examples
    --------
    >>> ASCENDC_TPL_UINT_SEL("k", ASCENDC_TPL_UI_LIST, 9).values()
    (9,)
    """
    return _param(x, ASCENDC_TPL_UINT, 0, values, "SEL")


def ASCENDC_TPL_BOOL_SEL(x: str, *values: int) -> ParamStruct:
    """Select the bool values a combination takes.

    Examples
    --------
    >>> ASCENDC_TPL_BOOL_SEL("on", 1).vals
    (1,)
    """
    return _param(x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, values, "SEL")


def ASCENDC_TPL_TILING_STRUCT_SEL(x: Any, *values: Any) -> None:
    """Name a combination's tiling struct: not part of the key (the macro expands to nothing).

    Examples
    --------
    >>> ASCENDC_TPL_TILING_STRUCT_SEL("MyTiling") is None
    True
    """
    del x, values


def ASCENDC_TPL_KERNEL_TYPE_SEL(*values: int) -> ParamStruct:
    """Select the kernel type of a combination (not a template argument, not in the key).

    Examples
    --------
    >>> ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY).name
    'kernel_type'
    """
    return _param("kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, values, "SEL")


def ASCENDC_TPL_DETERMINISTIC_SEL(*values: int) -> ParamStruct:
    """Whether a combination is built deterministic (not in the key).

    Examples
    --------
    >>> ASCENDC_TPL_DETERMINISTIC_SEL(1).name
    'deterministic'
    """
    return _param("deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, values, "SEL")


def ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x: str, *values: int) -> ParamStruct:
    """Select the kernel types a combination takes, as a template argument.

    Examples
    --------
    >>> ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL("kt", 0).bitWidth
    8
    """
    return _param(x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, values, "SEL")


def ASCENDC_TPL_INPUT(x: int) -> int:
    """Return the declared value that stands for input *x*'s data type / format.

    Examples
    --------
    >>> ASCENDC_TPL_INPUT(1)
    100000001
    """
    return _INPUT_BIAS + int(x)


def ASCENDC_TPL_OUTPUT(x: int) -> int:
    """Return the declared value that stands for output *x*'s data type / format.

    Examples
    --------
    >>> ASCENDC_TPL_OUTPUT(0)
    900000000
    """
    return _OUTPUT_BIAS + int(x)


def _caller_globals() -> dict[str, Any]:
    return sys._getframe(2).f_globals


def ASCENDC_TPL_ARGS_DECL(x: str, *params: ParamStruct) -> None:
    """Declare the op's template parameters: sets ``g_tilingDeclareParams`` in the calling module.

    *x* is the op type (unused by the key). The order is the kernel's template parameter
    order and the key's bit order.

    Examples
    --------
    >>> ASCENDC_TPL_ARGS_DECL("Op", ASCENDC_TPL_BOOL_DECL("b", 0, 1))
    >>> [p.name for p in g_tilingDeclareParams]
    ['b']
    """
    for p in params:
        if not isinstance(p, ParamStruct) or p.macroType != "DECL":
            raise AscregTypeError(f"ASCENDC_TPL_ARGS_DECL({x}): {p!r:.60} is not a *_DECL")
    _caller_globals()["g_tilingDeclareParams"] = list(params)


def ASCENDC_TPL_ARGS_SEL(*params: ParamStruct | None) -> list[ParamStruct]:
    """One combination of template argument values.

    Examples
    --------
    >>> len(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL("b", 1), ASCENDC_TPL_TILING_STRUCT_SEL("T")))
    1
    """
    return [p for p in params if p is not None]


def ASCENDC_TPL_SEL(*combinations: list[ParamStruct]) -> None:
    """Declare the built combinations: sets ``g_tilingSelectParams`` in the calling module.

    Examples
    --------
    >>> ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL("b", 0, 1)))
    >>> len(g_tilingSelectParams)
    1
    """
    _caller_globals()["g_tilingSelectParams"] = [list(c) for c in combinations]


def _selected(
    declare: Sequence[ParamStruct], combination: Sequence[ParamStruct], values: Sequence[int]
) -> bool:
    chosen = {p.name: p for p in combination if p.paramType not in _NOT_ENCODED}
    names = {p.name for p in declare}
    for p in chosen.values():
        decl = next((d for d in declare if d.name == p.name), None)
        if decl is None or decl.paramType != p.paramType:
            raise AscregError(f"ASCENDC_TPL_SEL: {p.name} is not declared as {_TYPES[p.paramType]}")
        missing = set(p.values()) - set(decl.values())
        if missing:
            raise AscregError(
                f"ASCENDC_TPL_SEL: {p.name} values {sorted(missing)} are not declared"
            )
    if set(chosen) != names:
        raise AscregError("ASCENDC_TPL_SEL: a combination does not name every declared parameter")
    return all(v in chosen[d.name].values() for d, v in zip(declare, values, strict=True))


def EncodeTilingKey(
    declareParams: Sequence[ParamStruct],
    selectParamsVec: Sequence[Sequence[ParamStruct]],
    tilingParams: Sequence[int],
) -> int:
    """``AscendC::EncodeTilingKey``: the tiling key of the template argument values.

    Raises :class:`~ascreg.errors.AscregError` where the C++ prints an error and returns
    ``INVALID_TILING_KEY`` (a value outside every combination, a malformed declaration).

    Examples
    --------
    >>> d = [ASCENDC_TPL_UINT_DECL("a", 2, ASCENDC_TPL_UI_LIST, 7, 8, 9),
    ...      ASCENDC_TPL_DTYPE_DECL("t", 3, 4)]
    >>> s = [[ASCENDC_TPL_UINT_SEL("a", ASCENDC_TPL_UI_LIST, 8, 9), ASCENDC_TPL_DTYPE_SEL("t", 4)]]
    >>> EncodeTilingKey(d, s, [9, 4])
    18
    """
    values = [int(v) for v in tilingParams]
    if not declareParams or not selectParamsVec:
        raise AscregError("ASCENDC_TPL params are empty", call="GET_TPL_TILING_KEY")
    if len(values) != len(declareParams):
        raise AscregError(
            f"{len(values)} values for the {len(declareParams)} parameters of ASCENDC_TPL_ARGS_DECL",
            call="GET_TPL_TILING_KEY",
        )
    if not any(_selected(declareParams, c, values) for c in selectParamsVec):
        raise AscregError(
            f"the values {values} are in no ASCENDC_TPL_ARGS_SEL combination",
            call="GET_TPL_TILING_KEY",
        )
    key, shift = 0, 0
    for decl, value in zip(declareParams, values, strict=True):
        code = decl.values().index(value) if decl.paramType == ASCENDC_TPL_UINT else value
        key |= code << shift
        shift += decl.bitWidth
    if shift > 64:
        raise AscregError(f"the key needs {shift} bits (at most 64)", call="GET_TPL_TILING_KEY")
    return key


def DecodeTilingKey(declareParams: Sequence[ParamStruct], key: int) -> tuple[int, ...]:
    """Return the template argument values a tiling key encodes (the runtime's dispatch).

    Examples
    --------
    >>> DecodeTilingKey([ASCENDC_TPL_UINT_DECL("a", 2, ASCENDC_TPL_UI_LIST, 7, 8, 9),
    ...                  ASCENDC_TPL_DTYPE_DECL("t", 3, 4)], 18)
    (9, 4)
    """
    out, shift = [], 0
    for decl in declareParams:
        code = (int(key) >> shift) & ((1 << decl.bitWidth) - 1)
        shift += decl.bitWidth
        if decl.paramType == ASCENDC_TPL_UINT:
            legal = decl.values()
            if code >= len(legal):
                raise AscregError(f"tiling key {key:#x}: {decl.name} index {code} is undeclared")
            out.append(legal[code])
        else:
            out.append(code)
    return tuple(out)


def GET_TPL_TILING_KEY(*values: int) -> int:
    """Return the tiling key of *values* under the calling module's declarations.

    Examples
    --------
    >>> ASCENDC_TPL_ARGS_DECL("Op", ASCENDC_TPL_BOOL_DECL("b", 0, 1))
    >>> ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL("b", 0, 1)))
    >>> GET_TPL_TILING_KEY(1)
    1
    """
    scope = _caller_globals()
    if "g_tilingDeclareParams" not in scope or "g_tilingSelectParams" not in scope:
        raise AscregError(
            "GET_TPL_TILING_KEY needs ASCENDC_TPL_ARGS_DECL and ASCENDC_TPL_SEL in this module",
            call="GET_TPL_TILING_KEY",
        )
    return EncodeTilingKey(scope["g_tilingDeclareParams"], scope["g_tilingSelectParams"], values)

"""``MatmulType`` and its enums ``CubeFormat`` and ``LayoutMode`` (the Matmul API's operand types).

A Matmul object is declared with one ``MatmulType`` per operand (A, B, C, bias): where the
operand lives (``TPosition``), its layout (``CubeFormat``), its element type, whether it may be
transposed, its batch layout (``LayoutMode``), IBShare and, for a TSCM operand, where its data
comes from. ascreg models the type itself, with the Ascend 950 rules of the Matmul page that
need no role (A / B / C / bias); the Matmul object is not modelled (docs/limitations.md).

Examples
--------
>>> from ascreg import half
>>> from ascreg.basic import TPosition
>>> aType = MatmulType[TPosition.GM, CubeFormat.ND, half, True, LayoutMode.NORMAL]
>>> aType.format.name, aType.T.cpp_name, aType.isTrans, aType.layout.name, aType.srcPos.name
('ND', 'half', True, 'NORMAL', 'GM')
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
)
from ascreg.basic._template import BOOLEAN, TYPENAME, Signature, TemplateSpec, member_of
from ascreg.basic._tensor import TPosition
from ascreg.errors import AscregError


class CubeFormat(enum.Enum):
    """``CubeFormat``: the physical layout of a Matmul operand.

    ``ND`` rows (``ROW_MAJOR`` is its other name), ``NZ`` (column blocks of row-major
    fractals), ``ZN``, ``ZZ``, ``NN``, ``ND_ALIGN`` (ND with rows padded to 32 bytes),
    ``SCALAR``, ``VECTOR`` and ``COLUMN_MAJOR`` (DN).

    Examples
    --------
    >>> CubeFormat.ROW_MAJOR is CubeFormat.ND, CubeFormat.COLUMN_MAJOR.value
    (True, 8)
    """

    ND = 0
    NZ = 1
    ZN = 2
    ZZ = 3
    NN = 4
    ND_ALIGN = 5
    SCALAR = 6
    VECTOR = 7
    ROW_MAJOR = 0
    COLUMN_MAJOR = 8


class LayoutMode(enum.Enum):
    """``LayoutMode``: the batch layout of a Matmul operand (``NONE``: not a BatchMatmul).

    ``NORMAL`` is BMNK; ``BSNGD`` / ``SBNGD`` are reshaped BSH / SBH tensors; ``BNGS1S2`` the
    product of the two.

    Examples
    --------
    >>> LayoutMode.NORMAL.value
    4
    """

    NONE = 0
    BSNGD = 1
    SBNGD = 2
    BNGS1S2 = 3
    NORMAL = 4


POSITIONS_950 = (TPosition.GM, TPosition.VECIN, TPosition.VECOUT, TPosition.TSCM)
"""The ``POSITION`` an Ascend 950 Matmul operand may have (A, B, bias: GM, VECOUT, TSCM; C:
GM, VECIN)."""
FORMATS_950 = (
    CubeFormat.ND,
    CubeFormat.NZ,
    CubeFormat.ND_ALIGN,
    CubeFormat.VECTOR,
    CubeFormat.COLUMN_MAJOR,
)
"""The ``FORMAT`` an Ascend 950 Matmul operand may have (A: ND, NZ, COLUMN_MAJOR, VECTOR; B: ND,
NZ, COLUMN_MAJOR; bias: ND; C: ND, NZ, ND_ALIGN, COLUMN_MAJOR)."""
TYPES_950: tuple[type[Scalar], ...] = (
    half,
    float32_t,
    bfloat16_t,
    int8_t,
    int32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    hifloat8_t,
    fp4x2_e2m1_t,
    fp4x2_e1m2_t,
)
"""The element types an Ascend 950 Matmul operand may hold (the union of the A, B, C and bias
rows, MX Matmul's fp4 included)."""
SRC_POSITIONS_950 = (TPosition.GM, TPosition.VECOUT)
"""Where a TSCM operand's data may come from (``SRCPOS``)."""

MATMUL_TYPE = Signature(
    POSITION=member_of(TPosition),
    FORMAT=member_of(CubeFormat),
    TYPE=TYPENAME,
    ISTRANS=(BOOLEAN, False),
    LAYOUT=(member_of(LayoutMode), LayoutMode.NONE),
    IBSHARE=(BOOLEAN, False),
    SRCPOS=(member_of(TPosition), TPosition.GM),
)
"""``template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>``."""


def _spell(value: Any) -> str:
    """Return the C++ spelling of a template argument (for a message or a name)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "cpp_name", getattr(value, "name", value)))


def _check(bound: dict[str, Any]) -> None:
    """Raise unless the arguments of ``MatmulType<...>`` are legal on the Ascend 950."""
    position, form, dtype = bound["POSITION"], bound["FORMAT"], bound["TYPE"]
    rules = (
        ("POSITION", position, POSITIONS_950),
        ("FORMAT", form, FORMATS_950),
        ("TYPE", dtype, TYPES_950),
        ("SRCPOS", bound["SRCPOS"], SRC_POSITIONS_950),
    )
    for name, value, legal in rules:
        if value not in legal:
            spelled = ", ".join(map(_spell, legal))
            raise AscregError(
                f"{name} {_spell(value)} is not one the Ascend 950 takes; the Matmul page lists "
                f"{spelled}",
                call="MatmulType",
            )
    if form is CubeFormat.COLUMN_MAJOR and position is not TPosition.GM:
        raise AscregError(
            f"a CubeFormat::COLUMN_MAJOR operand must be at TPosition::GM, not {position.name}",
            call="MatmulType",
        )


class MatmulTypeArgs:
    """The base of every ``MatmulType[...]`` class: the C++ static members it carries.

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.basic import TPosition
    >>> issubclass(MatmulType[TPosition.GM, CubeFormat.ND, half], MatmulTypeArgs)
    True
    """

    pos: ClassVar[TPosition]
    format: ClassVar[CubeFormat]
    T: ClassVar[type[Scalar]]
    isTrans: ClassVar[bool]
    layout: ClassVar[LayoutMode]
    ibShare: ClassVar[bool]
    srcPos: ClassVar[TPosition]


class _MatmulTypeTemplate(type):
    """Metaclass of ``MatmulType``: ``MatmulType[...]`` makes (once) the checked class."""

    template_signatures = (MATMUL_TYPE,)
    _spec = TemplateSpec("MatmulType", template_signatures)
    _made: ClassVar[dict[tuple[Any, ...], type[MatmulTypeArgs]]] = {}

    def __getitem__(cls, items: Any) -> type[MatmulTypeArgs]:
        bound = cls._spec.parse(items)
        key = tuple(bound.values())
        found = cls._made.get(key)
        if found is None:
            _check(bound)
            names = ("pos", "format", "T", "isTrans", "layout", "ibShare", "srcPos")
            spelled = ", ".join(map(_spell, bound.values()))
            members = dict(zip(names, bound.values(), strict=True))
            found = cls._made[key] = type(f"MatmulType<{spelled}>", (MatmulTypeArgs,), members)
        return found


class _MatmulType(metaclass=_MatmulTypeTemplate):
    """``AscendC::MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE, SRCPOS>``.

    ``MatmulType[...]`` is a class (a :class:`MatmulTypeArgs`) whose attributes are the C++
    static members: ``pos``, ``format``, ``T``, ``isTrans``, ``layout``, ``ibShare`` and
    ``srcPos``. The arguments are checked against the Ascend 950 rules of the Matmul page
    (``POSITIONS_950``, ``FORMATS_950``, ``TYPES_950``, ``SRC_POSITIONS_950``; COLUMN_MAJOR at
    GM only).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import TPosition
    >>> cType = MatmulType[TPosition.GM, CubeFormat.NZ, float32_t]
    >>> cType.pos.name, cType.layout.name, cType is MatmulType[TPosition.GM, CubeFormat.NZ, float32_t]
    ('GM', 'NONE', True)
    >>> MatmulType[TPosition.VECOUT, CubeFormat.COLUMN_MAJOR, float32_t]
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: MatmulType: a CubeFormat::COLUMN_MAJOR operand must be at TPosition::GM, not VECOUT
    """

    __qualname__ = "MatmulType"


_MatmulType.__name__ = "MatmulType"
MatmulType: _MatmulTypeTemplate = _MatmulType
"""``AscendC::MatmulType``: the template (typed as its metaclass, so ``MatmulType[...]`` is an
index for a type checker, not a type application)."""


__all__ = ["CubeFormat", "LayoutMode", "MatmulType", "MatmulTypeArgs"]

"""The conversion table: every documented ``Reg.Cast`` pair and its CastTrait controls.

One entry per (source, destination) pair of the Cast page's tables 6-9 (float to integer,
float to float, integer to float, integer to integer), in the page's order: how many
``RegLayout`` parts the pair takes (1: the widths match), whether it has a ``SatMode``
control, and which ``RoundMode`` values it documents. ``Reg.Cast``'s row and the C API
``asc_<src>2<dst>`` family are built from this one table.

Examples
--------
>>> from ascreg import half, int8_t
>>> pair = CAST_PAIRS[(half, int8_t)]
>>> pair.parts, pair.sat, [m.name for m in pair.rounds][:2]
(2, True, ['CAST_RINT', 'CAST_ROUND'])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ascreg._dtypes import (
    Kind,
    Scalar,
    bfloat16_t,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.enums import RoundMode


class CastPair(NamedTuple):
    """The documented controls of one conversion.

    Attributes
    ----------
    src, dst
        The source and destination element types.
    parts
        How many ``RegLayout`` values the pair takes: 1 (same width, ``UNKNOWN``), 2
        (``ZERO``/``ONE``) or 4 (``ZERO`` .. ``THREE``).
    sat
        Whether ``SatMode::NO_SAT`` / ``SAT`` select the overflow behaviour.
    rounds
        The documented ``RoundMode`` values (empty: the conversion is exact, ``UNKNOWN``).
    """

    src: type[Scalar]
    dst: type[Scalar]
    parts: int
    sat: bool
    rounds: tuple[RoundMode, ...]

    @property
    def default_round(self) -> RoundMode:
        """The rounding of ``CAST_NONE`` / ``UNKNOWN``: nearest-even, half away for hifloat8."""
        return RoundMode.CAST_ROUND if self.dst is hifloat8_t else RoundMode.CAST_RINT

    @property
    def fixed_saturation(self) -> bool:
        """Whether the pair always saturates (integer widening: ``int16 -> uint32`` clamps at 0)."""
        return not self.sat and all(t.kind in (Kind.INT, Kind.UINT) for t in (self.src, self.dst))


_R5 = (RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
       RoundMode.CAST_TRUNC)  # fmt: skip
_HIF8 = (RoundMode.CAST_ROUND, RoundMode.CAST_HYBRID)
_RINT = (RoundMode.CAST_RINT,)

_TABLE: tuple[CastPair, ...] = (
    # table 6: float -> integer
    CastPair(half, int4x2_t, 4, True, _R5),
    CastPair(half, int8_t, 2, True, _R5),
    CastPair(half, uint8_t, 2, True, _R5),
    CastPair(half, int16_t, 1, True, _R5),
    CastPair(half, int32_t, 2, False, _R5),
    CastPair(bfloat16_t, int32_t, 2, True, _R5),
    CastPair(float32_t, int16_t, 2, True, _R5),
    CastPair(float32_t, int32_t, 1, True, _R5),
    CastPair(float32_t, int64_t, 2, True, _R5),
    # table 7: float -> float
    CastPair(hifloat8_t, half, 2, False, ()),
    CastPair(hifloat8_t, float32_t, 4, False, ()),
    CastPair(fp8_e4m3fn_t, float32_t, 4, False, ()),
    CastPair(fp8_e5m2_t, float32_t, 4, False, ()),
    CastPair(fp8_e8m0_t, bfloat16_t, 2, False, ()),
    CastPair(fp4x2_e2m1_t, bfloat16_t, 4, False, ()),
    CastPair(fp4x2_e1m2_t, bfloat16_t, 4, False, ()),
    CastPair(half, hifloat8_t, 2, True, _HIF8),
    CastPair(half, bfloat16_t, 1, False, _R5),
    CastPair(bfloat16_t, half, 1, True, _R5),
    CastPair(bfloat16_t, fp4x2_e2m1_t, 4, False, _R5),
    CastPair(bfloat16_t, fp4x2_e1m2_t, 4, False, _R5),
    CastPair(bfloat16_t, fp8_e8m0_t, 2, False, ()),
    CastPair(bfloat16_t, float32_t, 2, False, ()),
    CastPair(half, float32_t, 2, False, ()),  # in table 3 (and the C API), not in table 7
    CastPair(float32_t, hifloat8_t, 4, True, _HIF8),
    CastPair(float32_t, fp8_e4m3fn_t, 4, True, _RINT),
    CastPair(float32_t, fp8_e5m2_t, 4, True, _RINT),
    CastPair(float32_t, half, 2, True, (RoundMode.CAST_ODD, *_R5)),
    CastPair(float32_t, bfloat16_t, 2, True, _R5),
    # table 8: integer -> float
    CastPair(int4x2_t, half, 4, False, ()),
    CastPair(int4x2_t, bfloat16_t, 4, False, ()),
    CastPair(int8_t, half, 2, False, ()),
    CastPair(uint8_t, half, 2, False, ()),
    CastPair(int16_t, half, 1, False, _R5),
    CastPair(int16_t, float32_t, 2, False, ()),
    CastPair(int32_t, float32_t, 1, False, _R5),
    CastPair(int64_t, float32_t, 2, False, _R5),
    # table 9: integer -> integer
    CastPair(int4x2_t, int16_t, 4, False, ()),
    CastPair(int8_t, int16_t, 2, False, ()),
    CastPair(int8_t, int32_t, 4, False, ()),
    CastPair(uint8_t, uint16_t, 2, False, ()),
    CastPair(uint8_t, uint32_t, 4, False, ()),
    CastPair(int16_t, int4x2_t, 4, True, ()),
    CastPair(int16_t, uint8_t, 2, True, ()),
    CastPair(int16_t, int32_t, 2, False, ()),
    CastPair(int16_t, uint32_t, 2, False, ()),
    CastPair(uint16_t, uint8_t, 2, True, ()),
    CastPair(uint16_t, uint32_t, 2, False, ()),
    CastPair(int32_t, uint8_t, 4, True, ()),
    CastPair(int32_t, int16_t, 2, True, ()),
    CastPair(int32_t, uint16_t, 2, True, ()),
    CastPair(int32_t, int64_t, 2, False, ()),
    CastPair(uint32_t, uint8_t, 4, True, ()),
    CastPair(uint32_t, int16_t, 2, True, ()),
    CastPair(uint32_t, uint16_t, 2, True, ()),
    CastPair(int64_t, int32_t, 2, True, ()),
)

CAST_PAIRS: dict[tuple[type[Scalar], type[Scalar]], CastPair] = {(p.src, p.dst): p for p in _TABLE}
"""Every documented Cast pair, keyed ``(src, dst)``, in the page's order."""

CAST_COMBOS: tuple[tuple[type[Scalar], type[Scalar]], ...] = tuple((p.dst, p.src) for p in _TABLE)
"""``Reg.Cast``'s legal ``(T, U)`` = (destination, source) combinations, in table order."""

TRUNCATE_TYPES: tuple[type[Scalar], ...] = (half, bfloat16_t, float32_t)
"""``Reg.Truncate``'s types (round to an integral value, same format)."""

TRUNCATE_ROUNDS: tuple[RoundMode, ...] = _R5
"""``Reg.Truncate``'s documented rounding modes (``CAST_NONE`` rounds as ``CAST_RINT``)."""


# ---- the C API spellings: asc_<src>2<dst>[_<round>][_sat][_v<part+1>] ---------------------------

C_TYPE_NAMES: dict[type[Scalar], str] = {
    half: "half", float32_t: "float", bfloat16_t: "bfloat16", int8_t: "int8", uint8_t: "uint8",
    int16_t: "int16", uint16_t: "uint16", int32_t: "int32", uint32_t: "uint32", int64_t: "int64",
    hifloat8_t: "hif8", fp8_e4m3fn_t: "e4m3", fp8_e5m2_t: "e5m2", int4x2_t: "int4x2",
    fp4x2_e2m1_t: "e2m1x2", fp4x2_e1m2_t: "e1m2x2",
}  # fmt: skip
"""How a C conversion name spells each type."""

C_ROUND_SUFFIXES: dict[RoundMode, str] = {
    RoundMode.CAST_RINT: "rn", RoundMode.CAST_ROUND: "rna", RoundMode.CAST_FLOOR: "rd",
    RoundMode.CAST_CEIL: "ru", RoundMode.CAST_TRUNC: "rz", RoundMode.CAST_ODD: "ro",
    RoundMode.CAST_HYBRID: "rh",
}  # fmt: skip
"""The rounding suffix of a C conversion name (the C API's rounding page)."""

C_TRUNCATES: dict[str, RoundMode] = {
    "asc_rint": RoundMode.CAST_RINT, "asc_round": RoundMode.CAST_ROUND,
    "asc_floor": RoundMode.CAST_FLOOR, "asc_ceil": RoundMode.CAST_CEIL,
    "asc_trunc": RoundMode.CAST_TRUNC,
}  # fmt: skip
"""The C twins of ``Reg.Truncate``, one per rounding mode."""

C_WITHOUT_TWIN = frozenset(
    {(bfloat16_t, fp8_e8m0_t), (fp8_e8m0_t, bfloat16_t), (int16_t, int4x2_t)}
)
"""Cast pairs the C API has no function for (include/c_api/reg_compute/reg_convert.h)."""


C_DEPRECATED_PAGES = frozenset({
    "asc_bfloat162e1m2x2", "asc_bfloat162e2m1x2", "asc_e1m2x22bfloat16", "asc_e2m1x22bfloat16",
    "asc_e4m32float", "asc_e5m22float", "asc_float2e4m3", "asc_float2e5m2", "asc_float2hif8",
    "asc_half2int4x2", "asc_hif82float", "asc_int322uint8", "asc_int4x22bfloat16",
    "asc_int4x22half", "asc_int4x22int16", "asc_int82int32", "asc_uint322uint8", "asc_uint82uint32",
})  # fmt: skip
"""Conversions whose page is marked deprecated (``<name>_deprecated.md``, no replacement named)."""


class CConversion(NamedTuple):
    """One C conversion function: its name and the Cast it is (pair, rounding, saturation, part)."""

    name: str
    pair: CastPair
    rounding: RoundMode
    saturate: bool
    part: int

    @property
    def page(self) -> str:
        """The function's page under ``docs/zh/api/SIMD-API/C-API/reg/data_type_convert/``."""
        base = f"asc_{C_TYPE_NAMES[self.pair.src]}2{C_TYPE_NAMES[self.pair.dst]}"
        return f"{base}_deprecated.md" if base in C_DEPRECATED_PAGES else f"{base}.md"


def c_conversions() -> Iterator[CConversion]:
    """Every ``asc_<src>2<dst>...`` function, generated from the Cast table.

    Examples
    --------
    >>> names = [c.name for c in c_conversions()]
    >>> len(names), names[:3]
    (437, ['asc_half2int4x2_rn', 'asc_half2int4x2_rn_v2', 'asc_half2int4x2_rn_v3'])
    """
    for pair in _TABLE:
        if (pair.src, pair.dst) in C_WITHOUT_TWIN:
            continue
        base = f"asc_{C_TYPE_NAMES[pair.src]}2{C_TYPE_NAMES[pair.dst]}"
        for rounding in pair.rounds or (RoundMode.UNKNOWN,):
            suffix = f"_{C_ROUND_SUFFIXES[rounding]}" if pair.rounds else ""
            for saturate in (False, True) if pair.sat else (False,):
                for part in range(pair.parts):
                    name = f"{base}{suffix}{'_sat' if saturate else ''}{f'_v{part + 1}' if part else ''}"
                    yield CConversion(name, pair, rounding, saturate, part)

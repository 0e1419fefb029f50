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

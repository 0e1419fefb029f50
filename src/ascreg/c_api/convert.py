"""The C API conversions: ``asc_<src>2<dst>[_<round>][_sat][_v<n>]`` and ``asc_rint`` ... ``asc_trunc``.

Every function is ``Reg.Cast`` (or ``Reg.Truncate``) with its controls fixed by its name: the
rounding suffix (``_rn`` RINT, ``_rna`` ROUND, ``_rd`` FLOOR, ``_ru`` CEIL, ``_rz`` TRUNC, ``_ro``
ODD, ``_rh`` HYBRID), ``_sat`` for saturation, ``_v2``/``_v3``/``_v4`` for the part
(``RegLayout::ONE``/``TWO``/``THREE``; none: ``ZERO``). They are generated from the one Cast
table (``ascreg._spec.convert``) by a loop and share the Reg implementation.

Examples
--------
>>> import numpy as np
>>> from ascreg.c_api import asc_float2half_rz_sat_v2, asc_create_mask_b32, vector_float, vector_half, PAT_ALL
>>> src, dst = vector_float(), vector_half()
>>> src.set(np.full(64, 1e6, np.float32))
>>> asc_float2half_rz_sat_v2(dst, src, asc_create_mask_b32(PAT_ALL))
>>> np.asarray(dst)[:4].tolist()
[0.0, 65504.0, 0.0, 65504.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import convert as shared
from ascreg._frontend.template import define
from ascreg._spec import C_MULS_PARTS
from ascreg._spec.convert import C_TRUNCATES, CConversion, c_conversions
from ascreg.enums import CastTrait, MaskMergeMode, RegLayout, RoundMode, SatMode


def _cast(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.cast(op, dst, src, mask, op.trait)


def _truncate(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.truncate(op, dst, src, mask, op.rounding)


_EXAMPLE = """
    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import {name}, vector_{src}, vector_{dst}, asc_create_mask_b8, PAT_ALL
    >>> src, dst = vector_{src}(), vector_{dst}()
    >>> src.set(np.zeros(src.lanes, src.dtype.np_dtype))
    >>> {name}(dst, src, asc_create_mask_b8(PAT_ALL))
    >>> int(np.count_nonzero(np.asarray(dst).view(np.uint8)))
    0
"""


def _conversion(c: CConversion) -> Any:
    """Define one ``asc_<src>2<dst>...`` function: ``Reg.Cast`` with its name's CastTrait."""
    pair = c.pair
    trait = CastTrait(RegLayout(c.part), SatMode.SAT if c.saturate else SatMode.NO_SAT,
                      MaskMergeMode.ZEROING, c.rounding)  # fmt: skip
    controls = [
        f"part {c.part} (``RegLayout::{RegLayout(c.part).name}``)" if pair.parts > 1 else ""
    ]
    controls.append(f"``{c.rounding.name}``" if pair.rounds else "")
    controls.append(("saturating" if c.saturate else "non-saturating") if pair.sat else "")
    doc = (
        f"``void {c.name}(vector_{_vec(pair.dst)}& dst, vector_{_vec(pair.src)} src, vector_bool mask)``.\n\n"
        f"    Converts {pair.src.cpp_name} to {pair.dst.cpp_name}: ``Reg.Cast`` with "
        f"{', '.join(x for x in controls if x) or 'no controls'}; masked-off lanes are 0.\n"
        + _EXAMPLE.format(name=c.name, src=_vec(pair.src), dst=_vec(pair.dst))
    )
    return define(c.name, doc=doc, trait=trait)(_cast)


def _vec(dtype: Any) -> str:
    """Return the suffix of the C register type of *dtype* (``vector_float``, ``vector_int16_t``)."""
    from ascreg.c_api._types import VECTOR_TYPES

    return VECTOR_TYPES[dtype].__name__.removeprefix("vector_")


def _truncation(name: str, rounding: RoundMode) -> Any:
    doc = f"""``void {name}(vector_T& dst, vector_T src, vector_bool mask)`` (half, bfloat16_t, float).

    Rounds each element to an integral value of the same type with ``{rounding.name}``
    (``Reg.Truncate``); NaN and inf pass through; masked-off lanes are 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import {name}, vector_float, asc_create_mask_b32, PAT_ALL
    >>> src, dst = vector_float(), vector_float()
    >>> src.set(np.full(64, -2.5, np.float32))
    >>> {name}(dst, src, asc_create_mask_b32(PAT_ALL))
    >>> float(np.asarray(dst)[0]) in (-2.0, -3.0)
    True
    """
    return define(name, doc=doc, rounding=rounding)(_truncate)


CONVERSIONS: dict[str, Any] = {c.name: _conversion(c) for c in c_conversions()}
"""Every ``asc_<src>2<dst>...`` function by name."""
TRUNCATIONS: dict[str, Any] = {name: _truncation(name, r) for name, r in C_TRUNCATES.items()}
"""``asc_rint``, ``asc_round``, ``asc_floor``, ``asc_ceil``, ``asc_trunc``."""
globals().update(CONVERSIONS)
globals().update(TRUNCATIONS)


# ---- asc_muls / asc_muls_v2: Reg.MulsCast with a fixed part (issue 11, C API complete) ----------


def _muls(op: Any, dst: Any, src: Any, value: Any, mask: Any) -> None:
    shared.muls_cast(op, dst, src, value, mask, RegLayout(op.part), "value")


def _muls_doc(name: str, part: int) -> str:
    parity, lanes = (
        ("even", "[1.5, 0.0, 1.5, 0.0]") if part == 0 else ("odd", "[0.0, 1.5, 0.0, 1.5]")
    )
    return f"""``void {name}(vector_half& dst, vector_float src, float value, vector_bool mask)``.

    ``dst = round_to_half(src * value)`` written to the {parity} half lanes (``Reg.MulsCast``
    with ``RegLayout::{RegLayout(part).name}``; the instruction is ``vmulscvt``): the product is
    rounded once (``CAST_ROUND``), the other half lanes and masked-off lanes are 0. The page
    marks ``asc_muls`` deprecated; the header declares it without a notice, so no warning.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import vector_float, vector_half, asc_create_mask_b32, PAT_ALL
    >>> src, dst = vector_float(), vector_half()
    >>> src.set(np.full(64, 3.0, np.float32))
    >>> {name}(dst, src, 0.5, asc_create_mask_b32(PAT_ALL))
    >>> np.asarray(dst)[:4].tolist()
    {lanes}
    """


asc_muls, asc_muls_v2 = (
    define(name, doc=_muls_doc(name, part), part=part)(_muls) for name, part in C_MULS_PARTS.items()
)

__all__ = sorted([*CONVERSIONS, *TRUNCATIONS, "asc_muls", "asc_muls_v2"])

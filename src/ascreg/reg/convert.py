"""Conversions: ``Cast`` (between number formats) and ``Truncate`` (round to an integral value).

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, float32_t, int16_t
>>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[int16_t]()
>>> src.set(np.full(64, 40000.5, np.float32))
>>> trait = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.SAT, Reg.MaskMergeMode.ZEROING,
...                       Reg.RoundMode.CAST_ROUND)
>>> Reg.Cast[int16_t, float32_t, trait](dst, src, Reg.CreateMask[float32_t]())
>>> np.asarray(dst)[:4].tolist()
[32767, 0, 32767, 0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import convert as shared
from ascreg._frontend.template import define
from ascreg.enums import CastTrait, MaskMergeMode, RegLayout, RoundMode, castTrait


def _cast(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.cast(op, dst, src, mask, op.t.enum(CastTrait, castTrait))


Cast = define(
    "Reg.Cast",
    enum_kinds=(CastTrait,),
    max_dtypes=2,
    doc="""``Cast<T = DefaultType, U = DefaultType, const CastTrait& trait = castTrait>(S& dst, V& src, MaskReg& mask)``.

    Converts each ``U`` element of ``src`` to ``T`` (``dst``): float to integer, float to
    float, integer to float, integer to integer, every pair of the Cast page's tables, with
    the ``CastTrait`` controls of the pair:

    * ``layoutMode``: for a width change by 2 or 4, widening reads the narrow element
      ``layout`` of each group, narrowing writes the result to position ``layout`` of each
      group and 0 to the others (``UNKNOWN`` is ``ZERO``). The 4-bit pair types move two
      elements per byte. A 64-bit ``RegTraitNumTwo`` side converts lane i to lane i.
    * ``satMode``: ``SAT`` clamps out-of-range values to the destination's extremes (float
      NaN to 0); ``NO_SAT`` (and ``UNKNOWN``) keeps the low bits for integers and gives
      inf/NaN for floats. Integer widening always saturates (``int16 -> uint32``: negative is 0).
    * ``roundMode``: the pair's documented modes; ``CAST_NONE``/``UNKNOWN`` round to nearest
      even (hifloat8: half away). An undocumented mode raises ``UnsupportedError``.
    * ``mrgMode``: ``MERGING`` keeps the masked-off ``dst`` lanes (layout ``UNKNOWN``/``ZERO``
      only, no 4-bit types); otherwise they are 0.

    The mask selects source elements (bit ``i * sizeof(U)``). Decisions where the page is
    silent are in the Conversions section of the semantics page.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half, hifloat8_t
    >>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[hifloat8_t]()
    >>> src.set(np.full(128, 3.0))
    >>> Reg.Cast[hifloat8_t, half, Reg.CastTrait(Reg.RegLayout.ONE)](dst, src, Reg.CreateMask[half]())
    >>> [hex(v) for v in np.asarray(dst)[:4]]
    ['0x0', '0x14', '0x0', '0x14']
    """,
)(_cast)


def _truncate(op: Any, dst: Any, src: Any, mask: Any) -> None:
    if op.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) is MaskMergeMode.MERGING:
        from ascreg.errors import UnsupportedError

        raise UnsupportedError("Truncate supports MaskMergeMode.ZEROING only (MERGING: not yet)")
    shared.truncate(op, dst, src, mask, op.t.enum(RoundMode, RoundMode.CAST_NONE))


Truncate = define(
    "Reg.Truncate",
    enum_kinds=(RoundMode, MaskMergeMode),
    doc="""``Truncate<T, RoundMode roundMode = CAST_NONE, MaskMergeMode mode = ZEROING>(S& dst, S& src, MaskReg& mask)``.

    Rounds each float element to an integral value of the same type (half, bfloat16_t,
    float) with ``roundMode`` (``CAST_RINT``, ``CAST_ROUND``, ``CAST_FLOOR``, ``CAST_CEIL``,
    ``CAST_TRUNC``; ``CAST_NONE`` is ``CAST_RINT``). NaN and the infinities pass through; a
    zero result keeps the sign (``ceil(-0.5)`` is ``-0.0``). Masked-off lanes are 0; MERGING
    is not supported (as on the chip).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, float32_t
    >>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> src.set(np.full(64, -2.5, np.float32))
    >>> Reg.Truncate[float32_t, Reg.RoundMode.CAST_ROUND](dst, src, Reg.CreateMask[float32_t]())
    >>> float(np.asarray(dst)[0])
    -3.0
    """,
)(_truncate)


def _muls_cast(op: Any, dst: Any, src: Any, scalarValue: Any, mask: Any) -> None:
    shared.muls_cast(op, dst, src, scalarValue, mask, op.t.enum(RegLayout, RegLayout.ZERO))


MulsCast = define(
    "Reg.MulsCast",
    enum_kinds=(RegLayout,),
    max_dtypes=3,
    doc="""``MulsCast<T0, T1, T2, RegLayout layout = ZERO>(T3& dst, T4& src, T2 scalarValue, MaskReg& mask)``.

    ``dst = cast_round_to_half(src * scalarValue)`` for float ``src`` and scalar, half
    ``dst``: the product is rounded once (``CAST_ROUND``; decision: fused, exact product, no
    saturation, a NaN result is ``0x7E00``) and written to part ``layout`` (``ZERO`` or
    ``ONE``) of each pair of half lanes, the other 0, as the float -> half ``Cast``.
    ``FusedMulsCast`` is the same op.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, float32_t, half
    >>> src, dst = Reg.RegTensor[float32_t](), Reg.RegTensor[half]()
    >>> src.set(np.full(64, 3.0, np.float32))
    >>> Reg.MulsCast[half, float32_t, float32_t, Reg.RegLayout.ONE](dst, src, 0.5, Reg.CreateMask[float32_t]())
    >>> np.asarray(dst)[:4].tolist()
    [0.0, 1.5, 0.0, 1.5]
    """,
)(_muls_cast)
FusedMulsCast = MulsCast

"""The conversion implementations shared by ``Reg.Cast`` / ``Reg.Truncate`` and their C API twins.

:func:`cast` checks the registers against the row and the ``CastTrait`` controls against the
pair's entry in ``ascreg._spec.convert`` (the C++ static_asserts), resolves the ``UNKNOWN``
defaults, and makes one :func:`ascreg.core.convert.cast_lanes` call.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, half, int32_t
>>> src, dst = Reg.RegTensor[half](), Reg.RegTensor[int32_t]()
>>> src.set(np.full(128, -1.5))
>>> Reg.Cast[int32_t, half, Reg.CastTrait(Reg.RegLayout.ZERO, roundMode=Reg.RoundMode.CAST_FLOOR)](
...     dst, src, Reg.CreateMask[int32_t]())
>>> int(np.asarray(dst)[0])
-2
"""

from __future__ import annotations

from typing import Any

from ascreg._dtypes import Kind, int4x2_t
from ascreg._frontend import operands
from ascreg._frontend.compute import template_pair
from ascreg._spec.convert import CAST_PAIRS, TRUNCATE_ROUNDS, CastPair
from ascreg.core import compare, convert
from ascreg.enums import CastTrait, MaskMergeMode, RegLayout, RoundMode, SatMode
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.registers import RegTensor, RegTraitNumTwo
from ascreg.machine.sysregs import conversion_saturates

DEFAULT_ROUNDS = (RoundMode.CAST_NONE, RoundMode.UNKNOWN)
"""The rounding values that mean "the conversion's default" (nearest-even; hifloat8 half away)."""


def _layout(pair: CastPair, trait: CastTrait, dst: RegTensor[Any, Any],
            src: RegTensor[Any, Any]) -> int | None:  # fmt: skip
    """Return the part index of a width-changing cast (``UNKNOWN`` is ``ZERO``); None when 1:1."""
    if pair.parts == 1 or RegTraitNumTwo in (dst.trait, src.trait):
        return None
    layout = trait.layoutMode
    if layout is RegLayout.UNKNOWN:
        return 0
    if layout.value >= pair.parts:
        raise AscregTypeError(
            f"{layout!r} is not a layout of {pair.src.cpp_name} -> {pair.dst.cpp_name} "
            f"(legal: {', '.join(m.name for m in list(RegLayout)[1 : pair.parts + 1])}; C++: "
            "static_assert 'current cast api RegLayout Mode is not supported')"
        )
    return layout.value


def _rounding(pair: CastPair, mode: RoundMode) -> RoundMode:
    """Return the pair's rounding: the written mode if documented, the default for NONE/UNKNOWN."""
    if not pair.rounds or mode in DEFAULT_ROUNDS:
        return pair.default_round
    if mode not in pair.rounds:
        raise UnsupportedError(
            f"{mode!r} is not documented for {pair.src.cpp_name} -> {pair.dst.cpp_name} "
            f"(documented: {', '.join(m.name for m in pair.rounds)})"
        )
    return mode


def _merging(pair: CastPair, trait: CastTrait) -> bool:
    """Whether masked-off lanes keep ``dst`` (MERGING: layout UNKNOWN/ZERO, no 4-bit types)."""
    if trait.mrgMode is not MaskMergeMode.MERGING:
        return False
    nibbles = {pair.src, pair.dst} & set(convert.NIBBLE_TYPES)
    if trait.layoutMode not in (RegLayout.UNKNOWN, RegLayout.ZERO) or nibbles:
        raise AscregTypeError(
            "MaskMergeMode.MERGING is supported for RegLayout UNKNOWN/ZERO and without 4-bit "
            f"types only, got {trait.layoutMode!r} for {pair.src.cpp_name} -> {pair.dst.cpp_name}"
        )
    return True


def _to_integer(pair: CastPair) -> bool:
    """Whether *pair* converts to an integer type (CTRL[59]'s conversions, not CTRL[48]'s)."""
    return pair.dst.kind in (Kind.INT, Kind.UINT) or pair.dst is int4x2_t


def cast(op: Any, dst: Any, src: Any, mask: Any, trait: CastTrait) -> None:
    """``dst = Cast<trait>(src)`` on the lanes the source mask selects (see ``core.convert``).

    The trait's ``satMode`` decides saturation when CTRL[60] = 0 (or outside a kernel); under
    CTRL[60] = 1 CTRL[48] / CTRL[59] decide (:func:`~ascreg.machine.sysregs.conversion_saturates`).
    """
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    template_pair(op, d, s)
    op.spec.check(d.dtype, s.dtype)
    pair = CAST_PAIRS[(s.dtype, d.dtype)]
    bits = operands.mask(mask, "mask", op.surface).bits()
    saturate = pair.fixed_saturation or (
        pair.sat and conversion_saturates(_to_integer(pair), trait.satMode is SatMode.SAT)
    )
    result = convert.cast_lanes(s.get(), bits, s.dtype, d.dtype, _layout(pair, trait, d, s),
                                _rounding(pair, trait.roundMode), saturate)  # fmt: skip
    if _merging(pair, trait):
        result = compare.select(operands.lane_enables(operands.mask(mask, "mask", op.surface), d),
                                result, d.get())  # fmt: skip
    d.put(result)


def muls_cast(
    op: Any,
    dst: Any,
    src: Any,
    scalar: Any,
    mask: Any,
    layout: RegLayout,
    scalar_role: str = "scalarValue",
) -> None:
    """``dst = half(src * scalar)`` (one rounding, ``CAST_ROUND``) into part *layout*.

    *scalar_role* names the scalar in messages (``scalarValue``; the C API's ``value``).
    """
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    template_pair(op, d, s)
    op.spec.check(d.dtype, s.dtype, s.dtype)
    if layout not in (RegLayout.ZERO, RegLayout.ONE):
        raise AscregTypeError(
            f"MulsCast supports RegLayout ZERO and ONE only, got {layout!r} (C++: static_assert)"
        )
    value = operands.scalar(scalar, s.dtype, scalar_role)
    bits = operands.mask(mask, "mask", op.surface).bits()
    d.put(convert.muls_cast(s.get(), value, bits, layout.value))


def truncate(op: Any, dst: Any, src: Any, mask: Any, rounding: RoundMode) -> None:
    """``dst = round_integral(src)`` on the selected lanes, 0 elsewhere (ZEROING only)."""
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    operands.same_type(op.surface, d, s)
    op.spec.check(op.template_dtype(d))
    if rounding not in (*TRUNCATE_ROUNDS, *DEFAULT_ROUNDS):
        raise UnsupportedError(
            f"{rounding!r} is not documented for Truncate "
            f"(documented: {', '.join(m.name for m in TRUNCATE_ROUNDS)})"
        )
    mode = RoundMode.CAST_RINT if rounding in DEFAULT_ROUNDS else rounding
    enables = operands.lane_enables(operands.mask(mask, "mask", op.surface), d)
    d.put(compare.zero_masked(convert.round_integral(s.get(), mode), enables))

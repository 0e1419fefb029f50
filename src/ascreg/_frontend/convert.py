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
from ascreg.errors import AscregTypeError, UnsupportedError, UnsupportedModeError
from ascreg.machine.registers import RegTensor, RegTraitNumTwo
from ascreg.machine.sysregs import conversion_saturates

DEFAULT_ROUNDS = (RoundMode.CAST_NONE, RoundMode.UNKNOWN)
"""The rounding values that mean "the conversion's default" (nearest-even; hifloat8 half away)."""


def _layout(pair: CastPair, trait: CastTrait, dst: RegTensor[Any, Any],
            src: RegTensor[Any, Any]) -> int | None:  # fmt: skip
    """Return the part index of a width-changing cast (``UNKNOWN`` is ``ZERO``); None when 1:1.

    A layout the pair does not take (a part past its width ratio; anything but ``UNKNOWN`` /
    ``ZERO`` on a 1:1 pair, whose table row lists ``UNKNOWN`` and whose C++ ignores the field)
    is an :class:`~ascreg.errors.UnsupportedModeError`. A ``RegTraitNumTwo`` side converts lane
    i to lane i whatever the layout (the implementation's interleave / cast / deinterleave).
    """
    if RegTraitNumTwo in (dst.trait, src.trait):
        return None
    layout = trait.layoutMode
    one_to_one = pair.parts == 1
    if layout is RegLayout.UNKNOWN:
        return None if one_to_one else 0
    parts = 1 if one_to_one else pair.parts
    if layout.value >= parts:
        raise UnsupportedModeError(
            f"{layout!r} is not a layout of {pair.src.cpp_name} -> {pair.dst.cpp_name} "
            f"(legal: {', '.join(m.name for m in list(RegLayout)[: parts + 1])}; C++: "
            "static_assert 'current cast api RegLayout Mode is not supported')"
        )
    return None if one_to_one else layout.value


def _rounding(pair: CastPair, mode: RoundMode) -> RoundMode:
    """Return the pair's rounding: the written mode if documented, the default for NONE/UNKNOWN.

    A mode the page does not list for the pair (any mode, for a pair that takes none: an
    integer widening, a float widening) is an :class:`~ascreg.errors.UnsupportedError`.
    """
    if mode in DEFAULT_ROUNDS:
        return pair.default_round
    if mode not in pair.rounds:
        documented = ", ".join(m.name for m in pair.rounds) or "none: the conversion is exact"
        raise UnsupportedError(
            f"{mode!r} is not documented for {pair.src.cpp_name} -> {pair.dst.cpp_name} "
            f"(documented: {documented}; leave roundMode UNKNOWN or CAST_NONE)"
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


def _saturates(pair: CastPair, trait: CastTrait) -> bool:
    """Whether the conversion *pair* under *trait* saturates in the running block."""
    return pair.fixed_saturation or (
        pair.sat and conversion_saturates(_to_integer(pair), trait.satMode is SatMode.SAT)
    )


def cast(op: Any, dst: Any, src: Any, mask: Any, trait: CastTrait) -> None:
    """``dst = Cast<trait>(src)`` on the lanes the source mask selects (see ``core.convert``).

    The trait's ``satMode`` decides saturation when CTRL[60] = 0 (or outside a kernel); under
    CTRL[60] = 1 CTRL[48] / CTRL[59] decide (:func:`~ascreg.machine.sysregs.conversion_saturates`),
    so saturation is decided on every call, also on the validated form's fast path.
    """
    form = (type(dst), type(src), type(mask))  # (an op's trait is fixed: its template argument)
    known = op._derived.get(form)
    if known is not None:  # these operand classes passed every check before
        layout, rounding, pair, merging = known
        result = convert.cast_lanes(src.get(), mask.bits(), src.dtype, dst.dtype, layout,
                                    rounding, _saturates(pair, trait))  # fmt: skip
        if merging:
            result = compare.select(operands.lane_enables(mask, dst), result, dst.get())
        dst.put_known(result)
        return
    d = operands.register(dst, "dst", op.surface)
    s = operands.register(src, "src", op.surface)
    template_pair(op, d, s)
    op.spec.check(d.dtype, s.dtype)
    pair = CAST_PAIRS[(s.dtype, d.dtype)]
    bits = operands.mask(mask, "mask", op.surface).bits()
    layout, rounding = _layout(pair, trait, d, s), _rounding(pair, trait.roundMode)
    result = convert.cast_lanes(s.get(), bits, s.dtype, d.dtype, layout, rounding,
                                _saturates(pair, trait))  # fmt: skip
    merging = _merging(pair, trait)
    if merging:
        result = compare.select(operands.lane_enables(operands.mask(mask, "mask", op.surface), d),
                                result, d.get())  # fmt: skip
    d.put(result)
    op._derived[form] = (layout, rounding, pair, merging)


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

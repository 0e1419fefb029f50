"""Decoding a memory-level op's call form: the count form or a repeat form, its dtypes and strides.

Every op takes its operands, then either ``(count)`` or ``(mask, repeatTime, params)``;
:func:`form_lanes` tells them apart, checks the dtypes against the op's row and the form
(a type the page allows in the count form only is an ``IllegalDtypeError`` in a repeat form),
and returns the lanes and each operand's strides for :func:`ascreg.basic._engine.run`.

Examples
--------
>>> from ascreg import half
>>> from ascreg.basic import Adds
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     lanes, strides = form_lanes(Adds, (half,), (8, 2, (1, 2, 8, 16)), UnaryRepeatParams, "")
...     lanes.repeats, int(lanes.active[0].sum()), strides
(2, 8, ((1, 8), (2, 16)))
"""

from __future__ import annotations

from typing import Any

from ascreg._dtypes import Scalar
from ascreg.basic._engine import Stream
from ascreg.basic._op import BasicOp
from ascreg.basic._repeat import (
    VL,
    Lanes,
    UnaryRepeatParams,
    count_lanes,
    repeat_lanes,
    repeat_params,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.complex import refuse_complex

__all__ = [
    "UnaryRepeatParams",
    "check_form",
    "check_tag",
    "form_lanes",
    "same_type",
    "streams",
    "width",
]


def width(dtype: type[Scalar], count_form: bool) -> int:
    """Lanes per repeat: a register of *dtype*, two for a 64-bit count form (RegTraitNumTwo).

    Examples
    --------
    >>> from ascreg import half, int64_t
    >>> width(half, False), width(int64_t, True)
    (128, 64)
    """
    return 2 * VL // 8 if count_form and dtype.size == 8 else VL // dtype.size


def widest(combo: tuple[type[Scalar], ...]) -> type[Scalar]:
    """Return the widest dtype of *combo*: the one whose lanes a mixed-width op's mask counts."""
    return max(combo, key=lambda d: d.size)


def _repeat_form(op: BasicOp) -> Any:
    found = [f for f in op.spec.shape.forms if f.tag == "mask bits"]  # type: ignore[union-attr]
    return found[0] if found else None


def check_form(op: BasicOp, combo: tuple[type[Scalar], ...], repeat: bool) -> None:
    """Raise ``IllegalDtypeError`` unless *combo* is legal for the op, and for this form.

    *combo* may give the leading roles only (the shifts' scalar forms name ``T`` alone).
    """
    if len(combo) == len(op.spec.roles):
        op.spec.check(*combo)
    else:
        op.spec.check_prefix(*combo)
    form = _repeat_form(op)
    if repeat and (form is None or not form.applies(combo)):
        taken = [c for c in op.spec.combos if form is not None and form.applies(c)]
        legal = sorted({", ".join(d.cpp_name for d in c[: len(combo)]) for c in taken})
        raise IllegalDtypeError(
            f"{', '.join(d.cpp_name for d in combo)} has the count form only on the 950 (the "
            f"repeat forms (mask, repeatTime, ...) take {'; '.join(legal) or 'none'})",
            call=op.name,
        )


def check_tag(op: BasicOp, dtype: type[Scalar], tag: str) -> None:
    """Raise ``IllegalDtypeError`` unless the op's form *tag* (``"count"``, ...) takes *dtype*."""
    op.spec.check(dtype)
    form = next(f for f in op.spec.shape.forms if f.tag == tag)  # type: ignore[union-attr]
    if not form.applies((dtype,)):
        legal = ", ".join(c[0].cpp_name for c in op.spec.combos if form.applies(c))
        raise IllegalDtypeError(
            f"{dtype.cpp_name} is not a type of the {tag} form on the 950 (it takes {legal})",
            call=op.name,
        )


def form_lanes(
    op: BasicOp,
    combo: tuple[type[Scalar], ...],
    rest: tuple[Any, ...],
    kind: type[Any],
    shape: str,
    lane_type: type[Scalar] | None = None,
) -> tuple[Lanes, tuple[tuple[int, int], ...]]:
    """Decode the arguments after the operands: ``(count)`` or ``(mask, repeatTime, params)``.

    Returns the lanes and each stream's ``(block, repeat)`` strides, dst first (none for the
    count form). The lanes are those of *lane_type*, by default the widest dtype of *combo* (a
    ``Cast``'s mask counts the wider side's lanes). *kind* is the repeat-stride struct
    (``UnaryRepeatParams`` or ``BinaryRepeatParams``); *shape* names the operands for the error
    message.
    """
    wide = lane_type or widest(combo)
    if len(rest) == 1:
        check_form(op, combo, repeat=False)
        return count_lanes(rest[0], width(wide, True)), ()
    if len(rest) != 3:
        raise AscregTypeError(
            f"takes ({shape}, count) or ({shape}, mask, repeatTime, {kind.__name__}); got "
            f"{len(rest)} argument(s) after the operands",
            call=op.name,
        )
    check_form(op, combo, repeat=True)
    mask, times, params = rest
    lanes = repeat_lanes(wide, mask, times, set_mask=op.t.flag(0, True))
    strides = repeat_params(params, kind).strides()
    if strides[0][0] == 0 and lanes.active.any():
        undefined_behaviour(
            UndefinedBehaviourError(
                "dstBlkStride 0 is undefined on the chip (高维切分: 'dstBlkStride不支持设置为0')",
                call=op.name,
            )
        )
    return lanes, strides


def streams(
    tensors: tuple[tuple[LocalTensor[Any], str], ...], strides: tuple[tuple[int, int], ...]
) -> list[Stream]:
    """One :class:`Stream` per ``(tensor, role)``, with its strides (the count form: none)."""
    if not strides:
        return [Stream(t, role) for t, role in tensors]
    return [Stream(t, role, b, r) for (t, role), (b, r) in zip(tensors, strides, strict=True)]


def same_type(op: BasicOp, *tensors: tuple[Any, str]) -> type[Scalar]:
    """Return the common element type of *tensors* (checked against the template argument)."""
    found = op.dtypes(*tensors[:1])
    for tensor, role in tensors[1:]:
        other = op.tensor(tensor, role)._dtype()
        refuse_complex(op.name, found[0], other)
        if other is not found[0]:
            raise AscregTypeError(
                f"{role} is a {tensor._cpp()} but dst is a {tensors[0][0]._cpp()} (one T)",
                call=op.name,
            )
    return found[0]

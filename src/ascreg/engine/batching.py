"""Which ops run inside a batched VF loop, and on what operands (see :mod:`ascreg.engine.batch`).

While a loop runs batched, each op call passes :func:`admit` first. An op in :data:`ROW_WISE`
computes with the same front-end code and core functions whether its registers hold one row of
lanes or one row per iteration (numpy broadcasts over the leading axis), so it runs as it is. The
loads and stores in :data:`MEMORY` take pointers with one address per iteration
(:class:`~ascreg.engine.batch.RowPointer`) in their plain form. ``UpdateMask`` and its C twins
take the running count of the tail idiom (:meth:`~ascreg.engine.batch.Batch.carried_count`).
Any other op runs only on operands that are the same in every iteration (no pointer, ``Ref``,
loop-index value or per-iteration register), where one call stands for all iterations, and
never when it is a kernel-level op (its row's shape says ``kernel``: it changes the block's
state per call); otherwise the batch is undone and the loop runs eagerly.

Examples
--------
>>> sorted(name for name in ROW_WISE if name.startswith("Reg.Shift"))
['Reg.ShiftLeft', 'Reg.ShiftLefts', 'Reg.ShiftRight', 'Reg.ShiftRights']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.engine import steps
from ascreg.engine.batch import RowInts, RowPointer, current, fallback
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumOne

_COMPARES = ("eq", "ne", "lt", "gt", "ge", "le")
_REG_BINARY = ("Add", "Sub", "Mul", "Max", "Min", "And", "Or", "Xor")
_C_BINARY = ("add", "sub", "mul", "max", "min", "and", "or", "xor")
_SIGN = ("abs", "neg", "relu")
_SCALAR = ("add", "mul", "max", "min")

ROW_WISE: frozenset[str] = frozenset(
    [
        "Reg.Compare",
        "Reg.Compares",
        "Reg.ShiftRight",
        "Reg.ShiftLeft",
        "Reg.ShiftRights",
        "Reg.ShiftLefts",
        *[f"asc_{c}" for c in _COMPARES],
        *[f"asc_{c}_scalar" for c in _COMPARES],
        *[f"asc_shift{d}{s}" for d in ("right", "left") for s in ("", "_scalar")],
    ]
)
"""Ops whose every form computes row-wise (their masks and registers may hold one row per
iteration)."""
ROW_WISE_ON_REGISTERS: frozenset[str] = frozenset(
    [
        "Reg.Select",
        "Reg.Not",
        "Reg.Move",
        *[f"Reg.{b}" for b in _REG_BINARY],
        *[f"Reg.{s.capitalize()}" for s in _SIGN],
        *[f"Reg.{s.capitalize()}s" for s in _SCALAR],
        "asc_select",
        "asc_not",
        "asc_copy",
        *[f"asc_{b}" for b in _C_BINARY],
        *[f"asc_{s}" for s in _SIGN],
        *[f"asc_{s}_scalar" for s in _SCALAR],
    ]
)
"""Ops that compute row-wise in their register form (a vector register as the destination)."""
SCALAR_SOURCE: frozenset[str] = frozenset(["Reg.Duplicate", "asc_duplicate_scalar"])
"""Broadcasts that compute row-wise when the value is a scalar (not lane 0 of a register)."""
NORM_STORES = frozenset(["DIST_NORM", "DIST_NORM_B8", "DIST_NORM_B16", "DIST_NORM_B32"])


def _per_iteration(obj: Any) -> bool:
    """Return True for an operand that may differ between iterations."""
    if isinstance(obj, Pointer | Ref | RowInts | list | tuple | dict):
        return True
    if isinstance(obj, RegTensor):
        lanes = obj._lanes
        return lanes is not None and lanes.ndim > 1
    if isinstance(obj, MaskReg):
        bits = obj._bits
        return bits is not None and bits.ndim > 1
    return False


def _rows(pointer: Any) -> Any:
    """Return *pointer* with one address per iteration (the same one when it is plain)."""
    if isinstance(pointer, RowPointer) or not isinstance(pointer, Pointer):
        return pointer
    return RowPointer.at(pointer, np.full(current().count, pointer.address, dtype=np.int64), 0)


def _load(op: Any, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    if op.name == "Reg.LoadAlign":
        plain = len(args) == 2 + op.post and op.dist == "DIST_NORM" and not op.blocks
    else:  # asc_loadalign[_postupdate](dst, src[, offset])
        plain = len(args) == 2 + op.post or (len(args) == 3 and _integer(args[2]))
    if not (plain and isinstance(args[0], RegTensor) and args[0].trait is RegTraitNumOne):
        return None
    if len(args) == 2 and isinstance(args[1], RowPointer) and not op.post:
        return args  # what _address would return: the per-iteration pointer itself
    return (args[0], _address(op, args[1], args[2:]), *args[2:])


def _store(op: Any, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    if op.name == "Reg.StoreAlign":
        plain = len(args) == 3 + op.post and op.dist in NORM_STORES and not op.blocks
    else:  # asc_storealign[_postupdate](dst, src[, offset], mask)
        plain = len(args) == 3 + op.post or (len(args) == 4 and _integer(args[2]))
    if not (plain and isinstance(args[1], RegTensor) and isinstance(args[-1], MaskReg)):
        return None
    if args[1].trait is not RegTraitNumOne:
        return None
    if len(args) == 3 and isinstance(args[0], RowPointer) and not op.post:
        return args  # what _address would return: the per-iteration pointer itself
    return (_address(op, args[0], args[2:-1]), *args[1:])


def _address(op: Any, address: Any, rest: tuple[Any, ...]) -> Any:
    """Return the address operand to run with: per-iteration pointers, or a post-update Ref."""
    if op.post:
        if isinstance(address, Ref) and len(rest) == 1:
            current().carried_pointer(address, rest[0])
        return address
    return _rows(address)


def _integer(offset: Any) -> bool:
    return isinstance(offset, int | RowInts)


def _update_mask(op: Any, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    geometry = steps.mask_geometry(op)
    if len(args) != 1 or not isinstance(args[0], Ref) or geometry is None:
        return None
    args[0].value = current().carried_count(args[0], geometry[0])
    return args


SPECIAL: dict[str, Callable[[Any, tuple[Any, ...]], tuple[Any, ...] | None]] = {
    "Reg.LoadAlign": _load,
    "asc_loadalign": _load,
    "asc_loadalign_postupdate": _load,
    "Reg.StoreAlign": _store,
    "asc_storealign": _store,
    "asc_storealign_postupdate": _store,
    "Reg.UpdateMask": _update_mask,
    **{f"asc_update_mask_b{bits}": _update_mask for bits in (8, 16, 32)},
}
"""Ops with per-iteration pointers or counts: each returns the arguments to run with, or None
when the form it was called in does not batch."""


def batched(op: Any, impl: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None) -> Any:
    """Call *op* (through its implementation *impl*) on *args* inside the running batch.

    The arguments are :func:`admit`-ted first. When the batch records a plan
    (:mod:`ascreg.engine.plans`), the call is recorded, unless another recorded call makes it.
    """
    recorder = current().recorder
    if recorder is None or recorder.inside:
        admitted = admit(op, args, kwargs)
        return impl(op, *admitted, **kwargs) if kwargs else impl(op, *admitted)
    recorder.inside = True
    try:
        admitted = admit(op, args, kwargs)
        result = impl(op, *admitted, **kwargs) if kwargs else impl(op, *admitted)
    finally:
        recorder.inside = False
    recorder.call(step_for, op, impl, args, kwargs, result)
    return result


def step_for(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step a plan replays for the recorded call ``op(*args)`` that gave *result*.

    A short step of :mod:`ascreg.engine.steps` where the form has one, else the call
    itself: its operands admitted, then *impl*, as :func:`batched` runs it. (*args* and
    *result* serve to choose the step by their form; the step does not keep them.)
    """
    maker = steps.MAKERS.get(op.name)
    step = None if maker is None else maker(op, args, result)
    return functools.partial(_call, op, impl) if step is None else step


def _call(op: Any, impl: Any, *args: Any) -> Any:
    return impl(op, *admit(op, args, None))


def admit(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None) -> tuple[Any, ...]:
    """Return the arguments to call *op* with inside a batch, or raise ``Fallback``."""
    name = op.name
    if not kwargs:
        if name in ROW_WISE:
            return args
        if name in ROW_WISE_ON_REGISTERS and args and isinstance(args[0], RegTensor):
            return args
        if name in SCALAR_SOURCE and len(args) > 1 and not isinstance(args[1], RegTensor):
            return args
        special = SPECIAL.get(name)
        if special is not None:
            admitted = special(op, args)
            if admitted is not None:
                return admitted
    if getattr(getattr(op.spec, "shape", None), "kernel", False):
        # a kernel-level (scalar) op: flags, barriers, copies, system registers; run once for
        # all iterations it would change the block's state once instead of once per iteration
        raise fallback(f"{name} is a kernel-level op")
    if any(map(_per_iteration, (*args, *(kwargs or {}).values()))):
        raise fallback(f"{name} is not known to compute row-wise in this form")
    return args

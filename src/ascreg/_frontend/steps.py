"""The steps a recorded plan replays for the common forms of the row-wise ops.

A plan (:mod:`ascreg.machine.plans`) replays each recorded op call with a *step*. The general
step is the call itself, admitted and run through the op's implementation
(:func:`ascreg._frontend.batching.step_for`). For the forms below a shorter step does the same:
when the call was recorded, the op had validated the form (the operand classes, the template
arguments, the pointer's alignment and bounds, all the same at replay by the plan's guard), so
its implementation would go straight to its fast path, whose work is what the step does:

* the same core calls on the same operand arrays (the results are the same arrays);
* the same batch bookkeeping (:meth:`~ascreg.machine.batch.Batch.wrote` journals a register's
  pre-loop content before its first write; loads and stores report their rows through the pointer's ``view``);
* the same refusals: an unwritten operand, a negative shift count or any error stops the
  replay, which is undone; the loop then runs as without a plan and raises the eager error.

Each maker ``maker(op, args, result)`` (the recorded call and what it returned; a step must
not keep them) returns None for a form it does not know, and the plan uses the general step.

Examples
--------
>>> sorted(MAKERS)[:3]
['Reg.Compare', 'Reg.LoadAlign', 'Reg.Select']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.core import compare as cmp
from ascreg.core import masks as mask_core
from ascreg.core.datamove import write_lanes
from ascreg.core.shifts import zeroing_shift
from ascreg.machine.batch import RowPointer, fallback
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    BATCHING,
    LANE_WORDS,
    VL,
    MaskReg,
    RegTensor,
    RegTraitNumOne,
)

Step = Callable[..., Any]
Lanes = Any

_COMPARES = ("eq", "ne", "lt", "gt", "ge", "le")


def _lanes(reg: RegTensor[Any, Any]) -> Lanes:
    """Return a register's lanes; an unwritten one stops the replay (the body would say why)."""
    lanes = reg._lanes
    if lanes is None:
        raise fallback(f"{type(reg).__name__} is read before anything was written to it")
    return lanes


def _enables(mask: MaskReg, reg: RegTensor[Any, Any]) -> Lanes:
    """Return the lane enables of *mask* for an op on *reg*, as ``operands.lane_enables`` does.

    A mask a step made holds the enables its bits were spread from (``_lanes_of``): the same
    values as the strided view of the bits at that stride.
    """
    known = mask._lanes_of
    stride = reg.mask_stride
    bits = mask._bits
    if known is not None and known[1] == stride and bits is not None:
        return known[0]
    if bits is None:
        bits = mask.bits()  # enables kept unspread, or unwritten (which raises)
    return mask_core.enables_of(bits, reg.lanes, stride)


def _registers(*operands: Any) -> bool:
    """Return True when every operand is a plain (one hardware register) vector register."""
    return all(isinstance(r, RegTensor) and r.trait is RegTraitNumOne for r in operands)


def _dist(op: Any, size: int) -> str:
    """Return the ``LoadDist``/``StoreDist`` name of a Reg (a name) or C (by size) load or store."""
    dist = op.dist
    return dist if isinstance(dist, str) else dist(size)


def _formed(op: Any) -> Any:
    """Return the operand-class tuples of a load's or store's validated plain form."""
    return op.plain if op.name.startswith("Reg.") else op._forms


def _plain_access(op: Any) -> bool:
    """Return True for a load or store op without post-update, DataBlock or dual forms.

    (A C op's ``blocks`` says it also takes the DataBlock arguments, which a plain call has
    not; a Reg op's says its dist is a DataBlock one.)
    """
    flags = ("post", "dual", "interleave", "blocks" if op.name.startswith("Reg.") else "post")
    return not any(getattr(op, flag, False) for flag in flags)


# -- makers ---------------------------------------------------------------------------------------


def _load(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``LoadAlign(dst, rows)`` / ``asc_loadalign(dst, rows)`` with ``DIST_NORM``: one copy."""
    if len(args) != 2 or not _plain_access(op):
        return None
    dst, src = args
    if type(src) is not RowPointer or not _registers(dst) or src.dtype is not dst.dtype:
        return None
    if _dist(op, dst.dtype.size) != "DIST_NORM" or (type(dst), type(src)) not in _formed(op):
        return None
    lanes = dst.lanes

    def load(reg: Any, pointer: Any) -> None:
        loaded = pointer.view(lanes).copy()
        batch = BATCHING[-1]  # _put, inline
        if id(reg) not in batch.registers:
            batch.wrote(reg)
        reg._lanes = loaded

    return load


def _store(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``StoreAlign(rows, src, mask)`` / ``asc_storealign(rows, src, mask)``, NORM: one write."""
    if len(args) != 3 or not _plain_access(op) or not getattr(op, "masked", True):
        return None
    dst, src, mask = args
    if type(dst) is not RowPointer or not _registers(src) or not isinstance(mask, MaskReg):
        return None
    size = src.dtype.size
    dist = _dist(op, size)
    if dst.dtype is not src.dtype or dist not in ("DIST_NORM", f"DIST_NORM_B{8 * size}"):
        return None
    form = (type(src), type(dst)) if op.name == "Reg.StoreAlign" else (type(dst), type(src))
    if (*form, type(mask)) not in _formed(op):
        return None

    def store(pointer: Any, reg: Any, predicate: Any) -> None:
        write_lanes(pointer, _lanes(reg), _enables(predicate, reg))

    return store


def _update_mask(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``UpdateMask[T](count)`` / ``asc_update_mask_b<n>(count)``: the tail rows of a count."""
    geometry = getattr(op, "geometry", None)
    if geometry is None and hasattr(op, "stride"):
        geometry = (VL // op.stride, op.stride)
    if len(args) != 1 or geometry is None or type(args[0]) is not Ref:
        return None
    lanes, stride = geometry
    make = type(result)  # MaskReg, or the C API's vector_bool
    known: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}
    """The shared (read-only) rows of each count, carried or not, and iteration count."""

    def update_mask(count: Any) -> Any:
        batch = BATCHING[-1]
        value = count.value
        key = (value, count.born != batch.epoch, batch.count) if type(value) is int else None
        rows = None if key is None else known.get(key)
        if rows is None:
            rows = mask_core.tail_rows(batch.carried_count(count, lanes), lanes, stride)
            if key is not None and len(known) < 16:
                known[key] = rows
        else:  # what carried_count and tail_rows gave for this count before
            batch.claim(count)
        bits, enables, count.value = rows
        mask = make()
        batch.wrote(mask)
        mask._bits, mask._lanes_of = bits, (enables, stride)
        return mask

    return update_mask


def _compare(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``Compare[T, mode](dst, a, b, mask)`` / ``asc_<mode>(dst, a, b, mask)`` on registers."""
    if len(args) != 4 or getattr(op, "scalar", False):
        return None
    dst, src0, src1, mask = args
    if not (isinstance(dst, MaskReg) and isinstance(mask, MaskReg) and _registers(src0, src1)):
        return None
    if (type(dst), type(src0), type(src1), type(mask)) not in op._forms:
        return None
    mode = op.cmp_mode if op.name == "Reg.Compare" else op.mode
    stride = src0.mask_stride
    word = LANE_WORDS[stride]
    # cmp.compare on two registers of one dtype is the mode's ufunc, unless the type widens
    widened = src0.dtype.np_dtype.type in cmp._WIDENED_TYPES
    predicate_of = functools.partial(cmp.compare, mode) if widened else cmp.CMP_MODES[mode]

    def compare(out: Any, a: Any, b: Any, mask: Any) -> None:
        right, left = _lanes(b), _lanes(a)  # cmp.compare_mask, without remembering the rows
        enables = mask_core.enabled(predicate_of(left, right), _enables(mask, a))
        batch = BATCHING[-1]
        if id(out) not in batch.registers:
            batch.wrote(out)
        # spread_enables, inline: each enable a little-endian 1 or 0 of the lane's width
        out._bits, out._lanes_of = enables.astype(word).view(np.bool_), (enables, stride)

    return compare


def _select(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``Select(dst, a, b, mask)`` / ``asc_select(dst, a, b, mask)`` on vector registers."""
    if len(args) != 4 or not _registers(*args[:3]) or not isinstance(args[3], MaskReg):
        return None
    if tuple(map(type, args)) not in op._forms:
        return None
    width = args[0].mask_stride
    words = LANE_WORDS[width]

    def select(dst: Any, a: Any, b: Any, mask: Any) -> None:
        left, right = _lanes(a), _lanes(b)
        known, bits = mask._lanes_of, mask._bits
        if known is not None and known[1] == width and bits is not None:
            # bits spread from enables at the lanes' width: as integers, 1 or 0 per lane
            selector = bits.view(words)
            if selector.shape == left.shape == right.shape:
                selected = cmp.select_words(selector, left, right)
            else:
                selected = cmp.select(_enables(mask, dst), left, right)
        else:
            selected = cmp.select(_enables(mask, dst), left, right)
        batch = BATCHING[-1]  # _put, inline
        if id(dst) not in batch.registers:
            batch.wrote(dst)
        dst._lanes = selected

    return select


def _shift(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
    """``ShiftRight(dst, src, counts, mask)`` and the left, C API twins: register counts."""
    if len(args) != 4 or op.scalar or not _registers(*args[:3]):
        return None
    if not isinstance(args[3], MaskReg):
        return None
    if op.name.startswith("Reg."):
        formed = ("shift", *map(type, args[:3])) in op._checked
    else:
        formed = tuple(map(type, args)) in op._forms
    if not formed:
        return None
    left = op.left

    def shift(dst: Any, src: Any, counts: Any, mask: Any) -> None:
        amounts = _lanes(counts)
        shifted = zeroing_shift(_lanes(src), amounts, _enables(mask, dst), left=left)
        batch = BATCHING[-1]  # _put, inline
        if id(dst) not in batch.registers:
            batch.wrote(dst)
        dst._lanes = shifted

    return shift


MAKERS: dict[str, Callable[[Any, tuple[Any, ...], Any], Step | None]] = {
    "Reg.LoadAlign": _load,
    "asc_loadalign": _load,
    "Reg.StoreAlign": _store,
    "asc_storealign": _store,
    "Reg.UpdateMask": _update_mask,
    **{f"asc_update_mask_b{bits}": _update_mask for bits in (8, 16, 32)},
    "Reg.Compare": _compare,
    **{f"asc_{mode}": _compare for mode in _COMPARES},
    "Reg.Select": _select,
    "asc_select": _select,
    "Reg.ShiftRight": _shift,
    "Reg.ShiftLeft": _shift,
    "asc_shiftright": _shift,
    "asc_shiftleft": _shift,
}
"""The step maker of each op that has short steps (see the module docstring)."""

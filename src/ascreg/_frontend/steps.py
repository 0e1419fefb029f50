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

from ascreg.core import compare as cmp
from ascreg.core import masks as mask_core
from ascreg.core.datamove import _NORM_ALIGN, _NORM_STORE, write_lanes
from ascreg.core.shifts import masked_shift, zeroing_shift
from ascreg.errors import OutOfBoundsError
from ascreg.machine.batch import RowPointer, fallback
from ascreg.machine.memory import UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    BATCHING,
    LANE_WORDS,
    VL,
    MaskReg,
    RegTensor,
    RegTraitNumOne,
    spread_enables,
)
from ascreg.machine.undefined import UndefinedLanes

Step = Callable[..., Any]
Lanes = Any

_COMPARES = ("eq", "ne", "lt", "gt", "ge", "le")


def _lanes(reg: RegTensor[Any, Any]) -> Lanes:
    """Return a register's lanes; an unwritten one stops the replay (the body would say why)."""
    lanes = reg._lanes
    if lanes is None:
        raise fallback(f"{type(reg).__name__} is read before anything was written to it")
    if type(lanes) is UndefinedLanes:  # their masks follow the lanes in eager order only
        raise fallback(f"{type(reg).__name__} holds undefined lanes")
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


# -- the forms ------------------------------------------------------------------------------------
#
# Each form function checks that a call (op, args, result) is of a form the op has validated and
# that a short step covers, and returns what the step needs (None: not such a form). The row
# steps (a batch's, for plans) and the lane steps (eager calls) are built from it.


def _load_form(
    op: Any, args: tuple[Any, ...], result: Any, pointers: Any
) -> tuple[Any, int] | None:
    """``LoadAlign(dst, p)`` / ``asc_loadalign(dst, p)`` with ``DIST_NORM``: (dtype, lanes)."""
    if len(args) != 2 or not _plain_access(op):
        return None
    dst, src = args
    if type(src) is not pointers or not _registers(dst) or src.dtype is not dst.dtype:
        return None
    if _dist(op, dst.dtype.size) != "DIST_NORM" or (type(dst), type(src)) not in _formed(op):
        return None
    return dst.dtype, dst.lanes


def _store_form(op: Any, args: tuple[Any, ...], result: Any, pointers: Any) -> tuple[Any] | None:
    """``StoreAlign(p, src, mask)`` / ``asc_storealign(p, src, mask)``, NORM: (dtype,)."""
    if len(args) != 3 or not _plain_access(op) or not getattr(op, "masked", True):
        return None
    dst, src, mask = args
    if type(dst) is not pointers or not _registers(src) or not isinstance(mask, MaskReg):
        return None
    size = src.dtype.size
    dist = _dist(op, size)
    if dst.dtype is not src.dtype or dist not in ("DIST_NORM", f"DIST_NORM_B{8 * size}"):
        return None
    form = (type(src), type(dst)) if op.name == "Reg.StoreAlign" else (type(dst), type(src))
    if (*form, type(mask)) not in _formed(op):
        return None
    return (src.dtype,)


def mask_geometry(op: Any) -> tuple[int, int] | None:
    """Return (lanes, mask stride) of an ``UpdateMask`` op (Reg: its ``T``; C: its width)."""
    geometry: tuple[int, int] | None = getattr(op, "geometry", None)
    if geometry is None and hasattr(op, "stride"):
        return VL // op.stride, op.stride
    return geometry


def _update_mask_form(
    op: Any, args: tuple[Any, ...], result: Any, pointers: Any
) -> tuple[int, int, type] | None:
    """``UpdateMask[T](count)`` / ``asc_update_mask_b<n>(count)``: (lanes, stride, mask class)."""
    geometry = mask_geometry(op)
    if len(args) != 1 or geometry is None or type(args[0]) is not Ref:
        return None
    return (*geometry, type(result))  # MaskReg, or the C API's vector_bool


def _compare_form(
    op: Any, args: tuple[Any, ...], result: Any, pointers: Any
) -> tuple[str, int, Any] | None:
    """``Compare[T, mode](dst, a, b, mask)`` / ``asc_<mode>(dst, a, b, mask)`` on registers.

    Returns the mode, the mask stride and the predicate of two lane arrays: ``cmp.compare``,
    which on two registers of one dtype is the mode's ufunc unless the type widens.
    """
    if len(args) != 4 or getattr(op, "scalar", False):
        return None
    dst, src0, src1, mask = args
    if not (isinstance(dst, MaskReg) and isinstance(mask, MaskReg) and _registers(src0, src1)):
        return None
    if (type(dst), type(src0), type(src1), type(mask)) not in op._forms:
        return None
    mode = op.cmp_mode if op.name == "Reg.Compare" else op.mode
    widened = src0.dtype.np_dtype.type in cmp._WIDENED_TYPES
    predicate = functools.partial(cmp.compare, mode) if widened else cmp.CMP_MODES[mode]
    return mode, src0.mask_stride, predicate


def _select_form(op: Any, args: tuple[Any, ...], result: Any, pointers: Any) -> tuple[int] | None:
    """``Select(dst, a, b, mask)`` / ``asc_select(dst, a, b, mask)`` on vector registers."""
    if len(args) != 4 or not _registers(*args[:3]) or not isinstance(args[3], MaskReg):
        return None
    if tuple(map(type, args)) not in op._forms:
        return None
    return (args[0].mask_stride,)


def _shift_form(op: Any, args: tuple[Any, ...], result: Any, pointers: Any) -> tuple[bool] | None:
    """``ShiftRight(dst, src, counts, mask)`` and the left, C API twins: register counts."""
    if len(args) != 4 or op.scalar or not _registers(*args[:3]):
        return None
    if not isinstance(args[3], MaskReg):
        return None
    if op.name.startswith("Reg."):
        formed = ("shift", *map(type, args[:3])) in op._checked
    else:
        formed = tuple(map(type, args)) in op._forms
    return (op.left,) if formed else None


Form = Callable[[Any, tuple[Any, ...], Any, Any], Any]
"""``form(op, args, result, pointer class)``: what a step needs, or None (not such a form)."""
RowMaker = Callable[[Any, tuple[Any, ...], Any], Step | None]
LaneMaker = Callable[[Any, Any, tuple[Any, ...], Any], Step | None]


def _rows(form_of: Form) -> Callable[[Callable[[Any], Step]], RowMaker]:
    """Make a row-step maker from *form_of* and a builder of the step from the form."""

    def decorate(build: Callable[[Any], Step]) -> RowMaker:
        def maker(op: Any, args: tuple[Any, ...], result: Any) -> Step | None:
            form = form_of(op, args, result, RowPointer)
            return None if form is None else build(form)

        return maker

    return decorate


def _lanes_of(form_of: Form) -> Callable[[Callable[[Any, Any, Any], Step]], LaneMaker]:
    """Make a lane-step maker from *form_of* and a builder of the step (op, impl, form)."""

    def decorate(build: Callable[[Any, Any, Any], Step]) -> LaneMaker:
        def maker(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Step | None:
            form = form_of(op, args, result, UbPtr)
            return None if form is None else build(op, impl, form)

        return maker

    return decorate


# -- the row steps (a recorded plan's) -----------------------------------------------------------


def _journaled(reg: Any) -> None:
    """Journal *reg* in the running batch before a step's first write to it."""
    batch = BATCHING[-1]
    if id(reg) not in batch.registers:
        batch.wrote(reg)


@_rows(_load_form)
def _load_rows(form: tuple[Any, int]) -> Step:
    lanes = form[1]

    def load(reg: Any, pointer: Any) -> None:
        loaded = pointer.view(lanes).copy()
        _journaled(reg)
        reg._lanes = loaded

    return load


@_rows(_store_form)
def _store_rows(form: tuple[Any]) -> Step:
    def store(pointer: Any, reg: Any, predicate: Any) -> None:
        write_lanes(pointer, _lanes(reg), _enables(predicate, reg))

    return store


@_rows(_update_mask_form)
def _update_mask_rows(form: tuple[int, int, type]) -> Step:
    lanes, stride, make = form
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


@_rows(_compare_form)
def _compare_rows(form: tuple[str, int, Any]) -> Step:
    _mode, stride, predicate_of = form

    def compare(out: Any, a: Any, b: Any, mask: Any) -> None:
        right, left = _lanes(b), _lanes(a)  # cmp.compare_mask, without remembering the rows
        enables = mask_core.enabled(predicate_of(left, right), _enables(mask, a))
        _journaled(out)
        out._bits, out._lanes_of = spread_enables(enables, stride), (enables, stride)

    return compare


@_rows(_select_form)
def _select_rows(form: tuple[int]) -> Step:
    (width,) = form
    words = LANE_WORDS[width]

    def select(dst: Any, a: Any, b: Any, mask: Any) -> None:
        left, right = _lanes(a), _lanes(b)
        known, bits = mask._lanes_of, mask._bits
        # bits spread from enables at the lanes' width: as integers, 1 or 0 per lane
        spread = known is not None and known[1] == width and bits is not None
        selector = bits.view(words) if spread else None
        if selector is not None and selector.shape == left.shape == right.shape:
            selected = cmp.select_words(selector, left, right)
        else:
            selected = cmp.select(_enables(mask, dst), left, right)
        _journaled(dst)
        dst._lanes = selected

    return select


@_rows(_shift_form)
def _shift_rows(form: tuple[bool]) -> Step:
    (left,) = form

    def shift(dst: Any, src: Any, counts: Any, mask: Any) -> None:
        amounts = _lanes(counts)
        shifted = zeroing_shift(_lanes(src), amounts, _enables(mask, dst), left=left)
        _journaled(dst)
        dst._lanes = shifted

    return shift


# -- the lane steps (eager calls) ------------------------------------------------------------------
#
# An eager call of a form the op validated runs the op's fast path, which the lane step is,
# without the front end's layers. Anything the form does not fix (the pointer's element type
# and alignment, an unwritten operand, the count's range) the step checks each call: then it
# makes the call through the implementation, which decides (and names the call in an error).


def _unset(mask: MaskReg) -> bool:
    """Return True for a mask nothing has written (the op's implementation raises for it)."""
    return mask._bits is None and mask._lanes_of is None


def _eager_enables(mask: MaskReg, reg: RegTensor[Any, Any]) -> Lanes:
    """``operands.lane_enables`` outside a batch: the enables a mask holds, or its bits'."""
    known = mask._lanes_of
    if known is not None and known[1] == reg.mask_stride:
        return known[0]
    return mask_core.enables_of(mask.bits(), reg.lanes, reg.mask_stride)


@_lanes_of(_load_form)
def _load_lanes(op: Any, impl: Any, form: tuple[Any, int]) -> Step:
    dtype, lanes = form

    def load(reg: Any, pointer: Any) -> None:
        if pointer.dtype is not dtype or pointer.address % _NORM_ALIGN:
            impl(op, reg, pointer)
            return
        try:
            reg._lanes = pointer.view(lanes).copy()
        except OutOfBoundsError:  # past the allocation: the op's undefined lanes, or its error
            impl(op, reg, pointer)

    return load


@_lanes_of(_store_form)
def _store_lanes(op: Any, impl: Any, form: tuple[Any]) -> Step:
    (dtype,) = form
    align = _NORM_STORE.align

    def store(pointer: Any, reg: Any, mask: Any) -> None:
        values = reg._lanes
        if values is None or _unset(mask) or pointer.dtype is not dtype or pointer.address % align:
            impl(op, pointer, reg, mask)
            return
        try:
            write_lanes(pointer, values, _eager_enables(mask, reg))
        except OutOfBoundsError:  # the op's own error (StoreAlign names the DIST_PACK store)
            impl(op, pointer, reg, mask)

    return store


@_lanes_of(_update_mask_form)
def _update_mask_lanes(op: Any, impl: Any, form: tuple[int, int, type]) -> Step:
    lanes, stride, make = form

    def update_mask(count: Any) -> Any:
        value = count.value
        if type(value) is not int or not 0 <= value < 1 << 32:
            return impl(op, count)
        bits, enables, count.value = mask_core.update_mask_enables(value, lanes, stride)
        mask = make()
        mask._bits, mask._lanes_of = bits, (enables, stride)  # MaskReg.set_bits, inline
        return mask

    return update_mask


@_lanes_of(_compare_form)
def _compare_lanes(op: Any, impl: Any, form: tuple[str, int, Any]) -> Step:
    _mode, stride, predicate_of = form

    def compare(out: Any, a: Any, b: Any, mask: Any) -> None:
        left, right = a._lanes, b._lanes
        if left is None or right is None or _unset(mask):  # the op says why
            impl(op, out, a, b, mask)
            return
        # cmp.compare_enables; the bits are spread when something reads them (set_enables)
        enables = mask_core.enabled(predicate_of(left, right), _eager_enables(mask, a))
        out._bits, out._lanes_of = None, (enables, stride)

    return compare


@_lanes_of(_select_form)
def _select_lanes(op: Any, impl: Any, form: tuple[int]) -> Step:
    def select(dst: Any, a: Any, b: Any, mask: Any) -> None:
        left, right = a._lanes, b._lanes
        if left is None or right is None or _unset(mask):  # the op says why
            impl(op, dst, a, b, mask)
            return
        dst._lanes = cmp.select(_eager_enables(mask, dst), left, right)

    return select


@_lanes_of(_shift_form)
def _shift_lanes(op: Any, impl: Any, form: tuple[bool]) -> Step:
    (left,) = form

    def shift(dst: Any, src: Any, counts: Any, mask: Any) -> None:
        values, amounts = src._lanes, counts._lanes
        if values is None or amounts is None or _unset(mask):  # the op says why
            impl(op, dst, src, counts, mask)
            return
        shifted, negative = masked_shift(values, amounts, _eager_enables(mask, dst), left=left)
        if negative is not None:  # a negative count: the op's rule (an error, or a warning)
            impl(op, dst, src, counts, mask)
            return
        dst._lanes = shifted

    return shift


_KINDS: dict[str, tuple[Any, Any]] = {
    "load": (_load_rows, _load_lanes),
    "store": (_store_rows, _store_lanes),
    "update_mask": (_update_mask_rows, _update_mask_lanes),
    "compare": (_compare_rows, _compare_lanes),
    "select": (_select_rows, _select_lanes),
    "shift": (_shift_rows, _shift_lanes),
}
_OPS = {
    "Reg.LoadAlign": "load",
    "asc_loadalign": "load",
    "Reg.StoreAlign": "store",
    "asc_storealign": "store",
    "Reg.UpdateMask": "update_mask",
    **{f"asc_update_mask_b{bits}": "update_mask" for bits in (8, 16, 32)},
    "Reg.Compare": "compare",
    **{f"asc_{mode}": "compare" for mode in _COMPARES},
    "Reg.Select": "select",
    "asc_select": "select",
    "Reg.ShiftRight": "shift",
    "Reg.ShiftLeft": "shift",
    "asc_shiftright": "shift",
    "asc_shiftleft": "shift",
}
MAKERS: dict[str, RowMaker] = {name: _KINDS[kind][0] for name, kind in _OPS.items()}
"""The row-step maker of each op that has short steps (see the module docstring)."""
EAGER: dict[str, LaneMaker] = {name: _KINDS[kind][1] for name, kind in _OPS.items()}
"""The lane-step maker of each op that has short steps: ``maker(op, impl, args, result)``."""


def first_call(op: Any, impl: Any, cache: dict[Any, Step], args: tuple[Any, ...]) -> Any:
    """Make an eager call of a form *cache* has no step for, then keep the form's step.

    The step is the lane step of :data:`EAGER` for a form the call validated, else the call
    through *impl* itself. The next eager call of the op with operands of the same classes
    makes it (the op's forwarder looks it up).
    """
    result = impl(op, *args)
    key = tuple(map(type, args))
    if key not in cache:
        if len(cache) >= 32:
            cache.clear()
        maker = EAGER.get(op.name)
        step = None if maker is None else maker(op, impl, args, result)
        cache[key] = functools.partial(impl, op) if step is None else step
    return result

"""Op calls inside a batched VF loop: each op's own rule says how it runs on the batch.

While a loop runs batched (:mod:`ascreg.engine.batch`), every op call comes here. The op's
``BatchRule`` (``ascreg._frontend.rules``) (``op.batching``: declared where the op is defined,
or derived from a lane-wise row) admits the call: it returns the arguments to run the op's
implementation with -- an address made one per iteration, a count made per iteration -- or
None when this form does not batch; then, or for an op without a rule (a kernel-level op,
or one whose calls carry state from one to the next), the batch is undone and the loop runs
eagerly. Nothing here names an op.

A recorded plan (:mod:`ascreg.engine.plans`) replays each call with the step :func:`step_for`
derives from the op's rule: the implementation on the admitted arguments when the admission
depends on the operands alone, else the admission and the implementation.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t, __simd_vf__
>>> @__simd_vf__
... def twice(dst, src):
...     r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
...     for i in range(4):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.Add(r, r, r, full)             # lane-wise: its row's rule
...         Reg.StoreAlign(dst + i * 128, r, full)
>>> ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
>>> a.write(np.arange(512)); twice(b, a); int(b.read(512)[-1])
1022
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend.rules import ROWS
from ascreg.engine import chains, nested
from ascreg.engine.batch import ALL_BLOCKS, Carried, current, fallback
from ascreg.errors import PURE_MARKER
from ascreg.machine.hook import ACTIVE
from ascreg.machine.ref import Ref
from ascreg.machine.registers import BLOCK_ROWS, MaskReg, RegTensor, storage


def batched(op: Any, impl: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None) -> Any:
    """Call *op* (through its implementation *impl*) on *args* inside the running batch.

    The arguments are :func:`admit`-ted first. When the batch records a plan
    (:mod:`ascreg.engine.plans`), the call is recorded, unless another recorded call makes it.
    """
    batch = current()
    recorder = batch.recorder
    if recorder is None or recorder.inside:
        admitted = admit(op, args, kwargs, batch)
        return _run(op, impl, admitted, kwargs, batch)[0]
    recorder.inside = True
    try:
        journaled = len(batch.refs)
        admitted = admit(op, args, kwargs, batch)
        result, scanned = _run(op, impl, admitted, kwargs, batch)
    finally:
        recorder.inside = False
    if scanned:
        recorder.call(_scanning, op, impl, admitted, kwargs, result)
    elif len(batch.refs) == journaled:  # the admission changed no Ref: it depends on operands
        recorder.call(_admitted, op, impl, admitted, kwargs, result)
    else:
        recorder.call(step_for, op, impl, args, kwargs, result)
    return result


def assign_value(ref: Any, value: Any) -> None:
    """``ref.value = value``: the loop rewrite's spelling of that statement in a batched body.

    Outside a batch (or for anything but a ``Ref``) the plain assignment. Inside one, the
    batch journals the ``Ref`` and it holds one value per iteration (:meth:`Batch.assign`);
    a recording batch records the assignment as a step of its plan.

    Examples
    --------
    >>> from ascreg import Ref
    >>> r = Ref(1); assign_value(r, 5); r.value
    5
    """
    batch = current() if ACTIVE and type(ref) is Ref else None
    if batch is None:
        ref.value = value
        return
    batch.assign(ref, value)
    recorder = batch.recorder
    if recorder is not None and not recorder.inside:
        recorder.call(_assigning, _ASSIGNMENT, None, (ref, value), None, None)


def pure_method(obj: Any, name: str) -> Any:
    """Return ``obj.<name>`` for a batched body's call, if it is a method marked pure.

    A body may call a method of a pure method's name (``tensor.GetPhyAddr()``) on an object
    whose class the loop's code does not say; the batched run calls it once for every
    iteration, which only a pure method allows, so anything else sends the loop back to eager
    order (where it is called as written).

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t, uint32_t
    >>> pure_method(UnifiedBuffer().alloc(uint32_t, 8), "cast")(uint8_t).dtype.cpp_name
    'uint8_t'
    """
    method = getattr(obj, name)
    if getattr(method, PURE_MARKER, False) is not True:
        raise fallback(f"{type(obj).__name__}.{name} is not an ascreg operation", scope="body")
    return method


def _assigning(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step of a recorded ``ref.value = value``: :func:`assign_value`."""
    return assign_value


class _Assignment:
    name = "a Ref's .value assignment"


_ASSIGNMENT = _Assignment()
"""What a recorded assignment names as its op (the recorder's messages)."""


def _run(
    op: Any, impl: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None, batch: Any
) -> tuple[Any, bool]:
    """Run the admitted call; scan it over the iterations if it carries a register.

    Returns its result and whether it was scanned.
    """
    batch.serial += 1
    batch.touched.clear()
    try:
        return (impl(op, *args, **kwargs) if kwargs else impl(op, *args)), False
    except Carried:
        if kwargs or op.batching is not ROWS:
            raise
    return scan(op, impl, args, batch), True


def scan(op: Any, impl: Any, args: tuple[Any, ...], batch: Any) -> Any:
    """Run a call that carries a register from one iteration to the next, iteration by iteration.

    The op reads a register whose value the previous iteration's call left (an accumulator:
    ``Max(m, m, x)``, ``Add(acc, acc, x)``) and no other op of the body writes it: the rest of
    the body has run batched, so each iteration's other operands are ready as rows. The call
    is made once per iteration, in order, on that iteration's rows (the op's own eager code:
    the same float rounding in the same order); each register it writes then holds one row per
    iteration. Registers own their lanes: only their ``held``/``restore`` methods are used.

    In a flattened inner loop (:mod:`ascreg.engine.nested`) the chain runs over the inner
    iterations, all outer iterations at once (:func:`ascreg.engine.nested.scan`).
    """
    if batch.phase is not None:
        return nested.scan(op, impl, args, batch)
    for reg, old in reversed(batch.touched):  # undo what the batched call wrote before it saw
        reg.restore(old)
    # the registers that hold the bytes: a view (RegTensor[U](x)) reads and writes its storage's
    operands = (storage(a) for a in args if isinstance(a, RegTensor | MaskReg))
    registers = list({id(a): a for a in operands}.values())
    held = [reg.held() for reg in registers]
    for reg, value in zip(registers, held, strict=True):
        reg.restore(value)  # as it is (a mask's bits made once): unchanged unless written
    blocks = ALL_BLOCKS[0]  # a block group's VF: rows of lanes per block (blocks first)
    if _chained(op, args, batch, blocks):
        return None
    rows = [
        (reg, value)
        for reg, value in zip(registers, held, strict=True)
        if value is not None and value.ndim > 1
    ]
    written: dict[int, list[Any]] = {}
    ACTIVE.pop()  # each call is an eager one, on one iteration's lanes
    BLOCK_ROWS[0] = blocks
    try:
        result = None
        for k in range(batch.count):
            for reg, value in rows:
                reg.restore(_iteration(value, k))
            before = [reg.held() for reg in registers]
            result = impl(op, *args)
            for reg, was in zip(registers, before, strict=True):
                now = reg.held()
                if now is not was:
                    written.setdefault(id(reg), []).append(now)
    finally:
        BLOCK_ROWS[0] = False
        ACTIVE.append(batch)
    for reg, first in zip(registers, held, strict=True):
        found = written.get(id(reg))
        if found is not None and len(found) == batch.count:
            batch.carried(reg, first, np.stack(found, axis=-2))
        elif found is not None:
            raise fallback(f"{op.name} writes {type(reg).__name__} in some iterations only")
        else:
            reg.restore(first)
    return result


def _chained(op: Any, args: tuple[Any, ...], batch: Any, blocks: bool) -> bool:
    """Run an accumulator step's chain over the iterations at once (:mod:`.chains`); False if not.

    The accumulator holds its value from before the loop (one row; in a group one for all
    blocks or one per block), the other operand one row per iteration.
    """
    pair = chains.accumulator(op, args)
    if pair is None:
        return False
    acc, x = pair
    start, steps, count = acc.held(), x.held(), batch.count
    if blocks:  # (one value for every block, or one row per block)
        ready = steps.ndim == 3 and (start.ndim == 1 or (start.ndim == 3 and start.shape[1] == 1))
        lanes = start.shape[-1]
        initial = np.broadcast_to(start, (steps.shape[0], 1, lanes)) if ready else start
    else:
        ready = start.ndim == 1 and steps.ndim == 2
        initial = start[None, :]
    if not ready or steps.shape[-2] != count or steps.shape[:-2] != initial.shape[:-2]:
        return False
    partials = chains.chain(op, initial, steps)
    if partials is None:
        return False
    batch.carried(acc, start, partials)
    return True


def _iteration(value: Any, k: int) -> Any:
    """Return iteration *k*'s row of *value*.

    A block group's value (blocks first) gives every block's row, or, for a value made
    before the loop (one row per block), that row.
    """
    if value.ndim == 3:
        return value[:, k if value.shape[1] > 1 else 0]
    return value[k]


def _scanning(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step of a call recorded as a scan (:func:`scan`): the scan again."""
    return functools.partial(_scan_step, op, impl)


def _scan_step(op: Any, impl: Any, *args: Any) -> Any:
    batch = current()
    batch.serial += 1
    batch.touched.clear()
    return scan(op, impl, args, batch)


def step_for(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step a plan replays for the recorded call ``op(*args)``.

    The call's admission by the op's rule, then the implementation, as :func:`batched` runs
    it. (*args* and *result* describe the recorded call; the step keeps neither.)

    A call whose admission changed no ``Ref`` (it made an address one per iteration, or took
    the arguments as they are, as ``ascreg._frontend.rules.ROWS`` does) depends on its
    operands alone: the plan records the admitted arguments and replays the implementation
    on them (:func:`_admitted`).
    """
    return functools.partial(_call, op, impl)


def _admitted(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step of a call recorded with its admitted arguments: the implementation."""
    return functools.partial(impl, op)


def _call(op: Any, impl: Any, *args: Any) -> Any:
    return impl(op, *admit(op, args, None, current()))


def admit(
    op: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None, batch: Any = None
) -> tuple[Any, ...]:
    """Return the arguments to call *op* with inside a batch, or raise ``Fallback``."""
    if batch is None:
        batch = current()
    rule = op.batching
    if rule is None:
        # no rule: a kernel-level op (flags, barriers, copies, system registers) or one whose
        # calls carry state from one to the next (AR, an unaligned register); run once for all
        # iterations it would change that state once instead of once per iteration
        what = "a kernel-level op" if op.kernel else "an op with no batching rule"
        raise fallback(f"{op.name} is {what}", scope="body")
    admitted: tuple[Any, ...] | None = None if kwargs else rule.admit(op, args, batch)
    if admitted is None:
        raise fallback(f"{op.name} does not run on a batch in this form")
    return admitted

"""Recorded plans: a batched VF loop run again with the same inputs replays its op calls.

A batched loop (:mod:`ascreg.engine.batch`) runs its body once, in Python, with one row per
iteration. Its body is straight-line code whose only calls are ops, register and ``Ref``
constructors and ``int``/``min``/``max``/``abs`` (:mod:`ascreg.engine.loops`), so every
value it computes other than through an op -- loop-index arithmetic, pointers plus offsets,
template subscripts -- is a pure function of the loop's range and of its *inputs*, the names
it reads from outside (the enclosing function's registers, pointers and counts, the module's
``Reg``, ``uint16_t``, constants). Two runs of the body with equal inputs therefore make the
same op calls on operands that are the same registers (or new ones of the same types), the
same pointers and the same constants; only the data differ.

A *plan* is the list of op calls one successful batched run made, each operand written as
"input k", "the register call j returned" or a constant, with a *guard* on the inputs: the
same range; the same modules, classes, functions and enum members (by identity); equal
integers, floats (bit for bit), strings and pointers (memory, address, element type and
allocation); ``Ref`` boxes holding equal values; registers and masks of the same classes, no
two of them the same object. A later run of the loop whose inputs pass the guard replays the
calls (each admitted and run exactly as the body would call it) without running the body,
inside an ordinary :class:`~ascreg.engine.batch.Batch`, so what the batch checks at the end
(memory shared between iterations, the kernel's checks) and undoes on failure is unchanged.
If anything goes wrong -- an op refuses the batch, an error, a check -- the replay is undone
and the loop runs as without a plan (batched, or eagerly with the eager error).

A plan is recorded only when every call in the body is an op's own entry point
(:data:`~ascreg.errors.FORWARDER_MARKER`) and every operand is an input, an earlier call's
result or an immutable value (a number, an enum member, a pointer, a per-iteration index or
pointer); each loop keeps its :data:`PLANS_PER_LOOP` most recent plans. Each call replays
through the step its op's batching rule gives (:func:`ascreg.engine.batching.step_for`).

Set ``ASCREG_PLANS=0`` in the environment to turn plans off.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t
>>> from ascreg.machine.kernel import __simd_vf__
>>> @__simd_vf__
... def double(dst, src, n):
...     r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
...     for i in range(n // 128):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.Add(r, r, r, full)
...         Reg.StoreAlign(dst + i * 128, r, full)
>>> ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
>>> for k in range(3):  # the first call records a plan, the next two replay it
...     a.write(np.arange(512) + k); double(b, a, 512)
>>> b.read(3).tolist()
[4, 6, 8]
"""

from __future__ import annotations

import builtins
import enum
import operator
import os
import struct
import types
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import numpy as np

from ascreg.engine import batch as batching
from ascreg.engine import nested
from ascreg.engine.batch import LOG, Batch, RowInts
from ascreg.engine.sites import PLANS_PER_LOOP, Site
from ascreg.errors import CALL_MARKER
from ascreg.machine.block import _STACK
from ascreg.machine.memory import Allocation, Memory, Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    MaskReg,
    RegTensor,
    UnalignRegForLoad,
    UnalignRegForStore,
    plain_class,
    storage,
)
from ascreg.machine.sync import Pipe
from ascreg.machine.template import TemplateFunction
from ascreg.machine.trace import GENERATION, RECORDING

ENABLED = os.environ.get("ASCREG_PLANS", "1") != "0"
"""False when ``ASCREG_PLANS=0`` (loops then run batched every time, recording no plans)."""

Step = Callable[..., Any]
"""One recorded call, as a function of the call's operands that makes the call (admitted, checked,
run) and returns what the op returns."""
StepMaker = Callable[[Any, Any, tuple[Any, ...], Any], Step]
"""``maker(op, impl, args, result) -> step``: the step of a recorded call (:func:`ascreg.engine.batching.step_for`)."""

Call = tuple[StepMaker, Any, Any, tuple[Any, ...], Any, list[tuple[bool, Any]], int | None]
"""A recorded call, as the step maker, op, implementation, arguments, result, operands (as
``(True, slot)`` or ``(False, constant)``) and the slot of the result (or None)."""

_UNALIGNED = (UnalignRegForLoad, UnalignRegForStore)
_STATE = (RegTensor, MaskReg, Ref, *_UNALIGNED)
"""The mutable operands (a plan refers to them by their place among the inputs and results;
an unaligned register's state is the op's to check when it runs)."""
_IMMUTABLE = (int, float, str, bytes, type, enum.Enum, np.generic, Pointer, RowInts)
"""Operands a plan keeps as constants (equal inputs give equal ones, see the module docstring)."""
_BY_IDENTITY = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    enum.Enum,
    TemplateFunction,
    TypeVar,
)
"""Inputs the guard compares by identity (besides ops, None and the booleans): a function
template (``LoadRegForDtype[T](...)`` in the body) binds the same function to the same
arguments every time; a template parameter is a name its module holds."""


# -- recording ------------------------------------------------------------------------------------


class Recorder:
    """The op calls of one batched run, written against the run's inputs (see the module).

    Parameters
    ----------
    inputs
        The values of the names the body reads from outside, in the order of the loop's
        ``inputs`` (:mod:`ascreg.engine.loops`).
    """

    __slots__ = ("calls", "failed", "inputs", "inside", "kept", "slots", "values")

    def __init__(self, inputs: tuple[Any, ...]) -> None:
        self.inputs = inputs
        self.values = [v.value if type(v) is Ref else None for v in inputs]
        """The value of each input ``Ref`` before the loop (what the guard compares)."""
        self.slots = {id(v): k for k, v in enumerate(inputs) if isinstance(v, _STATE)}
        self.kept: list[Any] = []
        """The registers calls returned (held, so that their ids stay theirs)."""
        self.calls: list[Call] = []
        self.failed: str | None = None
        self.inside = False
        """True while a recorded call runs (the op calls it makes in turn are not recorded)."""

    def call(
        self, maker: StepMaker, op: Any, impl: Any, args: tuple[Any, ...], kwargs: Any, result: Any
    ) -> None:
        """Record the call ``op(*args)`` (run through *impl*) that returned *result*."""
        if self.failed is not None:
            return
        if kwargs:
            self.failed = f"{op.name} is called with keyword arguments"
            return
        operands = [self._operand(a) for a in args]
        if self.failed is not None:
            return
        slot: int | None = None
        if isinstance(result, _STATE):
            slot = self.slots.get(id(result))
            if slot is None:
                slot = self.slots[id(result)] = len(self.inputs) + len(self.kept)
                self.kept.append(result)
        elif result is not None:
            self.failed = f"{op.name} returns a {type(result).__name__}"
            return
        self.calls.append((maker, op, impl, args, result, operands, slot))

    def _operand(self, value: Any) -> tuple[bool, Any]:
        """Return ``(True, slot)`` for an input or result, ``(False, value)`` for a constant.

        A register cast made in the body of an input or result (``RegTensor[U](x)``) is
        ``(True, (slot, RegTensor[U]))``: the program makes the view anew.
        """
        slot = self.slots.get(id(value))
        if slot is not None:
            return True, slot
        held = storage(value)
        if held is not value and id(held) in self.slots:
            return True, (self.slots[id(held)], plain_class(value))
        if type(value) is Ref:
            made = self._made(value)
            if made is not None:
                return True, made
        elif held is value and isinstance(value, RegTensor | MaskReg):
            made = self._made_register(value)
            if made is not None:
                return True, made
        if value is not None and not isinstance(value, _IMMUTABLE):
            self.failed = f"an operand of type {type(value).__name__} that is not an input"
        return False, value

    def _made(self, ref: Ref[Any]) -> int | None:
        """Give a ``Ref`` made in the loop body a slot, made anew by the program; None if not.

        The body cannot read or assign a ``Ref``'s ``.value``: only the ops that update it
        (each journals its value before the first update, :meth:`Batch._claim`) see it, so
        what it holds when the first of them takes it is what the body made it with, the same
        (a constant) for equal inputs. The program makes ``Ref(that value)`` before that call.
        """
        batch = batching.current()
        journaled = batch.refs.get(id(ref))
        if journaled is None or ref.born not in batch.epochs:
            return None
        initial = journaled[1]
        if not isinstance(initial, _IMMUTABLE):
            return None
        slot = self.slots[id(ref)] = len(self.inputs) + len(self.kept)
        self.kept.append(ref)
        # made before the running phase of a flattened inner loop that takes it first
        maker = _making if ref.born == batch.epoch else _making_before
        self.calls.append((maker, None, None, (initial,), ref, [(False, initial)], slot))
        return slot

    def _made_register(self, register: RegTensor[Any, Any] | MaskReg) -> int | None:
        """Give a register or mask made in the loop body a slot, made anew by the program.

        The recorder sees each op call after it ran, so the first call a register made in the
        body (in the batch's running epoch, never a carried one) appears in is the first that
        touched it: it was unwritten before that call, as the one the program makes just
        before the step is. None for one made elsewhere (before the loop, or before the
        running phase of a flattened inner loop).
        """
        if register.born != batching.current().epoch:
            return None
        slot = self.slots[id(register)] = len(self.inputs) + len(self.kept)
        self.kept.append(register)
        kind = type(register)
        self.calls.append((lambda op, impl, a, r: kind, None, None, (), register, [], slot))
        return slot

    def phase(self, step: Callable[..., None], *args: Any) -> None:
        """Record the start or end of a flattened inner loop's phase (``step(*args)``)."""
        if self.failed is None:
            made: StepMaker = lambda op, impl, a, result: step  # noqa: E731
            operands = [(False, a) for a in args]
            self.calls.append((made, None, None, args, None, operands, None))

    def output(self, value: Any) -> tuple[bool, Any] | None:
        """Return how a plan gives a name the body assigns its final value (None: it cannot)."""
        slot = self.slots.get(id(value))
        if slot is not None:
            return True, slot
        if value is not None and not isinstance(value, _IMMUTABLE):
            return None
        return False, value

    def plan(self, batch: Batch, values: tuple[Any, ...]) -> Plan | None:
        """Return the plan of the run about to commit, or None when it cannot be replayed.

        *values* are the final values of the names the body assigns, before :meth:`Batch.last`.
        """
        if self.failed is not None:
            LOG.debug("%s: no plan recorded (%s)", batch.where, self.failed)
            return None
        outputs = [self.output(v) for v in values]
        guard = _guard(self.inputs, self.values, batch.iterations)
        if guard is None or any(o is None for o in outputs):
            LOG.debug("%s: no plan recorded (an input or a result it cannot compare)", batch.where)
            return None
        steps = [
            (maker(op, impl, args, result), operands, slot)
            for maker, op, impl, args, result, operands, slot in self.calls
        ]
        finals = [(is_slot, v if is_slot else batch.last(v)) for is_slot, v in outputs]  # type: ignore[misc]
        registers = [k for k, v in enumerate(self.inputs) if isinstance(v, RegTensor | MaskReg)]
        program = _program(steps)
        return Plan(
            guard, program, len(self.kept), finals, registers, self.inputs, self.values,
            batch.iterations,
        )  # fmt: skip


def _making(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step that makes a ``Ref`` of the loop body anew (:meth:`Recorder._made`)."""
    return Ref


def _making_before(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step that makes a ``Ref`` the body made before the running phase began."""
    return _made_before


def _made_before(value: Any) -> Ref[Any]:
    made = Ref(value)
    made.born = batching.current().base_epoch
    return made


# -- the guard ------------------------------------------------------------------------------------


def _guard(
    inputs: tuple[Any, ...], ref_values: list[Any], iterations: range
) -> Callable[[range, tuple[Any, ...]], bool] | None:
    """Return the guard of a plan recorded with *inputs* (see the module), or None."""
    names: dict[str, Any] = {"Ref": Ref, "_bits": _float_bits, "rng": iterations}
    checks = ["r == rng"]
    state: list[str] = []
    first: dict[int, str] = {}  # the first input that is each register, mask or Ref
    for k, value in enumerate(inputs):
        item = f"i[{k}]"
        if isinstance(value, _STATE) and id(value) in first:  # one object under two names
            checks.append(f"{item} is {first[id(value)]}")  # (``mask = maskFull``), as recorded
            continue
        if isinstance(value, _STATE):
            first[id(value)] = item
        if isinstance(value, (RegTensor, MaskReg, *_UNALIGNED)):
            names[f"t{k}"] = type(value)
            checks.append(f"type({item}) is t{k}")
            state.append(item)
        elif type(value) is Ref:
            held = _equal(f"{item}.value", ref_values[k], f"v{k}", names)
            if held is None:
                return None
            checks += [f"type({item}) is Ref", held]
            state.append(item)
        else:
            check = _equal(item, value, f"c{k}", names)
            if check is None:
                return None
            checks.append(check)
    if len(state) > 1:  # no other two registers (or views), masks or Refs share storage
        names["_own"] = storage
        checks.append(f"len({{{', '.join(f'id(_own({s}))' for s in state)}}}) == {len(state)}")
    source = (
        "def guard(r, i):\n    return (\n        " + "\n        and ".join(checks) + "\n    )\n"
    )
    guard: Callable[[range, tuple[Any, ...]], bool] = _function(source, "guard", names)
    return guard


def _equal(item: str, value: Any, name: str, names: dict[str, Any]) -> str | None:
    """Return the test that *item* equals the recorded *value* (as a plan needs), or None."""
    names[name] = value
    kind = type(value)
    if value is None or kind is bool or isinstance(value, _BY_IDENTITY):
        return f"{item} is {name}"
    if isinstance(getattr(value, CALL_MARKER, None), str):  # an op (a template or C function)
        return f"{item} is {name}"
    if _frozen(value):  # a mode struct (``CastTrait``): the same object holds the same values
        return f"{item} is {name}"
    if kind is int or kind is str:
        names[f"{name}_t"] = kind
        return f"(type({item}) is {name}_t and {item} == {name})"
    if kind is float:
        names[f"{name}_b"] = _float_bits(value)
        return f"(type({item}) is float and _bits({item}) == {name}_b)"
    if isinstance(value, np.generic):  # a numpy scalar (np.float32(1.0)): its type and bytes
        names[f"{name}_t"], names[f"{name}_b"] = kind, value.tobytes()
        return f"(type({item}) is {name}_t and {item}.tobytes() == {name}_b)"
    if isinstance(value, Pointer) and not isinstance(value, batching.RowPointer):
        for part in ("memory", "dtype", "block"):
            names[f"{name}_{part}"] = getattr(value, part)
        names[f"{name}_t"], names[f"{name}_address"] = kind, value.address
        return (
            f"(type({item}) is {name}_t and {item}.memory is {name}_memory and "
            f"{item}.address == {name}_address and {item}.dtype is {name}_dtype and "
            f"{item}.block is {name}_block)"
        )
    return None


_FROZEN_SETATTR: Any = attrs.frozen(type("_Frozen", (), {})).__setattr__
"""What every frozen ``attrs`` class has for ``__setattr__`` (it raises)."""


def _frozen(value: Any, depth: int = 0) -> bool:
    """Return True for a frozen ``attrs`` instance whose fields hold immutable values only.

    Such a value never changes: the guard compares it by identity.
    """
    kind: Any = type(value)
    if depth > 4 or not attrs.has(kind) or kind.__setattr__ is not _FROZEN_SETATTR:
        return False
    for field in attrs.fields(kind):
        held = getattr(value, field.name)
        plain = held is None or type(held) in (bool, int, float, str, bytes)
        if not (plain or isinstance(held, enum.Enum | np.generic) or _frozen(held, depth + 1)):
            return False
    return True


_CODE: dict[str, types.CodeType] = {}
"""The compiled guards and programs, by source. Their constants are names of the namespace
each plan binds, so loops of the same shape (another tile's pointers) compile once."""


def _function(source: str, name: str, names: dict[str, Any]) -> Any:
    """Return the function *name* that *source* defines, with *names* as its globals."""
    code = _CODE.get(source)
    if code is None:
        if len(_CODE) >= 256:
            _CODE.clear()
        module = compile(source, f"<ascreg plan {name}>", "exec")
        code = _CODE[source] = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    return types.FunctionType(code, names, name)


def _float_bits(value: float) -> bytes:
    """Return the 8 bytes of *value* (so that -0.0 and 0.0, and NaN payloads, differ)."""
    return struct.pack("<d", value)


# -- the program ----------------------------------------------------------------------------------


def _program(
    steps: list[tuple[Step, list[tuple[bool, Any]], int | None]],
) -> Callable[[list[Any]], None]:
    """Return ``run(env)``: the recorded calls, one line each, on the slots of *env*."""
    names: dict[str, Any] = {}
    lines = ["def run(e):"]
    for j, (step, operands, slot) in enumerate(steps):
        names[f"s{j}"] = step
        args = []
        for m, (is_slot, value) in enumerate(operands):
            if is_slot and type(value) is tuple:  # a register cast of a slot
                names[f"v{j}_{m}"] = value[1]
                args.append(f"v{j}_{m}(e[{value[0]}])")
            elif is_slot:
                args.append(f"e[{value}]")
            else:
                names[f"c{j}_{m}"] = value
                args.append(f"c{j}_{m}")
        call = f"s{j}({', '.join(args)})"
        lines.append(f"    e[{slot}] = {call}" if slot is not None else f"    {call}")
    if not steps:
        lines.append("    pass")
    run: Callable[[list[Any]], None] = _function("\n".join(lines) + "\n", "run", names)
    return run


class Plan:
    """A recorded loop: its guard, its program, its extra slots and its final values."""

    def rebound(self, run: Callable[[list[Any]], None]) -> Plan:
        """Return this plan with the program *run* (the same calls on other constants)."""
        plan = object.__new__(Plan)
        for name in Plan.__slots__:
            setattr(plan, name, getattr(self, name))
        plan.run = run
        return plan

    __slots__ = (
        "extra", "finals", "guard", "inputs", "iterations", "made", "register", "registers", "run",
        "slots", "values",
    )  # fmt: skip

    def __init__(
        self,
        guard: Callable[[range, tuple[Any, ...]], bool],
        run: Callable[[list[Any]], None],
        extra: int,
        finals: list[tuple[bool, Any]],
        registers: list[int],
        inputs: tuple[Any, ...] = (),
        values: list[Any] | None = None,
        iterations: range | None = None,
    ) -> None:
        self.guard = guard
        self.run = run
        self.extra = [None] * extra
        """The slots after the inputs (the results of calls), empty until the program runs."""
        self.finals = finals
        self.slots = registers
        self.registers = operator.itemgetter(*registers) if len(registers) > 1 else None
        """The input registers and masks (journaled at once, :meth:`Batch.journal`)."""
        self.register = registers[0] if len(registers) == 1 else None
        self.inputs = inputs
        """The inputs it was recorded (or translated) for, their ``Ref`` values, its range."""
        self.values = values or []
        self.iterations = iterations
        self.made = GENERATION[0] if RECORDING else -1
        """The profiler's generation when a profile saw it recorded, else -1
        (:data:`ascreg.machine.trace.GENERATION`)."""

    def translated(self, inputs: tuple[Any, ...], iterations: range) -> Plan | None:
        """Return this plan for *inputs* that differ from its own only in their memories.

        A run on new memory (a kernel launch's next block: its own UB) with pointers at the
        same addresses, in allocations of the same bounds, and otherwise equal inputs
        (registers of the same classes, ``Ref`` boxes holding equal values) makes the same
        calls on pointers that differ only in the memory and allocation they belong to
        (:func:`_places`): this plan, with each pointer moved, is the plan it would record.
        None when the inputs differ in anything else.
        """
        if iterations != self.iterations:
            return None
        places = _input_places(self.inputs, self.values, inputs)
        if places is None:
            return None
        values = [v.value if type(v) is Ref else None for v in inputs]
        # the same guard and program, their memories, allocations and pointers moved
        parts: dict[int, Any] = {}
        for (memory, block), (new_memory, new_block) in places.items():  # (ids of the old)
            parts[memory], parts[block] = new_memory, new_block
        try:
            done: dict[int, Any] = {}
            guard = _rebound(self.guard, places, parts, done)
            run = _rebound(self.run, places, parts, done)
            finals = [(s, v if s else _moved(v, places, done)) for s, v in self.finals]
        except KeyError:  # a pointer into a memory none of the inputs points into
            return None
        plan = Plan(guard, run, len(self.extra), finals, self.slots, inputs, values, iterations)
        plan.made = self.made  # the same ops as the plan it moves: a profile saw them or not
        return plan


# -- running a loop -------------------------------------------------------------------------------


def start(site: Site, iterations: Any, inputs: tuple[Any, ...] | None) -> Any:
    """Replay a plan of *site*, or start a batched attempt at it, or say it runs eagerly.

    Returns the loop variable's and the assigned names' final values (a tuple) when a plan
    replayed the loop, a :class:`~ascreg.engine.batch.Batch` (recording a plan when it can)
    to run the body in, or None to run it eagerly.
    """
    if inputs is not None and site.extras:
        extra = site.extra_inputs()
        inputs = None if extra is None else inputs + extra
    if batching._ACTIVE:  # a loop inside a batched one: flattened into it, if it can be
        inner = nested.flatten(site, iterations, inputs)
        if inner is not None:
            return inner
    if inputs is not None and site.receivers:
        inputs = site.received(inputs)
    if inputs is not None and site.plans:
        done = _replay(site, iterations, inputs)
        if done is not None:
            return done
    refused = site.refused_for(iterations, inputs) if type(iterations) is range else None
    if refused is not None:  # refused before for a call like this one: no second attempt
        LOG.debug("%s: runs eagerly (refused before: %s)", site.where, refused)
        site.eager(refused)
        return None
    return _attempt(site, iterations, inputs)


def rest(site: Site, iterations: range, inputs: tuple[Any, ...] | None) -> Any:
    """Start the *iterations* after a split part as :func:`start` does in a block group, else None.

    A block group's VF, run once for all its blocks, cannot run iterations eagerly (it would
    then run block by block): there the rest of a split range is another part, batched or
    replayed on its own (its loads of what the first part stored race with those stores, as
    in eager order: ``BlockContext.raced_rows``). Elsewhere it runs eagerly.
    """
    return start(site, iterations, inputs) if batching.ALL_BLOCKS[0] else None


def _attempt(
    site: Site, iterations: Any, inputs: tuple[Any, ...] | None, *, quiet: bool = False
) -> Batch | None:
    """Start a batched attempt at *site* (recording a plan when it can), or return None.

    A range whose batch split before (``batch.Split``) starts with the part that batched; the
    rest runs after it (:func:`rest`; the part is checked again: a smaller one is found if it
    must be).
    """
    part = site.batched_part(iterations, inputs) if type(iterations) is range else iterations
    attempt = batching.enter(site, part, quiet=quiet)
    if attempt is not None:
        attempt.rest = iterations[len(part) :]
        attempt.inputs = inputs
        if inputs is not None and site.recordable:
            attempt.recorder = Recorder(inputs)
        attempt.retry = lambda part=part: _attempt(site, part, inputs, quiet=True)
    return attempt


class Head(tuple):  # type: ignore[type-arg]
    """The final values of a plan that replayed the head of a split range, and the rest.

    A range whose batch split (``batch.Split``) records its plan for the part that batched;
    a later call replays that part and runs the iterations in ``rest`` eagerly.

    Examples
    --------
    >>> head = Head((3, "x"), range(4, 6))
    >>> head, head.rest
    ((3, 'x'), range(4, 6))
    """

    rest: range

    def __new__(cls, finals: tuple[Any, ...], rest: range) -> Head:
        """Return the *finals* (loop variable, then the assigned names) with *rest* attached."""
        made = super().__new__(cls, finals)
        made.rest = rest
        return made


def _replay(site: Site, iterations: Any, inputs: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Replay the first plan of *site* whose guard passes; None if none did.

    A range that split before replays the part that batched (its plan's range) and returns
    a :class:`Head`.
    """
    if type(iterations) is not range or batching._ACTIVE:
        return None
    if _STACK and _STACK[-1].pipe is not Pipe.PIPE_V:
        return None  # an op would refuse to run outside a VF: let the body say so
    whole, iterations = iterations, site.batched_part(iterations, inputs)
    plans = site.plans
    if RECORDING:  # a profile records: only the plans whose ops the profiler's table holds
        plans = [plan for plan in plans if plan.made == GENERATION[0]]
    for plan in plans:
        if plan.guard(iterations, inputs):
            break
    else:
        for known in plans:  # the same run on other memory (a kernel's next block)?
            moved = known.translated(inputs, iterations)
            if moved is not None and moved.guard(iterations, inputs):
                site.plans.remove(known)  # the moved plan takes its place: one per call shape
                site.plans.insert(0, moved)
                plan = moved
                break
        else:
            return None
    attempt = batching.enter(site, iterations, quiet=True)
    if attempt is None:
        return None
    attempt.replayed = "loop"
    env = list(inputs)
    if plan.extra:
        env += plan.extra
    if plan.registers is not None:
        attempt.journal(plan.registers(inputs))
    elif plan.register is not None:
        attempt.journal([inputs[plan.register]])
    if not _ran(attempt, plan.run, env, attempt.commit):
        return None
    _to_front(site.plans, plan)
    # a slot holds a register, mask or Ref: Batch.last gives it back as it is
    finals = (iterations[-1], *[env[v] if s else v for s, v in plan.finals])
    rest = whole[len(iterations) :]
    return Head(finals, rest) if rest else finals


def _ran(attempt: Batch, run: Callable[[list[Any]], None], env: list[Any], finish: Any) -> bool:
    """Run a plan's program on *env* in *attempt*, then *finish* it; undo it on any error."""
    try:
        run(env)
        finish()
    except BaseException as error:
        attempt.abandon(error, replay=True)
        return False
    return True


def _to_front(plans: list[Any], plan: Any) -> None:
    """Make *plan* the first of *plans* (the most recently used is tried first)."""
    if plan is not plans[0]:
        plans.remove(plan)
        plans.insert(0, plan)


# -- the whole VF ---------------------------------------------------------------------------------


class Whole:
    """A VF that a plan replays whole: a prologue and one batched loop (``loops._whole``).

    Before its loop such a function makes only registers, masks, ``Ref`` boxes and numbers,
    from its arguments and its module's names; nothing it makes outlives the call. So a call
    whose arguments and module names equal those of a call whose loop recorded a plan would
    make registers of the same classes, boxes holding the same values, the same numbers and
    the same range, and then make the same op calls. It replays the plan on the registers and
    boxes of the recording call (adopted: nothing else holds them), made anew -- unwritten,
    holding their values before the loop -- without running the function's body, and checks
    and undoes as a replayed loop does. When the replay cannot finish, the body runs.

    Parameters
    ----------
    func
        The VF as written (its module's names are read from its globals).
    site
        Its loop.
    names
        The module names (and builtins) the function reads.
    """

    __slots__ = ("func", "names", "pending", "plans", "site")

    def __init__(self, func: Any, site: Site, names: list[str]) -> None:
        self.func = func
        self.site = site
        site.whole = self
        self.names = names
        self.plans: list[WholePlan] = []
        self.pending: tuple[Any, ...] | None = None
        """The arguments of the call running the body (the one that may record a plan)."""

    def start(self, args: tuple[Any, ...]) -> bool:
        """Replay the call with arguments *args* if a plan can; return True if it did."""
        if self.plans and _replay_whole(self, args):
            return True
        if self.plans and self._translate(args) and _replay_whole(self, args):
            return True
        self.pending = args
        return False

    def _translate(self, args: tuple[Any, ...]) -> bool:
        """Keep a plan for *args* made from one for the same addresses in other memories.

        A call on new memory (another ``UnifiedBuffer``, a kernel launch's new block) with
        pointers at the same addresses, into allocations of the same bounds, and equal other
        arguments and module names, makes the same calls on pointers that differ only in the
        memory and allocation they belong to: the plan of the earlier call, with each pointer
        moved to the new memory and allocation, is the plan this call would record.
        """
        module = self.func.__globals__
        for known in self.plans:
            places = _places(known.args, args)
            if places is None or not known.guard(known.args, module):  # its module names
                continue
            translated = known.translated(places, args)
            if translated is not None:  # it takes the place of the plan it was made from
                self.plans.remove(known)
                self.plans.insert(0, translated)
                return True
        return False

    def adopt(self, plan: Plan, recorder: Recorder, iterations: range) -> None:
        """Keep *plan*, just recorded by the loop of the call now running, for the whole VF."""
        args, self.pending = self.pending, None
        if args is None:
            return
        guard = _whole_guard(args, self.names, self.func.__globals__)
        if guard is None:
            return
        inputs, values = recorder.inputs, recorder.values
        self.plans.insert(0, WholePlan(guard, args, plan, inputs, values, iterations))
        del self.plans[PLANS_PER_LOOP:]


class WholePlan:
    """A whole VF's plan: its guard, its loop's plan, and the registers and boxes it adopted."""

    __slots__ = (
        "args", "env", "guard", "iterations", "journal", "masks", "plan", "refs", "values",
        "vectors",
    )  # fmt: skip

    def __init__(
        self,
        guard: Callable[[tuple[Any, ...], dict[str, Any]], bool],
        args: tuple[Any, ...],
        plan: Plan,
        inputs: tuple[Any, ...],
        values: list[Any],
        iterations: range,
    ) -> None:
        self.guard = guard
        self.args = args
        """The arguments it was recorded (or translated) for."""
        self.plan = plan
        self.iterations = iterations
        self.values = values
        self.env = [*inputs, *plan.extra]
        self.vectors = [v for v in inputs if isinstance(v, RegTensor)]
        self.masks = [v for v in inputs if isinstance(v, MaskReg)]
        self.refs = [(v, values[k]) for k, v in enumerate(inputs) if type(v) is Ref]
        # each register unwritten before the loop (as made anew): what an undo puts back
        self.journal = {
            id(r): (r, None, batching._layout(r))
            for r in map(storage, (*self.vectors, *self.masks))
        }

    def translated(self, places: Places, args: tuple[Any, ...]) -> WholePlan | None:
        """Return this plan with its pointers moved by *places*, for *args* (or None).

        Its guard is the one :func:`_whole_guard` would make for *args*: the same checks, the
        memories, allocations and pointers of the arguments moved (the arguments differ in
        nothing else, :func:`_places`, and the module names are the recorded ones).
        """
        parts: dict[int, Any] = {}
        for (memory, block), (new_memory, new_block) in places.items():  # (ids of the old)
            parts[memory], parts[block] = new_memory, new_block
        try:
            done: dict[int, Any] = {}
            guard = _rebound(self.guard, places, parts, done)
            run = _rebound(self.plan.run, places, {}, done)  # its pointers moved, names kept
            inputs = tuple(
                _moved(v, places, done) for v in self.env[: len(self.env) - len(self.plan.extra)]
            )
        except KeyError:  # a pointer into a memory none of the arguments points into
            return None
        plan = self.plan.rebound(run)
        return WholePlan(guard, args, plan, inputs, self.values, self.iterations)


Places = dict[tuple[int, int], tuple[Any, Any]]
"""For each (memory, allocation) of a recorded call's pointer arguments (by id), where the new
call's argument at the same place points: its memory and allocation."""


def _places(old: tuple[Any, ...], new: tuple[Any, ...]) -> Places | None:
    """Return how *new* arguments move *old* pointer arguments, if they differ in nothing else.

    The same classes, addresses, element types and allocation bounds, memories of one class
    and capacity, the same pattern of shared memories and allocations, equal other values.
    """
    if len(old) != len(new):
        return None
    places: Places = {}
    for was, now in zip(old, new, strict=True):
        if type(now) is not type(was):
            return None
        if not isinstance(was, Pointer) or isinstance(was, batching.RowPointer):
            if not _same_value(was, now):
                return None
            continue
        if now.address != was.address or now.dtype is not was.dtype:
            return None
        memory, block = now.memory, now.block
        if type(memory) is not type(was.memory) or memory.capacity != was.memory.capacity:
            return None
        bounds = None if block is None else (block.start, block.end)
        if bounds != (None if was.block is None else (was.block.start, was.block.end)):
            return None
        key = (id(was.memory), id(was.block))
        if places.setdefault(key, (memory, block)) != (memory, block):
            return None
    targets = list(places.values())
    memories = {id(m) for m, _ in targets}
    if len(memories) != len({k[0] for k in places}) or len({id(b) for _, b in targets}) != len(
        {k[1] for k in places}
    ):
        return None  # not the same pattern of shared memories and allocations
    return places


def _input_places(
    old: tuple[Any, ...], old_values: list[Any], new: tuple[Any, ...]
) -> Places | None:
    """Return how *new* loop inputs move *old* ones: :func:`_places`, registers by class.

    Registers and masks must be of the same classes (a VF makes new ones every call),
    ``Ref`` boxes must hold equal values (*old_values*: what the old ones held).
    """
    if len(old) != len(new):
        return None
    plain_old, plain_new = [], []
    for k, (was, now) in enumerate(zip(old, new, strict=True)):
        if type(now) is not type(was):
            return None
        if isinstance(was, RegTensor | MaskReg):
            continue
        if type(was) is Ref:
            if not _same_value(old_values[k], now.value):
                return None
            continue
        plain_old.append(was)
        plain_new.append(now)
    return _places(tuple(plain_old), tuple(plain_new))


def _same_value(was: Any, now: Any) -> bool:
    """Return True when *now* passes the guard *was* would get (:func:`_equal`)."""
    if type(was) is float:
        return _float_bits(was) == _float_bits(now)
    if type(was) in (int, str):
        return bool(was == now)
    if isinstance(was, np.generic):
        return type(now) is type(was) and bool(now.tobytes() == was.tobytes())
    return now is was


def _rebound(
    function: Any, places: Places, parts: dict[int, Any], done: dict[int, Any] | None = None
) -> Any:
    """Return *function* (a guard or a program) with the constants of its namespace moved.

    Pointers move with :func:`_moved`; a memory or an allocation a guard compares by identity
    becomes the new one (*parts*: by the id of the old one); the rest stays. The code is the
    same (compiled once).
    """
    old = function.__globals__
    keys = old.get(_MOVING)
    if keys is None:  # the names holding pointers, memories and allocations, found once
        kinds = (Pointer, Memory, Allocation)
        keys = tuple(key for key, value in old.items() if isinstance(value, kinds))
    names = dict(old)
    names[_MOVING] = keys
    for key in keys:
        value = old[key]
        if isinstance(value, Pointer):
            names[key] = _moved(value, places, done)
        else:
            names[key] = parts.get(id(value), value)
    return types.FunctionType(function.__code__, names, function.__name__)


_MOVING = "__ascreg_moving__"
"""The name under which a moved guard's or program's namespace lists the names :func:`_rebound`
moves (what it found in the namespace it was moved from: the same names, the same kinds)."""


def _moved(value: Any, places: Places, done: dict[int, Any] | None = None) -> Any:
    """Return *value*, or the same pointer in the new memory and allocation (KeyError: none).

    *done*: the pointers one translation moved so far, by id (a plan's guard, program and
    inputs hold the same pointers: each is moved once; the plan being moved holds them, so
    their ids stay theirs meanwhile).
    """
    if not isinstance(value, Pointer):
        return value
    if done is not None:
        found = done.get(id(value))
        if found is not None:
            return found
    memory, block = places[id(value.memory), id(value.block)]
    moved: Pointer[Any]
    if isinstance(value, batching.RowPointer):
        moved = value.elsewhere(memory, block)
    else:
        moved = object.__new__(type(value))
        moved.dtype, moved.address = value.dtype, value.address
        moved.memory, moved.block = memory, block
    if done is not None:
        done[id(value)] = moved
    return moved


def _whole_guard(
    args: tuple[Any, ...], names: list[str], module: dict[str, Any]
) -> Callable[[tuple[Any, ...], dict[str, Any]], bool] | None:
    """Return the guard of a whole VF's plan: equal arguments and module names, or None."""
    table: dict[str, Any] = {"_bits": _float_bits}
    checks = [f"len(a) == {len(args)}"]
    for k, value in enumerate(args):
        check = _equal(f"a[{k}]", value, f"a{k}", table)
        if check is None:
            return None
        checks.append(check)
    for n, name in enumerate(names):
        value = module[name] if name in module else getattr(builtins, name, _MISSING)
        table[f"d{n}"] = value  # a builtin, unless the module shadows it
        check = _equal(f"g.get({name!r}, d{n})", value, f"g{n}", table)
        if check is None or value is _MISSING:
            return None
        checks.append(check)
    source = (
        "def guard(a, g):\n    return (\n        " + "\n        and ".join(checks) + "\n    )\n"
    )
    guard: Callable[[tuple[Any, ...], dict[str, Any]], bool] = _function(source, "guard", table)
    return guard


_MISSING = object()


def _replay_whole(whole: Whole, args: tuple[Any, ...]) -> bool:
    """Replay the first plan of *whole* whose guard passes; False if none did."""
    if batching._ACTIVE or (_STACK and _STACK[-1].pipe is not Pipe.PIPE_V):
        return False
    module = whole.func.__globals__
    plans = whole.plans
    for chosen in plans:
        if RECORDING and chosen.plan.made != GENERATION[0]:
            continue  # recorded when no profile saw its ops
        if chosen.guard(args, module):
            break
    else:
        return False
    attempt = batching.enter(whole.site, chosen.iterations, quiet=True)
    if attempt is None:
        return False
    attempt.replayed = "whole"
    # The adopted registers hold what the last replay left: no step reads a register before
    # a step of the same replay wrote it (a read of an unwritten one stopped the recording),
    # so they stand for registers made anew. A Ref is read first: it gets its value back.
    for ref, value in chosen.refs:
        ref.value = value
    attempt.registers = dict(chosen.journal)
    # the results overwrite the last replay's (which nothing reads)
    if not _ran(attempt, chosen.plan.run, chosen.env, attempt.end):
        return False
    _to_front(plans, chosen)
    return True

"""Every ``for`` loop of a VF as the engine knows it: its decision, its history, its warning.

A :class:`Site` is made for each loop when its VF is first called (:mod:`ascreg.engine.loops`):
the static decision (batchable, or why not), then what each run did -- batched, replayed from
a recorded plan (:mod:`ascreg.engine.plans`), run inside an outer batched loop, or eagerly and
why. There is no silent slow path:

* the first time a loop runs eagerly for a reason the kernel could avoid (its body, or a
  run-time check), ascreg says so once with an :class:`~ascreg.errors.EagerLoopWarning`
  (filter it or turn it into an error with :mod:`warnings`); a loop that runs eagerly because
  the policy asks (``execution="eager"``) or because it has one iteration is not warned about;
* a loop refused at run time remembers the refusal for the form of its inputs
  (:func:`form_of`) and runs eagerly at once the next time, without a second attempt;
* ``ascreg.explain(vf)`` lists every loop's decision and history (:meth:`Site.describe`).

Examples
--------
>>> site = Site("vf line 3", "<demo>", 3)
>>> site.ran("batched"); site.ran("batched"); site.describe()
'vf line 3: batched when the run-time checks pass; ran batched 2 times'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ascreg.errors import PURE_MARKER, EagerLoopWarning
from ascreg.machine.memory import Pointer

PLANS_PER_LOOP = 8
"""How many plans one loop keeps (the most recently used first)."""
REFUSALS_PER_LOOP = 32
"""How many input forms one loop remembers a run-time refusal for."""

_RUNS = {
    "batched": "ran batched",
    "replayed": "replayed a recorded plan",
    "inside": "ran inside a batched outer loop",
    "flattened": "ran flattened into a batched outer loop",
    "eager": "ran eagerly",
}
"""What each kind of run is called in :meth:`Site.describe`, in its order."""


class Site:
    """One ``for`` loop of a VF: its decision, plans, run counts and remembered refusals.

    Parameters
    ----------
    where
        ``"<function> line <n>"``.
    filename, lineno
        Where the loop is (the warning points there).
    static
        Why the loop never runs batched (its body), or None when it may.
    recordable
        False when a call in the body is not an op's entry point (no plan is ever recorded).
    extras
        Read when the loop starts, after the body's inputs: module names that the
        ``__simd_callee__`` helpers it calls read, as ``(globals, name)`` pairs (a plan's
        guard compares them too).
    local
        The positions among the body's inputs of the enclosing function's local names.
    receivers
        The positions among the body's inputs of the objects whose pure methods the body calls
        (``tensor.GetPhyAddr()``), each with those methods' names (:meth:`received`).
    """

    __slots__ = (
        "counts", "extras", "filename", "flatten", "last", "lineno", "locals", "plans",
        "receivers", "recordable", "refused", "splits", "static", "warned", "where", "whole",
    )  # fmt: skip

    def __init__(
        self,
        where: str,
        filename: str,
        lineno: int,
        static: str | None = None,
        recordable: bool = True,
        extras: tuple[tuple[dict[str, Any], str], ...] = (),
        local: tuple[int, ...] = (),
        receivers: tuple[tuple[int, tuple[str, ...]], ...] = (),
    ) -> None:
        self.where = where
        self.filename = filename
        self.lineno = lineno
        self.static = static
        self.recordable = recordable
        self.extras = extras
        self.locals = local
        """The positions among its inputs of the enclosing function's local names (what a
        flattened run rebinds, :mod:`ascreg.engine.nested`)."""
        self.receivers = receivers
        self.flatten = True
        """False once the loop, run inside a batched outer loop, could not run flattened."""
        self.plans: list[Any] = []
        self.whole: Any = None
        """The VF this loop ends, when a plan may replay the VF whole (``plans.Whole``)."""
        self.counts = dict.fromkeys(_RUNS, 0)
        self.last: str | None = None
        """Why the loop last ran eagerly."""
        self.refused: dict[Any, str] = {}
        """For each input form refused at run time (:func:`form_of`), why."""
        self.splits: dict[Any, int] = {}
        """For each range and layout whose batch split (``batch.Split``), how many batched."""
        self.warned = False

    # -- what happened --

    def ran(self, kind: str) -> None:
        """Count one run of *kind* (``"batched"``, ``"replayed"``, ``"inside"``)."""
        self.counts[kind] += 1

    def eager(self, reason: str, *, warn: bool = True) -> None:
        """Count one eager run and why; warn the first time (unless *warn* is False)."""
        self.counts["eager"] += 1
        self.last = reason
        if warn and not self.warned:
            self.warned = True
            warnings.warn_explicit(
                f"{self.where} runs eagerly, one iteration at a time: {reason}",
                EagerLoopWarning,
                self.filename,
                self.lineno,
            )

    def split(self, iterations: range, inputs: tuple[Any, ...] | None, count: int) -> None:
        """Remember that a batch of *iterations* split after *count* (for the same layout)."""
        if len(self.splits) >= REFUSALS_PER_LOOP:
            self.splits.pop(next(iter(self.splits)))
        self.splits[iterations, form_of(iterations, inputs, layout=True)] = count

    def batched_part(self, iterations: range, inputs: tuple[Any, ...] | None) -> range:
        """Return the iterations a batch runs: those before a split for the same layout, else all.

        The rest run after them, eagerly or, in a block group, as another part
        (:meth:`split` remembered where a batch of the same range and layout split).
        """
        if not self.splits:
            return iterations
        head = self.splits.get((iterations, form_of(iterations, inputs, layout=True)))
        return iterations if head is None else iterations[:head]

    def refuse(
        self, iterations: range, inputs: tuple[Any, ...] | None, scope: str, reason: str
    ) -> None:
        """Remember that the loop was refused at run time, and why, for later calls like this.

        *scope* (``Fallback.scope``): ``"body"`` remembers it for every call (an op of the body
        that never runs batched), ``"form"`` for inputs of the same form, ``"layout"`` for the
        same addresses and bounds (:func:`form_of`), ``"state"`` not.
        """
        if scope == "state":
            return
        if len(self.refused) >= REFUSALS_PER_LOOP:
            self.refused.pop(next(iter(self.refused)))
        key = ANY_FORM if scope == "body" else form_of(iterations, inputs, layout=scope == "layout")
        self.refused[key] = reason

    def refused_for(self, iterations: range, inputs: tuple[Any, ...] | None) -> str | None:
        """Return why the loop was refused before for a call like this one, or None."""
        if not self.refused:
            return None
        found = self.refused.get(ANY_FORM) or self.refused.get(form_of(iterations, inputs))
        return found or self.refused.get(form_of(iterations, inputs, layout=True))

    def keep(self, plan: Any, recorder: Any, iterations: range, *, whole: bool = True) -> None:
        """Put *plan* first, dropping the least recently used beyond :data:`PLANS_PER_LOOP`.

        The loop of a VF replayed whole also gives the VF the plan (``Whole.adopt``) when
        the plan ran its *whole* range (not the head of a split one).
        """
        self.plans.insert(0, plan)
        del self.plans[PLANS_PER_LOOP:]
        if self.whole is not None and whole:
            self.whole.adopt(plan, recorder, iterations)

    def extra_inputs(self) -> tuple[Any, ...] | None:
        """Return the values of ``extras`` now (None when one is missing)."""
        try:
            return tuple(names[name] for names, name in self.extras)
        except KeyError:
            return None

    def received(self, inputs: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """Return *inputs* as a plan sees them: each receiver's class, then its calls' results.

        The body reads a receiver only through its pure methods, which give equal results
        for equal receivers, so a plan compares those results (a pointer, by memory, address,
        element type and allocation) and the receiver's class; they come after the inputs,
        in the order of ``receivers``. None when a method is not marked pure (the batched
        run refuses the call).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> from ascreg.errors import mark_pure
        >>> p = UnifiedBuffer().alloc(uint8_t, 64)
        >>> class Tensor:
        ...     @mark_pure
        ...     def GetPhyAddr(self): return p
        >>> site = Site("vf line 3", "<demo>", 3, receivers=((0, ("GetPhyAddr",)),))
        >>> site.received((Tensor(), 7)) == (Tensor, 7, p)
        True
        """
        seen = list(inputs)
        results = []
        for k, methods in self.receivers:
            receiver = inputs[k]
            seen[k] = type(receiver)
            for name in methods:
                method = getattr(receiver, name, None)
                if getattr(method, PURE_MARKER, False) is not True:
                    return None
                results.append(method())  # type: ignore[misc]
        return (*seen, *results)

    # -- what ascreg says --

    def describe(self) -> str:
        """Return ``"<where>: <decision>[; <what the runs did>]"`` (one line)."""
        if self.static is not None:
            line = f"{self.where}: eager: {self.static}"
        else:
            line = f"{self.where}: batched when the run-time checks pass"
        runs = [f"{_RUNS[kind]} {n} time{'s' * (n != 1)}" for kind, n in self.counts.items() if n]
        if runs:
            line += "; " + ", ".join(runs)
        if self.static is None and self.last is not None:
            line += f" (last eager run: {self.last})"
        if self.refused:
            line += f"; refused at run time for {len(self.refused)} input form(s)"
        return line


ANY_FORM = ("any form",)
"""The key of a refusal remembered for every call of the loop (``Fallback.scope == "body"``)."""


def form_of(iterations: range, inputs: tuple[Any, ...] | None, *, layout: bool = False) -> Any:
    """Return the input form a run-time refusal is remembered for.

    The iteration count, and per input: an ``int``, ``float`` or ``bool`` by value, a pointer by
    its class, element type and address modulo 32 (its alignment), anything else by its class.
    With *layout* (a refusal for the addresses and bounds of the call, ``Fallback.layout``), a
    pointer by its whole address, allocation bounds and memory's capacity.

    Examples
    --------
    >>> form_of(range(4), (3, 2.5))
    (4, ((<class 'int'>, 3), (<class 'float'>, 2.5)))
    """
    if inputs is None:
        return (len(iterations), None)
    kind = _layout if layout else _kind
    return (len(iterations), tuple(map(kind, inputs)))


def _kind(value: Any) -> Any:
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        return (kind, value)
    if isinstance(value, Pointer):
        return (kind, value.dtype, value.address % 32)
    return kind


def _layout(value: Any) -> Any:
    if isinstance(value, Pointer):
        block = value.block
        bounds = None if block is None else (block.start, block.end)
        return (type(value), value.dtype, value.address, bounds, value.memory.capacity)
    return _kind(value)


Helper = Callable[..., Any]

"""The ascreg error hierarchy and the undefined-behaviour policy.

Every error names the call (the C++/C spelling the user wrote), the offending value and the rule
that was broken. The call name is found without any per-call cost: each public entry point keeps
its spelling in a local variable named ``_ascreg_call``, and an error raised below it looks that
variable up on the stack when it is built.

Undefined behaviour on the chip (negative shift counts, reading a register nobody wrote, a
misaligned address) is an error by default. ``set_policy(undefined="warn")`` turns those into
:class:`AscregWarning` and carries on with the documented fallback of each case.
``policy(execution="eager")`` runs the loops of ``__simd_vf__`` functions one iteration at a
time instead of batched (for debugging with print and pdb). ``policy(past_allocation="chip")``
lets the active lanes of a vector store write past the end of their UB allocation, as the chip
does (by default that is an :class:`OutOfBoundsError`: it corrupts the neighbour).
``policy(profile="trace.json")`` records a pipe timeline of what runs (:mod:`ascreg.profile`)
and writes it when it ends.

Examples
--------
>>> import ascreg
>>> with ascreg.policy(undefined="warn"):
...     ascreg.get_policy().undefined
'warn'
>>> ascreg.get_policy().undefined
'error'
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Literal, TypeVar

import attrs

CALL_MARKER = "_ascreg_call"
"""Name of the local variable through which a public entry point names itself on the stack."""
PURE_MARKER = "_ascreg_pure"
"""Attribute (True) of a method that only computes a new value from its object and arguments
(``Pointer.cast``): a batched VF loop may call it on a parameter annotated with its class."""
PURE_METHODS: set[str] = set()
"""The names of the methods marked pure (:func:`mark_pure`): a batched loop may call a method
of one of these names on any object, checked at run time to be such a method."""


_Method = TypeVar("_Method", bound=Callable[..., object])


def mark_pure(method: _Method) -> _Method:
    """Mark *method* pure (:data:`PURE_MARKER`) and note its name; return it.

    Examples
    --------
    >>> def cast(self, dtype): return self
    >>> mark_pure(cast) is cast, "cast" in PURE_METHODS
    (True, True)
    """
    setattr(method, PURE_MARKER, True)
    PURE_METHODS.add(method.__name__)
    return method


FORWARDER_MARKER = "_ascreg_forwarder"
"""Attribute (True) of an op's own entry point, the function every call of the op goes through
(a batched VF loop's plan records those calls, :mod:`ascreg.engine.plans`)."""
OP_LOCAL = "op"
"""Name of the op-object parameter of an op implementation (it names the call through its
``_ascreg_call`` attribute)."""


def current_call() -> str | None:
    """Return the innermost public ascreg call on the stack, or None.

    A frame names its call by a local variable ``_ascreg_call``, or by a local ``op`` (the op
    object an implementation receives, see :mod:`ascreg._frontend.template`) whose attribute
    ``_ascreg_call`` is the spelling.

    Examples
    --------
    >>> def Demo():
    ...     _ascreg_call = "Reg.Demo"
    ...     return current_call()
    >>> Demo()
    'Reg.Demo'
    """
    frame = sys._getframe(1)
    while frame is not None:
        local = frame.f_locals
        name = local.get(CALL_MARKER)
        if name is None:
            name = getattr(local.get(OP_LOCAL), CALL_MARKER, None)
        if isinstance(name, str):
            return name
        frame = frame.f_back  # type: ignore[assignment]
    return None


class AscregError(Exception):
    """Base class of every error ascreg raises on bad input.

    The message reads ``<call>: <what happened>``.

    Examples
    --------
    >>> str(AscregError("count must be >= 0", call="Reg.UpdateMask"))
    'Reg.UpdateMask: count must be >= 0'
    """

    def __init__(self, message: str, *, call: str | None = None) -> None:
        self.call = call if call is not None else current_call()
        self.detail = message
        super().__init__(f"{self.call}: {message}" if self.call else message)


class AscregTypeError(AscregError, TypeError):
    """A dtype or argument kind the C++ compiler would reject.

    Examples
    --------
    >>> issubclass(AscregTypeError, TypeError)
    True
    """


class IllegalDtypeError(AscregTypeError):
    """A dtype combination outside the op's table in ``ascreg._spec``."""


class TemplateMismatchError(AscregTypeError):
    """An explicit template dtype that differs from the register's dtype."""


class RefRequiredError(AscregTypeError):
    """A plain value where the C++ signature takes a reference (use :class:`ascreg.Ref`)."""


class UnsupportedError(AscregError, NotImplementedError):
    """A legal C++ call that the emulator does not model (yet), or that dav-3510 rejects."""


class UnsupportedModeError(UnsupportedError, AscregTypeError):
    """A mode a call does not take on dav-3510 (a ``CastTrait`` layout a cast pair has not).

    The C++ ``static_assert(..., "... is not supported on current device")``: both an
    :class:`UnsupportedError` (dav-3510 rejects it) and an :class:`AscregTypeError` (the
    compiler does).

    Examples
    --------
    >>> issubclass(UnsupportedModeError, UnsupportedError), issubclass(UnsupportedModeError, TypeError)
    (True, True)
    """


class MemoryAccessError(AscregError):
    """Base class of the UB and GM access errors."""


class AlignmentError(MemoryAccessError):
    """An address that does not meet the alignment the access mode requires."""


class OutOfBoundsError(MemoryAccessError, IndexError):
    """An access outside its allocation or outside the memory."""


class CapacityError(MemoryAccessError):
    """An allocation that does not fit (for example more than 248 KiB of UB)."""


class AddressSpaceError(AscregTypeError):
    """A pointer of the wrong address space (``__gm__`` where ``__ubuf__`` is required)."""


class HostTensorError(AscregError, ValueError):
    """A host tensor a copy cannot use in place: not contiguous, read-only, not viewable."""


class UndefinedBehaviourError(AscregError):
    """A use the hardware leaves undefined; see :func:`set_policy`."""


class NegativeShiftError(UndefinedBehaviourError):
    """A negative shift count (undefined on the chip)."""


class UninitializedRegisterError(UndefinedBehaviourError):
    """A register read before anything was written to it."""


class UndefinedLaneError(UndefinedBehaviourError):
    """An active lane of a store or reduction, or a scalar read, that uses an undefined lane.

    Undefined lanes are those a whole-register load read past the end of its allocation, or
    from bytes its VF stored with no barrier between (:mod:`ascreg.machine.undefined`).
    """


class ConversionRangeError(UndefinedBehaviourError, ValueError):
    """A C cast whose result C leaves undefined.

    A floating value cast to an integer type that cannot hold it (NaN, inf, or out of range
    after truncation), a value past the largest finite value of a float type without inf, or
    a cast to a raw-bit type without arithmetic conversions.
    """


class MissingApiError(AscregError, AttributeError):
    """A name the asc-devkit documents that ascreg does not provide yet (see the limitations page)."""


class UninitializedMemoryError(UndefinedBehaviourError):
    """UB bytes read in a kernel before anything wrote them (garbage on the chip)."""


class SyncError(AscregError):
    """A pipe synchronisation that would hang or race on the chip."""


class RacedLaneError(UndefinedLaneError, SyncError):
    """A use of a lane a vector load read from UB bytes its ``__simd_vf__`` stored unordered.

    Inside a VF, loads and stores are separate streams the chip may reorder: without a
    store-to-load barrier (``asc_mem_bar(VST_VLD)``) between them, a load of bytes the VF stored
    may see them before or after the store. The loaded lanes covering those bytes are
    undefined; using one (an active lane of a store or reduction, a scalar read) is this error,
    both an :class:`UndefinedLaneError` and a :class:`SyncError`.
    """


class LaunchError(AscregError):
    """A kernel launch the runtime rejects (zero blocks, too many threads, ...)."""


class AscregWarning(UserWarning):
    """Issued instead of an :class:`UndefinedBehaviourError` under ``undefined="warn"``."""


class SlowPathWarning(UserWarning):
    """Code runs on a slow path of the engine: the result is exact, only the speed suffers.

    Issued once per kernel with the reason, e.g. when a block of a SIMT kernel runs one
    thread at a time instead of vectorised (``ascreg.simt``). It is not an
    :class:`AscregWarning` (nothing is undefined): filter it on its own, or make it an error
    to find the slow paths of a test suite::

        warnings.filterwarnings("error", category=SlowPathWarning)

    Examples
    --------
    >>> import warnings
    >>> issubclass(SlowPathWarning, UserWarning), issubclass(SlowPathWarning, AscregWarning)
    (True, False)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", SlowPathWarning)  # silence every slow-path warning
    """


class EagerLoopWarning(SlowPathWarning):
    """A loop of a ``__simd_vf__`` function runs eagerly, one iteration at a time: the slow path.

    A :class:`SlowPathWarning`, so one filter on that category covers every slow path.

    Issued once per loop, with the reason, the first time the loop cannot run batched (its
    body, or a run-time check; ``ascreg.explain(vf)`` lists every loop's decision). The results
    are the same either way, only slower. Silence it, or make it an error to find every slow
    loop, with the :mod:`warnings` filters::

        warnings.simplefilter("error", ascreg.EagerLoopWarning)

    A loop run eagerly because the policy asks (``execution="eager"``, ``undefined="warn"``)
    or because it has a single iteration is not warned about.

    Examples
    --------
    >>> issubclass(EagerLoopWarning, SlowPathWarning), issubclass(EagerLoopWarning, AscregWarning)
    (True, False)
    """


class PolicyError(AscregError, ValueError):
    """An unknown value given to :func:`set_policy` or :func:`policy`.

    Examples
    --------
    >>> issubclass(PolicyError, ValueError)
    True
    """


POLICIES = {
    "error": "raise, the default",
    "warn": "warn and continue with the documented fallback",
}
"""The values of ``undefined`` and what each does."""


PAST_ALLOCATION = {
    "error": "an active lane of a vector store past its UB allocation raises, the default",
    "chip": "it writes the UB bytes there, as the chip does (the neighbouring buffer changes)",
}
"""The values of ``past_allocation`` and what each does."""


PROGRESS = {
    "auto": "a long launch shows its progress when standard error is a terminal, outside CI",
    "on": "a long launch always shows its progress on standard error",
    "off": "launches never show progress",
}
"""The values of ``progress`` and what each does."""


EXECUTIONS = {
    "batched": "run a VF loop as one batched computation when that gives the eager result",
    "eager": "run every VF loop iteration by iteration (for print and pdb debugging)",
}
"""The values of ``execution`` and what each does."""


@attrs.frozen
class Policy:
    """What ascreg does on undefined behaviour, and how it runs VF loops.

    Attributes
    ----------
    undefined
        ``"error"`` (default) raises; ``"warn"`` issues an :class:`AscregWarning` and continues
        with the documented fallback (negative shift: shift the other way; uninitialised register
        or UB bytes: zeros; misaligned address: access the address as given).
    execution
        ``"batched"`` (default) runs each ``for i in range(n)`` loop of a ``__simd_vf__``
        function as one computation over all iterations when that gives the same result and
        errors as running it in order (see :mod:`ascreg.engine.loops`); ``"eager"`` always
        runs it in order, one iteration at a time (use it to step through a loop with print or
        pdb). Under ``undefined="warn"`` loops run eagerly too.
    past_allocation
        ``"error"`` (default): an active lane of a vector store (``StoreAlign`` and its C API
        twins) that lies past the end of its UB allocation is an :class:`OutOfBoundsError`;
        ``"chip"``: it writes the UB bytes there, inside UB, as the chip does. A
        whole-register load that starts inside its allocation and runs past its end needs no
        policy: its lanes there are undefined (:mod:`ascreg.machine.undefined`); one that
        starts at or past the end stays an :class:`OutOfBoundsError` either way.
    profile
        None (default), or the path of a trace file: everything that runs is recorded
        (:mod:`ascreg.profile`) and the estimated pipe timeline is written there when the policy
        ends (``ascreg.profile.last()`` is that profile).
    progress
        ``"auto"`` (default): a launch that runs longer than two seconds shows a progress line
        (blocks done, time left) on standard error when that is a terminal and the ``CI``
        environment variable is unset; ``"on"``: whatever standard error is; ``"off"``: never
        (:mod:`ascreg.machine.progress`).

    Examples
    --------
    >>> Policy().undefined, Policy().execution, Policy().past_allocation, Policy().progress
    ('error', 'batched', 'error', 'auto')
    """

    undefined: Literal["error", "warn"] = attrs.field(
        default="error", validator=attrs.validators.in_(("error", "warn"))
    )
    execution: Literal["batched", "eager"] = attrs.field(
        default="batched", validator=attrs.validators.in_(("batched", "eager"))
    )
    past_allocation: Literal["error", "chip"] = attrs.field(
        default="error", validator=attrs.validators.in_(("error", "chip"))
    )
    profile: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(str))
    )
    progress: Literal["auto", "on", "off"] = attrs.field(
        default="auto", validator=attrs.validators.in_(tuple(PROGRESS))
    )


_policy = Policy()
PROFILE_SWITCH: list[Callable[[str | None], None]] = []
"""What starts and stops the policy's profile (the top package registers it: this layer does not
import :mod:`ascreg.profile`)."""


def get_policy() -> Policy:
    """Return the policy in force.

    Examples
    --------
    >>> get_policy().undefined
    'error'
    """
    return _policy


def _checked(name: str, value: str, choices: dict[str, str]) -> None:
    if value not in choices:
        raise PolicyError(
            f"{name}={value!r} is not a policy: use "
            + " or ".join(f"{choice!r} ({what})" for choice, what in choices.items()),
            call=current_call() or "set_policy",
        )


def set_policy(
    *,
    undefined: Literal["error", "warn"] | None = None,
    execution: Literal["batched", "eager"] | None = None,
    past_allocation: Literal["error", "chip"] | None = None,
    profile: str | Literal[False] | None = None,
    progress: Literal["auto", "on", "off"] | None = None,
) -> Policy:
    """Set the policy and return the previous one (a setting not given stays as it is).

    ``profile="trace.json"`` starts recording a profile (:mod:`ascreg.profile`);
    ``profile=False`` stops it and writes its trace.

    Examples
    --------
    >>> old = set_policy(undefined="warn")
    >>> _ = set_policy(undefined=old.undefined)
    >>> set_policy(undefined="ignore")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ascreg.errors.PolicyError: set_policy: undefined='ignore' is not a policy: use 'error' (raise, the default) or 'warn' ...
    >>> old = set_policy(execution="eager"); get_policy().execution
    'eager'
    >>> _ = set_policy(execution=old.execution)
    """
    global _policy
    previous = _policy
    undefined = previous.undefined if undefined is None else undefined
    execution = previous.execution if execution is None else execution
    if past_allocation is None:
        past_allocation = previous.past_allocation
    progress = previous.progress if progress is None else progress
    _checked("undefined", undefined, POLICIES)
    _checked("progress", progress, PROGRESS)
    _checked("execution", execution, EXECUTIONS)
    _checked("past_allocation", past_allocation, PAST_ALLOCATION)
    if profile is not None and profile is not False and not (isinstance(profile, str) and profile):
        raise PolicyError(
            f"profile={profile!r} is not a policy: use the path of the trace file to write, or "
            "False to stop profiling",
            call=current_call() or "set_policy",
        )
    path = previous.profile if profile is None else profile or None
    _policy = Policy(
        undefined=undefined,
        execution=execution,
        past_allocation=past_allocation,
        profile=path,
        progress=progress,
    )
    if profile is not None and PROFILE_SWITCH:
        PROFILE_SWITCH[0](path)
    return previous


@contextlib.contextmanager
def policy(
    *,
    undefined: Literal["error", "warn"] | None = None,
    execution: Literal["batched", "eager"] | None = None,
    past_allocation: Literal["error", "chip"] | None = None,
    profile: str | Literal[False] | None = None,
    progress: Literal["auto", "on", "off"] | None = None,
) -> Iterator[Policy]:
    """Apply a policy inside a ``with`` block (what is not given stays as it is).

    With ``profile="trace.json"`` the code inside is profiled (:mod:`ascreg.profile`) and the
    trace written when the block ends.

    Examples
    --------
    >>> with policy(undefined="warn") as p:
    ...     p.undefined
    'warn'
    >>> with policy(execution="eager") as p:
    ...     p.execution, p.undefined
    ('eager', 'error')
    """
    previous = set_policy(
        undefined=undefined,
        execution=execution,
        past_allocation=past_allocation,
        profile=profile,
        progress=progress,
    )
    try:
        yield _policy
    finally:
        restored: str | Literal[False] | None = None
        if profile is not None:  # put back the profile it replaced (False: none)
            restored = previous.profile if previous.profile else False
        set_policy(
            undefined=previous.undefined,
            execution=previous.execution,
            past_allocation=previous.past_allocation,
            profile=restored,
            progress=previous.progress,
        )


def undefined_behaviour(error: UndefinedBehaviourError | AlignmentError) -> None:
    """Raise *error*, or warn about it when the policy says ``undefined="warn"``.

    Examples
    --------
    >>> with policy(undefined="warn"):
    ...     import warnings
    ...     with warnings.catch_warnings(record=True) as caught:
    ...         warnings.simplefilter("always")
    ...         undefined_behaviour(NegativeShiftError("count -1", call="Reg.ShiftRight"))
    >>> str(caught[0].message)
    'Reg.ShiftRight: count -1'
    """
    if _policy.undefined == "error":
        raise error
    warnings.warn(str(error), AscregWarning, stacklevel=3)

"""Cross-block Global Memory races: two blocks of one launch writing the same GM bytes.

The blocks of a launch run concurrently on the chip, in no defined order; ascreg runs them one
after the other. Two blocks that write the same GM bytes (without an atomic) leave whichever
value came last on the chip, so the result depends on timing: :class:`GmRaceCheck` reports it
as a :class:`~ascreg.errors.SyncError` instead of silently keeping the last block's value.

Writes made inside :func:`atomic_access` (the ``asc_atomic_*`` functions) are exempt: those are
how blocks legitimately combine results in one place.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> out = GlobalMemory().alloc(uint32_t, 4)
>>> check = GmRaceCheck("k", (out,), {})
>>> check.block = 0; out.write([1, 2])
>>> check.block = 1; (out + 2).write([3])
>>> (out + 1).write([4])
Traceback (most recent call last):
...
ascreg.errors.SyncError: k: block 1 writes __gm__ [0x4, 0x8) that block 0 wrote: blocks of one launch run concurrently on the chip, so the bytes end up holding whichever block wrote last; give each block its own range or use an atomic (asc_atomic_*)
>>> check.detach()
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg.errors import SyncError
from ascreg.machine.crosscore import CORES_STATE, CrossCoreFlags
from ascreg.machine.memory import GlobalMemory, Memory, Pointer

_ATOMIC = [0]
"""Nesting depth of :func:`atomic_access` (module state: the emulator runs one thread)."""
UNWRITTEN = 0
"""Owner mark of a GM byte no block of the launch has written yet. Block *b* is marked
``b + 1``: the marks are zeros, made only up to the highest byte a mark is set for (and only
when a write meets bytes written before), so watching a large GM costs only what the launch
writes."""


@contextlib.contextmanager
def atomic_access() -> Iterator[None]:
    """Mark the memory writes inside the ``with`` block as atomic (exempt from the race check).

    Examples
    --------
    >>> with atomic_access():
    ...     _ATOMIC[0]
    1
    """
    _ATOMIC[0] += 1
    try:
        yield
    finally:
        _ATOMIC[0] -= 1


class GmRaceCheck:
    """Record which block wrote each GM byte during one launch; raise on a second writer.

    Hooks the ``on_access`` of every Global Memory an argument points into (chaining the hook
    already there) until :meth:`detach`. Costs one comparison over the written bytes per write.

    Parameters
    ----------
    kernel
        The kernel's name (for messages).
    args, kwargs
        The launch arguments; their ``__gm__`` pointers select the memories to watch.
    """

    def __init__(
        self,
        kernel: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        shared: dict[str, Any] | None = None,
    ) -> None:
        self.kernel = kernel
        self.block = 0
        found = (shared or {}).get(CORES_STATE)
        self.flags: CrossCoreFlags | None = found if isinstance(found, CrossCoreFlags) else None
        """In a mixed launch its flags (its cores' accesses race unless a set/wait chain
        orders them, and ``block`` is the running core's place in the launch), else None."""
        self.paused = False
        """Set while a SIMT block batch runs (the batch claims each block's spans afterwards),
        and around the polled GM flags of a software ``SyncAll`` in a mixed launch."""
        memories = {
            id(a.memory): a.memory
            for a in (*args, *kwargs.values())
            if isinstance(a, Pointer) and isinstance(a.memory, GlobalMemory)
        }
        self.hooks = [_OwnerHook(self, memory) for memory in memories.values()]
        self.ub_hooks: dict[int, _OwnerHook] = {}
        """The hooks on the UBs of vector cores an AIC writes (:meth:`watch_ub`), by UB id."""

    def watch_ub(self, ub: Memory, where: str) -> _OwnerHook:
        """Check the accesses to a vector core's *ub* that another core writes (mixed launch).

        Installs (once) an owner hook on *ub* that orders its accesses by the cross-core flags
        as the GM hooks do; the hook chains the UB's own ``on_access``. Return it.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer
        >>> ub = UnifiedBuffer(); check = GmRaceCheck("k", (), {})
        >>> check.watch_ub(ub, "the UB of AIV 0") is check.watch_ub(ub, "?")
        True
        """
        hook = self.ub_hooks.get(id(ub))
        if hook is None:
            hook = self.ub_hooks[id(ub)] = _OwnerHook(self, ub, where)
        return hook

    def hook_of(self, memory: Any) -> _OwnerHook | None:
        """Return the hook watching *memory*, or None when the launch does not watch it."""
        return next((hook for hook in self.hooks if hook.memory is memory), None)

    def new_phase(self) -> None:
        """Forget the writers so far: a ``SyncAll`` orders every write before it first.

        Two blocks writing the same bytes race only within one phase between barriers.

        Examples
        --------
        >>> from ascreg import GlobalMemory, uint32_t
        >>> out = GlobalMemory().alloc(uint32_t, 2)
        >>> check = GmRaceCheck("k", (out,), {})
        >>> check.block = 0; out.write([1, 2])
        >>> check.new_phase(); check.block = 1; out.write([3, 4])
        >>> check.detach()
        """
        for hook in self.hooks:
            hook.forget()

    def detach(self) -> None:
        """Restore every hooked memory's previous ``on_access``."""
        for hook in self.hooks:
            if hook.memory.on_access is hook:
                hook.memory.on_access = hook.previous
        self.hooks.clear()


class _OwnerHook:
    """``Memory.on_access`` of one watched GM: the writer block of each byte, then chain."""

    def __init__(self, check: GmRaceCheck, memory: Memory, where: str = "__gm__") -> None:
        self.check = check
        self.memory = memory
        self.where = where
        """The memory as a message names it (``"__gm__"``, ``"the UB of AIV 1"``)."""
        self.previous: Callable[[int, int, str], None] | None = memory.on_access
        self._owner = np.zeros(0, dtype=np.int32)  # grown to the highest byte marked
        self.pending: list[tuple[int, int, int]] = []
        """Writes ``(start, end, mark)`` not yet set in the owner marks: a write of bytes no
        block wrote cannot race, so it is only noted (:meth:`owner` sets the marks when they
        are read); a launch whose blocks write apart never touches the marks' pages."""
        self.lows: list[int] = []
        self.highs: list[int] = []
        """Sorted disjoint byte ranges ``[lows[i], highs[i])`` holding every byte any block
        wrote (marked or pending), maybe more: a write outside them meets only unwritten
        bytes."""
        empty = np.zeros(0, dtype=np.int32)
        self.stamp = self.atomic_owner = self.atomic_stamp = empty
        self.read_owner = self.read_stamp = empty
        """In a mixed launch (:meth:`ordered`): the epoch of each byte's last plain write, and
        the core and epoch of its last atomic write and of its last read."""
        memory.on_access = self

    @property
    def owner(self) -> np.ndarray[Any, Any]:
        """The writer mark of each byte (``block + 1``, or :data:`UNWRITTEN`), pending ones set."""
        pending = self.pending
        if pending:
            self._grow(max(end for _, end, _ in pending))
            owner = self._owner
            for start, end, mark in pending:
                owner[start:end] = mark
            pending.clear()
        return self._owner

    def _written_near(self, start: int, end: int) -> bool:
        """Return True when ``[start, end)`` overlaps the written ranges (:attr:`lows`)."""
        lows, highs = self.lows, self.highs
        i = bisect.bisect_left(highs, start + 1)  # the first range ending past start
        return i < len(lows) and lows[i] < end

    def _cover(self, start: int, end: int) -> None:
        """Add ``[start, end)`` to the written ranges, merged with those it overlaps or touches."""
        if start >= end:
            return
        lows, highs = self.lows, self.highs
        i = bisect.bisect_left(highs, start)  # the first range ending at or past start
        j = bisect.bisect_right(lows, end)  # past the last range starting at or before end
        if i < j:
            start, end = min(start, lows[i]), max(end, highs[j - 1])
        lows[i:j] = [start]
        highs[i:j] = [end]

    def __call__(self, start: int, end: int, action: str) -> None:
        flags = self.check.flags
        if flags is not None and not self.check.paused:
            self.ordered(flags, start, end, action)
        elif action == "writes" and not _ATOMIC[0] and not self.check.paused:
            self.record(start, end)
        if self.previous is not None:
            self.previous(start, end, action)

    def record_runs(
        self, starts: np.ndarray[Any, Any], ends: np.ndarray[Any, Any], first: int
    ) -> bool:
        """Mark back-to-back spans of blocks *first*, *first* + 1, ... at once.

        Only when the spans follow each other without gap or overlap and no block has written
        any of their bytes (where :meth:`record`, block by block, cannot raise); False
        (nothing marked) otherwise.
        """
        if not (np.array_equal(starts[1:], ends[:-1]) and (ends > starts).all()):
            return False
        low, high = int(starts[0]), int(ends[-1])
        self._grow(high)
        owner = self.owner
        if owner[low:high].any():
            return False
        marks = np.arange(first + 1, first + 1 + starts.size, dtype=np.int32)
        owner[low:high] = np.repeat(marks, ends - starts)
        self._cover(low, high)
        return True

    def _grow(self, end: int) -> None:
        if end > self._owner.size:
            grown = np.zeros(max(end, 2 * self._owner.size), dtype=np.int32)
            grown[: self._owner.size] = self._owner
            self._owner = grown

    def forget(self) -> None:
        """Mark every byte unwritten (a new phase of the launch)."""
        self.pending.clear()
        self.lows.clear()
        self.highs.clear()
        self._owner[:] = UNWRITTEN

    def record_apart(self, spans: list[tuple[int, int, int]]) -> bool:
        """Note the writes ``(start, end, block)`` of several blocks at once, if none can race.

        That is when no two of them overlap and none meets a byte written before (then
        :meth:`record`, span by span, would only note each); False (nothing noted) otherwise.
        """
        if self.memory.scatter is not None:
            return False
        ordered = sorted(spans)
        end = -1
        for start, stop, _block in ordered:
            if start < end or self._written_near(start, stop):
                return False
            end = stop
        self.pending.extend((start, stop, block + 1) for start, stop, block in ordered)
        for start, stop, _block in ordered:
            self._cover(start, stop)
        return True

    def record(self, start: int, end: int) -> None:
        """Mark ``[start, end)`` as written by the check's current block; raise on another's."""
        me = self.check.block
        scatter = self.memory.scatter
        if scatter is None and not self._written_near(start, end):
            self.pending.append((start, end, me + 1))  # no byte written before: no race
            self._cover(start, end)
            return
        self._grow(end)
        span = self.owner[start:end]
        self._cover(start, end)
        touched = None if scatter is None else scatter.byte_mask(end - start)
        if scatter is None or touched is None:  # every byte of the span
            clash = (span != UNWRITTEN) & (span != me + 1)
            if clash.any():
                self._raise(start, end, int(span[clash][0]))
            span[:] = me + 1
            return
        clash = touched & (span != UNWRITTEN) & (span != me + 1)
        if clash.any():  # a scattered access: name the first element both blocks wrote
            first = int(np.argmax(clash))
            element = start + first - first % scatter.size
            self._raise(element, element + scatter.size, int(span[first]))
        span[touched] = me + 1

    def ordered(self, flags: CrossCoreFlags, start: int, end: int, action: str) -> None:
        """Check a mixed launch's access against the other cores' accesses; record it.

        Each byte keeps its last plain writer, its last atomic writer and its last reader, each
        with the core's epoch then. An access conflicts with another core's earlier one unless
        a set/wait chain orders them (:meth:`~ascreg.machine.crosscore.CrossCoreFlags.knows`):
        a read with the writes, a write with all three, an atomic write with the plain writes
        and the reads (atomics combine with each other). The first unordered pair raises.
        """
        if action == "gathers" and self.where != "__gm__":
            action = "reads"  # a vector load of UB (the elements, not the gaps between them)
        if action not in ("reads", "writes"):
            return
        atomic = bool(_ATOMIC[0])
        marks = self._marks(end)
        me = self.check.block
        scatter = self.memory.scatter
        touched = None if scatter is None else scatter.byte_mask(end - start)
        kinds: tuple[str, ...] = ("write", "atomic") if action == "reads" else ("write", "read")
        if action == "writes" and not atomic:
            kinds = ("write", "atomic", "read")
        for kind in kinds:
            owner, stamp = marks[kind]
            span = owner[start:end], stamp[start:end]
            self._check(flags, *span, start, action, kind, touched)
        record = "read" if action == "reads" else "atomic" if atomic else "write"
        owner, stamp = marks[record]
        if record == "write":
            self._cover(start, end)
        where = slice(start, end)
        if touched is None:
            owner[where] = me + 1
            stamp[where] = flags.epoch(me)
        else:  # a gather or scatter: its elements only
            owner[where][touched] = me + 1
            stamp[where][touched] = flags.epoch(me)

    def _marks(self, end: int) -> dict[str, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
        """Return the (core, epoch) marks of each access kind, grown to cover *end*."""
        self._grow(end)
        size = self.owner.size  # (sets the pending marks)
        for name in ("stamp", "atomic_owner", "atomic_stamp", "read_owner", "read_stamp"):
            old = getattr(self, name)
            if old.size < size:
                grown = np.zeros(size, dtype=np.int32)
                grown[: old.size] = old
                setattr(self, name, grown)
        return {
            "write": (self.owner, self.stamp),
            "atomic": (self.atomic_owner, self.atomic_stamp),
            "read": (self.read_owner, self.read_stamp),
        }

    def _check(
        self,
        flags: CrossCoreFlags,
        owner: np.ndarray[Any, Any],
        stamp: np.ndarray[Any, Any],
        start: int,
        action: str,
        kind: str,
        touched: np.ndarray[Any, Any] | None = None,
    ) -> None:
        me = self.check.block
        others = (owner != UNWRITTEN) & (owner != me + 1)
        if touched is not None:
            others &= touched
        if not others.any():
            return
        for core in np.unique(owner[others]):
            known = flags.clock[me][int(core) - 1]
            late = others & (owner == core) & (stamp >= known)
            if late.any():
                first = start + int(np.argmax(late))
                self._unordered(flags, first, action, kind, int(core) - 1)

    def _unordered(
        self, flags: CrossCoreFlags, byte: int, action: str, kind: str, other: int
    ) -> None:
        me, them = flags.cores[self.check.block].name, flags.cores[other].name
        did = {"write": "wrote", "atomic": "wrote atomically", "read": "read"}[kind]
        raise SyncError(
            f"{me} {action} {self.where} byte {byte:#x}, which {them} {did} with no "
            "CrossCoreSetFlag / CrossCoreWaitFlag ordering the two accesses: the cores of a "
            "mixed launch run concurrently, so the result depends on which comes first; set a "
            f"flag on {them} after its access and wait for it on {me} before this one",
            call=self.check.kernel,
        )

    def _raise(self, start: int, end: int, owner: int) -> None:
        raise SyncError(
            f"block {self.check.block} writes __gm__ [{start:#x}, {end:#x}) that block "
            f"{owner - 1} wrote: blocks of one launch run concurrently on the chip, so the bytes "
            "end up holding whichever block wrote last; give each block its own range or use an "
            "atomic (asc_atomic_*)",
            call=self.check.kernel,
        )

"""Pipes, event flags and the UB hazard check of one AI Core block.

The chip runs its pipes (scalar S, vector V, the copy engines MTE2 = GM->UB and MTE3 = UB->GM)
concurrently; a kernel orders them with ``set_flag`` / ``wait_flag`` pairs (``asc_sync_notify`` /
``asc_sync_wait``, ``SetFlag`` / ``WaitFlag``) and ``pipe_barrier(PIPE_ALL)``. ascreg runs
everything in program order, so a missing synchronisation would go unnoticed. :class:`PipeTracker`
makes it visible instead:

* a wait with no earlier matching notify is an error (the chip would hang);
* every UB access is recorded with the pipe that made it; an access that conflicts with an
  earlier access of *another* pipe (same bytes, at least one of them a write) is an error unless
  a chain of notify/wait pairs or a barrier orders the two. Ordering is tracked with vector
  clocks, so transitive chains (MTE2 -> V, then V -> MTE3) order MTE2 before MTE3 as they do on
  the chip.

The check costs O(1) amortised per access: records are filed per pipe and per 16 KiB page of
their address range, a pipe whose every access is already ordered before the accessing pipe is
skipped with one comparison, and a page's records are scanned newest first only while they are
still unordered. Waits and barriers drop the records every pipe is ordered after.

Examples
--------
>>> t = PipeTracker()
>>> t.access(Pipe.PIPE_MTE2, 0, 256, write=True)
>>> t.notify(Pipe.PIPE_MTE2, Pipe.PIPE_V, 0)
>>> t.wait(Pipe.PIPE_MTE2, Pipe.PIPE_V, 0)
>>> t.access(Pipe.PIPE_V, 0, 256, write=False)
>>> t.wait(Pipe.PIPE_V, Pipe.PIPE_MTE3, 0)
Traceback (most recent call last):
...
ascreg.errors.SyncError: wait for flag (PIPE_V -> PIPE_MTE3, EVENT_ID0) that no earlier notify set: the kernel would hang on the chip
"""

from __future__ import annotations

import enum
import itertools
from typing import Any

import attrs
import numpy as np

from ascreg.errors import SyncError


class Pipe(enum.IntEnum):
    """``pipe_t``: the AI Core pipelines (values of the C API's ``asc_platform.h``)."""

    PIPE_S = 1
    PIPE_V = 2
    PIPE_M = 3
    PIPE_MTE1 = 4
    PIPE_MTE2 = 5
    PIPE_MTE3 = 6
    PIPE_ALL = 10
    PIPE_FIX = 11


PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = tuple(Pipe)
"""The ``pipe_t`` constants."""
# event_t: one assignment each, as a constant's docs page reads the string right after it.
EVENT_ID0 = 0
"""``event_t`` id 0 of the eight (``EVENT_ID0`` .. ``EVENT_ID7``); a (source pipe, destination
pipe, id) triple names one flag of :func:`~ascreg.c_api.asc_sync_notify` /
:func:`~ascreg.c_api.asc_sync_wait`."""
EVENT_ID1 = 1
"""``event_t`` id 1 (see :data:`EVENT_ID0`)."""
EVENT_ID2 = 2
"""``event_t`` id 2 (see :data:`EVENT_ID0`)."""
EVENT_ID3 = 3
"""``event_t`` id 3 (see :data:`EVENT_ID0`)."""
EVENT_ID4 = 4
"""``event_t`` id 4 (see :data:`EVENT_ID0`)."""
EVENT_ID5 = 5
"""``event_t`` id 5 (see :data:`EVENT_ID0`)."""
EVENT_ID6 = 6
"""``event_t`` id 6 (see :data:`EVENT_ID0`)."""
EVENT_ID7 = 7
"""``event_t`` id 7, the last (see :data:`EVENT_ID0`)."""

EVENT_COUNT = 8
"""Event ids ``EVENT_ID0`` .. ``EVENT_ID7`` (the range the public headers use)."""
MUTEX_COUNT = 32
"""Mutex ids of ``asc_lock`` / ``asc_unlock``: 0 .. 31."""

_PIPES = tuple(p for p in Pipe if p is not Pipe.PIPE_ALL)
_UB_PIPES = (Pipe.PIPE_S, Pipe.PIPE_V, Pipe.PIPE_MTE2, Pipe.PIPE_MTE3)
"""The pipes that touch UB on a vector core (records are pruned against these)."""
COPY_PIPES = (Pipe.PIPE_MTE2, Pipe.PIPE_MTE3)
"""Pipes whose instructions (copies) may overlap one another: two copies on one of them that
touch the same bytes (one writing) need an in-pipe barrier (``asc_sync_pipe``) or a flag chain
between them. The scalar unit and a VF (complete when it returns) run in order."""
_WATCHERS = tuple(
    (q, tuple(p for p in _UB_PIPES if p is not q or q in COPY_PIPES)) for q in _UB_PIPES
)
"""For each UB pipe, the pipes whose order after it lets its records go (:meth:`PipeTracker._prune`)."""
UB = 0
"""The ``space`` of UB records (GM records use the id of their memory)."""
PAGE_BITS = 14
"""Records are filed under the ``2**PAGE_BITS``-byte (16 KiB) pages their byte range touches
(a tile of a few KiB touches one or two; a scan meets only the still unordered records of a
page)."""


@attrs.define
class Access:
    """One recorded UB access: byte range, pipe, kind and the pipe's sequence number."""

    pipe: Pipe
    start: int
    end: int
    write: bool
    seq: int
    space: int = UB
    copy: int = 0
    """Which copy made the access, on a copy pipe (the bursts of one copy do not conflict)."""
    order: int = 0
    """Position in the tracker's record order (the earliest conflicting record is reported)."""


@attrs.define
class RowsAccess(Access):
    """The accesses of one op of a batched VF loop, one row of bytes per iteration, in one record.

    ``ranks`` numbers the rows' accesses in eager order (iteration by iteration, from 1, among
    all accesses of the batch); the access of rank r would have had the sequence number
    ``base_seq + r`` and the record position ``base_order + r``. ``start`` and ``end`` span
    every row, ``seq`` is the highest sequence number and ``order`` the lowest position.
    :meth:`part` gives back the one access a check meets first, so errors and
    :attr:`PipeTracker.records` read as in eager order.

    Examples
    --------
    >>> import numpy as np
    >>> rec = RowsAccess(Pipe.PIPE_V, 0, 768, True, 3, rows=np.array([0, 256, 512]), width=256,
    ...                  ranks=np.array([1, 2, 3]))
    >>> rec.part(300, 600, 1)
    Access(pipe=<Pipe.PIPE_V: 2>, start=256, end=512, write=True, seq=2, space=0, copy=0, order=2)
    """

    rows: Any = None
    width: int = 0
    ranks: Any = None
    base_seq: int = 0
    base_order: int = 0
    which: Any = None
    """The iteration of each row, or None when the rows are every iteration in order."""
    step: int | None = None
    """Bytes between consecutive rows when constant and known."""

    def part(self, start: int, end: int, bound: int) -> Access | None:
        """Return the earliest row access after *bound* that overlaps ``[start, end)``."""
        rows, ranks = self.rows, self.ranks
        hit = (rows < end) & (rows + self.width > start) & (ranks > bound - self.base_seq)
        if not hit.any():
            return None
        k = int(np.argmin(np.where(hit, ranks, np.iinfo(np.int64).max)))
        first, rank = int(rows[k]), int(ranks[k])
        return Access(
            self.pipe, first, first + self.width, self.write, self.base_seq + rank, self.space,
            self.copy, self.base_order + rank,
        )  # fmt: skip

    def parts(self) -> list[Access]:
        """Return every row access as its own record."""
        seq, order = self.base_seq, self.base_order
        return [
            Access(
                self.pipe, r, r + self.width, self.write, seq + k, self.space, self.copy, order + k
            )
            for r, k in zip(self.rows.tolist(), self.ranks.tolist(), strict=True)
        ]


def pages_of(start: int, end: int) -> range:
    """Return the ``2**PAGE_BITS``-byte pages that bytes ``[start, end)`` touch.

    Examples
    --------
    >>> list(pages_of(16000, 16600)), list(pages_of(64, 64))
    ([0, 1], [0])
    """
    return range(start >> PAGE_BITS, ((max(end, start + 1) - 1) >> PAGE_BITS) + 1)


_ZEROS: dict[Pipe, int] = dict.fromkeys(_PIPES, 0)

_VALID_FLAGS = frozenset(
    (src, dst, event) for src in _PIPES for dst in _PIPES if src is not dst
    for event in range(EVENT_COUNT)
)  # fmt: skip


def _valid_flag(src: Any, dst: Any, event: Any) -> bool:
    """Return True for two distinct single pipes and a plain ``int`` event id in range.

    Anything else goes through :meth:`PipeTracker._check_pair`, which names what is wrong
    (an ``int`` equal to a pipe is not a pipe, so the types are compared first).
    """
    return (
        type(src) is Pipe
        and type(dst) is Pipe
        and type(event) is int
        and (src, dst, event) in _VALID_FLAGS
    )


def _raised_floor(
    clock: dict[Pipe, dict[Pipe, int]], q: Pipe, watchers: tuple[Pipe, ...], floor: int
) -> int:
    """Return the lowest of the *watchers*' clocks of *q* if it is above *floor*, else 0.

    Stops at the first watcher not past *floor* (then the lowest is not above it either).
    """
    lowest = 0
    for p in watchers:
        known = clock[p][q]
        if known <= floor:
            return 0
        if not lowest or known < lowest:
            lowest = known
    return lowest


class PipeTracker:
    """Flags, vector clocks and recorded UB accesses of one block (see the module docstring).

    ``clock[p][q]`` is the sequence number of pipe *q* up to which pipe *p* knows *q*'s work has
    completed; ``seq[q]`` counts *q*'s accesses.
    """

    def __init__(self) -> None:
        zeros = _ZEROS  # one block's tracker is made per block: copy, do not rebuild
        self.seq: dict[Pipe, int] = zeros.copy()
        self.clock: dict[Pipe, dict[Pipe, int]] = {p: zeros.copy() for p in _PIPES}
        self.flags: dict[tuple[Pipe, Pipe, int], list[dict[Pipe, int]]] = {}
        # Per pipe: (space, page) -> that pipe's records touching the page, oldest first.
        self.pages: dict[Pipe, dict[tuple[int, int], list[Access]]] = {p: {} for p in _PIPES}
        self.floor: dict[Pipe, int] = zeros.copy()
        """The sequence number of each pipe up to which its records are dropped (every pipe is past
        them)."""
        self.last: Access | None = None
        self.count = 0
        self.active: list[Pipe] = []
        """The pipes that have made an access (the others have no records to check)."""
        self.copies: dict[Pipe, int] = dict.fromkeys(COPY_PIPES, 0)
        self.copy_seq: dict[Pipe, int] = dict.fromkeys(COPY_PIPES, 0)
        """The sequence number of each copy pipe when its current copy began (its records
        after that number belong to the current copy)."""
        self.stale: set[Pipe] = set()
        """The pipes whose watchers' clocks of them rose since records were last pruned."""
        # Mutexes locked and not yet unlocked: id -> (pipe, blocking mode); and per mutex id,
        # what every asc_unlock so far had completed (merged clocks).
        self.held: dict[int, tuple[Pipe, bool]] = {}
        self.released: dict[int, dict[Pipe, int]] = {}

    # -- flags -----------------------------------------------------------------------------

    def notify(self, src: Pipe, dst: Pipe, event: int) -> None:
        """``set_flag(src, dst, event)``: *dst* may go on once *src*'s work so far is done."""
        if not _valid_flag(src, dst, event):
            self._check_pair(src, dst, event)
        self.flags.setdefault((src, dst, event), []).append(self.token(src))

    def token(self, src: Pipe) -> dict[Pipe, int]:
        """Return what *src* has done so far, for a later :meth:`acquire` (a flag with no id).

        The basic API's queues (``EnQue`` / ``DeQue``, ``FreeTensor`` / ``AllocTensor``) set and
        wait such flags with event ids of their own, outside ``EVENT_ID0`` .. ``EVENT_ID7``.

        Examples
        --------
        >>> t = PipeTracker()
        >>> t.access(Pipe.PIPE_MTE2, 0, 32, write=True)
        >>> done = t.token(Pipe.PIPE_MTE2)
        >>> t.acquire(Pipe.PIPE_V, done)
        >>> t.access(Pipe.PIPE_V, 0, 32, write=False)
        """
        known = dict(self.clock[src])
        known[src] = self.seq[src]
        return known

    def acquire(self, dst: Pipe, known: dict[Pipe, int]) -> None:
        """Order *dst* after the work a :meth:`token` recorded (the wait half of a flag)."""
        mine = self.clock[dst]
        for pipe, value in known.items():
            if value > mine[pipe]:
                mine[pipe] = value
                self.stale.add(pipe)
        self._prune()

    def wait(self, src: Pipe, dst: Pipe, event: int) -> None:
        """``wait_flag(src, dst, event)``: consume the oldest matching flag or report a hang."""
        if not _valid_flag(src, dst, event):
            self._check_pair(src, dst, event)
        pending = self.flags.get((src, dst, event))
        if not pending:
            raise SyncError(
                f"wait for flag ({src.name} -> {dst.name}, EVENT_ID{event}) that no earlier "
                "notify set: the kernel would hang on the chip"
            )
        self.acquire(dst, pending.pop(0))

    def barrier(self) -> None:
        """``pipe_barrier(PIPE_ALL)``: every pipe's work so far completes before anything else."""
        for mine in self.clock.values():
            mine.update(self.seq)
        self.floor.update(self.seq)
        for pages in self.pages.values():
            pages.clear()
        self.last = None

    def pipe_barrier(self, pipe: Pipe) -> None:
        """``pipe_barrier(pipe)`` / ``asc_sync_pipe(pipe)``: order *pipe*'s work so far first.

        Its next instruction starts after them (this orders two copies on one pipe).
        """
        self.clock[pipe][pipe] = self.seq[pipe]
        self.stale.add(pipe)
        self._prune()

    def begin_copy(self, pipe: Pipe) -> None:
        """Start a new copy on *pipe*: its accesses are one unit for the same-pipe check."""
        self.copies[pipe] += 1
        self.copy_seq[pipe] = self.seq[pipe]

    def complete(self, src: Pipe, dst: Pipe) -> None:
        """Order all of *src*'s work so far before *dst* (a VF returning to the scalar unit)."""
        mine = self.clock[dst]
        if self.seq[src] > mine[src]:
            mine[src] = self.seq[src]
            self.stale.add(src)

    # -- mutexes (asc_lock / asc_unlock, dav-3510) ------------------------------------------

    def lock(self, pipe: Pipe, mutex: int, *, blocking: bool = True) -> None:
        """``asc_lock(pipe, id)``: a blocking lock orders *pipe* after every earlier unlock of id.

        Locks of one id are strictly paired with unlocks and never nest.
        """
        self._check_mutex(pipe, mutex)
        if mutex in self.held:
            other, _ = self.held[mutex]
            raise SyncError(
                f"asc_lock({pipe.name}, {mutex}) while mutex {mutex} is still locked by "
                f"asc_lock({other.name}, {mutex}): lock/unlock pairs of one id must not nest"
            )
        self.held[mutex] = (pipe, blocking)
        if blocking:
            mine = self.clock[pipe]
            for other, value in self.released.get(mutex, {}).items():
                if value > mine[other]:
                    mine[other] = value
                    self.stale.add(other)
            self._prune()

    def unlock(self, pipe: Pipe, mutex: int, *, blocking: bool = True) -> None:
        """``asc_unlock(pipe, id)``: release the mutex once *pipe*'s work so far is done."""
        self._check_mutex(pipe, mutex)
        if mutex not in self.held:
            raise SyncError(
                f"asc_unlock({pipe.name}, {mutex}) without an earlier asc_lock of mutex {mutex} "
                "(lock and unlock are strictly paired, the lock first)"
            )
        if self.held[mutex][1] != blocking:
            raise SyncError(
                f"asc_unlock of mutex {mutex} uses another mode than its asc_lock (a pair "
                "must use the same ascMutexExecuteMode)"
            )
        del self.held[mutex]
        done = self.released.setdefault(mutex, dict.fromkeys(_PIPES, 0))
        for other, value in (*self.clock[pipe].items(), (pipe, self.seq[pipe])):
            done[other] = max(done[other], value)

    def held_mutexes(self) -> list[str]:
        """Describe the mutexes locked and never unlocked."""
        return [f"asc_lock({pipe.name}, {mutex})" for mutex, (pipe, _) in self.held.items()]

    @staticmethod
    def _check_mutex(pipe: Pipe, mutex: int) -> None:
        if not isinstance(pipe, Pipe) or pipe is Pipe.PIPE_ALL:
            raise SyncError(f"{pipe!r} is not a single pipe (PIPE_S, PIPE_V, PIPE_MTE2, ...)")
        if isinstance(mutex, bool) or not isinstance(mutex, int) or not 0 <= mutex < MUTEX_COUNT:
            raise SyncError(f"mutex id {mutex!r} is outside [0, {MUTEX_COUNT - 1}]")

    def pending_flags(self) -> list[str]:
        """Describe the flags set but never waited for."""
        return [
            f"({s.name} -> {d.name}, EVENT_ID{e}) x{len(v)}"
            for (s, d, e), v in self.flags.items()
            if v
        ]

    @staticmethod
    def _check_pair(src: Pipe, dst: Pipe, event: int) -> None:
        for pipe in (src, dst):
            if not isinstance(pipe, Pipe) or pipe is Pipe.PIPE_ALL:
                raise SyncError(f"{pipe!r} is not a single pipe (PIPE_S, PIPE_V, PIPE_MTE2, ...)")
        if src is dst:
            raise SyncError(f"a flag from {src.name} to itself orders nothing; use a barrier")
        if not isinstance(event, int) or not 0 <= event < EVENT_COUNT:
            raise SyncError(f"event id {event!r} is outside EVENT_ID0..EVENT_ID{EVENT_COUNT - 1}")

    # -- accesses --------------------------------------------------------------------------

    def access(self, pipe: Pipe, start: int, end: int, *, write: bool, space: int = UB) -> None:
        """Record an access by *pipe* to bytes ``[start, end)`` of *space* after checking it.

        An earlier access conflicts when it overlaps (same space, one of the two a write), is
        not ordered before *pipe* by a flag chain or barrier, and came from another pipe, or
        from another copy on the same copy pipe (:data:`COPY_PIPES`).
        """
        copy = self.copies.get(pipe, 0)
        conflict = self._earliest_conflict(pipe, start, end, write, space, copy)
        if conflict is not None:
            raise SyncError(self._hazard(conflict, pipe, start, end, write))
        self._record(pipe, start, end, write, space, copy)

    def _earliest_conflict(
        self, pipe: Pipe, start: int, end: int, write: bool, space: int, copy: int
    ) -> Access | None:
        """Return the earliest record the access would conflict with, or None."""
        known = self.clock[pipe]
        seq, floor = self.seq, self.floor
        conflict: Access | None = None
        for other in self.active:
            bound, lowest = known[other], floor[other]
            if lowest > bound:
                bound = lowest
            if seq[other] <= bound:
                continue
            # on its own pipe, only records of earlier copies count: those after copy_seq are
            # all of this copy (only begin_copy changes the copy a record carries)
            if other is pipe and (not copy or bound >= self.copy_seq[pipe]):
                continue
            found = self._conflict(other, bound, start, end, write, space, copy, other is pipe)
            if found is not None and (conflict is None or found.order < conflict.order):
                conflict = found
        return conflict

    def access_rows(self, pipe: Pipe, groups: list[RowsAccess]) -> bool:
        """Check and record at once the accesses of a batched loop on *pipe*; False if unsure.

        Each group is one op's accesses (:class:`RowsAccess`, its ``ranks`` counted from 1
        within the batch in eager order, ``seq`` and ``order`` its highest and lowest rank). *pipe* is not a copy pipe, so its own records
        never conflict with it, and no flag, wait or barrier runs between the accesses: each
        eager access would be checked against the same records of the other pipes with the same
        bounds. An access conflicts only with records overlapping its bytes, so when the span of
        every group (``start`` .. ``end``, covering all its rows) is free of conflicts, every
        access in it is too. Otherwise (a conflict, or a record the first access would merge
        with) this returns False and records nothing: the caller runs the loop eagerly, whose
        checks then raise the exact error of the first hazardous access.
        """
        if pipe in self.copies:
            return False
        if not self._ordered_after_all(pipe):
            for group in groups:
                if self._earliest_conflict(pipe, group.start, group.end, group.write, UB, 0):
                    return False
        last = self.last
        if last is not None and last.pipe is pipe:
            first = min(groups, key=lambda g: g.order)
            k = int(np.argmin(first.ranks))
            if (
                last.write == first.write
                and last.start == int(first.rows[k])
                and last.end == int(first.rows[k]) + first.width
            ):
                return False  # eager order would extend that record
        total = sum(int(g.rows.size) for g in groups)
        base_seq, base_order = self.seq[pipe], self.count
        if not base_seq:
            self.active.append(pipe)
        self.seq[pipe] += total
        self.count += total
        self.last = None
        if any(a.seq > b.seq for a, b in itertools.pairwise(groups)):
            groups = sorted(groups, key=lambda g: g.seq)
        for group in groups:
            group.pipe, group.space, group.copy = pipe, UB, 0
            group.base_seq, group.base_order = base_seq, base_order
            group.seq += base_seq
            group.order += base_order
            self._file(group)
        return True

    def _ordered_after_all(self, pipe: Pipe) -> bool:
        """Return True when every record of the other pipes is ordered before *pipe*.

        Then no access of *pipe* (not a copy pipe) can conflict, whatever its bytes: this is
        the test :meth:`_earliest_conflict` makes first for each pipe.
        """
        known, seq, floor = self.clock[pipe], self.seq, self.floor
        return all(
            other is pipe or seq[other] <= known[other] or seq[other] <= floor[other]
            for other in self.active
        )

    def _record(self, pipe: Pipe, start: int, end: int, write: bool, space: int, copy: int) -> None:
        """File the access under its pipe and pages (or extend the identical last record)."""
        seq = self.seq
        if not seq[pipe]:
            self.active.append(pipe)
        seq[pipe] += 1
        last = self.last
        if (
            last is not None
            and last.pipe is pipe
            and last.start == start
            and last.end == end
            and last.write == write
            and last.space == space
        ):
            last.seq, last.copy = seq[pipe], copy
            return
        self.count += 1
        self.last = rec = Access(pipe, start, end, write, seq[pipe], space, copy, self.count)
        self._file(rec)

    def _file(self, rec: Access) -> None:
        """File *rec* under the pages its bytes touch."""
        pages, lowest, space = self.pages[rec.pipe], self.floor[rec.pipe], rec.space
        for page in pages_of(rec.start, rec.end):
            filed = pages.get((space, page))
            if filed is None:
                pages[space, page] = [rec]
                continue
            if filed[0].seq <= lowest:  # drop what every pipe is already past
                filed[:] = [r for r in filed if r.seq > lowest]
            filed.append(rec)

    def _conflict(
        self,
        other: Pipe,
        bound: int,
        start: int,
        end: int,
        write: bool,
        space: int,
        copy: int,
        same: bool,
    ) -> Access | None:
        """Return *other*'s earliest record after *bound* that the access conflicts with.

        *same*: *other* is the accessing (copy) pipe, whose records of this copy do not count.
        """
        pages = self.pages[other]
        found: Access | None = None
        for page in pages_of(start, end):
            for rec in reversed(pages.get((space, page), ())):
                if rec.seq <= bound:
                    break
                if (
                    (write or rec.write)
                    and rec.start < end
                    and start < rec.end
                    and (not same or rec.copy != copy)
                    and (found is None or rec.order < found.order)
                ):
                    if isinstance(rec, RowsAccess):
                        part = rec.part(start, end, bound)
                        if part is None or (found is not None and part.order >= found.order):
                            continue
                        rec = part
                    found = rec
        return found

    def checkpoint(self) -> tuple[Any, ...]:
        """Return what recording accesses changes, for :meth:`restore` (no flags or waits between).

        Examples
        --------
        >>> t = PipeTracker(); state = t.checkpoint()
        >>> t.access(Pipe.PIPE_V, 0, 256, write=True); t.restore(state); t.records
        []
        """
        last = self.last
        mutable = None if last is None else (last.seq, last.copy)
        return dict(self.seq), self.count, last, mutable, list(self.active)

    def restore(self, state: tuple[Any, ...]) -> None:
        """Drop the accesses recorded since :meth:`checkpoint` returned *state*."""
        seq, count, last, mutable, active = state
        self.seq, self.count, self.last, self.active = seq, count, last, active
        if last is not None:
            last.seq, last.copy = mutable
        for pages in self.pages.values():
            for key, filed in list(pages.items()):
                while filed and filed[-1].order > count:
                    filed.pop()
                if not filed:
                    del pages[key]

    @property
    def records(self) -> list[Access]:
        """The records not yet dropped, in the order they were made."""
        unique = {id(r): r for pages in self.pages.values() for f in pages.values() for r in f}
        split = [
            p for r in unique.values() for p in (r.parts() if isinstance(r, RowsAccess) else [r])
        ]
        kept = [r for r in split if r.seq > self.floor[r.pipe]]
        return sorted(kept, key=lambda r: r.order)

    @staticmethod
    def _hazard(rec: Access, pipe: Pipe, start: int, end: int, write: bool) -> str:
        lo, hi = max(rec.start, start), min(rec.end, end)
        what = "writes" if write else "reads"
        earlier = "wrote" if rec.write else "read"
        where = "UB" if rec.space == UB else "GM"
        if rec.pipe is pipe:
            return (
                f"a {pipe.name} copy {what} {where} [{start:#x}, {end:#x}) that an earlier "
                f"{pipe.name} copy {earlier} (overlap [{lo:#x}, {hi:#x})) with no ordering "
                f"between the two: copies on one pipe may overlap on the chip; insert "
                f"asc_sync_pipe({pipe.name}) (PipeBarrier<{pipe.name}>) between them, or a "
                "PIPE_ALL barrier"
            )
        return (
            f"{pipe.name} {what} {where} [{start:#x}, {end:#x}) that {rec.pipe.name} {earlier} "
            f"(overlap [{lo:#x}, {hi:#x})) with no synchronisation between them: insert "
            f"asc_sync_notify/asc_sync_wait({rec.pipe.name}, {pipe.name}, EVENT_IDn) "
            "(SetFlag/WaitFlag) or a PIPE_ALL barrier"
        )

    def _prune(self) -> None:
        """Drop records every other pipe is already ordered after.

        Only a pipe in :attr:`stale` can have a new floor: the floor is the lowest of the
        watchers' clocks of it, and clocks only rise (:meth:`barrier` sets floors directly).
        """
        clock, stale = self.clock, self.stale
        if not stale:
            return
        floor = self.floor
        for q, watchers in _WATCHERS:
            if q not in stale:
                continue
            lowest = _raised_floor(clock, q, watchers, floor[q])
            if lowest:
                floor[q] = lowest
                if lowest >= self.seq[q]:
                    self.pages[q].clear()
                    if self.last is not None and self.last.pipe is q:
                        self.last = None
        stale.clear()

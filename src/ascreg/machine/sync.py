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
  the chip;
* the scalar unit dispatches every other pipe's instructions in program order, and a wait on
  ``PIPE_S`` blocks it: an instruction of any pipe issued after ``wait_flag(V, S)`` runs after
  V's work before the flag (``V -> S`` then ``S -> MTE3`` is transitive,
  ``PipeTracker._dispatch``).
  The scalar unit's *own* accesses are not ordered before a later instruction of another pipe
  (a scalar store followed by a VF or a copy that reads it needs ``S_V`` / ``S_MTE3``), nor is
  a VF or SIMT function complete when the scalar code after its call runs (``V_S``).

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

import bisect
import enum
import operator
from typing import Any, ClassVar

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
between them. The scalar unit's accesses run in order, and so do a VF's (PIPE_V's single-pipe
order is guaranteed by the hardware on dav-3510)."""
_WATCHERS = tuple(
    (q, tuple(p for p in _UB_PIPES if p is not q or q in COPY_PIPES)) for q in _UB_PIPES
)
"""For each UB pipe, the pipes whose order after it lets its records go (:meth:`PipeTracker._prune`)."""
_WATCHERS_OF = dict(_WATCHERS)
UB = 0
"""The ``space`` of UB records (GM records use the id of their memory)."""
SPACE_NAMES: dict[int, str] = {UB: "UB"}
"""How a hazard message names a record's space (the cube buffers add theirs); others are GM."""
LOG_SCAN = 16
"""A conflict scan reads at most this many records of a pipe's log after the bound before it
files the log under its pages (:meth:`PipeTracker._conflict`)."""
PAGE_BITS = 14
"""Records are filed under the ``2**PAGE_BITS``-byte (16 KiB) pages their byte range touches
(a tile of a few KiB touches one or two; a scan meets only the still unordered records of a
page)."""


class Access:
    """One recorded UB access: byte range, pipe, kind and the pipe's sequence number.

    A plain ``__slots__`` class compared and printed as a record of its fields (the tracker
    makes one per access; :class:`RowsAccess` adds the rows of a batched loop's op).
    """

    __slots__ = ("copy", "end", "order", "pipe", "seq", "space", "start", "write")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "pipe", "start", "end", "write", "seq", "space", "copy", "order",
    )  # fmt: skip
    """The fields in their constructor order (what :meth:`__repr__` and ``==`` read)."""

    def __init__(
        self,
        pipe: Pipe,
        start: int,
        end: int,
        write: bool,
        seq: int,
        space: int = UB,
        copy: int = 0,
        order: int = 0,
    ) -> None:
        self.pipe = pipe
        self.start = start
        self.end = end
        self.write = write
        self.seq = seq
        self.space = space
        self.copy = copy
        """Which copy made the access, on a copy pipe (the bursts of one copy do not conflict)."""
        self.order = order
        """Position in the tracker's record order (the earliest conflicting record is reported)."""

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Access)
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable: the last record is extended


class RowsAccess(Access):
    """The accesses of one op of a batched VF loop, one row of bytes per iteration, in one record.

    ``ranks`` numbers the rows' accesses in eager order (iteration by iteration, from 1, among
    all accesses of the batch); logged after a pipe's sequence number ``base_seq`` and the
    record count ``base_order`` (its :class:`LoopAccess`'s record holds them), the access of
    rank r has the sequence number ``base_seq + r`` and the record position ``base_order + r``.
    ``start`` and ``end`` span every row, ``seq`` is the highest rank and ``order`` the lowest.
    :meth:`part` gives back the one access a check meets first, so errors and
    :attr:`PipeTracker.records` read as in eager order.

    Two accesses in a row that touch the same bytes the same way are one record in eager order
    (the later extends the earlier: :meth:`PipeTracker.access`). ``merged`` marks the rows that
    the next access extended (None: none), and ``orders`` gives each row its record's position
    (None: its rank); an extending row has the position of the row it extends.

    Examples
    --------
    >>> import numpy as np
    >>> rec = RowsAccess(Pipe.PIPE_V, 0, 768, True, 3, rows=np.array([0, 256, 512]), width=256,
    ...                  ranks=np.array([1, 2, 3]))
    >>> rec.part(300, 600, 1)
    Access(pipe=<Pipe.PIPE_V: 2>, start=256, end=512, write=True, seq=2, space=0, copy=0, order=2)
    """

    __slots__ = ("merged", "orders", "ranks", "rows", "step", "which", "width")
    FIELDS = (*Access.FIELDS, "rows", "width", "ranks", "which", "step", "orders", "merged")

    def __init__(
        self,
        pipe: Pipe,
        start: int,
        end: int,
        write: bool,
        seq: int,
        space: int = UB,
        copy: int = 0,
        order: int = 0,
        *,
        rows: Any = None,
        width: int = 0,
        ranks: Any = None,
        which: Any = None,
        step: int | None = None,
    ) -> None:
        super().__init__(pipe, start, end, write, seq, space, copy, order)
        self.rows = rows
        self.width = width
        self.ranks = ranks
        self.which = which
        """The iteration of each row, or None when the rows are every iteration in order."""
        self.step = step
        """Bytes between consecutive rows when constant and known."""
        self.orders: Any = None
        self.merged: Any = None

    def part(
        self, start: int, end: int, bound: int, base_seq: int = 0, base_order: int = 0
    ) -> Access | None:
        """Return the earliest row access after *bound* that overlaps ``[start, end)``.

        The rows are numbered after *base_seq* and *base_order* (see the class docstring).
        """
        rows, ranks = self.rows, self.ranks
        hit = (rows < end) & (rows + self.width > start) & (ranks > bound - base_seq)
        if self.merged is not None:
            hit &= ~self.merged
        if not hit.any():
            return None
        k = int(np.argmin(np.where(hit, ranks, np.iinfo(np.int64).max)))
        first, rank = int(rows[k]), int(ranks[k])
        order = rank if self.orders is None else int(self.orders[k])
        return Access(
            self.pipe, first, first + self.width, self.write, base_seq + rank, self.space,
            self.copy, base_order + order,
        )  # fmt: skip

    def parts(self, base_seq: int = 0, base_order: int = 0) -> list[Access]:
        """Return every row access as its own record, numbered after *base_seq*, *base_order*."""
        pipe, width, write, space, copy = self.pipe, self.width, self.write, self.space, self.copy
        orders = self.ranks if self.orders is None else self.orders
        kept = slice(None) if self.merged is None else ~self.merged
        return [
            Access(pipe, r, r + width, write, base_seq + k, space, copy, base_order + o)
            for r, k, o in zip(
                self.rows[kept].tolist(), self.ranks[kept].tolist(), orders[kept].tolist(),
                strict=True,
            )
        ]  # fmt: skip

    @property
    def records(self) -> int:
        """How many records of eager order the rows are (the accesses less the merged ones)."""
        return int(self.rows.size if self.merged is None else self.rows.size - self.merged.sum())


class LoopAccess(Access):
    """The accesses of one batched VF loop on one pipe: a group per op, numbered from 0.

    Each group (:class:`RowsAccess`) ranks its rows among all of the loop's accesses. ``start``
    and ``end`` span every group, ``write`` says whether any group writes, ``seq`` is the
    highest rank and ``order`` the lowest. The tracker logs the loop numbered after the
    accesses before it (``base_seq``: the pipe's sequence number, ``base_order``: the record
    count); the groups are shared and never changed: a VF called once per tile gives the same
    ones every call.

    Examples
    --------
    >>> import numpy as np
    >>> load = RowsAccess(Pipe.PIPE_V, 0, 512, False, 3, 0, 0, 1, rows=np.array([0, 256]),
    ...                   width=256, ranks=np.array([1, 3]))
    >>> store = RowsAccess(Pipe.PIPE_V, 1024, 1536, True, 4, 0, 0, 2,
    ...                    rows=np.array([1024, 1280]), width=256, ranks=np.array([2, 4]))
    >>> loop = LoopAccess([load, store])
    >>> loop.start, loop.end, loop.seq, loop.order, loop.part(0, 2048, 12, False, 10, 20).start
    (0, 1536, 4, 1, 1280)
    """

    __slots__ = ("groups", "records", "total")
    FIELDS = (*Access.FIELDS, "groups")

    def __init__(self, groups: list[RowsAccess]) -> None:
        first = groups[0]
        super().__init__(first.pipe, first.start, first.end, first.write, first.seq, UB, 0,
                         first.order)  # fmt: skip
        for group in groups:
            self.start = min(self.start, group.start)
            self.end = max(self.end, group.end)
            self.write = self.write or group.write
            self.seq, self.order = max(self.seq, group.seq), min(self.order, group.order)
        self.groups = groups
        self.total = sum(group.rows.size for group in groups)
        """How many accesses the groups hold."""
        self.records = sum(group.records for group in groups)
        """How many records eager order would make of them (see :class:`RowsAccess`)."""

    def part(
        self, start: int, end: int, bound: int, write: bool, base_seq: int, base_order: int
    ) -> Access | None:
        """Return the earliest access after *bound* that conflicts with ``[start, end)``.

        *write*: the checking access writes (else only the written rows could conflict); the
        rows are numbered after *base_seq* and *base_order*.
        """
        found: Access | None = None
        for group in self.groups:
            if (write or group.write) and group.start < end and start < group.end:
                part = group.part(start, end, bound, base_seq, base_order)
                if part is not None and (found is None or part.order < found.order):
                    found = part
        return found

    def parts(self, base_seq: int, base_order: int) -> list[Access]:
        """Return every row access of every group as its own record."""
        return [p for g in self.groups for p in g.parts(base_seq, base_order)]


Record = tuple[Any, ...]
"""A record of the tracker: ``(pipe, start, end, write, seq, space, copy, order, loop)``, the
fields of an :class:`Access` (a tuple: one is made per access), and ``loop`` None, or for the
accesses of a batched loop ``(LoopAccess, base_seq, base_order)`` (the other fields span
them, numbered after the bases)."""
_PIPE, _START, _END, _WRITE, _SEQ, _SPACE, _COPY, _ORDER, _LOOP = range(9)
"""The fields of a :data:`Record`."""
_BY_SEQ = operator.itemgetter(_SEQ)


def _as_access(rec: Record) -> Access:
    """Return the :class:`Access` of a record of one access."""
    return Access(*rec[:_LOOP])


def pages_of(start: int, end: int) -> range:
    """Return the ``2**PAGE_BITS``-byte pages that bytes ``[start, end)`` touch.

    Examples
    --------
    >>> list(pages_of(16000, 16600)), list(pages_of(64, 64))
    ([0, 1], [0])
    """
    return range(start >> PAGE_BITS, ((end - 1 if end > start else start) >> PAGE_BITS) + 1)


_ZEROS: dict[Pipe, int] = dict.fromkeys(_PIPES, 0)

_VALID_FLAGS = frozenset(
    (src, dst, event) for src in _PIPES for dst in _PIPES if src is not dst
    for event in range(EVENT_COUNT)
)  # fmt: skip
"""The flags of two distinct single pipes and an event id in range. A flag is valid when it is
one of these *and* its pipes are ``Pipe`` members and its id an ``int`` (an ``int`` equal to a
pipe is not a pipe); anything else goes through :meth:`PipeTracker._check_pair`, which names
what is wrong."""


def _merged_spans(groups: list[RowsAccess]) -> list[tuple[bool, int, int]]:
    """Return the union of the groups' spans, reads and writes apart, as disjoint intervals.

    Spans of one kind that overlap or touch merge into one; every byte of a merged span lies
    in the span of one of its groups, so a record overlaps the merged span exactly when it
    overlaps one of theirs (a batched loop's groups are one op's accesses each: a row loop over
    a tile makes one span of each kind, however many ops it has).

    Examples
    --------
    >>> g = [RowsAccess(Pipe.PIPE_V, s, e, w, 1) for s, e, w in
    ...      [(0, 256, False), (128, 512, False), (512, 600, False), (700, 800, False),
    ...       (0, 64, True)]]
    >>> _merged_spans(g)
    [(False, 0, 600), (False, 700, 800), (True, 0, 64)]
    """
    merged: list[tuple[bool, int, int]] = []
    for write, start, end in sorted((g.write, g.start, g.end) for g in groups):
        if merged and merged[-1][0] == write and start <= merged[-1][2]:
            if end > merged[-1][2]:
                merged[-1] = (write, merged[-1][1], end)
            continue
        merged.append((write, start, end))
    return merged


def _earlier(
    rec: Record,
    found: Access | None,
    start: int,
    end: int,
    write: bool,
    copy: int,
    same: bool,
    bound: int,
) -> Access | None:
    """Return the earlier of *found* and *rec*'s access after *bound* conflicting with the access.

    The access is ``[start, end)`` of the record's space (a write if *write*); *same*: *rec* is
    of the accessing copy pipe, whose records of the current *copy* do not count. For a batched
    loop's record, the row access a check meets first.
    """
    if not (
        (write or rec[_WRITE])
        and (not same or rec[_COPY] != copy)
        and (found is None or rec[_ORDER] < found.order)
    ):
        return found
    loop = rec[_LOOP]
    if loop is None:
        return _as_access(rec)
    part: Access | None = loop[0].part(start, end, bound, write, loop[1], loop[2])
    if part is None or (found is not None and part.order >= found.order):
        return found
    return part


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
        # Per pipe: its newest records, oldest first, not yet filed under their pages; and
        # (space, page) -> its older records touching the page, oldest first. Every filed
        # record is older than every logged one, so a scan that meets a record the accessing
        # pipe is ordered after in the log has nothing left to see in the pages.
        self.logs: dict[Pipe, list[Record]] = {p: [] for p in _PIPES}
        self.pages: dict[Pipe, dict[tuple[int, int], list[Record]]] = {p: {} for p in _PIPES}
        self.hulls: dict[Pipe, dict[int, list[int]]] = {p: {} for p in _PIPES}
        """Per pipe and space, ``[low, high)`` bytes holding every logged record of that space
        (maybe more): a scan of the log for an access outside them has nothing to find."""
        self.filed: dict[Pipe, int] = zeros.copy()
        """The highest sequence number of each pipe's filed records, 0 when there are none."""
        self.floor: dict[Pipe, int] = zeros.copy()
        """The sequence number of each pipe up to which its records are dropped (every pipe is past
        them)."""
        self.last: Record | None = None
        self.count = 0
        self.active: list[Pipe] = []
        """The pipes that have made an access (the others have no records to check)."""
        self.copies: dict[Pipe, int] = dict.fromkeys(COPY_PIPES, 0)
        self.copy_seq: dict[Pipe, int] = dict.fromkeys(COPY_PIPES, 0)
        """The sequence number of each copy pipe when its current copy began (its records
        after that number belong to the current copy)."""
        self.stale: set[Pipe] = set()
        """The pipes whose floors may have risen since records were last pruned."""
        self.lagging: dict[Pipe, Pipe] = {}
        """Per pipe, a watcher whose clock of it was at its floor when last looked at; the
        floor cannot rise before that clock does (a rise of another watcher's leaves it)."""
        self.clear: Pipe | None = None
        """A pipe found ordered after every record of the other pipes (and, on a copy pipe,
        after its own records of earlier copies) by its last check, when nothing since could
        have changed that: only another pipe's access, or a new copy on the pipe itself, can
        (clocks and floors only rise). Its next accesses skip the conflict check."""
        # Mutexes locked and not yet unlocked: id -> (pipe, blocking mode); and per mutex id,
        # what every asc_unlock so far had completed (merged clocks).
        self.held: dict[int, tuple[Pipe, bool]] = {}
        self.released: dict[int, dict[Pipe, int]] = {}
        self.scalar_waits = 0
        """How many times the scalar pipe's clock rose (its waits), which ``_dispatch`` merges."""
        self.dispatched: dict[Pipe, int] = zeros.copy()
        """Per pipe, the ``scalar_waits`` count at which its clock last took the scalar pipe's."""

    # -- flags -----------------------------------------------------------------------------

    def notify(self, src: Pipe, dst: Pipe, event: int) -> None:
        """``set_flag(src, dst, event)``: *dst* may go on once *src*'s work so far is done."""
        flag = (src, dst, event)
        if not (type(src) is type(dst) is Pipe and type(event) is int and flag in _VALID_FLAGS):
            self._check_pair(src, dst, event)  # names what is wrong (see _VALID_FLAGS)
        if self.dispatched[src] != self.scalar_waits:
            self._dispatch(src)
        known = dict(self.clock[src])  # self.token(src), inline: flags are hot
        known[src] = self.seq[src]
        pending = self.flags.get(flag)
        if pending is None:
            self.flags[flag] = [known]
        else:
            pending.append(known)

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
        self._order_after(dst, known, known)

    def _dispatch(self, pipe: Pipe) -> None:
        """Order *pipe* after what the scalar unit waited for before it issued *pipe*'s work.

        The scalar unit issues every instruction in program order and stops at a wait on
        ``PIPE_S`` (asc-devkit ``docs/zh/guide/编程指南/高级编程/硬件实现/基本架构.md``,
        "典型的指令流": other instructions are dispatched by the Scalar unit into their queues;
        a WaitFlag blocks its queue's later instructions), so whatever it waited for is done
        before any later instruction of any pipe runs: the scalar pipe's clock (which knows its
        own accesses only as far as a flag chain brought them back to it) is merged in. Its
        other accesses are not ordered (a scalar store, then a copy of it, needs ``S_MTE3``).

        Examples
        --------
        >>> t = PipeTracker()
        >>> t.access(Pipe.PIPE_V, 0, 32, write=True)
        >>> t.notify(Pipe.PIPE_V, Pipe.PIPE_S, 0); t.wait(Pipe.PIPE_V, Pipe.PIPE_S, 0)
        >>> t.access(Pipe.PIPE_MTE3, 0, 32, write=False)  # issued after the wait: ordered
        """
        if pipe is not Pipe.PIPE_S:
            self.dispatched[pipe] = self.scalar_waits
            self._order_after(pipe, self.clock[Pipe.PIPE_S], _PIPES)

    def _order_after(self, dst: Pipe, known: dict[Pipe, int], pipes: Any) -> None:
        """Raise *dst*'s clocks of *pipes* to what *known* says of them, then prune.

        When *pipes* is :attr:`active` and *dst* is then ordered after all their records (its
        own too, on a copy pipe), it becomes :attr:`clear`: the test of
        :meth:`_earliest_conflict`, made here in the same pass.
        """
        if dst is Pipe.PIPE_S:
            self.scalar_waits += 1
        mine, stale, seq, floor = self.clock[dst], self.stale, self.seq, self.floor
        lagging = self.lagging
        ordered = True
        for pipe in pipes:
            value, bound = known[pipe], mine[pipe]
            if value > bound:
                mine[pipe] = bound = value
                lag = lagging.get(pipe)  # self._rose(pipe, dst), inline
                if lag is None or lag is dst:
                    stale.add(pipe)
            done = seq[pipe]
            if done > bound and done > floor[pipe] and (pipe is not dst or dst in self.copies):
                ordered = False
        if ordered and pipes is self.active:
            self.clear = dst
        if stale:
            self._prune()

    def wait(self, src: Pipe, dst: Pipe, event: int) -> None:
        """``wait_flag(src, dst, event)``: consume the oldest matching flag or report a hang."""
        flag = (src, dst, event)
        if not (type(src) is type(dst) is Pipe and type(event) is int and flag in _VALID_FLAGS):
            self._check_pair(src, dst, event)
        pending = self.flags.get(flag)
        if not pending:
            raise SyncError(
                f"wait for flag ({src.name} -> {dst.name}, EVENT_ID{event}) that no earlier "
                "notify set: the kernel would hang on the chip"
            )
        # a token of this tracker's own notify knows 0 of a pipe that has made no access yet
        # (an access is what raises a sequence number), so only the active pipes can rise
        self._order_after(dst, pending.pop(0), self.active)

    def barrier(self) -> None:
        """``pipe_barrier(PIPE_ALL)``: every pipe's work so far completes before anything else."""
        for mine in self.clock.values():
            mine.update(self.seq)
        self.floor.update(self.seq)  # (every watcher is at every floor: a lagging one still is)
        for pages in self.pages.values():
            pages.clear()
        for log in self.logs.values():
            log.clear()
        for hulls in self.hulls.values():
            hulls.clear()
        self.last = None

    def pipe_barrier(self, pipe: Pipe) -> None:
        """``pipe_barrier(pipe)`` / ``asc_sync_pipe(pipe)``: order *pipe*'s work so far first.

        Its next instruction starts after them (this orders two copies on one pipe).
        """
        self.clock[pipe][pipe] = self.seq[pipe]
        self._rose(pipe, pipe)
        self._prune()

    def begin_copy(self, pipe: Pipe) -> None:
        """Start a new copy on *pipe*: its accesses are one unit for the same-pipe check."""
        self.copies[pipe] += 1
        done = self.copy_seq[pipe] = self.seq[pipe]
        # its records of the copy before are now an earlier copy's: still clear if it is
        # ordered after all of them
        if self.clear is pipe and done > self.clock[pipe][pipe] and done > self.floor[pipe]:
            self.clear = None

    def complete(self, src: Pipe, dst: Pipe) -> None:
        """Order all of *src*'s work so far before *dst* (a VF returning to the scalar unit)."""
        mine = self.clock[dst]
        if self.seq[src] > mine[src]:
            mine[src] = self.seq[src]
            self._rose(src, dst)

    def vf_boundary(self, entering: bool) -> None:
        """Mark a VF starting (*entering*) or returning: no ordering, a note for pipe observers.

        The call orders nothing (the scalar code around a VF synchronises with flags); a
        tracker that records a timeline (:mod:`ascreg.profile`) overrides it.
        """

    def _rose(self, q: Pipe, dst: Pipe) -> None:
        """Note that *dst*'s clock of *q* rose: *q*'s floor may rise, unless another lags."""
        lag = self.lagging.get(q)
        if lag is None or lag is dst:
            self.stale.add(q)

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
            done = self.released.get(mutex, {})
            self._order_after(pipe, done, done)

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

    def access(
        self, pipe: Pipe, start: int, end: int, write: bool, space: int = UB, *, free: bool = False
    ) -> None:
        """Record an access by *pipe* to bytes ``[start, end)`` of *space* after checking it.

        An earlier access conflicts when it overlaps (same space, one of the two a write), is
        not ordered before *pipe* by a flag chain or barrier, and came from another pipe, or
        from another copy on the same copy pipe (:data:`COPY_PIPES`). The access is logged
        under its pipe, or extends the last record when that is the same access. *free*: the
        running copy's :meth:`copy_free` showed the access cannot conflict (it is not checked
        again).
        """
        copy = self.copies.get(pipe, 0)
        if self.dispatched[pipe] != self.scalar_waits:
            self._dispatch(pipe)
        if pipe is not self.clear and not free:
            conflict = self._earliest_conflict(pipe, start, end, write, space, copy)
            if conflict is not None:
                raise SyncError(self._hazard(conflict, pipe, start, end, write))
        seq = self.seq
        done = seq[pipe] = seq[pipe] + 1
        if done == 1:
            self.active.append(pipe)
        if self.clear is not pipe:  # the other pipes now have a record after their bounds
            self.clear = None
        last = self.last
        if (
            last is not None
            and last[_PIPE] is pipe
            and last[_START] == start
            and last[_END] == end
            and last[_WRITE] == write
            and last[_SPACE] == space
        ):
            self.last = rec = (pipe, start, end, write, done, space, copy, last[_ORDER], None)
            self._put(rec)
            return
        self.count = count = self.count + 1
        self.last = rec = (pipe, start, end, write, done, space, copy, count, None)
        self.logs[pipe].append(rec)
        self._widen(pipe, space, start, end)

    def copy_free(self, pipe: Pipe, hulls: tuple[tuple[int, int, int, bool], ...]) -> bool:
        """Return True when no access of *pipe*'s running copy inside *hulls* can conflict.

        Called after :meth:`begin_copy`, before the copy's first access. Each hull is
        ``(space, start, end, write)``, spanning accesses the copy will make (a multi-burst
        copy's bursts on one side). An access conflicts only with an earlier copy's or another
        pipe's record overlapping its bytes, and the copy's own accesses never conflict with
        each other, so when a hull is free of conflicts now, so is every access inside it,
        whenever the copy makes it: the caller passes ``free=True`` to :meth:`access`. False
        (a conflict somewhere in a hull) says nothing: each access is then checked, and the
        first hazardous one raises its own error.

        Examples
        --------
        >>> t = PipeTracker(); t.access(Pipe.PIPE_V, 0, 64, write=True)
        >>> t.begin_copy(Pipe.PIPE_MTE3)
        >>> t.copy_free(Pipe.PIPE_MTE3, ((UB, 64, 256, False),))  # past the V store
        True
        >>> t.copy_free(Pipe.PIPE_MTE3, ((UB, 0, 256, False),))  # reads it unordered
        False
        """
        if self.dispatched[pipe] != self.scalar_waits:
            self._dispatch(pipe)
        if pipe is self.clear:
            return True
        copy = self.copies.get(pipe, 0)
        return not any(
            self._earliest_conflict(pipe, start, end, write, space, copy)
            for space, start, end, write in hulls
        )

    def _widen(self, pipe: Pipe, space: int, start: int, end: int) -> None:
        """Widen *pipe*'s hull of *space* (:attr:`hulls`) to a logged ``[start, end)``."""
        hull = self.hulls[pipe].get(space)
        if hull is None:
            self.hulls[pipe][space] = [start, end]
            return
        if start < hull[0]:
            hull[0] = start
        if end > hull[1]:
            hull[1] = end

    def _earliest_conflict(
        self, pipe: Pipe, start: int, end: int, write: bool, space: int, copy: int
    ) -> Access | None:
        """Return the earliest record the access would conflict with, or None.

        When no pipe needs its records scanned, *pipe* becomes :attr:`clear`.
        """
        known = self.clock[pipe]
        seq, floor = self.seq, self.floor
        conflict: Access | None = None
        scanned = False
        for other in self.active:
            done, bound = seq[other], known[other]
            if done <= bound:
                continue
            lowest = floor[other]
            if done <= lowest:
                continue
            if lowest > bound:
                bound = lowest
            # on its own pipe, only records of earlier copies count: those after copy_seq are
            # all of this copy (only begin_copy changes the copy a record carries)
            if other is pipe and (not copy or bound >= self.copy_seq[pipe]):
                continue
            scanned = True
            found = self._conflict(other, bound, start, end, write, space, copy, other is pipe)
            if found is not None and (conflict is None or found.order < conflict.order):
                conflict = found
        if not scanned:
            self.clear = pipe
        return conflict

    def access_rows(self, pipe: Pipe, loop: LoopAccess) -> bool:
        """Check and record at once the accesses of a batched loop on *pipe*; False if unsure.

        Each group of *loop* is one op's accesses on *pipe* (:class:`RowsAccess`, its
        ``ranks`` counted from 1 within the batch in eager order, ``seq`` and ``order`` its
        highest and lowest rank); the loop is logged numbered after the earlier accesses.
        *pipe* is not a copy pipe, so its own records never conflict with it, and no flag,
        wait or barrier runs between the accesses: each eager access would be checked against
        the same records of the other pipes with the same bounds. An access conflicts only
        with records overlapping its bytes, so when the span of every group (``start`` ..
        ``end``, covering all its rows) is free of conflicts, every access in it is too.
        Otherwise (a conflict, or a record the first access would merge with) this returns
        False and records nothing: the caller runs the loop eagerly, whose checks then raise
        the exact error of the first hazardous access.
        """
        groups = loop.groups
        if self.dispatched[pipe] != self.scalar_waits:
            self._dispatch(pipe)
        if pipe in self.copies or not self._rows_free(pipe, groups):
            return False
        last = self.last
        if last is not None and last[_PIPE] is pipe:
            first = min(groups, key=lambda g: g.order)
            k = int(np.argmin(first.ranks))
            if (
                last[_WRITE] == first.write
                and last[_START] == int(first.rows[k])
                and last[_END] == int(first.rows[k]) + first.width
            ):
                return False  # eager order would extend that record
        self._log_rows(pipe, loop)
        return True

    def _rows_free(self, pipe: Pipe, groups: list[RowsAccess]) -> bool:
        """Return True when no group's span conflicts with a record of another pipe.

        The spans are checked merged (:func:`_merged_spans`): a record overlaps a merged span
        exactly when it overlaps the span of one of its groups, of the same kind.
        """
        if pipe is self.clear or self._ordered_after_all(pipe):
            self.clear = pipe
            return True
        if len(groups) <= 2:  # nothing to gain from merging
            return not any(
                self._earliest_conflict(pipe, g.start, g.end, g.write, UB, 0) for g in groups
            )
        return not any(
            self._earliest_conflict(pipe, start, end, write, UB, 0)
            for write, start, end in _merged_spans(groups)
        )

    def _log_rows(self, pipe: Pipe, loop: LoopAccess) -> None:
        """Log *loop*, numbered after *pipe*'s earlier accesses."""
        base_seq, base_order = self.seq[pipe], self.count
        if not base_seq:
            self.active.append(pipe)
        if self.clear is not pipe:
            self.clear = None
        self.seq[pipe] += loop.total
        self.count += loop.records
        self.last = None
        self.logs[pipe].append(
            (pipe, loop.start, loop.end, loop.write, base_seq + loop.seq, UB, 0,
             base_order + loop.order, (loop, base_seq, base_order))
        )  # fmt: skip
        self._widen(pipe, UB, loop.start, loop.end)

    def _ordered_after_all(self, pipe: Pipe) -> bool:
        """Return True when every record of the other pipes is ordered before *pipe*.

        Then no access of *pipe* (not a copy pipe) can conflict, whatever its bytes: this is
        the test :meth:`_earliest_conflict` makes first for each pipe.
        """
        known, seq, floor = self.clock[pipe], self.seq, self.floor
        for other in self.active:
            done = seq[other]
            if other is not pipe and done > known[other] and done > floor[other]:
                return False
        return True

    def _put(self, rec: Record) -> None:
        """Put *rec* in place of its pipe's newest record, one of the same order (and bytes).

        An access that extends the last record, and :meth:`restore`, change that record's
        sequence number (and copy); the record may still be logged or already filed.
        """
        pipe, order = rec[_PIPE], rec[_ORDER]
        log = self.logs[pipe]
        if log:
            if log[-1][_ORDER] == order:
                log[-1] = rec
            return
        self.filed[pipe] = max(self.filed[pipe], rec[_SEQ])
        pages = self.pages[pipe]
        for page in pages_of(rec[_START], rec[_END]):
            filed = pages.get((rec[_SPACE], page))
            if filed and filed[-1][_ORDER] == order:
                filed[-1] = rec

    def _flush(self, pipe: Pipe) -> None:
        """File *pipe*'s logged records under their pages (each record is filed once)."""
        log = self.logs[pipe]
        for rec in log:
            self._file(rec)
        self.filed[pipe] = max(self.filed[pipe], log[-1][_SEQ])
        log.clear()
        self.hulls[pipe].clear()

    def _file(self, rec: Record) -> None:
        """File *rec* under the pages its bytes touch."""
        pipe, space = rec[_PIPE], rec[_SPACE]
        pages, lowest = self.pages[pipe], self.floor[pipe]
        if rec[_SEQ] <= lowest:  # every pipe is already past it
            return
        for page in pages_of(rec[_START], rec[_END]):
            filed = pages.get((space, page))
            if filed is None:
                pages[space, page] = [rec]
                continue
            if filed[0][_SEQ] <= lowest:  # drop what every pipe is already past
                filed[:] = [r for r in filed if r[_SEQ] > lowest]
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
        The log is scanned newest first down to *bound*; one that holds more than
        :data:`LOG_SCAN` records after it is filed first, so a scan costs O(1) amortised.
        """
        log = self.logs[other]
        if len(log) > LOG_SCAN and log[-LOG_SCAN - 1][_SEQ] > bound:
            self._flush(other)
        found: Access | None = None
        hull = self.hulls[other].get(space)
        if hull is None or not (hull[0] < end and start < hull[1]):  # no logged record meets it
            if log and log[0][_SEQ] <= bound:
                return None  # where the scan would stop: the filed records are older still
        else:
            for rec in reversed(log):
                if rec[_SEQ] <= bound:
                    return found  # the filed records are older still
                if rec[_START] < end and start < rec[_END] and rec[_SPACE] == space:
                    found = _earlier(rec, found, start, end, write, copy, same, bound)
        if self.filed[other] <= bound:
            return found
        pages = self.pages[other]
        for page in pages_of(start, end):
            for rec in reversed(pages.get((space, page), ())):
                if rec[_SEQ] <= bound:
                    break
                if rec[_START] < end and start < rec[_END]:
                    found = _earlier(rec, found, start, end, write, copy, same, bound)
        return found

    def checkpoint(self) -> tuple[Any, ...]:
        """Return what recording accesses changes, for :meth:`restore` (no flags or waits between).

        Examples
        --------
        >>> t = PipeTracker(); state = t.checkpoint()
        >>> t.access(Pipe.PIPE_V, 0, 256, write=True); t.restore(state); t.records
        []
        """
        return dict(self.seq), self.count, self.last, list(self.active)

    def restore(self, state: tuple[Any, ...]) -> None:
        """Drop the accesses recorded since :meth:`checkpoint` returned *state*."""
        seq, count, last, active = state
        self.seq, self.count, self.last, self.active = seq, count, last, active
        self.clear = None
        for log in self.logs.values():
            while log and log[-1][_ORDER] > count:
                log.pop()
        for pages in self.pages.values():
            for key, filed in list(pages.items()):
                while filed and filed[-1][_ORDER] > count:
                    filed.pop()
                if not filed:
                    del pages[key]
        if last is not None:  # as it was: an access since may have extended it
            self._put(last)

    @property
    def records(self) -> list[Access]:
        """The records not yet dropped, in the order they were made."""
        unique = {id(r): r for pages in self.pages.values() for f in pages.values() for r in f}
        unique.update((id(r), r) for log in self.logs.values() for r in log)
        split = [
            p
            for r in unique.values()
            for p in ([_as_access(r)] if r[_LOOP] is None else r[_LOOP][0].parts(*r[_LOOP][1:]))
        ]
        kept = [r for r in split if r.seq > self.floor[r.pipe]]
        return sorted(kept, key=lambda r: r.order)

    @staticmethod
    def _hazard(rec: Access, pipe: Pipe, start: int, end: int, write: bool) -> str:
        lo, hi = max(rec.start, start), min(rec.end, end)
        what = "writes" if write else "reads"
        earlier = "wrote" if rec.write else "read"
        where = SPACE_NAMES.get(rec.space, "GM")
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
        clock, stale, floor = self.clock, self.stale, self.floor
        for q in stale:
            watchers = _WATCHERS_OF.get(q)
            if watchers is None:  # a pipe that does not touch UB has no records
                continue
            current, lowest, lowest_at = floor[q], 0, q
            for p in watchers:  # the lowest watcher's clock of q, if every one is past the floor
                known = clock[p][q]
                if known <= current:
                    self.lagging[q] = p
                    break
                if not lowest or known < lowest:
                    lowest, lowest_at = known, p
            else:
                self.lagging[q] = lowest_at
                self._drop(q, lowest)
        stale.clear()

    def _drop(self, q: Pipe, floor: int) -> None:
        """Raise *q*'s floor to *floor*: drop its records up to that sequence number."""
        self.floor[q] = floor
        log = self.logs[q]
        if floor >= self.seq[q]:
            self.pages[q].clear()
            log.clear()
            self.hulls[q].clear()
            if self.last is not None and self.last[_PIPE] is q:
                self.last = None
        elif log and log[0][_SEQ] <= floor:  # the filed ones go as their pages are next filed
            del log[: bisect.bisect_right(log, floor, key=_BY_SEQ)]

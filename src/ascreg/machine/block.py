"""The running block: its state (:class:`BlockContext`) and which block is running.

A launch runs its blocks one after the other; :func:`block` makes one of them the running block
for the duration of a ``with`` statement. Everything that acts on "this block" (its UB, pipe
tracker, ``block_idx``) asks :func:`current_block`, or :func:`running_block` where code may also
run outside a kernel. The kernel launch (:mod:`ascreg.machine.kernel`) and the SIMT engine
(:mod:`ascreg.machine.simt.engine`) both build on this module.

Examples
--------
>>> with block(BlockContext(block_idx=1, block_num=2)) as ctx:
...     current_block() is ctx, ctx.pipe.name
(True, 'PIPE_S')
>>> running_block() is None
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

import numpy as np

from ascreg._dtypes import Scalar, uint8_t
from ascreg.errors import (
    AddressSpaceError,
    AscregError,
    RacedLaneError,
    SyncError,
    UninitializedMemoryError,
    undefined_behaviour,
)
from ascreg.machine.memory import UbPtr, UnifiedBuffer, untrack
from ascreg.machine.sync import PIPE_V, LoopAccess, Pipe, PipeTracker, RowsAccess, pages_of
from ascreg.machine.trace import RECORDING
from ascreg.machine.undefined import Origin

T = TypeVar("T", bound=Scalar)


class BlockContext:
    """The state of one running block: its UB, index, pipe tracker and issuing pipe.

    Examples
    --------
    >>> ctx = BlockContext(block_idx=1, block_num=2)
    >>> ctx.pipe.name, ctx.ub.free_bytes
    ('PIPE_S', 253952)
    """

    def __init__(
        self,
        block_idx: int = 0,
        block_num: int = 1,
        dyn_ub_bytes: int = 0,
        kernel: str = "?",
        *,
        shared: dict[str, Any] | None = None,
    ) -> None:
        self.block_idx = block_idx
        self.block_num = block_num
        self.kernel = kernel
        self.ub = UnifiedBuffer()
        self.tracker = PipeTracker()
        self.pipe = Pipe.PIPE_S
        self.state: dict[str, Any] = {}
        self.shared: dict[str, Any] = {} if shared is None else shared
        """State every block of the launch sees (the cross-core sync counters)."""
        self.group: Any = None
        """The block group this context runs for (:mod:`ascreg.engine.groups`: several blocks
        of a vector launch as one, their copies and VF calls made by the group); None: one
        block."""
        self.core: Any = None
        """The :class:`~ascreg.machine.crosscore.Core` of a mixed launch that runs here (None:
        one block of a ``__vector__`` / ``__cube__`` launch)."""
        self.dynamic: UbPtr[Any] = self.ub.alloc_bytes(  # type: ignore[assignment]
            uint8_t, dyn_ub_bytes, label=f"extern __ubuf__ (dynamic, {dyn_ub_bytes} bytes)"
        )
        self.array_allocator: Callable[[Any, int], UbPtr[Any]] | None = None
        """Set by an engine that allocates ``__ubuf__`` arrays its own way (SIMT blocks share
        one array among their threads); None: :meth:`alloc_array` takes them from ``ub``."""
        # Both byte marks grow to what the UB's data array covers at the block's first UB
        # access: a block that touches little UB never pays for 2 x 248 KiB of marks (above the
        # allocator's mmap threshold, zeroing them would cost more than the rest of a small
        # block), and one that touches none (a SIMT VF on GM) pays for none.
        self.written = np.zeros(0, dtype=np.bool_)
        """Which UB bytes the block has written (reads of the others are undefined)."""
        self.full: set[tuple[int, int]] = set()
        """Byte ranges found or made wholly written (marks only grow, so they stay so until
        :meth:`restore`): a tile loaded again and again is scanned once, and one written again
        and again is marked once."""
        self.vf_stored = np.zeros(0, dtype=np.bool_)
        """UB bytes stored by the running ``__simd_vf__`` since it began or since its last
        store-to-load ``asc_mem_bar`` (a load of them needs that barrier first)."""
        self.vf_ranges: list[tuple[int, int]] = []
        """The byte ranges set in ``vf_stored`` (what a barrier clears)."""
        self.vf_pending: list[RowsAccess] = []
        """Stores of batched loops not yet set in ``vf_stored``, which are set only when a load
        of their pages needs them (``_stored()``); most VFs never make one."""
        self.vf_pages: set[int] = set()
        """The pages (:func:`~ascreg.machine.sync.pages_of`) of ``vf_ranges`` and
        ``vf_pending`` (a load of other pages skips the byte check)."""
        self.in_simd_vf = False
        self.races_read = False
        """Set while a vector load reads bytes its VF stored unordered (:meth:`racing`): the
        read goes on instead of raising :class:`StoreLoadRace`."""
        self.hook: Callable[[int, int, str], None] | None = self._on_access
        """The ``on_access`` of the block's UB, one bound method (a copy compares it); None
        once the block is released (which breaks the cycle through the bound method, so the
        context and its UB go as soon as the block's last reference does)."""
        self.ub.on_access = self.hook
        untrack(self.ub)  # reachable through this context only (kept out of SIMT journaling)
        if RECORDING:  # a profile records (ascreg.profile): it watches this block's pipes
            RECORDING[0].block(self)

    def alloc_array(self, dtype: type[T], count: int) -> UbPtr[T]:
        """Allocate a ``__ubuf__ T buf[count]`` array of this block.

        Examples
        --------
        >>> from ascreg import uint16_t
        >>> BlockContext().alloc_array(uint16_t, 8)
        <__ubuf__ uint16_t* 0x0 (element 0 of 'uint16_t[8]' [0x0, 0x10))>
        """
        if self.array_allocator is not None:
            return self.array_allocator(dtype, count)
        return self.ub.alloc(dtype, count)

    def release(self) -> None:
        """Retire the block's UB once the block has ended.

        UB belongs to one block and lives only while it runs: an access through a pointer into
        it afterwards (by another block of the launch, or by the host after the launch) is an
        :class:`~ascreg.errors.AddressSpaceError`. The hook that says so holds no reference
        back to this context, so a finished block's 248 KiB go at once instead of at the next
        garbage collection.

        Examples
        --------
        >>> from ascreg import uint16_t
        >>> ctx = BlockContext(block_idx=1, kernel="k"); p = ctx.ub.alloc(uint16_t, 16)
        >>> ctx.release(); p.read(1)
        Traceback (most recent call last):
        ...
        ascreg.errors.AddressSpaceError: reads UB [0x0, 0x2) of block 1 of kernel k, which has ended: UB belongs to one block while it runs (another block, or the host after the launch, cannot reach it); pass data between blocks and to the host through __gm__ memory
        """
        self.ub.on_access = RetiredUb(self.block_idx, self.kernel)
        self.hook = None

    def _on_access(self, start: int, end: int, action: str) -> None:
        if end > self.written.size:
            self._cover()
        if action == "writes":
            touched = self._mark_written(start, end)
            if self.in_simd_vf:
                if touched is None:
                    self.vf_stored[start:end] = True
                else:  # a scatter stores its elements, not the gaps between them
                    self.vf_stored[start:end][touched] = True
                self.vf_ranges.append((start, end))
                self.vf_pages.update(pages_of(start, end))
        elif action == "reads":
            # a vector read needs one written byte: its first one is the common answer
            if not (self.pipe is PIPE_V and start < end and self.written[start]):
                self._check_written(start, end)
            if (
                self.in_simd_vf
                and not self.vf_pages.isdisjoint(pages_of(start, end))
                and self._stored()[start:end].any()
                and not self.races_read
            ):
                self._store_then_load(start, end, self.vf_stored[start:end])
        elif action == "gathers":
            self._check_gathered(start, end)
            if self.in_simd_vf and not self.vf_pages.isdisjoint(pages_of(start, end)):
                self._gathered_after_store(start, end)
        self.tracker.access(self.pipe, start, end, write=action == "writes")

    def _touched(self, start: int, end: int) -> np.ndarray[Any, Any] | None:
        """Return which bytes of ``[start, end)`` a gather or scatter touches; None: all."""
        scatter = self.ub.scatter
        return None if scatter is None else scatter.byte_mask(end - start)

    def _mark_written(self, start: int, end: int) -> np.ndarray[Any, Any] | None:
        """Mark what a write of ``[start, end)`` wrote; return its bytes (None: all of them)."""
        if self.ub.scatter is None:  # a plain access: every byte (what _touched says too)
            self.mark_written(start, end)
            return None
        touched = self._touched(start, end)
        if touched is None:
            self.written[start:end] = True
        else:  # a scatter writes its elements, not the gaps between them
            self.written[start:end][touched] = True
        return touched

    def remote_write(self, start: int, end: int, action: str) -> None:
        """Take a write into this block's UB by another core (a mixed launch's AIC).

        The bytes count as written (a read of them is defined) and as kept (a later allocation
        does not zero them); the access is the other core's, so this block's pipe tracker does
        not see it (the cross-core race check does). Reads are not expected.

        Examples
        --------
        >>> ctx = BlockContext(); ctx.ub._grow(64)
        >>> ctx.remote_write(0, 32, "writes"); ctx.all_written(0, 32), ctx.tracker.records
        (True, [])
        """
        if action != "writes":
            raise AscregError(f"another core {action} UB [{start:#x}, {end:#x}) of this block")
        if end > self.written.size:
            self._cover()
        touched = self._mark_written(start, end)
        self.ub.keep(start, end, touched)

    def mark_written(self, start: int, end: int) -> None:
        """Mark bytes ``[start, end)`` written (nothing to do for a range known to be so).

        Examples
        --------
        >>> ctx = BlockContext(); _ = ctx.ub.alloc(uint8_t, 64); ctx._cover()
        >>> ctx.mark_written(0, 32); ctx.all_written(0, 32), ctx.all_written(0, 33)
        (True, False)
        """
        if (start, end) in self.full:
            return
        self.written[start:end] = True
        self._keep_full(start, end)

    def _keep_full(self, start: int, end: int) -> None:
        """Remember ``[start, end)`` as wholly written (in :attr:`full`, which stays small)."""
        full = self.full
        if len(full) >= _FULL_RANGES:
            full.clear()
        full.add((start, end))

    def _check_gathered(self, start: int, end: int) -> None:
        """Check the elements a load through an index array reads (not the gaps between them)."""
        scatter = self.ub.scatter
        if scatter is None:
            return
        touched = scatter.byte_mask(end - start)
        unwritten = ~self.written[start:end]
        if touched is not None:
            unwritten &= touched
        if unwritten.any():  # the first element read with an unwritten byte
            first = int(np.argmax(unwritten))
            element = start + first - first % scatter.size
            self._check_written(element, element + scatter.size)

    def access_rows(self, plan: RowsPlan, raced: AbstractSet[int] = frozenset()) -> bool:
        """Report a batched VF loop's UB accesses at once (one group per op); False if unsure.

        ``plan.groups[j]`` holds the rows op number ``plan.positions[j]`` of the loop body
        accessed, one per iteration (:meth:`PipeTracker.access_rows`). Eager order would report
        them one by one, iteration by iteration; the aggregate gives the same outcome because,
        inside one VF, the written marks only grow, the pipe tracker sees no flag, wait or
        barrier and no other pipe's access, and the batch has already refused stores that
        another iteration accesses. So: a load whose bytes were all unwritten, or stored by the
        VF before the loop, would fail in eager order too (False here: the caller reruns
        eagerly, which raises the exact error); a load after a store of the same iteration
        (same bytes, no barrier between, :attr:`RowsPlan.same_iteration`) is refused the same
        way; the pipe hazards are :meth:`PipeTracker.access_rows`'s. If every check passes here
        it passes for each access in eager order, and the marks and records left are the eager
        ones. *raced*: the positions of the loads that read stored bytes as racing ones
        (:meth:`raced_rows`: their lanes over them undefined, as eager order makes them).
        """
        if self.pipe is not PIPE_V or not self.in_simd_vf or plan.same_iteration:
            return False
        if plan.end > self.written.size:
            self._cover()
        # else vf_stored is all False (a barrier cleared it)
        stored_before = bool(self.vf_ranges or self.vf_pending)
        full = self.full
        for group, span, position in plan.loads:
            if (
                span not in full  # all_written(), its common answer first
                and not self.all_written(*span)
                and not _row_bytes(self.written, group).any(axis=1).all()
            ):
                return False  # some iteration's load reads no written byte
            if stored_before and position not in raced and _row_bytes(self._stored(), group).any():
                return False
        if not self.tracker.access_rows(PIPE_V, plan.loop):
            return False
        for group, one in plan.stores:
            if one is None:
                _mark_rows(self.written, group)
            elif one not in full:
                self.mark_written(*one)
        self.vf_pending += plan.store_groups
        self.vf_pages.update(plan.pages)
        return True

    def raced_rows(
        self, rows: np.ndarray[Any, Any], width: int, span: tuple[int, int]
    ) -> tuple[StoreLoadRace, np.ndarray[Any, Any]] | None:
        """Return how a batched loop's loads of *width* bytes at *rows* race, or None if not.

        Some row reads bytes this VF stored before the loop with no barrier between: as in
        eager order (:class:`StoreLoadRace`, the first such row's), its lanes over them are
        undefined. Returned with which bytes of each row were stored (``rows x width``).
        *span*: the lowest row's start and the highest row's end.

        Examples
        --------
        >>> ctx = BlockContext(); _ = ctx.ub.alloc(uint8_t, 64); ctx._cover()
        >>> ctx.in_simd_vf = True; ctx.vf_ranges.append((4, 8)); ctx.vf_stored[4:8] = True
        >>> ctx.vf_pages.add(0)
        >>> ctx.raced_rows(np.array([0, 32]), 8, (0, 40))[1].astype(int).tolist()
        [[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0]]
        """
        if not self.in_simd_vf or self.races_read or not (self.vf_ranges or self.vf_pending):
            return None
        low, high = span
        if self.vf_pages.isdisjoint(pages_of(low, high)):
            return None
        if high > self.written.size:
            self._cover()
        marks = self._stored()
        if not marks[low:high].any():
            return None
        stored = marks[rows[:, None] + np.arange(width)]
        if not stored.any():
            return None
        first = int(np.argmax(stored.any(axis=1)))
        return StoreLoadRace(self, int(rows[first]), stored[first]), stored

    def _stored(self) -> np.ndarray[Any, Any]:
        """Return ``vf_stored`` with the pending batched stores set in it."""
        for group in self.vf_pending:
            _mark_rows(self.vf_stored, group)
            self.vf_ranges.append((group.start, group.end))
        self.vf_pending.clear()
        return self.vf_stored

    def all_written(self, start: int, end: int) -> bool:
        """Return True when every byte of ``[start, end)`` has been written.

        Examples
        --------
        >>> ctx = BlockContext(); ctx.ub.alloc(uint8_t, 64).write([1] * 32)
        >>> ctx.all_written(0, 32), ctx.all_written(0, 33)
        (True, False)
        """
        if (start, end) in self.full:
            return True
        if not self.written[start:end].all():
            return False
        self._keep_full(start, end)
        return True

    def covers(self, end: int) -> bool:
        """Return True when the byte marks reach *end*, growing them first as an access would.

        Examples
        --------
        >>> ctx = BlockContext(); _ = ctx.ub.alloc(uint8_t, 64)
        >>> ctx.written.size, ctx.covers(64), ctx.covers(1 << 20)
        (0, True, False)
        """
        if end > self.written.size:
            self._cover()
        return end <= self.written.size

    def _cover(self) -> None:
        """Grow the byte marks to the size of the UB's data array (which the access grew)."""
        self.written = _grown(self.written, self.ub.data.size)
        self.vf_stored = _grown(self.vf_stored, self.ub.data.size)

    def _check_written(self, start: int, end: int) -> None:
        """Raise (or warn once per allocation) when a read covers UB bytes nothing wrote.

        A vector load (``PIPE_V``) reads a whole register, and a tail's lanes past the data
        are garbage that the kernel masks off: it is an error only when *none* of its bytes
        was written. Scalar reads and copies out (``PIPE_MTE3``) must read written bytes only.
        """
        span = self.written[start:end]
        vector = self.pipe is Pipe.PIPE_V
        if (span.any() if vector else self.all_written(start, end)) or start >= end:
            return
        first = start + int(np.argmin(span))
        block = self.ub.allocation_at(first)
        where = block.describe() if block else "no allocation"
        undefined_behaviour(
            UninitializedMemoryError(
                f"{Pipe(self.pipe).name} reads UB [{start:#x}, {end:#x}) of {where}, but "
                f"{'none of those bytes was' if vector else f'byte {first:#x} was not'} "
                "written before (UB is not zeroed on the chip: the read sees garbage); write or copy "
                "the data in first"
            )
        )
        # undefined="warn": unwritten bytes hold the zeros of the allocation; warn once for it
        (self.written[block.start : block.end] if block else span)[:] = True

    def _gathered_after_store(self, start: int, end: int) -> None:
        """Raise when a load through an index array reads elements this VF stored (no barrier)."""
        stored = self._stored()[start:end]
        touched = self._touched(start, end)
        if touched is not None:  # the gathered elements only, not the gaps between them
            stored = stored & touched
        if stored.any():
            self._store_then_load(start, end, stored)

    def _store_then_load(self, start: int, end: int, stored: np.ndarray[Any, Any]) -> None:
        raise StoreLoadRace(self, start, stored.copy())

    @contextlib.contextmanager
    def racing(self) -> Iterator[None]:
        """Let the reads in the ``with`` body see bytes their VF stored with no barrier between.

        What a vector register load does after :class:`StoreLoadRace`: it loads again in here
        and marks the lanes over the stored bytes undefined.

        Examples
        --------
        >>> ctx = BlockContext()
        >>> with ctx.racing():
        ...     ctx.races_read
        True
        """
        before = self.races_read
        self.races_read = True
        try:
            yield
        finally:
            self.races_read = before

    def mem_bar(self) -> None:
        """Order the VF's earlier stores before its later loads (a store-to-load barrier).

        Examples
        --------
        >>> ctx = BlockContext(); ctx.vf_ranges.append((0, 4)); ctx.vf_stored[:4] = True
        >>> ctx.mem_bar(); bool(ctx.vf_stored.any())
        False
        """
        if self.vf_ranges:
            for start, end in self.vf_ranges:
                self.vf_stored[start:end] = False
            self.vf_ranges.clear()
        self.vf_pending.clear()  # never set in vf_stored: nothing to clear
        self.vf_pages.clear()

    def checkpoint(self, spans: list[tuple[int, int]] | None = None) -> tuple[Any, ...]:
        """Return the state UB accesses change (byte marks, pipe tracker), for :meth:`restore`.

        A batched VF loop (:mod:`ascreg.engine.batch`) that has to run again eagerly puts
        the block back as it was before the attempt. *spans*: only these byte ranges of the
        marks will change (the others are not saved); None saves them all.

        Examples
        --------
        >>> ctx = BlockContext(); state = ctx.checkpoint()
        >>> ctx.ub.alloc(uint8_t, 32).write([1]); bool(ctx.written[0])
        True
        >>> ctx.restore(state); bool(ctx.written[0]), ctx.tracker.records
        (False, [])
        """
        whole = spans is None
        if spans is None:
            spans = [(0, self.written.size)]
        elif spans and max(end for _, end in spans) > self.written.size:
            self._cover()
        self._stored()  # the pending stores too
        marks = [(a, b, *self._marks(a, b, whole)) for a, b in spans]
        return whole, marks, list(self.vf_ranges), set(self.vf_pages), self.tracker.checkpoint()

    def _marks(self, start: int, end: int, whole: bool) -> tuple[Any, Any]:
        """Return the written and VF-stored marks of ``[start, end)`` to put back later.

        A span whose marks are all set (data the block wrote before) or, for the VF-stored
        ones, all clear (nothing stored since the VF's last barrier) is kept as that one value.
        """
        written: Any = True
        if whole or not self.all_written(start, end):
            written = self.written[start:end].copy()
        stored = self.vf_stored[start:end].copy() if whole or self.vf_ranges else False
        return written, stored

    def restore(self, state: tuple[Any, ...]) -> None:
        """Put back the state a :meth:`checkpoint` returned."""
        whole, marks, ranges, pages, tracker = state
        self.full.clear()  # marks may be cleared again
        for start, end, written, stored in marks:
            self.written[start:end] = written
            self.vf_stored[start:end] = stored
            if whole:  # the marks grew since: the new bytes were not written before
                self.written[end:] = self.vf_stored[end:] = False
        self.vf_ranges, self.vf_pages, self.vf_pending = ranges, pages, []
        self.tracker.restore(tracker)

    @contextlib.contextmanager
    def simd_vf(self) -> Iterator[None]:
        """Run the ``with`` body as a ``__simd_vf__`` on ``PIPE_V`` (its own store-load order)."""
        outer = self.in_simd_vf
        self.mem_bar()
        self.in_simd_vf = True
        try:
            with self.on_pipe(Pipe.PIPE_V):
                yield
        finally:
            self.in_simd_vf = outer
            self.mem_bar()

    def on_pipe(self, pipe: Pipe) -> OnPipe:
        """Attribute the UB accesses inside the ``with`` block to *pipe*.

        Examples
        --------
        >>> ctx = BlockContext()
        >>> with ctx.on_pipe(Pipe.PIPE_MTE2):
        ...     ctx.pipe.name
        'PIPE_MTE2'
        >>> ctx.pipe.name
        'PIPE_S'
        """
        return OnPipe(self, pipe)


class OnPipe:
    """The context manager of :meth:`BlockContext.on_pipe` (a class: copies enter one per call)."""

    __slots__ = ("ctx", "pipe", "previous")

    def __init__(self, ctx: BlockContext, pipe: Pipe) -> None:
        self.ctx, self.pipe = ctx, pipe

    def __enter__(self) -> None:
        ctx = self.ctx
        self.previous, ctx.pipe = ctx.pipe, self.pipe

    def __exit__(self, *exc: object) -> None:
        self.ctx.pipe = self.previous


class RowsPlan:
    """A batched VF loop's UB accesses, with the checks that depend on them alone made once.

    One group (:class:`~ascreg.machine.sync.RowsAccess`, ranked in eager order) per op of the
    loop body that accessed UB, in body order (``positions``). A VF called once per tile makes
    the same accesses through the same shared, read-only row arrays every call, so
    :mod:`ascreg.engine.batch` keeps its plan, and :meth:`BlockContext.access_rows` makes only
    the checks that depend on the block's state.
    """

    __slots__ = (
        "end", "groups", "loads", "loop", "pages", "positions", "same_iteration", "store_groups",
        "stores",
    )  # fmt: skip

    def __init__(self, groups: list[RowsAccess], positions: list[int]) -> None:
        self.groups = groups
        self.loop = LoopAccess(groups)
        """The groups as one pipe-tracker record (numbered from 0)."""
        self.positions = positions
        self.loads = [
            (g, (g.start, g.end), p) for g, p in zip(groups, positions, strict=True) if not g.write
        ]
        """The loads, each with its span and position."""
        self.store_groups = [g for g in groups if g.write]
        self.stores = [(g, _one_span(g)) for g in self.store_groups]
        """The stores, each with its span if its rows are one span, else None."""
        self.pages = frozenset(p for g in groups if g.write for p in pages_of(g.start, g.end))
        """The pages the stores touch."""
        self.end = max(group.end for group in groups)
        self.same_iteration = _loads_after_stores(groups, positions)
        """True when a load may read what a store before it in the same iteration wrote."""


def _one_span(group: RowsAccess) -> tuple[int, int] | None:
    """Return the span of *group*'s rows if they are one run of bytes (:func:`_mark_rows`)."""
    if group.step == group.width or group.rows.size == 1:
        return group.start, group.end
    return None


def _loads_after_stores(groups: list[RowsAccess], positions: list[int]) -> bool:
    """Return True when a load's span overlaps a store's earlier in the loop body."""
    stores: list[tuple[int, RowsAccess]] = []
    for group, position in zip(groups, positions, strict=True):
        if group.write:
            stores.append((position, group))
        elif any(before < position and _overlap(other, group) for before, other in stores):
            return True
    return False


def _overlap(one: RowsAccess, other: RowsAccess) -> bool:
    return one.start < other.end and other.start < one.end


def _row_bytes(marks: np.ndarray[Any, Any], group: RowsAccess) -> np.ndarray[Any, Any]:
    """Return ``marks[row : row + width]`` for each row of *group* (a ``rows x width`` array)."""
    rows, width, step = group.rows, group.width, group.step
    if step == width or rows.size == 1:  # consecutive rows: one span
        return marks[group.start : group.end].reshape(rows.size, width)
    spaced = _spaced(marks, group)
    if spaced is not None:
        return spaced
    if step is not None and step > width:
        return np.lib.stride_tricks.as_strided(
            marks[int(rows[0]) :], shape=(rows.size, width), strides=(step, 1)
        )
    picked: np.ndarray[Any, Any] = marks[rows[:, None] + np.arange(width)]
    return picked


def _mark_rows(marks: np.ndarray[Any, Any], group: RowsAccess) -> None:
    """Set the bytes of every row of *group* in *marks*."""
    rows, width = group.rows, group.width
    if group.step == width or rows.size == 1:
        marks[group.start : group.end] = True  # consecutive rows: one span
        return
    spaced = _spaced(marks, group)
    if spaced is not None:
        spaced[...] = True
    else:
        marks[(rows[:, None] + np.arange(width)).ravel()] = True


def _spaced(marks: np.ndarray[Any, Any], group: RowsAccess) -> np.ndarray[Any, Any] | None:
    """Return the ``rows x width`` view of *marks* of rows evenly spaced by ``step > width``.

    A slice reshaped (no index arrays); None when the rows are not so, or the last row's
    padding would run past *marks*.
    """
    step, rows = group.step, group.rows
    if step is None or step <= group.width:
        return None
    first = int(rows[0])
    if first + rows.size * step > marks.size:
        return None
    view: np.ndarray[Any, Any] = marks[first : first + rows.size * step].reshape(rows.size, step)
    return view[:, : group.width]


def _grown(marks: np.ndarray[Any, Any], size: int) -> np.ndarray[Any, Any]:
    """Return *marks* extended with False to *size* entries."""
    grown = np.zeros(size, dtype=np.bool_)
    grown[: marks.size] = marks
    return grown


class RetiredUb:
    """``on_access`` of the UB of a block that has ended: every access is an error."""

    __slots__ = ("block_idx", "kernel")

    def __init__(self, block_idx: int, kernel: str) -> None:
        self.block_idx = block_idx
        self.kernel = kernel

    def __call__(self, start: int, end: int, action: str) -> None:
        """Raise: the access reached UB of a block that has ended."""
        raise AddressSpaceError(
            f"{action} UB [{start:#x}, {end:#x}) of block {self.block_idx} of kernel "
            f"{self.kernel}, which has ended: UB belongs to one block while it runs (another "
            "block, or the host after the launch, cannot reach it); pass data between blocks "
            "and to the host through __gm__ memory"
        )


_FULL_RANGES = 256
"""At most this many ranges are remembered in :attr:`BlockContext.full`."""
_STACK: list[BlockContext] = []


def current_block() -> BlockContext:
    """Return the running block, or raise if no kernel is running.

    Examples
    --------
    >>> current_block()
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: no kernel is running: call this inside a __global__ kernel launched as kernel[blocks, dyn_ub_bytes, stream](args)
    """
    if not _STACK:
        raise AscregError(
            "no kernel is running: call this inside a __global__ kernel launched as "
            "kernel[blocks, dyn_ub_bytes, stream](args)"
        )
    return _STACK[-1]


def running_block() -> BlockContext | None:
    """Return the running block, or None outside a kernel (plain Reg code on a bare UB)."""
    return _STACK[-1] if _STACK else None


@contextlib.contextmanager
def block(ctx: BlockContext) -> Iterator[BlockContext]:
    """Run the ``with`` body as block *ctx* (used by launches and by tests).

    Examples
    --------
    >>> with block(BlockContext(block_idx=3, block_num=4)):
    ...     current_block().block_idx, current_block().block_num
    (3, 4)
    """
    _STACK.append(ctx)
    try:
        yield ctx
    finally:
        _STACK.pop()


class StoreLoadRace(SyncError):
    """A read of UB bytes the running ``__simd_vf__`` stored with no store-to-load barrier.

    Inside a VF, loads and stores are separate streams the chip may reorder. A vector register
    load catches this and loads again under :meth:`BlockContext.racing`, the lanes over the
    stored bytes undefined (:attr:`origin`; using one is a
    :class:`~ascreg.errors.RacedLaneError`); any other read raises it as the
    :class:`~ascreg.errors.SyncError` it is.

    Examples
    --------
    >>> race = StoreLoadRace(BlockContext(), 0x100, np.array([False, True, True, False]))
    >>> race.element_flags(0x100, 2, 2).tolist()
    [True, True]
    """

    def __init__(self, block: BlockContext, start: int, stored: np.ndarray[Any, Any]) -> None:
        self.block = block
        self.start = start
        self.stored = stored
        """Which bytes from *start* on the VF stored."""
        end = start + stored.size
        self.first = start + int(np.argmax(stored))
        super().__init__(
            f"a __simd_vf__ loads UB [{start:#x}, {end:#x}) after storing byte {self.first:#x} "
            f"in the same VF with no barrier between: {_REORDERED}"
        )

    @property
    def origin(self) -> Origin:
        """What the lanes a load reads over the stored bytes are (:mod:`ascreg.machine.undefined`)."""
        end = self.start + self.stored.size
        return Origin(
            f"loaded from UB [{self.start:#x}, {end:#x}) after storing byte {self.first:#x} in "
            "the same VF with no barrier between",
            f"{_REORDERED}, or leave those lanes masked off",
            RacedLaneError,
        )

    def element_flags(self, address: int, count: int, size: int) -> np.ndarray[Any, Any]:
        """Return, for *count* elements of *size* bytes from *address*, which hold a stored byte."""
        flags = np.zeros(count * size, dtype=np.bool_)
        offset = self.start - address
        flags[offset : offset + self.stored.size] = self.stored[: count * size - offset]
        held: np.ndarray[Any, Any] = np.logical_or.reduce(flags.reshape(count, size), axis=1)
        return held


_REORDERED = (
    "inside a VF, loads and stores are separate streams the chip may reorder; insert "
    "asc_mem_bar(VST_VLD) (Reg: LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>) between "
    "the store and the load"
)

"""A block group at work: its copies between GM and its stacked UB, and its VF calls.

See :mod:`ascreg.engine.groups` for what a group is and when it runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.engine.batch import ALL_BLOCKS, KEPT_WRITES
from ascreg.engine.groups.memory import StackedUb
from ascreg.engine.groups.values import (
    BlockGmPtr,
    BlockLanes,
    BlockLayout,
    GroupRefused,
    Lanes,
    UnevenOffsets,
)
from ascreg.machine.block import BlockContext, _grown
from ascreg.machine.convert import to_dtype
from ascreg.machine.memory import (
    DATA_BLOCK,
    Allocation,
    GmPtr,
    Memory,
    Pointer,
    UbPtr,
    strided,
)
from ascreg.machine.mte import pad_spans, store_atomic, validate
from ascreg.machine.races import GmRaceCheck
from ascreg.machine.simt.engine import Journal
from ascreg.machine.sync import PIPE_MTE2, PIPE_MTE3, UB

LOG = logging.getLogger("ascreg.groups")
"""Reports, at DEBUG level, each launch that ran in groups and why the others did not."""

_TOLD: set[Any] = set()


def _tell_once(key: Any, message: str) -> None:
    """Log *message* at DEBUG level on ``ascreg.groups``, once per *key*."""
    if key not in _TOLD:
        _TOLD.add(key)
        LOG.debug(message)


_VF_CHECKS: dict[Any, int] = {}
"""Per VF (its code): how many of its runs for a whole group were checked against its blocks
one at a time and agreed; -1 once one did not (it then runs block by block)."""
_VF_REFUSED: set[tuple[Any, ...]] = set()
"""The VFs (code and argument forms, ``_form``) whose run for a whole group failed."""


def _form(value: Any) -> Any:
    """Return what a VF's run for a whole group may depend on in an argument."""
    if isinstance(value, Pointer):
        return (id(value.memory), value.address, value.dtype)
    return value if isinstance(value, int | float | str | bool | None) else type(value)


_DEFECTS: list[str] = []
"""Differences the checks found in the running group, warned about after it."""
_VF_CHECK_RUNS = 2
"""How many runs for a whole group of each VF are checked."""


def checked_blocks(count: int) -> list[int]:
    """Return the blocks of a group of *count* that a check runs alone (0 is the group's first).

    The first block (its offsets from the first are zero) and the last (a tail block's sizes,
    the largest offsets): what grouping gets wrong for one block shows in one of them.

    Examples
    --------
    >>> checked_blocks(48), checked_blocks(1)
    ([0, 47], [0])
    """
    return [0, count - 1] if count > 1 else [0]


class Group:
    """The blocks ``first .. first + count - 1`` of a launch, running as one."""

    def __init__(
        self,
        ctx: BlockContext,
        first: int,
        count: int,
        races: GmRaceCheck,
        every_block_gm: bool = False,
    ) -> None:
        self.ctx, self.first, self.count, self.races = ctx, first, count, races
        self.ub = StackedUb(count)
        self.journal = Journal()
        self.accesses: list[tuple[Memory, Lanes, Lanes, bool]] = []
        """``(memory, starts, ends, write)``: each GM access of the group, one span per block."""
        self.every_block_gm = every_block_gm
        """Record every block's GM accesses in the pipe tracker (else the first block's)."""
        self.offsets: dict[int, tuple[Allocation, Lanes]] = {}
        """Per GM allocation reached: each block's offset from the first block's addresses."""
        self.same_address = BlockLayout.of(np.zeros(count, np.int64))
        """The layout of a pointer every block holds (the same address for all)."""

    # -- copies ---------------------------------------------------------------------------

    def copy(self, dst: Any, src: Any, burst: Any, into_ub: bool, call: str) -> None:
        """Make a GM <-> UB copy of every block of the group (its bursts, padded as asked)."""
        ub, gm = (dst, src) if into_ub else (src, dst)
        if not isinstance(ub, UbPtr) or ub.memory is not self.ub or not isinstance(gm, GmPtr):
            raise GroupRefused(f"{call}: a copy between other memories than GM and the UB")
        if burst.compact or (not into_ub and _padded(burst)):
            raise GroupRefused(f"{call}: a copy form groups do not run")
        if not into_ub and store_atomic(self.ctx) is not None:
            raise GroupRefused(f"{call}: a store-atomic copy")
        first = gm.of(0) if isinstance(gm, BlockGmPtr) else gm  # the first block's form
        if into_ub:
            validate(ub, first, burst, True, call)
        else:
            validate(first, ub, burst, False, call)
        layout, base = self._layout(gm)
        size = gm.dtype.size
        if ub.address % DATA_BLOCK or base % size or _misaligned(layout, size):
            raise GroupRefused(f"{call}: a misaligned address")
        n, length = burst.n_burst, burst.len_burst
        ub_stride, gm_stride = (
            (burst.dst_stride, burst.src_stride)
            if into_ub
            else (burst.src_stride, burst.dst_stride)
        )
        left, right = burst.left_pad * size, burst.right_pad * size
        padded = left + length + right
        dummy = -padded % DATA_BLOCK if burst.fill_to_block else 0
        offsets = np.arange(n, dtype=np.int64)
        ub_starts = ub.address + offsets * ub_stride
        if ub_stride < 0 or not ub.fits(int(ub_starts[-1] - ub.address) + padded + dummy):
            raise GroupRefused(f"{call}: a UB range outside its allocation")
        gm_starts = (base + layout.deltas)[:, None] + offsets * gm_stride  # blocks x bursts
        span = (n - 1) * gm_stride  # from the first burst's start to the last one's
        low, high = base + layout.low + min(span, 0), base + layout.high + max(span, 0) + length
        self._check_gm(gm, low, high, call)
        self._check_offsets(gm, layout, call)
        self._track(ub_starts, gm_starts, (length, padded + dummy), gm.memory, into_ub)
        self._move(ub_starts + left, gm_starts, length, gm.memory, into_ub, layout.step)
        if padded + dummy > length:
            self._pad(ub_starts, burst, (left, length, right, dummy), ub.dtype)

    def _pad(
        self, ub_starts: Lanes, burst: Any, sizes: tuple[int, int, int, int], dtype: Any
    ) -> None:
        """Write a padded copy's pad and dummy bytes as ``mte.gm_to_ub`` does, every block."""
        size, rows, left = dtype.size, self.ub.rows, sizes[0]
        spans = pad_spans(burst, sizes)
        for start in ub_starts.tolist():
            first = rows[:, start + left : start + left + size].copy()  # the burst's first element
            for offset, nbytes, value in spans:
                if nbytes:
                    at = start + offset
                    unit = (
                        first
                        if value is None
                        else np.broadcast_to(to_dtype([value], dtype).view(np.uint8), first.shape)
                    )
                    rows[:, at : at + nbytes] = np.tile(unit, (1, -(-nbytes // size)))[:, :nbytes]

    def _layout(self, gm: GmPtr[Any]) -> tuple[BlockLayout, int]:
        """Return where each block's form of *gm* points (from the first's) and the first's."""
        if isinstance(gm, BlockGmPtr):
            return gm.relative(), int(gm.addresses[0])
        return self.same_address, gm.address

    def _check_gm(self, gm: GmPtr[Any], low: int, high: int, call: str) -> None:
        """Refuse a copy whose GM bytes ``[low, high)`` (all blocks') leave *gm*'s allocation."""
        alloc = gm.block
        if alloc is None or not alloc.live or low < alloc.start or high > alloc.end:
            raise GroupRefused(f"{call}: a GM range outside its allocation")
        if high > gm.memory.data.size:
            gm.memory._grow(high)

    def _check_offsets(self, gm: GmPtr[Any], layout: BlockLayout, call: str) -> None:
        """Refuse (:class:`UnevenOffsets`) a GM buffer reached at new offsets per block.

        While every block reaches each GM allocation at one offset from the first block's
        addresses, each block's accesses to it are the first block's moved by that offset:
        they overlap each other, and their pipes order them, as the first block's do (two
        allocations never overlap), so the pipe tracker needs the first block's GM accesses
        only (:meth:`_track`).
        """
        if self.every_block_gm:
            return
        alloc, moved = gm.block, layout.deltas
        assert alloc is not None  # _check_gm refused a pointer outside any allocation
        known = self.offsets.setdefault(id(alloc), (alloc, moved))[1]
        if known is not moved and not np.array_equal(known, moved):
            raise UnevenOffsets(f"{call}: a GM buffer reached at other offsets per block")

    def _track(
        self,
        ub_starts: Lanes,
        gm_starts: Lanes,
        lengths: tuple[int, int],
        gm: Memory,
        into_ub: bool,
    ) -> None:
        """Record the copy's pipe accesses and byte marks, once for the whole group.

        *lengths*: the bytes of a burst in GM, and in UB with its padding. The GM side is the
        first block's only, unless :attr:`every_block_gm` (:meth:`_check_offsets` says why
        that is exact).
        """
        ctx, (length, ub_length) = self.ctx, lengths
        tracker, pipe = ctx.tracker, PIPE_MTE2 if into_ub else PIPE_MTE3
        end = int(ub_starts[-1]) + ub_length
        if end > ctx.written.size:
            ctx.written = _grown(ctx.written, max(end, self.ub.rows.shape[1]))
            ctx.vf_stored = _grown(ctx.vf_stored, ctx.written.size)
        tracker.begin_copy(pipe)
        space = id(gm)
        tracked = gm_starts if self.every_block_gm else gm_starts[:1]
        # one test of each side's span instead of one per burst, as a multi-burst copy does
        free = ub_starts.size > 1 and tracker.copy_free(
            pipe,
            (
                (UB, int(ub_starts[0]), end, into_ub),
                (space, int(tracked.min()), int(tracked.max()) + length, not into_ub),
            ),
        )
        for ub_start, column in zip(ub_starts.tolist(), tracked.T.tolist(), strict=True):
            ub_end = ub_start + ub_length
            if into_ub:
                for start in column:  # each block's GM bytes (another block's are others)
                    tracker.access(pipe, start, start + length, False, space, free=free)
                ctx.mark_written(ub_start, ub_end)
                tracker.access(pipe, ub_start, ub_end, True, free=free)
            else:
                if not ctx.all_written(ub_start, ub_end):
                    raise GroupRefused("a copy out of UB bytes never written")
                tracker.access(pipe, ub_start, ub_end, False, free=free)
                for start in column:
                    tracker.access(pipe, start, start + length, True, space, free=free)
        firsts, span = gm_starts[:, 0], int(gm_starts[0, -1] - gm_starts[0, 0])
        lows, highs = firsts + min(span, 0), firsts + (max(span, 0) + length)
        self.accesses.append((gm, lows, highs, not into_ub))

    def _move(
        self,
        ub_starts: Lanes,
        gm_starts: Lanes,
        length: int,
        gm: Memory,
        into_ub: bool,
        block_step: int | None,
    ) -> None:
        """Move every block's bursts, in one strided view of each side where it can.

        That is when they are evenly spaced and do not overlap (the common
        ``x + GetBlockIdx() * n``); otherwise burst by burst (:meth:`_move_bursts`).
        *block_step*: the step between the blocks' GM addresses, None when uneven.
        """
        views = _even_views(
            self.ub.rows, gm.data, ub_starts, gm_starts, length, into_ub, block_step
        )
        if views is None:
            if not into_ub:
                self._journal(gm_starts, length, gm)
            self._move_bursts(ub_starts, gm_starts, length, gm, into_ub)
        elif into_ub:
            views[0][...] = views[1]
        else:
            self._journal_views(views[1], int(gm_starts[0, 0]), gm)
            views[1][...] = views[0]

    def _journal_views(self, gm_side: Lanes, first: int, gm: Memory) -> None:
        """Save the GM bytes of an even copy out's view (blocks x bursts x bytes) at *first*.

        Each burst's blocks are evenly spaced and apart (:func:`_even_views`): one entry.
        """
        count, n, length = gm_side.shape
        block_step, burst_step, _ = gm_side.strides
        for burst in range(n):
            self._journal_even(gm, first + burst * burst_step, block_step, count, length)

    def _move_bursts(
        self, ub_starts: Lanes, gm_starts: Lanes, length: int, gm: Memory, into_ub: bool
    ) -> None:
        """Move every block's bursts, one burst at a time.

        Each burst is one strided view of GM where the blocks are evenly spaced in it;
        otherwise its bytes are gathered or scattered.
        """
        rows = self.ub.rows
        for b, ub_start in enumerate(ub_starts.tolist()):
            column = gm_starts[:, b]
            ub_side = rows[:, ub_start : ub_start + length]
            gm_side = _blocks_view(gm.data, column, length)
            if gm_side is None:
                index = column[:, None] + np.arange(length, dtype=np.int64)
                if into_ub:
                    ub_side[...] = gm.data[index]
                else:
                    gm.data[index] = ub_side
            elif into_ub:
                ub_side[...] = gm_side
            else:
                gm_side[...] = ub_side

    def _journal(self, gm_starts: Lanes, length: int, gm: Memory) -> None:
        """Save the GM bytes a copy out is about to overwrite (the group's undo).

        A burst whose blocks' spans are evenly spaced (apart or back to back) is one entry.
        """
        for column in gm_starts.T:
            first, count = int(column[0]), column.size
            step = int(column[1]) - first if count > 1 else length
            if step >= length and (np.diff(column) == step).all():
                self._journal_even(gm, first, step, count, length)
                continue
            for start in column.tolist():
                self.journal.record(gm, start, length)

    def _journal_even(self, gm: Memory, first: int, step: int, count: int, length: int) -> None:
        """Save *count* spans of *length* bytes, *step* (at least *length*) apart, as one entry."""
        if step == length or count == 1:
            self.journal.record(gm, first, (count - 1) * step + length)
        else:
            self.journal.record_spans(gm, first, step, count, length)

    # -- VF calls -------------------------------------------------------------------------

    def enter_scope(self) -> None:
        """Start vector code that runs once for every block of the group.

        That is a VF (:meth:`_all_blocks`) or a ``with __VEC_SCOPE__:`` block of the kernel
        body. Its batched loops work on every block's UB row at once, and any other UB access
        refuses. (A ``__VEC_SCOPE__`` block the engine made a function, :meth:`scope`, then
        runs once per block; one left inline cannot run again, so a refusal in it stops the
        group and the launch runs its blocks one at a time.)
        """
        self.ub.use_all()
        ALL_BLOCKS[0] = True

    def exit_scope(self) -> None:
        """End the vector code :meth:`enter_scope` started."""
        ALL_BLOCKS[0] = False
        self.ub.leave_row()

    def vf(
        self,
        func: Callable[..., Any],
        run: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        """Run the ``__simd_vf__`` *func* (its runner *run*) for every block of the group.

        Once for all blocks where ``_all_blocks`` can, else once per block
        (``_per_block``).
        """
        if not self._all_blocks(func, run, args, kwargs):
            self._per_block(run, args, kwargs)

    def scope(self, body: Callable[[], None], run: Callable[[], None]) -> None:
        """Run a ``with __VEC_SCOPE__:`` block made a function (*body*; *run* runs it as a VF).

        As :meth:`vf` runs a VF: once for the whole group where it can, else once per block;
        then the per-block values *body* captures from the kernel (``GetBlockIdx()`` and what
        was computed from it), or copies in as its defaults, are that block's while it runs.
        """
        if self._all_blocks(body, run, (), {}):
            return
        cells = [cell for cell in body.__closure__ or () if _per_block_value(cell)]
        held = [cell.cell_contents for cell in cells]
        defaults = body.__defaults__  # (the values a block copies in: ascreg.engine.scopes)

        def block_run() -> None:
            k = self.ub.active  # (the block whose row the VF runs on)
            assert k is not None
            for cell, value in zip(cells, held, strict=True):
                cell.cell_contents = _of_block((value,), k)[0]
            if defaults:
                body.__defaults__ = tuple(_of_block(defaults, k))
            run()

        try:
            self._per_block(block_run, (), {})
        finally:
            for cell, value in zip(cells, held, strict=True):
                cell.cell_contents = value
            body.__defaults__ = defaults

    def _all_blocks(
        self,
        func: Callable[..., Any],
        run: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> bool:
        """Run the VF once, its batched loops on every block's row at once; False if not.

        Its loads then hold one row of lanes per block and iteration (the block is a leading
        axis), its stores write every row (``ascreg.engine.batch.ALL_BLOCKS``); what only one
        block at a time can do (an access outside a batched loop, a store through unevenly
        spaced rows) refuses: the UB rows, byte marks and pipe records are put back and the
        VF runs block by block. The first runs of each VF whose blocks
        hold different bytes are checked against the block-by-block run (``_VF_CHECKS``).
        """
        code = getattr(func, "__code__", None)
        checks = _VF_CHECKS.get(code, 0)
        values = (*args, *kwargs.values())
        if checks < 0 or any(isinstance(v, BlockLanes | BlockGmPtr) for v in values):
            return False
        key = (code, *map(_form, values))
        if key in _VF_REFUSED:
            return False
        ctx, top = self.ctx, self.ub.top
        # a checked run compares all rows with the blocks' runs from the same start; later runs
        # are undone by what their batches' stores replaced (only batches store in all rows)
        checked = checks < _VF_CHECK_RUNS
        rows_before = self.ub.rows[:, :top].copy() if checked else None
        marks = ctx.checkpoint()
        undo: list[tuple[Memory, int, Lanes]] = []
        self.enter_scope()
        KEPT_WRITES.append(undo)
        try:
            run(*args, **kwargs)
        except Exception as error:
            if rows_before is not None:
                self.ub.rows[:, :top] = rows_before
            else:
                for memory, start, old in reversed(undo):
                    memory.data[..., start : start + old.shape[-1]] = old
            ctx.restore(marks)
            if len(_VF_REFUSED) >= 1024:
                _VF_REFUSED.clear()
            _VF_REFUSED.add(key)  # not tried again with these arguments
            name = getattr(func, "__name__", "VF")
            _tell_once(("vf", code), f"{name}: runs block by block in groups: {error}")
            return False
        finally:
            KEPT_WRITES.pop()
            self.exit_scope()
        if rows_before is not None and not (rows_before == rows_before[:1]).all():
            self._check_all_blocks(func, checks, run, (args, kwargs), (rows_before, marks))
        return True

    def _check_all_blocks(
        self,
        func: Callable[..., Any],
        checks: int,
        run: Callable[..., Any],
        call: tuple[tuple[Any, ...], dict[str, Any]],
        before: tuple[Any, ...],
    ) -> None:
        """Run the VF again from *before* for the :func:`checked_blocks`; compare UB rows and marks.

        When they agree the group's rows stay; else every block runs alone from *before*.
        """
        ctx, top, rows = self.ctx, self.ub.top, self.ub.rows
        rows_before, marks = before
        grouped, grouped_marks = rows[:, :top].copy(), ctx.written.copy()
        rows[:, :top] = rows_before
        ctx.restore(marks)
        checked = checked_blocks(self.count)
        self._per_block(run, *call, blocks=checked)
        same = np.array_equal(rows[checked, :top], grouped[checked]) and np.array_equal(
            ctx.written, grouped_marks
        )
        _VF_CHECKS[getattr(func, "__code__", None)] = checks + 1 if same else -1
        if same:
            rows[:, :top] = grouped
        else:  # said after the group (whose warnings stop it)
            rows[:, :top] = rows_before
            ctx.restore(marks)
            self._per_block(run, *call)
            _DEFECTS.append(
                f"{getattr(func, '__name__', 'a VF')}: run once for a group of blocks, it left "
                "other UB bytes than its blocks one at a time (an ascreg defect: please report "
                "it); it now runs block by block"
            )

    def _per_block(
        self,
        run: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        blocks: list[int] | None = None,
    ) -> None:
        """Run a ``__simd_vf__`` once per block (or per one of *blocks*), on its row and arguments.

        Every block starts from the byte marks the group had before the call and must end with
        the first block's (a VF that stores other bytes in another block, through
        data-dependent addresses, stops the group); the pipe tracker keeps every block's
        accesses, so a hazard of any block is one of the group.
        """
        ctx = self.ctx
        lanes: Any = ctx.block_idx  # the group's BlockLanes
        written, full = ctx.written.copy(), set(ctx.full)
        first: Lanes | None = None  # the marks the first block left
        try:
            for k in range(self.count) if blocks is None else blocks:
                if first is not None:  # every block starts from the group's marks
                    ctx.written, ctx.full = written.copy(), set(full)
                ctx.block_idx = int(lanes.values[k])
                self.ub.use_row(k)
                run(*_of_block(args, k), **{n: _of_block((v,), k)[0] for n, v in kwargs.items()})
                if first is None:
                    first = ctx.written.copy()
                elif not np.array_equal(first, ctx.written):
                    raise GroupRefused("a VF accessed other UB bytes in another block")
        finally:
            self.ub.leave_row()
            ctx.block_idx = lanes

    # -- the end of a group ---------------------------------------------------------------

    def read(self, memory: Memory, start: int, end: int) -> None:
        """Note a plain read of ``[start, end)`` by every block (the same bytes for each)."""
        rows = np.ones(self.count, dtype=np.int64)
        self.accesses.append((memory, rows * start, rows * end, False))

    def claim(self) -> None:
        """Refuse cross-block sharing of GM bytes; claim each block's writes for the race check."""
        by_memory: dict[int, tuple[Memory, list[tuple[Lanes, Lanes, bool]]]] = {}
        for memory, starts, ends, write in self.accesses:
            by_memory.setdefault(id(memory), (memory, []))[1].append((starts, ends, write))
        for memory, spans in by_memory.values():
            _no_sharing(spans, self.count)
            hook = self.races.hook_of(memory)
            writes = [(starts, ends) for starts, ends, write in spans if write]
            if hook is None or not writes:
                continue
            claimed = [  # each block's writes joined where they meet
                (start, end, self.first + k)
                for k in range(self.count)
                for start, end in _joined([(int(s[k]), int(e[k])) for s, e in writes])
            ]
            if hook.record_apart(claimed):
                continue
            for start, end, block in claimed:
                self.races.block = block
                hook.record(start, end)

    def writes_of(self, memory: Memory, blocks: list[int]) -> list[tuple[int, int]]:
        """Return the GM spans of *memory* the group's *blocks* (0 = its first) wrote, joined."""
        return _joined(
            [
                (int(starts[k]), int(ends[k]))
                for written, starts, ends, write in self.accesses
                if write and written is memory
                for k in blocks
            ]
        )

    def written(self) -> list[tuple[Memory, int, np.ndarray[Any, Any]]]:
        """Return the GM bytes the group wrote, as they are now (the first-launch check)."""
        return [(m, s, Journal.now(m, s, old).copy()) for m, s, old in self.journal.entries]


def _padded(burst: Any) -> bool:
    return bool(burst.left_pad or burst.right_pad or burst.fill_to_block)


def _blocks_view(data: Lanes, starts: Lanes, length: int) -> Lanes | None:
    """Return ``blocks x length`` bytes of *data* at *starts* as one view, if evenly spaced."""
    if starts.size > 1:
        step = int(starts[1] - starts[0])
        if step < length or not (np.diff(starts) == step).all():
            return None
    else:
        step = length
    return strided(data, int(starts[0]), (starts.size, length), (step, 1))


def _joined(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return *spans* sorted, those that overlap or meet joined.

    Examples
    --------
    >>> _joined([(8, 12), (0, 4), (4, 6), (10, 16)])
    [(0, 6), (8, 16)]
    """
    joined: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        elif end > start:
            joined.append((start, end))
    return joined


def _misaligned(layout: BlockLayout, size: int) -> bool:
    """Return whether some block's address is not a multiple of *size* when the first's is."""
    if layout.step is not None:
        return bool(layout.step % size)
    return bool((layout.deltas % size).any())


def _even_views(
    rows: Lanes,
    data: Lanes,
    ub_starts: Lanes,
    gm_starts: Lanes,
    length: int,
    into_ub: bool,
    block_step: int | None,
) -> tuple[Lanes, Lanes] | None:
    """Return ``blocks x bursts x length`` views of the UB rows and of GM for a copy, or None.

    That is when the bursts are evenly spaced on both sides and the blocks in GM (*block_step*:
    their step, None when uneven), and no two bursts' bytes overlap on the side the copy writes
    (reads may share bytes: a shared row).
    """
    count, n = gm_starts.shape
    if block_step is None:
        return None
    ub_step = int(ub_starts[1] - ub_starts[0]) if n > 1 else length
    gm_step = int(gm_starts[0, 1] - gm_starts[0, 0]) if n > 1 else length
    if min(ub_step, gm_step, block_step) < 0 or (into_ub and ub_step < length):
        return None
    if not into_ub and (
        gm_step < length or (count > 1 and block_step < (n - 1) * gm_step + length)
    ):
        return None
    if n > 1 and (
        (np.diff(ub_starts) != ub_step).any() or (np.diff(gm_starts, axis=1) != gm_step).any()
    ):
        return None
    ub_side = strided(rows, int(ub_starts[0]), (count, n, length), (rows.strides[0], ub_step, 1))
    gm_side = strided(data, int(gm_starts[0, 0]), (count, n, length), (block_step, gm_step, 1))
    return ub_side, gm_side


def _no_sharing(spans: list[tuple[Lanes, Lanes, bool]], count: int) -> None:
    """Refuse when a block reads GM bytes another block of the group writes.

    Run one after another, the later block would see the earlier one's bytes (or the earlier
    the old ones); in the group, both see what the group's order gives. Two blocks writing the
    same bytes is the race check's (:meth:`Group.claim`). The span ends cut GM into segments;
    each segment gets its writer (none, one block, or several) and each read must see no
    segment written by another block than its own.
    """
    reads = [(s, e) for s, e, w in spans if not w]
    writes = [(s, e) for s, e, w in spans if w]
    if not reads or not writes:
        return
    low = np.concatenate([s for s, _ in writes]).min()
    high = np.concatenate([e for _, e in writes]).max()
    below = np.concatenate([e for _, e in reads]) <= low
    if (below | (np.concatenate([s for s, _ in reads]) >= high)).all():
        return  # every read lies below or above every write (input and output buffers)
    blocks = np.arange(1, count + 1, dtype=np.int64)
    w_start, w_end, w_block = _flat(writes, blocks)
    r_start, r_end, r_block = _flat(reads, blocks)
    cuts = np.unique(np.concatenate([w_start, w_end, r_start, r_end]))
    owner = _writers(cuts, w_start, w_end, w_block)
    # Prefix sums over segments: several writers; one writer, their number, sum and squares.
    several = np.concatenate([[0], np.cumsum(owner < 0)])
    mine = np.where(owner > 0, owner, 0)
    owned = [
        np.concatenate([[0], np.cumsum(v)])
        for v in ((owner > 0).astype(np.int64), mine, mine * mine)
    ]
    lo, hi = np.searchsorted(cuts, r_start), np.searchsorted(cuts, r_end)
    n, total, squares = (p[hi] - p[lo] for p in owned)
    # All writers of the read's segments are its own block iff their sum and squares say so.
    foreign = (
        (several[hi] > several[lo]) | (total != r_block * n) | (squares != r_block * r_block * n)
    )
    if foreign.any():
        raise GroupRefused("a block reads GM bytes another block of the group writes")


def _flat(spans: list[tuple[Lanes, Lanes]], blocks: Lanes) -> tuple[Lanes, Lanes, Lanes]:
    """Return the non-empty spans' starts, ends and blocks (numbered from 1) as flat arrays."""
    starts = np.concatenate([s for s, _ in spans]).astype(np.int64)
    ends = np.concatenate([e for _, e in spans]).astype(np.int64)
    owners = np.tile(blocks, len(spans))
    keep = ends > starts
    return starts[keep], ends[keep], owners[keep]


def _writers(cuts: Lanes, starts: Lanes, ends: Lanes, blocks: Lanes) -> Lanes:
    """Return each segment's writer: 0 none, the block (from 1), or -1 for several blocks."""
    lo, hi = np.searchsorted(cuts, starts), np.searchsorted(cuts, ends)
    sums = np.zeros((3, cuts.size), dtype=np.int64)
    for row, value in enumerate((np.ones_like(blocks), blocks, blocks * blocks)):
        np.add.at(sums[row], lo, value)
        np.add.at(sums[row], hi, -value)
    n, total, squares = np.cumsum(sums, axis=1)[:, :-1]
    one_block = total * total == n * squares  # equal values: no spread
    return np.where(n == 0, 0, np.where(one_block, total // np.maximum(n, 1), -1))


def _per_block_value(cell: Any) -> bool:
    """Tell whether a closure cell holds a value of each block (a set cell: empty is not)."""
    try:
        return isinstance(cell.cell_contents, BlockLanes | BlockGmPtr)
    except ValueError:
        return False


def _of_block(args: tuple[Any, ...], k: int) -> list[Any]:
    out = []
    for arg in args:
        if isinstance(arg, BlockLanes):
            arg = arg.values[k].item()
        elif isinstance(arg, BlockGmPtr):
            arg = arg.of(k)
        out.append(arg)
    return out

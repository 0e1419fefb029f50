"""The pipe tracker's shortcuts give the errors and records of the full check.

The shortcuts: a pipe found ordered after every other pipe's records stays ``clear`` (its
accesses skip the conflict check) until another pipe accesses or it begins a copy; a
multi-burst copy whose spans are free of conflicts (``copy_free``) skips each burst's check; a wait
finds that in the pass that raises the clocks; records wait in a per-pipe log and are filed
under their pages only when a scan would read many of them, and a log whose hull of a space
misses the access is not read at all; a floor is recomputed only when
its lagging watcher's clock rose. A reference tracker with none of them (never clear, every
raised clock recomputed, every scan through the pages) runs the same operations: each
operation must raise the same error, and the records and floors must stay the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg.errors import SyncError
from ascreg.machine import sync
from ascreg.machine.sync import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    LoopAccess,
    PipeTracker,
    RowsAccess,
)

PIPES = [PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3]
GM = 7
"""The ``space`` of the GM records of these tests."""


class _NeverLags(dict[Any, Any]):
    """A ``lagging`` map that knows no lagging watcher: every raised clock is recomputed."""

    def get(self, key: Any, default: Any = None) -> Any:
        return None


class Reference(PipeTracker):
    """A tracker without its shortcuts (run it with ``LOG_SCAN`` 0: every scan files)."""

    def __init__(self) -> None:
        super().__init__()
        self.lagging = _NeverLags()

    @property
    def clear(self) -> None:
        return None

    @clear.setter
    def clear(self, value: Any) -> None:
        pass

    def _rows_free(self, pipe: Any, groups: list[RowsAccess]) -> bool:
        """Each group's span on its own (the tracker checks them merged)."""
        return not any(
            self._earliest_conflict(pipe, g.start, g.end, g.write, sync.UB, 0) for g in groups
        )


def _loop(start: int, gap: int | None = None) -> LoopAccess:
    """A batched loop on V: a load of two rows, then a store of two rows 1 KiB on.

    With *gap*: first another load of two rows *gap* bytes after the first (its span overlaps,
    touches or leaves a gap after the other load's, which the tracker checks merged).
    """
    rows = start + np.array([0, 256])
    if gap is None:
        load = RowsAccess(PIPE_V, start, start + 512, False, 3, rows=rows, width=256,
                          ranks=np.array([1, 3]), order=1)  # fmt: skip
        store = RowsAccess(PIPE_V, start + 1024, start + 1536, True, 4, rows=rows + 1024,
                           width=256, ranks=np.array([2, 4]), order=2)  # fmt: skip
        return LoopAccess([load, store])
    other = RowsAccess(PIPE_V, start + gap, start + gap + 512, False, 4, rows=rows + gap,
                       width=256, ranks=np.array([1, 4]), order=1)  # fmt: skip
    load = RowsAccess(PIPE_V, start, start + 512, False, 5, rows=rows, width=256,
                      ranks=np.array([2, 5]), order=2)  # fmt: skip
    store = RowsAccess(PIPE_V, start + 1024 + gap, start + 1536 + gap, True, 6,
                       rows=rows + 1024 + gap, width=256, ranks=np.array([3, 6]), order=3)  # fmt: skip
    return LoopAccess([other, load, store])


def _apply(tracker: PipeTracker, op: tuple[Any, ...]) -> str:
    """Run one operation on *tracker*; return its error message ('' when none)."""
    kind, *args = op
    try:
        if kind == "access":
            pipe, start, size, write, gm = args
            tracker.access(pipe, start, start + size, write, GM if gm else sync.UB)
        elif kind == "copy":
            tracker.begin_copy(args[0])
        elif kind == "flag":
            tracker.notify(args[0], args[1], 0)
            tracker.wait(args[0], args[1], 0)
        elif kind == "notify":
            tracker.notify(args[0], args[1], 1)
        elif kind == "wait":
            tracker.wait(args[0], args[1], 1)
        elif kind == "complete":
            tracker.complete(args[0], args[1])
        elif kind == "pipe_barrier":
            tracker.pipe_barrier(args[0])
        elif kind == "barrier":
            tracker.barrier()
        elif kind == "rows":
            return "" if tracker.access_rows(PIPE_V, _loop(*args)) else "refused"
        elif kind == "bursts":
            _bursts(tracker, *args)
    except SyncError as error:
        return str(error)
    return ""


def _bursts(tracker: PipeTracker, pipe: Any, ub: int, gm: int, count: int, stride: int) -> None:
    """A copy of *count* 64-byte bursts *stride* bytes apart, as ``ascreg.machine.mte`` makes it.

    MTE2 reads GM and writes UB, MTE3 reads UB and writes GM, burst by burst; the tracker
    under test first asks whether the spans of all bursts are free (the reference checks each).
    """
    tracker.begin_copy(pipe)
    into_ub = pipe is PIPE_MTE2
    hulls = ((sync.UB, ub, ub + (count - 1) * stride + 64, into_ub),
             (GM, gm, gm + (count - 1) * stride + 64, not into_ub))  # fmt: skip
    free = not isinstance(tracker, Reference) and tracker.copy_free(pipe, hulls)
    for i in range(count):
        sides = [(ub + i * stride, sync.UB, into_ub), (gm + i * stride, GM, not into_ub)]
        for start, space, write in sides if not into_ub else sides[::-1]:
            tracker.access(pipe, start, start + 64, write, space, free=free)


_pipe = st.sampled_from(PIPES)
_pair = st.tuples(_pipe, _pipe).filter(lambda pair: pair[0] is not pair[1])
OPS = st.one_of(
    st.tuples(
        st.just("access"),
        _pipe,
        st.integers(0, 40).map(lambda k: k * 128),
        st.sampled_from([64, 256, 20000]),
        st.booleans(),
        st.booleans(),
    ),
    st.tuples(st.just("copy"), st.sampled_from([PIPE_MTE2, PIPE_MTE3])),
    st.tuples(st.just("flag"), *[_pipe] * 2).filter(lambda op: op[1] is not op[2]),
    _pair.map(lambda pair: ("notify", *pair)),
    _pair.map(lambda pair: ("wait", *pair)),
    _pair.map(lambda pair: ("complete", *pair)),
    st.tuples(st.just("pipe_barrier"), _pipe),
    st.just(("barrier",)),
    st.tuples(st.just("rows"), st.integers(0, 20).map(lambda k: k * 256)),
    st.tuples(
        st.just("bursts"),
        st.sampled_from([PIPE_MTE2, PIPE_MTE3]),
        st.integers(0, 40).map(lambda k: k * 128),
        st.integers(0, 40).map(lambda k: k * 128),
        st.integers(2, 6),
        st.sampled_from([64, 128, 512]),
    ),
    st.tuples(
        st.just("rows"),
        st.integers(0, 20).map(lambda k: k * 256),
        st.sampled_from([256, 512, 1024, 2048]),
    ),
)


def _state(tracker: PipeTracker) -> tuple[Any, ...]:
    records = [(r.pipe, r.start, r.end, r.write, r.seq, r.space, r.order) for r in tracker.records]
    return records, dict(tracker.floor), dict(tracker.seq), tracker.count


def _unfiled(tracker: PipeTracker, op: tuple[Any, ...]) -> str:
    """:func:`_apply` with every scan filing its log first (``LOG_SCAN`` 0)."""
    default, sync.LOG_SCAN = sync.LOG_SCAN, 0
    try:
        return _apply(tracker, op)
    finally:
        sync.LOG_SCAN = default


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(OPS, min_size=1, max_size=60))
def test_the_shortcuts_give_the_reference_errors_and_records(ops: list[tuple[Any, ...]]) -> None:
    fast, reference = PipeTracker(), Reference()
    for op in ops:
        expected = _unfiled(reference, op)
        assert _apply(fast, op) == expected, op
        if expected:  # a kernel stops at its first error
            break
    assert _state(fast) == _state(reference)


def test_a_filed_record_that_is_extended_is_seen_with_its_new_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """S writes, notifies and writes the same bytes again (extending its record after a scan
    filed it); V waits for the first write only, so its read conflicts with the second."""
    monkeypatch.setattr(sync, "LOG_SCAN", 0)
    tracker = PipeTracker()
    tracker.access(PIPE_S, 0, 4, True)
    tracker.notify(PIPE_S, PIPE_V, 0)
    assert not tracker.access_rows(PIPE_V, _loop(0))  # refused: its scan files S's log
    assert not tracker.logs[PIPE_S] and tracker.pages[PIPE_S]
    tracker.access(PIPE_S, 0, 4, True)  # extends the filed record
    assert tracker.count == 1
    tracker.wait(PIPE_S, PIPE_V, 0)
    with pytest.raises(SyncError, match=r"PIPE_V reads UB \[0x0, 0x4\) that PIPE_S wrote"):
        tracker.access(PIPE_V, 0, 4, False)


def test_a_floor_rises_when_its_lagging_watcher_catches_up() -> None:
    tracker = PipeTracker()
    tracker.access(PIPE_V, 0, 64, True)
    for dst in (PIPE_S, PIPE_MTE2):
        tracker.notify(PIPE_V, dst, 0)
        tracker.wait(PIPE_V, dst, 0)
    assert tracker.lagging[PIPE_V] is PIPE_MTE3 and tracker.records
    tracker.notify(PIPE_V, PIPE_MTE3, 0)
    tracker.wait(PIPE_V, PIPE_MTE3, 0)
    assert tracker.floor[PIPE_V] == 1 and tracker.records == []


def test_after_a_floor_rises_the_lowest_watcher_is_the_lagging_one() -> None:
    tracker = PipeTracker()

    def order(dst: Any) -> None:
        tracker.notify(PIPE_V, dst, 0)
        tracker.wait(PIPE_V, dst, 0)

    tracker.access(PIPE_V, 0, 64, True)
    order(PIPE_MTE2)
    order(PIPE_MTE3)
    tracker.access(PIPE_V, 64, 128, True)
    order(PIPE_S)  # S knows both writes, MTE2 and MTE3 the first: the floor rises to it
    assert tracker.floor[PIPE_V] == 1 and tracker.lagging[PIPE_V] is PIPE_MTE2
    order(PIPE_MTE2)
    order(PIPE_MTE3)
    assert tracker.floor[PIPE_V] == 2 and tracker.records == []


def test_a_long_log_is_filed_and_the_earliest_conflict_is_still_named() -> None:
    tracker = PipeTracker()
    for k in range(3 * sync.LOG_SCAN):  # one MTE2 copy writing many ranges
        tracker.access(PIPE_MTE2, k * 64, k * 64 + 64, True)
    with pytest.raises(SyncError, match=r"reads UB \[0x140, 0x400\) that PIPE_MTE2 wrote "
                                        r"\(overlap \[0x140, 0x180\)\)"):  # fmt: skip
        tracker.access(PIPE_V, 0x140, 0x400, False)
    assert not tracker.logs[PIPE_MTE2]  # the scan filed the log under its pages


def test_a_clear_pipe_is_checked_again_after_another_pipe_writes() -> None:
    tracker = PipeTracker()
    tracker.access(PIPE_V, 0, 64, False)
    assert tracker.clear is PIPE_V
    tracker.access(PIPE_S, 64, 128, True)  # V has not waited for it
    with pytest.raises(SyncError, match="PIPE_V reads UB"):
        tracker.access(PIPE_V, 0, 128, False)


def test_a_new_copy_on_a_clear_pipe_is_checked_against_the_copy_before() -> None:
    tracker = PipeTracker()
    tracker.notify(PIPE_MTE3, PIPE_MTE2, 0)
    tracker.wait(PIPE_MTE3, PIPE_MTE2, 0)  # MTE2 clear from the wait on
    tracker.begin_copy(PIPE_MTE2)
    tracker.access(PIPE_MTE2, 0, 64, True)
    assert tracker.clear is PIPE_MTE2
    tracker.begin_copy(PIPE_MTE2)  # the first copy is now an earlier one: not clear
    with pytest.raises(SyncError, match="copies on one pipe may overlap"):
        tracker.access(PIPE_MTE2, 32, 96, True)


def test_a_wait_does_not_clear_a_copy_pipe_with_an_earlier_copy_unordered() -> None:
    tracker = PipeTracker()
    tracker.begin_copy(PIPE_MTE2)
    tracker.access(PIPE_MTE2, 0, 64, True)
    tracker.begin_copy(PIPE_MTE2)
    tracker.notify(PIPE_S, PIPE_MTE2, 0)
    tracker.wait(PIPE_S, PIPE_MTE2, 0)  # orders nothing of MTE2 itself
    assert tracker.clear is not PIPE_MTE2
    with pytest.raises(SyncError, match="copies on one pipe may overlap"):
        tracker.access(PIPE_MTE2, 0, 64, True)


@pytest.mark.parametrize(("gap", "conflicts"), [(256, True), (512, True), (1024, False)])
def test_merged_spans_see_a_record_inside_either_group(gap: int, conflicts: bool) -> None:
    """An unordered S write at [600, 604): inside the second load's rows when they start 256
    or 512 bytes on (the two loads' spans merge), in the gap between them at 1024."""
    for tracker in (PipeTracker(), Reference()):
        tracker.access(PIPE_S, 600, 604, True)
        assert tracker.access_rows(PIPE_V, _loop(0, gap)) is not conflicts

"""The blocks of a launch, run one after the other, or as cooperative phases at ``SyncAll``.

A launch runs its blocks in order, each to its end (:meth:`BlockRunner.run_from`). ``SyncAll``
(every block of the launch waits until all have reached it) cannot be run that way: the first
block to reach it would wait for blocks that have not started. So the first ``SyncAll`` turns
the launch cooperative: the remaining blocks each get a Python thread, and exactly one block
runs at any time. A block that reaches ``SyncAll`` parks and hands over to the next block that
can run (lowest index first); when every participating block has arrived, all of them are
released and run again in block order, each to its next ``SyncAll`` or its end. The result is
the same on every run (no thread ever runs concurrently with another).

Misuse the chip would hang on is a :class:`~ascreg.errors.SyncError`: a block that ends while
others wait at a ``SyncAll`` it never reached (a ``SyncAll`` inside a branch some blocks skip),
blocks waiting at different kinds of ``SyncAll``, and a ``SyncAll`` reached after an earlier
block of the launch has already ended without it.

Examples
--------
>>> runner = BlockRunner(lambda: None, (), {}, 2, 0, "k", None, {})
>>> runner.run_from(0); runner.done
[0, 1]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ascreg.errors import SyncError
from ascreg.machine import block as _block_module
from ascreg.machine.block import BlockContext, block
from ascreg.machine.crosscore import RUNNER_STATE
from ascreg.machine.progress import LaunchProgress
from ascreg.machine.races import _ATOMIC, GmRaceCheck
from ascreg.machine.sync import Pipe  # noqa: F401 (the doctests use it)


class _Abort(BaseException):
    """Unwinds a parked block after another block of the launch failed."""


@attrs.define(eq=False)
class Barrier:
    """What the blocks waiting at the current ``SyncAll`` wait for.

    Attributes
    ----------
    kind
        How the ``SyncAll`` was written (``"SyncAll()"``, ``"SyncAll(gm, ub, 4)"``); blocks
        waiting at different kinds would hang.
    participants
        The runner members that must all arrive: block indices, or in a mixed launch the cores'
        places in the run order (:func:`ascreg.machine.crosscore.topology`).
    """

    kind: str
    participants: Sequence[int]


@attrs.define(eq=False)
class _Member:
    """One block of a cooperative launch: its baton, its thread and where it stands."""

    index: int
    go: threading.Semaphore = attrs.field(factory=lambda: threading.Semaphore(0))
    thread: threading.Thread | None = None
    state: str = "ready"  # "ready" (not started, or released) -> "running" -> "waiting" / "done"
    saved: tuple[list[BlockContext], int] = ([], 0)
    until: Callable[[], bool] | None = None
    """While parked on a flag (:meth:`BlockRunner.block_on`): True once it may go on."""
    what: str = ""
    """What it waits for (for the hang report)."""


class BlockRunner:
    """Run the blocks of one launch (see the module docstring).

    Parameters
    ----------
    func, args, kwargs
        The kernel and its launch arguments.
    blocks, dyn_bytes, name
        ``numBlocks``, the dynamic UB bytes and the kernel's name.
    races
        The launch's GM race check, or None (one block).
    shared
        The launch-shared block state; the runner registers itself there.
    cores
        The cores of a mixed launch (:func:`ascreg.machine.crosscore.topology`), run in that
        order as the runner's members; None: the members are the blocks.
    """

    def __init__(
        self,
        func: Callable[..., None],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        blocks: int,
        dyn_bytes: int,
        name: str,
        races: GmRaceCheck | None,
        shared: dict[str, Any],
        cores: list[Any] | None = None,
    ) -> None:
        self.func, self.args, self.kwargs = func, args, kwargs
        self.cores = cores
        self.count = blocks if cores is None else len(cores)
        """How many members run (the blocks, or the cores of a mixed launch)."""
        self.blocks, self.dyn_bytes, self.name = blocks, dyn_bytes, name
        self.races = races
        self.shared = shared
        shared[RUNNER_STATE] = self
        self.done: list[int] = []
        """The blocks that have ended, in the order they ended."""
        self.members: dict[int, _Member] | None = None
        """The blocks of the cooperative phase (None until the first ``SyncAll``)."""
        self.barrier: Barrier | None = None
        self.waiting: set[int] = set()
        self.error: BaseException | None = None
        self.phases = 0
        """``SyncAll`` barriers completed so far."""
        self.progress: LaunchProgress | None = None
        """The launch's progress line, told of every block that ends in order."""
        self.contexts: dict[int, BlockContext] = {}
        """A mixed launch's core contexts by member, kept until :meth:`close`."""

    # -- running blocks ------------------------------------------------------------------------

    def run_block(self, index: int) -> None:
        """Run member *index* to its end, in the calling thread (then retire its UB).

        In a mixed launch the core's context (and UB) lives until the launch ends
        (:meth:`context_of`): its AIC may write an AIV's UB before that AIV starts or after it
        ends.
        """
        ctx = self.context_of(index)
        if self.races is not None:
            self.races.block = index
        try:
            with block(ctx):
                self.func(*self.args, **self.kwargs)
            check_sync_clean(ctx)
        finally:
            if self.cores is None:
                ctx.release()

    def context_of(self, index: int) -> BlockContext:
        """Return the context of member *index*: a new one, or a mixed launch's core's own.

        Examples
        --------
        >>> from ascreg.machine.crosscore import topology
        >>> runner = BlockRunner(lambda: None, (), {}, 1, 0, "k", None, {}, topology(1, 1, 2))
        >>> ctx = runner.context_of(2); ctx is runner.context_of(2), ctx.core.name
        (True, 'AIV 1')
        """
        found = self.contexts.get(index)
        if found is not None:
            return found
        core = None if self.cores is None else self.cores[index]
        block_idx = index if core is None else core.logical
        ctx = BlockContext(block_idx, self.blocks, self.dyn_bytes, self.name, shared=self.shared)
        ctx.core = core
        if core is not None:
            self.contexts[index] = ctx
        return ctx

    def run_from(self, start: int) -> None:
        """Run blocks *start* .. ``blocks - 1`` in order; at a ``SyncAll``, cooperatively."""
        index = start
        while index < self.count:
            self.run_block(index)
            if self.members is not None:  # the block started the cooperative phase
                self._finish(self.members[index])
                return
            self.done.append(index)
            if self.progress is not None:
                self.progress.update(len(self.done))
            index += 1

    # -- SyncAll -------------------------------------------------------------------------------

    def sync_all(self, ctx: BlockContext, barrier: Barrier) -> None:
        """Block *ctx* arrives at a ``SyncAll``: return once every participant has arrived."""
        index = self.member_of(ctx)
        if index not in barrier.participants:
            raise SyncError(
                f"{self._label(index)} calls {barrier.kind}, which synchronises "
                f"{self._span(barrier.participants)} only: a block outside them must not call it"
            )
        ended = [b for b in self.done if b in barrier.participants]
        if ended:
            raise SyncError(
                f"{self._label(index)} reached {barrier.kind} but {self._labels(ended)} of the "
                "launch already ended without reaching it: every participating block must call "
                "each SyncAll (the waiting blocks hang on the chip)"
            )
        if len(barrier.participants) == 1:
            self.phases += 1
            return
        if self.members is None:
            self._start(index)
        assert self.members is not None
        if self.barrier is None:
            self.barrier = barrier
        elif (self.barrier.kind, self.barrier.participants) != (barrier.kind, barrier.participants):
            raise SyncError(
                f"{self._label(index)} waits at {barrier.kind} while "
                f"{self._labels(sorted(self.waiting))} wait at {self.barrier.kind}: blocks "
                "waiting at different SyncAll calls hang on the chip"
            )
        me = self.members[index]
        me.state = "waiting"
        self.waiting.add(index)
        self._switch(me)

    def block_on(self, ctx: BlockContext, until: Callable[[], bool], what: str) -> None:
        """Park the running core of *ctx* until *until()* holds (a cross-core flag wait).

        The other members run meanwhile, lowest first; when none can run and this one still
        waits, the launch hangs: a :class:`~ascreg.errors.SyncError` names every waiter.
        """
        index = self.member_of(ctx)
        if self.members is None:
            self._start(index)
        assert self.members is not None
        me = self.members[index]
        me.state, me.until, me.what = "parked", until, what
        self._switch(me)

    def member_of(self, ctx: BlockContext) -> int:
        """Return the runner index of *ctx* (its core's place in a mixed launch, else its block)."""
        return ctx.block_idx if ctx.core is None else int(ctx.core.member)

    def _label(self, index: int) -> str:
        return f"block {index}" if self.cores is None else str(self.cores[index].name)

    def _labels(self, indices: Sequence[int]) -> str:
        """``"block(s) 0, 2"``, or in a mixed launch the cores' names (``"AIV 0, AIV 3"``)."""
        if self.cores is None:
            return f"block(s) {_list(list(indices))}"
        names = [str(self.cores[i].name) for i in indices]
        return ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")

    def _span(self, participants: Sequence[int]) -> str:
        if self.cores is None and isinstance(participants, range):
            return f"blocks {participants.start}..{participants.stop - 1}"
        return self._labels(participants)

    def _start(self, index: int) -> None:
        """Turn cooperative: block *index* (this thread) waits; later blocks get threads."""
        self.members = {index: _Member(index, state="running")}
        for later in range(index + 1, self.count):
            member = _Member(later)
            member.thread = threading.Thread(
                target=self._worker, args=(member,), name=f"{self.name}-block-{later}", daemon=True
            )
            self.members[later] = member

    def _worker(self, member: _Member) -> None:
        member.go.acquire()
        self._resume(member)
        try:
            if self.error is None:
                self.run_block(member.index)
        except _Abort:
            pass
        except BaseException as exc:  # reported in the launching thread
            self.error = self.error or exc
        finally:
            self._finish(member)

    def _finish(self, member: _Member) -> None:
        """Block *member* has ended: hand over to the next block, or end the launch."""
        member.state = "done"
        self.done.append(member.index)
        if member.thread is None:  # the launching thread: wait for the others, then report
            self._switch(member)
            self._stop()
            if self.error is not None:
                raise self.error
            return
        try:
            following = self._next() if self.error is None else None
        except SyncError as exc:
            self.error, following = exc, None
        self._give(following if following is not None else self._launcher())

    def _switch(self, me: _Member) -> None:
        """Hand the baton to the next block that can run; return when *me* has it again."""
        following = self._next()
        if following is me:
            me.state = "running"
            return
        if following is None and me.state == "done":
            return  # the launching thread ended last: every block is done
        me.saved = (list(_block_module._STACK), _ATOMIC[0])
        self._give(following if following is not None else self._launcher())
        me.go.acquire()
        self._resume(me)
        if self.error is not None and me.state != "done":
            raise _Abort if me.thread is not None else self.error
        me.state = "running" if me.state != "done" else "done"

    def _resume(self, me: _Member) -> None:
        _block_module._STACK[:], _ATOMIC[0] = me.saved
        if self.races is not None:
            self.races.block = me.index

    def _give(self, member: _Member) -> None:
        if member.state == "ready":
            member.state = "running"
        if member.thread is not None and not member.thread.is_alive() and member.state != "done":
            member.thread.start()
        member.go.release()

    def _launcher(self) -> _Member:
        assert self.members is not None
        return next(m for m in self.members.values() if m.thread is None)

    def _next(self) -> _Member | None:
        """Return the lowest ready block, releasing the barrier when all have arrived.

        None: every block has ended. Raises :class:`SyncError` when the waiting blocks can never
        be released (a participant ended without reaching the barrier).
        """
        assert self.members is not None
        for member in self.members.values():
            if member.state == "parked" and member.until is not None and member.until():
                member.state, member.until = "ready", None
        ready = [m for m in self.members.values() if m.state == "ready"]
        if ready:
            return min(ready, key=lambda m: m.index)
        parked = [m for m in self.members.values() if m.state == "parked"]
        if not self.waiting and not parked:
            return None
        missing = (
            []
            if self.barrier is None
            else [b for b in self.barrier.participants if b not in self.waiting]
        )
        if parked and (self.barrier is None or missing):
            self.error = self._hang(parked)
            raise self.error
        assert self.barrier is not None
        if missing:
            ended = [b for b in missing if b in self.done]
            raise SyncError(
                f"{self._labels(sorted(self.waiting))} wait at {self.barrier.kind} but "
                f"{self._labels(ended or missing)} ended without reaching it: every "
                "participating block must call each SyncAll (on the chip the waiting blocks "
                "hang; a SyncAll inside a branch some blocks skip does this)",
                call=self.barrier.kind,
            )
        self._release()
        return self._next()

    def _hang(self, parked: list[_Member]) -> SyncError:
        """Return the error of a launch whose every remaining core waits on a flag nobody sets."""
        waits = "; ".join(f"{self._label(m.index)} waits in {m.what}" for m in parked)
        if self.waiting and self.barrier is not None:
            waits += f"; {self._labels(sorted(self.waiting))} wait(s) at {self.barrier.kind}"
        ended = [self._label(i) for i in self.done]
        return SyncError(
            f"every core left waits: {waits}; no running core can raise those counters"
            + (f" ({', '.join(ended[:8])} already ended)" if ended else "")
            + ": on the chip the launch hangs (a CrossCoreWaitFlag with no matching "
            "CrossCoreSetFlag, or a set in a branch the setter skips)",
            call=self.name,
        )

    def _release(self) -> None:
        """Every participant has arrived: they all go on (GM writes before are ordered)."""
        assert self.members is not None
        for index in self.waiting:
            self.members[index].state = "ready"
        if self.races is not None and self.races.flags is not None:
            self.races.flags.meet(sorted(self.waiting))  # a mixed launch: order these cores only
        elif self.races is not None:
            self.races.new_phase()
        self.waiting.clear()
        self.barrier = None
        self.phases += 1

    def close(self) -> None:
        """End the launch: unwind parked blocks, join threads, retire the mixed cores' UB."""
        if self.members is not None:
            self._stop()
        for ctx in self.contexts.values():
            ctx.release()
        self.contexts.clear()

    def _stop(self) -> None:
        """Unwind the blocks still parked (after an error) and wait for every thread."""
        assert self.members is not None
        for member in self.members.values():
            if member.thread is not None and member.state != "done":
                if not member.thread.is_alive():
                    member.state = "done"  # never started: nothing to unwind
                    continue
                member.go.release()
                member.thread.join()
        for member in self.members.values():
            if member.thread is not None and member.thread.is_alive():
                member.thread.join()


def check_sync_clean(ctx: BlockContext) -> None:
    """Raise if the block ended with a flag set that nobody waited for, or a mutex still held.

    A launch calls this after each block returns. On the chip an event flag outlives the kernel:
    a leftover ``asc_sync_notify`` would release a wait of the *next* kernel before its data is
    ready, and a held mutex would block it. Kernels that pre-set flags (notify before the loop)
    balance them with waits after the loop and pass.

    Examples
    --------
    >>> ctx = BlockContext(block_idx=2, block_num=4)
    >>> ctx.tracker.notify(Pipe.PIPE_MTE2, Pipe.PIPE_V, 1)
    >>> check_sync_clean(ctx)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: block 2 ended with flags set but never waited for: (PIPE_MTE2 -> PIPE_V, EVENT_ID1) x1; on the chip a leftover flag releases a wait of the next kernel early: add the matching asc_sync_wait
    """
    pending = ctx.tracker.pending_flags()
    if pending:
        raise SyncError(
            f"block {ctx.block_idx} ended with flags set but never waited for: "
            + ", ".join(pending)
            + "; on the chip a leftover flag releases a wait of the next kernel early: add the "
            "matching asc_sync_wait"
        )
    held = ctx.tracker.held_mutexes()
    if held:
        raise SyncError(
            f"block {ctx.block_idx} ended holding {', '.join(held)} with no asc_unlock "
            "(lock and unlock are strictly paired)"
        )


def _list(indices: list[int]) -> str:
    return ", ".join(map(str, indices[:8])) + (", ..." if len(indices) > 8 else "")

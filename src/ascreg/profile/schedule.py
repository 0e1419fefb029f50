"""The schedule: when each recorded instruction runs, honouring the kernel's own flags and barriers.

Each block runs on its own core; launches follow one another. Within a block the model is the
chip's issue model (Ascend C programming guide: the scalar unit dispatches instructions to one
in-order queue per pipe):

* the scalar unit issues the program in order, :data:`issue <ascreg.profile.costs>` cycles an
  instruction, and runs scalar instructions itself; it stops only at a wait whose destination is
  ``PIPE_S`` and at a ``PIPE_ALL`` barrier (until every pipe has drained);
* each pipe runs its queue in order: an instruction starts once it is issued and the pipe's
  previous instruction has ended;
* a flag set is an instruction on its source pipe (it fires when the work before it is done); a
  flag wait is an instruction on its destination pipe that holds the queue until the oldest set
  of its flag has fired (queue tokens and mutexes: the set they name); an in-pipe barrier is an
  instruction on its pipe;
* a VF occupies ``PIPE_V`` for its launch (``vf_call``) and then each op group in turn: its
  calls times ``issue + repeats * per_unit`` (instructions inside a VF pipeline, so a group is
  not charged per-instruction latency; dual issue is ignored, which makes it an upper bound).

So nothing overlaps that the kernel's synchronisation forbids, and a stage the kernel never
overlapped (a single buffer) shows as idle time on the other pipes.

Examples
--------
>>> from ascreg.profile.record import BlockRecord, Instr, UNKNOWN
>>> from ascreg.profile.costs import DAV_3510
>>> rec = BlockRecord("k block 0", 0)
>>> copy = Instr("op", Pipe.PIPE_MTE2, "copy", UNKNOWN); copy.written = 4096
>>> rec.program = [copy]
>>> t = schedule([rec], DAV_3510.override({"MTE2": Cost(100, 1 / 64)}))
>>> t.makespan, [(s.track, s.start, s.end) for s in t.blocks[0].slices]
(165.0, [('SCALAR', 0.0, 1.0), ('MTE2', 1.0, 165.0)])
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable
from typing import Any

import attrs

from ascreg.machine.sync import Pipe
from ascreg.profile.costs import Cost, CostTable  # noqa: F401 (the doctest uses Cost)
from ascreg.profile.record import BlockRecord, Group, Instr, Site

TRACK_NAMES: dict[Pipe, str] = {
    Pipe.PIPE_S: "SCALAR",
    Pipe.PIPE_V: "VECTOR",
    Pipe.PIPE_MTE2: "MTE2",
    Pipe.PIPE_MTE3: "MTE3",
    Pipe.PIPE_MTE1: "MTE1",
    Pipe.PIPE_M: "CUBE",
    Pipe.PIPE_FIX: "FIXP",
}
"""Each pipe's track, named as the Ascend profiler names the pipes."""
MAIN_TRACKS = ("SCALAR", "VECTOR", "MTE2", "MTE3")
"""The tracks of a vector core, declared in every block's trace."""
WAIT = " wait"
"""Suffix of a pipe's wait track (its flag waits; ``SCALAR wait`` also holds ``PIPE_ALL``)."""


def wait_track(track: str) -> str:
    """Return the name of the wait track of pipe track *track*.

    Examples
    --------
    >>> wait_track("VECTOR")
    'VECTOR wait'
    """
    return track + WAIT


@attrs.define(eq=False)
class Slice:
    """One stretch of one track: an instruction, an op group of a VF, a wait or scalar issue.

    Attributes
    ----------
    track
        The track (``"MTE2"``, ``"VECTOR wait"``).
    name
        The op or what happened (``"Reg.Add"``, ``"WaitFlag MTE2->V #0"``).
    start, dur
        In cycles from the start of the profile.
    kind
        ``"issue"``, ``"scalar"``, ``"op"``, ``"vf"``, ``"group"``, ``"set"``, ``"wait"``,
        ``"barrier"`` or ``"pipe_barrier"``.
    site
        The kernel line it comes from (None for scalar issue).
    own
        The cycles it costs by itself: ``dur``, but for a wait or barrier its own cost
        without the stall.
    args
        What the trace shows with it (bytes, calls, dtype, ...).
    """

    track: str
    name: str
    start: float
    dur: float
    kind: str
    site: Site | None = None
    own: float = 0.0
    args: dict[str, Any] = attrs.field(factory=dict)

    @property
    def end(self) -> float:
        """``start + dur``."""
        return self.start + self.dur


@attrs.define(eq=False)
class Flow:
    """A flag set and the wait it released (an arrow in the trace)."""

    set: Slice
    wait: Slice


@attrs.define(eq=False)
class BlockTimeline:
    """The schedule of one block: slices, flows and counters, in cycles.

    Attributes
    ----------
    label, launch
        The block's name and its launch.
    start, end
        When its launch starts and when its last slice ends.
    counters
        ``(time, counter name, value)``: cumulative bytes per copy pipe, active vector lanes.
    """

    label: str
    launch: int
    start: float
    slices: list[Slice] = attrs.field(factory=list)
    flows: list[Flow] = attrs.field(factory=list)
    counters: list[tuple[float, str, float]] = attrs.field(factory=list)
    end: float = 0.0

    @property
    def tracks(self) -> list[str]:
        """The tracks its slices use, in a stable order (pipes, then their waits)."""
        used = {s.track for s in self.slices}
        order = [*MAIN_TRACKS, *TRACK_NAMES.values()]
        pipes = list(dict.fromkeys(t for t in order if t in used or t in MAIN_TRACKS))
        return pipes + [wait_track(t) for t in pipes]

    def busy(self) -> dict[str, float]:
        """Return the cycles each pipe track is busy (its slices' durations; waits excluded)."""
        busy = {track: 0.0 for track in self.tracks if not track.endswith(WAIT)}
        for piece in self.slices:
            if not piece.track.endswith(WAIT):
                busy[piece.track] = busy.get(piece.track, 0.0) + piece.dur
        return busy

    @property
    def makespan(self) -> float:
        """Cycles from its launch's start to its last slice's end."""
        return self.end - self.start

    @property
    def serial(self) -> float:
        """The cycles of every instruction run one after another (each slice's own cost)."""
        return sum(piece.own for piece in self.slices)


@attrs.define(eq=False)
class Timeline:
    """The schedule of a whole profile: every block of every launch.

    Attributes
    ----------
    blocks
        One :class:`BlockTimeline` per recorded block, in launch and block order.
    table
        The cost table it was computed with.
    """

    blocks: list[BlockTimeline]
    table: CostTable

    @property
    def makespan(self) -> float:
        """Cycles from the first launch's start to the last block's end."""
        return max((b.end for b in self.blocks), default=0.0)

    def critical(self) -> BlockTimeline | None:
        """Return the block that ends last (the one the makespan is)."""
        return max(self.blocks, key=lambda b: (b.end, -b.start), default=None)


def schedule(records: Iterable[BlockRecord], table: CostTable) -> Timeline:
    """Schedule the recorded blocks with the costs of *table* (see the module docstring).

    Blocks of one launch start together; a launch starts when the previous one has ended.
    """
    launches: dict[int, list[BlockRecord]] = defaultdict(list)
    for record in records:
        launches[record.launch].append(record)
    blocks: list[BlockTimeline] = []
    start = 0.0
    for launch in sorted(launches):
        done = [_Block(record, table, start).run() for record in launches[launch]]
        blocks += done
        start = max([start, *(b.end for b in done)])
    return Timeline(blocks, table)


class _Block:
    """The list scheduler of one block (see the module docstring)."""

    def __init__(self, record: BlockRecord, table: CostTable, start: float) -> None:
        self.record, self.table = record, table
        self.out = BlockTimeline(record.label, record.launch, start, end=start)
        self.scalar = start
        """When the scalar unit is free (it is PIPE_S)."""
        self.free: dict[Pipe, float] = defaultdict(lambda: start)
        self.fifo: dict[tuple[Any, ...], deque[Slice]] = defaultdict(deque)
        self.latest: dict[tuple[Any, ...], Slice] = {}
        self.issuing: Slice | None = None
        self.moved: dict[str, float] = defaultdict(float)
        self.issue_cost = table["issue"].cycles()

    def run(self) -> BlockTimeline:
        handlers = {
            "scalar": self._scalar,
            "op": self._op,
            "vf": self._vf,
            "set": self._set,
            "wait": self._wait,
            "barrier": self._barrier,
            "pipe_barrier": self._pipe_barrier,
        }
        for instr in self.record.program:
            handlers[instr.kind](instr)
        out = self.out
        out.end = max([out.start, *(s.end for s in out.slices)])
        return out

    # -- helpers ----------------------------------------------------------------------------

    def _slice(
        self,
        track: str,
        name: str,
        start: float,
        dur: float,
        kind: str,
        site: Site | None,
        **args: Any,
    ) -> Slice:
        own = args.pop("own", dur)
        piece = Slice(track, name, start, dur, kind, site, own, args)
        self.out.slices.append(piece)
        return piece

    def _issue(self) -> float:
        """Dispatch one instruction from the scalar unit; return when it is in its queue."""
        start, cost = self.scalar, self.issue_cost
        issuing = self.issuing
        if issuing is not None and issuing.end == start:
            issuing.dur += cost
            issuing.own += cost
            issuing.args["calls"] += 1
        elif cost > 0:
            self.issuing = self._slice(
                "SCALAR", "issue", start, cost, "issue", None, calls=1, cost_key="issue", units=0
            )
        self.scalar = start + cost
        return self.scalar

    def _on(self, pipe: Pipe) -> float:
        """Issue an instruction of *pipe*; return when its pipe may start it."""
        if pipe is Pipe.PIPE_S:
            return self.scalar
        return max(self._issue(), self.free[pipe])

    def _done(self, pipe: Pipe, end: float) -> None:
        self.free[pipe] = end
        if pipe is Pipe.PIPE_S:
            self.scalar = end

    # -- instructions -----------------------------------------------------------------------

    def _scalar(self, instr: Instr) -> None:
        start = self.scalar
        cost = self.table["scalar"].cycles()
        self._slice(
            "SCALAR",
            instr.name,
            start,
            cost,
            "scalar",
            instr.site,
            source=str(instr.site),
            cost_key="scalar",
            calls=1,
            units=0,
        )
        self._done(Pipe.PIPE_S, start + cost)

    def _op(self, instr: Instr) -> None:
        pipe = instr.pipe or Pipe.PIPE_S
        if pipe is Pipe.PIPE_S:
            self._scalar(instr)
            return
        track = TRACK_NAMES[pipe]
        units = float(max(instr.written, instr.read))
        if pipe is Pipe.PIPE_V:
            key = instr.name if instr.name in self.table.entries else "memory"
        else:
            key = track if track in self.table.entries else "MTE2"
        start = self._on(pipe)
        dur = self.table[key].cycles(units)
        args: dict[str, Any] = {
            "source": str(instr.site), "bytes": int(units), "cycles": dur, "cost_key": key,
            "calls": 1, "units": units,
        }  # fmt: skip
        if instr.bursts:
            args["bursts"] = instr.bursts
        if instr.dtype:
            args["dtype"] = instr.dtype
        self._slice(track, instr.name, start, dur, "op", instr.site, **args)
        self._done(pipe, start + dur)
        if pipe is not Pipe.PIPE_V:
            self.moved[track] += units
            self.out.counters.append((start + dur, f"{track} bytes", self.moved[track]))

    def _vf(self, instr: Instr) -> None:
        pipe = Pipe.PIPE_V
        at = self._on(pipe)
        call = self.table["vf_call"].cycles()
        self._slice(
            "VECTOR", f"{instr.name} (VF call)", at, call, "vf", instr.site,
            source=str(instr.site), cost_key="vf_call", calls=1, units=0,
        )  # fmt: skip
        at += call
        counters = self.out.counters
        for group in instr.groups:
            key = self._group_key(group)
            dur = group.calls * self.table[key].cycles(group.repeats)
            self._slice(
                "VECTOR", group.name, at, dur, "group", group.site,
                source=str(group.site), dtype=group.dtype, calls=group.calls,
                units=group.calls * group.repeats, lanes=group.lanes, cycles=dur, cost_key=key,
            )  # fmt: skip
            if dur > 0:
                counters.append((at, "VECTOR lanes active", group.lanes))
            at += dur
        counters.append((at, "VECTOR lanes active", 0.0))
        self._done(pipe, at)

    def _group_key(self, group: Group) -> str:
        if group.simt:
            return "simt"
        return self.table.vector_key(group.name.removeprefix("Reg."), group.family, group.dtype)

    def _set(self, instr: Instr) -> None:
        pipe = instr.pipe or Pipe.PIPE_S
        start = self._on(pipe)
        cost = self.table["set_flag"].cycles()
        piece = self._slice(
            TRACK_NAMES[pipe], instr.name, start, cost, "set", instr.site,
            source=str(instr.site), cost_key="set_flag", calls=1, units=0,
        )  # fmt: skip
        self._done(pipe, start + cost)
        if instr.key[0] == "flag":
            self.fifo[instr.key].append(piece)
        else:
            self.latest[instr.key] = piece

    def _wait(self, instr: Instr) -> None:
        pipe = instr.pipe or Pipe.PIPE_S
        ready = self._on(pipe)
        if instr.key[0] == "flag":
            queue = self.fifo.get(instr.key)
            released = queue.popleft() if queue else None
        else:
            released = self.latest.get(instr.key)
        cost = self.table["wait_flag"].cycles()
        end = max(ready, released.end if released is not None else ready) + cost
        piece = self._slice(
            wait_track(TRACK_NAMES[pipe]), instr.name, ready, end - ready, "wait", instr.site,
            own=cost, source=str(instr.site), stalled=end - ready - cost,
        )  # fmt: skip
        if released is not None:
            self.out.flows.append(Flow(released, piece))
        else:
            piece.args["unmatched"] = True
        self._done(pipe, end)

    def _barrier(self, instr: Instr) -> None:
        start = self.scalar
        cost = self.table["barrier"].cycles()
        end = max([start, *self.free.values()]) + cost
        self._slice(
            wait_track("SCALAR"), instr.name, start, end - start, "barrier", instr.site,
            own=cost, source=str(instr.site), stalled=end - start - cost,
        )  # fmt: skip
        for pipe in list(self.free):
            self.free[pipe] = end
        self.scalar = end

    def _pipe_barrier(self, instr: Instr) -> None:
        pipe = instr.pipe or Pipe.PIPE_S
        start = self._on(pipe)
        cost = self.table["pipe_barrier"].cycles()
        self._slice(
            TRACK_NAMES[pipe], instr.name, start, cost, "pipe_barrier", instr.site,
            source=str(instr.site), cost_key="pipe_barrier", calls=1, units=0,
        )  # fmt: skip
        self._done(pipe, start + cost)

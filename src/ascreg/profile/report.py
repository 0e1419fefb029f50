"""What a profile says in words (:class:`Summary`) and in a picture (:func:`plot`).

The summary describes the block that ends last (the makespan's block): the makespan in cycles
and in microseconds at the cost table's clock, each pipe's busy share, the bound, and the
source lines that take the most time. The bound is the busiest pipe (``vector``, ``MTE2``,
``MTE3``, ``scalar``) when it is busy at least :data:`BOUND_SHARE` of the makespan; otherwise
the pipes mostly wait for one another (``sync``: a missing double buffer, flags that serialise
the stages, or latency).

:func:`plot` needs matplotlib (``pip install ascreg[plot]``); nothing else here does.

Examples
--------
>>> from ascreg.profile.costs import DAV_3510
>>> from ascreg.profile.schedule import Timeline
>>> print(summarize(Timeline([], DAV_3510)).text())
ascreg profile: nothing was recorded (no op ran while it recorded)
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import attrs

from ascreg.errors import AscregError
from ascreg.profile.schedule import WAIT, BlockTimeline, Timeline

BOUND_SHARE = 0.6
"""A pipe busy at least this share of the makespan is the bound; below it the kernel is
``sync``-bound (its pipes wait for one another)."""
BOUND_NAMES = {"VECTOR": "vector", "SCALAR": "scalar"}
"""How the summary names a pipe track as the bound (the copy pipes keep their names)."""
COLOURS = {
    "issue": "#c7c7c7", "scalar": "#7f7f7f", "op": "#1f77b4", "vf": "#9467bd", "group": "#2ca02c",
    "set": "#ff7f0e", "wait": "#d62728", "barrier": "#8c564b", "pipe_barrier": "#8c564b",
}  # fmt: skip
"""Colour of each slice kind in :func:`plot`."""


@attrs.frozen
class LineTime:
    """The time one source line takes (its slices on the pipes, summed)."""

    source: str
    function: str
    names: tuple[str, ...]
    cycles: float
    share: float


@attrs.frozen
class Summary:
    """The numbers :meth:`text` prints (see the module docstring).

    Attributes
    ----------
    makespan_cycles, makespan_us, clock_ghz, clock_source
        The makespan and the clock it is converted with.
    block
        The block that ends last; ``blocks`` and ``launches``: how many were recorded.
    busy
        Per pipe: busy cycles and share of the makespan.
    bound
        ``"vector"``, ``"MTE2"``, ``"MTE3"``, ``"scalar"`` or ``"sync"``.
    lines
        The source lines by time, most first.
    table
        The cost table's name.

    Examples
    --------
    >>> from ascreg.examples import vector_add
    >>> from ascreg.profile import Profile
    >>> with Profile() as prof:
    ...     _ = vector_add.main()
    [Success] vector_add on 4 blocks (8192 floats) matches numpy.
    >>> found = prof.summary(show=False)
    >>> found.bound, found.blocks, found.lines[0].names
    ('MTE2', 4, ('DataCopy',))
    """

    makespan_cycles: float
    makespan_us: float
    clock_ghz: float
    clock_source: str
    block: str
    blocks: int
    launches: int
    busy: dict[str, tuple[float, float]]
    bound: str
    lines: tuple[LineTime, ...]
    table: str

    def text(self, top: int = 8) -> str:
        """Return the summary as lines of text (the *top* source lines).

        Examples
        --------
        >>> from ascreg.profile.costs import DAV_3510
        >>> from ascreg.profile.schedule import Timeline
        >>> summarize(Timeline([], DAV_3510)).text()
        'ascreg profile: nothing was recorded (no op ran while it recorded)'
        """
        if not self.blocks:
            return "ascreg profile: nothing was recorded (no op ran while it recorded)"
        out = [
            f"ascreg profile: {self.launches} launch(es), {self.blocks} block(s), "
            f"cost table {self.table}",
            f"makespan: {self.makespan_cycles:,.0f} cycles = {self.makespan_us:,.3f} us at "
            f"{self.clock_ghz:g} GHz ({self.clock_source})",
            f"busiest block: {self.block}",
            f"{'pipe':<8} {'busy cycles':>12} {'busy %':>7}",
        ]
        out += [
            f"{pipe:<8} {cycles:>12,.0f} {share * 100:>6.1f}%"
            for pipe, (cycles, share) in self.busy.items()
        ]
        out.append(f"bound: {self.bound}")
        if self.lines:
            out.append("top source lines by time:")
            for line in self.lines[:top]:
                out.append(
                    f"  {line.source:<28} {line.cycles:>10,.0f} cycles {line.share * 100:5.1f}%  "
                    f"{', '.join(line.names)} ({line.function})"
                )
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()


def summarize(timeline: Timeline) -> Summary:
    """Return the :class:`Summary` of *timeline*."""
    table = timeline.table
    block = timeline.critical()
    makespan = timeline.makespan
    us = makespan / (table.clock_ghz * 1000.0)
    launches = len({b.launch for b in timeline.blocks})
    if block is None:
        return Summary(
            0.0, 0.0, table.clock_ghz, table.clock_source, "", 0, 0, {}, "sync", (), table.name
        )
    span = block.makespan or 1.0
    busy = {pipe: (cycles, cycles / span) for pipe, cycles in block.busy().items()}
    return Summary(
        makespan, us, table.clock_ghz, table.clock_source, block.label, len(timeline.blocks),
        launches, busy, bound_of(busy), lines_of(block), table.name,
    )  # fmt: skip


def bound_of(busy: dict[str, tuple[float, float]]) -> str:
    """Return the bound of a block from its pipes' busy shares (see the module docstring).

    Examples
    --------
    >>> bound_of({"MTE2": (900.0, 0.9), "VECTOR": (100.0, 0.1)})
    'MTE2'
    >>> bound_of({"MTE2": (400.0, 0.4), "VECTOR": (400.0, 0.4)})
    'sync'
    """
    if not busy:
        return "sync"
    pipe, (_, share) = max(busy.items(), key=lambda item: item[1][1])
    return BOUND_NAMES.get(pipe, pipe) if share >= BOUND_SHARE else "sync"


def lines_of(block: BlockTimeline) -> tuple[LineTime, ...]:
    """Return *block*'s source lines by the time of their slices on the pipes (waits excluded)."""
    cycles: dict[str, float] = defaultdict(float)
    names: dict[str, dict[str, None]] = defaultdict(dict)
    functions: dict[str, str] = {}
    for piece in block.slices:
        if piece.site is None or piece.track.endswith(WAIT) or piece.dur <= 0:
            continue
        key = str(piece.site)
        cycles[key] += piece.dur
        names[key][piece.name] = None
        functions[key] = piece.site.function
    span = block.makespan or 1.0
    found = [LineTime(k, functions[k], tuple(names[k]), c, c / span) for k, c in cycles.items()]
    return tuple(sorted(found, key=lambda line: -line.cycles))


def plot(
    timeline: Timeline, *, block: int | None = None, ax: Any = None, title: str | None = None
) -> Any:
    """Draw one block's timeline with matplotlib and return the figure.

    Parameters
    ----------
    timeline
        The schedule.
    block
        Which block (its position among the recorded blocks); default: the one that ends last.
    ax
        A matplotlib ``Axes`` to draw into (default: a new figure).
    title
        The title (default: the block, the makespan and the bound).

    Raises
    ------
    AscregError
        When matplotlib is not installed (``pip install ascreg[plot]``) or there is no block.
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        raise AscregError(
            "plot() needs matplotlib, an optional extra: pip install ascreg[plot]",
            call="Profile.plot",
        ) from None
    chosen = timeline.critical() if block is None else timeline.blocks[block]
    if chosen is None:
        raise AscregError("nothing was recorded: there is no block to plot", call="Profile.plot")
    if ax is None:
        figure, ax = plt.subplots(figsize=(11, 3.2))
    else:
        figure = ax.figure
    tracks = [
        t for t in chosen.tracks if any(s.track == t for s in chosen.slices) or not t.endswith(WAIT)
    ]
    rows = {track: i for i, track in enumerate(reversed(tracks))}
    clock_us = timeline.table.clock_ghz * 1000.0
    for piece in chosen.slices:
        y = rows[piece.track]
        ax.broken_barh(
            [((piece.start - chosen.start) / clock_us, max(piece.dur, 0.0) / clock_us)],
            (y - 0.38, 0.76), facecolors=COLOURS.get(piece.kind, "#1f77b4"), linewidth=0,
        )  # fmt: skip
    for flow in chosen.flows:
        start = (flow.set.end - chosen.start) / clock_us
        end = (flow.wait.end - chosen.start) / clock_us
        ax.annotate(
            "", xy=(end, rows[flow.wait.track]), xytext=(start, rows[flow.set.track]),
            arrowprops={"arrowstyle": "->", "color": "#555555", "lw": 0.5, "alpha": 0.5},
        )  # fmt: skip
    ax.set_yticks(list(rows.values()), list(rows))
    ax.set_xlabel(f"microseconds at {timeline.table.clock_ghz:g} GHz")
    summary = summarize(timeline)
    ax.set_title(
        title
        or f"{chosen.label}: {chosen.makespan:,.0f} cycles ({chosen.makespan / clock_us:.2f} us), "
        f"bound: {summary.bound}"
    )
    kinds = {
        "op": "copy / op",
        "group": "vector op",
        "vf": "VF call",
        "wait": "wait",
        "set": "flag set",
        "issue": "scalar issue",
    }
    ax.legend(
        handles=[Patch(color=COLOURS[k], label=v) for k, v in kinds.items()],
        loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=len(kinds), fontsize="small", frameon=False,
    )  # fmt: skip
    ax.set_xlim(0, max(chosen.makespan / clock_us, 1e-9))
    figure.tight_layout()
    return figure

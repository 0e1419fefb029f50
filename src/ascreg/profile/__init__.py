"""See a kernel run: a pipe timeline and a cycle estimate, as a Perfetto trace and a picture.

``with ascreg.profile("trace.json") as prof:`` records what every block's pipes do while the
``with`` block runs kernels (or plain Reg code), then schedules it with a cost table
(:mod:`ascreg.profile.costs`, dav-3510 by default) honouring the flags and barriers the kernel
used (:mod:`ascreg.profile.schedule`), and writes the timeline as Trace Event JSON
(:mod:`ascreg.profile.chrome`: open it in https://ui.perfetto.dev or ``chrome://tracing``).
``prof.summary()`` prints the makespan, each pipe's busy share, the bound and the slowest source
lines; ``prof.plot()`` draws the timeline with matplotlib (``pip install ascreg[plot]``).
``ascreg.policy(profile="trace.json")`` (or :func:`ascreg.set_policy`) does the same around any
code; :func:`last` returns that profile.

The estimate is a model, not a measurement: instructions are charged by a table of published
figures and estimates (each entry says which), the scalar unit issues in order, each pipe runs
its queue in order. Fit the table to a real profiler trace with :func:`fit_costs`.

``import ascreg`` does not load this package; ``ascreg.profile`` loads it on first use.
Type checkers see a module: write ``ascreg.profile.profile("trace.json")`` (the same call)
where mypy checks the code.

Examples
--------
>>> import ascreg
>>> from ascreg.examples import vector_add
>>> with ascreg.profile() as prof:
...     _ = vector_add.main()
[Success] vector_add on 4 blocks (8192 floats) matches numpy.
>>> prof.makespan > 0, prof.summary(show=False).bound
(True, 'MTE2')
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import IO, Any

from ascreg.errors import AscregError
from ascreg.profile.chrome import check_trace, trace_events
from ascreg.profile.costs import DAV_3510, Cost, CostTable
from ascreg.profile.fit import Sample, fit_costs, samples_from_trace
from ascreg.profile.record import Recorder
from ascreg.profile.report import Summary, plot, summarize
from ascreg.profile.schedule import Timeline, schedule

__all__ = [
    "DAV_3510",
    "Cost",
    "CostTable",
    "Profile",
    "Sample",
    "Summary",
    "check_trace",
    "fit_costs",
    "last",
    "profile",
    "samples_from_trace",
]


class Profile:
    """A recording of what ran, and its estimated timeline (see the module docstring).

    Use it as a context manager (``with ascreg.profile(path) as prof:``), or call
    :meth:`start` and :meth:`stop`. Profiles do not nest.

    Parameters
    ----------
    path
        Where :meth:`stop` writes the Trace Event JSON (None: nowhere; see :meth:`write`).
    costs
        The cost table (default :data:`DAV_3510`).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, Reg, Ref, float32_t
    >>> ub = UnifiedBuffer(); x = ub.alloc(float32_t, 256); x.write(np.ones(256))
    >>> with Profile() as prof:
    ...     r = Reg.RegTensor[float32_t]()
    ...     for i in range(4):
    ...         Reg.LoadAlign(r, x + i * 64)
    ...         Reg.Adds(r, r, 1.0, Reg.CreateMask[float32_t]())
    >>> [(s.name, s.args["calls"]) for s in prof.timeline.blocks[0].slices if s.kind == "group"]
    [('Reg.LoadAlign', 4), ('Reg.CreateMask', 4), ('Reg.Adds', 4)]
    """

    def __init__(self, path: str | Path | None = None, *, costs: CostTable = DAV_3510) -> None:
        if not isinstance(costs, CostTable):
            raise AscregError(f"costs must be a CostTable, got {costs!r}", call="ascreg.profile")
        self.path = None if path is None else Path(path)
        self.costs = costs
        self.recorder = Recorder()
        self._timeline: Timeline | None = None
        self.recording = False

    def __enter__(self) -> Profile:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "recording" if self.recording else f"{self.makespan:,.0f} cycles"
        return f"<ascreg.profile {self.costs.name}: {state}>"

    def start(self) -> Profile:
        """Start recording (raise if another profile records)."""
        self.recorder.start()
        self.recording = True
        self._timeline = None
        return self

    def stop(self) -> Profile:
        """Stop recording, schedule what was recorded, and write the trace if a path was given."""
        if self.recording:
            self.recorder.stop()
            self.recording = False
        if self.path is not None:
            self.write(self.path)
        return self

    @property
    def timeline(self) -> Timeline:
        """The schedule of what was recorded (:class:`~ascreg.profile.schedule.Timeline`)."""
        if self.recording:
            raise AscregError(
                "the profile is still recording: stop it first", call="Profile.timeline"
            )
        if self._timeline is None:
            self._timeline = schedule(self.recorder.records, self.costs)
        return self._timeline

    @property
    def makespan(self) -> float:
        """The estimated makespan in cycles."""
        return self.timeline.makespan

    @property
    def makespan_us(self) -> float:
        """The estimated makespan in microseconds at the cost table's clock."""
        return self.makespan / (self.costs.clock_ghz * 1000.0)

    def with_costs(self, costs: CostTable) -> Profile:
        """Return the same recording scheduled with another cost table (nothing runs again).

        Examples
        --------
        >>> from ascreg.examples import vector_add
        >>> with Profile() as prof:
        ...     _ = vector_add.main()
        [Success] vector_add on 4 blocks (8192 floats) matches numpy.
        >>> slow = prof.with_costs(DAV_3510.override({"MTE2": Cost(5000, 0.1)}))
        >>> slow.makespan > prof.makespan
        True
        """
        other = Profile(costs=costs)
        other.recorder = self.recorder
        return other

    def trace(self) -> dict[str, Any]:
        """Return the timeline as a Trace Event JSON object (:mod:`ascreg.profile.chrome`)."""
        return trace_events(self.timeline)

    def write(self, path: str | Path) -> Path:
        """Write the trace to *path* (Trace Event JSON) and return the path."""
        target = Path(path)
        target.write_text(json.dumps(self.trace()), encoding="utf-8")
        return target

    def summary(self, top: int = 8, *, file: IO[str] | None = None, show: bool = True) -> Summary:
        """Print the summary (to *file*, default standard output) and return it.

        With ``show=False`` it only returns it (a :class:`Summary`; ``str()`` of it is the text).
        """
        found = summarize(self.timeline)
        if show:
            print(found.text(top), file=sys.stdout if file is None else file)
        return found

    def plot(
        self, block: int | None = None, *, ax: Any = None, path: str | Path | None = None
    ) -> Any:
        """Draw a block's timeline (default: the one that ends last) with matplotlib.

        Returns the matplotlib figure; with *path*, also saves it there. Needs matplotlib.
        """
        figure = plot(self.timeline, block=block, ax=ax)
        if path is not None:
            figure.savefig(path, dpi=110)
        return figure


def profile(path: str | Path | None = None, *, costs: CostTable = DAV_3510) -> Profile:
    """``ascreg.profile(path)``: a new :class:`Profile` (use it in a ``with`` statement).

    Examples
    --------
    >>> profile("trace.json").path.name
    'trace.json'
    """
    return Profile(path, costs=costs)


_POLICY: list[Profile] = []
"""The profile the policy switch made last (``ascreg.policy(profile=...)``)."""


def last() -> Profile | None:
    """Return the profile ``ascreg.policy(profile=path)`` made last (None if it made none).

    Examples
    --------
    >>> import os, ascreg
    >>> from ascreg.examples import vector_add
    >>> with ascreg.policy(profile=os.devnull):  # the trace file: here, nowhere
    ...     _ = vector_add.main()
    [Success] vector_add on 4 blocks (8192 floats) matches numpy.
    >>> str(last().path) == os.devnull, last().recording, last().makespan > 0
    (True, False, True)
    """
    return _POLICY[-1] if _POLICY else None


def _switch(path: str | None) -> None:
    """Stop (and write) the policy's profile, then start one for *path* (the policy switch)."""
    running = _POLICY[-1] if _POLICY else None
    if running is not None and running.recording:
        running.stop()
    if path is not None:
        _POLICY[:] = [Profile(path).start()]


class _ProfileModule(types.ModuleType):
    """The class of this package: calling it (``ascreg.profile(path)``) makes a :class:`Profile`."""

    def __call__(self, path: str | Path | None = None, *, costs: CostTable = DAV_3510) -> Profile:
        return Profile(path, costs=costs)


sys.modules[__name__].__class__ = _ProfileModule

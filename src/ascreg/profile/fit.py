"""Fitting the cost table to a real profiler trace.

A :class:`Sample` is one measured instruction (or one op group of a VF): the cost-table key it
is charged under, how many instructions it was, how many units of work they did, and the
cycles they took. :func:`fit_costs` solves, per key, ``cycles = issue * count + per_unit *
units`` by least squares (both non-negative) and returns the table with those entries
replaced, their provenance saying so. :func:`samples_from_trace` reads samples from a Trace
Event JSON document: by default its slices' ``cost_key``, ``calls`` and ``units`` arguments
(what ascreg's own traces carry), or whatever *key* and *units* make of another profiler's
slices (an msprof or simulator export: its instruction names mapped to cost keys).

Examples
--------
>>> from ascreg.profile.costs import DAV_3510
>>> fitted = fit_costs(DAV_3510, [Sample("MTE2", 1, 1024, 356), Sample("MTE2", 1, 4096, 1124)])
>>> round(fitted["MTE2"].issue, 6), round(fitted["MTE2"].per_unit, 6), fitted["MTE2"].source
(100.0, 0.25, 'fitted to 2 samples')
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from ascreg.errors import AscregError
from ascreg.profile.costs import Cost, CostTable


@attrs.frozen
class Sample:
    """One measurement: *count* instructions under cost key *key* did *units* units in *cycles*.

    Examples
    --------
    >>> Sample("Add:float", 8, 8, 12.0).cycles
    12.0
    """

    key: str
    count: float
    units: float
    cycles: float


def fit_costs(table: CostTable, samples: Iterable[Sample], *, source: str = "fitted") -> CostTable:
    """Return *table* with each key of *samples* fitted to them (see the module docstring).

    With one distinct ``units / count`` ratio a key's ``per_unit`` stays the table's and only
    its ``issue`` is fitted.

    Examples
    --------
    >>> from ascreg.profile.costs import DAV_3510
    >>> samples = [Sample("Exp:float", calls, calls, 5.0 * calls) for calls in (8, 64)]
    >>> fit_costs(DAV_3510, samples)["Exp:float"]  # one repeat a call: per_unit stays 4
    Cost(issue=1.0, per_unit=4.0, source='fitted to 2 samples')
    """
    by_key: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_key[sample.key].append(sample)
    if not by_key:
        raise AscregError("no samples to fit", call="fit_costs")
    fitted = {}
    for key, found in by_key.items():
        old = table.entries.get(key, Cost())
        issue, per_unit = _solve(found, old)
        fitted[key] = Cost(issue, per_unit, f"{source} to {len(found)} samples")
    return table.override(fitted, name=f"{table.name} (fitted)")


def _solve(samples: list[Sample], old: Cost) -> tuple[float, float]:
    """Least squares of ``cycles = issue * count + per_unit * units``, both non-negative."""
    count = np.array([s.count for s in samples], dtype=np.float64)
    units = np.array([s.units for s in samples], dtype=np.float64)
    cycles = np.array([s.cycles for s in samples], dtype=np.float64)
    ratios = {round(u / c, 9) for u, c in zip(units, count, strict=True) if c}
    if len(ratios) < 2:  # one shape: the slope is not identifiable
        per_unit = old.per_unit
        issue = float(
            np.sum((cycles - per_unit * units) * count) / max(np.sum(count * count), 1e-12)
        )
        return max(issue, 0.0), per_unit
    (issue, per_unit), *_ = np.linalg.lstsq(np.stack([count, units], axis=1), cycles, rcond=None)
    if per_unit < 0:
        return max(float(np.sum(cycles * count) / np.sum(count * count)), 0.0), 0.0
    if issue < 0:
        return 0.0, max(float(np.sum(cycles * units) / max(np.sum(units * units), 1e-12)), 0.0)
    return float(issue), float(per_unit)


def samples_from_trace(
    trace: Mapping[str, Any] | str | Path,
    *,
    clock_ghz: float,
    key: Callable[[Mapping[str, Any]], str | None] | None = None,
    units: Callable[[Mapping[str, Any]], tuple[float, float]] | None = None,
) -> list[Sample]:
    """Return the samples of a Trace Event JSON document (a dict, or the path of a file).

    Parameters
    ----------
    trace
        The document; its complete events (``"X"``) are the measurements, ``dur`` in
        microseconds.
    clock_ghz
        The clock the durations convert to cycles at.
    key
        The cost key of an event, or None to skip it (default: its ``args["cost_key"]``).
    units
        ``(count, units)`` of an event (default: its ``args["calls"]`` or 1, and
        ``args["units"]``).

    Examples
    --------
    >>> event = {"ph": "X", "name": "VADD", "dur": 0.01, "args": {"size": 2048}}
    >>> samples_from_trace({"traceEvents": [event]}, clock_ghz=1.6, key=lambda e: "Add:float",
    ...                    units=lambda e: (1, e["args"]["size"] / 256))
    [Sample(key='Add:float', count=1, units=8.0, cycles=16.0)]
    """
    if isinstance(trace, str | Path):
        trace = json.loads(Path(trace).read_text(encoding="utf-8"))
    assert isinstance(trace, Mapping)
    events = trace.get("traceEvents", [])
    found = []
    for event in events:
        if not isinstance(event, Mapping) or event.get("ph") != "X":
            continue
        args = event.get("args") or {}
        cost_key = key(event) if key is not None else args.get("cost_key")
        if not isinstance(cost_key, str):
            continue
        count, amount = (
            units(event) if units is not None else (args.get("calls", 1), args.get("units", 0))
        )
        found.append(
            Sample(
                cost_key, count, float(amount), round(float(event["dur"]) * clock_ghz * 1000.0, 6)
            )
        )
    return found

"""The timeline as Trace Event JSON, the format Perfetto and ``chrome://tracing`` open.

One process per block (``pid``), one thread per track (``tid``): the pipes ``SCALAR``,
``VECTOR``, ``MTE2``, ``MTE3`` and their wait tracks. Each slice is a complete event (``"X"``)
carrying the op, its source line and cycles in ``args``; each flag set is joined to the wait it
released by a flow (``"s"`` / ``"f"``); counters (``"C"``) show the bytes each copy pipe has
moved and the vector lanes active. Times are microseconds at the cost table's clock.
:func:`check_trace` lists what is wrong with such a document (the tests' schema).

Examples
--------
>>> from ascreg.profile.costs import DAV_3510
>>> trace = trace_events(Timeline([], DAV_3510))
>>> trace["otherData"]["makespan_cycles"], check_trace(trace)
(0.0, [])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ascreg.profile.schedule import Timeline

PHASES = frozenset({"X", "M", "C", "s", "f"})
"""The event kinds a trace holds."""
METADATA = frozenset({"process_name", "thread_name", "process_sort_index", "thread_sort_index"})
"""The metadata events (``"M"``) a trace holds."""


def trace_events(timeline: Timeline, *, clock_ghz: float | None = None) -> dict[str, Any]:
    """Return the Trace Event JSON object of *timeline* (see the module docstring)."""
    table = timeline.table
    clock = table.clock_ghz if clock_ghz is None else clock_ghz
    us = 1.0 / (clock * 1000.0)
    events: list[dict[str, Any]] = []
    flow_id = 0
    for pid, block in enumerate(timeline.blocks, 1):
        launch = f" (launch {block.launch})" if _launches(timeline) > 1 else ""
        events.append(_meta("process_name", pid, None, name=block.label + launch))
        events.append(_meta("process_sort_index", pid, None, sort_index=pid))
        tids = {track: tid for tid, track in enumerate(block.tracks, 1)}
        for track, tid in tids.items():
            events.append(_meta("thread_name", pid, tid, name=track))
            events.append(_meta("thread_sort_index", pid, tid, sort_index=tid))
        for piece in block.slices:
            args = {"cycles": piece.dur, "start_cycle": piece.start, **piece.args}
            if piece.site is not None:
                args["function"] = piece.site.function
            events.append({
                "ph": "X", "name": piece.name, "cat": piece.kind, "pid": pid,
                "tid": tids[piece.track], "ts": piece.start * us, "dur": piece.dur * us,
                "args": args,
            })  # fmt: skip
        for flow in block.flows:
            flow_id += 1
            released = max(flow.wait.start, flow.set.end)  # inside the wait's slice
            for ph, piece, at in (("s", flow.set, flow.set.start), ("f", flow.wait, released)):
                event = {
                    "ph": ph, "name": "flag", "cat": "flag", "id": flow_id, "pid": pid,
                    "tid": tids[piece.track], "ts": at * us,
                }  # fmt: skip
                if ph == "f":
                    event["bp"] = "e"
                events.append(event)
        for time, name, value in block.counters:
            events.append(
                {"ph": "C", "name": name, "pid": pid, "ts": time * us, "args": {"value": value}}
            )
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {
            "generator": "ascreg.profile",
            "cost_table": table.name,
            "clock_ghz": clock,
            "clock_source": table.clock_source if clock_ghz is None else "given",
            "makespan_cycles": timeline.makespan,
            "makespan_us": timeline.makespan * us,
        },
    }


def _launches(timeline: Timeline) -> int:
    return len({b.launch for b in timeline.blocks})


def _meta(kind: str, pid: int, tid: int | None, **args: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"ph": "M", "name": kind, "pid": pid, "args": args}
    if tid is not None:
        event["tid"] = tid
    return event


def check_trace(trace: Any) -> list[str]:
    """Return what is wrong with a Trace Event JSON document written here (empty: nothing).

    Checks the event kinds (``X``, ``M``, ``C``, ``s``, ``f``), the fields each needs,
    non-negative times and durations, that every slice's process and track is declared by
    ``process_name`` / ``thread_name`` metadata, and that every flow starts once and ends once,
    not before it starts.

    Examples
    --------
    >>> check_trace({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": -1, "dur": 0}]})
    ['event 0 (X a): ts -1 is negative', 'event 0 (X a): pid 1 is not declared by a process_name event', 'event 0 (X a): track (1, 1) is not declared by a thread_name event']
    """
    if not isinstance(trace, Mapping) or not isinstance(trace.get("traceEvents"), list):
        return ["the document is not an object with a traceEvents list"]
    problems: list[str] = []
    events = trace["traceEvents"]
    processes = {
        e.get("pid") for e in events if isinstance(e, Mapping) and e.get("name") == "process_name"
    }
    threads = {
        (e.get("pid"), e.get("tid"))
        for e in events
        if isinstance(e, Mapping) and e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    flows: dict[Any, dict[str, float]] = {}
    for i, event in enumerate(events):
        if not isinstance(event, Mapping):
            problems.append(f"event {i}: not an object")
            continue
        ph, name = event.get("ph"), event.get("name")
        where = f"event {i} ({ph} {name})"
        if ph not in PHASES:
            problems.append(f"{where}: unknown kind {ph!r}")
            continue
        if not isinstance(name, str) or not isinstance(event.get("pid"), int):
            problems.append(f"{where}: needs a str name and an int pid")
            continue
        problems += _check(event, where, processes, threads, flows)
    for key, ends in flows.items():
        if set(ends) != {"s", "f"}:
            problems.append(f"flow {key}: has {sorted(ends)} but needs one s and one f")
        elif ends["f"] < ends["s"]:
            problems.append(f"flow {key}: ends at {ends['f']} before it starts at {ends['s']}")
    return problems


def _check(
    event: Mapping[str, Any],
    where: str,
    processes: set[Any],
    threads: set[Any],
    flows: dict[Any, dict[str, float]],
) -> list[str]:
    """Return the problems of one event of a known kind."""
    ph, pid = event["ph"], event["pid"]
    problems = []
    if ph == "M":
        if event["name"] not in METADATA or not isinstance(event.get("args"), Mapping):
            problems.append(f"{where}: unknown metadata or no args")
        return problems
    ts = event.get("ts")
    if not isinstance(ts, int | float) or ts < 0:
        problems.append(
            f"{where}: ts {ts!r} is negative" if isinstance(ts, int | float) else f"{where}: no ts"
        )
    if ph == "X":
        dur = event.get("dur")
        if not isinstance(dur, int | float) or dur < 0:
            problems.append(f"{where}: dur {dur!r} is not a non-negative number")
    if ph == "C":
        args = event.get("args")
        if not isinstance(args, Mapping) or not all(
            isinstance(v, int | float) for v in args.values()
        ):
            problems.append(f"{where}: a counter's args are numbers")
    if pid not in processes:
        problems.append(f"{where}: pid {pid} is not declared by a process_name event")
    if ph in ("X", "s", "f") and (pid, event.get("tid")) not in threads:
        problems.append(
            f"{where}: track ({pid}, {event.get('tid')}) is not declared by a thread_name event"
        )
    if ph in ("s", "f"):
        ends = flows.setdefault((pid, event.get("id")), {})
        if ph in ends:
            problems.append(f"{where}: flow {event.get('id')} has two {ph} events")
        ends[ph] = float(ts) if isinstance(ts, int | float) else 0.0
    return problems

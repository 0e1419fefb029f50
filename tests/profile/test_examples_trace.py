"""Every bundled example emits a trace that validates against the schema of ascreg.profile.chrome."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
from pathlib import Path

import pytest

import ascreg
from ascreg.examples import EXAMPLES
from ascreg.profile import check_trace
from ascreg.profile.schedule import MAIN_TRACKS, wait_track

KINDS = {"X", "M", "C", "s", "f"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_trace_validates(name: str, tmp_path: Path) -> None:
    module = importlib.import_module(f"ascreg.examples.{name}")
    path = tmp_path / f"{name}.json"
    with contextlib.redirect_stdout(io.StringIO()), ascreg.profile(path) as prof:
        assert module.main()
    trace = json.loads(path.read_text(encoding="utf-8"))
    assert check_trace(trace) == []
    events = trace["traceEvents"]
    assert {e["ph"] for e in events} <= KINDS
    processes = [e for e in events if e["name"] == "process_name"]
    assert len(processes) == len(prof.recorder.records) >= 1  # one process per block
    for process in processes:
        tracks = {
            e["args"]["name"]
            for e in events
            if e["name"] == "thread_name" and e["pid"] == process["pid"]
        }
        assert {*MAIN_TRACKS, *map(wait_track, MAIN_TRACKS)} <= tracks
    ops = [e for e in events if e["ph"] == "X" and e["cat"] in {"op", "group", "scalar"}]
    assert ops and all(e["args"]["source"].startswith(f"{name}.py:") for e in ops)
    assert trace["otherData"]["makespan_cycles"] == prof.makespan > 0


def test_a_broken_trace_is_reported() -> None:
    events = [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "k block 0"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "MTE2"}},
        {"ph": "X", "name": "copy", "pid": 1, "tid": 2, "ts": 1.0, "dur": -1.0},
        {"ph": "s", "name": "flag", "pid": 1, "tid": 1, "id": 7, "ts": 5.0},
        {"ph": "f", "name": "flag", "pid": 1, "tid": 1, "id": 7, "ts": 2.0, "bp": "e"},
        {"ph": "Q", "name": "odd", "pid": 1},
    ]
    problems = check_trace({"traceEvents": events})
    assert problems == [
        "event 2 (X copy): dur -1.0 is not a non-negative number",
        "event 2 (X copy): track (1, 2) is not declared by a thread_name event",
        "event 5 (Q odd): unknown kind 'Q'",
        "flow (1, 7): ends at 2.0 before it starts at 5.0",
    ]
    assert check_trace([]) == ["the document is not an object with a traceEvents list"]

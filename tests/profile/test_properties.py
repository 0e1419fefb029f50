"""Properties of the schedule over random tile counts, buffer counts, barriers and costs."""

from __future__ import annotations

import itertools
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg.profile import Profile
from ascreg.profile.schedule import WAIT, BlockTimeline
from profile_kernels import any_table, equal_stages, record

EPS = 1e-6
KEYS = ("MTE2", "MTE3", "vf_call", "LoadAlign:b32", "Add:float", "StoreAlign:b32", "issue",
        "set_flag", "wait_flag", "barrier")  # fmt: skip

tiles = st.integers(1, 12)
buffers = st.sampled_from([1, 2])
costs = st.dictionaries(
    st.sampled_from(KEYS),
    st.tuples(st.floats(0, 2000), st.floats(0, 4)),
    max_size=len(KEYS),
)


def shaped(n: int, b: int, costs: dict[str, tuple[float, float]]) -> BlockTimeline:
    return record(n, b).with_costs(any_table(costs)).timeline.blocks[0]


@settings(max_examples=40)
@given(tiles, buffers, costs)
def test_slices_on_one_track_never_overlap(n: int, b: int, drawn: dict) -> None:
    by_track = defaultdict(list)
    for piece in shaped(n, b, drawn).slices:
        assert piece.start >= 0 and piece.dur >= 0
        by_track[piece.track].append(piece)
    for pieces in by_track.values():
        pieces.sort(key=lambda s: (s.start, s.end))
        for before, after in itertools.pairwise(pieces):
            assert after.start >= before.end - EPS, (before, after)


@settings(max_examples=40)
@given(tiles, buffers, costs)
def test_a_wait_never_ends_before_its_flag_was_set(n: int, b: int, drawn: dict) -> None:
    block = shaped(n, b, drawn)
    assert block.flows
    for flow in block.flows:
        assert flow.wait.end >= flow.set.end - EPS
        assert flow.wait.track.endswith(WAIT) and not flow.set.track.endswith(WAIT)


@settings(max_examples=40)
@given(tiles, buffers, costs)
def test_makespan_between_busiest_pipe_and_serial_sum(n: int, b: int, drawn: dict) -> None:
    block = shaped(n, b, drawn)
    assert max(block.busy().values()) - EPS <= block.makespan <= block.serial + EPS


@settings(max_examples=25)
@given(tiles, buffers, st.sets(st.integers(0, 11)), costs)
def test_pipe_all_barriers_never_shorten_it(n: int, b: int, where: set[int], drawn: dict) -> None:
    table = any_table(drawn)
    barriers = tuple(sorted(t for t in where if t < n))
    plain = record(n, b).with_costs(table).makespan
    fenced = record(n, b, barriers).with_costs(table).makespan
    assert fenced >= plain - EPS


@settings(max_examples=10)
@given(st.integers(8, 24))
def test_double_buffering_hides_two_stages_from_8_tiles_on(n: int) -> None:
    table = equal_stages()
    single = record(n, 1).with_costs(table).makespan
    double = record(n, 2).with_costs(table).makespan
    assert double <= 0.6 * single


def test_a_missing_double_buffer_shows_as_idle_pipes() -> None:
    table = equal_stages()
    single, double = (record(12, b).with_costs(table) for b in (1, 2))
    idle = {p: _idle(prof) for p, prof in (("single", single), ("double", double))}
    assert idle["single"] > 0.3 > idle["double"]
    assert single.summary(show=False).bound == "sync"
    assert double.summary(show=False).bound in {"vector", "MTE2", "MTE3"}


def _idle(prof: Profile) -> float:
    """The share of the makespan the busiest copy pipe is idle."""
    block = prof.timeline.blocks[0]
    return 1 - max(block.busy()[p] for p in ("MTE2", "MTE3")) / block.makespan

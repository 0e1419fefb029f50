"""Loops whose loads meet bytes other iterations store: batched where eager order allows it.

A load made before the store in the body, by an iteration before the storing one, reads the old
bytes in eager order, as the batch does: such loops batch. A later iteration reading what an
earlier one stored (a row's whole-register tail load running into the outputs that follow the
rows, the production softmax's fold) batches up to that iteration (``Split``) and runs the rest
eagerly. Each case runs under the default policy and under ``execution="eager"`` and compares
every UB byte, the byte marks, the pipe records and the error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg
from ascreg import ReduceType, Ref, Reg, StoreDist, __simd_vf__, float32_t
from ascreg.errors import AscregError, RacedLaneError
from ascreg.machine.kernel import BlockContext, block
from helpers import assert_batched_is_eager, batch_log

LANES = 64


@__simd_vf__
def row_sums(src: Any, out: Any, case: dict[str, Any]) -> None:
    """Sum each row's first ``width`` floats (one whole register per row) into ``out[i]``."""
    x, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    one = Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
    width, row, step = case["width"], case["row"], case["out_step"]  # (ints the loop reads)
    for i in range(case["n"]):
        mask = Reg.UpdateMask[float32_t](Ref(width))
        Reg.LoadAlign(x, src + i * row)
        Reg.Reduce[ReduceType.SUM](total, x, mask)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](out + i * step, total, one)


@__simd_vf__
def shifted(buf: Any, out: Any, case: dict[str, Any]) -> None:
    """Each iteration loads ``buf[i + ahead]`` and stores twice it at ``buf[i]``."""
    x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    ahead = case["ahead"]  # (an int the loop reads: its refusals are remembered per value)
    for i in range(case["n"]):
        Reg.LoadAlign(x, buf + (i + ahead) * LANES)
        Reg.Add(x, x, x, full)
        Reg.StoreAlign(buf + i * LANES, x, full)


@__simd_vf__
def store_then_load(buf: Any, out: Any, case: dict[str, Any]) -> None:
    """Each iteration stores at ``buf[i]``, then loads ``buf[i + ahead]``."""
    x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    ahead = case["ahead"]
    for i in range(case["n"]):
        Reg.Duplicate(x, np.float32(7.0), full)
        Reg.StoreAlign(buf + i * LANES, x, full)
        Reg.LoadAlign(x, buf + (i + ahead) * LANES)
        Reg.StoreAlign(out + i * LANES, x, full)


@__simd_vf__
def reversed_masked(buf: Any, out: Any, case: dict[str, Any]) -> None:
    """Each iteration loads row ``n - 1 - i``, stores it back at row ``i`` with the next
    ``count`` lanes on (0: none), and stores the sum of its lanes at ``out[i]``.

    A later iteration's load of a row an earlier one stored meets that store's whole register:
    eager order counts all of its bytes as stored (masked-off lanes too), so they race.
    """
    x, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    one = Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
    remaining, n = Ref(case["count"]), case["n"]
    for i in range(n):
        mask = Reg.UpdateMask[float32_t](remaining)
        Reg.LoadAlign(x, buf + (n - 1 - i) * LANES)
        Reg.StoreAlign(buf + i * LANES, x, mask)
        Reg.Reduce[ReduceType.SUM](total, x, full)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](out + i, total, one)


VFS = {
    "sums": row_sums,
    "shifted": shifted,
    "store first": store_then_load,
    "reversed masked": reversed_masked,
}


def run(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run one case; return what both runs must agree on, and the batch log."""
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            rows = case["n"] * case["row"]
            if case["layout"] == "same":  # the outputs follow the rows in one buffer
                src = ctx.ub.alloc(float32_t, rows + 8 * case["n"] + LANES)
                out = src + rows
            else:  # the outputs in the next buffer
                src = ctx.ub.alloc(float32_t, rows)
                out = ctx.ub.alloc(float32_t, 8 * case["n"] + LANES)
            count = rows + (8 * case["n"] + LANES if case["layout"] == "same" else 0)
            src.write((np.arange(count) % 13 - 6).astype(np.float32))
            if case["vf"] == "store first":
                out = ctx.ub.alloc(float32_t, case["n"] * LANES)
            elif case["layout"] != "same":
                out.write(np.full(8 * case["n"] + LANES, 0.5, np.float32))
        error = None
        with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
            try:
                VFS[case["vf"]](src, out, case)
            except AscregError as raised:
                error = (type(raised), str(raised).split("\n")[0])
        records = [(r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in ctx.tracker.records]
        state = (ctx.ub.data.tobytes(), ctx.written.tobytes(), records)
    return state, error, log


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 24))
    if draw(st.integers(0, 5)) == 0:
        count = draw(st.sampled_from([0, 1, 8, LANES, LANES * n]))
        return {"vf": "reversed masked", "n": n, "count": count, "row": LANES, "layout": "next"}
    if draw(st.integers(0, 2)) == 0:
        vf = draw(st.sampled_from(["shifted", "store first"]))
        return {"vf": vf, "n": n, "ahead": draw(st.integers(-2, 2)), "row": LANES, "layout": "same"}
    row = draw(st.sampled_from([8, 16, 24, 40, LANES]))
    return {
        "vf": "sums",
        "n": n,
        "row": row,
        "width": draw(st.integers(1, row)),
        "out_step": draw(st.sampled_from([1, 1, 8])),
        "layout": draw(st.sampled_from(["same", "next"])),
    }


@settings(max_examples=150, deadline=None)
@given(cases())
def test_loads_of_other_iterations_stores_are_the_eager_loads(case: dict[str, Any]) -> None:
    assert_batched_is_eager(run, case)


def test_tail_loads_into_earlier_outputs_batch_up_to_the_first_reader() -> None:
    """Rows of 40 floats, sums after them: the last rows' tails read earlier rows' sums."""
    for layout in ("same", "next"):
        case = {"vf": "sums", "n": 20, "row": 40, "width": 40, "out_step": 1, "layout": layout}
        state, error, log = run(case, eager=False)
        assert error is None
        assert state == run(case, eager=True)[0]
        # (split now, or remembered from a run of the property test: the same loop)
        batched = [line for line in log if "batched over" in line]
        assert batched, log
        kept = int(batched[-1].split("batched over ")[1].split()[0])
        assert 2 <= kept < 20
        again = run(case, eager=False)  # the split is remembered: no second full attempt
        assert again[0] == state and not any("tried again" in line for line in again[2])
        assert any(f"batched over {kept} iterations" in line for line in again[2]), again[2]


def test_a_later_load_of_a_masked_stores_register_races_as_in_eager_order() -> None:
    """Iteration 1 loads the row iteration 0 stored with no lane on (or eight): the batch
    counts the store's whole register as eager order does, and the sum of the raced lanes
    is the same error."""
    for count in (0, 8):
        case = {"vf": "reversed masked", "n": 2, "count": count, "row": LANES, "layout": "next"}
        assert_batched_is_eager(run, case)
        error = run(case, eager=False)[1]
        assert error is not None and error[0] is RacedLaneError, error


def test_a_load_ahead_of_the_store_batches() -> None:
    """Iteration i loads what iteration i + 1 stores later: the old bytes, batched too."""
    case = {"vf": "shifted", "n": 12, "ahead": 1, "row": LANES, "layout": "same"}
    state, error, log = run(case, eager=False)
    assert error is None and any("batched over 12 iterations" in line for line in log), log
    assert state == run(case, eager=True)[0]


@__simd_vf__
def row_sums_of(src: Any, out: Any, n: int, width: int, row: int) -> None:
    """``row_sums`` with plain int arguments: a VF a plan may replay whole."""
    x = Reg.RegTensor[float32_t]()
    total = Reg.RegTensor[float32_t]()
    for i in range(n):
        one = Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
        mask = Reg.UpdateMask[float32_t](Ref(width))
        Reg.LoadAlign(x, src + i * row)
        Reg.Reduce[ReduceType.SUM](total, x, mask)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](out + i, total, one)


def calls_of_a_split_loop(eager: bool) -> tuple[list[bytes], list[list[str]]]:
    """Call ``row_sums_of`` four times on new rows; return the UB after each and the logs."""
    n, row = 20, 40
    ctx, states, logs = BlockContext(), [], []
    with block(ctx):
        with ctx.simd_vf():
            src = ctx.ub.alloc(float32_t, n * row + 8 * n + LANES)
            src.write(np.zeros(n * row + 8 * n + LANES, np.float32))
        for k in range(4):
            with ctx.simd_vf():  # new rows each call: a replay that ran nothing would show
                src.write((np.arange(n * row) % (13 + k) - 6).astype(np.float32))
            with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
                row_sums_of(src, src + n * row, n, row, row)
            states.append(ctx.ub.data.tobytes() + ctx.written.tobytes())
            logs.append(log)
    return states, logs


def test_a_split_loop_replays_its_batched_part_and_runs_the_rest() -> None:
    """Later calls replay the recorded plan of the part that batched; the rest runs eagerly.

    The plan covers the part only, so it is never the whole VF's plan (which would skip the
    rest): every call leaves the eager bytes.
    """
    states, logs = calls_of_a_split_loop(eager=False)
    assert states == calls_of_a_split_loop(eager=True)[0]
    assert any("tried again up to iteration 19" in line for line in logs[0]), logs[0]
    line = row_sums_of.__wrapped__.__code__.co_firstlineno + 5  # (its loop)
    for log in logs[1:]:
        assert log == [f"row_sums_of line {line}: batched over 19 iterations (a recorded plan)"]


@__simd_vf__
def reload(buf: Any, out: Any, case: dict[str, Any]) -> None:
    """Store the second half of each 128-float row, then load each row from ``offset``, unordered.

    With no barrier between, eager order's loads race with those stores: the lanes of row
    ``i``'s register over its second half (from lane ``64 - offset``) are undefined; ``width``
    lanes of each register go to ``out``.
    """
    x, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    offset, width = case["offset"], case["width"]  # (ints the loops read)
    for i in range(case["n"]):
        Reg.Duplicate(x, np.float32(3.0), full)
        Reg.StoreAlign(buf + i * 2 * LANES + LANES, x, full)
    for i in range(case["n"]):
        Reg.LoadAlign(x, buf + i * 2 * LANES + offset)
        Reg.StoreAlign(out + i * LANES, x, Reg.UpdateMask[float32_t](Ref(width)))


def run_reload(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run :func:`reload` on fresh rows; return what both runs must agree on, and the log."""
    n = case["n"]
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            buf = ctx.ub.alloc(float32_t, 2 * n * LANES)
            buf.write((np.arange(2 * n * LANES) % 13 - 6).astype(np.float32))
            out = ctx.ub.alloc(float32_t, n * LANES)
            out.write(np.zeros(n * LANES, np.float32))
        error = None
        with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
            try:
                reload(buf, out, case)
            except AscregError as raised:
                error = (type(raised), str(raised).split("\n")[0])
        records = [(r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in ctx.tracker.records]
        state = (ctx.ub.data.tobytes(), ctx.written.tobytes(), records)
    return state, error, log


@settings(max_examples=60, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "n": st.integers(2, 12),
            "offset": st.sampled_from([8, 16, 32, 56]),
            "width": st.integers(1, LANES),
        }
    )
)
def test_loads_of_what_the_vf_stored_before_the_loop_race_as_in_eager_order(
    case: dict[str, Any],
) -> None:
    """Batched, the lanes over the stored bytes are undefined: a store of one is the eager
    error, and a loop that stores none of them runs batched."""
    log = assert_batched_is_eager(run_reload, case)
    if case["width"] <= LANES - case["offset"]:  # (both loops)
        batched = f"batched over {case['n']} iterations"
        assert sum(batched in line for line in log) == 2, log  # (a replay, or a recorded plan)

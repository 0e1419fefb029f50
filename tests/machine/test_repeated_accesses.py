"""Two accesses in a row to the same bytes: one pipe record in eager order, and batched too.

The pipe tracker extends its last record when the next access is the same one (same pipe,
bytes and direction): a softmax row read by ``LoadAlign`` and read again at once through
another pointer, or a loop reading one constant register every iteration, leaves one record
where it made two accesses. A batched loop reports its accesses in aggregate and must leave
the records eager order leaves (their bytes, sequence numbers and positions) and raise the
hazard eager order raises. Each case runs under the default policy and under
``execution="eager"`` and compares the UB bytes, byte marks, pipe records and error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg
from ascreg import Reg, UbPtr, __simd_vf__, float32_t
from ascreg.errors import AscregError
from ascreg.machine.kernel import BlockContext, block
from ascreg.machine.sync import Pipe, RowsAccess
from helpers import assert_batched_is_eager, batch_log

LANES = 64
"""float32 lanes of one register."""


@__simd_vf__
def read_twice(dst: UbPtr[float32_t], src: UbPtr[float32_t], case: dict[str, Any]) -> None:
    """Per iteration: two loads (each at ``src + i * step + offset``), their sum stored."""
    x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    (step_x, at_x), (step_y, at_y) = case["x"], case["y"]
    for i in range(case["n"]):
        Reg.LoadAlign(x, src + i * step_x + at_x)
        Reg.LoadAlign(y, src + i * step_y + at_y)
        Reg.Add(x, x, y, full)
        Reg.StoreAlign(dst + i * LANES, x, full)


@__simd_vf__
def row_then_columns(dst: UbPtr[float32_t], src: UbPtr[float32_t], case: dict[str, Any]) -> None:
    """Softmax's narrow-row shape: a row's register, then its columns again in an inner loop."""
    x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    row, columns = case["row"], case["columns"]
    for i in range(case["n"]):
        Reg.LoadAlign(x, src + i * row)
        for j in range(columns):
            Reg.LoadAlign(y, src + i * row + j * LANES)
            Reg.Sub(y, y, x, full)
            Reg.StoreAlign(dst + (i * columns + j) * LANES, y, full)


def run(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run one case; return what both runs must agree on, and the batch log."""
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            src = ctx.ub.alloc(float32_t, 64 * LANES)
            dst = ctx.ub.alloc(float32_t, 64 * LANES)
            src.write((np.arange(64 * LANES) % 97).astype(np.float32))
        hazard = case["hazard"]
        if hazard is not None:  # a copy writes bytes the VF reads, with no flag between
            ctx.tracker.barrier()  # (after the host's writes)
            start = src.address + hazard * 4
            ctx.tracker.access(Pipe.PIPE_MTE2, start, start + 32, True)
        error = None
        with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
            try:
                (row_then_columns if "row" in case else read_twice)(dst, src, case)
            except AscregError as raised:
                error = (type(raised), str(raised))
        ctx.tracker.access(Pipe.PIPE_V, dst.address, dst.address + 32, False)  # numbered after
        records = [(r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in ctx.tracker.records]
        state = (ctx.ub.data.tobytes(), ctx.written.tobytes(), records)
    return state, error, log


ADDRESS = st.tuples(st.sampled_from([0, 0, LANES, 2 * LANES]), st.sampled_from([0, 0, 8, LANES]))
"""A load's step per iteration and its offset: repeats within and across iterations are common."""


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    hazard = draw(st.sampled_from([None] * 4 + [0, 8, 40 * LANES]))
    if draw(st.booleans()):
        columns = draw(st.integers(1, 3))
        return {
            "row": draw(st.sampled_from([0, LANES, columns * LANES])),
            "columns": columns,
            "n": draw(st.integers(1, 12)),
            "hazard": hazard,
        }
    return {"x": draw(ADDRESS), "y": draw(ADDRESS), "n": draw(st.integers(1, 20)), "hazard": hazard}


@settings(max_examples=150, deadline=None)
@given(cases())
def test_repeated_accesses_leave_the_eager_records(case: dict[str, Any]) -> None:
    assert_batched_is_eager(run, case)


def test_repeated_accesses_run_batched() -> None:
    """Not vacuous: loops whose accesses repeat in a row batch, and their records merge."""
    same_register = {"x": (0, 0), "y": (0, 0), "n": 9, "hazard": None}
    narrow_rows = {"row": LANES, "columns": 1, "n": 9, "hazard": None}
    for case in (same_register, narrow_rows):
        state, error, log = run(case, eager=False)
        assert error is None
        assert any("batched over 9 iterations" in line for line in log), (case, log)
        eager_state = run(case, eager=True)[0]
        assert state == eager_state
        loads = [r for r in state[2][:-1] if not r[3]]  # (less the read after the VF)
        assert len(loads) == 9  # 18 loads: each iteration's two are one record


def test_a_check_meets_the_extended_record() -> None:
    """A row the next access extended is not a record: a check meets the extending one."""
    loads = RowsAccess(Pipe.PIPE_V, 0, 512, False, 3, rows=np.array([0, 0, 256]), width=256,
                       ranks=np.array([1, 2, 3]))  # fmt: skip
    loads.merged, loads.orders = np.array([True, False, False]), np.array([1, 1, 2])
    met = loads.part(0, 64, 0, base_seq=10, base_order=20)
    assert met is not None and (met.start, met.seq, met.order) == (0, 12, 21)
    assert [(a.start, a.seq, a.order) for a in loads.parts(10, 20)] == [(0, 12, 21), (256, 13, 22)]
    assert loads.records == 2

"""An unaligned load stream in a loop runs batched, with the eager registers, bytes and errors.

``LoadUnAlign(dst, ureg, Ref(src), stride)`` (and its C twin ``asc_loadunalign_postupdate``)
in every iteration reads the block the iteration before left in ``ureg``: its batching rule runs
the iterations as one stream (``ascreg.core.unaligned.load_rows``). Each case runs under the
default policy and under ``execution="eager"`` on identical buffers and compares every UB byte
(each iteration stores what it loaded), the register's block, the pointer the ``Ref`` ends at,
the block's byte marks and pipe records, and the error. Cases: a stale block held from before
the loop (a store after ``LoadUnAlignPre``), a stride that leaves the stream, no
``LoadUnAlignPre``, a stream that runs out of its buffer, and a store into bytes a later
iteration reads, or into the block the last iteration reads ahead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg
from ascreg import MemType, Ref, Reg, __simd_vf__, float32_t, half, uint8_t, uint32_t
from ascreg.c_api import asc_loadunalign_postupdate, vector_load_unalign
from ascreg.errors import AscregError
from ascreg.machine.kernel import BlockContext, block
from helpers import assert_batched_is_eager, batch_log

DTYPES = [uint8_t, half, float32_t, uint32_t]


@__simd_vf__
def reg_stream(src: Any, dst: Any, u: Any, at: Any, case: dict[str, Any]) -> None:
    """``n`` registers streamed from ``at``, each stored aligned at ``dst`` (one apart)."""
    x, full = Reg.RegTensor[src.dtype](), Reg.CreateMask[src.dtype]()
    lanes, stride, poke = 256 // src.dtype.size, case["stride"], case["poke"]
    if case["pre"]:
        Reg.LoadUnAlignPre(u, at.value)
    if case["stale"]:  # after the block is held: iteration 0 reads the old bytes from it
        Reg.Duplicate(x, src.dtype.np_dtype.type(3), full)
        Reg.StoreAlign(src + (at.value.address - src.address) // 32 * 32 // src.dtype.size, x, full)  # fmt: skip
        Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    for i in range(case["n"]):
        Reg.LoadUnAlign(x, u, at, stride)
        Reg.StoreAlign(dst + i * lanes, x, full)
        if poke is not None:  # a store into the stream's bytes (or its read-ahead block)
            Reg.StoreAlign(src + poke[0] + i * poke[1], x, full)


@__simd_vf__
def c_stream(src: Any, dst: Any, u: Any, at: Any, case: dict[str, Any]) -> None:
    """:func:`reg_stream` through the C API."""
    x, full = Reg.RegTensor[src.dtype](), Reg.CreateMask[src.dtype]()
    lanes, stride, poke = 256 // src.dtype.size, case["stride"], case["poke"]
    if case["pre"]:
        Reg.LoadUnAlignPre(u, at.value)
    if case["stale"]:
        Reg.Duplicate(x, src.dtype.np_dtype.type(3), full)
        Reg.StoreAlign(src + (at.value.address - src.address) // 32 * 32 // src.dtype.size, x, full)  # fmt: skip
        Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    for i in range(case["n"]):
        asc_loadunalign_postupdate(x, u, at, stride)
        Reg.StoreAlign(dst + i * lanes, x, full)
        if poke is not None:
            Reg.StoreAlign(src + poke[0] + i * poke[1], x, full)


def run(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run one case; return what both runs must agree on, and the batch log."""
    dtype = case["dtype"]
    lanes = 256 // dtype.size
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            src = ctx.ub.alloc(dtype, case["room"])
            dst = ctx.ub.alloc(dtype, 40 * lanes)
            src.write((np.arange(case["room"]) * 7 % 251).astype(dtype.np_dtype))
        c_api = case["c_api"]
        u = vector_load_unalign() if c_api else Reg.UnalignRegForLoad()
        at = Ref(src + case["start"])
        error = None
        with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
            try:
                (c_stream if c_api else reg_stream)(src, dst, u, at, case)
            except AscregError as raised:
                error = (type(raised), str(raised).split("\n")[0])
        state = (
            ctx.ub.data.tobytes(),
            u.address,
            u.block.tobytes(),
            at.value.address,
            ctx.written.tobytes(),
            [(r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in ctx.tracker.records],
        )
    return state, error, log


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    lanes = 256 // dtype.size
    n = draw(st.integers(1, 30))
    start = draw(st.integers(0, 40))
    needed = start + (n + 1) * lanes
    ahead = start - start % (32 // dtype.size) + n * lanes  # the last iteration's read-ahead
    poke = draw(st.sampled_from([None] * 4 + [(0, 0), ((n - 1) * lanes, 0), (ahead, lanes)]))
    if poke is not None:
        needed = max(needed, poke[0] + n * poke[1] + lanes)
    room = needed + draw(st.sampled_from([0, 8, 64])) - draw(st.sampled_from([0, 0, 0, lanes]))
    room += -room % (32 // dtype.size)
    return {
        "dtype": dtype,
        "stride": draw(st.sampled_from([lanes] * 6 + [lanes - 1, lanes + 32 // dtype.size, 0])),
        "n": n,
        "start": start,
        "room": room,
        "pre": draw(st.sampled_from([True] * 7 + [False])),
        "stale": draw(st.sampled_from([False] * 4 + [True])),
        "poke": poke,
        "c_api": draw(st.booleans()),
    }


@settings(max_examples=150, deadline=None)
@given(cases())
def test_a_load_stream_in_a_loop_is_the_eager_stream(case: dict[str, Any]) -> None:
    assert_batched_is_eager(run, case)


def test_load_streams_run_batched() -> None:
    """The differential test is not vacuous: streams from any start batch, a stale block too."""
    for dtype in DTYPES:
        lanes = 256 // dtype.size
        for start in (0, 1, 9):
            for c_api, stale in ((False, False), (True, True)):
                case = {"dtype": dtype, "stride": lanes, "n": 20, "start": start, "pre": True,
                        "room": 24 * lanes, "stale": stale, "poke": None, "c_api": c_api}  # fmt: skip
                state, error, log = run(case, eager=False)
                assert error is None
                assert any("batched over 20 iterations" in line for line in log), (case, log)
                assert state == run(case, eager=True)[0]

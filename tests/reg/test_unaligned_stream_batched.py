"""An unaligned store stream in a loop runs batched, with the eager bytes, state and errors.

``StoreUnAlign(Ref(dst), src, ureg, stride)`` (and its C twin ``asc_storeunalign_postupdate``)
in every iteration continues the stream the iteration before left in ``ureg``: its batching
rule runs the iterations as one stream (``ascreg.core.unaligned.store_rows``). Each case runs
under the default policy and under ``execution="eager"`` on identical buffers and compares
every UB byte, the register's held bytes, the pointer the ``Ref`` ends at, the block's byte
marks and pipe records, and the error; a loop whose body then calls an op with no batching
rule is undone (the register's held bytes too) and runs eagerly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg
from ascreg import Ref, Reg, __simd_vf__, float32_t, half, uint8_t, uint32_t
from ascreg.c_api import asc_storeunalign_postupdate, vector_store_unalign
from ascreg.errors import AscregError
from ascreg.machine.kernel import BlockContext, block
from helpers import assert_batched_is_eager, batch_log

DTYPES = [uint8_t, half, float32_t, uint32_t]


def _start(src: Any, u: Any, out: Any, case: dict[str, Any]) -> None:
    """Start the stream before the loop (held bytes pending), or move where it continues."""
    if case["before"]:
        first = Reg.RegTensor[src.dtype]()
        Reg.LoadAlign(first, src + 47 * (256 // src.dtype.size))
        Reg.StoreUnAlign(out, first, u, case["before"])
    if case["moved"]:  # the loop's stream starts elsewhere: held bytes would be lost
        out.value = out.value + 1


@__simd_vf__
def reg_stream(src: Any, u: Any, out: Any, case: dict[str, Any]) -> None:
    """``n`` rows of ``src`` (one register apart), the first ``stride`` lanes of each streamed."""
    _start(src, u, out, case)
    x = Reg.RegTensor[src.dtype]()
    stride = case["stride"]
    for i in range(case["n"]):
        Reg.LoadAlign(x, src + i * (256 // src.dtype.size))
        Reg.StoreUnAlign(out, x, u, stride)
    if case["post"]:
        Reg.StoreUnAlignPost(out, u, 0)


# (Three VFs: a loop refused for its body is not tried batched again, so the flushed variant has
# its own; and each surface's store is called in the loop as a kernel calls it.)
@__simd_vf__
def flushed_stream(src: Any, u: Any, out: Any, case: dict[str, Any]) -> None:
    """:func:`reg_stream` with a ``StoreUnAlignPost`` (no batching rule) after each store."""
    _start(src, u, out, case)
    x = Reg.RegTensor[src.dtype]()
    stride = case["stride"]
    for i in range(case["n"]):
        Reg.LoadAlign(x, src + i * (256 // src.dtype.size))
        Reg.StoreUnAlign(out, x, u, stride)  # run for the batch, then undone
        Reg.StoreUnAlignPost(out, u, 0)


@__simd_vf__
def c_stream(src: Any, u: Any, out: Any, case: dict[str, Any]) -> None:
    """:func:`reg_stream` through the C API."""
    _start(src, u, out, case)
    x = Reg.RegTensor[src.dtype]()
    stride = case["stride"]
    for i in range(case["n"]):
        Reg.LoadAlign(x, src + i * (256 // src.dtype.size))
        asc_storeunalign_postupdate(out, u, x, stride)
    if case["post"]:
        Reg.StoreUnAlignPost(out, u, 0)


def run(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run one case; return what both runs must agree on, and the batch log."""
    dtype = case["dtype"]
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            count = 48 * 256 // dtype.size
            src, dst = ctx.ub.alloc(dtype, count), ctx.ub.alloc(dtype, case["room"])
            src.write((np.arange(count) * 7 % 251).astype(dtype.np_dtype))
            dst.write(np.zeros(case["room"], dtype.np_dtype))
        c_api = case["c_api"]
        u = vector_store_unalign() if c_api else Reg.UnalignRegForStore()
        out = Ref(dst + case["start"])
        error = None
        policy = "eager" if eager else "batched"
        with batch_log() as log, ascreg.policy(execution=policy):
            try:
                vf = flushed_stream if case["flush"] else c_stream if c_api else reg_stream
                vf(src, u, out, case)
            except AscregError as raised:
                error = (type(raised), str(raised).split("\n")[0])
        state = (
            ctx.ub.data.tobytes(),
            u.held.tobytes(),
            u.start,
            out.value.address,
            ctx.written.tobytes(),
            [(r.pipe, r.start, r.end, r.write, r.seq) for r in ctx.tracker.records],
        )
    return state, error, log


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    lanes = 256 // dtype.size
    stride = draw(st.integers(0, lanes))
    n = draw(st.integers(2, 40))
    start = draw(st.integers(0, 40))
    before = draw(st.sampled_from([0, 0, 1, 3, lanes]))
    needed = start + before + 1 + n * stride
    room = needed + draw(st.sampled_from([0, 5, 64])) - draw(st.sampled_from([0, 0, 0, 1, 7]))
    return {
        "dtype": dtype,
        "stride": stride,
        "n": n,
        "start": start,
        "before": before,
        "moved": draw(st.sampled_from([False] * 7 + [True])),
        "room": max(room, start + 1),
        "post": draw(st.booleans()),
        "flush": draw(st.sampled_from([False] * 5 + [True])),
        "c_api": draw(st.booleans()),
    }


@settings(max_examples=120, deadline=None)
@given(cases())
def test_a_stream_in_a_loop_is_the_eager_stream(case: dict[str, Any]) -> None:
    assert_batched_is_eager(run, case)


def test_streams_run_batched() -> None:
    """The differential test is not vacuous: a stream of 1..lanes lanes per iteration batches."""
    for dtype in DTYPES:
        for stride in (1, 3, 256 // dtype.size):
            for c_api in (False, True):
                case = {"dtype": dtype, "stride": stride, "n": 20, "start": 5, "before": 2,
                        "moved": False, "room": 5 + 2 + 20 * stride + 64, "post": True,
                        "flush": False, "c_api": c_api}  # fmt: skip
                state, error, log = run(case, eager=False)
                assert error is None
                assert any("batched over 20 iterations" in line for line in log), (case, log)
                assert state == run(case, eager=True)[0]

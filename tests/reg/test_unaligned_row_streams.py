"""A store stream per iteration (its address set in the body) runs batched, as eager order runs it.

The production softmax folds each row's partial sums into a stream of its own: the outer loop
sets ``dst.value`` to the row's output, inner loops ``StoreUnAlign`` one lane at a time through
one unaligned register, and ``StoreUnAlignPost`` ends the row. Batched, the ``Ref`` holds one
address per iteration (``Batch.assign``), the register one stream per iteration
(``ascreg.core.unaligned.store_streams``), and the inner loops run in order over all rows.
Each case runs under the default policy and under ``execution="eager"`` and compares every UB
byte, the register's state, the ``Ref``, the byte marks, the pipe records and the error.
Cases the batch refuses run eagerly: a row without its ``StoreUnAlignPost`` (the next row's
first store would lose its bytes), rows placed unlike in their 32-byte blocks, a register that
holds bytes from before the loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg
from ascreg import Ref, Reg, __simd_vf__, float32_t, half, uint8_t, uint32_t
from ascreg.c_api import (
    asc_storeunalign_post_postupdate,
    asc_storeunalign_postupdate,
    vector_store_unalign,
)
from ascreg.errors import AscregError
from ascreg.machine.kernel import BlockContext, block
from helpers import assert_batched_is_eager, batch_log

DTYPES = [uint8_t, half, float32_t, uint32_t]


@__simd_vf__
def fold_rows(src: Any, out: Any, u: Any, dst: Any, case: dict[str, Any]) -> None:
    """Row i: ``first`` stores of ``k1`` lanes, then ``second`` of ``k2``, then the post."""
    x = Reg.RegTensor[src.dtype]()
    lanes = 256 // src.dtype.size
    row, k1, k2, post = case["row"], case["k1"], case["k2"], case["post"]
    first, second, start = case["first"], case["second"], case["start"]  # (ints the loop reads)
    if case["before"]:  # bytes held from before the loop
        Reg.LoadAlign(x, src)
        Reg.StoreUnAlign(dst, x, u, 3)
    for i in range(case["n"]):
        dst.value = out + start + i * row
        for j in range(first):
            Reg.LoadAlign(x, src + (i * 8 + j) * lanes)
            Reg.StoreUnAlign(dst, x, u, k1)
        for j in range(second):
            Reg.LoadAlign(x, src + (i * 8 + j + 4) * lanes)
            Reg.StoreUnAlign(dst, x, u, k2)
        if post:
            Reg.StoreUnAlignPost(dst, u, 0)


@__simd_vf__
def c_fold_rows(src: Any, out: Any, u: Any, dst: Any, case: dict[str, Any]) -> None:
    """:func:`fold_rows` through the C API."""
    x = Reg.RegTensor[src.dtype]()
    lanes = 256 // src.dtype.size
    row, k1, k2, post = case["row"], case["k1"], case["k2"], case["post"]
    first, second, start = case["first"], case["second"], case["start"]  # (ints the loop reads)
    if case["before"]:
        Reg.LoadAlign(x, src)
        asc_storeunalign_postupdate(dst, u, x, 3)
    for i in range(case["n"]):
        dst.value = out + start + i * row
        for j in range(first):
            Reg.LoadAlign(x, src + (i * 8 + j) * lanes)
            asc_storeunalign_postupdate(dst, u, x, k1)
        for j in range(second):
            Reg.LoadAlign(x, src + (i * 8 + j + 4) * lanes)
            asc_storeunalign_postupdate(dst, u, x, k2)
        if post:
            asc_storeunalign_post_postupdate(dst, u, 0)


def run(case: dict[str, Any], eager: bool) -> tuple[Any, ...]:
    """Run one case; return what both runs must agree on, and the batch log."""
    dtype = case["dtype"]
    lanes = 256 // dtype.size
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():  # the host's writes, ordered before the VF (as a flag would)
            count = 8 * (case["n"] + 1) * lanes
            src, out = ctx.ub.alloc(dtype, count), ctx.ub.alloc(dtype, case["room"])
            src.write((np.arange(count) * 7 % 251).astype(dtype.np_dtype))
            out.write(np.zeros(case["room"], dtype.np_dtype))
        c_api = case["c_api"]
        u = vector_store_unalign() if c_api else Reg.UnalignRegForStore()
        dst = Ref(out)
        error = None
        with batch_log() as log, ascreg.policy(execution="eager" if eager else "batched"):
            try:
                (c_fold_rows if c_api else fold_rows)(src, out, u, dst, case)
            except AscregError as raised:
                error = (type(raised), str(raised).split("\n")[0])
        state = (
            ctx.ub.data.tobytes(),
            u.held.tobytes(),
            u.start,
            u.used,
            dst.value.address,
            ctx.written.tobytes(),
            [(r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in ctx.tracker.records],
        )
    return state, error, log


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    dtype = draw(st.sampled_from(DTYPES))
    block_elements = 32 // dtype.size
    n = draw(st.integers(1, 12))
    k1, k2 = draw(st.integers(0, 9)), draw(st.integers(1, 40))
    first, second = draw(st.integers(0, 3)), draw(st.integers(0, 2))
    written = first * k1 + second * k2
    aligned = -(-written // block_elements) * block_elements
    row = draw(st.sampled_from([aligned, aligned, aligned + block_elements, written, written + 1]))
    start = draw(st.sampled_from([0, 0, 1, 3, block_elements - 1]))  # (3: where "before" stops)
    room = start + n * max(row, written) + draw(st.sampled_from([0, 0, 8, 64]))
    room -= draw(st.sampled_from([0, 0, 0, 1]))
    return {
        "dtype": dtype,
        "n": n,
        "k1": k1,
        "k2": k2,
        "first": first,
        "second": second,
        "row": max(row, 1),
        "start": start,
        "room": max(room, start + 1),
        "post": draw(st.sampled_from([True] * 5 + [False])),
        "before": draw(st.sampled_from([False] * 7 + [True])),
        "c_api": draw(st.booleans()),
    }


@settings(max_examples=150, deadline=None)
@given(cases())
def test_a_stream_per_iteration_is_the_eager_streams(case: dict[str, Any]) -> None:
    assert_batched_is_eager(run, case)


def test_streams_per_iteration_run_batched() -> None:
    """Not vacuous: rows of one stream each batch, however their stores cross 32-byte blocks."""
    for dtype in DTYPES:
        block_elements = 32 // dtype.size
        for first, k1, second, k2 in ((1, 1, 0, 1), (3, 1, 1, 5), (2, 7, 2, 33)):
            written = first * k1 + second * k2
            row = -(-written // block_elements) * block_elements
            for c_api in (False, True):
                case = {"dtype": dtype, "n": 9, "k1": k1, "k2": k2, "first": first,
                        "second": second, "row": row, "start": 0, "room": 9 * row + 64,
                        "post": True, "before": False, "c_api": c_api}  # fmt: skip
                state, error, log = run(case, eager=False)
                assert error is None
                assert any("batched over 9 iterations" in line for line in log), (case, log)
                assert state == run(case, eager=True)[0]

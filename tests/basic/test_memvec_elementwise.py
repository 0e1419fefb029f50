"""The memory-level element-wise ops (ascreg.basic) against the per-element reference.

Every op of the unary, binary, tensor-and-scalar, shift and fill tables runs its count form and
both repeat forms on random bit patterns (NaN, infinities and subnormals included), random
masks, repeat counts and strides; the whole UB is then compared with
``reference.memvec.run`` on a copy: the destination's selected lanes bit for bit (any NaN for a
NaN), every other byte unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.basic as B  # noqa: N812 (the AscendC namespace)
from ascreg._dtypes import Scalar
from ascreg._spec.basic import BINARY_OPS, FILL_OPS, SCALAR_OPS, SHIFT_PAIRS, UNARY_OPS
from ascreg.basic import (
    PIPE_ALL,
    BinaryRepeatParams,
    PipeBarrier,
    UnaryRepeatParams,
)
from ascreg.machine.block import BlockContext, block
from memvec_cases import (
    FEWER,
    assert_same,
    bit_values,
    footprint,
    legal,
    operand,
    repeat_form,
    scalar_of,
    snapshot,
    tensor,
)
from reference import memvec as ref
from reference.common import is_float, width

# ---- unary and binary: the count form ------------------------------------------------------------

ELEMENTWISE = [(n, 1) for n in UNARY_OPS] + [(n, 2) for n in BINARY_OPS]


def lane_reference(name: str, dtype: type[Scalar]) -> Any:
    if name in UNARY_OPS:
        return lambda x: [ref.unary(name, dtype)(x)]
    if name in ("FusedMulAdd", "MulAddRelu"):
        return lambda a, b, d: [ref.with_dst(name, dtype)(a, b, d)]
    return lambda a, b: [ref.two(name, dtype)(a, b)]


@pytest.mark.rows(*(f"basic.{n}" for n, _ in ELEMENTWISE))
@pytest.mark.parametrize(("name", "sources"), ELEMENTWISE, ids=[n for n, _ in ELEMENTWISE])
@FEWER
@given(data=st.data())
def test_count_form_matches_the_reference(name: str, sources: int, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(legal(name, repeat=False)), label="dtype")
    count = data.draw(st.integers(0, 150), label="count")
    size = count + data.draw(st.integers(0, 20))
    with block(BlockContext()) as ctx:
        tensors = [
            tensor(dtype, data.draw(bit_values(dtype, max(size, 1)))) for _ in range(sources + 1)
        ]
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        getattr(B, name)(*tensors, count)
        PipeBarrier[PIPE_ALL]()
    reads_dst = name in ("FusedMulAdd", "MulAddRelu")
    lanes = ref.lanes_per_repeat(dtype, count_form=True)
    srcs = [operand(t) for t in tensors[1:]] + ([operand(tensors[0])] if reads_dst else [])
    ref.run(want, ref.count_plan(count, lanes), [operand(tensors[0])], srcs,
            lane_reference(name, dtype), lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, tensors[0])


REPEATING = [(n, s) for n, s in ELEMENTWISE if legal(n, repeat=True)]


@pytest.mark.rows(*(f"basic.{n}" for n, _ in REPEATING))
@pytest.mark.parametrize("bits", [True, False], ids=["mask bits", "mask count"])
@pytest.mark.parametrize(("name", "sources"), REPEATING, ids=[n for n, _ in REPEATING])
@FEWER
@given(data=st.data())
def test_repeat_forms_match_the_reference(
    name: str, sources: int, bits: bool, data: st.DataObject
) -> None:
    dtype = data.draw(st.sampled_from(legal(name, repeat=True)), label="dtype")
    form = data.draw(repeat_form(dtype, sources + 1, bits), label="form")
    repeat, strides = form["repeat"], form["strides"]
    params: Any = (
        UnaryRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
        if sources == 1
        else BinaryRepeatParams(*(s[0] for s in strides), *(s[1] for s in strides))
    )
    with block(BlockContext()) as ctx:
        tensors = [
            tensor(dtype, data.draw(bit_values(dtype, footprint(dtype, repeat, s))))
            for s in strides
        ]
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        getattr(B, name)(*tensors, form["mask"], repeat, params)
        PipeBarrier[PIPE_ALL]()
    reads_dst = name in ("FusedMulAdd", "MulAddRelu")
    ops = [operand(t, s) for t, s in zip(tensors, strides, strict=True)]
    lanes = ref.lanes_per_repeat(dtype)
    ref.run(want, ref.mask_plan(form["mask"], repeat, lanes), ops[:1],
            ops[1:] + (ops[:1] if reads_dst else []), lane_reference(name, dtype), lanes=lanes,
            count_form=False)  # fmt: skip
    assert_same(ctx, want, tensors[0])


# ---- tensor and scalar -----------------------------------------------------------------------------


def scalar_lane(name: str, dtype: type[Scalar], scalar: int, left: bool) -> Any:
    two = ref.two(ref.SCALAR_FAMILY[name], dtype)
    return (lambda x: [two(scalar, x)]) if left else (lambda x: [two(x, scalar)])


@pytest.mark.rows(*(f"basic.{n}" for n in SCALAR_OPS))
@pytest.mark.parametrize("where", ["right", "left", "tensor"])
@pytest.mark.parametrize("name", list(SCALAR_OPS))
@FEWER
@given(data=st.data())
def test_scalar_count_form_matches_the_reference(
    name: str, where: str, data: st.DataObject
) -> None:
    """The scalar as src1, as src0 (the flexible position) or as element 0 of a LocalTensor."""
    dtype = data.draw(st.sampled_from(legal(name, repeat=False)), label="dtype")
    count = data.draw(st.integers(0, 150), label="count")
    (scalar,) = data.draw(bit_values(dtype, 1), label="scalar")
    with block(BlockContext()) as ctx:
        dst, src = (tensor(dtype, data.draw(bit_values(dtype, max(count, 1)))) for _ in range(2))
        holder = tensor(dtype, [scalar] * 16)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = getattr(B, name)
        if where == "right":
            op(dst, src, scalar_of(scalar, dtype), count)
        elif where == "left":
            op(dst, scalar_of(scalar, dtype), src, count)
        else:
            op[dtype, B.BinaryConfig(0)](dst, holder, src, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(dtype, count_form=True)
    ref.run(want, ref.count_plan(count, lanes), [operand(dst)], [operand(src)],
            scalar_lane(name, dtype, scalar, where != "right"), lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, dst)


@pytest.mark.rows(*(f"basic.{n}" for n in SCALAR_OPS))
@pytest.mark.parametrize("bits", [True, False], ids=["mask bits", "mask count"])
@pytest.mark.parametrize("name", list(SCALAR_OPS))
@FEWER
@given(data=st.data())
def test_scalar_repeat_forms_match_the_reference(
    name: str, bits: bool, data: st.DataObject
) -> None:
    dtype = data.draw(st.sampled_from(legal(name, repeat=True)), label="dtype")
    form = data.draw(repeat_form(dtype, 2, bits), label="form")
    (scalar,) = data.draw(bit_values(dtype, 1), label="scalar")
    repeat, strides = form["repeat"], form["strides"]
    with block(BlockContext()) as ctx:
        dst, src = (tensor(dtype, data.draw(bit_values(dtype, footprint(dtype, repeat, s))))
                    for s in strides)  # fmt: skip
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        params = UnaryRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
        getattr(B, name)(dst, src, scalar_of(scalar, dtype), form["mask"], repeat, params)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(dtype)
    ref.run(want, ref.mask_plan(form["mask"], repeat, lanes), [operand(dst, strides[0])],
            [operand(src, strides[1])], scalar_lane(name, dtype, scalar, False), lanes=lanes,
            count_form=False)  # fmt: skip
    assert_same(ctx, want, dst)


# ---- shifts ------------------------------------------------------------------------------------------


@pytest.mark.rows("basic.ShiftLeft", "basic.ShiftRight")
@pytest.mark.parametrize("form", ["count", "mask count", "tensor counts"])
@pytest.mark.parametrize("name", ["ShiftLeft", "ShiftRight"])
@FEWER
@given(data=st.data())
def test_shifts_match_the_reference(name: str, form: str, data: st.DataObject) -> None:
    pairs = [p for p in SHIFT_PAIRS if form != "mask count" or p[0] in legal(name, True)]
    dtype, counts_type = data.draw(st.sampled_from(pairs), label="pair")
    left = name == "ShiftLeft"
    count = data.draw(st.integers(0, 150))
    amount = data.draw(st.integers(0, width(dtype) + 2))
    with block(BlockContext()) as ctx:
        dst, src = (
            tensor(dtype, data.draw(bit_values(dtype, max(count, 1) + 128))) for _ in range(2)
        )
        amounts = data.draw(
            st.lists(st.integers(0, width(dtype) + 2), min_size=count, max_size=count)
        )
        shift_by = tensor(counts_type, [*amounts, 0])
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = getattr(B, name)
        if form == "count":
            op(dst, src, amount, count)
        elif form == "tensor counts":
            op(dst, src, shift_by, count)
        else:
            op(dst, src, amount, count % 200, 1, UnaryRepeatParams())
        PipeBarrier[PIPE_ALL]()
    lane = ref.shift(left, dtype)
    if form == "tensor counts":
        lanes = ref.lanes_per_repeat(dtype, count_form=True)
        ref.run(want, ref.count_plan(count, lanes), [operand(dst)], [operand(src), operand(shift_by)],
                lambda x, n: [lane(x, ref.signed_count(n, counts_type))], lanes=lanes, count_form=True)  # fmt: skip
    else:
        repeat = form != "count"
        lanes = ref.lanes_per_repeat(dtype, count_form=not repeat)
        plan = ref.mask_plan(count % 200, 1, lanes) if repeat else ref.count_plan(count, lanes)
        ref.run(want, plan, [operand(dst)], [operand(src)],
                lambda x: [lane(x, ref.int16_count(amount))], lanes=lanes, count_form=not repeat)  # fmt: skip
    assert_same(ctx, want, dst)


# ---- fills -------------------------------------------------------------------------------------------


@pytest.mark.rows("basic.Duplicate", "basic.CreateVecIndex")
@pytest.mark.parametrize("form", ["count", "mask bits", "mask count"])
@pytest.mark.parametrize("name", list(FILL_OPS))
@FEWER
@given(data=st.data())
def test_fills_match_the_reference(name: str, form: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(legal(name, repeat=form != "count")), label="dtype")
    (value,) = data.draw(bit_values(dtype, 1), label="value")
    if name == "CreateVecIndex" and is_float(dtype):  # a finite start: arange's domain
        value = ref.encode_float(float(data.draw(st.integers(-3000, 3000))) / 4, dtype)
    with block(BlockContext()) as ctx:
        if form == "count":
            count = data.draw(st.integers(0, 300))
            dst = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
            lanes = ref.lanes_per_repeat(dtype, count_form=True)
            plan, stride = ref.count_plan(count, lanes), (1, 8)
            args: tuple[Any, ...] = (count,)
        else:
            spec = data.draw(repeat_form(dtype, 1, form == "mask bits"))
            stride, lanes = spec["strides"][0], ref.lanes_per_repeat(dtype)
            dst = tensor(
                dtype, data.draw(bit_values(dtype, footprint(dtype, spec["repeat"], stride)))
            )
            plan = ref.mask_plan(spec["mask"], spec["repeat"], lanes)
            args = (spec["mask"], spec["repeat"], *stride)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        getattr(B, name)(dst, scalar_of(value, dtype), *args)
        PipeBarrier[PIPE_ALL]()
    target = [(dst.GetPhyAddr().address, dtype, *stride)]
    if name == "Duplicate":
        ref.run(want, plan, target, [], lambda: [value], lanes=lanes, count_form=form == "count")
    else:
        table = ref.vec_index(value, dtype, lanes, len(plan))
        for r, active in enumerate(plan):
            for j in active:
                ref.put_element(want, ref.address(target[0], r, j, lanes, form == "count"),
                                table[r][j], dtype)  # fmt: skip
    assert_same(ctx, want, dst)

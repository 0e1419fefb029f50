"""The memory-level ``Compare``, ``Compares`` and ``Select`` against the per-element reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import CMPMODE, float32_t, half, int16_t, uint8_t
from ascreg._spec.basic import CMP_REPEAT, CMP_TYPES, SEL_MASK_TYPES
from ascreg.basic import (
    PIPE_ALL,
    SELMODE,
    BinaryConfig,
    BinaryRepeatParams,
    Compare,
    Compares,
    PipeBarrier,
    Select,
    UnaryRepeatParams,
)
from ascreg.errors import AscregTypeError, OutOfBoundsError, UndefinedBehaviourError
from ascreg.machine.block import BlockContext, block
from memvec_cases import (
    assert_same,
    bit_values,
    footprint,
    operand,
    repeat_form,
    scalar_of,
    snapshot,
    tensor,
)
from reference import memvec as ref
from reference.common import value_of
from reference.compare import CMP

FEWER = settings(max_examples=max(4, settings.default.max_examples // 2))


def form_case(data: st.DataObject, dtype: Any, operands: int) -> tuple[Any, ...]:
    """``(plan, lanes, count form, call arguments, strides)`` of a random count or repeat form."""
    kind = data.draw(
        st.sampled_from(["count", "bits", "mask"] if dtype in CMP_REPEAT else ["count"])
    )
    if kind == "count":
        count = data.draw(st.integers(0, 300), label="count")
        lanes = ref.lanes_per_repeat(dtype, count_form=True)
        return ref.count_plan(count, lanes), lanes, True, (count,), [(1, 8)] * operands
    form = data.draw(repeat_form(dtype, operands, kind == "bits"), label="form")
    lanes = ref.lanes_per_repeat(dtype)
    plan = ref.mask_plan(form["mask"], form["repeat"], lanes)
    return plan, lanes, False, (form["mask"], form["repeat"]), form["strides"]


def sized(
    dtype: Any,
    data: st.DataObject,
    plan: Any,
    lanes: int,
    stride: tuple[int, int],
    count_form: bool,
) -> Any:
    n = len(plan) * lanes if count_form else footprint(dtype, len(plan), stride)
    return tensor(dtype, data.draw(bit_values(dtype, max(n, 1))))


@pytest.mark.rows("basic.Compare", "basic.Compares")
@pytest.mark.parametrize("name", ["Compare", "Compares"])
@FEWER
@given(data=st.data())
def test_compare_matches_the_reference(name: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(CMP_TYPES), label="dtype")
    mode = data.draw(st.sampled_from(list(CMPMODE)), label="mode")
    sources = 2 if name == "Compare" else 1
    plan, lanes, count_form, args, strides = form_case(data, dtype, sources + 1)
    (scalar,) = data.draw(bit_values(dtype, 1), label="scalar")
    left = name == "Compares" and data.draw(st.booleans(), label="scalar first")
    with block(BlockContext()) as ctx:
        srcs = [sized(dtype, data, plan, lanes, s, count_form) for s in strides[1:]]
        dst = tensor(uint8_t, data.draw(bit_values(uint8_t, max(len(plan) * lanes // 8, 32))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        if count_form:
            params: tuple[Any, ...] = ()
        elif sources == 2:
            params = (BinaryRepeatParams(*(s[0] for s in strides), *(s[1] for s in strides)),)
        else:
            params = (
                UnaryRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1]),
            )
        if name == "Compare":
            Compare(dst, *srcs, mode, *args, *params)
        elif left:
            Compares(dst, scalar_of(scalar, dtype), srcs[0], mode, *args, *params)
        else:
            Compares(dst, srcs[0], scalar_of(scalar, dtype), mode, *args, *params)
        PipeBarrier[PIPE_ALL]()
    holds = CMP[mode.name]
    if name == "Compare":
        test = lambda a, b: holds(value_of(a, dtype), value_of(b, dtype))  # noqa: E731
    elif left:
        test = lambda a: holds(value_of(scalar, dtype), value_of(a, dtype))  # noqa: E731
    else:
        test = lambda a: holds(value_of(a, dtype), value_of(scalar, dtype))  # noqa: E731
    ref.compare_run(want, plan, [operand(t, s) for t, s in zip(srcs, strides[1:], strict=True)],
                    test, dst.GetPhyAddr().address, lanes=lanes, count_form=count_form)  # fmt: skip
    assert_same(ctx, want, dst)


@pytest.mark.rows("basic.Select")
@pytest.mark.parametrize("mode", list(SELMODE), ids=lambda m: m.name)
@FEWER
@given(data=st.data())
def test_select_matches_the_reference(mode: SELMODE, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(CMP_TYPES), label="dtype")
    sel_type = data.draw(st.sampled_from(SEL_MASK_TYPES), label="selMask type")
    plan, lanes, count_form, args, strides = form_case(data, dtype, 3)
    scalar_mode = mode is SELMODE.VSEL_TENSOR_SCALAR_MODE
    (scalar,) = data.draw(bit_values(dtype, 1), label="scalar")
    left = scalar_mode and data.draw(st.booleans(), label="scalar first")
    with block(BlockContext()) as ctx:
        dst = sized(dtype, data, plan, lanes, strides[0], count_form)
        a = sized(dtype, data, plan, lanes, strides[1], count_form)
        b = sized(dtype, data, plan, lanes, strides[2], count_form)
        sel_bytes = max(len(plan) * lanes // 8, 32)
        sel = tensor(sel_type, data.draw(bit_values(sel_type, sel_bytes // sel_type.size)))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        params = (
            ()
            if count_form
            else (BinaryRepeatParams(*(s[0] for s in strides), *(s[1] for s in strides)),)
        )
        value = scalar_of(scalar, dtype)
        sources = ((value, a) if left else (a, value)) if scalar_mode else (a, b)
        Select(dst, sel, *sources, mode, *args, *params)
        PipeBarrier[PIPE_ALL]()
    base = sel.GetPhyAddr().address
    same = mode is SELMODE.VSEL_CMPMASK_SPR

    def lane(r: int, j: int, x: int, y: int | None = None) -> list[int]:
        bit = ref.sel_bit(want, base, r, j, lanes, same)
        other = scalar if y is None else y
        return [(other if bit else x) if left else (x if bit else other)]

    ops = [operand(dst, strides[0]), operand(a, strides[1]), operand(b, strides[2])]
    ref.run(want, plan, ops[:1], ops[1:2] if scalar_mode else ops[1:], lane, lanes=lanes,
            count_form=count_form, where=True)  # fmt: skip
    assert_same(ctx, want, dst)


def test_compare_and_select_rules() -> None:
    with block(BlockContext()):
        x = tensor(float32_t, [0] * 64)
        h = tensor(half, [0] * 128)
        w = tensor(int16_t, [0] * 256)
        bits = tensor(uint8_t, [0] * 32)
        small = tensor(uint8_t, [0] * 4)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(OutOfBoundsError, match="takes 8 bytes of comparison bits"):
            Compare(small, x, x, CMPMODE.EQ, 64)
        with pytest.raises(AscregTypeError, match="the mode must be a CMPMODE"):
            Compare(bits, x, x, "EQ", 64)
        with pytest.raises(AscregTypeError, match="src1 is a LocalTensor<half>"):
            Compare(bits, x, h, CMPMODE.EQ, 64)
        with pytest.raises(AscregTypeError, match="selects between two LocalTensors"):
            Select(x, bits, x, 1.0, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
        with pytest.raises(OutOfBoundsError, match="selMask reaches byte 31 of the 4-byte"):
            Select(w, small, w, w, SELMODE.VSEL_TENSOR_TENSOR_MODE, 256)
        with pytest.raises(UndefinedBehaviourError, match="dst overlaps src0"):
            Compare(x.ReinterpretCast[uint8_t](), x, x, CMPMODE.EQ, 64)
        Select[float32_t, uint8_t, BinaryConfig(0)](
            x, bits, x, x, SELMODE.VSEL_TENSOR_SCALAR_MODE, 64
        )

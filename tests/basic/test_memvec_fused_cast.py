"""The fused memory-level conversions against per-element references written from their pages.

``AddReluCast`` / ``SubReluCast`` / ``MulCast`` (复合计算/*.md): ``dst_i = Cast(Relu(src0_i +- src1_i))``
and ``dst_i = Cast(src0_i * src1_i)``, the arithmetic in the source type, the conversion of the
precision rules (``CAST_RINT``, saturating); ``MulsCast(ISASI).md``: ``half(src_i * scalar)``,
``CAST_ROUND``, overflow saturating; ``ExpSub(ISASI).md``: ``e ** (f32(src0_i) - f32(src1_i))``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import RoundMode, float32_t, half, int8_t, int16_t, int32_t, int64_t
from ascreg._dtypes import Scalar
from ascreg._spec.basic import EXP_SUB_PAIRS, FUSED_CASTS
from ascreg._spec.convert import CAST_PAIRS
from ascreg.basic import (
    PIPE_ALL,
    AddDeqRelu,
    AddReluCast,
    BinaryConfig,
    BinaryRepeatParams,
    CastDequant,
    ExpSub,
    MulCast,
    MulsCast,
    PipeBarrier,
    SetDeqScale,
    SubReluCast,
    UnaryRepeatParams,
)
from ascreg.errors import AscregTypeError, IllegalDtypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from memvec_cases import (
    assert_same,
    bit_values,
    footprint,
    operand,
    repeat_form,
    snapshot,
    tensor,
)
from reference import memvec as ref
from reference.arith import binary
from reference.common import encode_float
from reference.compound import exp_sub_lane
from reference.convert import convert_element, decode, encode, to_float

FEWER = settings(max_examples=max(4, settings.default.max_examples // 2), derandomize=True)
OPS = {"AddReluCast": AddReluCast, "SubReluCast": SubReluCast, "MulCast": MulCast}
ARITHMETIC = {"AddReluCast": "AddRelu", "SubReluCast": "SubRelu", "MulCast": "Mul"}
CASES = [(name, pair) for name, (_page, pairs, _core) in FUSED_CASTS.items() for pair in pairs]


def fused_element(name: str, dst: type[Scalar], src: type[Scalar]) -> Any:
    """``Cast(f(x, y))`` on bit patterns: f in U, then U -> T rounding to nearest even."""
    arithmetic = ref.two(ARITHMETIC[name], src)
    pair = CAST_PAIRS[(src, dst)]
    saturate = pair.fixed_saturation or pair.sat or (src, dst) == (int16_t, int8_t)
    return lambda x, y: convert_element(arithmetic(x, y), src, dst, RoundMode.CAST_RINT, saturate)


@pytest.mark.rows("basic.AddReluCast", "basic.SubReluCast", "basic.MulCast")
@FEWER
@given(data=st.data())
def test_fused_casts_count_form_match_the_reference(data: st.DataObject) -> None:
    name, (dst, src) = data.draw(st.sampled_from(CASES), label="case")
    count = data.draw(st.integers(0, 200), label="count")
    with block(BlockContext()) as ctx:
        a = tensor(src, data.draw(bit_values(src, max(count, 1))))
        b = tensor(src, data.draw(bit_values(src, max(count, 1))))
        d = tensor(dst, data.draw(bit_values(dst, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        OPS[name](d, a, b, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(src, count_form=True)
    ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(a), operand(b)],
            lambda x, y: [fused_element(name, dst, src)(x, y)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


@pytest.mark.rows("basic.AddReluCast", "basic.SubReluCast", "basic.MulCast")
@FEWER
@given(data=st.data(), bits=st.booleans())
def test_fused_casts_repeat_forms_match_the_reference(data: st.DataObject, bits: bool) -> None:
    narrow = [(n, p) for n, p in CASES if p[1].size < 8]
    name, (dst, src) = data.draw(st.sampled_from(narrow), label="case")
    form = data.draw(repeat_form(src, 3, bits), label="form")
    repeat, strides = form["repeat"], form["strides"]
    with block(BlockContext()) as ctx:
        d = tensor(dst, data.draw(bit_values(dst, footprint(dst, repeat, strides[0]))))
        a = tensor(src, data.draw(bit_values(src, footprint(src, repeat, strides[1]))))
        b = tensor(src, data.draw(bit_values(src, footprint(src, repeat, strides[2]))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        params = BinaryRepeatParams(*(s[0] for s in strides), *(s[1] for s in strides))
        OPS[name](d, a, b, form["mask"], repeat, params)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(src)
    ref.run(want, ref.mask_plan(form["mask"], repeat, lanes),
            [operand(d, strides[0])], [operand(a, strides[1]), operand(b, strides[2])],
            lambda x, y: [fused_element(name, dst, src)(x, y)], lanes=lanes, count_form=False)  # fmt: skip
    assert_same(ctx, want, d)


def muls_cast_element(x: int, scalar: int) -> int:
    """``half(x * scalar)``: the exact product rounded once (CAST_ROUND), overflow saturating."""
    xn, xv = decode(x, float32_t)
    sn, sv = decode(scalar, float32_t)
    negative, rounded = to_float(xn != sn, xv * sv, half, RoundMode.CAST_ROUND, saturate=True)  # type: ignore[operator]
    return encode(negative, rounded, half)


@pytest.mark.rows("basic.MulsCast")
@FEWER
@given(data=st.data(), scalar=st.floats(-1e3, 1e3, width=32), left=st.booleans())
def test_muls_cast_matches_the_reference(data: st.DataObject, scalar: float, left: bool) -> None:
    count = data.draw(st.integers(0, 150), label="count")
    finite = st.floats(-(2.0**100), 2.0**100, width=32).map(lambda v: encode_float(v, float32_t))
    values = data.draw(st.lists(finite, min_size=max(count, 1), max_size=max(count, 1)))
    with block(BlockContext()) as ctx:
        s = tensor(float32_t, values)
        d = tensor(half, data.draw(bit_values(half, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        MulsCast(d, scalar, s, count) if left else MulsCast(d, s, scalar, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(float32_t, count_form=True)
    bits = encode_float(scalar, float32_t)
    ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(s)],
            lambda x: [muls_cast_element(x, bits)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


@pytest.mark.rows("basic.ExpSub")
@FEWER
@given(data=st.data())
def test_exp_sub_matches_the_reference(data: st.DataObject) -> None:
    dst, src = data.draw(st.sampled_from(EXP_SUB_PAIRS), label="pair")
    count = data.draw(st.integers(0, 150), label="count")
    with block(BlockContext()) as ctx:
        a = tensor(src, data.draw(bit_values(src, max(count, 1))))
        b = tensor(src, data.draw(bit_values(src, max(count, 1))))
        d = tensor(dst, data.draw(bit_values(dst, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        ExpSub(d, a, b, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(float32_t, count_form=True)
    ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(a), operand(b)],
            lambda x, y: [exp_sub_lane(x, y, src)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


def test_fused_examples_from_the_pages() -> None:
    """AddReluCast.md's result example: [1 1 3 ...] + [0 0.5 -4 ...] -> [1 2 0 ...] (half -> int8)."""
    with block(BlockContext()):
        a, b = tensor(half, [0] * 128), tensor(half, [0] * 128)
        d = tensor(int8_t, [0] * 128)
        a.GetPhyAddr().write(np.float16([1, 1, 3, 512]))
        b.GetPhyAddr().write(np.float16([0, 0.5, -4, -513]))
        PipeBarrier[PIPE_ALL]()
        AddReluCast(d, a, b, 4)
        PipeBarrier[PIPE_ALL]()
        assert d.GetPhyAddr().read(4).tolist() == [1, 2, 0, 0]  # 1.5 rounds to even: 2
        f, h = tensor(float32_t, [0] * 64), tensor(half, [0] * 64)
        g = tensor(float32_t, [0] * 64)
        f.GetPhyAddr().write(np.float32([6, 5, 11, 0]))
        g.GetPhyAddr().write(np.float32([2.0]))
        PipeBarrier[PIPE_ALL]()
        MulsCast(h, f, g, 4)  # MulsCast(ISASI).md: src1Local[0] as the scalar
        PipeBarrier[PIPE_ALL]()
        assert h.GetPhyAddr().read(4).tolist() == [12.0, 10.0, 22.0, 0.0]
        PipeBarrier[PIPE_ALL]()
        MulsCast[BinaryConfig(0)](h, g, f, 4)  # the scalar first
        PipeBarrier[PIPE_ALL]()
        assert h.GetPhyAddr().read(4).tolist() == [12.0, 10.0, 22.0, 0.0]


def test_fused_rules() -> None:
    with block(BlockContext()):
        h, f = tensor(half, [0] * 128), tensor(float32_t, [0] * 64)
        b, w = tensor(int8_t, [0] * 128), tensor(int64_t, [0] * 64)
        i = tensor(int32_t, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(
            IllegalDtypeError, match=r"AddReluCast: illegal dtypes \(T=int8_t, U=float\)"
        ):
            AddReluCast(b, f, f, 8)
        with pytest.raises(IllegalDtypeError, match=r"MulCast: illegal dtypes \(T=half, U=float\)"):
            MulCast(h, f, f, 8)
        with pytest.raises(IllegalDtypeError, match="count form only"):
            SubReluCast(i, w, w, 8, 1, BinaryRepeatParams())
        with pytest.raises(
            AscregTypeError, match="src1 is a LocalTensor<half> but src0 is a LocalTensor<float>"
        ):
            AddReluCast(h, f, h, 8)
        with pytest.raises(AscregTypeError, match=r"takes \(dst, src0, src1, count\)"):
            AddReluCast(h, f, f, 8, 1)
        with pytest.raises(AscregTypeError, match="T0 and T1 are reserved"):
            MulsCast[half](h, f, 1.0, 8)
        with pytest.raises(IllegalDtypeError, match="MulsCast: illegal dtypes"):
            MulsCast(b, f, 1.0, 8)
        with pytest.raises(IllegalDtypeError, match=r"ExpSub: illegal dtypes \(T=half, U=half\)"):
            ExpSub(h, h, h, 8)
        f.GetPhyAddr().write(np.float32([np.inf]))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UnsupportedError, match=r"MulsCast: src \* scalar is not finite"):
            MulsCast(h, f, 2.0, 8)
        with pytest.raises(Exception, match=r"aligned"):
            AddReluCast(b, h[1], h, 8)


def add_deq_relu_element(scale: float) -> Any:
    """AddDeqRelu.md: Relu(Deq(x + y)), Deq(x) = Cast(x * scale) with RINT, as the 950 chains it:
    float(x), times 2**-17, the half scale, 2**17 (each rounded in float), max with 0, to half."""

    def lane(x: int, y: int) -> int:
        total = binary("Add", int32_t, x, y)
        wide = convert_element(total, int32_t, float32_t, RoundMode.CAST_RINT, True)
        for factor in (2.0**-17, float(np.float16(scale)), 2.0**17):
            wide = binary("Mul", float32_t, wide, encode_float(factor, float32_t))
        wide = binary("Max", float32_t, wide, 0)
        return convert_element(wide, float32_t, half, RoundMode.CAST_RINT, True)

    return lane


@pytest.mark.rows("basic.AddDeqRelu")
@FEWER
@given(
    data=st.data(),
    scale=st.sampled_from([1.0, 0.5, 3.0, 2.0**-10, 1000.0]),
    repeat_form_=st.booleans(),
)
def test_add_deq_relu_matches_the_reference(
    data: st.DataObject, scale: float, repeat_form_: bool
) -> None:
    if repeat_form_:
        form = data.draw(repeat_form(int32_t, 3, data.draw(st.booleans())), label="form")
        strides = form["strides"]
        sizes = [
            footprint(t, form["repeat"], s)
            for t, s in zip((half, int32_t, int32_t), strides, strict=True)
        ]
    else:
        count = data.draw(st.integers(0, 150), label="count")
        sizes = [max(count, 1)] * 3
    with block(BlockContext()) as ctx:
        d = tensor(half, data.draw(bit_values(half, sizes[0])))
        a = tensor(int32_t, data.draw(bit_values(int32_t, sizes[1])))
        b = tensor(int32_t, data.draw(bit_values(int32_t, sizes[2])))
        PipeBarrier[PIPE_ALL]()
        SetDeqScale(scale)
        want = snapshot(ctx)
        if repeat_form_:
            params = BinaryRepeatParams(*(s[0] for s in strides), *(s[1] for s in strides))
            AddDeqRelu(d, a, b, form["mask"], form["repeat"], params)
        else:
            AddDeqRelu(d, a, b, count)
        PipeBarrier[PIPE_ALL]()
    lane = add_deq_relu_element(scale)
    if repeat_form_:
        lanes = ref.lanes_per_repeat(int32_t)
        ref.run(want, ref.mask_plan(form["mask"], form["repeat"], lanes),
                [operand(d, strides[0])], [operand(a, strides[1]), operand(b, strides[2])],
                lambda x, y: [lane(x, y)], lanes=lanes, count_form=False)  # fmt: skip
    else:
        lanes = ref.lanes_per_repeat(int32_t, count_form=True)
        ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(a), operand(b)],
                lambda x, y: [lane(x, y)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


def test_add_deq_relu_rules() -> None:
    with block(BlockContext()):
        h, f, i = tensor(half, [0] * 64), tensor(float32_t, [0] * 64), tensor(int32_t, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(
            IllegalDtypeError, match=r"AddDeqRelu: illegal dtypes \(T=float, U=int32_t\)"
        ):
            AddDeqRelu(f, i, i, 8)
        with pytest.raises(AscregTypeError, match="AddDeqRelu: src1 is a LocalTensor<float>"):
            AddDeqRelu(h, i, f, 8)
        with pytest.raises(
            IllegalDtypeError, match=r"AddDeqRelu: illegal template dtypes \(T=float, U=int32_t\)"
        ):
            AddDeqRelu[float32_t, int32_t](h, i, i, 8)
        AddDeqRelu[half, int32_t](h, i, i, 8)


def cast_dequant_element(scale: float) -> Any:
    """CastDequant.md, int32_t -> half: Cast(src * scale) with RINT, through the 950's float chain
    (float(x), times 2**-17, the half scale, 2**17, each rounded in float; no saturation)."""

    def lane(x: int) -> int:
        wide = convert_element(x, int32_t, float32_t, RoundMode.CAST_RINT, True)
        for factor in (2.0**-17, float(np.float16(scale)), 2.0**17):
            wide = binary("Mul", float32_t, wide, encode_float(factor, float32_t))
        return convert_element(wide, float32_t, half, RoundMode.CAST_RINT, False)

    return lane


@pytest.mark.rows("basic.CastDequant")
@FEWER
@given(
    data=st.data(),
    scale=st.sampled_from([1.0, 0.5, 3.0, 2.0**-10, 1000.0]),
    repeat_form_=st.booleans(),
)
def test_cast_dequant_matches_the_reference(
    data: st.DataObject, scale: float, repeat_form_: bool
) -> None:
    if repeat_form_:
        form = data.draw(repeat_form(int32_t, 2, data.draw(st.booleans())), label="form")
        strides = form["strides"]
        sizes = [
            footprint(t, form["repeat"], s) for t, s in zip((half, int32_t), strides, strict=True)
        ]
    else:
        count = data.draw(st.integers(0, 150), label="count")
        sizes = [max(count, 1)] * 2
    with block(BlockContext()) as ctx:
        d = tensor(half, data.draw(bit_values(half, sizes[0])))
        a = tensor(int32_t, data.draw(bit_values(int32_t, sizes[1])))
        PipeBarrier[PIPE_ALL]()
        SetDeqScale(scale)
        want = snapshot(ctx)
        if repeat_form_:
            params = UnaryRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
            CastDequant(d, a, form["mask"], form["repeat"], params)
        else:
            CastDequant(d, a, count)
        PipeBarrier[PIPE_ALL]()
    lane = cast_dequant_element(scale)
    if repeat_form_:
        lanes = ref.lanes_per_repeat(int32_t)
        ref.run(want, ref.mask_plan(form["mask"], form["repeat"], lanes),
                [operand(d, strides[0])], [operand(a, strides[1])],
                lambda x: [lane(x)], lanes=lanes, count_form=False)  # fmt: skip
    else:
        lanes = ref.lanes_per_repeat(int32_t, count_form=True)
        ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(a)],
                lambda x: [lane(x)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


def test_cast_dequant_rules() -> None:
    with block(BlockContext()):
        b, w, f = tensor(int8_t, [0] * 64), tensor(int16_t, [0] * 64), tensor(float32_t, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(
            UnsupportedError, match=r"CastDequant: CastDequant<int8_t, int16_t> .* is not modelled"
        ):
            CastDequant(b, w, 8)
        with pytest.raises(
            IllegalDtypeError, match=r"CastDequant: illegal dtypes \(T=float, U=int16_t\)"
        ):
            CastDequant(f, w, 8)

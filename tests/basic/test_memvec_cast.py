"""The memory-level ``Cast`` and ``Truncate`` against the per-element conversion reference.

The reference is ``reference.convert`` (written from the Cast page) with the page's 950 rules:
``SatMode::SAT``, ``CAST_NONE`` rounding to nearest even on a lossy pair, ``float -> float`` a
``Truncate``, ``int32_t -> half`` the dequantisation ``half(float(x) * 2**-17 * scale * 2**17)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import RoundMode, float32_t, half, hifloat8_t, int8_t, int32_t, int64_t
from ascreg._dtypes import Scalar
from ascreg._spec.basic import CAST_NONE_AS_RINT, CAST_WIDE, MEMORY_CASTS, TRUNCATE_TYPES
from ascreg._spec.convert import CAST_PAIRS
from ascreg.basic import PIPE_ALL, Cast, PipeBarrier, SetDeqScale, Truncate, UnaryRepeatParams
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
from reference.convert import convert_element, truncate_element

FEWER = settings(max_examples=max(4, settings.default.max_examples // 2))
PAIRS = list(MEMORY_CASTS)


def modes(pair: tuple[type[Scalar], type[Scalar]]) -> list[RoundMode]:
    extra = [RoundMode.CAST_NONE] if pair in CAST_NONE_AS_RINT else []
    return [*MEMORY_CASTS[pair], *extra]


def element(src: type[Scalar], dst: type[Scalar], mode: RoundMode, scale: float) -> Any:
    """One element of the page's conversion (see the module docstring)."""
    rounding = RoundMode.CAST_RINT if mode is RoundMode.CAST_NONE else mode
    if dst is hifloat8_t and mode is RoundMode.CAST_NONE:
        rounding = RoundMode.CAST_ROUND
    if (src, dst) == (float32_t, float32_t):
        return lambda bits: truncate_element(bits, float32_t, rounding)
    if (src, dst) == (int32_t, half):

        def deq(bits: int) -> int:
            wide = convert_element(bits, int32_t, float32_t, RoundMode.CAST_RINT, True)
            for factor in (2.0**-17, scale, 2.0**17):
                wide = binary("Mul", float32_t, wide, encode_float(factor, float32_t))
            return convert_element(wide, float32_t, half, RoundMode.CAST_RINT, False)

        return deq
    pair = CAST_PAIRS[(src, dst)]  # SatMode::SAT where the pair has the control (the Reg table)
    saturate = pair.fixed_saturation or pair.sat
    return lambda bits: convert_element(bits, src, dst, rounding, saturate)


@pytest.mark.rows("basic.Cast")
@FEWER
@given(data=st.data())
def test_cast_count_form_matches_the_reference(data: st.DataObject) -> None:
    src, dst = data.draw(st.sampled_from(PAIRS), label="pair")
    mode = data.draw(st.sampled_from(modes((src, dst))), label="mode")
    count = data.draw(st.integers(0, 200), label="count")
    scale = data.draw(st.sampled_from([1.0, 0.5, 3.0, 2.0**-10]), label="scale")
    with block(BlockContext()) as ctx:
        s = tensor(src, data.draw(bit_values(src, max(count, 1))))
        d = tensor(dst, data.draw(bit_values(dst, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        SetDeqScale(scale)
        want = snapshot(ctx)
        Cast(d, s, mode, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(max(src, dst, key=lambda t: t.size), count_form=True)
    convert = element(src, dst, mode, scale)
    ref.run(want, ref.count_plan(count, lanes), [operand(d)], [operand(s)],
            lambda x: [convert(x)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, d)


@pytest.mark.rows("basic.Cast")
@FEWER
@given(data=st.data(), bits=st.booleans())
def test_cast_repeat_forms_match_the_reference(data: st.DataObject, bits: bool) -> None:
    src, dst = data.draw(st.sampled_from([p for p in PAIRS if p not in CAST_WIDE]), label="pair")
    mode = data.draw(st.sampled_from(modes((src, dst))), label="mode")
    wide = max(src, dst, key=lambda t: t.size)
    form = data.draw(repeat_form(wide, 2, bits), label="form")
    repeat, strides = form["repeat"], form["strides"]
    with block(BlockContext()) as ctx:
        d = tensor(dst, data.draw(bit_values(dst, footprint(dst, repeat, strides[0]))))
        s = tensor(src, data.draw(bit_values(src, footprint(src, repeat, strides[1]))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        params = UnaryRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
        Cast(d, s, mode, form["mask"], repeat, params)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(wide)
    convert = element(src, dst, mode, 1.0)
    ref.run(want, ref.mask_plan(form["mask"], repeat, lanes), [operand(d, strides[0])],
            [operand(s, strides[1])], lambda x: [convert(x)], lanes=lanes, count_form=False)  # fmt: skip
    assert_same(ctx, want, d)


@pytest.mark.rows("basic.Truncate")
@FEWER
@given(data=st.data())
def test_truncate_matches_the_reference(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(TRUNCATE_TYPES), label="dtype")
    mode = data.draw(st.sampled_from(MEMORY_CASTS[(float32_t, float32_t)]), label="mode")
    count = data.draw(st.integers(0, 200), label="count")
    with block(BlockContext()) as ctx:
        x = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        Truncate[dtype, mode](x, x, count)
        PipeBarrier[PIPE_ALL]()
    lanes = ref.lanes_per_repeat(dtype, count_form=True)
    ref.run(want, ref.count_plan(count, lanes), [operand(x)], [operand(x)],
            lambda b: [truncate_element(b, dtype, mode)], lanes=lanes, count_form=True)  # fmt: skip
    assert_same(ctx, want, x)


def test_cast_rules() -> None:
    with block(BlockContext()):
        f = tensor(float32_t, [0] * 64)
        h = tensor(half, [0] * 128)
        b = tensor(int8_t, [0] * 64)
        w = tensor(int64_t, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UnsupportedError, match="CAST_ODD is not a round mode of half -> float"):
            Cast(f, h, RoundMode.CAST_ODD, 8)
        with pytest.raises(
            IllegalDtypeError, match=r"Cast: illegal dtypes \(dst=int8_t, src=float\)"
        ):
            Cast(b, f, RoundMode.CAST_RINT, 8)
        with pytest.raises(IllegalDtypeError, match="count form only"):
            Cast(w, f, RoundMode.CAST_RINT, 8, 1, UnaryRepeatParams())
        with pytest.raises(AscregTypeError, match="roundMode must be a RoundMode"):
            Cast(f, h, 1, 8)
        with pytest.raises(AscregTypeError, match="template argument half does not match dst"):
            Cast[half, float32_t](f, h, RoundMode.CAST_NONE, 8)
        with pytest.raises(AscregTypeError, match="round mode as a template argument"):
            Truncate(f, f, 8)
        with pytest.raises(UnsupportedError, match="CastDequant"):
            SetDeqScale(np.zeros(4))
        Cast(f, h, RoundMode.CAST_NONE, 8)
        Cast[float32_t, half](f, h, RoundMode.CAST_NONE, 8)

"""Abs and Neg against the scalar reference: integers wrap, floats touch only the sign bit."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import MaskMergeMode, Reg, float32_t, half, int8_t, int16_t, int64_t, uint8_t
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError, IllegalDtypeError
from reference.arith import abs_lane, neg_lane, relu_lane
from reference.common import lane_count, zeroing
from reference.masks import mask_to_lanes
from strategies import (
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    new_reg,
    reg_bits,
)

UNARY = {"Abs": abs_lane, "Neg": neg_lane}
RELU = dtype_params(SPECS["Reg.Relu"].combos)


@pytest.mark.rows("Reg.Abs", "Reg.Neg")
@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Abs"].combos))
@settings(max_examples=30)
@given(st.data())
def test_unary(op: str, dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    dst = new_reg(dtype, two)
    getattr(Reg, op)(dst, make_reg(dtype, a, two), make_mask(mbits))
    want = zeroing([UNARY[op](x, dtype) for x in a], mask_to_lanes(mbits, lanes, stride))
    assert reg_bits(dst) == want  # bit-exact: NaN payloads are kept


@pytest.mark.rows("Reg.Relu")
@pytest.mark.parametrize(("dtype", "two"), RELU)
@settings(max_examples=30)
@given(st.data())
def test_relu(dtype: Any, two: bool, data: Any) -> None:
    """``src >= 0 ? src : 0`` bit for bit (-0 kept, NaN gives +0); masked-off lanes 0."""
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    dst = new_reg(dtype, two)
    Reg.Relu(dst, make_reg(dtype, a, two), make_mask(mbits))
    want = zeroing([relu_lane(x, dtype) for x in a], mask_to_lanes(mbits, lanes, stride))
    assert reg_bits(dst) == want


@pytest.mark.parametrize(
    ("op", "dtype", "x", "want"),
    [
        ("Abs", int8_t, 0x80, 0x80),  # abs(-128) = -128
        ("Neg", int16_t, 0x8000, 0x8000),  # -INT16_MIN wraps
        ("Abs", half, 0xFE01, 0x7E01),  # -NaN with payload: sign cleared, payload kept
        ("Neg", float32_t, 0x00000000, 0x80000000),  # -(+0) = -0
        ("Abs", float32_t, 0xFF800000, 0x7F800000),  # abs(-inf) = +inf
        ("Neg", int64_t, 1, (1 << 64) - 1),
    ],
)
def test_unary_boundaries(op: str, dtype: Any, x: int, want: int) -> None:
    lanes = lane_count(dtype)
    dst = new_reg(dtype)
    getattr(Reg, op)(dst, make_reg(dtype, [x] * lanes), Reg.CreateMask[dtype]())
    assert reg_bits(dst)[0] == want
    assert UNARY[op](x, dtype) == want


def test_unary_rejects() -> None:
    with pytest.raises(IllegalDtypeError, match=r"Reg\.Abs"):
        Reg.Abs(new_reg(uint8_t), make_reg(uint8_t, [1] * 256), Reg.CreateMask[int8_t]())
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        Reg.Neg[half, MaskMergeMode.MERGING](
            new_reg(half), make_reg(half, [0] * 128), Reg.CreateMask[half]()
        )

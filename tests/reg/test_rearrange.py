"""Interleave / DeInterleave, Gather and Squeeze against the scalar references."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GatherMaskMode, Reg, half, int16_t, int64_t, uint16_t, uint32_t
from ascreg._spec import SPECS
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
    UnsupportedError,
)
from reference.rearrange import deinterleave, gather, interleave, squeeze
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

OPS = {"Interleave": interleave, "DeInterleave": deinterleave}


SHUFFLE = [
    p for p in dtype_params(SPECS["Reg.Interleave"].combos) if p.values[0].size < 8 or p.values[1]
]


@pytest.mark.rows("Reg.Interleave", "Reg.DeInterleave")
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize(("dtype", "two"), SHUFFLE)
@settings(max_examples=15)
@given(st.data())
def test_interleave(op: str, dtype: Any, two: bool, data: Any) -> None:
    lanes, _ = geometry(dtype, two)
    a, b = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    ra, rb = make_reg(dtype, a, two), make_reg(dtype, b, two)
    getattr(Reg, op)(ra, rb, ra, rb)  # dsts alias the sources: both are read first
    want0, want1 = OPS[op](a, b)
    assert reg_bits(ra) == want0 and reg_bits(rb) == want1


def test_interleave_roundtrip_and_b64_traitone() -> None:
    a, b = make_reg(half, list(range(128))), make_reg(half, list(range(128, 256)))
    lo, hi, x, y = (new_reg(half) for _ in range(4))
    Reg.Interleave(lo, hi, a, b)
    Reg.DeInterleave(x, y, lo, hi)
    assert reg_bits(x) == list(range(128)) and reg_bits(y) == list(range(128, 256))
    r = make_reg(int64_t, [1] * 32)
    with pytest.raises(AscregTypeError, match="RegTraitNumTwo"):
        Reg.Interleave(r, new_reg(int64_t), r, r)


GATHER_PAIRS = [
    pytest.param(t, u, id=f"{t.cpp_name}-{u.cpp_name}") for t, u in SPECS["Reg.Gather"].combos
]


@pytest.mark.rows("Reg.Gather")
@pytest.mark.parametrize(("dtype", "index_type"), GATHER_PAIRS)
@settings(max_examples=10)
@given(st.data())
def test_gather(dtype: Any, index_type: Any, data: Any) -> None:
    lanes = 256 // dtype.size
    src = data.draw(lane_bits(dtype, lanes))
    index = data.draw(lane_bits(index_type, lanes))  # any value: past the register it wraps
    dst = new_reg(dtype)
    Reg.Gather[dtype, index_type](dst, make_reg(dtype, src), make_reg(index_type, index))
    assert reg_bits(dst) == gather(src, index)


def test_gather_wraps_indices_and_checks_types() -> None:
    src = make_reg(half, list(range(128)))
    dst = new_reg(half)
    Reg.Gather(dst, src, make_reg(uint16_t, [168] * 128))  # the documented 168 % 128 = 40
    assert reg_bits(dst) == [40] * 128
    Reg.Gather(src, src, make_reg(uint16_t, [127 - i for i in range(128)]))  # dst may alias src
    assert reg_bits(src) == list(range(127, -1, -1))
    with pytest.raises(IllegalDtypeError):
        Reg.Gather(dst, src, make_reg(uint32_t, [0] * 64))  # index width differs from T's
    with pytest.raises(TemplateMismatchError):
        Reg.Gather[half, uint16_t](dst, src, make_reg(uint32_t, [0] * 64))
    with pytest.raises(IllegalDtypeError):
        Reg.Gather[half, uint32_t]


@pytest.mark.rows("Reg.Squeeze")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Squeeze"].combos))
@settings(max_examples=15)
@given(st.data())
def test_squeeze(dtype: Any, two: bool, data: Any) -> None:
    lanes = 256 // dtype.size
    src, mask = data.draw(lane_bits(dtype, lanes)), data.draw(mask_bits())
    dst = make_reg(dtype, data.draw(lane_bits(dtype, lanes)))  # old lanes never survive
    Reg.Squeeze[dtype, GatherMaskMode.NO_STORE_REG](dst, make_reg(dtype, src), make_mask(mask))
    assert reg_bits(dst) == squeeze(src, mask, dtype.size)


def test_squeeze_store_reg_is_unsupported() -> None:
    reg = make_reg(int16_t, [1] * 128)
    with pytest.raises(UnsupportedError, match="AR"):
        Reg.Squeeze[int16_t, GatherMaskMode.STORE_REG](reg, reg, Reg.CreateMask[int16_t]())

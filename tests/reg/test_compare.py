"""Compare, Compares and Select on registers against the scalar reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import CMPMODE, Reg, RegTraitNumOne, RegTraitNumTwo, bfloat16_t, float32_t, half
from ascreg._spec import SPECS
from reference.common import boundary_bits, encode_float, from_bits, lane_count, width
from reference.compare import compare, select
from reference.masks import lanes_to_mask, mask_to_lanes
from strategies import (
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    mask_list,
    new_reg,
    reg_bits,
)

COMPARE = dtype_params(SPECS["Reg.Compare"].combos)
COMPARES = dtype_params(SPECS["Reg.Compares"].combos)
SELECT = dtype_params(SPECS["Reg.Select"].combos)


@st.composite
def operand_pair(draw: Any, dtype: Any, lanes: int) -> tuple[list[int], list[int]]:
    """Two lane lists; some lanes of the second copy the first so EQ/GE/LE hold sometimes."""
    a = draw(lane_bits(dtype, lanes))
    b = draw(lane_bits(dtype, lanes))
    same = draw(st.binary(min_size=lanes, max_size=lanes))
    return a, [x if s % 4 == 0 else y for x, y, s in zip(a, b, same, strict=True)]


def _trait(two: bool) -> Any:
    return RegTraitNumTwo if two else RegTraitNumOne


@pytest.mark.rows("Reg.Compare")
@pytest.mark.parametrize(("dtype", "two"), COMPARE)
@given(st.data())
def test_compare(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a, b = data.draw(operand_pair(dtype, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    ra, rb, mask = make_reg(dtype, a, two), make_reg(dtype, b, two), make_mask(mbits)
    for mode in CMPMODE:  # every mode on the same operands
        dst = Reg.MaskReg()
        Reg.Compare[dtype, mode](dst, ra, rb, mask)
        want = lanes_to_mask(compare(mode.name, dtype, a, b, active), stride)
        assert mask_list(dst) == want, mode


@pytest.mark.rows("Reg.Compares")
@pytest.mark.parametrize(("dtype", "two"), COMPARES)
@given(st.data())
def test_compares(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    scalar = data.draw(st.one_of(st.sampled_from(a), st.sampled_from(boundary_bits(dtype))))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    ra, mask = make_reg(dtype, a, two), make_mask(mbits)
    for mode in CMPMODE:
        dst = Reg.MaskReg()
        Reg.Compares[dtype, mode](dst, ra, from_bits([scalar], dtype)[0], mask)
        want = lanes_to_mask(compare(mode.name, dtype, a, [scalar] * lanes, active), stride)
        assert mask_list(dst) == want, mode


def test_compare_same_register_and_float_rules() -> None:
    """NaN: all false except NE; +0 == -0; a register compared with itself."""
    for dtype in (half, float32_t, bfloat16_t):
        nan, pz = encode_float(float("nan"), dtype), 0
        nz = 1 << (width(dtype) - 1)
        lanes = lane_count(dtype)
        a = make_reg(dtype, [nan, pz] * (lanes // 2))
        b = make_reg(dtype, [nan, nz] * (lanes // 2))
        mask = Reg.CreateMask[dtype]()
        for mode, want in [
            ("EQ", [0, 1]), ("NE", [1, 0]), ("GT", [0, 0]), ("GE", [0, 1]),
            ("LT", [0, 0]), ("LE", [0, 1]),
        ]:  # fmt: skip
            dst = Reg.MaskReg()
            Reg.Compare[dtype, CMPMODE[mode]](dst, a, b, mask)
            got = mask_to_lanes(mask_list(dst), lanes, dtype.size)
            assert [int(g) for g in got[:2]] == want, (dtype, mode)
        dst = Reg.MaskReg()
        Reg.Compare[dtype, CMPMODE.EQ](dst, a, a, mask)  # src0 and src1 the same register
        assert mask_to_lanes(mask_list(dst), lanes, dtype.size)[:2] == [False, True]


@pytest.mark.rows("Reg.Select")
@pytest.mark.parametrize(("dtype", "two"), SELECT)
@given(st.data())
def test_select_bit_exact(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    b = data.draw(lane_bits(dtype, lanes))
    sel = data.draw(mask_bits())
    dst = new_reg(dtype, two)
    Reg.Select(dst, make_reg(dtype, a, two), make_reg(dtype, b, two), make_mask(sel))
    want = select(a, b, mask_to_lanes(sel, lanes, stride))
    assert reg_bits(dst) == want  # exact bits: NaN payloads and signed zeros survive


@pytest.mark.parametrize(("dtype", "two"), SELECT[:3])
def test_select_with_template_dtype(dtype: Any, two: bool) -> None:
    lanes, _ = geometry(dtype, two)
    a, b = make_reg(dtype, [1] * lanes, two), make_reg(dtype, [0] * lanes, two)
    dst = new_reg(dtype, two)
    Reg.Select[dtype](dst, a, b, Reg.CreateMask[dtype, Reg.MaskPattern.H, _trait(two)]())
    assert reg_bits(dst) == [1] * (lanes // 2) + [0] * (lanes // 2)

"""Adds, Muls, Maxs, Mins (the scalar forms) against the scalar reference.

The scalar forms reuse the vector lane formula (``reference.arith.binary``) with every src1 lane
equal to the scalar; all of them are ZEROING only (spec §7), so MERGING must be rejected.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import MaskMergeMode, Reg, half, int8_t, int32_t
from ascreg._spec import SPECS
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError
from reference.arith import binary, scalar_formula
from reference.common import encode_float, from_bits, zeroing
from reference.masks import mask_to_lanes
from strategies import (
    assert_same_lanes,
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    new_reg,
    reg_bits,
    scalar_bits,
)

SCALAR_OPS = ("Adds", "Muls", "Maxs", "Mins")
SCALAR_DTYPES: dict[Any, list[str]] = {}
for _op in (*SCALAR_OPS, "LeakyRelu"):
    for (_dtype,) in SPECS[f"Reg.{_op}"].combos:
        SCALAR_DTYPES.setdefault(_dtype, []).append(_op)


@pytest.mark.rows("Reg.Adds", "Reg.Muls", "Reg.Maxs", "Reg.Mins", "Reg.LeakyRelu")
@pytest.mark.parametrize(("dtype", "two"), dtype_params([(d,) for d in SCALAR_DTYPES]))
@settings(max_examples=25)
@given(st.data())
def test_scalar_binary(dtype: Any, two: bool, data: Any) -> None:
    """Every scalar op legal for *dtype* = the vector formula against a broadcast scalar."""
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    s = scalar_bits(data, dtype)
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    src, mask, scalar = make_reg(dtype, a, two), make_mask(mbits), from_bits([s], dtype)[0]
    for op in SCALAR_DTYPES[dtype]:
        dst = new_reg(dtype, two)
        getattr(Reg, op)(dst, src, scalar, mask)
        want = zeroing([binary(scalar_formula(op), dtype, x, s) for x in a], active)
        assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.parametrize("op", SCALAR_OPS)
def test_scalar_forms_are_zeroing_only(op: str) -> None:
    dst, src = new_reg(int32_t), make_reg(int32_t, [1] * 64)
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        getattr(Reg, op)[int32_t, int32_t, MaskMergeMode.MERGING](
            dst, src, 1, Reg.CreateMask[int32_t]()
        )
    with pytest.raises(AscregTypeError, match=r"not a template argument list .* U, MaskMerge"):
        getattr(Reg, op)[int32_t, MaskMergeMode.ZEROING]  # C++: Op<T, U, mode>


def test_scalar_conversion() -> None:
    """Python scalars are converted to T; out-of-range integers and floats for ints are errors."""
    mask = Reg.CreateMask[int8_t]()
    dst, src = new_reg(int8_t), make_reg(int8_t, [0x7F] * 256)
    Reg.Adds(dst, src, 1, mask)
    assert reg_bits(dst)[0] == 0x80  # 127 + 1 wraps to -128
    with pytest.raises(AscregError, match="outside"):
        Reg.Adds(dst, src, 128, mask)
    with pytest.raises(AscregError, match="explicit cast"):
        Reg.Adds(dst, src, 1.5, mask)
    with pytest.raises(AscregTypeError, match="scalar"):
        Reg.Adds(dst, src, src, mask)
    h = new_reg(half)
    Reg.Muls(h, make_reg(half, [encode_float(3.0, half)] * 128), 0.1, Reg.CreateMask[half]())
    want = binary("Mul", half, encode_float(3.0, half), encode_float(0.1, half))
    assert reg_bits(h)[0] == want
    with pytest.raises(IllegalDtypeError, match="Muls"):
        Reg.Muls(new_reg(int8_t), src, 1, mask)  # no 8-bit Muls

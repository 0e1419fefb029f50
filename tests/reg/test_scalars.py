"""Adds, Muls, Maxs, Mins (scalar forms), Abs, Neg and Arange against the scalar reference.

The scalar forms reuse the vector lane formula (reference.binary) with every src1 lane equal to
the scalar; all of them are ZEROING only (spec §7), so MERGING must be rejected. Arange follows
spec §7 (start + i / start + VL_T - 1 - i), floats rounded once to nearest even.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    IndexOrder,
    MaskMergeMode,
    Reg,
    RegTraitNumTwo,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
)
from ascreg._spec import SPECS
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError
from reference.arith import abs_lane, arange, binary, neg_lane
from reference.common import (
    boundary_bits,
    encode_float,
    first_difference,
    from_bits,
    lane_count,
    same_lanes,
    width,
    zeroing,
)
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

SCALAR_OPS = ("Adds", "Muls", "Maxs", "Mins")
SCALAR_DTYPES: dict[Any, list[str]] = {}
for _op in SCALAR_OPS:
    for (_dtype,) in SPECS[f"Reg.{_op}"].combos:
        SCALAR_DTYPES.setdefault(_dtype, []).append(_op)


def _check(got: list[int], want: list[int], dtype: Any) -> None:
    assert same_lanes(got, want, dtype), first_difference(got, want)


def _scalar_bits(data: Any, dtype: Any) -> int:
    bounds = boundary_bits(dtype)
    return int(
        data.draw(st.one_of(st.sampled_from(bounds), st.integers(0, (1 << width(dtype)) - 1)))
    )


@pytest.mark.parametrize(("dtype", "two"), dtype_params([(d,) for d in SCALAR_DTYPES]))
@settings(max_examples=25)
@given(st.data())
def test_scalar_binary(dtype: Any, two: bool, data: Any) -> None:
    """Every scalar op legal for *dtype* = the vector formula against a broadcast scalar."""
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    s = _scalar_bits(data, dtype)
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    src, mask, scalar = make_reg(dtype, a, two), make_mask(mbits), from_bits([s], dtype)[0]
    for op in SCALAR_DTYPES[dtype]:
        dst = new_reg(dtype, two)
        getattr(Reg, op)(dst, src, scalar, mask)
        want = zeroing([binary(op.removesuffix("s"), dtype, x, s) for x in a], active)
        _check(reg_bits(dst), want, dtype)


@pytest.mark.parametrize("op", SCALAR_OPS)
def test_scalar_forms_are_zeroing_only(op: str) -> None:
    dst, src = new_reg(int32_t), make_reg(int32_t, [1] * 64)
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        getattr(Reg, op)[int32_t, MaskMergeMode.MERGING](dst, src, 1, Reg.CreateMask[int32_t]())


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


UNARY = {"Abs": abs_lane, "Neg": neg_lane}


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


def _span(dtype: Any, two: bool) -> int:
    """VL_T of the DECREASE formula; int64 RegTraitNumOne counts from start + 63 (decision)."""
    return 64 if dtype.size == 8 else lane_count(dtype, two)


@pytest.mark.parametrize("decrease", [False, True], ids=["INCREASE", "DECREASE"])
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Arange"].combos))
@settings(max_examples=30)
@given(st.data())
def test_arange(dtype: Any, two: bool, decrease: bool, data: Any) -> None:
    lanes, _ = geometry(dtype, two)
    start = _scalar_bits(data, dtype)
    dst = new_reg(dtype, two)
    order = IndexOrder.DECREASE_ORDER if decrease else IndexOrder.INCREASE_ORDER
    Reg.Arange[dtype, order](dst, from_bits([start], dtype)[0])
    want = arange(dtype, start, lanes, decrease, _span(dtype, two))
    _check(reg_bits(dst), want, dtype)


def _half(x: float) -> int:
    return encode_float(x, half)


def test_arange_documented_boundaries() -> None:
    """The boundary-value appendix (Reg矢量计算接口边界值汇总.md, table 38) where it agrees with
    one round-to-nearest-even addition."""
    cases = [
        (int8_t, 127, [127, -128, *range(-127, 127)]),
        (int8_t, -128, list(range(-128, 128))),
        (int16_t, 32767, [32767, *range(-32768, -32641)]),
        (int32_t, 2**31 - 1, [2**31 - 1, *range(-(2**31), -(2**31) + 63)]),
    ]
    for dtype, start, values in cases:
        dst = new_reg(dtype)
        Reg.Arange(dst, start)
        assert np.asarray(dst).tolist() == values
    dst = new_reg(half)
    Reg.Arange(dst, np.float16(65504))  # 16 lanes of 65504, then inf
    assert reg_bits(dst) == [_half(65504)] * 16 + [0x7C00] * 112
    Reg.Arange(dst, np.float16(-0.0))  # -0 + 0 = +0
    assert reg_bits(dst) == [_half(i) for i in range(128)]
    Reg.Arange(dst, np.float16(np.inf))
    assert reg_bits(dst) == [0x7C00] * 128


@pytest.mark.xfail(
    strict=True,
    reason="spec conflict: the appendix lists half -65504 + i as 16/32/32/32/16 lanes of "
    "-65504/-65472/-65440/-65408/-65376 (ties rounded up); round-to-nearest-even gives 16/33/31/33/15",
)
def test_arange_half_min_appendix() -> None:
    dst = new_reg(half)
    Reg.Arange(dst, np.float16(-65504))
    want = [-65504.0] * 16 + [-65472.0] * 32 + [-65440.0] * 32 + [-65408.0] * 32 + [-65376.0] * 16
    assert np.asarray(dst).astype(float).tolist() == want


def test_arange_b64_layouts() -> None:
    two = new_reg(int64_t, True)
    Reg.Arange[int64_t, IndexOrder.DECREASE_ORDER](two, 2**63 - 1)
    assert np.asarray(two).tolist()[:2] == [2**63 - 1 + 63 - 2**64, 2**63 - 1 + 62 - 2**64]
    one = new_reg(int64_t)
    Reg.Arange[int64_t, IndexOrder.DECREASE_ORDER](one, 0)
    assert np.asarray(one).tolist() == list(range(63, 31, -1))  # the first 32 of 64 (decision)
    with pytest.raises(AscregError, match="outside"):
        Reg.Arange(new_reg(int8_t), 200)
    assert Reg.RegTensor[int64_t, RegTraitNumTwo]().lanes == 64

"""AbsSub, MulAddDst, MulDstAdd, Axpy, ExpSub, Mull, AddC, SubC and the Add/Sub carry overloads.

Every legal dtype (and 64-bit RegTrait) of each row, random lanes with boundary values, random
masks, against the per-lane references of ``reference.compound``. A NaN result matches any NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import MaskMergeMode, Reg, float32_t, half, int32_t, uint32_t
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError, IllegalDtypeError
from reference.common import from_bits, lane_count, zeroing
from reference.compound import (
    MULTIPLY_ADDS,
    abs_sub_lane,
    carry_lane,
    exp_sub_lane,
    mull_lane,
)
from reference.masks import lanes_to_mask, mask_to_lanes
from strategies import (
    assert_same_lanes,
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    mask_list,
    new_reg,
    reg_bits,
    scalar_bits,
)

FEWER = settings(max_examples=max(4, settings.default.max_examples // 2))


def _params(*rows: str) -> list[Any]:
    return [
        pytest.param(row, *p.values, id=f"{row}-{p.id}")
        for row in rows
        for p in dtype_params(SPECS[f"Reg.{row}"].combos)
    ]


@pytest.mark.rows("Reg.AbsSub", "Reg.MulAddDst", "Reg.MulDstAdd")
@pytest.mark.parametrize(("op", "dtype", "two"), _params("AbsSub", "MulAddDst", "MulDstAdd"))
@FEWER
@given(data=st.data())
def test_three_register_ops(op: str, dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a, b, old = (data.draw(lane_bits(dtype, lanes)) for _ in range(3))
    mbits = data.draw(mask_bits())
    dst = make_reg(dtype, old, two)
    getattr(Reg, op)(dst, make_reg(dtype, a, two), make_reg(dtype, b, two), make_mask(mbits))
    if op == "AbsSub":
        lanes_want = [abs_sub_lane(x, y, dtype) for x, y in zip(a, b, strict=True)]
    else:
        f = MULTIPLY_ADDS[op]
        lanes_want = [f(x, y, z, dtype) for x, y, z in zip(a, b, old, strict=True)]
    assert_same_lanes(
        reg_bits(dst), zeroing(lanes_want, mask_to_lanes(mbits, lanes, stride)), dtype
    )


@pytest.mark.rows("Reg.Axpy")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Axpy"].combos))
@FEWER
@given(data=st.data())
def test_axpy(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    src, old = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    s = scalar_bits(data, dtype)
    mbits = data.draw(mask_bits())
    dst = make_reg(dtype, old, two)
    Reg.Axpy(dst, make_reg(dtype, src, two), from_bits([s], dtype)[0], make_mask(mbits))
    want = [MULTIPLY_ADDS["Axpy"](x, s, z, dtype) for x, z in zip(src, old, strict=True)]
    assert_same_lanes(reg_bits(dst), zeroing(want, mask_to_lanes(mbits, lanes, stride)), dtype)


def exp_sub_want(a: list[int], b: list[int], src: Any, mbits: list[int], part: int) -> list[int]:
    """ExpSub per float lane: half sources from lane ``2 * i + part``, enabled by its b16 bit."""
    if src is half:
        active, picks = mask_to_lanes(mbits, 128, 2), [2 * i + part for i in range(64)]
    else:
        active, picks = mask_to_lanes(mbits, 64, 4), list(range(64))
    return [exp_sub_lane(a[k], b[k], src) if active[k] else 0 for k in picks]


@pytest.mark.rows("Reg.ExpSub")
@pytest.mark.parametrize("src", [half, float32_t], ids=["half", "float"])
@pytest.mark.parametrize("layout", [Reg.RegLayout.ZERO, Reg.RegLayout.ONE])
@FEWER
@given(data=st.data())
def test_exp_sub(src: Any, layout: Any, data: Any) -> None:
    a, b = (data.draw(lane_bits(src, lane_count(src))) for _ in range(2))
    mbits = data.draw(mask_bits())
    dst = new_reg(float32_t)
    Reg.ExpSub[float32_t, src, layout](dst, make_reg(src, a), make_reg(src, b), make_mask(mbits))
    assert_same_lanes(reg_bits(dst), exp_sub_want(a, b, src, mbits, int(layout)), float32_t)


@pytest.mark.rows("Reg.Mull")
@pytest.mark.parametrize("dtype", [int32_t, uint32_t], ids=["int32", "uint32"])
@FEWER
@given(data=st.data())
def test_mull(dtype: Any, data: Any) -> None:
    a, b = data.draw(lane_bits(dtype, 64)), data.draw(lane_bits(dtype, 64))
    mbits = data.draw(mask_bits())
    low, high = new_reg(dtype), new_reg(dtype)
    Reg.Mull(low, high, make_reg(dtype, a), make_reg(dtype, b), make_mask(mbits))
    active = mask_to_lanes(mbits, 64, 4)
    pairs = [mull_lane(x, y, dtype) for x, y in zip(a, b, strict=True)]
    assert reg_bits(low) == zeroing([p[0] for p in pairs], active)
    assert reg_bits(high) == zeroing([p[1] for p in pairs], active)


CARRY_OPS = [
    ("AddC", False, True),
    ("SubC", True, True),
    ("Add", False, False),
    ("Sub", True, False),
]


@pytest.mark.rows("Reg.AddC", "Reg.SubC", "Reg.Add", "Reg.Sub")
@pytest.mark.parametrize(("op", "subtract", "carry_in"), CARRY_OPS, ids=[c[0] for c in CARRY_OPS])
@pytest.mark.parametrize("dtype", [int32_t, uint32_t], ids=["int32", "uint32"])
@FEWER
@given(data=st.data())
def test_carry(op: str, subtract: bool, carry_in: bool, dtype: Any, data: Any) -> None:
    """AddC/SubC take a carry in; the Add/Sub carry overloads use 0 (sum) or 1 (difference)."""
    a, b = data.draw(lane_bits(dtype, 64)), data.draw(lane_bits(dtype, 64))
    mbits, cbits = data.draw(mask_bits()), data.draw(mask_bits())
    dst, carry = new_reg(dtype), Reg.MaskReg()
    sources = (make_reg(dtype, a), make_reg(dtype, b))
    if carry_in:
        getattr(Reg, op)(carry, dst, *sources, make_mask(cbits), make_mask(mbits))
        cin = mask_to_lanes(cbits, 64, 4)
    else:
        getattr(Reg, op)(carry, dst, *sources, make_mask(mbits))
        cin = [subtract] * 64
    active = mask_to_lanes(mbits, 64, 4)
    pairs = [carry_lane(x, y, int(c), subtract=subtract) for x, y, c in zip(a, b, cin, strict=True)]
    assert reg_bits(dst) == zeroing([p[0] for p in pairs], active)
    assert mask_list(carry) == lanes_to_mask(zeroing([p[1] for p in pairs], active), 4)


def test_carry_overload_takes_int32_and_uint32_only() -> None:
    a = Reg.RegTensor[half]()
    a.set(np.float16(1))
    with pytest.raises(IllegalDtypeError, match="carry overload takes int32_t, uint32_t"):
        Reg.Add(Reg.MaskReg(), Reg.RegTensor[half](), a, a, Reg.CreateMask[half]())


@pytest.mark.parametrize("op", ["AbsSub", "MulAddDst", "MulDstAdd"])
def test_compound_ops_are_zeroing_only(op: str) -> None:
    a = Reg.RegTensor[float32_t]()
    a.set(np.float32(1))
    with pytest.raises(AscregTypeError, match="MERGING"):
        getattr(Reg, op)[float32_t, MaskMergeMode.MERGING](a, a, a, Reg.CreateMask[float32_t]())


def test_exp_sub_layouts_two_and_three_are_rejected() -> None:
    a, d = Reg.RegTensor[half](), Reg.RegTensor[float32_t]()
    a.set(np.float16(0))
    with pytest.raises(AscregTypeError, match=r"RegLayout\.ZERO and RegLayout\.ONE only"):
        Reg.ExpSub[float32_t, half, Reg.RegLayout.TWO](d, a, a, Reg.CreateMask[half]())


def test_fused_multiply_add_rounds_once() -> None:
    """The page: one instruction, more precise than Mul then Add (Fma(x, y, z))."""
    a, b, acc = (Reg.RegTensor[half]() for _ in range(3))
    a.set(np.float16(1 + 2**-10))
    b.set(np.float16(1 - 2**-10))
    acc.set(np.float16(-1))
    Reg.MulAddDst(acc, a, b, Reg.CreateMask[half]())
    assert float(np.asarray(acc)[0]) == -(2.0**-20)  # Mul then Add would give 0


def test_older_spellings_are_the_same_ops() -> None:
    assert Reg.FusedAbsSub is Reg.AbsSub and Reg.FusedExpSub is Reg.ExpSub
    assert Reg.FusedMulDstAdd is Reg.MulDstAdd and Reg.Mula is Reg.MulAddDst
    assert Reg.AddCarryOut is Reg.Add and Reg.SubCarryOut is Reg.Sub
    assert Reg.AddCarryOuts is Reg.AddC and Reg.SubCarryOuts is Reg.SubC


def _near_midpoints(dtype: Any) -> Any:
    """Draw (a, b, c) bits whose exact ``a * b + c`` is within a float64 ulp of a lane midpoint.

    ``a = (1 + k u) 2^s`` and ``b = (1 - k u) 2^s`` (*u*: the lane type's unit roundoff)
    multiply to ``(1 - k^2 u^2) 4^s``; added to a *c* at a midpoint's distance, the float64 sum
    lands on the midpoint, where rounding it again can differ from rounding the exact sum once.
    Normal results (``s = 0``, a large *c*) and, for float, subnormal ones (``4^s`` half the
    smallest subnormal, *c* a multiple of it); signs and zeros are drawn too.
    """
    bits = 23 if dtype is float32_t else 10
    np_type = np.float32 if dtype is float32_t else np.float16
    unit = 2.0**-bits
    emax = 100 if dtype is float32_t else 12

    @st.composite
    def draw(pick: Any) -> tuple[int, int, int]:
        k = pick(st.integers(1, 7))
        sign = pick(st.sampled_from([1.0, -1.0]))
        subnormal = dtype is float32_t and pick(st.booleans())
        scale = 2.0**-75 if subnormal else 1.0
        a, b = np_type((1 + k * unit) * scale), np_type(sign * (1 - k * unit) * scale)
        if subnormal:
            c = np_type(-sign * pick(st.integers(0, 2**12)) * 2.0**-149)
        else:
            exponent = pick(st.integers(-emax, emax) | st.integers(bits + 1, bits + 4))
            steps = pick(st.integers(0, 8))
            c = np_type(-sign * 2.0**exponent + steps * 2.0 ** (exponent - bits))
        c = pick(st.sampled_from([c, -c, np_type(0), np_type(1 - unit / 2), np_type(sign)]))
        return tuple(int(np.asarray(v, np_type).view(f"u{np_type(0).nbytes}")) for v in (a, b, c))

    return draw()


@pytest.mark.rows("Reg.MulAddDst")
@pytest.mark.parametrize("dtype", [float32_t, half], ids=["float", "half"])
@FEWER
@given(data=st.data())
def test_fused_multiply_add_near_midpoints(dtype: Any, data: Any) -> None:
    """The float64 fast path falls back where a second rounding could differ (double rounding)."""
    lanes, _stride = geometry(dtype, False)
    drawn = [data.draw(_near_midpoints(dtype)) for _ in range(lanes)]
    a, b, old = (list(column) for column in zip(*drawn, strict=True))
    dst = make_reg(dtype, old, False)
    Reg.MulAddDst(
        dst, make_reg(dtype, a, False), make_reg(dtype, b, False), Reg.CreateMask[dtype]()
    )
    want = [MULTIPLY_ADDS["MulAddDst"](x, y, z, dtype) for x, y, z in zip(a, b, old, strict=True)]
    assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.rows("Reg.MulAddDst")
@pytest.mark.parametrize(
    ("a", "b", "c", "want"),
    [
        (1 + 2**-23, 1 - 2**-23, 2**24 + 2, 2**24 + 2),  # the float64 sum ties up to 2^24 + 4
        (  # subnormal: the float64 sum ties up to 2^-140 + 2^-148
            (1 + 2**-23) * 2**-75,
            (1 - 2**-23) * 2**-75,
            2**-140 + 2**-149,
            2**-140 + 2**-149,
        ),
    ],
    ids=["normal", "subnormal"],
)
def test_fused_multiply_add_double_rounding_cases(
    a: float, b: float, c: float, want: float
) -> None:
    """The exact sum is just below a midpoint that the float64 sum rounds onto."""
    x, y, acc = (Reg.RegTensor[float32_t]() for _ in range(3))
    x.set(np.float32(a))
    y.set(np.float32(b))
    acc.set(np.float32(c))
    Reg.MulAddDst(acc, x, y, Reg.CreateMask[float32_t]())
    assert float(np.asarray(acc)[0]) == want

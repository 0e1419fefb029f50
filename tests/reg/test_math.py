"""Div, Sqrt, Exp, Ln, Log, Log2 and Log10 against the correctly rounded reference.

Every legal dtype (both layouts of the 64-bit ones), random masks, and the precision modes
each dtype accepts: the default (flush subnormals to zero) and the ``*_FTZ_FALSE`` algorithms.
A NaN result matches any NaN (payloads are undocumented); everything else is bit-exact.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import MaskMergeMode, Reg, float32_t, half, int16_t, int32_t, uint32_t
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError, TemplateMismatchError
from reference.common import from_bits, zeroing
from reference.elementary import div_lane, unary_lane
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
)

UNARY = ("Sqrt", "Exp", "Ln", "Log", "Log2", "Log10")
KEEP = "PRECISION_1ULP_FTZ_FALSE"


def _modes(op: str, dtype: Any) -> list[tuple[Any, bool]]:
    """``(mode subscript or None, ftz)`` pairs legal for *op* on *dtype*."""
    if dtype not in (half, float32_t):
        return [(None, True), (MaskMergeMode.ZEROING, True)]
    struct = getattr(Reg, f"{op}SpecificMode")
    algo = getattr(Reg, f"{op}Algo")
    modes = [(None, True), (struct(), True), (struct(algo=algo[KEEP]), False)]
    if dtype is float32_t and op in ("Div", "Sqrt"):
        modes += [
            (struct(precisionMode=True), op == "Div"),  # Sqrt's fast inverse keeps subnormals
            (struct(algo=algo.PRECISION_0ULP_FTZ_FALSE), False),
        ]
    return modes


def _float_lanes(data: Any, dtype: Any, lanes: int, low: float, high: float) -> list[int]:
    """Random bit patterns mixed with values in [low, high] (where exp/log are interesting)."""
    bits = data.draw(lane_bits(dtype, lanes))
    width = 16 if dtype is half else 32
    near = data.draw(st.lists(st.floats(low, high, width=width), min_size=lanes, max_size=lanes))
    pick = data.draw(st.lists(st.booleans(), min_size=lanes, max_size=lanes))
    wanted = from_bits(bits, dtype).copy()
    wanted[np.array(pick)] = np.array(near, dtype=wanted.dtype)[np.array(pick)]
    return [int(v) for v in wanted.view(f"u{wanted.itemsize}")]


def _call(op: str, mode: Any, dtype: Any, *args: Any) -> None:
    fn = getattr(Reg, op)
    (fn if mode is None else fn[dtype, mode])(*args)


@pytest.mark.rows("Reg.Div")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Div"].combos))
@settings(max_examples=25)
@given(st.data())
def test_div(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    b = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    mode, ftz = data.draw(st.sampled_from(_modes("Div", dtype)))
    dst = new_reg(dtype, two)
    _call("Div", mode, dtype, dst, make_reg(dtype, a, two), make_reg(dtype, b, two),
          make_mask(mbits))  # fmt: skip
    want = zeroing(
        [div_lane(x, y, dtype, ftz) for x, y in zip(a, b, strict=True)],
        mask_to_lanes(mbits, lanes, stride),
    )
    assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.rows(*(f"Reg.{op}" for op in UNARY))
@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", [half, float32_t])
@settings(max_examples=15)
@given(st.data())
def test_unary(op: str, dtype: Any, data: Any) -> None:
    lanes, stride = geometry(dtype, False)
    low, high = (-20.0, 12.0) if dtype is half else (-110.0, 90.0)
    if op != "Exp":
        low = 0.0
    a = _float_lanes(data, dtype, lanes, low, high)
    mbits = data.draw(mask_bits())
    mode, ftz = data.draw(st.sampled_from(_modes(op, dtype)))
    dst = new_reg(dtype)
    _call(op, mode, dtype, dst, make_reg(dtype, a), make_mask(mbits))
    want = zeroing([unary_lane(op, x, dtype, ftz) for x in a], mask_to_lanes(mbits, lanes, stride))
    assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.parametrize("op", ["Exp", "Ln", "Log2", "Log10"])
def test_half_grid(op: str) -> None:
    """Every 16th half pattern (4096 lanes) in both subnormal modes, against the reference."""
    patterns = [*range(0, 1 << 16, 16), 0x0001, 0x8001, 0x03FF, 0x7BFF]
    patterns += [0x3C00 + i for i in range(-8, 8)]  # around 1.0, where the logs are tiny
    for keep in (False, True):
        mode = getattr(Reg, f"{op}SpecificMode")(algo=getattr(Reg, f"{op}Algo")[KEEP]) if keep else None  # fmt: skip
        for start in range(0, len(patterns), 128):
            chunk = (patterns[start : start + 128] * 128)[:128]
            dst = new_reg(half)
            _call(op, mode, half, dst, make_reg(half, chunk), Reg.CreateMask[half]())
            want = [unary_lane(op, x, half, not keep) for x in chunk]
            assert_same_lanes(reg_bits(dst), want, half)


HARD = {  # float32 inputs whose float64 value lies near a rounding midpoint (exact re-evaluation)
    "Exp": [0xC2AC0052, 0x41F77C01, 0x41BB293E],
    "Ln": [0x7146B89F, 0x42138ACE, 0x5E02B656],
    "Log2": [0x09114A90, 0x0A114A90, 0x6FEB8090],
    "Log10": [0x347B62E5, 0x20EC26F7, 0x03D315E2],
}


@pytest.mark.parametrize("op", HARD)
def test_near_midpoints(op: str) -> None:
    lanes = (HARD[op] * 22)[:64]
    mode = getattr(Reg, f"{op}SpecificMode")(algo=getattr(Reg, f"{op}Algo")[KEEP])
    dst = new_reg(float32_t)
    getattr(Reg, op)[float32_t, mode](dst, make_reg(float32_t, lanes), Reg.CreateMask[float32_t]())
    assert reg_bits(dst) == [unary_lane(op, x, float32_t, ftz=False) for x in lanes]


@pytest.mark.parametrize(
    ("x", "y", "keep", "want"),
    [
        # Div.md table 8: subnormal examples with and without the subnormal mode.
        (0x3F800000, 0x8036A794, False, 0xFF800000),  # 1 / -5.02e-39 -> -inf (divisor -> -0)
        (0x3F800000, 0x8036A794, True, 0xFF15E301),  # -1.9923364e38
        (0x0014440B, 0x0053E3CF, False, None),  # subnormal / subnormal -> 0 / 0 = NaN
        (0x0014440B, 0x0053E3CF, True, 0x3E775FBC),  # 0.24157614
        (0xFF7FFFFF, 0x00000000, False, 0xFF800000),  # boundary table 18: MIN / 0 = -inf
        (0x7F800000, 0x80000000, False, 0xFF800000),  # inf / -0 = -inf
        (0x00000000, 0x7F800000, False, 0x00000000),  # 0 / inf = 0
        (0x80000000, 0x7FC00000, False, None),  # -0 / nan = nan
        (0x00800000, 0x40000000, False, 0x00000000),  # a subnormal quotient is flushed
        (0x00800000, 0x40000000, True, 0x00400000),
    ],
)
def test_div_documented(x: int, y: int, keep: bool, want: int | None) -> None:
    mode = Reg.DivSpecificMode(algo=Reg.DivAlgo[KEEP] if keep else Reg.DivAlgo.INTRINSIC)
    dst = new_reg(float32_t)
    Reg.Div[float32_t, mode](
        dst,
        make_reg(float32_t, [x] * 64),
        make_reg(float32_t, [y] * 64),
        Reg.CreateMask[float32_t](),
    )
    got = reg_bits(dst)[0]
    assert_same_lanes([got], [0x7FC00000 if want is None else want], float32_t)
    assert_same_lanes([div_lane(x, y, float32_t, not keep)], [got], float32_t)


@pytest.mark.parametrize(
    ("dtype", "x", "y", "want"),
    [
        (int16_t, 0x8000, 0xFFFF, 0x8000),  # MIN / -1 wraps to MIN
        (int16_t, 0xFFF9, 0x0002, 0xFFFD),  # -7 / 2 = -3 (toward zero)
        (int16_t, 0x0005, 0x0000, 0xFFFF),  # x / 0 = all ones (-1)
        (uint32_t, 7, 0, 0xFFFFFFFF),  # x / 0 = UINT_MAX
        (int32_t, 0x7FFFFFFF, 0x80000000, 0),  # MAX / MIN = 0
    ],
)
def test_integer_div_decisions(dtype: Any, x: int, y: int, want: int) -> None:
    lanes = geometry(dtype, False)[0]
    dst = new_reg(dtype)
    Reg.Div(
        dst, make_reg(dtype, [x] * lanes), make_reg(dtype, [y] * lanes), Reg.CreateMask[dtype]()
    )
    assert reg_bits(dst)[0] == want == div_lane(x, y, dtype)


@pytest.mark.parametrize(
    ("op", "dtype", "x", "want"),
    [
        ("Exp", half, 0x7BFF, 0x7C00),  # boundary table 1: exp(65504) = inf
        ("Exp", half, 0xFC00, 0x0000),  # exp(-inf) = 0
        ("Exp", float32_t, 0x80000000, 0x3F800000),  # exp(-0) = 1
        ("Ln", half, 0x7BFF, 0x498C),  # table 2: ln(65504) = 11.094
        ("Ln", float32_t, 0x80000000, 0xFF800000),  # ln(-0) = -inf
        ("Log2", float32_t, 0x7F7FFFFF, 0x43000000),  # table 4: log2(MAX) = 128
        ("Log2", half, 0x7BFF, 0x4C00),  # log2(65504) = 16 (rounded)
        ("Log10", half, 0x7BFF, 0x44D1),  # table 5: 4.8164
        # table 8 prints sqrt(65504) = 256.0: 1 ulp above the correctly rounded 255.875
        # (sqrt(65504) = 255.93749... lies just below the midpoint 255.9375)
        ("Sqrt", half, 0x7BFF, 0x5BFF),
        ("Sqrt", float32_t, 0x80000000, 0x80000000),  # sqrt(-0) = -0
        ("Sqrt", float32_t, 0xBF800000, None),  # sqrt(-1) = nan
        ("Ln", float32_t, 0x80000001, 0xFF800000),  # a flushed -subnormal is -0: ln = -inf
    ],
)
def test_unary_documented(op: str, dtype: Any, x: int, want: int | None) -> None:
    lanes = geometry(dtype, False)[0]
    dst = new_reg(dtype)
    getattr(Reg, op)(dst, make_reg(dtype, [x] * lanes), Reg.CreateMask[dtype]())
    nan = 0x7E00 if dtype is half else 0x7FC00000
    assert_same_lanes(reg_bits(dst)[:1], [nan if want is None else want], dtype)
    assert_same_lanes([unary_lane(op, x, dtype)], reg_bits(dst)[:1], dtype)


def test_mode_errors() -> None:
    a, d, m = make_reg(half, [0x3C00] * 128), new_reg(half), Reg.CreateMask[half]()
    with pytest.raises(TemplateMismatchError, match="half"):
        Reg.Div[half, Reg.DivSpecificMode(precisionMode=True)](d, a, a, m)
    with pytest.raises(TemplateMismatchError, match="int32_t"):
        i = make_reg(int32_t, [1] * 64)
        Reg.Div[int32_t, Reg.DivSpecificMode(algo=Reg.DivAlgo[KEEP])](
            new_reg(int32_t), i, i, Reg.CreateMask[int32_t]()
        )
    with pytest.raises(TemplateMismatchError, match="half"):
        Reg.Sqrt[half, Reg.SqrtSpecificMode(algo=Reg.SqrtAlgo.PRECISION_0ULP_FTZ_FALSE)](d, a, m)
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        Reg.Exp[half, MaskMergeMode.MERGING](d, a, m)
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        Reg.Ln[half, Reg.LnSpecificMode(mrgMode=MaskMergeMode.MERGING)](d, a, m)
    with pytest.raises(AscregTypeError, match="not a template argument list"):
        Reg.Exp[half, Reg.DivSpecificMode()]
    assert "DivSpecificMode(" in repr(Reg.Div[float32_t, Reg.DivSpecificMode()])

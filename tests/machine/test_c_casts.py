"""Dtype markers as C casts: ``half(2)`` is ``(half)2`` with C's conversion rules."""

from __future__ import annotations

import bisect
import math
from fractions import Fraction
from functools import cache
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    bool_,
    float32_t,
    fp8_e4m3fn_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint64_t,
)
from ascreg._dtypes import Scalar
from ascreg.errors import AscregTypeError, ConversionRangeError

INTS = (int8_t, uint8_t, int32_t, uint16_t, int64_t, uint64_t)


@pytest.mark.parametrize("marker", INTS)
@given(value=st.integers(-(2**70), 2**70))
def test_int_to_int_wraps(marker: type[Scalar], value: int) -> None:
    info = np.iinfo(marker.np_dtype)
    got = marker(value)
    assert got.dtype == marker.np_dtype
    assert int(got) % 2**marker.bits == value % 2**marker.bits
    assert info.min <= int(got) <= info.max


@pytest.mark.parametrize("marker", INTS)
@given(value=st.floats(allow_nan=False, allow_infinity=False))
def test_float_to_int_truncates_or_raises(marker: type[Scalar], value: float) -> None:
    info = np.iinfo(marker.np_dtype)
    if info.min <= math.trunc(value) <= info.max:
        assert int(marker(value)) == math.trunc(value)
    else:
        with pytest.raises(ConversionRangeError, match="undefined behaviour in C"):
            marker(value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_to_int_raises(value: float) -> None:
    with pytest.raises(ConversionRangeError, match=r"\(int32_t\)"):
        int32_t(value)


@cache
def _finite_values(dtype: Any) -> tuple[list[Fraction], list[int]]:
    """Every finite non-negative value of a 16-bit float type, sorted, with its bits."""
    bits = np.arange(0x8000, dtype=np.uint16)
    values = bits.view(dtype)
    with np.errstate(invalid="ignore"):
        keep = np.isfinite(values)
    pairs = sorted(
        zip((Fraction(float(v)) for v in values[keep]), bits[keep].tolist(), strict=True)
    )
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _reference(dtype: Any, exact: Fraction) -> float:
    """Round *exact* to nearest, ties to even, by searching the table of every value."""
    values, bits = _finite_values(dtype)
    mag = abs(exact)
    i = bisect.bisect_left(values, mag)
    if i == len(values):
        step = values[-1] - values[-2]
        result = math.inf if mag >= values[-1] + step / 2 else float(values[-1])
    else:
        lo, hi = max(i - 1, 0), i
        d_lo, d_hi = mag - values[lo], values[hi] - mag
        pick = lo if (d_lo, bits[lo] & 1) < (d_hi, bits[hi] & 1) else hi
        result = float(values[pick])
        if hi == len(values) - 1 and mag > values[-1]:
            step = values[-1] - values[-2]
            result = math.inf if mag >= values[-1] + step / 2 else result
    return -result if exact < 0 else result


@pytest.mark.parametrize(
    ("marker", "dtype"), [(half, np.float16), (bfloat16_t, ml_dtypes.bfloat16)]
)
@given(
    value=st.one_of(
        st.integers(-(2**130), 2**130), st.floats(allow_nan=False, allow_infinity=False)
    )
)
def test_to_16_bit_floats_rounds_once_to_nearest_even(
    marker: type[Scalar], dtype: Any, value: int | float
) -> None:
    got = marker(value)
    assert got.dtype == np.dtype(dtype)
    if value == 0:
        assert math.copysign(1, float(got)) == math.copysign(1, value)
        return
    assert float(got) == _reference(dtype, Fraction(value))


@given(value=st.integers(-(2**63), 2**64 - 1))
def test_int_to_float32_matches_the_c_conversion(value: int) -> None:
    source = np.array(value, np.int64 if value < 2**63 else np.uint64)
    assert float32_t(value) == source.astype(np.float32)


def test_bfloat16_is_rounded_once() -> None:
    # 2**24 + 2**16 + 1 is just above a bfloat16 tie; via float32 it becomes the tie and rounds
    # down to even.
    value = 2**24 + 2**16 + 1
    assert float(bfloat16_t(value)) == 2**24 + 2**17
    assert float(np.float32(value).astype(ml_dtypes.bfloat16)) == 2**24


def test_floats_keep_nan_inf_and_signed_zero() -> None:
    assert math.isnan(half(math.nan)) and bfloat16_t(-math.inf) == -math.inf
    assert math.copysign(1, float32_t(-0.0)) == -1
    assert half(bfloat16_t(1.5)) == 1.5


def test_bool_and_bool_sources() -> None:
    assert bool_(0.0) == np.False_ and bool_(math.nan) == np.True_ and bool_(-3) == np.True_
    assert int32_t(True) == 1 and half(np.bool_(True)) == 1


def test_cast_errors() -> None:
    with pytest.raises(ConversionRangeError, match="no arithmetic conversion"):
        hifloat8_t(1)
    with pytest.raises(ConversionRangeError, match="past the largest float8_e4m3fn"):
        fp8_e4m3fn_t(1000)
    with pytest.raises(AscregTypeError, match="a C cast takes a number, got str"):
        half("2")

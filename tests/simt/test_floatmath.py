"""``__saturatef`` / ``__fdividef`` / ``fdividef`` against the per-lane references."""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t
from ascreg.errors import AscregTypeError
from ascreg.simt import Lanes, __fdividef, __saturatef, dim3, fdividef, run_simt_kernel, threadIdx
from reference.floatmath import (
    SMALLEST_NORMAL,
    bits_of,
    ref_fdividef,
    ref_int_to_float,
    ref_saturatef,
)


def same(got: Any, want: float) -> bool:
    got = float(got)
    if math.isnan(want):
        return math.isnan(got)
    return bits_of(got) == bits_of(want)


SPECIAL_BITS = [
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x3F800000,
    0x3F7FFFFF, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
    0xFFC00001, 0x3F000000, 0x34000000, 0x00400000,
]  # fmt: skip
float_bits = st.one_of(st.sampled_from(SPECIAL_BITS), st.integers(0, 2**32 - 1))


@pytest.mark.rows("__saturatef")
@settings(max_examples=150)
@given(st.lists(float_bits, min_size=1, max_size=40))
def test_saturatef_matches_reference(bits: list[int]) -> None:
    x = np.array(bits, dtype=np.uint32).view(np.float32)
    got = __saturatef(x)
    assert got.dtype == np.float32
    for xi, g in zip(x, got, strict=True):
        assert same(g, ref_saturatef(float(xi))), (float(xi), float(g))


@pytest.mark.rows("__fdividef", "fdividef")
@settings(max_examples=150)
@given(st.lists(st.tuples(float_bits, float_bits), min_size=1, max_size=40))
def test_fdividef_matches_reference(pairs: list[tuple[int, int]]) -> None:
    x = np.array([p[0] for p in pairs], dtype=np.uint32).view(np.float32)
    y = np.array([p[1] for p in pairs], dtype=np.uint32).view(np.float32)
    for fn in (__fdividef, fdividef):
        got = fn(x, y)
        assert got.dtype == np.float32
        for xi, yi, g in zip(x, y, got, strict=True):
            assert same(g, ref_fdividef(float(xi), float(yi))), (float(xi), float(yi), float(g))


def test_special_grid_of_fdividef() -> None:
    x = np.array(SPECIAL_BITS, dtype=np.uint32).view(np.float32)
    xs, ys = np.meshgrid(x, x)
    got = __fdividef(xs.ravel(), ys.ravel())
    for xi, yi, g in zip(xs.ravel(), ys.ravel(), got, strict=True):
        assert same(g, ref_fdividef(float(xi), float(yi))), (float(xi), float(yi), float(g))


def test_documented_values() -> None:
    assert float(fdividef(1.0, 2.0)) == 0.5  # the C++ unit test's value
    assert float(__fdividef(5.0, 0.0)) == math.inf
    assert float(__fdividef(-5.0, 0.0)) == -math.inf
    assert math.isnan(float(__fdividef(0.0, 0.0)))
    assert math.isnan(float(__fdividef(math.nan, 1.0)))
    assert [float(__saturatef(v)) for v in (-1.0, 0.0, 0.5, 1.0, 2.0, math.nan)] == [
        0.0, 0.0, 0.5, 1.0, 1.0, 0.0,
    ]  # fmt: skip
    assert bits_of(float(__saturatef(-0.0))) == 0  # +0, not -0


def test_quotient_rounding_into_subnormal_is_flushed() -> None:
    got = __fdividef(np.float32(SMALLEST_NORMAL), np.float32(4.0))
    assert bits_of(float(got)) == 0
    got = __fdividef(np.float32(-SMALLEST_NORMAL), np.float32(2.0))
    assert bits_of(float(got)) == 0x80000000


def test_float_arguments_and_result_kinds() -> None:
    assert isinstance(__saturatef(0.5), np.float32)
    assert isinstance(__fdividef(np.float32(1), 3), np.float32)
    halves = np.array([0.5, 3], dtype=np.float16)
    assert __saturatef(halves).tolist() == [0.5, 1.0]
    assert __saturatef(np.array([2], dtype=ml_dtypes.bfloat16)).dtype == np.float32
    lanes = np.array([1, 2], dtype=np.float32).view(Lanes)
    assert isinstance(__fdividef(lanes, 4), Lanes)


@pytest.mark.parametrize(
    ("call", "args", "pattern"),
    [
        (__saturatef, (np.array([0.5]),), "float64"),
        (__saturatef, (np.array([1], dtype=np.float64),), "cast float64 arrays"),
        (__fdividef, (1e39, 1.0), "outside the float range"),
        (__saturatef, (10**400,), "outside the float range"),
        (__fdividef, ("1", 1.0), "the C parameter is a float"),
        (fdividef, (1.0, None), "argument 'y'"),
    ],
)
def test_bad_float_arguments(call: Any, args: Any, pattern: str) -> None:
    with pytest.raises(AscregTypeError, match=pattern) as info:
        call(*args)
    assert call.__name__ in str(info.value)


int64_values = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    # a 25-bit significand (ties need one bit past float32's 24) shifted: |m << e| <= 2**62
    st.builds(lambda e, m: m << e, st.integers(0, 38), st.integers(-(2**24), 2**24)),
)


@pytest.mark.rows("fdividef")
@settings(max_examples=150)
@given(st.lists(int64_values, min_size=1, max_size=20))
def test_integer_arguments_round_once_to_nearest_even(values: list[int]) -> None:
    # C converts an integer argument to a float parameter: one rounding, ties to even
    want = [ref_int_to_float(v) for v in values]
    assert fdividef(np.array(values, dtype=np.int64), 1).tolist() == want
    assert [float(fdividef(v, 1)) for v in values] == want


def test_integer_arguments_of_every_width() -> None:
    double_rounding = 2**62 + 2**38 + 1  # via double it would tie and round down
    assert float(fdividef(double_rounding, 1)) == 2.0**62 + 2.0**39
    assert float(fdividef(np.uint64(2**64 - 1), 1)) == 2.0**64
    assert __saturatef(np.array([-3, 0, 7], dtype=np.int8)).tolist() == [0.0, 0.0, 1.0]
    assert __saturatef(np.array([True, False])).dtype == np.float32
    assert float(fdividef(2**100 + 2**76 + 1, 2**76)) == 2.0**24 + 2  # wider than 64 bits
    assert isinstance(__fdividef(np.array([1, 2], dtype=np.int32).view(Lanes), 1), Lanes)


def test_float_functions_in_a_kernel() -> None:
    gm = GlobalMemory()
    x, out = gm.alloc(float32_t, 8), gm.alloc(float32_t, 8)
    x.write(np.linspace(-1, 2, 8, dtype=np.float32))

    def k(out: Any, x: Any) -> None:
        v = x[threadIdx.x]
        out[threadIdx.x] = __saturatef(__fdividef(v, np.float32(2)))

    run_simt_kernel(k, dim3(1), dim3(8), 0, (out, x))
    expected = [ref_saturatef(ref_fdividef(float(v), 2.0)) for v in x.read(8)]
    assert out.read(8).tolist() == expected

"""The SIMT conversions and bit casts against the per-lane references."""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg._spec import SIMT_CONVERSION_ROWS
from ascreg.errors import AscregTypeError
from reference import libm as ref

MODES = ("rn", "rz", "ru", "rd", "rna")
RANGES = {"int": (-(2**31), 2**31 - 1), "uint": (0, 2**32 - 1), "ll": (-(2**63), 2**63 - 1),
          "ull": (0, 2**64 - 1)}  # fmt: skip
DTYPES = {"int": np.int32, "uint": np.uint32, "ll": np.int64, "ull": np.uint64}
FLOAT_TO_INT = [f"__float2{t}_{m}" for t in RANGES for m in MODES]
INT_TO_FLOAT = [f"__{t}2float_{m}" for t in RANGES for m in MODES]
FLOAT_TO_FLOAT = [f"__float2float_{m}" for m in MODES]
BIT_CASTS = ["__float_as_int", "__float_as_uint", "__int_as_float", "__uint_as_float"]

SPECIAL_BITS = [0, 0x80000000, 1, 0x3F000000, 0xBF000000, 0x3FC00000, 0xC0200000, 0x4EFFFFFF,
                0x4F000000, 0xCF000000, 0x5F000000, 0x5F800000, 0xDF000000, 0x7F7FFFFF,
                0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x4B000001, 0x4B7FFFFF]  # fmt: skip
float_bits = st.one_of(
    st.sampled_from(SPECIAL_BITS),
    st.integers(0, 2**32 - 1),
    st.floats(-1e3, 1e3, width=32).map(lambda v: int(np.float32(v).view(np.uint32))),
)


def floats_of(bits: list[int]) -> np.ndarray[Any, Any]:
    return np.array(bits, dtype=np.uint32).view(np.float32)


def test_the_table_has_every_documented_conversion() -> None:
    assert set(SIMT_CONVERSION_ROWS) == {*FLOAT_TO_INT, *INT_TO_FLOAT, *FLOAT_TO_FLOAT, *BIT_CASTS}
    assert len(SIMT_CONVERSION_ROWS) == 49


@pytest.mark.rows(*FLOAT_TO_INT)
@pytest.mark.parametrize("name", FLOAT_TO_INT)
@settings(max_examples=30, deadline=None)
@given(st.lists(float_bits, min_size=1, max_size=12))
def test_float_to_integer_matches_the_reference(name: str, bits: list[int]) -> None:
    target, mode = name.removeprefix("__float2").split("_")
    x = floats_of(bits)
    got = getattr(simt, name)(x)
    assert got.dtype == DTYPES[target]
    want = [ref.to_integer(float(v), mode, *RANGES[target]) for v in x]
    assert got.tolist() == want, (name, x.tolist())


def integers(target: str) -> st.SearchStrategy[int]:
    low, high = RANGES[target]
    edges = [low, high, 0, 1, 2**24 + 1, 2**24 + 3, 2**25 + 2, 2**53 + 1, 2**63 - 2**39]
    return st.one_of(
        st.sampled_from([e for e in edges if low <= e <= high]), st.integers(low, high)
    )


@pytest.mark.rows(*INT_TO_FLOAT)
@pytest.mark.parametrize("name", INT_TO_FLOAT)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_integer_to_float_matches_the_reference(name: str, data: Any) -> None:
    source, mode = name.removeprefix("__").split("2float_")
    values = data.draw(st.lists(integers(source), min_size=1, max_size=12))
    x = np.array(values, dtype=DTYPES[source])
    got = getattr(simt, name)(x)
    assert got.dtype == np.float32
    want = [ref.round_f32(Fraction(v), mode) for v in values]
    assert got.tolist() == want, (name, values)


@pytest.mark.rows(*FLOAT_TO_FLOAT)
@pytest.mark.parametrize("name", FLOAT_TO_FLOAT)
@settings(max_examples=30, deadline=None)
@given(st.lists(float_bits, min_size=1, max_size=12))
def test_float_to_integral_float_matches_the_reference(name: str, bits: list[int]) -> None:
    mode = name.rpartition("_")[2]
    x = floats_of(bits)
    got = getattr(simt, name)(x)
    for g, v in zip(got, x, strict=True):
        want = ref.round_integral(float(v), mode)
        assert (math.isnan(g) and math.isnan(want)) or struct.pack("<f", g) == struct.pack(
            "<f", want
        ), (name, float(v), float(g), want)


@pytest.mark.rows(*BIT_CASTS)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=12))
def test_bit_casts_keep_the_bits(bits: list[int]) -> None:
    x = floats_of(bits)
    assert simt.__float_as_uint(x).tolist() == bits
    assert simt.__float_as_int(x).tolist() == [b - 2**32 if b >= 2**31 else b for b in bits]
    words = np.array(bits, dtype=np.uint32)
    back = simt.__uint_as_float(words)
    assert back.view(np.uint32).tolist() == bits
    assert simt.__int_as_float(words.view(np.int32)).view(np.uint32).tolist() == bits


DOCUMENTED = [
    # (call, argument, result) from the special-value tables of the conversion pages
    ("__float2int_rn", 0.5, 0), ("__float2int_rn", 1.5, 2), ("__float2int_rn", -1.5, -2),
    ("__float2int_rn", math.inf, 2**31 - 1), ("__float2int_rn", -math.inf, -(2**31)),
    ("__float2int_rn", math.nan, 0), ("__float2int_rn", ref.FLT_MAX, 2**31 - 1),
    ("__float2ull_rd", math.inf, 2**64 - 1), ("__float2ull_rd", -math.inf, 0),
    ("__float2ull_rd", math.nan, 0),
    ("__int2float_rz", 2**31 - 1, 2147483520.0), ("__int2float_rz", -(2**31), -(2.0**31)),
    ("__int2float_rz", 16777217, 2.0**24), ("__int2float_rz", -16777217, -(2.0**24)),
    ("__int2float_rz", 33554433, 33554432.0), ("__int2float_rz", -33554433, -33554432.0),
    ("__float2float_rn", ref.FLT_MAX, ref.FLT_MAX), ("__float2float_rn", 1e-45, 0.0),
    ("__float2float_rn", 0.5, 0.0), ("__float2float_rn", 1.5, 2.0), ("__float2float_rn", -1.5, -2.0),
]  # fmt: skip


@pytest.mark.parametrize(("name", "argument", "want"), DOCUMENTED)
def test_documented_special_values(name: str, argument: float, want: float) -> None:
    got = getattr(simt, name)(argument)
    assert np.ndim(got) == 0
    assert (math.isnan(got) and math.isnan(want)) or got == want


def test_integer_arguments_follow_the_c_parameter_rules() -> None:
    assert float(simt.__uint2float_rn(np.int32(-1))) == 2.0**32  # same width: reinterpreted
    assert float(simt.__ll2float_rn(np.int8(-3))) == -3.0  # narrower: widened by value
    with pytest.raises(AscregTypeError, match="__int2float_rn"):
        simt.__int2float_rn(np.int64(1))  # wider than the parameter
    with pytest.raises(AscregTypeError, match="integer"):
        simt.__int2float_rn(1.5)
    # an integer argument to a float parameter converts as in C (round to nearest even)
    assert simt.__float2int_rn(np.array([2**24 + 1], dtype=np.int32)).tolist() == [2**24]
    with pytest.raises(AscregTypeError, match="float"):
        simt.__float2int_rn("1")

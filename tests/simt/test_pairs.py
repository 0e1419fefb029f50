"""``half2`` / ``bfloat16x2_t`` functions against the exact per-component references
(``reference.pairs``), their result forms, argument rules, and use inside SIMT kernels."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, half, uint32_t
from ascreg._spec.simt import PAIR_MATH, pair_compare_names
from ascreg.core.pairs import BF16, MATH, round_to
from ascreg.errors import AscregTypeError
from ascreg.simt import Lanes, bfloat16x2_t, dim3, half2, run_simt_kernel, threadIdx
from reference.pairs import (
    ref_add,
    ref_compare,
    ref_div,
    ref_fma,
    ref_fma_relu,
    ref_max,
    ref_min,
    ref_mul,
    ref_sub,
    round_exact,
)

ELEMENTS = {
    "half": (half2, np.float16, np.uint16),
    "bfloat16": (bfloat16x2_t, ml_dtypes.bfloat16, np.uint16),
}
SPECIAL_HALF = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0x3BFF, 0x3C01, 0x7BFF,
                0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3555, 0x1400]  # fmt: skip
SPECIAL_BF16 = [0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x3F80, 0x3F7F, 0x3F81, 0x7F7F, 0xFF7F,
                0x7F80, 0xFF80, 0x7FC0, 0x3EAB, 0x2000]  # fmt: skip
SPECIALS = {"half": SPECIAL_HALF, "bfloat16": SPECIAL_BF16}


def element_bits(fmt: str) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(SPECIALS[fmt]), st.integers(0, 0xFFFF))


def pairs_of(fmt: str, bits: list[int]) -> Any:
    cls, dtype, _ = ELEMENTS[fmt]
    comps = np.array(bits, dtype=np.uint16).view(dtype).reshape(-1, 2)
    return cls.from_components(comps)


def same(got: Any, want: float) -> bool:
    got = float(got)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def components(value: Any) -> list[float]:
    with np.errstate(invalid="ignore"):
        return [float(v) for v in value.components().astype(np.float64).reshape(-1)]


BINARY: dict[str, Callable[..., float]] = {
    "__haddx2": ref_add, "__hsubx2": ref_sub, "__hmulx2": ref_mul, "__hdivx2": ref_div,
}  # fmt: skip
TERNARY: dict[str, Callable[..., float]] = {"__hfmax2": ref_fma, "__hfmax2_relu": ref_fma_relu}


@pytest.mark.rows(*BINARY)
@pytest.mark.parametrize("fmt", ["half", "bfloat16"])
@pytest.mark.parametrize("name", list(BINARY))
@settings(max_examples=60)
@given(data=st.data())
def test_binary_arithmetic_matches_reference(name: str, fmt: str, data: st.DataObject) -> None:
    bits = data.draw(
        st.lists(element_bits(fmt), min_size=4, max_size=16).filter(lambda b: len(b) % 4 == 0)
    )
    x, y = pairs_of(fmt, bits[: len(bits) // 2]), pairs_of(fmt, bits[len(bits) // 2 :])
    got = getattr(simt, name)(x, y)
    assert type(got) is type(x)
    for a, b, g in zip(components(x), components(y), components(got), strict=True):
        assert same(g, BINARY[name](a, b, fmt)), (name, a, b, g)


@pytest.mark.rows(*TERNARY)
@pytest.mark.parametrize("fmt", ["half", "bfloat16"])
@pytest.mark.parametrize("name", list(TERNARY))
@settings(max_examples=60)
@given(data=st.data())
def test_fused_multiply_add_rounds_once(name: str, fmt: str, data: st.DataObject) -> None:
    bits = data.draw(st.lists(element_bits(fmt), min_size=6, max_size=6))
    x, y, z = (pairs_of(fmt, bits[i : i + 2]) for i in (0, 2, 4))
    got = getattr(simt, name)(x, y, z)
    for a, b, c, g in zip(
        components(x), components(y), components(z), components(got), strict=True
    ):
        assert same(g, TERNARY[name](a, b, c, fmt)), (name, a, b, c, g)


@pytest.mark.rows("__hcmadd")
@pytest.mark.parametrize("fmt", ["half", "bfloat16"])
@settings(max_examples=60)
@given(data=st.data())
def test_complex_multiply_add_is_four_fused_steps(fmt: str, data: st.DataObject) -> None:
    bits = data.draw(st.lists(element_bits(fmt), min_size=6, max_size=6))
    x, y, z = (pairs_of(fmt, bits[i : i + 2]) for i in (0, 2, 4))
    (xr, xi), (yr, yi), (zr, zi) = components(x), components(y), components(z)
    real = ref_fma(-xi, yi, ref_fma(xr, yr, zr, fmt), fmt)
    imag = ref_fma(xi, yr, ref_fma(xr, yi, zi, fmt), fmt)
    got = components(simt.__hcmadd(x, y, z))
    assert same(got[0], real) and same(got[1], imag), (x, y, z, got)


@pytest.mark.rows(
    "__hmaxx2", "__hmaxx2_nan", "__hminx2", "__hminx2_nan", "__habsx2", "__hnegx2", "__isnanx2"
)
@pytest.mark.parametrize("fmt", ["half", "bfloat16"])
@settings(max_examples=60)
@given(data=st.data())
def test_selection_and_sign_functions(fmt: str, data: st.DataObject) -> None:
    bits = data.draw(st.lists(element_bits(fmt), min_size=4, max_size=4))
    x, y = pairs_of(fmt, bits[:2]), pairs_of(fmt, bits[2:])
    refs = {
        "__hmaxx2": ref_max,
        "__hmaxx2_nan": ref_max,
        "__hminx2": ref_min,
        "__hminx2_nan": ref_min,
    }
    for name, ref in refs.items():
        for a, b, g in zip(
            components(x), components(y), components(getattr(simt, name)(x, y)), strict=True
        ):
            assert same(g, ref(a, b)), (name, a, b, g)
    for a, g, n, i in zip(components(x), components(simt.__habsx2(x)), components(simt.__hnegx2(x)),
                          components(simt.__isnanx2(x)), strict=True):  # fmt: skip
        assert math.copysign(1, g) > 0 and (math.isnan(a) or g == abs(a))
        assert math.copysign(1, n) != math.copysign(1, a) and (math.isnan(a) or n == -a)
        assert i == (1.0 if math.isnan(a) else 0.0)


COMPARES = pair_compare_names()


@pytest.mark.rows(*COMPARES)
@pytest.mark.parametrize("fmt", ["half", "bfloat16"])
@settings(max_examples=40)
@given(data=st.data())
def test_comparisons_in_their_three_result_forms(fmt: str, data: st.DataObject) -> None:
    bits = data.draw(st.lists(element_bits(fmt), min_size=4, max_size=4))
    x, y = pairs_of(fmt, bits[:2]), pairs_of(fmt, bits[2:])
    xs, ys = components(x), components(y)
    for name, (op, unordered, kind) in COMPARES.items():
        flags = [ref_compare(op, a, b, unordered) for a, b in zip(xs, ys, strict=True)]
        got = getattr(simt, name)(x, y)
        if kind == "pair":
            assert type(got) is type(x) and components(got) == [float(f) for f in flags], name
        elif kind == "pair_bool":
            assert isinstance(got, Lanes) and bool(got[0]) == all(flags), name
        else:
            assert (
                got.dtype == np.uint32 and int(got[0]) == 0xFFFF * flags[0] | 0xFFFF0000 * flags[1]
            )


def math_reference(function: str, v: float, fmt: str) -> float:
    """The float64 value of Python's math, rounded exactly once (the documented method)."""
    functions = {"exp10": lambda t: 10.0**t, "rsqrt": lambda t: 1 / math.sqrt(t), "rcp": lambda t: 1 / t,
                 "rint": lambda t: float(round(t)), "log": math.log, "log2": math.log2, "log10": math.log10}  # fmt: skip
    try:
        value = float((functions.get(function) or getattr(math, function))(v))
        if function in ("rint", "floor", "ceil", "trunc"):
            value = math.copysign(value, v)  # IEEE keeps the sign of a zero result
    except (ValueError, ZeroDivisionError, OverflowError):
        return float(np.asarray(getattr(simt, f"h2{function}")(half2(v, 0)).components()[0]))
    if not math.isfinite(value):
        return value
    return round_exact(Fraction(value), fmt, negative_zero=math.copysign(1, value) < 0)


@pytest.mark.rows(*(f"h2{f}" for f in PAIR_MATH))
@pytest.mark.parametrize("function", PAIR_MATH)
def test_math_functions_on_finite_values(function: str) -> None:
    values = np.linspace(0.125, 7.5, 60).astype(np.float16)
    for fmt in ("half", "bfloat16"):
        cls, dtype, _ = ELEMENTS[fmt]
        x = cls.from_components(np.stack([values, -values], axis=-1).astype(dtype))
        got = getattr(simt, f"h2{function}")(x)
        for a, g in zip(components(x), components(got), strict=True):
            if a < 0 and function in ("log", "log2", "log10", "sqrt", "rsqrt"):
                assert math.isnan(g)
                continue
            assert same(g, math_reference(function, a, fmt)), (function, fmt, a, g)


def test_every_half_input_of_the_math_functions_is_far_from_a_midpoint() -> None:
    """For every finite half the float64 result is not within 2 ulp of a half midpoint, so
    rounding it once is the correctly rounded half (the module's accuracy claim)."""
    x = np.arange(0x10000, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float64)
    x = x[np.isfinite(x)]
    for function in ("sin", "cos", "tanh", "exp", "exp2", "exp10", "log", "log2", "log10"):
        with np.errstate(all="ignore"):
            value = MATH[function](x)
        finite = np.isfinite(value) & (np.abs(value) < 65504) & (np.abs(value) >= 2.0**-14)
        v = value[finite]
        exponent = np.floor(np.log2(np.abs(v)))
        ulp16 = 2.0 ** (exponent - 10)
        offset = np.abs(v) / ulp16 - np.floor(np.abs(v) / ulp16)
        near_midpoint = np.abs(offset - 0.5) * ulp16 <= 4 * np.spacing(np.abs(v))
        exact = offset == 0.5  # exact midpoints (e.g. exp2 of integers) are values, not ties
        assert not (near_midpoint & ~exact).any(), (function, v[near_midpoint & ~exact][:3])


def test_pair_arguments_must_be_one_pair_type() -> None:
    with pytest.raises(AscregTypeError, match=r"__haddx2.*x is float .*half2 or bfloat16x2_t"):
        simt.__haddx2(1.0, half2(1, 2))
    with pytest.raises(AscregTypeError, match="must all be half2 or bfloat16x2_t of one type"):
        simt.__haddx2(half2(1, 2), bfloat16x2_t(1, 2))


def test_bfloat16_rounds_once_not_through_float32() -> None:
    """ml_dtypes narrows float64 to bfloat16 through float32 (two roundings); the core does not."""
    just_above_a_tie = np.array([1 + 2**-8 + 2**-30])
    assert float(just_above_a_tie.astype(ml_dtypes.bfloat16)[0]) == 1.0  # the double rounding
    assert float(round_to(BF16, just_above_a_tie)[0]) == 1.0078125
    assert float(round_to(BF16, np.array([1 + 2**-8]), np.array([2**-60]))[0]) == 1.0078125
    assert float(round_to(BF16, np.array([1 + 2**-8]), np.array([-(2**-60)]))[0]) == 1.0


def test_pairs_in_a_kernel_through_a_cast_pointer() -> None:
    gm = GlobalMemory()
    n = 64
    x, y, out = gm.alloc(half, n), gm.alloc(half, n), gm.alloc(half, n)
    mask = gm.alloc(uint32_t, n // 2)
    x.write(np.arange(n) / 8)
    y.write(np.full(n, 1.5))

    def kernel(x: Any, y: Any, out: Any, mask: Any) -> None:
        i = threadIdx.x
        a, b = x.cast(half2)[i], y.cast(half2)[i]
        if a.x < 2:  # noqa: SIM108 - divergent: pairs merge per lane and keep their type
            c = simt.__hmulx2(a, b)
        else:
            c = simt.__hnegx2(a)
        out.cast(half2)[i] = c
        mask[i] = simt.__hltx2_mask(a, b)

    run_simt_kernel(kernel, dim3(1), dim3(n // 2), 0, (x, y, out, mask))
    xs = (np.arange(n) / 8).astype(np.float16)
    want = np.where(
        xs.reshape(-1, 2)[:, :1] < 2, xs.reshape(-1, 2) * np.float16(1.5), -xs.reshape(-1, 2)
    )
    assert np.array_equal(out.read(n), want.reshape(-1).astype(np.float16))
    lt = xs.reshape(-1, 2) < 1.5
    assert np.array_equal(
        mask.read(n // 2), np.where(lt[:, 0], 0xFFFF, 0) | np.where(lt[:, 1], 0xFFFF0000, 0)
    )

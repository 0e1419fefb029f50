"""SIMT half / bfloat16 scalar functions against the exact per-lane references
(``reference.halfmath``), the documented special values, and the argument rules."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, bfloat16_t, half
from ascreg._dtypes import Scalar
from ascreg._spec.simt import HALF_COMPARES, HALF_CONVERSIONS, HALF_MATH
from ascreg.core import halfmath as core
from ascreg.errors import AscregTypeError
from ascreg.simt import Lanes, dim3, run_simt_kernel, threadIdx
from reference import halfmath as ref
from reference.common import boundary_bits

BF16 = np.dtype(ml_dtypes.bfloat16)
NP = {half: np.dtype(np.float16), bfloat16_t: BF16}
FORMATS = (half, bfloat16_t)


def lanes_of(dtype: type[Scalar], bits: list[int]) -> Any:
    return np.array(bits, dtype=np.uint16).view(NP[dtype])


def same(got: float, want: float) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def check(got: Any, want: list[float], *args: Any) -> None:
    for i, (g, w) in enumerate(zip(_values(got), want, strict=True)):
        assert same(g, w), (i, [_values(a)[i] for a in args], g, w)


def half_bits(dtype: type[Scalar]) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from(boundary_bits(dtype)), st.integers(0, 0xFFFF))


def columns(arity: int) -> st.SearchStrategy[tuple[type[Scalar], list[tuple[int, ...]]]]:
    return st.tuples(
        st.sampled_from(FORMATS),
        st.lists(
            st.tuples(*(st.integers(0, 0xFFFF) for _ in range(arity))), min_size=1, max_size=24
        ),
    )


@st.composite
def operands(draw: Any, arity: int) -> tuple[type[Scalar], list[Any]]:
    dtype = draw(st.sampled_from(FORMATS))
    rows = draw(
        st.lists(st.tuples(*(half_bits(dtype) for _ in range(arity))), min_size=1, max_size=24)
    )
    return dtype, [lanes_of(dtype, [r[i] for r in rows]) for i in range(arity)]


def _values(array: Any) -> list[float]:
    with np.errstate(invalid="ignore"):  # ml_dtypes warns on signalling NaNs
        return np.asarray(array).astype(np.float64).tolist()


ARITHMETIC: dict[str, Callable[..., float]] = {
    "__hsub": ref.sub, "__hmul": ref.mul, "__hdiv": ref.div, "__hfma": ref.fma,
    "__hfma_relu": ref.fma_relu, "__habs": ref.absolute, "__hneg": ref.neg,
    "__hmax": ref.maximum, "__hmin": ref.minimum,
    "__hmax_nan": lambda x, y, d: ref.maximum(x, y, d, nan_wins=True),
    "__hmin_nan": lambda x, y, d: ref.minimum(x, y, d, nan_wins=True),
    "__hadd": ref.add,
}  # fmt: skip
ARITY = {"__hfma": 3, "__hfma_relu": 3, "__habs": 1, "__hneg": 1}


@pytest.mark.rows(*(n for n in ARITHMETIC if n != "__hadd"))
@pytest.mark.parametrize("name", sorted(ARITHMETIC))
@settings(max_examples=40)
@given(data=st.data())
def test_arithmetic_matches_exact_reference(name: str, data: st.DataObject) -> None:
    dtype, args = data.draw(operands(ARITY.get(name, 2)))
    got = getattr(simt, name)(*args)
    assert got.dtype == NP[dtype]
    want = [ARITHMETIC[name](*vals, dtype) for vals in zip(*map(_values, args), strict=True)]
    check(got, want, *args)


@pytest.mark.rows(*HALF_COMPARES, "__hisnan", "__hisinf")
@settings(max_examples=60)
@given(operands(2))
def test_comparisons_and_classification(case: tuple[type[Scalar], list[Any]]) -> None:
    _dtype, (x, y) = case
    pairs = list(zip(_values(x), _values(y), strict=True))
    for name in HALF_COMPARES:
        got = getattr(simt, name)(x, y)
        assert got.dtype == np.bool_
        assert got.tolist() == [ref.compare(name.removeprefix("__h"), a, b) for a, b in pairs], name
    assert simt.__hisnan(x).tolist() == [math.isnan(a) for a, _ in pairs]
    assert simt.__hisinf(x).tolist() == [math.isinf(a) for a, _ in pairs]


@pytest.mark.rows(*("h" + n for n in HALF_MATH))
@pytest.mark.parametrize("name", HALF_MATH)
@settings(max_examples=25)
@given(operands(1))
def test_math_library_matches_reference(name: str, case: tuple[type[Scalar], list[Any]]) -> None:
    dtype, (x,) = case
    got = getattr(simt, "h" + name)(x)
    assert got.dtype == NP[dtype]
    check(got, [ref.math_function(name, v, dtype) for v in _values(x)], x)


@pytest.mark.parametrize("dtype", FORMATS, ids=["half", "bfloat16"])
@pytest.mark.parametrize(
    "name", [n for n in HALF_MATH if n not in ("floor", "ceil", "trunc", "rint")]
)
def test_float64_is_accurate_enough_for_every_input(name: str, dtype: type[Scalar]) -> None:
    """The proof behind the math library: for all 65536 inputs, the float64 value of the function
    is more than 2**-40 (relative) away from every rounding boundary (midpoint) of the format, so
    an error of a few float64 ulps in libm cannot change the rounded result."""
    x = np.array(_values(np.arange(0x10000, dtype=np.uint32).astype(np.uint16).view(NP[dtype])))
    flushing = dtype is bfloat16_t and name in core.FLUSHED_BF16
    if flushing:
        x = core.flush(x, core.FORMATS[NP[dtype]])
    with np.errstate(all="ignore"):
        v = core.MATH[name](x)
    fmt = core.FORMATS[NP[dtype]]
    finite = np.isfinite(v) & (v != 0)
    v = v[finite]
    _, exponent = np.frexp(np.abs(v))
    ulp = np.ldexp(1.0, np.maximum(exponent - 1, fmt.emin) - (fmt.digits - 1))
    m = np.abs(v) / ulp
    distance = np.abs(m - np.floor(m) - 0.5) * ulp  # to the nearest midpoint
    exact = m == np.round(m)  # exactly representable results (log2(2**k) ...) are safe
    overflowing = np.abs(v) >= 2.0 ** (fmt.emax + 1)  # above the overflow threshold (max + ulp/2)
    # 2**k is exact in float64 (a midpoint when it is half the smallest subnormal: ties to even)
    exact_power = (x[finite] == np.round(x[finite])) if name == "exp2" else np.zeros(len(v), bool)
    safe = exact | overflowing | exact_power | (distance > np.abs(v) * 2.0**-40)
    assert np.all(safe), np.asarray(x[finite])[~safe][:5]


def _conversion_reference(name: str) -> Callable[[Any], Any]:
    src, dst, mode, _sat = HALF_CONVERSIONS[name]
    if src.np_dtype == np.uint16:
        return lambda bits: float(np.uint16(bits).view(NP[dst]))
    if dst.np_dtype == np.float32:
        return lambda x: x
    if src is dst:
        return lambda x: ref.integral(x, mode)
    if dst in FORMATS:
        return lambda x: ref.to_format(x, dst, mode)  # the default CTRL state: never saturating
    info = np.iinfo(dst.np_dtype)
    return lambda x: ref.to_int(x, mode, int(info.min), int(info.max))


def _source_values(src: type[Scalar], data: st.DataObject) -> Any:
    dtype = src.np_dtype
    if src in FORMATS:
        bits = data.draw(st.lists(half_bits(src), min_size=1, max_size=24))
        return lanes_of(src, bits)
    if dtype.kind == "f":
        bits = data.draw(st.lists(st.one_of(st.integers(0, 2**32 - 1), st.sampled_from(
            [0x477FF000, 0x477FEFFF, 0x47800000, 0x3F801000, 0x33000000, 0x80000001, 0x7F800000])),
            min_size=1, max_size=24))  # fmt: skip
        return np.array(bits, dtype=np.uint32).view(np.float32)
    info = np.iinfo(dtype)
    near = st.sampled_from([2049, 2051, 65504, 65520, 65535, 257, 2**24 + 1, 2**53 + 1])
    ints = st.one_of(
        st.integers(int(info.min), int(info.max)), near.filter(lambda v: v <= info.max)
    )
    return np.array(data.draw(st.lists(ints, min_size=1, max_size=24)), dtype=dtype)


@pytest.mark.rows(*HALF_CONVERSIONS)
@pytest.mark.parametrize("name", sorted(HALF_CONVERSIONS))
@settings(max_examples=6)
@given(data=st.data())
def test_conversions_match_reference(name: str, data: st.DataObject) -> None:
    src, dst, _mode, _sat = HALF_CONVERSIONS[name]
    x = _source_values(src, data)
    got = getattr(simt, name)(x)
    assert got.dtype == dst.np_dtype
    inputs = x.tolist() if src.np_dtype.kind in "iu" else _values(x)
    want = [_conversion_reference(name)(v) for v in inputs]
    if dst.np_dtype.kind in "iu":
        assert got.tolist() == want
    else:
        check(got, want, x)


# --- documented special values ---------------------------------------------------------------


def test_documented_special_values() -> None:
    h = np.float16
    inf, nan = math.inf, math.nan
    assert float(simt.__hadd(h(inf), h(-inf))) != float(simt.__hadd(h(inf), h(-inf)))  # nan
    assert math.copysign(1, float(simt.__hadd(h(2), h(-2)))) == 1  # x + (-x) = +0
    assert float(simt.__hdiv(h(-1), h(0))) == -inf
    assert (
        float(simt.__hdiv(h(1), h(-inf))) == 0
        and math.copysign(1, float(simt.__hdiv(h(1), h(-inf)))) < 0
    )
    assert math.isnan(float(simt.__hfma(h(inf), h(0), h(1))))
    assert float(simt.__hmax(h(nan), h(3))) == 3 and math.isnan(
        float(simt.__hmax_nan(h(nan), h(3)))
    )
    assert float(simt.htanh(h(-inf))) == -1 and math.isnan(float(simt.hsin(h(inf))))
    assert float(simt.hexp10(h(-inf))) == 0 and float(simt.hlog(h(0))) == -inf
    assert float(simt.hrsqrt(h(-0.0))) == -inf and float(simt.hrcp(h(-inf))) == 0
    assert float(simt.hrint(h(65504))) == 65504
    assert int(simt.__half2int_rn(h(inf))) == 2**31 - 1 and int(simt.__half2int_rn(h(nan))) == 0
    assert int(simt.__half2uint_rz(h(-65504))) == 0 and int(simt.__half2ull_rd(h(inf))) == 2**64 - 1
    assert int(simt.__half2int_rn(h(0.5))) == 0 and int(simt.__half2int_rn(h(-0.5))) == 0
    assert float(simt.__float2half_ro(65519.0)) == 65504 and float(simt.__float2half_ro(1e6)) == inf
    assert float(simt.__float2half(1e5)) == inf and float(simt.__float2half_rz(1e5)) == 65504
    b = ml_dtypes.bfloat16
    assert float(simt.__bfloat162bfloat16_rn(np.array(2.5, b))) == 2.0
    assert float(simt.__bfloat162bfloat16_rn(np.array(2.0**-133, b))) == 0.0
    assert float(simt.__ull2bfloat16_rd(2**64 - 1)) == 1.8374686479671624e19
    assert [float(simt.__ull2bfloat16_rd(v)) for v in (257, 511, 513, 1025, 65537)] == [
        256, 510, 512, 1024, 65536,
    ]  # fmt: skip
    assert int(simt.__bfloat162int_rna(np.array(3.3895313892515355e38, b))) == 2**31 - 1
    assert float(simt.__ushort_as_half(0x7BFF)) == 65504
    assert (
        float(simt.__ushort_as_bfloat16(0x8000)) == 0
        and math.copysign(1, float(simt.__ushort_as_bfloat16(0x8000))) < 0
    )


def test_bfloat16_flushes_subnormals_where_documented() -> None:
    b = ml_dtypes.bfloat16
    tiny = np.array([1e-39, -1e-39], dtype=b)
    assert _values(simt.hrsqrt(tiny)) == [inf := math.inf, -inf]
    assert _values(simt.hrcp(tiny)) == [math.inf, -math.inf]
    assert _values(simt.__hdiv(tiny, np.array([1, 1], b))) == [0.0, -0.0]
    assert _values(simt.hsin(tiny)) == _values(tiny)  # not flushed: the page says nothing
    assert _values(simt.__hmul(tiny, np.array([1, 1], b))) == _values(tiny)


def test_sat_conversions_follow_the_default_ctrl_state() -> None:
    """``_sat`` saturates only under CTRL[60] = 0 (not settable from SIMT): default = non-sat."""
    assert float(simt.__float2half_rn_sat(np.float32(np.inf))) == math.inf
    assert math.isnan(float(simt.__float2bfloat16_rz_sat(np.float32(np.nan))))
    assert float(simt.__int2half_rn_sat(100000)) == math.inf
    # the core's saturation mode is what CTRL[60] = 0 would give
    out = core.to_float(
        np.float32([np.inf, np.nan, -1e6]), np.dtype(np.float16), "rn", saturate=True
    )
    assert out.tolist() == [65504.0, 0.0, -65504.0]


def test_round_to_odd_and_all_modes_against_reference() -> None:
    values = np.array([1 + 2**-11, 1 + 3 * 2**-12, -(1 + 2**-11), 65519.0, 65520.0, 2.0**-25,
                       3 * 2.0**-26, -(2.0**-26), 0.0, -0.0, 1e9, -1e9], dtype=np.float32)  # fmt: skip
    for mode in ("rn", "rz", "rd", "ru", "rna", "ro"):
        got = getattr(simt, f"__float2half_{mode}")(values)
        check(got, [ref.to_format(v, half, mode) for v in values.tolist()], values)


# --- arguments and kernels --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "args", "pattern"),
    [
        (simt.__hmul, (1.0, 2.0), "Python numbers alone do not choose"),
        (
            simt.__hmul,
            (np.float16(1), np.array(1, ml_dtypes.bfloat16)),
            "mixing half and bfloat16_t",
        ),
        (simt.hsin, (np.float32(1),), "parameters are half or bfloat16_t"),
        (simt.__hsub, (np.float16(1), 1e6), "outside the half range"),
        (simt.__half2float, (np.array([1.0]),), "the C parameter is a half"),
        (simt.__float2half_rn, (np.array([1.0]),), "float64"),
        (simt.__int2half_rn, (2**40,), "no overload"),
        (simt.__int2half_rn, (1.5,), "the C parameter is an integer"),
        (simt.__ushort_as_half, (70000,), "x"),
        (simt.__hadd, (np.float16(1), 1e9), "outside the half range"),
    ],
)
def test_bad_arguments(call: Any, args: Any, pattern: str) -> None:
    with pytest.raises((AscregTypeError, ValueError), match=pattern) as info:
        call(*args)
    assert call.__name__ in str(info.value) or "__hadd" in str(info.value)


def test_python_numbers_join_a_typed_argument() -> None:
    assert float(simt.__hmul(np.float16(3), 1.5)) == 4.5
    assert simt.__hmul(np.array([3], ml_dtypes.bfloat16), 0.5).dtype == BF16
    assert isinstance(simt.__heq(np.float16(1), 1), np.bool_)
    assert float(simt.__int2half_rn(np.int16(-3))) == -3  # a narrower integer widens
    assert float(simt.__uint2half_rn(np.int32(-1))) == math.inf  # same width: reinterpreted
    assert float(simt.__hadd(np.float16(1), 2)) == 3 and int(simt.__hadd(1, 2)) == 1


def test_half_functions_in_a_kernel() -> None:
    gm = GlobalMemory()
    x, out = gm.alloc(half, 8), gm.alloc(half, 8)
    x.write(np.linspace(-2, 2, 8).astype(np.float16))

    def kernel(out: Any, x: Any) -> None:
        v = x[threadIdx.x]
        out[threadIdx.x] = simt.__hfma(v, v, simt.__float2half_rn(np.float32(0.25)))

    run_simt_kernel(kernel, dim3(1), dim3(8), 0, (out, x))
    want = [ref.fma(v, v, 0.25, half) for v in _values(x.read(8))]
    check(out.read(8), want)
    lanes = np.array([1, 2], dtype=np.float16).view(Lanes)
    assert isinstance(simt.hsqrt(lanes), Lanes)

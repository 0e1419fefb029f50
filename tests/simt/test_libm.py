"""The SIMT float math library (``sinf`` ... ``sincospif``) against the per-lane references."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, float32_t, int8_t, int32_t
from ascreg._spec import SIMT_LIBM_ROWS
from ascreg.core import libm
from ascreg.errors import AscregTypeError
from ascreg.simt import dim3, run_simt_kernel, threadIdx
from ascreg.testing import assert_ulp_close
from reference import libm as ref

SPECIAL_BITS = [
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
    0x3F7FFFFF, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
    0x3F000000, 0xBF000000, 0x40000000, 0x40400000, 0x3FC00000, 0x4B000001,
]  # fmt: skip
float_bits = st.one_of(
    st.sampled_from(SPECIAL_BITS),
    st.integers(0, 2**32 - 1),
    st.floats(-100, 100, width=32).map(lambda v: int(np.float32(v).view(np.uint32))),
)
TRANSCENDENTAL = [n for n in ref.TRANSCENDENTAL if n in SIMT_LIBM_ROWS]


def floats_of(bits: list[int]) -> np.ndarray[Any, Any]:
    return np.array(bits, dtype=np.uint32).view(np.float32)


def arity(name: str) -> int:
    return len(SIMT_LIBM_ROWS[name][0])


def same(got: Any, want: Any) -> bool:
    """Bitwise equality of floats (any NaN matches any NaN); plain equality otherwise."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind == "f":
        both_nan = np.isnan(got) & np.isnan(want.astype(got.dtype))
        return bool(
            np.all(both_nan | (got.view(np.uint32) == want.astype(np.float32).view(np.uint32)))
        )
    return bool(np.array_equal(got, want))


@pytest.mark.rows(*TRANSCENDENTAL)
@pytest.mark.parametrize("name", TRANSCENDENTAL)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_transcendental_matches_the_float64_reference(name: str, data: Any) -> None:
    columns = [
        floats_of(data.draw(st.lists(float_bits, min_size=12, max_size=12)))
        for _ in range(arity(name))
    ]
    got = getattr(simt, name)(*columns)
    assert got.dtype == np.float32
    want = np.array(
        [ref.reference_f32(name, *map(float, lane)) for lane in zip(*columns, strict=True)],
        dtype=np.float32,
    )
    # The reference rounds float64 once more (a double rounding): one ulp apart at most.
    assert_ulp_close(got, want, ulp=1)


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [("expf", -80, 80), ("logf", 1e-30, 1e30), ("log10f", 1e-3, 1e3), ("sqrtf", 0, 1e6),
     ("exp2f", -100, 100), ("powf", 0.5, 4)],
)  # fmt: skip
def test_lanes_nearest_a_rounding_tie_are_exact(name: str, low: float, high: float) -> None:
    """The lanes whose float64 value is nearest a float32 midpoint round as the exact value."""
    rng = np.random.default_rng(12)
    columns = [rng.uniform(low, high, 400_000).astype(np.float32) for _ in range(arity(name))]
    with np.errstate(all="ignore"):
        approx = {
            "expf": np.exp, "logf": np.log, "log10f": np.log10, "sqrtf": np.sqrt,
            "exp2f": np.exp2, "powf": np.power,
        }[name](*(c.astype(np.float64) for c in columns))  # fmt: skip
    rounded = approx.astype(np.float32)
    other = np.nextafter(rounded, np.where(approx > rounded, np.inf, -np.inf).astype(np.float32))
    distance = np.abs(approx - (rounded.astype(np.float64) + other) / 2) / np.abs(approx)
    nearest = np.argsort(distance)[:8]
    got = getattr(simt, name)(*(c[nearest] for c in columns))
    for k, lane in enumerate(nearest):
        args = [float(c[lane]) for c in columns]
        want = ref.round_f32(ref.EXACT_DECIMAL[name](*args))
        assert same(got[k], want), (name, args, float(got[k]), want)


def test_a_tie_that_float64_hides_is_rounded_from_the_exact_value() -> None:
    # (1 + 2**-12) ** 2 = 1 + 2**-11 + 2**-24: exactly a float32 midpoint, ties to even.
    x = np.float32(1 + 2.0**-12)
    assert float(simt.powf(x, 2.0)) == ref.round_f32(Fraction(float(x)) ** 2) == 1 + 2.0**-11
    assert float(simt.fmaf(x, x, 2.0**-40)) == 1 + 2.0**-11 + 2.0**-23  # just above the tie


EXACT_ROWS: dict[str, Callable[..., Any]] = {
    "floorf": lambda x: ref.round_integral(x, "rd"),
    "ceilf": lambda x: ref.round_integral(x, "ru"),
    "truncf": lambda x: ref.round_integral(x, "rz"),
    "roundf": lambda x: ref.round_integral(x, "rna"),
    "rintf": lambda x: ref.round_integral(x, "rn"),
    "nearbyintf": lambda x: ref.round_integral(x, "rn"),
    "fabsf": abs,
    "copysignf": math.copysign,
    "nextafterf": lambda x, y: float(np.nextafter(np.float32(x), np.float32(y))),
    "fmodf": lambda x, y: math.nan if (math.isinf(x) or y == 0 or math.isnan(x) or math.isnan(y)) else math.fmod(x, y),
    "remainderf": lambda x, y: math.nan if (math.isinf(x) or y == 0 or math.isnan(x) or math.isnan(y)) else ref.remainder(x, y),
    "fminf": ref.fmin,
    "fmaxf": ref.fmax,
    "fdimf": lambda x, y: math.nan if math.isnan(x) or math.isnan(y) else ref.f32(x - y) if x > y else 0.0,
    "fmaf": ref.fma,
    "logbf": lambda x: math.nan if math.isnan(x) else -math.inf if x == 0 else math.inf if math.isinf(x) else float(ref.ilogb(x)),
    "ilogbf": ref.ilogb,
    "lrintf": lambda x: ref.to_integer(x, "rn", -(2**63), 2**63 - 1),
    "llrintf": lambda x: ref.to_integer(x, "rn", -(2**63), 2**63 - 1),
    "lroundf": lambda x: ref.to_integer(x, "rna", -(2**63), 2**63 - 1),
    "llroundf": lambda x: ref.to_integer(x, "rna", -(2**63), 2**63 - 1),
    "isnan": math.isnan,
    "isinf": math.isinf,
    "isfinite": math.isfinite,
    "signbit": lambda x: int(math.copysign(1, x) < 0),
}  # fmt: skip
"""Per-lane references of the functions whose result is exact."""


@pytest.mark.rows(*EXACT_ROWS)
@pytest.mark.parametrize("name", list(EXACT_ROWS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_exact_functions_match_the_reference(name: str, data: Any) -> None:
    columns = [
        floats_of(data.draw(st.lists(float_bits, min_size=10, max_size=10)))
        for _ in range(arity(name))
    ]
    got = getattr(simt, name)(*columns)
    for k, lane in enumerate(zip(*columns, strict=True)):
        with np.errstate(all="ignore"):  # the reference's own IEEE overflow (FLT_MAX up) is data
            want = EXACT_ROWS[name](*map(float, lane))
        assert same(got[k], want), (name, [float(v) for v in lane], got[k], want)


@pytest.mark.rows("ldexpf", "scalbnf", "scalblnf")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(float_bits, st.integers(-300, 300)), min_size=1, max_size=10))
def test_scaling_matches_the_reference(pairs: list[tuple[int, int]]) -> None:
    x = floats_of([p[0] for p in pairs])
    n = np.array([p[1] for p in pairs], dtype=np.int32)
    for name in ("ldexpf", "scalbnf", "scalblnf"):
        got = getattr(simt, name)(x, n.astype(np.int64) if name == "scalblnf" else n)
        for k, (xi, ni) in enumerate(zip(x, n, strict=True)):
            assert same(got[k], ref.ldexp(float(xi), int(ni))), (name, float(xi), int(ni))
    assert float(simt.scalblnf(1.0, 2**40)) == math.inf
    assert float(simt.scalblnf(1.0, -(2**40))) == 0.0


def _run(body: Callable[..., None], *columns: np.ndarray[Any, Any], outs: Any) -> list[Any]:
    """Run *body(i, inputs..., outputs...)* with one thread per lane; return the outputs."""
    n = len(columns[0])
    gm = GlobalMemory()
    inputs = []
    for column in columns:
        p = gm.alloc(float32_t, n)
        p.write(column)
        inputs.append(p)
    outputs = [gm.alloc(d, n) for d in outs]

    def kernel(*pointers: Any) -> None:
        body(threadIdx.x, *pointers)

    run_simt_kernel(kernel, dim3(1), dim3(n), 0, (*inputs, *outputs))
    return [p.read(n) for p in outputs]


@pytest.mark.rows("frexpf", "modff", "remquof", "sincosf", "sincospif")
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(float_bits, float_bits), min_size=1, max_size=8))
def test_functions_with_output_pointers(pairs: list[tuple[int, int]]) -> None:
    x, y = floats_of([p[0] for p in pairs]), floats_of([p[1] for p in pairs])

    def frexp_body(i: Any, x: Any, r: Any, e: Any) -> None:
        r[i] = simt.frexpf(x[i], e + i)

    def modf_body(i: Any, x: Any, r: Any, n: Any) -> None:
        r[i] = simt.modff(x[i], n + i)

    def remquo_body(i: Any, x: Any, y: Any, r: Any, q: Any) -> None:
        r[i] = simt.remquof(x[i], y[i], q + i)

    def sincos_body(i: Any, x: Any, s: Any, c: Any) -> None:
        simt.sincosf(x[i], s + i, c + i)

    def sincospi_body(i: Any, x: Any, s: Any, c: Any) -> None:
        simt.sincospif(x[i], s + i, c + i)

    mantissa, exponent = _run(frexp_body, x, outs=(float32_t, int32_t))
    fraction, integral = _run(modf_body, x, outs=(float32_t, float32_t))
    rem, quo = _run(remquo_body, x, y, outs=(float32_t, int32_t))
    sines, cosines = _run(sincos_body, x, outs=(float32_t, float32_t))
    sinpis, cospis = _run(sincospi_body, x, outs=(float32_t, float32_t))
    for k, (xi, yi) in enumerate(zip(map(float, x), map(float, y), strict=True)):
        assert same(mantissa[k], ref.frexp(xi)[0]) and exponent[k] == ref.frexp(xi)[1], xi
        assert same(fraction[k], ref.modf(xi)[0]) and same(integral[k], ref.modf(xi)[1]), xi
        bad = math.isinf(xi) or yi == 0 or math.isnan(xi) or math.isnan(yi)
        assert same(rem[k], math.nan if bad else ref.remainder(xi, yi)), (xi, yi)
        assert quo[k] == ref.remquo_bits(xi, yi), (xi, yi, quo[k])
        assert_ulp_close(sines[k : k + 1], np.float32([ref.reference_f32("sinf", xi)]))
        assert_ulp_close(cosines[k : k + 1], np.float32([ref.reference_f32("cosf", xi)]))
        assert_ulp_close(sinpis[k : k + 1], np.float32([ref.reference_f32("sinpif", xi)]))
        assert_ulp_close(cospis[k : k + 1], np.float32([ref.reference_f32("cospif", xi)]))
    assert same(sines, simt.sinf(x)) and same(cosines, simt.cosf(x))


NAN, INF = math.nan, math.inf
DOCUMENTED = [
    # (call, arguments, result) from the "返回值说明" of each function's page
    ("sinf", (INF,), NAN), ("cosf", (-INF,), NAN), ("tanf", (NAN,), NAN),
    ("powf", (0.0, -3.0), INF), ("powf", (-0.0, -3.0), -INF), ("powf", (-0.0, -2.0), INF),
    ("powf", (-0.0, 3.0), -0.0), ("powf", (-0.0, 2.0), 0.0), ("powf", (-1.0, INF), 1.0),
    ("powf", (1.0, NAN), 1.0), ("powf", (NAN, 0.0), 1.0), ("powf", (-2.0, 0.5), NAN),
    ("powf", (0.5, -INF), INF), ("powf", (2.0, -INF), 0.0), ("powf", (0.5, INF), 0.0),
    ("powf", (2.0, INF), INF), ("powf", (-INF, -3.0), -0.0), ("powf", (-INF, -2.0), 0.0),
    ("powf", (-INF, 3.0), -INF), ("powf", (-INF, 2.0), INF), ("powf", (INF, -1.0), 0.0),
    ("powf", (INF, 1.0), INF), ("powf", (NAN, 1.0), NAN), ("powf", (2.0, NAN), NAN),
    ("powf", (10.0, 39.0), INF),
    ("remainderf", (1.0, 0.0), NAN), ("remainderf", (INF, 1.0), NAN), ("remainderf", (1.5, INF), 1.5),
    ("fminf", (-0.0, 0.0), -0.0), ("fminf", (0.0, -0.0), -0.0), ("fminf", (NAN, 2.0), 2.0),
    ("fminf", (2.0, NAN), 2.0), ("fminf", (NAN, NAN), NAN), ("fminf", (-INF, NAN), -INF),
    ("fminf", (INF, 3.0), 3.0),
    ("logbf", (INF,), INF), ("logbf", (-INF,), INF), ("logbf", (0.0,), -INF),
    ("ilogbf", (0.0,), -(2**31)), ("ilogbf", (-INF,), 2**31 - 1), ("ilogbf", (NAN,), -(2**31)),
    ("lrintf", (0.5,), 0), ("lrintf", (1.5,), 2), ("lrintf", (NAN,), 0), ("lroundf", (NAN,), 0),
    ("floorf", (-INF,), -INF), ("ceilf", (NAN,), NAN),
    ("sqrtf", (-0.0,), -0.0), ("sqrtf", (-1.0,), NAN), ("rsqrtf", (0.0,), INF),
    ("logf", (0.0,), -INF), ("logf", (-1.0,), NAN), ("log1pf", (-1.0,), -INF),
    ("expf", (-INF,), 0.0), ("expm1f", (-INF,), -1.0), ("tanhf", (-INF,), -1.0),
    ("atanhf", (1.0,), INF), ("acoshf", (0.5,), NAN), ("asinf", (1.5,), NAN),
    ("hypotf", (INF, NAN), INF), ("norm3df", (NAN, -INF, 1.0), INF),
    ("sinpif", (-2.0,), -0.0), ("cospif", (2.5,), 0.0), ("tanpif", (0.5,), INF),
    ("atan2f", (0.0, -0.0), math.pi), ("atan2f", (-0.0, 1.0), -0.0),
    ("erff", (0.0,), 0.0), ("erff", (INF,), 1.0), ("erff", (-INF,), -1.0), ("erff", (NAN,), NAN),
    ("erfcf", (INF,), 0.0), ("erfcf", (-INF,), 2.0), ("erfcf", (NAN,), NAN),
    ("erfcxf", (0.0,), 1.0), ("erfcxf", (-INF,), INF), ("erfcxf", (INF,), 0.0),
    ("erfcxf", (NAN,), NAN), ("normcdff", (-INF,), 0.0), ("normcdff", (INF,), 1.0),
    ("normcdff", (NAN,), NAN), ("erfinvf", (0.0,), 0.0), ("erfinvf", (1.0,), INF),
    ("erfinvf", (-1.0,), -INF), ("erfinvf", (1.5,), NAN), ("erfinvf", (NAN,), NAN),
    ("erfcinvf", (0.0,), INF), ("erfcinvf", (2.0,), -INF), ("erfcinvf", (-0.5,), NAN),
    ("erfcinvf", (NAN,), NAN), ("normcdfinvf", (0.0,), -INF), ("normcdfinvf", (1.0,), INF),
    ("normcdfinvf", (1.5,), NAN), ("normcdfinvf", (NAN,), NAN),
    ("tgammaf", (0.0,), INF), ("tgammaf", (-0.0,), -INF), ("tgammaf", (INF,), INF),
    ("tgammaf", (-INF,), NAN), ("tgammaf", (NAN,), NAN), ("tgammaf", (40.0,), INF),
    ("tgammaf", (-3.0,), NAN), ("tgammaf", (5.0,), 24.0), ("lgammaf", (0.0,), INF),
    ("lgammaf", (INF,), INF), ("lgammaf", (-INF,), INF), ("lgammaf", (NAN,), NAN),
    ("lgammaf", (-2.0,), INF), ("lgammaf", (1.0,), 0.0), ("lgammaf", (2.0,), 0.0),
    ("cyl_bessel_i0f", (0.0,), 1.0), ("cyl_bessel_i0f", (INF,), INF), ("cyl_bessel_i0f", (-INF,), INF),
    ("cyl_bessel_i0f", (NAN,), NAN), ("cyl_bessel_i0f", (100.0,), INF), ("cyl_bessel_i1f", (0.0,), 0.0),
    ("cyl_bessel_i1f", (INF,), INF), ("cyl_bessel_i1f", (-INF,), -INF), ("cyl_bessel_i1f", (NAN,), NAN),
    ("cyl_bessel_i1f", (-100.0,), -INF),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args", "want"), DOCUMENTED)
def test_documented_special_values(name: str, args: tuple[float, ...], want: float) -> None:
    got = getattr(simt, name)(*args)
    assert np.ndim(got) == 0
    if isinstance(want, float) and math.isfinite(want) and want not in (0.0,):
        assert same(got, np.float32(want)), (name, args, got, want)
    else:
        assert same(got, want), (name, args, got, want)


def test_lanes_and_scalars() -> None:
    lanes = np.array([0.5, 2.0], dtype=np.float32).view(simt.Lanes)
    assert isinstance(simt.sinf(lanes), simt.Lanes)
    assert isinstance(simt.ldexpf(lanes, 2), simt.Lanes)
    assert isinstance(simt.expf(1), np.float32)
    assert isinstance(simt.ilogbf(8.0), np.int32)
    assert isinstance(simt.llroundf(8.5), np.int64)
    assert isinstance(simt.isnan(8.5), np.bool_)
    assert simt.powf(np.float16(2), 3).dtype == np.float32  # half widens exactly
    assert simt.sinf(np.array([0], dtype=np.int32)).tolist() == [0.0]  # an integer converts


@pytest.mark.parametrize(
    ("call", "args", "pattern"),
    [
        (simt.sinf, (np.array([1], dtype=np.float64),), "cast float64 arrays"),
        (simt.powf, (np.array([1.0]), 2.0), "float64"),
        (simt.ldexpf, (1.0, 1.5), "the C parameter is an integer"),
        (simt.ldexpf, (1.0, 2**40), "int"),
        (simt.ldexpf, (1.0, np.int64(3)), "int64"),
        (simt.expf, (1e39,), "outside the float range"),
    ],
)
def test_bad_arguments(call: Any, args: Any, pattern: str) -> None:
    with pytest.raises(AscregTypeError, match=pattern) as info:
        call(*args)
    assert call.__name__ in str(info.value)


def test_an_output_pointer_of_the_wrong_type() -> None:
    gm = GlobalMemory()
    with pytest.raises(AscregTypeError, match="int8_t is not supported"):
        simt.frexpf(1.0, gm.alloc(int8_t, 1))


def test_every_library_function_is_a_row_with_a_docstring() -> None:
    for name in SIMT_LIBM_ROWS:
        function = getattr(simt, name)
        assert function.__name__ == name
        assert "Examples" in (function.__doc__ or ""), name
        assert "ulp" in function.__doc__ or "Exact" in function.__doc__, name


@pytest.mark.rows("normf", "rnormf")
@settings(max_examples=40, deadline=None)
@given(
    st.lists(float_bits, min_size=8, max_size=8),
    st.lists(st.tuples(st.integers(-1, 5), st.integers(0, 3)), min_size=1, max_size=6),
)
def test_array_norms_per_thread(bits: list[int], lanes: list[tuple[int, int]]) -> None:
    values = floats_of(bits)
    gm = GlobalMemory()
    a, out, rout = gm.alloc(float32_t, 8), gm.alloc(float32_t, 6), gm.alloc(float32_t, 6)
    a.write(values)
    counts = np.array([n for n, _ in lanes], dtype=np.int32).view(simt.Lanes)
    starts = np.array([s for _, s in lanes], dtype=np.int32).view(simt.Lanes)

    def kernel(out: Any, rout: Any, a: Any) -> None:
        i = threadIdx.x
        out[i] = simt.normf(counts[i], a + starts[i])
        rout[i] = simt.rnormf(counts[i], a + starts[i])

    run_simt_kernel(kernel, dim3(1), dim3(len(lanes)), 0, (out, rout, a))
    for k, (n, start) in enumerate(lanes):
        tail = [float(v) for v in values[start:]]
        assert_ulp_close(out.read(6)[k : k + 1], np.float32([ref.norm(tail, n)]))
        assert_ulp_close(rout.read(6)[k : k + 1], np.float32([ref.norm(tail, n, reciprocal=True)]))
    if lanes[0] == (2, 0):  # a plain pointer and n outside a kernel: the same value
        assert same(simt.normf(2, a), out.read(6)[0])


def test_lgamma_near_its_negative_zeros_is_recomputed_exactly() -> None:
    """Where |tgamma(x)| is near 1 for x < 0 the float64 logarithm cancels: those lanes are
    recomputed in decimal (checked against an independent value of ``math.lgamma`` nearby)."""
    from decimal import Decimal

    from ascreg.core import exact

    x = np.float32([-2.4570, -2.7475, -3.1435, -3.9552, -4.0391])
    got = simt.lgammaf(x)
    with exact.context():
        want = [exact.to_float32(exact.lgamma(Decimal(float(v)))) for v in x]
    assert same(got, np.array(want, np.float32))
    assert_ulp_close(got, np.float32([math.lgamma(float(v)) for v in x]), ulp=64)


def test_lgammaf_of_large_negative_numbers_is_finite_and_close() -> None:
    # gamma(x) itself underflows or loses digits far left of 0: lgamma reflects in logarithms
    x = np.float32([-142.43239, -30.25, -35.5, -100.1, -170.6, -200.3, -1000000.5, -4e6 - 0.5])
    want = np.float32([math.lgamma(float(v)) for v in x])
    assert_ulp_close(simt.lgammaf(x), want, ulp=1)


def test_fmin_fmax_ignore_a_signalling_nan() -> None:
    # numpy's SIMD fmin/fmax return NaN for a signalling NaN operand on some machines
    snan = np.array([0x7F800001], dtype=np.uint32).view(np.float32)
    zero, two = np.zeros(1, np.float32), np.full(1, 2.0, np.float32)
    assert libm.fmin(zero, snan)[0] == 0 and libm.fmin(snan, two)[0] == 2
    assert libm.fmax(snan, zero)[0] == 0 and libm.fmax(two, snan)[0] == 2
    assert np.isnan(libm.fmin(snan, snan)[0])

"""The fast correctly rounded math (``ascreg.core.elementary``, ``ascreg.core.rounding``)
against its exact path, on special values, subnormals and inputs dense near rounding midpoints.

The fast path rounds numpy's float64 value once and proves each lane with the interval test;
the exact path (:func:`ascreg.core.elementary.exact_lane`) evaluates every lane in decimal. They
must agree bit for bit (NaN payloads aside), and the lanes the interval test cannot decide must
be the ones sent to the exact path.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import float32_t, half
from ascreg.core import elementary, fpenv, halfmath, rounding
from reference.elementary import div_lane

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
UNSIGNED = {F32: np.dtype(np.uint32), F16: np.dtype(np.uint16)}
FUNCTIONS = ("exp", "ln", "log2", "log10", "sqrt")
FAST = {"exp": np.exp, "ln": np.log, "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt}
RANGES = {"exp": (-110.0, 90.0), "ln": (0.0, 2.0**127), "log2": (0.0, 2.0**127), "log10": (0.0, 2.0**127),
          "sqrt": (0.0, 2.0**127)}  # fmt: skip

SPECIAL32 = [
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
    0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
    0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x41200000, 0x42C80000, 0x447A0000,
    0xC2AEAC50, 0xC2AEAC4F, 0xC2AEAC51, 0x42B17218, 0x42B17217, 0xC2CFF1B5, 0xC2CFF1B4,
]  # fmt: skip
"""Zeros, subnormals, the smallest normal, 1 and its neighbours, the largest finite, infinities,
NaNs (quiet and signalling), powers of ten, and exp's thresholds: where results become
subnormal (about -87.34), zero (about -103.97) and infinite (about 88.72)."""
SPECIAL16 = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3BFF, 0x3C01, 0x7BFF,
    0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x4900, 0xC8DA, 0xC8D6, 0x498C, 0xCC55, 0xCC56,
]  # fmt: skip


def midpoint_distance(approx: Any, dtype: np.dtype[Any]) -> Any:
    """Relative distance of each float64 value from the nearest rounding midpoint of *dtype*."""
    with np.errstate(all="ignore"):
        rounded = approx.astype(dtype)
        toward = np.where(approx > rounded, np.inf, -np.inf).astype(dtype)
        other = np.nextafter(rounded, toward)
        midpoint = (rounded.astype(np.float64) + other.astype(np.float64)) / 2
        return np.abs(approx - midpoint) / np.abs(approx)


def near_midpoints(name: str, dtype: np.dtype[Any], count: int, seed: int) -> list[int]:
    """Bit patterns of inputs whose float64 result lies nearest a midpoint of *dtype*."""
    low, high = RANGES[name] if dtype == F32 else (-17.0, 12.0) if name == "exp" else (0, 6e4)
    rng = np.random.default_rng(seed)
    size = 1 << 20
    if name == "exp":
        values = rng.uniform(low, high, size).astype(dtype)
    else:  # every binade alike: random bit patterns of positive finite values
        top = 0x7F7FFFFF if dtype == F32 else 0x7BFF
        values = rng.integers(1, top, size).astype(UNSIGNED[dtype]).view(dtype)
    with np.errstate(all="ignore"):
        approx = FAST[name](values.astype(np.float64))
    distance = midpoint_distance(approx, dtype)
    distance[~np.isfinite(distance) | (approx == 0)] = np.inf
    nearest = np.argsort(distance)[:count]
    return [int(v) for v in values[nearest].view(UNSIGNED[dtype])]


HARD = {  # float32 inputs whose float64 value lies within 2**-44 of a midpoint
    "exp": [0xC2AC0052, 0x41F77C01, 0x41BB293E],
    "ln": [0x7146B89F, 0x42138ACE, 0x5E02B656],
    "log2": [0x09114A90, 0x0A114A90, 0x6FEB8090],
    "log10": [0x347B62E5, 0x20EC26F7, 0x03D315E2],
}
NEAR = {
    (name, dtype): near_midpoints(name, dtype, 48, seed) + (HARD[name] if dtype == F32 else [])
    for seed, name in enumerate(FUNCTIONS)
    for dtype in (F32, F16)
    if name != "sqrt"
}
"""Per function and format, inputs dense near rounding midpoints: the nearest of 2**20 random
ones, and known ones (sqrt needs none: its float64 value is correctly rounded, and no float32
square root lies on a midpoint)."""


def lanes_of(bits: list[int], dtype: np.dtype[Any]) -> Any:
    return np.array(bits, dtype=UNSIGNED[dtype]).view(dtype)


def assert_same(got: Any, want: Any) -> None:
    """Bit-equal lanes; any NaN matches any NaN."""
    unsigned = UNSIGNED[got.dtype]
    nan = np.isnan(got) & np.isnan(want)
    differ = ~nan & (got.view(unsigned) != want.view(unsigned))
    assert not differ.any(), (got[differ], want[differ], np.flatnonzero(differ))


def lane_bits(name: str, dtype: np.dtype[Any]) -> st.SearchStrategy[int]:
    """Special values, subnormals, inputs near midpoints, any pattern, the function's range."""
    width = 32 if dtype == F32 else 16
    low, high = RANGES[name] if dtype == F32 else (-20.0, 12.0) if name == "exp" else (0, 6e4)
    special = SPECIAL32 if dtype == F32 else SPECIAL16
    subnormal = st.integers(1, (1 << (23 if dtype == F32 else 10)) - 1)
    in_range = st.floats(low, high, width=width, allow_nan=False)
    strategies = [
        st.sampled_from(special),
        subnormal.map(lambda v: v | (1 << (width - 1)) if v & 1 else v),
        st.integers(0, (1 << width) - 1),
        in_range.map(lambda v: int(np.array(v, dtype).view(UNSIGNED[dtype]))),
    ]
    if (name, dtype) in NEAR:
        strategies.append(st.sampled_from(NEAR[name, dtype]))
    return st.one_of(*strategies)


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=30)
@given(data=st.data())
def test_fast_path_matches_exact_path(name: str, dtype: np.dtype[Any], data: Any) -> None:
    bits = data.draw(st.lists(lane_bits(name, dtype), min_size=1, max_size=64))
    ftz = data.draw(st.booleans())
    values = lanes_of(bits, dtype)
    got = elementary.elementary(name, values, ftz=ftz)
    assert got.dtype == dtype and got.shape == values.shape
    assert_same(got, elementary.exact_lanes(name, values, ftz=ftz))


@pytest.mark.parametrize("name", ["exp", "ln", "log2", "log10"])
def test_every_lane_near_a_midpoint_matches_the_exact_path(name: str) -> None:
    for ftz in (True, False):
        values = lanes_of(NEAR[name, F32], F32)
        assert_same(elementary.elementary(name, values, ftz=ftz), elementary.exact_lanes(name, values, ftz=ftz))  # fmt: skip


@pytest.mark.parametrize("name", ["exp", "ln", "log2", "log10"])
def test_the_boundary_test_routes_near_midpoint_lanes_to_the_exact_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lane within the error bound of a midpoint is computed exactly; a lane far from every
    midpoint is not (the exact path runs only where the float64 value cannot decide)."""
    values = lanes_of(NEAR[name, F32], F32)
    approx = FAST[name](values.astype(np.float64))
    distance = midpoint_distance(approx, F32)
    routed: list[float] = []
    exact = elementary._correctly_rounded

    def spy(fn: str, x: float, dtype: np.dtype[Any]) -> float:
        routed.append(x)
        return exact(fn, x, dtype)

    monkeypatch.setattr(elementary, "_correctly_rounded", spy)
    elementary.elementary(name, values, ftz=False)
    bound = rounding.RELATIVE_BOUND
    must = {float(v) for v, d in zip(values, distance, strict=True) if d <= bound}
    never = {float(v) for v, d in zip(values, distance, strict=True) if d > 3 * bound}
    assert must, "the sample has no lane within the bound of a midpoint"
    assert must <= set(routed)
    assert not never & set(routed)


@fpenv.quietly
def test_round_decided_on_constructed_midpoints() -> None:
    """Values at, just off and far from midpoints (normal and subnormal float32, half)."""
    bound = rounding.RELATIVE_BOUND
    for dtype, midpoints in (
        (F32, [1 + 2.0**-24, 1.5 + 2.0**-24, 3 * 2.0**-150, 2.0**127 * (2 - 2.0**-24)]),
        (F16, [1 + 2.0**-11, 3 * 2.0**-25, 65504 + 16.0]),
    ):
        for m in midpoints:
            near = np.array([m, m * (1 + bound / 2), m * (1 - bound / 2)])
            far = np.array([m * (1 + 8 * bound), m * (1 - 8 * bound)])
            assert rounding.round_decided(near, dtype)[1].tolist() == [0, 1, 2], (dtype, m)
            result, undecided = rounding.round_decided(far, dtype)
            assert undecided is None, (dtype, m)
            assert result.tolist() == far.astype(dtype).tolist()
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, 1e-300])
    result, undecided = rounding.round_decided(special, F32)
    assert undecided is None
    assert result.view(np.uint32).tolist() == special.astype(F32).view(np.uint32).tolist()


@pytest.mark.parametrize("ftz", [True, False])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_half_tables_are_the_proven_path(name: str, ftz: bool) -> None:
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(F16)
    function = elementary._FUNCTIONS[name]
    assert_same(elementary.elementary(name, every, ftz=ftz), function.evaluate(every, ftz))


@pytest.mark.parametrize("ftz", [True, False])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_half_grid_matches_exact_path(name: str, ftz: bool) -> None:
    """Every 61st half pattern and the special ones, against the exact path."""
    bits = [*range(0, 1 << 16, 61), *SPECIAL16]
    values = lanes_of(bits, F16)
    assert_same(elementary.elementary(name, values, ftz=ftz), elementary.exact_lanes(name, values, ftz=ftz))  # fmt: skip


def div_bits(dtype: np.dtype[Any]) -> st.SearchStrategy[int]:
    width = 32 if dtype == F32 else 16
    special = SPECIAL32 if dtype == F32 else SPECIAL16
    return st.one_of(
        st.sampled_from(special),
        st.integers(0, (1 << width) - 1),
        st.integers(1, (1 << (23 if dtype == F32 else 10)) - 1),
    )


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@settings(max_examples=40)
@given(data=st.data())
def test_division_matches_the_exact_quotient(dtype: np.dtype[Any], data: Any) -> None:
    pairs = data.draw(
        st.lists(st.tuples(div_bits(dtype), div_bits(dtype)), min_size=1, max_size=32)
    )
    ftz = data.draw(st.booleans())
    a, b = (lanes_of([p[i] for p in pairs], dtype) for i in (0, 1))
    got = elementary.divide(a, b, ftz=ftz)
    scalar = float32_t if dtype == F32 else half
    want = lanes_of([div_lane(x, y, scalar, ftz) for x, y in pairs], dtype)
    assert_same(got, want)


def test_division_at_the_flush_thresholds() -> None:
    """Quotients on both sides of the midpoint under the smallest normal (FTZ's threshold)."""
    for dtype, scalar, tiny, step in ((F32, float32_t, 2.0**-126, 2.0**-150), (F16, half, 2.0**-14, 2.0**-25)):  # fmt: skip
        midpoint = tiny - step
        shifts = np.array([-(2.0**-9), -(2.0**-22), -(2.0**-25), 0, 2.0**-25, 2.0**-22, 2.0**-9])
        for divisor in (3.0, 1.5, 7.0):
            a = (divisor * midpoint * (1 + shifts)).astype(dtype)
            b = np.full(a.shape, divisor, dtype)
            unsigned = UNSIGNED[dtype]
            for ftz in (True, False):
                want = [div_lane(int(x), int(y), scalar, ftz) for x, y in zip(a.view(unsigned), b.view(unsigned), strict=True)]  # fmt: skip
                assert_same(elementary.divide(a, b, ftz=ftz), lanes_of(want, dtype))


def test_results_are_new_arrays_of_the_input_shape() -> None:
    """Registers own their lanes: a result never aliases an input or a table."""
    x = np.linspace(0.5, 4, 64, dtype=np.float32).reshape(4, 16)
    h = x.astype(np.float16)
    for values in (x, h):
        for op in elementary.UNARY_OPS.values():
            result = op(values)
            assert result.shape == values.shape and result.flags.writeable
            assert not np.shares_memory(result, values)
        assert not np.shares_memory(elementary.divide(values, values), values)


def test_simt_half_math_tables_match_the_direct_computation() -> None:
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    for fmt in halfmath.FORMATS.values():
        values = every.view(fmt.dtype)
        for name in ("exp", "tanh", "log", "rsqrt", "sin"):
            for flushing in (False, True):
                got = halfmath.math_lanes(name, values, flushing=flushing)
                want = halfmath._evaluate(name, values, fmt, flushing)
                both_nan = np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32))
                same = got.view(np.uint16) == want.view(np.uint16)
                assert np.all(both_nan | same), (name, fmt, flushing)


def test_quiet_sections_nest_and_restore_the_error_state() -> None:
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with fpenv.quiet():
            with fpenv.quiet():
                assert np.isinf(np.float32(3e38) * np.float32(10))
            assert np.isnan(np.log(np.float32(-1)))
        assert np.geterr() == before
        with pytest.raises(RuntimeWarning), np.errstate(all="warn"):
            np.log(np.float32(-1))
    assert fpenv.quietly(np.divide)(np.float32(1), np.float32(0)) == np.inf


def one_odd_lane(dtype: np.dtype[Any]) -> st.SearchStrategy[tuple[list[int], int]]:
    """Normal lanes (where the FTZ test skips the flush) and one lane anywhere among them that
    may need it: a zero, a subnormal, a special value or any pattern."""
    width = 32 if dtype == F32 else 16
    normal = st.floats(0.5, 8.0, width=width).map(lambda v: int(np.array(v, dtype).view(UNSIGNED[dtype])))  # fmt: skip
    odd = st.one_of(
        st.sampled_from(SPECIAL32 if dtype == F32 else SPECIAL16),
        st.integers(1, (1 << (23 if dtype == F32 else 10)) - 1),
        st.integers(0, (1 << width) - 1),
    )
    return st.tuples(st.lists(normal, min_size=1, max_size=16), odd)


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=20)
@given(data=st.data())
def test_one_lane_needing_a_flush_among_normal_lanes(name: str, dtype: np.dtype[Any], data: Any) -> None:  # fmt: skip
    """The flush is skipped only when no lane needs it: one odd lane among normal ones."""
    normal, odd = data.draw(one_odd_lane(dtype))
    bits = normal[:]
    bits.insert(data.draw(st.integers(0, len(bits))), odd)
    values = lanes_of(bits, dtype)
    for ftz in (True, False):
        got = elementary.elementary(name, values, ftz=ftz)
        assert_same(got, elementary.exact_lanes(name, values, ftz=ftz))


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
def test_exp_at_the_flush_test_threshold(dtype: np.dtype[Any]) -> None:
    """exp's inputs around the FTZ test's threshold (-87, -9.5) and where results turn subnormal."""
    centres = (-87.0, -87.33654, -103.97) if dtype == F32 else (-9.5, -9.7, -17.3)
    for centre in centres:  # one call each: a lane below the threshold flushes the whole call
        values = np.linspace(centre - 0.05, centre + 0.05, 41).astype(dtype)
        for ftz in (True, False):
            got = elementary._FUNCTIONS["exp"].evaluate(values, ftz)  # half: not the table
            assert_same(got, elementary.exact_lanes("exp", values, ftz=ftz))


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@settings(max_examples=30)
@given(data=st.data())
def test_division_with_one_lane_needing_a_flush(dtype: np.dtype[Any], data: Any) -> None:
    """Normal operands with normal quotients, one odd dividend or divisor, and quotients
    near the smallest normal from normal operands (the FTZ test must see each)."""
    normal, odd = data.draw(one_odd_lane(dtype))
    a, b = normal[:], normal[::-1]
    where = data.draw(st.integers(0, len(a)))
    (a if data.draw(st.booleans()) else b).insert(where, odd)
    other = b if len(a) > len(b) else a
    other.insert(where, normal[0])
    tiny = 2.0**-126 if dtype == F32 else 2.0**-14
    scale = data.draw(st.floats(0.25, 4.0))
    a.append(int(np.array(tiny * scale * 3, dtype).view(UNSIGNED[dtype])))
    b.append(int(np.array(3.0, dtype).view(UNSIGNED[dtype])))
    scalar = float32_t if dtype == F32 else half
    for ftz in (True, False):
        got = elementary.divide(lanes_of(a, dtype), lanes_of(b, dtype), ftz=ftz)
        want = [div_lane(x, y, scalar, ftz) for x, y in zip(a, b, strict=True)]
        assert_same(got, lanes_of(want, dtype))


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@pytest.mark.parametrize("ftz", [True, False])
@settings(max_examples=15)
@given(data=st.data())
def test_lanes_functions_are_the_formulas(dtype: np.dtype[Any], ftz: bool, data: Any) -> None:
    """What an op's validated form keeps (:func:`~ascreg.core.elementary.lanes_function`)."""
    a = lanes_of(data.draw(st.lists(div_bits(dtype), min_size=1, max_size=32)), dtype)
    b = lanes_of(data.draw(st.lists(div_bits(dtype), min_size=a.size, max_size=a.size)), dtype)
    for formula in set(elementary.UNARY_OPS.values()):
        assert_same(elementary.lanes_function(formula, dtype, ftz)(a), formula(a, ftz=ftz))
    divide = elementary.lanes_function(elementary.divide, dtype, ftz)
    assert_same(divide(a, b), elementary.divide(a, b, ftz=ftz))
    integers = np.dtype(np.int16)
    x, y = np.int16([7, -7, 5]), np.int16([2, 0, -1])
    assert elementary.lanes_function(elementary.divide, integers, ftz)(x, y).tolist() == [3, -1, -5]


# The bulk path: float32 lanes from BULK_FROM on, in chunks, proven by the integer test.

BULK = ("exp", "ln", "log2", "log10")
FILLER = {"exp": (-80.0, 80.0), "ln": (1e-30, 1e30), "log2": (1e-30, 1e30), "log10": (1e-30, 1e30)}
"""Per function, where random filler lanes keep a chunk on the bulk path (no flush, no
subnormal result); the drawn lanes may send their chunk to the interval test."""


def bulk_values(name: str, size: int, seed: int, lanes: list[tuple[int, int]]) -> Any:
    """*size* float32 filler lanes (log-uniform for the logarithms) with (position, bits) set."""
    rng = np.random.default_rng(seed)
    low, high = FILLER[name]
    if name == "exp":
        values = rng.uniform(low, high, size).astype(F32)
    else:
        values = np.exp(rng.uniform(np.log(low), np.log(high), size)).astype(F32)
    bits = values.view(np.uint32)
    for position, pattern in lanes:
        bits[position % size] = pattern
    return values


def bulk_near(name: str) -> list[int]:
    """The lanes of :data:`NEAR` that keep a chunk on the bulk path."""
    near = lanes_of(NEAR[name, F32], F32)
    keep = near >= elementary._FUNCTIONS[name]._fast_from
    return [int(bits) for bits in near[keep].view(np.uint32)]


def proven(name: str, values: Any, ftz: bool) -> Any:
    """The interval test's results for every lane (today's path for fewer lanes)."""
    with fpenv.quiet():
        return elementary._FUNCTIONS[name]._proven(values, ftz)


def assert_bits_equal(got: Any, want: Any) -> None:
    """Bit-equal lanes, NaN payloads included (the bulk path against the interval test)."""
    differ = got.view(np.uint32) != want.view(np.uint32)
    assert not differ.any(), (got[differ], want[differ], np.flatnonzero(differ)[:10])


@pytest.mark.parametrize("name", BULK)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_bulk_path_matches_the_exact_path_on_large_arrays(name: str, data: Any) -> None:
    """2**13 to 3 chunks of lanes, mixing random ones with special, subnormal, any-pattern
    and near-midpoint lanes (several per chunk): the drawn lanes equal the exact path, every
    lane the interval test's result (today's path, NaN payloads included)."""
    size = data.draw(st.sampled_from([elementary.BULK_FROM, elementary.CHUNK + 1, 2 * elementary.CHUNK + 13]))  # fmt: skip
    drawn = data.draw(st.lists(st.tuples(st.integers(0, size - 1), lane_bits(name, F32)), max_size=48))  # fmt: skip
    near = bulk_near(name)
    spread = [((k * 7919) % size, near[k % len(near)]) for k in range(0, size, 997)]
    lanes = [*spread, *drawn]
    values = bulk_values(name, size, data.draw(st.integers(0, 2**32 - 1)), lanes)
    ftz = data.draw(st.booleans())
    got = elementary.elementary(name, values, ftz=ftz)
    assert_bits_equal(got, proven(name, values, ftz))
    where = np.unique([position % size for position, _ in lanes])
    assert_same(got[where], elementary.exact_lanes(name, values[where], ftz=ftz))


@pytest.mark.parametrize("name", BULK)
def test_bulk_path_routes_near_midpoint_lanes_to_the_exact_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Among bulk lanes, every one within the error bound of a midpoint is settled exactly
    and none far from every midpoint is."""
    near = lanes_of(bulk_near(name), F32)
    values = np.tile(near, -(-elementary.BULK_FROM // near.size))
    undecided = rounding.float32_undecided
    tested: list[int] = []
    monkeypatch.setattr(rounding, "float32_undecided", lambda wide: tested.append(wide.size) or undecided(wide))  # fmt: skip
    distance = midpoint_distance(FAST[name](near.astype(np.float64)), F32)
    want = elementary.exact_lanes(name, near)
    routed: list[float] = []
    exact = elementary._correctly_rounded

    def spy(fn: str, x: float, dtype: np.dtype[Any]) -> float:
        routed.append(x)
        return exact(fn, x, dtype)

    monkeypatch.setattr(elementary, "_correctly_rounded", spy)
    got = elementary.elementary(name, values, ftz=True)
    assert_same(got[: near.size], want)
    bound = rounding.RELATIVE_BOUND
    must = {float(v) for v, d in zip(near, distance, strict=True) if d <= bound}
    never = {float(v) for v, d in zip(near, distance, strict=True) if d > 4 * bound}
    assert tested == [values.size], "not the bulk path"
    assert must and must <= set(routed)
    assert not never & set(routed)


@pytest.mark.parametrize("name", BULK)
@settings(max_examples=10, deadline=None)
@given(chunk=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), ftz=st.booleans())
def test_chunk_boundaries_do_not_matter(name: str, chunk: int, seed: int, ftz: bool) -> None:
    """Any chunk length gives the results of one chunk, with special and near-midpoint lanes
    on both sides of the boundaries (one flushing chunk does not change its neighbours)."""
    specials = [(k * 4099 + 5, SPECIAL32[k % len(SPECIAL32)]) for k in range(len(SPECIAL32))]
    near = [(k * 613, bits) for k, bits in enumerate(NEAR[name, F32])]
    values = bulk_values(name, 3 * 4096 + 17, seed, [*specials, *near])
    whole = proven(name, values, ftz)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(elementary, "CHUNK", chunk)
        assert_bits_equal(elementary.elementary(name, values, ftz=ftz), whole)


@pytest.mark.parametrize("bulk_from", [1, None])
@pytest.mark.parametrize("name", BULK)
def test_a_three_dimensional_input_is_its_flattened_lanes(name: str, bulk_from: int | None) -> None:
    """Shape (4, 8, 64) (bulk path forced and not) and one of 2 chunks and a half."""
    with pytest.MonkeyPatch.context() as patch:
        if bulk_from is not None:
            patch.setattr(elementary, "BULK_FROM", bulk_from)
            patch.setattr(elementary, "CHUNK", 300)
        for shape in ((4, 8, 64), (5, 8, elementary.CHUNK // 16)):
            values = bulk_values(name, int(np.prod(shape)), 3, [(11, 0x00000001), (99, 0x7FC00000)])  # fmt: skip
            cube = values.reshape(shape)
            got = elementary.elementary(name, cube, ftz=True)
            assert got.shape == shape and got.dtype == F32
            assert_bits_equal(got.reshape(-1), elementary.elementary(name, values, ftz=True))
            strided = elementary.elementary(name, cube[:, ::2], ftz=True)
            assert_bits_equal(strided, got[:, ::2])
            kept = elementary.lanes_function(elementary._FUNCTIONS[name], F32, ftz=True)
            assert_bits_equal(kept(cube), got)


def test_float32_undecided_at_the_window_edges() -> None:
    """Low 29 bits 2**28 +- the window are undecided, one ulp further out they are proven, in
    every binade of float32's normal range and at the overflow threshold."""
    window = rounding.FLOAT32_WINDOW
    assert window == 2**9  # RELATIVE_BOUND = 2**-44: b 2**53 ulps
    binades = [2.0**e for e in (-126, -20, -1, 0, 1, 40, 127)]
    offsets = [-window - 1, -window, -1, 0, 1, window, window + 1]
    for binade in binades:
        base = np.array([binade * 1.375], np.float64).view(np.int64)[0] & ~np.int64((1 << 29) - 1)  # fmt: skip
        patterns = np.array([base + (1 << 28) + k for k in offsets], np.int64)
        approx = patterns.view(np.float64)
        found = rounding.float32_undecided(approx.copy())
        assert found is not None and found.tolist() == [1, 2, 3, 4, 5], binade
        assert rounding.float32_undecided(-approx) is not None  # the sign does not matter
    overflow = np.array(
        [2.0**128 - 2.0**103, np.nextafter(2.0**128 - 2.0**103, 0), 2.0**128, 1e300]
    )
    assert rounding.float32_undecided(overflow.copy()).tolist() == [0, 1]
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -(2.0**-126)])
    assert rounding.float32_undecided(np.append(special, np.float32(np.nan))) is None
    assert rounding.float32_undecided(np.array([], np.float64)) is None


def round_fraction(value: Fraction, p: int, emin: int, emax: int) -> float:
    """Reference: round *value* to nearest even in the format (p, emin, emax), overflow to inf."""
    if value == 0:
        return 0.0
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, emin) - p + 1)
    rounded = round(magnitude / quantum) * quantum  # Fraction.__round__: ties to even
    result = float("inf") if rounded >= Fraction(2) ** (emax + 1) else float(rounded)
    return result if value > 0 else -result


@settings(max_examples=300)
@given(
    mantissa=st.integers(1, 2**60),
    denominator=st.integers(1, 2**60),
    scale=st.integers(-170, 140),
    tie=st.sampled_from([None, -1, 0, 1]),
    negative=st.booleans(),
)
def test_the_exact_paths_rounding_is_the_fraction_rounding(
    mantissa: int, denominator: int, scale: int, tie: int | None, negative: bool
) -> None:
    """Any ratio, or one at, just below or above a midpoint of float32 or half, overflow too."""
    for p, emin, emax in ((24, -126, 127), (11, -14, 15)):
        if tie is None:
            value = Fraction(mantissa, denominator) * Fraction(2) ** scale
        else:
            odd = 2 * (mantissa % (1 << p)) + 1
            value = Fraction(odd, 2) * Fraction(2) ** (scale % (emax + 40) - p - 20) + Fraction(tie, 2**300)  # fmt: skip
        value = -value if negative else value
        got = elementary._round_ratio(value.numerator, value.denominator, p, emin, emax)
        want = round_fraction(value, p, emin, emax)
        assert got == want and np.copysign(1, got) == np.copysign(1, want), (value, p)


@pytest.mark.parametrize("dtype", [F32, F16], ids=["float", "half"])
@pytest.mark.parametrize("size", [64, elementary._JOINED_UP_TO + 1])
def test_the_flush_test_finds_zeros_and_subnormals_only(dtype: Any, size: int) -> None:
    """Division's test for a flush (:func:`elementary._zero_or_subnormal`), small and large:
    every zero and subnormal pattern (either sign) is found in any operand, no normal,
    infinite or NaN one is."""
    unsigned, bits = UNSIGNED[dtype], 8 * dtype.itemsize
    fraction = 23 if dtype == F32 else 10
    smallest_normal, top = 1 << fraction, 1 << (bits - 1)
    found = [0, 1, smallest_normal - 1, smallest_normal // 2]
    missed = [smallest_normal, smallest_normal + 1, top - 1, top - smallest_normal, 1 << (bits - 2)]
    ones = np.ones(size, dtype)
    for pattern, want in [(p, True) for p in found] + [(p, False) for p in missed]:
        for sign in (0, top):
            lanes = ones.copy()
            lanes.view(unsigned)[size // 2] = pattern | sign
            for operands in ((lanes,), (ones, lanes), (ones, ones, lanes)):
                assert elementary._zero_or_subnormal(*operands) is want, (
                    hex(pattern | sign),
                    len(operands),
                )

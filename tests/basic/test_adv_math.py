"""The advanced API's element-wise math (ascreg.basic._adv_math) against the per-lane
references of tests/reference/advmath.py, on LocalTensors in a running block."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    bool_,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._dtypes import Scalar
from ascreg.basic import *
from ascreg.errors import AscregTypeError, IllegalDtypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block
from reference import advmath as ref
from reference.common import from_bits, same_lanes, to_bits
from strategies import lane_bits

INTEGERS = [int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t]
LOGICAL_SOURCES = [bool_, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float32_t, int64_t, uint64_t]  # fmt: skip


class Ub:
    """Consecutive LocalTensors in one block's UB (32-byte aligned, a gap between them)."""

    def __init__(self) -> None:
        self.at = 0

    def tensor(self, dtype: type[Scalar], count: int, bits: list[int] | None = None) -> Any:
        t = LocalTensor[dtype](TPosition.VECCALC, self.at, count)
        self.at += -(-count * dtype.size // 32) * 32 + 64
        if bits is not None:
            t.GetPhyAddr().write(from_bits(bits, dtype))
        return t


def run(call: Callable[..., Any], out_type: type[Scalar], sources: list[tuple[type[Scalar], list[int]]],
        n: int, *, tmp: bool = False) -> list[int]:  # fmt: skip
    """Launch *call*(dst, *sources[, tmp], n) in a block; return dst's first n lanes as bits."""
    with block(BlockContext()) as ctx:
        ub = Ub()
        srcs = [ub.tensor(t, n, bits) for t, bits in sources]
        dst = ub.tensor(out_type, n)
        extra = [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        call(dst, *srcs, *extra, n)
        ctx.tracker.barrier()
        return to_bits(dst.GetPhyAddr().read(n))


ROUNDING = ["Ceil", "Floor", "Trunc", "Round", "Rint"]


FEW = settings(max_examples=20)
"""These tests draw the dtype (and the op) per example: fewer test items, the same coverage."""


@pytest.mark.parametrize("name", ROUNDING)
@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]), tmp=st.booleans())
def test_rounding_matches_the_reference(name: str, dtype: Any, data: Any, tmp: bool) -> None:
    n = data.draw(st.integers(1, 160))
    bits = data.draw(lane_bits(dtype, n))
    got = run(globals()[name], dtype, [(dtype, bits)], n, tmp=tmp)
    assert same_lanes(got, [ref.rounding(name, b, dtype) for b in bits], dtype)


@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t, int64_t]))
def test_sign_matches_the_reference(dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 100))
    bits = data.draw(lane_bits(dtype, n))
    assert run(Sign, dtype, [(dtype, bits)], n) == [ref.sign(b, dtype) for b in bits]


@pytest.mark.parametrize("name", ["Log", "Log2", "Log10"])
@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]))
def test_logarithms_match_the_reference(name: str, dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 40))
    bits = data.draw(lane_bits(dtype, n))
    got = run(globals()[name], dtype, [(dtype, bits)], n)
    assert same_lanes(got, [ref.log(name, b, dtype) for b in bits], dtype)


CLASSIFY = [
    ("IsFinite", src, dst) for src in (half, bfloat16_t, float32_t) for dst in (bool_, src)
] + [
    (name, src, dst)
    for name in ("IsInf", "IsNan")
    for src in (half, float32_t)
    for dst in (bool_, src)
]


@FEW
@given(data=st.data(), case=st.sampled_from(CLASSIFY))
def test_classification_matches_the_reference(case: tuple[str, Any, Any], data: Any) -> None:
    name, src, dst = case
    n = data.draw(st.integers(1, 100))
    bits = data.draw(lane_bits(src, n))
    got = run(globals()[name], dst, [(src, bits)], n)
    assert got == [ref.as_bits(ref.classify(name, b, src), dst) for b in bits]


@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]))
def test_fma_matches_the_reference(dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 80))
    a, b, c = (data.draw(lane_bits(dtype, n)) for _ in range(3))
    got = run(Fma, dtype, [(dtype, a), (dtype, b), (dtype, c)], n)
    from reference.compound import fma_lane

    assert same_lanes(
        got, [fma_lane(x, y, z, dtype) for x, y, z in zip(a, b, c, strict=True)], dtype
    )


@pytest.mark.parametrize("name", ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"])
@FEW
@given(data=st.data(), dtype=st.sampled_from(INTEGERS))
def test_bitwise_matches_the_reference(name: str, dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 80))
    a, b = (data.draw(lane_bits(dtype, n)) for _ in range(2))
    if name == "BitwiseNot":
        want = [~x & ((1 << 8 * dtype.size) - 1) for x in a]
        assert run(BitwiseNot, dtype, [(dtype, a)], n) == want
    else:
        want = [ref.bitwise(name, x, y, dtype) for x, y in zip(a, b, strict=True)]
        assert run(globals()[name], dtype, [(dtype, a), (dtype, b)], n) == want


@pytest.mark.parametrize("name", ["LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot"])
@FEW
@given(data=st.data(), src=st.sampled_from(LOGICAL_SOURCES))
def test_logical_matches_the_reference(name: str, src: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 80))
    a, b = (data.draw(lane_bits(src, n)) for _ in range(2))
    if name == "LogicalNot":
        got = run(LogicalNot, bool_, [(src, a)], n)
        assert got == [int(not ref.truth(x, src)) for x in a]
    else:
        got = run(globals()[name], bool_, [(src, a), (src, b)], n)
        want = [
            int(ref.LOGICAL[name](ref.truth(x, src), ref.truth(y, src)))
            for x, y in zip(a, b, strict=True)
        ]
        assert got == want


def test_template_arguments_and_forms() -> None:
    bits = [0x3FC00000] * 8  # 1.5
    assert run(Ceil[float32_t], float32_t, [(float32_t, bits)], 8) == [0x40000000] * 8
    assert run(Ceil[float32_t, True], float32_t, [(float32_t, bits)], 8) == [0x40000000] * 8
    assert run(Rint[RintConfig()], float32_t, [(float32_t, bits)], 8) == [0x40000000] * 8
    assert run(Rint[RintConfig(), float32_t], float32_t, [(float32_t, bits)], 8) == [0x40000000] * 8
    with block(BlockContext()) as ctx:
        ub = Ub()
        x, y = ub.tensor(float32_t, 8, bits), ub.tensor(float32_t, 8)
        ctx.tracker.barrier()
        Trunc(y, x)  # the header's form without calCount: all of src
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(8).tolist() == [1.0] * 8
        with pytest.raises(AscregTypeError, match="no overload takes these operands"):
            Ceil(y, x)  # Ceil has no form without calCount
        with pytest.raises(IllegalDtypeError, match="T = int32_t"):
            Ceil(ub.tensor(int32_t, 8), ub.tensor(int32_t, 8), 8)
        with pytest.raises(AscregTypeError, match="the template needs LocalTensor<half>"):
            Ceil[half](y, x, 8)
        with pytest.raises(OutOfBoundsError, match="calCount 9"):
            Floor(y, x, 9)
        with pytest.raises(IllegalDtypeError, match="destination type = int8_t"):
            IsFinite(ub.tensor(int8_t, 8), x, 8)


TRANSCENDENTAL = ["Sin", "Cos", "Tanh", "Sinh", "Cosh", "Acosh", "Atanh", "Sigmoid"]


@pytest.mark.parametrize("name", TRANSCENDENTAL)
@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]))
def test_float_functions_match_the_reference(name: str, dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 24))
    if data.draw(st.booleans()):  # the functions' working range, where the polynomials matter
        low, high = {"Acosh": (1.0, 60.0), "Atanh": (-1.0, 1.0)}.get(name, (-12.0, 12.0))
        values = data.draw(st.lists(st.floats(low, high, width=32), min_size=n, max_size=n))
        bits = to_bits(np.array(values, dtype=np.float32).astype(dtype.np_dtype))
    else:
        bits = data.draw(lane_bits(dtype, n))
    got = run(globals()[name], dtype, [(dtype, bits)], n)
    assert same_lanes(got, [ref.float_function(name, b, dtype) for b in bits], dtype)


@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]))
def test_tanh_compensation_matches_the_reference(dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 24))
    values = data.draw(st.lists(st.floats(-3, 3, width=32), min_size=n, max_size=n))
    bits = to_bits(np.array(values, dtype=np.float32).astype(dtype.np_dtype))
    config = TanhConfig(TanhAlgo.SUBSECTION_COMPENSATION)
    got = run(Tanh[dtype, False, config], dtype, [(dtype, bits)], n)
    want = [ref.in_float(ref.tanh_compensated32, dtype, b) for b in bits]
    assert same_lanes(got, want, dtype)


@FEW
@given(
    data=st.data(),
    dtype=st.sampled_from([half, float32_t]),
    beta=st.sampled_from([1.0, 1.702, -0.5]),
)
def test_swish_matches_the_reference(dtype: Any, beta: float, data: Any) -> None:
    n = data.draw(st.integers(1, 24))
    bits = data.draw(lane_bits(dtype, n))
    with block(BlockContext()) as ctx:
        ub = Ub()
        x, y = ub.tensor(dtype, n, bits), ub.tensor(dtype, n)
        ctx.tracker.barrier()
        Swish(y, x, n, beta)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n))
    assert same_lanes(got, [ref.swish(b, beta, dtype) for b in bits], dtype)


@pytest.mark.parametrize("name", ["Sin", "Cos"])
def test_radian_reduction_is_reported_missing(name: str) -> None:
    from ascreg.errors import UnsupportedError

    config = {
        "Sin": SinConfig(SinAlgo.RADIAN_REDUCTION),
        "Cos": CosConfig(CosAlgo.RADIAN_REDUCTION),
    }[name]
    with pytest.raises(UnsupportedError, match="RADIAN_REDUCTION"):
        run(globals()[name][float32_t, False, config], float32_t, [(float32_t, [0] * 8)], 8)


@pytest.mark.parametrize(
    ("name", "function", "tolerance"),
    [
        ("Sin", np.sin, 4e-7),
        ("Cos", np.cos, 4e-7),
        ("Tanh", np.tanh, 2e-7),
        ("Sigmoid", lambda v: 1 / (1 + np.exp(-v)), 2e-7),
    ],
)
def test_float_functions_are_accurate(name: str, function: Any, tolerance: float) -> None:
    """An independent accuracy check of the documented algorithms (float64 reference)."""
    x = np.linspace(-20, 20, 4096).astype(np.float32)
    got = np.array(
        run(globals()[name], float32_t, [(float32_t, to_bits(x))], x.size), np.uint32
    ).view(np.float32)
    assert np.max(np.abs(got - function(x.astype(np.float64)))) < tolerance


POWER_FLOATS = [
    (half, False),
    (float32_t, False),
    (half, True),
    (float32_t, True),
    (bfloat16_t, True),
]


@FEW
@given(data=st.data(), case=st.sampled_from(POWER_FLOATS), form=st.sampled_from(["tt", "ts", "st"]))
def test_power_float_matches_the_reference(case: tuple[Any, bool], form: str, data: Any) -> None:
    dtype, double = case
    n = data.draw(st.integers(1, 24))
    if data.draw(st.booleans()):
        a_vals = data.draw(st.lists(st.floats(-9, 9, width=16), min_size=n, max_size=n))
        b_vals = data.draw(
            st.lists(
                st.sampled_from([0.5, 2.0, 3.0, -1.0, -2.5, 7.0]) | st.floats(-6, 6, width=16),
                min_size=n,
                max_size=n,
            )
        )
        a, b = (to_bits(np.array(v, np.float32).astype(dtype.np_dtype)) for v in (a_vals, b_vals))
    else:
        a, b = data.draw(lane_bits(dtype, n)), data.draw(lane_bits(dtype, n))
    if form == "ts":
        b = [b[0]] * n
    elif form == "st":
        a = [a[0]] * n
    config = PowerConfig(PowerAlgo.DOUBLE_FLOAT_TECH if double else PowerAlgo.INTRINSIC)
    with block(BlockContext()) as ctx:
        ub = Ub()
        x, y, z = ub.tensor(dtype, n, a), ub.tensor(dtype, n, b), ub.tensor(dtype, n)
        ctx.tracker.barrier()
        scalar_a, scalar_b = (from_bits([v[0]], dtype)[0] for v in (a, b))
        operands = {"tt": (x, y), "ts": (x, scalar_b), "st": (scalar_a, y)}[form]
        Power[dtype, False, config](z, *operands, n)
        ctx.tracker.barrier()
        got = to_bits(z.GetPhyAddr().read(n))
    want = [ref.power_float(p, q, dtype, double) for p, q in zip(a, b, strict=True)]
    assert same_lanes(got, want, dtype)


@FEW
@given(
    data=st.data(), dtype=st.sampled_from([uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t])
)
def test_power_int_matches_the_reference(dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 40))
    a = data.draw(lane_bits(dtype, n))
    small = st.integers(-3 if dtype in (int8_t, int16_t, int32_t) else 0, 40)
    b = to_bits(np.array(data.draw(st.lists(small, min_size=n, max_size=n))).astype(dtype.np_dtype))
    got = run(Power, dtype, [(dtype, a), (dtype, b)], n)
    assert got == [ref.power_int(p, q, dtype) for p, q in zip(a, b, strict=True)]


def test_power_types_follow_the_algorithm() -> None:
    with block(BlockContext()):
        ub = Ub()
        with pytest.raises(IllegalDtypeError, match="T = int32_t"):
            Power[int32_t, False, PowerConfig(PowerAlgo.DOUBLE_FLOAT_TECH)](
                ub.tensor(int32_t, 8), ub.tensor(int32_t, 8), 2, 8
            )
        with pytest.raises(IllegalDtypeError, match="T = bfloat16_t"):
            Power(ub.tensor(bfloat16_t, 8), ub.tensor(bfloat16_t, 8), ub.tensor(bfloat16_t, 8), 8)


def test_power_double_float_is_within_one_ulp() -> None:
    rng = np.random.default_rng(7)
    a = rng.uniform(0.01, 10, 2048).astype(np.float32)
    b = rng.uniform(-8, 8, 2048).astype(np.float32)
    config = PowerConfig(PowerAlgo.DOUBLE_FLOAT_TECH)
    got = np.array(
        run(
            Power[float32_t, False, config],
            float32_t,
            [(float32_t, to_bits(a)), (float32_t, to_bits(b))],
            2048,
        ),
        np.uint32,
    ).view(np.float32)
    want = np.power(a.astype(np.float64), b.astype(np.float64))
    assert np.max(np.abs(got - want) / np.spacing(want.astype(np.float32))) < 1.0


INVERSE = {
    ("Asin", None): lambda b, t: ref.asin_lane(b, t, False),
    ("Acos", None): lambda b, t: ref.asin_lane(b, t, True),
    ("Atan", None): lambda b, t: ref.float_function("Atan", b, t),
    ("Atan", "poly"): lambda b, t: ref.float_function("AtanPolynomial", b, t),
    ("Tan", None): lambda b, t: ref.float_function("Tan", b, t),
    ("Erf", None): lambda b, t: ref.float_function("Erf", b, t),
    ("Erf", "sub"): lambda b, t: ref.float_function("ErfSubsection", b, t),
    ("Erfc", None): lambda b, t: ref.float_function("Erfc", b, t),
}
CONFIGS = {
    ("Atan", "poly"): AtanConfig(AtanAlgo.POLYNOMIAL_APPROXIMATION),
    ("Erf", "sub"): ErfConfig(ErfAlgo.SUBSECTION_POLYNOMIAL_APPROXIMATION),
}
RANGES = {"Asin": (-1.0, 1.0), "Acos": (-1.0, 1.0), "Atan": (-40.0, 40.0), "Tan": (-20.0, 20.0),
          "Erf": (-5.0, 5.0), "Erfc": (-12.0, 12.0)}  # fmt: skip


@pytest.mark.parametrize("case", list(INVERSE), ids=lambda c: f"{c[0]}-{c[1]}")
@FEW
@given(data=st.data(), dtype=st.sampled_from([half, float32_t]), tmp=st.booleans())
def test_more_float_functions_match_the_reference(
    case: Any, dtype: Any, tmp: bool, data: Any
) -> None:
    name, variant = case
    if variant == "poly":
        dtype = float32_t
    n = data.draw(st.integers(1, 24))
    if data.draw(st.booleans()):
        low, high = RANGES[name]
        values = data.draw(st.lists(st.floats(low, high, width=32), min_size=n, max_size=n))
        bits = to_bits(np.array(values, dtype=np.float32).astype(dtype.np_dtype))
    else:
        bits = data.draw(lane_bits(dtype, n))
    api = globals()[name]
    if case in CONFIGS:
        api = api[dtype, False, CONFIGS[case]]
    got = run(api, dtype, [(dtype, bits)], n, tmp=tmp)
    assert same_lanes(got, [INVERSE[case](b, dtype) for b in bits], dtype)


def test_atan_polynomial_is_float_only() -> None:
    with pytest.raises(IllegalDtypeError, match="float only"):
        run(
            Atan[half, False, AtanConfig(AtanAlgo.POLYNOMIAL_APPROXIMATION)],
            half,
            [(half, [0] * 8)],
            8,
        )


@pytest.mark.parametrize(
    ("name", "function", "tolerance", "low", "high"),
    [
        ("Asin", np.arcsin, 6e-5, -1, 1),  # the 8-term series near 1/sqrt 2
        ("Acos", np.arccos, 6e-5, -1, 1),
        ("Atan", np.arctan, 2e-5, -50, 50),
        ("Erfc", np.vectorize(math.erfc), 3e-7, -5, 5),
        ("Erf", np.vectorize(math.erf), 3e-7, -5, 5),
    ],
)
def test_more_float_functions_are_accurate(name: str, function: Any, tolerance: float,
                                           low: float, high: float) -> None:  # fmt: skip
    """The documented algorithms' accuracy against float64 (a sanity check of the series)."""
    x = np.linspace(low, high, 2049).astype(np.float32)
    got = np.array(
        run(globals()[name], float32_t, [(float32_t, to_bits(x))], x.size), np.uint32
    ).view(np.float32)
    assert np.max(np.abs(got - function(x.astype(np.float64)))) < tolerance


@pytest.mark.parametrize("name", ["Gelu", "FasterGelu", "FasterGeluV2"])
@FEW
@given(
    data=st.data(), dtype=st.sampled_from([half, float32_t]), high=st.booleans(), tmp=st.booleans()
)
def test_gelus_match_the_reference(name: str, dtype: Any, high: bool, tmp: bool, data: Any) -> None:
    n = data.draw(st.integers(1, 40))
    if data.draw(st.booleans()):
        values = data.draw(st.lists(st.floats(-8, 8, width=16), min_size=n, max_size=n))
        bits = to_bits(np.array(values, dtype=np.float32).astype(dtype.np_dtype))
    else:
        bits = data.draw(lane_bits(dtype, n))
    got = run(globals()[name][dtype, high], dtype, [(dtype, bits)], n, tmp=tmp)
    if high and dtype is half:
        want = [ref.in_float(lambda f: ref.gelu_lane(name, f, float32_t), half, b) for b in bits]
    else:
        want = [ref.gelu_lane(name, b, dtype) for b in bits]
    assert same_lanes(got, want, dtype)


def test_the_literal_all_lists_every_table_api_and_config() -> None:
    """``__all__`` is literal (type checkers read only literal lists): it misses no table entry."""
    from ascreg.basic import _adv_math

    made = set(_adv_math.API) | {cls.__name__ for cls in _adv_math.CONFIGS.values()}
    assert made <= set(_adv_math.__all__)
    assert len(_adv_math.__all__) == len(set(_adv_math.__all__))

"""``__saturatef`` / ``__fdividef`` / ``fdividef`` against per-lane references; cache-hinted access."""

from __future__ import annotations

import ctypes
import math
import struct
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    GlobalMemory,
    UnifiedBuffer,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
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
from ascreg.errors import AddressSpaceError, AscregError, AscregTypeError
from ascreg.simt import (
    Lanes,
    __fdividef,
    __saturatef,
    asc_ldca,
    asc_ldcg,
    asc_stcg,
    asc_stwt,
    dim3,
    fdividef,
    run_simt_kernel,
    threadIdx,
)

SMALLEST_NORMAL = 2.0**-126

# -- references: plain per-lane Python from the documentation ----------------------------------


def f32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def bits_of(value: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", value))[0])


def flush(v: float) -> float:
    return math.copysign(0.0, v) if 0 < abs(v) < SMALLEST_NORMAL else v


def ref_saturatef(x: float) -> float:
    if math.isnan(x) or x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return x


def ref_fdividef(x: float, y: float) -> float:
    x, y = flush(x), flush(y)
    if math.isnan(x) or math.isnan(y) or (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
        return math.nan
    if y == 0:
        return math.inf if (math.copysign(1, x) > 0) == (math.copysign(1, y) > 0) else -math.inf
    # float32 operands: the double quotient rounded once more to float is correctly rounded
    return flush(ctypes.c_float(x / y).value)


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


@settings(max_examples=150)
@given(st.lists(float_bits, min_size=1, max_size=40))
def test_saturatef_matches_reference(bits: list[int]) -> None:
    x = np.array(bits, dtype=np.uint32).view(np.float32)
    got = __saturatef(x)
    assert got.dtype == np.float32
    for xi, g in zip(x, got, strict=True):
        assert same(g, ref_saturatef(float(xi))), (float(xi), float(g))


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
        (__saturatef, (np.array([1], dtype=np.int32),), "cast float64 or integer"),
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


# -- cache-hinted loads and stores -------------------------------------------------------------

ACCESS_TYPES = [
    int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, float32_t, half,
    bfloat16_t,
]  # fmt: skip


@pytest.mark.parametrize("dtype", ACCESS_TYPES, ids=lambda t: t.cpp_name)
@pytest.mark.parametrize(
    ("load", "store"), [(asc_ldcg, asc_stcg), (asc_ldca, asc_stwt)], ids=["cg", "ca-wt"]
)
def test_hinted_round_trip_is_a_plain_copy(dtype: Any, load: Any, store: Any) -> None:
    gm = GlobalMemory()
    src, dst = gm.alloc(dtype, 40), gm.alloc(dtype, 40)
    kind = np.dtype(dtype.np_dtype).kind
    info = np.iinfo(dtype.np_dtype) if kind in "iu" else ml_dtypes.finfo(dtype.np_dtype)
    values = np.linspace(float(info.min) / 2, float(info.max) / 2, 40).astype(dtype.np_dtype)
    src.write(values)

    def k(dst: Any, src: Any) -> None:
        t = threadIdx.x
        store(dst + t, load(src + (39 - t)))

    run_simt_kernel(k, dim3(1), dim3(40), 0, (dst, src))
    assert dst.read(40).tobytes() == values[::-1].tobytes()


def test_uniform_address_loads_one_value_and_last_thread_store_wins() -> None:
    gm = GlobalMemory()
    p, q = gm.alloc(int32_t, 1), gm.alloc(int32_t, 8)
    p.write([7])

    def k(p: Any, q: Any) -> None:
        q[threadIdx.x] = asc_ldcg(p) + threadIdx.x.astype(np.int32)
        asc_stwt(p, threadIdx.x.astype(np.int32) * 10)

    run_simt_kernel(k, dim3(1), dim3(8), 0, (p, q))
    assert q.read(8).tolist() == list(range(7, 15))
    assert p.read(1).tolist() == [70]


def test_hinted_store_of_a_diverged_block_is_undone_once() -> None:
    gm = GlobalMemory()
    p = gm.alloc(uint32_t, 8)

    def k(p: Any) -> None:
        t = threadIdx.x
        asc_stcg(p + t, asc_ldca(p + t) + 1)
        if t < 4:
            asc_stcg(p + t, asc_ldcg(p + t) + 10)

    run_simt_kernel(k, dim3(1), dim3(8), 0, (p,))
    assert p.read(8).tolist() == [11] * 4 + [1] * 4


def test_hinted_access_rules() -> None:
    ub = UnifiedBuffer().alloc(uint32_t, 4)
    ub.write([1, 2, 3, 4])
    assert int(asc_ldca(ub + 2)) == 3  # a plain access: UB is fine
    for call, args in ((asc_ldcg, (ub,)), (asc_stcg, (ub, 1)), (asc_stwt, (ub, 1))):
        with pytest.raises(AddressSpaceError, match=f"{call.__name__}: .*not in Global Memory"):
            call(*args)
    with pytest.raises(AscregTypeError, match="fp8_e4m3fn_t is not supported"):
        asc_ldcg(GlobalMemory().alloc(fp8_e4m3fn_t, 1))
    with pytest.raises(AscregTypeError, match="must be a __gm__ or __ubuf__ pointer"):
        asc_stwt(np.zeros(4), 1)
    with pytest.raises(AscregError, match="asc_stcg: cannot store 300 as uint8_t"):
        asc_stcg(GlobalMemory().alloc(uint8_t, 1), 300)

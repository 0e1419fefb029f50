"""The pair conversions and packing functions against the per-pair references
(``reference.packing``): selections, float2 <-> pair conversions in every rounding mode,
hifloat8 and fp8 pairs (exhaustive over the 8- and 16-bit inputs), the ``_sat`` decision,
argument rules and use inside a SIMT kernel."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, bfloat16_t, float32_t, fp8_e4m3fn_t, fp8_e5m2_t, half, hifloat8_t
from ascreg._spec.simt import FLOAT2_ROUNDINGS, HIF8_ROUNDINGS, PACK_ROWS
from ascreg.errors import AscregTypeError
from ascreg.simt import (
    Lanes,
    bfloat16x2_t,
    dim3,
    float2,
    float8_e4m3x2_t,
    float8_e5m2x2_t,
    half2,
    hifloat8x2_t,
    run_simt_kernel,
    threadIdx,
)
from reference import packing as ref
from reference.common import encode_float

FAMILIES = {"half": (half, half2, np.float16), "bfloat16": (bfloat16_t, bfloat16x2_t, ml_dtypes.bfloat16)}  # fmt: skip
SPECIAL_16 = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x3C00, 0x7BFF, 0x7C00, 0xFC00, 0x7E00,
              0x3F80, 0x7F7F, 0x7F80, 0xFF80, 0x7FC0]  # fmt: skip
SPECIAL_32 = [0, 0x80000000, 1, 0x3F800000, 0x3F801000, 0x3F802000, 0x3F803000, 0xBF801000,
              0x477FF000, 0x477FE000, 0x47800000, 0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
              0x33800000, 0x33000000, 0x43E00000, 0x43F00000, 0x47600000, 0x47700000]  # fmt: skip
bits16 = st.one_of(st.sampled_from(SPECIAL_16), st.integers(0, 0xFFFF))
bits32 = st.one_of(
    st.sampled_from(SPECIAL_32),
    st.integers(0, 2**32 - 1),
    st.floats(-7e4, 7e4, width=32).map(lambda v: int(np.float32(v).view(np.uint32))),
)
FLOAT22 = [f"__float22{h}2_{m}{s}" for h in FLOAT2_ROUNDINGS for m in FLOAT2_ROUNDINGS[h]
           for s in ("", "_sat")]  # fmt: skip
HIF8_FROM = [f"__{src}2hif82_{m}{s}" for src in ("float2", "half2") for m in HIF8_ROUNDINGS
             for s in ("", "_sat")]  # fmt: skip


def bits_of(values: Any) -> list[int]:
    array = np.ascontiguousarray(values)
    return array.view(f"u{array.dtype.itemsize}").reshape(-1).tolist()  # type: ignore[no-any-return]


def same_values(got: Any, want: list[float]) -> bool:
    """Equal values with equal signs (NaN equals NaN)."""
    values = np.asarray(got, np.float64)
    return np.array_equal(values, want, equal_nan=True) and np.array_equal(
        np.signbit(values), np.signbit(want)
    )


def pair_of(cls: Any, bits: list[int]) -> Any:
    unsigned = np.dtype(f"u{cls.element.np_dtype.itemsize}")
    return cls.from_components(np.array(bits, unsigned).view(cls.element.np_dtype).reshape(-1, 2))


def test_the_table_has_every_documented_name() -> None:
    assert len(PACK_ROWS) == 60
    assert {n for n in PACK_ROWS if "float22" in n} == {*FLOAT22, *HIF8_FROM[:4]}
    for name in PACK_ROWS:
        assert getattr(simt, name).__module__ == "ascreg.simt.packing"


SELECTIONS = {  # name template -> (reference selection, widen to float)
    "__low2{h}": ("low2", False), "__high2{h}": ("high2", False),
    "__low2{h}2": ("low2_2", False), "__high2{h}2": ("high2_2", False),
    "__lows2{h}2": ("lows2", False), "__highs2{h}2": ("highs2", False),
    "__lowhigh2highlow": ("lowhigh2highlow", False),
    "__low2float": ("low2", True), "__high2float": ("high2", True),
    "__{h}22float2": ("both", True),
}  # fmt: skip
SELECTION_NAMES = sorted({t.format(h=h) for t in SELECTIONS for h in FAMILIES})


@pytest.mark.rows(*SELECTION_NAMES)
@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("template", list(SELECTIONS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_selections_match_the_reference(template: str, family: str, data: Any) -> None:
    element, cls, _ = FAMILIES[family]
    name, (selection, widen) = template.format(h=family), SELECTIONS[template]
    function = ref.SELECTIONS[selection]
    count = function.__code__.co_argcount
    pairs = [tuple(data.draw(st.lists(bits16, min_size=2, max_size=2))) for _ in range(count)]
    got = getattr(simt, name)(*(pair_of(cls, list(p)) for p in pairs))
    want = function(*pairs)
    want = want if isinstance(want, tuple) else (want,)
    if widen:
        want = tuple(ref.to_float(b, element) for b in want)
    got_bits = bits_of(got.components() if hasattr(got, "components") else np.asarray(got))
    assert got_bits == list(want), (name, pairs)
    overloads = PACK_ROWS[name].overloads
    result = overloads[family == "bfloat16" and len(overloads) > 1][-1]
    if result.endswith("2") or result.endswith("2_t"):
        assert type(got).__name__ == result
    else:
        assert isinstance(got, Lanes)  # per-thread pairs give per-thread values


@pytest.mark.rows(
    "__halves2half2", "__halves2bfloat162", "__bfloat162bfloat162", "make_half2", "make_bfloat162"
)
@settings(max_examples=40, deadline=None)
@given(bits16, bits16)
def test_halves_and_splat_match_the_reference(a: int, b: int) -> None:
    for family, (_element, cls, dtype) in FAMILIES.items():
        x, y = (np.array(v, np.uint16).view(dtype)[()] for v in (a, b))
        for name in (f"__halves2{family}2", f"make_{family}2"):  # make_half2: asc_fp16.h
            assert bits_of(getattr(simt, name)(x, y).components()) == [a, b]
            assert type(getattr(simt, name)(x, y)) is cls
    splat = simt.__bfloat162bfloat162(np.array(a, np.uint16).view(ml_dtypes.bfloat16)[()])
    assert bits_of(splat.components()) == list(ref.SELECTIONS["splat"](a))


@pytest.mark.rows(*FLOAT22)
@pytest.mark.parametrize("name", FLOAT22)
@settings(max_examples=25, deadline=None)
@given(st.lists(bits32, min_size=2, max_size=8).filter(lambda v: len(v) % 2 == 0))
def test_float2_to_pair_matches_the_reference_and_the_scalar_twin(
    name: str, bits: list[int]
) -> None:
    family, _, rest = name.removeprefix("__float22").partition("2_")
    mode = rest.removesuffix("_sat")
    element, cls, _ = FAMILIES[family]
    got = getattr(simt, name)(pair_of(float2, bits))
    assert type(got) is cls
    want = [ref.narrow(b, element, mode) for b in bits]
    assert same_values(got.components().reshape(-1), want), (name, bits)
    twin = getattr(simt, f"__float2{family}_{rest}")(np.array(bits, np.uint32).view(np.float32))
    assert bits_of(twin) == bits_of(got.components())  # each component: the scalar conversion


@pytest.mark.rows("__floats2half2_rn", "__floats2bfloat162_rn", "__float2bfloat162_rn")
@settings(max_examples=40, deadline=None)
@given(bits32, bits32)
def test_floats_to_pair_matches_the_reference(a: int, b: int) -> None:
    x, y = (np.array(v, np.uint32).view(np.float32)[()] for v in (a, b))
    for family, (element, _cls, _) in FAMILIES.items():
        got = getattr(simt, f"__floats2{family}2_rn")(x, y)
        assert same_values(got.components(), [ref.narrow(v, element, "rn") for v in (a, b)])
    splat = simt.__float2bfloat162_rn(x)
    assert same_values(splat.components(), [ref.narrow(a, bfloat16_t, "rn")] * 2)


@pytest.mark.rows(
    "__half22hif82_rh", "__half22hif82_rna", "__half22hif82_rh_sat", "__half22hif82_rna_sat"
)
@pytest.mark.parametrize("mode", HIF8_ROUNDINGS)
def test_half2_to_hifloat8_is_exhaustively_the_reference(mode: str) -> None:
    every = np.arange(0x10000, dtype=np.uint16)
    x = half2.from_components(np.stack([every, every[::-1]], axis=-1).view(np.float16))
    got = getattr(simt, f"__half22hif82_{mode}")(x)
    assert type(got) is hifloat8x2_t
    codes = got.components()
    want = [ref.convert(int(b), half, hifloat8_t, mode) for b in every]
    assert codes[:, 0].tolist() == want
    assert codes[:, 1].tolist() == want[::-1]
    saturating = getattr(simt, f"__half22hif82_{mode}_sat")(x).components()
    assert np.array_equal(saturating, codes)  # CTRL[60] = 1: no saturation


@pytest.mark.rows(
    "__float22hif82_rh", "__float22hif82_rna", "__float22hif82_rh_sat", "__float22hif82_rna_sat"
)
@pytest.mark.parametrize("name", HIF8_FROM[:4])
@settings(max_examples=30, deadline=None)
@given(st.lists(bits32, min_size=2, max_size=8).filter(lambda v: len(v) % 2 == 0))
def test_float2_to_hifloat8_matches_the_reference(name: str, bits: list[int]) -> None:
    mode = name.removeprefix("__float22hif82_").removesuffix("_sat")
    got = getattr(simt, name)(pair_of(float2, bits))
    assert got.components().reshape(-1).tolist() == [
        ref.convert(b, float32_t, hifloat8_t, mode) for b in bits
    ]


@pytest.mark.rows("__hif822float2", "__hif822half2", "__e4m3x22float2", "__e5m2x22float2")
@pytest.mark.parametrize(
    ("name", "cls", "source", "dst"),
    [("__hif822float2", hifloat8x2_t, hifloat8_t, float32_t),
     ("__hif822half2", hifloat8x2_t, hifloat8_t, half),
     ("__e4m3x22float2", float8_e4m3x2_t, fp8_e4m3fn_t, float32_t),
     ("__e5m2x22float2", float8_e5m2x2_t, fp8_e5m2_t, float32_t)],
)  # fmt: skip
def test_8_bit_pairs_widen_exhaustively_as_the_reference(
    name: str, cls: Any, source: Any, dst: Any
) -> None:
    codes = np.arange(256, dtype=np.uint8)
    x = cls.from_components(np.stack([codes, codes[::-1]], axis=-1).view(source.np_dtype))
    got = getattr(simt, name)(x)
    want = [ref.convert(int(c), source, dst) for c in codes]
    parts = np.ascontiguousarray(got.components())
    assert bits_of(parts[:, 0]) == want
    assert bits_of(parts[:, 1]) == want[::-1]


@pytest.mark.rows("__asc_cvt_float2_to_fp8x2")
@settings(max_examples=60, deadline=None)
@given(bits32, bits32)
def test_float2_to_fp8x2_matches_the_reference(a: int, b: int) -> None:
    x = float2.from_components(np.array([a, b], np.uint32).view(np.float32))  # one value
    for kind, fp8 in ((simt.__ASC_E4M3, fp8_e4m3fn_t), (simt.__ASC_E5M2, fp8_e5m2_t)):
        want = ref.fp8x2_storage((a, b), fp8)
        for saturate in (simt.__ASC_NOSAT, simt.__ASC_SATFINITE):  # CTRL[60] = 1: the same
            got = simt.__asc_cvt_float2_to_fp8x2(x, saturate, kind)
            assert isinstance(got, np.uint16) and int(got) == want


@pytest.mark.rows(*(n for n in PACK_ROWS if n.endswith("_sat")))
@settings(max_examples=30, deadline=None)
@given(st.lists(bits32, min_size=2, max_size=2), st.lists(bits16, min_size=2, max_size=2))
def test_sat_forms_return_the_default_ctrl_result(bits: list[int], halves: list[int]) -> None:
    x, h = pair_of(float2, bits), pair_of(half2, halves)
    for name in (n for n in PACK_ROWS if n.endswith("_sat")):
        argument = x if name.startswith("__float22") else h
        plain = getattr(simt, name.removesuffix("_sat"))(argument)
        assert bits_of(getattr(simt, name)(argument).components()) == bits_of(plain.components())


def test_documented_special_values() -> None:
    inf, nan = float("inf"), float("nan")
    e4m3 = simt.__asc_cvt_float2_to_fp8x2(float2(inf, 1e6), simt.__ASC_NOSAT, simt.__ASC_E4M3)
    assert int(e4m3) == 0x7F7F  # no inf in e4m3: NaN
    e5m2 = simt.__asc_cvt_float2_to_fp8x2(float2(-inf, 1e6), simt.__ASC_NOSAT, simt.__ASC_E5M2)
    assert int(e5m2) == 0x7CFC  # -inf low, +inf high
    assert simt.__float22hif82_rna(float2(nan, -inf)).components().tolist() == [0x80, 0xEF]
    assert (
        simt.__hif822half2(hifloat8x2_t(0x80, 0x6F)).components().astype(float).tolist()[1] == inf
    )
    assert simt.__float22half2_rz(float2(1e6, -1e6)).components().tolist() == [65504.0, -65504.0]


def test_arguments_must_have_the_parameter_type() -> None:
    with pytest.raises(AscregTypeError, match=r"__high2half.*takes a half2"):
        simt.__high2half(bfloat16x2_t(1, 2))
    with pytest.raises(AscregTypeError, match=r"__lowhigh2highlow.*half2 or bfloat16x2_t"):
        simt.__lowhigh2highlow(float2(1, 2))
    with pytest.raises(AscregTypeError, match=r"__float22half2_rn.*takes a float2"):
        simt.__float22half2_rn(half2(1, 2))
    with pytest.raises(AscregTypeError, match=r"saturate is 0.*__asc_saturation_t"):
        simt.__asc_cvt_float2_to_fp8x2(float2(1, 2), 0, simt.__ASC_E4M3)
    with pytest.raises(AscregTypeError, match="fp8_interpretation"):
        simt.__asc_cvt_float2_to_fp8x2(float2(1, 2), simt.__ASC_NOSAT, simt.__ASC_NOSAT)
    with pytest.raises(AscregTypeError, match="half"):
        simt.__halves2half2(np.float32(1), np.float16(2))
    with pytest.raises(AscregTypeError, match=r"integers in \[0, 255\]"):
        hifloat8x2_t(256, 0)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        simt.__lows2half2(half2(1, 2))


def test_per_thread_values_in_a_kernel() -> None:
    gm = GlobalMemory()
    n = 32
    src, out, low = gm.alloc(float32_t, 2 * n), gm.alloc(half, 2 * n), gm.alloc(float32_t, n)
    src.write(np.arange(2 * n) + 0.25)

    def kernel(src: Any, out: Any, low: Any) -> None:
        i = threadIdx.x
        pair = simt.__float22half2_rz(src.cast(float2)[i])
        out.cast(half2)[i] = simt.__lowhigh2highlow(pair)
        low[i] = simt.__low2float(pair)

    run_simt_kernel(kernel, dim3(1), dim3(n), 0, (src, out, low))
    values = (np.arange(2 * n) + 0.25).astype(np.float16).reshape(-1, 2)
    assert np.array_equal(out.read(2 * n).reshape(-1, 2), values[:, ::-1])
    assert np.array_equal(low.read(n), values[:, 0].astype(np.float32))
    lanes = simt.__high2half(half2(np.arange(3.0), 1))
    assert isinstance(lanes, Lanes) and lanes.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.rows("make_half2", "make_bfloat162")
@settings(max_examples=40, deadline=None)
@given(
    st.floats(-65000, 65000), st.floats(-65000, 65000)
)  # inside both ranges (else C is undefined)
def test_make_pair_converts_double_arguments_once(x: float, y: float) -> None:
    """``make_half2(0.1, 1e6)``: each double argument rounds once to the element (C's
    conversion to the ``half`` / ``bfloat16_t`` parameter)."""
    for family, (element, _cls, _dtype) in FAMILIES.items():
        got = getattr(simt, f"make_{family}2")(x, y)
        assert bits_of(got.components()) == [encode_float(x, element), encode_float(y, element)]

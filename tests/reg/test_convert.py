"""``Reg.Cast`` and ``Reg.Truncate`` against the scalar reference (tests/reference/convert.py).

Property tests draw every documented pair with its legal ``CastTrait`` values and random masks;
the 8-bit (and 4-bit) formats are also checked exhaustively (every code each way) and on the
float -> 8-bit edges: the specials, the rounding midpoints and a dense random sample.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    CastTrait,
    MaskMergeMode,
    Reg,
    RegLayout,
    RoundMode,
    SatMode,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg._spec.convert import CAST_PAIRS, TRUNCATE_ROUNDS, TRUNCATE_TYPES, CastPair
from ascreg.core import convert as core
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
    UnsupportedError,
)
from reference import convert as ref
from reference.common import from_bits, to_bits
from strategies import make_mask, make_reg, mask_bits, new_reg, reg_bits

PAIRS = [pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}") for p in CAST_PAIRS.values()]


def _trait_two(pair: CastPair) -> list[bool]:
    return [False, True] if int64_t in (pair.src, pair.dst) else [False]


def _random_lanes(data: Any, dtype: Any, lanes: int) -> list[int]:
    """Random bit patterns, half of the draws biased to the type's small and special codes."""
    nbytes = lanes * dtype.size
    raw = data.draw(st.binary(min_size=nbytes, max_size=nbytes))
    bits = to_bits(np.frombuffer(raw, dtype=f"<u{dtype.size}"))
    if dtype.size >= 2 and data.draw(st.booleans()):  # values near 1 (the interesting range)
        top = data.draw(st.sampled_from([0x3C00, 0x3F80, 0x4300, 0x3F800000, 0x4B000000]))
        shift = 8 * dtype.size - 16
        bits = [(top << max(shift, 0) & ((1 << 8 * dtype.size) - 1)) ^ (b & 0x3FFF) for b in bits]
    return bits


def _expected(pair: CastPair, values: list[int], bits: list[int], trait: CastTrait, two: bool,
              old: list[int]) -> list[int]:  # fmt: skip
    width_change = core.element_bits(pair.src) != core.element_bits(pair.dst)
    layout = None if not width_change or two else max(trait.layoutMode.value, 0)
    mode = trait.roundMode
    if not pair.rounds or mode in (RoundMode.UNKNOWN, RoundMode.CAST_NONE):
        mode = pair.default_round
    saturate = pair.fixed_saturation or (pair.sat and trait.satMode is SatMode.SAT)
    lanes = len(values)
    want = ref.cast_register(values, bits, pair.src, pair.dst, layout, mode, saturate, lanes)
    if trait.mrgMode is MaskMergeMode.MERGING:
        stride = 256 // len(want)
        want = [
            w if bits[i * stride] else o for i, (w, o) in enumerate(zip(want, old, strict=True))
        ]
    return want


@st.composite
def traits(draw: Any, pair: CastPair) -> CastTrait:
    """A legal CastTrait of *pair* (UNKNOWN values included)."""
    layouts = [RegLayout.UNKNOWN, *list(RegLayout)[1 : pair.parts + 1]]
    layout = draw(st.sampled_from(layouts if pair.parts > 1 else [RegLayout.UNKNOWN]))
    sat = draw(st.sampled_from(list(SatMode)))
    rounds = [RoundMode.UNKNOWN, RoundMode.CAST_NONE, *pair.rounds]
    rounding = draw(st.sampled_from(rounds))
    nibble = {pair.src, pair.dst} & set(core.NIBBLE_TYPES)
    merge = [MaskMergeMode.ZEROING, MaskMergeMode.UNKNOWN]
    if layout in (RegLayout.UNKNOWN, RegLayout.ZERO) and not nibble:
        merge.append(MaskMergeMode.MERGING)
    return CastTrait(layout, sat, draw(st.sampled_from(merge)), rounding)


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("pair", PAIRS)
@settings(max_examples=6)
@given(data=st.data())
def test_cast_matches_reference(pair: CastPair, data: Any) -> None:
    two = data.draw(st.sampled_from(_trait_two(pair)))
    src_two, dst_two = two and pair.src is int64_t, two and pair.dst is int64_t
    src_lanes = 256 // pair.src.size * (2 if src_two else 1)
    values = _random_lanes(data, pair.src, src_lanes)
    bits = data.draw(mask_bits())
    trait = data.draw(traits(pair))
    dst = make_reg(
        pair.dst,
        _random_lanes(data, pair.dst, 256 // pair.dst.size * (2 if dst_two else 1)),
        dst_two,
    )
    old = reg_bits(dst)
    Reg.Cast[pair.dst, pair.src, trait](dst, make_reg(pair.src, values, src_two), make_mask(bits))
    want = _expected(pair, values, bits, trait, two, old)
    got = reg_bits(dst)
    assert got == want, next(
        f"lane {i}: got {g:#x}, want {w:#x}"
        for i, (g, w) in enumerate(zip(got, want, strict=True))
        if g != w
    )


# ---- exhaustive 8-bit (and 4-bit) codes -------------------------------------------------------

SMALL_SOURCES = [p for p in CAST_PAIRS.values() if core.element_bits(p.src) <= 8]
SMALL_TARGETS = [p for p in CAST_PAIRS.values() if core.element_bits(p.dst) <= 8]


def _options(pair: CastPair) -> list[tuple[RoundMode, bool]]:
    rounds = pair.rounds or (pair.default_round,)
    sats = (False, True) if pair.sat else (pair.fixed_saturation,)
    return [(r, s) for r in rounds for s in sats]


def _core_bits(codes: list[int], pair: CastPair, mode: RoundMode, sat: bool) -> list[int]:
    nibble_src = pair.src in core.NIBBLE_TYPES
    lanes = np.array(codes, np.uint8) if nibble_src else from_bits(codes, pair.src)
    out = core.convert(lanes, pair.src, pair.dst, mode, sat)
    return [int(v) for v in out] if pair.dst in core.NIBBLE_TYPES else to_bits(out)


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize(
    "pair", [pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}") for p in SMALL_SOURCES]
)
def test_every_small_code_converts_as_the_reference(pair: CastPair) -> None:
    codes = list(range(1 << core.element_bits(pair.src)))
    for mode, sat in _options(pair):
        want = [ref.convert_element(c, pair.src, pair.dst, mode, sat) for c in codes]
        assert _core_bits(codes, pair, mode, sat) == want, (mode, sat)


WIDE_INTEGERS = [
    pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}")
    for p in CAST_PAIRS.values()
    if p.src in (int16_t, uint16_t) and p.dst in (half, float32_t)
]


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("pair", WIDE_INTEGERS)
def test_16_bit_integers_convert_as_the_reference(pair: CastPair) -> None:
    """Every code from -4100 to 4100 (half's exact integers end at 2048), and 6000 others."""
    sample = np.random.default_rng(16).integers(0, 1 << 16, 6000).tolist()
    codes = sorted({*range(4100), *range((1 << 16) - 4100, 1 << 16), *sample})
    for mode, sat in _options(pair):
        want = [ref.convert_element(c, pair.src, pair.dst, mode, sat) for c in codes]
        got = _core_bits(codes, pair, mode, sat)
        bad = [(hex(c), hex(g), hex(w)) for c, g, w in zip(codes, got, want, strict=True) if g != w]
        assert not bad, (mode, sat, bad[:5])


IN_RANGE = [
    pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}")
    for p in CAST_PAIRS.values()
    if p.src in (half, float32_t) and p.dst.kind.name in ("INT", "UINT") and p.dst.size <= 4
    and p.dst not in core.NIBBLE_TYPES
]  # fmt: skip


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("pair", IN_RANGE)
def test_floats_inside_an_integer_range_convert_as_the_reference(pair: CastPair) -> None:
    """Whole arrays inside the range (what the few-call path takes): ties, -0.0, the ends."""
    info = np.iinfo(pair.dst.np_dtype)
    rng = np.random.default_rng(element_seed := core.element_bits(pair.dst))
    low, high = max(info.min, -60000), min(info.max, 60000)  # half's finite range
    whole = np.concatenate([rng.integers(low, high, 600), [low, high, 0, low + 1, high - 1]])
    steps = rng.choice([0.0, 0.5, -0.5, 0.25, -0.25, 0.75, 2.0**-20, -(2.0**-20)], whole.size)
    values = np.clip(whole + steps, low, high).astype(pair.src.np_dtype)
    values = values[(values >= low) & (values <= high)]
    codes = to_bits(np.concatenate([values, pair.src.np_dtype.type([-0.0, 0.5, -0.5, 1.5])]))
    for mode, sat in _options(pair):
        want = [ref.convert_element(c, pair.src, pair.dst, mode, sat) for c in codes]
        got = _core_bits(codes, pair, mode, sat)
        bad = [(hex(c), hex(g), hex(w)) for c, g, w in zip(codes, got, want, strict=True) if g != w]
        assert not bad, (element_seed, mode, sat, bad[:5])


def _edges(src: Any, dst: Any) -> list[int]:
    """Float codes around every destination code: specials, the midpoints and a dense sample.

    half -> hifloat8 (a bit-level reference, fast) takes every half code.
    """
    bits = 8 * src.size
    sample = np.random.default_rng(bits).integers(0, 1 << bits, 3000, dtype=np.uint64).tolist()
    if dst is hifloat8_t and bits == 16:
        sample = list(range(1 << 16))
    around = []
    for value in (*ref.decode_hif8_values(), 0.5, 1.5, 2.5, 3.5, 448.0, 464.0, 57344.0, 61440.0, 6.0,
                  7.0, 1.75, 1.875, 2.0**-22, 2.0**-23, 1.5 * 2.0**-23, 2.0**-24, 32768.0, 49152.0):  # fmt: skip
        if not np.isfinite(value):
            continue
        for sign in (1.0, -1.0):
            code = to_bits(np.array([sign * value]).astype(src.np_dtype))[0]
            around += [(code + d) % (1 << bits) for d in (-1, 0, 1)]
    specials = [
        0,
        1 << (bits - 1),
        to_bits(np.array([np.inf, -np.inf, np.nan]).astype(src.np_dtype)),
    ]
    return [*sample, *around, 0, 1 << (bits - 1), *specials[2]]


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("pair", [pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}") for p in SMALL_TARGETS
                                  if p.src in (half, bfloat16_t, float32_t)])  # fmt: skip
def test_floats_to_small_formats_on_their_edges(pair: CastPair) -> None:
    codes = _edges(pair.src, pair.dst)
    for mode, sat in _options(pair):
        want = [ref.convert_element(c, pair.src, pair.dst, mode, sat) for c in codes]
        got = _core_bits(codes, pair, mode, sat)
        bad = [(hex(c), hex(g), hex(w)) for c, g, w in zip(codes, got, want, strict=True) if g != w]
        assert not bad, (mode, sat, bad[:5])


NEAREST_EVEN = [
    pytest.param(p, id=f"{p.src.cpp_name}-{p.dst.cpp_name}")
    for p in CAST_PAIRS.values()
    if (p.src is float32_t and p.dst in (half, bfloat16_t))
    or (p.src in (int32_t, uint32_t) and p.dst in (half, float32_t))
]


def _finite_edges(src: Any, dst: Any) -> list[int]:
    """Source codes whose *dst* result is finite: a sample, subnormals, midpoints, the largest."""
    bits = 8 * src.size
    rng = np.random.default_rng(bits + dst.size)
    codes = rng.integers(0, 1 << bits, 1500, dtype=np.uint64).astype(f"u{src.size}")
    if src is float32_t:  # half's and bfloat16's subnormals and largest values, and midpoints
        edges = np.concatenate([np.arange(0x33000000, 0x38800000, 4099), np.arange(0x477FE000, 0x47800000, 7),
                                np.arange(0x7F7F0000, 0x7F800000, 31), np.arange(0, 1 << 23, 65537)])  # fmt: skip
        codes = np.concatenate([codes, edges.astype(np.uint32)])
        codes = np.concatenate([codes, codes | np.uint32(1 << 31)])
    values = from_bits(codes.tolist(), src)
    with np.errstate(all="ignore"):
        finite = np.isfinite(values.astype(np.float64).astype(dst.np_dtype))
    return [int(c) for c in codes[finite]]


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("pair", NEAREST_EVEN)
def test_finite_arrays_round_to_nearest_even_as_the_reference(pair: CastPair) -> None:
    """Arrays whose every result is finite: what numpy rounds in one call (``_nearest_even``)."""
    codes = _finite_edges(pair.src, pair.dst)
    for mode, sat in _options(pair):
        if mode not in (RoundMode.CAST_RINT, RoundMode.CAST_NONE, RoundMode.UNKNOWN):
            continue
        want = [ref.convert_element(c, pair.src, pair.dst, mode, sat) for c in codes]
        got = _core_bits(codes, pair, mode, sat)
        bad = [(hex(c), hex(g), hex(w)) for c, g, w in zip(codes, got, want, strict=True) if g != w]
        assert not bad, (mode, sat, bad[:5])


def test_hifloat8_codes_decode_as_the_format_says() -> None:
    assert core.HIF8_VALUES[0x08] == 1.0 and core.HIF8_VALUES[0x6E] == 32768.0
    assert np.isinf(core.HIF8_VALUES[0x6F]) and np.isnan(core.HIF8_VALUES[0x80])
    assert core.HIF8_VALUES[0x01] == 2.0**-22 and core.HIF8_VALUES[0x87] == -(2.0**-16)
    finite = core.HIF8_VALUES[np.isfinite(core.HIF8_VALUES) & (core.HIF8_VALUES > 0)]
    assert len(np.unique(finite)) == 126  # every positive code a distinct value


# ---- Truncate -----------------------------------------------------------------------------------


@pytest.mark.rows("Reg.Truncate")
@pytest.mark.parametrize("dtype", TRUNCATE_TYPES, ids=lambda d: d.cpp_name)
@pytest.mark.parametrize("mode", [RoundMode.CAST_NONE, *TRUNCATE_ROUNDS], ids=lambda m: m.name)
@settings(max_examples=5)
@given(data=st.data())
def test_truncate_matches_reference(dtype: Any, mode: RoundMode, data: Any) -> None:
    lanes = 256 // dtype.size
    values = _random_lanes(data, dtype, lanes)
    bits = data.draw(mask_bits())
    dst = new_reg(dtype)
    Reg.Truncate[dtype, mode](dst, make_reg(dtype, values), make_mask(bits))
    actual = RoundMode.CAST_RINT if mode is RoundMode.CAST_NONE else mode
    want = [
        ref.truncate_element(v, dtype, actual) if bits[i * dtype.size] else 0
        for i, v in enumerate(values)
    ]
    assert reg_bits(dst) == want


# ---- the C++ compile-time rules -----------------------------------------------------------------


def test_cast_rejects_what_cpp_rejects() -> None:
    h, i32 = make_reg(half, [0] * 128), new_reg(int32_t)
    mask = Reg.CreateMask[half]()
    with pytest.raises(IllegalDtypeError):
        Reg.Cast(new_reg(int8_t), make_reg(int32_t, [0] * 64), mask)
    with pytest.raises(TemplateMismatchError, match="U=float"):
        Reg.Cast[int32_t, float32_t](i32, h, mask)
    with pytest.raises(AscregTypeError, match=r"RegLayout\.TWO"):
        Reg.Cast[int32_t, half, CastTrait(RegLayout.TWO)](i32, h, mask)
    with pytest.raises(UnsupportedError, match="CAST_ODD"):
        Reg.Cast[int32_t, half, CastTrait(roundMode=RoundMode.CAST_ODD)](i32, h, mask)
    with pytest.raises(AscregTypeError, match="MERGING"):
        Reg.Cast[int32_t, half, CastTrait(RegLayout.ONE, mrgMode=MaskMergeMode.MERGING)](
            i32, h, mask
        )
    with pytest.raises(AscregTypeError, match="MERGING"):
        Reg.Cast[half, int4x2_t, CastTrait(mrgMode=MaskMergeMode.MERGING)](
            new_reg(half), make_reg(int4x2_t, [0] * 256), mask
        )
    with pytest.raises(UnsupportedError, match="MERGING"):
        Reg.Truncate[half, RoundMode.CAST_RINT, MaskMergeMode.MERGING](new_reg(half), h, mask)
    with pytest.raises(UnsupportedError, match="CAST_ODD"):
        Reg.Truncate[half, RoundMode.CAST_ODD](new_reg(half), h, mask)


def test_cast_documented_cases() -> None:
    """The page's own examples: half 257 -> uint8 is 1 unsaturated, 255 saturated; -inf is 0."""
    src = make_reg(half, to_bits(np.array([257.0, -np.inf, np.nan, 2.5] * 32, np.float16)))
    mask = Reg.CreateMask[half]()
    for sat, want in ((SatMode.NO_SAT, [1, 0, 0, 2]), (SatMode.SAT, [255, 0, 0, 2])):
        dst = new_reg(uint8_t)
        Reg.Cast[uint8_t, half, CastTrait(RegLayout.ZERO, sat)](dst, src, mask)
        assert np.asarray(dst)[0:8:2].tolist() == want
    # int32 256 -> uint8 keeps the low bits (the page's example)
    Reg.Cast[uint8_t, int32_t, CastTrait(RegLayout.ZERO, SatMode.NO_SAT)](
        dst := new_reg(uint8_t), make_reg(int32_t, [256] * 64), Reg.CreateMask[int32_t]()
    )
    assert int(np.asarray(dst)[0]) == 0
    e4 = new_reg(fp8_e4m3fn_t)
    Reg.Cast[
        fp8_e4m3fn_t, float32_t, CastTrait(satMode=SatMode.NO_SAT, roundMode=RoundMode.CAST_RINT)
    ](
        e4,
        make_reg(float32_t, to_bits(np.full(64, np.inf, np.float32))),
        Reg.CreateMask[float32_t](),
    )
    assert np.isnan(np.asarray(e4)[0].astype(np.float32))  # no inf in e4m3fn: NaN
    e5 = new_reg(fp8_e5m2_t)
    Reg.Cast[fp8_e5m2_t, float32_t, CastTrait(satMode=SatMode.SAT)](
        e5,
        make_reg(float32_t, to_bits(np.full(64, np.nan, np.float32))),
        Reg.CreateMask[float32_t](),
    )
    assert float(np.asarray(e5)[0].astype(np.float32)) == 0.0  # saturated NaN is 0
    hif8 = new_reg(hifloat8_t)
    Reg.Cast[hifloat8_t, float32_t, CastTrait(satMode=SatMode.SAT, roundMode=RoundMode.CAST_ROUND)](
        hif8,
        make_reg(float32_t, to_bits(np.full(64, 1e9, np.float32))),
        Reg.CreateMask[float32_t](),
    )
    assert int(np.asarray(hif8)[0]) == 0x6E


@pytest.mark.rows("Reg.MulsCast")
@pytest.mark.parametrize("layout", [RegLayout.ZERO, RegLayout.ONE], ids=lambda m: m.name)
@settings(max_examples=10)
@given(data=st.data())
def test_muls_cast_matches_reference(layout: RegLayout, data: Any) -> None:
    values = _random_lanes(data, float32_t, 64)
    scalar = data.draw(st.sampled_from([0x3F800000, 0x40490FDB, 0xC2C80000, 0x7F000000, 0x00000001,
                                        0x7F800000, 0x7FC00000, 0x80000000, 0x3A83126F]))  # fmt: skip
    bits = data.draw(mask_bits())
    dst = new_reg(half)
    value = from_bits([scalar], float32_t)[0]
    Reg.MulsCast[half, float32_t, float32_t, layout](
        dst, make_reg(float32_t, values), value, make_mask(bits)
    )
    assert reg_bits(dst) == ref.muls_cast_register(values, scalar, bits, layout.value)


def test_muls_cast_rejects_other_layouts() -> None:
    with pytest.raises(AscregTypeError, match="ZERO and ONE"):
        Reg.MulsCast[half, float32_t, float32_t, RegLayout.TWO](
            new_reg(half), make_reg(float32_t, [0] * 64), 1.0, Reg.CreateMask[float32_t]()
        )
    assert Reg.FusedMulsCast is Reg.MulsCast

"""ShiftLeft/ShiftRight (vector counts) and ShiftLefts/ShiftRights (int16_t scalar count)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import Reg, int16_t
from ascreg._spec import SPECS
from reference.common import elements, first_difference, width, zeroing
from reference.masks import mask_to_lanes
from reference.shifts import shift_left, shift_right, vector_shift_count
from strategies import (
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    new_reg,
    reg_bits,
    trait_id,
    traits_for,
)


def _params(op: str) -> list[Any]:
    out = []
    for data, count in SPECS[op].combos:
        for two in traits_for(data):
            out.append(
                pytest.param(
                    data, count, two, id=f"{data.cpp_name}-{count.cpp_name}-{trait_id(two)}"
                )
            )
    return out


@st.composite
def vector_counts(draw: Any, data: Any, count: Any, active: list[bool]) -> list[int]:
    """Count-register bit patterns: non-negative in active lanes (boundaries 0, 1, w-1, w, w+1,
    2w, the type max, or anything in [0, w+2]), anything (negative too) in masked-off lanes.
    b64 counts may carry a high word: the whole int64 counts (2**32 is a large count, not 0)."""
    w, cw = width(data), width(count)
    top = (1 << (min(cw, 32) - 1)) - 1
    picks = [0, 1, w - 1, w, w + 1, 2 * w, top]
    junk = [0, 0, 1, 0x7FFFFFFF, 0x80]  # non-negative high words
    lanes = len(active)
    raw = draw(st.binary(min_size=3 * lanes, max_size=3 * lanes))
    anything = elements(
        draw(st.binary(min_size=lanes * cw // 8, max_size=lanes * cw // 8)), 0, lanes, cw // 8
    )
    out = []
    for i, on in enumerate(active):
        if not on:
            out.append(anything[i])
            continue
        a, b, c = raw[3 * i : 3 * i + 3]
        n = picks[a % len(picks)] if b & 1 else a % (w + 3)
        if cw == 64:
            n |= junk[c % len(junk)] << 32
        out.append(n)
    return out


@pytest.mark.rows("Reg.ShiftRight", "Reg.ShiftLeft")
@pytest.mark.parametrize("left", [False, True], ids=["ShiftRight", "ShiftLeft"])
@pytest.mark.parametrize(("data", "count", "two"), _params("Reg.ShiftRight"))
@given(st.data())
def test_vector_shift(left: bool, data: Any, count: Any, two: bool, draw: Any) -> None:
    lanes, stride = geometry(data, two)
    x = draw.draw(lane_bits(data, lanes))
    mbits = draw.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    n = draw.draw(vector_counts(data, count, active))
    dst = new_reg(data, two)
    op = Reg.ShiftLeft if left else Reg.ShiftRight
    op(dst, make_reg(data, x, two), make_reg(count, n, two), make_mask(mbits))
    lane = shift_left if left else shift_right
    want = zeroing(
        [
            lane(v, vector_shift_count(c, count), data) if a else 0
            for v, c, a in zip(x, n, active, strict=True)
        ],
        active,
    )
    got = reg_bits(dst)
    assert got == want, first_difference(got, want)


@pytest.mark.rows("Reg.ShiftRights", "Reg.ShiftLefts")
@pytest.mark.parametrize("left", [False, True], ids=["ShiftRights", "ShiftLefts"])
@pytest.mark.parametrize(("data", "count", "two"), _params("Reg.ShiftRights"))
@given(
    st.data(),
    st.one_of(st.sampled_from([0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 32767]),
              st.integers(0, 32767)),
)  # fmt: skip
def test_scalar_shift(left: bool, data: Any, count: Any, two: bool, draw: Any, n: int) -> None:
    assert count is int16_t
    lanes, stride = geometry(data, two)
    x = draw.draw(lane_bits(data, lanes))
    mbits = draw.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    dst = new_reg(data, two)
    op = Reg.ShiftLefts if left else Reg.ShiftRights
    op(dst, make_reg(data, x, two), n, make_mask(mbits))
    lane = shift_left if left else shift_right
    want = zeroing([lane(v, n, data) for v in x], active)
    got = reg_bits(dst)
    assert got == want, first_difference(got, want)


def test_documented_int16_examples() -> None:
    """The docs' examples: 0xAAAA >> 1 = 0xD555, >> 3 = 0xF555, << 1 = 0xD554, << 3 = 0xD550."""
    src = make_reg(int16_t, [0xAAAA] * 128)
    mask = Reg.CreateMask[int16_t]()
    out = new_reg(int16_t)
    for op, n, want in [
        (Reg.ShiftRights, 1, 0xD555),
        (Reg.ShiftRights, 3, 0xF555),
        (Reg.ShiftLefts, 1, 0xD554),
        (Reg.ShiftLefts, 3, 0xD550),
    ]:
        op(out, src, n, mask)
        assert reg_bits(out)[0] == want, (op, n)


def test_template_arguments_accepted() -> None:
    from ascreg import MaskMergeMode, uint16_t

    src = make_reg(uint16_t, [0x8000] * 128)
    out = new_reg(uint16_t)
    Reg.ShiftRights[uint16_t, int16_t, MaskMergeMode.ZEROING](
        out, src, 15, Reg.CreateMask[uint16_t]()
    )
    assert set(reg_bits(out)) == {1}


@pytest.mark.parametrize("two", [False, True], ids=["TraitOne", "TraitTwo"])
@pytest.mark.parametrize("left", [False, True], ids=["ShiftRight", "ShiftLeft"])
@pytest.mark.parametrize("data", ["int64_t", "uint64_t"])
@pytest.mark.parametrize("count", [2**31, 2**32, 2**32 + 1, 64, 65, 63])
def test_b64_count_is_the_whole_int64(data: str, left: bool, two: bool, count: int) -> None:
    """core.shifts.B64_COUNT_RULE: 2**32 is a count above the width (0), not a shift by 0, and
    2**31 is not negative; the reference (vector_shift_count) reads the whole lane too."""
    import ascreg
    from ascreg import int64_t

    dtype = getattr(ascreg, data)
    lanes, _ = geometry(dtype, two)
    x = [(1 << 63) | 5] * lanes  # negative for int64: the right shift sign-fills
    op = Reg.ShiftLeft if left else Reg.ShiftRight
    dst = new_reg(dtype, two)
    op(dst, make_reg(dtype, x, two), make_reg(int64_t, [count] * lanes, two), make_mask([1] * 256))
    lane = shift_left if left else shift_right
    n = vector_shift_count(count, int64_t)
    assert n == count
    assert reg_bits(dst) == [lane(v, n, dtype) for v in x]


@pytest.mark.parametrize("left", [False, True], ids=["ShiftRight", "ShiftLeft"])
def test_b64_negative_count_is_an_error(left: bool) -> None:
    from ascreg import int64_t
    from ascreg.errors import NegativeShiftError

    op = Reg.ShiftLeft if left else Reg.ShiftRight
    counts = make_reg(int64_t, [(1 << 64) - (1 << 32)] * 32)  # low word 0, value -2**32
    with pytest.raises(NegativeShiftError, match=r"-4294967296 is negative"):
        op(new_reg(int64_t), make_reg(int64_t, [1] * 32), counts, Reg.CreateMask[int64_t]())


@pytest.mark.parametrize("dtype", ["int8_t", "uint16_t", "int32_t", "uint64_t"])
def test_count_equal_to_the_width_gives_zero(dtype: str) -> None:
    """Where the documents disagree: 'greater than the width' (the pages) against the b64
    emulation that needs a shift by exactly 32 to give 0; ascreg decides >= (core.shifts)."""
    import ascreg

    t = getattr(ascreg, dtype)
    lanes, _ = geometry(t, False)
    src = make_reg(t, [1] * lanes)
    out = new_reg(t)
    Reg.ShiftLefts(out, src, t.bits, Reg.CreateMask[t]())
    assert set(reg_bits(out)) == {0}
    Reg.ShiftRights(out, make_reg(t, [(1 << t.bits) - 1] * lanes), t.bits, Reg.CreateMask[t]())
    assert set(reg_bits(out)) == ({(1 << t.bits) - 1} if t.kind.value == "int" else {0})

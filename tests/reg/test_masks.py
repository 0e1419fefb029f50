"""CreateMask, UpdateMask and the MaskReg ops against the scalar reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import MaskPattern, Ref, Reg, RegTraitNumOne, RegTraitNumTwo
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError
from reference.common import lane_count
from reference.masks import create_mask, mask_from_block, mask_op, mask_select, update_mask
from strategies import dtype_params, lane_bits, make_mask, make_reg, mask_bits, mask_list

CREATE = dtype_params(SPECS["Reg.CreateMask"].combos)
UPDATE = dtype_params(SPECS["Reg.UpdateMask"].combos)


def _trait(two: bool) -> Any:
    return RegTraitNumTwo if two else RegTraitNumOne


@pytest.mark.rows("Reg.CreateMask")
@pytest.mark.parametrize(("dtype", "two"), CREATE)
@pytest.mark.parametrize("pattern", list(MaskPattern), ids=lambda p: p.name)
def test_create_mask_every_pattern(dtype: Any, two: bool, pattern: MaskPattern) -> None:
    got = mask_list(Reg.CreateMask[dtype, pattern, _trait(two)]())
    assert got == create_mask(dtype, pattern.name, two)


def test_create_mask_b64_traitone_remaps_h_q() -> None:
    from ascreg import int64_t, uint64_t

    for dtype in (int64_t, uint64_t):
        h = Reg.CreateMask[dtype, MaskPattern.H]()
        q = Reg.CreateMask[dtype, MaskPattern.Q]()
        assert h == Reg.CreateMask[dtype, MaskPattern.VL16]()
        assert q == Reg.CreateMask[dtype, MaskPattern.VL8]()
        # TraitTwo: b32 format over 64 lanes, H = 32 lanes
        assert Reg.CreateMask[dtype, MaskPattern.H, RegTraitNumTwo]().count() == 32


COUNTS = st.one_of(
    st.sampled_from(
        [0, 1, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 320, 2**32 - 1]
    ),
    st.integers(0, 2**32 - 1),
    st.integers(0, 600),
)


@pytest.mark.rows("Reg.UpdateMask")
@pytest.mark.parametrize(("dtype", "two"), UPDATE)
@given(count=COUNTS, calls=st.integers(1, 4))
def test_update_mask_count_sequence(dtype: Any, two: bool, count: int, calls: int) -> None:
    box = Ref(count)
    want_count = count
    for _ in range(calls):
        got = mask_list(Reg.UpdateMask[dtype, _trait(two)](box))
        want, want_count = update_mask(dtype, want_count, two)
        assert got == want
        assert box.value == want_count


def test_update_mask_documented_example() -> None:
    from ascreg import uint16_t

    box = Ref(320)
    seen = []
    for _ in range(4):
        mask = Reg.UpdateMask[uint16_t](box)
        seen.append((mask.count(), box.value))
    assert seen == [(128, 192), (128, 64), (64, 0), (0, 0)]


OPS2 = ["And", "Or", "Xor"]


@pytest.mark.parametrize("op", OPS2)
@given(a=mask_bits(), b=mask_bits(), pred=mask_bits())
def test_mask_binary_ops(op: str, a: list[int], b: list[int], pred: list[int]) -> None:
    dst = Reg.MaskReg()
    getattr(Reg, op)(dst, make_mask(a), make_mask(b), make_mask(pred))
    assert mask_list(dst) == mask_op(op, a, b, pred)


@given(a=mask_bits(), pred=mask_bits())
def test_mask_not_and_move(a: list[int], pred: list[int]) -> None:
    dst = Reg.MaskReg()
    Reg.Not(dst, make_mask(a), make_mask(pred))
    assert mask_list(dst) == mask_op("Not", a, None, pred)
    Reg.Move(dst, make_mask(a), make_mask(pred))
    assert mask_list(dst) == mask_op("Move", a, None, pred)
    src = make_mask(a)
    Reg.Move(dst, src)
    assert mask_list(dst) == a
    src.bits()[:] = False  # a full Move is a copy, not an alias
    assert mask_list(dst) == a


@given(a=mask_bits(), b=mask_bits(), sel=mask_bits())
def test_mask_select(a: list[int], b: list[int], sel: list[int]) -> None:
    dst = Reg.MaskReg()
    Reg.Select(dst, make_mask(a), make_mask(b), make_mask(sel))
    assert mask_list(dst) == mask_select(a, b, sel)


@pytest.mark.parametrize("name", ["M3", "M4"])
def test_m3_m4_are_every_third_and_fourth_lane(name: str) -> None:
    """Where the documents disagree (docs/semantics.md): the C page says 'elements whose index
    is a multiple of 3/4', MaskReg.md only 'multiples of 3/4'; ascreg enables index % n == 0
    (core.masks.pattern_lanes), not the first largest-multiple-of-n lanes."""
    from ascreg import MaskPattern, uint32_t

    step = int(name[1])
    m = Reg.CreateMask[uint32_t, getattr(MaskPattern, name)]()
    assert np.flatnonzero(m.active(uint32_t)).tolist() == list(range(0, 64, step))


@pytest.mark.rows("Reg.MaskGenWithRegTensor")
@pytest.mark.parametrize(
    "dtype", SPECS["Reg.MaskGenWithRegTensor"].combos, ids=lambda c: c[0].cpp_name
)
@settings(max_examples=20)
@given(st.data())
def test_mask_gen_with_reg_tensor(dtype: Any, data: Any) -> None:
    (t,) = dtype
    values = data.draw(lane_bits(t, lane_count(t)))
    offset = data.draw(st.integers(0, 8 * t.size - 1))
    src, mask = make_reg(t, values), Reg.MaskReg()
    Reg.MaskGenWithRegTensor[t, offset](mask, src)
    raw = np.asarray(src).view(np.uint8).tobytes()
    assert mask_list(mask) == mask_from_block(raw, offset, t.size)
    with pytest.raises(AscregTypeError, match="offset"):
        Reg.MaskGenWithRegTensor[t, 8 * t.size](mask, src)

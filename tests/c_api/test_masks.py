"""Masks of the C API: asc_create_mask_b*/asc_update_mask_b* and the mask logic against the scalar
reference, masks copied from a vector's blocks, and the mask SPR."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import Ref, uint8_t, uint16_t, uint32_t
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError
from ascreg.machine.kernel import BlockContext, block
from reference.masks import PATTERNS, create_mask, part_mask, update_mask
from strategies import mask_list


@pytest.mark.rows("asc_copy")
@pytest.mark.parametrize(("dtype", "parts"), [(uint16_t, 16), (uint32_t, 32)])
def test_copy_mask_from_every_block_of_a_vector(dtype: Any, parts: int) -> None:
    rng = np.random.default_rng(7)
    src = C.vector_of(dtype)()
    src.set(rng.integers(0, 1 << (8 * dtype.size), src.lanes, dtype=np.uint64))
    dst = C.vector_bool()
    for part in range(parts):
        C.asc_copy(dst, src, part)
        assert dst.bits().tolist() == part_mask(np.asarray(src), part, dtype.size)


def test_copy_mask_from_vector_errors() -> None:
    dst = C.vector_bool()
    s16, s32 = C.vector_uint16_t(), C.vector_uint32_t()
    s16.set(1)
    s32.set(1)
    bad = C.vector_int16_t()
    bad.set(1)
    with pytest.raises(IllegalDtypeError, match=r"asc_copy: .*not vector_int16_t"):
        C.asc_copy(dst, bad, 0)
    with pytest.raises(AscregTypeError, match=r"part 16 is outside \[0, 15\]"):
        C.asc_copy(dst, s16, 16)
    with pytest.raises(AscregTypeError, match=r"part 32 is outside \[0, 31\]"):
        C.asc_copy(dst, s32, 32)
    with pytest.raises(AscregTypeError, match=r"part must be an int16_t"):
        C.asc_copy(dst, s32, True)
    with pytest.raises(AscregTypeError, match=r"takes a part: \(dst, src, part\)"):
        C.asc_copy(dst, s32)  # type: ignore[call-overload]
    with pytest.raises(AscregTypeError, match=r"takes \(dst, src, mask \| part\), got 4"):
        C.asc_copy(dst, s32, 0, 0)  # type: ignore[call-overload]


@pytest.mark.parametrize("width", ["b16", "b32"])
def test_mask_spr_is_all_ones_after_asc_init_and_unset_before(width: str) -> None:
    get = getattr(C, f"asc_get_mask_spr_{width}")
    with block(BlockContext()):
        with pytest.raises(
            AscregError, match=rf"asc_get_mask_spr_{width}: the mask SPR is read before asc_init"
        ):
            get()
        C.asc_init()
        assert get().bits().all()
    with pytest.raises(AscregError, match="no kernel is running"):
        get()


WIDTHS = [("b8", uint8_t), ("b16", uint16_t), ("b32", uint32_t)]


@pytest.mark.rows("asc_create_mask_b8", "asc_create_mask_b16", "asc_create_mask_b32")
@pytest.mark.parametrize(("width", "dtype"), WIDTHS, ids=[w for w, _ in WIDTHS])
@pytest.mark.parametrize("pattern", list(PATTERNS), ids=str)
def test_create_mask_every_pattern(width: str, dtype: Any, pattern: str) -> None:
    got = mask_list(getattr(C, f"asc_create_mask_{width}")(getattr(C, f"PAT_{pattern}")))
    assert got == create_mask(dtype, pattern)


@pytest.mark.rows("asc_update_mask_b8", "asc_update_mask_b16", "asc_update_mask_b32")
@pytest.mark.parametrize(("width", "dtype"), WIDTHS, ids=[w for w, _ in WIDTHS])
@given(count=st.one_of(st.integers(0, 600), st.integers(0, 2**32 - 1)), calls=st.integers(1, 4))
def test_update_mask_count_sequence(width: str, dtype: Any, count: int, calls: int) -> None:
    box, want_count = Ref(count), count
    for _ in range(calls):
        got = mask_list(getattr(C, f"asc_update_mask_{width}")(box))
        want, want_count = update_mask(dtype, want_count)
        assert got == want and box.value == want_count


@pytest.mark.parametrize("value", [True, 2.0], ids=["True", "2.0"])
def test_update_mask_count_must_be_an_integer(value: Any) -> None:
    count = Ref(value)
    with pytest.raises(AscregTypeError, match=r"^asc_update_mask_b16: count .* is not a uint32_t"):
        C.asc_update_mask_b16(count)
    assert count.value is value

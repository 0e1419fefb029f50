"""Masks of the C API: asc_create_mask_b*/asc_update_mask_b* and the mask logic against the scalar
reference, masks copied from a vector's blocks, and the mask SPR."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import uint16_t, uint32_t
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError
from ascreg.machine.kernel import BlockContext, block
from reference.masks import part_mask


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

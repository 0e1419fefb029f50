"""The per-form fast paths of eager C API calls: same results and same errors as the checked path.

A load, store or shift remembers the operand types of a plain call that passed every check
and skips the checks on the next call of that form; a changed form is checked again.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import Ref, UnifiedBuffer, half, uint16_t
from ascreg.c_api import (
    asc_loadalign,
    asc_shiftright,
    asc_storealign,
    asc_update_mask_b16,
    vector_bool,
    vector_int16_t,
    vector_uint16_t,
)
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    NegativeShiftError,
    UninitializedRegisterError,
)


def _buffers() -> tuple[object, object]:
    ub = UnifiedBuffer()
    p, q = ub.alloc(uint16_t, 256), ub.alloc(uint16_t, 256)
    p.write(np.arange(256))
    return p, q


def test_load_store_cached_form_then_changed_form() -> None:
    p, q = _buffers()
    r = vector_uint16_t()
    mask = asc_update_mask_b16(Ref(100))
    for _ in range(2):  # the second round runs the cached forms
        asc_loadalign(r, p + 128)
        asc_storealign(q, r, mask)
    assert np.array_equal(q.read(128), np.where(np.arange(128) < 100, np.arange(128, 256), 0))
    with pytest.raises(AscregTypeError, match="the pointer is __ubuf__ half"):
        asc_loadalign(r, p.cast(half))
    with pytest.raises(AscregTypeError, match="the pointer is __ubuf__ half"):
        asc_storealign(q.cast(half), r, mask)
    with pytest.raises(AlignmentError):
        asc_loadalign(r, p + 1)
    with pytest.raises(AlignmentError):
        asc_storealign(q + 1, r, mask)
    with pytest.raises(UninitializedRegisterError):
        asc_storealign(q, vector_uint16_t(), mask)
    with pytest.raises(UninitializedRegisterError, match="MaskReg"):
        asc_storealign(q, r, vector_bool())


def test_shift_cached_form_keeps_its_errors() -> None:
    values, out, counts = vector_uint16_t(), vector_uint16_t(), vector_int16_t()
    values.set(np.arange(128))
    counts.set(np.full(128, 2))
    mask = asc_update_mask_b16(Ref(128))
    asc_shiftright(out, values, counts, mask)
    asc_shiftright(out, values, counts, mask)
    assert np.array_equal(out.get(), np.arange(128, dtype=np.uint16) >> 2)
    counts.set(np.full(128, -2))
    with pytest.raises(NegativeShiftError):
        asc_shiftright(out, values, counts, mask)
    with pytest.raises(AscregTypeError):
        asc_shiftright(out, values, counts, None)


def test_update_mask_b16_bits_and_count() -> None:
    count = Ref(300)
    masks = [asc_update_mask_b16(count) for _ in range(3)]
    assert [m.count() for m in masks] == [128, 128, 44] and count.value == 0
    assert isinstance(masks[0], vector_bool)
    with pytest.raises(AscregTypeError, match="not a uint32_t value"):
        asc_update_mask_b16(Ref(-1))

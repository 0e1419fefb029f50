"""First-contact mistakes get errors that name the call and the fix (issue 30)."""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import Ref, Reg, StoreDist, UnifiedBuffer, float32_t, half, int8_t, int16_t
from ascreg.errors import AscregTypeError, OutOfBoundsError


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d: Reg.Abs(d), r"^Reg\.Abs\(\) missing 2 required positional arguments: 'src' and 'mask'"),
        (lambda d: Reg.Add(d, d), r"^Reg\.Add\(\) missing 2 required"),
        (lambda d: Reg.Cast[float32_t, half](d), r"^Reg\.Cast\(\) missing 2 required"),
        (lambda d: Reg.Duplicate(d), r"^Reg\.Duplicate: missing 1 required positional argument: 'scalar' \(the call is ``Duplicate\(dst, scalar"),
        (lambda d: Reg.Duplicate(d, 1, 2, 3, 4), r"^Reg\.Duplicate: takes from 2 to 3 positional arguments but 5 were given"),
        (lambda d: C.asc_abs(C.vector_half()), r"^asc_abs\(\) missing 2 required"),
    ],
    ids=["Abs", "Add", "Cast", "Duplicate-missing", "Duplicate-extra", "asc_abs"],
)  # fmt: skip
def test_a_missing_argument_names_the_op_not_its_implementation(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match=message) as info:
        call(Reg.RegTensor[half]())
    assert "_unary" not in str(info.value) and "binary_or_carry" not in str(info.value)
    if "Duplicate" in message:
        assert isinstance(info.value, AscregTypeError)


@pytest.mark.parametrize(
    ("wide", "narrow", "dist"),
    [(float32_t, half, "DIST_PACK_B32"), (int16_t, int8_t, "DIST_PACK_B16"),
     (float32_t, int8_t, "DIST_PACK4_B32")],
)  # fmt: skip
def test_a_plain_store_after_a_narrowing_cast_names_the_pack_store(
    wide: type, narrow: type, dist: str
) -> None:
    count = 256 // wide.size - 3  # type: ignore[attr-defined]
    ub = UnifiedBuffer()
    dst = ub.alloc(narrow, count)  # type: ignore[type-var]
    mask = Reg.UpdateMask[wide](Ref(count))
    reg = Reg.RegTensor[narrow]()
    reg.set(np.zeros(reg.lanes, narrow.np_dtype))  # type: ignore[attr-defined]
    with pytest.raises(OutOfBoundsError, match=rf"StoreDist\.{dist}\]\(dst, src, mask\)$") as info:
        Reg.StoreAlign(dst, reg, mask)
    assert str(info.value).startswith("Reg.StoreAlign: writes ")
    Reg.StoreAlign[narrow, getattr(StoreDist, dist)](dst, reg, mask)  # the fix works


def test_a_store_past_its_buffer_with_the_registers_own_mask_has_no_pack_hint() -> None:
    dst = UnifiedBuffer().alloc(half, 16)
    reg = Reg.RegTensor[half]()
    reg.set(np.zeros(128))
    with pytest.raises(OutOfBoundsError) as info:
        Reg.StoreAlign(dst, reg, Reg.CreateMask[half]())
    assert "DIST_PACK" not in str(info.value)


def test_the_pack_hint_survives_the_eager_fast_path() -> None:
    ub = UnifiedBuffer()
    wide_mask = Reg.UpdateMask[float32_t](Ref(61))
    reg = Reg.RegTensor[half]()
    reg.set(np.zeros(128))
    room = ub.alloc(half, 128)
    for _ in range(3):  # the same operand classes: later calls take the op's cached step
        Reg.StoreAlign(room, reg, wide_mask)
    with pytest.raises(OutOfBoundsError, match=r"StoreDist\.DIST_PACK_B32\]"):
        Reg.StoreAlign(ub.alloc(half, 61), reg, wide_mask)

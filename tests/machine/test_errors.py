"""One test per error rule: the error class, and a message naming the call, the value and the rule."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import (
    UB_BYTES,
    LoadDist,
    MaskDist,
    PostLiteral,
    Reg,
    StoreDist,
    UnifiedBuffer,
    float32_t,
    hifloat8_t,
    int16_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregWarning,
    CapacityError,
    IllegalDtypeError,
    NegativeShiftError,
    OutOfBoundsError,
    RefRequiredError,
    TemplateMismatchError,
    UninitializedRegisterError,
)


def _raises(
    error: type[Exception], call: str, *fragments: str
) -> Callable[[Callable[[], Any]], AscregError]:
    """Run a thunk; assert it raises *error* whose message starts with *call* and contains
    every fragment (the value and the rule)."""

    def check(thunk: Callable[[], Any]) -> AscregError:
        with pytest.raises(error) as info:
            thunk()
        message = str(info.value)
        assert message.startswith(f"{call}: "), message
        for fragment in fragments:
            assert re.search(fragment, message), (fragment, message)
        assert isinstance(info.value, AscregError)
        return info.value

    return check


@pytest.fixture
def ub() -> UnifiedBuffer:
    return UnifiedBuffer()


def _reg(dtype: Any, fill: int = 0) -> Any:
    reg = Reg.RegTensor[dtype]()
    reg.set(np.full(reg.lanes, fill, dtype=dtype.np_dtype))
    return reg


# -- memory ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dist", "element_offset", "need"),
    [
        ("DIST_NORM", 1, 32),
        ("DIST_US_B16", 8, 32),
        ("DIST_E2B_B16", 4, 16),
    ],
)
def test_misaligned_load_address(
    ub: UnifiedBuffer, dist: str, element_offset: int, need: int
) -> None:
    src = ub.alloc(uint16_t, 512)
    bad = src + element_offset
    _raises(AlignmentError, "Reg.LoadAlign", hex(bad.address), f"{need}-byte align", dist)(
        lambda: Reg.LoadAlign[uint16_t, LoadDist[dist]](Reg.RegTensor[uint16_t](), bad)
    )


def test_misaligned_store_and_mask_addresses(ub: UnifiedBuffer) -> None:
    dst = ub.alloc(uint8_t, 1024)
    _raises(AlignmentError, "Reg.StoreAlign", "0x10", "32-byte align", "DIST_NORM")(
        lambda: Reg.StoreAlign(dst + 16, _reg(uint8_t), Reg.CreateMask[uint8_t]())
    )
    _raises(AlignmentError, "Reg.LoadAlign", "0x8", "16-byte align", "DIST_US")(
        lambda: Reg.LoadAlign[uint8_t, MaskDist.DIST_US](Reg.MaskReg(), dst + 8)
    )


def test_misaligned_address_warn_policy_accesses_as_given(ub: UnifiedBuffer) -> None:
    src = ub.alloc(uint16_t, 256)
    src.write(np.arange(256))
    reg = Reg.RegTensor[uint16_t]()
    with ascreg.policy(undefined="warn"), pytest.warns(AscregWarning, match="32-byte aligned"):
        Reg.LoadAlign(reg, src + 1)
    assert np.asarray(reg)[:3].tolist() == [1, 2, 3]


def test_access_past_the_allocation(ub: UnifiedBuffer) -> None:
    small = ub.alloc(uint16_t, 64)  # a register needs 128 lanes
    _raises(
        OutOfBoundsError, "Reg.LoadAlign", "256 bytes", r"uint16_t\[64\]", "leaves the allocation"
    )(lambda: Reg.LoadAlign(Reg.RegTensor[uint16_t](), small))
    _raises(OutOfBoundsError, "Reg.StoreAlign", "256 bytes", "leaves the allocation")(
        lambda: Reg.StoreAlign(small, _reg(uint16_t), Reg.CreateMask[uint16_t]())
    )


def test_raw_pointer_past_248_kib(ub: UnifiedBuffer) -> None:
    raw = ub.pointer(uint8_t, UB_BYTES - 128)
    _raises(OutOfBoundsError, "Reg.LoadAlign", hex(UB_BYTES - 128), str(UB_BYTES), "leaves the")(
        lambda: Reg.LoadAlign(Reg.RegTensor[uint8_t](), raw)
    )


def test_allocation_beyond_248_kib(ub: UnifiedBuffer) -> None:
    ub.alloc(uint8_t, 1024)
    _raises(CapacityError, "UnifiedBuffer.alloc", "307200 bytes", str(UB_BYTES))(
        lambda: ub.alloc(uint8_t, 300 * 1024)
    )


# -- undefined behaviour ---------------------------------------------------------------------


@pytest.mark.parametrize("op", ["ShiftRights", "ShiftLefts"])
def test_negative_scalar_shift_count(op: str) -> None:
    src = _reg(uint16_t, 8)
    _raises(NegativeShiftError, f"Reg.{op}", "-3", "negative", "undefined")(
        lambda: getattr(Reg, op)(Reg.RegTensor[uint16_t](), src, -3, Reg.CreateMask[uint16_t]())
    )


def test_negative_vector_shift_count() -> None:
    counts = _reg(int16_t, -1)
    _raises(NegativeShiftError, "Reg.ShiftRight", "-1", "negative", "undefined")(
        lambda: Reg.ShiftRight(
            Reg.RegTensor[uint16_t](), _reg(uint16_t, 8), counts, Reg.CreateMask[uint16_t]()
        )
    )


def test_negative_shift_warn_policy_shifts_the_other_way() -> None:
    """Under ``undefined="warn"`` a negative count warns and shifts by |n| the other way."""
    src = _reg(uint16_t, 8)
    dst = Reg.RegTensor[uint16_t]()
    mask = Reg.CreateMask[uint16_t]()
    with ascreg.policy(undefined="warn"):
        with pytest.warns(AscregWarning, match=r"Reg\.ShiftRights: shift count -1"):
            Reg.ShiftRights(dst, src, -1, mask)
        assert set(np.asarray(dst).tolist()) == {16}
        with pytest.warns(AscregWarning, match=r"Reg\.ShiftLefts: shift count -2"):
            Reg.ShiftLefts(dst, src, -2, mask)
        assert set(np.asarray(dst).tolist()) == {2}
    assert ascreg.get_policy().undefined == "error"


def test_uninitialised_register_read() -> None:
    _raises(
        UninitializedRegisterError,
        "Reg.Add",
        r"RegTensor\[uint16_t\]",
        "before anything was written",
    )(
        lambda: Reg.Add(
            Reg.RegTensor[uint16_t](),
            Reg.RegTensor[uint16_t](),
            _reg(uint16_t),
            Reg.CreateMask[uint16_t](),
        )
    )


def test_uninitialised_mask_read() -> None:
    _raises(UninitializedRegisterError, "Reg.Select", "MaskReg", "before anything was written")(
        lambda: Reg.Select(Reg.RegTensor[uint16_t](), _reg(uint16_t), _reg(uint16_t), Reg.MaskReg())
    )


def test_uninitialised_read_warn_policy_reads_zeros() -> None:
    dst = Reg.RegTensor[uint16_t]()
    with ascreg.policy(undefined="warn"), pytest.warns(AscregWarning, match="before anything"):
        Reg.Add(dst, Reg.RegTensor[uint16_t](), _reg(uint16_t, 5), Reg.CreateMask[uint16_t]())
    assert set(np.asarray(dst).tolist()) == {5}


# -- types -----------------------------------------------------------------------------------


def test_template_dtype_does_not_match_register() -> None:
    src = _reg(uint16_t)
    _raises(
        TemplateMismatchError,
        "Reg.Add",
        "int16_t",
        r"RegTensor\[uint16_t\]",
        "T type is not correct",
    )(lambda: Reg.Add[int16_t](Reg.RegTensor[uint16_t](), src, src, Reg.CreateMask[uint16_t]()))


def test_template_dtype_mismatch_on_load(ub: UnifiedBuffer) -> None:
    src = ub.alloc(uint16_t, 128)
    _raises(TemplateMismatchError, "Reg.LoadAlign", "half", r"RegTensor\[uint16_t\]")(
        lambda: Reg.LoadAlign[ascreg.half](Reg.RegTensor[uint16_t](), src)
    )


def test_illegal_shift_dtype_pair() -> None:
    src, counts = _reg(uint16_t), _reg(uint16_t)
    _raises(
        IllegalDtypeError,
        "Reg.ShiftRight",
        "src=uint16_t, shift=uint16_t",
        r"legal: .*\(uint16_t, int16_t\)",
    )(lambda: Reg.ShiftRight(Reg.RegTensor[uint16_t](), src, counts, Reg.CreateMask[uint16_t]()))


def test_compare_on_a_raw_type() -> None:
    raw = _reg(hifloat8_t)
    _raises(IllegalDtypeError, "Reg.Compare", "T=hifloat8_t", "legal: int8_t")(
        lambda: Reg.Compare(Reg.MaskReg(), raw, raw, Reg.CreateMask[uint8_t]())
    )
    _raises(IllegalDtypeError, "Reg.Compare", "hifloat8_t", "legal")(
        lambda: Reg.Compare[hifloat8_t]
    )


def test_scalar_shift_count_must_be_int16() -> None:
    _raises(IllegalDtypeError, "Reg.ShiftRights", "scalar=int16_t|uint32_t", "legal")(
        lambda: Reg.ShiftRights[uint32_t, uint32_t]
    )


def test_update_mask_needs_a_ref() -> None:
    _raises(RefRequiredError, "Reg.UpdateMask", r"Ref\(5\)", "C\\+\\+ reference")(
        lambda: Reg.UpdateMask[uint16_t](5)
    )


def test_post_mode_update_needs_a_ref(ub: UnifiedBuffer) -> None:
    src = ub.alloc(uint16_t, 256)
    _raises(RefRequiredError, "Reg.LoadAlign", "POST_MODE_UPDATE", r"ascreg\.Ref\(")(
        lambda: Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](
            Reg.RegTensor[uint16_t](), src, 128
        )
    )
    _raises(RefRequiredError, "Reg.StoreAlign", "POST_MODE_UPDATE", r"ascreg\.Ref\(")(
        lambda: Reg.StoreAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](
            src, _reg(uint16_t), 128, Reg.CreateMask[uint16_t]()
        )
    )


@pytest.mark.parametrize(
    ("dist", "dtype", "fragment"),
    [
        ("DIST_BRC_B16", uint32_t, "16-bit elements, not 32-bit"),
        ("DIST_UNPACK_B8", uint16_t, "8-bit elements, not 16-bit"),
        ("DIST_E2B_B32", float32_t, None),  # legal: the control case
        ("DIST_DINTLV_B16", uint16_t, "dual"),  # a dual-only dist in the single form
    ],
)
def test_load_dist_width_mismatch(
    ub: UnifiedBuffer, dist: str, dtype: Any, fragment: str | None
) -> None:
    src = ub.alloc(dtype, 256)
    call = lambda: Reg.LoadAlign[dtype, LoadDist[dist]](Reg.RegTensor[dtype](), src)  # noqa: E731
    if fragment is None:
        call()
        return
    _raises(IllegalDtypeError, "Reg.LoadAlign", dist, fragment)(call)


def test_store_dist_width_mismatch(ub: UnifiedBuffer) -> None:
    dst = ub.alloc(uint32_t, 128)
    _raises(IllegalDtypeError, "Reg.StoreAlign", "DIST_PACK_B16", "16-bit elements, not 32-bit")(
        lambda: Reg.StoreAlign[uint32_t, StoreDist.DIST_PACK_B16](
            dst, _reg(uint32_t), Reg.CreateMask[uint32_t]()
        )
    )


@pytest.mark.parametrize(
    "dist", ["DIST_BDINTLV", "DIST_SPLT4CHN_B8", "DIST_SPLT2CHN_B8", "DIST_SPLT2CHN_B16"]
)
def test_rejected_load_dists(ub: UnifiedBuffer, dist: str) -> None:
    src = ub.alloc(uint8_t, 1024)
    _raises(IllegalDtypeError, "Reg.LoadAlign", dist, "dav-3510")(
        lambda: Reg.LoadAlign[uint8_t, LoadDist[dist]](Reg.RegTensor[uint8_t](), src)
    )


@pytest.mark.parametrize("dist", ["DIST_MRG4CHN_B8", "DIST_MRG2CHN_B8", "DIST_MRG2CHN_B16"])
def test_rejected_store_dists(ub: UnifiedBuffer, dist: str) -> None:
    dst = ub.alloc(uint8_t, 1024)
    _raises(IllegalDtypeError, "Reg.StoreAlign", dist, "dav-3510")(
        lambda: Reg.StoreAlign[uint8_t, StoreDist[dist]](
            dst, _reg(uint8_t), Reg.CreateMask[uint8_t]()
        )
    )


def test_trait_two_has_no_addr_reg_form(ub: UnifiedBuffer) -> None:
    from ascreg import MaskPattern, RegTraitNumTwo, int64_t

    ptr = ub.alloc(int64_t, 64)
    reg = Reg.RegTensor[int64_t, RegTraitNumTwo]()
    reg.set(np.zeros(64, dtype=np.int64))
    addr = Reg.CreateAddrReg[int64_t](0, 1)
    mask = Reg.CreateMask[int64_t, MaskPattern.ALL, RegTraitNumTwo]()
    rule = "AddrReg form takes RegTraitNumOne"
    _raises(
        ascreg.errors.AscregTypeError,
        "Reg.LoadAlign",
        r"RegTensor\[int64_t, RegTraitNumTwo\]",
        rule,
    )(lambda: Reg.LoadAlign(reg, ptr, addr))
    _raises(
        ascreg.errors.AscregTypeError,
        "Reg.StoreAlign",
        r"RegTensor\[int64_t, RegTraitNumTwo\]",
        rule,
    )(lambda: Reg.StoreAlign(ptr, reg, addr, mask))

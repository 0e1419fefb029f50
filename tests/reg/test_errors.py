"""One test per error rule of the Reg front end (dtypes, template arguments, Ref boxes, dists,
shift counts): the error class, and a message naming the call, the value and the rule."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import (
    LoadDist,
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
    AscregWarning,
    IllegalDtypeError,
    NegativeShiftError,
    RefRequiredError,
    TemplateMismatchError,
)
from helpers import filled_reg, raises_naming


@pytest.mark.parametrize("op", ["ShiftRights", "ShiftLefts"])
def test_negative_scalar_shift_count(op: str) -> None:
    src = filled_reg(uint16_t, 8)
    raises_naming(NegativeShiftError, f"Reg.{op}", "-3", "negative", "undefined")(
        lambda: getattr(Reg, op)(Reg.RegTensor[uint16_t](), src, -3, Reg.CreateMask[uint16_t]())
    )


def test_negative_vector_shift_count() -> None:
    counts = filled_reg(int16_t, -1)
    raises_naming(NegativeShiftError, "Reg.ShiftRight", "-1", "negative", "undefined")(
        lambda: Reg.ShiftRight(
            Reg.RegTensor[uint16_t](), filled_reg(uint16_t, 8), counts, Reg.CreateMask[uint16_t]()
        )
    )


def test_negative_shift_warn_policy_shifts_the_other_way() -> None:
    """Under ``undefined="warn"`` a negative count warns and shifts by |n| the other way."""
    src = filled_reg(uint16_t, 8)
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


def test_template_dtype_does_not_match_register() -> None:
    src = filled_reg(uint16_t)
    raises_naming(
        TemplateMismatchError,
        "Reg.Add",
        "int16_t",
        r"RegTensor\[uint16_t\]",
        "T type is not correct",
    )(lambda: Reg.Add[int16_t](Reg.RegTensor[uint16_t](), src, src, Reg.CreateMask[uint16_t]()))


def test_template_dtype_mismatch_on_load(ub: UnifiedBuffer) -> None:
    src = ub.alloc(uint16_t, 128)
    raises_naming(TemplateMismatchError, "Reg.LoadAlign", "half", r"RegTensor\[uint16_t\]")(
        lambda: Reg.LoadAlign[ascreg.half](Reg.RegTensor[uint16_t](), src)
    )


def test_illegal_shift_dtype_pair() -> None:
    src, counts = filled_reg(uint16_t), filled_reg(uint16_t)
    raises_naming(
        IllegalDtypeError,
        "Reg.ShiftRight",
        "src=uint16_t, shift=uint16_t",
        r"legal: .*\(uint16_t, int16_t\)",
    )(lambda: Reg.ShiftRight(Reg.RegTensor[uint16_t](), src, counts, Reg.CreateMask[uint16_t]()))


def test_compare_on_a_raw_type() -> None:
    raw = filled_reg(hifloat8_t)
    raises_naming(IllegalDtypeError, "Reg.Compare", "T=hifloat8_t", "legal: int8_t")(
        lambda: Reg.Compare(Reg.MaskReg(), raw, raw, Reg.CreateMask[uint8_t]())
    )
    raises_naming(IllegalDtypeError, "Reg.Compare", "hifloat8_t", "legal")(
        lambda: Reg.Compare[hifloat8_t]
    )


def test_scalar_shift_count_must_be_int16() -> None:
    raises_naming(IllegalDtypeError, "Reg.ShiftRights", "scalar=int16_t|uint32_t", "legal")(
        lambda: Reg.ShiftRights[uint32_t, uint32_t]
    )


def test_update_mask_needs_a_ref() -> None:
    raises_naming(RefRequiredError, "Reg.UpdateMask", r"Ref\(5\)", "C\\+\\+ reference")(
        lambda: Reg.UpdateMask[uint16_t](5)
    )


def test_post_mode_update_needs_a_ref(ub: UnifiedBuffer) -> None:
    src = ub.alloc(uint16_t, 256)
    raises_naming(RefRequiredError, "Reg.LoadAlign", "POST_MODE_UPDATE", r"ascreg\.Ref\(")(
        lambda: Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](
            Reg.RegTensor[uint16_t](), src, 128
        )
    )
    raises_naming(RefRequiredError, "Reg.StoreAlign", "POST_MODE_UPDATE", r"ascreg\.Ref\(")(
        lambda: Reg.StoreAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](
            src, filled_reg(uint16_t), 128, Reg.CreateMask[uint16_t]()
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
    raises_naming(IllegalDtypeError, "Reg.LoadAlign", dist, fragment)(call)


def test_store_dist_width_mismatch(ub: UnifiedBuffer) -> None:
    dst = ub.alloc(uint32_t, 128)
    raises_naming(
        IllegalDtypeError, "Reg.StoreAlign", "DIST_PACK_B16", "16-bit elements, not 32-bit"
    )(
        lambda: Reg.StoreAlign[uint32_t, StoreDist.DIST_PACK_B16](
            dst, filled_reg(uint32_t), Reg.CreateMask[uint32_t]()
        )
    )


@pytest.mark.parametrize(
    "dist", ["DIST_BDINTLV", "DIST_SPLT4CHN_B8", "DIST_SPLT2CHN_B8", "DIST_SPLT2CHN_B16"]
)
def test_rejected_load_dists(ub: UnifiedBuffer, dist: str) -> None:
    src = ub.alloc(uint8_t, 1024)
    raises_naming(IllegalDtypeError, "Reg.LoadAlign", dist, "dav-3510")(
        lambda: Reg.LoadAlign[uint8_t, LoadDist[dist]](Reg.RegTensor[uint8_t](), src)
    )


@pytest.mark.parametrize("dist", ["DIST_MRG4CHN_B8", "DIST_MRG2CHN_B8", "DIST_MRG2CHN_B16"])
def test_rejected_store_dists(ub: UnifiedBuffer, dist: str) -> None:
    dst = ub.alloc(uint8_t, 1024)
    raises_naming(IllegalDtypeError, "Reg.StoreAlign", dist, "dav-3510")(
        lambda: Reg.StoreAlign[uint8_t, StoreDist[dist]](
            dst, filled_reg(uint8_t), Reg.CreateMask[uint8_t]()
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
    raises_naming(
        ascreg.errors.AscregTypeError,
        "Reg.LoadAlign",
        r"RegTensor\[int64_t, RegTraitNumTwo\]",
        rule,
    )(lambda: Reg.LoadAlign(reg, ptr, addr))
    raises_naming(
        ascreg.errors.AscregTypeError,
        "Reg.StoreAlign",
        r"RegTensor\[int64_t, RegTraitNumTwo\]",
        rule,
    )(lambda: Reg.StoreAlign(ptr, reg, addr, mask))


@pytest.mark.parametrize(
    "value",
    [True, False, 2.0, 1.5, "abc", None],
    ids=["True", "False", "2.0", "1.5", "str", "None"],
)
def test_update_mask_count_must_be_an_integer(value: Any) -> None:
    """A bool, a float or a string in the ``uint32_t&`` count is refused (the call, the value,
    the rule), not read as 1/0 or truncated."""
    from ascreg import Ref, uint16_t
    from ascreg.errors import AscregTypeError

    count = Ref(value)
    with pytest.raises(
        AscregTypeError,
        match=r"^Reg.UpdateMask: count must be an integer in \[0, 4294967295\] "
        rf"\(a uint32_t value\), got {type(value).__name__} {re.escape(repr(value))}",
    ):
        Reg.UpdateMask[uint16_t](count)
    assert count.value is value

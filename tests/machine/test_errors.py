"""One test per error rule of the machine (UB alignment, bounds and capacity, uninitialised reads):
the error class, and a message naming the call, the value and the rule."""

from __future__ import annotations

import numpy as np
import pytest

import ascreg
from ascreg import UB_BYTES, LoadDist, MaskDist, Reg, UnifiedBuffer, uint8_t, uint16_t
from ascreg.errors import (
    AlignmentError,
    AscregWarning,
    CapacityError,
    OutOfBoundsError,
    UninitializedRegisterError,
)
from helpers import filled_reg, raises_naming

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
    raises_naming(AlignmentError, "Reg.LoadAlign", hex(bad.address), f"{need}-byte align", dist)(
        lambda: Reg.LoadAlign[uint16_t, LoadDist[dist]](Reg.RegTensor[uint16_t](), bad)
    )


def test_misaligned_store_and_mask_addresses(ub: UnifiedBuffer) -> None:
    dst = ub.alloc(uint8_t, 1024)
    raises_naming(AlignmentError, "Reg.StoreAlign", "0x10", "32-byte align", "DIST_NORM")(
        lambda: Reg.StoreAlign(dst + 16, filled_reg(uint8_t), Reg.CreateMask[uint8_t]())
    )
    raises_naming(AlignmentError, "Reg.LoadAlign", "0x8", "16-byte align", "DIST_US")(
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
    raises_naming(
        OutOfBoundsError, "Reg.LoadAlign", "256 bytes", r"uint16_t\[64\]", "leaves the allocation"
    )(lambda: Reg.LoadAlign(Reg.RegTensor[uint16_t](), small + 64))  # starts past the end
    raises_naming(OutOfBoundsError, "Reg.StoreAlign", "256 bytes", "leaves the allocation")(
        lambda: Reg.StoreAlign(small, filled_reg(uint16_t), Reg.CreateMask[uint16_t]())
    )


def test_raw_pointer_past_248_kib(ub: UnifiedBuffer) -> None:
    raw = ub.pointer(uint8_t, UB_BYTES - 128)
    raises_naming(
        OutOfBoundsError, "Reg.LoadAlign", hex(UB_BYTES - 128), str(UB_BYTES), "leaves the"
    )(lambda: Reg.LoadAlign(Reg.RegTensor[uint8_t](), raw))


def test_allocation_beyond_248_kib(ub: UnifiedBuffer) -> None:
    ub.alloc(uint8_t, 1024)
    raises_naming(CapacityError, "UnifiedBuffer.alloc", "307200 bytes", str(UB_BYTES))(
        lambda: ub.alloc(uint8_t, 300 * 1024)
    )


# -- undefined behaviour ---------------------------------------------------------------------


def test_uninitialised_register_read() -> None:
    raises_naming(
        UninitializedRegisterError,
        "Reg.Add",
        r"RegTensor\[uint16_t\]",
        "before anything was written",
    )(
        lambda: Reg.Add(
            Reg.RegTensor[uint16_t](),
            Reg.RegTensor[uint16_t](),
            filled_reg(uint16_t),
            Reg.CreateMask[uint16_t](),
        )
    )


def test_uninitialised_mask_read() -> None:
    raises_naming(
        UninitializedRegisterError, "Reg.Select", "MaskReg", "before anything was written"
    )(
        lambda: Reg.Select(
            Reg.RegTensor[uint16_t](), filled_reg(uint16_t), filled_reg(uint16_t), Reg.MaskReg()
        )
    )


def test_uninitialised_read_warn_policy_reads_zeros() -> None:
    dst = Reg.RegTensor[uint16_t]()
    with ascreg.policy(undefined="warn"), pytest.warns(AscregWarning, match="before anything"):
        Reg.Add(dst, Reg.RegTensor[uint16_t](), filled_reg(uint16_t, 5), Reg.CreateMask[uint16_t]())
    assert set(np.asarray(dst).tolist()) == {5}

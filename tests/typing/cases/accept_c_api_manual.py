"""Hand-written C API type tests that must type-check: the seed programs' shapes (never run)."""

from typing import assert_type

from ascreg import (
    GlobalMemory,
    GmPtr,
    Ref,
    UbPtr,
    UnifiedBuffer,
    int16_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.c_api import (
    PAT_ALL,
    PAT_VL16,
    __simd_vf__,
    asc_and,
    asc_create_mask_b16,
    asc_duplicate_scalar,
    asc_eq,
    asc_gt_scalar,
    asc_loadalign,
    asc_loadalign_postupdate,
    asc_select,
    asc_shiftright,
    asc_shiftright_scalar,
    asc_storealign,
    asc_storealign_postupdate,
    asc_update_mask_b32,
    vector_bool,
    vector_int16_t,
    vector_uint16_t,
    vector_uint32_t,
)
from ascreg.machine.registers import MaskReg, RegTensor


@__simd_vf__
def shiftright_vf(output: UbPtr[uint16_t], input: UbPtr[uint16_t], shift: UbPtr[int16_t]) -> None:
    """The asc_shiftright seed's VF function, as ascreg.examples.asc_shiftright writes it."""
    src = vector_uint16_t()
    shift_reg = vector_int16_t()
    mask = asc_create_mask_b16(PAT_ALL)
    asc_loadalign(src, input)
    asc_loadalign(shift_reg, shift)
    dst = asc_shiftright(src, shift_reg, mask)  # the value-returning form
    assert_type(dst, vector_uint16_t)
    asc_storealign(output, dst, mask)
    assert_type(
        vector_uint16_t(shift_reg), vector_uint16_t
    )  # the C cast (vector_uint16_t)shift_reg


def shiftright_reference_vf(output: UbPtr[uint16_t], input: UbPtr[uint16_t]) -> None:
    """The reference-output form: asc_shiftright(vector_uint16_t& dst, ...)."""
    src, dst, shift = vector_uint16_t(), vector_uint16_t(), vector_int16_t()
    mask = asc_create_mask_b16(PAT_VL16)
    asc_loadalign(src, input)
    assert_type(asc_shiftright(dst, src, shift, mask), None)
    assert_type(asc_shiftright_scalar(src, 3, mask), vector_uint16_t)
    asc_storealign(output, dst, mask)


def tail_vf(dst: UbPtr[uint32_t], src: UbPtr[uint32_t], count: int) -> None:
    """ascreg.examples.c_api_tail's VF loop: update masks, scalar forms, select."""
    remaining = Ref(count)
    x, low_bits, ff, out = (
        vector_uint32_t(),
        vector_uint32_t(),
        vector_uint32_t(),
        vector_uint32_t(),
    )
    big = vector_bool()
    for i in range(16):
        mask = asc_update_mask_b32(remaining)
        asc_loadalign(x, src + i * 64)
        shifted = asc_shiftright_scalar(x, 3, mask)
        asc_duplicate_scalar(ff, 0xFF, mask)
        asc_and(low_bits, x, ff, mask)
        asc_gt_scalar(big, x, 1000, mask)
        asc_select(out, low_bits, shifted, big)
        asc_storealign(dst + i * 64, out, mask)


def main() -> None:
    ub, gm = UnifiedBuffer(), GlobalMemory()
    x = ub.alloc(uint16_t, 256)
    assert_type(ub.pointer(uint16_t, 64), UbPtr[uint16_t])  # precise pointer classes
    assert_type(gm.pointer(uint16_t, 512), GmPtr[uint16_t])
    m = asc_create_mask_b16(PAT_ALL)
    assert_type(m, vector_bool)
    a, b = vector_uint16_t(), vector_uint16_t()
    asc_eq(vector_bool(), a, b, m)

    # Parameters take what the runtime takes: any RegTensor[T] / MaskReg, not only vector_*.
    r = RegTensor[uint16_t]()
    asc_eq(MaskReg(), r, a, m)
    assert_type(asc_shiftright(r, vector_int16_t(), m), vector_uint16_t)

    # Post-update addressing takes the pointer by reference (Ref); vector_bool through uint8_t*.
    cursor = Ref(x)
    asc_loadalign_postupdate(a, cursor, 128)
    asc_storealign_postupdate(cursor, a, 128, m)
    asc_loadalign(vector_bool(), ub.alloc(uint8_t, 32))
    shiftright_vf(x, x, ub.alloc(int16_t, 128))
    shiftright_reference_vf(x, x)
    tail_vf(ub.alloc(uint32_t, 1024), ub.alloc(uint32_t, 1024), 1000)

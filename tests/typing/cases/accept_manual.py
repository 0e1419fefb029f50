"""Hand-written type tests that must type-check: the tricky spellings (never run)."""

from typing import assert_type

import numpy as np

from ascreg import (
    CMPMODE,
    GlobalMemory,
    GmPtr,
    LoadDist,
    MaskMergeMode,
    MaskPattern,
    PostLiteral,
    Ref,
    Reg,
    RegTraitNumTwo,
    StoreDist,
    UbPtr,
    UnifiedBuffer,
    float32_t,
    half,
    int16_t,
    int64_t,
    uint16_t,
    uint32_t,
)
from ascreg.machine.registers import MaskReg, RegTensor


def select_vf(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], count: int) -> None:
    """The README kernel, annotated as a user would."""
    one_repeat = 128
    a, b, out, eq = (
        Reg.RegTensor[half](),
        Reg.RegTensor[half](),
        Reg.RegTensor[half](),
        Reg.MaskReg(),
    )
    remaining = Ref(count)
    for i in range(2):
        mask = Reg.UpdateMask[half](remaining)
        Reg.LoadAlign(a, src0 + i * one_repeat)
        Reg.LoadAlign(b, src1 + i * one_repeat)
        Reg.Compare[half, CMPMODE.EQ](eq, a, b, mask)
        Reg.Select(out, a, b, eq)
        Reg.StoreAlign(dst + i * one_repeat, out, mask)


def main() -> None:
    ub, gm = UnifiedBuffer(), GlobalMemory()
    x = ub.alloc(uint16_t, 256)
    assert_type(x, UbPtr[uint16_t])
    assert_type(x + 16, UbPtr[uint16_t])  # pointer arithmetic keeps the pointer type
    assert_type(16 + x, UbPtr[uint16_t])
    assert_type(gm.alloc(float32_t, 8), GmPtr[float32_t])
    x.write(np.arange(256))

    # Template subscripts: dtype alone, dtype + enum, and the deduced form.
    r, s, n = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t]()
    m = Reg.CreateMask[uint16_t, MaskPattern.VL16]()
    assert_type(m, MaskReg)
    Reg.ShiftRight[uint16_t](r, s, n, m)
    Reg.ShiftRight[uint16_t, int16_t](r, s, n, m)
    Reg.ShiftRights(r, s, 3, m)
    Reg.Compares[uint16_t, CMPMODE.LT](m, r, 7, m)

    # Ref: UpdateMask's uint32_t& and LoadAlign/StoreAlign post-update's T*&.
    count = Ref(300)
    assert_type(Reg.UpdateMask[uint16_t](count), MaskReg)
    cursor = Ref(x)
    Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](r, cursor, 128)
    Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE, LoadDist.DIST_NORM](r, cursor, 128)
    Reg.StoreAlign[uint16_t, PostLiteral.POST_MODE_UPDATE, StoreDist.DIST_NORM](cursor, r, 128, m)
    Reg.LoadAlign[uint16_t, LoadDist.DIST_BRC_B16](r, x + 5)
    assert_type(cursor.value, UbPtr[uint16_t])

    # RegTraitNumTwo: 64 int64 lanes over two registers; masks and ops follow the trait.
    a2, b2 = Reg.RegTensor[int64_t, RegTraitNumTwo](), Reg.RegTensor[int64_t, RegTraitNumTwo]()
    assert_type(a2, RegTensor[int64_t, RegTraitNumTwo])
    m2 = Reg.CreateMask[int64_t, MaskPattern.ALL, RegTraitNumTwo]()
    m3 = Reg.UpdateMask[int64_t, RegTraitNumTwo](Ref(40))
    Reg.Add(a2, a2, b2, m2)
    Reg.Compare[int64_t, CMPMODE.GT](m3, a2, b2, m2)
    Reg.LoadAlign(a2, ub.alloc(int64_t, 64))

    # MaskReg forms of the logic ops.
    Reg.And(m, m, m, m)
    Reg.Not(m, m, m)
    Reg.Move(m, m)
    Reg.Select(m, m, m, m)

    # Scalars: Python and numpy numbers of the register's kind.
    f = Reg.RegTensor[float32_t]()
    Reg.Duplicate(f, 1.5)
    Reg.Duplicate(f, np.float32(2))
    Reg.Duplicate(Reg.RegTensor[uint32_t](), np.uint32(7), m)

    # The C++ template argument lists, defaulted ones included, in their order.
    Reg.Muls[float32_t, float32_t, MaskMergeMode.ZEROING](f, f, 2.0, m)
    Reg.Duplicate[float32_t, MaskMergeMode.ZEROING, float32_t](f, 1.0, m)
    Reg.Gather[uint32_t, uint32_t, uint32_t](
        Reg.RegTensor[uint32_t](), ub.alloc(uint32_t, 64), Reg.RegTensor[uint32_t](), m
    )

    # Register casts: (RegTensor<uint32_t>&)f is a view of the same bytes.
    bits = Reg.RegTensor[uint32_t](f)
    assert_type(bits, RegTensor[uint32_t])
    Reg.ShiftLefts(bits, Reg.RegTensor[uint32_t](f), 0, m)
    select_vf(ub.alloc(half, 256), ub.alloc(half, 256), ub.alloc(half, 256), 200)

"""The seed ``SelectVF``: Compare EQ, then Select, in a repeat loop with UpdateMask.

Ported line for line from the ``Select`` API page (AscendC::Reg, dav-3510). Where the two
inputs are equal the result takes ``src0``, elsewhere ``src1``; with the inputs below that is
``src1`` except on every 3rd element, where both inputs hold the same value.

Examples
--------
>>> from ascreg.examples import select_vf
>>> select_vf.main()
[Success] Reg.Select VF (Compare EQ + Select, 1000 half elements) matches numpy.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import CMPMODE, VL, Ref, Reg, UbPtr, UnifiedBuffer, __simd_vf__, half, uint16_t


@__simd_vf__
def SelectVF(
    T: Any,
    dstAddr: UbPtr[Any],
    src0Addr: UbPtr[Any],
    src1Addr: UbPtr[Any],
    count: int,
    oneRepeatSize: int,
    repeatTimes: int,
) -> None:
    """``template <typename T> __simd_vf__ void SelectVF(...)`` from the seed page.

    ``repeatTimes`` is a ``uint16_t`` (the caller passes ``uint16_t(n)``), so the loop counter
    is one too, as in the C++; ``count`` is passed on to ``UpdateMask`` as the ``uint32_t&``.
    """
    srcReg0 = Reg.RegTensor[T]()
    srcReg1 = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    cmpReg = Reg.MaskReg()
    remaining = Ref(count)  # C++ passes `count` itself to UpdateMask(uint32_t&)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[T](remaining)
        Reg.LoadAlign(srcReg0, src0Addr + i * oneRepeatSize)
        Reg.LoadAlign(srcReg1, src1Addr + i * oneRepeatSize)
        Reg.Compare[T, CMPMODE.EQ](cmpReg, srcReg0, srcReg1, mask)
        Reg.Select(dstReg, srcReg0, srcReg1, cmpReg)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


def main(count: int = 1000) -> bool:
    """Run the VF on random halves and compare with ``numpy.where``."""
    rng = np.random.default_rng(4)
    one_repeat = VL // half.size
    repeat_times = -(-count // one_repeat)
    padded = repeat_times * one_repeat  # LoadAlign always reads a whole register
    src0 = rng.integers(-8, 8, padded).astype(np.float16)
    src1 = rng.integers(-8, 8, padded).astype(np.float16)
    src1[::3] = src0[::3]
    ub = UnifiedBuffer()
    dst_p, src0_p, src1_p = (ub.alloc(half, padded) for _ in range(3))
    src0_p.write(src0)
    src1_p.write(src1)
    SelectVF(half, dst_p, src0_p, src1_p, count, one_repeat, uint16_t(repeat_times))
    got = dst_p.read(padded)
    expected = np.where(src0 == src1, src0, src1)[:count]
    ok = (
        np.array_equal(got[:count].view(np.uint16), expected.view(np.uint16))
        and not got[count:].any()
    )
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} Reg.Select VF (Compare EQ + Select, {count} half elements) matches numpy.")
    return bool(ok)

"""A Reg ``ShiftRight`` VF loop: per-lane counts, UpdateMask tail, masked store.

The spec's VF idiom (``oneRepeatSize = GetVecLen() / sizeof(T)``, ``UpdateMask`` inside a
``uint16_t`` loop) applied to ``ShiftRight`` on ``int16_t`` data (arithmetic shift) with counts
0..17, so the "count at or above the width" rule is exercised too.

Examples
--------
>>> from ascreg.examples import shiftright_vf
>>> shiftright_vf.main()
[Success] Reg.ShiftRight VF (2048 int16_t elements, counts 0..17) matches numpy.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import VL, Ref, Reg, UbPtr, UnifiedBuffer, __simd_vf__, int16_t


@__simd_vf__
def ShiftRightVF(
    dstAddr: UbPtr[int16_t], srcAddr: UbPtr[int16_t], shiftAddr: UbPtr[int16_t], count: int
) -> None:
    """``__simd_vf__ void ShiftRightVF(__ubuf__ int16_t* dst, ..., uint32_t count)``."""
    oneRepeatSize = VL // int16_t.size
    repeatTimes = -(-count // oneRepeatSize)
    src = Reg.RegTensor[int16_t]()
    shift = Reg.RegTensor[int16_t]()
    dst = Reg.RegTensor[int16_t]()
    remaining = Ref(count)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[int16_t](remaining)
        Reg.LoadAlign(src, srcAddr + i * oneRepeatSize)
        Reg.LoadAlign(shift, shiftAddr + i * oneRepeatSize)
        Reg.ShiftRight(dst, src, shift, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dst, mask)


def main(count: int = 2048) -> bool:
    """Run the VF and compare with numpy's arithmetic shift (clamped at 15 for the sign fill)."""
    rng = np.random.default_rng(7)
    values = rng.integers(-32768, 32768, count).astype(np.int16)
    counts = rng.integers(0, 18, count).astype(np.int16)
    ub = UnifiedBuffer()
    src, shift, dst = (ub.alloc(int16_t, count) for _ in range(3))
    src.write(values)
    shift.write(counts)
    ShiftRightVF(dst, src, shift, count)
    expected = values >> np.minimum(counts, 15)
    ok = np.array_equal(dst.read(count), expected)
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} Reg.ShiftRight VF ({count} int16_t elements, counts 0..17) matches numpy.")
    return bool(ok)

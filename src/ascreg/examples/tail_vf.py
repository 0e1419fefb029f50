"""A tail case: a count that is not a multiple of the lane count.

``uint32_t`` data, 64 lanes per register, 1000 elements: 15 full iterations and a tail of 40
lanes. The VF compares with a scalar (``Compares``), selects, and shifts left by a scalar
(``ShiftLefts``). The output buffer is pre-filled with a sentinel: the masked tail store must
leave everything past ``count`` untouched.

Examples
--------
>>> from ascreg.examples import tail_vf
>>> tail_vf.main()
[Success] tail VF (1000 uint32_t elements, 40-lane tail) matches numpy; bytes past the tail untouched.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import CMPMODE, VL, Ref, Reg, UbPtr, UnifiedBuffer, __simd_vf__, uint32_t

SENTINEL = 0xDEADBEEF


@__simd_vf__
def TailVF(dstAddr: UbPtr[uint32_t], srcAddr: UbPtr[uint32_t], count: int, threshold: int) -> None:
    """Clamp values above *threshold* to *threshold*, then multiply by 4 with a shift."""
    oneRepeatSize = VL // uint32_t.size
    repeatTimes = -(-count // oneRepeatSize)
    src = Reg.RegTensor[uint32_t]()
    limit = Reg.RegTensor[uint32_t]()
    dst = Reg.RegTensor[uint32_t]()
    above = Reg.MaskReg()
    Reg.Duplicate(limit, threshold)
    remaining = Ref(count)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[uint32_t](remaining)
        Reg.LoadAlign(src, srcAddr + i * oneRepeatSize)
        Reg.Compares[uint32_t, CMPMODE.GT](above, src, threshold, mask)
        Reg.Select(dst, limit, src, above)
        Reg.ShiftLefts(dst, dst, 2, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dst, mask)


def main(count: int = 1000, threshold: int = 5000) -> bool:
    """Run the VF and compare with numpy; check the sentinel past the tail."""
    lanes = VL // uint32_t.size
    padded = -(-count // lanes) * lanes
    values = np.random.default_rng(11).integers(0, 10_000, padded).astype(np.uint32)
    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint32_t, padded), ub.alloc(uint32_t, padded)
    src.write(values)
    dst.write(np.full(padded, SENTINEL, dtype=np.uint32))
    TailVF(dst, src, count, threshold)
    got = dst.read(padded)
    expected = np.minimum(values[:count], threshold) << 2
    ok = np.array_equal(got[:count], expected) and bool((got[count:] == SENTINEL).all())
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} tail VF ({count} uint32_t elements, {count % lanes}-lane tail) matches numpy; "
        "bytes past the tail untouched."
    )
    return ok

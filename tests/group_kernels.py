"""Kernels and VFs the block-group tests share (``tests/machine/test_group*.py``)."""

from __future__ import annotations

import numpy as np

from ascreg import Ref, Reg, UbPtr, float32_t
from ascreg.machine.kernel import __simd_vf__


@__simd_vf__
def affine(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int, scale: float) -> None:
    """dst = src * scale + 1 on *count* floats (UpdateMask tail)."""
    x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    left = Ref(count)
    for i in range((count + 63) // 64):
        mask = Reg.UpdateMask[float32_t](left)
        Reg.LoadAlign(x, src + i * 64)
        Reg.Muls(y, x, np.float32(scale), mask)
        Reg.Adds(y, y, np.float32(1.0), mask)
        Reg.StoreAlign(dst + i * 64, y, mask)

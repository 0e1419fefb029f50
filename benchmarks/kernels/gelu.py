"""GELU: asc-devkit ``examples/01_simd_cpp_api/00_introduction/04_reg_compute/gelu/gelu.asc``.

``gelu_custom<singleCoreLength><<<numBlocks, 0, stream>>>(x, y)``: each block copies its
``singleCoreLength`` floats into UB, ``GeluVfMethod2`` computes the tanh-free approximation
``x / (1 + exp(-1.595769 x - 0.071405 x^3))`` with ``Mul``, ``Muls``, ``Add``, ``Exp``, ``Adds``
and ``Div`` under an ``UpdateMask`` tail mask, and the block copies the result out. The example
runs 2 blocks of 4096 floats; here the grid covers the whole input (``numBlocks = n / 4096``).
The golden is the example's ``gen_data.py`` formula in float32 numpy, checked as its
``verify_result.py`` checks (``isclose`` rtol 1e-4, atol 1e-5, at most 1e-4 of the elements off).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, Ref, Reg, UbPtr, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    GetBlockIdx,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    Hardware,
    InitSocState,
    LocalMemAllocator,
    PipeBarrier,
    SetFlag,
    WaitFlag,
    asc_vf_call,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from benchmarks.kernels import RealKernel, isclose_check

COEFF_LINEAR = np.float32(-1.595769)
COEFF_CUBIC = np.float32(-0.071405)
singleCoreLength = 4096  # gelu_custom<singleCoreLength>


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def GeluVfMethod2(
    xAddr: UbPtr[float32_t], yAddr: UbPtr[float32_t], count: int, loopNum: int
) -> None:
    oneRepeatSize = GetVecLen() // float32_t.size
    mask = Reg.MaskReg()
    xReg = Reg.RegTensor[float32_t]()
    yReg = Reg.RegTensor[float32_t]()
    tmpReg = Reg.RegTensor[float32_t]()
    count_ = Ref(count)  # UpdateMask updates the by-value parameter through its reference
    for i in range(loopNum):
        mask = Reg.UpdateMask[float32_t](count_)
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.Mul(yReg, xReg, xReg, mask)  # x^2
        Reg.Mul(yReg, yReg, xReg, mask)  # x^3
        Reg.Muls(yReg, yReg, COEFF_CUBIC, mask)  # -0.071405 * x^3
        Reg.Muls(tmpReg, xReg, COEFF_LINEAR, mask)  # -1.595769 * x
        Reg.Add(yReg, tmpReg, yReg, mask)  # -1.595769 * x - 0.071405 * x^3
        Reg.Exp(yReg, yReg, mask)  # exp(...)
        Reg.Adds(yReg, yReg, np.float32(1.0), mask)  # 1 + exp(...)
        Reg.Div(yReg, xReg, yReg, mask)  # x / (1 + exp(...))
        Reg.StoreAlign(yAddr + i * oneRepeatSize, yReg, mask)


@__global__
@__vector__
def gelu_custom(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    xGm = GlobalTensor[float32_t]()
    yGm = GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x.cast(float32_t) + GetBlockIdx() * singleCoreLength)
    yGm.SetGlobalBuffer(y.cast(float32_t) + GetBlockIdx() * singleCoreLength)

    ubAllocator = LocalMemAllocator[Hardware.UB]()
    xLocal = ubAllocator.Alloc[float32_t, singleCoreLength]()
    yLocal = ubAllocator.Alloc[float32_t, singleCoreLength]()

    DataCopy(xLocal, xGm[0], singleCoreLength)
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

    oneRepeatSize = GetVecLen() // float32_t.size
    loopNum = DivCeil(singleCoreLength, oneRepeatSize)
    xAddr = xLocal.GetPhyAddr()
    yAddr = yLocal.GetPhyAddr()
    asc_vf_call[GeluVfMethod2](xAddr, yAddr, singleCoreLength, loopNum)

    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

    DataCopy(yGm[0], yLocal, singleCoreLength)
    PipeBarrier[PIPE_ALL]()


def inputs(size: int, seed: int) -> tuple[np.ndarray[Any, Any]]:
    """``gen_data.py``: x uniform in [-10, 10), *size* floats (a multiple of 4096)."""
    assert size % singleCoreLength == 0, size
    return (np.random.default_rng(seed).uniform(-10, 10, size).astype(np.float32),)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(x) -> y`` (copy in, launch, copy out)."""
    gm = GlobalMemory()
    x_gm, y_gm = gm.alloc(float32_t, size), gm.alloc(float32_t, size)

    def run(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        x_gm.write(x)
        gelu_custom[size // singleCoreLength, 0, None](x_gm.cast(uint8_t), y_gm.cast(uint8_t))
        return y_gm.read(size)

    return run


def golden(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The same math on the whole array in float32 numpy (the kernel's operation order)."""
    cubic = x * x * x * COEFF_CUBIC
    return x / (np.exp(x * COEFF_LINEAR + cubic) + np.float32(1.0))


KERNEL = RealKernel(
    name="gelu",
    origin="asc-devkit 00_introduction/04_reg_compute/gelu (GeluVfMethod2)",
    size=1 << 20,
    small=2 * singleCoreLength,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=isclose_check(rtol=1e-4, atol=1e-5),
    vfs=(GeluVfMethod2,),
)

"""Port of asc-devkit examples/01_simd_cpp_api/00_introduction/04_reg_compute/gelu/gelu.asc.

Line for line: ``gelu_custom<4096><<<2, 0, stream>>>`` gives each block 4096 floats (its
``GetBlockIdx() * singleCoreLength`` slice) and ``GeluVfMethod2`` computes the GELU
approximation ``x / (1 + exp(-1.595769 x - 0.071405 x^3))`` with Reg ``Mul``, ``Muls``, ``Add``,
``Exp``, ``Adds`` and ``Div`` under an ``UpdateMask`` tail mask. The input is made as
scripts/gen_data.py makes it (``[256, 32]`` float32 uniform in [-10, 10), the golden by the
same formula in numpy) and checked as scripts/verify_result.py checks it (``np.isclose`` with
rtol 1e-4, atol 1e-5, at most 1e-4 of the elements off).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
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


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


COEFF_LINEAR = np.float32(-1.595769)
COEFF_CUBIC = np.float32(-0.071405)
singleCoreLength = 4096  # gelu_custom<singleCoreLength>


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


def main(inputHost: np.ndarray) -> np.ndarray:
    totalM = 256
    totalN = 32
    numBlocks = 2
    totalByteSize = totalM * totalN * float32_t.size
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    inputDevice, _ = acl.rt.malloc(totalByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        inputDevice, totalByteSize, inputHost, totalByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    outputHost = np.zeros(totalM * totalN, dtype=np.float32)
    outputDevice, _ = acl.rt.malloc(totalByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    gelu_custom[numBlocks, 0, stream](inputDevice, outputDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(
        outputHost, totalByteSize, outputDevice, totalByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    acl.rt.free(inputDevice)
    acl.rt.free(outputDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return outputHost


TOTAL_M = 256
TOTAL_N = 32


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [-10, 10) of shape [256, 32], golden by the formula."""
    input_x = np.random.default_rng(seed).uniform(-10, 10, [TOTAL_M, TOTAL_N]).astype(np.float32)
    exponent = -1.595769 * input_x + -0.071405 * (input_x**3)
    golden = input_x / (1 + np.exp(exponent))
    return input_x, golden.astype(np.float32)


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol=1e-4, atol=1e-5), error ratio <= 1e-4."""
    RELATIVE_TOL = 1e-4
    ABSOLUTE_TOL = 1e-5
    ERROR_TOL = 1e-4
    different_element_results = np.isclose(
        output.reshape(-1), golden.reshape(-1), rtol=RELATIVE_TOL, atol=ABSOLUTE_TOL, equal_nan=True
    )
    different_element_indexes = np.where(~different_element_results)[0]
    error_ratio = float(different_element_indexes.size) / golden.size
    return error_ratio <= ERROR_TOL


@pytest.mark.filterwarnings("error::ascreg.errors.EagerLoopWarning")  # every loop batched
@pytest.mark.parametrize("seed", [0, 1])
def test_gelu_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert verify_result(main(x.reshape(-1)), golden)


def test_gelu_check_rejects_a_wrong_block() -> None:
    x, golden = gen_golden_data_simple(2)
    output = main(x.reshape(-1))
    output[:singleCoreLength] = output[singleCoreLength:]  # block 0 wrote block 1's result
    assert not verify_result(output, golden)

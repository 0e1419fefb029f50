"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/abs/abs.asc.

Line for line: ``Kernel<float>`` copies 256 floats into UB, ``AbsVF`` applies Reg ``Abs`` one
256-byte repeat at a time under an all-true mask, and the result is copied back. The input is
made as scripts/gen_data.py makes it (``[1, 256]`` float32 uniform in [-2, 2), golden
``np.abs(x)``) and checked with the example's ``CompareResult`` (absolute and relative error
both above 1e-4 fails an element).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Reg, UbPtr, acl, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
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
from example_checks import CompareResult


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


T = float32_t  # Kernel<float>


@__simd_vf__
def AbsVF(
    xAddr: UbPtr[float32_t],
    yAddr: UbPtr[float32_t],
    totalCount: int,
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    for i in range(repeatTimes):
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.Abs(yReg, xReg, mask)
        Reg.StoreAlign(yAddr + i * oneRepeatSize, yReg, mask)


class Kernel:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], totalLength: int) -> None:
        self.totalLength = totalLength
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, 256]()
        yLocal = ubAllocator.Alloc[T, 256]()

        DataCopy(xLocal, self.xGm, self.totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(self.totalLength, oneRepeatSize)
        asc_vf_call[AbsVF](xAddr, yAddr, self.totalLength, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.yGm, yLocal, self.totalLength)


@__global__
@__vector__
def abs(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    totalLength = 256
    InitSocState()
    kernel = Kernel()
    kernel.Init(x, y, totalLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    inputByteSize = 1 * totalLength * float32_t.size
    outputByteSize = 1 * totalLength * float32_t.size
    yHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    abs[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [-2, 2) of shape [1, 256], golden ``np.abs(x)``."""
    total_length = 256
    data_type = np.float32
    x = np.random.default_rng(seed).uniform(-2, 2, [1, total_length]).astype(data_type)
    golden = np.abs(x)
    return x, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_abs_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert CompareResult(main(x.reshape(-1)), golden)


def test_abs_check_rejects_a_wrong_element() -> None:
    x, golden = gen_golden_data_simple(2)
    output = main(x.reshape(-1))
    output[17] = -output[17] - 1.0  # a lane left un-absolute'd (and off by one) must fail
    assert not CompareResult(output, golden)

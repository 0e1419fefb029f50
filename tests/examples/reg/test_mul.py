"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/mul/mul.asc.

Line for line: ``mul<<<4, 0, stream>>>(x, y, z)`` gives each block a 256-float slice
(``GetBlockIdx() * singleCoreLength``, reached through ``GlobalTensor::operator[]``), and
``MulVF`` computes ``z = y * x`` with Reg ``Mul`` one 256-byte repeat at a time. Inputs are made
as scripts/gen_data.py makes them (two ``[1, 1024]`` float32 arrays uniform in [1, 2), golden
``x * y``) and checked with the example's ``CompareResult`` (absolute and relative error both
above 1e-4 fails an element).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Reg, UbPtr, acl, float32_t, uint8_t
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
from example_checks import CompareResult


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


totalLength = 1024
singleCoreLength = totalLength // 4
T = float32_t  # KernelMul<float, singleCoreLength>


@__simd_vf__
def MulVF(
    xAddr: UbPtr[float32_t],
    yAddr: UbPtr[float32_t],
    zAddr: UbPtr[float32_t],
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    xReg, yReg, zReg = Reg.RegTensor[T](), Reg.RegTensor[T](), Reg.RegTensor[T]()
    for i in range(repeatTimes):
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.LoadAlign(yReg, yAddr + i * oneRepeatSize)
        Reg.Mul(zReg, yReg, xReg, mask)
        Reg.StoreAlign(zAddr + i * oneRepeatSize, zReg, mask)


class KernelMul:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def GetCoreOffset(self) -> int:
        return GetBlockIdx() * singleCoreLength

    def Process(self) -> None:
        coreOffset = self.GetCoreOffset()

        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, singleCoreLength]()
        yLocal = ubAllocator.Alloc[T, singleCoreLength]()
        zLocal = ubAllocator.Alloc[T, singleCoreLength]()

        DataCopy(xLocal, self.xGm[coreOffset], singleCoreLength)
        DataCopy(yLocal, self.yGm[coreOffset], singleCoreLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(singleCoreLength, oneRepeatSize)

        asc_vf_call[MulVF](xAddr, yAddr, zAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm[coreOffset], zLocal, singleCoreLength)


@__global__
@__vector__
def mul(x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = KernelMul()
    kernel.Init(x, y, z)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray, yHost: np.ndarray) -> np.ndarray:
    numBlocks = 4
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    inputByteSize = totalLength * float32_t.size
    outputByteSize = totalLength * float32_t.size
    zHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, inputByteSize, yHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    mul[numBlocks, 0, stream](xDevice, yDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x and y uniform in [1, 2) of shape [1, 1024], golden ``x * y``."""
    total_length = 1024
    data_type = np.float32
    rng = np.random.default_rng(seed)
    x = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    y = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    golden = x * y
    return x, y, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_mul_matches_the_golden(seed: int) -> None:
    x, y, golden = gen_golden_data(seed)
    assert CompareResult(main(x.reshape(-1), y.reshape(-1)), golden)


def test_mul_check_rejects_a_block_on_the_wrong_slice() -> None:
    x, y, golden = gen_golden_data(2)
    output = main(x.reshape(-1), y.reshape(-1))
    assert not CompareResult(np.roll(output, singleCoreLength), golden)

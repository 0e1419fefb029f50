"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/muls/muls.asc.

Line for line: ``Kernel<float>`` copies 256 floats into UB and ``MulsVF`` multiplies each
256-byte repeat by the scalar ``2.0f`` with Reg ``Muls`` under an all-true mask. The input is
made as scripts/gen_data.py makes it (``[1, 256]`` float32 uniform in [1, 2), golden
``x * 2.0``) and checked with the example's ``CompareResult`` (absolute and relative error both
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
def MulsVF(
    xAddr: UbPtr[float32_t],
    zAddr: UbPtr[float32_t],
    scalar: np.float32,
    totalCount: int,
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    for i in range(repeatTimes):
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.Muls(zReg, xReg, scalar, mask)
        Reg.StoreAlign(zAddr + i * oneRepeatSize, zReg, mask)


class Kernel:
    def Init(
        self, x: GmPtr[uint8_t], z: GmPtr[uint8_t], totalLength: int, scalar: np.float32
    ) -> None:
        self.totalLength = totalLength
        self.scalar = scalar
        self.xGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, 256]()
        zLocal = ubAllocator.Alloc[T, 256]()

        DataCopy(xLocal, self.xGm, self.totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(self.totalLength, oneRepeatSize)
        asc_vf_call[MulsVF](xAddr, zAddr, self.scalar, self.totalLength, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm, zLocal, self.totalLength)


@__global__
@__vector__
def muls(x: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    totalLength = 256
    scalar = np.float32(2.0)
    InitSocState()
    kernel = Kernel()
    kernel.Init(x, z, totalLength, scalar)
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
    zHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    muls[numBlocks, 0, stream](xDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [1, 2) of shape [1, 256], golden ``x * 2.0``."""
    total_length = 256
    data_type = np.float32
    scalar = 2.0
    x = np.random.default_rng(seed).uniform(1, 2, [1, total_length]).astype(data_type)
    golden = x * scalar
    return x, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_muls_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert CompareResult(main(x.reshape(-1)), golden)


def test_muls_check_rejects_an_unscaled_element() -> None:
    x, golden = gen_golden_data_simple(2)
    output = main(x.reshape(-1))
    output[100] = x[0, 100]  # one lane copied through instead of doubled
    assert not CompareResult(output, golden)

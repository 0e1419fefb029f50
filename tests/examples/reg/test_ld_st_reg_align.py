"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_store_align/ld_st_reg_align.asc.

Line for line, all six scenarios of the compile-time ``SCENARIO_NUM`` (here the module global
``scenarioNum``, set per test as ``-DSCENARIO_NUM=n`` sets it per build), each computing
``z = x + y`` on half data with a different aligned Reg load/store addressing:

1. ``CopyWithOffsetVF``: explicit ``addr + i * oneRepeatSize``, 1021 lanes (the last 3 stay 0);
2. ``CopyWithPostUpdateVF``: ``PostLiteral::POST_MODE_UPDATE`` on the pointers;
3. ``CopyWithAddrRegVF``: an ``AddrReg`` from ``CreateAddrReg<T>(i, oneRepeatSize)``;
4. ``CopyDataBlock``: ``DataCopyMode::DATA_BLOCK_COPY`` reading every other 32-byte block;
5. ``CopyInBroadcastVF``: ``LoadDist::DIST_BRC_B16`` (each repeat is its first element);
6. ``CopyInUpsampleVF``: ``LoadDist::DIST_US_B16`` (each element twice, 2048 outputs).

Inputs are made as scripts/gen_data.py makes them (``x = y = arange(1024)`` as float16, the
golden per scenario) and checked with the example's ``CompareResult`` (half widened to float;
absolute and relative error both above 1e-3 fails an element).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, half, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    Duplicate,
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
from example_checks import CompareResult as CompareElementwise


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


scenarioNum = 1  # SCENARIO_NUM, a compile-time define in the example
T = half  # Kernel<half>


@__simd_vf__
def CopyWithOffsetVF(
    zAddr: UbPtr[half],
    xAddr: UbPtr[half],
    yAddr: UbPtr[half],
    oneRepeatSize: int,
    repeatTimes: int,
    calculateLength: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    count = Ref(calculateLength)  # UpdateMask updates the by-value parameter through its reference
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[T](count)
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.LoadAlign(yReg, yAddr + i * oneRepeatSize)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign(zAddr + i * oneRepeatSize, zReg, mask)


@__simd_vf__
def CopyWithPostUpdateVF(
    zAddr: UbPtr[half],
    xAddr: UbPtr[half],
    yAddr: UbPtr[half],
    oneRepeatSize: int,
    repeatTimes: int,
    outputLength: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    z, x, y, count = Ref(zAddr), Ref(xAddr), Ref(yAddr), Ref(outputLength)
    for _ in range(repeatTimes):
        mask = Reg.UpdateMask[T](count)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](yReg, y, oneRepeatSize)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, mask)


@__simd_vf__
def CopyWithAddrRegVF(
    zAddr: UbPtr[half],
    xAddr: UbPtr[half],
    yAddr: UbPtr[half],
    oneRepeatSize: int,
    repeatTimes: int,
    outputLength: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    count = Ref(outputLength)
    for i in range(repeatTimes):
        areg = Reg.CreateAddrReg[T](i, oneRepeatSize)
        mask = Reg.UpdateMask[T](count)
        Reg.LoadAlign(xReg, xAddr, areg)
        Reg.LoadAlign(yReg, yAddr, areg)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign(zAddr, zReg, areg, mask)


@__simd_vf__
def CopyDataBlock(
    zAddr: UbPtr[half],
    xAddr: UbPtr[half],
    yAddr: UbPtr[half],
    oneRepeatSize: int,
    repeatTimes: int,
    outputLength: int,
    srcBlockStride: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    oneRepeatDataBlock = 8
    dstBlockStride = 1
    z, x, y, count = Ref(zAddr), Ref(xAddr), Ref(yAddr), Ref(outputLength)
    for _ in range(repeatTimes):
        mask = Reg.UpdateMask[T](count)
        Reg.LoadAlign[T, Reg.DataCopyMode.DATA_BLOCK_COPY, Reg.PostLiteral.POST_MODE_UPDATE](
            xReg, x, srcBlockStride, srcBlockStride * oneRepeatDataBlock, mask
        )
        Reg.LoadAlign[T, Reg.DataCopyMode.DATA_BLOCK_COPY, Reg.PostLiteral.POST_MODE_UPDATE](
            yReg, y, srcBlockStride, srcBlockStride * oneRepeatDataBlock, mask
        )
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign[T, Reg.DataCopyMode.DATA_BLOCK_COPY, Reg.PostLiteral.POST_MODE_UPDATE](
            z, zReg, dstBlockStride, dstBlockStride * oneRepeatDataBlock, mask
        )


@__simd_vf__
def CopyInBroadcastVF(
    zAddr: UbPtr[half], xAddr: UbPtr[half], yAddr: UbPtr[half], oneRepeatSize: int, repeatTimes: int
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T]()
    for i in range(repeatTimes):
        Reg.LoadAlign[T, Reg.LoadDist.DIST_BRC_B16](xReg, xAddr + i * oneRepeatSize)
        Reg.LoadAlign[T, Reg.LoadDist.DIST_BRC_B16](yReg, yAddr + i * oneRepeatSize)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign(zAddr + i * oneRepeatSize, zReg, mask)


@__simd_vf__
def CopyInUpsampleVF(
    zAddr: UbPtr[half], xAddr: UbPtr[half], yAddr: UbPtr[half], oneRepeatSize: int, repeatTimes: int
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T]()
    for i in range(repeatTimes):
        Reg.LoadAlign[T, Reg.LoadDist.DIST_US_B16](xReg, xAddr + i * oneRepeatSize // 2)
        Reg.LoadAlign[T, Reg.LoadDist.DIST_US_B16](yReg, yAddr + i * oneRepeatSize // 2)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign(zAddr + i * oneRepeatSize, zReg, mask)


class Kernel:
    def Init(
        self,
        x: GmPtr[uint8_t],
        y: GmPtr[uint8_t],
        z: GmPtr[uint8_t],
        inputLength: int,
        outputLength: int,
    ) -> None:
        self.inputLength = inputLength
        self.outputLength = outputLength
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        inputLength, outputLength = self.inputLength, self.outputLength
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T](inputLength)
        yLocal = ubAllocator.Alloc[T](inputLength)
        zLocal = ubAllocator.Alloc[T](outputLength)

        DataCopy(xLocal, self.xGm, inputLength)
        DataCopy(yLocal, self.yGm, inputLength)

        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(inputLength, oneRepeatSize)
        if scenarioNum == 1:
            Duplicate(zLocal, np.float16(0), outputLength)
            asc_vf_call[CopyWithOffsetVF](
                zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes, outputLength - 3
            )
        elif scenarioNum == 2:
            asc_vf_call[CopyWithPostUpdateVF](
                zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes, outputLength
            )
        elif scenarioNum == 3:
            asc_vf_call[CopyWithAddrRegVF](
                zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes, outputLength
            )
        elif scenarioNum == 4:
            asc_vf_call[CopyDataBlock](
                zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes // 2, outputLength, 2
            )
        elif scenarioNum == 5:
            asc_vf_call[CopyInBroadcastVF](zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes)
        elif scenarioNum == 6:
            asc_vf_call[CopyInUpsampleVF](zAddr, xAddr, yAddr, oneRepeatSize, repeatTimes * 2)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm, zLocal, outputLength)


def OutputLength() -> int:
    """The scenario's output length, as the kernel and ``main`` both compute it."""
    outputLength = 1024
    if scenarioNum == 4:
        outputLength = 512
    elif scenarioNum == 6:
        outputLength = 2048
    return outputLength


@__global__
@__vector__
def ld_st_reg_align_kernel(x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    InitSocState()
    inputLength = 1024
    outputLength = OutputLength()
    kernel = Kernel()
    kernel.Init(x, y, z, inputLength, outputLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: the shared element-wise rule with ``EPS = 1e-3``."""
    return CompareElementwise(outputData, goldenData, EPS=1e-3)


def main(xHost: np.ndarray, yHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    inputLength = 1024
    outputLength = OutputLength()
    inputByteSize = 1 * inputLength * half.size
    outputByteSize = 1 * outputLength * half.size
    zHost = np.zeros(outputLength, dtype=np.float16)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, inputByteSize, yHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ld_st_reg_align_kernel[numBlocks, 0, stream](xDevice, yDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data(scenario_num: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x = y = arange(1024) as float16; the golden per scenario."""
    input_length = 1024
    data_type = np.float16
    input_x = np.arange(input_length, dtype=data_type).reshape(1, input_length)
    input_y = np.arange(input_length, dtype=data_type).reshape(1, input_length)
    output_length = 1024
    z = input_x + input_y
    if scenario_num == 1:
        golden = z[0, :output_length].reshape(1, output_length)
        golden[0, output_length - 3 : output_length] = 0
    elif scenario_num in (2, 3):
        golden = z.copy()
    elif scenario_num == 4:
        output_length = 512
        golden = z.reshape(input_length // 32, 32)[:, 0:16].reshape(1, output_length)
    elif scenario_num == 5:
        golden = z.copy()
        for i in range(output_length):
            golden[0, i] = golden[0, i // 128 * 128]
    elif scenario_num == 6:
        output_length = 2048
        golden = np.array([z, z]).transpose().reshape(1, output_length)
    else:
        raise ValueError(f"unsupported scenario number: {scenario_num}")
    return input_x, input_y, golden


@pytest.fixture(params=[1, 2, 3, 4, 5, 6])
def SCENARIO_NUM(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


def test_ld_st_reg_align_matches_the_golden(SCENARIO_NUM: int) -> None:
    x, y, golden = gen_golden_data(SCENARIO_NUM)
    assert CompareResult(main(x.reshape(-1), y.reshape(-1)), golden)


def test_ld_st_reg_align_check_rejects_a_shifted_output(SCENARIO_NUM: int) -> None:
    """An output one element off its place fails every scenario's golden."""
    x, y, golden = gen_golden_data(SCENARIO_NUM)
    assert not CompareResult(np.roll(main(x.reshape(-1), y.reshape(-1)), 1), golden)

"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/mergemode/mergemode.asc.

Line for line: the basic-API ``Duplicate(yLocal, (T)2, paddedLength)`` fills the output tensor,
``MaxMergeModeVF`` keeps the masked-off lanes of ``dstReg`` (``MaskMergeMode::MERGING``) and
``ReduceMaxVF`` reduces to one maximum. Input as scripts/gen_data.py makes it (200 floats
uniform in [-100, -1)); the golden is 2.0 in element 0 and zeros after it, compared as the
example's ``CompareResult`` compares it: element 0 only (absolute and relative error both above
1e-4 fails); the other elements hold what Reduce leaves there (its index lane), not the zeros.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
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


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


totalLength = 200
paddedLength = 256
T = float32_t


@__simd_vf__
def MaxMergeModeVF(
    dstAddr: UbPtr[float32_t],
    src0Addr: UbPtr[float32_t],
    src1Addr: UbPtr[float32_t],
    count: int,
    oneRepeatSize: int,
) -> None:
    src0Reg = Reg.RegTensor[T]()
    src1Reg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    allMask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    repeatTimes = DivCeil(count, oneRepeatSize)
    count_, src0, src1 = Ref(count), Ref(src0Addr), Ref(src1Addr)  # C++ updates these in place

    for i in range(repeatTimes):
        Reg.Duplicate(dstReg, np.float32(2))
        mask = Reg.UpdateMask[T](count_)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](src0Reg, src0, oneRepeatSize)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](src1Reg, src1, oneRepeatSize)
        Reg.Max[T, Reg.MaskMergeMode.MERGING](dstReg, src0Reg, src1Reg, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, allMask)


@__simd_vf__
def ReduceMaxVF(
    dstAddr: UbPtr[float32_t], srcAddr: UbPtr[float32_t], count: int, oneRepeatSize: int
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    srcReg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    accReg = Reg.RegTensor[T]()

    Reg.LoadAlign(accReg, srcAddr)
    Reg.Reduce[Reg.ReduceType.MAX](dstReg, accReg, mask)
    Reg.Max(accReg, dstReg, dstReg, mask)

    repeatTimes = DivCeil(count, oneRepeatSize)
    for i in range(1, repeatTimes):
        Reg.LoadAlign(srcReg, srcAddr + i * oneRepeatSize)
        Reg.Reduce[Reg.ReduceType.MAX](dstReg, srcReg, mask)
        Reg.Max(accReg, accReg, dstReg, mask)
    Reg.StoreAlign(dstAddr, accReg, mask)


class Kernel:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, paddedLength]()
        yLocal = ubAllocator.Alloc[T, paddedLength]()

        Duplicate(yLocal, np.float32(2), paddedLength)

        DataCopy(xLocal, self.xGm, totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size

        asc_vf_call[MaxMergeModeVF](yAddr, xAddr, xAddr, totalLength, oneRepeatSize)
        asc_vf_call[ReduceMaxVF](yAddr, yAddr, paddedLength, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        outAlignSize = 8
        DataCopy(self.yGm, yLocal, outAlignSize)


@__global__
@__vector__
def mergemode(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = Kernel()
    kernel.Init(x, y)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    EPS = 1e-4
    a, b = float(outputData[0]), float(goldenData[0])
    ae = abs(a - b)
    re = ae / abs(b)
    return not (ae > EPS and re > EPS)


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    inputByteSize = totalLength * float32_t.size
    outputByteSize = 8 * float32_t.size
    yHost = np.zeros(8, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    mergemode[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [-100, -1), golden = [2, 0, 0, 0, 0, 0, 0, 0]."""
    x = np.random.default_rng(seed).uniform(-100, -1, [1, totalLength]).astype(np.float32)
    golden = np.zeros(8, dtype=np.float32)
    golden[0] = 2.0
    return x, golden


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mergemode_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    output = main(x.reshape(-1))
    assert CompareResult(output, golden)  # the example compares element 0 only
    assert output[0] == 2.0


def test_mergemode_check_fails_on_a_wrong_maximum() -> None:
    """The example's check rejects an answer other than 2.0 (here an input of 7 wins)."""
    x, golden = gen_golden_data_simple(3)
    x[0, 5] = 7.0  # an input above 2 makes the true maximum 7, not the golden's 2
    assert not CompareResult(main(x.reshape(-1)), golden)

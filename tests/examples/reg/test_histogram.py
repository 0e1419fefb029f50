"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/histogram/histogram.asc.

Line for line: ``KernelHistogram<uint8_t, uint16_t, 256>``; ``HistogramsVF`` zeroes two uint16
registers with Reg ``Duplicate``, counts the 256 uint8 inputs with Reg ``Histograms`` (BIN0
into ``dst0Reg``, BIN1 into ``dst1Reg``, FREQUENCY) and stores both with POST_MODE_UPDATE
``StoreAlign`` (C++ updates its by-value pointer parameters through ``T*&``; here they are
:class:`~ascreg.Ref` boxes). The input is made as scripts/gen_data.py makes it (``randint(0,
256)`` bytes, golden the 256-bin count) and checked as the example's ``CompareResult`` does:
every uint16 count equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import (
    GmPtr,
    HistogramsBinType,
    HistogramsType,
    PostLiteral,
    Ref,
    Reg,
    UbPtr,
    acl,
    uint8_t,
    uint16_t,
)
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

totalLength = 256
T, U = uint8_t, uint16_t  # KernelHistogram<uint8_t, uint16_t, singleCoreLength>
POST = PostLiteral.POST_MODE_UPDATE


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def HistogramsVF(dstAddr: UbPtr[uint16_t], srcAddr: UbPtr[uint8_t], count: int, oneRepeatSize: int) -> None:  # fmt: skip
    dst, src = Ref(dstAddr), Ref(srcAddr)  # the parameters the post-update accesses advance
    srcReg = Reg.RegTensor[T]()
    dst0Reg = Reg.RegTensor[U]()
    dst1Reg = Reg.RegTensor[U]()
    maskU8 = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    maskU16 = Reg.CreateMask[U, Reg.MaskPattern.ALL]()
    repeatTimes = DivCeil(count, oneRepeatSize)
    Reg.Duplicate(dst0Reg, 0)
    Reg.Duplicate(dst1Reg, 0)
    for _ in range(repeatTimes):
        Reg.LoadAlign[T, POST](srcReg, src, oneRepeatSize)
        Reg.Histograms[T, U, HistogramsBinType.BIN0, HistogramsType.FREQUENCY](dst0Reg, srcReg, maskU8)  # fmt: skip
        Reg.Histograms[T, U, HistogramsBinType.BIN1, HistogramsType.FREQUENCY](dst1Reg, srcReg, maskU8)  # fmt: skip
    Reg.StoreAlign[U, POST](dst, dst0Reg, 128, maskU16)
    Reg.StoreAlign[U, POST](dst, dst1Reg, 128, maskU16)


class KernelHistogram:
    def Init(self, src: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
        self.srcGm, self.dstGm = GlobalTensor[T](), GlobalTensor[U]()
        self.srcGm.SetGlobalBuffer(src.cast(T))
        self.dstGm.SetGlobalBuffer(dst.cast(U))

    def Process(self, singleCoreLength: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        srcLocal = ubAllocator.Alloc[T](singleCoreLength)
        dstLength = 256
        dstLocal = ubAllocator.Alloc[U](dstLength)
        DataCopy(srcLocal, self.srcGm, singleCoreLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr, dstAddr = srcLocal.GetPhyAddr(), dstLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        asc_vf_call[HistogramsVF](dstAddr, srcAddr, singleCoreLength, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.dstGm, dstLocal, dstLength)


@__global__
@__vector__
def histogram(src: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
    InitSocState()
    singleCoreLength = totalLength
    kernel = KernelHistogram()
    kernel.Init(src, dst)
    kernel.Process(singleCoreLength)
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: every uint16 count equal."""
    return int(np.count_nonzero(outputData.view(np.uint16) != goldenData.view(np.uint16))) == 0


def main(xHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    numBlocks = 1
    srcByteSize = totalLength * uint8_t.size
    dstByteSize = 256 * uint16_t.size
    dstHost = np.zeros(256, dtype=np.uint16)
    srcDevice, _ = acl.rt.malloc(srcByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dstDevice, _ = acl.rt.malloc(dstByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(srcDevice, srcByteSize, xHost, srcByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    histogram[numBlocks, 0, stream](srcDevice, dstDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dstHost, dstByteSize, dstDevice, dstByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(srcDevice)
    acl.rt.free(dstDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return dstHost


def gen_golden_data_histogram(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: 256 random bytes; golden[v] counts the value v."""
    x = np.random.default_rng(seed).integers(0, 256, [1, totalLength]).astype(np.uint8)
    golden = np.zeros(256, dtype=np.uint16)
    for val in x.flatten():
        golden[val] += 1
    return x.flatten(), golden


@pytest.mark.parametrize("seed", [0, 1])
def test_histogram_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_histogram(seed)
    assert CompareResult(main(x), golden)


def test_histogram_check_rejects_a_shifted_count() -> None:
    """Counting every value one bin too high must fail the check."""
    x, golden = gen_golden_data_histogram(2)
    assert not CompareResult(main(x), np.roll(golden, 1))

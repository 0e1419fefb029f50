"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/reduce_pair/reduce_pair.asc.

Line for line: ``Kernel<float>`` copies 256 floats into UB (``yLocal`` holds 512), and
``PairReduceSumVF`` adds each two adjacent lanes with Reg ``PairReduceElem<PairReduce::SUM>``
under ``UpdateMask<T>(count)`` (the 32 sums land in the lower half, the upper half is 0) and
stores the whole register at ``dstAddr + i * oneRepeatSize``; the host picks the lower 32
floats of each 64-float repeat. The input is made as scripts/gen_data.py makes it
(``uniform(1, 2)`` floats, golden ``x[2i] + x[2i+1]`` padded to a multiple of 8) and checked as
the example's ``CompareResult`` does (an element fails when both its absolute and its relative
error exceed 1e-4).
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
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

T = float32_t  # Kernel<float>


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def PairReduceSumVF(dstAddr: UbPtr[float32_t], srcAddr: UbPtr[float32_t], count: int, repeatTimes: int, oneRepeatSize: int) -> None:  # fmt: skip
    srcReg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    remaining = Ref(count)  # UpdateMask updates the by-value parameter through its reference
    for i in range(repeatTimes):
        Reg.LoadAlign(srcReg, srcAddr + i * oneRepeatSize)
        mask = Reg.UpdateMask[T](remaining)
        Reg.PairReduceElem[Reg.PairReduce.SUM](dstReg, srcReg, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


class Kernel:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], totalLength: int) -> None:
        self.totalLength = totalLength
        self.xGm, self.yGm = GlobalTensor[T](), GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, 256]()
        yLocal = ubAllocator.Alloc[T, 512]()
        DataCopy(xLocal, self.xGm, self.totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(self.totalLength, oneRepeatSize)
        asc_vf_call[PairReduceSumVF](yAddr, xAddr, self.totalLength, repeatTimes, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        outputSize = repeatTimes * oneRepeatSize
        DataCopy(self.yGm, yLocal, outputSize)


@__global__
@__vector__
def reduce_pair(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    totalLength = 256
    kernel = Kernel()
    kernel.Init(x, y, totalLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray, totalLength: int) -> bool:
    """The example's ``CompareResult``: pair sum ``i`` at ``(i // 32) * 64 + i % 32``."""
    EPS = np.float32(1e-4)
    wrongNum = 0
    oneRepeatSize = 64  # GetVecLen() / sizeof(float)
    halfRepeatSize = 32
    numResults = totalLength // 2
    for i in range(numResults):
        repeatIdx = i // halfRepeatSize
        elemIdx = i % halfRepeatSize
        actualIdx = repeatIdx * oneRepeatSize + elemIdx
        a, b = outputData[actualIdx], goldenData[i]
        ae = np.abs(a - b)
        re = ae / np.abs(b)
        if ae > EPS and re > EPS:
            wrongNum += 1
    return wrongNum == 0


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    inputByteSize = totalLength * float32_t.size
    oneRepeatSize = 64
    repeatTimes = (totalLength + oneRepeatSize - 1) // oneRepeatSize
    outputByteSize = repeatTimes * oneRepeatSize * float32_t.size
    zHost = np.zeros(outputByteSize // float32_t.size, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    reduce_pair[numBlocks, 0, stream](xDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: 256 floats in [1, 2), golden the adjacent pair sums, padded to 8."""
    total_length = 256
    x = rng.uniform(1, 2, [1, total_length]).astype(np.float32)
    golden = np.zeros(total_length // 2, dtype=np.float32)
    for i in range(total_length // 2):
        golden[i] = x[0, 2 * i] + x[0, 2 * i + 1]
    num_results = total_length // 2
    aligned_size = ((num_results + 7) // 8) * 8
    golden_aligned = np.zeros(aligned_size, dtype=np.float32)
    golden_aligned[:num_results] = golden
    return x.reshape(-1), golden_aligned


def test_reduce_pair_matches_the_golden() -> None:
    for seed in (0, 1):
        x, golden = gen_golden_data_simple(np.random.default_rng(seed))
        assert CompareResult(main(x), golden, 256)


def test_reduce_pair_check_rejects_the_odd_pairing() -> None:
    """Pairs ``(x[2i+1], x[2i+2])`` instead of ``(x[2i], x[2i+1])`` must fail the check."""
    x, golden = gen_golden_data_simple(np.random.default_rng(2))
    assert not CompareResult(main(np.roll(x, -1)), golden, 256)

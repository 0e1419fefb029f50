"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/reduce_block/reduce_block.asc.

Line for line: ``Kernel<float>`` copies 256 floats into UB, and ``ReduceDataBlockSumVF`` sums
each 32-byte data block of a register with Reg ``ReduceDataBlock<ReduceType::SUM>`` (the 8 sums
land in lanes 0-7) and stores the whole register, walking both pointers with
``PostLiteral::POST_MODE_UPDATE``; the host picks the 8 sums of each 64-float repeat. The input
is made as scripts/gen_data.py makes it (``uniform(1, 2)`` floats, golden the 32 block sums by
``np.sum``) and checked as the example's ``CompareResult`` does (an element fails when both its
absolute and its relative error exceed 1e-4).
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
def ReduceDataBlockSumVF(dstAddr: UbPtr[float32_t], srcAddr: UbPtr[float32_t], repeatTimes: int, oneRepeatSize: int) -> None:  # fmt: skip
    srcReg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    dst, src = Ref(dstAddr), Ref(srcAddr)  # the pointers the post-updates move
    for i in range(repeatTimes):
        _offset = i * oneRepeatSize  # computed and unused, as in the C++
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](srcReg, src, oneRepeatSize)
        Reg.ReduceDataBlock[Reg.ReduceType.SUM](dstReg, srcReg, mask)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](dst, dstReg, oneRepeatSize, mask)


class Kernel:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], totalLength: int) -> None:
        self.totalLength = totalLength
        self.xGm, self.yGm = GlobalTensor[T](), GlobalTensor[T]()
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
        asc_vf_call[ReduceDataBlockSumVF](yAddr, xAddr, repeatTimes, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        outputSize = repeatTimes * oneRepeatSize
        DataCopy(self.yGm, yLocal, outputSize)


@__global__
@__vector__
def reduce_block(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    totalLength = 256
    kernel = Kernel()
    kernel.Init(x, y, totalLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray, totalLength: int) -> bool:
    """The example's ``CompareResult``: block ``i``'s sum at ``(i // 8) * 64 + i % 8``."""
    EPS = np.float32(1e-4)
    wrongNum = 0
    oneRepeatSize = 64  # GetVecLen() / sizeof(float)
    blocksPerRepeat = 8
    numResults = totalLength // 8
    for i in range(numResults):
        repeatIdx = i // blocksPerRepeat
        elemIdx = i % blocksPerRepeat
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
    reduce_block[numBlocks, 0, stream](xDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: 256 floats in [1, 2), golden the sum of each 8-float block."""
    total_length = 256
    x = rng.uniform(1, 2, [1, total_length]).astype(np.float32)
    num_blocks = total_length // 8
    golden = np.zeros(num_blocks, dtype=np.float32)
    for i in range(num_blocks):
        golden[i] = np.sum(x[0, i * 8 : (i + 1) * 8])
    return x.reshape(-1), golden


def test_reduce_block_matches_the_golden() -> None:
    for seed in (0, 1):
        x, golden = gen_golden_data_simple(np.random.default_rng(seed))
        assert CompareResult(main(x), golden, 256)


def test_reduce_block_check_rejects_a_moved_block() -> None:
    """The block sums read one lane off (lanes 1-8 of each repeat) must fail the check."""
    x, golden = gen_golden_data_simple(np.random.default_rng(2))
    assert not CompareResult(np.roll(main(x), -1), golden, 256)

"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_store_unalign/ld_st_reg_unalign.asc, scenario 2.

Line for line: ``KernelScenario2<uint16_t, 14, 4, 255, 16>`` on 4 blocks (the last takes the 2
tail rows). Each block copies its rows in with the basic-API ``DataCopyPad`` (right-padded to 32
bytes); per row, ``ReduceDataBlockVF`` streams the 255 elements (not 32-byte aligned: rows start
255 elements apart) through ``LoadUnAlignPre`` / ``LoadUnAlign``, takes the maximum of each
16-element DataBlock with Reg ``ReduceDataBlock<ReduceType::MAX>`` under an ``UpdateMask`` tail
mask, and writes the 8 maxima of each repeat with ``StoreUnAlign`` / ``StoreUnAlignPost``. The
input is made as scripts/gen_data.py's scenario 2 makes it (``randint(0, 1000)`` uint16; golden
the per-DataBlock maxima, the last DataBlock of a row 15 elements) and checked as the example's
``CompareResult`` checks scenario 2 (every uint16 equal). Scenario 1 is
``test_ld_st_reg_unalign.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, ReduceType, Ref, Reg, UbPtr, acl, uint8_t, uint16_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
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

T = uint16_t  # ld_st_reg_unalign_kernel<uint16_t, 14, 4, 255, 16> (SCENARIO_NUM == 2)
totalM, singleCoreM, inputN, outputN = 14, 4, 255, 16


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


def AlignUp(a: int, b: int) -> int:
    return DivCeil(a, b) * b


@__simd_vf__
def ReduceDataBlockVF(dstAddr: UbPtr[uint16_t], srcAddr: UbPtr[uint16_t], inputSize: int, oneRepeatInputSize: int, oneRepeatOutputSize: int, repeatTimes: int) -> None:  # fmt: skip
    dst, src = Ref(dstAddr), Ref(srcAddr)  # the parameters the post-update calls advance
    remaining = Ref(inputSize)  # UpdateMask's uint32_t& (the parameter itself in C++)
    srcReg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    uregLoad = Reg.UnalignRegForLoad()
    uregStore = Reg.UnalignRegForStore()
    Reg.LoadUnAlignPre(uregLoad, src)
    for _ in range(repeatTimes):
        mask = Reg.UpdateMask[T](remaining)
        Reg.LoadUnAlign(srcReg, uregLoad, src, oneRepeatInputSize)
        Reg.ReduceDataBlock[ReduceType.MAX](dstReg, srcReg, mask)
        Reg.StoreUnAlign(dst, dstReg, uregStore, oneRepeatOutputSize)
    Reg.StoreUnAlignPost(dst, uregStore, 0)


class KernelScenario2:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> bool:
        InitSocState()
        self.xGm, self.yGm = GlobalTensor[T](), GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        mIndex = (totalM + singleCoreM - 1) // singleCoreM
        tailSingleCoreM = totalM - (mIndex - 1) * singleCoreM
        blockIdx = GetBlockIdx()
        if blockIdx >= mIndex:
            return False
        self.actualSingleCoreM = tailSingleCoreM if blockIdx == mIndex - 1 else singleCoreM
        self.xGm = self.xGm[blockIdx * singleCoreM * inputN]
        self.yGm = self.yGm[blockIdx * singleCoreM * outputN]
        alignSize = 32 // T.size  # UB needs 32-byte alignment
        self.inputSize = self.actualSingleCoreM * inputN
        self.alignInputSize = AlignUp(self.inputSize, alignSize)
        self.outputSize = self.actualSingleCoreM * outputN
        self.alignOutputSize = AlignUp(self.outputSize, alignSize)
        return True

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T](self.alignInputSize)
        yLocal = ubAllocator.Alloc[T](self.alignOutputSize)
        blockLen = self.inputSize * T.size
        copyParams = DataCopyExtParams(1, blockLen, 0, 0, 0)
        rpad = self.alignInputSize - self.inputSize
        padParams = DataCopyPadExtParams[T](False, 0, rpad, 0)
        DataCopyPad[T](xLocal, self.xGm, copyParams, padParams)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr, dstAddr = xLocal.GetPhyAddr(), yLocal.GetPhyAddr()
        oneRepeatInputSize = GetVecLen() // T.size
        oneRepeatOutputSize = GetVecLen() // 32  # one result per 32-byte DataBlock
        repeatTimes = DivCeil(inputN, oneRepeatInputSize)
        for m in range(self.actualSingleCoreM):
            asc_vf_call[ReduceDataBlockVF](dstAddr + m * outputN, srcAddr + m * inputN, inputN, oneRepeatInputSize, oneRepeatOutputSize, repeatTimes)  # fmt: skip
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.yGm, yLocal, self.outputSize)


@__global__
@__vector__
def ld_st_reg_unalign_kernel(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = KernelScenario2()
    if kernel.Init(x, y):  # the C++ Init returns early for a spare block (none here: 4 for 4)
        kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's scenario-2 check: every uint16 equal."""
    return int(np.count_nonzero(outputData != goldenData)) == 0


def main(xHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    numBlocks = (totalM + singleCoreM - 1) // singleCoreM
    inputByteSize = 1 * totalM * inputN * T.size
    outputByteSize = 1 * totalM * outputN * T.size
    yHost = np.zeros(totalM * outputN, dtype=np.uint16)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ld_st_reg_unalign_kernel[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_scenario2(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 2: 14 x 255 random uint16; the max of every DataBlock."""
    total_rows, row_length, data_block_size, results_per_row = 14, 255, 16, 16
    x = np.random.default_rng(seed).integers(0, 1000, size=total_rows * row_length, dtype=np.uint16)
    golden = np.zeros(total_rows * results_per_row, dtype=np.uint16)
    for row in range(total_rows):
        row_start = row * row_length
        for block_idx in range(results_per_row):
            block_start = row_start + block_idx * data_block_size
            block_end = min(block_start + data_block_size, row_start + row_length)
            golden[row * results_per_row + block_idx] = np.max(x[block_start:block_end])
    return x, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_ld_st_reg_unalign_scenario2_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_scenario2(seed)
    assert CompareResult(main(x), golden)


def test_ld_st_reg_unalign_scenario2_check_rejects_aligned_rows() -> None:
    """Maxima of 16-element blocks taken from 256-element (aligned) rows must fail the check."""
    x, golden = gen_golden_data_scenario2(2)
    padded = np.concatenate([x, np.zeros(14, dtype=np.uint16)]).reshape(14, 256)
    wrong = padded.reshape(14, 16, 16).max(axis=2).reshape(-1).astype(np.uint16)
    assert CompareResult(main(x), golden)
    assert not CompareResult(wrong, golden)

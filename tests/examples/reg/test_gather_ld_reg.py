"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_gather/gather_ld_reg.asc.

Line for line, both scenarios (``SCENARIO_NUM`` 1 and 2), one block each. Scenario 1's
``GatherVF<half, uint16_t>`` gathers 128 halves from a 1024-half UB source through a uint16
index with Reg ``Gather`` (the UB form); scenario 2's ``GatherBVF<half>`` gathers 8 DataBlocks
per repeat with Reg ``GatherB``. Inputs and goldens are made as scripts/gen_data.py makes them
(``uniform(0, 1)`` halves; ``randint`` element or block indices), and the result is checked as
the example's ``CompareResult`` does: bit for bit.

Scenario 2's ``indexLocal`` is ``numDataBlocks = 8`` uint32 (32 bytes), but ``LoadAlign(indexReg,
indexAddr + i * indexRepeatSize)`` loads a whole register (256 bytes) from it, reading past the
allocation; GatherB uses only the first 8 lanes. That read is legal (the lanes past the array
are undefined and unused, issue 25), so the port keeps the C++ array size.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, half, uint8_t, uint16_t, uint32_t
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

totalLength = 128
srcLength = 1024


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def GatherVF(dstAddr: UbPtr[half], srcAddr: UbPtr[half], indexAddr: UbPtr[uint16_t], count: int, oneRepeatSize: int) -> None:  # fmt: skip
    dstReg = Reg.RegTensor[half]()
    indexReg = Reg.RegTensor[uint16_t]()
    mask = Reg.CreateMask[half, Reg.MaskPattern.ALL]()
    remaining = Ref(count)  # UpdateMask's uint32_t& count
    repeatTimes = DivCeil(count, oneRepeatSize)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[half](remaining)
        Reg.LoadAlign(indexReg, indexAddr + i * oneRepeatSize)
        Reg.Gather(dstReg, srcAddr, indexReg, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


@__simd_vf__
def GatherBVF(dstAddr: UbPtr[half], srcAddr: UbPtr[half], indexAddr: UbPtr[uint32_t], count: int, oneRepeatSize: int, indexRepeatSize: int) -> None:  # fmt: skip
    dstReg = Reg.RegTensor[half]()
    indexReg = Reg.RegTensor[uint32_t]()
    mask = Reg.CreateMask[half, Reg.MaskPattern.ALL]()
    remaining = Ref(count)
    repeatTimes = DivCeil(count, oneRepeatSize)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[half](remaining)
        Reg.LoadAlign(indexReg, indexAddr + i * indexRepeatSize)
        Reg.GatherB(dstReg, srcAddr, indexReg, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


class KernelGather:  # KernelGather<half, uint16_t, singleCoreLength>
    def Init(self, src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
        self.srcGm, self.indexGm, self.dstGm = GlobalTensor[half](), GlobalTensor[uint16_t](), GlobalTensor[half]()  # fmt: skip
        self.srcGm.SetGlobalBuffer(src.cast(half))
        self.indexGm.SetGlobalBuffer(index.cast(uint16_t))
        self.dstGm.SetGlobalBuffer(dst.cast(half))

    def Process(self, singleCoreLength: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        srcLocal = ubAllocator.Alloc[half](srcLength)
        indexLocal = ubAllocator.Alloc[uint16_t](singleCoreLength)
        dstLocal = ubAllocator.Alloc[half](singleCoreLength)
        DataCopy(srcLocal, self.srcGm, srcLength)
        DataCopy(indexLocal, self.indexGm, singleCoreLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr, indexAddr, dstAddr = srcLocal.GetPhyAddr(), indexLocal.GetPhyAddr(), dstLocal.GetPhyAddr()  # fmt: skip
        oneRepeatSize = GetVecLen() // half.size
        asc_vf_call[GatherVF](dstAddr, srcAddr, indexAddr, singleCoreLength, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.dstGm, dstLocal, singleCoreLength)


class KernelGatherB:  # KernelGatherB<half, singleCoreLength>
    def Init(self, src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
        self.srcGm, self.indexGm, self.dstGm = GlobalTensor[half](), GlobalTensor[uint32_t](), GlobalTensor[half]()  # fmt: skip
        self.srcGm.SetGlobalBuffer(src.cast(half))
        self.indexGm.SetGlobalBuffer(index.cast(uint32_t))
        self.dstGm.SetGlobalBuffer(dst.cast(half))

    def Process(self, singleCoreLength: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        elementsPerBlock = 32 // half.size
        numDataBlocks = singleCoreLength // elementsPerBlock
        srcLocal = ubAllocator.Alloc[half](srcLength)
        indexLocal = ubAllocator.Alloc[uint32_t](numDataBlocks)
        dstLocal = ubAllocator.Alloc[half](singleCoreLength)
        DataCopy(srcLocal, self.srcGm, srcLength)
        DataCopy(indexLocal, self.indexGm, numDataBlocks)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr, indexAddr, dstAddr = srcLocal.GetPhyAddr(), indexLocal.GetPhyAddr(), dstLocal.GetPhyAddr()  # fmt: skip
        oneRepeatSize = GetVecLen() // half.size
        indexRepeatSize = oneRepeatSize // elementsPerBlock
        asc_vf_call[GatherBVF](dstAddr, srcAddr, indexAddr, singleCoreLength, oneRepeatSize, indexRepeatSize)  # fmt: skip
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.dstGm, dstLocal, singleCoreLength)


@__global__
@__vector__
def gather_ld_reg(src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t], scenarioNum: int) -> None:  # fmt: skip
    InitSocState()
    singleCoreLength = totalLength
    kernel = KernelGather() if scenarioNum == 1 else KernelGatherB()
    kernel.Init(src, index, dst)
    kernel.Process(singleCoreLength)
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: the 16-bit patterns must be equal."""
    return int(np.count_nonzero(outputData.view(np.uint16) != goldenData.view(np.uint16))) == 0


def main(srcHost: np.ndarray, indexHost: np.ndarray, scenarioNum: int) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    numBlocks = 1
    byteSize = totalLength * half.size
    srcByteSize, indexByteSize = srcHost.nbytes, indexHost.nbytes
    dstHost = np.zeros(totalLength, dtype=np.float16)
    srcDevice, _ = acl.rt.malloc(srcByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    indexDevice, _ = acl.rt.malloc(indexByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dstDevice, _ = acl.rt.malloc(byteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(srcDevice, srcByteSize, srcHost, srcByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(indexDevice, indexByteSize, indexHost, indexByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)  # fmt: skip
    gather_ld_reg[numBlocks, 0, stream](srcDevice, indexDevice, dstDevice, scenarioNum)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dstHost, byteSize, dstDevice, byteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for ptr in (srcDevice, indexDevice, dstDevice):
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return dstHost


def gen_golden_data_gather_scenario1(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 1: uniform halves, randint element indices."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, [1, srcLength]).astype(np.float16)
    index = rng.integers(0, srcLength, [1, totalLength]).astype(np.uint16)
    return x.flatten(), index.flatten(), x.flatten()[index.flatten()]


def gen_golden_data_gatherb_scenario2(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 2: block indices times 32 bytes; golden block by block."""
    rng = np.random.default_rng(seed)
    elements_per_block = 32 // 2
    x = rng.uniform(0, 1, [1, srcLength]).astype(np.float16).flatten()
    block_indices = rng.integers(0, srcLength // elements_per_block, totalLength // elements_per_block).astype(np.uint32)  # fmt: skip
    golden = np.zeros(totalLength, dtype=np.float16)
    for i, block_idx in enumerate(block_indices):
        start = block_idx * elements_per_block
        golden[i * elements_per_block : (i + 1) * elements_per_block] = x[start : start + elements_per_block]  # fmt: skip
    return x, block_indices * 32, golden


GENERATORS = {1: gen_golden_data_gather_scenario1, 2: gen_golden_data_gatherb_scenario2}


@pytest.mark.parametrize("scenarioNum", [1, 2])
@pytest.mark.parametrize("seed", [0, 1])
def test_gather_ld_reg_matches_the_golden(scenarioNum: int, seed: int) -> None:
    x, index, golden = GENERATORS[scenarioNum](seed)
    assert CompareResult(main(x, index, scenarioNum), golden)


@pytest.mark.parametrize("scenarioNum", [1, 2])
def test_gather_ld_reg_check_rejects_a_wrong_index(scenarioNum: int) -> None:
    """Reading every element (or block) one place further on must fail the check."""
    x, index, golden = GENERATORS[scenarioNum](2)
    step = 1 if scenarioNum == 1 else 32
    shifted = (index.astype(np.int64) + step) % (srcLength * (1 if scenarioNum == 1 else 2))
    assert not CompareResult(main(x, shifted.astype(index.dtype), scenarioNum), golden)

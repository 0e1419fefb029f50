"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_store_scatter/scatter_st_reg.asc.

Line for line: ``KernelScatterReg<half, uint16_t, 128>`` zeroes ``dstLocal`` with the
basic-API ``Duplicate``, then ``ScatterVF`` loads 128 halves and 128 uint16 indices and
scatters them with Reg ``Scatter`` under an ``UpdateMask`` tail mask. The input is made as
scripts/gen_data.py makes it (``uniform(0, 1)`` halves, the reversed index ``127 .. 0``, golden
the reversed input) and checked as the example's ``CompareResult`` does: bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, half, uint8_t, uint16_t
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

totalLength = 128
T, U = half, uint16_t  # KernelScatterReg<half, uint16_t, singleCoreLength>


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def ScatterVF(dstAddr: UbPtr[half], srcAddr: UbPtr[half], indexAddr: UbPtr[uint16_t], count: int, oneRepeatSize: int) -> None:  # fmt: skip
    srcReg = Reg.RegTensor[T]()
    indexReg = Reg.RegTensor[U]()
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    remaining = Ref(count)  # UpdateMask's uint32_t& count
    repeatTimes = DivCeil(count, oneRepeatSize)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[T](remaining)
        Reg.LoadAlign(srcReg, srcAddr + i * oneRepeatSize)
        Reg.LoadAlign(indexReg, indexAddr + i * oneRepeatSize)
        Reg.Scatter(dstAddr, srcReg, indexReg, mask)


class KernelScatterReg:
    def Init(self, src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
        self.srcGm, self.indexGm, self.dstGm = (
            GlobalTensor[T](),
            GlobalTensor[U](),
            GlobalTensor[T](),
        )
        self.srcGm.SetGlobalBuffer(src.cast(T))
        self.indexGm.SetGlobalBuffer(index.cast(U))
        self.dstGm.SetGlobalBuffer(dst.cast(T))

    def Process(self, singleCoreLength: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        srcLocal = ubAllocator.Alloc[T](singleCoreLength)
        indexLocal = ubAllocator.Alloc[U](singleCoreLength)
        dstLocal = ubAllocator.Alloc[T](singleCoreLength)
        DataCopy(srcLocal, self.srcGm, singleCoreLength)
        DataCopy(indexLocal, self.indexGm, singleCoreLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr, indexAddr, dstAddr = srcLocal.GetPhyAddr(), indexLocal.GetPhyAddr(), dstLocal.GetPhyAddr()  # fmt: skip
        oneRepeatSize = GetVecLen() // T.size
        Duplicate(dstLocal, T.np_dtype.type(0), singleCoreLength)  # dstLocal starts at 0
        asc_vf_call[ScatterVF](dstAddr, srcAddr, indexAddr, singleCoreLength, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.dstGm, dstLocal, singleCoreLength)


@__global__
@__vector__
def scatter_st_reg(src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
    InitSocState()
    singleCoreLength = totalLength
    kernel = KernelScatterReg()
    kernel.Init(src, index, dst)
    kernel.Process(singleCoreLength)
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: the 16-bit patterns must be equal."""
    return int(np.count_nonzero(outputData.view(np.uint16) != goldenData.view(np.uint16))) == 0


def main(xHost: np.ndarray, indexHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    numBlocks = 1
    byteSize = totalLength * half.size
    indexByteSize = totalLength * uint16_t.size
    dstHost = np.zeros(totalLength, dtype=np.float16)
    srcDevice, _ = acl.rt.malloc(byteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    indexDevice, _ = acl.rt.malloc(indexByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dstDevice, _ = acl.rt.malloc(byteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(srcDevice, byteSize, xHost, byteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(indexDevice, indexByteSize, indexHost, indexByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)  # fmt: skip
    scatter_st_reg[numBlocks, 0, stream](srcDevice, indexDevice, dstDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dstHost, byteSize, dstDevice, byteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for ptr in (srcDevice, indexDevice, dstDevice):
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return dstHost


def gen_golden_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: uniform halves; index 127 .. 0; golden the reversed input."""
    x = np.random.default_rng(seed).uniform(0, 1, [1, totalLength]).astype(np.float16)
    index = np.arange(totalLength - 1, -1, -1).astype(np.uint16)
    return x.flatten(), index, x.flatten()[::-1].copy()


@pytest.mark.parametrize("seed", [0, 1])
def test_scatter_st_reg_matches_the_golden(seed: int) -> None:
    x, index, golden = gen_golden_data(seed)
    assert CompareResult(main(x, index), golden)


def test_scatter_st_reg_check_rejects_the_identity_index() -> None:
    """Scattering in order (index 0 .. 127) leaves the input unreversed: the check fails."""
    x, _index, golden = gen_golden_data(2)
    assert not CompareResult(main(x, np.arange(totalLength, dtype=np.uint16)), golden)

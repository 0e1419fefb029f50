"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/gather/gather.asc.

Line for line: ``KernelGather<half, uint16_t, 128>`` copies 128 halves and 128 uint16 indices
into UB, and ``GatherVF`` loads both into registers (``PostLiteral::POST_MODE_UPDATE``) and
gathers ``dst[i] = src[index[i]]`` between registers with Reg ``Gather<T, U>`` (the
register-source form), one repeat. The input is made as scripts/gen_data.py makes it
(``uniform(0, 1)`` halves, ``uniform(0, 128)`` indices truncated to uint16, golden ``x[y]``)
and checked as the example's ``CompareResult`` does: the 16-bit patterns equal.
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, half, uint8_t, uint16_t
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
T, U = half, uint16_t  # KernelGather<half, uint16_t, singleCoreLength>


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def GatherVF(dstAddr: UbPtr[half], srcAddr: UbPtr[half], indexAddr: UbPtr[uint16_t], count: int, oneRepeatSize: int) -> None:  # fmt: skip
    srcReg, dstReg = Reg.RegTensor[T](), Reg.RegTensor[T]()
    indexReg = Reg.RegTensor[U]()
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    repeatTimes = DivCeil(count, oneRepeatSize)
    dst, src, index = (
        Ref(dstAddr),
        Ref(srcAddr),
        Ref(indexAddr),
    )  # the pointers the post-updates move
    for _i in range(repeatTimes):
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](srcReg, src, oneRepeatSize)
        Reg.LoadAlign[U, Reg.PostLiteral.POST_MODE_UPDATE](indexReg, index, oneRepeatSize)
        Reg.Gather[T, U](dstReg, srcReg, indexReg)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](dst, dstReg, oneRepeatSize, mask)


class KernelGather:
    def __init__(self, singleCoreLength: int) -> None:
        self.singleCoreLength = singleCoreLength

    def Init(self, src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
        self.srcGm, self.indexGm, self.dstGm = GlobalTensor[T](), GlobalTensor[U](), GlobalTensor[T]()  # fmt: skip
        self.srcGm.SetGlobalBuffer(src.cast(T))
        self.indexGm.SetGlobalBuffer(index.cast(U))
        self.dstGm.SetGlobalBuffer(dst.cast(T))

    def Process(self) -> None:
        singleCoreLength = self.singleCoreLength
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        srcLocal = ubAllocator.Alloc[T, singleCoreLength]()
        indexLocal = ubAllocator.Alloc[U, singleCoreLength]()
        dstLocal = ubAllocator.Alloc[T, singleCoreLength]()
        DataCopy(srcLocal, self.srcGm, singleCoreLength)
        DataCopy(indexLocal, self.indexGm, singleCoreLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        srcAddr = srcLocal.GetPhyAddr()
        indexAddr = indexLocal.GetPhyAddr()
        dstAddr = dstLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        asc_vf_call[GatherVF](dstAddr, srcAddr, indexAddr, singleCoreLength, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.dstGm, dstLocal, singleCoreLength)


@__global__
@__vector__
def gather(src: GmPtr[uint8_t], index: GmPtr[uint8_t], dst: GmPtr[uint8_t]) -> None:
    InitSocState()
    singleCoreLength = totalLength
    kernel = KernelGather(singleCoreLength)
    kernel.Init(src, index, dst)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's ``CompareResult`` for 2-byte elements: every 16-bit pattern equal."""
    return int(np.count_nonzero(outputData.view(np.uint16) != goldenData.view(np.uint16))) == 0


def main(srcHost: np.ndarray, indexHost: np.ndarray) -> np.ndarray:
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
    acl.rt.memcpy(srcDevice, byteSize, srcHost, byteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(indexDevice, indexByteSize, indexHost, indexByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)  # fmt: skip
    gather[numBlocks, 0, stream](srcDevice, indexDevice, dstDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dstHost, byteSize, dstDevice, byteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for ptr in (srcDevice, indexDevice, dstDevice):
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return dstHost


def gen_golden_data_gather(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: halves in [0, 1), indices in [0, 128), golden ``x[y]``."""
    total_length = 128
    x = rng.uniform(0, 1, [1, total_length]).astype(np.float16)
    y = rng.uniform(0, total_length, [1, total_length]).astype(np.uint16)
    x_flat, y_flat = x.flatten(), y.flatten()
    return x_flat, y_flat, x_flat[y_flat]


def test_gather_matches_the_golden() -> None:
    for seed in (0, 1):
        x, y, golden = gen_golden_data_gather(np.random.default_rng(seed))
        assert CompareResult(main(x, y), golden)


def test_gather_check_rejects_a_reversed_index() -> None:
    """Gathering through the reversed index must fail the check."""
    x, y, golden = gen_golden_data_gather(np.random.default_rng(2))
    assert not CompareResult(main(x, y[::-1].copy()), golden)

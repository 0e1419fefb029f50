"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/reduce/reduce.asc.

Line for line: ``ReduceSumVF`` zeroes an accumulator with Reg ``Duplicate``, reduces each
256-byte repeat with ``Reduce<ReduceType::SUM>`` and adds the result into the accumulator with
``Add``; element 0 of the stored accumulator is the sum, and 8 floats (32 bytes) are copied
out. The input is made as scripts/gen_data.py makes it (``[1, 256]`` float32 uniform in
[1, 2), golden ``[sum(x), 0, ..., 0]``) and checked as the example's ``CompareResult`` checks
it: element 0 only, failing when its absolute and relative error both exceed 1e-4.
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
from example_checks import CompareResult as CompareElementwise


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


T = float32_t  # Kernel<float>


@__simd_vf__
def ReduceSumVF(
    dstAddr: UbPtr[float32_t],
    srcAddr: UbPtr[float32_t],
    totalCount: int,
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    srcReg = Reg.RegTensor[T]()
    dstReg = Reg.RegTensor[T]()
    accReg = Reg.RegTensor[T]()
    Reg.Duplicate(accReg, np.float32(0), mask)
    for i in range(repeatTimes):
        Reg.LoadAlign(srcReg, srcAddr + i * oneRepeatSize)
        Reg.Reduce[Reg.ReduceType.SUM](dstReg, srcReg, mask)
        Reg.Add(accReg, accReg, dstReg, mask)
    Reg.StoreAlign(dstAddr, accReg, mask)


class Kernel:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], totalLength: int) -> None:
        self.totalLength = totalLength
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
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
        asc_vf_call[ReduceSumVF](yAddr, xAddr, self.totalLength, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        outAlignSize = 8
        DataCopy(self.yGm, yLocal, outAlignSize)


@__global__
@__vector__
def reduce(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    totalLength = 256
    kernel = Kernel()
    kernel.Init(x, y, totalLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: element 0 only, with the shared element-wise rule."""
    return CompareElementwise(outputData[:1], goldenData[:1])


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    inputByteSize = totalLength * float32_t.size
    outputByteSize = 8 * float32_t.size
    zHost = np.zeros(8, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    reduce[numBlocks, 0, stream](xDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [1, 2) of shape [1, 256], golden ``[sum(x), 0 * 7]``."""
    total_length = 256
    data_type = np.float32
    x = np.random.default_rng(seed).uniform(1, 2, [1, total_length]).astype(data_type)
    golden = np.zeros(8, dtype=data_type)
    golden[0] = np.sum(x)
    return x, golden


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reduce_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert CompareResult(main(x.reshape(-1)), golden)


def test_reduce_check_rejects_a_sum_missing_one_repeat() -> None:
    x, golden = gen_golden_data_simple(3)
    x[0, 192:] = 0.0  # the kernel now sums only three repeats' worth of the golden's input
    assert not CompareResult(main(x.reshape(-1)), golden)

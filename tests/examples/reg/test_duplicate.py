"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/duplicate/duplicate.asc.

Line for line: ``Kernel<float>`` calls ``DuplicateScalarVF``, which fills a register with Reg
``Duplicate(dstReg, scalarValue, mask)`` and stores it once per 256-byte repeat; the fill value
is ``static_cast<float>(3.14)``. No input; the golden is made as scripts/gen_data.py makes it
(``np.full([1, 256], 3.14, float32)``) and checked with the example's ``CompareResult``
(absolute and relative error both above 1e-4 fails an element).
"""

from __future__ import annotations

import numpy as np

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
from example_checks import CompareResult


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


T = float32_t  # Kernel<float>


@__simd_vf__
def DuplicateScalarVF(
    dstAddr: UbPtr[float32_t], scalarValue: np.float32, repeatTimes: int, oneRepeatSize: int
) -> None:
    dstReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T]()
    for i in range(repeatTimes):
        Reg.Duplicate(dstReg, scalarValue, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


class Kernel:
    def Init(self, y: GmPtr[uint8_t], totalLength: int) -> None:
        self.totalLength = totalLength
        self.yGm = GlobalTensor[T]()
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        yLocal = ubAllocator.Alloc[T, 256]()

        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(self.totalLength, oneRepeatSize)
        fillValue = np.float32(3.14)
        asc_vf_call[DuplicateScalarVF](yAddr, fillValue, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.yGm, yLocal, self.totalLength)


@__global__
@__vector__
def duplicate(y: GmPtr[uint8_t]) -> None:
    InitSocState()
    totalLength = 256
    kernel = Kernel()
    kernel.Init(y, totalLength)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main() -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    outputByteSize = 1 * totalLength * float32_t.size
    yHost = np.zeros(totalLength, dtype=np.float32)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    duplicate[numBlocks, 0, stream](yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_simple() -> np.ndarray:
    """scripts/gen_data.py: golden ``3.14`` in all 256 float32 elements."""
    total_length = 256
    data_type = np.float32
    fill_value = 3.14
    golden = np.full([1, total_length], fill_value, dtype=data_type)
    return golden


def test_duplicate_matches_the_golden() -> None:
    assert CompareResult(main(), gen_golden_data_simple())


def test_duplicate_check_rejects_an_unfilled_element() -> None:
    output = main()
    output[255] = 0.0  # the last lane of the last repeat left unwritten
    assert not CompareResult(output, gen_golden_data_simple())

"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_store_mask/ld_st_reg_mask_scenario_1.asc.

Line for line: ``CopyVF`` loads a ``MaskReg`` straight from UB (``LoadAlign(mask, srcAddr)``),
fills a ``uint8_t`` register with ``Duplicate<T>(reg, 2, mask)`` and stores it under that mask
into an output the basic-API ``Duplicate`` zeroed, then stores an all-true ``MaskReg`` itself
(``StoreAlign(dstAddr + oneRepeatSize, mask)``: 32 bytes of 0xFF). Input and golden are made as
scripts/gen_data.py's ``gen_data_1`` makes them (1024 bytes with bytes 0 and 31 set to 1, so
mask lanes 0 and 248 are on; golden 2 at bytes 0 and 248 and 0xFF at bytes 256..287).

The example's ``CompareResult`` reads the bytes as floats (``re = ae / |b + EPS|``, EPS 1e-4):
byte values 0..2 become denormals far below EPS and the 0xFF bytes become NaN, so it cannot see
a wrong byte. The port runs it as written and also compares the bytes exactly, which is the
check that makes a wrong result fail. Scenario 2 (``ld_st_reg_mask_scenario_2.asc``) is the same
``SelectVF`` kernel, data and check as ``select.asc``, ported in ``test_select.py``.
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Reg, UbPtr, acl, uint8_t
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


totalLength = 1024  # ld_st_reg_mask_scenario_1<uint8_t, totalLength>
T = uint8_t


@__simd_vf__
def CopyVF(
    dstAddr: UbPtr[uint8_t], srcAddr: UbPtr[uint8_t], repeatTimes: int, oneRepeatSize: int
) -> None:
    reg = Reg.RegTensor[T]()
    mask = Reg.MaskReg()
    Reg.LoadAlign(mask, srcAddr)
    Reg.Duplicate[T](reg, 2, mask)
    Reg.StoreAlign(dstAddr, reg, mask)
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    Reg.StoreAlign(dstAddr + oneRepeatSize, mask)


class KernelScenario1:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T](totalLength)
        yLocal = ubAllocator.Alloc[T](totalLength)

        DataCopy(xLocal, self.xGm, totalLength)

        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        Duplicate[T](yLocal, 0, totalLength)

        srcAddr = xLocal.GetPhyAddr()
        dstAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(totalLength, oneRepeatSize)
        asc_vf_call[CopyVF](dstAddr, srcAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.yGm, yLocal, totalLength)


@__global__
@__vector__
def ld_st_reg_mask_scenario_1(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = KernelScenario1()
    kernel.Init(x, y)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check, as written: the bytes read as floats, ``re = ae / |b + EPS|``."""
    EPS = np.float32(1e-4)
    a = outputData.reshape(-1).view(np.float32)
    b = goldenData.reshape(-1).view(np.float32)
    ae = np.abs(a - b)
    with np.errstate(invalid="ignore"):
        re = ae / np.abs(b + EPS)
        wrongNum = int(np.count_nonzero((ae > EPS) & (re > EPS)))
    return wrongNum == 0


def CompareBytes(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The exact check the port adds: every byte equal to the golden's."""
    return bool(np.array_equal(outputData.reshape(-1), goldenData.reshape(-1)))


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    aInputByteSize = 1 * totalLength * uint8_t.size
    outputByteSize = 1 * totalLength * uint8_t.size
    yHost = np.zeros(totalLength, dtype=np.uint8)
    xDevice, _ = acl.rt.malloc(aInputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, aInputByteSize, xHost, aInputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ld_st_reg_mask_scenario_1[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_data_1() -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py ``gen_data_1``: mask bytes 0 and 31 set; golden per lane."""
    src = np.zeros(1024, dtype=np.uint8)
    src[0] = 1
    src[31] = 1
    dst = np.zeros(1024, dtype=np.uint8)
    dst[0] = 2
    dst[248] = 2
    dst[256 : 256 + 32] = 255
    return src, dst


def test_ld_st_reg_mask_matches_the_golden() -> None:
    src, golden = gen_data_1()
    output = main(src)
    assert CompareResult(output, golden)
    assert CompareBytes(output, golden)


def test_ld_st_reg_mask_byte_check_rejects_a_lane_the_example_check_misses() -> None:
    src, golden = gen_data_1()
    output = main(src)
    output[248] = 0  # mask lane 248 ignored
    assert CompareResult(output, golden)  # the example's float view cannot see it
    assert not CompareBytes(output, golden)

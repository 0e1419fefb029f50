"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/squeeze/squeeze.asc.

Line for line: ``Kernel<float, 256, 64>``; ``SqueezeVF`` clears AR with ``ClearSpr<AR>``, then
per repeat loads 64 floats with POST_MODE_UPDATE ``LoadAlign``, keeps every fourth one with
``Squeeze<T, GatherMaskMode::STORE_REG>`` under the ``M4`` mask (which adds the kept bytes to
AR) and stores them with the AR form of ``StoreUnAlign`` (no stride: the offset from the
unmoved ``yAddr`` comes from AR), flushing once with ``StoreUnAlignPost(yAddr, ureg)``. C++
updates the by-value ``xAddr`` through ``T*&``; here it is a :class:`~ascreg.Ref` box, while
``yAddr`` stays a plain pointer as in the C++. The input is made as scripts/gen_data.py makes
it (256 float32 from ``uniform(-2, 2)``, golden every fourth one) and checked as the example's
``CompareResult`` does (wrong when both the absolute and the relative error exceed 1e-4).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import (
    GatherMaskMode,
    GmPtr,
    PostLiteral,
    Ref,
    Reg,
    SpecialPurposeReg,
    UbPtr,
    acl,
    float32_t,
    uint8_t,
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

T = float32_t  # Kernel<float, srcLength, dstLength>
POST = PostLiteral.POST_MODE_UPDATE


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def SqueezeVF(xAddr: UbPtr[float32_t], yAddr: UbPtr[float32_t], repeatTimes: int, oneRepeatSize: int) -> None:  # fmt: skip
    x = Ref(xAddr)  # the by-value parameter LoadAlign's post update advances
    mask = Reg.CreateMask[T, Reg.MaskPattern.M4]()
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    ureg = Reg.UnalignRegForStore()
    Reg.ClearSpr[SpecialPurposeReg.AR]()
    for _ in range(repeatTimes):
        Reg.LoadAlign[T, POST](xReg, x, oneRepeatSize)
        Reg.Squeeze[T, GatherMaskMode.STORE_REG](yReg, xReg, mask)
        Reg.StoreUnAlign[T, POST](yAddr, yReg, ureg)
    Reg.StoreUnAlignPost(yAddr, ureg)


class Kernel:
    def __init__(self, srcLength: int, dstLength: int) -> None:
        self.srcLength, self.dstLength = srcLength, dstLength  # the template arguments

    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T](self.srcLength)
        yLocal = ubAllocator.Alloc[T](self.dstLength)

        DataCopy(xLocal, self.xGm, self.srcLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(self.srcLength, oneRepeatSize)
        asc_vf_call[SqueezeVF](xAddr, yAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.yGm, yLocal, self.dstLength)


@__global__
@__vector__
def squeeze(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    srcLength = 256
    dstLength = 64
    InitSocState()
    kernel = Kernel(srcLength, dstLength)
    kernel.Init(x, y)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: wrong when ``|a - b| > 1e-4`` and ``|a - b| / |b| > 1e-4``."""
    EPS = np.float32(1e-4)
    a = outputData.reshape(-1).astype(np.float32)
    b = goldenData.reshape(-1).astype(np.float32)
    ae = np.abs(a - b)
    with np.errstate(divide="ignore", invalid="ignore"):
        re = ae / np.abs(b)
    wrongNum = int(np.count_nonzero((ae > EPS) & (re > EPS)))
    return wrongNum == 0


def main(xHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    srcLength = 256
    dstLength = 64
    inputByteSize = 1 * srcLength * float32_t.size
    outputByteSize = 1 * dstLength * float32_t.size
    yHost = np.zeros(dstLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    squeeze[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x from ``uniform(-2, 2)``; golden the first of every four."""
    total_length = 256
    x = np.random.default_rng(seed).uniform(-2, 2, [1, total_length]).astype(np.float32)
    golden = x.reshape(total_length // 4, 4)[:, 0]
    return x.reshape(-1), golden


@pytest.mark.parametrize("seed", [0, 1])
def test_squeeze_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_simple(seed)
    assert CompareResult(main(x), golden)


def test_squeeze_check_rejects_a_wrong_offset() -> None:
    """Storing each repeat at yAddr + AR (after its squeeze) instead of before skips 16 floats."""
    x, golden = gen_golden_data_simple(2)
    output = main(x)
    shifted = np.zeros_like(output)
    shifted[16:] = golden[:48]
    assert CompareResult(output, golden)
    assert not CompareResult(shifted, golden)
    assert not CompareResult(x.reshape(64, 4)[:, 1], golden)  # the wrong lane of each four

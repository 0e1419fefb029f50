"""Port of asc-devkit examples/01_simd_cpp_api/00_introduction/04_reg_compute/add/add.asc.

Line for line: ``vector_add<singleCoreLength><<<4, 0, stream>>>(x, y)`` computes ``y = x + x``
with a Reg ``AddVF`` on each block's slice, reached through ``GlobalTensor::operator[]``.
Inputs and golden are made as the example's scripts/gen_data.py makes them (all ones, golden
``src + src``) and checked as scripts/verify_result.py checks them (``np.isclose`` with
rtol 1e-4, atol 1e-5, at most 1e-4 of the elements off). A second run uses distinct inputs, so
that a block reading or writing the wrong slice fails too.
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
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


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


T = float32_t  # template <typename T, ...> AddVF<float, ...>
totalLength = 256 * 256
singleCoreLength = totalLength // 4


@__simd_vf__
def AddVF(dstAddr: UbPtr[float32_t], count: int) -> None:
    oneRepeatSize = GetVecLen() // T.size
    repeatTimes = DivCeil(singleCoreLength, oneRepeatSize)
    mask = Reg.MaskReg()
    srcReg, dstReg = Reg.RegTensor[T](), Reg.RegTensor[T]()
    count_ = Ref(count)  # C++ updates the by-value parameter through UpdateMask's reference

    for i in range(repeatTimes):
        mask = Reg.UpdateMask[T](count_)
        Reg.LoadAlign(srcReg, dstAddr + i * oneRepeatSize)
        Reg.LoadAlign(dstReg, dstAddr + i * oneRepeatSize)
        Reg.Add(dstReg, dstReg, srcReg, mask)
        Reg.StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask)


@__global__
@__vector__
def vector_add(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    xGm = GlobalTensor[float32_t]()
    yGm = GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x.cast(float32_t))
    yGm.SetGlobalBuffer(y.cast(float32_t))
    coreOffset = GetBlockIdx() * singleCoreLength
    ubAllocator = LocalMemAllocator[Hardware.UB]()
    yLocal = ubAllocator.Alloc[float32_t, singleCoreLength]()

    DataCopy(yLocal, xGm[coreOffset], singleCoreLength)
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

    dstAddr = yLocal.GetPhyAddr()
    asc_vf_call[AddVF](dstAddr, singleCoreLength)

    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

    DataCopy(yGm[coreOffset], yLocal, singleCoreLength)
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray) -> np.ndarray:
    inputByteSize = totalLength * float32_t.size
    outputByteSize = totalLength * float32_t.size
    numBlocks = 4
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    yHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    vector_add[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_simple(src: np.ndarray) -> np.ndarray:
    """scripts/gen_data.py: ``golden = copy(src) + src``."""
    golden: np.ndarray = np.copy(src)
    golden = golden + src
    return golden


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol=1e-4, atol=1e-5), error ratio <= 1e-4."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-4, atol=1e-5, equal_nan=True)
    return float(np.count_nonzero(~close)) / golden.size <= 1e-4


def test_add_with_the_examples_data() -> None:
    src = np.ones([256, 256]).astype(np.float32)
    assert verify_result(main(src.reshape(-1)), gen_golden_data_simple(src))


def test_add_catches_a_wrong_slice() -> None:
    src = np.random.default_rng(7).uniform(-100, 100, [256, 256]).astype(np.float32)
    output = main(src.reshape(-1))
    assert verify_result(output, gen_golden_data_simple(src))
    assert not verify_result(np.roll(output, singleCoreLength), gen_golden_data_simple(src))

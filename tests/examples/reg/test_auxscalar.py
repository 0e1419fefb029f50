"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_auxscalar/auxscalar_reg.asc.

Line for line: ``KernelAuxScalar<half, 512>`` copies 512 halves and a 32-byte block of 16
scalars into UB; inside ``AuxScalarAddsVF`` each 256-byte repeat reads its scalar straight from
UB (``T scalar = scalarAddr[i]``) and adds it with Reg ``Adds``, walking the pointers with
``PostLiteral::POST_MODE_UPDATE``. Inputs are made as scripts/gen_data.py makes them (``x``
float16 uniform in [1, 2) of shape [1, 512]; scalars 1.5, 2.5, 3.5, 4.5 padded with zeros to
16; golden ``x + scalar[i]`` per 128-element block) and checked as the example's
``CompareResult`` checks them: every half compared bit for bit as ``uint16_t``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, half, uint8_t
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


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


totalLength = 512
T = half  # KernelAuxScalar<half, singleCoreLength>


@__simd_vf__
def AuxScalarAddsVF(
    xAddr: UbPtr[half],
    scalarAddr: UbPtr[half],
    zAddr: UbPtr[half],
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    zReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    x, z = Ref(xAddr), Ref(zAddr)  # C++ passes the pointers by reference

    for i in range(repeatTimes):
        scalar = scalarAddr[i]
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        Reg.Adds(zReg, xReg, scalar, mask)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, mask)


class KernelAuxScalar:
    def __init__(self, singleCoreLength: int) -> None:  # the template argument
        self.singleCoreLength = singleCoreLength

    def Init(self, x: GmPtr[uint8_t], scalar: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.scalarGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.scalarGm.SetGlobalBuffer(scalar.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        singleCoreLength = self.singleCoreLength
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, singleCoreLength]()
        scalarLocal = ubAllocator.Alloc[T, 16]()  # 4 scalars and padding: 32 bytes
        zLocal = ubAllocator.Alloc[T, singleCoreLength]()

        scalarAlignCount = 16
        DataCopy(xLocal, self.xGm, singleCoreLength)
        DataCopy(scalarLocal, self.scalarGm, scalarAlignCount)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        scalarAddr = scalarLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(singleCoreLength, oneRepeatSize)

        asc_vf_call[AuxScalarAddsVF](xAddr, scalarAddr, zAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm, zLocal, singleCoreLength)


@__global__
@__vector__
def auxscalar_reg(x: GmPtr[uint8_t], scalar: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    InitSocState()
    singleCoreLength = totalLength
    kernel = KernelAuxScalar(singleCoreLength)
    kernel.Init(x, scalar, z)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: each half compared bit for bit as ``uint16_t``."""
    a = outputData.reshape(-1).view(np.uint16)
    b = goldenData.reshape(-1).view(np.uint16)
    wrongNum = int(np.count_nonzero(a != b))
    return wrongNum == 0


def main(xHost: np.ndarray, scalarHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    numBlocks = 1

    xByteSize = totalLength * half.size
    scalarByteSize = 16 * half.size  # 16 halves = 32 bytes, DataCopy's alignment
    zByteSize = totalLength * half.size
    zHost = np.zeros(totalLength, dtype=np.float16)
    xDevice, _ = acl.rt.malloc(xByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    scalarDevice, _ = acl.rt.malloc(scalarByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(zByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, xByteSize, xHost, xByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(
        scalarDevice, scalarByteSize, scalarHost, scalarByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    auxscalar_reg[numBlocks, 0, stream](xDevice, scalarDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, zByteSize, zDevice, zByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(scalarDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [1, 2) as float16, four scalars, golden per block."""
    total_length = 512
    block_size = 128
    data_type = np.float16
    x = np.random.default_rng(seed).uniform(1, 2, [1, total_length]).astype(data_type)
    scalar_values = np.array([1.5, 2.5, 3.5, 4.5], dtype=data_type)
    scalar = np.zeros(16, dtype=data_type)
    scalar[0:4] = scalar_values
    golden = np.zeros_like(x)
    for i in range(4):
        golden[0, i * block_size : (i + 1) * block_size] = (
            x[0, i * block_size : (i + 1) * block_size] + scalar_values[i]
        )
    return x, scalar, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_auxscalar_matches_the_golden_bit_for_bit(seed: int) -> None:
    x, scalar, golden = gen_golden_data(seed)
    assert CompareResult(main(x.reshape(-1), scalar), golden)


def test_auxscalar_check_rejects_a_repeat_with_the_wrong_scalar() -> None:
    x, scalar, golden = gen_golden_data(2)
    scalar[[1, 2]] = scalar[[2, 1]]  # repeats 1 and 2 now add each other's scalar
    assert not CompareResult(main(x.reshape(-1), scalar), golden)

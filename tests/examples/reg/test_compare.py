"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/compare/compare.asc.

Line for line, both scenarios of the compile-time ``SCENARIO_NUM`` (here the module global
``scenarioNum``, set per test as ``-DSCENARIO_NUM=n`` sets it per build): ``CompareVF`` picks
``x`` where ``x > y`` (Reg ``Compare<T, CMPMODE::GT>`` then ``Select``), ``ComparesVF`` picks
``x`` where ``x > 0`` (``Compares`` against the scalar), both walking the UB pointers with
``PostLiteral::POST_MODE_UPDATE`` loads and stores. Inputs are made as scripts/gen_data.py makes
them (two ``[1, 256]`` float32 arrays uniform in [-2, 2); golden ``np.maximum(x, y)`` for
scenario 1, ``y`` with ``x`` where ``x > 0`` for scenario 2) and checked with the example's
``CompareResult`` (absolute and relative error both above 1e-4 fails an element).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
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


scenarioNum = 1  # SCENARIO_NUM, a compile-time define in the example
totalLength = 256  # the kernel's constexpr, passed as Kernel<float, totalLength>
T = float32_t


@__simd_vf__
def CompareVF(
    xAddr: UbPtr[float32_t],
    yAddr: UbPtr[float32_t],
    zAddr: UbPtr[float32_t],
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    maskReg = Reg.CreateMask[T]()
    zReg = Reg.RegTensor[T]()
    x, y, z = Ref(xAddr), Ref(yAddr), Ref(zAddr)  # C++ passes the pointers by reference
    for _ in range(repeatTimes):
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](yReg, y, oneRepeatSize)
        Reg.Compare[T, Reg.CMPMODE.GT](maskReg, xReg, yReg, mask)
        Reg.Select(zReg, xReg, yReg, maskReg)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, mask)


@__simd_vf__
def ComparesVF(
    xAddr: UbPtr[float32_t],
    yAddr: UbPtr[float32_t],
    zAddr: UbPtr[float32_t],
    scalar: np.float32,
    repeatTimes: int,
    oneRepeatSize: int,
) -> None:
    mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    maskReg = Reg.CreateMask[T]()
    zReg = Reg.RegTensor[T]()
    x, y, z = Ref(xAddr), Ref(yAddr), Ref(zAddr)

    for _ in range(repeatTimes):
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](yReg, y, oneRepeatSize)
        Reg.Compares[T, Reg.CMPMODE.GT](maskReg, xReg, scalar, mask)
        Reg.Select(zReg, xReg, yReg, maskReg)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, mask)


class Kernel:
    def Init(
        self,
        x: GmPtr[uint8_t],
        y: GmPtr[uint8_t],
        z: GmPtr[uint8_t],
        scalar: np.float32 = np.float32(0),  # noqa: B008 (C++ `T scalar = 0`)
    ) -> None:
        self.scalar = scalar
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, totalLength]()
        yLocal = ubAllocator.Alloc[T, totalLength]()
        zLocal = ubAllocator.Alloc[T, totalLength]()

        DataCopy(xLocal, self.xGm, totalLength)
        DataCopy(yLocal, self.yGm, totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(totalLength, oneRepeatSize)
        if scenarioNum == 1:
            asc_vf_call[CompareVF](xAddr, yAddr, zAddr, repeatTimes, oneRepeatSize)
        else:
            asc_vf_call[ComparesVF](xAddr, yAddr, zAddr, self.scalar, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm, zLocal, totalLength)


@__global__
@__vector__
def compare(x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    scalar = np.float32(0)
    InitSocState()
    kernel = Kernel()
    kernel.Init(x, y, z, scalar)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray, yHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    inputByteSize = 1 * totalLength * float32_t.size
    outputByteSize = 1 * totalLength * float32_t.size
    zHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, inputByteSize, yHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    compare[numBlocks, 0, stream](xDevice, yDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(
    scenario_num: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x, y uniform in [-2, 2) of shape [1, 256]; golden per scenario."""
    total_length = 256
    data_type = np.float32
    scalar = 0.0
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, [1, total_length]).astype(data_type)
    y = rng.uniform(-2, 2, [1, total_length]).astype(data_type)
    if scenario_num == 1:
        golden = np.maximum(x, y)
    else:
        golden = y.copy()
        golden[x > scalar] = x[x > scalar]
    return x, y, golden


@pytest.fixture(params=[1, 2])
def SCENARIO_NUM(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


@pytest.mark.parametrize("seed", [0, 1])
def test_compare_matches_the_golden(SCENARIO_NUM: int, seed: int) -> None:
    x, y, golden = gen_golden_data_simple(SCENARIO_NUM, seed)
    assert CompareResult(main(x.reshape(-1), y.reshape(-1)), golden)


def test_compare_check_rejects_the_other_scenarios_result(SCENARIO_NUM: int) -> None:
    """Each scenario's output fails the other scenario's golden: the two selections differ."""
    x, y, golden = gen_golden_data_simple(3 - SCENARIO_NUM, 2)
    assert not CompareResult(main(x.reshape(-1), y.reshape(-1)), golden)

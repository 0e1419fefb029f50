"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/subnormal/subnormal.asc.

Line for line, both scenarios of the compile-time ``SCENARIO_NUM`` (the module global
``scenarioNum``): ``Div`` of float with ``DivSpecificMode{ZEROING, false, algo}``, where
``algo`` is ``PRECISION_1ULP_FTZ_FALSE`` (scenario 1, subnormals kept) or
``PRECISION_1ULP_FTZ_TRUE`` (scenario 2, subnormal inputs and results flushed to zero). The
inputs are made as scripts/gen_data.py makes them (1024 floats tiling five normal/subnormal
quotient cases, golden the float64 quotient rounded to float32), and checked with the
example's own ``CompareResult``: bit-exact equality of the first five elements in scenario 1,
bit-exact *inequality* of each of them in scenario 2.
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


scenarioNum = 1  # SCENARIO_NUM, a compile-time define in the example
totalLength = 1024
numBlocks = 1
singleCoreLength = totalLength // numBlocks
T = float32_t  # KernelSubnormal<float>


def _div_vf(algo: Reg.DivAlgo) -> object:
    """``SubnormalFTZFalseVF`` / ``SubnormalFTZTrueVF``: the same body, one ``algo`` each."""

    @__simd_vf__
    def vf(xAddr: UbPtr[float32_t], yAddr: UbPtr[float32_t], zAddr: UbPtr[float32_t],
           repeatTimes: int, oneRepeatSize: int) -> None:  # fmt: skip
        mask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
        xReg, yReg, zReg = Reg.RegTensor[T](), Reg.RegTensor[T](), Reg.RegTensor[T]()
        mode = Reg.DivSpecificMode(Reg.MaskMergeMode.ZEROING, False, algo)
        x, y, z = Ref(xAddr), Ref(yAddr), Ref(zAddr)  # C++ passes the pointers by reference
        for _ in range(repeatTimes):
            Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
            Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](yReg, y, oneRepeatSize)
            Reg.Div[T, mode](zReg, xReg, yReg, mask)
            Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, mask)

    return vf


SubnormalFTZFalseVF = _div_vf(Reg.DivAlgo.PRECISION_1ULP_FTZ_FALSE)  # subnormals supported
SubnormalFTZTrueVF = _div_vf(Reg.DivAlgo.PRECISION_1ULP_FTZ_TRUE)  # subnormals not supported


class KernelSubnormal:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        coreOffset = GetBlockIdx() * singleCoreLength

        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, singleCoreLength]()
        yLocal = ubAllocator.Alloc[T, singleCoreLength]()
        zLocal = ubAllocator.Alloc[T, singleCoreLength]()

        DataCopy(xLocal, self.xGm[coreOffset], singleCoreLength)
        DataCopy(yLocal, self.yGm[coreOffset], singleCoreLength)

        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()

        oneRepeatSize = GetVecLen() // T.size
        repeatTimes = DivCeil(singleCoreLength, oneRepeatSize)
        if scenarioNum == 1:
            asc_vf_call[SubnormalFTZFalseVF](xAddr, yAddr, zAddr, repeatTimes, oneRepeatSize)
        elif scenarioNum == 2:
            asc_vf_call[SubnormalFTZTrueVF](xAddr, yAddr, zAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm[coreOffset], zLocal, singleCoreLength)


@__global__
@__vector__
def subnormal(x: GmPtr[uint8_t], y: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = KernelSubnormal()
    kernel.Init(x, y, z)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's check: bit patterns of the first five elements, equal (scenario 1) or
    all different (scenario 2)."""
    wrongNum = 0
    a_bits, b_bits = outputData.view(np.uint32), goldenData.reshape(-1).view(np.uint32)
    for i in range(outputData.size):
        # subnormals on: the result equals the golden; off: it differs
        result = a_bits[i] != b_bits[i] if scenarioNum == 1 else a_bits[i] == b_bits[i]
        if result and i < 5:
            wrongNum += 1
    return wrongNum == 0


def main(xHost: np.ndarray, yHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    inputByteSize = totalLength * float32_t.size
    outputByteSize = totalLength * float32_t.size
    zHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, inputByteSize, yHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    subnormal[numBlocks, 0, stream](xDevice, yDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: N/N=S, N/S=N, S/N=S, S/N=N, S/S=N tiled to 1024 floats."""
    total_length = 1024
    x_small = np.array([2.0**-126, 2.0**-125, 2.0**-130, 2.0**-130, 2.0**-140])
    y_small = np.array([4.0, 2.0**-127, 2.0, 2.0**-20, 2.0**-145])
    reps = int(np.ceil(total_length / len(x_small)))
    x = (np.tile(x_small, reps)[:total_length]).astype(np.float32)
    y = (np.tile(y_small, reps)[:total_length]).astype(np.float32)
    golden = (x.astype(np.float64) / y.astype(np.float64)).astype(np.float32)
    return x, y, golden


@pytest.fixture(params=[1, 2])
def SCENARIO_NUM(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


def test_subnormal_matches_the_golden(SCENARIO_NUM: int) -> None:
    x, y, golden = gen_golden_data()
    assert CompareResult(main(x, y), golden)


def test_subnormal_check_rejects_the_other_scenario(SCENARIO_NUM: int) -> None:
    """Scenario 1's output fails scenario 2's check and the other way round."""
    global scenarioNum
    x, y, golden = gen_golden_data()
    output = main(x, y)
    scenarioNum = 3 - SCENARIO_NUM
    assert not CompareResult(output, golden)

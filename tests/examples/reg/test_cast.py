"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/cast/cast.asc.

Line for line, both scenarios of the compile-time ``SCENARIO_NUM`` (the module global
``scenarioNum``): scenario 1 widens half to int32_t (``CastVFF162S32``: an unpacking
``DIST_UNPACK_B16`` load puts ``x[i]`` in lane ``2i``, ``Cast`` with ``RegLayout::ZERO`` and
``CAST_FLOOR`` reads the even lanes), scenario 2 narrows float to int16_t
(``CastVFF322S16``: ``RegLayout::ZERO``, ``SatMode::SAT``, ``CAST_ROUND``, then a
``DIST_PACK_B32`` store of the even lanes). Inputs are made as scripts/gen_data.py makes them
(``[1, 256]`` uniform in [-100, 100); golden ``floor(x)`` as int32, or ``round(x)`` clipped
to int16) and checked with the example's ``CompareResult`` (absolute and relative error both
above 1e-4 fails an element).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, half, int16_t, int32_t, uint8_t
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


@__simd_vf__
def CastVFF162S32(
    xAddr: UbPtr[half], yAddr: UbPtr[int32_t], repeatTimes: int, oneRepeatSize: int
) -> None:
    mask = Reg.CreateMask[int32_t, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[half]()
    yReg = Reg.RegTensor[int32_t]()
    castTrait = Reg.CastTrait(
        Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_FLOOR
    )
    x, y = Ref(xAddr), Ref(yAddr)  # C++ passes the pointers by reference
    for _ in range(repeatTimes):
        # unpacking load: VL/2 bytes of half, x[i] lands in lane 2i
        Reg.LoadAlign[half, Reg.PostLiteral.POST_MODE_UPDATE, Reg.LoadDist.DIST_UNPACK_B16](
            xReg, x, oneRepeatSize
        )
        # y[i] = floor(x[i * 2])
        Reg.Cast[int32_t, half, castTrait](yReg, xReg, mask)
        Reg.StoreAlign[int32_t, Reg.PostLiteral.POST_MODE_UPDATE](y, yReg, oneRepeatSize, mask)


@__simd_vf__
def CastVFF322S16(
    xAddr: UbPtr[float32_t], yAddr: UbPtr[int16_t], repeatTimes: int, oneRepeatSize: int
) -> None:
    mask = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    xReg = Reg.RegTensor[float32_t]()
    yReg = Reg.RegTensor[int16_t]()
    castTrait = Reg.CastTrait(
        Reg.RegLayout.ZERO, Reg.SatMode.SAT, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_ROUND
    )
    x, y = Ref(xAddr), Ref(yAddr)
    for _ in range(repeatTimes):
        Reg.LoadAlign[float32_t, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        # y[i * 2] = round(x[i])
        Reg.Cast[int16_t, float32_t, castTrait](yReg, xReg, mask)
        # packing store: the low halves of the b32 lanes, i.e. y[i * 2], stored contiguously
        Reg.StoreAlign[int16_t, Reg.PostLiteral.POST_MODE_UPDATE, Reg.StoreDist.DIST_PACK_B32](
            y, yReg, oneRepeatSize, mask
        )


class Kernel:
    """``Kernel<SrcT, DstT, totalLength>``."""

    def __init__(self, SrcT: Any, DstT: Any, totalLength: int) -> None:
        self.SrcT, self.DstT, self.totalLength = SrcT, DstT, totalLength

    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[self.SrcT]()
        self.yGm = GlobalTensor[self.DstT]()
        self.xGm.SetGlobalBuffer(x.cast(self.SrcT))
        self.yGm.SetGlobalBuffer(y.cast(self.DstT))

    def Process(self) -> None:
        SrcT, DstT, totalLength = self.SrcT, self.DstT, self.totalLength
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[SrcT, totalLength]()
        yLocal = ubAllocator.Alloc[DstT, totalLength]()

        DataCopy(xLocal, self.xGm, totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        oneRepeatSize = (
            GetVecLen() // SrcT.size if SrcT.size > DstT.size else GetVecLen() // DstT.size
        )
        repeatTimes = DivCeil(totalLength, oneRepeatSize)
        if scenarioNum == 1:
            asc_vf_call[CastVFF162S32](xAddr, yAddr, repeatTimes, oneRepeatSize)
        else:
            asc_vf_call[CastVFF322S16](xAddr, yAddr, repeatTimes, oneRepeatSize)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.yGm, yLocal, totalLength)


@__global__
@__vector__
def cast(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    totalLength = 256
    InitSocState()
    if scenarioNum == 1:
        kernel = Kernel(half, int32_t, totalLength)
        kernel.Init(x, y)
        kernel.Process()
    else:
        kernel = Kernel(float32_t, int16_t, totalLength)
        kernel.Init(x, y)
        kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray) -> np.ndarray:
    totalLength = 256
    if scenarioNum == 1:
        inputByteSize = 1 * totalLength * half.size
        outputByteSize = 1 * totalLength * int32_t.size
        yHost = np.zeros(totalLength, dtype=np.int32)
    else:
        inputByteSize = 1 * totalLength * float32_t.size
        outputByteSize = 1 * totalLength * int16_t.size
        yHost = np.zeros(totalLength, dtype=np.int16)
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    cast[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def get_saturation(data: np.ndarray, data_type: Any) -> np.ndarray:
    return np.clip(data, np.iinfo(data_type).min, np.iinfo(data_type).max)


def gen_golden_data_simple(scenario_num: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x uniform in [-100, 100) of shape [1, 256]; golden per scenario."""
    total_length = 256
    rng = np.random.default_rng(seed)
    if scenario_num == 1:
        x = rng.uniform(-100, 100, [1, total_length]).astype(np.float16)
        golden = np.floor(x).astype(np.int32)
    else:
        x = rng.uniform(-100, 100, [1, total_length]).astype(np.float32)
        golden = get_saturation(np.round(x), np.int16).astype(np.int16)
    return x, golden


@pytest.fixture(params=[1, 2])
def SCENARIO_NUM(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


@pytest.mark.parametrize("seed", [0, 1])
def test_cast_matches_the_golden(SCENARIO_NUM: int, seed: int) -> None:
    x, golden = gen_golden_data_simple(SCENARIO_NUM, seed)
    assert CompareResult(main(x.reshape(-1)), golden)


def test_cast_check_rejects_a_wrong_rounding(SCENARIO_NUM: int) -> None:
    """Scenario 1 against ceil instead of floor, scenario 2 against a truncating golden."""
    x, golden = gen_golden_data_simple(SCENARIO_NUM, 2)
    other = np.ceil(x) if SCENARIO_NUM == 1 else np.trunc(x)
    assert not CompareResult(main(x.reshape(-1)), other.astype(golden.dtype))

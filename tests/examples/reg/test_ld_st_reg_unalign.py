"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_store_unalign/ld_st_reg_unalign.asc, scenario 1.

Line for line: ``KernelScenario1<float, 1024>`` zeroes the output with the basic-API
``Duplicate`` and ``CopyVF`` copies 128 floats from ``xLocal[1]`` to ``yLocal[1]`` (one element
past 32-byte alignment) in two repeats of Reg ``LoadUnAlign`` / ``StoreUnAlign`` with
post-updated pointers, primed by ``LoadUnAlignPre`` and flushed by ``StoreUnAlignPost``. The
input is made as scripts/gen_data.py's scenario 1 makes it (1024 float32 from ``randn``; golden
zeros with ``x[1:129]`` at 1..128) and checked as the example's ``CompareResult`` checks it for
scenario 1 (an element is wrong when ``|a - b| > 1e-3``).

Scenario 2 (``KernelScenario2``) is ported in ``test_ld_st_reg_unalign_scenario2.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
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

scenarioNum = 1  # SCENARIO_NUM; only scenario 1 is ported
T = float32_t  # ld_st_reg_unalign_kernel<float, 1, 1, 1024, 1024>
count = 1024  # KernelScenario1<T, inputN>


@__simd_vf__
def CopyVF(dstAddr: UbPtr[float32_t], srcAddr: UbPtr[float32_t], oneRepeatSize: int) -> None:
    srcReg = Reg.RegTensor[T]()
    ureg0 = Reg.UnalignRegForLoad()
    ureg1 = Reg.UnalignRegForStore()
    dst, src = Ref(dstAddr), Ref(srcAddr)  # the by-value pointers, updated through references
    Reg.LoadUnAlignPre(ureg0, src)
    for _ in range(2):
        Reg.LoadUnAlign(srcReg, ureg0, src, oneRepeatSize)
        Reg.StoreUnAlign(dst, srcReg, ureg1, oneRepeatSize)
    Reg.StoreUnAlignPost(dst, ureg1, 0)


class KernelScenario1:
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T](count)
        yLocal = ubAllocator.Alloc[T](count)
        DataCopy(xLocal, self.xGm, count)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        Duplicate[T](yLocal, 0, count)
        srcAddr = xLocal.GetPhyAddr()
        dstAddr = yLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        asc_vf_call[CopyVF](dstAddr + 1, srcAddr + 1, oneRepeatSize)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.yGm, yLocal, count)


@__global__
@__vector__
def ld_st_reg_unalign_kernel(x: GmPtr[uint8_t], y: GmPtr[uint8_t]) -> None:
    InitSocState()
    if scenarioNum == 1:
        kernel = KernelScenario1()
        kernel.Init(x, y)
        kernel.Process()
    PipeBarrier[PIPE_ALL]()


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    """The example's scenario-1 check: an element is wrong when ``|a - b| > 1e-3``."""
    EPS = np.float32(1e-3)
    output = outputData.reshape(-1).astype(np.float32)
    golden = goldenData.reshape(-1).astype(np.float32)
    wrongNum = int(np.count_nonzero(np.abs(output - golden) > EPS))
    return wrongNum == 0


def main(xHost: np.ndarray) -> np.ndarray:
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalM = 1
    singleCoreM = 1
    inputN = 1024
    outputN = 1024
    numBlocks = (totalM + singleCoreM - 1) // singleCoreM
    inputByteSize = 1 * totalM * inputN * float32_t.size
    outputByteSize = 1 * totalM * outputN * float32_t.size
    yHost = np.zeros(totalM * outputN, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ld_st_reg_unalign_kernel[numBlocks, 0, stream](xDevice, yDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(yHost, outputByteSize, yDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return yHost


def gen_golden_data_scenario1(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 1: x from randn; golden zeros with x[1:129] at 1..128."""
    count = 1024
    x = np.random.default_rng(seed).standard_normal(count).astype(np.float32)
    golden = np.zeros(count, dtype=np.float32)
    golden[1:129] = x[1:129].copy()
    return x, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_ld_st_reg_unalign_matches_the_golden(seed: int) -> None:
    x, golden = gen_golden_data_scenario1(seed)
    assert CompareResult(main(x), golden)


def test_ld_st_reg_unalign_check_rejects_an_aligned_copy() -> None:
    """Copying from the aligned element 0 instead of element 1 shifts every value by one."""
    x, golden = gen_golden_data_scenario1(2)
    output = main(x)
    shifted = np.zeros_like(output)
    shifted[1:129] = x[0:128]
    assert CompareResult(output, golden)
    assert not CompareResult(shifted, golden)

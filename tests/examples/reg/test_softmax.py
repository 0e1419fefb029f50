"""Port of asc-devkit examples/01_simd_cpp_api/05_best_practices/02_reg_compute/softmax_high_performance/softmax.asc.

Cases 2 (``SCENARIO_NUM=2``: ``UpdateMask`` tail masks, ``ExpSub``, loop fusion) and 4
(main-tail block mode: whole registers under ``maskFull``), line for line, with the example's
``main``: ``DataType = float``, shape [128, 128] on one block, the ``SoftmaxTiling`` it fills.
Per row: ``Max`` over the row, ``ReduceMax``, the register ``Duplicate`` of lane 0,
``ExpSub(exp, x, max)`` stored to ``expTensor``; then per row ``Add``, ``ReduceSum``,
``Duplicate`` and ``Div``. Case 2 does not fit dav-3510's UB (see its test); case 4 runs. ``LoadWithCastIfNeed`` /
``StoreWithCastIfNeed`` take their ``float`` branch (the ``half`` branch with ``Cast`` is not
instantiated for ``DataType = float``).

The kernel's ``LocalMemBar<VEC_LOAD, VEC_STORE>()`` between the two phases is written in its C
spelling ``asc_mem_bar(VLD_VST)`` (``Reg.LocalMemBar`` is added on another branch); it orders
the wrong way round, which ascreg reports (see the tests).

The input is made as scripts/gen_data.py makes it (``[128, 128]`` float32 uniform in [-5, 5);
golden ``exp(x - max) / sum(exp(x - max))`` in numpy) and checked as scripts/verify_result.py
checks it (``np.isclose`` rtol 1e-4, atol 1e-5, at most 1e-4 of the elements off).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, MaskMergeMode, Ref, Reg, UbPtr, acl, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    CeilDivision,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    GetBlockIdx,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    Hardware,
    InitSocState,
    LocalMemAllocator,
    LocalTensor,
    PipeBarrier,
    SetFlag,
    TPipe,
    WaitFlag,
    asc_vf_call,
)
from ascreg.c_api import VLD_VST, VST_VLD, asc_mem_bar
from ascreg.errors import CapacityError, SyncError
from ascreg.machine.kernel import __global__, __simd_callee__, __simd_vf__, __vector__

BARRIER = {"mem_type": VLD_VST}
"""The VF's ``LocalMemBar<VEC_LOAD, VEC_STORE>()`` in its C spelling ``asc_mem_bar(VLD_VST)``
(``Reg.LocalMemBar`` is added on another branch); the passing test sets ``VST_VLD``."""
SCENARIO = {"num": 4}  # SCENARIO_NUM (a compile-time constant in C++; set by main here)
fp32MinValue = np.uint32(0x00800000).view(np.float32)  # Custom::fp32MinValue (DataUnion)


@dataclass
class SoftmaxTiling:  # Custom::SoftmaxTiling<T>
    aDim: int = 0  # noqa: N815 (the C++ field name)
    lastADim: int = 0  # noqa: N815 (the C++ field name)
    rDim: int = 0  # noqa: N815 (the C++ field name)
    rDimAlign: int = 0  # noqa: N815 (the C++ field name)
    loopCount: int = 0  # noqa: N815 (the C++ field name)
    singleCoreLength: int = 0  # noqa: N815 (the C++ field name)
    singleCoreAlignLength: int = 0  # noqa: N815 (the C++ field name)


@__simd_callee__
def LoadWithCastIfNeed(srcAddr: UbPtr[float32_t], dstReg: Any, mask: Any, offset: int) -> None:
    Reg.LoadAlign(dstReg, srcAddr + offset)  # T = float: the else branch


@__simd_callee__
def StoreWithCastIfNeed(dstAddr: UbPtr[float32_t], srcReg: Any, mask: Any, offset: int) -> None:
    Reg.StoreAlign(dstAddr + offset, srcReg, mask)  # T = float: the else branch


# ---- Case 2: RegBase, UpdateMask, ExpSub, loop fusion ----
@__simd_vf__
def CustomSoftmaxVF2(
    dstAddr: UbPtr[float32_t],
    srcAddr: UbPtr[float32_t],
    expAddr: UbPtr[float32_t],
    sumAddr: UbPtr[float32_t],
    aDim: int,
    rDim: int,
    rDimAlign: int,
) -> None:
    oneRepeatSize = GetVecLen() // float32_t.size
    repeatTimes = CeilDivision(rDim, oneRepeatSize)
    maskFull = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()

    mask = Reg.MaskReg()
    srcReg = Reg.RegTensor[float32_t]()
    maxReg = Reg.RegTensor[float32_t]()
    expReg = Reg.RegTensor[float32_t]()
    sumReg = Reg.RegTensor[float32_t]()
    divReg = Reg.RegTensor[float32_t]()

    # Phase 1: ReduceMax + ExpSub (loop fusion: one Load shared)
    for i in range(aDim):
        count1 = Ref(rDim)
        Reg.Duplicate(maxReg, fp32MinValue, maskFull)
        for j in range(repeatTimes):
            mask = Reg.UpdateMask[float32_t](count1)
            LoadWithCastIfNeed(srcAddr, srcReg, mask, i * rDimAlign + j * oneRepeatSize)
            Reg.Max[float32_t, MaskMergeMode.MERGING](maxReg, maxReg, srcReg, mask)
        Reg.ReduceMax(maxReg, maxReg, maskFull)
        Reg.Duplicate(maxReg, maxReg, maskFull)
        count2 = Ref(rDim)

        for j in range(repeatTimes):
            mask = Reg.UpdateMask[float32_t](count2)
            LoadWithCastIfNeed(srcAddr, srcReg, mask, i * rDimAlign + j * oneRepeatSize)
            Reg.ExpSub(expReg, srcReg, maxReg, mask)
            Reg.StoreAlign[float32_t](expAddr + i * rDimAlign + j * oneRepeatSize, expReg, mask)
    asc_mem_bar(BARRIER["mem_type"])  # Reg::LocalMemBar<MemType::VEC_LOAD, MemType::VEC_STORE>()
    for i in range(aDim):
        count3 = Ref(rDim)
        Reg.Duplicate(sumReg, 0.0, maskFull)
        for j in range(repeatTimes):
            mask = Reg.UpdateMask[float32_t](count3)
            Reg.LoadAlign(srcReg, expAddr + i * rDimAlign + j * oneRepeatSize)
            Reg.Add[float32_t, MaskMergeMode.MERGING](sumReg, sumReg, srcReg, mask)
        Reg.ReduceSum(sumReg, sumReg, maskFull)
        Reg.Duplicate(sumReg, sumReg, maskFull)
        count4 = Ref(rDim)
        for j in range(repeatTimes):
            mask = Reg.UpdateMask[float32_t](count4)
            Reg.LoadAlign(maxReg, expAddr + i * rDimAlign + j * oneRepeatSize)
            Reg.Div(divReg, maxReg, sumReg, mask)
            StoreWithCastIfNeed(dstAddr, divReg, mask, i * rDimAlign + j * oneRepeatSize)


def CustomSoftmax2(
    dstTensor: LocalTensor[float32_t],
    srcTensor: LocalTensor[float32_t],
    expTensor: LocalTensor[float32_t],
    sumTensor: LocalTensor[float32_t],
    aDim: int,
    rDim: int,
    rDimAlign: int,
) -> None:
    xAddr = srcTensor.GetPhyAddr()
    yAddr = dstTensor.GetPhyAddr()
    expAddr = expTensor.GetPhyAddr()
    sumAddr = sumTensor.GetPhyAddr()

    asc_vf_call[CustomSoftmaxVF2](yAddr, xAddr, expAddr, sumAddr, aDim, rDim, rDimAlign)


# ---- Case 4: RegBase, main-tail block mode (whole registers, maskFull) ----
@__simd_vf__
def CustomSoftmaxVF4(
    dstAddr: UbPtr[float32_t],
    srcAddr: UbPtr[float32_t],
    expAddr: UbPtr[float32_t],
    sumAddr: UbPtr[float32_t],
    aDim: int,
    rDim: int,
    rDimAlign: int,
    tail: int,
    repeatTimesMain: int,
    hasTail: int,
) -> None:
    oneRepeatSize = GetVecLen() // float32_t.size
    maskFull = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()

    mask = maskFull
    srcReg = Reg.RegTensor[float32_t]()
    maxReg = Reg.RegTensor[float32_t]()
    expReg = Reg.RegTensor[float32_t]()
    sumReg = Reg.RegTensor[float32_t]()
    divReg = Reg.RegTensor[float32_t]()

    # Phase 1: ReduceMax + ExpSub (main-tail block mode)
    for i in range(aDim):
        Reg.Duplicate(maxReg, fp32MinValue, maskFull)
        for j in range(repeatTimesMain):
            LoadWithCastIfNeed(srcAddr, srcReg, maskFull, i * rDimAlign + j * oneRepeatSize)
            Reg.Max(maxReg, maxReg, srcReg, maskFull)
        Reg.ReduceMax(maxReg, maxReg, maskFull)
        Reg.Duplicate(maxReg, maxReg, maskFull)
        for j in range(repeatTimesMain):
            LoadWithCastIfNeed(srcAddr, srcReg, maskFull, i * rDimAlign + j * oneRepeatSize)
            Reg.ExpSub(expReg, srcReg, maxReg, maskFull)
            Reg.StoreAlign[float32_t](expAddr + i * rDimAlign + j * oneRepeatSize, expReg, maskFull)
    asc_mem_bar(BARRIER["mem_type"])  # Reg::LocalMemBar<MemType::VEC_LOAD, MemType::VEC_STORE>()
    for i in range(aDim):
        Reg.Duplicate(sumReg, 0.0, maskFull)
        for j in range(repeatTimesMain):
            Reg.LoadAlign(srcReg, expAddr + i * rDimAlign + j * oneRepeatSize)
            Reg.Add[float32_t](sumReg, sumReg, srcReg, maskFull)
        Reg.ReduceSum(sumReg, sumReg, maskFull)
        Reg.Duplicate(sumReg, sumReg, maskFull)
        for j in range(repeatTimesMain):
            Reg.LoadAlign(maxReg, expAddr + i * rDimAlign + j * oneRepeatSize)
            Reg.Div(divReg, maxReg, sumReg, mask)
            StoreWithCastIfNeed(dstAddr, divReg, mask, i * rDimAlign + j * oneRepeatSize)


def CustomSoftmax4(
    dstTensor: LocalTensor[float32_t],
    srcTensor: LocalTensor[float32_t],
    expTensor: LocalTensor[float32_t],
    sumTensor: LocalTensor[float32_t],
    aDim: int,
    rDim: int,
    rDimAlign: int,
) -> None:
    xAddr = srcTensor.GetPhyAddr()
    yAddr = dstTensor.GetPhyAddr()
    expAddr = expTensor.GetPhyAddr()
    sumAddr = sumTensor.GetPhyAddr()

    tail = rDim % (256 // float32_t.size)
    repeatTimesMain = rDim // (256 // float32_t.size)
    hasTail = int(tail != 0)

    asc_vf_call[CustomSoftmaxVF4](
        yAddr, xAddr, expAddr, sumAddr, aDim, rDim, rDimAlign, tail, repeatTimesMain, hasTail
    )


CUSTOM_SOFTMAX = {2: CustomSoftmax2, 4: CustomSoftmax4}
"""``CustomSoftmax`` as ``#if SCENARIO_NUM == N`` compiles it."""


@__global__
@__vector__
def softmax_custom(x: GmPtr[uint8_t], y: GmPtr[uint8_t], tiling: SoftmaxTiling) -> None:
    T = float32_t
    scenarioNum = SCENARIO["num"]
    CustomSoftmax = CUSTOM_SOFTMAX[scenarioNum]
    tPipe = TPipe()  # noqa: F841 (constructed for its side effect, as in the C++)
    InitSocState()

    xGm = GlobalTensor[T]()
    yGm = GlobalTensor[T]()
    xGm.SetGlobalBuffer(
        x.cast(T) + GetBlockIdx() * tiling.singleCoreLength, tiling.singleCoreLength
    )
    yGm.SetGlobalBuffer(
        y.cast(T) + GetBlockIdx() * tiling.singleCoreLength, tiling.singleCoreLength
    )

    ubAllocator = LocalMemAllocator[Hardware.UB]()

    xLocal = ubAllocator.Alloc[T](tiling.singleCoreAlignLength)
    yLocal = ubAllocator.Alloc[T](tiling.singleCoreAlignLength)

    expTensor = ubAllocator.Alloc[float32_t](tiling.singleCoreAlignLength)
    if 0 <= scenarioNum <= 2:
        sumTensor = ubAllocator.Alloc[float32_t](tiling.singleCoreAlignLength)
    else:
        sumTensor = ubAllocator.Alloc[float32_t](8)

    SetFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
    for i in range(tiling.loopCount):
        WaitFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
        for j in range(tiling.aDim):
            DataCopyPad(
                xLocal[j * tiling.rDimAlign], xGm[i * tiling.singleCoreLength + j * tiling.rDim],
                DataCopyExtParams(1, tiling.rDim * T.size, 0, 0, 0),
                DataCopyPadExtParams[T](True, 0, tiling.rDimAlign - tiling.rDim, 0),
            )  # fmt: skip
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        CustomSoftmax(
            yLocal, xLocal, expTensor, sumTensor, tiling.aDim, tiling.rDim, tiling.rDimAlign
        )
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        for j in range(tiling.aDim):
            DataCopyPad(
                yGm[i * tiling.singleCoreLength + j * tiling.rDim], yLocal[j * tiling.rDimAlign],
                DataCopyExtParams(1, tiling.rDim * T.size, 0, 0, 0),
            )  # fmt: skip
        SetFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
    if tiling.lastADim != 0:  # (0 in this example's tiling: the branch is not taken)
        raise NotImplementedError("the example's tiling has lastADim = 0")
    WaitFlag[HardEvent.MTE3_MTE2](EVENT_ID0)

    PipeBarrier[PIPE_ALL]()


def main(inputHost: np.ndarray, scenarioNum: int) -> np.ndarray:
    SCENARIO["num"] = scenarioNum
    kDim = 1
    kHeight = 128
    kWidth = 128
    kTotalLen = kHeight * kWidth
    inputByteSize = kTotalLen * float32_t.size

    singleCoreHeight = kHeight
    loopCount = 1
    lastCount = 0
    singleCoreLength = singleCoreHeight * kWidth
    alignUnit = 32 // float32_t.size
    widthAlign = (kWidth + alignUnit - 1) // alignUnit * alignUnit
    singleCoreAlignLength = singleCoreHeight * widthAlign
    tiling = SoftmaxTiling(
        singleCoreHeight, lastCount, kWidth, widthAlign, loopCount, singleCoreLength,
        singleCoreAlignLength,
    )  # fmt: skip

    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    inputDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        inputDevice, inputByteSize, inputHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    outputHost = np.zeros(kTotalLen, dtype=np.float32)
    outputDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    softmax_custom[kDim, 0, stream](inputDevice, outputDevice, tiling)
    acl.rt.synchronize_stream(stream)

    acl.rt.memcpy(
        outputHost, inputByteSize, outputDevice, inputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    acl.rt.free(inputDevice)
    acl.rt.free(outputDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return outputHost


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    input_x = rng.uniform(-5, 5, [128, 128]).astype(np.float32)
    max_vals = np.max(input_x, axis=1, keepdims=True)
    exp_x = np.exp(input_x - max_vals)
    golden = exp_x / np.sum(exp_x, axis=1, keepdims=True)
    return input_x.reshape(-1), golden.reshape(-1)


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    close = np.isclose(output, golden, rtol=1e-4, atol=1e-5, equal_nan=True)
    error_ratio = float(np.count_nonzero(~close)) / golden.size
    return error_ratio <= 1e-4


def release_after_failed_launch() -> None:
    """Free what ``main`` allocated before its launch raised (its frees never ran)."""
    acl.rt.reset_device(0)
    acl.finalize()


@pytest.mark.filterwarnings("error::ascreg.errors.EagerLoopWarning")  # every loop batched
def test_softmax_case4_with_a_store_to_load_barrier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BARRIER, "mem_type", VST_VLD)
    input_x, golden = gen_golden_data_simple(np.random.default_rng(2026))
    assert verify_result(main(input_x, 4), golden)


def test_softmax_case4_barrier_as_written_leaves_a_store_to_load_race() -> None:
    """Finding: ``LocalMemBar<VEC_LOAD, VEC_STORE>`` makes stores wait for loads (LocalMemBar.md:
    the dst pipe waits for the src pipe), but phase 2 *loads* what phase 1 *stored* to
    ``expAddr``: that needs ``<VEC_STORE, VEC_LOAD>``."""
    input_x, _ = gen_golden_data_simple(np.random.default_rng(2026))
    with pytest.raises(SyncError, match="after storing byte"):
        main(input_x, 4)
    release_after_failed_launch()


def test_softmax_case2_needs_more_ub_than_dav_3510_has() -> None:
    """Finding: cases 0-2 allocate x, y, exp and sum as 4 x 64 KiB = 256 KiB of UB.

    ``main`` says "[128, 128] fits entirely in UB on any NPU", but dav-3510's UB holds 248 KiB,
    so the fourth ``Alloc`` fails (cases 3-5 allocate an 8-float ``sumTensor`` and fit).
    """
    input_x, _ = gen_golden_data_simple(np.random.default_rng(2026))
    with pytest.raises(CapacityError, match="needs 262144 bytes but the memory holds 253952"):
        main(input_x, 2)
    release_after_failed_launch()

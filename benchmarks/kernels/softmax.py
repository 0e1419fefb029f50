"""Softmax: asc-devkit ``examples/01_simd_cpp_api/05_best_practices/02_reg_compute/softmax_high_performance/softmax.asc``.

Case 4 of the example (``SCENARIO_NUM=4``, main-tail block mode: whole registers under
``maskFull``): ``softmax_custom<<<numBlocks, 0, stream>>>(x, y, tiling)``; each block copies
``aDim`` rows at a time into UB with ``DataCopyPad`` (``loopCount`` times), ``CustomSoftmaxVF4``
takes per row the ``Max`` over the row, ``ReduceMax`` and the register ``Duplicate`` of lane 0,
``ExpSub(exp, x, max)`` stored to ``expTensor``, then per row the ``Add``/``ReduceSum`` of the
exponentials and their ``Div`` by the sum. The example runs [128, 128] on one block; here
[1024, 1024] on 8 blocks of 128 rows, 16 rows per UB load (the ``SoftmaxTiling`` the example's
``main`` would fill for that shape and core count).

One line differs from the example: its ``LocalMemBar<VEC_LOAD, VEC_STORE>`` between the two
phases orders the wrong way round (phase 2 loads what phase 1 stored), which ascreg reports as a
store-to-load race (``tests/examples/reg/test_softmax.py``); this kernel writes
``LocalMemBar<VEC_STORE, VEC_LOAD>``. The golden is the example's ``gen_data.py`` formula
(``exp(x - max) / sum(exp(x - max))`` per row in float32 numpy), checked as its
``verify_result.py`` checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, MemType, Reg, UbPtr, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
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
from ascreg.machine.kernel import __global__, __simd_callee__, __simd_vf__, __vector__
from benchmarks.kernels import RealKernel, isclose_check

fp32MinValue = np.uint32(0x00800000).view(np.float32)  # Custom::fp32MinValue (DataUnion)
ROWS, COLUMNS, BLOCKS, ROWS_PER_LOAD = 1024, 1024, 8, 16


@dataclass
class SoftmaxTiling:  # Custom::SoftmaxTiling<T>
    aDim: int = 0
    lastADim: int = 0
    rDim: int = 0
    rDimAlign: int = 0
    loopCount: int = 0
    singleCoreLength: int = 0
    singleCoreAlignLength: int = 0


@__simd_callee__
def LoadWithCastIfNeed(srcAddr: UbPtr[float32_t], dstReg: Any, mask: Any, offset: int) -> None:
    Reg.LoadAlign(dstReg, srcAddr + offset)  # T = float: the else branch


@__simd_callee__
def StoreWithCastIfNeed(dstAddr: UbPtr[float32_t], srcReg: Any, mask: Any, offset: int) -> None:
    Reg.StoreAlign(dstAddr + offset, srcReg, mask)  # T = float: the else branch


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
    Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()  # the example: <VEC_LOAD, VEC_STORE>
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


@__global__
@__vector__
def softmax_custom(x: GmPtr[uint8_t], y: GmPtr[uint8_t], tiling: SoftmaxTiling) -> None:
    T = float32_t
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
    xLocal = ubAllocator.Alloc[T](tiling.aDim * tiling.rDimAlign)
    yLocal = ubAllocator.Alloc[T](tiling.aDim * tiling.rDimAlign)
    expTensor = ubAllocator.Alloc[float32_t](tiling.aDim * tiling.rDimAlign)
    sumTensor = ubAllocator.Alloc[float32_t](8)  # cases 3-5

    SetFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
    for i in range(tiling.loopCount):
        WaitFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
        offset = i * tiling.aDim * tiling.rDim
        for j in range(tiling.aDim):
            DataCopyPad(
                xLocal[j * tiling.rDimAlign], xGm[offset + j * tiling.rDim],
                DataCopyExtParams(1, tiling.rDim * T.size, 0, 0, 0),
                DataCopyPadExtParams[T](True, 0, tiling.rDimAlign - tiling.rDim, 0),
            )  # fmt: skip
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        CustomSoftmax4(
            yLocal, xLocal, expTensor, sumTensor, tiling.aDim, tiling.rDim, tiling.rDimAlign
        )
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        for j in range(tiling.aDim):
            DataCopyPad(
                yGm[offset + j * tiling.rDim], yLocal[j * tiling.rDimAlign],
                DataCopyExtParams(1, tiling.rDim * T.size, 0, 0, 0),
            )  # fmt: skip
        SetFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
    WaitFlag[HardEvent.MTE3_MTE2](EVENT_ID0)
    PipeBarrier[PIPE_ALL]()


def tiling_for(rows: int, columns: int, blocks: int, rows_per_load: int) -> SoftmaxTiling:
    """The tiling of [rows, columns] on *blocks* cores, *rows_per_load* rows per UB load."""
    align = 32 // float32_t.size
    width_align = (columns + align - 1) // align * align
    single_core_rows = rows // blocks
    return SoftmaxTiling(
        aDim=rows_per_load, lastADim=0, rDim=columns, rDimAlign=width_align,
        loopCount=single_core_rows // rows_per_load, singleCoreLength=single_core_rows * columns,
        singleCoreAlignLength=single_core_rows * width_align,
    )  # fmt: skip


def shape_of(size: int) -> tuple[int, int, int, int]:
    """(rows, columns, blocks, rows per load) for *size* elements (1024 columns)."""
    rows = size // COLUMNS
    blocks = min(BLOCKS, rows // 2)
    return rows, COLUMNS, blocks, min(ROWS_PER_LOAD, rows // blocks)


def inputs(size: int, seed: int) -> tuple[np.ndarray[Any, Any]]:
    """``gen_data.py``: x uniform in [-5, 5), [size / 1024, 1024] floats."""
    rows = size // COLUMNS
    return (np.random.default_rng(seed).uniform(-5, 5, [rows, COLUMNS]).astype(np.float32),)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(x) -> y`` (copy in, launch, copy out)."""
    rows, columns, blocks, rows_per_load = shape_of(size)
    tiling = tiling_for(rows, columns, blocks, rows_per_load)
    gm = GlobalMemory()
    x_gm, y_gm = gm.alloc(float32_t, size), gm.alloc(float32_t, size)

    def run(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        x_gm.write(x.reshape(-1))
        softmax_custom[blocks, 0, None](x_gm.cast(uint8_t), y_gm.cast(uint8_t), tiling)
        return y_gm.read(size).reshape(rows, columns)

    return run


def golden(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The same math on the whole array in float32 numpy."""
    exp_x = np.exp(x - np.max(x, axis=1, keepdims=True))
    result: np.ndarray[Any, Any] = exp_x / np.sum(exp_x, axis=1, keepdims=True)
    return result


KERNEL = RealKernel(
    name="softmax",
    origin="asc-devkit 05_best_practices/02_reg_compute/softmax_high_performance (case 4)",
    size=ROWS * COLUMNS,
    small=4 * COLUMNS,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=isclose_check(rtol=1e-4, atol=1e-5),
    vfs=(CustomSoftmaxVF4,),
)

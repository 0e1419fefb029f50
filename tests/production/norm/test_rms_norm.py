"""Port of hicann/ops-nn norm/rms_norm/op_kernel/arch35/rms_norm_regbase_perf.h (+ norm/norm_common/op_kernel/reduce_common_regbase.h).

``KernelRmsNormRegBasePerf<DX, DG, IS_GEMMA>`` (the entry's ``RMSNORM_REGBASE_NORMAL`` key):
``y = x * rstd * gamma``, ``rstd = 1 / sqrt(mean(x^2) + eps)`` per row, with ``rstd`` an
output too. Each block takes ``block_factor`` rows in ``ub_factor``-row pieces (x padded to
``num_col_align``). The repository's norm library does the work: ``CalculateSquareReduceSum``
(three forms by row length: one register; two registers, the second folded onto the first after
zeroing its tail through a ``uint32_t`` view with ``ShiftLefts`` by 0; and the binary fold at
``col_flod_factor`` with per-register partial sums stored by ``DIST_FIRST_ELEMENT_B32`` and
summed after a ``LocalMemBar``), then ``ComputeRstdNewtonRaphson`` (``1/sqrt`` refined by a
Newton-Raphson step with ``Mula``, zero and infinity caught with ``CompareScalar`` /
``Select``), then ``ComputeY`` with a ``DIST_BRC_B32`` broadcast of each row's rstd.
``Load/StoreRegForDtype`` unpack and cast half rows (``castTraitB162B32`` / ``B322B16``).

Tiling (rms_norm_tiling_arch35.cpp, full load): ``block_factor = CeilDiv(rows, cores)``,
``num_col_align`` the row rounded up to 32 bytes, ``col_flod_factor`` the largest power of two
below it, ``ub_factor`` the rows the UB holds (less 2 KiB), ``avg_factor = 1 / cols``.

Golden: ``rstd = 1 / sqrt(mean(x^2) + eps)`` and ``y = x * rstd * gamma`` in float64, rounded;
float within 8 ulp, half within 1 ulp.

Needs (as written): the tail over-read of whole-register loads past a row (fixes); the register cast ``(RegTensor<uint32_t>&)reg`` as a write target
(spell; rows of 65..128 and over 8192 columns: the stand-in run leaves those out), ``QuePosition``, ``__VEC_SCOPE__`` (glue). The operator base
library's ``GetVRegSize`` / ``GetUbBlockSize`` come from ``production_ports``.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    MicroAPI,
    Ref,
    RoundMode,
    Scalar,
    float32_t,
    half,
    int16_t,
    template,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.reg import (
    Add,
    Adds,
    Cast,
    CompareScalar,
    CreateMask,
    DataCopy,
    Div,
    Duplicate,
    LoadAlign,
    LoadDist,
    LocalMemBar,
    MaskPattern,
    MaskReg,
    Maxs,
    MemType,
    Mul,
    Mula,
    Muls,
    ReduceSum,
    RegTensor,
    Select,
    ShiftLefts,
    Sqrt,
    StoreDist,
    UpdateMask,
)
from production_ports import (
    GetUbBlockSize,
    GetVRegSize,
    assert_ulp,
    ceil_div,
    empty_device,
    from_device,
    rounded,
    stand_ins,
    tail_over_read,
    tiling_to_device,
    to_device,
)

T = TypeVar("T", bound=Scalar)
LAST_LOOP_NUMS = TypeVar("LAST_LOOP_NUMS")
NEED_MAX = TypeVar("NEED_MAX")
NEED_AVG_FACTOR = TypeVar("NEED_AVG_FACTOR")

# ---- norm/norm_common/op_kernel/reduce_common_regbase.h --------------------------------------
VL_SIZE = GetVRegSize()
V_LENGTH = VL_SIZE // float32_t.size
ONCE_VECTOR_SIZE = 256
DICHOTOMY_ADD_COEFF = 2

castTraitB162B32 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.UNKNOWN,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.UNKNOWN,
)
castTraitB322B16 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.NO_SAT,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.CAST_RINT,
)


@__aicore__
@template(NEED_MAX)
def ComputeRstdNewtonRaphsonReg(var, rstd, preg, epsilon) -> None:
    POS_INF = float32_t(3.40282366920938e38)
    SCALAR1 = float32_t(-0.5)
    SCALAR2 = float32_t(1.5)
    SCALAR3 = float32_t(0.5)
    SCALAR0 = float32_t(-99.99)

    r = RegTensor[float32_t]()
    y = RegTensor[float32_t]()
    s = RegTensor[float32_t]()
    t = RegTensor[float32_t]()
    one = RegTensor[float32_t]()
    scalar1 = RegTensor[float32_t]()
    t1 = RegTensor[float32_t]()
    t3 = RegTensor[float32_t]()
    t4 = RegTensor[float32_t]()
    scalarInf = RegTensor[float32_t]()
    scalarZero = RegTensor[float32_t]()
    cmpRegZero = MaskReg()
    cmpRegInf = MaskReg()

    Duplicate(scalarInf, POS_INF, preg)
    Duplicate(scalarZero, float32_t(0.0), preg)
    Duplicate(one, float32_t(1.0), preg)
    Duplicate(scalar1, SCALAR3, preg)
    Duplicate(t1, SCALAR2, preg)
    Duplicate(s, float32_t(1.0), preg)

    Adds(var, var, epsilon, preg)
    if NEED_MAX:
        Maxs(var, var, SCALAR0, preg)
    Div(r, one, var, preg)
    Sqrt(y, r, preg)
    Muls(t, var, SCALAR1, preg)
    Mul(t, t, y, preg)
    Mula(t1, t, y, preg)
    Mul(rstd, y, t1, preg)
    Muls(t3, var, float32_t(-1.0), preg)
    Mula(s, t3, r, preg)
    Muls(t4, rstd, float32_t(-1.0), preg)
    Mula(r, t4, rstd, preg)
    Mula(s, var, r, preg)
    Mul(s, s, rstd, preg)
    Mula(rstd, s, scalar1, preg)
    CompareScalar(cmpRegZero, var, POS_INF, preg)
    Select(rstd, scalarZero, rstd, cmpRegZero)
    CompareScalar(cmpRegInf, var, float32_t(0.0), preg)
    Select(rstd, scalarInf, rstd, cmpRegInf)


@__aicore__
@template(NEED_MAX, NEED_AVG_FACTOR)
def ComputeRstdNewtonRaphson(
    srcLocal, dstLocal, rowCount, epsilon, avgFactor=1.0, vectorLen=V_LENGTH
) -> None:
    src = srcLocal.GetPhyAddr()
    dst = dstLocal.GetPhyAddr()
    loopRows = uint16_t((rowCount + vectorLen - 1) // vectorLen)
    with __VEC_SCOPE__:
        var = RegTensor[float32_t]()
        rstd = RegTensor[float32_t]()
        pregLoop = MaskReg()

        sreg = Ref(uint32_t(rowCount))
        for i in range(loopRows):
            pregLoop = UpdateMask[float32_t](sreg)
            DataCopy(var, src + i * vectorLen)
            if NEED_AVG_FACTOR:
                Muls(var, var, avgFactor, pregLoop)
            ComputeRstdNewtonRaphsonReg[NEED_MAX](var, rstd, pregLoop, epsilon)
            DataCopy(dst + i * vectorLen, rstd, pregLoop)


@__aicore__
@template(T)
def LoadRegForDtype(src, dst, preg, offset) -> None:
    FLOAT_LOAD_DIST, NON_FLOAT_LOAD_DIST = LoadDist.DIST_NORM, LoadDist.DIST_UNPACK_B16
    if T is float32_t:
        DataCopy[float32_t, FLOAT_LOAD_DIST](dst, src + offset)
    else:
        srcReg = RegTensor[T]()
        DataCopy[T, NON_FLOAT_LOAD_DIST](srcReg, src + offset)
        Cast[float32_t, T, castTraitB162B32](dst, srcReg, preg)


@__aicore__
@template(T)
def StoreRegForDtype(dst, src, preg, offset) -> None:
    FLOAT_STORE_DIST, NON_FLOAT_STORE_DIST = StoreDist.DIST_NORM, StoreDist.DIST_PACK_B32
    if T is float32_t:
        DataCopy[T, FLOAT_STORE_DIST](dst + offset, src, preg)
    else:
        dstReg = RegTensor[T]()
        Cast[T, float32_t, castTraitB322B16](dstReg, src, preg)
        DataCopy[T, NON_FLOAT_STORE_DIST](dst + offset, dstReg, preg)


@__aicore__
@template(T)
def CalculateSquareReduceSumLessThanVL(xPtr, dstPtr, rows, rowStride, reduceNum) -> None:
    with __VEC_SCOPE__:
        xReg = RegTensor[float32_t]()
        sumReg = RegTensor[float32_t]()
        pregLoop = UpdateMask[float32_t](Ref(uint32_t(reduceNum)))
        pregOne = CreateMask[float32_t, MaskPattern.VL1]()
        for i in range(rows):
            LoadRegForDtype[T](xPtr, xReg, pregLoop, uint32_t(i) * rowStride)
            Mul(xReg, xReg, xReg, pregLoop)
            ReduceSum(sumReg, xReg, pregLoop)
            DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](dstPtr + i, sumReg, pregOne)


@__aicore__
@template(T)
def CalculateSquareReduceSumLessThanTwoVL(xPtr, dstPtr, rows, rowStride, reduceNum) -> None:
    tailLen = uint32_t(reduceNum - V_LENGTH)
    with __VEC_SCOPE__:
        xReg = RegTensor[float32_t]()
        xFoldReg = RegTensor[float32_t]()
        sumReg = RegTensor[float32_t]()
        reduceReg = RegTensor[float32_t]()
        pregFull = CreateMask[float32_t, MaskPattern.ALL]()
        pregOne = CreateMask[float32_t, MaskPattern.VL1]()
        pregTail = UpdateMask[float32_t](Ref(tailLen))
        for i in range(rows):
            baseOffset = uint32_t(i) * rowStride
            LoadRegForDtype[T](xPtr, xReg, pregFull, baseOffset)
            LoadRegForDtype[T](xPtr + V_LENGTH, xFoldReg, pregTail, baseOffset)
            Mul(xReg, xReg, xReg, pregFull)
            Mul(xFoldReg, xFoldReg, xFoldReg, pregTail)
            ShiftLefts(
                RegTensor[uint32_t](xFoldReg), RegTensor[uint32_t](xFoldReg), int16_t(0), pregTail
            )
            Add(sumReg, xReg, xFoldReg, pregFull)
            ReduceSum(reduceReg, sumReg, pregFull)
            DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](dstPtr + i, reduceReg, pregOne)


@__aicore__
@template(T, LAST_LOOP_NUMS)
def CalculateSquareReduceSumCommon(
    xPtr, dstPtr, tmpPtr, rows, rowStride, reduceNum, foldPoint, tmpStride
) -> None:
    foldLoops = uint16_t((foldPoint + V_LENGTH - 1) // V_LENGTH)
    lastNum = uint32_t(foldPoint // V_LENGTH)
    tail = uint32_t(reduceNum - foldPoint if reduceNum > foldPoint else 0)
    tailCeilLoops = uint16_t((tail + V_LENGTH - 1) // V_LENGTH)
    firstFlodWithOutAddLoops = uint16_t(foldLoops - tailCeilLoops)

    with __VEC_SCOPE__:
        xReg = RegTensor[float32_t]()
        xFoldReg = RegTensor[float32_t]()
        sumReg = RegTensor[float32_t]()
        reduceReg = RegTensor[float32_t]()
        pregFull = CreateMask[float32_t, MaskPattern.ALL]()
        pregOne = CreateMask[float32_t, MaskPattern.VL1]()
        pregLoop = MaskReg()

        for i in range(rows):
            baseOffset = uint32_t(i) * rowStride
            tmpOffset = uint32_t(i) * tmpStride
            sregTail = Ref(uint32_t(tail))
            for j in range(tailCeilLoops):
                pregLoop = UpdateMask[float32_t](sregTail)
                offset = uint32_t(j) * V_LENGTH + baseOffset
                LoadRegForDtype[T](xPtr, xReg, pregFull, offset)
                Mul(xReg, xReg, xReg, pregFull)
                LoadRegForDtype[T](xPtr + foldPoint, xFoldReg, pregFull, offset)
                Mul(xFoldReg, xFoldReg, xFoldReg, pregLoop)
                Add(sumReg, xReg, xFoldReg, pregFull)
                ReduceSum(reduceReg, sumReg, pregFull)
                DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](
                    tmpPtr + tmpOffset + j, reduceReg, pregOne
                )
            for j in range(firstFlodWithOutAddLoops):
                offset = uint32_t(tailCeilLoops + j) * V_LENGTH + baseOffset
                LoadRegForDtype[T](xPtr, xReg, pregFull, offset)
                Mul(xReg, xReg, xReg, pregFull)
                ReduceSum(reduceReg, xReg, pregFull)
                DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](
                    tmpPtr + tmpOffset + tailCeilLoops + j, reduceReg, pregOne
                )
        LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
        if LAST_LOOP_NUMS == 1:
            pregLast = UpdateMask[float32_t](Ref(lastNum))
            for i in range(rows):
                DataCopy(xReg, tmpPtr + uint32_t(i) * tmpStride)
                ReduceSum(reduceReg, xReg, pregLast)
                DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](
                    dstPtr + i, reduceReg, pregOne
                )
        elif LAST_LOOP_NUMS == DICHOTOMY_ADD_COEFF:
            lastNum -= V_LENGTH
            pregLast = UpdateMask[float32_t](Ref(lastNum))
            for i in range(rows):
                tmpOffset = uint32_t(i) * tmpStride
                DataCopy(xReg, tmpPtr + tmpOffset)
                DataCopy(xFoldReg, tmpPtr + tmpOffset + V_LENGTH)
                ShiftLefts(
                    RegTensor[uint32_t](xFoldReg),
                    RegTensor[uint32_t](xFoldReg),
                    int16_t(0),
                    pregLast,
                )
                Add(sumReg, xReg, xFoldReg, pregFull)
                ReduceSum(reduceReg, sumReg, pregFull)
                DataCopy[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](
                    dstPtr + i, reduceReg, pregOne
                )


@__aicore__
@template(T)
def CalculateSquareReduceSum(
    xLocal, dstLocal, tmpLocal, rows, rowStride, reduceNum, foldPoint, blockAlign, branchNum=0
) -> None:
    xPtr = xLocal.GetPhyAddr()
    dstPtr = dstLocal.GetPhyAddr()
    tmpPtr = tmpLocal.GetPhyAddr()
    foldLoops = uint32_t((foldPoint + V_LENGTH - 1) // V_LENGTH)
    tmpStride = uint32_t((foldLoops + blockAlign - 1) // blockAlign * blockAlign)
    reduceBranchNum = reduceNum if branchNum == 0 else branchNum
    if reduceBranchNum <= V_LENGTH:
        CalculateSquareReduceSumLessThanVL[T](xPtr, dstPtr, rows, rowStride, reduceNum)
    elif reduceBranchNum <= V_LENGTH + V_LENGTH:
        CalculateSquareReduceSumLessThanTwoVL[T](xPtr, dstPtr, rows, rowStride, reduceNum)
    elif reduceBranchNum <= V_LENGTH * V_LENGTH * DICHOTOMY_ADD_COEFF:
        CalculateSquareReduceSumCommon[T, 1](
            xPtr, dstPtr, tmpPtr, rows, rowStride, reduceNum, foldPoint, tmpStride
        )
    else:
        CalculateSquareReduceSumCommon[T, DICHOTOMY_ADD_COEFF](
            xPtr, dstPtr, tmpPtr, rows, rowStride, reduceNum, foldPoint, tmpStride
        )


# ---- norm/rms_norm/op_kernel/arch35/rms_norm_regbase_perf.h -----------------------------------
DOUBLE_BUFFER_NUM = 2


# ---- op_host/rms_norm_tiling.h ---------------------------------------------------------------------
class RMSNormArch35TilingData(Struct):
    num_row: uint64_t
    num_col: uint64_t
    num_col_align: uint64_t
    block_factor: uint64_t
    col_flod_factor: uint64_t
    ub_factor: uint64_t
    epsilon: float32_t
    avg_factor: float32_t
    last_block_factor: uint64_t


class NormCommon:
    """``NormCommon::`` and ``NormCommon::NormCommonRegbase::`` of the norm library (one Python namespace)."""

    NormCommonRegbase = None  # set below: the same functions
    CalculateSquareReduceSum = CalculateSquareReduceSum
    ComputeRstdNewtonRaphson = ComputeRstdNewtonRaphson


NormCommon.NormCommonRegbase = NormCommon


def KernelRmsNormRegBasePerf(DX, DG, IS_GEMMA):
    class KernelRmsNormRegBasePerf:
        VectorLenB32 = uint32_t(GetVRegSize() // float32_t.size)
        RMS_POS_INF = float32_t(3.40282366920938e38)
        RMS_ZERO = float32_t(0.0)
        NUM_ONE = 1
        NUM_TWO = 2

        def __init__(self) -> None:
            self.pipe = TPipe()
            self.inQueueX = TQue[QuePosition.VECIN, DOUBLE_BUFFER_NUM]()
            self.inQueueGamma = TQue[QuePosition.VECIN, 1]()
            self.outQueueY = TQue[QuePosition.VECOUT, DOUBLE_BUFFER_NUM]()
            self.outQueueRstd = TQue[QuePosition.VECOUT, DOUBLE_BUFFER_NUM]()
            self.xTmpBuf = TBuf[TPosition.VECCALC]()
            self.xReduceTmpBuf = TBuf[TPosition.VECCALC]()
            self.xGm = GlobalTensor[DX]()
            self.gammaGm = GlobalTensor[DG]()
            self.yGm = GlobalTensor[DX]()
            self.rstdGm = GlobalTensor[float32_t]()
            self.blockSize = uint32_t(GetUbBlockSize())
            self.blockSizeB32 = uint32_t(GetUbBlockSize() // float32_t.size)

        @__aicore__
        def Init(self, x, gamma, y, rstd, tiling: RMSNormArch35TilingData) -> None:
            self.curBlockIdx = uint64_t(GetBlockIdx())
            self.coreNum = uint64_t(GetBlockNum())
            self.numRow = tiling.num_row
            self.numCol = tiling.num_col
            self.numColAlign = tiling.num_col_align
            self.ubFactor = tiling.ub_factor
            self.blockFactor = tiling.block_factor
            self.blockFactorTail = tiling.last_block_factor

            self.epsilon = float32_t(tiling.epsilon)
            self.avgFactor = float32_t(tiling.avg_factor)
            self.colFlodFactor = tiling.col_flod_factor

            rstdBlockCount = self.blockFactor
            xBlockCount = rstdBlockCount * self.numCol
            curRstdBlockCount = rstdBlockCount
            curXBlockCount = xBlockCount
            self.curBlockFactor = self.blockFactor
            if self.curBlockIdx == (self.coreNum - 1):
                self.curBlockFactor = self.blockFactorTail
                curRstdBlockCount = self.blockFactorTail
                curXBlockCount = curRstdBlockCount * self.numCol

            self.curBlockLoops = (self.curBlockFactor + self.ubFactor - 1) // self.ubFactor
            self.curUbTails = self.curBlockFactor - (self.curBlockLoops - 1) * self.ubFactor

            self.xGm.SetGlobalBuffer(x.cast(DX) + self.curBlockIdx * xBlockCount, curXBlockCount)
            self.gammaGm.SetGlobalBuffer(gamma.cast(DG), self.numCol)
            self.yGm.SetGlobalBuffer(y.cast(DX) + self.curBlockIdx * xBlockCount, curXBlockCount)
            self.rstdGm.SetGlobalBuffer(
                rstd.cast(float32_t) + self.curBlockIdx * rstdBlockCount, curRstdBlockCount
            )

            self.pipe.InitBuffer(self.inQueueGamma, 1, self.numColAlign * DG.size)
            self.pipe.InitBuffer(
                self.inQueueX, DOUBLE_BUFFER_NUM, self.ubFactor * self.numColAlign * DX.size
            )
            self.pipe.InitBuffer(
                self.outQueueY, DOUBLE_BUFFER_NUM, self.ubFactor * self.numColAlign * DX.size
            )
            rstdUbSizeAlign = (
                (self.ubFactor + self.blockSizeB32 - 1)
                // self.blockSizeB32
                * self.blockSizeB32
                * float32_t.size
            )
            self.pipe.InitBuffer(self.outQueueRstd, DOUBLE_BUFFER_NUM, rstdUbSizeAlign)
            VectorLenB32 = self.VectorLenB32
            firstVcaddResult = (
                self.ubFactor
                * (
                    (
                        (self.colFlodFactor + VectorLenB32 - 1) // VectorLenB32
                        + self.blockSizeB32
                        - 1
                    )
                    // self.blockSizeB32
                    * self.blockSizeB32
                )
                * float32_t.size
            )
            self.pipe.InitBuffer(self.xTmpBuf, firstVcaddResult)
            self.pipe.InitBuffer(self.xReduceTmpBuf, rstdUbSizeAlign)

        @__aicore__
        def Process(self) -> None:
            dataCopyPadExtParamsGamma = DataCopyPadExtParams[DG]()
            dataCopyPadExtParamsGamma.isPad = False
            dataCopyPadExtParamsGamma.leftPadding = 0
            dataCopyPadExtParamsGamma.rightPadding = 0
            dataCopyPadExtParamsGamma.paddingValue = 0
            copyInParamsGamma = DataCopyExtParams()
            copyInParamsGamma.blockCount = 1
            copyInParamsGamma.blockLen = self.numCol * DG.size
            copyInParamsGamma.srcStride = 0
            copyInParamsGamma.dstStride = 0

            gammaLocal = self.inQueueGamma.AllocTensor[DG]()
            DataCopyPad(gammaLocal, self.gammaGm, copyInParamsGamma, dataCopyPadExtParamsGamma)

            self.inQueueGamma.EnQue(gammaLocal)
            self.inQueueGamma.DeQue[DG]()

            for i in range(self.curBlockLoops):
                self.curUbFactor = (
                    self.curUbTails if i == (self.curBlockLoops - 1) else self.ubFactor
                )

                dataCopyPadExtParamsX = DataCopyPadExtParams[DX]()
                dataCopyPadExtParamsX.isPad = False
                dataCopyPadExtParamsX.leftPadding = 0
                dataCopyPadExtParamsX.rightPadding = 0
                dataCopyPadExtParamsX.paddingValue = 0
                copyInParamsX = DataCopyExtParams()
                copyInParamsX.blockCount = self.curUbFactor
                copyInParamsX.blockLen = self.numCol * DX.size
                copyInParamsX.srcStride = 0
                copyInParamsX.dstStride = (
                    (self.numColAlign - self.numCol) * DX.size // self.blockSize
                )
                xLocal = self.inQueueX.AllocTensor[DX]()
                DataCopyPad(
                    xLocal,
                    self.xGm[i * self.ubFactor * self.numCol],
                    copyInParamsX,
                    dataCopyPadExtParamsX,
                )
                self.inQueueX.EnQue(xLocal)
                self.inQueueX.DeQue[DX]()
                rstdLocal = self.outQueueRstd.AllocTensor[float32_t]()
                xTmpLocal = self.xTmpBuf.Get[float32_t]()
                xReduceTmpLocal = self.xReduceTmpBuf.Get[float32_t]()
                NormCommon.NormCommonRegbase.CalculateSquareReduceSum[DX](
                    xLocal,
                    xReduceTmpLocal,
                    xTmpLocal,
                    uint16_t(self.curUbFactor),
                    uint32_t(self.numColAlign),
                    uint32_t(self.numCol),
                    uint32_t(self.colFlodFactor),
                    uint32_t(self.blockSizeB32),
                    uint32_t(self.numColAlign),
                )
                NormCommon.ComputeRstdNewtonRaphson[False, True](
                    xReduceTmpLocal,
                    rstdLocal,
                    uint32_t(self.curUbFactor),
                    self.epsilon,
                    self.avgFactor,
                    self.VectorLenB32,
                )

                self.outQueueRstd.EnQue(rstdLocal)
                self.outQueueRstd.DeQue[float32_t]()

                copyInParamsRstd = DataCopyExtParams()
                copyInParamsRstd.blockCount = 1
                copyInParamsRstd.blockLen = self.curUbFactor * float32_t.size
                copyInParamsRstd.srcStride = 0
                copyInParamsRstd.dstStride = 0
                DataCopyPad(self.rstdGm[i * self.ubFactor], rstdLocal, copyInParamsRstd)

                yLocal = self.outQueueY.AllocTensor[DX]()
                self.ComputeY(xLocal, gammaLocal, rstdLocal, yLocal, self.curUbFactor)
                self.inQueueX.FreeTensor(xLocal)
                self.outQueueRstd.FreeTensor(rstdLocal)
                self.outQueueY.EnQue(yLocal)
                self.outQueueY.DeQue[DX]()

                copyInParamsY = DataCopyExtParams()
                copyInParamsY.blockCount = self.curUbFactor
                copyInParamsY.blockLen = self.numCol * DX.size
                copyInParamsY.srcStride = (
                    (self.numColAlign - self.numCol) * DX.size // self.blockSize
                )
                copyInParamsY.dstStride = 0
                DataCopyPad(self.yGm[i * self.ubFactor * self.numCol], yLocal, copyInParamsY)
                self.outQueueY.FreeTensor(yLocal)
            self.inQueueGamma.FreeTensor(gammaLocal)

        @__aicore__
        def ComputeY(self, xLocal, gammaLocal, rstdLocal, yLocal, curUbFactor) -> None:
            xLocalAddr = xLocal.GetPhyAddr()
            gammaLocalUbAddr = gammaLocal.GetPhyAddr()
            rstdLocalUbAddr = rstdLocal.GetPhyAddr()
            yLocalUbAddr = yLocal.GetPhyAddr()
            VectorLenB32 = self.VectorLenB32

            colNum = uint32_t(self.numCol)
            curAloops = uint16_t(curUbFactor)
            colLoops = uint16_t((self.numColAlign + VectorLenB32 - 1) // VectorLenB32)
            colNumAlign = uint32_t(self.numColAlign)
            with __VEC_SCOPE__:
                RstdReg = RegTensor[float32_t]()
                gammaReg = RegTensor[float32_t]()

                xReg = RegTensor[float32_t]()
                mul1Reg = RegTensor[float32_t]()
                mul2Reg = RegTensor[float32_t]()

                for i in range(curAloops):
                    sregElewiseNum = Ref(uint32_t(self.numCol))
                    LoadAlign[float32_t, LoadDist.DIST_BRC_B32](RstdReg, rstdLocalUbAddr + i)
                    for j in range(colLoops):
                        pregCurLoop = UpdateMask[float32_t](sregElewiseNum)
                        LoadRegForDtype[DX](
                            xLocalAddr, xReg, pregCurLoop, (i * colNumAlign + j * VectorLenB32)
                        )
                        Mul(mul1Reg, xReg, RstdReg, pregCurLoop)
                        LoadRegForDtype[DG](
                            gammaLocalUbAddr, gammaReg, pregCurLoop, (j * VectorLenB32)
                        )
                        if IS_GEMMA:
                            gammaAddReg = RegTensor[float32_t]()
                            Adds(gammaAddReg, gammaReg, float32_t(1.0), pregCurLoop)
                            Mul(mul2Reg, mul1Reg, gammaAddReg, pregCurLoop)
                        else:
                            Mul(mul2Reg, mul1Reg, gammaReg, pregCurLoop)
                        StoreRegForDtype[DX](
                            yLocalUbAddr, mul2Reg, pregCurLoop, (i * colNumAlign + j * VectorLenB32)
                        )
            del colNum

    return KernelRmsNormRegBasePerf


DTYPE_X: type[Scalar] = float32_t
DTYPE_GAMMA: type[Scalar] = float32_t
RMSNORM_REGBASE_NORMAL = 5000
RMSNORM_REGBASE_SPLIT = 2001


# ---- op_kernel/rms_norm_apt.cpp (the RMSNORM_REGBASE_NORMAL branch; the split one is not ported) --
@__global__
@__aicore__
def rms_norm(
    x: GM_ADDR, gamma: GM_ADDR, y: GM_ADDR, rstd: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR
) -> None:
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    if TILING_KEY_IS(RMSNORM_REGBASE_NORMAL):
        tiling_data_in = GET_TILING_DATA_WITH_STRUCT(RMSNormArch35TilingData, tiling)
        tilingData = tiling_data_in
        op = KernelRmsNormRegBasePerf(DTYPE_X, DTYPE_GAMMA, False)()
        op.Init(x, gamma, y, rstd, tilingData)
        op.Process()


UB_SIZE, CORE_NUM = 248 * 1024, 64


def host_tiling(
    rows: int, cols: int, dtype: type[Scalar], eps: float, ub_size: int = UB_SIZE
) -> tuple[int, RMSNormArch35TilingData]:
    blockFactor = ceil_div(rows, CORE_NUM)
    useCoreNum = ceil_div(rows, blockFactor)
    numColAlign = ceil_div(cols * dtype.size, 32) * 32 // dtype.size
    powerFactor = 1 << (numColAlign - 1).bit_length() - 1  # pow(2, floor(log2(numColAlign - 1)))
    firstVcaddLength = ceil_div(ceil_div(powerFactor, 64), 32) * 32
    ubFactor = (ub_size - 2 * 1024 - numColAlign * dtype.size) // (
        numColAlign * dtype.size * 2 * 2 + 4 * (2 + 1) + firstVcaddLength
    )
    return useCoreNum, RMSNormArch35TilingData(
        num_row=rows,
        num_col=cols,
        num_col_align=numColAlign,
        block_factor=blockFactor,
        col_flod_factor=powerFactor,
        ub_factor=min(ubFactor, blockFactor),
        epsilon=eps,
        avg_factor=float(np.float32(1.0) / np.float32(cols)),
        last_block_factor=rows - (useCoreNum - 1) * blockFactor,
    )


def run(
    x: np.ndarray, gamma: np.ndarray, dtype: type[Scalar], eps: float, ub_size: int
) -> tuple[np.ndarray, np.ndarray]:
    global DTYPE_X, DTYPE_GAMMA
    DTYPE_X = DTYPE_GAMMA = dtype
    rows, cols = x.shape
    blocks, tilingData = host_tiling(rows, cols, dtype, eps, ub_size)
    gm = GlobalMemory()
    xDevice, gammaDevice = to_device(gm, x, dtype), to_device(gm, gamma, dtype)
    yDevice, rstdDevice = (
        empty_device(gm, x.size, dtype, np.nan),
        empty_device(gm, rows, float32_t, np.nan),
    )
    ICPU_SET_TILING_KEY(RMSNORM_REGBASE_NORMAL)
    rms_norm[blocks, 0, None](
        xDevice,
        gammaDevice,
        yDevice,
        rstdDevice,
        empty_device(gm, 32, uint8_t),
        tiling_to_device(gm, tilingData),
    )
    return from_device(yDevice, x.size, dtype).reshape(x.shape), from_device(
        rstdDevice, rows, float32_t
    )


def golden(
    x: np.ndarray, gamma: np.ndarray, eps: float, dtype: type[Scalar]
) -> tuple[np.ndarray, np.ndarray]:
    x64 = x.astype(np.float64)
    rstd = 1 / np.sqrt((x64**2).mean(axis=1) + np.float32(eps))
    return rounded(x64 * rstd[:, None] * gamma.astype(np.float64), dtype), rounded(rstd, float32_t)


CASES = [
    pytest.param(float32_t, (9, 48), UB_SIZE, id="float-48-one-register"),
    pytest.param(float32_t, (5, 300), UB_SIZE, id="float-300-fold"),
    pytest.param(half, (70, 200), 40 * 1024, id="half-200-fold-ub-loops"),
    pytest.param(half, (2, 300), UB_SIZE, id="half-300-fold"),
    # rows of 300 floats: each row's masked tail register spans the next row's start (the
    # batched rows' loops write only enabled lanes); 5 rows a block, UB loads of 3 rows
    pytest.param(float32_t, (260, 300), 20 * 1024, id="float-300-rows-closer-than-a-register"),
]
CAST_WRITE_CASES = [
    pytest.param(float32_t, (4, 100), UB_SIZE, id="float-100-two-registers"),
    pytest.param(float32_t, (3, 9000), UB_SIZE, id="float-9000-two-level-fold"),
]
"""The forms that zero a register's tail through a ``uint32_t`` view (a cast as write target)."""


def _check(dtype: type[Scalar], shape: tuple[int, int], ub_size: int) -> None:
    rng = np.random.default_rng(shape[1])
    x = rng.uniform(-3, 3, shape).astype(dtype.np_dtype)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(dtype.np_dtype)
    y, rstd = run(x, gamma, dtype, 1e-6, ub_size)
    y_golden, rstd_golden = golden(x, gamma, 1e-6, dtype)
    assert_ulp(rstd, rstd_golden, 8)
    assert_ulp(y, y_golden, 8 if dtype is float32_t else 1)


@pytest.mark.parametrize(("dtype", "shape", "ub_size"), CASES + CAST_WRITE_CASES)
def test_rms_norm_as_written(dtype: type[Scalar], shape: tuple[int, int], ub_size: int) -> None:
    _check(dtype, shape, ub_size)


@pytest.mark.parametrize(("dtype", "shape", "ub_size"), CASES)
def test_rms_norm_with_stand_ins(dtype: type[Scalar], shape: tuple[int, int], ub_size: int) -> None:
    with stand_ins(globals()), tail_over_read():
        _check(dtype, shape, ub_size)

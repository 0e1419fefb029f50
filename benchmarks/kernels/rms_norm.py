"""RmsNorm: ops-nn ``norm/rms_norm/op_kernel/arch35/rms_norm_regbase_perf.h`` (``KernelRmsNormRegBasePerf``).

``y = x * rstd * gamma`` per row, ``rstd = 1 / sqrt(mean(x^2) + epsilon)``, float32 ``x`` and
``gamma`` (``DX = DG = float``, ``IS_GEMMA = false``). Each block takes ``blockFactor`` rows
and walks them ``ubFactor`` rows at a time through ``TQue`` double buffers: ``DataCopyPad`` in,
the square-sum of each row (``CalculateSquareReduceSumCommon<float, 1>`` of
``norm_common/reduce_common_regbase.h``: the row folded at ``colFlodFactor``, ``Mul``, ``Add``,
``ReduceSum`` per 64 lanes into a temporary row, then ``ReduceSum`` of that), ``rstd`` by
``ComputeRstdNewtonRaphson`` (a ``Div``/``Sqrt`` estimate refined by a Newton-Raphson step),
``ComputeY`` (``LoadAlign<DIST_BRC_B32>`` of the row's rstd, ``Mul``, ``Mul`` by gamma) and
``DataCopyPad`` out, for ``y`` and ``rstd``. The ``__VEC_SCOPE__`` blocks are ``__simd_vf__``
functions called with ``asc_vf_call``; ``DataCopy`` of a register is its newer name
``LoadAlign``/``StoreAlign``.

Not line for line: the two temporary buffers hold at least one whole register (256 bytes): the
kernel's ``LoadAlign`` of 64 lanes reads past the 32-byte buffers the C++ sizes (harmless on the
chip, where UB continues), which ascreg reports. Shape: [1024, 1024] on 8 blocks of 128 rows,
8 rows per UB load (what the tiling gives for that shape and UB). Golden: the same formula in
float32 numpy; checked with ``isclose`` (rtol 1e-4, atol 1e-5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, LoadDist, MemType, Ref, Reg, StoreDist, UbPtr, float32_t
from ascreg.basic import (
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    GetBlockIdx,
    GetBlockNum,
    GlobalTensor,
    LocalTensor,
    TBuf,
    TPipe,
    TPosition,
    TQue,
    asc_vf_call,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from benchmarks.kernels import RealKernel, isclose_check

DOUBLE_BUFFER_NUM = 2
V_LENGTH = 256 // float32_t.size  # VectorLenB32 = GetVRegSize() / sizeof(float)
BLOCK_SIZE = 32  # GetUbBlockSize()
BLOCK_SIZE_B32 = BLOCK_SIZE // float32_t.size
ROWS, COLUMNS, BLOCKS, UB_FACTOR = 1024, 1024, 8, 8
EPSILON = 1e-6


@dataclass
class RMSNormArch35TilingData:
    num_row: int
    num_col: int
    num_col_align: int
    ub_factor: int
    block_factor: int
    last_block_factor: int
    epsilon: float
    avg_factor: float
    col_flod_factor: int


@__simd_vf__
def CalculateSquareReduceSumCommon(
    xPtr: UbPtr[float32_t], dstPtr: UbPtr[float32_t], tmpPtr: UbPtr[float32_t], rows: int,
    rowStride: int, reduceNum: int, foldPoint: int, tmpStride: int,
) -> None:  # fmt: skip
    foldLoops = (foldPoint + V_LENGTH - 1) // V_LENGTH
    lastNum = foldPoint // V_LENGTH
    tail = reduceNum - foldPoint if reduceNum > foldPoint else 0
    tailCeilLoops = (tail + V_LENGTH - 1) // V_LENGTH
    firstFlodWithOutAddLoops = foldLoops - tailCeilLoops

    xReg = Reg.RegTensor[float32_t]()
    xFoldReg = Reg.RegTensor[float32_t]()
    sumReg = Reg.RegTensor[float32_t]()
    reduceReg = Reg.RegTensor[float32_t]()
    pregFull = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    pregOne = Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
    for i in range(rows):
        baseOffset = i * rowStride
        tmpOffset = i * tmpStride
        sregTail = Ref(tail)
        for j in range(tailCeilLoops):
            pregLoop = Reg.UpdateMask[float32_t](sregTail)
            offset = j * V_LENGTH + baseOffset
            Reg.LoadAlign(xReg, xPtr + offset)
            Reg.Mul(xReg, xReg, xReg, pregFull)
            Reg.LoadAlign(xFoldReg, xPtr + foldPoint + offset)
            Reg.Mul(xFoldReg, xFoldReg, xFoldReg, pregLoop)
            Reg.Add(sumReg, xReg, xFoldReg, pregFull)
            Reg.ReduceSum(reduceReg, sumReg, pregFull)
            Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](tmpPtr + tmpOffset + j, reduceReg, pregOne)  # fmt: skip
        for j in range(firstFlodWithOutAddLoops):
            offset = (tailCeilLoops + j) * V_LENGTH + baseOffset
            Reg.LoadAlign(xReg, xPtr + offset)
            Reg.Mul(xReg, xReg, xReg, pregFull)
            Reg.ReduceSum(reduceReg, xReg, pregFull)
            Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](tmpPtr + tmpOffset + tailCeilLoops + j, reduceReg, pregOne)  # fmt: skip
    Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    pregLast = Reg.UpdateMask[float32_t](Ref(lastNum))  # LAST_LOOP_NUMS == 1
    for i in range(rows):
        Reg.LoadAlign(xReg, tmpPtr + i * tmpStride)
        Reg.ReduceSum(reduceReg, xReg, pregLast)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](dstPtr + i, reduceReg, pregOne)


POS_INF = np.float32(np.inf)  # 3.40282366920938E+38 is 2**128: as a float constant, +inf
SCALAR1, SCALAR2, SCALAR3, SCALAR0 = (np.float32(v) for v in (-0.5, 1.5, 0.5, -99.99))


@__simd_vf__
def ComputeRstdNewtonRaphson(
    src: UbPtr[float32_t], dst: UbPtr[float32_t], rowCount: int, epsilon: float, avgFactor: float
) -> None:  # NEED_MAX = false, NEED_AVG_FACTOR = true
    loopRows = (rowCount + V_LENGTH - 1) // V_LENGTH
    var = Reg.RegTensor[float32_t]()
    rstd = Reg.RegTensor[float32_t]()
    r, y, s, t = (Reg.RegTensor[float32_t]() for _ in range(4))
    one, scalar1, t1, t3, t4 = (Reg.RegTensor[float32_t]() for _ in range(5))
    scalarInf, scalarZero = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    cmpRegZero, cmpRegInf = Reg.MaskReg(), Reg.MaskReg()
    sreg = Ref(rowCount)
    for i in range(loopRows):
        preg = Reg.UpdateMask[float32_t](sreg)
        Reg.LoadAlign(var, src + i * V_LENGTH)
        Reg.Muls(var, var, avgFactor, preg)
        # ComputeRstdNewtonRaphsonReg<false>(var, rstd, preg, epsilon)
        Reg.Duplicate(scalarInf, POS_INF, preg)
        Reg.Duplicate(scalarZero, np.float32(0.0), preg)
        Reg.Duplicate(one, np.float32(1.0), preg)
        Reg.Duplicate(scalar1, SCALAR3, preg)
        Reg.Duplicate(t1, SCALAR2, preg)
        Reg.Duplicate(s, np.float32(1.0), preg)
        Reg.Adds(var, var, epsilon, preg)
        Reg.Div(r, one, var, preg)
        Reg.Sqrt(y, r, preg)
        Reg.Muls(t, var, SCALAR1, preg)
        Reg.Mul(t, t, y, preg)
        Reg.Mula(t1, t, y, preg)
        Reg.Mul(rstd, y, t1, preg)
        Reg.Muls(t3, var, np.float32(-1.0), preg)
        Reg.Mula(s, t3, r, preg)
        Reg.Muls(t4, rstd, np.float32(-1.0), preg)
        Reg.Mula(r, t4, rstd, preg)
        Reg.Mula(s, var, r, preg)
        Reg.Mul(s, s, rstd, preg)
        Reg.Mula(rstd, s, scalar1, preg)
        Reg.CompareScalar(cmpRegZero, var, POS_INF, preg)
        Reg.Select(rstd, scalarZero, rstd, cmpRegZero)
        Reg.CompareScalar(cmpRegInf, var, np.float32(0.0), preg)
        Reg.Select(rstd, scalarInf, rstd, cmpRegInf)
        Reg.StoreAlign(dst + i * V_LENGTH, rstd, preg)


@__simd_vf__
def ComputeY(
    xLocalAddr: UbPtr[float32_t], gammaLocalUbAddr: UbPtr[float32_t],
    rstdLocalUbAddr: UbPtr[float32_t], yLocalUbAddr: UbPtr[float32_t], numCol: int,
    curAloops: int, colLoops: int, colNumAlign: int,
) -> None:  # fmt: skip
    RstdReg = Reg.RegTensor[float32_t]()
    gammaReg = Reg.RegTensor[float32_t]()
    xReg = Reg.RegTensor[float32_t]()
    mul1Reg = Reg.RegTensor[float32_t]()
    mul2Reg = Reg.RegTensor[float32_t]()
    for i in range(curAloops):
        sregElewiseNum = Ref(numCol)
        Reg.LoadAlign[float32_t, LoadDist.DIST_BRC_B32](RstdReg, rstdLocalUbAddr + i)
        for j in range(colLoops):
            pregCurLoop = Reg.UpdateMask[float32_t](sregElewiseNum)
            Reg.LoadAlign(xReg, xLocalAddr + i * colNumAlign + j * V_LENGTH)
            Reg.Mul(mul1Reg, xReg, RstdReg, pregCurLoop)
            Reg.LoadAlign(gammaReg, gammaLocalUbAddr + j * V_LENGTH)
            Reg.Mul(mul2Reg, mul1Reg, gammaReg, pregCurLoop)
            Reg.StoreAlign(yLocalUbAddr + i * colNumAlign + j * V_LENGTH, mul2Reg, pregCurLoop)


class KernelRmsNormRegBasePerf:
    """``RmsNorm::KernelRmsNormRegBasePerf<float, float, false>``."""

    def Init(
        self, x: GmPtr[float32_t], gamma: GmPtr[float32_t], y: GmPtr[float32_t],
        rstd: GmPtr[float32_t], tiling: RMSNormArch35TilingData,
    ) -> None:  # fmt: skip
        self.pipe = TPipe()
        self.curBlockIdx = GetBlockIdx()
        self.coreNum = GetBlockNum()
        self.numCol, self.numColAlign = tiling.num_col, tiling.num_col_align
        self.ubFactor, self.blockFactor = tiling.ub_factor, tiling.block_factor
        self.epsilon, self.avgFactor = tiling.epsilon, tiling.avg_factor
        self.colFlodFactor = tiling.col_flod_factor
        rstdBlockCount = self.blockFactor
        xBlockCount = rstdBlockCount * self.numCol
        self.curBlockFactor = self.blockFactor
        curRstdBlockCount, curXBlockCount = rstdBlockCount, xBlockCount
        if self.curBlockIdx == self.coreNum - 1:
            self.curBlockFactor = tiling.last_block_factor
            curRstdBlockCount = tiling.last_block_factor
            curXBlockCount = curRstdBlockCount * self.numCol
        self.curBlockLoops = (self.curBlockFactor + self.ubFactor - 1) // self.ubFactor
        self.curUbTails = self.curBlockFactor - (self.curBlockLoops - 1) * self.ubFactor

        self.xGm, self.gammaGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        self.yGm, self.rstdGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        self.xGm.SetGlobalBuffer(x + self.curBlockIdx * xBlockCount, curXBlockCount)
        self.gammaGm.SetGlobalBuffer(gamma, self.numCol)
        self.yGm.SetGlobalBuffer(y + self.curBlockIdx * xBlockCount, curXBlockCount)
        self.rstdGm.SetGlobalBuffer(rstd + self.curBlockIdx * rstdBlockCount, curRstdBlockCount)

        self.inQueueGamma = TQue[TPosition.VECIN, 1]()
        self.inQueueX = TQue[TPosition.VECIN, DOUBLE_BUFFER_NUM]()
        self.outQueueY = TQue[TPosition.VECOUT, DOUBLE_BUFFER_NUM]()
        self.outQueueRstd = TQue[TPosition.VECOUT, DOUBLE_BUFFER_NUM]()
        self.xTmpBuf = TBuf[TPosition.VECCALC]()
        self.xReduceTmpBuf = TBuf[TPosition.VECCALC]()
        self.pipe.InitBuffer(self.inQueueGamma, 1, self.numColAlign * float32_t.size)
        rowBytes = self.ubFactor * self.numColAlign * float32_t.size
        self.pipe.InitBuffer(self.inQueueX, DOUBLE_BUFFER_NUM, rowBytes)
        self.pipe.InitBuffer(self.outQueueY, DOUBLE_BUFFER_NUM, rowBytes)
        rstdUbSizeAlign = max(
            (self.ubFactor + BLOCK_SIZE_B32 - 1)
            // BLOCK_SIZE_B32
            * BLOCK_SIZE_B32
            * float32_t.size,
            V_LENGTH * float32_t.size,  # one whole register (see the module docstring)
        )
        self.pipe.InitBuffer(self.outQueueRstd, DOUBLE_BUFFER_NUM, rstdUbSizeAlign)
        self.tmpStride = ((self.colFlodFactor + V_LENGTH - 1) // V_LENGTH + BLOCK_SIZE_B32 - 1) // BLOCK_SIZE_B32 * BLOCK_SIZE_B32  # fmt: skip
        firstVcaddResult = self.ubFactor * self.tmpStride * float32_t.size
        self.pipe.InitBuffer(self.xTmpBuf, firstVcaddResult + V_LENGTH * float32_t.size)
        self.pipe.InitBuffer(self.xReduceTmpBuf, rstdUbSizeAlign)

    def Process(self) -> None:
        gammaLocal = self.inQueueGamma.AllocTensor[float32_t]()
        DataCopyPad(
            gammaLocal, self.gammaGm, DataCopyExtParams(1, self.numCol * float32_t.size, 0, 0, 0),
            DataCopyPadExtParams[float32_t](False, 0, 0, 0),
        )  # fmt: skip
        self.inQueueGamma.EnQue(gammaLocal)
        self.inQueueGamma.DeQue[float32_t]()
        for i in range(self.curBlockLoops):
            curUbFactor = self.curUbTails if i == self.curBlockLoops - 1 else self.ubFactor
            xLocal = self.inQueueX.AllocTensor[float32_t]()
            copyInParamsX = DataCopyExtParams(
                curUbFactor, self.numCol * float32_t.size, 0,
                (self.numColAlign - self.numCol) * float32_t.size // BLOCK_SIZE, 0,
            )  # fmt: skip
            DataCopyPad(
                xLocal, self.xGm[i * self.ubFactor * self.numCol], copyInParamsX,
                DataCopyPadExtParams[float32_t](False, 0, 0, 0),
            )  # fmt: skip
            self.inQueueX.EnQue(xLocal)
            self.inQueueX.DeQue[float32_t]()
            rstdLocal = self.outQueueRstd.AllocTensor[float32_t]()
            xTmpLocal = self.xTmpBuf.Get[float32_t]()
            xReduceTmpLocal = self.xReduceTmpBuf.Get[float32_t]()
            asc_vf_call[CalculateSquareReduceSumCommon](
                xLocal.GetPhyAddr(), xReduceTmpLocal.GetPhyAddr(), xTmpLocal.GetPhyAddr(),
                curUbFactor, self.numColAlign, self.numCol, self.colFlodFactor, self.tmpStride,
            )  # fmt: skip
            asc_vf_call[ComputeRstdNewtonRaphson](
                xReduceTmpLocal.GetPhyAddr(), rstdLocal.GetPhyAddr(), curUbFactor,
                np.float32(self.epsilon), np.float32(self.avgFactor),
            )  # fmt: skip
            self.outQueueRstd.EnQue(rstdLocal)
            self.outQueueRstd.DeQue[float32_t]()
            DataCopyPad(
                self.rstdGm[i * self.ubFactor], rstdLocal,
                DataCopyExtParams(1, curUbFactor * float32_t.size, 0, 0, 0),
            )  # fmt: skip
            yLocal = self.outQueueY.AllocTensor[float32_t]()
            self.ComputeY(xLocal, gammaLocal, rstdLocal, yLocal, curUbFactor)
            self.inQueueX.FreeTensor(xLocal)
            self.outQueueRstd.FreeTensor(rstdLocal)
            self.outQueueY.EnQue(yLocal)
            self.outQueueY.DeQue[float32_t]()
            copyOutParamsY = DataCopyExtParams(
                curUbFactor, self.numCol * float32_t.size,
                (self.numColAlign - self.numCol) * float32_t.size // BLOCK_SIZE, 0, 0,
            )  # fmt: skip
            DataCopyPad(self.yGm[i * self.ubFactor * self.numCol], yLocal, copyOutParamsY)
            self.outQueueY.FreeTensor(yLocal)
        self.inQueueGamma.FreeTensor(gammaLocal)

    def ComputeY(
        self, xLocal: LocalTensor[float32_t], gammaLocal: LocalTensor[float32_t],
        rstdLocal: LocalTensor[float32_t], yLocal: LocalTensor[float32_t], curUbFactor: int,
    ) -> None:  # fmt: skip
        colLoops = (self.numColAlign + V_LENGTH - 1) // V_LENGTH
        asc_vf_call[ComputeY](
            xLocal.GetPhyAddr(), gammaLocal.GetPhyAddr(), rstdLocal.GetPhyAddr(),
            yLocal.GetPhyAddr(), self.numCol, curUbFactor, colLoops, self.numColAlign,
        )  # fmt: skip


@__global__
@__vector__
def rms_norm(
    x: GmPtr[float32_t], gamma: GmPtr[float32_t], y: GmPtr[float32_t], rstd: GmPtr[float32_t],
    tiling: RMSNormArch35TilingData,
) -> None:  # fmt: skip
    op = KernelRmsNormRegBasePerf()
    op.Init(x, gamma, y, rstd, tiling)
    op.Process()


def tiling_for(rows: int, columns: int, blocks: int, ub_factor: int) -> RMSNormArch35TilingData:
    """The tiling of [rows, columns] float32 on *blocks* cores, *ub_factor* rows per load."""
    fold = 1 << (columns - 1).bit_length() - 1  # the largest power of two below the width
    return RMSNormArch35TilingData(
        num_row=rows, num_col=columns, num_col_align=(columns + 7) // 8 * 8, ub_factor=ub_factor,
        block_factor=rows // blocks, last_block_factor=rows - (blocks - 1) * (rows // blocks),
        epsilon=EPSILON, avg_factor=1.0 / columns, col_flod_factor=fold,
    )  # fmt: skip


def inputs(size: int, seed: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """x standard normal [size / 1024, 1024], gamma uniform in [0.5, 1.5) [1024] (float32)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal([size // COLUMNS, COLUMNS]).astype(np.float32)
    return x, rng.uniform(0.5, 1.5, COLUMNS).astype(np.float32)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(x, gamma) -> (y, rstd)``."""
    rows = size // COLUMNS
    blocks = min(BLOCKS, rows)
    tiling = tiling_for(rows, COLUMNS, blocks, min(UB_FACTOR, rows // blocks))
    gm = GlobalMemory()
    x_gm, y_gm = gm.alloc(float32_t, size), gm.alloc(float32_t, size)
    gamma_gm, rstd_gm = gm.alloc(float32_t, COLUMNS), gm.alloc(float32_t, rows)

    def run(x: Any, gamma: Any) -> tuple[Any, Any]:
        x_gm.write(x.reshape(-1))
        gamma_gm.write(gamma)
        rms_norm[blocks, 0, None](x_gm, gamma_gm, y_gm, rstd_gm, tiling)
        return y_gm.read(size).reshape(rows, COLUMNS), rstd_gm.read(rows)

    return run


def golden(x: Any, gamma: Any) -> tuple[Any, Any]:
    """The same math on the whole array in float32 numpy: ``y`` and ``rstd``."""
    mean_square = np.mean(x * x, axis=1, keepdims=True, dtype=np.float32)
    rstd = np.float32(1.0) / np.sqrt(mean_square + np.float32(EPSILON))
    return x * rstd * gamma, rstd.reshape(-1)


def _check(output: Any, want: Any) -> bool:
    close = isclose_check(rtol=1e-4, atol=1e-5)
    return all(close(a, b) for a, b in zip(output, want, strict=True))


KERNEL = RealKernel(
    name="rms_norm",
    origin="ops-nn norm/rms_norm/op_kernel/arch35/rms_norm_regbase_perf.h",
    size=ROWS * COLUMNS,
    small=16 * COLUMNS,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=_check,
    vfs=(CalculateSquareReduceSumCommon, ComputeRstdNewtonRaphson, ComputeY),
)

"""AscendQuant (per tensor): ops-nn ``quant/ascend_quant/op_kernel/arch35/ascend_quant_regbase.h``.

``AscendQuantPerTensorRegbase<float, int8_t, TPL_ROUND_MODE_ROUND, offset>``: ``y =
int8(round(x * scale + offset))``. Each block takes ``blockFactor`` elements (the last one
``blockTailFactor``) and walks them ``baseLen`` at a time through ``TQue`` double buffers:
``DataCopyPad`` in, the VF (``UpdateMask``, ``LoadAlign``, ``Muls``, ``Adds``, then the int8 chain
of casts ``Cast<int16_t, float>``, ``Cast<half, int16_t>``, ``Cast<int8_t, half>`` with
``CAST_RINT`` and ``StoreAlign<DIST_PACK4_B32>``), ``DataCopyPad`` out. Shape: 2**20 floats on
8 blocks, 16K elements per UB load (the tiling's ``baseLen``). Golden: the same math in float32
numpy (``rint``, then int8); checked bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ascreg import (
    VL,
    GlobalMemory,
    GmPtr,
    Ref,
    Reg,
    StoreDist,
    UbPtr,
    float32_t,
    half,
    int8_t,
    int16_t,
)
from ascreg.basic import (
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    GetBlockIdx,
    GlobalTensor,
    TPipe,
    TPosition,
    TQue,
    asc_vf_call,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from benchmarks.kernels import RealKernel, exact_check

BLOCK_SIZE = 32  # GetUbBlockSize()
BLOCKS, BASE_LEN = 8, 16 * 1024
SCALE, OFFSET = np.float32(12.5), np.float32(3.0)


def _trait(layout: Any) -> Any:
    """A ``CastTrait`` of the kernel: no saturation, ZEROING, ``CAST_RINT``."""
    return Reg.CastTrait(layout, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING, Reg.RoundMode.CAST_RINT)  # fmt: skip


CAST_TRAIT_FP32_TO_INT16 = _trait(Reg.RegLayout.ZERO)
CAST_TRAIT_INT16_TO_HALF = _trait(Reg.RegLayout.UNKNOWN)
CAST_TRAIT_HALF_TO_INT8 = _trait(Reg.RegLayout.ZERO)


@dataclass
class AscendQuantTilingData:
    numCore: int
    dim0: int
    blockFactor: int
    blockTailFactor: int
    baseLen: int
    roundMode: int
    scale: float
    offset: float


@__simd_vf__
def QuantVF(
    xLocalAddr: UbPtr[float32_t], outLocalAddr: UbPtr[int8_t], dataCount: int,
    ATTR_SCALE: Any, ATTR_OFFSET: Any,
) -> None:  # fmt: skip
    """The ``__VEC_SCOPE__`` of ``Compute`` (T = float, U = int8_t, an offset)."""
    VL_ = VL // float32_t.size
    vregFloatX = Reg.RegTensor[float32_t]()
    vregFloatY = Reg.RegTensor[float32_t]()
    vregInt16Y = Reg.RegTensor[int16_t]()
    vregHalfY = Reg.RegTensor[half]()
    vregY = Reg.RegTensor[int8_t]()
    vregTmp1 = Reg.RegTensor[float32_t]()
    count = Ref(dataCount)
    vfLoopNum = (dataCount + VL_ - 1) // VL_
    for i in range(vfLoopNum):
        mask = Reg.UpdateMask[float32_t](count)
        Reg.LoadAlign(vregFloatX, xLocalAddr + i * VL_)
        Reg.Muls(vregTmp1, vregFloatX, ATTR_SCALE, mask)
        Reg.Adds(vregFloatY, vregTmp1, ATTR_OFFSET, mask)
        Reg.Cast[int16_t, float32_t, CAST_TRAIT_FP32_TO_INT16](vregInt16Y, vregFloatY, mask)
        Reg.Cast[half, int16_t, CAST_TRAIT_INT16_TO_HALF](vregHalfY, vregInt16Y, mask)
        Reg.Cast[int8_t, half, CAST_TRAIT_HALF_TO_INT8](vregY, vregHalfY, mask)
        Reg.StoreAlign[int8_t, StoreDist.DIST_PACK4_B32](outLocalAddr + i * VL_, vregY, mask)


class AscendQuantPerTensorRegbase:
    """``AscendQuantOp::AscendQuantPerTensorRegbase<float, int8_t, ROUND, offset>``."""

    bufferNum_ = 2

    def Init(
        self, x: GmPtr[float32_t], y: GmPtr[int8_t], tilingData: AscendQuantTilingData,
        pipe: TPipe,
    ) -> None:  # fmt: skip
        self.pipe_ = pipe
        self.blockIdx_ = GetBlockIdx()
        self.xGm_, self.yGm_ = GlobalTensor[float32_t](), GlobalTensor[int8_t]()
        self.xGm_.SetGlobalBuffer(x)
        self.yGm_.SetGlobalBuffer(y)
        self.tilingData_ = tilingData
        last = self.blockIdx_ == tilingData.numCore - 1  # ParseCoreBlocks
        self.blockLen_ = tilingData.blockTailFactor if last else tilingData.blockFactor
        self.inQueueX_ = TQue[TPosition.VECIN, self.bufferNum_]()
        self.outQueueY_ = TQue[TPosition.VECOUT, self.bufferNum_]()
        self.pipe_.InitBuffer(self.inQueueX_, self.bufferNum_, tilingData.baseLen * float32_t.size)
        self.pipe_.InitBuffer(self.outQueueY_, self.bufferNum_, tilingData.baseLen * int8_t.size)

    def Process(self) -> None:
        if self.blockIdx_ >= self.tilingData_.numCore:
            return
        self.gmXOffset_ = self.blockIdx_ * self.tilingData_.blockFactor
        baseLen = self.tilingData_.baseLen
        lenLoopNum, lenLoopTail = divmod(self.blockLen_, baseLen)
        for i in range(lenLoopNum):
            self.CopyXAndCompute(baseLen, self.gmXOffset_ + i * baseLen)
        if lenLoopTail != 0:
            self.CopyXAndCompute(lenLoopTail, self.gmXOffset_ + lenLoopNum * baseLen)

    def CopyXAndCompute(self, dataCount: int, xOffset: int) -> None:
        self.CopyInX(dataCount, xOffset)
        self.Compute(dataCount)
        self.CopyOutY(dataCount, xOffset)

    def CopyInX(self, xLen: int, xInOffset: int) -> None:
        xLocal = self.inQueueX_.AllocTensor[float32_t]()
        tiling = self.tilingData_
        copyParams = DataCopyExtParams(  # GetXInCopyParams
            1, xLen * float32_t.size,
            (tiling.dim0 - xLen) * float32_t.size if tiling.dim0 > xLen else 0,
            (tiling.baseLen - xLen) * float32_t.size // BLOCK_SIZE if tiling.baseLen > xLen else 0,
            0,
        )  # fmt: skip
        DataCopyPad(xLocal, self.xGm_[xInOffset], copyParams, DataCopyPadExtParams[float32_t](False, 0, 0, 0))  # fmt: skip
        self.inQueueX_.EnQue(xLocal)

    def Compute(self, dataCount: int) -> None:
        xLocal = self.inQueueX_.DeQue[float32_t]()
        outLocal = self.outQueueY_.AllocTensor[int8_t]()
        asc_vf_call[QuantVF](
            xLocal.GetPhyAddr(), outLocal.GetPhyAddr(), dataCount,
            np.float32(self.tilingData_.scale), np.float32(self.tilingData_.offset),
        )  # fmt: skip
        self.inQueueX_.FreeTensor(xLocal)
        self.outQueueY_.EnQue(outLocal)

    def CopyOutY(self, yLen: int, yOutOffset: int) -> None:
        outLocal = self.outQueueY_.DeQue[int8_t]()
        tiling = self.tilingData_
        copyParams = DataCopyExtParams(  # GetOutCopyParams
            1, yLen * int8_t.size,
            (tiling.baseLen - yLen) * int8_t.size // BLOCK_SIZE if tiling.baseLen > yLen else 0,
            (tiling.dim0 - yLen) * int8_t.size if tiling.dim0 > yLen else 0,
            0,
        )  # fmt: skip
        DataCopyPad(self.yGm_[yOutOffset], outLocal, copyParams)
        self.outQueueY_.FreeTensor(outLocal)


@__global__
@__vector__
def ascend_quant(x: GmPtr[float32_t], y: GmPtr[int8_t], tilingData: AscendQuantTilingData) -> None:
    pipe = TPipe()
    op = AscendQuantPerTensorRegbase()
    op.Init(x, y, tilingData, pipe)
    op.Process()


def tiling_for(size: int, blocks: int) -> AscendQuantTilingData:
    """The per-tensor tiling of *size* floats on *blocks* cores."""
    factor = -(-size // blocks)
    return AscendQuantTilingData(
        numCore=blocks, dim0=size, blockFactor=factor, blockTailFactor=size - (blocks - 1) * factor,
        baseLen=min(BASE_LEN, factor), roundMode=0, scale=float(SCALE), offset=float(OFFSET),
    )  # fmt: skip


def inputs(size: int, seed: int) -> tuple[np.ndarray[Any, Any]]:
    """x standard normal floats (``x * 12.5 + 3`` stays inside int8)."""
    x = np.random.default_rng(seed).standard_normal(size).astype(np.float32)
    return (np.clip(x, np.float32(-10.0), np.float32(9.9)),)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(x) -> y``."""
    blocks = min(BLOCKS, size // 1024)
    tiling = tiling_for(size, blocks)
    gm = GlobalMemory()
    x_gm, y_gm = gm.alloc(float32_t, size), gm.alloc(int8_t, size)

    def run(x: Any) -> Any:
        x_gm.write(x)
        ascend_quant[blocks, 0, None](x_gm, y_gm, tiling)
        return y_gm.read(size)

    return run


def golden(x: Any) -> Any:
    """The same math on the whole array in numpy: ``int8(rint(x * scale + offset))``."""
    return np.rint(x * SCALE + OFFSET).astype(np.int8)


KERNEL = RealKernel(
    name="ascend_quant",
    origin="ops-nn quant/ascend_quant/op_kernel/arch35/ascend_quant_regbase.h (per tensor, int8)",
    size=1 << 20,
    small=16 * 1024,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=exact_check,
    vfs=(QuantVF,),
)

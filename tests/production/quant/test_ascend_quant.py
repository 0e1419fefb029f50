"""Port of hicann/ops-nn quant/ascend_quant/op_kernel/arch35/ascend_quant_regbase.h (+ ascend_quant.h, entry ascend_quant_apt.cpp).

``AscendQuantPerTensorRegbase<T, U, RoundMode, OffsetZero>``: per tensor quantisation
``y = cast<U>(x * scale + offset)``. Each block takes ``blockFactor`` elements (the last
``blockTailFactor``) in ``baseLen`` pieces through double-buffered queues; in a
``__VEC_SCOPE__`` each register of x (float, or half loaded with ``DIST_UNPACK_B16`` and cast)
is scaled (``Muls``), offset (``Adds``, left out when the offset is zero: ``OffsetZero``), and
for ``U = int8_t`` cast float -> int16 (the ``RoundMode`` template argument's rounding), int16
-> half -> int8 and stored with ``DIST_PACK4_B32``. The entry saves and restores the float
overflow mode (``GetCtrlSpr`` / ``SetCtrlSpr``) around the op.

Tiling (ascend_quant_tiling_arch35.cpp, per tensor): 128-byte cache lines split over the
cores, ``blockFactor`` whole cache lines of elements, ``baseLen`` the smaller of the block and
what half the UB (less 2 KiB) holds of x and y double-buffered; tiling key
``GET_TPL_TILING_KEY(roundMode + 1, 1, offset == 0)`` under ascend_quant_struct.h's
``ASCENDC_TPL_ARGS_DECL`` / ``ASCENDC_TPL_SEL``; the launch instantiates the kernel with the
values the key encodes (``DecodeTilingKey``: the runtime's dispatch).

Golden: the op's formula in numpy: ``x * scale + offset`` in IEEE float (each step rounded),
rounded half to even (``round``) or down (``floor``), saturated to int8; compared exactly.

Spelling change: the class template's value parameter ``RoundMode`` hides the enum
``RoundMode`` in Python (C++ looks names before ``::`` up among types only), so the enum is
written ``AscendC.RoundMode``. Needs (as written): the tail over-read of a whole-register
``LoadAlign`` past the tile (fixes); ``QuePosition``, ``VECTOR_REG_WIDTH``,
``__VEC_SCOPE__`` (glue); ``GetCtrlSpr`` / ``SetCtrlSpr`` (spell).
``GetUbBlockSize`` is the operator base library's (``using namespace Ops::Base``): the port takes
it from ``production_ports``.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

import ascreg as AscendC  # noqa: N812 (the C++ namespace's name)
from ascreg import (
    GlobalMemory,
    MicroAPI,
    Ref,
    Scalar,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int64_t,
    template,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from production_ports import (
    ClassTemplate,
    GetUbBlockSize,
    align_up,
    ceil_div,
    empty_device,
    from_device,
    stand_ins,
    tail_over_read,
    tiling_to_device,
    to_device,
)

FLOAT_OVERFLOW_MODE_CTRL = 60
TPL_ROUND_MODE_ROUND = 1
TPL_ROUND_MODE_FLOOR = 2
TPL_ROUND_MODE_CEIL = 3
TPL_ROUND_MODE_TRUNC = 4
TPL_ROUND_MODE_RINT = 5
TPL_ROUND_MODE_HYBRID = 6
TPL_EXTRA_BIT_ZERO = 0
TPL_EXTRA_BIT_ONE = 1
TPL_OFFSET_NON_ZERO = 0
TPL_OFFSET_ZERO = 1

# ---- op_kernel/arch35/ascend_quant_struct.h (namespace AscendQuantOp) ---------------------------
ASCENDC_TPL_ARGS_DECL(
    "AscendQuant",
    ASCENDC_TPL_UINT_DECL("roundMode", 3, ASCENDC_TPL_UI_LIST, TPL_ROUND_MODE_ROUND,
                          TPL_ROUND_MODE_FLOOR, TPL_ROUND_MODE_CEIL, TPL_ROUND_MODE_TRUNC,
                          TPL_ROUND_MODE_RINT, TPL_ROUND_MODE_HYBRID),
    ASCENDC_TPL_UINT_DECL("extraBit", 1, ASCENDC_TPL_UI_LIST, TPL_EXTRA_BIT_ZERO, TPL_EXTRA_BIT_ONE),
    ASCENDC_TPL_UINT_DECL("offsetZero", 1, ASCENDC_TPL_UI_LIST, TPL_OFFSET_NON_ZERO, TPL_OFFSET_ZERO),
)  # fmt: skip

ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_UINT_SEL("roundMode", ASCENDC_TPL_UI_LIST, TPL_ROUND_MODE_ROUND, TPL_ROUND_MODE_FLOOR,
                         TPL_ROUND_MODE_CEIL, TPL_ROUND_MODE_TRUNC, TPL_ROUND_MODE_RINT,
                         TPL_ROUND_MODE_HYBRID),
    ASCENDC_TPL_UINT_SEL("extraBit", ASCENDC_TPL_UI_LIST, TPL_EXTRA_BIT_ZERO, TPL_EXTRA_BIT_ONE),
    ASCENDC_TPL_UINT_SEL("offsetZero", ASCENDC_TPL_UI_LIST, TPL_OFFSET_NON_ZERO, TPL_OFFSET_ZERO)))  # fmt: skip

RoundMode = TypeVar("RoundMode")
ExtraBit = TypeVar("ExtraBit")
OffsetZero = TypeVar("OffsetZero")
yDtype = TypeVar("yDtype")
DTYPE_X: type[Scalar] = float32_t
DTYPE_Y: type[Scalar] = int8_t


# ---- op_kernel/arch35/ascend_quant_tilingdata.h ----------------------------------------------------
class AscendQuantTilingData(Struct):
    numCore: int64_t
    dim0: int64_t
    blockFactor: int64_t
    blockTailFactor: int64_t
    baseLen: int64_t
    roundMode: int64_t
    scale: float32_t
    offset: float32_t


@ClassTemplate
def AscendQuantBase(T, U, RoundMode):
    def trait(layout, sat, rounding):
        return MicroAPI.CastTrait(layout, sat, MicroAPI.MaskMergeMode.ZEROING, rounding)

    ZERO, UNKNOWN, SAT, NO_SAT = (
        MicroAPI.RegLayout.ZERO,
        MicroAPI.RegLayout.UNKNOWN,
        MicroAPI.SatMode.SAT,
        MicroAPI.SatMode.NO_SAT,
    )
    BY_MODE = {
        TPL_ROUND_MODE_ROUND: AscendC.RoundMode.CAST_RINT,
        TPL_ROUND_MODE_FLOOR: AscendC.RoundMode.CAST_FLOOR,
        TPL_ROUND_MODE_CEIL: AscendC.RoundMode.CAST_CEIL,
        TPL_ROUND_MODE_TRUNC: AscendC.RoundMode.CAST_TRUNC,
    }

    class AscendQuantBase:
        BLOCK_SIZE = GetUbBlockSize()
        INT4_NUMS_IN_INT8_SPACE = 2
        yCopyDtype = uint8_t if U is int4b_t else U

        CAST_TRAIT_HALF_TO_FP32 = MicroAPI.CastTrait(
            ZERO,
            MicroAPI.SatMode.UNKNOWN,
            MicroAPI.MaskMergeMode.ZEROING,
            AscendC.RoundMode.UNKNOWN,
        )
        CAST_TRAIT_FP32_TO_HIFP8 = trait(
            ZERO,
            SAT,
            AscendC.RoundMode.CAST_HYBRID
            if RoundMode == TPL_ROUND_MODE_HYBRID
            else AscendC.RoundMode.CAST_ROUND,
        )
        CAST_TRAIT_FP32_TO_FP8E5M2 = trait(ZERO, SAT, AscendC.RoundMode.CAST_RINT)
        CAST_TRAIT_FP32_TO_FP8E4M3 = trait(ZERO, SAT, AscendC.RoundMode.CAST_RINT)
        CAST_TRAIT_FP32_TO_INT16 = trait(
            ZERO, NO_SAT, BY_MODE.get(RoundMode, AscendC.RoundMode.CAST_RINT)
        )
        CAST_TRAIT_INT16_TO_HALF = trait(
            UNKNOWN, NO_SAT, BY_MODE.get(RoundMode, AscendC.RoundMode.CAST_RINT)
        )
        CAST_TRAIT_HALF_TO_INT8 = trait(
            ZERO, NO_SAT, BY_MODE.get(RoundMode, AscendC.RoundMode.CAST_RINT)
        )
        CAST_TRAIT_F16_TO_I8 = trait(ZERO, NO_SAT, AscendC.RoundMode.CAST_RINT)

        @__aicore__
        def ParseCoreBlocks(
            self, runTilingData: AscendQuantTilingData, blockIdx: int, blockLen: Ref
        ) -> None:
            if blockIdx == runTilingData.numCore - 1:
                blockLen.value = runTilingData.blockTailFactor
            else:
                blockLen.value = runTilingData.blockFactor

        @__aicore__
        def GetXInCopyParams(
            self, runTilingData: AscendQuantTilingData, xLen: int, copyParams: DataCopyExtParams
        ) -> None:
            copyParams.blockCount = 1
            copyParams.blockLen = xLen * T.size
            if runTilingData.baseLen > xLen:
                copyParams.dstStride = (runTilingData.baseLen - xLen) * T.size // self.BLOCK_SIZE
            else:
                copyParams.dstStride = 0
            if runTilingData.dim0 > xLen:
                copyParams.srcStride = (runTilingData.dim0 - xLen) * T.size
            else:
                copyParams.srcStride = 0
            copyParams.rsv = 0

        @__aicore__
        def GetOutCopyParams(
            self, runTilingData: AscendQuantTilingData, yLen: int, copyParams: DataCopyExtParams
        ) -> None:
            yLenReal = yLen
            if U is int4b_t:
                yLenReal = yLenReal // self.INT4_NUMS_IN_INT8_SPACE
                copyParams.blockLen = yLenReal * int8_t.size
            else:
                copyParams.blockLen = yLenReal * self.yCopyDtype.size
            copyParams.blockCount = 1
            if runTilingData.dim0 > yLen:
                if U is int4b_t:
                    copyParams.dstStride = (
                        (runTilingData.dim0 - yLen)
                        * self.yCopyDtype.size
                        // self.INT4_NUMS_IN_INT8_SPACE
                    )
                else:
                    copyParams.dstStride = (runTilingData.dim0 - yLen) * self.yCopyDtype.size
            else:
                copyParams.dstStride = 0
            if runTilingData.baseLen > yLenReal:
                copyParams.srcStride = (
                    (runTilingData.baseLen - yLenReal) * self.yCopyDtype.size // self.BLOCK_SIZE
                )
            else:
                copyParams.srcStride = 0

    return AscendQuantBase


@__aicore__
@template(yDtype)
def SetFloatOverflowModeForRegbase() -> None:
    if yDtype is hifloat8_t or yDtype is fp8_e5m2_t or yDtype is fp8_e4m3fn_t:
        SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](0)


@ClassTemplate
def AscendQuantPerTensorRegbase(T, U, RoundMode, OffsetZero):
    Base = AscendQuantBase[T, U, RoundMode]

    class AscendQuantPerTensorRegbase(Base):
        bufferNum_ = 2

        def __init__(self) -> None:
            self.pipe_: TPipe
            self.inQueueX_ = TQue[QuePosition.VECIN, self.bufferNum_]()
            self.outQueueY_ = TQue[QuePosition.VECOUT, self.bufferNum_]()
            self.xGm_ = GlobalTensor[T]()
            self.yGm_ = GlobalTensor[self.yCopyDtype]()
            self.tilingData_: AscendQuantTilingData
            self.blockIdx_ = 0
            self.gmXOffset_ = 0
            self.blockLen_ = Ref(int64_t(1))

        @__aicore__
        def Init(self, x, y, tilingData: AscendQuantTilingData, pipe: TPipe) -> None:
            SetFloatOverflowModeForRegbase[U]()
            self.pipe_ = pipe
            self.blockIdx_ = GetBlockIdx()
            self.xGm_.SetGlobalBuffer(x.cast(T))
            self.yGm_.SetGlobalBuffer(y.cast(self.yCopyDtype))

            self.tilingData_ = tilingData
            self.ParseCoreBlocks(self.tilingData_, self.blockIdx_, self.blockLen_)

            self.pipe_.InitBuffer(
                self.inQueueX_, self.bufferNum_, self.tilingData_.baseLen * T.size
            )
            self.pipe_.InitBuffer(
                self.outQueueY_, self.bufferNum_, self.tilingData_.baseLen * U.size
            )

        @__aicore__
        def Process(self) -> None:
            if self.blockIdx_ >= self.tilingData_.numCore:
                return
            self.gmXOffset_ = self.blockIdx_ * self.tilingData_.blockFactor

            lenLoopNum = self.blockLen_.value // self.tilingData_.baseLen
            lenLoopTail = self.blockLen_.value % self.tilingData_.baseLen

            for i in range(lenLoopNum):
                self.CopyXAndCompute(
                    self.tilingData_.baseLen, self.gmXOffset_ + i * self.tilingData_.baseLen
                )
            if lenLoopTail != 0:
                self.CopyXAndCompute(
                    lenLoopTail, self.gmXOffset_ + lenLoopNum * self.tilingData_.baseLen
                )

        @__aicore__
        def CopyXAndCompute(self, dataCount: int, xOffset: int) -> None:
            self.CopyInX(dataCount, xOffset)
            self.Compute(dataCount)
            self.CopyOutY(dataCount, xOffset)

        @__aicore__
        def CopyInX(self, xLen: int, xInOffset: int) -> None:
            xLocal = self.inQueueX_.AllocTensor[T]()
            copyParams = DataCopyExtParams()
            padParams = DataCopyPadExtParams[T](False, 0, 0, 0)
            self.GetXInCopyParams(self.tilingData_, xLen, copyParams)
            DataCopyPad(xLocal, self.xGm_[xInOffset], copyParams, padParams)
            self.inQueueX_.EnQue(xLocal)

        @__aicore__
        def Compute(self, dataCount: int) -> None:
            yCopyDtype = self.yCopyDtype
            xLocal = self.inQueueX_.DeQue[T]()
            outLocal = self.outQueueY_.AllocTensor[yCopyDtype]()

            xLocalAddr = xLocal.GetPhyAddr()
            outLocalAddr = outLocal.GetPhyAddr()

            VL = uint16_t(VECTOR_REG_WIDTH // float32_t.size)

            ATTR_SCALE = float32_t(self.tilingData_.scale)
            ATTR_OFFSET = float32_t(self.tilingData_.offset)

            with __VEC_SCOPE__:
                vregX = MicroAPI.RegTensor[T]()
                vregFloatX = MicroAPI.RegTensor[float32_t]()
                vregFloatY = MicroAPI.RegTensor[float32_t]()
                vregInt16Y = MicroAPI.RegTensor[int16_t]()
                vregHalfY = MicroAPI.RegTensor[half]()
                vregY = MicroAPI.RegTensor[yCopyDtype]()

                vregTmp1 = MicroAPI.RegTensor[float32_t]()
                mask = MicroAPI.MaskReg()
                mask4Int4 = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.H]()

                mask = MicroAPI.CreateMask[float32_t]()
                count = Ref(uint32_t(dataCount))
                vfLoopNum = uint16_t((dataCount + VL - 1) // VL)
                for i in range(vfLoopNum):
                    mask = MicroAPI.UpdateMask[float32_t](count)
                    if T is float32_t:
                        MicroAPI.LoadAlign[float32_t, MicroAPI.LoadDist.DIST_NORM](
                            vregFloatX, xLocalAddr + i * VL
                        )
                    elif T is half:
                        MicroAPI.LoadAlign[half, MicroAPI.LoadDist.DIST_UNPACK_B16](
                            vregX, xLocalAddr + i * VL
                        )
                        MicroAPI.Cast[float32_t, half, Base.CAST_TRAIT_HALF_TO_FP32](
                            vregFloatX, vregX, mask
                        )

                    if OffsetZero != TPL_OFFSET_ZERO:
                        MicroAPI.Muls(vregTmp1, vregFloatX, ATTR_SCALE, mask)
                        MicroAPI.Adds(vregFloatY, vregTmp1, ATTR_OFFSET, mask)
                    else:
                        MicroAPI.Muls(vregFloatY, vregFloatX, ATTR_SCALE, mask)

                    if U is int8_t:
                        MicroAPI.Cast[int16_t, float32_t, Base.CAST_TRAIT_FP32_TO_INT16](
                            vregInt16Y, vregFloatY, mask
                        )
                        MicroAPI.Cast[half, int16_t, Base.CAST_TRAIT_INT16_TO_HALF](
                            vregHalfY, vregInt16Y, mask
                        )
                        MicroAPI.Cast[int8_t, half, Base.CAST_TRAIT_HALF_TO_INT8](
                            vregY, vregHalfY, mask
                        )
                        MicroAPI.StoreAlign[U, MicroAPI.StoreDist.DIST_PACK4_B32](
                            outLocalAddr + i * VL, vregY, mask
                        )
            self.inQueueX_.FreeTensor(xLocal)
            self.outQueueY_.EnQue(outLocal)

        @__aicore__
        def CopyOutY(self, yLen: int, yOutOffset: int) -> None:
            if U is int4b_t:
                yOutOffset = yOutOffset >> 1
            outLocal = self.outQueueY_.DeQue[self.yCopyDtype]()
            copyParams = DataCopyExtParams()
            self.GetOutCopyParams(self.tilingData_, yLen, copyParams)
            DataCopyPad(self.yGm_[yOutOffset], outLocal, copyParams)
            self.outQueueY_.FreeTensor(outLocal)

    return AscendQuantPerTensorRegbase


@__global__
@__aicore__
@template(RoundMode, ExtraBit, OffsetZero)
def ascend_quant(x: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR) -> None:
    oriOverflowMode = int64_t(GetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL]())
    REGISTER_TILING_DEFAULT(AscendQuantTilingData)
    tilingData = GET_TILING_DATA(tiling)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    op = AscendQuantPerTensorRegbase[DTYPE_X, DTYPE_Y, RoundMode, OffsetZero]()
    pipe = TPipe()
    op.Init(x, y, tilingData, pipe)
    op.Process()
    SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](oriOverflowMode)


UB_SIZE, CORE_NUM, CACHE_LINE, RESERVE_UB = 248 * 1024, 64, 128, 2048
HOST_ROUND_MODES = {"round": 0, "floor": 1}
"""The host's round mode attribute -> its enum (the tiling key is that + 1)."""


def host_tiling(
    n: int, dtype: type[Scalar], scale: float, offset: float, round_mode: str
) -> tuple[int, AscendQuantTilingData]:
    cacheLineNum = ceil_div(n, CACHE_LINE // dtype.size)
    actCoreNum = ceil_div(cacheLineNum, ceil_div(cacheLineNum, CORE_NUM))
    blockFactor = ceil_div(cacheLineNum, actCoreNum) * CACHE_LINE // dtype.size
    blockTailFactor = n - blockFactor * (actCoreNum - 1) or blockFactor
    numPerCache = CACHE_LINE // dtype.size
    maxBase = (
        (UB_SIZE - RESERVE_UB) // ((dtype.size + int8_t.size) * 2) // numPerCache * numPerCache
    )
    baseLen = min(align_up(blockFactor, numPerCache), maxBase)
    roundModeKey = HOST_ROUND_MODES[round_mode] + 1
    offsetZeroKey = TPL_OFFSET_ZERO if offset == 0 else TPL_OFFSET_NON_ZERO
    key = GET_TPL_TILING_KEY(roundModeKey, TPL_EXTRA_BIT_ONE, offsetZeroKey)
    data = AscendQuantTilingData(
        numCore=actCoreNum,
        dim0=n,
        blockFactor=blockFactor,
        blockTailFactor=blockTailFactor,
        baseLen=baseLen,
        roundMode=HOST_ROUND_MODES[round_mode],
        scale=scale,
        offset=offset,
    )
    return key, data


def run(
    x: np.ndarray, dtype: type[Scalar], scale: float, offset: float, round_mode: str
) -> np.ndarray:
    global DTYPE_X
    DTYPE_X = dtype  # -DDTYPE_X=... of the build (DTYPE_Y is int8_t)
    key, tilingData = host_tiling(x.size, dtype, scale, offset, round_mode)
    gm = GlobalMemory()
    xDevice, yDevice = to_device(gm, x, dtype), empty_device(gm, x.size, int8_t, 99)
    # the runtime instantiates the kernel template with the values the tiling key encodes
    ascend_quant[DecodeTilingKey(g_tilingDeclareParams, key)][tilingData.numCore, 0, None](
        xDevice, yDevice, empty_device(gm, 32, uint8_t), tiling_to_device(gm, tilingData)
    )
    return from_device(yDevice, x.size, int8_t)


def golden(x: np.ndarray, scale: float, offset: float, round_mode: str) -> np.ndarray:
    """The op's formula: ``x * scale + offset`` in float (IEEE, each step rounded), rounded
    half to even (``round``) or down (``floor``), saturated to int8."""
    value = x.astype(np.float32) * np.float32(scale) + np.float32(offset)
    rounded = np.rint(value) if round_mode == "round" else np.floor(value)
    return np.clip(rounded, -128, 127).astype(np.int8)


CASES = [
    pytest.param(float32_t, 5000, 0.37, 3.0, "round", id="float-round"),
    pytest.param(half, 3001, 1.5, 0.0, "floor", id="half-floor-offset-zero"),
    pytest.param(float32_t, 100, 2.0, -0.5, "round", id="float-one-block"),
]


def _check(dtype: type[Scalar], n: int, scale: float, offset: float, round_mode: str) -> None:
    rng = np.random.default_rng(n)
    x = rng.uniform(-60, 60, n).astype(dtype.np_dtype)
    x[:4] = [0.5 / scale, 1.5 / scale, -2.5 / scale, 0.0]  # ties of round-half-even
    single = x.astype(np.float32) * np.float32(scale) + np.float32(offset)
    assert (
        golden(x, scale, offset, round_mode)
        == np.clip(np.rint(single) if round_mode == "round" else np.floor(single), -128, 127)
    ).all()
    np.testing.assert_array_equal(
        run(x, dtype, scale, offset, round_mode), golden(x, scale, offset, round_mode)
    )


@pytest.mark.parametrize(("dtype", "n", "scale", "offset", "round_mode"), CASES)
def test_ascend_quant_as_written(
    dtype: type[Scalar], n: int, scale: float, offset: float, round_mode: str
) -> None:
    _check(dtype, n, scale, offset, round_mode)


class _CtrlSpr:
    """``GetCtrlSpr<a, b>()`` / ``SetCtrlSpr<a, b>(v)`` of the float overflow bit (stand-in)."""

    def __init__(self) -> None:
        self.value = 0

    def get(self, bits: object) -> object:
        return lambda: self.value

    def set(self, bits: object) -> object:
        return lambda value: setattr(self, "value", int(value))


class _Sub:
    def __init__(self, make: object) -> None:
        self._make = make

    def __getitem__(self, bits: object) -> object:
        return self._make(bits)


@pytest.mark.parametrize(("dtype", "n", "scale", "offset", "round_mode"), CASES)
def test_ascend_quant_with_stand_ins(
    dtype: type[Scalar], n: int, scale: float, offset: float, round_mode: str
) -> None:
    spr = _CtrlSpr()
    extra = {
        "GetCtrlSpr": _Sub(spr.get),
        "SetCtrlSpr": _Sub(spr.set),
    }
    with stand_ins(globals(), extra=extra), tail_over_read():
        _check(dtype, n, scale, offset, round_mode)

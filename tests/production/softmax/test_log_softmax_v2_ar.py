"""Port of hicann/ops-nn activation/log_softmax_v2/op_kernel/arch35/log_softmax_v2_ar_full_load.h.

``LogSoftmaxV2AR<T_in, T_out>`` (namespace ``LogSoftmaxV2Ops``, on softmax_v2's
``SoftmaxV2OpsBase``): log-softmax over the last axis of an ``(a, r)`` tensor, ``r`` whole in
UB: ``FirstNormCompute`` stores ``x - max`` per row (no ``exp`` yet); ``SecondNormCompute``
exponentiates inside the row sum (``SecondNormComputeWithExpPost`` for up to two registers,
else the binary fold with ``Exp`` before each ``Add`` / ``Reduce<SUM>`` and ``StoreUnAlign``
streams), then ``SecondNormComputePost`` takes ``Log`` of the sum and subtracts it. Two ``TBuf<>``
scratch buffers (``x - max`` and the fold's partial sums).

Tiling: the softmax AR full-load tiling (the same ``SoftmaxV2ARTilingData``; log_softmax_v2's
host tiling fills it the same way).

Finding: for rows of up to 128 the host's ``binaryTmpSize`` is 0 and the kernel calls
``InitBuffer(binaryTmpLocalBuffer_, 0)``, which the devkit's CPU-debug build asserts against
(``len > 0``) and ascreg refuses (tested).

Golden: ``(x - max) - log(sum(exp(x - max)))`` per row in float64, rounded to ``T_out``; within
8 ulp of the largest magnitude in the row for float (the float ``x - max`` and ``log`` of a float
sum), 1 ulp for half.

Runs as written: the whole-register loads read past a row's end inside UB (masked-off lanes);
the two ``TBuf<>`` (``TBuf[()]``) hand out their scratch with ``TBuf::AllocTensor<T>``.
``ScalarCountLeadingZero`` and the tiling macros come from ``ascreg.basic``. The
operator base library's ``GetVRegSize``, ``GetUbBlockSize``, ``Ops::Base::CeilDiv`` /
``FloorDiv`` and ``ops::Aligned`` come from ``production_ports``.
"""

from __future__ import annotations

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
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from ascreg.reg import LoadAlign, Move, Reduce, StoreAlign
from production_ports import (
    ClassTemplate,
    GetVRegSize,
    Ops,
    ceil_div,
    empty_device,
    from_device,
    ops,
    rounded,
    tiling_to_device,
    to_device,
)

castTraitFp16ToFp32 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.UNKNOWN,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.UNKNOWN,
)
castTraitFp32ToFp16 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.NO_SAT,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.CAST_RINT,
)

CONST_ZERO = 0
CONST_ONE = 1
CONST_TWO = 2
CONST_FOUR = 4
CONST_SIXTY_THREE = 63
VL_FP32 = uint32_t(int64_t(GetVRegSize()) // float32_t.size)
INFINITY = float("inf")

DOUBLE_BUFFER = 2
BLOCK_SIZE = 32


# ---- op_host/arch35/softmax_v2_tiling.h ------------------------------------------------------------
class SoftmaxV2ARTilingData(Struct):
    a: int64_t
    r: int64_t
    rAligned: int64_t
    ubFactor: int64_t
    aBlockFactor: int64_t
    rLoopCount: int64_t
    binaryTmpSize: int64_t


class SoftmaxV2OpsBase:
    @staticmethod
    @__aicore__
    def FindNearestPower2(value: int) -> int:
        if value <= CONST_ONE:
            return CONST_ZERO
        elif value <= CONST_TWO:
            return CONST_ONE
        elif value <= CONST_FOUR:
            return CONST_TWO
        else:
            num = value - CONST_ONE
            pow = CONST_SIXTY_THREE - ScalarCountLeadingZero(num)
            return CONST_ONE << pow


@ClassTemplate
def LogSoftmaxV2AR(T_in, T_out):
    class LogSoftmaxV2AR(SoftmaxV2OpsBase):
        def __init__(self, pipe: TPipe) -> None:
            self.pipe_ = pipe
            self.xGm_ = GlobalTensor[T_in]()
            self.yGm_ = GlobalTensor[T_out]()
            self.xQueue_ = TQue[QuePosition.VECIN, 1]()
            self.yQueue_ = TQue[QuePosition.VECOUT, 1]()
            self.xTmpLocalBuffer_ = TBuf[()]()
            self.binaryTmpLocalBuffer_ = TBuf[()]()
            self.blockA_ = 0
            self.tl_: SoftmaxV2ARTilingData | None = None

        @__aicore__
        def Init(self, x, y, tilingData: SoftmaxV2ARTilingData) -> None:
            tl_ = self.tl_ = tilingData
            self.blockA_ = (
                (tl_.a - tl_.aBlockFactor * (GetBlockNum() - 1))
                if GetBlockIdx() == GetBlockNum() - 1
                else tl_.aBlockFactor
            )
            aGmOffset = tl_.aBlockFactor * GetBlockIdx() * tl_.r
            self.xGm_.SetGlobalBuffer(x.cast(T_in) + aGmOffset)
            self.yGm_.SetGlobalBuffer(y.cast(T_out) + aGmOffset)

            ubBufferSize = tl_.ubFactor * tl_.rAligned
            self.pipe_.InitBuffer(self.xQueue_, DOUBLE_BUFFER, ubBufferSize * T_in.size)
            self.pipe_.InitBuffer(self.yQueue_, DOUBLE_BUFFER, ubBufferSize * T_out.size)
            self.pipe_.InitBuffer(self.xTmpLocalBuffer_, ubBufferSize * float32_t.size)
            self.pipe_.InitBuffer(self.binaryTmpLocalBuffer_, tl_.binaryTmpSize)

        @__aicore__
        def Process(self) -> None:
            tl_ = self.tl_
            ubLoop = Ops.Base.CeilDiv(self.blockA_, tl_.ubFactor)
            lastUbFactor = self.blockA_ - tl_.ubFactor * (ubLoop - 1)
            for ubLoopIdx in range(ubLoop):
                aOffset = ubLoopIdx * tl_.ubFactor * tl_.r
                ubA = lastUbFactor if ubLoopIdx == (ubLoop - 1) else tl_.ubFactor
                self.ProcessUB(ubA, aOffset)

        @__aicore__
        def ProcessUB(self, ubA: int, aOffset: int) -> None:
            tl_ = self.tl_
            xInUb = self.xQueue_.AllocTensor[T_in]()
            self.CopyInX(xInUb, ubA, aOffset)
            self.xQueue_.EnQue(xInUb)
            xInUb = self.xQueue_.DeQue[T_in]()

            binaryTmpLocalTensor = self.binaryTmpLocalBuffer_.AllocTensor[float32_t]()
            xTmpLocalTensor = self.xTmpLocalBuffer_.AllocTensor[float32_t]()

            xInUbAddr = xInUb.GetPhyAddr()
            xTmpLocalAddr = xTmpLocalTensor.GetPhyAddr()

            self.FirstNormCompute(ubA, xInUbAddr, xTmpLocalAddr)
            self.xQueue_.FreeTensor[T_in](xInUb)
            yInUb = self.yQueue_.AllocTensor[T_out]()
            self.SecondNormCompute(
                yInUb, xTmpLocalTensor, binaryTmpLocalTensor, ubA, tl_.r, tl_.rAligned
            )
            self.yQueue_.EnQue(yInUb)

            yOutUb = self.yQueue_.DeQue[T_out]()
            self.CopyOutY(yOutUb, ubA, aOffset)
            self.yQueue_.FreeTensor(yOutUb)

        @__aicore__
        def FirstNormCompute(self, ubA: int, xInAddr, xTmpLocalAddr) -> None:
            tl_ = self.tl_
            rAligned = tl_.rAligned
            ubActualR = tl_.r
            ubActualA = uint16_t(ubA)
            tailUbBlockSize = tl_.r - VL_FP32 * (tl_.rLoopCount - 1)
            rLoopCount = uint16_t(tl_.rLoopCount)
            rLoopCountTmp = uint16_t(rLoopCount - 1)

            with __VEC_SCOPE__:
                vreg0 = MicroAPI.RegTensor[float32_t]()
                vreg1 = MicroAPI.RegTensor[float32_t]()
                vreg2 = MicroAPI.RegTensor[float32_t]()
                vreg3 = MicroAPI.RegTensor[float32_t]()
                vreg4 = MicroAPI.RegTensor[float32_t]()
                vreg5 = MicroAPI.RegTensor[float32_t]()

                maskTail = MicroAPI.MaskReg()
                maskSub = MicroAPI.MaskReg()
                maskMax = MicroAPI.MaskReg()
                maskAll = MicroAPI.MaskReg()

                sreg0 = Ref(uint32_t(tailUbBlockSize))
                sreg1 = Ref(uint32_t(VL_FP32))
                maskTail = MicroAPI.UpdateMask[float32_t](sreg0)
                maskAll = MicroAPI.UpdateMask[float32_t](sreg1)

                for k in range(ubActualA):
                    tailAddrPtr = uint32_t(k * rAligned + VL_FP32 * (rLoopCount - 1))
                    MicroAPI.Duplicate(vreg0, float32_t(-INFINITY), maskAll)
                    self.LoadTensorForDtypeTIn(xInAddr, vreg1, maskTail, tailAddrPtr)
                    MicroAPI.Max(vreg1, vreg0, vreg1, maskTail)
                    MicroAPI.Move[float32_t, MicroAPI.MaskMergeMode.MERGING](vreg0, vreg1, maskTail)

                    sreg2 = Ref(uint32_t(ubActualR - tailUbBlockSize))
                    for i in range(rLoopCountTmp):
                        maskMax = MicroAPI.UpdateMask[float32_t](sreg2)
                        addrPtr = uint32_t(i * VL_FP32 + k * rAligned)
                        self.LoadTensorForDtypeTIn(xInAddr, vreg1, maskMax, addrPtr)
                        MicroAPI.Max(vreg0, vreg0, vreg1, maskMax)
                    MicroAPI.Reduce[MicroAPI.ReduceType.MAX](vreg2, vreg0, maskAll)
                    MicroAPI.Duplicate(vreg3, vreg2, maskAll)

                    sreg3 = Ref(uint32_t(ubActualR))
                    for i in range(rLoopCount):
                        maskSub = MicroAPI.UpdateMask[float32_t](sreg3)
                        addrPtr = uint32_t(i * VL_FP32 + k * rAligned)
                        self.LoadTensorForDtypeTIn(xInAddr, vreg1, maskSub, addrPtr)
                        MicroAPI.Sub(vreg4, vreg1, vreg3, maskSub)
                        MicroAPI.StoreAlign(xTmpLocalAddr + addrPtr, vreg4, maskSub)

        @__aicore__
        def SecondNormComputePost(
            self, dstTensor, srcTensor, oriSrcTensor, aSize: int, rSize: int, stride: int
        ) -> None:
            tl_ = self.tl_
            if aSize <= 0:
                return
            if rSize <= 0:
                return
            if rSize > CONST_TWO * VL_FP32:
                return

            loopTimes = uint16_t(aSize)
            rLoopCount = uint16_t(tl_.rLoopCount)
            oriR = uint16_t(tl_.r)
            oriRAligned = uint16_t(tl_.rAligned)

            if rSize <= VL_FP32:
                dst = dstTensor.GetPhyAddr()
                src = srcTensor.GetPhyAddr()
                oriSrc = oriSrcTensor.GetPhyAddr()

                with __VEC_SCOPE__:
                    count = Ref(uint32_t(rSize))
                    aReg, bReg, cReg, dReg = (MicroAPI.RegTensor[float32_t]() for _ in range(4))
                    pMask = MicroAPI.UpdateMask[float32_t](count)
                    pFull = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
                    maskOri = MicroAPI.MaskReg()
                    for i in range(loopTimes):
                        LoadAlign(aReg, src + i * uint32_t(stride))
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pMask)
                        MicroAPI.Duplicate(cReg, bReg, pFull)
                        MicroAPI.Log(cReg, cReg, pFull)
                        sreg0 = Ref(uint32_t(oriR))
                        for j in range(rLoopCount):
                            maskOri = MicroAPI.UpdateMask[float32_t](sreg0)
                            addrPtr = uint32_t(j * VL_FP32 + i * oriRAligned)
                            LoadAlign(dReg, oriSrc + addrPtr)
                            MicroAPI.Sub(dReg, dReg, cReg, maskOri)
                            self.StoreTensorForDtypeTOut(dst, dReg, maskOri, addrPtr)
            else:
                dst = dstTensor.GetPhyAddr()
                src0 = srcTensor.GetPhyAddr()
                src1 = srcTensor.GetPhyAddr() + VL_FP32
                oriSrc = oriSrcTensor.GetPhyAddr()

                with __VEC_SCOPE__:
                    count = Ref(uint32_t(rSize - VL_FP32))
                    aReg, bReg, cReg, dReg, eReg = (
                        MicroAPI.RegTensor[float32_t]() for _ in range(5)
                    )
                    pMask = MicroAPI.UpdateMask[float32_t](count)
                    pFull = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
                    maskOri = MicroAPI.MaskReg()
                    for i in range(loopTimes):
                        LoadAlign(aReg, src0 + i * uint32_t(stride))
                        LoadAlign(bReg, src1 + i * uint32_t(stride))
                        MicroAPI.Add[float32_t, MicroAPI.MaskMergeMode.ZEROING](
                            cReg, aReg, bReg, pMask
                        )
                        Move[float32_t, MicroAPI.MaskMergeMode.MERGING](aReg, cReg, pMask)
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pFull)
                        MicroAPI.Duplicate(dReg, bReg, pFull)
                        MicroAPI.Log(dReg, dReg, pFull)
                        sreg0 = Ref(uint32_t(oriR))
                        for j in range(rLoopCount):
                            maskOri = MicroAPI.UpdateMask[float32_t](sreg0)
                            addrPtr = uint32_t(j * VL_FP32 + i * oriRAligned)
                            LoadAlign(eReg, oriSrc + addrPtr)
                            MicroAPI.Sub(eReg, eReg, dReg, maskOri)
                            self.StoreTensorForDtypeTOut(dst, eReg, maskOri, addrPtr)

        @__aicore__
        def SecondNormComputeWithExpPost(
            self, dstTensor, srcTensor, oriSrcTensor, aSize: int, rSize: int, stride: int
        ) -> None:
            tl_ = self.tl_
            if aSize <= 0:
                return
            if rSize <= 0:
                return
            if rSize > CONST_TWO * VL_FP32:
                return

            loopTimes = uint16_t(aSize)
            rLoopCount = uint16_t(tl_.rLoopCount)
            oriR = uint16_t(tl_.r)
            oriRAligned = uint16_t(tl_.rAligned)

            if rSize <= VL_FP32:
                dst = dstTensor.GetPhyAddr()
                src = srcTensor.GetPhyAddr()
                oriSrc = oriSrcTensor.GetPhyAddr()

                with __VEC_SCOPE__:
                    count = Ref(uint32_t(rSize))
                    aReg, bReg, cReg, dReg = (MicroAPI.RegTensor[float32_t]() for _ in range(4))
                    pMask = MicroAPI.UpdateMask[float32_t](count)
                    pFull = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
                    maskOri = MicroAPI.MaskReg()
                    for i in range(loopTimes):
                        LoadAlign(aReg, src + i * stride)
                        MicroAPI.Exp(aReg, aReg, pMask)
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pMask)
                        MicroAPI.Duplicate(cReg, bReg, pFull)
                        MicroAPI.Log(cReg, cReg, pFull)
                        sreg0 = Ref(uint32_t(oriR))
                        for j in range(rLoopCount):
                            maskOri = MicroAPI.UpdateMask[float32_t](sreg0)
                            addrPtr = uint32_t(j * VL_FP32 + i * oriRAligned)
                            LoadAlign(dReg, oriSrc + addrPtr)
                            MicroAPI.Sub(dReg, dReg, cReg, maskOri)
                            self.StoreTensorForDtypeTOut(dst, dReg, maskOri, addrPtr)
            else:
                dst = dstTensor.GetPhyAddr()
                src0 = srcTensor.GetPhyAddr()
                src1 = srcTensor.GetPhyAddr() + VL_FP32
                oriSrc = oriSrcTensor.GetPhyAddr()

                with __VEC_SCOPE__:
                    count = Ref(uint32_t(rSize - VL_FP32))
                    aReg, bReg, cReg, dReg, eReg = (
                        MicroAPI.RegTensor[float32_t]() for _ in range(5)
                    )
                    pMask = MicroAPI.UpdateMask[float32_t](count)
                    pFull = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
                    maskOri = MicroAPI.MaskReg()
                    for i in range(loopTimes):
                        LoadAlign(aReg, src0 + i * stride)
                        LoadAlign(bReg, src1 + i * stride)
                        MicroAPI.Exp(aReg, aReg, pFull)
                        MicroAPI.Exp(bReg, bReg, pMask)
                        MicroAPI.Add[float32_t, MicroAPI.MaskMergeMode.ZEROING](
                            cReg, aReg, bReg, pMask
                        )
                        Move[float32_t, MicroAPI.MaskMergeMode.MERGING](aReg, cReg, pMask)
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pFull)
                        MicroAPI.Duplicate(dReg, bReg, pFull)
                        MicroAPI.Log(dReg, dReg, pFull)
                        sreg0 = Ref(uint32_t(oriR))
                        for j in range(rLoopCount):
                            maskOri = MicroAPI.UpdateMask[float32_t](sreg0)
                            addrPtr = uint32_t(j * VL_FP32 + i * oriRAligned)
                            LoadAlign(eReg, oriSrc + addrPtr)
                            MicroAPI.Sub(eReg, eReg, dReg, maskOri)
                            self.StoreTensorForDtypeTOut(dst, eReg, maskOri, addrPtr)

        @__aicore__
        def SecondNormCompute(
            self, dstTensor, srcTensor, reduceSumTempTensor, aSize: int, rSize: int, stride: int
        ) -> None:
            if aSize <= 0:
                return
            if rSize <= 0:
                return
            if rSize <= CONST_TWO * VL_FP32:
                self.SecondNormComputeWithExpPost(
                    dstTensor, srcTensor, srcTensor, aSize, rSize, stride
                )
                return

            ceilVLCount = Ops.Base.CeilDiv(
                int64_t(rSize * float32_t.size), int64_t(Ops.Base.GetVRegSize())
            )
            floorVLCount = Ops.Base.FloorDiv(
                int64_t(rSize * float32_t.size), int64_t(Ops.Base.GetVRegSize())
            )
            foldPoint = self.FindNearestPower2(ceilVLCount)

            outerLoopTimes = uint16_t(aSize)
            tailFoldLoopTimes = uint16_t(ceilVLCount - floorVLCount)
            tailFoldElemCount = uint32_t(rSize - floorVLCount * VL_FP32)
            mainFoldLoopTimes = uint16_t(floorVLCount - foldPoint)
            unFoldLoopTimes = uint16_t(foldPoint + foldPoint - ceilVLCount)
            outerLoopStride = uint32_t(stride)
            innerLoopStride = uint32_t(VL_FP32)
            outerLoopDstStride = uint32_t(
                ops.Aligned(
                    int64_t(foldPoint), int64_t(Ops.Base.GetUbBlockSize() // float32_t.size)
                )
            )

            foldSrcBOffset = foldPoint * VL_FP32
            tailSrcAOffset = mainFoldLoopTimes * VL_FP32
            tailSrcBOffset = floorVLCount * VL_FP32
            unFoldSrcOffset = (mainFoldLoopTimes + tailFoldLoopTimes) * VL_FP32

            dst = Ref(reduceSumTempTensor.GetPhyAddr())
            foldSrcA = srcTensor.GetPhyAddr()
            foldSrcB = srcTensor.GetPhyAddr() + foldSrcBOffset
            tailSrcA = srcTensor.GetPhyAddr() + tailSrcAOffset
            tailSrcB = srcTensor.GetPhyAddr() + tailSrcBOffset
            unFoldSrc = srcTensor.GetPhyAddr() + unFoldSrcOffset

            with __VEC_SCOPE__:
                pFull = MicroAPI.CreateMask[float32_t, MicroAPI.MaskPattern.ALL]()
                UReg = MicroAPI.UnalignRegForStore()

                for i in range(outerLoopTimes):
                    dst.value = reduceSumTempTensor.GetPhyAddr() + i * outerLoopDstStride
                    for j in range(mainFoldLoopTimes):
                        aReg, bReg, cReg, dReg = (MicroAPI.RegTensor[float32_t]() for _ in range(4))
                        LoadAlign(aReg, foldSrcA + i * outerLoopStride + j * innerLoopStride)
                        LoadAlign(bReg, foldSrcB + i * outerLoopStride + j * innerLoopStride)
                        MicroAPI.Exp(aReg, aReg, pFull)
                        MicroAPI.Exp(bReg, bReg, pFull)
                        MicroAPI.Add[float32_t, MicroAPI.MaskMergeMode.ZEROING](
                            cReg, aReg, bReg, pFull
                        )
                        Reduce[MicroAPI.ReduceType.SUM](dReg, cReg, pFull)
                        MicroAPI.StoreUnAlign(dst, dReg, UReg, 1)
                    for j in range(tailFoldLoopTimes):
                        count = Ref(uint32_t(tailFoldElemCount))
                        aReg, bReg, cReg = (MicroAPI.RegTensor[float32_t]() for _ in range(3))
                        pMask = MicroAPI.UpdateMask[float32_t](count)
                        LoadAlign(aReg, tailSrcA + i * outerLoopStride + j * innerLoopStride)
                        LoadAlign(bReg, tailSrcB + i * outerLoopStride + j * innerLoopStride)
                        MicroAPI.Exp(aReg, aReg, pFull)
                        MicroAPI.Exp(bReg, bReg, pFull)
                        MicroAPI.Add[float32_t, MicroAPI.MaskMergeMode.ZEROING](
                            cReg, aReg, bReg, pMask
                        )
                        Move[float32_t, MicroAPI.MaskMergeMode.MERGING](aReg, cReg, pMask)
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pFull)
                        MicroAPI.StoreUnAlign(dst, bReg, UReg, 1)
                    for j in range(unFoldLoopTimes):
                        aReg, bReg = (
                            MicroAPI.RegTensor[float32_t](),
                            MicroAPI.RegTensor[float32_t](),
                        )
                        LoadAlign(aReg, unFoldSrc + i * outerLoopStride + j * innerLoopStride)
                        MicroAPI.Exp(aReg, aReg, pFull)
                        Reduce[MicroAPI.ReduceType.SUM](bReg, aReg, pFull)
                        MicroAPI.StoreUnAlign(dst, bReg, UReg, 1)
                    MicroAPI.StoreUnAlignPost(dst, UReg, 0)
            self.SecondNormComputePost(
                dstTensor, reduceSumTempTensor, srcTensor, aSize, foldPoint, outerLoopDstStride
            )

        @__aicore__
        def LoadTensorForDtypeTIn(self, src, dst, preg, offset: int) -> None:
            if T_in is float32_t:
                LoadAlign[float32_t, MicroAPI.LoadDist.DIST_NORM](dst, src + offset)
            else:
                xFp16 = MicroAPI.RegTensor[T_in]()
                LoadAlign[T_in, MicroAPI.LoadDist.DIST_UNPACK_B16](xFp16, src + offset)
                MicroAPI.Cast[float32_t, T_in, castTraitFp16ToFp32](dst, xFp16, preg)

        @__aicore__
        def StoreTensorForDtypeTOut(self, dst, src, preg, offset: int) -> None:
            if T_out is float32_t:
                StoreAlign[T_out, MicroAPI.StoreDist.DIST_NORM](dst + offset, src, preg)
            else:
                xFp16 = MicroAPI.RegTensor[T_out]()
                MicroAPI.Cast[T_out, float32_t, castTraitFp32ToFp16](xFp16, src, preg)
                StoreAlign[T_out, MicroAPI.StoreDist.DIST_PACK_B32](dst + offset, xFp16, preg)

        @__aicore__
        def CopyInX(self, xInUb, ubA: int, offset: int) -> None:
            tl_ = self.tl_
            padParams = DataCopyPadExtParams[T_in](False, 0, 0, 0)
            copyInParams = DataCopyExtParams()
            copyInParams.blockCount = ubA
            copyInParams.blockLen = tl_.r * T_in.size
            copyInParams.srcStride = 0
            copyInParams.dstStride = (tl_.rAligned - tl_.r) * T_in.size // BLOCK_SIZE
            DataCopyPad(xInUb, self.xGm_[offset], copyInParams, padParams)

        @__aicore__
        def CopyOutY(self, yOutUb, ubA: int, offset: int) -> None:
            tl_ = self.tl_
            copyOutParams = DataCopyExtParams()
            copyOutParams.blockCount = ubA
            copyOutParams.blockLen = tl_.r * T_out.size
            copyOutParams.srcStride = (tl_.rAligned - tl_.r) * T_out.size // BLOCK_SIZE
            copyOutParams.dstStride = 0
            DataCopyPad(self.yGm_[offset], yOutUb, copyOutParams)

    return LogSoftmaxV2AR


DTYPE_X: type[Scalar] = float32_t
DTYPE_Y: type[Scalar] = float32_t


from ascreg.machine.kernel import __global__  # noqa: E402 (the entry after the class, as in C++)

TILINGKEY_AR = 1000


@__global__
@__aicore__
def log_softmax_v2(
    logits: GM_ADDR, logsoftmax: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR
) -> None:
    if g_coreType == AIC:
        return
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    if TILING_KEY_IS(
        TILINGKEY_AR
    ):  # the LOG_SOFTMAX_V2_AR_IMPL macro (the other keys are not ported)
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(SoftmaxV2ARTilingData, tiling)
        tilingData = tilingDataIn
        pipe = TPipe()
        op = LogSoftmaxV2AR[DTYPE_X, DTYPE_Y](pipe)
        op.Init(logits, logsoftmax, tilingData)
        op.Process()


UB_SIZE, CORE_NUM, UB_RESERVED_BYTE = 248 * 1024, 64, 1024


def host_tiling(
    a: int, r: int, dtype: type[Scalar], ub_size: int = UB_SIZE
) -> tuple[int, SoftmaxV2ARTilingData]:
    vlFp32 = 64
    rAligned = ceil_div(r, BLOCK_SIZE // dtype.size) * (BLOCK_SIZE // dtype.size)
    binaryTmpPerRow = 0
    if r > CONST_TWO * vlFp32:
        foldPoint = _power2(ceil_div(r, vlFp32))
        binaryTmpPerRow = ceil_div(foldPoint, 8) * 8 * 4
    ubFactor = (ub_size - UB_RESERVED_BYTE) // (
        rAligned * 4 + DOUBLE_BUFFER * rAligned * dtype.size * 2 + binaryTmpPerRow
    )
    rLoopCount = ceil_div(rAligned, vlFp32)
    aBlockFactor = ceil_div(a, CORE_NUM)
    usedCoreNums = ceil_div(a, aBlockFactor)
    ubFactor = min(ubFactor, aBlockFactor)
    return usedCoreNums, SoftmaxV2ARTilingData(
        a=a,
        r=r,
        rAligned=rAligned,
        ubFactor=ubFactor,
        aBlockFactor=aBlockFactor,
        rLoopCount=rLoopCount,
        binaryTmpSize=ubFactor * binaryTmpPerRow,
    )


def _power2(value: int) -> int:
    """The host's FindNearestPower2 (softmax_v2_ar_full_load_tiling.cpp)."""
    if value <= 1:
        return 0
    if value <= 2:
        return 1
    if value <= 4:
        return 2
    return 1 << (value - 1).bit_length() - 1


def run(x: np.ndarray, dtype: type[Scalar], ub_size: int = UB_SIZE) -> np.ndarray:
    global DTYPE_X, DTYPE_Y
    DTYPE_X = DTYPE_Y = dtype  # -DDTYPE_X / DTYPE_Y of the build
    blocks, tilingData = host_tiling(*x.shape, dtype, ub_size)
    gm = GlobalMemory()
    xDevice, yDevice = to_device(gm, x, dtype), empty_device(gm, x.size, dtype, np.nan)
    ICPU_SET_TILING_KEY(TILINGKEY_AR)
    log_softmax_v2[blocks, 0, None](
        xDevice, yDevice, empty_device(gm, 32, uint8_t), tiling_to_device(gm, tilingData)
    )
    return from_device(yDevice, x.size, dtype).reshape(x.shape)


def golden(x: np.ndarray, dtype: type[Scalar]) -> np.ndarray:
    x64 = x.astype(np.float64)
    shifted = x64 - x64.max(axis=1, keepdims=True)
    return rounded(shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True)), dtype)


CASES = [
    pytest.param(float32_t, (4, 300), UB_SIZE, 8, id="float-r300-binary-fold"),
    pytest.param(half, (6, 1000), 20 * 1024, 1, id="half-r1000-fold-ub-loops"),
    pytest.param(float32_t, (70, 129), UB_SIZE, 8, id="float-70-rows-r129"),
    # each UB load's last row reads its tail whole into the next queue buffer, which the next
    # load's DataCopyPad refills with no V -> MTE2 flag: those lanes are masked off, no race
    pytest.param(float32_t, (256, 300), 20 * 1024, 8, id="float-r300-tail-into-next-buffer"),
]
"""Rows over two registers: for up to 128 the host's ``binaryTmpSize`` is 0 and the kernel's
``InitBuffer(binaryTmpLocalBuffer_, 0)`` is refused (see the last test)."""


def _check(dtype: type[Scalar], shape: tuple[int, int], ub_size: int, ulps: int) -> None:
    x = np.random.default_rng(shape[1]).uniform(-8, 8, shape).astype(dtype.np_dtype)
    expected = golden(x, dtype)
    out = run(x, dtype, ub_size)
    # an absolute error: ulps of the row's largest result (the float log of the sum is shared
    # by the whole row, so elements near 0 carry the row's error)
    scale = np.spacing(np.abs(expected).max(axis=1, keepdims=True)).astype(np.float64)
    error = np.abs(out.astype(np.float64) - expected.astype(np.float64))
    worst = np.unravel_index(int(np.argmax(error / scale)), error.shape)
    assert (error <= ulps * scale).all(), (
        worst,
        out[worst],
        expected[worst],
        error[worst] / scale[worst[0], 0],
    )


@pytest.mark.parametrize(("dtype", "shape", "ub_size", "ulps"), CASES)
def test_log_softmax_v2_ar_as_written(
    dtype: type[Scalar], shape: tuple[int, int], ub_size: int, ulps: int
) -> None:
    _check(dtype, shape, ub_size, ulps)


@pytest.mark.parametrize("r", [37, 100])
def test_a_zero_length_scratch_buffer_is_refused(r: int) -> None:
    """For ``r <= 128`` the kernel initialises its fold scratch ``TBuf`` with 0 bytes: the
    devkit's CPU-debug ``InitBuffer`` asserts ``len > 0`` (kernel_tpipe_impl.h) and ascreg
    refuses it too. (The softmax kernel shares one buffer and is not affected.)"""
    x = np.zeros((2, r), dtype=np.float32)
    from ascreg.errors import AscregTypeError

    with pytest.raises(AscregTypeError, match=r"InitBuffer: len 0 is outside"):
        run(x, float32_t)

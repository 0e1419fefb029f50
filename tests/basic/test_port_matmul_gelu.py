"""Port of ``05_best_practices/03_fusion_compute/matmul_gelu_high_performance`` (Ascend 950).

``mmad_vector_custom<M, K, N, baseM, baseK, baseN, singleCoreM, singleCoreK, singleCoreN,
stepKa, stepKb>``, a ``__global__ __mix__(1, 2)`` kernel: each AIC multiplies its
``singleCoreM x singleCoreN`` slice of C = A B^T block by block (L1 and L0 double buffers,
``stepKa`` / ``stepKb`` K blocks per L1 copy, ``unitFlag`` between ``Mmad`` and ``Fixpipe``),
then moves each ``baseM x baseN`` block out and sets mode-2 cross-core flag 8; each AIV waits,
applies GELU (``x / (1 + exp(-1.595769 (x + 0.044715 x^3)))``, a ``__simd_vf__`` of Reg ops) to
its half of the block's rows and copies them to GM. ``SCENARIO_NUM`` 1 goes through GM (the AIC's
``Fixpipe`` writes C, the AIVs read it back with ``DataCopyPad``); 2 goes through UB (the AIC's
``Fixpipe`` writes ``xUB`` of both AIVs, split in M by ``dualDstCtl`` 0b01). The kernel class is
re-expressed line for line (the ``__NPU_ARCH__ == 3510`` branches, ``IS_B_TRANSPOSE`` true), at
smaller template arguments than the example's 8192-cube (its loops, buffers and flags are the
same).

With one M x N block per core both scenarios match the example's golden (``gen_data.py``'s
float64 GELU of the float32 product; ``verify_result.py``'s isclose(1e-3, 1e-3), at most 1e-3 of
the elements off). With two M blocks per core (as the example's own sizes have: 8 x 4 blocks
per core) ascreg reports what the kernel leaves unsynchronised: in scenario 2 the next block's
``Fixpipe`` overwrites ``xUB`` with no flag from the AIVs that they have finished reading it,
and in scenario 1 the next block's ``DataCopyPad`` into ``xUB`` (``PIPE_MTE2``) has nothing
ordering it after the previous block's copy into the same bytes (nor after the GELU that read
them). The AIVs' copy out uses the dav-3510 header's ``DataCopyPad(GlobalTensor, LocalTensor,
DataCopyParams)`` overload (``blockLen`` in bytes), which the UB -> GM page does not list.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Ref, Reg, UbPtr, float32_t, half, uint8_t
from ascreg.basic import (
    ASCEND_IS_AIC,
    ASCEND_IS_AIV,
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    PIPE_ALL,
    PIPE_FIX,
    CO2Layout,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    DataCopyParams,
    Fixpipe,
    FixpipeConfig,
    FixpipeParamsArch3510,
    GetBlockIdx,
    GetSubBlockIdx,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LoadData,
    LoadData2DParamsV2,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    PipeBarrier,
    SetFlag,
    TPosition,
    WaitFlag,
    __mix__,
    asc_vf_call,
)
from ascreg.errors import SyncError
from ascreg.machine.kernel import __global__, __simd_vf__

# half type, cube block: [16, 16]
CUBE_BLOCK = 16
L0_PINGPONG_BYTES = 32 * 1024
L1_PINGPONG_BYTES = 256 * 1024
IS_B_TRANSPOSE = True

# GELU(x) ~ x / (1 + e^(-1.595769 * (x + 0.044715 * x^3)))
COEFF_A = np.float32(0.044715)
COEFF_B = np.float32(-1.595769)

CFG_ROW_MAJOR_UB = FixpipeConfig(CO2Layout.ROW_MAJOR, True)  # to UB
CFG_ROW_MAJOR_GM = FixpipeConfig(CO2Layout.ROW_MAJOR, False)  # to GM


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_vf__
def GeluVf(xAddr: UbPtr[float32_t], yAddr: UbPtr[float32_t], n: int, loopNum: int) -> None:
    oneRepeatSize = GetVecLen() // float32_t.size
    mask = Reg.MaskReg()
    xReg, yReg = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    n_ = Ref(n)  # UpdateMask updates the by-value parameter through its reference
    for i in range(loopNum):
        mask = Reg.UpdateMask[float32_t](n_)
        Reg.LoadAlign(xReg, xAddr + i * oneRepeatSize)
        Reg.Mul(yReg, xReg, xReg, mask)  # x^2
        Reg.Mul(yReg, yReg, xReg, mask)  # x^3
        Reg.Muls(yReg, yReg, COEFF_A, mask)  # 0.044715 * x^3
        Reg.Add(yReg, xReg, yReg, mask)  # x + 0.044715 * x^3
        Reg.Muls(yReg, yReg, COEFF_B, mask)  # -1.595769 * (...)
        Reg.Exp(yReg, yReg, mask)  # e^(...)
        Reg.Adds(yReg, yReg, np.float32(1.0), mask)  # 1 + e^(...)
        Reg.Div(yReg, xReg, yReg, mask)  # x / (1 + e^(...))
        Reg.StoreAlign(yAddr + i * oneRepeatSize, yReg, mask)


class KernelMmadVector:
    """``KernelMmadVector<M, K, N, baseM, baseK, baseN, singleCoreM, singleCoreK, singleCoreN,
    stepKa, stepKb>`` built with ``-DSCENARIO_NUM``."""

    def __init__(self, t: dict[str, int], scenarioNum: int) -> None:
        self.M, self.K, self.N = t["M"], t["K"], t["N"]
        self.baseM, self.baseK, self.baseN = t["baseM"], t["baseK"], t["baseN"]
        self.singleCoreM, self.singleCoreK = t["singleCoreM"], t["singleCoreK"]
        self.singleCoreN, self.stepKa, self.stepKb = t["singleCoreN"], t["stepKa"], t["stepKb"]
        self.scenarioNum = scenarioNum
        self.aGM, self.bGM, self.cGM = GlobalTensor[half](), GlobalTensor[half](), None
        self.aGMOri, self.bGMOri = GlobalTensor[half](), GlobalTensor[half]()
        self.cGMOri = GlobalTensor[float32_t]()
        self.mte1DBFlag = 0
        self.geluOutUBAddr = self.baseM // 2 * self.baseN * float32_t.size

    def Init(self, xMatrix: GmPtr[Any], yMatrix: GmPtr[Any], zMatrix: GmPtr[Any]) -> None:
        self.aGMOri.SetGlobalBuffer(xMatrix.cast(half))
        self.bGMOri.SetGlobalBuffer(yMatrix.cast(half))
        self.cGMOri.SetGlobalBuffer(zMatrix.cast(float32_t))
        # Ascend 950PR: SCENARIO_NUM 1 (through GM) and 2 (through UB); xUB takes the product
        # from GM in the first, from the Fixpipe in the second
        size = self.baseM // 2 * self.baseN
        self.xUB = LocalTensor[float32_t](TPosition.VECCALC, 0, size)
        self.geluOutUB = LocalTensor[float32_t](TPosition.VECCALC, self.geluOutUBAddr, size)

    def Process(self) -> None:
        baseM, baseK, baseN = self.baseM, self.baseK, self.baseN
        self.InitComputeParams()
        # -- AIC: buffers, compute loop, Fixpipe out --
        a1PingpongSize = baseM * baseK * self.stepKa
        b1PingpongSize = baseK * baseN * self.stepKb
        a2PingpongSize = baseM * baseK
        b2PingpongSize = baseK * baseN
        a1LocalPing = LocalTensor[half](TPosition.A1, 0, a1PingpongSize)
        a1LocalPong = LocalTensor[half](TPosition.A1, a1PingpongSize * half.size, a1PingpongSize)
        a2LocalPing = LocalTensor[half](TPosition.A2, 0, a2PingpongSize)
        a2LocalPong = LocalTensor[half](TPosition.A2, L0_PINGPONG_BYTES, a2PingpongSize)
        b1LocalPing = LocalTensor[half](TPosition.B1, L1_PINGPONG_BYTES, b1PingpongSize)
        b1LocalPong = LocalTensor[half](
            TPosition.B1, L1_PINGPONG_BYTES + b1PingpongSize * half.size, b1PingpongSize
        )
        b2LocalPing = LocalTensor[half](TPosition.B2, 0, b2PingpongSize)
        b2LocalPong = LocalTensor[half](TPosition.B2, L0_PINGPONG_BYTES, b2PingpongSize)
        cLocal = LocalTensor[float32_t](TPosition.CO1, 0, baseM * baseN)
        if ASCEND_IS_AIC:
            self.InitAicSyncFlags()
        for nBlockIdx in range(self.nLoopCount):
            for mBlockIdx in range(self.mLoopCount):
                if ASCEND_IS_AIC:
                    self.ProcessLoopAic(
                        a1LocalPing, a1LocalPong, a2LocalPing, a2LocalPong, b1LocalPing,
                        b1LocalPong, b2LocalPing, b2LocalPong, cLocal, mBlockIdx, nBlockIdx,
                    )  # fmt: skip
                if ASCEND_IS_AIV:
                    self.ProcessLoopAiv(mBlockIdx, nBlockIdx)
        if ASCEND_IS_AIC:
            self.WaitAicSyncFlags()

    def InitAicSyncFlags(self) -> None:
        # the backward flags are set ahead, so the first WaitFlag does not deadlock
        SetFlag[HardEvent.MTE1_MTE2](EVENT_ID0)
        SetFlag[HardEvent.MTE1_MTE2](EVENT_ID1)
        SetFlag[HardEvent.MTE1_MTE2](EVENT_ID2)
        SetFlag[HardEvent.MTE1_MTE2](EVENT_ID3)
        SetFlag[HardEvent.M_MTE1](EVENT_ID0)
        SetFlag[HardEvent.M_MTE1](EVENT_ID1)

    def WaitAicSyncFlags(self) -> None:
        WaitFlag[HardEvent.M_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.M_MTE1](EVENT_ID1)
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID1)
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID2)
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID3)

    def ProcessLoopAic(
        self, a1LocalPing: Any, a1LocalPong: Any, a2LocalPing: Any, a2LocalPong: Any,
        b1LocalPing: Any, b1LocalPong: Any, b2LocalPing: Any, b2LocalPong: Any, cLocal: Any,
        mBlockIdx: int, nBlockIdx: int,
    ) -> None:  # fmt: skip
        stepKa, stepKb, kLoopCount = self.stepKa, self.stepKb, self.kLoopCount
        # DataCopyIn progress
        a1NextKChunkIdx = 0
        b1NextKChunkIdx = 0
        a1CopyInIdx = 0
        b1CopyInIdx = 0
        # the first L1 packets of A and B
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID0)
        self.DataCopyInA(a1LocalPing, a1NextKChunkIdx, mBlockIdx)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        a1NextKChunkIdx += stepKa
        a1CopyInIdx ^= 1
        WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID2)
        self.DataCopyInB(b1LocalPing, b1NextKChunkIdx, nBlockIdx)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID2)
        b1NextKChunkIdx += stepKb
        b1CopyInIdx ^= 1
        # the K loop
        for kBlockIdx in range(kLoopCount):
            a1ReadIdx = (kBlockIdx // stepKa) % 2
            b1ReadIdx = (kBlockIdx // stepKb) % 2
            kOffsetInChunkA = kBlockIdx % stepKa
            kOffsetInChunkB = kBlockIdx % stepKb
            a1ReadBuf = a1LocalPing if a1ReadIdx == 0 else a1LocalPong
            b1ReadBuf = b1LocalPing if b1ReadIdx == 0 else b1LocalPong
            a2Local = a2LocalPing if self.mte1DBFlag == 0 else a2LocalPong
            b2Local = b2LocalPing if self.mte1DBFlag == 0 else b2LocalPong
            # backward: the previous Compute has released this L0 buffer
            WaitFlag[HardEvent.M_MTE1](self.mte1DBFlag)
            # forward: the L1 packet is in
            if kOffsetInChunkA == 0:
                WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0 if a1ReadIdx == 0 else EVENT_ID1)
            if kOffsetInChunkB == 0:
                WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID2 if b1ReadIdx == 0 else EVENT_ID3)
            # DataLoad: L1 -> L0
            self.DataLoadA(a1ReadBuf, a2Local, mBlockIdx, kOffsetInChunkA)
            self.DataLoadB(b1ReadBuf, b2Local, nBlockIdx, kOffsetInChunkB)
            # backward: this L1 packet is used up, DataCopyIn may overwrite it
            if (kOffsetInChunkA + 1) == stepKa:
                SetFlag[HardEvent.MTE1_MTE2](EVENT_ID0 if a1ReadIdx == 0 else EVENT_ID1)
            if (kOffsetInChunkB + 1) == stepKb:
                SetFlag[HardEvent.MTE1_MTE2](EVENT_ID2 if b1ReadIdx == 0 else EVENT_ID3)
            # Compute: Mmad accumulates
            self.Compute(cLocal, a2Local, b2Local, kBlockIdx, mBlockIdx, nBlockIdx)
            # the next L1 packet, overlapping DataCopyIn with Compute
            if ((kBlockIdx == 0) or ((kOffsetInChunkB + 1) == stepKb)) and (
                b1NextKChunkIdx < kLoopCount
            ):
                b1WriteBuf = b1LocalPing if b1CopyInIdx == 0 else b1LocalPong
                WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID2 if b1CopyInIdx == 0 else EVENT_ID3)
                self.DataCopyInB(b1WriteBuf, b1NextKChunkIdx, nBlockIdx)
                SetFlag[HardEvent.MTE2_MTE1](EVENT_ID2 if b1CopyInIdx == 0 else EVENT_ID3)
                b1NextKChunkIdx += stepKb
                b1CopyInIdx ^= 1
            if ((kBlockIdx == 0) or ((kOffsetInChunkA + 1) == stepKa)) and (
                a1NextKChunkIdx < kLoopCount
            ):
                a1WriteBuf = a1LocalPing if a1CopyInIdx == 0 else a1LocalPong
                WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID0 if a1CopyInIdx == 0 else EVENT_ID1)
                self.DataCopyInA(a1WriteBuf, a1NextKChunkIdx, mBlockIdx)
                SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0 if a1CopyInIdx == 0 else EVENT_ID1)
                a1NextKChunkIdx += stepKa
                a1CopyInIdx ^= 1
        # CopyOut on the AIC: Fixpipe CO1 -> UB / GM
        self.CopyOutAic(cLocal, mBlockIdx, nBlockIdx)

    def ProcessLoopAiv(self, mBlockIdx: int, nBlockIdx: int) -> None:
        # Ascend 950PR: SCENARIO_NUM picks GM or UB
        if self.scenarioNum == 1:
            self.GeluFromGM(mBlockIdx, nBlockIdx)
        else:
            self.GeluFromUB(mBlockIdx, nBlockIdx)

    def GeluRegBaseCompute(self, xLocal: Any, yLocal: Any, n: int) -> None:
        oneRepeatSize = GetVecLen() // float32_t.size
        loopNum = DivCeil(n, oneRepeatSize)
        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        asc_vf_call[GeluVf](xAddr, yAddr, n, loopNum)

    def InitComputeParams(self) -> None:
        M, K, N = self.M, self.K, self.N
        singleCoreM, singleCoreN = self.singleCoreM, self.singleCoreN
        mIter = DivCeil(M, singleCoreM)
        # in __mix__(1, 2) GetBlockIdx() counts the AICs and the AIVs apart
        if ASCEND_IS_AIC:  # noqa: SIM108 (the example's if / else)
            logicCoreId = GetBlockIdx()
        else:
            logicCoreId = GetBlockIdx() // 2  # two AIVs per logical core
        mIterIdx = logicCoreId % mIter
        nIterIdx = logicCoreId // mIter
        gmOffsetA = mIterIdx * singleCoreM * K
        gmOffsetB = nIterIdx * K * singleCoreN if IS_B_TRANSPOSE else nIterIdx * singleCoreN
        gmOffsetC = mIterIdx * singleCoreM * N + nIterIdx * singleCoreN
        self.aGM = self.aGMOri[gmOffsetA]
        self.bGM = self.bGMOri[gmOffsetB]
        self.cGM = self.cGMOri[gmOffsetC]
        self.actualSingleCoreM = min(M - mIterIdx * singleCoreM, singleCoreM)
        self.actualSingleCoreN = min(N - nIterIdx * singleCoreN, singleCoreN)
        self.kLoopCount = DivCeil(self.singleCoreK, self.baseK)
        self.mLoopCount = DivCeil(self.actualSingleCoreM, self.baseM)
        self.nLoopCount = DivCeil(self.actualSingleCoreN, self.baseN)
        self.baseNCount = self.actualSingleCoreN // self.baseN
        self.tailN = self.actualSingleCoreN % self.baseN
        self.tailNAlign = DivCeil(self.tailN, CUBE_BLOCK) * CUBE_BLOCK
        self.baseMCount = self.actualSingleCoreM // self.baseM
        self.tailM = self.actualSingleCoreM % self.baseM
        self.tailMAlign = DivCeil(self.tailM, CUBE_BLOCK) * CUBE_BLOCK

    def DataCopyInA(self, a1Local: Any, kChunkIdx: int, mBlockIdx: int) -> None:
        """GM -> A1: one packet of A (stepKa blocks of baseM x baseK)."""
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        nd2nzParams = Nd2NzParams()
        nd2nzParams.ndNum = 1
        nd2nzParams.nValue = curM
        nd2nzParams.dValue = self.baseK * self.stepKa
        nd2nzParams.srcNdMatrixStride = 0
        nd2nzParams.srcDValue = self.K
        nd2nzParams.dstNzC0Stride = self.baseM
        nd2nzParams.dstNzNStride = 1
        nd2nzParams.dstNzMatrixStride = 0
        DataCopy(a1Local, self.aGM[kChunkIdx * self.baseK + mBlockIdx * self.K * self.baseM],
                 nd2nzParams)  # fmt: skip

    def DataCopyInB(self, b1Local: Any, kChunkIdx: int, nBlockIdx: int) -> None:
        """GM -> B1: one packet of B (stepKb blocks of baseK x baseN); B is transposed."""
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        nd2nzParams = Nd2NzParams()
        nd2nzParams.ndNum = 1
        nd2nzParams.nValue = curN
        nd2nzParams.dValue = self.baseK * self.stepKb
        nd2nzParams.srcNdMatrixStride = 0
        nd2nzParams.srcDValue = self.K
        nd2nzParams.dstNzC0Stride = self.baseN
        nd2nzParams.dstNzNStride = 1
        nd2nzParams.dstNzMatrixStride = 0
        DataCopy(b1Local, self.bGM[kChunkIdx * self.baseK + nBlockIdx * self.baseN * self.K],
                 nd2nzParams)  # fmt: skip

    def DataLoadA(self, a1Local: Any, a2Local: Any, mBlockIdx: int, kOffsetInChunkA: int) -> None:
        """A1 -> A2: one baseM x baseK block of the L1 packet."""
        srcAddr = kOffsetInChunkA * self.baseK * self.baseM
        curMAlign = self.baseM if mBlockIdx != self.baseMCount else self.tailMAlign
        loadDataParams = LoadData2DParamsV2()
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        loadDataParams.mStep = DivCeil(curMAlign, CUBE_BLOCK)
        loadDataParams.kStep = DivCeil(self.baseK, CUBE_BLOCK)
        loadDataParams.srcStride = DivCeil(self.baseM, CUBE_BLOCK)
        loadDataParams.dstStride = DivCeil(curMAlign, CUBE_BLOCK)
        loadDataParams.sid = 0
        loadDataParams.ifTranspose = False
        LoadData(a2Local, a1Local[srcAddr], loadDataParams)

    def DataLoadB(self, b1Local: Any, b2Local: Any, nBlockIdx: int, kOffsetInChunkB: int) -> None:
        """B1 -> B2: one baseK x baseN block; B transposed needs no transposing load."""
        srcAddr = kOffsetInChunkB * self.baseK * (self.baseN if IS_B_TRANSPOSE else CUBE_BLOCK)
        curNAlign = self.baseN if nBlockIdx != self.baseNCount else self.tailNAlign
        loadDataParams = LoadData2DParamsV2()
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        loadDataParams.mStep = DivCeil(curNAlign, CUBE_BLOCK)
        loadDataParams.kStep = DivCeil(self.baseK * half.size, 32)
        loadDataParams.srcStride = DivCeil(self.baseN, CUBE_BLOCK)
        loadDataParams.dstStride = DivCeil(curNAlign, CUBE_BLOCK)
        loadDataParams.ifTranspose = False
        LoadData(b2Local, b1Local[srcAddr], loadDataParams)

    def Compute(
        self, cLocal: Any, a2Local: Any, b2Local: Any, kBlockIdx: int, mBlockIdx: int,
        nBlockIdx: int,
    ) -> None:  # fmt: skip
        """A2 * B2 -> CO1: one accumulating Mmad."""
        SetFlag[HardEvent.MTE1_M](self.mte1DBFlag)
        WaitFlag[HardEvent.MTE1_M](self.mte1DBFlag)
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        mmadParams = MmadParams()
        mmadParams.m = curM
        mmadParams.n = curN
        mmadParams.k = self.baseK
        mmadParams.cmatrixInitVal = kBlockIdx == 0
        mmadParams.unitFlag = 2 if kBlockIdx != self.kLoopCount - 1 else 3
        Mmad(cLocal, a2Local, b2Local, mmadParams)
        SetFlag[HardEvent.M_MTE1](self.mte1DBFlag)
        self.mte1DBFlag ^= 1

    def CopyOutAic(self, cLocal: Any, mBlockIdx: int, nBlockIdx: int) -> None:
        """The AIC: Fixpipe CO1 -> UB / GM, then tell the AIVs the data is there."""
        curMAlign = self.baseM if mBlockIdx != self.baseMCount else self.tailMAlign
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        if self.scenarioNum == 1:
            # through GM: Fixpipe CO1 -> GM
            fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
            fixpipeParams.mSize = curM
            fixpipeParams.nSize = curN
            fixpipeParams.srcStride = curMAlign
            fixpipeParams.dstStride = self.N
            fixpipeParams.unitFlag = 3
            Fixpipe[float32_t, float32_t, CFG_ROW_MAJOR_GM](
                self.cGM[mBlockIdx * self.baseM * self.N + nBlockIdx * self.baseN], cLocal,
                fixpipeParams,
            )  # fmt: skip
        else:
            # through UB: Fixpipe CO1 -> UB (dualDstCtl = 0b01, split in M)
            fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
            fixpipeParams.mSize = DivCeil(curM, 2) * 2
            fixpipeParams.nSize = curN
            fixpipeParams.srcStride = curMAlign
            fixpipeParams.dstStride = curN
            fixpipeParams.dualDstCtl = 0b01
            fixpipeParams.unitFlag = 3
            Fixpipe[float32_t, float32_t, CFG_ROW_MAJOR_UB](self.xUB, cLocal, fixpipeParams)
        # the AIVs may go on
        CrossCoreSetFlag[0x2, PIPE_FIX](0x8)

    def GeluFromGM(self, mBlockIdx: int, nBlockIdx: int) -> None:
        """The AIV through GM: wait, GM -> xUB, GELU, geluOutUB -> GM."""
        CrossCoreWaitFlag(0x8)  # the AIC's Fixpipe has written the product to GM
        N, baseM = self.N, self.baseM
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        halfM = curM // 2
        computeLen = halfM * curN
        localSubIdx = GetSubBlockIdx() % 2
        gmOffset = mBlockIdx * baseM * N + nBlockIdx * self.baseN + localSubIdx * baseM // 2 * N
        # step 1: GM -> xUB
        copyInParams = DataCopyExtParams()
        copyInParams.blockCount = halfM
        copyInParams.blockLen = curN * float32_t.size
        copyInParams.srcStride = (N - curN) * float32_t.size
        copyInParams.dstStride = 0
        padParams = DataCopyPadExtParams[float32_t](False, 0, 0, 0)
        DataCopyPad[float32_t](self.xUB, self.cGM[gmOffset], copyInParams, padParams)
        # MTE2 (GM -> UB) done before V reads
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        # step 2: GELU (RegBase on the Ascend 950PR)
        self.GeluRegBaseCompute(self.xUB, self.geluOutUB, computeLen)
        # V done before MTE3 copies out
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        # step 3: geluOutUB -> GM
        copyOutParams = DataCopyParams()
        copyOutParams.blockCount = halfM
        copyOutParams.blockLen = curN * float32_t.size
        copyOutParams.srcStride = 0
        copyOutParams.dstStride = (N - curN) * float32_t.size
        DataCopyPad[float32_t](self.cGM[gmOffset], self.geluOutUB, copyOutParams)

    def GeluFromUB(self, mBlockIdx: int, nBlockIdx: int) -> None:
        """The AIV through UB: wait for the AIC's Fixpipe, GELU, geluOutUB -> GM."""
        CrossCoreWaitFlag(0x8)
        N = self.N
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        # split in M by dualDstCtl 0b01: each AIV holds M / 2 rows
        halfM = curM // 2
        computeLen = halfM * curN
        # GELU: xUB in, geluOutUB out
        self.GeluRegBaseCompute(self.xUB, self.geluOutUB, computeLen)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        # geluOutUB -> GM
        localSubIdx = GetSubBlockIdx() % 2
        offset = self.baseM // 2 * N
        copyParams = DataCopyParams()
        copyParams.blockCount = halfM
        copyParams.blockLen = curN * float32_t.size
        copyParams.srcStride = 0
        copyParams.dstStride = (N - curN) * float32_t.size
        DataCopyPad[float32_t](
            self.cGM[mBlockIdx * self.baseM * N + nBlockIdx * self.baseN + localSubIdx * offset],
            self.geluOutUB, copyParams,
        )  # fmt: skip


def mmad_vector_custom(t: dict[str, int], SCENARIO_NUM: int) -> Any:
    """``mmad_vector_custom<...>`` at the template arguments *t*."""

    @__global__
    @__mix__(1, 2)
    def mmad_vector_custom(
        xMatrix: GmPtr[uint8_t], yMatrix: GmPtr[uint8_t], zMatrix: GmPtr[uint8_t]
    ) -> None:
        InitSocState()
        op = KernelMmadVector(t, SCENARIO_NUM)
        op.Init(xMatrix, yMatrix, zMatrix)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_vector_custom


def gen_golden_data(m: int, n: int, k: int, seed: int) -> tuple[np.ndarray, ...]:
    """``gen_data.py`` at (m, n, k): A, B^T (as stored) and the float64 GELU of A @ B."""
    rng = np.random.default_rng(seed)
    x1_gm = rng.uniform(-1, 1, [m, k]).astype(np.float16)
    x2_gm = rng.uniform(-1, 1, [k, n]).astype(np.float16)
    matmul_f64 = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float64)
    exponent = -1.595769 * (matmul_f64 + 0.044715 * (matmul_f64**3))
    golden = (matmul_f64 / (1.0 + np.exp(np.clip(exponent, -88.0, 88.0)))).astype(np.float32)
    return x1_gm, np.ascontiguousarray(x2_gm.transpose()), golden  # B stored transposed


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``verify_result.py``: at most 1e-3 of the elements outside isclose(1e-3, 1e-3)."""
    close = np.isclose(output, golden, rtol=1e-3, atol=1e-3, equal_nan=True)
    return float((~close).sum()) / golden.size <= 1e-3


ONE_BLOCK = {"M": 64, "K": 256, "N": 64, "baseM": 32, "baseK": 32, "baseN": 32,
             "singleCoreM": 32, "singleCoreK": 256, "singleCoreN": 32, "stepKa": 2, "stepKb": 2}  # fmt: skip
"""Four cores, one 32 x 32 block each, K in 8 blocks of 32 (two per L1 packet)."""
TWO_BLOCKS = {**ONE_BLOCK, "M": 128, "singleCoreM": 64}
"""Four cores, two M blocks each (the example's own sizes give each core 8 x 4)."""


def run(t: dict[str, int], scenario: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    m, n, k = t["M"], t["N"], t["K"]
    x1, x2t, golden = gen_golden_data(m, n, k, seed)
    gm = GlobalMemory()
    a, b, c = gm.alloc(half, m * k), gm.alloc(half, k * n), gm.alloc(float32_t, m * n)
    a.write(x1.reshape(-1))
    b.write(x2t.reshape(-1))
    blocks = (m // t["singleCoreM"]) * (n // t["singleCoreN"])
    kernel = mmad_vector_custom(t, scenario)
    kernel[blocks, 0, None](a.cast(uint8_t), b.cast(uint8_t), c.cast(uint8_t))
    return np.asarray(c.read(m * n)).reshape(m, n), golden


@pytest.mark.parametrize("scenario", [1, 2])
def test_matmul_gelu_one_block_per_core(scenario: int) -> None:
    output, golden = run(ONE_BLOCK, scenario)
    assert verify_result(output, golden)


def test_matmul_gelu_through_ub_misses_the_flag_back() -> None:
    with pytest.raises(SyncError, match=r"AIV 0 reads the UB of AIV 0 byte 0x0, which AIC 0 "
                       "wrote with no CrossCoreSetFlag"):  # fmt: skip
        run(TWO_BLOCKS, 2)


def test_matmul_gelu_through_gm_misses_an_order_between_its_copies_into_xub() -> None:
    with pytest.raises(SyncError, match=r"DataCopyPad: a PIPE_MTE2 copy writes UB \[0x0, 0x80\) "
                       "that an earlier PIPE_MTE2 copy wrote"):  # fmt: skip
        run(TWO_BLOCKS, 1)

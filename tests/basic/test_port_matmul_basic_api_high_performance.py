"""Port of asc-devkit examples/01_simd_cpp_api/05_best_practices/01_matrix_compute/matmul_basic_api_high_performance.

Line for line, the dav-3510 branches of ``KernelMmad<M, K, N, baseM, baseK, baseN,
singleCoreM, singleCoreK, singleCoreN, stepKa, stepKb>`` of mmad.asc with ``IS_B_TRANSPOSE``
(B stored ``[n, k]``): each ``__cube__`` block takes a ``singleCoreM x singleCoreN`` tile of C
(scenario 1, ``Process``; scenario 2, ``ProcessL2Cache``, walks two M rounds so that blocks
sharing B run together); per ``baseM x baseN`` tile it streams K in chunks of ``stepKa`` /
``stepKb`` base blocks into ping-pong L1 buffers (``Nd2NzParams``), loads each base block into
ping-pong L0A / L0B buffers (``LoadData2DParamsV2``), accumulates with ``Mmad`` (``unitFlag`` 2,
then 3 on the last K block) and moves the tile to GM in half by ``Fixpipe`` with
``FixpipeParamsV220`` (``F322F16``, ``unitFlag`` 3: no ``M_FIX`` flag, the unit flags order the
move after the last Mmad and the next tile's first Mmad after the move).

The example's main instantiates M = K = N = 8192 on 32 blocks (baseM 256, baseK 64, baseN 256,
stepKa = stepKb = 4, singleCoreN 1024, singleCoreM 2048 / 1024): 2**40 multiply-adds, beyond a
test's budget. The tests instantiate the same template with the example's base tiles and K
steps and a smaller problem (M = N = 1024, K = singleCoreK = 512: two K chunks per tile, so
both ping and pong buffers turn; singleCoreN 256, singleCoreM 512 / 256: 8 blocks, two M tiles
per block and, in scenario 2, two M rounds).

Inputs and the golden are scripts/gen_data.py's formula (half in [-1, 1), the float32 product
rounded to half, B stored transposed) and are checked as scripts/verify_result.py checks them
(``np.isclose``, rtol 1e-3, atol 1e-3, at most 1e-3 of the elements off), then bit for bit
against the accumulation model: per 64-wide K block the exact product added to C in float,
then one rounding to half.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    PIPE_ALL,
    DataCopy,
    Fixpipe,
    FixpipeParamsV220,
    GetBlockIdx,
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
    QuantMode_t,
    SetFlag,
    TPosition,
    WaitFlag,
    __cube__,
)
from ascreg.machine.kernel import __global__

CUBE_BLOCK = 16
CUBE_BLOCK_SIZE = 16 * 16
L0_PINGPONG_BYTES = 32 * 1024
L1_PINGPONG_BYTES = 256 * 1024
IS_B_TRANSPOSE = True


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


class KernelMmad:
    def __init__(self, M: int, K: int, N: int, baseM: int, baseK: int, baseN: int,
                 singleCoreM: int, singleCoreK: int, singleCoreN: int, stepKa: int,
                 stepKb: int) -> None:  # fmt: skip
        self.M, self.K, self.N = M, K, N
        self.baseM, self.baseK, self.baseN = baseM, baseK, baseN
        self.singleCoreM, self.singleCoreK, self.singleCoreN = singleCoreM, singleCoreK, singleCoreN
        self.stepKa, self.stepKb = stepKa, stepKb
        self.mte1DBFlag = 0

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGMOri, self.bGMOri, self.cGMOri = (GlobalTensor[half]() for _ in range(3))
        self.aGMOri.SetGlobalBuffer(a.cast(half))
        self.bGMOri.SetGlobalBuffer(b.cast(half))
        self.cGMOri.SetGlobalBuffer(c.cast(half))

    def _buffers(self) -> tuple[Any, ...]:
        """The ping-pong L1 / L0 tensors and CO1 that Process and ProcessL2Cache declare."""
        baseM, baseK, baseN = self.baseM, self.baseK, self.baseN
        a1PingpongSize = baseM * baseK * self.stepKa
        b1PingpongSize = baseK * baseN * self.stepKb
        a2PingpongSize = baseM * baseK
        b2PingpongSize = baseK * baseN
        return (
            LocalTensor[half](TPosition.A1, 0, a1PingpongSize),
            LocalTensor[half](TPosition.A1, a1PingpongSize * half.size, a1PingpongSize),
            LocalTensor[half](TPosition.A2, 0, a2PingpongSize),
            LocalTensor[half](TPosition.A2, L0_PINGPONG_BYTES, a2PingpongSize),
            LocalTensor[half](TPosition.B1, L1_PINGPONG_BYTES, b1PingpongSize),
            LocalTensor[half](
                TPosition.B1, L1_PINGPONG_BYTES + b1PingpongSize * half.size, b1PingpongSize
            ),
            LocalTensor[half](TPosition.B2, 0, b2PingpongSize),
            LocalTensor[half](TPosition.B2, L0_PINGPONG_BYTES, b2PingpongSize),
            LocalTensor[float32_t](TPosition.CO1, 0, baseM * baseN),
        )

    def Process(self) -> None:
        self.InitComputeParams()
        self.ProcessLoop(*self._buffers())

    def ProcessL2Cache(self) -> None:
        buffers = self._buffers()
        mIterTotal = DivCeil(self.M, self.singleCoreM)
        nIterTotal = DivCeil(self.N, self.singleCoreN)
        mIterPerRound = DivCeil(self.M, self.singleCoreM * 2)  # 2 rounds of M
        outerMLoopCount = DivCeil(mIterTotal, mIterPerRound)
        for outerMIdx in range(outerMLoopCount):
            mIterIdx = GetBlockIdx() % mIterPerRound + outerMIdx * mIterPerRound
            nIterIdx = GetBlockIdx() // mIterPerRound
            if mIterIdx >= mIterTotal or nIterIdx >= nIterTotal:
                continue
            self.InitComputeParamsL2Cache(mIterIdx, nIterIdx)
            self.ProcessLoop(*buffers)
            self.mte1DBFlag = 0

    def ProcessLoop(self, a1LocalPing: Any, a1LocalPong: Any, a2LocalPing: Any,
                    a2LocalPong: Any, b1LocalPing: Any, b1LocalPong: Any, b2LocalPing: Any,
                    b2LocalPong: Any, cLocal: Any) -> None:  # fmt: skip
        stepKa, stepKb = self.stepKa, self.stepKb
        for event in (EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3):
            SetFlag[HardEvent.MTE1_MTE2](event)
        SetFlag[HardEvent.M_MTE1](EVENT_ID0)
        SetFlag[HardEvent.M_MTE1](EVENT_ID1)
        for nBlockIdx in range(self.nLoopCount):
            for mBlockIdx in range(self.mLoopCount):
                a1NextKChunkIdx = b1NextKChunkIdx = 0  # the next K chunk to copy in
                a1CopyInIdx = b1CopyInIdx = 0  # the L1 buffer it goes to (0 ping, 1 pong)
                WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID0)  # A1 ping writable
                self.DataCopyInA(a1LocalPing, a1NextKChunkIdx, mBlockIdx)
                SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)  # A1 ping ready
                a1NextKChunkIdx += stepKa
                a1CopyInIdx ^= 1
                WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID2)  # B1 ping writable
                self.DataCopyInB(b1LocalPing, b1NextKChunkIdx, nBlockIdx)
                SetFlag[HardEvent.MTE2_MTE1](EVENT_ID2)  # B1 ping ready
                b1NextKChunkIdx += stepKb
                b1CopyInIdx ^= 1
                for kBlockIdx in range(self.kLoopCount):
                    a1ReadIdx = (kBlockIdx // stepKa) % 2
                    b1ReadIdx = (kBlockIdx // stepKb) % 2
                    kOffsetInChunkA = kBlockIdx % stepKa
                    kOffsetInChunkB = kBlockIdx % stepKb
                    a1ReadBuf = a1LocalPing if a1ReadIdx == 0 else a1LocalPong
                    b1ReadBuf = b1LocalPing if b1ReadIdx == 0 else b1LocalPong
                    a1ReadEvent = EVENT_ID0 if a1ReadIdx == 0 else EVENT_ID1
                    b1ReadEvent = EVENT_ID2 if b1ReadIdx == 0 else EVENT_ID3
                    a2Local = a2LocalPing if self.mte1DBFlag == 0 else a2LocalPong
                    b2Local = b2LocalPing if self.mte1DBFlag == 0 else b2LocalPong
                    WaitFlag[HardEvent.M_MTE1](self.mte1DBFlag)
                    if kOffsetInChunkA == 0:
                        WaitFlag[HardEvent.MTE2_MTE1](a1ReadEvent)
                    if kOffsetInChunkB == 0:
                        WaitFlag[HardEvent.MTE2_MTE1](b1ReadEvent)
                    self.DataLoadA(a1ReadBuf, a2Local, mBlockIdx, kOffsetInChunkA)
                    self.DataLoadB(b1ReadBuf, b2Local, nBlockIdx, kOffsetInChunkB)
                    if kOffsetInChunkA + 1 == stepKa:
                        SetFlag[HardEvent.MTE1_MTE2](a1ReadEvent)
                    if kOffsetInChunkB + 1 == stepKb:
                        SetFlag[HardEvent.MTE1_MTE2](b1ReadEvent)
                    self.Compute(cLocal, a2Local, b2Local, kBlockIdx, mBlockIdx, nBlockIdx)
                    if (kBlockIdx == 0 or kOffsetInChunkB + 1 == stepKb) and (
                        b1NextKChunkIdx < self.kLoopCount
                    ):
                        b1WriteBuf = b1LocalPing if b1CopyInIdx == 0 else b1LocalPong
                        b1WriteEvent = EVENT_ID2 if b1CopyInIdx == 0 else EVENT_ID3
                        WaitFlag[HardEvent.MTE1_MTE2](b1WriteEvent)
                        self.DataCopyInB(b1WriteBuf, b1NextKChunkIdx, nBlockIdx)
                        SetFlag[HardEvent.MTE2_MTE1](b1WriteEvent)
                        b1NextKChunkIdx += stepKb
                        b1CopyInIdx ^= 1
                    if (kBlockIdx == 0 or kOffsetInChunkA + 1 == stepKa) and (
                        a1NextKChunkIdx < self.kLoopCount
                    ):
                        a1WriteBuf = a1LocalPing if a1CopyInIdx == 0 else a1LocalPong
                        a1WriteEvent = EVENT_ID0 if a1CopyInIdx == 0 else EVENT_ID1
                        WaitFlag[HardEvent.MTE1_MTE2](a1WriteEvent)
                        self.DataCopyInA(a1WriteBuf, a1NextKChunkIdx, mBlockIdx)
                        SetFlag[HardEvent.MTE2_MTE1](a1WriteEvent)
                        a1NextKChunkIdx += stepKa
                        a1CopyInIdx ^= 1
                self.CopyOut(cLocal, mBlockIdx, nBlockIdx)
        WaitFlag[HardEvent.M_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.M_MTE1](EVENT_ID1)
        for event in (EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3):
            WaitFlag[HardEvent.MTE1_MTE2](event)

    def InitComputeParams(self) -> None:
        mIter = DivCeil(self.M, self.singleCoreM)
        self.InitComputeParamsL2Cache(GetBlockIdx() % mIter, GetBlockIdx() // mIter)

    def InitComputeParamsL2Cache(self, mIterIdx: int, nIterIdx: int) -> None:
        M, K, N = self.M, self.K, self.N
        gmOffsetA = mIterIdx * self.singleCoreM * K
        gmOffsetB = (
            nIterIdx * K * self.singleCoreN if IS_B_TRANSPOSE else nIterIdx * self.singleCoreN
        )
        gmOffsetC = mIterIdx * self.singleCoreM * N + nIterIdx * self.singleCoreN
        self.aGM = self.aGMOri[gmOffsetA]
        self.bGM = self.bGMOri[gmOffsetB]
        self.cGM = self.cGMOri[gmOffsetC]
        self.actualSingleCoreM = min(M - mIterIdx * self.singleCoreM, self.singleCoreM)
        self.actualSingleCoreN = min(N - nIterIdx * self.singleCoreN, self.singleCoreN)
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
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        p = Nd2NzParams()
        p.ndNum = 1
        p.nValue = curM
        p.dValue = self.baseK * self.stepKa
        p.srcNdMatrixStride = 0
        p.srcDValue = self.K
        p.dstNzC0Stride = self.baseM
        p.dstNzNStride = 1
        p.dstNzMatrixStride = 0
        DataCopy(a1Local, self.aGM[kChunkIdx * self.baseK + mBlockIdx * self.K * self.baseM], p)

    def DataCopyInB(self, b1Local: Any, kChunkIdx: int, nBlockIdx: int) -> None:
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        p = Nd2NzParams()  # IS_B_TRANSPOSE: B is [n, k]
        p.ndNum = 1
        p.nValue = curN
        p.dValue = self.baseK * self.stepKb
        p.srcNdMatrixStride = 0
        p.srcDValue = self.K
        p.dstNzC0Stride = self.baseN
        p.dstNzNStride = 1
        p.dstNzMatrixStride = 0
        DataCopy(b1Local, self.bGM[kChunkIdx * self.baseK + nBlockIdx * self.baseN * self.K], p)

    def DataLoadA(self, a1Local: Any, a2Local: Any, mBlockIdx: int, kOffsetInChunkA: int) -> None:
        srcAddr = kOffsetInChunkA * self.baseK * self.baseM
        curMAlign = self.baseM if mBlockIdx != self.baseMCount else self.tailMAlign
        p = LoadData2DParamsV2()  # __NPU_ARCH__ == 3510
        p.mStartPosition = 0
        p.kStartPosition = 0
        p.mStep = DivCeil(curMAlign, CUBE_BLOCK)
        p.kStep = DivCeil(self.baseK, CUBE_BLOCK)
        p.srcStride = DivCeil(self.baseM, CUBE_BLOCK)
        p.dstStride = DivCeil(curMAlign, CUBE_BLOCK)
        p.sid = 0
        p.ifTranspose = False
        LoadData(a2Local, a1Local[srcAddr], p)

    def DataLoadB(self, b1Local: Any, b2Local: Any, nBlockIdx: int, kOffsetInChunkB: int) -> None:
        srcAddr = kOffsetInChunkB * self.baseK * (self.baseN if IS_B_TRANSPOSE else CUBE_BLOCK)
        curNAlign = self.baseN if nBlockIdx != self.baseNCount else self.tailNAlign
        p = LoadData2DParamsV2()  # __NPU_ARCH__ == 3510, B transposed: blocks as they lie
        p.mStartPosition = 0
        p.kStartPosition = 0
        p.mStep = DivCeil(curNAlign, CUBE_BLOCK)
        p.kStep = DivCeil(self.baseK * half.size, 32)
        p.srcStride = DivCeil(self.baseN, CUBE_BLOCK)
        p.dstStride = DivCeil(curNAlign, CUBE_BLOCK)
        p.ifTranspose = False
        LoadData(b2Local, b1Local[srcAddr], p)

    def Compute(self, cLocal: Any, a2Local: Any, b2Local: Any, kBlockIdx: int, mBlockIdx: int,
                nBlockIdx: int) -> None:  # fmt: skip
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

    def CopyOut(self, cLocal: Any, mBlockIdx: int, nBlockIdx: int) -> None:
        curMAlign = self.baseM if mBlockIdx != self.baseMCount else self.tailMAlign
        curM = self.baseM if mBlockIdx != self.baseMCount else self.tailM
        curN = self.baseN if nBlockIdx != self.baseNCount else self.tailN
        p = FixpipeParamsV220()
        p.nSize = curN
        p.mSize = curM
        p.srcStride = curMAlign
        p.dstStride = self.N
        p.quantPre = QuantMode_t.F322F16
        p.ndNum = 1
        p.srcNdStride = 0
        p.dstNdStride = 0
        p.unitFlag = 3
        Fixpipe(self.cGM[mBlockIdx * self.baseM * self.N + nBlockIdx * self.baseN], cLocal, p)


SHAPE = {"M": 1024, "K": 512, "N": 1024}
TILES = {"baseM": 256, "baseK": 64, "baseN": 256, "stepKa": 4, "stepKb": 4}
SINGLE_CORE = {1: (512, 512, 256), 2: (256, 512, 256)}
"""Per scenario, (singleCoreM, singleCoreK, singleCoreN); the example halves singleCoreM for 2."""


def make_kernel(scenarioNum: int) -> Any:
    singleCoreM, singleCoreK, singleCoreN = SINGLE_CORE[scenarioNum]

    @__global__
    @__cube__
    def mmad_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelMmad(
            SHAPE["M"], SHAPE["K"], SHAPE["N"], TILES["baseM"], TILES["baseK"], TILES["baseN"],
            singleCoreM, singleCoreK, singleCoreN, TILES["stepKa"], TILES["stepKb"],
        )  # fmt: skip
        op.Init(a, b, c)
        if scenarioNum == 1:
            op.Process()
        else:
            op.ProcessL2Cache()
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def gen_golden_data(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py at the tests' shape (numpy's legacy global RNG replaced by *rng*)."""
    m, n, k = SHAPE["M"], SHAPE["N"], SHAPE["K"]
    x1_gm = rng.uniform(-1, 1, [m, k]).astype(np.float16)
    x2_gm = rng.uniform(-1, 1, [k, n]).astype(np.float16)
    golden = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float32)
    return {"x1": x1_gm, "x2": x2_gm.transpose().copy(), "golden": golden.astype(np.float16)}


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-3, atol 1e-3), at most 1e-3 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-3, atol=1e-3, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-3)


def k_block_model(a: np.ndarray, bt: np.ndarray) -> np.ndarray:
    """Per baseK block the exact product added to C in float; then one rounding to half."""
    a64, b64 = a.astype(np.float64), bt.astype(np.float64)
    acc = np.zeros((a.shape[0], bt.shape[0]), np.float32)
    step = TILES["baseK"]
    for k0 in range(0, a.shape[1], step):
        part = a64[:, k0 : k0 + step] @ b64[:, k0 : k0 + step].T
        acc = (acc.astype(np.float64) + part).astype(np.float32)
    return acc.astype(np.float16)


def run(scenarioNum: int, data: dict[str, np.ndarray]) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    size = SHAPE["M"] * SHAPE["N"] * 2
    c = gm.alloc(uint8_t, size)
    make_kernel(scenarioNum)[8, 0, None](*ptrs, c)
    return c.read(size).view(np.float16).reshape(SHAPE["M"], SHAPE["N"])


@pytest.mark.parametrize("scenarioNum", [1, 2])
def test_matmul_basic_api_high_performance_against_its_golden(scenarioNum: int) -> None:
    data = gen_golden_data(np.random.default_rng(scenarioNum))
    output = run(scenarioNum, data)
    assert verify_result(output, data["golden"])
    assert np.array_equal(output, k_block_model(data["x1"], data["x2"]))

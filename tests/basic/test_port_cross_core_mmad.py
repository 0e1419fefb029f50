"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/05_sync_control/cross_core_set_wait_flag.

Scenario 2 of the example (``mmad_custom``, a ``__global__ __mix__(1, 2)`` kernel on
``NUM_BLOCKS`` = 8 AI Cores: 8 AICs and 16 AIVs), ``KernelMmad`` re-expressed line for line.
Each AIV casts its AI Core's slice of A (AIV0) or B (AIV1) from uint8_t to half into GM and
sets mode-2 flag 12; the AIC waits for both, multiplies its K slice (32 x 4 by 4 x 64) and adds
the product into C with an atomic Fixpipe, joins the other AICs on mode-0 flag 11, then sets
mode-2 flag 13; each AIV waits for it and applies LeakyRelu (alpha 0.001) to its 2 x 64 rows
of C. Scenarios 0 and 1 (mode 0 across 16 AIVs, mode 1 inside an AI Core) run the vector
class ``KernelCrossCoreSetFlag``.

The example has two faults, which ascreg reports. It places B in L1 at
``b1LocalAddr = A_SIZE_ALIGN_L1``,
an element count used as a byte address (``LocalTensor``'s ``addr`` is in bytes): A's
1024-byte NZ tile and B's overlap, and the two unordered MTE2 copies race on bytes 0x200 to
0x400 (rows 16 to 19 of A), which ascreg reports; likewise each AIV's ``Cast`` writes its half
output over its uint8 input from the same address (twice the length), an overlap the
通用地址重叠约束 forbids. The example's golden script hides both: its inputs,
``np.random.uniform(0, 1).astype(uint8)``, are all zeros. The tests run the example's addresses
to show the two reports, and :data:`SEPARATE` addresses for the results.

Goldens are computed independently with numpy: ``max(alpha * x, x)`` of the float32 product of
the uint8 matrices (integers below 2**24: exact in any summation order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, uint8_t
from ascreg.basic import (
    ASCEND_IS_AIC,
    ASCEND_IS_AIV,
    EVENT_ID0,
    PIPE_ALL,
    PIPE_FIX,
    PIPE_MTE3,
    Cast,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DataCopy,
    DisableDmaAtomic,
    Fixpipe,
    FixpipeParamsV220,
    GetBlockIdx,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LeakyRelu,
    LoadData,
    LoadData2DParams,
    LocalTensor,
    Mmad,
    MmadParams,
    Muls,
    Nd2NzParams,
    PipeBarrier,
    RoundMode,
    SetAtomicAdd,
    SetFlag,
    TPosition,
    WaitFlag,
    __mix__,
)
from ascreg.errors import SyncError, UndefinedBehaviourError
from ascreg.machine.kernel import __aicore__, __global__

M, N, K = 32, 64, 32
NUM_BLOCKS = 8
FRACTAL_SHAPE_0 = FRACTAL_SHAPE_1 = 16
FRACTAL_SIZE = FRACTAL_SHAPE_0 * FRACTAL_SHAPE_1


def CeilAlignConst(value: int, align: int) -> int:
    return (value + align - 1) // align * align


AIC_M, AIC_K, AIC_N = M, K // NUM_BLOCKS, N
CEIL_ALIGN_M = CeilAlignConst(AIC_M, FRACTAL_SHAPE_0)
CEIL_ALIGN_K = CeilAlignConst(AIC_K, FRACTAL_SHAPE_1)
CEIL_ALIGN_N = CeilAlignConst(AIC_N, FRACTAL_SHAPE_0)
A_SIZE_ALIGN_L1 = CEIL_ALIGN_M * CEIL_ALIGN_K
B_SIZE_ALIGN_L1 = CEIL_ALIGN_K * CeilAlignConst(AIC_N, FRACTAL_SHAPE_1)
C_SIZE_ALIGN_L0 = CEIL_ALIGN_M * CEIL_ALIGN_N
A_BLOCKS_LENGTH = M * K // NUM_BLOCKS
B_BLOCKS_LENGTH = K // NUM_BLOCKS * N
C_AIC_BLOCKS_LENGTH = M * N
C_AIV_BLOCKS_LENGTH = M // (NUM_BLOCKS * 2) * N
SYNC_AIC_FLAG = 11  # mode 0
SYNC_AIV_AIC_FLAG = 12  # mode 2: the AIC waits for the AIVs
SYNC_AIC_AIV_FLAG = 13  # mode 2: the AIVs wait for the AIC


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


EXAMPLE = {"b1LocalAddr": A_SIZE_ALIGN_L1, "castAAddr": 0, "castBAddr": A_BLOCKS_LENGTH}
"""The example's addresses of B in L1 and of the casts' outputs in UB (bytes)."""
SEPARATE = {"b1LocalAddr": A_SIZE_ALIGN_L1 * 2, "castAAddr": 1024, "castBAddr": 1024}
"""B after A's 1024-byte NZ tile; each cast's output clear of its input and of C."""


class KernelMmad:
    def __init__(self, layout: dict[str, int]) -> None:
        self.blockIdx = GetBlockIdx()
        self.a1LocalAddr, self.b1LocalAddr = 0, layout["b1LocalAddr"]
        self.a2LocalAddr = self.b2LocalAddr = self.c1LocalAddr = 0
        self.aAddr, self.bAddr = 0, A_BLOCKS_LENGTH
        self.cAddr = A_BLOCKS_LENGTH + B_BLOCKS_LENGTH
        self.castAAddr, self.castBAddr = layout["castAAddr"], layout["castBAddr"]
        self.reluCAddr = A_BLOCKS_LENGTH + B_BLOCKS_LENGTH

    def InitAIC(self, A: GmPtr[Any], B: GmPtr[Any], C: GmPtr[Any]) -> None:
        self.ACUBEGM, self.BCUBEGM = GlobalTensor[half](), GlobalTensor[half]()
        self.CCUBEGM = GlobalTensor[float32_t]()
        self.ACUBEGM.SetGlobalBuffer(
            A.cast(half) + A_BLOCKS_LENGTH * GetBlockIdx(), A_BLOCKS_LENGTH
        )
        self.BCUBEGM.SetGlobalBuffer(
            B.cast(half) + B_BLOCKS_LENGTH * GetBlockIdx(), B_BLOCKS_LENGTH
        )
        self.CCUBEGM.SetGlobalBuffer(C.cast(float32_t), C_AIC_BLOCKS_LENGTH)

    def InitAIV(
        self, a: GmPtr[Any], b: GmPtr[Any], A: GmPtr[Any], B: GmPtr[Any], C: GmPtr[Any]
    ) -> None:
        self.aGM, self.bGM = GlobalTensor[uint8_t](), GlobalTensor[uint8_t]()
        self.AVectorGM, self.BVectorGM = GlobalTensor[half](), GlobalTensor[half]()
        self.CVectorGM = GlobalTensor[float32_t]()
        core = GetBlockIdx() // 2
        self.aGM.SetGlobalBuffer(a.cast(uint8_t) + A_BLOCKS_LENGTH * core, A_BLOCKS_LENGTH)
        self.bGM.SetGlobalBuffer(b.cast(uint8_t) + B_BLOCKS_LENGTH * core, B_BLOCKS_LENGTH)
        self.AVectorGM.SetGlobalBuffer(A.cast(half) + A_BLOCKS_LENGTH * core, A_BLOCKS_LENGTH)
        self.BVectorGM.SetGlobalBuffer(B.cast(half) + B_BLOCKS_LENGTH * core, B_BLOCKS_LENGTH)
        self.CVectorGM.SetGlobalBuffer(
            C.cast(float32_t) + C_AIV_BLOCKS_LENGTH * GetBlockIdx(), C_AIV_BLOCKS_LENGTH
        )

    def ProcessAIC(self) -> None:
        a1Local = LocalTensor[half](TPosition.A1, self.a1LocalAddr, A_SIZE_ALIGN_L1)
        b1Local = LocalTensor[half](TPosition.B1, self.b1LocalAddr, B_SIZE_ALIGN_L1)
        a2Local = LocalTensor[half](TPosition.A2, self.a2LocalAddr, A_SIZE_ALIGN_L1)
        b2Local = LocalTensor[half](TPosition.B2, self.b2LocalAddr, B_SIZE_ALIGN_L1)
        c1Local = LocalTensor[float32_t](TPosition.CO1, self.c1LocalAddr, C_SIZE_ALIGN_L0)
        CrossCoreWaitFlag(SYNC_AIV_AIC_FLAG)  # mode 2: both AIVs have cast A and B
        self.CopyIn(a1Local, b1Local)
        self.SplitA(a1Local, a2Local)
        self.SplitBTranspose(b1Local, b2Local)
        self.Compute(a2Local, b2Local, c1Local)
        self.CopyOut(c1Local)
        CrossCoreSetFlag[0, PIPE_FIX](SYNC_AIC_FLAG)  # mode 0: every AIC has added its part
        CrossCoreWaitFlag(SYNC_AIC_FLAG)
        CrossCoreSetFlag[2, PIPE_FIX](SYNC_AIC_AIV_FLAG)  # mode 2: the AIVs may read C

    def ProcessAIV(self) -> None:
        aLocal = LocalTensor[uint8_t](TPosition.VECIN, self.aAddr, A_BLOCKS_LENGTH)
        bLocal = LocalTensor[uint8_t](TPosition.VECIN, self.bAddr, B_BLOCKS_LENGTH)
        cLocal = LocalTensor[float32_t](TPosition.VECIN, self.cAddr, C_AIV_BLOCKS_LENGTH)
        castALocal = LocalTensor[half](TPosition.VECOUT, self.castAAddr, A_BLOCKS_LENGTH)
        castBLocal = LocalTensor[half](TPosition.VECOUT, self.castBAddr, B_BLOCKS_LENGTH)
        reluCLocal = LocalTensor[float32_t](TPosition.VECOUT, self.reluCAddr, C_AIV_BLOCKS_LENGTH)
        if self.blockIdx % 2 == 0:
            DataCopy(aLocal, self.aGM, A_BLOCKS_LENGTH)
            SetFlag[HardEvent.MTE2_V](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
            Cast(castALocal, aLocal, RoundMode.CAST_NONE, A_BLOCKS_LENGTH)
            SetFlag[HardEvent.V_MTE3](EVENT_ID0)
            WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
            DataCopy(self.AVectorGM, castALocal, A_BLOCKS_LENGTH)
        else:
            DataCopy(bLocal, self.bGM, B_BLOCKS_LENGTH)
            SetFlag[HardEvent.MTE2_V](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
            Cast(castBLocal, bLocal, RoundMode.CAST_NONE, B_BLOCKS_LENGTH)
            SetFlag[HardEvent.V_MTE3](EVENT_ID0)
            WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
            DataCopy(self.BVectorGM, castBLocal, B_BLOCKS_LENGTH)
        CrossCoreSetFlag[2, PIPE_MTE3](SYNC_AIV_AIC_FLAG)  # mode 2: tell the AIC
        CrossCoreWaitFlag(SYNC_AIC_AIV_FLAG)  # mode 2: wait for the matmul
        alpha = 0.001
        DataCopy(cLocal, self.CVectorGM, C_AIV_BLOCKS_LENGTH)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        LeakyRelu(reluCLocal, cLocal, np.float32(alpha), C_AIV_BLOCKS_LENGTH)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.CVectorGM, reluCLocal, C_AIV_BLOCKS_LENGTH)

    def CopyIn(self, a1Local: Any, b1Local: Any) -> None:
        nd2nzA1Params = Nd2NzParams()
        nd2nzA1Params.ndNum = 1
        nd2nzA1Params.nValue = AIC_M
        nd2nzA1Params.dValue = AIC_K
        nd2nzA1Params.srcNdMatrixStride = 0
        nd2nzA1Params.srcDValue = AIC_K
        nd2nzA1Params.dstNzC0Stride = CEIL_ALIGN_M
        nd2nzA1Params.dstNzNStride = 1
        nd2nzA1Params.dstNzMatrixStride = 0
        DataCopy(a1Local, self.ACUBEGM, nd2nzA1Params)
        nd2nzB1Params = Nd2NzParams()
        nd2nzB1Params.ndNum = 1
        nd2nzB1Params.nValue = AIC_K
        nd2nzB1Params.dValue = AIC_N
        nd2nzB1Params.srcNdMatrixStride = 0
        nd2nzB1Params.srcDValue = AIC_N
        nd2nzB1Params.dstNzC0Stride = CeilAlign(AIC_K, FRACTAL_SHAPE_0)
        nd2nzB1Params.dstNzNStride = 1
        nd2nzB1Params.dstNzMatrixStride = 0
        DataCopy(b1Local, self.BCUBEGM, nd2nzB1Params)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        dstOffset = CeilDiv(AIC_K, FRACTAL_SHAPE_1) * FRACTAL_SIZE
        srcOffset = FRACTAL_SIZE
        loadDataParams = LoadData2DParams()
        loadDataParams.repeatTimes = CeilDiv(AIC_K, FRACTAL_SHAPE_1)
        loadDataParams.srcStride = CeilDiv(AIC_M, FRACTAL_SHAPE_0)
        loadDataParams.dstGap = 0
        loadDataParams.ifTranspose = False
        for i in range(CeilDiv(AIC_M, FRACTAL_SHAPE_0)):
            LoadData(a2Local[i * dstOffset], a1Local[i * srcOffset], loadDataParams)

    def SplitBTranspose(self, b1Local: Any, b2Local: Any) -> None:
        fractalNum = 1
        dstOffset = CeilDiv(AIC_N, FRACTAL_SHAPE_0 * fractalNum) * FRACTAL_SIZE * fractalNum
        srcOffset = FRACTAL_SIZE * fractalNum
        loadDataParams = LoadData2DParams()
        loadDataParams.repeatTimes = CeilDiv(AIC_N, FRACTAL_SHAPE_0 * fractalNum)
        loadDataParams.srcStride = CeilDiv(AIC_K, FRACTAL_SHAPE_0 * fractalNum)
        loadDataParams.dstGap = 0
        loadDataParams.ifTranspose = True
        for i in range(CeilDiv(AIC_K, FRACTAL_SHAPE_0 * fractalNum)):
            LoadData(b2Local[i * dstOffset], b1Local[i * srcOffset], loadDataParams)

    def Compute(self, a2Local: Any, b2Local: Any, c1Local: Any) -> None:
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)  # L0A / L0B: MTE1 writes, M reads
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        mmadParams = MmadParams()
        mmadParams.m, mmadParams.n, mmadParams.k = AIC_M, AIC_N, AIC_K
        Mmad(c1Local, a2Local, b2Local, mmadParams)

    def CopyOut(self, c1Local: Any) -> None:
        SetFlag[HardEvent.M_FIX](EVENT_ID0)  # L0C: M writes, FIX reads
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsV220()
        fixpipeParams.nSize = AIC_N
        fixpipeParams.mSize = AIC_M
        fixpipeParams.srcStride = CEIL_ALIGN_M
        fixpipeParams.dstStride = AIC_N
        fixpipeParams.ndNum = 1
        fixpipeParams.srcNdStride = 0
        fixpipeParams.dstNdStride = 0
        SetAtomicAdd[float32_t]()  # the AICs add their K slices' products into C
        Fixpipe(self.CCUBEGM, c1Local, fixpipeParams)
        DisableDmaAtomic()


def mmad_custom(layout: dict[str, int]) -> Any:
    @__global__
    @__mix__(1, 2)
    def mmad_custom(
        a: GmPtr[uint8_t], b: GmPtr[uint8_t], A: GmPtr[half], B: GmPtr[half], c: GmPtr[float32_t]
    ) -> None:
        InitSocState()
        op = KernelMmad(layout)
        if ASCEND_IS_AIC:
            op.InitAIC(A, B, c)
            op.ProcessAIC()
        if ASCEND_IS_AIV:
            op.InitAIV(a, b, A, B, c)
            op.ProcessAIV()
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def run_scenario2(x1: np.ndarray, x2: np.ndarray, layout: dict[str, int] = SEPARATE) -> np.ndarray:
    """Launch mmad_custom<<<8>>> on A (M x K) and B (K x N) uint8; return C (M x N float)."""
    gm = GlobalMemory()
    # the golden script stores A block-major: each AI Core's M x (K / 8) slice contiguous
    a_blocks = x1.reshape(M, NUM_BLOCKS, K // NUM_BLOCKS).transpose(1, 0, 2)
    a, b = gm.alloc(uint8_t, M * K), gm.alloc(uint8_t, K * N)
    a.write(a_blocks.reshape(-1)), b.write(x2.reshape(-1))
    a1, b1 = gm.alloc(half, M * K), gm.alloc(half, K * N)
    a1.write(np.zeros(M * K)), b1.write(np.zeros(K * N))
    c = gm.alloc(float32_t, M * N)
    c.write(np.zeros(M * N))
    mmad_custom(layout)[NUM_BLOCKS, 0, None](a, b, a1, b1, c)
    return np.asarray(c.read(M * N)).reshape(M, N)


def golden(x1: np.ndarray, x2: np.ndarray, alpha: float = 0.001) -> np.ndarray:
    product = x1.astype(np.float64) @ x2.astype(np.float64)  # exact: integers below 2**24
    return np.where(product >= 0, product, alpha * product).astype(np.float32)


def test_scenario2_matmul_leakyrelu_on_16_aivs_and_8_aics() -> None:
    rng = np.random.default_rng(9)
    x1 = rng.integers(0, 4, (M, K), dtype=np.uint8)
    x2 = rng.integers(0, 4, (K, N), dtype=np.uint8)
    np.testing.assert_array_equal(run_scenario2(x1, x2), golden(x1, x2))


def test_scenario2_with_the_golden_scripts_all_zero_data() -> None:
    """The example's own inputs: uniform(0, 1) cast to uint8 is all zeros."""
    rng = np.random.default_rng(9)
    x1 = rng.uniform(0, 1, (M, K)).astype(np.uint8)
    x2 = rng.uniform(0, 1, (K, N)).astype(np.uint8)
    assert not x1.any() and not x2.any()
    np.testing.assert_array_equal(run_scenario2(x1, x2), golden(x1, x2))


def test_example_cast_overlaps_its_input() -> None:
    """The example's castALocal starts where aLocal does but is twice as long: UB overlap."""
    ones = np.ones((M, K), np.uint8), np.ones((K, N), np.uint8)
    with pytest.raises(UndefinedBehaviourError, match=r"Cast: a later repeat reads \(src\)"):
        run_scenario2(*ones, EXAMPLE)


def test_example_l1_addresses_overlap() -> None:
    """b1LocalAddr = A_SIZE_ALIGN_L1 (bytes) puts B's first rows over rows 16..19 of A's tile."""
    ones = np.ones((M, K), np.uint8), np.ones((K, N), np.uint8)
    layout = {**SEPARATE, "b1LocalAddr": EXAMPLE["b1LocalAddr"]}
    with pytest.raises(SyncError, match=r"writes L1 \[0x200, 0x880\) that an earlier PIPE_MTE2"):
        run_scenario2(*ones, layout)


class KernelCrossCoreSetFlag:
    """The example's vector class: scenario 0 (mode 0, 16 AIVs) and 1 (mode 1, AIVs 2 and 3)."""

    def Init(self, initialData: GmPtr[Any], atomicResult: GmPtr[Any], totalLength: int) -> None:
        self.blockLength = totalLength
        self.initialDataGm, self.atomicResultGm = (
            GlobalTensor[float32_t](),
            GlobalTensor[float32_t](),
        )
        self.initialDataGm.SetGlobalBuffer(initialData.cast(float32_t), self.blockLength)
        self.atomicResultGm.SetGlobalBuffer(atomicResult.cast(float32_t), self.blockLength)

    def Process(self, scenario: int) -> None:
        if scenario == 0:
            self.ProcessMode0()
        elif scenario == 1:
            self.ProcessMode1()

    def ProcessMode0(self) -> None:
        xAddr, yAddr = 0, self.blockLength * float32_t.size
        xLocal = LocalTensor[float32_t](TPosition.VECCALC, xAddr, self.blockLength)
        yLocal = LocalTensor[float32_t](TPosition.VECCALC, yAddr, self.blockLength)
        DataCopy(xLocal, self.initialDataGm, self.blockLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        Muls(xLocal, xLocal, np.float32(GetBlockIdx()), self.blockLength)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        SetAtomicAdd[float32_t]()  # UB -> GM adds into atomicResult
        DataCopy(self.atomicResultGm, xLocal, self.blockLength)
        CrossCoreSetFlag[0, PIPE_MTE3](0)  # this AIV's MTE3 copy is done
        CrossCoreWaitFlag(0)  # until every AIV's is
        DisableDmaAtomic()
        if GetBlockIdx() == 0:
            DataCopy(yLocal, self.atomicResultGm, self.blockLength)  # PIPE_MTE2
            SetFlag[HardEvent.MTE2_MTE3](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE3](EVENT_ID0)
            DataCopy(self.atomicResultGm, yLocal, self.blockLength)
            return

    def ProcessMode1(self) -> None:
        if GetBlockIdx() == 2 or GetBlockIdx() == 3:  # the two AIVs of AI Core 1
            xAddr, yAddr = 0, self.blockLength * float32_t.size
            xLocal = LocalTensor[float32_t](TPosition.VECCALC, xAddr, self.blockLength)
            yLocal = LocalTensor[float32_t](TPosition.VECCALC, yAddr, self.blockLength)
            DataCopy(xLocal, self.initialDataGm, self.blockLength)
            SetFlag[HardEvent.MTE2_V](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
            Muls(xLocal, xLocal, np.float32(GetBlockIdx()), self.blockLength)
            SetFlag[HardEvent.V_MTE3](EVENT_ID0)
            WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
            SetAtomicAdd[float32_t]()
            DataCopy(self.atomicResultGm, xLocal, self.blockLength)
            CrossCoreSetFlag[1, PIPE_MTE3](0)
            CrossCoreWaitFlag(0)
            DisableDmaAtomic()
            if GetBlockIdx() == 2:
                DataCopy(yLocal, self.atomicResultGm, self.blockLength)
                SetFlag[HardEvent.MTE2_MTE3](EVENT_ID0)
                WaitFlag[HardEvent.MTE2_MTE3](EVENT_ID0)
                DataCopy(self.atomicResultGm, yLocal, self.blockLength)
                return


@pytest.mark.parametrize(("scenario", "factor"), [(0, sum(range(2 * NUM_BLOCKS))), (1, 2 + 3)])
def test_vector_scenarios(scenario: int, factor: int) -> None:
    """Scenario 0: z = x * (0 + 1 + ... + 15); scenario 1: z = x * (2 + 3); x all ones."""

    @__global__
    @__mix__(1, 2)
    @__aicore__
    def cross_core_set_wait_flag_custom(
        x: GmPtr[float32_t], z: GmPtr[float32_t], dataLength: int
    ) -> None:
        InitSocState()
        op = KernelCrossCoreSetFlag()
        if ASCEND_IS_AIV:
            op.Init(x, z, dataLength)
            op.Process(scenario)
        PipeBarrier[PIPE_ALL]()

    totalLength = 32
    gm = GlobalMemory()
    x, z = gm.alloc(float32_t, totalLength), gm.alloc(float32_t, totalLength)
    x.write(np.ones(totalLength, np.float32)), z.write(np.zeros(totalLength, np.float32))
    cross_core_set_wait_flag_custom[NUM_BLOCKS, 0, None](x, z, totalLength)
    np.testing.assert_array_equal(z.read(totalLength), np.full(totalLength, factor, np.float32))

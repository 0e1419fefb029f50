"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_2dv2_l12l0.

Line for line, ``KernelMmad<T, U, m, n, k, isAtranspose, isBtranspose>`` of
load_data_2dv2_l12l0.asc (m = 40, n = 50, k = 70, one ``__cube__`` block; an Ascend 950 only
example): A and B go to L1 by ``Nd2NzParams`` as they are stored (``[m, k]`` or ``[k, m]``,
``[k, n]`` or ``[n, k]``), then to L0A (NZ) and L0B (ZN) by ``LoadData2DParamsV2``,
transposing where the stored form is not the one the cube reads; ``Mmad`` and a
``Fixpipe<U, U, CFG_ROW_MAJOR>`` to ND. All seven scenarios: int8_t (1: B stored transposed;
2: A stored transposed, ``mmadParams.m`` rounded up to 32; 7: the same data, A loaded by a loop
of 2-fractal-wide transposing loads), half (3, 4) and float (5, 6).

Inputs and goldens are scripts/gen_data.py's formulas (integers 1..9 for int8_t, uniform
[1, 10) for half and float; the float32 product, cast to int32_t for int8_t) and are checked as
scripts/verify_result.py checks them (``np.isclose``, rtol 1e-6, atol 1e-9, at most 1e-4 of
the elements off); the int8_t results equal the golden element for element, the float ones the
exact product rounded once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, int8_t, int32_t, uint8_t
from ascreg.basic import (
    CFG_ROW_MAJOR,
    EVENT_ID0,
    PIPE_ALL,
    CO2Layout,
    DataCopy,
    Fixpipe,
    FixpipeParamsArch3510,
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
    __cube__,
)
from ascreg.machine.kernel import __global__

INT8_M_STEP_ALIGN = 2
M, N, K = 40, 50, 70


def CeilDivision(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelMmad:
    def __init__(self, T: Any, U: Any, scenarioNum: int, isAtranspose: bool, isBtranspose: bool):
        m, n, k = M, N, K
        self.a1Addr, self.a2Addr, self.b1Addr, self.b2Addr, self.co1Addr = 0, 0, 128 * 1024, 0, 0
        self.T, self.U, self.scenarioNum = T, U, scenarioNum
        self.isAtranspose, self.isBtranspose = isAtranspose, isBtranspose
        fs = self.fractalShape = [16, 32 // T.size]
        self.fractalNum = {1: 2, 2: 1, 4: 2}[T.size]
        fn = self.fractalNum
        if T is int8_t or T is half:
            if not isAtranspose:
                self.mAlignL1, self.kaAlignL1 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1])
                self.mAlignL0, self.kaAlignL0 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1])
            else:
                self.kaAlignL1, self.mAlignL1 = CeilAlign(k, fs[0] * fn), CeilAlign(m, fs[1])
                self.mAlignL0, self.kaAlignL0 = CeilAlign(m, fs[0] * fn), CeilAlign(k, fs[1])
            if not isBtranspose:
                self.kbAlignL1, self.nAlignL1 = CeilAlign(k, fs[0] * fn), CeilAlign(n, fs[1])
                self.kbAlignL0, self.nAlignL0 = CeilAlign(k, fs[1]), CeilAlign(n, fs[0] * fn)
            else:
                self.nAlignL1, self.kbAlignL1 = CeilAlign(n, fs[0]), CeilAlign(k, fs[1])
                self.kbAlignL0, self.nAlignL0 = CeilAlign(k, fs[1]), CeilAlign(n, fs[0])
        else:  # float
            if not isAtranspose:
                self.mAlignL1, self.kaAlignL1 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1])
                self.mAlignL0, self.kaAlignL0 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1])
            else:
                self.kaAlignL1, self.mAlignL1 = CeilAlign(k, fs[0]), CeilAlign(m, fs[1] * fn)
                self.mAlignL0, self.kaAlignL0 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1] * fn)
            if not isBtranspose:
                self.kbAlignL1, self.nAlignL1 = CeilAlign(k, fs[0]), CeilAlign(n, fs[1] * fn)
                self.kbAlignL0, self.nAlignL0 = CeilAlign(k, fs[1] * fn), CeilAlign(n, fs[0])
            else:
                self.nAlignL1, self.kbAlignL1 = CeilAlign(n, fs[0]), CeilAlign(k, fs[1])
                self.kbAlignL0, self.nAlignL0 = CeilAlign(k, fs[1]), CeilAlign(n, fs[0])
        self.aSizeAlignL1 = self.mAlignL1 * self.kaAlignL1
        self.aSizeAlignL0 = self.mAlignL0 * self.kaAlignL0
        self.bSizeAlignL1 = self.kbAlignL1 * self.nAlignL1
        self.bSizeAlignL0 = self.kbAlignL0 * self.nAlignL0
        if scenarioNum == 7:
            self.mAlignL0, self.kaAlignL0 = CeilAlign(m, fs[0]), CeilAlign(k, fs[1])
            self.aSizeAlignL0 = self.mAlignL0 * self.kaAlignL0
            self.cSizeAlignL0 = self.mAlignL0 * self.nAlignL0
        elif scenarioNum == 2:
            self.cSizeAlignL0 = self.mAlignL0 * self.nAlignL0
        else:
            self.cSizeAlignL0 = CeilAlign(m, 16) * CeilAlign(n, 16)

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM, self.cGM = (
            GlobalTensor[self.T](),
            GlobalTensor[self.T](),
            GlobalTensor[self.U](),
        )
        self.aGM.SetGlobalBuffer(a.cast(self.T))
        self.bGM.SetGlobalBuffer(b.cast(self.T))
        self.cGM.SetGlobalBuffer(c.cast(self.U))

    def Process(self) -> None:
        T, U, fs, fn = self.T, self.U, self.fractalShape, self.fractalNum
        a1Local = LocalTensor[T](TPosition.A1, self.a1Addr, self.aSizeAlignL1)
        a2Local = LocalTensor[T](TPosition.A2, self.a2Addr, self.aSizeAlignL0)
        b1Local = LocalTensor[T](TPosition.B1, self.b1Addr, self.bSizeAlignL1)
        b2Local = LocalTensor[T](TPosition.B2, self.b2Addr, self.bSizeAlignL0)
        c1Local = LocalTensor[U](TPosition.CO1, self.co1Addr, self.cSizeAlignL0)
        self.CopyInA1(a1Local)
        self.CopyInB1(b1Local)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        self.SplitA(a1Local, a2Local)
        self.SplitB(b1Local, b2Local)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        mmadParams = MmadParams()
        mmadParams.m = CeilAlign(M, fs[0] * fn) if self.scenarioNum == 2 else M
        mmadParams.n = N
        mmadParams.k = K
        Mmad(c1Local, a2Local, b2Local, mmadParams)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
        fixpipeParams.nSize = N
        fixpipeParams.mSize = M
        if self.scenarioNum == 2:
            fixpipeParams.srcStride = CeilAlign(M, fs[0] * fn)
        else:
            fixpipeParams.srcStride = CeilAlign(M, fs[0])
        fixpipeParams.dstStride = N
        Fixpipe[U, U, CFG_ROW_MAJOR](self.cGM, c1Local, fixpipeParams)

    def CopyInA1(self, a1Local: Any) -> None:
        p = Nd2NzParams()
        p.ndNum = 1
        if not self.isAtranspose:
            p.nValue, p.dValue, p.srcDValue, p.dstNzC0Stride = M, K, K, self.mAlignL1
        else:
            p.nValue, p.dValue, p.srcDValue, p.dstNzC0Stride = K, M, M, self.kaAlignL1
        p.srcNdMatrixStride, p.dstNzNStride, p.dstNzMatrixStride = 0, 1, 0
        DataCopy(a1Local, self.aGM, p)

    def CopyInB1(self, b1Local: Any) -> None:
        p = Nd2NzParams()
        p.ndNum = 1
        if not self.isBtranspose:
            p.nValue, p.dValue, p.srcDValue, p.dstNzC0Stride = K, N, N, self.kbAlignL1
        else:
            p.nValue, p.dValue, p.srcDValue, p.dstNzC0Stride = N, K, K, self.nAlignL1
        p.srcNdMatrixStride, p.dstNzNStride, p.dstNzMatrixStride = 0, 1, 0
        DataCopy(b1Local, self.bGM, p)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        fs, fn = self.fractalShape, self.fractalNum
        p = LoadData2DParamsV2()
        p.sid, p.mStartPosition, p.kStartPosition = 0, 0, 0
        if self.scenarioNum == 7:
            L0ALoopNum = CeilDivision(self.kaAlignL0, fs[0] * fn)
            p.mStep = INT8_M_STEP_ALIGN
            p.kStep = CeilDivision(self.mAlignL0, fs[1])
            p.srcStride = CeilDivision(self.kaAlignL1, fs[0])
            p.dstStride = CeilDivision(self.mAlignL0, fs[0])
            p.ifTranspose = True
            dstOffset = 0
            for loopIdx in range(L0ALoopNum):
                p.mStartPosition = INT8_M_STEP_ALIGN * loopIdx
                LoadData(a2Local[dstOffset], a1Local, p)
                dstOffset += CeilAlign(self.mAlignL0, fs[0]) * fs[1]
            return
        if not self.isAtranspose:
            p.mStep = CeilDivision(self.mAlignL1, fs[0])
            p.kStep = CeilDivision(self.kaAlignL1, fs[1])
            p.srcStride = CeilDivision(self.mAlignL1, fs[0])
            p.dstStride = CeilDivision(self.mAlignL0, fs[0])
            p.ifTranspose = False
        else:
            p.mStep = CeilDivision(self.kaAlignL1, fs[0])
            p.kStep = CeilDivision(self.mAlignL1, fs[1])
            p.srcStride = CeilDivision(self.kaAlignL1, fs[0])
            p.dstStride = CeilDivision(self.mAlignL0, fs[0])
            p.ifTranspose = True
        LoadData(a2Local, a1Local, p)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        fs = self.fractalShape
        p = LoadData2DParamsV2()
        p.mStartPosition, p.kStartPosition, p.sid = 0, 0, 0
        if self.isBtranspose:
            p.mStep = CeilDivision(self.nAlignL1, fs[0])
            p.kStep = CeilDivision(self.kbAlignL1, fs[1])
            p.srcStride = CeilDivision(self.nAlignL1, fs[0])
            p.dstStride = CeilDivision(self.nAlignL0, fs[0])
            p.ifTranspose = False
        else:
            p.mStep = CeilDivision(self.kbAlignL1, fs[0])
            p.kStep = CeilDivision(self.nAlignL1, fs[1])
            p.srcStride = CeilDivision(self.kbAlignL1, fs[0])
            p.dstStride = CeilDivision(self.nAlignL0, fs[0])
            p.ifTranspose = True
        LoadData(b2Local, b1Local, p)


SCENARIOS = {
    1: (int8_t, int32_t, False, True),
    2: (int8_t, int32_t, True, False),
    7: (int8_t, int32_t, True, False),
    3: (half, float32_t, False, True),
    4: (half, float32_t, True, False),
    5: (float32_t, float32_t, False, True),
    6: (float32_t, float32_t, True, False),
}


def make_kernel(scenarioNum: int) -> Any:
    T, U, isAtranspose, isBtranspose = SCENARIOS[scenarioNum]

    @__global__
    @__cube__
    def KernelLoadDataL12L0Load2Dv2(
        a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]
    ) -> None:
        InitSocState()  # RunKernel<KernelMmad<T, U, m, n, k, isAtranspose, isBtranspose>>
        op = KernelMmad(T, U, scenarioNum, isAtranspose, isBtranspose)
        op.Init(a, b, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return KernelLoadDataL12L0Load2Dv2


def gen_golden_data(scenarioNum: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (its np.random.seed(9) replaced by *rng*)."""
    T = SCENARIOS[scenarioNum][0]
    x1 = rng.uniform(1, 10, [M, K]).astype(T.np_dtype)
    x2 = rng.uniform(1, 10, [K, N]).astype(T.np_dtype)
    golden = np.matmul(x1.astype(np.float32), x2.astype(np.float32))
    golden = golden.astype(np.int32 if T is int8_t else np.float32)
    a_t, b_t = SCENARIOS[scenarioNum][2:]
    return {
        "x1": (x1.T if a_t else x1).copy(),
        "x2": (x2 if not b_t else x2.T).copy(),
        "golden": golden,
        "exact": x1.astype(np.float64) @ x2.astype(np.float64),
    }


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(scenarioNum: int, data: dict[str, np.ndarray]) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, M * N * 4)
    make_kernel(scenarioNum)[1, 0, None](*ptrs, c)
    return c.read(M * N * 4).view(data["golden"].dtype).reshape(M, N)


@pytest.mark.parametrize("scenarioNum", [1, 2, 3, 4, 5, 6, 7])
def test_load_data_2dv2_l12l0_against_its_golden(scenarioNum: int) -> None:
    data = gen_golden_data(scenarioNum, np.random.default_rng(9))
    output = run(scenarioNum, data)
    assert verify_result(output, data["golden"])
    if output.dtype == np.int32:
        assert np.array_equal(output, data["golden"])
    else:
        assert np.array_equal(output, data["exact"].astype(np.float32))

"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad/mmad.asc.

Line for line, the dav-3510 branches of ``KernelMmad<T, U, M, N, K, isATranspose,
isBTranspose>`` (M = 30, N = 40, K = 70, one ``__cube__`` block): GM -> L1 with ``Nd2NzParams``,
L1 -> L0A with ``LoadData2DParamsV2`` (transposing for scenario 3), L1 -> L0B with
``LoadData2DParams``, the bias L1 -> C2 with ``DataCopyParams``, ``Mmad`` into CO1 and
``Fixpipe`` with ``FixpipeParamsArch3510<ROW_MAJOR>`` to GM, ordered by the example's
``MTE2_MTE1`` / ``MTE1_M`` / ``M_FIX`` flags. Inputs and goldens are made as scripts/gen_data.py
makes them and checked as scripts/verify_result.py checks them (``np.isclose``, rtol 1e-6,
atol 1e-9, at most 1e-4 of the elements off).

Ported: scenario 1 (int8_t, B not transposed: ``LoadDataWithTranspose`` into L0B, the bias from
the bias table through ``cmatrixSource``), scenario 2 (bfloat16_t, B transposed, the second Mmad
accumulating on CO1) and scenario 3 (float, A and B transposed, bias tensor). Scenario 4 is
int4b_t, which the 950's Mmad table does not list.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, bfloat16_t, float32_t, int8_t, int32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    PIPE_ALL,
    CO2Layout,
    DataCopy,
    DataCopyParams,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LoadData,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadDataWithTranspose,
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

BLOCK_CUBE = 16
ADDR_0 = 0
M, N, K = 30, 40, 70


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelMmad:
    def __init__(self, T: Any, U: Any, scenario: int, isATranspose: bool, isBTranspose: bool):
        self.T, self.U, self.scenario = T, U, scenario
        self.isATranspose, self.isBTranspose = isATranspose, isBTranspose
        if scenario == 1:
            self.c0Size, self.fractalNum = 32, 2  # A, B not transposed
            self.aSizeAlignL1 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.aSizeAlignL0 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.bSizeAlignL1 = CeilAlign(K, BLOCK_CUBE * 2) * CeilAlign(N, self.c0Size)
            self.bSizeAlignL0 = CeilAlign(K, self.c0Size) * CeilAlign(N, BLOCK_CUBE * 2)
        elif scenario == 2:
            self.c0Size, self.fractalNum = 16, 1
            self.aSizeAlignL1 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.aSizeAlignL0 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.bSizeAlignL1 = CeilAlign(N, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.bSizeAlignL0 = CeilAlign(K, self.c0Size) * CeilAlign(N, BLOCK_CUBE)
        else:  # scenario 3
            self.c0Size, self.fractalNum = 8, 2
            self.aSizeAlignL1 = CeilAlign(K, BLOCK_CUBE) * CeilAlign(M, self.c0Size * 2)
            self.aSizeAlignL0 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(K, self.c0Size * 2)
            self.bSizeAlignL1 = CeilAlign(N, BLOCK_CUBE) * CeilAlign(K, self.c0Size)
            self.bSizeAlignL0 = CeilAlign(K, self.c0Size) * CeilAlign(N, BLOCK_CUBE)
        self.hasBias = scenario in (1, 3)
        self.fractalSize = BLOCK_CUBE * self.c0Size
        self.cSizeAlignL0 = CeilAlign(M, BLOCK_CUBE) * CeilAlign(N, BLOCK_CUBE)
        self.biasSizeAlign = CeilAlign(CeilDiv(N * T.size, 32), 2) * 32  # __NPU_ARCH__ == 3510
        self.a1Addr = ADDR_0
        self.b1Addr = self.a1Addr + self.aSizeAlignL1 * U.size
        self.c1Addr = self.a1Addr + self.b1Addr + self.bSizeAlignL1 * U.size

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], bias: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM = GlobalTensor[self.U](), GlobalTensor[self.U]()
        self.biasGM, self.cGM = GlobalTensor[self.T](), GlobalTensor[self.T]()
        self.aGM.SetGlobalBuffer(a.cast(self.U))
        self.bGM.SetGlobalBuffer(b.cast(self.U))
        self.biasGM.SetGlobalBuffer(bias.cast(self.T))
        self.cGM.SetGlobalBuffer(c.cast(self.T))

    def Process(self) -> None:
        T, U = self.T, self.U
        a1Local = LocalTensor[U](TPosition.A1, self.a1Addr, self.aSizeAlignL1)
        b1Local = LocalTensor[U](TPosition.B1, self.b1Addr, self.bSizeAlignL1)
        bias1Local = LocalTensor[T](TPosition.C1, self.c1Addr, self.biasSizeAlign // T.size)
        self.CopyIn(a1Local, b1Local, bias1Local)
        a2Local = LocalTensor[U](TPosition.A2, ADDR_0, self.aSizeAlignL0)
        if self.isATranspose:
            self.SplitATranspose(a1Local, a2Local)
        else:
            self.SplitA(a1Local, a2Local)
        b2Local = LocalTensor[U](TPosition.B2, ADDR_0, self.bSizeAlignL0)
        if not self.isBTranspose:
            self.SplitBTranspose(b1Local, b2Local)
        else:
            self.SplitB(b1Local, b2Local)
        bias2Local = LocalTensor[T](TPosition.C2, ADDR_0, self.biasSizeAlign // T.size)
        if self.hasBias:
            self.SplitBias(bias1Local, bias2Local)
        co1Local = LocalTensor[T](TPosition.CO1, ADDR_0, self.cSizeAlignL0)
        self.Compute(a2Local, b2Local, bias2Local, co1Local)
        self.CopyOut(co1Local)

    def CopyIn(self, a1Local: Any, b1Local: Any, bias1Local: Any) -> None:
        if self.isATranspose:  # ND -> Nz
            DataCopy(a1Local, self.aGM, Nd2NzParams(1, K, M, 0, M, CeilAlign(K, BLOCK_CUBE), 1, 0))
        else:
            DataCopy(a1Local, self.aGM, Nd2NzParams(1, M, K, 0, K, CeilAlign(M, BLOCK_CUBE), 1, 0))
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        if self.isBTranspose:
            p = Nd2NzParams(1, N, K, 0, K, CeilAlign(N, BLOCK_CUBE), 1, 0)
        else:
            p = Nd2NzParams(1, K, N, 0, N, CeilAlign(K, BLOCK_CUBE * self.fractalNum), 1, 0)
        DataCopy(b1Local, self.bGM, p)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        if self.hasBias:
            DataCopy(bias1Local, self.biasGM, Nd2NzParams(1, 1, N, 0, N, 1, 1, 0))
            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID2)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        p = LoadData2DParamsV2()
        p.mStartPosition, p.kStartPosition = 0, 0
        p.mStep, p.kStep = CeilDiv(M, BLOCK_CUBE), CeilDiv(K, self.c0Size)
        p.srcStride, p.dstStride = CeilDiv(M, BLOCK_CUBE), CeilDiv(M, BLOCK_CUBE)
        p.ifTranspose = False
        LoadData(a2Local, a1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitATranspose(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        p = LoadData2DParamsV2()
        p.mStartPosition, p.kStartPosition = 0, 0
        p.mStep = CeilDiv(K, BLOCK_CUBE)
        p.kStep = CeilAlign(CeilDiv(M, self.c0Size), 2)
        p.srcStride = CeilDiv(K, BLOCK_CUBE)
        p.dstStride = CeilDiv(M, self.c0Size * self.fractalNum)
        p.ifTranspose = True
        LoadData(a2Local, a1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        p = LoadData2DParams()
        p.repeatTimes = CeilDiv(N, BLOCK_CUBE) * CeilDiv(K, self.c0Size)
        p.srcStride, p.dstGap, p.ifTranspose = 1, 0, False
        LoadData(b2Local, b1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def SplitBTranspose(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        fractalNum = self.fractalNum
        dstOffset = CeilDiv(N, BLOCK_CUBE * fractalNum) * self.fractalSize * fractalNum
        srcOffset = self.fractalSize * fractalNum
        p = LoadData2dTransposeParams()
        p.startIndex = 0
        p.repeatTimes = CeilDiv(N, self.c0Size)
        p.srcStride = CeilDiv(K, BLOCK_CUBE * fractalNum)
        p.dstGap, p.dstFracGap = 1, 0
        for i in range(CeilDiv(K, BLOCK_CUBE * fractalNum)):
            LoadDataWithTranspose(b2Local[i * dstOffset], b1Local[i * srcOffset], p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def SplitBias(self, bias1Local: Any, bias2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID2)
        DataCopy(bias2Local, bias1Local, DataCopyParams(1, self.biasSizeAlign // 32, 0, 0))
        SetFlag[HardEvent.MTE1_M](EVENT_ID2)

    def Compute(self, a2Local: Any, b2Local: Any, bias2Local: Any, co1Local: Any) -> None:
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID1)
        p = MmadParams()
        p.m, p.n, p.k = M, N, K
        if self.U is int8_t and not self.isBTranspose:
            p.n = CeilAlign(N, BLOCK_CUBE * self.fractalNum)
        if self.U is float32_t and self.isATranspose:
            p.kDirectionAlign = True
        if self.scenario == 1:  # the bias comes from C2 (cmatrixSource), no bias tensor
            p.cmatrixInitVal, p.cmatrixSource = False, True
            WaitFlag[HardEvent.MTE1_M](EVENT_ID2)
            Mmad(co1Local, a2Local, b2Local, p)
        elif self.scenario == 2:  # no bias: the second Mmad accumulates on CO1
            Mmad(co1Local, a2Local, b2Local, p)
            p.cmatrixInitVal, p.cmatrixSource = False, False
            Mmad(co1Local, a2Local, b2Local, p)
        else:  # scenario 3: the bias tensor form
            p.cmatrixInitVal = False
            WaitFlag[HardEvent.MTE1_M](EVENT_ID2)
            Mmad(co1Local, a2Local, b2Local, bias2Local, p)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)

    def CopyOut(self, co1Local: Any) -> None:
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
        p.mSize, p.nSize = M, N
        p.srcStride, p.dstStride = CeilAlign(M, BLOCK_CUBE), N
        Fixpipe(self.cGM, co1Local, p)


SCENARIOS = {
    1: (int32_t, int8_t, False, False),
    2: (float32_t, bfloat16_t, False, True),
    3: (float32_t, float32_t, True, True),
}


def make_kernel(scenario: int) -> Any:
    @__global__
    @__cube__
    def mmad_custom(
        a: GmPtr[uint8_t], b: GmPtr[uint8_t], bias: GmPtr[uint8_t], c: GmPtr[uint8_t]
    ) -> None:
        InitSocState()
        op = KernelMmad(*SCENARIOS[scenario][:2], scenario, *SCENARIOS[scenario][2:])
        op.Init(a, b, bias, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def gen_golden_data(scenario: int, rng: np.random.Generator) -> dict[str, Any]:
    """scripts/gen_data.py's scenarios 1-3 (numpy's legacy global RNG replaced by *rng*)."""
    if scenario == 1:
        x1 = rng.integers(1, 10, [M, K]).astype(np.int8)
        x2 = rng.integers(1, 10, [K, N]).astype(np.int8)
        bias = rng.integers(1, 10, [N]).astype(np.int32)
        golden = np.matmul(x1.astype(np.int32), x2.astype(np.int32)).astype(np.int32) + bias
        return {"x1": x1, "x2": x2, "bias": bias, "golden": golden}
    if scenario == 2:
        x1 = rng.uniform(1, 10, [M, K]).astype(ml_dtypes.bfloat16)
        x2 = rng.uniform(1, 10, [K, N]).astype(ml_dtypes.bfloat16)
        golden = np.matmul(x1.astype(np.float32), x2.astype(np.float32)).astype(np.float32) * 2
        return {"x1": x1, "x2": x2.transpose().copy(), "bias": None, "golden": golden}
    x1 = rng.uniform(1, 10, [M, K]).astype(np.float32)
    x2 = rng.uniform(1, 10, [K, N]).astype(np.float32)
    bias = rng.uniform(1, 10, [N]).astype(np.float32)
    golden = np.matmul(x1, x2).astype(np.float32) + bias
    return {
        "x1": x1.transpose().copy(),
        "x2": x2.transpose().copy(),
        "bias": bias,
        "golden": golden,
    }


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    output = output.view(golden.dtype)
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(scenario: int, data: dict[str, Any]) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2", "bias"):
        host = np.zeros(N, np.float32) if data[key] is None else data[key]
        ptr = gm.alloc(uint8_t, host.nbytes)
        ptr.write(np.ascontiguousarray(host).view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, M * N * 4)
    make_kernel(scenario)[1, 0, None](*ptrs, c)
    return c.read(M * N * 4).view(np.float32).reshape(M, N)


def test_int8_scenario_against_its_golden() -> None:
    data = gen_golden_data(1, np.random.default_rng(1))
    output = run(1, data).view(np.int32)
    assert verify_result(output, data["golden"])
    assert np.array_equal(output, data["golden"])  # int8 is exact


@pytest.mark.parametrize("scenario", [2, 3])
def test_mmad_example_against_its_golden(scenario: int) -> None:
    data = gen_golden_data(scenario, np.random.default_rng(scenario))
    output = run(scenario, data)
    assert verify_result(output, data["golden"])
    # and within the documented accumulation model of the exact result
    x1, x2 = data["x1"].astype(np.float64), data["x2"].astype(np.float64)
    a, bt = (x1.T, x2) if scenario == 3 else (x1, x2)
    exact = (a @ bt.T) * (2 if scenario == 2 else 1)
    if data["bias"] is not None:
        exact = exact + data["bias"].astype(np.float64)
    assert np.all(np.abs(output - exact) <= np.spacing(np.abs(exact).astype(np.float32)))

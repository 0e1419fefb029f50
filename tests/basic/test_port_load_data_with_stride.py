"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_with_stride.

Line for line, ``KernelLoadData<T, U, m, n, k, isAtranspose>`` of load_data_with_stride.asc
(m = 30, n = 70, k = 40, one ``__cube__`` block; an Ascend 950 only example): A and B go to L1
by ``Nd2NzParams`` and from there to L0A and L0B by ``LoadDataWithStride``, each L1 tile read as
a feature map one pixel high (``l1H`` 1) with ``SetLoadDataRepeatWithStride`` giving the
destination's K-block distance; A stored ``[k, m]`` is loaded with ``enTranspose``; ``Mmad``
and a ``FixpipeParamsArch3510<ROW_MAJOR>`` move to ND. All six scenarios: int8_t (1, 2), half
(3, 4) and float (5, 6), A stored ``[m, k]`` in the odd ones and ``[k, m]`` in the even ones.

ascreg finds that scenarios 1 and 2 load int8_t B into L0B with ``LoadDataWithStride``, whose
page lists half, bfloat16_t, int32_t, uint32_t and float only for the L1 -> L0B path (the
example's own ``load3d.py`` model has no 8-bit L0B layout either): a test keeps that spelling
and asserts the report; their results come from the corrected kernel, which loads B with the
transposing ``LoadData2DParamsV2`` of the load_data_2dv2_l12l0 example (its only change).

Inputs and goldens are scripts/gen_data.py's formulas (integers 1..9 for int8_t, uniform
[1, 10) for half and float) and are checked as scripts/verify_result.py checks them
(``np.isclose``, rtol 1e-4, atol 1e-7, at most 1e-4 of the elements off); the int8_t results
equal the golden element for element, the float ones the exact product rounded once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, int8_t, int32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    EVENT_ID1,
    CO2Layout,
    DataCopy,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LoadData,
    LoadData2DParamsV2,
    LoadData3DParamsV2,
    LoadDataRepeatParamWithStride,
    LoadDataWithStride,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    SetFlag,
    SetLoadDataRepeatWithStride,
    TPosition,
    WaitFlag,
    __cube__,
)
from ascreg.errors import AscregTypeError
from ascreg.machine.kernel import __global__

BLOCK_CUBE = 16
ADDR_0 = 0
M, K, N = 30, 40, 70


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelLoadData:
    def __init__(self, T: Any, U: Any, isAtranspose: bool, corrected: bool) -> None:
        m, n, k = M, N, K
        self.T, self.U, self.isAtranspose, self.corrected = T, U, isAtranspose, corrected
        self.fractalShape = [16, 32 // T.size]
        self.fractalSize = 16 * self.fractalShape[1]
        self.fractalNum = 1 if T.size == 2 else 2
        c0Size = self.c0Size = self.fractalShape[1]
        fn = self.fractalNum
        self.int8 = T is int8_t and U is int32_t
        if self.int8:
            if not isAtranspose:
                self.aSizeAlignL1 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            else:
                self.aSizeAlignL1 = CeilAlign(k, BLOCK_CUBE * fn) * CeilAlign(m, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE * fn) * CeilAlign(k, c0Size)
            self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE * fn) * CeilAlign(n, c0Size)
            self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE * fn)
        elif T is half:
            if not isAtranspose:
                self.aSizeAlignL1 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            else:
                self.aSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(m, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
            self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE)
        else:  # float
            if not isAtranspose:
                self.aSizeAlignL1 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            else:
                self.aSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(m, c0Size * fn)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size * fn)
            self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
            self.bSizeAlignL0 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
        self.cSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(n, BLOCK_CUBE)
        self.a1Addr = ADDR_0
        self.b1Addr = self.a1Addr + self.aSizeAlignL1 * T.size

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM = GlobalTensor[self.T](), GlobalTensor[self.T]()
        self.cGM = GlobalTensor[self.U]()
        self.aGM.SetGlobalBuffer(a.cast(self.T))
        self.bGM.SetGlobalBuffer(b.cast(self.T))
        self.cGM.SetGlobalBuffer(c.cast(self.U))

    def Process(self) -> None:
        T, U = self.T, self.U
        a1Local = LocalTensor[T](TPosition.A1, self.a1Addr, self.aSizeAlignL1)
        b1Local = LocalTensor[T](TPosition.B1, self.b1Addr, self.bSizeAlignL1)
        self.CopyIn(a1Local, b1Local)
        a2Local = LocalTensor[T](TPosition.A2, ADDR_0, self.aSizeAlignL0)
        if not self.isAtranspose:
            self.SplitALoadDataWithStride(a1Local, a2Local)
        else:
            self.SplitATransposeLoadDataWithStride(a1Local, a2Local)
        b2Local = LocalTensor[T](TPosition.B2, ADDR_0, self.bSizeAlignL0)
        if self.corrected and self.int8:
            self.SplitBLoad2dV2(b1Local, b2Local)
        else:
            self.SplitBLoadDataWithStride(b1Local, b2Local)
        co1Local = LocalTensor[U](TPosition.CO1, ADDR_0, self.cSizeAlignL0)
        self.Compute(a2Local, b2Local, co1Local)
        self.CopyOut(co1Local)

    def CopyIn(self, a1Local: Any, b1Local: Any) -> None:
        fn = self.fractalNum
        p = Nd2NzParams()
        p.ndNum = 1
        if not self.isAtranspose:
            p.nValue, p.dValue, p.srcDValue = M, K, K
            p.dstNzC0Stride = CeilAlign(M, BLOCK_CUBE)
        else:
            p.nValue, p.dValue, p.srcDValue = K, M, M
            p.dstNzC0Stride = (
                CeilAlign(K, BLOCK_CUBE * fn) if self.int8 else CeilAlign(K, BLOCK_CUBE)
            )
        p.srcNdMatrixStride, p.dstNzNStride, p.dstNzMatrixStride = 0, 1, 0
        DataCopy(a1Local, self.aGM, p)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)

        q = Nd2NzParams()
        q.ndNum, q.nValue, q.dValue, q.srcNdMatrixStride, q.srcDValue = 1, K, N, 0, N
        q.dstNzC0Stride = CeilAlign(K, BLOCK_CUBE * fn) if self.int8 else CeilAlign(K, BLOCK_CUBE)
        q.dstNzNStride, q.dstNzMatrixStride = 1, 0
        DataCopy(b1Local, self.bGM, q)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID1)

    def _params(self, l1W: int, channels: int, rows: int, enTranspose: bool) -> Any:
        """The example's LoadData3DParamsV2: a feature map 1 pixel high, a 1 x 1 kernel."""
        p = LoadData3DParamsV2[self.T]()
        p.l1H = 1  # 2D data: one pixel high
        p.l1W = l1W
        p.channelSize = channels
        p.kExtension = channels
        p.mExtension = rows
        p.strideW, p.strideH, p.filterW, p.filterH = 1, 1, 1, 1
        p.dilationFilterW, p.dilationFilterH = 1, 1
        p.filterSizeW, p.filterSizeH = False, False
        p.enTranspose = enTranspose
        p.fMatrixCtrl = False
        return p

    def SplitALoadDataWithStride(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        c0 = self.c0Size
        p = self._params(
            CeilAlign(M, BLOCK_CUBE), CeilAlign(K, c0), CeilAlign(M, BLOCK_CUBE), False
        )
        repeatParams = LoadDataRepeatParamWithStride()
        repeatParams.dstStride = CeilDiv(CeilAlign(M, BLOCK_CUBE), BLOCK_CUBE)
        SetLoadDataRepeatWithStride(repeatParams)
        LoadDataWithStride(a2Local, a1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitATransposeLoadDataWithStride(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        c0 = self.c0Size
        p = self._params(CeilAlign(K, BLOCK_CUBE), CeilAlign(M, c0), CeilAlign(K, BLOCK_CUBE), True)
        if self.int8:
            p.l1W = CeilAlign(K, BLOCK_CUBE * self.fractalNum)
            p.mExtension = CeilAlign(K, BLOCK_CUBE * self.fractalNum)
        repeatParams = LoadDataRepeatParamWithStride()
        repeatParams.dstStride = CeilDiv(CeilAlign(M, c0), BLOCK_CUBE)  # by kExtension
        SetLoadDataRepeatWithStride(repeatParams)
        LoadDataWithStride(a2Local, a1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitBLoadDataWithStride(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        c0 = self.c0Size
        p = self._params(CeilAlign(K, BLOCK_CUBE), CeilAlign(N, c0), CeilAlign(K, BLOCK_CUBE), True)
        if self.int8:
            p.l1W = CeilAlign(K, BLOCK_CUBE * self.fractalNum)
            p.mExtension = CeilAlign(K, BLOCK_CUBE * self.fractalNum)
        repeatParams = LoadDataRepeatParamWithStride()
        repeatParams.dstStride = CeilDiv(CeilAlign(N, c0), BLOCK_CUBE)
        SetLoadDataRepeatWithStride(repeatParams)
        LoadDataWithStride(b2Local, b1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def SplitBLoad2dV2(self, b1Local: Any, b2Local: Any) -> None:
        """The correction for int8_t B: load_data_2dv2_l12l0's transposing 2D load."""
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        fs, fn = self.fractalShape, self.fractalNum
        kbAlignL1, nAlignL1 = CeilAlign(K, fs[0] * fn), CeilAlign(N, fs[1])
        nAlignL0 = CeilAlign(N, fs[0] * fn)
        p = LoadData2DParamsV2()
        p.mStep, p.kStep = CeilDiv(kbAlignL1, fs[0]), CeilDiv(nAlignL1, fs[1])
        p.srcStride, p.dstStride = CeilDiv(kbAlignL1, fs[0]), CeilDiv(nAlignL0, fs[0])
        p.ifTranspose = True
        LoadData(b2Local, b1Local, p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def Compute(self, a2Local: Any, b2Local: Any, co1Local: Any) -> None:
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID1)
        mmadParams = MmadParams()
        mmadParams.m = M
        mmadParams.n = CeilAlign(N, BLOCK_CUBE * self.fractalNum) if self.int8 else N
        mmadParams.k = K
        mmadParams.cmatrixInitVal = True
        Mmad(co1Local, a2Local, b2Local, mmadParams)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)

    def CopyOut(self, co1Local: Any) -> None:
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
        fixpipeParams.mSize = M
        fixpipeParams.nSize = N
        fixpipeParams.srcStride = CeilAlign(M, BLOCK_CUBE)
        fixpipeParams.dstStride = N
        Fixpipe(self.cGM, co1Local, fixpipeParams)


SCENARIOS = {
    1: (int8_t, int32_t, False),
    2: (int8_t, int32_t, True),
    3: (half, float32_t, False),
    4: (half, float32_t, True),
    5: (float32_t, float32_t, False),
    6: (float32_t, float32_t, True),
}


def make_kernel(scenarioNum: int, corrected: bool) -> Any:
    @__global__
    @__cube__
    def load_data_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelLoadData(*SCENARIOS[scenarioNum], corrected)
        op.Init(a, b, c)
        op.Process()

    return load_data_custom


def gen_golden_data(scenarioNum: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (its np.random.seed(9) replaced by *rng*)."""
    T = SCENARIOS[scenarioNum][0]
    if T is int8_t:
        x1 = rng.integers(1, 10, [M, K]).astype(np.int8)
        x2 = rng.integers(1, 10, [K, N]).astype(np.int8)
        golden = np.matmul(x1.astype(np.int32), x2.astype(np.int32))
    else:
        x1 = rng.uniform(1, 10, [M, K]).astype(T.np_dtype)
        x2 = rng.uniform(1, 10, [K, N]).astype(T.np_dtype)
        golden = np.matmul(x1.astype(np.float32), x2.astype(np.float32)).astype(np.float32)
    return {
        "x1": (x1.T if SCENARIOS[scenarioNum][2] else x1).copy(),
        "x2": x2,
        "golden": golden,
        "exact": x1.astype(np.float64) @ x2.astype(np.float64),
    }


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-4, atol 1e-7), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-4, atol=1e-7, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(scenarioNum: int, data: dict[str, np.ndarray], corrected: bool = True) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, M * N * 4)
    make_kernel(scenarioNum, corrected)[1, 0, None](*ptrs, c)
    return c.read(M * N * 4).view(data["golden"].dtype).reshape(M, N)


@pytest.mark.parametrize("scenarioNum", [1, 2, 3, 4, 5, 6])
def test_load_data_with_stride_against_its_golden(scenarioNum: int) -> None:
    data = gen_golden_data(scenarioNum, np.random.default_rng(9))
    output = run(scenarioNum, data)
    assert verify_result(output, data["golden"])
    if output.dtype == np.int32:
        assert np.array_equal(output, data["golden"])
    else:
        assert np.array_equal(output, data["exact"].astype(np.float32))


@pytest.mark.parametrize("scenarioNum", [1, 2])
def test_the_example_loads_int8_b_into_l0b_which_the_page_does_not_list(scenarioNum: int) -> None:
    data = gen_golden_data(scenarioNum, np.random.default_rng(1))
    with pytest.raises(AscregTypeError, match=r"img2col load to L0B \(B2\) takes half, .*int8_t"):
        run(scenarioNum, data, corrected=False)

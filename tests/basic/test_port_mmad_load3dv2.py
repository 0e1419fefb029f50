"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_load3dv2.

Line for line, the dav-3510 branches of ``KernelMmad<T, U, m, n, k, isAtranspose,
isBtranspose>`` of mmad_load3dv2.asc (m = 30, n = 70, k = 40, one ``__cube__`` block): A goes
to L0A and, unless stored transposed, B to L0B by the img2col load of the 950
(``LoadDataWithStride`` after ``SetLoadDataRepeatWithStride``; the L1 tiles read as feature
maps one pixel high, A stored ``[k, m]`` loaded with ``enTranspose``); B stored ``[n, k]``
goes by ``LoadData2DParams``, one call per K block; ``Mmad`` (``kDirectionAlign`` for a
transposed float A) and a ``FixpipeParamsArch3510<ROW_MAJOR>`` move to ND. All five scenarios:
half (1: A ``[m, k]``; 2: A ``[k, m]``), float (3, 4 likewise) and int8_t (5: B ``[n, k]``).

Inputs and goldens are scripts/gen_data.py's formulas (uniform [1, 10) cast to the type; the
float32 product, cast to int32_t for int8_t) and are checked as scripts/verify_result.py
checks them (``np.isclose``, rtol 1e-6, atol 1e-9, at most 1e-4 of the elements off); the
int8_t result equals the golden element for element, the float ones the exact product rounded
once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, int8_t, int32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    EVENT_ID1,
    PIPE_ALL,
    CO2Layout,
    DataCopy,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LoadData,
    LoadData2DParams,
    LoadData3DParamsV2,
    LoadDataRepeatParamWithStride,
    LoadDataWithStride,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    PipeBarrier,
    SetFlag,
    SetLoadDataRepeatWithStride,
    TPosition,
    WaitFlag,
    __cube__,
)
from ascreg.machine.kernel import __global__

BLOCK_CUBE = 16
ADDR_0 = 0
M, N, K = 30, 70, 40


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelMmad:
    def __init__(self, T: Any, U: Any, isAtranspose: bool, isBtranspose: bool) -> None:
        m, n, k = M, N, K
        self.T, self.U, self.isAtranspose, self.isBtranspose = T, U, isAtranspose, isBtranspose
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
            if not isBtranspose:
                self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE * fn) * CeilAlign(n, c0Size)
                self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE * fn)
            else:
                self.bSizeAlignL1 = CeilAlign(n, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE)
        elif T is half:
            if not isAtranspose:
                self.aSizeAlignL1 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            else:
                self.aSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(m, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            if not isBtranspose:
                self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
            else:
                self.bSizeAlignL1 = CeilAlign(n, BLOCK_CUBE) * CeilAlign(k, c0Size)
            self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE)
        else:  # float
            if not isAtranspose:
                self.aSizeAlignL1 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size)
            else:
                self.aSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(m, c0Size * fn)
                self.aSizeAlignL0 = CeilAlign(m, BLOCK_CUBE) * CeilAlign(k, c0Size * fn)
            if not isBtranspose:
                self.bSizeAlignL1 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
                self.bSizeAlignL0 = CeilAlign(k, BLOCK_CUBE) * CeilAlign(n, c0Size)
            else:
                self.bSizeAlignL1 = CeilAlign(n, BLOCK_CUBE) * CeilAlign(k, c0Size)
                self.bSizeAlignL0 = CeilAlign(k, c0Size) * CeilAlign(n, BLOCK_CUBE)
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
            self.SplitALoad3Dv2(a1Local, a2Local)
        else:
            self.SplitATransposeLoad3Dv2(a1Local, a2Local)
        b2Local = LocalTensor[T](TPosition.B2, ADDR_0, self.bSizeAlignL0)
        if not self.isBtranspose:
            self.SplitBTransposeLoad3Dv2(b1Local, b2Local)
        else:
            self.SplitB(b1Local, b2Local)
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
        q.ndNum = 1
        if not self.isBtranspose:
            q.nValue, q.dValue, q.srcDValue = K, N, N
            q.dstNzC0Stride = (
                CeilAlign(K, BLOCK_CUBE * fn) if self.int8 else CeilAlign(K, BLOCK_CUBE)
            )
        else:
            q.nValue, q.dValue, q.srcDValue = N, K, K
            q.dstNzC0Stride = CeilAlign(N, BLOCK_CUBE)
        q.srcNdMatrixStride, q.dstNzNStride, q.dstNzMatrixStride = 0, 1, 0
        DataCopy(b1Local, self.bGM, q)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID1)

    def _load3dv2(
        self, dst: Any, src: Any, sizes: tuple[int, int, int], en: bool, dst_stride: int
    ) -> None:
        """The example's LoadData3DParamsV2 (1 pixel high, 1 x 1 kernel) and its 3510 branch."""
        l1W, channels, rows = sizes
        p = LoadData3DParamsV2[self.T]()
        p.l1H = 1
        p.l1W = l1W
        p.channelSize = channels
        p.kExtension = channels
        p.mExtension = rows
        p.strideW, p.strideH, p.filterW, p.filterH = 1, 1, 1, 1
        p.dilationFilterW, p.dilationFilterH = 1, 1
        p.filterSizeW, p.filterSizeH = False, False
        p.enTranspose = en
        p.fMatrixCtrl = False
        repeatParams = LoadDataRepeatParamWithStride()  # __NPU_ARCH__ == 3510
        repeatParams.repeatTime = 1
        repeatParams.repeatStride = 1
        repeatParams.repeatMode = 0
        repeatParams.dstStride = dst_stride
        SetLoadDataRepeatWithStride(repeatParams)
        LoadDataWithStride(dst, src, p)

    def SplitALoad3Dv2(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        sizes = (CeilAlign(M, BLOCK_CUBE), CeilAlign(K, self.c0Size), CeilAlign(M, BLOCK_CUBE))
        self._load3dv2(a2Local, a1Local, sizes, False, CeilDiv(M, BLOCK_CUBE))
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitATransposeLoad3Dv2(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        c0, fn = self.c0Size, self.fractalNum
        sizes = (CeilAlign(K, BLOCK_CUBE), CeilAlign(M, c0), CeilAlign(K, c0 * fn))
        self._load3dv2(a2Local, a1Local, sizes, True, CeilDiv(M, BLOCK_CUBE))
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitBTransposeLoad3Dv2(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        sizes = (CeilAlign(K, BLOCK_CUBE), CeilAlign(N, self.c0Size), CeilAlign(K, BLOCK_CUBE))
        self._load3dv2(b2Local, b1Local, sizes, True, CeilDiv(N, BLOCK_CUBE))
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        dstOffset = CeilDiv(N, BLOCK_CUBE) * self.fractalSize
        srcOffset = CeilDiv(N, BLOCK_CUBE) * self.fractalSize
        p = LoadData2DParams()
        p.startIndex = 0
        p.repeatTimes = CeilDiv(N, BLOCK_CUBE)
        p.srcStride = 1
        p.dstGap = 0
        p.ifTranspose = False
        for i in range(CeilDiv(K, self.c0Size)):
            LoadData(b2Local[i * dstOffset], b1Local[i * srcOffset], p)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def Compute(self, a2Local: Any, b2Local: Any, co1Local: Any) -> None:
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID1)
        mmadParams = MmadParams()
        mmadParams.m = M
        mmadParams.n = N
        mmadParams.k = K
        mmadParams.cmatrixInitVal = True
        if self.T is float32_t and self.U is float32_t and self.isAtranspose:
            mmadParams.kDirectionAlign = True
        Mmad(co1Local, a2Local, b2Local, mmadParams)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)

    def CopyOut(self, co1Local: Any) -> None:
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()  # __NPU_ARCH__ == 3510
        fixpipeParams.mSize = M
        fixpipeParams.nSize = N
        fixpipeParams.srcStride = CeilAlign(M, BLOCK_CUBE)
        fixpipeParams.dstStride = N
        Fixpipe(self.cGM, co1Local, fixpipeParams)


SCENARIOS = {
    1: (half, float32_t, False, False),
    2: (half, float32_t, True, False),
    3: (float32_t, float32_t, False, False),
    4: (float32_t, float32_t, True, False),
    5: (int8_t, int32_t, False, True),
}


def make_kernel(scenarioNum: int) -> Any:
    @__global__
    @__cube__
    def mmad_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelMmad(*SCENARIOS[scenarioNum])
        op.Init(a, b, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def gen_golden_data(scenarioNum: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (its np.random.seed(9) replaced by *rng*)."""
    T, U, a_t, b_t = SCENARIOS[scenarioNum]
    x1 = rng.uniform(1, 10, [M, K]).astype(T.np_dtype)
    x2 = rng.uniform(1, 10, [K, N]).astype(T.np_dtype)
    golden = np.matmul(x1.astype(np.float32), x2.astype(np.float32)).astype(U.np_dtype)
    return {
        "x1": (x1.T if a_t else x1).copy(),
        "x2": (x2.T if b_t else x2).copy(),
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


@pytest.mark.parametrize("scenarioNum", [1, 2, 3, 4, 5])
def test_mmad_load3dv2_against_its_golden(scenarioNum: int) -> None:
    data = gen_golden_data(scenarioNum, np.random.default_rng(9))
    output = run(scenarioNum, data)
    assert verify_result(output, data["golden"])
    if output.dtype == np.int32:
        assert np.array_equal(output, data["golden"])
    else:
        assert np.array_equal(output, data["exact"].astype(np.float32))

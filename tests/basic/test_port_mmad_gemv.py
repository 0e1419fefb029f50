"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_gemv/mmad_gemv.asc.

Line for line, the dav-3510 branches of ``KernelMmad<float, half, N, K>`` (M = 1, N = 32,
K = 256, one ``__cube__`` block), built both ways the example's ``DISABLE_GEMV`` switch builds
it: 0 (the default) keeps A a vector in L1 (``dstNzC0Stride`` 1) and loads it to L0A as whole
512-byte fractals (``mStep`` 1, ``kStep`` ``CeilDiv(K, FRACTAL_SIZE)``) so ``Mmad`` with
``m == 1`` reads it as one ND row (GEMV); 1 lays A out NZ (the 1 x K row padded to 16 rows) and
sets ``mmadParams.disableGemv``. B is stored N x K (``x2_gm.transpose()``) and loaded ZN with
``LoadData2DParamsV2``; C leaves through ``FixpipeParamsArch3510<ROW_MAJOR>``.

Inputs and the golden are scripts/gen_data.py's formula (half in [1, 10), the float32 product)
and are checked as scripts/verify_result.py checks them (``np.isclose``, rtol 1e-6, atol 1e-9,
at most 1e-4 of the elements off), then against the documented accumulation model.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, uint8_t
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

M = 1
BLOCK_CUBE = 16
ADDR_0 = 0
N, K = 32, 256


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelMmad:
    def __init__(self, T: Any, U: Any, disable_gemv: bool) -> None:
        self.T, self.U, self.DISABLE_GEMV = T, U, disable_gemv
        self.C0_SIZE = 32 // U.size
        self.FRACTAL_SIZE = BLOCK_CUBE * self.C0_SIZE
        if disable_gemv:  # M aligned to 16, K to C0_SIZE
            self.aSizeAlign = BLOCK_CUBE * CeilAlign(K, self.C0_SIZE)
        else:  # GEMV: M = 1, K aligned to a fractal (512 bytes)
            self.aSizeAlign = CeilAlign(K, self.FRACTAL_SIZE)
        self.bSizeAlign = CeilAlign(K, self.C0_SIZE) * CeilAlign(N, BLOCK_CUBE)
        self.cSizeAlign = BLOCK_CUBE * CeilAlign(N, BLOCK_CUBE)
        self.a1Addr = ADDR_0
        self.b1Addr = self.a1Addr + self.aSizeAlign * U.size

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM, self.cGM = (
            GlobalTensor[self.U](),
            GlobalTensor[self.U](),
            GlobalTensor[self.T](),
        )
        self.aGM.SetGlobalBuffer(a.cast(self.U))
        self.bGM.SetGlobalBuffer(b.cast(self.U))
        self.cGM.SetGlobalBuffer(c.cast(self.T))

    def Process(self) -> None:
        a1Local = LocalTensor[self.U](TPosition.A1, self.a1Addr, self.aSizeAlign)
        b1Local = LocalTensor[self.U](TPosition.B1, self.b1Addr, self.bSizeAlign)
        self.CopyIn(a1Local, b1Local)
        a2Local = LocalTensor[self.U](TPosition.A2, ADDR_0, self.aSizeAlign)
        self.SplitA(a1Local, a2Local)
        b2Local = LocalTensor[self.U](TPosition.B2, ADDR_0, self.bSizeAlign)
        self.SplitB(b1Local, b2Local)
        co1Local = LocalTensor[self.T](TPosition.CO1, ADDR_0, self.cSizeAlign)
        self.Compute(a2Local, b2Local, co1Local)
        self.CopyOut(co1Local)

    def CopyIn(self, a1Local: Any, b1Local: Any) -> None:
        nd2nzA1Params = Nd2NzParams()
        nd2nzA1Params.ndNum = 1
        nd2nzA1Params.nValue = M
        nd2nzA1Params.dValue = K
        nd2nzA1Params.srcNdMatrixStride = 0
        nd2nzA1Params.srcDValue = K
        nd2nzA1Params.dstNzC0Stride = BLOCK_CUBE if self.DISABLE_GEMV else 1  # Nz / a vector
        nd2nzA1Params.dstNzNStride = 1
        nd2nzA1Params.dstNzMatrixStride = 0
        DataCopy(a1Local, self.aGM, nd2nzA1Params)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)

        nd2nzB1Params = Nd2NzParams()
        nd2nzB1Params.ndNum = 1
        nd2nzB1Params.nValue = N
        nd2nzB1Params.dValue = K
        nd2nzB1Params.srcNdMatrixStride = 0
        nd2nzB1Params.srcDValue = K
        nd2nzB1Params.dstNzC0Stride = CeilAlign(N, BLOCK_CUBE)
        nd2nzB1Params.dstNzNStride = 1
        nd2nzB1Params.dstNzMatrixStride = 0
        DataCopy(b1Local, self.bGM, nd2nzB1Params)
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID1)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        loadDataParams = LoadData2DParamsV2()  # __NPU_ARCH__ == 3510: A2 is Nz
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        if self.DISABLE_GEMV:
            loadDataParams.mStep = CeilDiv(M, BLOCK_CUBE)
            loadDataParams.kStep = CeilDiv(K, self.C0_SIZE)
        else:
            loadDataParams.mStep = 1
            loadDataParams.kStep = CeilDiv(K, self.FRACTAL_SIZE)
        loadDataParams.srcStride = 1
        loadDataParams.dstStride = 1
        loadDataParams.ifTranspose = False
        LoadData(a2Local, a1Local, loadDataParams)
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID1)
        loadDataParams = LoadData2DParamsV2()  # B2 is Zn
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        loadDataParams.mStep = CeilDiv(N, BLOCK_CUBE)
        loadDataParams.kStep = CeilDiv(K, self.C0_SIZE)
        loadDataParams.srcStride = CeilDiv(N, BLOCK_CUBE)
        loadDataParams.dstStride = CeilDiv(N, BLOCK_CUBE)
        loadDataParams.ifTranspose = False
        LoadData(b2Local, b1Local, loadDataParams)
        SetFlag[HardEvent.MTE1_M](EVENT_ID1)

    def Compute(self, a2Local: Any, b2Local: Any, co1Local: Any) -> None:
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID1)
        mmadParams = MmadParams()
        mmadParams.m = M
        mmadParams.n = N
        mmadParams.k = K
        if self.DISABLE_GEMV:
            mmadParams.disableGemv = True
        Mmad(co1Local, a2Local, b2Local, mmadParams)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)

    def CopyOut(self, co1Local: Any) -> None:
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
        fixpipeParams.mSize = M
        fixpipeParams.nSize = N
        fixpipeParams.srcStride = BLOCK_CUBE
        fixpipeParams.dstStride = N
        Fixpipe(self.cGM, co1Local, fixpipeParams)


def make_kernel(disable_gemv: bool) -> Any:
    @__global__
    @__cube__
    def mmad_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelMmad(float32_t, half, disable_gemv)
        op.Init(a, b, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def gen_golden_data(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (numpy's legacy global RNG replaced by *rng*)."""
    x1_gm = rng.uniform(1, 10, [M, K]).astype(np.float16)
    x2_gm = rng.uniform(1, 10, [K, N]).astype(np.float16)
    golden = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float32)
    return {"x1": x1_gm, "x2": x2_gm.transpose().copy(), "golden": golden}


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(data: dict[str, np.ndarray], disable_gemv: bool) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, M * N * 4)
    make_kernel(disable_gemv)[1, 0, None](*ptrs, c)
    return c.read(M * N * 4).view(np.float32).reshape(M, N)


@pytest.mark.parametrize("disable_gemv", [False, True], ids=["DISABLE_GEMV=0", "DISABLE_GEMV=1"])
def test_mmad_gemv_against_its_golden(disable_gemv: bool) -> None:
    data = gen_golden_data(np.random.default_rng(29))
    output = run(data, disable_gemv)
    assert verify_result(output, data["golden"])
    exact = data["x1"].astype(np.float64) @ data["x2"].astype(np.float64).T
    assert np.all(np.abs(output - exact) <= np.spacing(np.abs(exact).astype(np.float32)))


def test_gemv_and_the_nz_form_agree_bit_for_bit() -> None:
    data = gen_golden_data(np.random.default_rng(7))
    assert np.array_equal(run(data, False), run(data, True))


def test_gemv_check_fails_on_a_wrong_vector() -> None:
    data = gen_golden_data(np.random.default_rng(3))
    output = run(data, False)
    data["golden"][0, 5] += 1.0
    assert not verify_result(output, data["golden"])  # one element in 32 is above 1e-4

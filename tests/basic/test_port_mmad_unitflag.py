"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_unitflag/mmad_unitflag.asc.

Line for line, the dav-3510 branches of ``KernelMmad<float, half, M, N, K, kRound>`` (M = 128,
N = 256, K = 512 in ``kRound`` = 8 slices of 64, one ``__cube__`` block), built both ways its
``ENABLE_UNITFLAG`` switch builds it (1 is the CMake default): each round copies an A slice
(stored round-major by gen_data.py) and a B slice to L1 with ``Nd2NzParams``, loads A with
``LoadData2DParamsV2`` and B with transposing ``LoadData2DParams`` (one call per K block), and
``Mmad`` accumulates on CO1 (``cmatrixInitVal`` only in round 0); with the switch on, the first
seven Mmads take ``unitFlag`` 2, the last 3, the ``Fixpipe`` 3, and ``SetFixPipeConfig<T>(co1,
true)`` clears the unit flags at the end.

Inputs and the golden are scripts/gen_data.py's formula (half in [1, 10), the float32 product)
and are checked as scripts/verify_result.py checks them (``np.isclose``, rtol 1e-6, atol 1e-9,
at most 1e-4 of the elements off), then against the accumulation model: eight float roundings
of exact partial products.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    PIPE_M,
    CO2Layout,
    DataCopy,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    HardEvent,
    InitSocState,
    LoadData,
    LoadData2DParams,
    LoadData2DParamsV2,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    PipeBarrier,
    SetFixPipeConfig,
    SetFlag,
    TPosition,
    WaitFlag,
    __cube__,
)
from ascreg.errors import UnsupportedError
from ascreg.machine.kernel import __global__

BLOCK_CUBE = 16
ADDR_0 = 0
LIMIT_MNSIZE = 10
M, N, K, K_ROUND = 128, 256, 512, 8


def CeilDiv(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelMmad:
    def __init__(self, T: Any, U: Any, kRound: int, enable_unitflag: bool) -> None:
        self.T, self.U, self.kRound, self.ENABLE_UNITFLAG = T, U, kRound, enable_unitflag
        self.C0_SIZE = 32 // U.size
        self.FRACTAL_SIZE = BLOCK_CUBE * self.C0_SIZE
        self.m, self.k, self.n = M, K // kRound, N  # split along K (uint16_t fields)
        self.aSingleSize = CeilAlign(self.m, BLOCK_CUBE) * CeilAlign(self.k, self.C0_SIZE)
        self.bSingleSize = CeilAlign(self.k, self.C0_SIZE) * CeilAlign(self.n, BLOCK_CUBE)
        self.cSingleSize = CeilAlign(self.m, BLOCK_CUBE) * CeilAlign(self.n, BLOCK_CUBE)
        assert max(self.aSingleSize, self.bSingleSize, self.cSingleSize) < 2**16  # uint16_t
        self.a1Addr = ADDR_0
        self.b1Addr = self.a1Addr + self.aSingleSize * U.size

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM = GlobalTensor[self.U](), GlobalTensor[self.U]()
        self.cGM = GlobalTensor[self.T]()
        self.aGM.SetGlobalBuffer(a.cast(self.U))
        self.bGM.SetGlobalBuffer(b.cast(self.U))
        self.cGM.SetGlobalBuffer(c.cast(self.T))

    def Process(self) -> None:
        U, T = self.U, self.T
        a1Local = LocalTensor[U](TPosition.A1, self.a1Addr, self.aSingleSize)
        b1Local = LocalTensor[U](TPosition.B1, self.b1Addr, self.bSingleSize)
        a2Local = LocalTensor[U](TPosition.A2, ADDR_0, self.aSingleSize)
        b2Local = LocalTensor[U](TPosition.B2, ADDR_0, self.bSingleSize)
        co1Local = LocalTensor[T](TPosition.CO1, ADDR_0, self.cSingleSize)
        for kIndex in range(self.kRound):
            SetFlag[HardEvent.MTE1_MTE2](EVENT_ID0)
            WaitFlag[HardEvent.MTE1_MTE2](EVENT_ID0)
            self.CopyIn(kIndex, a1Local, b1Local)  # GM -> L1
            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            self.SplitA(a1Local, a2Local)  # L1 -> L0A
            self.SplitB(b1Local, b2Local)  # L1 -> L0B
            SetFlag[HardEvent.MTE1_M](EVENT_ID0)
            WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
            self.Compute(kIndex, a2Local, b2Local, co1Local)
            SetFlag[HardEvent.M_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.M_MTE1](EVENT_ID0)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        self.CopyOut(co1Local)  # L0C -> GM

    def CopyIn(self, kIndex: int, a1Local: Any, b1Local: Any) -> None:
        nd2nzA1Params = Nd2NzParams()
        nd2nzA1Params.ndNum = 1
        nd2nzA1Params.nValue = self.m
        nd2nzA1Params.dValue = self.k
        nd2nzA1Params.srcNdMatrixStride = 0
        nd2nzA1Params.srcDValue = self.k
        nd2nzA1Params.dstNzC0Stride = CeilAlign(self.m, BLOCK_CUBE)
        nd2nzA1Params.dstNzNStride = 1
        nd2nzA1Params.dstNzMatrixStride = 0
        DataCopy(a1Local, self.aGM[kIndex * self.aSingleSize], nd2nzA1Params)

        nd2nzB1Params = Nd2NzParams()
        nd2nzB1Params.ndNum = 1
        nd2nzB1Params.nValue = self.k
        nd2nzB1Params.dValue = self.n
        nd2nzB1Params.srcNdMatrixStride = 0
        nd2nzB1Params.srcDValue = self.n
        nd2nzB1Params.dstNzC0Stride = CeilAlign(self.k, self.C0_SIZE)
        nd2nzB1Params.dstNzNStride = 1
        nd2nzB1Params.dstNzMatrixStride = 0
        DataCopy(b1Local, self.bGM[kIndex * self.bSingleSize], nd2nzB1Params)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        loadDataParams = LoadData2DParamsV2()  # __NPU_ARCH__ == 3510: Nz -> Nz
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        loadDataParams.mStep = CeilDiv(self.m, BLOCK_CUBE)
        loadDataParams.kStep = CeilDiv(self.k, self.C0_SIZE)
        loadDataParams.srcStride = CeilDiv(self.m, BLOCK_CUBE)
        loadDataParams.dstStride = CeilDiv(self.m, BLOCK_CUBE)
        loadDataParams.ifTranspose = False
        LoadData(a2Local, a1Local, loadDataParams)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        dstOffset = CeilDiv(self.n, BLOCK_CUBE) * self.FRACTAL_SIZE
        srcOffset = self.FRACTAL_SIZE
        loadDataParams = LoadData2DParams()  # Nz -> Zn
        loadDataParams.repeatTimes = CeilDiv(self.n, BLOCK_CUBE)
        loadDataParams.srcStride = CeilDiv(self.k, self.C0_SIZE)
        loadDataParams.dstGap = 0
        loadDataParams.ifTranspose = True
        for i in range(CeilDiv(self.k, self.C0_SIZE)):
            LoadData(b2Local[i * dstOffset], b1Local[i * srcOffset], loadDataParams)

    def Compute(self, kIndex: int, a2Local: Any, b2Local: Any, co1Local: Any) -> None:
        mmadParams = MmadParams()
        mmadParams.m = self.m
        mmadParams.n = self.n
        mmadParams.k = self.k
        mmadParams.cmatrixInitVal = kIndex == 0
        if self.ENABLE_UNITFLAG:  # 2 on every Mmad but the last, 3 on the last
            mmadParams.unitFlag = 2 if kIndex != self.kRound - 1 else 3
        Mmad(co1Local, a2Local, b2Local, mmadParams)
        if (self.m // BLOCK_CUBE) * (self.n // BLOCK_CUBE) < LIMIT_MNSIZE:
            PipeBarrier[PIPE_M]()
        SetFlag[HardEvent.MTE2_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_M](EVENT_ID0)

    def CopyOut(self, co1Local: Any) -> None:
        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        fixpipeParams = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
        fixpipeParams.nSize = self.n
        fixpipeParams.mSize = self.m
        fixpipeParams.srcStride = CeilAlign(self.m, BLOCK_CUBE)
        fixpipeParams.dstStride = self.n
        if self.ENABLE_UNITFLAG:
            fixpipeParams.unitFlag = 3
        Fixpipe(self.cGM, co1Local, fixpipeParams)
        if self.ENABLE_UNITFLAG:  # clear every L0C unit flag (optional)
            isUnitFlag = True
            SetFixPipeConfig[self.T](co1Local, isUnitFlag)


def make_kernel(enable_unitflag: bool, kRound: int = K_ROUND) -> Any:
    @__global__
    @__cube__
    def mmad_with_unitflag_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelMmad(float32_t, half, kRound, enable_unitflag)
        op.Init(a, b, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_with_unitflag_custom


def gen_golden_data(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (its np.random.seed(9) replaced by *rng*)."""
    x1_gm = rng.uniform(1, 10, [M, K]).astype(np.float16)
    x2_gm = rng.uniform(1, 10, [K, N]).astype(np.float16)
    golden = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float32)
    rounds = x1_gm.reshape(M, K_ROUND, K // K_ROUND).transpose(1, 0, 2).copy()  # K moved out
    return {"x1": rounds, "x2": x2_gm, "golden": golden, "a": x1_gm}


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(data: dict[str, np.ndarray], enable_unitflag: bool) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, M * N * 4)
    make_kernel(enable_unitflag)[1, 0, None](*ptrs, c)
    return c.read(M * N * 4).view(np.float32).reshape(M, N)


def rounded_partial_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The accumulation model: each round's exact product added to C, rounded to float."""
    acc = np.zeros((M, N), np.float32)
    step = K // K_ROUND
    for r in range(K_ROUND):
        part = a[:, r * step : (r + 1) * step].astype(np.float64) @ b[r * step : (r + 1) * step]
        acc = (acc.astype(np.float64) + part).astype(np.float32)
    return acc


@pytest.mark.parametrize("enable_unitflag", [True, False], ids=["UNITFLAG=1", "UNITFLAG=0"])
def test_mmad_unitflag_against_its_golden(enable_unitflag: bool) -> None:
    data = gen_golden_data(np.random.default_rng(9))
    output = run(data, enable_unitflag)
    assert verify_result(output, data["golden"])
    assert np.array_equal(output, rounded_partial_sums(data["a"], data["x2"].astype(np.float64)))


def test_unitflag_kernel_without_the_final_release_leaves_the_next_mmad_waiting() -> None:
    """A unit-flag Mmad after the example's last Mmad (flag 3) and no unit-flag Fixpipe waits."""
    from ascreg.machine.block import BlockContext, block

    with block(BlockContext()):
        a = LocalTensor[half](TPosition.A2, 0, 256)
        b = LocalTensor[half](TPosition.B2, 0, 256)
        c = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        p = MmadParams(16, 16, 16)
        p.unitFlag = 3
        Mmad(c, a, b, p)
        p.unitFlag = 2
        with pytest.raises(UnsupportedError, match=r"Mmad with unitFlag 2: .* block 0 .* is 1"):
            Mmad(c, a, b, p)

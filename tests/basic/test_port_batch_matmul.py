"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/batch_matmul/batch_matmul.asc.

Line for line, the dav-3510 branches of ``KernelMmad<float, float, half, B, M, K, N>``
(B = 4 batches of M = 30, K = 40, N = 70, one ``__cube__`` block): one ``Nd2NzParams`` copy
per operand moves all four matrices to L1 (``ndNum`` 4, ``dstNzMatrixStride`` one L0 tile);
per batch, A goes to L0A by ``LoadData2DParamsV2`` and B to L0B by ``LoadDataWithStride``
(the L1 tile read as a 48 x 1 feature map of 72 channels, ``SetLoadDataRepeatWithStride``
giving the K blocks' distance, 5 fractals) and ``Mmad`` writes the batch's tile of CO1; one
``Fixpipe`` with ``FixpipeParamsV220`` (``ndNum`` 4, ``srcNdStride`` in 16-element units on
the 950) writes all four products as ND. The L0C -> L1 ``Fixpipe`` and ``DumpTensor`` are in
the example's dav-2201 branch only.

ascreg finds that the example's ``Fixpipe`` moves ``nSize = 70``, which the Fixpipe page
forbids (a multiple of 16 without channel split): a test keeps that spelling and asserts the
report; the results come from the corrected kernel (``nSize`` 80 into GM rows of 80, the host
keeping the first 70 columns), its only change.

Inputs and the golden are scripts/gen_data.py's formula (float32 in [1, 10), the batched float32
product) and are checked as scripts/verify_result.py checks them (``np.isclose``, rtol 1e-4,
atol 1e-6, at most 1e-4 of the elements off), then against the exact product rounded once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    Fixpipe,
    FixpipeParamsV220,
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
    PipeBarrier,
    SetFlag,
    SetLoadDataRepeatWithStride,
    TPosition,
    WaitFlag,
    __cube__,
)
from ascreg.errors import AscregError
from ascreg.machine.kernel import __global__

BATCH, M, K, N = 4, 30, 40, 70


class KernelMmad:
    def __init__(self, T: Any, U: Any, S: Any, B: int, m: int, k: int, n: int) -> None:
        self.T, self.U, self.S, self.B = T, U, S, B
        self.corrected = False
        self.m, self.k, self.n = m, k, n  # uint16_t
        self.cubeShape = [16, 32 // U.size]  # the left fractal; the right one is [C0, 16]
        self.cubeSize = 16 * self.cubeShape[1]  # elements of a fractal
        cs = self.cubeShape
        self.aSizeAlignL0 = self.CeilAlign(m, cs[0]) * self.CeilAlign(k, cs[1])
        self.aSizeAlignL1 = B * self.CeilAlign(m, cs[0]) * self.CeilAlign(k, cs[1])
        self.bSizeAlignL0 = self.CeilAlign(k, cs[0]) * self.CeilAlign(n, cs[1])
        self.bSizeAlignL1 = B * self.CeilAlign(k, cs[0]) * self.CeilAlign(n, cs[1])
        self.cSizeAlignL0 = B * self.CeilAlign(m, cs[0]) * self.CeilAlign(n, cs[0])
        self.a1Addr = 0
        self.b1Addr = self.a1Addr + self.aSizeAlignL1 * U.size
        self.c1Addr = self.b1Addr + self.bSizeAlignL1 * U.size

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any]) -> None:
        self.aGM, self.bGM = GlobalTensor[self.U](), GlobalTensor[self.U]()
        self.cGM = GlobalTensor[self.T]()
        self.aGM.SetGlobalBuffer(a.cast(self.U))
        self.bGM.SetGlobalBuffer(b.cast(self.U))
        self.cGM.SetGlobalBuffer(c.cast(self.T))

    def Process(self) -> None:
        U, T, S, cs = self.U, self.T, self.S, self.cubeShape
        a1Local = LocalTensor[U](TPosition.A1, self.a1Addr, self.aSizeAlignL1)
        b1Local = LocalTensor[U](TPosition.B1, self.b1Addr, self.bSizeAlignL1)
        c1Local = LocalTensor[S](TPosition.C1, self.c1Addr, self.cSizeAlignL0)
        a2Local = LocalTensor[U](TPosition.A2, 0, self.aSizeAlignL0)
        b2Local = LocalTensor[U](TPosition.B2, 0, self.bSizeAlignL0)
        co1Local = LocalTensor[T](TPosition.CO1, 0, self.cSizeAlignL0)

        self.CopyIn(a1Local, b1Local)  # GM -> L1 with ND2NZ, all batches
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        for batchIndex in range(self.B):
            self.SplitA(a1Local[batchIndex * self.aSizeAlignL0], a2Local)
            self.SplitBTranspose(b1Local[batchIndex * self.bSizeAlignL0], b2Local)
            SetFlag[HardEvent.MTE1_M](EVENT_ID0)
            WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
            params = MmadParams()
            params.m = self.m
            params.n = self.n
            params.k = self.k
            tile = batchIndex * self.CeilAlign(self.m, cs[0]) * self.CeilAlign(self.n, cs[0])
            Mmad(co1Local[tile], a2Local, b2Local, params)
            SetFlag[HardEvent.M_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.M_MTE1](EVENT_ID0)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        self.CopyOut(co1Local, c1Local)  # L0C -> GM with NZ2ND, all batches

    @staticmethod
    def CeilDivision(numerator: int, denominator: int) -> int:
        return (numerator + denominator - 1) // denominator

    @staticmethod
    def CeilAlign(numerator: int, denominator: int) -> int:
        return (numerator + denominator - 1) // denominator * denominator

    def CopyIn(self, a1Local: Any, b1Local: Any) -> None:
        cs = self.cubeShape
        nd2nzA1Params = Nd2NzParams()
        nd2nzA1Params.ndNum = self.B
        nd2nzA1Params.nValue = self.m
        nd2nzA1Params.dValue = self.k
        nd2nzA1Params.srcNdMatrixStride = self.m * self.k
        nd2nzA1Params.srcDValue = self.k
        nd2nzA1Params.dstNzC0Stride = self.CeilAlign(self.m, cs[0])
        nd2nzA1Params.dstNzNStride = 1
        nd2nzA1Params.dstNzMatrixStride = self.aSizeAlignL0
        DataCopy(a1Local, self.aGM, nd2nzA1Params)

        nd2nzB1Params = Nd2NzParams()
        nd2nzB1Params.ndNum = self.B
        nd2nzB1Params.nValue = self.k
        nd2nzB1Params.dValue = self.n
        nd2nzB1Params.srcNdMatrixStride = self.k * self.n
        nd2nzB1Params.srcDValue = self.n
        nd2nzB1Params.dstNzC0Stride = self.CeilAlign(self.k, cs[0])
        nd2nzB1Params.dstNzNStride = 1
        nd2nzB1Params.dstNzMatrixStride = self.bSizeAlignL0
        DataCopy(b1Local, self.bGM, nd2nzB1Params)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        cs = self.cubeShape
        loadDataParams = LoadData2DParamsV2()  # __NPU_ARCH__ == 3510
        loadDataParams.mStartPosition = 0
        loadDataParams.kStartPosition = 0
        loadDataParams.mStep = self.CeilDivision(self.m, cs[0])
        loadDataParams.kStep = self.CeilDivision(self.k, cs[1])
        loadDataParams.srcStride = self.CeilDivision(self.m, cs[0])
        loadDataParams.dstStride = self.CeilDivision(self.m, cs[0])
        loadDataParams.ifTranspose = False
        LoadData(a2Local, a1Local, loadDataParams)

    def SplitBTranspose(self, b1Local: Any, b2Local: Any) -> None:
        cs = self.cubeShape
        loadDataParams = LoadData3DParamsV2[self.U]()
        loadDataParams.l1H = self.CeilAlign(self.k, cs[0])
        loadDataParams.l1W = 1
        loadDataParams.channelSize = self.CeilAlign(self.n, cs[1])
        loadDataParams.kExtension = self.CeilAlign(self.n, cs[1])
        loadDataParams.mExtension = self.CeilAlign(self.k, cs[0])
        loadDataParams.strideW = 1
        loadDataParams.strideH = 1
        loadDataParams.filterW = 1
        loadDataParams.filterH = 1
        loadDataParams.dilationFilterW = 1
        loadDataParams.dilationFilterH = 1
        loadDataParams.filterSizeW = False
        loadDataParams.filterSizeH = False
        loadDataParams.enTranspose = True
        loadDataParams.fMatrixCtrl = False
        SetLoadDataRepeatWithStride(
            LoadDataRepeatParamWithStride(1, 1, 0, self.CeilDivision(self.n, cs[0]))
        )
        LoadDataWithStride(b2Local, b1Local, loadDataParams)

    def CopyOut(self, co1Local: Any, c1Local: Any) -> None:
        cs = self.cubeShape
        fixpipeParams = FixpipeParamsV220()
        n = self.CeilAlign(self.n, cs[0]) if self.corrected else self.n  # see the docstring
        fixpipeParams.nSize = n
        fixpipeParams.mSize = self.m
        fixpipeParams.srcStride = self.CeilAlign(self.m, cs[0])
        fixpipeParams.dstStride = n
        fixpipeParams.ndNum = self.B
        # __NPU_ARCH__ == 3510: the distance of the NZ matrices in C0_SIZE units
        fixpipeParams.srcNdStride = (
            self.CeilAlign(self.m, cs[0]) * self.CeilAlign(self.n, cs[0])
        ) // cs[0]
        fixpipeParams.dstNdStride = self.m * n
        Fixpipe(self.cGM, co1Local, fixpipeParams)


def make_kernel(corrected: bool) -> Any:
    @__global__
    @__cube__
    def batch_matmul_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        op = KernelMmad(float32_t, float32_t, half, BATCH, M, K, N)
        op.corrected = corrected
        op.Init(a, b, c)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return batch_matmul_custom


def gen_golden_data(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """scripts/gen_data.py (numpy's legacy global RNG replaced by *rng*)."""
    x1_gm = rng.uniform(1, 10, [BATCH, M, K]).astype(np.float32)
    x2_gm = rng.uniform(1, 10, [BATCH, K, N]).astype(np.float32)
    golden = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float32)
    return {"x1": x1_gm, "x2": x2_gm, "golden": golden}


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-4, atol 1e-6), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-4, atol=1e-6, equal_nan=True)
    return bool((~close).sum() / golden.size <= 1e-4)


N_ALIGNED = 80
"""N rounded up to 16: the nSize (and ND row) of the corrected Fixpipe."""


def run(data: dict[str, np.ndarray], corrected: bool = True) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for key in ("x1", "x2"):
        ptr = gm.alloc(uint8_t, data[key].nbytes)
        ptr.write(data[key].view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    row = N_ALIGNED if corrected else N
    c = gm.alloc(uint8_t, BATCH * M * row * 4)
    make_kernel(corrected)[1, 0, None](*ptrs, c)
    return c.read(BATCH * M * row * 4).view(np.float32).reshape(BATCH, M, row)[:, :, :N]


def test_the_examples_fixpipe_moves_an_nsize_the_page_forbids() -> None:
    """The example's ``nSize = n = 70``: the Fixpipe page (FixpipeParamsV220 table) requires a
    multiple of 16 without channel split; the corrected kernel moves 80 columns into GM rows
    of 80 and the host keeps the first 70."""
    with pytest.raises(AscregError, match=r"FixpipeParamsV220\.nSize 70 is not a multiple of 16"):
        run(gen_golden_data(np.random.default_rng(0)), corrected=False)


def test_batch_matmul_against_its_golden() -> None:
    data = gen_golden_data(np.random.default_rng(4))
    output = run(data)
    assert verify_result(output, data["golden"])
    exact = data["x1"].astype(np.float64) @ data["x2"].astype(np.float64)
    assert np.array_equal(output, exact.astype(np.float32))  # one rounding of the exact sum


def test_batch_matmul_keeps_the_batches_apart() -> None:
    data = gen_golden_data(np.random.default_rng(8))
    data["x2"][1:] = 0.0  # only batch 0 has a non-zero B
    output = run(data)
    assert not output[1:].any()
    assert verify_result(output[0], data["x1"][0] @ data["x2"][0])

"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/fixpipe_l0c2gm.

Line for line, the dav-3510 branches of ``KernelFixpipe<half, float, float, 128, 64, 256>``
(one ``__cube__`` block): K is split in two rounds, each copying A and B GM -> L1 with
``Nd2NzParams``, loading A with ``LoadData2DParamsV2`` and B with transposing
``LoadData2DParams`` fractals, and accumulating ``Mmad`` into CO1 (``cmatrixInitVal`` on the
first round only); ``Fixpipe`` then moves CO1 to GM in the scenario's layout. Inputs and goldens
are made as scripts/gen_data.py makes them (numpy's legacy seeded RNG replaced by a seeded
Generator) and checked as scripts/verify_result.py checks them.

All seven scenarios: 1 (NZ), 2 (ND), 3 (DN, ``Nz2DnParams {1, 0, 0, 1}``), 4 (ND, int8 by the
scalar quantisation ``QF322B8_PRE``), 5 (ND, int8 by the vector quantisation ``VQF322B8_PRE``,
its words copied GM -> L1), 6 (ND with ReLU) and 7 (NZ with channel split); the int8 goldens are
the example's ``qf322b8_pre``. ``Fixpipe<outputType, l0cType, CFG_NZ>(...)`` is written
``Fixpipe(...)``: ascreg takes the layout from the params' template argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, half, int8_t, uint8_t, uint64_t
from ascreg.basic import (
    EVENT_ID0,
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
C0_SIZE = 32
CUBE_BLOCK_SIZE = 16 * 16
K_ROUND = 2
LIMIT_MNSIZE = 10
ALIGN_NUM = 16
M, K, N = 128, 128, 256


def CeilDivision(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


def CeilAlign(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator * denominator


class KernelFixpipe:
    a1Addr, a2Addr, b1Addr, b2Addr, co1Addr = 0, 0, 128 * 1024, 0, 0  # noqa: N815 (the C++ names)

    c1Addr = 0  # noqa: N815 (the vector quantisation words, copied GM -> L1)

    def __init__(self, scenario: int, baseM: int, baseK: int, baseN: int) -> None:
        InitSocState()
        self.scenario, self.baseM, self.baseK, self.baseN = scenario, baseM, baseK, baseN
        self.inputType, self.l0cType = half, float32_t
        self.outputType = int8_t if scenario in (4, 5) else float32_t
        self.quantScalar = 2.0
        self.aSingleSize, self.bSingleSize = baseM * baseK, baseK * baseN
        self.aSizeAlignL1 = CeilAlign(baseM, CUBE_BLOCK) * CeilAlign(baseK, C0_SIZE)
        self.aSizeAlignL0 = CeilAlign(baseM, CUBE_BLOCK) * CeilAlign(baseK, C0_SIZE)
        self.bSizeAlignL1 = CeilAlign(baseK, C0_SIZE) * CeilAlign(baseN, C0_SIZE)
        self.bSizeAlignL0 = CeilAlign(baseK, C0_SIZE) * CeilAlign(baseN, C0_SIZE)
        self.cSizeAlignL0 = CeilAlign(baseM, CUBE_BLOCK) * CeilAlign(baseN, CUBE_BLOCK)

    def Init(self, a: GmPtr[Any], b: GmPtr[Any], c: GmPtr[Any], quantAlpha: GmPtr[Any]) -> None:
        self.aGM, self.bGM = GlobalTensor[half](), GlobalTensor[half]()
        self.cGM = GlobalTensor[self.outputType]()
        self.quantAlphaGM = GlobalTensor[uint64_t]()
        self.quantAlphaGM.SetGlobalBuffer(quantAlpha.cast(uint64_t))
        self.aGM.SetGlobalBuffer(a.cast(half))
        self.bGM.SetGlobalBuffer(b.cast(half))
        self.cGM.SetGlobalBuffer(c.cast(self.outputType))

    def Process(self) -> None:
        T = self.inputType
        a1Local = LocalTensor[T](TPosition.A1, self.a1Addr, self.aSizeAlignL1)
        a2Local = LocalTensor[T](TPosition.A2, self.a2Addr, self.aSizeAlignL0)
        b1Local = LocalTensor[T](TPosition.B1, self.b1Addr, self.bSizeAlignL1)
        b2Local = LocalTensor[T](TPosition.B2, self.b2Addr, self.bSizeAlignL0)
        c = LocalTensor[self.l0cType](TPosition.CO1, self.co1Addr, self.cSizeAlignL0)
        for kIndex in range(K_ROUND):
            self.CopyIn(kIndex, a1Local, b1Local)
            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            self.SplitA(a1Local, a2Local)
            self.SplitB(b1Local, b2Local)
            SetFlag[HardEvent.MTE1_M](EVENT_ID0)
            WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
            self.Compute(kIndex, c, a2Local, b2Local)
            SetFlag[HardEvent.M_MTE2](EVENT_ID0)
            WaitFlag[HardEvent.M_MTE2](EVENT_ID0)
        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        self.CopyOut(c)

    def CopyQuantAlphaGmToL1(self, quantAlphaTensor: Any) -> None:
        SetFlag[HardEvent.FIX_MTE2](EVENT_ID0)
        WaitFlag[HardEvent.FIX_MTE2](EVENT_ID0)
        burstLen = CeilAlign(self.baseN * uint64_t.size, 128) // 32
        DataCopy(quantAlphaTensor, self.quantAlphaGM, DataCopyParams(1, burstLen, 0, 0))
        SetFlag[HardEvent.MTE2_FIX](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_FIX](EVENT_ID0)

    def CopyIn(self, kIndex: int, a1Local: Any, b1Local: Any) -> None:
        m, k, n = self.baseM, self.baseK, self.baseN
        pa = Nd2NzParams()
        pa.ndNum, pa.nValue, pa.dValue, pa.srcNdMatrixStride, pa.srcDValue = 1, m, k, 0, k
        pa.dstNzC0Stride, pa.dstNzNStride, pa.dstNzMatrixStride = CeilAlign(m, CUBE_BLOCK), 1, 0
        DataCopy(a1Local, self.aGM[kIndex * self.aSingleSize], pa)
        pb = Nd2NzParams()
        pb.ndNum, pb.nValue, pb.dValue, pb.srcNdMatrixStride, pb.srcDValue = 1, k, n, 0, n
        pb.dstNzC0Stride, pb.dstNzNStride, pb.dstNzMatrixStride = CeilAlign(k, CUBE_BLOCK), 1, 0
        DataCopy(b1Local, self.bGM[kIndex * self.bSingleSize], pb)

    def SplitA(self, a1Local: Any, a2Local: Any) -> None:
        p = LoadData2DParamsV2()
        p.mStep = CeilDivision(self.baseM, CUBE_BLOCK)
        p.kStep = CeilDivision(self.baseK, C0_SIZE // self.inputType.size)
        p.srcStride = CeilDivision(self.baseM, CUBE_BLOCK)
        p.dstStride = CeilDivision(self.baseM, CUBE_BLOCK)
        LoadData(a2Local, a1Local, p)

    def SplitB(self, b1Local: Any, b2Local: Any) -> None:
        dstOffset = CeilDivision(self.baseN, CUBE_BLOCK) * CUBE_BLOCK_SIZE
        srcOffset = CUBE_BLOCK_SIZE
        p = LoadData2DParams()  # Nz -> Zn
        p.startIndex = 0
        p.repeatTimes = CeilDivision(self.baseN, CUBE_BLOCK)
        p.srcStride = CeilDivision(self.baseK, CUBE_BLOCK)
        p.dstGap = 0
        p.ifTranspose = True
        for i in range(CeilDivision(self.baseK, CUBE_BLOCK)):
            LoadData(b2Local[i * dstOffset], b1Local[i * srcOffset], p)

    def Compute(self, kIndex: int, c: Any, a: Any, b: Any) -> None:
        p = MmadParams()
        p.m, p.n, p.k = self.baseM, CeilAlign(self.baseN, C0_SIZE), self.baseK
        p.cmatrixInitVal = kIndex == 0
        Mmad(c, a, b, p)
        if (self.baseM // ALIGN_NUM) * (self.baseN // ALIGN_NUM) < LIMIT_MNSIZE:
            PipeBarrier[PIPE_ALL]()

    def CopyOut(self, c: Any) -> None:
        baseM, baseN, scenario = self.baseM, self.baseN, self.scenario
        if scenario in (1, 7):  # NZ (7: channel split, fp32 cube block [16, 8])
            c0Size = 16 if scenario == 1 else 8
            p = FixpipeParamsArch3510[CO2Layout.NZ]()
            p.dstStride = baseM * c0Size  # in elements on dav-3510
            p.nSize = CeilAlign(baseN, c0Size)
            p.isChannelSplit = scenario == 7
        elif scenario == 3:  # DN
            p = FixpipeParamsArch3510[CO2Layout.COLUMN_MAJOR]()
            p.nSize, p.dstStride = baseN, baseM
            p.params = (1, 0, 0, 1)
        else:  # ND: 2 plain, 4 scalar quantisation, 5 vector quantisation, 6 ReLU
            p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR]()
            p.nSize, p.dstStride = baseN, baseN
            p.reluEn = scenario == 6
        p.mSize = baseM
        p.srcStride = CeilAlign(baseM, CUBE_BLOCK)
        if scenario == 4:
            p.quantPre = QuantMode_t.QF322B8_PRE
            deqScalar = int(np.float32(self.quantScalar).view(np.uint32))
            sign = self.outputType is int8_t
            p.deqScalar = (deqScalar & ~(1 << 46)) | (int(sign) << 46)
        if scenario == 5:
            quantAlphaTensor = LocalTensor[uint64_t](TPosition.C1, self.c1Addr, baseN)
            self.CopyQuantAlphaGmToL1(quantAlphaTensor)
            p.quantPre = QuantMode_t.VQF322B8_PRE
            Fixpipe(self.cGM, c, quantAlphaTensor, p)
            return
        Fixpipe(self.cGM, c, p)


def make_kernel(scenario: int) -> Any:
    @__global__
    @__cube__
    def fixpipe_l0c2gm(
        a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t], quantAlpha: GmPtr[uint8_t]
    ) -> None:
        op = KernelFixpipe(scenario, M, K // K_ROUND, N)
        op.Init(a, b, c, quantAlpha)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return fixpipe_l0c2gm


def qf322b8_pre(data: np.ndarray, word: int, relu_alpha: float) -> int:
    """scripts/gen_data.py's ``qf322b8_pre`` for one element (its fields and saturations)."""
    bits = (word >> 13) & 0xFFFFF
    alpha = (
        (-1) ** ((bits >> 18) & 1)
        * (1 + (bits & 0x3FF) / 1024)
        * 2.0 ** (((bits >> 10) & 0xFF) - 127)
    )
    offset, sign, n_shift, mode = (
        (word >> 37) & 0x1FF,
        (word >> 46) & 1,
        (word >> 32) & 0xF,
        (word >> 36) & 1,
    )
    if mode == 1:
        data = np.round(np.clip(data / (2**n_shift), -32768, 32767)).astype(np.int16)
    data = np.float32(data)
    data = data * np.float32(alpha) if data >= 0 else data * np.float32(relu_alpha)
    quant = np.round(np.clip(data, -256, 255)).astype(np.int16) + offset
    low, high = (-128, 127) if sign else (0, 255)
    return int(np.round(np.clip(quant, low, high)))


def gen_golden_data(scenario: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: inputs (K outer for A), the quantisation words and the golden."""
    rng = np.random.default_rng(9)
    x1 = rng.uniform(-1, 3, [M, K]).astype(np.float16)
    x2 = rng.uniform(-1, 3, [K, N]).astype(np.float16)
    golden = np.matmul(x1.astype(np.float32), x2.astype(np.float32)).astype(np.float32)
    # pre_quant_relu: every word is the float 2.0 with the int8 sign bit (relu mode 0)
    words = np.full(N, int(np.float32(2.0).view(np.uint32)) | 0x400000000000, np.uint64)
    if scenario in (1, 7):
        cols = 16 if scenario == 1 else 8
        golden = golden.reshape(M // 16, 16, N // cols, cols).transpose(2, 0, 1, 3)
    elif scenario == 3:
        golden = golden.transpose(1, 0)
    elif scenario in (4, 5):
        quant = [
            [qf322b8_pre(golden[i, j], int(words[j]), 2.0) for j in range(N)] for i in range(M)
        ]
        golden = np.array(quant, np.int8)
    elif scenario == 6:
        golden = np.maximum(golden, 0)
    x1 = x1.reshape(M, K_ROUND, K // K_ROUND).transpose(1, 0, 2)
    out = np.ascontiguousarray(golden, dtype=np.int8 if scenario in (4, 5) else np.float32)
    return np.ascontiguousarray(x1), x2, words, out


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9)
    return bool((~close).sum() / golden.size <= 1e-4)


def run(scenario: int, inputs: tuple[np.ndarray, ...], out_bytes: int) -> np.ndarray:
    gm = GlobalMemory()
    ptrs = []
    for host in inputs:
        ptr = gm.alloc(uint8_t, host.nbytes)
        ptr.write(host.view(np.uint8).reshape(-1))
        ptrs.append(ptr)
    c = gm.alloc(uint8_t, out_bytes)
    make_kernel(scenario)[1, 0, None](ptrs[0], ptrs[1], c, ptrs[2])
    return c.read(out_bytes)


@pytest.mark.parametrize("scenario", [1, 2, 3, 4, 5, 6, 7])
def test_fixpipe_l0c2gm_against_its_golden(scenario: int) -> None:
    x1, x2, words, golden = gen_golden_data(scenario)
    output = run(scenario, (x1, x2, words), golden.nbytes).view(golden.dtype)
    assert verify_result(output, golden)
    if scenario in (4, 5):  # the quantisation is the golden script's, element for element
        assert np.array_equal(output, golden.reshape(-1))

"""Ports of two asc-devkit matrix examples written with the basic API (Ascend 950 branch).

* ``examples/01_simd_cpp_api/00_introduction/02_matrix/matmul_basic_api``: ``mmad_custom``, a
  ``__global__ __cube__`` kernel on 2 blocks, each multiplying a 128 x 64 slice of A by the
  64 x 256 B (M = 256, K = 64, N = 256) and writing half C through ``Fixpipe`` with
  ``FixpipeParamsV220`` (``QuantMode_t::F322F16``).
* ``examples/01_simd_cpp_api/00_introduction/03_fusion_operation/matmul_leakyrelu_basic_api``:
  ``mmad_vec_custom``, a ``__global__ __mix__(1, 2)`` kernel: each of 2 AICs multiplies a
  256 x 128 slice of A by the 128 x 128 B (M = 512, K = 128, N = 128), writes half C to GM and
  sets mode-2 cross-core flag 0; each of its 2 AIVs waits for the flag, copies half of the
  tile's rows into UB with ``DataCopyPad``, applies ``LeakyRelu`` (alpha ``(half)0.001``) in
  place and copies the rows back.

Both kernels are re-expressed line for line, the ``__NPU_ARCH__ == 3510`` branch of each
(``LoadData2DParamsV2`` loads, NZ in L0A, a transposing load of B into L0B), with the
``LocalMemAllocator`` of every cube buffer. The goldens are the examples' ``gen_data.py``
formulas computed here with numpy: the float32 product of half matrices of integers in
[-10, 10) (exact: integers below 2**24), rounded to half; for the fusion, ``x`` where
``x >= 0`` else ``x * 0.001`` in half. Each test checks as ``verify_result.py`` does (isclose
with rtol 1e-6, atol 1e-9) and also element for element.
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
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    Fixpipe,
    FixpipeParamsV220,
    GetBlockIdx,
    GlobalTensor,
    HardEvent,
    Hardware,
    InitSocState,
    LeakyRelu,
    LoadData,
    LoadData2DParamsV2,
    LocalMemAllocator,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    PipeBarrier,
    QuantMode_t,
    SetFlag,
    TPosition,
    WaitFlag,
    __mix__,
)
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.cube import __cube__
from ascreg.machine.kernel import __global__

CUBE_BLOCK = 16  # half type, cube block: [16, 16]


# -- matmul_basic_api ------------------------------------------------------------------------


def mmad_custom(
    M: int, K: int, N: int, singleCoreM: int, baseM: int, baseK: int, baseN: int
) -> Any:
    """``mmad_custom<M, K, N, singleCoreM, baseM, baseK, baseN>``."""

    @__global__
    @__cube__
    def mmad_custom(a: GmPtr[uint8_t], b: GmPtr[uint8_t], c: GmPtr[uint8_t]) -> None:
        InitSocState()
        aGM = GlobalTensor[half]()
        bGM = GlobalTensor[half]()
        cGM = GlobalTensor[half]()
        mIterIdx = GetBlockIdx() % (M // singleCoreM)
        aGM.SetGlobalBuffer(a.cast(half) + mIterIdx * singleCoreM * K)
        bGM.SetGlobalBuffer(b.cast(half))
        cGM.SetGlobalBuffer(c.cast(half) + mIterIdx * singleCoreM * N)
        l1Allocator = LocalMemAllocator[Hardware.L1]()
        l0aAllocator = LocalMemAllocator[Hardware.L0A]()
        l0bAllocator = LocalMemAllocator[Hardware.L0B]()
        l0cAllocator = LocalMemAllocator[Hardware.L0C]()
        a1Local = l1Allocator.Alloc[TPosition.A1, half](baseM * baseK)
        b1Local = l1Allocator.Alloc[TPosition.B1, half](baseK * baseN)
        a2Local = l0aAllocator.Alloc[TPosition.A2, half](baseM * baseK)
        b2Local = l0bAllocator.Alloc[TPosition.B2, half](baseK * baseN)
        cLocal = l0cAllocator.Alloc[TPosition.CO1, float32_t](baseM * baseN)
        DataCopy(a1Local, aGM, Nd2NzParams(1, baseM, baseK, 0, K, baseM, 1, 0))
        DataCopy(b1Local, bGM, Nd2NzParams(1, baseK, baseN, 0, N, baseK, 1, 0))
        SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
        LoadData(
            a2Local,
            a1Local,
            LoadData2DParamsV2(
                0, 0, baseM // CUBE_BLOCK, baseK // CUBE_BLOCK, baseM // CUBE_BLOCK,
                baseM // CUBE_BLOCK, False, 0,
            ),
        )  # fmt: skip
        LoadData(
            b2Local,
            b1Local,
            LoadData2DParamsV2(
                0, 0, baseK // CUBE_BLOCK, baseN // CUBE_BLOCK, baseK // CUBE_BLOCK,
                baseN // CUBE_BLOCK, True, 0,
            ),
        )  # fmt: skip
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        Mmad(cLocal, a2Local, b2Local, MmadParams(baseM, baseN, baseK, 0, False, True))

        SetFlag[HardEvent.M_FIX](EVENT_ID0)
        WaitFlag[HardEvent.M_FIX](EVENT_ID0)
        Fixpipe(
            cGM,
            cLocal,
            FixpipeParamsV220(baseN, baseM, baseM, N, False, QuantMode_t.F322F16, 0, 1, 0, 0, 0),
        )
        PipeBarrier[PIPE_ALL]()

    return mmad_custom


def gen_golden_data(m: int, k: int, n: int, seed: int) -> tuple[np.ndarray, ...]:
    """``gen_data.py``: integer half matrices in [-10, 10) and their product rounded to half."""
    rng = np.random.default_rng(seed)
    x1_gm = rng.integers(-10, 10, (m, k)).astype(np.float16)
    x2_gm = rng.integers(-10, 10, (k, n)).astype(np.float16)
    golden = np.matmul(x1_gm.astype(np.float32), x2_gm.astype(np.float32)).astype(np.float16)
    return x1_gm, x2_gm, golden


def verify_result(output: np.ndarray, golden: np.ndarray) -> None:
    """``verify_result.py``'s check (at most 1e-4 of the elements off), then bit for bit."""
    close = np.isclose(output, golden, rtol=1e-6, atol=1e-9, equal_nan=True)
    assert (~close).mean() <= 1e-4
    np.testing.assert_array_equal(output.view(np.uint16), golden.view(np.uint16))


def launch(kernel: Any, blocks: int, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """Copy A and B to GM, launch ``kernel<<<blocks>>>(a, b, c)``, return C (M x N half)."""
    (m, _), (_, n) = x1.shape, x2.shape
    gm = GlobalMemory()
    a, b, c = gm.alloc(half, x1.size), gm.alloc(half, x2.size), gm.alloc(half, m * n)
    a.write(x1.reshape(-1))
    b.write(x2.reshape(-1))
    kernel[blocks, 0, None](a.cast(uint8_t), b.cast(uint8_t), c.cast(uint8_t))
    return np.asarray(c.read(m * n)).reshape(m, n)


MATMUL = {"M": 256, "K": 64, "N": 256, "singleCoreM": 128, "baseM": 128, "baseK": 64, "baseN": 256}


@pytest.mark.parametrize("seed", [0, 1])
def test_matmul_basic_api(seed: int) -> None:
    x1, x2, golden = gen_golden_data(MATMUL["M"], MATMUL["K"], MATMUL["N"], seed)
    verify_result(launch(mmad_custom(**MATMUL), 2, x1, x2), golden)


def test_matmul_basic_api_golden_is_not_trivial() -> None:
    """The golden has many distinct values of both signs: a misplaced element shows."""
    _, _, golden = gen_golden_data(MATMUL["M"], MATMUL["K"], MATMUL["N"], 0)
    assert (golden < 0).mean() > 0.3 and np.unique(golden).size > 500


# -- matmul_leakyrelu_basic_api --------------------------------------------------------------


class KernelMatmul:
    """``KernelMatmul<M, K, N, singleCoreM, singleCoreK, singleCoreN, baseM, baseK, baseN>``."""

    def __init__(
        self,
        M: int, K: int, N: int, singleCoreM: int, singleCoreK: int, singleCoreN: int,
        baseM: int, baseK: int, baseN: int,
    ) -> None:  # fmt: skip
        self.M, self.K, self.N = M, K, N
        self.singleCoreM, self.singleCoreK, self.singleCoreN = singleCoreM, singleCoreK, singleCoreN
        self.baseM, self.baseK, self.baseN = baseM, baseK, baseN
        self.aGM = GlobalTensor[half]()
        self.bGM = GlobalTensor[half]()
        self.cGM = GlobalTensor[half]()

    def Init(self, xMatrix: GmPtr[Any], yMatrix: GmPtr[Any], zMatrix: GmPtr[Any]) -> None:
        self.aGM.SetGlobalBuffer(xMatrix.cast(half))
        self.bGM.SetGlobalBuffer(yMatrix.cast(half))
        self.cGM.SetGlobalBuffer(zMatrix.cast(half))
        # the cube cores split M; each vector core maps back to its cube core's output block
        if ASCEND_IS_AIC:
            self.aGM = self.aGM[GetBlockIdx() * self.singleCoreM * self.K]
            self.cGM = self.cGM[GetBlockIdx() * self.singleCoreM * self.N]
        if ASCEND_IS_AIV:
            self.cGM = self.cGM[GetBlockIdx() // 2 * self.singleCoreM * self.N]

    def Process(self) -> None:
        baseM, baseK, baseN = self.baseM, self.baseK, self.baseN
        if ASCEND_IS_AIC:
            l1Allocator = LocalMemAllocator[Hardware.L1]()
            l0aAllocator = LocalMemAllocator[Hardware.L0A]()
            l0bAllocator = LocalMemAllocator[Hardware.L0B]()
            l0cAllocator = LocalMemAllocator[Hardware.L0C]()
            a1Local = l1Allocator.Alloc[half](baseM * baseK)
            b1Local = l1Allocator.Alloc[half](baseK * baseN)
            a2Local = l0aAllocator.Alloc[half](baseM * baseK)
            b2Local = l0bAllocator.Alloc[half](baseK * baseN)
            cLocal = l0cAllocator.Alloc[float32_t](baseM * baseN)
            DataCopy(a1Local, self.aGM, Nd2NzParams(1, baseM, baseK, 0, self.K, baseM, 1, 0))
            DataCopy(b1Local, self.bGM, Nd2NzParams(1, baseK, baseN, 0, self.N, baseK, 1, 0))

            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)

            LoadData(
                a2Local,
                a1Local,
                LoadData2DParamsV2(
                    0, 0, baseM // CUBE_BLOCK, baseK // CUBE_BLOCK, baseM // CUBE_BLOCK,
                    baseM // CUBE_BLOCK, False, 0,
                ),
            )  # fmt: skip
            LoadData(
                b2Local,
                b1Local,
                LoadData2DParamsV2(
                    0, 0, baseK // CUBE_BLOCK, baseN // CUBE_BLOCK, baseK // CUBE_BLOCK,
                    baseN // CUBE_BLOCK, True, 0,
                ),
            )  # fmt: skip
            SetFlag[HardEvent.MTE1_M](EVENT_ID0)
            WaitFlag[HardEvent.MTE1_M](EVENT_ID0)

            Mmad(cLocal, a2Local, b2Local, MmadParams(baseM, baseN, baseK, 0, False, True))

            SetFlag[HardEvent.M_FIX](EVENT_ID0)
            WaitFlag[HardEvent.M_FIX](EVENT_ID0)
            Fixpipe(
                self.cGM,
                cLocal,
                FixpipeParamsV220(
                    baseN, baseM, baseM, self.N, False, QuantMode_t.F322F16, 0, 1, 0, 0, 0
                ),
            )
            CrossCoreSetFlag[0x2, PIPE_FIX](0)  # tell this AI Core's two AIVs
        if ASCEND_IS_AIV:
            ubAllocator = LocalMemAllocator[Hardware.UB]()
            vecLocal = ubAllocator.Alloc[half](baseM // 2 * baseN)
            CrossCoreWaitFlag(0)  # the cube core has written the tile
            self.LeakyReluCompute(vecLocal, 0, 0, baseM // 2 * baseN)

    def LeakyReluCompute(
        self, vecLocal: LocalTensor[Any], mIndex: int, nIndex: int, tileLen: int
    ) -> None:
        baseM, baseN, N = self.baseM, self.baseN, self.N
        blockLen = baseN * half.size
        srcStride = (N - baseN) * half.size
        # each of the cube core's two vector cores takes half of the tile's rows
        gmOffset = (mIndex * baseM * N + nIndex * baseN) + GetBlockIdx() % 2 * (baseM // 2 * N)
        DataCopyPad[half](
            vecLocal,
            self.cGM[gmOffset],
            DataCopyExtParams(baseM // 2, blockLen, srcStride, 0, 0),
            DataCopyPadExtParams[half](True, 0, 0, 0),
        )
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        LeakyRelu(vecLocal, vecLocal, half(0.001), tileLen)

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopyPad[half](
            self.cGM[gmOffset], vecLocal, DataCopyExtParams(baseM // 2, blockLen, 0, srcStride, 0)
        )


FUSION = {
    "M": 512, "K": 128, "N": 128, "singleCoreM": 256, "singleCoreK": 128, "singleCoreN": 128,
    "baseM": 256, "baseK": 128, "baseN": 128,
}  # fmt: skip


def mmad_vec_custom(
    M: int, K: int, N: int, singleCoreM: int, singleCoreK: int, singleCoreN: int,
    baseM: int, baseK: int, baseN: int,
) -> Any:  # fmt: skip
    """``mmad_vec_custom<M, K, N, singleCoreM, singleCoreK, singleCoreN, baseM, baseK, baseN>``."""

    @__global__
    @__mix__(1, 2)
    def mmad_vec_custom(
        xMatrix: GmPtr[uint8_t], yMatrix: GmPtr[uint8_t], zMatrix: GmPtr[uint8_t]
    ) -> None:
        InitSocState()
        op = KernelMatmul(M, K, N, singleCoreM, singleCoreK, singleCoreN, baseM, baseK, baseN)
        op.Init(xMatrix, yMatrix, zMatrix)
        op.Process()
        PipeBarrier[PIPE_ALL]()

    return mmad_vec_custom


def fusion_golden(m: int, k: int, n: int, seed: int) -> tuple[np.ndarray, ...]:
    """``gen_data.py`` of the fusion: the half product, negatives times 0.001 in half."""
    x1_gm, x2_gm, product = gen_golden_data(m, k, n, seed)
    golden = np.where(product >= 0, product, product * np.float16(0.001))
    return x1_gm, x2_gm, golden


@pytest.mark.parametrize("seed", [0, 3])
def test_matmul_leakyrelu_basic_api(seed: int) -> None:
    x1, x2, golden = fusion_golden(FUSION["M"], FUSION["K"], FUSION["N"], seed)
    blocks = (FUSION["M"] // FUSION["singleCoreM"]) * (FUSION["N"] // FUSION["singleCoreN"])
    verify_result(launch(mmad_vec_custom(**FUSION), blocks, x1, x2), golden)


def test_leakyrelu_golden_differs_from_the_plain_product() -> None:
    """The activation changes the result: a kernel that skipped it would fail the test."""
    _, _, product = gen_golden_data(FUSION["M"], FUSION["K"], FUSION["N"], 0)
    _, _, golden = fusion_golden(FUSION["M"], FUSION["K"], FUSION["N"], 0)
    assert (golden != product).mean() > 0.3


# -- FixpipeParamsV220 against FixpipeParamsArch3510 -----------------------------------------


def _fixpipe(params: Any, values: np.ndarray, out_count: int, **template: Any) -> np.ndarray:
    """Run one ``Fixpipe`` of a 32 x 32 float L0C tile holding *values* (NZ) to half GM."""
    from ascreg.machine.block import BlockContext, block

    out = GlobalMemory().alloc(half, out_count)
    out.write(np.zeros(out_count))
    dst = GlobalTensor[half]()
    dst.SetGlobalBuffer(out)
    with block(BlockContext()):
        c = LocalTensor[float32_t](TPosition.CO1, 0, values.size)
        c.GetPhyAddr().write(values)
        PipeBarrier[PIPE_ALL]()
        (Fixpipe[half, float32_t, template["config"]] if template else Fixpipe)(dst, c, params)
    return np.asarray(out.read(out_count))


def test_v220_row_major_is_the_arch3510_move() -> None:
    from ascreg.basic import CFG_NZ, FixpipeParamsArch3510

    values = np.arange(1024, dtype=np.float32) - 300
    v220 = FixpipeParamsV220(32, 32, 32, 40, True, QuantMode_t.F322F16, 0, 1, 0, 0, 0)
    arch = FixpipeParamsArch3510(32, 32, 32, 40)
    arch.quantPre, arch.reluEn = QuantMode_t.F322F16, True
    np.testing.assert_array_equal(_fixpipe(v220, values, 32 * 40), _fixpipe(arch, values, 32 * 40))
    # NZ: V220's dstStride counts 32-byte blocks, Arch3510's elements
    nz220 = FixpipeParamsV220(32, 32, 32, 40, False, QuantMode_t.F322F16, 0, 1, 0, 0, 0)
    from ascreg.basic import CO2Layout

    nz3510 = FixpipeParamsArch3510[CO2Layout.NZ](32, 32, 32, 40 * 16)
    nz3510.quantPre = QuantMode_t.F322F16
    np.testing.assert_array_equal(
        _fixpipe(nz220, values, 2 * 640, config=CFG_NZ),
        _fixpipe(nz3510, values, 2 * 640, config=CFG_NZ),
    )


def test_v220_constructors_and_bad_fields() -> None:
    from ascreg.basic import CFG_COLUMN_MAJOR

    assert FixpipeParamsV220().ndNum == 1
    assert FixpipeParamsV220(16, 16, 16, 16, True).reluEn
    with pytest.raises(AscregTypeError, match="takes 0, 5, 11 or 12 arguments"):
        FixpipeParamsV220(16, 16)
    values = np.zeros(1024, np.float32)
    with pytest.raises(AscregTypeError, match="no NZ2DN fields"):
        _fixpipe(FixpipeParamsV220(32, 32, 32, 32, False), values, 1024, config=CFG_COLUMN_MAJOR)
    wide = FixpipeParamsV220(32, 32, 32, 32, False, QuantMode_t.F322F16, 0, 2, 513, 0, 0)
    with pytest.raises(AscregError, match=r"srcNdStride.*513"):
        _fixpipe(wide, values, 1024)
    odd = FixpipeParamsV220(24, 32, 32, 32, False, QuantMode_t.F322F16, 0, 1, 0, 0, 0)
    with pytest.raises(AscregError, match="nSize 24 is not a multiple of 16"):
        _fixpipe(odd, values, 1024)


def test_cube_allocators_move_their_head_by_the_tensor_bytes() -> None:
    from ascreg.machine.block import BlockContext, block

    with block(BlockContext()):
        l1 = LocalMemAllocator[Hardware.L1]()
        a, b = l1.Alloc[half](256), l1.Alloc[TPosition.B1, half](256)
        assert (a.GetPosition(), b.GetPosition()) == (TPosition.A1, TPosition.B1)
        assert b.GetPhyAddr().address == 512 and l1.GetCurAddr() == 1024
        with pytest.raises(
            AscregTypeError, match=r"TPosition\.A2 is not a position of Hardware::L1"
        ):
            l1.Alloc[TPosition.A2, half](16)
    with pytest.raises(AscregTypeError, match="must be UB, L1, L0A"):
        LocalMemAllocator[Hardware.GM]()

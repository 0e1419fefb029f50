"""Port of hicann/ops-nn activation/sigmoid/op_kernel/arch35/sigmoid_f32.h (entry: sigmoid_apt.cpp).

``SigmoidF32``: each block copies its slice of ``x`` (float) into a double-buffered VECIN queue
with ``DataCopyPad``, computes ``1 / (1 + exp(-x))`` in a ``__VEC_SCOPE__`` with Reg ops
(``Duplicate`` of 1, then per register ``Muls`` by -1, ``Exp``, ``Adds`` 1, ``Div``) under an
``UpdateMask`` tail mask, and copies the result out of a VECOUT queue. Line for line, as the C++
spells it; the entry's ``TILING_KEY_IS(SIGMOID_F32_TILING_KEY)`` branch is the one taken for float.

Tiling: the host's ``SigmoidTilingData`` (the operator base library's element-wise tiling, not
public) is re-derived from its field meanings: ``blockFormer`` elements per block, ``ubFormer``
per UB loop, loop counts and tails of the former and the tail block, ``elemNum`` the buffer
length; the UB budget is ``ubSize * 8 / bufferDivisor`` elements (``bufferDivisor`` 128 for
float, from sigmoid_tiling_arch35.cpp). The host writes it to GM as the struct's bytes and sets
the float32 tiling key (``ICPU_SET_TILING_KEY``); the entry reads it with ``GET_TILING_DATA``.

Golden: ``1 / (1 + exp(-x))`` in float64, rounded to float; the kernel's four float32 steps stay
within 4 ulp of it (below -88.7 its ``exp(-x)`` overflows and it gives 0 for a subnormal).

Needs (as written): ``QuePosition``, ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue) and the full
template lists ``Muls<float, float, mode>``, ``Adds<float, float, mode>``,
``Duplicate<float, mode, float>`` (spell).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, MicroAPI, Ref, float32_t, int64_t, uint8_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.reg import MaskReg, RegTensor
from production_ports import (
    align_up,
    assert_ulp,
    ceil_div,
    empty_device,
    from_device,
    rounded,
    stand_ins,
    tiling_to_device,
    to_device,
)

UB_SIZE = 248 * 1024
CORE_NUM = 64
SIGMOID_F32_TILING_KEY = 300000000000100


# ---- op_host/arch35/sigmoid_tiling_arch35.h -----------------------------------------------------
class SigmoidTilingData(Struct):
    dim0: int64_t
    blockFormer: int64_t
    ubFormer: int64_t
    ubLoopOfFormerBlock: int64_t
    ubLoopOfTailBlock: int64_t
    ubTailOfFormerBlock: int64_t
    ubTailOfTailBlock: int64_t
    elemNum: int64_t


REGISTER_TILING_DATA_CLASS("Sigmoid", SigmoidTilingData)


def host_tiling(
    n: int, *, core_num: int = CORE_NUM, ub_size: int = UB_SIZE
) -> tuple[int, SigmoidTilingData]:
    """The element-wise tiling of a float Sigmoid of *n* elements: (blockNum, tiling data)."""
    align = 256 // 4  # a block's share is whole 256-byte registers
    block_former = align_up(ceil_div(n, core_num), align)
    block_num = ceil_div(n, block_former)
    ub_max = (ub_size * 8 // 128) // align * align  # bufferDivisor 128 for float
    ub_former = min(block_former, ub_max)
    tail_block = n - (block_num - 1) * block_former
    data = SigmoidTilingData(
        dim0=n,
        blockFormer=block_former,
        ubFormer=ub_former,
        ubLoopOfFormerBlock=ceil_div(block_former, ub_former),
        ubLoopOfTailBlock=ceil_div(tail_block, ub_former),
        ubTailOfFormerBlock=block_former - (ceil_div(block_former, ub_former) - 1) * ub_former,
        ubTailOfTailBlock=tail_block - (ceil_div(tail_block, ub_former) - 1) * ub_former,
        elemNum=ub_former,
    )
    return block_num, data


class SigmoidF32:
    def __init__(self) -> None:
        self.pipePtr_: TPipe
        self.tilingDataPtr_: SigmoidTilingData
        self.inputGmX_ = GlobalTensor[float32_t]()
        self.outputGmY_ = GlobalTensor[float32_t]()
        self.queIn0_ = TQue[QuePosition.VECIN, 1]()
        self.queOut0_ = TQue[QuePosition.VECOUT, 1]()
        self.bufferIn0_ = LocalTensor[float32_t]()
        self.bufferOut0_ = LocalTensor[float32_t]()

    @__aicore__
    def Init(
        self,
        x: GM_ADDR,
        y: GM_ADDR,
        workspace: GM_ADDR,
        tilingDataPtr: SigmoidTilingData,
        pipePtr: TPipe,
    ) -> None:
        self.pipePtr_ = pipePtr
        self.tilingDataPtr_ = tilingDataPtr
        self.inputGmX_.SetGlobalBuffer(x.cast(float32_t))
        self.outputGmY_.SetGlobalBuffer(y.cast(float32_t))
        DOUBLE_BUFFER = 2
        BUFFER_SIZE_0 = self.tilingDataPtr_.elemNum * float32_t.size
        self.pipePtr_.InitBuffer(self.queIn0_, DOUBLE_BUFFER, BUFFER_SIZE_0)
        self.pipePtr_.InitBuffer(self.queOut0_, DOUBLE_BUFFER, BUFFER_SIZE_0)

    @__aicore__
    def Process(self) -> None:
        ubLoopNum = (
            self.tilingDataPtr_.ubLoopOfTailBlock
            if GetBlockIdx() == GetBlockNum() - 1
            else self.tilingDataPtr_.ubLoopOfFormerBlock
        )
        tailExtent = (
            self.tilingDataPtr_.ubTailOfTailBlock
            if GetBlockIdx() == GetBlockNum() - 1
            else self.tilingDataPtr_.ubTailOfFormerBlock
        )
        for ubLoopIdx in range(ubLoopNum):
            i0Extent = tailExtent if ubLoopIdx == ubLoopNum - 1 else self.tilingDataPtr_.ubFormer
            self.CopyIn0(i0Extent, ubLoopIdx)
            self.Compute1(i0Extent, ubLoopIdx)
            self.CopyOut2(i0Extent, ubLoopIdx)

    @__aicore__
    def CopyIn0(self, i0Extent: int, ubLoopIdx: int) -> None:
        self.bufferIn0_ = self.queIn0_.AllocTensor[float32_t]()
        dataCopyExtParams = DataCopyExtParams()
        dataCopyPadExtParams = DataCopyPadExtParams[float32_t]()
        dataCopyExtParams.blockCount = 1
        dataCopyExtParams.blockLen = i0Extent * float32_t.size
        DataCopyPad(
            self.bufferIn0_[0],
            self.inputGmX_[
                self.tilingDataPtr_.blockFormer * GetBlockIdx()
                + ubLoopIdx * self.tilingDataPtr_.ubFormer
            ],
            dataCopyExtParams,
            dataCopyPadExtParams,
        )
        self.queIn0_.EnQue[float32_t](self.bufferIn0_)

    @__aicore__
    def Compute1(self, i0Extent: int, ubLoopIdx: int) -> None:
        self.bufferIn0_ = self.queIn0_.DeQue[float32_t]()
        self.bufferOut0_ = self.queOut0_.AllocTensor[float32_t]()
        with __VEC_SCOPE__:
            vreg0 = RegTensor[float32_t]()
            vreg1 = RegTensor[float32_t]()
            vreg2 = RegTensor[float32_t]()
            vreg3 = RegTensor[float32_t]()
            vreg4 = RegTensor[float32_t]()
            vreg5 = RegTensor[float32_t]()
            preg0 = MaskReg()
            size = Ref(i0Extent)
            preg0 = MicroAPI.CreateMask[float32_t]()
            MicroAPI.Duplicate[float32_t, MicroAPI.MaskMergeMode.ZEROING, float32_t](
                vreg0, float32_t(1), preg0
            )
            vfLoopNum = (i0Extent + (VECTOR_REG_WIDTH // float32_t.size) - 1) // (
                VECTOR_REG_WIDTH // float32_t.size
            )
            bufferIn0Addr = self.bufferIn0_.GetPhyAddr()
            bufferOut0Addr = self.bufferOut0_.GetPhyAddr()
            for i in range(vfLoopNum):
                preg0 = MicroAPI.UpdateMask[float32_t](size)
                MicroAPI.LoadAlign[float32_t, MicroAPI.LoadDist.DIST_NORM](
                    vreg1, bufferIn0Addr + i * (VECTOR_REG_WIDTH // float32_t.size)
                )
                MicroAPI.Muls[float32_t, float32_t, MicroAPI.MaskMergeMode.ZEROING](
                    vreg2, vreg1, float32_t(-1), preg0
                )
                MicroAPI.Exp[float32_t, MicroAPI.MaskMergeMode.ZEROING](vreg3, vreg2, preg0)
                MicroAPI.Adds[float32_t, float32_t, MicroAPI.MaskMergeMode.ZEROING](
                    vreg4, vreg3, float32_t(1), preg0
                )
                MicroAPI.Div[float32_t, MicroAPI.MaskMergeMode.ZEROING](vreg5, vreg0, vreg4, preg0)
                MicroAPI.StoreAlign[float32_t, MicroAPI.StoreDist.DIST_NORM_B32](
                    bufferOut0Addr + i * (VECTOR_REG_WIDTH // float32_t.size), vreg5, preg0
                )
        self.queIn0_.FreeTensor(self.bufferIn0_)
        self.queOut0_.EnQue[float32_t](self.bufferOut0_)

    @__aicore__
    def CopyOut2(self, i0Extent: int, ubLoopIdx: int) -> None:
        self.bufferOut0_ = self.queOut0_.DeQue[float32_t]()
        dataCopyExtParams = DataCopyExtParams()
        dataCopyExtParams.blockCount = 1
        dataCopyExtParams.blockLen = i0Extent * float32_t.size
        DataCopyPad(
            self.outputGmY_[
                self.tilingDataPtr_.blockFormer * GetBlockIdx()
                + ubLoopIdx * self.tilingDataPtr_.ubFormer
            ],
            self.bufferOut0_[0],
            dataCopyExtParams,
        )
        self.queOut0_.FreeTensor(self.bufferOut0_)


# ---- op_kernel/sigmoid_apt.cpp (the float32 branch; SigmoidF16 / SigmoidBf16 are not ported) ----
@__global__
@__aicore__
def sigmoid(x: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR) -> None:
    if g_coreType == AIC:
        return
    tilingData = GET_TILING_DATA(tiling)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    tPipe = TPipe()
    if TILING_KEY_IS(SIGMOID_F32_TILING_KEY):
        op = SigmoidF32()
        op.Init(x, y, workspace, tilingData, tPipe)
        op.Process()
        return


def run(x: np.ndarray, **tiling: int) -> np.ndarray:
    gm = GlobalMemory()
    blockNum, tilingData = host_tiling(x.size, **tiling)
    xDevice, yDevice = to_device(gm, x, float32_t), empty_device(gm, x.size, float32_t, np.nan)
    workspace = empty_device(gm, 32, uint8_t)
    ICPU_SET_TILING_KEY(SIGMOID_F32_TILING_KEY)
    sigmoid[blockNum, 0, None](xDevice, yDevice, workspace, tiling_to_device(gm, tilingData))
    return from_device(yDevice, x.size, float32_t)


TINY = float(np.finfo(np.float32).tiny)
"""exp(-x) overflows float for x < -88.7: the kernel gives 0 where sigmoid is a subnormal."""


def golden(x: np.ndarray) -> np.ndarray:
    return rounded(1.0 / (1.0 + np.exp(-x.astype(np.float64))), float32_t)


SHAPES = [
    pytest.param(1000, {}, id="1000-one-block"),
    pytest.param(64 * 70 + 13, {}, id="4493-many-blocks-tail"),
    pytest.param(3000, {"core_num": 2, "ub_size": 8 * 1024}, id="3000-ub-loops"),
]


def _check(n: int, tiling: dict[str, int]) -> None:
    x = np.random.default_rng(n).uniform(-12, 12, n).astype(np.float32)
    x[:4] = [0.0, -0.0, 88.0, -100.0]
    assert_ulp(run(x, **tiling), golden(x), 4, atol=TINY)


@pytest.mark.parametrize(("n", "tiling"), SHAPES)
def test_sigmoid_as_written(n: int, tiling: dict[str, int]) -> None:
    _check(n, tiling)


@pytest.mark.parametrize(("n", "tiling"), SHAPES)
def test_sigmoid_with_stand_ins(n: int, tiling: dict[str, int]) -> None:
    with stand_ins(globals(), reg_names=("MicroAPI",)):
        _check(n, tiling)

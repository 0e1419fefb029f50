"""Port of hicann/ops-math math/floor/op_kernel/arch35/floor_f32.h.

``FloorF32``: each block copies its slice of ``x`` (float) in through a VECIN queue, and in a
``__VEC_SCOPE__`` per register ``Truncate<float, CAST_FLOOR, ZEROING>``, then puts the input's
sign bit back on the result through ``uint32_t`` views of the registers (``Duplicate`` of the
masks ``0x80000000`` / ``0x7FFFFFFF``, ``And``, ``Or``, so ``floor(-0.0)`` is ``-0.0``), and
stores the ``uint32_t`` register viewed as float.

Tiling: the element-wise tiling the Sigmoid port derives (``FloorTilingData`` has the same
fields; ``bufferDivisor`` 128 for float), written to GM as the struct's bytes and read back by
``GET_TILING_DATA`` (the host registers the struct with ``REGISTER_TILING_DATA_CLASS``); the
host sets the float32 tiling key with ``ICPU_SET_TILING_KEY``.

Golden: ``numpy.floor`` (which keeps the sign of zero), compared bit for bit.

Needs (as written): ``QuePosition``, ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__``, ``EnQue<T>``
(glue); the register casts ``(RegTensor<uint32_t>&)vreg0`` written ``RegTensor[uint32_t](vreg0)``
(spell).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    Ref,
    Reg,
    RoundMode,
    float32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.reg import MaskReg, RegTensor
from production_ports import (
    _RegisterCast,
    align_up,
    ceil_div,
    empty_device,
    from_device,
    stand_ins,
    tiling_to_device,
    to_device,
)

FP32_SIGN1 = uint32_t(0x80000000)
FP32_SIGN2 = uint32_t(0x7FFFFFFF)
UB_SIZE, CORE_NUM = 248 * 1024, 64


# ---- op_host/arch35/floor_tiling_arch35.h ------------------------------------------------------
class FloorTilingData(Struct):
    dim0: int64_t
    blockFormer: int64_t
    ubFormer: int64_t
    ubLoopOfFormerBlock: int64_t
    ubLoopOfTailBlock: int64_t
    ubTailOfFormerBlock: int64_t
    ubTailOfTailBlock: int64_t
    elemNum: int64_t


REGISTER_TILING_DATA_CLASS("Floor", FloorTilingData)


class FloorF32:
    def __init__(self) -> None:
        self.pipePtr_: TPipe
        self.tilingDataPtr_: FloorTilingData
        self.inputGmX_ = GlobalTensor[float32_t]()
        self.outputGmY_ = GlobalTensor[float32_t]()
        self.queIn0_ = TQue[QuePosition.VECIN, 1]()
        self.queOut0_ = TQue[QuePosition.VECOUT, 1]()
        self.bufferIn0_ = LocalTensor[float32_t]()
        self.bufferOut0_ = LocalTensor[float32_t]()
        self.castTrait0 = Reg.CastTrait(
            Reg.RegLayout.UNKNOWN,
            Reg.SatMode.NO_SAT,
            Reg.MaskMergeMode.ZEROING,
            RoundMode.CAST_FLOOR,
        )

    @__aicore__
    def Init(
        self,
        x: GM_ADDR,
        y: GM_ADDR,
        workspace,
        tilingDataPtr: FloorTilingData,
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
        t = self.tilingDataPtr_
        ubLoopNum = (
            t.ubLoopOfTailBlock if GetBlockIdx() == GetBlockNum() - 1 else t.ubLoopOfFormerBlock
        )
        tailExtent = (
            t.ubTailOfTailBlock if GetBlockIdx() == GetBlockNum() - 1 else t.ubTailOfFormerBlock
        )
        for ubLoopIdx in range(ubLoopNum):
            i0Extent = tailExtent if ubLoopIdx == ubLoopNum - 1 else t.ubFormer
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
            vreg2 = RegTensor[uint32_t]()
            vreg3 = RegTensor[uint32_t]()
            preg0 = MaskReg()
            size = Ref(uint32_t(i0Extent))
            vfLoopNum = uint16_t(
                (i0Extent + (VECTOR_REG_WIDTH // float32_t.size) - 1)
                // (VECTOR_REG_WIDTH // float32_t.size)
            )
            bufferIn0Addr = self.bufferIn0_.GetPhyAddr()
            bufferOut0Addr = self.bufferOut0_.GetPhyAddr()
            for i in range(vfLoopNum):
                preg0 = Reg.UpdateMask[float32_t](size)
                Reg.LoadAlign[float32_t, Reg.LoadDist.DIST_NORM](
                    vreg0, bufferIn0Addr + i * (VECTOR_REG_WIDTH // float32_t.size)
                )
                Reg.Truncate[float32_t, RoundMode.CAST_FLOOR, Reg.MaskMergeMode.ZEROING](
                    vreg1, vreg0, preg0
                )
                Reg.Duplicate(vreg2, FP32_SIGN1, preg0)
                Reg.Duplicate(vreg3, FP32_SIGN2, preg0)
                Reg.And(vreg2, vreg2, RegTensor[uint32_t](vreg0), preg0)
                Reg.And(vreg3, vreg3, RegTensor[uint32_t](vreg1), preg0)
                Reg.Or(vreg3, vreg2, vreg3, preg0)
                Reg.StoreAlign[float32_t, Reg.StoreDist.DIST_NORM_B32](
                    bufferOut0Addr + i * (VECTOR_REG_WIDTH // float32_t.size),
                    RegTensor[float32_t](vreg3),
                    preg0,
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


# ---- op_kernel/floor_apt.cpp (the float32 branch; FloorBf16 / FloorF16 are not ported) ----------
FLOOR_F32_TILING_KEY = 300000000000100


@__global__
@__aicore__
def floor(x: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR) -> None:
    if g_coreType == AIC:
        return
    tilingData = GET_TILING_DATA(tiling)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    tPipe = TPipe()
    if TILING_KEY_IS(FLOOR_F32_TILING_KEY):
        op = FloorF32()
        op.Init(x, y, workspace, tilingData, tPipe)
        op.Process()
        return


def host_tiling(
    n: int, *, core_num: int = CORE_NUM, ub_size: int = UB_SIZE
) -> tuple[int, FloorTilingData]:
    align = 256 // 4
    block_former = align_up(ceil_div(n, core_num), align)
    block_num = ceil_div(n, block_former)
    ub_former = min(block_former, (ub_size * 8 // 128) // align * align)
    tail_block = n - (block_num - 1) * block_former
    return block_num, FloorTilingData(
        dim0=n,
        blockFormer=block_former,
        ubFormer=ub_former,
        ubLoopOfFormerBlock=ceil_div(block_former, ub_former),
        ubLoopOfTailBlock=ceil_div(tail_block, ub_former),
        ubTailOfFormerBlock=block_former - (ceil_div(block_former, ub_former) - 1) * ub_former,
        ubTailOfTailBlock=tail_block - (ceil_div(tail_block, ub_former) - 1) * ub_former,
        elemNum=ub_former,
    )


def run(x: np.ndarray, **tiling: int) -> np.ndarray:
    gm = GlobalMemory()
    blockNum, tilingData = host_tiling(x.size, **tiling)
    xDevice, yDevice = to_device(gm, x, float32_t), empty_device(gm, x.size, float32_t, np.nan)
    ICPU_SET_TILING_KEY(FLOOR_F32_TILING_KEY)
    tiling = tiling_to_device(gm, tilingData)
    floor[blockNum, 0, None](xDevice, yDevice, empty_device(gm, 32, uint8_t), tiling)
    return from_device(yDevice, x.size, float32_t)


SHAPES = [
    pytest.param(1000, {}, id="1000"),
    pytest.param(5000, {"core_num": 2, "ub_size": 8 * 1024}, id="5000-ub-loops"),
]


def _check(n: int, tiling: dict[str, int]) -> None:
    rng = np.random.default_rng(n)
    x = (rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(-3, 9, n)).astype(np.float32)
    x[:8] = [0.0, -0.0, -0.5, 0.5, np.inf, -np.inf, -1e-30, 2.0**24 + 2]
    np.testing.assert_array_equal(run(x, **tiling).view(np.uint32), np.floor(x).view(np.uint32))


@pytest.mark.parametrize(("n", "tiling"), SHAPES)
def test_floor_as_written(n: int, tiling: dict[str, int]) -> None:
    _check(n, tiling)


@pytest.mark.parametrize(("n", "tiling"), SHAPES)
def test_floor_with_stand_ins(n: int, tiling: dict[str, int]) -> None:
    with stand_ins(globals()):
        saved = globals()["RegTensor"]
        globals()["RegTensor"] = _RegisterCast(saved)
        try:
            _check(n, tiling)
        finally:
            globals()["RegTensor"] = saved

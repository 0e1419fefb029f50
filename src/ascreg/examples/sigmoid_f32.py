"""hicann/ops-nn ``activation/sigmoid/op_kernel/arch35/sigmoid_f32.h``: a double-buffered sigmoid.

``SigmoidF32`` copies each UB tile of its block's slice of ``x`` into a VECIN queue with
``DataCopyPad`` (MTE2), computes ``1 / (1 + exp(-x))`` in a ``__VEC_SCOPE__`` with Reg ops
(``Muls`` by -1, ``Exp``, ``Adds`` 1, ``Div`` into a register of ones, under an ``UpdateMask``
tail mask) on V, and copies the result out of a VECOUT queue (MTE3). The C++ gives both queues
two buffers (``InitBuffer(que, DOUBLE_BUFFER, size)``): while V computes tile *i*, MTE2 already
loads tile *i + 1* and MTE3 stores tile *i - 1*. ``buffer_num=1`` is the same kernel with one
buffer per queue, its stages one after another: the "before" of the profiling guide
(``docs/profiling.md``), where :mod:`ascreg.profile` shows the difference.

Differences from the C++: the templates deduce their arguments (``Muls(dst, src, -1.0, mask)``
for ``Muls<float, float, MaskMergeMode::ZEROING>``); the host tiling is re-derived from the
field meanings of ``SigmoidTilingData`` (as in the production port's test), with the tile size
a parameter.

Examples
--------
>>> main()
[Success] sigmoid_f32 (ops-nn arch35) on 2 blocks x 4 tiles of 1024 floats, 2 buffers per queue, within 4 ulp of the float64 golden.
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ascreg import VECTOR_REG_WIDTH, GlobalMemory, GmPtr, MicroAPI, Ref, float32_t
from ascreg.basic import (
    __VEC_SCOPE__,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    GetBlockIdx,
    GetBlockNum,
    GlobalTensor,
    LocalTensor,
    QuePosition,
    TPipe,
    TQue,
)
from ascreg.machine.kernel import __aicore__, __global__

DOUBLE_BUFFER = 2
"""Buffers per queue in the C++ (``constexpr int64_t DOUBLE_BUFFER = 2``)."""


@dataclass
class SigmoidTilingData:
    """The host's tiling: elements per block and per UB tile, tile counts and tails."""

    blockFormer: int = 0
    ubFormer: int = 0
    ubLoopOfFormerBlock: int = 0
    ubLoopOfTailBlock: int = 0
    ubTailOfFormerBlock: int = 0
    ubTailOfTailBlock: int = 0
    elemNum: int = 0
    bufferNum: int = DOUBLE_BUFFER


def host_tiling(
    n: int, blocks: int, tile: int, buffer_num: int = DOUBLE_BUFFER
) -> tuple[int, SigmoidTilingData]:
    """Return the block count and tiling of *n* floats on up to *blocks* blocks, *tile* a UB tile.

    Examples
    --------
    >>> host_tiling(10000, 2, 1024)[1].ubLoopOfFormerBlock
    5
    """
    lanes = VECTOR_REG_WIDTH // float32_t.size  # a block's share is whole registers
    per_block = -(-n // blocks)
    block_former = -(-per_block // lanes) * lanes
    block_num = -(-n // block_former)
    tile = min(tile, block_former)
    tail_block = n - (block_num - 1) * block_former
    loops = -(-block_former // tile)
    tail_loops = -(-tail_block // tile)
    return block_num, SigmoidTilingData(
        blockFormer=block_former,
        ubFormer=tile,
        ubLoopOfFormerBlock=loops,
        ubLoopOfTailBlock=tail_loops,
        ubTailOfFormerBlock=block_former - (loops - 1) * tile,
        ubTailOfTailBlock=tail_block - (tail_loops - 1) * tile,
        elemNum=tile,
        bufferNum=buffer_num,
    )


class SigmoidF32:
    """``template <...> class SigmoidF32``: the kernel's state and stages."""

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
        x: GmPtr[float32_t],
        y: GmPtr[float32_t],
        tilingDataPtr: SigmoidTilingData,
        pipePtr: TPipe,
    ) -> None:
        """Bind the GM tensors and give each queue its buffers (two in the C++)."""
        self.pipePtr_ = pipePtr
        self.tilingDataPtr_ = tilingDataPtr
        self.inputGmX_.SetGlobalBuffer(x)
        self.outputGmY_.SetGlobalBuffer(y)
        BUFFER_SIZE_0 = self.tilingDataPtr_.elemNum * float32_t.size
        self.pipePtr_.InitBuffer(self.queIn0_, self.tilingDataPtr_.bufferNum, BUFFER_SIZE_0)
        self.pipePtr_.InitBuffer(self.queOut0_, self.tilingDataPtr_.bufferNum, BUFFER_SIZE_0)

    @__aicore__
    def Process(self) -> None:
        """Copy in, compute and copy out each UB tile of the block's slice."""
        last = GetBlockIdx() == GetBlockNum() - 1
        ubLoopNum = (
            self.tilingDataPtr_.ubLoopOfTailBlock
            if last
            else self.tilingDataPtr_.ubLoopOfFormerBlock
        )
        tailExtent = (
            self.tilingDataPtr_.ubTailOfTailBlock
            if last
            else self.tilingDataPtr_.ubTailOfFormerBlock
        )
        for ubLoopIdx in range(ubLoopNum):
            i0Extent = tailExtent if ubLoopIdx == ubLoopNum - 1 else self.tilingDataPtr_.ubFormer
            self.CopyIn0(i0Extent, ubLoopIdx)
            self.Compute1(i0Extent)
            self.CopyOut2(i0Extent, ubLoopIdx)

    def _offset(self, ubLoopIdx: int) -> int:
        return (
            self.tilingDataPtr_.blockFormer * GetBlockIdx()
            + ubLoopIdx * self.tilingDataPtr_.ubFormer
        )

    @__aicore__
    def CopyIn0(self, i0Extent: int, ubLoopIdx: int) -> None:
        """MTE2: one tile of ``x`` into a VECIN buffer."""
        self.bufferIn0_ = self.queIn0_.AllocTensor[float32_t]()
        dataCopyExtParams = DataCopyExtParams()
        dataCopyPadExtParams = DataCopyPadExtParams[float32_t]()
        dataCopyExtParams.blockCount = 1
        dataCopyExtParams.blockLen = i0Extent * float32_t.size
        DataCopyPad(
            self.bufferIn0_[0],
            self.inputGmX_[self._offset(ubLoopIdx)],
            dataCopyExtParams,
            dataCopyPadExtParams,
        )
        self.queIn0_.EnQue(self.bufferIn0_)

    @__aicore__
    def Compute1(self, i0Extent: int) -> None:
        """V: ``1 / (1 + exp(-x))`` register by register, into a VECOUT buffer."""
        self.bufferIn0_ = self.queIn0_.DeQue[float32_t]()
        self.bufferOut0_ = self.queOut0_.AllocTensor[float32_t]()
        with __VEC_SCOPE__:
            vreg0 = MicroAPI.RegTensor[float32_t]()
            vreg1 = MicroAPI.RegTensor[float32_t]()
            vreg2 = MicroAPI.RegTensor[float32_t]()
            vreg3 = MicroAPI.RegTensor[float32_t]()
            vreg4 = MicroAPI.RegTensor[float32_t]()
            vreg5 = MicroAPI.RegTensor[float32_t]()
            size = Ref(i0Extent)
            preg0 = MicroAPI.CreateMask[float32_t]()
            MicroAPI.Duplicate(vreg0, float32_t(1), preg0)
            lanes = VECTOR_REG_WIDTH // float32_t.size
            vfLoopNum = (i0Extent + lanes - 1) // lanes
            bufferIn0Addr = self.bufferIn0_.GetPhyAddr()
            bufferOut0Addr = self.bufferOut0_.GetPhyAddr()
            for i in range(vfLoopNum):
                preg0 = MicroAPI.UpdateMask[float32_t](size)
                MicroAPI.LoadAlign(vreg1, bufferIn0Addr + i * lanes)
                MicroAPI.Muls(vreg2, vreg1, float32_t(-1), preg0)
                MicroAPI.Exp(vreg3, vreg2, preg0)
                MicroAPI.Adds(vreg4, vreg3, float32_t(1), preg0)
                MicroAPI.Div(vreg5, vreg0, vreg4, preg0)
                MicroAPI.StoreAlign(bufferOut0Addr + i * lanes, vreg5, preg0)
        self.queIn0_.FreeTensor(self.bufferIn0_)
        self.queOut0_.EnQue(self.bufferOut0_)

    @__aicore__
    def CopyOut2(self, i0Extent: int, ubLoopIdx: int) -> None:
        """MTE3: one tile of ``y`` out of its VECOUT buffer."""
        self.bufferOut0_ = self.queOut0_.DeQue[float32_t]()
        dataCopyExtParams = DataCopyExtParams()
        dataCopyExtParams.blockCount = 1
        dataCopyExtParams.blockLen = i0Extent * float32_t.size
        DataCopyPad(
            self.outputGmY_[self._offset(ubLoopIdx)], self.bufferOut0_[0], dataCopyExtParams
        )
        self.queOut0_.FreeTensor(self.bufferOut0_)


@__global__
@__aicore__
def sigmoid(x: GmPtr[float32_t], y: GmPtr[float32_t], tilingData: SigmoidTilingData) -> None:
    """``__global__ __aicore__ void sigmoid(GM_ADDR x, GM_ADDR y, ...)`` (its float branch)."""
    tPipe = TPipe()
    op = SigmoidF32()
    op.Init(x, y, tilingData, tPipe)
    op.Process()


def run(
    x: np.ndarray[Any, Any], *, blocks: int = 2, tile: int = 1024, buffer_num: int = DOUBLE_BUFFER
) -> np.ndarray[Any, Any]:
    """Launch the kernel on *x* (float32) and return ``y``.

    Examples
    --------
    >>> run(np.zeros(64, np.float32))[:2]
    array([0.5, 0.5], dtype=float32)
    """
    gm = GlobalMemory()
    block_num, tiling = host_tiling(x.size, blocks, tile, buffer_num)
    xDevice, yDevice = gm.alloc(float32_t, x.size), gm.alloc(float32_t, x.size)
    xDevice.write(x.astype(np.float32))
    sigmoid[block_num, 0, None](xDevice, yDevice, tiling)
    y: np.ndarray[Any, Any] = yDevice.read(x.size).copy()
    return y


def golden(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``1 / (1 + exp(-x))`` in float64, rounded to float32."""
    value: np.ndarray[Any, Any] = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
    return value.astype(np.float32)


def main(
    blocks: int = 2, tiles: int = 4, tile: int = 1024, buffer_num: int = DOUBLE_BUFFER
) -> bool:
    """Run *blocks* blocks of *tiles* tiles of *tile* floats; check within 4 ulp of the golden."""
    n = blocks * tiles * tile
    x = np.random.default_rng(2026).uniform(-12, 12, n).astype(np.float32)
    y, want = run(x, blocks=blocks, tile=tile, buffer_num=buffer_num), golden(x)
    ulp = np.abs(y.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))
    ok = bool(ulp.max() <= 4)
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} sigmoid_f32 (ops-nn arch35) on {blocks} blocks x {tiles} tiles of {tile} floats, "
        f"{buffer_num} buffer{'s' if buffer_num > 1 else ''} per queue, within 4 ulp of the float64 golden."
    )
    return ok

"""Port of hicann/ops-nn index/embedding/op_kernel/arch35/embedding_simt_two_dim.h (entry embedding.cpp).

``EmbeddingSimtTwoDim<X_T, INDICES_T, INDEX_SIZE_T>``: ``y[g, i] = weight[indices[g], i]``
over the flattened output, each block taking ``perCoreElements`` of it with ``threadNum`` SIMT
threads (``GatherSimt``, a static member VF): the row comes from the fast division
``Simt::UintDiv`` with the magic and shift ``GetUintDivMagicAndShift`` computes in the scalar
code. Unlike gather_v2 the index is trusted (no negative or range handling). The entry's
``SIMT_TWO_DIM_B*_INDEX_SIZE_32`` branches are the ones taken (``GET_TILING_DATA_PTR_WITH_STRUCT``).

Tiling: the two-dim SIMT tiling of the host (``threadNum`` halved from 2048 while the output
has fewer than ``coreNum / 2`` thread loads; ``perCoreElements = CeilDiv(ySize, coreNum)``
rounded up to ``threadNum``; one block when the output is smaller than a block's threads).

Golden: ``weight[indices]`` in numpy, exact.

Runs as written: the per-thread loop counter takes its typed start's type in both SIMT tiers, so
``Simt::UintDiv`` (``ascreg.simt``) deduces ``T``. ``GetUintDivMagicAndShift``, ``LAUNCH_BOUND``, ``GET_TILING_DATA_PTR_WITH_STRUCT`` and the
tiling key come from ``ascreg.basic``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    GmPtr,
    Ref,
    Scalar,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint32_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.simt import *
from production_ports import (
    ClassTemplate,
    ceil_div,
    empty_device,
    from_device,
    tiling_to_device,
    to_device,
)

DTYPE_INDICES: type[Scalar] = int32_t

THREAD_NUM_LAUNCH_BOUND_TWO_DIM = 2048
SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY = 2000000001
SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY = 2000000002
SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY = 2000000004
SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY = 2000000008


# ---- op_host/arch35/embedding_tiling_simt.h ---------------------------------------------------
class EmbeddingTilingDataSimtTwoDim(Struct):
    needCoreNum: int16_t
    threadNum: int16_t
    gatherDimSize: int32_t
    innerSize: int32_t
    perCoreElements: int32_t
    lastCoreElements: int32_t


REGISTER_TILING_DATA_CLASS("Embedding", EmbeddingTilingDataSimtTwoDim)


@ClassTemplate
def EmbeddingSimtTwoDim(X_T, INDICES_T, INDEX_SIZE_T):
    class EmbeddingSimtTwoDim:
        def __init__(self) -> None:
            self.xGm_ = GlobalTensor[X_T]()
            self.indicesGm_ = GlobalTensor[INDICES_T]()
            self.yGm_ = GlobalTensor[X_T]()
            self.tilingData_: EmbeddingTilingDataSimtTwoDim | None = None

        @staticmethod
        @__simt_vf__
        @__aicore__
        @LAUNCH_BOUND(THREAD_NUM_LAUNCH_BOUND_TWO_DIM)
        def GatherSimt(
            yIndexBase,
            currentCoreElements,
            m0,
            shift0,
            innerSize,
            gatherDimSize,
            x: GmPtr[X_T],
            indices: GmPtr[INDICES_T],
            y: GmPtr[X_T],
        ) -> None:
            for index in range(
                INDEX_SIZE_T(threadIdx.x), currentCoreElements, INDEX_SIZE_T(blockDim.x)
            ):
                yIndex = yIndexBase + index
                gatherI = Simt.UintDiv(yIndex, m0, shift0)
                innerI = yIndex - gatherI * innerSize

                indicesValue = indices[gatherI]
                indicesValueI = INDEX_SIZE_T(indicesValue)
                xIndex = indicesValueI * innerSize + innerI
                y[yIndex] = x[xIndex]

        @__aicore__
        def Init(self, x, indices, y, tilingData: EmbeddingTilingDataSimtTwoDim) -> None:
            self.tilingData_ = tilingData
            self.xGm_.SetGlobalBuffer(x.cast(X_T))
            self.indicesGm_.SetGlobalBuffer(indices.cast(INDICES_T))
            self.yGm_.SetGlobalBuffer(y.cast(X_T))

        @__aicore__
        def Process(self) -> None:
            blockIdx = int32_t(GetBlockIdx())
            needCoreNum = int32_t(self.tilingData_.needCoreNum)
            threadNum = uint32_t(self.tilingData_.threadNum)
            gatherDimSize = INDEX_SIZE_T(self.tilingData_.gatherDimSize)
            innerSize = INDEX_SIZE_T(self.tilingData_.innerSize)
            currentCoreElements = INDEX_SIZE_T(self.tilingData_.perCoreElements)
            if blockIdx == self.tilingData_.needCoreNum - 1:
                currentCoreElements = INDEX_SIZE_T(self.tilingData_.lastCoreElements)
            m0 = Ref(INDEX_SIZE_T(0))
            shift0 = Ref(INDEX_SIZE_T(0))

            GetUintDivMagicAndShift(m0, shift0, innerSize)

            if blockIdx < needCoreNum:
                yIndexBase = INDEX_SIZE_T(blockIdx * self.tilingData_.perCoreElements)
                asc_vf_call[self.GatherSimt](
                    dim3(threadNum),
                    yIndexBase,
                    currentCoreElements,
                    m0.value,
                    shift0.value,
                    innerSize,
                    gatherDimSize,
                    self.xGm_.GetPhyAddr(),
                    self.indicesGm_.GetPhyAddr(),
                    self.yGm_.GetPhyAddr(),
                )

    return EmbeddingSimtTwoDim


# ---- op_kernel/embedding.cpp (the SIMT two-dim branches with 32-bit index arithmetic) ----------
@__global__
@__aicore__
def embedding(
    x: GM_ADDR, indices: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR
) -> None:
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    pipe = TPipe()
    if TILING_KEY_IS(SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY):
        tilingData = GET_TILING_DATA_PTR_WITH_STRUCT(EmbeddingTilingDataSimtTwoDim, tiling)
        embeddingOp = EmbeddingSimtTwoDim[int8_t, DTYPE_INDICES, uint32_t]()
        embeddingOp.Init(x, indices, y, tilingData)
        embeddingOp.Process()
    elif TILING_KEY_IS(SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY):
        tilingData = GET_TILING_DATA_PTR_WITH_STRUCT(EmbeddingTilingDataSimtTwoDim, tiling)
        embeddingOp = EmbeddingSimtTwoDim[int16_t, DTYPE_INDICES, uint32_t]()
        embeddingOp.Init(x, indices, y, tilingData)
        embeddingOp.Process()
    elif TILING_KEY_IS(SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY):
        tilingData = GET_TILING_DATA_PTR_WITH_STRUCT(EmbeddingTilingDataSimtTwoDim, tiling)
        embeddingOp = EmbeddingSimtTwoDim[int32_t, DTYPE_INDICES, uint32_t]()
        embeddingOp.Init(x, indices, y, tilingData)
        embeddingOp.Process()
    elif TILING_KEY_IS(SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY):
        tilingData = GET_TILING_DATA_PTR_WITH_STRUCT(EmbeddingTilingDataSimtTwoDim, tiling)
        embeddingOp = EmbeddingSimtTwoDim[int64_t, DTYPE_INDICES, uint32_t]()
        embeddingOp.Init(x, indices, y, tilingData)
        embeddingOp.Process()


CORE_NUM = 64
MAX_THREAD_NUM, SMALL_CASE_THREAD_NUM = 2048, 128
KEYS = {
    1: SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY,
    2: SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY,
    4: SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY,
    8: SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY,
}
"""The host's tiling key by the element size of the weight (32-bit index arithmetic)."""


def host_tiling(gatherDimSize: int, innerSize: int, ySize: int) -> EmbeddingTilingDataSimtTwoDim:
    threadNum = MAX_THREAD_NUM
    while threadNum >= 2 * SMALL_CASE_THREAD_NUM and ceil_div(ySize, threadNum) < CORE_NUM // 2:
        threadNum //= 2
    data = EmbeddingTilingDataSimtTwoDim(
        threadNum=threadNum, gatherDimSize=gatherDimSize, innerSize=innerSize
    )
    if ySize < threadNum:
        data.needCoreNum, data.perCoreElements, data.lastCoreElements = 1, ySize, ySize
        return data
    perCoreElements = ceil_div(ceil_div(ySize, CORE_NUM), threadNum) * threadNum
    data.needCoreNum = ceil_div(ySize, perCoreElements)
    data.perCoreElements = perCoreElements
    data.lastCoreElements = ySize - perCoreElements * (data.needCoreNum - 1)
    return data


def run(weight: np.ndarray, indices: np.ndarray) -> np.ndarray:
    dtype = {1: int8_t, 2: int16_t, 4: int32_t, 8: int64_t}[weight.dtype.itemsize]
    ICPU_SET_TILING_KEY(KEYS[weight.dtype.itemsize])  # the host's SetTilingKey
    gm = GlobalMemory()
    ySize = indices.size * weight.shape[1]
    tilingData = host_tiling(weight.shape[0], weight.shape[1], ySize)
    args = (to_device(gm, weight.view(dtype.np_dtype), dtype), to_device(gm, indices, int32_t))
    yDevice = empty_device(gm, ySize, dtype, 99)
    embedding[tilingData.needCoreNum, 0, None](
        *args, yDevice, empty_device(gm, 32, uint8_t), tiling_to_device(gm, tilingData)
    )
    return (
        from_device(yDevice, ySize, dtype).view(weight.dtype).reshape(indices.size, weight.shape[1])
    )


CASES = [
    pytest.param(np.float32, (1000, 16), 700, id="float-16-wide"),
    pytest.param(np.float16, (64, 5), 30, id="half-one-block"),
    pytest.param(np.float64, (40, 33), 100, id="8-byte-rows"),
]


def _check(dtype: type, shape: tuple[int, int], count: int) -> None:
    rng = np.random.default_rng(count)
    weight = rng.uniform(-100, 100, shape).astype(dtype)
    indices = rng.integers(0, shape[0], count).astype(np.int32)
    np.testing.assert_array_equal(run(weight, indices), weight[indices])


@pytest.mark.parametrize(("dtype", "shape", "count"), CASES)
def test_embedding_simt_as_written(dtype: type, shape: tuple[int, int], count: int) -> None:
    _check(dtype, shape, count)

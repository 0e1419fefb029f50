"""Port of hicann/ops-nn index/gather_v2/op_kernel/arch35/gather_v2_simt_two_dim.h (entry gather_v2_apt.cpp).

``Gatherv2SimtTwoDim<X_T, INDICES_T, INDEX_SIZE_T>``: ``y[g, i] = x[indices[g], i]`` over the
flattened output, each block taking ``perCoreElements`` of it with ``threadNum`` SIMT threads
(``GatherSimt<NIS>``, a member function template): the row is found by the fast division
``Simt::UintDiv`` with the magic and shift ``GetUintDivMagicAndShift`` computes in the scalar
code; a negative index counts from the end when ``negativeIndexSupport`` (``NIS``) is set; an
out-of-range index gives 0. The entry's ``SIMT_TWO_DIM_B*_INDEX_SIZE_32`` branches are the
ones taken (32-bit index arithmetic, as the host picks below 2^31 elements).

Tiling (gather_v2_tiling.cpp ``SimtTwoDimTiling``): ``threadNum`` halves from 2048 while the
output has fewer than ``aivNum / 2`` thread loads; ``perCoreElements`` is ``CeilDiv(ySize,
aivNum)`` rounded up to ``threadNum``; one block when the output has fewer elements than threads.

Golden: the gather in numpy (negative indices wrapped when supported, out of range 0), exact.

Runs as written: the per-thread loop counter ``index`` takes its start's type ``INDEX_SIZE_T`` in
both SIMT tiers, so ``Simt::UintDiv`` deduces ``T`` from ``yIndexBase + index``. ``Simt`` comes
from ``ascreg.simt``; ``GetUintDivMagicAndShift``, ``unlikely``, ``LAUNCH_BOUND`` and the tiling
macros from ``ascreg.basic``.
"""

from __future__ import annotations

from typing import TypeVar

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
    template,
    uint8_t,
    uint32_t,
    uint64_t,
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

NIS = TypeVar("NIS")
DTYPE_INDICES: type[Scalar] = int32_t

THREAD_NUM_LAUNCH_BOUND_TWO_DIM = 2048
SIMT_TWO_DIM_B8_INDEX_SIZE_64_TILING_KEY = 2000000101
SIMT_TWO_DIM_B16_INDEX_SIZE_64_TILING_KEY = 2000000102
SIMT_TWO_DIM_B32_INDEX_SIZE_64_TILING_KEY = 2000000104
SIMT_TWO_DIM_B64_INDEX_SIZE_64_TILING_KEY = 2000000108
SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY = 2000000001
SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY = 2000000002
SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY = 2000000004
SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY = 2000000008


# ---- op_host/arch35/gather_v2_tiling.h ----------------------------------------------------------
class GatherV2TilingDataSimtTwoDim(Struct):
    needCoreNum: int16_t
    negativeIndexSupport: int16_t
    threadNum: int32_t
    gatherDimSize: int64_t
    innerSize: int64_t
    perCoreElements: int64_t
    lastCoreElements: int64_t


for _key in (2000000001, 2000000002, 2000000004, 2000000008):
    REGISTER_TILING_DATA_CLASS(f"GatherV2_{_key}", GatherV2TilingDataSimtTwoDim)
for _key in (2000000101, 2000000102, 2000000104, 2000000108):
    REGISTER_TILING_DATA_CLASS(f"GatherV2_{_key}", GatherV2TilingDataSimtTwoDim)


@ClassTemplate
def Gatherv2SimtTwoDim(X_T, INDICES_T, INDEX_SIZE_T):
    class Gatherv2SimtTwoDim:
        def __init__(self) -> None:
            self.xGm_ = GlobalTensor[X_T]()
            self.indicesGm_ = GlobalTensor[INDICES_T]()
            self.yGm_ = GlobalTensor[X_T]()
            self.tilingData_: GatherV2TilingDataSimtTwoDim | None = None

        @staticmethod
        @__simt_vf__
        @__aicore__
        @LAUNCH_BOUND(THREAD_NUM_LAUNCH_BOUND_TWO_DIM)
        @template(NIS)
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
                if NIS:
                    if unlikely(indicesValue < 0):
                        indicesValue += gatherDimSize
                indicesValueI = INDEX_SIZE_T(indicesValue)
                xIndex = indicesValueI * innerSize + innerI
                idxOutOfBound = indicesValue < 0 or indicesValueI >= gatherDimSize
                y[yIndex] = 0 if idxOutOfBound else x[xIndex]

        @__aicore__
        def Init(self, x, indices, axis, y, tilingData: GatherV2TilingDataSimtTwoDim) -> None:
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

            negativeIndexSupport = bool(self.tilingData_.negativeIndexSupport)
            currentCoreElements = INDEX_SIZE_T(self.tilingData_.perCoreElements)
            if blockIdx == self.tilingData_.needCoreNum - 1:
                currentCoreElements = INDEX_SIZE_T(self.tilingData_.lastCoreElements)
            m0 = Ref(INDEX_SIZE_T(0))
            shift0 = Ref(INDEX_SIZE_T(0))

            GetUintDivMagicAndShift(m0, shift0, innerSize)

            if blockIdx < needCoreNum:
                yIndexBase = INDEX_SIZE_T(blockIdx * self.tilingData_.perCoreElements)
                if unlikely(negativeIndexSupport):
                    asc_vf_call[self.GatherSimt[True]](
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
                else:
                    asc_vf_call[self.GatherSimt[False]](
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

    return Gatherv2SimtTwoDim


# ---- op_kernel/gather_v2_apt.cpp (the SIMT two-dim branches; #if TILING_KEY_VAR == K as if) -----
@__global__
@__aicore__
def gather_v2(
    x: GM_ADDR, indices: GM_ADDR, axis: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR
) -> None:
    pipe = TPipe()
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    # (the SIMD keys' TILING_KEY_IS declarations and branches are not ported)
    TILING_KEY_IS(SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B8_INDEX_SIZE_64_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B16_INDEX_SIZE_64_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B32_INDEX_SIZE_64_TILING_KEY)
    TILING_KEY_IS(SIMT_TWO_DIM_B64_INDEX_SIZE_64_TILING_KEY)
    if TILING_KEY_VAR == SIMT_TWO_DIM_B8_INDEX_SIZE_64_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int8_t, DTYPE_INDICES, uint64_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B16_INDEX_SIZE_64_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int16_t, DTYPE_INDICES, uint64_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B32_INDEX_SIZE_64_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int32_t, DTYPE_INDICES, uint64_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B64_INDEX_SIZE_64_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int64_t, DTYPE_INDICES, uint64_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int8_t, DTYPE_INDICES, uint32_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int16_t, DTYPE_INDICES, uint32_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int32_t, DTYPE_INDICES, uint32_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()
    elif TILING_KEY_VAR == SIMT_TWO_DIM_B64_INDEX_SIZE_32_TILING_KEY:
        tilingDataIn = GET_TILING_DATA_WITH_STRUCT(GatherV2TilingDataSimtTwoDim, tiling)
        gatherv2Op = Gatherv2SimtTwoDim[int64_t, DTYPE_INDICES, uint32_t]()
        gatherv2Op.Init(x, indices, axis, y, tilingDataIn)
        gatherv2Op.Process()


AIV_NUM = 64
MAX_THREAD_NUM, SMALL_CASE_THREAD_NUM = 2048, 128
KEYS = {
    1: SIMT_TWO_DIM_B8_INDEX_SIZE_32_TILING_KEY,
    2: SIMT_TWO_DIM_B16_INDEX_SIZE_32_TILING_KEY,
    4: SIMT_TWO_DIM_B32_INDEX_SIZE_32_TILING_KEY,
}
"""The host's tiling key by the element size of x (32-bit index arithmetic)."""


def host_tiling(
    gatherDimSize: int, innerSize: int, ySize: int, negative: bool
) -> GatherV2TilingDataSimtTwoDim:
    threadNum = MAX_THREAD_NUM
    while threadNum >= 2 * SMALL_CASE_THREAD_NUM and ceil_div(ySize, threadNum) < AIV_NUM // 2:
        threadNum //= 2
    data = GatherV2TilingDataSimtTwoDim(
        threadNum=threadNum,
        negativeIndexSupport=int(negative),
        gatherDimSize=gatherDimSize,
        innerSize=innerSize,
    )
    if ySize < threadNum:
        data.needCoreNum, data.perCoreElements, data.lastCoreElements = 1, ySize, ySize
        return data
    perCoreElements = ceil_div(ceil_div(ySize, AIV_NUM), threadNum) * threadNum
    data.needCoreNum = ceil_div(ySize, perCoreElements)
    data.perCoreElements = perCoreElements
    data.lastCoreElements = ySize - perCoreElements * (data.needCoreNum - 1)
    return data


def run(x: np.ndarray, indices: np.ndarray, negative: bool) -> np.ndarray:
    dtype = {1: int8_t, 2: int16_t, 4: int32_t}[x.dtype.itemsize]
    ICPU_SET_TILING_KEY(KEYS[x.dtype.itemsize])  # the host's SetTilingKey
    gm = GlobalMemory()
    ySize = indices.size * x.shape[1]
    tilingData = host_tiling(x.shape[0], x.shape[1], ySize, negative)
    xDevice = to_device(gm, x.view(dtype.np_dtype), dtype)
    indicesDevice = to_device(gm, indices, int32_t)
    yDevice = empty_device(gm, ySize, dtype, 99)
    gather_v2[tilingData.needCoreNum, 0, None](
        xDevice,
        indicesDevice,
        empty_device(gm, 1, int32_t),
        yDevice,
        empty_device(gm, 32, uint8_t),
        tiling_to_device(gm, tilingData),
    )
    return from_device(yDevice, ySize, dtype).view(x.dtype).reshape(indices.size, x.shape[1])


def golden(x: np.ndarray, indices: np.ndarray, negative: bool) -> np.ndarray:
    wrapped = np.where((indices < 0) & negative, indices + x.shape[0], indices)
    valid = (wrapped >= 0) & (wrapped < x.shape[0])
    out = np.zeros((indices.size, x.shape[1]), dtype=x.dtype)
    out[valid] = x[wrapped[valid]]
    return out


CASES = [
    pytest.param(np.float32, (50, 7), 300, False, id="float-7-wide"),
    pytest.param(np.float16, (1000, 3), 2000, True, id="half-negative"),
    pytest.param(np.int8, (33, 64), 5, True, id="int8-one-block"),
]


def _check(dtype: type, shape: tuple[int, int], count: int, negative: bool) -> None:
    rng = np.random.default_rng(count)
    x = rng.uniform(-100, 100, shape).astype(dtype)
    indices = rng.integers(-shape[0] - 2, shape[0] + 2, count).astype(np.int32)
    np.testing.assert_array_equal(run(x, indices, negative), golden(x, indices, negative))


@pytest.mark.parametrize(("dtype", "shape", "count", "negative"), CASES)
def test_gather_v2_simt_as_written(
    dtype: type, shape: tuple[int, int], count: int, negative: bool
) -> None:
    _check(dtype, shape, count, negative)

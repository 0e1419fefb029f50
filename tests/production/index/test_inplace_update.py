"""Port of hicann/ops-nn index/inplace_update/op_kernel/arch35/inplace_update_simt.h (entry inplace_update.cpp).

A pure SIMT kernel: each block owns ``perCoreN`` rows of ``x``; its 1024 threads first copy
those rows to ``y`` (phase 1), then for every index ``k`` whose row the block owns copy row
``k`` of ``v`` over it (phase 2, in ``k`` order: a repeated index keeps the last row). The
entry is the ``template <uint32_t schMode>`` kernel of the host's one tiling key.

Tiling (inplace_update_tiling_arch35.cpp): ``perCoreN = CeilDiv(n, coreNum)``,
``needCoreNum = CeilDiv(n, perCoreN)`` blocks, ``innerSize`` the product of the other dims.

Golden: ``y = x.copy(); y[indices[k]] = v[k]`` for k in order (numpy), compared exactly.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Scalar, float32_t, half, int32_t, int64_t, template, uint8_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.simt import __launch_bounds__, __simt_vf__, blockIdx, dim3, threadIdx
from production_ports import ceil_div, empty_device, from_device, tiling_to_device, to_device

T = TypeVar("T", bound=Scalar)
schMode = TypeVar("schMode")
DTYPE_X: type[Scalar] = float32_t

THREAD_NUM = 1024
TILING_KEY_DEFAULT = 0  # enum class InplaceUpdateTilingKey


# ---- op_kernel/arch35/inplace_update_tiling_data.h ---------------------------------------------
class InplaceUpdateTilingData(Struct):
    needCoreNum: int32_t
    n: int32_t
    k: int32_t
    innerSize: int64_t
    perCoreN: int32_t


@__simt_vf__
@__aicore__
@__launch_bounds__(THREAD_NUM)
@template(T)
def OpInplaceUpdateSimt(
    needCoreNum: int,
    n: int,
    k: int,
    innerSize: int,
    perCoreN: int,
    x_gm: GmPtr[T],
    indices_gm: GmPtr[int32_t],
    v_gm: GmPtr[T],
    y_gm: GmPtr[T],
) -> None:
    coreId = int32_t(blockIdx.x)
    startRow = coreId * perCoreN
    endRow = startRow + perCoreN
    if endRow > n:
        endRow = n
    if startRow >= endRow:
        return

    startElem = int64_t(startRow) * innerSize
    endElem = int64_t(endRow) * innerSize
    for idx in range(startElem + int64_t(threadIdx.x), endElem, int64_t(THREAD_NUM)):
        y_gm[idx] = x_gm[idx]

    for kIdx in range(k):
        dstRow = indices_gm[kIdx]
        if dstRow >= startRow and dstRow < endRow:
            vBase = int64_t(kIdx) * innerSize
            yBase = int64_t(dstRow) * innerSize
            for offset in range(int64_t(threadIdx.x), innerSize, int64_t(THREAD_NUM)):
                y_gm[yBase + offset] = v_gm[vBase + offset]


@__aicore__
@template(T)
def Process(
    x: GM_ADDR,
    indices: GM_ADDR,
    v: GM_ADDR,
    y: GM_ADDR,
    workspace: GM_ADDR,
    tilingData: InplaceUpdateTilingData,
) -> None:
    x_gm = x.cast(T)
    indices_gm = indices.cast(int32_t)
    v_gm = v.cast(T)
    y_gm = y.cast(T)

    asc_vf_call[OpInplaceUpdateSimt[T]](
        dim3(THREAD_NUM),
        tilingData.needCoreNum,
        tilingData.n,
        tilingData.k,
        tilingData.innerSize,
        tilingData.perCoreN,
        x_gm,
        indices_gm,
        v_gm,
        y_gm,
    )


# ---- op_kernel/arch35/inplace_update.cpp ---------------------------------------------------------
@__global__
@__aicore__
@template(schMode)
def inplace_update(
    x: GM_ADDR, indices: GM_ADDR, v: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR
) -> None:
    REGISTER_TILING_DEFAULT(InplaceUpdateTilingData)
    tilingData = GET_TILING_DATA_WITH_STRUCT(InplaceUpdateTilingData, tiling)
    if schMode == TILING_KEY_DEFAULT:
        Process[DTYPE_X](x, indices, v, y, workspace, tilingData)


def host_tiling(x_shape: tuple[int, ...], k: int, core_num: int) -> InplaceUpdateTilingData:
    n = x_shape[0]
    innerSize = int(np.prod(x_shape[1:], dtype=np.int64))
    perCoreN = ceil_div(n, core_num) if n else 0
    needCoreNum = ceil_div(n, perCoreN) if n else 1
    return InplaceUpdateTilingData(
        needCoreNum=needCoreNum, n=n, k=k, innerSize=innerSize, perCoreN=perCoreN
    )


def run(
    x: np.ndarray, indices: np.ndarray, v: np.ndarray, dtype: type[Scalar], core_num: int
) -> np.ndarray:
    global DTYPE_X
    DTYPE_X = dtype  # -DDTYPE_X=... of the build
    gm = GlobalMemory()
    tilingData = host_tiling(x.shape, indices.size, core_num)
    args = (to_device(gm, x, dtype), to_device(gm, indices, int32_t), to_device(gm, v, dtype))
    yDevice = empty_device(gm, x.size, dtype, np.nan)
    workspace = empty_device(gm, 32, uint8_t)
    inplace_update[TILING_KEY_DEFAULT][tilingData.needCoreNum, 0, None](
        *args, yDevice, workspace, tiling_to_device(gm, tilingData)
    )
    return from_device(yDevice, x.size, dtype).reshape(x.shape)


@pytest.mark.parametrize(
    ("dtype", "x_shape", "indices", "core_num"),
    [
        (float32_t, (37, 300), [3, 36, 0, 17, 3], 8),  # a repeated index: the last row wins
        (half, (9, 4, 33), [8, 1], 4),
        (float32_t, (5, 2100), [4, 4, 2], 64),  # rows longer than the block's threads
    ],
)
def test_inplace_update(
    dtype: type[Scalar], x_shape: tuple[int, ...], indices: list[int], core_num: int
) -> None:
    rng = np.random.default_rng(len(indices))
    x = rng.uniform(-10, 10, x_shape).astype(dtype.np_dtype)
    v = rng.uniform(-10, 10, (len(indices), *x_shape[1:])).astype(dtype.np_dtype)
    index = np.array(indices, dtype=np.int32)
    golden = x.copy()
    for k, row in enumerate(index):
        golden[row] = v[k]
    np.testing.assert_array_equal(run(x, index, v, dtype, core_num), golden)

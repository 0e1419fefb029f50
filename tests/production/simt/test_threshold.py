"""Port of hicann/ops-nn activation/threshold/op_kernel/arch35/threshold_simt.h (entry threshold.cpp).

A pure SIMT kernel: ``Process<T>`` starts the 512-thread ``__simt_vf__ ThresholdSimtKernel<T>``
on each block, whose grid-stride loop writes ``1`` where ``float(x) > threshold`` and ``0``
elsewhere, in the input's type. The entry is the ``template <uint32_t schMode>`` kernel with the
one tiling key the host sets (``TILING_KEY_THRESHOLD``); ``DTYPE_X`` is the build's macro for
the input type, set here per run as the build system sets it per binary.

Tiling (threshold_tiling_data.h): ``needCoreNum`` blocks (the host takes every core), the
element count and the threshold attribute.

Golden: the op's exact formula in numpy (``x.astype(float32) > threshold``), compared exactly.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    GmPtr,
    Scalar,
    bfloat16_t,
    float32_t,
    half,
    int32_t,
    int64_t,
    template,
    uint8_t,
    uint64_t,
)
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.simt import __launch_bounds__, __simt_vf__, blockDim, blockIdx, dim3, gridDim, threadIdx
from production_ports import empty_device, from_device, tiling_to_device, to_device

T = TypeVar("T", bound=Scalar)
schMode = TypeVar("schMode")
DTYPE_X: type[Scalar] = float32_t

THREAD_NUM = 512
TILING_KEY_THRESHOLD = 0  # enum class ThresholdTilingKey


# ---- op_kernel/arch35/threshold_tiling_data.h ----------------------------------------------------
class ThresholdTilingData(Struct):
    needCoreNum: int32_t
    totalElements: int64_t
    threshold: float32_t


@__simt_vf__
@__aicore__
@__launch_bounds__(THREAD_NUM)
@template(T)
def ThresholdSimtKernel(
    totalElements: int, threshold: float, input: GmPtr[T], output: GmPtr[T]
) -> None:
    one = T(1.0)
    zero = T(0.0)

    for idx in range(
        uint64_t(blockIdx.x) * blockDim.x + threadIdx.x,
        uint64_t(totalElements),
        uint64_t(blockDim.x) * gridDim.x,
    ):
        valF32 = float32_t(input[idx])
        output[idx] = one if valF32 > threshold else zero


@__aicore__
@template(T)
def Process(input: GM_ADDR, output: GM_ADDR, tilingData: ThresholdTilingData) -> None:
    totalElements = tilingData.totalElements
    threshold = float32_t(tilingData.threshold)

    inputGm = input.cast(T)
    outputGm = output.cast(T)

    asc_vf_call[ThresholdSimtKernel[T]](
        dim3(THREAD_NUM), totalElements, threshold, inputGm, outputGm
    )


# ---- op_kernel/arch35/threshold.cpp --------------------------------------------------------------
@__global__
@__aicore__
@template(schMode)
def threshold(x: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR) -> None:
    REGISTER_TILING_DEFAULT(ThresholdTilingData)
    tilingData = GET_TILING_DATA_WITH_STRUCT(ThresholdTilingData, tiling)
    if schMode == TILING_KEY_THRESHOLD:
        Process[DTYPE_X](x, y, tilingData)


def run(x: np.ndarray, dtype: type[Scalar], value: float, core_num: int) -> np.ndarray:
    global DTYPE_X
    DTYPE_X = dtype  # -DDTYPE_X=... of the build
    gm = GlobalMemory()
    tilingData = ThresholdTilingData(needCoreNum=core_num, totalElements=x.size, threshold=value)
    xDevice, yDevice = to_device(gm, x, dtype), empty_device(gm, x.size, dtype, 7)
    workspace = empty_device(gm, 32, uint8_t)
    threshold[TILING_KEY_THRESHOLD][tilingData.needCoreNum, 0, None](
        xDevice, yDevice, workspace, tiling_to_device(gm, tilingData)
    )
    return from_device(yDevice, x.size, dtype)


@pytest.mark.parametrize(
    ("dtype", "n", "value", "core_num"),
    [
        (float32_t, 5000, 0.25, 4),
        (half, 3001, -1.5, 2),
        (bfloat16_t, 1500, 0.0, 3),
        (float32_t, 100, 1e30, 4),  # fewer elements than threads: idle threads
    ],
)
def test_threshold(dtype: type[Scalar], n: int, value: float, core_num: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.uniform(-4, 4, n).astype(dtype.np_dtype)
    x[:3] = np.array([value, np.nextafter(np.float32(value), np.float32(np.inf)), -0.0]).astype(
        dtype.np_dtype
    )
    golden = (x.astype(np.float32) > np.float32(value)).astype(dtype.np_dtype)
    out = run(x, dtype, value, core_num)
    np.testing.assert_array_equal(out.view(np.uint8), golden.view(np.uint8))

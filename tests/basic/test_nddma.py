"""ND-DMA DataCopy: NdDmaConfig, NdDmaLoopInfo, NdDmaParams (the NDDMA page's five scenarios).

Goldens are numpy (np.pad, transposes, broadcasts, slices) from the page's descriptions, and a
property test against the scalar reference of tests/reference/ndim_copy.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, Reg, float32_t, half, int8_t, int16_t, int64_t, uint8_t
from ascreg.basic import (
    __VEC_SCOPE__,
    PIPE_ALL,
    DataCopy,
    GlobalTensor,
    LocalMemAllocator,
    MultiCopyConfig,
    MultiCopyLoopInfo,
    MultiCopyParams,
    NdDmaConfig,
    NdDmaDci,
    NdDmaLoopInfo,
    NdDmaParams,
    PipeBarrier,
    kDefaultNdDmaConfig,
)
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError, SyncError
from ascreg.machine.block import BlockContext, block
from reference.ndim_copy import ndim_copy


def run(dtype: Any, src: np.ndarray, params: Any, dst_count: int, *templates: Any) -> np.ndarray:
    """DataCopy[dtype, *templates](dst, srcGm, params) into a fresh dst_count-element tensor."""
    gm = GlobalMemory().alloc(dtype, src.size)
    gm.write(src.ravel())
    srcGm = GlobalTensor[dtype]()
    srcGm.SetGlobalBuffer(gm, src.size)
    with block(BlockContext()):
        dst = LocalMemAllocator().Alloc[dtype](dst_count)
        dst.GetPhyAddr().write(np.zeros(dst_count, dtype.np_dtype))
        PipeBarrier[PIPE_ALL]()
        NdDmaDci()
        copy = DataCopy[(dtype, *templates)] if templates else DataCopy
        copy(dst, srcGm, params)
        PipeBarrier[PIPE_ALL]()
        return dst.GetPhyAddr().read(dst_count)


def test_2d_padding_with_a_constant() -> None:
    x = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    loopInfo = NdDmaLoopInfo[2]([1, 32], [1, 64], [32, 16], [15, 13], [17, 3])
    got = run(float32_t, x, NdDmaParams[float32_t, 2](loopInfo, 0), 32 * 64)
    np.testing.assert_array_equal(got.reshape(32, 64), np.pad(x, ((13, 3), (15, 17))))
    got = run(float32_t, x, NdDmaParams[float32_t, 2](loopInfo, -2.5), 32 * 64)
    want = np.pad(x, ((13, 3), (15, 17)), constant_values=-2.5)
    np.testing.assert_array_equal(got.reshape(32, 64), want)


def test_2d_padding_with_the_nearest_value() -> None:
    x = np.arange(28 * 15, dtype=np.float16).reshape(28, 15)
    loopInfo = NdDmaLoopInfo[2]([1, 15], [1, 32], [15, 28], [11, 3], [6, 1])
    params = NdDmaParams[half, 2](loopInfo, 0)
    got = run(half, x, params, 32 * 32, 2, NdDmaConfig(True))
    np.testing.assert_array_equal(got.reshape(32, 32), np.pad(x, ((3, 1), (11, 6)), mode="edge"))


def test_2d_transpose_broadcast_and_slice() -> None:
    x = np.arange(16 * 64, dtype=np.int16).reshape(16, 64)
    loopInfo = NdDmaLoopInfo[2]([1, 64], [16, 1], [64, 16], [0, 0], [0, 0])
    got = run(int16_t, x, NdDmaParams[int16_t, 2](loopInfo, 0), 64 * 16)
    np.testing.assert_array_equal(got.reshape(64, 16), x.T)

    row = np.arange(16, dtype=np.int16)
    loopInfo = NdDmaLoopInfo[2]([1, 0], [1, 16], [16, 3], [0, 0], [0, 0])
    got = run(int16_t, row, NdDmaParams[int16_t, 2](loopInfo, 0), 3 * 16)
    np.testing.assert_array_equal(got.reshape(3, 16), np.broadcast_to(row, (3, 16)))

    x = np.arange(32 * 64, dtype=np.int16).reshape(32, 64)
    loopInfo = NdDmaLoopInfo[2]([1, 64], [1, 16], [16, 16], [0, 0], [0, 0])
    got = run(int16_t, x, NdDmaParams[int16_t, 2](loopInfo, 0), 16 * 16)
    np.testing.assert_array_equal(got.reshape(16, 16), x[:16, :16])


def test_the_config_pads_every_loop_and_production_spellings() -> None:
    x = np.arange(4 * 8, dtype=np.int8).reshape(4, 8)
    info = MultiCopyLoopInfo[2]()  # as the kernels fill it: field by field
    info.loopSrcStride[0], info.loopSrcStride[1] = 1, 8
    info.loopDstStride[0], info.loopDstStride[1] = 1, 11
    info.loopSize[0], info.loopSize[1] = 8, 4
    info.loopLpSize[0] = 5  # overridden by the config
    config = MultiCopyConfig(False, 1, 2, False)
    params = MultiCopyParams[int8_t, 2](info, 7)
    got = run(int8_t, x, params, 7 * 11, 2, config)
    want = np.pad(x, ((1, 2), (1, 2)), constant_values=7)
    np.testing.assert_array_equal(got.reshape(7, 11), want)
    assert kDefaultNdDmaConfig.loopLpSize == NdDmaConfig.unsetPad == 0xFFFF


def test_64_bit_elements_pad_with_zero_only() -> None:
    x = np.arange(6, dtype=np.int64) - 3
    info = NdDmaLoopInfo[1]([1], [1], [6], [1], [1])
    got = run(int64_t, x, NdDmaParams[int64_t, 1](info, 0), 8)
    np.testing.assert_array_equal(got, np.pad(x, 1))
    with pytest.raises(AscregError, match="64-bit NDDMA copy pads only with the constant 0"):
        run(int64_t, x, NdDmaParams[int64_t, 1](info, 5), 8)
    with pytest.raises(AscregError, match="64-bit NDDMA copy pads only with the constant 0"):
        run(int64_t, x, NdDmaParams[int64_t, 1](info, 0), 8, 1, NdDmaConfig(True))


def test_bad_loops_and_arguments() -> None:
    x = np.arange(16, dtype=np.float32)
    one = NdDmaLoopInfo[1]([1], [1], [16])
    with pytest.raises(AscregTypeError, match="loopSize has 1 elements, got 2"):
        NdDmaLoopInfo[1]([1], [1], [4, 4])
    with pytest.raises(AscregTypeError, match=r"dim 6 is outside \[1, 5\]"):
        NdDmaLoopInfo[6]()
    with pytest.raises(AscregTypeError, match=r"loopSize\[0\] 0 is outside"):
        run(float32_t, x, NdDmaParams[float32_t, 1](), 16)
    with pytest.raises(AscregTypeError, match=r"loopLpSize\[0\] 256 is outside"):
        run(float32_t, x, NdDmaParams[float32_t, 1](NdDmaLoopInfo[1]([1], [1], [4], [256])), 300)
    with pytest.raises(AscregTypeError, match=r"NdDmaConfig.loopRpSize 300 is outside"):
        run(float32_t, x, NdDmaParams[float32_t, 1](one), 16, 1, NdDmaConfig(False, 0, 300))
    with pytest.raises(AscregTypeError, match="template dim 2 differs from the NdDmaParams<T, 1>"):
        run(float32_t, x, NdDmaParams[float32_t, 1](one), 16, 2, kDefaultNdDmaConfig)
    with pytest.raises(
        AscregTypeError, match=r"NdDmaParams<half, 1> but dst is LocalTensor<float>"
    ):
        run(float32_t, x, NdDmaParams[half, 1](one), 16)
    with pytest.raises(AscregTypeError, match=r"loopInfo must be an NdDmaLoopInfo<2>"):
        NdDmaParams[float32_t, 2](one)
    overlap = NdDmaLoopInfo[2]([1, 4], [1, 2], [4, 2])
    with pytest.raises(AscregError, match="land on the same UB element"):
        run(float32_t, x, NdDmaParams[float32_t, 2](overlap), 16)
    with pytest.raises(OutOfBoundsError, match="spans 16 elements of dst but LocalTensor<float>"):
        run(float32_t, x, NdDmaParams[float32_t, 1](one), 8)
    with pytest.raises(
        OutOfBoundsError, match="spans 31 elements of src but GlobalTensor<float> holds 16"
    ):
        run(float32_t, x, NdDmaParams[float32_t, 1](NdDmaLoopInfo[1]([2], [1], [16])), 16)


def test_direction_and_template_forms() -> None:
    gm = GlobalMemory().alloc(float32_t, 16)
    g = GlobalTensor[float32_t]()
    g.SetGlobalBuffer(gm, 16)
    params = NdDmaParams[float32_t, 1](NdDmaLoopInfo[1]([1], [1], [16]))
    with block(BlockContext()):
        t = LocalMemAllocator().Alloc[float32_t, 16]()
        with pytest.raises(AscregTypeError, match="copies GM -> UB: "):
            DataCopy(g, t, params)
        with pytest.raises(AscregTypeError, match=r"DataCopy\[T, dim, config\] takes NdDmaParams"):
            DataCopy[float32_t, 1](t, g, 16)


def test_the_copy_runs_on_mte2() -> None:
    gm = GlobalMemory().alloc(float32_t, 64)
    g = GlobalTensor[float32_t]()
    g.SetGlobalBuffer(gm, 64)
    params = NdDmaParams[float32_t, 1](NdDmaLoopInfo[1]([1], [1], [64]))
    with block(BlockContext()):
        t = LocalMemAllocator().Alloc[float32_t, 64]()
        DataCopy(t, g, params)
        with (
            pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_MTE2 wrote"),
            __VEC_SCOPE__,
        ):
            reg = Reg.RegTensor[float32_t]()
            Reg.LoadAlign(reg, t.GetPhyAddr())


@st.composite
def loop_infos(draw: Any) -> tuple[int, list[tuple[int, int, int, int, int]]]:
    """Up to three loops with pads; dense destination strides, source rows maybe longer."""
    dims = draw(st.integers(1, 3))
    loops, dst_stride, src_stride = [], 1, 1
    for _ in range(dims):
        size = draw(st.integers(1, 4))
        left, right = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        loops.append((size, left, right, dst_stride, src_stride))
        dst_stride *= left + size + right
        src_stride *= size + draw(st.integers(0, 1))
    return dims, loops


@pytest.mark.parametrize("dtype", [uint8_t, half, float32_t], ids=str)
@given(shape=loop_infos(), nearest=st.booleans())
def test_nddma_matches_the_reference(dtype: Any, shape: Any, nearest: bool) -> None:
    dims, loops = shape
    src_count = 1 + sum((size - 1) * src_stride for size, _, _, _, src_stride in loops)
    dst_count = 1 + sum((left + size + right - 1) * d for size, left, right, d, _ in loops)
    values = (np.arange(src_count) % 97 + 1).astype(dtype.np_dtype)
    info = NdDmaLoopInfo[dims](
        [loop[4] for loop in loops],
        [loop[3] for loop in loops],
        [loop[0] for loop in loops],
        [loop[1] for loop in loops],
        [loop[2] for loop in loops],
    )
    config = NdDmaConfig(nearest)
    got = run(dtype, values, NdDmaParams[dtype, dims](info, 9), dst_count, dims, config)
    want = ndim_copy(values.tolist(), [0] * dst_count, loops, None if nearest else 9)
    assert got.tolist() == want

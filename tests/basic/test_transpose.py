"""``Transpose`` against the page's reference (数据排布转换/Transpose.md): ``src.T`` of a 16 x 16
matrix, ``np.transpose`` with axes (0, 2, 3, 1) / (0, 3, 1, 2), written as explicit index loops."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import float32_t, half, int8_t, int16_t, int32_t, uint8_t, uint16_t
from ascreg.basic import (
    PIPE_ALL,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
    Transpose,
    TransposeParamsExt,
    TransposeType,
)
from ascreg.basic._transpose import tmp_bytes
from ascreg.errors import AscregError, AscregTypeError, UndefinedBehaviourError, UnsupportedError
from ascreg.machine.block import BlockContext, block

NCHW, NHWC = TransposeType.TRANSPOSE_NCHW2NHWC, TransposeType.TRANSPOSE_NHWC2NCHW


def alloc(dtype: Any, count: int) -> Any:
    return LocalMemAllocator[Hardware.UB]().Alloc[dtype, max(count, 1)]()


def reference(values: list[int], kind: TransposeType, n: int, c: int, h: int, w: int) -> list[int]:
    """out[n][h][w][c] = in[n][c][h][w] (NCHW2NHWC), out[n][c][h][w] = in[n][h][w][c] (back)."""
    out = [0] * len(values)
    for a in range(n):
        for b in range(c):
            for y in range(h):
                for x in range(w):
                    nchw = ((a * c + b) * h + y) * w + x
                    nhwc = ((a * h + y) * w + x) * c + b
                    if kind is NCHW:
                        out[nhwc] = values[nchw]
                    else:
                        out[nchw] = values[nhwc]
    return out


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.sampled_from([int16_t, uint16_t, half]), st.booleans(), st.integers(0, 2**32 - 1))
def test_the_16x16_transpose(dtype: Any, extended: bool, seed: int) -> None:
    bits = np.random.default_rng(seed).integers(0, 2**16, 256).astype(np.uint16)
    with block(BlockContext()):
        src, dst = alloc(dtype, 256), alloc(dtype, 256)
        src.GetPhyAddr().write(bits.view(dtype.np_dtype))
        PipeBarrier[PIPE_ALL]()
        if extended:
            Transpose(
                dst,
                src,
                alloc(uint8_t, 32),
                TransposeParamsExt(0, 0, 16, 16, TransposeType.TRANSPOSE_ND2ND_B16),
            )
        else:
            Transpose(dst, src)
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(256).view(np.uint16).tolist()
    assert got == [int(bits[j * 16 + i]) for i in range(16) for j in range(16)]


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.sampled_from([int8_t, half, float32_t, int32_t]), st.sampled_from([NCHW, NHWC]),
       st.integers(0, 2), st.integers(0, 3), st.integers(1, 4), st.integers(0, 2**32 - 1))  # fmt: skip
def test_the_layout_conversions(
    dtype: Any, kind: TransposeType, n: int, c: int, h: int, seed: int
) -> None:
    w = 32 // dtype.size  # h * w * sizeof(T): whole DataBlocks
    count = n * c * h * w
    values = np.random.default_rng(seed).integers(0, 100, max(count, 1)).astype(dtype.np_dtype)
    with block(BlockContext()):
        src, dst = alloc(dtype, count), alloc(dtype, count)
        tmp = alloc(uint8_t, tmp_bytes(kind, dtype, c))
        src.GetPhyAddr().write(values)
        dst.GetPhyAddr().write(np.zeros(max(count, 1), dtype.np_dtype))
        PipeBarrier[PIPE_ALL]()
        Transpose(dst, src, tmp, TransposeParamsExt(n, c, h, w, kind))
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(count).tolist()
    assert got == reference(values[:count].tolist(), kind, n, c, h, w)


def test_transpose_rules() -> None:
    with block(BlockContext()):
        f, h16 = alloc(float32_t, 256), alloc(half, 256)
        tmp = alloc(uint8_t, 64)
        f.GetPhyAddr().write(np.zeros(256, np.float32))
        h16.GetPhyAddr().write(np.zeros(256, np.float16))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(
            AscregTypeError,
            match="Transpose: the 16 x 16 transpose takes int16_t, uint16_t, half on the 950, not float",
        ):
            Transpose(f, f)
        with pytest.raises(
            AscregTypeError,
            match="Transpose: src is a LocalTensor<half> but dst is a LocalTensor<float>",
        ):
            Transpose(f, h16)
        with pytest.raises(UnsupportedError, match="TRANSPOSE_NZ2ND_0213 is not supported"):
            Transpose(f, f, tmp, TransposeParamsExt(1, 1, 1, 8, TransposeType.TRANSPOSE_NZ2ND_0213))
        with pytest.raises(
            AscregError, match="sharedTmpBuffer holds 64 bytes; this transpose needs 1536"
        ):
            Transpose(f, f[128], tmp, TransposeParamsExt(1, 1, 1, 8, NCHW))
        with pytest.raises(
            AscregError, match="hSize \\* wSize \\* sizeof\\(T\\) = 12 is not a multiple of 32"
        ):
            Transpose(f, f[128], alloc(uint8_t, 4096), TransposeParamsExt(1, 1, 1, 3, NCHW))
        with pytest.raises(AscregTypeError, match=r"cSize 4096 is outside \[0, 4095\]"):
            Transpose(f, f[128], tmp, TransposeParamsExt(1, 4096, 1, 8, NCHW))
        with pytest.raises(UndefinedBehaviourError, match="src and dst overlap"):
            Transpose(h16, h16)
        Transpose(
            f, f, tmp, TransposeParamsExt(1, 1, 1, 8, TransposeType.TRANSPOSE_TYPE_NONE)
        )  # nothing

"""ShapeInfo, GetShapeSize, Set/GetShapeInfo, Set/GetUserTag and LocalTensor.Print, from their pages.

ShapeInfo.md: the struct's three constructors (the original shape is the shape unless given,
format ND unless given), at most K_MAX_SHAPE_DIM = 8 dims; GetShapeSize multiplies the shapeDim
dims. The user tag lives in the TQue / TBuf buffer (-1 after InitBuffer). Print writes one
32-byte DataBlock per row: ``%04d : `` then each value and a space.
"""

from __future__ import annotations

import contextlib
import io
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, bfloat16_t, float32_t, half, int8_t, int32_t, uint16_t
from ascreg.basic import (
    K_MAX_SHAPE_DIM,
    DataFormat,
    GetShapeSize,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    LocalTensor,
    ShapeInfo,
    TBuf,
    TPipe,
    TPosition,
    TQue,
)
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.block import BlockContext, block

DIMS = st.lists(st.integers(0, 2**12), min_size=0, max_size=K_MAX_SHAPE_DIM)


@settings(max_examples=40, derandomize=True)
@given(DIMS, DIMS, st.sampled_from(list(DataFormat)), st.integers(0, 2))
def test_shape_info_constructors_and_size(
    shape: list[int], original: list[int], fmt: DataFormat, form: int
) -> None:
    args: tuple[Any, ...] = (
        (len(shape), shape),
        (len(shape), shape, fmt),
        (len(shape), shape, len(original), original, fmt),
    )[form]
    info = ShapeInfo(*args)
    want_original = original if form == 2 else shape
    assert info.shapeDim == len(shape) and info.shape == shape + [0] * (8 - len(shape))
    assert info.originalShapeDim == len(want_original)
    assert info.originalShape[: len(want_original)] == want_original
    assert info.dataFormat is (fmt if form else DataFormat.ND)
    assert GetShapeSize(info) == math.prod(shape)


def test_shape_info_rules() -> None:
    with pytest.raises(AscregTypeError, match=r"shapeDim 9 is outside \[0, 8\]"):
        ShapeInfo(9, [1] * 9)
    with pytest.raises(AscregTypeError, match="shape has 1 values, fewer than shapeDim = 2"):
        ShapeInfo(2, [4])
    with pytest.raises(AscregTypeError, match=r"shape -1 is outside \[0, 4294967295\]"):
        ShapeInfo(1, [-1])
    with pytest.raises(AscregTypeError, match="ShapeInfo takes"):
        ShapeInfo(1)
    with pytest.raises(AscregTypeError, match="dataFormat"):
        ShapeInfo(1, [2], 3)
    assert GetShapeSize(ShapeInfo()) == 1


def test_tensors_keep_a_copy_of_their_shape() -> None:
    g = GlobalTensor[float32_t]()
    g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 64), 64)
    with block(BlockContext()):
        x = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
        for tensor in (g, x):
            with pytest.raises(
                AscregError, match=r"GetShapeInfo: .* has no shape: call SetShapeInfo first"
            ):
                tensor.GetShapeInfo()
            info = ShapeInfo(2, [8, 8], 2, [7, 8], DataFormat.NZ)
            tensor.SetShapeInfo(info)
            info.shape[0] = 99  # the tensor kept a copy
            got = tensor.GetShapeInfo()
            got.shape[1] = 77  # and hands out copies
            again = tensor.GetShapeInfo()
            assert (again.shape[:2], again.originalShape[:2], again.dataFormat) == (
                [8, 8],
                [7, 8],
                DataFormat.NZ,
            )
            with pytest.raises(AscregTypeError, match="shapeInfo"):
                tensor.SetShapeInfo([8, 8])


def test_the_user_tag_lives_in_the_buffer() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECIN, 2]()
        buf = TBuf()
        pipe.InitBuffer(que, 2, 256)
        pipe.InitBuffer(buf, 256)
        a = que.AllocTensor[half]()
        b = que.AllocTensor[half]()
        assert (a.GetUserTag(), b.GetUserTag()) == (-1, -1)  # InitBuffer's -1
        a.SetUserTag(10)
        b.SetUserTag(-(2**31))
        assert (a.GetUserTag(), a[16].GetUserTag(), b.GetUserTag()) == (10, 10, -(2**31))
        assert a.ReinterpretCast[uint16_t]().GetUserTag() == 10
        t = buf.Get[int32_t]()
        t.SetUserTag(5)
        assert buf.Get[half]().GetUserTag() == 5
        with pytest.raises(AscregTypeError, match=r"tag 2147483648 is outside"):
            a.SetUserTag(2**31)
        static = LocalTensor[half](TPosition.VECCALC, 4096, 16)
        with pytest.raises(AscregError, match=r"LocalTensor\.SetUserTag: .* has no buffer handle"):
            static.SetUserTag(1)


def cpp_stream(value: Any) -> str:
    """``std::cout << value``: an integer in decimal, a float as C's ``%.6g``."""
    if np.issubdtype(type(value), np.integer):
        return str(int(value))
    return "%.6g" % float(value)  # noqa: UP031 (C's printf conversion, as the stream's default)


def printed_rows(values: list[Any], dtype: Any, length: int) -> str:
    """The CPU build's Print (kernel_tensor_impl.h), written out: rows of one DataBlock."""
    per_row = 32 // dtype.size
    rows = []
    for start in range(0, length, per_row):
        cells = "".join(f"{cpp_stream(v)} " for v in values[start : min(start + per_row, length)])
        rows.append(f"{start:04d} : {cells}\n")
    return "".join(rows)


@settings(max_examples=20, derandomize=True)
@given(
    st.sampled_from([int8_t, half, bfloat16_t, float32_t, int32_t]),
    st.integers(0, 80),
    st.integers(0, 2**31),
)
def test_print_writes_one_data_block_per_row(dtype: Any, length: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    raw = (
        rng.integers(-100, 100, 64).astype(dtype.np_dtype)
        if dtype in (int8_t, int32_t)
        else (rng.standard_normal(64) * 100).astype(dtype.np_dtype)
    )
    out = io.StringIO()
    with block(BlockContext()), contextlib.redirect_stdout(out):
        t = LocalMemAllocator[Hardware.UB]().Alloc[dtype, 64]()
        t.GetPhyAddr().write(raw)
        t.Print(length)
    assert out.getvalue() == printed_rows(list(raw), dtype, min(length, 64))


def test_print_without_len_prints_everything(capsys: Any) -> None:
    with block(BlockContext()):
        t = LocalMemAllocator[Hardware.UB]().Alloc[int8_t, 64]()
        t.GetPhyAddr().write(np.arange(64) - 32)
        t.Print()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{0:04d} : " + " ".join(str(v) for v in range(-32, 0)) + " ",
        f"{32:04d} : " + " ".join(str(v) for v in range(32)) + " ",
    ]

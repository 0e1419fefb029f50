"""The basic API's L1 ``Fill(dst, InitConstValueParams)`` against a model written from its page.

The page (基础API/矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md): ``repeatTimes`` iterations
each set ``blockNum`` 32-byte blocks to ``initValue``, ``dstGap`` blocks from one iteration's
end to the next one's start; 0 repeats or blocks do nothing; on the Ascend 950 the tensor is in
L1 (A1 / B1), 32-byte aligned, of int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or
float, and ``U`` is ``T``.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    uint16_t,
    uint32_t,
)
from ascreg.basic import Fill, InitConstValueParams, LocalTensor, TPosition
from ascreg.errors import AlignmentError, AscregTypeError
from ascreg.machine.kernel import BlockContext, block

AREA = 2048
"""The L1 bytes each test looks at (starting at the tensor)."""


def model(nbytes: int, value: bytes, repeat: int, blocks: int, gap: int, old: int = 0xAB) -> bytes:
    """The page's fill, byte by byte: iteration i sets blocks x 32 bytes after i x (blocks + gap)."""
    out = bytearray([old]) * nbytes
    for i in range(repeat):
        for b in range(blocks):
            start = (i * (blocks + gap) + b) * 32
            for j in range(32):
                if start + j < nbytes:
                    out[start + j] = value[j % len(value)]
    return bytes(out)


def run(dtype: Any, params: Any, position: Any = TPosition.A1, at: int = 0) -> bytes:
    with block(BlockContext()) as ctx:
        whole = LocalTensor[int8_t](position, 0, 65536)
        whole.GetPhyAddr().write(np.full(65536, 0xAB, np.uint8).view(np.int8))
        ctx.tracker.barrier()
        dst = LocalTensor[dtype](position, at, AREA // dtype.size)
        Fill(dst, params)
        ctx.tracker.barrier()
        return bytes(whole.GetPhyAddr().read(at + AREA).view(np.uint8)[at:])


VALUES = [
    (uint16_t, 0, np.uint16(0).tobytes()),
    (uint16_t, 0xBEEF, np.uint16(0xBEEF).tobytes()),
    (int16_t, -2, np.int16(-2).tobytes()),
    (half, 0.1, np.float16(0.1).tobytes()),  # a Python float rounds to half
    (bfloat16_t, 1.00390625, np.asarray(1.00390625, ml_dtypes.bfloat16).tobytes()),
    (int32_t, -7, np.int32(-7).tobytes()),
    (uint32_t, 0xFFFFFFFF, np.uint32(0xFFFFFFFF).tobytes()),
    (float32_t, -0.0, np.float32(-0.0).tobytes()),
]


@pytest.mark.parametrize(("dtype", "value", "word"), VALUES)
def test_fill_writes_the_value_over_the_blocks(dtype: Any, value: Any, word: bytes) -> None:
    got = run(dtype, InitConstValueParams[dtype](3, 2, 1, value), TPosition.B1, 64)
    assert got == model(AREA, word, 3, 2, 1)


def test_the_two_argument_constructor_is_a_nop_on_the_950() -> None:
    """``(repeatTimes, initValue)`` leaves blockNum 0: the page's NOP."""
    assert run(half, InitConstValueParams[half](5, 1.0)) == model(AREA, b"", 0, 0, 0)


def test_the_mmad_mx_example_padding() -> None:
    """The mmad_mx example zeroes the last 32 bytes of K of each of 48 rows (one block each)."""
    params = InitConstValueParams[uint16_t]()
    params.repeatTimes, params.blockNum, params.initValue = 48, 1, 0
    got = run(uint16_t, params)
    assert got == model(AREA, b"\0\0", 48, 1, 0)


SMALL = settings(max_examples=25, derandomize=True, deadline=None)


@SMALL
@given(
    dtype=st.sampled_from([uint16_t, int32_t]),
    repeat=st.integers(0, 6),
    blocks=st.integers(0, 4),
    gap=st.integers(0, 5),
    word=st.integers(0, 2**15 - 1),
)
def test_fill_matches_the_model(dtype: Any, repeat: int, blocks: int, gap: int, word: int) -> None:
    got = run(dtype, InitConstValueParams[dtype](repeat, blocks, gap, word))
    value = np.asarray(word, dtype.np_dtype).tobytes()
    assert got == model(AREA, value, repeat, blocks, gap)


@pytest.mark.parametrize(
    ("dtype", "position", "params", "at", "error", "match"),
    [
        (int8_t, TPosition.A1, InitConstValueParams[int8_t](1, 1, 0, 0), 0, AscregTypeError,
         "dst holds int8_t; .*Fill.md fills int16_t"),
        (half, TPosition.A1, InitConstValueParams[float32_t](1, 1, 0, 0.0), 0, AscregTypeError,
         r"InitConstValueParams<float> into a LocalTensor<half>: U must be T"),
        (half, TPosition.A2, InitConstValueParams[half](1, 1, 0, 0.0), 0, AscregTypeError,
         "dst is a A2 tensor; on the Ascend 950 .*Fill.md fills L1 only"),
        (half, TPosition.A1, InitConstValueParams[half](32768, 1, 0, 0.0), 0, AscregTypeError,
         r"InitConstValueParams.repeatTimes 32768 is outside \[0, 32767\]"),
        (half, TPosition.A1, InitConstValueParams[half](1, 1, -1, 0.0), 0, AscregTypeError,
         r"InitConstValueParams.dstGap -1 is outside \[0, 32767\]"),
        (uint16_t, TPosition.A1, InitConstValueParams[uint16_t](1, 1, 0, 65536), 0,
         AscregTypeError, r"initValue 65536 is outside \[0, 65535\]"),
        (half, TPosition.A1, InitConstValueParams[half](1, 1, 0, "1"), 0, AscregTypeError,
         "initValue must be a number, got str"),
        (half, TPosition.A1, InitConstValueParams[half](1, 1, 0, 1.0), 8, AlignmentError,
         "32-byte aligned"),
    ],
)  # fmt: skip
def test_fill_errors_name_the_rule(
    dtype: Any, position: Any, params: Any, at: int, error: type, match: str
) -> None:
    with block(BlockContext()):
        dst = LocalTensor[dtype](position, 0, 256)[at]  # at: an element offset
        with pytest.raises(error, match=match) as info:
            Fill(dst, params)
    assert "Fill" in str(info.value)


def test_the_params_take_zero_two_or_four_arguments() -> None:
    with pytest.raises(AscregTypeError, match="InitConstValueParams takes"):
        InitConstValueParams[half](1, 2, 3)

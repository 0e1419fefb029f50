"""``BilinearInterpolation`` against the page's steps (基础算术/BilinearInterpolation(ISASI).md):
gather 8 DataBlocks of src0 per step, multiply by src1 (one value, or one per DataBlock), add
the steps of a vertical repeat, store the masked lanes DataBlock by DataBlock."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import half, uint8_t, uint32_t
from ascreg.basic import PIPE_ALL, BilinearInterpolation, Hardware, LocalMemAllocator, PipeBarrier
from ascreg.errors import AscregError, AscregTypeError, UndefinedBehaviourError
from ascreg.machine.block import BlockContext, block
from reference.arith import binary


def alloc(dtype: Any, count: int) -> Any:
    return LocalMemAllocator[Hardware.UB]().Alloc[dtype, count]()


def bits(values: np.ndarray[Any, Any]) -> list[int]:
    return list(values.view(np.uint16).tolist())


def reference(dst: list[int], src0: list[int], offsets: list[int], src1: list[int], lanes: list[bool],
              h: int, v: int, mode: bool, stride: int, step: int) -> list[int]:  # fmt: skip
    """Bits in, bits out: acc = src0_block * src1 + acc per step (half, each rounded), from +0."""
    out = list(dst)
    for i in range(v):
        acc = [0] * 128
        for j in range(h):
            k = i * h + j
            for lane in range(128):
                if not lanes[lane]:
                    continue
                blk, pos = divmod(lane, 16)
                x = src0[offsets[8 * k + blk] // 2 + pos]
                y = src1[8 * k + blk] if mode else src1[k]
                acc[lane] = binary("Add", half, binary("Mul", half, x, y), acc[lane])
        for lane in range(128):
            if lanes[lane]:
                blk, pos = divmod(lane, 16)
                out[i * step + blk * stride * 16 + pos] = acc[lane]
    return out


@settings(max_examples=12, derandomize=True, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.booleans(), st.integers(0, 2), st.sampled_from([128, 144, 256]),
       st.one_of(st.integers(0, 130), st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=2)),
       st.integers(0, 2**32 - 1))  # fmt: skip
def test_bilinear_interpolation_matches_the_pages_steps(
    h: int, v: int, mode: bool, stride: int, step: int, mask: Any, seed: int
) -> None:
    if (7 * stride + 1) * 32 > step * 2:
        stride = 1
    rng = np.random.default_rng(seed)
    src0_blocks = 16
    src0 = (rng.integers(-8, 8, src0_blocks * 16) / 4).astype(np.float16)
    offsets = (rng.integers(0, src0_blocks, 8 * h * v) * 32).astype(np.uint32)
    src1 = (rng.integers(-4, 5, 8 * h * v + 16) / 2).astype(np.float16)
    dst_len = (v - 1) * step + (7 * max(stride, 1) + 1) * 16
    dst0 = rng.standard_normal(dst_len).astype(np.float16)
    if isinstance(mask, int):
        lanes = [lane < min(mask, 128) for lane in range(128)]
    else:
        lanes = [bool(mask[lane // 64] >> (lane % 64) & 1) for lane in range(128)]
    with block(BlockContext()):
        d, a = alloc(half, dst_len), alloc(half, src0.size)
        o, b, tmp = alloc(uint32_t, offsets.size), alloc(half, src1.size), alloc(uint8_t, 32)
        d.GetPhyAddr().write(dst0)
        a.GetPhyAddr().write(src0)
        o.GetPhyAddr().write(offsets)
        b.GetPhyAddr().write(src1)
        PipeBarrier[PIPE_ALL]()
        BilinearInterpolation(d, a, o, b, mask, h, mode, stride, step, v, tmp)
        PipeBarrier[PIPE_ALL]()
        got = d.GetPhyAddr().read(dst_len).view(np.uint16).tolist()
    want = reference(
        bits(dst0), bits(src0), offsets.tolist(), bits(src1), lanes, h, v, mode, stride, step
    )
    assert got == want


def test_the_pages_example_with_repeat_mode() -> None:
    """The page's input (src0 1..512, offsets 0, 32, ..., src1 2..33, h = v = 2, mask 128), repeatMode true."""
    with block(BlockContext()):
        a, o, b = alloc(half, 512), alloc(uint32_t, 32), alloc(half, 32)
        d, tmp = alloc(half, 256), alloc(uint8_t, 32)
        a.GetPhyAddr().write(np.arange(1, 513))
        o.GetPhyAddr().write(np.arange(32) * 32)
        b.GetPhyAddr().write(np.arange(2, 34))
        PipeBarrier[PIPE_ALL]()
        BilinearInterpolation(d, a, o, b, 128, 2, True, 1, 128, 2, tmp)
        PipeBarrier[PIPE_ALL]()
        got = d.GetPhyAddr().read(256).tolist()
    # step 3 of the page: block b of iteration k times src1[8k + b]; step 4: iterations 0 + 1, 2 + 3
    want = [float(np.float16(np.float16((1 + n) * (2 + n // 16)) + np.float16((129 + n) * (10 + n // 16))))
            for n in range(128)]  # fmt: skip
    assert got[:128] == want


def test_bilinear_interpolation_rules() -> None:
    with block(BlockContext()):
        a, o, b = alloc(half, 512), alloc(uint32_t, 32), alloc(half, 32)
        d, tmp = alloc(half, 512), alloc(uint8_t, 32)
        with pytest.raises(
            AscregTypeError, match=r"BilinearInterpolation: vROffset 100 is outside \[128, 65534\]"
        ):
            BilinearInterpolation(d, a, o, b, 128, 2, False, 1, 100, 2, tmp)
        with pytest.raises(
            AscregError, match="vROffset \\* sizeof\\(half\\) = 260 is not a multiple of 32"
        ):
            BilinearInterpolation(d, a, o, b, 128, 2, False, 1, 130, 2, tmp)
        with pytest.raises(AscregTypeError, match=r"hRepeat 0 is outside \[1, 255\]"):
            BilinearInterpolation(d, a, o, b, 128, 0, False, 1, 128, 2, tmp)
        with pytest.raises(
            AscregError, match="repeatMode true needs src1's length \\* 16 >= src0's"
        ):
            BilinearInterpolation(d, a, o, alloc(half, 16), 128, 1, True, 1, 128, 1, tmp)
        with pytest.raises(UndefinedBehaviourError, match="vertical repeats' destinations overlap"):
            BilinearInterpolation(d, a, o, b, 128, 1, False, 2, 128, 2, tmp)
        with pytest.raises(
            AscregTypeError, match="BilinearInterpolation: src0Offset is a LocalTensor<half>"
        ):
            BilinearInterpolation(d, a, b, b, 128, 1, False, 1, 128, 1, tmp)
        with pytest.raises(AscregTypeError, match="sharedTmpBuffer is a LocalTensor<half>"):
            BilinearInterpolation(d, a, o, b, 128, 1, False, 1, 128, 1, b)

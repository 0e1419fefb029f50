"""``Gatherb`` against the page's pseudo-code (离散与聚合/Gatherb(ISASI).md), written per element."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import float32_t, half, int8_t, int16_t, uint32_t, uint64_t
from ascreg.basic import (
    PIPE_ALL,
    Gatherb,
    GatherRepeatParams,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
)
from ascreg.errors import AlignmentError, AscregTypeError, OutOfBoundsError, UndefinedBehaviourError
from ascreg.machine.block import BlockContext, block

TYPES = [int8_t, int16_t, half, float32_t, uint32_t, uint64_t]


def reference(
    dst: np.ndarray, src: np.ndarray, offset: list[int], repeat: int, blk: int, rep: int
) -> np.ndarray:
    """The page's loop: dst[block (i * rep + j * blk)] = src[offset[8i+j] bytes, +32 bytes]."""
    out = dst.copy()
    size = src.dtype.itemsize
    blk = blk or 1
    for i in range(repeat):
        for j in range(8):
            s0 = offset[i * 8 + j] // size
            d0 = (i * 32 * rep + j * 32 * blk) // size
            out[d0 : d0 + 32 // size] = src[s0 : s0 + 32 // size]
    return out


@settings(max_examples=30, derandomize=True, deadline=None)
@given(st.sampled_from(TYPES), st.integers(0, 3), st.integers(0, 3), st.integers(0, 20), st.data())
def test_gatherb_matches_the_pages_loop(
    dtype: Any, repeat: int, blk: int, rep: int, data: st.DataObject
) -> None:
    src_blocks = 12
    offsets = data.draw(
        st.lists(
            st.integers(0, src_blocks - 1), min_size=8 * max(repeat, 1), max_size=8 * max(repeat, 1)
        )
    )
    offsets = [32 * o for o in offsets]
    dst_blocks = max(repeat - 1, 0) * rep + 7 * max(blk, 1) + 1
    per = 32 // dtype.size
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    src_values = rng.integers(0, 256, src_blocks * 32, dtype=np.uint8).view(dtype.np_dtype)
    dst_values = rng.integers(0, 256, dst_blocks * 32, dtype=np.uint8).view(dtype.np_dtype)
    with block(BlockContext()):
        src = LocalMemAllocator[Hardware.UB]().Alloc[dtype, src_blocks * per]()
        dst = LocalMemAllocator[Hardware.UB]().Alloc[dtype, dst_blocks * per]()
        off = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, len(offsets)]()
        src.GetPhyAddr().write(src_values)
        dst.GetPhyAddr().write(dst_values)
        off.GetPhyAddr().write(np.array(offsets, np.uint32))
        PipeBarrier[PIPE_ALL]()
        Gatherb(dst, src, off, repeat, GatherRepeatParams(blk, rep))
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(dst_blocks * per)
    want = reference(dst_values, src_values, offsets, repeat, blk, rep)
    assert got.view(np.uint8).tolist() == want.view(np.uint8).tolist()


def test_gatherb_rules() -> None:
    with block(BlockContext()):
        src = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
        dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 128]()
        off = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 8]()
        wrong = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
        src.GetPhyAddr().write(np.zeros(64, np.float16))
        off.GetPhyAddr().write(np.array([0, 16, 0, 0, 0, 0, 0, 0], np.uint32))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(AlignmentError, match="Gatherb: offset 16 is not a multiple of 32"):
            Gatherb(dst, src, off, 1, GatherRepeatParams())
        PipeBarrier[PIPE_ALL]()
        off.GetPhyAddr().write(np.array([128] * 8, np.uint32))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(OutOfBoundsError):
            Gatherb(dst, src, off, 1, GatherRepeatParams())
        with pytest.raises(
            AscregTypeError,
            match="Gatherb: src is a LocalTensor<float> but dst is a LocalTensor<half>",
        ):
            Gatherb(dst, wrong, off, 1, GatherRepeatParams())
        with pytest.raises(AscregTypeError, match="Gatherb: offset is a LocalTensor<half>"):
            Gatherb(dst, src, src, 1, GatherRepeatParams())
        with pytest.raises(AscregTypeError, match=r"Gatherb: repeatTime 256 is outside \[0, 255\]"):
            Gatherb(dst, src, off, 256, GatherRepeatParams())
        with pytest.raises(AlignmentError, match="Gatherb: dst must be 32-byte aligned"):
            Gatherb(dst[1], src, off, 1, GatherRepeatParams())
        PipeBarrier[PIPE_ALL]()
        off.GetPhyAddr().write(np.zeros(8, np.uint32))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UndefinedBehaviourError, match="both read and written"):
            Gatherb(src, src, off, 1, GatherRepeatParams())

"""The C API DMA configuration: GM <-> UB copy loops and the n-dimensional GM -> UB copy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, float32_t, int8_t, int16_t, uint8_t
from ascreg.errors import AscregTypeError
from ascreg.machine.kernel import BlockContext, block
from reference.ndim_copy import ndim_copy

LOOP_ROWS = [
    f"asc_set_{d}_loop{k}" for d in ("gm2ub", "ub2gm") for k in ("_size", "1_stride", "2_stride")
]
NDIM_ROWS = [f"asc_set_ndim_loop{n}_stride" for n in range(5)] + [
    "asc_set_ndim_pad_count", "asc_set_ndim_pad_value", "asc_ndim_copy_gm2ub"
]  # fmt: skip


@pytest.mark.rows(*LOOP_ROWS)
def test_documented_gm2ub_loop_example_and_ub2gm_loops() -> None:
    src = GlobalMemory().alloc(int8_t, 512)
    src.write((np.arange(512) % 100).astype(np.int8))
    out = GlobalMemory().alloc(int8_t, 1024)
    out.write(np.zeros(1024, np.int8))
    with block(BlockContext()):
        dst = C.__ubuf__(int8_t, 512)
        dst.write(np.zeros(512, np.int8))
        C.asc_sync()
        C.asc_set_gm2ub_loop_size(2, 2)
        C.asc_set_gm2ub_loop1_stride(96, 128)
        C.asc_set_gm2ub_loop2_stride(192, 288)
        C.asc_copy_gm2ub_align(dst, src, 2, 48, 0, 0, False, C.asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM, 48, 48)  # fmt: skip
        C.asc_set_gm2ub_loop_size(1, 1)
        C.asc_sync()
        got = dst.read(512).tolist()
        C.asc_set_ub2gm_loop_size(3, 1)
        C.asc_set_ub2gm_loop1_stride(32, 100)
        C.asc_copy_ub2gm(out, dst, 32)
        C.asc_set_ub2gm_loop_size(1, 1)
    want = [0] * 512
    for outer in range(2):
        for inner in range(2):
            s, d = inner * 96 + outer * 192, inner * 128 + outer * 288
            want[d : d + 96] = [(i % 100) for i in range(s, s + 96)]
    assert got == [w if w < 128 else w - 256 for w in want]
    for i in range(3):
        assert out.read(1024)[i * 100 : i * 100 + 32].tolist() == got[i * 32 : i * 32 + 32]


@pytest.mark.rows(*LOOP_ROWS)
def test_loop_register_limits() -> None:
    with block(BlockContext()):
        with pytest.raises(AscregTypeError, match="multiple of 32"):
            C.asc_set_gm2ub_loop1_stride(96, 100)  # the UB (destination) stride
        with pytest.raises(AscregTypeError, match="multiple of 32"):
            C.asc_set_ub2gm_loop2_stride(40, 96)  # the UB (source) stride
        with pytest.raises(AscregTypeError, match=r"loop1_size 2097152 is outside"):
            C.asc_set_gm2ub_loop_size(1 << 21, 1)
        C.asc_set_gm2ub_loop_size(0, 1)  # no repetition at all: the copy moves nothing
        src = GlobalMemory().alloc(uint8_t, 32)
        dst = C.__ubuf__(uint8_t, 32)
        dst.write(np.full(32, 9, np.uint8))
        C.asc_sync()
        C.asc_copy_gm2ub(dst, src, 32)
        C.asc_sync()
        assert dst.read(32).tolist() == [9] * 32


@st.composite
def ndim_shapes(draw: Any) -> list[tuple[int, int, int, int, int]]:
    """Up to three non-trivial dimensions with pads; dense or transposed destination strides."""
    dims = draw(st.integers(1, 3))
    loops = []
    dst_stride, src_stride = 1, 1
    for n in range(5):
        if n >= dims:
            loops.append((1, 0, 0, 0, 0))
            continue
        size = draw(st.integers(1, 4))
        left, right = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        if n > 0 and (left or right) and draw(st.booleans()):
            left = right = 0  # (pads of loops 1-4 come from asc_set_ndim_pad_count)
        loops.append((size, left, right, dst_stride, src_stride))
        dst_stride *= left + size + right
        src_stride *= size + draw(st.integers(0, 1))  # a source row may be longer (a slice)
    if dims > 1 and draw(st.booleans()):  # swap the source strides of loops 0 and 1: transpose
        (s0, l0, r0, d0, _), (s1, l1, r1, d1, _) = loops[0], loops[1]
        loops[0], loops[1] = (s0, l0, r0, d0, s1), (s1, l1, r1, d1, 1)
    return loops


@pytest.mark.rows(*NDIM_ROWS)
@pytest.mark.parametrize("dtype", [int16_t, float32_t, uint8_t], ids=str)
@given(loops=ndim_shapes(), constant=st.booleans())
def test_ndim_copy_matches_the_reference(dtype: Any, loops: Any, constant: bool) -> None:
    src_count = 1 + sum((size - 1) * src_stride for size, _, _, _, src_stride in loops)
    dst_count = 1 + sum((left + size + right - 1) * d for size, left, right, d, _ in loops)
    values = (np.arange(src_count) % 97 + 1).astype(dtype.np_dtype)
    src = GlobalMemory().alloc(dtype, src_count)
    src.write(values)
    padded = -(-dst_count * dtype.size // 32) * 32 // dtype.size
    with block(BlockContext()):
        dst = C.__ubuf__(dtype, padded)
        dst.write(np.zeros(padded, dtype.np_dtype))
        C.asc_sync()
        for n, (_, _, _, dst_stride, src_stride) in enumerate(loops):
            getattr(C, f"asc_set_ndim_loop{n}_stride")(dst_stride, src_stride)
        config = C.asc_ndim_pad_count_config()
        for n in range(1, 5):
            setattr(config, f"loop{n}_lp_count", loops[n][1])
            setattr(config, f"loop{n}_rp_count", loops[n][2])
        C.asc_set_ndim_pad_count(config)
        C.asc_set_ndim_pad_value(88)
        sizes = [size for size, *_ in loops]
        C.asc_ndim_copy_gm2ub(dst, src, *sizes, loops[0][1], loops[0][2], constant, 0)
        C.asc_sync()
        got = dst.read(padded).tolist()
    want = ndim_copy(values.tolist(), [0] * padded, loops, 88 if constant else None)
    assert got == want


@pytest.mark.rows("asc_ndim_copy_gm2ub", "asc_set_ndim_pad_value")
def test_ndim_copy_checks_its_arguments() -> None:
    src = GlobalMemory().alloc(int16_t, 16)
    with block(BlockContext()):
        dst = C.__ubuf__(int16_t, 16)
        with pytest.raises(AscregTypeError, match="padding_mode must be a bool"):
            C.asc_ndim_copy_gm2ub(dst, src, 4, 1, 1, 1, 1, 0, 0, 1, 0)
        with pytest.raises(AscregTypeError, match="loop0_lp_count 256"):
            C.asc_ndim_copy_gm2ub(dst, src, 4, 1, 1, 1, 1, 256, 0, True, 0)
        with pytest.raises(AscregTypeError, match="pad_value must be a number"):
            C.asc_set_ndim_pad_value("88")
        with pytest.raises(Exception, match="illegal dtypes"):
            C.asc_ndim_copy_gm2ub(
                C.__ubuf__(np.int64 and C.int64_t, 4), src, 4, 1, 1, 1, 1, 0, 0, True, 0
            )

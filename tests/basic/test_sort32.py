"""Sort32 (the memory-level record sort of 32-element groups) against the scalar reference."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import float32_t, half, uint32_t
from ascreg.basic import LocalTensor, Sort32, TPosition
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.block import BlockContext, block
from reference.sort import sort32


@given(
    dtype=st.sampled_from([half, float32_t]),
    repeat=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_sort32_matches_the_reference(dtype: Any, repeat: int, seed: int) -> None:
    n = 32 * repeat
    rng = np.random.default_rng(seed)
    scores = rng.choice(np.array([1.0, -2.0, 0.5, np.nan, 3.0, -0.0], dtype.np_dtype), n)
    indices = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    with block(BlockContext()) as ctx:
        src0 = LocalTensor[dtype](TPosition.VECCALC, 0, n)
        src1 = LocalTensor[uint32_t](TPosition.VECCALC, 1024, n)
        dst = LocalTensor[dtype](TPosition.VECCALC, 2048, n * 8 // dtype.size)
        src0.GetPhyAddr().write(scores)
        src1.GetPhyAddr().write(indices)
        ctx.tracker.barrier()
        Sort32[dtype](dst, src0, src1, repeat)
        ctx.tracker.barrier()
        words = dst.GetPhyAddr().cast(uint32_t).read(2 * n).reshape(n, 2)
    want = sort32([float(s) for s in scores], [int(i) for i in indices])
    got_scores = words[:, 0].astype(np.uint32)
    if dtype is half:
        got_scores = (got_scores & 0xFFFF).astype(np.uint16)
    values = got_scores.view(dtype.np_dtype).astype(np.float64)
    for (score, index), value, got_index in zip(want, values, words[:, 1], strict=True):
        assert int(got_index) == index
        assert (math.isnan(score) and math.isnan(value)) or value == score


def test_sort32_rules() -> None:
    with block(BlockContext()):
        src0 = LocalTensor[float32_t](TPosition.VECCALC, 0, 32)
        src1 = LocalTensor[uint32_t](TPosition.VECCALC, 128, 32)
        small = LocalTensor[float32_t](TPosition.VECCALC, 256, 32)
        with pytest.raises(AscregError, match=r"need 256"):
            Sort32(small, src0, src1, 1)
        with pytest.raises(AscregError, match=r"repeatTime 256 is outside \[0, 255\]"):
            Sort32(small, src0, src1, 256)
        with pytest.raises(AscregTypeError):
            Sort32(small, src0, src0, 1)

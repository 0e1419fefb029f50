"""Mull on LocalTensors: low and high words of the 64-bit products, against the lane reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import int32_t, uint32_t
from ascreg.basic import LocalTensor, Mull, TPosition
from ascreg.errors import AscregTypeError
from ascreg.machine.block import BlockContext, block
from reference.compound import mull_lane


@pytest.mark.rows("basic.Mull")
@given(
    dtype=st.sampled_from([int32_t, uint32_t]),
    count=st.integers(1, 80),
    seed=st.integers(0, 2**16),
)
def test_mull_matches_the_reference(dtype: Any, count: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype.np_dtype)
    a = rng.integers(info.min, info.max, 80, endpoint=True).astype(dtype.np_dtype)
    b = rng.integers(info.min, info.max, 80, endpoint=True).astype(dtype.np_dtype)
    with block(BlockContext()) as ctx:
        tensors = [LocalTensor[dtype](TPosition.VECCALC, i * 512, 80) for i in range(4)]
        for t in tensors[2:]:
            t.GetPhyAddr().write(np.zeros(80, dtype.np_dtype))
        tensors[0].GetPhyAddr().write(a)
        tensors[1].GetPhyAddr().write(b)
        ctx.tracker.barrier()
        Mull(tensors[2], tensors[3], tensors[0], tensors[1], count)
        ctx.tracker.barrier()
        low, high = (t.GetPhyAddr().read(80).view(np.uint32) for t in tensors[2:])
    for i in range(count):
        want = mull_lane(int(a.view(np.uint32)[i]), int(b.view(np.uint32)[i]), dtype)
        assert (int(low[i]), int(high[i])) == want
    assert not low[count:].any() and not high[count:].any()


def test_mull_rules() -> None:
    from ascreg import float32_t

    with block(BlockContext()):
        f = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
        with pytest.raises(AscregTypeError):
            Mull(f, f, f, f, 8)

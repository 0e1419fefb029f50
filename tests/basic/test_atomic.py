"""AtomicAdd / Max / Min / Exch / Cas: one GM element, the reference updates, the rules."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half, int32_t, int64_t, uint32_t, uint64_t
from ascreg.basic import AtomicAdd, AtomicCas, AtomicExch, AtomicMax, AtomicMin
from ascreg.errors import AscregTypeError, SyncError
from ascreg.machine.block import BlockContext, block
from reference.atomics import ATOMIC_UPDATE, atomic_cas

INTEGER = {int32_t: 32, uint32_t: 32, int64_t: 64, uint64_t: 64}
BINARY = {"add": AtomicAdd, "max": AtomicMax, "min": AtomicMin, "exch": AtomicExch}


def wrap(value: int, dtype: Any) -> int:
    bits = INTEGER[dtype]
    value %= 1 << bits
    return value - (1 << bits) if dtype in (int32_t, int64_t) and value >> (bits - 1) else value


@given(
    op=st.sampled_from(sorted(BINARY)),
    dtype=st.sampled_from([int32_t, uint32_t, int64_t, uint64_t]),
    old=st.integers(-(2**40), 2**40),
    value=st.integers(-(2**40), 2**40),
)
def test_integer_updates_match_the_reference(op: str, dtype: Any, old: int, value: int) -> None:
    if op == "exch" and dtype in (int32_t, int64_t):
        dtype = uint32_t if dtype is int32_t else uint64_t
    old, value = wrap(old, dtype), wrap(value, dtype)
    x = GlobalMemory().alloc(dtype, 1)
    x.write([old])
    with block(BlockContext()):
        assert BINARY[op](x, value) == old
    assert int(x.read(1)[0]) == wrap(ATOMIC_UPDATE[op](old, value), dtype)


def test_float_add_and_cas() -> None:
    x = GlobalMemory().alloc(float32_t, 1)
    x.write([0.1])
    y = GlobalMemory().alloc(uint32_t, 1)
    y.write([7])
    with block(BlockContext()):
        AtomicAdd[float32_t](x, 0.2)
        assert AtomicCas(y, 7, 3) == 7 and AtomicCas(y, 7, 4) == 3
    assert x.read(1)[0] == np.float32(np.float32(0.1) + np.float32(0.2))
    assert int(y.read(1)[0]) == atomic_cas(atomic_cas(7, 7, 3), 7, 4)


def test_rules() -> None:
    h = GlobalMemory().alloc(half, 1)
    i = GlobalMemory().alloc(int32_t, 1)
    i.write([0])
    with block(BlockContext()):
        with pytest.raises(AscregTypeError, match="T = half is not one of"):
            AtomicAdd(h, 1)
        with pytest.raises(AscregTypeError, match="T = int32_t is not one of uint32_t, uint64_t"):
            AtomicExch(i, 1)
        with pytest.raises(AscregTypeError, match="address is int32_t\\* but T is uint32_t"):
            AtomicAdd[uint32_t](i, 1)
    with block(BlockContext()) as ctx, pytest.raises(SyncError):
        from ascreg.machine.sync import PIPE_MTE3

        with ctx.on_pipe(PIPE_MTE3):
            ctx.tracker.begin_copy(PIPE_MTE3)
            ctx.tracker.access(PIPE_MTE3, i.address, i.address + 4, True, id(i.memory))
        AtomicAdd(i, 1)  # no sync after an MTE3 write of the same bytes

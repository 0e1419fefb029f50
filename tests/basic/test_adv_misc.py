"""Fill, Arange and PhiloxRandom (ascreg.basic._adv_misc) against tests/reference/advmisc.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half, int16_t, int32_t, int64_t, uint8_t, uint32_t
from ascreg.basic import *
from ascreg.errors import AscregError, IllegalDtypeError, OutOfBoundsError, SyncError
from ascreg.machine.block import BlockContext, block
from reference import advmisc as ref
from reference.common import same_lanes, to_bits

FEW = settings(max_examples=20)


@FEW
@given(dtype=st.sampled_from([int16_t, int32_t, half, float32_t, int64_t]), data=st.data())
def test_arange_matches_the_reference(dtype: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 300))
    if dtype in (half, float32_t):
        first = data.draw(st.floats(-100, 100, width=16))
        diff = data.draw(st.floats(0, 10, width=16))
    else:
        first, diff = data.draw(st.integers(-1000, 1000)), data.draw(st.integers(0, 3000))
    with block(BlockContext()) as ctx:
        y = LocalTensor[dtype](TPosition.VECCALC, 0, n)
        Arange(y, first, diff, n)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n))
    assert same_lanes(got, ref.arange(dtype, first, diff, n), dtype)


def test_arange_checks() -> None:
    with block(BlockContext()):
        y = LocalTensor[int32_t](TPosition.VECCALC, 0, 8)
        with pytest.raises(AscregError, match="diffValue -1 must not be negative"):
            Arange(y, 0, -1, 8)
        with pytest.raises(OutOfBoundsError, match="count 9"):
            Arange(y, 0, 1, 9)
        with pytest.raises(IllegalDtypeError):
            Arange(LocalTensor[uint8_t](TPosition.VECCALC, 64, 8), 0, 1, 8)


def _philox_run(dtype: Any, rounds: int, key: Any, counter: Any, spec: Any, size: int) -> list[int]:
    with block(BlockContext()) as ctx:
        y = LocalTensor[dtype](TPosition.VECCALC, 0, size)
        PhiloxRandom[rounds](y, key, counter, spec)
        ctx.tracker.barrier()
        return to_bits(y.GetPhyAddr().read(size))


WORD = st.integers(0, 0xFFFFFFFF)


@FEW
@given(dtype=st.sampled_from([uint32_t, int32_t, float32_t]), rounds=st.sampled_from([7, 10]),
       key=st.tuples(WORD, WORD), counter=st.tuples(WORD, WORD, WORD, WORD) | st.just((0xFFFFFFFF,) * 4),
       data=st.data())  # fmt: skip
def test_philox_matches_the_reference(
    dtype: Any, rounds: int, key: Any, counter: Any, data: Any
) -> None:
    if data.draw(st.booleans()):
        n = data.draw(st.integers(1, 600))
        spec: Any = n
        positions = list(range(n))
    else:
        column = 4 * data.draw(st.integers(1, 80))
        stride = column + 4 * data.draw(st.integers(0, 20))
        row = data.draw(st.integers(1, 5))
        spec = PhiloxRandomParams(stride, row, column)
        positions = [i * stride + j for i in range(row) for j in range(column)]
    got = _philox_run(dtype, rounds, key, counter, spec, len(positions))
    words = [ref.philox_element(key, counter, p, rounds) for p in positions]
    want = [ref.unit_float(w) for w in words] if dtype is float32_t else words
    assert got == want


def test_philox_known_answers() -> None:
    """The Random123 known-answer vectors of philox4x32 (7 and 10 rounds)."""
    assert _philox_run(uint32_t, 10, (0, 0), (0, 0, 0, 0), 4, 4) == [
        0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]  # fmt: skip
    assert _philox_run(uint32_t, 7, (0, 0), (0, 0, 0, 0), 4, 4) == [
        0x5F6FB709, 0x0D893F64, 0x4F121F81, 0x4F730A48]  # fmt: skip
    assert _philox_run(uint32_t, 10, (0xA4093822, 0x299F31D0),
                       (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), 4, 4) == [
        0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]  # fmt: skip


def test_philox_checks() -> None:
    with pytest.raises(AscregError, match="7 or 10"):
        _philox_run(uint32_t, 8, (0, 0), (0, 0, 0, 0), 4, 4)
    with pytest.raises(AscregError, match="multiples of 4"):
        _philox_run(uint32_t, 7, (0, 0), (0, 0, 0, 0), PhiloxRandomParams(6, 1, 4), 4)
    with pytest.raises(Exception, match="philoxKey must be 2"):
        _philox_run(uint32_t, 7, (0,), (0, 0, 0, 0), 4, 4)
    with pytest.raises(OutOfBoundsError):
        _philox_run(uint32_t, 7, (0, 0), (0, 0, 0, 0), 9, 8)


@FEW
@given(
    dtype=st.sampled_from([uint8_t, half, float32_t, int64_t]),
    size=st.integers(0, 70000),
    data=st.data(),
)
def test_fill_sets_gm_and_leaves_the_rest(dtype: Any, size: int, data: Any) -> None:
    value = data.draw(st.integers(0, 100))
    total = size + 3
    memory = GlobalMemory().alloc(dtype, total)
    memory.write(np.full(total, 1).astype(dtype.np_dtype))
    gm = GlobalTensor[dtype]()
    gm.SetGlobalBuffer(memory, total)
    with block(BlockContext()):
        pipe = TPipe()
        if data.draw(st.booleans()):
            pipe.InitBuffer(TBuf[TPosition.VECCALC](), 1024)
        Fill(gm, size, value)
    got = memory.read(total)
    assert (got[:size] == dtype.np_dtype.type(value)).all() and (got[size:] == 1).all()


def test_fill_needs_the_tpipe_and_orders_its_own_pipes() -> None:
    memory = GlobalMemory().alloc(float32_t, 64)
    gm = GlobalTensor[float32_t]()
    gm.SetGlobalBuffer(memory, 64)
    with block(BlockContext()), pytest.raises(AscregError, match="TPipe"):
        Fill(gm, 8, 1.0)
    with block(BlockContext()) as ctx:
        TPipe()
        Fill(gm, 64, 2.0)
        staged = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
        with pytest.raises(SyncError):  # the staging UB was written by V and read by MTE3
            Duplicate(staged, 0.0, 8)
        del ctx
    with block(BlockContext()), pytest.raises(OutOfBoundsError, match="size 65"):
        TPipe()
        Fill(gm, 65, 1.0)


SHAPES = st.lists(st.tuples(st.integers(1, 5), st.booleans()), min_size=1, max_size=9).filter(
    lambda spec: int(np.prod([d for d, _ in spec])) <= 1500
)


def _shapes(spec: list[tuple[int, bool]]) -> tuple[list[int], list[int]]:
    dst = [d for d, _ in spec]
    src = [1 if flag else d for d, flag in spec]
    return dst, src


@FEW
@given(spec=SHAPES, dtype=st.sampled_from([uint8_t, half, float32_t, int64_t]), data=st.data())
def test_broadcast_dynamic_matches_the_reference(spec: Any, dtype: Any, data: Any) -> None:
    dst_shape, src_shape = _shapes(spec)
    n_dst, n_src = int(np.prod(dst_shape)), int(np.prod(src_shape))
    values = np.arange(n_src) % 120 + 1
    tiling = BroadcastTiling()
    GetBroadcastTilingInfo[dtype](len(spec), dst_shape, src_shape, False, tiling)
    with block(BlockContext()) as ctx:
        x = LocalTensor[dtype](TPosition.VECCALC, 0, n_src)
        y = LocalTensor[dtype](TPosition.VECCALC, -(-n_src * dtype.size // 32) * 32 + 32, n_dst)
        x.GetPhyAddr().write(values.astype(dtype.np_dtype))
        ctx.tracker.barrier()
        Broadcast(y, x, dst_shape, src_shape, tiling)
        ctx.tracker.barrier()
        got = y.GetPhyAddr().read(n_dst).astype(np.int64).tolist()
    assert got == [int(values[ref.broadcast_index(p, dst_shape, src_shape)]) for p in range(n_dst)]


@settings(max_examples=60)
@given(spec=SHAPES, size=st.sampled_from([1, 2, 4, 8]))
def test_broadcast_tiling_strides_address_the_source(spec: Any, size: int) -> None:
    """Walking dst with the tiling's fused shape and strides finds the reference source word."""
    dst_shape, src_shape = _shapes(spec)
    dtype = {1: uint8_t, 2: half, 4: float32_t, 8: int64_t}[size]
    tiling = BroadcastTiling()
    GetBroadcastTilingInfo[dtype](len(spec), dst_shape, src_shape, False, tiling)
    rank, shape = int(tiling.rank), [int(v) for v in tiling.dstShape]
    words = 2 if size == 8 and tiling.srcSize != int(np.prod(src_shape)) else 1
    assert int(tiling.dstSize) == int(np.prod(dst_shape)) * words
    loops = max(int(tiling.loopNum), 1)
    inner = shape[:rank] if not tiling.loopNum else shape
    per_loop = int(np.prod(inner))
    for position in range(int(tiling.dstSize)):
        loop, rest = divmod(position, per_loop)
        offset = loop * int(tiling.srcStride[9])
        for k in range(len(inner) - 1, -1, -1):
            rest, coord = divmod(rest, inner[k])
            offset += coord * int(tiling.srcStride[k])
        element, word = divmod(position, words)
        assert offset == ref.broadcast_index(element, dst_shape, src_shape) * words + word
    assert loops >= 1


def test_broadcast_static_form_and_checks() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[int16_t](TPosition.VECCALC, 0, 16)
        y = LocalTensor[int16_t](TPosition.VECCALC, 64, 64)
        x.GetPhyAddr().write(np.arange(16))
        ctx.tracker.barrier()
        Broadcast[int16_t, 2, 0](
            y, x, (4, 16), (1, 16), LocalTensor[uint8_t](TPosition.VECCALC, 256, 64)
        )
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(64).reshape(4, 16).tolist() == [list(range(16))] * 4
        with pytest.raises(AscregError, match="does not broadcast"):
            Broadcast[int16_t, 2, 1](y, x, (4, 16), (2, 16))
        with pytest.raises(IllegalDtypeError):
            z = LocalTensor[int64_t](TPosition.VECCALC, 512, 8)
            Broadcast[int64_t, 1, 0](z, z, (8,), (1,))
        with pytest.raises(AscregError, match="dim 3"):
            Broadcast[int16_t, 3, 0](y, x, (1, 4, 16), (1, 1, 16))
        with pytest.raises(Exception, match="overlap"):
            Broadcast[int16_t, 2, 1](x, x, (1, 8), (1, 1))
        tiling = BroadcastTiling()
        GetBroadcastTilingInfo[int16_t](2, (4, 16), (1, 16), False, tiling)
        with pytest.raises(AscregError, match="not the tiling's"):
            Broadcast(y, x, (2, 16), (1, 16), tiling)
        with pytest.raises(AscregError, match="srcInnerPad"):
            GetBroadcastTilingInfo[int16_t](2, (4, 16), (1, 16), True, tiling)

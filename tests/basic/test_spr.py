"""SetCmpMask / GetCmpMask, GetReduceRepeatSumSpr, GetMrgSortResult and SetPadValue, from their pages.

* the CmpMask is 16 bytes: ``SetCmpMask`` copies the first 16 bytes of its tensor in, ``GetCmpMask``
  the same 16 bytes out (16-byte alignment; GetCmpMask's dst at least 128 bytes);
* ``GetReduceRepeatSumSpr<T>`` is the sum the last ``ReduceSum`` count form of ``T`` stored;
* ``GetMrgSortResult`` gives how many records of each queue a suspending ``MrgSort`` took;
* ``SetPadValue`` is the fill of a ``DataCopyPad`` GM -> UB without ``isPad``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, Ref, float32_t, half, int8_t, int16_t, int32_t, uint8_t, uint32_t
from ascreg._dtypes import Scalar
from ascreg.basic import (
    PIPE_ALL,
    DataCopyPad,
    GetCmpMask,
    GetMrgSortResult,
    GetReduceRepeatSumSpr,
    GlobalTensor,
    Hardware,
    InitSocState,
    LocalMemAllocator,
    LocalTensor,
    MrgSort,
    MrgSortSrcList,
    PipeBarrier,
    ReduceSum,
    SetCmpMask,
    SetPadValue,
    TPosition,
)
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block

SETTINGS = settings(max_examples=25, derandomize=True, deadline=None)
MASK_TYPES = [int8_t, uint8_t, int16_t, half, int32_t, uint32_t, float32_t]


def alloc(dtype: type[Scalar], count: int) -> LocalTensor:  # type: ignore[type-arg]
    return LocalMemAllocator[Hardware.UB]().Alloc[dtype, count]()


@SETTINGS
@given(
    st.binary(min_size=16, max_size=16), st.sampled_from(MASK_TYPES), st.sampled_from(MASK_TYPES)
)
def test_the_cmp_mask_round_trips_16_bytes(data: bytes, src_type: type, dst_type: type) -> None:
    with block(BlockContext()):
        src = alloc(src_type, 256 // src_type.size)
        dst = alloc(dst_type, 256 // dst_type.size)
        src.GetPhyAddr().cast(uint8_t).write(np.frombuffer(data, np.uint8))
        dst.GetPhyAddr().cast(uint8_t).write(np.full(256, 0xAB, np.uint8))
        PipeBarrier[PIPE_ALL]()
        SetCmpMask(src)
        GetCmpMask(dst)
        PipeBarrier[PIPE_ALL]()
        got = bytes(dst.GetPhyAddr().cast(uint8_t).read(256))
    assert got == data + b"\xab" * 240  # the first 16 bytes only


def test_the_cmp_mask_starts_at_zero_and_its_rules() -> None:
    with block(BlockContext()):
        t = alloc(uint32_t, 64)
        t.GetPhyAddr().write(np.full(64, 9, np.uint32))
        PipeBarrier[PIPE_ALL]()
        GetCmpMask(t)
        PipeBarrier[PIPE_ALL]()
        assert t.GetPhyAddr().read(6).tolist() == [0, 0, 0, 0, 9, 9]
        with pytest.raises(AlignmentError, match="GetCmpMask: dst must be 16-byte aligned"):
            GetCmpMask(t[2])
        with pytest.raises(
            AscregError, match="GetCmpMask: dst holds 96 bytes; the page needs at least 128"
        ):
            GetCmpMask(t[40])
        with pytest.raises(AscregTypeError, match="GetCmpMask: dst is a LocalTensor<int64_t>"):
            from ascreg import int64_t

            GetCmpMask(alloc(int64_t, 32))
        with pytest.raises(AscregTypeError, match="SetCmpMask: src must be a LocalTensor"):
            SetCmpMask(np.zeros(4))


def reference_sum(values: list[float], dtype: type[Scalar]) -> float:
    """ReduceSum's count form for up to one register: the register's pairwise tree (ReduceSum.md)."""
    lanes = list(np.asarray(values, dtype=dtype.np_dtype)) + [dtype.np_dtype.type(0)] * (
        256 // dtype.size - len(values)
    )
    while len(lanes) > 1:
        lanes = [
            dtype.np_dtype.type(lanes[2 * i] + lanes[2 * i + 1]) for i in range(len(lanes) // 2)
        ]
    return float(lanes[0])


@SETTINGS
@given(st.sampled_from([half, float32_t]), st.lists(st.integers(-50, 50), min_size=1, max_size=64))
def test_the_repeat_sum_spr_is_the_last_count_form_sum(dtype: type, ints: list[int]) -> None:
    values = [v / 4 for v in ints]
    with block(BlockContext()):
        x, y = alloc(dtype, 256 // dtype.size), alloc(dtype, 256 // dtype.size)
        x.GetPhyAddr().write(np.asarray(values, dtype.np_dtype))
        PipeBarrier[PIPE_ALL]()
        ReduceSum(y, x, y, len(values))
        PipeBarrier[PIPE_ALL]()
        got = GetReduceRepeatSumSpr[dtype]()
        assert got.dtype == dtype.np_dtype
        assert float(got) == reference_sum(values, dtype) == float(y.GetPhyAddr().read(1)[0])


def test_the_repeat_sum_spr_rules() -> None:
    with block(BlockContext()):
        with pytest.raises(
            AscregError, match=r"GetReduceRepeatSumSpr<half>: no ReduceSum<half> count form"
        ):
            GetReduceRepeatSumSpr[half]()
        with pytest.raises(
            AscregTypeError, match=r"GetReduceRepeatSumSpr<int32_t>: T must be half or float"
        ):
            GetReduceRepeatSumSpr[int32_t]()
        with pytest.raises(AscregTypeError, match=r"write GetReduceRepeatSumSpr\[T\]\(\)"):
            GetReduceRepeatSumSpr()


def records(at: int, scores: list[float]) -> LocalTensor:  # type: ignore[type-arg]
    t = LocalTensor[float32_t](TPosition.VECCALC, at, 2 * max(len(scores), 1))
    words = np.zeros((len(scores), 2), np.uint32)
    words[:, 0] = np.float32(scores).view(np.uint32)
    t.GetPhyAddr().cast(uint32_t).write(words.reshape(-1))
    return t


def taken_reference(queues: list[list[float]]) -> list[int]:
    """Merge, highest first, ties to the lower queue, until a queue runs out (MrgSort.md)."""
    heads = [0] * len(queues)
    while all(h < len(q) for h, q in zip(heads, queues, strict=True)):
        best = max(range(len(queues)), key=lambda k: (queues[k][heads[k]], -k))
        heads[best] += 1
    return heads + [0] * (4 - len(queues))


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 20), min_size=1, max_size=6), min_size=2, max_size=4))
def test_the_mrgsort_result_counts_what_each_queue_gave(raw: list[list[int]]) -> None:
    queues = [sorted(map(float, q), reverse=True) for q in raw]
    counts = [Ref(99) for _ in range(4)]
    with block(BlockContext()) as ctx:
        srcs = [records(64 * k, q) for k, q in enumerate(queues)]
        dst = LocalTensor[float32_t](TPosition.VECCALC, 256, 64)
        ctx.tracker.barrier()
        lengths = [len(q) for q in queues] + [0] * (4 - len(queues))
        MrgSort[float32_t, True](
            dst, MrgSortSrcList[float32_t](*srcs), lengths, [0] * 4, (1 << len(queues)) - 1, 1
        )
        GetMrgSortResult(*counts)
    assert [c.value for c in counts] == taken_reference(queues)


def test_the_mrgsort_result_rules() -> None:
    counts = [Ref(0) for _ in range(4)]
    with block(BlockContext()) as ctx:
        with pytest.raises(
            UnsupportedError, match="GetMrgSortResult: no MrgSort with isExhaustedSuspension"
        ):
            GetMrgSortResult(*counts)
        a, b = records(0, [2.0]), records(64, [1.0])
        dst = LocalTensor[float32_t](TPosition.VECCALC, 128, 4)
        ctx.tracker.barrier()
        MrgSort[float32_t, False](
            dst, MrgSortSrcList[float32_t](a, b), [1, 1, 0, 0], [0] * 4, 0b11, 1
        )
        with pytest.raises(UnsupportedError, match="isExhaustedSuspension = true"):
            GetMrgSortResult(*counts)
        with pytest.raises(AscregTypeError, match="mrgSortList3 is a uint16_t& output: pass a Ref"):
            GetMrgSortResult(counts[0], counts[1], 0, counts[3])


@SETTINGS
@given(
    st.sampled_from(
        [(half, 1.5), (float32_t, -2.25), (int16_t, -7), (int32_t, 123456), (uint8_t, 200)]
    )
)
def test_set_pad_value_fills_a_gm_to_ub_copy_without_is_pad(case: tuple[type, float]) -> None:
    dtype, value = case
    n = 32 // dtype.size
    gm = GlobalMemory().alloc(dtype, n)
    gm.write(np.ones(n, dtype.np_dtype))
    with block(BlockContext()):
        g = GlobalTensor[dtype]()
        g.SetGlobalBuffer(gm, n)
        dst = alloc(dtype, 2 * n)
        SetPadValue[dtype](value)
        DataCopyPad(dst, g, (1, dtype.size * 3, 0, 0, 0), (False, 0, 1, 0))
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(4).tolist()
        assert got == [1] * 3 + [value]  # the right padding element
        PipeBarrier[PIPE_ALL]()
        InitSocState()  # back to 0
        DataCopyPad(dst, g, (1, dtype.size * 3, 0, 0, 0), (False, 0, 1, 0))
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(4).tolist() == [1] * 3 + [0]


def test_set_pad_value_rules() -> None:
    with block(BlockContext()) as ctx:
        SetPadValue(3)
        assert ctx.state["pad_value"] == 3
        SetPadValue[half, TPosition.VECOUT](0.1)
        assert ctx.state["pad_value"] == np.float16(0.1)
        with pytest.raises(
            UnsupportedError, match=r"SetPadValue: pos must be TPosition\.VECIN, VECOUT or MAX"
        ):
            SetPadValue[half, TPosition.A1](1.0)
        with pytest.raises(AscregError, match="SetPadValue: cannot store 300 as int8_t"):
            SetPadValue[int8_t](300)
        with pytest.raises(AscregTypeError, match="SetPadValue: paddingValue 'x' is not a number"):
            SetPadValue("x")

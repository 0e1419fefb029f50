"""The advanced API's sorts (ascreg.basic._adv_sort) against the per-element references in
tests/reference/advsort.py and tests/reference/sort.py, on LocalTensors in a running block."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._dtypes import Scalar
from ascreg.basic import *
from ascreg.core.sort import scores
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
)
from ascreg.machine.block import BlockContext, block
from reference import sort as record_reference
from reference.advsort import merge_sort, radix_sort
from reference.common import from_bits, to_bits
from strategies import lane_bits

RADIX = [uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, bfloat16_t, float32_t,
         uint64_t, int64_t]  # fmt: skip
SIGNED = (int8_t, int16_t, int32_t, int64_t)


class Ub:
    """Consecutive LocalTensors in one block's UB (32-byte aligned, a gap between them)."""

    def __init__(self) -> None:
        self.at = 0

    def tensor(self, dtype: type[Scalar], count: int, values: Any = None) -> LocalTensor[Any]:
        t = LocalTensor[dtype](TPosition.VECCALC, self.at, count)
        self.at += -(-count * dtype.size // 32) * 32 + 64
        if values is not None:
            t.GetPhyAddr().write(np.asarray(values))
        return t


def _read(t: LocalTensor[Any], n: int) -> Any:
    return t.GetPhyAddr().read(n)


@pytest.mark.parametrize("dtype", RADIX, ids=lambda d: d.cpp_name)
@given(
    data=st.data(),
    descending=st.booleans(),
    with_index=st.sampled_from(["none", "generated", "source"]),
)
def test_radix_sort_matches_the_reference(
    dtype: Any, data: Any, descending: bool, with_index: str
) -> None:
    n = data.draw(st.integers(1, 80))
    bits = data.draw(lane_bits(dtype, n))
    order = radix_sort(bits, dtype, dtype in SIGNED, descending)
    config = SortConfig(SortType.RADIX_SORT, descending)
    with block(BlockContext()) as ctx:
        ub = Ub()
        src = ub.tensor(dtype, n, from_bits(bits, dtype))
        dst = ub.tensor(dtype, n)
        idx = ub.tensor(uint32_t, n)
        src_idx = ub.tensor(uint32_t, n, np.arange(n, dtype=np.uint32)[::-1] + 7)
        tmp = ub.tensor(uint8_t, 64)
        ctx.tracker.barrier()
        if with_index == "none":
            Sort[dtype, False, config](dst, src, tmp, n)
        elif with_index == "generated":
            Sort[dtype, False, config](dst, idx, src, n)
        else:
            Sort[dtype, uint32_t, False, config](dst, idx, src, src_idx, tmp, n)
        ctx.tracker.barrier()
        assert to_bits(_read(dst, n)) == [bits[k] for k in order]
        assert to_bits(_read(src, n)) == bits  # the radix sort leaves src alone
        if with_index == "generated":
            assert _read(idx, n).tolist() == order
        elif with_index == "source":
            assert _read(idx, n).tolist() == [n - 1 - k + 7 for k in order]


@pytest.mark.parametrize("dtype", [half, float32_t], ids=lambda d: d.cpp_name)
@given(data=st.data(), descending=st.booleans())
def test_merge_sort_matches_the_reference(dtype: Any, data: Any, descending: bool) -> None:
    n = 32 * data.draw(st.integers(1, 3))
    bits = data.draw(lane_bits(dtype, n))
    order = merge_sort(bits, dtype, descending)
    config = SortConfig(SortType.MERGE_SORT, descending)
    with block(BlockContext()) as ctx:
        ub = Ub()
        src = ub.tensor(dtype, n, from_bits(bits, dtype))
        dst = ub.tensor(dtype, n * 8 // dtype.size)
        idx = ub.tensor(uint32_t, n)
        ctx.tracker.barrier()
        Sort[dtype, False, config](dst, idx, src, n)
        ctx.tracker.barrier()
        got = to_bits(_read(dst, n))
        assert _read(idx, n).tolist() == order
        assert got == [bits[k] for k in order]
        sign = 1 << (8 * dtype.size - 1)
        flipped = bits if descending else [b ^ sign for b in bits]
        assert to_bits(_read(src, n)) == flipped  # ascending leaves src negated (the impl does)


def test_sort_documented_example() -> None:
    """Sort.md: 1024 halfs 1023..0 with indices 0..1023, ascending radix sort."""
    with block(BlockContext()) as ctx:
        ub = Ub()
        src = ub.tensor(half, 1024, np.arange(1023, -1, -1))
        src_idx = ub.tensor(uint32_t, 1024, np.arange(1024))
        dst, dst_idx = ub.tensor(half, 1024), ub.tensor(uint32_t, 1024)
        ctx.tracker.barrier()
        Sort[half, uint32_t, False, SortConfig(SortType.RADIX_SORT, False)](
            dst, dst_idx, src, src_idx, 1024
        )
        ctx.tracker.barrier()
        assert _read(dst, 1024).tolist() == list(range(1024))
        assert _read(dst_idx, 1024).tolist() == list(range(1023, -1, -1))


@pytest.mark.parametrize("dtype", [half, float32_t], ids=lambda d: d.cpp_name)
@pytest.mark.parametrize("full", [False, True])
@given(data=st.data())
def test_record_sort_concat_extract_match_sort32(dtype: Any, full: bool, data: Any) -> None:
    repeat = data.draw(st.integers(1, 3))
    n = 32 * repeat
    bits = data.draw(lane_bits(dtype, n))
    values = from_bits(bits, dtype)
    indices = list(range(100, 100 + n))
    want = record_reference.sort32([float(v) for v in values], indices)
    if full:
        groups = [want[k : k + 32] for k in range(0, n, 32)]
        while len(groups) > 1:
            groups = [
                record_reference.merge4(groups[k : k + 4], False) for k in range(0, len(groups), 4)
            ]
        want = groups[0]
    with block(BlockContext()) as ctx:
        ub = Ub()
        src = ub.tensor(dtype, n, values)
        index = ub.tensor(uint32_t, n, indices)
        sorted_ = ub.tensor(dtype, n * 8 // dtype.size)
        tmp = ub.tensor(dtype, n * 8 // dtype.size)
        concat = LocalTensor[dtype]()
        dst_value, dst_index = ub.tensor(dtype, n), ub.tensor(uint32_t, n)
        ctx.tracker.barrier()
        Concat(concat, src, tmp, repeat)
        Sort[dtype, full](sorted_, concat, index, tmp, repeat)
        Extract(dst_value, dst_index, sorted_, repeat)
        ctx.tracker.barrier()
        got_index = _read(dst_index, n).tolist()
        assert got_index == [i for _, i in want]
        assert to_bits(_read(dst_value, n)) == [bits[i - 100] for i in got_index]
        words = sorted_.GetPhyAddr().cast(uint32_t).read(2 * n).reshape(-1, 2)
        assert to_bits(scores(words, dtype.np_dtype)) == [bits[i - 100] for i in got_index]


def test_mrgsort_exhaustion_reports_the_taken_counts() -> None:
    def queue(ub: Ub, values: list[float]) -> LocalTensor[Any]:
        words = np.zeros((len(values), 2), np.uint32)
        words[:, 0] = np.float32(values).view(np.uint32)
        words[:, 1] = np.arange(len(values))
        t = ub.tensor(float32_t, 2 * len(values))
        t.GetPhyAddr().cast(uint32_t).write(words.reshape(-1))
        return t

    with block(BlockContext()) as ctx:
        ub = Ub()
        a, b, c = queue(ub, [9, 5, 1]), queue(ub, [8]), queue(ub, [7, 6])
        dst = ub.tensor(float32_t, 12)
        ctx.tracker.barrier()
        taken = [0, 0, 0, 0]
        MrgSort[float32_t, True](
            dst, MrgSortSrcList[float32_t](a, b, c), [3, 1, 2, 0], taken, 0b111, 1
        )
        ctx.tracker.barrier()
        assert [int(v) for v in taken] == [1, 1, 0, 0]
        assert _read(dst, 4)[::2].tolist() == [9.0, 8.0]


def test_get_sort_len_and_offset() -> None:
    assert int(GetSortLen[half](10)) == 40 and int(GetSortLen[float32_t](10)) == 20
    assert int(GetSortOffset[float32_t](7)) == 14
    with pytest.raises(IllegalDtypeError, match="T = int32_t"):
        GetSortLen[int32_t](3)


def test_sort_errors() -> None:
    with block(BlockContext()):
        ub = Ub()
        src, dst = ub.tensor(float32_t, 40), ub.tensor(float32_t, 40)
        big = ub.tensor(float32_t, 80)
        merge = SortConfig(SortType.MERGE_SORT, True)
        with pytest.raises(AscregError, match="not a multiple of 32"):
            Sort[float32_t, False, merge](big, src, 40)
        with pytest.raises(AscregError, match="8 bytes per element"):
            Sort[float32_t, False, merge](dst, src, 32)
        with pytest.raises(IllegalDtypeError, match="T = int32_t"):
            Sort[int32_t, False, merge](ub.tensor(int32_t, 64), ub.tensor(int32_t, 64), 32)
        with pytest.raises(OutOfBoundsError, match="calCount 41"):
            Sort[float32_t](dst, src, 41)
        with pytest.raises(AscregError, match="greater than 0"):
            Sort[float32_t](dst, src, 0)
        with pytest.raises(UndefinedBehaviourError, match="overlap"):
            Sort[float32_t](src, src, 8)
        with pytest.raises(AscregTypeError, match="no overload takes these template arguments"):
            Sort[float32_t, SortType.RADIX_SORT]
        with pytest.raises(AscregTypeError, match="cannot be deduced"):
            Sort(big, src, ub.tensor(uint32_t, 32), big, 1)  # the record sort needs isFullSort
        with pytest.raises(AscregError, match=r"repeatTime 256 is outside \[0, 255\]"):
            Sort[float32_t, True](big, src, ub.tensor(uint32_t, 40), big, 256)


def test_sort_deduces_t_and_defaults_the_config() -> None:
    with block(BlockContext()) as ctx:
        ub = Ub()
        src = ub.tensor(int16_t, 5, [3, -1, 2, -7, 0])
        dst, idx = ub.tensor(int16_t, 5), ub.tensor(uint32_t, 5)
        ctx.tracker.barrier()
        Sort(dst, idx, src, 5)  # DEFAULT_SORT_CONFIG: ascending radix sort
        ctx.tracker.barrier()
        assert _read(dst, 5).tolist() == [-7, -1, 0, 2, 3]
        assert _read(idx, 5).tolist() == [3, 1, 4, 2, 0]
    assert SortConfig(SortType.RADIX_SORT, False) == DEFAULT_SORT_CONFIG

"""TopK (RADIX_SELECT) against the scalar reference, its layouts and its rules."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import float32_t, half, int8_t, int32_t, uint16_t
from ascreg.basic import (
    LocalTensor,
    TopK,
    TopKAlgo,
    TopKConfig,
    TopKInfo,
    TopKMode,
    TopKOrder,
    TPosition,
)
from ascreg.errors import AscregError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from reference.topk import radix_key, topk_row

TYPES = {int8_t: "i", uint16_t: "u", int32_t: "i", half: "f", float32_t: "f"}
SPECIAL = {half: [0.0, -0.0, np.inf, -np.inf, np.nan], float32_t: [0.0, -0.0, np.inf, np.nan]}


def tensor(dtype: Any, at: int, count: int) -> LocalTensor[Any]:
    return LocalTensor[dtype](TPosition.VECCALC, at, count)


def run_topk(
    dtype: Any,
    data: np.ndarray[Any, Any],
    k: int,
    info: TopKInfo,
    mode: TopKMode,
    config: TopKConfig,
    *,
    is_largest: bool = True,
    index: np.ndarray[Any, Any] | None = None,
    reuse: bool = False,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    with block(BlockContext()) as ctx:
        src = tensor(dtype, 0, data.size)
        src_index = tensor(int32_t, 32768, max(index.size if index is not None else 8, 8))
        val = tensor(dtype, 65536, 4096)
        idx = tensor(int32_t, 98304, 4096)
        src.GetPhyAddr().write(data)
        val.GetPhyAddr().write(np.zeros(4096, data.dtype))
        idx.GetPhyAddr().write(np.full(4096, -7, np.int32))
        if index is not None:
            src_index.GetPhyAddr().write(index)
        ctx.tracker.barrier()
        TopK[dtype, index is not None, False, reuse, mode, config](
            val, idx, src, src_index, idx, k, None, info, is_largest
        )
        ctx.tracker.barrier()
        return (
            val.GetPhyAddr().read(4096),
            idx.GetPhyAddr().read(4096),
            src.GetPhyAddr().read(data.size),
        )


@given(
    dtype=st.sampled_from(sorted(TYPES, key=lambda t: t.cpp_name)),
    rows=st.integers(1, 3),
    n=st.integers(1, 64),
    k_fraction=st.floats(0, 1),
    order=st.sampled_from(list(TopKOrder)),
    is_largest=st.booleans(),
    sort=st.booleans(),
    small=st.booleans(),
    with_index=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_topk_matches_the_reference(
    dtype: Any,
    rows: int,
    n: int,
    k_fraction: float,
    order: TopKOrder,
    is_largest: bool,
    sort: bool,
    small: bool,
    with_index: bool,
    seed: int,
) -> None:
    inner = 32 if small else -(-n // 32) * 32
    n = min(n, inner)
    k = 1 + int(k_fraction * (n - 1))
    rng = np.random.default_rng(seed)
    np_type = dtype.np_dtype
    if dtype in SPECIAL:
        pool = np.array([*SPECIAL[dtype], 1.5, -2.0, 3.0], np_type)
    else:
        pool = np.array([0, 1, 2, 3, -1, 100], np.int64).astype(np_type)
    data = rng.choice(pool, size=rows * inner)
    index = rng.integers(0, 1000, size=rows * inner if small else inner).astype(np.int32)
    config = TopKConfig(TopKAlgo.RADIX_SELECT, order, sort)
    mode = TopKMode.TOPK_NSMALL if small else TopKMode.TOPK_NORMAL
    info = TopKInfo(rows, inner, n)
    val, idx, _ = run_topk(
        dtype, data, k, info, mode, config, is_largest=is_largest,
        index=index if with_index else None,
    )  # fmt: skip
    smallest = order is TopKOrder.SMALLEST or (order is TopKOrder.UNSET and not is_largest)
    width = 8 * np_type.itemsize
    unsigned = {8: np.uint8, 16: np.uint16, 32: np.uint32}[width]
    value_step = k if small else -(-k // (32 // np_type.itemsize)) * (32 // np_type.itemsize)
    index_step = k if small else -(-k // 8) * 8
    for r in range(rows):
        row = data[r * inner : r * inner + n]
        bits = [int(b) for b in row.view(unsigned)]
        keys = [radix_key(b, width, TYPES[dtype], smallest) for b in bits]
        taken = topk_row(keys, k, sort)
        got_bits = val[r * value_step : r * value_step + k].view(unsigned).tolist()
        assert got_bits == [bits[i] for i in taken]
        names = (index[r * inner :] if small else index) if with_index else np.arange(inner)
        assert idx[r * index_step : r * index_step + k].tolist() == [int(names[i]) for i in taken]


def test_layout_gaps_are_not_written_and_reuse_src_leaves_keys() -> None:
    data = np.arange(64, dtype=np.float32)
    config = TopKConfig(TopKAlgo.RADIX_SELECT)
    val, idx, src = run_topk(
        float32_t, data, 3, TopKInfo(2, 32, 32), TopKMode.TOPK_NORMAL, config, reuse=True
    )
    assert val[:8].tolist() == [31, 30, 29, 0, 0, 0, 0, 0]
    assert val[8:11].tolist() == [63, 62, 61]
    assert idx[:11].tolist() == [31, 30, 29, -7, -7, -7, -7, -7, 31, 30, 29]
    assert src[:32].view(np.uint32).tolist() == [
        int(b) | 0x80000000 for b in data[:32].view(np.uint32)
    ]
    assert src[32:].tolist() == data[32:].tolist()


def test_topk_rules() -> None:
    data = np.zeros(64, np.float32)
    radix = TopKConfig(TopKAlgo.RADIX_SELECT)
    with pytest.raises(UnsupportedError, match="MERGE_SORT TopK is not supported"):
        run_topk(float32_t, data, 1, TopKInfo(1, 32, 32), TopKMode.TOPK_NORMAL, TopKConfig())
    with pytest.raises(AscregError, match=r"k 33 must be an integer in \[1, n = 32\]"):
        run_topk(float32_t, data, 33, TopKInfo(1, 32, 32), TopKMode.TOPK_NORMAL, radix)
    with pytest.raises(AscregError, match=r"Small mode needs topKInfo\.inner == 32"):
        run_topk(float32_t, data, 1, TopKInfo(1, 64, 40), TopKMode.TOPK_NSMALL, radix)
    with pytest.raises(AscregError, match="positive multiple of 32"):
        run_topk(float32_t, data, 1, TopKInfo(1, 40, 40), TopKMode.TOPK_NORMAL, radix)

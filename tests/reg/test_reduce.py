"""Reduce (SUM / MAX / MIN) against the scalar reference.

Reduce follows spec §7: the result in lane 0, for MAX/MIN the first extreme's index (raw bits of
the dst type) in lane 1, other lanes 0; masked-off lanes count as 0 / type-min / type-max
(floats: -inf / +inf, as the C API reduce page states); SUM in the pairwise binary-tree order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    MaskMergeMode,
    PairReduce,
    ReduceType,
    Reg,
    float32_t,
    half,
    int16_t,
    int32_t,
    int64_t,
)
from ascreg._spec import PAIR_REDUCE_TYPES, REDUCE_BLOCK_COMBOS, REDUCE_COMBOS
from ascreg.errors import AscregTypeError, IllegalDtypeError, TemplateMismatchError
from reference.common import MASK_BITS, first_difference, lane_count, same_lanes
from reference.masks import mask_to_lanes
from reference.reduce import pair_reduce, reduce, reduce_datablock
from strategies import (
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    new_reg,
    reg_bits,
    trait_id,
    traits_for,
)

REDUCE = [
    pytest.param(kind, dst, src, two, id=f"{kind}-{dst.cpp_name}-{src.cpp_name}-{trait_id(two)}")
    for kind, combos in REDUCE_COMBOS.items()
    for dst, src in combos
    for two in traits_for(src)
]


@pytest.mark.rows("Reg.Reduce")
@pytest.mark.parametrize(("kind", "dst_t", "src_t", "two"), REDUCE)
@settings(max_examples=25)
@given(st.data())
def test_reduce(kind: str, dst_t: Any, src_t: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(src_t, two)
    values = data.draw(lane_bits(src_t, lanes))
    mbits = data.draw(st.one_of(mask_bits(), st.just([0] * MASK_BITS)))
    active = mask_to_lanes(mbits, lanes, stride)
    dst = new_reg(dst_t, two)
    Reg.Reduce[ReduceType[kind]](dst, make_reg(src_t, values, two), make_mask(mbits))
    want = reduce(kind, dst_t, src_t, values, active, lane_count(dst_t, two))
    got = reg_bits(dst)
    assert same_lanes(got, want, dst_t), first_difference(got, want)


def _reduce(kind: ReduceType, dtype: Any, values: list[float], **kw: Any) -> tuple[Any, int]:
    lanes = lane_count(dtype)
    src = Reg.RegTensor[dtype]()
    src.set(np.resize(np.array(values, dtype=dtype.np_dtype), lanes))
    dst = Reg.RegTensor[dtype]()
    Reg.Reduce[kind](dst, src, kw.get("mask", Reg.CreateMask[dtype]()))
    out = np.asarray(dst)
    return out[0], int(out.view(f"u{dtype.size}")[1])


def test_reduce_documented() -> None:
    """Spec §7 / Reduce.md statements, hand-checked."""
    # pairwise tree: (2048 + 1) + (1 + 1) = 2050 in half; left to right would give 2048
    lanes = [2048.0, 1.0, 1.0, 1.0] + [0.0] * 124
    assert float(_reduce(ReduceType.SUM, half, lanes)[0]) == 2050.0
    # index of the first maximum, stored as raw bits of half (Reduce.md: 114)
    values = [0.5] * 128
    values[114] = values[120] = 1.14
    value, index = _reduce(ReduceType.MAX, half, values)
    assert index == 114 and value == np.float16(1.14)
    # max(-0, +0) = +0 and min(-0, +0) = -0, with the index of that zero
    assert _reduce(ReduceType.MAX, float32_t, [-0.0, 0.0])[1] == 1
    value, index = _reduce(ReduceType.MIN, float32_t, [0.0, -0.0])
    assert index == 1 and np.signbit(value)
    # NaN wins, with the first NaN's index
    value, index = _reduce(ReduceType.MIN, float32_t, [1.0, np.nan, -np.inf, np.nan])
    assert np.isnan(value) and index == 1
    # empty mask: 0 / type-min / type-max, index 0
    off = Reg.CreateMask[int16_t, Reg.MaskPattern.ALLF]()
    assert _reduce(ReduceType.MAX, int16_t, [5], mask=off) == (-32768, 0)
    assert _reduce(ReduceType.MIN, half, [5], mask=Reg.CreateMask[half, Reg.MaskPattern.ALLF]())[
        0
    ] == np.float16(np.inf)
    # SUM overflow follows IEEE (appendix: half 65504 sums to inf), integers wrap
    assert np.isinf(_reduce(ReduceType.SUM, half, [65504.0])[0])
    assert _reduce(ReduceType.SUM, int32_t, [2**30])[0] == 0  # 64 * 2**30 wraps to 0


def test_reduce_widening_and_rejects() -> None:
    src, dst = make_reg(int16_t, [0x8000] * 128), new_reg(int32_t)
    Reg.Reduce(dst, src, Reg.CreateMask[int16_t]())  # SUM by default; int16 -> int32
    assert np.asarray(dst).tolist() == [-(2**15) * 128] + [0] * 63
    with pytest.raises(IllegalDtypeError, match="SUM"):
        Reg.Reduce[ReduceType.SUM](new_reg(int16_t), src, Reg.CreateMask[int16_t]())
    with pytest.raises(IllegalDtypeError, match="MAX"):
        Reg.Reduce[ReduceType.MAX](dst, src, Reg.CreateMask[int16_t]())
    with pytest.raises(IllegalDtypeError):
        Reg.Reduce[ReduceType.MAX, int32_t, int16_t]
    with pytest.raises(TemplateMismatchError, match="U=int32_t"):
        Reg.Reduce[ReduceType.SUM, int32_t, int32_t](dst, src, Reg.CreateMask[int16_t]())
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        Reg.Reduce[ReduceType.SUM, int32_t, int16_t, MaskMergeMode.MERGING](
            dst, src, Reg.CreateMask[int16_t]()
        )
    with pytest.raises(AscregTypeError, match="RegTrait"):
        Reg.Reduce(new_reg(int64_t, True), make_reg(int64_t, [1] * 32), Reg.CreateMask[int64_t]())


BLOCK_REDUCE = [
    pytest.param(kind, dst, src, id=f"{kind}-{dst.cpp_name}-{src.cpp_name}")
    for kind, combos in REDUCE_BLOCK_COMBOS.items()
    for dst, src in combos
]


@pytest.mark.rows("Reg.ReduceDataBlock")
@pytest.mark.parametrize(("kind", "dst_t", "src_t"), BLOCK_REDUCE)
@settings(max_examples=25)
@given(st.data())
def test_reduce_datablock(kind: str, dst_t: Any, src_t: Any, data: Any) -> None:
    lanes, stride = geometry(src_t, False)
    values = data.draw(lane_bits(src_t, lanes))
    mbits = data.draw(st.one_of(mask_bits(), st.just([0] * MASK_BITS)))
    dst = new_reg(dst_t)
    Reg.ReduceDataBlock[ReduceType[kind]](dst, make_reg(src_t, values), make_mask(mbits))
    active = mask_to_lanes(mbits, lanes, stride)
    want = reduce_datablock(kind, dst_t, src_t, values, active, lane_count(dst_t))
    got = reg_bits(dst)
    assert same_lanes(got, want, dst_t), first_difference(got, want)


@pytest.mark.rows("Reg.PairReduceElem")
@pytest.mark.parametrize("dtype", PAIR_REDUCE_TYPES, ids=lambda t: t.cpp_name)
@settings(max_examples=40)
@given(st.data())
def test_pair_reduce_elem(dtype: Any, data: Any) -> None:
    lanes, stride = geometry(dtype, False)
    values = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    dst = new_reg(dtype)
    Reg.PairReduceElem[PairReduce.SUM](dst, make_reg(dtype, values), make_mask(mbits))
    want = pair_reduce(dtype, values, mask_to_lanes(mbits, lanes, stride))
    got = reg_bits(dst)
    assert same_lanes(got, want, dtype), first_difference(got, want)


def test_block_and_pair_documented() -> None:
    """ReduceDataBlock.md / PairReduceElem.md statements, hand-checked."""
    src, dst = make_reg(int16_t, [0x8000] * 128), new_reg(int32_t)
    Reg.ReduceDataBlock(dst, src, Reg.CreateMask[int16_t]())  # SUM, int16 -> int32 per block
    assert np.asarray(dst).tolist() == [-(2**15) * 16] * 8 + [0] * 56
    off = Reg.CreateMask[half, Reg.MaskPattern.ALLF]()
    h = Reg.RegTensor[half]()
    Reg.ReduceDataBlock[ReduceType.MAX](h, make_reg(half, [0] * 128), off)  # empty: -inf
    assert np.asarray(h)[:8].tolist() == [-np.inf] * 8 and not np.asarray(h)[8:].any()
    Reg.ReduceDataBlock[ReduceType.MIN](h, make_reg(half, [0, 0x8000] * 64), Reg.CreateMask[half]())
    assert np.signbit(np.asarray(h)[:8]).all()  # min(-0, +0) = -0
    # a lone -0 whose partner is masked off: -0 + (+0) = +0 (decision, see the docstring)
    even_lanes = make_mask([1, 0, 0, 0] * 64)  # half lanes 0, 2, 4, ...
    Reg.PairReduceElem(h, make_reg(half, [0x8000] * 128), even_lanes)
    assert not np.signbit(np.asarray(h)).any()
    with pytest.raises(IllegalDtypeError, match="MAX"):
        Reg.ReduceDataBlock[ReduceType.MAX](dst, src, Reg.CreateMask[int16_t]())
    with pytest.raises(IllegalDtypeError):
        Reg.PairReduceElem(new_reg(int32_t), new_reg(int32_t), Reg.CreateMask[int32_t]())
    with pytest.raises(AscregTypeError, match="ZEROING only"):
        Reg.PairReduceElem[PairReduce.SUM, half, MaskMergeMode.MERGING](h, h, off)

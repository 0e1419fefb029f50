"""The memory-level reductions against the loop-by-loop reference (reference/memvec_reduce.py).

Each case writes random bit patterns into UB, runs the op, and compares every UB byte with the
reference's result: dst, what the op stores into ``sharedTmpBuffer`` or ``src`` (the 2-D
patterns with ``isReuseSource``), and nothing else.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import (
    ReduceType,
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
from ascreg._spec.basic import REDUCE_OPS, REPEAT_REDUCE_TYPES, REPEAT_SUM_PAIRS
from ascreg.basic import (
    PIPE_ALL,
    BlockReduceSum,
    Hardware,
    LocalMemAllocator,
    PairReduceSum,
    Pattern,
    PipeBarrier,
    ReduceAll,
    ReduceAny,
    ReduceDataBlock,
    ReduceMax,
    ReduceMean,
    ReduceMin,
    ReduceOrder,
    ReducePairElem,
    ReduceProd,
    ReduceRepeat,
    ReduceSum,
    RepeatReduceSum,
    SetMaskCount,
    SetMaskNorm,
    WholeReduceMax,
    WholeReduceSum,
)
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
)
from ascreg.machine.block import BlockContext, block
from memvec_cases import FEWER, snapshot, tensor
from reference import memvec as ref
from reference import memvec_reduce as rr
from reference.common import elements, from_bits, is_float, is_nan_bits, put, to_bits
from reference.reduce import reduce as reg_reduce

KINDS = {"ReduceSum": "SUM", "ReduceMax": "MAX", "ReduceMin": "MIN"}
OPS = {"ReduceSum": ReduceSum, "ReduceMax": ReduceMax, "ReduceMin": ReduceMin}


def finite_bits(dtype: type[Scalar], n: int, seed: int, spread: int = 8) -> list[int]:
    """*n* bit patterns: floats finite and of mixed magnitudes (sums stay finite), any integers."""
    rng = np.random.default_rng(seed)
    if is_float(dtype):
        values = rng.standard_normal(n) * np.exp2(rng.integers(-spread, spread, n))
        return to_bits(values.astype(dtype.np_dtype))
    top = (1 << (8 * dtype.size)) - 1
    return [int(v) for v in rng.integers(0, top, n, dtype=np.uint64, endpoint=True)]


def alloc(dtype: type[Scalar], n: int) -> Any:
    return LocalMemAllocator[Hardware.UB]().Alloc[dtype, max(n, 1)]()


def same(got: bytes, want: bytearray, dtype: type[Scalar]) -> None:
    """Every byte equal, except that NaN elements of *dtype* match NaN (aligned to the dtype)."""
    if got == bytes(want):
        return
    g = elements(got, 0, len(got) // dtype.size, dtype.size)
    w = elements(want, 0, len(got) // dtype.size, dtype.size)
    bad = [(i * dtype.size, hex(a), hex(b)) for i, (a, b) in enumerate(zip(g, w, strict=True))
           if a != b and not (is_nan_bits(a, dtype) and is_nan_bits(b, dtype))]  # fmt: skip
    assert not bad, bad[:4]


def registers(bits: list[int], n: int, repeats: int, stride_elems: int) -> list[list[int]]:
    """The registers ``LoadAlign`` reads: repeat ``r`` at ``r * stride_elems`` (lanes past: 0)."""
    return [[bits[r * stride_elems + j] if r * stride_elems + j < len(bits) else 0 for j in range(n)]
            for r in range(repeats)]  # fmt: skip


# ---- ReduceSum / ReduceMax / ReduceMin (basic API) -------------------------------------------------
COUNTS = st.one_of(st.integers(0, 300), st.sampled_from([64, 65, 128, 129, 192, 193, 255, 256, 257,
                                                          511, 512, 513, 4096, 4097, 5000]))  # fmt: skip


def count_types(name: str) -> list[type[Scalar]]:
    return [t for t in REDUCE_OPS[name][1]]


@pytest.mark.rows("basic.ReduceSum")
@FEWER
@given(data=st.data())
def test_reduce_sum_count_form(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(count_types("ReduceSum")), label="dtype")
    count = data.draw(COUNTS, label="count")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    bits = finite_bits(dtype, max(count, 1), seed)
    n = rr.lanes(dtype)
    with block(BlockContext()) as ctx:
        src, dst, work = tensor(dtype, bits), alloc(dtype, 8), alloc(dtype, 128)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        ReduceSum(dst, src, work, count)
        PipeBarrier[PIPE_ALL]()
    regs = registers(bits, n, max(-(-count // n), 1), n)
    if dtype.size == 8:
        value, stored = rr.reduce_sum_b64(dtype, regs, count), []
    else:
        value, stored = rr.reduce_sum_counter(dtype, regs, count)
    put(want, dst.GetPhyAddr().address, value, dtype.size)
    for i, v in enumerate(stored):
        put(want, work.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


@pytest.mark.rows("basic.ReduceSum")
@FEWER
@given(data=st.data())
def test_reduce_sum_repeat_forms(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(REDUCE_OPS["ReduceSum"][2]), label="dtype")
    n = rr.lanes(dtype)
    bits_form = data.draw(st.booleans(), label="mask[]")
    mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if bits_form
                 else data.draw(st.integers(0, n)))  # fmt: skip
    repeat = data.draw(st.integers(0, 80), label="repeatTime")
    stride = data.draw(st.integers(0, 10), label="srcRepStride")
    counter = data.draw(st.booleans(), label="counter mode")
    seed = data.draw(st.integers(0, 2**32 - 1))
    per_block = 32 // dtype.size
    if counter:
        count = (mask[0] if bits_form else mask) % 700
        mask = [count, 0] if bits_form else count
        repeats = max(-(-count // n), 1)
    else:
        repeats = max(repeat, 1)
    size = (repeats - 1) * stride * per_block + n
    bits = finite_bits(dtype, size, seed)
    with block(BlockContext()) as ctx:
        src, dst, work = tensor(dtype, bits), alloc(dtype, 8), alloc(dtype, 128)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        if counter:
            SetMaskCount()
        ReduceSum(dst, src, work, mask, repeat, stride)
        SetMaskNorm()
        PipeBarrier[PIPE_ALL]()
    regs = registers(bits, n, repeats, stride * per_block)
    if counter:
        value, stored = rr.reduce_sum_counter(dtype, regs, mask[0] if bits_form else mask)
    else:
        active = ref.mask_plan(mask, 1, n)[0]
        on = [j in active for j in range(n)]
        value, stored = rr.reduce_sum_normal(dtype, regs, on, repeat)
    put(want, dst.GetPhyAddr().address, value, dtype.size)
    for i, v in enumerate(stored):
        put(want, work.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


@pytest.mark.rows("basic.ReduceMax", "basic.ReduceMin")
@pytest.mark.parametrize("name", ["ReduceMax", "ReduceMin"])
@FEWER
@given(data=st.data())
def test_reduce_extreme_forms(name: str, data: st.DataObject) -> None:
    kind = KINDS[name]
    form = data.draw(st.sampled_from(["count", "bits", "mask", "counter"]), label="form")
    types = REDUCE_OPS[name][1] if form == "count" else REDUCE_OPS[name][2]
    dtype = data.draw(st.sampled_from(types), label="dtype")
    cal_index = data.draw(st.booleans(), label="calIndex")
    n = 64 if dtype.size == 8 else 256 // dtype.size
    per_block = 32 // dtype.size
    seed = data.draw(st.integers(0, 2**32 - 1))
    few_values = data.draw(st.booleans(), label="ties")
    if form in ("count", "counter"):
        count = data.draw(COUNTS.filter(lambda c: c < 1500), label="count")
        stride = (
            n // per_block if form == "count" else data.draw(st.integers(0, 10), label="stride")
        )
        repeats = -(-count // n)
    else:
        mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if form == "bits"
                     else data.draw(st.integers(0, n)))  # fmt: skip
        repeats = data.draw(st.integers(0, 12), label="repeatTime")
        stride = data.draw(st.integers(0, 10), label="stride")
    size = max(repeats - 1, 0) * stride * per_block + n
    bits = finite_bits(dtype, size, seed, spread=1 if few_values else 8)
    if few_values:  # many equal extremes: the index is the first one's
        bits = [b & ~0xFF if dtype.size > 1 else b for b in bits]
    with block(BlockContext()) as ctx:
        src, dst = tensor(dtype, bits), alloc(dtype, 8)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = OPS[name]
        if form == "count":
            op(dst, src, src, count, cal_index)
        elif form == "counter":
            SetMaskCount()
            op(dst, src, src, count, 1, stride, cal_index)
            SetMaskNorm()
        else:
            op(dst, src, src, mask, repeats, stride, cal_index)
        PipeBarrier[PIPE_ALL]()
    regs = registers(bits, n, repeats, stride * per_block)
    if form in ("count", "counter"):
        actives = [[r * n + j < count for j in range(n)] for r in range(repeats)]
        value, index = rr.reduce_extreme(kind, dtype, regs, actives, None, n)
    else:
        active = ref.mask_plan(mask, 1, n)[0]
        fixed = [j in active for j in range(n)]
        value, index = rr.reduce_extreme(
            kind, dtype, regs, [fixed] * repeats, fixed, stride * per_block
        )
    at = dst.GetPhyAddr().address
    put(want, at, value, dtype.size)
    if cal_index:
        put(want, at + dtype.size, index, 8 if dtype.size == 8 else dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


def test_reduce_max_starts_from_the_lowest_finite_value() -> None:
    """An all -inf float input gives -FLT_MAX (the 950's initial value), not -inf."""
    with block(BlockContext()):
        src, dst = tensor(float32_t, to_bits(np.full(64, -np.inf, np.float32))), alloc(float32_t, 8)
        PipeBarrier[PIPE_ALL]()
        ReduceMax(dst, src, src, 64, True)
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(1)[0] == -np.finfo(np.float32).max
        assert int(dst.GetPhyAddr().cast(uint32_t)[1]) == 0


# ---- ReduceRepeat / ReduceDataBlock / ReducePairElem and the deprecated spellings ------------------
@pytest.mark.rows("basic.ReduceRepeat", "basic.ReduceDataBlock", "basic.ReducePairElem")
@pytest.mark.parametrize("name", ["ReduceRepeat", "ReduceDataBlock", "ReducePairElem"])
@FEWER
@given(data=st.data())
def test_per_repeat_reductions(name: str, data: st.DataObject) -> None:
    kind = "SUM" if name == "ReducePairElem" else data.draw(st.sampled_from(["SUM", "MAX", "MIN"]))
    if name == "ReduceRepeat":
        pairs = REPEAT_SUM_PAIRS if kind == "SUM" else tuple((t, t) for t in REPEAT_REDUCE_TYPES)
    else:
        pairs = ((half, half), (float32_t, float32_t))
    target, source = data.draw(st.sampled_from(pairs), label="dst/src")
    order = data.draw(st.sampled_from(list(ReduceOrder)), label="order")
    n = 256 // source.size
    bits_form = data.draw(st.booleans(), label="mask[]")
    mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if bits_form
                 else data.draw(st.integers(0, n)))  # fmt: skip
    repeat = data.draw(st.integers(0, 6), label="repeatTime")
    dst_stride, blk, rep = (data.draw(st.integers(0, 3)), data.draw(st.integers(0, 2)),
                            data.draw(st.integers(0, 12)))  # fmt: skip
    bits = finite_bits(
        source,
        max(repeat - 1, 0) * rep * (32 // source.size) + 8 * max(blk, 1) * (32 // source.size),
        data.draw(st.integers(0, 2**32 - 1)),
    )
    per = {"ReduceRepeat": 1, "ReduceDataBlock": 8, "ReducePairElem": n // 2}[name]
    if name == "ReduceRepeat" and kind != "SUM":
        per = 2 if order in (ReduceOrder.ORDER_VALUE_INDEX, ReduceOrder.ORDER_INDEX_VALUE) else 1
        per = 2 if order is ReduceOrder.ORDER_ONLY_INDEX and target.size == 2 else per
    with block(BlockContext()) as ctx:
        src, dst = (
            tensor(source, bits),
            alloc(target, max(repeat, 1) * max(dst_stride, 1) * per + 64),
        )
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = {"ReduceRepeat": ReduceRepeat, "ReduceDataBlock": ReduceDataBlock,
              "ReducePairElem": ReducePairElem}[name][ReduceType[kind], target, source]  # fmt: skip
        args = (mask, repeat, dst_stride, blk, rep) + ((order,) if name == "ReduceRepeat" else ())
        op(dst, src, *args)
        PipeBarrier[PIPE_ALL]()
    active = ref.mask_plan(mask, 1, n)[0]
    on = [j in active for j in range(n)]
    runs = range(repeat) if dst_stride else range(max(repeat - 1, 0), repeat)
    at = dst.GetPhyAddr().address
    for r in runs:
        lanes = [bits[(r * rep + (j // (32 // source.size)) * blk) * (32 // source.size) + j % (32 // source.size)] if on[j] else 0
                 for j in range(n)]  # fmt: skip
        result = _per_repeat_reference(name, kind, target, source, lanes, on, order)
        for k, v in enumerate(result):
            put(want, at + (r * dst_stride * per + k) * target.size, v, target.size)
    same(bytes(ctx.ub.data), want, target)


def _per_repeat_reference(name: str, kind: str, target: Any, source: Any, lanes: list[int],
                          on: list[bool], order: ReduceOrder) -> list[int]:  # fmt: skip
    from reference.reduce import pair_reduce, reduce_datablock

    n = len(lanes)
    if name == "ReduceDataBlock":
        return reduce_datablock(kind, target, source, lanes, on, n)[:8]
    if name == "ReducePairElem":
        return pair_reduce(source, lanes, on)[: n // 2]
    value, index = reg_reduce(kind, target, source, lanes, on, n)[:2]
    if kind == "SUM":
        return [value]
    return {
        ReduceOrder.ORDER_VALUE_INDEX: [value, index],
        ReduceOrder.ORDER_INDEX_VALUE: [index, value],
        ReduceOrder.ORDER_ONLY_VALUE: [value],
        ReduceOrder.ORDER_ONLY_INDEX: [index, 0] if target.size == 2 else [index],
    }[order]


@pytest.mark.rows("basic.WholeReduceSum", "basic.WholeReduceMax", "basic.RepeatReduceSum",
                  "basic.BlockReduceSum", "basic.PairReduceSum", "basic.WholeReduceMin",
                  "basic.BlockReduceMax", "basic.BlockReduceMin")  # fmt: skip
def test_deprecated_spellings_forward_with_their_argument_orders() -> None:
    with block(BlockContext()):
        x = tensor(int16_t, list(range(256)))
        f = tensor(float32_t, to_bits(np.arange(128, dtype=np.float32)))
        y = alloc(int32_t, 16)
        z = alloc(float32_t, 64)
        PipeBarrier[PIPE_ALL]()
        WholeReduceSum[int16_t, True, int32_t](y, x, 128, 2, 1, 1, 8)  # T = src, U = dst
        RepeatReduceSum[int16_t, True, int32_t](
            y[8], x, 1, 4, 0, 1, 1, 8
        )  # (repeatTime, mask, ...)
        WholeReduceMax(z, f, 64, 2, 1, 1, 8, ReduceOrder.ORDER_ONLY_VALUE)
        BlockReduceSum(z[8], f, 1, 64, 1, 1, 8)  # (repeatTime, mask, ...)
        PairReduceSum(z[16], f, 1, 4, 1, 1, 8)
        PipeBarrier[PIPE_ALL]()
        assert y.GetPhyAddr().read(2).tolist() == [sum(range(128)), sum(range(128, 256))]
        assert int(y.GetPhyAddr()[8]) == 6
        assert z.GetPhyAddr().read(2).tolist() == [63.0, 127.0]
        assert (z.GetPhyAddr() + 8).read(3).tolist() == [28.0, 92.0, 156.0]
        assert (z.GetPhyAddr() + 16).read(3).tolist() == [1.0, 5.0, 0.0]


# ---- the 2-D patterns --------------------------------------------------------------------------------
PATTERN_TYPES = {name: REDUCE_OPS[name][3] for name in REDUCE_OPS}


@pytest.mark.rows("basic.ReduceSum", "basic.ReduceMax", "basic.ReduceMin")
@pytest.mark.parametrize("pattern", ["AR", "RA"])
@pytest.mark.parametrize("name", ["ReduceSum", "ReduceMax", "ReduceMin"])
@FEWER
@given(data=st.data())
def test_pattern_reductions_match_the_loops(name: str, pattern: str, data: st.DataObject) -> None:
    kind = KINDS[name]
    types = PATTERN_TYPES[name]
    dtype = data.draw(
        st.sampled_from([float32_t] * 3 + list(types) if name == "ReduceSum" else list(types)),
        label="dtype",
    )
    n = rr.lanes(dtype)
    dim_a = data.draw(st.integers(1, 3), label="dimA")
    dim_r = data.draw(
        st.one_of(st.integers(1, 2 * n + 9), st.sampled_from([n * 4, n * 16 + 3, n * 33, n * 64])),
        label="dimR",
    )
    if pattern == "RA":
        dim_a = data.draw(
            st.one_of(st.integers(1, 2 * n + 5), st.sampled_from([8, 16, 32, 40])), label="dimA"
        )
        dim_r = data.draw(
            st.one_of(st.integers(1, 40), st.sampled_from([64, 100, 257])), label="dimR"
        )
        dim_r = min(dim_r, max(2, 24000 // (dim_a * dtype.size)))
    reuse = data.draw(st.booleans(), label="isReuseSource")
    with_tmp = data.draw(st.booleans(), label="sharedTmpBuffer")
    seed = data.draw(st.integers(0, 2**32 - 1))
    bits = finite_bits(dtype, dim_a * dim_r, seed)
    rows = (
        [bits[i * dim_r : (i + 1) * dim_r] for i in range(dim_a)]
        if pattern == "AR"
        else [bits[i * dim_a : (i + 1) * dim_a] for i in range(dim_r)]
    )
    shape = [dim_a, dim_r] if pattern == "AR" else [dim_r, dim_a]
    with block(BlockContext()) as ctx:
        src, dst = tensor(dtype, bits), alloc(dtype, dim_a + 32)
        tmp = alloc(uint8_t, dim_a * dim_r * dtype.size + 256) if with_tmp else None
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = OPS[name][dtype, getattr(Pattern.Reduce, pattern), reuse]
        if tmp is None:
            op(dst, src, shape, True)
        else:
            op(dst, src, tmp, shape, False)
        PipeBarrier[PIPE_ALL]()
    out, src_buf, tmp_buf = (rr.ar if pattern == "AR" else rr.ra)(kind, dtype, rows, reuse)
    for i, v in enumerate(out):
        put(want, dst.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if src_buf is not None:
        for i, (v, s) in enumerate(zip(src_buf.values, src_buf.stored, strict=True)):
            if s:
                put(want, src.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if tmp_buf is not None and tmp is not None:
        for i, (v, s) in enumerate(zip(tmp_buf.values, tmp_buf.stored, strict=True)):
            if s:
                put(want, tmp.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


LOGICAL = {"ReduceAll": (ReduceAll, "MIN", all), "ReduceAny": (ReduceAny, "MAX", any)}


@pytest.mark.rows("basic.ReduceAll", "basic.ReduceAny")
@pytest.mark.parametrize("pattern", ["AR", "RA"])
@pytest.mark.parametrize("name", ["ReduceAll", "ReduceAny"])
@FEWER
@given(data=st.data())
def test_logical_reductions_match_the_loops(name: str, pattern: str, data: st.DataObject) -> None:
    """``ReduceAll`` / ``ReduceAny`` of 0/1 data: the page's AND / OR of each row or column,
    folded (with the stores into ``src`` / ``sharedTmpBuffer``) as the Min / Max fold is."""
    op_, kind, logical = LOGICAL[name]
    dtype = data.draw(st.sampled_from([uint8_t, float32_t]), label="dtype")
    n, block_elems = rr.lanes(dtype), 32 // dtype.size
    inner = block_elems * data.draw(
        st.one_of(st.integers(1, 9), st.sampled_from([n // block_elems * 4 + 1, 33])),
        label="inner blocks",
    )
    outer = data.draw(st.integers(1, 3 if pattern == "AR" else 40), label="outer")
    dim_a, dim_r = (outer, inner) if pattern == "AR" else (inner, outer)
    reuse = data.draw(st.booleans(), label="isReuseSource")
    with_tmp = data.draw(st.booleans(), label="sharedTmpBuffer")
    density = data.draw(st.sampled_from([0.02, 0.5, 0.98]), label="share of ones")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ones = rng.random(dim_a * dim_r) < density
    bits = to_bits(ones.astype(dtype.np_dtype))
    rows = [bits[i * inner : (i + 1) * inner] for i in range(outer)]
    shape = [outer, inner]
    with block(BlockContext()) as ctx:
        src, dst = tensor(dtype, bits), alloc(dtype, dim_a + 32)
        tmp = alloc(uint8_t, dim_a * dim_r * dtype.size + 256) if with_tmp else None
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = op_[dtype, getattr(Pattern.Reduce, pattern), reuse]
        if tmp is None:
            op(dst, src, shape, True)
        else:
            op(dst, src, tmp, shape, True)
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(dim_a).astype(bool).tolist()
    flags = ones.reshape(outer, inner)
    axis = 1 if pattern == "AR" else 0
    assert got == [logical(line) for line in np.moveaxis(flags, axis, -1).reshape(dim_a, -1)]
    out, src_buf, tmp_buf = (rr.ar if pattern == "AR" else rr.ra)(kind, dtype, rows, reuse)
    for i, v in enumerate(out):
        put(want, dst.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if src_buf is not None:
        for i, (v, s) in enumerate(zip(src_buf.values, src_buf.stored, strict=True)):
            if s:
                put(want, src.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if tmp_buf is not None and tmp is not None:
        for i, (v, s) in enumerate(zip(tmp_buf.values, tmp_buf.stored, strict=True)):
            if s:
                put(want, tmp.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


@pytest.mark.rows("basic.ReduceMean")
@pytest.mark.parametrize("pattern", ["AR", "RA"])
@FEWER
@given(data=st.data())
def test_reduce_mean_is_the_sum_times_the_float_reciprocal(
    pattern: str, data: st.DataObject
) -> None:
    """reduce_mean_3510_impl.h: ``ReduceSum`` (its fold and stores), then ``Muls`` by
    ``1.0f / n`` rounded once per element."""
    dtype = float32_t
    outer = data.draw(st.integers(1, 3 if pattern == "AR" else 30), label="outer")
    inner = data.draw(st.one_of(st.integers(1, 140), st.sampled_from([64 * 16 + 3, 700])))
    outer = min(outer, max(1, 12000 // inner))  # src and sharedTmpBuffer fit in UB
    dim_a = outer if pattern == "AR" else inner
    n = inner if pattern == "AR" else outer
    reuse = data.draw(st.booleans(), label="isReuseSource")
    with_tmp = data.draw(st.booleans(), label="sharedTmpBuffer")
    bits = finite_bits(dtype, outer * inner, data.draw(st.integers(0, 2**32 - 1)))
    rows = [bits[i * inner : (i + 1) * inner] for i in range(outer)]
    with block(BlockContext()) as ctx:
        src, dst = tensor(dtype, bits), alloc(dtype, dim_a + 32)
        tmp = alloc(uint8_t, outer * inner * 4 + 256) if with_tmp else None
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = ReduceMean[dtype, getattr(Pattern.Reduce, pattern), reuse]
        if tmp is None:
            op(dst, src, [outer, inner], True)
        else:
            op(dst, src, tmp, [outer, inner], True)
        PipeBarrier[PIPE_ALL]()
    sums, src_buf, tmp_buf = (rr.ar if pattern == "AR" else rr.ra)("SUM", dtype, rows, reuse)
    reciprocal = np.float32(1.0) / np.float32(n)
    means = to_bits(np.array(from_bits(sums, dtype), np.float32) * reciprocal)
    for i, v in enumerate(means):
        put(want, dst.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if src_buf is not None:
        for i, (v, s) in enumerate(zip(src_buf.values, src_buf.stored, strict=True)):
            if s:
                put(want, src.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if tmp_buf is not None and tmp is not None:
        for i, (v, s) in enumerate(zip(tmp_buf.values, tmp_buf.stored, strict=True)):
            if s:
                put(want, tmp.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)


@pytest.mark.rows("basic.ReduceProd")
@pytest.mark.parametrize("pattern", ["AR", "RA"])
@FEWER
@given(data=st.data())
def test_reduce_prod_matches_the_loops(pattern: str, data: st.DataObject) -> None:
    """reduce_prod_3510_impl.h: the fold with ``Mul`` and its stores, the last register by
    neighbouring pairs; every product rounded once (float results bit-exact)."""
    dtype = float32_t
    inner = 8 * data.draw(st.one_of(st.integers(1, 20), st.sampled_from([33, 129])), label="inner")
    outer = data.draw(st.integers(1, 3 if pattern == "AR" else 40), label="outer")
    outer = min(outer, max(1, 12000 // inner))  # src and sharedTmpBuffer fit in UB
    dim_a = outer if pattern == "AR" else inner
    reuse = data.draw(st.booleans(), label="isReuseSource")
    with_tmp = data.draw(st.booleans(), label="sharedTmpBuffer")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = rng.uniform(0.97, 1.03, outer * inner) * rng.choice([1, -1], outer * inner)
    bits = to_bits(values.astype(np.float32))
    rows = [bits[i * inner : (i + 1) * inner] for i in range(outer)]
    with block(BlockContext()) as ctx:
        src, dst = tensor(dtype, bits), alloc(dtype, dim_a + 32)
        tmp = alloc(uint8_t, outer * inner * 4 + 256) if with_tmp else None
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        op = ReduceProd[dtype, getattr(Pattern.Reduce, pattern), reuse]
        if tmp is None:
            op(dst, src, [outer, inner], True)
        else:
            op(dst, src, tmp, [outer, inner], True)
        PipeBarrier[PIPE_ALL]()
    out, src_buf, tmp_buf = (rr.ar if pattern == "AR" else rr.ra)("PROD", dtype, rows, reuse)
    for i, v in enumerate(out):
        put(want, dst.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if src_buf is not None:
        for i, (v, s) in enumerate(zip(src_buf.values, src_buf.stored, strict=True)):
            if s:
                put(want, src.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    if tmp_buf is not None and tmp is not None:
        for i, (v, s) in enumerate(zip(tmp_buf.values, tmp_buf.stored, strict=True)):
            if s:
                put(want, tmp.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    same(bytes(ctx.ub.data), want, dtype)
    got = np.array(from_bits(out, dtype), np.float64)
    exact = np.prod(values.reshape(outer, inner), axis=1 if pattern == "AR" else 0)
    assert np.allclose(got, exact, rtol=1e-4)  # the page: the product


def test_logical_reduction_errors() -> None:
    with block(BlockContext()):
        f = alloc(float32_t, 64)
        h = alloc(half, 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(AscregTypeError, match=r"takes a Pattern template argument"):
            ReduceAll(f, f, [1, 8], True)
        with pytest.raises(AscregTypeError, match="srcInnerPad must be true"):
            ReduceAny[float32_t, Pattern.Reduce.AR](f[32], f, [1, 8], False)
        with pytest.raises(AscregError, match="srcShape\\[1\\] = 7 elements"):
            ReduceAll[float32_t, Pattern.Reduce.AR](f[32], f, [1, 7], True)
        with pytest.raises(IllegalDtypeError):
            ReduceAll[half, Pattern.Reduce.AR](h[32], h, [1, 16], True)
        with pytest.raises(IllegalDtypeError):
            ReduceMean[half, Pattern.Reduce.AR](h[32], h, [1, 16], True)
        with pytest.raises(IllegalDtypeError):
            ReduceProd[half, Pattern.Reduce.AR](h[32], h, [1, 16], True)
        with pytest.raises(AscregError, match="srcShape\\[1\\] = 9 elements"):
            ReduceProd[float32_t, Pattern.Reduce.RA](f[32], f, [2, 9], True)
        with pytest.raises(AscregTypeError, match=r"takes a Pattern template argument"):
            ReduceMean(f[32], f, [1, 8], True)


def test_pattern_sum_order_differs_from_a_straight_sum() -> None:
    """The fold order shows in float32: one 1.0 and 127 halves of an ulp of 1.

    Added left to right each half ulp ties to even and vanishes (1.0); the chip adds the two
    64-lane vectors first (lane 0 stays 1.0, lanes 1-63 become a whole ulp) and the tree keeps
    all 63 ulps.
    """
    x = np.full((1, 128), 2.0**-24, np.float32)
    x[0, 0] = 1.0
    with block(BlockContext()):
        src, dst = tensor(float32_t, to_bits(x.reshape(-1))), alloc(float32_t, 8)
        PipeBarrier[PIPE_ALL]()
        ReduceSum[float32_t, Pattern.Reduce.AR, False](dst, src, [1, 128], True)
        PipeBarrier[PIPE_ALL]()
        got = float(dst.GetPhyAddr().read(1)[0])
    assert got == 1.0 + 63 * 2.0**-23


def test_pattern_reuse_source_stores_into_src() -> None:
    with block(BlockContext()):
        src, dst = tensor(float32_t, to_bits(np.ones(2 * 100, np.float32))), alloc(float32_t, 8)
        PipeBarrier[PIPE_ALL]()
        ReduceSum[float32_t, Pattern.Reduce.AR, True](dst, src, [2, 100], True)
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(2).tolist() == [100.0, 100.0]
        assert src.GetPhyAddr().read(40)[:36].tolist() == [2.0] * 36  # tail 36 added in place
        assert float(src.GetPhyAddr().read(40)[36]) == 1.0


# ---- dtype legality and the other errors ----------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda d, s: ReduceSum[half, Pattern.Reduce.AR](d, s, [1, 16], True), IllegalDtypeError),
        (lambda d, s: ReduceSum(d, s, s, [1, 1], 1, 8), None),
        (lambda d, s: ReduceSum[half, Pattern.Reduce.ARA](d, s, [1, 16], True), AscregTypeError),
        (lambda d, s: ReduceSum[half](d, s, [1, 16], True), AscregTypeError),
    ],
    ids=["half pattern", "half repeat form is legal", "ARA", "no pattern"],
)
def test_pattern_legality(call: Any, error: Any) -> None:
    with block(BlockContext()):
        d, s = alloc(half, 32), tensor(half, [0] * 256)
        PipeBarrier[PIPE_ALL]()
        if error is None:
            call(d, s)
        else:
            with pytest.raises(error):
                call(d, s)


@pytest.mark.parametrize(
    ("dtype", "form"),
    [
        (int16_t, "count"),
        (int64_t, "repeat"),
        (uint64_t, "repeat"),
        (int8_t, "count"),
        (bfloat16_t, "count"),
    ],
)
def test_reduce_sum_illegal_dtypes(dtype: Any, form: str) -> None:
    with block(BlockContext()):
        d, s = alloc(dtype, 32), tensor(dtype, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(IllegalDtypeError):
            if form == "count":
                ReduceSum(d, s, s, 8)
            else:
                ReduceSum(d, s, s, 8, 1, 8)


def test_per_repeat_errors() -> None:
    with block(BlockContext()):
        h, f = tensor(half, [0] * 128), tensor(float32_t, [0] * 64)
        i16, i32 = tensor(int16_t, [0] * 128), alloc(int32_t, 64)
        u16 = tensor(uint16_t, [0] * 128)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(AscregTypeError, match="ReduceType"):
            ReduceRepeat(f, f, 64, 1, 1, 1, 8)
        with pytest.raises(IllegalDtypeError):
            ReduceRepeat[ReduceType.MAX, int32_t, int16_t](i32, i16, 64, 1, 1, 1, 8)
        with pytest.raises(IllegalDtypeError):
            ReduceRepeat[ReduceType.SUM, int32_t, uint16_t](i32, u16, 64, 1, 1, 1, 8)
        with pytest.raises(AscregTypeError, match="SUM only"):
            ReducePairElem[ReduceType.MAX, half, half](h, h, 64, 1, 1, 1, 8)
        with pytest.raises(AscregTypeError):
            WholeReduceMax(h, h, 64, 1, 1, 1, 8, "ORDER_ONLY_VALUE")
        ReduceRepeat[ReduceType.SUM, int32_t, int16_t](i32, i16, 64, 1, 1, 1, 8)


def test_pattern_overlap_and_small_tmp() -> None:
    with block(BlockContext()):
        s = tensor(float32_t, [0] * 1024)
        small = alloc(uint8_t, 32)
        d = alloc(float32_t, 8)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UndefinedBehaviourError, match="overlaps"):
            ReduceSum[float32_t, Pattern.Reduce.AR](s, s, [4, 256], True)
        with pytest.raises(OutOfBoundsError):
            ReduceSum[float32_t, Pattern.Reduce.AR, False](d, s, small, [4, 256], True)
        with pytest.raises(AscregTypeError, match="2"):
            ReduceSum[float32_t, Pattern.Reduce.AR](d, s, [4, 16, 16], True)


def test_reduce_max_index_types() -> None:
    """The index is a uint16_t after a 2-byte value, a uint32_t (and 4 zero bytes) after b64."""
    with block(BlockContext()):
        x = tensor(int64_t, finite_bits(int64_t, 300, 5))
        y = alloc(int64_t, 8)
        h = tensor(uint16_t, [5] * 100 + [9] + [9] * 99)
        z = alloc(uint16_t, 16)
        PipeBarrier[PIPE_ALL]()
        ReduceMax(y, x, x, 300, True)
        ReduceMin(z, h, h, 200, True)
        PipeBarrier[PIPE_ALL]()
        values = np.array(x.GetPhyAddr().read(300))
        assert int(y.GetPhyAddr()[0]) == int(values.max())
        assert int(y.GetPhyAddr().cast(uint64_t)[1]) == int(np.argmax(values))
        assert z.GetPhyAddr().read(2).tolist() == [5, 0]

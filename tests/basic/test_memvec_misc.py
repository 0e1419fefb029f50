"""Memory-level MulAddDst, Axpy, Interleave, DeInterleave, Brcb, Gather, Scatter and GatherMask
against references."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import Ref, float32_t, half, int8_t, int16_t, int64_t, uint8_t, uint16_t, uint32_t
from ascreg._spec.basic import GATHER_MASK_PAIRS, GATHER_REPEAT, MIXED_OPS, REARRANGE_TYPES
from ascreg.basic import (
    PIPE_ALL,
    Axpy,
    BinaryRepeatParams,
    Brcb,
    BrcbRepeatParams,
    DeInterleave,
    Gather,
    GatherMask,
    GatherMaskParams,
    Interleave,
    MulAddDst,
    PipeBarrier,
    Scatter,
    SetMaskCount,
    SetMaskNorm,
    UnaryRepeatParams,
)
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, UndefinedBehaviourError
from ascreg.machine.block import BlockContext, block
from memvec_cases import FEWER, assert_same, bit_values, snapshot, tensor
from reference import memvec as ref
from reference.common import decode_float, encode_float, is_float, put
from reference.compound import fma_lane


def widen(bits: int, source: Any, target: Any) -> int:
    """A lane of *source* as *target* (half -> float is exact)."""
    if source is target:
        return bits
    return encode_float(decode_float(bits, source), target)


@pytest.mark.rows("basic.MulAddDst", "basic.Axpy")
@pytest.mark.parametrize("name", ["MulAddDst", "Axpy"])
@FEWER
@given(data=st.data())
def test_mixed_multiply_adds(name: str, data: st.DataObject) -> None:
    _page, count_pairs, repeat_pairs, _core = MIXED_OPS[name]
    form = data.draw(st.sampled_from(["count", "bits", "mask"]), label="form")
    target, source = data.draw(st.sampled_from(count_pairs if form == "count" else repeat_pairs))
    lanes = 256 // target.size if form != "count" or target.size != 8 else 64
    sources = 2 if name == "MulAddDst" else 1
    if form == "count":
        count = data.draw(st.integers(0, 300), label="count")
        plan = ref.count_plan(count, lanes)
        strides = [(1, 8)] * (sources + 1)
        args: tuple[Any, ...] = (count,)
    else:
        mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if form == "bits"
                     else data.draw(st.integers(0, lanes)))  # fmt: skip
        repeat = data.draw(st.integers(0, 3), label="repeatTime")
        plan = ref.mask_plan(mask, repeat, lanes)
        strides = [(data.draw(st.integers(1, 2)), data.draw(st.integers(0, 12)))
                   for _ in range(sources + 1)]  # fmt: skip
        kind = BinaryRepeatParams if sources == 2 else UnaryRepeatParams
        if sources == 2:
            params = kind(*(s[0] for s in strides), *(s[1] for s in strides))
        else:
            params = kind(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
        args = (mask, repeat, params)
    (scalar,) = data.draw(bit_values(source, 1), label="scalar")

    def size(dtype: Any, stride: tuple[int, int]) -> int:
        if form == "count":
            return max(len(plan) * lanes, 1)
        return (max(len(plan) - 1, 0) * stride[1] + 8 * stride[0] + 1) * 32 // dtype.size

    with block(BlockContext()) as ctx:
        dst = tensor(target, data.draw(bit_values(target, size(target, strides[0]))))
        srcs = [tensor(source, data.draw(bit_values(source, size(source, s)))) for s in strides[1:]]
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        value = (np.array([scalar], dtype=f"u{source.size}").view(source.np_dtype)[0].item()
                 if is_float(source) or source.size < 8 else int(np.array([scalar], dtype=np.uint64).view(source.np_dtype)[0]))  # fmt: skip
        if name == "MulAddDst":
            MulAddDst(dst, srcs[0], srcs[1], *args)
        else:
            Axpy(dst, srcs[0], value, *args)
        PipeBarrier[PIPE_ALL]()
    count_form = form == "count"
    operands = [(t.GetPhyAddr().address, t._dtype(), s[0], s[1])
                for t, s in zip([dst, *srcs], strides, strict=True)]  # fmt: skip

    def lane(*bits: int) -> list[int]:
        *inputs, old = bits
        a = [widen(b, source, target) for b in inputs]
        if name == "MulAddDst":
            return [fma_lane(a[0], a[1], old, target)]
        return [fma_lane(widen(scalar, source, target), a[0], old, target)]

    ref.run(want, plan, operands[:1], [*operands[1:], operands[0]], lane, lanes=lanes,
            count_form=count_form)  # fmt: skip
    assert_same(ctx, want, dst)


@pytest.mark.rows("basic.Interleave", "basic.DeInterleave")
@FEWER
@given(data=st.data())
def test_interleave_and_deinterleave(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(REARRANGE_TYPES), label="T")
    count = 2 * data.draw(st.integers(0, 300), label="count / 2")
    which = data.draw(st.sampled_from(["Interleave", "DeInterleave", "DeInterleave one"]))
    with block(BlockContext()) as ctx:
        a = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
        b = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
        c = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
        d = tensor(dtype, data.draw(bit_values(dtype, max(count, 1))))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        a_bits = ref_elements(want, a, count)
        b_bits = ref_elements(want, b, count)
        if which == "Interleave":
            Interleave(c, d, a, b, count)
            zipped = [x for pair in zip(a_bits, b_bits, strict=True) for x in pair]
            first, second = zipped[:count], zipped[count:]
        elif which == "DeInterleave":
            DeInterleave(c, d, a, b, count)
            both = a_bits + b_bits
            first, second = both[0::2], both[1::2]
        else:
            DeInterleave(c, d, a, count)
            first, second = a_bits[0::2], a_bits[1::2]
        PipeBarrier[PIPE_ALL]()
    for t, values in ((c, first), (d, second)):
        for i, v in enumerate(values):
            put(want, t.GetPhyAddr().address + i * dtype.size, v, dtype.size)
    assert bytes(ctx.ub.data) == bytes(want)


def ref_elements(memory: bytearray, t: Any, n: int) -> list[int]:
    at = t.GetPhyAddr().address
    size = t._dtype().size
    return [int.from_bytes(memory[at + i * size : at + (i + 1) * size], "little") for i in range(n)]


@pytest.mark.rows("basic.Brcb")
@FEWER
@given(data=st.data())
def test_brcb_matches_the_page_pseudo_code(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(REARRANGE_TYPES), label="T")
    repeat = data.draw(st.integers(0, 4), label="repeatTime")
    blk, rep = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 30))
    per_block = 32 // dtype.size
    span = (max(repeat - 1, 0) * rep + 7 * max(blk, 1) + 1) * per_block
    with block(BlockContext()) as ctx:
        src = tensor(dtype, data.draw(bit_values(dtype, max(8 * repeat, 8))))
        dst = tensor(dtype, data.draw(bit_values(dtype, span)))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        Brcb(dst, src, repeat, BrcbRepeatParams(blk, rep))
        PipeBarrier[PIPE_ALL]()
    values = ref_elements(want, src, 8 * repeat)
    stride = blk or 1
    for i in range(repeat):  # the page's pseudo-code
        for j in range(8):
            start = 32 * i * rep + 32 * j * stride
            for k in range(per_block):
                put(want, dst.GetPhyAddr().address + start + k * dtype.size, values[i * 8 + j],
                    dtype.size)  # fmt: skip
    assert_same(ctx, want, dst)


@pytest.mark.rows("basic.Gather")
@FEWER
@given(data=st.data())
def test_gather_matches_the_page_pseudo_code(data: st.DataObject) -> None:
    form = data.draw(st.sampled_from(["count", "bits", "mask"]), label="form")
    dtype = data.draw(st.sampled_from(REARRANGE_TYPES if form == "count" else GATHER_REPEAT))
    lanes = 256 // dtype.size
    n_src = data.draw(st.integers(1, 400), label="src elements")
    base = dtype.size * data.draw(st.integers(0, 8), label="base element")
    if form == "count":
        count = data.draw(st.integers(0, 300), label="count")
        plan = ref.count_plan(count, lanes)
        args: tuple[Any, ...] = (count,)
        dst_rep = 8
    else:
        mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if form == "bits"
                     else data.draw(st.integers(0, lanes)))  # fmt: skip
        repeat = data.draw(st.integers(0, 3), label="repeatTime")
        dst_rep = data.draw(st.integers(0, 12), label="dstRepStride")
        plan = ref.mask_plan(mask, repeat, lanes)
        args = (mask, repeat, dst_rep)
    n_offsets = max(len(plan) * lanes, 1)
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    element = rng.integers(0, n_src, n_offsets)
    offsets = [int(e) * dtype.size for e in element]
    with block(BlockContext()) as ctx:
        src = tensor(dtype, data.draw(bit_values(dtype, n_src + 8)))
        off = tensor(uint32_t, offsets)
        dst_size = (
            (max(len(plan) - 1, 0) * dst_rep * 32 + 256) // dtype.size
            if form != "count"
            else n_offsets
        )
        dst = tensor(dtype, data.draw(bit_values(dtype, dst_size)))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        Gather(dst, src, off, base, *args)
        PipeBarrier[PIPE_ALL]()
    values = ref_elements(want, src, n_src + 8)
    dst_operand = (dst.GetPhyAddr().address, dtype, 1, dst_rep)

    def lane(
        r: int, j: int
    ) -> list[int]:  # the page: dst[i] = src[(srcBaseAddr + srcOffset[i]) / size]
        return [values[(base + offsets[r * lanes + j]) // dtype.size]]

    ref.run(want, plan, [dst_operand], [], lane, lanes=lanes, count_form=form == "count",
            where=True)  # fmt: skip
    assert_same(ctx, want, dst)


@pytest.mark.rows("basic.Scatter")
@FEWER
@given(data=st.data())
def test_scatter_matches_the_page(data: st.DataObject) -> None:
    form = data.draw(st.sampled_from(["count", "bits", "mask", "counter"]), label="form")
    dtype = data.draw(st.sampled_from(REARRANGE_TYPES if form == "count" else GATHER_REPEAT))
    lanes = 256 // dtype.size
    base = dtype.size * data.draw(st.integers(0, 8), label="base element")
    src_rep = 8
    if form == "count":
        count = data.draw(st.integers(0, 300), label="count")
        plan = ref.count_plan(count, lanes)
        args: tuple[Any, ...] = (count,)
    else:
        counter = form == "counter"
        mask: Any = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if form == "bits"
                     else data.draw(st.integers(0, 3 * lanes if counter else lanes)))  # fmt: skip
        repeat = data.draw(st.integers(0, 3), label="repeatTime")
        src_rep = data.draw(st.integers(0, 12), label="srcRepStride")
        plan = ref.mask_plan(mask, repeat, lanes, counter=counter)
        args = (mask, repeat, src_rep)
    n_offsets = max(len(plan) * lanes, 1)
    dst_size = n_offsets + 16
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    offsets = [int(e) * dtype.size for e in rng.permutation(n_offsets + 8)[:n_offsets]]
    count_form = form == "count"
    src_size = (max(len(plan) - 1, 0) * src_rep * 32 + 256) // dtype.size
    with block(BlockContext()) as ctx:
        src = tensor(dtype, data.draw(bit_values(dtype, max(src_size, n_offsets))))
        off = tensor(uint32_t, offsets)
        dst = tensor(dtype, data.draw(bit_values(dtype, dst_size)))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        if form == "counter":
            SetMaskCount()
        Scatter(dst, src, off, base, *args)
        SetMaskNorm()
        PipeBarrier[PIPE_ALL]()
    src_operand = (src.GetPhyAddr().address, dtype, 1, src_rep)
    start = dst.GetPhyAddr().address
    for r, active in enumerate(plan):  # the page: dst byte dstBaseAddr + dstOffset[i] = src[i]
        for j in active:
            value = ref.get(want, ref.address(src_operand, r, j, lanes, count_form), dtype)
            put(want, start + base + offsets[r * lanes + j], value, dtype.size)
    assert_same(ctx, want, dst)


FIXED_PATTERNS = {
    1: lambda k: k % 2 == 0,
    2: lambda k: k % 2 == 1,
    3: lambda k: k % 4 == 0,
    4: lambda k: k % 4 == 1,
    5: lambda k: k % 4 == 2,
    6: lambda k: k % 4 == 3,
    7: lambda k: True,
}
"""The page's fixed patterns: which lane ``k`` of every repeat each keeps."""


@pytest.mark.rows("basic.GatherMask")
@FEWER
@given(data=st.data())
def test_gather_mask_matches_the_page(data: st.DataObject) -> None:
    from ascreg.machine.spr import read_ar, read_mask_spr, write_mask_spr

    dtype, pattern_type = data.draw(st.sampled_from(GATHER_MASK_PAIRS), label="(T, U)")
    lanes, per_block = 256 // dtype.size, 32 // dtype.size
    fixed = data.draw(st.one_of(st.none(), st.integers(1, 7)), label="fixed pattern")
    reduce_mode = data.draw(st.booleans(), label="reduceMode")
    mask = data.draw(st.integers(1, 2 * lanes + 5), label="mask")
    times = data.draw(st.integers(0, 3), label="repeatTimes")
    blk = data.draw(st.integers(1, 2), label="src0BlockStride")
    rep = data.draw(st.integers(0, 24), label="src0RepeatStride")
    rep1 = data.draw(st.integers(0, 3), label="src1RepeatStride")
    inner = -(-mask // lanes) if reduce_mode else 1
    reach = max(times - 1, 0) * rep + (inner - 1) * 8 * blk + 7 * blk + 1  # blocks of src0
    pattern_bytes = max((times - 1) * rep1 * 32 + inner * lanes // 8, 32) if times else 32
    with block(BlockContext()) as ctx:
        src = tensor(dtype, data.draw(bit_values(dtype, reach * per_block)))
        dst = tensor(dtype, data.draw(bit_values(dtype, max(times, 1) * inner * lanes)))
        bits = data.draw(st.lists(st.integers(0, 255), min_size=pattern_bytes,
                                  max_size=pattern_bytes))  # fmt: skip
        words = np.array(bits, np.uint8).view(pattern_type.np_dtype).tolist()
        pat = tensor(pattern_type, words)
        write_mask_spr(12345)
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        kept = Ref(99)
        params = GatherMaskParams(blk, times, rep, rep1)
        GatherMask(dst, src, pat if fixed is None else fixed, reduce_mode, mask, params, kept)
        PipeBarrier[PIPE_ALL]()
        ar, spr = read_ar(), read_mask_spr()
    src_start, dst_start = src.GetPhyAddr().address, dst.GetPhyAddr().address
    out = []
    for r in range(times):  # the page: each repeat's lanes whose gather-mask bit is 1
        for j in range(inner):
            for k in range(lanes):
                if reduce_mode and j * lanes + k >= mask:
                    continue
                if fixed is not None:
                    on = FIXED_PATTERNS[fixed](k)
                else:
                    byte = r * rep1 * 32 + j * lanes // 8 + k // 8
                    on = bool(bits[byte] >> (k % 8) & 1)
                if on:
                    block_index = r * rep + j * 8 * blk + (k // per_block) * blk
                    at = src_start + block_index * 32 + (k % per_block) * dtype.size
                    out.append(ref.get(want, at, dtype))
    for i, value in enumerate(out):
        put(want, dst_start + i * dtype.size, value, dtype.size)
    assert_same(ctx, want, dst)
    assert int(kept.value) == len(out)
    assert ar == (0 if fixed == 7 and not reduce_mode else len(out) * dtype.size)
    if fixed is not None and fixed != 7 and dtype.size > 1:
        word = int.from_bytes(bytes([[0, 0x55, 0xAA, 0x11, 0x22, 0x44, 0x88][fixed]]) * 8, "little")
        assert spr == ((word << 64) if dtype.size == 2 else 0) | word
    else:
        assert spr == 12345


def test_gather_mask_errors() -> None:
    with block(BlockContext()):
        a = tensor(half, [0] * 128)
        b = tensor(half, [0] * 128)
        p8 = tensor(uint8_t, [0] * 32)
        p16 = tensor(uint16_t, [0] * 16)
        wide = tensor(int64_t, [0] * 8)
        PipeBarrier[PIPE_ALL]()
        one = GatherMaskParams(1, 1, 8, 0)
        with pytest.raises(AscregError, match="GatherMask Pattern can only be 1~7, got 8"):
            GatherMask(b, a, 8, False, 0, one, Ref(0))
        with pytest.raises(AscregTypeError, match="src1Pattern must be a LocalTensor<uint16_t>"):
            GatherMask(b, a, p8, False, 0, one, Ref(0))
        with pytest.raises(AscregTypeError, match="rsvdCnt is the C\\+\\+ uint64_t&"):
            GatherMask(b, a, 1, False, 0, one, 0)
        with pytest.raises(AscregError, match="repeat 1 reaches byte 47 of the 32-byte"):
            GatherMask(b, a, p16, False, 0, GatherMaskParams(1, 2, 8, 1), Ref(0))
        with pytest.raises(AscregError, match="mask 0 is outside"):
            GatherMask(b, a, 1, True, 0, one, Ref(0))
        with pytest.raises(UndefinedBehaviourError, match="overlaps"):
            GatherMask(a, a, 7, False, 0, one, Ref(0))
        with pytest.raises(IllegalDtypeError):
            GatherMask(wide, wide, 1, False, 0, one, Ref(0))  # 64-bit: not a type of the page


def test_scatter_errors() -> None:
    with block(BlockContext()):
        a = tensor(half, [0] * 64)
        b = tensor(half, [0] * 64)
        i8 = tensor(int8_t, [0] * 64)
        twice, odd, far, own, past, zero = (
            tensor(uint32_t, v) for v in ([2, 4, 2], [1, 4], [1 << 17], [64], [128], [0])
        )
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UndefinedBehaviourError, match="two dstOffset values are equal"):
            Scatter(b, a, twice, 0, 3)
        with pytest.raises(UndefinedBehaviourError, match="not a multiple of sizeof"):
            Scatter(b, a, odd, 0, 2)
        with pytest.raises(UndefinedBehaviourError, match="past the 950's 131071"):
            Scatter(b, a, far, 0, 1)
        with pytest.raises(UndefinedBehaviourError, match="overlaps"):
            Scatter(a, a[32], own, 0, 1)  # element 32 of a: the source itself
        with pytest.raises(AscregError, match="dst reaches element 64"):
            Scatter(b, a, past, 0, 1)
        with pytest.raises(AscregTypeError, match="dstOffset must be a LocalTensor<uint32_t>"):
            Scatter(b, a, a, 0, 1)
        with pytest.raises(IllegalDtypeError):
            Scatter(i8, i8, zero, 0, [1, 1], 1, 8)  # 8-bit: the count form only


def test_misc_errors() -> None:
    with block(BlockContext()):
        a = tensor(half, [0] * 64)
        b = tensor(half, [0] * 64)
        i8 = tensor(int8_t, [0] * 64)
        off = tensor(uint32_t, [1, 2])
        f = tensor(float32_t, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(AscregError, match="even"):
            Interleave(a, b, a[32], b[32], 3)
        with pytest.raises(UndefinedBehaviourError, match="overlaps"):
            DeInterleave(a, b, a, 16)
        with pytest.raises(IllegalDtypeError):
            Gather(i8, i8, off, 0, [1, 1], 1, 8)  # 8-bit: the count form only
        with pytest.raises(UndefinedBehaviourError, match="multiple"):
            Gather(b, a, off, 0, 2)  # odd byte offsets of a half
        with pytest.raises(IllegalDtypeError):
            MulAddDst(a, f, f, 8)  # (half, float) is not a pair
        with pytest.raises(IllegalDtypeError):
            Axpy(tensor(int16_t, [0] * 16), tensor(int16_t, [0] * 16), 1, 8)

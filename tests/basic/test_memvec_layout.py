"""Memory-level ``Copy`` and ``TransDataTo5HD`` against the per-element references."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import float32_t, half, int8_t, int64_t, uint8_t, uint64_t
from ascreg._spec.basic import COPY_REPEAT, COPY_TYPES, TRANS5HD_TYPES
from ascreg.basic import (
    PIPE_ALL,
    Copy,
    CopyRepeatParams,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
    SetMaskCount,
    SetMaskNorm,
    TransDataTo5HD,
    TransDataTo5HDParams,
)
from ascreg.errors import AlignmentError, AscregTypeError, IllegalDtypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.sysregs import system_registers
from memvec_cases import FEWER, assert_same, bit_values, snapshot, tensor
from reference import memvec as ref
from reference.transto5hd import transto5hd


@pytest.mark.rows("basic.Copy")
@FEWER
@given(data=st.data())
def test_copy_matches_the_reference(data: st.DataObject) -> None:
    form = data.draw(st.sampled_from(["count", "bits", "mask", "counter"]), label="form")
    dtype = data.draw(st.sampled_from(COPY_TYPES if form == "count" else COPY_REPEAT), label="T")
    lanes = 256 // dtype.size
    per_block = 32 // dtype.size
    if form == "count":
        count = data.draw(st.integers(0, 700), label="count")
        plan = ref.count_plan(count, lanes)
        strides = [(1, 8), (1, 8)]
        args: tuple[Any, ...] = (count,)
        width = lanes
    else:
        strides = [(data.draw(st.integers(1, 3)), data.draw(st.integers(0, 20))) for _ in range(2)]
        repeat = data.draw(st.integers(0, 4), label="repeatTime")
        if form == "counter":
            count = data.draw(st.integers(0, 2 * lanes), label="count per repeat")
            width = max(-(-count // per_block) * per_block, 1)
            plan = [list(range(count)) for _ in range(repeat)]
            mask: Any = count
        else:
            mask = ([data.draw(st.integers(0, 2**64 - 1)) for _ in range(2)] if form == "bits"
                    else data.draw(st.integers(0, lanes)))  # fmt: skip
            plan = ref.mask_plan(mask, repeat, lanes)
            width = lanes
        params = CopyRepeatParams(strides[0][0], strides[1][0], strides[0][1], strides[1][1])
        args = (mask, repeat, params)
    blocks = [max(len(plan) - 1, 0) * s[1] + (width // per_block) * s[0] + 1 for s in strides]
    with block(BlockContext()) as ctx:
        dst = tensor(dtype, data.draw(bit_values(dtype, blocks[0] * per_block + width)))
        src = tensor(dtype, data.draw(bit_values(dtype, blocks[1] * per_block + width)))
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        if form == "counter":
            SetMaskCount()
        Copy(dst, src, *args)
        SetMaskNorm()
        PipeBarrier[PIPE_ALL]()
    operands = [
        (t.GetPhyAddr().address, dtype, s[0], s[1])
        for t, s in ((dst, strides[0]), (src, strides[1]))
    ]
    ref.run(want, plan, operands[:1], operands[1:], lambda x: [x], lanes=width,
            count_form=form == "count")  # fmt: skip
    assert_same(ctx, want, dst)


def test_copy_reads_back_what_an_earlier_repeat_wrote() -> None:
    """The 950 puts a store-to-load barrier between repeats: overlapping repeats run in order."""
    with block(BlockContext()):
        x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
        x.GetPhyAddr().write(np.arange(64))
        PipeBarrier[PIPE_ALL]()
        Copy(x[8], x, 8, 3, CopyRepeatParams(1, 1, 1, 1))  # each repeat copies the block before
        PipeBarrier[PIPE_ALL]()
        assert x.GetPhyAddr().read(32).tolist() == list(range(8)) * 4


@pytest.mark.parametrize(("dtype", "args"), [(int64_t, (8, 1, CopyRepeatParams())),
                                             (uint8_t, ([1, 1], 1, CopyRepeatParams()))])  # fmt: skip
def test_copy_repeat_forms_take_16_and_32_bit_types(dtype: Any, args: Any) -> None:
    with block(BlockContext()):
        x = tensor(dtype, [0] * 64)
        y = tensor(dtype, [0] * 64)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(IllegalDtypeError, match="not a type of the mask"):
            Copy(y, x, *args)
        Copy(y, x, 64)  # the count form takes them


def _blocks(t: Any, dtype: Any) -> list[int]:
    base = t.GetPhyAddr().address
    return [base + 32 * i for i in range(16)]


@pytest.mark.rows("basic.TransDataTo5HD")
@FEWER
@given(data=st.data())
def test_transdatato5hd_matches_the_reference(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(TRANS5HD_TYPES), label="T")
    form = data.draw(st.sampled_from(["addresses", "pointers", "tensors", "uint64 tensors"]))
    repeat = data.draw(st.integers(0, 3), label="repeatTimes")
    strides = (data.draw(st.integers(0, 20)), data.draw(st.integers(0, 20)))
    halves = (data.draw(st.booleans()), data.draw(st.booleans()))
    reach = max(repeat, 1) * max(strides) * 32 + 16 * 32
    with block(BlockContext()) as ctx:
        src = tensor(uint8_t, data.draw(bit_values(uint8_t, reach)))
        dst = tensor(uint8_t, data.draw(bit_values(uint8_t, reach)))
        srcs = [src.ReinterpretCast[dtype]()[i * 32 // dtype.size] for i in range(16)]
        dsts = [dst.ReinterpretCast[dtype]()[i * 32 // dtype.size] for i in range(16)]
        if form == "uint64 tensors":
            lists = [tensor(uint64_t, [t.GetPhyAddr().address for t in ts]) for ts in (dsts, srcs)]
        PipeBarrier[PIPE_ALL]()
        want = snapshot(ctx)
        params = TransDataTo5HDParams(halves[0], halves[1], repeat, strides[0], strides[1])
        if form == "addresses":
            TransDataTo5HD[dtype]([t.GetPhyAddr().address for t in dsts],
                                  [t.GetPhyAddr().address for t in srcs], params)  # fmt: skip
        elif form == "pointers":
            TransDataTo5HD[dtype]([t.GetPhyAddr() for t in dsts], [t.GetPhyAddr() for t in srcs],
                                  params)  # fmt: skip
        elif form == "tensors":
            TransDataTo5HD(dsts, srcs, params)
        else:
            TransDataTo5HD[dtype](lists[0], lists[1], params)
        PipeBarrier[PIPE_ALL]()
        va = system_registers().va
        assert [p.address for p in (*va[0], *va[1])] == _blocks(dst, dtype)
        assert [p.address for p in (*va[2], *va[3])] == _blocks(src, dtype)
    memory = want
    transto5hd(memory, memory, _blocks(src, dtype), _blocks(dst, dtype), dtype.size, repeat,
               strides, halves if dtype.size == 1 else (False, False))  # fmt: skip
    assert_same(ctx, want, dst)


def test_transdatato5hd_errors() -> None:
    with block(BlockContext()):
        x = LocalMemAllocator[Hardware.UB]().Alloc[half, 512]()
        y = LocalMemAllocator[Hardware.UB]().Alloc[half, 512]()
        x.GetPhyAddr().write(np.zeros(512))
        PipeBarrier[PIPE_ALL]()
        blocks = [x[16 * i] for i in range(16)]
        with pytest.raises(AscregTypeError, match="16"):
            TransDataTo5HD(blocks[:8], blocks[:8], TransDataTo5HDParams())
        with pytest.raises(AscregTypeError, match="element type"):
            TransDataTo5HD([b.GetPhyAddr().address for b in blocks],
                           [b.GetPhyAddr().address for b in blocks], TransDataTo5HDParams())  # fmt: skip
        with pytest.raises(AlignmentError):
            TransDataTo5HD([y[16 * i + 1] for i in range(16)], blocks, TransDataTo5HDParams())
        with pytest.raises(IllegalDtypeError):
            i64 = [LocalMemAllocator[Hardware.UB]().Alloc[int64_t, 4]() for _ in range(16)]
            TransDataTo5HD(i64, i64, TransDataTo5HDParams())
        with pytest.raises(AscregTypeError):
            TransDataTo5HD(blocks, [b.ReinterpretCast[int8_t]() for b in blocks],
                           TransDataTo5HDParams())  # fmt: skip
        with pytest.raises(OutOfBoundsError):
            TransDataTo5HD(
                [y[16 * i] for i in range(16)],
                blocks,
                TransDataTo5HDParams(False, False, 2, 0, 20000),
            )

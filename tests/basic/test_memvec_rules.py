"""The rules around the memory-level ops: mask modes, overlap, dtypes, bounds, pipes, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import Reg, float32_t, half, int8_t, int16_t, int32_t, uint16_t
from ascreg.basic import (
    MASK_PLACEHOLDER,
    PIPE_ALL,
    Abs,
    Add,
    Adds,
    BinaryConfig,
    BinaryRepeatParams,
    Div,
    DivAlgo,
    DivConfig,
    Duplicate,
    Exp,
    ExpAlgo,
    ExpConfig,
    Hardware,
    LocalMemAllocator,
    LocalTensor,
    MaskMode,
    Max,
    Mul,
    Muls,
    PipeBarrier,
    ResetMask,
    Rsqrt,
    RsqrtAlgo,
    RsqrtConfig,
    SetMaskCount,
    SetMaskNorm,
    SetVectorMask,
    ShiftLeft,
    ShiftRight,
    Subs,
    TPosition,
    UnaryRepeatParams,
)
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    NegativeShiftError,
    OutOfBoundsError,
    SyncError,
    TemplateMismatchError,
    UndefinedBehaviourError,
    UnsupportedError,
    policy,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.spr import read_mask_spr


def filled(dtype: Any, values: Any) -> LocalTensor[Any]:
    values = np.asarray(values).astype(dtype.np_dtype)
    t = LocalMemAllocator[Hardware.UB]().Alloc[dtype, values.size]()
    t.GetPhyAddr().write(values)
    return t


def read(t: LocalTensor[Any], n: int | None = None) -> list[Any]:
    PipeBarrier[PIPE_ALL]()
    got = t.GetPhyAddr().read(n or t.GetSize()).tolist()
    PipeBarrier[PIPE_ALL]()  # the next vector op may write what the scalar read
    return got


def test_the_accumulation_pattern_runs_the_repeats_in_order() -> None:
    """dynamic_quant's running max: dst = max(src0 of repeat r, dst), dstRepStride = src1RepStride = 0."""
    with block(BlockContext()):
        x = filled(float32_t, np.arange(512) % 97)
        PipeBarrier[PIPE_ALL]()
        Max(x, x[64], x, 64, 7, (1, 1, 1, 0, 8, 0))
        assert read(x, 64) == (np.arange(512) % 97).reshape(8, 64).max(axis=0).tolist()


def test_the_accumulation_exception_is_narrow() -> None:
    with block(BlockContext()):
        x = filled(int16_t, np.zeros(1024))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UndefinedBehaviourError, match="only Add/Sub/Mul/Max/Min"):
            Max(x, x[128], x, 128, 3, (1, 1, 1, 0, 8, 0))  # int16_t is not in the exception
        y = filled(float32_t, np.zeros(1024))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(UndefinedBehaviourError, match="a later repeat reads"):
            Abs(y[64], y, 64, 2, UnaryRepeatParams())  # repeat 1 reads what repeat 0 wrote
        with pytest.raises(UndefinedBehaviourError, match="overlap dst partly inside one repeat"):
            Mul(y[8], y, y, 64, 1, BinaryRepeatParams())
        with pytest.raises(UndefinedBehaviourError, match="no barrier between its repeats"):
            Adds(y[64], y, 1.0, 128)  # the count form: no barrier between its repeats
        with policy(undefined="warn"), pytest.warns(UserWarning, match="a later repeat"):
            Abs(y[64], y, 64, 2, UnaryRepeatParams())  # warned: the repeats then run in order


def test_in_place_ops_are_fine() -> None:
    with block(BlockContext()):
        x = filled(half, np.arange(300) - 150)
        PipeBarrier[PIPE_ALL]()
        Abs(x, x, 300)
        Muls(x, x, 2.0, 128, 2, UnaryRepeatParams())
        got = read(x)
        assert got[:256] == (np.abs(np.arange(256) - 150) * 2).tolist()
        assert got[256:] == np.abs(np.arange(256, 300) - 150).tolist()


def test_counter_mode_counts_elements_and_ignores_repeat_time() -> None:
    with block(BlockContext()):
        x = filled(float32_t, np.zeros(256))
        PipeBarrier[PIPE_ALL]()
        SetMaskCount()
        Adds(x, x, 1.0, [70, 0], 200, UnaryRepeatParams())  # 70 elements, repeatTime ignored
        Adds(x, x, 1.0, 3, 1, UnaryRepeatParams())
        SetMaskNorm()
        got = read(x)
        assert got[:3] == [2.0] * 3 and got[3:70] == [1.0] * 67 and got[70:] == [0.0] * 186


def test_is_set_mask_false_reads_the_mask_spr() -> None:
    with block(BlockContext()):
        x = filled(half, np.ones(128))
        PipeBarrier[PIPE_ALL]()
        SetVectorMask[half](0, 0b1011)
        Muls[half, False](x, x, 3.0, MASK_PLACEHOLDER, 1, (1, 1, 8, 8))
        assert read(x, 5) == [3.0, 3.0, 1.0, 3.0, 1.0]
        SetVectorMask[half, MaskMode.COUNTER](5)
        SetMaskCount()
        Muls[half, False](x, x, 2.0, MASK_PLACEHOLDER, 1, (1, 1, 8, 8))
        SetMaskNorm()
        assert read(x, 6) == [6.0, 6.0, 2.0, 6.0, 2.0, 1.0]
        Adds(x, x, 1.0, [1, 0], 1, (1, 1, 8, 8))  # the bit form writes the SPR, as SetVectorMask
        assert read_mask_spr() == 1
        ResetMask()
        assert read_mask_spr() == (1 << 128) - 1


def test_template_arguments() -> None:
    with block(BlockContext()):
        x = filled(float32_t, [2.0**-127, 1.0] + [0.0] * 62)
        y = filled(float32_t, np.zeros(64))
        PipeBarrier[PIPE_ALL]()
        Exp[float32_t, ExpConfig(ExpAlgo.PRECISION_1ULP_FTZ_FALSE)](y, x, 2)
        assert read(y, 2) == [1.0, float(np.float32(np.e))]
        Div[float32_t, DivConfig(DivAlgo.PRECISION_1ULP_FTZ_FALSE)](y, x, x, 1)
        assert read(y, 1) == [1.0]  # the subnormal divided by itself; flushed it would be NaN
        Div(y, x, x, 1)
        assert np.isnan(read(y, 1)[0])
        Rsqrt[float32_t, RsqrtConfig(RsqrtAlgo.PRECISION_0ULP_FTZ_FALSE)](y, x, 1)
        assert read(y, 1) == [float(np.float32(2.0**63.5))]
        with pytest.raises(
            TemplateMismatchError, match="template argument half does not match dst"
        ):
            Adds[half](y, x, 1.0, 4)
        with pytest.raises(IllegalDtypeError, match="illegal template dtypes"):
            Adds[uint16_t]
        with pytest.raises(AscregTypeError, match="unexpected template argument"):
            Adds[float32_t, "x"]


def test_dtype_rules() -> None:
    with block(BlockContext()):
        b = filled(int8_t, np.zeros(256))
        PipeBarrier[PIPE_ALL]()
        Adds(b, b, 1, 256)  # int8_t: the count form
        with pytest.raises(IllegalDtypeError, match="int8_t has the count form only"):
            Adds(b, b, 1, 128, 1, UnaryRepeatParams())
        with pytest.raises(IllegalDtypeError, match=r"Mul: illegal dtypes \(T=int8_t\)"):
            Mul(b, b, b, 16)
        f = filled(float32_t, np.zeros(64))
        with pytest.raises(AscregTypeError, match="src0 is a LocalTensor<int8_t> but dst"):
            Add(f, b, f, 4)
        with pytest.raises(AscregError, match="cannot store 300 as int8_t"):
            Adds(b, b, 300, 4)


def test_bounds_alignment_and_arguments() -> None:
    with block(BlockContext()):
        x = filled(float32_t, np.zeros(64))
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(OutOfBoundsError, match="dst reaches element 64 of the 64-element"):
            Adds(x, x, 1.0, 65)
        with pytest.raises(OutOfBoundsError, match="src reaches element 63 of the 56-element"):
            Adds(x[0], x[8], 1.0, 64, 1, UnaryRepeatParams())
        with pytest.raises(AlignmentError, match="32-byte aligned"):
            Adds(x[1], x[1], 1.0, 8)
        with pytest.raises(AscregTypeError, match=r"takes \(dst, src, count\) or"):
            Abs(x, x, 1, 2)
        with pytest.raises(AscregTypeError, match="repeatParams must be a UnaryRepeatParams"):
            Abs(x, x, 8, 1, 3)
        with pytest.raises(AscregError, match="repeatTime"):
            Abs(x, x, 8, 256, UnaryRepeatParams())
        with pytest.raises(AscregTypeError, match="mask"):
            Abs(x, x, "all", 1, UnaryRepeatParams())
        with pytest.raises(AscregError, match="srcRepStride"):
            Abs(x, x, 8, 1, UnaryRepeatParams(1, 1, 8, 256))
        with pytest.raises(UndefinedBehaviourError, match="dstBlkStride 0"):
            Abs(x, x, 8, 1, UnaryRepeatParams(0, 1, 8, 8))
        with pytest.raises(AscregTypeError, match="dst must be a LocalTensor"):
            Abs(np.zeros(4), x, 4)
        with pytest.raises(AscregTypeError, match="scalarTensorIndex"):
            Adds[float32_t, BinaryConfig(2)](x, x, x, 4)


def test_shift_rules() -> None:
    with block(BlockContext()):
        x = filled(int16_t, [1, -2, 3, 4] * 32)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(NegativeShiftError):
            ShiftLeft(x, x, -1, 4)
        with pytest.raises(UnsupportedError, match="roundEn must be false"):
            ShiftRight(x, x, 1, 4, 1, UnaryRepeatParams(), True)
        ShiftRight(x, x, 1, 4, 1, UnaryRepeatParams(), False)
        assert read(x, 4) == [0, -1, 1, 2]
        c = filled(int32_t, np.ones(8))
        with pytest.raises(IllegalDtypeError):
            ShiftLeft(x, x, c, 4)  # int16_t data takes int16_t counts


def test_subs_takes_the_scalar_on_either_side() -> None:
    with block(BlockContext()):
        x = filled(float32_t, np.arange(64))
        y = filled(float32_t, np.zeros(64))
        PipeBarrier[PIPE_ALL]()
        Subs(y, 10.0, x, 4)
        assert read(y, 4) == [10.0, 9.0, 8.0, 7.0]
        Subs(y, x, 10.0, 4)
        assert read(y, 4) == [-10.0, -9.0, -8.0, -7.0]
        Subs[float32_t, BinaryConfig(0)](y, x[8], x, 4)  # element 0 of src0 (8.0) is the scalar
        assert read(y, 4) == [8.0, 7.0, 6.0, 5.0]


def test_pipes_and_the_kernel_body() -> None:
    with block(BlockContext()) as ctx:
        x = filled(float32_t, np.zeros(64))
        with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_S wrote"):
            Adds(x, x, 1.0, 64)
        PipeBarrier[PIPE_ALL]()
        Duplicate(x, 1.0, 64)
        with pytest.raises(SyncError, match="PIPE_S reads"):
            x.GetValue(0)
        with ctx.simd_vf(), pytest.raises(AscregTypeError, match="runs in the kernel body"):
            Adds(x, x, 1.0, 64)


def test_duplicate_from_a_tensor_and_counts_of_zero() -> None:
    with block(BlockContext()):
        x = filled(half, np.arange(32))
        y = filled(half, np.zeros(32))
        PipeBarrier[PIPE_ALL]()
        Duplicate(y, x[16], 0)
        Adds(y, x, 1.0, 0)
        Adds(y, x, 1.0, 128, 0, UnaryRepeatParams())
        assert read(y) == [0.0] * 32
        Duplicate(y, x[16], 3)
        assert read(y, 4) == [16.0, 16.0, 16.0, 0.0]
        with pytest.raises(AscregTypeError, match="count form only"):
            Duplicate(y, x, 8, 1, 1, 8)


def test_reg_and_memory_ops_share_the_core() -> None:
    """A register op and its memory-level twin give the same bits (half Exp, flushing)."""
    values = np.float16([0.5, -3.0, 11.0, 1e-5] * 32)
    with block(BlockContext()):
        x = filled(half, values)
        y = filled(half, np.zeros(128))
        PipeBarrier[PIPE_ALL]()
        Exp(y, x, 128)
        memory = read(y)
    reg, out = Reg.RegTensor[half](), Reg.RegTensor[half]()
    reg.set(values)
    Reg.Exp(out, reg, Reg.CreateMask[half]())
    assert memory == np.asarray(out).tolist()


def test_local_tensor_positions() -> None:
    with block(BlockContext()):
        x = LocalTensor[float32_t](TPosition.VECIN, 0, 64)
        x.GetPhyAddr().write(np.zeros(64))
        PipeBarrier[PIPE_ALL]()
        Adds(x, x, 2.0, 64)
        assert read(x, 2) == [2.0, 2.0]

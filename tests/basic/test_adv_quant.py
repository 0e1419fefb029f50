"""AscendQuant (ascreg.basic._adv_quant) against tests/reference/quant.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    uint8_t,
    uint64_t,
)
from ascreg.basic import *
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block
from reference import quant as ref
from reference.common import encode_float, from_bits, same_lanes, to_bits

FEW = settings(max_examples=25)
SOURCES = (half, float32_t, bfloat16_t)
DESTINATIONS = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
SCALES = st.floats(-8, 8, width=32) | st.sampled_from([0.02, 1e-3, 300.0, -1e5, 7e4])
OFFSETS = st.floats(-300, 300, width=32) | st.sampled_from([0.0, 0.5, -0.5, 1e5])


def _values(dtype: Any) -> Any:
    """Bit patterns of *dtype*: moderate values (where the rounding is seen) and any pattern."""
    moderate = st.floats(-600, 600, width=32).map(lambda v: encode_float(v, dtype))
    return moderate | st.integers(0, (1 << (8 * dtype.size)) - 1)


def _load(ctx: Any, dtype: Any, address: int, bits: list[int]) -> Any:
    tensor = LocalTensor[dtype](TPosition.VECCALC, address, len(bits))
    tensor.GetPhyAddr().write(from_bits(bits, dtype))
    return tensor


@FEW
@given(src_t=st.sampled_from(SOURCES), dst_t=st.sampled_from(DESTINATIONS), data=st.data())
def test_per_tensor_matches_the_reference(src_t: Any, dst_t: Any, data: Any) -> None:
    n = data.draw(st.integers(1, 300))
    bits = data.draw(st.lists(_values(src_t), min_size=n, max_size=n))
    scale, offset = data.draw(SCALES), data.draw(OFFSETS)
    with block(BlockContext()) as ctx:
        x = _load(ctx, src_t, 0, bits)
        y = LocalTensor[dst_t](TPosition.VECCALC, 2048, n)
        ctx.tracker.barrier()
        AscendQuant[dst_t, src_t](y, x, scale, offset, n)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n))
    s = ref.scalar_param(scale, float32_t, dst_t)
    o = ref.scalar_param(offset, float32_t, dst_t)
    want = [ref.quant_element(b, src_t, dst_t, s, o) for b in bits]
    assert same_lanes(got, want, dst_t)


@FEW
@given(src_t=st.sampled_from(SOURCES), dst_t=st.sampled_from(DESTINATIONS),
       offset_tensor=st.booleans(), data=st.data())  # fmt: skip
def test_per_channel_matches_the_reference(
    src_t: Any, dst_t: Any, offset_tensor: bool, data: Any
) -> None:
    channels = 32 * data.draw(st.integers(1, 3))
    rows = data.draw(st.integers(1, 4))
    n = rows * channels
    bits = data.draw(st.lists(_values(src_t), min_size=n, max_size=n))
    scale_values = st.floats(-8, 8, width=32).map(lambda v: encode_float(v, src_t))
    scales = data.draw(st.lists(scale_values, min_size=channels, max_size=channels))
    offset_values = OFFSETS.map(lambda v: encode_float(v, src_t))
    offsets = data.draw(st.lists(offset_values, min_size=channels, max_size=channels))
    offset_scalar = data.draw(OFFSETS)
    with block(BlockContext()) as ctx:
        x = _load(ctx, src_t, 0, bits)
        scale = _load(ctx, src_t, 2048, scales)
        y = LocalTensor[dst_t](TPosition.VECCALC, 4096, n)
        if offset_tensor:
            offset: Any = _load(ctx, src_t, 3072, offsets)
            counts: tuple[int, ...] = (channels, channels, n)
        else:
            offset, counts = src_t(offset_scalar), (channels, n)
        ctx.tracker.barrier()
        AscendQuant[dst_t, src_t](y, x, scale, offset, *counts)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n))
    s = [ref.tensor_param(b, src_t, dst_t) for b in scales]
    if offset_tensor:
        o = [ref.tensor_param(b, src_t, dst_t) for b in offsets]
    else:
        o = [ref.scalar_param(offset_scalar, src_t, dst_t)] * channels
    want = [ref.quant_element(b, src_t, dst_t, s[i % channels], o[i % channels])
            for i, b in enumerate(bits)]  # fmt: skip
    assert same_lanes(got, want, dst_t)


def test_the_int8_form_and_its_config() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[half](TPosition.VECCALC, 0, 64)
        x.GetPhyAddr().write(np.arange(64, dtype=np.float16) - 32)
        y = LocalTensor[int8_t](TPosition.VECCALC, 256, 64)
        y.GetPhyAddr().write(np.zeros(64, np.int8))
        ctx.tracker.barrier()
        AscendQuant[half, False, AscendQuantConfig(calcCount=32)](y, x, 2.0, 0.5, 64)
        ctx.tracker.barrier()
        got = y.GetPhyAddr().read(64)
        assert got[:3].tolist() == [-64, -62, -60] and not got[32:].any()
        ctx.tracker.barrier()
        tmp = LocalTensor[uint8_t](TPosition.VECCALC, 512, 256)
        AscendQuant(y, x, tmp, 0.5, 0.0)  # the whole tensor, T deduced
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(4).tolist() == [-16, -16, -15, -14]  # -15.5 -> -16 (even)


def test_the_page_example_per_tensor() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[float32_t](TPosition.VECCALC, 0, 1024)
        x.GetPhyAddr().write(np.arange(-512, 512, dtype=np.float32))
        y = LocalTensor[int8_t](TPosition.VECCALC, 8192, 1024)
        ctx.tracker.barrier()
        AscendQuant[float32_t](y, x, 0.02, 0.9, 1022)
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(3).tolist() == [-9, -9, -9]  # AscendQuant.md's output


def test_errors() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[half](TPosition.VECCALC, 0, 64)
        x.GetPhyAddr().write(np.zeros(64, np.float16))
        y = LocalTensor[int8_t](TPosition.VECCALC, 256, 64)
        s = LocalTensor[half](TPosition.VECCALC, 512, 64)
        s.GetPhyAddr().write(np.ones(64, np.float16))
        ctx.tracker.barrier()
        with pytest.raises(OutOfBoundsError, match="calCount 65"):
            AscendQuant(y, x, 1.0, 0.0, 65)
        with pytest.raises(IllegalDtypeError, match="dstT = int16_t"):
            AscendQuant(LocalTensor[int16_t](TPosition.VECCALC, 1024, 64), x, 1.0, 0.0)
        with pytest.raises(IllegalDtypeError, match="srcT = int8_t"):
            AscendQuant[int8_t, int8_t](y, y, 1.0, 0.0)
        with pytest.raises(AscregTypeError, match="srcTensor is LocalTensor<half>"):
            AscendQuant[float32_t](y, x, 1.0, 0.0)
        with pytest.raises(AscregError, match="scaleCount 16 must be a non-zero multiple of 32"):
            AscendQuant(y, x, s, half(0), 16, 64)
        with pytest.raises(AscregError, match="calCount 48 must be a multiple of scaleCount 32"):
            AscendQuant(y, x, s, half(0), 32, 48)
        with pytest.raises(AscregError, match="offsetCount 64 must equal scaleCount 32"):
            AscendQuant(y, x, s, s, 32, 64, 64)
        with pytest.raises(OutOfBoundsError, match="scaleCount 96"):
            AscendQuant(y, x, s, half(0), 96, 96)
        with pytest.raises(AscregTypeError, match="PER_CHANNEL call takes"):
            AscendQuant(y, x, s, half(0), 32)
        with pytest.raises(AscregTypeError, match="scaleTensor is LocalTensor<float>"):
            AscendQuant(y, x, LocalTensor[float32_t](TPosition.VECCALC, 1024, 32), half(0))


TENSOR_PAIRS = [(half, uint64_t), (float32_t, float32_t), (float32_t, bfloat16_t),
                (bfloat16_t, bfloat16_t), (bfloat16_t, float32_t)]  # fmt: skip
SCALAR_PAIRS = [(bfloat16_t, bfloat16_t), (bfloat16_t, float32_t), (float32_t, bfloat16_t),
                (float32_t, float32_t)]  # fmt: skip
INT32 = st.integers(-(1 << 31), (1 << 31) - 1) | st.integers(-3000, 3000)


def _scale_bits(scale_t: Any) -> Any:
    floats = st.floats(-4, 4, width=32) | st.sampled_from([1e-30, 3e38, -7e4, 1 / 3])
    if scale_t is uint64_t:
        return st.tuples(floats, st.integers(0, 0xFFFFFFFF)).map(
            lambda p: encode_float(p[0], float32_t) | (p[1] << 32)
        )
    return floats.map(lambda v: encode_float(v, scale_t))


@FEW
@given(pair=st.sampled_from(TENSOR_PAIRS + SCALAR_PAIRS), scalar=st.booleans(), data=st.data())
def test_dequant_matches_the_reference(pair: Any, scalar: bool, data: Any) -> None:
    dst_t, scale_t = pair
    scalar = (scalar and pair in SCALAR_PAIRS) or pair not in TENSOR_PAIRS
    m, n = data.draw(st.integers(1, 4)), 8 * data.draw(st.integers(1, 12))
    count = data.draw(st.integers(1, n))
    bits = data.draw(st.lists(INT32, min_size=m * n, max_size=m * n))
    block_n = 32 // dst_t.size
    inner = -(-n // block_n) * block_n
    with block(BlockContext()) as ctx:
        x = LocalTensor[int32_t](TPosition.VECCALC, 0, m * n)
        x.GetPhyAddr().write(np.array(bits, np.int32))
        y = LocalTensor[dst_t](TPosition.VECCALC, 4096, m * inner)
        y.GetPhyAddr().write(np.zeros(m * inner, dst_t.np_dtype))
        if scalar:
            value = data.draw(st.floats(-4, 4, width=32))
            deq: Any = scale_t(value)
            scales = [ref.dequant_scale(encode_float(float(deq), scale_t), scale_t)] * count
        else:
            raw = data.draw(st.lists(_scale_bits(scale_t), min_size=count, max_size=count))
            deq = _load(ctx, scale_t, 8192, raw)
            scales = [ref.dequant_scale(b, scale_t) for b in raw]
        ctx.tracker.barrier()
        AscendDequant[dst_t, scale_t, DeQuantMode.DEQUANT_WITH_MULTI_ROW](
            y, x, deq, DequantParams(m, n, count)
        )
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(m * inner))
    for i in range(m):
        row = got[i * inner : i * inner + count]
        want = [ref.dequant_element(bits[i * n + j] & 0xFFFFFFFF, scales[j], dst_t)
                for j in range(count)]  # fmt: skip
        assert same_lanes(row, want, dst_t)
        assert not any(got[i * inner + count : (i + 1) * inner])  # not written


def test_dequant_single_row_mode_and_the_short_forms() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[int32_t](TPosition.VECCALC, 0, 16)
        x.GetPhyAddr().write(np.arange(16, dtype=np.int32))
        s = LocalTensor[float32_t](TPosition.VECCALC, 64, 8)
        s.GetPhyAddr().write(np.full(8, 2.0, np.float32))
        y = LocalTensor[float32_t](TPosition.VECCALC, 128, 16)
        y.GetPhyAddr().write(np.zeros(16, np.float32))
        ctx.tracker.barrier()
        AscendDequant(y, x, s, DequantParams(1, 16, 8))  # read as {2, 8, 8}
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(16).tolist() == [2.0 * i for i in range(16)]
        y.GetPhyAddr().write(np.zeros(16, np.float32))
        ctx.tracker.barrier()
        AscendDequant[float32_t, float32_t, DeQuantMode.DEQUANT_WITH_MULTI_ROW](
            y, x, s, DequantParams(1, 16, 8)
        )
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(16).tolist() == [2.0 * i for i in range(8)] + [0.0] * 8
        ctx.tracker.barrier()
        AscendDequant(y, x, s)  # {16 / 8, 8, 8}
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(16)[15] == 30.0
        ctx.tracker.barrier()
        tmp = LocalTensor[uint8_t](TPosition.VECCALC, 512, 256)
        AscendDequant(y, x, 0.25, tmp, DequantParams(2, 8, 8))  # quant_batch_matmul_v3's form
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(16)[15] == 3.75


def test_dequant_errors() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[int32_t](TPosition.VECCALC, 0, 16)
        x.GetPhyAddr().write(np.zeros(16, np.int32))
        s = LocalTensor[float32_t](TPosition.VECCALC, 64, 8)
        s.GetPhyAddr().write(np.ones(8, np.float32))
        y = LocalTensor[float32_t](TPosition.VECCALC, 128, 16)
        ctx.tracker.barrier()
        with pytest.raises(IllegalDtypeError, match="dstT = half with scaleT = float"):
            AscendDequant(
                LocalTensor[half](TPosition.VECCALC, 256, 16), x, s, DequantParams(1, 8, 8)
            )
        with pytest.raises(AscregError, match="n must be a multiple of 8"):
            AscendDequant(y, x, s, DequantParams(1, 12, 4))
        with pytest.raises(AscregError, match="0 < calCount <= n"):
            AscendDequant(y, x, s, DequantParams(2, 8, 9))
        with pytest.raises(OutOfBoundsError, match="m \\* n 24"):
            AscendDequant(y, x, s, DequantParams(3, 8, 8))
        with pytest.raises(OutOfBoundsError, match=r"calCount 16 .* deqScale"):
            AscendDequant[float32_t, float32_t, DeQuantMode.DEQUANT_WITH_MULTI_ROW](
                y, x, s, DequantParams(1, 16, 16)
            )
        with pytest.raises(AscregTypeError, match="srcTensor is LocalTensor<float>"):
            AscendDequant(y, y, s, DequantParams(1, 8, 8))
        with pytest.raises(AscregError, match="multiple of deqScale's 16"):
            AscendDequant(y, LocalTensor[int32_t](TPosition.VECCALC, 0, 24), y)


@FEW
@given(src_t=st.sampled_from([int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t]),
       dst_t=st.sampled_from([half, bfloat16_t]), data=st.data())  # fmt: skip
def test_antiquant_per_tensor_matches_the_reference(src_t: Any, dst_t: Any, data: Any) -> None:
    n = 32 * data.draw(st.integers(1, 10))
    bits = data.draw(st.lists(st.integers(0, 255), min_size=n, max_size=n))
    offset = dst_t(data.draw(st.floats(-300, 300, width=32)))
    scale = dst_t(data.draw(st.floats(-4, 4, width=32) | st.sampled_from([1e-3, 600.0])))
    with block(BlockContext()) as ctx:
        x = _load(ctx, src_t, 0, bits)
        y = LocalTensor[dst_t](TPosition.VECCALC, 1024, n)
        ctx.tracker.barrier()
        AscendAntiQuant[src_t, dst_t, False](y, x, offset, scale, n)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n))
    o, s = (encode_float(float(v), dst_t) for v in (offset, scale))
    want = [ref.antiquant_element(b, src_t, dst_t, o, s) for b in bits]
    assert same_lanes(got, want, dst_t)


def test_antiquant_forms_and_errors() -> None:
    with block(BlockContext()) as ctx:
        x = LocalTensor[int8_t](TPosition.VECCALC, 0, 64)
        x.GetPhyAddr().write(np.arange(64, dtype=np.int8))
        y = LocalTensor[bfloat16_t](TPosition.VECCALC, 128, 64)
        tmp = LocalTensor[uint8_t](TPosition.VECCALC, 512, 256)
        ctx.tracker.barrier()
        AscendAntiQuant[int8_t, bfloat16_t, True](
            y, x, bfloat16_t(-1), bfloat16_t(2), tmp, 64, AntiQuantShapeInfo()
        )
        ctx.tracker.barrier()
        assert y.GetPhyAddr().read(3).astype(np.float32).tolist() == [-2.0, 0.0, 2.0]
        with pytest.raises(OutOfBoundsError, match=r"src\.GetSize"):
            AscendAntiQuant[int8_t, bfloat16_t, False](
                LocalTensor[bfloat16_t](TPosition.VECCALC, 128, 32), x, 0.0, 1.0, 64
            )
        with pytest.raises(IllegalDtypeError, match="InputDataType = half"):
            AscendAntiQuant[half, half, False](LocalTensor[half](TPosition.VECCALC, 128, 64),
                                              LocalTensor[half](TPosition.VECCALC, 0, 64), 0, 1, 64)  # fmt: skip
        with pytest.raises(AscregTypeError, match="scale-only"):
            AscendAntiQuant[int8_t, bfloat16_t, False](y, x, bfloat16_t(2), tmp, 64)
        with pytest.raises(AscregTypeError, match="transposed"):
            AscendAntiQuant[int8_t, bfloat16_t, True](y, x, y, y, 64)
        with pytest.raises(AscregTypeError, match="row of 16"):
            AscendAntiQuant[int8_t, bfloat16_t, False](y, x, y, y, 64, AntiQuantShapeInfo(0, 16))
        with pytest.raises(AscregError, match="not whole rows of 48"):
            AscendAntiQuant[int8_t, bfloat16_t, False](y, x, y, y, 64, AntiQuantShapeInfo(0, 48))
        with pytest.raises(AscregTypeError, match="cannot be deduced"):
            AscendAntiQuant(y, x, 0.0, 1.0, 64)  # isTranspose has no default


@FEW
@given(src_t=st.sampled_from([int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t]),
       dst_t=st.sampled_from([half, bfloat16_t]), data=st.data())  # fmt: skip
def test_antiquant_per_channel_matches_the_reference(src_t: Any, dst_t: Any, data: Any) -> None:
    n, k = 32 * data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    bits = data.draw(st.lists(st.integers(0, 255), min_size=n * k, max_size=n * k))
    column = st.floats(-300, 300, width=32).map(lambda v: encode_float(v, dst_t))
    offsets = data.draw(st.lists(column, min_size=n, max_size=n))
    scales = data.draw(st.lists(column, min_size=n, max_size=n))
    with block(BlockContext()) as ctx:
        x = _load(ctx, src_t, 0, bits)
        off = _load(ctx, dst_t, 1024, offsets)
        sc = _load(ctx, dst_t, 2048, scales)
        y = LocalTensor[dst_t](TPosition.VECCALC, 4096, n * k)
        ctx.tracker.barrier()
        AscendAntiQuant[src_t, dst_t, False](y, x, off, sc, k, AntiQuantShapeInfo(1, n, 1, n))
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(n * k))
    want = [ref.antiquant_channel_element(b, src_t, dst_t, offsets[i % n], scales[i % n])
            for i, b in enumerate(bits)]  # fmt: skip
    assert same_lanes(got, want, dst_t)

"""AntiQuantize and Quantize (量化操作/*.md): every policy against the element reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    bfloat16_t,
    float32_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
    uint8_t,
    uint64_t,
)
from ascreg.basic import (
    AntiQuantize,
    AntiQuantizeConfig,
    AntiQuantizeParams,
    AntiQuantizePolicy,
    Dequantize,
    DequantizeConfig,
    DequantizeParams,
    DequantizePolicy,
    LocalTensor,
    Quantize,
    QuantizeConfig,
    QuantizeParams,
    QuantizePolicy,
    RoundMode,
    TPosition,
)
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from reference import quant as ref
from reference.common import encode_float, from_bits, same_lanes, to_bits

FEW = settings(max_examples=20)
SOURCES = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
PAIRS = {  # (DstT, scale type) per policy: the page's tables 3 and 4
    AntiQuantizePolicy.PER_TENSOR: ((half, half), (bfloat16_t, bfloat16_t)),
    AntiQuantizePolicy.PER_CHANNEL: ((half, half), (bfloat16_t, bfloat16_t)),
    AntiQuantizePolicy.PER_TOKEN: (
        (half, half),
        (bfloat16_t, bfloat16_t),
        (float32_t, float32_t),
        (half, float32_t),
        (bfloat16_t, float32_t),
    ),
}
PAIRS[AntiQuantizePolicy.PER_GROUP] = PAIRS[AntiQuantizePolicy.PER_TOKEN]
PARAMS = st.floats(-6, 6, width=16) | st.sampled_from([0.0, -0.5, 1e-3, 300.0, 6e4])


def _param_index(policy: Any, k_dim: int, g: int, n: int, i: int, j: int) -> int:
    """Which scale / offset element ``src[i][j]`` uses (the pages' formulas)."""
    if policy.name == "PER_CHANNEL":
        return j
    if policy.name == "PER_TOKEN":
        return i
    if k_dim == 0:
        return (i // g) * n + j
    return i * -(-n // g) + j // g


def _param_count(policy: Any, k_dim: int, g: int, m: int, n: int) -> int:
    counts = {
        "PER_CHANNEL": n,
        "PER_TOKEN": m,
        "PER_GROUP": -(-m // g) * n if k_dim == 0 else m * -(-n // g),
    }
    return counts[policy.name]


@FEW
@given(
    policy=st.sampled_from(list(AntiQuantizePolicy)),
    src_t=st.sampled_from(SOURCES),
    has_offset=st.booleans(),
    k_dim=st.sampled_from([0, 1]),
    data=st.data(),
)
def test_antiquantize_matches_the_reference(
    policy: AntiQuantizePolicy, src_t: Any, has_offset: bool, k_dim: int, data: Any
) -> None:
    dst_t, scale_t = data.draw(st.sampled_from(PAIRS[policy]))
    m, n = data.draw(st.integers(1, 5)), 32 * data.draw(st.integers(1, 3))
    g = 32 * data.draw(st.integers(1, 2))
    bits = data.draw(st.lists(st.integers(0, 255), min_size=m * n, max_size=m * n))
    config = AntiQuantizeConfig(policy, has_offset, k_dim)
    params = AntiQuantizeParams(m, n, g)
    with block(BlockContext()) as ctx:
        x = LocalTensor[src_t](TPosition.VECCALC, 0, m * n)
        x.GetPhyAddr().write(from_bits(bits, src_t))
        y = LocalTensor[dst_t](TPosition.VECCALC, 4096, m * n)
        if policy is AntiQuantizePolicy.PER_TENSOR:
            s_vals = [data.draw(PARAMS)]
            o_vals = [data.draw(PARAMS)]
            scale, offset = dst_t(s_vals[0]), dst_t(o_vals[0])
        else:
            count = _param_count(policy, k_dim, g, m, n)
            s_vals = data.draw(st.lists(PARAMS, min_size=count, max_size=count))
            o_vals = data.draw(st.lists(PARAMS, min_size=count, max_size=count))
            scale = LocalTensor[scale_t](TPosition.VECCALC, 32768, count)
            offset = LocalTensor[scale_t](TPosition.VECCALC, 65536, count)
            scale.GetPhyAddr().write(np.array(s_vals).astype(scale_t.np_dtype))
            offset.GetPhyAddr().write(np.array(o_vals).astype(scale_t.np_dtype))
        tmp = LocalTensor[uint8_t](TPosition.VECCALC, 98304, 1024)
        ctx.tracker.barrier()
        operands = (
            (y, x, scale, offset, tmp, params)
            if data.draw(st.booleans())
            else (y, x, scale, offset, params)
        )
        AntiQuantize[config](*operands)
        ctx.tracker.barrier()
        got = to_bits(y.GetPhyAddr().read(m * n))
    param_t = dst_t if policy is AntiQuantizePolicy.PER_TENSOR else scale_t
    want = []
    for i in range(m):
        for j in range(n):
            k = (
                0
                if policy is AntiQuantizePolicy.PER_TENSOR
                else _param_index(policy, k_dim, g, n, i, j)
            )
            s = encode_float(float(np.asarray(s_vals[k]).astype(param_t.np_dtype)), param_t)
            o = encode_float(float(np.asarray(o_vals[k]).astype(param_t.np_dtype)), param_t)
            want.append(
                ref.antiquantize_element(
                    bits[i * n + j], src_t, dst_t, param_t, o if has_offset else None, s
                )
            )
    assert same_lanes(got, want, dst_t)


def test_the_pages_example_gives_back_the_source() -> None:
    """The page's result example: scale 1, offset 0 leaves the values."""
    config = AntiQuantizeConfig(AntiQuantizePolicy.PER_TOKEN, True, 1)
    src = np.array([-4, 2, -2, -3, -1, -4, 1, 3] * 4, dtype=np.int8)
    with block(BlockContext()) as ctx:
        x = LocalTensor[int8_t](TPosition.VECCALC, 0, 32)
        x.GetPhyAddr().write(src)
        y = LocalTensor[half](TPosition.VECCALC, 64, 32)
        scale = LocalTensor[half](TPosition.VECCALC, 128, 16)
        offset = LocalTensor[half](TPosition.VECCALC, 160, 16)
        scale.GetPhyAddr().write(np.ones(16, np.float16))
        offset.GetPhyAddr().write(np.zeros(16, np.float16))
        ctx.tracker.barrier()
        AntiQuantize[config](y, x, scale, offset, AntiQuantizeParams(1, 32, 0))
        ctx.tracker.barrier()
        np.testing.assert_array_equal(y.GetPhyAddr().read(32), src.astype(np.float16))


def _call(policy: AntiQuantizePolicy, **changes: Any) -> None:
    with block(BlockContext()) as ctx:
        src_t = changes.pop("src_t", int8_t)
        dst_t = changes.pop("dst_t", half)
        scale_t = changes.pop("scale_t", half)
        x = LocalTensor[src_t](TPosition.VECCALC, 0, 128)
        x.GetPhyAddr().write(np.zeros(128, src_t.np_dtype))
        y = LocalTensor[dst_t](TPosition.VECCALC, 1024, 128)
        scale = LocalTensor[scale_t](TPosition.VECCALC, 2048, 64)
        scale.GetPhyAddr().write(np.ones(64, scale_t.np_dtype))
        ctx.tracker.barrier()
        if policy is AntiQuantizePolicy.PER_TENSOR:
            scale = changes.pop("scale", dst_t(1))
        config = AntiQuantizeConfig(policy, False, changes.pop("k_dim", 1))
        params = changes.pop("params", AntiQuantizeParams(2, 64, 32))
        AntiQuantize[config](y, x, scale, scale, params)


@pytest.mark.parametrize(
    ("policy", "changes", "error", "message"),
    [
        (AntiQuantizePolicy.PER_TENSOR, {"params": AntiQuantizeParams(2, 48, 0)}, AscregError,
         "params.n 48 must be a multiple of 32"),
        (AntiQuantizePolicy.PER_TENSOR, {"params": AntiQuantizeParams(3, 64, 0)},
         OutOfBoundsError, "params.m \\* params.n 192 is more than the 128 elements of srcTensor"),
        (AntiQuantizePolicy.PER_TENSOR, {"dst_t": float32_t}, IllegalDtypeError,
         "float with scale float is not a PER_TENSOR combination"),
        (AntiQuantizePolicy.PER_CHANNEL, {"scale_t": float32_t}, IllegalDtypeError,
         "half with scale float is not a PER_CHANNEL combination"),
        (AntiQuantizePolicy.PER_TOKEN, {"dst_t": float32_t, "scale_t": half}, IllegalDtypeError,
         "not a PER_TOKEN combination"),
        (AntiQuantizePolicy.PER_GROUP, {"params": AntiQuantizeParams(2, 64, 48)}, AscregError,
         "params.groupSize 48 must be a non-zero multiple of 32"),
        (AntiQuantizePolicy.PER_GROUP, {"k_dim": 2}, AscregTypeError, "config.kDim 2 must be 0"),
        (AntiQuantizePolicy.PER_GROUP, {"params": AntiQuantizeParams(1, 128, 32), "k_dim": 0},
         OutOfBoundsError, "ceil\\(m / groupSize\\) \\* n 128 is more than the 64 elements"),
        (AntiQuantizePolicy.PER_TOKEN, {"src_t": half}, IllegalDtypeError,
         "SrcT = half is not supported"),
        (AntiQuantizePolicy.PER_GROUP, {"src_t": fp4x2_e2m1_t}, UnsupportedError,
         "float4 source fp4x2_e2m1_t"),
    ],
)  # fmt: skip
def test_antiquantize_errors_name_the_call_the_value_and_the_rule(
    policy: AntiQuantizePolicy, changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        _call(policy, **changes)
    assert "AntiQuantize<{" in str(info.value)


def test_antiquantize_takes_its_config_and_params_types() -> None:
    with block(BlockContext()):
        x = LocalTensor[int8_t](TPosition.VECCALC, 0, 64)
        y = LocalTensor[half](TPosition.VECCALC, 128, 64)
        config = AntiQuantizeConfig(AntiQuantizePolicy.PER_TENSOR, False)
        with pytest.raises(AscregTypeError, match="params must be the AntiQuantizeParams struct"):
            AntiQuantize[config](y, x, half(1), half(0), (2, 32, 0))
        with pytest.raises(AscregTypeError, match="PER_TENSOR takes a scalar scale"):
            AntiQuantize[config](y, x, y, y, AntiQuantizeParams(2, 32, 0))
        with pytest.raises(AscregTypeError, match="no overload takes these template arguments"):
            AntiQuantize[AntiQuantizePolicy.PER_TENSOR]


QUANTIZE_DST = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
ROUNDINGS = [m for m in RoundMode if m is not RoundMode.UNKNOWN] if hasattr(RoundMode, "UNKNOWN") \
    else list(RoundMode)  # fmt: skip
SOURCE_VALUES = st.floats(-300, 300, width=16) | st.sampled_from([0.5, -2.5, 127.5, -128.5, 6e4])


@FEW
@given(
    policy=st.sampled_from(list(QuantizePolicy)),
    src_t=st.sampled_from([half, bfloat16_t, float32_t]),
    dst_t=st.sampled_from(QUANTIZE_DST),
    float_scale=st.booleans(),
    has_offset=st.booleans(),
    scalar_offset=st.booleans(),
    k_dim=st.sampled_from([0, 1]),
    rounding=st.sampled_from(ROUNDINGS),
    data=st.data(),
)
def test_quantize_matches_the_reference(
    policy: QuantizePolicy, src_t: Any, dst_t: Any, float_scale: bool, has_offset: bool,
    scalar_offset: bool, k_dim: int, rounding: RoundMode, data: Any,
) -> None:  # fmt: skip
    scale_t = float32_t if float_scale else src_t
    m, n = data.draw(st.integers(1, 3)), 32 * data.draw(st.integers(1, 2))
    g = 32 * data.draw(st.integers(1, 2))
    x = np.array(data.draw(st.lists(SOURCE_VALUES, min_size=m * n, max_size=m * n)))
    config = QuantizeConfig(policy, has_offset, rounding, k_dim)
    tensor_params = policy is not QuantizePolicy.PER_TENSOR
    count = _param_count(policy, k_dim, g, m, n) if tensor_params else 1
    s_vals = np.array(data.draw(st.lists(PARAMS, min_size=count, max_size=count)))
    o_vals = np.array(data.draw(st.lists(PARAMS, min_size=count, max_size=count)))
    s_typed, o_typed = s_vals.astype(scale_t.np_dtype), o_vals.astype(scale_t.np_dtype)
    with block(BlockContext()) as ctx:
        src = LocalTensor[src_t](TPosition.VECCALC, 0, m * n)
        src.GetPhyAddr().write(x.astype(src_t.np_dtype))
        dst = LocalTensor[dst_t](TPosition.VECCALC, 2048, m * n)
        if tensor_params:
            scale = LocalTensor[scale_t](TPosition.VECCALC, 32768, count)
            scale.GetPhyAddr().write(s_typed)
            offset_tensor = LocalTensor[scale_t](TPosition.VECCALC, 65536, count)
            offset_tensor.GetPhyAddr().write(o_typed)
            offset = o_typed[0] if scalar_offset else offset_tensor
        else:
            scale, offset = s_typed[0], o_typed[0]
        ctx.tracker.barrier()
        Quantize[config](dst, src, scale, offset, QuantizeParams(m, n, g))
        ctx.tracker.barrier()
        got = to_bits(dst.GetPhyAddr().read(m * n))
    src_bits = to_bits(x.astype(src_t.np_dtype))
    s_bits, o_bits = to_bits(s_typed), to_bits(o_typed)
    want = []
    for i in range(m):
        for j in range(n):
            k = _param_index(policy, k_dim, g, n, i, j) if tensor_params else 0
            o = o_bits[0] if scalar_offset or not tensor_params else o_bits[k]
            want.append(
                ref.quantize_element(
                    src_bits[i * n + j],
                    src_t,
                    dst_t,
                    scale_t,
                    s_bits[k],
                    o if has_offset else None,
                    rounding,
                )
            )
    assert same_lanes(got, want, dst_t)


def test_the_quantize_pages_example() -> None:
    """The page's result: scale 1, offset 0, CAST_ROUND rounds the halves away from zero."""
    config = QuantizeConfig(QuantizePolicy.PER_TOKEN, True, RoundMode.CAST_ROUND, 1)
    src = np.array([-4.4, 2.5, -2.9, -3.1, -1.5, -4.8, 1.8, 3.5] * 4, dtype=np.float16)
    with block(BlockContext()) as ctx:
        x = LocalTensor[half](TPosition.VECCALC, 0, 32)
        x.GetPhyAddr().write(src)
        y = LocalTensor[int8_t](TPosition.VECCALC, 64, 32)
        scale = LocalTensor[half](TPosition.VECCALC, 128, 16)
        offset = LocalTensor[half](TPosition.VECCALC, 160, 16)
        scale.GetPhyAddr().write(np.ones(16, np.float16))
        offset.GetPhyAddr().write(np.zeros(16, np.float16))
        ctx.tracker.barrier()
        Quantize[config](y, x, scale, offset, QuantizeParams(1, 32, 32))
        ctx.tracker.barrier()
        got = y.GetPhyAddr().read(8).tolist()
    assert got == [-4, 3, -3, -3, -2, -5, 2, 4]


def test_quantize_errors_name_the_call_the_value_and_the_rule() -> None:
    with block(BlockContext()):
        x = LocalTensor[half](TPosition.VECCALC, 0, 64)
        y = LocalTensor[int8_t](TPosition.VECCALC, 128, 64)
        s16 = LocalTensor[half](TPosition.VECCALC, 256, 64)
        tensor = QuantizeConfig(QuantizePolicy.PER_TENSOR, True)
        channel = QuantizeConfig(QuantizePolicy.PER_CHANNEL, True)
        params = QuantizeParams(1, 64)
        with pytest.raises(IllegalDtypeError, match="scale bfloat16_t is not a PER_TENSOR"):
            Quantize[tensor](y, x, bfloat16_t(1), bfloat16_t(0), params)
        with pytest.raises(IllegalDtypeError, match="offset is float but must be half"):
            Quantize[tensor](y, x, half(1), np.float32(0), params)
        with pytest.raises(AscregTypeError, match="PER_TENSOR takes a scalar scale"):
            Quantize[tensor](y, x, s16, half(0), params)
        with pytest.raises(IllegalDtypeError, match="DstT = half is not supported"):
            Quantize[channel](LocalTensor[half](TPosition.VECCALC, 512, 64), x, s16, s16, params)
        with pytest.raises(AscregError, match=r"params\.n 40 must be a multiple of 32"):
            Quantize[channel](y, x, s16, s16, QuantizeParams(1, 40))
        with pytest.raises(OutOfBoundsError, match=r"params\.n 64 is more than the 32 elements"):
            Quantize[channel](y, x, s16[32], s16, params)
        with pytest.raises(UnsupportedError, match="float4 destination fp4x2_e2m1_t"):
            group = QuantizeConfig(QuantizePolicy.PER_GROUP, False)
            f4 = LocalTensor[fp4x2_e2m1_t](TPosition.VECCALC, 1024, 64)
            Quantize[group](f4, x, s16, s16, QuantizeParams(1, 64, 32))


DEQUANT_PAIRS = {
    "PER_CHANNEL": [
        (half, uint64_t),
        (float32_t, float32_t),
        (float32_t, bfloat16_t),
        (bfloat16_t, bfloat16_t),
        (bfloat16_t, float32_t),
    ],
    "PER_TENSOR": [
        (bfloat16_t, bfloat16_t),
        (float32_t, bfloat16_t),
        (float32_t, float32_t),
        (bfloat16_t, float32_t),
    ],
}


@FEW
@given(policy=st.sampled_from(["PER_TENSOR", "PER_CHANNEL"]), data=st.data())
def test_dequantize_matches_the_reference(policy: str, data: Any) -> None:
    """Reference: AscendDequant's element (Dequantize runs its multi-row path, dequantize_impl.h)."""
    dst_t, scale_t = data.draw(st.sampled_from(DEQUANT_PAIRS[policy]))
    m, n = data.draw(st.integers(1, 3)), 16 * data.draw(st.integers(1, 4))
    x = data.draw(st.lists(st.integers(-(2**31), 2**31 - 1), min_size=m * n, max_size=m * n))
    count = n if policy == "PER_CHANNEL" else 1
    floats = st.floats(-4, 4, width=32) | st.sampled_from([1e-3, 3e4, -7e9])
    s_vals = np.array(data.draw(st.lists(floats, min_size=count, max_size=count)), np.float32)
    if scale_t is uint64_t:  # the float in the low 32 bits, garbage above
        s_typed = s_vals.view(np.uint32).astype(np.uint64) | np.uint64(0xABCD << 32)
    else:
        s_typed = s_vals.astype(scale_t.np_dtype)
    config = DequantizeConfig(DequantizePolicy[policy])
    with block(BlockContext()) as ctx:
        src = LocalTensor[int32_t](TPosition.VECCALC, 0, m * n)
        src.GetPhyAddr().write(np.array(x, np.int32))
        dst = LocalTensor[dst_t](TPosition.VECCALC, 4096, m * n)
        if policy == "PER_CHANNEL":
            scale: Any = LocalTensor[scale_t](TPosition.VECCALC, 8192, n)
            scale.GetPhyAddr().write(s_typed)
        else:
            scale = s_typed[0]
        ctx.tracker.barrier()
        Dequantize[config](dst, src, scale, scale, DequantizeParams(m, n, 0))
        ctx.tracker.barrier()
        got = to_bits(dst.GetPhyAddr().read(m * n))
    bits = to_bits(np.array(x, np.int32))
    scales = [ref.dequant_scale(b, scale_t) for b in to_bits(s_typed)]
    want = [ref.dequant_element(b, scales[k % n if count > 1 else 0], dst_t)
            for k, b in enumerate(bits)]  # fmt: skip
    assert same_lanes(got, want, dst_t)


def test_dequantize_errors_name_the_call_the_value_and_the_rule() -> None:
    with block(BlockContext()):
        x = LocalTensor[int32_t](TPosition.VECCALC, 0, 64)
        y = LocalTensor[half](TPosition.VECCALC, 512, 64)
        f = LocalTensor[float32_t](TPosition.VECCALC, 1024, 64)
        tensor = DequantizeConfig(DequantizePolicy.PER_TENSOR)
        with pytest.raises(IllegalDtypeError, match="half with scale float is not a PER_TENSOR"):
            Dequantize[tensor](y, x, 0.5, 0.0, DequantizeParams(1, 64))
        with pytest.raises(AscregError, match=r"params\.n 8 must be a multiple of 16"):
            Dequantize[tensor](y, x, 0.5, 0.0, DequantizeParams(1, 8))
        with pytest.raises(AscregTypeError, match="hasOffset is reserved"):
            Dequantize[DequantizeConfig(DequantizePolicy.PER_TENSOR, True)](
                f, x, 0.5, 0.0, DequantizeParams(1, 64)
            )
        with pytest.raises(UnsupportedError, match="the PER_TOKEN policy"):
            Dequantize[DequantizeConfig(DequantizePolicy.PER_TOKEN)](
                f, x, f, f, DequantizeParams(1, 64)
            )
        with pytest.raises(IllegalDtypeError, match="SrcT = float is not supported"):
            Dequantize[tensor](y, f, 0.5, 0.0, DequantizeParams(1, 64))

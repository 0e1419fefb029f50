"""Interleave / DeInterleave, Gather, Squeeze and Pack / UnPack against the scalar references."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    GatherMaskMode,
    HighLowPart,
    Reg,
    SpecialPurposeReg,
    half,
    int8_t,
    int16_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg._spec import SPECS
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
)
from ascreg.machine import spr
from ascreg.machine.block import BlockContext, block
from reference.common import SIGNED
from reference.rearrange import (
    deinterleave,
    gather,
    interleave,
    mask_pack,
    mask_unpack,
    squeeze,
    unpack,
)
from reference.rearrange import pack as ref_pack
from strategies import (
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    mask_list,
    new_reg,
    reg_bits,
    trait_id,
    traits_for,
)

OPS = {"Interleave": interleave, "DeInterleave": deinterleave}


SHUFFLE = [
    p for p in dtype_params(SPECS["Reg.Interleave"].combos) if p.values[0].size < 8 or p.values[1]
]


@pytest.mark.rows("Reg.Interleave", "Reg.DeInterleave")
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize(("dtype", "two"), SHUFFLE)
@settings(max_examples=15)
@given(st.data())
def test_interleave(op: str, dtype: Any, two: bool, data: Any) -> None:
    lanes, _ = geometry(dtype, two)
    a, b = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    ra, rb = make_reg(dtype, a, two), make_reg(dtype, b, two)
    getattr(Reg, op)(ra, rb, ra, rb)  # dsts alias the sources: both are read first
    want0, want1 = OPS[op](a, b)
    assert reg_bits(ra) == want0 and reg_bits(rb) == want1


def test_interleave_roundtrip_and_b64_traitone() -> None:
    a, b = make_reg(half, list(range(128))), make_reg(half, list(range(128, 256)))
    lo, hi, x, y = (new_reg(half) for _ in range(4))
    Reg.Interleave(lo, hi, a, b)
    Reg.DeInterleave(x, y, lo, hi)
    assert reg_bits(x) == list(range(128)) and reg_bits(y) == list(range(128, 256))
    r = make_reg(int64_t, [1] * 32)
    with pytest.raises(AscregTypeError, match="RegTraitNumTwo"):
        Reg.Interleave(r, new_reg(int64_t), r, r)


PACKS = [
    pytest.param(
        op,
        dst,
        src,
        two,
        part,
        id=f"{op}-{dst.cpp_name}-{src.cpp_name}-{trait_id(two)}-{part.name}",
    )
    for op in ("Pack", "UnPack")
    for dst, src in SPECS[f"Reg.{op}"].combos
    for two in traits_for(dst if op == "UnPack" else src)
    for part in HighLowPart
    if not (two and part is HighLowPart.HIGHEST)
]


@pytest.mark.rows("Reg.Pack", "Reg.UnPack")
@pytest.mark.parametrize(("op", "dst_t", "src_t", "two", "part"), PACKS)
@settings(max_examples=10)
@given(st.data())
def test_pack_unpack(op: str, dst_t: Any, src_t: Any, two: bool, part: Any, data: Any) -> None:
    src_lanes, _ = geometry(src_t, two and src_t.size == 8)
    values = data.draw(lane_bits(src_t, src_lanes))
    dst = new_reg(dst_t, two and dst_t.size == 8)
    getattr(Reg, op)[dst_t, src_t, part](dst, make_reg(src_t, values, two and src_t.size == 8))
    high = part is HighLowPart.HIGHEST
    bits = (8 * dst_t.size, 8 * src_t.size)
    if op == "Pack":
        want = ref_pack(values, bits[1], bits[0], len(reg_bits(dst)), high)
    else:
        want = unpack(values, bits[1], bits[0], len(reg_bits(dst)), high, src_t in SIGNED)
    assert reg_bits(dst) == want


@pytest.mark.rows("Reg.Pack", "Reg.UnPack")
@pytest.mark.parametrize("part", list(HighLowPart))
@settings(max_examples=20)
@given(bits=mask_bits())
def test_mask_pack_unpack(part: Any, bits: list[int]) -> None:
    high = part is HighLowPart.HIGHEST
    for op, ref in (("Pack", mask_pack), ("UnPack", mask_unpack)):
        dst = Reg.MaskReg()
        getattr(Reg, op)[part](dst, make_mask(bits))
        assert mask_list(dst) == ref(bits, high), op


def test_pack_rejects() -> None:
    src = make_reg(int64_t, [1] * 64, True)
    with pytest.raises(AscregTypeError, match="LOWEST only"):
        Reg.Pack[uint32_t, int64_t, HighLowPart.HIGHEST](new_reg(uint32_t), src)
    with pytest.raises(IllegalDtypeError):
        Reg.Pack(new_reg(int8_t), make_reg(int16_t, [1] * 128))
    with pytest.raises(TemplateMismatchError, match="U=uint16_t"):
        Reg.Pack[uint8_t, uint16_t](new_reg(uint8_t), make_reg(int16_t, [1] * 128))


GATHER_PAIRS = [
    pytest.param(t, u, id=f"{t.cpp_name}-{u.cpp_name}") for t, u in SPECS["Reg.Gather"].combos
]


@pytest.mark.rows("Reg.Gather")
@pytest.mark.parametrize(("dtype", "index_type"), GATHER_PAIRS)
@settings(max_examples=10)
@given(st.data())
def test_gather(dtype: Any, index_type: Any, data: Any) -> None:
    lanes = 256 // dtype.size
    src = data.draw(lane_bits(dtype, lanes))
    index = data.draw(lane_bits(index_type, lanes))  # any value: past the register it wraps
    dst = new_reg(dtype)
    Reg.Gather[dtype, index_type](dst, make_reg(dtype, src), make_reg(index_type, index))
    assert reg_bits(dst) == gather(src, index)


def test_gather_wraps_indices_and_checks_types() -> None:
    src = make_reg(half, list(range(128)))
    dst = new_reg(half)
    Reg.Gather(dst, src, make_reg(uint16_t, [168] * 128))  # the documented 168 % 128 = 40
    assert reg_bits(dst) == [40] * 128
    Reg.Gather(src, src, make_reg(uint16_t, [127 - i for i in range(128)]))  # dst may alias src
    assert reg_bits(src) == list(range(127, -1, -1))
    with pytest.raises(IllegalDtypeError):
        Reg.Gather(dst, src, make_reg(uint32_t, [0] * 64))  # index width differs from T's
    with pytest.raises(TemplateMismatchError):
        Reg.Gather[half, uint16_t](dst, src, make_reg(uint32_t, [0] * 64))
    with pytest.raises(IllegalDtypeError):  # Gather<T0, T1> names the UB form's types
        Reg.Gather[half, uint32_t](dst, src, make_reg(uint32_t, [0] * 64))


@pytest.mark.rows("Reg.Squeeze")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Squeeze"].combos))
@settings(max_examples=15)
@given(st.data())
def test_squeeze(dtype: Any, two: bool, data: Any) -> None:
    lanes = 256 // dtype.size
    src, mask = data.draw(lane_bits(dtype, lanes)), data.draw(mask_bits())
    dst = make_reg(dtype, data.draw(lane_bits(dtype, lanes)))  # old lanes never survive
    Reg.Squeeze[dtype, GatherMaskMode.NO_STORE_REG](dst, make_reg(dtype, src), make_mask(mask))
    assert reg_bits(dst) == squeeze(src, mask, dtype.size)


def test_squeeze_store_reg_adds_the_kept_bytes_to_ar() -> None:
    reg, dst = make_reg(int16_t, list(range(128))), new_reg(int16_t)
    with block(BlockContext()) as ctx, ctx.simd_vf():
        Reg.ClearSpr[SpecialPurposeReg.AR]()
        for _ in range(2):
            Reg.Squeeze[int16_t, GatherMaskMode.STORE_REG](
                dst, reg, Reg.CreateMask[int16_t, Reg.MaskPattern.H]()
            )
        assert spr.read_ar() == 2 * 64 * 2
    assert reg_bits(dst) == list(range(64)) + [0] * 64

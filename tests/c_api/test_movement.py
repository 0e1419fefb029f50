"""The C API twins of the movement ops against the Reg twins' references: asc_scatter, the UB
asc_gather, asc_gather_datablock, the histograms, asc_intlv / asc_deintlv (vector and mask
forms), asc_unsqueeze and asc_clear_ar_spr."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import UnifiedBuffer, int8_t, uint16_t
from ascreg._spec import SPECS
from ascreg._spec.dtypes import C_GATHER_UB
from ascreg.errors import AscregTypeError
from ascreg.machine import spr
from ascreg.machine.block import BlockContext, block
from movement_cases import (
    gather_blocks_case,
    gather_case,
    histogram_case,
    mask_interleave_case,
    scatter_case,
    unsqueeze_case,
)
from reference.rearrange import deinterleave, interleave, squeeze
from strategies import lane_bits, make_mask, make_reg, mask_bits, reg_bits

SETTINGS = settings(max_examples=5, suppress_health_check=[HealthCheck.large_base_example])


def _ids(combo: tuple[Any, ...]) -> str:
    return "-".join(d.cpp_name for d in combo)


@pytest.mark.rows("asc_gather")
@pytest.mark.parametrize("combo", C_GATHER_UB, ids=_ids)
@SETTINGS
@given(st.data())
def test_gather_from_ub(combo: Any, data: Any) -> None:
    gather_case(C.asc_gather, combo, False, False, data)


@pytest.mark.rows("asc_scatter")
@pytest.mark.parametrize("combo", SPECS["asc_scatter"].combos, ids=_ids)
@SETTINGS
@given(st.data())
def test_scatter(combo: Any, data: Any) -> None:
    scatter_case(C.asc_scatter, combo, False, False, data)


@pytest.mark.rows("asc_gather_datablock")
@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("combo", SPECS["asc_gather_datablock"].combos, ids=_ids)
@SETTINGS
@given(st.data())
def test_gather_datablock(combo: Any, masked: bool, data: Any) -> None:
    gather_blocks_case(C.asc_gather_datablock, combo[0], masked, data)


HISTOGRAMS = [n for n in SPECS if "_histogram_" in n]


@pytest.mark.rows(*HISTOGRAMS)
@pytest.mark.parametrize("name", HISTOGRAMS)
@SETTINGS
@given(st.data())
def test_histograms(name: str, data: Any) -> None:
    histogram_case(getattr(C, name), name.endswith("bin1"), "cumulative" in name, data)


@pytest.mark.rows("asc_unsqueeze")
@pytest.mark.parametrize("combo", SPECS["asc_unsqueeze"].combos, ids=_ids)
@SETTINGS
@given(st.data())
def test_unsqueeze(combo: Any, data: Any) -> None:
    unsqueeze_case(C.asc_unsqueeze, combo[0], data)


INTERLEAVES = {"asc_intlv": interleave, "asc_deintlv": deinterleave}


@pytest.mark.rows(*INTERLEAVES)
@pytest.mark.parametrize("name", INTERLEAVES)
@pytest.mark.parametrize("combo", SPECS["asc_intlv"].combos, ids=_ids)
@SETTINGS
@given(st.data())
def test_interleave_registers(name: str, combo: Any, data: Any) -> None:
    (dtype,) = combo
    lanes = 256 // dtype.size
    a, b = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    ra, rb = make_reg(dtype, a), make_reg(dtype, b)
    getattr(C, name)(ra, rb, ra, rb)  # asc_intlv(src0, src1, src0, src1) is allowed
    assert (reg_bits(ra), reg_bits(rb)) == INTERLEAVES[name](a, b)


MASK_FORMS = [f"{n}_b{w}" for n in INTERLEAVES for w in (8, 16, 32)]


@pytest.mark.rows(*MASK_FORMS)
@pytest.mark.parametrize("name", MASK_FORMS)
@SETTINGS
@given(st.data())
def test_interleave_masks(name: str, data: Any) -> None:
    group = int(name.rsplit("_b", 1)[1]) // 8
    mask_interleave_case(getattr(C, name), group, name.startswith("asc_deintlv"), data)


def test_gather_register_and_ub_forms_share_one_name() -> None:
    p = UnifiedBuffer().alloc(int8_t, 256)
    p.write([-40] * 256)
    dst, idx = C.vector_int16_t(), C.vector_uint16_t()
    idx.set(0)
    C.asc_gather(dst, p, idx, C.asc_create_mask_b16(C.PAT_VL1))
    assert reg_bits(dst)[:2] == [216, 0]  # -40 zero-extended: the documented example
    with pytest.raises(
        AscregTypeError, match=r"asc_gather: illegal dtypes \(dst=int8_t, src=int8_t"
    ):
        C.asc_gather(C.vector_int8_t(), p, idx, C.asc_create_mask_b16(C.PAT_ALL))
    reg = make_reg(uint16_t, list(range(128)))
    C.asc_gather(dst, make_reg(C.int16_t, list(range(128))), reg)  # the register form
    assert reg_bits(dst)[:3] == [0, 1, 2]


def test_clear_ar_spr() -> None:
    with block(BlockContext()) as ctx, ctx.simd_vf():
        spr.add_ar(64)
        C.asc_clear_ar_spr()
        assert spr.read_ar() == 0


@pytest.mark.rows("asc_squeeze_with_status")
@pytest.mark.parametrize("combo", SPECS["asc_squeeze_with_status"].combos, ids=_ids)
@SETTINGS
@given(st.data())
def test_squeeze_with_status_counts_into_ar(combo: Any, data: Any) -> None:
    (dtype,) = combo
    lanes = 256 // dtype.size
    src, bits = data.draw(lane_bits(dtype, lanes)), data.draw(mask_bits())
    dst = make_reg(dtype, [0] * lanes)
    with block(BlockContext()) as ctx, ctx.simd_vf():
        C.asc_clear_ar_spr()
        C.asc_squeeze_with_status(dst, make_reg(dtype, src), make_mask(bits))
        C.asc_squeeze_with_status(dst, make_reg(dtype, src), make_mask(bits))
        kept = sum(bits[i * dtype.size] for i in range(lanes))
        assert C.asc_get_squeeze_status() == 2 * kept * dtype.size  # AR accumulates
    assert reg_bits(dst) == squeeze(src, bits, dtype.size)

"""The C API conversions against the scalar reference of their Reg twins.

``asc_<src>2<dst>[_<round>][_sat][_v<n>]`` is ``Reg.Cast`` with the controls its name spells;
each function is checked against ``tests/reference/convert.py`` (the reference of ``Reg.Cast``)
with those controls, on random lanes and a random mask. ``asc_rint`` ... ``asc_trunc`` are
checked against the ``Reg.Truncate`` reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (the C namespace)
from ascreg import RoundMode, float32_t
from ascreg._spec import C_MULS_PARTS, SPECS
from ascreg._spec.convert import C_TRUNCATES, TRUNCATE_TYPES, CConversion, c_conversions
from ascreg.errors import AscregTypeError, IllegalDtypeError
from reference import convert as ref
from reference.common import from_bits, to_bits

CONVERSIONS = list(c_conversions())
NAMES = [c.name for c in CONVERSIONS]


def _lanes(rng: np.random.Generator, dtype: Any) -> list[int]:
    """Random lanes, a third of them near 1.0 (where rounding and the small formats matter)."""
    count = 256 // dtype.size
    bits = rng.integers(0, 1 << (8 * dtype.size), count, dtype=np.uint64)
    if dtype.kind.value == "float" and dtype.size >= 2:
        near = np.abs(rng.normal(0, 8, count)).astype(np.float64) * rng.choice([-1, 1], count)
        bits = np.where(rng.random(count) < 0.3, to_bits(near.astype(dtype.np_dtype)), bits)
    return [int(b) for b in bits]


@pytest.mark.rows(*NAMES)
@pytest.mark.parametrize("conv", CONVERSIONS, ids=NAMES)
def test_c_conversion_is_its_reg_twin(conv: CConversion) -> None:
    rng = np.random.default_rng(sum(map(ord, conv.name)))
    pair = conv.pair
    values = _lanes(rng, pair.src)
    bits = rng.integers(0, 2, 256).astype(bool)
    src, dst = C.vector_of(pair.src)(), C.vector_of(pair.dst)()
    src.set(from_bits(values, pair.src))
    getattr(C, conv.name)(dst, src, C.vector_bool.from_bits(bits))
    mode = conv.rounding if pair.rounds else pair.default_round
    saturate = conv.saturate or pair.fixed_saturation
    layout = conv.part if pair.parts > 1 else None
    want = ref.cast_register(values, [int(b) for b in bits], pair.src, pair.dst, layout, mode,
                             saturate, len(values))  # fmt: skip
    assert to_bits(np.asarray(dst)) == want
    assert SPECS[conv.name].family == SPECS["Reg.Cast"].family


@pytest.mark.rows(*C_TRUNCATES)
@pytest.mark.parametrize("name", list(C_TRUNCATES))
@pytest.mark.parametrize("dtype", TRUNCATE_TYPES, ids=lambda d: d.cpp_name)
def test_c_truncation_is_its_reg_twin(name: str, dtype: Any) -> None:
    rng = np.random.default_rng(len(name) + dtype.size)
    values = _lanes(rng, dtype)
    bits = rng.integers(0, 2, 256).astype(bool)
    src, dst = C.vector_of(dtype)(), C.vector_of(dtype)()
    src.set(from_bits(values, dtype))
    getattr(C, name)(dst, src, C.vector_bool.from_bits(bits))
    mode: RoundMode = C_TRUNCATES[name]
    want = [ref.truncate_element(v, dtype, mode) if bits[i * dtype.size] else 0
            for i, v in enumerate(values)]  # fmt: skip
    assert to_bits(np.asarray(dst)) == want


def test_c_names_are_the_header_names() -> None:
    """Spot-check the generated spellings against include/c_api/reg_compute/reg_convert.h."""
    for name in ("asc_float2half_ro_sat_v2", "asc_half2int4x2_rd_sat_v4", "asc_float2hif8_rh_v3",
                 "asc_e2m1x22bfloat16_v4", "asc_int642float_rna_v2", "asc_uint322int16_sat",
                 "asc_bfloat162half_rz_sat", "asc_int162uint32_v2", "asc_int322int64"):  # fmt: skip
        assert callable(getattr(C, name)) and name in C.__all__
    assert len(NAMES) == len(set(NAMES)) == 437


# ---- asc_muls / asc_muls_v2 (Reg.MulsCast with a fixed part) -----------------------------------

MULS_SCALARS = [0x3F800000, 0x40490FDB, 0xC2C80000, 0x7F000000, 0x00000001, 0x7F800000,
                0x7FC00000, 0x80000000, 0x3A83126F]  # fmt: skip


@pytest.mark.rows(*C_MULS_PARTS)
@pytest.mark.parametrize("name", list(C_MULS_PARTS))
@pytest.mark.parametrize("scalar", MULS_SCALARS, ids=hex)
def test_muls_is_muls_cast_with_its_part(name: str, scalar: int) -> None:
    rng = np.random.default_rng(scalar % 1000 + len(name))
    values = _lanes(rng, float32_t)
    bits = rng.integers(0, 2, 256).astype(bool)
    src, dst = C.vector_float(), C.vector_half()
    src.set(from_bits(values, float32_t))
    getattr(C, name)(dst, src, from_bits([scalar], float32_t)[0], C.vector_bool.from_bits(bits))
    want = ref.muls_cast_register(values, scalar, [int(b) for b in bits], C_MULS_PARTS[name])
    assert to_bits(np.asarray(dst)) == want
    assert SPECS[name].family == SPECS["Reg.MulsCast"].family


@pytest.mark.rows("asc_muls", "asc_muls_v2")
def test_muls_rejects_other_registers_and_values() -> None:
    mask = C.asc_create_mask_b32(C.PAT_ALL)
    with pytest.raises(IllegalDtypeError, match="asc_muls: illegal dtypes"):
        C.asc_muls(C.vector_float(), C.vector_float(), 1.0, mask)
    with pytest.raises(AscregTypeError, match="asc_muls_v2: value must be a scalar"):
        C.asc_muls_v2(C.vector_half(), C.vector_float(), [1.0], mask)

"""Interleave / DeInterleave against the scalar reference (dsts may alias the sources)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import Reg, half, int64_t
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError
from reference.rearrange import deinterleave, interleave
from strategies import dtype_params, geometry, lane_bits, make_reg, new_reg, reg_bits

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

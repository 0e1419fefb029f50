"""C API ``asc_gather`` (register form) and ``asc_squeeze`` against the Reg references."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError
from reference.common import from_bits, lane_count
from reference.rearrange import gather, squeeze
from strategies import lane_bits, make_mask, mask_bits, reg_bits


def _vector(dtype: Any, bits: list[int] | None = None) -> Any:
    reg = C.vector_of(dtype)()
    if bits is not None:
        reg.set(from_bits(bits, dtype))
    return reg


def _params(name: str) -> list[Any]:
    return [
        pytest.param(*combo, id="-".join(t.cpp_name for t in combo)) for combo in SPECS[name].combos
    ]


REGISTER_GATHERS = [  # the register form's (T, T, U) of the (dst, src, index) row
    pytest.param(t, u, id=f"{t.cpp_name}-{u.cpp_name}")
    for t, s, u in SPECS["asc_gather"].combos
    if SPECS["asc_gather"].shape.forms[0].applies((t, s, u))
]


@pytest.mark.rows("asc_gather")
@pytest.mark.parametrize(("dtype", "index_type"), REGISTER_GATHERS)
@settings(max_examples=10)
@given(st.data())
def test_asc_gather(dtype: Any, index_type: Any, data: Any) -> None:
    lanes = lane_count(dtype)
    src, index = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(index_type, lanes))
    dst = _vector(dtype)
    C.asc_gather(dst, _vector(dtype, src), _vector(index_type, index))
    assert reg_bits(dst) == gather(src, index)


@pytest.mark.rows("asc_squeeze")
@pytest.mark.parametrize("dtype", [p.values[0] for p in _params("asc_squeeze")])
@settings(max_examples=10)
@given(st.data())
def test_asc_squeeze(dtype: Any, data: Any) -> None:
    lanes = lane_count(dtype)
    src, mask = data.draw(lane_bits(dtype, lanes)), data.draw(mask_bits())
    dst = _vector(dtype, data.draw(lane_bits(dtype, lanes)))
    C.asc_squeeze(dst, _vector(dtype, src), make_mask(mask))
    assert reg_bits(dst) == squeeze(src, mask, dtype.size)


def test_asc_gather_rejects_float_and_pointer_sources() -> None:
    index = _vector(C.uint32_t, [0] * 64)
    with pytest.raises(AscregTypeError):
        C.asc_gather(_vector(C.float32_t), _vector(C.float32_t, [0] * 64), index)
    with pytest.raises(AscregTypeError):
        C.asc_gather(_vector(C.int32_t), object(), index)

"""The C twins of the compound and carry ops against the Reg twins' references.

``asc_abs_sub``, ``asc_axpy``, ``asc_madd`` (``Reg.MulDstAdd``), ``asc_exp_sub`` /
``asc_exp_sub_v2`` (``Reg.ExpSub`` with RegLayout ZERO / ONE), ``asc_mull``, ``asc_addc``,
``asc_subc`` and the carry overloads of ``asc_add`` / ``asc_sub``: every legal dtype of each
row, random lanes and masks, the per-lane references of ``reference.compound``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import float32_t, half, uint32_t
from ascreg._spec import SPECS
from ascreg.errors import IllegalDtypeError
from reference.common import from_bits, lane_count, mask_stride, zeroing
from reference.compound import (
    MULTIPLY_ADDS,
    abs_sub_lane,
    carry_lane,
    exp_sub_lane,
    mull_lane,
)
from reference.masks import lanes_to_mask, mask_to_lanes
from strategies import (
    assert_same_lanes,
    lane_bits,
    make_mask,
    mask_bits,
    mask_list,
    reg_bits,
    scalar_bits,
)

FEWER = settings(max_examples=max(4, settings.default.max_examples // 4))


def _vector(dtype: Any, bits: list[int] | None = None) -> Any:
    reg = C.vector_of(dtype)()
    if bits is not None:
        reg.set(from_bits(bits, dtype))
    return reg


def _params(*names: str) -> list[Any]:
    return [
        pytest.param(name, combo[-1], id=f"{name}-{combo[-1].cpp_name}")
        for name in names
        for combo in SPECS[name].combos
    ]


THREE = ("asc_abs_sub", "asc_madd")


@pytest.mark.rows(*THREE, "asc_axpy")
@pytest.mark.parametrize(("name", "dtype"), _params(*THREE, "asc_axpy"))
@FEWER
@given(data=st.data())
def test_abs_sub_and_multiply_adds(name: str, dtype: Any, data: Any) -> None:
    lanes = lane_count(dtype)
    a, b, old = (data.draw(lane_bits(dtype, lanes)) for _ in range(3))
    mbits = data.draw(mask_bits())
    dst = _vector(dtype, old)
    family = SPECS[name].family
    if name == "asc_axpy":
        s = scalar_bits(data, dtype)
        C.asc_axpy(dst, _vector(dtype, a), from_bits([s], dtype)[0], make_mask(mbits))
        want = [MULTIPLY_ADDS[family](x, s, z, dtype) for x, z in zip(a, old, strict=True)]
    else:
        getattr(C, name)(dst, _vector(dtype, a), _vector(dtype, b), make_mask(mbits))
        if family == "AbsSub":
            want = [abs_sub_lane(x, y, dtype) for x, y in zip(a, b, strict=True)]
        else:
            f = MULTIPLY_ADDS[family]
            want = [f(x, y, z, dtype) for x, y, z in zip(a, b, old, strict=True)]
    active = mask_to_lanes(mbits, lanes, mask_stride(dtype))
    assert_same_lanes(reg_bits(dst), zeroing(want, active), dtype)


@pytest.mark.rows("asc_exp_sub", "asc_exp_sub_v2")
@pytest.mark.parametrize(("name", "src"), _params("asc_exp_sub", "asc_exp_sub_v2"))
@FEWER
@given(data=st.data())
def test_exp_sub(name: str, src: Any, data: Any) -> None:
    """asc_exp_sub reads the even half lanes, asc_exp_sub_v2 the odd ones (RegLayout ZERO/ONE)."""
    a, b = (data.draw(lane_bits(src, lane_count(src))) for _ in range(2))
    mbits = data.draw(mask_bits())
    dst = _vector(float32_t)
    getattr(C, name)(dst, _vector(src, a), _vector(src, b), make_mask(mbits))
    part = 1 if name.endswith("_v2") else 0
    if src is half:
        active, picks = mask_to_lanes(mbits, 128, 2), [2 * i + part for i in range(64)]
    else:
        active, picks = mask_to_lanes(mbits, 64, 4), list(range(64))
    want = [exp_sub_lane(a[k], b[k], src) if active[k] else 0 for k in picks]
    assert_same_lanes(reg_bits(dst), want, float32_t)


@pytest.mark.rows("asc_mull")
@pytest.mark.parametrize(("name", "dtype"), _params("asc_mull"))
@FEWER
@given(data=st.data())
def test_mull(name: str, dtype: Any, data: Any) -> None:
    a, b = data.draw(lane_bits(dtype, 64)), data.draw(lane_bits(dtype, 64))
    mbits = data.draw(mask_bits())
    low, high = _vector(dtype), _vector(dtype)
    C.asc_mull(low, high, _vector(dtype, a), _vector(dtype, b), make_mask(mbits))
    active = mask_to_lanes(mbits, 64, 4)
    pairs = [mull_lane(x, y, dtype) for x, y in zip(a, b, strict=True)]
    assert reg_bits(low) == zeroing([p[0] for p in pairs], active)
    assert reg_bits(high) == zeroing([p[1] for p in pairs], active)


CARRY = ["asc_addc", "asc_subc", "asc_add", "asc_sub"]


@pytest.mark.rows(*CARRY)
@pytest.mark.parametrize("name", CARRY)
@FEWER
@given(data=st.data())
def test_carry(name: str, data: Any) -> None:
    """asc_addc/asc_subc take carry_src; the asc_add/asc_sub carry overloads carry in 0 / 1."""
    a, b = data.draw(lane_bits(uint32_t, 64)), data.draw(lane_bits(uint32_t, 64))
    mbits, cbits = data.draw(mask_bits()), data.draw(mask_bits())
    dst, carry = _vector(uint32_t), C.vector_bool()
    subtract = "sub" in name
    sources = (_vector(uint32_t, a), _vector(uint32_t, b))
    if name.endswith("c"):
        getattr(C, name)(carry, dst, *sources, make_mask(cbits), make_mask(mbits))
        cin = mask_to_lanes(cbits, 64, 4)
    else:
        getattr(C, name)(carry, dst, *sources, make_mask(mbits))
        cin = [subtract] * 64
    active = mask_to_lanes(mbits, 64, 4)
    pairs = [carry_lane(x, y, int(c), subtract=subtract) for x, y, c in zip(a, b, cin, strict=True)]
    assert reg_bits(dst) == zeroing([p[0] for p in pairs], active)
    assert mask_list(carry) == lanes_to_mask(zeroing([p[1] for p in pairs], active), 4)


def test_the_carry_overload_is_uint32_only() -> None:
    a = _vector(half, [0] * 128)
    with pytest.raises(IllegalDtypeError, match="carry overload takes uint32_t"):
        C.asc_add(C.vector_bool(), _vector(half), a, a, C.asc_create_mask_b16(C.PAT_ALL))

"""C API shifts, compares, select, logic, duplicate, copy and reductions against the reference.

The C functions are the Reg ops under C names (the C API pages restate the same lane rules), so
the Reg references are the expectation: ``reference.shifts``, ``reference.compare``,
``reference.arith`` and the mask-bit operations of ``reference.masks``. Every legal dtype of
every row runs; ``bool_`` is the ``vector_bool`` form of a row.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import bool_
from ascreg._spec import SPECS
from ascreg._spec.dtypes import C_BINARY, C_SCALAR, C_SIGN, C_UNARY
from ascreg.errors import AscregTypeError
from reference.arith import SIGN_LANES, arange, binary, bit_not, scalar_formula
from reference.common import (
    SIGNED,
    boundary_bits,
    from_bits,
    lane_count,
    mask_stride,
    width,
    zeroing,
)
from reference.compare import compare, select
from reference.elementary import unary_lane
from reference.masks import lanes_to_mask, mask_op, mask_select, mask_to_lanes
from reference.rearrange import mask_pack, mask_unpack, pack, unpack
from reference.reduce import pair_reduce, reduce, reduce_datablock
from reference.shifts import shift_left, shift_right
from strategies import assert_same_lanes, lane_bits, make_mask, mask_bits, mask_list, reg_bits

FEWER = settings(max_examples=max(4, settings.default.max_examples // 5))
SHIFTS = [f"asc_shift{d}{s}" for d in ("right", "left") for s in ("", "_scalar")]
COMPARES = [f"asc_{op}{s}" for op in ("eq", "ne", "lt", "gt", "ge", "le") for s in ("", "_scalar")]


def _params(*names: str) -> list[Any]:
    return [
        pytest.param(name, *combo, id="-".join([name, *(t.cpp_name for t in combo)]))
        for name in names
        for combo in SPECS[name].combos
    ]


def _vector(dtype: Any, bits: list[int] | None = None) -> Any:
    reg = C.vector_of(dtype)()
    if bits is not None:
        reg.set(from_bits(bits, dtype))
    return reg


def _operands(data: Any, dtype: Any) -> tuple[list[int], list[int], list[int], list[bool]]:
    """Two lane lists (some lanes equal), mask bits and the lanes they enable."""
    lanes = lane_count(dtype)
    a, b = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    same = data.draw(st.binary(min_size=lanes, max_size=lanes))
    b = [x if s % 4 == 0 else y for x, y, s in zip(a, b, same, strict=True)]
    mbits = data.draw(mask_bits())
    return a, b, mbits, mask_to_lanes(mbits, lanes, mask_stride(dtype))


@pytest.mark.rows(
    "asc_shiftright", "asc_shiftright_scalar", "asc_shiftleft", "asc_shiftleft_scalar"
)
@pytest.mark.parametrize(("name", "dtype", "count_type"), _params(*SHIFTS))
@FEWER
@given(data=st.data())
def test_shifts(name: str, dtype: Any, count_type: Any, data: Any) -> None:
    x, _, mbits, active = _operands(data, dtype)
    w = width(dtype)
    counts = data.draw(st.lists(st.integers(0, w + 2), min_size=len(x), max_size=len(x)))
    scalar = name.endswith("_scalar")
    count: Any = counts[0] if scalar else _vector(count_type, counts)
    lane = shift_left if "left" in name else shift_right
    want = zeroing(
        [lane(v, counts[0] if scalar else n, dtype) for v, n in zip(x, counts, strict=True)],
        active,
    )
    func, dst = getattr(C, name), _vector(dtype)
    func(dst, _vector(dtype, x), count, make_mask(mbits))
    assert reg_bits(dst) == want
    assert reg_bits(func(_vector(dtype, x), count, make_mask(mbits))) == want  # returning form


@pytest.mark.rows(
    "asc_eq", "asc_eq_scalar", "asc_ne", "asc_ne_scalar", "asc_lt", "asc_lt_scalar",
    "asc_gt", "asc_gt_scalar", "asc_ge", "asc_ge_scalar", "asc_le", "asc_le_scalar",
)  # fmt: skip
@pytest.mark.parametrize(("name", "dtype"), _params(*COMPARES))
@FEWER
@given(data=st.data())
def test_compares(name: str, dtype: Any, data: Any) -> None:
    a, b, mbits, active = _operands(data, dtype)
    scalar = name.endswith("_scalar")
    if scalar:
        b = [data.draw(st.one_of(st.sampled_from(a), st.sampled_from(boundary_bits(dtype))))]
    out = C.vector_bool()
    other = from_bits(b, dtype)[0] if scalar else _vector(dtype, b)
    getattr(C, name)(out, _vector(dtype, a), other, make_mask(mbits))
    mode = name.removeprefix("asc_").removesuffix("_scalar").upper()
    lanes = compare(mode, dtype, a, b * len(a) if scalar else b, active)
    assert mask_list(out) == lanes_to_mask(lanes, mask_stride(dtype))


@pytest.mark.rows("asc_select", "asc_and", "asc_or", "asc_xor", "asc_not", "asc_copy")
@pytest.mark.parametrize(
    ("name", "dtype"), _params("asc_select", "asc_and", "asc_or", "asc_xor", "asc_not", "asc_copy")
)
@FEWER
@given(data=st.data())
def test_lane_and_bit_operations(name: str, dtype: Any, data: Any) -> None:
    """Select picks, the logic ops zero masked-off lanes, copy merges; on masks, bit by bit."""
    op = name.removeprefix("asc_")
    func = getattr(C, name)
    if dtype is bool_:
        a, b, pred = (data.draw(mask_bits()) for _ in range(3))
        out = C.vector_bool()
        if op == "select":
            func(out, make_mask(a), make_mask(b), make_mask(pred))
            assert mask_list(out) == mask_select(a, b, pred)
            return
        args = [make_mask(a)] if op in ("not", "copy") else [make_mask(a), make_mask(b)]
        func(out, *args, make_mask(pred))
        kind = {"copy": "Move"}.get(op, op.capitalize())
        assert mask_list(out) == mask_op(kind, a, None if op in ("not", "copy") else b, pred)
        return
    a, b, mbits, active = _operands(data, dtype)
    dst = _vector(dtype, data.draw(lane_bits(dtype, lane_count(dtype))))
    old = reg_bits(dst)
    if op == "select":
        func(dst, _vector(dtype, a), _vector(dtype, b), make_mask(mbits))
        want = select(a, b, active)
    elif op == "copy":
        func(dst, _vector(dtype, a), make_mask(mbits))
        want = [x if on else o for x, o, on in zip(a, old, active, strict=True)]  # MERGING
    elif op == "not":
        func(dst, _vector(dtype, a), make_mask(mbits))
        want = zeroing([bit_not(x, dtype) for x in a], active)
    else:
        func(dst, _vector(dtype, a), _vector(dtype, b), make_mask(mbits))
        want = zeroing(
            [binary(op.capitalize(), dtype, x, y) for x, y in zip(a, b, strict=True)], active
        )
    assert reg_bits(dst) == want  # bit-exact: NaN payloads and signed zeros survive


BINARY_ARITHMETIC = [f"asc_{op}" for op in C_BINARY]


@pytest.mark.rows(*BINARY_ARITHMETIC)
@pytest.mark.parametrize(("name", "dtype"), _params(*BINARY_ARITHMETIC))
@FEWER
@given(data=st.data())
def test_binary_arithmetic(name: str, dtype: Any, data: Any) -> None:
    """The element-wise arithmetic functions follow their Reg twin's reference; masked-off 0."""
    a, b, mbits, active = _operands(data, dtype)
    dst = _vector(dtype, data.draw(lane_bits(dtype, lane_count(dtype))))
    getattr(C, name)(dst, _vector(dtype, a), _vector(dtype, b), make_mask(mbits))
    family = SPECS[name].family
    want = zeroing([binary(family, dtype, x, y) for x, y in zip(a, b, strict=True)], active)
    assert_same_lanes(reg_bits(dst), want, dtype)  # a NaN result matches any NaN payload


@pytest.mark.rows("asc_duplicate_scalar", "asc_duplicate")
@pytest.mark.parametrize(("name", "dtype"), _params("asc_duplicate_scalar", "asc_duplicate"))
@FEWER
@given(data=st.data())
def test_duplicate(name: str, dtype: Any, data: Any) -> None:
    """Every enabled lane gets the value (the scalar, or lane 0 of the source); others 0."""
    src, _, mbits, active = _operands(data, dtype)
    value = src[0]
    dst = _vector(dtype, src)
    if name == "asc_duplicate":
        C.asc_duplicate(dst, _vector(dtype, src), make_mask(mbits))
    else:
        C.asc_duplicate_scalar(dst, from_bits([value], dtype)[0], make_mask(mbits))
    assert_same_lanes(reg_bits(dst), zeroing([value] * len(src), active), dtype)


UNARY_ARITHMETIC = [f"asc_{op}" for op in C_UNARY]


@pytest.mark.rows(*UNARY_ARITHMETIC)
@pytest.mark.parametrize(("name", "dtype"), _params(*UNARY_ARITHMETIC))
@FEWER
@given(data=st.data())
def test_unary_arithmetic(name: str, dtype: Any, data: Any) -> None:
    """asc_exp/ln/sqrt: correctly rounded, subnormals flushed (the Reg default mode)."""
    a, _, mbits, active = _operands(data, dtype)
    dst = _vector(dtype, data.draw(lane_bits(dtype, lane_count(dtype))))
    getattr(C, name)(dst, _vector(dtype, a), make_mask(mbits))
    want = zeroing([unary_lane(SPECS[name].family, x, dtype) for x in a], active)
    assert_same_lanes(reg_bits(dst), want, dtype)


SIGN = [f"asc_{op}" for op in C_SIGN]


@pytest.mark.rows(*SIGN)
@pytest.mark.parametrize(("name", "dtype"), _params(*SIGN))
@FEWER
@given(data=st.data())
def test_sign_ops(name: str, dtype: Any, data: Any) -> None:
    """asc_abs/neg/relu: exact lane formulas (sign bits kept bit-exact); masked-off lanes 0."""
    a, _, mbits, active = _operands(data, dtype)
    dst = _vector(dtype, data.draw(lane_bits(dtype, lane_count(dtype))))
    getattr(C, name)(dst, _vector(dtype, a), make_mask(mbits))
    want = zeroing([SIGN_LANES[SPECS[name].family](x, dtype) for x in a], active)
    assert_same_lanes(reg_bits(dst), want, dtype)


SCALAR_FORMS = [*(f"asc_{op}_scalar" for op in C_SCALAR), "asc_leakyrelu"]


@pytest.mark.rows(*SCALAR_FORMS)
@pytest.mark.parametrize(("name", "dtype"), _params(*SCALAR_FORMS))
@FEWER
@given(data=st.data())
def test_scalar_arithmetic(name: str, dtype: Any, data: Any) -> None:
    """asc_<op>_scalar: the binary reference with every src1 lane the scalar; masked-off 0."""
    a, b, mbits, active = _operands(data, dtype)
    value = b[data.draw(st.integers(0, len(b) - 1))]
    dst = _vector(dtype, data.draw(lane_bits(dtype, lane_count(dtype))))
    getattr(C, name)(dst, _vector(dtype, a), from_bits([value], dtype)[0], make_mask(mbits))
    family = scalar_formula(SPECS[name].family)
    want = zeroing([binary(family, dtype, x, value) for x in a], active)
    assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.rows("asc_arange", "asc_arange_descend")
@pytest.mark.parametrize(("name", "dtype"), _params("asc_arange", "asc_arange_descend"))
@FEWER
@given(data=st.data())
def test_arange(name: str, dtype: Any, data: Any) -> None:
    """asc_arange[_descend]: lane i = value + i (value + VL_T - 1 - i); no mask."""
    start = data.draw(lane_bits(dtype, 1))[0]
    dst = _vector(dtype)
    getattr(C, name)(dst, from_bits([start], dtype)[0])
    lanes = lane_count(dtype)
    want = arange(dtype, start, lanes, name.endswith("_descend"), lanes)
    assert_same_lanes(reg_bits(dst), want, dtype)


def test_scalar_form_rejects_a_register_and_names_the_vector_twin() -> None:
    reg = C.vector_float()
    reg.set(1.0)
    with pytest.raises(AscregTypeError, match=r"asc_mul_scalar takes a scalar.*use asc_mul"):
        C.asc_mul_scalar(C.vector_float(), reg, reg, C.asc_create_mask_b32(C.PAT_ALL))


BLOCK_REDUCES = {f"asc_reduce_{kind.lower()}_datablock": kind for kind in ("SUM", "MAX", "MIN")}
REDUCES = {f"c_api.asc_reduce_{kind.lower()}": kind for kind in ("SUM", "MAX", "MIN")}


@pytest.mark.rows(*REDUCES)
@pytest.mark.parametrize(("row", "dst_t", "src_t"), _params(*REDUCES))
@FEWER
@given(st.data())
def test_reduce(row: str, dst_t: Any, src_t: Any, data: Any) -> None:
    """asc_reduce_{sum,max,min}: Reg.Reduce's reference (lane 0 the result, lane 1 the index)."""
    lanes = lane_count(src_t)
    values = data.draw(lane_bits(src_t, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, mask_stride(src_t))
    dst = _vector(dst_t)
    function = getattr(C, SPECS[row].spelling)
    assert function(dst, _vector(src_t, values), make_mask(mbits)) is None
    want = reduce(REDUCES[row], dst_t, src_t, values, active, lane_count(dst_t))
    assert_same_lanes(reg_bits(dst), want, dst_t)


@pytest.mark.rows(*BLOCK_REDUCES, "asc_pair_reduce_sum")
@pytest.mark.parametrize(("name", "dst_t", "src_t"), _params(*BLOCK_REDUCES, "asc_pair_reduce_sum"))
@FEWER
@given(st.data())
def test_reductions(name: str, dst_t: Any, src_t: Any, data: Any) -> None:
    lanes = lane_count(src_t)
    values = data.draw(lane_bits(src_t, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, mask_stride(src_t))
    dst = _vector(dst_t)
    assert getattr(C, name)(dst, _vector(src_t, values), make_mask(mbits)) is None
    if name in BLOCK_REDUCES:
        want = reduce_datablock(
            BLOCK_REDUCES[name], dst_t, src_t, values, active, lane_count(dst_t)
        )
    else:
        want = pair_reduce(src_t, values, active)
    assert_same_lanes(reg_bits(dst), want, dst_t)


PACKS = ("asc_pack_to_low", "asc_pack_to_high", "asc_unpack_lower", "asc_unpack_upper")


@pytest.mark.rows(*PACKS)
@pytest.mark.parametrize(("name", "dst_t", "src_t"), _params(*PACKS))
@FEWER
@given(st.data())
def test_pack_unpack(name: str, dst_t: Any, src_t: Any, data: Any) -> None:
    high = name.endswith(("high", "upper"))
    if src_t is bool_:
        bits = data.draw(mask_bits())
        out = C.vector_bool()
        getattr(C, name)(out, make_mask(bits))
        ref = mask_pack if "pack_to" in name else mask_unpack
        assert mask_list(out) == ref(bits, high)
        return
    values = data.draw(lane_bits(src_t, lane_count(src_t)))
    dst = _vector(dst_t)
    assert getattr(C, name)(dst, _vector(src_t, values)) is None
    sizes = (width(src_t), width(dst_t), lane_count(dst_t), high)
    want = pack(values, *sizes) if "pack_to" in name else unpack(values, *sizes, src_t in SIGNED)
    assert reg_bits(dst) == want

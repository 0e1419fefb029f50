"""Tiling template programming (ascreg.machine.tiling_template): the key encoding of
template_argument.cpp, its inverse, and the module-scoped declarations."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.tiling_template import *

DECLARED = st.lists(
    st.one_of(
        st.tuples(
            st.just("uint"), st.lists(st.integers(0, 500), min_size=1, max_size=6, unique=True)
        ),
        st.tuples(st.just("bool"), st.just([0, 1])),
        st.tuples(
            st.just("dtype"), st.lists(st.integers(0, 255), min_size=1, max_size=4, unique=True)
        ),
    ),
    min_size=1,
    max_size=5,
)


def _decl(i: int, kind: str, values: list[int]) -> Any:
    name = f"p{i}"
    if kind == "uint":
        return ASCENDC_TPL_UINT_DECL(name, 3, ASCENDC_TPL_UI_LIST, *values)
    if kind == "bool":
        return ASCENDC_TPL_BOOL_DECL(name, *values)
    return ASCENDC_TPL_DTYPE_DECL(name, *values)


def _sel(i: int, kind: str, values: list[int]) -> Any:
    name = f"p{i}"
    if kind == "uint":
        return ASCENDC_TPL_UINT_SEL(name, ASCENDC_TPL_UI_LIST, *values)
    if kind == "bool":
        return ASCENDC_TPL_BOOL_SEL(name, *values)
    return ASCENDC_TPL_DTYPE_SEL(name, *values)


@settings(max_examples=60)
@given(spec=DECLARED, data=st.data())
def test_keys_pack_the_fields_and_decode_back(spec: Any, data: Any) -> None:
    declare = [_decl(i, k, v) for i, (k, v) in enumerate(spec)]
    select = [[_sel(i, k, v) for i, (k, v) in enumerate(spec)]]
    values = [data.draw(st.sampled_from(v)) for _, v in spec]
    key = EncodeTilingKey(declare, select, values)
    expected, shift = 0, 0
    for (kind, legal), value in zip(spec, values, strict=True):
        code = legal.index(value) if kind == "uint" else value
        expected |= code << shift
        shift += {"uint": 3, "bool": 1, "dtype": 8}[kind]
    assert key == expected
    assert DecodeTilingKey(declare, key) == tuple(values)


def test_ranges_and_mixes_expand_as_the_page_says() -> None:
    assert ASCENDC_TPL_UINT_DECL("a", 4, ASCENDC_TPL_UI_RANGE, 2, 0, 2, 3, 5).values() == (
        0,
        1,
        2,
        3,
        4,
        5,
    )
    mixed = ASCENDC_TPL_UINT_DECL("a", 4, ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 10, 12, 13, 9, 8)
    assert mixed.values() == (0, 1, 2, 3, 4, 5, 10, 12, 13, 9, 8)
    with pytest.raises(AscregError, match="duplicate"):
        ASCENDC_TPL_UINT_DECL("a", 4, ASCENDC_TPL_UI_LIST, 1, 1).values()
    with pytest.raises(AscregError, match="mode 7"):
        ASCENDC_TPL_UINT_DECL("a", 4, 7, 1).values()


def test_the_module_declarations_drive_get_tpl_tiling_key() -> None:
    ASCENDC_TPL_ARGS_DECL(
        "Op",
        ASCENDC_TPL_UINT_DECL("mode", 2, ASCENDC_TPL_UI_LIST, 4, 6, 8),
        ASCENDC_TPL_BOOL_DECL("flag", 0, 1),
        ASCENDC_TPL_KERNEL_TYPE_DECL("kt", ASCENDC_TPL_AIV_ONLY, ASCENDC_TPL_MIX_AIC_1_2),
    )
    ASCENDC_TPL_SEL(
        ASCENDC_TPL_ARGS_SEL(
            ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
            ASCENDC_TPL_UINT_SEL("mode", ASCENDC_TPL_UI_LIST, 4, 8),
            ASCENDC_TPL_BOOL_SEL("flag", 1),
            ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL("kt", ASCENDC_TPL_MIX_AIC_1_2),
            ASCENDC_TPL_TILING_STRUCT_SEL("SomeTiling"),
        )
    )
    key = GET_TPL_TILING_KEY(8, 1, ASCENDC_TPL_MIX_AIC_1_2)
    assert key == 2 | 1 << 2 | 7 << 3
    assert DecodeTilingKey(globals()["g_tilingDeclareParams"], key) == (8, 1, 7)
    with pytest.raises(AscregError, match="no ASCENDC_TPL_ARGS_SEL combination"):
        GET_TPL_TILING_KEY(6, 1, ASCENDC_TPL_MIX_AIC_1_2)
    with pytest.raises(AscregError, match="2 values for the 3 parameters"):
        GET_TPL_TILING_KEY(8, 1)


def test_malformed_declarations_are_reported() -> None:
    declare = [ASCENDC_TPL_BOOL_DECL("b", 0, 1)]
    with pytest.raises(AscregError, match="not declared"):
        EncodeTilingKey(declare, [[ASCENDC_TPL_UINT_SEL("b", ASCENDC_TPL_UI_LIST, 0)]], [0])
    with pytest.raises(AscregError, match="every declared parameter"):
        EncodeTilingKey(
            [*declare, ASCENDC_TPL_BOOL_DECL("c", 0, 1)], [[ASCENDC_TPL_BOOL_SEL("b", 0)]], [0, 0]
        )
    with pytest.raises(AscregTypeError, match="string"):
        ASCENDC_TPL_BOOL_DECL(3, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(AscregTypeError, match="is not a \\*_DECL"):
        ASCENDC_TPL_ARGS_DECL("Op", ASCENDC_TPL_BOOL_SEL("b", 0))
    with pytest.raises(AscregError, match="index 3 is undeclared"):
        DecodeTilingKey([ASCENDC_TPL_UINT_DECL("a", 2, ASCENDC_TPL_UI_LIST, 1, 2)], 3)
    assert ASCENDC_TPL_INPUT(2) == 100000002 and ASCENDC_TPL_OUTPUT(1) == 900000001

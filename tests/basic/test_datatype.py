"""AscendC::DataType / Format: unscoped enums, so their members are ascreg.basic names."""

from __future__ import annotations

import ascreg.basic as basic
from ascreg.basic import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_UINT32, FORMAT_ND, DataType


def test_codes_count_in_declaration_order() -> None:
    assert [DT_FLOAT, DT_FLOAT16, DT_INT32, DT_UINT32, DT_BF16] == [0, 1, 3, 8, 26]
    assert basic.DT_INT16 == 5 and len(DataType) - 1 == basic.DT_MAX
    assert FORMAT_ND == 2 and len(basic.Format) - 1 == basic.FORMAT_MAX


def test_members_are_namespace_names_and_switch_cases() -> None:
    code = int(basic.DT_INT8)
    assert DataType(code) is basic.DT_INT8
    assert {m.name for m in DataType} <= set(basic.__all__)
    assert "FORMAT_NCHW" in basic.__all__


def test_float8_names_are_the_fp8_types() -> None:
    import numpy as np

    from ascreg import float8_e4m3_t, float8_e5m2_t, fp8_e4m3fn_t, fp8_e5m2_t

    assert float8_e4m3_t is fp8_e4m3fn_t and float8_e5m2_t is fp8_e5m2_t
    assert float(float8_e4m3_t(448.0)) == 448.0 and float(float8_e5m2_t(57344.0)) == 57344.0
    assert np.dtype(float8_e4m3_t.np_dtype).itemsize == 1

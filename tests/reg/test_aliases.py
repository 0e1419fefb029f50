"""The older spellings (each row's ``aliases``): bound, exported, documented, and the same op.

``Reg.MaskAnd`` is ``Reg.And``; ``Reg.ReduceSum[T, U]`` is ``Reg.Reduce[ReduceType.SUM, T, U]``
(``impl/basic_api/reg_compute/*_intf_impl.h`` forwards each older name to the same Impl).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from ascreg import MaskMergeMode, ReduceType, Reg, half, int16_t, int32_t, uint16_t
from ascreg._spec import SPECS

ALIASES = [(row, alias) for row in SPECS.values() for alias in row.aliases]


@pytest.mark.parametrize(("row", "alias"), ALIASES, ids=lambda x: getattr(x, "name", x))
def test_alias_is_bound_exported_and_documented(row: object, alias: str) -> None:
    attr = alias.removeprefix("Reg.")
    module = importlib.import_module("ascreg." + row.shape.module.replace("/", "."))
    op = getattr(Reg, row.name.removeprefix("Reg."))
    older = getattr(Reg, attr)
    assert getattr(module, attr) is older and attr in Reg.__all__
    assert f"``{alias}``" in (op.__doc__ or "")
    fixed = dict(row.shape.fixed)
    if alias in fixed:
        assert older.name == op.name and older.t.text() == fixed[alias]
    else:
        assert older is op


def _reduce(op: object, dst_type: object, src_type: object) -> np.ndarray:
    src, dst = Reg.RegTensor[src_type](), Reg.RegTensor[dst_type]()
    src.set(np.arange(src.lanes) % 7)
    op(dst, src, Reg.CreateMask[src_type]())
    return np.asarray(dst).copy()


@pytest.mark.parametrize(
    ("alias", "kind", "dtypes"),
    [
        ("ReduceSum", ReduceType.SUM, (int32_t, int16_t)),
        ("ReduceSum", ReduceType.SUM, (half, half)),
        ("ReduceMax", ReduceType.MAX, (uint16_t, uint16_t)),
        ("ReduceMin", ReduceType.MIN, (half, half)),
    ],
)
def test_reduce_aliases_fix_the_reduce_type(alias: str, kind: object, dtypes: tuple) -> None:
    older, dst_type, src_type = getattr(Reg, alias), *dtypes
    want = _reduce(Reg.Reduce[kind, dst_type, src_type], dst_type, src_type)
    assert np.array_equal(_reduce(older, dst_type, src_type), want)
    sub = older[dst_type, src_type] if dst_type is not src_type else older[dst_type]
    assert np.array_equal(_reduce(sub, dst_type, src_type), want)
    merging = older[dst_type, src_type, MaskMergeMode.ZEROING]
    assert np.array_equal(_reduce(merging, dst_type, src_type), want)


def test_mask_aliases_run_the_mask_forms() -> None:
    a = Reg.CreateMask[int16_t]()
    out = Reg.MaskReg()
    Reg.MaskNot(out, a, a)
    assert out.count() == 0
    Reg.MaskMov(out, a)
    assert out.count() == a.count()

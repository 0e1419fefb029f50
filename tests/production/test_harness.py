"""The production ports' shared pieces fail when they should (tests/production_ports.py)."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import Reg, float32_t, uint32_t
from ascreg.basic import TBufHandle, TQueBind
from production_ports import (
    ClassTemplate,
    _RegisterCast,
    assert_ulp,
    ops,
    stand_ins,
    tail_over_read,
    ulp_distance,
)


def test_assert_ulp_counts_units_in_the_last_place() -> None:
    golden = np.array([1.0, -0.0, np.inf, np.nan], dtype=np.float32)
    out = golden.copy()
    out[0] = np.nextafter(out[0], np.float32(2))
    assert ulp_distance(out, golden).tolist() == [1, 0, 0, 0]
    assert_ulp(out, golden, 1)
    with pytest.raises(AssertionError, match=r"element 0.*1 ulp past the tolerance"):
        assert_ulp(out, golden, 0)
    assert_ulp(np.float32([0.0]), np.float32([1e-40]), 0, atol=1e-38)
    assert ulp_distance(np.float32([-0.0]), np.float32([0.0])).tolist() == [0]
    with pytest.raises(AssertionError):
        assert_ulp(np.float32([-1.0]), np.float32([1.0]), 1000)


def test_stand_ins_fill_only_what_is_missing_and_go_away() -> None:
    namespace: dict[str, object] = {"VECTOR_REG_WIDTH": 128}
    with stand_ins(namespace, extra={"unlikely": "mine"}) as supplied:
        assert namespace["VECTOR_REG_WIDTH"] == 128  # the module's own name stays
        assert "QuePosition" in supplied and namespace["unlikely"] == "mine"
    assert namespace == {"VECTOR_REG_WIDTH": 128}
    assert "EnQue" in TQueBind.__dict__  # the member template stand-in is put back


def test_register_cast_stand_in_copies_the_bytes() -> None:
    source = Reg.RegTensor[float32_t]()
    source.set(np.float32(1.0))
    view = _RegisterCast(Reg.RegTensor)[uint32_t](source)
    assert int(np.asarray(view)[0]) == 0x3F800000


def test_class_template_builds_once_per_argument() -> None:
    made: list[object] = []

    @ClassTemplate
    def Box(T):
        made.append(T)

        class Box:
            kind = T

        return Box

    assert Box[int] is Box[int] and Box[float].kind is float and made == [int, float]


def test_tail_over_read_lets_reads_through_and_keeps_writes_checked() -> None:
    from ascreg import UnifiedBuffer
    from ascreg.errors import OutOfBoundsError

    ub = UnifiedBuffer()
    small, _ = ub.alloc(float32_t, 8), ub.alloc(float32_t, 64)
    with pytest.raises(OutOfBoundsError):
        small.read(64)
    with tail_over_read():
        assert small.read(64).size == 64
        with pytest.raises(OutOfBoundsError):
            small.write(np.zeros(64, np.float32))
    assert ops.CeilDiv(np.uint32(65), np.uint32(64)) == 2 and TBufHandle is not None

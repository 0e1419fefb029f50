"""Batching is a property of the row: a new lane-wise row batches with no line beyond its row.

``ascreg._frontend.rules`` derives the batching rule of a lane-wise row from its data (mask rule,
forms, surface), never from its name; the engine names no op. These tests define throwaway ops
(rows that exist only in the test) and see them batch, or not, by their rows alone.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import Reg, UnifiedBuffer, __simd_vf__, uint16_t
from ascreg._frontend import compute as shared
from ascreg._frontend.rules import ROWS, BatchRule, rule_of
from ascreg._frontend.template import define
from ascreg._spec import SPECS, MaskRule, OpSpec, Param, RegForm, RegShape

TWICE: Any = None
"""The throwaway op the VFs below call (set by each test)."""


def _row(name: str, mask: MaskRule, *params: Param) -> OpSpec:
    shape = RegShape("reg/test", name, f"_{name}", (RegForm("", params),))
    return OpSpec(
        f"Reg.{name}", f"AscendC::Reg::{name}", ("T",), ((uint16_t,),), mask, "test",
        surface="reg", family=name, shape=shape, core="numpy:add",
    )  # fmt: skip


def _twice(op: Any, dst: Any, src: Any, mask: Any) -> None:
    shared.unary(op, dst, src, mask)


def _doubled() -> Any:
    @__simd_vf__
    def doubled(dst: Any, src: Any) -> None:
        r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
        for i in range(8):
            Reg.LoadAlign(r, src + i * 128)
            TWICE(r, r, full)
            Reg.StoreAlign(dst + i * 128, r, full)

    return doubled


def _run(
    caplog: pytest.LogCaptureFixture, vf: Any, *, eager: bool = False
) -> tuple[np.ndarray, list[str]]:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint16_t, 1024), ub.alloc(uint16_t, 1024)
    src.write(np.arange(1024))
    caplog.clear()
    with (
        caplog.at_level(logging.DEBUG, logger="ascreg.batch"),
        ascreg.policy(execution="eager" if eager else "batched"),
    ):
        vf(dst, src)
    return dst.read(1024), [r.getMessage() for r in caplog.records]


def test_a_new_lane_wise_row_batches_with_no_line_beyond_its_row(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    row = _row("TestTwice", MaskRule.ZEROING, Param("dst", "regr"), Param("src", "regr"),
               Param("mask", "mask"))  # fmt: skip
    monkeypatch.setitem(SPECS, row.name, row)
    assert row.lanewise
    twice = define(row.name, formula=staticmethod(lambda x: x + x))(_twice)
    assert twice.batching is ROWS  # derived from the row
    monkeypatch.setitem(globals(), "TWICE", twice)
    vf = _doubled()
    batched, lines = _run(caplog, vf)
    assert any("batched over 8 iterations" in line for line in lines), lines
    eager, _ = _run(caplog, vf, eager=True)
    assert np.array_equal(batched, eager)
    assert batched[:3].tolist() == [0, 2, 4]


def test_a_row_that_is_not_lane_wise_runs_eagerly_unless_it_declares_a_rule(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    row = _row("TestSpread", MaskRule.NONE, Param("dst", "regr"), Param("src", "regr"),
               Param("mask", "mask"))  # fmt: skip
    monkeypatch.setitem(SPECS, row.name, row)
    assert not row.lanewise and rule_of(row, None) is None
    plain = define(row.name, formula=staticmethod(lambda x: x + x))(_twice)
    monkeypatch.setitem(globals(), "TWICE", plain)
    _, lines = _run(caplog, _doubled())
    assert any("Reg.TestSpread is an op with no batching rule" in line for line in lines), lines
    declared = define(row.name, formula=staticmethod(lambda x: x + x), batch=ROWS)(_twice)
    monkeypatch.setitem(globals(), "TWICE", declared)
    batched, lines = _run(caplog, _doubled())
    assert any("batched over 8 iterations" in line for line in lines), lines
    assert batched[:3].tolist() == [0, 2, 4]


def test_a_declared_rule_decides_the_form() -> None:
    seen: list[tuple[Any, ...]] = []

    def admit(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
        seen.append(args)
        return None

    rule = BatchRule("never", "no form batches", admit)
    assert "never" in repr(rule)
    assert rule_of(SPECS["Reg.Add"], rule) is rule

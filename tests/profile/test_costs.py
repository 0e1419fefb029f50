"""The dav-3510 cost table: its figures and their provenance, overrides, and fitting."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ascreg.errors import AscregError
from ascreg.profile import DAV_3510, Cost, CostTable, Sample, fit_costs, samples_from_trace
from ascreg.profile.costs import ESTIMATE
from profile_kernels import any_table, record

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ("asc-devkit docs/zh/api/", "PyPTO cost model")


def test_every_entry_says_where_it_comes_from() -> None:
    for key, cost in DAV_3510.items():
        assert cost.source.startswith((*PUBLISHED, ESTIMATE)), key
        assert cost.issue >= 0 and cost.per_unit >= 0 and math.isfinite(cost.cycles(1))
    estimates = sorted(k for k, c in DAV_3510.items() if c.source.startswith(ESTIMATE))
    assert estimates == ["issue", "simt", "vector", "vf_call"]


@pytest.mark.parametrize(
    ("name", "family", "dtype", "cycles"),
    [
        ("Add", "Add", "float", 1.0),  # 64 elements/cycle, 64 floats a repeat
        ("Add", "Add", "int32_t", 2.0),  # 32 elements/cycle
        ("Exp", "Exp", "float", 4.0),  # 16 elements/cycle
        ("Div", "Div", "half", 8.0),  # 128 halves a repeat, 16 elements/cycle
        ("Max", "Max", "int8_t", 1.0),  # 256 elements/cycle
        ("LoadAlign", "LoadAlign", "float", 1.0),  # b32: 64 elements/cycle
        ("LoadAlign.strided", "LoadAlign", "half", 2.0),  # non-contiguous b16: 64/cycle
        ("Cast", "Cast", "int64_t", 4.0),  # float -> int64_t: 16 elements/cycle
        ("asc_add_scalar", "Adds", "half", 2.0),  # the C API's own figure (64/cycle)
        ("Select", "Select", "mask", 1.0),  # a MaskReg select: 1 cycle
        ("Squeeze", "Squeeze", "float", 5.0),  # 12.8 elements/cycle
        ("Mystery", "Mystery", "float", 1.0),  # not in the table: the estimate
    ],
)
def test_vector_costs(name: str, family: str, dtype: str, cycles: float) -> None:
    assert DAV_3510.vector_cost(name, family, dtype).cycles(1) == pytest.approx(cycles)


def test_copy_and_flag_costs() -> None:
    mte2, mte3 = DAV_3510["MTE2"], DAV_3510["MTE3"]
    assert (mte2.issue, mte3.issue) == (1406.0, 305.0)  # PyPTO: GM latency + fit intercept
    assert 1 / mte2.per_unit == pytest.approx(95.7, abs=0.1)  # bytes a cycle
    assert 1 / mte3.per_unit == pytest.approx(76.0, abs=0.1)
    assert (DAV_3510["set_flag"].issue, DAV_3510["wait_flag"].issue) == (1.0, 1.0)
    assert DAV_3510.clock_ghz == 1.6


def test_override_makes_a_new_table() -> None:
    table = DAV_3510.override({"MTE2": Cost(1, 0.5, "measured")}, clock_ghz=1.0)
    assert table["MTE2"] == Cost(1, 0.5, "measured") != DAV_3510["MTE2"]
    assert (table.clock_ghz, table.clock_source, DAV_3510.clock_ghz) == (1.0, "given", 1.6)
    with pytest.raises(AscregError, match="maps a str key to a Cost"):
        DAV_3510.override({"MTE2": 3})  # type: ignore[dict-item]
    with pytest.raises(AscregError, match="has no entry 'nothing'"):
        DAV_3510["nothing"]
    with pytest.raises(AscregError, match=r"Cost.per_unit is -1.0"):
        Cost(0, -1)


def test_a_table_fitted_to_a_trace_predicts_it() -> None:
    truth = any_table({"MTE2": (300.0, 0.25), "MTE3": (80.0, 0.5), "Add:float": (0.0, 3.0)})
    measured = record(6, 2).with_costs(truth)
    samples = samples_from_trace(measured.trace(), clock_ghz=truth.clock_ghz)
    fitted = fit_costs(DAV_3510, samples)
    assert fitted.name == "dav-3510 (fitted)" and fitted["MTE2"].source.startswith("fitted to 6")
    for key in ("MTE2", "MTE3", "Add:float", "LoadAlign:b32", "issue"):
        for sample in (s for s in samples if s.key == key):
            estimate = fitted[key].issue * sample.count + fitted[key].per_unit * sample.units
            assert estimate == pytest.approx(sample.cycles, rel=1e-6, abs=1e-6), key
    assert measured.with_costs(fitted).makespan == pytest.approx(measured.makespan)


def test_fitting_two_sizes_recovers_both_figures() -> None:
    samples = [Sample("MTE2", 1, units, 200 + units / 64) for units in (1024, 4096, 16384)]
    fitted = fit_costs(DAV_3510, samples)["MTE2"]
    assert (fitted.issue, fitted.per_unit) == pytest.approx((200, 1 / 64))
    with pytest.raises(AscregError, match="no samples"):
        fit_costs(DAV_3510, [])


def test_a_table_is_a_mapping() -> None:
    table = CostTable("t", 2.0, "here", {"MTE2": Cost(1)})
    assert dict(table) == {"MTE2": Cost(1)} and len(table) == 1 and "MTE2" in table


@pytest.mark.skipif(
    not os.environ.get("ASC_DEVKIT"), reason="set ASC_DEVKIT to an asc-devkit checkout"
)
def test_the_generated_table_is_up_to_date() -> None:
    tool = ROOT / "tools" / "gen_cost_table.py"
    subprocess.run([sys.executable, str(tool), os.environ["ASC_DEVKIT"], "--check"], check=True)


def test_a_table_prints_in_one_short_line() -> None:
    """The entries' full repr is ~100 KB; printed in a REPL or a signature it must not be."""
    text = repr(DAV_3510)
    assert text == f"<CostTable 'dav-3510': {len(DAV_3510)} entries, 1.6 GHz>"

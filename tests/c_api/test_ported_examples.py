"""asc-devkit C API examples ported line for line (src/ascreg/examples/c_api_*.py).

Sources: ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/<name>/<name>.asc`` with their
``scripts/gen_data.py``, for select, duplicate, abs, mul, muls, div, arange, compare, mergemode,
reduce, reduce_block and reduce_pair; the register-based intro add
(``00_introduction/04_reg_base_add_compute/c_api_simd_add``). Each port must fail on a wrong result: the negative checks swap the op a kernel calls
for a wrong one and expect ``[Failed]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import float32_t
from ascreg.errors import OutOfBoundsError
from ascreg.examples import (
    c_api_abs,
    c_api_arange,
    c_api_compare,
    c_api_div,
    c_api_duplicate,
    c_api_mergemode,
    c_api_mul,
    c_api_muls,
    c_api_reduce,
    c_api_reduce_block,
    c_api_reduce_pair,
    c_api_select,
    c_api_simd_add,
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_select_matches_the_golden_of_gen_data(seed: int) -> None:
    x, y, mask, golden = c_api_select.gen_golden_data_simple(np.random.default_rng(seed))
    assert np.array_equal(c_api_select.kernel_select(x, y, mask), golden.reshape(-1))


def test_duplicate_fills_with_the_c_float() -> None:
    out = c_api_duplicate.kernel_duplicate(float32_t(3.14))
    assert out.dtype == np.float32 and np.array_equal(out, np.full(256, np.float32(3.14)))


PORTS = [
    c_api_abs, c_api_mul, c_api_muls, c_api_div, c_api_arange, c_api_compare, c_api_mergemode,
    c_api_reduce, c_api_reduce_block, c_api_reduce_pair, c_api_simd_add,
]  # fmt: skip


@pytest.mark.parametrize("module", PORTS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_port_prints_success(module: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert module.main() is True
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("[Success]")


WRONG_OPS = {
    c_api_abs: ("asc_abs", C.asc_neg),
    c_api_mul: ("asc_mul", C.asc_add),
    c_api_muls: ("asc_mul_scalar", C.asc_add_scalar),  # x + 2 == x * 2 only at x = 2
    c_api_div: ("asc_div", C.asc_mul),
    c_api_arange: ("asc_arange", C.asc_arange_descend),
    c_api_compare: ("asc_select", lambda d, a, b, m: C.asc_select(d, b, a, m)),
    c_api_mergemode: ("asc_copy", lambda d, s, m: None),  # the copy never happens
    c_api_reduce: ("asc_reduce_sum", C.asc_reduce_max),
    c_api_reduce_block: ("asc_reduce_sum_datablock", C.asc_reduce_max_datablock),
    c_api_reduce_pair: ("asc_pair_reduce_sum", C.asc_reduce_sum_datablock),
    c_api_simd_add: ("asc_add", C.asc_sub),
}


@pytest.mark.parametrize("module", PORTS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_port_fails_on_a_wrong_result(
    module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The negative check: the kernel with a wrong op prints [Failed] and main returns False."""
    name, wrong = WRONG_OPS[module]
    monkeypatch.setattr(module, name, wrong)
    assert module.main() is False
    assert capsys.readouterr().out.startswith("[Failed]")


@pytest.mark.parametrize("seed", [1, 2])
def test_abs_mul_mergemode_on_more_gen_data_seeds(seed: int) -> None:
    x, golden = c_api_abs.gen_golden_data_simple(np.random.default_rng(seed))
    assert c_api_abs.verify_result(c_api_abs.kernel_abs(x), golden)
    x, y, golden = c_api_mul.gen_golden_data(np.random.default_rng(seed))
    assert c_api_mul.verify_result(c_api_mul.kernel_mul(x, y), golden)
    x, y, golden = c_api_mergemode.gen_golden_data_simple(np.random.default_rng(seed))
    assert c_api_mergemode.verify_result(c_api_mergemode.kernel_mergemode(x, y), golden)


def test_muls_on_its_gen_data() -> None:
    x, scalar, golden = c_api_muls.gen_golden_data_simple(np.random.default_rng(3))
    assert c_api_muls.verify_result(c_api_muls.kernel_muls(x, scalar), golden)


def test_muls_verbatim_reads_past_its_ub_array() -> None:
    """The C++ loads a whole register (64 floats) from the 32-float ``x_local`` (issue 25).

    Legal on the chip: the lanes past the array are undefined, and masked off by the store.
    """
    assert c_api_muls.LOAD_SLACK == 0
    x = np.arange(256, dtype=np.float32)
    assert c_api_muls.kernel_muls(x, float32_t(2.0)).tolist() == (x * 2).tolist()


def test_div_ulp_check_is_the_cpp_one() -> None:
    one = np.float32(1.0)
    next_up = np.nextafter(one, np.float32(2.0))
    assert c_api_div.calc_ulp_diff(one, next_up) == 1
    assert c_api_div.calc_ulp_diff(np.float32(0.0), np.float32(-0.0)) == 0
    assert c_api_div.calc_ulp_diff(one, -one) == 0xFFFFFFFF
    assert not c_api_div.verify_result(np.array([one]), np.array([np.nextafter(next_up, 2)]))


def test_div_gen_data_subnormal_patterns_are_flushed() -> None:
    """Finding: gen_data.py's golden keeps subnormals; asc_div (flushing mode) does not.

    The C++ main never reads those files. Every one of the five patterns has a subnormal
    operand or result, so none holds: N/N=S gives +0, N/S reads the divisor as 0 (inf),
    S/N and S/S read the dividend as 0 (0 and NaN).
    """
    x, y, golden = c_api_div.gen_golden_data()
    out = c_api_div.kernel_div(x, y)
    assert not c_api_div.verify_result(out, golden)
    first = out[:5].tolist()
    assert first[0] == 0.0 and first[1] == np.inf and first[2:4] == [0.0, 0.0]
    assert np.isnan(first[4])


@pytest.mark.parametrize("scenario", [1, 2])
def test_compare_scenarios_on_more_seeds(scenario: int) -> None:
    for seed in (5, 6):
        x, y, golden = c_api_compare.gen_golden_data_simple(np.random.default_rng(seed), scenario)
        assert c_api_compare.verify_result(c_api_compare.kernel_compare(x, y, scenario), golden)


def _tree_sum(values: Any) -> Any:
    """A 64-lane register summed as asc_reduce_sum does: pairs (0, 1), (2, 3), ... in float32."""
    while values.size > 1:
        values = (values[0::2] + values[1::2]).astype(np.float32)
    return values[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reduce_is_the_tree_sum_of_each_repeat_accumulated_in_float(seed: int) -> None:
    """Beyond the example's 1e-4 check: lane 0 is bit-exact, the other 7 floats are 0."""
    x, _ = c_api_reduce.gen_golden_data_simple(np.random.default_rng(seed))
    acc = np.float32(0)
    for repeat in x.reshape(4, 64):
        acc = np.float32(acc + _tree_sum(repeat))
    out = c_api_reduce.kernel_reduce(x.reshape(-1))
    assert out[0] == acc and not out[1:].any()


def test_reduce_verbatim_stores_past_its_8_float_array(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C++ stores a whole register (64 floats) into ``y_local[8]``; ascreg says where."""
    monkeypatch.setattr(c_api_reduce, "STORE_SLACK", 0)
    x, _ = c_api_reduce.gen_golden_data_simple(np.random.default_rng(0))
    with pytest.raises(OutOfBoundsError, match=r"asc_storealign: writes 256 bytes .*float\[8\]"):
        c_api_reduce.kernel_reduce(x.reshape(-1))


@pytest.mark.parametrize("seed", [1, 2])
def test_reduce_block_and_pair_on_more_gen_data_seeds(seed: int) -> None:
    for module, kernel in (
        (c_api_reduce_block, c_api_reduce_block.kernel_reduce_block),
        (c_api_reduce_pair, c_api_reduce_pair.kernel_reduce_pair),
    ):
        x, golden = module.gen_golden_data_simple(np.random.default_rng(seed))
        assert module.verify_result(kernel(x.reshape(-1)), golden)

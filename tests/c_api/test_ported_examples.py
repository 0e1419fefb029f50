"""asc-devkit C API examples ported line for line (src/ascreg/examples/c_api_*.py).

Sources: ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/select/select.asc`` and
``.../duplicate/duplicate.asc`` with their ``scripts/gen_data.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import float32_t
from ascreg.examples import c_api_duplicate, c_api_select


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_select_matches_the_golden_of_gen_data(seed: int) -> None:
    x, y, mask, golden = c_api_select.gen_golden_data_simple(np.random.default_rng(seed))
    assert np.array_equal(c_api_select.kernel_select(x, y, mask), golden.reshape(-1))


def test_duplicate_fills_with_the_c_float() -> None:
    out = c_api_duplicate.kernel_duplicate(float32_t(3.14))
    assert out.dtype == np.float32 and np.array_equal(out, np.full(256, np.float32(3.14)))

"""``ascreg.testing.assert_ulp_close``: ulp distances, zeros, NaNs, infinities, integers."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import bfloat16_t, half
from ascreg.testing import assert_ulp_close


def test_neighbours_are_one_ulp_apart() -> None:
    x = np.float32([1.0, -1.0, 1e-45, 3.4028235e38])
    with np.errstate(over="ignore"):
        up = np.nextafter(x, np.float32(np.inf))
    assert_ulp_close(x, up, ulp=1)
    with pytest.raises(AssertionError, match="4 of 4 lanes"):
        assert_ulp_close(x, up, ulp=0)


def test_across_zero_and_to_infinity() -> None:
    tiny = np.float32(1e-45)
    assert_ulp_close(np.float32([tiny, 0.0]), np.float32([-tiny, -0.0]), ulp=2)
    with pytest.raises(AssertionError, match="2 ulp"):
        assert_ulp_close(np.float32([tiny]), np.float32([-tiny]), ulp=1)
    assert_ulp_close(np.float16([65504.0]), np.float16([np.inf]), ulp=1)


def test_nan_matches_only_nan() -> None:
    assert_ulp_close([np.nan], [np.nan], dtype=half)
    with pytest.raises(AssertionError, match="NaN vs number"):
        assert_ulp_close(np.float32([np.nan]), np.float32([1.0]), ulp=1000)


def test_bfloat16_and_integers() -> None:
    assert_ulp_close([1.0], [1.0078125], dtype=bfloat16_t)  # one bfloat16 ulp above 1
    assert_ulp_close(np.int32([5, -3]), np.int32([5, -3]))
    with pytest.raises(AssertionError, match="lane 1"):
        assert_ulp_close(np.int32([5, -3]), np.int32([5, -2]))
    with pytest.raises(AssertionError, match="shape/dtype"):
        assert_ulp_close(np.float32([1.0]), np.float16([1.0]))

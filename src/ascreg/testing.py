"""Helpers for tests that compare ascreg with chip output.

ascreg computes Div, Sqrt, Exp and the logarithms correctly rounded; the chip's intrinsics are
documented to be within 1 ulp. :func:`assert_ulp_close` checks two arrays lane by lane with
such a tolerance.

Examples
--------
>>> import numpy as np
>>> from ascreg.testing import assert_ulp_close
>>> assert_ulp_close(np.float32([1.0, 2.0]), np.float32([1.0000001, 2.0]), ulp=1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import is_scalar_type

__all__ = ["assert_ulp_close"]


def _ordered(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Map float bit patterns onto integers that count ulps (-0 and +0 both map to 0)."""
    bits = values.view(f"i{values.dtype.itemsize}").astype(np.int64)
    sign = np.int64(1) << (8 * values.dtype.itemsize - 1)
    ordered: np.ndarray[Any, Any] = np.where(bits < 0, -(bits & (sign - 1)), bits)
    return ordered


def assert_ulp_close(actual: Any, desired: Any, ulp: int = 1, *, dtype: Any = None) -> None:
    """Assert that *actual* and *desired* differ by at most *ulp* units in the last place.

    Both are array-likes of one float type (half, bfloat16, float32, float64; or pass *dtype*,
    a numpy dtype or an ascreg scalar type such as ``half``, to convert them). Lanes are
    compared as positions on the float line: neighbours differ by one, ``+0`` and ``-0`` are
    equal, the largest finite value and infinity are one apart. A NaN matches only a NaN
    (any payload). Integer arrays must be equal.

    Raises
    ------
    AssertionError
        Naming the first lanes that differ by more, with both values and the distance.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.testing import assert_ulp_close
    >>> assert_ulp_close([0.1, np.nan, -0.0], [0.1, np.nan, 0.0], dtype=half)
    >>> assert_ulp_close(np.float32([1.0]), np.float32([1.0000002]), ulp=1)
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 1 lanes differ by more than 1 ulp; lane 0: 1.0 vs 1.0000002 (2 ulp)
    """
    if dtype is not None:
        dtype = dtype.np_dtype if is_scalar_type(dtype) else np.dtype(dtype)
    a = np.asarray(actual, dtype=dtype)
    d = np.asarray(desired, dtype=dtype)
    if a.shape != d.shape or a.dtype != d.dtype:
        raise AssertionError(f"shape/dtype differ: {a.shape} {a.dtype} vs {d.shape} {d.dtype}")
    if a.dtype.kind in "iub":
        distance = np.abs(a.astype(object) - d.astype(object)).astype(np.float64)
        bad = distance > 0
    else:
        nan_a, nan_d = np.isnan(a), np.isnan(d)
        distance = np.abs(_ordered(a) - _ordered(d)).astype(np.float64)
        distance = np.where(nan_a | nan_d, np.where(nan_a & nan_d, 0, np.inf), distance)
        bad = distance > ulp
    if bad.any():
        first = int(np.flatnonzero(bad.ravel())[0])
        lane = np.unravel_index(first, a.shape) if a.ndim > 1 else first
        gap = distance.ravel()[first]
        raise AssertionError(
            f"{int(bad.sum())} of {a.size} lanes differ by more than {ulp} ulp; lane {lane}: "
            f"{a.ravel()[first]!s} vs {d.ravel()[first]!s} "
            f"({'NaN vs number' if np.isinf(gap) else f'{int(gap)} ulp'})"
        )

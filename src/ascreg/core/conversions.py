"""Lane semantics of the SIMT conversions and bit casts (``__float2int_rn`` ... ``__int_as_float``).

* **float to integer** (``__float2int_*``, ``__float2uint_*``, ``__float2ll_*``,
  ``__float2ull_*``): round to an integral value by the suffix's mode, then saturate at the
  destination's range (``inf`` and values beyond give the maximum, ``-inf`` the minimum, 0 for
  unsigned); NaN gives 0 — the documented special values.
* **integer to float** (``__int2float_*`` ... ``__ull2float_*``): the exact integer rounded once
  to float32 in the suffix's mode. A 64-bit integer is split into two float64 parts whose sum and
  exact error (TwoSum) carry the value, so no double rounding decides a lane.
* **float to integral float** (``__float2float_*``): IEEE roundToIntegral in the mode.
* **bit casts** (``__float_as_int`` ...): the same 32 bits reinterpreted.

Rounding suffixes: ``rn`` nearest, ties to even; ``rz`` toward zero; ``ru`` up; ``rd`` down;
``rna`` nearest, ties away from zero.

Examples
--------
>>> import numpy as np
>>> CONVERSIONS["__float2int_rn"](np.array([1.5, -2.5, np.inf, np.nan], np.float32))
array([         2,         -2, 2147483647,          0], dtype=int32)
>>> CONVERSIONS["__int2float_rz"](np.array([16777217, 2**31 - 1], np.int32))
array([1.6777216e+07, 2.1474835e+09], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.core.fpenv import quiet
from ascreg.core.libm import ROUND_TO_INTEGRAL, saturate_to_integer

Arr = np.ndarray[Any, Any]
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
INTEGERS: dict[str, np.dtype[Any]] = {
    "int": np.dtype(np.int32),
    "uint": np.dtype(np.uint32),
    "ll": np.dtype(np.int64),
    "ull": np.dtype(np.uint64),
}
"""The integer types by their spelling in the conversion names."""
MODES = ("rn", "rz", "ru", "rd", "rna")


def float_to_integer(x: Arr, dtype: np.dtype[Any], mode: str) -> Arr:
    """Round float32 lanes in *mode* and saturate them to the integer *dtype* (NaN gives 0).

    Examples
    --------
    >>> import numpy as np
    >>> float_to_integer(np.array([-0.5, 2.5, -1.0], np.float32), np.dtype(np.uint32), "rna")
    array([0, 3, 0], dtype=uint32)
    """
    with quiet():
        integral = ROUND_TO_INTEGRAL[mode](np.asarray(x, dtype=F32))
    return saturate_to_integer(integral, dtype)


def _two_parts(x: Arr) -> tuple[Arr, Arr]:
    """Two float64 arrays whose exact sum is the integer lanes *x* (each part exact)."""
    x = np.asarray(x)
    if x.dtype.itemsize <= 4:
        return x.astype(F64), np.zeros(x.shape, F64)
    low = x & x.dtype.type(0xFFFFFFFF)  # non-negative, < 2**32
    high = x - low  # a multiple of 2**32: at most 32 significant bits
    return high.astype(F64), low.astype(F64)


def _round_sum_to_float32(high: Arr, low: Arr, mode: str) -> Arr:
    """Round the exact value ``high + low`` to float32 in *mode*."""
    total = high + low
    virtual = total - high
    error = (high - (total - virtual)) + (low - virtual)  # TwoSum: total + error is exact
    nearest = total.astype(F32)
    base = nearest.astype(F64)
    toward = np.where(total > base, np.float32(np.inf), np.float32(-np.inf))
    midpoint = (base + np.nextafter(nearest, toward).astype(F64)) / 2
    tie = (total == midpoint) & (total != base)
    if mode == "rna":
        away = np.nextafter(nearest, np.copysign(np.float32(np.inf), total).astype(F32))
        return np.where(
            tie & (error == 0) & (np.abs(nearest) < np.abs(total)), away, _nudged(total, error, tie)
        )
    nearest = _nudged(total, error, tie)
    if mode == "rn":
        return nearest
    excess = nearest.astype(F64) - total - error  # nearest - value (exact enough to sign)
    if mode == "rd":
        return np.where(excess > 0, np.nextafter(nearest, np.float32(-np.inf)), nearest)
    if mode == "ru":
        return np.where(excess < 0, np.nextafter(nearest, np.float32(np.inf)), nearest)
    too_far = np.where(total > 0, excess > 0, excess < 0)  # rz
    return np.where(too_far, np.nextafter(nearest, np.float32(0)), nearest)


def _nudged(total: Arr, error: Arr, tie: Arr) -> Arr:
    """Round ``total + error`` to nearest float32 when ``total`` alone may sit on a tie."""
    step = np.nextafter(total, np.where(error > 0, np.inf, -np.inf))
    return np.where(tie & (error != 0), step, total).astype(F32)


def integer_to_float(x: Arr, mode: str) -> Arr:
    """Round integer lanes (32- or 64-bit, signed or unsigned) to float32 in *mode*.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([2**24 + 1, 2**24 + 3, -(2**24) - 1], np.int64)
    >>> [integer_to_float(v, m).tolist() for m in ("rn", "ru", "rd")]
    [[16777216.0, 16777220.0, -16777216.0], [16777218.0, 16777220.0, -16777216.0], [16777216.0, 16777218.0, -16777218.0]]
    """
    high, low = _two_parts(x)
    return _round_sum_to_float32(high, low, mode)


def _float_to_float(mode: str) -> Callable[[Arr], Arr]:
    rounding = ROUND_TO_INTEGRAL[mode]

    def evaluate(x: Arr) -> Arr:
        return np.asarray(rounding(np.asarray(x, dtype=F32)), dtype=F32)

    return evaluate


def _to_integer(dtype: np.dtype[Any], mode: str) -> Callable[[Arr], Arr]:
    def evaluate(x: Arr) -> Arr:
        return float_to_integer(x, dtype, mode)

    return evaluate


def _to_float(mode: str) -> Callable[[Arr], Arr]:
    def evaluate(x: Arr) -> Arr:
        return integer_to_float(x, mode)

    return evaluate


def _bit_cast(dtype: np.dtype[Any]) -> Callable[[Arr], Arr]:
    def evaluate(x: Arr) -> Arr:
        return np.ascontiguousarray(x).view(dtype)

    return evaluate


def _conversions() -> dict[str, Callable[[Arr], Arr]]:
    table: dict[str, Callable[[Arr], Arr]] = {}
    for mode in MODES:
        table[f"__float2float_{mode}"] = _float_to_float(mode)
        for spelling, dtype in INTEGERS.items():
            table[f"__float2{spelling}_{mode}"] = _to_integer(dtype, mode)
            table[f"__{spelling}2float_{mode}"] = _to_float(mode)
    table["__float_as_int"] = _bit_cast(np.dtype(np.int32))
    table["__float_as_uint"] = _bit_cast(np.dtype(np.uint32))
    table["__int_as_float"] = table["__uint_as_float"] = _bit_cast(F32)
    return table


CONVERSIONS: dict[str, Callable[[Arr], Arr]] = _conversions()
"""Every conversion and bit cast's lanes, by C name (the rows' ``core`` targets)."""

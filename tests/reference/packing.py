"""Scalar reference of the SIMT pair conversions and packing functions, one pair at a time.

Written from the function pages (``asc_fp16.h``, ``asc_bf16.h``, ``asc_fp8.h``), never from
``ascreg.core.packing``: values are bit patterns, a pair is ``(x, y)``; each selection says
which halves it returns. A float component narrowed to half / bfloat16 follows the reference of
the scalar twins ``__float2half_<mode>`` (:func:`reference.halfmath.to_format`, compared by
value: NaN as NaN); the 8-bit formats and the widenings follow the exact reference of ``Cast``
(:func:`reference.convert.convert_element`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ascreg import RoundMode, float32_t
from ascreg._dtypes import Scalar
from reference import halfmath
from reference.convert import convert_element

Pair = tuple[int, int]
MODES = {
    "rn": RoundMode.CAST_RINT, "rz": RoundMode.CAST_TRUNC, "rd": RoundMode.CAST_FLOOR,
    "ru": RoundMode.CAST_CEIL, "rna": RoundMode.CAST_ROUND, "ro": RoundMode.CAST_ODD,
    "rh": RoundMode.CAST_HYBRID,
}  # fmt: skip
"""The rounding of each name suffix (the RoundMode page's spelling)."""

SELECTIONS: dict[str, Callable[..., int | Pair]] = {
    "low2": lambda x: x[0],  # __low2half: the low half
    "high2": lambda x: x[1],
    "low2_2": lambda x: (x[0], x[0]),  # __low2half2: the low half in both
    "high2_2": lambda x: (x[1], x[1]),
    "lows2": lambda x, y: (x[0], y[0]),  # __lows2half2: the low halves of x and y
    "highs2": lambda x, y: (x[1], y[1]),
    "halves2": lambda a, b: (a, b),  # __halves2half2(a, b): a low, b high
    "lowhigh2highlow": lambda x: (x[1], x[0]),  # swapped
    "splat": lambda a: (a, a),  # __bfloat162bfloat162(a)
    "both": lambda x: (x[0], x[1]),  # __half22float2: both halves, in order
}
"""What each selection returns, from its page (elements as bit patterns)."""


def convert(bits: int, src: type[Scalar], dst: type[Scalar], mode: str = "rn") -> int:
    """One element converted (non-saturating: the default CTRL state of a SIMT program)."""
    return convert_element(bits, src, dst, MODES[mode], False)


def narrow(bits: int, dst: type[Scalar], mode: str) -> float:
    """One float component narrowed to half / bfloat16 (the value; the scalar twins' rule)."""
    value = float(np.array(bits, np.uint32).view(np.float32))
    return halfmath.to_format(value, dst, mode)


def to_float(bits: int, src: type[Scalar]) -> int:
    """``__low2float`` / ``__half22float2`` ...: a widening to float (exact)."""
    return convert(bits, src, float32_t)


def fp8x2_storage(pair: Pair, fp8: type[Scalar]) -> int:
    """``__asc_cvt_float2_to_fp8x2``: both float components to fp8 (nearest-even), ``x`` low."""
    return convert(pair[0], float32_t, fp8) | convert(pair[1], float32_t, fp8) << 8

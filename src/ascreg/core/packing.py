"""Lane semantics of the SIMT pair conversions and packing (``__float22half2_rn`` ... ``__e4m3x22float2``).

A packing function picks its result's components from its arguments (:func:`gather`: a scalar
argument, or one component of a pair argument) and converts them, each once, to the result's
element type with an existing exact-rounding core (no rounding code of its own):

* float to half / bfloat16 (``__float22half2_<mode>``, ``__floats2half2_rn`` ...):
  :func:`ascreg.core.halfmath.to_float`, the core of the scalar twins ``__float2half_<mode>``,
  so each component is bit for bit the scalar conversion of it (NaN bits and the ``ro``
  overflow to inf included, as the pages document);
* everything else (hifloat8, fp8, the widenings): :func:`ascreg.core.convert.convert`, the
  conversion shared with ``Reg.Cast`` and the C API. Where the destination holds the value
  exactly (a selection, a widening) the conversion is exact.

Rounding suffixes (:data:`ROUNDINGS`): ``rn`` nearest-even, ``rz`` toward zero, ``rd`` down,
``ru`` up, ``rna`` nearest-away, ``ro`` to odd, ``rh`` hybrid (hifloat8's ``CAST_HYBRID``).

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, half
>>> pack({"x": np.float32([[1.0, 65520.0]])}, ("x.y", "x.x"), float32_t, half, "rz", False).tolist()
[[65504.0, 1.0]]
>>> hex(int(float2_to_fp8x2(np.float32([1.0, -2.0]), False, False)))
'0xc038'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, bfloat16_t, float32_t, fp8_e4m3fn_t, fp8_e5m2_t, half
from ascreg.core import halfmath
from ascreg.core.convert import convert
from ascreg.enums import RoundMode

Arr = np.ndarray[Any, Any]
ROUNDINGS = {
    "rn": RoundMode.CAST_RINT, "rz": RoundMode.CAST_TRUNC, "rd": RoundMode.CAST_FLOOR,
    "ru": RoundMode.CAST_CEIL, "rna": RoundMode.CAST_ROUND, "ro": RoundMode.CAST_ODD,
    "rh": RoundMode.CAST_HYBRID,
}  # fmt: skip
"""The ``RoundMode`` of each rounding suffix of the SIMT conversion names."""
COMPONENTS = "xy"
"""The component names of a pair, in memory order."""


def gather(arguments: Mapping[str, Arr], picks: tuple[str, ...]) -> Arr:
    """Stack the picked values on a last axis: ``"x"`` argument x, ``"x.y"`` component y of x.

    A pair argument is its component array (last axis: the two components); per-thread
    arguments broadcast against each other.

    Examples
    --------
    >>> gather({"x": np.array([1, 2]), "y": np.array([3, 4])}, ("y.y", "x.x"))
    array([4, 1])
    """
    parts = []
    for pick in picks:
        role, _, component = pick.partition(".")
        value = np.asarray(arguments[role])
        parts.append(value[..., COMPONENTS.index(component)] if component else value)
    return np.stack(np.broadcast_arrays(*parts), axis=-1)


def pack(
    arguments: Mapping[str, Arr],
    picks: tuple[str, ...],
    src: type[Scalar],
    dst: type[Scalar],
    rounding: str,
    saturate: bool,
) -> Arr:
    """Gather the picked *src* values and convert each to *dst*, rounding by the suffix.

    Examples
    --------
    >>> from ascreg import float32_t, bfloat16_t
    >>> pack({"x": np.float32(1 + 2**-8)}, ("x", "x"), float32_t, bfloat16_t, "ru", False).tolist()
    [1.0078125, 1.0078125]
    """
    gathered = gather(arguments, picks)
    if src is dst:
        return gathered
    flat = np.ascontiguousarray(gathered).reshape(-1)
    if src is float32_t and dst in (half, bfloat16_t):  # the scalar twins' core
        narrowed = halfmath.to_float(flat, dst.np_dtype, rounding, saturate=saturate)
        return np.asarray(narrowed).reshape(gathered.shape)
    return convert(flat, src, dst, ROUNDINGS[rounding], saturate).reshape(gathered.shape)


def float2_to_fp8x2(x: Arr, saturate: bool, e5m2: bool) -> Arr:
    """``__asc_cvt_float2_to_fp8x2``: both components to fp8 (nearest-even), packed in 16 bits.

    *x* has the two float components on its last axis; the result's low byte is the code of
    ``x.x``, the high byte that of ``x.y`` (the struct's memory order). *e5m2* picks
    float8_e5m2 over float8_e4m3.

    Examples
    --------
    >>> hex(int(float2_to_fp8x2(np.float32([np.inf, 448.0]), False, False)))
    '0x7e7f'
    """
    parts = np.asarray(x, np.float32)
    fp8 = fp8_e5m2_t if e5m2 else fp8_e4m3fn_t
    flat = np.ascontiguousarray(parts).reshape(-1)
    codes = convert(flat, float32_t, fp8, RoundMode.CAST_RINT, saturate).view(np.uint8)
    codes = codes.reshape(parts.shape).astype(np.uint16)
    packed: Arr = codes[..., 0] | (codes[..., 1] << np.uint16(8))
    return packed

"""Lane formulas the Ascend 950 builds from several register ops (the memory-level basic API).

On the 950 a memory-level op such as ``AddRelu`` or ``Rsqrt`` is a VF calling register ops one
after the other (``impl/basic_api/dav_3510``): ``AddRelu`` is ``Add`` then ``Maxs(.., 0)``,
``Reciprocal`` is ``Div(1, x)``, ``Rsqrt`` is ``Sqrt`` then ``Div(1, .)``. Each formula here is
that sequence of the register ops' own lane formulas (:mod:`ascreg.core.arith`,
:mod:`ascreg.core.elementary`, :mod:`ascreg.core.compound`), so every intermediate rounds as
the chip's does.

Examples
--------
>>> import numpy as np
>>> add_relu(np.float32([1.5, -3.0, np.nan]), np.float32([-2.0, 1.0, 0.0])).tolist()
[0.0, 0.0, nan]
>>> reciprocal(np.float16([4.0, 0.0])).tolist()
[0.25, inf]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import float32_t, half, int32_t
from ascreg.core.arith import BINARY_OPS
from ascreg.core.bitwise import bitwise
from ascreg.core.compound import fused_multiply_add
from ascreg.core.convert import convert
from ascreg.core.elementary import divide, square_root
from ascreg.enums import RoundMode

Lanes = np.ndarray[Any, Any]


def _max_zero(values: Lanes) -> Lanes:
    """``Maxs(x, 0)``: the register Max against +0 (NaN propagates; ``max(-0, +0) = +0``)."""
    return BINARY_OPS["Max"](values, np.zeros_like(values))


def add_relu(a: Lanes, b: Lanes) -> Lanes:
    """``AddRelu``: ``Maxs(Add(a, b), 0)``, the sum rounded first.

    Examples
    --------
    >>> add_relu(np.int16([32767, -5]), np.int16([1, 2])).tolist()  # the sum wraps first
    [0, 0]
    """
    return _max_zero(BINARY_OPS["Add"](a, b))


def sub_relu(a: Lanes, b: Lanes) -> Lanes:
    """``SubRelu``: ``Maxs(Sub(a, b), 0)``.

    Examples
    --------
    >>> sub_relu(np.float16([1.0, 5.0]), np.float16([2.0, 1.0])).tolist()
    [0.0, 4.0]
    """
    return _max_zero(BINARY_OPS["Sub"](a, b))


def mul_add_relu(src0: Lanes, src1: Lanes, dst: Lanes) -> Lanes:
    """``MulAddRelu``: ``Maxs(src0 * dst + src1, 0)``, the multiply-add fused (one rounding).

    Examples
    --------
    >>> mul_add_relu(np.float32([2.0, 2.0]), np.float32([1.0, -9.0]), np.float32([3.0, 3.0])).tolist()
    [7.0, 0.0]
    """
    return _max_zero(fused_multiply_add(dst, src0, src1))


def bitwise_not(values: Lanes) -> Lanes:
    """``Not``: every bit flipped, whatever the lane type (a float's sign, exponent and mantissa).

    Examples
    --------
    >>> bitwise_not(np.int16([0, -1])).tolist()
    [-1, 0]
    """
    return bitwise("not", values)


def _reciprocal_b64(values: Lanes) -> Lanes:
    """Return the 950's 64-bit integer reciprocal: ``1/0`` all ones, ``1/1 = 1``, ``1/-1 = -1``, else 0."""
    ones = np.full_like(values, -1 if values.dtype.kind == "i" else np.iinfo(values.dtype).max)
    result = np.where(values == 0, ones, np.zeros_like(values))
    result = np.where(values == 1, np.ones_like(values), result)
    if values.dtype.kind == "i":
        result = np.where(values == -1, -np.ones_like(values), result)
    return result


def reciprocal(values: Lanes, *, ftz: bool = True) -> Lanes:
    """``Reciprocal``: ``Div(1, x)`` in the lane type (*ftz*: the division flushes subnormals).

    64-bit integers follow the 950's integer path: ``1/0`` is all ones (-1 signed), ``1/1`` is
    1, ``1/-1`` is -1 and every other lane 0 (the truncated quotient).

    Examples
    --------
    >>> reciprocal(np.int64([0, 1, -1, 7])).tolist()
    [-1, 1, -1, 0]
    >>> reciprocal(np.float32([2.0**126]), ftz=False).tolist()  # 2**-126 is normal
    [1.1754943508222875e-38]
    """
    if values.dtype.kind in "iu":
        return _reciprocal_b64(values)
    return divide(np.ones_like(values), values, ftz=ftz)


_RSQRT_TINY = np.float32(1.1754944e-38)
"""Below this the 950's exact float ``Rsqrt`` scales its input by 2**24 first."""


def _rsqrt_exact_float(x: Lanes) -> Lanes:
    """Return the 950's 0-ulp float ``Rsqrt`` (``VecUnaryLevel2ImplFloat``): Newton steps on ``1/sqrt``.

    Each step is the register op the implementation runs (``Muls``, ``Mul``, the fused
    ``MulAddDst``, the flushing ``Div`` and ``Sqrt``), in its order.
    """
    mul, one = BINARY_OPS["Mul"], np.ones_like(x)

    def scaled(values: Lanes, factor: float) -> Lanes:
        return mul(values, np.full_like(values, factor))

    tiny = x < _RSQRT_TINY
    x = np.where(tiny, scaled(x, 16777216.0), x)
    r = divide(one, x)
    y = square_root(r)
    half_step = fused_multiply_add(mul(scaled(x, -0.5), y), y, np.full_like(x, 1.5))
    y = mul(half_step, y)
    s = fused_multiply_add(scaled(x, -1.0), r, one)
    t = fused_multiply_add(scaled(y, -1.0), y, r)
    s = fused_multiply_add(x, t, s)
    y = fused_multiply_add(scaled(y, 0.5), s, y)
    y = np.where(tiny, scaled(y, 4096.0), y)
    bits = x.view(np.uint32)
    y = np.where(bits == 0x7F800000, np.float32(0.0), y)
    y = np.where(bits == 0, np.float32(np.inf), y)
    return np.where(bits == 0x80000000, np.float32(-np.inf), y)


def rsqrt(values: Lanes, *, ftz: bool = True, newton: bool = False) -> Lanes:
    """``Rsqrt``: ``1 / Sqrt(x)``, as the 950 composes it.

    The default (*ftz*) mode is ``Sqrt`` then ``Div(1, .)``, both flushing subnormals, and a
    negative lane keeps ``Sqrt``'s NaN. The precise modes (*ftz* False) compute ``Sqrt`` and
    ``Div`` without flushing; with *newton* a float lane runs the 950's exact (0 ulp) Newton
    algorithm instead (the count form's precise float path).

    Examples
    --------
    >>> rsqrt(np.float32([4.0, -0.0, np.inf])).tolist()
    [0.5, -inf, 0.0]
    >>> exact = float(np.float32(1 / np.sqrt(2.0)))
    >>> float(rsqrt(np.float32([2.0]), ftz=False, newton=True)[0]) == exact
    True
    """
    if newton and values.dtype == np.float32:
        return _rsqrt_exact_float(values)
    root = square_root(values, ftz=ftz)
    result = divide(np.ones_like(values), root, ftz=ftz)
    return np.where(values < 0, root, result) if ftz else result


DEQ_SHIFT = 131072.0
"""``DEQ_SHIFT_LEFT_17_BIT``: the 2**17 the 950's int32 -> half dequantisation scales by."""


def dequantize_to_half(values: Lanes, scale: Any) -> Lanes:
    """``Cast<half, int32_t>``'s 950 path: ``half(float(x) * 2**-17 * scale * 2**17)``.

    ``float(x)`` rounds to nearest even (saturating); each ``Muls`` rounds in float32; the final
    float -> half conversion rounds to nearest even without saturation (overflow is inf). *scale*
    is the ``SetDeqScale(half)`` value (1 after the kernel starts).

    Examples
    --------
    >>> dequantize_to_half(np.int32([3, 70000, -5]), np.float16(0.5)).tolist()
    [1.5, 35008.0, -2.5]
    """
    return convert(dequantized(values, scale), float32_t, half, RoundMode.CAST_RINT, False)


def dequantized(values: Lanes, scale: Any) -> Lanes:
    """Return ``float(x) * 2**-17 * scale * 2**17`` in float32: the 950's dequantisation chain.

    ``float(x)`` rounds to nearest even (saturating); each ``Muls`` rounds in float32.

    Examples
    --------
    >>> dequantized(np.int32([3, -5]), np.float16(0.25)).tolist()
    [0.75, -1.25]
    """
    mul = BINARY_OPS["Mul"]
    wide = convert(values, int32_t, float32_t, RoundMode.CAST_RINT, True)
    for factor in (1.0 / DEQ_SHIFT, float(np.float32(scale)), DEQ_SHIFT):
        wide = mul(wide, np.full(wide.shape, factor, dtype=np.float32))
    return wide


def add_deq_relu(a: Lanes, b: Lanes, scale: Any) -> Lanes:
    """``AddDeqRelu``: ``half(max(dequantized(a + b), 0))``, the sum wrapping in int32.

    The float -> half conversion rounds to nearest even and saturates (``float2halfCastTrait``
    of the 950's implementation: ``SatMode::SAT``); ``Maxs`` against +0 runs in float.

    Examples
    --------
    >>> add_deq_relu(np.int32([3, -9, 2**31 - 1]), np.int32([1, 2, 1]), np.float16(0.5)).tolist()
    [2.0, 0.0, 0.0]
    """
    total = BINARY_OPS["Add"](a, b)
    wide = dequantized(total, scale)
    relu = BINARY_OPS["Max"](wide, np.zeros(wide.shape, dtype=np.float32))
    return convert(relu, float32_t, half, RoundMode.CAST_RINT, True)

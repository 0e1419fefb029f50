"""Lane math of the compound and carry ops: fused multiply-add, AbsSub, ExpSub, Mull, AddC/SubC.

* The multiply-adds (``MulAddDst``, ``MulDstAdd``, ``Axpy``) are fused on dav-3510: the
  precision appendix states each is "equivalent to Fma(x, y, z)", so a float result is the
  exact ``x * y + z`` rounded **once** to nearest even. Integers wrap.
* ``AbsSub`` is serial: ``Abs(Sub(x, y))`` (the difference rounded, then its sign cleared).
* ``ExpSub`` is serial too: ``Exp(Sub(f32(x), f32(y)))``: the float32 difference (one
  rounding), then ``Exp`` (correctly rounded here; the chip's ``Exp`` is within 1 ulp and
  flushes subnormals).
* ``Mull`` gives the low and the high word of the double-width product; ``AddC``/``SubC`` the
  sum (``x + y + c`` or ``x + ~y + c``) and its carry out of the top bit.

Examples
--------
>>> import numpy as np
>>> fused_multiply_add(np.float16([3.0]), np.float16([1 / 3]), np.float16([-1.0])).tolist()
[-0.0002441...]
>>> low, high = widening_multiply(np.array([-2], np.int32), np.array([3], np.int32))
>>> int(low[0]), int(high[0])
(-6, -1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import bfloat16_t
from ascreg.core.arith import BINARY_OPS, abs_lanes
from ascreg.core.compare import zero_masked
from ascreg.core.elementary import any_set, elementary
from ascreg.core.fpenv import quiet
from ascreg.core.masks import lanes_to_bits

Lanes = np.ndarray[Any, Any]


def _round_to_odd(exact: Lanes, error: Lanes, dtype: np.dtype[Any]) -> Lanes:
    """Round ``exact + error`` (a float64 sum and its exact rounding error) to odd in *dtype*.

    Round to odd keeps the information a later rounding to nearest needs (a sticky last bit):
    rounding the result once more, to a format at least two bits narrower, gives the correctly
    rounded value of the exact sum (no double-rounding error).
    """
    rounded: Lanes = exact.astype(dtype)
    below = rounded.astype(np.float64) - exact - error  # < 0: rounded is below the exact value
    inexact = np.isfinite(below) & (below != 0)
    even = (rounded.view(f"u{dtype.itemsize}") & 1) == 0
    towards = np.where(below < 0, np.inf, -np.inf).astype(dtype)
    odd: Lanes = np.where(inexact & even, np.nextafter(rounded, towards), rounded)
    return odd


def fused_multiply_add(a: Lanes, b: Lanes, c: Lanes) -> Lanes:
    """Return ``a * b + c`` per lane, rounded once (IEEE ``fusedMultiplyAdd``); integers wrap.

    The product of two half, bfloat16 or float lanes is exact in float64; the sum is
    computed with its exact error (TwoSum) and rounded to odd, then rounded to nearest even
    into the lane type (through float32 for bfloat16, again by round to odd), which is the
    correctly rounded fused result. IEEE special cases hold: ``inf * 0 + c`` is NaN, an exact
    zero sum is ``+0`` unless both addends are ``-0``.

    Examples
    --------
    >>> a = np.float32([1 + 2**-23]); b = np.float32([1 - 2**-23]); c = np.float32([-1.0])
    >>> float(fused_multiply_add(a, b, c)[0]) == -(2.0**-46)
    True
    >>> fused_multiply_add(np.array([200], np.uint8), np.array([2], np.uint8), np.array([1], np.uint8))
    array([145], dtype=uint8)
    """
    if a.dtype.kind in "iu":
        unsigned = np.dtype(f"u{a.dtype.itemsize}")
        with quiet():
            wrapped: Lanes = a.view(unsigned) * b.view(unsigned) + c.view(unsigned)
        return wrapped.view(a.dtype)
    with quiet():  # inf - inf, inf * 0: IEEE NaN results, not warnings
        product = np.multiply(a, b, dtype=np.float64)  # exact: at most 2 x 24 bits
        total = product + c  # (c widened exactly)
        once = _SINGLE_ROUNDING.get(a.dtype)
        if once is not None and not _may_round_twice(total, *once):
            result: Lanes = total.astype(a.dtype)
            return result
        return _fused_exact(a.dtype, product, c.astype(np.float64), total)


def _single_rounding(dropped: int, smallest_normal: float) -> tuple[Lanes, Lanes, Lanes]:
    """Return the constants of :func:`_may_round_twice` for a lane type (0-d uint64 arrays).

    The mask of the *dropped* low fraction bits, the pattern of a midpoint in them, and the
    doubled bit pattern of *smallest_normal* less one (see :func:`_may_round_twice`).
    """
    smallest = np.array(smallest_normal, np.float64).view(np.uint64)
    return (
        np.array((1 << dropped) - 1, np.uint64),
        np.array(1 << (dropped - 1), np.uint64),
        (smallest << np.uint64(1)) - np.uint64(1),
    )


_SINGLE_ROUNDING = {
    np.dtype(np.float32): _single_rounding(29, 2.0**-126),
    np.dtype(np.float16): _single_rounding(42, 2.0**-14),
}
"""For the lane types rounded straight from float64 (:func:`_may_round_twice`): float64 has 29
and 42 fraction bits below float32's and half's last one; their smallest normal magnitudes."""
_ONE = np.array(1, np.uint64)


def _may_round_twice(total: Lanes, dropped: Lanes, midpoint: Lanes, tiny_below: Lanes) -> bool:
    """Return whether rounding the float64 sum *total* may differ from rounding the exact sum.

    The lane type's values and the midpoints between them are float64 values, and rounding is
    monotonic: a float64 sum that is not such a midpoint lies on the same side of every one
    as the exact sum, so both round to the same lane value. The midpoints of normal results
    have exactly the top one of the *dropped* fraction bits set; a nonzero result below the
    smallest normal magnitude (whose grid is coarser) is checked the exact way too: doubled,
    its bit pattern loses the sign, and less one, zero wraps to the top (*tiny_below*: the
    smallest normal's pattern so treated).
    """
    bits = total.view(np.uint64)
    return any_set((bits & dropped) == midpoint) or any_set(((bits << _ONE) - _ONE) < tiny_below)


def _fused_exact(dtype: np.dtype[Any], product: Lanes, addend: Lanes, total: Lanes) -> Lanes:
    """Round ``product + addend`` (float64, *total* their rounded sum) once into *dtype*."""
    with quiet():
        back = total - product
        error = (product - (total - back)) + (addend - back)  # TwoSum: the exact error
        error = np.where(np.isfinite(error), error, 0.0)
        narrow = np.dtype(np.float32) if dtype == bfloat16_t.np_dtype else dtype
        odd = _round_to_odd(total, error, np.dtype(np.float64))
        if narrow != dtype:  # bfloat16: round to odd in float32 first, then to nearest
            odd = _round_to_odd(odd, np.zeros_like(odd), narrow)
        result: Lanes = odd.astype(dtype)
    return result


def abs_sub(a: Lanes, b: Lanes) -> Lanes:
    """Return ``|a - b|`` per lane: ``Abs(Sub(a, b))`` (integers wrap; floats round the difference).

    Examples
    --------
    >>> abs_sub(np.float16([1.0, -3.0]), np.float16([4.0, 2.0])).tolist()
    [3.0, 5.0]
    >>> abs_sub(np.array([-2**63], np.int64), np.array([1], np.int64)).tolist()
    [9223372036854775807]
    """
    return abs_lanes(BINARY_OPS["Sub"](a, b))


TERNARY_OPS: dict[str, Callable[[Lanes, Lanes, Lanes], Lanes]] = {
    "MulAddDst": lambda src0, src1, dst: fused_multiply_add(src0, src1, dst),
    "MulDstAdd": lambda src0, src1, dst: fused_multiply_add(dst, src0, src1),
    "Axpy": lambda src, scalar, dst: fused_multiply_add(scalar, src, dst),
}
"""Each multiply-add as ``f(first source, second source (Axpy: the scalar's lanes), dst)``.

Examples
--------
>>> one = np.float32([1.0]); two = np.float32([2.0]); three = np.float32([3.0])
>>> [float(TERNARY_OPS[k](one, two, three)[0]) for k in ("MulAddDst", "MulDstAdd", "Axpy")]
[5.0, 5.0, 5.0]
"""


def widening_multiply(a: Lanes, b: Lanes) -> tuple[Lanes, Lanes]:
    """Return the low and the high word of the double-width product of 32-bit lanes.

    The high word of a signed product is the top half of its two's complement (``floor``
    division by ``2**32``: ``-6`` has high word ``-1``).

    Examples
    --------
    >>> low, high = widening_multiply(np.array([0xFFFFFFFF], np.uint32), np.array([2], np.uint32))
    >>> int(low[0]), int(high[0])
    (4294967294, 1)
    """
    wide = np.dtype(f"{a.dtype.kind}{2 * a.dtype.itemsize}")
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    with quiet():
        product = a.astype(wide) * b.astype(wide)  # exact: 32 x 32 bits fit 64
    low: Lanes = product.astype(unsigned).view(a.dtype)  # the low word, bit for bit
    high: Lanes = (product >> (8 * a.dtype.itemsize)).astype(a.dtype)
    return low, high


def add_with_carry(
    a: Lanes, b: Lanes, carry_in: Lanes, active: Lanes, *, subtract: bool, stride: int
) -> tuple[Lanes, Lanes]:
    """Return ``{carry, sum} = a + b + carry_in`` (or ``a + ~b + carry_in``) per lane.

    The bits of ``a`` and ``b`` are added as unsigned numbers (signed lanes too); ``carry`` is
    the bit carried out of the top. A subtraction adds the complement: its carry is 1 when
    there is no borrow. Masked-off lanes give sum 0 and carry 0. The carry comes back as the
    256 bits of a MaskReg with one bit per lane every *stride* bits.

    Examples
    --------
    >>> a = np.array([0xFFFFFFFF, 5], np.uint32); b = np.array([8, 7], np.uint32)
    >>> total, carry = add_with_carry(a, b, np.array([False, True]), np.array([True, True]),
    ...                               subtract=False, stride=4)
    >>> total.tolist(), carry[[0, 4]].tolist()
    ([7, 13], [True, False])
    """
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    bits = 8 * a.dtype.itemsize
    second = ~b.view(unsigned) if subtract else b.view(unsigned)
    total = a.view(unsigned).astype(np.uint64) + second.astype(np.uint64) + carry_in
    low: Lanes = (total & np.uint64((1 << bits) - 1)).astype(unsigned).view(a.dtype)
    carry = (total >> np.uint64(bits)).astype(np.bool_) & active
    return zero_masked(low, active), lanes_to_bits(carry, stride)


def exp_sub(a: Lanes, b: Lanes, active: Lanes, *, part: int) -> Lanes:
    """Return ``exp(f32(a) - f32(b))`` per float32 lane; masked-off lanes 0.

    For half sources (128 lanes) float32 lane ``i`` takes source lane ``2 * i + part``
    (``RegLayout`` ZERO: the even lanes, ONE: the odd ones) and is enabled by that source
    lane's enable in *active*. The float32 difference is rounded once, then ``Exp`` is
    correctly rounded with subnormals flushed (the intrinsic's default mode).

    Examples
    --------
    >>> src0 = np.float16(np.arange(128) % 4); src1 = np.zeros(128, np.float16)
    >>> exp_sub(src0, src1, np.ones(128, bool), part=1)[:2].tolist()
    [2.7182817459106445, 20.08553695678711]
    """
    if a.dtype.itemsize == 2:
        a, b, active = a[..., part::2], b[..., part::2], active[..., part::2]
    with quiet():  # inf - inf: an IEEE NaN result
        difference = a.astype(np.float32) - b.astype(np.float32)
    return zero_masked(elementary("exp", difference, ftz=True), active)

"""Unsigned division by a run-time constant through a magic number (``GetUintDivMagicAndShift``).

``AscendC::GetUintDivMagicAndShift<T>(magic, shift, divisor)`` (scalar unit) prepares, once per
divisor ``d``, the pair that ``AscendC::Simt::UintDiv<T>(n, magic, shift)`` (SIMT) turns into the
quotient with a high multiply, an add and a shift (kernel_scalar.h, kernel_simt_math_impl.h):

* ``shift`` is ``ceil(log2(d))``: the bit length of ``d``, less one for a power of two;
* for ``T = uint32_t``: ``magic = 2**32 * (2**shift - d) // d + 1`` (in 64-bit arithmetic,
  then kept to 32 bits); for ``uint64_t``: ``magic = (2**shift - d) * 2**64 // d + 1`` (the
  header's long division; ``2**64 - d`` when ``shift`` is 64), kept to 64 bits;
* ``UintDiv(n) = (n + mulhi(n, magic)) >> shift``, where ``mulhi`` is the high half of the
  double-width product and the sum wraps in ``T``, exactly as the C++ computes it (so a
  dividend near ``2**bits`` gives what the chip gives, not ``n // d``).

The header asserts ``0 < d <= INT32_MAX`` (``uint32_t``) and ``0 < d <= INT64_MAX``
(``uint64_t``); outside that range ascreg raises.

Examples
--------
>>> magic_and_shift(7, 32)
(613566757, 3)
>>> import numpy as np
>>> uint_div(np.array([0, 6, 7, 100], np.uint32), 613566757, 3, 32).tolist()
[0, 0, 1, 14]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.errors import AscregError

Lanes = np.ndarray[Any, Any]

LIMITS = {32: (1 << 31) - 1, 64: (1 << 63) - 1}
"""The largest divisor each width takes (the header's INT32_MAX / INT64_MAX assertions)."""
_HALF = np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)


def magic_and_shift(divisor: int, bits: int) -> tuple[int, int]:
    """Return ``(magic, shift)`` of ``GetUintDivMagicAndShift`` for *divisor* in *bits* bits.

    Examples
    --------
    >>> magic_and_shift(1, 32), magic_and_shift(8, 64)
    ((1, 0), (1, 3))
    >>> magic_and_shift(0, 32)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: divisor 0 is outside [1, 2147483647] (GetUintDivMagicAndShift<uint32_t>: the header asserts 0 < divisor <= INT32_MAX)
    """
    d = int(divisor)
    if not 0 < d <= LIMITS[bits]:
        name = "INT32_MAX" if bits == 32 else "INT64_MAX"
        raise AscregError(
            f"divisor {d} is outside [1, {LIMITS[bits]}] (GetUintDivMagicAndShift<uint{bits}_t>: "
            f"the header asserts 0 < divisor <= {name})"
        )
    shift = d.bit_length() - (1 if d & (d - 1) == 0 else 0)
    if bits == 32:
        magic = (1 << 32) * ((1 << shift) - d) // d + 1
    else:
        dividend = ((1 << shift) - d) % (1 << 64)
        magic = (dividend << 64) // d % (1 << 64) + 1
    return magic % (1 << bits), shift


def mulhi(x: Lanes, y: Lanes, bits: int) -> Lanes:
    """Return the high *bits* bits of the ``2 * bits``-bit products ``x * y`` (unsigned lanes).

    Examples
    --------
    >>> int(mulhi(np.array([2**64 - 1], np.uint64), np.array([2**64 - 1], np.uint64), 64)[0])
    18446744073709551614
    """
    if bits == 32:
        wide = x.astype(np.uint64) * y.astype(np.uint64)
        return (wide >> _HALF).astype(np.uint32)
    x, y = x.astype(np.uint64), y.astype(np.uint64)
    x_hi, x_lo, y_hi, y_lo = x >> _HALF, x & _LOW, y >> _HALF, y & _LOW
    low = x_lo * y_lo
    cross_a, cross_b = x_hi * y_lo, x_lo * y_hi
    middle = (low >> _HALF) + (cross_a & _LOW) + (cross_b & _LOW)  # < 3 * 2**32: no wrap
    high: Lanes = x_hi * y_hi + (cross_a >> _HALF) + (cross_b >> _HALF) + (middle >> _HALF)
    return high


def uint_div(dividend: Any, magic: Any, shift: Any, bits: int) -> Lanes:
    """Return ``UintDiv``: ``(n + mulhi(n, magic)) >> shift``, the sum wrapping in *bits* bits.

    Examples
    --------
    >>> uint_div(np.array([2**32 - 1], np.uint32), 1431655766, 2, 32).tolist()  # wraps: not n // 3
    [357913941]
    """
    kind = np.uint32 if bits == 32 else np.uint64
    n = np.asarray(dividend, dtype=kind)
    m = np.asarray(magic, dtype=kind)
    s = np.asarray(shift, dtype=kind)
    if s.size and int(s.max()) >= bits:
        raise AscregError(f"shift {int(s.max())} is not below {bits} (the shift is UB in C)")
    with np.errstate(over="ignore"):
        total = n + mulhi(n, m, bits).astype(kind)
    result: Lanes = total >> s
    return result

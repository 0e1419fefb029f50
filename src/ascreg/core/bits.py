"""Scalar-unit bit arithmetic of the C API (``asc_clz``, ``asc_ffs``, ``asc_sflbits``, ...).

Each function takes and returns Python integers: an ``uint64_t`` argument is reduced modulo
2**64, an ``int64_t`` one is read as two's complement, as the C call's parameter type would
convert it. :data:`SCALAR_BITS` maps each C name to its function (the rows' ``core``).

Examples
--------
>>> clz(0x0FFF_FFFF_FFFF_FFFF), ffs(10), ffz(33), popc(33), sflbits(0x000F00FF0FF0FFFF)
(4, 1, 1, 2, 11)
>>> hex(set_nthbit(0, 2)), hex(clear_nthbit(0xFF, 66))
('0x4', '0xfb')
"""

from __future__ import annotations

from collections.abc import Callable

WIDTH = 64
"""Bits of the scalar unit's registers (``uint64_t`` / ``int64_t``)."""
_MASK = (1 << WIDTH) - 1


def as_u64(value: int) -> int:
    """Return *value* converted to ``uint64_t`` (modulo 2**64).

    Examples
    --------
    >>> hex(as_u64(-1))
    '0xffffffffffffffff'
    """
    return int(value) & _MASK


def as_i64(value: int) -> int:
    """Return *value* converted to ``int64_t`` (two's complement).

    Examples
    --------
    >>> as_i64(0xFFFF_FFFF_FFFF_FFFF)
    -1
    """
    bits = as_u64(value)
    return bits - (1 << WIDTH) if bits >> (WIDTH - 1) else bits


def clz(value: int) -> int:
    """``asc_clz``: leading zero bits of a ``uint64_t`` (64 for 0).

    Examples
    --------
    >>> clz(1), clz(0)
    (63, 64)
    """
    return WIDTH - as_u64(value).bit_length()


def ffs(value: int) -> int:
    """``asc_ffs``: index of the lowest set bit counted from 0, or -1 when there is none.

    (Unlike POSIX ``ffs``, the index starts at 0: the documented example gives 1 for 10.)

    Examples
    --------
    >>> ffs(10), ffs(0)
    (1, -1)
    """
    bits = as_u64(value)
    return (bits & -bits).bit_length() - 1


def ffz(value: int) -> int:
    """``asc_ffz``: index of the lowest clear bit counted from 0, or -1 when every bit is set.

    Examples
    --------
    >>> ffz(33), ffz(-1)
    (1, -1)
    """
    return ffs(~as_u64(value) & _MASK)


def popc(value: int) -> int:
    """``asc_popc``: number of set bits of a ``uint64_t``.

    Examples
    --------
    >>> popc(-1)
    64
    """
    return as_u64(value).bit_count()


def zero_bits_cnt(value: int) -> int:
    """``asc_zero_bits_cnt``: number of clear bits of a ``uint64_t``.

    Examples
    --------
    >>> zero_bits_cnt(33)
    62
    """
    return WIDTH - popc(value)


def sflbits(value: int) -> int:
    """``asc_sflbits``: bits after the sign bit equal to it, counted from bit 62 down.

    0 and -1 (every bit equal to the sign) give -1, as documented.

    Examples
    --------
    >>> sflbits(0x0F00_0000_0000_0000), sflbits(-2), sflbits(0), sflbits(-1)
    (3, 62, -1, -1)
    """
    signed = as_i64(value)
    if signed in (0, -1):
        return -1
    magnitude = ~signed if signed < 0 else signed
    return WIDTH - 1 - magnitude.bit_length()


def _bit(idx: int) -> int:
    """Return the one-bit mask of ``(idx % 64 + 64) % 64`` (C's ``%``), as the nthbit calls use."""
    signed = as_i64(idx)
    remainder = abs(signed) % WIDTH * (-1 if signed < 0 else 1)  # C truncates toward zero
    return 1 << ((remainder + WIDTH) % WIDTH)


def set_nthbit(bits: int, idx: int) -> int:
    """``asc_set_nthbit``: *bits* with bit ``idx`` set (an index outside [0, 63] wraps).

    Examples
    --------
    >>> set_nthbit(0, -1) == 1 << 63
    True
    """
    return as_u64(bits) | _bit(idx)


def clear_nthbit(bits: int, idx: int) -> int:
    """``asc_clear_nthbit``: *bits* with bit ``idx`` clear (an index outside [0, 63] wraps).

    Examples
    --------
    >>> clear_nthbit(7, 1)
    5
    """
    return as_u64(bits) & ~_bit(idx) & _MASK


SCALAR_BITS: dict[str, Callable[..., int]] = {
    "clz": clz,
    "ffs": ffs,
    "ffz": ffz,
    "popc": popc,
    "zero_bits_cnt": zero_bits_cnt,
    "sflbits": sflbits,
    "set_nthbit": set_nthbit,
    "clear_nthbit": clear_nthbit,
}
"""The scalar bit functions by their C name after ``asc_``."""

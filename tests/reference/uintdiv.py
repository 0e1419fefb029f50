"""``GetUintDivMagicAndShift`` / ``Simt::UintDiv`` on Python ints, from the headers' formulas.

``shift`` is the smallest ``s`` with ``2**s >= d``; the 32-bit magic is
``2**32 * (2**s - d) // d + 1`` kept to 32 bits, the 64-bit one ``(2**s - d) * 2**64 // d + 1``
kept to 64 bits; ``UintDiv(n) = ((n + (n * magic >> bits)) mod 2**bits) >> shift``.
"""

from __future__ import annotations


def magic_and_shift(divisor: int, bits: int) -> tuple[int, int]:
    shift = 0
    while (1 << shift) < divisor:
        shift += 1
    if bits == 32:
        magic = (1 << 32) * ((1 << shift) - divisor) // divisor + 1
    else:
        magic = ((1 << shift) - divisor) * (1 << 64) // divisor + 1
    return magic % (1 << bits), shift


def uint_div(dividend: int, magic: int, shift: int, bits: int) -> int:
    high = dividend * magic >> bits
    return (dividend + high) % (1 << bits) >> shift

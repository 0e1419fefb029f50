"""Scalar references of the C API's scalar-unit bit functions (``asc_clz`` ... ``asc_clear_nthbit``).

Written from the asc-devkit pages (scalar_compute/*.md), one bit at a time: a 64-bit value is a
list of bits, bit 0 first. Nothing here calls ``ascreg.core.bits``.
"""

from __future__ import annotations

WIDTH = 64


def bits_of(value: int) -> list[int]:
    """The 64 bits of *value* as C's conversion to ``uint64_t`` leaves them, bit 0 first."""
    pattern = value % (1 << WIDTH)
    return [(pattern >> i) & 1 for i in range(WIDTH)]


def clz(value: int) -> int:
    """Zeros from the top bit down to the first 1."""
    count = 0
    for bit in reversed(bits_of(value)):
        if bit:
            break
        count += 1
    return count


def first(value: int, wanted: int) -> int:
    """The lowest position holding *wanted*, or -1."""
    for position, bit in enumerate(bits_of(value)):
        if bit == wanted:
            return position
    return -1


def ffs(value: int) -> int:
    return first(value, 1)


def ffz(value: int) -> int:
    return first(value, 0)


def popc(value: int) -> int:
    return sum(bits_of(value))


def zero_bits_cnt(value: int) -> int:
    return WIDTH - sum(bits_of(value))


def sflbits(value: int) -> int:
    """Bits below the sign bit equal to it, from bit 62 down; -1 when all 64 bits are equal."""
    bits = bits_of(value)
    sign = bits[WIDTH - 1]
    if all(bit == sign for bit in bits):
        return -1
    count = 0
    for bit in reversed(bits[: WIDTH - 1]):
        if bit != sign:
            break
        count += 1
    return count


def _position(idx: int) -> int:
    """``(idx % 64 + 64) % 64`` with C's truncating ``%`` on the int64_t *idx*."""
    signed = idx % (1 << WIDTH)
    signed -= (1 << WIDTH) if signed >> (WIDTH - 1) else 0
    quotient = abs(signed) // WIDTH * (1 if signed >= 0 else -1)
    remainder = signed - quotient * WIDTH
    return (remainder + WIDTH) % WIDTH


def set_nthbit(bits: int, idx: int) -> int:
    out = bits_of(bits)
    out[_position(idx)] = 1
    return sum(bit << i for i, bit in enumerate(out))


def clear_nthbit(bits: int, idx: int) -> int:
    out = bits_of(bits)
    out[_position(idx)] = 0
    return sum(bit << i for i, bit in enumerate(out))


REFERENCES = {
    "clz": clz,
    "ffs": ffs,
    "ffz": ffz,
    "popc": popc,
    "zero_bits_cnt": zero_bits_cnt,
    "sflbits": sflbits,
    "set_nthbit": set_nthbit,
    "clear_nthbit": clear_nthbit,
}

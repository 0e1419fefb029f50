"""SIMT integer device functions (c_api_simt.md §6.1-6.2, the ``__byte_perm`` seed page).

Plain per-lane Python on Python ints; nothing here calls ``ascreg.core.intrinsics``.
"""

from __future__ import annotations


def u(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def s(v: int, bits: int) -> int:
    v = u(v, bits)
    return v - (1 << bits) if v >> (bits - 1) else v


def ref_byte_perm(x: int, y: int, sel: int) -> int:
    tmp = (y << 32) | x
    out = 0
    for n in range(4):
        which = (sel >> (4 * n)) & 0x7
        out |= ((tmp >> (8 * which)) & 0xFF) << (8 * n)
    return out


def ref_brev(x: int, bits: int) -> int:
    return int(format(u(x, bits), f"0{bits}b")[::-1], 2)


def ref_clz(x: int, bits: int) -> int:
    return bits - u(x, bits).bit_length()


def ref_ffs(x: int, bits: int) -> int:
    v = u(x, bits)
    return (v & -v).bit_length()


def ref_popc(x: int, bits: int) -> int:
    return bin(u(x, bits)).count("1")


def ref_mul24(x: int, y: int, signed: bool) -> int:
    if signed:
        return s(s(x, 24) * s(y, 24), 32)
    return u(u(x, 24) * u(y, 24), 32)

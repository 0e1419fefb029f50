"""SIMT atomics: the value each read-modify-write leaves (on unsigned 32-bit words).

The engine serialises a warp's atomics in thread order, so a sequence of these updates, one per
thread, is the reference for a whole launch; the caller reduces modulo 2**32.
"""

from __future__ import annotations

from collections.abc import Callable

ATOMIC_UPDATE: dict[str, Callable[[int, int], int]] = {
    "add": lambda old, v: old + v,
    "sub": lambda old, v: old - v,
    "exch": lambda old, v: v,
    "max": max,
    "min": min,
    "inc": lambda old, v: 0 if old >= v else old + 1,
    "dec": lambda old, v: v if old == 0 or old > v else old - 1,
    "and": lambda old, v: old & v,
    "or": lambda old, v: old | v,
    "xor": lambda old, v: old ^ v,
}
"""``asc_atomic_<name>(address, val)``: the new value stored from the *old* value and *val*."""


def atomic_cas(old: int, compare: int, val: int) -> int:
    """``asc_atomic_cas(address, compare, val)``: store *val* only where the old value equals *compare*."""
    return val if old == compare else old

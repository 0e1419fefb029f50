"""Register reinterpret casts: ``(RegTensor<U>&)reg`` / ``(vector_U)reg``, byte by byte.

A register is 256 bytes (two registers, 512, for ``RegTraitNumTwo``); lane ``i`` of a register
of an ``s``-byte type is the little-endian integer of bytes ``[i*s, (i+1)*s)``. A cast reads
the same bytes with another lane size.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference.common import elements, put


def register_bytes(lanes: Sequence[int], size: int) -> bytearray:
    """Return the bytes of a register whose lanes (of *size* bytes) hold the patterns *lanes*."""
    data = bytearray(len(lanes) * size)
    for i, value in enumerate(lanes):
        put(data, i * size, value, size)
    return data


def recast(lanes: Sequence[int], size: int, new_size: int) -> list[int]:
    """Return the lanes of the same register bytes read as lanes of *new_size* bytes."""
    data = register_bytes(lanes, size)
    return elements(data, 0, len(data) // new_size, new_size)

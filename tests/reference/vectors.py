"""The components of ``make_<type>(...)``: each argument converted as C converts it to the
parameter type, one Python number at a time."""

from __future__ import annotations

import math
import struct

INTEGER_BITS = {"char": (8, True), "uchar": (8, False), "short": (16, True), "ushort": (16, False),
                "int": (32, True), "uint": (32, False), "long": (64, True), "ulong": (64, False),
                "longlong": (64, True), "ulonglong": (64, False)}  # fmt: skip


def ref_component(base: str, value: int | float) -> int | float:
    """``(T)value`` for the element type of the vector family *base* (``"int"``, ``"float"`` ...)."""
    if base == "float":
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    bits, signed = INTEGER_BITS[base]
    number = math.trunc(value)
    low = -(1 << (bits - 1)) if signed else 0
    return (number - low) % (1 << bits) + low

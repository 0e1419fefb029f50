"""The C API register types: ``vector_int8_t`` ... ``vector_uint64_t`` and ``vector_bool``.

Also ``vector_half``, ``vector_float``, ``vector_bfloat16_t`` and the fp8 / hifloat8 / packed
4-bit vectors.

Each ``vector_*`` class is a final subclass of the machine's specialised ``RegTensor[T]``: the
same 256-byte storage, lane count and print/numpy behaviour, under its C name. A new register
is unwritten; reading it before a load or an op writes it is an error. ``vector_bool`` is a
final subclass of :class:`~ascreg.machine.registers.MaskReg` (256 mask bits).

Examples
--------
>>> import numpy as np
>>> r = vector_uint16_t()
>>> r.lanes, r.written
(128, False)
>>> r.set(np.arange(128)); np.asarray(r)[:3]
array([0, 1, 2], dtype=uint16)
>>> vector_float().lanes, vector_int4x2_t().lanes, vector_of(half) is vector_half
(64, 256, True)
"""

from __future__ import annotations

from typing import Any, final

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.machine.registers import VL, MaskReg, RegTensor


# fmt: off
@final
class vector_int8_t(RegTensor[int8_t]):
    """C ``vector_int8_t`` (builtin ``vector_s8``): a register of ``int8_t`` lanes."""

    __slots__ = ()


@final
class vector_uint8_t(RegTensor[uint8_t]):
    """C ``vector_uint8_t`` (builtin ``vector_u8``): a register of ``uint8_t`` lanes."""

    __slots__ = ()


@final
class vector_fp8_e4m3fn_t(RegTensor[fp8_e4m3fn_t]):
    """C ``vector_fp8_e4m3fn_t`` (builtin ``vector_f8e4m3``): a register of ``fp8_e4m3fn_t`` lanes."""

    __slots__ = ()


@final
class vector_fp8_e5m2_t(RegTensor[fp8_e5m2_t]):
    """C ``vector_fp8_e5m2_t`` (builtin ``vector_f8e5m2``): a register of ``fp8_e5m2_t`` lanes."""

    __slots__ = ()


@final
class vector_fp8_e8m0_t(RegTensor[fp8_e8m0_t]):
    """C ``vector_fp8_e8m0_t`` (builtin ``vector_f8e8m0``): a register of ``fp8_e8m0_t`` lanes."""

    __slots__ = ()


@final
class vector_hifloat8_t(RegTensor[hifloat8_t]):
    """C ``vector_hifloat8_t`` (builtin ``vector_hif8``): a register of ``hifloat8_t`` lanes."""

    __slots__ = ()


@final
class vector_int4x2_t(RegTensor[int4x2_t]):
    """C ``vector_int4x2_t`` (builtin ``vector_s4x2``): a register of ``int4x2_t`` lanes."""

    __slots__ = ()


@final
class vector_fp4x2_e2m1_t(RegTensor[fp4x2_e2m1_t]):
    """C ``vector_fp4x2_e2m1_t`` (builtin ``vector_f4e2m1x2``): a register of ``fp4x2_e2m1_t`` lanes."""

    __slots__ = ()


@final
class vector_fp4x2_e1m2_t(RegTensor[fp4x2_e1m2_t]):
    """C ``vector_fp4x2_e1m2_t`` (builtin ``vector_f4e1m2x2``): a register of ``fp4x2_e1m2_t`` lanes."""

    __slots__ = ()


@final
class vector_int16_t(RegTensor[int16_t]):
    """C ``vector_int16_t`` (builtin ``vector_s16``): a register of ``int16_t`` lanes."""

    __slots__ = ()


@final
class vector_uint16_t(RegTensor[uint16_t]):
    """C ``vector_uint16_t`` (builtin ``vector_u16``): a register of ``uint16_t`` lanes."""

    __slots__ = ()


@final
class vector_half(RegTensor[half]):
    """C ``vector_half`` (builtin ``vector_f16``): a register of ``half`` lanes."""

    __slots__ = ()


@final
class vector_bfloat16_t(RegTensor[bfloat16_t]):
    """C ``vector_bfloat16_t`` (builtin ``vector_bf16``): a register of ``bfloat16_t`` lanes."""

    __slots__ = ()


@final
class vector_int32_t(RegTensor[int32_t]):
    """C ``vector_int32_t`` (builtin ``vector_s32``): a register of ``int32_t`` lanes."""

    __slots__ = ()


@final
class vector_uint32_t(RegTensor[uint32_t]):
    """C ``vector_uint32_t`` (builtin ``vector_u32``): a register of ``uint32_t`` lanes."""

    __slots__ = ()


@final
class vector_float(RegTensor[float32_t]):
    """C ``vector_float`` (builtin ``vector_f32``): a register of ``float`` lanes."""

    __slots__ = ()


@final
class vector_int64_t(RegTensor[int64_t]):
    """C ``vector_int64_t`` (builtin ``vector_s64``): a register of ``int64_t`` lanes."""

    __slots__ = ()


@final
class vector_uint64_t(RegTensor[uint64_t]):
    """C ``vector_uint64_t`` (builtin ``vector_u64``): a register of ``uint64_t`` lanes."""

    __slots__ = ()

# fmt: on


@final
class vector_bool(MaskReg):
    """C ``vector_bool``: a 256-bit mask register (lane i of a bN op is bit ``i * N / 8``).

    Examples
    --------
    >>> m = vector_bool(); m.written
    False
    """

    __slots__ = ()


VECTOR_TYPES: dict[type[Scalar], type[RegTensor[Any, Any]]] = {
    cls.dtype: cls
    for cls in (
        vector_int8_t,
        vector_uint8_t,
        vector_fp8_e4m3fn_t,
        vector_fp8_e5m2_t,
        vector_fp8_e8m0_t,
        vector_hifloat8_t,
        vector_int4x2_t,
        vector_fp4x2_e2m1_t,
        vector_fp4x2_e1m2_t,
        vector_int16_t,
        vector_uint16_t,
        vector_half,
        vector_bfloat16_t,
        vector_int32_t,
        vector_uint32_t,
        vector_float,
        vector_int64_t,
        vector_uint64_t,
    )
}
"""The C register class of each element type."""


def _vector_doc(cls: type[RegTensor[Any, Any]]) -> str:
    """Append the register's geometry and an Examples section (built from its dtype)."""
    dtype, name = cls.dtype, cls.__name__
    lanes = VL // dtype.size
    return (
        f"{(cls.__doc__ or '').strip()}\n\n"
        f"{VL} bytes: {lanes} lanes of {dtype.bits} bits. A new register is unwritten until a\n"
        "load or an op writes it.\n\n"
        "Examples\n--------\n"
        f">>> from ascreg.c_api import {name}, {dtype.__name__}, vector_of\n"
        f">>> r = {name}()\n"
        ">>> r.lanes, r.dtype.cpp_name, r.written\n"
        f"({lanes}, {dtype.cpp_name!r}, False)\n"
        f">>> vector_of({dtype.__name__}) is {name}\n"
        "True\n"
    )


for _cls in VECTOR_TYPES.values():
    _cls.__doc__ = _vector_doc(_cls)
del _cls


def vector_of(dtype: type[Scalar]) -> type[RegTensor[Any, Any]]:
    """Return the ``vector_*`` class holding *dtype* lanes.

    Examples
    --------
    >>> from ascreg import int16_t
    >>> vector_of(int16_t).__name__
    'vector_int16_t'
    """
    return VECTOR_TYPES[dtype]

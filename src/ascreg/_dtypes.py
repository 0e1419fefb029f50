"""Scalar dtype markers under their C++ spellings.

Each marker is a class (so it can parameterise ``RegTensor[uint16_t]`` for a type checker) that
carries the numpy dtype used to hold its values. Types numpy cannot represent natively come from
``ml_dtypes`` (bfloat16, the fp8 family) or are *raw-bit* types stored as ``uint8`` bytes
(hifloat8, the packed 4-bit pairs): moves, selects and copies work on them, arithmetic is rejected.

Examples
--------
>>> from ascreg import uint16_t, bfloat16_t
>>> uint16_t.size, uint16_t.kind.value
(2, 'uint')
>>> bfloat16_t.np_dtype.name
'bfloat16'
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

import ml_dtypes
import numpy as np


class Kind(enum.Enum):
    """How the bits of a scalar type are interpreted."""

    BOOL = "bool"
    INT = "int"
    UINT = "uint"
    FLOAT = "float"
    RAW = "raw"  # numpy cannot compute on it; only bit-preserving ops are allowed


class Scalar:
    """Base class of every scalar dtype marker (``uint16_t``, ``half``, ...).

    Subclasses are markers, not containers: they are used as template arguments
    (``Reg.UpdateMask[uint16_t]``) and as the type parameter of registers and pointers.

    Examples
    --------
    >>> from ascreg import int16_t
    >>> int16_t.cpp_name, int16_t.size, int16_t.bits
    ('int16_t', 2, 16)
    """

    cpp_name: ClassVar[str]
    np_dtype: ClassVar[np.dtype[Any]]
    kind: ClassVar[Kind]
    size: ClassVar[int]
    bits: ClassVar[int]

    def __init_subclass__(
        cls, *, dtype: Any = None, kind: Kind | None = None, cpp: str = ""
    ) -> None:
        super().__init_subclass__()
        if dtype is None or kind is None:
            raise TypeError("a scalar marker needs dtype= and kind=")
        cls.np_dtype = np.dtype(dtype)
        cls.kind = kind
        cls.cpp_name = cpp or cls.__name__
        cls.size = cls.np_dtype.itemsize
        cls.bits = 8 * cls.size
        cls.__doc__ = _marker_doc(cls)
        _ALL.append(cls)

    def __new__(cls, *args: object, **kwargs: object) -> Scalar:
        raise TypeError(
            f"{cls.__name__} is a dtype marker, not a value type; "
            f"use numpy ({cls.np_dtype.name}) for scalar values"
        )


_ALL: list[type[Scalar]] = []


def _marker_doc(cls: type[Scalar]) -> str:
    """Append an Examples section (the marker's C++ name, size and numpy dtype) to its docstring."""
    return (
        f"{(cls.__doc__ or '').strip()}\n\n"
        "Examples\n--------\n"
        f">>> from ascreg import {cls.__name__}\n"
        f">>> {cls.__name__}.cpp_name, {cls.__name__}.size, {cls.__name__}.np_dtype.name\n"
        f"({cls.cpp_name!r}, {cls.size}, {cls.np_dtype.name!r})\n"
    )


# fmt: off
class bool_(Scalar, dtype=np.bool_, kind=Kind.BOOL, cpp="bool"):
    """C++ ``bool`` (one byte per lane)."""
class int8_t(Scalar, dtype=np.int8, kind=Kind.INT):
    """C++ ``int8_t``."""
class uint8_t(Scalar, dtype=np.uint8, kind=Kind.UINT):
    """C++ ``uint8_t``."""
class int16_t(Scalar, dtype=np.int16, kind=Kind.INT):
    """C++ ``int16_t``."""
class uint16_t(Scalar, dtype=np.uint16, kind=Kind.UINT):
    """C++ ``uint16_t``."""
class int32_t(Scalar, dtype=np.int32, kind=Kind.INT):
    """C++ ``int32_t``."""
class uint32_t(Scalar, dtype=np.uint32, kind=Kind.UINT):
    """C++ ``uint32_t``."""
class int64_t(Scalar, dtype=np.int64, kind=Kind.INT):
    """C++ ``int64_t``."""
class uint64_t(Scalar, dtype=np.uint64, kind=Kind.UINT):
    """C++ ``uint64_t``."""
class half(Scalar, dtype=np.float16, kind=Kind.FLOAT):
    """C++ ``half`` (IEEE binary16)."""
class bfloat16_t(Scalar, dtype=ml_dtypes.bfloat16, kind=Kind.FLOAT):
    """C++ ``bfloat16_t``."""
class float32_t(Scalar, dtype=np.float32, kind=Kind.FLOAT, cpp="float"):
    """C++ ``float`` (IEEE binary32)."""
class fp8_e4m3fn_t(Scalar, dtype=ml_dtypes.float8_e4m3fn, kind=Kind.FLOAT):
    """C++ ``fp8_e4m3fn_t``."""
class fp8_e5m2_t(Scalar, dtype=ml_dtypes.float8_e5m2, kind=Kind.FLOAT):
    """C++ ``fp8_e5m2_t``."""
class fp8_e8m0_t(Scalar, dtype=ml_dtypes.float8_e8m0fnu, kind=Kind.FLOAT):
    """C++ ``fp8_e8m0_t`` (exponent-only scale format)."""
class hifloat8_t(Scalar, dtype=np.uint8, kind=Kind.RAW):
    """C++ ``hifloat8_t`` (raw bits: no numpy arithmetic)."""
class int4x2_t(Scalar, dtype=np.uint8, kind=Kind.RAW):
    """C++ ``int4x2_t``: two int4 values per byte (raw bits)."""
class fp4x2_e2m1_t(Scalar, dtype=np.uint8, kind=Kind.RAW):
    """C++ ``fp4x2_e2m1_t``: two e2m1 values per byte (raw bits)."""
class fp4x2_e1m2_t(Scalar, dtype=np.uint8, kind=Kind.RAW):
    """C++ ``fp4x2_e1m2_t``: two e1m2 values per byte (raw bits)."""
# fmt: on

ALL_SCALARS: tuple[type[Scalar], ...] = tuple(_ALL)
"""Every scalar marker, in declaration order."""

INTEGERS = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t)
SIGNED_OF_WIDTH: dict[int, type[Scalar]] = {1: int8_t, 2: int16_t, 4: int32_t, 8: int64_t}
UNSIGNED_OF_WIDTH: dict[int, type[Scalar]] = {1: uint8_t, 2: uint16_t, 4: uint32_t, 8: uint64_t}


def is_scalar_type(obj: object) -> bool:
    """Return True when *obj* is one of the scalar dtype markers.

    Examples
    --------
    >>> from ascreg import half
    >>> is_scalar_type(half), is_scalar_type(3)
    (True, False)
    """
    return isinstance(obj, type) and issubclass(obj, Scalar) and obj is not Scalar


def bits_view(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """View *values* as unsigned integers of the same width (for bit-exact comparisons).

    Examples
    --------
    >>> import numpy as np
    >>> bits_view(np.array([-0.0], dtype=np.float32))
    array([2147483648], dtype=uint32)
    """
    return values.view(UNSIGNED_OF_WIDTH[values.dtype.itemsize].np_dtype)

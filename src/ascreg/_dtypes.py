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
import math
from fractions import Fraction
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

    def __new__(cls, value: object) -> Any:
        """``T(value)`` is the C cast ``(T)value`` / ``static_cast<T>(value)``: a numpy scalar.

        See :func:`c_cast` for the conversion rules.
        """
        return c_cast(cls, value)


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


class int4b_t(Scalar, dtype=np.uint8, kind=Kind.RAW):
    """C++ ``AscendC::int4b_t``: a signed 4-bit integer, the basic API's packed int4 element.

    Kernels name it in type tests (``IsSameType<T, int4b_t>``, written ``T is int4b_t``) and copy
    such data as ``uint8_t`` bytes, two values per byte (the register API's ``int4x2_t``).
    Declared after ``ALL_SCALARS``: it is no register lane type (there is no
    ``vector_int4b_t``). ``bits`` is 4; a tensor of ``int4b_t`` is not modelled (view the
    bytes as ``uint8_t``, as the kernels' copies do).
    """


int4b_t.bits = 4

float8_e4m3_t = fp8_e4m3fn_t
"""C++ ``float8_e4m3_t``: the headers' other name of ``fp8_e4m3fn_t``
(``using float8_e4m3_t = fp8_e4m3fn_t``; 1 sign, 4 exponent, 3 mantissa bits, largest 448)."""
float8_e5m2_t = fp8_e5m2_t
"""C++ ``float8_e5m2_t``: the headers' other name of ``fp8_e5m2_t``
(``using float8_e5m2_t = fp8_e5m2_t``; 1 sign, 5 exponent, 2 mantissa bits)."""

INTEGERS = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t)
SIGNED_OF_WIDTH: dict[int, type[Scalar]] = {1: int8_t, 2: int16_t, 4: int32_t, 8: int64_t}
UNSIGNED_OF_WIDTH: dict[int, type[Scalar]] = {1: uint8_t, 2: uint16_t, 4: uint32_t, 8: uint64_t}


def c_cast(target: type[Scalar], value: object) -> Any:
    """Convert *value* as the C cast ``(target)value`` does; return a numpy scalar.

    - to an integer type: an integer wraps modulo 2**N; a floating value truncates toward zero,
      and one that does not fit after truncation (or NaN, inf) is undefined in C:
      :class:`~ascreg.errors.ConversionRangeError`;
    - to a floating type: the exact value is rounded once to nearest, ties to even (values
      past the largest finite one become inf);
    - to ``bool``: nonzero is true.

    Also spelled ``target(value)``: ``half(2)``, ``int32_t(x)``.

    Examples
    --------
    >>> from ascreg import bfloat16_t, half, int8_t, int32_t, uint8_t
    >>> half(2), int8_t(200), uint8_t(-1), int32_t(-2.9)
    (np.float16(2.0), np.int8(-56), np.uint8(255), np.int32(-2))
    >>> int(bfloat16_t(2**24 + 2**16 + 1))  # one rounding (through float32: a tie, 2**24)
    16908288
    >>> int8_t(300.0)
    Traceback (most recent call last):
    ...
    ascreg.errors.ConversionRangeError: (int8_t)300.0: the value is outside [-128, 127] after truncation (undefined behaviour in C)
    """
    from ascreg.errors import AscregTypeError, ConversionRangeError

    if isinstance(value, np.ndarray) and value.ndim:
        return _cast_array(target, value)
    per_block = getattr(value, "__ascreg_map__", None)  # a block group's per-block value
    if per_block is not None:
        return per_block(lambda values: _cast_array(target, values))
    call = f"({target.cpp_name}){value!r}"
    number = _number(value, call, AscregTypeError)
    if target.kind is Kind.RAW:
        raise ConversionRangeError(f"{call}: {target.cpp_name} has no arithmetic conversion")
    if target.kind is Kind.BOOL:
        return np.bool_(number != 0)
    if target.kind is Kind.FLOAT:
        return _round_to(target.np_dtype, number, call)
    info = np.iinfo(target.np_dtype)
    if isinstance(number, float):
        if not math.isfinite(number) or not info.min <= math.trunc(number) <= info.max:
            raise ConversionRangeError(
                f"{call}: the value is outside [{info.min}, {info.max}] after truncation "
                "(undefined behaviour in C)"
            )
        number = math.trunc(number)
    wrapped = (number - info.min) % (1 << target.bits) + info.min
    return np.array(wrapped, target.np_dtype)[()]


def _cast_array(target: type[Scalar], values: np.ndarray[Any, Any]) -> Any:
    """:func:`c_cast` lane by lane (a SIMT kernel's ``int32_t(threadIdx.x)``); keeps the subclass.

    Integers wrap and floats truncate as in :func:`c_cast`; a conversion to a floating type
    that is not exact rounds each inexact lane through :func:`c_cast`.

    Examples
    --------
    >>> c_cast(int8_t, np.array([200, -1])), c_cast(int8_t, np.array([-1.5]))
    (array([-56,  -1], dtype=int8), array([-1], dtype=int8))
    >>> c_cast(float32_t, np.array([2**24 + 1, 2**24 + 3])).tolist()  # ties to even
    [16777216.0, 16777220.0]
    """
    if values.dtype.kind not in "biuf" or target.kind in (Kind.RAW, Kind.BOOL):
        return np.vectorize(lambda v: c_cast(target, v), otypes=[target.np_dtype])(values)
    if target.kind is not Kind.FLOAT:
        if values.dtype.kind == "f":
            values = _truncated(target, values)
        return values.astype(target.np_dtype)
    result = values.astype(target.np_dtype)
    inexact = result.astype(values.dtype) != values
    if inexact.any():
        result[inexact] = [c_cast(target, v) for v in values[inexact]]
    return result


def _truncated(target: type[Scalar], values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Truncate floats toward zero; raise if a lane does not fit *target* (undefined in C)."""
    from ascreg.errors import ConversionRangeError

    info = np.iinfo(target.np_dtype)
    whole: np.ndarray[Any, Any] = np.trunc(values.astype(np.float64))
    bad = ~((whole >= info.min) & (whole <= info.max))
    if bad.any():
        raise ConversionRangeError(
            f"({target.cpp_name}){values[bad].reshape(-1)[0]!r}: the value is outside "
            f"[{info.min}, {info.max}] after truncation (undefined behaviour in C)"
        )
    return whole


def _number(value: object, call: str, error: type[Exception]) -> int | float:
    """Return *value* as an exact Python int (integers, bools) or float (floating values)."""
    if isinstance(value, bool | np.bool_ | int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating) or (
        isinstance(value, np.generic) and value.dtype in ML_FLOATS
    ):
        return float(value)
    raise error(f"{call}: a C cast takes a number, got {type(value).__name__}")


ML_FLOATS = {np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
             ml_dtypes.float8_e5m2, ml_dtypes.float8_e8m0fnu)}  # fmt: skip
"""The ml_dtypes floating types (numpy does not count them as ``np.floating``)."""


def _round_to(dtype: np.dtype[Any], number: int | float, call: str) -> Any:
    """Round *number* once (nearest, ties to even) to the floating *dtype*."""
    from ascreg.errors import ConversionRangeError

    if isinstance(number, float) and (number == 0 or not math.isfinite(number)):
        return np.array(number).astype(dtype)[()]  # signed zero, inf, NaN carry over
    exact, uint = Fraction(number), UNSIGNED_OF_WIDTH[dtype.itemsize].np_dtype
    top = Fraction(float(ml_dtypes.finfo(dtype).max))  # type: ignore[no-untyped-call]
    below = Fraction(float(_step(np.array(float(top)).astype(dtype)[()], -1, uint)))
    if abs(exact) >= top + (top - below) / 2:  # rounds past the largest finite value
        if not _has_inf(dtype):
            raise ConversionRangeError(f"{call}: the value is past the largest {dtype.name}")
        return np.array(-math.inf if exact < 0 else math.inf).astype(dtype)[()]
    with np.errstate(over="ignore"):
        near = np.array(float(abs(exact))).astype(dtype)[()]  # within one step of the answer
    steps = [_step(near, d, uint) for d in (-1, 0, 1) if d >= 0 or near != 0]
    with np.errstate(invalid="ignore"):
        finite = [c for c in steps if np.isfinite(c)]
    best = min(
        finite,
        key=lambda c: (abs(Fraction(float(c)) - abs(exact)), int(np.array(c).view(uint)) & 1),
    )
    return -best if exact < 0 else best


def _step(value: Any, direction: int, uint: Any) -> Any:
    """Return the floating value *direction* bit patterns away from *value* (magnitudes)."""
    return np.array(int(np.array(value).view(uint)) + direction, uint).view(value.dtype)[()]


def _has_inf(dtype: np.dtype[Any]) -> bool:
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isinf(np.array(np.inf).astype(dtype)))


def is_scalar_type(obj: object) -> bool:
    """Return True when *obj* is one of the scalar dtype markers.

    Examples
    --------
    >>> from ascreg import half
    >>> is_scalar_type(half), is_scalar_type(3)
    (True, False)
    """
    return isinstance(obj, type) and issubclass(obj, Scalar) and obj is not Scalar


def is_struct_type(obj: object) -> bool:
    """Return True when *obj* is a struct element type (a SIMT vector type such as ``half2``).

    Such a type is a class with a structured ``np_dtype`` (one field per component) and the
    markers' ``cpp_name``/``size``/``kind``; pointers can be cast to it (C's ``(half2*)p``).

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.simt import half2
    >>> is_struct_type(half2), is_struct_type(half)
    (True, False)
    """
    dtype = getattr(obj, "np_dtype", None)
    return isinstance(obj, type) and isinstance(dtype, np.dtype) and dtype.names is not None


def bits_view(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """View *values* as unsigned integers of the same width (for bit-exact comparisons).

    Examples
    --------
    >>> import numpy as np
    >>> bits_view(np.array([-0.0], dtype=np.float32))
    array([2147483648], dtype=uint32)
    """
    return values.view(UNSIGNED_OF_WIDTH[values.dtype.itemsize].np_dtype)

"""Converting user values (Python numbers, numpy values, sequences) into lanes of a scalar type.

Every place where a value the user wrote becomes a lane goes through :func:`to_dtype`: a
register's ``set``, a pointer's ``write`` and ``p[i] = v``, and every scalar operand of an op
(``Duplicate``, ``Adds``, ``Maxs``, ``Compares``, ...). The rules:

* Integer targets never wrap: a value outside the type's range is an error, whatever its size
  (a Python int beyond 64 bits included); a float value needs an explicit cast.
* Float targets (``half``, ``bfloat16_t``, ``float``, the fp8 types) round **once**, to nearest
  with ties to even, from the exact value: a Python float is rounded from its float64 value, a
  Python int from its integer value. numpy and ml_dtypes alone would round a float64 to
  ``bfloat16_t`` through float32 (twice); :func:`round_float` goes through float32 with
  round-to-odd instead, which makes the second rounding the only one that counts
  (:data:`ODD_GUARD_BITS`). Values beyond the largest finite value round to infinity as IEEE 754
  says (or to the type's NaN where it has no infinity, as ml_dtypes encodes it).
* Anything that is not a number (``None``, a ``str``, an object) is an
  :class:`~ascreg.errors.AscregTypeError` naming the call, the value and the rule.

Examples
--------
>>> from ascreg import bfloat16_t, uint8_t
>>> hex(int(to_dtype(1 + 2**-8 + 2**-30, bfloat16_t).view("uint16")))
'0x3f81'
>>> to_dtype(2**70, uint8_t)
Traceback (most recent call last):
...
ascreg.errors.AscregError: cannot store 1180591620717411303424 as uint8_t: the value is outside [0, 255] and ascreg does not wrap silently
"""

from __future__ import annotations

import math
import struct
from typing import Any

import ml_dtypes
import numpy as np

from ascreg._dtypes import Kind, Scalar
from ascreg.errors import AscregError, AscregTypeError, current_call

Arr = np.ndarray[Any, Any]

ODD_GUARD_BITS = 2
"""Extra precision bits round-to-odd needs for a second rounding to be correct.

float32 carries 24 significant bits; every narrower float lane type (half: 11, bfloat16: 8, the
fp8 types: at most 4) has at least this many fewer, and float32's exponent range covers theirs,
so rounding to odd into float32 and then to nearest even into the lane type rounds once."""

_F64_EXACT_INT = 2**53
"""Integers up to this magnitude are exact in float64."""

_NUMBER_KINDS = "biuf"
"""numpy dtype kinds that hold numbers a lane can take (bool, signed, unsigned, float)."""

_ML_FLOATS = frozenset(
    np.dtype(t)
    for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2,
              ml_dtypes.float8_e8m0fnu)
)  # fmt: skip
"""The ml_dtypes float types (numpy reports their kind as ``V``): numbers too, all exact in
float32."""


def _kind(dtype: np.dtype[Any]) -> str:
    """Return the numpy kind of *dtype*, with the ml_dtypes floats reported as ``f``."""
    return "f" if dtype in _ML_FLOATS else dtype.kind


def to_dtype(values: Any, dtype: type[Scalar], *, call: str | None = None) -> Arr:
    """Convert *values* to an array of *dtype* by the rules of this module.

    *call* names the user's call in an error when no op is on the stack (``RegTensor.set``).

    Examples
    --------
    >>> from ascreg import half, int8_t
    >>> to_dtype([1, -2], int8_t)
    array([ 1, -2], dtype=int8)
    >>> to_dtype(None, half, call="RegTensor.set")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: RegTensor.set: cannot convert None (NoneType) to half: a lane takes a number (a Python or numpy int, float or bool)
    """
    target = dtype.np_dtype
    if target.names is not None:
        return _structs(values, dtype, call)
    source = _numbers(values, dtype, call)
    if source.dtype == target:
        return source
    if dtype.kind is Kind.FLOAT:
        return round_float(source, dtype)
    if _kind(source.dtype) == "f":
        if dtype.kind in (Kind.INT, Kind.UINT):
            _float_to_integer(source.ravel(), dtype, call)
        return source.astype(target)
    if target.kind in "iu":
        _check_range(source, dtype, call)
    return source.astype(target)


def _where(call: str | None) -> str | None:
    """Name the user's call in an error: the op on the stack, else *call*.

    Looked up only when an error is raised: walking the stack costs more than a conversion.
    """
    return current_call() or call


def _structs(values: Any, dtype: type[Scalar], call: str | None) -> Arr:
    """Return *values* (of the struct type *dtype*, such as ``half2``) as a plain array."""
    array = values if isinstance(values, np.ndarray) else np.asarray(values)
    if array.dtype == dtype.np_dtype:
        return np.asarray(array).view(np.ndarray)
    raise AscregTypeError(
        f"cannot store {values!r:.60} ({type(values).__name__}) as {dtype.cpp_name}: a "
        f"{dtype.cpp_name} element takes {dtype.cpp_name} values",
        call=_where(call),
    )


def _numbers(values: Any, dtype: type[Scalar], call: str | None) -> Arr:
    """Return *values* as a numeric array (Python ints too big for int64 stay as objects)."""
    source = values if isinstance(values, np.ndarray) else np.asarray(values)
    if _kind(source.dtype) in _NUMBER_KINDS:
        return source
    if source.dtype.kind == "O":
        flat = source.ravel()
        if all(_is_number(v) for v in flat):
            return source
        values = next(v for v in flat if not _is_number(v))
    raise AscregTypeError(
        f"cannot convert {values!r:.60} ({type(values).__name__}) to {dtype.cpp_name}: a lane "
        "takes a number (a Python or numpy int, float or bool)",
        call=_where(call),
    )


def _float_to_integer(floats: Arr, dtype: type[Scalar], call: str | None) -> None:
    """Raise for float values stored into an integer lane, naming the most telling one.

    A NaN or an infinity first (no integer holds it), else a value with a fraction, else the
    first: even 2.0 needs the explicit conversion C++ would need to be written.
    """
    wide = floats.astype(np.float64)
    special = np.flatnonzero(~np.isfinite(wide))
    fraction = np.flatnonzero(np.isfinite(wide) & (wide != np.trunc(wide)))
    pick = special[0] if special.size else fraction[0] if fraction.size else 0
    value = wide[pick].item()
    why = "it has no integer value" if special.size else "it is a float"
    raise AscregError(
        f"cannot store the float value {value!r} as {dtype.cpp_name} ({why}): an integer lane "
        "takes a float only through an explicit cast (Reg.Cast / Reg.Truncate on a register, "
        "int() of a Python number)",
        call=_where(call),
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating | np.bool_)


def _check_range(source: Arr, dtype: type[Scalar], call: str | None) -> None:
    """Raise unless every integer in *source* fits *dtype* (compared exactly, as Python ints)."""
    if not source.size:
        return
    info = np.iinfo(dtype.np_dtype)
    if source.dtype.kind == "O":
        floats = [v for v in source.flat if isinstance(v, float | np.floating)]
        if floats:
            _float_to_integer(np.asarray(floats, dtype=np.float64), dtype, call)
        bad = [int(v) for v in source.flat if not info.min <= int(v) <= info.max]
    elif source.min() < info.min or source.max() > info.max:
        bad = [source[(source < info.min) | (source > info.max)].ravel()[0]]
    else:
        return
    if bad:
        raise AscregError(
            f"cannot store {bad[0]} as {dtype.cpp_name}: the value is outside "
            f"[{info.min}, {info.max}] and ascreg does not wrap silently",
            call=_where(call),
        )


def round_float(source: Arr, dtype: type[Scalar]) -> Arr:
    """Round numbers to the float lane type *dtype* once, to nearest even, from their exact value.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import bfloat16_t, half
    >>> hex(int(round_float(np.asarray(2**30 + 2**22 + 1), bfloat16_t).view("uint16")))
    '0x4e81'
    >>> round_float(np.asarray([65519.99, 65520.0]), half).tolist()
    [65504.0, inf]
    """
    target = dtype.np_dtype
    kind, size = _kind(source.dtype), source.dtype.itemsize
    if (kind == "f" and size <= 4) or (kind in "biu" and size <= 2):
        with np.errstate(over="ignore"):  # past the largest finite value: inf, as documented
            return source.astype(target)  # exact in float32: the cast is the only rounding
    wide = _odd_float64(source)
    with np.errstate(over="ignore"):
        if target == np.float32:
            return wide.astype(np.float32)
        return _odd_float32(wide).astype(target)


def _odd_float64(source: Arr) -> Arr:
    """Return *source* as float64, rounded to odd where float64 cannot hold the value."""
    kind, size = source.dtype.kind, source.dtype.itemsize
    if kind == "f" or (kind in "biu" and size <= 4):
        return source.astype(np.float64)
    if kind in "iu":
        wide = source.astype(np.float64)
        big = np.abs(wide) >= _F64_EXACT_INT
        if not big.any():
            return wide
        wide = np.array(wide)
        wide[big] = [_int_odd_float64(int(v)) for v in source[big]]
        return wide
    flat = [  # object array: Python ints of any size, floats, numpy numbers
        float(v) if isinstance(v, float | np.floating) else _int_odd_float64(int(v))
        for v in source.flat
    ]
    return np.array(flat, dtype=np.float64).reshape(source.shape)


def _int_odd_float64(n: int) -> float:
    """Round the integer *n* to float64 with round-to-odd (infinity beyond float64's range)."""
    try:
        near = float(n)
    except OverflowError:
        return math.copysign(math.inf, n)
    back = int(near) if math.isfinite(near) else None
    if back == n:
        return near
    if back is None or abs(back) > abs(n):
        near = math.nextafter(near, 0.0)
    (bits,) = struct.unpack("<q", struct.pack("<d", near))
    return float(struct.unpack("<d", struct.pack("<q", bits | 1))[0])


def _odd_float32(wide: Arr) -> Arr:
    """Round float64 values to float32 with round-to-odd (see :data:`ODD_GUARD_BITS`).

    Round to nearest, step back toward zero where that went past the value, then set the last
    bit of every inexact result: an inexact value lands on an odd float32, strictly between the
    two lane-type neighbours it lies between, so the final rounding sees which side it is on.
    An overflow to infinity steps back to the largest float32, which still rounds to infinity
    in every narrower type.
    """
    with np.errstate(invalid="ignore"):  # a signalling NaN comes out quiet, as IEEE 754 has it
        near = wide.astype(np.float32)
    back = near.astype(np.float64)
    inexact = (back != wide) & np.isfinite(wide)
    if not inexact.any():
        return near
    bits = near.view(np.uint32)
    past = inexact & (np.abs(back) > np.abs(wide))
    bits = np.where(past, bits - np.uint32(1), bits)
    bits = np.where(inexact, bits | np.uint32(1), bits).astype(np.uint32)
    return bits.view(np.float32).reshape(wide.shape)

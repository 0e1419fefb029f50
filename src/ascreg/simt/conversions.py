"""The SIMT conversions and bit casts (``__float2int_rn`` ... ``__ull2float_rna``, ``__float_as_int``).

One row per function in :data:`ascreg._spec.SIMT_CONVERSION_ROWS` (a table of source type,
destination type and rounding mode), one implementation, defined in a loop. Lanes are computed by
:mod:`ascreg.core.conversions`: float to integer rounds by the suffix and saturates (NaN gives 0,
the documented special values), integer to float rounds the exact integer once, the bit casts
reinterpret the 32 bits.

Rounding suffixes: ``rn`` nearest (ties to even, CAST_RINT), ``rz`` toward zero (CAST_TRUNC),
``ru`` up (CAST_CEIL), ``rd`` down (CAST_FLOOR), ``rna`` nearest with ties away from zero
(CAST_ROUND).

Arguments follow the C parameter rules of :mod:`ascreg.simt.floatmath` (``float``) and
:mod:`ascreg.simt.intrinsics` (integers: a same-width integer of the other signedness is
reinterpreted, a wider one is an error).

Examples
--------
>>> from ascreg.simt import __float2int_rn, __int_as_float
>>> int(__float2int_rn(2.5)), float(__int_as_float(0x3F800000))
(2, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ascreg._spec import SIMT_CONVERSION_ROWS
from ascreg.simt import _libm

_MODES = {
    "rn": "to the nearest value, ties to even (CAST_RINT)",
    "rz": "toward zero (CAST_TRUNC)",
    "ru": "up, toward +inf (CAST_CEIL)",
    "rd": "down, toward -inf (CAST_FLOOR)",
    "rna": "to the nearest value, ties away from zero (CAST_ROUND)",
}
_EXAMPLE_ARGUMENTS = {"float": "-2.5", "int": "-16777217", "uint": "16777217", "ll": "2**53 + 1",
                      "ull": "2**64 - 1"}  # fmt: skip


def _what(name: str) -> tuple[str, str]:
    """Return the description of conversion *name* and its example argument."""
    if "_as_" in name:
        source = name.removeprefix("__").split("_as_")[0]
        return "The same 32 bits reinterpreted (a bit cast; exact).", {
            "float": "1.0", "int": "0x3F800000", "uint": "0xBF800000"}[source]  # fmt: skip
    body, _, mode = name.removeprefix("__").rpartition("_")
    source, _, target = body.partition("2")
    rounding = _MODES[mode]
    if source == "float" and target == "float":
        what = f"x rounded to an integral float {rounding}; ±0, ±inf and NaN are unchanged."
    elif source == "float":
        what = (f"x rounded {rounding} and converted to the integer type, saturating: values "
                "beyond the range (and ±inf) give its maximum or minimum, NaN gives 0.")  # fmt: skip
    else:
        what = f"The integer x rounded {rounding} to a float, once (exact when it fits)."
    return what, _EXAMPLE_ARGUMENTS[source]


def _doc(name: str) -> str:
    what, argument = _what(name)
    return (
        f"``{_libm.c_signature(name)}`` (``device_functions.h``).\n\n{what}\n\n"
        f"Examples\n--------\n>>> from ascreg.simt import {name}\n>>> {name}({argument})\n"
        f"{_RESULTS[name]}\n"
    )


_RESULTS: dict[str, str] = {
    "__float2float_rn": "np.float32(-2.0)",
    "__float2int_rn": "np.int32(-2)",
    "__int2float_rn": "np.float32(-1.6777216e+07)",
    "__float2uint_rn": "np.uint32(0)",
    "__uint2float_rn": "np.float32(1.6777216e+07)",
    "__float2ll_rn": "np.int64(-2)",
    "__ll2float_rn": "np.float32(9.007199e+15)",
    "__float2ull_rn": "np.uint64(0)",
    "__ull2float_rn": "np.float32(1.8446744e+19)",
    "__float2float_rz": "np.float32(-2.0)",
    "__float2int_rz": "np.int32(-2)",
    "__int2float_rz": "np.float32(-1.6777216e+07)",
    "__float2uint_rz": "np.uint32(0)",
    "__uint2float_rz": "np.float32(1.6777216e+07)",
    "__float2ll_rz": "np.int64(-2)",
    "__ll2float_rz": "np.float32(9.007199e+15)",
    "__float2ull_rz": "np.uint64(0)",
    "__ull2float_rz": "np.float32(1.8446743e+19)",
    "__float2float_ru": "np.float32(-2.0)",
    "__float2int_ru": "np.int32(-2)",
    "__int2float_ru": "np.float32(-1.6777216e+07)",
    "__float2uint_ru": "np.uint32(0)",
    "__uint2float_ru": "np.float32(1.6777218e+07)",
    "__float2ll_ru": "np.int64(-2)",
    "__ll2float_ru": "np.float32(9.0072e+15)",
    "__float2ull_ru": "np.uint64(0)",
    "__ull2float_ru": "np.float32(1.8446744e+19)",
    "__float2float_rd": "np.float32(-3.0)",
    "__float2int_rd": "np.int32(-3)",
    "__int2float_rd": "np.float32(-1.6777218e+07)",
    "__float2uint_rd": "np.uint32(0)",
    "__uint2float_rd": "np.float32(1.6777216e+07)",
    "__float2ll_rd": "np.int64(-3)",
    "__ll2float_rd": "np.float32(9.007199e+15)",
    "__float2ull_rd": "np.uint64(0)",
    "__ull2float_rd": "np.float32(1.8446743e+19)",
    "__float2float_rna": "np.float32(-3.0)",
    "__float2int_rna": "np.int32(-3)",
    "__int2float_rna": "np.float32(-1.6777218e+07)",
    "__float2uint_rna": "np.uint32(0)",
    "__uint2float_rna": "np.float32(1.6777218e+07)",
    "__float2ll_rna": "np.int64(-3)",
    "__ll2float_rna": "np.float32(9.007199e+15)",
    "__float2ull_rna": "np.uint64(0)",
    "__ull2float_rna": "np.float32(1.8446744e+19)",
    "__float_as_int": "np.int32(1065353216)",
    "__float_as_uint": "np.uint32(1065353216)",
    "__int_as_float": "np.float32(1.0)",
    "__uint_as_float": "np.float32(-1.0)",
}
"""The output of each docstring example (checked by the doctests)."""


def _define_conversions() -> dict[str, Callable[..., Any]]:
    return {name: _libm.define_row(name, _doc(name), __name__) for name in SIMT_CONVERSION_ROWS}


CONVERSIONS: dict[str, Callable[..., Any]] = _define_conversions()
"""The conversions and bit casts by C name (each is also a module attribute)."""
globals().update(CONVERSIONS)


def __getattr__(name: str) -> Any:
    """Tell type checkers of the implementation that the loop-defined functions exist."""
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The vector types (``int2``, ``float4``, ``uchar4`` ...), ``half2`` and ``bfloat16x2_t``, and ``make_*``.

Each type is a real class (:class:`~ascreg.machine.simt.vectors.VectorValue`, a numpy array with
a structured dtype laid out as the C struct): ``int2(1, 2)`` or ``make_int2(1, 2)`` builds one,
``v.x`` / ``v.y`` (``.z``, ``.w``) read and write the components, and in a SIMT kernel a value
built from per-thread components holds one value per thread (the masked merge of divergent code
keeps the type). A pointer cast to the type reads and writes whole structs:
``p.cast(int2)[i]`` is C's ``((int2*)p)[i]``.

Components convert as C converts a ``make_*`` argument to its parameter type: integers wrap
modulo 2**N, floats to an integer type truncate toward zero (out of range: an error, undefined
in C), values to ``float`` / ``half`` / ``bfloat16`` round once to nearest even.

Assignment copies, as for a C struct: in a SIMT kernel ``b = a; b.x = 1`` leaves ``a``
unchanged in every divergence tier (the kernel's assignments store a copy of a vector value;
``a.x = 1`` writes in place). Outside a kernel Python's sharing applies: write ``b = a.copy()``.

``long`` is 64-bit (the LP64 data model of the device compiler), so ``long2`` and
``longlong2`` hold the same components.

Examples
--------
>>> from ascreg.simt import make_int2, float4, half2
>>> v = make_int2(1, 2); v.y = 7; v
int2(x=1, y=7)
>>> float4(1, 2, 3, 4.5).w
np.float32(4.5)
>>> half2(0.1, 1).x
np.float16(0.1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import numpy as np

from ascreg._dtypes import (
    bfloat16_t,
    c_cast,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._frontend.template import define
from ascreg._spec.simt import VECTOR_TYPES
from ascreg.core import pairs
from ascreg.core.vectors import assemble
from ascreg.errors import AscregTypeError
from ascreg.machine.simt.vectors import Vector2 as Vector2
from ascreg.machine.simt.vectors import Vector3 as Vector3
from ascreg.machine.simt.vectors import Vector4 as Vector4
from ascreg.machine.simt.vectors import VectorValue as VectorValue
from ascreg.machine.simt.vectors import is_vector_type as is_vector_type
from ascreg.machine.simt.vectors import vector_type

Arr = np.ndarray[Any, Any]


class PairValue(Vector2):
    """Base of ``half2`` and ``bfloat16x2_t``: C++'s operators on the pair types.

    ``a + b``, ``a - b``, ``a * b``, ``a / b`` and ``-a`` work per component, rounded once, as
    ``__haddx2``, ``__hsubx2``, ``__hmulx2``, ``__hdivx2`` and ``__hnegx2`` do; both operands must
    be of the same pair type (C++ converts nothing to a pair implicitly).

    Examples
    --------
    >>> from ascreg.simt import half2
    >>> half2(1, 2) + half2(0.5, 0.25), -half2(1, -0.0)
    (half2(x=1.5, y=2.25), half2(x=-1.0, y=0.0))
    """

    def _apply(self, formula: Callable[[Arr, Arr], Arr], other: Any) -> Any:
        if type(other) is not type(self):
            raise AscregTypeError(
                f"{self.cpp_name} and {type(other).__name__}: the operators of {self.cpp_name} "
                f"take two {self.cpp_name} values",
                call=f"{self.cpp_name} operator",
            )
        return type(self).from_components(formula(self.components(), other.components()))

    def __add__(self, other: Any) -> Any:
        return self._apply(pairs.add, other)

    def __sub__(self, other: Any) -> Any:
        return self._apply(pairs.sub, other)

    def __mul__(self, other: Any) -> Any:
        return self._apply(pairs.mul, other)

    def __truediv__(self, other: Any) -> Any:
        return self._apply(pairs.div, other)

    def __neg__(self) -> Any:
        return type(self).from_components(pairs.neg(self.components()))


class CodePairValue(Vector2):
    """Base of ``hifloat8x2_t``: two raw 8-bit codes (hifloat8 has no numpy arithmetic type).

    ``hifloat8x2_t(x, y)`` takes the components' codes, integers in ``[0, 255]`` (``0x08`` is
    1.0, ``0x6F`` +inf, ``0x80`` NaN); the conversion functions (``__float22hif82_rna`` ...)
    make them from numbers, ``__hif822float2`` reads them back.

    Examples
    --------
    >>> from ascreg.simt import hifloat8x2_t, __hif822float2
    >>> __hif822float2(hifloat8x2_t(0x08, 0x6F))
    float2(x=1.0, y=inf)
    """

    def __new__(cls, *components: Any) -> Self:
        """``hifloat8x2_t(x, y)`` from the two codes (per-thread integer arrays allowed)."""
        if len(components) != len(cls.fields):
            raise TypeError(f"{cls.cpp_name} takes 2 components (x, y), got {len(components)}")
        parts = [np.asarray(c) for c in components]
        for name, part in zip(cls.fields, parts, strict=True):
            integral = part.dtype.kind in "iu"  # bool is kind "b": no code
            if not integral or (part.size and (part.min() < 0 or part.max() > 0xFF)):
                raise AscregTypeError(
                    f"component {name} is {part!r:.60}; {cls.cpp_name} takes the 8-bit codes "
                    "of its components, integers in [0, 255]",
                    call=cls.cpp_name,
                )
        stacked = np.stack(np.broadcast_arrays(*parts), axis=-1).astype(np.uint8)
        return cls.from_components(stacked)


half2 = vector_type("half2", half, 2, PairValue)
bfloat16x2_t = vector_type("bfloat16x2_t", bfloat16_t, 2, PairValue)
char2 = vector_type("char2", int8_t, 2)
char3 = vector_type("char3", int8_t, 3)
char4 = vector_type("char4", int8_t, 4)
uchar2 = vector_type("uchar2", uint8_t, 2)
uchar3 = vector_type("uchar3", uint8_t, 3)
uchar4 = vector_type("uchar4", uint8_t, 4)
short2 = vector_type("short2", int16_t, 2)
short3 = vector_type("short3", int16_t, 3)
short4 = vector_type("short4", int16_t, 4)
ushort2 = vector_type("ushort2", uint16_t, 2)
ushort3 = vector_type("ushort3", uint16_t, 3)
ushort4 = vector_type("ushort4", uint16_t, 4)
int2 = vector_type("int2", int32_t, 2)
int3 = vector_type("int3", int32_t, 3)
int4 = vector_type("int4", int32_t, 4)
uint2 = vector_type("uint2", uint32_t, 2)
uint3 = vector_type("uint3", uint32_t, 3)
uint4 = vector_type("uint4", uint32_t, 4)
long2 = vector_type("long2", int64_t, 2)
long3 = vector_type("long3", int64_t, 3)
long4 = vector_type("long4", int64_t, 4)
ulong2 = vector_type("ulong2", uint64_t, 2)
ulong3 = vector_type("ulong3", uint64_t, 3)
ulong4 = vector_type("ulong4", uint64_t, 4)
longlong2 = vector_type("longlong2", int64_t, 2)
longlong3 = vector_type("longlong3", int64_t, 3)
longlong4 = vector_type("longlong4", int64_t, 4)
ulonglong2 = vector_type("ulonglong2", uint64_t, 2)
ulonglong3 = vector_type("ulonglong3", uint64_t, 3)
ulonglong4 = vector_type("ulonglong4", uint64_t, 4)
float2 = vector_type("float2", float32_t, 2)
hifloat8x2_t = vector_type("hifloat8x2_t", hifloat8_t, 2, CodePairValue)
hifloat8x2_t.__doc__ = (
    "C ``hifloat8x2_t``: two hifloat8 codes (``.x``, ``.y``, ``uint8``), one value per thread "
    "in a SIMT kernel.\n\nExamples\n--------\n>>> from ascreg.simt import hifloat8x2_t\n"
    ">>> hifloat8x2_t(0x08, 0x80)\nhifloat8x2_t(x=8, y=128)\n"
)
float8_e4m3x2_t = vector_type("float8_e4m3x2_t", fp8_e4m3fn_t, 2)
float8_e5m2x2_t = vector_type("float8_e5m2x2_t", fp8_e5m2_t, 2)
FP8_PAIRS = (hifloat8x2_t, float8_e4m3x2_t, float8_e5m2x2_t)
"""The 8-bit float pair types of ``asc_fp8.h``."""
float3 = vector_type("float3", float32_t, 3)
float4 = vector_type("float4", float32_t, 4)


VECTOR_CLASSES: dict[str, Any] = {
    cls.cpp_name: cls
    for cls in (half2, bfloat16x2_t, *(globals()[n] for n in VECTOR_TYPES), *FP8_PAIRS)
}
"""Every vector value class by its C name."""


def _make(op: Any, *components: Any) -> Any:
    """``T make_T(x, y, ...)``: the components converted to the element type, assembled."""
    cls = op.vector
    if len(components) != len(cls.fields):
        raise TypeError(f"{op.name} takes {len(cls.fields)} arguments, got {len(components)}")
    parts = [c_cast(cls.element, c) for c in components]
    return cls.from_components(assemble(*parts))


def _make_doc(name: str) -> str:
    cls = VECTOR_CLASSES[name]
    count = len(cls.fields)
    args = ", ".join(str(i + 1) for i in range(count))
    number = "{}.0" if cls.element is float32_t else "{}"
    shown = ", ".join(f"{f}={number.format(i + 1)}" for i, f in enumerate(cls.fields))
    params = ", ".join(f"{cls.element.cpp_name} {f}" for f in cls.fields)
    return (
        f"``{name} make_{name}({params})`` (``vector_functions.h``).\n\n"
        f"Returns the :class:`{name}` with those components (converted as C converts the "
        "arguments; per-thread arguments give one value per thread).\n\n"
        "Examples\n--------\n"
        f">>> from ascreg.simt import make_{name}\n"
        f">>> make_{name}({args})\n{name}({shown})\n"
    )


make_char2 = define("make_char2", doc=_make_doc("char2"), vector=char2)(_make)
make_char3 = define("make_char3", doc=_make_doc("char3"), vector=char3)(_make)
make_char4 = define("make_char4", doc=_make_doc("char4"), vector=char4)(_make)
make_uchar2 = define("make_uchar2", doc=_make_doc("uchar2"), vector=uchar2)(_make)
make_uchar3 = define("make_uchar3", doc=_make_doc("uchar3"), vector=uchar3)(_make)
make_uchar4 = define("make_uchar4", doc=_make_doc("uchar4"), vector=uchar4)(_make)
make_short2 = define("make_short2", doc=_make_doc("short2"), vector=short2)(_make)
make_short3 = define("make_short3", doc=_make_doc("short3"), vector=short3)(_make)
make_short4 = define("make_short4", doc=_make_doc("short4"), vector=short4)(_make)
make_ushort2 = define("make_ushort2", doc=_make_doc("ushort2"), vector=ushort2)(_make)
make_ushort3 = define("make_ushort3", doc=_make_doc("ushort3"), vector=ushort3)(_make)
make_ushort4 = define("make_ushort4", doc=_make_doc("ushort4"), vector=ushort4)(_make)
make_int2 = define("make_int2", doc=_make_doc("int2"), vector=int2)(_make)
make_int3 = define("make_int3", doc=_make_doc("int3"), vector=int3)(_make)
make_int4 = define("make_int4", doc=_make_doc("int4"), vector=int4)(_make)
make_uint2 = define("make_uint2", doc=_make_doc("uint2"), vector=uint2)(_make)
make_uint3 = define("make_uint3", doc=_make_doc("uint3"), vector=uint3)(_make)
make_uint4 = define("make_uint4", doc=_make_doc("uint4"), vector=uint4)(_make)
make_long2 = define("make_long2", doc=_make_doc("long2"), vector=long2)(_make)
make_long3 = define("make_long3", doc=_make_doc("long3"), vector=long3)(_make)
make_long4 = define("make_long4", doc=_make_doc("long4"), vector=long4)(_make)
make_ulong2 = define("make_ulong2", doc=_make_doc("ulong2"), vector=ulong2)(_make)
make_ulong3 = define("make_ulong3", doc=_make_doc("ulong3"), vector=ulong3)(_make)
make_ulong4 = define("make_ulong4", doc=_make_doc("ulong4"), vector=ulong4)(_make)
make_longlong2 = define("make_longlong2", doc=_make_doc("longlong2"), vector=longlong2)(_make)
make_longlong3 = define("make_longlong3", doc=_make_doc("longlong3"), vector=longlong3)(_make)
make_longlong4 = define("make_longlong4", doc=_make_doc("longlong4"), vector=longlong4)(_make)
make_ulonglong2 = define("make_ulonglong2", doc=_make_doc("ulonglong2"), vector=ulonglong2)(_make)
make_ulonglong3 = define("make_ulonglong3", doc=_make_doc("ulonglong3"), vector=ulonglong3)(_make)
make_ulonglong4 = define("make_ulonglong4", doc=_make_doc("ulonglong4"), vector=ulonglong4)(_make)
make_float2 = define("make_float2", doc=_make_doc("float2"), vector=float2)(_make)
make_float3 = define("make_float3", doc=_make_doc("float3"), vector=float3)(_make)
make_float4 = define("make_float4", doc=_make_doc("float4"), vector=float4)(_make)

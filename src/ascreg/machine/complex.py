"""``AscendC::Complex<T>``, ``complex32`` and ``complex64`` (辅助数据结构/complex32-complex64).

The page defines ``template <class T> struct Complex { T real; T imag; }`` with ``T`` half or
float, and the aliases ``complex32 = Complex<half>`` (32 bits) and ``complex64 =
Complex<float>`` (64 bits). ``Complex[half]`` is ``complex32``, ``Complex[float32_t]`` is
``complex64``; each is a value class laid out as the struct (``real`` then ``imag``) and an
element type: ``LocalTensor[complex64]``, ``GlobalTensor[complex32]`` and their pointers hold
whole values, and the moves (``DataCopy``, ``DataCopyPad``, ``GetValue`` / ``SetValue``,
``ReinterpretCast`` to the component type as the arch35 kernels do) carry the bytes unchanged.

The constructors are the page's: ``complex32(1, 2)`` is 1+2j, ``complex32(3)`` and
``complex64(4)`` have a zero imaginary part; each part converts to ``T`` as a C assignment does.
The memory-level computations the 950 lists for complex operands (Add, Sub, Mul, Div, Abs,
the scalar forms, Duplicate, Select, Transpose, Cast between the two) are not emulated: the
pages give no formula or rounding order for the complex forms, so any computing call on a
complex tensor raises :class:`~ascreg.errors.UnsupportedError` (docs/limitations.md).

Examples
--------
>>> from ascreg import float32_t
>>> from ascreg.basic import Complex, complex32, complex64
>>> Complex[float32_t] is complex64, complex32.size, complex64.size
(True, 4, 8)
>>> v = complex32(1, 2); v.imag = 0.5; v
complex32(real=1.0, imag=0.5)
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import numpy as np

from ascreg._dtypes import Scalar, float32_t, half
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.simt.vectors import VectorValue

__all__ = ["Complex", "complex32", "complex64", "is_complex_type", "refuse_complex"]

PAGE = "辅助数据结构/complex32-complex64.md"
"""The asc-devkit page that defines the types (under docs/zh/api/SIMD-API/基础API/)."""


class Complex(VectorValue):
    """``AscendC::Complex<T>``: a complex number of two ``T`` parts, ``real`` and ``imag``.

    ``Complex[T]`` is the type for ``T`` (half: :data:`complex32`, float: :data:`complex64`;
    the page allows only these two). ``Complex[T](real, imag=0)`` builds a value.

    Examples
    --------
    >>> from ascreg import half, int32_t
    >>> Complex[half](3)
    complex32(real=3.0, imag=0.0)
    >>> Complex[int32_t]
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Complex[int32_t]: the real and imaginary parts of Complex<T> are half or float only (辅助数据结构/complex32-complex64.md)
    """

    fields: ClassVar[tuple[str, ...]] = ()
    _made: ClassVar[dict[type[Scalar], type[Complex]]] = {}

    def __class_getitem__(cls, element: Any) -> Any:
        found = Complex._made.get(element)
        if found is None:
            name = getattr(element, "cpp_name", repr(element))
            raise AscregTypeError(
                f"the real and imaginary parts of Complex<T> are half or float only ({PAGE})",
                call=f"Complex[{name}]",
            )
        return found

    def __new__(cls, real: Any = 0, imag: Any = 0) -> Self:
        """``Complex<T>(real, imag = 0)``: each part converted to ``T`` as C assigns."""
        if not cls.fields:
            raise AscregTypeError(
                "Complex needs its part type: Complex[half] or Complex[float32_t]"
            )
        return super().__new__(cls, real, imag)

    @property
    def real(self) -> Any:
        """The real part."""
        return self.component("real")

    @real.setter
    def real(self, value: Any) -> None:
        self.set_component("real", value)

    @property
    def imag(self) -> Any:
        """The imaginary part."""
        return self.component("imag")

    @imag.setter
    def imag(self, value: Any) -> None:
        self.set_component("imag", value)


def _complex_type(name: str, element: type[Scalar]) -> type[Complex]:
    np_dtype = np.dtype([("real", element.np_dtype), ("imag", element.np_dtype)])
    made = type(
        name,
        (Complex,),
        {
            "cpp_name": name,
            "element": element,
            "fields": ("real", "imag"),
            "np_dtype": np_dtype,
            "size": np_dtype.itemsize,
            "bits": 8 * np_dtype.itemsize,
            "__doc__": f"``{name}``: ``AscendC::Complex<{element.cpp_name}>`` "
            f"({8 * np_dtype.itemsize} bits, real then imag).\n\n"
            f"Examples\n--------\n>>> from ascreg.basic import {name}\n"
            f">>> {name}(1, 2)\n{name}(real=1.0, imag=2.0)\n",
            "__module__": "ascreg.basic",
        },
    )
    Complex._made[element] = made
    return made


complex32 = _complex_type("complex32", half)
complex64 = _complex_type("complex64", float32_t)


def is_complex_type(obj: object) -> bool:
    """Return True when *obj* is :data:`complex32` or :data:`complex64`.

    Examples
    --------
    >>> from ascreg import half
    >>> is_complex_type(complex64), is_complex_type(half), is_complex_type(Complex)
    (True, False, False)
    """
    return isinstance(obj, type) and issubclass(obj, Complex) and bool(obj.fields)


def refuse_complex(call: str, *dtypes: Any) -> None:
    """Raise :class:`UnsupportedError` when an operand of *call* is complex (arithmetic).

    Examples
    --------
    >>> from ascreg import half
    >>> refuse_complex("Add", half)
    >>> refuse_complex("Add", complex32)
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: Add: complex32 operands are not emulated: ascreg moves complex data but computes nothing on it, the pages giving no formula or rounding order for the complex forms (辅助数据结构/complex32-complex64.md; docs/limitations.md); work on the parts as their component type (ReinterpretCast)
    """
    for dtype in dtypes:
        if is_complex_type(dtype):
            raise UnsupportedError(
                f"{dtype.cpp_name} operands are not emulated: ascreg moves complex data but "
                f"computes nothing on it, the pages giving no formula or rounding order for "
                f"the complex forms ({PAGE}; docs/limitations.md); work on the parts as their "
                "component type (ReinterpretCast)",
                call=call,
            )

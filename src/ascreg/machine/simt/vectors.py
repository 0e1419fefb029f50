"""Composite per-lane values: ``half2``, ``bfloat16x2_t`` and the vector types ``int2``, ``float4`` ...

A vector value is a numpy array with a *structured* dtype (fields ``x``, ``y``, then ``z``,
``w``), one element per SIMT thread of the running group in a kernel, or a 0-d array outside one.
The memory layout is the C struct's (components in order, no padding), so a pointer cast to the
type (``p.cast(half2)``, C's ``(half2*)p``) reads and writes pairs, and the masked merge of
divergent code blends whole elements (``np.where`` keeps the structured dtype and the class).

Construction follows C's aggregate initialisation of the struct: each component is converted
to the element type as C converts on assignment (:func:`ascreg._dtypes.c_cast`: floats round to
nearest even, integers wrap). ``v.x`` reads a component (a ``Lanes`` array when *v* holds one
value per thread, else a numpy scalar), ``v.x = a`` writes it in place.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> half2 = vector_type("half2", half, 2)
>>> v = half2(1.0, 2.5)
>>> v.x, v.y, v.size_bytes
(np.float16(1.0), np.float16(2.5), 4)
>>> w = half2(np.array([1, 2]), 0.1)
>>> w.y
Lanes([0.1, 0.1], dtype=float16)
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import numpy as np

from ascreg._dtypes import Kind, Scalar, c_cast
from ascreg.machine.simt.lanes import Lanes

Arr = np.ndarray[Any, Any]
FIELDS = ("x", "y", "z", "w")
"""The component names, in memory order."""


class VectorValue(np.ndarray[Any, Any]):
    """Base class of the composite per-lane value types (``half2``, ``int2``, ``float4`` ...).

    Class attributes mirror the scalar markers' (so a pointer can be cast to the type):
    ``cpp_name``, ``np_dtype`` (structured), ``size`` (bytes), ``kind`` (``Kind.RAW``: whole
    values move, arithmetic goes through the device functions), plus ``element`` (the component
    marker) and ``fields``.

    Examples
    --------
    >>> from ascreg import int32_t
    >>> int2 = vector_type("int2", int32_t, 2)
    >>> int2.np_dtype.names, int2.size, issubclass(int2, VectorValue)
    (('x', 'y'), 8, True)
    """

    cpp_name: ClassVar[str] = "vector"
    element: ClassVar[type[Scalar]]
    fields: ClassVar[tuple[str, ...]] = ()
    np_dtype: ClassVar[np.dtype[Any]]
    kind: ClassVar[Kind] = Kind.RAW
    size: ClassVar[int] = 0
    bits: ClassVar[int] = 0

    def __new__(cls, *components: Any) -> Self:
        """``T(x, y, ...)``: C's aggregate initialisation, each component converted as C does."""
        if len(components) != len(cls.fields):
            raise TypeError(
                f"{cls.cpp_name} takes {len(cls.fields)} components "
                f"({', '.join(cls.fields)}), got {len(components)}"
            )
        parts = [np.asarray(c_cast(cls.element, c)) for c in components]
        shape = np.broadcast_shapes(*(p.shape for p in parts))
        value = np.empty(shape, dtype=cls.np_dtype)
        for name, part in zip(cls.fields, parts, strict=True):
            value[name] = part
        return value.view(cls)

    @classmethod
    def from_components(cls, stacked: Arr) -> Self:
        """Build values from an element array whose last axis holds the components.

        Examples
        --------
        >>> from ascreg import int32_t
        >>> int2 = vector_type("int2", int32_t, 2)
        >>> int2.from_components(np.array([[1, 2], [3, 4]], np.int32)).y
        Lanes([2, 4], dtype=int32)
        """
        flat = np.ascontiguousarray(stacked, dtype=cls.element.np_dtype)
        return flat.view(cls.np_dtype).reshape(flat.shape[:-1]).view(cls)

    def components(self) -> Arr:
        """Return the components as an element array with a last axis of ``len(fields)``.

        Examples
        --------
        >>> from ascreg import half
        >>> vector_type("half2", half, 2)(1, 2).components()
        array([1., 2.], dtype=float16)
        """
        plain = np.asarray(self).view(np.ndarray)
        flat = np.ascontiguousarray(plain).reshape(-1)
        return flat.view(self.element.np_dtype).reshape((*plain.shape, len(self.fields)))

    @property
    def size_bytes(self) -> int:
        """The C ``sizeof`` of one value."""
        return type(self).size

    def component(self, name: str) -> Any:
        """Return component *name* (``Lanes`` for per-thread values, else a numpy scalar)."""
        part = np.asarray(self).view(np.ndarray)[name]
        return part[()] if part.ndim == 0 else np.array(part).view(Lanes)

    def set_component(self, name: str, value: Any) -> None:
        """Write component *name* (converted to the element type as C assigns)."""
        np.asarray(self).view(np.ndarray)[name] = np.asarray(c_cast(self.element, value))

    def __repr__(self) -> str:
        parts = ", ".join(f"{f}={np.asarray(self.component(f)).tolist()}" for f in self.fields)
        return f"{type(self).__name__}({parts})"

    def __bool__(self) -> bool:
        raise TypeError(f"a {type(self).__name__} value has no truth value (C has none)")


class Vector2(VectorValue):
    """A two-component vector value (``.x``, ``.y``).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> v = vector_type("float2", float32_t, 2)(1, 2)
    >>> v.y = 5; v.x, v.y
    (np.float32(1.0), np.float32(5.0))
    """

    @property
    def x(self) -> Any:
        """Component ``x``."""
        return self.component("x")

    @x.setter
    def x(self, value: Any) -> None:
        self.set_component("x", value)

    @property
    def y(self) -> Any:
        """Component ``y``."""
        return self.component("y")

    @y.setter
    def y(self, value: Any) -> None:
        self.set_component("y", value)


class Vector3(Vector2):
    """A three-component vector value (``.x``, ``.y``, ``.z``).

    Examples
    --------
    >>> from ascreg import int8_t
    >>> vector_type("char3", int8_t, 3)(1, 2, 300).z
    np.int8(44)
    """

    @property
    def z(self) -> Any:
        """Component ``z``."""
        return self.component("z")

    @z.setter
    def z(self, value: Any) -> None:
        self.set_component("z", value)


class Vector4(Vector3):
    """A four-component vector value (``.x``, ``.y``, ``.z``, ``.w``).

    Examples
    --------
    >>> from ascreg import uint8_t
    >>> vector_type("uchar4", uint8_t, 4)(1, 2, 3, 4).w
    np.uint8(4)
    """

    @property
    def w(self) -> Any:
        """Component ``w``."""
        return self.component("w")

    @w.setter
    def w(self, value: Any) -> None:
        self.set_component("w", value)


_BASES: dict[int, type[VectorValue]] = {2: Vector2, 3: Vector3, 4: Vector4}


def _class_doc(name: str, element: type[Scalar], fields: tuple[str, ...]) -> str:
    number = "{}.0" if element.kind is Kind.FLOAT else "{}"
    shown = ", ".join(f"{f}={number.format(i + 1)}" for i, f in enumerate(fields))
    args = ", ".join(str(i + 1) for i in range(len(fields)))
    return (
        f"C ``{name}``: {len(fields)} components of ``{element.cpp_name}`` "
        f"({', '.join(f'``.{f}``' for f in fields)}), one value per thread in a SIMT kernel.\n\n"
        f"Examples\n--------\n>>> from ascreg.simt import {name}\n>>> {name}({args})\n"
        f"{name}({shown})\n"
    )


def vector_type(
    name: str, element: type[Scalar], count: int, base: type[VectorValue] | None = None
) -> Any:
    """Return a new vector value class *name* of *count* components of *element*.

    *base* (default: :class:`Vector2`, :class:`Vector3` or :class:`Vector4` by *count*) adds
    behaviour, such as the C++ operators of ``half2``.

    Examples
    --------
    >>> from ascreg import int16_t
    >>> short2 = vector_type("short2", int16_t, 2)
    >>> short2.cpp_name, short2.element is int16_t, short2.np_dtype.itemsize
    ('short2', True, 4)
    """
    fields = FIELDS[:count]
    np_dtype = np.dtype([(f, element.np_dtype) for f in fields])
    attributes = {
        "cpp_name": name,
        "element": element,
        "fields": fields,
        "np_dtype": np_dtype,
        "size": np_dtype.itemsize,
        "bits": 8 * np_dtype.itemsize,
        "__doc__": _class_doc(name, element, fields),
        "__module__": "ascreg.simt.vectors",
    }
    return type(name, (base or _BASES[count],), attributes)


def is_vector_type(obj: object) -> bool:
    """Return True when *obj* is a vector value class (``half2``, ``int2`` ...).

    Examples
    --------
    >>> from ascreg import int32_t
    >>> is_vector_type(vector_type("int2", int32_t, 2)), is_vector_type(int32_t)
    (True, False)
    """
    return isinstance(obj, type) and issubclass(obj, VectorValue) and bool(obj.fields)

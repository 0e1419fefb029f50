"""Tiling data: C structs the host writes into GM as bytes, and the tiling key of a launch.

A production kernel takes its tiling as one more ``GM_ADDR`` argument: the host fills a C struct
(``TilingData``), copies its bytes to device memory and launches; the kernel rebuilds the struct
from those bytes (``GET_TILING_DATA``) and branches on the tiling key the host chose
(``TILING_KEY_IS``). This module holds the host-and-device pieces the kernel-source macros of
:mod:`ascreg.basic` build on:

* :class:`Struct`, the Python spelling of a standard-layout C++ struct: fields are class
  annotations of ascreg dtypes (``uint32_t``, ``float32_t``), nested structs or arrays
  (``CArray[int64_t, 8]``), laid out as a C compiler lays them out (each field at its natural
  alignment, the size rounded up to the largest one); ``tobytes`` / ``frombytes`` convert;
* the tiling key: :func:`ICPU_SET_TILING_KEY` (the CPU-debug spelling of the host's
  ``SetTilingKey``) sets the key later launches run with; :func:`tiling_key` reads it;
* the host registrations of ``REGISTER_TILING_DATA_CLASS(OpType, Struct)``: which struct the
  ``GET_TILING_DATA`` of a kernel of that op type reads when the kernel registers none itself.

Examples
--------
>>> from ascreg import float32_t, int64_t, uint8_t, uint32_t
>>> class AddTiling(Struct):
...     totalLength: uint32_t
...     eps: float32_t
...     flag: uint8_t
...     dims: CArray[int64_t, 2]
>>> AddTiling.size, [f.offset for f in AddTiling.fields]
(32, [0, 4, 8, 16])
>>> t = AddTiling(totalLength=8, eps=1e-5); t.dims[1] = 3
>>> back = AddTiling.frombytes(t.tobytes())
>>> int(back.totalLength), float(back.eps) == float(float32_t(1e-5)), back.dims.tolist()
(8, True, [0, 3])
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import typing
from typing import Any, ClassVar

import attrs
import numpy as np

from ascreg._dtypes import c_cast, is_scalar_type
from ascreg.errors import AscregError, AscregTypeError, LaunchError

__all__ = [
    "ICPU_SET_TILING_KEY",
    "REGISTER_TILING_DATA_CLASS",
    "CArray",
    "Field",
    "Struct",
    "c_condition",
    "registered_tiling",
    "tiling_key",
]


class CArray:
    """A fixed-size C array field type: ``CArray[int64_t, 8]`` is ``int64_t x[8]``.

    More extents make a multi-dimensional array (``CArray[int64_t, 2, 8]`` is ``x[2][8]``); the
    element may be a dtype or a :class:`Struct`. The field's value is a numpy array (of records,
    for structs) that the kernel indexes as the C++ does.

    Examples
    --------
    >>> from ascreg import int64_t
    >>> CArray[int64_t, 2, 8].shape, CArray[int64_t, 2, 8].c_dtype.itemsize
    ((2, 8), 128)
    """

    element: ClassVar[Any]
    shape: ClassVar[tuple[int, ...]]
    c_dtype: ClassVar[np.dtype[Any]]
    _made: ClassVar[dict[tuple[Any, ...], type[CArray]]] = {}

    def __class_getitem__(cls, item: Any) -> type[CArray]:
        args = item if isinstance(item, tuple) else (item,)
        element, shape = args[0], args[1:]
        if not shape or not all(isinstance(n, int) and n > 0 for n in shape):
            raise AscregTypeError(
                f"CArray[{', '.join(map(repr, args))}]: give the element type and at least one "
                "positive integer extent, as CArray[int64_t, 8] for int64_t x[8]"
            )
        key = (element, *shape)
        if key not in cls._made:
            base = _field_dtype(element, "CArray")
            dims = "".join(f"[{n}]" for n in shape)
            cls._made[key] = type(
                f"CArray[{_cpp(element)}{dims}]",
                (cls,),
                {"element": element, "shape": tuple(shape), "c_dtype": np.dtype((base, shape))},
            )
        return cls._made[key]


@attrs.frozen
class Field:
    """One field of a :class:`Struct`: its name, type and byte offset."""

    name: str
    type: Any
    offset: int


def _cpp(kind: Any) -> str:
    return str(getattr(kind, "cpp_name", getattr(kind, "__name__", kind)))


def _field_dtype(kind: Any, where: str) -> np.dtype[Any]:
    if is_scalar_type(kind):
        scalar: np.dtype[Any] = kind.np_dtype
        return scalar
    if isinstance(kind, type) and issubclass(kind, Struct | CArray) and hasattr(kind, "c_dtype"):
        found: np.dtype[Any] = kind.c_dtype
        return found
    raise AscregTypeError(
        f"{where}: field type {kind!r:.60} is not an ascreg dtype (uint32_t, float32_t, ...), "
        "a Struct or a CArray[T, n]"
    )


class Struct:
    """A standard-layout C++ ``struct``: ``class TilingData(Struct): totalLength: uint32_t``.

    Fields are the class annotations in order (a subclass appends to its base's), each an
    ascreg dtype, a nested :class:`Struct` or a :class:`CArray`. The layout is the C one: every
    field at its natural alignment, the size a multiple of the largest alignment (``sizeof``:
    :attr:`size`). A new struct is zero-filled (C++ value initialisation ``TilingData{}``);
    keyword or positional arguments set fields. Assigning a scalar field converts the value as
    a C assignment does (integers wrap, floats round: :func:`ascreg.c_cast`). An integer field
    reads as a Python ``int`` (the value the field holds), a float field as a numpy scalar of
    its type.

    Examples
    --------
    >>> from ascreg import int32_t, uint64_t
    >>> class Inner(Struct):
    ...     a: int32_t
    >>> class Outer(Struct):
    ...     n: uint64_t
    ...     inner: Inner
    >>> o = Outer(5); o.inner.a = -1
    >>> Outer.size, Outer.frombytes(o.tobytes()).inner.a
    (16, -1)
    >>> o.n = -1; int(o.n)
    18446744073709551615
    """

    fields: ClassVar[tuple[Field, ...]] = ()
    c_dtype: ClassVar[np.dtype[Any]]
    size: ClassVar[int] = 0
    cpp_name: ClassVar[str] = "Struct"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        scope = _defining_scope(cls)
        own = inspect.get_annotations(cls)
        fields = [(f.name, f.type) for f in cls.fields]
        for name, hint in own.items():
            if str(typing.get_origin(hint)) == "typing.ClassVar" or (
                isinstance(hint, str) and hint.startswith(("ClassVar", "typing.ClassVar"))
            ):
                continue
            fields.append((name, _resolve(cls, name, hint, scope)))
        names = [n for n, _ in fields]
        formats = [_field_dtype(t, f"{cls.__name__}.{n}") for n, t in fields]
        cls.c_dtype = np.dtype({"names": names, "formats": formats}, align=True)
        cls.size = cls.c_dtype.itemsize
        cls.cpp_name = cls.__name__
        layout: Any = cls.c_dtype.fields
        cls.fields = tuple(Field(n, t, layout[n][1]) for n, t in fields)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.fields):
            raise AscregTypeError(
                f"{self.cpp_name}{{...}}: {len(args)} values for {len(self.fields)} fields"
            )
        self._set_record(np.zeros((), self.c_dtype))
        for field, value in zip(self.fields, args, strict=False):
            setattr(self, field.name, value)
        for name, value in kwargs.items():
            if name not in self._names():
                raise AscregTypeError(f"{self.cpp_name} has no field {name!r}")
            setattr(self, name, value)

    @classmethod
    def _names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in cls.fields)

    def _set_record(self, record: np.ndarray[Any, Any]) -> None:
        object.__setattr__(self, "_record", record)

    def __getattr__(self, name: str) -> Any:
        record = self.__dict__.get("_record")
        if record is None or name not in self._names():
            raise AttributeError(f"{type(self).__name__!r} has no field {name!r}")
        kind = next(f.type for f in self.fields if f.name == name)
        value = record[name]
        if isinstance(kind, type) and issubclass(kind, Struct):
            inner = kind.__new__(kind)
            inner._set_record(value)  # a view: writes through, as a C member does
            return inner
        if is_scalar_type(kind):
            scalar = value[()]
            # Integer fields read as Python ints (the value the C field holds; arithmetic on
            # them then never meets numpy's mixed signed/unsigned promotion to float64).
            return scalar.item() if kind.np_dtype.kind in "biu" else scalar
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._names():
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        kind = next(f.type for f in self.fields if f.name == name)
        record = self.__dict__["_record"]
        if isinstance(kind, type) and issubclass(kind, Struct):
            if not isinstance(value, kind):
                raise AscregTypeError(f"{self.cpp_name}.{name} is a {kind.cpp_name}, not {value!r}")
            record[name] = value._record
        elif is_scalar_type(kind):
            record[name] = c_cast(kind, value)
        else:
            record[name] = np.asarray(value)

    def tobytes(self) -> bytes:
        """Return the struct's bytes as a C compiler lays them out (what the host copies)."""
        return bytes(np.ascontiguousarray(self.__dict__["_record"]).tobytes())

    @classmethod
    def frombytes(cls, data: bytes | np.ndarray[Any, Any]) -> Any:
        """Rebuild the struct from its first :attr:`size` bytes (a copy)."""
        if isinstance(data, bytes | bytearray | memoryview):
            raw = np.frombuffer(bytes(data), np.uint8)
        else:
            raw = np.asarray(data).reshape(-1).view(np.uint8)
        if raw.size < cls.size:
            raise AscregTypeError(f"{cls.cpp_name} needs {cls.size} bytes (sizeof), got {raw.size}")
        made = cls.__new__(cls)
        made._set_record(raw[: cls.size].copy().view(cls.c_dtype).reshape(()))
        return made

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Struct)
            and type(other) is type(self)
            and (self.tobytes() == other.tobytes())
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        parts = (f"{f.name}={_shown(getattr(self, f.name))}" for f in self.fields)
        return f"{self.cpp_name}({', '.join(parts)})"


def _shown(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return repr(value.tolist())
    if isinstance(value, np.generic):
        return repr(value.item())
    return repr(value)


def _defining_scope(cls: type) -> dict[str, Any]:
    """Return the names a class body saw: module globals, the enclosing function's locals."""
    module = sys.modules.get(cls.__module__)
    scope = dict(vars(module)) if module is not None else {}
    frame = sys._getframe(2)  # __init_subclass__ <- type.__new__ <- the class statement
    while frame is not None and frame.f_code.co_name == "__init_subclass__":
        frame = frame.f_back  # type: ignore[assignment]
    if frame is not None:
        scope.update(frame.f_globals)
        scope.update(frame.f_locals)
    return scope


def _resolve(cls: type, name: str, hint: Any, scope: dict[str, Any]) -> Any:
    if not isinstance(hint, str):
        return hint
    try:
        return eval(hint, scope)  # the annotation of a class body, as typing.get_type_hints does
    except Exception as exc:
        raise AscregTypeError(
            f"{cls.__name__}.{name}: the field type {hint!r} cannot be resolved "
            f"({type(exc).__name__}: {exc}); define the names it uses before the struct"
        ) from None


# -- the tiling key ---------------------------------------------------------------------------

_KEY: list[int] = []
"""The tiling key set by :func:`ICPU_SET_TILING_KEY` (empty: none set)."""


def ICPU_SET_TILING_KEY(tilingKey: int) -> None:
    """``ICPU_SET_TILING_KEY(tilingKey)``: the tiling key the next launches run with.

    The host side of ``TILING_KEY_IS``: on the chip the host's tiling function sets the key
    (``context->SetTilingKey``) and the runtime passes it to the kernel; ascreg, like the CPU
    debug build this macro comes from, takes it from this call. It stays set until the next
    call. A negative key is undefined (an error here); 0 is legal.

    Examples
    --------
    >>> ICPU_SET_TILING_KEY(10086); tiling_key()
    10086
    >>> ICPU_SET_TILING_KEY(-1)
    Traceback (most recent call last):
    ...
    ascreg.errors.LaunchError: ICPU_SET_TILING_KEY: tilingKey -1 is negative (undefined behaviour; keys are uint64_t)
    """
    _ascreg_call = "ICPU_SET_TILING_KEY"
    key = _key(tilingKey, "tilingKey")
    _KEY[:] = [key]


def _key(value: Any, role: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise LaunchError(f"{role} {value!r:.40} is not an integer tiling key")
    if int(value) < 0:
        raise LaunchError(
            f"{role} {int(value)} is negative (undefined behaviour; keys are uint64_t)"
        )
    if int(value) >= 1 << 64:
        raise LaunchError(f"{role} {int(value)} does not fit uint64_t")
    return int(value)


def tiling_key() -> int:
    """Return the key set by :func:`ICPU_SET_TILING_KEY` (a clear error when none is).

    Examples
    --------
    >>> ICPU_SET_TILING_KEY(3); tiling_key()
    3
    """
    if not _KEY:
        raise LaunchError(
            "no tiling key is set: call ICPU_SET_TILING_KEY(key) on the host before the launch "
            "(the host's SetTilingKey; TILING_KEY_IS compares against it)"
        )
    return _KEY[0]


# -- host registrations -------------------------------------------------------------------------

_REGISTERED: dict[str, type[Struct]] = {}


def REGISTER_TILING_DATA_CLASS(op_type: str, struct: type[Struct]) -> None:
    """``REGISTER_TILING_DATA_CLASS(OpType, TilingData)``: the host's tiling struct of an op.

    ``GET_TILING_DATA`` in a kernel that registers no struct itself reads this one. The kernel
    of op type ``AddCustom`` is the ``__global__`` function ``add_custom`` (the op type in
    snake case, as the build names it); ``OpType_<key>`` registers the struct of one tiling
    key (``RmsNorm_5000``). The op type is a string in Python (a bare C++ identifier).

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> class T(Struct):
    ...     n: uint32_t
    >>> REGISTER_TILING_DATA_CLASS("AddCustom", T)
    >>> registered_tiling("add_custom", 7) is T
    True
    """
    _ascreg_call = "REGISTER_TILING_DATA_CLASS"
    if not isinstance(op_type, str) or not re.fullmatch(r"[A-Za-z_]\w*", op_type):
        raise AscregTypeError(f"op type {op_type!r:.40} is not an identifier string ('AddCustom')")
    if not (isinstance(struct, type) and issubclass(struct, Struct)):
        raise AscregTypeError(f"{struct!r:.60} is not a Struct subclass")
    _REGISTERED[op_type] = struct


def _snake(op_type: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", op_type).lower()


def registered_tiling(kernel: str, key: int | None) -> type[Struct] | None:
    """Return the struct the host registered for *kernel* (and *key*, when set), or None.

    Examples
    --------
    >>> _snake("GemmaRmsNorm"), _snake("AddCustom"), _snake("RMSNorm")
    ('gemma_rms_norm', 'add_custom', 'rms_norm')
    """
    found = None
    for op_type, struct in _REGISTERED.items():
        base, _, suffix = (
            op_type.partition("_") if re.search(r"_\d+$", op_type) else (op_type, "", "")
        )
        if _snake(base) != kernel:
            continue
        if suffix and key is not None and int(suffix) == key:
            return struct
        if not suffix:
            found = struct
    return found


# -- C conditions over TILING_KEY_VAR ---------------------------------------------------------

_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Name, ast.Constant,
    ast.And, ast.Or, ast.Not, ast.Invert, ast.USub, ast.UAdd, ast.BitAnd, ast.BitOr, ast.BitXor,
    ast.LShift, ast.RShift, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Eq, ast.NotEq,
    ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Load,
)  # fmt: skip


def c_condition(expression: str, key: int) -> bool:
    """Evaluate a C condition over ``TILING_KEY_VAR`` (``REGISTER_TILING_FOR_TILINGKEY``).

    The operators the page lists: ``& | ~ ^ << >> + - * / % == != > < >= <= && || !`` and
    parentheses, with C's precedence and integer division.

    Examples
    --------
    >>> c_condition("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", 11)
    True
    >>> c_condition("TILING_KEY_VAR & 0xFF", 256), c_condition("!(TILING_KEY_VAR / 2)", 1)
    (False, True)
    """
    text = expression.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text).replace("/", "//")
    text = re.sub(r"(\d+)[uUlL]+\b", r"\1", text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        tree = None
    if (
        tree is None
        or not all(isinstance(node, _ALLOWED) for node in ast.walk(tree))
        or any(
            isinstance(node, ast.Name) and node.id != "TILING_KEY_VAR" for node in ast.walk(tree)
        )
    ):
        raise AscregError(
            f"{expression!r} is not a C condition over TILING_KEY_VAR (the operators "
            "& | ~ ^ << >> + - * / % == != > < >= <= && || ! and parentheses)"
        )
    return bool(eval(compile(tree, "<condition>", "eval"), {"TILING_KEY_VAR": key}))

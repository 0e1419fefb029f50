"""What the advanced (高阶) API calls share: function templates, operand checks, PIPE_V I/O.

An advanced API is a C++ function template with one or more overloads, each with its own
template parameter list (``Sort<T, isReuseSource, config>`` and ``Sort<T, U, isReuseSource,
config>``). :class:`AdvancedApi` holds the overloads (:class:`Overload`): ``F[args](...)``
binds the subscript to the first overload whose parameter list takes it and whose operands
match; ``F(...)`` deduces the type parameters from the operands (``T`` from the first
LocalTensor, as C++ deduces it) and takes every other parameter's default.

The ops read their LocalTensor operands and write their results on ``PIPE_V`` through the UB
model (:func:`read`, :func:`write`), so the kernel runtime's pipe tracker and its unwritten-UB
check see them; the arithmetic is in :mod:`ascreg.core.advanced`.

Examples
--------
>>> from ascreg import float32_t
>>> Demo = AdvancedApi("Demo", "demo", [Overload(
...     (Param("T", TYPENAME), Param("isReuseSource", bool, False)),
...     lambda t, n: (t.T.cpp_name, t.isReuseSource, n),
...     lambda args: len(args) == 1, deduce=lambda args: {})])
>>> Demo[float32_t](3), Demo[float32_t, True](4)
(('float', False, 3), ('float', True, 4))
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar, is_scalar_type, uint8_t
from ascreg._frontend import operands
from ascreg.basic._tensor import UB_POSITIONS, LocalTensor
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

Array = np.ndarray[Any, Any]

TYPENAME = "typename"
"""The kind of a ``typename`` template parameter."""
REQUIRED = object()
"""The default of a template parameter without one."""


@attrs.frozen
class Param:
    """One C++ template parameter: its name, kind and default.

    *kind* is :data:`TYPENAME`, ``bool``, ``int``, an enum class or a config class (an
    ``attrs`` class such as ``SortConfig``); a value parameter takes an instance of it.
    """

    name: str
    kind: Any
    default: Any = REQUIRED

    def takes(self, value: Any) -> bool:
        """Return whether *value* is a legal argument for this parameter."""
        if self.kind is TYPENAME:
            return is_scalar_type(value)
        if self.kind is bool:
            return isinstance(value, bool | np.bool_) or (
                isinstance(value, int | np.integer) and int(value) in (0, 1)
            )
        if self.kind is int:
            return isinstance(value, int | np.integer) and not isinstance(value, bool)
        return isinstance(value, self.kind)

    def spelled(self) -> str:
        """Return the parameter as the C++ declares it."""
        if self.kind is TYPENAME:
            return f"typename {self.name}"
        kind = getattr(self.kind, "__name__", str(self.kind))
        default = "" if self.default is REQUIRED else f" = {_shown(self.default)}"
        return f"{kind} {self.name}{default}"


def _shown(value: Any) -> str:
    if is_scalar_type(value):
        return str(value.cpp_name)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}::{value.name}"
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    return repr(value)


class TemplateArgs:
    """The bound template arguments of one call, as attributes (``t.T``, ``t.config``)."""

    def __init__(self, names: Sequence[str], values: Sequence[Any]) -> None:
        for name, value in zip(names, values, strict=True):
            setattr(self, name, bool(value) if isinstance(value, np.bool_) else value)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"no template parameter {name!r}")


@attrs.frozen
class Overload:
    """One C++ overload: its template parameters, implementation and operand test.

    ``impl(t, *args)`` gets the :class:`TemplateArgs` first. ``match(args)`` says whether the
    call's operands are this overload's (arity, the tensors' element types), as C++ overload
    resolution does. ``deduce(args)`` returns the type parameters C++ deduces from them (a
    name -> dtype dict); parameters neither deduced nor defaulted must be given.
    """

    params: tuple[Param, ...]
    impl: Callable[..., Any]
    match: Callable[[tuple[Any, ...]], bool]
    deduce: Callable[[tuple[Any, ...]], dict[str, Any]] = lambda args: {}

    def bind(self, given: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """Return the subscript *given* if this overload's leading parameters take it, else None."""
        if len(given) > len(self.params):
            return None
        if not all(p.takes(v) for p, v in zip(self.params, given, strict=False)):
            return None
        return given

    def resolve(self, given: tuple[Any, ...], args: tuple[Any, ...], call: str) -> TemplateArgs:
        """Return the template arguments: *given*, then deduced from *args*, then the defaults.

        As in C++, parameters after the explicit ones are deduced from the operands where they
        can be (``Rint<config>(dst, src, n)`` deduces ``T``), else take their defaults.
        """
        deduced = self.deduce(args)
        values = list(given)
        for param in self.params[len(given) :]:
            if param.name in deduced:
                values.append(deduced[param.name])
            elif param.default is not REQUIRED:
                values.append(param.default)
            else:
                raise AscregTypeError(
                    f"the template argument {param.name} cannot be deduced from the operands: "
                    f"write {call}[...](...) ({self.spelled()})",
                    call=call,
                )
        return TemplateArgs([p.name for p in self.params], values)

    def spelled(self) -> str:
        """Return the overload's template parameter list as the C++ declares it."""
        return "template <" + ", ".join(p.spelled() for p in self.params) + ">"


class AdvancedApi:
    """A C++ function template of the advanced API with its overloads (see the module doc).

    Examples
    --------
    >>> from ascreg import half
    >>> Twice = AdvancedApi("Twice", "twice", [Overload(
    ...     (Param("T", TYPENAME),), lambda t, x: 2 * x, lambda args: True,
    ...     deduce=lambda args: {"T": half})])
    >>> Twice(3), Twice[half](4), Twice
    (6, 8, Twice)
    """

    def __init__(self, name: str, doc: str, overloads: Sequence[Overload]) -> None:
        self.__name__ = self.__qualname__ = name
        self.__doc__ = doc
        self.__module__ = "ascreg.basic"
        self._overloads = tuple(overloads)
        self._bound: dict[tuple[Any, ...], _Bound] = {}

    def __repr__(self) -> str:
        return self.__name__

    def __getitem__(self, arguments: Any) -> _Bound:
        given = arguments if isinstance(arguments, tuple) else (arguments,)
        key = tuple((type(a), a) for a in given)
        try:
            return self._bound[key]
        except (KeyError, TypeError):
            pass
        fits = [(o, g) for o in self._overloads if (g := o.bind(given)) is not None]
        call = f"{self.__name__}<{', '.join(_shown(a) for a in given)}>"
        if not fits:
            raise AscregTypeError(
                f"no overload takes these template arguments; the C++ declares "
                f"{'; '.join(o.spelled() for o in self._overloads)}",
                call=call,
            )
        bound = _Bound(call, fits)
        with contextlib.suppress(TypeError):  # an unhashable argument: not cached
            self._bound[key] = bound
        return bound

    def __call__(self, *args: Any) -> Any:
        call = self.__name__
        for overload in self._overloads:
            if overload.match(args):
                return overload.impl(overload.resolve((), args, call), *args)
        raise AscregTypeError(
            f"no overload takes these operands ({_operands(args)}); the C++ declares "
            f"{'; '.join(o.spelled() for o in self._overloads)}",
            call=call,
        )


class _Bound:
    """``F<args>``: the overloads the subscript fits, resolved on the operands at the call."""

    def __init__(self, call: str, fits: list[tuple[Overload, tuple[Any, ...]]]) -> None:
        self._call = call
        self._fits = fits

    def __repr__(self) -> str:
        return f"<{self._call}>"

    def __call__(self, *args: Any) -> Any:
        for overload, given in self._fits:
            if overload.match(args):
                return overload.impl(overload.resolve(given, args, self._call), *args)
        raise AscregTypeError(
            f"no overload takes these operands ({_operands(args)}) with these template arguments; "
            f"the C++ declares {'; '.join(o.spelled() for o, _ in self._fits)}",
            call=self._call,
        )


def _operands(args: tuple[Any, ...]) -> str:
    return ", ".join(a._cpp() if isinstance(a, LocalTensor) else type(a).__name__ for a in args)


# -- operand tests for Overload.match -----------------------------------------------------------


def is_tensor(value: Any, dtype: Any = None) -> bool:
    """Return whether *value* is a LocalTensor (of *dtype*, or of one of a tuple of dtypes).

    Examples
    --------
    >>> from ascreg import uint32_t, half
    >>> is_tensor(LocalTensor[uint32_t](), uint32_t), is_tensor(LocalTensor[half](), (uint32_t,))
    (True, False)
    """
    if not isinstance(value, LocalTensor):
        return False
    if dtype is None:
        return True
    wanted = dtype if isinstance(dtype, tuple) else (dtype,)
    return value._dtype() in wanted


def is_count(value: Any) -> bool:
    """Return whether *value* is an integer (a count or a repeat time).

    Examples
    --------
    >>> is_count(3), is_count(np.uint32(3)), is_count(2.0), is_count("3")
    (True, True, False, False)
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def tensor_dtype(value: Any) -> Any:
    """Return the element type of a LocalTensor operand (for ``Overload.deduce``)."""
    return value._dtype() if isinstance(value, LocalTensor) else None


# -- operand checks inside an op --------------------------------------------------------------


def check_dtype(call: str, role: str, dtype: Any, legal: Sequence[type[Scalar]]) -> None:
    """Raise :class:`~ascreg.errors.IllegalDtypeError` unless *dtype* is one of *legal*.

    Examples
    --------
    >>> from ascreg import half, float32_t, int8_t
    >>> check_dtype("Ceil", "T", int8_t, (half, float32_t))
    Traceback (most recent call last):
    ...
    ascreg.errors.IllegalDtypeError: Ceil: T = int8_t is not supported (legal: half, float)
    """
    if dtype not in legal:
        raise IllegalDtypeError(
            f"{role} = {getattr(dtype, 'cpp_name', dtype)} is not supported "
            f"(legal: {', '.join(d.cpp_name for d in legal)})",
            call=call,
        )


def check_tensor(
    call: str, role: str, value: Any, dtype: Any = None, alignment: int = DATA_BLOCK
) -> LocalTensor[Any]:
    """Return *value* after checking it is a UB LocalTensor with a buffer, 32-byte aligned.

    With *dtype*, its element type must be that one (C++ would not compile otherwise). An
    operand the implementation reads or writes one element at a time (``DIST_BRC_B32`` loads,
    ``DIST_FIRST_ELEMENT_B32`` stores) needs only *alignment* = its element size.
    """
    if not isinstance(value, LocalTensor):
        raise AscregTypeError(f"{role} must be a LocalTensor, got {value!r:.60}", call=call)
    if dtype is not None and value._dtype() is not dtype:
        raise AscregTypeError(
            f"{role} is {value._cpp()}, the template needs LocalTensor<{dtype.cpp_name}>", call=call
        )
    if value._position not in UB_POSITIONS:
        raise AscregTypeError(f"{role} must be VECIN/VECCALC/VECOUT, not {value._position.name}")
    value.GetPhyAddr().require_alignment(
        alignment, f"{call}: {role} must be {alignment}-byte aligned"
    )
    return value


def check_tmp(call: str, value: Any) -> LocalTensor[Any]:
    """Check a ``sharedTmpBuffer`` operand (a ``LocalTensor<uint8_t>``); ascreg needs no scratch."""
    return check_tensor(call, "sharedTmpBuffer", value, uint8_t)


def check_count(call: str, role: str, value: Any, *tensors: tuple[str, LocalTensor[Any]]) -> int:
    """Return the count *value* after checking it fits each ``(role, tensor)`` of *tensors*."""
    count = operands.integer(value, role)
    if count < 0:
        raise AscregError(f"{role} {count} must not be negative", call=call)
    for name, tensor in tensors:
        if count > tensor.GetSize():
            raise OutOfBoundsError(
                f"{role} {count} is more than the {tensor.GetSize()} elements of {name} "
                f"({tensor._cpp()})",
                call=call,
            )
    return count


def check_apart(call: str, *named: tuple[str, LocalTensor[Any], int]) -> None:
    """Report overlapping operands where the page forbids any overlap (undefined behaviour).

    Each entry is ``(role, tensor, elements used)``.
    """
    spans = [
        (role, t.GetPhyAddr().address, t.GetPhyAddr().address + n * t._dtype().size)
        for role, t, n in named
        if n
    ]
    for i, (a, start_a, end_a) in enumerate(spans):
        for b, start_b, end_b in spans[i + 1 :]:
            if start_a < end_b and start_b < end_a:
                undefined_behaviour(
                    UndefinedBehaviourError(
                        f"{a} and {b} overlap in UB: the page does not support overlapping "
                        "operands of this API",
                        call=call,
                    )
                )


def view_as(tensor: LocalTensor[Any], dtype: type[Scalar]) -> LocalTensor[Any]:
    """Return *tensor*'s bytes as a ``LocalTensor<dtype>`` (``ReinterpretCast<dtype>()``).

    Examples
    --------
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.basic import TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     view_as(LocalTensor[float32_t](TPosition.VECCALC, 0, 6), uint32_t).GetSize()
    6
    """
    size = tensor.GetSize() * tensor._dtype().size // dtype.size
    return LocalTensor._view(tensor.GetPhyAddr().cast(dtype), size, tensor._position, tensor._owner)


def read(tensor: LocalTensor[Any], count: int, offset: int = 0) -> Array:
    """Read *count* elements of *tensor* from *offset* on ``PIPE_V``."""
    if count == 0:
        return np.zeros(0, dtype=tensor._dtype().np_dtype)
    with current_block().on_pipe(Pipe.PIPE_V):
        values: Array = tensor.GetPhyAddr(offset).read(count)
    return values


def write(tensor: LocalTensor[Any], values: Array, offset: int = 0) -> None:
    """Write *values* (already of the tensor's element type) to *tensor* from *offset* on ``PIPE_V``."""
    if values.size == 0:
        return
    with current_block().on_pipe(Pipe.PIPE_V):
        tensor.GetPhyAddr(offset).write(values)

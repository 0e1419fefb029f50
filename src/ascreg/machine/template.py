"""Template functions: C++ ``template <typename T> __simd_vf__ void F(...)`` as ``F[T](...)``.

A C++ function template becomes a Python function generic in module-level type variables,
decorated with :func:`template`. Its body uses the ``TypeVar`` exactly as the C++ body uses
``T`` (``Reg.RegTensor[T]()``, ``GlobalTensor[T]``, ``UbPtr[T]``), so mypy checks it as a
generic function. ``F[half]`` binds the template arguments: it returns the function with
``T`` standing for ``half`` while it runs. ``asc_vf_call[F[T]](...)`` and ``F[T](...)`` both
work; the qualifiers (``__simd_vf__``, ``__simt_vf__``, ``__aicore__``, ...) go above
``@template`` and apply to every binding.

Examples
--------
>>> from typing import TypeVar
>>> from ascreg import Scalar, half, int32_t
>>> T = TypeVar("T", bound=Scalar)
>>> globals()["T"] = T  # (a module-level TypeVar; doctests run in a namespace)
>>> @template(T)
... def size_of(x: int) -> int:
...     return T.size * x  # type: ignore[attr-defined]
>>> size_of[half](3), size_of[int32_t](3)
(6, 12)
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

from ascreg.errors import AscregTypeError

P = ParamSpec("P")
R = TypeVar("R")
Q = TypeVar("Q", bound=Callable[..., Any])


class TemplateFunction(Generic[P, R]):
    """A function template; ``F[T, ...]`` binds its template arguments (see :func:`template`).

    Examples
    --------
    >>> from typing import TypeVar
    >>> U = TypeVar("U"); globals()["U"] = U
    >>> f = template(U)(lambda: U)
    >>> f[int](), f
    (<class 'int'>, <template <U> <lambda>>)
    """

    def __init__(
        self,
        func: Callable[P, R],
        params: tuple[TypeVar, ...],
        qualifiers: tuple[Callable[[Any], Any], ...] = (),
    ) -> None:
        self.func = func
        self.params = params
        self.qualifiers = qualifiers
        functools.update_wrapper(self, func)

    def __getitem__(self, arguments: Any) -> Callable[P, R]:
        """Return the function with its template parameters bound to *arguments*."""
        args = arguments if isinstance(arguments, tuple) else (arguments,)
        name = getattr(self.func, "__name__", "template")
        if len(args) != len(self.params):
            raise AscregTypeError(
                f"{name} has {len(self.params)} template parameter(s) "
                f"<{', '.join(p.__name__ for p in self.params)}>, got {len(args)}: "
                f"{name}[{', '.join(_cpp(a) for a in args)}]"
            )
        bound: Any = _rebind(
            self.func, dict(zip((p.__name__ for p in self.params), args, strict=True))
        )
        bound.__name__ = f"{name}<{', '.join(_cpp(a) for a in args)}>"
        for qualifier in self.qualifiers:
            bound = qualifier(bound)
        return bound  # type: ignore[no-any-return]

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Reject a call without template arguments (ascreg cannot deduce them)."""
        name = getattr(self.func, "__name__", "template")
        raise AscregTypeError(
            f"{name} is a function template: give its template arguments, "
            f"{name}[{', '.join(p.__name__ for p in self.params)}](...)",
            call=name,
        )

    def qualified(self, qualifier: Callable[[Any], Any]) -> TemplateFunction[P, R]:
        """Return this template with *qualifier* applied to every binding."""
        return TemplateFunction(self.func, self.params, (*self.qualifiers, qualifier))

    def __repr__(self) -> str:
        names = ", ".join(p.__name__ for p in self.params)
        return f"<template <{names}> {getattr(self.func, '__name__', '?')}>"


def _cpp(argument: Any) -> str:
    return str(getattr(argument, "cpp_name", getattr(argument, "__name__", argument)))


def _rebind(func: Any, names: dict[str, Any]) -> types.FunctionType:
    """Return a copy of *func* whose global *names* are the given values."""
    bound = types.FunctionType(
        func.__code__,
        {**func.__globals__, **names},
        func.__name__,
        func.__defaults__,
        func.__closure__,
    )
    bound.__kwdefaults__ = func.__kwdefaults__
    bound.__dict__.update(func.__dict__)
    bound.__qualname__ = func.__qualname__
    bound.__doc__ = func.__doc__
    return bound


def template(*params: TypeVar) -> Callable[[Callable[P, R]], TemplateFunction[P, R]]:
    """``template <typename T, ...>``: make a function template of the function below.

    Each parameter is a module-level ``TypeVar`` the function's body uses as a type
    (``Reg.RegTensor[T]()``); ``F[half]`` runs the body with ``T`` standing for ``half``. Put
    the qualifiers above: ``@__simd_vf__`` / ``@template(T)`` / ``def F(...)``. A call without
    template arguments raises (ascreg does not deduce them).

    Examples
    --------
    >>> import numpy as np
    >>> from typing import TypeVar
    >>> from ascreg import Reg, Scalar, UbPtr, UnifiedBuffer, half, uint16_t
    >>> from ascreg.machine.kernel import __simd_vf__
    >>> T = TypeVar("T", bound=Scalar); globals()["T"] = T
    >>> @__simd_vf__
    ... @template(T)
    ... def Fill(dst: UbPtr[T], value: int) -> None:
    ...     reg = Reg.RegTensor[T]()
    ...     Reg.Duplicate(reg, value)
    ...     Reg.StoreAlign(dst, reg, Reg.CreateMask[T]())
    >>> ub = UnifiedBuffer(); a, b = ub.alloc(half, 128), ub.alloc(uint16_t, 128)
    >>> Fill[half](a, 2); Fill[uint16_t](b, 3); a.read(2), b.read(2)
    (array([2., 2.], dtype=float16), array([3, 3], dtype=uint16))
    >>> Fill(a, 2)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Fill: Fill is a function template: give its template arguments, Fill[T](...)
    """
    for param in params:
        if not isinstance(param, TypeVar):
            raise AscregTypeError(f"template parameters are typing.TypeVar objects, got {param!r}")

    def make(func: Callable[P, R]) -> TemplateFunction[P, R]:
        if not isinstance(func, types.FunctionType):
            raise AscregTypeError(f"@template takes a Python function, got {func!r}")
        spaces = func.__globals__
        for param in params:
            if spaces.get(param.__name__) is not param:
                raise AscregTypeError(
                    f"template parameter {param.__name__} of "
                    f"{getattr(func, '__name__', func)} must be the module-level TypeVar named "
                    f"{param.__name__!r} (the body looks it up by that name)"
                )
        return TemplateFunction(func, params)

    return make


def qualifier(apply: Q) -> Q:
    """Make a function qualifier (``__simd_vf__``, ...) apply to each binding of a template.

    Examples
    --------
    >>> @qualifier
    ... def marked(func): func.marked = True; return func
    >>> from typing import TypeVar
    >>> V = TypeVar("V"); globals()["V"] = V
    >>> marked(template(V)(lambda: 1))[int].marked
    True
    """

    @functools.wraps(apply)
    def qualify(func: Any) -> Any:
        if isinstance(func, TemplateFunction):
            return func.qualified(apply)
        return apply(func)

    return qualify  # type: ignore[return-value]

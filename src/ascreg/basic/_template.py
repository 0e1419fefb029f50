"""One mechanism for every C++ template of the basic API: ``F[args](...)``, ``obj.M[args](...)``.

A C++ function template or member function template becomes a Python callable whose template
arguments are a subscript: ``DataCopyPad[float32_t](dst, src, params)``,
``que.EnQue[TPosition.VECOUT, TPosition.GM](t)``, ``t.ReinterpretCast[uint8_t]()``,
``GetTPipePtr().FetchEventID[HardEvent.V_MTE3]()``. Where C++ deduces the arguments (or they
all have defaults) the plain call works too: ``que.EnQue(t)``.

A template is declared by its C++ template parameter lists (:class:`Signature`, one per C++
overload, each parameter a name and a :class:`Kind`); the subscript is matched against them and
bound to the parameter names, which the implementation receives as keyword arguments. A
parameter named ``T`` that takes a type is the element type of the tensors the call receives
(``const LocalTensor<T>&``): each tensor argument must hold ``T``, as C++ deduction requires.
Subscripts are parsed once per distinct argument tuple and cached.

Examples
--------
>>> from ascreg import float32_t, half
>>> def _Fill(count: int, *, T: type | None = None) -> str:
...     return f"{count} x {T.cpp_name if T else 'deduced'}"
>>> Fill = function_template(Signature(T=TYPENAME))(_Fill)
>>> Fill[half](3), Fill(4)
('3 x half', '4 x deduced')
>>> Fill[3](1)
Traceback (most recent call last):
...
ascreg.errors.AscregTypeError: Fill: Fill[3] matches no template parameter list; Fill takes Fill<T> (T: a scalar type such as float32_t)
"""

from __future__ import annotations

import enum
import functools
import inspect
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import numpy as np

from ascreg._dtypes import is_scalar_type
from ascreg.errors import AscregTypeError
from ascreg.machine.complex import is_complex_type

P = ParamSpec("P")
R = TypeVar("R")
O = TypeVar("O")  # noqa: E741 (the owner of a member template)

NO_DEFAULT: Any = object()
"""The default of a template parameter that has none (it must be given)."""


class Kind:
    """What one template parameter takes: a type, an enum member, an integer, a struct.

    Examples
    --------
    >>> from ascreg import half
    >>> TYPENAME.accepts(half), INTEGER.accepts(True), INTEGER.accepts(2)
    (True, False, True)
    """

    def __init__(self, what: str, accepts: Callable[[Any], bool]) -> None:
        self.what = what
        self.accepts = accepts

    def __repr__(self) -> str:
        return self.what


def _is_integer(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


TYPENAME = Kind(
    "a scalar type such as float32_t", lambda value: is_scalar_type(value) or is_complex_type(value)
)
"""A ``typename`` parameter: a scalar type marker (or ``complex32`` / ``complex64``)."""
INTEGER = Kind("an integer", _is_integer)
"""A non-type integer parameter (``uint8_t dim``, ``int32_t depth``)."""
BOOLEAN = Kind("a bool", lambda value: isinstance(value, bool | np.bool_))
"""A non-type ``bool`` parameter."""


def member_of(cls: type[enum.Enum]) -> Kind:
    """Return the kind of a parameter that takes a member of the enum *cls*.

    Examples
    --------
    >>> import enum
    >>> class Color(enum.Enum):
    ...     RED = 1
    >>> member_of(Color).accepts(Color.RED), member_of(Color).accepts(1)
    (True, False)
    """
    return Kind(f"a {cls.__name__} member", lambda value: isinstance(value, cls))


def instance_of(cls: type, what: str = "") -> Kind:
    """Return the kind of a parameter that takes a value of the struct *cls* (a ``constexpr``).

    Examples
    --------
    >>> instance_of(complex).accepts(1j)
    True
    """
    return Kind(what or f"a {cls.__name__}", lambda value: isinstance(value, cls))


class Signature:
    """One C++ template parameter list: names and kinds in order, trailing ones may default.

    A keyword is a parameter; its value is a :class:`Kind`, or ``(kind, default)``.

    Examples
    --------
    >>> from ascreg import half
    >>> sig = Signature(T=TYPENAME, dim=INTEGER, flag=(BOOLEAN, False))
    >>> sig.bind((half, 2)), sig.bind((half,)), sig
    ({'T': <class 'ascreg._dtypes.half'>, 'dim': 2, 'flag': False}, None, <T, dim, flag = False>)
    """

    def __init__(self, **params: Kind | tuple[Kind, Any]) -> None:
        self.params = tuple(
            (name, *(spec if isinstance(spec, tuple) else (spec, NO_DEFAULT)))
            for name, spec in params.items()
        )
        self.required = sum(default is NO_DEFAULT for _, _, default in self.params)

    def bind(self, items: tuple[Any, ...]) -> dict[str, Any] | None:
        """Return ``{name: argument}`` when *items* fit this list (defaults filled), else None."""
        if not self.required <= len(items) <= len(self.params):
            return None
        bound = {}
        for (name, kind, default), item in zip(
            self.params, (*items, *(p[2] for p in self.params[len(items) :])), strict=True
        ):
            if not (item is default or kind.accepts(item)):
                return None
            bound[name] = item
        return bound

    def __repr__(self) -> str:
        return (
            "<"
            + ", ".join(
                name if default is NO_DEFAULT else f"{name} = {_text(default)}"
                for name, _, default in self.params
            )
            + ">"
        )

    def kinds(self) -> str:
        """Describe what each parameter takes."""
        return ", ".join(f"{name}: {kind}" for name, kind, _ in self.params)


def _text(value: Any) -> str:
    """Return the C++-like spelling of a template argument in a message."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return str(getattr(value, "cpp_name", getattr(value, "__name__", repr(value))))


class TemplateSpec:
    """The template parameter lists of one C++ template, and the subscripts seen so far.

    Examples
    --------
    >>> from ascreg import half
    >>> spec = TemplateSpec("Get", (Signature(T=TYPENAME),))
    >>> spec.parse(half)
    {'T': <class 'ascreg._dtypes.half'>}
    """

    def __init__(self, name: str, signatures: tuple[Signature, ...]) -> None:
        self.name = name
        self.signatures = signatures
        self.checks_tensors = any(
            name == "T" and kind is TYPENAME for sig in signatures for name, kind, _ in sig.params
        )
        self._cache: dict[Any, dict[str, Any]] = {}

    def parse(self, items: Any) -> dict[str, Any]:
        """Return the template arguments of the subscript *items*, bound to parameter names."""
        key = tuple(map(id, items)) if isinstance(items, tuple) else id(items)
        found = self._cache.get(key)
        if found is None:
            written = items if isinstance(items, tuple) else (items,)
            found = next((b for s in self.signatures if (b := s.bind(written)) is not None), None)
            if found is None:
                raise AscregTypeError(self._mismatch(written), call=self.name)
            if len(self._cache) < 512:  # cached arguments live for the run (types, members)
                self._cache[key] = found
        return found

    def _mismatch(self, written: tuple[Any, ...]) -> str:
        short = self.name.rpartition(".")[2]
        forms = "; ".join(f"{short}{sig} ({sig.kinds()})" for sig in self.signatures)
        return (
            f"{short}[{', '.join(_text(item) for item in written)}] matches no template "
            f"parameter list; {short} takes {forms}"
        )

    def call_name(self, bound: dict[str, Any]) -> str:
        """Return the C++ spelling of a call with template arguments *bound*."""
        return f"{self.name}<{', '.join(_text(value) for value in bound.values())}>"

    def check_tensors(self, bound: dict[str, Any], args: tuple[Any, ...], kwargs: Any) -> None:
        """Raise unless every tensor argument holds the template argument ``T``."""
        dtype = bound.get("T")
        if dtype is None or not self.checks_tensors:
            return
        for arg in (*args, *kwargs.values()):
            held = getattr(arg, "_dtype", None)
            if held is not None and callable(held) and held() is not dtype:
                raise AscregTypeError(
                    f"{arg._cpp()} does not hold T = {dtype.cpp_name}", call=self.call_name(bound)
                )


def _keywords(function: Callable[..., Any]) -> frozenset[str] | None:
    """Return the keyword parameters of *function* (None: it takes ``**kwargs``, so any)."""
    params = inspect.signature(function).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))


def _instance(
    spec: TemplateSpec,
    function: Callable[..., R],
    bound: dict[str, Any],
    keywords: frozenset[str] | None,
    skip: int = 0,
) -> Callable[..., R]:
    """Return *function* with the template arguments *bound* (checked against the tensors).

    An argument the implementation takes no parameter for is only checked (``T`` of a function
    that reads the element type from its tensors). The first *skip* arguments (a member
    template's object) are not checked.
    """
    passed = {k: v for k, v in bound.items() if keywords is None or k in keywords}
    if not (spec.checks_tensors and "T" in bound):
        return functools.partial(function, **passed)

    def instance(*args: Any, **kwargs: Any) -> R:
        spec.check_tensors(bound, args[skip:], kwargs)
        return function(*args, **passed, **kwargs)

    return instance


class FunctionTemplate(Generic[P, R]):
    """A C++ function template: ``f[args](...)`` binds its template arguments, ``f(...)`` deduces.

    Made by :func:`function_template`. The implementation receives the template arguments as
    keyword arguments named after the template parameters (absent in a plain call).

    Examples
    --------
    >>> DataCopyPad = function_template(Signature(T=TYPENAME))(lambda *a, T=None: T)
    >>> DataCopyPad
    <lambda>
    """

    def __init__(self, spec: TemplateSpec, function: Callable[P, R]) -> None:
        self.spec = spec
        self._function = function
        self._keywords = _keywords(function)
        self._instances: dict[Any, Callable[P, R]] = {}
        self.__name__ = self.__qualname__ = spec.name
        self.__doc__ = function.__doc__
        self.__module__ = "ascreg.basic"
        self.__wrapped__ = function

    def __repr__(self) -> str:
        return self.__name__

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._function(*args, **kwargs)

    def __getitem__(self, items: Any) -> Callable[P, R]:
        key = tuple(map(id, items)) if isinstance(items, tuple) else id(items)
        found = self._instances.get(key)
        if found is None:
            found = _instance(self.spec, self._function, self.spec.parse(items), self._keywords)
            if len(self._instances) < 512:
                self._instances[key] = found
        return found


def function_template(
    *signatures: Signature, name: str = ""
) -> Callable[[Callable[P, R]], FunctionTemplate[P, R]]:
    """Make the function below a C++ function template with these template parameter lists.

    *name* is the C++ spelling in messages (default: the function's name without a leading
    underscore).

    Examples
    --------
    >>> from ascreg import int32_t
    >>> @function_template(Signature(T=TYPENAME))
    ... def SetAtomicDemo(*, T=None):
    ...     return T
    >>> SetAtomicDemo[int32_t]().cpp_name
    'int32_t'
    """

    def make(function: Callable[P, R]) -> FunctionTemplate[P, R]:
        spelled = name or getattr(function, "__name__", "template").lstrip("_")
        return FunctionTemplate(TemplateSpec(spelled, signatures), function)

    return make


class BoundTemplate(Generic[P, R]):
    """A member function template of one object: ``obj.M[args](...)`` or ``obj.M(...)``.

    Examples
    --------
    >>> class Box:
    ...     @member_template(Signature(n=INTEGER))
    ...     def Scale(self, x: int, *, n: int = 1) -> int:
    ...         return x * n
    >>> Box().Scale[3](2), Box().Scale(2)
    (6, 2)
    """

    __slots__ = ("_method", "_owner")

    def __init__(self, method: MemberTemplate[Any, P, R], owner: object) -> None:
        self._method = method
        self._owner = owner

    def __repr__(self) -> str:
        return f"<{self._method.spec.name} of {self._owner!r}>"

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._method.function(self._owner, *args, **kwargs)

    def __getitem__(self, items: Any) -> Callable[P, R]:
        return _BoundCall(self._method.instance(items), self._owner)


class _BoundCall:
    """A member template instance called on one object: ``obj.M[args]``."""

    __slots__ = ("_function", "_owner")

    def __init__(self, function: Callable[..., Any], owner: object) -> None:
        self._function = function
        self._owner = owner

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._function(self._owner, *args, **kwargs)


class MemberTemplate(Generic[O, P, R]):
    """A member function template (a descriptor); see :func:`member_template`.

    Examples
    --------
    >>> class Box:
    ...     @member_template(Signature(n=INTEGER))
    ...     def Scale(self, x: int, *, n: int = 1) -> int:
    ...         return x * n
    >>> Box.Scale
    <member template Box.Scale>
    """

    def __init__(self, signatures: tuple[Signature, ...], function: Callable[..., R]) -> None:
        self.signatures = signatures
        self.function = function
        self.keywords = _keywords(function)
        self._instances: dict[Any, Callable[..., R]] = {}
        self.spec = TemplateSpec(function.__name__, signatures)
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self.__signature__ = inspect.signature(function)

    def __set_name__(self, owner: type, name: str) -> None:
        self.spec = TemplateSpec(f"{owner.__name__}.{name}", self.signatures)

    def instance(self, items: Any) -> Callable[..., R]:
        """Return the implementation with the template arguments *items* bound (cached).

        It takes the object first; the tensors checked against ``T`` are the arguments after it.
        """
        key = tuple(map(id, items)) if isinstance(items, tuple) else id(items)
        found = self._instances.get(key)
        if found is None:
            found = _instance(self.spec, self.function, self.spec.parse(items), self.keywords, 1)
            if len(self._instances) < 512:
                self._instances[key] = found
        return found

    def __call__(self, owner: O, *args: P.args, **kwargs: P.kwargs) -> R:
        """Call the template on *owner* with deduced arguments (``Class.Method(obj, ...)``)."""
        return self.function(owner, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<member template {self.spec.name}>"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> MemberTemplate[O, P, R]: ...
    @overload
    def __get__(self, obj: O, owner: type | None = None) -> BoundTemplate[P, R]: ...
    def __get__(
        self, obj: O | None, owner: type | None = None
    ) -> MemberTemplate[O, P, R] | BoundTemplate[P, R]:
        if obj is None:
            return self
        return BoundTemplate(self, obj)


def member_template(
    *signatures: Signature,
) -> Callable[[Callable[Concatenate[O, P], R]], MemberTemplate[O, P, R]]:
    """Make the method below a C++ member function template with these parameter lists.

    The method receives the template arguments as keyword arguments named after the template
    parameters (absent in a plain call, where it deduces them or says how to write them).

    Examples
    --------
    >>> from ascreg import half
    >>> class Pool:
    ...     @member_template(Signature(T=TYPENAME))
    ...     def Take(self, *, T=None):
    ...         return T
    >>> Pool().Take[half]().cpp_name
    'half'
    """

    def make(function: Callable[Concatenate[O, P], R]) -> MemberTemplate[O, P, R]:
        return MemberTemplate(signatures, function)

    return make


def need(name: str, value: Any, form: str) -> Any:
    """Return the template argument *value*, or raise saying how to write *form* with it.

    Examples
    --------
    >>> need("T", None, "DeQue[T]()")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: the template argument T cannot be deduced here: write DeQue[T]() (the C++ DeQue<T>())
    """
    if value is None:
        cpp = form.replace("[", "<").replace("]", ">")
        raise AscregTypeError(
            f"the template argument {name} cannot be deduced here: write {form} (the C++ {cpp})"
        )
    return value


C = TypeVar("C")


class _Instantiation(Generic[C]):
    """``C<args>`` of a class template: calling it constructs the object."""

    __slots__ = ("_bound", "_cls")

    def __init__(self, cls: type[C], bound: dict[str, Any]) -> None:
        self._cls = cls
        self._bound = bound

    def __call__(self, *args: Any, **kwargs: Any) -> C:
        return self._cls(*args, **kwargs, **self._bound)

    def __repr__(self) -> str:
        return f"{self._cls.__name__}<{', '.join(map(_text, self._bound.values()))}>"


class ClassTemplate(type):
    """Metaclass of a C++ class template: ``C[args](...)`` is ``C(..., **args)``.

    The class lists its template parameter lists in ``template_signatures``; the constructor
    takes the parameters as keyword arguments (after its own, which a C++ braced initialiser
    gives).

    Examples
    --------
    >>> class Box(metaclass=ClassTemplate):
    ...     template_signatures = (Signature(n=INTEGER),)
    ...     def __init__(self, n: int) -> None:
    ...         self.n = n
    >>> Box[3], Box[3]().n
    (Box<3>, 3)
    """

    template_signatures: tuple[Signature, ...]

    def __getitem__(cls: type[C], items: Any) -> _Instantiation[C]:
        spec = cls.__dict__.get("_template_spec")
        if spec is None:
            spec = TemplateSpec(cls.__name__, cls.template_signatures)  # type: ignore[attr-defined]
            setattr(cls, "_template_spec", spec)  # noqa: B010 (one per class, not inherited)
        return _Instantiation(cls, spec.parse(items))

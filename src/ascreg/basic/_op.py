"""The op object of a memory-level basic-API op: subscriptable like a C++ function template.

``basic_op(row)(impl)`` makes the object users call: ``Adds(dst, src, 2.0, 64)`` deduces
``T`` from the tensors, ``Adds[half](...)`` checks it, ``Adds[half, False](...)`` also passes
``isSetMask = false``. The subscript is parsed once per argument tuple: scalar types are the
dtype template arguments (checked against the op's row), ``bool`` values the ``bool``
template parameters in order, and any other value (an enum member, a config struct) is kept
by its type. The implementation receives the op object first, as a front end op does
(:func:`ascreg._frontend.template.define`): its row (``op.spec``), its template arguments
(``op.t``) and any attribute given to :func:`basic_op`.

Examples
--------
>>> from ascreg import half
>>> from ascreg.basic import Adds
>>> Adds[half, False]
<Adds[half, False]>
>>> Adds[half, False].t.flag(0, True)
False
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Self

from ascreg._dtypes import Scalar, is_scalar_type
from ascreg._spec import SPECS, OpSpec
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import CALL_MARKER, AscregTypeError, TemplateMismatchError
from ascreg.machine.block import running_block


class TemplateArgs:
    """The parsed template arguments of one subscript: dtypes, ``bool`` flags, other values.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> args = TemplateArgs((float32_t,), (True,), {})
    >>> args.flag(0, False), args.flag(1, False), args.text()
    (True, False, 'float32_t, True')
    """

    __slots__ = ("dtypes", "flags", "values")

    def __init__(
        self,
        dtypes: tuple[type[Scalar], ...] = (),
        flags: tuple[bool, ...] = (),
        values: dict[type[Any], Any] | None = None,
    ) -> None:
        self.dtypes = dtypes
        self.flags = flags
        self.values = values or {}

    def flag(self, index: int, default: bool) -> bool:
        """Return the *index*-th ``bool`` template argument, or *default* when not written."""
        return self.flags[index] if index < len(self.flags) else default

    def value(self, kind: type[Any], default: Any) -> Any:
        """Return the template argument of type *kind* (an enum member or a struct), or *default*."""
        return self.values.get(kind, default)

    def text(self) -> str:
        """Render the arguments as they were written."""
        parts = [d.__name__ for d in self.dtypes] + [str(f) for f in self.flags]
        parts += [
            f"{type(v).__name__}.{v.name}" if isinstance(v, enum.Enum) else repr(v)
            for v in self.values.values()
        ]
        return ", ".join(parts)


NO_ARGS = TemplateArgs()


class BasicOp:
    """A memory-level op: its row, its implementation and its template arguments.

    Attributes
    ----------
    spec
        The op's row (``ascreg._spec.SPECS["basic.<name>"]``).
    name
        The spelling users call (``"Adds"``), also the call name of its error messages.
    t
        The template arguments of this subscript (:class:`TemplateArgs`).
    """

    value_kinds: tuple[type[Any], ...] = ()
    """The non-dtype, non-``bool`` template parameter types the op accepts (enums, structs)."""
    max_dtypes: int = 1
    """How many dtype template arguments the C++ template declares."""

    def __init__(
        self,
        spec: OpSpec,
        impl: Callable[..., Any],
        targs: TemplateArgs = NO_ARGS,
        *,
        doc: str | None = None,
        **attributes: Any,
    ) -> None:
        self.spec = spec
        self.name = spec.spelling
        self._impl = impl
        self._attributes = attributes
        self.t = targs
        self._instances: dict[Any, Self] = {}
        setattr(self, CALL_MARKER, self.name)
        for key, value in attributes.items():
            setattr(self, key, value)
        self.__doc__ = doc if doc is not None else impl.__doc__
        self.__name__ = self.__qualname__ = self.name
        self.__module__ = "ascreg.basic"

    def __repr__(self) -> str:
        return f"<{self.name}[{self.t.text()}]>" if self.t is not NO_ARGS else f"<{self.name}>"

    def __getitem__(self, items: Any) -> Self:
        key = tuple(map(id, items)) if isinstance(items, tuple) else id(items)
        found = self._instances.get(key)
        if found is None:
            written = items if isinstance(items, tuple) else (items,)
            found = type(self)(
                self.spec, self._impl, self._parse(written), doc=self.__doc__, **self._attributes
            )
            self._instances[key] = found
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        ctx = running_block()
        if ctx is not None and ctx.in_simd_vf:
            raise AscregTypeError(
                "a memory-level vector op runs in the kernel body (it starts its own VF); call "
                "it outside the __simd_vf__ function, or use the Reg op inside it",
                call=self.name,
            )
        return self._impl(self, *args, **kwargs)

    def _parse(self, items: tuple[Any, ...]) -> TemplateArgs:
        dtypes: list[type[Scalar]] = []
        flags: list[bool] = []
        values: dict[type[Any], Any] = {}
        for item in items:
            if is_scalar_type(item):
                dtypes.append(item)
            elif isinstance(item, bool):
                flags.append(item)
            elif type(item) in self.value_kinds:
                values[type(item)] = item
            else:
                accepted = ["a scalar type such as half", "a bool"]
                accepted += [f"a {k.__name__}" for k in self.value_kinds]
                raise AscregTypeError(
                    f"unexpected template argument {item!r:.40}; expected " + ", ".join(accepted),
                    call=self.name,
                )
        if len(dtypes) > self.max_dtypes:
            raise AscregTypeError(
                f"takes at most {self.max_dtypes} dtype template argument(s), got "
                + ", ".join(d.cpp_name for d in dtypes),
                call=self.name,
            )
        if dtypes:
            self.spec.check_prefix(*dtypes)
        return TemplateArgs(tuple(dtypes), tuple(flags), values)

    def tensor(self, value: Any, role: str) -> LocalTensor[Any]:
        """Return *value* if it is a LocalTensor with a buffer, else raise naming *role*."""
        if not isinstance(value, LocalTensor):
            raise AscregTypeError(
                f"{role} must be a LocalTensor, got {value!r:.60}", call=self.name
            )
        value.GetPhyAddr()  # a tensor without a buffer is an error here, not at the access
        return value

    def dtypes(self, *tensors: tuple[Any, str]) -> tuple[type[Scalar], ...]:
        """Check the template dtypes (if written) against the tensors'; return the tensors'.

        Each of *tensors* is ``(tensor, role)``; the i-th written dtype must be the i-th
        tensor's element type (``Cast[half, float32_t]`` with a ``LocalTensor[half]`` dst and a
        ``LocalTensor[float]`` src).
        """
        found = tuple(self.tensor(t, role)._dtype() for t, role in tensors)
        for i, written in enumerate(self.t.dtypes[: len(found)]):
            if written is not found[i]:
                raise TemplateMismatchError(
                    f"template argument {written.cpp_name} does not match {tensors[i][1]}, a "
                    f"{tensors[i][0]._cpp()} (C++: no matching function)",
                    call=self.name,
                )
        return found


def basic_op(
    name: str, *, base: type[BasicOp] = BasicOp, doc: str | None = None, **attributes: Any
) -> Callable[[Callable[..., Any]], Any]:
    """Make the op object of row ``basic.<name>`` from its implementation ``impl(op, *args)``.

    Parameters
    ----------
    name
        The op's spelling (``"Adds"``); its row is ``SPECS["basic." + name]``.
    base
        The :class:`BasicOp` subclass to instantiate (its ``value_kinds`` and ``max_dtypes``).
    doc
        The docstring (default: *impl*'s).
    **attributes
        Constants the implementation reads from ``op`` (``op.formula``, ``op.binary``).

    Examples
    --------
    >>> from ascreg.basic._op import basic_op
    >>> def show(op, x):
    ...     "Return x."
    ...     return op.name, x
    >>> basic_op("Adds")(show)(3)
    ('Adds', 3)
    """

    def decorate(impl: Callable[..., Any]) -> Any:
        return base(SPECS["basic." + name], impl, doc=doc, **attributes)

    return decorate

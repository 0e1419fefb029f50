"""The one way to define an op: :func:`define`, over C++ function templates as Python callables.

An op is *check the operands against its row, then one core call*. Its implementation is a
function ``impl(op, *args)`` whose first parameter is the op object (its row as ``op.spec``,
its template arguments as ``op.t``, its operand surface as ``op.surface``), and
``define(<row name>)(impl)`` turns it into what the surface calls: for the Reg API a
subscriptable :class:`Template` instance, for the C API a plain function. Twins on the two
surfaces share one implementation.

``Reg.Compare[float32_t, CMPMODE.EQ](dst, a, b, mask)`` subscripts a :class:`Template` with the
C++ template arguments; the subscript is parsed once per distinct argument tuple and cached, so
a call in a loop costs one dictionary lookup. The subscript of an op with a row must be one of
the template argument lists the C++ declares for it, in its order (the row's
``RegShape.subscripts``, :func:`parse_lists`): ``Muls[float32_t, float32_t,
MaskMergeMode.ZEROING]`` is ``Muls<T, U, mode>``, and ``Muls[float32_t,
MaskMergeMode.ZEROING]`` is an error, as in C++. The few ops without a row classify their
arguments by kind.

Examples
--------
>>> from ascreg import Reg, uint16_t
>>> Reg.UpdateMask[uint16_t]
<Reg.UpdateMask[uint16_t]>
"""

from __future__ import annotations

import enum
import functools
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

from ascreg import enums
from ascreg._dtypes import Scalar, is_scalar_type
from ascreg._frontend.operands import C_API, REG, SIMT, Surface
from ascreg._frontend.rules import BatchRule, rule_of
from ascreg._spec import SPECS, OpSpec, RegShape
from ascreg._spec.shapes import DTYPE, OWN_DTYPE, SCALAR_TYPE
from ascreg.enums import PostLiteral
from ascreg.errors import (
    CALL_MARKER,
    FORWARDER_MARKER,
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
    UnsupportedError,
)
from ascreg.machine.block import _STACK, running_block
from ascreg.machine.hook import ACTIVE as _BATCHING
from ascreg.machine.hook import ENGINE
from ascreg.machine.registers import RegTensor, RegTrait, RegTraitNumOne
from ascreg.machine.sync import Pipe
from ascreg.machine.trace import RECORDING as _TRACING

E = TypeVar("E", bound=enum.Enum)


class TemplateArgs:
    """The parsed template arguments of one subscript.

    ``dtypes`` are the row's dtypes (its ``"T"`` arguments), ``scalar`` the type of a scalar
    operand (``"U"``, ``Muls<T, U, mode>``), ``others`` the dtypes the op checks itself
    (``"X"``), ``trait`` a RegTrait, ``enums`` the enum members by class.
    """

    __slots__ = ("dtypes", "enums", "others", "scalar", "trait")

    def __init__(
        self,
        dtypes: tuple[type[Scalar], ...] = (),
        trait: type[RegTrait] | None = None,
        enums: dict[type[Any], Any] | None = None,
        scalar: type[Scalar] | None = None,
        others: tuple[type[Scalar], ...] = (),
    ) -> None:
        self.dtypes = dtypes
        self.trait = trait
        self.enums = enums or {}
        self.scalar = scalar
        self.others = others

    def enum(self, kind: type[E], default: E) -> E:
        """Return the argument of enum class *kind*, or *default*."""
        value = self.enums.get(kind, default)
        return value  # type: ignore[no-any-return]

    def text(self) -> str:
        """Render the arguments as they were written."""
        parts = [_spelled(d) for d in (*self.dtypes, *self.others)]
        if self.scalar is not None:
            parts.append(_spelled(self.scalar))
        if self.trait is not None:
            parts.append(self.trait.__name__)
        parts += [
            f"{type(v).__name__}.{v.name}" if isinstance(v, enum.Enum) else repr(v)
            for v in self.enums.values()
        ]
        return ", ".join(parts)


NO_ARGS = TemplateArgs()


def _spelled(dtype: type[Scalar]) -> str:
    """Return *dtype* as a subscript writes it (``float32_t`` for C++ ``float``)."""
    return dtype.cpp_name if dtype.cpp_name != "float" else "float32_t"


class Template:
    """Base of every subscriptable op.

    Subclasses set ``name`` (the user-facing spelling, also the key of the op's spec row),
    ``enum_kinds`` (the enum classes the subscript may contain), ``max_dtypes`` and ``traits``.
    """

    name: ClassVar[str]
    key: ClassVar[str | None] = None  # the row's key in SPECS when it differs from the name
    batching: ClassVar[BatchRule | None] = None
    """How the op runs on a batch of loop iterations (:func:`~ascreg._frontend.rules.rule_of`)."""
    kernel: ClassVar[bool] = False
    """True for a kernel-level (scalar unit) function: never run once for a batch."""
    enum_kinds: ClassVar[tuple[type[Any], ...]] = ()
    max_dtypes: ClassVar[int] = 1
    traits: ClassVar[bool] = False
    surface: ClassVar[Surface] = REG
    _fixed: ClassVar[tuple[Any, ...]] = ()

    def __init__(self, targs: TemplateArgs = NO_ARGS) -> None:
        self.t = targs
        self._instances: dict[Any, Self] = {}
        self.spec: OpSpec | None = SPECS.get(self.key or self.name)
        self._checked: set[tuple[type, ...]] = set()
        # operand-type tuples of whole calls that passed every check (an op's fast path)
        self._forms: set[tuple[type, ...]] = set()
        # what the checks of such a validated form derived (a precise op's FTZ flag ...)
        self._derived: dict[tuple[type, ...], Any] = {}
        self._setup()

    def _setup(self) -> None:
        """Derive per-instance constants from the template arguments (runs once per subscript)."""

    def __getitem__(self, items: Any) -> Self:
        # Keyed by identity, not equality: members of different IntEnums compare equal by value
        # (PostLiteral.POST_MODE_UPDATE == StoreDist.DIST_NORM_B16 == 1) and must not share an
        # entry. Every cached argument (dtype, RegTrait, enum member) lives for the whole run.
        if not isinstance(items, tuple):
            key: Any = id(items)
        elif len(items) == 2:  # Compare[T, mode], Cast[D, S]: the common tuple, without a map
            key = (id(items[0]), id(items[1]))
        else:
            key = tuple(map(id, items))
        found = self._instances.get(key)
        if found is None:
            written = items if isinstance(items, tuple) else (items,)
            found = self._derive(self._parse(self._fixed + written))
            found.__doc__ = self.__doc__
            self._instances[key] = found
        return found

    def __repr__(self) -> str:
        return f"<{self.name}[{self.t.text()}]>" if self.t is not NO_ARGS else f"<{self.name}>"

    def fixing(self, alias: str, *items: Any) -> Self:
        """Return this op under the older name *alias*, its leading template arguments *items*.

        ``Reg.ReduceSum[T, U]`` is ``Reg.Reduce[ReduceType.SUM, T, U]``; errors still name the
        op's row.

        Examples
        --------
        >>> from ascreg import Reg, ReduceType, half
        >>> Reg.ReduceMax[half]
        <Reg.Reduce[half, ReduceType.MAX]>
        """
        short = alias.removeprefix("Reg.")
        namespace = {"_fixed": items, "__doc__": self.__doc__, "__qualname__": f"_{short}"}
        cls: type[Self] = type(f"_{short}", (type(self),), namespace)
        return cls(self._parse(items))

    def _derive(self, targs: TemplateArgs) -> Self:
        """Return the op specialised with *targs* (subclasses with extra state override this)."""
        return type(self)(targs)

    def _parse(self, items: tuple[Any, ...]) -> TemplateArgs:
        _ascreg_call = self.name
        shape = self.spec.shape if self.spec is not None else None
        if isinstance(shape, RegShape):
            return parse_lists(self.spec, shape, items)  # type: ignore[arg-type]
        dtypes: list[type[Scalar]] = []
        trait: type[RegTrait] | None = None
        enums: dict[type[Any], Any] = {}
        for item in items:
            if is_scalar_type(item):
                dtypes.append(item)
            elif self.traits and isinstance(item, type) and issubclass(item, RegTrait):
                trait = item
            elif type(item) in self.enum_kinds:  # an enum member or a *SpecificMode struct
                enums[type(item)] = item
            else:
                raise AscregTypeError(self._bad_argument(item))
        if len(dtypes) > self.max_dtypes:
            raise AscregTypeError(
                f"takes at most {self.max_dtypes} dtype template argument(s), got "
                + ", ".join(d.cpp_name for d in dtypes)
            )
        if self.spec is not None and dtypes:
            self.spec.check_prefix(*dtypes)
        return TemplateArgs(tuple(dtypes), trait, enums)

    def _bad_argument(self, item: Any) -> str:
        accepted = ["a scalar type such as uint16_t"]
        accepted += [f"a {k.__name__} member" for k in self.enum_kinds]
        if self.traits:
            accepted.append("RegTraitNumOne/RegTraitNumTwo")
        return f"unexpected template argument {item!r}; expected " + ", ".join(accepted)

    # -- helpers shared by the ops ------------------------------------------------------------

    def template_dtype(self, reg: RegTensor[Any, Any]) -> type[Scalar]:
        """Check the template dtype (if given) against *reg*'s and return the dtype."""
        dtype = reg.dtype
        if self.t.dtypes and self.t.dtypes[0] is not dtype:
            raise TemplateMismatchError(
                f"template dtype {self.t.dtypes[0].cpp_name} does not match the register "
                f"{type(reg).__name__} (C++: static_assert 'T type is not correct!')"
            )
        return dtype


def trait_of(targs: TemplateArgs) -> type[RegTrait]:
    """Return the RegTrait in the subscript, defaulting to ``RegTraitNumOne``."""
    return targs.trait or RegTraitNumOne


Impl = Callable[..., Any]
SURFACES = {"reg": REG, "c_api": C_API, "simt": SIMT}
"""The operand surface of each row surface."""


def define(
    name: str,
    *,
    base: type[Template] = Template,
    doc: str | None = None,
    batch: BatchRule | None = None,
    **attributes: Any,
) -> Callable[[Impl], Any]:
    """Define the op of row *name* from its implementation ``impl(op, *args)``.

    Parameters
    ----------
    name
        The row's spelling (``"Reg.Select"``, ``"asc_select"``): the key of its row in
        ``ascreg._spec.SPECS`` and the call name in error messages.
    base
        The :class:`Template` subclass to specialise (for ops that share helper methods).
    doc
        The docstring (default: *impl*'s).
    batch
        How the op runs on a batch of loop iterations (:mod:`ascreg._frontend.rules`); a
        lane-wise row needs none (:data:`~ascreg._frontend.rules.ROWS` is derived from it).
    **attributes
        Class attributes of the op: ``enum_kinds``, ``max_dtypes``, ``traits``, and any
        constant or helper the implementation reads from ``op``.

    Returns
    -------
    Callable
        A decorator: for a Reg row it returns the subscriptable op (an instance of a new
        ``Template`` subclass named ``_<Name>``, of the module that calls ``define``); for a C
        API or SIMT row, a plain function named *name* that passes the op object to *impl*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> from ascreg._frontend.compute import vectors
    >>> def negate(op, dst, src):
    ...     d, s = vectors(op, (dst, "dst"), (src, "src"))
    ...     d.put(-s.get())
    >>> Neg = define("Reg.Neg", doc="Negate.")(negate)
    >>> a, b = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](); a.set(3)
    >>> Neg[int16_t](b, a); int(np.asarray(b)[0])
    -3
    """
    row = SPECS.get(name)  # a few helpers (CreateAddrReg) are ops without a dtype row
    key, name = name, row.spelling if row else name
    short = name.removeprefix("Reg.")
    surface = SURFACES[row.surface] if row else REG if name.startswith("Reg.") else C_API
    module = sys._getframe(1).f_globals["__name__"]  # the front end that defines the op

    def decorate(impl: Impl) -> Any:
        namespace = {
            "name": name,
            "key": key,
            "surface": surface,
            CALL_MARKER: name,
            FORWARDER_MARKER: True,
            "batching": rule_of(row, batch),
            "kernel": bool(getattr(getattr(row, "shape", None), "kernel", False)),
            "__doc__": with_aliases(impl.__doc__ if doc is None else doc, row),
            "__module__": module,
            "__qualname__": f"_{short}",
            **attributes,
        }
        if surface is REG:
            namespace["__call__"] = _vector_only(impl, name)
            return type(f"_{short}", (base,), namespace)()
        op = type(f"_{short}", (base,), namespace)()
        return _c_function(op, impl, module)

    return decorate


def with_aliases(doc: str | None, row: OpSpec | None) -> str | None:
    """Return *doc* with a line naming the row's older spellings, before its Examples section.

    Examples
    --------
    >>> from ascreg import Reg
    >>> print(Reg.Move.__doc__.split("Examples")[0].strip().splitlines()[-1])
    Older spellings, the same op: ``Reg.MaskMov``, ``Reg.Copy``.
    """
    if doc is None or row is None or not row.aliases:
        return doc
    fixed = dict(getattr(row.shape, "fixed", ()))
    names = ", ".join(
        f"``{alias}`` (``{row.name}[{fixed[alias]}]``)" if alias in fixed else f"``{alias}``"
        for alias in row.aliases
    )
    lines = doc.splitlines()
    at = next((i for i, line in enumerate(lines) if line.strip() == "Examples"), len(lines))
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())] if at < len(lines) else ""
    note = [f"{indent}Older spellings, the same op: {names}.", ""]
    return "\n".join([*lines[:at], *note, *lines[at:]])


def check_in_vector_function(call: str) -> None:
    """Raise unless the running block (if any) is inside a ``__simd_vf__`` function.

    A Reg or C API vector op exists only in a VF: the C++ compiler rejects it in the kernel
    body (scalar code). Outside any kernel (plain Reg code on a bare UB) every op runs.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> check_in_vector_function("Reg.Add")
    >>> with block(BlockContext()):
    ...     check_in_vector_function("Reg.Add")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.Add: a vector op runs only inside a __simd_vf__ function, not in the kernel body (scalar code; the C++ compiler rejects it there): move it into a __simd_vf__ function and call that
    """
    ctx = running_block()
    if ctx is not None and ctx.pipe is not Pipe.PIPE_V:
        raise AscregTypeError(
            "a vector op runs only inside a __simd_vf__ function, not in the kernel body "
            "(scalar code; the C++ compiler rejects it there): move it into a __simd_vf__ "
            "function and call that",
            call=call,
        )


def _vector_only(impl: Impl, name: str) -> Impl:
    """Return *impl* preceded by :func:`check_in_vector_function` (the Reg ``__call__``).

    *name* is the op's row name: a missing argument's ``TypeError`` names it.
    """
    forwarder = _forwarder(impl, impl.__name__, bound=None, vector=True)
    call: Impl = functools.wraps(impl)(forwarder or _generic(impl))
    call.__qualname__ = name  # a missing argument's TypeError names the op, not the impl
    return call


def _generic(impl: Impl, bound: Template | None = None, *, vector: bool = True) -> Impl:
    """Return the ``*args, **kwargs`` form of :func:`_forwarder` (any parameters)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        op = bound if bound is not None else args[0]
        if vector and _STACK and _STACK[-1].pipe is not Pipe.PIPE_V:
            check_in_vector_function(op.name)
        if _TRACING:  # a profile records: it runs this call again, then records it
            return _TRACING.pop().call(op, call, args, kwargs)
        passed = args if bound is not None else args[1:]
        if _BATCHING:
            return ENGINE[0].batched(op, impl, passed, kwargs)
        try:
            if kwargs:
                return impl(op, *passed, **kwargs)
            return impl(op, *passed)  # the same call: forwarding no keywords costs half as much
        except TypeError as exc:
            if exc.__traceback__ is not None and exc.__traceback__.tb_next is None:
                raise bad_arguments(op.name, exc, impl) from None  # binding impl failed
            raise

    return call


def bad_arguments(name: str, exc: TypeError, impl: Impl) -> AscregTypeError:
    """Return the error of a call of op *name* whose arguments do not bind to *impl*.

    Python's message names the implementation (``_unary() missing 2 required positional
    arguments``); this one names the op and the documented form of its call.

    Examples
    --------
    >>> def _unary(op, dst, src, mask): "``Abs(dst, src, mask)``: absolute value."
    >>> try:
    ...     _unary(None, 1)
    ... except TypeError as exc:
    ...     print(bad_arguments("Reg.Abs", exc, _unary))
    Reg.Abs: missing 2 required positional arguments: 'src' and 'mask' (the call is ``Abs(dst, src, mask)``)
    >>> try:
    ...     _unary(None, 1, 2, 3, 4)
    ... except TypeError as exc:
    ...     print(bad_arguments("Reg.Abs", exc, _unary))
    Reg.Abs: takes 3 positional arguments but 4 were given (the call is ``Abs(dst, src, mask)``)
    """
    detail = str(exc).split("() ", 1)[-1]
    if detail.startswith("takes "):  # the op object counts as impl's first positional argument
        detail = re.sub(r"\d+", lambda m: str(int(m[0]) - 1), detail)
        detail = detail.replace(" 1 positional arguments", " 1 positional argument")
        detail = detail.replace(" 1 were given", " 1 was given")
    summary = (impl.__doc__ or "").strip().split("\n", 1)[0].split(": ", 1)[0].rstrip(".")
    form = f" (the call is {summary})" if summary else ""
    return AscregTypeError(f"{detail}{form}", call=name)


def _c_function(op: Template, impl: Impl, module: str) -> Callable[..., Any]:
    """Return the plain C function of *op*: ``impl`` with the op object bound first."""
    shape = op.spec.shape if op.spec is not None else None
    vector = op.surface is C_API and not getattr(shape, "kernel", False)
    call: Any = _forwarder(impl, op.name, bound=op, vector=vector) or _generic(
        impl, op, vector=vector
    )
    call.__name__ = call.__qualname__ = op.name
    setattr(call, CALL_MARKER, op.name)  # an op: a batched VF loop may call it
    setattr(call, FORWARDER_MARKER, True)  # ... and a plan may record its calls
    call.__doc__ = op.__doc__
    call.__module__ = module
    parameters = list(inspect.signature(impl).parameters.values())[1:]
    call.__signature__ = inspect.Signature(parameters)
    return call  # type: ignore[no-any-return]


_FORWARDER = """\
def {name}({head}{formal}):
{vector_check}{trace}    if _BATCHING:
        return _ENGINE[0].batched(op, impl, ({packed}), None)
    return impl(op, {actual})
"""
"""The call of an op whose implementation has plain parameters: they are forwarded as they are.

A call through ``*args, **kwargs`` costs about 0.15 us more per op call (packing and unpacking
the arguments): with eight ops per iteration that is most of what an eager VF loop spends in
calls. The generated function does the same checks as the generic one; inside a batched loop
the engine runs the call (:func:`ascreg.engine.batching.batched`)."""

_VECTOR_CHECK = """\
    if _STACK and _STACK[-1].pipe is not PIPE_V:
        check_in_vector_function(op.name)
"""
"""The first lines of a vector op's forwarder: it runs only inside a ``__simd_vf__``."""

_TRACE = """\
    if _TRACING:
        return _TRACING.pop().call(op, {name}, ({head}{packed}))
"""
"""The next lines: while a profile records (:mod:`ascreg.machine.trace`), it runs the call."""

_RESERVED = frozenset(
    {"op", "impl", "_ENGINE", "check_in_vector_function", "PIPE_V", "_STACK", "_BATCHING"}
    | {"_TRACING"}
)
"""The names the forwarder's body uses: an implementation with such a parameter gets the generic call."""


def _forwarder(impl: Impl, name: str, *, bound: Template | None, vector: bool) -> Any:
    """Return a function taking *impl*'s parameters (after ``op``) that checks, then calls *impl*.

    *bound* is the op object of a C function (None for a Reg ``__call__``, which receives the
    op as ``self``); *vector* adds the check that the call is inside a VF. Returns None when a
    parameter has a default or is keyword-only (the generic ``*args, **kwargs`` call then).
    """
    parameters = list(inspect.signature(impl).parameters.values())[1:]
    plain = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.VAR_POSITIONAL
    if (
        any(
            p.kind not in plain or p.default is not p.empty or p.name in _RESERVED
            for p in parameters
        )
        or not name.isidentifier()
    ):
        return None
    written = [f"*{p.name}" if p.kind is p.VAR_POSITIONAL else p.name for p in parameters]
    head, packed = "op, " if bound is None else "", "".join(f"{w}, " for w in written)
    source = _FORWARDER.format(
        name=name,
        head=head,
        formal=", ".join(written),
        vector_check=_VECTOR_CHECK if vector else "",
        trace=_TRACE.format(name=name, head=head, packed=packed),
        packed=packed,
        actual=", ".join(written),
    )
    namespace: dict[str, Any] = {
        "impl": impl,
        "_ENGINE": ENGINE,
        "check_in_vector_function": check_in_vector_function,
        "PIPE_V": Pipe.PIPE_V,
        "_STACK": _STACK,
        "_BATCHING": _BATCHING,
        "_TRACING": _TRACING,
    }
    if bound is not None:
        namespace["op"] = bound
    exec(compile(source, f"<ascreg op {name}>", "exec"), namespace)
    return namespace[name]


# -- the template argument lists of a row (RegShape.subscripts) ----------------------------------

_SPECIAL = {
    "POST": lambda item: item is PostLiteral.POST_MODE_UPDATE,
    "NORMAL": lambda item: item is PostLiteral.POST_MODE_NORMAL,
    "TRAIT": lambda item: isinstance(item, type) and issubclass(item, RegTrait),
    "OFFSET": lambda item: type(item) is int,
    DTYPE: lambda item: item is enums.DefaultType or is_scalar_type(item),
    SCALAR_TYPE: lambda item: item is enums.DefaultType or is_scalar_type(item),
    OWN_DTYPE: lambda item: item is enums.DefaultType or is_scalar_type(item),
}
"""How each token that is not an enum class name recognises its argument."""


def _fits(token: str, item: Any) -> bool:
    """Return True when *item* is an argument of kind *token* (see ``RegShape``)."""
    test = _SPECIAL.get(token)
    if test is not None:
        return bool(test(item))
    return type(item) is getattr(enums, token)


def parse_lists(spec: OpSpec, shape: RegShape, items: tuple[Any, ...]) -> TemplateArgs:
    """Parse the subscript *items* of a row's op: exactly one of the lists its C++ declares.

    The items must spell one of ``shape.subscripts``' lists in its order (after the lead
    member, for a row with a lead); a list whose dtypes are no legal prefix of the row's
    combinations does not match (the next one may: ``Gather``'s UB form).

    Examples
    --------
    >>> from ascreg import Reg, float32_t, MaskMergeMode
    >>> Reg.Muls[float32_t, float32_t, MaskMergeMode.ZEROING]
    <Reg.Muls[float32_t, float32_t, MaskMergeMode.ZEROING]>
    >>> Reg.Muls[float32_t, MaskMergeMode.ZEROING]
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.Muls: Muls[float32_t, MaskMergeMode.ZEROING] is not a template argument list C++ declares for Muls; write Muls[T], Muls[T, U] or Muls[T, U, MaskMergeMode] (T: a dtype of the op, U: the scalar's type)
    """
    rest = items
    lead: dict[type[Any], Any] = {}
    if shape.lead:
        kind = getattr(enums, shape.lead[0][0].split(".")[0])
        if not rest or type(rest[0]) is not kind:
            raise AscregTypeError(_no_list(spec, shape, items))
        lead[kind], rest = rest[0], rest[1:]
    illegal: IllegalDtypeError | None = None
    for pattern in shape.all_patterns():
        if len(pattern) != len(rest) or not all(map(_fits, pattern, rest)):
            continue
        args = _arguments(pattern, rest, lead)
        if args.dtypes and not any(c[: len(args.dtypes)] == args.dtypes for c in spec.combos):
            illegal = illegal or IllegalDtypeError(
                f"illegal template dtypes ({spec.describe(args.dtypes)}); legal: "
                f"{spec.legal_text()}",
                call=spec.spelling,
            )
            continue
        return args
    if illegal is not None:
        raise illegal
    raise AscregTypeError(_no_list(spec, shape, items))


def _arguments(
    pattern: tuple[str, ...], items: tuple[Any, ...], lead: dict[type[Any], Any]
) -> TemplateArgs:
    """Return the :class:`TemplateArgs` of *items*, which spell *pattern*."""
    dtypes: list[type[Scalar]] = []
    others: list[type[Scalar]] = []
    scalar: type[Scalar] | None = None
    trait: type[RegTrait] | None = None
    found = dict(lead)
    for token, item in zip(pattern, items, strict=True):
        if item is enums.DefaultType and token == SCALAR_TYPE:
            continue  # U deduced from the scalar, as when it is left out
        if token == DTYPE:
            dtypes.append(item)
        elif token == OWN_DTYPE:
            others.append(item)
        elif token == SCALAR_TYPE:
            scalar = item
        elif token == "TRAIT":
            trait = item
        else:
            found[int if token == "OFFSET" else type(item)] = item
    return TemplateArgs(_deduced(dtypes), trait, found, scalar, _deduced(others))


def _deduced(dtypes: list[Any]) -> tuple[type[Scalar], ...]:
    """Return *dtypes* without their trailing ``DefaultType`` s (the dtypes left to deduce).

    Examples
    --------
    >>> from ascreg import half
    >>> _deduced([half, enums.DefaultType])
    (<class 'ascreg._dtypes.half'>,)
    """
    while dtypes and dtypes[-1] is enums.DefaultType:
        dtypes.pop()
    if enums.DefaultType in dtypes:
        raise UnsupportedError(
            "a written dtype after DefaultType: ascreg takes DefaultType in the trailing dtype "
            "positions only (write the deduced dtype instead)"
        )
    return tuple(dtypes)


def _item_text(item: Any) -> str:
    """Render one template argument as a subscript writes it."""
    if is_scalar_type(item):
        return _spelled(item)
    if isinstance(item, enum.Enum):
        return f"{type(item).__name__}.{item.name}"
    return item.__name__ if isinstance(item, type) else repr(item)


def _no_list(spec: OpSpec, shape: RegShape, items: tuple[Any, ...]) -> str:
    """Say that *items* spell no list of the op, and which lists it has."""
    short = spec.spelling.removeprefix("Reg.")
    written = ", ".join(map(_item_text, items))
    lead = [shape.lead[0][0].split(".")[0]] if shape.lead else []
    lists = [f"{short}[{', '.join([*lead, *p])}]" for p in shape.all_patterns() if lead or p]
    listed = ", ".join(lists[:-1]) + f" or {lists[-1]}" if len(lists) > 1 else lists[0]
    legend = [("T", "a dtype of the op"), ("U", "the scalar's type"), ("X", "a dtype")]
    used = [f"{t}: {what}" for t, what in legend if any(t in p for p in shape.all_patterns())]
    return (
        f"{short}[{written}] is not a template argument list C++ declares for {short}; write "
        f"{listed}" + (f" ({', '.join(used)})" if used else "")
    )

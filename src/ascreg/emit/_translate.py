"""Python kernel source to Ascend C: one :class:`Program` of constants, classes and functions.

The translation reads each function's syntax tree (from its module's source) and the types a
recorded run saw (:mod:`ascreg.emit._record`). It writes the C++ a kernel author would: the
qualifiers the decorators name, template parameters for the scalar types a function is generic
in, a counted ``for`` per ``range`` loop, typed locals declared where C++ scoping needs them, the
API names in the namespace of the surface the Python used. What C++ cannot express raises
:class:`EmitError` naming the file, the line and the rule.
"""

from __future__ import annotations

import ast
import builtins
import enum
import functools
import inspect
import json
import re
import sys
import types
from collections.abc import Iterator
from typing import Any

import attrs

from ascreg._dtypes import INTEGERS, Kind, Scalar, uint16_t, uint64_t
from ascreg.emit import _spell
from ascreg.emit._ctype import (
    PY_INT,
    CType,
    Subst,
    int_type,
    scalar,
)
from ascreg.emit._record import Binding, FunctionRecord, Recording, Seen, _unwrap, class_key
from ascreg.errors import UnsupportedError
from ascreg.machine import constants as _machine_constants


class EmitError(UnsupportedError):
    """Python that Ascend C cannot express, or whose C++ types the run did not show.

    The message names the file and line, the statement, and the rule.

    Examples
    --------
    >>> issubclass(EmitError, NotImplementedError)
    True
    """


# -- C++ precedence (higher binds tighter) -------------------------------------------------------
PRIMARY, UNARY, MUL, ADD, SHIFT, REL, EQ, BAND, BXOR, BOR, LAND, LOR, COND = (
    16, 15, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
)  # fmt: skip
BINARY = {
    ast.Add: ("+", ADD), ast.Sub: ("-", ADD), ast.Mult: ("*", MUL), ast.LShift: ("<<", SHIFT),
    ast.RShift: (">>", SHIFT), ast.BitAnd: ("&", BAND), ast.BitOr: ("|", BOR),
    ast.BitXor: ("^", BXOR),
}  # fmt: skip
COMPARE = {
    ast.Eq: ("==", EQ), ast.NotEq: ("!=", EQ), ast.Lt: ("<", REL), ast.LtE: ("<=", REL),
    ast.Gt: (">", REL), ast.GtE: (">=", REL),
}  # fmt: skip
UNARY_OPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "!"}
AUGMENTED = {
    ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.LShift: "<<=", ast.RShift: ">>=",
    ast.BitAnd: "&=", ast.BitOr: "|=", ast.BitXor: "^=",
}  # fmt: skip
NONNEGATIVE_CALLS = frozenset(
    {"asc_get_vf_len", "GetVecLen", "GetBlockIdx", "GetBlockNum", "asc_get_block_idx",
     "asc_get_block_num", "GetSubBlockIdx", "GetSubBlockNum"}
)  # fmt: skip
"""API calls whose result is an unsigned count or index."""
NONNEGATIVE_NAMES = frozenset({"block_idx", "block_num", "threadIdx", "blockIdx", "blockDim",
                               "gridDim", "VL", "warpSize"})  # fmt: skip
QUALIFIERS = (
    "__global__", "__vector__", "__cube__", "__aicore__", "__simd_vf__", "__simd_callee__",
    "__simt_vf__", "__simt_callee__",
)  # fmt: skip
"""Decorators that are C qualifiers, written as the decorator names them."""
CONSTANT_TYPES = (int, float, bool)
_INTS = (Kind.INT, Kind.UINT)
DEVICE_BUILTINS = {"abs": 1, "min": 2, "max": 2}
"""Python builtins with a device function of the same name and meaning (C ``abs``, SIMT min/max)."""
CONSTANT_BOUNDS = {"warpSize": (32, 32), "VL": (256, 256)} | {
    name: (value, value)
    for name, value in ((n, getattr(_machine_constants, n)) for n in _machine_constants.__all__)
    if type(value) is int
}
"""API constants whose value bounds an expression (``VECTOR_REG_WIDTH`` and the rest of the
constants kernels read, :mod:`ascreg.machine.constants`)."""
CONSTEXPR_CALLS = ("GetVecLen", "asc_get_vf_len")
"""API calls the header declares ``constexpr`` (a local computed from them may be too)."""


def _combine(op: ast.operator, a: tuple[int | None, int | None], b: tuple[int | None, int | None]) -> tuple[int | None, int | None]:  # fmt: skip
    """Interval arithmetic of one integer operator (None: unbounded)."""
    (alo, ahi), (blo, bhi) = a, b

    def add(x: int | None, y: int | None) -> int | None:
        return None if x is None or y is None else x + y

    if isinstance(op, ast.Add):
        return add(alo, blo), add(ahi, bhi)
    if isinstance(op, ast.Sub):
        return add(alo, None if bhi is None else -bhi), add(ahi, None if blo is None else -blo)
    nonneg = alo is not None and alo >= 0 and blo is not None and blo >= 0
    if isinstance(op, ast.Mult) and nonneg:
        return alo * blo, None if ahi is None or bhi is None else ahi * bhi  # type: ignore[operator]
    if isinstance(op, ast.FloorDiv | ast.Mod | ast.RShift | ast.BitAnd) and nonneg:
        return 0, ahi
    if isinstance(op, ast.BitOr | ast.BitXor | ast.LShift) and nonneg:
        return 0, None
    return None, None


def _unparse(node: ast.AST) -> str:
    return ast.unparse(node)


@functools.cache
def _module_tree(filename: str) -> tuple[ast.Module, tuple[str, ...]]:
    with open(filename, encoding="utf-8") as handle:
        text = handle.read()
    return ast.parse(text, filename), tuple(text.splitlines())


def _find_definition(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.ClassDef | None:
    body: list[ast.stmt] = tree.body
    found: ast.FunctionDef | ast.ClassDef | None = None
    for part in qualname.split("."):
        found = None
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == part:
                found = node  # the last definition of a name wins, as in Python
        if found is None:
            return None
        body = found.body
    return found


def _definition_at(tree: ast.Module, line: int, name: str) -> ast.FunctionDef | None:
    """Return the ``def`` of *name* whose first line (its first decorator's) is *line*."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if first == line or node.lineno == line:
                return node
    return None


def _closure(func: Any) -> dict[str, Any]:
    """Return the free variables of a nested function and their values (names it reads from outside)."""
    cells = func.__closure__ or ()
    out = {}
    for name, cell in zip(func.__code__.co_freevars, cells, strict=True):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # an empty cell
            continue
    return out


class _SplitTuples(ast.NodeTransformer):
    """``a, b = x, y`` (neither read on the right) as ``a = x`` then ``b = y``."""

    def visit_Assign(self, node: ast.Assign) -> Any:
        target, value = node.targets[0], node.value
        if (
            len(node.targets) == 1
            and isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
        ):
            names = {t.id for t in target.elts if isinstance(t, ast.Name)}
            used = {n.id for e in value.elts for n in ast.walk(e) if isinstance(n, ast.Name)}
            if not names & used:
                parts = [
                    ast.copy_location(ast.Assign(targets=[t], value=v), node)
                    for t, v in zip(target.elts, value.elts, strict=True)
                ]
                for part in parts:
                    part.ascreg_group = id(node)  # type: ignore[attr-defined]
                return parts
        return node


def _split_tuple_assignments(fdef: ast.FunctionDef) -> ast.FunctionDef:
    import copy

    return _SplitTuples().visit(copy.deepcopy(fdef))  # type: ignore[no-any-return]


@attrs.define
class Where:
    """A place in the Python source, for error messages."""

    filename: str
    lines: tuple[str, ...]

    def error(self, node: ast.AST | None, rule: str) -> EmitError:
        """Return an :class:`EmitError` naming *node*'s line."""
        if node is None or not hasattr(node, "lineno"):
            return EmitError(f"{self.filename}: {rule}", call="ascreg.emit")
        line = node.lineno
        text = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        return EmitError(f"{self.filename}:{line}: `{text}`: {rule}", call="ascreg.emit")


# -- what a name in a kernel stands for ------------------------------------------------------------


@attrs.frozen
class Api:
    """A public ascreg object, spelled in C++."""

    value: Any
    spelling: str


@attrs.frozen
class UserFunction:
    """A Python function of the user's code (emitted as a C++ function)."""

    func: Any


@attrs.frozen
class UserClass:
    """A Python class of the user's code (emitted as a C++ class)."""

    cls: type


@attrs.frozen
class Constant:
    """A module-level number of the user's code (emitted as a ``constexpr``)."""

    name: str
    value: Any
    module_globals: dict[str, Any] = attrs.field(eq=False, hash=False)
    filename: str = ""


@attrs.frozen
class TypeName:
    """A scalar type: a template parameter (``T``) or a type (``half``)."""

    spelling: str
    dtype: Any = None


@attrs.frozen
class ModuleAlias:
    """An ascreg module used as a namespace (``Reg`` in ``Reg.Add``)."""

    namespace: str


@attrs.frozen
class TypeAlias:
    """A module-level name bound to a scalar type (``T = float32_t``): ``using T = float;``."""

    name: str
    dtype: Any  # a Scalar marker, or a SIMT vector type (half2)


Resolved = Api | UserFunction | UserClass | Constant | TypeName | ModuleAlias | TypeAlias


# -- the program -------------------------------------------------------------------------------------


@attrs.define
class Program:
    """Everything emitted for one root: definitions in dependency order (callees first)."""

    recording: Recording | None
    parts: list[str] = attrs.field(factory=list)
    done: dict[Any, str] = attrs.field(factory=dict)
    constants: dict[tuple[str, str], str] = attrs.field(factory=dict)
    aliases: dict[str, str] = attrs.field(factory=dict)
    busy: set[Any] = attrs.field(factory=set)
    functions: list[str] = attrs.field(factory=list)
    """The names of the emitted functions and classes, in order (the round trip compares them)."""
    classes: dict[Any, ClassEmitter] = attrs.field(factory=dict)

    def text(self) -> str:
        """Return the whole C++ translation unit."""
        head = [*self.aliases.values(), *self.constants.values()]
        blocks = ["\n".join(head)] if head else []
        return "\n\n".join([*blocks, *self.parts]) + "\n"

    def record_of(self, filename: str, qualname: str) -> dict[Any, FunctionRecord]:
        """Return the records of one function, by template binding."""
        if self.recording is None:
            return {}
        return self.recording.bindings(filename, qualname)

    def function(self, func: Any, context: str = "kernel", owner: Any = None) -> str:
        """Emit *func* (and first its callees); return its C++ name."""
        target = _unwrap(func)
        key = (_identity(target), owner)
        if key in self.done:
            return self.done[key]
        if key in self.busy:
            raise EmitError(
                f"{target.__qualname__} calls itself: device code has no recursion",
                call="ascreg.emit",
            )
        self.busy.add(key)
        try:
            emitter = FunctionEmitter(self, func, context, owner)
            text = emitter.emit()
        finally:
            self.busy.discard(key)
        self.done[key] = emitter.name
        if owner is None:
            self.parts.append(text)
            self.functions.append(emitter.name)
        else:
            self.done[key] = text
        return emitter.name

    def user_class(self, cls: type) -> str:
        """Emit the class *cls* with the methods the run called; return its name."""
        key = ("class", inspect.getsourcefile(cls), cls.__qualname__)  # a port imported twice
        if key in self.done:
            return str(self.done[key])
        self.done[key] = cls.__name__
        emitter = ClassEmitter(self, cls)
        self.classes[key] = emitter
        self.parts.append(emitter.emit())
        self.functions.append(cls.__name__)
        return cls.__name__

    def class_template(self, cls: type) -> ClassEmitter | None:
        """Return the emitter of *cls* (emitting it first) when it is a class template."""
        self.user_class(cls)
        emitter = self.classes.get(("class", inspect.getsourcefile(cls), cls.__qualname__))
        return emitter if emitter is not None and emitter.params else None

    def constant(self, const: Constant, where: Where, node: ast.AST) -> str:
        """Emit a module-level number as ``constexpr``; return its name."""
        key = (const.filename, const.name)
        if key not in self.constants:
            self.constants[key] = ""  # reserve the slot: constants it uses come first
            text = _ConstantEmitter(self, const, where).emit(node)
            del self.constants[key]
            self.constants[key] = text
        return const.name

    def type_alias(self, alias: TypeAlias) -> str:
        """Emit ``using T = float;`` for a module-level scalar type name."""
        self.aliases.setdefault(alias.name, f"using {alias.name} = {alias.dtype.cpp_name};")
        return alias.name


# -- resolving names -----------------------------------------------------------------------------------


def _identity(func: Any) -> tuple[str, int, str]:
    """Return a function by its source (a module imported twice holds two objects of one function)."""
    code = func.__code__
    return code.co_filename, code.co_firstlineno, func.__qualname__


def _is_user(value: Any) -> bool:
    module = getattr(value, "__module__", "") or ""
    return not module.startswith("ascreg") or module.startswith("ascreg.examples")


def resolve_global(name: str, namespace: dict[str, Any], filename: str) -> Resolved | None:
    """Return what the global *name* of a function stands for (None: not something C++ can name)."""
    if name in namespace:
        value = namespace[name]
    elif hasattr(builtins, name):
        return None
    else:
        return None
    return resolve_value(name, value, namespace, filename)


def resolve_value(
    name: str, value: Any, namespace: dict[str, Any], filename: str
) -> Resolved | None:
    """Return what *value*, written *name* in the source, stands for."""
    if isinstance(value, types.ModuleType):
        ns = _spell.MODULE_NAMESPACES.get(value.__name__)
        if ns is None:
            return None
        if value.__name__ == "ascreg.reg" and name == "MicroAPI":
            ns = "AscendC::MicroAPI::"
        return ModuleAlias(ns)
    if isinstance(value, type) and (issubclass(value, Scalar) or hasattr(value, "cpp_name")):
        if name != value.__name__ and name not in ("float32_t", "bool_"):
            return TypeAlias(name, value)  # T = float32_t, U = half2
        return TypeName(value.cpp_name, value)
    spelled = _spell.spelling(name, value)
    if spelled is not None:
        if isinstance(value, type) and issubclass(value, enum.Enum) and "::" in spelled:
            return Api(value, _spell.enum_spelling(value))
        return Api(value, spelled)
    if _is_user(value):
        if isinstance(value, CONSTANT_TYPES) or _is_number(value):
            return Constant(name, value, namespace, filename)
        if isinstance(value, type) and issubclass(value, enum.Enum):
            return None
        if isinstance(value, type):
            return UserClass(value)
        if hasattr(_unwrap(value), "__code__"):
            return UserFunction(value)
        return None
    if isinstance(value, type) and issubclass(value, enum.Enum):
        return Api(value, _spell.enum_spelling(value))
    if isinstance(value, enum.Enum):
        return Api(value, _spell.member_spelling(value))
    public = _spell.find_public_name(value)
    if public is not None:
        return Api(value, public[0] + public[1])
    return None


def _is_number(value: Any) -> bool:
    import numpy as np

    return isinstance(value, np.integer | np.floating)


# -- scopes: where each local is declared -------------------------------------------------------


@attrs.define
class Site:
    """One occurrence of a name: its statement path and whether it binds."""

    path: tuple[tuple[int, int], ...]
    """``(block id, statement index)`` from the function body down to the statement."""
    binds: bool
    node: ast.AST
    loop_target: ast.For | None = None


class Scopes:
    """Where each local of a function is declared in C++ (its Python scope is the function)."""

    def __init__(self, fdef: ast.FunctionDef, params: set[str]) -> None:
        self.sites: dict[str, list[Site]] = {}
        self.params = params
        self._walk(fdef.body, ())

    def _walk(self, body: list[ast.stmt], path: tuple[tuple[int, int], ...]) -> None:
        for index, stmt in enumerate(body):
            here = (*path, (id(body), index))
            if isinstance(stmt, ast.For):
                self._names(stmt.iter, here)
                if isinstance(stmt.target, ast.Name):
                    self.sites.setdefault(stmt.target.id, []).append(
                        Site(here, True, stmt.target, stmt)
                    )
                else:
                    self._names(stmt.target, here)
                self._walk(stmt.body, here)
                self._walk(stmt.orelse, here)
            elif isinstance(stmt, ast.If | ast.While):
                self._names(stmt.test, here)
                self._walk(stmt.body, here)
                self._walk(stmt.orelse, here)
            elif isinstance(stmt, ast.With):
                for item in stmt.items:
                    self._names(item.context_expr, here)
                self._walk(stmt.body, here)
            else:
                self._names(stmt, here)

    def _names(self, node: ast.AST, here: tuple[tuple[int, int], ...]) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                binds = isinstance(sub.ctx, ast.Store)
                self.sites.setdefault(sub.id, []).append(Site(here, binds, sub))

    def loop_scoped(self, name: str) -> list[ast.For] | None:
        """Return the loops that declare *name* (its every site is in one of them), or None."""
        sites = self.sites.get(name, [])
        loops = [s.loop_target for s in sites if s.loop_target is not None]
        if not loops:
            return None
        return loops

    def declaration(self, name: str) -> tuple[tuple[tuple[int, int], ...], bool]:
        """``(path of the statement to declare before or at, declared at the first binding)``.

        The declaration goes into the deepest block enclosing every site; when the first site
        in that block is a binding statement directly in it, the binding declares the name.
        """
        sites = self.sites[name]
        common = _common_block(s.path for s in sites)
        if len(common) == min(len(s.path) for s in sites):
            common = common[:-1]  # every site is in one statement: declare it in that block
        first = min(sites, key=lambda s: s.path[len(common)])
        at = first.path[: len(common) + 1]
        direct = len(first.path) == len(common) + 1 and first.binds and first.loop_target is None
        direct = direct and all(
            not (s.path[: len(common) + 1] == at and not s.binds) for s in sites
        )
        return at, direct


def _common_block(paths: Iterator[tuple[tuple[int, int], ...]]) -> tuple[tuple[int, int], ...]:
    """Return the longest common prefix of *paths* whose last step shares its block, not its index."""
    all_paths = list(paths)
    prefix: list[tuple[int, int]] = []
    depth = 0
    while True:
        steps = {p[depth] if depth < len(p) else None for p in all_paths}
        if None in steps or len(steps) != 1:
            return tuple(prefix)
        prefix.append(steps.pop())  # type: ignore[arg-type]
        depth += 1


# -- types ---------------------------------------------------------------------------------------------


def _one_type(seen: Seen, what: str, node: ast.AST | None, where: Where) -> CType:
    """Return the single C++ type of a variable from what the run saw (ints merged into a C int)."""
    kinds = {t for t in seen.types if t.kind != "none"} or set(seen.types)
    if len(kinds) > 1:
        ints = {t for t in kinds if t.is_integer}
        floats = {t for t in kinds if t.is_float}
        explicit = {t for t in kinds if t.kind == "scalar"}
        if kinds <= ints | floats and len(explicit) == 1:
            return explicit.pop()
        if kinds <= ints and not explicit:
            return PY_INT
        shown = ", ".join(sorted(t.describe() for t in kinds))
        raise where.error(node, f"{what} held values of several C++ types in the run: {shown}")
    found = next(iter(kinds))
    if found.kind == "unsupported" and found.name == "a Python function":
        raise where.error(
            node,
            f"{what} holds a function: C++ calls (or passes as a template argument) a function "
            "by its name, not one picked into a variable at run time: call each in its branch",
        )
    if found.kind == "unsupported":
        raise where.error(node, f"{what} holds {found.name}, which has no Ascend C type")
    if found.kind == "none":
        raise where.error(node, f"{what} is None in the run: C++ has no such value here")
    return found


def resolve_int(ctype: CType, seen: Seen | None) -> CType:
    """Return a Python int as the C integer type its values fit (``uint32_t`` if never negative)."""
    if ctype.kind == "int":
        low = seen.low if seen and seen.low is not None else 0
        high = seen.high if seen and seen.high is not None else 0
        return scalar(_BY_NAME[int_type(low, high)])
    if ctype.kind == "ref" and ctype.inner is not None:
        return CType("ref", inner=resolve_int(ctype.inner, seen))
    return ctype


_BY_NAME = {d.cpp_name: d for d in INTEGERS}


def arithmetic(left: CType | None, right: CType | None) -> CType | None:
    """Return the C++ usual arithmetic conversions of two scalar types (None: unknown)."""
    if left is None or right is None:
        return None
    if left.is_float or right.is_float:
        return left if left.is_float and left.kind == "scalar" else right
    if not (left.is_integer and right.is_integer) or left.dtype is None or right.dtype is None:
        return None
    a, b = _promote(left.dtype), _promote(right.dtype)
    if a is b:
        return scalar(a)
    if (a.kind is Kind.UINT) == (b.kind is Kind.UINT):
        return scalar(a if a.size >= b.size else b)
    unsigned, signed = (a, b) if a.kind is Kind.UINT else (b, a)
    if unsigned.size >= signed.size:
        return scalar(unsigned)
    return scalar(signed)


def _promote(dtype: type[Scalar]) -> type[Scalar]:
    return _BY_NAME["int32_t"] if dtype.size < 4 else dtype


# -- expressions and statements of one function ------------------------------------------------


@attrs.define
class Local:
    """A local variable (or parameter) of the function being emitted."""

    name: str
    ctype: CType
    seen: Seen
    alias: str | None = None
    """The C++ name it stands for (``remaining = Ref(count)``: ``count``)."""


class FunctionEmitter:
    """Translate one Python function into one C++ function."""

    def __init__(self, program: Program, func: Any, context: str, owner: Any) -> None:
        self.program = program
        self.wrapper = func
        self.func = _unwrap(func)
        self.owner = owner
        self.context = context
        code = self.func.__code__
        self.filename = code.co_filename
        self.qualname = self.func.__qualname__
        tree, lines = _module_tree(self.filename)
        self.where = Where(self.filename, lines)
        found = _definition_at(tree, code.co_firstlineno, self.func.__name__)
        if found is None:
            raise self.where.error(None, f"no source for {self.qualname} (a def in the module)")
        self.fdef = _split_tuple_assignments(found)
        self.name = found.name
        self.globals: dict[str, Any] = {**self.func.__globals__, **_closure(self.func)}
        self.records = program.record_of(self.filename, self.qualname)
        if isinstance(owner, ClassEmitter):
            self.records = owner.normalise(self.records)  # every instantiation, written as one
        self.merged = FunctionRecord()
        for rec in self.records.values():
            self.merged.merge(rec)
        self.reg_ns = "AscendC::Reg::"
        self.locals: dict[str, Local] = {}
        self.lines: list[str] = []
        self.declared: set[str] = set()
        self.template_params: list[str] = []
        self.subst: Subst = {}
        self.aliased_statements: set[int] = set()
        self.constexprs: set[str] = set()
        """The locals declared ``constexpr`` so far (a later one may be computed from them)."""

    # -- entry ---------------------------------------------------------------------------------------

    def emit(self) -> str:
        """Return the C++ definition of the function."""
        self._check_signature()
        qualifiers, template = self._qualifiers()
        self.qualifiers = qualifiers
        params = self._parameters(template)
        self.scopes = Scopes(self.fdef, set(self.locals))
        self.constants_used = _template_names(self.fdef)
        for node in ast.walk(self.fdef):  # a value argument of a class template: a constant
            made = self._template_class(node.func) if isinstance(node, ast.Call) else None
            if made is not None:
                assert isinstance(node, ast.Call)
                for i, param in made.positions.items():
                    if param not in made.type_params and i < len(node.args):
                        self.constants_used |= {
                            n.id for n in ast.walk(node.args[i]) if isinstance(n, ast.Name)
                        }
        self._find_aliases()
        self._locals()
        body = self._body()
        returns = self._return_type()
        head = []
        if self.template_params:
            head.append(
                "template <" + ", ".join(f"typename {t}" for t in self.template_params) + ">"
            )
        spelled = ", ".join(params)
        if self.fdef.name == "__init__" and isinstance(self.owner, ClassEmitter):
            head.append(" ".join([*qualifiers, f"{self.owner.cls.__name__}({spelled})"]))
        else:
            constexpr = ["constexpr"] if self._is_constexpr_function() else []
            if constexpr and self._default_callee and qualifiers[0] == "__simd_callee__":
                # arithmetic of its parameters: a compile-time helper kernels declare once,
                # __aicore__, and call from the kernel and its VFs (DivCeil)
                qualifiers = ["__aicore__", *qualifiers[1:]]
            head.append(" ".join([*qualifiers, *constexpr, returns, f"{self.name}({spelled})"]))
        return "\n".join([*head, "{", *body, "}"])

    def _is_constexpr_function(self) -> bool:
        """Return whether a helper returning arithmetic of its parameters is ``constexpr``.

        As kernels write ``DivCeil``: ``__aicore__ inline constexpr uint32_t DivCeil(a, b)``.
        """
        body = [
            s
            for s in self.fdef.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        if self.owner is not None or len(body) != 1 or not isinstance(body[0], ast.Return):
            return False
        if body[0].value is None or "inline" not in self.qualifiers:
            return False
        pure = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Compare, ast.BoolOp,
                ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)  # fmt: skip
        for node in ast.walk(body[0].value):
            if isinstance(node, ast.Name):
                if not (
                    node.id in self._param_names() or isinstance(self._resolve(node), Constant)
                ):
                    return False
            elif not isinstance(node, pure):
                return False
        return True

    def _check_signature(self) -> None:
        args = self.fdef.args
        if args.vararg or args.kwarg:
            raise self.where.error(self.fdef, "*args and **kwargs have no C++ counterpart here")
        if any(isinstance(d, ast.Lambda) for d in ast.walk(self.fdef)):
            raise self.where.error(self.fdef, "a lambda has no counterpart in device code")

    def _qualifiers(self) -> tuple[list[str], list[str]]:
        """Return the C qualifiers (from the decorators) and the template parameter names."""
        out: list[str] = []
        template: list[str] = []
        kinds: set[str] = set()
        for decorator in self.fdef.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.id if isinstance(target, ast.Name) else _unparse(target).split(".")[-1]
            if name in QUALIFIERS:
                out.append(name)
                kinds.add(name)
            elif name == "__launch_bounds__" and isinstance(decorator, ast.Call):
                out.append(f"__launch_bounds__({self._launch_bounds(decorator)})")
            elif name == "__mix__" and isinstance(decorator, ast.Call):
                ratio = ", ".join(self._expr(arg)[0] for arg in decorator.args)
                out.append(f"__mix__({ratio})")  # the cube : vector core ratio
                kinds.add(name)
            elif name == "template" and isinstance(decorator, ast.Call):
                template += [_unparse(arg) for arg in decorator.args]
            elif name == "property" and isinstance(self.owner, ClassEmitter):
                continue  # a getter: a method of no arguments, called as obj.name()
            else:
                raise self.where.error(
                    decorator, f"the decorator {_unparse(decorator)} has no Ascend C counterpart"
                )
        self._default_callee = not kinds & {"__global__", "__simd_vf__", "__simt_vf__",
                                            "__simd_callee__", "__simt_callee__", "__aicore__"}  # fmt: skip
        if self._default_callee:
            out.insert(0, _CALLEE.get(self.context, "__aicore__"))
        if "__global__" not in kinds:
            out.append("inline")
        self.context = (
            "simt" if kinds & {"__simt_vf__", "__simt_callee__"}
            else "simd" if kinds & {"__simd_vf__", "__simd_callee__"}
            else "kernel" if kinds else self.context
        )  # fmt: skip
        names = {n.id for n in ast.walk(self.fdef) if isinstance(n, ast.Name)}
        if "MicroAPI" in names:
            self.reg_ns = "AscendC::MicroAPI::"
        self.aliases = _type_aliases(names, self.globals, self.filename)
        return out, template

    def _launch_bounds(self, decorator: ast.Call) -> str:
        """Return the bound as written, or the value the decorator stored (an outer-scope name)."""
        try:
            return self._expr(decorator.args[0])[0]
        except EmitError:
            bound = getattr(self.wrapper, "__ascreg_launch_bounds__", None)
            bound = bound or getattr(self.func, "__ascreg_launch_bounds__", None)
            if bound is None:
                raise
            return str(int(bound))

    def _parameters(self, template: list[str]) -> list[str]:
        """Return the C++ parameter list; sets the template parameters and their substitution."""
        args = [*self.fdef.args.args, *self.fdef.args.kwonlyargs]
        if self.owner is not None:
            args = args[1:]  # self
        if isinstance(self.owner, ClassEmitter) and self.fdef.name == "__init__":
            args = [a for i, a in enumerate(args) if i not in self.owner.positions]
        typed: list[str] = []
        for arg in args:
            seen = self.merged.params.get(arg.arg)
            if seen is not None and any(t.kind == "typename" for t in seen.types):
                typed.append(arg.arg)
        self.template_params = [*template, *typed]
        self.type_params = set(typed)
        self._substitution()
        if isinstance(self.owner, ClassEmitter):
            for dtype, name in self.owner.subst.items():
                self.subst.setdefault(dtype, name)
        self._element_templates(args)
        for dtype, alias in getattr(self, "aliases", {}).items():
            if dtype not in self.subst:
                self.subst[dtype] = self.program.type_alias(TypeAlias(alias, dtype))
        params = []
        defaults = self._defaults(args)
        values = [a.arg for a in args if a.arg not in self.type_params]
        for i, name in enumerate(values):  # C++ defaults only trailing parameters
            if name in defaults and any(n not in defaults for n in values[i + 1 :]):
                del defaults[name]
        for arg in args:
            if arg.arg in self.type_params:
                continue
            ctype, seen = self._param_type(arg)
            if self._vf_loop_count(arg.arg, ctype, seen):
                ctype = scalar(uint16_t)
            self.locals[arg.arg] = Local(arg.arg, ctype, seen)
            text = f"{self._spell(ctype, seen)}{self._by_reference(ctype)} {arg.arg}"
            if arg.arg in defaults:
                text += f" = {defaults[arg.arg]}"
            params.append(text)
        return params

    def _element_templates(self, args: list[ast.arg]) -> None:
        """Pointer parameters whose element type changed between calls: ``template <typename T>``.

        ``d_odata`` held ``__gm__ Align4*`` in one launch and ``__gm__ Align8*`` in another: the
        C++ is a function template over the element type, deduced from the pointers. Parameters
        that held the same element types share one template parameter.
        """
        self.generic: dict[str, CType] = {}
        groups: dict[frozenset[Any], list[tuple[str, CType]]] = {}
        for arg in args:
            seen = self.merged.params.get(arg.arg)
            kinds = {t for t in seen.types if t.kind != "none"} if seen else set()
            if (
                len(kinds) > 1
                and all(t.kind == "ptr" for t in kinds)
                and len({t.space for t in kinds}) == 1
            ):
                first = min(kinds, key=lambda t: str(t.dtype))
                groups.setdefault(frozenset(t.dtype for t in kinds), []).append((arg.arg, first))
        for dtypes, params in groups.items():
            taken = set(self.template_params) | set(self.subst.values())
            name = next(n for n in ("T", *(f"T{i}" for i in range(1, 99))) if n not in taken)
            self.template_params.append(name)
            for dtype in dtypes:
                self.subst[dtype] = name
            for param, ctype in params:
                self.generic[param] = ctype

    def _vf_loop_count(self, name: str, ctype: CType, seen: Seen) -> bool:
        """Whether a Python int parameter of a SIMD VF is its loop count: a ``uint16_t``.

        A VF loop runs a 16-bit count of iterations (kernels declare ``uint16_t repeatTimes``);
        the parameter must bound a ``range`` loop and the run's values must fit 16 bits.
        """
        if ctype.kind != "int" or "__simd_vf__" not in self.qualifiers:
            return False
        if seen.low is None or seen.low < 0 or seen.high is None or seen.high >= 2**16:
            return False
        return any(
            isinstance(node, ast.For)
            and isinstance(node.iter, ast.Call)
            and isinstance(node.iter.func, ast.Name)
            and node.iter.func.id == "range"
            and isinstance(node.iter.args[-1 if len(node.iter.args) == 1 else 1], ast.Name)
            and node.iter.args[-1 if len(node.iter.args) == 1 else 1].id == name  # type: ignore[attr-defined]
            for node in ast.walk(self.fdef)
        )

    def _by_reference(self, ctype: CType) -> str:
        """Return ``&`` for a register or mask parameter of a callee, else nothing.

        C++ passes them by value, Python by reference (a helper that writes its ``dst`` writes
        the caller's register).
        """
        roots = {"__global__", "__simd_vf__", "__simt_vf__"}
        if ctype.kind in ("reg", "mask") and not roots & set(self.qualifiers):
            return "&"
        return ""

    def _defaults(self, args: list[ast.arg]) -> dict[str, str]:
        values = self.fdef.args.defaults
        positional = self.fdef.args.args
        out = {}
        for arg, value in zip(positional[len(positional) - len(values) :], values, strict=True):
            out[arg.arg] = self._expr(value)[0]
        return out

    def _substitution(self) -> None:
        """Which dtype each template parameter stood for (the run's one binding of them)."""
        names = set(self.template_params)
        bound: dict[str, set[type[Scalar]]] = {n: set() for n in names}
        for binding in self.records:
            for name, value in binding:
                if name in names:
                    bound[name].add(value)
        self.instances = max((len(v) for v in bound.values()), default=0)
        for name in self.template_params:
            values = bound[name]
            if len(values) == 1:
                self.subst.setdefault(values.pop(), name)

    def _param_type(self, arg: ast.arg) -> tuple[CType, Seen]:
        seen = self.merged.params.get(arg.arg)
        if arg.arg in self.generic:
            return self.generic[arg.arg], seen or Seen()
        if seen is None or not seen.types or all(t.kind == "none" for t in seen.types):
            found = self._annotation_type(arg)
            if found is None:
                raise self.where.error(
                    arg,
                    f"the run never called {self.qualname}, so the C++ type of parameter "
                    f"`{arg.arg}` is unknown: give ascreg.emit a run that calls it",
                )
            return found, Seen()
        ctype = _one_type(seen, f"parameter `{arg.arg}`", arg, self.where)
        return ctype, seen

    def _annotation_type(self, arg: ast.arg) -> CType | None:
        """Return the C++ type an annotation names (``UbPtr[half]``, ``GmPtr[T]``), or None."""
        note = arg.annotation
        if isinstance(note, ast.Constant) and isinstance(note.value, str):
            note = ast.parse(note.value, mode="eval").body
        if isinstance(note, ast.BinOp) and isinstance(note.op, ast.BitOr):  # X | None
            parts = [
                n
                for n in (note.left, note.right)
                if not (isinstance(n, ast.Constant) and n.value is None)
            ]
            note = parts[0] if len(parts) == 1 else note
        if isinstance(note, ast.Subscript) and isinstance(note.value, ast.Name):
            space = {"UbPtr": "__ubuf__", "GmPtr": "__gm__"}.get(note.value.id)
            element = self._type_arg(note.slice)
            if space and element is not None:
                return CType("ptr", dtype=element, space=space)
        return None

    def _type_arg(self, node: ast.expr) -> type[Scalar] | None:
        if isinstance(node, ast.Name):
            value = self.globals.get(node.id)
            if isinstance(value, type) and issubclass(value, Scalar):
                return value
        return None

    def _spell(self, ctype: CType, seen: Seen | None) -> str:
        resolved = resolve_int(ctype, seen)
        inner = ctype.inner if ctype.kind == "ref" and ctype.inner is not None else ctype
        if inner.kind == "class" and inner.pyclass is not None:
            self.program.user_class(inner.pyclass)  # a class named only as a type: declare it
        # a Python int is a count, not an element: uint32_t even where the module names a
        # dtype alias of it (T32 = uint32_t)
        return resolved.spell({} if inner.kind == "int" else self.subst, self.reg_ns)

    def _return_type(self) -> str:
        seen = self.merged.returns
        kinds = {t for t in seen.types if t.kind != "none"}
        if not kinds:
            returns = [n for n in ast.walk(self.fdef) if isinstance(n, ast.Return) and n.value]
            if returns and not self.records:
                raise self.where.error(returns[0], "the run never returned here: type unknown")
            return "void"
        ctype = _one_type(Seen(kinds, seen.low, seen.high), "the result", self.fdef, self.where)
        return self._spell(ctype, seen)

    # -- locals ----------------------------------------------------------------------------------

    def _find_aliases(self) -> None:
        """``r = Ref(p)`` with *p* a parameter used nowhere else: C++ passes *p* itself."""
        self.owner_types: set[str] = set()
        owner = self.owner
        for stmt in self.fdef.body if isinstance(owner, ClassEmitter) else ():
            # `SrcT = self.SrcT` of a class template's parameter: the parameter itself
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and _is_self_attribute(stmt.value)
                and stmt.value.attr == stmt.targets[0].id  # type: ignore[attr-defined]
                and stmt.targets[0].id in owner.params
                and sum(s.binds for s in self.scopes.sites.get(stmt.targets[0].id, [])) == 1
            ):
                name = stmt.targets[0].id
                self.aliased_statements.add(id(stmt))
                if name in owner.type_params:
                    self.owner_types.add(name)
                else:
                    value = owner.values[name]
                    self.locals[name] = Local(name, value.ctype, value.seen, alias=name)
        for stmt in self.fdef.body:
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
                and self._is_ref_call(stmt.value)
                and len(stmt.value.args) == 1
                and isinstance(stmt.value.args[0], ast.Name)
            ):
                continue
            target, param = stmt.targets[0].id, stmt.value.args[0].id
            if param not in self.locals or target in self.locals:
                continue
            uses = self.scopes.sites.get(param, [])
            binds = [s for s in self.scopes.sites.get(target, []) if s.binds]
            if len(uses) == 1 and len(binds) == 1:
                seen = self.merged.locals.get(target, Seen())
                inner = _one_type(seen, f"`{target}`", stmt, self.where)
                if inner.kind == "ref" and inner.inner is not None:
                    param_local = self.locals[param]
                    param_local.ctype = inner.inner
                    param_local.seen = seen
                self.locals[target] = Local(target, inner, seen, alias=param)
                self.aliased_statements.add(id(stmt))

    def _template_class(self, func: ast.expr) -> ClassEmitter | None:
        """Return the emitter of the class template *func* names (None: not one)."""
        resolved = self._resolve(func)
        if isinstance(resolved, UserClass):
            return self.program.class_template(resolved.cls)
        return None

    def _is_ref_call(self, call: ast.Call) -> bool:
        resolved = self._resolve(call.func)
        return (
            isinstance(resolved, Api)
            and type(resolved.value).__name__ == "type"
            and (getattr(resolved.value, "__name__", "") == "Ref")
        )

    def _locals(self) -> None:
        """Give every local its C++ type from the run."""
        for name, sites in self.scopes.sites.items():
            if name in self.locals or name in self.owner_types or not any(s.binds for s in sites):
                continue
            seen = self.merged.locals.get(name)
            node = next(s.node for s in sites if s.binds)
            if seen is None or not seen.types:
                if self.records:
                    continue  # bound on a path the run never took: typed if a statement needs it
                raise self.where.error(
                    node,
                    f"the run never called {self.qualname}, so the C++ type of `{name}` is "
                    "unknown: give ascreg.emit a run that calls it",
                )
            ctype = _one_type(seen, f"`{name}`", node, self.where)
            self.locals[name] = Local(name, ctype, seen)

    # -- resolution ------------------------------------------------------------------------------

    def _resolve(self, node: ast.expr) -> Resolved | Local | None:
        """Return what a name or attribute chain stands for."""
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return self.locals[node.id]
            if node.id in self.template_params:
                return TypeName(node.id)
            if node.id in getattr(self, "owner_types", ()):
                assert isinstance(self.owner, ClassEmitter)
                return TypeName(node.id, self.owner.rep[node.id])
            return resolve_global(node.id, self.globals, self.filename)
        if isinstance(node, ast.Attribute):
            owner = self.owner
            if (
                self._is_self(node.value)
                and isinstance(owner, ClassEmitter)
                and node.attr in owner.type_params
            ):
                # a type parameter of the class template (a cast T(x) casts to it)
                return TypeName(node.attr, owner.rep[node.attr])
            base = self._resolve(node.value)
            if isinstance(base, ModuleAlias):
                module_value = self._value_of(node)
                if isinstance(module_value, type) and issubclass(module_value, Scalar):
                    return TypeName(module_value.cpp_name, module_value)
                return Api(module_value, base.namespace + node.attr)
            if (
                isinstance(base, Api)
                and isinstance(base.value, type)
                and issubclass(base.value, enum.Enum)
            ):
                return Api(getattr(base.value, node.attr), f"{base.spelling}::{node.attr}")
            if isinstance(base, Api) and isinstance(base.value, type):
                member = getattr(base.value, node.attr, None)
                if member is not None and not callable(member):
                    return Api(member, f"{base.spelling}::{node.attr}")
        return None

    def _value_of(self, node: ast.expr) -> Any:
        """Return the Python value of a global name or attribute chain (for module paths)."""
        if isinstance(node, ast.Name):
            return self.globals.get(node.id)
        if isinstance(node, ast.Attribute):
            return getattr(self._value_of(node.value), node.attr, None)
        return None

    # -- body ----------------------------------------------------------------------------------------

    def _body(self) -> list[str]:
        body = self.fdef.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        self._hoisted = self._hoist_plan()
        return self._block(body, 1, self.fdef.body)

    def _hoist_plan(self) -> dict[tuple[tuple[int, int], ...], list[str]]:
        """Return declarations that must go before a statement (names bound in a nested block)."""
        plan: dict[tuple[tuple[int, int], ...], list[str]] = {}
        self._direct: set[str] = set()
        self._per_block: set[str] = set()
        for name, local in self.locals.items():
            if local.alias is not None or name in self._param_names():
                continue
            if name not in self.scopes.sites:
                continue
            loops = self.scopes.loop_scoped(name)
            if loops is not None:
                others = [s for s in self.scopes.sites[name] if not self._inside(s, loops)]
                if others:
                    raise self.where.error(
                        others[0].node,
                        f"`{name}` is a loop variable used outside its loop (C++ scopes the "
                        "variable of a for loop to the loop)",
                    )
                continue
            pyclass = local.ctype.pyclass if local.ctype.kind == "class" else None
            if pyclass is not None and self.program.class_template(pyclass) is not None:
                self._declare_per_block(name)
                continue
            at, direct = self.scopes.declaration(name)
            if direct:
                self._direct.add(name)
            else:
                plan.setdefault(at, []).append(name)
        return plan

    def _declare_per_block(self, name: str) -> None:
        """Declare an instance of a class template where it is constructed, in each block.

        The instantiation is its type (``Kernel<half, int32_t, n>``): a port that picks it at
        run time (``if c: k = Kernel(half, ...) else: k = Kernel(float, ...)``) declares the
        variable in each branch, and uses it there only.
        """
        sites = self.scopes.sites[name]
        binds = [s for s in sites if s.binds]
        blocks = [(*b.path[:-1], (b.path[-1][0], -1)) for b in binds]
        ok = len(set(blocks)) == len(blocks)
        for use in (s for s in sites if not s.binds):
            ok = ok and any(
                len(use.path) >= len(b.path)
                and use.path[: len(b.path) - 1] == b.path[:-1]
                and use.path[len(b.path) - 1][0] == b.path[-1][0]
                and use.path[len(b.path) - 1][1] > b.path[-1][1]
                for b in binds
            )
        if not ok:
            raise self.where.error(
                binds[0].node,
                f"`{name}` holds an instance of a class template, whose instantiation is its "
                "C++ type: construct it once in each block that uses it",
            )
        self._per_block.add(name)

    def _param_names(self) -> set[str]:
        return {a.arg for a in (*self.fdef.args.args, *self.fdef.args.kwonlyargs)}

    def _inside(self, site: Site, loops: list[ast.For]) -> bool:
        if site.loop_target is not None:
            return True
        for loop in loops:
            for sub in ast.walk(loop):
                if sub is site.node:
                    return True
        return False

    def _block(self, body: list[ast.stmt], depth: int, block: list[ast.stmt]) -> list[str]:
        out: list[str] = []
        self._path_stack = getattr(self, "_path_stack", ())
        skip: ast.stmt | None = None
        for at, stmt in enumerate(body):
            if stmt is skip:
                continue
            index = block.index(stmt)
            saved = self._path_stack
            self._path_stack = (*saved, (id(block), index))
            for name in self._hoisted.get(self._path_stack, []):
                out.append(_indent(depth) + self._declare_only(name, stmt))
            loop = body[at + 1] if at + 1 < len(body) else None
            if (
                isinstance(stmt, ast.Assign)
                and isinstance(loop, ast.While)
                and self._counted_while(stmt, loop)
            ):
                self._path_stack = (*saved, (id(block), index + 1))
                for name in self._hoisted.get(self._path_stack, []):
                    out.append(_indent(depth) + self._declare_only(name, loop))
                out += self._while_as_for(stmt, loop, depth)
                skip = loop
            else:
                lines = self._statement(stmt, depth)
                out += self._merge_declarations(out, stmt, body[at - 1] if at else None, lines)
            self._path_stack = saved
        return out

    def _merge_declarations(
        self, out: list[str], stmt: ast.stmt, previous: ast.stmt | None, lines: list[str]
    ) -> list[str]:
        """Return the lines to add after *out*, whose last line may take this declaration.

        ``a, b = RegTensor[T](), RegTensor[T]()`` declares both at once: ``RegTensor<T> a, b;``.
        """
        group = getattr(stmt, "ascreg_group", None)
        if (
            group is None
            or getattr(previous, "ascreg_group", None) != group
            or len(lines) != 1
            or not out
        ):
            return lines
        made = re.fullmatch(r"(\s*)([^=(]+?) (\w+);", lines[0])
        before = re.fullmatch(r"(\s*)([^=(]+?) (\w+(?:, \w+)*);", out[-1])
        if (
            made
            and before
            and made.group(1, 2) == before.group(1, 2)
            and not made[2].endswith(("*", "&"))  # `T* a, b` makes b a T
        ):
            out[-1] = f"{before[1]}{before[2]} {before[3]}, {made[3]};"
            return []
        return lines

    def _counted_while(self, init: ast.stmt, loop: ast.While) -> bool:
        """``i = a`` then ``while i < n: ...; i += s``: C++'s ``for (i = a; i < n; i += s)``.

        The same loop when no ``continue`` skips the step (C++ runs a for loop's step on
        ``continue``, Python's while loop does not).
        """
        if not (
            isinstance(init, ast.Assign)
            and len(init.targets) == 1
            and isinstance(init.targets[0], ast.Name)
            and not loop.orelse
            and loop.body
            and isinstance(loop.body[-1], ast.AugAssign)
            and isinstance(loop.body[-1].target, ast.Name)
        ):
            return False
        name = init.targets[0].id
        if loop.body[-1].target.id != name:
            return False
        if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(loop.test)):
            return False
        return not _continues(loop.body)

    def _while_as_for(self, init: ast.Assign, loop: ast.While, depth: int) -> list[str]:
        pad = _indent(depth)
        first = self._assign(init)
        step = loop.body[-1]
        assert isinstance(step, ast.AugAssign) and len(first) == 1
        head = (
            f"{first[0].rstrip(';')}; {self._condition(loop.test)}; {self._aug_assign(step)[:-1]}"
        )
        body = self._block(loop.body[:-1], depth + 1, loop.body)
        return [f"{pad}for ({head}) {{", *body, pad + "}"]

    def _declare_only(self, name: str, node: ast.AST) -> str:
        local = self.locals[name]
        self.declared.add(name)
        return _pointer_space(f"{self._spell(local.ctype, local.seen)} {name};")

    def _statement(self, stmt: ast.stmt, depth: int) -> list[str]:
        pad = _indent(depth)
        if id(stmt) in self.aliased_statements:
            return []
        if isinstance(stmt, ast.Assign):
            return [pad + line for line in self._assign(stmt)]
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return []  # `x: T` binds nothing: x is declared where C++ scoping needs it
            fake = ast.Assign(targets=[stmt.target], value=stmt.value)
            ast.copy_location(fake, stmt)
            return [pad + line for line in self._assign(fake)]
        if isinstance(stmt, ast.AugAssign):
            return [pad + self._aug_assign(stmt)]
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                return []  # a string statement is a comment
            if not isinstance(stmt.value, ast.Call):
                raise self.where.error(stmt, "an expression statement that is not a call")
            return [pad + self._expr(stmt.value)[0] + ";"]
        if isinstance(stmt, ast.For):
            return self._for(stmt, depth)
        if isinstance(stmt, ast.If):
            return self._if(stmt, depth)
        if isinstance(stmt, ast.While):
            if stmt.orelse:
                raise self.where.error(
                    stmt.orelse[0], "the else branch of a while loop has no C++ counterpart"
                )
            test = self._condition(stmt.test)
            return [f"{pad}while ({test}) {{", *self._nested(stmt.body, depth), pad + "}"]
        if isinstance(stmt, ast.Return):
            if stmt.value is None:
                return [pad + "return;"]
            return [pad + f"return {self._expr(stmt.value)[0]};"]
        if isinstance(stmt, ast.Break):
            return [pad + "break;"]
        if isinstance(stmt, ast.Continue):
            return [pad + "continue;"]
        if isinstance(stmt, ast.Pass):
            return []
        if isinstance(stmt, ast.With):
            return self._with(stmt, depth)
        if isinstance(stmt, ast.Assert) and _only_not_none(stmt.test):
            return []  # narrows an Optional for the type checker: a C++ pointer has no None
        if isinstance(stmt, ast.Assert):  # Ascend C's kernel assert(expr[, fmt])
            message = ""
            if isinstance(stmt.msg, ast.Constant) and isinstance(stmt.msg.value, str):
                message = ", " + json.dumps(stmt.msg.value)
            elif stmt.msg is not None:
                raise self.where.error(stmt, "an assert message must be a string literal")
            return [f"{pad}assert({self._expr(stmt.test)[0]}{message});"]
        raise self.where.error(
            stmt, f"a {type(stmt).__name__} statement has no Ascend C counterpart"
        )

    def _nested(self, body: list[ast.stmt], depth: int) -> list[str]:
        return self._block(body, depth + 1, body)

    def _with(self, stmt: ast.With, depth: int) -> list[str]:
        if len(stmt.items) == 1:
            manager = stmt.items[0].context_expr
            call = manager.func if isinstance(manager, ast.Call) else manager
            resolved = self._resolve(call)
            if isinstance(resolved, Api) and resolved.spelling.endswith("__VEC_SCOPE__"):
                pad = _indent(depth)
                return [f"{pad}__VEC_SCOPE__ {{", *self._nested(stmt.body, depth), pad + "}"]
        raise self.where.error(stmt, "a with statement has no Ascend C counterpart")

    def _if(self, stmt: ast.If, depth: int, prefix: str = "") -> list[str]:
        pad = _indent(depth)
        # a test of compile-time values only (the module's constants): C++17's if constexpr
        keyword = "if constexpr" if self._constant_condition(stmt.test) else "if"
        lines = [f"{pad if not prefix else ''}{prefix}{keyword} ({self._condition(stmt.test)}) {{"]
        lines += self._nested(stmt.body, depth)
        orelse = stmt.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            tail = self._if(orelse[0], depth, prefix="} else ")
            return [*lines, pad + tail[0], *tail[1:]]
        if orelse:
            lines += [pad + "} else {", *self._nested(orelse, depth)]
        return [*lines, pad + "}"]

    def _condition(self, test: ast.expr) -> str:
        if isinstance(test, ast.Constant) and test.value is True:
            return "true"
        return self._expr(test)[0]

    def _for(self, stmt: ast.For, depth: int) -> list[str]:
        pad = _indent(depth)
        if stmt.orelse:
            raise self.where.error(
                stmt.orelse[0], "the else branch of a for loop has no C++ counterpart"
            )
        hardware = self._is_hw_range(stmt.iter)
        if not (
            isinstance(stmt.iter, ast.Call)
            and isinstance(stmt.iter.func, ast.Name)
            and (hardware or (stmt.iter.func.id == "range" and "range" not in self.globals))
            and not stmt.iter.keywords
            and 1 <= len(stmt.iter.args) <= 3
        ):
            raise self.where.error(stmt, "only `for i in range(...)` loops have a C++ form here")
        if not isinstance(stmt.target, ast.Name):
            raise self.where.error(stmt, "the loop variable must be one name")
        args = stmt.iter.args
        start, stop = (args[0], args[1]) if len(args) >= 2 else (ast.Constant(0), args[0])
        step = args[2] if len(args) == 3 else None
        name = stmt.target.id
        counter = "uint16_t" if hardware else self._counter_type(name, stop)
        stop_text = self._operand(stop, REL)
        begin = self._expr(start)[0]
        if step is None:
            step_text = f"++{name}" if self._c_api_style() else f"{name}++"
            header = f"for ({counter} {name} = {begin}; {name} < {stop_text}; {step_text})"
        else:
            amount = self._literal_int(step)
            if amount is None and self._nonnegative(step):
                text = self._expr(step)[0]
                header = f"for ({counter} {name} = {begin}; {name} < {stop_text}; {name} += {text})"
                return [f"{pad}{header} {{", *self._nested(stmt.body, depth), pad + "}"]
            if amount is None:
                raise self.where.error(
                    stmt,
                    "the run does not show the range step positive (its sign decides the test)",
                )
            if amount > 0:
                header = (
                    f"for ({counter} {name} = {begin}; {name} < {stop_text}; {name} += {amount})"
                )
            else:
                header = (
                    f"for ({counter} {name} = {begin}; {name} > {stop_text}; {name} -= {-amount})"
                )
        return [f"{pad}{header} {{", *self._nested(stmt.body, depth), pad + "}"]

    def _c_api_style(self) -> bool:
        """Whether a counted loop steps by ``++i``: in SIMD code of the C API, as it writes them.

        The C API examples step their loops with ``++i`` (the Reg and SIMT ones mostly ``i++``).
        """
        if self.context == "simt":
            return False
        found = getattr(self, "_c_api", None)
        if found is None:
            found = self._c_api = any(
                isinstance(node, ast.Name)
                and node.id.startswith(("asc_", "vector_"))
                and isinstance(self._resolve(node), Api)
                for node in ast.walk(self.fdef)
            )
        return found

    def _is_hw_range(self, node: ast.expr) -> bool:
        """``hw_range(n)``: the C API's hardware loop, ``for (uint16_t i = 0; i < n; ++i)``."""
        if not isinstance(node, ast.Call):
            return False
        resolved = self._resolve(node.func)
        return isinstance(resolved, Api) and resolved.spelling == "hw_range"

    def _counter_type(self, name: str, stop: ast.expr) -> str:
        """Return the loop counter's type: the bound's, or what the run's values of the counter fit."""
        bound = self._etype(stop)
        scalar_bound = bound is not None and bound.kind == "scalar" and bound.is_integer
        if scalar_bound and bound is not None and not isinstance(stop, ast.Constant):
            own = {d: n for d, n in self.subst.items() if n in self.template_params}
            return bound.spell(own)  # a count: uint32_t, not a dtype alias of it (T32)
        local = self.locals.get(name)
        seen = local.seen if local else Seen()
        ctype = local.ctype if local else PY_INT
        if ctype.kind == "int" or not ctype.is_integer:
            return int_type(seen.low or 0, seen.high or 0)
        return ctype.spell(self.subst)

    def _literal_int(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self._literal_int(node.operand)
            return None if inner is None else -inner
        return None

    # -- assignment ------------------------------------------------------------------------------

    def _assign(self, stmt: ast.Assign) -> list[str]:
        if len(stmt.targets) != 1:
            raise self.where.error(stmt, "a chained assignment (a = b = c) has no single C++ form")
        target = stmt.targets[0]
        if isinstance(target, ast.Tuple):
            return self._tuple_assign(target, stmt.value, stmt)
        if isinstance(target, ast.Name):
            return [self._bind(target.id, stmt.value, stmt)]
        if isinstance(target, ast.Attribute) and self._is_self(target.value):
            if self._constructs(stmt.value, self._member_type(target.attr)):
                return []  # the member is constructed with its object
            if isinstance(self.owner, ClassEmitter) and target.attr in self.owner.static:
                return []  # a static constexpr member: its value is in the class
            if isinstance(self.owner, ClassEmitter) and target.attr in self.owner.params:
                return []  # a template argument of the class
            return [f"{self._member(target.attr)} = {self._expr(stmt.value)[0]};"]
        if isinstance(target, ast.Attribute) and target.attr == "value":
            base = self._resolve(target.value)
            if isinstance(base, Local) and base.ctype.kind == "ref":
                return [f"{base.alias or base.name} = {self._expr(stmt.value)[0]};"]
        if isinstance(target, ast.Subscript | ast.Attribute):
            return [f"{self._expr(target)[0]} = {self._expr(stmt.value)[0]};"]
        raise self.where.error(stmt, f"cannot assign to {_unparse(target)} in C++")

    def _tuple_assign(self, target: ast.Tuple, value: ast.expr, stmt: ast.stmt) -> list[str]:
        if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts):
            raise self.where.error(stmt, "unpacking a value that is not a tuple of the same length")
        names = {t.id for t in target.elts if isinstance(t, ast.Name)}
        used = {n.id for e in value.elts for n in ast.walk(e) if isinstance(n, ast.Name)}
        if names & used:
            raise self.where.error(stmt, "a swap-style assignment reads what it assigns")
        out = []
        for one, expr in zip(target.elts, value.elts, strict=True):
            fake = ast.Assign(targets=[one], value=expr)
            ast.copy_location(fake, stmt)
            out += self._assign(fake)
        return out

    def _bind(self, name: str, value: ast.expr, stmt: ast.stmt) -> str:
        local = self.locals.get(name)
        if local is None:
            raise self.where.error(
                stmt, f"the run never executed this binding of `{name}`: its type is unknown"
            )
        if local.alias is not None:
            return f"{local.alias} = {self._expr(value)[0]};"
        declaring = (name in self._direct and name not in self.declared) or name in self._per_block
        if name in self._per_block and not (
            isinstance(value, ast.Call) and self._template_class(value.func) is not None
        ):
            raise self.where.error(
                stmt,
                f"`{name}` holds an instance of a class template, whose instantiation is its "
                "C++ type: construct it in the statement that declares it",
            )
        spelled = self._spell(local.ctype, local.seen)
        if not declaring:
            if self._constructs(value, local.ctype) and not self._has_args(value):
                raise self.where.error(
                    stmt, f"`{name}` is made again here: C++ constructs a variable once"
                )
            return f"{name} = {self._rhs(value, local)};"
        self.declared.add(name)
        array = self._ubuf_array(value, name)
        if array is not None:
            return array
        if local.ctype.kind == "ref":
            inner = local.ctype.inner
            assert inner is not None
            spelled = self._spell(inner, local.seen)
            if not (isinstance(value, ast.Call) and self._is_ref_call(value) and value.args):
                raise self.where.error(stmt, "a reference must be made by Ref(value)")
            return _pointer_space(f"{spelled} {name} = {self._expr(value.args[0])[0]};")
        view = self._register_cast(value) if isinstance(value, ast.Call) else None
        if view is not None:  # a view of another register: a reference to it in C++
            return f"{spelled}{'&' if view[1] else ''} {name} = {view[0]};"
        if _is_mode(local.ctype) and isinstance(value, ast.Call):
            fields = self._mode_fields(value, local.ctype)
            return f"static constexpr {spelled} {name} = {{{fields}}};"
        if self._constructs(value, local.ctype):
            assert isinstance(value, ast.Call)
            if isinstance(value.func, ast.Subscript):  # the type as written: Class<args>
                spelled = self._expr(value.func.value)[0] + self._template_args(value.func)
            made = self._template_class(value.func)
            if made is not None:  # Kernel(half, int32_t, n): Kernel<half, int32_t, n> k;
                template = [self._template_arg(value.args[i]) for i in sorted(made.positions)]
                rest = [a for i, a in enumerate(value.args) if i not in made.positions]
                spelled = f"{spelled}<{', '.join(template)}>"
                value = ast.Call(func=value.func, args=rest, keywords=value.keywords)
            if value.keywords:
                value = self._positional(value)
            if value.args:
                args = ", ".join(self._expr(a)[0] for a in value.args)
                return f"{spelled} {name}({args});"
            return f"{spelled} {name};"
        if name in self.constants_used:
            self._check_compile_time(value)  # read as a template argument: a constant
        if name in self.constants_used or self._compile_time(name, value, local):
            self.constexprs.add(name)
            spelled = (
                "static constexpr " if local.ctype.kind == "class" else "constexpr "
            ) + spelled
        cast = self._cast_target(value)
        if cast is not None and cast == local.ctype and isinstance(value, ast.Call):
            return _pointer_space(f"{spelled} {name} = {self._expr(value.args[0])[0]};")
        return _pointer_space(f"{spelled} {name} = {self._rhs(value, local)};")

    def _compile_time(self, name: str, value: ast.expr, local: Local) -> bool:
        """Whether a local bound once to a constant expression is ``constexpr``, as C++ writes it.

        The expression reads the module's constants, ``T.size`` or the vector length
        (``GetVecLen() / sizeof(T)``), and maybe numbers; the local must be a scalar bound nowhere
        else. A bare number stays a variable (``uint32_t dst_stride = 0;``), as kernels write it.
        """
        if local.ctype.kind not in ("int", "scalar", "float"):
            return False
        if all(isinstance(n, ast.Constant | ast.operator | ast.unaryop) for n in ast.walk(value)):
            return False
        if sum(site.binds for site in self.scopes.sites.get(name, [])) != 1:
            return False
        return self._constant_expression(value)

    def _constant_condition(self, test: ast.expr) -> bool:
        """Whether *test* compares compile-time values only (``scenarioNum == 1``)."""
        if isinstance(test, ast.BoolOp):
            return all(self._constant_condition(v) for v in test.values)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._constant_condition(test.operand)
        if isinstance(test, ast.Compare):
            operands = [test.left, *test.comparators]
            return all(self._constant_expression(o) for o in operands) and not all(
                isinstance(o, ast.Constant) for o in operands
            )
        return False

    def _constant_expression(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int | float) and not isinstance(node.value, bool)
        if isinstance(node, ast.BinOp):
            return self._constant_expression(node.left) and self._constant_expression(node.right)
        if isinstance(node, ast.UnaryOp):
            return self._constant_expression(node.operand)
        if isinstance(node, ast.Attribute) and node.attr == "size":
            return isinstance(self._resolve(node.value), TypeName | TypeAlias)
        if isinstance(node, ast.Name):
            return (
                isinstance(self._resolve(node), Constant)
                or node.id in CONSTANT_BOUNDS
                or node.id in self.constexprs
            )
        if isinstance(node, ast.Attribute) and self._is_self(node.value):
            return isinstance(self.owner, ClassEmitter) and node.attr in self.owner.constants
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            resolved = self._resolve(node.func)
            return isinstance(resolved, Api) and resolved.spelling.endswith(CONSTEXPR_CALLS)
        return False

    def _mode_fields(self, call: ast.Call, ctype: CType) -> str:
        """Return the braced fields of a mode struct made by ``Reg.CastTrait(...)`` (keywords in order)."""
        cls = self._value_of(call.func)
        names = [f.name for f in attrs.fields(cls)] if attrs.has(cls) else []
        values = [self._expr(a)[0] for a in call.args]
        keywords = {k.arg: self._expr(k.value)[0] for k in call.keywords}
        for field in names[len(values) :]:
            if field in keywords:
                values.append(keywords.pop(field))
            elif keywords:
                raise self.where.error(
                    call, f"{ctype.name}: give the fields in order, up to {field}"
                )
        return ", ".join(values)

    def _rhs(self, value: ast.expr, local: Local) -> str:
        if (
            local.ctype.kind == "ptr"
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "GetPhyAddr"
            and not value.args
        ):
            owner = self._object_type(value.func.value)
            if owner is not None and owner.name == "AscendC::LocalTensor":
                # LocalTensor<T>::GetPhyAddr() gives the address as a uint64_t in some builds:
                # kernels cast it to the pointer they bind
                return f"reinterpret_cast<{self._spell(local.ctype, local.seen)}>({self._expr(value)[0]})"
        return self._expr(value)[0]

    def _has_args(self, value: ast.expr) -> bool:
        return isinstance(value, ast.Call) and bool(value.args)

    def _ubuf_array(self, value: ast.expr, name: str) -> str | None:
        """``__ubuf__(T, n)`` is ``__ubuf__ T name[n];``, ``__ubuf__.extern(T)`` ``extern``."""
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "extern":
            base = self._resolve(func.value)
            if isinstance(base, Api) and base.spelling == "__ubuf__":
                return f"extern __ubuf__ {self._type_text(value.args[0])} {name}[];"
        resolved = self._resolve(func)
        if isinstance(resolved, Api) and resolved.spelling == "__ubuf__":
            if len(value.args) != 2:
                raise self.where.error(value, "write __ubuf__(T, count)")
            return (
                f"__ubuf__ {self._type_text(value.args[0])} {name}[{self._expr(value.args[1])[0]}];"
            )
        return None

    def _type_text(self, node: ast.expr) -> str:
        resolved = self._resolve(node)
        if isinstance(resolved, TypeName):
            return resolved.spelling
        if isinstance(resolved, TypeAlias):
            return self.program.type_alias(resolved)
        raise self.where.error(node, f"{_unparse(node)} is not a scalar type")

    def _cast_target(self, value: ast.expr) -> CType | None:
        """Return the scalar type of ``T(x)`` or ``np.float32(x)`` (a C cast), or None."""
        if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
            return None
        resolved = self._resolve(value.func)
        dtype = getattr(resolved, "dtype", None)
        if isinstance(resolved, TypeName | TypeAlias) and dtype is not None:
            return scalar(dtype)
        numpy_type = self._numpy_scalar_type(value.func)
        if numpy_type is not None:
            return scalar(numpy_type)
        return None

    def _numpy_scalar_type(self, node: ast.expr) -> type[Scalar] | None:
        """Return the C type of a numpy scalar type named by *node* (``np.float32``), or None."""
        import numpy as np

        from ascreg.emit._ctype import scalar_of_numpy

        value = self._value_of(node)
        if isinstance(value, type) and issubclass(value, np.generic) and value is not np.generic:
            try:
                return scalar_of_numpy(np.dtype(value))
            except TypeError:
                return None
        return None

    def _constructs(self, value: ast.expr, ctype: CType | None) -> bool:
        """Whether *value* constructs an object of *ctype* (``Reg.RegTensor[T]()``, ``Kernel()``)."""
        if ctype is None or not isinstance(value, ast.Call):
            return False
        func = value.func
        while isinstance(func, ast.Subscript):
            func = func.value
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if ctype.kind == "reg":
            return last == "RegTensor" or last == ctype.name
        if ctype.kind == "mask":
            return last in ("MaskReg", "vector_bool")
        if ctype.kind == "class":
            own = ctype.name.rsplit("::", 1)[-1]
            return last == own or (own == "TQue" and last == "TQue")
        return False

    def _member_type(self, attr: str) -> CType | None:
        local = self.owner_members().get(attr)
        return local.ctype if local else None

    def owner_members(self) -> dict[str, Local]:
        """Return the members of the class this method belongs to."""
        return self.owner.members if isinstance(self.owner, ClassEmitter) else {}

    def _member(self, attr: str) -> str:
        owner = self.owner
        if isinstance(owner, ClassEmitter) and attr in owner.params:
            return attr  # a template parameter of the class
        if isinstance(owner, ClassEmitter) and (attr in owner.static or attr in owner.constants):
            # a compile-time member (a class template's value parameter in C++)
            return f"{self.owner.cls.__name__}::{attr}" if attr in self.locals else attr
        if attr in self.locals:
            return f"this->{attr}"
        return attr

    def _is_self(self, node: ast.expr) -> bool:
        return self.owner is not None and isinstance(node, ast.Name) and node.id == "self"

    def _aug_assign(self, stmt: ast.AugAssign) -> str:
        op = AUGMENTED.get(type(stmt.op))
        value = self._expr(stmt.value)[0]
        if op is None:
            if isinstance(stmt.op, ast.FloorDiv | ast.Mod | ast.Div):
                fake = ast.BinOp(left=stmt.target, op=stmt.op, right=stmt.value)
                ast.copy_location(fake, stmt)
                text = self._binop(fake)[0]
                return f"{self._target(stmt.target)} = {text};"
            raise self.where.error(stmt, f"{type(stmt.op).__name__} has no C++ operator")
        return f"{self._target(stmt.target)} {op} {value};"

    def _target(self, node: ast.expr) -> str:
        if isinstance(node, ast.Attribute) and node.attr == "value":
            base = self._resolve(node.value)
            if isinstance(base, Local) and base.ctype.kind == "ref":
                return base.alias or base.name
        return self._expr(node)[0]

    # -- expressions -----------------------------------------------------------------------------

    def _operand(self, node: ast.expr, level: int, right: bool = False) -> str:
        text, prec = self._expr(node)
        if prec < level or (right and prec == level):
            return f"({text})"
        if prec < PRIMARY and self._parenthesised(node):
            return f"({text})"  # parentheses the source writes, as the C++ it was ported from
        return text

    def _parenthesised(self, node: ast.expr) -> bool:
        """Whether the source wraps *node* in grouping parentheses (not a call's)."""
        lines = self.where.lines
        end_line = getattr(node, "end_lineno", None)
        if end_line is None or not 0 < node.lineno <= len(lines) or end_line > len(lines):
            return False
        before = lines[node.lineno - 1][: node.col_offset].rstrip()
        after = lines[end_line - 1][node.end_col_offset :].lstrip()
        if not (before.endswith("(") and after.startswith(")")):
            return False
        outside = before[:-1].rstrip()
        return not outside or not (outside[-1].isalnum() or outside[-1] in "_)]")

    def _expr(self, node: ast.expr) -> tuple[str, int]:
        if isinstance(node, ast.Constant):
            return self._constant(node), PRIMARY
        if isinstance(node, ast.Name):
            return self._name(node), PRIMARY
        if isinstance(node, ast.Attribute):
            return self._attribute(node), PRIMARY
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.UnaryOp):
            ceiling = self._ceil_division(node)
            if ceiling is not None:
                return ceiling, MUL
            op = UNARY_OPS[type(node.op)]
            if isinstance(node.operand, ast.Constant) and op == "-":
                return "-" + self._constant(node.operand), UNARY
            return op + self._operand(node.operand, UNARY), UNARY
        if isinstance(node, ast.BoolOp):
            op, prec = ("&&", LAND) if isinstance(node.op, ast.And) else ("||", LOR)
            parts = [self._operand(v, prec, right=i > 0) for i, v in enumerate(node.values)]
            return f" {op} ".join(parts), prec
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise self.where.error(
                    node, "a chained comparison has no C++ form: write a < b and b < c"
                )
            found = COMPARE.get(type(node.ops[0]))
            if found is None:
                raise self.where.error(node, f"`{type(node.ops[0]).__name__}` has no C++ operator")
            op, prec = found
            left = self._operand(node.left, prec)
            right = self._operand(node.comparators[0], prec, right=True)
            return f"{left} {op} {right}", prec
        if isinstance(node, ast.IfExp):
            test = self._operand(node.test, LOR)
            body = self._operand(node.body, COND)
            orelse = self._operand(node.orelse, COND)
            return f"{test} ? {body} : {orelse}", COND
        if isinstance(node, ast.Call):
            cast = self._register_cast(node)
            if cast is not None:
                return cast[0], UNARY
            return self._call(node), PRIMARY
        if isinstance(node, ast.Subscript):
            return self._subscript(node), PRIMARY
        raise self.where.error(node, f"{type(node).__name__} has no Ascend C counterpart")

    def _constant(self, node: ast.Constant) -> str:
        value = node.value
        if value is True or value is False:
            return "true" if value else "false"
        if value is None:
            return "nullptr"
        if isinstance(value, int):
            text = ast.get_source_segment("\n".join(self.where.lines), node) or str(value)
            text = text.replace("_", "")
            if not re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", text):
                text = str(value)
            if value > 0x7FFFFFFF:
                text += "U" if value <= 0xFFFFFFFF else "ULL"
            return text
        if isinstance(value, float):
            text = repr(value)
            if "inf" in text or "nan" in text:
                raise self.where.error(node, "write inf and NaN with the API's constants")
            return text + "f"
        raise self.where.error(node, f"the constant {value!r} has no C++ counterpart here")

    def _name(self, node: ast.Name) -> str:
        local = self.locals.get(node.id)
        if local is not None:
            return local.alias or local.name
        if node.id in self.template_params:
            return node.id
        resolved = self._resolve(node)
        return self._spelled(resolved, node)

    def _spelled(self, resolved: Resolved | Local | None, node: ast.expr) -> str:
        if isinstance(resolved, Local):
            return resolved.alias or resolved.name
        if isinstance(resolved, Api):
            return resolved.spelling
        if isinstance(resolved, TypeName):
            return resolved.spelling
        if isinstance(resolved, TypeAlias):
            return self.program.type_alias(resolved)
        if isinstance(resolved, Constant):
            return self.program.constant(resolved, self.where, node)
        if isinstance(resolved, UserFunction):
            return self.program.function(resolved.func, self.context)
        if isinstance(resolved, UserClass):
            return self.program.user_class(resolved.cls)
        scopes = getattr(self, "scopes", None)
        if (
            isinstance(node, ast.Name)
            and scopes is not None
            and any(site.binds for site in scopes.sites.get(node.id, []))
        ):
            raise self.where.error(
                node,
                f"the run never bound `{node.id}` (a loop that ran no iteration, a branch "
                "it never took): its C++ type is unknown; give ascreg.emit a run that does",
            )
        raise self.where.error(
            node, f"`{_unparse(node)}` is not a local, a constant or an Ascend C name"
        )

    def _attribute(self, node: ast.Attribute) -> str:
        if self._is_self(node.value):
            return self._member(node.attr)
        base = self._resolve(node.value)
        if isinstance(base, Local) and node.attr == "value" and base.ctype.kind == "ref":
            return base.alias or base.name
        if node.attr == "size" and isinstance(base, TypeName | TypeAlias):
            return f"sizeof({self._spelled(base, node.value)})"
        resolved = self._resolve(node)
        if resolved is not None:
            return self._spelled(resolved, node)
        ctype = self._object_type(node.value)
        if ctype is not None and ctype.kind == "class" and ctype.pyclass is not None:
            self.program.user_class(ctype.pyclass)
            if isinstance(getattr(ctype.pyclass, node.attr, None), property):
                return f"{self._operand(node.value, PRIMARY)}.{node.attr}()"  # the getter
        return f"{self._operand(node.value, PRIMARY)}.{node.attr}"

    def _subscript(self, node: ast.Subscript) -> str:
        entry = self._table_entry(node)
        if entry is not None:
            return entry
        base = self._operand(node.value, PRIMARY)
        return f"{base}[{self._expr(node.slice)[0]}]"

    def _table_entry(self, node: ast.Subscript) -> str | None:
        """``TABLE["key"]`` of a module-level dict: the entry's value, a compile-time constant.

        A port may keep a compile-time switch in a dict (so a test can change it); the C++ has
        the value itself: the number, or the name the module binds to the same object.
        """
        if not (
            isinstance(node.value, ast.Name)
            and node.value.id not in self.locals
            and isinstance(node.slice, ast.Constant)
        ):
            return None
        table = self.globals.get(node.value.id)
        if not isinstance(table, dict) or node.slice.value not in table:
            return None
        value = table[node.slice.value]
        if isinstance(value, bool) or not (isinstance(value, CONSTANT_TYPES) or _is_number(value)):
            for name, bound in self.globals.items():
                if bound is value and not name.startswith("_"):
                    return self._expr(ast.copy_location(ast.Name(name, ast.Load()), node))[0]
            if not isinstance(value, bool):
                raise self.where.error(node, f"the entry {value!r} has no C++ spelling")
        return _render_constant(value)

    def _binop(self, node: ast.BinOp) -> tuple[str, int]:
        if isinstance(node.op, ast.FloorDiv | ast.Mod):
            return self._division(node)
        if isinstance(node.op, ast.Div):
            ltype, rtype = self._etype(node.left), self._etype(node.right)
            if not ((ltype and ltype.is_float) or (rtype and rtype.is_float)):
                raise self.where.error(
                    node,
                    "Python's / divides into a float; C's / of integers truncates: "
                    "write // for integers (or make an operand a float)",
                )
            return self._operand(node.left, MUL) + " / " + self._operand(node.right, MUL, True), MUL
        found = BINARY.get(type(node.op))
        if found is None:
            raise self.where.error(node, f"the operator {type(node.op).__name__} has no C++ form")
        op, prec = found
        left_text = self._operand(node.left, prec)
        right_text = self._operand(node.right, prec, right=True)
        return f"{left_text} {op} {right_text}", prec

    def _division(self, node: ast.BinOp) -> tuple[str, int]:
        """``//`` and ``%``: C's truncating ``/`` and ``%`` where they agree with Python's."""
        symbol = "/" if isinstance(node.op, ast.FloorDiv) else "%"
        if self._nonnegative(node.left) and self._nonnegative(node.right):
            left = self._operand(node.left, MUL)
            return f"{left} {symbol} {self._operand(node.right, MUL, True)}", MUL
        raise self.where.error(
            node,
            f"Python's {'//' if symbol == '/' else '%'} rounds toward minus infinity and C's "
            f"{symbol} toward zero: they differ for negative operands, and the run does not show "
            "both operands non-negative",
        )

    def _ceil_division(self, node: ast.UnaryOp) -> str | None:
        """Return ``-(-a // b)`` (a ceiling division) as ``(a + b - 1) / b``."""
        inner = node.operand
        if (
            isinstance(node.op, ast.USub)
            and isinstance(inner, ast.BinOp)
            and isinstance(inner.op, ast.FloorDiv)
            and isinstance(inner.left, ast.UnaryOp)
            and isinstance(inner.left.op, ast.USub)
            and self._nonnegative(inner.left.operand)
            and self._nonnegative(inner.right)
        ):
            a = self._operand(inner.left.operand, ADD)
            b = self._operand(inner.right, ADD, True)
            return f"({a} + {b} - 1) / {self._operand(inner.right, MUL, True)}"
        return None

    def _nonnegative(self, node: ast.expr) -> bool:
        """Whether *node* is never negative: unsigned, or its bounds from the run are >= 0."""
        ctype = self._etype(node)
        if ctype is not None and ctype.is_unsigned:
            return True
        low, _ = self._bounds(node)
        return low is not None and low >= 0

    def _bounds(self, node: ast.expr) -> tuple[int | None, int | None]:
        """Lower and upper bounds of an integer expression from the run's values (None: unknown)."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, int | float) and not isinstance(node.value, bool):
                return int(node.value), int(node.value)
            return None, None
        if isinstance(node, ast.Name):
            local = self.locals.get(node.id)
            if local is not None:
                return local.seen.low, local.seen.high
            if node.id in CONSTANT_BOUNDS:
                return CONSTANT_BOUNDS[node.id]
            if node.id in NONNEGATIVE_NAMES:
                return 0, None
            resolved = self._resolve(node)
            if isinstance(resolved, Constant):
                return int(resolved.value), int(resolved.value)
            return None, None
        if isinstance(node, ast.Attribute):
            if node.attr == "size":
                return 1, 8
            if self._is_self(node.value):
                seen = self._member_seen(node.attr)
                return (seen.low, seen.high) if seen else (None, None)
            root = node.value
            if isinstance(root, ast.Name) and root.id in NONNEGATIVE_NAMES:
                return 0, None
            return None, None
        if isinstance(node, ast.BinOp):
            return _combine(node.op, self._bounds(node.left), self._bounds(node.right))
        if isinstance(node, ast.Call):
            return self._call_bounds(node)
        return None, None

    def _call_bounds(self, node: ast.Call) -> tuple[int | None, int | None]:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in NONNEGATIVE_CALLS:
            return (256, 256) if name in ("asc_get_vf_len", "GetVecLen") else (0, None)
        if (name == "int" or self._cast_target(node) is not None) and node.args:
            return self._bounds(node.args[0])
        resolved = self._resolve(func)
        if isinstance(resolved, UserFunction) and self.program.recording is not None:
            target = _unwrap(resolved.func)
            returns = self.program.recording.merged(
                target.__code__.co_filename, target.__qualname__
            ).returns
            return returns.low, returns.high
        return None, None

    def _member_seen(self, attr: str) -> Seen | None:
        local = self.owner_members().get(attr)
        return local.seen if local else None

    def _etype(self, node: ast.expr) -> CType | None:
        """Return the C++ type of an expression where it can be told (None: unknown)."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return None
            if isinstance(node.value, int):
                return scalar(_BY_NAME["int32_t"])
            if isinstance(node.value, float):
                return CType("float")
            return None
        if isinstance(node, ast.Name):
            local = self.locals.get(node.id)
            if local is not None:
                ctype = local.ctype.inner if local.ctype.kind == "ref" else local.ctype
                return resolve_int(ctype, local.seen) if ctype else None
            resolved = self._resolve(node)
            if isinstance(resolved, Constant):
                return _constant_type(resolved.value)
            return None
        if isinstance(node, ast.Attribute):
            if node.attr == "size":
                return scalar(uint64_t)
            if self._is_self(node.value):
                local = self.owner_members().get(node.attr)
                return resolve_int(local.ctype, local.seen) if local else None
            return None
        if isinstance(node, ast.Call):
            cast = self._cast_target(node)
            if cast is not None:
                return cast
            return None
        if isinstance(node, ast.BinOp):
            return arithmetic(self._etype(node.left), self._etype(node.right))
        if isinstance(node, ast.UnaryOp):
            return self._etype(node.operand)
        if isinstance(node, ast.Subscript):  # p[i]: the pointer's element
            base = self._etype_of_object(node.value)
            if base is not None and base.kind == "ptr" and base.dtype is not None:
                return scalar(base.dtype)
        return None

    def _etype_of_object(self, node: ast.expr) -> CType | None:
        if isinstance(node, ast.Name) and node.id in self.locals:
            return self.locals[node.id].ctype
        if isinstance(node, ast.Attribute) and self._is_self(node.value):
            return self._member_type(node.attr)
        return None

    # -- calls -------------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> str:
        if node.keywords:
            node = self._positional(node)  # a call of the kernel's own function: put in order
        func = node.func
        template = ""
        if isinstance(func, ast.Subscript):
            template = self._template_args(func)
            func = func.value
        if isinstance(func, ast.Attribute) and func.attr == "cast" and not template:
            base = self._etype_pointer(func.value)
            if base is not None and len(node.args) == 1:
                target = f"{base} {self._type_text(node.args[0])}*"
                return f"reinterpret_cast<{target}>({self._expr(func.value)[0]})"
        cast = self._cast_target(node)
        if cast is not None and not template:
            spelled = (
                cast.spell(self.subst)
                if self._numpy_scalar_type(node.func)
                else self._type_text(node.func)
            )
            arg = node.args[0]
            if (
                isinstance(arg, ast.Constant)
                and isinstance(arg.value, int | float)
                and not isinstance(arg.value, bool)
                and (spelled in ("float", "int32_t") or (spelled == "uint32_t" and arg.value >= 0))
            ):  # a literal of the type: 1.0f, 1, 1U
                number = float(arg.value) if spelled == "float" else int(arg.value)
                text = self._constant(ast.copy_location(ast.Constant(number), arg))
                return text + "U" if spelled == "uint32_t" and not text.endswith("U") else text
            return f"static_cast<{spelled}>({self._expr(arg)[0]})"
        if (
            isinstance(func, ast.Name)
            and func.id in ("int", "float", "bool")
            and (func.id not in self.globals)
        ):
            return self._builtin_cast(func.id, node)
        if isinstance(func, ast.Attribute) and func.attr == "view" and not template:
            converted = self._integer_view(func.value, node)
            if converted is not None:
                return converted
        if isinstance(func, ast.Attribute) and self._is_self(func.value):
            return self._method_call(func.attr, node, template)
        resolved = self._resolve(func)
        args = [a for a in node.args]
        if isinstance(resolved, UserFunction | UserClass):
            return self._user_call(resolved, func, args, template)
        if isinstance(resolved, Api):
            if resolved.spelling == "asc_vf_call" and not template:
                raise self.where.error(node, "write asc_vf_call[F](...)")
            return f"{resolved.spelling}{template}({self._args(args)})"
        if isinstance(func, ast.Attribute):
            owner = self._resolve(func.value)
            ctype = self._object_type(func.value)
            if ctype is not None and ctype.kind == "class" and ctype.pyclass is not None:
                self.program.user_class(ctype.pyclass)
            if (
                not isinstance(owner, ModuleAlias | UserFunction | Constant) and owner is not None
            ) or (owner is None and not isinstance(func.value, ast.Name)):
                base = self._operand(func.value, PRIMARY)
                return f"{base}.{func.attr}{template}({self._args(args)})"
        if self._is_numpy_fmod(func):
            return self._fmod(node)
        if (
            isinstance(func, ast.Name)
            and func.id in DEVICE_BUILTINS
            and func.id not in self.globals
        ):
            if len(args) != DEVICE_BUILTINS[func.id]:
                raise self.where.error(
                    node, f"{func.id}() takes {DEVICE_BUILTINS[func.id]} value(s) on the device"
                )
            return f"{func.id}({self._args(args)})"  # C's abs, the SIMT min/max
        if (
            isinstance(func, ast.Name)
            and hasattr(builtins, func.id)
            and func.id not in self.globals
        ):
            raise self.where.error(
                node, f"the Python builtin {func.id}() has no device counterpart"
            )
        raise self.where.error(
            node, f"`{_unparse(func)}` is not an Ascend C function or a kernel function"
        )

    def _integer_view(self, value: ast.expr, node: ast.Call) -> str | None:
        """``x.view(np.int32)`` of an integer scalar of the same width: ``static_cast<int32_t>(x)``.

        The bits are kept: C++ converts between integers of one width modulo 2**N.
        """
        if len(node.args) != 1 or node.keywords:
            return None
        target = self._numpy_scalar_type(node.args[0])
        held = self._etype(value)
        if (
            target is None
            or held is None
            or not held.is_integer
            or held.dtype is None
            or target.kind not in _INTS
            or held.dtype.size != target.size
        ):
            return None
        return f"static_cast<{target.cpp_name}>({self._expr(value)[0]})"

    def _register_cast(self, node: ast.Call) -> tuple[str, bool] | None:
        """Return a register reinterpret cast: ``(text, whether it is a reference)``, or None.

        ``Reg.RegTensor[U](x)`` is ``(AscendC::Reg::RegTensor<U>&)x`` (a view of *x*: the C++
        reference cast), ``vector_int32_t(v)`` the C API's value cast ``(vector_int32_t)v``.
        """
        if len(node.args) != 1 or node.keywords:
            return None
        from ascreg.c_api._types import VECTOR_TYPES
        from ascreg.machine.registers import RegTensor

        func, template = node.func, ""
        if isinstance(func, ast.Subscript):
            template, func = self._template_args(func), func.value
        resolved = self._resolve(func)
        if not isinstance(resolved, Api):
            return None
        operand = self._operand(node.args[0], UNARY)
        if resolved.value is RegTensor and template:
            return f"({resolved.spelling}{template}&){operand}", True
        if not template and any(resolved.value is v for v in VECTOR_TYPES.values()):
            return f"({resolved.spelling}){operand}", False
        return None

    def _is_numpy_fmod(self, func: ast.expr) -> bool:
        import numpy as np

        return self._value_of(func) is np.fmod

    def _fmod(self, node: ast.Call) -> str:
        """``np.fmod(a, b)``: C's ``%`` on integers (both truncate toward zero), ``fmodf`` on floats."""
        if len(node.args) != 2:
            raise self.where.error(node, "fmod takes two values")
        a, b = node.args
        ta, tb = self._etype(a), self._etype(b)
        if ta is not None and tb is not None and ta.is_integer and tb.is_integer:
            return f"({self._operand(a, MUL)} % {self._operand(b, MUL, True)})"
        if (ta is not None and ta.is_float) or (tb is not None and tb.is_float):
            return f"fmodf({self._args([a, b])})"
        raise self.where.error(node, "np.fmod of values whose C++ type the run does not show")

    def _positional(self, node: ast.Call) -> ast.Call:
        """Return a call with its keyword arguments in order (defaults filled).

        The callee is a user function, or a user class (its constructor).
        """
        resolved = self._resolve(node.func)
        if any(k.arg is None for k in node.keywords):
            raise self.where.error(
                node, "a ** argument has no C++ counterpart: pass the arguments in order"
            )
        if isinstance(resolved, UserClass):
            target: Any = resolved.cls  # its signature is the constructor's, without self
        elif isinstance(resolved, UserFunction):
            target = _unwrap(resolved.func)
        else:
            raise self.where.error(
                node, "keyword arguments have no C++ counterpart: pass them in order"
            )
        names = list(inspect.signature(target).parameters.values())
        keywords = {str(k.arg): k.value for k in node.keywords}
        args = list(node.args)
        for param in names[len(args) :]:
            if param.name in keywords:
                args.append(keywords.pop(param.name))
            elif param.default is not inspect.Parameter.empty and keywords:
                args.append(ast.copy_location(ast.Constant(param.default), node))
            else:
                break
        if keywords:
            raise self.where.error(
                node, f"no parameter {sorted(keywords)[0]} in {target.__qualname__}"
            )
        return ast.copy_location(ast.Call(func=node.func, args=args, keywords=[]), node)

    def _etype_pointer(self, node: ast.expr) -> str | None:
        """Return the address space of a pointer expression (``p``, ``p + n``), or None."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            found = self._etype_pointer(node.left)
            if found is None and isinstance(node.op, ast.Add):
                found = self._etype_pointer(node.right)
            return found
        ctype = self._etype_of_object(node)
        return ctype.space if ctype is not None and ctype.kind == "ptr" else None

    def _builtin_cast(self, name: str, node: ast.Call) -> str:
        if len(node.args) != 1:
            raise self.where.error(node, f"{name}() takes one value here")
        arg = node.args[0]
        ctype = self._etype(arg)
        if name == "int":
            if ctype is not None and ctype.is_integer:
                return self._expr(arg)[0]
            if self._nonnegative(arg) and not (ctype and ctype.is_float):
                return self._expr(arg)[0]
            if ctype is not None and ctype.is_float:
                return f"static_cast<int32_t>({self._expr(arg)[0]})"
            raise self.where.error(node, "int() of a value whose C++ type the run does not show")
        if name == "float":
            return f"static_cast<float>({self._expr(arg)[0]})"
        return f"static_cast<bool>({self._expr(arg)[0]})"

    def _args(self, args: list[ast.expr]) -> str:
        return ", ".join(self._expr(a)[0] for a in args)

    def _template_args(self, node: ast.Subscript) -> str:
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return "<" + ", ".join(self._template_arg(i) for i in items) + ">"

    def _template_arg(self, node: ast.expr) -> str:
        self._check_compile_time(node)
        resolved = self._resolve(node)
        if isinstance(resolved, Local) and _is_mode(resolved.ctype):
            # a CastTrait is passed by reference, a *SpecificMode by its address (C++ `&mode`)
            return (
                resolved.name if resolved.ctype.name.endswith("CastTrait") else "&" + resolved.name
            )
        if isinstance(resolved, UserFunction):
            return self.program.function(resolved.func, self.context)
        if isinstance(node, ast.Subscript):
            inner = self._resolve(node.value)
            if isinstance(inner, UserFunction):
                name = self.program.function(inner.func, self.context)
                return name + self._template_args(node)
        if (
            isinstance(resolved, Api)
            and isinstance(resolved.value, type)
            and not issubclass(resolved.value, enum.Enum)
        ):
            return resolved.spelling
        if isinstance(resolved, Api) and not isinstance(resolved.value, enum.Enum | int):
            mode = _spell.find_public_name(type(resolved.value))
            if mode is not None and type(resolved.value).__name__.endswith(("Mode", "Trait")):
                raise self.where.error(
                    node, "a mode struct as a template argument (C++ &mode) is not emitted yet"
                )
        return self._expr(node)[0]

    def _check_compile_time(self, node: ast.expr) -> None:
        """Refuse a template argument that reads a member whose value the run saw change.

        A member read as a template argument is a ``static constexpr`` member when the run gave
        it one value; with several it is a run-time value, which C++ does not take there.
        """
        if not isinstance(self.owner, ClassEmitter):
            return
        for sub in ast.walk(node):
            if not (isinstance(sub, ast.Attribute) and self._is_self(sub.value)):
                continue
            member = self.owner.members.get(sub.attr)
            if member is None or sub.attr in self.owner.static or sub.attr in self.owner.constants:
                continue
            seen = member.seen
            values = f" ({seen.low} to {seen.high})" if seen.low != seen.high else ""
            raise self.where.error(
                sub,
                f"the member `{sub.attr}` is read as a template argument, but the run gave it "
                f"several values{values}: a C++ template argument is a compile-time constant "
                "(a run-time value cannot choose a template)",
            )

    def _user_call(
        self,
        resolved: UserFunction | UserClass,
        func: ast.expr,
        args: list[ast.expr],
        template: str,
    ) -> str:
        if isinstance(resolved, UserClass):
            raise self.where.error(func, "construct an object by assigning it to a variable")
        target = _unwrap(resolved.func)
        if type(resolved.func).__name__ == "Kernel":
            raise self.where.error(func, "a kernel launch is host code: emit the kernel itself")
        name = self.program.function(resolved.func, self.context)
        params = list(inspect.signature(target).parameters)
        types_passed = []
        values = []
        for i, arg in enumerate(args):
            kind = self._resolve(arg)
            if isinstance(kind, TypeName | TypeAlias) and i < len(params):
                types_passed.append(self._spelled(kind, arg))
            else:
                values.append(arg)
        if types_passed:
            template = "<" + ", ".join(types_passed) + ">"
        return f"{name}{template}({self._args(values)})"

    def _method_call(self, attr: str, node: ast.Call, template: str) -> str:
        assert isinstance(self.owner, ClassEmitter)
        self.owner.method(attr, self.context)
        return f"{attr}{template}({self._args(node.args)})"

    def _object_type(self, node: ast.expr) -> CType | None:
        """Return the C++ type of an object a method is called on (a local or a member)."""
        if isinstance(node, ast.Name) and node.id in self.locals:
            return self.locals[node.id].ctype
        if isinstance(node, ast.Attribute) and self._is_self(node.value):
            return self._member_type(node.attr)
        return None


def _type_aliases(
    names: set[str], namespace: dict[str, Any], filename: str
) -> dict[type[Scalar], str]:
    """Return the module-level type names (``T = float32_t``) among *names*, by the dtype they name."""
    out: dict[type[Scalar], str] = {}
    for name in sorted(names):
        resolved = resolve_global(name, namespace, filename)
        if isinstance(resolved, TypeAlias):
            out.setdefault(resolved.dtype, resolved.name)
    return out


def _template_members(cdef: ast.ClassDef) -> set[str]:
    """Return the members a class's methods read as template arguments (directly or via a local)."""
    found: set[str] = set()
    for method in (
        _split_tuple_assignments(n) for n in cdef.body if isinstance(n, ast.FunctionDef)
    ):
        names = _template_names(method)
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
                found |= {
                    a.attr
                    for a in ast.walk(node.func.slice)
                    if isinstance(a, ast.Attribute) and _is_self_attribute(a)
                }
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in names
                and _is_self_attribute(node.value)
            ):
                found.add(node.value.attr)  # type: ignore[attr-defined]
    return found


def _is_self_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _template_names(fdef: ast.FunctionDef) -> set[str]:
    """Return the names a function's template arguments read (``Alloc[T, n]``: ``n``)."""
    names: set[str] = set()
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
            names |= {n.id for n in ast.walk(node.func.slice) if isinstance(n, ast.Name)}
    return names


def _is_mode(ctype: CType) -> bool:
    from ascreg.emit._ctype import MODE_STRUCTS

    return ctype.kind == "class" and ctype.name.rsplit("::", 1)[-1] in MODE_STRUCTS


def _continues(body: list[ast.stmt]) -> bool:
    """Whether a ``continue`` of this loop is in *body* (not one of a nested loop)."""
    for stmt in body:
        if isinstance(stmt, ast.Continue):
            return True
        if isinstance(stmt, ast.For | ast.While):
            continue
        for field in ("body", "orelse"):
            if _continues(getattr(stmt, field, []) or []):
                return True
    return False


def _only_not_none(test: ast.expr) -> bool:
    """``x is not None`` (and conjunctions of it): a type checker's narrowing."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return all(_only_not_none(v) for v in test.values)
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


_CALLEE = {"simd": "__simd_callee__", "simt": "__simt_callee__", "kernel": "__aicore__"}


def _indent(depth: int) -> str:
    return "    " * depth


def _pointer_space(text: str) -> str:
    """``T* p`` rather than ``T *p`` or ``T*p``."""
    return re.sub(r"\*(?=\w)", "* ", text, count=1) if "*" in text and "* " not in text else text


def _constant_type(value: Any) -> CType:
    import numpy as np

    from ascreg.emit._ctype import BOOL, ctype_of

    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return scalar(_BY_NAME[int_type(value, value)])
    if isinstance(value, np.generic):
        return ctype_of(value)
    return CType("float")


class _ConstantEmitter:
    """``constexpr <type> NAME = <expression>;`` from the module-level assignment."""

    def __init__(self, program: Program, const: Constant, where: Where) -> None:
        self.program = program
        self.const = const
        self.where = where

    def emit(self, use: ast.AST) -> str:
        ctype = _constant_type(self.const.value)
        spelled = ctype.spell({})
        expr = self._source()
        text = _render_constant(self.const.value) if expr is None else expr
        return f"constexpr {spelled} {self.const.name} = {text};"

    def _source(self) -> str | None:
        tree, _ = _module_tree(self.const.filename)
        found = None
        for node in tree.body:
            if (
                isinstance(node, ast.Assign | ast.AnnAssign)
                and isinstance(
                    getattr(node, "targets", [getattr(node, "target", None)])[0], ast.Name
                )
                and getattr(node, "targets", [getattr(node, "target", None)])[0].id
                == self.const.name
            ):
                found = node.value
        if found is None:
            return None
        try:
            return _ConstantExpression(self.program, self.const, self.where).text(found)
        except EmitError:
            return None


class _ConstantExpression(FunctionEmitter):
    """The expression printer over module globals (constants, ``T.size``, arithmetic)."""

    def __init__(self, program: Program, const: Constant, where: Where) -> None:
        self.program = program
        self.globals = const.module_globals
        self.filename = const.filename
        self.where = where
        self.locals = {}
        self.template_params = []
        self.subst = {}
        self.owner = None
        self.context = "kernel"
        self.reg_ns = "AscendC::Reg::"
        self.constexprs = set()

    def text(self, node: ast.expr) -> str:
        allowed = (ast.Constant, ast.Name, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.operator,
                   ast.unaryop, ast.Load, ast.expr_context)  # fmt: skip
        for sub in ast.walk(node):
            if not isinstance(sub, allowed):
                raise self.where.error(node, "not a constant expression")
        return self._expr(node)[0]


def _render_constant(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) + "f"
    return (
        str(int(value))
        if not hasattr(value, "dtype") or value.dtype.kind in "iub"
        else repr(float(value)) + "f"
    )


# -- classes ---------------------------------------------------------------------------------------------


class ClassEmitter:
    """A user class: the members the run saw and the methods it called."""

    def __init__(self, program: Program, cls: type) -> None:
        self.program = program
        self.cls = cls
        self.filename = inspect.getsourcefile(cls) or ""
        tree, lines = _module_tree(self.filename)
        self.where = Where(self.filename, lines)
        found = _find_definition(tree, cls.__qualname__)
        if not isinstance(found, ast.ClassDef):
            raise self.where.error(None, f"no source for class {cls.__qualname__}")
        self.cdef = found
        self.members: dict[str, Local] = {}
        self.static: dict[str, int] = {}
        """Members read as template arguments, with the one value the run gave each."""
        self.constants: set[str] = set()
        """The numbers the class body binds: ``static constexpr`` members."""
        self.methods: dict[str, str] = {}
        self.order = [n.name for n in found.body if isinstance(n, ast.FunctionDef)]
        self.params: list[str] = []
        """The template parameters of a class template: the members its constructor stores
        types in (``typename``) or numbers read as template arguments, in constructor order."""
        self.type_params: set[str] = set()
        self.positions: dict[int, str] = {}
        """The constructor argument (``self`` not counted) each template parameter is passed as."""
        self.subst: Subst = {}
        self.rep: dict[str, Any] = {}
        """The instantiation the class is written from (its dtypes are spelled as the parameters)."""
        self._template()

    def emit(self) -> str:
        """Return the C++ class (a ``struct`` of its fields when the run called no method of it)."""
        if self.cdef.bases or not all(map(_is_dataclass_decorator, self.cdef.decorator_list)):
            raise self.where.error(self.cdef, "base classes and class decorators are not emitted")
        for name in self.order:
            if name.startswith("__") and name not in ("__init__",):
                raise self.where.error(self.cdef, f"the special method {name} has no C++ form here")
        self._members()
        module = sys.modules.get(self.cls.__module__)
        constants = self._class_constants(module)
        for name in self.order:
            if self._ran(name) and not (name == "__init__" and self._trivial_constructor()):
                self.method(name, "kernel")
        public = [self.methods[n] for n in self.order if n in self.methods]
        names = {n.id for n in ast.walk(self.cdef) if isinstance(n, ast.Name)}
        aliases = _type_aliases(names, vars(module) if module else {}, self.filename)
        subst = {d: self.program.type_alias(TypeAlias(a, d)) for d, a in aliases.items()}
        subst.update(self.subst)
        defaults = self._defaults(module)
        fields = []
        for m in self.members.values():
            if m.ctype.kind == "class" and m.ctype.pyclass is not None:
                self.program.user_class(m.ctype.pyclass)  # declared before the class using it
            spelled = m.ctype.spell(subst, ints=_int_spelling(m))
            if m.name in self.static:
                fields.append(f"    static constexpr {spelled} {m.name} = {self.static[m.name]};")
            elif m.name in defaults and not public:
                fields.append("    " + _pointer_space(f"{spelled} {m.name} = {defaults[m.name]};"))
            else:
                fields.append("    " + _pointer_space(f"{spelled} {m.name};"))
        if not public:  # plain data (a tiling dataclass the kernel reads): an aggregate
            return "\n".join([f"struct {self.cls.__name__} {{", *constants, *fields, "};"])
        if self.cdef.decorator_list:  # a dataclass: its fields are read from outside, public
            lines = [f"struct {self.cls.__name__} {{", *constants]
            for text in public:
                lines += ["    " + line if line else line for line in text.splitlines()]
            return "\n".join([*lines, *fields, "};"])
        lines = [*self._template_head(), f"class {self.cls.__name__} {{", "public:", *constants]
        for text in public:
            lines += ["    " + line if line else line for line in text.splitlines()]
        if fields:
            lines += ["private:", *fields]
        return "\n".join([*lines, "};"])

    def _template(self) -> None:
        """Find the template parameters: ``Kernel(half, int32_t, n)`` is ``Kernel<half, int32_t, n>``.

        The members holding scalar types (set from constructor parameters) are ``typename``
        parameters; a number the constructor stores in a member read as a template argument
        is a value parameter. Each method and member is recorded per instantiation; the class
        is written from the first instantiation whose types are distinct, every other one
        mapped onto it parameter by parameter.
        """
        rec = self.program.recording
        found = rec.instantiations.get(class_key(self.cls), {}) if rec is not None else {}
        bindings = [dict(b) for b in found if b]
        if not bindings:
            return
        init = next(
            (n for n in self.cdef.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
            None,
        )
        ctor = [a.arg for a in init.args.args[1:]] if init is not None else []
        sources: dict[str, str] = {}
        for node in ast.walk(_split_tuple_assignments(init)) if init is not None else ():
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and _is_self_attribute(node.targets[0])
                and isinstance(node.value, ast.Name)
                and node.value.id in ctor
            ):
                sources.setdefault(node.value.id, node.targets[0].attr)  # type: ignore[attr-defined]
        typed = set().union(*bindings)
        constant = _template_members(self.cdef)
        for i, param in enumerate(ctor):
            member = sources.get(param)
            if member is None or not (member in typed or member in constant):
                continue
            self.params.append(member)
            self.positions[i] = member
        missing = typed - set(self.params)
        if missing:
            raise self.where.error(
                self.cdef,
                f"member `{sorted(missing)[0]}` holds a type the constructor was not passed: a "
                "class template takes its type arguments where it is constructed",
            )
        self.type_params = typed
        self.rep = next((b for b in bindings if len(set(b.values())) == len(b)), bindings[0])
        self.subst = {dtype: name for name, dtype in self.rep.items()}

    def _mapping(self, binding: Binding) -> dict[Any, Any]:
        """Map the dtypes of one instantiation onto those of the one the class is written from."""
        held = dict(binding)
        return {held[n]: self.rep[n] for n in self.type_params if n in held}

    def normalise(self, records: dict[Binding, FunctionRecord]) -> dict[Binding, FunctionRecord]:
        """Merge a method's records of every instantiation into the one the class is written from."""
        if not self.type_params:
            return records
        out: dict[Binding, FunctionRecord] = {}
        for binding, rec in records.items():
            mapping = self._mapping(binding)
            key = tuple((n, self.rep.get(n, v)) for n, v in binding)
            new = FunctionRecord(calls=rec.calls, returns=_retype_seen(rec.returns, mapping))
            for mine, theirs in (
                (new.params, rec.params),
                (new.locals, rec.locals),
                (new.members, rec.members),
            ):
                for name, seen in theirs.items():
                    mine[name] = _retype_seen(seen, mapping)
            out.setdefault(key, FunctionRecord()).merge(new)
        return out

    def _class_constants(self, module: types.ModuleType | None) -> list[str]:
        """Return ``static constexpr`` members for the numbers the class body binds (``N = 8``)."""
        namespace = vars(module) if module else {}
        out = []
        for node in self.cdef.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target = node.target
            else:
                continue
            if not isinstance(target, ast.Name) or target.id in self.members:
                continue  # a dataclass field's default: the field is a member
            value = getattr(self.cls, target.id, None)
            if not (isinstance(value, CONSTANT_TYPES) or _is_number(value)):
                continue
            assert node.value is not None
            const = Constant(target.id, value, namespace, self.filename)
            try:
                text = _ConstantExpression(self.program, const, self.where).text(node.value)
            except EmitError:
                text = _render_constant(value)
            spelled = _constant_type(value).spell({})
            out.append(f"    static constexpr {spelled} {target.id} = {text};")
            self.constants.add(target.id)
        return out

    def _defaults(self, module: types.ModuleType | None) -> dict[str, str]:
        """Return the default of each field the class body gives one (``x: int = 0``), in C++."""
        out: dict[str, str] = {}
        namespace = vars(module) if module else {}
        for node in self.cdef.body:
            if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
                continue
            if node.value is None:
                continue
            const = Constant(node.target.id, None, namespace, self.filename)
            try:
                out[node.target.id] = _ConstantExpression(self.program, const, self.where).text(
                    node.value
                )
            except EmitError:
                continue  # not a constant expression: the field has no default in C++
        return out

    def _template_head(self) -> list[str]:
        if not self.params:
            return []
        spelled = []
        for name in self.params:
            if name in self.type_params:
                spelled.append(f"typename {name}")
            else:
                value = self.values[name]
                spelled.append(f"{value.ctype.spell({}, ints=_int_spelling(value))} {name}")
        return ["template <" + ", ".join(spelled) + ">"]

    def _ran(self, name: str) -> bool:
        rec = self.program.recording
        if rec is None:
            return False
        return rec.merged(self.filename, f"{self.cls.__qualname__}.{name}").calls > 0

    def _trivial_constructor(self) -> bool:
        """``__init__`` only stores the template arguments: C++ constructs the class with none."""
        init = next(
            (n for n in self.cdef.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
            None,
        )
        if init is None or not self.params:
            return False
        if len(init.args.args) - 1 != len(self.positions):
            return False
        body = _split_tuple_assignments(init).body
        return all(
            (
                isinstance(s, ast.Assign)
                and len(s.targets) == 1
                and _is_self_attribute(s.targets[0])
                and s.targets[0].attr in self.params  # type: ignore[attr-defined]
            )
            or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            for s in body
        )

    def _members(self) -> None:
        rec = self.program.recording
        total = FunctionRecord()
        if rec is not None:
            for name in self.order:
                by_binding = rec.bindings(self.filename, f"{self.cls.__qualname__}.{name}")
                for one in self.normalise(by_binding).values():
                    total.merge(one)
            if self.type_params:
                for binding, held in rec.instantiations.get(class_key(self.cls), {}).items():
                    mapping = self._mapping(binding)
                    for member, seen in held.items():
                        total.members.setdefault(member, Seen()).merge(_retype_seen(seen, mapping))
            else:
                for member, seen in rec.instances.get(self.cls, {}).items():
                    total.members.setdefault(member, Seen()).merge(seen)
        constant = _template_members(self.cdef)
        self.values: dict[str, Local] = {}
        for member, seen in total.members.items():
            if member in self.params:
                if member not in self.type_params:
                    ctype = _one_type(seen, f"member `{member}`", self.cdef, self.where)
                    self.values[member] = Local(member, ctype, seen)
                continue  # a template parameter, not a member
            ctype = _one_type(seen, f"member `{member}`", self.cdef, self.where)
            self.members[member] = Local(member, ctype, seen)
            if (
                member in constant
                and ctype.is_integer
                and seen.low is not None
                and seen.low == seen.high
            ):
                self.static[member] = seen.low

    def method(self, name: str, context: str) -> None:
        """Emit the method *name* (once)."""
        if name in self.methods:
            return
        func = getattr(self.cls, name, None)
        if isinstance(func, property):
            func = func.fget
        if func is None:
            raise self.where.error(self.cdef, f"{self.cls.__name__} has no method {name}")
        self.methods[name] = ""
        emitter = FunctionEmitter(self.program, func, context, self)
        self.methods[name] = emitter.emit()


def _retype(ctype: CType, mapping: dict[Any, Any]) -> CType:
    """Return *ctype* with its dtypes replaced as *mapping* says (one instantiation onto another)."""
    if not mapping:
        return ctype
    inner = _retype(ctype.inner, mapping) if ctype.inner is not None else None
    return attrs.evolve(
        ctype,
        dtype=mapping.get(ctype.dtype, ctype.dtype) if ctype.dtype is not None else None,
        inner=inner,
        args=tuple(mapping.get(a, a) if isinstance(a, type) else a for a in ctype.args),
    )


def _retype_seen(seen: Seen, mapping: dict[Any, Any]) -> Seen:
    return Seen({_retype(t, mapping) for t in seen.types}, seen.low, seen.high)


def _is_dataclass_decorator(node: ast.expr) -> bool:
    """``@dataclass``, ``@dataclass(...)`` or ``@dataclasses.dataclass``: a struct of fields."""
    target = node.func if isinstance(node, ast.Call) else node
    return _unparse(target).split(".")[-1] == "dataclass"


def _int_spelling(local: Local) -> str:
    if local.ctype.kind == "int":
        return int_type(local.seen.low or 0, local.seen.high or 0)
    return ""


ROOT_KINDS = ("__global__", "__simd_vf__", "__simt_vf__")


def emit_program(roots: list[Any], recording: Recording | None) -> Program:
    """Emit every function in *roots* (and their callees) into one :class:`Program`."""
    program = Program(recording)
    for root in roots:
        target = _unwrap(root)
        kind = getattr(root, "__ascreg_kind__", None) or getattr(target, "__ascreg_kind__", None)
        if type(root).__name__ != "Kernel" and kind not in ("simd_vf", "simt_vf"):
            raise EmitError(
                f"{getattr(target, '__qualname__', root)} is not a __global__, __simd_vf__ or "
                "__simt_vf__ function: emit a kernel or VF (a helper is emitted with its caller)",
                call="ascreg.emit",
            )
        program.function(root, "kernel")
    return program

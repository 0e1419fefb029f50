"""Which kernels may run in block groups: a static check of their code.

A group runs the kernel body once for all its blocks, so the body, and the functions and
methods of user classes it names, must have no effect but through ascreg calls: no ``global``
or ``nonlocal`` statement, no write into anything but their own locals, their method's object
and memory through a parameter annotated as a pointer or tensor, and calls only to ascreg, safe
builtins and user code that passes the same check. User code reached through a template
(:func:`ascreg.template`), a static or class method, or an object the blocks share (a helper
namespace, a factory standing for a C++ class template, and the functions it holds) is checked
too; a shared object's methods may not write into it.

Examples
--------
>>> seen = []
>>> def k(x):
...     seen.append(x)
>>> why_not_grouped(k).split(": ", 1)[1]
"calls seen.append, a method of a host object ('seen')"
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg.engine import source
from ascreg.engine.scopes import parameters

_SAFE_BUILTINS = frozenset(
    {"int", "float", "bool", "min", "max", "abs", "range", "len", "divmod", "round", "isinstance",
     "super", "tuple", "list", "dict", "zip", "enumerate", "sum", "any", "all", "reversed",
     "sorted", "str", "repr", "type", "issubclass", "hasattr", "getattr"}
)  # fmt: skip
"""Builtins the code of a grouped kernel may call: none has an effect outside the code."""
_CHECKED: dict[Any, tuple[str | None, list[types.FunctionType], tuple[Any, ...]]] = {}
"""Per kernel (its code and the values it captures): why not grouped, the functions checked,
and the captured values (kept: the key holds their ids)."""


def why_not_grouped(kernel: Callable[..., Any]) -> str | None:
    """Return why the blocks of *kernel* cannot run in groups, or None when they may.

    Examples
    --------
    >>> counts = []
    >>> def k(x):
    ...     counts.append(1)
    >>> why_not_grouped(k).split(": ", 1)[1]
    "calls counts.append, a method of a host object ('counts')"
    """
    return _checked(kernel)[0]


def kernel_functions(kernel: Callable[..., Any]) -> list[types.FunctionType]:
    """Return *kernel* and the user functions and methods its code names (checked first).

    Examples
    --------
    >>> def k(x):
    ...     return abs(x)
    >>> [f.__name__ for f in kernel_functions(k)]
    ['k']
    """
    return _checked(kernel)[1]


def _checked(kernel: Callable[..., Any]) -> tuple[str | None, list[types.FunctionType], Any]:
    """Check *kernel* once per code and captured values (kernels a factory makes differ)."""
    captured = tuple(_closure(inspect.unwrap(kernel)).values())
    key = (getattr(kernel, "__code__", None), *map(id, captured))
    found = _CHECKED.get(key)
    if found is None:
        if len(_CHECKED) >= 1024:  # (kernels made per call: each keeps what it captured)
            _CHECKED.clear()
        admission = _Admission()
        why = admission.function(kernel, 0)
        found = _CHECKED[key] = (why, admission.functions, captured)
    return found


class _Admission:
    """The static check of :func:`why_not_grouped` over a kernel and the user code it names."""

    def __init__(self) -> None:
        self.seen: set[Any] = set()
        self.functions: list[types.FunctionType] = []
        """The functions checked (the kernel's, and the user code it names)."""

    def function(self, func: Any, depth: int, *, host: bool = False) -> str | None:
        """Check *func* (its source); *host*: a method of an object the blocks share.

        A method of a host object may not write into it (``self``): the group calls it once
        where its blocks would call it each.
        """
        code = getattr(func, "__code__", None)
        if code is None or code in self.seen:
            return None
        self.seen.add(code)
        if isinstance(func, types.FunctionType):
            self.functions.append(func)
        if depth > 6:
            return f"{func.__qualname__}: user code nested too deep"
        found = _definition(func)
        if found is None:
            return f"{getattr(func, '__qualname__', func)}: its source cannot be read"
        tree, first = found
        written = inspect.unwrap(func)  # (an @__aicore__ wrapper's names are its module's)
        scope = {**vars(sys.modules["builtins"]), **getattr(written, "__globals__", {})}
        scope.update(_closure(written))
        for node, names in _scoped(tree, (set(), set()), host):
            why = self._node(node, scope, names, depth)
            if why is not None:
                line = first + getattr(node, "lineno", 1) - 1
                return f"{func.__qualname__} (line {line}): {why}"
        return None

    def _node(
        self, node: ast.AST, scope: dict[str, Any], names: tuple[set[str], set[str]], depth: int
    ) -> str | None:
        """Check one node; *names*: the code's own names, and those it may write into."""
        own, writable = names
        if isinstance(node, ast.Global | ast.Nonlocal):
            return "a global or nonlocal statement"
        if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store):
            root = _root(node)
            if root is None or root not in writable:
                return f"writes into {ast.unparse(node)}, which is not the code's own"
        if isinstance(node, ast.Call):
            return self._call(node, scope, own, depth)
        return None

    def _call(self, node: ast.Call, scope: dict[str, Any], own: set[str], depth: int) -> str | None:
        func = node.func
        if isinstance(func, ast.Subscript):  # asc_vf_call[f](...), GlobalTensor[T]()
            func = func.value
        if isinstance(func, ast.Name):
            if func.id in own:
                return None  # a local callable: what it is was checked where it was made
            return self._callee(func.id, scope.get(func.id, _MISSING), depth)
        if isinstance(func, ast.Attribute):
            root = _root(func)
            if root is None or root in own:
                return None  # a method of the code's own objects (ascreg or user classes)
            target = scope.get(root, _MISSING)
            if isinstance(target, types.ModuleType) or _is_ascreg(target):
                return None
            if isinstance(target, type):
                return self.user_class(target, depth)
            if _is_user_object(target):
                return self.shared_method(target, func, depth)
            return f"calls {ast.unparse(func)}, a method of a host object ('{root}')"
        return None

    def _callee(self, name: str, target: Any, depth: int) -> str | None:
        if target is _MISSING:
            return f"calls {name}, which is not defined"
        if isinstance(target, type) and issubclass(target, np.generic):
            return None
        if _is_ascreg(target):  # a template of a user function holds it: that is user code
            return None if isinstance(target, _DEFINITIONS) else self.held(target, depth)
        if getattr(target, "__module__", None) == "builtins":
            return None if name in _SAFE_BUILTINS else f"calls {name}"
        if isinstance(target, type):
            return self.user_class(target, depth)
        if isinstance(target, types.FunctionType):
            return self.function(target, depth + 1)
        if _is_user_object(target):  # a callable or subscriptable object of a user class
            return self.user_object(target, depth)
        return f"calls {name}, which is neither ascreg nor user code"

    def user_object(self, obj: Any, depth: int) -> str | None:
        """Check an object of a user class the blocks share: its class's code, read-only.

        Such as a factory standing for a C++ class template (``C[T]`` makes the class for
        ``T``: the classes it makes are defined in a function it holds) or a namespace of
        helpers (``ops.CeilDiv``).
        """
        return self.user_class(type(obj), depth, host=True) or self.held(obj, depth)

    def shared_method(self, obj: Any, func: ast.Attribute, depth: int) -> str | None:
        """Check ``obj.method(...)`` on an object the blocks share: that method, read-only.

        A longer chain (``obj.a.b()``) checks the whole object.
        """
        if not isinstance(func.value, ast.Name):
            return self.user_object(obj, depth)
        method = inspect.getattr_static(type(obj), func.attr, None)
        if isinstance(method, staticmethod | classmethod):
            method = method.__func__
        if isinstance(method, types.FunctionType):
            return self.function(method, depth + 1, host=True)
        return self.user_object(obj, depth)  # an attribute it holds: a callable of its own

    def held(self, obj: Any, depth: int) -> str | None:
        """Check the user functions an object holds (directly, or wrapped as by a cache)."""
        for value in vars(obj).values():
            func = inspect.unwrap(value) if callable(value) else value
            if isinstance(func, types.FunctionType) and not _is_ascreg(func):
                why = self.function(func, depth + 1)
                if why is not None:
                    return why
        return None

    def user_class(self, cls: type, depth: int, *, host: bool = False) -> str | None:
        """Check every method of a user class (static and class methods too)."""
        for base in cls.__mro__:
            if _is_ascreg(base) or base is object:
                continue
            for name, attr in vars(base).items():
                if host and name in _CONSTRUCTION:
                    continue  # the object exists: the kernel does not make it
                func = attr.__func__ if isinstance(attr, staticmethod | classmethod) else attr
                if isinstance(func, types.FunctionType):
                    why = self.function(func, depth + 1, host=host)
                    if why is not None:
                        return why
        return None


def _definition(func: Any) -> tuple[ast.AST, int] | None:
    """Return the definition of *func* (a ``def`` or a ``lambda``) and the line of its line 1.

    A lambda is found in its file's code: the source lines ``inspect`` gives for it are the
    lines around it, not code of their own.
    """
    code = getattr(inspect.unwrap(func), "__code__", None)
    if code is None:
        return None
    if code.co_name != "<lambda>":
        found = source.definition(code)  # (its file's line numbers)
        return None if found is None else (found, 1)
    module = source.module_tree(code.co_filename)
    lambdas = [
        node
        for node in (ast.walk(module) if module is not None else ())
        if isinstance(node, ast.Lambda)
        and node.lineno == code.co_firstlineno
        and [a.arg for a in node.args.args] == list(code.co_varnames[: code.co_argcount])
    ]
    return (lambdas[0], 1) if len(lambdas) == 1 else None


_MISSING = object()
_CONSTRUCTION = frozenset({"__new__", "__init__", "__post_init__", "__init_subclass__"})
"""Methods that make an object (not run on a host object the kernel only uses)."""


_DEFINITIONS = (type, types.FunctionType, types.BuiltinFunctionType)


def _is_ascreg(obj: Any) -> bool:
    """Return True for ascreg's modules, classes, functions and objects (a kernel, ``Reg``)."""
    if isinstance(obj, types.ModuleType):
        module = obj.__name__
    else:
        module = getattr(obj if isinstance(obj, _DEFINITIONS) else type(obj), "__module__", "")
    return isinstance(module, str) and (module == "ascreg" or module.startswith("ascreg."))


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _scoped(
    tree: ast.AST, outer: tuple[set[str], set[str]], host: bool
) -> Iterator[tuple[ast.AST, tuple[set[str], set[str]]]]:
    """Yield each node of *tree* with the names of its scope: its own, and those it may write into.

    A function's own names are its parameters and what it assigns, with its enclosing scopes'.
    It may write into what it made, what its enclosing scopes may, the object of its own
    method (``self``, unless *host*: a method of an object the blocks share), and memory
    through a parameter annotated as a pointer or tensor (a store). Any other parameter is
    the caller's: the launch's struct is every block's.
    """
    nodes, nested = _scope_nodes(tree)
    params = {a.arg for a in parameters(tree)}
    made = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    own = outer[0] | params | made
    writable = outer[1] | (made - params) | _pointer_params(tree)
    if not host:
        writable |= {"self"} & params
    for node in nodes:
        yield node, (own, writable)
    for inner in nested:
        yield from _scoped(inner, (own, writable), host)


def _scope_nodes(tree: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    """Return the nodes of *tree*'s own scope (itself included), and the scopes nested in it.

    A nested function's decorators, defaults and annotations belong to the enclosing scope.
    """
    nodes: list[ast.AST] = [tree]
    nested: list[ast.AST] = []
    pending = list(ast.iter_child_nodes(tree))
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            nested.append(node)
            outside: list[Any] = list(getattr(node, "decorator_list", []))
            if not isinstance(node, ast.ClassDef):
                outside += [*node.args.defaults, *node.args.kw_defaults]
            pending.extend(n for n in outside if n is not None)
            continue
        nodes.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return nodes, nested


_POINTER_TYPES = frozenset({"GmPtr", "UbPtr", "Pointer", "GlobalTensor", "LocalTensor"})
"""Annotations of parameters the code may store through (``p[i] = v`` writes memory)."""


def _pointer_params(tree: ast.AST) -> set[str]:
    """Return the parameters of *tree* annotated as an ascreg pointer or tensor type."""
    found = set()
    for arg in parameters(tree):
        if arg.annotation is not None:
            annotation = arg.annotation
            if isinstance(annotation, ast.Subscript):
                annotation = annotation.value
            name = annotation.attr if isinstance(annotation, ast.Attribute) else annotation
            if getattr(name, "id", name) in _POINTER_TYPES:
                found.add(arg.arg)
    return found


def _is_user_object(obj: Any) -> bool:
    """Return True for an object of a class defined in user code (not ascreg, not a builtin)."""
    cls = type(obj)
    module = getattr(cls, "__module__", "")
    return (
        not isinstance(obj, (*_DEFINITIONS, types.ModuleType))
        and hasattr(obj, "__dict__")
        and module not in ("builtins", "")
        and not _is_ascreg(obj)
        and inspect.getsourcefile(cls) is not None
    )


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _closure(func: Any) -> dict[str, Any]:
    cells = getattr(func, "__closure__", None) or ()
    names = getattr(getattr(func, "__code__", None), "co_freevars", ())
    found = {}
    for name, cell in zip(names, cells, strict=False):
        with contextlib.suppress(ValueError):
            found[name] = cell.cell_contents
    return found

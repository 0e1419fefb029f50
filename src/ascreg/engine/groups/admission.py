"""Which kernels may run in block groups: a static check of their code.

A group runs the kernel body once for all its blocks, so the body, and the functions and
methods of user classes it names, must have no effect but through ascreg calls: no ``global``
or ``nonlocal`` statement, no write into anything but their own locals and parameters, and
calls only to ascreg, safe builtins and user code that passes the same check.

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
import textwrap
import types
from collections.abc import Callable
from typing import Any

import numpy as np

_SAFE_BUILTINS = frozenset(
    {"int", "float", "bool", "min", "max", "abs", "range", "len", "divmod", "round", "isinstance",
     "super", "tuple", "list", "dict", "zip", "enumerate", "sum", "any", "all", "reversed",
     "sorted", "str", "repr", "type", "issubclass", "hasattr", "getattr"}
)  # fmt: skip
"""Builtins the code of a grouped kernel may call: none has an effect outside the code."""
_WHY: dict[Any, str | None] = {}


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
    code = getattr(kernel, "__code__", None)
    if code not in _WHY:
        admission = _Admission()
        _WHY[code] = admission.function(kernel, 0)
        _FUNCTIONS[code] = admission.functions
    return _WHY[code]


def kernel_functions(kernel: Callable[..., Any]) -> list[types.FunctionType]:
    """Return *kernel* and the user functions and methods its code names (checked first).

    Examples
    --------
    >>> def k(x):
    ...     return abs(x)
    >>> [f.__name__ for f in kernel_functions(k)]
    ['k']
    """
    why_not_grouped(kernel)
    return _FUNCTIONS[getattr(kernel, "__code__", None)]


_FUNCTIONS: dict[Any, list[types.FunctionType]] = {}


class _Admission:
    """The static check of :func:`why_not_grouped` over a kernel and the user code it names."""

    def __init__(self) -> None:
        self.seen: set[Any] = set()
        self.functions: list[types.FunctionType] = []
        """The functions checked (the kernel's, and the user code it names)."""

    def function(self, func: Any, depth: int) -> str | None:
        code = getattr(func, "__code__", None)
        if code is None or code in self.seen:
            return None
        self.seen.add(code)
        if isinstance(func, types.FunctionType):
            self.functions.append(func)
        if depth > 6:
            return f"{func.__qualname__}: user code nested too deep"
        try:
            source = textwrap.dedent(inspect.getsource(func))
            tree = ast.parse(source).body[0]
        except (OSError, TypeError, SyntaxError, IndexError):
            return f"{getattr(func, '__qualname__', func)}: its source cannot be read"
        written = inspect.unwrap(func)  # (an @__aicore__ wrapper's names are its module's)
        scope = {**vars(sys.modules["builtins"]), **getattr(written, "__globals__", {})}
        scope.update(_closure(written))
        params = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
        made = {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        # what the code may write into: what it made, and the object of its own method
        # (a parameter is the caller's: the launch's struct is every block's)
        writable = (made - params) | ({"self"} & params)
        own = params | made
        for node in ast.walk(tree):
            why = self._node(node, scope, (own, writable), depth)
            if why is not None:
                line = code.co_firstlineno + getattr(node, "lineno", 1) - 1
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
            return f"calls {ast.unparse(func)}, a method of a host object ('{root}')"
        return None

    def _callee(self, name: str, target: Any, depth: int) -> str | None:
        if target is _MISSING:
            return f"calls {name}, which is not defined"
        if _is_ascreg(target) or (isinstance(target, type) and issubclass(target, np.generic)):
            return None
        if getattr(target, "__module__", None) == "builtins":
            return None if name in _SAFE_BUILTINS else f"calls {name}"
        if isinstance(target, type):
            return self.user_class(target, depth)
        if isinstance(target, types.FunctionType):
            return self.function(target, depth + 1)
        return f"calls {name}, which is neither ascreg nor user code"

    def user_class(self, cls: type, depth: int) -> str | None:
        for base in cls.__mro__:
            if _is_ascreg(base) or base is object:
                continue
            for attr in vars(base).values():
                if isinstance(attr, types.FunctionType):
                    why = self.function(attr, depth + 1)
                    if why is not None:
                        return why
        return None


_MISSING = object()


_DEFINITIONS = (type, types.FunctionType, types.BuiltinFunctionType)


def _is_ascreg(obj: Any) -> bool:
    """Return True for ascreg's modules, classes, functions and objects (a kernel, ``Reg``)."""
    if isinstance(obj, types.ModuleType):
        module = obj.__name__
    else:
        module = getattr(obj if isinstance(obj, _DEFINITIONS) else type(obj), "__module__", "")
    return isinstance(module, str) and (module == "ascreg" or module.startswith("ascreg."))


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

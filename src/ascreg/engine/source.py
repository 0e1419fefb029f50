"""The syntax trees of user functions, each file parsed once.

The engine rewrites the loops, branches and SIMT bodies of the functions a kernel runs, and
it reads each function's ``def`` from its file. ``inspect.getsourcelines`` finds the module
of the code (a walk over ``sys.modules``) and tokenises the function on every call, which cost
a kernel's first launch ~10 ms per function; here each file is parsed once (while its lines in
:mod:`linecache` stay the same) and each function's tree is handed out as a fresh copy (the
callers rewrite it in place).

Examples
--------
>>> import ast
>>> def scaled(x):
...     return 2 * x
>>> tree = definition(scaled.__code__)
>>> tree is None or (isinstance(tree, ast.FunctionDef) and tree.name == "scaled")
True
"""

from __future__ import annotations

import ast
import linecache
import pickle
import types
from typing import Any, TypeVar

Node = TypeVar("Node", bound=ast.AST)

_FILES: dict[str, tuple[list[str], dict[tuple[int, str], Any]]] = {}
"""Per file name: the lines it was parsed from (:mod:`linecache`'s list) and, per function
(first line, name), its ``def`` node, pickled once asked for (a copy is one ``loads``)."""


def definition(code: types.CodeType) -> ast.FunctionDef | None:
    """Return a fresh copy of the ``def`` of *code*, with its file's line numbers, or None.

    None when the file's lines are unavailable (code given to ``exec``, piped to
    ``python -``) or hold no ``def`` of that name at the code's first line (a lambda, a file
    edited since it was imported). The decorators are kept.

    Examples
    --------
    >>> def twice(x):
    ...     return x + x
    >>> copy = definition(twice.__code__)
    >>> copy is None or copy is not definition(twice.__code__)
    True
    """
    functions = _functions(code.co_filename)
    key = (code.co_firstlineno, code.co_name)
    found = functions.get(key)
    if found is None:
        return None
    if not isinstance(found, bytes):  # the first request: keep it pickled
        found = functions[key] = pickle.dumps(found, pickle.HIGHEST_PROTOCOL)
    copy: ast.FunctionDef = pickle.loads(found)
    return copy


def copied(node: Node) -> Node:
    """Return a deep copy of the syntax tree *node*, its locations kept.

    (A pickle round trip: twice the speed of ``ast.parse(ast.unparse(node))``.)

    Examples
    --------
    >>> tree = ast.parse("x = 1").body[0]
    >>> copy = copied(tree)
    >>> copy is not tree and ast.dump(copy, include_attributes=True) == ast.dump(tree, include_attributes=True)
    True
    """
    copy: Node = pickle.loads(pickle.dumps(node, pickle.HIGHEST_PROTOCOL))
    return copy


def located(made: Node, at: ast.AST) -> Node:
    r"""Give the node *made* the location of *at*, and its nodes without one their parent's.

    What a rewrite makes (a call, an assignment) then compiles without a walk of the whole
    tree (``ast.fix_missing_locations`` of the module).

    Examples
    --------
    >>> at = ast.parse("\n\ny = 2").body[0]
    >>> made = located(ast.Expr(value=ast.Name(id="y", ctx=ast.Load())), at)
    >>> made.lineno, made.value.lineno
    (3, 3)
    """
    return ast.fix_missing_locations(ast.copy_location(made, at))


def module_tree(filename: str) -> ast.Module | None:
    """Return the syntax tree of the file *filename* (parsed anew), or None.

    Examples
    --------
    >>> module_tree("<no such file>") is None
    True
    """
    lines = _lines(filename)
    if not lines:
        return None
    try:
        return ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return None


def _lines(filename: str) -> list[str]:
    linecache.checkcache(filename)  # a file edited since: read again
    return linecache.getlines(filename)


def _functions(filename: str) -> dict[tuple[int, str], Any]:
    """Return the ``def`` nodes of the file *filename* by (first line, name)."""
    lines = _lines(filename)
    known = _FILES.get(filename)
    if known is not None and known[0] is lines:
        return known[1]
    functions: dict[tuple[int, str], Any] = {}
    tree = module_tree(filename) if lines else None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef):
            # a decorated function's code starts at its first decorator
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            functions[first, node.name] = node
    if len(_FILES) >= 256:
        _FILES.clear()
    _FILES[filename] = (lines, functions)
    return functions

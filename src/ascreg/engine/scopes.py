"""``with __VEC_SCOPE__:`` blocks made functions, so that a block group can run them per block.

A ``__VEC_SCOPE__`` block is the vector function of an ``@__aicore__`` function written
inline. While a vector launch runs its blocks as one group (:mod:`ascreg.engine.groups`), a
``__simd_vf__`` that cannot run for all the blocks at once (a load outside a batched loop, a
loop that runs eagerly) runs once per block on that block's UB row; an inline block cannot
run again, so it stopped the group. The engine's rewrite of the function therefore turns
each block into a nested function and a call of the scope object's ``run`` with it::

    with __VEC_SCOPE__:              def __ascreg_scope_12__():
        body                             body
                                     __VEC_SCOPE__.run(__ascreg_scope_12__)

which :meth:`ascreg.basic.VecScope.run` runs as the ``with`` block would, and a group as it
runs a VF. Only a block the move leaves meaning the same is made a function: one that neither
returns, yields, awaits nor breaks out of it, declares no ``global`` or ``nonlocal`` name,
calls no ``super()``, and binds no name the rest of the function also uses (the names it
binds become the nested function's own), but for names the rest of the function never reads
(bound before the block, changed in it, dead after it): outside any loop, such a name is
*copied in* (a parameter of the function, its value at the block its default). Other blocks
stay inline, as before.

Examples
--------
>>> import ast
>>> tree = ast.parse('''
... def f(x):
...     with __VEC_SCOPE__:
...         y = x + 1
...     return x
... ''').body[0]
>>> blocks = movable_scopes(tree, "__VEC_SCOPE__"); len(blocks)
1
>>> as_functions(tree, blocks); print(ast.unparse(tree))
def f(x):
<BLANKLINE>
    def __ascreg_scope_3__():
        y = x + 1
    __VEC_SCOPE__.run(__ascreg_scope_3__)
    return x
"""

from __future__ import annotations

import ast
from typing import NamedTuple

_NESTED = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
"""Nodes with a scope of their own (a comprehension's variables are its own too)."""
SCOPE_PREFIX = "__ascreg_scope_"
"""How the functions made of blocks are named (then renamed after their function's code)."""
_LEAVING = (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


class Movable(NamedTuple):
    """A block that may become a function, the names it copies in and those it keeps.

    Both are names the rest of the function only binds: the block reads a *copied* one before
    binding it (its value at the block is the function's default), a *kept* one it binds
    first (its own local).
    """

    block: ast.With
    copied: tuple[str, ...]
    kept: tuple[str, ...]


def movable_scopes(definition: ast.FunctionDef, spelling: str) -> list[Movable]:
    """Return the ``with <spelling>:`` blocks of *definition* that may become functions.

    A block may when it leaves only through its end and each name it binds is its own: the
    rest of the function uses it only inside other such blocks, each of which binds it before
    reading it (two blocks declaring the same registers, as two C++ scopes do), or only binds
    it and the block is in no loop (:func:`_only_bound`).
    """
    if any(isinstance(node, ast.Global | ast.Nonlocal) for node in _own_nodes(definition.body)):
        return []  # (a nested function could not share its names)
    scopes = [
        stmt
        for holder in _statement_lists(definition)
        for stmt in holder
        if isinstance(stmt, ast.With) and _is_scope(stmt, spelling)
    ]
    nested = set().union(*map(_nodes_of, scopes))  # (a scope inside a scope)
    blocks = [block for block in scopes if id(block) not in nested and _self_contained(block)]
    facts = _Facts.of(definition)
    while True:  # dropping a block may make another's names shared: until none changes
        found = [_movable(block, blocks, definition, facts) for block in blocks]
        kept = [movable for movable in found if movable is not None]
        if len(kept) == len(blocks):
            return kept
        blocks = [movable.block for movable in kept]


def as_functions(definition: ast.FunctionDef, movables: list[Movable]) -> None:
    """Replace each block of *movables* (:func:`movable_scopes`) by a function and its run.

    The blocks may have been rewritten since they were found (the engine's loop rewrite):
    a name their code now binds that the rest of the function uses is one the rewrite rebinds
    and puts back (a flattened loop's rows), which the function shares (``nonlocal``); the
    names a block copies in are the function's parameters.
    """
    if not movables:  # (a VF: no scope to move; no walk of its rewritten tree)
        return
    wanted = {id(movable.block): movable for movable in movables}
    outside = _used_outside_all([movable.block for movable in movables], definition)
    for holder in _statement_lists(definition):
        for k in reversed(range(len(holder))):
            block = holder[k]
            if id(block) in wanted:
                assert isinstance(block, ast.With)
                _, copied, kept = wanted[id(block)]
                shared = sorted(_bound(block.body) & outside - {*copied, *kept})
                holder[k : k + 1] = _as_function(block, shared, copied)


def _statement_lists(definition: ast.FunctionDef) -> list[list[ast.stmt]]:
    """Return every statement list of *definition*'s own code (not of nested definitions)."""
    found: list[list[ast.stmt]] = []
    pending: list[ast.AST] = [definition]
    while pending:
        node = pending.pop()
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                found.append(stmts)
        pending.extend(
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
            and not isinstance(child, _NESTED)
        )
    return found


def _is_scope(stmt: ast.stmt, spelling: str) -> bool:
    if not isinstance(stmt, ast.With) or len(stmt.items) != 1:
        return False
    item = stmt.items[0]
    return spelled(item.context_expr) == spelling and item.optional_vars is None


def spelled(expr: ast.expr) -> str | None:
    """Return the name *expr* spells: ``x`` of ``x`` or of ``a.x``, else None.

    Examples
    --------
    >>> spelled(ast.parse("MicroAPI.__VEC_SCOPE__", mode="eval").body)
    '__VEC_SCOPE__'
    """
    if isinstance(expr, ast.Name):
        return expr.id
    return expr.attr if isinstance(expr, ast.Attribute) else None


def parameters(tree: ast.AST) -> list[ast.arg]:
    """Return the parameters of a function or lambda node (none for other nodes).

    Examples
    --------
    >>> [a.arg for a in parameters(ast.parse("def f(a, /, b, *c, d, **e): pass").body[0])]
    ['a', 'b', 'd', 'c', 'e']
    """
    args = getattr(tree, "args", None)
    if not isinstance(args, ast.arguments):
        return []
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _self_contained(block: ast.With) -> bool:
    """Tell whether *block*'s body leaves only through its end (no return, yield, break...)."""
    inside = _own_nodes(block.body)
    if any(isinstance(node, _LEAVING) for node in inside):
        return False
    if any(isinstance(node, ast.Name) and node.id == "super" for node in inside):
        return False
    return not _escaping_jumps(block.body)


class _Facts(NamedTuple):
    """What :func:`_movable` asks of the whole function, worked out once."""

    looped: set[int]
    """The nodes inside the function's own loops."""
    params: set[str]
    """Its parameters' names."""
    updated: set[int]
    """The targets of its augmented assignments (``x += 1`` reads ``x``)."""

    @classmethod
    def of(cls, definition: ast.FunctionDef) -> _Facts:
        return cls(
            {id(n) for loop in _own_loops(definition) for n in ast.walk(loop)},
            {param.arg for param in parameters(definition)},
            {id(n.target) for n in ast.walk(definition) if isinstance(n, ast.AugAssign)},
        )


def _movable(
    block: ast.With, blocks: list[ast.With], definition: ast.FunctionDef, facts: _Facts
) -> Movable | None:
    """Return *block* as a :class:`Movable` if every name it binds is its own, else None.

    See :func:`movable_scopes`.
    """
    shared = _bound(block.body) & _used_outside_all([block], definition)
    mine = _nodes_of(block)
    owners = {node: other for other in blocks if other is not block for node in _nodes_of(other)}
    copied: list[str] = []
    kept: list[str] = []
    for name in sorted(shared):
        uses = [node for node in uses_of(definition, name) if id(node) not in mine]
        if id(block) not in facts.looped and _only_bound(uses, owners, facts.updated):
            # (each run starts from the value the block would have seen)
            (copied if _reads_first(block.body, name) else kept).append(name)
        elif (
            name in facts.params
            or _reads_first(block.body, name)
            or not _declared_again(name, uses, owners)
        ):
            return None
    return Movable(block, tuple(copied), tuple(kept))


def _only_bound(uses: list[ast.Name], owners: dict[int, ast.With], updated: set[int]) -> bool:
    """Tell whether *uses* (outside the block) only bind their name, none in another block.

    A name the function's code only binds (never reads: ``x += 1`` reads) may be copied into
    a block that changes it, the block being in no loop of the function.
    """
    return all(
        isinstance(node.ctx, ast.Store) and id(node) not in owners and id(node) not in updated
        for node in uses
    )


def _declared_again(name: str, uses: list[ast.Name], owners: dict[int, ast.With]) -> bool:
    """Tell whether each use of *name* outside the block is in a block that binds it first."""
    for node in uses:
        owner = owners.get(id(node))
        if owner is None:
            return False  # used by the function's own code
        if name not in _bound(owner.body) or _reads_first(owner.body, name):
            return False  # another block reads what this one left
    return True


def _own_loops(definition: ast.FunctionDef) -> list[ast.AST]:
    """Return the loops of *definition*'s own code (not of nested definitions)."""
    return [node for node in _own_nodes(definition.body) if isinstance(node, _LOOPS)]


def _nodes_of(block: ast.With) -> set[int]:
    return {id(node) for stmt in block.body for node in ast.walk(stmt)}


def uses_of(node: ast.AST, name: str) -> list[ast.Name]:
    """Return the ``Name`` nodes spelling *name* in *node* (itself and everything under it).

    Examples
    --------
    >>> len(uses_of(ast.parse("x = x + y"), "x"))
    2
    """
    return [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name]


def _reads_first(stmts: list[ast.stmt], name: str) -> bool:
    """Tell whether running *stmts* may read *name* before binding it (in their own scope).

    Statements run in order; a binding counts after its value is computed; a branch or loop
    body is read with what was bound before it, and what it binds is not counted after it
    (it may not run).
    """
    for stmt in stmts:
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            if stmt.value is not None and _reads(stmt.value, name):
                return True
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(_binds(target, name) for target in targets):
                return False
            if any(_reads(target, name) for target in targets):  # (an item or attribute store)
                return True
        elif isinstance(stmt, ast.AugAssign):
            if _binds(stmt.target, name) or _reads(stmt, name):
                return True  # (x += 1 reads x)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            if _reads(stmt.iter, name):
                return True
            if not _binds(stmt.target, name) and _reads_first(stmt.body, name):
                return True
            if _reads_first(stmt.orelse, name):
                return True
        elif isinstance(stmt, ast.If | ast.While):
            if _reads(stmt.test, name):
                return True
            if _reads_first(stmt.body, name) or _reads_first(stmt.orelse, name):
                return True
        elif isinstance(stmt, ast.With):
            if any(_reads(item, name) for item in stmt.items):
                return True
            if _reads_first(stmt.body, name):
                return True
        elif _reads(stmt, name):  # anything else (a call, a nested definition...)
            return True
    return False


def _reads(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Store)
        for n in ast.walk(node)
    )


def _binds(target: ast.AST, name: str) -> bool:
    """Tell whether the assignment target *target* binds *name* itself (not an item of it)."""
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, ast.Tuple | ast.List):
        return any(_binds(element, name) for element in target.elts)
    if isinstance(target, ast.Starred):
        return _binds(target.value, name)
    return False


def _own_nodes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """Return the nodes of *stmts* outside nested definitions (which are listed themselves)."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(stmts)
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, _NESTED):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _escaping_jumps(stmts: list[ast.stmt]) -> bool:
    """Tell whether a ``break`` or ``continue`` in *stmts* leaves them (no loop of theirs holds it)."""
    pending: list[ast.AST] = list(stmts)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Break | ast.Continue):
            return True
        if isinstance(node, _NESTED):
            continue
        if isinstance(node, _LOOPS):
            pending.extend(node.orelse)  # (a loop's own body holds its jumps)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def _bound(stmts: list[ast.stmt]) -> set[str]:
    """Return the names *stmts* bind in their own scope.

    Assigned, deleted, imported, caught (``except ... as``), defined or matched.
    """
    bound: set[str] = set()
    for node in _own_nodes(stmts):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.MatchMapping):
            bound.update([node.rest] if node.rest else [])
        else:
            name = getattr(node, "name", None)  # a def, a class, except ... as, a match capture
            if isinstance(name, str) and not isinstance(node, ast.alias):
                bound.add(name)
    return bound


def _used_outside_all(blocks: list[ast.With], definition: ast.FunctionDef) -> set[str]:
    """Return the names *definition* mentions outside all *blocks*, its parameters too."""
    within = set().union(*map(_nodes_of, blocks))
    return {param.arg for param in parameters(definition)} | {
        node.id
        for node in ast.walk(definition)
        if isinstance(node, ast.Name) and id(node) not in within
    }


def _as_function(block: ast.With, shared: list[str], copied: tuple[str, ...]) -> list[ast.stmt]:
    """Return ``def __ascreg_scope_<line>__(): body`` and ``<scope>.run(it)`` for *block*.

    *shared*: names the function binds as the enclosing function's own (``nonlocal``);
    *copied*: names it copies in (``def f(name=name)``: its own, from the value at the block).
    """
    name = f"{SCOPE_PREFIX}{block.lineno}__"
    function = ast.parse(f"def {name}({''.join(f'{c}={c}, ' for c in copied)}): pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    function.body = [ast.Nonlocal(names=shared)] if shared else []
    function.body += block.body
    run = ast.Attribute(value=block.items[0].context_expr, attr="run", ctx=ast.Load())
    call = ast.Expr(value=ast.Call(func=run, args=[ast.Name(id=name, ctx=ast.Load())], keywords=[]))
    ast.copy_location(function, block)
    line = ast.Pass(  # the run is the with statement's own line (a profile's VF, a traceback)
        lineno=block.lineno,
        col_offset=block.col_offset,
        end_lineno=block.lineno,
        end_col_offset=block.col_offset + len("with"),
    )
    for node in ast.walk(call):
        ast.copy_location(node, line)
    return [function, call]

"""Branches on per-block values in a group: a tail block's ``if`` that only sets values.

Production kernels give their last block other sizes, with a conditional expression
(``blockLen = tailFactor if blockIdx == numCore - 1 else blockFactor``) or an ``if`` statement
whose branches assign a few names and attributes. In a group the test is a
:class:`~ascreg.engine.groups.values.BlockLanes` of truth values, and Python's ``if`` needs one:
the group would stop before the tail block (:class:`Divergent`), which would then run alone and
pay the kernel's per-call costs a second time, often for the same sizes.

While a group runs, the kernel's functions run a *twin* of their code (:func:`twins`): compiled
from their source with each conditional expression, and each ``if`` statement whose branches
only assign names or attributes of names from expressions that call nothing, asking
:func:`truth` first. When the blocks agree, the twin takes the branch Python takes; when they do
not, each branch's expressions are evaluated for every block and each target gets, block by
block, the value of the branch that block takes (:func:`choose`, :func:`where`). Where values
cannot be merged (other than numbers, of different types, or an expression that fails for a
block), the group stops as before (:class:`Divergent`). Nothing else in the code changes; the
first group of every kernel is checked against its blocks run one at a time.

Examples
--------
>>> import numpy as np
>>> from ascreg.engine.groups.values import BlockLanes
>>> tail = BlockLanes(np.arange(4)) == 3
>>> choose(tail, lambda: 96, lambda: 128).values.tolist()
[128, 128, 128, 96]
>>> choose(tail, lambda: 128, lambda: 128)
128
"""

from __future__ import annotations

import ast
import contextlib
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg.engine import loops, source
from ascreg.engine.groups.values import BlockLanes, Divergent, per_block

_NAMES = {"truth": "__ascreg_truth__", "where": "__ascreg_where__", "choose": "__ascreg_choose__"}
"""The names the twins call the helpers by (put into the functions' module globals)."""
_IMPURE = (
    ast.Call, ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.ListComp,
    ast.SetComp, ast.DictComp, ast.GeneratorExp,
)  # fmt: skip
"""Expression nodes a branch's expressions must not hold: evaluating them could act."""
_NUMBERS = (int, float, np.integer, np.floating)


def truth(value: Any) -> Any:
    """Return ``bool(value)``, or for blocks that disagree the lanes of their truth values.

    Examples
    --------
    >>> truth(BlockLanes(np.array([2, 2])) > 1), truth(BlockLanes(np.array([0, 2])) > 1)
    (True, BlockLanes([False, True]))
    """
    if not isinstance(value, BlockLanes):
        return bool(value)
    truth = value.values.astype(bool)
    if (truth == truth[0]).all():
        return bool(truth[0])
    return BlockLanes(truth)


def choose(condition: Any, taken: Callable[[], Any], other: Callable[[], Any]) -> Any:
    """``taken() if condition else other()``, block by block where the blocks disagree."""
    agreed = truth(condition)
    if agreed is True:
        return taken()
    if agreed is False:
        return other()
    return where(agreed, taken, other)


def where(truth: BlockLanes, taken: Callable[[], Any], other: Callable[[], Any]) -> Any:
    """Return *taken*'s value for the blocks *truth* holds for, *other*'s for the rest.

    One value when every block has the same; per-block numbers as :class:`BlockLanes`;
    :class:`Divergent` when the values cannot be merged (or one cannot be had for every block).
    """
    try:
        new, old = taken(), other()
    except Exception as error:  # e.g. a name the other branch never made, a zero divisor
        raise _split(truth) from error
    if new is old or (type(new) is type(old) and isinstance(new, _NUMBERS) and new == old):
        return new
    kinds = {_kind(new), _kind(old)}
    if len(kinds) != 1 or None in kinds:
        raise _split(truth)
    MERGED.append(truth.values == truth.values[0])
    return BlockLanes(np.where(truth.values, per_block(new), per_block(old)))


MERGED: list[Any] = []
"""Per merge of different values in the running group: which blocks took the first's branch.

A call that cannot take per-block values where they are merged stops the group; it then
splits where the first merge did, as it would have at the branch (:func:`split_at_merge`)."""


def split_at_merge(error: BaseException) -> BaseException:
    """Return the :class:`Divergent` of the group's first merge for *error*, or *error*.

    Examples
    --------
    >>> MERGED[:] = [np.array([True, False])]
    >>> split_at_merge(TypeError("an int, please")).agree.tolist()
    [True, False]
    >>> MERGED.clear()
    """
    if MERGED and not isinstance(error, Divergent):
        split = Divergent("a branch whose values a later call takes as one", MERGED[0])
        split.__cause__ = error
        return split
    return error


def _kind(value: Any) -> str | None:
    """Return ``'i'`` or ``'f'`` for an integral or a float value (lanes or one), else None."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, BlockLanes):
        kind = value.values.dtype.kind
        return "i" if kind in "iu" else "f" if kind == "f" else None
    if isinstance(value, int | np.integer):
        return "i"
    return "f" if isinstance(value, float | np.floating) else None


def _split(truth: BlockLanes) -> Divergent:
    values = truth.values
    return Divergent("a branch", values == values[0])


# -- the twins ------------------------------------------------------------------------------------

_TWINS: dict[Any, types.CodeType | None] = {}
"""Per function code: its twin's code, or None when it has no branch to rewrite (or cannot)."""


@contextlib.contextmanager
def twins(functions: list[types.FunctionType]) -> Iterator[None]:
    """Run *functions* with their twins' code inside the ``with`` block.

    Examples
    --------
    >>> def size(tail):
    ...     return 96 if tail else 128
    >>> with twins([size]):
    ...     size(BlockLanes(np.arange(3)) == 2).values.tolist()
    [128, 128, 96]
    >>> size(False)
    128
    """
    swapped = []
    for func in functions:
        twin = twin_code(func)
        if twin is not None:
            func.__globals__.update({name: globals()[helper] for helper, name in _NAMES.items()})
            swapped.append((func, func.__code__))
            func.__code__ = twin
    try:
        yield
    finally:
        for func, code in swapped:
            func.__code__ = code


def twin_code(func: types.FunctionType) -> types.CodeType | None:
    """Return the code of *func*'s twin, or None when it has no branch to rewrite."""
    code = func.__code__
    if code not in _TWINS:
        _TWINS[code] = _compile_twin(func)
    return _TWINS[code]


def _compile_twin(func: types.FunctionType) -> types.CodeType | None:
    """Rewrite *func*'s source (as the batched loops' rewrite reads and compiles it)."""
    parsed = loops._source(func)
    if parsed is None:
        return None
    rewriter = _Rewriter()
    definition = rewriter.visit(parsed[0])
    if not rewriter.rewritten:
        return None
    try:
        twin: types.CodeType = loops._compile(func, definition, {}).__code__
    except (SyntaxError, ValueError):
        return None
    return twin if twin.co_freevars == func.__code__.co_freevars else None


def _pure(*nodes: ast.AST) -> bool:
    return not any(isinstance(n, _IMPURE) for node in nodes for n in ast.walk(node))


def _target(node: ast.AST) -> bool:
    """Say whether *node* is a name, or an attribute of a name (``self.size``)."""
    return isinstance(node, ast.Name) or (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    )


def _assignments(body: list[ast.stmt]) -> list[tuple[ast.expr, ast.expr]] | None:
    """Return a branch's ``(target, value)`` pairs, or None when it does more than assign."""
    pairs: list[tuple[ast.expr, ast.expr]] = []
    for stmt in body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _target(stmt.targets[0]):
            pairs.append((stmt.targets[0], stmt.value))
        elif isinstance(stmt, ast.AugAssign) and _target(stmt.target):
            old = _load(stmt.target)
            pairs.append((stmt.target, ast.BinOp(left=old, op=stmt.op, right=stmt.value)))
        else:
            return None
        if not _pure(pairs[-1][1]):
            return None
    return pairs


def _load(target: ast.expr) -> ast.expr:
    """Return *target* as read (a copy of the node with a Load context)."""
    node = ast.parse(ast.unparse(target), mode="eval").body
    return ast.copy_location(node, target)


def _call(helper: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(id=_NAMES[helper], ctx=ast.Load()), args=list(args), keywords=[])


def _thunk(value: ast.expr) -> ast.Lambda:
    arguments = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.Lambda(args=arguments, body=value)


class _Rewriter(ast.NodeTransformer):
    """Rewrite the conditional expressions and the assigning ``if`` statements of a function."""

    def __init__(self) -> None:
        self.rewritten = 0

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if not _pure(node.body, node.orelse):
            return node
        self.rewritten += 1
        call = _call("choose", node.test, _thunk(node.body), _thunk(node.orelse))
        return source.located(call, node)

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        taken, other = _assignments(node.body), _assignments(node.orelse)
        if taken is None or other is None:
            return node
        self.rewritten += 1
        truth = f"__ascreg_truth{self.rewritten}__"
        # truth() once; then the branch Python takes, or both merged block by block
        shape = ast.parse(
            f"{truth} = test\nif {truth} is True: pass\nelif {truth} is False: pass\nelse: pass"
        ).body
        for part in (n for statement in shape for n in ast.walk(statement)):
            ast.copy_location(part, node)  # the template's lines are the if statement's
        ask, branches = shape
        assert isinstance(ask, ast.Assign) and isinstance(branches, ast.If)
        ask.value = source.located(_call("truth", node.test), node)
        either = branches.orelse[0]
        assert isinstance(either, ast.If)
        branches.body = node.body
        either.body = node.orelse or either.body
        merged = [_merge(truth, target, value, True) for target, value in taken]
        merged += [_merge(truth, target, value, False) for target, value in other]
        either.orelse = list(merged) or either.orelse
        return shape


def _merge(truth: str, target: ast.expr, value: ast.expr, taken: bool) -> ast.stmt:
    """``target = where(truth, value, target)`` (or, for the other branch, the two swapped)."""
    new, old = _thunk(value), _thunk(_load(target))
    pair = (new, old) if taken else (old, new)
    merged = ast.Assign(
        targets=[target], value=_call("where", ast.Name(id=truth, ctx=ast.Load()), *pair)
    )
    return source.located(merged, target)

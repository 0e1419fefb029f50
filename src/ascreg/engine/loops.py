"""Which loops of a ``__simd_vf__`` function may run batched, and the rewritten function.

The same holds for the loops inside the ``with __VEC_SCOPE__:`` blocks of an ``@__aicore__``
function (:func:`batched` with ``scoped=True``: the blocks are its vector functions, the rest
of it host code that runs as written).

A ``for NAME in range(...)`` loop of a VF is a *candidate* for batched execution
(:mod:`ascreg.engine.batch`) when its body, read once from the syntax tree, is register,
mask, pointer and index code whose Python control flow is the same in every iteration:

* every statement is an assignment to plain names, an expression, ``pass``, an ``if`` or a
  nested ``for`` over ``range`` built of such statements (no ``while``, ``break``,
  ``continue``, ``return``, ``try``, ``with``, ``del``, ``assert``); a nested loop runs
  flattened into the batched one, outer x inner rows (:mod:`ascreg.engine.nested`), or, when
  its iterations carry a register (an accumulator), in order inside it (as one chain when
  the op's row declares it, :mod:`ascreg.engine.chains`), and an ``if`` on a per-iteration
  value stops the batch at run time; an ``if`` on a template's type test (``U is complex32``:
  two classes the closure or module names) is decided once, only its branch counts;
* every call is an ascreg op (a row of ``ascreg._spec``; named by the module, or by the
  closure: a factory's op), a register, mask or ``Ref``
  constructor, a numpy scalar type or ``float``/``int``/``bool`` (``np.float32(1.0)``),
  ``min``/``max``/``abs``, ``range`` (a nested loop's), a C cast to an ascreg scalar
  (``float32_t(1)``, ``uint32_t(i)``), or a helper whose own body follows the same rules (it
  runs as part of the body): a ``__simd_callee__`` or ``__aicore__`` function (of a template,
  its generic body), or an ``__aicore__`` method of the class of the method the loop is in
  (``self.Load(...)``, a class a factory made too); a ``print``, a call into other user code,
  a method call such as ``list.append`` or ``reg.set``, a numpy function all mean eager;
* a comprehension only makes values: ``(RegTensor[T]() for _ in range(4))``, constructors
  over ``range`` loops without conditions;
* no Python variable is read before the body assigns it and assigned later (a loop-carried
  Python value such as ``total += 1``), and no ``Ref``'s ``.value`` is read or assigned. A name
  only a branch assigns (a template flag's temporary) is left after the loop as the eager run
  leaves it: the last iteration's value, or as before the loop when no iteration assigned it.

Run-time checks (loop-carried registers, memory shared between iterations, control flow on the
loop index, ops whose batching rule does not take the call, errors) make
:mod:`~ascreg.engine.batch` undo the attempt and run the candidate eagerly. The analysis runs
once per function (the first call). Every loop gets a :class:`~ascreg.engine.sites.Site`: a
loop that runs eagerly says so once with an :class:`~ascreg.errors.EagerLoopWarning`, and
:func:`explain` lists every loop's decision and what its runs did.

Examples
--------
>>> from ascreg import Reg, uint16_t
>>> def vf(dst, src, n):
...     r = Reg.RegTensor[uint16_t]()
...     for i in range(n):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.StoreAlign(dst + i * 128, r, Reg.CreateMask[uint16_t]())
...     for i in range(n):
...         print(i)
>>> for line in explain(vf): print(line)
vf line 3: batched when the run-time checks pass
vf line 6: eager: calls print, which is not an ascreg operation
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
import types
import typing
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar
from ascreg.engine import batch, batching, plans, source
from ascreg.engine.scopes import (
    SCOPE_PREFIX,
    as_functions,
    movable_scopes,
    parameters,
    spelled,
    uses_of,
)
from ascreg.engine.sites import Site
from ascreg.errors import (
    CALL_MARKER,
    FORWARDER_MARKER,
    PURE_MARKER,
    PURE_METHODS,
    EagerLoopWarning,
)
from ascreg.machine.kernel import CORE_ATTR, SCOPED_CODES
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.machine.template import TemplateFunction

SAFE_BUILTINS = frozenset({int, float, bool, min, max, abs})
"""Builtins a batched body may call (on a loop index they raise ``Fallback``, not a wrong value)."""
SIMPLE_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)
"""The simple statements of a batchable loop body (``if`` and ``for`` are checked inside)."""
CALLEE_KIND = "simd_callee"
"""The mark ``__simd_callee__`` sets (``__ascreg_kind__``): a helper that runs in the body."""
MAX_CALLEE_DEPTH = 4
"""Helpers calling helpers deeper than this make the loop eager."""
WHOLE = "__ascreg_whole__"
"""The name under which the rewritten function reaches :meth:`~ascreg.engine.plans.Whole.start`."""
HELPER = "__ascreg_batch__"
"""The name under which the rewritten function reaches :func:`~ascreg.engine.plans.start`."""
REST = "__ascreg_rest__"
"""The rewrite's name of :func:`~ascreg.engine.plans.rest` (the iterations after a split)."""
EAGER = "__ascreg_eager__"
"""The name under which a loop that never batches tells its site it runs (eagerly)."""
BOUND = "__ascreg_bound__"
"""The rewrite's name of :func:`_bound_or_unbound` (a name the body may leave unassigned)."""
UNBOUND_NAME = "__ascreg_unbound__"
"""The rewrite's name of :data:`~ascreg.engine.batch.UNBOUND`."""
ASSIGN = "__ascreg_assign__"
"""The rewrite's name of :func:`~ascreg.engine.batching.assign_value` (``ref.value = x``)."""
PURE = "__ascreg_pure__"
"""The rewrite's name of :func:`~ascreg.engine.batching.pure_method` (``x.GetPhyAddr()``)."""


class _Loop:
    """The decision about one ``for`` loop: batchable or why not, what the body assigns and reads."""

    def __init__(self, node: ast.For, where: str) -> None:
        self.node = node
        self.where = where
        self.reason: str | None = None
        self.assigned: list[str] = []
        self.maybe: list[str] = []
        """The assigned names a run of the body may leave unassigned (a branch's own)."""
        self.inputs: list[str] | None = None
        """The names the body reads and never assigns (what it takes from outside), sorted;
        None when a call in the body is not an op's own entry point (then no plan is recorded,
        :mod:`ascreg.engine.plans`)."""
        self.local: list[str] = []
        """The inputs that are the enclosing function's local names (a flattened run of the
        loop inside a batched outer one rebinds them, :mod:`ascreg.engine.nested`)."""
        self.extras: tuple[tuple[dict[str, Any], str], ...] = ()
        """The module names the helpers it calls read, as ``(globals, name)`` pairs."""
        self.checked: set[tuple[int, int]] = set()
        """Where the body calls a method checked pure when it runs batched (line, column)."""
        self.assigns_ref = False
        """Whether the body assigns a ``Ref``'s ``.value`` (the batched copy rewrites it)."""
        self.receivers: tuple[tuple[int, tuple[str, ...]], ...] = ()
        """The inputs (by position) whose pure methods the body calls, and those methods."""

    def describe(self) -> str:
        """Return ``"<where>: batched ..."`` or ``"<where>: eager: <reason>"``."""
        if self.reason is None:
            return f"{self.where}: batched when the run-time checks pass"
        return f"{self.where}: eager: {self.reason}"


class _Refusal(Exception):
    pass


def _source(func: Any) -> tuple[ast.FunctionDef, int] | None:
    """Return the syntax tree of *func*'s definition (a copy to rewrite) and its first line."""
    code = getattr(func, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    definition = source.definition(code)
    if definition is None:  # a file linecache cannot read alone (a zip import): ask inspect
        definition = _inspected(code)
    if definition is None:
        return None
    definition.decorator_list = []
    return definition, code.co_firstlineno


def _inspected(code: types.CodeType) -> ast.FunctionDef | None:
    """Return the ``def`` of *code* as ``inspect`` finds it, or None."""
    try:
        lines, first = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, ast.FunctionDef) or definition.name != code.co_name:
        return None  # not the source of this very code (a wrapper, a lambda)
    ast.increment_lineno(tree, first - 1)
    return definition


def _loops(
    func: Callable[..., Any], scoped: bool = False
) -> tuple[ast.FunctionDef, list[_Loop]] | None:
    """Parse *func* and judge each of its ``for`` loops; None when its source is unavailable.

    *scoped*: only the loops inside its ``with __VEC_SCOPE__:`` blocks (the rest is host code).
    """
    parsed = _source(func)
    if parsed is None:
        return None
    definition, _first = parsed
    local = _local_names(definition)
    loops = []
    nodes = _in_vec_scopes(definition) if scoped else ast.walk(definition)
    for node in nodes:
        if isinstance(node, ast.For):
            loop = _Loop(node, f"{func.__name__} line {node.lineno}")
            try:
                _judge(loop, func, local)
            except _Refusal as refusal:
                loop.reason = str(refusal)
            loops.append(loop)
    return definition, loops


VEC_SCOPE = "__VEC_SCOPE__"
"""The name of the ``with`` statement whose body is a vector function (``ascreg.basic``)."""


def _in_vec_scopes(definition: ast.FunctionDef) -> list[ast.AST]:
    """Return the nodes inside the ``with __VEC_SCOPE__:`` blocks of *definition*."""
    found: list[ast.AST] = []
    for node in ast.walk(definition):
        if isinstance(node, ast.With) and any(
            spelled(item.context_expr) == VEC_SCOPE for item in node.items
        ):
            found.extend(n for stmt in node.body for n in ast.walk(stmt))
    return found


def _local_names(definition: ast.FunctionDef) -> set[str]:
    """Return the parameters and the names the function assigns (its locals)."""
    names = {a.arg for a in parameters(definition)}
    for node in ast.walk(definition):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _judge(loop: _Loop, func: Callable[..., Any], local: set[str]) -> None:
    """Fill *loop*'s assigned names, inputs and extras; raise :class:`_Refusal` if it never batches."""
    node = loop.node
    _header(node, func, local)
    assert isinstance(node.target, ast.Name)
    body = _Body(func, local)
    stored = {node.target.id} | _stores(node.body, func, local)
    definite = body.block(node.body, {node.target.id}, stored)
    loop.assigned = [n for n in _ordered_stores(node.body) if n != node.target.id]
    loop.maybe = [n for n in loop.assigned if n not in definite]
    loop.inputs = sorted(body.read - stored) if body.recordable else None
    if loop.inputs is not None:
        receivers = _receivers(body, node.body, loop.inputs)
        loop.inputs = None if receivers is None else loop.inputs
        loop.receivers = receivers or ()
    loop.local = [name for name in loop.inputs or () if name in local]
    loop.extras = tuple(body.extras.values())
    loop.checked = body.checked
    loop.assigns_ref = body.assigns_ref


def _receivers(
    body: _Body, statements: list[ast.stmt], inputs: list[str]
) -> tuple[tuple[int, tuple[str, ...]], ...] | None:
    """Return the inputs whose pure methods the body calls, by position, with those methods.

    None when a plan cannot guard them: the name is assigned in the body, or read there other
    than as the receiver of those calls (a plan's guard compares only what the calls return).
    A name whose only calls are of its own self-free methods (no pure ones) is guarded by its
    class when that is its only use, else it stays an input like any other.
    """
    found = []
    for name, methods in sorted(body.receivers.items()):
        if name not in inputs:
            return None
        uses = (use for statement in statements for use in uses_of(statement, name))
        if any(id(use) not in body.receiver_nodes for use in uses):
            if not methods:  # (only its own methods called: an input as any other)
                continue
            return None
        found.append((inputs.index(name), tuple(sorted(methods))))
    return tuple(found)


def _header(node: ast.For, func: Callable[..., Any], local: set[str]) -> None:
    """Refuse a loop that is not ``for NAME in range(...)`` (no ``else``)."""
    if not isinstance(node.target, ast.Name):
        raise _Refusal("the loop variable is not a plain name")
    if node.orelse:
        raise _Refusal("the loop has an else clause")
    iterator = node.iter
    if not (
        isinstance(iterator, ast.Call)
        and isinstance(iterator.func, ast.Name)
        and iterator.func.id == "range"
        and "range" not in local
        and func.__globals__.get("range", range) is range
        and not iterator.keywords
    ):
        raise _Refusal("it does not iterate over range(...)")


def _stores(body: list[ast.stmt], func: Callable[..., Any], local: set[str]) -> set[str]:
    """Return every name *body* assigns, nested statements included (not a dead branch's)."""
    return set(_ordered_stores(_live(body, func, local)))


def _live(statements: list[ast.stmt], func: Callable[..., Any], local: set[str]) -> list[ast.stmt]:
    """Return *statements* with each ``if`` the analysis decides (:func:`_decided`) as its branch.

    The ``if`` statements of nested loops are kept whole (each loop's own analysis decides
    them).
    """
    live: list[ast.stmt] = []
    for statement in statements:
        if not isinstance(statement, ast.If):
            live.append(statement)
            continue
        truth = _decided(statement.test, func, local)
        if truth is None:
            live.append(statement)
        else:
            live += _live(statement.body if truth else statement.orelse, func, local)
    return live


def _decided(test: ast.expr, func: Callable[..., Any], local: set[str]) -> bool | None:
    """Return the value of an ``if`` test that names two classes, else None.

    ``A is B``, ``A is not B`` (or ``not`` of them), where each side is a name (or a name's
    attribute) the closure or the module binds to a class: a template's type parameter
    (``if U is complex32``, ``if T_in is float32_t``). Such a test has the same value every
    time the function runs, so only its branch's names count (a name the other branch
    assigns is not carried).
    """
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decided(test.operand, func, local)
        return None if inner is None else not inner
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    sides = (test.left, test.comparators[0])
    if not isinstance(test.ops[0], ast.Is | ast.IsNot) or not all(map(_named, sides)):
        return None
    left, right = (_resolve(side, func, local) for side in sides)
    if not (isinstance(left, type) and isinstance(right, type)):
        return None
    return (left is right) is isinstance(test.ops[0], ast.Is)


def _named(expr: ast.expr) -> bool:
    """Say whether *expr* is a name or a chain of attributes of one (no call, no subscript)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name)


def _ordered_stores(body: list[ast.stmt]) -> list[str]:
    own = set().union(*map(_comprehension_names, body))
    found = (
        node.id
        for statement in body
        for node in ast.walk(statement)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in own
    )
    return list(dict.fromkeys(found))


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _comprehension_names(node: ast.AST) -> set[str]:
    """Return the names the comprehensions in *node* bind (each its own, not the function's)."""
    return {
        name.id
        for comp in ast.walk(node)
        if isinstance(comp, _COMPREHENSIONS)
        for generator in comp.generators
        for name in ast.walk(generator.target)
        if isinstance(name, ast.Name)
    }


def _loads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


class _Body:
    """The checks of one loop body (and of the helpers it calls): statements, names and calls.

    ``read`` collects the names the body reads; ``recordable`` turns False when a call is not
    one a plan may record; ``extras`` collects ``(id of namespace, name) -> (namespace, name)``
    of the names read by the helpers the body calls (:func:`_namespace`: their module's,
    closure's or the builtins').
    """

    def __init__(self, func: Callable[..., Any], local: set[str], depth: int = 0) -> None:
        self.func = func
        self.local = local
        self.depth = depth
        self.read: set[str] = set()
        self.recordable = True
        self.extras: dict[tuple[int, str], tuple[dict[str, Any], str]] = {}
        self.checked: set[tuple[int, int]] = set()
        """Where the body calls a method the batched run checks is pure (line, column)."""
        self.assigns_ref = False
        """Whether the body assigns a ``Ref``'s ``.value``."""
        self.receivers: dict[str, set[str]] = {}
        """The names whose pure methods the body calls without arguments, and those methods."""
        self.receiver_nodes: set[int] = set()
        """The ids of the name nodes that are those calls' receivers."""

    # -- statements --

    def block(self, statements: list[ast.stmt], definite: set[str], stored: set[str]) -> set[str]:
        """Check *statements* in order; return the names definitely assigned after them.

        *definite*: the names assigned before them in this iteration; *stored*: every name the
        loop body assigns. A name in *stored* read before it is definitely assigned is
        loop-carried.
        """
        definite = set(definite)
        for statement in statements:
            definite = self.statement(statement, definite, stored)
        return definite

    def statement(self, statement: ast.stmt, definite: set[str], stored: set[str]) -> set[str]:
        if isinstance(statement, ast.For):
            _header(statement, self.func, self.local)
            self.expressions(statement.iter, definite, stored)
            assert isinstance(statement.target, ast.Name)
            self.block(statement.body, definite | {statement.target.id}, stored)
            return definite  # an empty range assigns nothing
        if isinstance(statement, ast.If):
            self.expressions(statement.test, definite, stored)
            truth = _decided(statement.test, self.func, self.local)
            if truth is not None:  # (a template's type test: only its branch ever runs)
                return self.block(statement.body if truth else statement.orelse, definite, stored)
            then = self.block(statement.body, definite, stored)
            other = self.block(statement.orelse, definite, stored)
            return then & other
        if not isinstance(statement, SIMPLE_STATEMENTS):
            raise _Refusal(f"the body has a {type(statement).__name__.lower()} statement")
        targets: list[ast.expr] = []
        ref = _assigned_ref(statement)
        if ref is not None and isinstance(statement, ast.Assign):  # ``ref.value = x``: journaled
            self.assigns_ref = True
            if ref in stored:
                raise _Refusal(f"it assigns {ref}.value, and {ref} is assigned in the body")
            self.carried({ref}, definite, stored)
            self.expressions(statement.value, definite, stored)
            return definite
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
            targets = [statement.target]
        names = [_plain_target(t) for target in targets for t in _elements(target)]
        value = getattr(statement, "value", None)
        if value is not None:
            self.expressions(value, definite, stored)
        if isinstance(statement, ast.AugAssign):
            self.carried(set(names), definite, stored)
        return definite | set(names)

    def carried(self, loads: set[str], definite: set[str], stored: set[str]) -> None:
        """Refuse a name read before this iteration assigns it and assigned in the body."""
        carried = (loads & stored) - definite
        if carried:
            raise _Refusal(f"{sorted(carried)[0]} is read before the body assigns it")
        self.read |= loads

    # -- expressions --

    def expressions(self, expr: ast.expr, definite: set[str], stored: set[str]) -> None:
        """Refuse what a batched body may not contain in *expr*; note the names it reads."""
        self.carried(_loads(expr) - _comprehension_names(expr), definite, stored)
        for node in ast.walk(expr):
            if isinstance(node, ast.Call):
                self.call(node)
            elif isinstance(node, ast.Attribute) and node.attr == "value":
                raise _Refusal("it reads or assigns a Ref's .value")
            elif isinstance(node, ast.ListComp | ast.GeneratorExp) and self.made(node):
                continue  # registers made k at a time: its calls are checked as the walk goes
            elif isinstance(
                node,
                ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
                | ast.Yield | ast.YieldFrom | ast.Await | ast.NamedExpr,
            ):  # fmt: skip
                raise _Refusal(f"the body has a {type(node).__name__} expression")

    def made(self, node: ast.ListComp | ast.GeneratorExp) -> bool:
        """Tell whether *node* only makes values: ``(RegTensor[T]() for _ in range(4))``.

        Each of its loops runs over a ``range`` without a condition, and its element is a
        constructor call (a register, a mask, a ``Ref``, a numpy scalar).
        """
        element = node.elt
        if not isinstance(element, ast.Call):
            return False
        if not _constructs(_resolve(element.func, self.func, self.local)):
            return False
        return all(
            not comp.ifs
            and not comp.is_async
            and isinstance(comp.target, ast.Name)
            and isinstance(comp.iter, ast.Call)
            and _resolve(comp.iter.func, self.func, self.local) is range
            for comp in node.generators
        )

    def call(self, call: ast.Call) -> None:
        """Refuse a call a batched body may not make; note whether a plan may record it.

        A plan records the calls of ops' own entry points (:data:`FORWARDER_MARKER`); a wrapper
        around one (a deprecated spelling, which also warns) is batched but not recorded.
        """
        target = _resolve(call.func, self.func, self.local)
        if target is range:
            return  # a nested loop's range (its header was checked)
        if _scalar_constant(target, call):
            return  # float32_t(1): a constant, the same in every iteration
        helper = _helper(target)
        own = _own_method(call.func, self.func) if helper is None else None
        helper = helper or own
        if helper is not None:
            keeps_out = self.callee(helper, ast.unparse(call.func))
            if own is not None and keeps_out:  # self.method(...): a plan guards self's class
                assert isinstance(call.func, ast.Attribute) and isinstance(
                    call.func.value, ast.Name
                )
                self.receivers.setdefault(call.func.value.id, set())
                self.receiver_nodes.add(id(call.func.value))
            return
        if not _allowed(target):
            if _pure_method(call.func, self.func):  # (a method of a local: parsed only here)
                pass
            elif self.depth == 0 and _maybe_pure(call.func):  # checked when it runs batched
                self.checked.add((call.func.lineno, call.func.col_offset))
            else:
                raise _Refusal(f"calls {ast.unparse(call.func)}, which is not an ascreg operation")
            self.pure_call(call)
            return
        if not _constructs(target):
            marker = getattr(target, FORWARDER_MARKER, None)
            self.recordable &= marker is True and not hasattr(target, "__wrapped__")

    def pure_call(self, call: ast.Call) -> None:
        """Note a pure method's call ``name.method()`` a plan can guard; else no plan is recorded.

        A plan keeps the values the body made from the call's result as constants, so its
        guard compares the result of calling the method again (:meth:`Site.received`): the
        receiver must be a name without arguments to the call, in the body itself.
        """
        func = call.func
        if (
            self.depth == 0
            and isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and not call.args
            and not call.keywords
        ):
            self.receivers.setdefault(func.value.id, set()).add(func.attr)
            self.receiver_nodes.add(id(func.value))
        else:
            self.recordable = False

    def callee(self, helper: Any, spelling: str) -> bool:
        """Check the body of a ``__simd_callee__`` helper, which runs as part of the body.

        Returns whether the helper leaves its first parameter alone: a method that uses
        ``self`` only to call such methods of its own does the same for any instance of its
        class (a plan then guards ``self`` by its class, as a receiver without methods).
        """
        if self.depth >= MAX_CALLEE_DEPTH:
            raise _Refusal(f"calls {spelling}, nested in helpers more than {MAX_CALLEE_DEPTH} deep")
        parsed = _source(helper)
        if parsed is None:
            raise _Refusal(f"calls {spelling}, whose source is unavailable")
        definition = parsed[0]
        local = _local_names(definition)
        inner = _Body(helper, local, self.depth + 1)
        body = definition.body
        if body and isinstance(body[-1], ast.Return):
            last = body[-1]
            body = body[:-1]
            if last.value is not None:
                inner.expressions(last.value, set(local), set())
        try:
            inner.block(body, set(local), set())
        except _Refusal as refusal:
            raise _Refusal(f"calls {spelling}: {refusal}") from None
        self.recordable &= inner.recordable
        self.extras.update(inner.extras)
        for name in sorted(inner.read - local):
            names = _namespace(helper, name)
            self.extras[(id(names), name)] = (names, name)
        first = parameters(definition)[:1]
        uses = uses_of(definition, first[0].arg) if first else []
        return bool(first) and all(id(use) in inner.receiver_nodes for use in uses)


def _namespace(func: types.FunctionType, name: str) -> Any:
    """Return the mapping a plan's guard reads *func*'s free name *name* from, when it runs.

    A closure's variable (a class template's parameter, read by a method the template's
    factory made) from its cell, a module name from the globals, else a builtin's.
    """
    code = func.__code__
    if name in code.co_freevars:
        return _cells(func)
    if name in func.__globals__ or not hasattr(builtins, name):
        return func.__globals__
    return builtins.__dict__


def _cells(func: types.FunctionType) -> _Cells:
    """Return the one :class:`_Cells` of *func* (the same object each time: its identity keys)."""
    found = _CELLS.get(func)
    if found is None:
        found = _CELLS[func] = _Cells(func)
    return found


class _Cells:
    """The closure variables of a function by name, read when looked up (an unset one: KeyError)."""

    def __init__(self, func: types.FunctionType) -> None:
        self.cells = dict(zip(func.__code__.co_freevars, func.__closure__ or (), strict=True))

    def __getitem__(self, name: str) -> Any:
        try:
            return self.cells[name].cell_contents
        except ValueError:  # (an empty cell: the name is not bound yet)
            raise KeyError(name) from None


_CELLS: weakref.WeakKeyDictionary[Any, _Cells] = weakref.WeakKeyDictionary()
"""One :class:`_Cells` per helper (a plan's extras key it by its identity)."""


def _assigned_ref(statement: ast.stmt) -> str | None:
    """Return ``name`` when *statement* is ``name.value = x`` (a ``Ref``'s), else None."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    if (
        isinstance(target, ast.Attribute)
        and target.attr == "value"
        and isinstance(target.value, ast.Name)
    ):
        return target.value.id
    return None


class _Batched(ast.NodeTransformer):
    """Rewrite a batched body's ``name.value = x`` and its run-time-checked method calls.

    ``name.value = x`` becomes ``assign_value(name, x)``; a call of a method checked when it
    runs (at *checked*: line, column) goes through ``pure_method``.
    """

    def __init__(self, checked: set[tuple[int, int]]) -> None:
        self.checked = checked

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        method = node.func
        if not isinstance(method, ast.Attribute):
            return node
        if (method.lineno, method.col_offset) not in self.checked:
            return node
        name = ast.Constant(value=method.attr)
        checker = ast.Name(id=PURE, ctx=ast.Load())
        node.func = ast.Call(func=checker, args=[method.value, name], keywords=[])
        for made in (node.func, checker, name):
            ast.copy_location(made, method)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:
        name = _assigned_ref(node)
        if name is None:
            self.generic_visit(node)
            return node
        self.generic_visit(node)
        target = ast.Name(id=name, ctx=ast.Load())
        function = ast.Name(id=ASSIGN, ctx=ast.Load())
        call = ast.Expr(value=ast.Call(func=function, args=[target, node.value], keywords=[]))
        for made in (call, call.value, function, target):
            ast.copy_location(made, node)
        return call


def _elements(target: ast.expr) -> list[ast.expr]:
    return list(target.elts) if isinstance(target, ast.Tuple | ast.List) else [target]


def _plain_target(target: ast.expr) -> str:
    if not isinstance(target, ast.Name):
        raise _Refusal("it assigns to something other than a plain name")
    return target.id


_MISSING = object()


def _resolve(expr: ast.expr, func: Callable[..., Any], local: set[str]) -> Any:
    """Return the object *expr* names (subscripts dropped), or ``_MISSING``.

    A free name is read from the closure (a factory's parameter) or the module, else it is
    a builtin's.
    """
    if isinstance(expr, ast.Subscript):
        return _resolve(expr.value, func, local)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, func, local)
        return _MISSING if base is _MISSING else getattr(base, expr.attr, _MISSING)
    if isinstance(expr, ast.Name) and expr.id not in local:
        if isinstance(func, types.FunctionType) and expr.id in func.__code__.co_freevars:
            try:  # a factory's (a template's) op, from its cell
                return _cells(func)[expr.id]
            except KeyError:  # (an unset cell)
                return _MISSING
        found = func.__globals__.get(expr.id, _MISSING)
        return getattr(builtins, expr.id, _MISSING) if found is _MISSING else found
    return _MISSING


def _pure_method(expr: ast.expr, func: Callable[..., Any]) -> bool:
    """Return True for ``param.method(...)`` that a batched body may call.

    *param* is a parameter of *func* annotated with a class (``y: UbPtr[int16_t]``) that the
    function never reassigns, and the class's *method* is marked pure (``PURE_MARKER``:
    ``Pointer.cast``).
    """
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return False
    cls = _typed_parameters(func).get(expr.value.id)
    return cls is not None and getattr(getattr(cls, expr.attr, None), PURE_MARKER, False) is True


def _maybe_pure(expr: ast.expr) -> bool:
    """Return True for ``obj.method(...)`` where *method* is the name of a pure method.

    The batched run calls it through :func:`~ascreg.engine.batching.pure_method`, which
    refuses (the loop runs eagerly) unless ``obj``'s method is indeed marked pure.
    """
    return isinstance(expr, ast.Attribute) and expr.attr in PURE_METHODS


def _typed_parameters(func: Callable[..., Any]) -> dict[str, type]:
    """Return the parameters of *func* annotated with a class that its body never assigns.

    The class is the annotation's origin (``UbPtr[T]`` -> ``UbPtr``), by parameter name.
    """
    parsed = _source(func)
    if parsed is None:
        return {}
    definition = parsed[0]
    assigned = {
        node.id
        for node in ast.walk(definition)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }
    found: dict[str, type] = {}
    for name, note in getattr(func, "__annotations__", {}).items():
        if name == "return" or name in assigned:
            continue
        if isinstance(note, str):  # ``from __future__ import annotations``
            try:
                note = eval(
                    note, getattr(func, "__globals__", {})
                )  # (as typing.get_type_hints does)
            except Exception:  # an annotation that does not resolve names no class
                continue
        origin = typing.get_origin(note) or note
        if isinstance(origin, type):
            found[name] = origin
    return found


def _allowed(target: Any) -> bool:
    """Return True for the callables a batched body may call."""
    if target is _MISSING:
        return False
    if isinstance(target, type):  # a class: the register, mask, Ref and scalar constructors
        return _constructs(target)
    return _constructs(target) or isinstance(getattr(target, CALL_MARKER, None), str)


def _helper(target: Any) -> Any:
    """Return the function a loop body may call as part of itself, or None.

    A ``__simd_callee__`` helper, or an ``__aicore__`` function (the C++ ``__aicore__ inline``
    helpers a ``__VEC_SCOPE__`` calls; of a template, its generic body): its own body is checked
    by the same rules.
    """
    if isinstance(target, TemplateFunction):  # its qualifiers apply to each binding
        spelled = {getattr(q, "__name__", "") for q in target.qualifiers}
        return target.func if spelled & {"__aicore__", "__simd_callee__"} else None
    if getattr(target, "__ascreg_kind__", None) == CALLEE_KIND:
        return target
    if getattr(target, CORE_ATTR, None) != "aicore":
        return None
    found = getattr(target, "__wrapped__", target)  # (an @__aicore__ with __VEC_SCOPE__ blocks)
    return found if isinstance(found, types.FunctionType) else None


_OWNERS: weakref.WeakKeyDictionary[Any, type] = weakref.WeakKeyDictionary()
"""The class of a method whose class its module does not name (one a factory made, as for a
C++ class template): given by the call that rewrites it (:func:`batched`), and passed on to
the methods of that class its loops call."""


def _own_method(expr: ast.expr, func: Callable[..., Any]) -> Any:
    """Return the ``__aicore__`` method ``self.name`` of *func*'s class, or None.

    *func* is a method (its first parameter ``self``) of a class its module defines, or of
    the class :data:`_OWNERS` holds for it.
    """
    if not (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
    ):
        return None
    code = getattr(func, "__code__", None)
    if code is None or code.co_varnames[:1] != ("self",):
        return None
    cls = _OWNERS.get(func)
    qualname = getattr(func, "__qualname__", "").split(".")
    if cls is None and len(qualname) == 2:
        cls = getattr(func, "__globals__", {}).get(qualname[0])
    if not isinstance(cls, type):
        return None
    helper = _helper(getattr(cls, expr.attr, None))
    if helper is not None:
        _OWNERS[helper] = cls  # (its own calls of self.name)
    return helper


def _scalar_constant(target: Any, call: ast.Call) -> bool:
    """Say whether *call* is a C cast to an ascreg scalar (``float32_t(-1)``, ``uint32_t(i)``).

    Of a constant it is one value; of the loop index a C-typed index (the batch's
    ``RowInts.__ascreg_map__``), and of anything else an error the eager rerun raises.
    """
    return isinstance(target, type) and issubclass(target, Scalar) and not call.keywords


def _constructs(target: Any) -> bool:
    """Return True for a value constructor: a register, mask, ``Ref`` or numpy scalar class.

    Or one of :data:`SAFE_BUILTINS`.
    """
    if isinstance(target, type):
        return issubclass(target, RegTensor | MaskReg | Ref | np.generic)
    return any(target is b for b in SAFE_BUILTINS)


# -- the whole function ---------------------------------------------------------------------------

_PROLOGUE_NODES = (
    ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.Load, ast.Store,
    ast.operator, ast.unaryop, ast.Call,
)  # fmt: skip
"""What a VF's prologue may be made of (besides the call targets): names, numbers, arithmetic."""


def _whole(
    definition: ast.FunctionDef, loops: list[_Loop], func: Callable[..., Any], local: set[str]
) -> tuple[list[str], list[str]] | None:
    """Return the parameters and global names of a VF a plan may replay whole, else None.

    That is a function whose body, after its docstring, is a *prologue* -- assignments to
    plain names of numbers, arithmetic on names, and register, mask and ``Ref`` constructors
    -- and then one batchable, recordable loop over ``range`` of arithmetic (its last
    statement), with plain parameters and no free variables. Everything such a call does
    before its loop is a pure function of its arguments and the module's names, and nothing
    it makes outlives it (:class:`ascreg.engine.plans.Whole`).
    """
    params = definition.args
    if params.posonlyargs or params.vararg or params.kwarg or params.kwonlyargs:
        return None
    if func.__code__.co_freevars:
        return None
    body = list(definition.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if not body or not isinstance(body[-1], ast.For):
        return None
    loop = next((candidate for candidate in loops if candidate.node is body[-1]), None)
    if loop is None or loop.reason is not None or loop.inputs is None or loop.extras:
        return None
    header = loop.node.iter
    if not all(_pure(arg, func, local) for arg in header.args):  # type: ignore[attr-defined]
        return None
    for statement in body[:-1]:
        if not isinstance(statement, ast.Assign) or not _pure(statement.value, func, local):
            return None
        targets = [t for target in statement.targets for t in _elements(target)]
        if not all(isinstance(t, ast.Name) for t in targets):
            return None  # plain names only
    names = [a.arg for a in params.args]
    read = {
        n.id
        for n in ast.walk(definition)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return names, sorted(read - local)


def _pure(expr: ast.expr, func: Callable[..., Any], local: set[str]) -> bool:
    """Return True for an expression of names, numbers, arithmetic and constructor calls.

    A call's target (``Reg.RegTensor[T]``) may hold any node: it is resolved, not evaluated
    as an operand.
    """
    calls = [node for node in ast.walk(expr) if isinstance(node, ast.Call)]
    targets = {id(node) for call in calls for node in ast.walk(call.func)}
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            if not _constructs(_resolve(node.func, func, local)) or node.keywords:
                return False
        elif not isinstance(node, _PROLOGUE_NODES) and id(node) not in targets:
            return False
    return True


# -- rewriting ------------------------------------------------------------------------------------


def _rewrite(loop: _Loop, key: int) -> list[ast.stmt]:
    """Return the statements that replay or try *loop* batched, else run it eagerly.

    The helper returns the loop's final values when a recorded plan replayed it
    (:mod:`ascreg.engine.plans`; a :class:`~ascreg.engine.plans.Head` when the plan replayed
    the part of a split range that batches), a :class:`~ascreg.engine.batch.Batch` to run the
    body in, or None (eager); an attempt that cannot give the eager result is undone and the
    loop runs eagerly. The iterations after a split part go to :func:`~ascreg.engine.plans.rest`
    (another part in a block group, else eagerly).
    """
    node = loop.node
    assert isinstance(node.target, ast.Name)
    index, rng, attempt = node.target.id, f"__ascreg_range{key}", f"__ascreg_batch{key}"
    inputs = f"__ascreg_inputs{key}"
    targets = ", ".join([index, *loop.assigned]) + ","
    # a name the body may leave unassigned (a branch's own) is read as UNBOUND, then unbound
    values = "".join(
        f"{BOUND}(locals(), {n!r}), " if n in loop.maybe else f"{n}, " for n in loop.assigned
    )
    if loop.inputs is None:
        read = f"{inputs} = None\n"
    else:  # an unbound name is the body's error to raise (eagerly), not the replay's
        names = "".join(f"{n}, " for n in loop.inputs)
        read = f"try:\n  {inputs} = ({names})\nexcept NameError:\n  {inputs} = None\n"
    rebind = restore = ""
    if loop.local:  # a flattened run (inside a batched loop) gives them one row per inner one
        local = ", ".join(loop.local) + ","
        outer = "".join(f"{inputs}[{loop.inputs.index(n)}], " for n in loop.local)  # type: ignore[union-attr]
        rebind = f"    if {attempt}.expanded is not None:\n      {local} = {attempt}.expanded\n"
        restore = f"    if {attempt}.expanded is not None:\n      {local} = {outer}\n"
    before = f"__ascreg_before{key}"
    bound = (index, *loop.assigned)
    # an undone attempt leaves the names the body bound as they were before it: the eager
    # rerun binds them again, or raises before it does (then they must not hold batch values)
    unbind = "".join(  # (the names the batched body left unassigned: as before the loop)
        f"    if {n} is {UNBOUND_NAME}:\n      if {n!r} in {before}:\n"
        f"        {n} = {before}[{n!r}]\n      else:\n        del {n}\n"
        for n in loop.maybe
    )
    put_back = "".join(
        f"    if {n!r} in {before}:\n      {n} = {before}[{n!r}]\n"
        f"    else:\n      try:\n        del {n}\n      except NameError:\n        pass\n"
        for n in bound
    )
    template = (
        f"{rng} = range()\n" + read + f"{attempt} = {HELPER}({key}, {rng}, {inputs})\n"
        f"while {attempt} is not None:\n"
        f" if type({attempt}) is tuple:\n"
        f"  {targets} = {attempt}\n"
        f"  {rng} = range(0)\n"
        f" elif isinstance({attempt}, tuple):\n"  # a plan replayed the head of a split range
        f"  {targets} = {attempt}\n"
        f"  {rng} = {attempt}.rest\n"
        f" else:\n"
        f"  {before} = {{k: v for k, v in locals().items() if k in {bound!r}}}\n"
        f"  while {attempt} is not None:\n"
        f"   try:\n"
        f"    {index} = {attempt}.index\n" + rebind + f"    pass\n"
        f"    {targets} = {attempt}.finish(({values}))\n"
        + restore
        + unbind
        + f"    {rng} = {attempt}.rest\n    break\n"
        f"   except BaseException as __ascreg_error:\n"
        f"    {attempt} = {attempt}.abandon(__ascreg_error)\n"
        + put_back
        + f"  if {attempt} is None:\n"
        f"   break\n"
        f" {attempt} = {REST}({key}, {rng}, {inputs}) if {rng} else None\n"
        f"for {index} in {rng}:\n"
        f"  pass\n"
    )
    statements = ast.parse(template).body
    for statement in statements:
        for child in ast.walk(statement):
            if hasattr(child, "lineno"):
                ast.copy_location(child, node)
    assign = statements[0]
    assert isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Call)
    assign.value.args = node.iter.args  # type: ignore[attr-defined]
    parts, eager = statements[-2], statements[-1]
    assert isinstance(parts, ast.While) and isinstance(eager, ast.For)
    chosen = parts.body[0]
    assert isinstance(chosen, ast.If)
    head_if = chosen.orelse[0]
    assert isinstance(head_if, ast.If)
    retrying = head_if.orelse[1]
    assert isinstance(retrying, ast.While)
    trial = retrying.body[0]
    assert isinstance(trial, ast.Try)
    at = next(k for k, s in enumerate(trial.body) if isinstance(s, ast.Pass))
    copies = [source.copied(s) for s in node.body]
    if loop.checked or loop.assigns_ref:  # (else the batched copy is the body as written)
        copies = [_Batched(loop.checked).visit(c) for c in copies]
    trial.body[at : at + 1] = copies
    eager.body = node.body
    return statements


class _Replace(ast.NodeTransformer):
    """Rewrite each candidate loop (:func:`_rewrite`); precede the others by their site's call."""

    def __init__(self, loops: dict[int, tuple[int, _Loop]]) -> None:
        self.loops = loops

    def visit_For(self, node: ast.For) -> Any:
        self.generic_visit(node)
        found = self.loops.get(id(node))
        if found is None:
            return node
        key, loop = found
        if loop.reason is None:
            return _rewrite(loop, key)
        told = ast.parse(f"{EAGER}({key})").body[0]
        ast.copy_location(told, node)
        for child in ast.walk(told):
            ast.copy_location(child, node)
        return [told, node]


def batched(
    func: Callable[..., Any], scoped: bool = False, owner: type | None = None
) -> Callable[..., Any]:
    """Return *func* with its batchable loops rewritten (or *func* itself if it has no loop).

    Every loop gets a :class:`~ascreg.engine.sites.Site` (the rewritten function's
    ``__ascreg_sites__``); a loop that never batches tells its site each time it runs, so it
    is counted, and warned about once. A function whose source is unavailable (code given to
    ``exec`` or piped to ``python -``) runs every loop eagerly, which is warned about once.
    *scoped*: *func* is device code whose ``with __VEC_SCOPE__:`` blocks are its vector
    functions; only their loops are rewritten, and the function is never replayed whole.
    *owner*: the class of a method its module does not name (its loops may call its methods).
    """
    if owner is not None:
        _OWNERS[func] = owner
    parsed = _loops(func, scoped) if isinstance(func, types.FunctionType) else None
    if parsed is None or not isinstance(func, types.FunctionType):
        _warn_unavailable(func)
        return func
    definition, loops = parsed
    scopes = movable_scopes(definition, VEC_SCOPE) if scoped else []
    if not loops and not scopes:
        return func
    code = func.__code__
    sites = []
    for loop in loops:
        batch.LOG.debug(loop.describe())
        recordable = loop.inputs is not None and plans.ENABLED
        local = tuple((loop.inputs or []).index(name) for name in loop.local)
        sites.append(Site(loop.where, code.co_filename, loop.node.lineno, loop.reason,
                          recordable, loop.extras, local, loop.receivers))  # fmt: skip
    whole = None if scoped else _whole(definition, loops, func, _local_names(definition))
    helpers: dict[str, Any] = {
        HELPER: lambda key, rng, inputs: plans.start(sites[key], rng, inputs),
        REST: lambda key, rng, inputs: plans.rest(sites[key], rng, inputs),
        EAGER: lambda key: _eager(sites[key]),
        BOUND: _bound_or_unbound,
        UNBOUND_NAME: batch.UNBOUND,
        ASSIGN: batching.assign_value,
        PURE: batching.pure_method,
    }
    if whole is not None:
        params, names = whole
        last = next(k for k, loop in enumerate(loops) if loop.node is definition.body[-1])
        start = plans.Whole(func, sites[last], names).start
        helpers[WHOLE] = start
        replayed = ast.parse(f"if {WHOLE}(({''.join(f'{p}, ' for p in params)})):\n  return None")
        first = definition.body[0]
        documented = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        at = 1 if documented else 0
        definition.body[at:at] = replayed.body
    _Replace({id(loop.node): (key, loop) for key, loop in enumerate(loops)}).visit(definition)
    as_functions(definition, scopes)  # (a group can then run each block per block)
    rewritten = _compile(func, definition, helpers)
    rewritten.__ascreg_sites__ = sites  # type: ignore[attr-defined]
    if scoped:
        SCOPED_CODES.add(rewritten.__code__)
    return rewritten


def _bound_or_unbound(names: dict[str, Any], name: str) -> Any:
    """Return what *name* holds among *names* (a frame's locals), or ``batch.UNBOUND``."""
    return names.get(name, batch.UNBOUND)


def _eager(site: Site) -> None:
    """Tell *site* (a loop that never batches) that it runs: inside a batch, or eagerly."""
    if batch._ACTIVE:
        site.ran("inside")
    elif site.static is not None:
        site.eager(site.static)


_UNAVAILABLE: set[Any] = set()
"""The code objects whose missing source was warned about."""


def _warn_unavailable(func: Any) -> None:
    """Warn once per function that its loops run eagerly because its source is unavailable."""
    code = getattr(func, "__code__", None)
    if code is None or code in _UNAVAILABLE:
        return
    _UNAVAILABLE.add(code)
    name = getattr(func, "__name__", repr(func))
    warnings.warn_explicit(
        f"{name}: its source is unavailable (code given to exec, or piped to python -): "
        "every loop of it runs eagerly, one iteration at a time",
        EagerLoopWarning,
        code.co_filename,
        code.co_firstlineno,
    )


def _compile(
    func: types.FunctionType, definition: ast.FunctionDef, helpers: dict[str, Any]
) -> Callable[..., Any]:
    """Compile the rewritten *definition* with *func*'s globals, closure and defaults.

    A method's private names (``self.__scale``) are mangled as its class body would have
    compiled them (:class:`_Mangled`): compiled here, outside the class, they would not be.
    """
    owner = _owner_class(func)
    if owner:
        definition = _Mangled(owner).visit(definition)
    free = list(func.__code__.co_freevars)
    outer = ast.parse(f"def __ascreg_factory__({', '.join([*free, *helpers])}): pass").body[0]
    assert isinstance(outer, ast.FunctionDef)
    made = ast.Return(value=ast.Name(id=definition.name, ctx=ast.Load()))
    outer.body = [definition, source.located(made, definition)]
    module = ast.Module(body=[outer], type_ignores=[])
    try:  # every node the rewrite made has a location: no walk of the whole tree to add them
        code = compile(module, func.__code__.co_filename, "exec")
    except (TypeError, ValueError):  # a node without one (a required field missing)
        code = compile(ast.fix_missing_locations(module), func.__code__.co_filename, "exec")
    factory = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory.co_consts if isinstance(c, types.CodeType))
    cells = dict(zip(free, func.__closure__ or (), strict=True))
    cells.update({name: types.CellType(helper) for name, helper in helpers.items()})
    inner = _named_scopes(inner, func)
    closure = tuple(cells[name] for name in inner.co_freevars)
    rewritten = types.FunctionType(
        inner, func.__globals__, func.__name__, func.__defaults__, closure
    )
    rewritten.__kwdefaults__ = func.__kwdefaults__
    rewritten.__qualname__ = func.__qualname__
    return rewritten


def _named_scopes(code: types.CodeType, func: types.FunctionType) -> types.CodeType:
    """Return *code* whose ``__VEC_SCOPE__`` block functions bear *func*'s name.

    A profile, a traceback and a warning then name the function the block is written in, as
    before the block became a function (:mod:`ascreg.engine.scopes`).
    """
    consts = tuple(
        const.replace(co_name=func.__name__, co_qualname=func.__qualname__)
        if isinstance(const, types.CodeType) and const.co_name.startswith(SCOPE_PREFIX)
        else const
        for const in code.co_consts
    )
    return code.replace(co_consts=consts) if consts != code.co_consts else code


def _owner_class(func: types.FunctionType) -> str:
    """Return the name of the innermost class *func* is defined in, or "" (none).

    Its qualified name says: a part followed by ``<locals>`` is a function, any other
    enclosing part a class (a function inside a method is mangled by the method's class).

    Examples
    --------
    >>> [_owner_class(type("F", (), {"__qualname__": q})) for q in
    ...  ("K.run", "f.<locals>.K.run", "K.run.<locals>.helper", "f.<locals>.g", "f")]
    ['K', 'K', 'K', '', '']
    """
    parts = func.__qualname__.split(".")[:-1]
    for k in range(len(parts) - 1, -1, -1):
        if parts[k] != "<locals>" and (k + 1 == len(parts) or parts[k + 1] != "<locals>"):
            return parts[k]
    return ""


_INJECTED = "__ascreg"


class _Mangled(ast.NodeTransformer):
    """Rename private names (``__x``, not ``__x__``) to ``_Class__x``, as CPython does.

    Examples
    --------
    >>> tree = ast.parse("self.__scale = __limit + self.size")
    >>> ast.unparse(_Mangled("_Kernel").visit(tree))
    'self._Kernel__scale = _Kernel__limit + self.size'
    """

    def __init__(self, owner: str) -> None:
        self.prefix = "_" + owner.lstrip("_")

    def _private(self, name: str) -> str:
        if self.prefix == "_" or not name.startswith("__") or name.endswith("__"):
            return name  # (a class named only by underscores mangles nothing)
        if name.startswith(_INJECTED):
            return name  # the names the loop rewrite adds (``__ascreg_error``)
        return self.prefix + name

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self._private(node.id)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        node.attr = self._private(node.attr)
        return self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._private(node.arg)
        return self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        if node.arg is not None:
            node.arg = self._private(node.arg)
        return self.generic_visit(node)


def explain(func: Callable[..., Any]) -> list[str]:
    """Return, for each ``for`` loop of the VF *func*, its decision and what its runs did.

    For an ``@__aicore__`` function with ``__VEC_SCOPE__`` blocks: the loops of its blocks.

    The decision is read from the body (batched when the run-time checks pass, or eager and
    why); once the VF has run, each line adds how its loop ran (batched, replayed from a
    recorded plan, inside a batched outer loop, eagerly and why) and the input forms it was
    refused for at run time (:meth:`ascreg.engine.sites.Site.describe`).

    Examples
    --------
    >>> def vf(n):
    ...     total = 0
    ...     for i in range(n):
    ...         total += i
    >>> explain(vf)
    ['vf line 3: eager: total is read before the body assigns it']
    """
    runner = getattr(func, "__ascreg_runner__", None)
    sites = getattr(runner[0], "__ascreg_sites__", None) if runner else None
    if sites is not None:
        return [site.describe() for site in sites]
    target = getattr(func, "__wrapped__", func)
    scoped = target is not func and getattr(func, CORE_ATTR, None) == "aicore"
    parsed = _loops(target, scoped) if isinstance(target, types.FunctionType) else None
    if parsed is None:
        return [f"{getattr(func, '__name__', func)}: source unavailable: every loop runs eagerly"]
    return [loop.describe() for loop in parsed[1]]

"""Which loops of a ``__simd_vf__`` function may run batched, and the rewritten function.

A ``for NAME in range(...)`` loop of a VF is a *candidate* for batched execution
(:mod:`ascreg.engine.batch`) when its body, read once from the syntax tree, is straight-line
register, mask, pointer and index code:

* every statement is an assignment to plain names, an expression that is a call, or ``pass``
  (no ``if``, ``while``, nested ``for``, ``break``, ``continue``, ``return``, ``try``, ``with``,
  ``del``, ``assert``; an outer loop around a batchable inner one runs eagerly itself);
* every call is an ascreg op (a row of ``ascreg._spec``), a register, mask or ``Ref``
  constructor, or ``int``/``min``/``max``/``abs``: a ``print``, a call into user code, a method
  call such as ``list.append`` or ``reg.set``, a numpy call all mean eager;
* no Python variable is read before the body assigns it and assigned later (a loop-carried
  Python value such as ``total += 1``), and no ``Ref``'s ``.value`` is read or assigned.

Run-time checks (loop-carried registers, memory shared between iterations, control flow on the
loop index, ops not known to be row-wise, errors) make :mod:`~ascreg.engine.batch` undo the
attempt and run the candidate eagerly. The analysis runs once per function (the first call);
:func:`explain` lists its decisions.

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
from collections.abc import Callable, Iterator
from typing import Any

from ascreg.engine import batch, plans
from ascreg.errors import CALL_MARKER, FORWARDER_MARKER
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor

SAFE_BUILTINS = frozenset({int, min, max, abs})
"""Builtins a batched body may call (on a loop index they raise ``Fallback``, not a wrong value)."""
ALLOWED_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)
"""The statements of a batchable loop body."""
WHOLE = "__ascreg_whole__"
"""The name under which the rewritten function reaches :meth:`~ascreg.engine.plans.Whole.start`."""
HELPER = "__ascreg_batch__"
"""The name under which the rewritten function reaches :func:`~ascreg.engine.plans.start`."""


class _Loop:
    """The decision about one ``for`` loop: batchable or why not, what the body assigns and reads."""

    def __init__(self, node: ast.For, where: str) -> None:
        self.node = node
        self.where = where
        self.reason: str | None = None
        self.assigned: list[str] = []
        self.inputs: list[str] | None = None
        """The names the body reads and never assigns (what it takes from outside), sorted;
        None when a call in the body is not an op's own entry point (then no plan is recorded,
        :mod:`ascreg.engine.plans`)."""

    def describe(self) -> str:
        """Return ``"<where>: batched ..."`` or ``"<where>: eager: <reason>"``."""
        if self.reason is None:
            return f"{self.where}: batched when the run-time checks pass"
        return f"{self.where}: eager: {self.reason}"


class _Refusal(Exception):
    pass


def _loops(func: Callable[..., Any]) -> tuple[ast.FunctionDef, list[_Loop]] | None:
    """Parse *func* and judge each of its ``for`` loops; None when its source is unavailable."""
    code = getattr(func, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    try:
        lines, first = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, ast.FunctionDef) or definition.name != code.co_name:
        return None  # not the source of this very code (a wrapper, a lambda)
    ast.increment_lineno(tree, first - 1)
    definition.decorator_list = []
    local = _local_names(definition)
    loops = []
    for node in ast.walk(definition):
        if isinstance(node, ast.For):
            loop = _Loop(node, f"{func.__name__} line {node.lineno}")
            try:
                loop.assigned, loop.inputs = _judge(node, func, local)
            except _Refusal as refusal:
                loop.reason = str(refusal)
            loops.append(loop)
    return definition, loops


def _local_names(definition: ast.FunctionDef) -> set[str]:
    """Return the parameters and the names the function assigns (its locals)."""
    args = definition.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    names = {a.arg for a in params}
    for node in ast.walk(definition):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _judge(
    node: ast.For, func: Callable[..., Any], local: set[str]
) -> tuple[list[str], list[str] | None]:
    """Return the names the body assigns and its inputs (see :class:`_Loop`).

    Raises :class:`_Refusal` with the reason when the loop cannot run batched.
    """
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
    assigned: list[str] = [node.target.id]
    read: set[str] = set()
    recordable = True
    for statement in node.body:
        if not isinstance(statement, ALLOWED_STATEMENTS):
            raise _Refusal(f"the body has a {type(statement).__name__.lower()} statement")
        recordable &= _check_expressions(statement, func, local)
        loads, stores = _names(statement)
        carried = loads & set(_stored_names(node.body)) - set(assigned)
        if carried:
            raise _Refusal(f"{sorted(carried)[0]} is read before the body assigns it")
        read |= loads
        assigned += [s for s in stores if s not in assigned]
    inputs = sorted(read - set(assigned)) if recordable else None
    return assigned[1:], inputs


def _stored_names(body: list[ast.stmt]) -> Iterator[str]:
    for statement in body:
        yield from _names(statement)[1]


def _names(statement: ast.stmt) -> tuple[set[str], list[str]]:
    """Return the names *statement* reads and those it assigns."""
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
        targets = [statement.target]
    stores: list[str] = []
    for target in targets:
        elements = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
        for element in elements:
            if not isinstance(element, ast.Name):
                raise _Refusal("it assigns to something other than a plain name")
            stores.append(element.id)
    loads = {
        n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    if isinstance(statement, ast.AugAssign):
        loads |= set(stores)
    return loads, stores


def _check_expressions(statement: ast.stmt, func: Callable[..., Any], local: set[str]) -> bool:
    """Refuse what a batched body may not contain; return False if a call is not recordable."""
    recordable = True
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            recordable &= _check_call(node, func, local)
        elif isinstance(node, ast.Attribute) and node.attr == "value":
            raise _Refusal("it reads or assigns a Ref's .value")
        elif isinstance(
            node,
            ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
            | ast.Yield | ast.YieldFrom | ast.Await | ast.NamedExpr,
        ):  # fmt: skip
            raise _Refusal(f"the body has a {type(node).__name__} expression")
    return recordable


def _check_call(call: ast.Call, func: Callable[..., Any], local: set[str]) -> bool:
    """Refuse a call a batched body may not make; return True if a plan may record it.

    A plan records the calls of ops' own entry points (:data:`FORWARDER_MARKER`); a wrapper
    around one (a deprecated spelling, which also warns) is batched but not recorded.
    """
    target = _resolve(call.func, func, local)
    if not _allowed(target):
        raise _Refusal(f"calls {ast.unparse(call.func)}, which is not an ascreg operation")
    if _constructs(target):
        return True
    return getattr(target, FORWARDER_MARKER, None) is True and not hasattr(target, "__wrapped__")


_MISSING = object()


def _resolve(expr: ast.expr, func: Callable[..., Any], local: set[str]) -> Any:
    """Return the object *expr* names (subscripts dropped), or ``_MISSING``."""
    if isinstance(expr, ast.Subscript):
        return _resolve(expr.value, func, local)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, func, local)
        return _MISSING if base is _MISSING else getattr(base, expr.attr, _MISSING)
    if isinstance(expr, ast.Name) and expr.id not in local:
        found = func.__globals__.get(expr.id, _MISSING)
        return getattr(builtins, expr.id, _MISSING) if found is _MISSING else found
    return _MISSING


def _allowed(target: Any) -> bool:
    """Return True for the callables a batched body may call."""
    if target is _MISSING:
        return False
    if isinstance(target, type):  # a class: only the register, mask and Ref constructors
        return _constructs(target)
    return _constructs(target) or isinstance(getattr(target, CALL_MARKER, None), str)


def _constructs(target: Any) -> bool:
    """Return True for a register, mask or ``Ref`` class, or ``int``/``min``/``max``/``abs``."""
    if isinstance(target, type):
        return issubclass(target, RegTensor | MaskReg | Ref)
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
    if loop is None or loop.reason is not None or loop.inputs is None:
        return None
    header = loop.node.iter
    if not all(_pure(arg, func, local) for arg in header.args):  # type: ignore[attr-defined]
        return None
    for statement in body[:-1]:
        if not isinstance(statement, ast.Assign) or not _pure(statement.value, func, local):
            return None
        try:
            _names(statement)  # plain names only
        except _Refusal:
            return None
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
    (:mod:`ascreg.engine.plans`), a :class:`~ascreg.engine.batch.Batch` to run the body in,
    or None (eager); an attempt that cannot give the eager result is undone and the loop runs
    eagerly.
    """
    node = loop.node
    assert isinstance(node.target, ast.Name)
    index, rng, attempt = node.target.id, f"__ascreg_range{key}", f"__ascreg_batch{key}"
    inputs = f"__ascreg_inputs{key}"
    targets = ", ".join([index, *loop.assigned]) + ","
    values = "".join(f"{n}, " for n in loop.assigned)
    if loop.inputs is None:
        read = f"{inputs} = None\n"
    else:  # an unbound name is the body's error to raise (eagerly), not the replay's
        names = "".join(f"{n}, " for n in loop.inputs)
        read = f"try:\n  {inputs} = ({names})\nexcept NameError:\n  {inputs} = None\n"
    before = f"__ascreg_before{key}"
    bound = (index, *loop.assigned)
    # an undone attempt leaves the names the body bound as they were before it: the eager
    # rerun binds them again, or raises before it does (then they must not hold batch values)
    put_back = "".join(
        f"    if {n!r} in {before}:\n      {n} = {before}[{n!r}]\n"
        f"    else:\n      try:\n        del {n}\n      except NameError:\n        pass\n"
        for n in bound
    )
    template = (
        f"{rng} = range()\n" + read + f"{attempt} = {HELPER}({key}, {rng}, {inputs})\n"
        f"if type({attempt}) is tuple:\n"
        f"  {targets} = {attempt}\n"
        f"elif {attempt} is not None:\n"
        f"  {before} = {{k: v for k, v in locals().items() if k in {bound!r}}}\n"
        f"  try:\n"
        f"    {index} = {attempt}.index\n"
        f"    pass\n"
        f"    {targets} = {attempt}.finish(({values}))\n"
        f"  except BaseException as __ascreg_error:\n"
        f"    {attempt}.abandon(__ascreg_error)\n"
        f"    {attempt} = None\n" + put_back + f"if {attempt} is None:\n"
        f"  for {index} in {rng}:\n"
        f"    pass\n"
    )
    statements = ast.parse(template).body
    for statement in statements:
        for child in ast.walk(statement):
            if hasattr(child, "lineno"):
                ast.copy_location(child, node)
    assign = statements[0]
    assert isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Call)
    assign.value.args = node.iter.args  # type: ignore[attr-defined]
    chosen, eager_if = statements[-2], statements[-1]
    assert isinstance(chosen, ast.If) and isinstance(eager_if, ast.If)
    attempt_if = chosen.orelse[0]
    assert isinstance(attempt_if, ast.If)
    trial = attempt_if.body[1]
    assert isinstance(trial, ast.Try)
    trial.body[1:2] = [_copy(s) for s in node.body]
    eager = eager_if.body[0]
    assert isinstance(eager, ast.For)
    eager.body = node.body
    return statements


def _copy(node: ast.stmt) -> ast.stmt:
    copied: ast.stmt = ast.parse(ast.unparse(node)).body[0]
    for new, old in zip(ast.walk(copied), ast.walk(node), strict=False):
        if hasattr(old, "lineno"):
            ast.copy_location(new, old)
    return copied


class _Replace(ast.NodeTransformer):
    def __init__(self, loops: dict[int, tuple[int, _Loop]]) -> None:
        self.loops = loops

    def visit_For(self, node: ast.For) -> Any:
        self.generic_visit(node)
        found = self.loops.get(id(node))
        return node if found is None else _rewrite(found[1], found[0])


def batched(func: Callable[..., Any]) -> Callable[..., Any]:
    """Return *func* with its batchable loops rewritten (or *func* itself if it has none)."""
    parsed = _loops(func)
    if parsed is None or not isinstance(func, types.FunctionType):
        return func
    definition, loops = parsed
    for loop in loops:
        batch.LOG.debug(loop.describe())
    chosen = {id(loop.node): (key, loop) for key, loop in enumerate(loops) if loop.reason is None}
    if not chosen:
        return func
    sites = [plans.Site(loop.where, loop.inputs is not None) for loop in loops]
    whole = _whole(definition, loops, func, _local_names(definition))
    helpers: dict[str, Callable[..., Any]] = {
        HELPER: lambda key, rng, inputs: plans.start(sites[key], rng, inputs)
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
    _Replace(chosen).visit(definition)
    return _compile(func, definition, helpers)


def _compile(
    func: types.FunctionType, definition: ast.FunctionDef, helpers: dict[str, Callable[..., Any]]
) -> Callable[..., Any]:
    """Compile the rewritten *definition* with *func*'s globals, closure and defaults."""
    free = list(func.__code__.co_freevars)
    outer = ast.parse(f"def __ascreg_factory__({', '.join([*free, *helpers])}): pass").body[0]
    assert isinstance(outer, ast.FunctionDef)
    outer.body = [definition, ast.Return(value=ast.Name(id=definition.name, ctx=ast.Load()))]
    module = ast.Module(body=[outer], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, func.__code__.co_filename, "exec")
    factory = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory.co_consts if isinstance(c, types.CodeType))
    cells = dict(zip(free, func.__closure__ or (), strict=True))
    cells.update({name: types.CellType(helper) for name, helper in helpers.items()})
    closure = tuple(cells[name] for name in inner.co_freevars)
    rewritten = types.FunctionType(
        inner, func.__globals__, func.__name__, func.__defaults__, closure
    )
    rewritten.__kwdefaults__ = func.__kwdefaults__
    rewritten.__qualname__ = func.__qualname__
    return rewritten


def explain(func: Callable[..., Any]) -> list[str]:
    """Return, for each ``for`` loop of *func*, whether it is batched or why it runs eagerly.

    Examples
    --------
    >>> def vf(n):
    ...     total = 0
    ...     for i in range(n):
    ...         total += i
    >>> explain(vf)
    ['vf line 3: eager: total is read before the body assigns it']
    """
    target = getattr(func, "__wrapped__", func)
    parsed = _loops(target)
    if parsed is None:
        return [f"{getattr(func, '__name__', func)}: source unavailable: every loop runs eagerly"]
    return [loop.describe() for loop in parsed[1]]

"""Running the blocks of a vector kernel that only starts a SIMT VF as wide block batches.

A ``__global__ __vector__`` kernel whose whole body is ``asc_vf_call[f](dim3(n), p1, p2, ...)``
(its own parameters, in order) starts the same *n*-thread SIMT function on every block. When
that function is straight-line code that is provably the same per block except for the
global thread index ``threadIdx.x + blockIdx.x * blockDim.x``, a group of blocks can run as one
wide thread group in which ``blockIdx.x`` is a per-lane array: the cost of a Python call per
intrinsic and per memory access is then paid once per group instead of once per block.

What qualifies (decided once per kernel, :func:`batch_plan`): assignments only (no ``if``,
loops, ``return``, conditional expressions, ``and``/``or``); names that are the function's
parameters, its locals, ``threadIdx``/``blockIdx``/``blockDim``/``gridDim`` (``.x`` only) and
lane-wise SIMT math functions and casts to a scalar type (``int32_t(i)``; no warp, sync,
atomic, cache or address-space functions);
``blockIdx`` read only inside ``threadIdx.x + blockIdx.x * blockDim.x``; pointer parameters
used only indexed (``p[i]``). At run time (:func:`run_batched`): the pointers the function
writes point into allocations it does not read, so no block sees another block's writes
earlier than block order would show them; the cross-block race check
(:class:`~ascreg.machine.races.GmRaceCheck`) is applied afterwards to the byte spans each
*block* would have claimed, in block order. Any error, any divergence or any failed condition
undoes the group's writes and runs its blocks one at a time, so results and error messages are
exactly those of block-by-block execution. ``ASCREG_SIMT_BATCH=0`` (or :data:`BATCHING`
``[0] = False``) turns batching off.

Examples
--------
>>> def body(dst, x):
...     i = threadIdx.x + blockIdx.x * blockDim.x
...     dst[i] = x[i] + 1
>>> why_not_batched(body) is None
True
>>> def shared(dst):
...     asc_syncthreads()
>>> why_not_batched(shared)
'it has a statement other than an assignment (Expr)'
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar
from ascreg.engine.simt.masked import tell_once
from ascreg.machine.block import BlockContext
from ascreg.machine.block import block as running_as
from ascreg.machine.memory import GmPtr, Pointer, live_memories
from ascreg.machine.races import GmRaceCheck
from ascreg.machine.simt.engine import (
    _MODE,
    BlockRun,
    Group,
    Journal,
    _check_threads,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    threadIdx,
    wrap_pointer,
)
from ascreg.machine.simt.lanes import STATE, DivergenceSignal, Lanes

BATCHING = [os.environ.get("ASCREG_SIMT_BATCH", "1") != "0"]
"""Whether eligible launches run their blocks in batches (``ASCREG_SIMT_BATCH=0``: never)."""
BATCH_LANES = 8192
"""Threads per batch: a group holds ``max(1, BATCH_LANES // n)`` blocks of *n* threads."""

_INDICES = {"threadIdx": threadIdx, "blockIdx": blockIdx, "blockDim": blockDim, "gridDim": gridDim}
_NOT_LANEWISE = re.compile(r"^__(cvta|is|launch|simt|ASC|asc)")
_MATH = re.compile(
    r"^(__\w+|make_\w+|[a-z0-9]+f|u?(ll)?(min|max)|u?min|u?max|l?labs|isnan|isinf|isfinite|signbit)$"
)
_EXPRESSIONS = (
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.Call,
    ast.Name,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.operator,
    ast.unaryop,
    ast.cmpop,
    ast.expr_context,
)


class _Plan:
    """What :func:`batch_plan` found: the pointer parameters read and written."""

    __slots__ = ("params", "read", "value", "written")

    def __init__(self, params: list[str]) -> None:
        self.params = params
        self.read: set[str] = set()
        self.written: set[str] = set()
        self.value: set[str] = set()


_PLANS: dict[Any, _Plan | str] = {}


def why_not_batched(func: Callable[..., Any]) -> str | None:
    """Return why *func*'s blocks cannot run batched, or None when they can (cached).

    Examples
    --------
    >>> def k(dst):
    ...     dst[blockIdx.x] = 1
    >>> why_not_batched(k)
    'reads blockIdx outside threadIdx.x + blockIdx.x * blockDim.x'
    """
    found = batch_plan(func)
    return found if isinstance(found, str) else None


def batch_plan(func: Callable[..., Any]) -> _Plan | str:
    """Analyse *func* once: its :class:`_Plan`, or the reason it cannot be batched."""
    code = getattr(func, "__code__", None)
    found = _PLANS.get(code)
    if found is None:
        try:
            found = _analyse(func)
        except (OSError, TypeError, SyntaxError) as exc:
            found = f"its source cannot be read ({type(exc).__name__})"
        _PLANS[code] = found
    return found


def _analyse(func: Callable[..., Any]) -> _Plan | str:
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef) or fdef.args.vararg or fdef.args.kwarg:
        return "it is not a plain function"
    plan = _Plan([a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)])
    scope = {**getattr(func, "__globals__", {}), **_closure(func)}
    parents = {id(c): p for p in ast.walk(fdef) for c in ast.iter_child_nodes(p)}
    body = fdef.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    local: set[str] = set()
    for stmt in body:
        why = _statement(stmt, plan, local, scope, parents)
        if why:
            return why
    return plan


def _closure(func: Any) -> dict[str, Any]:
    cells = getattr(func, "__closure__", None) or ()
    return dict(zip(func.__code__.co_freevars, (c.cell_contents for c in cells), strict=False))


def _statement(
    stmt: ast.stmt, plan: _Plan, local: set[str], scope: dict[str, Any], parents: dict[int, Any]
) -> str | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        target, value = stmt.target, stmt.value
    else:
        return f"it has a statement other than an assignment ({type(stmt).__name__})"
    why = _expression(value, plan, local, scope, parents)
    if why:
        return why
    if isinstance(target, ast.Name) and target.id not in plan.params:
        if target.id in _INDICES or target.id in scope:
            return f"it assigns to {target.id}, which names a global"
        local.add(target.id)
        return None
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id in plan.params
    ):
        plan.written.add(target.value.id)
        return _expression(target.slice, plan, local, scope, parents)
    return "it assigns to something other than a local or p[i]"


def _expression(
    node: ast.expr, plan: _Plan, local: set[str], scope: dict[str, Any], parents: dict[int, Any]
) -> str | None:
    for sub in ast.walk(node):
        if not isinstance(sub, _EXPRESSIONS):
            return f"it uses {type(sub).__name__}"
        if isinstance(sub, ast.Compare) and len(sub.ops) > 1:
            return "it chains a comparison"
        why = _node(sub, plan, local, scope, parents)
        if why:
            return why
    return None


def _node(
    sub: ast.AST, plan: _Plan, local: set[str], scope: dict[str, Any], parents: dict[int, Any]
) -> str | None:
    parent = parents.get(id(sub))
    if isinstance(sub, ast.Call):
        if sub.keywords or not isinstance(sub.func, ast.Name):
            return "it makes a call other than f(args)"
        return _lanewise(sub.func.id, scope)
    if isinstance(sub, ast.Attribute):
        if not (isinstance(sub.value, ast.Name) and sub.value.id in _INDICES and sub.attr == "x"):
            return "it reads an attribute other than threadIdx/blockIdx/blockDim/gridDim.x"
        if sub.value.id == "blockIdx" and not _global_index(sub, parents):
            return "reads blockIdx outside threadIdx.x + blockIdx.x * blockDim.x"
        return None
    if isinstance(sub, ast.Subscript):
        if not (isinstance(sub.value, ast.Name) and sub.value.id in plan.params):
            return "it indexes something other than a pointer parameter"
        plan.read.add(sub.value.id)
        return None
    if isinstance(sub, ast.Name):
        return _name(sub, parent, plan, local, scope)
    return None


def _name(
    sub: ast.Name, parent: Any, plan: _Plan, local: set[str], scope: dict[str, Any]
) -> str | None:
    if sub.id in plan.params:
        if not (isinstance(parent, ast.Subscript) and parent.value is sub):
            plan.value.add(sub.id)
        return None
    if sub.id in local:
        return None
    if sub.id in _INDICES:
        if scope.get(sub.id) is not _INDICES[sub.id]:
            return f"{sub.id} is not the SIMT built-in"
        if not isinstance(parent, ast.Attribute):
            return f"it uses {sub.id} other than as {sub.id}.x"
        return None
    if isinstance(parent, ast.Call) and parent.func is sub:
        return None  # checked by _lanewise
    return f"it reads the name {sub.id!r}"


def _lanewise(name: str, scope: dict[str, Any]) -> str | None:
    found = scope.get(name)
    if isinstance(found, type) and issubclass(found, Scalar):
        return None  # a C cast to a scalar type (``int32_t(i)``): lane by lane
    if (
        not callable(found)
        or not str(getattr(found, "__module__", "")).startswith("ascreg.")
        or not _MATH.match(name)
        or _NOT_LANEWISE.match(name)
    ):
        return f"calls {name}, which is not a lane-wise math function"
    return None


def _global_index(node: ast.Attribute, parents: dict[int, Any]) -> bool:
    """Tell whether *node* (``blockIdx.x``) sits in ``threadIdx.x + blockIdx.x * blockDim.x``."""
    product = parents.get(id(node))
    total = parents.get(id(product))
    return (
        isinstance(product, ast.BinOp)
        and isinstance(product.op, ast.Mult)
        and _is_index(product.right if product.left is node else product.left, "blockDim")
        and isinstance(total, ast.BinOp)
        and isinstance(total.op, ast.Add)
        and _is_index(total.right if total.left is product else total.left, "threadIdx")
    )


def _is_index(node: Any, name: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "x"
        and isinstance(node.value, ast.Name)
        and node.value.id == name
    )


# -- the launch side -------------------------------------------------------------------------------


class VfLaunch:
    """A vector kernel that only starts one SIMT VF: the VF, its thread count, its plan."""

    __slots__ = ("func", "plan", "threads")

    def __init__(self, func: Callable[..., Any], threads: int, plan: _Plan) -> None:
        self.func = func
        self.threads = threads
        self.plan = plan


_LAUNCHES: dict[Any, VfLaunch | None] = {}


def vf_launch(kernel: Callable[..., Any]) -> VfLaunch | None:
    """Return the :class:`VfLaunch` of a kernel whose body is one batchable ``asc_vf_call``."""
    code = getattr(kernel, "__code__", None)
    if code not in _LAUNCHES:
        try:
            _LAUNCHES[code] = _vf_launch(kernel)
        except (OSError, TypeError, SyntaxError):
            _LAUNCHES[code] = None
    return _LAUNCHES[code]


def _vf_launch(kernel: Callable[..., Any]) -> VfLaunch | None:
    fdef = ast.parse(textwrap.dedent(inspect.getsource(kernel))).body[0]
    if not isinstance(fdef, ast.FunctionDef) or fdef.args.vararg or fdef.args.kwarg:
        return None
    params = [a.arg for a in (*fdef.args.posonlyargs, *fdef.args.args)]
    body = fdef.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Expr):
        return None
    call = body[0].value
    scope = {**getattr(kernel, "__globals__", {}), **_closure(kernel)}
    if not (
        isinstance(call, ast.Call)
        and not call.keywords
        and isinstance(call.func, ast.Subscript)
        and isinstance(call.func.value, ast.Name)
        and type(scope.get(call.func.value.id)).__name__ == "VfCall"
        and isinstance(call.func.slice, ast.Name)
        and len(call.args) == len(params) + 1
        and all(
            isinstance(a, ast.Name) and a.id == p
            for a, p in zip(call.args[1:], params, strict=True)
        )
    ):
        return None
    threads = _thread_count(call.args[0], scope)
    func = scope.get(call.func.slice.id)
    if threads is None or getattr(func, "__ascreg_kind__", None) != "simt_vf":
        return None
    plan = batch_plan(func)  # type: ignore[arg-type]
    if not isinstance(plan, _Plan):  # the launch has the shape, its SIMT function does not
        tell_once(
            ("vf batch", getattr(kernel, "__code__", None)),
            f"{getattr(kernel, '__name__', 'kernel')}: its blocks run one at a time "
            f"(no block batches): {getattr(func, '__name__', 'its SIMT VF')} {plan}",
        )
        return None
    return VfLaunch(func, threads, plan)  # type: ignore[arg-type]


def _thread_count(node: ast.expr, scope: dict[str, Any]) -> int | None:
    """Return the *n* of ``dim3(n)`` (a literal or a module-level int), else None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and scope.get(node.func.id) is dim3
        and len(node.args) == 1
        and not node.keywords
    ):
        return None
    arg = node.args[0]
    value = arg.value if isinstance(arg, ast.Constant) else None
    if isinstance(arg, ast.Name):
        value = scope.get(arg.id)
    return value if type(value) is int and value > 0 else None


class _BatchIndex:
    """``blockIdx`` of a batch: ``x`` holds each lane's block, ``y`` and ``z`` are 0."""

    __slots__ = ("x", "y", "z")

    def __init__(self, x: Lanes) -> None:
        self.x, self.y, self.z = x, 0, 0


_STORES: list[tuple[Any, Any]] = []
"""The ``(pointer, index)`` of every store the running batch made, in order."""


def _recording(ptr: Any) -> Any:
    """Return *ptr* as a pointer that records each store's index in :data:`_STORES`."""
    cls = type(ptr)
    sub = _RECORDING.get(cls)
    if sub is None:

        def setitem(self: Any, index: Any, value: Any) -> None:
            _STORES.append((self, index))
            cls.__setitem__(self, index, value)

        body = {"__slots__": (), "__setitem__": setitem}
        sub = _RECORDING[cls] = type("Recording" + cls.__name__, (cls,), body)
    return sub(ptr.memory, ptr.dtype, ptr.address, ptr.block)


_RECORDING: dict[type, type] = {}


def launch_args(launch: VfLaunch, values: list[Any], call: str) -> tuple[Any, ...] | None:
    """Return the batch's wrapped arguments, or None when a run-time condition fails."""
    plan = launch.plan
    if not BATCHING[0] or _MODE[-1] != "masked" or len(values) != len(plan.params):
        return None
    params = dict(zip(plan.params, values, strict=True))
    try:
        _check_threads(launch.func, dim3(launch.threads), call)
    except Exception:
        return None
    pointers = plan.read | plan.written
    for name, value in params.items():
        if name in pointers and not (isinstance(value, GmPtr) and value.block is not None):
            return None
        if name in plan.value and isinstance(value, Pointer):
            return None
    written = {id(params[n].block) for n in plan.written}
    if any(id(params[n].block) in written for n in plan.read):
        return None  # a block could read what another wrote: block order matters
    return tuple(
        _recording(wrap_pointer(v)) if n in plan.written else wrap_pointer(v)
        for n, v in params.items()
    )


def run_batched(
    launch: VfLaunch,
    args: tuple[Any, ...],
    first: int,
    count: int,
    blocks: int,
    races: GmRaceCheck,
    kernel: str,
) -> bool:
    """Run blocks ``first .. first + count - 1`` as one batch; False (nothing changed) if not."""
    n = launch.threads
    run = BlockRun(launch.func, args, dim3(n), dim3(blocks), dim3(first), pure_simt=False)
    journal = Journal()
    group = Group(run, np.arange(count * n, dtype=np.int64), journal)
    group.block_idx = _BatchIndex(  # type: ignore[assignment]
        np.repeat(np.arange(first, first + count, dtype=np.uint32), n).view(Lanes)
    )
    ctx = BlockContext(first, blocks, 0, kernel)
    hooks = journal.hook(live_memories())
    previous, STATE.group = STATE.group, group
    races.paused = True
    _STORES.clear()
    ok = True
    try:
        with running_as(ctx):
            launch.func(*args)
    except (Exception, DivergenceSignal):
        ok = False
    finally:
        races.paused = False
        STATE.group = previous
        Journal.unhook(hooks)
        ctx.release()
    ok = ok and _claim(races, first, count, n)
    _STORES.clear()
    if not ok:
        journal.rollback()
    return ok


def run_block_batches(
    kernel: Callable[..., Any],
    blocks: int,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    races: Any,
) -> int:
    """Run the leading blocks of a launch of *kernel* in batches; return the first still to run.

    Batches run only where that is provably the same as running the blocks one after another
    (see the module docstring); 0 when the kernel does not qualify. *races* is the launch's
    ``GmRaceCheck`` (``ascreg.machine.races``).
    """
    launch = vf_launch(kernel)
    if launch is None:
        return 0
    params = inspect.signature(kernel).bind(*args, **kwargs).arguments
    call = f"asc_vf_call<{getattr(launch.func, '__name__', launch.func)}>"
    wrapped = launch_args(launch, list(params.values()), call)
    if wrapped is None:
        return 0
    size = max(1, BATCH_LANES // launch.threads)
    name = getattr(kernel, "__name__", repr(kernel))
    for first in range(0, blocks, size):
        count = min(size, blocks - first)
        _ascreg_blocks = (first, count)  # the launch's BlockProgress reads it
        if not run_batched(launch, wrapped, first, count, blocks, races, name):
            return first
    return blocks


def _claim(races: GmRaceCheck, first: int, count: int, n: int) -> bool:
    """Apply the race check to each block's store spans in block order; undo it on a race.

    A block's store through ``p[idx]`` claims ``[p + min(idx), p + max(idx) + 1)`` elements,
    exactly as the same store made by the block alone does. Spans that follow each other and
    were unwritten are marked at once; the others block by block (the order of the marks does
    not matter: a race anywhere undoes them all and the batch runs again block by block).
    """
    spans = []
    undo: list[tuple[Any, int, int, np.ndarray[Any, Any] | None]] = []
    for ptr, index in _STORES:
        hook = races.hook_of(ptr.memory)
        if hook is None:
            continue
        idx = np.broadcast_to(np.asarray(index, dtype=np.int64), (count * n,)).reshape(count, n)
        size = ptr.dtype.size
        starts = ptr.address + idx.min(axis=1) * size
        ends = ptr.address + (idx.max(axis=1) + 1) * size
        undo.append((hook, int(starts.min()), int(ends.max()), None))
        if hook.record_runs(starts, ends, first):  # the common case, at once
            continue
        undo.pop()
        spans.append((hook, starts.tolist(), ends.tolist()))
    try:
        for b in range(count):
            races.block = first + b
            for hook, starts, ends in spans:
                start, end = starts[b], ends[b]
                undo.append((hook, start, end, hook.owner[start:end].copy()))
                hook.record(start, end)
    except Exception:
        for hook, start, end, old in reversed(undo):
            size = 0 if old is None else old.size  # None: the span was unwritten
            if old is not None:
                hook.owner[start : start + size] = old
            hook.owner[start + size : end] = 0
        return False
    return True

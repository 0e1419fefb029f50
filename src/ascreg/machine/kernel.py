"""Kernel runtime: qualifiers, per-block state, ``kernel[blocks, dyn_ub_bytes, stream](args)``.

A ``__global__`` kernel launched on *n* blocks runs *n* times in block order. Each block gets its
own 248 KiB :class:`~ascreg.machine.memory.UnifiedBuffer`, its ``block_idx`` and a
:class:`~ascreg.machine.sync.PipeTracker`; Global Memory is shared. Every UB access made while
the block runs is attributed to the pipe that issues it (scalar code: ``PIPE_S``; a
``__simd_vf__`` function: ``PIPE_V``; the copy calls: ``PIPE_MTE2`` / ``PIPE_MTE3``), so a missing
``asc_sync_notify`` / ``asc_sync_wait`` pair is reported instead of silently working.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, uint32_t
>>> gm = GlobalMemory(); out = gm.alloc(uint32_t, 4)
>>> @__global__
... @__vector__
... def write_idx(out: GmPtr[uint32_t]) -> None:
...     (out + block_idx).write([block_idx * 10])
>>> write_idx[4, 0, None](out)
>>> out.read(4)
array([ 0, 10, 20, 30], dtype=uint32)
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar, cast

import numpy as np

from ascreg._dtypes import Scalar
from ascreg.errors import AddressSpaceError, AscregTypeError, LaunchError
from ascreg.machine import hook
from ascreg.machine.block import BlockContext, block, current_block, running_block
from ascreg.machine.coop import BlockRunner, check_sync_clean  # noqa: F401 (its old home)
from ascreg.machine.crosscore import (
    AIC,
    CORES_STATE,
    KIND_STATE,
    CrossCoreFlags,
    check_flags_clean,
    topology,
)
from ascreg.machine.memory import UB_BYTES, Pointer, UbPtr
from ascreg.machine.progress import LaunchProgress
from ascreg.machine.races import GmRaceCheck
from ascreg.machine.ref import Ref
from ascreg.machine.registers import VL
from ascreg.machine.sync import PIPE_S, PIPE_V, Pipe  # noqa: F401 (the doctests use Pipe)
from ascreg.machine.template import qualifier

P = ParamSpec("P")
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T", bound=Scalar)

MAX_BLOCKS = 65535
"""Largest ``numBlocks`` of a launch (logical cores)."""
KIND_ATTR = "__ascreg_kind__"
"""Attribute the qualifiers set on a function: ``"simd_vf"``, ``"simd_callee"``, ``"simt_vf"``."""
CORE_ATTR = "__ascreg_core__"
"""Attribute ``__vector__`` / ``__aicore__`` set on a function: ``"vector"`` / ``"aicore"``."""
MIX_ATTR = "__ascreg_mix__"
"""The attribute holding a ``__mix__`` kernel's (AIC, AIV) counts per AI Core."""
MIX_RATIOS = ((0, 1), (1, 0), (1, 1), (1, 2))
"""The ``__mix__(aic, aiv)`` qualifiers the SIMD-BuiltIn keyword page lists."""


# -- built-in variables ---------------------------------------------------------------------


class BuiltinIndex:
    """A built-in variable of the running block (``block_idx``, ``block_num``).

    It behaves as the plain integer of the current block in every integer operation:
    ``int(block_idx)``, ``p + block_idx``, ``n // block_num``, ``n % block_num``,
    ``block_idx << 2``, ``block_idx & 1``, comparisons, ``range(block_num)``. Type checkers see
    an ``int``.

    Examples
    --------
    >>> with block(BlockContext(block_idx=2, block_num=8)):
    ...     block_idx * 100 + 1, block_num - block_idx, 100 // block_num, block_idx << 3
    (201, 6, 12, 16)
    """

    def __init__(self, name: str, attr: str) -> None:
        self.name = name
        self.attr = attr

    def value(self) -> int:
        """Return the value in the running block."""
        _ascreg_call = self.name
        return int(getattr(current_block(), self.attr))

    def __index__(self) -> int:
        return self.value()

    def __repr__(self) -> str:
        ctx = running_block()
        return f"{self.name}={getattr(ctx, self.attr)}" if ctx else f"<{self.name}>"

    def __str__(self) -> str:
        return str(self.value()) if running_block() else repr(self)

    def __hash__(self) -> int:
        return hash(self.value())


def _delegate(name: str) -> Callable[..., Any]:
    """Return a method that applies ``int.<name>`` to the variable's current value."""
    method = getattr(int, name)

    def delegated(self: BuiltinIndex, *args: Any) -> Any:
        return method(
            self.value(), *(a.value() if isinstance(a, BuiltinIndex) else a for a in args)
        )

    delegated.__name__ = name
    return delegated


_INT_METHODS = [
    "__int__",
    "__float__",
    "__bool__",
    "__neg__",
    "__pos__",
    "__abs__",
    "__invert__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__format__",
] + [
    f"__{prefix}{op}__"
    for op in [
        "add",
        "sub",
        "mul",
        "floordiv",
        "truediv",
        "mod",
        "divmod",
        "pow",
        "lshift",
        "rshift",
        "and",
        "or",
        "xor",
    ]
    for prefix in ("", "r")
]
for _method in _INT_METHODS:
    setattr(BuiltinIndex, _method, _delegate(_method))
del _method


block_idx: int = cast(int, BuiltinIndex("block_idx", "block_idx"))
"""Index of the running block, ``0 .. block_num - 1`` (C built-in variable ``block_idx``)."""
block_num: int = cast(int, BuiltinIndex("block_num", "block_num"))
"""Number of blocks of the running launch (C built-in variable ``block_num``)."""

# -- UB arrays --------------------------------------------------------------------------------


class UbufQualifier:
    """``__ubuf__``: declare a UB array inside a kernel.

    ``__ubuf__(uint16_t, N)`` is C's ``__ubuf__ uint16_t buf[N];`` (allocated from this
    block's 248 KiB, 32-byte aligned; reading it before writing is an
    :class:`~ascreg.errors.UninitializedMemoryError`, as it holds garbage on the chip) and ``__ubuf__.extern(float32_t)`` is
    ``extern __ubuf__ float buf[];`` (the dynamic UB of the launch's second ``<<<>>>`` argument;
    every extern array starts at the same address).

    Examples
    --------
    >>> from ascreg import uint16_t
    >>> with block(BlockContext(dyn_ub_bytes=64)):
    ...     a = __ubuf__(uint16_t, 100); d = __ubuf__.extern(uint16_t)
    ...     d.address, a.address
    (0, 64)
    """

    def __call__(self, dtype: type[T], count: int) -> UbPtr[T]:
        _ascreg_call = f"__ubuf__ {getattr(dtype, 'cpp_name', dtype)} buf[{count}]"
        if not isinstance(count, int | np.integer) or count <= 0:
            raise AscregTypeError(f"the array size must be a positive integer, got {count!r}")
        return current_block().alloc_array(dtype, int(count))

    def extern(self, dtype: type[T]) -> UbPtr[T]:
        """``extern __ubuf__ T buf[];``: the dynamic UB region of this launch."""
        _ascreg_call = f"extern __ubuf__ {getattr(dtype, 'cpp_name', dtype)} buf[]"
        return cast(UbPtr[T], current_block().dynamic.cast(dtype))

    def __repr__(self) -> str:
        return "__ubuf__"


__ubuf__ = UbufQualifier()

# -- qualifiers ---------------------------------------------------------------------------------


@qualifier
def __vector__(func: F) -> F:  # noqa: N807 (the C qualifier spelling)
    """``__vector__``: the kernel runs on the vector (AIV) cores.

    Examples
    --------
    >>> @__vector__
    ... def k() -> None: ...
    >>> k.__ascreg_core__
    'vector'
    """
    setattr(func, CORE_ATTR, "vector")
    return func


def __mix__(aic: int, aiv: int) -> Callable[[F], F]:  # noqa: N807 (the C qualifier spelling)
    """``__mix__(aic, aiv)``: the kernel runs *aic* cube and *aiv* vector cores per AI Core.

    ``__mix__(1, 2)`` is the 950's 1:2 ratio; :mod:`ascreg.machine.crosscore` says how the
    cores of a launch run and how ``CrossCoreSetFlag`` / ``CrossCoreWaitFlag`` order them.

    Examples
    --------
    >>> @__mix__(1, 2)
    ... def k() -> None: ...
    >>> k.__ascreg_core__, k.__ascreg_mix__
    ('mix', (1, 2))
    >>> __mix__(2, 1)
    Traceback (most recent call last):
    ...
    ascreg.errors.LaunchError: __mix__(2, 1): the documented ratios are (0, 1), (1, 0), (1, 1), (1, 2)
    """
    ratio = (aic, aiv)
    if ratio not in MIX_RATIOS:
        legal = ", ".join(map(str, MIX_RATIOS))
        raise LaunchError(f"the documented ratios are {legal}", call=f"__mix__({aic}, {aiv})")

    @qualifier
    def apply(func: F) -> F:
        setattr(func, CORE_ATTR, "mix")
        setattr(func, MIX_ATTR, ratio)
        return func

    return apply


@qualifier
def __aicore__(func: F) -> F:  # noqa: N807 (the C qualifier spelling)
    """``__aicore__``: a device function (or, with ``__global__``, a SIMD kernel).

    Examples
    --------
    >>> @__aicore__
    ... def helper() -> int: return 1
    >>> helper()
    1
    """
    if getattr(func, CORE_ATTR, None) is None:
        setattr(func, CORE_ATTR, "aicore")
    code = getattr(func, "__code__", None)
    if code is not None and "__VEC_SCOPE__" in code.co_names:
        return _vec_scoped(func)
    return func


def _vec_scoped(func: F) -> F:
    """Return *func* whose ``with __VEC_SCOPE__:`` blocks' loops run batched (the engine's).

    The blocks are its vector functions: their ``for`` loops follow the rules of a
    ``__simd_vf__`` function's (:mod:`ascreg.engine.loops`); the rest of *func* runs as
    written. The engine rewrites it on the first call.
    """
    runner: list[Callable[..., Any]] = []
    SCOPED_CODES.add(func.__code__)  # (run as written only under a tracer: not a slow path)

    @functools.wraps(func)
    def aicore(*args: Any, **kwargs: Any) -> Any:
        if sys.gettrace() is not None:
            return func(*args, **kwargs)  # a tracer or debugger sees the code as written
        if not runner:
            method = args and func.__code__.co_varnames[:1] == ("self",)
            owner = type(args[0]) if method else None  # (a factory's class: not its module's)
            runner.append(_scoped_runner(cast(types.FunctionType, func), owner))
        return runner[0](*args, **kwargs)

    setattr(aicore, CORE_ATTR, "aicore")
    aicore.__ascreg_runner__ = runner  # type: ignore[attr-defined]  # (what explain reads)
    return cast(F, aicore)


def _scoped_runner(func: types.FunctionType, owner: type | None = None) -> Callable[..., Any]:
    """Return the engine's rewrite of *func*, made once per code and global values it reads.

    A template's bindings (and the methods of a class a template factory makes) share their
    code, each with its own globals or closure: those whose code reads the same objects share
    one rewrite (a binding made for every tile would otherwise be parsed and compiled again
    each time). *owner*: the class of a method (``type(self)`` of its first call), which lets
    its loops call the class's methods when the module does not name the class.
    """
    code = func.__code__
    cells = tuple(id(cell.cell_contents) for cell in func.__closure__ or ())
    key = (code, cells, _global_ids(code, func.__globals__), _class_key(owner))
    rewritten = _SCOPED_RUNNERS.get(key)
    if rewritten is None:
        if len(_SCOPED_RUNNERS) >= 512:
            _SCOPED_RUNNERS.clear()
        rewritten = _SCOPED_RUNNERS[key] = hook.engine().vec_scoped(func, owner=owner)
    return rewritten


def _class_key(owner: type | None) -> Any:
    """Return what makes two classes of a method's *owner* behave alike, for :func:`_scoped_runner`.

    A class template written as a function that makes the class (``def Kernel(T): class K:
    ...; return K``) makes a new class on every call, often every launch: two such classes
    with the same name, the same methods (code and closure values) and equal class constants
    share the method's rewrite. Anything else is told apart by identity.
    """
    if owner is None:
        return None
    parts = tuple(
        (name, _member_key(value, owner))
        for name, value in sorted(vars(owner).items())
        if name not in ("__dict__", "__weakref__")
    )
    return owner.__qualname__, parts


def _member_key(value: Any, owner: type) -> Any:
    """Return a class member as :func:`_class_key` compares it: by value, code or identity."""
    if value is owner:
        return "the class"
    kind, wrapped = getattr(value, CORE_ATTR, None), getattr(value, "__wrapped__", None)
    if kind is not None and wrapped is not None:  # a qualifier's wrapper: what it wraps
        return kind, _member_key(wrapped, owner)
    if isinstance(value, types.FunctionType):
        cells = tuple(_member_key(c.cell_contents, owner) for c in value.__closure__ or ())
        defaults = tuple(_member_key(d, owner) for d in value.__defaults__ or ())
        return id(value.__code__), cells, id(value.__globals__), defaults
    if isinstance(value, staticmethod | classmethod):
        return type(value), _member_key(value.__func__, owner)
    if value is None or type(value) in (bool, int, float, str, bytes):
        return type(value), value
    if isinstance(value, np.generic):
        return type(value), value.tobytes()
    return id(value)


def _global_ids(code: types.CodeType, names: dict[str, Any]) -> tuple[int, ...]:
    """Return the identities of the globals *code* (and the code nested in it) may read.

    The rewrite keeps the first binding's globals alive, so an identity is never reused
    while its entry exists.
    """
    ids = [id(names.get(name)) for name in code.co_names]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            ids.extend(_global_ids(const, names))
    return tuple(ids)


_SCOPED_RUNNERS: dict[Any, Callable[..., Any]] = {}
"""The engine's rewrite of each ``@__aicore__`` function with ``__VEC_SCOPE__`` blocks, by its
code and the identities of the globals it reads (:func:`_global_ids`)."""
SCOPED_CODES: set[Any] = set()
"""The code of the ``@__aicore__`` functions with ``__VEC_SCOPE__`` blocks, and of the engine's
rewrites of them (whose blocks' loops run batched)."""


@qualifier
def __simd_callee__(func: F) -> F:  # noqa: N807 (the C qualifier spelling)
    """``__simd_callee__``: a helper callable from a ``__simd_vf__`` function (marker only).

    Examples
    --------
    >>> @__simd_callee__
    ... def twice(x: int) -> int: return 2 * x
    >>> twice(2), twice.__ascreg_kind__
    (4, 'simd_callee')
    """
    setattr(func, KIND_ATTR, "simd_callee")
    return func


@qualifier
def __simd_vf__(func: F) -> F:  # noqa: N807 (the C qualifier spelling)
    """``__simd_vf__``: a vector function; its UB accesses are issued on ``PIPE_V``.

    Its ``for i in range(n)`` loops run as one batched computation over all iterations when
    that gives the eager result (see :mod:`ascreg.engine.loops`), eagerly otherwise, or
    always eagerly under ``ascreg.policy(execution="eager")``.

    Calling it (directly, as the Reg examples do, or through ``asc_vf_call``) inside a kernel
    checks that every pointer argument is ``__ubuf__`` and orders it after the scalar code
    before it; when it returns, its vector work is complete. Outside a kernel it is a plain call.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> @__simd_vf__
    ... def vf(p: object) -> None: ...
    >>> with block(BlockContext()):
    ...     vf(GlobalMemory().alloc(uint8_t, 4))
    Traceback (most recent call last):
    ...
    ascreg.errors.AddressSpaceError: vf: argument 1 is <__gm__ uint8_t* ...>: the pointer parameters of a __simd_vf__ function must be __ubuf__ (a VF cannot address GM)
    """
    runner: list[Callable[..., Any]] = []

    @functools.wraps(func)
    def vf(*args: Any, **kwargs: Any) -> Any:
        if not runner:
            runner.append(hook.engine().vf(func))
        body = runner[0]
        ctx = running_block()
        if ctx is None:
            return body(*args, **kwargs)
        _ascreg_call = func.__name__
        for i, arg in enumerate((*args, *kwargs.values()), 1):
            plain = type(arg) in _PLAIN_ARGUMENTS
            if not plain and isinstance(arg, Pointer) and not isinstance(arg, UbPtr):
                raise AddressSpaceError(
                    f"argument {i} is {arg!r}: the pointer parameters of a __simd_vf__ function "
                    "must be __ubuf__ (a VF cannot address GM)"
                )
        if ctx.group is not None:  # once per block of a group (ascreg.engine.groups)
            run = functools.partial(run_on_vector, ctx, body)
            return ctx.group.vf(func, lambda *a, **k: run(a, k), args, kwargs)
        return run_on_vector(ctx, body, args, kwargs)

    setattr(vf, KIND_ATTR, "simd_vf")
    vf.__ascreg_runner__ = runner  # type: ignore[attr-defined]  # (what explain reads)
    return cast(F, vf)


_PLAIN_ARGUMENTS = frozenset({int, float, bool, UbPtr})
"""Exact argument types that are neither GM pointers nor what ``asc_vf_call`` refuses (the
common arguments skip the ``isinstance`` tests)."""


def run_on_vector(
    ctx: BlockContext, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """Run *func* on PIPE_V (a VF's accesses are V's).

    The call is not a synchronisation: the scalar unit's UB writes before it need an ``S_V``
    flag, and its UB reads after it a ``V_S`` one (:mod:`ascreg.machine.sync`).
    """
    # BlockContext.simd_vf() spelled out (a VF call is hot: two generator contexts cost more
    # than a short VF's batched loop)
    outer, previous = ctx.in_simd_vf, ctx.pipe
    ctx.mem_bar()
    ctx.tracker.vf_boundary(True)
    ctx.in_simd_vf, ctx.pipe = True, PIPE_V
    try:
        result = func(*args, **kwargs)
    finally:
        ctx.pipe, ctx.in_simd_vf = previous, outer
        ctx.mem_bar()
        ctx.tracker.vf_boundary(False)
    return result


def vf_call(func: Callable[..., Any], args: tuple[Any, ...], call: str) -> None:
    """``asc_vf_call<func>(args...)``: run a SIMD or (first argument a ``dim3``) SIMT VF.

    Examples
    --------
    >>> vf_call(lambda: None, (), "asc_vf_call")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_vf_call: <lambda> is not a __simd_vf__ function (nor, with a dim3 first argument, a __simt_vf__ one)
    """
    _ascreg_call = call
    kind = getattr(func, KIND_ATTR, None)
    if args and type(args[0]).__name__ == "dim3":
        from ascreg.machine.simt.engine import dim3, run_simt_vf  # (loaded by a SIMT launch)

        ctx = current_block()
        if kind != "simt_vf":
            raise AscregTypeError(f"{_name(func)} is not a __simt_vf__ function")
        ctx.tracker.vf_boundary(True)
        previous, ctx.pipe = ctx.pipe, PIPE_V  # ctx.on_pipe, without a generator per block
        try:
            run_simt_vf(
                func,
                args[0],
                tuple(args[1:]),
                grid_dim=dim3(ctx.block_num),
                block_idx=dim3(ctx.block_idx),
            )
        finally:
            ctx.pipe = previous
            ctx.tracker.vf_boundary(False)
        return
    if kind != "simd_vf":
        raise AscregTypeError(
            f"{_name(func)} is not a __simd_vf__ function (nor, with a dim3 first argument, "
            "a __simt_vf__ one)"
        )
    for i, arg in enumerate(args, 1):
        if type(arg) not in _PLAIN_ARGUMENTS and isinstance(arg, _NOT_VF_ARGUMENTS):
            raise AscregTypeError(
                f"argument {i} is a {type(arg).__name__}: asc_vf_call passes only raw pointers "
                "and scalars (no references, arrays or structs)"
            )
    func(*args)


_NOT_VF_ARGUMENTS = (Ref, list, tuple, dict, np.ndarray)
"""What ``asc_vf_call`` cannot pass: references, arrays and structs."""
_VF_CALLS: dict[Any, Callable[..., None]] = {}
"""``asc_vf_call[f]`` of each ``f`` seen so far (a kernel names the same VF every tile)."""


class VfCall:
    """``asc_vf_call<f>(args...)`` written ``asc_vf_call[f](args...)``.

    ``f`` must be a ``__simd_vf__`` function, or a ``__simt_vf__`` one started with a ``dim3``
    thread count first: ``asc_vf_call[f](dim3(1024), args...)``.

    Examples
    --------
    >>> from ascreg.machine.kernel import __simd_vf__, BlockContext, block
    >>> @__simd_vf__
    ... def vf(n: int) -> None: print("vf", n)
    >>> with block(BlockContext()):
    ...     asc_vf_call[vf](3)
    vf 3
    """

    def __getitem__(self, func: Callable[..., Any]) -> Callable[..., None]:
        try:
            known = _VF_CALLS.get(func)
        except TypeError:  # an unhashable object: vf_call names what is wrong with it
            known = None
        if known is not None:
            return known
        name = f"asc_vf_call<{getattr(func, '__name__', func)}>"

        def call(*args: Any) -> None:
            vf_call(func, args, name)

        with contextlib.suppress(TypeError):
            if len(_VF_CALLS) >= 256:
                _VF_CALLS.clear()
            _VF_CALLS[func] = call
        return call

    def __repr__(self) -> str:
        return "asc_vf_call"


asc_vf_call = VfCall()
"""``asc_vf_call<f>(args...)``, written ``asc_vf_call[f](args...)``: run the VF ``f``.

``f`` is a ``__simd_vf__`` function, or a ``__simt_vf__`` one started with a ``dim3`` thread
count first (``asc_vf_call[f](dim3(1024), args...)``).

Examples
--------
>>> from ascreg.machine.kernel import __simd_vf__, BlockContext, block
>>> @__simd_vf__
... def vf(n: int) -> None: print("vf", n)
>>> with block(BlockContext()):
...     asc_vf_call[vf](3)
vf 3
"""


def _name(func: Any) -> str:
    return str(getattr(func, "__name__", func))


# -- launch -----------------------------------------------------------------------------------


class Kernel(Generic[P]):
    """A ``__global__`` function; launch it with ``kernel[blocks, dyn_ub_bytes, stream](args)``.

    ``kernel[grid, block, dyn_ub_bytes, stream](args)`` (four items) launches a SIMT kernel
    (one not marked ``__vector__`` / ``__aicore__``) through :mod:`ascreg.machine.simt.engine`.

    Examples
    --------
    >>> @__global__
    ... @__vector__
    ... def k() -> None: ...
    >>> k[0, 0, None]()
    Traceback (most recent call last):
    ...
    ascreg.errors.LaunchError: k<<<0, 0, None>>>: numBlocks 0 is outside [1, 65535]
    """

    def __init__(self, func: Callable[P, None]) -> None:
        functools.update_wrapper(self, func)
        self.func = func
        self._hints: dict[str, Any] | None = None

    @property
    def core(self) -> str | None:
        """``"vector"``, ``"aicore"`` or None (a SIMT kernel)."""
        return cast(str | None, getattr(self.func, CORE_ATTR, None))

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Reject a launch without configuration (C needs ``<<<...>>>``)."""
        raise LaunchError(
            f"{self.func.__name__} is a __global__ kernel: launch it as "
            f"{self.func.__name__}[blocks, dyn_ub_bytes, stream](args)",
            call=self.func.__name__,
        )

    def __getitem__(self, config: Any) -> Callable[P, None]:
        items = config if isinstance(config, tuple) else (config,)

        def launch(*args: P.args, **kwargs: P.kwargs) -> None:
            self.launch(items, args, kwargs)

        return launch

    def launch(self, items: tuple[Any, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Validate the configuration and arguments, then run every block in order."""
        name = self.func.__name__
        _ascreg_call = f"{name}<<<{', '.join(map(repr, items))}>>>"
        hook.engine()  # the first launch loads the execution engine
        if len(items) == 4 and self.core is None:
            from ascreg.machine.simt.engine import dim3, run_simt_kernel  # (a SIMT launch)

            self._check_args(args, kwargs)  # a pure SIMT kernel takes host-side pointers too
            grid, block_dim, dyn, stream = items
            check_stream(stream)
            grid, block_dim = (
                g if type(g).__name__ == "dim3" else dim3(g) for g in (grid, block_dim)
            )
            progress = BlockProgress(_ascreg_call, grid.count, next(_LAUNCHES))
            try:
                run_simt_kernel(
                    self.func, grid, block_dim, _dyn_bytes(dyn), (*args, *kwargs.values())
                )
            except Exception as exc:
                progress.note(exc)
                raise
            return
        if len(items) == 4:
            raise LaunchError(
                f"{name} is a __vector__/__aicore__ kernel: its launch takes "
                "<<<blocks, dyn_ub_bytes, stream>>> (three items), not four"
            )
        if not 1 <= len(items) <= 3:
            raise LaunchError("the launch takes [blocks, dyn_ub_bytes, stream]")
        defaults: tuple[Any, ...] = (None, 0, None)  # dyn_ub_bytes 0, the default stream
        blocks, dyn, stream = (*items, *defaults[len(items) :])
        if not is_count(blocks) or not 1 <= blocks <= MAX_BLOCKS:
            raise LaunchError(f"numBlocks {blocks!r} is outside [1, {MAX_BLOCKS}]")
        dyn_bytes = _dyn_bytes(dyn)
        check_stream(stream)
        self._check_args(args, kwargs)
        shared: dict[str, Any] = {}
        cores = self._cores(int(blocks), shared)
        many = blocks > 1 or (cores is not None and len(cores) > 1)
        races = GmRaceCheck(name, args, kwargs, shared) if many else None
        runner = BlockRunner(
            self.func, args, kwargs, int(blocks), dyn_bytes, name, races, shared, cores
        )
        failed = BlockProgress(_ascreg_call, int(blocks), next(_LAUNCHES))
        runner.progress = LaunchProgress(_ascreg_call, runner.count)  # (cores of a mixed launch)
        try:
            start = 0
            if races is not None and cores is None:
                start = self._run_batches(int(blocks), args, kwargs, races)
                if start == 0 and self.core in ("vector", "aicore"):
                    start = hook.engine().run_simd_groups(runner, races)
            runner.done.extend(range(start))
            runner.progress.update(start)
            runner.run_from(start)
            if cores is not None:
                check_flags_clean(shared)
        except Exception as exc:
            failed.note(exc)
            raise
        finally:
            runner.progress.close()
            runner.close()
            if races is not None:
                races.detach()

    def _cores(self, blocks: int, shared: dict[str, Any]) -> list[Any] | None:
        """Return the cores of a ``__mix__`` launch (and set up its flags), else None."""
        if self.core == "cube":
            shared[KIND_STATE] = AIC
        if self.core != "mix":
            return None
        aic, aiv = getattr(self.func, MIX_ATTR)
        cores = topology(blocks, aic, aiv)
        shared[CORES_STATE] = CrossCoreFlags(cores)
        return cores

    def _run_batches(
        self, blocks: int, args: tuple[Any, ...], kwargs: dict[str, Any], races: GmRaceCheck
    ) -> int:
        """Run the leading blocks in batches; return the first block still to run alone.

        The engine's SIMT block batches (:mod:`ascreg.engine.simt.batch`) run only where that
        is provably the same as running the blocks one after another.
        """
        ran: int = hook.engine().run_block_batches(self.func, blocks, args, kwargs, races)
        return ran

    def _check_args(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if self._hints is None:
            self._hints = resolve_hints(self.func)
        try:
            import inspect  # (at the first launch: ``import ascreg`` does not need it)

            named = inspect.signature(self.func).bind(*args, **kwargs).arguments
        except TypeError as exc:
            raise LaunchError(
                f"the arguments do not match the kernel's parameters {_parameters(self.func)}: "
                f"{exc} (a launch passes every parameter once, as the C++ call does)"
            ) from None
        for param, value in named.items():
            if isinstance(value, UbPtr):
                raise AddressSpaceError(
                    f"argument '{param}' is {value!r}: a kernel launched from the host takes "
                    "__gm__ pointers (UB belongs to one block and does not exist on the host)"
                )
            if isinstance(value, np.ndarray) or hasattr(value, "__dlpack__"):
                what = "numpy array" if isinstance(value, np.ndarray) else type(value).__name__
                raise AscregTypeError(
                    f"argument '{param}' is a host {what}: copy it to device memory "
                    "(ptr = acl.to_device(tensor), or acl.rt.malloc + acl.rt.memcpy), pass the "
                    "__gm__ pointer, and read the result back with acl.from_device(ptr, out=tensor)"
                )
            _check_hint(param, value, self._hints.get(param))


_LAUNCHES = itertools.count(1)
"""Numbers the launches of the process (an error names the one that failed)."""


class BlockProgress:
    """Where a launch stands, for the note an error raised inside it gets.

    *first* is the block running (blocks before it have finished). Block batches
    (:meth:`Kernel._run_batches`) name their blocks through a local of their frame.

    Examples
    --------
    >>> p = BlockProgress("k<<<4, 0, None>>>", 4, 7); p.first = 2
    >>> error = ValueError("boom"); p.note(error); print(error.__notes__[0])
    in block 2 of k<<<4, 0, None>>> (launch 7 of this process): blocks 0-1 had finished, block 3 never ran, and block 2 stopped part-way: Global Memory holds a partial result
    """

    def __init__(self, launch: str, blocks: int, number: int) -> None:
        self.launch, self.blocks, self.number = launch, blocks, number
        self.first: int | None = None
        """The block the launch loop runs (None: find the running block in the traceback)."""

    def note(self, error: BaseException) -> None:
        """Add a note to *error* saying which block of which launch failed, and what GM holds."""
        core = self._core(error)
        if core is not None:  # a mixed launch: its cores interleave at their flag waits
            error.add_note(
                f"in {core.name} (AI Core {core.block}) of {self.launch} (launch {self.number} "
                "of this process): the cores of a mixed launch run in turns between their flag "
                "waits, so Global Memory holds a partial result"
            )
            return
        first, count = self._failed(error)
        last = first + count - 1
        which = _blocks(first, last) + (" (run as one batch)" if count > 1 else "")
        done = f"{_blocks(0, first - 1)} had finished" if first else "no block had finished"
        rest = f"{_blocks(last + 1, self.blocks - 1)} never ran" if last + 1 < self.blocks else ""
        error.add_note(
            f"in {which} of {self.launch} (launch {self.number} of this process): "
            + ", ".join(part for part in (done, rest) if part)
            + f", and {_blocks(first, last)} stopped part-way: Global Memory holds a partial "
            "result"
        )

    @staticmethod
    def _core(error: BaseException) -> Any:
        """Return the mixed-launch core the traceback of *error* ran on, or None."""
        tb, found = error.__traceback__, None
        while tb is not None:
            ctx = tb.tb_frame.f_locals.get("ctx")
            if isinstance(ctx, BlockContext) and ctx.core is not None:
                found = ctx.core
            tb = tb.tb_next
        return found

    def _failed(self, error: BaseException) -> tuple[int, int]:
        """Return the first failed block and how many ran with it (a batch of blocks)."""
        tb, running = error.__traceback__, None
        while tb is not None:
            local = tb.tb_frame.f_locals
            batch_blocks = local.get("_ascreg_blocks")
            if isinstance(batch_blocks, tuple):
                return batch_blocks
            ctx = local.get("ctx")
            if running is None and isinstance(ctx, BlockContext):
                running = ctx.block_idx  # a SIMT launch's block loop
            tb = tb.tb_next
        return (self.first if self.first is not None else running or 0), 1


def _blocks(first: int, last: int) -> str:
    return f"block {first}" if first == last else f"blocks {first}-{last}"


def is_count(value: Any) -> bool:
    """Return True for an integer launch count (``bool`` is not a count, as in C++ it would be).

    Examples
    --------
    >>> is_count(4), is_count(np.uint32(4)), is_count(True), is_count(4.0)
    (True, True, False, False)
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_stream(stream: Any) -> None:
    """Raise unless *stream* is None (the default stream) or a live ``aclrtStream``.

    A stream is any object with a boolean ``live`` attribute (``ascreg.acl`` streams; the
    machine layer does not import the host runtime).

    Examples
    --------
    >>> check_stream(None)
    >>> check_stream("s")
    Traceback (most recent call last):
    ...
    ascreg.errors.LaunchError: stream 's' is not an aclrtStream: pass one made by acl.rt.create_stream(), or None for the default stream
    """
    if stream is None:
        return
    live = getattr(stream, "live", None)
    if not isinstance(live, bool):
        raise LaunchError(
            f"stream {stream!r:.60} is not an aclrtStream: pass one made by "
            "acl.rt.create_stream(), or None for the default stream"
        )
    if not live:
        raise LaunchError(
            f"stream {stream!r} was destroyed (acl.rt.destroy_stream): a launch on it fails "
            "on the chip; create a new stream"
        )


def resolve_hints(func: Callable[..., Any]) -> dict[str, Any]:
    """Return *func*'s parameter annotations the launch can resolve, resolving strings.

    Strings (``from __future__ import annotations``, forward references) are evaluated in the
    function's globals and closure. One that names something neither can see (an alias
    defined inside the function or in an enclosing one but not used in the body) is left out:
    the kernel is legal, its argument is simply not checked against that annotation.

    Examples
    --------
    >>> def k(out: GmPtr[Missing], n: int) -> None: ...  # this module uses future annotations
    >>> resolve_hints(k)
    {'n': <class 'int'>}
    """
    closure = dict(
        zip(
            func.__code__.co_freevars,
            (cell.cell_contents for cell in getattr(func, "__closure__", None) or ()),
            strict=False,
        )
    )
    scope = {**getattr(func, "__globals__", {}), **closure}
    hints: dict[str, Any] = {}
    for param, hint in getattr(func, "__annotations__", {}).items():
        if param == "return":
            continue
        if isinstance(hint, str):
            try:
                hint = eval(hint, scope)
            except Exception:  # any name it needs lives where the launch cannot look
                continue
        hints[param] = hint
    return hints


def _parameters(func: Callable[..., Any]) -> str:
    import inspect

    return f"({', '.join(inspect.signature(func).parameters)})"


def _dyn_bytes(dyn: Any) -> int:
    dyn = 0 if dyn is None else dyn
    if not is_count(dyn) or not 0 <= dyn <= UB_BYTES:
        raise LaunchError(f"dynamic UB size {dyn!r} is outside [0, {UB_BYTES}] bytes")
    return int(dyn)


def _check_hint(param: str, value: Any, hint: Any) -> None:
    origin = typing.get_origin(hint) or hint
    if not (isinstance(origin, type) and issubclass(origin, Pointer)):
        return
    space = origin.space
    if not isinstance(value, Pointer):
        raise AscregTypeError(f"argument '{param}' must be a {space} pointer, got {value!r:.60}")
    if not isinstance(value, origin):
        raise AddressSpaceError(
            f"argument '{param}' is {value!r} but the parameter is {space}: a pointer cannot "
            "change address space"
        )
    dtypes = typing.get_args(hint)
    if dtypes and isinstance(dtypes[0], type) and value.dtype is not dtypes[0]:
        raise AscregTypeError(
            f"argument '{param}' is {value!r} but the parameter is {space} "
            f"{getattr(dtypes[0], 'cpp_name', dtypes[0])}*: cast the pointer first "
            f"(p.cast({dtypes[0].__name__}))"
        )


@qualifier
def __global__(func: Callable[P, None]) -> Kernel[P]:  # noqa: N807 (the C qualifier spelling)
    """``__global__``: a kernel entry, launched as ``kernel[blocks, dyn_ub_bytes, stream](args)``.

    Above ``@template(...)`` it makes a kernel template: ``kernel[args]`` is the kernel of
    those template arguments (C++ ``template <uint32_t schMode> __global__ void k(...)``,
    launched ``k<0><<<...>>>(...)``), launched ``kernel[args][blocks, dyn_ub_bytes, stream]``.

    Examples
    --------
    >>> @__global__
    ... @__vector__
    ... def hello() -> None:
    ...     print("block", int(block_idx), "of", int(block_num))
    >>> hello[2, 0, None]()
    block 0 of 2
    block 1 of 2
    >>> from typing import TypeVar
    >>> from ascreg.machine.template import template
    >>> MODE = TypeVar("MODE"); globals()["MODE"] = MODE
    >>> @__global__
    ... @__vector__
    ... @template(MODE)
    ... def mode_kernel() -> None:
    ...     print("mode", MODE)
    >>> mode_kernel[1][1, 0, None]()
    mode 1
    """
    return Kernel(func)


def get_vec_len() -> int:
    """Bytes in one vector register (``GetVecLen()`` / ``asc_get_vf_len()``): 256.

    Examples
    --------
    >>> get_vec_len()
    256
    """
    return VL


__all__ = [
    "BlockContext",
    "BuiltinIndex",
    "Kernel",
    "__aicore__",
    "__global__",
    "__simd_callee__",
    "__simd_vf__",
    "__ubuf__",
    "__vector__",
    "block",
    "block_idx",
    "block_num",
    "current_block",
    "get_vec_len",
    "running_block",
    "vf_call",
]

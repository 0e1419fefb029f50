"""``__VEC_SCOPE__``: the vector-function scope of older arch35 kernels.

C++ kernels written before ``__simd_vf__`` functions put their Reg (``MicroAPI``) code in a
``__VEC_SCOPE__ { ... }`` block inside an ordinary ``__aicore__`` function. The block is a VF:
its UB accesses are issued on ``PIPE_V``, it runs after the scalar code before it and its vector
work is complete when it ends. In Python the block is a ``with`` statement::

    __VEC_SCOPE__                              with __VEC_SCOPE__:
    {                                              xReg = MicroAPI.RegTensor[T]()
        MicroAPI::RegTensor<T> xReg;               ...
        ...
    }

In an ``@__aicore__`` function (the C++ spelling: ``__aicore__ inline void Compute(...)``)
the block's ``for`` loops run batched, by the rules of a ``__simd_vf__`` function's loops
(``ascreg.engine.loops``); elsewhere they run eagerly, one iteration at a time, which a
:class:`~ascreg.errors.EagerLoopWarning` says once per function. ``@__VEC_SCOPE__`` on a
function is ``@__simd_vf__``. While a vector launch runs its blocks as one group
(``ascreg.engine.groups``), a block's loops run on every block's UB at once, as a VF's do; a
block with other UB accesses then runs once per block, as a VF does, where the engine made it
a function (``ascreg.engine.scopes``: a block that binds no name the code after it uses);
otherwise such an access stops the group (its blocks then run one at a time).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from ascreg.errors import EagerLoopWarning
from ascreg.machine.block import BlockContext, running_block
from ascreg.machine.kernel import SCOPED_CODES, __simd_vf__
from ascreg.machine.sync import PIPE_S, PIPE_V

F = TypeVar("F", bound=Callable[..., Any])
_Open = tuple[BlockContext, Any, bool] | None
"""An open block: its context, its VF scope, and whether it runs for a whole group."""


class VecScope:
    """The ``__VEC_SCOPE__`` object: a ``with`` block (and a decorator) that runs on ``PIPE_V``.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     with __VEC_SCOPE__:
    ...         inside = ctx.pipe.name, ctx.in_simd_vf
    ...     inside, ctx.pipe.name
    (('PIPE_V', True), 'PIPE_S')
    """

    def __init__(self) -> None:
        self._open: list[_Open] = []

    def __repr__(self) -> str:
        return "__VEC_SCOPE__"

    def __enter__(self) -> None:
        ctx = running_block()
        code = sys._getframe(1).f_code
        if ctx is not None and code not in SCOPED_CODES:
            _say_eager(code)
        self._open.append(self._begin(ctx, grouped=True))

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._end(self._open.pop(), kind, error, trace)

    def _begin(self, ctx: BlockContext | None, *, grouped: bool) -> _Open:
        """Start the block's VF on *ctx*; *grouped*: a group's block runs for all its blocks."""
        if ctx is None:  # outside a kernel (plain Reg code on a bare UB): nothing to order
            return None
        ctx.tracker.complete(PIPE_S, PIPE_V)
        ctx.tracker.vf_boundary(True)
        scope = ctx.simd_vf()
        scope.__enter__()
        grouped = grouped and ctx.group is not None
        if grouped:  # a block group's: its loops run on every block's UB at once
            ctx.group.enter_scope()
        return ctx, scope, grouped

    @staticmethod
    def _end(
        entry: _Open,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if entry is None:
            return
        ctx, scope, grouped = entry
        if grouped:
            ctx.group.exit_scope()
        scope.__exit__(kind, error, trace)
        ctx.tracker.vf_boundary(False)
        if kind is None:
            ctx.tracker.complete(PIPE_V, PIPE_S)

    def run(self, body: Callable[[], None]) -> None:
        """Run a ``with __VEC_SCOPE__:`` block whose body the engine made a function.

        The engine's rewrite of an ``@__aicore__`` function does so where the body leaves no
        name behind for the code after it (``ascreg.engine.scopes``). In a block group the
        block then runs as a VF does: once for all the group's blocks where it can, else once
        per block on that block's UB row and values (``Group.scope``).

        Examples
        --------
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()) as ctx:
        ...     __VEC_SCOPE__.run(lambda: print(ctx.pipe.name, ctx.in_simd_vf))
        ...     ctx.pipe.name
        PIPE_V True
        'PIPE_S'
        """
        ctx = running_block()
        if ctx is None or ctx.group is None:
            self._once(ctx, body)
        else:
            ctx.group.scope(body, lambda: self._once(ctx, body))

    def _once(self, ctx: BlockContext | None, body: Callable[[], None]) -> None:
        """Run *body* as the block's VF once (for one block, or a group's all-blocks run)."""
        entry = self._begin(ctx, grouped=False)
        try:
            body()
        except BaseException as error:
            self._end(entry, type(error), error, error.__traceback__)
            raise
        self._end(entry, None, None, None)

    def __call__(self, func: F) -> F:
        """``@__VEC_SCOPE__``: make *func* a vector function (``__simd_vf__``)."""
        return __simd_vf__(func)


__VEC_SCOPE__ = VecScope()
"""``__VEC_SCOPE__ { ... }``: ``with __VEC_SCOPE__:`` runs its body as a VF on ``PIPE_V``.

Ordered after the scalar code before it; its vector work is complete when it ends. As a
decorator it is ``__simd_vf__`` (for a body moved into a function, with batched loops).

Examples
--------
>>> import numpy as np
>>> from ascreg import MicroAPI, float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     t = LocalMemAllocator().Alloc[float32_t, 64]()
...     with __VEC_SCOPE__:
...         reg = MicroAPI.RegTensor[float32_t]()
...         MicroAPI.Duplicate(reg, 2.5)
...         MicroAPI.StoreAlign(t.GetPhyAddr(), reg, MicroAPI.CreateMask[float32_t]())
...     t.GetValue(63).item()
2.5
"""


_TOLD: set[Any] = set()


def _say_eager(code: Any) -> None:
    """Warn once per function whose ``__VEC_SCOPE__`` loops run eagerly (not ``@__aicore__``)."""
    if code in _TOLD:
        return
    _TOLD.add(code)
    if "range" not in code.co_names:
        return  # (no loop: nothing runs slowly)
    warnings.warn_explicit(
        f"{code.co_name}: the loops of its __VEC_SCOPE__ block run eagerly, one iteration at a "
        "time; decorate it with @__aicore__ (as the C++ declares it) to run them batched",
        EagerLoopWarning,
        code.co_filename,
        code.co_firstlineno,
    )

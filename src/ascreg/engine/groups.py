"""SIMD block groups: the blocks of a vector launch run as one group where that is exact.

A ``__global__`` ``__vector__`` kernel launched on many blocks runs its body once per block,
and a block's copies, flags, allocations and queue calls cost far more than the arithmetic
of its VFs (``docs/performance.md``, "A design for SIMD block batches"). A *group* runs the
body once for a run of consecutive blocks instead:

* ``GetBlockIdx()`` is a :class:`BlockLanes`, one index per block; arithmetic keeps the lanes,
  and a GM pointer plus lanes is a :class:`BlockGmPtr` (one address per block). Where Python
  needs one value (``int()``, ``if``, ``range()``, an index) the blocks must agree; when they
  do not, the group stops (:class:`Divergent`) and runs again as the leading run of blocks that
  agree (a tail block's branch), the rest after it;
* the group's UB (:class:`StackedUb`) has one row of bytes per block at the same addresses, so
  allocators, queues and tensors keep their ordinary ``UbPtr`` values. Its ordinary byte
  access refuses: only the copies and VF calls below read and write the rows;
* a GM <-> UB copy moves every block's bursts at once (:meth:`Group.copy`), checking each
  block's GM bounds and alignment, and records its pipe accesses once for the UB side (the
  same bytes in every block) and once per block for the GM side; a ``__simd_vf__`` runs once
  per block on that block's row (:meth:`Group.vf`),
  and every block must leave the same byte marks and pipe records as the first;
* Global Memory is reached through the group's copies only: any other access, a block reading
  or writing bytes another block of the group writes, output on ``stdout``, a warning, and any
  error stop the group.

A group that stops leaves nothing behind: its GM writes are undone and its blocks run one at
a time, which raise the error, print or warn exactly as they always did. Which kernels may run
in groups is decided from their code (:func:`why_not_grouped`): the body, and the functions and
methods of user classes it names, make no ``global`` or ``nonlocal`` statements and write no
attribute or item of anything but their own locals and parameters. The first group of each
kernel is checked against the same blocks run one at a time (their GM writes must be equal
byte for byte); a difference turns groups off for that kernel with a warning.
``ASCREG_SIMD_GROUPS=0`` turns groups off. Whether (and why not) a launch ran in groups is
logged at DEBUG level on the ``ascreg.groups`` logger.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, float32_t
>>> from ascreg.basic import DataCopy, GetBlockIdx, GlobalTensor, LocalMemAllocator, Hardware
>>> from ascreg.basic import PipeBarrier, PIPE_ALL, Adds
>>> from ascreg.machine.kernel import __global__, __vector__
>>> @__global__
... @__vector__
... def shift(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
...     xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
...     xGm.SetGlobalBuffer(x + GetBlockIdx() * 64)
...     yGm.SetGlobalBuffer(y + GetBlockIdx() * 64)
...     buf = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
...     DataCopy(buf, xGm, 64)
...     PipeBarrier[PIPE_ALL]()
...     DataCopy(yGm, buf, 64)
>>> gm = GlobalMemory(); x, y = gm.alloc(float32_t, 256), gm.alloc(float32_t, 256)
>>> x.write(np.arange(256)); shift[4, 0, None](x, y); y.read(256)[[0, 100, 255]].tolist()
[0.0, 100.0, 255.0]
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import logging
import operator
import os
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg._dtypes import uint8_t
from ascreg.engine.batch import ALL_BLOCKS
from ascreg.machine.block import BlockContext, _grown
from ascreg.machine.block import block as running_as
from ascreg.machine.convert import to_dtype
from ascreg.machine.coop import check_sync_clean
from ascreg.machine.crosscore import RUNNER_STATE
from ascreg.machine.memory import (
    DATA_BLOCK,
    UB_BYTES,
    GmPtr,
    Memory,
    Pointer,
    UbPtr,
    UnifiedBuffer,
    live_memories,
    untrack,
)
from ascreg.machine.mte import store_atomic
from ascreg.machine.races import GmRaceCheck
from ascreg.machine.simt.engine import Journal
from ascreg.machine.sync import PIPE_MTE2, PIPE_MTE3
from ascreg.machine.trace import RECORDING

LOG = logging.getLogger("ascreg.groups")
"""Reports, at DEBUG level, each launch that ran in groups and why the others did not."""

GROUPS = [os.environ.get("ASCREG_SIMD_GROUPS", "1") != "0"]
"""``GROUPS[0]``: whether vector launches may run in block groups (``ASCREG_SIMD_GROUPS``)."""
GROUP_BLOCKS = 64
"""The most blocks one group runs (a group's UB holds this many rows)."""

Lanes = np.ndarray[Any, Any]


class GroupRefused(Exception):
    """Raised inside a group when only running its blocks one at a time gives the result."""


class Divergent(GroupRefused):
    """The blocks of a group disagree on a value Python needs as one (``if``, ``int()``, ...).

    ``agree[k]``: block *k* of the group has the first block's value.
    """

    def __init__(self, what: str, agree: Lanes) -> None:
        super().__init__(f"the blocks disagree on {what}")
        self.agree = agree


# -- per-block values ----------------------------------------------------------------------


def _values(other: Any) -> Any:
    return other.values if isinstance(other, BlockLanes) else other


def _binary(fn: Callable[[Any, Any], Any], swap: bool = False) -> Callable[[Any, Any], Any]:
    def method(self: BlockLanes, other: Any) -> Any:
        if isinstance(other, Pointer) or not isinstance(
            other, int | float | np.number | BlockLanes
        ):
            return NotImplemented
        a, b = (_values(other), self.values) if swap else (self.values, _values(other))
        return BlockLanes(fn(a, b))

    return method


class BlockLanes:
    """A value of each block of a group (``GetBlockIdx()`` and what is computed from it).

    Examples
    --------
    >>> lanes = BlockLanes(np.arange(4)) * 16 + 1
    >>> lanes.values.tolist(), int(lanes * 0 + 3)
    ([1, 17, 33, 49], 3)
    >>> bool(lanes > 20)
    Traceback (most recent call last):
    ...
    ascreg.engine.groups.Divergent: the blocks disagree on a truth value
    """

    __slots__ = ("values",)
    __array_ufunc__ = None  # numpy scalars and arrays defer to the reflected operators
    __ascreg_rows__ = True  # ``pointer + lanes`` defers to :meth:`__radd__`
    __ascreg_blocks__ = True  # ``GlobalTensor[lanes]`` is a tensor of per-block pointers

    def __init__(self, values: Lanes) -> None:
        self.values = values

    def __repr__(self) -> str:
        return f"BlockLanes({self.values.tolist()})"

    def one(self, what: str) -> Any:
        """Return the value every block has, or raise :class:`Divergent`."""
        values = self.values
        agree = values == values[0]
        if not agree.all():
            raise Divergent(what, agree)
        return values[0].item()

    def __bool__(self) -> bool:
        return bool(self.one("a truth value"))

    def __index__(self) -> int:
        if self.values.dtype.kind not in "iub":
            raise TypeError(f"{self!r} is not an integer")
        return int(self.one("an integer"))

    def __int__(self) -> int:
        return int(self.one("an integer"))

    def __float__(self) -> float:
        return float(self.one("a number"))

    def __hash__(self) -> int:
        return hash(self.one("a dictionary key"))

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, GmPtr):
            return BlockGmPtr.moved(other, self.values.astype(np.int64) * other.dtype.size)
        if isinstance(other, Pointer):
            raise GroupRefused(f"a per-block offset of {other!r}")
        return BlockLanes(other + self.values)

    def __neg__(self) -> BlockLanes:
        return BlockLanes(-self.values)

    def __abs__(self) -> BlockLanes:
        return BlockLanes(abs(self.values))

    def __invert__(self) -> BlockLanes:
        return BlockLanes(~self.values)

    __add__ = _binary(operator.add)
    __sub__ = _binary(operator.sub)
    __rsub__ = _binary(operator.sub, swap=True)
    __mul__ = _binary(operator.mul)
    __rmul__ = _binary(operator.mul, swap=True)
    __floordiv__ = _binary(operator.floordiv)
    __rfloordiv__ = _binary(operator.floordiv, swap=True)
    __truediv__ = _binary(operator.truediv)
    __rtruediv__ = _binary(operator.truediv, swap=True)
    __mod__ = _binary(operator.mod)
    __rmod__ = _binary(operator.mod, swap=True)
    __lshift__ = _binary(operator.lshift)
    __rshift__ = _binary(operator.rshift)
    __and__ = _binary(operator.and_)
    __rand__ = _binary(operator.and_, swap=True)
    __or__ = _binary(operator.or_)
    __ror__ = _binary(operator.or_, swap=True)
    __xor__ = _binary(operator.xor)
    __rxor__ = _binary(operator.xor, swap=True)
    __eq__ = _binary(operator.eq)
    __ne__ = _binary(operator.ne)
    __lt__ = _binary(operator.lt)
    __le__ = _binary(operator.le)
    __gt__ = _binary(operator.gt)
    __ge__ = _binary(operator.ge)


def _refused_address(self: BlockGmPtr) -> int:
    raise GroupRefused(f"{self!r} used as one address")


class BlockGmPtr(GmPtr[Any]):
    """A ``__gm__`` pointer with one address per block of a group (``x + GetBlockIdx() * n``).

    Its plain ``address`` refuses (code that does not know about groups stops the group);
    ``+``, ``cast`` and ``offset_bytes`` keep one address per block.

    Examples
    --------
    >>> from ascreg import GlobalMemory, float32_t
    >>> p = GlobalMemory().alloc(float32_t, 64) + BlockLanes(np.arange(2)) * 8
    >>> (p + 1).addresses.tolist()
    [4, 36]
    """

    __slots__ = ("addresses",)
    addresses: Lanes
    address = property(_refused_address)

    @classmethod
    def moved(cls, base: Pointer[Any], nbytes: Any) -> BlockGmPtr:
        """Return *base* moved by ``nbytes[k]`` bytes for block *k*."""
        ptr = object.__new__(cls)
        ptr.memory, ptr.dtype, ptr.block = base.memory, base.dtype, base.block
        start = base.addresses if isinstance(base, BlockGmPtr) else base.address
        ptr.addresses = start + nbytes
        return ptr

    def __repr__(self) -> str:
        return f"<__gm__ {self.dtype.cpp_name}* per block {self.addresses.tolist()[:4]}...>"

    def __add__(self, n: Any) -> BlockGmPtr:
        if isinstance(n, BlockLanes):
            return BlockGmPtr.moved(self, n.values.astype(np.int64) * self.dtype.size)
        return BlockGmPtr.moved(self, np.int64(operator.index(n) * self.dtype.size))

    __radd__ = __add__

    def __sub__(self, n: Any) -> Any:
        if isinstance(n, Pointer):
            raise GroupRefused("a difference of per-block pointers")
        return self + (-n)

    def offset_bytes(self, nbytes: int) -> BlockGmPtr:
        """Return the pointer moved by *nbytes* bytes in every block."""
        return BlockGmPtr.moved(self, np.int64(int(nbytes)))

    def cast(self, dtype: Any) -> BlockGmPtr:
        """Return the same addresses viewed as *dtype*."""
        cast = BlockGmPtr.moved(self, np.int64(0))
        cast.dtype = GmPtr(self.memory, dtype, 0, None).dtype
        return cast

    def of(self, k: int) -> GmPtr[Any]:
        """Return the pointer of block *k* of the group."""
        return GmPtr(self.memory, self.dtype, int(self.addresses[k]), self.block)


# -- the group's UB ------------------------------------------------------------------------

_NO_BYTES = np.zeros(0, dtype=np.uint8)


class BlockRows(np.ndarray):
    """A block group's UB rows as its memory's ``data`` (:meth:`StackedUb.use_all`).

    Its ``size`` is 0, so code that knows only one row of bytes per memory finds every access
    outside the data and takes the bounds check, which refuses.
    """

    @property
    def size(self) -> int:
        """0: no byte of the rows is one memory's (see the class)."""
        return 0


class StackedUb(UnifiedBuffer):
    """The Unified Buffers of a group's blocks: the same allocations, one row of bytes each.

    Only :meth:`Group.copy` reads and writes :attr:`rows` directly; while a block's VF runs
    (:meth:`use_row`) the memory is that block's UB. Otherwise every access refuses.
    """

    def __init__(self, count: int) -> None:
        super().__init__(UB_BYTES)
        self.rows = np.zeros((count, 0), dtype=np.uint8)
        self.active: int | None = None
        self.data = _NO_BYTES

    def _grow(self, nbytes: int) -> None:
        width = self.rows.shape[1]
        if nbytes > width:
            grown = np.zeros((self.rows.shape[0], -(-max(nbytes, 2 * width) // 8) * 8), np.uint8)
            grown[:, :width] = self.rows
            self.rows = grown
            if self.active is not None:
                self.use_row(self.active)

    def alloc_bytes(self, dtype: type[Any], nbytes: int, *, label: str | None = None) -> Any:
        """Allocate in every block's row (zeroed, as a block's own allocation is)."""
        ptr = super().alloc_bytes(dtype, nbytes, label=label)
        self.rows[:, ptr.address : ptr.address + nbytes] = 0
        return ptr

    def check(self, ptr: Pointer[Any], nbytes: int, action: str) -> int:
        """Bounds-check an access of the running block's VF; refuse any other."""
        if self.active is None:
            raise GroupRefused(f"{action} UB outside the group's copies and VFs ({ptr!r})")
        return super().check(ptr, nbytes, action)

    def use_all(self) -> None:
        """Make the memory every block's UB at once (a VF runs for the whole group).

        Its ``data`` is then the blocks x bytes rows (:class:`BlockRows`): only a batched
        loop's accesses (``ascreg.engine.batch.RowPointer``) know it; every other access
        refuses.
        """
        self.active, self.data = None, self.rows.view(BlockRows)
        self._typed.clear()

    def use_row(self, k: int) -> None:
        """Make the memory block *k*'s UB (a VF of that block runs)."""
        self.active, self.data = k, self.rows[k]
        self._typed.clear()

    def leave_row(self) -> None:
        """Make every access refuse again."""
        self.active, self.data = None, _NO_BYTES
        self._typed.clear()


# -- the group ------------------------------------------------------------------------------


class Group:
    """The blocks ``first .. first + count - 1`` of a launch, running as one."""

    def __init__(self, ctx: BlockContext, first: int, count: int, races: GmRaceCheck) -> None:
        self.ctx, self.first, self.count, self.races = ctx, first, count, races
        self.ub = StackedUb(count)
        self.journal = Journal()
        self.accesses: list[tuple[Memory, Lanes, Lanes, bool]] = []
        """``(memory, starts, ends, write)``: each GM access of the group, one span per block."""

    # -- copies ---------------------------------------------------------------------------

    def copy(self, dst: Any, src: Any, burst: Any, into_ub: bool, call: str) -> None:
        """Make a GM <-> UB copy of every block of the group (its bursts, padded as asked)."""
        ub, gm = (dst, src) if into_ub else (src, dst)
        if not isinstance(ub, UbPtr) or ub.memory is not self.ub or not isinstance(gm, GmPtr):
            raise GroupRefused(f"{call}: a copy between other memories than GM and the UB")
        if burst.compact or (not into_ub and _padded(burst)):
            raise GroupRefused(f"{call}: a copy form groups do not run")
        if not into_ub and store_atomic(self.ctx) is not None:
            raise GroupRefused(f"{call}: a store-atomic copy")
        addresses = gm.addresses if isinstance(gm, BlockGmPtr) else np.full(self.count, gm.address)
        size = gm.dtype.size
        if ub.address % DATA_BLOCK or (addresses % size).any():
            raise GroupRefused(f"{call}: a misaligned address")
        n, length = burst.n_burst, burst.len_burst
        ub_stride, gm_stride = (
            (burst.dst_stride, burst.src_stride)
            if into_ub
            else (burst.src_stride, burst.dst_stride)
        )
        left, right = burst.left_pad * size, burst.right_pad * size
        padded = left + length + right
        dummy = -padded % DATA_BLOCK if burst.fill_to_block else 0
        offsets = np.arange(n, dtype=np.int64)
        ub_starts = ub.address + offsets * ub_stride
        if ub_stride < 0 or not ub.fits(int(ub_starts[-1] - ub.address) + padded + dummy):
            raise GroupRefused(f"{call}: a UB range outside its allocation")
        gm_starts = addresses[:, None] + offsets * gm_stride  # blocks x bursts
        self._check_gm(gm, gm_starts, length, call)
        self._track(ub_starts, gm_starts, (length, padded + dummy), gm.memory, into_ub)
        self._move(ub_starts + left, gm_starts, length, gm.memory, into_ub)
        if padded + dummy > length:
            self._pad(ub_starts, burst, (left, length, right, dummy), ub.dtype)

    def _pad(self, ub_starts: Lanes, burst: Any, sizes: tuple[int, ...], dtype: Any) -> None:
        """Write a padded copy's pad and dummy bytes as ``mte.gm_to_ub`` does, every block."""
        left, length, right, dummy = sizes
        size, rows = dtype.size, self.ub.rows
        value = burst.pad_value
        constant = None if value is None else to_dtype([value], dtype).view(np.uint8)
        for start in ub_starts.tolist():
            first = rows[:, start + left : start + left + size].copy()  # the burst's first element
            end = start + left + length
            dummy_value = constant if left or right or burst.constant_fill else None
            for at, nbytes, fill in (
                (start, left, constant),
                (end, right, constant),
                (end + right, dummy, dummy_value),
            ):
                if nbytes:
                    unit = first if fill is None else np.broadcast_to(fill, (self.count, size))
                    rows[:, at : at + nbytes] = np.tile(unit, (1, -(-nbytes // size)))[:, :nbytes]

    def _check_gm(self, gm: GmPtr[Any], starts: Lanes, length: int, call: str) -> None:
        alloc = gm.block
        low, high = int(starts.min()), int(starts.max()) + length
        if alloc is None or not alloc.live or low < alloc.start or high > alloc.end:
            raise GroupRefused(f"{call}: a GM range outside its allocation")
        if high > gm.memory.data.size:
            gm.memory._grow(high)

    def _track(
        self,
        ub_starts: Lanes,
        gm_starts: Lanes,
        lengths: tuple[int, int],
        gm: Memory,
        into_ub: bool,
    ) -> None:
        """Record the copy's pipe accesses and byte marks, once for the whole group.

        *lengths*: the bytes of a burst in GM, and in UB with its padding.
        """
        ctx, (length, ub_length) = self.ctx, lengths
        tracker, pipe = ctx.tracker, PIPE_MTE2 if into_ub else PIPE_MTE3
        end = int(ub_starts[-1]) + ub_length
        if end > ctx.written.size:
            ctx.written = _grown(ctx.written, max(end, self.ub.rows.shape[1]))
            ctx.vf_stored = _grown(ctx.vf_stored, ctx.written.size)
        tracker.begin_copy(pipe)
        space = id(gm)
        for ub_start, column in zip(ub_starts.tolist(), gm_starts.T.tolist(), strict=True):
            ub_end = ub_start + ub_length
            if into_ub:
                for start in column:  # each block's GM bytes (another block's are others)
                    tracker.access(pipe, start, start + length, False, space)
                ctx.mark_written(ub_start, ub_end)
                tracker.access(pipe, ub_start, ub_end, True)
            else:
                if not ctx.all_written(ub_start, ub_end):
                    raise GroupRefused("a copy out of UB bytes never written")
                tracker.access(pipe, ub_start, ub_end, False)
                for start in column:
                    tracker.access(pipe, start, start + length, True, space)
        spans = gm_starts.reshape(self.count, -1)
        self.accesses.append((gm, spans.min(axis=1), spans.max(axis=1) + length, not into_ub))

    def _move(
        self, ub_starts: Lanes, gm_starts: Lanes, length: int, gm: Memory, into_ub: bool
    ) -> None:
        """Move every block's bursts, in one strided view of GM per burst.

        That is when the blocks are evenly spaced in GM (the common ``x + GetBlockIdx() * n``);
        otherwise the bytes are gathered or scattered.
        """
        rows = self.ub.rows
        if not into_ub:
            for k in range(self.count):
                for start in gm_starts[k].tolist():
                    self.journal.record(gm, start, length)
        for b, ub_start in enumerate(ub_starts.tolist()):
            column = gm_starts[:, b]
            ub_side = rows[:, ub_start : ub_start + length]
            gm_side = _blocks_view(gm.data, column, length)
            if gm_side is None:
                index = column[:, None] + np.arange(length, dtype=np.int64)
                if into_ub:
                    ub_side[...] = gm.data[index]
                else:
                    gm.data[index] = ub_side
            elif into_ub:
                ub_side[...] = gm_side
            else:
                gm_side[...] = ub_side

    # -- VF calls -------------------------------------------------------------------------

    def vf(
        self,
        func: Callable[..., Any],
        run: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        """Run the ``__simd_vf__`` *func* (its runner *run*) for every block of the group.

        Once for all blocks where ``_all_blocks`` can, else once per block
        (``_per_block``).
        """
        if not self._all_blocks(func, run, args, kwargs):
            self._per_block(run, args, kwargs)

    def _all_blocks(
        self,
        func: Callable[..., Any],
        run: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> bool:
        """Run the VF once, its batched loops on every block's row at once; False if not.

        Its loads then hold one row of lanes per block and iteration (the block is a leading
        axis), its stores write every row (``ascreg.engine.batch.ALL_BLOCKS``); what only one
        block at a time can do (an access outside a batched loop, a store through unevenly
        spaced rows) refuses: the UB rows, byte marks and pipe records are put back and the
        VF runs block by block. The first runs of each VF whose blocks
        hold different bytes are checked against the block-by-block run (``_VF_CHECKS``).
        """
        code = getattr(func, "__code__", None)
        checks = _VF_CHECKS.get(code, 0)
        values = (*args, *kwargs.values())
        if checks < 0 or any(isinstance(v, BlockLanes | BlockGmPtr) for v in values):
            return False
        key = (code, *map(_form, values))
        if key in _VF_REFUSED:
            return False
        ctx, top = self.ctx, self.ub.top
        rows_before, marks = self.ub.rows[:, :top].copy(), ctx.checkpoint()
        self.ub.use_all()
        ALL_BLOCKS[0] = True
        try:
            run(*args, **kwargs)
        except Exception as error:
            self.ub.rows[:, :top] = rows_before
            ctx.restore(marks)
            if len(_VF_REFUSED) >= 1024:
                _VF_REFUSED.clear()
            _VF_REFUSED.add(key)  # not tried again with these arguments
            name = getattr(func, "__name__", "VF")
            _tell_once(("vf", code), f"{name}: runs block by block in groups: {error}")
            return False
        finally:
            ALL_BLOCKS[0] = False
            self.ub.leave_row()
        if checks < _VF_CHECK_RUNS and not (rows_before == rows_before[:1]).all():
            self._check_all_blocks(func, checks, run, (args, kwargs), (rows_before, marks))
        return True

    def _check_all_blocks(
        self,
        func: Callable[..., Any],
        checks: int,
        run: Callable[..., Any],
        call: tuple[tuple[Any, ...], dict[str, Any]],
        before: tuple[Any, ...],
    ) -> None:
        """Run the VF again block by block from *before*; compare the UB rows and marks."""
        ctx, top = self.ctx, self.ub.top
        rows_before, marks = before
        grouped, grouped_marks = self.ub.rows[:, :top].copy(), ctx.written.copy()
        self.ub.rows[:, :top] = rows_before
        ctx.restore(marks)
        self._per_block(run, *call)
        same = np.array_equal(self.ub.rows[:, :top], grouped) and np.array_equal(
            ctx.written, grouped_marks
        )
        _VF_CHECKS[getattr(func, "__code__", None)] = checks + 1 if same else -1
        if not same:  # said after the group (whose warnings stop it)
            _DEFECTS.append(
                f"{getattr(func, '__name__', 'a VF')}: run once for a group of blocks, it left "
                "other UB bytes than its blocks one at a time (an ascreg defect: please report "
                "it); it now runs block by block"
            )

    def _per_block(
        self, run: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        """Run a ``__simd_vf__`` once per block, on that block's UB row and arguments.

        Every block starts from the byte marks the group had before the call and must end with
        the first block's (a VF that stores other bytes in another block, through
        data-dependent addresses, stops the group); the pipe tracker keeps every block's
        accesses, so a hazard of any block is one of the group.
        """
        ctx, lanes = self.ctx, ctx_lanes(self.ctx)
        before = _snapshot(ctx)
        after: tuple[Any, ...] | None = None
        try:
            for k in range(self.count):
                if k:
                    _restore(ctx, before)
                ctx.block_idx = int(lanes.values[k])
                self.ub.use_row(k)
                run(*_of_block(args, k), **{n: _of_block((v,), k)[0] for n, v in kwargs.items()})
                state = _state(ctx)
                if after is None:
                    after = state
                elif not _same_state(after, state):
                    raise GroupRefused("a VF accessed other UB bytes in another block")
        finally:
            self.ub.leave_row()
            ctx.block_idx = lanes  # type: ignore[assignment]

    # -- the end of a group ---------------------------------------------------------------

    def claim(self) -> None:
        """Refuse cross-block sharing of GM bytes; claim each block's writes for the race check."""
        by_memory: dict[int, list[tuple[Lanes, Lanes, bool]]] = {}
        for memory, starts, ends, write in self.accesses:
            by_memory.setdefault(id(memory), []).append((starts, ends, write))
        for spans in by_memory.values():
            _no_sharing(spans, self.count)
        for memory, starts, ends, write in self.accesses:
            hook = self.races.hook_of(memory)
            if not write or hook is None:
                continue
            for k in range(self.count):
                self.races.block = self.first + k
                hook.record(int(starts[k]), int(ends[k]))

    def written(self) -> list[tuple[Memory, int, np.ndarray[Any, Any]]]:
        """Return the GM bytes the group wrote, as they are now (the first-launch check)."""
        return [(m, s, Journal.now(m, s, old).copy()) for m, s, old in self.journal.entries]


def _padded(burst: Any) -> bool:
    return bool(burst.left_pad or burst.right_pad or burst.fill_to_block)


def _blocks_view(data: Lanes, starts: Lanes, length: int) -> Lanes | None:
    """Return ``blocks x length`` bytes of *data* at *starts* as one view, if evenly spaced."""
    if starts.size > 1:
        step = int(starts[1] - starts[0])
        if step < length or not (np.diff(starts) == step).all():
            return None
    else:
        step = length
    first = int(starts[0])
    return np.lib.stride_tricks.as_strided(
        data[first:], shape=(starts.size, length), strides=(step, 1)
    )


def _no_sharing(spans: list[tuple[Lanes, Lanes, bool]], count: int) -> None:
    """Refuse when a block reads GM bytes another block of the group writes.

    Run one after another, the later block would see the earlier one's bytes (or the earlier
    the old ones); in the group, both see what the group's order gives. Two blocks writing the
    same bytes is the race check's (:meth:`Group.claim`). The blocks' spans of each kind are
    first compared by their hulls (disjoint regions, the common case, end there), then byte by
    byte.
    """
    reads = [(s, e) for s, e, w in spans if not w]
    writes = [(s, e) for s, e, w in spans if w]
    if not reads or not writes:
        return
    r_lo, r_hi = _hulls(reads)
    w_lo, w_hi = _hulls(writes)
    overlap = (r_lo[:, None] < w_hi[None, :]) & (w_lo[None, :] < r_hi[:, None])
    np.fill_diagonal(overlap, False)
    if not overlap.any():
        return
    low = int(min(r_lo.min(), w_lo.min()))
    writer = np.zeros(int(max(r_hi.max(), w_hi.max())) - low, dtype=np.int64)
    for starts, ends in writes:
        for k, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
            segment = writer[start - low : end - low]
            segment[(segment != 0) & (segment != k + 1)] = -1  # several writers
            segment[segment == 0] = k + 1
    for starts, ends in reads:
        for k, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
            segment = writer[start - low : end - low]
            if ((segment != 0) & (segment != k + 1)).any():
                raise GroupRefused("a block reads GM bytes another block of the group writes")


def _hulls(spans: list[tuple[Lanes, Lanes]]) -> tuple[Lanes, Lanes]:
    """Return each block's lowest start and highest end over *spans*."""
    return (
        np.minimum.reduce([s for s, _ in spans]),
        np.maximum.reduce([e for _, e in spans]),
    )


def ctx_lanes(ctx: BlockContext) -> BlockLanes:
    """Return the group's :class:`BlockLanes` (its context's ``block_idx``)."""
    return ctx.block_idx  # type: ignore[return-value]


def _of_block(args: tuple[Any, ...], k: int) -> list[Any]:
    out = []
    for arg in args:
        if isinstance(arg, BlockLanes):
            arg = arg.values[k].item()
        elif isinstance(arg, BlockGmPtr):
            arg = arg.of(k)
        out.append(arg)
    return out


def _snapshot(ctx: BlockContext) -> tuple[Any, ...]:
    """Return the byte marks a VF changes (its pipe records are kept for every block)."""
    return ctx.written.copy(), set(ctx.full)


def _restore(ctx: BlockContext, state: tuple[Any, ...]) -> None:
    written, full = state
    ctx.written, ctx.full = written.copy(), set(full)


def _state(ctx: BlockContext) -> tuple[Any, ...]:
    return (ctx.written.copy(),)


def _same_state(one: tuple[Any, ...], other: tuple[Any, ...]) -> bool:
    return bool(np.array_equal(one[0], other[0]))


# -- admission ------------------------------------------------------------------------------

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
        _WHY[code] = _Admission().function(kernel, 0)
    return _WHY[code]


class _Admission:
    """The static check of :func:`why_not_grouped` over a kernel and the user code it names."""

    def __init__(self) -> None:
        self.seen: set[Any] = set()

    def function(self, func: Any, depth: int) -> str | None:
        code = getattr(func, "__code__", None)
        if code is None or code in self.seen:
            return None
        self.seen.add(code)
        if depth > 6:
            return f"{func.__qualname__}: user code nested too deep"
        try:
            source = textwrap.dedent(inspect.getsource(func))
            tree = ast.parse(source).body[0]
        except (OSError, TypeError, SyntaxError, IndexError):
            return f"{getattr(func, '__qualname__', func)}: its source cannot be read"
        scope = {**vars(sys.modules["builtins"]), **getattr(func, "__globals__", {})}
        scope.update(_closure(func))
        own = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
        own |= {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        for node in ast.walk(tree):
            why = self._node(node, scope, own, depth)
            if why is not None:
                line = code.co_firstlineno + getattr(node, "lineno", 1) - 1
                return f"{func.__qualname__} (line {line}): {why}"
        return None

    def _node(self, node: ast.AST, scope: dict[str, Any], own: set[str], depth: int) -> str | None:
        if isinstance(node, ast.Global | ast.Nonlocal):
            return "a global or nonlocal statement"
        if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store):
            root = _root(node)
            if root is None or root not in own:
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


# -- running a launch in groups -------------------------------------------------------------

_VF_CHECKS: dict[Any, int] = {}
"""Per VF (its code): how many of its runs for a whole group were checked against its blocks
one at a time and agreed; -1 once one did not (it then runs block by block)."""
_VF_REFUSED: set[tuple[Any, ...]] = set()
"""The VFs (code and argument forms, ``_form``) whose run for a whole group failed."""


def _form(value: Any) -> Any:
    """Return what a VF's run for a whole group may depend on in an argument."""
    if isinstance(value, Pointer):
        return (id(value.memory), value.address, value.dtype)
    return value if isinstance(value, int | float | str | bool | None) else type(value)


_DEFECTS: list[str] = []
"""Differences the checks found in the running group, warned about after it."""
_VF_CHECK_RUNS = 2
"""How many runs for a whole group of each VF are checked."""
_SPLITS: dict[Any, dict[int, int]] = {}
"""Per kernel and block count: the group size found to work from each first block."""
_CHECKED: dict[Any, bool] = {}
"""Per kernel: its first group was checked against its blocks run one at a time (True: equal)."""


def run_groups(runner: Any, races: GmRaceCheck) -> int:
    """Run the leading blocks of a vector launch in groups; return the first block still to run.

    *runner* is the launch's ``BlockRunner`` (:mod:`ascreg.machine.coop`): its kernel, arguments
    and block count, and ``run_block(k)``, which the first-launch check runs blocks alone with.
    """
    kernel, blocks = runner.func, runner.blocks
    name = getattr(kernel, "__name__", "kernel")
    code = getattr(kernel, "__code__", None)
    if not GROUPS[0] or blocks < 2 or _CHECKED.get(code) is False or _watched():
        return 0
    why = why_not_grouped(kernel)
    if why is not None:
        _tell_once(("admission", code), f"{name}: its blocks run one at a time: {why}")
        return 0
    splits = _SPLITS.setdefault((code, blocks), {})
    first = 0
    while blocks - first >= 2:
        count = splits.get(first, min(GROUP_BLOCKS, blocks - first))
        if count < 2:
            return first
        _ascreg_blocks = (first, count)  # the launch's BlockProgress reads it
        outcome = _attempt(runner, races, first, count)
        for defect in _DEFECTS:
            warnings.warn(defect, RuntimeWarning, stacklevel=4)
        _DEFECTS.clear()
        if isinstance(outcome, Divergent):
            splits[first] = int(np.argmin(outcome.agree))
            continue
        if isinstance(outcome, BaseException):
            _tell_once(
                ("stopped", code, type(outcome).__name__),
                f"{name}: blocks {first}-{first + count - 1} ran one at a time: {outcome}",
            )
            return first
        if code not in _CHECKED and not _check_once(code, name, outcome, runner.run_block):
            return int(first + count)
        LOG.debug("%s: blocks %d-%d ran as one group", name, first, first + count - 1)
        first += count
    return first


def _watched() -> bool:
    """Return True while a debugger, a tracer (pdb, ``ascreg.emit``) or a profile watches.

    They see each block run on its own, as written.
    """
    return sys.gettrace() is not None or bool(RECORDING)


_TOLD: set[Any] = set()


def _tell_once(key: Any, message: str) -> None:
    """Log *message* at DEBUG level on ``ascreg.groups``, once per *key*."""
    if key not in _TOLD:
        _TOLD.add(key)
        LOG.debug(message)


def _attempt(runner: Any, races: GmRaceCheck, first: int, count: int) -> Group | BaseException:
    """Run one group; return it, or the exception that stopped it (everything undone)."""
    shared = {k: v for k, v in runner.shared.items() if k != RUNNER_STATE}  # no SyncAll
    ctx = BlockContext(first, runner.blocks, 0, runner.name, shared=shared)
    group = Group(ctx, first, count, races)
    ctx.group = group
    ctx.ub = group.ub
    ctx.ub.on_access = ctx.hook
    untrack(ctx.ub)
    dyn = runner.dyn_bytes
    ctx.dynamic = ctx.ub.alloc_bytes(uint8_t, dyn, label=f"extern __ubuf__ (dynamic, {dyn} bytes)")
    ctx.block_idx = BlockLanes(np.arange(first, first + count, dtype=np.int64))  # type: ignore[assignment]
    output = io.StringIO()
    try:
        with _gm_refused(), contextlib.redirect_stdout(output), warnings.catch_warnings():
            warnings.simplefilter("error")
            with running_as(ctx):
                runner.func(*runner.args, **runner.kwargs)
            check_sync_clean(ctx)  # the launch's own end-of-block check
        if output.getvalue():
            raise GroupRefused("a block printed")
        group.claim()
    except Exception as error:
        group.journal.rollback()
        return error
    finally:
        ctx.release()
    return group


@contextlib.contextmanager
def _gm_refused() -> Iterator[None]:
    """Make every access to another memory than the group's own UB stop the group."""
    watched = [m for m in live_memories() if not isinstance(m, StackedUb)]
    previous = [m.on_access for m in watched]

    def refuse(start: int, end: int, action: str) -> None:
        raise GroupRefused(f"{action} memory outside the group's copies")

    for memory in watched:
        memory.on_access = refuse
    try:
        yield
    finally:
        for memory, hook in zip(watched, previous, strict=True):
            memory.on_access = hook


def _check_once(code: Any, name: str, group: Group, run_block: Callable[[int], None]) -> bool:
    """Check a kernel's first group against its blocks run alone; True when they agree.

    The group's GM writes are undone and its blocks run one at a time; what they write stays.
    """
    grouped = group.written()
    group.journal.rollback()
    for k in range(group.first, group.first + group.count):
        run_block(k)
    alone = [Journal.now(m, s, old) for m, s, old in grouped]
    same = all(np.array_equal(a, b) for (_, _, b), a in zip(grouped, alone, strict=True))
    _CHECKED[code] = same
    if not same:
        warnings.warn(
            f"{name}: a group of its blocks wrote other bytes than the blocks one at a time "
            "(an ascreg defect: please report it); its blocks now run one at a time",
            RuntimeWarning,
            stacklevel=2,
        )
    return same

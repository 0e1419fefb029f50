"""The blocks of a pure SIMT launch run side by side: one thread group for many blocks.

A pure SIMT kernel (``kernel[grid, block, dyn_ub_bytes, stream](args)``) runs its blocks one
after the other, each as one vectorised thread group (:mod:`ascreg.machine.simt.engine`). A
block of a few hundred threads then costs the Python overhead of every statement it runs, once
per block. :func:`run_simt_blocks` runs a *batch* of consecutive blocks as one group of
``blocks x threads`` lanes instead, in the masked form (:mod:`~ascreg.engine.simt.masked`), and
keeps the batch only where that is provably what the blocks run one after another leave:

* ``blockIdx`` holds each lane's block, as a :class:`WeakLanes` value: numpy treats it as it
  treats the Python ``int`` a block alone sees (``blockIdx.x * blockDim.x + threadIdx.x`` is
  ``uint32`` lanes, ``blockIdx.x - 1`` is ``-1`` for block 0, not a wrapped ``uint32``);
* each block has its own Unified Buffer (:class:`BatchUb`): ``__ubuf__`` arrays and the dynamic
  UB are laid out as in a block alone (the same addresses, the same capacity errors), one copy
  per block; a pointer into them (:class:`BlockLocalPtr`) reaches the copy of each lane's own
  block, and an access outside its allocation or a read of bytes the block has not written
  stops the batch;
* ``asc_syncthreads`` is free where every block is wholly in or out of the active mask, and warp
  functions see each block's own warps (:func:`~ascreg.machine.simt.rendezvous.run_warps`);
* every access to memory outside the blocks' UB (GM) goes through a SIMT pointer, which tells
  the batch which block made it (:class:`BlockBatch`). Bytes a block writes must not be read or
  written by another block of the batch, except by atomics of different blocks, which must meet
  each address in block order (so the old values they return and float sums are those of the
  blocks in turn). An access the batch was not told about (not through a SIMT pointer) stops it.

A batch that stops (any exception, a divergence the masked form cannot run, a broken rule above,
output printed) leaves nothing behind: its memory writes are undone, and its blocks run one after
the other, which then raise the error, print, or fall back exactly as they always did. A launch
whose batch stopped runs its remaining blocks one at a time and says why once per kernel on the
``ascreg.simt`` logger. ``ASCREG_SIMT_BATCH=0`` (:data:`~ascreg.engine.simt.batch.BATCHING`)
turns batches off.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.c_api import __ubuf__
>>> from ascreg.simt import asc_atomic_add, asc_syncthreads, blockIdx, dim3, run_simt_kernel
>>> from ascreg.simt import threadIdx
>>> def count(out, words):  # a histogram of each block's words, in its own UB
...     bins = __ubuf__(uint32_t, 4)
...     if threadIdx.x < 4:
...         bins[threadIdx.x] = 0
...     asc_syncthreads()
...     asc_atomic_add(bins + words[blockIdx.x * 8 + threadIdx.x] % 4, uint32_t(1))
...     asc_syncthreads()
...     if threadIdx.x < 4:
...         out[blockIdx.x * 4 + threadIdx.x] = bins[threadIdx.x]
>>> gm = GlobalMemory(); out, words = gm.alloc(uint32_t, 12), gm.alloc(uint32_t, 24)
>>> words.write(np.arange(24) * 3)
>>> run_simt_kernel(count, dim3(3), dim3(8), 0, (out, words))
>>> out.read(12).reshape(3, 4).tolist()
[[2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2]]
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import uint8_t
from ascreg.core.atomics import UFUNC_ATOMICS, apply_at
from ascreg.engine.simt.batch import BATCHING
from ascreg.engine.simt.masked import masked_version, tell_once, why_not_rewritten
from ascreg.errors import AddressSpaceError
from ascreg.machine import races
from ascreg.machine.block import block as running_as
from ascreg.machine.convert import to_dtype
from ascreg.machine.memory import (
    UB_BYTES,
    Allocation,
    Memory,
    UnifiedBuffer,
    live_memories,
    untrack,
)
from ascreg.machine.simt.engine import (
    BlockRun,
    Group,
    Journal,
    LanePointer,
    dim3,
    promote,
    run_paths,
    wrap_pointer,
)
from ascreg.machine.simt.lanes import (
    STATE,
    DivergenceSignal,
    Lanes,
    WeakLanes,
    active_indices,
)

Arr = np.ndarray[Any, Any]
BATCH_THREADS = 1 << 16
"""Lanes of one batch: it holds ``BATCH_THREADS // threads`` blocks (at least two, else none),
and the launch's last batch up to half as many again rather than leave a small tail batch (its
every op would cost nearly a full batch's Python for a few blocks' lanes)."""
MAX_BLOCKS = 32000
"""At most this many blocks in a batch (:class:`Marks` holds a block in an ``int16``)."""
_REFUSED: dict[Any, str] = {}
"""Why the last batch of a kernel (code object) stopped: its next launch runs block by block."""


class BatchStop(Exception):
    """A batch of blocks cannot give what its blocks run in turn give: run them in turn."""


class _LaneIndex:
    """``blockIdx`` of a batch: each lane's block coordinates."""

    __slots__ = ("x", "y", "z")

    def __init__(self, x: Arr, y: Arr, z: Arr) -> None:
        self.x, self.y, self.z = (v.view(WeakLanes) for v in (x, y, z))


# -- the Unified Buffers of a batch ----------------------------------------------------------------


class BatchUb:
    """One Unified Buffer per block of a batch, laid out as a block alone lays out its own.

    The allocations are made once in :attr:`layout` (a plain UB: the same addresses, labels and
    capacity errors as a block's); block *k*'s copy of byte *a* is byte ``k * stride + a`` of
    :attr:`memory`, where :attr:`stride` covers what is allocated so far (the copies move
    apart when an allocation grows it). :attr:`written` marks what each block has written.
    """

    def __init__(self, blocks: int, threads: int, dyn_ub_bytes: int) -> None:
        self.blocks = blocks
        self.threads = threads
        self.layout = UnifiedBuffer()
        untrack(self.layout)  # addresses only: never read or written
        self.stride = 0
        self.memory = UnifiedBuffer(blocks * UB_BYTES)
        untrack(self.memory)  # private to the batch: no journal, no watching
        self.written = np.zeros(0, dtype=np.bool_)
        self.writes = 0
        """How many stores marked bytes written so far (marks are never cleared)."""
        self.whole: set[tuple[int, int]] = set()
        """Byte ranges every block has written all of (they stay so)."""
        self.looked: dict[tuple[int, int], int] = {}
        """Per byte range: :attr:`writes` when it was last found not wholly written."""
        self.lane_block = np.repeat(np.arange(blocks, dtype=np.int64), threads)
        self._firsts: dict[tuple[int, int], Arr] = {}
        self.retired = False
        label = f"extern __ubuf__ (dynamic, {dyn_ub_bytes} bytes)"
        dynamic = self.layout.alloc_bytes(uint8_t, dyn_ub_bytes, label=label)
        self._cover()
        assert dynamic.block is not None  # an allocation's pointer knows it
        self.dynamic = BlockLocalPtr(self, uint8_t, dynamic.block, 0)

    def firsts(self, stride: int, first: int) -> Arr:
        """Return ``block * stride + first`` for each lane (read-only; kept per pair)."""
        found = self._firsts.get((stride, first))
        if found is None:
            found = self.lane_block * stride + first
            found.flags.writeable = False
            self._firsts[stride, first] = found
        return found

    def alloc(self, dtype: Any, count: int) -> BlockLocalPtr:
        """``__ubuf__ T buf[count]`` in every block of the batch."""
        first = self.layout.alloc(dtype, count)
        self._cover()
        assert first.block is not None
        return BlockLocalPtr(self, dtype, first.block, 0)

    def _cover(self) -> None:
        """Make each block's copy hold everything allocated (moving the copies apart)."""
        stride = max(32, -(-self.layout.top // 32) * 32)
        if stride == self.stride:
            return
        old, marks, blocks = self.memory.data, self.written, self.blocks
        data = np.zeros(blocks * stride, dtype=np.uint8)
        written = np.zeros(blocks * stride, dtype=np.bool_)
        if self.stride:
            data.reshape(blocks, stride)[:, : self.stride] = old[: blocks * self.stride].reshape(
                blocks, self.stride
            )
            written.reshape(blocks, stride)[:, : self.stride] = marks.reshape(blocks, self.stride)
        self.memory.data = data
        self.memory._typed.clear()
        self.written = written
        self.stride = stride


_ALL_WRITTEN = {
    1: (np.dtype(np.uint8), 1),
    2: (np.dtype(np.uint16), 0x0101),
    4: (np.dtype(np.uint32), 0x01010101),
    8: (np.dtype(np.uint64), 0x0101010101010101),
}
"""Per element size: the written marks of an element viewed as one number, and its value when
every byte is marked."""


_MIN, _MAX = np.minimum.reduce, np.maximum.reduce  # ndarray.min/max without their wrappers


class BlockLocalPtr:
    """A pointer into the UB of each lane's own block of a batch (``p + n``, ``p[i]``, atomics).

    *delta* is the element offset from the start of the allocation: one number, or one per
    lane. Accesses check each active lane against its allocation and its block's written
    bytes; what a block alone would report as an error stops the batch (:class:`BatchStop`).
    """

    __slots__ = ("alloc", "delta", "dtype", "ub")
    masks_stores = True

    def __init__(self, ub: BatchUb, dtype: Any, alloc: Allocation, delta: Any) -> None:
        self.ub = ub
        self.dtype = dtype
        self.alloc = alloc
        self.delta = delta

    def __repr__(self) -> str:
        return f"<__ubuf__ {self.dtype.cpp_name}* of each block's {self.alloc.describe()}>"

    # what masked merges of two pointers use (see masked._as_lane_offsets)
    @property
    def memory(self) -> Memory:
        """The batch's UB memory."""
        return self.ub.memory

    @property
    def address(self) -> int:
        """The allocation's address (every block's copy is there in its own UB)."""
        return int(self.alloc.start)

    @property
    def base(self) -> BlockLocalPtr:
        """The pointer to the allocation's first element."""
        return BlockLocalPtr(self.ub, self.dtype, self.alloc, 0)

    @property
    def offsets(self) -> Any:
        """The element offset(s) from :attr:`base`."""
        return np.asarray(self.delta, dtype=np.int64)

    def __add__(self, n: Any) -> BlockLocalPtr:
        if isinstance(n, np.ndarray) and n.ndim and n.dtype.kind in "iu":  # one int64 pass
            moved = np.add(self.delta, n.view(np.ndarray), dtype=np.int64, casting="unsafe")
            return BlockLocalPtr(self.ub, self.dtype, self.alloc, moved)
        if isinstance(n, np.ndarray) and n.ndim:
            step: Any = np.asarray(n).astype(np.int64).view(np.ndarray)
        elif isinstance(n, int | np.integer) and not isinstance(n, bool):
            step = int(n)
        else:
            raise BatchStop(f"pointer offset {n!r:.40} is not an integer")
        return BlockLocalPtr(self.ub, self.dtype, self.alloc, self.delta + step)

    __radd__ = __add__

    def __sub__(self, n: Any) -> Any:
        if isinstance(n, BlockLocalPtr):
            raise BatchStop("a difference of two UB pointers")
        return self.__add__(-np.asarray(n) if isinstance(n, np.ndarray) else -n)

    def cast(self, dtype: Any) -> BlockLocalPtr:
        """``(T*)p``: the same bytes as elements of *dtype*."""
        size, new = self.dtype.size, dtype.size
        delta = np.asarray(self.delta) * size
        if (delta % new).any():
            raise BatchStop("a cast pointer that is not at an element of its new type")
        moved = delta // new
        return BlockLocalPtr(self.ub, dtype, self.alloc, int(moved) if moved.ndim == 0 else moved)

    def _lanes(self, index: Any) -> tuple[Arr, Arr | None]:
        """Return where in the batch memory each active access is, and the active lanes.

        Where: the element of the memory viewed as the element type when the allocation is
        aligned to it (:meth:`_in_elements`), else the byte.
        """
        ub = self.ub
        if ub.retired:
            raise AddressSpaceError(
                f"{self!r}: the blocks of that batch have ended; UB belongs to one block while "
                "it runs"
            )
        lanes = ub.lane_block.size
        chosen = active_indices()
        delta = self.delta
        if chosen is not None and isinstance(delta, np.ndarray) and delta.ndim:
            delta = delta[chosen]  # (one per lane: the active lanes' only)
        if isinstance(index, np.ndarray) and index.ndim:
            if index.size != lanes:
                raise BatchStop("an index array that is not one index per thread")
            index = index.reshape(-1) if chosen is None else index.reshape(-1)[chosen]
            # one pass: the sum in int64, whatever integer type the index has
            element = np.add(index, delta, dtype=np.int64, casting="unsafe")
        elif isinstance(index, int | np.integer) and not isinstance(index, bool):
            count = lanes if chosen is None else chosen.size
            if int(index) == 0 and isinstance(delta, np.ndarray) and delta.shape == (count,):
                element = delta.astype(np.int64, copy=False)  # (read only from here on)
            else:
                element = np.broadcast_to(np.asarray(delta, np.int64), (count,)) + int(index)
        else:
            raise BatchStop(f"a UB index {index!r:.40} that is not an integer")
        size, start = self.dtype.size, self.alloc.start
        if element.size and (
            int(_MIN(element)) < 0 or start + int(_MAX(element)) * size + size > self.alloc.end
        ):
            raise BatchStop(f"a UB access outside {self.alloc.describe()}")
        if self._in_elements():
            firsts = ub.firsts(ub.stride // size, start // size)  # each lane's element 0
            return (firsts if chosen is None else firsts[chosen]) + element, chosen
        blocks = ub.lane_block if chosen is None else ub.lane_block[chosen]
        return blocks * ub.stride + (element * size + start), chosen

    def _in_elements(self) -> bool:
        """Tell whether every element of the allocation is at a whole element of each copy."""
        size = self.dtype.size
        return not (self.alloc.start % size or self.ub.stride % size)

    def _marks(self, where: Arr) -> tuple[Arr, Any, Any]:
        """Return the written marks of the elements at *where* (:meth:`_lanes`), one number each.

        That is the marks array, the index into it, and what an element whose every byte was
        written holds there.
        """
        size = self.dtype.size
        in_elements = self._in_elements()
        if size in _ALL_WRITTEN and in_elements:
            return self.ub.written.view(_ALL_WRITTEN[size][0]), where, _ALL_WRITTEN[size][1]
        flat = where * size if in_elements else where
        return self.ub.written, (flat[:, None] + np.arange(size)).reshape(-1), True

    def _is_written(self, where: Arr) -> bool:
        ub, span = self.ub, (self.alloc.start, self.alloc.end)
        if span in ub.whole:  # every byte of the allocation in every block: so these too
            return True
        marks, at, full = self._marks(where)
        if not (marks[at] == full).all():
            return False
        if ub.looked.get(span) != ub.writes and ub.blocks * (span[1] - span[0]) <= 64 * at.size:
            ub.looked[span] = ub.writes  # new stores since the last look: all written now?
            if ub.written.reshape(ub.blocks, ub.stride)[:, span[0] : span[1]].all():
                ub.whole.add(span)
        return True

    def _mark_written(self, where: Arr) -> None:
        marks, at, full = self._marks(where)
        marks[at] = full
        self.ub.writes += 1

    def __getitem__(self, index: Any) -> Any:
        if self.dtype.np_dtype.names is not None:
            raise BatchStop("a struct element in UB")
        where, chosen = self._lanes(index)
        if not self._is_written(where):
            raise BatchStop("a read of UB bytes the block has not written")
        values = promote(self._typed()[where])  # aligned: where counts elements
        if chosen is None:
            return values.view(Lanes)
        full = np.full(self.ub.lane_block.size, values[0] if values.size else 0, values.dtype)
        full[chosen] = values  # the other lanes hold an active lane's value (no 0 divisor)
        return full.view(Lanes)

    def __setitem__(self, index: Any, value: Any) -> None:
        if self.dtype.np_dtype.names is not None:
            raise BatchStop("a struct element in UB")
        where, chosen = self._lanes(index)
        values = to_dtype(value, self.dtype, call="p[i] = v").reshape(-1)
        values = np.broadcast_to(values, (self.ub.lane_block.size,))
        if chosen is not None:
            values = values[chosen]
        self._typed()[where] = values  # one element twice: the last lane wins
        self._mark_written(where)

    def _typed(self) -> Arr:
        if self.alloc.start % self.dtype.size:
            raise BatchStop("a UB array not aligned to its element type")
        return self.ub.memory.typed(self.dtype.np_dtype)

    def atomic_target(self) -> LanePointer:
        """Return the address of an atomic: each active lane's element of its block's copy.

        The old value an atomic reads must have been written by the block; the element is
        written afterwards.
        """
        where, chosen = self._lanes(0)
        if not self._is_written(where):
            raise BatchStop("an atomic on UB bytes the block has not written")
        if self.alloc.start % self.dtype.size:
            raise BatchStop("a UB array not aligned to its element type")
        if chosen is None:  # every lane: their elements (aligned), a new array of _lanes
            offsets = where.astype(np.int64, copy=False)
        else:
            offsets = np.zeros(self.ub.lane_block.size, dtype=np.int64)
            offsets[chosen] = where
        raw = wrap_pointer(self.ub.memory.pointer(self.dtype, 0))
        return LanePointer(raw, offsets)


class BatchBlock:
    """The running block of a batch (:func:`~ascreg.machine.block.current_block` returns it).

    It has what SIMT code asks a block for (its ``__ubuf__`` arrays, the dynamic UB); anything
    else, and ``block_idx`` (not one number in a batch), stops the batch.
    """

    def __init__(self, ub: BatchUb, block_num: int, kernel: str) -> None:
        self.ub_batch = ub
        self.block_num = block_num
        self.kernel = kernel
        self.shared: dict[str, Any] = {}
        self.array_allocator = None

    @property
    def block_idx(self) -> int:
        """Not one number in a batch: stops it."""
        raise BatchStop("block_idx read as one number")

    @property
    def dynamic(self) -> BlockLocalPtr:
        """The dynamic UB (``__ubuf__.extern``)."""
        return self.ub_batch.dynamic

    def alloc_array(self, dtype: Any, count: int) -> BlockLocalPtr:
        """``__ubuf__ T buf[count]`` of every block."""
        return self.ub_batch.alloc(dtype, count)

    def __getattr__(self, name: str) -> Any:
        raise BatchStop(f"the kernel asks the running block for {name!r}")


# -- what the blocks of a batch access -------------------------------------------------------------


_READ, _WRITE, _ATOMIC, _DEFERRED = 1, 2, 4, 8
"""How a block touched a unit of memory (:class:`Marks`); ``_DEFERRED``: an atomic applied when
the batch ends (:meth:`BlockBatch.defer`)."""


READS_PENDING = 1 << 21
"""Lanes of loads a :class:`Marks` keeps unmarked before it marks them."""
_RAMPS: dict[int, Arr] = {}


def _ramp(n: int) -> Arr:
    """``np.arange(n)``, made once per length."""
    ramp = _RAMPS.get(n)
    if ramp is None:
        ramp = _RAMPS[n] = np.arange(n, dtype=np.int64)
    return ramp


class Marks:
    """Which block of a batch touched each unit of one memory, and how.

    A unit is the widest power of two (at most 8 bytes) that every access so far is aligned
    to and a multiple of: the marks of a memory of ``float`` elements cost one entry per
    element, and they are split into smaller units when a narrower access comes (the first
    ``uint16_t`` store), so two blocks writing neighbouring bytes never look as if they shared
    one. ``owner`` holds block + 1 (0: untouched, -1: touched by several blocks), ``kinds`` the
    :data:`_READ`/:data:`_WRITE`/:data:`_ATOMIC` bits of every touch. Both cover the memory
    (zero pages cost nothing until touched) and are cleared between batches over the range
    touched.
    """

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.unit = 8
        units = -(-memory.data.size // self.unit) + 1
        self.owner = np.zeros(units, dtype=np.int16)
        self.kinds = np.zeros(units, dtype=np.uint8)
        self.low, self.high = units, 0
        self.touched: list[Any] | None = []
        """The units marked in this batch (index arrays and slices); None after a split."""
        self.touched_units = 0
        self.written = (np.iinfo(np.int64).max, -1)
        """The lowest and highest byte written (or updated by an atomic) in this batch."""
        self.shared_units: list[Arr] = []
        """The units found touched by several blocks (their kinds are checked at the end)."""
        self.deferred_units: list[Arr] = []
        """The units of the deferred atomics."""
        self.reads: list[tuple[Arr, int, Arr]] = []
        """Loads not marked yet: most read memory no block writes (:meth:`shared` marks
        those whose span meets a written byte)."""
        self.pending = 0
        self.mine: tuple[Arr | None, Arr] = (None, np.zeros(0, dtype=np.int16))
        """The last blocks marked and their marks (block + 1)."""

    def mark(self, addresses: Arr, size: int, blocks: Arr, kind: int) -> None:
        """Record that block ``blocks[i]`` touched the *size* bytes at ``addresses[i]``."""
        if addresses.size == 0:
            return
        if kind == _READ:
            self.reads.append((addresses, size, blocks))
            self.pending += addresses.size
            if self.pending > READS_PENDING:
                self._flush()
            return
        low, high = self.written
        self.written = (min(low, int(addresses.min())), max(high, int(addresses.max()) + size))
        self._mark_now(addresses, size, blocks, kind)

    def _flush(self, span: tuple[int, int] | None = None) -> None:
        """Mark the pending reads (only those meeting *span*, when given)."""
        reads, self.reads, self.pending = self.reads, [], 0
        for addresses, size, blocks in reads:
            if span is not None and (
                int(addresses.max()) + size <= span[0] or int(addresses.min()) >= span[1]
            ):
                continue
            self._mark_now(addresses, size, blocks, _READ)

    def _mark_now(self, addresses: Arr, size: int, blocks: Arr, kind: int) -> None:
        bits = int(np.bitwise_or.reduce(addresses)) | size | self.unit
        unit = bits & -bits  # the lowest set bit: the alignment common to all of them
        if unit < self.unit:
            self._split(unit)
        first = addresses >> (self.unit.bit_length() - 1)  # // unit, a power of two
        if self.mine[0] is not blocks:  # the marks of the same lanes' blocks: kept
            self.mine = (blocks, (blocks + 1).astype(np.int16))
        mine = self.mine[1]
        for step in range(size // self.unit):
            self._mark(first + step, mine, kind)

    def _mark(self, units: Arr, mine: Arr, kind: int) -> None:
        first = int(units[0])
        if first + units.size - 1 == int(units[-1]) and (units == _ramp(units.size) + first).all():
            self._mark_run(first, first + units.size, mine, kind)  # lanes in a row: slices
            return
        top = int(units.max())
        if top >= self.owner.size:
            self._grow(top + 1)
        self.low = min(self.low, int(units.min()))
        self.high = max(self.high, top + 1)
        self._touch(units, units.size)
        before = self.owner[units]
        self.owner[units] = mine
        clash = ((before != 0) & (before != mine)) | (self.owner[units] != mine)
        if clash.any():
            self.owner[units[clash]] = -1
            self.shared_units.append(units[clash])
        self.kinds[units] |= np.uint8(kind)
        if kind == _DEFERRED:
            self.deferred_units.append(units)

    def _mark_run(self, low: int, high: int, mine: Arr, kind: int) -> None:
        """:meth:`_mark` of units ``low .. high - 1``, one per lane (no unit twice)."""
        if high > self.owner.size:
            self._grow(high)
        self.low, self.high = min(self.low, low), max(self.high, high)
        self._touch(slice(low, high), high - low)
        owner = self.owner[low:high]
        clash = (owner != 0) & (owner != mine)
        owner[:] = mine
        if clash.any():
            owner[clash] = -1
            self.shared_units.append(low + np.flatnonzero(clash))
        self.kinds[low:high] |= np.uint8(kind)
        if kind == _DEFERRED:
            self.deferred_units.append(np.arange(low, high))

    def _touch(self, units: Any, count: int) -> None:
        """Note that *units* (*count* of them) are marked, for :meth:`clear`."""
        if self.touched is not None:
            self.touched.append(units)
            self.touched_units += count

    def _split(self, unit: int) -> None:
        """Make the units *unit* bytes (each old mark repeated over its new units)."""
        self.touched = None  # the units noted so far are of the old size
        ratio = self.unit // unit
        low, high = self.low, self.high
        for name in ("owner", "kinds"):
            old = getattr(self, name)
            new = np.zeros(old.size * ratio, dtype=old.dtype)  # pages made on touch
            if high > low:
                new[low * ratio : high * ratio] = np.repeat(old[low:high], ratio)
            setattr(self, name, new)
        if high > low:
            self.low, self.high = low * ratio, high * ratio
        else:
            self.low, self.high = self.owner.size, 0
        spread = np.arange(ratio)
        for name in ("shared_units", "deferred_units"):
            lists = getattr(self, name)
            setattr(self, name, [(u[:, None] * ratio + spread).reshape(-1) for u in lists])
        self.unit = unit

    def _grow(self, units: int) -> None:
        size = max(units, 2 * self.owner.size)
        for name in ("owner", "kinds"):
            old = getattr(self, name)
            grown = np.zeros(size, dtype=old.dtype)
            grown[: old.size] = old
            setattr(self, name, grown)

    def shared(self) -> bool:
        """Tell whether blocks share a unit unsafely.

        Unsafe: one block writes it (atomics apart) and another touches it, or atomics and plain
        accesses of different blocks meet there, or a deferred atomic and anything else meet.
        """
        if self.written[1] < 0:  # nothing written: reads alone share nothing
            self.reads, self.pending = [], 0
            return False
        self._flush(self.written)
        if self.deferred_units:
            kinds = self.kinds[np.concatenate(self.deferred_units)]
            if ((kinds & ~np.uint8(_DEFERRED)) != 0).any():
                return True  # an element updated at the end is also read or written before
        if not self.shared_units:
            return False  # every unit was touched by one block (the units that were not: below)
        kinds = self.kinds[np.concatenate(self.shared_units)]
        plain = (kinds & (_READ | _WRITE)) != 0
        return bool((((kinds & _WRITE) != 0) | (((kinds & _ATOMIC) != 0) & plain)).any())

    def clear(self) -> None:
        """Forget the last batch's marks."""
        if self.touched is not None and 8 * self.touched_units < self.high - self.low:
            for units in self.touched:  # a few units far apart: not the range between them
                self.owner[units] = 0
                self.kinds[units] = 0
        else:
            self.owner[self.low : self.high] = 0
            self.kinds[self.low : self.high] = 0
        self.touched, self.touched_units = [], 0
        self.low, self.high = self.owner.size, 0
        self.written = (np.iinfo(np.int64).max, -1)
        self.reads, self.pending = [], 0
        self.shared_units, self.deferred_units = [], []


class BlockBatch:
    """Which block of a batch touches which bytes (``Group.batch`` while the batch runs).

    The SIMT pointers report each load and store (:meth:`load`, :meth:`store`) and the atomics
    each update (:meth:`atomic`); a hook on every memory (:meth:`watch`) catches an access
    reported by neither. :meth:`verdict` then tells whether the batch left what its blocks in
    turn leave. *marks* (one :class:`Marks` per memory) are the launch's, reused batch after
    batch.
    """

    def __init__(
        self, blocks: int, threads: int, marks: dict[int, Marks], ub_memory: Memory | None = None
    ) -> None:
        self.lane_block = np.repeat(np.arange(blocks, dtype=np.int64), threads)
        self.ub_memory = ub_memory
        """The blocks' own UB (:class:`BatchUb`): no other block reaches it."""
        self.marks = marks
        self.used: list[Marks] = []
        self.inside = 0
        self.stray: str | None = None
        self.order: dict[int, tuple[Arr, Arr]] = {}
        self._blocks_of: tuple[Arr | None, Arr] = (None, self.lane_block)
        self.deferred: list[tuple[str, Any, Arr, Arr, Arr, int]] = []
        """Atomics to apply when the batch is kept: (update, base, elements, values, blocks,
        call number)."""

    def _lanes(self) -> Arr | None:
        return active_indices()

    def _blocks(self, lanes: Arr | None) -> Arr:
        """Return the block of each of *lanes* (None: every lane); kept for the last *lanes*."""
        if lanes is None:
            return self.lane_block
        if self._blocks_of[0] is not lanes:
            blocks = self.lane_block[lanes]
            blocks.flags.writeable = False  # shared by the accesses under the same mask
            self._blocks_of = (lanes, blocks)
        return self._blocks_of[1]

    def _record(self, memory: Memory, addresses: Arr, size: int, blocks: Arr, kind: int) -> None:
        marks = self.marks.get(id(memory))
        if marks is None:
            marks = self.marks[id(memory)] = Marks(memory)
        if all(m is not marks for m in self.used):
            self.used.append(marks)
        marks.mark(addresses, size, blocks, kind)

    def _note(self, ptr: Any, index: Any, kind: int) -> None:
        lanes = self._lanes()
        blocks = self._blocks(lanes)
        size = ptr.dtype.size
        idx = np.asarray(index)
        if idx.ndim == 0:
            elements: Arr = np.full(blocks.size, int(idx), dtype=np.int64)
        elif idx.size == self.lane_block.size:
            flat = idx.reshape(-1).astype(np.int64, copy=False)
            elements = flat if lanes is None else flat[lanes]
        else:
            raise BatchStop("an index array that is not one index per thread")
        self._record(ptr.memory, ptr.address + elements * size, size, blocks, kind)

    def load(self, ptr: Any, index: Any, load: Callable[[Any], Any]) -> Any:
        """``ptr[index]`` by the active lanes (a SIMT pointer's load)."""
        if races._ATOMIC[0]:  # an atomic's own access: :meth:`atomic` reported it
            return load(index)
        self.inside += 1
        try:
            value = load(index)  # its errors first (a bad index is the kernel's error)
        finally:
            self.inside -= 1
        self._note(ptr, index, _READ)
        return value

    def store(self, ptr: Any, index: Any, value: Any, store: Callable[[Any, Any], None]) -> None:
        """``ptr[index] = value`` by the active lanes (a SIMT pointer's store)."""
        if races._ATOMIC[0]:
            store(index, value)
            return
        self.inside += 1
        try:
            store(index, value)
        finally:
            self.inside -= 1
        self._note(ptr, index, _WRITE)

    def atomic(self, target: Any) -> None:
        """Report an atomic by the active lanes at *target*; stop if it breaks block order."""
        base = target.base if isinstance(target, LanePointer) else target
        if base.memory is self.ub_memory:
            return  # each block's own UB: no other block reaches it
        lanes = self._lanes()
        blocks = self._blocks(lanes)
        if isinstance(target, LanePointer):
            offsets = np.broadcast_to(target.offsets, self.lane_block.shape)
            elements = offsets if lanes is None else offsets[lanes]
        else:
            elements = np.zeros(blocks.size, dtype=np.int64)
        addresses = base.address + elements * base.dtype.size
        self._record(base.memory, addresses, base.dtype.size, blocks, _ATOMIC)
        self._in_block_order(id(base.memory), addresses, blocks)

    def defer(self, update: str, target: Any, values: list[Any]) -> bool:
        """Keep a GM atomic whose value is dropped for the end of the batch; False: apply it now.

        Kept updates are applied when the batch is kept, block by block and call by call
        (:meth:`apply`): what the blocks in turn do, whatever order their lanes met the
        addresses in. The elements are checked now (their errors come now), and must not be
        read or written otherwise by the batch (:class:`Marks`).
        """
        lanes = self._lanes()
        if isinstance(target, LanePointer):
            base = target.base
            offsets = np.broadcast_to(target.offsets, self.lane_block.shape)
            elements = offsets if lanes is None else offsets[lanes]
        else:
            base = target
            elements = np.zeros(self.lane_block.size if lanes is None else lanes.size, np.int64)
        if update not in UFUNC_ATOMICS or base.memory is self.ub_memory or len(values) != 1:
            return False
        blocks = self._blocks(lanes)
        value = np.broadcast_to(values[0], self.lane_block.shape)
        value = value if lanes is None else value[lanes]
        with races.atomic_access():
            base[elements]  # the bounds check (and any hook) of the read an atomic makes
        addresses = base.address + elements * base.dtype.size
        self._record(base.memory, addresses, base.dtype.size, blocks, _DEFERRED)
        entry = (update, base, elements, np.array(value), blocks, len(self.deferred))
        self.deferred.append(entry)
        return True

    def apply(self) -> None:
        """Apply the deferred atomics, in block order, then call order, then lane order."""
        entries = self.deferred
        if not entries:
            return
        sizes = [blocks.size for *_, blocks, _ in entries]
        calls = np.repeat(np.arange(len(entries)), sizes)
        lanes = np.concatenate([np.arange(n) for n in sizes])
        # the lanes come in call order, then lane order: a stable sort by block keeps both
        # (blocks number at most MAX_BLOCKS: 16-bit keys sort by radix)
        order = np.argsort(np.concatenate([e[4] for e in entries]).astype(np.int16), kind="stable")
        call_of, lane_of = calls[order], lanes[order]
        runs = np.flatnonzero(np.r_[True, call_of[1:] != call_of[:-1]])
        # the runs of one call in one block; runs of the same update at once (its ufunc.at)
        groups: list[tuple[Any, list[tuple[int, Arr]]]] = []
        for start, end in zip(runs, np.r_[runs[1:], order.size], strict=True):
            k = int(call_of[start])
            update, base = entries[k][0], entries[k][1]
            key = (update, id(base.memory), base.address, base.dtype)
            if not groups or groups[-1][0] != key:
                groups.append((key, []))
            groups[-1][1].append((k, lane_of[start:end]))
        with races.atomic_access():
            for key, parts in groups:
                base = entries[parts[0][0]][1]
                elements = np.concatenate([entries[k][2][at] for k, at in parts])
                values = np.concatenate([entries[k][3][at] for k, at in parts])
                apply_at(UFUNC_ATOMICS[key[0]], base, elements, values)
        entries.clear()

    def _in_block_order(self, memory: int, addresses: Arr, blocks: Arr) -> None:
        """Check that every earlier atomic at these addresses was made by no later block."""
        order = np.argsort(addresses, kind="stable")  # lanes of a call come in block order
        ordered = addresses[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        keys = ordered[starts]
        low = blocks[order][starts]
        high = blocks[order][np.r_[starts[1:], ordered.size] - 1]
        known = self.order.get(memory)
        if known is not None:
            seen, latest = known
            at = np.searchsorted(seen, keys)
            hit = at < seen.size
            hit[hit] = seen[at[hit]] == keys[hit]
            if (latest[at[hit]] > low[hit]).any():
                raise BatchStop("atomics of two blocks meet an address out of block order")
            merged = np.union1d(seen, keys)
            top = np.full(merged.size, -1)
            top[np.searchsorted(merged, seen)] = latest
            where = np.searchsorted(merged, keys)
            top[where] = np.maximum(top[where], high)
            self.order[memory] = (merged, top)
        else:
            self.order[memory] = (keys, high)

    def watch(self, memories: list[Memory]) -> list[_Watch]:
        """Watch *memories*: an access no SIMT pointer or atomic reported stops the batch."""
        return [_Watch(self, memory) for memory in memories]

    def verdict(self) -> str | None:
        """Return why the batch differs from its blocks in turn, or None when it does not.

        Clears the marks for the next batch.
        """
        why = self.stray
        for marks in self.used:
            if why is None and marks.shared():
                why = "two blocks of the batch share memory one of them writes"
            marks.clear()
        return why


class _Watch:
    """``on_access`` of a memory while a batch runs: unreported accesses stop it; then chain."""

    __slots__ = ("batch", "memory", "previous")

    def __init__(self, batch: BlockBatch, memory: Memory) -> None:
        self.batch = batch
        self.memory = memory
        self.previous = memory.on_access
        memory.on_access = self

    def __call__(self, start: int, end: int, action: str) -> None:
        batch = self.batch
        if not batch.inside and not races._ATOMIC[0] and batch.stray is None:
            batch.stray = f"an access to {self.memory!r} not through a SIMT pointer"
        if self.previous is not None:
            self.previous(start, end, action)

    def unhook(self) -> None:
        if self.memory.on_access is self:
            self.memory.on_access = self.previous


# -- running a launch ------------------------------------------------------------------------------

_TIDS: dict[tuple[int, int], Arr] = {}


def run_simt_blocks(
    func: Callable[..., Any],
    grid: dim3,
    block: dim3,
    dyn_ub_bytes: int,
    args: tuple[Any, ...],
    run_one: Callable[[int], None],
) -> None:
    """Run every block of a pure SIMT launch in order: in batches where exact, else one by one.

    *run_one(linear)* runs block *linear* alone (x fastest). After a batch that stopped, the
    rest of the launch runs one block at a time, and the kernel's next launch starts so too.
    """
    total, threads = grid.count, block.count
    per = min(BATCH_THREADS // threads, MAX_BLOCKS)
    code = getattr(func, "__code__", func)
    batching = BATCHING[0] and per >= 2 and code not in _REFUSED
    marks: dict[int, Marks] = {}
    first = 0
    while first < total:
        count = total - first if total - first <= per + per // 2 else per
        if batching and count >= 2:
            why = _run_batch(func, grid, block, dyn_ub_bytes, args, (first, count), marks)
            if why is None:
                first += count
                continue
            batching = False
            _REFUSED[code] = why
            name = getattr(func, "__name__", repr(func))
            tell_once(("batch", code, why), f"{name}: its blocks run one at a time: {why}")
        for linear in range(first, first + count):
            run_one(linear)
        first += count
    if batching:
        _REFUSED.pop(code, None)


def why_not_batched(func: Any) -> str | None:
    """Return why the last batch of *func*'s blocks stopped, or None.

    A kernel whose batch stopped runs its next launch block by block.

    Examples
    --------
    >>> why_not_batched(len) is None
    True
    """
    return _REFUSED.get(getattr(func, "__code__", func))


def _run_batch(
    func: Callable[..., Any],
    grid: dim3,
    block: dim3,
    dyn_ub_bytes: int,
    args: tuple[Any, ...],
    span: tuple[int, int],
    marks: dict[int, Marks],
) -> str | None:
    """Run blocks ``first .. first + count - 1`` (*span*) as one group; why not, or None (kept)."""
    first, count = span
    threads = block.count
    ub = BatchUb(count, threads, dyn_ub_bytes)
    name = getattr(func, "__name__", repr(func))
    ctx = BatchBlock(ub, grid.count, name)
    run = BlockRun(func, args, block, grid, dim3(first), pure_simt=True)
    tids = _TIDS.get((threads, count))
    if tids is None:
        tids = _TIDS[threads, count] = np.tile(np.arange(threads, dtype=np.int64), count)
        tids.flags.writeable = False  # shared: its thread indices are cached
    journal = Journal()
    group = Group(run, tids, journal)
    linear = np.arange(first, first + count, dtype=np.int64)  # per block, then per lane
    rest = linear // grid.x
    coords = (np.repeat(c, threads) for c in (linear % grid.x, rest % grid.y, rest // grid.y))
    group.block_idx = _LaneIndex(*coords)  # type: ignore[assignment]
    batch = BlockBatch(count, threads, marks, ub.memory)
    group.batch = batch
    made = masked_version(func, wrap_pointer)
    memories = live_memories()
    previous, STATE.group = STATE.group, group
    hooks = journal.hook(memories)
    watches = batch.watch(memories)
    held, buffer = sys.stdout, io.StringIO()
    sys.stdout = buffer
    why: str | None = None
    try:
        with running_as(ctx):  # type: ignore[arg-type]
            if made is func and why_not_rewritten(func):
                run_paths(made, run.args, group, journal)  # no source: path by path
            else:
                made(*run.args)
    except BatchStop as stop:
        why = str(stop)
    except (Exception, DivergenceSignal) as exc:
        why = f"{type(exc).__name__}: {exc}"
    finally:
        if group.active is not None:
            np.seterr(**group.saved_err)
            group.active = None
        sys.stdout = held
        for watch in reversed(watches):
            watch.unhook()
        Journal.unhook(hooks)
        STATE.group = previous
        ub.retired = True
    if why is None and buffer.getvalue():
        why = "it prints (each block prints in turn)"
    if why is None:
        why = batch.verdict()
    if why is not None:
        journal.rollback()
    else:
        batch.apply()
    return why

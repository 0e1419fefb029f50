"""Cooperative groups (``simt_api/cooperative_groups.h``, ``namespace cooperative_groups``).

Groups are built inside a SIMT kernel and describe sets of its threads:

* :func:`this_thread_block` — the block (:class:`thread_block`);
* :func:`tiled_partition` ``(parent, n)`` or ``tiled_partition[n](parent)`` — the block cut into
  tiles of *n* consecutive threads (:class:`thread_block_tile`; *n* a power of two, 1..2048);
* :func:`coalesced_threads` — the active threads of the caller's warp (:class:`coalesced_group`);
* :func:`binary_partition` ``(g, pred)`` — the members of *g* with the same *pred* as the caller.

Members return per-thread values (``Lanes``) where they differ between threads. They run on the
SIMT engine's warp functions (``ascreg.core.warp``): a tile of at most 32 threads shuffles with
``asc_shfl*(var, lane, width=n)`` and votes with ``asc_ballot``; a coalesced group maps ranks
to lanes through its lane mask (``ascreg.core.groups``). ``sync()`` uses the engine's own
synchronisation: ``thread_block.sync()`` and the ``sync()`` of a tile of more than 32 threads
are ``asc_syncthreads()`` (every thread of the block must reach it, as on the chip for a block
barrier; ascreg does not model a barrier of one multi-warp tile alone), the ``sync()`` of a
single-warp tile or a coalesced group is a warp rendezvous (a vote the threads of the warp meet
at; in lockstep code it costs nothing).

Not modelled: ``shfl``, ``any`` and ``all`` of tiles of more than 32 threads (they exchange
through the block's scratch memory, ``block_tile_memory``; ascreg raises
:class:`~ascreg.errors.UnsupportedError`), ``tiled_partition`` of a coalesced group.

The members are also free functions taking the group first (``sync(g)`` is ``g.sync()``, as
``cg::sync(g)`` in CUDA), one row each (:data:`ascreg._spec.simt.GROUP_FUNCTIONS`); a group of
a class the member does not have is an :class:`~ascreg.errors.AscregTypeError`. ``all(g, p)``
and ``any(g, p)`` are ``ascreg.simt.all`` / ``ascreg.simt.any`` but not in ``__all__``, so
that ``from ascreg.simt import *`` keeps Python's built-ins.

Examples
--------
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
>>> out = GlobalMemory().alloc(uint32_t, 64)
>>> def kernel(out):
...     tile = tiled_partition(this_thread_block(), 8)
...     out[threadIdx.x] = tile.shfl_down(threadIdx.x, 1) + 100 * tile.meta_group_rank()
>>> run_simt_kernel(kernel, dim3(1), dim3(64), 0, (out,))
>>> out.read(64)[:10].tolist()
[1, 2, 3, 4, 5, 6, 7, 7, 109, 110]
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from ascreg._frontend.template import define
from ascreg._spec import SPECS
from ascreg.core import groups
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.simt.engine import blockDim, blockIdx, current_group, dim3, threadIdx
from ascreg.machine.simt.lanes import Lanes
from ascreg.machine.simt.rendezvous import WARP_SIZE
from ascreg.simt.warp import (
    asc_activemask,
    asc_ballot,
    asc_shfl,
    asc_shfl_down,
    asc_shfl_up,
    asc_shfl_xor,
    asc_syncthreads,
    laneid,
)

MAX_TILE = 2048
"""Return the largest tile (``details::max_thread_block_size``)."""


def _tids() -> Any:
    return np.asarray(current_group("a cooperative group").tids)


def _lanes(values: Any, dtype: Any) -> Any:
    return np.asarray(values).astype(dtype).view(Lanes)


def _warp_rendezvous() -> None:
    """Meet the other active threads of the warp (a vote whose result is not used)."""
    asc_ballot(np.int32(1))


class thread_block:
    """``cooperative_groups::thread_block``: every thread of the running block.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
    >>> out = GlobalMemory().alloc(uint32_t, 6)
    >>> def kernel(out):
    ...     block = this_thread_block()
    ...     out[block.thread_rank()] = block.size() * 10 + block.thread_index().y
    >>> run_simt_kernel(kernel, dim3(1), dim3(3, 2), 0, (out,))
    >>> out.read(6).tolist()
    [60, 60, 60, 61, 61, 61]
    """

    def sync(self) -> None:
        """Block barrier: ``asc_syncthreads()``."""
        asc_syncthreads()

    def thread_rank(self) -> Any:
        """Return the thread's linear index in the block (``unsigned int`` per thread)."""
        return _lanes(_tids(), np.uint32)

    def group_index(self) -> dim3:
        """Return the block's index in the grid (``blockIdx``)."""
        return dim3(blockIdx.x, blockIdx.y, blockIdx.z)

    def thread_index(self) -> Any:
        """Return the thread's index in the block (``threadIdx``: ``.x``, ``.y``, ``.z`` per thread)."""
        return threadIdx

    def dim_threads(self) -> dim3:
        """Return the block's shape (``blockDim``)."""
        return dim3(blockDim.x, blockDim.y, blockDim.z)

    def group_dim(self) -> dim3:
        """Return the block's shape (``blockDim``), the older spelling of :meth:`dim_threads`."""
        return self.dim_threads()

    def num_threads(self) -> int:
        """Return the number of threads in the block."""
        return int(blockDim.x * blockDim.y * blockDim.z)

    def size(self) -> int:
        """Return the number of threads in the block (as :meth:`num_threads`)."""
        return self.num_threads()


@define("this_thread_block")
def this_thread_block(op: Any) -> thread_block:
    """``thread_block this_thread_block()``: the running block as a group.

    Examples
    --------
    >>> from ascreg.simt import dim3, run_simt_kernel
    >>> sizes = []
    >>> run_simt_kernel(lambda: sizes.append(this_thread_block().size()), dim3(1), dim3(40), 0, ())
    >>> sizes
    [40]
    """
    current_group("this_thread_block()")
    return thread_block()


class thread_block_tile:
    """``thread_block_tile<Size>``: the block cut into tiles of *Size* consecutive threads.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
    >>> out = GlobalMemory().alloc(uint32_t, 8)
    >>> def kernel(out):
    ...     tile = tiled_partition[4](this_thread_block())
    ...     out[threadIdx.x] = tile.ballot(threadIdx.x % 3 == 0)
    >>> run_simt_kernel(kernel, dim3(1), dim3(8), 0, (out,))
    >>> [hex(v) for v in out.read(8)[::4]]
    ['0x9', '0x4']
    """

    def __init__(self, size: int, parent: thread_block) -> None:
        if not (isinstance(size, int) and 0 < size <= MAX_TILE and size & (size - 1) == 0):
            raise AscregError(
                f"a tile of {size!r} threads: the size must be a power of two in 1..{MAX_TILE}",
                call="tiled_partition",
            )
        if not isinstance(parent, thread_block):
            raise UnsupportedError(
                f"tiled_partition of a {type(parent).__name__}: ascreg partitions only the "
                "thread_block (this_thread_block())",
                call="tiled_partition",
            )
        self._size = size
        self.parent = parent

    def _single_warp(self, member: str) -> None:
        """Refuse *member* on a multi-warp tile (a one-thread tile shuffles with itself)."""
        if self._size > WARP_SIZE:
            raise UnsupportedError(
                f"{member} of a {self._size}-thread tile: multi-warp tiles exchange through "
                "block_tile_memory scratch, which ascreg does not model (tiles up to 32 threads)",
                call=f"thread_block_tile.{member}",
            )

    def sync(self) -> None:
        """Synchronise the tile: a warp rendezvous, or ``asc_syncthreads()`` past 32 threads."""
        if self._size > WARP_SIZE:
            asc_syncthreads()
        else:
            _warp_rendezvous()

    def thread_rank(self) -> Any:
        """Return the thread's index in its tile (``unsigned long long``)."""
        return _lanes(_tids() % self._size, np.uint64)

    def num_threads(self) -> int:
        """*Size*."""
        return self._size

    def size(self) -> int:
        """*Size* (as :meth:`num_threads`)."""
        return self._size

    def meta_group_rank(self) -> Any:
        """Return the tile's index in the block (``unsigned int``)."""
        return _lanes(_tids() // self._size, np.uint32)

    def meta_group_size(self) -> int:
        """Return the number of tiles in the block (a partial last tile counts)."""
        return -(-self.parent.num_threads() // self._size)

    def shfl(self, var: Any, src_rank: Any) -> Any:
        """``var`` of the tile's thread *src_rank*: ``asc_shfl(var, src_rank, Size)``."""
        self._single_warp("shfl")
        return var if self._size == 1 else asc_shfl(var, src_rank, self._size)

    def shfl_up(self, var: Any, delta: Any) -> Any:
        """``var`` of rank ``rank - delta`` (own value below 0): ``asc_shfl_up(..., Size)``."""
        self._single_warp("shfl_up")
        return var if self._size == 1 else asc_shfl_up(var, delta, self._size)

    def shfl_down(self, var: Any, delta: Any) -> Any:
        """``var`` of rank ``rank + delta`` (own value past the tile): ``asc_shfl_down``."""
        self._single_warp("shfl_down")
        return var if self._size == 1 else asc_shfl_down(var, delta, self._size)

    def shfl_xor(self, var: Any, lane_mask: Any) -> Any:
        """``var`` of rank ``rank ^ lane_mask``: ``asc_shfl_xor(var, lane_mask, Size)``."""
        self._single_warp("shfl_xor")
        return var if self._size == 1 else asc_shfl_xor(var, lane_mask, self._size)

    def ballot(self, predicate: Any) -> Any:
        """Bit *r* set when the tile's thread of rank *r* has a nonzero *predicate*."""
        self._single_warp("ballot")
        return _lanes(groups.tile_bits(asc_ballot(predicate), laneid(), self._size), np.uint32)

    def any(self, predicate: Any) -> Any:
        """1 when some active thread of the tile has a nonzero *predicate*, else 0."""
        return _lanes(self.ballot(predicate) != 0, np.int32)

    def all(self, predicate: Any) -> Any:
        """1 when every active thread of the tile has a nonzero *predicate*, else 0."""
        active = groups.tile_bits(asc_activemask(), laneid(), self._size)
        return _lanes((active & ~np.asarray(self.ballot(predicate))) == 0, np.int32)


class _TiledPartition:
    """``tiled_partition(parent, tilesz)`` / ``tiled_partition<Size>(parent)``: tiles of the block.

    Spelled ``tiled_partition(block, n)`` or, as the C++ template, ``tiled_partition[n](block)``;
    both give a :class:`thread_block_tile` of *n* threads.

    Examples
    --------
    >>> from ascreg.simt import dim3, run_simt_kernel
    >>> seen = []
    >>> def kernel():
    ...     seen.append(tiled_partition(this_thread_block(), 16).meta_group_size())
    ...     seen.append(tiled_partition[8](this_thread_block()).size())
    >>> run_simt_kernel(kernel, dim3(1), dim3(40), 0, ())
    >>> seen
    [3, 8]
    """

    def __call__(self, parent: thread_block, tilesz: int) -> thread_block_tile:
        return thread_block_tile(tilesz, parent)

    def __getitem__(self, size: int) -> Any:
        return lambda parent: thread_block_tile(size, parent)


tiled_partition = _TiledPartition()
"""Tiles of the block: ``tiled_partition(block, n)`` or ``tiled_partition[n](block)``."""


class coalesced_group:
    """``cooperative_groups::coalesced_group``: a set of lanes of one warp, ranked by lane.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
    >>> out = GlobalMemory().alloc(uint64_t, 8)
    >>> def kernel(out):
    ...     if threadIdx.x % 2 == 1:
    ...         g = coalesced_threads()
    ...         out[threadIdx.x] = g.thread_rank() + 10 * g.size()
    >>> run_simt_kernel(kernel, dim3(1), dim3(8), 0, (out,))
    >>> out.read(8).tolist()
    [0, 40, 0, 41, 0, 42, 0, 43]
    """

    def __init__(self, mask: Any, meta_rank: int = 0, meta_size: int = 1) -> None:
        self.mask = _lanes(mask, np.uint32)
        self._meta = (meta_rank, meta_size)

    def sync(self) -> None:
        """Meet the group's threads at a warp rendezvous."""
        _warp_rendezvous()

    def num_threads(self) -> Any:
        """Return the number of threads in the group (``unsigned long long``)."""
        return _lanes(groups.popcount(self.mask), np.uint64)

    def size(self) -> Any:
        """Return the number of threads in the group (as :meth:`num_threads`)."""
        return self.num_threads()

    def thread_rank(self) -> Any:
        """Return the thread's rank: the group's lanes below it."""
        return _lanes(groups.rank_of(self.mask, laneid()), np.uint64)

    def meta_group_rank(self) -> int:
        """0 for :func:`coalesced_threads` and :func:`binary_partition` groups."""
        return self._meta[0]

    def meta_group_size(self) -> int:
        """1 for :func:`coalesced_threads` and :func:`binary_partition` groups."""
        return self._meta[1]

    def _lane_of_rank(self, rank: Any) -> Any:
        return groups.lane_of(self.mask, rank).astype(np.int32)

    def shfl(self, var: Any, src_rank: Any) -> Any:
        """``var`` of the member of rank ``src_rank % size()``."""
        rank = np.asarray(src_rank).astype(np.int64) % np.asarray(self.size()).astype(np.int64)
        return asc_shfl(var, _lanes(self._lane_of_rank(rank), np.int32), WARP_SIZE)

    def shfl_up(self, var: Any, delta: Any) -> Any:
        """``var`` of rank ``rank - delta``; the caller's own value below rank 0."""
        rank = np.asarray(self.thread_rank()).astype(np.int64) - np.int64(delta)
        lane = np.where(rank >= 0, self._lane_of_rank(np.maximum(rank, 0)), laneid())
        return asc_shfl(var, _lanes(lane, np.int32), WARP_SIZE)

    def shfl_down(self, var: Any, delta: Any) -> Any:
        """``var`` of rank ``rank + delta``; the caller's own value past the last member."""
        rank = np.asarray(self.thread_rank()).astype(np.int64) + np.int64(delta)
        inside = rank < np.asarray(self.size()).astype(np.int64)
        lane = np.where(inside, self._lane_of_rank(np.minimum(rank, 31)), laneid())
        return asc_shfl(var, _lanes(lane, np.int32), WARP_SIZE)

    def ballot(self, predicate: Any) -> Any:
        """Bit *r* set when the member of rank *r* has a nonzero *predicate*."""
        return _lanes(groups.compact(asc_ballot(predicate), self.mask), np.uint32)

    def any(self, predicate: Any) -> Any:
        """1 when some member has a nonzero *predicate*, else 0."""
        return _lanes((np.asarray(asc_ballot(predicate)) & self.mask) != 0, np.int32)

    def all(self, predicate: Any) -> Any:
        """1 when every member has a nonzero *predicate*, else 0."""
        return _lanes((np.asarray(asc_ballot(predicate)) & self.mask) == self.mask, np.int32)


@define("coalesced_threads")
def coalesced_threads(op: Any) -> coalesced_group:
    """``coalesced_group coalesced_threads()``: the active threads of the caller's warp.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
    >>> out = GlobalMemory().alloc(uint64_t, 4)
    >>> def kernel(out):
    ...     if threadIdx.x < 3:
    ...         out[threadIdx.x] = coalesced_threads().size()
    >>> run_simt_kernel(kernel, dim3(1), dim3(4), 0, (out,))
    >>> out.read(4).tolist()
    [3, 3, 3, 0]
    """
    return coalesced_group(asc_activemask())


@define("binary_partition")
def binary_partition(op: Any, g: Any, pred: Any) -> coalesced_group:
    """``coalesced_group binary_partition(g, bool pred)``: the members of *g* with the same *pred*.

    *g* is a :class:`coalesced_group` or a :class:`thread_block_tile` of at most 32 threads.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.simt import dim3, run_simt_kernel, threadIdx
    >>> out = GlobalMemory().alloc(uint64_t, 8)
    >>> def kernel(out):
    ...     part = binary_partition(coalesced_threads(), threadIdx.x < 3)
    ...     out[threadIdx.x] = part.thread_rank() + 10 * part.size()
    >>> run_simt_kernel(kernel, dim3(1), dim3(8), 0, (out,))
    >>> out.read(8).tolist()
    [30, 31, 32, 50, 51, 52, 53, 54]
    """
    if isinstance(g, thread_block_tile):
        g._single_warp("binary_partition")
        full = np.uint64((1 << g.size()) - 1)
        start = (np.asarray(laneid()).astype(np.uint64) // np.uint64(g.size())) * np.uint64(
            g.size()
        )
        mask: Any = (full << start).astype(np.uint32)
    elif isinstance(g, coalesced_group):
        mask = np.asarray(g.mask)
    else:
        raise UnsupportedError(
            f"binary_partition of a {type(g).__name__}: it takes a coalesced_group or a "
            "thread_block_tile",
            call="binary_partition",
        )
    votes = np.asarray(asc_ballot(pred)).astype(np.uint32)
    same = np.where(np.asarray(pred).astype(bool), votes, ~votes)
    return coalesced_group(mask & same)


# -- the members as free functions (cg::sync(g) ...): one row each, defined in a loop ------------


def _group(op: Any, group: Any) -> Any:
    """Return *group* if its class is one the row of *op* takes, else raise naming them."""
    legal = op.spec.shape.groups
    if type(group).__name__ not in legal or not isinstance(group, _GROUP_CLASSES):
        raise AscregTypeError(
            f"g is {type(group).__name__} {group!r:.40}; {op.name}(g, ...) takes a "
            f"{' or a '.join(legal)}",
            call=op.name,
        )
    return group


def _member(op: Any, g: Any, *args: Any) -> Any:
    """``name(g, ...)``: the member of the same name of the checked group *g*."""
    return getattr(_group(op, g), op.name)(*args)


_FREE: dict[str, tuple[str, str]] = {
    "sync": ("synchronise the group", ""),
    "thread_rank": ("the caller's rank in the group", ""),
    "num_threads": ("the number of threads", ""),
    "size": ("the number of threads", ""),
    "meta_group_rank": ("the group's index in its parent", ""),
    "meta_group_size": ("the number of such groups in the parent", ""),
    "shfl": ("a value from another member", ", 1, 2"),
    "shfl_up": ("a value from a lower rank", ", 1, 1"),
    "shfl_down": ("a value from a higher rank", ", 1, 1"),
    "shfl_xor": ("a value from rank ``rank ^ mask``", ", 1, 1"),
    "ballot": ("the members' votes, by rank", ", 1"),
    "any": ("1 when some member's predicate is nonzero", ", 1"),
    "all": ("1 when every member's predicate is nonzero", ", 1"),
}
"""The members of the warp-sized groups (and of every group: ``sync`` ... ``size``): what they
return, the example's arguments."""
_BLOCK_EXAMPLES = {"group_index": "[dim3(0, 0, 0)]", "dim_threads": "[dim3(2, 3, 1)]",
                   "group_dim": "[dim3(2, 3, 1)]", "thread_index": "[threadIdx]"}  # fmt: skip
"""The members only :class:`thread_block` has: what the example shows."""


def _member_doc(member: str) -> str:
    """Return the docstring of the free function *member* (its example compares the method)."""
    if member in _BLOCK_EXAMPLES:
        return (
            f"``{member}(block)``: ``block.{member}()`` of a :class:`thread_block`.\n\n"
            "Examples\n--------\n"
            ">>> from ascreg.simt import dim3, run_simt_kernel\n"
            ">>> seen = []\n"
            f">>> run_simt_kernel(lambda: seen.append({member}(this_thread_block())), dim3(1), "
            "dim3(2, 3), 0, ())\n"
            f">>> seen\n{_BLOCK_EXAMPLES[member]}\n"
        )
    returns, args = _FREE[member]
    return (
        f"``{member}(g, ...)``: ``g.{member}(...)`` for a group *g* ({returns}).\n\n"
        "Examples\n--------\n"
        ">>> from ascreg.simt import dim3, run_simt_kernel\n"
        ">>> seen = []\n"
        f">>> def kernel():\n...     g = tiled_partition(this_thread_block(), 4)\n"
        f"...     seen.append(repr({member}(g{args})) == repr(g.{member}({args.lstrip(', ')})))\n"
        ">>> run_simt_kernel(kernel, dim3(1), dim3(8), 0, ()); seen\n[True]\n"
    )


_GROUP_CLASSES = (thread_block, thread_block_tile, coalesced_group)


def _free_function(member: str) -> Any:
    """Define the row of *member*; its signature is ``(g, <the row's value parameters>)``."""
    function = define(member, doc=_member_doc(member))(_member)
    names = ("g", *SPECS[member].roles)
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    function.__signature__ = inspect.Signature([inspect.Parameter(n, kind) for n in names])
    return function


_MEMBERS = {name: _free_function(name) for name in (*_FREE, *_BLOCK_EXAMPLES)}
sync = _MEMBERS["sync"]
thread_rank = _MEMBERS["thread_rank"]
num_threads = _MEMBERS["num_threads"]
size = _MEMBERS["size"]
meta_group_rank = _MEMBERS["meta_group_rank"]
meta_group_size = _MEMBERS["meta_group_size"]
shfl = _MEMBERS["shfl"]
shfl_up = _MEMBERS["shfl_up"]
shfl_down = _MEMBERS["shfl_down"]
shfl_xor = _MEMBERS["shfl_xor"]
ballot = _MEMBERS["ballot"]
any = _MEMBERS["any"]  # the C++ name; not in ascreg.simt.__all__
all = _MEMBERS["all"]  # the C++ name; not in ascreg.simt.__all__
group_index = _MEMBERS["group_index"]
thread_index = _MEMBERS["thread_index"]
dim_threads = _MEMBERS["dim_threads"]
group_dim = _MEMBERS["group_dim"]

"""The SIMT execution engine: thread groups, built-in indices, launch checks, per-thread fallback.

Two tiers run a block (see :mod:`ascreg.simt` for the user-facing summary):

1. **Vectorised** (fast): the kernel body runs once with every thread of the block as one numpy
   lane; thread-dependent control flow runs in masked form (:mod:`~ascreg.engine.simt.masked`
   rewrites the kernel; ``Group.active`` is the active mask that loads, stores, atomics and
   warp calls honour). Every memory write it makes is journaled at the
   :class:`~ascreg.machine.memory.Memory` level (a hook chained onto ``on_access`` of every live
   memory, whatever pointer the write went through), and its ``print`` output (``sys.stdout``)
   is held back.
2. **Per thread** (slow): if tier 1 meets what the masked form cannot express
   (:class:`~ascreg.machine.simt.lanes.DivergenceSignal`, or an exception raised in divergent
   code), its writes are undone, its held output is dropped, and the block runs again with one
   Python thread per SIMT thread. A cooperative scheduler lets exactly one of them run at a time
   (deterministic, lowest thread first); ``asc_syncthreads`` and the warp functions are
   rendezvous points where a thread yields until its partners arrive.

:func:`divergence` selects the tiers (``masked``, ``unmasked``, ``per-thread``).

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> out = GlobalMemory().alloc(uint32_t, 8)
>>> def k(out):
...     i = threadIdx.x + blockIdx.x * blockDim.x
...     if i % 2 == 0:          # thread-dependent branch: runs under a mask, still exact
...         out[i] = i
>>> run_simt_kernel(k, dim3(2), dim3(4), 0, (out,))
>>> out.read(8)
array([0, 0, 2, 0, 4, 0, 6, 0], dtype=uint32)
"""

from __future__ import annotations

import functools
import io
import operator
import os
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple, TypeVar

import numpy as np

from ascreg.errors import AscregError, LaunchError, SlowPathWarning, SyncError
from ascreg.machine.block import BlockContext, running_block
from ascreg.machine.block import block as running_as
from ascreg.machine.convert import to_dtype
from ascreg.machine.hook import engine
from ascreg.machine.memory import (
    GmPtr,
    Memory,
    Pointer,
    UbPtr,
    element_view,
    live_memories,
    strided,
)
from ascreg.machine.progress import LaunchProgress
from ascreg.machine.simt.lanes import (
    STATE,
    DivergenceSignal,
    Lanes,
    PathSplit,
    SpinError,
    active_indices,
)
from ascreg.machine.simt.rendezvous import WARP_SIZE, WarpRequest, complete_rendezvous, run_warps
from ascreg.machine.template import qualifier

F = TypeVar("F")

MAX_THREADS_PER_BLOCK = 2048
DEFAULT_LAUNCH_BOUNDS = 1024
MAX_BLOCKS = 65535
KIND_ATTR = "__ascreg_kind__"
BOUNDS_ATTR = "__ascreg_launch_bounds__"
_FIBER_STACK_BYTES = 512 * 1024


# -- dim3 and qualifiers --------------------------------------------------------------------------


class dim3:
    """``struct dim3 { unsigned x, y, z; }`` with ``y`` and ``z`` defaulting to 1.

    Examples
    --------
    >>> dim3(4), dim3(2, 3).count
    (dim3(4, 1, 1), 6)
    """

    __slots__ = ("x", "y", "z")

    def __init__(self, x: int = 1, y: int = 1, z: int = 1) -> None:
        if not (type(x) is int and type(y) is int and type(z) is int and min(x, y, z) >= 0):
            _check_dim3(x, y, z)  # the slow path: numpy ints are fine, the rest is an error
        self.x, self.y, self.z = int(x), int(y), int(z)

    @property
    def count(self) -> int:
        """``x * y * z``."""
        return self.x * self.y * self.z

    def __repr__(self) -> str:
        return f"dim3({self.x}, {self.y}, {self.z})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dim3) and (self.x, self.y, self.z) == (other.x, other.y, other.z)

    def __hash__(self) -> int:
        return hash((self.x, self.y, self.z))


def _check_dim3(*values: Any) -> None:
    for name, value in zip("xyz", values, strict=True):
        if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 0:
            raise LaunchError(f"dim3.{name} must be a non-negative integer, got {value!r}")


def as_dim3(value: Any) -> dim3:
    """Accept a :class:`dim3`, an int or a tuple of up to three ints.

    Examples
    --------
    >>> as_dim3(8), as_dim3((2, 2))
    (dim3(8, 1, 1), dim3(2, 2, 1))
    """
    if isinstance(value, dim3):
        return value
    if isinstance(value, tuple):
        return dim3(*value)
    return dim3(value)


@qualifier
def __simt_vf__(func: F) -> F:  # noqa: N807 - the C++ qualifier
    """``__simt_vf__``: a SIMT function started by ``asc_vf_call[f](dim3(n), args...)``.

    Sets ``func.__ascreg_kind__ = "simt_vf"`` (what the kernel runtime checks).

    Examples
    --------
    >>> @__simt_vf__
    ... def f(): ...
    >>> f.__ascreg_kind__
    'simt_vf'
    """
    _set(func, KIND_ATTR, "simt_vf")
    return func


@qualifier
def __simt_callee__(func: F) -> F:  # noqa: N807 - the C++ qualifier
    """``__simt_callee__``: a helper callable from SIMT code (marks ``"simt_callee"``).

    Called from a block that runs vectorised, the helper runs in masked form too (see
    :mod:`~ascreg.engine.simt.masked`): it may branch on thread-varying values and return a
    different value per thread (so does an unmarked helper of the user's, which the masked
    form of its caller rewrites too). In the per-thread tier the helper runs as written, with
    C's copy on assignment and the spin check of its ``while`` loops (see ``copying_version``).

    Examples
    --------
    >>> @__simt_callee__
    ... def twice(v): return 2 * v
    >>> twice(3), twice.__ascreg_kind__
    (6, 'simt_callee')
    """
    _set(func, KIND_ATTR, "simt_callee")
    if not isinstance(func, types.FunctionType):
        return func
    masked: list[Any] = []

    @functools.wraps(func)
    def callee(*args: Any, **kwargs: Any) -> Any:
        group = STATE.group
        if group is not None and group.fiber is not None:  # its while loops yield when they spin
            return engine().copying_version(func)(*args, **kwargs)
        if group is None or group.journal is None or _MODE[-1] != "masked":
            return func(*args, **kwargs)
        if not masked:
            masked.append(engine().masked_version(func, wrap_pointer))
        return masked[0](*args, **kwargs)

    return callee  # type: ignore[return-value]


def __launch_bounds__(n: int) -> Callable[[F], F]:  # noqa: N807 - the C++ qualifier
    """``__launch_bounds__(n)``: at most *n* (1..2048) threads per block; checked at launch.

    Without it a SIMT function allows 1024 threads per block (the documented default).

    Examples
    --------
    >>> @__launch_bounds__(256)
    ... def f(): ...
    >>> f.__ascreg_launch_bounds__
    256
    >>> __launch_bounds__(4096)
    Traceback (most recent call last):
    ...
    ascreg.errors.LaunchError: __launch_bounds__: 4096 is outside [1, 2048]
    """
    _ascreg_call = "__launch_bounds__"
    if not isinstance(n, int | np.integer) or not 1 <= n <= MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"{n!r} is outside [1, {MAX_THREADS_PER_BLOCK}]")

    def mark(func: F) -> F:
        _set(func, BOUNDS_ATTR, int(n))
        return func

    return mark


def _set(func: Any, attr: str, value: Any) -> None:
    setattr(func, attr, value)
    inner = getattr(func, "func", None)  # a runtime Kernel wrapping the function
    if inner is not None and callable(inner):
        setattr(inner, attr, value)


# -- the write journal and SIMT pointers ----------------------------------------------------------


def _spans(memory: Memory, at: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """Return the ``count x nbytes`` view of *memory* at ``(first, step)`` (*shape*)."""
    first, step = at
    return strided(memory.data, first, shape, (step, 1))


class Journal:
    """An undo log of memory writes: ``(memory, start, old bytes)`` in write order.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> gm = GlobalMemory(); p = gm.alloc(uint8_t, 4); journal = Journal()
    >>> with journal.watching([gm]):
    ...     p.write([1, 2, 3, 4])
    >>> journal.rollback(); p.read(4)
    array([0, 0, 0, 0], dtype=uint8)
    """

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[tuple[Memory, Any, np.ndarray[Any, Any]]] = []

    def record(self, memory: Memory, start: int, nbytes: int) -> None:
        """Save the bytes about to be overwritten.

        A scatter (:attr:`~ascreg.machine.memory.Memory.scatter`) over a span much wider than
        its elements saves those elements' bytes only (*start* is then their positions).
        """
        if nbytes <= 0:
            return
        end = min(start + nbytes, memory.data.size)
        scatter = memory.scatter
        if scatter is not None and scatter.offsets.size * scatter.size * 4 < end - start:
            size = scatter.size
            where = start + (scatter.offsets[:, None] * size + np.arange(size)).reshape(-1)
            self.entries.append((memory, where, memory.data[where]))
            return
        self.entries.append((memory, start, memory.data[start:end].copy()))

    def record_spans(self, memory: Memory, first: int, step: int, count: int, nbytes: int) -> None:
        """Save *count* spans of *nbytes* bytes, *step* bytes apart from *first*, as one entry.

        Examples
        --------
        >>> from ascreg import GlobalMemory, uint8_t
        >>> gm = GlobalMemory(); p = gm.alloc(uint8_t, 8); journal = Journal()
        >>> journal.record_spans(gm, p.address, 4, 2, 2); p.write([9] * 8)
        >>> journal.rollback(); p.read(8).tolist()
        [0, 0, 9, 9, 0, 0, 9, 9]
        """
        view = _spans(memory, (first, step), (count, nbytes))
        self.entries.append((memory, (first, step), view.copy()))

    @staticmethod
    def now(memory: Memory, start: Any, old: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Return the bytes an entry saved, as they are now."""
        if isinstance(start, np.ndarray):
            return memory.data[start]
        if isinstance(start, tuple):
            return _spans(memory, start, old.shape)
        return memory.data[start : start + old.size]

    @staticmethod
    def put(memory: Memory, start: Any, saved: np.ndarray[Any, Any]) -> None:
        """Write *saved* (an entry's bytes, or what :meth:`now` gave for it) back in place."""
        if isinstance(start, np.ndarray):
            memory.data[start] = saved
        elif isinstance(start, tuple):
            _spans(memory, start, saved.shape)[...] = saved
        else:
            memory.data[start : start + saved.size] = saved

    @staticmethod
    def positions(start: Any, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
        """Return the address of each byte of an entry that starts at *start* (bytes of *shape*).

        Examples
        --------
        >>> Journal.positions((100, 8), (2, 3)).tolist()
        [[100, 101, 102], [108, 109, 110]]
        """
        if isinstance(start, np.ndarray):
            return start
        if isinstance(start, tuple):
            first, step = start
            spans: np.ndarray[Any, Any] = np.arange(shape[0])[:, None] * step + np.arange(shape[1])
            spans += first
            return spans
        line: np.ndarray[Any, Any] = np.arange(shape[0]) + int(start)
        return line

    def rollback(self, keep: int = 0) -> None:
        """Restore every saved range but the first *keep*, newest first."""
        for memory, start, old in reversed(self.entries[keep:]):
            self.put(memory, start, old)
        del self.entries[keep:]

    @contextmanager
    def watching(self, memories: Iterator[Memory] | list[Memory]) -> Iterator[None]:
        """Record every write this Python thread makes to *memories* inside the ``with`` body.

        Chains a :class:`_WriteHook` onto each memory's ``on_access`` (the previous hook, e.g.
        the kernel runtime's pipe check, still runs) and restores the previous hook afterwards.
        Memories without a hook cost nothing outside the ``with`` body.
        """
        hooks = self.hook(memories)
        try:
            yield
        finally:
            self.unhook(hooks)

    def hook(
        self, memories: Iterator[Memory] | list[Memory], *, any_thread: bool = False
    ) -> list[_WriteHook]:
        """Chain a journaling hook onto each of *memories* (once each); see :meth:`watching`.

        The hooks record the writes of this Python thread, or of every thread if *any_thread*.
        """
        hooks: list[_WriteHook] = []
        seen: set[int] = set()
        thread = None if any_thread else threading.get_ident()
        for memory in memories:
            if id(memory) not in seen:
                seen.add(id(memory))
                hook = _WriteHook(self, memory, thread)
                memory.on_access = hook
                hooks.append(hook)
        return hooks

    @staticmethod
    def unhook(hooks: list[_WriteHook]) -> None:
        """Put back the hooks :meth:`hook` replaced, newest first."""
        for hook in reversed(hooks):
            if hook.memory.on_access is hook:
                hook.memory.on_access = hook.previous


class _WriteHook:
    """``Memory.on_access`` while a block runs vectorised: journal writes, then chain."""

    __slots__ = ("journal", "memory", "previous", "thread")

    def __init__(self, journal: Journal, memory: Memory, thread: int | None) -> None:
        self.journal = journal
        self.memory = memory
        self.previous = memory.on_access
        self.thread = thread  # other Python threads' writes are not this block's

    def __call__(self, start: int, end: int, action: str) -> None:
        if action == "writes" and (self.thread is None or threading.get_ident() == self.thread):
            self.journal.record(self.memory, start, end - start)
        if self.previous is not None:
            self.previous(start, end, action)


class Changes(Journal):
    """Counts the writes that changed memory (the per-thread tier's spin check).

    Each write is compared with the bytes it overwrote at the next write or :meth:`count` call.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> gm = GlobalMemory(); p = gm.alloc(uint8_t, 2); changes = Changes()
    >>> hooks = changes.hook([gm])
    >>> p.write([0, 0]); p.write([0, 5]); Changes.unhook(hooks)
    >>> changes.count()
    1
    """

    __slots__ = ("changed",)

    def __init__(self) -> None:
        super().__init__()
        self.changed = 0

    def record(self, memory: Memory, start: int, nbytes: int) -> None:
        """Settle the previous write, then keep the bytes this one overwrites."""
        self.count()
        super().record(memory, start, nbytes)

    def count(self) -> int:
        """Return how many writes so far changed the bytes they wrote."""
        for memory, start, old in self.entries:
            if not np.array_equal(Journal.now(memory, start, old), old):
                self.changed += 1
        self.entries.clear()
        return self.changed


def promote(value: Any) -> Any:
    """Apply C's integer promotion to a loaded value: 8- and 16-bit integers become ``int32``.

    C computes with a ``uint8_t``/``int16_t`` element as an ``int`` (``p[i] * 2 - 300`` is a
    negative ``int``, not a wrapped byte); numpy would keep the narrow type. Other types pass.

    Examples
    --------
    >>> promote(np.array([200], np.uint8)) * 2 - 300, promote(np.float16(1.5))
    (array([100], dtype=int32), np.float16(1.5))
    """
    dtype = getattr(value, "dtype", None)
    if dtype is None or dtype.kind not in "iu" or dtype.itemsize >= 4:
        return value
    return value.astype(np.int32)


class _SimtPointer:
    """Mixin for pointers inside a SIMT kernel: lane-aware indexing (``p[lanes]``, ``p + lanes``)."""

    __slots__ = ()
    masks_stores = True  # stores and loads honour the active mask of divergent code

    def __add__(self, n: Any) -> Any:
        if isinstance(n, Lanes) and n.size > 1:
            return LanePointer(self, np.asarray(n).astype(np.int64))  # type: ignore[arg-type]
        return super().__add__(n)  # type: ignore[misc]

    def __radd__(self, n: Any) -> Any:
        return self.__add__(n)

    def __getitem__(self, index: Any) -> Any:
        group = STATE.group
        if group is not None and group.batch is not None:
            return group.batch.load(self, index, self._load)
        return self._load(index)

    def __setitem__(self, index: Any, value: Any) -> None:
        group = STATE.group
        if group is not None and group.batch is not None:
            group.batch.store(self, index, value, self._store)
            return
        self._store(index, value)

    def _load(self, index: Any) -> Any:
        active = _per_lane_mask(index)
        if active is not None:  # divergent code: only the active lanes load
            value = self._load_active(np.asarray(index).reshape(-1), active)
            return element_view(value, self.dtype) if value.dtype.names else value.view(Lanes)  # type: ignore[attr-defined]
        value = promote(super().__getitem__(index))  # type: ignore[misc]
        if value.dtype.names is not None:  # a struct type (half2, int2 ...): its class
            return element_view(value, self.dtype)  # type: ignore[attr-defined]
        return value.view(Lanes) if isinstance(index, Lanes) else value

    def _load_active(self, flat: np.ndarray[Any, Any], active: np.ndarray[Any, Any]) -> Any:
        """Load ``flat[i]`` for the *active* lanes; the others get the first active lane's.

        So no spurious 0 divisor in them, and no address an active lane does not read. No lane
        active: zeros, nothing read.
        """
        chosen = active_indices()
        assert chosen is not None  # *active* is the running group's mask
        if not chosen.size:
            return np.zeros(active.size, dtype=self.dtype.np_dtype)  # type: ignore[attr-defined]
        if 4 * chosen.size > active.size:  # most lanes: one gather of every lane
            return promote(super().__getitem__(np.where(active, flat, flat[chosen[0]])))  # type: ignore[misc]
        some = super().__getitem__(flat[chosen])  # type: ignore[misc]  # a few: theirs alone
        value = np.repeat(some[:1], active.size)
        value[chosen] = some
        return promote(value)

    def _store(self, index: Any, value: Any) -> None:
        uniform = not isinstance(index, np.ndarray) or index.ndim == 0
        chosen = active_indices()
        if chosen is not None:  # divergent code: only the active lanes store
            lanes = (STATE.group.active.size,)  # (a vector value's .size is its bytes)
            if isinstance(value, np.ndarray) and value.shape == lanes:
                kept = type(value) if value.dtype.names else Lanes  # a vector type stays one
                value = np.asarray(value)[chosen].view(kept)
            if not uniform and index.shape == lanes:
                index = np.asarray(index).reshape(-1)[chosen]
        if uniform and isinstance(value, Lanes) and value.size > 1:
            # every thread stores to the same element: they land in thread order, the last wins
            value = to_dtype(value, self.dtype).reshape(-1)[-1]  # type: ignore[attr-defined]
        super().__setitem__(index, value)  # type: ignore[misc]


def _active_lanes() -> np.ndarray[Any, Any] | None:
    """Return the active mask of the running group (None: every lane, or no group)."""
    group = STATE.group
    return None if group is None else group.active


def _per_lane_mask(index: Any) -> np.ndarray[Any, Any] | None:
    """Return the active mask when *index* holds one index per lane of a partly active group."""
    active = _active_lanes()
    if active is None or not isinstance(index, np.ndarray) or index.size != active.size:
        return None
    return active


class SimtGmPtr(_SimtPointer, GmPtr[Any]):
    """A ``__gm__`` pointer as seen inside a SIMT kernel (lane-aware)."""

    __slots__ = ()


class SimtUbPtr(_SimtPointer, UbPtr[Any]):
    """A ``__ubuf__`` pointer as seen inside a SIMT kernel (lane-aware)."""

    __slots__ = ()


def wrap_pointer(value: Any) -> Any:
    """Return *value* re-wrapped as a SIMT pointer if it is a GM/UB pointer, else unchanged.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> type(wrap_pointer(GlobalMemory().alloc(uint8_t, 4))).__name__
    'SimtGmPtr'
    """
    if isinstance(value, _SimtPointer) or not isinstance(value, Pointer):
        return value
    cls = SimtGmPtr if isinstance(value, GmPtr) else SimtUbPtr if isinstance(value, UbPtr) else None
    if cls is None:
        return value
    return cls(value.memory, value.dtype, value.address, value.block)


class LanePointer:
    """``p + idx`` where *idx* varies per thread: one address per lane.

    ``q[0]`` reads each lane's element, ``q[0] = v`` writes it, ``q + n`` moves every lane, and
    the atomics accept it as their address.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> p = wrap_pointer(GlobalMemory().alloc(int32_t, 4)); p.write([5, 6, 7, 8])
    >>> q = p + np.array([3, 1], dtype=np.int64).view(Lanes)
    >>> q[0]
    Lanes([8, 6], dtype=int32)
    """

    __slots__ = ("base", "offsets")
    masks_stores = True  # its base is a SIMT pointer, which honours the active mask

    def __init__(self, base: Pointer[Any], offsets: np.ndarray[Any, Any]) -> None:
        self.base = base
        self.offsets = offsets

    @property
    def dtype(self) -> Any:
        """The element type."""
        return self.base.dtype

    def __add__(self, n: Any) -> LanePointer:
        return LanePointer(self.base, self.offsets + np.asarray(n).astype(np.int64))

    def __getitem__(self, index: Any) -> Any:
        return self.base[(self.offsets + np.asarray(index).astype(np.int64)).view(Lanes)]

    def __setitem__(self, index: Any, value: Any) -> None:
        self.base[self.offsets + np.asarray(index).astype(np.int64)] = value

    def __repr__(self) -> str:
        return f"<{self.base!r} + lane offsets {self.offsets.tolist()}>"


# -- thread groups ---------------------------------------------------------------------------------


class BlockRun:
    """Everything one block of a SIMT launch shares."""

    def __init__(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        block_dim: dim3,
        grid_dim: dim3,
        block_idx: dim3,
        *,
        pure_simt: bool,
    ) -> None:
        self.func = func
        self.args = args if type(args) is _Wrapped else tuple(wrap_pointer(a) for a in args)
        self.block_dim = block_dim
        self.grid_dim = grid_dim
        self.block_idx = block_idx
        self.pure_simt = pure_simt
        self.nthreads = block_dim.count
        self.scheduler: Scheduler | None = None
        self.shared_allocs: list[Any] = []


class _ThreadIndex(NamedTuple):
    """The ``threadIdx`` components of a group's lanes (read-only ``uint32`` lanes)."""

    x: Lanes
    y: Lanes
    z: Lanes


class _Wrapped(tuple):  # type: ignore[type-arg]
    """Arguments already made lane-aware by :func:`wrap_pointer` (reused by every block)."""

    __slots__ = ()


def _launch_args(
    func: Callable[..., Any], block_dim: dim3, args: tuple[Any, ...], ctx: Any, call: str
) -> tuple[Any, ...]:
    """Check the thread count and make *args*' pointers lane-aware, once per vector launch.

    What a block of the vector kernel checked and wrapped is kept in the launch's state every
    block shares (``ctx.shared``, dropped when the launch ends) and reused while a block starts
    the same function with the same thread count and the same argument objects.
    """
    shape = (block_dim.x, block_dim.y, block_dim.z)
    cached = None if ctx is None else ctx.shared.get("simt_vf_launch")
    if (
        cached is not None
        and cached[0] is func
        and cached[1] == shape
        and len(cached[2]) == len(args)
        and all(map(operator.is_, cached[2], args))
    ):
        return cached[3]  # type: ignore[no-any-return]
    _check_threads(func, block_dim, call)
    wrapped = _Wrapped(wrap_pointer(a) for a in args)
    if ctx is not None:
        ctx.shared["simt_vf_launch"] = (func, shape, args, wrapped)
    return wrapped


_INDEX_CACHE: dict[tuple[int, int, int, int], _ThreadIndex] = {}
"""Thread indices per block shape and lane count, of the read-only thread id arrays of the
vectorised tier (the whole block in order, or whole blocks side by side)."""


def _thread_indices(block_dim: dim3, tids: np.ndarray[Any, Any]) -> _ThreadIndex:
    # the vectorised tier (the whole block, or whole blocks side by side): cache per shape
    whole = tids.size % block_dim.count == 0 and not tids.flags.writeable
    shape = (block_dim.x, block_dim.y, block_dim.z, tids.size)
    found = _INDEX_CACHE.get(shape) if whole else None
    if found is None:
        t = tids.astype(np.uint32)
        dx, dy = np.uint32(block_dim.x), np.uint32(block_dim.y)
        parts = [t % dx, (t // dx) % dy, t // (dx * dy)]
        for p in parts:
            p.flags.writeable = False  # shared by every block: `t += 1` must not corrupt it
        found = _ThreadIndex(*(p.view(Lanes) for p in parts))
        if whole:
            _INDEX_CACHE[shape] = found
    return found


class Group:
    """The SIMT threads one Python call is executing together (all of a block, or one thread)."""

    def __init__(self, run: BlockRun, tids: np.ndarray[Any, Any], journal: Journal | None) -> None:
        self.run = run
        self.tids = tids
        self.journal = journal
        self.pure_simt = run.pure_simt
        self.fiber: Fiber | None = None
        self.allocs_done = 0
        self.thread_idx = _thread_indices(run.block_dim, tids)
        self.block_idx, self.block_dim, self.grid_dim = run.block_idx, run.block_dim, run.grid_dim
        self.active: np.ndarray[Any, Any] | None = None  # divergent code: the active lanes
        self.saved_err: dict[str, Any] = {}  # numpy's error state outside divergent code
        self.paths = False
        """True while :func:`run_paths` runs the kernel one path (group of lanes) at a time."""
        self.discarding: Any = None
        """The function a statement of the masked form is calling (its value is dropped):
        an atomic seeing itself here need not compute the old values."""
        self.batch: Any = None
        """A batch of blocks run as one group (set by the engine): sees every memory access
        of the group's SIMT pointers (``note``); None while one block runs."""

    @property
    def size(self) -> int:
        """Number of lanes (threads) in the group."""
        return int(self.tids.size)

    def warp_call(
        self,
        key: tuple[Any, ...],
        compute: Callable[..., Any],
        values: np.ndarray[Any, Any],
        params: tuple[Any, ...],
    ) -> Any:
        """Run the warp call *compute* on *values* (one per lane of the group) and *params*.

        The vectorised tier computes every warp of the block at once; in the per-thread tier
        the thread waits for the threads of its warp that make the same call (*key*) and gets
        its own lane of the result (see :mod:`~ascreg.machine.simt.rendezvous`).
        """
        if self.fiber is None or self.paths:
            if self.paths and (self.active is not None or self.size < self.run.nthreads):
                # without its source, where the paths meet again is unknown: the lanes of the
                # warp on the other paths may take part
                raise DivergenceSignal("a warp function while the threads take different paths")
            return run_warps(values, params, compute, self.active, self.run.nthreads)
        own = tuple(np.asarray(p).reshape(-1)[:1] for p in params)
        return self.fiber.block(("warp", WarpRequest(key, compute, values, own)))

    def changes(self) -> int:
        """Return a count that grows with the block's writes (the spin check, see ``turn``)."""
        if self.fiber is not None:
            return self.fiber.scheduler.changes.count()
        return len(self.journal.entries) if self.journal is not None else 0

    def moved(self) -> None:
        """Note that a ``while`` loop of this thread made progress."""
        if self.fiber is not None:
            self.fiber.scheduler.moves += 1

    def spin(self, line: int) -> None:
        """Let the other threads run first: the ``while`` loop at *line* makes no progress.

        Run vectorised (the ``unmasked`` tier), the block moves to the per-thread tier.
        """
        if self.fiber is None:
            raise DivergenceSignal(f"the while loop at line {line} spins")
        self.fiber.block(("spin", line))

    def sync_threads(self) -> None:
        """Wait until every thread of the block that has not exited arrives here.

        The vectorised tier runs all threads in lockstep, so only a per-thread thread waits;
        reached by part of the block (in divergent code, or after some threads returned), it
        hands the block to the one-thread tier, which reports a hang exactly.
        """
        if self.fiber is not None:
            self.fiber.block(("sync", None))
        elif self.active is not None and not self._whole_blocks(self.active):
            raise DivergenceSignal("asc_syncthreads() reached by part of the block")

    def _whole_blocks(self, active: np.ndarray[Any, Any]) -> bool:
        """Tell whether *active* holds whole blocks of a batch (each all or none of its lanes).

        A block of a batch none of whose threads is active has ended or waits elsewhere (at a
        sync of its own branch, since the branch was the same for all of its threads).
        """
        if self.batch is None:
            return False
        rows = active.reshape(-1, self.run.nthreads)
        return bool((rows.all(axis=1) | ~rows.any(axis=1)).all())


def _tids(tids: list[int]) -> str:
    """Show up to four thread ids, then how many more."""
    shown = ", ".join(map(str, tids[:4]))
    return shown + (f" and {len(tids) - 4} more" if len(tids) > 4 else "")


def current_group(what: str) -> Group:
    """Return the running thread group, or raise naming *what* needs one."""
    group = STATE.group
    if group is None:
        raise AscregError(
            f"{what} is only defined inside a SIMT kernel (run_simt_kernel / asc_vf_call[f](dim3(n), ...))"
        )
    return group  # type: ignore[no-any-return]


_INDEX_FIELDS = {
    "threadIdx": "thread_idx",
    "blockIdx": "block_idx",
    "blockDim": "block_dim",
    "gridDim": "grid_dim",
}
"""The :class:`Group` attribute each built-in index reads."""


class _Index:
    """``threadIdx`` / ``blockIdx`` / ``blockDim`` / ``gridDim``: reads the running group."""

    __slots__ = ("_field", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._field = _INDEX_FIELDS[name]

    def _dim(self, axis: str) -> Any:
        group = STATE.group
        if group is None:
            group = current_group(f"{self._name}.{axis}")  # raises, naming the index
        return getattr(getattr(group, self._field), axis)

    @property
    def x(self) -> Any:
        """The x component."""
        return self._dim("x")

    @property
    def y(self) -> Any:
        """The y component."""
        return self._dim("y")

    @property
    def z(self) -> Any:
        """The z component."""
        return self._dim("z")

    def __repr__(self) -> str:
        return self._name


threadIdx = _Index("threadIdx")
"""Index of the thread in its block (``uint32`` lanes: one value per thread)."""
blockIdx = _Index("blockIdx")
"""Index of the block in the grid (plain ints: the same for every thread of a block)."""
blockDim = _Index("blockDim")
"""Threads per block (plain ints)."""
gridDim = _Index("gridDim")
"""Blocks per grid (plain ints)."""
warpSize = WARP_SIZE
"""Threads per warp: 32."""


def shared_alloc(allocate: Callable[[], Any]) -> Any:
    """Return the block-shared result of the k-th allocation made by the running thread.

    In the per-thread tier every thread executes ``__ubuf__ T buf[N]`` itself; the block must
    still see *one* array, so the first thread allocates and the others get the same pointer.

    Examples
    --------
    >>> shared_alloc(lambda: 42)  # outside a kernel: just allocates
    42
    """
    group = STATE.group
    if group is None:
        return allocate()
    run, k = group.run, group.allocs_done
    group.allocs_done += 1
    if k < len(run.shared_allocs):
        return run.shared_allocs[k]
    result = wrap_pointer(allocate())
    run.shared_allocs.append(result)
    return result


# -- the per-thread tier -------------------------------------------------------------------------


class _Abort(BaseException):
    """Unwinds the other fibers after one of them failed."""


class Fiber:
    """One SIMT thread of the per-thread tier, on its own Python thread."""

    def __init__(self, scheduler: Scheduler, tid: int) -> None:
        self.scheduler = scheduler
        self.tid = tid
        self.go = threading.Semaphore(0)
        self.waiting: tuple[str, Any] | None = None  # ("sync"|"warp"|"spin", None|request|line)
        self.reply: Any = None
        self.done = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, name=f"simt-thread-{tid}", daemon=True)

    def _main(self) -> None:
        self.go.acquire()
        run = self.scheduler.run
        group = Group(run, np.array([self.tid], dtype=np.int64), None)
        group.fiber = self
        STATE.group = group
        try:
            if not self.scheduler.aborted:
                engine().copying_version(run.func)(*run.args)
        except _Abort:
            pass
        except BaseException as exc:  # reported by the scheduler in the launching thread
            self.error = exc
        finally:
            STATE.group = None
            self.done = True
            self.scheduler.back.release()

    def block(self, waiting: tuple[str, Any]) -> Any:
        """Yield to the scheduler until the rendezvous *waiting* completes; return its reply."""
        self.waiting = waiting
        self.scheduler.back.release()
        self.go.acquire()
        if self.scheduler.aborted:
            raise _Abort
        return self.reply


class _PathFiber(Fiber):
    """A group of SIMT threads that take one path, run together as one vectorised group.

    Its group holds only its own lanes (no mask); a value its lanes disagree on raises
    :class:`~ascreg.machine.simt.lanes.PathSplit` naming them (:func:`run_paths`).
    """

    def __init__(self, scheduler: Scheduler, lanes: np.ndarray[Any, Any]) -> None:
        super().__init__(scheduler, int(lanes.argmax()))
        self.lanes = lanes

    def _main(self) -> None:
        self.go.acquire()
        scheduler = self.scheduler
        run = scheduler.run
        tids = np.flatnonzero(self.lanes).astype(np.int64)
        group = Group(run, tids, scheduler.journal)
        group.fiber, group.paths = self, True
        STATE.group = group
        try:
            if not scheduler.aborted:
                run.func(*run.args)
        except _Abort:
            pass
        except PathSplit as split:
            split.lanes = self.lanes
            self.error = split
        except BaseException as exc:
            self.error = exc
        finally:
            STATE.group = None
            self.done = True
            scheduler.back.release()


class Scheduler:
    """Runs the fibers of one block one at a time and completes their rendezvous points."""

    def __init__(
        self,
        run: BlockRun,
        memories: list[Memory] | None = None,
        paths: list[np.ndarray[Any, Any]] | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.run = run
        self.memories = memories or []  # changing writes to them are progress for spinners
        self.hooks: list[_WriteHook] = []  # on them once a thread first spins
        self.back = threading.Semaphore(0)
        self.aborted = False
        self.journal = journal
        self.fibers: list[Fiber] = (
            [Fiber(self, t) for t in range(run.nthreads)]
            if paths is None
            else [_PathFiber(self, lanes) for lanes in paths]
        )
        self.changes = Changes()
        self.moves = 0  # while iterations that made progress
        self.rendezvous = 0  # completed warp calls and asc_syncthreads
        self.spun: tuple[int, ...] | None = None  # the progress when spinners last resumed

    def execute(self) -> None:
        """Run every fiber to completion; re-raise the first error of any of them."""
        size = threading.stack_size()
        threading.stack_size(_FIBER_STACK_BYTES)
        try:
            for fiber in self.fibers:
                fiber.thread.start()
        finally:
            threading.stack_size(size)
        try:
            self._loop()
        finally:
            Changes.unhook(self.hooks)
            self._stop()

    def _step(self, fiber: Fiber) -> None:
        fiber.go.release()
        self.back.acquire()
        if fiber.error is not None:
            raise fiber.error

    def _loop(self) -> None:
        while True:
            runnable = [f for f in self.fibers if not f.done and f.waiting is None]
            for fiber in runnable:
                self._step(fiber)
            if runnable:
                continue
            live = [f for f in self.fibers if not f.done]
            if not live:
                return
            if self._complete_warp_ops(live):
                self.rendezvous += 1
            elif any(f.waiting is not None and f.waiting[0] == "spin" for f in live):
                self._resume_spinners(live)
            else:
                self.rendezvous += 1
                self._release_sync(live)

    def _resume_spinners(self, live: list[Fiber]) -> None:
        """Let the threads whose loop spins try again, unless nothing moved since last time."""
        done = sum(f.done for f in self.fibers)
        progress = (self.changes.count(), self.moves, self.rendezvous, done)
        spinning = [f for f in live if f.waiting is not None and f.waiting[0] == "spin"]
        if progress == self.spun:
            lines = sorted({f.waiting[1] for f in spinning})  # type: ignore[index]
            name = getattr(self.run.func, "__name__", repr(self.run.func))
            raise SpinError(
                f"{name}: thread(s) {_tids([f.tid for f in spinning])} spin in the while "
                f"loop(s) at line(s) {', '.join(map(str, lines))} and no thread of the block "
                "can change what they wait for (the others exited or wait at asc_syncthreads, "
                "and a whole round changed no memory and no loop state): a deadlock, the block hangs"
            )
        self.spun = progress
        if not self.hooks:  # count changing writes from now on (blocks that never spin: no cost)
            self.hooks = self.changes.hook(self.memories, any_thread=True)
        for fiber in spinning:
            fiber.waiting = None

    def _release_sync(self, live: list[Fiber]) -> None:
        """Every live thread waits at ``asc_syncthreads``: release them, or report the deadlock.

        The asc-devkit page of ``asc_syncthreads`` requires every thread of the block to reach
        the sync point (a call in a branch, or in a loop whose trip count differs per thread,
        deadlocks the block). A thread that exited without reaching it therefore makes the
        waiting ones hang on the chip: a :class:`~ascreg.errors.SyncError`.
        """
        exited = [f.tid for f in self.fibers if f.done]
        if exited:
            raise SyncError(
                f"{len(live)} of {len(self.fibers)} threads of the block wait at "
                f"asc_syncthreads but thread(s) {_tids(exited)} returned without reaching it: "
                "every thread of the block must reach each asc_syncthreads (the block hangs "
                "on the chip); do not call it in a branch or a loop some threads leave early",
                call="asc_syncthreads()",
            )
        for fiber in live:
            fiber.waiting, fiber.reply = None, None

    def _complete_warp_ops(self, live: list[Fiber]) -> bool:
        progressed = False
        warps: dict[int, list[Fiber]] = {}
        for fiber in live:
            if fiber.waiting is not None and fiber.waiting[0] == "warp":
                warps.setdefault(fiber.tid // WARP_SIZE, []).append(fiber)
        for members in warps.values():
            key = members[0].waiting[1].key  # type: ignore[index]
            party = [f for f in members if f.waiting[1].key == key]  # type: ignore[index]
            replies = complete_rendezvous(
                [f.tid % WARP_SIZE for f in party],
                [f.waiting[1] for f in party],  # type: ignore[index]
            )
            for fiber, reply in zip(party, replies, strict=True):
                fiber.waiting, fiber.reply = None, reply
            progressed = True
        return progressed

    def _stop(self) -> None:
        self.aborted = True
        for fiber in self.fibers:
            if fiber.thread.is_alive() and not fiber.done:
                fiber.go.release()
        for fiber in self.fibers:
            if fiber.thread.is_alive():
                fiber.thread.join()


# -- running blocks --------------------------------------------------------------------------------


def _ub_mark(ub: Any) -> tuple[int, int] | None:
    return None if ub is None else (ub.top, len(ub.allocations))


def _ub_restore(ub: Any, mark: tuple[int, int] | None) -> None:
    if ub is None or mark is None:
        return
    top, count = mark
    for block in ub.allocations[count:]:
        block.live = False
    del ub.allocations[count:]
    ub.top = top


DIVERGENCE_MODES = ("masked", "unmasked", "per-thread")
"""How a block runs (:func:`divergence`): ``masked`` (the default) runs divergent control flow
vectorised under active masks; ``unmasked`` runs the kernel as written and re-runs the block one
thread at a time at the first thread-dependent branch; ``per-thread`` runs every block one
thread at a time (the reference the other two are tested against)."""
_MODE = [os.environ.get("ASCREG_SIMT_DIVERGENCE", "masked")]
"""The mode stack (:func:`divergence` pushes); the environment variable ``ASCREG_SIMT_DIVERGENCE``
sets the bottom one, e.g. to run a test suite in the ``per-thread`` reference tier."""


@contextmanager
def divergence(mode: str) -> Iterator[None]:
    """Run the SIMT blocks started inside the ``with`` body in *mode* (:data:`DIVERGENCE_MODES`).

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> out = GlobalMemory().alloc(int32_t, 4)
    >>> def k(out):
    ...     out[threadIdx.x] = 1 if threadIdx.x < 2 else 2
    >>> with divergence("per-thread"):
    ...     run_simt_kernel(k, dim3(1), dim3(4), 0, (out,))
    >>> out.read(4).tolist()
    [1, 1, 2, 2]
    """
    if mode not in DIVERGENCE_MODES:
        raise AscregError(f"divergence mode {mode!r} is not one of {DIVERGENCE_MODES}")
    _MODE.append(mode)
    try:
        yield
    finally:
        _MODE.pop()


def run_block(run: BlockRun, ctx: Any = None) -> None:
    """Run one block: vectorised first (divergent code under active masks), else per thread.

    *ctx* is the kernel runtime's block (its UB holds ``__ubuf__`` arrays). A discarded
    vectorised attempt leaves no trace: its writes to any memory (every live
    :class:`~ascreg.machine.memory.Memory` plus *ctx*'s UB is journaled) are undone, its UB
    allocations released, and what it printed to ``sys.stdout`` is dropped. Output of an attempt
    that completes, or that fails with a real error, is written out when it ends.
    """
    if ctx is None:
        _run_tiers(run, None)
        return
    # route the block's __ubuf__ arrays through shared_alloc and make its pointers lane-aware
    dynamic = ctx.dynamic
    ctx.dynamic = wrap_pointer(dynamic)
    ctx.array_allocator = lambda dtype, count: shared_alloc(lambda: ctx.ub.alloc(dtype, count))
    try:
        _run_tiers(run, ctx.ub)
    finally:
        ctx.array_allocator = None
        ctx.dynamic = dynamic


def _run_tiers(run: BlockRun, ub: Any) -> None:
    """Run the block vectorised, else (its writes undone) one thread at a time."""
    mode = _MODE[-1]
    fallback: tuple[str, BaseException] | None = None
    if mode != "per-thread":
        journal = Journal()
        group = Group(run, _all_tids(run.nthreads), journal)
        mark = _ub_mark(ub)
        func = (
            engine().masked_version(run.func, wrap_pointer)
            if mode == "masked"
            else engine().copying_version(run.func)
        )
        memories = [ub, *live_memories()] if ub is not None else live_memories()
        fallback = _attempt(run, func, group, journal, memories)
        if fallback is None:
            return
        journal.rollback()
        _ub_restore(ub, mark)
        run.shared_allocs.clear()
    memories = [ub, *live_memories()] if ub is not None else live_memories()
    run.scheduler = Scheduler(run, memories)
    run.scheduler.execute()
    if fallback is not None and mode == "masked":  # after the run: not before an error
        _tell_fallback(run, *fallback)


def _attempt(
    run: BlockRun, func: Callable[..., Any], group: Group, journal: Journal, memories: list[Memory]
) -> tuple[str, BaseException] | None:
    """Run the block vectorised; the reason it must run per thread, or None if it ran.

    The writes of an attempt that must run per thread are in *journal*. An exception counts as
    such a case: the one-thread tier then raises it (or not) exactly as the threads that
    really run meet it, with what they wrote before it.
    Written out by hand (no ``with``): this is the per-block cost of the fast tier.
    """
    previous, STATE.group = STATE.group, group
    hooks = journal.hook(memories)
    held, buffer = sys.stdout, io.StringIO()
    sys.stdout = buffer
    fallback: tuple[str, BaseException] | None = None
    try:
        if func is run.func and _MODE[-1] == "masked" and engine().why_not_rewritten(func):
            run_paths(func, run.args, group, journal, memories)  # no source: path by path
        else:
            func(*run.args)
    except DivergenceSignal as signal:
        fallback = (str(signal), signal)
    except Exception as exc:
        # even with every thread active: a thread that runs alone may meet an error before
        # the others have written what the block wrote in step (the per-thread tier's order)
        fallback = (f"{type(exc).__name__} raised", exc)
    finally:
        if group.active is not None:
            np.seterr(**group.saved_err)
            group.active = None
        text = buffer.getvalue()
        sys.stdout = held
        Journal.unhook(hooks)
        STATE.group = previous
        if text and fallback is None:
            held.write(text)
    return fallback


MAX_PATHS = 16
"""At most this many runs of :func:`run_paths` (paths found and run) before it gives up."""


def run_paths(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    group: Group,
    journal: Journal,
    memories: list[Memory] | None = None,
) -> None:
    """Run a kernel the masked form cannot rewrite (no source) vectorised, one path at a time.

    The kernel runs as written over every lane of *group*. Where its lanes disagree on a value
    Python needs one answer for (an ``if``, ``while``, ``int()`` of lanes: a
    :class:`~ascreg.machine.simt.lanes.PathSplit`), the run is undone (*journal*, output) and
    each group of lanes that agree runs the kernel again from the start, alone (the others
    inactive), until every group ran to its end: one run per path the threads take (lowest
    thread's path first). What needs the threads of other paths, or many paths, stops it (a
    :class:`~ascreg.machine.simt.lanes.DivergenceSignal`: the block runs one thread at a time):
    warp functions and ``asc_syncthreads`` while the lanes take different paths, an exception
    on a path not taken by every lane, more than :data:`MAX_PATHS` runs.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> out = GlobalMemory().alloc(int32_t, 6)
    >>> k = eval("lambda out: out.__setitem__(threadIdx.x, 1 if threadIdx.x % 3 else 2)",
    ...          {"threadIdx": threadIdx})  # no source to rewrite
    >>> run_simt_kernel(k, dim3(1), dim3(6), 0, (out,))
    >>> out.read(6).tolist()
    [2, 1, 1, 2, 1, 1]
    """
    if group.batch is not None or memories is None:
        _paths_in_turn(func, args, group, journal)
        return
    paths = [np.ones(group.size, dtype=bool)]
    held = sys.stdout
    for _ in range(MAX_PATHS):
        start, out = len(journal.entries), io.StringIO()
        hooks = journal.hook(memories, any_thread=True)  # the paths run on threads of their own
        scheduler = Scheduler(group.run, memories, paths, journal)
        sys.stdout = out
        try:
            scheduler.execute()
        except PathSplit as split:
            journal.rollback(start)
            lanes = split.lanes  # the path that split; its values are one per lane of it
            values = np.zeros(lanes.size, dtype=np.asarray(split.values).dtype)
            values[lanes] = split.values
            others = [p for p in paths if p is not lanes]
            paths = sorted([*others, *_split(lanes, values)], key=lambda m: m.argmax())
            continue
        except Exception as exc:
            raise DivergenceSignal(f"{type(exc).__name__} raised on one path") from exc
        finally:
            sys.stdout = held
            Journal.unhook(hooks)
        held.write(out.getvalue())
        return
    raise DivergenceSignal(f"the threads take more than {MAX_PATHS} paths")


def _paths_in_turn(
    func: Callable[..., Any], args: tuple[Any, ...], group: Group, journal: Journal
) -> None:
    """Run :func:`run_paths` for a batch of blocks: each path to its end in turn.

    The lanes of the other paths are masked off (no warp function nor ``asc_syncthreads``
    while the paths differ).
    """
    paths = [np.ones(group.size, dtype=bool)]
    held = sys.stdout
    for _ in range(MAX_PATHS):
        if not paths:
            return
        lanes = paths.pop(0)
        start, out = len(journal.entries), io.StringIO()
        group.allocs_done, group.paths = 0, True
        activate(group, None if lanes.all() else lanes)
        sys.stdout = out
        try:
            func(*args)
        except PathSplit as split:
            journal.rollback(start)
            paths = sorted([*paths, *_split(lanes, split.values)], key=lambda m: m.argmax())
            continue
        except Exception as exc:
            if group.active is None:
                raise
            raise DivergenceSignal(f"{type(exc).__name__} raised on one path") from exc
        finally:
            sys.stdout = held
            group.paths = False
        activate(group, None)
        held.write(out.getvalue())
    raise DivergenceSignal(f"the threads take more than {MAX_PATHS} paths")


def _split(lanes: np.ndarray[Any, Any], values: Any) -> list[np.ndarray[Any, Any]]:
    """Return the groups of *lanes* whose *values* agree."""
    chosen = np.flatnonzero(lanes)
    _, which = np.unique(np.asarray(values)[chosen], return_inverse=True, equal_nan=True)
    parts = []
    for k in range(int(which.max()) + 1):
        part = np.zeros_like(lanes)
        part[chosen[which == k]] = True
        parts.append(part)
    return parts


def activate(group: Group, mask: np.ndarray[Any, Any] | None) -> None:
    """Make *mask* the active lanes of *group* (None: all of them).

    While only some lanes are active, numpy errors raise instead of warning: garbage in the
    inactive lanes must not warn, and an error there sends the block to the per-thread tier.

    Examples
    --------
    >>> import numpy as np
    >>> group = Group(BlockRun(len, (), dim3(2), dim3(1), dim3(0), pure_simt=True), _all_tids(2), None)
    >>> activate(group, np.array([True, False])); np.geterr()["divide"]
    'raise'
    >>> activate(group, None); group.active is None
    True
    """
    if (group.active is None) != (mask is None):
        if mask is None:
            np.seterr(**group.saved_err)
        else:
            group.saved_err = dict(np.seterr(divide="raise", over="raise", invalid="raise"))
    group.active = mask


_WARNED: set[Any] = set()
"""The kernels (code objects) whose per-thread fallback has been reported (:func:`_tell_fallback`)."""


def _tell_fallback(run: BlockRun, reason: str, exc: BaseException) -> None:
    """Say that a block runs one thread at a time, and why: once per kernel, as a warning.

    A :class:`~ascreg.errors.SlowPathWarning` (once per kernel, attributed to the kernel's
    line where the vectorised attempt stopped) and an INFO record on the ``ascreg.simt`` logger
    (once per place). A warning filter that makes it an error raises it here, after the
    attempt's writes were undone, every time the kernel falls back.
    """
    code = getattr(run.func, "__code__", None)
    where = line = None
    tb = exc.__traceback__
    while tb is not None:  # the innermost frame of the kernel's own file
        if code is not None and tb.tb_frame.f_code.co_filename == code.co_filename:
            line = tb.tb_lineno
            where = f"{code.co_filename}:{line}"
        tb = tb.tb_next
    name = getattr(run.func, "__name__", repr(run.func))
    why = engine().why_not_rewritten(run.func)
    unmasked = f"; not run in masked form: {why}" if why else ""
    message = (
        f"{name}: {reason} (at {where or 'an unknown line'}{unmasked}); blocks that meet it "
        "run one thread at a time"
    )
    engine().tell_once(("fallback", code, line, reason.split(":")[0]), message)
    key = code if code is not None else name
    if key in _WARNED:
        return
    filename = code.co_filename if code is not None else "<unknown>"
    lineno = line or (code.co_firstlineno if code is not None else 0)
    module = getattr(run.func, "__module__", None) or "ascreg.simt"
    warnings.warn_explicit(message, SlowPathWarning, filename, lineno, module=module)
    _WARNED.add(key)  # not reached when a filter makes the warning an error: it raises again


_TIDS: dict[int, np.ndarray[Any, Any]] = {}


def _all_tids(n: int) -> np.ndarray[Any, Any]:
    found = _TIDS.get(n)
    if found is None:
        found = _TIDS[n] = np.arange(n, dtype=np.int64)
        found.flags.writeable = False
    return found


def _check_threads(func: Any, block_dim: dim3, call: str) -> None:
    name = getattr(func, "__name__", repr(func))
    bounds = getattr(func, BOUNDS_ATTR, None)
    limit = DEFAULT_LAUNCH_BOUNDS if bounds is None else bounds
    n = block_dim.count
    if n < 1:
        raise LaunchError(
            f"{name}: a block needs at least one thread, got {block_dim!r}", call=call
        )
    if n > MAX_THREADS_PER_BLOCK:
        raise LaunchError(
            f"{name}: {n} threads per block ({block_dim!r}) exceeds the hardware limit of "
            f"{MAX_THREADS_PER_BLOCK}",
            call=call,
        )
    if n > limit:
        source = (
            f"__launch_bounds__({bounds})"
            if bounds is not None
            else "the default launch bounds (1024; raise them with __launch_bounds__(n))"
        )
        raise LaunchError(
            f"{name}: {n} threads per block ({block_dim!r}) exceeds {source}", call=call
        )


def run_simt_vf(
    func: Callable[..., Any],
    block_dim: Any,
    args: tuple[Any, ...],
    *,
    grid_dim: Any,
    block_idx: Any,
) -> None:
    """Run a ``__simt_vf__`` function for one block of a vector kernel (hybrid programming).

    Called by the kernel runtime for ``asc_vf_call[f](dim3(n), *args)``: ``gridDim`` is
    *grid_dim* (the block count of the outer launch), ``blockIdx`` is *block_idx* (the current
    block), ``blockDim`` is *block_dim*.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> @__simt_vf__
    ... def f(out):
    ...     out[threadIdx.x + blockIdx.x * blockDim.x] = threadIdx.x
    >>> out = GlobalMemory().alloc(uint32_t, 8)
    >>> for b in range(2):
    ...     run_simt_vf(f, dim3(4), (out,), grid_dim=dim3(2), block_idx=dim3(b))
    >>> out.read(8)
    array([0, 1, 2, 3, 0, 1, 2, 3], dtype=uint32)
    """
    _ascreg_call = f"asc_vf_call<{getattr(func, '__name__', func)}>"
    if getattr(func, KIND_ATTR, None) != "simt_vf":
        raise LaunchError(f"{getattr(func, '__name__', func)!r} is not a __simt_vf__ function")
    block_dim = as_dim3(block_dim)
    ctx = running_block()
    wrapped = _launch_args(func, block_dim, args, ctx, _ascreg_call)
    run = BlockRun(func, wrapped, block_dim, as_dim3(grid_dim), as_dim3(block_idx), pure_simt=False)
    run_block(run, ctx)


def run_simt_kernel(
    func: Callable[..., Any], grid: Any, block: Any, dyn_ub_bytes: int, args: tuple[Any, ...]
) -> None:
    """Run a pure SIMT ``__global__`` kernel: ``kernel<<<grid, block, dyn_ub_bytes, stream>>>``.

    Blocks run in order (x fastest); each gets its own Unified Buffer with *dyn_ub_bytes* of
    dynamic UB (``__ubuf__.extern(T)``) and room for ``__ubuf__`` arrays.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> out = GlobalMemory().alloc(int32_t, 6)
    >>> def k(out):
    ...     out[threadIdx.x + blockIdx.x * blockDim.x] = blockIdx.x
    >>> run_simt_kernel(k, dim3(3), dim3(2), 0, (out,))
    >>> out.read(6)
    array([0, 0, 1, 1, 2, 2], dtype=int32)
    """
    name = getattr(func, "__name__", repr(func))
    grid, block = as_dim3(grid), as_dim3(block)
    _ascreg_call = f"{name}<<<{grid!r}, {block!r}, {dyn_ub_bytes}>>>"
    if not 1 <= grid.count <= MAX_BLOCKS:
        raise LaunchError(f"{grid.count} blocks ({grid!r}) is outside [1, {MAX_BLOCKS}]")
    _check_threads(func, block, _ascreg_call)
    args = _Wrapped(wrap_pointer(a) for a in args)

    progress = LaunchProgress(_ascreg_call, grid.count)

    def run_one(linear: int) -> None:
        x, rest = linear % grid.x, linear // grid.x
        ctx = BlockContext(linear, grid.count, int(dyn_ub_bytes), name)
        try:
            with running_as(ctx):
                run = BlockRun(
                    func, args, block, grid, dim3(x, rest % grid.y, rest // grid.y), pure_simt=True
                )
                run_block(run, ctx)
        finally:
            ctx.release()
        progress.update(linear + 1)  # blocks run in order (batches of them before this one)

    try:
        if grid.count > 1 and _MODE[-1] == "masked":  # blocks in order, in batches where exact
            engine().run_simt_blocks(func, grid, block, int(dyn_ub_bytes), args, run_one)
            return
        for linear in range(grid.count):
            run_one(linear)
    finally:
        progress.close()


def convert_value(value: Any, dtype: Any) -> Any:
    """Convert *value* to the numpy dtype of scalar marker *dtype*, refusing silent wraps."""
    return to_dtype(value, dtype)


def sync_error(message: str) -> SyncError:
    """Build a :class:`~ascreg.errors.SyncError` (used by the warp and sync functions)."""
    return SyncError(message)

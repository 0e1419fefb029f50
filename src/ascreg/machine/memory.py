"""Byte-addressed memories (Unified Buffer, Global Memory) and typed pointers into them.

A :class:`Memory` is a flat ``uint8`` array with a bump allocator. Every allocation is
recorded, and every access through a pointer is checked against the allocation the pointer
was derived from (or, for a raw address, against the memory's capacity), so a kernel bug
becomes an :class:`~ascreg.errors.OutOfBoundsError` instead of silently corrupting a neighbour.

Examples
--------
>>> import numpy as np
>>> import ascreg
>>> ub = ascreg.UnifiedBuffer()
>>> p = ub.alloc(ascreg.uint16_t, 128)
>>> p.write(np.arange(128))
>>> (p + 4).read(3)
array([4, 5, 6], dtype=uint16)
"""

from __future__ import annotations

import bisect
import operator
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Generic, Self, TypeVar, cast, overload

import numpy as np

from ascreg._dtypes import Scalar, is_scalar_type, is_struct_type
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    CapacityError,
    OutOfBoundsError,
    current_call,
    mark_pure,
    undefined_behaviour,
)
from ascreg.machine.convert import to_dtype
from ascreg.machine.tensors import host_array

T = TypeVar("T", bound=Scalar)
U = TypeVar("U", bound=Scalar)
Out = TypeVar("Out")  # the type of a host tensor read into (Pointer.read(out=...))

UB_BYTES = 248 * 1024
"""Usable Unified Buffer per AI Core on dav-3510 (``TOTAL_UB_SIZE``).

Examples
--------
>>> from ascreg import UB_BYTES
>>> UB_BYTES // 1024
248
"""
DATA_BLOCK = 32
"""Bytes in one DataBlock, the UB alignment unit."""
GM_ALIGN = 512
"""Alignment of device allocations in Global Memory."""


class Allocation:
    """One allocated byte range of a memory.

    Examples
    --------
    >>> a = Allocation(64, 32, "buf", 16)
    >>> a.end, a.describe()
    (96, "'buf' [0x40, 0x60)")
    """

    __slots__ = ("element_size", "end", "label", "live", "size", "start")

    def __init__(self, start: int, size: int, label: str, element_size: int) -> None:
        self.start = start
        self.size = size
        self.end = start + size
        """One past the last byte (an attribute, as every bounds check reads it)."""
        self.label = label
        self.element_size = element_size
        self.live = True

    def describe(self) -> str:
        """Return ``'label' [start, end)`` for error messages."""
        return f"'{self.label}' [{self.start:#x}, {self.end:#x})"


class Scatter:
    """The elements a gather or scatter through an index array touches (:attr:`Memory.scatter`).

    *offsets* are element indices from the start of the reported span, each of *size* bytes.

    Examples
    --------
    >>> Scatter(np.array([0, 2]), 2).byte_mask(6)
    array([ True,  True, False, False,  True,  True])
    >>> Scatter(np.array([1, 0, 1]), 2).byte_mask(4) is None  # every byte: contiguous
    True
    """

    __slots__ = ("offsets", "size")

    def __init__(self, offsets: np.ndarray[Any, Any], size: int) -> None:
        self.offsets = offsets
        self.size = size

    def byte_mask(self, nbytes: int) -> np.ndarray[Any, Any] | None:
        """Return which of the span's *nbytes* bytes are touched; None when all of them are."""
        hit = np.zeros(nbytes // self.size, dtype=np.bool_)
        hit[self.offsets] = True
        if hit.all():
            return None
        return np.repeat(hit, self.size)


class Memory:
    """A flat byte-addressed memory with a bump allocator and bounds-checked typed pointers.

    Parameters
    ----------
    space
        The C qualifier of the address space, ``"__ubuf__"`` or ``"__gm__"``.
    capacity
        Largest number of bytes that may be allocated.
    align
        Alignment of every allocation, in bytes.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> m = UnifiedBuffer(1024)
    >>> m.alloc(uint8_t, 10).address, m.alloc(uint8_t, 10).address
    (0, 32)
    """

    pointer_class: ClassVar[type[Pointer[Any]]]

    def __init__(self, space: str, capacity: int, *, align: int = DATA_BLOCK) -> None:
        self.space = space
        self.capacity = capacity
        self.align = align
        self.data = np.zeros(_round8(min(capacity, 1 << 16)), dtype=np.uint8)
        self._typed: dict[np.dtype[Any], np.ndarray[Any, Any]] = {}
        self.allocations: list[Allocation] = []
        self.top = 0
        self.on_access: Callable[[int, int, str], None] | None = None
        """Called as ``on_access(start, end, action)`` after each bounds-checked access (the
        kernel runtime's pipe-hazard check, the SIMT write journal); None (the default) costs
        one attribute test. A second user chains: it saves the old hook and calls it."""
        self.scatter: Scatter | None = None
        """While a gather or scatter through an index array (``p[idx]``) is reported to
        :attr:`on_access` as its span from the lowest to the highest index: the elements it
        touches (:meth:`Scatter.byte_mask`); None during every other access."""
        _LIVE.add(self)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.space}: {self.top} of {self.capacity} bytes allocated>"
        )

    @property
    def free_bytes(self) -> int:
        """Bytes still available to :meth:`alloc`."""
        return self.capacity - self.top

    def alloc(self, dtype: type[T], count: int, *, label: str | None = None) -> Pointer[T]:
        """Allocate *count* elements of *dtype* and return a pointer to the first one.

        The memory is zero-filled. Raises :class:`~ascreg.errors.CapacityError` when it does
        not fit.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, float32_t
        >>> UnifiedBuffer().alloc(float32_t, 64)
        <__ubuf__ float* 0x0 (element 0 of 'float[64]' [0x0, 0x100))>
        """
        return self.alloc_bytes(dtype, count * _scalar(dtype).size, label=label)

    def alloc_bytes(self, dtype: type[T], nbytes: int, *, label: str | None = None) -> Pointer[T]:
        """Allocate *nbytes* bytes viewed as *dtype* elements.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> UnifiedBuffer().alloc_bytes(uint8_t, 100).read(2)
        array([0, 0], dtype=uint8)
        """
        dtype = _scalar(dtype)
        # A CapacityError names the user's call (e.g. a kernel's __ubuf__ array), else this one.
        call = f"{type(self).__name__}.alloc"
        if nbytes < 0:
            raise CapacityError(
                f"cannot allocate a negative size ({nbytes} bytes)", call=current_call() or call
            )
        start = -(-self.top // self.align) * self.align
        if start + nbytes > self.capacity:
            raise CapacityError(
                f"allocating {nbytes} bytes in {self.space} at {start:#x} needs "
                f"{start + nbytes} bytes but the memory holds {self.capacity} "
                f"({self.capacity - start} left)",
                call=current_call() or call,
            )
        self._grow(start + nbytes)
        name = label or f"{dtype.cpp_name}[{nbytes // dtype.size}]"
        block = Allocation(start, nbytes, name, dtype.size)
        self.allocations.append(block)
        self.top = start + nbytes
        self._clear(start, start + nbytes)
        return self.pointer_class(self, dtype, start, block)

    def _clear(self, start: int, end: int) -> None:
        """Zero the bytes ``[start, end)`` of a new allocation."""
        self.data[start:end] = 0

    def allocation_at(self, address: int) -> Allocation | None:
        """Return the allocation holding byte *address*, or None.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> ub = UnifiedBuffer(); _ = ub.alloc(uint8_t, 40); _ = ub.alloc(uint8_t, 8)
        >>> ub.allocation_at(65).describe(), ub.allocation_at(40)
        ("'uint8_t[8]' [0x40, 0x48)", None)
        """
        index = bisect.bisect_right([a.start for a in self.allocations], address) - 1
        found = self.allocations[index] if index >= 0 else None
        return found if found is not None and address < found.end else None

    def pointer(self, dtype: type[T], address: int) -> Pointer[T]:
        """Return a raw pointer to *address* (checked only against the capacity).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint16_t
        >>> UnifiedBuffer().pointer(uint16_t, 64)
        <__ubuf__ uint16_t* 0x40>
        """
        return self.pointer_class(self, _scalar(dtype), address, None)

    def free(self, ptr: Pointer[Any]) -> None:
        """Release the allocation *ptr* starts; later accesses through it are errors.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> ub = UnifiedBuffer(); p = ub.alloc(uint8_t, 32); ub.free(p)
        >>> p.read(1)
        Traceback (most recent call last):
        ...
        ascreg.errors.OutOfBoundsError: ...
        """
        if ptr.block is None or ptr.address != ptr.block.start or not ptr.block.live:
            raise OutOfBoundsError(f"{ptr!r} is not the start of a live allocation")
        ptr.block.live = False

    def trim(self) -> None:
        """Give the space of the freed allocations at the top back: the next ones reuse it.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> ub = UnifiedBuffer(); a = ub.alloc(uint8_t, 32); b = ub.alloc(uint8_t, 32)
        >>> ub.free(b); ub.trim(); ub.alloc(uint8_t, 8).address
        32
        """
        while self.allocations and not self.allocations[-1].live:
            self.allocations.pop()
        self.top = self.allocations[-1].end if self.allocations else 0

    def reset(self) -> None:
        """Forget every allocation and zero the memory.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> ub = UnifiedBuffer(); _ = ub.alloc(uint8_t, 32); ub.reset(); ub.top
        0
        """
        for block in self.allocations:
            block.live = False
        self.allocations.clear()
        self.top = 0
        self.data[:] = 0

    def _grow(self, nbytes: int) -> None:
        if nbytes > self.data.size:
            grown = np.zeros(_round8(max(nbytes, 2 * self.data.size)), dtype=np.uint8)
            grown[: self.data.size] = self.data
            self.data = grown
            self._typed.clear()

    def typed(self, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
        """Return the whole memory viewed as *dtype* (cached; element k is at byte k * size)."""
        view = self._typed.get(dtype)
        if view is None:
            view = self._typed[dtype] = self.data.view(dtype)
        return view

    def span(self, ptr: Pointer[Any], nbytes: int, action: str) -> np.ndarray[Any, Any]:
        """Return the writable byte view ``[ptr, ptr + nbytes)`` after the bounds check.

        *action* (``"reads"``, ``"writes"``) is used in the error message.
        """
        start = self.check(ptr, nbytes, action)
        return self.data[start : start + nbytes]

    def check(self, ptr: Pointer[Any], nbytes: int, action: str) -> int:
        """Bounds-check the access ``[ptr, ptr + nbytes)``, report it to the hook, return ptr's address."""
        start = ptr.address
        end = start + nbytes
        block = ptr.block
        if block is not None:
            if not block.live:
                raise OutOfBoundsError(f"{action} {nbytes} bytes through {ptr!r}, which was freed")
            if start < block.start or end > block.end:
                raise OutOfBoundsError(
                    f"{action} {nbytes} bytes at {self.space} {start:#x} "
                    f"(element {(start - block.start) // ptr.dtype.size} of allocation "
                    f"{block.describe()}); the access [{start:#x}, {end:#x}) leaves the allocation"
                )
        elif start < 0 or end > self.capacity:
            raise OutOfBoundsError(
                f"{action} {nbytes} bytes at {self.space} {start:#x}; the access "
                f"[{start:#x}, {end:#x}) leaves the {self.capacity}-byte {self.space} memory"
            )
        if end > self.data.size:
            self._grow(end)
        if self.on_access is not None:
            self.on_access(start, end, action)
        return start


def strided(
    base: np.ndarray[Any, Any],
    offset: int,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    writeable: bool = True,
) -> np.ndarray[Any, Any]:
    """Return the view of the contiguous array *base* at byte *offset* with *shape* and *strides*.

    numpy's ``as_strided`` without its Python overhead (a tenth of its cost, which counts on
    the hot paths of batched loops and block groups), and checked: a view reaching past *base*
    raises ``ValueError``.

    Examples
    --------
    >>> data = np.arange(12, dtype=np.uint8)
    >>> strided(data, 2, (2, 3), (5, 1)).tolist()
    [[2, 3, 4], [7, 8, 9]]
    """
    view: np.ndarray[Any, Any] = np.ndarray(shape, base.dtype, base, offset, strides)
    if not writeable:
        view.flags.writeable = False
    return view


def _round8(nbytes: int) -> int:
    """Round up to a multiple of 8 so that the buffer can be viewed as any element type."""
    return -(-nbytes // 8) * 8


_LIVE: weakref.WeakSet[Memory] = weakref.WeakSet()


def live_memories() -> list[Memory]:
    """Return every :class:`Memory` that still exists (weakly tracked from construction).

    The SIMT engine hooks all of them while it runs a block vectorised, so that every write can
    be undone if the block has to run again per thread. The kernel runtime's per-block Unified
    Buffers are taken out (:func:`untrack`): the engine reaches the running one directly.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer
    >>> ub = UnifiedBuffer()
    >>> any(m is ub for m in live_memories())
    True
    """
    return list(_LIVE)


def untrack(memory: Memory) -> None:
    """Drop *memory* from :func:`live_memories` (a memory only one known owner can reach).

    Examples
    --------
    >>> from ascreg import UnifiedBuffer
    >>> ub = UnifiedBuffer(); untrack(ub)
    >>> any(m is ub for m in live_memories())
    False
    """
    _LIVE.discard(memory)


class Pointer(Generic[T]):
    """A typed, immutable address into a :class:`Memory` (``__ubuf__ T*`` or ``__gm__ T*``).

    ``p + n`` and ``p - n`` move by *n* elements of the pointer's dtype, ``p - q`` is the
    distance in elements, and ``p[i]`` reads element *i* (``i`` may be an integer array, which
    is how vectorised SIMT threads index memory).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, int32_t
    >>> p = UnifiedBuffer().alloc(int32_t, 8)
    >>> p[np.array([1, 3])] = np.array([10, 30]); p.read(4)
    array([ 0, 10,  0, 30], dtype=int32)
    """

    __slots__ = ("address", "block", "dtype", "memory")
    space: ClassVar[str] = "?"

    def __init__(
        self, memory: Memory, dtype: type[T], address: int, block: Allocation | None
    ) -> None:
        self.memory = memory
        self.dtype: type[T] = dtype
        self.address = address
        self.block = block

    def __repr__(self) -> str:
        head = f"<{self.space} {self.dtype.cpp_name}* {self.address:#x}"
        if self.block is None:
            return head + ">"
        index = (self.address - self.block.start) / self.dtype.size
        shown = int(index) if index == int(index) else index
        return f"{head} (element {shown} of {self.block.describe()})>"

    def __add__(self, n: int) -> Self:
        if type(n) is not int:  # the hot path is a plain int: everything else is checked
            if hasattr(n, "__ascreg_rows__"):  # one offset per iteration of a batched loop
                return NotImplemented
            n = _offset(n, "p + n")
        moved = object.__new__(type(self))  # __init__ skipped: this is on every loop's hot path
        moved.memory, moved.dtype, moved.block = self.memory, self.dtype, self.block
        moved.address = self.address + n * self.dtype.size
        return moved

    def __radd__(self, n: int) -> Self:
        return self + n

    def __sub__(self, other: int | Pointer[T]) -> Any:
        if isinstance(other, Pointer):
            return (self.address - other.address) // self.dtype.size
        if hasattr(other, "__ascreg_rows__"):  # one offset per iteration of a batched loop
            return self + (-other)
        return self + (-_offset(other, "p - n"))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Pointer)
            and other.memory is self.memory
            and other.address == self.address
            and other.dtype is self.dtype
        )

    def __hash__(self) -> int:
        return hash((id(self.memory), self.address, self.dtype))

    def offset_bytes(self, nbytes: int) -> Self:
        """Return the pointer moved by *nbytes* bytes (MaskReg post-updates count bytes).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint32_t
        >>> UnifiedBuffer().alloc(uint32_t, 16).offset_bytes(32).address
        32
        """
        if not nbytes:
            return self  # pointers are values: the same address is the same pointer
        return type(self)(self.memory, self.dtype, self.address + int(nbytes), self.block)

    def cast(self, dtype: type[U]) -> Pointer[U]:
        """Return the same address viewed as *dtype* (C's ``(__ubuf__ U*)p``).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t, uint32_t
        >>> UnifiedBuffer().alloc(uint32_t, 8).cast(uint8_t).dtype.cpp_name
        'uint8_t'
        """
        cls: type[Pointer[Any]] = type(self)
        return cls(self.memory, _scalar(dtype), self.address, self.block)

    mark_pure(cast)  # a batched loop may call it (ascreg.engine.loops)

    def is_aligned(self, nbytes: int) -> bool:
        """Return True when the address is a multiple of *nbytes*."""
        return self.address % nbytes == 0

    def fits(self, nbytes: int) -> bool:
        """Return True when ``[self, self + nbytes)`` is inside the pointer's allocation (or memory)."""
        block = self.block
        if block is None:
            return self.address >= 0 and self.address + nbytes <= self.memory.capacity
        return block.live and block.start <= self.address and self.address + nbytes <= block.end

    def inside_data(self, nbytes: int) -> bool:
        """Return True when ``[self, self + nbytes)`` lies in a live allocation and in the data.

        Then :meth:`Memory.check` of the access would raise nothing and grow nothing: it would
        only report the access to the memory's hook.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> p = UnifiedBuffer().alloc(uint8_t, 64); p.write([0] * 64)
        >>> p.inside_data(64), p.inside_data(65)
        (True, False)
        """
        block = self.block
        end = self.address + nbytes
        return (
            block is not None
            and block.live
            and block.start <= self.address
            and end <= block.end
            and end <= self.memory.data.size
        )

    def require_alignment(self, nbytes: int, rule: str) -> None:
        """Raise (or warn, per policy) unless the address is *nbytes*-aligned.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint16_t
        >>> (UnifiedBuffer().alloc(uint16_t, 64) + 1).require_alignment(32, "DIST_NORM")
        Traceback (most recent call last):
        ...
        ascreg.errors.AlignmentError: address 0x2 ... is not 32-byte aligned (DIST_NORM)
        """
        if self.address % nbytes:
            undefined_behaviour(
                AlignmentError(
                    f"address {self.address:#x} ({self!r}) is not {nbytes}-byte aligned ({rule})"
                )
            )

    def bytes(self, nbytes: int, action: str = "reads") -> np.ndarray[Any, Any]:
        """Bounds-checked writable byte view of the next *nbytes* bytes."""
        return self.memory.span(self, nbytes, action)

    def view(self, count: int, action: str = "reads") -> np.ndarray[Any, Any]:
        """Bounds-checked writable view of the next *count* elements as the pointer's dtype."""
        size = self.dtype.size
        memory = self.memory
        start = self.address
        end = start + count * size
        block = self.block
        if (  # inside_data, inline (every eager load and store comes here; a call costs 15%)
            block is not None
            and block.live
            and block.start <= start
            and end <= block.end
            and end <= memory.data.size
        ) or (  # a pointer of no allocation (the cube's buffers): inside the memory's data
            block is None and start >= 0 and end <= memory.data.size and end <= memory.capacity
        ):  # all Memory.check would do is report the access
            hook = memory.on_access
            if hook is not None:
                hook(start, end, action)
        else:  # the general check (its errors, or the memory growing)
            start = memory.check(self, count * size, action)
        if start % size:  # misaligned for its own type: view the bytes
            return memory.data[start : start + count * size].view(self.dtype.np_dtype)
        first = start // size
        whole = memory._typed.get(self.dtype.np_dtype)  # the cached typed view (Memory.typed)
        if whole is None:
            whole = memory.typed(self.dtype.np_dtype)
        return whole[first : first + count]

    def loaded(self, count: int) -> np.ndarray[Any, Any]:
        """Return a copy of the next *count* elements (what a vector load reads).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> p = UnifiedBuffer().alloc(uint8_t, 4); p.write([1, 2, 3, 4])
        >>> p.loaded(2).tolist()
        [1, 2]
        """
        return self.view(count).copy()

    def view_past_allocation(
        self, count: int, action: str
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """View *count* elements that may run past the end of the allocation, inside UB.

        What a whole-register vector access does on the chip: a load reads the bytes UB holds
        past the allocation (*action* ``"reads"``), a store under
        ``policy(past_allocation="chip")`` writes them (``"writes"``). A read must start inside
        a live UB allocation (a write at or after its start) and end inside UB; otherwise (or on
        GM) it is the :class:`~ascreg.errors.OutOfBoundsError` of :meth:`view`. A read reports only its bytes
        inside the allocation to the memory's hook (the others belong to no access of this
        buffer); a write reports all of them. Returns the view and, per element, whether it
        lies (partly) past the allocation.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint32_t
        >>> ub = UnifiedBuffer(); p = ub.alloc(uint32_t, 6); q = ub.alloc(uint32_t, 8)
        >>> q.write([7] * 8)
        >>> values, past = p.view_past_allocation(10, "reads")
        >>> values.tolist(), past.tolist()
        ([0, 0, 0, 0, 0, 0, 0, 0, 7, 7], [False, False, False, False, False, False, True, True, True, True])
        """
        size = self.dtype.size
        start, block, memory = self.address, self.block, self.memory
        end = start + count * size
        inside = (
            isinstance(memory, UnifiedBuffer)
            and block is not None
            and block.live
            and block.start <= start
            and (start < block.end or action == "writes")
            and end <= memory.capacity
        )
        if not inside or block is None:
            return self.view(count, action), np.zeros(count, dtype=bool)  # its own error
        if end > memory.data.size:
            memory._grow(end)
        hook = memory.on_access
        if hook is not None:
            hook(start, end if action == "writes" else min(end, block.end), action)
        past = (start + (np.arange(count) + 1) * size) > block.end
        if start % size:
            return memory.data[start:end].view(self.dtype.np_dtype), past
        first = start // size
        return memory.typed(self.dtype.np_dtype)[first : first + count], past

    @overload
    def read(self, count: int | None = None) -> np.ndarray[Any, Any]: ...
    @overload
    def read(self, count: int | None = None, *, out: Out) -> Out: ...
    def read(self, count: int | None = None, *, out: Any = None) -> Any:
        """Return a copy of the next *count* elements (1 by default), or fill *out* with them.

        *out* is a host tensor (numpy, torch or any DLPack or buffer-protocol array) of the
        pointer's element type, written in place with its size as the default *count*; it
        must be contiguous and writable (else a :class:`~ascreg.errors.HostTensorError`).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import UnifiedBuffer, half
        >>> p = UnifiedBuffer().alloc(half, 4); p.write([1, 2, 3, 4])
        >>> p.read(2)
        array([1., 2.], dtype=float16)
        >>> out = np.zeros((2, 2), np.float16); p.read(out=out) is out, out[1].tolist()
        (True, [3.0, 4.0])
        """
        if out is None:
            return self.view(1 if count is None else count).copy()
        target = host_array(out, writes=True, call="Pointer.read")
        if target.dtype != self.dtype.np_dtype:
            raise AscregTypeError(
                f"out holds {target.dtype}, the pointer {self.dtype.cpp_name} (read into a "
                "tensor of the pointer's element type, or cast the pointer)",
                call="Pointer.read",
            )
        count = target.size if count is None else count
        target.reshape(-1)[:count] = self.view(count)
        return out

    def write(self, values: Any, *, call: str = "Pointer.write") -> None:
        """Store *values* (numbers, or arrays of them) starting at this element.

        The values are converted by :func:`~ascreg.machine.convert.to_dtype`: integer targets
        reject values that do not fit instead of wrapping them; float targets round once, to
        nearest even, from the exact value. *call* names the user's call in an error.

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> UnifiedBuffer().alloc(uint8_t, 4).write([300])
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregError: Pointer.write: cannot store 300 as uint8_t: ...
        """
        if type(values) is not np.ndarray and hasattr(values, "__dlpack__"):
            values = host_array(values, call=call)  # torch, JAX, ...: a view, not __array__
        if type(values) is np.ndarray and values.dtype is self.dtype.np_dtype:
            array = values  # what to_dtype returns for an array of the element type itself
        else:
            array = to_dtype(values, self.dtype, call=call)
        self.view(array.size, "writes")[:] = array.ravel()

    def __getitem__(self, index: Any) -> Any:
        idx = np.asarray(index)
        if idx.ndim == 0:
            one = (self + _offset(index, "p[i]")).view(1)
            return element_view(one.reshape(()).copy(), self.dtype) if one.dtype.names else one[0]
        span, offsets = self._gather_view(idx)
        return span[offsets]

    def __setitem__(self, index: Any, value: Any) -> None:
        idx = np.asarray(index)
        if idx.ndim == 0:
            (self + _offset(index, "p[i] = v")).write([value], call="p[i] = v")
            return
        values = to_dtype(value, self.dtype, call="p[i] = v")
        if values.shape != idx.shape:
            values = np.broadcast_to(values, idx.shape)
        span, offsets = self._gather_view(idx, "writes")
        span[offsets] = values

    def _gather_view(
        self, idx: np.ndarray[Any, Any], action: str = "reads"
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Return the view from the lowest to the highest index of *idx*, and *idx* in it.

        The access is reported to the memory's hook as that span, with :attr:`Memory.scatter`
        naming the elements it touches (the gaps between the indices are not accessed).
        """
        if idx.size == 0:
            return np.empty(0, dtype=self.dtype.np_dtype), np.empty(0, dtype=np.int64)
        if idx.dtype.kind not in "iu":
            raise AscregTypeError(
                f"index array of dtype {idx.dtype} is not an integer index (C indexes "
                "pointers with integers)",
                call=current_call() or "p[i]",
            )
        if idx.ndim == 1:  # argmin/argmax and an element: cheaper than two reductions
            low, high = int(idx[idx.argmin()]), int(idx[idx.argmax()])
        else:
            low, high = int(_MIN(idx, axis=None)), int(_MAX(idx, axis=None))
        offsets = np.asarray(idx, dtype=np.int64) - low
        memory = self.memory
        if memory.on_access is not None:
            memory.scatter = Scatter(offsets, self.dtype.size)
        try:
            # "gathers": the span between the indices is not all read (no unwritten-UB check).
            span = (self + low).view(high - low + 1, "gathers" if action == "reads" else action)
        finally:
            memory.scatter = None
        return span, offsets


_MIN, _MAX = np.minimum.reduce, np.maximum.reduce  # ndarray.min/max without their wrappers


def _offset(n: Any, call: str) -> int:
    """Return a pointer offset or index *n* as an int; anything but an integer is an error.

    C adds only integers to a pointer: ``p + 3/2`` or ``p[1.7]`` would not compile, and a
    ``bool`` is a count only by accident, so both are refused rather than truncated.

    Examples
    --------
    >>> _offset(1.7, "p[i]")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: p[i]: pointer offset 1.7 (float) is not an integer (C adds only integers to a pointer; convert explicitly with int())
    """
    if not isinstance(n, bool | np.bool_):
        try:
            return operator.index(n)  # ints, numpy integers, block_idx and other index types
        except TypeError:
            pass
    raise AscregTypeError(
        f"pointer offset {n!r:.40} ({type(n).__name__}) is not an integer (C adds only "
        "integers to a pointer; convert explicitly with int())",
        call=current_call() or call,
    )


def _scalar(dtype: Any) -> Any:
    if not (is_scalar_type(dtype) or is_struct_type(dtype)):
        raise TypeError(f"{dtype!r} is not an ascreg scalar type such as uint16_t")
    return dtype


def element_view(values: np.ndarray[Any, Any], dtype: Any) -> Any:
    """View loaded *values* as their element type: a struct type's class, else unchanged.

    Examples
    --------
    >>> from ascreg.simt import int2
    >>> element_view(np.zeros(2, int2.np_dtype), int2).y
    Lanes([0, 0], dtype=int32)
    """
    if is_struct_type(dtype):
        return np.asarray(values).view(np.ndarray).view(dtype)
    return values


class UbPtr(Pointer[T]):
    """A ``__ubuf__ T*`` pointer into a :class:`UnifiedBuffer`.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> isinstance(UnifiedBuffer().alloc(uint16_t, 8), UbPtr)
    True
    """

    __slots__ = ()
    space = "__ubuf__"

    def cast(self, dtype: type[U]) -> UbPtr[U]:
        """Return the same address viewed as *dtype*; see :meth:`Pointer.cast`."""
        return cast(UbPtr[U], super().cast(dtype))

    mark_pure(cast)


class GmPtr(Pointer[T]):
    """A ``__gm__ T*`` pointer into :class:`GlobalMemory`.

    Examples
    --------
    >>> from ascreg import uint16_t
    >>> isinstance(GlobalMemory().alloc(uint16_t, 8), GmPtr)
    True
    """

    __slots__ = ()
    space = "__gm__"

    def cast(self, dtype: type[U]) -> GmPtr[U]:
        """Return the same address viewed as *dtype*; see :meth:`Pointer.cast`."""
        return cast(GmPtr[U], super().cast(dtype))


class UnifiedBuffer(Memory):
    """The 248 KiB Unified Buffer of one AI Core; allocations are 32-byte aligned.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> UnifiedBuffer().alloc(uint8_t, 300 * 1024)
    Traceback (most recent call last):
    ...
    ascreg.errors.CapacityError: UnifiedBuffer.alloc: allocating 307200 bytes in __ubuf__ at 0x0 needs ...
    """

    pointer_class = UbPtr

    def __init__(self, capacity: int = UB_BYTES) -> None:
        super().__init__("__ubuf__", capacity, align=DATA_BLOCK)
        self.kept: np.ndarray[Any, Any] | None = None
        """The bytes a cube core (AIC) of a mixed launch wrote into this vector core's UB, or
        None: an allocation does not zero them (UB is not cleared on the chip; the zeros of a
        new allocation only stand in for its garbage, and the AIC's data is not garbage)."""

    def keep(self, start: int, end: int, touched: np.ndarray[Any, Any] | None = None) -> None:
        """Mark ``[start, end)`` (its *touched* bytes) as written by another core: kept by allocations.

        Examples
        --------
        >>> from ascreg import uint8_t
        >>> ub = UnifiedBuffer(); ub._grow(64); ub.data[:4] = 7; ub.keep(0, 2)
        >>> ub.alloc(uint8_t, 4).read(4).tolist()
        [7, 7, 0, 0]
        """
        if self.kept is None:
            self.kept = np.zeros(self.capacity, dtype=np.bool_)
        if touched is None:
            self.kept[start:end] = True
        else:
            self.kept[start:end] |= touched

    def _clear(self, start: int, end: int) -> None:
        if self.kept is None:
            self.data[start:end] = 0
        else:
            self.data[start:end][~self.kept[start:end]] = 0

    def alloc(self, dtype: type[T], count: int, *, label: str | None = None) -> UbPtr[T]:
        """Allocate *count* zeroed elements of *dtype* (32-byte aligned); see :meth:`Memory.alloc`."""
        return cast(UbPtr[T], super().alloc(dtype, count, label=label))

    def pointer(self, dtype: type[T], address: int) -> UbPtr[T]:
        """Return a raw ``__ubuf__ T*`` to *address*; see :meth:`Memory.pointer`."""
        return cast(UbPtr[T], super().pointer(dtype, address))


class GlobalMemory(Memory):
    """Device Global Memory (HBM); grows on demand, allocations are 512-byte aligned.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> GlobalMemory().alloc(float32_t, 1 << 20).read(1)
    array([0.], dtype=float32)
    """

    pointer_class = GmPtr

    def __init__(self, capacity: int = 1 << 36) -> None:
        super().__init__("__gm__", capacity, align=GM_ALIGN)

    def alloc(self, dtype: type[T], count: int, *, label: str | None = None) -> GmPtr[T]:
        """Allocate *count* zeroed elements of *dtype* (512-byte aligned); see :meth:`Memory.alloc`."""
        return cast(GmPtr[T], super().alloc(dtype, count, label=label))

    def pointer(self, dtype: type[T], address: int) -> GmPtr[T]:
        """Return a raw ``__gm__ T*`` to *address*; see :meth:`Memory.pointer`."""
        return cast(GmPtr[T], super().pointer(dtype, address))

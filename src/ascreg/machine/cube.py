"""The cube core's buffers on dav-3510: L1, L0A, L0B, L0C, bias table, fixpipe and MX buffers.

Each buffer is a :class:`~ascreg.machine.memory.Memory` with the capacity and start-address
alignment of the architecture page (asc-devkit ``docs/zh/guide/编程指南/高级编程/硬件实现/架构规格/
NPU架构版本3510.md``, 存储单元规格): L1 512 KiB (32 B), L0A and L0B 64 KiB (512 B), L0C 256 KiB
(64 B), BiasTable and Fixpipe buffers 4 KiB (64 B); the L0A_MX / L0B_MX scale buffers 4 KiB
(``LoadData_2D_MX.md``; 32 B, one scale fractal). A running block gets its own set the first
time a kernel touches one (:func:`cube_buffers`); every access is reported to the block's pipe
tracker under the buffer's own space, so a Mmad (``PIPE_M``) reading L0A before the
``PIPE_MTE1`` load that fills it is ordered is a :class:`~ascreg.errors.SyncError`, as an
unsynchronised UB access is.

Examples
--------
>>> from ascreg import half
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     l0a = cube_buffers().l0a
...     l0a.capacity, l0a.align, l0a.pointer(half, 512)
(65536, 512, <__ca__ half* 0x200>)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from ascreg._dtypes import Scalar
from ascreg.errors import AlignmentError, AscregTypeError, OutOfBoundsError, current_call
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.kernel import CORE_ATTR
from ascreg.machine.memory import Memory, Pointer, untrack
from ascreg.machine.sync import SPACE_NAMES
from ascreg.machine.template import qualifier

T = TypeVar("T", bound=Scalar)
F = TypeVar("F", bound=Callable[..., Any])

L1_BYTES = 512 * 1024
"""``ASC_L1_SIZE``: the L1 Buffer of one cube core (dav-3510).

Examples
--------
>>> L1_BYTES // 1024
512
"""
L0A_BYTES = 64 * 1024
"""``ASC_L0A_SIZE``: the L0A Buffer (left matrix) of one cube core."""
L0B_BYTES = 64 * 1024
"""``ASC_L0B_SIZE``: the L0B Buffer (right matrix) of one cube core."""
L0C_BYTES = 256 * 1024
"""``ASC_L0C_SIZE``: the L0C Buffer (results and partial sums) of one cube core."""
BT_BYTES = 4 * 1024
"""``ASC_BT_SIZE``: the BiasTable Buffer of one cube core."""
FB_BYTES = 4 * 1024
"""The Fixpipe Buffer (quantisation parameters) of one cube core."""
MX_BYTES = 4 * 1024
"""The L0A_MX / L0B_MX Buffer (the MX scales of L0A / L0B, at 1/16 of their addresses;
``LoadData_2D_MX.md``)."""

FRACTAL_BYTES = 512
"""One L0A / L0B fractal: 16 rows of 32 bytes (``LoadData`` moves whole fractals)."""
FRACTAL_ROWS = 16
"""Rows of a fractal (the M and N block of the cube)."""
C0_BYTES = 32
"""Bytes of one fractal row (``C0_SIZE``): 16 half, 8 float or 32 int8 elements."""


class CbufPtr(Pointer[T]):
    """A ``__cbuf__ T*`` pointer into the L1 Buffer.

    Examples
    --------
    >>> from ascreg import half
    >>> CubeBuffer("__cbuf__", 1024, 32, CbufPtr).pointer(half, 64)
    <__cbuf__ half* 0x40>
    """

    __slots__ = ()
    space = "__cbuf__"


class CaPtr(Pointer[T]):
    """A ``__ca__ T*`` pointer into the L0A Buffer (left matrix)."""

    __slots__ = ()
    space = "__ca__"


class CbPtr(Pointer[T]):
    """A ``__cb__ T*`` pointer into the L0B Buffer (right matrix)."""

    __slots__ = ()
    space = "__cb__"


class CcPtr(Pointer[T]):
    """A ``__cc__ T*`` pointer into the L0C Buffer (results)."""

    __slots__ = ()
    space = "__cc__"


class BiasPtr(Pointer[T]):
    """A pointer into the BiasTable Buffer (``TPosition::C2``)."""

    __slots__ = ()
    space = "__biasbuf__"


class FbufPtr(Pointer[T]):
    """A ``__fbuf__ T*`` pointer into the Fixpipe Buffer (``TPosition::C2PIPE2GM``)."""

    __slots__ = ()
    space = "__fbuf__"


class MxPtr(Pointer[T]):
    """A byte address in the L0A_MX / L0B_MX scale buffer.

    It has no C qualifier: the C API passes it as a ``uint64_t``, the L0A / L0B address / 16.
    """

    __slots__ = ()
    space = "L0_MX"


class CubeBuffer(Memory):
    """One buffer of the cube core: a bounds-checked memory whose pointers carry its space.

    Parameters
    ----------
    space
        The C qualifier of its pointers (``"__cbuf__"``, ``"__ca__"`` ...).
    capacity, align
        Its size and the alignment of a start address, in bytes.
    pointer_class
        The pointer type of its addresses.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> CubeBuffer("__cc__", 256, 64, CcPtr).pointer(float32_t, 256).read(1)
    Traceback (most recent call last):
    ...
    ascreg.errors.OutOfBoundsError: reads 4 bytes at __cc__ 0x100; the access [0x100, 0x104) leaves the 256-byte __cc__ memory
    """

    def __init__(
        self, space: str, capacity: int, align: int, pointer_class: type[Pointer[Any]]
    ) -> None:
        super().__init__(space, capacity, align=align)
        self.pointer_class = pointer_class  # type: ignore[misc]  # per instance, not per class


CUBE_BUFFERS: tuple[tuple[str, str, int, int, type[Pointer[Any]]], ...] = (
    ("L1", "__cbuf__", L1_BYTES, 32, CbufPtr),
    ("L0A", "__ca__", L0A_BYTES, 512, CaPtr),
    ("L0B", "__cb__", L0B_BYTES, 512, CbPtr),
    ("L0C", "__cc__", L0C_BYTES, 64, CcPtr),
    ("BT", "__biasbuf__", BT_BYTES, 64, BiasPtr),
    ("FB", "__fbuf__", FB_BYTES, 64, FbufPtr),
    ("L0A_MX", "L0A_MX", MX_BYTES, 32, MxPtr),
    ("L0B_MX", "L0B_MX", MX_BYTES, 32, MxPtr),
)
"""(name, space, capacity, start alignment, pointer type) of each cube buffer, as the
architecture page lists them; :class:`CubeBuffers` has each as the lower-case attribute."""
_SPACE_BASE = 1
"""The pipe tracker's space id of the first cube buffer (UB is 0, GM the id of its memory)."""
SPACE_NAMES.update({_SPACE_BASE + i: row[0] for i, row in enumerate(CUBE_BUFFERS)})


class CubeBuffers:
    """The six buffers of one block's cube core, their accesses reported to the block's tracker.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext
    >>> bufs = CubeBuffers(BlockContext())
    >>> [(b.space, b.capacity // 1024) for b in bufs.all]
    [('__cbuf__', 512), ('__ca__', 64), ('__cb__', 64), ('__cc__', 256), ('__biasbuf__', 4), ('__fbuf__', 4), ('L0A_MX', 4), ('L0B_MX', 4)]
    """

    l1: CubeBuffer
    l0a: CubeBuffer
    l0b: CubeBuffer
    l0c: CubeBuffer
    bt: CubeBuffer
    fb: CubeBuffer
    l0a_mx: CubeBuffer
    l0b_mx: CubeBuffer

    def __init__(self, ctx: BlockContext) -> None:
        self.all: list[CubeBuffer] = []
        self.scratch: dict[str, Any] = {}
        """Work arrays of the cube's arithmetic, kept for the block's next instruction."""
        for index, (name, space, capacity, align, ptr) in enumerate(CUBE_BUFFERS):
            buffer, attr = CubeBuffer(space, capacity, align, ptr), name.lower()
            buffer.on_access = _tracked(ctx, _SPACE_BASE + index)
            untrack(buffer)  # reachable through this block only (kept out of SIMT journaling)
            setattr(self, attr, buffer)
            self.all.append(buffer)

    def pointer(self, attr: str, dtype: type[T], address: int) -> Pointer[T]:
        """Return a raw pointer of *dtype* to byte *address* of buffer *attr* (``"l0a"`` ...).

        Examples
        --------
        >>> from ascreg import int8_t
        >>> from ascreg.machine.block import BlockContext
        >>> CubeBuffers(BlockContext()).pointer("l1", int8_t, 32)
        <__cbuf__ int8_t* 0x20>
        """
        return cast(CubeBuffer, getattr(self, attr)).pointer(dtype, address)


def _tracked(ctx: BlockContext, space: int) -> Any:
    """Return the ``on_access`` hook of a cube buffer: it reports accesses on the issuing pipe."""
    tracker = ctx.tracker

    def hook(start: int, end: int, action: str) -> None:
        tracker.access(ctx.pipe, start, end, write=action == "writes", space=space)

    return hook


CUBE_STATE = "cube"
"""The key of a block's :class:`CubeBuffers` in ``BlockContext.state``."""


def cube_buffers(ctx: BlockContext | None = None) -> CubeBuffers:
    """Return the cube buffers of *ctx* (default: the running block), made on first use.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     cube_buffers() is cube_buffers(ctx)
    True
    """
    ctx = current_block() if ctx is None else ctx
    found = ctx.state.get(CUBE_STATE)
    if found is None:
        found = ctx.state[CUBE_STATE] = CubeBuffers(ctx)
    return cast(CubeBuffers, found)


POSITION_BUFFERS = {
    "A1": "l1",
    "B1": "l1",
    "C1": "l1",
    "A2": "l0a",
    "B2": "l0b",
    "CO1": "l0c",
    "C2": "bt",
    "C2PIPE2GM": "fb",
}
"""The cube buffer each ``TPosition`` of the cube core names (``TPosition.A1`` -> L1 ...)."""


def cube_tensor_pointer(position: str, dtype: type[T], addr: Any, count: Any) -> Pointer[T]:
    """Return the pointer of ``LocalTensor<T>(TPosition::<position>, addr, count)``.

    *addr* (bytes) must meet the buffer's start alignment and the tensor must fit in it.

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     cube_tensor_pointer("A2", half, 256, 16)
    Traceback (most recent call last):
    ...
    ascreg.errors.AlignmentError: LocalTensor: addr 0x100 of a TPosition::A2 tensor (__ca__) is not 512-byte aligned
    """
    call = current_call() or "LocalTensor"
    buffer = cast(CubeBuffer, getattr(cube_buffers(), POSITION_BUFFERS[position]))
    start = _count(addr, "addr", call)
    size = _count(count, "tileSize", call) * dtype.size
    if start % buffer.align:
        raise AlignmentError(
            f"addr {start:#x} of a TPosition::{position} tensor ({buffer.space}) is not "
            f"{buffer.align}-byte aligned",
            call=call,
        )
    if start + size > buffer.capacity:
        raise OutOfBoundsError(
            f"[{start:#x}, {start + size:#x}) leaves the {buffer.capacity}-byte {buffer.space} "
            f"buffer of TPosition::{position}",
            call=call,
        )
    return buffer.pointer(dtype, start)


def _count(value: Any, role: str, call: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AscregTypeError(f"{role} must be a non-negative integer, got {value!r}", call=call)
    return int(value)


@qualifier
def __cube__(func: F) -> F:  # noqa: N807 (the C qualifier spelling)
    """``__cube__``: the kernel runs on the cube (AIC) core of each AI Core.

    A ``__global__ __cube__`` kernel launched on *n* blocks runs *n* cube cores; each has its
    own :func:`cube_buffers`.

    Examples
    --------
    >>> @__cube__
    ... def k() -> None: ...
    >>> k.__ascreg_core__
    'cube'
    """
    setattr(func, CORE_ATTR, "cube")
    return func

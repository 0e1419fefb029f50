"""``TPipe``, ``TQue`` / ``TQueBind`` and ``TBuf``: the basic API's UB buffer management.

``TPipe.InitBuffer`` carves buffers out of the running block's UB. A queue hands them out with
``AllocTensor``, passes them from producer to consumer with ``EnQue`` / ``DeQue`` and takes them
back with ``FreeTensor``. As on the chip, ``EnQue`` / ``DeQue`` order the producer pipe before
the consumer pipe (VECIN: MTE2 -> V, VECOUT: V -> MTE3) and ``FreeTensor`` / ``AllocTensor``
order the consumer before the next producer, so a kernel written with queues needs no
``SetFlag`` / ``WaitFlag`` of its own. Misuse the chip would hang or corrupt on is an error.

The rules checked (from the asc-devkit ``TQue`` / ``TPipe`` pages):

* one ``TPipe`` per kernel (per block here);
* ``InitBuffer`` once per queue or buffer; lengths round up to 32 bytes; the buffers must fit
  the UB, and a kernel uses at most :data:`MAX_BUFFERS` buffers;
* a queue of depth *n* holds at most *n* tensors between ``EnQue`` and ``DeQue`` (depth 0 is the
  in-place form: ``AllocTensor(t)`` / ``DeQue(t)``, at most one tensor per buffer);
* ``DeQue`` on an empty queue, ``AllocTensor`` with every buffer taken, ``FreeTensor`` of a
  tensor the queue did not hand out (or one still in the queue), and more than
  :data:`MAX_ALLOCATED_PER_POSITION` tensors allocated at once on one ``TPosition`` are errors.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Generic, TypeVar, cast, overload

from ascreg._dtypes import Scalar, is_scalar_type, uint8_t
from ascreg._frontend import operands
from ascreg.basic._tensor import UB_POSITIONS, LocalTensor, TPosition
from ascreg.errors import AscregError, AscregTypeError, CapacityError, SyncError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.memory import DATA_BLOCK, Allocation, UbPtr
from ascreg.machine.sync import Pipe

T = TypeVar("T", bound=Scalar)

MAX_BUFFERS = 64
"""Buffers (all queues and TBufs of a kernel together) one ``TPipe`` may initialise.

Examples
--------
>>> from ascreg.basic import MAX_BUFFERS
>>> MAX_BUFFERS
64
"""
MAX_ALLOCATED_PER_POSITION = 8
"""Queue tensors allocated and not yet freed at once on one TPosition (dav-3510: 8 events).

Examples
--------
>>> from ascreg.basic import MAX_ALLOCATED_PER_POSITION
>>> MAX_ALLOCATED_PER_POSITION
8
"""

_PRODUCER = {TPosition.VECIN: Pipe.PIPE_MTE2, TPosition.VECOUT: Pipe.PIPE_V}
"""The pipe that fills a tensor of the queue's source position."""
_CONSUMER = {TPosition.VECIN: Pipe.PIPE_V, TPosition.VECOUT: Pipe.PIPE_MTE3}
"""The pipe that reads a tensor of the queue's destination position."""
_PIPE_STATE = "basic.tpipe"


class _Buffer:
    """One block of UB that ``InitBuffer`` gave a queue or TBuf."""

    __slots__ = ("lease", "nbytes", "ptr", "state", "token")

    def __init__(self, ptr: UbPtr[Any], nbytes: int) -> None:
        self.ptr = ptr
        self.nbytes = nbytes
        self.state = "idle"  # "idle" -> "allocated" -> "queued" -> "allocated" -> "idle"
        self.token: dict[Pipe, int] | None = None
        self.lease: Allocation | None = None
        """The allocation the tensors of the current ``AllocTensor`` point into: ``FreeTensor``
        ends it, so a tensor used after it is an error, as after ``UnifiedBuffer.free``."""

    def take(self, dtype: type[T]) -> UbPtr[T]:
        """Hand the buffer out (``AllocTensor``): a pointer into a fresh lease of its bytes."""
        block = self.ptr.block
        label = block.label if block is not None else "queue buffer"
        self.lease = Allocation(self.ptr.address, self.nbytes, label, dtype.size)
        return UbPtr(self.ptr.memory, dtype, self.ptr.address, self.lease)

    def release(self) -> None:
        """Take the buffer back (``FreeTensor``): the tensors handed out can no longer access it."""
        if self.lease is not None:
            self.lease.live = False
            self.lease.label += ", released by FreeTensor"


class TPipe:
    """``AscendC::TPipe``: owns the UB buffers of the kernel's queues and TBufs.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import TPipe, TPosition, TQue
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     pipe = TPipe()
    ...     inQueue = TQue[TPosition.VECIN, 1]()
    ...     _ = pipe.InitBuffer(inQueue, 2, 1000)
    ...     inQueue.AllocTensor[float32_t]().GetSize()
    256
    """

    def __init__(self) -> None:
        _ascreg_call = "TPipe"
        ctx = current_block()
        if ctx.state.get(_PIPE_STATE) is not None:
            raise AscregError(
                "this kernel already made a TPipe: a kernel initialises exactly one TPipe"
            )
        ctx.state[_PIPE_STATE] = self
        self._ctx: BlockContext = ctx
        self._buffers = 0
        self._queues: list[TQueBind] = []

    def __repr__(self) -> str:
        return f"<TPipe: {self._buffers} buffers, {self._ctx.ub.free_bytes} UB bytes free>"

    @overload
    def InitBuffer(self, que: TQueBind, num: int, len: int) -> bool: ...
    @overload
    def InitBuffer(self, que: TBufHandle, num: int) -> bool: ...
    def InitBuffer(self, que: TQueBind | TBufHandle, num: int, len: int | None = None) -> bool:
        """``InitBuffer(que, num, len)`` / ``InitBuffer(buf, len)``: give UB to a queue or TBuf.

        *len* bytes (rounded up to 32) per buffer; *num* buffers for a queue (2 is double
        buffering), one for a TBuf.

        Examples
        --------
        >>> from ascreg.basic import TBuf, TPipe, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     TPipe().InitBuffer(TBuf[TPosition.VECCALC](), 300 * 1024)
        Traceback (most recent call last):
        ...
        ascreg.errors.CapacityError: TPipe.InitBuffer: 1 buffer(s) of 307200 bytes need 307200 bytes of UB but 253952 are free (the UB holds 253952)
        """
        _ascreg_call = "TPipe.InitBuffer"
        if isinstance(que, TBufHandle):
            if len is not None:
                raise AscregTypeError("a TBuf takes InitBuffer(buf, len): one buffer of len bytes")
            count, nbytes = 1, operands.in_range(num, "len", 1, 1 << 32)
        elif isinstance(que, TQueBind):
            count, nbytes = (
                operands.in_range(num, "num", 1, 255),
                operands.in_range(len, "len", 1, 1 << 32),
            )
        else:
            raise AscregTypeError(f"InitBuffer takes a TQue, TQueBind or TBuf, got {que!r:.60}")
        if que._buffers:
            raise AscregError(f"{que!r} already has its buffers: InitBuffer once per queue")
        nbytes = -(-nbytes // DATA_BLOCK) * DATA_BLOCK
        self._reserve(count, nbytes)
        que._attach(self, [self._buffer(f"{que!r} buffer {i}", nbytes) for i in range(count)])
        return True

    def _buffer(self, label: str, nbytes: int) -> _Buffer:
        ptr = self._ctx.ub.alloc_bytes(uint8_t, nbytes, label=label)
        return _Buffer(cast(UbPtr[Any], ptr), nbytes)

    def _reserve(self, count: int, nbytes: int) -> None:
        if self._buffers + count > MAX_BUFFERS:
            raise CapacityError(
                f"{count} more buffer(s) would make {self._buffers + count}; a kernel uses at "
                f"most {MAX_BUFFERS} InitBuffer buffers"
            )
        ub = self._ctx.ub
        # Each buffer starts on a 32-byte boundary, and nbytes is a multiple of 32.
        start = -(-ub.top // DATA_BLOCK) * DATA_BLOCK
        if start + count * nbytes > ub.capacity:
            raise CapacityError(
                f"{count} buffer(s) of {nbytes} bytes need {count * nbytes} bytes of UB but "
                f"{ub.capacity - start} are free (the UB holds {ub.capacity})"
            )
        self._buffers += count

    def _allocated_on(self, position: TPosition) -> int:
        return sum(
            1
            for que in self._queues
            if que._src is position
            for buffer in que._buffers
            if buffer.state != "idle"
        )


class _Take(Generic[T]):
    """``que.AllocTensor<T>`` / ``que.DeQue<T>`` after the subscript."""

    def __init__(self, que: TQueBind, dtype: type[T], action: str) -> None:
        self._que, self._dtype, self._action = que, dtype, action

    @overload
    def __call__(self) -> LocalTensor[T]: ...
    @overload
    def __call__(self, tensor: LocalTensor[T]) -> None: ...
    def __call__(self, tensor: LocalTensor[T] | None = None) -> LocalTensor[T] | None:
        taken = getattr(self._que, self._action)(self._dtype, tensor is not None)
        if tensor is None:
            return taken  # type: ignore[no-any-return]
        if tensor._dtype() is not self._dtype:
            raise AscregTypeError(
                f"the tensor is {tensor._cpp()} but the call takes LocalTensor<"
                f"{self._dtype.cpp_name}>",
                call=f"{self._que._name}.{self._action[1:]}",
            )
        tensor._bind(taken._ptr, taken._size, taken._position, taken._owner)
        return None


class _Templated:
    """The ``AllocTensor`` / ``DeQue`` member template, written ``que.AllocTensor[T](...)``."""

    def __init__(self, que: TQueBind, action: str) -> None:
        self._que, self._action = que, action

    def __getitem__(self, dtype: type[T]) -> _Take[T]:
        if not is_scalar_type(dtype):
            raise AscregTypeError(
                f"{self._action[1:]} takes a scalar type: {self._action[1:]}[float32_t]()",
                call=f"{self._que._name}.{self._action[1:]}",
            )
        return _Take(self._que, dtype, self._action)

    def __call__(self, tensor: LocalTensor[Any] | None = None) -> Any:
        raise AscregTypeError(
            f"write {self._action[1:]}[T](...), the C++ {self._action[1:]}<T>(...)",
            call=f"{self._que._name}.{self._action[1:]}",
        )


class TQueBind:
    """``AscendC::TQueBind<src, dst, depth>``: a queue of UB buffers; ``TQue[pos, depth]()``.

    ``AllocTensor[T]()`` takes an idle buffer, ``EnQue(t)`` passes it on, ``DeQue[T]()``
    receives it and ``FreeTensor(t)`` gives it back (see the module docstring for the rules).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import TPipe, TPosition, TQue
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     pipe = TPipe(); que = TQue[TPosition.VECOUT, 1]()
    ...     _ = pipe.InitBuffer(que, 2, 256)
    ...     a = que.AllocTensor[float32_t](); b = que.AllocTensor[float32_t]()
    ...     _ = que.EnQue(a); _ = que.EnQue(b)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: TQue<VECOUT, 1>.EnQue: the queue is full: it holds 1 tensor(s) and its depth is 1 (depth = the most EnQue calls in a row without a DeQue)
    """

    def __init__(self, src: TPosition, dst: TPosition, depth: int) -> None:
        _ascreg_call = "TQueBind"
        for pos in (src, dst):
            if pos not in _PRODUCER:
                raise AscregTypeError(
                    f"{pos} is not a vector-core queue position (VECIN or VECOUT)"
                )
        self._src, self._dst = src, dst
        self._depth = operands.in_range(depth, "depth", 0, 255)
        same = src is dst
        self._name = (
            f"TQue<{src.name}, {depth}>" if same else f"TQueBind<{src.name}, {dst.name}, {depth}>"
        )
        self._producer, self._consumer = _PRODUCER[src], _CONSUMER[dst]
        self._pipe: TPipe | None = None
        self._buffers: list[_Buffer] = []
        self._queue: deque[LocalTensor[Any]] = deque()
        self.AllocTensor = _Templated(self, "_alloc")
        """``AllocTensor[T]()``: a tensor over an idle buffer (contents undefined);
        ``AllocTensor[T](t)`` rebinds *t* (depth 0, in place)."""
        self.DeQue = _Templated(self, "_dequeue")
        """``DeQue[T]()``: the oldest tensor in the queue; ``DeQue[T](t)`` rebinds *t*."""

    def __repr__(self) -> str:
        return self._name

    def _attach(self, pipe: TPipe, buffers: list[_Buffer]) -> None:
        self._pipe, self._buffers = pipe, buffers
        pipe._queues.append(self)

    def _capacity(self) -> int:
        return self._depth or len(self._buffers)

    def _check_form(self, inplace: bool, call: str) -> None:
        if inplace != (self._depth == 0):
            form = "in-place (tensor argument)" if inplace else "returning"
            raise AscregError(
                f"the {form} {call} needs depth {'0' if inplace else '>= 1'}; the queue has "
                f"depth {self._depth}",
                call=f"{self._name}.{call}",
            )

    def _alloc(self, dtype: type[T], inplace: bool) -> LocalTensor[T]:
        _ascreg_call = f"{self._name}.AllocTensor"
        self._check_form(inplace, "AllocTensor")
        if self._pipe is None:
            raise AscregError("the queue has no buffers: call pipe.InitBuffer(que, num, len)")
        idle = next((b for b in self._buffers if b.state == "idle"), None)
        if idle is None:
            raise AscregError(
                f"no idle buffer: all {len(self._buffers)} buffer(s) of InitBuffer are taken; "
                "FreeTensor one first"
            )
        taken = self._pipe._allocated_on(self._src)
        if taken >= MAX_ALLOCATED_PER_POSITION:
            raise AscregError(
                f"{taken} tensors are already allocated on {self._src.name}: at most "
                f"{MAX_ALLOCATED_PER_POSITION} at once per TPosition"
            )
        if idle.token is not None:
            self._tracker_acquire(self._producer, idle.token)
        idle.state = "allocated"
        return LocalTensor._view(idle.take(dtype), idle.nbytes // dtype.size, self._src, idle)

    def EnQue(self, tensor: LocalTensor[T]) -> bool:
        """``EnQue(t)``: pass an allocated tensor to the consumer (raises when full).

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 2]()
        ...     _ = pipe.InitBuffer(que, 2, 128)
        ...     a = que.AllocTensor[float32_t](); b = que.AllocTensor[float32_t]()
        ...     que.EnQue(a), que.EnQue(b), que.GetTensorCountInQue(), que.VacantInQue()
        (True, True, 2, False)
        """
        _ascreg_call = f"{self._name}.EnQue"
        buffer = self._buffer_of(tensor, "EnQue")
        if buffer.state != "allocated":
            raise AscregError(
                f"{tensor._describe()} is already in the queue; DeQue it before EnQue again"
            )
        if len(self._queue) >= self._capacity():
            raise SyncError(
                f"the queue is full: it holds {len(self._queue)} tensor(s) and its depth is "
                f"{self._depth} (depth = the most EnQue calls in a row without a DeQue)"
            )
        buffer.state = "queued"
        self._queue.append(tensor)
        buffer.token = self._tracker().token(self._producer)
        return True

    def _dequeue(self, dtype: type[T], inplace: bool) -> LocalTensor[T]:
        _ascreg_call = f"{self._name}.DeQue"
        self._check_form(inplace, "DeQue")
        if not self._queue:
            raise SyncError("DeQue on an empty queue: no EnQue is waiting (the chip would hang)")
        tensor = self._queue.popleft()
        buffer = self._buffer_of(tensor, "DeQue")
        if tensor._dtype() is not dtype:
            raise AscregTypeError(
                f"the queued tensor is {tensor._cpp()}, not LocalTensor<{dtype.cpp_name}>"
            )
        buffer.state = "allocated"
        if buffer.token is not None:
            self._tracker_acquire(self._consumer, buffer.token)
        buffer.token = None
        return LocalTensor._view(tensor.GetPhyAddr(), tensor.GetSize(), self._dst, buffer)

    def FreeTensor(self, tensor: LocalTensor[T]) -> None:
        """``FreeTensor(t)``: give a tensor this queue handed out back to it.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import LocalTensor, TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 1]()
        ...     _ = pipe.InitBuffer(que, 1, 128)
        ...     que.FreeTensor(LocalTensor[float32_t](TPosition.VECIN, 0, 32))
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregError: TQue<VECIN, 1>.FreeTensor: LocalTensor<float> at UB 0x0 was not allocated from this queue (AllocTensor / DeQue of TQue<VECIN, 1>)
        """
        _ascreg_call = f"{self._name}.FreeTensor"
        buffer = self._buffer_of(tensor, "FreeTensor")
        if buffer.state == "queued":
            raise AscregError(f"{tensor._describe()} is still in the queue: DeQue it first")
        if buffer.state == "idle":
            raise AscregError(f"{tensor._describe()} was already freed (FreeTensor twice)")
        buffer.state = "idle"
        buffer.release()
        buffer.token = self._tracker().token(self._consumer)

    def _buffer_of(self, tensor: Any, call: str) -> _Buffer:
        if not isinstance(tensor, LocalTensor):
            raise AscregTypeError(f"takes a LocalTensor, got {tensor!r:.60}")
        owner = tensor._owner
        if not isinstance(owner, _Buffer) or owner not in self._buffers:
            raise AscregError(
                f"{tensor._describe()} was not allocated from this queue (AllocTensor / DeQue "
                f"of {self._name})",
                call=f"{self._name}.{call}",
            )
        if tensor.GetPhyAddr() != owner.ptr.cast(tensor._dtype()):
            raise AscregError(
                f"{tensor._describe()} is a view into a queue buffer; pass the tensor "
                "AllocTensor or DeQue returned",
                call=f"{self._name}.{call}",
            )
        return owner

    def _tracker(self) -> Any:
        return current_block().tracker

    def _tracker_acquire(self, pipe: Pipe, token: dict[Pipe, int]) -> None:
        self._tracker().acquire(pipe, token)

    def VacantInQue(self) -> bool:
        """Return True when another ``EnQue`` fits.

        Examples
        --------
        >>> from ascreg.basic import TPosition, TQue
        >>> TQue[TPosition.VECIN, 1]().VacantInQue()
        True
        """
        return len(self._queue) < max(self._capacity(), 1)

    def HasTensorInQue(self) -> bool:
        """Return True when a tensor waits for ``DeQue``.

        Examples
        --------
        >>> from ascreg.basic import TPosition, TQue
        >>> TQue[TPosition.VECIN, 1]().HasTensorInQue()
        False
        """
        return bool(self._queue)

    def GetTensorCountInQue(self) -> int:
        """Return the number of tensors waiting for ``DeQue``.

        Examples
        --------
        >>> from ascreg.basic import TPosition, TQue
        >>> TQue[TPosition.VECOUT, 2]().GetTensorCountInQue()
        0
        """
        return len(self._queue)

    def HasIdleBuffer(self) -> bool:
        """Return True when ``AllocTensor`` would find an idle buffer.

        Examples
        --------
        >>> from ascreg.basic import TPosition, TQue
        >>> TQue[TPosition.VECOUT, 2]().HasIdleBuffer()
        False
        """
        return any(b.state == "idle" for b in self._buffers)


class _TQue:
    """``AscendC::TQue<pos, depth>``, written ``TQue[TPosition.VECIN, 1]()``."""

    def __getitem__(self, params: tuple[TPosition, int]) -> _QueueMaker:
        if not isinstance(params, tuple) or len(params) != 2:
            raise AscregTypeError("write TQue[TPosition.X, depth]()", call="TQue")
        return _QueueMaker(params[0], params[0], params[1])

    def __repr__(self) -> str:
        return "TQue"


class _QueueMaker:
    def __init__(self, src: TPosition, dst: TPosition, depth: int) -> None:
        self._args = (src, dst, depth)

    def __call__(self) -> TQueBind:
        return TQueBind(*self._args)


TQue = _TQue()
"""``AscendC::TQue<pos, depth>``: ``TQue[TPosition.VECIN, 1]()`` makes a :class:`TQueBind`.

Examples
--------
>>> from ascreg.basic import TPosition, TQue
>>> TQue[TPosition.VECIN, 1]()
TQue<VECIN, 1>
"""


class TBufHandle:
    """The object ``TBuf[pos]()`` makes: one UB buffer for scratch tensors (no queue).

    Examples
    --------
    >>> from ascreg import int32_t
    >>> from ascreg.basic import TBuf, TPipe, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     pipe = TPipe(); calcBuf = TBuf[TPosition.VECCALC]()
    ...     _ = pipe.InitBuffer(calcBuf, 1024)
    ...     calcBuf.Get[int32_t]().GetSize(), calcBuf.GetWithOffset[int32_t](128, 64).GetSize()
    (256, 128)
    """

    def __init__(self, position: TPosition) -> None:
        if position not in UB_POSITIONS:
            raise AscregTypeError(f"TBuf lives in UB (VECIN, VECOUT, VECCALC), not {position}")
        self._position = position
        self._buffers: list[_Buffer] = []
        self.Get = _BufGet(self, offset=False)
        """``Get[T]()`` (the whole buffer) or ``Get[T](len)`` (*len* elements)."""
        self.GetWithOffset = _BufGet(self, offset=True)
        """``GetWithOffset[T](size, bufOffset)``: *size* elements from byte *bufOffset*."""

    def __repr__(self) -> str:
        return f"TBuf<{self._position.name}>"

    def _attach(self, pipe: TPipe, buffers: list[_Buffer]) -> None:
        self._buffers = buffers

    def _tensor(self, dtype: type[T], count: int | None, offset: int, call: str) -> LocalTensor[T]:
        _ascreg_call = f"{self!r}.{call}"
        if not self._buffers:
            raise AscregError("the TBuf has no buffer: call pipe.InitBuffer(buf, len)")
        buffer = self._buffers[0]
        offset = operands.in_range(offset, "bufOffset", 0, buffer.nbytes)
        if offset % DATA_BLOCK:
            raise AscregError(f"bufOffset {offset} is not a multiple of 32 bytes")
        room = (buffer.nbytes - offset) // dtype.size
        count = room if count is None else operands.in_range(count, "the element count", 0, 1 << 32)
        if count > room:
            raise AscregError(
                f"{count} x {dtype.size} bytes from byte {offset} leave the {buffer.nbytes}-byte "
                "TBuf"
            )
        return LocalTensor._view(buffer.ptr.offset_bytes(offset).cast(dtype), count, self._position)


class _BufGet:
    def __init__(self, buf: TBufHandle, *, offset: bool) -> None:
        self._buf, self._offset = buf, offset

    def __getitem__(self, dtype: type[T]) -> _BufGetter[T]:
        if not is_scalar_type(dtype):
            raise AscregTypeError("write Get[T]() / GetWithOffset[T](size, bufOffset)", call="TBuf")
        return _BufGetter(self._buf, dtype, self._offset)


class _BufGetter(Generic[T]):
    def __init__(self, buf: TBufHandle, dtype: type[T], offset: bool) -> None:
        self._buf, self._dtype, self._offset = buf, dtype, offset

    def __call__(self, len: int | None = None, bufOffset: int = 0) -> LocalTensor[T]:
        call = "GetWithOffset" if self._offset else "Get"
        if self._offset and len is None:
            raise AscregTypeError("GetWithOffset[T](size, bufOffset) takes both", call=call)
        return self._buf._tensor(self._dtype, len, bufOffset, call)


class _TBuf:
    """``AscendC::TBuf<pos>``, written ``TBuf[TPosition.VECCALC]()``."""

    def __getitem__(self, position: TPosition) -> _BufMaker:
        if position not in UB_POSITIONS:
            raise AscregTypeError(
                f"TBuf lives in UB (VECIN, VECOUT, VECCALC), not {position}", call="TBuf"
            )
        return _BufMaker(position)

    def __repr__(self) -> str:
        return "TBuf"


class _BufMaker:
    def __init__(self, position: TPosition) -> None:
        self._position = position

    def __call__(self) -> TBufHandle:
        return TBufHandle(self._position)


TBuf = _TBuf()
"""``AscendC::TBuf<pos>``: ``TBuf[TPosition.VECCALC]()`` makes a :class:`TBufHandle`.

Examples
--------
>>> from ascreg.basic import TBuf, TPosition
>>> TBuf[TPosition.VECCALC]()
TBuf<VECCALC>
"""

"""``TPipe``, ``TQue`` / ``TQueBind`` and ``TBuf``: the basic API's UB buffer management.

``TPipe.InitBuffer`` carves buffers out of the running block's UB. A queue hands them out with
``AllocTensor``, passes them from producer to consumer with ``EnQue`` / ``DeQue`` and takes them
back with ``FreeTensor``. As on the chip, ``EnQue`` / ``DeQue`` order the producer pipe before
the consumer pipe and ``FreeTensor`` / ``AllocTensor`` order the consumer before the next
producer, so a kernel written with queues needs no ``SetFlag`` / ``WaitFlag`` of its own. The
pipes follow from where the data comes from and goes to (the asc-devkit's ``GetQueEvt``): GM ->
UB is MTE2 -> V (``TQue<VECIN>``, ``HardEvent::MTE2_V``), UB -> GM is V -> MTE3
(``TQue<VECOUT>``), UB -> UB is MTE2 -> MTE3 (``TQueBind<VECIN, VECOUT>``, data copied through).
Each such pair takes an event id from the ``TPipe``'s pool while it is pending
(:mod:`ascreg.basic._events`). Misuse the chip would hang or corrupt on is an error.

The rules checked (from the asc-devkit ``TQue`` / ``TPipe`` pages and implementation):

* one ``TPipe`` per kernel (per block here); ``GetTPipePtr()`` returns it;
* ``InitBuffer`` once per queue or buffer; lengths round up to 32 bytes; the buffers must fit
  the UB, and a kernel uses at most :data:`MAX_BUFFERS` buffers;
* a queue of depth *n* holds at most *n* tensors between ``EnQue`` and ``DeQue`` (depth 0 is the
  in-place form: ``AllocTensor(t)`` / ``DeQue(t)``, at most one tensor per buffer);
* ``DeQue`` on an empty queue, ``AllocTensor`` with every buffer taken, ``FreeTensor`` of a
  tensor the queue did not hand out (or one still in the queue), a ``DeQue`` whose source and
  destination differ from its ``EnQue``'s, and more than :data:`QUE_MAX_EVENT` pending
  ``EnQue`` / ``FreeTensor`` of one ``HardEvent`` are errors.

A queue's tensors are views of its buffers: ``DeQue<T>`` gives the buffer as ``LocalTensor<T>``
whatever type it was allocated as (the C++ ``Buf2Tensor<T>``), and a tensor that starts where
its buffer starts (the one ``AllocTensor`` returned, or its ``ReinterpretCast``) names the
buffer in ``EnQue`` and ``FreeTensor``.
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar, TypeVar, cast, overload

from ascreg._dtypes import Scalar, uint8_t
from ascreg._frontend import operands
from ascreg.basic._events import EVENT_PARAM, QUE_MAX_EVENT, EventPool, HardEvent
from ascreg.basic._mutex import reset_mutex_ids, take_mutex_id
from ascreg.basic._system import reset_soc_state
from ascreg.basic._template import (
    INTEGER,
    TYPENAME,
    ClassTemplate,
    Kind,
    Signature,
    member_of,
    member_template,
    need,
)
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
MAX_ALLOCATED_PER_POSITION = QUE_MAX_EVENT
"""The older name of :data:`QUE_MAX_EVENT`: pending queue events of one ``HardEvent`` (8).

Examples
--------
>>> from ascreg.basic import MAX_ALLOCATED_PER_POSITION
>>> MAX_ALLOCATED_PER_POSITION
8
"""

_PIPE_STATE = "basic.tpipe"
QUEUE_POSITIONS = (TPosition.GM, *UB_POSITIONS)
"""The positions a vector-core queue's source and destination may name."""
_EVENTS = {
    (True, False): HardEvent.MTE2_V,  # GM -> UB
    (False, True): HardEvent.V_MTE3,  # UB -> GM
    (False, False): HardEvent.MTE2_MTE3,  # UB -> UB
}
"""The forward event of a queue path, by (source is GM, destination is GM)."""
_BACKWARD = {
    HardEvent.MTE2_V: HardEvent.V_MTE2,
    HardEvent.V_MTE3: HardEvent.MTE3_V,
    HardEvent.MTE2_MTE3: HardEvent.MTE3_MTE2,
}
"""The event that frees a buffer (the consumer before the next producer) of each path."""
_POSITION = member_of(TPosition)
_NO_MASK = Kind("0 (a TQueConfig is not modelled)", lambda value: value == 0)


def queue_event(src: TPosition, dst: TPosition, call: str) -> HardEvent:
    """Return the ``HardEvent`` of a queue path from *src* to *dst* (``GetQueEvt``).

    Examples
    --------
    >>> queue_event(TPosition.VECOUT, TPosition.GM, "EnQue").name
    'V_MTE3'
    >>> queue_event(TPosition.GM, TPosition.GM, "EnQue")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: EnQue: a queue path runs GM -> UB, UB -> GM or UB -> UB (positions GM, VECIN, VECOUT, VECCALC, not both GM); got GM -> GM
    """
    if src not in QUEUE_POSITIONS or dst not in QUEUE_POSITIONS or src is dst is TPosition.GM:
        raise AscregTypeError(
            "a queue path runs GM -> UB, UB -> GM or UB -> UB (positions GM, VECIN, VECOUT, "
            f"VECCALC, not both GM); got {getattr(src, 'name', src)} -> "
            f"{getattr(dst, 'name', dst)}",
            call=call,
        )
    return _EVENTS[src is TPosition.GM, dst is TPosition.GM]


class _Buffer:
    """One block of UB that ``InitBuffer`` gave a queue or TBuf."""

    __slots__ = ("enque", "free", "lease", "nbytes", "ptr", "state", "token", "usertag", "views")

    def __init__(self, ptr: UbPtr[Any], nbytes: int) -> None:
        self.ptr = ptr
        self.nbytes = nbytes
        self.state = "idle"  # "idle" -> "allocated" -> "queued" -> "allocated" -> "idle"
        self.usertag = -1
        """``TBufType::usertag``: ``LocalTensor.SetUserTag`` / ``GetUserTag`` (-1 after InitBuffer)."""
        self.token: dict[Pipe, int] | None = None
        self.enque: tuple[HardEvent, int] | None = None
        """The event and id a pending ``EnQue`` holds (released by ``DeQue``)."""
        self.free: tuple[HardEvent, int] | None = None
        """The event and id a ``FreeTensor`` holds (released by the next ``AllocTensor``)."""
        self.views: dict[type[Scalar], UbPtr[Any]] = {}
        """The buffer's pointer as each element type asked for since the last ``AllocTensor``."""
        self.lease: Allocation | None = None
        """The allocation the tensors of the current ``AllocTensor`` point into: ``FreeTensor``
        ends it, so a tensor used after it is an error, as after ``UnifiedBuffer.free``."""

    def take(self, dtype: type[Scalar]) -> None:
        """Hand the buffer out (``AllocTensor``): later views point into a fresh lease of it."""
        block = self.ptr.block
        label = block.label if block is not None else "queue buffer"
        self.lease = Allocation(self.ptr.address, self.nbytes, label, dtype.size)
        self.views = {}

    def view(self, dtype: type[T]) -> UbPtr[T]:
        """Return the buffer as a pointer to *dtype* inside the current lease (``Buf2Tensor<T>``)."""
        ptr = self.views.get(dtype)
        if ptr is None:
            ptr = self.views[dtype] = UbPtr(self.ptr.memory, dtype, self.ptr.address, self.lease)
        return ptr

    def release(self) -> None:
        """Take the buffer back (``FreeTensor``): the tensors handed out can no longer access it."""
        if self.lease is not None:
            self.lease.live = False
            self.lease.label += ", released by FreeTensor"


class TPipe:
    """``AscendC::TPipe``: owns the UB buffers of the kernel's queues and TBufs, and event ids.

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
        self._owners: list[TQueBind | TBuf] = []
        """Every queue and TBuf given buffers (what ``Destroy`` / ``Reset`` take back)."""
        self._pools: list[TBufPool] = []
        """Every ``TBufPool`` whose UB ``InitBufPool`` took from the pipe."""
        self._events = EventPool()
        self._destroyed = False
        reset_mutex_ids(ctx)

    def __repr__(self) -> str:
        return f"<TPipe: {self._buffers} buffers, {self._ctx.ub.free_bytes} UB bytes free>"

    @overload
    def InitBuffer(self, que: TQueBind, num: int, len: int) -> bool: ...
    @overload
    def InitBuffer(self, que: TBuf, num: int) -> bool: ...
    def InitBuffer(self, que: TQueBind | TBuf, num: int, len: int | None = None) -> bool:
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
        if isinstance(que, TBuf):
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
        if self._destroyed:
            raise AscregError("the TPipe was destroyed: Init() it, or make a new TPipe")
        if que._buffers:
            raise AscregError(f"{que!r} already has its buffers: InitBuffer once per queue")
        nbytes = -(-nbytes // DATA_BLOCK) * DATA_BLOCK
        self._reserve(count, nbytes)
        if isinstance(que, TQueBind):  # each queue buffer holds a mutex id (its bufId)
            for _ in range(count):
                take_mutex_id(self._ctx, strict=False)
        que._attach(self, [self._buffer(f"{que!r} buffer {i}", nbytes) for i in range(count)])
        self._owners.append(que)
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

    def Destroy(self) -> None:
        """``TPipe::Destroy()``: release the pipe's buffers and event ids (after a PIPE_ALL barrier).

        The queues and TBufs lose their buffers (a tensor taken from them is dead) and their UB
        is reused; the kernel may then make another ``TPipe``, or call ``Init()`` on this one.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     first = TPipe(); buf = TBuf(); _ = first.InitBuffer(buf, 1024)
        ...     first.Destroy()
        ...     second = TPipe(); other = TBuf(); _ = second.InitBuffer(other, 64)
        ...     other.Get[float32_t]().GetPhyAddr().address
        0
        """
        _ascreg_call = "TPipe.Destroy"
        self._release("Destroy")
        self._destroyed = True
        if self._ctx.state.get(_PIPE_STATE) is self:
            self._ctx.state[_PIPE_STATE] = None

    def Init(self) -> None:
        """``TPipe::Init()``: make a destroyed pipe the kernel's pipe again, with fresh pools.

        The constructor already initialises; ``Init`` pairs with ``Destroy`` to reuse the object.

        Examples
        --------
        >>> from ascreg.basic import GetTPipePtr, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); pipe.Destroy(); pipe.Init(); GetTPipePtr() is pipe
        True
        """
        _ascreg_call = "TPipe.Init"
        if not self._destroyed:
            raise AscregError("the TPipe is initialised already: Init() follows Destroy()")
        if self._ctx.state.get(_PIPE_STATE) is not None:
            raise AscregError("another TPipe is live: a kernel has one TPipe at a time")
        self._ctx.state[_PIPE_STATE] = self
        self._destroyed = False
        reset_mutex_ids(self._ctx)

    def Reset(self) -> None:
        """``TPipe::Reset()``: release every buffer and event id and reset the core's modes.

        The pipe stays the kernel's; its queues and TBufs need ``InitBuffer`` again.

        Examples
        --------
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf(); _ = pipe.InitBuffer(buf, 1024)
        ...     pipe.Reset(); pipe.InitBuffer(buf, 64)
        True
        """
        _ascreg_call = "TPipe.Reset"
        self._release("Reset")
        reset_soc_state()

    def _release(self, call: str) -> None:
        if self._destroyed:
            raise AscregError(f"the TPipe was destroyed: Init() it before {call}()")
        self._ctx.tracker.barrier()
        for owner in self._owners:
            for buffer in owner._buffers:
                buffer.release()
                self._ctx.ub.free(buffer.ptr)
            owner._detach()
        for pool in self._pools:
            pool._release(self._ctx)
        self._owners.clear()
        self._pools.clear()
        self._queues.clear()
        self._buffers = 0
        self._events = EventPool()
        reset_mutex_ids(self._ctx)
        self._ctx.ub.trim()

    def InitBufPool(self, bufPool: TBufPool, len: int, shareBuf: TBufPool | None = None) -> bool:
        """``InitBufPool(bufPool, len[, shareBuf])``: give a ``TBufPool`` *len* bytes of UB.

        *len* is rounded up to 32 bytes. With *shareBuf* (a pool made before) the new pool
        starts where *shareBuf* starts and has its length (*len* may not exceed it): the two
        reuse the same UB, one stage after the other. Without it the bytes are the pipe's next.

        Examples
        --------
        >>> from ascreg.basic import TBufPool, TPipe, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe()
        ...     pool1, pool2 = TBufPool[TPosition.VECCALC](), TBufPool[TPosition.VECCALC]()
        ...     pipe.InitBufPool(pool1, 1000), pipe.InitBufPool(pool2, 512, pool1)
        ...     pool1, pool2
        (True, True)
        (TBufPool<VECCALC, 4> (1024 bytes at 0x0), TBufPool<VECCALC, 4> (1024 bytes at 0x0))
        """
        _ascreg_call = "TPipe.InitBufPool"
        if self._destroyed:
            raise AscregError("the TPipe was destroyed: Init() it, or make a new TPipe")
        operands.instance(bufPool, TBufPool, "bufPool")
        nbytes = _pool_length(len)
        if shareBuf is not None:
            bufPool._share(shareBuf, nbytes)
            return True
        if bufPool._region is not None:
            raise AscregError(f"{bufPool!r} already has its UB: InitBufPool once per pool")
        ptr = self._ctx.ub.alloc_bytes(uint8_t, nbytes, label=f"{bufPool!r} region")
        bufPool._attach(self, cast(UbPtr[Any], ptr), nbytes, own=True)
        self._pools.append(bufPool)
        return True

    @member_template(EVENT_PARAM)
    def AllocEventID(self, *, evt: HardEvent | None = None) -> int:
        """``AllocEventID<evt>()``: occupy and return the lowest free id of *evt*.

        Pair it with ``ReleaseEventID``; the pool of each ``HardEvent`` holds
        :data:`QUE_MAX_EVENT` ids, shared with the queues of this ``TPipe``.

        Examples
        --------
        >>> from ascreg.basic import HardEvent, SetFlag, TPipe, WaitFlag
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe()
        ...     eventID = pipe.AllocEventID[HardEvent.V_S]()
        ...     SetFlag[HardEvent.V_S](eventID); WaitFlag[HardEvent.V_S](eventID)
        ...     pipe.ReleaseEventID[HardEvent.V_S](eventID)
        ...     eventID, pipe.AllocEventID[HardEvent.V_S]()
        (0, 0)
        """
        _ascreg_call = "TPipe.AllocEventID"
        return self._events.alloc(need("evt", evt, "AllocEventID[HardEvent.X]()"))

    @member_template(EVENT_PARAM)
    def ReleaseEventID(self, id: int, *, evt: HardEvent | None = None) -> None:
        """``ReleaseEventID<evt>(id)``: free an id ``AllocEventID<evt>`` returned.

        Examples
        --------
        >>> from ascreg.basic import HardEvent, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     TPipe().ReleaseEventID[HardEvent.V_S](3)
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregError: TPipe.ReleaseEventID: event id 3 of HardEvent::V_S is not occupied: release only an id AllocEventID returned, once
        """
        _ascreg_call = "TPipe.ReleaseEventID"
        self._events.release(need("evt", evt, "ReleaseEventID[HardEvent.X](id)"), id)

    @member_template(EVENT_PARAM)
    def FetchEventID(self, evt: HardEvent | None = None) -> int:
        """``FetchEventID<evt>()`` / ``FetchEventID(evt)``: the lowest free id, not occupied.

        For an id used at once (``SetFlag`` then ``WaitFlag``); the next fetch of the same
        event returns the same id.

        Examples
        --------
        >>> from ascreg.basic import HardEvent, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); held = pipe.AllocEventID[HardEvent.MTE2_V]()
        ...     pipe.FetchEventID[HardEvent.MTE2_V](), pipe.FetchEventID(HardEvent.MTE2_V)
        (1, 1)
        """
        _ascreg_call = "TPipe.FetchEventID"
        if evt is not None and not isinstance(evt, HardEvent):
            raise AscregTypeError(f"FetchEventID takes a HardEvent, got {evt!r:.40}")
        return self._events.fetch(need("evt", evt, "FetchEventID[HardEvent.X]()"))


def GetTPipePtr() -> TPipe:
    """``AscendC::GetTPipePtr()``: the kernel's ``TPipe`` (the one it made).

    Examples
    --------
    >>> from ascreg.basic import HardEvent, TPipe
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     pipe = TPipe()
    ...     GetTPipePtr() is pipe, GetTPipePtr().FetchEventID[HardEvent.V_MTE3]()
    (True, 0)
    >>> with block(BlockContext()):
    ...     GetTPipePtr()
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: GetTPipePtr: this kernel has made no TPipe: GetTPipePtr() returns a null pointer until one is made (TPipe pipe;)
    """
    _ascreg_call = "GetTPipePtr"
    pipe = current_block().state.get(_PIPE_STATE)
    if pipe is None:
        raise AscregError(
            "this kernel has made no TPipe: GetTPipePtr() returns a null pointer until one is "
            "made (TPipe pipe;)"
        )
    return cast(TPipe, pipe)


def _deduced(tensor: Any, dtype: type[Scalar] | None) -> type[Scalar]:
    """Return the ``T`` of an in-place call: the template argument, else the tensor's."""
    if not isinstance(tensor, LocalTensor):
        raise AscregTypeError(f"takes a LocalTensor, got {tensor!r:.60}")
    return dtype if dtype is not None else tensor._dtype()


def _positions(src: Any, dst: Any, call: str) -> HardEvent | None:
    """Return the event of a positioned ``EnQue`` / ``DeQue`` (None: the queue's own)."""
    if src is None and dst is None:
        return None
    return queue_event(src, dst, call)


class TQueBind(metaclass=ClassTemplate):
    """``AscendC::TQueBind<src, dst, depth>``: ``TQueBind[TPosition.VECIN, TPosition.VECOUT, 1]()``.

    A queue of UB buffers moving data from *src* to *dst* (GM, VECIN, VECOUT or VECCALC; see
    the module docstring for the pipes each path orders). ``AllocTensor[T]()`` takes an idle
    buffer, ``EnQue(t)`` passes it on, ``DeQue[T]()`` receives it and ``FreeTensor(t)`` gives
    it back. :class:`TQue` is the one-position form.

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

    template_signatures = (
        Signature(src=_POSITION, dst=_POSITION, depth=INTEGER, mask=(_NO_MASK, 0)),
    )

    def __init__(self, src: TPosition, dst: TPosition, depth: int, mask: int = 0) -> None:
        _ascreg_call = "TQueBind"
        self._setup(src, dst, depth, f"TQueBind<{src.name}, {dst.name}, {depth}>")

    def _setup(self, src: TPosition, dst: TPosition, depth: int, name: str) -> None:
        self._event = queue_event(src, dst, name)
        self._src, self._dst = src, dst
        self._position = src if dst is TPosition.GM else dst
        self._depth = operands.in_range(depth, "depth", 0, 255)
        self._name = name
        self._pipe: TPipe | None = None
        self._buffers: list[_Buffer] = []
        self._cursor = 0
        """The buffer ``AllocTensor`` tries first (buffers are handed out round-robin)."""
        self._queue: deque[tuple[_Buffer, HardEvent]] = deque()

    def __repr__(self) -> str:
        return self._name

    def _attach(self, pipe: TPipe, buffers: list[_Buffer]) -> None:
        self._pipe, self._buffers, self._cursor = pipe, buffers, 0
        pipe._queues.append(self)

    def _detach(self) -> None:
        self._pipe, self._buffers = None, []
        self._queue.clear()

    def _next_idle(self) -> _Buffer | None:
        """Return the next idle buffer in round-robin order (the C++ ``bufCursor``), or None."""
        count = len(self._buffers)
        for _ in range(count):
            buffer = self._buffers[self._cursor]
            self._cursor = (self._cursor + 1) % count
            if buffer.state == "idle":
                return buffer
        return None

    def FreeAllEvent(self) -> None:
        """``FreeAllEvent()``: wait for and release the event ids the freed buffers hold.

        Each buffer ``FreeTensor`` returned holds an id of the queue's backward event until its
        next ``AllocTensor``; this settles them all now (the producer pipe is ordered after the
        consumer's work), so other queues may take the ids. Not for depth 0 (C++
        ``static_assert``).

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import HardEvent, TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 1]()
        ...     _ = pipe.InitBuffer(que, 1, 64)
        ...     _ = que.EnQue(que.AllocTensor[float32_t]()); que.FreeTensor(que.DeQue[float32_t]())
        ...     held = pipe.FetchEventID(HardEvent.V_MTE2)
        ...     que.FreeAllEvent(); held, pipe.FetchEventID(HardEvent.V_MTE2)
        (1, 0)
        """
        _ascreg_call = f"{self._name}.FreeAllEvent"
        if not self._depth:
            raise AscregError("FreeAllEvent is not for a depth-0 (in-place) queue")
        for buffer in self._buffers:
            if buffer.enque is not None:
                raise AscregError(
                    "a tensor is still in the queue: DeQue it before FreeAllEvent (the chip "
                    "asserts)"
                )
            if buffer.free is not None:
                self._events().release(*buffer.free)
                buffer.free = None
                if buffer.token is not None:
                    self._tracker().acquire(self._event.value[0], buffer.token)
                buffer.token = None

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

    def _tensor(self, buffer: _Buffer, dtype: type[T]) -> LocalTensor[T]:
        """Return the buffer as ``LocalTensor<dtype>`` (the C++ ``Buf2Tensor<T>``)."""
        return LocalTensor._view(
            buffer.view(dtype), buffer.nbytes // dtype.size, self._position, buffer
        )

    def _rebind(self, tensor: LocalTensor[Any], taken: LocalTensor[Any]) -> LocalTensor[Any]:
        tensor._bind(taken.GetPhyAddr(), taken.GetSize(), taken.GetPosition(), taken._owner)
        return tensor

    def _events(self) -> EventPool:
        assert self._pipe is not None
        return self._pipe._events

    @member_template(Signature(T=TYPENAME))
    def AllocTensor(
        self, tensor: LocalTensor[Any] | None = None, *, T: type[Scalar] | None = None
    ) -> LocalTensor[Any]:
        """``AllocTensor<T>()``: a tensor over an idle buffer (contents undefined).

        ``AllocTensor[T](t)`` (the C++ ``AllocTensor(LocalTensor<T>&)``, depth 0) rebinds *t*
        in place instead, and returns it.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 1]()
        ...     _ = pipe.InitBuffer(que, 1, 128)
        ...     que.AllocTensor[float32_t]().GetSize()
        32
        """
        _ascreg_call = f"{self._name}.AllocTensor"
        if tensor is not None:
            return self._rebind(tensor, self._alloc(_deduced(tensor, T), True))
        return self._alloc(need("T", T, "AllocTensor[T]()"), False)

    def _alloc(self, dtype: type[T], inplace: bool) -> LocalTensor[T]:
        self._check_form(inplace, "AllocTensor")
        if self._pipe is None:
            raise AscregError("the queue has no buffers: call pipe.InitBuffer(que, num, len)")
        idle = self._next_idle()
        if idle is None:
            raise AscregError(
                f"no idle buffer: all {len(self._buffers)} buffer(s) of InitBuffer are taken; "
                "FreeTensor one first"
            )
        if idle.free is not None:
            self._events().release(*idle.free)
            idle.free = None
        if idle.token is not None:
            self._tracker().acquire(self._event.value[0], idle.token)
        idle.state = "allocated"
        idle.take(dtype)
        return self._tensor(idle, dtype)

    @member_template(
        Signature(T=TYPENAME),
        Signature(srcUserPos=_POSITION, dstUserPos=_POSITION, T=TYPENAME),
        Signature(srcUserPos=_POSITION, dstUserPos=_POSITION),
    )
    def EnQue(
        self,
        tensor: LocalTensor[Any],
        *,
        T: type[Scalar] | None = None,
        srcUserPos: TPosition | None = None,
        dstUserPos: TPosition | None = None,
    ) -> bool:
        """``EnQue<T>(t)`` / ``EnQue<srcUserPos, dstUserPos>(t)``: pass a tensor to the consumer.

        The positioned form names the path of this hand-over (a ``TQueBind`` of VECIN and
        VECOUT reused for GM -> VECIN, then VECOUT -> GM); its ``DeQue`` names the same
        positions. Raises when the queue is full.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 2]()
        ...     _ = pipe.InitBuffer(que, 2, 128)
        ...     a = que.AllocTensor[float32_t](); b = que.AllocTensor[float32_t]()
        ...     que.EnQue(a), que.EnQue[float32_t](b), que.GetTensorCountInQue(), que.VacantInQue()
        (True, True, 2, False)
        """
        _ascreg_call = f"{self._name}.EnQue"
        event = _positions(srcUserPos, dstUserPos, _ascreg_call) or self._event
        if event is not self._event and not self._depth:
            raise AscregError("the positioned EnQue needs depth >= 1 (C++ static_assert)")
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
        buffer.enque = (event, self._events().alloc(event))
        buffer.state = "queued"
        self._queue.append((buffer, event))
        buffer.token = self._tracker().token(event.value[0])
        return True

    @member_template(
        Signature(T=TYPENAME), Signature(srcUserPos=_POSITION, dstUserPos=_POSITION, T=TYPENAME)
    )
    def DeQue(
        self,
        tensor: LocalTensor[Any] | None = None,
        *,
        T: type[Scalar] | None = None,
        srcUserPos: TPosition | None = None,
        dstUserPos: TPosition | None = None,
    ) -> LocalTensor[Any]:
        """``DeQue<T>()`` / ``DeQue<srcUserPos, dstUserPos, T>()``: the oldest tensor, as ``T``.

        The buffer comes out as ``LocalTensor<T>`` whatever type it was allocated as (a
        ``uint8_t`` buffer dequeued as ``int8_t``, as production kernels do). ``DeQue[T](t)``
        (the C++ ``DeQue(LocalTensor<T>&)``, depth 0) rebinds *t* in place instead, and
        returns it. A refused ``DeQue`` leaves the queue as it was.

        Examples
        --------
        >>> from ascreg import int8_t, uint8_t
        >>> from ascreg.basic import TPipe, TPosition, TQue
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 1]()
        ...     _ = pipe.InitBuffer(que, 1, 64)
        ...     _ = que.EnQue(que.AllocTensor[uint8_t]())
        ...     que.DeQue[int8_t]()
        <LocalTensor<int8_t> VECIN <__ubuf__ int8_t* 0x0 ...>, 64 elements>
        """
        _ascreg_call = f"{self._name}.DeQue"
        event = _positions(srcUserPos, dstUserPos, _ascreg_call) or self._event
        if tensor is not None:
            return self._rebind(tensor, self._dequeue(_deduced(tensor, T), event, True))
        return self._dequeue(need("T", T, "DeQue[T]()"), event, False)

    def _dequeue(self, dtype: type[T], event: HardEvent, inplace: bool) -> LocalTensor[T]:
        self._check_form(inplace, "DeQue")
        if not self._queue:
            raise SyncError("DeQue on an empty queue: no EnQue is waiting (the chip would hang)")
        buffer, queued = self._queue[0]
        if queued is not event:
            raise SyncError(
                f"the oldest tensor was queued for {queued.name} ({_path(queued)}) but this "
                f"DeQue waits for {event.name} ({_path(event)}): EnQue and DeQue name the same "
                "positions (the chip would wait on the wrong flag)"
            )
        self._queue.popleft()
        buffer.state = "allocated"
        assert buffer.enque is not None
        self._events().release(*buffer.enque)
        buffer.enque = None
        if buffer.token is not None:
            self._tracker().acquire(event.value[1], buffer.token)
        buffer.token = None
        return self._tensor(buffer, dtype)

    @member_template(Signature(T=TYPENAME))
    def FreeTensor(self, tensor: LocalTensor[Any], *, T: type[Scalar] | None = None) -> None:
        """``FreeTensor<T>(t)``: give a tensor this queue handed out back to it.

        Its buffer holds an id of the queue's backward event until its next ``AllocTensor``.

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
        backward = _BACKWARD[self._event]
        buffer.free = (backward, self._events().alloc(backward))
        buffer.state = "idle"
        buffer.release()
        buffer.token = self._tracker().token(self._event.value[1])

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
        if tensor.GetPhyAddr().address != owner.ptr.address:
            raise AscregError(
                f"{tensor._describe()} is a view into a queue buffer; pass the tensor "
                "AllocTensor or DeQue returned",
                call=f"{self._name}.{call}",
            )
        return owner

    def _tracker(self) -> Any:
        return current_block().tracker

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


def _path(event: HardEvent) -> str:
    src, dst = (pipe.name.removeprefix("PIPE_") for pipe in event.value)
    return f"{src} -> {dst}"


class TQue(TQueBind):
    """``AscendC::TQue<pos, depth>``: ``TQue[TPosition.VECIN, 1]()``, a queue at one position.

    ``TQue<VECIN>`` is ``TQueBind<GM, VECIN>`` (data copied in: MTE2 -> V) and
    ``TQue<VECOUT>`` is ``TQueBind<VECOUT, GM>`` (results copied out: V -> MTE3).

    Examples
    --------
    >>> from ascreg.basic import TPosition, TQue
    >>> TQue[TPosition.VECIN, 1](), TQue[TPosition.VECIN, 1]
    (TQue<VECIN, 1>, TQue<TPosition.VECIN, 1, 0>)
    """

    template_signatures = (Signature(pos=_POSITION, depth=INTEGER, mask=(_NO_MASK, 0)),)
    _LOGICAL: ClassVar[dict[TPosition, tuple[TPosition, TPosition]]] = {
        TPosition.VECIN: (TPosition.GM, TPosition.VECIN),
        TPosition.VECOUT: (TPosition.VECOUT, TPosition.GM),
    }

    def __init__(self, pos: TPosition, depth: int, mask: int = 0) -> None:
        _ascreg_call = "TQue"
        if pos not in self._LOGICAL:
            raise AscregTypeError(f"{pos} is not a vector-core queue position (VECIN or VECOUT)")
        self._setup(*self._LOGICAL[pos], depth, f"TQue<{pos.name}, {depth}>")


class TBuf(metaclass=ClassTemplate):
    """``AscendC::TBuf<pos>``: ``TBuf[TPosition.VECCALC]()`` (``TBuf()``: ``TBuf<>``, VECCALC).

    One UB buffer for scratch tensors (no queue).

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

    template_signatures = (Signature(pos=(_POSITION, TPosition.VECCALC)),)

    def __init__(self, pos: TPosition = TPosition.VECCALC) -> None:
        _ascreg_call = "TBuf"
        if pos not in UB_POSITIONS:
            raise AscregTypeError(f"TBuf lives in UB (VECIN, VECOUT, VECCALC), not {pos}")
        self._position = pos
        self._buffers: list[_Buffer] = []

    def __repr__(self) -> str:
        return f"TBuf<{self._position.name}>"

    def _attach(self, pipe: TPipe, buffers: list[_Buffer]) -> None:
        self._buffers = buffers

    def _detach(self) -> None:
        self._buffers = []

    @member_template(Signature(T=TYPENAME))
    def Get(self, len: int | None = None, *, T: type[Scalar] | None = None) -> LocalTensor[Any]:
        """``Get<T>()`` (the whole buffer) or ``Get<T>(len)`` (its first *len* elements).

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf()
        ...     _ = pipe.InitBuffer(buf, 64)
        ...     buf.Get[half]().GetSize(), buf.Get[half](8).GetSize()
        (32, 8)
        """
        return self._get(need("T", T, "Get[T]()"), len, 0, "Get")

    @member_template(Signature(T=TYPENAME))
    def GetWithOffset(
        self, size: int, bufOffset: int, *, T: type[Scalar] | None = None
    ) -> LocalTensor[Any]:
        """``GetWithOffset<T>(size, bufOffset)``: *size* elements from byte *bufOffset*.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf()
        ...     _ = pipe.InitBuffer(buf, 64)
        ...     buf.GetWithOffset[half](16, 32).GetPhyAddr().address
        32
        """
        dtype = need("T", T, "GetWithOffset[T](size, bufOffset)")
        return self._get(dtype, size, bufOffset, "GetWithOffset")

    @member_template(Signature(T=TYPENAME))
    def AllocTensor(self, *, T: type[Scalar] | None = None) -> LocalTensor[Any]:
        """``AllocTensor<T>()``: the whole buffer as ``T``, as ``Get<T>()`` (TBuf keeps no queue).

        ``TBuf`` inherits the queue interface of ``TQueBind`` so that code written for a queue
        runs on a TBuf: ``AllocTensor`` and ``DeQue`` are ``Get``, ``EnQue`` and ``FreeTensor``
        do nothing (the C++ bodies are empty).

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf[()]()
        ...     _ = pipe.InitBuffer(buf, 128)
        ...     t = buf.AllocTensor[float32_t]()
        ...     buf.EnQue(t); u = buf.DeQue[float32_t](); buf.FreeTensor[float32_t](u)
        ...     t.GetSize(), u.GetPhyAddr() == t.GetPhyAddr()
        (32, True)
        """
        return self._get(need("T", T, "AllocTensor[T]()"), None, 0, "AllocTensor")

    @member_template(Signature(T=TYPENAME))
    def DeQue(self, *, T: type[Scalar] | None = None) -> LocalTensor[Any]:
        """``DeQue<T>()``: the whole buffer as ``T``, as ``Get<T>()`` (see :meth:`AllocTensor`).

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf()
        ...     _ = pipe.InitBuffer(buf, 64)
        ...     buf.DeQue[half]().GetSize()
        32
        """
        return self._get(need("T", T, "DeQue[T]()"), None, 0, "DeQue")

    @member_template(Signature(T=TYPENAME))
    def EnQue(self, tensor: LocalTensor[Any], *, T: type[Scalar] | None = None) -> None:
        """``EnQue<T>(t)``: nothing to do on a TBuf (see :meth:`AllocTensor`); *t* must be a tensor.

        Examples
        --------
        >>> from ascreg.basic import TBuf
        >>> TBuf().EnQue(3)
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregTypeError: TBuf<VECCALC>.EnQue: takes a LocalTensor, got 3
        """
        self._tensor_operand(tensor, "EnQue")

    @member_template(Signature(T=TYPENAME))
    def FreeTensor(self, tensor: LocalTensor[Any], *, T: type[Scalar] | None = None) -> None:
        """``FreeTensor<T>(t)``: nothing to do on a TBuf (see :meth:`AllocTensor`).

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import TBuf, TPipe
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); buf = TBuf()
        ...     _ = pipe.InitBuffer(buf, 64)
        ...     buf.FreeTensor(buf.AllocTensor[half]())
        """
        self._tensor_operand(tensor, "FreeTensor")

    def _tensor_operand(self, tensor: Any, call: str) -> None:
        _ascreg_call = f"{self!r}.{call}"
        if not isinstance(tensor, LocalTensor):
            raise AscregTypeError(f"takes a LocalTensor, got {tensor!r:.60}")

    def _get(self, dtype: type[T], count: int | None, offset: int, call: str) -> LocalTensor[T]:
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
        return LocalTensor._view(
            buffer.ptr.offset_bytes(offset).cast(dtype), count, self._position, buffer
        )


def _pool_length(length: Any) -> int:
    """*length* bytes rounded up to 32 (a pool's or its buffers' length)."""
    nbytes = operands.in_range(length, "len", 1, 1 << 32)
    return -(-nbytes // DATA_BLOCK) * DATA_BLOCK


class TBufPool(metaclass=ClassTemplate):
    """``AscendC::TBufPool<pos, bufIDSize = 4>``: a region of UB to hand out again stage by stage.

    ``TPipe.InitBufPool`` gives the pool its UB (or the UB of another pool, to reuse it); the
    pool's ``InitBuffer`` gives queues and TBufs buffers from it in order (at most *bufIDSize*
    buffers, up to 16), ``InitBufPool`` carves sub-pools, and ``Reset()`` ends a stage: its
    pending work completes and the whole region is free again. The buffers given out stay with
    their queues (their contents may be overwritten by the next stage's).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import TBufPool, TPipe, TPosition, TQue
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     pipe = TPipe(); pool = TBufPool[TPosition.VECCALC, 8]()
    ...     _ = pipe.InitBufPool(pool, 4096)
    ...     que = TQue[TPosition.VECIN, 1](); _ = pool.InitBuffer(que, 2, 1024)
    ...     que.AllocTensor[float32_t]().GetPhyAddr().address, pool
    (0, TBufPool<VECCALC, 8> (4096 bytes at 0x0, 2048 used))
    """

    template_signatures = (Signature(pos=_POSITION, bufIDSize=(INTEGER, 4)),)

    def __init__(self, pos: TPosition, bufIDSize: int = 4) -> None:
        _ascreg_call = "TBufPool"
        if pos not in UB_POSITIONS:
            raise AscregTypeError(
                f"TBufPool: ascreg models UB pools (VECIN, VECOUT, VECCALC), not {pos}"
            )
        self._position = pos
        self._size = operands.in_range(bufIDSize, "bufIDSize", 1, MAX_POOL_BUFFERS)
        self._pipe: TPipe | None = None
        self._region: UbPtr[Any] | None = None
        self._length = 0
        self._used = 0
        self._count = 0
        self._own = False
        self._users: list[TQueBind | TBuf] = []

    def __repr__(self) -> str:
        where = ""
        if self._region is not None:
            used = f", {self._used} used" if self._used else ""
            where = f" ({self._length} bytes at {self._region.address:#x}{used})"
        return f"TBufPool<{self._position.name}, {self._size}>{where}"

    def _attach(self, pipe: TPipe, region: UbPtr[Any], length: int, *, own: bool) -> None:
        self._pipe, self._region, self._length, self._own = pipe, region, length, own
        self._used = self._count = 0

    def _share(self, other: TBufPool, nbytes: int) -> None:
        """Make this pool start where *other* starts, with its length (``shareBuf``)."""
        operands.instance(other, TBufPool, "shareBuf")
        if other._region is None or other._pipe is None:
            raise AscregError(f"shareBuf {other!r} has no UB yet: InitBufPool it first")
        if nbytes > other._length:
            raise AscregError(
                f"len {nbytes} is longer than shareBuf {other!r}: a shared pool fits in it"
            )
        if self._region is not None:
            raise AscregError(f"{self!r} already has its UB: InitBufPool once per pool")
        self._attach(other._pipe, other._region, other._length, own=False)
        other._pipe._pools.append(self)

    def _take(self, nbytes: int, count: int, what: str) -> UbPtr[Any]:
        """Return the next *count* x *nbytes* bytes of the region (for *what*)."""
        if self._region is None or self._pipe is None:
            raise AscregError(f"{self!r} has no UB: call pipe.InitBufPool(pool, len) first")
        if self._used + count * nbytes > self._length:
            raise CapacityError(
                f"{what} needs {count * nbytes} bytes but {self!r} has "
                f"{self._length - self._used} left"
            )
        if self._count + count > self._size and what != "a sub-pool":
            raise CapacityError(
                f"{what} would make {self._count + count} buffers in {self!r}; its bufIDSize "
                f"is {self._size}"
            )
        start = self._region.offset_bytes(self._used)
        self._used += count * nbytes
        return start

    def InitBuffer(self, que: TQueBind | TBuf, num: int, len: int | None = None) -> bool:
        """``InitBuffer(que, num, len)`` / ``InitBuffer(buf, len)``: buffers from the pool.

        As ``TPipe.InitBuffer``, in the pool's next free bytes.

        Examples
        --------
        >>> from ascreg.basic import TBuf, TBufPool, TPipe, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); pool = TBufPool[TPosition.VECCALC]()
        ...     _ = pipe.InitBufPool(pool, 256)
        ...     a, b = TBuf(), TBuf(); _ = pool.InitBuffer(a, 64); _ = pool.InitBuffer(b, 100)
        ...     b.Get[uint8_t]().GetPhyAddr().address, b.Get[uint8_t]().GetSize()
        (64, 128)
        """
        _ascreg_call = f"{self!r}.InitBuffer"
        if isinstance(que, TBuf):
            if len is not None:
                raise AscregTypeError("a TBuf takes InitBuffer(buf, len): one buffer of len bytes")
            count, nbytes = 1, _pool_length(num)
        elif isinstance(que, TQueBind):
            count, nbytes = operands.in_range(num, "num", 1, 255), _pool_length(len)
        else:
            raise AscregTypeError(f"InitBuffer takes a TQue, TQueBind or TBuf, got {que!r:.60}")
        if que._buffers:
            raise AscregError(f"{que!r} already has its buffers: InitBuffer once per queue")
        start = self._take(nbytes, count, f"InitBuffer({que!r}, {count}, {nbytes})")
        self._count += count
        buffers = [_Buffer(start.offset_bytes(i * nbytes), nbytes) for i in range(count)]
        assert self._pipe is not None
        que._attach(self._pipe, buffers)
        self._users.append(que)
        return True

    def InitBufPool(self, bufPool: TBufPool, len: int, shareBuf: TBufPool | None = None) -> bool:
        """``InitBufPool(bufPool, len[, shareBuf])``: a sub-pool of this pool's next *len* bytes.

        With *shareBuf* it reuses that pool's bytes instead (see ``TPipe.InitBufPool``).

        Examples
        --------
        >>> from ascreg.basic import TBufPool, TPipe, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); outer, inner = TBufPool[TPosition.VECCALC](), TBufPool[TPosition.VECCALC]()
        ...     _ = pipe.InitBufPool(outer, 1024); _ = outer.InitBufPool(inner, 256)
        ...     inner
        TBufPool<VECCALC, 4> (256 bytes at 0x0)
        """
        _ascreg_call = f"{self!r}.InitBufPool"
        operands.instance(bufPool, TBufPool, "bufPool")
        nbytes = _pool_length(len)
        if shareBuf is not None:
            bufPool._share(shareBuf, nbytes)
            return True
        if bufPool._region is not None:
            raise AscregError(f"{bufPool!r} already has its UB: InitBufPool once per pool")
        start = self._take(nbytes, 1, "a sub-pool")
        assert self._pipe is not None
        bufPool._attach(self._pipe, start, nbytes, own=False)
        self._pipe._pools.append(bufPool)
        return True

    def Reset(self) -> None:
        """``Reset()``: end this pool's stage; its whole region is free for new buffers.

        The pool's pending copies and vector work complete first (the 950 ends the stage with
        barriers on MTE2, MTE3 and V and its buffer-id locks; ascreg, which does not model the
        locks, orders every pipe), so the next pool may reuse the bytes; the queues and TBufs
        keep the buffers they were given.

        Examples
        --------
        >>> from ascreg.basic import TBuf, TBufPool, TPipe, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); pool = TBufPool[TPosition.VECCALC]()
        ...     _ = pipe.InitBufPool(pool, 64); _ = pool.InitBuffer(TBuf(), 64)
        ...     pool.Reset(); pool.InitBuffer(TBuf(), 64)
        True
        """
        _ascreg_call = f"{self!r}.Reset"
        if self._region is None or self._pipe is None:
            raise AscregError(f"{self!r} has no UB: call pipe.InitBufPool(pool, len) first")
        self._pipe._ctx.tracker.barrier()
        self._used = self._count = 0

    def _release(self, ctx: BlockContext) -> None:
        """Take the pool's buffers back and free its UB (``TPipe::Destroy`` / ``Reset``)."""
        for user in self._users:
            for buffer in user._buffers:
                buffer.release()
            user._detach()
        if self._own and self._region is not None:
            ctx.ub.free(self._region)
        self._users.clear()
        self._pipe, self._region, self._length, self._used, self._count = None, None, 0, 0, 0


MAX_POOL_BUFFERS = 16
"""The largest ``bufIDSize`` of a ``TBufPool`` (``QBUFPOOL_MAX_LEN``)."""


TBufHandle = TBuf
"""The older name of :class:`TBuf` (what ``TBuf[pos]()`` made).

Examples
--------
>>> from ascreg.basic import TBuf, TBufHandle
>>> TBufHandle is TBuf
True
"""

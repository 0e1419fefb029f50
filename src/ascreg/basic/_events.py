"""``HardEvent``, event ids and their pool, ``SetFlag`` / ``WaitFlag`` and ``PipeBarrier``.

A ``HardEvent`` names a (source pipe, destination pipe) pair; with an event id it names one
hardware flag. The ``TPipe`` of a kernel hands event ids out of one pool per ``HardEvent``
(:class:`EventPool`, :data:`QUE_MAX_EVENT` ids each on dav-3510): ``AllocEventID`` occupies the
lowest free id until ``ReleaseEventID``, ``FetchEventID`` returns it without occupying it, and
the queues take their ids from the same pools (``EnQue`` until ``DeQue``, ``FreeTensor`` until
the buffer's next ``AllocTensor``), as the asc-devkit's ``TPipe`` does. An exhausted pool is an
:class:`~ascreg.errors.CapacityError`, where the C++ CPU-debug build stops at its assertion.

Examples
--------
>>> pool = EventPool()
>>> pool.alloc(HardEvent.V_S), pool.alloc(HardEvent.V_S), pool.fetch(HardEvent.V_S)
(0, 1, 2)
>>> pool.release(HardEvent.V_S, 0); pool.fetch(HardEvent.V_S)
0
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from ascreg.basic._template import ClassTemplate, Signature, function_template, member_of, need
from ascreg.errors import AscregError, AscregTypeError, CapacityError
from ascreg.machine.block import current_block
from ascreg.machine.sync import EVENT_COUNT, Pipe


class HardEvent(enum.Enum):
    """``AscendC::HardEvent``: a (source pipe, destination pipe) pair for ``SetFlag``/``WaitFlag``.

    The members are the vector core's events and the cube core's (``MTE2_MTE1``, ``MTE1_M``,
    ``M_FIX`` ...: the pipes of :mod:`ascreg.basic._cube`'s copies, loads, Mmad and Fixpipe),
    as the in-core sync table of the cube core lists them (``MTE3_MTE1`` / ``MTE1_MTE3`` order
    an L1 -> GM or UB -> L1 copy with the L1 loads). The header's ``M_V``, ``V_M``, ``V_V``,
    ``MTE1_V``, ``V_MTE1`` and ``FIX_FIX`` name pipes of two different cores on dav-3510 (or no
    documented pair) and are left out.

    Examples
    --------
    >>> [pipe.name for pipe in HardEvent.MTE2_V.value]
    ['PIPE_MTE2', 'PIPE_V']
    """

    MTE2_V = (Pipe.PIPE_MTE2, Pipe.PIPE_V)
    V_MTE2 = (Pipe.PIPE_V, Pipe.PIPE_MTE2)
    V_MTE3 = (Pipe.PIPE_V, Pipe.PIPE_MTE3)
    MTE3_V = (Pipe.PIPE_MTE3, Pipe.PIPE_V)
    MTE2_MTE3 = (Pipe.PIPE_MTE2, Pipe.PIPE_MTE3)
    MTE3_MTE2 = (Pipe.PIPE_MTE3, Pipe.PIPE_MTE2)
    S_V = (Pipe.PIPE_S, Pipe.PIPE_V)
    V_S = (Pipe.PIPE_V, Pipe.PIPE_S)
    S_MTE2 = (Pipe.PIPE_S, Pipe.PIPE_MTE2)
    MTE2_S = (Pipe.PIPE_MTE2, Pipe.PIPE_S)
    S_MTE3 = (Pipe.PIPE_S, Pipe.PIPE_MTE3)
    MTE3_S = (Pipe.PIPE_MTE3, Pipe.PIPE_S)
    MTE2_MTE1 = (Pipe.PIPE_MTE2, Pipe.PIPE_MTE1)
    MTE1_MTE2 = (Pipe.PIPE_MTE1, Pipe.PIPE_MTE2)
    MTE1_M = (Pipe.PIPE_MTE1, Pipe.PIPE_M)
    M_MTE1 = (Pipe.PIPE_M, Pipe.PIPE_MTE1)
    M_FIX = (Pipe.PIPE_M, Pipe.PIPE_FIX)
    FIX_M = (Pipe.PIPE_FIX, Pipe.PIPE_M)
    MTE2_FIX = (Pipe.PIPE_MTE2, Pipe.PIPE_FIX)
    FIX_MTE2 = (Pipe.PIPE_FIX, Pipe.PIPE_MTE2)
    MTE1_FIX = (Pipe.PIPE_MTE1, Pipe.PIPE_FIX)
    FIX_MTE1 = (Pipe.PIPE_FIX, Pipe.PIPE_MTE1)
    FIX_S = (Pipe.PIPE_FIX, Pipe.PIPE_S)
    M_S = (Pipe.PIPE_M, Pipe.PIPE_S)
    FIX_MTE3 = (Pipe.PIPE_FIX, Pipe.PIPE_MTE3)
    MTE2_M = (Pipe.PIPE_MTE2, Pipe.PIPE_M)
    M_MTE2 = (Pipe.PIPE_M, Pipe.PIPE_MTE2)
    MTE3_MTE1 = (Pipe.PIPE_MTE3, Pipe.PIPE_MTE1)
    MTE1_MTE3 = (Pipe.PIPE_MTE1, Pipe.PIPE_MTE3)


for _slot, _event in enumerate(HardEvent):
    _event.slot = _slot  # type: ignore[attr-defined]  # the pool's index (an enum hashes slowly)
del _slot, _event

QUE_MAX_EVENT = 8
"""``AscendC::QUE_MAX_EVENT``: event ids per ``HardEvent`` in a ``TPipe``'s pool (dav-3510: 8).

Examples
--------
>>> from ascreg.basic import QUE_MAX_EVENT
>>> QUE_MAX_EVENT
8
"""

EVENT_PARAM = Signature(evt=member_of(HardEvent))
"""The template parameter list ``<HardEvent evt>``."""


def event_t(value: Any) -> int:
    """``static_cast<event_t>(id)``: an event id as ``SetFlag`` / ``WaitFlag`` take it.

    ``event_t`` (C) and ``TEventID`` (``AscendC::TEventID``) are the integer types of an event
    id; the cast checks the id is one of ``EVENT_ID0`` .. ``EVENT_ID7``.

    Examples
    --------
    >>> event_t(3)
    3
    >>> event_t(8)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: event_t: 8 is not an event id (EVENT_ID0 .. EVENT_ID7)
    """
    integer = isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
    if not integer or not 0 <= value < EVENT_COUNT:
        raise AscregTypeError(
            f"{value!r:.40} is not an event id (EVENT_ID0 .. EVENT_ID{EVENT_COUNT - 1})",
            call="event_t",
        )
    return int(value)


TEventID = event_t
"""``AscendC::TEventID``: ``static_cast<TEventID>(id)``, the same check as :func:`event_t`.

Examples
--------
>>> TEventID(0)
0
"""


class EventPool:
    """The event ids of one ``TPipe``: per ``HardEvent``, which of its ids are occupied.

    Examples
    --------
    >>> pool = EventPool()
    >>> [pool.alloc(HardEvent.MTE2_V) for _ in range(QUE_MAX_EVENT)][-1]
    7
    >>> pool.alloc(HardEvent.MTE2_V)
    Traceback (most recent call last):
    ...
    ascreg.errors.CapacityError: all 8 event ids of HardEvent::MTE2_V are occupied (AllocEventID, EnQue and FreeTensor hold them until ReleaseEventID, DeQue and the buffer's next AllocTensor): release one first
    """

    def __init__(self) -> None:
        self.occupied = [0] * len(HardEvent)
        """Per event (by its ``slot``), the bit set of occupied ids (bit *i*: id *i*)."""

    def fetch(self, event: HardEvent) -> int:
        """Return the lowest free id of *event* without occupying it (``FetchEventID``)."""
        bits = self.occupied[event.slot]  # type: ignore[attr-defined]
        free = (~bits & (bits + 1)).bit_length() - 1  # the lowest zero bit
        if free >= QUE_MAX_EVENT:
            raise CapacityError(
                f"all {QUE_MAX_EVENT} event ids of HardEvent::{event.name} are occupied "
                "(AllocEventID, EnQue and FreeTensor hold them until ReleaseEventID, DeQue and "
                "the buffer's next AllocTensor): release one first"
            )
        return free

    def alloc(self, event: HardEvent) -> int:
        """Occupy and return the lowest free id of *event* (``AllocEventID``)."""
        found = self.fetch(event)
        self.occupied[event.slot] |= 1 << found  # type: ignore[attr-defined]
        return found

    def release(self, event: HardEvent, event_id: Any) -> None:
        """Free id *event_id* of *event* (``ReleaseEventID``); it must be occupied."""
        if type(event_id) is not int and (
            isinstance(event_id, bool) or not isinstance(event_id, int)
        ):
            raise AscregTypeError(f"the event id must be an integer, got {event_id!r:.40}")
        if not 0 <= event_id < QUE_MAX_EVENT:
            raise AscregError(f"event id {event_id} is outside [0, {QUE_MAX_EVENT})")
        slot = event.slot  # type: ignore[attr-defined]
        if not self.occupied[slot] >> event_id & 1:
            raise AscregError(
                f"event id {event_id} of HardEvent::{event.name} is not occupied: release "
                "only an id AllocEventID returned, once"
            )
        self.occupied[slot] &= ~(1 << event_id)


def _flag(event_id: int, *, evt: HardEvent | None = None, wait: bool) -> None:
    name = "WaitFlag" if wait else "SetFlag"
    _ascreg_call = name
    event = need("evt", evt, f"{name}[HardEvent.X](id)")
    _ascreg_call = f"{name}<HardEvent::{event.name}>"
    src, dst = event.value
    tracker = current_block().tracker
    (tracker.wait if wait else tracker.notify)(src, dst, event_id)


@function_template(EVENT_PARAM, name="SetFlag")
def SetFlag(event_id: int, *, evt: HardEvent | None = None) -> None:
    """``AscendC::SetFlag<HardEvent::X>(id)``: ``SetFlag[HardEvent.X](EVENT_ID0)``.

    Examples
    --------
    >>> from ascreg.basic import EVENT_ID0
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetFlag[HardEvent.MTE2_V](EVENT_ID0); WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
    """
    _flag(event_id, evt=evt, wait=False)


@function_template(EVENT_PARAM, name="WaitFlag")
def WaitFlag(event_id: int, *, evt: HardEvent | None = None) -> None:
    """``AscendC::WaitFlag<HardEvent::X>(id)``: waits for a matching :data:`SetFlag`.

    Examples
    --------
    >>> from ascreg.basic import EVENT_ID1
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     WaitFlag[HardEvent.V_MTE3](EVENT_ID1)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: WaitFlag<HardEvent::V_MTE3>: wait for flag (PIPE_V -> PIPE_MTE3, EVENT_ID1) that no earlier notify set: the kernel would hang on the chip
    """
    _flag(event_id, evt=evt, wait=True)


_PAIR_EVENTS = {event.value: event for event in HardEvent}


class TQueSync(metaclass=ClassTemplate):
    """``AscendC::TQueSync<pipe_t src, pipe_t dst>``: ``SetFlag`` / ``WaitFlag`` by pipe pair.

    ``TQueSync[PIPE_V, PIPE_MTE3]().SetFlag(id)`` is ``SetFlag[HardEvent.V_MTE3](id)``: the
    destination pipe waits for the source pipe. The pair must be one of :class:`HardEvent`'s.

    Examples
    --------
    >>> from ascreg.basic import EVENT_ID0, PIPE_MTE3, PIPE_V
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     sync = TQueSync[PIPE_V, PIPE_MTE3]()
    ...     sync.SetFlag(EVENT_ID0); sync.WaitFlag(EVENT_ID0)
    ...     sync
    TQueSync<PIPE_V, PIPE_MTE3>
    """

    template_signatures = (Signature(src=member_of(Pipe), dst=member_of(Pipe)),)

    def __init__(self, *, src: Pipe | None = None, dst: Pipe | None = None) -> None:
        _ascreg_call = "TQueSync"
        pair = (need("src", src, "TQueSync[src, dst]()"), need("dst", dst, "TQueSync[src, dst]()"))
        event = _PAIR_EVENTS.get(pair)
        if event is None:
            raise AscregTypeError(
                f"TQueSync<{pair[0].name}, {pair[1].name}>: no HardEvent joins these pipes "
                f"(the pairs: {', '.join(e.name for e in HardEvent)})"
            )
        self._event = event

    def SetFlag(self, id: int) -> None:
        """``SetFlag(id)``: ``SetFlag<HardEvent>(id)`` of the pair (see ``TQueSync``).

        Examples
        --------
        >>> from ascreg.basic import PIPE_S, PIPE_V
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     TQueSync[PIPE_S, PIPE_V]().SetFlag(1)
        """
        _flag(id, evt=self._event, wait=False)

    def WaitFlag(self, id: int) -> None:
        """``WaitFlag(id)``: ``WaitFlag<HardEvent>(id)`` of the pair (see ``TQueSync``).

        Examples
        --------
        >>> from ascreg.basic import PIPE_S, PIPE_V
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     TQueSync[PIPE_S, PIPE_V]().SetFlag(1); TQueSync[PIPE_S, PIPE_V]().WaitFlag(1)
        """
        _flag(id, evt=self._event, wait=True)

    def __repr__(self) -> str:
        src, dst = self._event.value
        return f"TQueSync<{src.name}, {dst.name}>"


@function_template(Signature(pipe=member_of(Pipe)), name="PipeBarrier")
def PipeBarrier(*, pipe: Pipe | None = None) -> None:
    """``AscendC::PipeBarrier<pipe>()``: ``PipeBarrier[PIPE_ALL]()`` orders every pipe's work.

    Another pipe is an in-pipe barrier (its next instruction starts after its earlier ones).

    Examples
    --------
    >>> from ascreg.basic import PIPE_ALL
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     PipeBarrier[PIPE_ALL]()
    """
    _ascreg_call = "PipeBarrier"
    chosen = need("pipe", pipe, "PipeBarrier[pipe]()")
    ctx = current_block()
    if chosen is Pipe.PIPE_ALL:
        ctx.tracker.barrier()
    elif chosen is not Pipe.PIPE_S:
        ctx.tracker.pipe_barrier(chosen)

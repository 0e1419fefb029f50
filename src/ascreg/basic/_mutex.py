"""``Mutex::Lock`` / ``Mutex::Unlock`` and the mutex ids of ``AllocMutexID`` / ``ReleaseMutexID``.

A mutex orders pipes as the C API's ``asc_lock`` / ``asc_unlock`` do (the block's pipe
tracker): ``Mutex.Lock[pipe](id)`` makes *pipe*'s later work wait for every earlier
``Unlock`` of *id*, ``Mutex.Unlock[pipe](id)`` releases *id* once *pipe*'s work so far is done.
The ids come from one 32-bit mask per block (``g_bufId`` of the dav-3510 implementation):
``AllocMutexID`` takes the lowest free one (at most 27), ``ReleaseMutexID`` frees it, and each
buffer a ``TPipe`` gives a queue takes one too, as the 950's queues use them; a new, reset or
destroyed ``TPipe`` clears the mask.

Examples
--------
>>> from ascreg.basic import PIPE_MTE2, PIPE_V
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     first, second = AllocMutexID(), AllocMutexID()
...     Mutex.Lock[PIPE_MTE2](first); Mutex.Unlock[PIPE_MTE2](first)
...     Mutex.Lock[PIPE_V](first); Mutex.Unlock[PIPE_V](first)
...     ReleaseMutexID(first); first, second, AllocMutexID()
(0, 1, 0)
"""

from __future__ import annotations

from typing import Any

from ascreg._dtypes import uint8_t
from ascreg._frontend import operands
from ascreg.basic._template import Signature, function_template, member_of, need
from ascreg.errors import CapacityError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.sync import Pipe

__all__ = ["AllocMutexID", "Mutex", "MutexID", "ReleaseMutexID"]

MutexID = uint8_t
"""``AscendC::MutexID``: ``uint8_t``."""

MAX_MUTEXID = 27
"""The largest id ``AllocMutexID`` hands out (28-31 are the system's)."""

_MASK = "mutex_ids"
"""Block-state key of the taken-id mask."""


def take_mutex_id(ctx: BlockContext, *, strict: bool = True) -> int | None:
    """Take and return the lowest free mutex id of block *ctx* (``AllocMutexID``).

    When all are taken: an error, or with *strict* False None (a queue buffer past the 28th,
    which ascreg lets a ``TPipe`` have: its limit is ``MAX_BUFFERS``).
    """
    mask: int = ctx.state.get(_MASK, 0)
    free = (~mask & (mask + 1)).bit_length() - 1  # the lowest zero bit
    if free > MAX_MUTEXID:
        if not strict:
            return None
        raise CapacityError(
            f"all mutex ids 0..{MAX_MUTEXID} are taken (AllocMutexID and the TPipe's "
            "queue buffers hold them): release one first"
        )
    ctx.state[_MASK] = mask | 1 << free
    return free


def reset_mutex_ids(ctx: BlockContext) -> None:
    """Free every mutex id of block *ctx* (a ``TPipe`` made, reset or destroyed)."""
    ctx.state[_MASK] = 0


def AllocMutexID() -> int:
    """``AscendC::AllocMutexID()``: take the lowest free ``MutexID`` (0..27).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     [AllocMutexID() for _ in range(3)]
    [0, 1, 2]
    """
    _ascreg_call = "AllocMutexID"
    taken = take_mutex_id(current_block())
    assert taken is not None
    return taken


def ReleaseMutexID(id: int) -> None:
    """``AscendC::ReleaseMutexID(id)``: give an id back (below 27, as the implementation asserts).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = AllocMutexID(); ReleaseMutexID(a); AllocMutexID()
    0
    """
    _ascreg_call = "ReleaseMutexID"
    number = operands.in_range(id, "id", 0, MAX_MUTEXID - 1)
    ctx = current_block()
    ctx.state[_MASK] = ctx.state.get(_MASK, 0) & ~(1 << number)


_PIPE = Signature(pipe=member_of(Pipe))


def _lock(id: int, *, pipe: Pipe | None = None) -> None:
    """``Mutex::Lock<pipe>(id)``: *pipe*'s later work waits for every earlier unlock of *id*.

    Examples
    --------
    >>> from ascreg.basic import PIPE_V
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     Mutex.Lock[PIPE_V](3); Mutex.Unlock[PIPE_V](3)
    """
    _ascreg_call = "Mutex::Lock"
    chosen = need("pipe", pipe, "Mutex.Lock[pipe](id)")
    current_block().tracker.lock(chosen, operands.in_range(id, "id", 0, MAX_MUTEXID))


def _unlock(id: int, *, pipe: Pipe | None = None) -> None:
    """``Mutex::Unlock<pipe>(id)``: release *id* once *pipe*'s work so far is done.

    Examples
    --------
    >>> from ascreg.basic import PIPE_MTE2
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     Mutex.Lock[PIPE_MTE2](0); Mutex.Unlock[PIPE_MTE2](0)
    """
    _ascreg_call = "Mutex::Unlock"
    chosen = need("pipe", pipe, "Mutex.Unlock[pipe](id)")
    current_block().tracker.unlock(chosen, operands.in_range(id, "id", 0, MAX_MUTEXID))


class Mutex:
    """``AscendC::Mutex``: ``Mutex.Lock[pipe](id)`` / ``Mutex.Unlock[pipe](id)`` (static).

    Lock and unlock of one id are strictly paired, the lock first, on the same pipe.

    Examples
    --------
    >>> from ascreg.basic import PIPE_MTE2, PIPE_V
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     Mutex.Unlock[PIPE_V](1)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: Mutex::Unlock: asc_unlock(PIPE_V, 1) without an earlier asc_lock of mutex 1 (lock and unlock are strictly paired, the lock first)
    """

    Lock: Any = function_template(_PIPE, name="Mutex::Lock")(_lock)
    Unlock: Any = function_template(_PIPE, name="Mutex::Unlock")(_unlock)

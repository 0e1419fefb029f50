"""How a warp call meets the lanes it combines, in either tier of the SIMT engine.

A warp function is written once, as ``compute(values, active, *params)`` on ``(warps, 32)``
arrays: ``values`` holds one value per lane, ``active`` marks the lanes taking part, each of
``params`` one integer per lane (a ``(1, 32)`` row when every lane passes the same one: it
broadcasts against the warps). The vectorised tier calls it once on the whole block
(:func:`run_warps`: lanes past the end of a partial last warp are inactive). The per-thread tier
has each thread post a :class:`WarpRequest` and wait; when every live thread waits, the engine
hands the requests of one warp to :func:`complete_rendezvous`, which calls ``compute`` on those
lanes only and returns each thread its own result.

Examples
--------
>>> import numpy as np
>>> def total(values, active):
...     return np.broadcast_to(np.where(active, values, 0).sum(axis=1, keepdims=True), values.shape)
>>> run_warps(np.arange(40), (), total)[[0, 31, 32, 39]]
Lanes([496, 496, 284, 284])
>>> requests = [WarpRequest(("sum",), total, np.array([v]), ()) for v in (5, 7)]
>>> [int(r[0]) for r in complete_rendezvous([0, 3], requests)]
[12, 12]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.machine.simt.lanes import Lanes

Arr = np.ndarray[Any, Any]

WARP_SIZE = 32
"""Threads per warp."""


class WarpRequest:
    """One thread's part of a warp call in the per-thread tier.

    ``key`` tells which calls meet (the same function with the same template arguments),
    ``value`` and ``params`` are the thread's own lane of the arguments.

    Examples
    --------
    >>> import numpy as np
    >>> WarpRequest(("asc_all",), lambda v, a: v, np.array([1]), ()).key
    ('asc_all',)
    """

    __slots__ = ("compute", "key", "params", "value")

    def __init__(
        self, key: tuple[Any, ...], compute: Callable[..., Arr], value: Any, params: tuple[Any, ...]
    ) -> None:
        self.key = key
        self.compute = compute
        self.value = value
        self.params = params


def complete_rendezvous(lanes: list[int], requests: list[WarpRequest]) -> list[Any]:
    """Compute a warp call for the threads (*lanes* of one warp) that reached it together.

    Examples
    --------
    >>> import numpy as np
    >>> first = lambda v, a: np.broadcast_to(v[:, :1], v.shape)
    >>> requests = [WarpRequest(("f",), first, np.array([v]), ()) for v in (9, 4)]
    >>> [int(r[0]) for r in complete_rendezvous([0, 1], requests)]
    [9, 9]
    """
    first = requests[0]
    active = np.zeros((1, WARP_SIZE), dtype=bool)
    active[0, lanes] = True
    value = np.zeros((1, WARP_SIZE), dtype=np.asarray(first.value).dtype)
    value[0, lanes] = [np.asarray(r.value).reshape(-1)[0] for r in requests]
    params = []
    for i in range(len(first.params)):
        column = np.zeros((1, WARP_SIZE), dtype=np.int64)
        column[0, lanes] = [int(np.asarray(r.params[i]).reshape(-1)[0]) for r in requests]
        params.append(column)
    result = first.compute(value, active, *params)
    return [result[0, lane : lane + 1].view(Lanes) for lane in lanes]


def run_warps(
    values: Arr,
    params: tuple[Any, ...],
    compute: Callable[..., Arr],
    lanes: Arr | None = None,
    block: int | None = None,
) -> Lanes:
    """Run a warp call over every warp of a whole block at once (the vectorised tier).

    *values* holds one value per thread; each of *params* is a scalar or one value per thread.
    *lanes* marks the threads that make the call (divergent code); None means all of them.
    *block* (threads per block) splits the lanes into blocks run side by side (a batch of
    blocks): each block's last warp ends with the block, as when the block runs alone.

    Examples
    --------
    >>> import numpy as np
    >>> run_warps(np.arange(3), (np.int64(1),), lambda v, a, p: v + p)
    Lanes([1, 2, 3])
    >>> first = lambda v, a: np.broadcast_to(v[:, :1], v.shape)
    >>> run_warps(np.arange(6), (), first, block=3)  # two blocks of 3 threads, a warp each
    Lanes([0, 0, 0, 3, 3, 3])
    """
    n = values.size
    if block is None or block >= n:
        block = n
    per_block = -(-block // WARP_SIZE) * WARP_SIZE
    if per_block == block:  # blocks fill their warps: lane i is slot i
        slots = None
        size = n
    else:
        lane = np.arange(n)
        slots = (lane // block) * per_block + lane % block
        size = (n // block) * per_block
    where = slice(0, n) if slots is None else slots
    if slots is None:  # the lanes are the warps' slots already: no padded copies
        padded = np.asarray(values).reshape(-1)
        taking_part = np.ones(size, dtype=bool) if lanes is None else np.asarray(lanes)
    else:
        padded = np.zeros(size, dtype=values.dtype)
        taking_part = np.zeros(size, dtype=bool)
        padded[where] = values
        taking_part[where] = True if lanes is None else lanes
    warps = size // WARP_SIZE
    columns = []
    for p in params:
        if np.ndim(p) == 0:  # one value for every lane: a row the warps share
            columns.append(np.full((1, WARP_SIZE), int(p), dtype=np.int64))
            continue
        column = np.zeros(size, dtype=np.int64)
        column[where] = np.broadcast_to(np.asarray(p).astype(np.int64), (n,))
        columns.append(column.reshape(warps, WARP_SIZE))
    shaped = padded.reshape(warps, WARP_SIZE)
    result = compute(shaped, taking_part.reshape(warps, WARP_SIZE), *columns)
    return np.ascontiguousarray(result).reshape(-1)[where].view(Lanes)

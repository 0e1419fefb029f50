"""Lane semantics of the SIMT warp functions: shuffles, votes, reductions and lane masks.

Every warp function here is ``compute(values, active, *params)`` on ``(warps, 32)`` arrays, the
form the SIMT engine's rendezvous calls (:mod:`ascreg.machine.simt.rendezvous`): ``values`` holds
one value per lane, ``active`` marks the lanes taking part, each of ``params`` one integer per
lane. The result has the shape of ``values`` (a warp-wide result is broadcast to every lane).
Argument checking lives in :mod:`ascreg.simt.warp`; nothing here knows about Python values.

Decisions: ``asc_shfl_xor`` follows the documented CUDA rule (a target lane in the caller's own
or a *lower* group is read; one in a higher group returns the caller's value), not the CPU-debug
model; reading an inactive lane is undefined (an error by default, the caller's own value under
``set_policy(undefined="warn")``); the reductions combine with a butterfly (xor 16, 8, 4, 2, 1)
over the active lanes and broadcast lane 0's result.

Examples
--------
>>> import numpy as np
>>> values, active = np.arange(32).reshape(1, 32), np.ones((1, 32), dtype=bool)
>>> shfl_down(values, active, np.ones((1, 32), np.int64), width=8, call="asc_shfl_down")[0, :9]
array([1, 2, 3, 4, 5, 6, 7, 7, 9])
>>> hex(int(ballot(values % 2, active)[0, 0]))
'0xaaaaaaaa'
>>> int(REDUCTIONS["add"](values, active)[0, 5])
496
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.errors import UndefinedBehaviourError, undefined_behaviour
from ascreg.machine.simt.rendezvous import WARP_SIZE

Arr = np.ndarray[Any, Any]
LANE = np.arange(WARP_SIZE, dtype=np.int64)
"""The lane index of each column of a ``(warps, 32)`` array."""
_LOW32 = np.uint64(0xFFFFFFFF)
_LE32 = np.dtype("<u4")


def group_start(width: int) -> Arr:
    """Return the first lane of each lane's group of *width* consecutive lanes.

    Examples
    --------
    >>> group_start(8)[[0, 7, 8, 31]].tolist()
    [0, 0, 8, 24]
    """
    start: Arr = (LANE // width) * width
    return start


def read_lanes(values: Arr, active: Arr, source: Arr, use: Arr | None, call: str) -> Arr:
    """Return lane *source* of each warp where *use* (and in range), else the lane's own value.

    A lane reading an inactive lane is undefined behaviour (*call* names it in the message);
    under the warning policy it reads its own value.

    Examples
    --------
    >>> import numpy as np
    >>> values, active = np.arange(32).reshape(1, 32), LANE[None, :] < 4
    >>> read_lanes(values, active, LANE[None, :] ^ 1, None, "asc_shfl_xor")[0, :4]
    array([1, 0, 3, 2])
    """
    inside = (source >= 0) & (source < WARP_SIZE)
    if use is not None:
        inside = inside & use
    safe = np.where(inside, source, LANE)
    if safe.shape[0] == 1 and values.shape[0] != 1:  # every warp reads the same lanes
        row = safe[0]
        if not (active & inside & ~np.take(active, row, axis=1)).any():
            same: Arr = np.take(values, row, axis=1)  # C order (``values[:, row]`` is not)
            return same
    safe = np.broadcast_to(safe, values.shape)
    # one flat take per array: cheaper than indexing with (rows, lanes) pairs
    flat = (np.arange(0, values.size, WARP_SIZE)[:, None] + safe).reshape(-1)
    bad = active & inside & ~np.take(active, flat).reshape(safe.shape)
    if bad.any():
        warp, lane = (int(v[0]) for v in np.nonzero(bad))
        undefined_behaviour(
            UndefinedBehaviourError(
                f"lane {lane} of warp {warp} reads lane {int(safe[warp, lane])}, which is not "
                "active (an uninitialised register on the chip)",
                call=call,
            )
        )
        safe = np.where(bad, LANE, safe)
        flat = (np.arange(0, values.size, WARP_SIZE)[:, None] + safe).reshape(-1)
    result: Arr = np.take(values, flat).reshape(safe.shape)
    return result


def shfl(values: Arr, active: Arr, src_lane: Arr, *, width: int, call: str) -> Arr:
    """``asc_shfl``: lane ``group_start + src_lane % width`` of the lane's own group.

    Examples
    --------
    >>> import numpy as np
    >>> values, active = np.arange(32).reshape(1, 32), np.ones((1, 32), dtype=bool)
    >>> shfl(values, active, np.ones((1, 32), np.int64), width=4, call="asc_shfl")[0, :8]
    array([1, 1, 1, 1, 5, 5, 5, 5])
    """
    return read_lanes(values, active, group_start(width) + np.mod(src_lane, width), None, call)


def shfl_up(values: Arr, active: Arr, delta: Arr, *, width: int, call: str) -> Arr:
    """``asc_shfl_up``: lane ``i - delta``; a source before the group keeps the own value.

    Examples
    --------
    >>> import numpy as np
    >>> values, active = np.arange(32).reshape(1, 32), np.ones((1, 32), dtype=bool)
    >>> shfl_up(values, active, np.ones((1, 32), np.int64), width=4, call="asc_shfl_up")[0, :8]
    array([0, 0, 1, 2, 4, 4, 5, 6])
    """
    source = LANE - delta
    return read_lanes(values, active, source, source >= group_start(width), call)


def shfl_down(values: Arr, active: Arr, delta: Arr, *, width: int, call: str) -> Arr:
    """``asc_shfl_down``: lane ``i + delta``; a source past the group keeps the own value.

    Examples
    --------
    >>> import numpy as np
    >>> values, active = np.arange(32).reshape(1, 32), np.ones((1, 32), dtype=bool)
    >>> shfl_down(values, active, np.ones((1, 32), np.int64), width=2, call="asc_shfl_down")[0, :4]
    array([1, 1, 3, 3])
    """
    source = LANE + delta
    end = np.minimum(group_start(width) + width, WARP_SIZE)
    return read_lanes(values, active, source, source < end, call)


def shfl_xor(values: Arr, active: Arr, lane_mask: Arr, *, width: int, call: str) -> Arr:
    """``asc_shfl_xor``: lane ``i ^ lane_mask``; a source in a higher group keeps the own value.

    Examples
    --------
    >>> import numpy as np
    >>> values, active = np.arange(32).reshape(1, 32), np.ones((1, 32), dtype=bool)
    >>> shfl_xor(values, active, np.full((1, 32), 3), width=2, call="asc_shfl_xor")[0, :4]
    array([0, 1, 1, 0])

    Lanes 0 and 1 would read the higher group (3, 2) and keep their own; lanes 2 and 3 read 1, 0.
    """
    source = LANE ^ lane_mask
    return read_lanes(values, active, source, source < group_start(width) + width, call)


def _broadcast(per_warp: Arr, like: Arr) -> Arr:
    """Give every lane of each warp that warp's result."""
    return np.broadcast_to(per_warp[:, None], like.shape)


def lane_bits(flags: Arr) -> Arr:
    """Pack the flags of each warp into one ``uint32`` (bit *i* from lane *i*), for every lane.

    Examples
    --------
    >>> import numpy as np
    >>> int(lane_bits(LANE[None, :] < 5)[0, 9])
    31
    """
    if flags.dtype == np.bool_ and flags.shape[-1] == WARP_SIZE:  # 4 bytes of 8 lanes each
        packed = np.packbits(flags, axis=-1, bitorder="little")
        total = packed.view(_LE32).reshape(flags.shape[:-1]).astype(np.uint32)
        return _broadcast(total, flags)
    weights = np.uint64(1) << LANE.astype(np.uint64)
    total = (flags.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64).astype(np.uint32)
    return _broadcast(total, flags)


def ballot(values: Arr, active: Arr) -> Arr:
    """``asc_ballot``: bit *i* set when lane *i* is active and its value is nonzero.

    Examples
    --------
    >>> import numpy as np
    >>> int(ballot(np.arange(32).reshape(1, 32) % 4, LANE[None, :] < 8)[0, 0])
    238
    """
    return lane_bits((values != 0) & active)


def activemask(values: Arr, active: Arr) -> Arr:
    """``asc_activemask``: one bit per active lane (*values* is ignored).

    Examples
    --------
    >>> import numpy as np
    >>> int(activemask(np.zeros((1, 32)), LANE[None, :] < 3)[0, 0])
    7
    """
    return lane_bits(active)


def vote_all(values: Arr, active: Arr) -> Arr:
    """``asc_all``: 1 (int32) when every active lane's value is nonzero, else 0.

    Examples
    --------
    >>> import numpy as np
    >>> int(vote_all(np.arange(32).reshape(1, 32), LANE[None, :] > 0)[0, 0])
    1
    """
    return _broadcast(((values != 0) | ~active).all(axis=1).astype(np.int32), values)


def vote_any(values: Arr, active: Arr) -> Arr:
    """``asc_any``: 1 (int32) when some active lane's value is nonzero, else 0.

    Examples
    --------
    >>> import numpy as np
    >>> int(vote_any(np.arange(32).reshape(1, 32), LANE[None, :] < 1)[0, 0])
    0
    """
    return _broadcast(((values != 0) & active).any(axis=1).astype(np.int32), values)


def butterfly(values: Arr, active: Arr, *, combine: Callable[[Arr, Arr], Arr]) -> Arr:
    """Combine the active lanes of each warp (xor 16, 8, 4, 2, 1); broadcast lane 0's result.

    At each step a lane combines with its partner ``lane ^ offset`` when both hold a value, the
    lower lane's value first (operand order matters for floats); a lane without a value takes
    its partner's. Integers wrap.

    Examples
    --------
    >>> import numpy as np
    >>> int(butterfly(np.arange(32).reshape(1, 32), LANE[None, :] < 4, combine=np.add)[0, 9])
    6
    """
    acc, have = values.copy(), active.copy()
    full = bool(have.all())
    for offset in (16, 8, 4, 2, 1):
        partner = LANE ^ offset
        other = _partners(acc, offset)
        if combine is np.add:  # a + b is b + a, bit for bit: one sum
            both = np.add(acc, other)
        else:
            both = np.where(partner > LANE, combine(acc, other), combine(other, acc))
        if full:  # every lane holds a value: no partner is missing
            acc = both
            continue
        other_have = _partners(have, offset)
        acc = np.where(have & other_have, both, np.where(other_have, other, acc))
        have = have | other_have
    return np.broadcast_to(acc[:, :1], values.shape)


def _partners(lanes: Arr, offset: int) -> Arr:
    """``lanes[:, LANE ^ offset]`` (each group of ``2 * offset`` lanes with its halves swapped)."""
    rows = lanes.shape[0]
    swapped = lanes.reshape(rows, WARP_SIZE // (2 * offset), 2, offset)[:, :, ::-1, :]
    return swapped.reshape(rows, WARP_SIZE)


REDUCTIONS: dict[str, Callable[[Arr, Arr], Arr]] = {
    name: functools.partial(butterfly, combine=combine)
    for name, combine in (("add", np.add), ("max", np.maximum), ("min", np.minimum))
}
"""``asc_reduce_add/max/min``: the warp reduction of each."""


LANE_MASKS: dict[str, Callable[[Arr], Arr]] = {
    "eq": lambda lane: np.uint64(1) << lane,
    "lt": lambda lane: (np.uint64(1) << lane) - np.uint64(1),
    "le": lambda lane: (np.uint64(2) << lane) - np.uint64(1),
    "gt": lambda lane: ~((np.uint64(2) << lane) - np.uint64(1)),
    "ge": lambda lane: ~((np.uint64(1) << lane) - np.uint64(1)),
}
"""``lanemask_eq/lt/le/gt/ge``: the lane bits of each, as a function of the lane (uint64)."""


def lane_ids(thread_ids: Arr) -> Arr:
    """``laneid``: each thread's lane in its warp (int32).

    Examples
    --------
    >>> import numpy as np
    >>> lane_ids(np.array([0, 31, 32, 40])).tolist()
    [0, 31, 0, 8]
    """
    lanes: Arr = (thread_ids & (WARP_SIZE - 1)).astype(np.int32)  # % WARP_SIZE, a power of 2
    return lanes


def lane_mask(kind: str, thread_ids: Arr) -> Arr:
    """``lanemask_<kind>``: the ``uint32`` lane mask of each thread (see :data:`LANE_MASKS`).

    Examples
    --------
    >>> import numpy as np
    >>> [hex(int(m)) for m in lane_mask("lt", np.array([0, 4, 63]))]
    ['0x0', '0xf', '0x7fffffff']
    """
    bits: Arr = np.take(_MASK_TABLES[kind], np.asarray(thread_ids) & (WARP_SIZE - 1))
    return bits


_MASK_TABLES = {
    kind: (mask(LANE.astype(np.uint64)) & _LOW32).astype(np.uint32)
    for kind, mask in LANE_MASKS.items()
}
"""The lane mask of each kind for lanes 0 .. 31 (:func:`lane_mask` looks each thread's up)."""

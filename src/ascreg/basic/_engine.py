"""Running a memory-level op over its lanes: addresses, overlap rules, gather, compute, scatter.

An op is described by its :class:`~ascreg.basic._repeat.Lanes` (which lanes of which repeats)
and one :class:`Stream` per LocalTensor operand (its block and repeat strides). :func:`run`
computes every active lane's element of every operand, checks them against the tensors'
sizes and the address-overlap rules of 通用说明和约束.md, reads the sources on ``PIPE_V``
through the UB model (so the kernel runtime's pipe tracker and its unwritten-UB check see
them), applies the op's lane formula to all of them at once and writes the destinations. When
a later repeat reads what an earlier one wrote (the documented accumulation pattern), the
repeats run one after the other instead, as the chip's barrier between repeats orders them.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t
>>> from ascreg.basic import LocalTensor, TPosition
>>> from ascreg.basic._repeat import count_lanes
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     x = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
...     x.GetPhyAddr().write(np.arange(8)); ctx.tracker.barrier()
...     run("Demo", count_lanes(8, 64), [Stream(x, "dst")], [Stream(x, "src")],
...         lambda v: [v * 2])
...     ctx.tracker.barrier(); x.GetPhyAddr().read(3).tolist()
[0.0, 2.0, 4.0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from ascreg.basic._repeat import BLOCKS, Lanes
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import OutOfBoundsError, UndefinedBehaviourError, undefined_behaviour
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

Array = np.ndarray[Any, Any]
Compute = Callable[..., Sequence[Array]]


@attrs.frozen
class Stream:
    """One LocalTensor operand of an op: its role and its strides, in 32-byte DataBlocks.

    Attributes
    ----------
    tensor
        The operand.
    role
        Its parameter name (``"dst"``, ``"src0"``), for messages.
    block
        DataBlock stride inside a repeat (``dstBlkStride``).
    repeat
        Stride between repeats (``dstRepStride``).
    """

    tensor: LocalTensor[Any]
    role: str
    block: int = 1
    repeat: int = BLOCKS

    @property
    def size(self) -> int:
        """Bytes per element."""
        return self.tensor._dtype().size


def elements(stream: Stream, lanes: Lanes, rep: Array, lane: Array) -> Array:
    """Return the element index (from the tensor's start) of each ``(rep, lane)`` of *stream*.

    A count form numbers the elements straight through; a repeat form puts lane ``j`` of
    repeat ``r`` in DataBlock ``j // (32 / size)`` at ``r * repeat + block * j_block`` blocks.

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.basic._repeat import Lanes
    >>> t = LocalTensor[half](); s = Stream(t, "src", block=2, repeat=16)
    >>> lanes = Lanes(np.ones((2, 128), bool))
    >>> elements(s, lanes, np.array([0, 0, 1]), np.array([15, 16, 0])).tolist()
    [15, 32, 256]
    """
    if lanes.contiguous:
        index: Array = rep * lanes.width + lane
        return index
    per_block = DATA_BLOCK // stream.size
    blocks = rep * stream.repeat + (lane // per_block) * stream.block
    index = blocks * per_block + lane % per_block
    return index


def _check_tensor(op: str, stream: Stream, index: Array) -> None:
    """Raise unless the operand is 32-byte aligned and every element lies inside the tensor."""
    tensor = stream.tensor
    tensor.GetPhyAddr().require_alignment(
        DATA_BLOCK, f"{op}: {stream.role} of a vector op must be 32-byte aligned"
    )
    if index.size and int(index.max()) >= tensor.GetSize():
        raise OutOfBoundsError(
            f"{stream.role} reaches element {int(index.max())} of the {tensor.GetSize()}-element "
            f"{tensor._cpp()} (the count, mask, repeatTime and strides go past its end)",
            call=op,
        )


def _bytes(stream: Stream, index: Array) -> Array:
    """Return the UB byte addresses of the elements *index* of *stream* (one row per element)."""
    start = stream.tensor.GetPhyAddr().address + index * stream.size
    spread: Array = start[:, None] + np.arange(stream.size)
    return spread


def _span(stream: Stream, index: Array) -> tuple[int, int]:
    base = stream.tensor.GetPhyAddr().address
    return base + int(index.min()) * stream.size, base + (int(index.max()) + 1) * stream.size


@attrs.frozen
class Overlap:
    """What the reads of one op see of its own writes.

    Attributes
    ----------
    later
        Some repeat reads bytes an earlier repeat wrote (the repeats must run in order).
    partial
        Some repeat reads bytes another lane of the same repeat writes (not 100% overlap).
    sources
        The roles of the sources that do either.
    """

    later: bool = False
    partial: bool = False
    sources: tuple[str, ...] = ()


def overlap(dsts: Sequence[tuple[Stream, Array]], srcs: Sequence[tuple[Stream, Array]],
            rep: Array, lane: Array, width: int) -> Overlap:  # fmt: skip
    """Find how the sources of one op overlap its destinations (see :class:`Overlap`).

    *dsts* and *srcs* pair each stream with the element index of every active lane; *rep* and
    *lane* number those lanes.
    """
    spans = [(_span(s, i), s) for s, i in dsts]
    touching = [
        (s, i)
        for s, i in srcs
        if any(a < _span(s, i)[1] and _span(s, i)[0] < b for (a, b), _ in spans)
    ]
    if not touching:
        return Overlap()
    low = min(a for (a, _), _ in spans)
    high = max(b for (_, b), _ in spans)
    never = np.iinfo(np.int64).max
    first = np.full(high - low, never, dtype=np.int64)
    keys, lanes_of = [], []  # (byte, repeat) of every write, sorted, and the writing lane
    for stream, index in dsts:
        written = _bytes(stream, index) - low
        np.minimum.at(first, written, rep[:, None])
        keys.append((written * (int(rep.max()) + 1) + rep[:, None]).ravel())
        lanes_of.append(np.broadcast_to(lane[:, None], written.shape).ravel())
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    key, writer = key[order], np.concatenate(lanes_of)[order]
    later = partial = False
    roles = []
    for stream, index in touching:
        read = _bytes(stream, index)
        inside = (read >= low) & (read < high)
        at = np.where(inside, read - low, 0)
        earlier = (np.where(inside, first[at], never) < rep[:, None]).any()
        wanted = at * (int(rep.max()) + 1) + rep[:, None]
        hit = np.minimum(np.searchsorted(key, wanted), key.size - 1)
        same_repeat = inside & (key[hit] == wanted)
        other_lane = (same_repeat & (writer[hit] != lane[:, None])).any()
        if earlier or other_lane:
            roles.append(stream.role)
        later, partial = later or bool(earlier), partial or bool(other_lane)
    return Overlap(later, partial, tuple(roles))


def _gather(stream: Stream, index: Array) -> Array:
    values: Array = stream.tensor.GetPhyAddr()[index]
    return values


def _scatter(stream: Stream, index: Array, values: Array) -> None:
    ptr = stream.tensor.GetPhyAddr()
    if index.size > 1 and np.unique(index).size < index.size:  # the last writer wins
        _, last = np.unique(index[::-1], return_index=True)
        keep = index.size - 1 - last
        index, values = index[keep], values[keep]
    if (
        index.size
        and int(index[-1]) - int(index[0]) + 1 == index.size
        and (index.size == 1 or bool((np.diff(index) == 1).all()))
    ):
        (ptr + int(index[0])).write(values)
        return
    ptr[index] = values


def ordered(op: str, lanes: Lanes, found: Overlap, allowed: bool) -> bool:
    """Decide whether the repeats must run one by one, raising on the undocumented overlaps.

    *allowed*: the op's documented exception lets a later repeat read an earlier one's result
    (``Add(dst, src0, dst, ...)`` with a repeat stride of 0). A count form has no barrier
    between its repeats, so a later repeat reading an earlier one's store is undefined; a repeat
    form may not overlap a source and its destination partly inside one repeat.
    """
    if found.partial and not lanes.contiguous:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"{', '.join(found.sources)} {'overlaps' if len(found.sources) == 1 else 'overlap'} "
                "dst partly inside one repeat: a source and "
                "its destination overlap 100% or not at all (通用地址重叠约束)",
                call=op,
            )
        )
    if not found.later:
        return False
    if lanes.contiguous or not allowed:
        where = "the count form has no barrier between its repeats" if lanes.contiguous else (
            "only Add/Sub/Mul/Max/Min/AddRelu/SubRelu on half/int32_t/float may read dst back, "
            "as src1, with src1RepStride or dstRepStride 0"
        )  # fmt: skip
        undefined_behaviour(
            UndefinedBehaviourError(
                f"a later repeat reads ({', '.join(found.sources)}) what an earlier repeat wrote "
                f"to dst: {where} (通用地址重叠约束)",
                call=op,
            )
        )
    return True


def run(
    op: str,
    lanes: Lanes,
    dsts: Sequence[Stream],
    srcs: Sequence[Stream],
    compute: Compute,
    *,
    accumulate: Callable[[Overlap], bool] | None = None,
    positions: bool = False,
) -> None:
    """Apply *compute* to the active lanes of *srcs* and store the results to *dsts* (PIPE_V).

    ``compute(*source_values)`` receives one 1-D array per source (the active lanes, repeat
    by repeat) and returns one array per destination, in the same lane order; with
    *positions* it receives the repeat and the lane of each of those lanes first
    (``compute(rep, lane, *source_values)``). *accumulate* says whether the overlap found lets
    a later repeat read back the destination (the op's documented exception, see
    :func:`ordered`); None: it never does.
    """
    rep, lane = np.nonzero(lanes.active)
    if rep.size == 0:
        return
    dst_index = [(s, elements(s, lanes, rep, lane)) for s in dsts]
    src_index = [(s, elements(s, lanes, rep, lane)) for s in srcs]
    for stream, index in (*dst_index, *src_index):
        _check_tensor(op, stream, index)
    found = overlap(dst_index, src_index, rep, lane, lanes.width)
    in_order = ordered(op, lanes, found, accumulate is not None and accumulate(found))
    ctx = current_block()
    with ctx.on_pipe(Pipe.PIPE_V):
        groups = [rep == r for r in np.unique(rep)] if in_order else [slice(None)]
        for group in groups:
            values = [_gather(s, i[group]) for s, i in src_index]
            results = compute(rep[group], lane[group], *values) if positions else compute(*values)
            for (stream, index), result in zip(dst_index, results, strict=True):
                _scatter(stream, index[group], result)

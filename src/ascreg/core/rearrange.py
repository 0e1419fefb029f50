"""Register rearrangement: ``Interleave`` / ``DeInterleave``, ``Gather`` and ``Squeeze``.

All are pure lane moves (bit-exact for every type, NaN payloads included):

* Interleave: ``dst0 = [a0, b0, a1, b1, ...]`` over the low halves of ``a`` and ``b``,
  ``dst1`` the same over the high halves.
* DeInterleave: the even lanes of ``concat(a, b)`` go to ``dst0``, the odd lanes to ``dst1``
  (the inverse of Interleave).
* Gather: ``dst[i] = src[index[i] % lanes]``.
* Squeeze: the lanes the mask selects, packed from lane 0 up in order; the tail is 0.
* Unsqueeze: lane i counts the enabled lanes before it (an exclusive prefix count).
* The UB gathers and scatter (``Gather`` from UB, ``GatherB``, ``Scatter``): which element of
  a register's *slots* (``slot`` bytes each) goes where; the front end does the memory access.

Examples
--------
>>> import numpy as np
>>> interleave(np.array([0, 1, 2, 3]), np.array([10, 11, 12, 13]))
(array([ 0, 10,  1, 11]), array([ 2, 12,  3, 13]))
>>> deinterleave(np.array([0, 10, 1, 11]), np.array([2, 12, 3, 13]))
(array([0, 1, 2, 3]), array([10, 11, 12, 13]))
>>> gather(np.array([5, 6, 7, 8]), np.array([3, 0, 6, 1], dtype=np.uint8))
array([8, 5, 7, 6])
>>> squeeze(np.array([5, 6, 7, 8]), np.array([False, True, False, True]))
array([6, 8, 0, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]


def interleave(a: Lanes, b: Lanes) -> tuple[Lanes, Lanes]:
    """Return ``(dst0, dst1)``: ``a`` and ``b`` zipped lane by lane, split in two halves."""
    shape = np.broadcast_shapes(a.shape, b.shape)  # (a batched loop's rows: the last axis)
    n = shape[-1]
    pairs = np.stack([np.broadcast_to(a, shape), np.broadcast_to(b, shape)], axis=-1)
    both = pairs.reshape(*shape[:-1], 2 * n)  # (stacked: undefined lanes keep their marks)
    return both[..., :n].copy(), both[..., n:].copy()


def deinterleave(a: Lanes, b: Lanes) -> tuple[Lanes, Lanes]:
    """Return ``(dst0, dst1)``: the even and the odd lanes of ``concat(a, b)``."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    both = np.concatenate([np.broadcast_to(a, shape), np.broadcast_to(b, shape)], axis=-1)
    return both[..., 0::2].copy(), both[..., 1::2].copy()


def gather(src: Lanes, index: Lanes) -> Lanes:
    """Return ``src[index[i] % lanes]`` for every lane i (an index wraps modulo the lane count)."""
    positions = index.astype(np.int64) % src.shape[-1]
    if src.ndim == positions.ndim == 1:
        picked: Lanes = src[positions]
        return picked
    shape = np.broadcast_shapes(src.shape, positions.shape)  # rows of a batched loop
    taken: Lanes = np.take_along_axis(
        np.broadcast_to(src, shape), np.broadcast_to(positions, shape), -1
    )
    return taken


GATHER_MASK_PATTERNS = {1: 0x55, 2: 0xAA, 3: 0x11, 4: 0x22, 5: 0x44, 6: 0x88, 7: 0xFF}
"""``GatherMask``'s fixed patterns 1-7: the byte repeated over the lanes (bit ``k % 8`` for lane
``k``): even lanes, odd lanes, the first / second / third / fourth of every four, all."""


def pattern_lanes(pattern: int, lanes: int) -> Lanes:
    """Return the lane enables of ``GatherMask``'s fixed pattern *pattern* over *lanes* lanes.

    Examples
    --------
    >>> pattern_lanes(3, 8).astype(int).tolist()
    [1, 0, 0, 0, 1, 0, 0, 0]
    """
    bits = GATHER_MASK_PATTERNS[pattern]
    on: Lanes = (bits >> (np.arange(lanes) % 8) & 1).astype(bool)
    return on


def bit_lanes(pattern_bytes: Lanes, lanes: int) -> Lanes:
    """Return the enables of the first *lanes* bits of *pattern_bytes* (bit ``k % 8`` of byte ``k // 8``).

    Examples
    --------
    >>> bit_lanes(np.array([0b1001, 0x80], np.uint8), 16).astype(int).tolist()
    [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    on: Lanes = np.unpackbits(pattern_bytes.astype(np.uint8), bitorder="little")[:lanes]
    return on.astype(bool)


def gather_mask(values: Lanes, enables: Lanes) -> Lanes:
    """Return the enabled elements of *values* packed in order.

    ``GatherMask``: each vector's ``Squeeze<STORE_REG>`` result stored after the previous one's.

    Examples
    --------
    >>> gather_mask(np.arange(6).reshape(2, 3), np.array([[1, 0, 1], [0, 1, 0]], bool)).tolist()
    [0, 2, 4]
    """
    packed: Lanes = values[enables]
    return packed


def scatter_index(offsets: Lanes, base: int, size: int) -> Lanes:
    """Return the element index each byte offset of a memory-level ``Scatter`` stores to.

    ``dst`` element ``(base + offset) / size``: the 950's VF shifts each byte offset right by
    ``log2(size)`` and adds ``base / size`` to the destination pointer (the page: both are
    multiples of ``size``). 8- and 16-bit indices pass a saturating cast to ``uint16_t``.

    Examples
    --------
    >>> scatter_index(np.array([0, 8, 4], np.uint32), 16, 4).tolist()
    [4, 6, 5]
    >>> scatter_index(np.array([2 * 70000], np.uint32), 0, 2).tolist()  # saturates
    [65535]
    """
    index = offsets.astype(np.int64) // size
    if size <= 2:
        index = np.minimum(index, 0xFFFF)
    shifted: Lanes = base // size + index
    return shifted


def squeeze(src: Lanes, enables: Lanes) -> Lanes:
    """Return the enabled lanes of *src* packed from lane 0 up, the remaining lanes 0."""
    if src.ndim == enables.ndim == 1:
        kept = src[enables]
        out = np.zeros_like(src)
        out[: kept.size] = kept
        return out
    shape = np.broadcast_shapes(src.shape, enables.shape)  # rows: each row packed alone
    on = np.broadcast_to(enables, shape)
    order = np.argsort(~on, axis=-1, kind="stable")  # the enabled lanes first, in lane order
    packed = np.take_along_axis(np.broadcast_to(src, shape), order, axis=-1)
    filled = np.arange(shape[-1]) < on.sum(axis=-1, keepdims=True)
    return np.where(filled, packed, np.zeros((), dtype=src.dtype))


def unsqueeze(enables: Lanes, dtype: np.dtype[Any]) -> Lanes:
    """Return lane i = the number of enabled lanes before lane i, wrapped to *dtype*.

    The last lane's enable is never counted (the documented "highest bit ignored").

    Examples
    --------
    >>> unsqueeze(np.array([True, False, True, True]), np.dtype(np.uint8))
    array([0, 1, 1, 2], dtype=uint8)
    """
    before = np.cumsum(enables[..., :-1], axis=-1, dtype=np.int64)
    counts = np.concatenate([np.zeros((*enables.shape[:-1], 1), np.int64), before], axis=-1)
    return counts.astype(np.uint64).astype(dtype)


def gather_slots(picked: Lanes, enables: Lanes, slot: int) -> Lanes:
    """Return register bytes: slot i holds the next *picked* element if lane i is enabled.

    *picked* holds the gathered elements of the enabled slots, in order; each is zero-extended
    to *slot* bytes (a b8 element in a b16 slot keeps its bits in the low byte); the slots of
    disabled lanes are 0.

    Examples
    --------
    >>> gather_slots(np.array([-40, 40], np.int8), np.array([True, False, True]), 2)
    array([216,   0,   0,   0,  40,   0], dtype=uint8)
    """
    out = np.zeros((enables.size, slot), dtype=np.uint8)
    size = picked.dtype.itemsize
    out[enables, :size] = picked.view(np.uint8).reshape(-1, size)
    return out.ravel()


def slot_elements(register_bytes: Lanes, slots: int, size: int) -> Lanes:
    """Return the low *size* bytes of each of the first *slots* slots of a register, as rows.

    A register of ``len(register_bytes)`` bytes has slots of ``len // slots`` bytes (a scatter
    of b8 data with uint16 indices reads the even bytes).

    Examples
    --------
    >>> slot_elements(np.arange(8, dtype=np.uint8), 4, 1).ravel().tolist()
    [0, 2, 4, 6]
    """
    slot = register_bytes.size // slots
    return register_bytes.reshape(slots, slot)[:, :size].copy()


def last_writer(index: Lanes) -> tuple[Lanes, Lanes]:
    """Return ``(keep, repeated)``: which lanes' writes survive, and the repeated indices.

    Of lanes writing the same index the highest lane is kept (ascreg's choice for the
    undocumented winner, used only when the policy lets the undefined case run).

    Examples
    --------
    >>> keep, repeated = last_writer(np.array([3, 1, 3]))
    >>> keep.tolist(), repeated.tolist()
    ([False, True, True], [3])
    """
    reverse_first = np.unique(index[::-1], return_index=True)[1]
    keep = np.zeros(index.size, dtype=np.bool_)
    keep[index.size - 1 - reverse_first] = True
    values, counts = np.unique(index, return_counts=True)
    return keep, values[counts > 1]


def gather_blocks(blocks: list[Lanes], enables: Lanes, block: int = 32) -> Lanes:
    """Return the bytes of a register whose block k is ``blocks`` next item, or 0 if disabled.

    Examples
    --------
    >>> gather_blocks([np.full(2, 7, np.uint8)], np.array([False, True]), 2).tolist()
    [0, 0, 7, 7]
    """
    out = np.zeros((enables.size, block), dtype=np.uint8)
    if blocks:
        out[enables] = np.stack(blocks)
    return out.ravel()

"""Mask-register semantics: lane patterns, the UpdateMask counter and bitwise mask logic.

A mask is a ``bool`` array of 256 bits. Lane ``i`` of an op whose lanes own ``stride`` bits
each is bit ``i * stride``; producers write 0 into the other bits.

Examples
--------
>>> lanes_to_bits(pattern_lanes(PATTERN_CODES["VL2"], 128), 2)[:5]
array([ True, False,  True, False, False])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.machine.registers import LANE_WORDS, MASK_BITS, spread_enables

Bits = np.ndarray[Any, Any]

PATTERN_CODES: dict[str, int] = {
    "ALL": 0, "VL1": 1, "VL2": 2, "VL3": 3, "VL4": 4, "VL8": 5, "VL16": 6, "VL32": 7,
    "VL64": 8, "VL128": 9, "M3": 10, "M4": 11, "H": 12, "Q": 13, "ALLF": 15,
}  # fmt: skip
"""The ``pset`` pattern encoding shared by ``MaskPattern`` and the C API's ``PAT_*``."""

_VL_COUNTS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 8, 6: 16, 7: 32, 8: 64, 9: 128}


def pattern_lanes(code: int, lanes: int) -> Bits:
    """Return which of *lanes* lanes the pattern with encoding *code* enables.

    ``VLn`` with ``n`` at least the lane count enables every lane. The 64-bit TraitOne remap of
    ``H``/``Q`` (to ``VL16``/``VL8``) is exactly "half/quarter of 32 lanes", which is what this
    computes when *lanes* is 32.

    Examples
    --------
    >>> pattern_lanes(PATTERN_CODES["M3"], 8).astype(int)
    array([1, 0, 0, 1, 0, 0, 1, 0])
    >>> int(pattern_lanes(PATTERN_CODES["H"], 32).sum())
    16
    """
    index = np.arange(lanes)
    if code == 0:
        return np.ones(lanes, dtype=np.bool_)
    if code == 15:
        return np.zeros(lanes, dtype=np.bool_)
    enabled: Bits
    if code in _VL_COUNTS:
        enabled = index < _VL_COUNTS[code]
    elif code in (10, 11):
        enabled = index % (3 if code == 10 else 4) == 0
    elif code in (12, 13):
        enabled = index < lanes // (2 if code == 12 else 4)
    else:
        raise ValueError(f"mask pattern code {code} does not exist (14 is unused)")
    return enabled


def lanes_to_bits(active: Bits, stride: int) -> Bits:
    """Spread a per-lane enable array into the 256-bit mask layout (other bits 0).

    Examples
    --------
    >>> lanes_to_bits(np.ones(64, bool), 4)[:8].astype(int)
    array([1, 0, 0, 0, 1, 0, 0, 0])
    """
    bits = np.zeros((*active.shape[:-1], MASK_BITS), dtype=np.bool_)  # rows of a batch too
    bits[..., 0 : active.shape[-1] * stride : stride] = active
    return bits


def pattern_mask(code: int, lanes: int, stride: int) -> tuple[Bits, Bits]:
    """Return :func:`pattern_bits` and the lane enables they hold (:func:`all_on` for ``ALL``).

    Examples
    --------
    >>> bits, enables = pattern_mask(PATTERN_CODES["ALL"], 64, 4)
    >>> int(bits.sum()), is_all_on(enables)
    (64, True)
    """
    enables = pattern_lanes(code, lanes)
    if code == 0:  # ALL: the shared all-on enables, so that ops skip their masking step
        enables = all_on(lanes)
    return lanes_to_bits(enables, stride), enables


def pattern_bits(code: int, lanes: int, stride: int) -> Bits:
    """Return the 256 mask bits of pattern *code* over *lanes* lanes of *stride* bits each.

    Examples
    --------
    >>> int(pattern_bits(PATTERN_CODES["M4"], 64, 4).sum()), pattern_bits(2, 128, 2)[:3].tolist()
    (16, [True, False, True])
    """
    return lanes_to_bits(pattern_lanes(code, lanes), stride)


def predicate_bits(predicate: Bits, active: Bits, stride: int) -> Bits:
    """Return ``lanes_to_bits(predicate & active, stride)`` in one pass (compare results).

    Examples
    --------
    >>> predicate_bits(np.array([True, True]), np.array([True, False]), 2)[:4].astype(int)
    array([1, 0, 0, 0])
    """
    return predicate_mask(predicate, active, stride)[0]


def enabled(predicate: Bits, active: Bits) -> Bits:
    """Return ``predicate & active`` per lane: *predicate* itself when *active* is all on.

    Examples
    --------
    >>> enabled(np.array([True, True]), np.array([True, False])).tolist()
    [True, False]
    >>> p = np.array([True, False, True]); enabled(p, all_on(3)) is p
    True
    """
    all_lanes = (
        id(active) in _ALL_ON_IDS
        and predicate.dtype.type is np.bool_
        and (active.ndim == 1 or predicate.shape == active.shape)
    )
    both: Bits = predicate if all_lanes else np.logical_and(predicate, active)
    return both


def predicate_mask(predicate: Bits, active: Bits, stride: int) -> tuple[Bits, Bits]:
    """Return :func:`predicate_bits` and the lane enables ``predicate & active`` it spread.

    Examples
    --------
    >>> bits, enables = predicate_mask(np.array([True, True]), np.array([True, False]), 2)
    >>> bits[:4].astype(int), enables
    (array([1, 0, 0, 0]), array([ True, False]))
    """
    both = enabled(predicate, active)
    # one register: nothing to remember (spread_lanes does that for rows)
    bits = spread_enables(both, stride) if both.ndim == 1 else spread_lanes(both, stride)
    short = MASK_BITS - bits.shape[-1]  # fewer lanes than a register: the other bits are 0
    if short:
        bits = np.pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, short)])
    return bits, both


def spread_lanes(enables: Bits, stride: int) -> Bits:
    """Return the mask bits of lane *enables* (or rows of them): lane i is bit ``i * stride``.

    The other bits are 0. Each enable becomes a little-endian unsigned integer of *stride* bytes (1 or 0), whose
    bytes are the lane's *stride* mask bits: one pass, no strided writes.

    Examples
    --------
    >>> spread_lanes(np.array([[True, False], [False, True]]), 2).astype(int).tolist()
    [[1, 0, 0, 0], [0, 0, 1, 0]]
    """
    bits = spread_enables(enables, stride)
    if bits.ndim > 1:  # rows of a batched loop: later ops read these enables, not strided bits
        _remember(bits, stride, enables)
    return bits


def enables_of(bits: Bits, lanes: int, stride: int) -> Bits:
    """Return the enables of the first *lanes* lanes of *bits* (lane i is bit ``i * stride``).

    A view of *bits* (rows of them in a batched loop); for rows that :func:`spread_lanes`
    made, the contiguous enables they were made from (numpy reads those several times faster).

    Examples
    --------
    >>> enables_of(spread_lanes(np.array([True, False, True]), 2), 3, 2).tolist()
    [True, False, True]
    """
    prefix = _PREFIX_OF.get(id(bits))
    covered = prefix is not None and prefix[0] is bits and prefix[2] == stride
    if covered and prefix[1] >= lanes and lanes * stride <= MASK_BITS:  # type: ignore[index]
        return all_on(lanes)  # an UpdateMask / CreateMask prefix covering every lane
    if bits.ndim > 1:
        known = _SPREAD.get(id(bits))
        if known is not None and known[0] is bits and known[1] == stride:
            enables = known[2]
            if enables.shape[-1] == lanes:
                return enables
    view: Bits = bits[..., 0 : lanes * stride : stride]
    return view


_SPREAD: dict[int, tuple[Bits, int, Bits]] = {}
"""The latest rows of bits :func:`spread_lanes` made, by id, with their stride and enables."""


def _remember(bits: Bits, stride: int, enables: Bits) -> None:
    known = _SPREAD.get(id(bits))
    if known is not None and known[0] is bits and known[1] == stride and known[2] is enables:
        return  # remembered already (the shared rows of an UpdateMask run once per tile)
    if len(_SPREAD) >= 8:
        _SPREAD.pop(next(iter(_SPREAD)))
    if enables.base is not None or not enables.flags.c_contiguous:
        enables = np.ascontiguousarray(enables)
        if enables.base is not None:
            enables = enables.copy()
    # shared by every op reading the mask: neither may change (an attempt undoes the batch)
    enables.setflags(write=False)
    bits.setflags(write=False)
    _SPREAD[id(bits)] = (bits, stride, enables)
    if len(_WORDS) >= 8:
        _WORDS.pop(next(iter(_WORDS)))
    _WORDS[id(enables)] = (enables, bits, stride)


_WORDS: dict[int, tuple[Bits, Bits, int]] = {}
"""The enables :func:`_remember` saw, by id, with the bits spread from them and their stride."""


def lane_words(enables: Bits, width: int) -> Bits | None:
    """Return *enables* as one unsigned integer of *width* bytes per lane (1 on, 0 off), if free.

    Rows of enables that :func:`spread_lanes` spread with a stride of *width* bytes are, viewed
    as such integers, exactly those values (each lane's bits are a little-endian 1 or 0); for
    any other array this returns None.

    Examples
    --------
    >>> enables = np.array([[True, False, True]])
    >>> lane_words(enables, 2) is None  # not spread yet
    True
    >>> bits = spread_lanes(enables, 2)
    >>> lane_words(enables, 2).tolist(), lane_words(enables, 4) is None
    ([[1, 0, 1]], True)
    """
    known = _WORDS.get(id(enables))
    if known is None or known[0] is not enables or known[2] != width:
        return None
    words: Bits = known[1].view(LANE_WORDS[width])
    return words


def prefix_bits(count: int, lanes: int, stride: int) -> Bits:
    """Return the (read-only, shared) mask enabling the first ``min(count, lanes)`` lanes.

    Examples
    --------
    >>> int(prefix_bits(3, 256, 1).sum())
    3
    """
    key = (min(count, lanes), stride)
    bits = _PREFIXES.get(key)
    if bits is None:
        bits = np.zeros(MASK_BITS, dtype=np.bool_)
        bits[0 : key[0] * stride : stride] = True
        bits.flags.writeable = False  # shared between masks: ops replace bits, never edit them
        _PREFIXES[key] = bits
        _PREFIX_OF[id(bits)] = (bits, key[0], stride)
    return bits


def prefix_enables(count: int, lanes: int) -> Bits:
    """Return the (read-only, shared) enables of the first ``min(count, lanes)`` of *lanes* lanes.

    Every lane on gives the :func:`all_on` array, so that ops skip their masking step.

    Examples
    --------
    >>> prefix_enables(2, 4).tolist(), is_all_on(prefix_enables(9, 4))
    ([True, True, False, False], True)
    """
    if count >= lanes:
        return all_on(lanes)
    key = (count, lanes)
    enables = _PREFIX_ENABLES.get(key)
    if enables is None:
        enables = np.zeros(lanes, dtype=np.bool_)
        enables[:count] = True
        enables.flags.writeable = False  # shared between masks, like the prefix bits
        _PREFIX_ENABLES[key] = enables
    return enables


_PREFIX_ENABLES: dict[tuple[int, int], Bits] = {}

_PREFIX_OF: dict[int, tuple[Bits, int, int]] = {}
"""Each shared prefix mask (alive for the whole run) by id: itself, its lane count, its stride."""


def all_on(lanes: int) -> Bits:
    """Return the shared, read-only enables of *lanes* lanes that are all on.

    :func:`enables_of` hands it out for a prefix mask that covers every lane, so that an op
    can skip its masking step (:func:`is_all_on`) with the same result.

    Examples
    --------
    >>> all_on(4).tolist(), is_all_on(all_on(4)), is_all_on(np.ones(4, bool))
    ([True, True, True, True], True, False)
    """
    found = _ALL_ON.get(lanes)
    if found is None:
        found = _ALL_ON[lanes] = np.ones(lanes, dtype=np.bool_)
        found.flags.writeable = False
        _ALL_ON_IDS.add(id(found))
    return found


def all_on_rows(rows: int, lanes: int) -> Bits:
    """Return shared, read-only enables of *rows* rows of *lanes* lanes, all on.

    :func:`update_mask_rows` hands them out when every iteration's count covers every lane;
    the ops that skip masking for :func:`all_on` arrays (:func:`is_all_on`) then skip it for
    every row, with the same result. They are kept for the whole run (so their ids stay
    theirs), at most :data:`ALL_ON_ROW_BYTES` bytes of them; beyond that they are plain
    arrays.

    Examples
    --------
    >>> rows = all_on_rows(3, 4)
    >>> rows.shape, bool(rows.all()), is_all_on(rows), all_on_rows(3, 4) is rows
    ((3, 4), True, True, True)
    """
    key = (rows, lanes)
    found = _ALL_ON.get(key)
    if found is None:
        found = np.ones(key, dtype=np.bool_)
        found.flags.writeable = False
        if _KEPT_ROW_BYTES[0] + found.nbytes <= ALL_ON_ROW_BYTES:
            _KEPT_ROW_BYTES[0] += found.nbytes
            _ALL_ON[key] = found
            _ALL_ON_IDS.add(id(found))
    return found


ALL_ON_ROW_BYTES = 16 << 20
"""How many bytes of :func:`all_on_rows` arrays are kept (shared) at most."""
_KEPT_ROW_BYTES = [0]


def is_all_on(enables: Bits) -> bool:
    """Return True when *enables* is an :func:`all_on` array (every lane on, known for free)."""
    return id(enables) in _ALL_ON_IDS


_ALL_ON: dict[Any, Bits] = {}
_ALL_ON_IDS: set[int] = set()  # the arrays of _ALL_ON live for the whole run: ids stay theirs


_PREFIXES: dict[tuple[int, int], Bits] = {}


def update_mask(count: int, lanes: int, stride: int) -> tuple[Bits, int]:
    """``UpdateMask`` / ``plt``: the mask of the first ``min(count, lanes)`` lanes and the new count.

    The count saturates at 0: ``count < lanes`` gives 0, otherwise ``count - lanes``.

    Examples
    --------
    >>> bits, rest = update_mask(320, 128, 2)
    >>> int(bits.sum()), rest
    (128, 192)
    """
    bits, _enables, rest = update_mask_enables(count, lanes, stride)
    return bits, rest


def update_mask_enables(count: int, lanes: int, stride: int) -> tuple[Bits, Bits, int]:
    """Return :func:`update_mask`'s bits and count and :func:`prefix_enables`' enables at once.

    Examples
    --------
    >>> bits, enables, rest = update_mask_enables(200, 128, 2)
    >>> int(bits.sum()), is_all_on(enables), rest
    (128, True, 72)
    """
    enabled = count if count < lanes else lanes
    key = (enabled, lanes, stride)
    known = _UPDATES.get(key)
    if known is None:
        known = _UPDATES[key] = prefix_bits(enabled, lanes, stride), prefix_enables(enabled, lanes)
    return known[0], known[1], 0 if count < lanes else count - lanes


_UPDATES: dict[tuple[int, int, int], tuple[Bits, Bits]] = {}
"""The shared bits and enables of each ``UpdateMask`` prefix (a few hundred at most)."""


def update_mask_rows(counts: Bits, lanes: int, stride: int) -> tuple[Bits, Bits]:
    """:func:`update_mask` for one count per iteration of a batched loop (rows of bits).

    Examples
    --------
    >>> bits, rest = update_mask_rows(np.array([200, 72]), 128, 2)
    >>> bits.sum(axis=1).tolist(), rest.tolist()
    ([128, 72], [72, 0])
    """
    bits, _enables, rest = tail_rows(counts, lanes, stride)
    return bits, rest


def tail_rows(counts: Bits, lanes: int, stride: int) -> tuple[Bits, Bits, Bits]:
    """Return :func:`update_mask_rows`' bits and counts, and the lane enables the bits spread.

    Examples
    --------
    >>> bits, enables, rest = tail_rows(np.array([200, 72]), 128, 2)
    >>> enables.sum(axis=1).tolist(), bool((bits[:, ::2] == enables).all())
    ([128, 72], True)
    """
    known = _ROWS.get(id(counts))
    if known is not None and known[0] is counts and known[1] == (lanes, stride):
        _, _, bits, enables, rest = known  # the same (shared, read-only) counts as last time
        _remember(bits, stride, enables)
        return bits, enables, rest
    lane = _LANE_NUMBERS.get(lanes)
    if lane is None:
        lane = _LANE_NUMBERS[lanes] = np.arange(lanes)
    full = counts.size > 0 and int(counts.min()) >= lanes
    # every row covers every lane (a whole tile): the shared all-on rows let ops skip masking
    enables = all_on_rows(counts.size, lanes) if full else lane < counts[:, None]
    bits = spread_lanes(enables, stride)
    enables = _SPREAD[id(bits)][2]  # as remembered (contiguous, read-only)
    rest = np.maximum(counts, lanes) - lanes  # saturates at 0
    if not counts.flags.writeable:  # shared counts (a VF run per tile): remember the answer
        if len(_ROWS) >= _ROWS_KEPT:
            _ROWS.pop(next(iter(_ROWS)))
        rest.flags.writeable = False
        _ROWS[id(counts)] = (counts, (lanes, stride), bits, enables, rest)
    return bits, enables, rest


_LANE_NUMBERS: dict[int, Bits] = {}
_ROWS: dict[int, tuple[Bits, tuple[int, int], Bits, Bits, Bits]] = {}
"""The latest results of :func:`update_mask_rows` for read-only (shared) counts, by id."""
_ROWS_KEPT = 64
"""How many :data:`_ROWS` are kept: a count taken down by a nested loop is a chain of one
shared result per inner iteration (rms_norm's 16 per row of 1024 floats), each the next one's
counts; a VF run per tile walks the same chain again."""


MASK_LOGIC: dict[str, Callable[[Bits, Bits], Bits]] = {
    "Not": lambda a, _b: ~a,
    "And": np.logical_and,
    "Or": np.logical_or,
    "Xor": np.logical_xor,
    "Move": lambda a, _b: a,
}
"""Bitwise mask ops; the result is then ANDed with the predicate mask (unselected bits 0)."""


def mask_logic(op: str, src0: Bits, src1: Bits | None, predicate: Bits) -> Bits:
    """Apply the mask op *op* bitwise, zeroing the bits *predicate* does not select.

    Examples
    --------
    >>> ones, pred = np.ones(256, bool), np.arange(256) < 4
    >>> int(mask_logic("Not", ~ones, None, pred).sum())
    4
    """
    result = MASK_LOGIC[op](src0, src0 if src1 is None else src1)
    enabled: Bits = np.logical_and(result, predicate)
    return enabled


def mask_move(src: Bits, predicate: Bits | None) -> Bits:
    """Copy mask bits (``pmov``): all of them, or only the *predicate* bits (the others 0).

    Examples
    --------
    >>> ones = np.ones(256, bool)
    >>> int(mask_move(ones, None).sum()), int(mask_move(ones, np.arange(256) < 3).sum())
    (256, 3)
    """
    return src.copy() if predicate is None else mask_logic("Move", src, None, predicate)


def mask_select(src0: Bits, src1: Bits, selector: Bits) -> Bits:
    """Bitwise select: ``(sel & src0) | (~sel & src1)``; nothing is zeroed.

    Examples
    --------
    >>> a, b = np.ones(256, bool), np.zeros(256, bool)
    >>> int(mask_select(a, b, np.arange(256) < 10).sum())
    10
    """
    return np.where(selector, src0, src1)


def bits_from_bytes(data: np.ndarray[Any, Any]) -> Bits:
    """Unpack bytes into bits LSB-first (mask bit k = bit k%8 of byte k//8).

    Examples
    --------
    >>> bits_from_bytes(np.array([0b101], np.uint8)).astype(int)
    array([1, 0, 1, 0, 0, 0, 0, 0])
    """
    contiguous = np.ascontiguousarray(data, dtype=np.uint8)
    return np.unpackbits(contiguous, axis=-1, bitorder="little").astype(np.bool_)


def bytes_from_bits(bits: Bits) -> np.ndarray[Any, Any]:
    """Pack bits LSB-first into bytes (inverse of :func:`bits_from_bytes`).

    Examples
    --------
    >>> bytes_from_bits(np.array([1, 0, 1, 0, 0, 0, 0, 0], bool))
    array([5], dtype=uint8)
    """
    return np.packbits(bits, axis=-1, bitorder="little")


def spread_block_bits(data: np.ndarray[Any, Any], part: int, factor: int) -> Bits:
    """Take byte block *part* of *data* and repeat each of its bits *factor* times: 256 bits.

    A block holds ``256 / factor`` bits (``32 / factor`` bytes), read LSB-first. This is how a
    mask is made from a b16 / b32 source (C ``asc_copy(vector_bool&, vector_uint16_t, part)``,
    ``asc_get_mask_spr_b16/_b32``): each source bit covers the ``factor`` bits of one lane.

    Examples
    --------
    >>> data = np.zeros(256, np.uint8); data[16] = 0b101
    >>> spread_block_bits(data, 1, 2)[:6].astype(int)
    array([1, 1, 0, 0, 1, 1])
    """
    size = MASK_BITS // 8 // factor
    return np.repeat(bits_from_bytes(data[..., part * size : (part + 1) * size]), factor, axis=-1)


def spr_bits(value: int, factor: int) -> Bits:
    """Return the mask of the 128-bit mask SPR *value* for lanes of *factor* bits.

    Each of the SPR's low ``256 / factor`` bits is repeated *factor* times (one b16 / b32 lane).

    Examples
    --------
    >>> bits = spr_bits((1 << 128) - 1, 2); int(bits.sum())
    256
    >>> spr_bits(0b10, 4)[:8].astype(int)
    array([0, 0, 0, 0, 1, 1, 1, 1])
    """
    raw = np.frombuffer(int(value).to_bytes(16, "little"), np.uint8)
    return spread_block_bits(raw, 0, factor)


def interleave_bits(bits0: Bits, bits1: Bits, group: int, *, inverse: bool) -> tuple[Bits, Bits]:
    """Interleave (or, *inverse*, de-interleave) two masks in groups of *group* bits.

    A group is one lane of a ``group``-byte type (``MaskInterleave<uint32_t>`` moves 4 bits at
    a time): the register Interleave / DeInterleave lane permutation applied to mask lanes.

    Examples
    --------
    >>> a, b = np.ones(8, bool), np.zeros(8, bool)
    >>> [x.astype(int).tolist() for x in interleave_bits(a, b, 2, inverse=False)]
    [[1, 1, 0, 0, 1, 1, 0, 0], [1, 1, 0, 0, 1, 1, 0, 0]]
    """
    lead = bits0.shape[:-1]  # rows of a batched loop, or none
    a, b = bits0.reshape(*lead, -1, group), bits1.reshape(*lead, -1, group)
    n = a.shape[-2]
    if inverse:
        both = np.concatenate([a, b], axis=-2)
        first, second = both[..., 0::2, :], both[..., 1::2, :]
    else:
        zipped = np.stack([a, b], axis=-2).reshape(*lead, -1, group)
        first, second = zipped[..., :n, :], zipped[..., n:, :]
    return first.reshape(*lead, -1).copy(), second.reshape(*lead, -1).copy()

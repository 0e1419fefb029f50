"""UB <-> register data movement: the ``vlds`` / ``vsts`` distribution modes.

Each load mode says how many bytes it reads for a register of a given width, which alignment it
needs, and how the bytes it read become the register's lanes. Each store mode says which bytes
it writes and whether the mask selects them. One table per direction drives the vector and the
C API front ends alike.

Examples
--------
>>> import numpy as np
>>> from ascreg import UnifiedBuffer, uint16_t
>>> p = UnifiedBuffer().alloc(uint16_t, 128); p.write(np.arange(128))
>>> load(p, "DIST_US_B16", 128)[:6]
array([0, 0, 1, 1, 2, 2], dtype=uint16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import numpy as np

from ascreg._dtypes import UNSIGNED_OF_WIDTH, uint8_t
from ascreg.core.masks import _ALL_ON_IDS, bits_from_bytes, bytes_from_bits
from ascreg.errors import AddressSpaceError, IllegalDtypeError, OutOfBoundsError, get_policy
from ascreg.machine.block import StoreLoadRace
from ascreg.machine.memory import DATA_BLOCK, Pointer, UbPtr
from ascreg.machine.registers import MASK_BITS, VL
from ascreg.machine.undefined import (
    UndefinedLanes,
    plain,
    require_defined,
    undefined_lanes,
    with_undefined,
)

Lanes = np.ndarray[Any, Any]


@attrs.frozen
class LoadMode:
    """One ``LoadDist``: *width* is the element size it is defined for (None: any).

    ``elements(lanes)`` is how many elements it reads for a register of *lanes* lanes;
    ``build(elements, lanes)`` turns them into the lanes; ``align`` is in bytes (0: the
    element size).
    """

    width: int | None
    elements: Callable[[int], int]
    build: Callable[[Lanes, int], Lanes]
    align: int = DATA_BLOCK
    dual: bool = False


def _spread(step: int) -> Callable[[Lanes, int], Lanes]:
    def build(elems: Lanes, lanes: int) -> Lanes:
        out = np.zeros((*elems.shape[:-1], lanes), dtype=elems.dtype)
        out[..., ::step] = elems
        return out

    return build


def _repeat(times: int) -> Callable[[Lanes, int], Lanes]:
    return lambda elems, _lanes: np.repeat(elems, times, axis=-1)


_SAME: Callable[[Lanes, int], Lanes] = lambda elems, _lanes: elems  # noqa: E731


def _brc(width: int) -> LoadMode:
    return LoadMode(width, lambda _n: 1, lambda e, n: np.repeat(e, n, axis=-1), align=0)


LOAD_MODES: dict[str, LoadMode] = {
    "DIST_NORM": LoadMode(None, lambda n: n, _SAME),
    "DIST_BRC_B8": _brc(1),
    "DIST_BRC_B16": _brc(2),
    "DIST_BRC_B32": _brc(4),
    "DIST_US_B8": LoadMode(1, lambda n: n // 2, _repeat(2)),
    "DIST_US_B16": LoadMode(2, lambda n: n // 2, _repeat(2)),
    "DIST_DS_B8": LoadMode(1, lambda n: 2 * n, lambda e, _n: e[..., ::2]),
    "DIST_DS_B16": LoadMode(2, lambda n: 2 * n, lambda e, _n: e[..., ::2]),
    "DIST_UNPACK_B8": LoadMode(1, lambda n: n // 2, _spread(2)),
    "DIST_UNPACK_B16": LoadMode(2, lambda n: n // 2, _spread(2)),
    "DIST_UNPACK_B32": LoadMode(4, lambda n: n // 2, _spread(2)),
    "DIST_UNPACK4_B8": LoadMode(1, lambda n: n // 4, _spread(4)),
    "DIST_BLK": LoadMode(None, lambda n: n * DATA_BLOCK // VL, lambda e, _n: np.tile(e, VL // DATA_BLOCK)),
    "DIST_E2B_B16": LoadMode(2, lambda _n: 8, _repeat(16), align=16),
    "DIST_E2B_B32": LoadMode(4, lambda _n: 8, _repeat(8)),
    "DIST_DINTLV_B8": LoadMode(1, lambda n: 2 * n, _SAME, dual=True),
    "DIST_DINTLV_B16": LoadMode(2, lambda n: 2 * n, _SAME, dual=True),
    "DIST_DINTLV_B32": LoadMode(4, lambda n: 2 * n, _SAME, dual=True),
}  # fmt: skip
"""Every ``LoadDist`` dav-3510 accepts (BDINTLV and the SPLT*CHN modes are rejected there)."""

_NORM_LOAD = LOAD_MODES["DIST_NORM"]  # any width, one element per lane, unchanged
_NORM_ALIGN: int = _NORM_LOAD.align  # 32 (a DataBlock; a mode with 0 would mean its element size)


def load_mode(dist: str, dtype_size: int, *, dual: bool) -> LoadMode:
    """Return the mode for *dist*, checking it exists, fits the element width and the form.

    Examples
    --------
    >>> load_mode("DIST_BRC_B16", 4, dual=False)
    Traceback (most recent call last):
    ...
    ascreg.errors.IllegalDtypeError: DIST_BRC_B16 is defined for 16-bit elements, not 32-bit ones
    """
    return _checked_mode(LOAD_MODES, "LoadDist", "LoadAlign", dist, dtype_size, dual)


M = TypeVar("M", "LoadMode", "StoreMode")


def _checked_mode(
    table: dict[str, M], enum_name: str, op: str, dist: str, dtype_size: int, dual: bool
) -> M:
    """Look *dist* up in *table*, checking it exists, fits the element width and the form."""
    key = (id(table), dist, dtype_size, dual)  # the tables live as long as the module
    known = _CHECKED.get(key)
    if known is not None:  # this combination passed the checks before
        return known  # type: ignore[no-any-return]
    mode = table.get(dist)
    if mode is None:
        raise IllegalDtypeError(f"{dist} is not a {enum_name} that dav-3510 supports")
    if mode.width is not None and mode.width != dtype_size:
        raise IllegalDtypeError(
            f"{dist} is defined for {8 * mode.width}-bit elements, not {8 * dtype_size}-bit ones"
        )
    if mode.dual != dual:
        form = "the dual (two-register) form" if mode.dual else "the single-register form"
        raise IllegalDtypeError(f"{dist} is only valid in {form} of {op}")
    _CHECKED[key] = mode
    return mode


_CHECKED: dict[tuple[int, str, int, bool], Any] = {}
"""The modes already checked, by (table, dist, element size, dual)."""


def load(src: Pointer[Any], dist: str, lanes: int, *, dual: bool = False) -> Lanes:
    """Read a register's worth of lanes from *src* with distribution *dist*.

    For a dual mode the result holds ``2 * lanes`` elements, even ones first in memory order;
    :func:`deinterleave` splits them.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> p = UnifiedBuffer().alloc(uint32_t, 64); p.write(np.arange(64))
    >>> load(p, "DIST_E2B_B32", 64)[6:10]
    array([0, 0, 1, 1], dtype=uint32)

    A load of bytes its VF stored with no barrier between reads them, its lanes over them
    undefined (the chip may run the load first): using one is a
    :class:`~ascreg.errors.RacedLaneError`.
    """
    try:
        return _load(src, dist, lanes, dual)
    except StoreLoadRace as race:
        return _raced_load(src, dist, lanes, dual, race)


def _raced_load(src: Pointer[Any], dist: str, lanes: int, dual: bool, race: StoreLoadRace) -> Lanes:
    """Load again letting the read see the stored bytes; their lanes undefined (``race.origin``)."""
    with race.block.racing():
        values = _load(src, dist, lanes, dual)
    size = src.dtype.size
    mode = _NORM_LOAD if dist == "DIST_NORM" and not dual else load_mode(dist, size, dual=dual)
    raced = mode.build(race.element_flags(src.address, mode.elements(lanes), size), lanes)
    result: Lanes = with_undefined(values, undefined_lanes(values) | raced, race.origin)
    return result


def _load(src: Pointer[Any], dist: str, lanes: int, dual: bool) -> Lanes:
    if dist == "DIST_NORM" and not dual:  # the common load: one element per lane, as stored
        if src.address % _NORM_ALIGN or type(src) is not UbPtr:  # rows: each one checked
            src.require_alignment(
                _NORM_ALIGN, f"LoadAlign with {dist} needs {_NORM_ALIGN}-byte alignment"
            )
        try:
            return src.loaded(lanes)
        except OutOfBoundsError as error:
            return _past_allocation(src, _NORM_LOAD, lanes, error)
    size = src.dtype.size
    mode = load_mode(dist, size, dual=dual)
    align = mode.align or size
    if src.address % align or type(src) is not UbPtr:
        src.require_alignment(align, f"LoadAlign with {dist} needs {align}-byte alignment")
    try:
        elems = src.view(mode.elements(lanes))
    except OutOfBoundsError as error:
        return _past_allocation(src, mode, lanes, error)
    return mode.build(elems, lanes).copy()


def _past_allocation(
    src: Pointer[Any], mode: LoadMode, lanes: int, error: OutOfBoundsError
) -> Lanes:
    """Return the lanes of a load whose last bytes run past its allocation (not past UB).

    Legal on the chip: those lanes hold the UB bytes there and are *undefined*
    (:mod:`ascreg.machine.undefined`). Anything else is the access's own error (re-raised by
    :meth:`~ascreg.machine.memory.Pointer.view_past_allocation`). A batched loop's
    per-iteration pointer (``reads_past_end``) reads each iteration's row so.
    """
    if type(src) is not UbPtr and not getattr(src, "reads_past_end", False):
        raise error  # (a batched loop's rows read past the end as this does, one row each)
    count = mode.elements(lanes)
    values, past = src.view_past_allocation(count, "reads")
    block = src.block
    end = src.address + count * src.dtype.size
    origin = (
        f"loaded from __ubuf__ [{src.address:#x}, {end:#x}), past the end of "
        f"{block.describe() if block else 'its allocation'}"
    )
    lanes_read: Lanes = with_undefined(
        mode.build(values, lanes).copy(), mode.build(past, lanes), origin
    )
    return lanes_read


def load_dual(src: Pointer[Any], dist: str, lanes: int) -> tuple[Lanes, Lanes]:
    """Dual DINTLV load: ``2 * lanes`` elements from *src*, split into even and odd lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> p = UnifiedBuffer().alloc(uint16_t, 256); p.write(np.arange(256))
    >>> even, odd = load_dual(p, "DIST_DINTLV_B16", 128)
    >>> even[:3].tolist(), odd[:3].tolist()
    ([0, 2, 4], [1, 3, 5])
    """
    return deinterleave(load(src, dist, lanes, dual=True))


def deinterleave(elements: Lanes) -> tuple[Lanes, Lanes]:
    """Split memory-order elements into the even-index and the odd-index lanes.

    Examples
    --------
    >>> deinterleave(np.arange(6))
    (array([0, 2, 4]), array([1, 3, 5]))

    Along the last axis: each row of a batched loop's loads is split alone.
    """
    return elements[..., 0::2].copy(), elements[..., 1::2].copy()


@attrs.frozen
class StoreMode:
    """One ``StoreDist``: which lanes it writes and what it writes for each.

    ``narrow`` is the number of bytes written per lane (None: the whole element); ``masked``
    says whether the mask selects lanes; ``first_only`` writes lane 0 alone.
    """

    width: int | None
    narrow: int | None = None
    masked: bool = True
    first_only: bool = False
    dual: bool = False

    @property
    def align(self) -> int:
        """Alignment in bytes (the FIRST_ELEMENT modes need only the element size)."""
        return self.width if self.first_only and self.width else DATA_BLOCK


STORE_MODES: dict[str, StoreMode] = {
    "DIST_NORM": StoreMode(None),
    "DIST_NORM_B8": StoreMode(1),
    "DIST_NORM_B16": StoreMode(2),
    "DIST_NORM_B32": StoreMode(4),
    "DIST_FIRST_ELEMENT_B8": StoreMode(1, masked=False, first_only=True),
    "DIST_FIRST_ELEMENT_B16": StoreMode(2, masked=False, first_only=True),
    "DIST_FIRST_ELEMENT_B32": StoreMode(4, masked=False, first_only=True),
    "DIST_PACK_B16": StoreMode(2, narrow=1),
    "DIST_PACK_B32": StoreMode(4, narrow=2),
    "DIST_PACK_B64": StoreMode(8, narrow=4),
    "DIST_PACK4_B32": StoreMode(4, narrow=1),
    "DIST_INTLV_B8": StoreMode(1, masked=False, dual=True),
    "DIST_INTLV_B16": StoreMode(2, masked=False, dual=True),
    "DIST_INTLV_B32": StoreMode(4, masked=False, dual=True),
}
"""Every ``StoreDist`` dav-3510 accepts (the MRG*CHN modes are rejected there)."""

_NORM_STORE = STORE_MODES["DIST_NORM"]  # any width, masked, whole lanes
_SIZED_NORM = {f"DIST_NORM_B{8 * n}": n for n in (1, 2, 4)}
"""The NORM stores of one element width (bytes): on lanes of that width they are NORM."""

PACK_IS_POSITIONAL = True
"""Decision: a PACK store writes the low part of lane i at packed position i (only enabled
lanes are written) rather than compacting the enabled lanes. The Reg docs' byte example is
positional; the C API digest's word "compress" is read as the narrowing, not a squeeze."""


def store_mode(dist: str, dtype_size: int, *, dual: bool) -> StoreMode:
    """Return the store mode for *dist*, checking width and form.

    Examples
    --------
    >>> store_mode("DIST_PACK_B32", 4, dual=False).narrow
    2
    """
    return _checked_mode(STORE_MODES, "StoreDist", "StoreAlign", dist, dtype_size, dual)


def _as_pack_source(values: Lanes, active: Lanes | None, dist: str) -> tuple[Lanes, Lanes | None]:
    """View a register of the *narrowed* type stored with a pack mode as the mode's wide lanes.

    Decision (the cast example stores an ``int16_t`` register with ``DIST_PACK_B32``, which the
    StoreAlign page lists for b32 data): the register's bits are read as b32 (b16, b64) lanes,
    the mask by those lanes, and the low part of each is stored, as for the wide type.
    """
    mode = STORE_MODES.get(dist)
    size = values.dtype.itemsize
    if mode is None or mode.narrow != size or mode.width is None:
        return values, active
    wide = values.view(f"<u{mode.width}")
    return wide, None if active is None else active[..., :: mode.width // size]


def store(dst: Pointer[Any], values: Lanes, active: Lanes | None, dist: str) -> None:
    """Write *values* to *dst* with distribution *dist*; masked-off lanes leave UB untouched.

    *active* is the per-lane enable (ignored by the unmasked modes).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> p = UnifiedBuffer().alloc(uint16_t, 128); p.write(np.full(128, 9))
    >>> store(p, np.arange(128, dtype=np.uint16), np.arange(128) < 2, "DIST_NORM")
    >>> p.read(4)
    array([0, 1, 9, 9], dtype=uint16)
    """
    if dist == "DIST_NORM" or _SIZED_NORM.get(dist) == values.dtype.itemsize:
        # the common store (NORM_B<n> of n-bit lanes is NORM): every enabled lane, whole
        align = _NORM_STORE.align
        if dst.address % align or type(dst) is not UbPtr:
            dst.require_alignment(align, f"StoreAlign with {dist} needs {align}-byte alignment")
        write_lanes(dst, values, active)
        return
    values, active = _as_pack_source(values, active, dist)
    size = values.dtype.itemsize
    mode = store_mode(dist, size, dual=False)
    if dst.address % mode.align or type(dst) is not UbPtr:
        dst.require_alignment(
            mode.align, f"StoreAlign with {dist} needs {mode.align}-byte alignment"
        )
    if mode.first_only:  # (the leading axis of rows of lanes is kept: a batched loop's)
        require_defined(values[..., :1], None, "a store")
        dst.view(1, "writes")[...] = values[..., :1]
        return
    if mode.narrow is not None:  # the low part of each lane
        values = values.view(f"<u{mode.narrow}")[..., :: size // mode.narrow]
        dst = dst.cast(UNSIGNED_OF_WIDTH[mode.narrow])
    write_lanes(dst, values, active if mode.masked else None)


def store_two_post(dst: Pointer[Any], values: Lanes, active: Lanes, dist: str, stride: int) -> None:
    """Post-update store of a ``RegTraitNumTwo`` register: two ``vsts`` of half the lanes each.

    The first half lands at *dst*, the second ``min(stride, half)`` elements further on (the
    post-update advances the address by *stride* between the two instructions).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint64_t
    >>> p = UnifiedBuffer().alloc(uint64_t, 64)
    >>> store_two_post(p, np.arange(64, dtype=np.uint64), np.ones(64, bool), "DIST_NORM", 4)
    >>> p.read(6).tolist()  # the second half starts 4 elements on
    [0, 1, 2, 3, 32, 33]
    """
    require_defined(values, active, "a store")  # lane numbers of the whole register
    half = values.size // 2
    store(dst, values[:half], active[:half], dist)
    store(dst + min(stride, half), values[half:], active[half:], dist)


def write_lanes(dst: Pointer[Any], values: Lanes, active: Lanes | None) -> None:
    """Write *values* element-wise at *dst*, only where *active* (None: everywhere).

    Only the span up to the last enabled lane is bounds-checked: masked-off lanes are never
    accessed, so a tail store past the end of a buffer is legal when its lanes are off. An
    enabled lane that is undefined (:mod:`ascreg.machine.undefined`) is an error; one past the
    allocation too, unless ``policy(past_allocation="chip")`` lets it write the UB bytes there.
    """
    if type(values) is UndefinedLanes:
        require_defined(values, active, "a store")
        values = plain(values)
    count = values.shape[-1]  # lanes (rows of lanes in a batched loop)
    if active is None:
        target = _store_view(dst, count)
        target[:] = values.view(target.dtype)
        return
    masked = getattr(dst, "write_enabled", None)  # a batched loop's rows closer than a register
    if masked is not None and masked(values, active):
        return
    if not dst.fits(count * dst.dtype.size):
        if active.ndim > 1:  # one mask per iteration of a batched loop: each row's own tail
            _write_rows(dst, values, active)
            return
        enabled = np.flatnonzero(active)
        if enabled.size == 0:
            return
        count = int(enabled[-1]) + 1  # masked-off lanes past the buffer are never accessed
    _write_view(dst, values, active, count)


def _write_view(dst: Pointer[Any], values: Lanes, active: Lanes, count: int) -> None:
    """Write the first *count* lanes of *values* at *dst* where *active* (bounds-checked)."""
    target = _store_view(dst, count)  # rows of lanes (a batched loop) keep their leading axis
    if count != values.shape[-1]:
        values, active = values[..., :count], active[..., :count]
    narrowed = getattr(dst, "stores_enabled", None)  # a batched loop's rows: what each writes
    if narrowed is not None:
        narrowed(active)
    if values.dtype is not target.dtype:
        values = values.view(target.dtype)
    if id(active) in _ALL_ON_IDS and target.shape == active.shape:
        target[...] = values  # every lane on (an assignment: np.copyto's dispatch costs more)
        return
    np.copyto(target, values, where=active)


def _store_view(dst: Pointer[Any], count: int) -> Lanes:
    """Return the *count* elements a store writes at *dst* (past the allocation: per policy)."""
    try:
        return dst.view(count, "writes")
    except OutOfBoundsError:
        if type(dst) is not UbPtr or get_policy().past_allocation != "chip":
            raise
        return dst.view_past_allocation(count, "writes")[0]  # or the access's own error


def _write_rows(dst: Any, values: Lanes, active: Lanes) -> None:
    """:func:`write_lanes` for rows of a batched loop whose last rows leave the buffer.

    The leading rows that fit are written at once; each row after them (the tail, usually
    one) on its own, up to its last enabled lane. The rows are the last axis but one (a block
    group's values and masks have the blocks first).
    """
    count = values.shape[-1]
    fit = dst.rows_fitting(count * dst.dtype.size)

    def rows(lanes: Lanes, part: slice) -> Lanes:
        return lanes[..., part, :] if lanes.ndim > 1 else lanes

    if fit:
        write_lanes(dst.head(fit), rows(values, slice(fit)), rows(active, slice(fit)))
    for k in range(fit, active.shape[-2]):
        row_active = rows(active, slice(k, k + 1))
        enabled = np.flatnonzero(row_active.reshape(-1, count).any(axis=0))
        if enabled.size:  # (masked-off lanes past the buffer are never accessed)
            row = dst.row(k)
            _write_view(row, rows(values, slice(k, k + 1)), row_active, int(enabled[-1]) + 1)


def store_interleaved(dst: Pointer[Any], first: Lanes, second: Lanes, dist: str) -> None:
    """Dual INTLV store: writes ``first[0], second[0], first[1], ...`` (the mask is ignored).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 512)
    >>> store_interleaved(p, np.zeros(256, np.uint8), np.ones(256, np.uint8), "DIST_INTLV_B8")
    >>> p.read(4)
    array([0, 1, 0, 1], dtype=uint8)
    """
    store_mode(dist, first.dtype.itemsize, dual=True)
    dst.require_alignment(DATA_BLOCK, f"StoreAlign with {dist} needs 32-byte alignment")
    require_defined(first, None, "a store")
    require_defined(second, None, "a store")
    merged = np.empty(2 * first.size, dtype=first.dtype)
    merged[0::2], merged[1::2] = first, second
    target = _store_view(dst, merged.size)
    target[:] = merged.view(target.dtype)


MASK_LOADS: dict[str, tuple[int, int, Callable[[Lanes], Lanes]]] = {
    "DIST_NORM": (MASK_BITS // 8, 32, lambda bits: bits),
    "DIST_US": (MASK_BITS // 16, 16, lambda bits: np.repeat(bits, 2, axis=-1)),
    "DIST_DS": (MASK_BITS // 4, 32, lambda bits: bits[..., ::2].copy()),
}
"""MaskReg loads: (bytes read, alignment, bits -> 256 bits; rows of them in a batched loop)."""

MASK_STORES: dict[str, tuple[int, Callable[[Lanes], Lanes]]] = {
    "DIST_NORM": (32, lambda bits: bits),
    "DIST_PACK": (16, lambda bits: bits[::2]),
}
"""MaskReg stores: (alignment, 256 bits -> bits written)."""


def load_mask(src: Pointer[Any], dist: str) -> Lanes:
    """Read a mask register from UB (bit k = bit k%8 of byte k//8).

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); p.write([3])
    >>> load_mask(p, "DIST_US")[:6].astype(int)
    array([1, 1, 1, 1, 0, 0])
    """
    if dist not in MASK_LOADS:
        raise IllegalDtypeError(f"{dist} is not a MaskDist for loading a MaskReg (NORM, US, DS)")
    nbytes, align, expand = MASK_LOADS[dist]
    src.require_alignment(align, f"MaskReg LoadAlign with {dist} needs {align}-byte alignment")
    if type(src) is not UbPtr:  # one address per iteration of a batched loop: a row each
        return expand(bits_from_bytes(src.cast(uint8_t).view(nbytes)))
    return expand(bits_from_bytes(src.bytes(nbytes)))


def store_mask(dst: Pointer[Any], bits: Lanes, dist: str) -> None:
    """Write a mask register to UB (``DIST_PACK`` keeps every other bit, 16 bytes).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 32)
    >>> store_mask(p, np.arange(256) < 9, "DIST_NORM"); p.read(3)
    array([255,   1,   0], dtype=uint8)
    """
    if dist not in MASK_STORES:
        raise IllegalDtypeError(f"{dist} is not a MaskDist for storing a MaskReg (NORM, PACK)")
    align, shrink = MASK_STORES[dist]
    dst.require_alignment(align, f"MaskReg StoreAlign with {dist} needs {align}-byte alignment")
    packed = bytes_from_bits(shrink(bits))
    dst.bytes(packed.size, "writes")[:] = packed


def check_in_ub(ptr: Pointer[Any], role: str, accesses: str) -> None:
    """Raise unless *ptr* (the operand *role* of one of *accesses*) points into a Unified Buffer.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> check_in_ub(GlobalMemory().alloc(uint8_t, 32), "src", "Reg loads and stores")
    Traceback (most recent call last):
    ...
    ascreg.errors.AddressSpaceError: src is <__gm__ uint8_t* ...>: Reg loads and stores address __ubuf__ only
    """
    if ptr.space != "__ubuf__":
        raise AddressSpaceError(f"{role} is {ptr!r}: {accesses} address __ubuf__ only")


@attrs.frozen
class DataBlockMode:
    """``DataCopyMode::DATA_BLOCK_COPY`` (``vsldb`` / ``vsstb``): eight 32-byte DataBlocks.

    Register DataBlock ``b`` lives at UB ``base + b * block_stride * 32`` bytes. Both strides
    are counted in DataBlocks and encoded in 16 bits each (``(block_stride << 16) |
    repeat_stride``). ``repeat_stride`` moves the base: without post-update the access is at
    ``addr + repeat_stride * 32`` and the address is unchanged; with post-update the access is at
    ``addr`` and the address then advances by ``repeat_stride * 32`` bytes.

    On loads, a block with no selected lane is not read and becomes 0; a block with at least one
    selected lane is read whole. On stores, a fully masked block is not accessed and a partly
    masked one writes only its selected lanes.
    """

    blocks: int = VL // DATA_BLOCK
    stride_bits: int = 16
    widths: tuple[int, ...] = (1, 2, 4)

    def check(self, dtype_size: int, block_stride: int, repeat_stride: int) -> None:
        """Raise unless the element width and both strides are encodable."""
        if dtype_size not in self.widths:
            raise IllegalDtypeError(
                f"the DataBlock mode moves b8/b16/b32 elements, not {8 * dtype_size}-bit ones"
            )
        limit = 1 << self.stride_bits
        for name, value in (("block_stride", block_stride), ("repeat_stride", repeat_stride)):
            if not isinstance(value, int | np.integer) or not 0 <= value < limit:
                raise IllegalDtypeError(
                    f"{name} {value!r} does not fit the 16-bit stride field [0, {limit - 1}]"
                )

    def base(
        self, addr: Pointer[Any], repeat_stride: int, *, post: bool
    ) -> tuple[Pointer[Any], Pointer[Any] | None]:
        """Return ``(base of this access, updated address or None)``."""
        step = int(repeat_stride) * DATA_BLOCK
        if post:
            return addr, addr.offset_bytes(step)
        return addr.offset_bytes(step), None

    def block_active(self, active: Lanes) -> Lanes:
        """Return, per DataBlock, whether any of its lanes takes part."""
        enabled: Lanes = np.asarray(active.reshape(self.blocks, -1).any(axis=1))
        return enabled


DATA_BLOCK_COPY = DataBlockMode()
"""The one DataBlock mode dav-3510 has."""


def load_blocks(src: Pointer[Any], active: Lanes, block_stride: int) -> Lanes:
    """Load a register block-wise from *src* (see :class:`DataBlockMode`).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> p = UnifiedBuffer().alloc(uint32_t, 256); p.write(np.arange(256))
    >>> r = load_blocks(p, np.arange(64) < 16, 2)
    >>> r[6:10], r[16:18]
    (array([ 6,  7, 16, 17], dtype=uint32), array([0, 0], dtype=uint32))
    """
    mode = DATA_BLOCK_COPY
    size = src.dtype.size
    mode.check(size, block_stride, 0)
    src.require_alignment(DATA_BLOCK, "the DataBlock mode needs a 32-byte aligned base")
    per_block = DATA_BLOCK // size
    out = np.zeros(mode.blocks * per_block, dtype=src.dtype.np_dtype)
    for b in np.flatnonzero(mode.block_active(active)):
        block_src = src.offset_bytes(int(b) * int(block_stride) * DATA_BLOCK)
        out[b * per_block : (b + 1) * per_block] = block_src.view(per_block)
    return out


def store_blocks(dst: Pointer[Any], values: Lanes, active: Lanes, block_stride: int) -> None:
    """Store a register block-wise to *dst*; masked-off lanes keep their UB bytes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> p = UnifiedBuffer().alloc(uint16_t, 512)
    >>> store_blocks(p, np.arange(1, 129, dtype=np.uint16), np.arange(128) < 20, 2)
    >>> p.read(36)[[0, 15, 16, 31, 32, 35]]
    array([ 1, 16,  0,  0, 17, 20], dtype=uint16)
    """
    mode = DATA_BLOCK_COPY
    size = values.dtype.itemsize
    mode.check(size, block_stride, 0)
    dst.require_alignment(DATA_BLOCK, "the DataBlock mode needs a 32-byte aligned base")
    per_block = DATA_BLOCK // size
    for b in np.flatnonzero(mode.block_active(active)):
        lanes = slice(b * per_block, (b + 1) * per_block)
        block_dst = dst.offset_bytes(int(b) * int(block_stride) * DATA_BLOCK)
        write_lanes(block_dst, values[lanes], active[lanes])


def load_block_stream(
    addr: Pointer[Any], active: Lanes, block_stride: int, repeat_stride: int, *, post: bool
) -> tuple[Lanes, Pointer[Any] | None]:
    """One DataBlock-mode load as both front ends issue it: ``(lanes, updated address or None)``.

    Checks the element width and both 16-bit strides, applies ``repeat_stride`` as
    :meth:`DataBlockMode.base` says, then :func:`load_blocks`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> p = UnifiedBuffer().alloc(uint32_t, 512); p.write(np.arange(512))
    >>> lanes, following = load_block_stream(p, np.ones(64, bool), 1, 8, post=True)
    >>> int(lanes[63]), following - p
    (63, 64)
    """
    DATA_BLOCK_COPY.check(addr.dtype.size, block_stride, repeat_stride)
    base, following = DATA_BLOCK_COPY.base(addr, repeat_stride, post=post)
    return load_blocks(base, active, block_stride), following


def store_block_stream(
    addr: Pointer[Any],
    values: Lanes,
    active: Lanes,
    block_stride: int,
    repeat_stride: int,
    *,
    post: bool,
) -> Pointer[Any] | None:
    """One DataBlock-mode store as both front ends issue it; returns the updated address or None.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> p = UnifiedBuffer().alloc(uint32_t, 512)
    >>> _ = store_block_stream(p, np.arange(64, dtype=np.uint32), np.ones(64, bool), 2, 1, post=False)
    >>> p.read(25)[[7, 8, 15, 24]].tolist()  # repeat_stride 1: the blocks start one block in
    [0, 0, 7, 8]
    """
    DATA_BLOCK_COPY.check(values.dtype.itemsize, block_stride, repeat_stride)
    base, following = DATA_BLOCK_COPY.base(addr, repeat_stride, post=post)
    store_blocks(base, values, active, block_stride)
    return following

"""Unaligned UB access through the 32-byte unaligned registers (``vldas``/``vldus``/``vstus``/``vstas``).

The registers are modelled with explicit state, so that what is in UB after each call is exactly
what the chip leaves there (spec §3.7; D/Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md,
D/Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md, "关键特性说明").

Load stream. ``load_pre`` copies the 32-byte block that contains ``src`` into the register.
``load`` then reads the ``nbytes`` bytes that follow that block from UB, splices them after the
held block, returns the ``nbytes`` bytes that start at ``src``, and keeps the last block it
read (the one at ``held + nbytes``) for the next call. The bytes between ``src`` and the end of
the held block therefore come from the register, as read when it was filled: a store to them in
between is not seen (as on the chip).

Store stream. ``store`` writes the bytes from the start of the stream (the held bytes, if any,
then the ``nbytes`` new ones) up to the last 32-byte boundary at or before their end, and keeps
the bytes past that boundary in the register: **they are not in UB yet**. The next ``store`` on
the same stream writes them merged with its own bytes; ``store_post`` writes them alone.

Decisions where the documents are silent:

* A load whose ``src`` is not in the block the register holds (no ``LoadUnAlignPre`` for this
  stream, or a stride that is not the bytes read, or another buffer) is undefined behaviour:
  an :class:`~ascreg.errors.UndefinedBehaviourError` (under ``undefined="warn"``, the register
  is refilled at ``src`` first).
* A store to an address other than where the stream stopped while bytes are held would lose
  them: an :class:`~ascreg.errors.UndefinedBehaviourError` (under ``warn``, they are dropped).
* A store whose new end is 32-byte aligned holds nothing; a later ``store_post`` writes nothing.
* ``store_post`` on a register no ``store`` has used is undefined behaviour (its content is
  garbage on the chip); ``store_post`` at an address other than the stream's end too.
* Only the bytes that land in the register (``[src, src + nbytes)``) and the bytes a store
  writes are bounds-checked; the read-ahead bytes past ``src + nbytes`` are read from the raw
  memory (zero past its end), since the chip reads them without fault.

Examples
--------
>>> import numpy as np
>>> from ascreg import UnifiedBuffer, uint8_t
>>> p = UnifiedBuffer().alloc(uint8_t, 512); p.write(np.arange(512) % 251)
>>> u = UnalignRegForLoad(); load_pre(u, p + 5)
>>> load(u, p + 5, 256)[:3].tolist()
[5, 6, 7]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.core.masks import bytes_from_bits
from ascreg.errors import UndefinedBehaviourError, UninitializedRegisterError, undefined_behaviour
from ascreg.machine.memory import DATA_BLOCK, Memory, Pointer, UbPtr
from ascreg.machine.registers import VL, UnalignReg
from ascreg.machine.registers import UnalignRegForLoad as UnalignRegForLoad  # the register's home
from ascreg.machine.registers import UnalignRegForStore as UnalignRegForStore
from ascreg.machine.undefined import plain, require_defined

Bytes = np.ndarray[Any, Any]
ALIGN_BYTES = DATA_BLOCK
"""Size of an unaligned register and the alignment unit it bridges (32 bytes)."""


def _floor(address: Any) -> Any:
    """Return the 32-byte boundary at or below *address* (an int or an array of them)."""
    return address - address % ALIGN_BYTES


def _raw(memory: Memory, start: int, nbytes: int) -> Bytes:
    """Bytes ``[start, start + nbytes)`` of *memory*, unchecked; zero past its data."""
    out = np.zeros(nbytes, dtype=np.uint8)
    lo, hi = max(start, 0), min(start + nbytes, memory.data.size)
    if hi > lo:
        out[lo - start : hi - start] = memory.data[lo:hi]
    return out


def load_pre(reg: UnalignRegForLoad, src: Pointer[Any]) -> None:
    """``vldas``: fill *reg* with the 32-byte block that contains *src*.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> u = UnalignRegForLoad(); load_pre(u, UnifiedBuffer().alloc(uint16_t, 64) + 20); u
    UnalignRegForLoad(block at 0x20)
    """
    start = _floor(src.address)
    src.memory.check(src, 1, "reads")  # src itself must be readable
    if isinstance(reg, UnalignReg):  # one register for loads and stores
        reg.start_load()
    reg.memory, reg.address, reg.block = src.memory, start, _raw(src.memory, start, ALIGN_BYTES)


def load(reg: UnalignRegForLoad, src: Pointer[Any], nbytes: int) -> Bytes:
    """``vldus``: return the *nbytes* bytes at *src* and keep the last block read in *reg*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 600); p.write(np.arange(600) % 256)
    >>> u = UnalignRegForLoad(); load_pre(u, p + 48)
    >>> first = load(u, p + 48, 256); u  # the next stream position, 48 + 256, is in this block
    UnalignRegForLoad(block at 0x120)
    >>> load(u, p + 304, 256)[:2].tolist()
    [48, 49]
    """
    start = _floor(src.address)
    _continue_load(reg, src)
    src.bytes(nbytes)  # bounds-check (and report) the bytes that land in the register
    following = _raw(src.memory, start + ALIGN_BYTES, nbytes)
    spliced = np.concatenate([reg.block, following])
    offset = src.address - start
    reg.address, reg.block = start + nbytes, spliced[nbytes : nbytes + ALIGN_BYTES].copy()
    return spliced[offset : offset + nbytes]


def _continue_load(reg: UnalignRegForLoad, src: Pointer[Any]) -> None:
    """Check that *reg* holds the block of *src*; else undefined behaviour (then prime it)."""
    start = _floor(src.address)
    if reg.address is None or reg.memory is not src.memory or reg.address != start:
        rule = (
            "call LoadUnAlignPre for this stream; a post-update stream must advance by the "
            "bytes each load reads"
        )
        error: UndefinedBehaviourError
        if reg.address is None:
            error = UninitializedRegisterError(
                f"LoadUnAlign from {src!r} through an UnalignRegForLoad that no LoadUnAlignPre "
                f"has filled ({rule})"
            )
        else:
            error = UndefinedBehaviourError(
                f"LoadUnAlign from {src!r}, but the UnalignRegForLoad holds the block at "
                f"{reg.address:#x}, not the block of the address ({rule})"
            )
        undefined_behaviour(error)
        load_pre(reg, src)


def load_rows(reg: UnalignRegForLoad, src: Any, nbytes: int) -> Bytes:
    """:func:`load` in every iteration of a batched loop, in order: one stream.

    *src* holds iteration k's address in row k (a post-update ``Ref``: its batching rule makes
    it so). Iteration k reads the bytes from its address to the end of that block from the
    block iteration k - 1 left in *reg* (for iteration 0, the block *reg* holds now), the rest
    from UB; the batch has refused stores of one iteration to bytes another reads, so after
    iteration 0 the held blocks are what UB holds. Returns one row of *nbytes* bytes per
    iteration and leaves *reg* holding the block the last load read ahead.
    """
    rows = src.rows
    _continue_load(reg, src)  # iteration 0's block (the later ones chain below)
    blocks = rows - rows % ALIGN_BYTES
    if (np.diff(blocks) != nbytes).any():  # the eager run raises this iteration's error
        k = int(np.flatnonzero(np.diff(blocks) != nbytes)[0]) + 1
        undefined_behaviour(
            UndefinedBehaviourError(f"LoadUnAlign: iteration {k} does not continue the stream")
        )
    loaded = src.loaded(nbytes // src.dtype.size)
    data: Bytes = np.ascontiguousarray(loaded).view(np.uint8).reshape(rows.size, nbytes)
    offset = src.address - int(blocks[0])
    head = min(ALIGN_BYTES - offset, nbytes)
    data[0, :head] = reg.block[offset : offset + head]
    ahead = int(blocks[-1]) + nbytes
    src.read_ahead(ahead, ALIGN_BYTES)
    reg.memory, reg.address, reg.block = src.memory, ahead, _raw(src.memory, ahead, ALIGN_BYTES)
    return data


def store(reg: UnalignRegForStore, dst: Pointer[Any], payload: Bytes) -> None:
    """``vstus``: write *payload* at *dst* up to the last 32-byte boundary; hold the rest in *reg*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 96)
    >>> u = UnalignRegForStore(); store(u, p + 20, np.full(30, 7, np.uint8))
    >>> int(p.read(96)[31]), int(p.read(96)[32]), u  # [20, 32) written, [32, 50) held
    (7, 0, UnalignRegForStore(18 bytes held for [0x20, 0x32)))
    >>> store_post(u, p + 50); int(p.read(96)[49])
    7
    """
    _continue(reg, dst)
    if not dst.fits(payload.size):
        dst.bytes(payload.size, "writes")  # raises the out-of-bounds error
    begin = reg.start if reg.pending else dst.address
    data = np.concatenate([reg.held, payload]) if reg.pending else payload
    end = dst.address + payload.size
    cut = max(_floor(end), begin)
    if cut > begin:
        target = dst.offset_bytes(begin - dst.address).bytes(cut - begin, "writes")
        target[:] = data[: cut - begin]
    reg.memory, reg.start, reg.held, reg.used = dst.memory, cut, data[cut - begin :].copy(), True


def _continue(reg: UnalignRegForStore, dst: Pointer[Any]) -> None:
    """Start a store at *dst* on *reg*'s stream: held bytes must be continued where they end."""
    if isinstance(reg, UnalignReg):  # one register for loads and stores
        reg.start_store()
    if reg.pending and (reg.memory is not dst.memory or reg.end != dst.address):
        undefined_behaviour(
            UndefinedBehaviourError(
                f"StoreUnAlign to {dst!r} while the UnalignRegForStore holds {reg.held.size} "
                f"bytes for [{reg.start:#x}, {reg.end:#x}): the stream must continue at "
                f"{reg.end:#x}, or call StoreUnAlignPost first (the held bytes would be lost)"
            )
        )
        reg.held = reg.held[:0]


def store_rows(reg: UnalignRegForStore, dst: Any, values: Bytes, count: int) -> None:
    """:func:`store_lanes` in every iteration of a batched loop, in order: one stream.

    *dst* holds iteration k's address in row k, each one where the one before ended (a
    post-update ``Ref`` advanced by *count*: its batching rule makes it so); *values* one row
    of lanes per iteration (or one row for all). Iteration k's store writes what the stream
    holds up to the last 32-byte boundary before its end, as :func:`store` does: each write
    reaches UB through *dst* (``dst.write_bytes``: the batch sees them as its accesses), and the
    register ends holding what the last one held.
    """
    rows = dst.rows
    lanes = np.broadcast_to(plain(values), (rows.size, values.shape[-1]))[:, :count]
    require_defined(values[..., :count], None, "a store")
    nbytes = count * values.dtype.itemsize
    _continue(reg, dst)  # (iteration 0's; the later ones continue the stream by construction)
    if not dst.fits(nbytes):
        dst.view(count, "writes")  # raises (the loop then runs eagerly: the iteration's error)
    begin = reg.start if reg.pending else dst.address
    data = np.concatenate([reg.held, np.ascontiguousarray(lanes).view(np.uint8).reshape(-1)])
    ends = rows + nbytes
    cuts = np.maximum.accumulate(np.maximum(_floor(ends), begin))
    begins = np.concatenate([[begin], cuts[:-1]])
    widths = cuts - begins
    for width in np.unique(widths[widths > 0]).tolist():
        writes = np.flatnonzero(widths == width)
        at = begins[writes]
        dst.write_bytes(at, writes, data[(at - begin)[:, None] + np.arange(width)])
    cut = int(cuts[-1])
    reg.memory, reg.start, reg.held, reg.used = dst.memory, cut, data[cut - begin :].copy(), True


def store_streams(reg: UnalignRegForStore, dst: Any, values: Bytes, count: int) -> None:
    """:func:`store_lanes` in every iteration of a batched loop, each iteration its own stream.

    *dst* holds iteration k's address in row k, set in the body each iteration (a ``Ref``
    assigned ``dst.value = ...``): each iteration's stores stream from there, and *reg* holds
    one row of bytes per iteration (``held`` iterations x bytes, a block group's blocks first;
    ``start`` one address each) until the iteration's ``StoreUnAlignPost`` writes them
    (:func:`post_streams`). The rows lie alike in their 32-byte blocks (the batch refuses
    others), so every iteration writes as many bytes, as :func:`store` writes them.
    """
    rows = dst.rows
    n = rows.size
    dst.stream_rows(reg)
    shape = (*dst.memory.data.shape[:-1], n)  # (a block group's: blocks first)
    lanes = np.broadcast_to(plain(values), (*shape, values.shape[-1]))[..., :count]
    require_defined(values[..., :count], None, "a store")
    nbytes = count * values.dtype.itemsize
    if reg.held.ndim == 1:  # each iteration's first store: its stream starts at its row
        reg.memory, reg.start, reg.held = dst.memory, rows, np.zeros((*shape, 0), dtype=np.uint8)
    held = reg.held.shape[-1]
    if held and (reg.memory is not dst.memory or (reg.start + held != rows).any()):
        undefined_behaviour(  # the eager run raises the first such iteration's error
            UndefinedBehaviourError(
                "StoreUnAlign: an iteration's stream moved while it holds bytes"
            )
        )
    if not dst.fits(nbytes):
        dst.view(count, "writes")  # raises (the loop then runs eagerly: the iteration's error)
    begin: Any = reg.start if held else rows  # (one address per iteration)
    payload = np.ascontiguousarray(lanes).view(np.uint8).reshape(*shape, nbytes)
    data = np.concatenate([reg.held, payload], axis=-1)
    end = int(rows[0]) + nbytes
    width = max(_floor(end), int(begin[0])) - int(begin[0])  # alike in every row
    if width:
        dst.write_bytes(begin, np.arange(n), data[..., :width])
    reg.start, reg.held, reg.used = begin + width, data[..., width:].copy(), True


def post_streams(reg: UnalignRegForStore, dst: Any) -> None:
    """:func:`store_post` in every iteration of a batched loop: each writes its own stream's bytes.

    *reg* holds one stream per iteration (:func:`store_streams`), each ending at that
    iteration's address in *dst*.
    """
    held = reg.held.shape[-1]
    if not held:
        return
    if reg.memory is not dst.memory or (reg.start + held != dst.rows).any():
        undefined_behaviour(
            UndefinedBehaviourError("StoreUnAlignPost: an iteration's stream stopped elsewhere")
        )
    dst.write_bytes(reg.start, np.arange(dst.rows.size), reg.held)
    reg.held = reg.held[..., :0]


def store_post(reg: UnalignRegForStore, dst: Pointer[Any]) -> None:
    """``vstas``: write the bytes *reg* holds (the stream ends at *dst*) and empty it.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> u = UnalignRegForStore(); store_post(u, UnifiedBuffer().alloc(uint8_t, 32) + 3)
    Traceback (most recent call last):
    ...
    ascreg.errors.UninitializedRegisterError: StoreUnAlignPost on an UnalignRegForStore ...
    """
    if reg.held.ndim > 1:  # a batched loop's streams, one per iteration
        post_streams(reg, dst)
        return
    if not reg.used:
        undefined_behaviour(
            UninitializedRegisterError(
                "StoreUnAlignPost on an UnalignRegForStore no StoreUnAlign has used (its "
                "content is undefined on the chip)"
            )
        )
        return
    if not reg.pending:
        return
    if reg.memory is not dst.memory or reg.end != dst.address:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"StoreUnAlignPost at {dst!r}, but the stream stopped at {reg.end:#x} "
                f"(the held bytes belong to [{reg.start:#x}, {reg.end:#x}))"
            )
        )
    target = dst.offset_bytes(reg.start - dst.address).bytes(reg.held.size, "writes")
    target[:] = reg.held
    reg.held = reg.held[:0]


def load_lanes(
    reg: UnalignRegForLoad, src: Pointer[Any], dtype: np.dtype[Any], lanes: int
) -> Bytes:
    """:func:`load` a register of *lanes* elements of *dtype* at *src*; return the lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint16_t
    >>> p = UnifiedBuffer().alloc(uint16_t, 300); p.write(np.arange(300))
    >>> u = UnalignRegForLoad(); load_pre(u, p + 3)
    >>> load_lanes(u, p + 3, np.dtype(np.uint16), 128)[:3].tolist()
    [3, 4, 5]
    """
    if hasattr(src, "read_ahead"):  # a batched loop's addresses, one per iteration
        return load_rows(reg, src, lanes * dtype.itemsize).view(dtype)
    return load(reg, src, lanes * dtype.itemsize).view(dtype).copy()


def store_lanes(reg: UnalignRegForStore, dst: Pointer[Any], values: Bytes, count: int) -> None:
    """:func:`store` the first *count* lanes of *values* at *dst*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> p = UnifiedBuffer().alloc(uint32_t, 32); u = UnalignRegForStore()
    >>> store_lanes(u, p + 1, np.full(64, 5, np.uint32), 2); u.held.size  # held, not in UB yet
    8
    """
    rows: Any = dst
    if hasattr(rows, "write_bytes"):  # a batched loop's addresses, one per iteration
        (store_streams if rows.streams else store_rows)(reg, rows, values, count)
        return
    require_defined(values[:count], None, "a store")
    store(reg, dst, plain(values).view(np.uint8)[: count * values.dtype.itemsize])


def store_squeezed(
    reg: UnalignRegForStore, base: Pointer[Any], values: Bytes, ar: int, kept: int
) -> None:
    """``vstur`` (POST_UPDATE): :func:`store` the *kept* bytes of *values* at ``base + ar - kept``.

    *ar* is the AR register after the ``Squeeze<T, STORE_REG>`` that kept *kept* bytes: AR
    already counts them, so the stream continues at the bytes kept before that squeeze.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); u = UnalignRegForStore()
    >>> store_squeezed(u, p, np.arange(256, dtype=np.uint8), 40, 8)
    >>> store_post_at_ar(u, p, 40); p.read(41)[30:].tolist()
    [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 0]
    """
    start = base.offset_bytes(ar - kept)
    store(reg, start, values.view(np.uint8)[:kept])


def store_post_at_ar(reg: UnalignRegForStore, base: Pointer[Any], ar: int) -> None:
    """``vstar``: :func:`store_post` a stream of AR stores from *base*; it ends at ``base + ar``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); u = UnalignRegForStore()
    >>> store_squeezed(u, p + 1, np.full(256, 3, np.uint8), 4, 4)
    >>> store_post_at_ar(u, p + 1, 4); p.read(6).tolist()
    [0, 3, 3, 3, 3, 0]
    """
    store_post(reg, base.offset_bytes(ar))


def store_post_after_register(reg: UnalignRegForStore, last: Pointer[Any]) -> None:
    """``vsta`` with an AddrReg: end the stream whose last store was VL bytes at *last*.

    :func:`store_post` at ``last + VL``, where that whole-register store ended.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 300); u = UnalignRegForStore()
    >>> store(u, p + 2, np.full(VL, 1, np.uint8)); int(p.read(258)[257])
    0
    >>> store_post_after_register(u, p + 2); int(p.read(258)[257])
    1
    """
    store_post(reg, last.offset_bytes(VL))


def store_mask_bits(reg: UnalignRegForStore, dst: Pointer[Any], bits: Bytes, size: int) -> int:
    """``StoreUnAlign`` of a MaskReg for ``size``-byte elements; return the bytes it streamed.

    Keeps the lowest bit of each element's ``size`` mask bits (b16: 128 bits, 16 bytes; b32: 64
    bits, 8 bytes) and :func:`store` s them at *dst*, which must be aligned to that many bytes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); u = UnalignRegForStore()
    >>> store_mask_bits(u, p + 8, np.arange(256) % 4 == 0, 4)
    8
    >>> store_post(u, p + 16); p.read(17)[8:].tolist()
    [255, 255, 255, 255, 255, 255, 255, 255, 0]
    """
    payload = bytes_from_bits(bits[::size])
    dst.require_alignment(
        payload.size,
        f"a MaskReg StoreUnAlign of b{8 * size} elements needs {payload.size}-byte alignment",
    )
    store(reg, dst, payload)
    return int(payload.size)


def load_anywhere(src: Pointer[Any], dtype: np.dtype[Any], lanes: int) -> Bytes:
    """One-shot unaligned load (``Load``): prime a fresh register at *src*, then :func:`load_lanes`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 300); p.write(np.arange(300) % 256)
    >>> load_anywhere(p + 7, np.dtype(np.uint8), 256)[:2].tolist()
    [7, 8]
    """
    if type(src) is not UbPtr:  # one address per iteration of a batched loop: a row each
        return src.view(lanes).view(dtype).copy()  # (past the allocation: the loop runs eagerly)
    reg = UnalignRegForLoad()
    load_pre(reg, src)
    return load_lanes(reg, src, dtype, lanes)


def store_anywhere(dst: Pointer[Any], values: Bytes, count: int) -> None:
    """One-shot unaligned store (``Store``): the first *count* lanes, every byte in UB on return.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, int16_t
    >>> p = UnifiedBuffer().alloc(int16_t, 16)
    >>> store_anywhere(p + 1, np.full(128, -1, np.int16), 2); p.read(4).tolist()
    [0, -1, -1, 0]
    """
    if type(dst) is not UbPtr:  # one address per iteration of a batched loop: a row each
        require_defined(values[..., :count], None, "a store")
        dst.view(count, "writes")[...] = plain(values)[..., :count]
        return
    reg = UnalignRegForStore()
    store_lanes(reg, dst, values, count)
    store_post(reg, dst + count)

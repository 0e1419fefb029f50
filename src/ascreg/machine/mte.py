"""The copy engines: MTE2 (GM -> UB) and MTE3 (UB -> GM) burst copies.

One copy moves ``n_burst`` bursts of ``len_burst`` bytes; strides are head-to-head distances in
bytes. A GM -> UB copy may pad each burst in UB with ``left_pad`` / ``right_pad`` elements
(at most 32 bytes each) holding a constant or the burst's first element. UB addresses must be
32-byte aligned; GM addresses must be aligned to the pointer's element size. The UB accesses
are attributed to the copy's pipe, so the pipe tracker sees them.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, UnifiedBuffer, uint16_t
>>> gm = GlobalMemory().alloc(uint16_t, 64); gm.write(np.arange(64))
>>> ub = UnifiedBuffer().alloc(uint16_t, 64)
>>> gm_to_ub(ub, gm, Burst(n_burst=2, len_burst=8, src_stride=32, dst_stride=32), "copy")
>>> ub.read(20).tolist()
[0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 17, 18, 19]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg.errors import AddressSpaceError, AlignmentError, AscregError, undefined_behaviour
from ascreg.machine.block import BlockContext, running_block
from ascreg.machine.memory import DATA_BLOCK, GmPtr, Pointer, UbPtr
from ascreg.machine.races import atomic_access
from ascreg.machine.store_atomic import combiner
from ascreg.machine.sync import PIPE_MTE2, PIPE_MTE3, PIPE_V, UB, Pipe
from ascreg.machine.sysregs import SYSREGS_STATE, CopyLoops

MAX_N_BURST = 4095
MAX_LEN_BURST = 2097151
MAX_PAD_BYTES = 32


@attrs.frozen(cache_hash=True)  # a key of the form cache: hashed once
class Burst:
    """The shape of one burst copy (all sizes and strides in bytes, pads in elements)."""

    n_burst: int = 1
    len_burst: int = 0
    src_stride: int = 0
    dst_stride: int = 0
    left_pad: int = 0
    right_pad: int = 0
    pad_value: Any = None
    """The constant pad value, or None to pad with the burst's first element."""
    fill_to_block: bool = False
    """GM -> UB only: extend each padded burst in UB to the next 32-byte boundary with dummy
    elements (the burst's first element when it has no pads, else the pad value), as the basic
    API's ``DataCopyPad`` does."""
    constant_fill: bool = False
    """With ``fill_to_block``: the dummy elements hold ``pad_value`` even when the burst has no
    pads (``DataCopyPad`` with ``isPad``)."""
    compact: bool = False
    """GM -> UB only: the bursts lie packed in UB (``dst_stride == len_burst``, no pads) and the
    end of the last one is filled up to the next 32-byte boundary (counted from ``dst``) with
    ``pad_value``, or the last burst's first element when it is None: the 950's
    ``PaddingMode::Compact``."""
    plain: bool = attrs.field(init=False, eq=False, repr=False)
    """One burst that lands in UB as it is, with no pads or dummy elements (a GM -> UB copy
    of it is one span copied); derived from the fields above."""

    def __attrs_post_init__(self) -> None:
        # plain ints only (anything else takes the general path, where check() names it)
        ints = type(self.n_burst) is type(self.left_pad) is type(self.right_pad) is int
        plain = ints and self.n_burst == 1 and self.left_pad == self.right_pad == 0
        if self.fill_to_block is not False or self.compact is not False:
            plain = plain and type(self.len_burst) is int and not self.len_burst % DATA_BLOCK
        object.__setattr__(self, "plain", plain)  # frozen: set once, here

    def check(self, element_size: int, rule: str) -> None:
        """Raise unless every field is inside its documented range."""
        if not 1 <= self.n_burst <= MAX_N_BURST:
            raise AscregError(f"n_burst {self.n_burst} is outside [1, {MAX_N_BURST}] ({rule})")
        if not 1 <= self.len_burst <= MAX_LEN_BURST:
            raise AscregError(
                f"len_burst {self.len_burst} is outside [1, {MAX_LEN_BURST}] ({rule})"
            )
        for name in ("left_pad", "right_pad"):
            pad = getattr(self, name)
            if pad < 0 or pad * element_size > MAX_PAD_BYTES:
                raise AscregError(
                    f"{name} {pad} elements is more than {MAX_PAD_BYTES} bytes ({rule})"
                )
        if min(self.src_stride, self.dst_stride) < 0:
            raise AscregError(f"negative stride ({rule})")
        if self.n_burst > 1 and min(self.src_stride, self.dst_stride) == 0:
            raise AscregError(f"a stride of 0 is only allowed when n_burst is 1 ({rule})")


def _spaces(dst: Any, src: Any, dst_cls: type, src_cls: type, call: str) -> None:
    for ptr, cls, role in ((dst, dst_cls, "dst"), (src, src_cls, "src")):
        if not isinstance(ptr, Pointer):
            raise AscregError(f"{role} must be a pointer, got {type(ptr).__name__} {ptr!r:.60}")
        if not isinstance(ptr, cls):
            raise AddressSpaceError(
                f"{role} is {ptr!r} but {call} needs a {getattr(cls, 'space', '?')} pointer"
            )


def _aligned(ptr: Pointer[Any], role: str, call: str) -> None:
    need = DATA_BLOCK if isinstance(ptr, UbPtr) else ptr.dtype.size
    if ptr.address % need:
        undefined_behaviour(
            AlignmentError(
                f"{role} {ptr!r} is not {need}-byte aligned ({call}: UB addresses must be "
                f"32-byte aligned, GM addresses aligned to their element type)"
            )
        )


_GM_TO_UB, _UB_TO_GM = "gm2ub", "ub2gm"
"""The directions of :func:`gm_to_ub` and :func:`ub_to_gm` (keys of the form cache)."""
_FORMS: set[tuple[Any, ...]] = set()
"""Copy forms already validated: (direction, dst and src pointer classes and element types,
burst). Every check but alignment depends on these alone, so a known form skips them."""
_MAX_FORMS = 1024


def _form_key(dst: Any, src: Any, burst: Burst, direction: str) -> tuple[Any, ...]:
    return (direction, type(dst), type(src), dst.dtype, src.dtype, burst)


def _known_form(dst: Any, src: Any, burst: Burst, direction: str) -> bool:
    """Return True when this copy's form (all but its addresses) was validated before."""
    try:
        return _form_key(dst, src, burst, direction) in _FORMS
    except (AttributeError, TypeError):  # not pointers, or an unhashable pad value
        return False


def _remember_form(dst: Any, src: Any, burst: Burst, direction: str) -> None:
    """Note that the form of a copy whose checks all passed is valid."""
    if len(_FORMS) >= _MAX_FORMS:
        _FORMS.clear()
    with contextlib.suppress(TypeError):  # an unhashable pad value: not cached
        _FORMS.add(_form_key(dst, src, burst, direction))


def _stride_rule(stride: int, name: str, burst: Burst, call: str) -> None:
    """Raise unless the UB stride of a multi-burst copy is ``len_burst`` or a multiple of 32."""
    if stride != burst.len_burst and stride % DATA_BLOCK and burst.n_burst > 1:
        raise AscregError(
            f"{name} {stride} differs from len_burst and is not a multiple of 32 ({call})"
        )


def _validate(dst: Any, src: Any, burst: Burst, direction: str, call: str) -> None:
    """Check a copy: its whole form the first time, then only the two addresses' alignment.

    Every check but alignment depends only on the form (:func:`_known_form`), so a form that
    passed once is checked again for alignment alone, with the same calls and messages.
    """
    into_ub = direction == _GM_TO_UB
    if _known_form(dst, src, burst, direction):
        _addresses_aligned(dst, src, into_ub, call)  # only alignment left
        return
    dst_cls, src_cls = (UbPtr, GmPtr) if into_ub else (GmPtr, UbPtr)
    _spaces(dst, src, dst_cls, src_cls, call)
    _aligned(dst, "dst", call)
    _aligned(src, "src", call)
    burst.check((dst if into_ub else src).dtype.size, call)
    if into_ub:
        _stride_rule(burst.dst_stride, "dst_stride", burst, call)
    else:
        _stride_rule(burst.src_stride, "src_stride", burst, call)
    _remember_form(dst, src, burst, direction)


def _addresses_aligned(dst: Pointer[Any], src: Pointer[Any], into_ub: bool, call: str) -> None:
    """Check both addresses' alignment as :func:`_aligned` does.

    Two remainders settle the common aligned case (a UB address on a 32-byte block, a GM one
    on its element) before the two checks.
    """
    ub, gm = (dst, src) if into_ub else (src, dst)
    if ub.address % DATA_BLOCK or gm.address % gm.dtype.size:
        _aligned(dst, "dst", call)
        _aligned(src, "src", call)


def validate(dst: Any, src: Any, burst: Burst, into_ub: bool, call: str) -> None:
    """Check a GM <-> UB copy's form and addresses as the copy itself does (no access made).

    What a block group (``ascreg.engine.groups``) runs before it copies for all its blocks.
    """
    _validate(dst, src, burst, _GM_TO_UB if into_ub else _UB_TO_GM, call)


GM_TO_UB, UB_TO_GM = _GM_TO_UB, _UB_TO_GM
"""The directions of :func:`plain_copy` (and of the C API's copy loop registers)."""


def plain_copy(
    ctx: BlockContext, dst: Pointer[Any], src: Pointer[Any], burst: Burst, direction: str, call: str
) -> None:
    """Make a plain one-burst copy whose form passed :func:`_validate` before, in block *ctx*.

    What :func:`gm_to_ub` and :func:`ub_to_gm` do then: check the two addresses' alignment (all
    the form leaves to check), then copy the burst (under the block's store-atomic mode).
    """
    into_ub = direction == _GM_TO_UB
    if ctx.group is not None:  # the blocks of a group (ascreg.engine.groups), all at once
        ctx.group.copy(dst, src, burst, into_ub, call)
        return
    _addresses_aligned(dst, src, into_ub, call)
    if into_ub:
        _burst_in(ctx, dst, src, burst.len_burst)
        return
    combine = store_atomic(ctx)
    if combine is None:
        _burst_out(ctx, dst, src, burst.len_burst, None)
        return
    with atomic_access():
        _burst_out(ctx, dst, src, burst.len_burst, combine)


def gm_to_ub(dst: Pointer[Any], src: Pointer[Any], burst: Burst, call: str) -> None:
    """MTE2: copy *burst* from GM *src* to UB *dst* (see the module docstring)."""
    ctx = running_block()
    if ctx is not None and ctx.group is not None:  # (ascreg.engine.groups)
        ctx.group.copy(dst, src, burst, True, call)
        return
    _validate(dst, src, burst, _GM_TO_UB, call)
    if ctx is not None and burst.plain:
        _burst_in(ctx, dst, src, burst.len_burst)
        return
    size = dst.dtype.size
    left, right = burst.left_pad * size, burst.right_pad * size
    padded = left + burst.len_burst + right
    dummy = -padded % DATA_BLOCK if burst.fill_to_block else 0
    if ctx is not None and not (left or right or dummy or burst.compact):
        ctx.tracker.begin_copy(PIPE_MTE2)  # one copy of unpadded bursts, each as _burst_in's
        free = _bursts_free(ctx, PIPE_MTE2, dst, src, burst)
        for i in range(burst.n_burst):
            at, start = (
                dst.offset_bytes(i * burst.dst_stride),
                src.offset_bytes(i * burst.src_stride),
            )
            _burst_in(ctx, at, start, burst.len_burst, begin=False, free=free)
        return
    with _pipe(PIPE_MTE2):
        for i in range(burst.n_burst):
            _track_gm(src.offset_bytes(i * burst.src_stride), burst.len_burst, write=False)
            # a view: the target is UB, another memory, so writing it cannot change the source
            data = src.offset_bytes(i * burst.src_stride).bytes(burst.len_burst)
            target = dst.offset_bytes(i * burst.dst_stride).bytes(padded + dummy, "writes")
            target[left : left + burst.len_burst] = data
            for offset, nbytes, value in pad_spans(burst, (left, burst.len_burst, right, dummy)):
                if nbytes:
                    target[offset : offset + nbytes] = np.resize(
                        _pad_bytes(data, dst, value), nbytes
                    )
        if burst.compact:
            _compact_tail(dst, src, burst)


def pad_spans(burst: Burst, sizes: tuple[int, int, int, int]) -> tuple[tuple[int, int, Any], ...]:
    """Return the pad and dummy spans of one padded GM -> UB burst and what fills them.

    *sizes* are the left pad, data, right pad and dummy bytes. Each span is ``(offset from
    the burst's UB start, bytes, value)``; a value of None is the burst's first element.

    Examples
    --------
    >>> pad_spans(Burst(len_burst=8, left_pad=1, pad_value=7), (4, 8, 0, 20))
    ((0, 4, 7), (12, 0, 7), (12, 20, 7))
    """
    left, length, right, dummy = sizes
    value = burst.pad_value
    dummy_value = value if left or right or burst.constant_fill else None
    end = left + length
    return (0, left, value), (end, right, value), (end + right, dummy, dummy_value)


def _compact_tail(dst: Pointer[Any], src: Pointer[Any], burst: Burst) -> None:
    """Fill the end of a compact copy's packed bursts up to the next 32-byte boundary."""
    end = (burst.n_burst - 1) * burst.dst_stride + burst.len_burst
    tail = -end % DATA_BLOCK
    if tail:
        last = src.offset_bytes((burst.n_burst - 1) * burst.src_stride).bytes(burst.len_burst)
        fill = _pad_bytes(last, dst, burst.pad_value)
        dst.offset_bytes(end).bytes(tail, "writes")[:] = np.resize(fill, tail)


def looped(dst: Any, src: Any, burst: Burst, direction: str, call: str) -> None:
    """Make a GM <-> UB copy under the running block's copy loop registers.

    The loop registers of *direction* (``GM_TO_UB``: ``SetLoopModePara`` with
    ``OUT_TO_UB``, ``asc_set_gm2ub_loop*``; ``UB_TO_GM``: ``UB_TO_OUT``,
    ``asc_set_ub2gm_loop*``) repeat the whole copy ``loop2`` x ``loop1`` times, each repetition
    offset by the loops' byte strides (``CopyLoops``); at reset it
    is one copy.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, UnifiedBuffer, int8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import CopyLoops, system_registers
    >>> g = GlobalMemory().alloc(int8_t, 64); g.write(np.arange(64))
    >>> with block(BlockContext()):
    ...     u = UnifiedBuffer().alloc(int8_t, 128)
    ...     system_registers().copy_loops[GM_TO_UB] = CopyLoops((2, 1), (32, 0), (64, 0))
    ...     looped(u, g, Burst(len_burst=4), GM_TO_UB, "copy")
    ...     u.read(68)[[0, 3, 64, 67]].tolist()
    [0, 3, 32, 35]
    """
    repeated(dst, src, burst, direction, call, copy_loops(direction))


def repeated(
    dst: Any, src: Any, burst: Burst, direction: str, call: str, loops: CopyLoops | None
) -> None:
    """:func:`looped` under the copy loops *loops* its caller read (:func:`copy_loops`)."""
    copy = gm_to_ub if direction == _GM_TO_UB else ub_to_gm
    if loops is None or not (isinstance(dst, Pointer) and isinstance(src, Pointer)):
        copy(dst, src, burst, call)
        return
    for src_offset, dst_offset in loops.offsets():
        copy(dst.offset_bytes(dst_offset), src.offset_bytes(src_offset), burst, call)


def copy_loops(direction: str) -> CopyLoops | None:
    """Return the running block's copy loops of *direction*, or None when they make one copy."""
    ctx = running_block()
    regs = ctx.state.get(SYSREGS_STATE) if ctx is not None else None
    loops: CopyLoops | None = None if regs is None else regs.copy_loops[direction]
    return None if loops is None or loops.sizes == (1, 1) else loops


def _direct(ctx: BlockContext, ub: Pointer[Any], gm: Pointer[Any], nbytes: int) -> bool:
    """Return True when a one-burst copy may skip the memories' own bounds checks.

    That is when both byte ranges are inside their allocations (or memories) and data arrays,
    the UB reports to *ctx* (its own hook, outside a ``__simd_vf__``, no gather running) and
    its byte marks cover the range: then :meth:`~ascreg.machine.memory.Memory.check` of each
    side would pass and only call the hooks, which the direct paths call in the same order.
    """
    memory = ub.memory
    return (
        ub.inside_data(nbytes)
        and ctx.covers(ub.address + nbytes)  # the byte marks cover it (grown as a check would)
        and memory.on_access is ctx.hook
        and not ctx.in_simd_vf
        and memory.scatter is None
        and gm.inside_data(nbytes)
    )


def _bursts_free(
    ctx: BlockContext, pipe: Pipe, dst: Pointer[Any], src: Pointer[Any], burst: Burst
) -> bool:
    """Return True when no burst of a multi-burst copy on *pipe* can be a pipe hazard.

    The test of :meth:`~ascreg.machine.sync.PipeTracker.copy_free` on the span of all the
    bursts on each side (one test instead of one per burst and side); False for one burst.
    """
    count = burst.n_burst
    if count < 2:
        return False
    hulls = []
    for ptr, stride, write in ((dst, burst.dst_stride, True), (src, burst.src_stride, False)):
        first, last = ptr.address, ptr.address + (count - 1) * stride
        space = UB if isinstance(ptr, UbPtr) else id(ptr.memory)
        hulls.append((space, min(first, last), max(first, last) + burst.len_burst, write))
    return ctx.tracker.copy_free(pipe, tuple(hulls))


def _burst_in(
    ctx: BlockContext,
    dst: Pointer[Any],
    src: Pointer[Any],
    nbytes: int,
    *,
    begin: bool = True,
    free: bool = False,
) -> None:
    """One unpadded GM -> UB burst in a running block: :func:`gm_to_ub`'s loop for one burst.

    The same steps in the same order (start a copy on MTE2 unless not *begin*: a later burst
    of the copy, record the GM read, bounds-check both sides, copy), without the loop and the
    context managers; when :func:`_direct`, the bounds checks are known to pass and the UB
    side's hook is done here. *free*: :func:`_bursts_free` showed the copy hazard-free.
    """
    if not _direct(ctx, dst, src, nbytes):
        _checked_burst_in(ctx, dst, src, nbytes, begin)
        return
    tracker, gm, start, at = ctx.tracker, src.memory, src.address, dst.address
    if begin:
        tracker.begin_copy(PIPE_MTE2)
    tracker.access(PIPE_MTE2, start, start + nbytes, False, id(gm), free=free)
    hook = gm.on_access
    if hook is not None:  # the GM side's Memory.check, past its bounds
        hook(start, start + nbytes, "reads")
    ctx.mark_written(at, at + nbytes)  # the UB side's: BlockContext._on_access of a write
    tracker.access(PIPE_MTE2, at, at + nbytes, True, free=free)
    dst.memory.data[at : at + nbytes] = gm.data[start : start + nbytes]


def _checked_burst_in(
    ctx: BlockContext, dst: Pointer[Any], src: Pointer[Any], nbytes: int, begin: bool
) -> None:
    """:func:`_burst_in` through the memories' bounds checks and hooks."""
    tracker, pipe = ctx.tracker, PIPE_MTE2
    if begin:
        tracker.begin_copy(pipe)
    previous, ctx.pipe = ctx.pipe, pipe
    try:
        start = src.address
        if src.fits(nbytes):
            tracker.access(pipe, start, start + nbytes, write=False, space=id(src.memory))
        data = src.bytes(nbytes)  # a view: the target is UB, another memory
        dst.bytes(nbytes, "writes")[:] = data
    finally:
        ctx.pipe = previous


def _burst_out(
    ctx: BlockContext,
    dst: Pointer[Any],
    src: Pointer[Any],
    nbytes: int,
    combine: Combine | None,
    *,
    begin: bool = True,
    free: bool = False,
) -> None:
    """One UB -> GM burst in a running block: :func:`ub_to_gm`'s loop for one burst.

    As :func:`_burst_in` (*begin* too): when :func:`_direct` and the UB bytes are all written
    (so the unwritten-read check would pass), the UB side's hook is done here.
    """
    at = src.address
    if not (_direct(ctx, src, dst, nbytes) and ctx.all_written(at, at + nbytes)):
        _checked_burst_out(ctx, dst, src, nbytes, combine, begin)
        return
    tracker, gm, start = ctx.tracker, dst.memory, dst.address
    if begin:
        tracker.begin_copy(PIPE_MTE3)
    tracker.access(PIPE_MTE3, at, at + nbytes, False, free=free)
    tracker.access(PIPE_MTE3, start, start + nbytes, True, id(gm), free=free)
    hook = gm.on_access
    if hook is not None:
        hook(start, start + nbytes, "writes")
    data = src.memory.data[at : at + nbytes]
    target = gm.data[start : start + nbytes]
    target[:] = data if combine is None else combine(target.copy(), data)


def _checked_burst_out(
    ctx: BlockContext,
    dst: Pointer[Any],
    src: Pointer[Any],
    nbytes: int,
    combine: Combine | None,
    begin: bool,
) -> None:
    """:func:`_burst_out` through the memories' bounds checks and hooks."""
    tracker, pipe = ctx.tracker, PIPE_MTE3
    if begin:
        tracker.begin_copy(pipe)
    previous, ctx.pipe = ctx.pipe, pipe
    try:
        data = src.bytes(nbytes)  # UB: not GM
        start = dst.address
        if dst.fits(nbytes):
            tracker.access(pipe, start, start + nbytes, write=True, space=id(dst.memory))
        target = dst.bytes(nbytes, "writes")
        target[:] = data if combine is None else combine(target.copy(), data)
    finally:
        ctx.pipe = previous


def _pad_bytes(data: np.ndarray[Any, Any], dst: Pointer[Any], value: Any) -> np.ndarray[Any, Any]:
    size = dst.dtype.size
    if value is None:
        return data[:size]
    from ascreg.machine.convert import to_dtype

    return to_dtype([value], dst.dtype).view(np.uint8)


Combine = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], np.ndarray[Any, Any]]
"""``combine(old_bytes, new_bytes) -> bytes``: how a store-atomic copy merges into GM."""


def store_atomic(ctx: BlockContext | None) -> Combine | None:
    """Return the merge of block *ctx*'s store-atomic mode, or None (plain writes).

    The mode is the block's system register
    (:attr:`~ascreg.machine.sysregs.SystemRegisters.atomic`), set by ``asc_set_atomic_*`` and
    ``SetAtomicAdd<T>`` alike; every UB -> GM copy reads it here.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.machine.block import BlockContext
    >>> from ascreg.machine.sysregs import system_registers
    >>> ctx = BlockContext(); store_atomic(ctx) is None
    True
    >>> system_registers(ctx).atomic = ("add", float32_t); store_atomic(ctx).__name__
    'merge'
    """
    if ctx is None:
        return None
    regs = ctx.state.get(SYSREGS_STATE)
    mode = None if regs is None else regs.atomic
    return None if mode is None else combiner(*mode)


def ub_to_gm(dst: Pointer[Any], src: Pointer[Any], burst: Burst, call: str) -> None:
    """MTE3: copy *burst* from UB *src* to GM *dst*, under the block's store-atomic mode.

    Every UB -> GM copy of every surface (``asc_copy_ub2gm*``, ``DataCopy``, ``DataCopyPad``)
    goes through here. With a store-atomic mode set (:func:`store_atomic`) each burst is merged
    into the GM bytes it lands on instead of replacing them (:mod:`ascreg.machine.store_atomic`),
    and the writes are atomic: exempt from the cross-block GM race check
    (:func:`ascreg.machine.races.atomic_access`), as blocks combining results there is what
    the atomics are for.
    """
    ctx = running_block()
    if ctx is not None and ctx.group is not None:  # (ascreg.engine.groups)
        ctx.group.copy(dst, src, burst, False, call)
        return
    _validate(dst, src, burst, _UB_TO_GM, call)
    combine = store_atomic(ctx)
    if combine is None:
        _copy_out(ctx, dst, src, burst, None)
        return
    with atomic_access():
        _copy_out(ctx, dst, src, burst, combine)


def _copy_out(
    ctx: BlockContext | None,
    dst: Pointer[Any],
    src: Pointer[Any],
    burst: Burst,
    combine: Combine | None,
) -> None:
    """Make the bursts of :func:`ub_to_gm`, each written or merged (*combine*) into GM."""
    if ctx is not None and burst.n_burst == 1:
        _burst_out(ctx, dst, src, burst.len_burst, combine)
        return
    if ctx is not None:  # one copy of bursts, each as _burst_out's
        ctx.tracker.begin_copy(PIPE_MTE3)
        free = _bursts_free(ctx, PIPE_MTE3, dst, src, burst)
        for i in range(burst.n_burst):
            at, start = (
                src.offset_bytes(i * burst.src_stride),
                dst.offset_bytes(i * burst.dst_stride),
            )
            _burst_out(ctx, start, at, burst.len_burst, combine, begin=False, free=free)
        return
    with _pipe(PIPE_MTE3):
        for i in range(burst.n_burst):
            data = src.offset_bytes(i * burst.src_stride).bytes(burst.len_burst)  # UB: not GM
            _track_gm(dst.offset_bytes(i * burst.dst_stride), burst.len_burst, write=True)
            target = dst.offset_bytes(i * burst.dst_stride).bytes(burst.len_burst, "writes")
            target[:] = data if combine is None else combine(target.copy(), data)


MAX_UB_BURST_BLOCKS = 65535
"""The largest ``len_burst`` of a UB -> UB copy, in 32-byte blocks."""


def ub_to_ub(
    dst: Pointer[Any],
    src: Pointer[Any],
    n_burst: int,
    len_blocks: int,
    gaps: tuple[int, int],
    call: str,
) -> None:
    """``PIPE_V``: copy *n_burst* bursts of *len_blocks* 32-byte blocks from UB *src* to UB *dst*.

    ``gaps`` = ``(src_gap, dst_gap)``: blocks from the tail of one burst to the head of the next.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> ub = UnifiedBuffer(); a, b = ub.alloc(uint32_t, 24), ub.alloc(uint32_t, 24)
    >>> a.write(np.arange(24, dtype=np.uint32)); b.write(np.zeros(24, np.uint32))
    >>> ub_to_ub(b, a, 2, 1, (1, 0), "copy")
    >>> b.read(16).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
    """
    _spaces(dst, src, UbPtr, UbPtr, call)
    _aligned(dst, "dst", call)
    _aligned(src, "src", call)
    src_gap, dst_gap = gaps
    if not 1 <= n_burst <= MAX_N_BURST or not 1 <= len_blocks <= MAX_UB_BURST_BLOCKS:
        raise AscregError(
            f"n_burst {n_burst} / len_burst {len_blocks} are outside [1, {MAX_N_BURST}] / "
            f"[1, {MAX_UB_BURST_BLOCKS}] ({call})"
        )
    if min(gaps) < 0:
        raise AscregError(f"negative gap ({call})")
    nbytes = len_blocks * DATA_BLOCK
    ctx = running_block()
    with ctx.on_pipe(PIPE_V) if ctx is not None else contextlib.nullcontext():
        for i in range(n_burst):
            data = src.offset_bytes(i * (nbytes + src_gap * DATA_BLOCK)).bytes(nbytes).copy()
            target = dst.offset_bytes(i * (nbytes + dst_gap * DATA_BLOCK))
            target.bytes(nbytes, "writes")[:] = data


NDIM_MAX_SIZE = (1 << 20) - 1
"""The largest element count of one ``asc_ndim_copy_gm2ub`` dimension."""
NDIM_MAX_PAD = 255
"""The largest left or right pad count of one dimension."""


@attrs.frozen
class NdimLoop:
    """One dimension of an n-dimensional GM -> UB copy (element counts and strides)."""

    size: int
    left: int = 0
    right: int = 0
    dst_stride: int = 0
    src_stride: int = 0


def ndim_gm_to_ub(
    dst: Pointer[Any], src: Pointer[Any], loops: tuple[NdimLoop, ...], pad_value: Any, call: str
) -> None:
    """MTE2: the n-dimensional copy of ``asc_ndim_copy_gm2ub`` (*loops* innermost first).

    Dimension *i* covers ``left + size + right`` positions; position *p* lands at UB element
    ``sum(p_i * dst_stride_i)``. Inside ``[left, left + size)`` it reads GM element
    ``sum((p_i - left_i) * src_stride_i)``; outside it is padding: *pad_value*, or (``None``)
    the nearest element of that dimension (each index clamped into ``[0, size)``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, UnifiedBuffer, int32_t
    >>> g = GlobalMemory().alloc(int32_t, 4); g.write(np.array([1, 2, 3, 4], np.int32))
    >>> u = UnifiedBuffer().alloc(int32_t, 16)
    >>> ndim_gm_to_ub(u, g, (NdimLoop(2, 1, 1, 1, 1), NdimLoop(2, 0, 0, 4, 2)), None, "copy")
    >>> u.read(8).tolist()
    [1, 1, 2, 2, 3, 3, 4, 4]
    """
    _spaces(dst, src, UbPtr, GmPtr, call)
    _aligned(dst, "dst", call)
    _aligned(src, "src", call)
    for index, loop in enumerate(loops):
        if not 1 <= loop.size <= NDIM_MAX_SIZE or max(loop.left, loop.right) > NDIM_MAX_PAD:
            raise AscregError(
                f"loop{index}: size {loop.size} / pads ({loop.left}, {loop.right}) are outside "
                f"[1, {NDIM_MAX_SIZE}] / [0, {NDIM_MAX_PAD}] ({call})"
            )
    shape = tuple(loop.left + loop.size + loop.right for loop in reversed(loops))
    positions = np.indices(shape, dtype=np.int64)[::-1]  # positions[i]: loop i's position
    inside = np.ones(shape, dtype=bool)
    src_index = np.zeros(shape, dtype=np.int64)
    dst_index = np.zeros(shape, dtype=np.int64)
    for loop, position in zip(loops, positions, strict=True):
        relative = position - loop.left
        inside &= (relative >= 0) & (relative < loop.size)
        src_index += np.clip(relative, 0, loop.size - 1) * loop.src_stride
        dst_index += position * loop.dst_stride
    size = dst.dtype.size
    with _pipe(PIPE_MTE2):
        count = int(src_index.max()) + 1
        _track_gm(src, count * size, write=False)
        values = src.view(count)[src_index.ravel()]
        if pad_value is not None:
            from ascreg.machine.convert import to_dtype

            values[~inside.ravel()] = to_dtype([pad_value], dst.dtype)[0]
        _scatter(dst, dst_index.ravel(), values)


def _scatter(
    dst: Pointer[Any], indices: np.ndarray[Any, Any], values: np.ndarray[Any, Any]
) -> None:
    """Write ``dst[indices] = values`` (later positions win), touching only those elements."""
    order = np.unique(indices)
    breaks = np.flatnonzero(np.diff(order) != 1) + 1
    for run in np.split(order, breaks):
        view = dst.offset_bytes(int(run[0]) * dst.dtype.size).view(len(run), "writes")
        picked = np.zeros(len(indices), dtype=bool)
        picked[(indices >= run[0]) & (indices <= run[-1])] = True
        view[indices[picked] - run[0]] = values[picked]


def _pipe(pipe: Pipe) -> Any:
    """Attribute the copy's accesses to *pipe* (as one copy) in a running block."""
    ctx = running_block()
    if ctx is None:
        return contextlib.nullcontext()
    ctx.tracker.begin_copy(pipe)
    return ctx.on_pipe(pipe)


def _track_gm(ptr: Pointer[Any], nbytes: int, *, write: bool) -> None:
    """Report a copy's GM burst to the pipe tracker (GM is checked between copies only)."""
    ctx = running_block()
    if ctx is not None and ptr.fits(nbytes):
        start = ptr.address
        ctx.tracker.access(ctx.pipe, start, start + nbytes, write=write, space=id(ptr.memory))

"""The scalar side of a C API kernel: init, GM <-> UB copies, pipe sync, VF calls, built-ins.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, uint16_t
>>> from ascreg.c_api import *
>>> gm = GlobalMemory(); x = gm.alloc(uint16_t, 128); x.write(np.arange(128))
>>> @__global__
... @__vector__
... def double(x: GmPtr[uint16_t]) -> None:
...     asc_init()
...     buf = __ubuf__(uint16_t, 128)
...     asc_copy_gm2ub_align(buf, x, 256)
...     asc_sync_notify(PIPE_MTE2, PIPE_S, EVENT_ID0)
...     asc_sync_wait(PIPE_MTE2, PIPE_S, EVENT_ID0)
...     buf.write(buf.read(128) * 2)
...     asc_sync_notify(PIPE_S, PIPE_MTE3, EVENT_ID0)
...     asc_sync_wait(PIPE_S, PIPE_MTE3, EVENT_ID0)
...     asc_copy_ub2gm_align(x, buf, 256)
...     asc_sync()
>>> double[1, 0, None](x)
>>> x.read(4).tolist()
[0, 2, 4, 6]
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from ascreg._dtypes import (
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.block import current_block, running_block
from ascreg.machine.kernel import (
    __aicore__,
    __global__,
    __simd_callee__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_vf_call,  # noqa: F401 (the examples here use it)
    block_idx,
    block_num,
    get_vec_len,
)
from ascreg.machine.memory import DATA_BLOCK, Pointer
from ascreg.machine.mte import GM_TO_UB, UB_TO_GM, Burst, looped, plain_copy
from ascreg.machine.spr import MASK_SPR_INIT as MASK_SPR_INIT
from ascreg.machine.spr import MASK_SPR_STATE as MASK_SPR_STATE
from ascreg.machine.spr import write_mask_spr
from ascreg.machine.sync import (  # noqa: F401 (pipe_t / event_t: the examples here use them)
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
    PIPE_ALL,
    PIPE_FIX,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    Pipe,
)
from ascreg.machine.sysregs import SYSREGS_STATE, SystemRegisters, system_registers


class asc_load_l2_cache_mode(enum.IntEnum):
    """L2 cache policy of a GM -> UB copy (a performance hint; no effect on results).

    The ``l2_cache_mode`` argument of the burst form of :func:`asc_copy_gm2ub_align`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint32_t, 8); g.write(np.arange(8))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint32_t, 8)
    ...     asc_copy_gm2ub_align(u, g, 1, 32, 0, 0, False, asc_load_l2_cache_mode.NOTALLOC_KEEP, 0, 0)
    ...     asc_sync()
    ...     u.read(8).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7]
    """

    NORMAL_FIRST_VICTIM = 0
    NORMAL_LAST_VICTIM = 1
    NORMAL_PERSISTENT = 2
    NOTALLOC_KEEP = 4
    NOTALLOC_CLEAN = 5
    NOTALLOC_DROP = 6


class asc_store_l2_cache_mode(enum.IntEnum):
    """L2 cache policy of a UB -> GM copy (a performance hint; no effect on results).

    The ``l2_cache_mode`` argument of the burst form of :func:`asc_copy_ub2gm_align`.

    Examples
    --------
    >>> int(asc_store_l2_cache_mode.NOTALLOC_CLEAN), asc_store_l2_cache_mode(2).name
    (4, 'NORMAL_PERSISTENT')
    """

    NORMAL_FIRST_VICTIM = 0
    NORMAL_LAST_VICTIM = 1
    NORMAL_PERSISTENT = 2
    NOTALLOC_CLEAN = 4


ALIGN_COPY_TYPES = (int8_t, uint8_t, hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t, int16_t, uint16_t, half,
                    bfloat16_t, int32_t, uint32_t, float32_t)  # fmt: skip
"""Element types of ``asc_copy_gm2ub_align`` / ``asc_copy_ub2gm_align``."""
_ALIGN_COPY_SET = frozenset(ALIGN_COPY_TYPES)
PLAIN_SIZE_LIMIT = 1 << 16
"""dav-3510 forwards the size of ``asc_copy_gm2ub/ub2gm(dst, src, size)`` into a 16-bit burst
length, so a size of 64 KiB or more would be truncated: ascreg rejects it."""


def asc_init() -> None:
    """``asc_init()``: reset the core's modes at the start of a kernel.

    The copy pad value becomes 0, the mask SPR all ones (read by ``asc_get_mask_spr_*``) and
    the store-atomic mode none (``asc_set_atomic_none``).

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_init()
    """
    _ascreg_call = "asc_init"
    state = current_block().state
    state["pad_value"] = 0
    write_mask_spr(MASK_SPR_INIT)
    system_registers().atomic = None


def store_to_gm(dst: Any, src: Any, burst: Burst, call: str) -> None:
    """Run a UB -> GM copy under the block's copy loop registers (``asc_set_ub2gm_loop*``).

    The store-atomic mode (``asc_set_atomic_*``) applies inside the copy engine
    (:func:`ascreg.machine.mte.ub_to_gm`), as it does to every UB -> GM copy.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.c_api import asc_set_atomic_add_int
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(int32_t, 8); g.write(np.full(8, 5))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(int32_t, 8); u.write(np.arange(8, dtype=np.int32))
    ...     asc_sync()
    ...     asc_set_atomic_add_int(); store_to_gm(g, u, Burst(1, 32), "copy")
    >>> g.read(4).tolist()
    [5, 6, 7, 8]
    """
    looped(dst, src, burst, UB_TO_GM, call)


def load_from_gm(dst: Any, src: Any, burst: Burst, call: str) -> None:
    """Run a GM -> UB copy under the block's copy loop registers (``asc_set_gm2ub_loop*``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint8_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint8_t, 64); g.write(np.arange(64, dtype=np.uint8))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint8_t, 64); load_from_gm(u, g, Burst(1, 32), "copy"); asc_sync()
    ...     int(u.read(32)[31])
    31
    """
    looped(dst, src, burst, GM_TO_UB, call)


def asc_set_copy_pad_val(value: Any) -> None:
    """``asc_set_copy_pad_val(value)``: the constant used by padded GM -> UB copies.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     asc_set_copy_pad_val(7); ctx.state["pad_value"]
    7
    """
    _ascreg_call = "asc_set_copy_pad_val"
    current_block().state["pad_value"] = value


def _pointers(dst: Any, src: Any, into_ub: bool) -> None:
    """Raise unless both copy operands are pointers (a host numpy array explained)."""
    if not (isinstance(dst, Pointer) and isinstance(src, Pointer)):
        spaces = ("__ubuf__", "__gm__") if into_ub else ("__gm__", "__ubuf__")
        operands.device_pointer(dst, "dst", spaces[0])
        operands.device_pointer(src, "src", spaces[1])


def _typed_pair(dst: Any, src: Any) -> None:
    if (
        isinstance(dst, Pointer)
        and isinstance(src, Pointer)
        and dst.dtype is src.dtype
        and dst.dtype in _ALIGN_COPY_SET
    ):
        return  # the common case, where none of the checks below can fail
    for ptr in (dst, src):
        if isinstance(ptr, Pointer) and ptr.dtype not in ALIGN_COPY_TYPES:
            raise AscregTypeError(
                f"{ptr!r}: element type {ptr.dtype.cpp_name} is not one of "
                + ", ".join(t.cpp_name for t in ALIGN_COPY_TYPES)
            )
    if isinstance(dst, Pointer) and isinstance(src, Pointer) and dst.dtype is not src.dtype:
        raise AscregTypeError(
            f"dst is {dst.dtype.cpp_name}* but src is {src.dtype.cpp_name}* (one template T)"
        )


_SIZE_BURSTS: dict[tuple[int, int | None], Burst] = {}
"""The checked burst of each (size, limit) of a size form seen so far (bursts are frozen)."""


def _size(size: Any, limit: int | None = None) -> Burst:
    if type(size) is int:  # a plain int: its burst is checked once
        burst = _SIZE_BURSTS.get((size, limit))
        if burst is None:
            if len(_SIZE_BURSTS) >= 1024:
                _SIZE_BURSTS.clear()
            burst = _SIZE_BURSTS[size, limit] = _size_burst(size, limit)
        return burst
    return _size_burst(size, limit)


def _size_burst(size: Any, limit: int | None) -> Burst:
    if not isinstance(size, int) or size <= 0 or size % DATA_BLOCK:
        raise AscregError(f"size {size!r} must be a positive multiple of 32 bytes (size form)")
    if limit is not None and size >= limit:
        raise AscregError(
            f"size {size} does not fit the 16-bit burst length this form uses on dav-3510 "
            f"(< {limit}); use the _align form or the burst form"
        )
    return Burst(n_burst=1, len_burst=size)


def _forms(call: str, forms: dict[int, str], args: tuple[Any, ...]) -> None:
    if len(args) not in forms:
        shapes = " or ".join(f"(dst, src, {f})" for f in forms.values())
        raise AscregTypeError(f"takes {shapes}; got {len(args) + 2} arguments")


_OUT_BURSTS: dict[tuple[int, ...], Burst] = {}
"""The burst of each all-``int`` ``(n_burst, len_burst, l2_cache_mode, dst_stride, src_stride)``
of ``asc_copy_ub2gm_align`` seen so far (bursts are frozen values)."""


def _out_burst(args: tuple[Any, ...]) -> Burst:
    """Return the burst of ``asc_copy_ub2gm_align``'s burst form (the GM stride comes first)."""
    if all(type(a) is int for a in args):  # plain ints: one burst per distinct tuple
        burst = _OUT_BURSTS.get(args)
        if burst is None:
            if len(_OUT_BURSTS) >= 1024:
                _OUT_BURSTS.clear()
            burst = _OUT_BURSTS[args] = _out_burst_of(args)
        return burst
    return _out_burst_of(args)


def _out_burst_of(args: tuple[Any, ...]) -> Burst:
    n_burst, len_burst, _l2, dst_stride, src_stride = args
    return Burst(n_burst, len_burst, src_stride, dst_stride)


_PLAIN_FORMS: dict[tuple[Any, ...], Burst] = {}
"""The plain one-burst forms of ``asc_copy_gm2ub_align`` / ``asc_copy_ub2gm_align`` made in
full before: (direction, dst and src pointer classes and element types, argument types,
arguments) -> their burst. Every check of those calls but the addresses' (alignment, bounds,
hazards) depends on these alone, and so does the burst (a plain burst's pad value is never
used), so a known form goes straight to :func:`~ascreg.machine.mte.plain_copy`."""


def _form_of(direction: str, dst: Any, src: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return direction, type(dst), type(src), dst.dtype, src.dtype, tuple(map(type, args)), args


def _plain_copy(direction: str, dst: Any, src: Any, args: tuple[Any, ...], call: str) -> bool:
    """Make the copy if its form is a known plain one and the registers make it plain; True then.

    In a running block whose copy loop registers are at reset, as :func:`load_from_gm` /
    :func:`store_to_gm` find them before they make one plain burst (the copy engine applies
    the store-atomic mode itself).
    """
    try:
        burst = _PLAIN_FORMS.get(_form_of(direction, dst, src, args))
    except (AttributeError, TypeError):  # not pointers, or unhashable arguments
        return False
    ctx = running_block() if burst is not None else None
    if ctx is None:
        return False
    regs: SystemRegisters | None = ctx.state.get(SYSREGS_STATE)
    if regs is not None and regs.copy_loops[direction].sizes != (1, 1):
        return False
    assert burst is not None
    plain_copy(ctx, dst, src, burst, direction, call)
    return True


def _remember_plain(
    direction: str, dst: Any, src: Any, args: tuple[Any, ...], burst: Burst
) -> None:
    """Keep the form of a copy made in full if it is a plain one (see :data:`_PLAIN_FORMS`)."""
    if burst.plain and all(type(a) in (int, bool) for a in args):
        if len(_PLAIN_FORMS) >= 1024:
            _PLAIN_FORMS.clear()
        _PLAIN_FORMS[_form_of(direction, dst, src, args)] = burst


_GM2UB_FORMS = {
    1: "size",
    8: "n_burst, len_burst, left_pad, right_pad, constant_pad, l2_cache_mode, src_stride, dst_stride",
}
_UB2GM_FORMS = {1: "size", 5: "n_burst, len_burst, l2_cache_mode, dst_stride, src_stride"}


def asc_copy_gm2ub_align(dst: Any, src: Any, *args: Any) -> None:
    """``asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, size | burst...)`` (PIPE_MTE2).

    Size form: ``size`` bytes (a multiple of 32). Burst form: ``(n_burst, len_burst,
    left_padding_num, right_padding_num, enable_constant_pad, l2_cache_mode, src_stride,
    dst_stride)``: ``n_burst`` bursts of ``len_burst`` bytes, each padded in UB by that many
    elements (the ``asc_set_copy_pad_val`` constant, or the burst's first element).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint16_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint16_t, 16); g.write(np.arange(1, 17))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint16_t, 16)
    ...     asc_copy_gm2ub_align(u, g, 1, 6, 1, 1, False, 0, 0, 0)
    ...     asc_sync()
    ...     u.read(5).tolist()
    [1, 1, 2, 3, 1]
    """
    _ascreg_call = "asc_copy_gm2ub_align"
    if _plain_copy(GM_TO_UB, dst, src, args, _ascreg_call):
        return
    _pointers(dst, src, True)
    _forms(_ascreg_call, _GM2UB_FORMS, args)
    _typed_pair(dst, src)
    if len(args) == 1:
        burst = _size(args[0])
    else:
        n_burst, len_burst, left, right, constant, _l2, src_stride, dst_stride = args
        pad = current_block().state.get("pad_value", 0) if constant else None
        burst = Burst(n_burst, len_burst, src_stride, dst_stride, left, right, pad)
    load_from_gm(dst, src, burst, _ascreg_call)
    _remember_plain(GM_TO_UB, dst, src, args, burst)


def asc_copy_ub2gm_align(dst: Any, src: Any, *args: Any) -> None:
    """``asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, size | burst...)`` (PIPE_MTE3).

    Burst form: ``(n_burst, len_burst, l2_cache_mode, dst_stride, src_stride)`` -- note the GM
    stride comes first.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint32_t, 16)
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint32_t, 16); u.write(np.arange(16))
    ...     asc_sync_notify(PIPE_S, PIPE_MTE3, EVENT_ID0); asc_sync_wait(PIPE_S, PIPE_MTE3, EVENT_ID0)
    ...     asc_copy_ub2gm_align(g, u, 2, 8, 0, 12, 32)
    >>> g.read(6).tolist()
    [0, 1, 0, 8, 9, 0]
    """
    _ascreg_call = "asc_copy_ub2gm_align"
    if _plain_copy(UB_TO_GM, dst, src, args, _ascreg_call):
        return
    _pointers(dst, src, False)
    _forms(_ascreg_call, _UB2GM_FORMS, args)
    _typed_pair(dst, src)
    burst = _size(args[0]) if len(args) == 1 else _out_burst(args)
    store_to_gm(dst, src, burst, _ascreg_call)
    _remember_plain(UB_TO_GM, dst, src, args, burst)


def asc_copy_gm2ub(dst: Any, src: Any, *args: Any) -> None:
    """``asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, size | n_burst, len_burst, src_stride, dst_stride)``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint8_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint8_t, 64); g.write(np.arange(64))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint8_t, 64); asc_copy_gm2ub(u, g, 64)
    ...     asc_sync_notify(PIPE_MTE2, PIPE_S, EVENT_ID1); asc_sync_wait(PIPE_MTE2, PIPE_S, EVENT_ID1)
    ...     int(u.read(64)[63])
    63
    """
    _ascreg_call = "asc_copy_gm2ub"
    _pointers(dst, src, True)
    _forms(_ascreg_call, {1: "size", 4: "n_burst, len_burst, src_stride, dst_stride"}, args)
    burst = _size(args[0], PLAIN_SIZE_LIMIT) if len(args) == 1 else Burst(*args)
    load_from_gm(dst, src, burst, _ascreg_call)


def asc_copy_ub2gm(dst: Any, src: Any, *args: Any) -> None:
    """``asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, size | n_burst, len_burst, src_stride, dst_stride)``.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint8_t, 64)
    >>> with block(BlockContext()):
    ...     asc_copy_ub2gm(g, __ubuf__(uint8_t, 64), 65536)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: asc_copy_ub2gm: size 65536 does not fit the 16-bit burst length this form uses on dav-3510 (< 65536); use the _align form or the burst form
    """
    _ascreg_call = "asc_copy_ub2gm"
    _pointers(dst, src, False)
    _forms(_ascreg_call, {1: "size", 4: "n_burst, len_burst, src_stride, dst_stride"}, args)
    burst = _size(args[0], PLAIN_SIZE_LIMIT) if len(args) == 1 else Burst(*args)
    store_to_gm(dst, src, burst, _ascreg_call)


_SYNC_IN = """    ...     {name}(u, g, 32)
    ...     u.read(3).tolist()  # the scalar unit reads UB: no notify/wait needed
    [0, 1, 2]"""
_SYNC_OUT = """    ...     asc_copy_gm2ub_sync(u, g, 32)
    ...     {name}(out, u, 32)
    ...     u.write([0] * 8)  # overwrite the source: the copy is complete
    >>> out.read(3).tolist()
    [0, 1, 2]"""


def _then_barrier(copy: Callable[..., None], name: str) -> Callable[..., None]:
    def synced(dst: Any, src: Any, size: Any) -> None:
        _ascreg_call = name
        copy(dst, src, size)
        current_block().tracker.barrier()

    base = copy.__name__
    body = (_SYNC_IN if "gm2ub" in name else _SYNC_OUT).format(name=name)
    synced.__name__ = synced.__qualname__ = name
    synced.__doc__ = f"""``{name}(dst, src, uint32_t size)``: ``{base}`` (size form), then a
    ``PIPE_ALL`` barrier, so everything after it sees the copy complete.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g, out = GlobalMemory().alloc(uint32_t, 8), GlobalMemory().alloc(uint32_t, 8)
    >>> g.write(np.arange(8))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint32_t, 8)
{body}
    """
    return synced


def asc_sync_notify(src: Pipe, dst: Pipe, event: int) -> None:
    """``asc_sync_notify(pipe_t src, pipe_t dst, event_t id)``: set a flag (``set_flag``).

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0); asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    """
    _ascreg_call = "asc_sync_notify"
    current_block().tracker.notify(src, dst, event)


def asc_sync_wait(src: Pipe, dst: Pipe, event: int) -> None:
    """``asc_sync_wait(pipe_t src, pipe_t dst, event_t id)``: wait for a flag (``wait_flag``).

    A wait no earlier notify matches would hang the chip: it is a :class:`~ascreg.errors.SyncError`.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID1)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: asc_sync_wait: wait for flag (PIPE_V -> PIPE_MTE3, EVENT_ID1) that no earlier notify set: the kernel would hang on the chip
    """
    _ascreg_call = "asc_sync_wait"
    current_block().tracker.wait(src, dst, event)


def asc_sync() -> None:
    """``asc_sync()``: ``pipe_barrier(PIPE_ALL)``; every pipe's work so far completes.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync()
    """
    _ascreg_call = "asc_sync"
    current_block().tracker.barrier()


def asc_sync_pipe(pipe: Pipe) -> None:
    """``asc_sync_pipe(pipe)``: an in-pipe barrier (``PIPE_ALL``: the full barrier).

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync_pipe(PIPE_S)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: asc_sync_pipe: PIPE_S has no pipe barrier
    """
    _ascreg_call = "asc_sync_pipe"
    ctx = current_block()
    if pipe is PIPE_ALL:
        ctx.tracker.barrier()
    elif not isinstance(pipe, Pipe):
        raise SyncError(f"{pipe!r} is not a pipe_t (PIPE_V, PIPE_MTE2, ..., PIPE_ALL)")
    elif pipe is PIPE_S:
        raise SyncError("PIPE_S has no pipe barrier")
    else:
        ctx.tracker.pipe_barrier(pipe)


def asc_get_block_idx() -> int:
    """``asc_get_block_idx()``: the running block's index (``block_idx``).

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext(block_idx=5, block_num=8)):
    ...     asc_get_block_idx(), asc_get_block_num()
    (5, 8)
    """
    _ascreg_call = "asc_get_block_idx"
    return current_block().block_idx


def asc_get_block_num() -> int:
    """``asc_get_block_num()``: the launch's block count (``block_num``).

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext(block_idx=0, block_num=4)):
    ...     asc_get_block_num()
    4
    """
    _ascreg_call = "asc_get_block_num"
    return current_block().block_num


def asc_get_vf_len() -> int:
    """``asc_get_vf_len()``: bytes in a vector register, 256 on dav-3510.

    Examples
    --------
    >>> asc_get_vf_len()
    256
    """
    return get_vec_len()


asc_copy_gm2ub_sync = _then_barrier(asc_copy_gm2ub, "asc_copy_gm2ub_sync")
asc_copy_ub2gm_sync = _then_barrier(asc_copy_ub2gm, "asc_copy_ub2gm_sync")
asc_copy_gm2ub_align_sync = _then_barrier(asc_copy_gm2ub_align, "asc_copy_gm2ub_align_sync")
asc_copy_ub2gm_align_sync = _then_barrier(asc_copy_ub2gm_align, "asc_copy_ub2gm_align_sync")

# -- mutexes and barriers -------------------------------------------------------------------


class ascMutexExecuteMode(enum.IntEnum):
    """Whether ``asc_lock`` / ``asc_unlock`` block their pipe (``ASC_LOCK_BLOCK``, the default).

    Examples
    --------
    >>> int(ASC_LOCK_NON_BLOCK), ascMutexExecuteMode(0).name
    (1, 'ASC_LOCK_BLOCK')
    """

    ASC_LOCK_BLOCK = 0
    ASC_LOCK_NON_BLOCK = 1


ASC_LOCK_BLOCK, ASC_LOCK_NON_BLOCK = tuple(ascMutexExecuteMode)
"""The ``ascMutexExecuteMode`` constants under their C names."""


def _mode(mode: Any) -> bool:
    if not isinstance(mode, ascMutexExecuteMode):
        raise AscregTypeError(f"mode {mode!r} is not ASC_LOCK_BLOCK or ASC_LOCK_NON_BLOCK")
    return mode is ascMutexExecuteMode.ASC_LOCK_BLOCK


def asc_lock(pipe: Pipe, mutex_id: int, mode: ascMutexExecuteMode = ASC_LOCK_BLOCK) -> None:
    """``asc_lock(pipe_t pipe, uint8_t mutex_id[, mode])``: take mutex ``mutex_id`` (0..31).

    With ``ASC_LOCK_BLOCK``, *pipe* waits until every earlier ``asc_unlock`` of the same id has
    completed, so the work guarded by the previous holder is ordered before *pipe*'s. Each lock
    is followed by exactly one ``asc_unlock`` of the same id and mode, with no nesting; a lock
    still held when the kernel ends is a :class:`~ascreg.errors.SyncError`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> g = GlobalMemory().alloc(uint32_t, 8); g.write(np.arange(8))
    >>> with block(BlockContext()):
    ...     u = __ubuf__(uint32_t, 8)
    ...     asc_lock(PIPE_MTE2, 1); asc_copy_gm2ub_align(u, g, 32); asc_unlock(PIPE_MTE2, 1)
    ...     asc_lock(PIPE_MTE3, 1); asc_copy_ub2gm_align(g + 0, u, 32); asc_unlock(PIPE_MTE3, 1)
    ...     asc_lock(PIPE_V, 1); asc_lock(PIPE_V, 1)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: asc_lock: asc_lock(PIPE_V, 1) while mutex 1 is still locked by asc_lock(PIPE_V, 1): lock/unlock pairs of one id must not nest
    """
    _ascreg_call = "asc_lock"
    current_block().tracker.lock(pipe, mutex_id, blocking=_mode(mode))


def asc_unlock(pipe: Pipe, mutex_id: int, mode: ascMutexExecuteMode = ASC_LOCK_BLOCK) -> None:
    """``asc_unlock(pipe_t pipe, uint8_t mutex_id[, mode])``: release mutex ``mutex_id``.

    The release happens once *pipe*'s work issued so far is complete. An unlock without an
    earlier lock of the id, or with another mode than that lock, is a
    :class:`~ascreg.errors.SyncError`.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_unlock(PIPE_V, 3)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: asc_unlock: asc_unlock(PIPE_V, 3) without an earlier asc_lock of mutex 3 (lock and unlock are strictly paired, the lock first)
    """
    _ascreg_call = "asc_unlock"
    current_block().tracker.unlock(pipe, mutex_id, blocking=_mode(mode))


class mem_dsb_t(enum.IntEnum):
    """The memory an ``asc_sync_data_barrier`` waits for (``mem_dsb_t::DSB_UB`` is ``mem_dsb_t.DSB_UB``).

    ``DSB_ALL``: every memory access, ``DSB_DDR``: GM, ``DSB_UB``: UB; ``DSB_SEQ`` is reserved.
    The numeric values come from the compiler and are not published (these are placeholders).

    Examples
    --------
    >>> mem_dsb_t.DSB_UB.name
    'DSB_UB'
    """

    DSB_ALL = 0
    DSB_DDR = 1
    DSB_UB = 2
    DSB_SEQ = 3


def asc_sync_data_barrier(arg: mem_dsb_t) -> None:
    """``asc_sync_data_barrier(mem_dsb_t arg)``: the scalar unit waits for its memory accesses.

    ascreg runs the scalar unit's accesses in program order, so this is a functional no-op; it
    adds no ordering between pipes (that needs notify/wait, a lock or a barrier). The argument
    is checked: ``DSB_SEQ`` is reserved and rejected.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync_data_barrier(mem_dsb_t.DSB_UB)
    ...     asc_sync_data_barrier(mem_dsb_t.DSB_SEQ)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_sync_data_barrier: DSB_SEQ is reserved (not enabled yet); use DSB_ALL, DSB_DDR or DSB_UB
    """
    _ascreg_call = "asc_sync_data_barrier"
    current_block()
    if not isinstance(arg, mem_dsb_t):
        raise AscregTypeError(f"{arg!r} is not a mem_dsb_t (mem_dsb_t.DSB_ALL/DSB_DDR/DSB_UB)")
    if arg is mem_dsb_t.DSB_SEQ:
        raise AscregTypeError(
            "DSB_SEQ is reserved (not enabled yet); use DSB_ALL, DSB_DDR or DSB_UB"
        )


class MEM_TYPE(enum.IntEnum):
    """``asc_mem_bar`` kinds: which in-VF UB stream waits for which (source_destination).

    V = vector, S = scalar; LD/VLD = load (read UB), ST/VST = store (write UB), ALL = both. The
    numeric values come from the compiler and are not published (these are placeholders).

    Examples
    --------
    >>> MEM_TYPE.VST_VLD.name, len(MEM_TYPE)
    ('VST_VLD', 16)
    """

    VV_ALL = 0
    VST_VLD = 1
    VLD_VST = 2
    VST_VST = 3
    VS_ALL = 4
    VST_LD = 5
    VLD_ST = 6
    VST_ST = 7
    SV_ALL = 8
    ST_VLD = 9
    LD_VST = 10
    ST_VST = 11
    SS_ALL = 12
    ST_LD = 13
    LD_ST = 14
    ST_ST = 15


(VV_ALL, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST, SV_ALL, ST_VLD, LD_VST,
 ST_VST, SS_ALL, ST_LD, LD_ST, ST_ST) = tuple(MEM_TYPE)  # fmt: skip
"""The ``MEM_TYPE`` constants under their C names."""


_STORE_TO_LOAD = frozenset((VV_ALL, VST_VLD, VS_ALL, VST_LD, SV_ALL, ST_VLD, SS_ALL, ST_LD))
"""The ``MEM_TYPE`` kinds that order earlier stores before later loads inside a VF (ascreg
does not tell a VF's scalar accesses from its vector ones, so any store-to-load kind counts)."""


def asc_mem_bar(mem_type: MEM_TYPE) -> None:
    """``asc_mem_bar(MEM_TYPE mem_type)``: inside a VF, one UB access stream waits for another.

    Inside a kernel's ``__simd_vf__``, a load of UB bytes the same VF stored earlier is a
    :class:`~ascreg.errors.SyncError` unless a store-to-load kind (``VST_VLD``, ``VV_ALL``,
    ``ST_LD``, ...) ran in between. It checks that ``mem_type`` is a ``MEM_TYPE`` and, inside a
    kernel, that it runs in a ``__simd_vf__`` function.

    Examples
    --------
    >>> asc_mem_bar(VST_VLD)
    >>> asc_mem_bar("VST_VLD")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_mem_bar: 'VST_VLD' is not a MEM_TYPE (VV_ALL, VST_VLD, ..., ST_ST)
    """
    _ascreg_call = "asc_mem_bar"
    if not isinstance(mem_type, MEM_TYPE):
        raise AscregTypeError(f"{mem_type!r} is not a MEM_TYPE (VV_ALL, VST_VLD, ..., ST_ST)")
    ctx = running_block()
    if ctx is not None and ctx.pipe is not Pipe.PIPE_V:
        raise SyncError(
            "asc_mem_bar orders UB streams inside a __simd_vf__ function; between pipes of the "
            "scalar code use asc_sync_notify/asc_sync_wait or asc_sync_pipe"
        )
    if ctx is not None and mem_type in _STORE_TO_LOAD:
        ctx.mem_bar()


QUALIFIERS = (__aicore__, __global__, __simd_callee__, __simd_vf__, __ubuf__, __vector__)
"""The function and space qualifiers, re-exported with the C API."""
BUILTINS = (block_idx, block_num)
"""The built-in variables, re-exported with the C API."""

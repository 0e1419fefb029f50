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
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.kernel import (
    __aicore__,
    __global__,
    __simd_callee__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    block_idx,
    block_num,
    current_block,
    get_vec_len,
    vf_call,
)
from ascreg.machine.memory import DATA_BLOCK, Pointer
from ascreg.machine.mte import Burst, gm_to_ub, ub_to_gm
from ascreg.machine.sync import Pipe

PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = tuple(Pipe)
"""The ``pipe_t`` constants."""
# event_t: one assignment each, as a constant's docs page reads the string right after it.
EVENT_ID0 = 0
"""``event_t`` id 0 of the eight (``EVENT_ID0`` .. ``EVENT_ID7``); a (source pipe, destination
pipe, id) triple names one flag of :func:`asc_sync_notify` / :func:`asc_sync_wait`."""
EVENT_ID1 = 1
"""``event_t`` id 1 (see :data:`EVENT_ID0`)."""
EVENT_ID2 = 2
"""``event_t`` id 2 (see :data:`EVENT_ID0`)."""
EVENT_ID3 = 3
"""``event_t`` id 3 (see :data:`EVENT_ID0`)."""
EVENT_ID4 = 4
"""``event_t`` id 4 (see :data:`EVENT_ID0`)."""
EVENT_ID5 = 5
"""``event_t`` id 5 (see :data:`EVENT_ID0`)."""
EVENT_ID6 = 6
"""``event_t`` id 6 (see :data:`EVENT_ID0`)."""
EVENT_ID7 = 7
"""``event_t`` id 7, the last (see :data:`EVENT_ID0`)."""


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
PLAIN_SIZE_LIMIT = 1 << 16
"""dav-3510 forwards the size of ``asc_copy_gm2ub/ub2gm(dst, src, size)`` into a 16-bit burst
length, so a size of 64 KiB or more would be truncated: ascreg rejects it."""


def asc_init() -> None:
    """``asc_init()``: reset the core's modes (the copy pad value) at the start of a kernel.

    Examples
    --------
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_init()
    """
    _ascreg_call = "asc_init"
    current_block().state["pad_value"] = 0


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


def _typed_pair(dst: Any, src: Any) -> None:
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


def _size(size: Any, limit: int | None = None) -> Burst:
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
    ...     u.read(6).tolist()
    [1, 1, 2, 3, 1, 0]
    """
    _ascreg_call = "asc_copy_gm2ub_align"
    _forms(
        _ascreg_call,
        {
            1: "size",
            8: "n_burst, len_burst, left_pad, right_pad, constant_pad, l2_cache_mode, src_stride, dst_stride",
        },
        args,
    )
    _typed_pair(dst, src)
    if len(args) == 1:
        burst = _size(args[0])
    else:
        n_burst, len_burst, left, right, constant, _l2, src_stride, dst_stride = args
        pad = current_block().state.get("pad_value", 0) if constant else None
        burst = Burst(n_burst, len_burst, src_stride, dst_stride, left, right, pad)
    gm_to_ub(dst, src, burst, _ascreg_call)


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
    _forms(
        _ascreg_call,
        {1: "size", 5: "n_burst, len_burst, l2_cache_mode, dst_stride, src_stride"},
        args,
    )
    _typed_pair(dst, src)
    if len(args) == 1:
        burst = _size(args[0])
    else:
        n_burst, len_burst, _l2, dst_stride, src_stride = args
        burst = Burst(n_burst, len_burst, src_stride, dst_stride)
    ub_to_gm(dst, src, burst, _ascreg_call)


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
    _forms(_ascreg_call, {1: "size", 4: "n_burst, len_burst, src_stride, dst_stride"}, args)
    burst = _size(args[0], PLAIN_SIZE_LIMIT) if len(args) == 1 else Burst(*args)
    gm_to_ub(dst, src, burst, _ascreg_call)


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
    _forms(_ascreg_call, {1: "size", 4: "n_burst, len_burst, src_stride, dst_stride"}, args)
    burst = _size(args[0], PLAIN_SIZE_LIMIT) if len(args) == 1 else Burst(*args)
    ub_to_gm(dst, src, burst, _ascreg_call)


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
    elif not isinstance(pipe, Pipe) or pipe is PIPE_S:
        raise SyncError(f"{getattr(pipe, 'name', pipe)} has no pipe barrier")


class VfCall:
    """``asc_vf_call<f>(args...)`` written ``asc_vf_call[f](args...)``.

    ``f`` must be a ``__simd_vf__`` function, or a ``__simt_vf__`` one started with a ``dim3``
    thread count first: ``asc_vf_call[f](dim3(1024), args...)``.

    Examples
    --------
    >>> from ascreg.machine.kernel import __simd_vf__, BlockContext, block
    >>> @__simd_vf__
    ... def vf(n: int) -> None: print("vf", n)
    >>> with block(BlockContext()):
    ...     asc_vf_call[vf](3)
    vf 3
    """

    def __getitem__(self, func: Callable[..., Any]) -> Callable[..., None]:
        def call(*args: Any) -> None:
            vf_call(func, args, f"asc_vf_call<{getattr(func, '__name__', func)}>")

        return call

    def __repr__(self) -> str:
        return "asc_vf_call"


asc_vf_call = VfCall()
"""``asc_vf_call<f>(args...)``, written ``asc_vf_call[f](args...)``: run the VF ``f``.

``f`` is a ``__simd_vf__`` function, or a ``__simt_vf__`` one started with a ``dim3`` thread
count first (``asc_vf_call[f](dim3(1024), args...)``).

Examples
--------
>>> from ascreg.machine.kernel import __simd_vf__, BlockContext, block
>>> @__simd_vf__
... def vf(n: int) -> None: print("vf", n)
>>> with block(BlockContext()):
...     asc_vf_call[vf](3)
vf 3
"""


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


QUALIFIERS = (__aicore__, __global__, __simd_callee__, __simd_vf__, __ubuf__, __vector__)
"""The function and space qualifiers, re-exported with the C API."""
BUILTINS = (block_idx, block_num)
"""The built-in variables, re-exported with the C API."""

"""The DMA of a C API kernel: UB -> UB copies, copy loops and the n-dimensional GM -> UB copy.

``asc_copy_ub2ub`` runs on ``PIPE_V``; ``asc_set_gm2ub_loop*`` / ``asc_set_ub2gm_loop*`` repeat
the GM <-> UB copies of ``ascreg.c_api.kernel``; ``asc_ndim_copy_gm2ub`` copies up to five
dimensions with padding, configured by ``asc_set_ndim_*`` (``asc_ndim_copy_dci``: its cache
invalidate, no effect here). ``asc_copy_ub2l1[_sync]`` (UB to the cube's L1) raise
:class:`~ascreg.errors.UnsupportedError`: ascreg has no cube unit.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.c_api import *
>>> from ascreg.machine.kernel import BlockContext, block
>>> total_length = 128
>>> with block(BlockContext()):
...     src, dst = __ubuf__(half, total_length), __ubuf__(half, total_length)
...     src.write(np.arange(total_length, dtype=np.float16)); asc_sync()
...     asc_copy_ub2ub(dst, src, total_length * half.size)
...     asc_sync_vec()
...     dst.read(4).tolist()
[0.0, 1.0, 2.0, 3.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.mte import NdimLoop, ndim_gm_to_ub, ub_to_ub
from ascreg.machine.sysregs import (
    COPY_LOOP_GM_STRIDE_LIMIT,
    COPY_LOOP_SIZE_LIMIT,
    COPY_LOOP_UB_STRIDE_LIMIT,
    NDIM,
    system_registers,
)

__all__ = [
    "asc_copy_ub2l1",
    "asc_copy_ub2l1_sync",
    "asc_copy_ub2ub",
    "asc_copy_ub2ub_sync",
    "asc_ndim_copy_dci",
    "asc_ndim_copy_gm2ub",
    "asc_ndim_pad_count_config",
    "asc_set_gm2ub_loop1_stride",
    "asc_set_gm2ub_loop2_stride",
    "asc_set_gm2ub_loop_size",
    "asc_set_ndim_loop0_stride",
    "asc_set_ndim_loop1_stride",
    "asc_set_ndim_loop2_stride",
    "asc_set_ndim_loop3_stride",
    "asc_set_ndim_loop4_stride",
    "asc_set_ndim_pad_count",
    "asc_set_ndim_pad_value",
    "asc_set_ub2gm_loop1_stride",
    "asc_set_ub2gm_loop2_stride",
    "asc_set_ub2gm_loop_size",
]

UINT16_MAX = (1 << 16) - 1


def _size_blocks(size: Any) -> int:
    nbytes = operands.in_range(size, "size", DATA_BLOCK, (1 << 32) - 1)
    if nbytes % DATA_BLOCK:
        raise AscregTypeError(f"size {nbytes} must be a multiple of 32 bytes")
    return nbytes // DATA_BLOCK


@define("asc_copy_ub2ub")
def asc_copy_ub2ub(op: Any, *args: Any) -> None:
    """``asc_copy_ub2ub(dst, src, size | n_burst, len_burst, src_gap, dst_gap)``: UB to UB.

    Size form: the first ``size`` bytes (a multiple of 32). Burst form: ``n_burst`` bursts of
    ``len_burst`` 32-byte blocks; ``src_gap`` / ``dst_gap`` are the blocks between the tail of
    one burst and the head of the next. The copy runs on ``PIPE_V``: order it after the UB
    writes it reads (and its readers after it) with notify/wait or a barrier.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint32_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b = __ubuf__(uint32_t, 32), __ubuf__(uint32_t, 32)
    ...     a.write(np.arange(32, dtype=np.uint32)); b.write(np.zeros(32, np.uint32)); asc_sync()
    ...     asc_copy_ub2ub(b, a, 2, 1, 1, 1)
    ...     asc_sync_vec()
    ...     b.read(32)[[0, 8, 16]].tolist()
    [0, 0, 16]
    """
    dst, src, *rest = args if len(args) >= 2 else (*args, None, None)
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
    current_block()
    args = tuple(rest)
    if len(args) == 1:
        ub_to_ub(dst, src, 1, _size_blocks(args[0]), (0, 0), op.name)
    elif len(args) == 4:
        n_burst, len_burst, src_gap, dst_gap = (
            operands.in_range(value, role, 0, UINT16_MAX)
            for value, role in zip(
                args, ("n_burst", "len_burst", "src_gap", "dst_gap"), strict=True
            )
        )
        ub_to_ub(dst, src, n_burst, len_burst, (src_gap, dst_gap), op.name)
    else:
        raise AscregTypeError(
            f"takes (dst, src, size) or (dst, src, n_burst, len_burst, src_gap, dst_gap); "
            f"got {len(args) + 2} arguments"
        )


@define("asc_copy_ub2ub_sync")
def asc_copy_ub2ub_sync(op: Any, dst: Any, src: Any, size: Any) -> None:
    """``asc_copy_ub2ub_sync(dst, src, uint32_t size)``: the size form, then ``PIPE_ALL`` barrier.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint8_t
    >>> from ascreg.c_api import __ubuf__, asc_sync
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b = __ubuf__(uint8_t, 32), __ubuf__(uint8_t, 32)
    ...     a.write(np.full(32, 7, np.uint8)); asc_sync()
    ...     asc_copy_ub2ub_sync(b, a, 32)
    ...     int(b.read(32).sum())  # no wait needed: the copy is complete
    224
    """
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
    ub_to_ub(dst, src, 1, _size_blocks(size), (0, 0), op.name)
    current_block().tracker.barrier()


# ---- GM <-> UB copy loops --------------------------------------------------------------------

_LOOP_SIZE_LIMIT = COPY_LOOP_SIZE_LIMIT
_GM_STRIDE_LIMIT = COPY_LOOP_GM_STRIDE_LIMIT
_UB_STRIDE_LIMIT = COPY_LOOP_UB_STRIDE_LIMIT


def _set_loop_size(op: Any, loop1_size: Any, loop2_size: Any) -> None:
    loops = system_registers().copy_loops[op.direction]
    sizes = (operands.in_range(loop1_size, "loop1_size", 0, _LOOP_SIZE_LIMIT - 1),
             operands.in_range(loop2_size, "loop2_size", 0, _LOOP_SIZE_LIMIT - 1))  # fmt: skip
    loops.sizes = sizes


def _set_loop_stride(op: Any, *strides: Any) -> None:
    """Check and store loop ``op.loop``'s strides (the UB side: below 2**21, 32-byte aligned)."""
    if len(strides) != 2:
        raise AscregTypeError(f"takes (loop{op.loop}_src_stride, loop{op.loop}_dst_stride)")
    src_stride, dst_stride = strides
    loops = system_registers().copy_loops[op.direction]
    ub_first = op.direction == "ub2gm"
    limits = (
        (_UB_STRIDE_LIMIT, _GM_STRIDE_LIMIT) if ub_first else (_GM_STRIDE_LIMIT, _UB_STRIDE_LIMIT)
    )
    names = (f"loop{op.loop}_src_stride", f"loop{op.loop}_dst_stride")
    src, dst = (operands.in_range(v, n, 0, limit - 1)
                for v, n, limit in zip((src_stride, dst_stride), names, limits, strict=True))  # fmt: skip
    ub_stride = src if ub_first else dst
    if ub_stride % DATA_BLOCK:
        raise AscregTypeError(f"the UB stride {ub_stride} must be a multiple of 32 bytes")
    index = op.loop - 1
    loops.src_strides = tuple(src if i == index else v for i, v in enumerate(loops.src_strides))  # type: ignore[assignment]
    loops.dst_strides = tuple(dst if i == index else v for i, v in enumerate(loops.dst_strides))  # type: ignore[assignment]


def _loop_doc(name: str, direction: str, what: str) -> str:
    copies = (
        "GM -> UB (``asc_copy_gm2ub*``)"
        if direction == "gm2ub"
        else "UB -> GM (``asc_copy_ub2gm*``)"
    )
    return f"""``{name}``: {what} of the {copies} copy loops.

    A copy repeats ``loop2_size`` x ``loop1_size`` times, each repetition offset by the loops'
    byte strides (``ascreg.machine.sysregs.CopyLoops``); set the sizes back to ``(1, 1)`` after
    use, as the documentation asks.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, int8_t
    >>> from ascreg.c_api import *
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> src = GlobalMemory().alloc(int8_t, 384); src.write(np.arange(384).astype(np.int8))
    >>> with block(BlockContext()):
    ...     dst = __ubuf__(int8_t, 512); dst.write(np.zeros(512, np.int8)); asc_sync()
    ...     asc_set_gm2ub_loop_size(2, 2)
    ...     asc_set_gm2ub_loop1_stride(96, 128)
    ...     asc_set_gm2ub_loop2_stride(192, 288)
    ...     asc_copy_gm2ub_align(dst, src, 2, 48, 0, 0, False, asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM, 48, 48)
    ...     asc_set_gm2ub_loop_size(1, 1)
    ...     asc_sync()
    ...     dst.read(512)[[0, 128, 288, 416]].tolist()
    [0, 96, -64, 32]
    """


def _loop_function(direction: str, kind: str) -> Any:
    if kind == "size":
        name = f"asc_set_{direction}_loop_size"
        return define(name, doc=_loop_doc(name, direction, "set the repetition counts"),
                      direction=direction)(_set_loop_size)  # fmt: skip
    name = f"asc_set_{direction}_loop{kind}_stride"
    what = f"set the loop-{kind} byte strides (source, destination)"
    return define(name, doc=_loop_doc(name, direction, what), direction=direction,
                  loop=int(kind))(_set_loop_stride)  # fmt: skip


(asc_set_gm2ub_loop_size, asc_set_gm2ub_loop1_stride, asc_set_gm2ub_loop2_stride,
 asc_set_ub2gm_loop_size, asc_set_ub2gm_loop1_stride, asc_set_ub2gm_loop2_stride) = (
    _loop_function(direction, kind) for direction in ("gm2ub", "ub2gm")
    for kind in ("size", "1", "2")
)  # fmt: skip

# ---- n-dimensional GM -> UB copy -------------------------------------------------------------

_NDIM_DST_STRIDE_LIMIT = 1 << 20
_NDIM_SRC_STRIDE_LIMIT = 1 << 40


def _set_ndim_stride(op: Any, dst_stride: Any, src_stride: Any) -> None:
    dst = operands.in_range(dst_stride, "dst_stride", 0, _NDIM_DST_STRIDE_LIMIT - 1)
    src = operands.in_range(src_stride, "src_stride", 0, _NDIM_SRC_STRIDE_LIMIT - 1)
    system_registers().ndim.strides[op.loop] = (dst, src)


def _ndim_stride_doc(loop: int) -> str:
    return f"""``asc_set_ndim_loop{loop}_stride(uint64_t dst_stride, uint64_t src_stride)``: loop {loop}'s strides.

    In elements, for :func:`asc_ndim_copy_gm2ub` (both 0 until set).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_ndim_loop{loop}_stride(6, 3)
    """


(asc_set_ndim_loop0_stride, asc_set_ndim_loop1_stride, asc_set_ndim_loop2_stride,
 asc_set_ndim_loop3_stride, asc_set_ndim_loop4_stride) = (
    define(f"asc_set_ndim_loop{n}_stride", doc=_ndim_stride_doc(n), loop=n)(_set_ndim_stride)
    for n in range(NDIM)
)  # fmt: skip


def _pad_count_field(shift: int) -> property:
    def get(self: asc_ndim_pad_count_config) -> int:
        return self.config >> shift & 0xFF

    def put(self: asc_ndim_pad_count_config, value: int) -> None:
        count = operands.in_range(value, "pad count", 0, 0xFF)
        self.config = self.config & ~(0xFF << shift) | count << shift

    return property(get, put, doc=f"Bits {shift}..{shift + 7} of ``config``.")


class asc_ndim_pad_count_config:
    """``union asc_ndim_pad_count_config``: the left/right pad counts of loops 1-4, one byte each.

    ``loop1_lp_count`` is the lowest byte of ``config``, then ``loop1_rp_count``,
    ``loop2_lp_count``, ... ``loop4_rp_count``.

    Examples
    --------
    >>> cfg = asc_ndim_pad_count_config()
    >>> cfg.loop1_lp_count = 2; cfg.loop1_rp_count = 3
    >>> hex(cfg.config)
    '0x302'
    """

    loop1_lp_count = _pad_count_field(0)
    loop1_rp_count = _pad_count_field(8)
    loop2_lp_count = _pad_count_field(16)
    loop2_rp_count = _pad_count_field(24)
    loop3_lp_count = _pad_count_field(32)
    loop3_rp_count = _pad_count_field(40)
    loop4_lp_count = _pad_count_field(48)
    loop4_rp_count = _pad_count_field(56)

    def __init__(self, config: int = 0) -> None:
        self.config = config


@define("asc_set_ndim_pad_count")
def asc_set_ndim_pad_count(op: Any, config: Any) -> None:
    """``asc_set_ndim_pad_count(asc_ndim_pad_count_config& config)``: pads of loops 1-4.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> cfg = asc_ndim_pad_count_config(); cfg.loop1_lp_count = 2
    >>> with block(BlockContext()):
    ...     asc_set_ndim_pad_count(cfg)
    """
    system_registers().ndim.pad_counts = operands.instance(
        config, asc_ndim_pad_count_config, "config"
    ).config


@define("asc_set_ndim_pad_value")
def asc_set_ndim_pad_value(op: Any, pad_value: Any) -> None:
    """``asc_set_ndim_pad_value(T pad_value)``: the constant of a constant-padded n-d copy.

    The C overloads (int8_t ... float) are one Python function: the number converts to the
    copy's element type when the copy runs.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_ndim_pad_value(88.0)
    """
    if isinstance(pad_value, bool) or not isinstance(pad_value, int | float | np.number):
        raise AscregTypeError(f"pad_value must be a number, got {pad_value!r:.40}")
    system_registers().ndim.pad_value = pad_value


@define("asc_ndim_copy_gm2ub")
def asc_ndim_copy_gm2ub(
    op: Any,
    dst: Any,
    src: Any,
    loop0_size: Any,
    loop1_size: Any,
    loop2_size: Any,
    loop3_size: Any,
    loop4_size: Any,
    loop0_lp_count: Any,
    loop0_rp_count: Any,
    padding_mode: Any,
    l2_cache_mode: Any,
) -> None:
    """``asc_ndim_copy_gm2ub(dst, src, loop0_size, ..., loop4_size, loop0_lp_count, loop0_rp_count, padding_mode, l2_cache_mode)``.

    The ``PIPE_MTE2`` copy of up to five dimensions (``ascreg.machine.mte.ndim_gm_to_ub``): the
    strides come from ``asc_set_ndim_loop<i>_stride``, the pads of loops 1-4 from
    ``asc_set_ndim_pad_count``; ``padding_mode`` true pads with ``asc_set_ndim_pad_value``'s
    constant, false with each dimension's nearest element. ``l2_cache_mode`` is a hint.

    Examples
    --------
    The page's 2-D example: a 4 x 3 block padded to 9 x 6 with 88.

    >>> import numpy as np
    >>> from ascreg import GlobalMemory, half
    >>> from ascreg.c_api import *
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> src = GlobalMemory().alloc(half, 12); src.write(np.arange(12, dtype=np.float16))
    >>> with block(BlockContext()):
    ...     dst = __ubuf__(half, 64)
    ...     asc_set_ndim_loop0_stride(1, 1); asc_set_ndim_loop1_stride(6, 3)
    ...     asc_set_ndim_pad_value(88.0)
    ...     cfg = asc_ndim_pad_count_config(); cfg.loop1_lp_count = 2; cfg.loop1_rp_count = 3
    ...     asc_set_ndim_pad_count(cfg)
    ...     asc_ndim_copy_gm2ub(dst, src, 3, 4, 1, 1, 1, 2, 1, True, asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM)
    ...     asc_sync()
    ...     dst.read(54).reshape(9, 6)[1:4].tolist()
    [[88.0, 88.0, 88.0, 88.0, 88.0, 88.0], [88.0, 88.0, 0.0, 1.0, 2.0, 88.0], [88.0, 88.0, 3.0, 4.0, 5.0, 88.0]]
    """
    current_block()
    operands.instance(dst, UbPtr, "dst")
    op.spec.check(dst.dtype, *op.spec.combos[0][1:])
    if not isinstance(padding_mode, bool | np.bool_):
        raise AscregTypeError(f"padding_mode must be a bool, got {padding_mode!r:.40}")
    operands.integer(l2_cache_mode, "l2_cache_mode")
    regs = system_registers().ndim
    sizes = (loop0_size, loop1_size, loop2_size, loop3_size, loop4_size)
    pads = [(loop0_lp_count, loop0_rp_count), *(regs.pads(n) for n in range(1, NDIM))]
    loops = tuple(
        NdimLoop(
            operands.integer(size, f"loop{n}_size"),
            operands.in_range(left, f"loop{n}_lp_count", 0, 255),
            operands.in_range(right, f"loop{n}_rp_count", 0, 255),
            *regs.strides[n],
        )
        for n, (size, (left, right)) in enumerate(zip(sizes, pads, strict=True))
    )
    ndim_gm_to_ub(dst, src, loops, regs.pad_value if padding_mode else None, op.name)


@define("asc_ndim_copy_dci")
def asc_ndim_copy_dci(op: Any) -> None:
    """``asc_ndim_copy_dci()``: invalidate the data cache of the n-dimensional copy engine.

    Declared in ``c_api/vector_datamove/vector_datamove.h`` ("N-dimensional copy with DCI", the
    CANN 9.1.0 release notes); on a vector core it issues the copy engine's cache invalidate.
    ascreg has no data cache (``asc_ndim_copy_gm2ub`` reads GM directly), so it changes nothing;
    like the other cache controls (``asc_dci``) it is a kernel-level call of a running block.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_ndim_copy_dci()
    """
    current_block()


_NO_L1 = (
    "needs the cube unit's L1 buffer (__cbuf__), which ascreg does not emulate yet (the cube "
    "is outside ascreg's scope; see docs/limitations.md)"
)


def _ub_to_l1(op: Any, *args: Any) -> None:
    """``asc_copy_ub2l1``: the L1 buffer is the cube's, which ascreg lacks (an error)."""
    current_block()
    raise UnsupportedError(f"copying UB -> L1 {_NO_L1}", call=op.name)


def _ub_to_l1_sync(op: Any, dst: Any, src: Any, size: Any) -> None:
    """``asc_copy_ub2l1_sync``: as :func:`_ub_to_l1`."""
    _ub_to_l1(op, dst, src, size)


_UB2L1_DOC = """``{name}(__cbuf__ void* dst, __ubuf__ void* src, {params})``: UB to L1 ({pipe}).

The destination is the cube unit's L1 buffer, which ascreg does not emulate: the call raises
:class:`~ascreg.errors.UnsupportedError` ("needs the cube unit") rather than copy anywhere.

Examples
--------
>>> from ascreg import uint8_t
>>> from ascreg.c_api import __ubuf__
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     {name}(None, __ubuf__(uint8_t, 64), 64)
Traceback (most recent call last):
...
ascreg.errors.UnsupportedError: {name}: copying UB -> L1 needs the cube unit's L1 buffer ...
"""

asc_copy_ub2l1 = define(
    "asc_copy_ub2l1",
    doc=_UB2L1_DOC.format(
        name="asc_copy_ub2l1",
        params="uint32_t size | uint16_t n_burst, len_burst, src_gap, dst_gap",
        pipe="PIPE_MTE3",
    ),
)(_ub_to_l1)
asc_copy_ub2l1_sync = define(
    "asc_copy_ub2l1_sync",
    doc=_UB2L1_DOC.format(
        name="asc_copy_ub2l1_sync", params="uint32_t size", pipe="PIPE_MTE3, then waits"
    ),
)(_ub_to_l1_sync)

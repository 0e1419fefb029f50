"""Memory-level vector functions of the C API that dav-3510 keeps (UB in, UB out, ``PIPE_V``).

They are called from the kernel body, like the copies: order their UB accesses against the
other pipes with notify/wait or a barrier. ``asc_transpose`` transposes one 16 x 16 block of
16-bit elements (``ascreg.core.transpose``); ``asc_bitsort`` sorts (score, index) pairs into
region proposals and ``asc_mrgsort4`` merges up to four sorted queues of them
(``ascreg.core.sort``); ``asc_transto5hd_b8/_b16/_b32`` gather 16 data blocks position by
position (NCHW -> NC1HWC0) through the VA address registers ``asc_set_va_reg`` fills.

Examples
--------
>>> import numpy as np
>>> from ascreg import int16_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.kernel import BlockContext, block
>>> total_length = 256
>>> with block(BlockContext()):
...     dst, src = __ubuf__(int16_t, total_length), __ubuf__(int16_t, total_length)
...     src.write(np.arange(total_length, dtype=np.int16)); asc_sync()
...     asc_transpose_sync(dst, src)
...     dst.read(3).tolist()
[0, 16, 32]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg.c_api.vareg import ub_addr8_t
from ascreg.core.sort import RECORD_BYTES, SORT_GROUP, bitsort32, merge_queues
from ascreg.core.transpose import SIDE, to_5hd, transpose16
from ascreg.errors import AscregTypeError, UninitializedRegisterError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.sync import Pipe
from ascreg.machine.sysregs import VA_REGISTERS, system_registers

__all__ = [
    "ASC_C_API_MRGSORT_ELEMENT_LEN",
    "asc_bitsort",
    "asc_bitsort_sync",
    "asc_mrgsort4",
    "asc_mrgsort4_sync",
    "asc_set_va_reg",
    "asc_transpose",
    "asc_transpose_sync",
    "asc_transto5hd_b8",
    "asc_transto5hd_b8_sync",
    "asc_transto5hd_b16",
    "asc_transto5hd_b16_sync",
    "asc_transto5hd_b32",
    "asc_transto5hd_b32_sync",
]


def _transpose(op: Any, dst: Any, src: Any) -> None:
    ctx = current_block()
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
        ptr.require_alignment(DATA_BLOCK, f"{role} must be 32-byte aligned ({op.name})")
    op.spec.check(dst.dtype)
    if src.dtype is not dst.dtype:
        raise AscregTypeError(f"dst is {dst!r} but src is {src!r} (one element type)")
    with ctx.on_pipe(Pipe.PIPE_V):
        block = transpose16(src.view(SIDE * SIDE))
        dst.view(SIDE * SIDE, "writes")[:] = block
    if op.synced:
        ctx.tracker.barrier()


_DOC = """``{name}(__ubuf__ T* dst, __ubuf__ T* src)``: transpose one 16 x 16 block of ``int16_t`` /
    ``uint16_t`` (``PIPE_V``){sync}.

    Both addresses are 32-byte aligned; element (r, c) of *src* becomes (c, r) of *dst*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint16_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     dst, src = __ubuf__(uint16_t, 256), __ubuf__(uint16_t, 256)
    ...     src.write(np.arange(256, dtype=np.uint16)); asc_sync()
    ...     {name}(dst, src); asc_sync_vec()
    ...     dst.read(256)[[1, 16]].tolist()
    [16, 1]
    """

_SYNC_SUFFIX = ", then a ``PIPE_ALL`` barrier"
"""What a ``_sync`` twin's docstring adds after its description (see :func:`_finish`)."""


def _with_sync_twin(name: str, doc: str, impl: Any) -> tuple[Any, Any]:
    """Define *name* and its ``_sync`` twin from one implementation.

    *doc* is formatted with ``name`` and ``sync`` (empty, or :data:`_SYNC_SUFFIX` for the twin);
    the twin's op has ``synced`` set, which :func:`_finish` reads.
    """
    return tuple(
        define(spelling, doc=doc.format(name=spelling, sync=sync), synced=bool(sync))(impl)
        for spelling, sync in ((name, ""), (f"{name}_sync", _SYNC_SUFFIX))
    )


asc_transpose, asc_transpose_sync = _with_sync_twin("asc_transpose", _DOC, _transpose)


# ---- asc_bitsort / asc_mrgsort4: region-proposal sorting ------------------------------------------

ASC_C_API_MRGSORT_ELEMENT_LEN = 4
"""Entries of ``asc_mrgsort4``'s source-queue array (the C array's length)."""

_VALID_QUEUES = {3: 2, 7: 3, 15: 4}
"""``asc_mrgsort4``'s legal ``valid_bit`` values and how many leading queues each enables."""

_MAX_REPEAT = 255
_MAX_QUEUE = 4095


def _ub_operand(op: Any, ptr: Any, role: str) -> UbPtr[Any]:
    """Return *ptr* if it is a 32-byte aligned ``__ubuf__`` pointer, else raise."""
    checked: UbPtr[Any] = operands.instance(ptr, UbPtr, role)
    checked.require_alignment(DATA_BLOCK, f"{role} must be 32-byte aligned ({op.name})")
    return checked


def _finish(op: Any) -> None:
    """End a ``_sync`` twin with its ``PIPE_ALL`` barrier."""
    if op.synced:
        current_block().tracker.barrier()


def _bitsort(op: Any, dst: Any, src0: Any, src1: Any, repeat: Any) -> None:
    ctx = current_block()
    for ptr, role in ((dst, "dst"), (src0, "src0"), (src1, "src1")):
        _ub_operand(op, ptr, role)
    op.spec.check(dst.dtype, src1.dtype)
    if src0.dtype is not dst.dtype:
        raise AscregTypeError(f"dst is {dst!r} but src0 is {src0!r} (one score type)")
    count = operands.in_range(repeat, "repeat", 0, _MAX_REPEAT) * SORT_GROUP
    with ctx.on_pipe(Pipe.PIPE_V):
        out = bitsort32(src0.view(count), src1.view(count))
        dst.bytes(count * RECORD_BYTES, "writes")[:] = out.view(np.uint8).reshape(-1)
    _finish(op)


_BITSORT_DOC = """``{name}(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ uint32_t* src1, int32_t repeat)``:
    sort (score, index) pairs into region proposals, highest score first (``PIPE_V``){sync}.

    Each of the *repeat* iterations (``[0, 255]``) sorts 32 scores of *src0* (``half`` or
    ``float``) with their ``uint32_t`` indices from *src1* and writes 32 8-byte records to *dst*
    (256 bytes): the score in the low bytes (a ``half`` score in bytes 0-1, bytes 2-3 written as
    zero), the index in bytes 4-7. Equal scores keep their input order; iterations are sorted on
    their own. Every address is 32-byte aligned.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     dst, scores = __ubuf__(float32_t, 64), __ubuf__(float32_t, 32)
    ...     index = __ubuf__(uint32_t, 32)
    ...     scores.write(np.arange(32) % 5); index.write(np.arange(32)); asc_sync()
    ...     {name}(dst, scores, index, 1); asc_sync_vec()
    ...     dst.read(6)[::2].tolist(), dst.cast(uint32_t).read(6)[1::2].tolist()
    ([4.0, 4.0, 4.0], [4, 9, 14])
    """

asc_bitsort, asc_bitsort_sync = _with_sync_twin("asc_bitsort", _BITSORT_DOC, _bitsort)


def _mrgsort_sources(op: Any, dst: Any, src: Any, valid: int) -> list[UbPtr[Any]]:
    """Return the *valid* leading source pointers of *src* (a sequence of four), checked."""
    if isinstance(src, str | bytes) or not isinstance(src, Sequence):
        raise AscregTypeError(f"src must be a sequence of four __ubuf__ pointers, got {src!r:.60}")
    if len(src) != ASC_C_API_MRGSORT_ELEMENT_LEN:
        raise AscregTypeError(
            f"src holds {len(src)} pointers; the C array has {ASC_C_API_MRGSORT_ELEMENT_LEN}"
        )
    sources = [_ub_operand(op, ptr, f"src[{i}]") for i, ptr in enumerate(src[:valid])]
    for i, ptr in enumerate(sources):
        if ptr.dtype is not dst.dtype:
            raise AscregTypeError(f"dst is {dst!r} but src[{i}] is {ptr!r} (one score type)")
    return sources


def _check_repeated(sources: list[UbPtr[Any]], lengths: list[int], stop: bool) -> None:
    """Raise unless a repeated merge has the layout it needs (mrgsort4.md's constraints)."""
    if len(sources) != ASC_C_API_MRGSORT_ELEMENT_LEN or stop or len(set(lengths)) != 1:
        raise AscregTypeError(
            "repeat > 1 needs valid_bit 15, four queues of one length and "
            "if_exhausted_suspension false"
        )
    step = lengths[0] * RECORD_BYTES
    for i, ptr in enumerate(sources):
        if ptr.address != sources[0].address + i * step:
            raise AscregTypeError(
                f"repeat > 1 needs the four queues stored back to back: src[{i}] is at "
                f"{ptr.address:#x}, expected {sources[0].address + i * step:#x}"
            )


def _mrgsort4(
    op: Any,
    dst: Any,
    src: Any,
    repeat: Any,
    element_length_0: Any,
    element_length_1: Any,
    element_length_2: Any,
    element_length_3: Any,
    if_exhausted_suspension: Any,
    valid_bit: Any,
) -> None:
    ctx = current_block()
    _ub_operand(op, dst, "dst")
    op.spec.check(dst.dtype)
    valid = operands.integer(valid_bit, "valid_bit")
    if valid not in _VALID_QUEUES:
        raise AscregTypeError(f"valid_bit {valid} is not 3, 7 or 15 (the leading 2, 3 or 4 queues)")
    sources = _mrgsort_sources(op, dst, src, _VALID_QUEUES[valid])
    all_lengths = (element_length_0, element_length_1, element_length_2, element_length_3)
    lengths = [
        operands.in_range(n, f"element_length_{i}", 0, _MAX_QUEUE)
        for i, n in enumerate(all_lengths[: len(sources)])
    ]
    if not isinstance(if_exhausted_suspension, bool | np.bool_):
        raise AscregTypeError(
            f"if_exhausted_suspension must be a bool, got {if_exhausted_suspension!r:.40}"
        )
    stop = bool(if_exhausted_suspension)
    times = operands.in_range(repeat, "repeat", 0, _MAX_REPEAT)
    if times > 1:
        _check_repeated(sources, lengths, stop)
    step = sum(lengths) * RECORD_BYTES
    dtype = dst.dtype.np_dtype
    with ctx.on_pipe(Pipe.PIPE_V):
        for r in range(times):
            queues = [
                ptr.offset_bytes(r * step).bytes(n * RECORD_BYTES).view(np.uint32).reshape(-1, 2)
                for ptr, n in zip(sources, lengths, strict=True)
            ]
            merged = merge_queues(queues, dtype, stop)
            out = dst.offset_bytes(r * step).bytes(merged.nbytes, "writes")
            out[:] = merged.view(np.uint8).reshape(-1)
    _finish(op)


_MRGSORT_DOC = """``{name}(__ubuf__ T* dst, __ubuf__ T* src[4], uint8_t repeat, uint16_t element_length_0,
    ..., uint16_t element_length_3, bool if_exhausted_suspension, uint8_t valid_bit)``: merge up to
    four sorted queues of region proposals into one, highest score first (``PIPE_V``){sync}.

    *src* is a sequence of four ``__ubuf__ T*`` (``half`` or ``float``, 32-byte aligned); *valid_bit*
    ``3``, ``7`` or ``15`` enables the leading 2, 3 or 4 of them (the others are not read and may
    be ``None``); queue *i* holds ``element_length_i`` 8-byte records (``[0, 4095]``, the layout
    :func:`asc_bitsort` writes). The merge takes the highest queue head each step (ties: the
    lower-numbered queue); with *if_exhausted_suspension* it stops once a queue runs out. With
    *repeat* > 1 the four queues have one length, lie back to back, ``valid_bit`` is 15 and the
    merge does not stop early; each iteration moves the sources and *dst* on by the four queues.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     dst, queues = __ubuf__(float32_t, 16), __ubuf__(float32_t, 16)
    ...     queues.write([5, 0, 1, 1, 0, 0, 0, 0, 4, 2, 2, 3, 0, 0, 0, 0]); asc_sync()
    ...     {name}(dst, [queues, queues + 8, None, None], 1, 2, 2, 0, 0, False, 3)
    ...     asc_sync_vec()
    ...     dst.read(8)[::2].tolist()
    [5.0, 4.0, 2.0, 1.0]
    """

asc_mrgsort4, asc_mrgsort4_sync = _with_sync_twin("asc_mrgsort4", _MRGSORT_DOC, _mrgsort4)


# ---- asc_set_va_reg / asc_transto5hd_b8/_b16/_b32: NCHW -> NC1HWC0 -------------------------------


_VA_LEN = 8
"""Addresses one VA register holds (``asc_set_va_reg`` reads this many array entries)."""


def _va_register(value: Any, role: str) -> ub_addr8_t:
    if not isinstance(value, ub_addr8_t):
        raise AscregTypeError(f"{role} must be a ub_addr8_t (VA0 .. VA7), got {value!r:.40}")
    return value


def _set_va_reg(op: Any, addr: Any, src_array: Any) -> None:
    register = _va_register(addr, "addr")
    if isinstance(src_array, str | bytes) or not isinstance(src_array, Sequence):
        raise AscregTypeError(
            f"src_array must be a sequence of __ubuf__ pointers, got {src_array!r:.60}"
        )
    if len(src_array) < _VA_LEN:
        raise AscregTypeError(
            f"src_array holds {len(src_array)} pointers; a VA register takes {_VA_LEN}"
        )
    pointers = [
        operands.instance(p, UbPtr, f"src_array[{i}]") for i, p in enumerate(src_array[:_VA_LEN])
    ]
    op.spec.check(pointers[0].dtype)
    for i, ptr in enumerate(pointers):
        if ptr.dtype is not pointers[0].dtype:
            raise AscregTypeError(
                f"src_array[0] is {pointers[0]!r} but src_array[{i}] is {ptr!r} (one element type)"
            )
    system_registers().va[register] = tuple(pointers)


asc_set_va_reg = define(
    "asc_set_va_reg",
    doc="""``asc_set_va_reg(ub_addr8_t addr, __ubuf__ T** src_array)``: load VA register *addr* with the
    first eight pointers of *src_array* (``PIPE_V``).

    ``asc_transto5hd_*`` reads a register and the next one as its 16 block addresses, so the first
    eight and the last eight addresses go to two registers (``VA0`` and ``VA1``, ...). The pointers
    share one element type ``T`` (8-, 16- or 32-bit); a VA register only keeps their addresses.

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.c_api import VA0, VA1, __ubuf__
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = __ubuf__(half, 256)
    ...     blocks = [src + 16 * i for i in range(16)]
    ...     asc_set_va_reg(VA0, blocks); asc_set_va_reg(VA1, blocks[8:])
    """,
)(_set_va_reg)


def _block_addresses(op: Any, register: ub_addr8_t, role: str) -> list[UbPtr[Any]]:
    """Return the 16 block pointers of VA *register* and the next one (checked: 32-byte aligned)."""
    if register + 1 >= VA_REGISTERS:
        raise AscregTypeError(f"{role} {register.name} has no next register (VA0 .. VA6)")
    registers = system_registers().va
    pointers: list[UbPtr[Any]] = []
    for number in (register, register + 1):
        held = registers[number]
        if held is None:
            raise UninitializedRegisterError(
                f"{role} needs VA{number}, which asc_set_va_reg has not set"
            )
        pointers += [
            _ub_operand(op, ptr, f"{role} address {len(pointers) + k} (VA{number})")
            for k, ptr in enumerate(held)
        ]
    return pointers


def _iteration_offsets(times: int, stride: int) -> list[int]:
    """Byte offsets of the iterations: ``r * stride`` blocks, or one stride when *times* is 1."""
    if times == 1:
        return [stride * DATA_BLOCK]
    return [r * stride * DATA_BLOCK for r in range(times)]


def _transto5hd(op: Any, dst: Any, src: Any, repeat: Any, dst_stride: Any, src_stride: Any) -> None:
    _run_transto5hd(op, dst, src, repeat, (dst_stride, src_stride), (False, False))


def _transto5hd_b8(
    op: Any,
    dst: Any,
    src: Any,
    repeat: Any,
    dst_stride: Any,
    src_stride: Any,
    dst_high_half: Any,
    src_high_half: Any,
) -> None:
    halves = (_flag(dst_high_half, "dst_high_half"), _flag(src_high_half, "src_high_half"))
    _run_transto5hd(op, dst, src, repeat, (dst_stride, src_stride), halves)


def _run_transto5hd(
    op: Any, dst: Any, src: Any, repeat: Any, strides: tuple[Any, Any], halves: tuple[bool, bool]
) -> None:
    """Gather 16 blocks per iteration (a half block each for b8: *halves* picks dst's, src's)."""
    ctx = current_block()
    targets = _block_addresses(op, _va_register(dst, "dst"), "dst")
    sources = _block_addresses(op, _va_register(src, "src"), "src")
    times = operands.in_range(repeat, "repeat", 0, _MAX_REPEAT)
    dst_offsets, src_offsets = (
        _iteration_offsets(times, operands.in_range(n, role, 0, 0xFFFF))
        for n, role in zip(strides, ("dst_stride", "src_stride"), strict=True)
    )
    span = DATA_BLOCK // 2 if op.width == 1 else DATA_BLOCK
    dst_at, src_at = (int(h) * span if op.width == 1 else 0 for h in halves)
    unsigned = np.dtype(f"u{op.width}")
    with ctx.on_pipe(Pipe.PIPE_V):
        for dst_off, src_off in zip(dst_offsets, src_offsets, strict=True):
            read = [p.offset_bytes(src_off + src_at).bytes(span).copy() for p in sources]
            out = to_5hd(np.stack(read).view(unsigned)).view(np.uint8)
            for ptr, row in zip(targets, out, strict=True):
                ptr.offset_bytes(dst_off + dst_at).bytes(span, "writes")[:] = row
    _finish(op)


_TRANSTO5HD_DOC = """``{name}(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
    uint16_t src_stride{b8_params})``: gather 16 data blocks position by position, {width}-bit
    elements (``PIPE_V``){sync}.

    *src* and *dst* name VA registers (``asc_set_va_reg``); each with the next register gives 16
    block addresses (32-byte aligned). Pass ``j`` takes element ``j`` of each source block in
    order and writes the 16 values to {layout}. Iteration ``r`` of *repeat* (``[0, 255]``) moves
    every address by ``r`` strides (in 32-byte blocks); a *repeat* of 1 moves them by one stride,
    as the page says.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import {dtype}
    >>> from ascreg.c_api import VA0, VA1, VA2, VA3, __ubuf__, asc_set_va_reg, asc_sync
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     dst, src = __ubuf__({dtype}, 512 // {size}), __ubuf__({dtype}, 512 // {size})
    ...     src.write(np.arange(512 // {size}) % 256); asc_sync()
    ...     blocks = 32 // {size}
    ...     asc_set_va_reg(VA0, [dst + blocks * i for i in range(8)])
    ...     asc_set_va_reg(VA1, [dst + blocks * i for i in range(8, 16)])
    ...     asc_set_va_reg(VA2, [src + blocks * i for i in range(8)])
    ...     asc_set_va_reg(VA3, [src + blocks * i for i in range(8, 16)])
    ...     {name}(VA0, VA2, 1, 0, 0{b8_args}); asc_sync()
    ...     dst.read(4).tolist()
    {result}
    """

_TRANSTO5HD_FORMS: dict[int, tuple[Callable[..., None], str, str, str]] = {
    8: (_transto5hd_b8, "uint8_t", "[0, 32, 64, 96]",
        "half a destination block: bytes 16-31 when *dst_high_half*, else 0-15 (the other half "
        "stays); *src_high_half* likewise picks which half of each source block is read"),
    16: (_transto5hd, "uint16_t", "[0, 16, 32, 48]", "one destination block per pass"),
    32: (_transto5hd, "uint32_t", "[0, 8, 16, 24]",
         "two destination blocks per pass (sources 0-7, then 8-15)"),
}  # fmt: skip
"""Per element width: the implementation, the example's element type and result, the layout."""


def _define_transto5hd(width: int, sync: str) -> Any:
    impl, dtype, result, layout = _TRANSTO5HD_FORMS[width]
    name = f"asc_transto5hd_b{width}{sync and '_sync'}"
    doc = _TRANSTO5HD_DOC.format(
        name=name, width=width, dtype=dtype, size=width // 8, result=result, layout=layout,
        sync=sync, b8_params=", bool dst_high_half, bool src_high_half" if width == 8 else "",
        b8_args=", False, False" if width == 8 else "",
    )  # fmt: skip
    return define(name, doc=doc, synced=bool(sync), width=width // 8)(impl)


(
    asc_transto5hd_b8,
    asc_transto5hd_b8_sync,
    asc_transto5hd_b16,
    asc_transto5hd_b16_sync,
    asc_transto5hd_b32,
    asc_transto5hd_b32_sync,
) = (_define_transto5hd(width, sync) for width in (8, 16, 32) for sync in ("", _SYNC_SUFFIX))


def _flag(value: Any, role: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise AscregTypeError(f"{role} must be a bool, got {value!r:.40}")
    return bool(value)

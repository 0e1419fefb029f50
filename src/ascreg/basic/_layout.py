"""Memory-level ``Copy`` (UB -> UB) and ``TransDataTo5HD`` on ``LocalTensor``.

``Copy(dst, src, count)`` copies the first *count* elements; its repeat forms ``Copy(dst, src,
mask, repeatTime, CopyRepeatParams)`` copy the selected lanes of each repeat, DataBlock ``b`` of
repeat ``r`` at ``r * repeatSize + b * stride`` blocks (16- and 32-bit types: the 950's
``static_assert``). The 950 orders the repeats (a store-to-load barrier between them), so a
later repeat may read what an earlier one wrote. In the counter mask mode *mask* is the number
of elements of *each* repeat (``ceil(mask * sizeof(T) / 32)`` blocks at the block stride) and
*repeatTime* still counts: Copy's own counter mode (the page's 图1), not the general one.

``TransDataTo5HD`` loads the 16 destination and 16 source addresses into ``VA0``/``VA1`` and
``VA2``/``VA3`` (as ``set_va_reg_sb`` does; a later C API ``asc_transto5hd_*`` on those
registers sees them) and gathers 16 DataBlocks position by position
(:func:`ascreg.core.transpose.to_5hd`, the C API's ``asc_transto5hd_b8/_b16/_b32``): pass ``j``
takes element ``j`` of each source block. Iteration ``r`` of ``repeatTimes`` moves every
address by ``r`` strides; a ``repeatTimes`` of 1 moves them by one stride (the page's rule).
8-bit types read and write 16-byte half blocks, ``srcHighHalf`` / ``dstHighHalf`` choosing the
upper halves.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
...     x.GetPhyAddr().write(np.arange(256)); PipeBarrier[PIPE_ALL]()
...     TransDataTo5HD([y[16 * i] for i in range(16)], [x[16 * i] for i in range(16)],
...                    TransDataTo5HDParams(False, False, 1, 0, 0))
...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(3).tolist()
[0.0, 16.0, 32.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar, uint8_t, uint16_t, uint32_t, uint64_t
from ascreg._frontend import operands
from ascreg.basic._engine import Stream, _scatter, elements, run
from ascreg.basic._forms import check_tag, same_type, width
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import (
    FULL_MASK,
    MAX_REPEAT,
    VL,
    Lanes,
    count_lanes,
    counter_mode,
    repeat_lanes,
)
from ascreg.basic._structs import (
    BrcbRepeatParams,
    CopyRepeatParams,
    GatherMaskMode,
    GatherMaskParams,
    TransDataTo5HDParams,
    defaultGatherMaskMode,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.core.compound import widening_multiply
from ascreg.core.rearrange import (
    GATHER_MASK_PATTERNS,
    bit_lanes,
    deinterleave,
    gather_mask,
    interleave,
    pattern_lanes,
    scatter_index,
)
from ascreg.core.transpose import to_5hd
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.spr import add_ar, clear_ar, read_mask_spr, write_mask_spr
from ascreg.machine.sync import Pipe
from ascreg.machine.sysregs import system_registers

Array = np.ndarray[Any, Any]

__all__ = [
    "BRCB_BROADCAST_NUMBER",
    "NCHW_CONV_ADDR_LIST_SIZE",
    "Brcb",
    "BrcbRepeatParams",
    "Copy",
    "CopyRepeatParams",
    "DeInterleave",
    "Gather",
    "GatherMask",
    "GatherMaskMode",
    "GatherMaskParams",
    "Interleave",
    "Mull",
    "Scatter",
    "TransDataTo5HD",
    "TransDataTo5HDParams",
    "defaultGatherMaskMode",
]

NCHW_CONV_ADDR_LIST_SIZE = 16
"""``AscendC::NCHW_CONV_ADDR_LIST_SIZE``: the addresses of one ``TransDataTo5HD`` list.

Examples
--------
>>> NCHW_CONV_ADDR_LIST_SIZE
16
"""
VA_FIRST = 0
"""``TransDataTo5HD`` fills ``VA0``/``VA1`` (dst) and ``VA2``/``VA3`` (src)."""


def _struct(value: Any, kind: type[Any], role: str) -> Any:
    if isinstance(value, kind):
        return value
    if isinstance(value, tuple | list) and len(value) <= len(attrs.fields(kind)):
        return kind(*value)
    raise AscregTypeError(
        f"{role} must be a {kind.__name__} or a tuple of its fields, got {value!r:.60}"
    )


# ---- Copy --------------------------------------------------------------------------------------------
def _copy_lanes(op: BasicOp, dtype: type[Scalar], mask: Any, times: Any) -> Lanes:
    """Return the lanes of a repeat form: the normal mask, or Copy's counter mode (per repeat)."""
    if not counter_mode():
        return repeat_lanes(dtype, mask, times, set_mask=op.t.flag(0, True))
    repeats = operands.in_range(times, "repeatTime", 0, MAX_REPEAT)
    if not op.t.flag(0, True):
        count = read_mask_spr() & FULL_MASK
    else:
        bits = not isinstance(mask, int | np.integer)
        count = operands.in_range(mask[0] if bits else mask, "mask", 0, FULL_MASK)
    per_block = DATA_BLOCK // dtype.size
    span = max(-(-count // per_block) * per_block, 1)
    return Lanes(np.broadcast_to(np.arange(span) < count, (repeats, span)))


@basic_op("Copy")
def Copy(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    """``Copy<T, isSetMask>(dst, src, count)`` / ``(dst, src, mask, repeatTime, CopyRepeatParams)``: UB -> UB.

    The count form copies the first *count* elements (every type of the page, 1 to 8 bytes);
    the repeat forms the selected lanes of each repeat (16- and 32-bit types), repeat after
    repeat. In the counter mask mode *mask* is the element count of each repeat.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     x.GetPhyAddr().write(np.arange(64)); y.GetPhyAddr().write(np.zeros(64))
    ...     PipeBarrier[PIPE_ALL]()
    ...     Copy(y, x, 3, 2, CopyRepeatParams(1, 2, 1, 2)); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(12).tolist()
    [0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 16.0, 17.0, 18.0, 0.0]
    """
    dtype = same_type(op, (dst, "dst"), (src, "src"))
    if len(rest) == 1:
        check_tag(op, dtype, "count")
        lanes = count_lanes(rest[0], width(dtype, True))
        run(op.name, lanes, [Stream(dst, "dst")], [Stream(src, "src")], lambda v: [v])
        return
    if len(rest) != 3:
        raise AscregTypeError(
            "takes (dst, src, count) or (dst, src, mask, repeatTime, CopyRepeatParams)",
            call=op.name,
        )
    mask, times, params = rest
    check_tag(op, dtype, "mask bits" if not isinstance(mask, int | np.integer) else "mask count")
    (dst_block, dst_rep), (src_block, src_rep) = _struct(
        params, CopyRepeatParams, "repeatParams"
    ).strides()
    lanes = _copy_lanes(op, dtype, mask, times)
    run(op.name, lanes, [Stream(dst, "dst", dst_block, dst_rep)],
        [Stream(src, "src", src_block, src_rep)], lambda v: [v],
        accumulate=lambda found: True)  # fmt: skip


# ---- TransDataTo5HD -------------------------------------------------------------------------------
def _addresses(op: BasicOp, value: Any, role: str) -> tuple[list[int], type[Scalar] | None]:
    """Return the 16 byte addresses of a list (ints, pointers, LocalTensors) or a uint64 tensor."""
    ctx = current_block()
    if isinstance(value, LocalTensor):
        if value._dtype() is not uint64_t:
            raise AscregTypeError(
                f"{role} must be a LocalTensor<uint64_t> of addresses, got {value._cpp()}",
                call=op.name,
            )
        with ctx.on_pipe(Pipe.PIPE_V):  # ldva: a vector load of the 16 addresses
            return [int(a) for a in value.GetPhyAddr().read(NCHW_CONV_ADDR_LIST_SIZE)], None
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise AscregTypeError(
            f"{role} must be 16 addresses, 16 LocalTensors or a LocalTensor<uint64_t>, got "
            f"{value!r:.60}",
            call=op.name,
        )
    if len(value) != NCHW_CONV_ADDR_LIST_SIZE:
        raise AscregTypeError(f"{role} holds {len(value)} entries; it takes 16", call=op.name)
    found: list[int] = []
    types: set[type[Scalar]] = set()
    for i, item in enumerate(value):
        if isinstance(item, LocalTensor):
            types.add(item._dtype())
            found.append(item.GetPhyAddr().address)
        elif isinstance(item, UbPtr):
            found.append(item.address)
        else:
            found.append(operands.in_range(item, f"{role}[{i}]", 0, (1 << 64) - 1))
    if len(types) > 1:
        raise AscregTypeError(f"{role}'s LocalTensors have different element types", call=op.name)
    return found, (types.pop() if types else None)


@basic_op("TransDataTo5HD")
def TransDataTo5HD(op: BasicOp, dstList: Any, srcList: Any, nchwconvParams: Any) -> None:
    """``TransDataTo5HD<T>(dstList, srcList, TransDataTo5HDParams)``: NCHW -> NC1HWC0, 16 blocks at a time.

    The lists are 16 ``uint64_t`` addresses (``x.GetPhyAddr()`` or its ``.address``; ``T``
    written), 16 LocalTensors (``T`` deduced), or two ``LocalTensor<uint64_t>`` holding them.
    Types: int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
    ...     x.GetPhyAddr().write(np.arange(128)); PipeBarrier[PIPE_ALL]()
    ...     dst = [y[8 * i].GetPhyAddr() for i in range(16)]
    ...     src = [x[8 * i].GetPhyAddr().address for i in range(16)]
    ...     TransDataTo5HD[float32_t](dst, src, TransDataTo5HDParams())
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(9).tolist()
    [0.0, 8.0, 16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 64.0]
    """
    targets, dst_type = _addresses(op, dstList, "dstList")
    sources, src_type = _addresses(op, srcList, "srcList")
    written = op.t.dtypes[0] if op.t.dtypes else None
    deduced = {t for t in (dst_type, src_type) if t is not None}
    if len(deduced) > 1:
        raise AscregTypeError("dstList and srcList hold different element types", call=op.name)
    dtype = written or (deduced.pop() if deduced else None)
    if dtype is None:
        raise AscregTypeError(
            "addresses carry no element type: write it, TransDataTo5HD[half](...)", call=op.name
        )
    if written is not None and deduced and written not in deduced:
        raise AscregTypeError(
            f"template argument {written.cpp_name} does not match the LocalTensors' type",
            call=op.name,
        )
    op.spec.check(dtype)
    params = _struct(nchwconvParams, TransDataTo5HDParams, "nchwconvParams")
    times = operands.in_range(params.repeatTimes, "repeatTimes", 0, MAX_REPEAT)
    strides = [operands.in_range(v, role, 0, (1 << 16) - 1) for v, role in
               ((params.dstRepStride, "dstRepStride"), (params.srcRepStride, "srcRepStride"))]  # fmt: skip
    ctx = current_block()
    dst_ptrs = [_block_pointer(op, ctx, dtype, a, f"dstList[{i}]") for i, a in enumerate(targets)]
    src_ptrs = [_block_pointer(op, ctx, dtype, a, f"srcList[{i}]") for i, a in enumerate(sources)]
    va = system_registers().va
    for k, pointers in enumerate((dst_ptrs[:8], dst_ptrs[8:], src_ptrs[:8], src_ptrs[8:])):
        va[VA_FIRST + k] = tuple(pointers)
    size = dtype.size
    span = DATA_BLOCK // 2 if size == 1 else DATA_BLOCK
    dst_at = span if size == 1 and params.dstHighHalf else 0
    src_at = span if size == 1 and params.srcHighHalf else 0
    offsets = [[s * DATA_BLOCK] if times == 1 else [r * s * DATA_BLOCK for r in range(times)]
               for s in strides]  # fmt: skip
    unsigned = np.dtype(f"u{size}")
    with ctx.on_pipe(Pipe.PIPE_V):
        for dst_off, src_off in zip(offsets[0], offsets[1], strict=True):
            read = [p.offset_bytes(src_off + src_at).bytes(span).copy() for p in src_ptrs]
            out = to_5hd(np.stack(read).view(unsigned)).view(np.uint8)
            for ptr, row in zip(dst_ptrs, out, strict=True):
                ptr.offset_bytes(dst_off + dst_at).bytes(span, "writes")[:] = row


def _block_pointer(op: BasicOp, ctx: Any, dtype: type[Scalar], address: int, role: str) -> Any:
    ptr = ctx.ub.pointer(dtype, address)
    ptr.require_alignment(DATA_BLOCK, f"{op.name}: {role} must be 32-byte aligned")
    return ptr


# ---- Interleave / DeInterleave ------------------------------------------------------------------
def _read_all(tensor: LocalTensor[Any], count: int, role: str) -> Array:
    _fits(tensor, count, role)
    with current_block().on_pipe(Pipe.PIPE_V):
        values: Array = tensor.GetPhyAddr().read(count)
    return values


def _write_all(tensor: LocalTensor[Any], values: Array, role: str) -> None:
    _fits(tensor, values.size, role)
    with current_block().on_pipe(Pipe.PIPE_V):
        tensor.GetPhyAddr().write(values)


def _fits(tensor: LocalTensor[Any], count: int, role: str) -> None:
    tensor.GetPhyAddr().require_alignment(
        DATA_BLOCK, f"{role} of a vector op must be 32-byte aligned"
    )
    if count > tensor.GetSize():
        raise OutOfBoundsError(
            f"{role} reaches element {count - 1} of the {tensor.GetSize()}-element {tensor._cpp()}"
        )


def _even(op: BasicOp, value: Any, role: str) -> int:
    count = operands.in_range(value, role, 0, (1 << 31) - 1)
    if count % 2:
        raise AscregError(f"{role} {count} must be even", call=op.name)
    return count


def _apart(op: BasicOp, dsts: Sequence[tuple[LocalTensor[Any], int]],
           srcs: Sequence[tuple[LocalTensor[Any], int]]) -> None:  # fmt: skip
    """Raise when a destination overlaps a source (the page: 不支持地址重叠)."""
    for dst, n in dsts:
        a0 = dst.GetPhyAddr().address
        a1 = a0 + n * dst._dtype().size
        for src, m in srcs:
            b0 = src.GetPhyAddr().address
            if a0 < b0 + m * src._dtype().size and b0 < a1:
                undefined_behaviour(
                    UndefinedBehaviourError(
                        "a destination overlaps a source (不支持源操作数与目的操作数地址重叠)",
                        call=op.name,
                    )
                )


@basic_op("Interleave")
def Interleave(op: BasicOp, dst0: Any, dst1: Any, src0: Any, src1: Any, count: Any) -> None:
    """``Interleave<T>(dst0, dst1, src0, src1, count)``: ``src0`` and ``src1`` zipped element by element.

    The ``2 * count`` elements ``src0[0], src1[0], src0[1], src1[1], ...`` fill ``dst0`` (the
    first *count*) then ``dst1`` (``Reg.Interleave``'s order on whole tensors); *count* is even.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b, c, d = (LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 8]() for _ in range(4))
    ...     a.GetPhyAddr().write(np.arange(4)); b.GetPhyAddr().write(np.arange(10, 14))
    ...     PipeBarrier[PIPE_ALL]()
    ...     Interleave(c, d, a, b, 4); PipeBarrier[PIPE_ALL]()
    ...     c.GetPhyAddr().read(4).tolist(), d.GetPhyAddr().read(4).tolist()
    ([0, 10, 1, 11], [2, 12, 3, 13])
    """
    same_type(op, (dst0, "dst0"), (dst1, "dst1"), (src0, "src0"), (src1, "src1"))
    n = _even(op, count, "count")
    _apart(op, [(dst0, n), (dst1, n)], [(src0, n), (src1, n)])
    first, second = interleave(_read_all(src0, n, "src0"), _read_all(src1, n, "src1"))
    _write_all(dst0, first, "dst0")
    _write_all(dst1, second, "dst1")


@basic_op("Mull")
def Mull(op: BasicOp, dst0: Any, dst1: Any, src0: Any, src1: Any, count: Any) -> None:
    """``Mull<T>(dst0, dst1, src0, src1, count)``: the double-width products of 32-bit integers.

    For the first *count* elements, ``dst0`` gets the low 32 bits of ``src0 * src1`` and
    ``dst1`` the high 32 bits (of the signed product for ``int32_t``: ``-6`` has high word
    ``-1``), as ``Reg.Mull`` computes them.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b, lo, hi = (LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 8]() for _ in range(4))
    ...     a.GetPhyAddr().write([2**30, -3, 7, 0] * 2); b.GetPhyAddr().write([8, 2, -1, 5] * 2)
    ...     PipeBarrier[PIPE_ALL]()
    ...     Mull(lo, hi, a, b, 8); PipeBarrier[PIPE_ALL]()
    ...     lo.GetPhyAddr().read(4).tolist(), hi.GetPhyAddr().read(4).tolist()
    ([0, -6, -7, 0], [2, -1, -1, 0])
    """
    dtype = same_type(op, (dst0, "dst0"), (dst1, "dst1"), (src0, "src0"), (src1, "src1"))
    check_tag(op, dtype, "count")
    n = operands.in_range(count, "count", 0, (1 << 31) - 1)
    low, high = widening_multiply(_read_all(src0, n, "src0"), _read_all(src1, n, "src1"))
    _write_all(dst0, low, "dst0")
    _write_all(dst1, high, "dst1")


@basic_op("DeInterleave")
def DeInterleave(op: BasicOp, dst0: Any, dst1: Any, *args: Any) -> None:
    """``DeInterleave<T>(dst0, dst1, src0, src1, count)`` / ``(dst0, dst1, src, srcCount)``: evens and odds.

    Two sources: ``dst0`` gets the even-numbered and ``dst1`` the odd-numbered elements of the
    ``2 * count`` elements ``src0[0 .. count), src1[0 .. count)`` (*count* each). One source:
    those of ``src[0 .. srcCount)`` (``srcCount / 2`` each). The counts are even.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, c, d = (LocalMemAllocator[Hardware.UB]().Alloc[half, 16]() for _ in range(3))
    ...     a.GetPhyAddr().write(np.arange(16)); PipeBarrier[PIPE_ALL]()
    ...     DeInterleave(c, d, a, 8); PipeBarrier[PIPE_ALL]()
    ...     c.GetPhyAddr().read(4).tolist(), d.GetPhyAddr().read(4).tolist()
    ([0.0, 2.0, 4.0, 6.0], [1.0, 3.0, 5.0, 7.0])
    """
    if len(args) == 3:
        src0, src1, count = args
        same_type(op, (dst0, "dst0"), (dst1, "dst1"), (src0, "src0"), (src1, "src1"))
        n = _even(op, count, "count")
        _apart(op, [(dst0, n), (dst1, n)], [(src0, n), (src1, n)])
        first, second = deinterleave(_read_all(src0, n, "src0"), _read_all(src1, n, "src1"))
    elif len(args) == 2:
        src, count = args
        same_type(op, (dst0, "dst0"), (dst1, "dst1"), (src, "src"))
        n = _even(op, count, "srcCount")
        _apart(op, [(dst0, n // 2), (dst1, n // 2)], [(src, n)])
        values = _read_all(src, n, "src")
        first, second = deinterleave(values[: n // 2], values[n // 2 :])
    else:
        raise AscregTypeError(
            "takes (dst0, dst1, src0, src1, count) or (dst0, dst1, src, srcCount)", call=op.name
        )
    _write_all(dst0, first, "dst0")
    _write_all(dst1, second, "dst1")


# ---- Brcb --------------------------------------------------------------------------------------
BRCB_BROADCAST_NUMBER = 8
"""Elements of ``src`` one ``Brcb`` repeat broadcasts, one per DataBlock of ``dst``."""


@basic_op("Brcb")
def Brcb(op: BasicOp, dst: Any, src: Any, repeatTime: Any, repeatParams: Any) -> None:
    """``Brcb<T>(dst, src, repeatTime, BrcbRepeatParams)``: each element of ``src`` fills one DataBlock.

    Repeat ``r`` takes ``src[8r .. 8r + 8)``; element ``8r + j`` fills the 32-byte block at
    ``r * dstRepStride + j * dstBlkStride`` blocks of ``dst`` (``Reg.Duplicate`` of a broadcast
    load; a ``dstBlkStride`` of 0 counts as 1). Types: 8- to 64-bit integers, half, bfloat16_t,
    float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     x.GetPhyAddr().write(np.arange(8)); PipeBarrier[PIPE_ALL]()
    ...     Brcb(y, x, 1, BrcbRepeatParams(1, 8)); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(64)[6:11].tolist()
    [0.0, 0.0, 1.0, 1.0, 1.0]
    """
    dtype = same_type(op, (dst, "dst"), (src, "src"))
    op.spec.check(dtype)
    times = operands.in_range(repeatTime, "repeatTime", 0, MAX_REPEAT)
    params = _struct(repeatParams, BrcbRepeatParams, "repeatParams")
    block = operands.in_range(params.dstBlkStride, "dstBlkStride", 0, (1 << 16) - 1) or 1
    rep = operands.in_range(params.dstRepStride, "dstRepStride", 0, (1 << 16) - 1)
    count = times * BRCB_BROADCAST_NUMBER
    if count == 0:
        return
    values = _read_all(src, count, "src")
    per_block = DATA_BLOCK // dtype.size
    k = np.arange(count)
    starts = ((k // BRCB_BROADCAST_NUMBER) * rep + (k % BRCB_BROADCAST_NUMBER) * block) * per_block
    index = (starts[:, None] + np.arange(per_block)).reshape(-1)
    filled = np.repeat(values, per_block)
    _fits(dst, int(index.max()) + 1, "dst")
    _scatter(Stream(dst, "dst"), index, filled)


# ---- Gather --------------------------------------------------------------------------------------
_OFFSET_LIMIT = {1: 1 << 16, 2: 1 << 17}
"""The 950's byte-offset range of ``Gather`` for 8- and 16-bit types (32/64-bit: uint32_t)."""


@basic_op("Gather")
def Gather(op: BasicOp, dst: Any, src: Any, srcOffset: Any, srcBaseAddr: Any, *rest: Any) -> None:
    """``Gather<T>(dst, src, srcOffset, srcBaseAddr, count)`` / ``(..., mask, repeatTime, dstRepStride)``.

    ``dst[i] = src's element at byte srcBaseAddr + srcOffset[i]`` (``srcOffset`` a
    ``LocalTensor<uint32_t>`` of byte offsets, each a multiple of ``sizeof(T)``; at most
    ``2**16 - 1`` for 8-bit and ``2**17 - 1`` for 16-bit types). The repeat forms (16- to 64-bit
    types) take ``256 / sizeof(T)`` offsets per repeat and store repeat ``r`` at
    ``r * dstRepStride`` DataBlocks of ``dst``, the selected lanes only.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     o = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(16)); o.GetPhyAddr().write([6, 4, 2, 0])
    ...     PipeBarrier[PIPE_ALL]()
    ...     Gather(y, x, o, 2, 4); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(4).tolist()
    [4.0, 3.0, 2.0, 1.0]
    """
    dtype = same_type(op, (dst, "dst"), (src, "src"))
    offsets_tensor, base = _offset_operands(op, srcOffset, srcBaseAddr, "src")
    if len(rest) == 1:
        check_tag(op, dtype, "count")
        lanes = count_lanes(rest[0], width(dtype, False))
        dst_stream = Stream(dst, "dst")
    elif len(rest) == 3:
        mask, times, stride = rest
        check_tag(
            op, dtype, "mask bits" if not isinstance(mask, int | np.integer) else "mask count"
        )
        rep = operands.in_range(stride, "dstRepStride", 0, (1 << 16) - 1)
        if counter_mode():  # UpdateMask(count) each repeat, repeatTime repeats
            times = operands.in_range(times, "repeatTime", 0, MAX_REPEAT)
            bits = not isinstance(mask, int | np.integer)
            total = (read_mask_spr() & FULL_MASK) if not op.t.flag(0, True) else operands.in_range(
                mask[0] if bits else mask, "mask", 0, FULL_MASK)  # fmt: skip
            n = VL // dtype.size
            lanes = Lanes(np.arange(times * n).reshape(times, n) < total)
        else:
            lanes = repeat_lanes(dtype, mask, times, set_mask=op.t.flag(0, True))
        dst_stream = Stream(dst, "dst", 1, rep)
    else:
        raise AscregTypeError(
            "takes (dst, src, srcOffset, srcBaseAddr, count) or (..., mask, repeatTime, "
            "dstRepStride)",
            call=op.name,
        )
    rep_, lane = np.nonzero(lanes.active)
    if rep_.size == 0:
        return
    position = rep_ * lanes.width + lane  # each lane's offset: offsets are consecutive
    ctx = current_block()
    offsets = _read_offsets(op, offsets_tensor, position, base, dtype, "src")
    # the VF shifts each offset to an element index and keeps its low 16 bits (8/16-bit types)
    index = base // dtype.size + (offsets % _OFFSET_LIMIT.get(dtype.size, 1 << 32)) // dtype.size
    target = elements(dst_stream, lanes, rep_, lane)
    _fits(dst, int(target.max()) + 1, "dst")
    _apart(op, [(dst, int(target.max()) + 1)], [(src, src.GetSize())])
    with ctx.on_pipe(Pipe.PIPE_V):
        values = src.GetPhyAddr()[index]
    _scatter(dst_stream, target, values)


def _offset_operands(op: BasicOp, tensor: Any, base: Any, side: str) -> tuple[Any, int]:
    """Check ``{side}Offset`` (a LocalTensor<uint32_t>) and ``{side}BaseAddr`` (32 bits)."""
    offsets_tensor = op.tensor(tensor, f"{side}Offset")
    if offsets_tensor._dtype() is not uint32_t:
        raise AscregTypeError(
            f"{side}Offset must be a LocalTensor<uint32_t>, got {offsets_tensor._cpp()}",
            call=op.name,
        )
    return offsets_tensor, operands.in_range(base, f"{side}BaseAddr", 0, (1 << 32) - 1)


def _read_offsets(
    op: BasicOp, offsets_tensor: Any, position: Any, base: int, dtype: Any, side: str
) -> Any:
    """Read the byte offsets of the active lanes (on PIPE_V) and check each is one of ``T``."""
    _fits(offsets_tensor, int(position.max()) + 1, f"{side}Offset")
    with current_block().on_pipe(Pipe.PIPE_V):
        offsets = offsets_tensor.GetPhyAddr()[position].astype(np.int64)
    limit = _OFFSET_LIMIT.get(dtype.size, 1 << 32)
    bad = (offsets % dtype.size != 0) | (offsets >= limit) | (base % dtype.size != 0)
    if bad.any():
        undefined_behaviour(
            UndefinedBehaviourError(
                f"{side}Offset {int(offsets[np.argmax(bad)])} ({side}BaseAddr {base}) is not a "
                f"multiple of sizeof(T) = {dtype.size} or is past the 950's {limit - 1}",
                call=op.name,
            )
        )
    return offsets


# ---- GatherMask ----------------------------------------------------------------------------------
_PATTERN_TYPES: dict[int, type[Scalar]] = {1: uint8_t, 2: uint16_t, 4: uint32_t}
"""``GatherMask``'s pattern type ``U`` by ``sizeof(T)``."""


class _GatherMaskOp(BasicOp):
    value_kinds = (GatherMaskMode,)
    max_dtypes = 2


def _pattern_enables(
    op: BasicOp, pattern: Any, dtype: type[Scalar], vectors: Array
) -> tuple[Array, int | None]:
    """Return each lane's pattern bit and the fixed pattern's number (None for a tensor).

    ``vectors`` holds, per (repeat, vector), the repeat, the vector and ``src1RepeatStride``.
    """
    lanes = VL // dtype.size
    if not isinstance(pattern, LocalTensor):
        number = operands.in_range(pattern, "src1Pattern", 0, 255)
        if not 1 <= number <= 7:
            raise AscregError(f"GatherMask Pattern can only be 1~7, got {number}", call=op.name)
        row = pattern_lanes(number, lanes)
        return np.broadcast_to(row, (*vectors.shape[:-1], lanes)), number
    want = _PATTERN_TYPES[dtype.size]
    if pattern._dtype() is not want:
        raise AscregTypeError(
            f"src1Pattern must be a LocalTensor<{want.cpp_name}> for {dtype.cpp_name} "
            f"(the page's pairs), got {pattern._cpp()}",
            call=op.name,
        )
    per_vector = lanes // 8  # pattern bytes one vector consumes
    starts = vectors[..., 0] * vectors[..., 2] * DATA_BLOCK + vectors[..., 1] * per_vector
    index = (starts[..., None] + np.arange(per_vector)).reshape(-1)
    nbytes = pattern.GetSize() * want.size
    if index.size and int(index.max()) >= nbytes:
        raise OutOfBoundsError(
            f"the pattern of repeat {int(vectors[..., 0].max())} reaches byte {int(index.max())} "
            f"of the {nbytes}-byte {pattern._cpp()}",
            call=op.name,
        )
    pattern.GetPhyAddr().require_alignment(DATA_BLOCK, "src1Pattern must be 32-byte aligned")
    with current_block().on_pipe(Pipe.PIPE_V):
        raw = pattern.GetPhyAddr().cast(uint8_t)[index] if index.size else np.zeros(0, np.uint8)
    bits = bit_lanes(np.asarray(raw, np.uint8), raw.size * 8)
    return bits.reshape(*vectors.shape[:-1], lanes), None


@basic_op("GatherMask", base=_GatherMaskOp)
def GatherMask(
    op: BasicOp,
    dst: Any,
    src0: Any,
    src1Pattern: Any,
    reduceMode: Any,
    mask: Any,
    gatherMaskParams: Any,
    rsvdCnt: Any,
) -> None:
    """``GatherMask<T, U, mode>(dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt)``.

    Keeps the elements of ``src0`` whose pattern bit is 1 and stores them packed from
    ``dst[0]``; ``rsvdCnt`` (a :class:`~ascreg.Ref`, the C++ ``uint64_t&``) gets their number.
    ``src1Pattern`` is a fixed pattern 1-7 (even lanes, odd lanes, the first / second / third /
    fourth of every four, all; the same in every repeat) or a ``LocalTensor<U>`` of bits
    (``U`` the unsigned type of ``T``'s size): each vector of ``256 / sizeof(T)`` lanes takes
    the next ``32 / sizeof(T)`` bytes, repeat ``r`` starting at ``r * src1RepeatStride``
    DataBlocks. Repeat ``r`` reads ``src0`` from ``r * src0RepeatStride`` DataBlocks, its
    DataBlocks ``src0BlockStride`` apart. ``reduceMode`` false: one whole vector per repeat
    (*mask* ignored); true: *mask* elements per repeat, ``ceil(mask / lanes)`` vectors each
    ``8 * src0BlockStride`` DataBlocks after the previous one.

    As on the 950 (kernel_operator_vec_gather_mask_impl.h): the kept bytes are left in the AR
    register (``GetSpr<AR>``) except by pattern 7 without ``reduceMode`` (a plain copy), and
    the fixed patterns 1-6 of 16- and 32-bit types leave themselves in the vector mask SPR
    (the implementation's ``SetVectorMask``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     x.GetPhyAddr().write(np.arange(64)); PipeBarrier[PIPE_ALL]()
    ...     kept = Ref(0)
    ...     GatherMask(y, x, 3, True, 10, GatherMaskParams(1, 1, 8, 0), kept)
    ...     PipeBarrier[PIPE_ALL](); int(kept.value), y.GetPhyAddr().read(3).tolist()
    (3, [0.0, 4.0, 8.0])
    """
    if isinstance(src1Pattern, LocalTensor):
        dtype, _ = op.dtypes((dst, "dst"), (src1Pattern, "src1Pattern"))
    else:
        (dtype,) = op.dtypes((dst, "dst"))
    same_type(op, (dst, "dst"), (src0, "src0"))
    op.spec.check(dtype, _PATTERN_TYPES.get(dtype.size, dtype))  # U: the pattern's type
    if not isinstance(rsvdCnt, Ref):
        raise AscregTypeError(
            f"rsvdCnt is the C++ uint64_t&: pass a Ref, got {rsvdCnt!r:.40}", call=op.name
        )
    params = _struct(gatherMaskParams, GatherMaskParams, "gatherMaskParams")
    block_stride = operands.in_range(params.src0BlockStride, "src0BlockStride", 0, 255)
    times = operands.in_range(params.repeatTimes, "repeatTimes", 0, (1 << 16) - 1)
    src0_rep = operands.in_range(params.src0RepeatStride, "src0RepeatStride", 0, (1 << 16) - 1)
    src1_rep = operands.in_range(params.src1RepeatStride, "src1RepeatStride", 0, 255)
    reduce_mode = bool(reduceMode)
    lanes = VL // dtype.size
    per_block = DATA_BLOCK // dtype.size
    if reduce_mode:
        count = operands.in_range(mask, "mask", 1, (1 << 32) - 1)
        inner = -(-count // lanes)
        loaded = np.arange(inner * lanes).reshape(inner, lanes) < count
    else:
        inner, loaded = 1, np.ones((1, lanes), dtype=bool)
    r, j = np.meshgrid(np.arange(times), np.arange(inner), indexing="ij")
    vectors = np.stack([r, j, np.full_like(r, src1_rep)], axis=-1)
    enables, number = _pattern_enables(op, src1Pattern, dtype, vectors)
    loaded = np.broadcast_to(loaded, enables.shape)
    kept = enables & loaded
    k = np.arange(lanes)
    blocks = (r[..., None] * src0_rep + j[..., None] * 8 * block_stride
              + (k // per_block) * block_stride)  # fmt: skip
    index = blocks * per_block + k % per_block
    _fits(dst, int(kept.sum()), "dst")
    if loaded.any():
        _fits(src0, int(index[loaded].max()) + 1, "src0")
        _apart(op, [(dst, int(kept.sum()))], [(src0, int(index[loaded].max()) + 1)])
    ctx = current_block()
    with ctx.on_pipe(Pipe.PIPE_V):
        values = src0.GetPhyAddr()[index[loaded]] if loaded.any() else np.zeros(0)
    full = np.zeros(index.shape, dtype=dtype.np_dtype)
    full[loaded] = values
    packed = gather_mask(full, kept)
    if packed.size:
        with ctx.on_pipe(Pipe.PIPE_V):
            dst.GetPhyAddr().write(packed)
    rsvdCnt.value = np.uint64(packed.size)
    if number != 7 or reduce_mode:
        clear_ar()
        add_ar(packed.size * dtype.size)
    if number is not None and number != 7 and dtype.size in (2, 4):
        word = int.from_bytes(bytes([GATHER_MASK_PATTERNS[number]]) * 8, "little")
        write_mask_spr((word << 64 if dtype.size == 2 else 0) | word)


# ---- Scatter -------------------------------------------------------------------------------------
@basic_op("Scatter")
def Scatter(op: BasicOp, dst: Any, src: Any, dstOffset: Any, dstBaseAddr: Any, *rest: Any) -> None:
    """``Scatter<T>(dst, src, dstOffset, dstBaseAddr, count)`` / ``(..., mask, repeatTime, srcRepStride)``.

    The element ``src[i]`` goes to ``dst``'s byte ``dstBaseAddr + dstOffset[i]``
    (``dstOffset`` a ``LocalTensor<uint32_t>`` of byte offsets, each a multiple of ``sizeof(T)``,
    no two equal; at most ``2**16 - 1`` for 8-bit and ``2**17 - 1`` for 16-bit types): the
    inverse of :func:`Gather`. The repeat forms (16- to 64-bit types) take ``256 / sizeof(T)``
    offsets per repeat and read repeat ``r`` of ``src`` at ``r * srcRepStride`` DataBlocks, the
    selected lanes only (in the counter mask mode *mask* elements in all).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     o = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(16)); y.GetPhyAddr().write(np.zeros(16))
    ...     o.GetPhyAddr().write([6, 4, 2, 0]); PipeBarrier[PIPE_ALL]()
    ...     Scatter(y, x, o, 2, 4); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(5).tolist()
    [0.0, 3.0, 2.0, 1.0, 0.0]
    """
    dtype = same_type(op, (dst, "dst"), (src, "src"))
    offsets_tensor, base = _offset_operands(op, dstOffset, dstBaseAddr, "dst")
    if len(rest) == 1:
        check_tag(op, dtype, "count")
        lanes = count_lanes(rest[0], width(dtype, False))
        src_stream = Stream(src, "src")
    elif len(rest) == 3:
        mask, times, stride = rest
        check_tag(
            op, dtype, "mask bits" if not isinstance(mask, int | np.integer) else "mask count"
        )
        rep = operands.in_range(stride, "srcRepStride", 0, (1 << 8) - 1)
        lanes = repeat_lanes(dtype, mask, times)
        src_stream = Stream(src, "src", 1, rep)
    else:
        raise AscregTypeError(
            "takes (dst, src, dstOffset, dstBaseAddr, count) or (..., mask, repeatTime, "
            "srcRepStride)",
            call=op.name,
        )
    rep_, lane = np.nonzero(lanes.active)
    if rep_.size == 0:
        return
    position = rep_ * lanes.width + lane  # each lane's offset: offsets are consecutive
    source = elements(src_stream, lanes, rep_, lane)
    _fits(src, int(source.max()) + 1, "src")
    ctx = current_block()
    offsets = _read_offsets(op, offsets_tensor, position, base, dtype, "dst")
    if np.unique(offsets).size < offsets.size:
        undefined_behaviour(
            UndefinedBehaviourError(
                "two dstOffset values are equal (偏移地址不能有相同值: which store lands is "
                "not defined)",
                call=op.name,
            )
        )
    target = scatter_index(offsets, base, dtype.size)
    _fits(dst, int(target.max()) + 1, "dst")
    _apart(op, [(dst, int(target.max()) + 1)], [(src, int(source.max()) + 1)])
    with ctx.on_pipe(Pipe.PIPE_V):
        values = src.GetPhyAddr()[source]
    _scatter(Stream(dst, "dst"), target, values)

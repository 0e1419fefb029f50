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

from ascreg._dtypes import Scalar, uint64_t
from ascreg._frontend import operands
from ascreg.basic._engine import Stream, run
from ascreg.basic._forms import check_tag, same_type, width
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import (
    FULL_MASK,
    MAX_REPEAT,
    Lanes,
    count_lanes,
    counter_mode,
    repeat_lanes,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.core.transpose import to_5hd
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.spr import read_mask_spr
from ascreg.machine.sync import Pipe
from ascreg.machine.sysregs import system_registers

__all__ = [
    "NCHW_CONV_ADDR_LIST_SIZE",
    "Copy",
    "CopyRepeatParams",
    "TransDataTo5HD",
    "TransDataTo5HDParams",
]

NCHW_CONV_ADDR_LIST_SIZE = 16
"""``AscendC::NCHW_CONV_ADDR_LIST_SIZE``: the addresses of one ``TransDataTo5HD`` list.

Examples
--------
>>> NCHW_CONV_ADDR_LIST_SIZE
16
"""
MAX_REPEAT_SIZE = 4095
"""The largest ``dstRepeatSize`` / ``srcRepeatSize`` of ``CopyRepeatParams``."""
VA_FIRST = 0
"""``TransDataTo5HD`` fills ``VA0``/``VA1`` (dst) and ``VA2``/``VA3`` (src)."""


@attrs.define
class CopyRepeatParams:
    """``AscendC::CopyRepeatParams``: ``Copy``'s strides, in 32-byte DataBlocks.

    ``dstStride`` / ``srcStride`` (``[0, 65535]``) separate the blocks of one repeat;
    ``dstRepeatSize`` / ``srcRepeatSize`` (``[0, 4095]``) the starts of consecutive repeats.

    Examples
    --------
    >>> CopyRepeatParams(1, 1, 8, 16).srcRepeatSize
    16
    """

    dstStride: int = 1
    srcStride: int = 1
    dstRepeatSize: int = 8
    srcRepeatSize: int = 8

    def strides(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Return ``((dst block, dst repeat), (src block, src repeat))``, checked."""
        block = (1 << 16) - 1
        return (
            (operands.in_range(self.dstStride, "dstStride", 0, block),
             operands.in_range(self.dstRepeatSize, "dstRepeatSize", 0, MAX_REPEAT_SIZE)),
            (operands.in_range(self.srcStride, "srcStride", 0, block),
             operands.in_range(self.srcRepeatSize, "srcRepeatSize", 0, MAX_REPEAT_SIZE)),
        )  # fmt: skip


@attrs.define
class TransDataTo5HDParams:
    """``AscendC::TransDataTo5HDParams``: the halves (8-bit types), repeats and strides.

    Examples
    --------
    >>> TransDataTo5HDParams()
    TransDataTo5HDParams(dstHighHalf=False, srcHighHalf=False, repeatTimes=1, dstRepStride=0, srcRepStride=0)
    """

    dstHighHalf: bool = False
    srcHighHalf: bool = False
    repeatTimes: int = 1
    dstRepStride: int = 0
    srcRepStride: int = 0


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

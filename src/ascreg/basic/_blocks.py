"""``Gatherb`` and ``BilinearInterpolation``: DataBlocks of a ``LocalTensor`` gathered by byte offsets.

``BilinearInterpolation`` gathers 8 DataBlocks of ``src0`` per horizontal step, multiplies them by
``src1`` and sums the steps (基础算术/BilinearInterpolation(ISASI).md, as the 950 runs it).

Each repeat gathers 8 DataBlocks (32 bytes each): block ``j`` of repeat ``i`` is the 32 bytes
at ``src + offset[8 * i + j]`` bytes, stored at DataBlock ``i * dstRepStride + j * dstBlkStride``
of ``dst`` (``dstBlkStride`` 0 counts as 1, as the page says). The 950 runs the register
``GatherB`` per repeat (``Reg.GatherB``'s block gather, ``ascreg.core.rearrange.gather_blocks``)
on ``PIPE_V``.

Examples
--------
>>> import numpy as np
>>> from ascreg import uint32_t, uint16_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     src = LocalMemAllocator[Hardware.UB]().Alloc[uint16_t, 128]()
...     dst = LocalMemAllocator[Hardware.UB]().Alloc[uint16_t, 128]()
...     offset = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 8]()
...     src.GetPhyAddr().write(np.arange(128)); offset.GetPhyAddr().write(np.arange(8)[::-1] * 32)
...     PipeBarrier[PIPE_ALL]()
...     Gatherb(dst, src, offset, 1, GatherRepeatParams(1, 8)); PipeBarrier[PIPE_ALL]()
...     dst.GetPhyAddr().read(128)[::16].tolist()
[112, 96, 80, 64, 48, 32, 16, 0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import half, uint8_t, uint32_t
from ascreg._frontend import operands
from ascreg.basic._repeat import repeat_lanes
from ascreg.basic._structs import GatherRepeatParams
from ascreg.basic._tensor import LocalTensor
from ascreg.core.arith import BINARY_OPS
from ascreg.core.rearrange import gather_blocks
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

__all__ = ["BilinearInterpolation", "GatherRepeatParams", "Gatherb"]

BLOCKS_PER_REPEAT = 8
"""DataBlocks one repeat gathers (one register)."""
GATHERB_SIZES = (1, 2, 4, 8)
"""The element sizes the 950 takes (int8_t ... uint64_t, half, bfloat16_t, float)."""


def _tensor(value: Any, role: str) -> LocalTensor[Any]:
    if not isinstance(value, LocalTensor):
        raise AscregTypeError(f"{role} must be a LocalTensor, got {value!r:.60}", call="Gatherb")
    value.GetPhyAddr().require_alignment(DATA_BLOCK, f"Gatherb: {role} must be 32-byte aligned")
    return value


def Gatherb(
    dst: LocalTensor[Any],
    src: LocalTensor[Any],
    offset: LocalTensor[Any],
    repeatTime: Any,
    repeatParams: GatherRepeatParams,
) -> None:
    """``Gatherb<T>(dst, src, offset, repeatTime, GatherRepeatParams)``: gather DataBlocks by offset.

    ``offset`` (``LocalTensor<uint32_t>``) holds a byte offset from ``src`` per DataBlock, each
    a multiple of 32 (an unaligned one is undefined on the chip: an ``AlignmentError``); the
    blocks read must lie in ``src``'s allocation. ``dst`` and the blocks read must not overlap
    (the page: src and dst must not share memory). ``T``: any 1-, 2-, 4- or 8-byte type.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
    ...     offset = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 8]()
    ...     src.GetPhyAddr().write(np.arange(64)); offset.GetPhyAddr().write(np.full(8, 32))
    ...     Duplicate(dst, -1.0, 128); PipeBarrier[PIPE_ALL]()
    ...     Gatherb(dst, src, offset, 1, GatherRepeatParams(2, 8)); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(24).tolist()
    [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]
    """
    _ascreg_call = "Gatherb"
    d, s, o = _tensor(dst, "dst"), _tensor(src, "src"), _tensor(offset, "offset")
    dtype = d._dtype()
    if s._dtype() is not dtype:
        raise AscregTypeError(f"src is a {s._cpp()} but dst is a {d._cpp()} (one T)")
    if dtype.size not in GATHERB_SIZES:
        raise AscregTypeError(f"T = {dtype.cpp_name} is not a 1-, 2-, 4- or 8-byte type")
    if o._dtype() is not uint32_t:
        raise AscregTypeError(f"offset is a {o._cpp()}; it must be LocalTensor<uint32_t>")
    repeats = operands.in_range(repeatTime, "repeatTime", 0, 255, "uint8_t")
    params = operands.instance(repeatParams, GatherRepeatParams, "repeatParams")
    block_stride = params.dstBlkStride or 1  # the page: 0 is handled as 1
    ctx = current_block()
    with ctx.on_pipe(Pipe.PIPE_V):
        offsets = o.GetPhyAddr().read(repeats * BLOCKS_PER_REPEAT).astype(np.int64)
        _check_offsets(offsets)
        source = s.GetPhyAddr().cast(uint8_t)
        blocks = [(source + int(at)).view(DATA_BLOCK).copy() for at in offsets]
        target = d.GetPhyAddr().cast(uint8_t)
        placed = [(i * params.dstRepStride + j * block_stride) * DATA_BLOCK
                  for i in range(repeats) for j in range(BLOCKS_PER_REPEAT)]  # fmt: skip
        _check_overlap(target.address, placed, source.address, offsets)
        for i in range(repeats):
            row = blocks[i * BLOCKS_PER_REPEAT : (i + 1) * BLOCKS_PER_REPEAT]
            data = gather_blocks(row, np.ones(BLOCKS_PER_REPEAT, np.bool_), DATA_BLOCK)
            for j in range(BLOCKS_PER_REPEAT):
                at = placed[i * BLOCKS_PER_REPEAT + j]
                (target + at).write(data[j * DATA_BLOCK : (j + 1) * DATA_BLOCK], call="Gatherb")


def _check_offsets(offsets: np.ndarray[Any, Any]) -> None:
    for value in offsets[offsets % DATA_BLOCK != 0][:1]:
        undefined_behaviour(
            AlignmentError(
                f"offset {int(value)} is not a multiple of 32: the page requires src + offset "
                "to be 32-byte aligned",
                call="Gatherb",
            )
        )


def _check_overlap(dst: int, placed: list[int], src: int, offsets: np.ndarray[Any, Any]) -> None:
    written = {dst + at for at in placed}
    read = {src + int(at) for at in offsets}
    both = sorted(written & read)
    if both:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"the DataBlock at UB {both[0]:#x} is both read and written: the page forbids src "
                "and dst sharing memory",
                call="Gatherb",
            )
        )


def _gathered(source: Any, offsets: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Return the 8 DataBlocks at *offsets* bytes past *source* (a byte pointer), as one register."""
    _check_offsets(offsets)
    blocks = [(source + int(at)).view(DATA_BLOCK).copy() for at in offsets]
    return gather_blocks(blocks, np.ones(BLOCKS_PER_REPEAT, np.bool_), DATA_BLOCK)


def BilinearInterpolation(
    dst: LocalTensor[Any],
    src0: LocalTensor[Any],
    src0Offset: LocalTensor[Any],
    src1: LocalTensor[Any],
    mask: Any,
    hRepeat: Any,
    repeatMode: bool,
    dstBlkStride: Any,
    vROffset: Any,
    vRepeat: Any,
    sharedTmpBuffer: LocalTensor[Any],
) -> None:
    """``BilinearInterpolation<T>(dst, src0, src0Offset, src1, mask, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer)``.

    For each vertical repeat ``i`` (``vRepeat``) and horizontal step ``j`` (``hRepeat``), with
    ``k = i * hRepeat + j``: gather the 8 DataBlocks of ``src0`` at the byte offsets
    ``src0Offset[8k .. 8k+7]`` (as ``Gatherb``), multiply them by ``src1[k]`` (``repeatMode``
    false) or block ``b`` by ``src1[8k + b]`` (true), and add the product to the sum of the
    earlier steps (``acc = product + acc``, from 0, each half operation rounded once: the
    register ``Mul`` and ``Add``). The sum's selected lanes (``mask``: a count of the 128 lanes,
    or two ``uint64`` words) are stored DataBlock by DataBlock at ``dst + i * vROffset``
    elements, ``dstBlkStride`` DataBlocks apart; the other lanes of ``dst`` are not written.
    ``T`` is half. The 950 needs no ``sharedTmpBuffer`` (any ``LocalTensor<uint8_t>``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint8_t, uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src0 = LocalMemAllocator[Hardware.UB]().Alloc[half, 512]()
    ...     offset = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 32]()
    ...     src1 = LocalMemAllocator[Hardware.UB]().Alloc[half, 32]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
    ...     tmp = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
    ...     src0.GetPhyAddr().write(np.arange(1, 513)); offset.GetPhyAddr().write(np.arange(32) * 32)
    ...     src1.GetPhyAddr().write(np.arange(2, 34)); PipeBarrier[PIPE_ALL]()
    ...     BilinearInterpolation(dst, src0, offset, src1, 128, 2, False, 1, 128, 2, tmp)
    ...     PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(256)[[0, 127, 128, 255]].tolist()
    [389.0, 1024.0, 2952.0, 4096.0]
    """
    _ascreg_call = "BilinearInterpolation"
    d, a, o, b = (_tensor(t, role) for t, role in ((dst, "dst"), (src0, "src0"),
                                                    (src0Offset, "src0Offset"), (src1, "src1")))  # fmt: skip
    for tensor, role in ((d, "dst"), (a, "src0"), (b, "src1")):
        if tensor._dtype() is not half:
            raise AscregTypeError(f"{role} is a {tensor._cpp()}; T must be half (the 950's type)")
    if o._dtype() is not uint32_t:
        raise AscregTypeError(f"src0Offset is a {o._cpp()}; it must be LocalTensor<uint32_t>")
    tmp = operands.instance(sharedTmpBuffer, LocalTensor, "sharedTmpBuffer")
    if tmp._dtype() is not uint8_t:
        raise AscregTypeError(f"sharedTmpBuffer is a {tmp._cpp()}; it must be LocalTensor<uint8_t>")
    h = operands.in_range(hRepeat, "hRepeat", 1, 255)
    v = operands.in_range(vRepeat, "vRepeat", 1, 255)
    step = operands.in_range(vROffset, "vROffset", 128, 65534)
    stride = operands.in_range(dstBlkStride, "dstBlkStride", 0, 65535, "uint16_t")
    if step * half.size % DATA_BLOCK:
        raise AscregError(
            f"vROffset * sizeof(half) = {step * 2} is not a multiple of 32 (the page)"
        )
    if repeatMode and b.GetSize() * 16 < a.GetSize():
        raise AscregError(
            f"repeatMode true needs src1's length * 16 >= src0's: {b.GetSize()} * 16 < {a.GetSize()}"
        )
    if (7 * stride + 1) * DATA_BLOCK > step * half.size:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"the vertical repeats' destinations overlap ({7 * stride + 1} DataBlocks each, "
                f"vROffset {step} elements apart): the page forbids it",
                call="BilinearInterpolation",
            )
        )
    active = repeat_lanes(half, mask, 1).active[0]
    mul, add = BINARY_OPS["Mul"], BINARY_OPS["Add"]
    with current_block().on_pipe(Pipe.PIPE_V):
        offsets = o.GetPhyAddr().read(8 * h * v).astype(np.int64)
        scales = b.GetPhyAddr().read(min(b.GetSize(), 8 * h * v if repeatMode else h * v))
        source = a.GetPhyAddr().cast(uint8_t)
        for i in range(v):
            acc = np.zeros(128, np.float16)
            for j in range(h):
                k = i * h + j
                row = _gathered(source, offsets[8 * k : 8 * k + 8]).view(np.float16)
                factor = (
                    np.repeat(scales[8 * k : 8 * k + 8], 16)
                    if repeatMode
                    else np.full(128, scales[k])
                )
                product = np.where(active, mul(row, factor), np.float16(0))
                acc = np.where(active, add(product, acc), np.float16(0))
            base = d.GetPhyAddr(i * step)
            for blk in range(BLOCKS_PER_REPEAT):
                lanes = active[16 * blk : 16 * blk + 16]
                if lanes.any():
                    where = np.nonzero(lanes)[0] + blk * stride * 16
                    base[where] = acc[16 * blk : 16 * blk + 16][lanes]

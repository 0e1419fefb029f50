"""``Gatherb``: gather whole DataBlocks of a ``LocalTensor`` by byte offsets (离散与聚合/Gatherb).

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

from ascreg._dtypes import uint8_t, uint32_t
from ascreg._frontend import operands
from ascreg.basic._structs import GatherRepeatParams
from ascreg.basic._tensor import LocalTensor
from ascreg.core.rearrange import gather_blocks
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

__all__ = ["GatherRepeatParams", "Gatherb"]

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

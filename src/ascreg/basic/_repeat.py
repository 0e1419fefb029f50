"""Repeat parameters and vector masks of the memory-level basic API.

A memory-level vector op runs in one of two shapes (the SIMD计算说明 pages):

* the **count form** ``Op(dst, src, count)``: the first *count* elements, contiguous;
* the **repeat forms** ``Op(dst, src, mask, repeatTime, repeatParams)``: *repeatTime* repeats of
  eight 32-byte DataBlocks each, block ``b`` of repeat ``r`` of an operand at
  ``base + (r * repStride + b * blkStride) * 32`` bytes, the lanes chosen by *mask*: a bit per lane
  (``uint64_t mask[]``, the "逐bit" mode) or the first *mask* lanes (the "连续" mode).

The mask mode is core state: ``SetMaskNorm()`` (the default) applies the mask to every repeat;
``SetMaskCount()`` (``CTRL[56]``) makes *mask* the element count of the whole op and ignores
*repeatTime*. ``SetVectorMask`` writes the mask SPR that an op with ``isSetMask = false`` reads
instead of its *mask* argument (which is then ``MASK_PLACEHOLDER``).

Examples
--------
>>> from ascreg import half
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     lanes = repeat_lanes(half, [0b1011, 0], 2)
...     lanes.active.shape, lanes.active[1, :4].tolist()
((2, 128), [True, True, False, True])
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.spr import read_mask_spr, write_mask_spr
from ascreg.machine.sysregs import COUNTER_MASK_MODE, system_registers

VL = 256
"""Bytes of one repeat: eight 32-byte DataBlocks (one vector register)."""
BLOCKS = VL // DATA_BLOCK
"""DataBlocks per repeat."""
MAX_REPEAT = 255
"""The largest ``repeatTime`` (a ``uint8_t``)."""
CTRL_COUNTER = COUNTER_MASK_MODE
"""The CTRL bit of the counter mask mode (``SetMaskCount``)."""
FULL_MASK = (1 << 64) - 1
"""All 64 bits of one mask word (``ResetMask`` writes it to both halves of the SPR)."""


def _stride(value: Any, role: str, bits: int) -> int:
    return operands.in_range(value, role, 0, (1 << bits) - 1)


@attrs.define
class UnaryRepeatParams:
    """``AscendC::UnaryRepeatParams``: the strides of a one-source repeat form, in DataBlocks.

    ``dstBlkStride`` / ``srcBlkStride`` (``uint16_t``) separate the DataBlocks of one repeat;
    ``dstRepStride`` / ``srcRepStride`` (``uint8_t``) the starts of consecutive repeats. A C++
    braced initialiser ``{1, 1, 8, 8}`` may be written as the tuple ``(1, 1, 8, 8)``.

    Examples
    --------
    >>> UnaryRepeatParams(1, 2, 8, 16)
    UnaryRepeatParams(dstBlkStride=1, srcBlkStride=2, dstRepStride=8, srcRepStride=16, halfBlock=False)
    """

    dstBlkStride: int = 1
    srcBlkStride: int = 1
    dstRepStride: int = 8
    srcRepStride: int = 8
    halfBlock: bool = False

    def strides(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Return ``((dst block, dst repeat), (src block, src repeat))``, checked."""
        return (
            (_stride(self.dstBlkStride, "dstBlkStride", 16),
             _stride(self.dstRepStride, "dstRepStride", 8)),
            (_stride(self.srcBlkStride, "srcBlkStride", 16),
             _stride(self.srcRepStride, "srcRepStride", 8)),
        )  # fmt: skip


@attrs.define
class BinaryRepeatParams:
    """``AscendC::BinaryRepeatParams``: the strides of a two-source repeat form, in DataBlocks.

    The block strides and repeat strides of ``dst``, ``src0`` and ``src1`` (each a
    ``uint8_t``); ``{1, 1, 1, 8, 8, 8}`` (contiguous) is the default.

    Examples
    --------
    >>> BinaryRepeatParams(1, 1, 1, 0, 8, 0).dstRepStride
    0
    """

    dstBlkStride: int = 1
    src0BlkStride: int = 1
    src1BlkStride: int = 1
    dstRepStride: int = 8
    src0RepStride: int = 8
    src1RepStride: int = 8

    def strides(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """Return the ``(block, repeat)`` strides of dst, src0 and src1, checked."""
        return tuple(  # type: ignore[return-value]
            (_stride(getattr(self, f"{role}BlkStride"), f"{role}BlkStride", 8),
             _stride(getattr(self, f"{role}RepStride"), f"{role}RepStride", 8))
            for role in ("dst", "src0", "src1")
        )  # fmt: skip


def repeat_params(value: Any, kind: type[Any]) -> Any:
    """Return *value* as a *kind* struct (a tuple is the C++ braced initialiser), or raise.

    Examples
    --------
    >>> repeat_params((1, 1, 8, 8), UnaryRepeatParams).srcRepStride
    8
    >>> repeat_params(3, UnaryRepeatParams)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: repeatParams must be a UnaryRepeatParams or a tuple of its fields, got 3
    """
    if isinstance(value, kind):
        return value
    if isinstance(value, tuple | list) and len(value) <= len(attrs.fields(kind)):
        return kind(*value)
    raise AscregTypeError(
        f"repeatParams must be a {kind.__name__} or a tuple of its fields, got {value!r:.60}"
    )


class MaskMode(enum.IntEnum):
    """``AscendC::MaskMode``: how ``SetVectorMask`` reads its arguments.

    Examples
    --------
    >>> MaskMode.COUNTER.value
    1
    """

    NORMAL = 0
    COUNTER = 1


def counter_mode() -> bool:
    """Return True when the running block is in the counter mask mode (``CTRL[56]``)."""
    return bool(system_registers().ctrl >> CTRL_COUNTER & 1)


def SetMaskCount() -> None:
    """``AscendC::SetMaskCount()``: the counter mask mode (``CTRL[56] = 1``).

    In counter mode a repeat form's *mask* (``mask[0]`` in the bit form) is the number of
    elements of the whole op and *repeatTime* is ignored; ``SetMaskNorm`` switches back.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetMaskCount(); on = counter_mode(); SetMaskNorm(); on, counter_mode()
    (True, False)
    """
    regs = system_registers()
    regs.ctrl |= 1 << CTRL_COUNTER


def SetMaskNorm() -> None:
    """``AscendC::SetMaskNorm()``: the normal mask mode (the default); see :func:`SetMaskCount`.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetMaskNorm(); counter_mode()
    False
    """
    regs = system_registers()
    regs.ctrl &= ~(1 << CTRL_COUNTER)


def ResetMask() -> None:
    """``AscendC::ResetMask()``: every bit of the mask SPR set (``set_vector_mask(-1, -1)``).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.spr import read_mask_spr
    >>> with block(BlockContext()):
    ...     ResetMask(); read_mask_spr() == (1 << 128) - 1
    True
    """
    write_mask_spr(FULL_MASK << 64 | FULL_MASK)


def _lanes_of(dtype: type[Scalar]) -> int:
    return VL // dtype.size


class _SetVectorMask:
    """``SetVectorMask<T, MaskMode mode = NORMAL>(maskHigh, maskLow)`` / ``(len)``."""

    def __getitem__(self, params: Any) -> Any:
        items = params if isinstance(params, tuple) else (params,)
        dtype = items[0]
        mode = items[1] if len(items) > 1 else MaskMode.NORMAL
        if not isinstance(dtype, type) or not issubclass(dtype, Scalar):
            raise AscregTypeError("SetVectorMask needs its element type: SetVectorMask[T](...)")
        if not isinstance(mode, MaskMode):
            raise AscregTypeError(f"SetVectorMask's mode is a MaskMode, got {mode!r:.40}")

        def set_vector_mask(*args: Any) -> None:
            _ascreg_call = "SetVectorMask"
            if len(args) == 2:
                high = operands.in_range(args[0], "maskHigh", 0, FULL_MASK)
                low = operands.in_range(args[1], "maskLow", 0, FULL_MASK)
                write_mask_spr(high << 64 | low)
                return
            if len(args) != 1:
                raise AscregTypeError("SetVectorMask takes (maskHigh, maskLow) or (len)")
            length = operands.in_range(args[0], "len", 0, (1 << 31) - 1)
            if mode is MaskMode.COUNTER:
                write_mask_spr(length)
                return
            width = _lanes_of(dtype)
            if length > width:
                raise AscregError(
                    f"len {length} is more than the {width} lanes of {dtype.cpp_name}"
                )
            write_mask_spr((1 << length) - 1)

        return set_vector_mask

    def __repr__(self) -> str:
        return "SetVectorMask"


SetVectorMask = _SetVectorMask()
"""``AscendC::SetVectorMask<T, MaskMode mode = NORMAL>``: write the vector mask SPR.

``SetVectorMask[T](maskHigh, maskLow)`` writes the 128-bit SPR (lane i of a 16-bit type is
bit i, of a 32-bit type bit i of ``maskLow``); ``SetVectorMask[T](len)`` enables the first
*len* lanes of ``T`` (``MaskMode.COUNTER``: *len* is the element count of the counter mode).
The ops read it when called with ``isSetMask = false`` (``Adds[half, False](...)``).

Examples
--------
>>> from ascreg import float32_t
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.spr import read_mask_spr
>>> with block(BlockContext()):
...     SetVectorMask[float32_t](8); hex(read_mask_spr())
'0xff'
"""


@attrs.frozen
class Lanes:
    """Which lanes of which repeats an op processes.

    Attributes
    ----------
    active
        ``(repeats, width)`` booleans: lane ``j`` of repeat ``r`` takes part.
    contiguous
        The count form: lane ``j`` of repeat ``r`` is element ``r * width + j`` of every operand
        (the strides do not apply); repeats are not separated by a store-to-load barrier.
    """

    active: np.ndarray[Any, Any]
    contiguous: bool = False

    @property
    def repeats(self) -> int:
        """The number of repeats."""
        return int(self.active.shape[0])

    @property
    def width(self) -> int:
        """Lanes per repeat."""
        return int(self.active.shape[1])


def count_lanes(count: Any, width: int, role: str = "count") -> Lanes:
    """Return the lanes of a count form: the first *count* elements, *width* per repeat.

    Examples
    --------
    >>> count_lanes(5, 4).active.astype(int).tolist()
    [[1, 1, 1, 1], [1, 0, 0, 0]]
    """
    n = operands.in_range(count, role, 0, (1 << 31) - 1)
    repeats = -(-n // width)
    active = np.arange(repeats * width).reshape(repeats, width) < n
    return Lanes(active, contiguous=True)


def _mask_bits(mask: Any, width: int) -> np.ndarray[Any, Any]:
    """Return the lane enables of a ``uint64_t mask[]`` for *width* lanes (bit i of word i // 64)."""
    if isinstance(mask, str | bytes) or not isinstance(mask, Sequence | np.ndarray):
        raise AscregTypeError(f"mask[] must be a sequence of uint64 words, got {mask!r:.60}")
    words = [operands.in_range(w, f"mask[{i}]", 0, FULL_MASK) for i, w in enumerate(mask)]
    needed = -(-width // 64)
    if len(words) < needed:
        raise AscregTypeError(f"mask[] holds {len(words)} word(s); {width} lanes need {needed}")
    value = sum(w << (64 * i) for i, w in enumerate(words[:needed]))
    return np.array([value >> j & 1 for j in range(width)], dtype=bool)


def repeat_lanes(
    dtype: type[Scalar],
    mask: Any,
    repeat_time: Any,
    *,
    set_mask: bool = True,
    width: int | None = None,
) -> Lanes:
    """Return the lanes of a repeat form whose mask counts lanes of *dtype* (*width* per repeat).

    Normal mode: *repeat_time* repeats, each with the lanes *mask* selects (a sequence of
    ``uint64`` words: a bit per lane; an integer: the first *mask* lanes). With ``isSetMask``
    true the bit form also writes the mask SPR, as ``SetVectorMask`` does; with it false the
    SPR is the mask and *mask* is ignored. Counter mode (``SetMaskCount``): *mask* (``mask[0]``)
    elements in all, *repeat_time* ignored (with ``isSetMask`` false the SPR's low 64 bits are
    the count).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetMaskCount(); lanes = repeat_lanes(float32_t, 70, 9); SetMaskNorm()
    ...     lanes.repeats, int(lanes.active.sum())
    (2, 70)
    """
    width = width or _lanes_of(dtype)
    bits = not isinstance(mask, int | np.integer)
    if counter_mode():
        if not set_mask:
            count = read_mask_spr() & FULL_MASK
        else:
            count = operands.in_range(mask[0] if bits else mask, "mask", 0, FULL_MASK)
        repeats = -(-count // width)
        return Lanes(np.arange(repeats * width).reshape(repeats, width) < count)
    times = operands.in_range(repeat_time, "repeatTime", 0, MAX_REPEAT)
    if not set_mask:
        spr = read_mask_spr()
        enables = np.array([spr >> j & 1 for j in range(width)], dtype=bool)
    elif bits:
        enables = _mask_bits(mask, width)
        words = [int(w) for w in mask]
        write_mask_spr((words[1] if len(words) > 1 else 0) << 64 | words[0])
    else:
        enables = np.arange(width) < operands.in_range(mask, "mask", 0, FULL_MASK)
    return Lanes(np.broadcast_to(enables, (times, width)))


def block_state() -> dict[str, Any]:
    """Return the running block's state dictionary (the deq scale and the other basic-API settings)."""
    return current_block().state

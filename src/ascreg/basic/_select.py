"""Memory-level ``Compare``, ``Compares`` and ``Select`` on ``LocalTensor``.

``Compare`` / ``Compares`` write one bit per lane (1: the comparison holds in a selected lane;
masked-off lanes and the lanes past *count* in the last repeat give 0), repeat after repeat,
``256 / sizeof(T)`` bits each, packed LSB first into the bytes of ``dst`` from its start: the
950 stores each repeat's ``MaskReg`` with ``StoreUnAlign``, so every repeat writes all its
``256 / sizeof(T) / 8`` bytes. ``Select`` reads such bits back: lane ``j`` of repeat ``r`` takes
``src0`` when its ``selMask`` bit is 1, else ``src1``; in ``VSEL_CMPMASK_SPR`` mode every repeat
uses the first ``256 / sizeof(T)`` bits, in the other two modes repeat ``r`` uses bits
``r * 256 / sizeof(T)`` on. The comparisons are the register ``Compare``'s (IEEE: a NaN makes
every mode false but NE; +0 == -0).

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, uint8_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
...     bits = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
...     x.GetPhyAddr().write(np.arange(64) - 2.0); PipeBarrier[PIPE_ALL]()
...     Compares(bits, x, 0.0, CMPMODE.GT, 64)
...     Select(y, bits, x, 0.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, 64); PipeBarrier[PIPE_ALL]()
...     bits.GetPhyAddr().read(1).tolist(), y.GetPhyAddr().read(5).tolist()
([248], [0.0, 0.0, 0.0, 1.0, 2.0])
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, uint8_t
from ascreg.basic._engine import Stream, run
from ascreg.basic._forms import form_lanes, streams
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import BinaryRepeatParams, Lanes, UnaryRepeatParams
from ascreg.basic._tensor import LocalTensor
from ascreg.basic._vector import BinaryConfig, split_scalar
from ascreg.core import compare
from ascreg.enums import CMPMODE
from ascreg.errors import (
    AscregTypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

Array = np.ndarray[Any, Any]


class SELMODE(enum.IntEnum):
    """``AscendC::SELMODE``: where ``Select`` takes its operands from.

    ``VSEL_CMPMASK_SPR`` and ``VSEL_TENSOR_TENSOR_MODE`` choose between two tensors (the first
    reuses the first repeat's ``selMask`` bits in every repeat, the second consumes them
    repeat after repeat); ``VSEL_TENSOR_SCALAR_MODE`` between a tensor and a scalar.

    Examples
    --------
    >>> SELMODE.VSEL_TENSOR_TENSOR_MODE.value
    2
    """

    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


class _SelectOp(BasicOp):
    value_kinds = (BinaryConfig,)
    max_dtypes = 2


def _mode(op: BasicOp, value: Any, kind: type[enum.Enum]) -> Any:
    if not isinstance(value, kind):
        raise AscregTypeError(
            f"the mode must be a {kind.__name__}, got {value!r:.40}", call=op.name
        )
    return value


def _bit_bytes(op: BasicOp, lanes: Lanes, dst: LocalTensor[Any]) -> int:
    """Return the bytes a ``Compare`` writes: ``256 / sizeof(T)`` bits per repeat (checked)."""
    count = lanes.repeats * lanes.width // 8
    have = dst.GetLength()
    if count > have:
        raise OutOfBoundsError(
            f"dst takes {count} bytes of comparison bits ({lanes.repeats} repeat(s) of "
            f"{lanes.width} bits) but {dst._cpp()} holds {have}",
            call=op.name,
        )
    return count


def _store_bits(
    op: BasicOp, lanes: Lanes, dst: LocalTensor[Any], bits: Array, sources: list[Stream]
) -> None:
    """Write the repeats' bits to the bytes of *dst* on ``PIPE_V``."""
    nbytes = _bit_bytes(op, lanes, dst)
    if nbytes == 0:
        return
    ptr = dst.GetPhyAddr().cast(uint8_t)
    ptr.require_alignment(DATA_BLOCK, f"{op.name}: dst of a vector op must be 32-byte aligned")
    start, end = ptr.address, ptr.address + nbytes
    for s in sources:
        base = s.tensor.GetPhyAddr().address
        if base < end and start < base + s.tensor.GetLength():
            undefined_behaviour(
                UndefinedBehaviourError(
                    f"dst overlaps {s.role}: the comparison bits of one repeat are stored before "
                    "the next repeat loads, with no barrier between them",
                    call=op.name,
                )
            )
    packed = np.packbits(bits.astype(np.uint8), axis=-1, bitorder="little").reshape(-1)
    with current_block().on_pipe(Pipe.PIPE_V):
        ptr.write(packed[:nbytes])


def _compare_bits(op: BasicOp, lanes: Lanes, srcs: list[Stream], test: Any) -> Array:
    """Run *test* over the active lanes of *srcs*; return the ``(repeats, width)`` result bits."""
    bits = np.zeros(lanes.active.shape, dtype=bool)

    def compute(rep: Array, lane: Array, *values: Array) -> list[Array]:
        bits[rep, lane] = test(*values)
        return []

    run(op.name, lanes, [], srcs, compute, positions=True)
    return bits


@basic_op("Compare", base=_SelectOp)
def Compare(op: BasicOp, dst: Any, src0: Any, src1: Any, cmpMode: Any, *rest: Any) -> None:
    """``Compare<T, U>(dst, src0, src1, cmpMode, count)`` / ``(..., cmpMode, mask, repeatTime, BinaryRepeatParams)``.

    Bit ``k`` of ``dst`` (``uint8_t`` / ``int8_t`` elements, LSB first) is 1 when element ``k``
    is selected and ``src0[k] <cmpMode> src1[k]`` holds. Each repeat writes all its
    ``256 / sizeof(T)`` bits (0 for masked-off lanes and, in the count form, for the lanes past
    *count*); ``dst``'s strides in the repeat params are not used. Types: T int8_t ... uint64_t
    (8- and 64-bit types: the count form only), U int8_t, uint8_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[half, 128]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[half, 128]()
    ...     bits = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
    ...     a.GetPhyAddr().write(np.arange(128)); b.GetPhyAddr().write(np.full(128, 5.0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     Compare(bits, a, b, CMPMODE.LT, 10); PipeBarrier[PIPE_ALL]()
    ...     bits.GetPhyAddr().read(3).tolist()
    [31, 0, 0]
    """
    mode = _mode(op, cmpMode, CMPMODE).name
    dtype, bits_type = op.dtypes((src0, "src0"), (dst, "dst"))
    if op.tensor(src1, "src1")._dtype() is not dtype:
        raise AscregTypeError(f"src1 is a {src1._cpp()} but src0 is a {src0._cpp()} (one T)")
    lanes, strides = form_lanes(op, (dtype, bits_type), rest, BinaryRepeatParams,
                                "dst, src0, src1, cmpMode", dtype)  # fmt: skip
    sources = streams(((src0, "src0"), (src1, "src1")), strides[1:])
    bits = _compare_bits(op, lanes, sources, lambda a, b: compare.compare(mode, a, b))
    _store_bits(op, lanes, dst, bits, sources)


@basic_op("Compares", base=_SelectOp)
def Compares(op: BasicOp, dst: Any, src0: Any, src1: Any, cmpMode: Any, *rest: Any) -> None:
    """``Compares<T, U>(dst, src0, src1Scalar, cmpMode, count)`` / ``(..., cmpMode, mask, repeatTime, UnaryRepeatParams)``.

    ``Compare`` against one scalar (converted to ``T``): bit ``k`` of ``dst`` is
    ``src0[k] <cmpMode> scalar``. Either source may be the scalar (the "灵活标量位置" forms:
    ``scalar <cmpMode> src1[k]``), or both LocalTensors with element 0 of source
    ``BinaryConfig.scalarTensorIndex`` the scalar. U is uint8_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int32_t, uint8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 64]()
    ...     bits = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
    ...     a.GetPhyAddr().write(np.arange(64) % 4); PipeBarrier[PIPE_ALL]()
    ...     Compares(bits, a, 2, CMPMODE.GE, 64); PipeBarrier[PIPE_ALL]()
    ...     bits.GetPhyAddr().read(2).tolist()
    [204, 204]
    """
    mode = _mode(op, cmpMode, CMPMODE).name
    (bits_type,) = op.dtypes((dst, "dst"))
    vector = src1 if isinstance(src1, LocalTensor) and not isinstance(src0, LocalTensor) else src0
    dtype = op.tensor(vector, "src0")._dtype()
    if op.t.dtypes and op.t.dtypes[0] is not dtype:
        raise AscregTypeError(
            f"template argument {op.t.dtypes[0].cpp_name} does not match the source {vector._cpp()}"
        )
    vector, role, value, left = split_scalar(op, dtype, src0, src1)
    lanes, strides = form_lanes(op, (dtype, bits_type), rest, UnaryRepeatParams,
                                "dst, src0, src1, cmpMode", dtype)  # fmt: skip
    sources = streams(((vector, role),), strides[1:])

    def test(values: Array) -> Array:
        scalar = np.full(values.shape, value, dtype=values.dtype)
        return (
            compare.compare(mode, scalar, values) if left else compare.compare(mode, values, scalar)
        )

    bits = _compare_bits(op, lanes, sources, test)
    _store_bits(op, lanes, dst, bits, sources)


def _selection_bits(
    op: BasicOp, sel: LocalTensor[Any], lanes: Lanes, mode: SELMODE
) -> tuple[Array, Array]:
    """Return the ``selMask`` bits of the active lanes as a ``(repeats, width)`` table (PIPE_V)."""
    rep, lane = np.nonzero(lanes.active)
    index = lane if mode is SELMODE.VSEL_CMPMASK_SPR else rep * lanes.width + lane
    table = np.zeros(lanes.active.shape, dtype=bool)
    if index.size == 0:
        return table, index
    needed = np.unique(index // 8)
    have = sel.GetLength()
    if int(needed[-1]) >= have:
        raise OutOfBoundsError(
            f"selMask reaches byte {int(needed[-1])} of the {have}-byte {sel._cpp()}", call=op.name
        )
    ptr = sel.GetPhyAddr().cast(uint8_t)
    ptr.require_alignment(DATA_BLOCK, f"{op.name}: selMask of a vector op must be 32-byte aligned")
    with current_block().on_pipe(Pipe.PIPE_V):
        data = np.zeros(int(needed[-1]) + 1, dtype=np.uint8)
        data[needed] = ptr[needed]
    table[rep, lane] = (data[index // 8] >> (index % 8)) & 1
    return table, index


def _select_operands(
    op: BasicOp, dtype: type[Scalar], mode: SELMODE, src0: Any, src1: Any
) -> tuple[Any, ...]:
    """Return ``(tensor0, tensor1 or None, scalar, scalar_first)`` of the two sources."""
    tensors = isinstance(src0, LocalTensor) and isinstance(src1, LocalTensor)
    if mode is not SELMODE.VSEL_TENSOR_SCALAR_MODE:
        if not tensors:
            raise AscregTypeError(
                f"{mode.name} selects between two LocalTensors; a scalar takes VSEL_TENSOR_SCALAR_MODE",
                call=op.name,
            )
        return src0, src1, None, False
    vector, _role, value, left = split_scalar(op, dtype, src0, src1)
    return vector, None, value, left


@basic_op("Select", base=_SelectOp)
def Select(
    op: BasicOp, dst: Any, selMask: Any, src0: Any, src1: Any, selMode: Any, *rest: Any
) -> None:
    """``Select<T, U>(dst, selMask, src0, src1, selMode, count)`` / ``(..., selMode, mask, repeatTime, BinaryRepeatParams)``.

    ``dst[k] = bit ? src0[k] : src1[k]`` for the selected lanes, the bit from ``selMask``
    (LSB first): in ``VSEL_CMPMASK_SPR`` mode lane ``j`` of every repeat takes bit ``j``; in
    ``VSEL_TENSOR_TENSOR_MODE`` and ``VSEL_TENSOR_SCALAR_MODE`` lane ``j`` of repeat ``r`` takes
    bit ``r * 256 / sizeof(T) + j``. ``VSEL_TENSOR_SCALAR_MODE`` chooses against a scalar (either
    source; or both LocalTensors with element 0 of ``BinaryConfig.scalarTensorIndex`` the
    scalar). Masked-off lanes are not written; the copy is bit-exact (NaN payloads kept).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int16_t, uint8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 128]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 128]()
    ...     sel = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
    ...     a.GetPhyAddr().write(np.arange(128)); b.GetPhyAddr().write(-np.arange(128))
    ...     sel.GetPhyAddr().write([0b0101] + [0] * 31); PipeBarrier[PIPE_ALL]()
    ...     Select(a, sel, a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, 6); PipeBarrier[PIPE_ALL]()
    ...     a.GetPhyAddr().read(6).tolist()
    [0, -1, 2, -3, -4, -5]
    """
    mode = _mode(op, selMode, SELMODE)
    dtype, sel_type = op.dtypes((dst, "dst"), (selMask, "selMask"))
    first, second, value, left = _select_operands(op, dtype, mode, src0, src1)
    lanes, strides = form_lanes(op, (dtype, sel_type), rest, BinaryRepeatParams,
                                "dst, selMask, src0, src1, selMode", dtype)  # fmt: skip
    table, _ = _selection_bits(op, selMask, lanes, mode)
    tensors = ((first, "src0"),) if second is None else ((first, "src0"), (second, "src1"))
    for tensor, role in tensors:
        if tensor._dtype() is not dtype:
            raise AscregTypeError(f"{role} is a {tensor._cpp()} but dst is a {dst._cpp()} (one T)")
    picked = strides[1:2] if second is None else strides[1:]

    def compute(rep: Array, lane: Array, a: Array, b: Array | None = None) -> list[Array]:
        other = b if b is not None else np.full(a.shape, value, dtype=a.dtype)
        chosen = table[rep, lane]
        return [compare.select(chosen, other, a) if left else compare.select(chosen, a, other)]

    run(op.name, lanes, streams(((dst, "dst"),), strides[:1]), streams(tensors, picked), compute,
        positions=True)  # fmt: skip


__all__ = ["SELMODE", "Compare", "Compares", "Select"]

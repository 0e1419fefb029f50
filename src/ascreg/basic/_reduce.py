"""Memory-level reductions on ``LocalTensor``: whole tensors, per repeat, and the 2-D patterns.

On the Ascend 950 each is a VF of register ops (``kernel_operator_vec_reduce_impl.h`` of
``dav_3510``), so the results follow those ops' order and rounding:

* ``ReduceSum(dst, src, sharedTmpBuffer, count)``: up to one register (``256 / sizeof(T)``
  elements) the register ``ReduceSum`` (the pairwise tree); up to four registers the vectors are
  first added lane by lane (the first two, the third, then the fourth into the third, as the
  page's "方式三"); beyond that each register's sum goes to ``sharedTmpBuffer`` and those sums
  are reduced again (twice past ``(256 / sizeof(T))**2`` elements). The repeat forms
  ``(mask, repeatTime, srcRepStride)`` reduce each repeat's selected lanes into
  ``sharedTmpBuffer`` and those again ("方式二"); in the counter mask mode their *mask* is the
  element count of the first way. 64-bit types (count form only) add lane by lane, then once.
* ``ReduceMax`` / ``ReduceMin(dst, src, sharedTmpBuffer, count / mask..., calIndex)``: a running
  lane-wise ``Max`` / ``Min`` from the lowest (highest) *finite* value of ``T``, then the
  register reduction: an all ``-inf`` float input gives ``-FLT_MAX``. With ``calIndex`` the
  index of the first extreme follows the value in ``dst`` as the raw bits of a ``uint16_t``
  (2-byte ``T``) or ``uint32_t`` (a 64-bit ``T``: a ``uint32_t`` and 4 zero bytes); in the
  normal mask mode it counts from ``src`` (``repeat * srcRepStride * 32 / sizeof(T) + lane``).
  ``sharedTmpBuffer`` is not used.
* ``ReduceRepeat<ReduceType, T, U>`` / ``ReduceDataBlock`` / ``ReducePairElem``: the register
  ``Reduce`` / ``ReduceDataBlock`` / ``PairReduceElem`` of each repeat; result ``r`` at
  ``dst + r * dstRepStride`` results (a ``dstRepStride`` of 0 runs the last repeat only).
  ``ReduceRepeat``'s ``ReduceOrder`` places the value and the index (``ORDER_ONLY_INDEX`` of a
  2-byte type stores a ``uint32_t`` index). The deprecated ``WholeReduceSum`` / ``Max`` /
  ``Min``, ``RepeatReduceSum``, ``BlockReduceSum`` / ``Max`` / ``Min`` and ``PairReduceSum`` call
  them with their own argument orders.
* With a ``Pattern.Reduce.AR`` / ``RA`` template argument ``ReduceSum`` / ``ReduceMax`` /
  ``ReduceMin`` are the advanced API's 2-D reductions (see :mod:`ascreg.basic._fold` for their
  order and what they store into ``src`` or the temporary buffer).

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 256]()
...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
...     rows = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
...     x.GetPhyAddr().write(np.arange(256) % 5); PipeBarrier[PIPE_ALL]()
...     ReduceSum(y, x, y, 256); ReduceSum[float32_t, Pattern.Reduce.AR, True](rows, x, [4, 64], True)
...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(1).tolist(), rows.GetPhyAddr().read(4).tolist()
([510.0], [126.0, 127.0, 128.0, 129.0])
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, uint8_t
from ascreg._frontend import operands
from ascreg._spec import SPECS
from ascreg._spec.basic import REDUCE_ALIASES, REPEAT_SUM_PAIRS
from ascreg.basic import _fold
from ascreg.basic._engine import Stream, elements
from ascreg.basic._forms import check_tag, same_type
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import VL, counter_mode, repeat_lanes
from ascreg.basic._spr import record_reduce_sum
from ascreg.basic._tensor import LocalTensor
from ascreg.core import compare, reduce
from ascreg.core.arith import BINARY_OPS
from ascreg.enums import ReduceType
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

Array = np.ndarray[Any, Any]

__all__ = [
    "BlockReduceMax",
    "BlockReduceMin",
    "BlockReduceSum",
    "PairReduceSum",
    "Pattern",
    "ReduceAll",
    "ReduceAny",
    "ReduceDataBlock",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceOrder",
    "ReducePairElem",
    "ReducePattern",
    "ReduceProd",
    "ReduceRepeat",
    "ReduceSum",
    "RepeatReduceSum",
    "WholeReduceMax",
    "WholeReduceMin",
    "WholeReduceSum",
]

MAX_STRIDE = (1 << 16) - 1
"""The largest ``srcRepStride`` / ``dstRepStride`` / ``srcBlkStride`` of the reductions."""
MAX_REPEAT_TIME = (1 << 31) - 1
"""The largest ``repeatTime`` of ``ReduceSum`` / ``Max`` / ``Min`` (an ``int32_t``)."""


class ReduceOrder(enum.IntEnum):
    """``AscendC::ReduceOrder``: where ``ReduceRepeat<MAX/MIN>`` puts the value and the index.

    Examples
    --------
    >>> ReduceOrder.ORDER_ONLY_INDEX.value
    3
    """

    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


class ReducePattern(enum.Enum):
    """``AscendC::Pattern::Reduce``: which axes a 2-D reduction reduces (R) and keeps (A).

    The 950's ``ReduceSum`` / ``ReduceMax`` / ``ReduceMin`` take ``AR`` and ``RA`` only.

    Examples
    --------
    >>> ReducePattern.AR.value
    'AR'
    """

    R = "R"
    RA = "RA"
    AR = "AR"
    ARA = "ARA"
    ARAR = "ARAR"
    ARARA = "ARARA"
    ARARAR = "ARARAR"
    ARARARA = "ARARARA"
    ARARARAR = "ARARARAR"
    ARARARARA = "ARARARARA"
    RAR = "RAR"
    RARA = "RARA"
    RARAR = "RARAR"
    RARARA = "RARARA"
    RARARAR = "RARARAR"
    RARARARA = "RARARARA"


class Pattern:
    """``AscendC::Pattern``: ``Pattern.Reduce.AR`` is the C++ ``Pattern::Reduce::AR``.

    Examples
    --------
    >>> Pattern.Reduce.RA
    <ReducePattern.RA: 'RA'>
    """

    Reduce = ReducePattern


class _ReduceOp(BasicOp):
    value_kinds = (ReducePattern,)


class _RepeatReduceOp(BasicOp):
    value_kinds = (ReduceType,)
    max_dtypes = 2


# ---- register-level pieces (the core functions the Reg ops use) ----------------------------------
def _lowest(dtype: np.dtype[Any], kind: str) -> Any:
    """``GetMinValue`` / ``GetMaxValue``: the lowest / highest *finite* value of the type."""
    info: Any = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return dtype.type(info.min if kind == "MAX" else info.max)


def _tree(rows: Array, active: Array) -> Array:
    """Return the register ``ReduceSum`` of each row's active lanes (the pairwise tree)."""
    summed: Array = reduce.tree_sum(reduce.fill_masked(rows, active, rows.dtype.type(0)))
    return np.atleast_1d(summed)


# ---- reading the operands ------------------------------------------------------------------------
def _read(tensor: LocalTensor[Any], index: Array) -> Array:
    """Read the elements *index* of *tensor* on ``PIPE_V`` (checked against its size)."""
    if index.size == 0:
        return np.zeros(0, dtype=tensor._dtype().np_dtype)
    _inside(tensor, int(index.max()) + 1, "src")
    with current_block().on_pipe(Pipe.PIPE_V):
        if int(index[-1]) - int(index[0]) + 1 == index.size and bool((np.diff(index) == 1).all()):
            contiguous: Array = (tensor.GetPhyAddr() + int(index[0])).read(index.size)
            return contiguous
        values: Array = tensor.GetPhyAddr()[index]
    return values


def _write(tensor: LocalTensor[Any], start: int, values: Array, role: str) -> None:
    """Write *values* to consecutive elements of *tensor* from *start* on ``PIPE_V``."""
    if values.size == 0:
        return
    _inside(tensor, start + values.size, role)
    with current_block().on_pipe(Pipe.PIPE_V):
        (tensor.GetPhyAddr() + start).write(values)


def _inside(tensor: LocalTensor[Any], end: int, role: str) -> None:
    if end > tensor.GetSize():
        raise OutOfBoundsError(
            f"{role} reaches element {end - 1} of the {tensor.GetSize()}-element {tensor._cpp()}"
        )


def _aligned(op: BasicOp, tensor: LocalTensor[Any], role: str) -> None:
    tensor.GetPhyAddr().require_alignment(
        DATA_BLOCK, f"{op.name}: {role} of a vector op must be 32-byte aligned"
    )


# ---- ReduceSum / ReduceMax / ReduceMin: the basic API ---------------------------------------------
def _count_rows(src: LocalTensor[Any], count: int, width: int, step: int) -> tuple[Array, Array]:
    """Read *count* elements as ``(repeats, width)`` rows, repeat ``r`` from element ``r * step``.

    A count of 0 still gives one row (none of it active): the VF runs its reduce anyway.
    """
    repeats = max(-(-count // width), 1)
    active = np.arange(repeats * width).reshape(repeats, width) < count
    rep, lane = np.nonzero(active)
    index = rep * step + lane
    rows = np.zeros(active.shape, dtype=src._dtype().np_dtype)
    rows[rep, lane] = _read(src, index)
    return rows, active


def _mask_rows(src: LocalTensor[Any], active: Array, stride: int) -> Array:
    """Read the active lanes of every repeat (``LoadAlign`` *stride* blocks apart)."""
    rep, lane = np.nonzero(active)
    per_block = DATA_BLOCK // src._dtype().size
    rows = np.zeros(active.shape, dtype=src._dtype().np_dtype)
    rows[rep, lane] = _read(src, rep * stride * per_block + lane)
    return rows


def _sum_levels(work: LocalTensor[Any], sums: Array, width: int) -> Any:
    """Reduce the per-repeat *sums* again through ``work`` (one or two more levels)."""
    _write(work, 0, sums, "sharedTmpBuffer")
    while sums.size > width:
        chunks = -(-sums.size // width)
        padded = np.zeros(chunks * width, dtype=sums.dtype)
        padded[: sums.size] = sums
        active = np.arange(chunks * width) < sums.size
        sums = _tree(padded.reshape(chunks, width), active.reshape(chunks, width))
        _write(work, 0, sums, "sharedTmpBuffer")
    active = np.arange(width) < sums.size
    padded = np.zeros(width, dtype=sums.dtype)
    padded[: sums.size] = sums
    return _tree(padded[None], active[None])[0]


def _counter_sum(rows: Array, active: Array, work: LocalTensor[Any], count: int) -> Any:
    """``DispatchReduceSumCounterMode``: the sum of the first *count* elements of *rows*."""
    width = rows.shape[1]
    add = BINARY_OPS["Add"]
    full = np.ones((1, width), dtype=bool)
    if count <= width:
        return _tree(rows[:1], active[:1])[0]
    if count <= 4 * width:
        acc = rows[0].copy() if count <= 2 * width else add(rows[0], rows[1])
        last = rows[-1]
        if count > 3 * width:
            merged = rows[2].copy()
            merged[active[3]] = add(rows[2], last)[active[3]]
            acc = add(acc, merged)
        else:
            acc[active[-1]] = add(acc, last)[active[-1]]
        return _tree(acc[None], full)[0]
    return _sum_levels(work, _tree(rows, active), width)


def _b64_sum(rows: Array, active: Array) -> Any:
    """``ReduceB64SumImpl``: lane-wise sums over the repeats, then one register ``ReduceSum``."""
    acc = np.zeros(rows.shape[1], dtype=rows.dtype)
    add = BINARY_OPS["Add"]
    for r in range(rows.shape[0]):
        acc = np.where(active[r], add(acc, rows[r]), acc)
    return _tree(acc[None], np.ones((1, acc.size), dtype=bool))[0]


def _index_type(dtype: type[Scalar]) -> np.dtype[Any]:
    return np.dtype(np.uint16 if dtype.size == 2 else np.uint32)


def _extreme(
    kind: str, rows: Array, active: Array, fixed: Array | None, step: int, with_index: bool
) -> tuple[Any, int | None]:
    """``ReduceNoIndexTemplate`` / ``ReduceIndexTemplate``: the running Max/Min, then the reduce.

    *fixed* is None in the counter loop (the repeat's active lanes take the new value, the
    others keep theirs; the reduce and the index search see every lane), else the normal mode's
    mask (a zeroing ``Max`` / ``Min``; only those lanes count). The index of lane ``j`` starts at
    ``j + 1`` and grows by *step* a repeat; 0 means "none" in the search for the first extreme.
    """
    width = rows.shape[1]
    dtype = rows.dtype
    pick = BINARY_OPS["Max" if kind == "MAX" else "Min"]
    index_type = np.dtype(np.uint16 if dtype.itemsize == 2 else np.uint32)
    every = np.ones(width, dtype=bool)
    lanes = every if fixed is None else fixed
    value = np.full(width, _lowest(dtype, kind), dtype=dtype)
    index = (np.arange(width, dtype=np.int64) + 1).astype(index_type)
    position = index.copy()
    for r in range(rows.shape[0]):
        if fixed is None:
            new = np.where(active[r], pick(value, rows[r]), value)
            changed = compare.compare("NE", value, new)
            position_next = position.astype(np.int64) + step
        else:
            new = np.where(fixed, pick(value, rows[r]), dtype.type(0))
            changed = compare.compare("NE", value, new) & fixed
            position_next = np.where(fixed, position.astype(np.int64) + step, 0)
        index = np.where(changed, position, index)
        position = position_next.astype(index_type)
        value = new
    filled = reduce.fill_masked(value, lanes, reduce.identity(kind, dtype))
    best = reduce.extreme(filled, largest=kind == "MAX")[0]
    if not with_index:
        return best, None
    equal = compare.compare("EQ", value, np.full(width, best, dtype=dtype)) & lanes
    found = index[equal]
    found = found[found != 0]
    top = (1 << (8 * index_type.itemsize)) - 1
    low = int(found.min()) if found.size else top
    return best, (low - 1) & top


def _store_extreme(dst: LocalTensor[Any], value: Any, index: int | None) -> None:
    """Write the value, then the index's bits (``uint16_t`` / ``uint32_t``, 64-bit: and 4 zeros)."""
    dtype = dst._dtype()
    _write(dst, 0, np.array([value], dtype=dtype.np_dtype), "dst")
    if index is None:
        return
    _inside(dst, 2, "dst")
    raw = np.array([index], dtype=_index_type(dtype))
    if dtype.size == 8:
        raw = np.array([index], dtype=np.uint64)
    with current_block().on_pipe(Pipe.PIPE_V):
        (dst.GetPhyAddr() + 1).cast(uint8_t).write(raw.view(np.uint8))


def _repeat_args(op: BasicOp, args: tuple[Any, ...], with_index: bool) -> tuple[Any, ...]:
    """Split ``(mask, repeatTime, srcRepStride[, calIndex])`` or ``(count[, calIndex])``."""
    limit = 2 if with_index else 1
    if len(args) <= limit:
        return args
    if not 3 <= len(args) <= limit + 2:
        raise AscregTypeError(
            "takes (dst, src, sharedTmpBuffer, count"
            + (", calIndex)" if with_index else ")")
            + " or (dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride"
            + (", calIndex)" if with_index else ")"),
            call=op.name,
        )
    return args


def _counter_count(mask: Any) -> int:
    bits = not isinstance(mask, int | np.integer)
    return operands.in_range(mask[0] if bits else mask, "mask", 0, (1 << 32) - 1)


def _whole(op: BasicOp, kind: str, dst: Any, src: Any, *rest: Any) -> None:
    pattern = op.t.value(ReducePattern, None)
    if pattern is not None:
        _pattern(op, kind, pattern, dst, src, rest)
        return
    if not rest:
        raise AscregTypeError("takes (dst, src, sharedTmpBuffer, ...)", call=op.name)
    work, *args = rest
    dtype = same_type(op, (dst, "dst"), (src, "src"), (work, "sharedTmpBuffer"))
    with_index = kind != "SUM"
    args = list(_repeat_args(op, tuple(args), with_index))
    cal_index = bool(args.pop()) if with_index and len(args) in (2, 4) else False
    for tensor, role in ((src, "src"), (work, "sharedTmpBuffer")):
        _aligned(op, tensor, role)
    width = VL // dtype.size if dtype.size != 8 else 2 * VL // 8
    if len(args) == 1:
        check_tag(op, dtype, "count")
        count = operands.in_range(args[0], "count", 0, (1 << 31) - 1)
        rows, active = _count_rows(src, count, width, width)
        value = _whole_counter(kind, dst, work, rows, active, count, cal_index)
        if value is not None:  # the 950 keeps the count form's sum for GetReduceRepeatSumSpr
            record_reduce_sum(dtype, value)
        return
    mask, times, stride = args
    check_tag(op, dtype, "mask bits" if not isinstance(mask, int | np.integer) else "mask count")
    stride = operands.in_range(stride, "srcRepStride", 0, MAX_STRIDE)
    if counter_mode():
        count = _counter_count(mask)
        rows, active = _count_rows(src, count, width, stride * DATA_BLOCK // dtype.size)
        _whole_counter(kind, dst, work, rows, active, count, cal_index)
        return
    repeats = operands.in_range(times, "repeatTime", 0, MAX_REPEAT_TIME)
    fixed = repeat_lanes(dtype, mask, 1).active[0]
    active = np.broadcast_to(fixed, (max(repeats, 1 if kind == "SUM" else 0), width))
    rows = _mask_rows(src, active, stride)
    if kind == "SUM":  # repeatTime 0 still reduces the first repeat (not a NOP on the 950)
        sums = _tree(rows, active)
        value = sums[0] if repeats <= 1 else _sum_levels(work, sums, width)
        _write(dst, 0, np.array([value], dtype=rows.dtype), "dst")
        return
    step = stride * DATA_BLOCK // dtype.size
    best, index = _extreme(kind, rows, active, fixed, step, cal_index)
    _store_extreme(dst, best, index)


def _whole_counter(
    kind: str,
    dst: LocalTensor[Any],
    work: LocalTensor[Any],
    rows: Array,
    active: Array,
    count: int,
    cal_index: bool,
) -> Any:
    """Reduce in the count form (and in the counter mask mode of the repeat forms).

    Returns the sum (``SUM``), else None.
    """
    if kind == "SUM":
        if rows.dtype.itemsize == 8:
            value = _b64_sum(rows, active)
        else:
            value = _counter_sum(rows, active, work, count)
        _write(dst, 0, np.array([value], dtype=rows.dtype), "dst")
        return value
    best, index = _extreme(kind, rows, active, None, rows.shape[1], cal_index)
    _store_extreme(dst, best, index)
    return None


# ---- ReduceSum / ReduceMax / ReduceMin<T, Pattern::Reduce::AR|RA>: the advanced API ---------------
def _pattern(
    op: BasicOp,
    kind: str,
    pattern: ReducePattern,
    dst: Any,
    src: Any,
    rest: tuple[Any, ...],
    grouped: bool = True,
) -> None:
    if pattern not in (ReducePattern.AR, ReducePattern.RA):
        raise AscregTypeError(
            f"{op.name} only support AR and RA pattern on current device! (got "
            f"Pattern::Reduce::{pattern.value})",
            call=op.name,
        )
    tmp = rest[0] if len(rest) == 3 else None
    if len(rest) not in (2, 3):
        raise AscregTypeError(
            "takes (dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad) with a Pattern",
            call=op.name,
        )
    shape, _pad = rest[-2:]
    dtype = same_type(op, (dst, "dst"), (src, "src"))
    check_tag(op, dtype, "pattern" if tmp is None else "pattern tmp")
    if tmp is not None and op.tensor(tmp, "sharedTmpBuffer")._dtype() is not uint8_t:
        raise AscregTypeError(
            f"sharedTmpBuffer must be a LocalTensor<uint8_t>, got {tmp._cpp()}", call=op.name
        )
    if isinstance(shape, str | bytes) or not isinstance(shape, Sequence | np.ndarray):
        raise AscregTypeError(f"srcShape must be a uint32_t array, got {shape!r:.40}", call=op.name)
    if len(shape) != 2:
        raise AscregTypeError(
            f"srcShape has {len(shape)} dimension(s); the AR / RA patterns take 2", call=op.name
        )
    rows, cols = (operands.in_range(v, f"srcShape[{i}]", 1, (1 << 32) - 1)
                  for i, v in enumerate(shape))  # fmt: skip
    reuse = op.t.flag(0, False)
    for tensor, role in ((dst, "dst"), (src, "src")):
        _aligned(op, tensor, role)
    _no_overlap(op, [(dst, "dst", rows if pattern is ReducePattern.AR else cols),
                     (src, "src", rows * cols)], tmp)  # fmt: skip
    values = _read(src, np.arange(rows * cols)).reshape(rows, cols)
    if pattern is ReducePattern.AR:
        plan = _fold.reduce_ar(values, kind, reuse=reuse, grouped=grouped)
    else:
        plan = _fold.reduce_ra(values, kind, reuse=reuse)
    if plan.src is not None:
        _store_work(src.GetPhyAddr(), plan.src, src.GetSize(), "src")
    if plan.tmp is not None and tmp is not None:
        _store_work(tmp.GetPhyAddr().cast(dtype), plan.tmp, tmp.GetSize() // dtype.size, "tmp")
    _write(dst, 0, plan.dst, "dst")


def _no_overlap(op: BasicOp, spans: list[tuple[Any, str, int]], tmp: Any) -> None:
    """Raise when dst and src overlap, or the temporary buffer overlaps either (the page's rule)."""
    ranges = [(t.GetPhyAddr().address, t.GetPhyAddr().address + n * t._dtype().size, role)
              for t, role, n in spans]  # fmt: skip
    if tmp is not None:
        start = tmp.GetPhyAddr().address
        ranges.append((start, start + tmp.GetSize(), "sharedTmpBuffer"))
    for i, (a0, a1, first) in enumerate(ranges):
        for b0, b1, second in ranges[i + 1 :]:
            if a0 < b1 and b0 < a1:
                undefined_behaviour(
                    UndefinedBehaviourError(
                        f"{first} overlaps {second}: the 2-D reductions take separate buffers "
                        "(不支持源操作数与目的操作数地址重叠; sharedTmpBuffer neither)",
                        call=op.name,
                    )
                )


def _store_work(ptr: Any, work: _fold.Work, size: int, role: str) -> None:
    """Write the elements the algorithm stored into ``src`` or the temporary buffer."""
    index = np.flatnonzero(work.stored)
    if index.size == 0:
        return
    if int(index.max()) >= size:
        raise OutOfBoundsError(
            f"the reduction stores {int(index.max()) + 1} elements into {role}, which holds "
            f"{size} (GetReduceSumMaxMinTmpSize gives the size it needs)"
        )
    with current_block().on_pipe(Pipe.PIPE_V):
        ptr[index] = work.values.reshape(-1)[index]


@basic_op("ReduceSum", base=_ReduceOp)
def ReduceSum(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    """``ReduceSum<T>(dst, src, sharedTmpBuffer, count)`` / ``(..., mask, repeatTime, srcRepStride)``; ``ReduceSum<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``.

    The sum of the first *count* elements (or of the selected lanes of *repeatTime* repeats) in
    ``dst[0]``, in the 950's order (see :mod:`ascreg.basic._reduce`); ``sharedTmpBuffer`` holds
    the per-register sums past four registers (count form) or one repeat (repeat forms). Types:
    half, float, int32_t, uint32_t, int64_t, uint64_t (64-bit: the count form only).

    With ``Pattern.Reduce.AR`` (``srcShape = [dimA, dimR]``: each row's sum) or ``RA``
    (``[dimR, dimA]``: each column's sum): ``dst`` gets ``dimA`` sums, int32_t, uint32_t, float,
    int64_t, uint64_t; ``isReuseSource = True`` lets the fold store into ``src``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(128)); PipeBarrier[PIPE_ALL]()
    ...     ReduceSum[float32_t, Pattern.Reduce.RA](y, x, [16, 8], True)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(3).tolist()
    [960.0, 976.0, 992.0]
    """
    _whole(op, "SUM", dst, src, *rest)


def _whole_doc(name: str, word: str) -> str:
    lowest = "lowest" if word == "maximum" else "highest"
    return f"""``{name}<T>(dst, src, sharedTmpBuffer, count, calIndex = false)`` / ``(..., mask, repeatTime, srcRepStride, calIndex)``; ``{name}<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``.

    The {word} of the first *count* elements (or of the selected lanes of *repeatTime*
    repeats) in ``dst[0]``, starting from the {lowest} finite value of ``T``; with *calIndex* the
    index of its first occurrence in ``dst[1]``'s bits. Types: int16_t, uint16_t, half,
    int32_t, uint32_t, float, int64_t, uint64_t (64-bit: the count form only).

    With ``Pattern.Reduce.AR`` / ``RA``: the {word} of each row / column, int8_t ... uint64_t.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint16_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     x.GetPhyAddr().write(np.sin(np.arange(256))); PipeBarrier[PIPE_ALL]()
    ...     {name}(y, x, x, 200, True); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(1).tolist(), int(y.GetPhyAddr().cast(uint16_t)[1])
    {{example}}
    """


@basic_op(
    "ReduceMax",
    base=_ReduceOp,
    doc=_whole_doc("ReduceMax", "maximum").replace("{example}", "([1.0], 33)"),
)
def ReduceMax(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    _whole(op, "MAX", dst, src, *rest)


@basic_op(
    "ReduceMin",
    base=_ReduceOp,
    doc=_whole_doc("ReduceMin", "minimum").replace("{example}", "([-1.0], 11)"),
)
def ReduceMin(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    _whole(op, "MIN", dst, src, *rest)


# ---- ReduceAll / ReduceAny<T, Pattern::Reduce::AR|RA>: the advanced API ----------------------------
def _logical(op: BasicOp, kind: str, dst: Any, src: Any, rest: tuple[Any, ...]) -> None:
    """``ReduceAll`` / ``ReduceAny`` / ``ReduceProd``: the *kind* fold on 32-byte aligned rows."""
    pattern = op.t.value(ReducePattern, None)
    if pattern is None:
        raise AscregTypeError(
            f"takes a Pattern template argument: {op.name}[T, Pattern.Reduce.AR](dst, src, "
            "[sharedTmpBuffer,] srcShape, srcInnerPad)",
            call=op.name,
        )
    if len(rest) in (2, 3):
        shape, pad = rest[-2:]
        if not bool(pad):
            raise AscregTypeError(
                "srcInnerPad must be true: the 950 only takes rows padded to 32 bytes", call=op.name
            )
        inner = shape[1] if isinstance(shape, Sequence | np.ndarray) and len(shape) == 2 else None
        size = op.tensor(src, "src")._dtype().size
        if inner is not None and int(inner) * size % DATA_BLOCK:
            raise AscregError(
                f"srcShape[1] = {int(inner)} elements of {size} byte(s) is not a multiple of 32 "
                "bytes: srcInnerPad = true says the inner axis is padded to 32 bytes",
                call=op.name,
            )
    _pattern(op, kind, pattern, dst, src, rest, grouped=False)


def _logical_doc(name: str, word: str, kind: str, example: str) -> str:
    return f"""``{name}<T, pattern, isReuseSource = false>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``.

    Whether {word} element of each row (``Pattern.Reduce.AR``, ``srcShape = [dimA, dimR]``) or
    column (``RA``, ``[dimR, dimA]``) is nonzero, as the 950 computes it: the ``{kind}`` of the
    row / column, folded as ``Reduce{kind.title()}`` folds it (:mod:`ascreg.basic._fold`; rows of
    at most one register reduce in that register), with the same stores into ``src``
    (``isReuseSource``) and ``sharedTmpBuffer``. Types: uint8_t, float; ``srcInnerPad`` must be
    true (the inner axis padded to 32 bytes).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 128]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 32]()
    ...     v = np.zeros((4, 32), np.uint8); v[0] = v[2] = 1; v[2, 5] = 0; v[3, 7] = 1
    ...     x.GetPhyAddr().write(v.reshape(-1)); PipeBarrier[PIPE_ALL]()
    ...     {name}[uint8_t, Pattern.Reduce.AR](y, x, [4, 32], True)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(4).tolist()
    {example}
    """


@basic_op(
    "ReduceAll",
    base=_ReduceOp,
    doc=_logical_doc("ReduceAll", "every", "MIN", "[1, 0, 0, 0]"),
)
def ReduceAll(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    _logical(op, "MIN", dst, src, rest)


@basic_op(
    "ReduceAny",
    base=_ReduceOp,
    doc=_logical_doc("ReduceAny", "any", "MAX", "[1, 0, 1, 1]"),
)
def ReduceAny(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    _logical(op, "MAX", dst, src, rest)


# ---- ReduceProd<T, Pattern::Reduce::AR|RA>: the advanced API ----------------------------------------
@basic_op("ReduceProd", base=_ReduceOp)
def ReduceProd(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    """``ReduceProd<T, pattern, isReuseSource = false>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``.

    The product of each row (``Pattern.Reduce.AR``, ``srcShape = [dimA, dimR]``) or column
    (``RA``, ``[dimR, dimA]``) in the 950's order (reduce_prod_3510_impl.h), each ``Mul`` rounded
    once: the ``ReduceSum`` fold with ``Mul`` (:mod:`ascreg.basic._fold`, with its stores into
    ``src`` / ``sharedTmpBuffer``), the last register reduced by neighbouring pairs
    (``pair_product``; rows of at most one register that way at once).
    Type: float; ``srcInnerPad`` must be true (rows padded to 32 bytes).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 16]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(1, 17)); PipeBarrier[PIPE_ALL]()
    ...     ReduceProd[float32_t, Pattern.Reduce.AR](y, x, [2, 8], True)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(2).tolist()
    [40320.0, 518918400.0]
    """
    _logical(op, "PROD", dst, src, rest)


# ---- ReduceMean<T, Pattern::Reduce::AR|RA>: the advanced API ----------------------------------------
@basic_op("ReduceMean", base=_ReduceOp)
def ReduceMean(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    """``ReduceMean<T, pattern, isReuseSource = false>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)``.

    The mean of each row (``Pattern.Reduce.AR``, ``srcShape = [dimA, dimR]``) or column
    (``RA``, ``[dimR, dimA]``) as reduce_mean_3510_impl.h computes it: ``ReduceSum`` with the
    same arguments (its fold order and its stores into ``src`` / ``sharedTmpBuffer``), then
    ``Muls`` of the ``dimA`` sums by the float ``1.0f / dimR`` (one rounding each). Type: float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 48]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(48)); PipeBarrier[PIPE_ALL]()
    ...     ReduceMean[float32_t, Pattern.Reduce.AR](y, x, [2, 24], True)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(2).tolist()
    [11.5, 35.5]
    """
    pattern = op.t.value(ReducePattern, None)
    if pattern is None:
        raise AscregTypeError(
            "takes a Pattern template argument: ReduceMean[T, Pattern.Reduce.AR](dst, src, "
            "[sharedTmpBuffer,] srcShape, srcInnerPad)",
            call=op.name,
        )
    _pattern(op, "SUM", pattern, dst, src, rest)
    shape = rest[-2]
    count, n = (int(shape[0]), int(shape[1]))
    if pattern is ReducePattern.RA:
        count, n = n, count
    dtype = dst._dtype()
    reciprocal = np.float32(1.0) / np.float32(np.int32(n))  # the C++ 1.0f / int32_t(n)
    with current_block().on_pipe(Pipe.PIPE_V):
        sums = dst.GetPhyAddr().read(count)
    _write(dst, 0, (sums * reciprocal).astype(dtype.np_dtype), "dst")


# ---- ReduceRepeat / ReduceDataBlock / ReducePairElem: one result per repeat -----------------------
_ORDER_UNITS = {
    ReduceOrder.ORDER_VALUE_INDEX: 2,
    ReduceOrder.ORDER_INDEX_VALUE: 2,
    ReduceOrder.ORDER_ONLY_VALUE: 1,
    ReduceOrder.ORDER_ONLY_INDEX: 1,
}


def _per_repeat_result(
    name: str, kind: str, values: Array, active: Array, target: np.dtype[Any], order: ReduceOrder
) -> Array:
    """Return what one repeat stores (the register op of *name*, arranged by *order*)."""
    width = values.size
    if name == "ReduceDataBlock":
        blocks: Array = reduce.reduce_blocks(kind, values, active, target, width)
        return blocks[: width * values.dtype.itemsize // DATA_BLOCK]
    if name == "ReducePairElem":
        pairs: Array = reduce.pair_reduce(kind, values, active, target, width)
        return pairs[: width // 2]
    lanes: Array = reduce.reduce(kind, values, active, target, width)
    if kind == "SUM" or order is ReduceOrder.ORDER_VALUE_INDEX:
        return lanes[: 1 if kind == "SUM" else 2]
    if order is ReduceOrder.ORDER_INDEX_VALUE:
        return lanes[[1, 0]]
    if order is ReduceOrder.ORDER_ONLY_VALUE:
        return lanes[:1]
    if target.itemsize == 2:  # a uint32_t index over two elements
        index = lanes[1:2].copy()
        return np.concatenate([index, np.zeros(1, dtype=target)])
    return lanes[1:2]


def _repeat_reduce(
    op: BasicOp,
    kind: str,
    dst: Any,
    src: Any,
    mask: Any,
    times: Any,
    dst_stride: Any,
    blk_stride: Any,
    rep_stride: Any,
    order: Any = ReduceOrder.ORDER_VALUE_INDEX,
    *,
    src_first: bool = False,
) -> None:
    name = op.spec.family
    if src_first:  # WholeReduceSum<T, isSetMask, U>: T is src's type
        source, target = op.dtypes((src, "src"), (dst, "dst"))
    else:
        target, source = op.dtypes((dst, "dst"), (src, "src"))
    _repeat_types(op, name, kind, target, source)
    if not isinstance(order, ReduceOrder):
        raise AscregTypeError(f"order must be a ReduceOrder, got {order!r:.40}", call=op.name)
    strides = [operands.in_range(v, role, 0, MAX_STRIDE) for v, role in
               ((dst_stride, "dstRepStride"), (blk_stride, "srcBlkStride"),
                (rep_stride, "srcRepStride"))]  # fmt: skip
    _aligned(op, src, "src")
    if name == "ReducePairElem":
        _aligned(op, dst, "dst")
    lanes = repeat_lanes(source, mask, times, set_mask=op.t.flag(0, True))
    if not lanes.active.size:
        return
    stream = Stream(src, "src", strides[1], strides[2])
    repeats = range(lanes.repeats)
    if strides[0] == 0:  # every result lands at dst: only the last repeat runs
        repeats = range(lanes.repeats - 1, lanes.repeats)
    unit = _ORDER_UNITS[order] if kind != "SUM" and name == "ReduceRepeat" else 1
    if kind != "SUM" and order is ReduceOrder.ORDER_ONLY_INDEX and target.size == 2:
        unit = 2
    for r in repeats:
        lane = np.arange(lanes.width)
        index = elements(stream, lanes, np.full(lanes.width, r), lane)
        values = np.zeros(lanes.width, dtype=source.np_dtype)
        on = lanes.active[r]
        values[on] = _read(src, index[on])
        result = _per_repeat_result(name, kind, values, on, target.np_dtype, order)
        step = result.size if name != "ReduceRepeat" else unit
        _write(dst, r * strides[0] * step, result, "dst")


def _repeat_types(
    op: BasicOp, name: str, kind: str, target: type[Scalar], source: type[Scalar]
) -> None:
    if name == "ReducePairElem" and kind != "SUM":
        raise AscregTypeError("ReducePairElem takes ReduceType::SUM only", call=op.name)
    legal: tuple[tuple[type[Scalar], ...], ...]
    if name == "ReduceRepeat" and kind == "SUM":
        legal = REPEAT_SUM_PAIRS
    else:
        legal = tuple(p for p in SPECS["basic." + name].combos if p[0] is p[1])
    if (target, source) not in legal:
        raise IllegalDtypeError(
            f"dst {target.cpp_name} / src {source.cpp_name} is not a pair of {name}<"
            f"ReduceType::{kind}> on the 950 (it takes "
            + ", ".join(f"{t.cpp_name}/{u.cpp_name}" for t, u in legal)
            + ")",
            call=op.name,
        )


def _reduce_type(op: BasicOp) -> str:
    kind = op.t.value(ReduceType, None)
    if kind is None:
        raise AscregTypeError(
            f"{op.name} needs its ReduceType template argument: {op.name}[ReduceType.SUM, T, U]",
            call=op.name,
        )
    return str(kind.name)


def _per_repeat_op(name: str, doc: str) -> Any:
    def impl(op: BasicOp, dst: Any, src: Any, *args: Any) -> None:
        if not 5 <= len(args) <= (6 if name == "ReduceRepeat" else 5):
            raise AscregTypeError(
                "takes (dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride"
                + (", order)" if name == "ReduceRepeat" else ")"),
                call=op.name,
            )
        _repeat_reduce(op, _reduce_type(op), dst, src, *args)

    return basic_op(name, base=_RepeatReduceOp, doc=doc)(impl)


ReduceRepeat = _per_repeat_op(
    "ReduceRepeat",
    """``ReduceRepeat<ReduceType, T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order)``.

    The register ``Reduce`` of each repeat's selected lanes: ``SUM`` (int16_t -> int32_t,
    uint16_t -> uint32_t, or one of half, float, int32_t, uint32_t), ``MAX`` / ``MIN`` (the value
    and the index of its first occurrence in the repeat, placed by ``order``). Result ``r`` goes
    ``r * dstRepStride`` results after ``dst`` (a result is 1 element, 2 with an index).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, ReduceType
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(128)); PipeBarrier[PIPE_ALL]()
    ...     ReduceRepeat[ReduceType.MAX, float32_t, float32_t](y, x, 64, 2, 1, 1, 8, ReduceOrder.ORDER_ONLY_VALUE)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(2).tolist()
    [63.0, 127.0]
    """,
)
ReduceDataBlock = _per_repeat_op(
    "ReduceDataBlock",
    """``ReduceDataBlock<ReduceType, T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)``.

    The register ``ReduceDataBlock`` of each repeat: one result per 32-byte DataBlock (8 per
    repeat; a block with no selected lane gives 0, -inf or inf), half or float. Repeat ``r``'s
    8 results go ``r * dstRepStride * 8`` elements after ``dst``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, ReduceType
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write(np.arange(64)); PipeBarrier[PIPE_ALL]()
    ...     ReduceDataBlock[ReduceType.SUM, float32_t, float32_t](y, x, 16, 1, 1, 1, 8)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(3).tolist()
    [28.0, 92.0, 0.0]
    """,
)
ReducePairElem = _per_repeat_op(
    "ReducePairElem",
    """``ReducePairElem<ReduceType::SUM, T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)``.

    Each two adjacent lanes of a repeat added (a pair with no selected lane gives 0): the
    ``128 / sizeof(T)`` sums of repeat ``r`` go ``r * dstRepStride * 128 / sizeof(T)`` elements
    after ``dst``; half or float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, ReduceType
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 128]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     x.GetPhyAddr().write(np.arange(128)); PipeBarrier[PIPE_ALL]()
    ...     ReducePairElem[ReduceType.SUM, half, half](y, x, 5, 1, 1, 1, 8)
    ...     PipeBarrier[PIPE_ALL](); y.GetPhyAddr().read(4).tolist()
    [1.0, 5.0, 4.0, 0.0]
    """,
)


def _alias(name: str) -> Any:
    target, kind, params = REDUCE_ALIASES[name]
    order_doc = "order" if "order" in params else ""

    def impl(op: BasicOp, dst: Any, src: Any, *args: Any) -> None:
        lead = params[: -1 if order_doc else len(params)]
        if not len(lead) <= len(args) <= len(params):
            raise AscregTypeError(f"takes (dst, src, {', '.join(params)})", call=op.name)
        named = dict(zip(params, args, strict=False))
        order = named.get("order", ReduceOrder.ORDER_VALUE_INDEX)
        _repeat_reduce(op, kind, dst, src, named["mask"], named["repeatTime"],
                       named["dstRepStride"], named["srcBlkStride"], named["srcRepStride"],
                       order, src_first=len(op.spec.roles) == 2)  # fmt: skip

    doc = f"""``{name}``: the deprecated spelling of ``{target}<ReduceType::{kind}>``, ``({
        ", ".join(("dst", "src", *params))
    })``.

    Calls :data:`{target}` with the same lanes and strides{
        " (dstBlkStride is unused)" if "dstBlkStride" in params else ""
    }.

    Examples
    --------
    >>> {name}.spec.family
    '{target}'
    """
    return basic_op(name, base=BasicOp if target != "ReduceRepeat" else _TwoTypeOp, doc=doc)(impl)


class _TwoTypeOp(BasicOp):
    max_dtypes = 2


WholeReduceSum = _alias("WholeReduceSum")
WholeReduceMax = _alias("WholeReduceMax")
WholeReduceMin = _alias("WholeReduceMin")
RepeatReduceSum = _alias("RepeatReduceSum")
BlockReduceSum = _alias("BlockReduceSum")
BlockReduceMax = _alias("BlockReduceMax")
BlockReduceMin = _alias("BlockReduceMin")
PairReduceSum = _alias("PairReduceSum")

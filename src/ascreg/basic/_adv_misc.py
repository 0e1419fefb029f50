"""The advanced API's ``Fill`` (GM initialisation), ``Arange`` and ``PhiloxRandom``.

* ``Fill(gmWorkspaceAddr, size, value)`` fills GM as the implementation does: ``Duplicate`` of
  the value into the free UB above the TPipe's buffers (``PopStackBuffer``, at most 255
  repeats of 256 bytes) on ``PIPE_V``, an internal ``V -> MTE3`` flag, ``DataCopyPad`` bursts
  to GM on ``PIPE_MTE3`` and a ``PipeBarrier<PIPE_MTE3>``; the page allows it before
  ``InitBuffer`` only, and a kernel needs its TPipe for it (``GetTPipePtr``);
* ``Arange(dst, firstValue, diffValue, count)`` (``ascreg.core.advmisc.arange``);
* ``PhiloxRandom<Rounds, T>(dst, key, counter, count | PhiloxRandomParams)``: Philox4x32 words
  (uint32 / int32) or ``[0, 1)`` floats (``ascreg.core.advmisc.philox``); *key* and
  *counter* are sequences of 2 and 4 uint32 (the C++ ``{k0, k1}`` / ``{c0, c1, c2, c3}``).

Examples
--------
>>> from ascreg import float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     y = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
...     Arange(y, 1.0, 0.5, 8); ctx.tracker.barrier(); y.GetPhyAddr().read(8).tolist()
[1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import (
    bfloat16_t,
    c_cast,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._frontend import operands
from ascreg.basic._adv import (
    TYPENAME,
    AdvancedApi,
    Overload,
    Param,
    TemplateArgs,
    check_apart,
    check_count,
    check_dtype,
    check_tensor,
    check_tmp,
    is_count,
    is_tensor,
    read,
    tensor_dtype,
    view_as,
    write,
)
from ascreg.basic._cube_fill import FILL_L1
from ascreg.basic._tensor import GlobalTensor, LocalTensor, TPosition
from ascreg.core import advmisc
from ascreg.errors import AscregError, AscregTypeError, CapacityError, OutOfBoundsError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe
from ascreg.machine.tiling import CArray, Struct

__all__ = [
    "PHILOX_COUNTER_SIZE",
    "PHILOX_KEY_SIZE",
    "Arange",
    "Broadcast",
    "BroadcastTiling",
    "Fill",
    "GetBroadcastTilingInfo",
    "PhiloxRandom",
    "PhiloxRandomParams",
]

_PIPE_STATE = "basic.tpipe"  # (ascreg.basic._tpipe: where the block keeps its TPipe)

FILL_TYPES = (uint8_t, int8_t, uint16_t, int16_t, bfloat16_t, half, uint32_t, int32_t,
              float32_t, uint64_t, int64_t)  # fmt: skip
"""The 950's ``Fill`` types (Fill-97.md)."""
FILL_BURST_BYTES = 255 * 256
"""The most UB one ``Fill`` stages (``MAX_REPEAT_TIMES * MAX_REPEAT_LEN``)."""


# -- Fill --------------------------------------------------------------------------------------


def _fill(t: TemplateArgs, gm: Any, size: Any, value: Any) -> None:
    from ascreg.basic._copy import DataCopyExtParams, DataCopyPad
    from ascreg.basic._vector import Duplicate

    call = f"Fill<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, FILL_TYPES)
    if not isinstance(gm, GlobalTensor) or gm._dtype() is not t.T:
        raise AscregTypeError(f"gmWorkspaceAddr must be a GlobalTensor<{t.T.cpp_name}>", call=call)
    n = operands.in_range(size, "size", 0, (1 << 64) - 1)
    if gm.GetSize() and n > gm.GetSize():
        raise OutOfBoundsError(f"size {n} is more than the {gm.GetSize()} elements", call=call)
    ctx = current_block()
    if ctx.state.get(_PIPE_STATE) is None:
        raise AscregError(
            "Fill stages the value in the UB above the TPipe's buffers (PopStackBuffer): "
            "make the kernel's TPipe first",
            call=call,
        )
    start = -(-ctx.ub.top // DATA_BLOCK) * DATA_BLOCK
    free = (ctx.ub.capacity - start) // t.T.size
    if free <= 0:
        raise CapacityError("no UB is left above the TPipe's buffers to stage the value", call=call)
    stage = min(free, FILL_BURST_BYTES // t.T.size)
    made: Any = LocalTensor  # (subscripted with a runtime dtype)
    buffer: LocalTensor[Any] = made[t.T](TPosition.VECCALC, start, stage)
    Duplicate(buffer, value, stage)
    tracker = ctx.tracker
    tracker.acquire(Pipe.PIPE_MTE3, tracker.token(Pipe.PIPE_V))  # the V_MTE3 flag of the impl
    rounds, tail = divmod(n, stage)
    for r in range(rounds):
        DataCopyPad(gm[r * stage], buffer, DataCopyExtParams(1, stage * t.T.size, 0, 0, 0))
    if tail:
        DataCopyPad(gm[rounds * stage], buffer, DataCopyExtParams(1, tail * t.T.size, 0, 0, 0))
    tracker.pipe_barrier(Pipe.PIPE_MTE3)


Fill = AdvancedApi(
    "Fill",
    """``Fill<T>(gmWorkspaceAddr, size, value)``: set *size* elements of GM to *value*; or
    ``Fill<T, U>(dst, InitConstValueParams<U>)``: a constant over an L1 tensor (the basic API's
    cube overload, :mod:`ascreg.basic._cube_fill`: ``PIPE_MTE2``, 32-byte blocks).

    Staged through the UB above the TPipe's buffers on ``PIPE_V`` and copied out on
    ``PIPE_MTE3`` (see the module doc; the staging UB is overwritten). T: uint8_t, int8_t,
    uint16_t, int16_t, bfloat16_t, half, uint32_t, int32_t, float, uint64_t, int64_t.

    Examples
    --------
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.basic import GlobalTensor, TPipe
    >>> from ascreg.machine.block import BlockContext, block
    >>> z = GlobalMemory().alloc(float32_t, 100)
    >>> zGm = GlobalTensor[float32_t](); zGm.SetGlobalBuffer(z, 100)
    >>> with block(BlockContext()) as ctx:
    ...     pipe = TPipe()
    ...     Fill(zGm, 99, 7.0)
    >>> z.read(100)[[0, 98, 99]].tolist()
    [7.0, 7.0, 0.0]
    >>> from ascreg.basic import InitConstValueParams, LocalTensor, TPosition
    >>> with block(BlockContext()) as ctx:
    ...     b1 = LocalTensor[float32_t](TPosition.B1, 0, 32)
    ...     Fill(b1, InitConstValueParams[float32_t](1, 2, 0, 0.5)); ctx.tracker.barrier()
    ...     b1.GetPhyAddr().read(17)[[0, 15, 16]].tolist()
    [0.5, 0.5, 0.0]
    """,
    [
        Overload(
            (Param("T", TYPENAME),),
            _fill,
            lambda a: len(a) == 3 and isinstance(a[0], GlobalTensor) and is_count(a[1]),
            lambda a: {"T": a[0]._dtype()},
        ),
        FILL_L1,
    ],
)


# -- Arange ------------------------------------------------------------------------------------

ARANGE_TYPES = (int16_t, int32_t, half, float32_t, int64_t)


def _arange(t: TemplateArgs, dst: Any, first: Any, diff: Any, count: Any) -> None:
    call = f"Arange<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, ARANGE_TYPES)
    check_tensor(call, "dst", dst, t.T)
    n = check_count(call, "count", count, ("dst", dst))
    first_t, diff_t = c_cast(t.T, first), c_cast(t.T, diff)
    if float(diff_t) < 0:
        raise AscregError(f"diffValue {diff} must not be negative", call=call)
    write(dst, advmisc.arange(t.T.np_dtype, first_t, diff_t, n))


Arange = AdvancedApi(
    "Arange",
    """``Arange<T>(dst, firstValue, diffValue, count)``: ``firstValue + i * diffValue``.

    Built as the implementation builds it (``ascreg.core.advmisc.arange``): exact lane by
    lane in the first register, then each register the previous plus ``lanes * diffValue``.
    ``diffValue`` must not be negative. T: int16_t, int32_t, half, float, int64_t.

    Examples
    --------
    >>> from ascreg import int64_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     y = LocalTensor[int64_t](TPosition.VECCALC, 0, 100)
    ...     Arange(y, -3, 2, 100); ctx.tracker.barrier(); y.GetPhyAddr().read(100)[[0, 99]].tolist()
    [-3, 195]
    """,
    [
        Overload(
            (Param("T", TYPENAME),),
            _arange,
            lambda a: len(a) == 4 and is_tensor(a[0]) and not is_tensor(a[1]) and is_count(a[3]),
            lambda a: {"T": tensor_dtype(a[0])},
        )
    ],
)


# -- PhiloxRandom ------------------------------------------------------------------------------

PHILOX_KEY_SIZE = 2
"""``AscendC::PHILOX_KEY_SIZE``: a ``PhiloxKey`` is ``uint32_t[2]``."""
PHILOX_COUNTER_SIZE = 4
"""``AscendC::PHILOX_COUNTER_SIZE``: a ``PhiloxCounter`` is ``uint32_t[4]``."""


class PhiloxRandomParams(Struct):
    """``AscendC::PhiloxRandomParams{stride, row, column}``: a window of the stream.

    ``row`` rows of ``column`` elements whose rows are ``stride`` elements apart in the stream
    (both multiples of 4, ``stride >= column``).

    Examples
    --------
    >>> PhiloxRandomParams(8, 2, 4).column
    4
    """

    stride: uint32_t
    row: uint32_t
    column: uint32_t


PHILOX_TYPES = (int32_t, uint32_t, float32_t)


def _words(call: str, role: str, value: Any, size: int) -> Any:
    try:
        words = [c_cast(uint32_t, v) for v in value]
    except TypeError:
        words = []
    if len(words) != size:
        raise AscregTypeError(f"{role} must be {size} uint32 values, got {value!r:.60}", call=call)
    return np.array([int(w) for w in words], np.uint32)


def _stream_positions(call: str, spec: Any) -> Any:
    """Return the stream position (element index) of each output element, in output order."""
    if is_count(spec):
        return np.arange(operands.in_range(spec, "count", 0, 65535), dtype=np.int64)
    stride, row, column = int(spec.stride), int(spec.row), int(spec.column)
    if stride % 4 or column % 4 or stride < column or not row or not column:
        raise AscregError(
            f"PhiloxRandomParams{{stride={stride}, row={row}, column={column}}}: stride and "
            "column must be multiples of 4, stride >= column, row and column > 0",
            call=call,
        )
    return (np.arange(row, dtype=np.int64)[:, None] * stride + np.arange(column)).reshape(-1)


def _philox(t: TemplateArgs, dst: Any, key: Any, counter: Any, spec: Any) -> None:
    rounds = int(t.Rounds)
    call = f"PhiloxRandom<{rounds}, {t.T.cpp_name}>"
    if rounds not in (7, 10):
        raise AscregError(f"Rounds {rounds}: PhiloxRandom supports 7 or 10", call=call)
    check_dtype(call, "T", t.T, PHILOX_TYPES)
    check_tensor(call, "dstLocal", dst, t.T)
    keys = _words(call, "philoxKey", key, PHILOX_KEY_SIZE)
    counters = _words(call, "philoxCounter", counter, PHILOX_COUNTER_SIZE)
    positions = _stream_positions(call, spec)
    if positions.size > dst.GetSize():
        raise OutOfBoundsError(
            f"{positions.size} elements do not fit {dst._cpp()} of {dst.GetSize()}", call=call
        )
    blocks, slot = np.divmod(positions, 4)
    unique, inverse = np.unique(blocks, return_inverse=True)
    words = advmisc.philox(keys, counters, unique, rounds)[inverse, slot]
    values = advmisc.unit_floats(words) if t.T is float32_t else words
    write(view_as(dst, uint32_t), values.view(np.uint32))


PhiloxRandom = AdvancedApi(
    "PhiloxRandom",
    """``PhiloxRandom<Rounds, T>(dstLocal, philoxKey, philoxCounter, count | params)``.

    Element e of the stream is word ``e % 4`` of ``Philox4x32-Rounds(counter + e / 4, key)``
    (the 128-bit counter incremented with carry); ``count`` elements from e = 0, or with
    :class:`PhiloxRandomParams` row i, column j of the window is element ``i * stride + j``.
    uint32 / int32 get the words' bits; float gets ``(0x3F800000 | (w & 0x7FFFFF)) - 1.0``.
    Rounds: 7 (the default) or 10.

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     y = LocalTensor[uint32_t](TPosition.VECCALC, 0, 8)
    ...     PhiloxRandom[10](y, (0, 0), (0, 0, 0, 0), 8); ctx.tracker.barrier()
    ...     [hex(v) for v in y.GetPhyAddr().read(4).tolist()]
    ['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
    """,
    [
        Overload(
            (Param("Rounds", int, 7), Param("T", TYPENAME)),
            _philox,
            lambda a: (
                len(a) == 4
                and is_tensor(a[0])
                and (is_count(a[3]) or isinstance(a[3], PhiloxRandomParams))
            ),
            lambda a: {"T": tensor_dtype(a[0])},
        )
    ],
)


# -- Broadcast ---------------------------------------------------------------------------------


class BroadcastTiling(Struct):
    """``AscendC::BroadcastTiling``: what ``GetBroadcastTilingInfo`` computes for ``Broadcast``.

    Examples
    --------
    >>> BroadcastTiling.size
    204
    """

    oriRank: uint32_t
    rank: uint32_t
    dstSize: uint32_t
    srcSize: uint32_t
    loopNum: uint32_t
    oriSrcShape: CArray[uint32_t, 9]  # type: ignore[type-arg, valid-type]
    oriDstShape: CArray[uint32_t, 9]  # type: ignore[type-arg, valid-type]
    dstShape: CArray[uint32_t, 9]  # type: ignore[type-arg, valid-type]
    dstStride: CArray[uint32_t, 9]  # type: ignore[type-arg, valid-type]
    srcStride: CArray[uint32_t, 10]  # type: ignore[type-arg, valid-type]


STATIC_BROADCAST_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                          float32_t)  # fmt: skip
BROADCAST_TYPES = (*STATIC_BROADCAST_TYPES, int64_t, uint64_t)


def _shape(call: str, role: str, value: Any, rank: int) -> tuple[int, ...]:
    try:
        extents = tuple(int(v) for v in list(value)[:rank])
    except TypeError:
        extents = ()
    if len(extents) != rank or any(v < 0 for v in extents):
        raise AscregTypeError(f"{role} must hold {rank} extents, got {value!r:.60}", call=call)
    return extents


def _broadcast_values(call: str, dst: Any, src: Any, dst_shape: Any, src_shape: Any) -> None:
    """Write src (``src_shape``, dense) broadcast to ``dst_shape`` (dense) into dst."""
    if any(s not in (1, d) for s, d in zip(src_shape, dst_shape, strict=True)):
        raise AscregError(
            f"srcShape {list(src_shape)} does not broadcast to dstShape {list(dst_shape)} "
            "(each src extent must be 1 or the dst extent)",
            call=call,
        )
    n_src, n_dst = int(np.prod(src_shape)), int(np.prod(dst_shape))
    check_count(call, "srcShape's size", n_src, ("src", src))
    check_count(call, "dstShape's size", n_dst, ("dst", dst))
    check_apart(call, ("dst", dst, n_dst), ("src", src, n_src))
    values = read(src, n_src).reshape(src_shape)
    write(dst, np.ascontiguousarray(np.broadcast_to(values, dst_shape)).reshape(-1))


def _broadcast_static(
    t: TemplateArgs, dst: Any, src: Any, dst_shape: Any, src_shape: Any, *tmp: Any
) -> None:
    dim, axis = int(t.dim), int(t.axis)
    call = f"Broadcast<{t.T.cpp_name}, {dim}, {axis}>"
    check_dtype(call, "T", t.T, STATIC_BROADCAST_TYPES)
    if dim not in (1, 2) or axis not in (0, 1):
        raise AscregError(
            f"dim {dim} / axis {axis}: the 950 supports dim 1 or 2, axis 0 or 1", call=call
        )
    check_tensor(call, "dstLocal", dst, t.T)
    check_tensor(call, "srcLocal", src, t.T)
    if tmp:
        check_tmp(call, tmp[0])
    _broadcast_values(
        call,
        dst,
        src,
        _shape(call, "dstShape", dst_shape, dim),
        _shape(call, "srcShape", src_shape, dim),
    )


def _broadcast_dynamic(
    t: TemplateArgs, dst: Any, src: Any, dst_shape: Any, src_shape: Any, tiling: Any
) -> None:
    call = f"Broadcast<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, BROADCAST_TYPES)
    check_tensor(call, "dst", dst, t.T)
    check_tensor(call, "src", src, t.T)
    rank = int(tiling.oriRank)
    if not 1 <= rank <= 9 or (int(t.constRank) != -1 and int(t.constRank) != rank):
        raise AscregError(
            f"tiling.oriRank {rank} (constRank {t.constRank}): fill the tiling "
            "with GetBroadcastTilingInfo (rank 1..9)",
            call=call,
        )
    shapes = (_shape(call, "dstShape", dst_shape, rank), _shape(call, "srcShape", src_shape, rank))
    for role, given, kept in (
        ("dstShape", shapes[0], tiling.oriDstShape),
        ("srcShape", shapes[1], tiling.oriSrcShape),
    ):
        if list(given) != [int(v) for v in kept[:rank]]:
            raise AscregError(
                f"{role} {list(given)} is not the tiling's {list(kept[:rank])}", call=call
            )
    _broadcast_values(call, dst, src, *shapes)


def _is_tmp(value: Any) -> bool:
    return is_tensor(value, uint8_t)


Broadcast = AdvancedApi(
    "Broadcast",
    """``Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape
    [, sharedTmpBuffer])`` and ``Broadcast<T, constRank, ...>(dst, src, dstShape, srcShape,
    tiling)``: copy a dense src of ``srcShape`` into a dense dst of ``dstShape``, repeating it
    along every axis where the src extent is 1.

    The first form takes dim 1 or 2 (b8/b16/b32); the second rank 1..9 (b8..b64) with a
    :class:`BroadcastTiling` from :func:`GetBroadcastTilingInfo`. src and dst must not overlap.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
    ...     y = LocalTensor[float32_t](TPosition.VECCALC, 64, 24)
    ...     x.GetPhyAddr().write([1.0, 2.0, 3.0]); ctx.tracker.barrier()
    ...     Broadcast[float32_t, 2, 1](y, x, (3, 8), (3, 1)); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(24).reshape(3, 8)[:, :2].tolist()
    [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("dim", int),
                Param("axis", int),
                Param("isReuseSource", bool, False),
            ),
            _broadcast_static,
            lambda a: (len(a) == 4 or (len(a) == 5 and _is_tmp(a[4]))) and is_tensor(a[0]),
            lambda a: {"T": tensor_dtype(a[0])},
        ),
        Overload(
            (
                Param("T", TYPENAME),
                Param("constRank", int, -1),
                Param("constDstShape", object, None),
                Param("constSrcShape", object, None),
                Param("constSrcInnerPad", bool, False),
            ),
            _broadcast_dynamic,
            lambda a: len(a) == 5 and is_tensor(a[0]) and isinstance(a[4], BroadcastTiling),
            lambda a: {"T": tensor_dtype(a[0])},
        ),
    ],
)


def _broadcast_tiling(
    t: TemplateArgs, rank: Any, dst_shape: Any, src_shape: Any, src_inner_pad: Any, tiling: Any
) -> None:
    call = f"GetBroadcastTilingInfo<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, BROADCAST_TYPES)
    n = operands.integer(rank, "rank")
    if not 1 <= n <= 9 or (int(t.constRank) != -1 and int(t.constRank) != n):
        raise AscregError(f"rank {n} must be in [1, 9] (and equal constRank)", call=call)
    if not isinstance(tiling, BroadcastTiling):
        raise AscregTypeError("tiling must be a BroadcastTiling", call=call)
    if src_inner_pad:
        raise AscregError("srcInnerPad must be false (the only value the 950 supports)", call=call)
    fields = advmisc.broadcast_tiling(
        _shape(call, "dstShape", dst_shape, n), _shape(call, "srcShape", src_shape, n), t.T.size
    )
    for name, value in fields.items():
        current = getattr(tiling, name)
        if isinstance(current, np.ndarray):
            current[: len(value)] = value
        else:
            setattr(tiling, name, value)


GetBroadcastTilingInfo = AdvancedApi(
    "GetBroadcastTilingInfo",
    """``GetBroadcastTilingInfo<T, constRank, ...>(rank, dstShape, srcShape, srcInnerPad, tiling)``:
    fill a :class:`BroadcastTiling` on the kernel side (axes fused, 64-bit types as word
    pairs, ``ascreg.core.advmisc.broadcast_tiling``). T cannot be deduced: write
    ``GetBroadcastTilingInfo[T](...)``.

    Examples
    --------
    >>> from ascreg import half
    >>> tiling = BroadcastTiling()
    >>> GetBroadcastTilingInfo[half](3, (2, 3, 4), (2, 1, 1), False, tiling)
    >>> tiling.rank, tiling.dstShape[:2].tolist(), tiling.srcStride[:2].tolist()
    (2, [2, 12], [1, 0])
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("constRank", int, -1),
                Param("constDstShape", object, None),
                Param("constSrcShape", object, None),
            ),
            _broadcast_tiling,
            lambda a: len(a) == 5,
        )
    ],
)

"""The advanced API's ``TopK`` (排序操作/TopK.md) with its 950 algorithm, ``RADIX_SELECT``.

``TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(dstValue, dstIndex, src,
srcIndex, finish[, tmp], k, tiling, topKInfo[, isLargest])``: the *k* largest (or smallest)
of the first ``topKInfo.n`` values of each of the ``topKInfo.outter`` rows of ``inner``
values, with their indices. The order follows the dav-3510 implementation
(``topk_3510_impl.h``):

* the values are compared by their radix keys (the bit patterns made monotone, as ``Sort``'s
  radix sort does: ``-NaN < -inf < ... < -0.0 < +0.0 < ... < +NaN``), inverted for the
  smallest;
* the *k*-th key is found, then the values with a greater key are taken in index order,
  followed by those equal to it in index order, until there are *k*;
* with ``config.sorted`` (the default) those *k* are radix-sorted by key, largest first,
  stably (equal keys keep that order); without it they stay in that order.

``Normal`` mode writes row *r* at element ``r * kPad`` of *dstValue* (*k* rounded up to 32
bytes of ``T``) and ``r * AlignUp(k, 8)`` of *dstIndex*; ``Small`` mode (``inner`` = 32) packs
the rows *k* apart. The elements between are not written. The indices are ``0..inner-1``, or
with ``isInitIndex`` those of *srcIndex* (one row shared by all rows in Normal mode, one per
row in Small mode). With ``isReuseSrc`` and ``float`` data the implementation works in *src*:
its first ``inner`` elements are left holding the radix keys. ``MERGE_SORT``, the page says,
is not yet supported on the 950 (``RADIX_SELECT`` must be chosen): ascreg refuses it.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, int32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> config = TopKConfig(TopKAlgo.RADIX_SELECT)
>>> with block(BlockContext()) as ctx:
...     src = LocalTensor[float32_t](TPosition.VECCALC, 0, 32)
...     val = LocalTensor[float32_t](TPosition.VECCALC, 128, 8)
...     idx = LocalTensor[int32_t](TPosition.VECCALC, 160, 8)
...     src.GetPhyAddr().write(np.float32([3, 9, 1, 9, 4] + [0] * 27)); ctx.tracker.barrier()
...     TopK[float32_t, False, False, False, TopKMode.TOPK_NORMAL, config](
...         val, idx, src, idx, idx, 3, None, TopKInfo(1, 32, 5))
...     ctx.tracker.barrier()
...     val.GetPhyAddr().read(3).tolist(), idx.GetPhyAddr().read(3).tolist()
([9.0, 9.0, 4.0], [1, 3, 4])
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import float32_t, int32_t
from ascreg.basic._adv import (
    TYPENAME,
    AdvancedApi,
    Overload,
    Param,
    TemplateArgs,
    check_dtype,
    check_tensor,
    check_tmp,
    is_tensor,
    read,
    tensor_dtype,
    write,
)
from ascreg.basic._adv_sort import RADIX_TYPES
from ascreg.core import advsort
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError

__all__ = [
    "TopK",
    "TopKAlgo",
    "TopKConfig",
    "TopKInfo",
    "TopKMode",
    "TopKOrder",
    "defaultTopKConfig",
]


class TopKMode(enum.Enum):
    """``AscendC::TopKMode``: ``TOPK_NORMAL`` (any inner length) or ``TOPK_NSMALL`` (inner 32).

    Examples
    --------
    >>> TopKMode.TOPK_NORMAL.name
    'TOPK_NORMAL'
    """

    TOPK_NORMAL = 0
    TOPK_NSMALL = 1


class TopKAlgo(enum.Enum):
    """``AscendC::TopKAlgo``: the algorithm (the 950 runs ``RADIX_SELECT``).

    Examples
    --------
    >>> TopKAlgo.RADIX_SELECT.value
    0
    """

    RADIX_SELECT = 0
    MERGE_SORT = 1


class TopKOrder(enum.Enum):
    """``AscendC::TopKOrder``: ``UNSET`` (``isLargest`` decides), ``LARGEST``, ``SMALLEST``.

    Examples
    --------
    >>> TopKOrder.UNSET.value
    0
    """

    UNSET = 0
    LARGEST = 1
    SMALLEST = 2


@attrs.frozen
class TopKConfig:
    """``AscendC::TopKConfig{algo, order, sorted}``: the ``config`` template argument of ``TopK``.

    Examples
    --------
    >>> TopKConfig(TopKAlgo.RADIX_SELECT, TopKOrder.SMALLEST, False).sorted
    False
    """

    algo: TopKAlgo = TopKAlgo.MERGE_SORT
    order: TopKOrder = TopKOrder.UNSET
    sorted: bool = True


defaultTopKConfig = TopKConfig()
"""``AscendC::defaultTopKConfig``: ``{MERGE_SORT, UNSET, true}`` (choose ``RADIX_SELECT`` on
the 950)."""


@attrs.define
class TopKInfo:
    """``AscendC::TopKInfo{outter, inner, n}``: rows, row length and the values that count.

    ``inner`` is a multiple of 32 and ``1 <= n <= inner``.

    Examples
    --------
    >>> TopKInfo(2, 64, 50).inner
    64
    """

    outter: int = 1
    inner: int = 0
    n: int = 0


NORMAL_INNER_MAX = 4096
"""The longest ``inner`` of Normal mode."""
SMALL_INNER = 32
"""The ``inner`` of Small mode."""


def _pad(k: int, size: int) -> int:
    """*k* rounded up to a whole number of 32-byte blocks of *size*-byte elements (``GetKPad``)."""
    per = 32 // size
    return -(-k // per) * per


def _shape(call: str, info: Any, k: Any, mode: TopKMode) -> tuple[int, int, int, int]:
    if not isinstance(info, TopKInfo):
        raise AscregTypeError(f"topKInfo must be a TopKInfo, got {info!r:.60}", call=call)
    outter, inner, n = (int(v) for v in (info.outter, info.inner, info.n))
    if inner <= 0 or inner % 32:
        raise AscregError(f"topKInfo.inner {inner} must be a positive multiple of 32", call=call)
    if mode is TopKMode.TOPK_NSMALL and inner != SMALL_INNER:
        raise AscregError(f"Small mode needs topKInfo.inner == 32, got {inner}", call=call)
    if mode is TopKMode.TOPK_NORMAL and inner > NORMAL_INNER_MAX:
        raise AscregError(f"Normal mode takes topKInfo.inner <= 4096, got {inner}", call=call)
    if not 1 <= n <= inner or outter < 1:
        raise AscregError(f"topKInfo (outter {outter}, n {n}) needs 1 <= n <= inner", call=call)
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= int(k) <= n:
        raise AscregError(f"k {k!r} must be an integer in [1, n = {n}]", call=call)
    return outter, inner, n, int(k)


def select(keys: np.ndarray[Any, Any], k: int, sort: bool) -> np.ndarray[Any, Any]:
    """Return the positions ``RADIX_SELECT`` outputs for one row's radix *keys* (top = largest).

    The values with a key above the *k*-th largest key in index order, then those equal to it
    in index order, the first *k* of them; with *sort*, stably sorted by key, largest first.

    Examples
    --------
    >>> select(np.array([5, 7, 5, 9, 5], np.uint8), 3, sort=False).tolist()
    [1, 3, 0]
    >>> select(np.array([5, 7, 5, 9, 5], np.uint8), 3, sort=True).tolist()
    [3, 1, 0]
    """
    kth = np.sort(keys)[len(keys) - k]
    taken = np.concatenate([np.flatnonzero(keys > kth), np.flatnonzero(keys == kth)])[:k]
    if sort:
        taken = taken[advsort.radix_order(keys[taken], descending=True)]
    return taken


def _largest(config: TopKConfig, is_largest: Any) -> bool:
    if config.order is TopKOrder.UNSET:
        return bool(is_largest)
    return config.order is TopKOrder.LARGEST


def _topk(t: TemplateArgs, *args: Any) -> None:
    value_type = t.T
    config: TopKConfig = t.config
    mode: TopKMode = t.topkMode
    call = f"TopK<{value_type.cpp_name}, ..., {mode.name}, {config}>"
    dst_value, dst_index, src, src_index, _finish = args[:5]
    rest = args[5:]
    tmp = rest[0] if rest and is_tensor(rest[0]) else None
    if tmp is not None:
        check_tmp(call, tmp)
        rest = rest[1:]
    if not 3 <= len(rest) <= 4:
        raise AscregTypeError("takes (..., k, tiling, topKInfo[, isLargest])", call=call)
    k, _tiling, info = rest[:3]
    is_largest = rest[3] if len(rest) == 4 else True
    if config.algo is not TopKAlgo.RADIX_SELECT:
        raise UnsupportedError(
            "MERGE_SORT TopK is not supported on the 950 yet (TopK.md: choose "
            "TopKConfig{TopKAlgo::RADIX_SELECT, ...})",
            call=call,
        )
    check_dtype(call, "T", value_type, RADIX_TYPES)
    outter, inner, n, k = _shape(call, info, k, mode)
    small = mode is TopKMode.TOPK_NSMALL
    value_step = k if small else _pad(k, value_type.size)
    index_step = k if small else _pad(k, 4)
    check_tensor(call, "srcLocal", src, value_type)
    check_tensor(call, "dstValueLocal", dst_value, value_type)
    check_tensor(call, "dstIndexLocal", dst_index, int32_t)
    _fits(call, "srcLocal", src, outter * inner)
    _fits(call, "dstValueLocal", dst_value, (outter - 1) * value_step + k)
    _fits(call, "dstIndexLocal", dst_index, (outter - 1) * index_step + k)
    if t.isInitIndex:
        check_tensor(call, "srcIndexLocal", src_index, int32_t)
        _fits(call, "srcIndexLocal", src_index, outter * inner if small else inner)
        indices = read(src_index, outter * inner if small else inner).reshape(-1, inner)
    else:
        indices = np.arange(inner, dtype=np.int32)[None, :]
    largest = _largest(config, is_largest)
    rows = read(src, outter * inner).reshape(outter, inner)
    for r in range(outter):
        keys = advsort.radix_keys(rows[r, :n], descending=not largest)
        taken = select(keys, k, config.sorted)
        write(dst_value, rows[r, taken], r * value_step)
        names = indices[r if len(indices) > 1 else 0]  # one row each in Small mode with srcIndex
        write(dst_index, names[taken].astype(np.int32), r * index_step)
    if t.isReuseSrc and value_type is float32_t:  # the keys were made in src
        keys = advsort.radix_keys(rows.reshape(-1)[:inner], descending=not largest)
        write(src, keys.view(np.float32))


def _fits(call: str, role: str, tensor: Any, count: int) -> None:
    if tensor.GetSize() and tensor.GetSize() < count:
        raise AscregError(
            f"{role} holds {tensor.GetSize()} elements but TopK uses {count}", call=call
        )


def _topk_form(args: tuple[Any, ...]) -> bool:
    return 8 <= len(args) <= 10 and all(is_tensor(a) for a in args[:5])


def _deduce(args: tuple[Any, ...]) -> dict[str, Any]:
    return {"T": tensor_dtype(args[2])} if args and is_tensor(args[2]) else {}


TopK = AdvancedApi(
    "TopK",
    """``TopK``: the *k* largest or smallest values of each row and their indices (TopK.md).

    ``TopK[T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config](dstValueLocal,
    dstIndexLocal, srcLocal, srcIndexLocal, finishLocal[, tmpLocal], k, tiling, topKInfo[,
    isLargest])``; see :mod:`ascreg.basic._adv_topk` for the order and layout. *finishLocal*
    and *isHasfinish* are reserved on the 950 (not read); *tiling* (``TopkTiling``) is not read
    by the radix select.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> smallest = TopKConfig(TopKAlgo.RADIX_SELECT, TopKOrder.SMALLEST)
    >>> with block(BlockContext()) as ctx:
    ...     src = LocalTensor[half](TPosition.VECCALC, 0, 64)
    ...     val = LocalTensor[half](TPosition.VECCALC, 128, 32)
    ...     idx = LocalTensor[int32_t](TPosition.VECCALC, 256, 16)
    ...     src.GetPhyAddr().write(np.arange(64) % 7)
    ...     val.GetPhyAddr().write(np.zeros(32)); idx.GetPhyAddr().write(np.zeros(16, np.int32))
    ...     ctx.tracker.barrier()
    ...     TopK[half, False, False, False, TopKMode.TOPK_NORMAL, smallest](
    ...         val, idx, src, idx, idx, 2, None, TopKInfo(2, 32, 32))
    ...     ctx.tracker.barrier()
    ...     val.GetPhyAddr().read(18)[[0, 1, 16, 17]].tolist(), idx.GetPhyAddr().read(10)[[0, 1, 8, 9]].tolist()
    ([0.0, 0.0, 0.0, 0.0], [0, 7, 3, 10])
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("isInitIndex", bool, False),
                Param("isHasfinish", bool, False),
                Param("isReuseSrc", bool, False),
                Param("topkMode", TopKMode, TopKMode.TOPK_NORMAL),
                Param("config", TopKConfig, defaultTopKConfig),
            ),
            _topk,
            _topk_form,
            _deduce,
        )
    ],
)

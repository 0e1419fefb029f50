"""The advanced API's sorts on LocalTensors (排序操作).

``Sort``, ``Concat``, ``Extract``, ``MrgSort``, ``GetSortLen``, ``GetSortOffset`` and
``SortConfig`` / ``SortType``.

Two families share the name ``Sort``:

* with a ``SortConfig`` (950 only): ``Sort<T, isReuseSource, config>(dst[, dstIndex], src
  [, sharedTmpBuffer], calCount)`` and ``Sort<T, U, isReuseSource, config>(dst, dstIndex, src,
  srcIndex[, sharedTmpBuffer], calCount)``: the first *calCount* values sorted (radix or merge
  sort, ascending by default), their indices (generated 0.. or taken from *srcIndex*) alongside;
  both algorithms are stable (:mod:`ascreg.core.advsort`);
* the record sort ``Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)``: 32-element groups
  into 8-byte (score, index) records, highest first, with ``Concat`` before (on the 950 it only
  makes *concat* the source) and ``Extract`` after (records back to values and indices).

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, uint32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     src = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
...     dst = LocalTensor[float32_t](TPosition.VECCALC, 64, 8)
...     idx = LocalTensor[uint32_t](TPosition.VECCALC, 128, 8)
...     src.GetPhyAddr().write(np.array([3, 1, 2, 5, 4, 0, 7, 6], np.float32))
...     ctx.tracker.barrier()
...     Sort[float32_t, False, SortConfig(SortType.RADIX_SORT, True)](dst, idx, src, 8)
...     ctx.tracker.barrier()
...     dst.GetPhyAddr().read(8).tolist(), idx.GetPhyAddr().read(8).tolist()
([7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0], [6, 7, 3, 4, 0, 2, 1, 5])
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    bfloat16_t,
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
from ascreg.basic._spr import record_mrgsort
from ascreg.basic._template import TYPENAME as TYPE_KIND
from ascreg.basic._template import Signature, function_template
from ascreg.basic._tensor import LocalTensor
from ascreg.core import advsort
from ascreg.core.sort import RECORD_BYTES, SORT_GROUP, merge_queues, scores
from ascreg.errors import AscregError, AscregTypeError

__all__ = [
    "DEFAULT_SORT_CONFIG",
    "Concat",
    "Extract",
    "GetSortLen",
    "GetSortOffset",
    "MrgSort",
    "MrgSortSrcList",
    "Sort",
    "Sort32",
    "SortConfig",
    "SortType",
]


class SortType(enum.Enum):
    """``AscendC::SortType``: the algorithm of ``Sort`` with a ``SortConfig``.

    Examples
    --------
    >>> SortType.RADIX_SORT.name, SortType.MERGE_SORT.value
    ('RADIX_SORT', 1)
    """

    RADIX_SORT = 0
    MERGE_SORT = 1


@attrs.frozen
class SortConfig:
    """``AscendC::SortConfig{type, isDescend}``: the ``config`` template argument of ``Sort``.

    Examples
    --------
    >>> SortConfig(), SortConfig(SortType.MERGE_SORT, True).isDescend
    (SortConfig(type=<SortType.RADIX_SORT: 0>, isDescend=False), True)
    """

    type: SortType = SortType.RADIX_SORT
    isDescend: bool = False


DEFAULT_SORT_CONFIG = SortConfig()
"""``AscendC::DEFAULT_SORT_CONFIG``: ``{SortType::RADIX_SORT, false}`` (ascending radix sort)."""

RADIX_TYPES = (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, bfloat16_t,
               float32_t, uint64_t, int64_t)  # fmt: skip
"""Values ``SortType::RADIX_SORT`` sorts (Sort.md, 表3)."""
RADIX_INDEX_TYPES = (uint32_t, int32_t, uint64_t, int64_t)
"""Index types of the radix sort with a source index."""
RECORD_TYPES = (half, float32_t)
"""Values of the merge sort and of the record sort, Concat, Extract, MrgSort."""


def _configured_sort(
    t: TemplateArgs,
    call: str,
    dst: Any,
    dst_index: Any,
    src: Any,
    src_index: Any,
    tmp: Any,
    count: Any,
) -> None:
    """``Sort`` with a ``SortConfig``: every form (a missing operand is None)."""
    config: SortConfig = t.config
    value_type = t.T
    merge = config.type is SortType.MERGE_SORT
    check_dtype(call, "T", value_type, RECORD_TYPES if merge else RADIX_TYPES)
    index_type = getattr(t, "U", uint32_t)
    if src_index is not None:
        check_dtype(call, "U", index_type, (uint32_t,) if merge else RADIX_INDEX_TYPES)
    check_tensor(call, "dstTensor", dst, value_type)
    check_tensor(call, "srcTensor", src, value_type)
    named = [("dstTensor", dst), ("srcTensor", src)]
    if dst_index is not None:
        check_tensor(call, "dstIndexTensor", dst_index, index_type)
        named.append(("dstIndexTensor", dst_index))
    if src_index is not None:
        check_tensor(call, "srcIndexTensor", src_index, index_type)
        named.append(("srcIndexTensor", src_index))
    if tmp is not None:
        check_tmp(call, tmp)
    n = check_count(call, "calCount", count, *named)
    if n == 0:
        raise AscregError(
            "calCount must be greater than 0 (the implementation asserts it)", call=call
        )
    used = [(role, tensor, n) for role, tensor in named]
    if merge:
        if n % SORT_GROUP:
            raise AscregError(
                f"calCount {n} is not a multiple of 32: MERGE_SORT sorts whole groups of 32 "
                "(pad the data, Sort.md 约束说明)",
                call=call,
            )
        if dst.GetSize() * value_type.size < n * RECORD_BYTES:
            raise AscregError(
                f"dstTensor holds {dst.GetSize() * value_type.size} bytes: MERGE_SORT needs "
                f"8 bytes per element ({n * RECORD_BYTES})",
                call=call,
            )
        used[0] = ("dstTensor", dst, n * RECORD_BYTES // value_type.size)
    if tmp is not None:
        used.append(("sharedTmpBuffer", tmp, tmp.GetSize()))
    check_apart(call, *used)
    values = read(src, n)
    indices = read(src_index, n) if src_index is not None else np.arange(n, dtype=np.uint32)
    if merge:
        order = advsort.merge_order(values, config.isDescend)
        if not config.isDescend:  # the implementation flips src's sign bits in place, not back
            write(src, advsort.sign_flipped(values))
        write(view_as(dst, uint32_t), _record_bytes(values[order], indices[order]))
    else:
        order = advsort.radix_order(values, config.isDescend)
    write(dst, values[order])
    if dst_index is not None:
        write(dst_index, indices[order].astype(index_type.np_dtype))


def _record_bytes(values: np.ndarray[Any, Any], indices: np.ndarray[Any, Any]) -> Any:
    """Return the merge sort's record words in dst (before its values overwrite the front)."""
    return advsort.full_records(values, indices.astype(np.uint32), full=True).reshape(-1)


def _record_sort(t: TemplateArgs, dst: Any, concat: Any, index: Any, tmp: Any, repeat: Any) -> None:
    """``Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)``: the record sort."""
    call = f"Sort<{t.T.cpp_name}, {str(bool(t.isFullSort)).lower()}>"
    check_dtype(call, "T", t.T, RECORD_TYPES)
    for role, tensor, dtype in (("dst", dst, t.T), ("concat", concat, t.T), ("index", index, uint32_t), ("tmp", tmp, t.T)):  # fmt: skip
        check_tensor(call, role, tensor, dtype)
    times = _repeat(call, repeat)
    n = times * SORT_GROUP
    check_count(call, "repeatTime * 32", n, ("concat", concat), ("index", index))
    _check_records(call, "dst", dst, n)
    words = advsort.full_records(read(concat, n), read(index, n), full=bool(t.isFullSort))
    write(view_as(dst, uint32_t), words.reshape(-1))


@function_template(Signature(score=TYPE_KIND), name="Sort32")  # T, not checked against src1
def Sort32(dst: Any, src0: Any, src1: Any, repeatTime: Any, *, score: Any = None) -> None:
    """``Sort32<T>(dst, src0, src1, repeatTime)``: sort each group of 32 scores, highest first.

    Group *g* of ``src0`` (half or float scores) with its ``uint32_t`` indices in ``src1``
    becomes 32 (score, index) records of 8 bytes in ``dst`` (the index in the high 4 bytes, a
    half score in the low 2 with 2 bytes of zero between), as the record ``Sort`` makes them:
    equal scores keep their input order, NaN sorts last; groups do not mix. *repeatTime* in
    [0, 255] groups.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     score = LocalTensor[float32_t](TPosition.VECCALC, 0, 32)
    ...     index = LocalTensor[uint32_t](TPosition.VECCALC, 128, 32)
    ...     dst = LocalTensor[float32_t](TPosition.VECCALC, 256, 64)
    ...     score.GetPhyAddr().write(np.arange(32) % 5); index.GetPhyAddr().write(np.arange(32))
    ...     ctx.tracker.barrier(); Sort32(dst, score, index, 1); ctx.tracker.barrier()
    ...     dst.GetPhyAddr().read(8)[::2].tolist(), dst.GetPhyAddr().cast(uint32_t).read(8)[1::2].tolist()
    ([4.0, 4.0, 4.0, 4.0], [4, 9, 14, 19])
    """
    call = "Sort32"
    value_type = score if score is not None else tensor_dtype(dst)
    check_dtype(call, "T", value_type, RECORD_TYPES)
    for role, tensor, dtype in (("dst", dst, value_type), ("src0", src0, value_type), ("src1", src1, uint32_t)):  # fmt: skip
        check_tensor(call, role, tensor, dtype)
    n = _repeat(call, repeatTime) * SORT_GROUP
    check_count(call, "repeatTime * 32", n, ("src0", src0), ("src1", src1))
    _check_records(call, "dst", dst, n)
    words = advsort.full_records(read(src0, n), read(src1, n), full=False)
    write(view_as(dst, uint32_t), words.reshape(-1))


def _repeat(call: str, value: Any) -> int:
    if not is_count(value) or not 0 <= int(value) <= 255:
        raise AscregError(f"repeatTime {value!r:.30} is outside [0, 255]", call=call)
    return int(value)


def _check_records(call: str, role: str, tensor: LocalTensor[Any], n: int) -> None:
    if tensor.GetSize() * tensor._dtype().size < n * RECORD_BYTES:
        raise AscregError(
            f"{role} holds {tensor.GetSize() * tensor._dtype().size} bytes, the {n} records "
            f"need {n * RECORD_BYTES} (8 bytes each)",
            call=call,
        )


def _value_index_match(value_types: tuple[Any, ...]) -> Any:
    def match(args: tuple[Any, ...]) -> bool:
        return bool(args) and is_tensor(args[0]) and tensor_dtype(args[0]) in value_types

    return match


def _deduce_t(args: tuple[Any, ...]) -> dict[str, Any]:
    return {"T": tensor_dtype(args[0])}


def _deduce_tu(args: tuple[Any, ...]) -> dict[str, Any]:
    return {"T": tensor_dtype(args[0]), "U": tensor_dtype(args[1])}


def _is_tmp(value: Any) -> bool:
    return is_tensor(value, uint8_t)


def _record_form(args: tuple[Any, ...]) -> bool:
    return (
        len(args) == 5
        and all(is_tensor(a) for a in args[:4])
        and tensor_dtype(args[0]) in RECORD_TYPES
        and tensor_dtype(args[1]) is tensor_dtype(args[0])
        and is_tensor(args[2], uint32_t)
        and tensor_dtype(args[3]) is tensor_dtype(args[0])
        and is_count(args[4])
    )


def _indexed_form(args: tuple[Any, ...]) -> bool:
    """``(dst, dstIndex, src, srcIndex[, tmp], calCount)``."""
    if (
        len(args) not in (5, 6)
        or not is_count(args[-1])
        or not all(is_tensor(a) for a in args[:-1])
    ):
        return False
    if len(args) == 6 and not _is_tmp(args[4]):
        return False
    t, u = tensor_dtype(args[0]), tensor_dtype(args[1])
    return (
        u in RADIX_INDEX_TYPES
        and tensor_dtype(args[2]) is t
        and tensor_dtype(args[3]) is u
        and not _record_form(args)
    )


def _plain_form(args: tuple[Any, ...]) -> bool:
    """``(dst, src[, tmp], calCount)`` or ``(dst, dstIndex<uint32_t>, src[, tmp], calCount)``."""
    if len(args) not in (3, 4, 5) or not is_count(args[-1]):
        return False
    tensors = args[:-1]
    if not all(is_tensor(a) for a in tensors) or _record_form(args) or _indexed_form(args):
        return False
    t = tensor_dtype(tensors[0])
    if len(tensors) == 2:
        return tensor_dtype(tensors[1]) is t
    if len(tensors) == 3 and tensor_dtype(tensors[1]) is t and _is_tmp(tensors[2]):
        return True  # (dst, src, tmp, count)
    rest = tensors[1:]
    return (
        is_tensor(rest[0], uint32_t)
        and tensor_dtype(rest[1]) is t
        and (len(rest) == 2 or _is_tmp(rest[2]))
    )


def _plain(t: TemplateArgs, *args: Any) -> None:
    call = f"Sort<{t.T.cpp_name}, ..., {t.config}>"
    tensors, count = args[:-1], args[-1]
    dst, dst_index, src, tmp = tensors[0], None, None, None
    if len(tensors) == 2 or (tensor_dtype(tensors[1]) is t.T and _is_tmp(tensors[2])):
        src = tensors[1]
        tmp = tensors[2] if len(tensors) == 3 else None
    else:
        dst_index, src = tensors[1], tensors[2]
        tmp = tensors[3] if len(tensors) == 4 else None
    _configured_sort(t, call, dst, dst_index, src, None, tmp, count)


def _indexed(t: TemplateArgs, *args: Any) -> None:
    call = f"Sort<{t.T.cpp_name}, {t.U.cpp_name}, ..., {t.config}>"
    tmp = args[4] if len(args) == 6 else None
    _configured_sort(t, call, args[0], args[1], args[2], args[3], tmp, args[-1])


_CONFIG = (Param("isReuseSource", bool, False), Param("config", SortConfig, DEFAULT_SORT_CONFIG))

Sort = AdvancedApi(
    "Sort",
    """``Sort``: sort values (and their indices), 排序操作/Sort.md.

    Forms (template arguments as subscripts):

    * ``Sort[T, isFullSort](dst, concat, index, tmp, repeatTime)``: the record sort of
      ``repeatTime`` groups of 32 (half, float) into 8-byte (score, uint32 index) records,
      highest first, ties in input order; with ``isFullSort`` across all groups;
    * ``Sort[T, isReuseSource, config](dst[, dstIndex], src[, sharedTmpBuffer], calCount)``;
    * ``Sort[T, U, isReuseSource, config](dst, dstIndex, src, srcIndex[, sharedTmpBuffer],
      calCount)``: *calCount* values sorted by ``config`` (:class:`SortConfig`: radix sort of
      any integer, half, bfloat16 or float type, or merge sort of half and float; ascending
      unless ``isDescend``), stable; *dstIndex* receives the indices (0.. or *srcIndex*'s).

    Decisions from the dav-3510 implementation (the page is silent): the radix sort orders
    the values' bit patterns (``-NaN < -inf < ... < -0.0 < +0.0 < ... < +NaN``); the merge
    sort treats ``-0.0`` and ``+0.0`` as equal and puts NaN last, and in ascending order it
    leaves *src* with its sign bits flipped (the implementation negates in place and does not
    restore it); a merge sort's *dst* holds 8 bytes per element (the records) of which the
    first *calCount* elements are the values. *isReuseSource* leaves *src* unchanged here.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, uint32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[half](TPosition.VECCALC, 0, 32)
    ...     i = LocalTensor[uint32_t](TPosition.VECCALC, 64, 32)
    ...     r = LocalTensor[half](TPosition.VECCALC, 256, 128)
    ...     x.GetPhyAddr().write(np.arange(32) % 5); i.GetPhyAddr().write(np.arange(32))
    ...     ctx.tracker.barrier()
    ...     Sort[half, True](r, x, i, r, 1)
    ...     ctx.tracker.barrier()
    ...     r.GetPhyAddr().cast(uint32_t).read(64)[1::2][:8].tolist()
    [4, 9, 14, 19, 24, 29, 3, 8]
    """,
    [
        Overload((Param("T", TYPENAME), Param("isFullSort", bool)), _record_sort, _record_form, _deduce_t),
        Overload((Param("T", TYPENAME), *_CONFIG), _plain, _plain_form, _deduce_t),
        Overload((Param("T", TYPENAME), Param("U", TYPENAME), *_CONFIG), _indexed, _indexed_form, _deduce_tu),
    ],
)  # fmt: skip


def _concat(t: TemplateArgs, concat: Any, src: Any, tmp: Any, repeat: Any) -> None:
    call = f"Concat<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, RECORD_TYPES)
    check_tensor(call, "src", src, t.T)
    check_tensor(call, "tmp", tmp, t.T)
    if not isinstance(concat, LocalTensor) or concat._dtype() is not t.T:
        raise AscregTypeError(f"concat must be a LocalTensor<{t.T.cpp_name}>", call=call)
    _repeat(call, repeat)
    concat._bind(src._ptr, src._size, src._position, src._owner)  # C++ `concat = src;`


Concat = AdvancedApi(
    "Concat",
    """``Concat<T>(concat, src, tmp, repeatTime)``: prepare *src* for ``Sort<T, isFullSort>``.

    On the 950 the values are sorted where they are: ``Concat`` makes the LocalTensor *concat*
    refer to *src* (the implementation's ``concat = src;``); nothing is copied.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalTensor[float32_t](TPosition.VECCALC, 64, 32)
    ...     concat, tmp = LocalTensor[float32_t](), LocalTensor[float32_t](TPosition.VECCALC, 256, 32)
    ...     Concat(concat, src, tmp, 1)
    ...     concat.GetPhyAddr().address, concat.GetSize()
    (64, 32)
    """,
    [
        Overload(
            (Param("T", TYPENAME),),
            _concat,
            lambda a: (
                len(a) == 4 and all(isinstance(x, LocalTensor) for x in a[:3]) and is_count(a[3])
            ),
            _deduce_t,
        )
    ],
)


def _extract(t: TemplateArgs, dst_value: Any, dst_index: Any, sorted_: Any, repeat: Any) -> None:
    call = f"Extract<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, RECORD_TYPES)
    check_tensor(call, "dstValue", dst_value, t.T)
    check_tensor(call, "dstIndex", dst_index, uint32_t)
    check_tensor(call, "sorted", sorted_, t.T)
    n = _repeat(call, repeat) * SORT_GROUP
    _check_records(call, "sorted", sorted_, n)
    check_count(call, "repeatTime * 32", n, ("dstValue", dst_value), ("dstIndex", dst_index))
    words = read(view_as(sorted_, uint32_t), 2 * n).reshape(-1, 2)
    write(dst_value, scores(words, t.T.np_dtype))
    write(dst_index, words[:, 1].copy())


Extract = AdvancedApi(
    "Extract",
    """``Extract<T>(dstValue, dstIndex, sorted, repeatTime)``: records back to values and indices.

    Each repeat takes 32 (score, index) records (256 bytes) of *sorted*, writes their scores to
    *dstValue* and their indices to *dstIndex*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     rec = LocalTensor[float32_t](TPosition.VECCALC, 0, 64)
    ...     words = np.zeros((32, 2), np.uint32); words[:, 0] = np.float32(np.arange(32)).view(np.uint32)
    ...     words[:, 1] = 100 + np.arange(32)
    ...     rec.GetPhyAddr().cast(uint32_t).write(words.reshape(-1)); ctx.tracker.barrier()
    ...     v = LocalTensor[float32_t](TPosition.VECCALC, 512, 32); i = LocalTensor[uint32_t](TPosition.VECCALC, 640, 32)
    ...     Extract(v, i, rec, 1); ctx.tracker.barrier()
    ...     v.GetPhyAddr().read(3).tolist(), i.GetPhyAddr().read(3).tolist()
    ([0.0, 1.0, 2.0], [100, 101, 102])
    """,
    [
        Overload(
            (Param("T", TYPENAME),),
            _extract,
            lambda a: (
                len(a) == 4 and all(isinstance(x, LocalTensor) for x in a[:3]) and is_count(a[3])
            ),
            _deduce_t,
        )
    ],
)


def _sort_units(t: TemplateArgs, count: Any, call: str) -> Any:
    check_dtype(call, "T", t.T, RECORD_TYPES)
    if not is_count(count) or int(count) < 0:
        raise AscregTypeError(f"{count!r:.30} is not a uint32_t count", call=call)
    per_record = RECORD_BYTES // t.T.size
    return uint32_t(int(count) * per_record)


GetSortLen = AdvancedApi(
    "GetSortLen",
    """``GetSortLen<T>(elemCount)``: the length of *elemCount* sort records, in elements of T.

    A record is 8 bytes: 4 halfs or 2 floats per element sorted. (The page says bytes; the
    implementation, and the kernels that multiply the result by ``sizeof(T)``, count elements
    of T.)

    Examples
    --------
    >>> from ascreg import float32_t, half
    >>> int(GetSortLen[half](32)), int(GetSortLen[float32_t](32))
    (128, 64)
    """,
    [Overload((Param("T", TYPENAME),), lambda t, n: _sort_units(t, n, "GetSortLen"), lambda a: len(a) == 1)],
)  # fmt: skip
GetSortOffset = AdvancedApi(
    "GetSortOffset",
    """``GetSortOffset<T>(elemOffset)``: where record *elemOffset* starts, in elements of T.

    Examples
    --------
    >>> from ascreg import half
    >>> int(GetSortOffset[half](3))
    12
    """,
    [Overload((Param("T", TYPENAME),), lambda t, n: _sort_units(t, n, "GetSortOffset"), lambda a: len(a) == 1)],
)  # fmt: skip


class MrgSortSrcList:
    """``MrgSortSrcList<T>{src1, src2, src3, src4}``: the queues of ``MrgSort``.

    ``MrgSortSrcList[T](src1, src2[, src3, src4])``; unused queues may be empty LocalTensors.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor
    >>> MrgSortSrcList[float32_t](LocalTensor[float32_t](), LocalTensor[float32_t]()).src3
    <LocalTensor<float> VECCALC no buffer, 0 elements>
    """

    dtype: Any = None

    def __class_getitem__(cls, dtype: Any) -> Any:
        return type(f"MrgSortSrcList[{dtype.cpp_name}]", (cls,), {"dtype": dtype})

    def __init__(
        self, src1: Any = None, src2: Any = None, src3: Any = None, src4: Any = None
    ) -> None:
        dtype = self.dtype
        empty = (lambda: LocalTensor[dtype]()) if dtype is not None else (lambda: None)  # type: ignore[valid-type]
        self.src1 = src1 if src1 is not None else empty()
        self.src2 = src2 if src2 is not None else empty()
        self.src3 = src3 if src3 is not None else empty()
        self.src4 = src4 if src4 is not None else empty()


def _mrgsort(
    t: TemplateArgs,
    dst: Any,
    sortList: Any,
    counts: Any,
    sortedNum: Any,
    validBit: Any,
    repeat: Any,
) -> None:
    call = f"MrgSort<{t.T.cpp_name}, {str(bool(t.isExhaustedSuspension)).lower()}>"
    check_dtype(call, "T", t.T, RECORD_TYPES)
    check_tensor(call, "dst", dst, t.T)
    if validBit not in (0b11, 0b111, 0b1111):
        raise AscregError(f"validBit {validBit!r} must be 0b11, 0b111 or 0b1111", call=call)
    queues = [sortList.src1, sortList.src2, sortList.src3, sortList.src4][
        : int(validBit).bit_length()
    ]
    lengths = [int(c) for c in list(counts)[: len(queues)]]
    if any(not 0 <= c <= 4095 for c in lengths):
        raise AscregError(f"elementCountList {lengths} must be in [0, 4095]", call=call)
    times = _repeat(call, repeat)
    if times < 1:
        raise AscregError("repeatTime must be in [1, 255]", call=call)
    words = []
    for k, (queue, length) in enumerate(zip(queues, lengths, strict=True)):
        check_tensor(call, f"src{k + 1}", queue, t.T)
        _check_records(call, f"src{k + 1}", queue, length)
        words.append(read(view_as(queue, uint32_t), 2 * length).reshape(-1, 2))
    merged = merge_queues(words, t.T.np_dtype, bool(t.isExhaustedSuspension))
    _check_records(call, "dst", dst, len(merged))
    write(view_as(dst, uint32_t), merged.reshape(-1))
    if t.isExhaustedSuspension:
        taken = advsort.merge_taken(words, t.T.np_dtype)
        counts = [taken[k] if k < len(taken) else 0 for k in range(4)]
        for k in range(4):
            sortedNum[k] = uint32_t(counts[k])
        record_mrgsort(counts)  # VMS4_SR, read by GetMrgSortResult
    else:
        record_mrgsort(None)


MrgSort = AdvancedApi(
    "MrgSort",
    """``MrgSort<T, isExhaustedSuspension>(dst, sortList, elementCountList, sortedNum, validBit,
    repeatTime)``: merge 2-4 sorted record queues into one, highest score first.

    Ties go to the lower-numbered queue. With *isExhaustedSuspension* the merge stops when a
    queue runs out and *sortedNum* (a list of 4) receives how many records of each were taken.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> def queue(at, values):
    ...     t = LocalTensor[float32_t](TPosition.VECCALC, at, 2 * len(values))
    ...     w = np.zeros((len(values), 2), np.uint32); w[:, 0] = np.float32(values).view(np.uint32)
    ...     t.GetPhyAddr().cast(uint32_t).write(w.reshape(-1)); return t
    >>> with block(BlockContext()) as ctx:
    ...     a, b = queue(0, [5, 3, 1]), queue(64, [4, 2])
    ...     dst = LocalTensor[float32_t](TPosition.VECCALC, 128, 10); ctx.tracker.barrier()
    ...     MrgSort[float32_t, False](dst, MrgSortSrcList[float32_t](a, b), [3, 2, 0, 0], [0] * 4, 0b11, 1)
    ...     ctx.tracker.barrier(); dst.GetPhyAddr().read(10)[::2].tolist()
    [5.0, 4.0, 3.0, 2.0, 1.0]
    """,
    [
        Overload(
            (Param("T", TYPENAME), Param("isExhaustedSuspension", bool, False)),
            _mrgsort,
            lambda a: (
                len(a) == 6 and isinstance(a[0], LocalTensor) and isinstance(a[1], MrgSortSrcList)
            ),
            _deduce_t,
        )
    ],
)

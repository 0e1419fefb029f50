"""The basic API's ``DataCopyL1ToUB``: L1 -> UB on ``PIPE_MTE1`` (an AIC writing an AIV's UB).

``DataCopyL1ToUB<T, subBlockId = 0>(dst, src, count)`` and ``(dst, src, DataCopyParams)``
copy L1 (``src`` at ``TPosition`` A1 / B1) to UB (``dst`` at VECIN / VECOUT / VECCALC), both
32-byte aligned, bytes as they are (``T`` of 1, 2, 4 or 8 bytes). The count form copies
``count * sizeof(T)`` bytes rounded down to whole 32-byte blocks (the page: an unaligned count
is rounded down); the params form ``blockCount`` ([1, 4095]) blocks of ``blockLen``
([1, 65535]) DataBlocks, ``srcStride`` / ``dstStride`` DataBlocks from the tail of one to the
head of the next. On the AIC of a ``__mix__(1, 2)`` launch it writes the UB of vector core
``subBlockId`` (0 or 1) of its AI Core at ``dst``'s address (the page: mix kernels of the 1:2
ratio only); on an AIV it does nothing (the 950 header's ``ASCEND_IS_AIC`` guard); in a block
run alone it writes the block's own UB. The C API's ``asc_copy_l12ub`` is the same copy
(:func:`ascreg._frontend.cube_ub.l1_to_ub`). The page is
``基础API/矩阵计算（ISASI）/矩阵计算的搬出/DataCopyL1ToUB（L1到UB数据搬运）.md``.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.basic import DataCopyL1ToUB, DataCopyParams, LocalTensor, TPosition
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     a1 = LocalTensor[half](TPosition.A1, 0, 64); a1.GetPhyAddr().write(np.arange(64))
...     ub = LocalTensor[half](TPosition.VECIN, 0, 32); ctx.tracker.barrier()
...     DataCopyL1ToUB(ub, a1, DataCopyParams(2, 1, 1, 0)); ctx.tracker.barrier()
...     ub.GetPhyAddr().read(32)[[0, 15, 16, 31]].tolist()
[0.0, 15.0, 32.0, 47.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg._frontend.cube import Bursts
from ascreg._frontend.cube_ub import BURST_COUNT_MAX, l1_to_ub
from ascreg.basic._copy import DataCopyParams
from ascreg.basic._cube import _local
from ascreg.basic._template import INTEGER, TYPENAME, Signature, function_template
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.cube import C0_BYTES

__all__ = ["DataCopyL1ToUB"]

UINT16_MAX = 65535


def _bursts(arg: Any, size: int) -> Bursts:
    """Return the bursts of the count or the ``DataCopyParams`` form, checked."""
    if isinstance(arg, DataCopyParams):
        count = operands.in_range(arg.blockCount, "blockCount", 1, BURST_COUNT_MAX)
        length = operands.in_range(arg.blockLen, "blockLen", 1, UINT16_MAX)
        src_gap = operands.in_range(arg.srcStride, "srcStride", 0, UINT16_MAX)
        dst_gap = operands.in_range(arg.dstStride, "dstStride", 0, UINT16_MAX)
        return Bursts(count, length * C0_BYTES, src_gap * C0_BYTES, dst_gap * C0_BYTES)
    count = operands.in_range(arg, "count", 0, 2**32 - 1)
    blocks = count * size // C0_BYTES  # the page: rounded down to whole DataBlocks
    if blocks > UINT16_MAX:
        raise AscregError(
            f"count {count} is {blocks} DataBlocks; one copy moves at most {UINT16_MAX} "
            "(blockLen is a uint16_t): use the DataCopyParams form"
        )
    return Bursts(1, blocks * C0_BYTES)


@function_template(Signature(T=(TYPENAME, None), subBlockId=(INTEGER, 0)), name="DataCopyL1ToUB")
def DataCopyL1ToUB(
    dst: LocalTensor[Any],
    src: LocalTensor[Any],
    arg: Any,
    *,
    T: type[Scalar] | None = None,
    subBlockId: int = 0,
) -> None:
    """``DataCopyL1ToUB<T, subBlockId>(dst, src, count | DataCopyParams)``: L1 -> UB on MTE1.

    See the module docstring (:mod:`ascreg.basic._cube_ub`) for the forms and where the data
    lands in a mixed launch.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import DataCopyL1ToUB, LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     b1 = LocalTensor[float32_t](TPosition.B1, 0, 16); b1.GetPhyAddr().write(np.arange(16))
    ...     ub = LocalTensor[float32_t](TPosition.VECCALC, 64, 16); ctx.tracker.barrier()
    ...     DataCopyL1ToUB[float32_t](ub, b1, 12); ctx.tracker.barrier()  # 48 bytes: one block
    ...     ub.GetPhyAddr().read(8).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    """
    _ascreg_call = "DataCopyL1ToUB"
    d = _local(dst, "dst", ("VECIN", "VECOUT", "VECCALC"))
    s = _local(src, "src", ("A1", "B1"))
    if d.dtype is not s.dtype or (T is not None and T is not d.dtype):
        wanted = "" if T is None else f" (T is {T.cpp_name})"
        raise AscregTypeError(
            f"dst holds {d.dtype.cpp_name} and src {s.dtype.cpp_name}{wanted}: both hold T"
        )
    if d.dtype.size not in (1, 2, 4, 8):
        raise AscregTypeError(f"{d.dtype.cpp_name} is not a b8 / b16 / b32 / b64 type")
    if subBlockId not in (0, 1):
        raise AscregError(
            f"subBlockId must be 0 or 1 (the vector core of the pair), got {subBlockId}"
        )
    bursts = _bursts(arg, d.dtype.size)
    l1_to_ub(d, s, int(subBlockId), bursts, _ascreg_call, pairs_only=True)

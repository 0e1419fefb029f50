"""Memory barriers and data-cache control: ``DataSyncBarrier``, ``DataCacheCleanAndInvalid``.

ascreg has no data cache between the scalar unit and GM (a scalar GM access is visible at once)
and runs the scalar unit's own accesses in program order, so these order and change nothing:
they check their arguments, as the C API's ``asc_sync_data_barrier`` and ``asc_dcci_*`` do.
Ordering between pipes still needs ``SetFlag`` / ``WaitFlag`` or a barrier.
"""

from __future__ import annotations

import enum
from typing import Any

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg.basic._template import TYPENAME, Signature, function_template, member_of, need
from ascreg.basic._tensor import GlobalTensor, LocalTensor
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block


class MemDsbT(enum.Enum):
    """``AscendC::MemDsbT``: which memory ``DataSyncBarrier`` waits for (GM and UB, GM, UB, SEQ).

    Examples
    --------
    >>> MemDsbT.UB.value
    2
    """

    ALL = 0
    DDR = 1
    UB = 2
    SEQ = 3


class CacheLine(enum.Enum):
    """``AscendC::CacheLine``: one 64-byte line, or the whole data cache.

    Examples
    --------
    >>> CacheLine.ENTIRE_DATA_CACHE.value
    1
    """

    SINGLE_CACHE_LINE = 0
    ENTIRE_DATA_CACHE = 1


class DcciDst(enum.Enum):
    """``AscendC::DcciDst``: which memory the data cache is made consistent with.

    Examples
    --------
    >>> DcciDst.CACHELINE_OUT.value
    2
    """

    CACHELINE_ALL = 0
    CACHELINE_UB = 1
    CACHELINE_OUT = 2
    CACHELINE_ATOMIC = 3


@function_template(Signature(arg0=member_of(MemDsbT)), name="DataSyncBarrier")
def DataSyncBarrier(*, arg0: MemDsbT | None = None) -> None:
    """``AscendC::DataSyncBarrier<MemDsbT::X>()``: the scalar unit waits for its memory accesses.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     DataSyncBarrier[MemDsbT.UB]()
    """
    _ascreg_call = "DataSyncBarrier"
    need("arg0", arg0, "DataSyncBarrier[MemDsbT.X]()")
    current_block()


@function_template(
    Signature(
        T=TYPENAME,
        entireType=member_of(CacheLine),
        dcciDst=(member_of(DcciDst), DcciDst.CACHELINE_OUT),
    ),
    name="DataCacheCleanAndInvalid",
)
def DataCacheCleanAndInvalid(
    dst: GlobalTensor[Any] | LocalTensor[Any],
    *,
    T: type[Scalar] | None = None,
    entireType: CacheLine | None = None,
    dcciDst: DcciDst = DcciDst.CACHELINE_OUT,
) -> None:
    """``DataCacheCleanAndInvalid<T, CacheLine::X, DcciDst::Y>(dst)``: write back and drop lines.

    *dst* is a ``GlobalTensor<T>`` (``CACHELINE_OUT`` / ``ALL`` / ``ATOMIC``) or a
    ``LocalTensor<T>`` (``CACHELINE_UB``).

    Examples
    --------
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.basic import GlobalTensor
    >>> from ascreg.machine.block import BlockContext, block
    >>> g = GlobalTensor[float32_t](); g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 16))
    >>> with block(BlockContext()):
    ...     DataCacheCleanAndInvalid[float32_t, CacheLine.SINGLE_CACHE_LINE](g)
    """
    _ascreg_call = "DataCacheCleanAndInvalid"
    need("entireType", entireType, "DataCacheCleanAndInvalid[T, CacheLine.X](dst)")
    current_block()
    wanted = LocalTensor if dcciDst is DcciDst.CACHELINE_UB else GlobalTensor
    if not isinstance(dst, wanted):
        raise AscregTypeError(
            f"with DcciDst.{dcciDst.name} dst is a {wanted.__name__}, got {dst!r:.60}"
        )


AIV_ICACHE_BYTES = 16 * 1024
"""The instruction cache of a vector core (AIC: 32 KiB)."""
PRELOAD_UNIT = 2048
"""``ICachePreLoad``'s length unit on the 950: 2 KiB."""


def ICachePreLoad(preFetchLen: int) -> None:
    """``AscendC::ICachePreLoad(int64_t preFetchLen)``: preload instructions into the ICache.

    *preFetchLen* is in 2 KiB units and below the vector core's ICache size / 2 KiB (8). ascreg
    has no instruction cache, so a legal call changes nothing observable (timing aside).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     ICachePreLoad(2)
    ...     ICachePreLoad(8)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: ICachePreLoad: preFetchLen 8 is outside [0, 7]
    """
    _ascreg_call = "ICachePreLoad"
    current_block()
    operands.in_range(preFetchLen, "preFetchLen", 0, AIV_ICACHE_BYTES // PRELOAD_UNIT - 1)

"""The Ascend C basic API around a VF: tensors, buffers, queues, copies and flags.

``InitSocState``, ``GlobalTensor<T>`` (``SetGlobalBuffer``, ``operator[]``, ``GetValue`` /
``SetValue``), ``LocalTensor<T>``, ``LocalMemAllocator<Hardware::UB>``, ``TPipe`` with
``TQue`` / ``TQueBind`` / ``TBuf`` (``InitBuffer``, ``AllocTensor``, ``EnQue``, ``DeQue``,
``FreeTensor``, ``Get``), ``DataCopy`` and ``DataCopyPad`` (GM <-> UB), ``Duplicate`` on a
LocalTensor, ``SetFlag`` / ``WaitFlag<HardEvent>``, ``PipeBarrier<pipe>``, ``GetBlockIdx``,
``GetBlockNum``, ``GetVecLen``, ``CeilDivision`` and ``asc_vf_call``. Template arguments are
subscripts, as in :mod:`ascreg.reg`: ``GlobalTensor[float32_t]()``,
``TQue[TPosition.VECIN, 1]()``, ``que.AllocTensor[float32_t]()``.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.kernel import __global__, __vector__
>>> x = GlobalMemory().alloc(float32_t, 64); x.write(np.arange(64, dtype=np.float32))
>>> @__global__
... @__vector__
... def negate(x: GmPtr[float32_t]) -> None:
...     InitSocState()
...     xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x + GetBlockIdx() * 32, 32)
...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 32]()
...     DataCopy(xLocal, xGm, 32)
...     SetFlag[HardEvent.MTE2_S](EVENT_ID0); WaitFlag[HardEvent.MTE2_S](EVENT_ID0)
...     p = xLocal.GetPhyAddr(); p.write(-p.read(32))
...     SetFlag[HardEvent.S_MTE3](EVENT_ID0); WaitFlag[HardEvent.S_MTE3](EVENT_ID0)
...     DataCopy(xGm, xLocal, 32)
...     PipeBarrier[PIPE_ALL]()
>>> negate[2, 0, None](x)
>>> x.read(3).tolist(), x.read(64)[40].item()
([-0.0, -1.0, -2.0], -40.0)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, TypeVar

from ascreg._dtypes import Scalar, is_scalar_type
from ascreg.basic._copy import (
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    DataCopyParams,
    Duplicate,
)
from ascreg.basic._tensor import GlobalTensor, LocalTensor, TPosition
from ascreg.basic._tpipe import (
    MAX_ALLOCATED_PER_POSITION,
    MAX_BUFFERS,
    TBuf,
    TBufHandle,
    TPipe,
    TQue,
    TQueBind,
)
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.kernel import asc_vf_call, get_vec_len
from ascreg.machine.sync import (
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
    PIPE_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    Pipe,
)

T = TypeVar("T", bound=Scalar)

__all__ = [
    "EVENT_ID0",
    "EVENT_ID1",
    "EVENT_ID2",
    "EVENT_ID3",
    "EVENT_ID4",
    "EVENT_ID5",
    "EVENT_ID6",
    "EVENT_ID7",
    "MAX_ALLOCATED_PER_POSITION",
    "MAX_BUFFERS",
    "PIPE_ALL",
    "PIPE_MTE2",
    "PIPE_MTE3",
    "PIPE_S",
    "PIPE_V",
    "CeilDivision",
    "DataCopy",
    "DataCopyExtParams",
    "DataCopyPad",
    "DataCopyPadExtParams",
    "DataCopyParams",
    "Duplicate",
    "GetBlockIdx",
    "GetBlockNum",
    "GetVecLen",
    "GlobalTensor",
    "HardEvent",
    "Hardware",
    "InitSocState",
    "LocalMemAllocator",
    "LocalTensor",
    "PipeBarrier",
    "SetFlag",
    "TBuf",
    "TBufHandle",
    "TPipe",
    "TPosition",
    "TQue",
    "TQueBind",
    "WaitFlag",
    "asc_vf_call",
]


class HardEvent(enum.Enum):
    """``AscendC::HardEvent``: a (source pipe, destination pipe) pair for ``SetFlag``/``WaitFlag``.

    Examples
    --------
    >>> [pipe.name for pipe in HardEvent.MTE2_V.value]
    ['PIPE_MTE2', 'PIPE_V']
    """

    MTE2_V = (Pipe.PIPE_MTE2, Pipe.PIPE_V)
    V_MTE2 = (Pipe.PIPE_V, Pipe.PIPE_MTE2)
    V_MTE3 = (Pipe.PIPE_V, Pipe.PIPE_MTE3)
    MTE3_V = (Pipe.PIPE_MTE3, Pipe.PIPE_V)
    MTE2_MTE3 = (Pipe.PIPE_MTE2, Pipe.PIPE_MTE3)
    MTE3_MTE2 = (Pipe.PIPE_MTE3, Pipe.PIPE_MTE2)
    S_V = (Pipe.PIPE_S, Pipe.PIPE_V)
    V_S = (Pipe.PIPE_V, Pipe.PIPE_S)
    S_MTE2 = (Pipe.PIPE_S, Pipe.PIPE_MTE2)
    MTE2_S = (Pipe.PIPE_MTE2, Pipe.PIPE_S)
    S_MTE3 = (Pipe.PIPE_S, Pipe.PIPE_MTE3)
    MTE3_S = (Pipe.PIPE_MTE3, Pipe.PIPE_S)


class Hardware(enum.Enum):
    """``AscendC::Hardware``: the memory a ``LocalMemAllocator`` allocates from (UB only here).

    Examples
    --------
    >>> Hardware.UB.name
    'UB'
    """

    UB = "UB"


def InitSocState() -> None:
    """``AscendC::InitSocState()``: reset the core's modes (as ``asc_init``).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     InitSocState(); ctx.state["pad_value"]
    0
    """
    _ascreg_call = "InitSocState"
    current_block().state["pad_value"] = 0


def GetBlockIdx() -> int:
    """``AscendC::GetBlockIdx()``: the running block's index.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_idx=2, block_num=4)):
    ...     GetBlockIdx(), GetBlockNum()
    (2, 4)
    """
    _ascreg_call = "GetBlockIdx"
    return current_block().block_idx


def GetBlockNum() -> int:
    """``AscendC::GetBlockNum()``: the number of blocks of the launch; see :func:`GetBlockIdx`.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_num=8)):
    ...     GetBlockNum()
    8
    """
    _ascreg_call = "GetBlockNum"
    return current_block().block_num


def GetVecLen() -> int:
    """``AscendC::GetVecLen()``: bytes in a vector register (256).

    Examples
    --------
    >>> GetVecLen() // 4
    64
    """
    return get_vec_len()


def CeilDivision(num1: int, num2: int) -> int:
    """``AscendC::CeilDivision(num1, num2)``: *num1* / *num2* rounded up (0 when *num2* is 0).

    Examples
    --------
    >>> CeilDivision(200, 64), CeilDivision(128, 64), CeilDivision(5, 0)
    (4, 2, 0)
    >>> import numpy as np
    >>> CeilDivision(np.uint32(512), np.uint32(64))  # unsigned values (a kernel's uint32_t)
    8
    """
    a, b = int(num1), int(num2)
    return 0 if b == 0 else -(-a // b)


class _Alloc:
    """``Alloc<T, N>()`` / ``Alloc<T>(n)`` of a ``LocalMemAllocator``."""

    def __getitem__(self, params: Any) -> Callable[..., LocalTensor[Any]]:
        items = params if isinstance(params, tuple) else (params,)
        dtype, fixed = items[0], items[1] if len(items) > 1 else None

        def alloc(count: int | None = None) -> LocalTensor[Any]:
            n = fixed if fixed is not None else count
            _ascreg_call = f"LocalMemAllocator.Alloc<{getattr(dtype, 'cpp_name', dtype)}, {n}>"
            if not is_scalar_type(dtype) or not isinstance(n, int) or n <= 0:
                raise AscregTypeError("Alloc takes a scalar type and a positive element count")
            ptr = current_block().ub.alloc(dtype, n)
            return LocalTensor._view(ptr, n, TPosition.VECCALC)

        return alloc


class UbAllocator:
    """``LocalMemAllocator<Hardware::UB>``: allocate LocalTensors from this block's UB."""

    def __init__(self) -> None:
        self.Alloc = _Alloc()


class _LocalMemAllocator:
    """``AscendC::LocalMemAllocator<Hardware hw>``, written ``LocalMemAllocator[Hardware.UB]()``."""

    def __getitem__(self, hardware: Hardware) -> type[UbAllocator]:
        if hardware is not Hardware.UB:
            raise AscregTypeError(
                f"LocalMemAllocator supports Hardware.UB only, got {hardware!r}",
                call="LocalMemAllocator",
            )
        return UbAllocator

    def __repr__(self) -> str:
        return "LocalMemAllocator"


LocalMemAllocator = _LocalMemAllocator()
"""``AscendC::LocalMemAllocator<Hardware::UB>``: ``LocalMemAllocator[Hardware.UB]()``.

Its ``Alloc[T, N]()`` / ``Alloc[T](n)`` returns a :class:`LocalTensor` over fresh UB.

Examples
--------
>>> from ascreg import float32_t
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     ubAllocator = LocalMemAllocator[Hardware.UB]()
...     ubAllocator.Alloc[float32_t, 64]().GetSize(), ubAllocator.Alloc[float32_t](8).GetPhyAddr().address
(64, 256)
"""


class _FlagOp:
    """``SetFlag<HardEvent::X>(id)`` / ``WaitFlag<HardEvent::X>(id)`` as ``SetFlag[HardEvent.X](id)``."""

    def __init__(self, name: str, wait: bool) -> None:
        self.name = name
        self.wait = wait

    def __getitem__(self, event: HardEvent) -> Callable[[int], None]:
        if not isinstance(event, HardEvent):
            raise AscregTypeError(f"{self.name} takes a HardEvent, got {event!r}", call=self.name)
        src, dst = event.value

        def flag(event_id: int) -> None:
            _ascreg_call = f"{self.name}<HardEvent::{event.name}>"
            tracker = current_block().tracker
            (tracker.wait if self.wait else tracker.notify)(src, dst, event_id)

        return flag

    def __repr__(self) -> str:
        return self.name


SetFlag = _FlagOp("SetFlag", wait=False)
"""``AscendC::SetFlag<HardEvent::X>(id)``: ``SetFlag[HardEvent.X](EVENT_ID0)``.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     SetFlag[HardEvent.MTE2_V](EVENT_ID0); WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
"""
WaitFlag = _FlagOp("WaitFlag", wait=True)
"""``AscendC::WaitFlag<HardEvent::X>(id)``: waits for a matching :data:`SetFlag`.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     WaitFlag[HardEvent.V_MTE3](EVENT_ID1)
Traceback (most recent call last):
...
ascreg.errors.SyncError: WaitFlag<HardEvent::V_MTE3>: wait for flag (PIPE_V -> PIPE_MTE3, EVENT_ID1) that no earlier notify set: the kernel would hang on the chip
"""


class _PipeBarrier:
    """``PipeBarrier<pipe>()`` as ``PipeBarrier[PIPE_ALL]()`` (another pipe: in-pipe barrier)."""

    def __getitem__(self, pipe: Pipe) -> Callable[[], None]:
        def barrier() -> None:
            _ascreg_call = "PipeBarrier"
            ctx = current_block()
            if pipe is Pipe.PIPE_ALL:
                ctx.tracker.barrier()
            elif isinstance(pipe, Pipe) and pipe is not Pipe.PIPE_S:
                ctx.tracker.pipe_barrier(pipe)

        return barrier

    def __repr__(self) -> str:
        return "PipeBarrier"


PipeBarrier = _PipeBarrier()
"""``AscendC::PipeBarrier<pipe>()``: ``PipeBarrier[PIPE_ALL]()`` orders every pipe's work.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     PipeBarrier[PIPE_ALL]()
"""

# The kernel-source macros and the advanced API (one import group; see ascreg.basic._advanced).
from ascreg.basic import _advanced  # noqa: E402
from ascreg.basic._advanced import *  # noqa: E402, F403

__all__ += _advanced.__all__

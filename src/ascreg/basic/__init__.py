"""The Ascend C basic-API glue the Reg examples use around a VF.

``InitSocState``, ``GlobalTensor<T>::SetGlobalBuffer``, ``LocalMemAllocator<Hardware::UB>``,
``LocalTensor<T>::GetPhyAddr``, ``DataCopy`` (GM <-> UB), ``SetFlag`` / ``WaitFlag<HardEvent>``,
``PipeBarrier<pipe>``, ``GetBlockIdx``, ``GetBlockNum``, ``GetVecLen`` and ``asc_vf_call``.
Template arguments are subscripts, as in :mod:`ascreg.reg`.

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
from typing import Any, Generic, TypeVar

from ascreg._dtypes import Scalar, is_scalar_type
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.kernel import asc_vf_call, get_vec_len
from ascreg.machine.memory import GmPtr, Pointer, UbPtr
from ascreg.machine.mte import Burst, gm_to_ub, ub_to_gm
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
    "PIPE_ALL",
    "PIPE_MTE2",
    "PIPE_MTE3",
    "PIPE_S",
    "PIPE_V",
    "DataCopy",
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
    "WaitFlag",
    "asc_vf_call",
]


class HardEvent(enum.Enum):
    """``AscendC::HardEvent``: a (source pipe, destination pipe) pair for ``SetFlag``/``WaitFlag``."""

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
    """``AscendC::Hardware``: the memory a ``LocalMemAllocator`` allocates from (UB only here)."""

    UB = "UB"


def InitSocState() -> None:
    """``AscendC::InitSocState()``: reset the core's modes (as ``asc_init``)."""
    _ascreg_call = "InitSocState"
    current_block().state["pad_value"] = 0


def GetBlockIdx() -> int:
    """``AscendC::GetBlockIdx()``: the running block's index."""
    _ascreg_call = "GetBlockIdx"
    return current_block().block_idx


def GetBlockNum() -> int:
    """``AscendC::GetBlockNum()``: the number of blocks of the launch."""
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


class _Subscripted(Generic[T]):
    """Shared ``Class[T]`` specialisation with a per-dtype cache."""

    dtype: type[Scalar]
    _cache: dict[Any, type[Any]]

    def __class_getitem__(cls, dtype: Any) -> Any:
        if not is_scalar_type(dtype):
            return super().__class_getitem__(dtype)  # type: ignore[misc]
        found = cls.__dict__.get("_cache", {}).get(dtype)
        if found is None:
            found = type(f"{cls.__name__}[{dtype.cpp_name}]", (cls,), {"dtype": dtype})
            if "_cache" not in cls.__dict__:
                cls._cache = {}
            cls._cache[dtype] = found
        return found

    def _dtype(self) -> type[Scalar]:
        dtype: type[Scalar] | None = getattr(type(self), "dtype", None)
        if dtype is None:
            raise AscregTypeError(
                f"{type(self).__name__} needs its element type: {type(self).__name__}[float32_t]()"
            )
        return dtype


class GlobalTensor(_Subscripted[T]):
    """``AscendC::GlobalTensor<T>``: a view of GM set by ``SetGlobalBuffer``."""

    def __init__(self) -> None:
        self._dtype()
        self.ptr: GmPtr[T] | None = None
        self.size: int | None = None

    def SetGlobalBuffer(self, buffer: GmPtr[T], bufferSize: int | None = None) -> None:
        """Point the tensor at ``buffer`` (``bufferSize`` elements, optional)."""
        _ascreg_call = "GlobalTensor.SetGlobalBuffer"
        if not isinstance(buffer, GmPtr):
            raise AscregTypeError(f"SetGlobalBuffer takes a __gm__ pointer, got {buffer!r:.60}")
        if buffer.dtype is not self._dtype():
            raise AscregTypeError(
                f"the buffer is {buffer.dtype.cpp_name}* but the tensor is GlobalTensor<{self._dtype().cpp_name}>"
            )
        self.ptr, self.size = buffer, bufferSize

    def GetPhyAddr(self, offset: int = 0) -> GmPtr[T]:
        """Return the ``__gm__ T*`` of element *offset*."""
        _ascreg_call = "GlobalTensor.GetPhyAddr"
        if self.ptr is None:
            raise AscregError("the GlobalTensor has no buffer: call SetGlobalBuffer first")
        return self.ptr + offset

    def GetSize(self) -> int:
        """Return the element count given to ``SetGlobalBuffer`` (0 if none)."""
        return self.size or 0


class LocalTensor(_Subscripted[T]):
    """``AscendC::LocalTensor<T>``: a UB buffer; ``GetPhyAddr()`` is its ``__ubuf__ T*``."""

    def __init__(self, ptr: UbPtr[T], size: int) -> None:
        self.ptr = ptr
        self.size = size

    def GetPhyAddr(self, offset: int = 0) -> UbPtr[T]:
        """Return the ``__ubuf__ T*`` of element *offset*."""
        return self.ptr + offset

    def GetSize(self) -> int:
        """Return the element count."""
        return self.size


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
            return LocalTensor[dtype](ptr, n)  # type: ignore[valid-type]

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


def DataCopy(dst: Any, src: Any, count: int) -> None:
    """``DataCopy(dst, src, count)``: GM -> UB (MTE2) or UB -> GM (MTE3), *count* elements.

    ``count * sizeof(T)`` must be a multiple of 32 bytes.
    """
    _ascreg_call = "DataCopy"
    d, s = _address(dst, "dst"), _address(src, "src")
    nbytes = count * d.dtype.size
    if count <= 0 or nbytes % 32:
        raise AscregError(f"count {count} x {d.dtype.size} bytes is not a positive multiple of 32")
    burst = Burst(n_burst=1, len_burst=nbytes)
    if isinstance(d, UbPtr):
        gm_to_ub(d, s, burst, _ascreg_call)
    else:
        ub_to_gm(d, s, burst, _ascreg_call)


def _address(obj: Any, role: str) -> Pointer[Any]:
    if isinstance(obj, GlobalTensor | LocalTensor):
        return obj.GetPhyAddr()
    if isinstance(obj, Pointer):
        return obj
    raise AscregTypeError(f"{role} must be a GlobalTensor or LocalTensor, got {obj!r:.60}")


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
WaitFlag = _FlagOp("WaitFlag", wait=True)


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

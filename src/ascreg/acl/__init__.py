"""Host runtime: the AscendCL calls the examples make, shaped like Huawei's Python binding.

As in pyACL, C out-parameters become return values (``ptr, ret = acl.rt.malloc(size, policy)``)
and every call returns an ``aclError`` code (``ACL_SUCCESS`` = 0) instead of raising. Device
memory is one numpy-backed :class:`~ascreg.machine.memory.GlobalMemory` per device; host memory
is any CPU tensor: a numpy array, a torch tensor, anything with ``__dlpack__`` or the buffer
protocol, read and written in place (:func:`to_device` and :func:`from_device` copy a whole
tensor). Copies are bounds-checked against both allocations. Kernels run synchronously
at launch, so stream and device synchronisation only check their arguments.

Examples
--------
>>> import numpy as np
>>> from ascreg import acl
>>> acl.init(), acl.rt.set_device(0)
(0, 0)
>>> dev, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
>>> host = np.arange(16, dtype=np.uint32)
>>> acl.rt.memcpy(dev, 64, host, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE)
0
>>> back = np.zeros(16, np.uint32)
>>> acl.rt.memcpy(back, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST), back[15]
(0, np.uint32(15))
>>> acl.rt.free(dev), acl.rt.reset_device(0), acl.finalize()
(0, 0, 0)
"""

from __future__ import annotations

import functools
import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from ascreg._dtypes import uint8_t
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError
from ascreg.machine.memory import UB_BYTES as _UB_BYTES
from ascreg.machine.memory import GlobalMemory, GmPtr
from ascreg.machine.simt.engine import MAX_THREADS_PER_BLOCK as _MAX_THREADS
from ascreg.machine.simt.rendezvous import WARP_SIZE as _WARP_SIZE
from ascreg.machine.tensors import host_array, scalar_type_of

F = TypeVar("F", bound=Callable[..., Any])

# aclError codes. After a failed call, get_recent_err_msg() says what was wrong.
ACL_SUCCESS = 0
"""``aclError`` of a call that succeeded."""
ACL_ERROR_INVALID_PARAM = 100000
"""A bad argument: a size, malloc policy, memcpy kind or count, a copy past a buffer, a device
pointer that :func:`malloc` did not return (or that was freed), or a host buffer that is not a
numpy array."""
ACL_ERROR_UNINITIALIZE = 100001
"""A runtime call before :func:`init`."""
ACL_ERROR_REPEAT_INITIALIZE = 100002
"""A second :func:`init` without a :func:`finalize` in between."""
ACL_ERROR_REPEAT_FINALIZE = 100037
"""A :func:`finalize` without a live :func:`init`."""
ACL_ERROR_BAD_ALLOC = 200000
"""A :func:`malloc` of more bytes than the device has free."""
ACL_ERROR_INVALID_DEVICE = 200002
"""A device id other than 0, a device call before :func:`set_device`, or a
:func:`reset_device` of a device that is not set."""
ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005
"""A stream that is not live: destroyed, or not made by :func:`create_stream`."""
ACL_ERROR_STORAGE_OVER_LIMIT = 300000
"""Defined for pyACL compatibility; no ascreg call returns it (an allocation that does not fit
returns ``ACL_ERROR_BAD_ALLOC``)."""

# aclrtMemMallocPolicy: the emulated device has one kind of memory, so all three behave alike.
ACL_MEM_MALLOC_HUGE_FIRST = 0
"""``aclrtMalloc`` policy: huge pages first, normal pages if none are left (the default)."""
ACL_MEM_MALLOC_HUGE_ONLY = 1
"""``aclrtMalloc`` policy: huge pages only."""
ACL_MEM_MALLOC_NORMAL_ONLY = 2
"""``aclrtMalloc`` policy: normal pages only."""

# aclrtMemcpyKind: which sides of memcpy are device pointers and which host tensors.
ACL_MEMCPY_HOST_TO_HOST = 0
""":func:`memcpy` from a host array to a host array."""
ACL_MEMCPY_HOST_TO_DEVICE = 1
""":func:`memcpy` from a host array to a device pointer."""
ACL_MEMCPY_DEVICE_TO_HOST = 2
""":func:`memcpy` from a device pointer to a host array."""
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
""":func:`memcpy` from a device pointer to a device pointer."""

# aclrtLastErrLevel: the scope of get_last_error / peek_at_last_error.
ACL_RT_THREAD_LEVEL = 0
"""``aclrtGetLastError`` level: the last error of the calling thread (the only level)."""

# aclrtDevAttr (values of CANN's acl_rt.h): what get_device_info answers.
ACL_DEV_ATTR_AICPU_CORE_NUM = 1
"""``aclrtGetDeviceInfo`` attribute: AI CPU cores."""
ACL_DEV_ATTR_AICORE_CORE_NUM = 101
"""``aclrtGetDeviceInfo`` attribute: AI Cores (cube cores)."""
ACL_DEV_ATTR_CUBE_CORE_NUM = 102
"""``aclrtGetDeviceInfo`` attribute: cube cores."""
ACL_DEV_ATTR_VECTOR_CORE_NUM = 201
"""``aclrtGetDeviceInfo`` attribute: vector (AIV) cores, the usual block count of a kernel."""
ACL_DEV_ATTR_WARP_SIZE = 202
"""``aclrtGetDeviceInfo`` attribute: SIMT threads per warp."""
ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203
"""``aclrtGetDeviceInfo`` attribute: most SIMT threads one vector core runs."""
ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE = 204
"""``aclrtGetDeviceInfo`` attribute: Unified Buffer bytes per vector core."""
ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301
"""``aclrtGetDeviceInfo`` attribute: Global Memory bytes."""

# aclrtEventFlag values accepted by create_event_ex_with_flag.
ACL_EVENT_SYNC = 0x1
"""``aclrtCreateEventExWithFlag`` flag: the event synchronises streams."""
ACL_EVENT_TIME_LINE = 0x8
"""``aclrtCreateEventExWithFlag`` flag: the event records a time stamp."""

DEVICE_COUNT = 1
"""Devices the emulator offers (device 0)."""
DEVICE_BYTES = 1 << 32
"""Global Memory per emulated device."""
DEVICE_INFO: dict[int, int] = {
    ACL_DEV_ATTR_AICPU_CORE_NUM: 6,
    ACL_DEV_ATTR_AICORE_CORE_NUM: 32,
    ACL_DEV_ATTR_CUBE_CORE_NUM: 32,
    ACL_DEV_ATTR_VECTOR_CORE_NUM: 64,
    ACL_DEV_ATTR_WARP_SIZE: _WARP_SIZE,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE: _MAX_THREADS,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE: _UB_BYTES,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: DEVICE_BYTES,
}
"""What :func:`get_device_info` answers for the emulated device. The core counts are the
emulator's choice (a kernel may launch up to 65535 logical blocks whatever they say); the
others are the limits ascreg enforces."""


class Handle:
    """A runtime handle (stream, context, event) that records only whether it is live.

    Kernels run synchronously, so no handle has work queued on it.

    Examples
    --------
    >>> Stream(3), Context(1), Event(2)
    (<aclrtStream 3>, <aclrtContext 1>, <aclrtEvent 2>)
    """

    kind = "handle"

    def __init__(self, ident: int) -> None:
        self.ident = ident
        self.live = True

    def __repr__(self) -> str:
        return f"<{self.kind} {self.ident}{'' if self.live else ' (destroyed)'}>"


class Stream(Handle):
    """An ``aclrtStream`` handle.

    Examples
    --------
    >>> Stream(3)
    <aclrtStream 3>
    """

    kind = "aclrtStream"


class Context(Handle):
    """An ``aclrtContext`` handle (of device 0, the only device).

    Examples
    --------
    >>> Context(1)
    <aclrtContext 1>
    """

    kind = "aclrtContext"


class Event(Handle):
    """An ``aclrtEvent`` handle; ``recorded`` says whether :func:`record_event` has run.

    Examples
    --------
    >>> Event(1).recorded
    False
    """

    kind = "aclrtEvent"

    def __init__(self, ident: int) -> None:
        super().__init__(ident)
        self.recorded = False


H = TypeVar("H", bound=Handle)


class _Runtime:
    """The process-wide state: initialisation, the current device, its memory, streams."""

    def __init__(self) -> None:
        self.initialized = False
        self.device: int | None = None
        self.memories: dict[int, GlobalMemory] = {}
        self.handles = 0
        self.context: Context | None = None
        self.last_error = ""
        self.last_code = ACL_SUCCESS
        self.call = "acl"  # the C name of the acl call under way (messages start with it)

    def fail(self, code: int, message: str) -> int:
        self.last_error = message
        self.last_code = code
        return code

    def new_handle(self, kind: type[H]) -> H:
        self.handles += 1
        return kind(self.handles)


_rt = _Runtime()


def _count(value: Any) -> int | None:
    """Return *value* as an int when it is an integer (Python or numpy, not bool), else None."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def _never_raises(func: F) -> F:
    """Turn any exception escaping an acl call into ``ACL_ERROR_INVALID_PARAM``.

    pyACL never raises: a caller checks the returned code and :func:`get_recent_err_msg`.
    """
    found = re.search(r"``(acl\w+)", func.__doc__ or "")
    c_name = found.group(1) if found else func.__name__

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        outer, _rt.call = _rt.call, c_name
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            code = _rt.fail(
                ACL_ERROR_INVALID_PARAM, f"{func.__name__}: {type(exc).__name__}: {exc}"
            )
            returns = typing.get_type_hints(func).get("return")
            return (None, code) if typing.get_origin(returns) is tuple else code
        finally:
            _rt.call = outer

    return cast(F, call)


@_never_raises
def init(config_path: str | None = None) -> int:
    """``aclInit(configPath)``: returns ``ACL_ERROR_REPEAT_INITIALIZE`` when called twice.

    Examples
    --------
    >>> _ = finalize(); init(), init()
    (0, 100002)
    """
    if _rt.initialized:
        return _rt.fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit was already called")
    _rt.initialized = True
    return ACL_SUCCESS


@_never_raises
def finalize() -> int:
    """``aclFinalize()``.

    Examples
    --------
    >>> _ = init(); finalize(), finalize()
    (0, 100037)
    """
    if not _rt.initialized:
        return _rt.fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize without a live aclInit")
    _rt.initialized = False
    _rt.device = None
    return ACL_SUCCESS


@_never_raises
def get_recent_err_msg() -> str:
    """``aclGetRecentErrMsg()``: the message of the last failed call.

    Examples
    --------
    >>> _ = finalize(); _ = finalize(); get_recent_err_msg()
    'aclFinalize without a live aclInit'
    """
    return _rt.last_error


def _ready() -> int:
    if not _rt.initialized:
        return _rt.fail(ACL_ERROR_UNINITIALIZE, "call acl.init() first")
    return ACL_SUCCESS


def _memory() -> GlobalMemory | int:
    code = _ready()
    if code:
        return code
    if _rt.device is None:
        return _rt.fail(ACL_ERROR_INVALID_DEVICE, "call acl.rt.set_device(0) first")
    return _rt.memories.setdefault(_rt.device, GlobalMemory(DEVICE_BYTES))


@_never_raises
def set_device(device_id: int) -> int:
    """``aclrtSetDevice(deviceId)``: make *device_id* (only 0 exists) the current device.

    Examples
    --------
    >>> _ = finalize(); set_device(0)
    100001
    >>> _ = init(); set_device(0), set_device(1)
    (0, 200002)
    """
    code = _ready()
    if code:
        return code
    device = _count(device_id)
    if device is None or not 0 <= device < DEVICE_COUNT:
        return _rt.fail(
            ACL_ERROR_INVALID_DEVICE,
            f"aclrtSetDevice: deviceId {device_id!r} does not exist (devices: 0 to "
            f"{DEVICE_COUNT - 1})",
        )
    _rt.device = device
    return ACL_SUCCESS


@_never_raises
def reset_device(device_id: int) -> int:
    """``aclrtResetDevice(deviceId)``: releases the device's memory.

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> reset_device(0), reset_device(0)
    (0, 200002)
    """
    if _rt.device is None or _count(device_id) != _rt.device:
        return _rt.fail(
            ACL_ERROR_INVALID_DEVICE,
            f"aclrtResetDevice: deviceId {device_id!r} is not the current device "
            f"({_rt.device!r}; set it with acl.rt.set_device)",
        )
    _rt.memories.pop(_rt.device, None)
    _rt.device = None
    return ACL_SUCCESS


@_never_raises
def create_stream() -> tuple[Stream | None, int]:
    """``aclrtCreateStream(&stream)`` -> ``(stream, ret)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> stream, ret = create_stream(); ret, stream.live
    (0, True)
    """
    memory = _memory()
    if isinstance(memory, int):
        return None, memory
    return _rt.new_handle(Stream), ACL_SUCCESS


@_never_raises
def destroy_stream(stream: Any) -> int:
    """``aclrtDestroyStream(stream)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); stream, _ = create_stream()
    >>> destroy_stream(stream), destroy_stream(stream)
    (0, 200005)
    >>> get_recent_err_msg()
    'aclrtDestroyStream: stream <aclrtStream ... (destroyed)> is not a live aclrtStream ...'
    """
    code = _live(stream, Stream)
    if not code:
        stream.live = False
    return code


@_never_raises
def synchronize_stream(stream: Any) -> int:
    """``aclrtSynchronizeStream(stream)`` (kernels already ran at launch).

    ``None`` is the default stream.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); stream, _ = create_stream()
    >>> synchronize_stream(stream), synchronize_stream(None), synchronize_stream("s")
    (0, 0, 200005)
    """
    return _live(stream, Stream, none_ok=True) or _ready()


@_never_raises
def synchronize_device() -> int:
    """``aclrtSynchronizeDevice()`` (kernels already ran at launch).

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> synchronize_device()
    0
    >>> _ = reset_device(0); synchronize_device()
    200002
    """
    memory = _memory()
    return memory if isinstance(memory, int) else ACL_SUCCESS


@_never_raises
def malloc(size: int, policy: int = ACL_MEM_MALLOC_HUGE_FIRST) -> tuple[GmPtr[Any] | None, int]:
    """``aclrtMalloc(&ptr, size, policy)`` -> ``(ptr, ret)``: a ``__gm__ uint8_t*`` (void*).

    Cast it to the kernel's element type with ``ptr.cast(uint16_t)`` (C's ``reinterpret_cast``).

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> malloc(0, ACL_MEM_MALLOC_HUGE_FIRST)[1]
    100000
    """
    memory = _memory()
    if isinstance(memory, int):
        return None, memory
    nbytes, kind = _count(size), _count(policy)
    if nbytes is None or nbytes <= 0:
        return None, _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"aclrtMalloc: size {size!r:.40} must be a positive integer number of bytes",
        )
    if kind not in _POLICIES.values():
        return None, _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"aclrtMalloc: policy {policy!r:.40} is not an aclrtMemMallocPolicy "
            f"(allowed: {', '.join(f'{n} = {v}' for n, v in _POLICIES.items())})",
        )
    size = nbytes
    if size > memory.free_bytes:
        return None, _rt.fail(
            ACL_ERROR_BAD_ALLOC,
            f"aclrtMalloc: size {size} bytes does not fit the {memory.free_bytes} bytes of "
            "device memory left",
        )
    ptr = memory.alloc_bytes(uint8_t, size, label=f"aclrtMalloc({size})")
    return cast(GmPtr[Any], ptr), ACL_SUCCESS


@_never_raises
def free(ptr: Any) -> int:
    """``aclrtFree(ptr)``: release a pointer :func:`malloc` returned.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); ptr, _ = malloc(64)
    >>> free(ptr), free(ptr)
    (0, 100000)
    """
    memory = _memory()
    if isinstance(memory, int):
        return memory
    if not isinstance(ptr, GmPtr) or ptr.memory is not memory:
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"aclrtFree: devPtr {ptr!r:.60} was not returned by acl.rt.malloc",
        )
    try:
        memory.free(ptr)
    except OutOfBoundsError as exc:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, f"aclrtFree: devPtr was freed already: {exc}")
    return ACL_SUCCESS


@_never_raises
def malloc_host(size: int) -> tuple[np.ndarray[Any, Any] | None, int]:
    """``aclrtMallocHost(&ptr, size)`` -> ``(buffer, ret)``: a zeroed ``uint8`` numpy array.

    Examples
    --------
    >>> _ = init(); malloc_host(8)[0].nbytes
    8
    """
    code = _ready()
    if code:
        return None, code
    nbytes = _count(size)
    if nbytes is None or nbytes <= 0:
        return None, _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"aclrtMallocHost: size {size!r:.40} must be a positive integer number of bytes",
        )
    return np.zeros(nbytes, dtype=np.uint8), ACL_SUCCESS


@_never_raises
def free_host(ptr: Any) -> int:
    """``aclrtFreeHost(ptr)``: release a buffer of :func:`malloc_host` (numpy frees it).

    Examples
    --------
    >>> _ = init(); buf, _ = malloc_host(16)
    >>> free_host(buf), free_host("buf")
    (0, 100000)
    """
    if not isinstance(ptr, np.ndarray):
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"aclrtFreeHost: ptr {ptr!r:.60} is not a host buffer (a numpy array from malloc_host)",
        )
    return ACL_SUCCESS


_POLICIES = {
    "ACL_MEM_MALLOC_HUGE_FIRST": ACL_MEM_MALLOC_HUGE_FIRST,
    "ACL_MEM_MALLOC_HUGE_ONLY": ACL_MEM_MALLOC_HUGE_ONLY,
    "ACL_MEM_MALLOC_NORMAL_ONLY": ACL_MEM_MALLOC_NORMAL_ONLY,
}
_KIND_NAMES = {
    "ACL_MEMCPY_HOST_TO_HOST": ACL_MEMCPY_HOST_TO_HOST,
    "ACL_MEMCPY_HOST_TO_DEVICE": ACL_MEMCPY_HOST_TO_DEVICE,
    "ACL_MEMCPY_DEVICE_TO_HOST": ACL_MEMCPY_DEVICE_TO_HOST,
    "ACL_MEMCPY_DEVICE_TO_DEVICE": ACL_MEMCPY_DEVICE_TO_DEVICE,
}
_KINDS = {
    ACL_MEMCPY_HOST_TO_HOST: (False, False),
    ACL_MEMCPY_HOST_TO_DEVICE: (True, False),
    ACL_MEMCPY_DEVICE_TO_HOST: (False, True),
    ACL_MEMCPY_DEVICE_TO_DEVICE: (True, True),
}


def _side(obj: Any, device: bool, count: int, action: str) -> np.ndarray[Any, Any]:
    """Return a writable byte view of *count* bytes at *obj*, checking its kind and bounds.

    A host side is any contiguous CPU tensor (:func:`~ascreg.machine.tensors.host_array`:
    numpy, DLPack, the buffer protocol), used in place.
    """
    if device:
        if not isinstance(obj, GmPtr):
            raise AscregError(f"{obj!r:.60} is not a device pointer from acl.rt.malloc")
        return obj.bytes(count, action)
    if isinstance(obj, GmPtr):
        raise AscregError(
            f"{obj!r:.60} is a device pointer where the memcpy kind names a host buffer"
        )
    array = host_array(obj, writes=action == "writes", contiguous=True, call="")
    if count > array.nbytes:
        raise OutOfBoundsError(f"{count} bytes exceed the {array.nbytes}-byte host buffer")
    return array.reshape(-1).view(np.uint8)[:count]


@_never_raises
def memcpy(dst: Any, dest_max: int, src: Any, count: int, kind: int) -> int:
    """``aclrtMemcpy(dst, destMax, src, count, kind)``: copy *count* bytes.

    Host buffers are contiguous CPU tensors (numpy, torch, DLPack or buffer-protocol objects,
    a destination written in place), device buffers the pointers of :func:`malloc`. A copy past
    either buffer, ``count > dest_max`` or a side of the wrong kind returns
    ``ACL_ERROR_INVALID_PARAM`` (see :func:`get_recent_err_msg`).

    Examples
    --------
    >>> import numpy as np
    >>> _ = init(); _ = set_device(0); d, _ = malloc(32)
    >>> memcpy(d, 32, np.zeros(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE)
    100000
    """
    code = _ready()
    if code:
        return code
    problem = _memcpy_problem(dest_max, count, kind)
    if problem:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, f"aclrtMemcpy: {problem}")
    count = cast(int, _count(count))
    dst_device, src_device = _KINDS[cast(int, _count(kind))]
    try:
        source = _side(src, src_device, count, "reads").copy()
        _side(dst, dst_device, count, "writes")[:] = source
    except AscregError as exc:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, f"aclrtMemcpy: {exc}")
    return ACL_SUCCESS


def _raise_on(code: int, call: str) -> None:
    """Raise the failed pyACL call's message as an :class:`~ascreg.errors.AscregError`."""
    if code != ACL_SUCCESS:
        raise AscregError(f"{_rt.last_error} (aclError {code})", call=call)


def to_device(tensor: Any) -> GmPtr[Any]:
    """Copy a host tensor into new device memory and return a pointer of its element type.

    *tensor* is a numpy array, a torch CPU tensor or anything with ``__dlpack__`` or the
    buffer protocol; its element type becomes the pointer's (``torch.float16`` ->
    ``GmPtr[half]``). Unlike the pyACL calls it raises on failure (an
    :class:`~ascreg.errors.AscregError` naming what is wrong). Free the pointer with
    :func:`free` (or let :func:`reset_device` release it).

    Examples
    --------
    >>> import numpy as np
    >>> _ = init(); _ = set_device(0)
    >>> ptr = to_device(np.arange(6, dtype=np.float16).reshape(2, 3))
    >>> ptr.dtype.cpp_name, ptr.read(6).tolist()
    ('half', [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    """
    array = host_array(tensor, call="acl.to_device")
    dtype = scalar_type_of(array, call="acl.to_device")
    raw, code = malloc(max(array.nbytes, 1))
    _raise_on(code, "acl.to_device")
    ptr = cast(GmPtr[Any], raw).cast(dtype)
    ptr.view(array.size, "writes")[:] = array.reshape(-1)
    return ptr


def from_device(ptr: Any, like: Any = None, *, out: Any = None) -> Any:
    """Copy device memory at *ptr* back into a host tensor.

    ``from_device(ptr, like=t)`` returns a new tensor of ``t``'s library, shape and dtype
    (torch for a torch tensor, numpy otherwise); ``from_device(ptr, out=t)`` fills ``t`` in
    place and returns it (``t`` must be contiguous and writable, else a
    :class:`~ascreg.errors.HostTensorError`). *ptr* is a ``__gm__`` pointer of the tensor's
    element type, or the ``uint8_t`` pointer of :func:`malloc`.

    Examples
    --------
    >>> import numpy as np
    >>> _ = init(); _ = set_device(0)
    >>> ptr = to_device(np.float32([1.5, 2.5]))
    >>> from_device(ptr, like=np.zeros(2, np.float32))
    array([1.5, 2.5], dtype=float32)
    >>> from_device(ptr, like=np.zeros(2, np.int32))
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: acl.from_device: the tensor holds int32, the pointer float (pass a tensor of the pointer's element type, or cast the pointer with ptr.cast)
    """
    call = "acl.from_device"
    if not isinstance(ptr, GmPtr):
        raise AscregTypeError(
            f"{ptr!r:.60} is not a __gm__ pointer (from acl.rt.malloc)", call=call
        )
    if (like is None) == (out is None):
        raise AscregTypeError(
            "pass exactly one of like= (a new tensor) and out= (in place)", call=call
        )
    result = out if out is not None else _empty_like(like, call)
    target = host_array(result, writes=True, call=call)
    if ptr.dtype is not uint8_t and target.dtype != ptr.dtype.np_dtype:
        raise AscregTypeError(
            f"the tensor holds {target.dtype}, the pointer {ptr.dtype.cpp_name} (pass a tensor of "
            "the pointer's element type, or cast the pointer with ptr.cast)",
            call=call,
        )
    target.reshape(-1).view(np.uint8)[:] = ptr.bytes(target.nbytes, "reads")
    return result


def _empty_like(like: Any, call: str) -> Any:
    """Make a new contiguous tensor of *like*'s library (torch or numpy), shape and dtype."""
    if type(like).__module__.startswith("torch"):
        torch = sys.modules["torch"]
        return torch.empty_like(like, memory_format=torch.contiguous_format, device="cpu")
    return np.empty_like(host_array(like, call=call), order="C")


def _live(handle: Any, kind: type[Handle], none_ok: bool = False) -> int:
    """Return ACL_SUCCESS if *handle* is a live *kind* (or None where the default is allowed)."""
    if (handle is None and none_ok) or (isinstance(handle, kind) and handle.live):
        return ACL_SUCCESS
    role = kind.kind.removeprefix("aclrt").lower()
    default = f"; None is the default {role}" if none_ok else ""
    return _rt.fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        f"{_rt.call}: {role} {handle!r:.60} is not a live {kind.kind} (destroyed, or not made by "
        f"acl.rt.create_{role}){default}",
    )


@_never_raises
def memcpy_async(dst: Any, dest_max: int, src: Any, count: int, kind: int, stream: Any) -> int:
    """``aclrtMemcpyAsync(dst, destMax, src, count, kind, stream)``: as :func:`memcpy`.

    The copy is done when the call returns (ascreg has no asynchrony); *stream* must be live
    or ``None`` (the default stream).

    Examples
    --------
    >>> import numpy as np
    >>> _ = init(); _ = set_device(0); d, _ = malloc(8); s, _ = create_stream()
    >>> memcpy_async(d, 8, np.ones(8, np.uint8), 8, ACL_MEMCPY_HOST_TO_DEVICE, s)
    0
    >>> memcpy_async(d, 8, np.ones(8, np.uint8), 8, ACL_MEMCPY_HOST_TO_DEVICE, "s")
    200005
    """
    return _live(stream, Stream, none_ok=True) or memcpy(dst, dest_max, src, count, kind)


@_never_raises
def memset(dev_ptr: Any, max_count: int, value: int, count: int) -> int:
    """``aclrtMemset(devPtr, maxCount, value, count)``: set *count* bytes to ``value & 0xFF``.

    *dev_ptr* is a pointer from :func:`malloc` or a host numpy array (C's ``memset`` on host
    memory). ``count > max_count``, a count past the buffer or a value that is not an integer
    returns ``ACL_ERROR_INVALID_PARAM``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); d, _ = malloc(8)
    >>> memset(d, 8, 0xAB, 4), d.read(5).tolist()
    (0, [171, 171, 171, 171, 0])
    >>> memset(d, 8, 0, 16), get_recent_err_msg()
    (100000, 'memset count 16 exceeds maxCount 8')
    """
    code = _ready()
    if code:
        return code
    if not all(isinstance(v, int | np.integer) for v in (max_count, value, count)):
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"memset takes integers, got maxCount {max_count!r}, value {value!r}, count {count!r}",
        )
    if not 0 <= count <= max_count:
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM, f"memset count {count} exceeds maxCount {max_count}"
        )
    try:
        _side(dev_ptr, isinstance(dev_ptr, GmPtr), int(count), "writes")[:] = int(value) & 0xFF
    except AscregError as exc:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, str(exc))
    return ACL_SUCCESS


@_never_raises
def memset_async(dev_ptr: Any, max_count: int, value: int, count: int, stream: Any) -> int:
    """``aclrtMemsetAsync(devPtr, maxCount, value, count, stream)``: as :func:`memset`.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); d, _ = malloc(8)
    >>> memset_async(d, 8, 1, 8, None), int(d.read(8).sum())
    (0, 8)
    """
    return _live(stream, Stream, none_ok=True) or memset(dev_ptr, max_count, value, count)


@_never_raises
def get_last_error(level: int = ACL_RT_THREAD_LEVEL) -> int:
    """``aclrtGetLastError(level)``: the code of the last failed call, then reset to success.

    Kernels that go wrong raise a Python exception at launch instead of setting an error here.

    Examples
    --------
    >>> _ = finalize(); _ = finalize()
    >>> get_last_error(ACL_RT_THREAD_LEVEL), get_last_error(ACL_RT_THREAD_LEVEL)
    (100037, 0)
    >>> get_last_error(7), get_recent_err_msg()
    (100000, 'aclrtLastErrLevel 7 is not ACL_RT_THREAD_LEVEL (0)')
    """
    code = peek_at_last_error(level)
    _rt.last_code = ACL_SUCCESS
    return code


@_never_raises
def peek_at_last_error(level: int = ACL_RT_THREAD_LEVEL) -> int:
    """``aclrtPeekAtLastError(level)``: the code of the last failed call, kept.

    Examples
    --------
    >>> _ = finalize(); _ = finalize(); peek_at_last_error(), peek_at_last_error()
    (100037, 100037)
    """
    if level != ACL_RT_THREAD_LEVEL:
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM, f"aclrtLastErrLevel {level!r} is not ACL_RT_THREAD_LEVEL (0)"
        )
    return _rt.last_code


@_never_raises
def get_device_info(device_id: int, attr: int) -> tuple[int | None, int]:
    """``aclrtGetDeviceInfo(deviceId, attr, &value)`` -> ``(value, ret)``.

    Answers the attributes of ``DEVICE_INFO``; an unknown *attr* or device returns
    ``(None, ACL_ERROR_INVALID_PARAM)`` / ``(None, ACL_ERROR_INVALID_DEVICE)``.

    Examples
    --------
    >>> _ = init()
    >>> get_device_info(0, ACL_DEV_ATTR_VECTOR_CORE_NUM), get_device_info(0, 999)
    ((64, 0), (None, 100000))
    """
    code = _ready()
    if code:
        return None, code
    if not isinstance(device_id, int | np.integer) or not 0 <= device_id < DEVICE_COUNT:
        return None, _rt.fail(ACL_ERROR_INVALID_DEVICE, f"device {device_id!r} does not exist")
    if attr not in DEVICE_INFO:
        return None, _rt.fail(ACL_ERROR_INVALID_PARAM, f"aclrtDevAttr {attr!r} is not known")
    return DEVICE_INFO[attr], ACL_SUCCESS


@_never_raises
def create_context(device_id: int) -> tuple[Context | None, int]:
    """``aclrtCreateContext(&context, deviceId)`` -> ``(context, ret)``.

    Also makes *device_id* the current device and the context the current one, as CANN does.

    Examples
    --------
    >>> _ = init(); ctx, ret = create_context(0); ret, get_current_context()[0] is ctx
    (0, True)
    >>> create_context(3)
    (None, 200002)
    """
    code = set_device(device_id)
    if code:
        return None, code
    _rt.context = _rt.new_handle(Context)
    return _rt.context, ACL_SUCCESS


@_never_raises
def destroy_context(context: Any) -> int:
    """``aclrtDestroyContext(context)``.

    Examples
    --------
    >>> _ = init(); ctx, _ = create_context(0)
    >>> destroy_context(ctx), destroy_context(ctx)
    (0, 200005)
    """
    code = _live(context, Context)
    if code:
        return code
    context.live = False
    if _rt.context is context:
        _rt.context = None
    return ACL_SUCCESS


@_never_raises
def set_current_context(context: Any) -> int:
    """``aclrtSetCurrentContext(context)``.

    Examples
    --------
    >>> _ = init(); ctx, _ = create_context(0); set_current_context(ctx), set_current_context(1)
    (0, 200005)
    """
    code = _live(context, Context)
    if not code:
        _rt.context = context
    return code


@_never_raises
def get_current_context() -> tuple[Context | None, int]:
    """``aclrtGetCurrentContext(&context)`` -> ``(context, ret)``.

    Examples
    --------
    >>> _ = init(); ctx, _ = create_context(0); _ = destroy_context(ctx); get_current_context()
    (None, 200005)
    """
    if _rt.context is None:
        return None, _rt.fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "there is no current context")
    return _rt.context, ACL_SUCCESS


@_never_raises
def create_event() -> tuple[Event | None, int]:
    """``aclrtCreateEvent(&event)`` -> ``(event, ret)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); create_event()[1]
    0
    """
    memory = _memory()
    if isinstance(memory, int):
        return None, memory
    return _rt.new_handle(Event), ACL_SUCCESS


@_never_raises
def create_event_ex_with_flag(flag: int) -> tuple[Event | None, int]:
    """``aclrtCreateEventExWithFlag(&event, flag)`` -> ``(event, ret)``.

    *flag* is ``ACL_EVENT_SYNC``, ``ACL_EVENT_TIME_LINE`` or both or-ed.

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> create_event_ex_with_flag(ACL_EVENT_SYNC)[1], create_event_ex_with_flag(2)
    (0, (None, 100000))
    """
    valid = ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE
    if not isinstance(flag, int) or not flag or flag & ~valid:
        return None, _rt.fail(ACL_ERROR_INVALID_PARAM, f"bad aclrtEventFlag {flag!r}")
    return create_event()


@_never_raises
def record_event(event: Any, stream: Any) -> int:
    """``aclrtRecordEvent(event, stream)``: the event completes at once (no asynchrony).

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event()
    >>> record_event(e, None), e.recorded, record_event(e, "s")
    (0, True, 200005)
    """
    code = _live(event, Event) or _live(stream, Stream, none_ok=True)
    if not code:
        event.recorded = True
    return code


@_never_raises
def stream_wait_event(stream: Any, event: Any) -> int:
    """``aclrtStreamWaitEvent(stream, event)``: order *stream* after *event* (already complete).

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event(); s, _ = create_stream()
    >>> stream_wait_event(s, e), stream_wait_event(s, None)
    (0, 200005)
    """
    return _live(stream, Stream, none_ok=True) or _live(event, Event)


@_never_raises
def synchronize_event(event: Any) -> int:
    """``aclrtSynchronizeEvent(event)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event(); synchronize_event(e)
    0
    """
    return _live(event, Event)


@_never_raises
def destroy_event(event: Any) -> int:
    """``aclrtDestroyEvent(event)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event()
    >>> destroy_event(e), destroy_event(e)
    (0, 200005)
    """
    code = _live(event, Event)
    if not code:
        event.live = False
    return code


def _memcpy_problem(dest_max: Any, count: Any, kind: Any) -> str:
    """Describe what is wrong with memcpy's sizes and kind ('' when nothing is)."""
    nbytes, limit, which = _count(count), _count(dest_max), _count(kind)
    if which not in _KINDS:
        return (
            f"kind {kind!r:.40} is not an aclrtMemcpyKind (allowed: "
            + ", ".join(f"{n} = {v}" for n, v in _KIND_NAMES.items())
            + ")"
        )
    if nbytes is None or nbytes < 0:
        return f"count {count!r:.40} must be a non-negative integer number of bytes"
    if limit is None or limit < 0:
        return f"destMax {dest_max!r:.40} must be a non-negative integer number of bytes"
    if nbytes > limit:
        return f"count {nbytes} exceeds destMax {limit} (count must be <= destMax)"
    return ""


rt = types.SimpleNamespace(
    set_device=set_device,
    reset_device=reset_device,
    create_stream=create_stream,
    destroy_stream=destroy_stream,
    synchronize_stream=synchronize_stream,
    synchronize_device=synchronize_device,
    malloc=malloc,
    free=free,
    malloc_host=malloc_host,
    free_host=free_host,
    memcpy=memcpy,
    memcpy_async=memcpy_async,
    memset=memset,
    memset_async=memset_async,
    get_last_error=get_last_error,
    peek_at_last_error=peek_at_last_error,
    get_device_info=get_device_info,
    create_context=create_context,
    destroy_context=destroy_context,
    set_current_context=set_current_context,
    get_current_context=get_current_context,
    create_event=create_event,
    create_event_ex_with_flag=create_event_ex_with_flag,
    record_event=record_event,
    stream_wait_event=stream_wait_event,
    synchronize_event=synchronize_event,
    destroy_event=destroy_event,
)
"""``acl.rt``: the runtime calls, under pyACL's names."""

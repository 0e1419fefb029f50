"""Host runtime: the AscendCL calls the examples make, shaped like Huawei's Python binding.

As in pyACL, C out-parameters become return values (``ptr, ret = acl.rt.malloc(size, policy)``)
and every call returns an ``aclError`` code (``ACL_SUCCESS`` = 0) instead of raising. Device
memory is one numpy-backed :class:`~ascreg.machine.memory.GlobalMemory` per device; host memory
is numpy arrays. Copies are bounds-checked against both allocations. Kernels run synchronously
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

import types
from typing import Any, TypeVar, cast

import numpy as np

from ascreg._dtypes import uint8_t
from ascreg.errors import AscregError, OutOfBoundsError
from ascreg.machine.memory import UB_BYTES as _UB_BYTES
from ascreg.machine.memory import GlobalMemory, GmPtr
from ascreg.machine.simt.engine import MAX_THREADS_PER_BLOCK as _MAX_THREADS
from ascreg.machine.simt.rendezvous import WARP_SIZE as _WARP_SIZE

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

# aclrtMemcpyKind: which sides of memcpy are device pointers and which host numpy arrays.
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

    def fail(self, code: int, message: str) -> int:
        self.last_error = message
        self.last_code = code
        return code

    def new_handle(self, kind: type[H]) -> H:
        self.handles += 1
        return kind(self.handles)


_rt = _Runtime()


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
    if not isinstance(device_id, int) or not 0 <= device_id < DEVICE_COUNT:
        return _rt.fail(ACL_ERROR_INVALID_DEVICE, f"device {device_id!r} does not exist")
    _rt.device = device_id
    return ACL_SUCCESS


def reset_device(device_id: int) -> int:
    """``aclrtResetDevice(deviceId)``: releases the device's memory.

    Examples
    --------
    >>> _ = init(); _ = set_device(0)
    >>> reset_device(0), reset_device(0)
    (0, 200002)
    """
    if _rt.device != device_id:
        return _rt.fail(ACL_ERROR_INVALID_DEVICE, f"device {device_id!r} is not set")
    _rt.memories.pop(device_id, None)
    _rt.device = None
    return ACL_SUCCESS


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


def destroy_stream(stream: Any) -> int:
    """``aclrtDestroyStream(stream)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); stream, _ = create_stream()
    >>> destroy_stream(stream), destroy_stream(stream)
    (0, 200005)
    >>> get_recent_err_msg()
    '<aclrtStream ... (destroyed)> is not a live aclrtStream'
    """
    code = _live(stream, Stream)
    if not code:
        stream.live = False
    return code


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
    if not isinstance(size, int) or size <= 0 or policy not in (0, 1, 2):
        return None, _rt.fail(ACL_ERROR_INVALID_PARAM, f"bad size {size!r} or policy {policy!r}")
    if size > memory.free_bytes:
        return None, _rt.fail(ACL_ERROR_BAD_ALLOC, f"{size} bytes do not fit device memory")
    ptr = memory.alloc_bytes(uint8_t, size, label=f"aclrtMalloc({size})")
    return cast(GmPtr[Any], ptr), ACL_SUCCESS


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
        return _rt.fail(ACL_ERROR_INVALID_PARAM, f"{ptr!r} was not returned by acl.rt.malloc")
    try:
        memory.free(ptr)
    except OutOfBoundsError as exc:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, str(exc))
    return ACL_SUCCESS


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
    if not isinstance(size, int) or size <= 0:
        return None, _rt.fail(ACL_ERROR_INVALID_PARAM, f"bad host size {size!r}")
    return np.zeros(size, dtype=np.uint8), ACL_SUCCESS


def free_host(ptr: Any) -> int:
    """``aclrtFreeHost(ptr)``: release a buffer of :func:`malloc_host` (numpy frees it).

    Examples
    --------
    >>> _ = init(); buf, _ = malloc_host(16)
    >>> free_host(buf), free_host("buf")
    (0, 100000)
    """
    if not isinstance(ptr, np.ndarray):
        return _rt.fail(ACL_ERROR_INVALID_PARAM, f"{ptr!r} was not returned by malloc_host")
    return ACL_SUCCESS


_KINDS = {
    ACL_MEMCPY_HOST_TO_HOST: (False, False),
    ACL_MEMCPY_HOST_TO_DEVICE: (True, False),
    ACL_MEMCPY_DEVICE_TO_HOST: (False, True),
    ACL_MEMCPY_DEVICE_TO_DEVICE: (True, True),
}


def _side(obj: Any, device: bool, count: int, action: str) -> np.ndarray[Any, Any]:
    """Return a writable byte view of *count* bytes at *obj*, checking its kind and bounds."""
    if device:
        if not isinstance(obj, GmPtr):
            raise AscregError(f"{obj!r:.60} is not a device pointer from acl.rt.malloc")
        return obj.bytes(count, action)
    if not isinstance(obj, np.ndarray) or not obj.flags.c_contiguous:
        raise AscregError(f"{type(obj).__name__} is not a contiguous host numpy array")
    if count > obj.nbytes:
        raise OutOfBoundsError(f"{count} bytes exceed the {obj.nbytes}-byte host buffer")
    return obj.reshape(-1).view(np.uint8)[:count]


def memcpy(dst: Any, dest_max: int, src: Any, count: int, kind: int) -> int:
    """``aclrtMemcpy(dst, destMax, src, count, kind)``: copy *count* bytes.

    Host buffers are numpy arrays, device buffers the pointers of :func:`malloc`. A copy past
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
    if kind not in _KINDS or not isinstance(count, int) or count < 0 or count > dest_max:
        return _rt.fail(
            ACL_ERROR_INVALID_PARAM,
            f"bad memcpy kind {kind!r} or count {count!r} (dest_max {dest_max!r})",
        )
    dst_device, src_device = _KINDS[kind]
    try:
        source = _side(src, src_device, count, "reads").copy()
        _side(dst, dst_device, count, "writes")[:] = source
    except AscregError as exc:
        return _rt.fail(ACL_ERROR_INVALID_PARAM, str(exc))
    return ACL_SUCCESS


def _live(handle: Any, kind: type[Handle], none_ok: bool = False) -> int:
    """Return ACL_SUCCESS if *handle* is a live *kind* (or None where the default is allowed)."""
    if (handle is None and none_ok) or (isinstance(handle, kind) and handle.live):
        return ACL_SUCCESS
    return _rt.fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, f"{handle!r} is not a live {kind.kind}")


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


def memset_async(dev_ptr: Any, max_count: int, value: int, count: int, stream: Any) -> int:
    """``aclrtMemsetAsync(devPtr, maxCount, value, count, stream)``: as :func:`memset`.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); d, _ = malloc(8)
    >>> memset_async(d, 8, 1, 8, None), int(d.read(8).sum())
    (0, 8)
    """
    return _live(stream, Stream, none_ok=True) or memset(dev_ptr, max_count, value, count)


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


def stream_wait_event(stream: Any, event: Any) -> int:
    """``aclrtStreamWaitEvent(stream, event)``: order *stream* after *event* (already complete).

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event(); s, _ = create_stream()
    >>> stream_wait_event(s, e), stream_wait_event(s, None)
    (0, 200005)
    """
    return _live(stream, Stream, none_ok=True) or _live(event, Event)


def synchronize_event(event: Any) -> int:
    """``aclrtSynchronizeEvent(event)``.

    Examples
    --------
    >>> _ = init(); _ = set_device(0); e, _ = create_event(); synchronize_event(e)
    0
    """
    return _live(event, Event)


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

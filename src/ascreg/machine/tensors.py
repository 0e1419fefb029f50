"""Host tensors of other libraries as numpy arrays, without a copy where the layout allows.

Every host-side entry point (``acl.rt.memcpy`` both ways, :meth:`~ascreg.machine.memory.Pointer.write` and
:meth:`~ascreg.machine.memory.Pointer.read`, ``acl.to_device`` / ``acl.from_device``) goes through
:func:`host_array`: a numpy array is used as it is, an object with ``__dlpack__`` (torch, JAX,
CuPy host arrays, numpy itself) is viewed through DLPack, anything with the buffer protocol
(``bytearray``, ``array.array``, ``memoryview``) through a memoryview. A destination is written
in place, so it must be a contiguous, writable CPU tensor; anything else is a
:class:`~ascreg.errors.HostTensorError` (or an :class:`~ascreg.errors.AddressSpaceError` for a
tensor on an accelerator), never a silent copy that leaves the caller's tensor unchanged.

Examples
--------
>>> import array
>>> host_array(array.array("H", [1, 2, 3]), call="demo").dtype
dtype('uint16')
>>> host_array(b"abc", writes=True, call="demo")
Traceback (most recent call last):
...
ascreg.errors.HostTensorError: demo: the destination bytes is read-only: pass a writable tensor (a bytes object or a read-only numpy array cannot be written in place)
"""

from __future__ import annotations

import sys
from typing import Any

import ml_dtypes
import numpy as np

from ascreg._dtypes import ALL_SCALARS, Kind, Scalar
from ascreg.errors import AddressSpaceError, AscregTypeError, HostTensorError

__all__ = ["host_array", "is_host_tensor", "scalar_type_of"]

DL_CPU = 1
"""DLPack ``kDLCPU``: the only device whose memory a host copy can read or write."""
DL_DEVICES = {2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI",
              10: "ROCm", 11: "ROCm host", 13: "CUDA managed", 14: "oneAPI", 17: "MAIA"}  # fmt: skip
"""Names of the other DLPack device types, for the error message."""

# torch dtypes numpy cannot take through DLPack: viewed as a same-width integer, then
# reinterpreted as ml_dtypes' type of the same bits.
_TORCH_VIA_BITS = {
    "torch.bfloat16": ("int16", ml_dtypes.bfloat16),
    "torch.float8_e4m3fn": ("int8", ml_dtypes.float8_e4m3fn),
    "torch.float8_e5m2": ("int8", ml_dtypes.float8_e5m2),
    "torch.float8_e8m0fnu": ("uint8", ml_dtypes.float8_e8m0fnu),
}

_BY_DTYPE: dict[np.dtype[Any], type[Scalar]] = {
    s.np_dtype: s for s in ALL_SCALARS if s.kind is not Kind.RAW
}


def is_host_tensor(obj: Any) -> bool:
    """Whether *obj* is an array-like of another library (DLPack or the buffer protocol).

    Examples
    --------
    >>> import numpy as np
    >>> is_host_tensor(np.zeros(2)), is_host_tensor(bytearray(2)), is_host_tensor(3)
    (True, True, False)
    """
    if hasattr(obj, "__dlpack__") or isinstance(obj, np.ndarray):
        return True
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def scalar_type_of(array: np.ndarray[Any, Any], *, call: str) -> type[Scalar]:
    """Return the ascreg scalar type of *array*'s elements (``float32`` -> ``float32_t``).

    Examples
    --------
    >>> import numpy as np
    >>> scalar_type_of(np.zeros(2, np.float16), call="demo").cpp_name
    'half'
    >>> scalar_type_of(np.zeros(2, np.complex64), call="demo")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: demo: a tensor of complex64 has no ascreg element type (the device types: bool, int8 to uint64, half, bfloat16, float32 and the fp8 types)
    """
    found = _BY_DTYPE.get(array.dtype)
    if found is None:
        raise AscregTypeError(
            f"a tensor of {array.dtype} has no ascreg element type (the device types: bool, int8 "
            "to uint64, half, bfloat16, float32 and the fp8 types)",
            call=call,
        )
    return found


def host_array(
    obj: Any, *, writes: bool = False, contiguous: bool = False, call: str
) -> np.ndarray[Any, Any]:
    """View the host tensor *obj* as a numpy array sharing its memory where possible.

    *writes*: the caller writes into the result, which must then be *obj*'s own memory
    (contiguous, writable, on the CPU). *contiguous*: a byte-level access (``memcpy``) that
    needs C order. Other array-likes (lists, objects with only ``__array__``) are converted
    by :func:`numpy.asarray` when only read. *call* names the user's call in an error.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.zeros(4, np.int32); host_array(a, writes=True, call="demo") is a
    True
    >>> host_array(a[::2], writes=True, call="demo")
    Traceback (most recent call last):
    ...
    ascreg.errors.HostTensorError: demo: the destination ndarray is not contiguous (strides (8,) for shape (2,)): write into a contiguous tensor (torch: .contiguous(), numpy: np.ascontiguousarray) and copy it back
    """
    role = "destination" if writes else "source"
    if isinstance(obj, np.ndarray):
        array = obj
    elif hasattr(obj, "__dlpack__"):
        array = _from_dlpack(obj, role, call)
    else:
        try:
            array = np.asarray(memoryview(obj))
        except TypeError:
            if writes:
                raise HostTensorError(
                    f"cannot write into {type(obj).__name__} {obj!r:.40} in place: pass a numpy "
                    "array, a tensor with __dlpack__ (torch, JAX, CuPy host) or a writable buffer",
                    call=call,
                ) from None
            array = np.asarray(obj)
    if (writes or contiguous) and not array.flags.c_contiguous:
        raise HostTensorError(
            f"the {role} {type(obj).__name__} is not contiguous (strides {array.strides} for "
            f"shape {array.shape}): {'write into' if writes else 'pass'} a contiguous tensor "
            f"(torch: .contiguous(), numpy: np.ascontiguousarray){' and copy it back' if writes else ''}",
            call=call,
        )
    if writes and not array.flags.writeable:
        raise HostTensorError(
            f"the destination {type(obj).__name__} is read-only: pass a writable tensor (a bytes "
            "object or a read-only numpy array cannot be written in place)",
            call=call,
        )
    return array


def _from_dlpack(obj: Any, role: str, call: str) -> np.ndarray[Any, Any]:
    """``numpy.from_dlpack`` with ascreg errors, and torch's bfloat16/fp8 through their bits."""
    device = _dlpack_device(obj)
    if device != DL_CPU:
        raise AddressSpaceError(
            f"the {role} {type(obj).__name__} lives on a {DL_DEVICES.get(device, device)} "
            "device, not in host memory: move it to the CPU first (torch: .cpu())",
            call=call,
        )
    bits = _TORCH_VIA_BITS.get(str(getattr(obj, "dtype", "")))
    if bits is not None and type(obj).__module__.startswith("torch"):
        torch = sys.modules["torch"]
        return _from_dlpack(obj.view(getattr(torch, bits[0])), role, call).view(bits[1])
    try:
        return np.from_dlpack(obj)
    except (BufferError, TypeError, RuntimeError, ValueError) as exc:
        hint = " (torch: call .detach() first)" if "grad" in str(exc) else ""
        raise HostTensorError(
            f"the {role} {type(obj).__name__} cannot be viewed through DLPack: {exc}{hint}",
            call=call,
        ) from None


def _dlpack_device(obj: Any) -> int:
    get = getattr(obj, "__dlpack_device__", None)
    if get is None:
        return DL_CPU
    return int(get()[0])

"""The constants ``namespace AscendC`` gives kernels, and the ops repositories' ``platform``.

The constants and ``GetVRegSize()`` / ``GetUbBlockSize()`` live in
:mod:`ascreg.machine.constants` (``ascreg`` exports them too); this module adds ``platform``,
the operator repositories' ``namespace platform``.

Examples
--------
>>> VECTOR_REG_WIDTH // B32_BYTE_SIZE, platform.GetVRegSize(), platform.GetUbBlockSize()
(64, 256, 32)
"""

from __future__ import annotations

from typing import Final

from ascreg._dtypes import Scalar, bfloat16_t, float32_t, half, int8_t, int16_t, int32_t
from ascreg.basic._template import TYPENAME, Signature, function_template, need
from ascreg.machine import constants
from ascreg.machine.constants import *  # noqa: F403 (re-exported: the list is constants.__all__)
from ascreg.machine.constants import GetUbBlockSize, GetVRegSize

__all__ = constants.__all__
"""The names a kernel reads after ``using namespace AscendC;`` (``platform`` is imported by name)."""

ATOMIC_ADD_TYPES: Final = (float32_t, half, int16_t, int32_t, int8_t, bfloat16_t)
"""The element types ``platform::IsSupportAtomicAddTypeSIMD<T>()`` accepts on dav-3510.

Examples
--------
>>> [t.cpp_name for t in ATOMIC_ADD_TYPES][:2]
['float', 'half']
"""


@function_template(Signature(T=TYPENAME), name="IsSupportAtomicAddTypeSIMD")
def IsSupportAtomicAddTypeSIMD(*, T: type[Scalar] | None = None) -> bool:
    """``platform::IsSupportAtomicAddTypeSIMD<T>()``: whether a SIMD atomic add takes ``T``.

    Examples
    --------
    >>> from ascreg import float32_t, uint8_t
    >>> IsSupportAtomicAddTypeSIMD[float32_t](), IsSupportAtomicAddTypeSIMD[uint8_t]()
    (True, False)
    """
    return need("T", T, "IsSupportAtomicAddTypeSIMD[T]()") in ATOMIC_ADD_TYPES


class _Platform:
    """The operator repositories' ``namespace platform``: ``platform.GetVRegSize()``."""

    GetVRegSize = staticmethod(GetVRegSize)
    GetUbBlockSize = staticmethod(GetUbBlockSize)
    IsSupportAtomicAddTypeSIMD = IsSupportAtomicAddTypeSIMD

    def __repr__(self) -> str:
        return "platform"


platform = _Platform()
"""The ops-nn / ops-math ``namespace platform``: ``platform.GetVRegSize()``,
``platform.GetUbBlockSize()``, ``platform.IsSupportAtomicAddTypeSIMD[T]()``.

Import it by name (``from ascreg.basic import platform``): a star import leaves it out, so it
cannot shadow the standard library's ``platform`` module.

Examples
--------
>>> platform.GetVRegSize(), platform.GetUbBlockSize()
(256, 32)
"""

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
from ascreg.machine.constants import *  # noqa: F403 (re-exported: the list is constants.__all__)
from ascreg.machine.constants import GetUbBlockSize, GetVRegSize

__all__ = [  # generated from ascreg.machine.constants.__all__ by tools/gen_stubs.py
    "AIV_CORE_NUM",
    "B8_BYTE_SIZE",
    "B16_BYTE_SIZE",
    "B16_DATA_NUM_PER_BLOCK",
    "B16_DATA_NUM_PER_REPEAT",
    "B32_BYTE_SIZE",
    "B32_DATA_NUM_PER_BLOCK",
    "B32_DATA_NUM_PER_REPEAT",
    "B64_BYTE_SIZE",
    "B64_DATA_NUM_PER_REPEAT",
    "BLOCK_CUBE",
    "BYTE_PER_FRACTAL",
    "CACHE_LINE_SIZE",
    "CUBE_MAX_SIZE",
    "DEFAULT_BLK_NUM",
    "DEFAULT_BLK_STRIDE",
    "DEFAULT_C0_SIZE",
    "DEFAULT_REPEAT_STRIDE",
    "DOUBLE_FACTOR",
    "F32_INF",
    "F32_NAN",
    "F32_NEG_INF",
    "FLOAT_REPEAT_SIZE",
    "FULL_MASK",
    "FULL_MASK_LEN",
    "HALF_DEFAULT_REPEAT_STRIDE",
    "HALF_FACTOR",
    "HALF_MASK_LEN",
    "HALF_REPEAT_SIZE",
    "MASK_PLACEHOLDER",
    "MAX_REPEAT_FLOAT_SIZE",
    "MAX_REPEAT_HALF_SIZE",
    "MAX_REPEAT_TIMES",
    "ONE_BLK_FLOAT_NUM",
    "ONE_BLK_HALF_NUM",
    "ONE_BLK_SIZE",
    "ONE_BLOCK_SIZE",
    "ONE_BYTE_BIT_SIZE",
    "ONE_REPEAT_BYTE_SIZE",
    "ONE_REPEAT_FLOAT_SIZE",
    "ONE_REPEAT_HALF_SIZE",
    "PAD_SIZE",
    "RESERVED_WORKSPACE",
    "TMP_UB_OFFSET",
    "TMP_UB_SIZE",
    "TOTAL_L0A_SIZE",
    "TOTAL_L0B_SIZE",
    "TOTAL_L0C_SIZE",
    "TOTAL_L1_SIZE",
    "TOTAL_UB_SIZE",
    "TOTAL_VEC_LOCAL_SIZE",
    "VECTOR_REG_WIDTH",
    "VECTOR_REG_WIDTH_2XVL",
    "GetUbBlockSize",
    "GetVRegSize",
]
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

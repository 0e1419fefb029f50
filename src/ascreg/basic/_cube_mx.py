"""The MX (block-scaled) cube forms of the basic API: ``MmadMx`` and the MX ``LoadData``.

Both run the shared MX instructions of :mod:`ascreg._frontend.cube_mx` (its docstring says
what the pages fix about the scale layout). ``LoadData(dst, src, srcMx, LoadData2DParamsV2,
LoadData2DMxParams)`` moves the matrix as the 2D V2 load does and its ``fp8_e8m0_t`` scales to
the L0A_MX / L0B_MX buffer at ``dst``'s address / 16; ``MmadMx`` multiplies the scaled
matrices.

Examples
--------
>>> import numpy as np
>>> from ascreg import fp8_e4m3fn_t, fp8_e8m0_t, float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     a1 = LocalTensor[fp8_e4m3fn_t](TPosition.A1, 0, 1024)
...     s1 = LocalTensor[fp8_e8m0_t](TPosition.A1, 1024, 32)
...     b1 = LocalTensor[fp8_e4m3fn_t](TPosition.B1, 2048, 1024)
...     t1 = LocalTensor[fp8_e8m0_t](TPosition.B1, 3072, 32)
...     a1.GetPhyAddr().write(np.ones(1024)); b1.GetPhyAddr().write(np.full(1024, 1.5))
...     s1.GetPhyAddr().write(np.full(32, 4.0)); t1.GetPhyAddr().write(np.full(32, 1.0))
...     a2 = LocalTensor[fp8_e4m3fn_t](TPosition.A2, 0, 1024)
...     b2 = LocalTensor[fp8_e4m3fn_t](TPosition.B2, 0, 1024)
...     c = LocalTensor[float32_t](TPosition.CO1, 0, 256)
...     PipeBarrier[PIPE_ALL]()
...     window = LoadData2DParamsV2(0, 0, 1, 2, 1, 1, False, 0)
...     LoadData(a2, a1, s1, window, LoadData2DMxParams(0, 0, 1, 1, 1, 1))
...     LoadData(b2, b1, t1, window, LoadData2DMxParams(0, 0, 1, 1, 1, 1))
...     PipeBarrier[PIPE_ALL]()
...     MmadMx(c, a2, b2, MmadParams(16, 16, 64))
...     PipeBarrier[PIPE_ALL]()
...     c.GetPhyAddr().read(2).tolist()
[384.0, 384.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend.cube_mx import (
    FP4,
    FP8,
    MX_PAGE,
    load_mx,
    mx_address,
    mx_types,
    run_mmad_mx,
)
from ascreg.basic._cube import LoadData2DParamsV2, _fields, _LoadData2D, _local, _mmad_operands
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import AscregTypeError, UnsupportedError

MX_LIMITS = {
    "xStartPosition": (0, 65535),
    "yStartPosition": (0, 65535),
    "xStep": (0, 255),
    "yStep": (0, 255),
    "srcStride": (0, 65535),
    "dstStride": (0, 65535),
}
"""The fields of ``LoadData2DMxParams`` and their ranges (``kernel_struct_mm.h``: ``uint16_t``
positions and strides, ``uint8_t`` steps)."""


def load_data_mx(
    dst: LocalTensor[Any], src: LocalTensor[Any], srcMx: Any, params: Any, mxParams: Any
) -> None:
    """``LoadData(dst, src, srcMx, LoadData2DParamsV2, LoadData2DMxParams)`` (``LoadData``).

    The matrix (fp4 / fp8 in A1 / B1) moves as the 2D V2 load; its scales (*srcMx*, an
    ``fp8_e8m0_t`` tensor in L1) move to the MX buffer of *dst*'s L0 at ``dst``'s address / 16,
    fractal ``(x, y)`` of the window from ``(xStartPosition + x) * srcStride + yStartPosition +
    y`` to ``x * dstStride + y`` (32-byte fractals).
    """
    if not isinstance(params, LoadData2DParamsV2):
        raise AscregTypeError(
            f"the MX LoadData takes LoadData2DParamsV2 for the matrix, got "
            f"{type(params).__name__} ({MX_PAGE})"
        )
    d = _local(dst, "dst", ("A2", "B2"))
    if d.dtype not in FP4 + FP8:
        raise AscregTypeError(
            f"the MX LoadData moves fp4x2_e2m1_t, fp4x2_e1m2_t, fp8_e5m2_t or fp8_e4m3fn_t, "
            f"got {d.dtype.cpp_name} ({MX_PAGE})"
        )
    if params.ifTranspose and d.dtype in FP4:
        raise UnsupportedError(
            f"a transposing MX LoadData of 4-bit elements ({d.dtype.cpp_name}) moves nibbles, "
            f"which {MX_PAGE} (by LoadData_2D_V2.md) shows by figures only (docs/limitations.md)"
        )
    scales = _local(srcMx, "srcMx", ("A1", "B1"))
    f = _fields(mxParams, MX_LIMITS)
    _LoadData2D(dst, src, params)
    load_mx(d.space, mx_address(d), scales, tuple(f[name] for name in MX_LIMITS))


def MmadMx(
    dst: LocalTensor[Any], fm: LocalTensor[Any], filter: LocalTensor[Any], *rest: Any
) -> None:
    """``MmadMx(dst, fm, filter[, bias], MmadParams)``: ``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C0``.

    *fm* (A2, NZ) is M x K and *filter* (B2, ZN) K x N, each with one ``fp8_e8m0_t`` scale per
    32 elements along K in L0A_MX / L0B_MX at its address / 16 (put there by the MX
    ``LoadData``); *dst* (CO1, NZ, float) is M x N. fp4 pairs with fp4, fp8 with fp8
    (``MmadMx.md`` table 3); ``k`` is a multiple of 64. C starts at 0 (``cmatrixInitVal`` and
    not ``isBias``), at the *bias* tensor's row (C2), at the bias table's row
    (``cmatrixSource``) or at L0C's value. The MX GEMV (``m == 1``, ``disableGemv`` false)
    raises :class:`~ascreg.errors.UnsupportedError`. See :mod:`ascreg._frontend.cube_mx` for the
    layouts and the arithmetic.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import fp4x2_e2m1_t, fp8_e8m0_t, float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.cube import cube_buffers
    >>> with block(BlockContext()):
    ...     a = LocalTensor[fp4x2_e2m1_t](TPosition.A2, 0, 512)
    ...     b = LocalTensor[fp4x2_e2m1_t](TPosition.B2, 0, 512)
    ...     a.GetPhyAddr().write(np.full(512, 0x22, np.uint8))   # every A element 1.0
    ...     b.GetPhyAddr().write(np.full(512, 0x33, np.uint8))   # every B element 1.5
    ...     cube_buffers().l0a_mx.pointer(fp8_e8m0_t, 0).write(np.full(32, 2.0))
    ...     cube_buffers().l0b_mx.pointer(fp8_e8m0_t, 0).write(np.full(32, 1.0))
    ...     c = LocalTensor[float32_t](TPosition.CO1, 0, 256)
    ...     PipeBarrier[PIPE_ALL]()
    ...     MmadMx(c, a, b, MmadParams(16, 16, 64))
    ...     PipeBarrier[PIPE_ALL]()
    ...     c.GetPhyAddr().read(1).tolist()
    [192.0]
    """
    _ascreg_call = "MmadMx"
    run_mmad_mx(*_mmad_operands("MmadMx", dst, fm, filter, rest, mx_types))


__all__ = ["MmadMx"]

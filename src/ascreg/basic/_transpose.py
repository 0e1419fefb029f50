"""``Transpose``: the 16 x 16 block transpose and the NCHW <-> NHWC conversions (数据排布转换/Transpose).

``Transpose(dst, src)`` transposes one 16 x 16 matrix of 2-byte elements (int16_t, uint16_t,
half): ``dst = src.T``. ``Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt(n, c, h, w,
type))`` does the same for ``TRANSPOSE_ND2ND_B16`` and converts ``[N, C, H, W]`` to ``[N, H, W,
C]`` (``TRANSPOSE_NCHW2NHWC``) or back (``TRANSPOSE_NHWC2NCHW``), the page's ``np.transpose``
with axes ``(0, 2, 3, 1)`` / ``(0, 3, 1, 2)``. Both run on ``PIPE_V``.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     src = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
...     src.GetPhyAddr().write(np.arange(256)); PipeBarrier[PIPE_ALL]()
...     Transpose(dst, src); PipeBarrier[PIPE_ALL]()
...     dst.GetPhyAddr().read(3).tolist(), dst.GetPhyAddr().read(17)[16].tolist()
([0.0, 16.0, 32.0], 1.0)
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    UndefinedBehaviourError,
    UnsupportedError,
    undefined_behaviour,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

__all__ = ["Transpose", "TransposeParamsExt", "TransposeType"]

PAGE = "数据排布转换/Transpose.md"


class TransposeType(enum.IntEnum):
    """``AscendC::TransposeType``: what the enhanced ``Transpose`` does (the page's values).

    Examples
    --------
    >>> TransposeType.TRANSPOSE_NCHW2NHWC.value, TransposeType.TRANSPOSE_ND2ND_B16.value
    (11, 10)
    """

    TRANSPOSE_TYPE_NONE = 0
    TRANSPOSE_NZ2ND_0213 = 1
    TRANSPOSE_NZ2NZ_0213 = 2
    TRANSPOSE_NZ2NZ_012_WITH_N = 3
    TRANSPOSE_NZ2ND_012_WITH_N = 4
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6
    TRANSPOSE_ND2ND_ONLY = 7
    TRANSPOSE_ND_UB_GM = 8
    TRANSPOSE_GRAD_ND_UB_GM = 9
    TRANSPOSE_ND2ND_B16 = 10
    TRANSPOSE_NCHW2NHWC = 11
    TRANSPOSE_NHWC2NCHW = 12


@attrs.define
class TransposeParamsExt:
    """``AscendC::TransposeParamsExt(nSize, cSize, hSize, wSize, transposeType)``.

    Examples
    --------
    >>> TransposeParamsExt(1, 2, 4, 8, TransposeType.TRANSPOSE_NCHW2NHWC).cSize
    2
    """

    nSize: int = 0
    cSize: int = 0
    hSize: int = 0
    wSize: int = 0
    transposeType: TransposeType = TransposeType.TRANSPOSE_ND2ND_B16


B16_TYPES = (int16_t, uint16_t, half)
"""The 16 x 16 transpose's types on the 950."""
LAYOUT_TYPES = (int8_t, uint8_t, hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t, int16_t,
                uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)  # fmt: skip
"""The NCHW <-> NHWC types ascreg models (the page's 950 list without the 4-bit packed types
and complex32, whose element layout inside a byte / pair the page does not describe)."""
_AXES = {TransposeType.TRANSPOSE_NCHW2NHWC: (0, 2, 3, 1),
         TransposeType.TRANSPOSE_NHWC2NCHW: (0, 3, 1, 2)}  # fmt: skip


def _operand(value: Any, role: str) -> LocalTensor[Any]:
    if not isinstance(value, LocalTensor):
        raise AscregTypeError(f"{role} must be a LocalTensor, got {value!r:.60}", call="Transpose")
    value.GetPhyAddr().require_alignment(DATA_BLOCK, f"Transpose: {role} must be 32-byte aligned")
    return value


def tmp_bytes(kind: TransposeType, dtype: type[Scalar], c: int) -> int:
    """Return the ``sharedTmpBuffer`` bytes the 950 needs (the page's table)."""
    if kind not in _AXES:
        return 0
    h0 = 32 if dtype.size == 1 else 16
    w0 = 32 // dtype.size
    blocks = c + 2 if kind is TransposeType.TRANSPOSE_NCHW2NHWC else 2 * c + 1
    return blocks * h0 * w0 * dtype.size


def _move(
    dst: LocalTensor[Any], src: LocalTensor[Any], shape: tuple[int, ...], axes: tuple[int, ...]
) -> None:
    """Read *shape* elements of ``src``, transpose by *axes*, write them to ``dst`` (PIPE_V)."""
    count = int(np.prod(shape))
    d, s = dst.GetPhyAddr(), src.GetPhyAddr()
    nbytes = count * d.dtype.size
    if count and d.address < s.address + nbytes and s.address < d.address + nbytes:
        undefined_behaviour(
            UndefinedBehaviourError(
                f"src and dst overlap (UB {s.address:#x} and {d.address:#x}, {nbytes} bytes each): "
                "the transpose reads elements another part of it writes",
                call="Transpose",
            )
        )
    with current_block().on_pipe(Pipe.PIPE_V):
        values = s.read(count).reshape(shape)
        d.write(np.ascontiguousarray(np.transpose(values, axes)).reshape(-1), call="Transpose")


def Transpose(dst: LocalTensor[Any], src: LocalTensor[Any], *rest: Any) -> None:
    """``Transpose<T>(dst, src)`` / ``Transpose<T>(dst, src, sharedTmpBuffer, transposeParams)``.

    The plain form and ``TRANSPOSE_ND2ND_B16``: ``dst`` (16 x 16, row-major) is ``src``
    transposed, for int16_t, uint16_t and half. ``TRANSPOSE_NCHW2NHWC`` / ``NHWC2NCHW``: the
    ``[N, C, H, W]`` <-> ``[N, H, W, C]`` conversion for 8-, 16- and 32-bit types, with the page's
    ranges (``cSize`` <= 4095, ``hSize * wSize`` <= 4095 and a whole number of DataBlocks), and
    ``sharedTmpBuffer`` (``LocalTensor<uint8_t>``) at least the page's size; what the 950
    leaves in it is not modelled (its bytes are not written). ``TRANSPOSE_TYPE_NONE`` does
    nothing; the types the page marks unsupported are an ``UnsupportedError``. ``src`` and
    ``dst`` must not overlap.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, uint8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> params = TransposeParamsExt(1, 2, 2, 4, TransposeType.TRANSPOSE_NCHW2NHWC)
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 16]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 16]()
    ...     tmp = LocalMemAllocator[Hardware.UB]().Alloc[uint8_t, 2048]()
    ...     src.GetPhyAddr().write(np.arange(16)); PipeBarrier[PIPE_ALL]()
    ...     Transpose(dst, src, tmp, params); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(16).tolist()
    [0.0, 8.0, 1.0, 9.0, 2.0, 10.0, 3.0, 11.0, 4.0, 12.0, 5.0, 13.0, 6.0, 14.0, 7.0, 15.0]
    """
    _ascreg_call = "Transpose"
    d, s = _operand(dst, "dst"), _operand(src, "src")
    dtype = d._dtype()
    if s._dtype() is not dtype:
        raise AscregTypeError(f"src is a {s._cpp()} but dst is a {d._cpp()} (one T)")
    if not rest:
        _check_type(dtype, B16_TYPES, "the 16 x 16 transpose")
        _move(d, s, (16, 16), (1, 0))
        return
    if len(rest) != 2:
        raise AscregTypeError(
            "takes (dst, src) or (dst, src, sharedTmpBuffer, transposeParams); got "
            f"{2 + len(rest)} arguments"
        )
    tmp, params = rest
    params = operands.instance(params, TransposeParamsExt, "transposeParams")
    kind = params.transposeType
    if kind is TransposeType.TRANSPOSE_TYPE_NONE:
        return
    if kind is TransposeType.TRANSPOSE_ND2ND_B16:
        _check_type(dtype, B16_TYPES, "TRANSPOSE_ND2ND_B16")
        _move(d, s, (16, 16), (1, 0))
        return
    if kind not in _AXES:
        raise UnsupportedError(
            f"{kind.name} is not supported (the page: 当前不支持)", call="Transpose"
        )
    _check_type(dtype, LAYOUT_TYPES, kind.name)
    n = operands.in_range(params.nSize, "nSize", 0, 65535)
    c = operands.in_range(params.cSize, "cSize", 0, 4095)
    hw = operands.in_range(params.hSize * params.wSize, "hSize * wSize", 0, 4095)
    if hw * dtype.size % DATA_BLOCK:
        raise AscregError(
            f"hSize * wSize * sizeof(T) = {hw * dtype.size} is not a multiple of 32 (the page)",
            call="Transpose",
        )
    _check_tmp(tmp, tmp_bytes(kind, dtype, c))
    nchw = (n, c, params.hSize, params.wSize)
    shape = (
        nchw if kind is TransposeType.TRANSPOSE_NCHW2NHWC else (n, params.hSize, params.wSize, c)
    )
    _move(d, s, shape, _AXES[kind])


def _check_type(dtype: type[Scalar], legal: tuple[type[Scalar], ...], what: str) -> None:
    if dtype not in legal:
        names = ", ".join(t.cpp_name for t in legal)
        raise AscregTypeError(
            f"{what} takes {names} on the 950, not {dtype.cpp_name}", call="Transpose"
        )


def _check_tmp(tmp: Any, need: int) -> None:
    buffer = _operand(tmp, "sharedTmpBuffer")
    if buffer._dtype() is not uint8_t:
        raise AscregTypeError(
            f"sharedTmpBuffer is a {buffer._cpp()}; it must be LocalTensor<uint8_t>",
            call="Transpose",
        )
    if buffer.GetSize() < need:
        raise AscregError(
            f"sharedTmpBuffer holds {buffer.GetSize()} bytes; this transpose needs {need} (the page's table)",
            call="Transpose",
        )

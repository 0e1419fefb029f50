"""The n-dimensional GM -> UB ``DataCopy`` (NDDMA): ``NdDmaConfig``, ``NdDmaLoopInfo``, ``NdDmaParams``.

``DataCopy<T, dim, config>(dst, src, NdDmaParams<T, dim>)`` copies up to five nested loops of
elements (loop 0 innermost): loop *i* walks ``loopLpSize[i] + loopSize[i] + loopRpSize[i]``
positions, ``loopDstStride[i]`` UB elements apart; the ``loopSize[i]`` positions in the middle
read GM ``loopSrcStride[i]`` elements apart, the pads on either side hold
``NdDmaParams::constantValue`` (or, with ``NdDmaConfig::isNearestValueMode``, the nearest
element of that loop). ``NdDmaConfig::loopLpSize`` / ``loopRpSize`` other than ``unsetPad``
override the pads of every loop. It runs on MTE2 (``ascreg.machine.mte.ndim_gm_to_ub``, the
engine of ``asc_ndim_copy_gm2ub``), so the pipe tracker orders it like any GM -> UB copy.
The older names ``MultiCopyConfig``, ``MultiCopyLoopInfo`` and ``MultiCopyParams`` are the same
classes.

Examples
--------
The asc-devkit's 2-D transpose: 8 rows of 4 from a 16 x 64 GM matrix into a 64 x 16 UB one.

>>> import numpy as np
>>> from ascreg import GlobalMemory, float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> x = GlobalMemory().alloc(float32_t, 16 * 64); x.write(np.arange(16 * 64))
>>> xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x, 16 * 64)
>>> with block(BlockContext()):
...     xLocal = LocalMemAllocator().Alloc[float32_t, 64 * 16]()
...     loopInfo = NdDmaLoopInfo[2]([1, 64], [16, 1], [64, 16], [0, 0], [0, 0])
...     NdDmaDci()
...     DataCopy(xLocal, xGm, NdDmaParams[float32_t, 2](loopInfo, 0))
...     PipeBarrier[PIPE_ALL]()
...     xLocal.GetPhyAddr().read(64 * 16).reshape(64, 16)[1, :3].tolist()
[1.0, 65.0, 129.0]
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg.basic._template import INTEGER, TYPENAME, ClassTemplate, Signature
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError
from ascreg.machine.mte import NdimLoop, ndim_gm_to_ub

MAX_DIM = 5
"""The most loops of one NDDMA copy."""
_SRC_STRIDE_LIMIT = 1 << 40
_DST_STRIDE_LIMIT = 1 << 20
_SIZE_LIMIT = 1 << 20
_PAD_LIMIT = 255


@attrs.frozen
class NdDmaConfig:
    """``AscendC::NdDmaConfig`` (``MultiCopyConfig``): how an NDDMA ``DataCopy`` pads.

    ``isNearestValueMode`` pads with each loop's nearest element instead of the constant;
    ``loopLpSize`` / ``loopRpSize`` (0 .. 255) give every loop the same pads, or leave them to
    ``NdDmaLoopInfo`` when ``unsetPad`` (``0xFFFF``, the default). ``ascOptimize`` is reserved.
    C++ braced initialisers are positional: ``NdDmaConfig(False)`` is ``{false}``.

    Examples
    --------
    >>> NdDmaConfig(True).loopLpSize == NdDmaConfig.unsetPad
    True
    """

    unsetPad: ClassVar[int] = 0xFFFF
    isNearestValueMode: bool = False
    loopLpSize: int = 0xFFFF
    loopRpSize: int = 0xFFFF
    ascOptimize: bool = False


kDefaultNdDmaConfig = NdDmaConfig()
"""``AscendC::kDefaultNdDmaConfig``: constant padding, pads from ``NdDmaLoopInfo``.

Examples
--------
>>> kDefaultNdDmaConfig.isNearestValueMode
False
"""


def _array(values: Any, dim: int, role: str) -> list[Any]:
    """Return the C array ``T role[dim]`` of a braced list (missing elements are 0)."""
    found = [] if values is None else list(values)
    if len(found) > dim:
        raise AscregTypeError(f"{role} has {dim} elements, got {len(found)}: {found!r:.60}")
    return found + [0] * (dim - len(found))


class NdDmaLoopInfo(metaclass=ClassTemplate):
    """``AscendC::NdDmaLoopInfo<dim>`` (``MultiCopyLoopInfo``): the loops of an NDDMA copy.

    Five arrays of *dim* elements, loop 0 innermost, in elements: ``loopSrcStride``,
    ``loopDstStride``, ``loopSize``, ``loopLpSize``, ``loopRpSize``. Written
    ``NdDmaLoopInfo[dim]()`` (all 0, then set ``info.loopSize[0] = n``) or with the C++ braced
    lists as arguments.

    Examples
    --------
    >>> info = NdDmaLoopInfo[2]([1, 32], [1, 64], [32, 16])
    >>> info.loopSize[1] = 8; info.loopSize, info.loopLpSize
    ([32, 8], [0, 0])
    """

    template_signatures = (Signature(dim=INTEGER),)

    def __init__(
        self,
        loopSrcStride: Any = None,
        loopDstStride: Any = None,
        loopSize: Any = None,
        loopLpSize: Any = None,
        loopRpSize: Any = None,
        *,
        dim: int,
    ) -> None:
        _ascreg_call = f"NdDmaLoopInfo<{dim}>"
        self.dim = operands.in_range(dim, "dim", 1, MAX_DIM)
        self.loopSrcStride = _array(loopSrcStride, dim, "loopSrcStride")
        self.loopDstStride = _array(loopDstStride, dim, "loopDstStride")
        self.loopSize = _array(loopSize, dim, "loopSize")
        self.loopLpSize = _array(loopLpSize, dim, "loopLpSize")
        self.loopRpSize = _array(loopRpSize, dim, "loopRpSize")

    def __repr__(self) -> str:
        return (
            f"NdDmaLoopInfo<{self.dim}>{{{self.loopSrcStride}, {self.loopDstStride}, "
            f"{self.loopSize}, {self.loopLpSize}, {self.loopRpSize}}}"
        )


class NdDmaParams(metaclass=ClassTemplate):
    """``AscendC::NdDmaParams<T, dim>`` (``MultiCopyParams``): ``{loopInfo, constantValue}``.

    ``constantValue`` (a ``T``) fills the pads unless the config asks for the nearest value.

    Examples
    --------
    >>> from ascreg import half
    >>> params = NdDmaParams[half, 2](NdDmaLoopInfo[2](), 1.5)
    >>> params.constantValue, params.loopInfo.dim
    (1.5, 2)
    """

    template_signatures = (Signature(T=TYPENAME, dim=INTEGER),)

    def __init__(
        self,
        loopInfo: NdDmaLoopInfo | None = None,
        constantValue: Any = 0,
        *,
        T: type[Scalar],
        dim: int,
    ) -> None:
        _ascreg_call = f"NdDmaParams<{T.cpp_name}, {dim}>"
        self.T = T
        self.dim = operands.in_range(dim, "dim", 1, MAX_DIM)
        self.loopInfo = NdDmaLoopInfo(dim=dim) if loopInfo is None else loopInfo
        if not isinstance(self.loopInfo, NdDmaLoopInfo) or self.loopInfo.dim != dim:
            raise AscregTypeError(
                f"loopInfo must be an NdDmaLoopInfo<{dim}>, got {self.loopInfo!r:.60}"
            )
        self.constantValue = constantValue

    def __repr__(self) -> str:
        return f"NdDmaParams<{self.T.cpp_name}, {self.dim}>{{{self.loopInfo!r}, {self.constantValue!r}}}"


MultiCopyConfig = NdDmaConfig
"""``AscendC::MultiCopyConfig``: the older name of :class:`NdDmaConfig`.

Examples
--------
>>> MultiCopyConfig is NdDmaConfig
True
"""
MultiCopyLoopInfo = NdDmaLoopInfo
"""``AscendC::MultiCopyLoopInfo<dim>``: the older name of :class:`NdDmaLoopInfo`.

Examples
--------
>>> MultiCopyLoopInfo[3]().dim
3
"""
MultiCopyParams = NdDmaParams
"""``AscendC::MultiCopyParams<T, dim>``: the older name of :class:`NdDmaParams`.

Examples
--------
>>> from ascreg import int8_t
>>> MultiCopyParams[int8_t, 1]().dim
1
"""
kDefaultMultiCopyConfig = kDefaultNdDmaConfig
"""``AscendC::kDefaultMultiCopyConfig``: the older name of :data:`kDefaultNdDmaConfig`.

Examples
--------
>>> kDefaultMultiCopyConfig is kDefaultNdDmaConfig
True
"""


def NdDmaDci() -> None:
    """``AscendC::NdDmaDci()``: refresh the NDDMA cache before an NDDMA ``DataCopy``.

    ascreg keeps no NDDMA cache (an NDDMA copy always reads GM as it is), so this orders
    nothing and changes nothing.

    Examples
    --------
    >>> NdDmaDci()
    """


def _pad(config_value: int, loop_value: Any, role: str, index: int) -> int:
    chosen = loop_value if config_value == NdDmaConfig.unsetPad else config_value
    return operands.in_range(chosen, f"{role}[{index}]", 0, _PAD_LIMIT)


def loops_of(params: NdDmaParams, config: NdDmaConfig) -> tuple[NdimLoop, ...]:
    """Return the copy's loops (innermost first), checking every field against its range.

    Examples
    --------
    >>> from ascreg import half
    >>> loops_of(NdDmaParams[half, 1](NdDmaLoopInfo[1]([1], [1], [4])), kDefaultNdDmaConfig)
    (NdimLoop(size=4, left=0, right=0, dst_stride=1, src_stride=1),)
    """
    for role in ("loopLpSize", "loopRpSize"):
        value = getattr(config, role)
        if value != NdDmaConfig.unsetPad:
            operands.in_range(value, f"NdDmaConfig.{role}", 0, _PAD_LIMIT)
    info = params.loopInfo
    return tuple(
        NdimLoop(
            size=operands.in_range(info.loopSize[i], f"loopSize[{i}]", 1, _SIZE_LIMIT - 1),
            left=_pad(config.loopLpSize, info.loopLpSize[i], "loopLpSize", i),
            right=_pad(config.loopRpSize, info.loopRpSize[i], "loopRpSize", i),
            dst_stride=operands.in_range(
                info.loopDstStride[i], f"loopDstStride[{i}]", 0, _DST_STRIDE_LIMIT - 1
            ),
            src_stride=operands.in_range(
                info.loopSrcStride[i], f"loopSrcStride[{i}]", 0, _SRC_STRIDE_LIMIT - 1
            ),
        )
        for i in range(params.dim)
    )


def _extents(loops: tuple[NdimLoop, ...]) -> tuple[int, int, int]:
    """Return (UB positions, distinct UB elements, GM elements read) of the copy's footprint."""
    shape = tuple(loop.left + loop.size + loop.right for loop in reversed(loops))
    dst = np.zeros(shape, dtype=np.int64)
    for axis, loop in enumerate(reversed(loops)):
        view = [1] * len(shape)
        view[axis] = shape[axis]
        dst += (np.arange(shape[axis]) * loop.dst_stride).reshape(view)
    src_end = 1 + sum((loop.size - 1) * loop.src_stride for loop in loops)
    return int(dst.max()) + 1, int(np.unique(dst).size), src_end


def nddma_copy(dst: Any, src: Any, params: NdDmaParams, dim: int | None, config: Any) -> None:
    """Run ``DataCopy<T, dim, config>(dst, src, params)`` after checking it (see the module)."""
    if dim is not None and dim != params.dim:
        raise AscregTypeError(
            f"the template dim {dim} differs from the NdDmaParams<T, {params.dim}> argument"
        )
    chosen = kDefaultNdDmaConfig if config is None else config
    if not isinstance(chosen, NdDmaConfig):
        raise AscregTypeError(f"config must be an NdDmaConfig, got {chosen!r:.60}")
    dtype = dst._dtype()
    if params.T is not dtype:
        raise AscregTypeError(
            f"the params are NdDmaParams<{params.T.cpp_name}, {params.dim}> but dst is {dst._cpp()}"
        )
    if dtype.size == 8 and (chosen.isNearestValueMode or params.constantValue != 0):
        raise AscregError(
            "a 64-bit NDDMA copy pads only with the constant 0 (no nearest-value mode)"
        )
    loops = loops_of(params, chosen)
    positions, distinct, src_end = _extents(loops)
    if distinct != int(np.prod([loop.left + loop.size + loop.right for loop in loops])):
        raise AscregError(
            "two positions of the copy land on the same UB element: the loops' dst strides "
            "must keep their address ranges apart (the NDDMA page's constraint)"
        )
    for tensor, extent, role in ((dst, positions, "dst"), (src, src_end, "src")):
        size = tensor.GetSize()
        if size and extent > size:
            raise OutOfBoundsError(
                f"the copy spans {extent} elements of {role} but {tensor._cpp()} holds {size}"
            )
    pad = None if chosen.isNearestValueMode else params.constantValue
    ndim_gm_to_ub(dst.GetPhyAddr(), src.GetPhyAddr(), loops, pad, "DataCopy")

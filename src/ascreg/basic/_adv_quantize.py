"""The advanced API's ``AntiQuantize`` (量化操作/AntiQuantize.md) on the 950.

``AntiQuantize<config>(dst, src, scale, offset, [sharedTmpBuffer,] params)`` dequantises an
``[m, n]`` 8-bit source (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t): ``dst[i][j] =
cast((src[i][j] + offset) * scale)``, the offset only with ``config.hasOffset``, the scale and
offset chosen per element by ``config.policy``:

* PER_TENSOR: one scalar scale and offset of DstT (half or bfloat16_t);
* PER_CHANNEL: tensors of DstT, element ``j`` of each;
* PER_TOKEN: tensors, element ``i`` of each (``[m, 1]``);
* PER_GROUP: tensors; ``kDim`` 0: ``[ceil(m / groupSize), n]``, row ``i / groupSize``;
  ``kDim`` 1: ``[m, ceil(n / groupSize)]``, column ``j / groupSize``.

The arithmetic is ``ascreg.core.quant.antiquantize`` (all in float, ``antiquantize_3510_impl.h``).
The legal (DstT, scale type) pairs are the page's tables 3 and 4 (the implementation's
``IsDataTypeValid``). ``params.n`` fills whole 32-byte blocks of the source. The float4 sources
(``fp4x2_e2m1_t`` / ``fp4x2_e1m2_t``, PER_GROUP with fp8_e8m0_t scales) are not emulated.

``Quantize`` and ``Dequantize``, the same pages' siblings, are not emulated: the public tree
holds no implementation of them and the pages give their formulas only as images, so the
working type and rounding order of each data-type combination are not known (see
docs/limitations.md); they stay :class:`~ascreg.errors.MissingApiError` names.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    bfloat16_t,
    c_cast,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg.basic._adv import (
    TYPENAME,
    AdvancedApi,
    Overload,
    Param,
    TemplateArgs,
    check_apart,
    check_count,
    check_dtype,
    check_tensor,
    check_tmp,
    is_tensor,
    read,
    tensor_dtype,
    write,
)
from ascreg.core import quant
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, UnsupportedError
from ascreg.machine.tiling import Struct

__all__ = ["AntiQuantize", "AntiQuantizeConfig", "AntiQuantizeParams", "AntiQuantizePolicy"]

Array = np.ndarray[Any, Any]

B8_SOURCES = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
"""The 8-bit sources of every policy (the implementation's static_asserts)."""
FLOAT4_SOURCES = (fp4x2_e2m1_t, fp4x2_e1m2_t)
TENSOR_CHANNEL_PAIRS = ((half, half), (bfloat16_t, bfloat16_t))
"""(DstT, scale type) of PER_TENSOR / PER_CHANNEL (AntiQuantize.md 表3)."""
TOKEN_GROUP_PAIRS = (
    (half, half),
    (bfloat16_t, bfloat16_t),
    (float32_t, float32_t),
    (half, float32_t),
    (bfloat16_t, float32_t),
)
"""(DstT, scale type) of PER_TOKEN / PER_GROUP with an 8-bit source (AntiQuantize.md 表4)."""
GROUP_ALIGN = 32
"""``params.groupSize`` is a non-zero multiple of 32."""


class AntiQuantizePolicy(enum.IntEnum):
    """``AscendC::AntiQuantizePolicy``: which scale and offset an element uses.

    Examples
    --------
    >>> AntiQuantizePolicy.PER_TOKEN.value
    2
    """

    PER_TENSOR = 0
    PER_CHANNEL = 1
    PER_TOKEN = 2
    PER_GROUP = 3


@attrs.frozen
class AntiQuantizeConfig:
    """``AscendC::AntiQuantizeConfig{policy, hasOffset, kDim = 1}``: ``AntiQuantize``'s template argument.

    Examples
    --------
    >>> AntiQuantizeConfig(AntiQuantizePolicy.PER_GROUP, False, 0).kDim
    0
    """

    policy: AntiQuantizePolicy
    hasOffset: bool
    kDim: int = 1


class AntiQuantizeParams(Struct):
    """``AscendC::AntiQuantizeParams{m, n, groupSize = 0}``: an ``[m, n]`` source.

    Examples
    --------
    >>> p = AntiQuantizeParams(); p.m = 2; p.n = 64; (p.m, p.n, p.groupSize)
    (2, 64, 0)
    """

    m: uint32_t
    n: uint32_t
    groupSize: uint32_t


@attrs.frozen
class _Shape:
    """The call's names and its source's shape, for the policy readers."""

    call: str
    dst_t: Any
    m: int
    n: int
    group: int
    k_dim: int
    has_offset: bool


def _pair(shape: _Shape, scale_t: Any, legal: tuple[tuple[Any, Any], ...], policy: str) -> None:
    if (shape.dst_t, scale_t) not in legal:
        shown = "; ".join(f"({d.cpp_name}, {s.cpp_name})" for d, s in legal)
        raise IllegalDtypeError(
            f"DstT {shape.dst_t.cpp_name} with scale {getattr(scale_t, 'cpp_name', scale_t)} is "
            f"not a {policy} combination (legal (DstT, scale): {shown})",
            call=shape.call,
        )


def _tensors(shape: _Shape, scale: Any, offset: Any, count: int, what: str) -> tuple[Array, Array]:
    """Read *count* elements of the scale and (with hasOffset) offset tensors as float32."""
    check_tensor(shape.call, "scale", scale)
    check_tensor(shape.call, "offset", offset, scale._dtype())
    check_count(shape.call, what, count, ("scale", scale))
    scales = read(scale, count).astype(np.float32)
    if not shape.has_offset:
        return scales, np.zeros_like(scales)
    check_count(shape.call, what, count, ("offset", offset))
    return scales, read(offset, count).astype(np.float32)


def _per_tensor(shape: _Shape, scale: Any, offset: Any) -> tuple[Array, Array]:
    if is_tensor(scale) or is_tensor(offset):
        raise AscregTypeError(
            "PER_TENSOR takes a scalar scale and offset (of DstT), not tensors", call=shape.call
        )
    for value in (scale, offset):
        if isinstance(value, np.generic) and value.dtype != shape.dst_t.np_dtype:
            _pair(shape, value.dtype, TENSOR_CHANNEL_PAIRS, "PER_TENSOR")
    _pair(shape, shape.dst_t, TENSOR_CHANNEL_PAIRS, "PER_TENSOR")
    widened = [np.float32(c_cast(shape.dst_t, v)) for v in (scale, offset)]
    return np.asarray(widened[0]), np.asarray(widened[1])


def _per_channel(shape: _Shape, scale: Any, offset: Any) -> tuple[Array, Array]:
    _pair(shape, tensor_dtype(scale), TENSOR_CHANNEL_PAIRS, "PER_CHANNEL")
    return _tensors(shape, scale, offset, shape.n, "params.n")


def _per_token(shape: _Shape, scale: Any, offset: Any) -> tuple[Array, Array]:
    _pair(shape, tensor_dtype(scale), TOKEN_GROUP_PAIRS, "PER_TOKEN")
    scales, offsets = _tensors(shape, scale, offset, shape.m, "params.m")
    return scales[:, None], offsets[:, None]


def _per_group(shape: _Shape, scale: Any, offset: Any) -> tuple[Array, Array]:
    _pair(shape, tensor_dtype(scale), TOKEN_GROUP_PAIRS, "PER_GROUP")
    g = shape.group
    if g == 0 or g % GROUP_ALIGN:
        raise AscregError(
            f"params.groupSize {g} must be a non-zero multiple of {GROUP_ALIGN}", call=shape.call
        )
    if shape.k_dim not in (0, 1):
        raise AscregTypeError(f"config.kDim {shape.k_dim} must be 0 or 1", call=shape.call)
    if shape.k_dim == 0:
        rows = -(-shape.m // g)
        scales, offsets = _tensors(shape, scale, offset, rows * shape.n, "ceil(m / groupSize) * n")
        return tuple(  # type: ignore[return-value]
            np.repeat(a.reshape(rows, shape.n), g, axis=0)[: shape.m] for a in (scales, offsets)
        )
    cols = -(-shape.n // g)
    scales, offsets = _tensors(shape, scale, offset, shape.m * cols, "m * ceil(n / groupSize)")
    return tuple(  # type: ignore[return-value]
        np.repeat(a.reshape(shape.m, cols), g, axis=1)[:, : shape.n] for a in (scales, offsets)
    )


POLICIES: dict[AntiQuantizePolicy, Callable[[_Shape, Any, Any], tuple[Array, Array]]] = {
    AntiQuantizePolicy.PER_TENSOR: _per_tensor,
    AntiQuantizePolicy.PER_CHANNEL: _per_channel,
    AntiQuantizePolicy.PER_TOKEN: _per_token,
    AntiQuantizePolicy.PER_GROUP: _per_group,
}


def _antiquantize(t: TemplateArgs, *args: Any) -> None:
    config = t.config
    if not isinstance(config, AntiQuantizeConfig):
        raise AscregTypeError("config must be an AntiQuantizeConfig", call="AntiQuantize")
    call = f"AntiQuantize<{{{config.policy.name}, {str(config.hasOffset).lower()}, {config.kDim}}}>"
    dst, src, scale, offset, *rest = args
    if len(rest) == 2:
        check_tmp(call, rest[0])
    params = rest[-1]
    if not isinstance(params, AntiQuantizeParams):
        raise AscregTypeError(
            f"params must be an AntiQuantizeParams, got {params!r:.60}", call=call
        )
    dst_t, src_t = tensor_dtype(dst), tensor_dtype(src)
    check_tensor(call, "dstTensor", dst)
    check_tensor(call, "srcTensor", src)
    if src_t in FLOAT4_SOURCES:
        raise UnsupportedError(
            f"the float4 source {src_t.cpp_name} (PER_GROUP with fp8_e8m0_t scales) is not "
            "emulated (docs/limitations.md)",
            call=call,
        )
    check_dtype(call, "SrcT", src_t, B8_SOURCES)
    m, n = operands.integer(params.m, "params.m"), operands.integer(params.n, "params.n")
    if n % 32:
        raise AscregError(
            f"params.n {n} must fill whole 32-byte blocks of {src_t.cpp_name} (a multiple of 32)",
            call=call,
        )
    count = check_count(call, "params.m * params.n", m * n, ("srcTensor", src), ("dstTensor", dst))
    check_apart(call, ("dstTensor", dst, count), ("srcTensor", src, count))
    group = operands.integer(params.groupSize, "params.groupSize")
    shape = _Shape(call, dst_t, m, n, group, config.kDim, config.hasOffset)
    scales, offsets = POLICIES[config.policy](shape, scale, offset)
    values = read(src, count).reshape(m, n)
    result = quant.antiquantize(values, src_t, dst_t, scales, offsets if config.hasOffset else None)
    write(dst, result.reshape(-1))


def _operands(args: tuple[Any, ...]) -> bool:
    return len(args) in (5, 6) and is_tensor(args[0]) and is_tensor(args[1])


AntiQuantize = AdvancedApi(
    "AntiQuantize",
    """``AntiQuantize<config>``: ``dst = cast((src + offset) * scale)`` per tensor, channel, token or group.

    Operands ``(dstTensor, srcTensor, scale, offset, [sharedTmpBuffer,] params)``; see the
    module doc for the policies and the operand shapes. The source widens to float, the offset
    is added and the scale multiplied in float, the result is cast to DstT rounding to nearest
    even, saturating (a float DstT keeps the product).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int8_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> config = AntiQuantizeConfig(AntiQuantizePolicy.PER_TENSOR, True)
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[int8_t](TPosition.VECCALC, 0, 64)
    ...     y = LocalTensor[half](TPosition.VECCALC, 64, 64)
    ...     x.GetPhyAddr().write(np.arange(-32, 32, dtype=np.int8)); ctx.tracker.barrier()
    ...     AntiQuantize[config](y, x, half(0.5), half(2), AntiQuantizeParams(2, 32)); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(64)[[0, 63]].tolist()
    [-15.0, 16.5]
    """,
    [
        Overload(
            (
                Param("config", AntiQuantizeConfig),
                Param("DstT", TYPENAME),
                Param("SrcT", TYPENAME),
            ),
            _antiquantize,
            _operands,
            lambda a: {"DstT": tensor_dtype(a[0]), "SrcT": tensor_dtype(a[1])},
        )
    ],
)

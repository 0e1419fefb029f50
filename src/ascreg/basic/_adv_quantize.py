"""The advanced API's ``Quantize``, ``AntiQuantize`` and ``Dequantize`` (量化操作/*.md).

Both take an ``[m, n]`` source (``params.m`` rows of ``params.n`` elements, n a multiple of 32)
and a config template argument ``{policy, hasOffset, ...}``; the scale and offset of each
element are chosen by ``config.policy``:

* PER_TENSOR: one scalar scale and offset;
* PER_CHANNEL: tensors, element ``j`` of each;
* PER_TOKEN: tensors, element ``i`` of each (``[m, 1]``);
* PER_GROUP: tensors; ``kDim`` 0: ``[ceil(m / groupSize), n]``, row ``i / groupSize``;
  ``kDim`` 1: ``[m, ceil(n / groupSize)]``, column ``j / groupSize`` (groupSize a non-zero
  multiple of 32).

``Quantize<config>(dst, src, [sharedTmpBuffer,] scale, offset, params)``: ``dst =
cast(src * scale + offset)`` from half / bfloat16_t / float to int8_t, hifloat8_t or fp8, with
``config.roundMode`` where the destination takes it (``ascreg.core.quant.quantize``,
``quantize_impl.h``); the offset of the tensor policies may be a tensor or a scalar.

``AntiQuantize<config>(dst, src, scale, offset, [sharedTmpBuffer,] params)``: ``dst =
cast((src + offset) * scale)`` from an 8-bit source (int8_t, hifloat8_t, fp8_e4m3fn_t,
fp8_e5m2_t) to half, bfloat16_t or (PER_TOKEN / PER_GROUP with float scales) float
(``ascreg.core.quant.antiquantize``, ``antiquantize_3510_impl.h``).

``Dequantize<config>(dst, src, scale, offset, [sharedTmpBuffer,] params)``: int32 rows to
float, half or bfloat16_t, PER_TENSOR and PER_CHANNEL (the 950 runs ``AscendDequant``'s
multi-row path for them, whose emulation it reuses); ``hasOffset`` is reserved (false).

The legal type combinations are the pages' tables (the implementations' static_asserts). Not
emulated (docs/limitations.md): the float4 forms (``fp4x2_e2m1_t`` / ``fp4x2_e1m2_t``
destinations of Quantize, sources of AntiQuantize; PER_GROUP only) and Dequantize's PER_TOKEN /
PER_GROUP (AscendDequant's per-token / per-group paths).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
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
    int32_t,
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
from ascreg.basic._adv_quant import (
    DEQUANT_SCALAR_PAIRS,
    DEQUANT_TENSOR_PAIRS,
    DeQuantMode,
    dequant_rows,
)
from ascreg.core import quant
from ascreg.enums import RoundMode
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, UnsupportedError
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.tiling import Struct

__all__ = [
    "AntiQuantize",
    "AntiQuantizeConfig",
    "AntiQuantizeParams",
    "AntiQuantizePolicy",
    "Dequantize",
    "DequantizeConfig",
    "DequantizeParams",
    "DequantizePolicy",
    "Quantize",
    "QuantizeConfig",
    "QuantizeParams",
    "QuantizePolicy",
]

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


class QuantizePolicy(enum.IntEnum):
    """``AscendC::QuantizePolicy``: which scale and offset an element uses.

    Examples
    --------
    >>> QuantizePolicy.PER_GROUP.value
    3
    """

    PER_TENSOR = 0
    PER_CHANNEL = 1
    PER_TOKEN = 2
    PER_GROUP = 3


@attrs.frozen
class QuantizeConfig:
    """``AscendC::QuantizeConfig{policy, hasOffset, roundMode = CAST_RINT, kDim = 1}``.

    Examples
    --------
    >>> QuantizeConfig(QuantizePolicy.PER_TOKEN, True, RoundMode.CAST_ROUND).kDim
    1
    """

    policy: QuantizePolicy
    hasOffset: bool
    roundMode: RoundMode = RoundMode.CAST_RINT
    kDim: int = 1


class QuantizeParams(Struct):
    """``AscendC::QuantizeParams{m, n, groupSize = 0}``: an ``[m, n]`` source.

    Examples
    --------
    >>> QuantizeParams(4, 64).groupSize
    0
    """

    m: uint32_t
    n: uint32_t
    groupSize: uint32_t


@attrs.frozen
class _Call:
    """One call's name, policy and source shape, for the operand readers."""

    name: str
    policy: str
    has_offset: bool
    k_dim: int
    m: int
    n: int
    group: int


SCALAR_TYPES = {np.dtype(t.np_dtype): t for t in (half, bfloat16_t, float32_t)}
"""The element type of a numpy scalar scale or offset (C++ deduces ScaleT from it)."""


def _scalar_type(value: Any, default: Any) -> Any:
    """Return the C++ type of a scalar operand: a numpy scalar's, a Python number's *default*."""
    if isinstance(value, np.generic):
        return SCALAR_TYPES.get(value.dtype, value.dtype)
    return default


def _layout(call: _Call) -> tuple[int, str, Array]:
    """Return the scale / offset count a policy reads, its rule's name and the index map.

    The map gives, per source element ``[i][j]``, the scale / offset element it uses (the
    page's shapes).
    """
    m, n, g = call.m, call.n, call.group
    rows, cols = np.arange(m)[:, None], np.arange(n)[None, :]
    if call.policy == "PER_CHANNEL":
        return n, "params.n", np.broadcast_to(cols, (m, n))
    if call.policy == "PER_TOKEN":
        return m, "params.m", np.broadcast_to(rows, (m, n))
    if g == 0 or g % GROUP_ALIGN:
        raise AscregError(
            f"params.groupSize {g} must be a non-zero multiple of {GROUP_ALIGN}", call=call.name
        )
    if call.k_dim == 0:
        return -(-m // g) * n, "ceil(m / groupSize) * n", rows // g * n + cols
    if call.k_dim == 1:
        groups = -(-n // g)
        return m * groups, "m * ceil(n / groupSize)", rows * groups + cols // g
    raise AscregTypeError(f"config.kDim {call.k_dim} must be 0 or 1", call=call.name)


def _vector(call: _Call, role: str, tensor: Any, dtype: Any) -> Array:
    """Return the float32 scale or offset each source element uses, from a tensor of *dtype*."""
    check_tensor(call.name, role, tensor, dtype)
    count, what, index = _layout(call)
    check_count(call.name, what, count, (role, tensor))
    values: Array = read(tensor, count).astype(np.float32)[index]
    return values


def _scalar(call: _Call, role: str, value: Any, dtype: Any) -> Array:
    """Return a scalar scale or offset of *dtype* widened to float32 (exactly)."""
    if is_tensor(value):
        raise AscregTypeError(
            f"{call.policy} takes a scalar {role} (of {dtype.cpp_name}), not a tensor",
            call=call.name,
        )
    given = _scalar_type(value, dtype)
    if given is not dtype:
        raise IllegalDtypeError(
            f"{role} is {getattr(given, 'cpp_name', given)} but must be {dtype.cpp_name} (scale "
            "and offset share one type)",
            call=call.name,
        )
    return np.asarray(np.float32(c_cast(dtype, value)))


def _pair(call: _Call, dst_t: Any, scale_t: Any, legal: Sequence[tuple[Any, Any]]) -> None:
    if (dst_t, scale_t) not in legal:
        shown = "; ".join(f"({a.cpp_name}, {b.cpp_name})" for a, b in legal)
        raise IllegalDtypeError(
            f"{dst_t.cpp_name} with scale {getattr(scale_t, 'cpp_name', scale_t)} is not a "
            f"{call.policy} combination (legal: {shown})",
            call=call.name,
        )


def _operands_of(name: str, config: Any, config_t: type[Any], params_t: type[Any],
                 args: tuple[Any, ...], tmp_first: bool,
                 row_align: int = 32) -> tuple[_Call, Any, Any, Any, Any, int]:  # fmt: skip
    """Check the operands the three APIs share; return call, dst, src, scale, offset, count.

    *tmp_first*: ``sharedTmpBuffer`` comes before the scale (Quantize), else after the offset.
    *row_align*: ``params.n`` is a multiple of it (a row fills whole 32-byte blocks).
    """
    if not isinstance(config, config_t):
        raise AscregTypeError(f"config must be a {config_t.__name__}", call=name)
    call_name = f"{name}<{{{config.policy.name}, {str(config.hasOffset).lower()}, {config.kDim}}}>"
    dst, src, *rest = args
    if len(rest) == 4:
        tmp = rest.pop(0 if tmp_first else 2)
        check_tmp(call_name, tmp)
    scale, offset, params = rest
    if not isinstance(params, params_t):
        raise AscregTypeError(
            f"params must be the {params_t.__name__} struct, got {params!r:.60}", call=call_name
        )
    check_tensor(call_name, "dstTensor", dst)
    check_tensor(call_name, "srcTensor", src)
    m, n = operands.integer(params.m, "params.m"), operands.integer(params.n, "params.n")
    if n % row_align:
        raise AscregError(
            f"params.n {n} must be a multiple of {row_align} (32-byte aligned rows)",
            call=call_name,
        )
    count = check_count(
        call_name, "params.m * params.n", m * n, ("srcTensor", src), ("dstTensor", dst)
    )
    check_apart(call_name, ("dstTensor", dst, count), ("srcTensor", src, count))
    group = operands.integer(params.groupSize, "params.groupSize")
    call = _Call(call_name, config.policy.name, bool(config.hasOffset), config.kDim, m, n, group)
    return call, dst, src, scale, offset, count


def _antiquantize(t: TemplateArgs, *args: Any) -> None:
    call, dst, src, scale, offset, count = _operands_of(
        "AntiQuantize", t.config, AntiQuantizeConfig, AntiQuantizeParams, args, tmp_first=False
    )
    dst_t, src_t = tensor_dtype(dst), tensor_dtype(src)
    if src_t in FLOAT4_SOURCES:
        raise UnsupportedError(
            f"the float4 source {src_t.cpp_name} (PER_GROUP with fp8_e8m0_t scales) is not "
            "emulated (docs/limitations.md)",
            call=call.name,
        )
    check_dtype(call.name, "SrcT", src_t, B8_SOURCES)
    if call.policy == "PER_TENSOR":
        _pair(call, dst_t, _scalar_type(scale, dst_t), TENSOR_CHANNEL_PAIRS)
        scales = _scalar(call, "scale", scale, dst_t)
        offsets = _scalar(call, "offset", offset, dst_t)
    else:
        scale_t = tensor_dtype(scale)
        legal = TENSOR_CHANNEL_PAIRS if call.policy == "PER_CHANNEL" else TOKEN_GROUP_PAIRS
        _pair(call, dst_t, scale_t, legal)
        scales = _vector(call, "scale", scale, scale_t)
        check_tensor(call.name, "offset", offset, scale_t)
        offsets = _vector(call, "offset", offset, scale_t) if call.has_offset else scales
    values = read(src, count).reshape(call.m, call.n)
    result = quant.antiquantize(values, src_t, dst_t, scales, offsets if call.has_offset else None)
    write(dst, result.reshape(-1))


class DequantizePolicy(enum.IntEnum):
    """``AscendC::DequantizePolicy``: which scale an element uses.

    Examples
    --------
    >>> DequantizePolicy.PER_CHANNEL.value
    1
    """

    PER_TENSOR = 0
    PER_CHANNEL = 1
    PER_TOKEN = 2
    PER_GROUP = 3


@attrs.frozen
class DequantizeConfig:
    """``AscendC::DequantizeConfig{policy, hasOffset = false, kDim = 1}`` (hasOffset is reserved).

    Examples
    --------
    >>> DequantizeConfig(DequantizePolicy.PER_TENSOR).hasOffset
    False
    """

    policy: DequantizePolicy
    hasOffset: bool = False
    kDim: int = 1


class DequantizeParams(Struct):
    """``AscendC::DequantizeParams{m, n, groupSize = 0}``: an ``[m, n]`` int32 source.

    Examples
    --------
    >>> DequantizeParams(2, 8).n
    8
    """

    m: uint32_t
    n: uint32_t
    groupSize: uint32_t


def _dequantize(t: TemplateArgs, *args: Any) -> None:
    dst_t, src_t = tensor_dtype(args[0]), tensor_dtype(args[1])
    sizes = [d.size for d in (dst_t, src_t) if d is not None]
    call, dst, src, scale, _, _ = _operands_of(
        "Dequantize", t.config, DequantizeConfig, DequantizeParams, args, tmp_first=False,
        row_align=DATA_BLOCK // min(sizes, default=1),
    )  # fmt: skip
    if call.has_offset:
        raise AscregTypeError(
            "config.hasOffset is reserved: only false is supported", call=call.name
        )
    if call.policy in ("PER_TOKEN", "PER_GROUP"):
        raise UnsupportedError(
            f"the {call.policy} policy (AscendDequant's per-token / per-group paths) is not "
            "emulated (docs/limitations.md)",
            call=call.name,
        )
    check_dtype(call.name, "SrcT", src_t, (int32_t,))
    vector = call.policy == "PER_CHANNEL"
    scale_t = tensor_dtype(scale) if vector else _scalar_type(scale, float32_t)
    _pair(call, dst_t, scale_t, DEQUANT_TENSOR_PAIRS if vector else DEQUANT_SCALAR_PAIRS)
    if vector:
        check_tensor(call.name, "scale", scale, scale_t)
    else:
        _scalar(call, "scale", scale, scale_t)
    rows = TemplateArgs(
        ("dstT", "scaleT", "mode"), (dst_t, scale_t, DeQuantMode.DEQUANT_WITH_MULTI_ROW)
    )
    dequant_rows(call.name, rows, dst, src, scale, (call.m, call.n, call.n))


Dequantize = AdvancedApi(
    "Dequantize",
    """``Dequantize<config>``: ``dst = cast(float(src) * scale)`` of int32 rows, per tensor or channel.

    Operands ``(dstTensor, srcTensor, scale, offset, [sharedTmpBuffer,] params)``; the offset
    is unused (``hasOffset`` is reserved, false). PER_TENSOR takes a scalar scale (bfloat16_t
    or float; a Python number is a float), PER_CHANNEL a tensor of ``params.n`` scales; the 950
    runs them as ``AscendDequant<DstT, ScaleT, DEQUANT_WITH_MULTI_ROW>`` with
    ``DequantParams{m, n, n}`` (``dequantize_impl.h``), so the arithmetic and the (DstT, scale)
    pairs are ``AscendDequant``'s. PER_TOKEN and PER_GROUP are not emulated.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, int32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> config = DequantizeConfig(DequantizePolicy.PER_TENSOR)
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[int32_t](TPosition.VECCALC, 0, 16)
    ...     y = LocalTensor[float32_t](TPosition.VECCALC, 64, 16)
    ...     x.GetPhyAddr().write(np.arange(16, dtype=np.int32)); ctx.tracker.barrier()
    ...     Dequantize[config](y, x, 0.25, 0.0, DequantizeParams(2, 8)); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(16)[[1, 15]].tolist()
    [0.25, 3.75]
    """,
    [
        Overload(
            (Param("config", DequantizeConfig), Param("DstT", TYPENAME), Param("SrcT", TYPENAME)),
            _dequantize,
            lambda a: len(a) in (5, 6) and is_tensor(a[0]) and is_tensor(a[1]),
            lambda a: {"DstT": tensor_dtype(a[0]), "SrcT": tensor_dtype(a[1])},
        )
    ],
)


def _operands(args: tuple[Any, ...]) -> bool:
    return len(args) in (5, 6) and is_tensor(args[0]) and is_tensor(args[1])


QUANTIZE_SOURCES = (half, bfloat16_t, float32_t)
QUANTIZE_DESTINATIONS = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
"""The 8-bit destinations (the float4 ones are PER_GROUP only and not emulated)."""


def _quantize(t: TemplateArgs, *args: Any) -> None:
    call, dst, src, scale, offset, count = _operands_of(
        "Quantize", t.config, QuantizeConfig, QuantizeParams, args, tmp_first=True
    )
    dst_t, src_t = tensor_dtype(dst), tensor_dtype(src)
    if dst_t in (fp4x2_e2m1_t, fp4x2_e1m2_t):
        raise UnsupportedError(
            f"the float4 destination {dst_t.cpp_name} (PER_GROUP) is not emulated "
            "(docs/limitations.md)",
            call=call.name,
        )
    check_dtype(call.name, "SrcT", src_t, QUANTIZE_SOURCES)
    check_dtype(call.name, "DstT", dst_t, QUANTIZE_DESTINATIONS)
    if call.policy == "PER_TENSOR":
        scale_t = _scalar_type(scale, src_t)
    else:
        check_tensor(call.name, "scale", scale)
        scale_t = tensor_dtype(scale)
    _pair(call, src_t, scale_t, ((src_t, src_t), (src_t, float32_t)))
    if call.policy == "PER_TENSOR":
        scales = _scalar(call, "scale", scale, scale_t)
    else:
        scales = _vector(call, "scale", scale, scale_t)
    offsets = None
    if call.has_offset:
        vector = call.policy != "PER_TENSOR" and is_tensor(offset)
        offsets = (_vector if vector else _scalar)(call, "offset", offset, scale_t)
    values = read(src, count).reshape(call.m, call.n)
    rounding = t.config.roundMode
    result = quant.quantize(values, src_t, dst_t, scales, offsets, rounding)
    write(dst, result.reshape(-1))


Quantize = AdvancedApi(
    "Quantize",
    """``Quantize<config>``: ``dst = cast(src * scale + offset)`` per tensor, channel, token or group.

    Operands ``(dstTensor, srcTensor, [sharedTmpBuffer,] scale, offset, params)``. srcT: half,
    bfloat16_t, float; the scale (and offset) type is srcT or float; dstT: int8_t,
    hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t. PER_TENSOR takes scalars (a Python number is of srcT,
    a numpy scalar of its own type); the other policies a scale tensor (shapes as
    ``AntiQuantize``'s) and an offset tensor or scalar of the scale's type. The arithmetic and
    the round-mode fallbacks are ``ascreg.core.quant.quantize``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int8_t
    >>> from ascreg.basic import LocalTensor, RoundMode, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> config = QuantizeConfig(QuantizePolicy.PER_TENSOR, True, RoundMode.CAST_ROUND)
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[half](TPosition.VECCALC, 0, 32)
    ...     y = LocalTensor[int8_t](TPosition.VECCALC, 64, 32)
    ...     x.GetPhyAddr().write(np.arange(-16, 16, dtype=np.float16) * 10); ctx.tracker.barrier()
    ...     Quantize[config](y, x, half(0.25), half(0.5), QuantizeParams(1, 32)); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(32)[[0, 1, 31]].tolist()
    [-40, -37, 38]
    """,
    [
        Overload(
            (Param("config", QuantizeConfig), Param("DstT", TYPENAME), Param("SrcT", TYPENAME)),
            _quantize,
            _operands,
            lambda a: {"DstT": tensor_dtype(a[0]), "SrcT": tensor_dtype(a[1])},
        )
    ],
)


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

"""The advanced API's quantisation (量化操作): ``AscendQuant``.

``AscendQuant`` has two template heads on the 950, both taking the same operand lists:

* ``AscendQuant<T, isReuseSource, config>``: an int8_t destination, ``T`` the source type;
  ``config`` (:class:`AscendQuantConfig`) fixes ``calCount`` / ``scaleCount`` /
  ``offsetCount`` at compile time when its counts are non-zero;
* ``AscendQuant<dstT, srcT, isReuseSource>``: dstT int8_t, hifloat8_t, fp8_e4m3fn_t or
  fp8_e5m2_t.

The operand lists (``sharedTmpBuffer``, a ``LocalTensor<uint8_t>`` after ``srcTensor``, is
optional; ascreg needs no scratch):

* PER_TENSOR: ``(dst, src, [tmp], float scale, float offset[, calCount])``;
* PER_CHANNEL: ``(dst, src, [tmp], scaleTensor, offset[, scaleCount, calCount])`` with a scalar
  offset of the source type, or ``(dst, src, [tmp], scaleTensor, offsetTensor[, scaleCount,
  offsetCount, calCount])``: element ``i`` uses ``scale[i % scaleCount]``; without counts
  they are the tensors' sizes.

The arithmetic is :func:`ascreg.core.quant.quant` (the order and the casts of
``ascend_quant_3510_impl.h``). The PER_TOKEN / PER_GROUP forms (``AscendQuantPolicy``,
``AscendQuantParam``) are not emulated yet.
"""

from __future__ import annotations

from typing import Any

import attrs

from ascreg._dtypes import (
    bfloat16_t,
    c_cast,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    uint8_t,
)
from ascreg.basic._adv import (
    TYPENAME,
    AdvancedApi,
    Overload,
    Param,
    TemplateArgs,
    check_count,
    check_dtype,
    check_tensor,
    check_tmp,
    is_count,
    is_tensor,
    read,
    tensor_dtype,
    write,
)
from ascreg.core import quant
from ascreg.enums import RoundMode
from ascreg.errors import AscregError, AscregTypeError

__all__ = [
    "ASCEND_QUANT_DEFAULT_CFG",
    "AscendQuant",
    "AscendQuantConfig",
]

QUANT_SRC_TYPES = (half, float32_t, bfloat16_t)
"""Source types of ``AscendQuant`` on the 950 (the implementation's static_assert)."""
QUANT_DST_TYPES = (int8_t, fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t)
"""Destination types of the PER_TENSOR / PER_CHANNEL ``AscendQuant`` on the 950."""
PER_CHANNEL_ALIGN = 32
"""``scaleCount`` of a PER_CHANNEL call is a multiple of 32 (AscendQuant.md), ``calCount`` of it."""


@attrs.frozen
class AscendQuantConfig:
    """``AscendC::AscendQuantConfig``: the ``config`` template argument of ``AscendQuant``.

    The counts fix ``calCount`` / ``offsetCount`` / ``scaleCount`` at compile time when
    non-zero (the int8_t form); ``hasOffset``, ``kDim`` and ``roundMode`` belong to the 950's
    PER_TOKEN / PER_GROUP form.

    Examples
    --------
    >>> AscendQuantConfig(calcCount=64).calcCount, AscendQuantConfig().roundMode.name
    (64, 'CAST_RINT')
    """

    calcCount: int = 0
    offsetCount: int = 0
    scaleCount: int = 0
    workLocalSize: int = 0
    hasOffset: bool = False
    kDim: int = 1
    roundMode: RoundMode = RoundMode.CAST_RINT


ASCEND_QUANT_DEFAULT_CFG = AscendQuantConfig()
"""``AscendC::ASCEND_QUANT_DEFAULT_CFG``: ``{0, 0, 0, 0, false, 1, RoundMode::CAST_RINT}``."""


def _scalar_param(dst_t: Any, src_t: Any, value: Any) -> Any:
    """Return a scalar scale / offset (already of *src_t*) in the working type, as a C cast."""
    work = half if quant.on_half(dst_t) else float32_t
    return c_cast(work, c_cast(float32_t, c_cast(src_t, value)))


def _split(args: tuple[Any, ...]) -> tuple[Any, Any, Any, tuple[Any, ...]]:
    """Return dst, src, sharedTmpBuffer (or None) and the remaining operands."""
    if len(args) > 2 and is_tensor(args[2], uint8_t):
        return args[0], args[1], args[2], args[3:]
    return args[0], args[1], None, args[2:]


def _per_tensor(call: str, dst_t: Any, src_t: Any, dst: Any, src: Any, rest: tuple[Any, ...],
                config: AscendQuantConfig) -> None:  # fmt: skip
    scale, offset = rest[0], rest[1]
    given = rest[2] if len(rest) > 2 else src.GetSize()
    count = check_count(call, "calCount", config.calcCount or given, ("srcTensor", src),
                        ("dstTensor", dst))  # fmt: skip
    s = _scalar_param(dst_t, float32_t, scale)
    o = _scalar_param(dst_t, float32_t, offset)
    write(dst, quant.quant(read(src, count), src_t, dst_t, s, o))


def _per_channel(call: str, dst_t: Any, src_t: Any, dst: Any, src: Any, rest: tuple[Any, ...],
                 config: AscendQuantConfig) -> None:  # fmt: skip
    scale_tensor, offset = rest[0], rest[1]
    check_tensor(call, "scaleTensor", scale_tensor, src_t)
    has_tensor = is_tensor(offset)
    if has_tensor:
        check_tensor(call, "offsetTensor", offset, src_t)
    counts = list(rest[2:])
    if not counts:
        counts = [scale_tensor.GetSize()] + ([offset.GetSize()] if has_tensor else [])
        counts.append(src.GetSize())
    if config.calcCount and config.scaleCount and (config.offsetCount or not has_tensor):
        counts = [config.scaleCount] + ([config.offsetCount] if has_tensor else [])
        counts.append(config.calcCount)
    scale_n = check_count(call, "scaleCount", counts[0], ("scaleTensor", scale_tensor))
    if has_tensor:
        offset_n = check_count(call, "offsetCount", counts[1], ("offsetTensor", offset))
        if offset_n != scale_n:
            raise AscregError(f"offsetCount {offset_n} must equal scaleCount {scale_n}", call=call)
    count = check_count(call, "calCount", counts[-1], ("srcTensor", src), ("dstTensor", dst))
    if scale_n == 0 or scale_n % PER_CHANNEL_ALIGN:
        raise AscregError(
            f"scaleCount {scale_n} must be a non-zero multiple of {PER_CHANNEL_ALIGN} (each row "
            "of the source starts 32-byte aligned)",
            call=call,
        )
    if count % scale_n:
        raise AscregError(f"calCount {count} must be a multiple of scaleCount {scale_n}", call=call)
    values = read(src, count).reshape(-1, scale_n)
    scales = quant.widen(read(scale_tensor, scale_n), src_t, dst_t)
    if has_tensor:
        offsets = quant.widen(read(offset, scale_n), src_t, dst_t)
    else:
        offsets = _scalar_param(dst_t, src_t, offset)
    write(dst, quant.quant(values, src_t, dst_t, scales, offsets).reshape(-1))


def _quant(call: str, dst_t: Any, src_t: Any, args: tuple[Any, ...],
           config: AscendQuantConfig = ASCEND_QUANT_DEFAULT_CFG) -> None:  # fmt: skip
    check_dtype(call, "srcT", src_t, QUANT_SRC_TYPES)
    check_dtype(call, "dstT", dst_t, QUANT_DST_TYPES)
    dst, src, tmp, rest = _split(args)
    check_tensor(call, "dstTensor", dst, dst_t)
    check_tensor(call, "srcTensor", src, src_t)
    if tmp is not None:
        check_tmp(call, tmp)
    if len(rest) >= 2 and is_tensor(rest[0]):
        wanted = 3 if is_tensor(rest[1]) else 2
        if len(rest) - 2 not in (0, wanted):
            raise AscregTypeError(
                f"a PER_CHANNEL call takes scaleTensor, offset and no or {wanted} counts, got "
                f"{len(rest) - 2}",
                call=call,
            )
        _per_channel(call, dst_t, src_t, dst, src, rest, config)
        return
    if len(rest) not in (2, 3) or any(is_tensor(a) for a in rest):
        raise AscregTypeError(
            "a PER_TENSOR call takes a float scale, a float offset and an optional calCount",
            call=call,
        )
    _per_tensor(call, dst_t, src_t, dst, src, rest, config)


def _quant_int8(t: TemplateArgs, *args: Any) -> None:
    src_t = tensor_dtype(args[1]) if len(args) > 1 else None
    if src_t is not t.T and src_t is not None and t.T is int8_t:
        # AscendQuant<int8_t>(...) of a non-int8 source: C++ deduces the dstT/srcT form
        _quant(f"AscendQuant<int8_t, {src_t.cpp_name}>", int8_t, src_t, args)
        return
    call = f"AscendQuant<{t.T.cpp_name}>"
    if not isinstance(t.config, AscendQuantConfig):
        raise AscregTypeError("config must be an AscendQuantConfig", call=call)
    _quant(call, int8_t, t.T, args, t.config)


def _quant_typed(t: TemplateArgs, *args: Any) -> None:
    _quant(f"AscendQuant<{t.dstT.cpp_name}, {t.srcT.cpp_name}>", t.dstT, t.srcT, args)


def _operands(args: tuple[Any, ...]) -> bool:
    return 4 <= len(args) <= 8 and is_tensor(args[0]) and is_tensor(args[1])


def _counts_ok(args: tuple[Any, ...]) -> bool:
    return all(is_count(a) for a in _split(args)[3][2:])


AscendQuant = AdvancedApi(
    "AscendQuant",
    """``AscendQuant``: ``dst[i] = cast(src[i] * scale + offset)`` per tensor or per channel.

    ``AscendQuant<T, isReuseSource, config>`` quantises to int8_t, ``AscendQuant<dstT, srcT,
    isReuseSource>`` to int8_t, hifloat8_t, fp8_e4m3fn_t or fp8_e5m2_t (see the module doc
    for the operand lists). srcT: half, float, bfloat16_t. int8_t and hifloat8_t are computed
    in half (the source, scale and offset rounded to half first; int8_t rounds to nearest
    even, hifloat8_t half away from zero), fp8 in float rounding to nearest even; all
    saturate. A PER_CHANNEL ``scaleCount`` is a multiple of 32, ``calCount`` one of it.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int8_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[half](TPosition.VECCALC, 0, 64)
    ...     y = LocalTensor[int8_t](TPosition.VECCALC, 128, 64)
    ...     x.GetPhyAddr().write(np.arange(-32, 32, dtype=np.float16) * 10); ctx.tracker.barrier()
    ...     AscendQuant[half](y, x, 0.02, 0.9, 64); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(64)[[0, 1, 31, 63]].tolist()
    [-6, -5, 1, 7]
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("isReuseSource", bool, False),
                Param("config", AscendQuantConfig, ASCEND_QUANT_DEFAULT_CFG),
            ),
            _quant_int8,
            lambda a: _operands(a) and is_tensor(a[0], int8_t) and _counts_ok(a),
            lambda a: {"T": tensor_dtype(a[1])},
        ),
        Overload(
            (Param("dstT", TYPENAME), Param("srcT", TYPENAME), Param("isReuseSource", bool, False)),
            _quant_typed,
            lambda a: _operands(a) and _counts_ok(a),
            lambda a: {"dstT": tensor_dtype(a[0]), "srcT": tensor_dtype(a[1])},
        ),
    ],
)

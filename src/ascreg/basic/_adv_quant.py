"""The advanced API's quantisation (量化操作): AscendQuant, AscendDequant, AscendAntiQuant.

``AscendQuant`` has two template heads on the 950, both taking the same operand lists:

* ``AscendQuant<T, isReuseSource, config>``: an int8_t destination, ``T`` the source type;
  ``config`` (``AscendQuantConfig``) fixes ``calCount`` / ``scaleCount`` /
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

The arithmetic is ``ascreg.core.quant.quant`` (the order and the casts of
``ascend_quant_3510_impl.h``). The PER_TOKEN / PER_GROUP forms (``AscendQuantPolicy``,
``AscendQuantParam``) are not emulated yet.

``AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, [tmp], params | calCount | nothing)``
dequantises int32 rows: see ``AscendDequant`` and ``ascreg.core.quant.dequant``.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    bfloat16_t,
    c_cast,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
    uint8_t,
    uint32_t,
    uint64_t,
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
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.tiling import Struct

__all__ = [
    "ASCEND_QUANT_DEFAULT_CFG",
    "AntiQuantShapeInfo",
    "AscendAntiQuant",
    "AscendDequant",
    "AscendQuant",
    "AscendQuantConfig",
    "DeQuantMode",
    "DequantParams",
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


# -- AscendDequant -----------------------------------------------------------------------------


class DeQuantMode(enum.IntEnum):
    """``AscendC::DeQuantMode``: how ``AscendDequant`` reads ``DequantParams{1, n, calCount}``.

    ``DEQUANT_WITH_SINGLE_ROW`` (the default) reads it as ``{n / calCount, calCount, calCount}``
    when ``calCount`` fills whole 32-byte blocks of dstT and divides n;
    ``DEQUANT_WITH_MULTI_ROW`` keeps the one row.

    Examples
    --------
    >>> int(DeQuantMode.DEQUANT_WITH_MULTI_ROW)
    1
    """

    DEQUANT_WITH_SINGLE_ROW = 0
    DEQUANT_WITH_MULTI_ROW = 1


class DequantParams(Struct):
    """``AscendC::DequantParams{m, n, calCount}``: m rows of n int32, the first calCount used.

    Examples
    --------
    >>> DequantParams(4, 8, 4).calCount
    4
    """

    m: uint32_t
    n: uint32_t
    calCount: uint32_t


DEQUANT_TENSOR_PAIRS = ((half, uint64_t), (float32_t, float32_t), (float32_t, bfloat16_t),
                        (bfloat16_t, bfloat16_t), (bfloat16_t, float32_t))  # fmt: skip
"""(dstT, scaleT) of a deqScale tensor (AscendDequant.md 表5)."""
DEQUANT_SCALAR_PAIRS = ((bfloat16_t, bfloat16_t), (bfloat16_t, float32_t), (float32_t, bfloat16_t),
                        (float32_t, float32_t))  # fmt: skip
"""(dstT, scaleT) of a scalar deqScale (the 950's implementation; the page lists the first two)."""
SRC_BLOCK = DATA_BLOCK // 4
"""``params.n`` is a multiple of 8: an int32 row fills whole 32-byte blocks."""


def dequant_rows(call: str, t: TemplateArgs, dst: Any, src: Any, scale: Any,
                  params: tuple[int, int, int]) -> None:  # fmt: skip
    m, n, count = params
    block = DATA_BLOCK // t.dstT.size
    single = t.mode is DeQuantMode.DEQUANT_WITH_SINGLE_ROW and m == 1
    if single and count and n % count == 0 and count % block == 0:
        m, n = n // count, count
    if n % SRC_BLOCK or not 0 < count <= n:
        raise AscregError(
            f"DequantParams{{m={m}, n={n}, calCount={count}}}: n must be a multiple of "
            f"{SRC_BLOCK} and 0 < calCount <= n",
            call=call,
        )
    check_count(call, "m * n", m * n, ("srcTensor", src))
    inner = -(-n // block) * block
    check_count(call, "m * (n rounded up to 32 bytes of dstT)", m * inner, ("dstTensor", dst))
    if is_tensor(scale):
        check_count(call, "calCount", count, ("deqScale", scale))
        if t.scaleT is uint64_t:
            words = read(scale, count).astype(np.uint64) & np.uint64(0xFFFFFFFF)
            scales: Any = words.astype(np.uint32).view(np.float32)
        else:
            scales = read(scale, count).astype(np.float32)
    else:
        scales = np.float32(c_cast(float32_t, c_cast(t.scaleT, scale)))
    values = read(src, m * n).reshape(m, n)[:, :count]
    result = quant.dequant(values, scales, t.dstT)
    for row in range(m):
        write(dst, result[row], row * inner)


def _dequant(t: TemplateArgs, *args: Any) -> None:
    call = f"AscendDequant<{t.dstT.cpp_name}, {t.scaleT.cpp_name}>"
    dst, src, scale = args[0], args[1], args[2]
    rest = args[3:]
    if rest and is_tensor(rest[0], uint8_t):
        check_tmp(call, rest[0])
        rest = rest[1:]
    pairs = DEQUANT_TENSOR_PAIRS if is_tensor(scale) else DEQUANT_SCALAR_PAIRS
    if (t.dstT, t.scaleT) not in pairs:
        raise IllegalDtypeError(
            f"dstT = {t.dstT.cpp_name} with scaleT = {t.scaleT.cpp_name} is not supported "
            f"(legal: {', '.join(f'{d.cpp_name}/{s.cpp_name}' for d, s in pairs)})",
            call=call,
        )
    check_tensor(call, "dstTensor", dst, t.dstT)
    check_tensor(call, "srcTensor", src, int32_t)
    if is_tensor(scale):
        check_tensor(call, "deqScale", scale, t.scaleT)
    if len(rest) == 1 and isinstance(rest[0], DequantParams):
        given: Any = rest[0]  # (its fields are numpy scalars at run time)
        params = (int(given.m), int(given.n), int(given.calCount))
    elif is_tensor(scale) and len(rest) <= 1 and all(is_count(a) for a in rest):
        size, width = src.GetSize(), scale.GetSize()
        if not width or size % width:
            raise AscregError(
                f"without DequantParams, srcTensor's {size} elements must be a multiple of "
                f"deqScale's {width}",
                call=call,
            )
        if rest:  # the deprecated calCount: checked, then unused on the 950 (whole rows)
            check_count(call, "calCount", rest[0], ("srcTensor", src))
        params = (size // width, width, width)
    else:
        raise AscregTypeError(
            "AscendDequant takes DequantParams after deqScale (a deqScale tensor also takes a "
            "calCount or nothing)",
            call=call,
        )
    dequant_rows(call, t, dst, src, scale, params)


def _scale_type(value: Any) -> Any:
    if is_tensor(value):
        return tensor_dtype(value)
    return bfloat16_t if getattr(value, "dtype", None) == bfloat16_t.np_dtype else float32_t


AscendDequant = AdvancedApi(
    "AscendDequant",
    """``AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, [tmp], params)``: int32 rows to float.

    Row i of ``DequantParams{m, n, calCount}``: ``dst[i * n_dst + j] = cast(float(src[i * n
    + j]) * deqScale[j])`` (or the scalar deqScale) for ``j < calCount``, n_dst being n
    rounded up to whole 32-byte blocks of dstT; the rest of each dst row is not written. The
    int32 -> float cast rounds half away from zero, the product is float, half / bfloat16
    round to nearest even and saturate; a uint64_t deqScale gives the float in its low 32
    bits. Without params the rows are deqScale's size: ``{src size / s, s, s}`` (a deprecated
    calCount is ignored by the 950). (dstT, scaleT): half/uint64_t, float/float,
    float/bfloat16_t, bfloat16_t/bfloat16_t, bfloat16_t/float; a scalar deqScale:
    bfloat16_t or float destination, bfloat16_t or float scale.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, int32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[int32_t](TPosition.VECCALC, 0, 16)
    ...     s = LocalTensor[float32_t](TPosition.VECCALC, 64, 8)
    ...     y = LocalTensor[float32_t](TPosition.VECCALC, 128, 16)
    ...     x.GetPhyAddr().write(np.arange(16, dtype=np.int32)); s.GetPhyAddr().write(np.full(8, 0.5, np.float32))
    ...     ctx.tracker.barrier()
    ...     AscendDequant(y, x, s, DequantParams(2, 8, 8)); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(16)[[1, 9, 15]].tolist()
    [0.5, 4.5, 7.5]
    """,
    [
        Overload(
            (
                Param("dstT", TYPENAME),
                Param("scaleT", TYPENAME),
                Param("mode", DeQuantMode, DeQuantMode.DEQUANT_WITH_SINGLE_ROW),
            ),
            _dequant,
            lambda a: 3 <= len(a) <= 5 and is_tensor(a[0]) and is_tensor(a[1]),
            lambda a: {"dstT": tensor_dtype(a[0]), "scaleT": _scale_type(a[2])},
        )
    ],
)


# -- AscendAntiQuant ---------------------------------------------------------------------------


class AntiQuantShapeInfo(Struct):
    """``AscendC::AntiQuantShapeInfo``: the offset / scale shapes of a PER_CHANNEL AscendAntiQuant.

    Examples
    --------
    >>> AntiQuantShapeInfo().scaleWidth
    0
    """

    offsetHeight: uint32_t
    offsetWidth: uint32_t
    scaleHeight: uint32_t
    scaleWidth: uint32_t


ANTIQUANT_SRC_TYPES = (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t)
"""Sources of the 950's PER_TENSOR AscendAntiQuant (its static_assert)."""
ANTIQUANT_DST_TYPES = (half, bfloat16_t)


def _antiquant_channel(call: str, t: TemplateArgs, dst: Any, src: Any, offset: Any, scale: Any,
                       info: Any) -> None:  # fmt: skip
    src_t, dst_t = t.InputDataType, t.OutputDataType
    if t.isTranspose:
        raise AscregTypeError(
            "the transposed PER_CHANNEL form (isTranspose = true) is not emulated yet", call=call
        )
    check_tensor(call, "offset", offset, dst_t)
    check_tensor(call, "scale", scale, dst_t)
    given: Any = info
    n = int(given.offsetWidth) if given is not None and int(given.offsetWidth) else offset.GetSize()
    if n < PER_CHANNEL_ALIGN:
        raise AscregTypeError(
            f"a row of {n} elements (< 32, the 950's unaligned path) is not emulated yet", call=call
        )
    size = src.GetSize()
    if size % n:
        raise AscregError(f"src's {size} elements are not whole rows of {n}", call=call)
    check_count(call, "n (offset's width)", n, ("offset", offset), ("scale", scale))
    check_count(call, "src.GetSize()", size, ("dst", dst))
    values = read(src, size).reshape(-1, n)
    result = quant.antiquant_channel(values, src_t, dst_t, read(offset, n), read(scale, n))
    write(dst, result.reshape(-1))


def _antiquant(t: TemplateArgs, *args: Any) -> None:
    src_t, dst_t = t.InputDataType, t.OutputDataType
    call = (
        f"AscendAntiQuant<{src_t.cpp_name}, {dst_t.cpp_name}, {str(bool(t.isTranspose)).lower()}>"
    )
    check_dtype(call, "InputDataType", src_t, ANTIQUANT_SRC_TYPES)
    check_dtype(call, "OutputDataType", dst_t, ANTIQUANT_DST_TYPES)
    dst, src, rest = args[0], args[1], list(args[2:])
    check_tensor(call, "dst", dst, dst_t)
    check_tensor(call, "src", src, src_t)
    info = rest.pop() if rest and isinstance(rest[-1], AntiQuantShapeInfo) else None
    if len(rest) == 4 and is_tensor(rest[2], uint8_t):
        check_tmp(call, rest.pop(2))
    if len(rest) == 3 and is_tensor(rest[0]) and is_tensor(rest[1]) and is_count(rest[2]):
        _antiquant_channel(call, t, dst, src, rest[0], rest[1], info)
        return
    if len(rest) != 3 or any(is_tensor(a) for a in rest) or not is_count(rest[2]):
        raise AscregTypeError(
            "ascreg emulates (dst, src, offset, scale, [sharedTmpBuffer], k[, shapeInfo]) with "
            "scalar (PER_TENSOR) or tensor (PER_CHANNEL) offset and scale; the scale-only "
            "forms are not emulated yet",
            call=call,
        )
    offset, scale = c_cast(dst_t, rest[0]), c_cast(dst_t, rest[1])
    n = check_count(call, "src.GetSize()", src.GetSize(), ("dst", dst))
    write(dst, quant.antiquant(read(src, n), src_t, dst_t, offset, scale))


AscendAntiQuant = AdvancedApi(
    "AscendAntiQuant",
    """``AscendAntiQuant<InputDataType, OutputDataType, isTranspose>``: ``(src + offset) * scale``.

    The PER_TENSOR form ``(dst, src, offset, scale, [sharedTmpBuffer], k[, shapeInfo])`` over
    the whole of src (k and shapeInfo do not change it on the 950), offset and scale values of
    OutputDataType: ``ascreg.core.quant.antiquant``. The PER_CHANNEL form takes offset and
    scale tensors of OutputDataType, one value per column: src is ``[k, n]`` rows, n being
    ``shapeInfo.offsetWidth`` or else offset's size (ascreg's stand-in for the tensor's shape
    info), isTranspose false and n >= 32 (``ascreg.core.quant.antiquant_channel``).
    InputDataType: int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t; OutputDataType: half,
    bfloat16_t. The transposed and n < 32 PER_CHANNEL paths, the scale-only and PER_TOKEN /
    PER_GROUP forms are not emulated yet.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int8_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x = LocalTensor[int8_t](TPosition.VECCALC, 0, 32)
    ...     y = LocalTensor[half](TPosition.VECCALC, 64, 32)
    ...     x.GetPhyAddr().write(np.arange(-16, 16, dtype=np.int8)); ctx.tracker.barrier()
    ...     AscendAntiQuant[int8_t, half, False](y, x, half(2), half(0.5), 1); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(32)[[0, 31]].tolist()
    [-7.0, 8.5]
    """,
    [
        Overload(
            (
                Param("InputDataType", TYPENAME),
                Param("OutputDataType", TYPENAME),
                Param("isTranspose", bool),
            ),
            _antiquant,
            lambda a: 4 <= len(a) <= 7 and is_tensor(a[0]) and is_tensor(a[1]),
            lambda a: {"InputDataType": tensor_dtype(a[1]), "OutputDataType": tensor_dtype(a[0])},
        )
    ],
)

"""The advanced API's normalizations on LocalTensors (归一化操作).

``WelfordUpdate``, ``WelfordFinalize``, ``Normalize``, ``LayerNorm`` (the ``[A, R]`` form with
``LayerNormPara`` and ``LayerNormSeparateTiling``) and ``RmsNorm``, with their parameter structs
(C layout, :class:`~ascreg.machine.tiling.Struct`: a kernel fills them field by field or reads
them from its tiling), config structs and the host tiling functions ``GetLayerNormNDTilingInfo``
and ``GetRmsNormTilingInfo``. The arithmetic is :mod:`ascreg.core.advnorm` (the dav-3510
implementations' operation order, so the sums are the chip's).

Per-row statistics (``mean``, ``variance``, ``rstd``) are read and written one element at a time
by the implementations (broadcast loads, first-element stores): those tensors need only 4-byte
alignment (production kernels pass ``meanLocal[batchCount]``). ``sharedTmpBuffer`` is checked and
left alone (ascreg needs no scratch; on the chip its content is unspecified afterwards).

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     x = LocalTensor[float32_t](TPosition.VECCALC, 0, 16)
...     y = LocalTensor[float32_t](TPosition.VECCALC, 64, 16)
...     gamma, beta = (LocalTensor[float32_t](TPosition.VECCALC, 128 + 32 * k, 8) for k in range(2))
...     mean, rstd = (LocalTensor[float32_t](TPosition.VECCALC, 192 + 32 * k, 8) for k in range(2))
...     x.GetPhyAddr().write(np.arange(16)); gamma.GetPhyAddr().write(np.ones(8))
...     beta.GetPhyAddr().write(np.zeros(8)); ctx.tracker.barrier()
...     tiling = LayerNormSeparateTiling()
...     GetLayerNormNDTilingInfo((2, 8), 0, 4, False, True, tiling)
...     LayerNorm[float32_t, float32_t](y, mean, rstd, x, gamma, beta, 0.0,
...                                     LayerNormPara(2, 8, 8), tiling)
...     ctx.tracker.barrier()
...     mean.GetPhyAddr().read(2).tolist(), [round(float(v), 4) for v in y.GetPhyAddr().read(4)]
([3.5, 11.5], [-1.5275, -1.0911, -0.6547, -0.2182])
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import bfloat16_t, float32_t, half, int32_t, uint8_t, uint32_t
from ascreg.basic._adv import (
    TYPENAME,
    AdvancedApi,
    Overload,
    Param,
    TemplateArgs,
    check_apart,
    check_dtype,
    check_tensor,
    check_tmp,
    is_tensor,
    read,
    tensor_dtype,
    write,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.core import advmath, advnorm
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError, UnsupportedError
from ascreg.machine.tiling import Struct

__all__ = [
    "LNCFG_NORM",
    "NLCFG_NOBETA",
    "NLCFG_NOGAMMA",
    "NLCFG_NOOPT",
    "NLCFG_NORM",
    "WFFINALIZE_DEFAULT_CFG",
    "WFUPDATE_DEFAULT_CFG",
    "GetLayerNormNDTilingInfo",
    "GetRmsNormTilingInfo",
    "LayerNorm",
    "LayerNormConfig",
    "LayerNormPara",
    "LayerNormSeparateTiling",
    "Normalize",
    "NormalizeConfig",
    "NormalizePara",
    "RmsNorm",
    "RmsNormTiling",
    "WelfordFinalize",
    "WelfordFinalizeConfig",
    "WelfordFinalizePara",
    "WelfordUpdate",
    "WelfordUpdateConfig",
    "WelfordUpdateParam",
]

FLOATS = (half, bfloat16_t, float32_t)
STAT = 4  # the alignment of a per-row statistics tensor (one float at a time)


# -- the parameter and tiling structs ------------------------------------------------------------


class WelfordUpdateParam(Struct):
    """``AscendC::WelfordUpdateParam``: ``{rnLength, abLength, abComputeLength, nRec}``.

    Examples
    --------
    >>> WelfordUpdateParam(1, 64, 60, 0.5).abComputeLength
    60
    """

    rnLength: uint32_t
    abLength: uint32_t
    abComputeLength: uint32_t
    nRec: float32_t


class WelfordFinalizePara(Struct):
    """``AscendC::WelfordFinalizePara`` (the 950's, with ``rRecWithCorrection``).

    Examples
    --------
    >>> WelfordFinalizePara.size
    36
    """

    rnLength: uint32_t
    abLength: uint32_t
    headCount: uint32_t
    headCountLength: uint32_t
    tailCount: uint32_t
    tailCountLength: uint32_t
    abRec: float32_t
    rRec: float32_t
    rRecWithCorrection: float32_t


class LayerNormPara(Struct):
    """``AscendC::LayerNormPara``: ``{aLength, rLength, rLengthWithPadding}``.

    Examples
    --------
    >>> LayerNormPara(4, 30, 32).rLengthWithPadding
    32
    """

    aLength: uint32_t
    rLength: uint32_t
    rLengthWithPadding: uint32_t


class NormalizePara(Struct):
    """``AscendC::NormalizePara``: ``{aLength, rLength, rLengthWithPadding}``.

    Examples
    --------
    >>> NormalizePara(1, 8, 8).rLength
    8
    """

    aLength: uint32_t
    rLength: uint32_t
    rLengthWithPadding: uint32_t


class RmsNormTiling(Struct):
    """``RmsNormTiling`` (``kernel_tiling.h``): what ``GetRmsNormTilingInfo`` computes.

    Examples
    --------
    >>> RmsNormTiling.size
    48
    """

    bLength: uint32_t
    sLength: uint32_t
    hLength: uint32_t
    originalHLength: uint32_t
    reciprocalOfHLength: float32_t
    mainBshLength: uint32_t
    mainBsLength: uint32_t
    mainBsLengthAlign: uint32_t
    loopRound: uint32_t
    inputTailPos: uint32_t
    tailBshLength: uint32_t
    tailBsLength: uint32_t


class LayerNormSeparateTiling(Struct):
    """``LayerNormSeparateTiling`` (``kernel_tiling.h``): ``GetLayerNormNDTilingInfo``'s result.

    On the 950 ``LayerNorm`` reads ``rLength``, ``rHeadLength``, ``k2Rec`` and ``k2RRec``.

    Examples
    --------
    >>> LayerNormSeparateTiling.size
    104
    """

    aLength: uint32_t
    rLength: uint32_t
    halfAddRepeatTimes: uint32_t
    rHeadLength: uint32_t
    k2Rec: float32_t
    k2RRec: float32_t
    inputXSize: uint32_t
    meanVarSize: uint32_t
    numberOfTmpBuf: uint32_t
    varianceTmpTensorPos: uint32_t
    varianceTmpTensorSize: uint32_t
    tmpBufSize: uint32_t
    oneTmpSize: uint32_t
    firstTmpStartPos: uint32_t
    secondTmpStartPos: uint32_t
    thirdTmpStartPos: uint32_t
    loopRound: uint32_t
    inputRoundSize: uint32_t
    inputTailSize: uint32_t
    inputTailPos: uint32_t
    meanVarRoundSize: uint32_t
    meanVarTailSize: uint32_t
    meanVarTailPos: uint32_t
    arCurLength: uint32_t
    aCurLength: uint32_t
    rValueBack: float32_t


# -- the config structs ------------------------------------------------------------------------


@attrs.frozen
class WelfordUpdateConfig:
    """``AscendC::WelfordUpdateConfig{isInplace}``: copy the statistics the step leaves alone.

    With ``isInplace`` the statistics from ``abLength - AlignUp(abLength - abComputeLength,
    8)`` on are copied from the inputs to the outputs first.

    Examples
    --------
    >>> WelfordUpdateConfig(True).isInplace
    True
    """

    isInplace: bool = False


@attrs.frozen
class WelfordFinalizeConfig:
    """``AscendC::WelfordFinalizeConfig{isCorrection}``: Bessel's correction or not.

    With ``isCorrection`` the variance is scaled by ``rRecWithCorrection`` instead of ``rRec``.

    Examples
    --------
    >>> WelfordFinalizeConfig(True).isCorrection
    True
    """

    isCorrection: bool = False


@attrs.frozen
class LayerNormConfig:
    """``AscendC::LayerNormConfig{isNoBeta, isNoGamma, isOnlyOutput, isOutputRstd}``.

    ``isOutputRstd`` (the default) writes ``1/sqrt(variance + eps)`` to the third operand,
    else the variance; ``isOnlyOutput`` is not supported on the 950.

    Examples
    --------
    >>> LayerNormConfig(True, False, False).isOutputRstd
    True
    """

    isNoBeta: bool = False
    isNoGamma: bool = False
    isOnlyOutput: bool = False
    isOutputRstd: bool = True


class _ReducePattern(enum.Enum):
    """The ``AscendC::ReducePattern`` default of ``NormalizeConfig`` (``AR``)."""

    AR = 0
    RA = 1


def _pattern_name(value: Any) -> str:
    return str(getattr(value, "name", value))


@attrs.frozen
class NormalizeConfig:
    """``AscendC::NormalizeConfig{reducePattern, aLength, isNoBeta, isNoGamma, isOnlyOutput}``.

    ``reducePattern`` is a ``ReducePattern`` member (the 950 supports ``AR`` only); ``aLength``
    -1 or the ``NormalizePara::aLength`` it promises; ``isOnlyOutput`` is not supported.

    Examples
    --------
    >>> NormalizeConfig(aLength=4, isNoBeta=True).isNoGamma
    False
    """

    reducePattern: Any = _ReducePattern.AR
    aLength: int = -1
    isNoBeta: bool = False
    isNoGamma: bool = False
    isOnlyOutput: bool = False


WFUPDATE_DEFAULT_CFG = WelfordUpdateConfig(False)
"""``AscendC::WFUPDATE_DEFAULT_CFG``: ``{false}``."""
WFFINALIZE_DEFAULT_CFG = WelfordFinalizeConfig(False)
"""``AscendC::WFFINALIZE_DEFAULT_CFG``: ``{false}``."""
LNCFG_NORM = LayerNormConfig()
"""``AscendC::LNCFG_NORM``: gamma and beta, rstd out."""
NLCFG_NORM = NormalizeConfig()
"""``AscendC::NLCFG_NORM``: with gamma and beta."""
NLCFG_NOBETA = NormalizeConfig(isNoBeta=True)
"""``AscendC::NLCFG_NOBETA``: gamma only."""
NLCFG_NOGAMMA = NormalizeConfig(isNoGamma=True)
"""``AscendC::NLCFG_NOGAMMA``: beta only."""
NLCFG_NOOPT = NormalizeConfig(isNoBeta=True, isNoGamma=True)
"""``AscendC::NLCFG_NOOPT``: neither."""


# -- helpers -------------------------------------------------------------------------------------


def _need(call: str, role: str, tensor: LocalTensor[Any], count: int) -> None:
    if count > tensor.GetSize():
        raise OutOfBoundsError(
            f"{role} needs {count} elements, {tensor._cpp()} has {tensor.GetSize()}", call=call
        )


def _struct(call: str, role: str, value: Any, kind: type[Struct]) -> Any:
    if not isinstance(value, kind):
        raise AscregTypeError(f"{role} must be a {kind.__name__}, got {value!r:.60}", call=call)
    return value


def _read_rows(tensor: LocalTensor[Any], rows: Sequence[int], stride: int, count: int) -> Any:
    """Read *count* elements of each row *rows* (row r at ``r * stride``) on ``PIPE_V``."""
    if not len(rows) or not count:
        return np.zeros((len(rows), count), tensor._dtype().np_dtype)
    return np.stack([read(tensor, count, r * stride) for r in rows])


def _write_rows(tensor: LocalTensor[Any], rows: Sequence[int], stride: int, values: Any) -> None:
    for r, row in zip(rows, values, strict=True):
        write(tensor, row, r * stride)


def _stat(call: str, role: str, value: Any, count: int) -> LocalTensor[Any]:
    tensor = check_tensor(call, role, value, float32_t, STAT)
    _need(call, role, tensor, count)
    return tensor


# -- WelfordUpdate -----------------------------------------------------------------------------


def _welford_update_form(args: tuple[Any, ...]) -> bool:
    if len(args) not in (6, 7) or not all(is_tensor(a) for a in args[:5]):
        return False
    return (len(args) == 6 or is_tensor(args[5], uint8_t)) and isinstance(
        args[-1], WelfordUpdateParam
    )


def _welford_update(t: TemplateArgs, *args: Any) -> None:
    config: WelfordUpdateConfig = t.config
    call = f"WelfordUpdate<{t.T.cpp_name}, {t.U.cpp_name}>"
    check_dtype(call, "T", t.T, FLOATS)
    check_dtype(call, "U", t.U, (float32_t,))
    para = args[-1]
    out_mean, out_var, in_mean, in_var = (
        check_tensor(call, role, a, float32_t)
        for role, a in zip(
            ("outputMean", "outputVariance", "inputMean", "inputVariance"), args[:4], strict=True
        )
    )
    x = check_tensor(call, "inputX", args[4], t.T)
    if len(args) == 7:
        check_tmp(call, args[5])
    n = int(para.abComputeLength)
    ab = int(para.abLength)
    if n > ab:
        raise AscregError(f"abComputeLength {n} is more than abLength {ab}", call=call)
    for role, tensor in (("inputX", x), ("inputMean", in_mean), ("inputVariance", in_var),
                         ("outputMean", out_mean), ("outputVariance", out_var)):  # fmt: skip
        _need(call, role, tensor, ab if config.isInplace else n)
    if config.isInplace:
        keep = -(-(ab - n) // 8) * 8
        start = ab - keep
        if start < 0:
            raise AscregError(
                f"isInplace copies AlignUp(abLength - abComputeLength, 8) = {keep} > abLength",
                call=call,
            )
        write(out_mean, read(in_mean, keep, start), start)
        write(out_var, read(in_var, keep, start), start)
    mean, var = advnorm.welford_update(read(x, n), read(in_mean, n), read(in_var, n), para.nRec)
    write(out_mean, mean)
    write(out_var, var)


WelfordUpdate = AdvancedApi(
    "WelfordUpdate",
    """``WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean,
    inputVariance, inputX[, sharedTmpBuffer], para)``: one Welford step on the first
    ``para.abComputeLength`` elements.

    ``tmp = x - mean``, ``mean' = tmp * nRec + mean``, ``M2' = tmp * (x - mean') + M2`` in float
    (two roundings each, :func:`ascreg.core.advnorm.welford_update`); T: half, bfloat16, float;
    U: float. The outputs may be the inputs (the kernels update in place).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     m, v, x = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 8) for k in range(3))
    ...     m.GetPhyAddr().write(np.zeros(8)); v.GetPhyAddr().write(np.zeros(8))
    ...     for step, row in enumerate(([2.0] * 8, [4.0] * 8)):
    ...         x.GetPhyAddr().write(row); ctx.tracker.barrier()
    ...         WelfordUpdate[float32_t, float32_t](m, v, m, v, x, WelfordUpdateParam(step + 1, 8, 8, 1 / (step + 1)))
    ...         ctx.tracker.barrier()
    ...     float(m.GetPhyAddr().read(1)[0]), float(v.GetPhyAddr().read(1)[0])
    (3.0, 2.0)
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("U", TYPENAME, float32_t),
                Param("isReuseSource", bool, False),
                Param("config", WelfordUpdateConfig, WFUPDATE_DEFAULT_CFG),
            ),
            _welford_update,
            _welford_update_form,
            lambda a: {"T": tensor_dtype(a[4]), "U": tensor_dtype(a[0])},
        )
    ],
)


# -- WelfordFinalize ---------------------------------------------------------------------------


def _welford_finalize_form(args: tuple[Any, ...]) -> bool:
    if not 5 <= len(args) <= 7 or not all(is_tensor(a, float32_t) for a in args[:4]):
        return False
    rest = list(args[4:-1])
    if rest and is_tensor(rest[0], int32_t):
        rest.pop(0)
    if rest and is_tensor(rest[0], uint8_t):
        rest.pop(0)
    return not rest and isinstance(args[-1], WelfordFinalizePara)


def _welford_finalize(t: TemplateArgs, *args: Any) -> None:
    config: WelfordFinalizeConfig = t.config
    call = f"WelfordFinalize<{str(bool(t.isReuseSource)).lower()}>"
    para = args[-1]
    out_mean = _stat(call, "outputMean", args[0], 1)
    out_var = _stat(call, "outputVariance", args[1], 1)
    in_mean = check_tensor(call, "inputMean", args[2], float32_t)
    in_var = check_tensor(call, "inputVariance", args[3], float32_t)
    rest = list(args[4:-1])
    counts = rest.pop(0) if rest and is_tensor(rest[0], int32_t) else None
    if rest:
        check_tmp(call, rest[0])
    ab = int(para.abLength)
    if ab == 0 or ab * 4 % 32:
        raise AscregError(f"abLength {ab} must be a positive multiple of 8 (32 bytes)", call=call)
    if ab != int(para.headCountLength) + int(para.tailCountLength):
        raise AscregError(
            f"abLength {ab} must be headCountLength {para.headCountLength} + tailCountLength "
            f"{para.tailCountLength}",
            call=call,
        )
    no_tail = int(para.tailCount) == 0 or int(para.tailCountLength) == 0
    n = int(para.headCountLength) if counts is None and no_tail else ab
    for role, tensor in (("inputMean", in_mean), ("inputVariance", in_var)):
        _need(call, role, tensor, n)
    count_values = None
    if counts is not None:
        check_tensor(call, "counts", counts, int32_t)
        _need(call, "counts", counts, n)
        count_values = read(counts, n)
    mean, var = advnorm.welford_finalize(
        read(in_mean, n), read(in_var, n), para, correction=config.isCorrection, counts=count_values
    )
    write(out_mean, np.array([mean], np.float32))
    write(out_var, np.array([var], np.float32))


WelfordFinalize = AdvancedApi(
    "WelfordFinalize",
    """``WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean,
    inputVariance[, counts][, sharedTmpBuffer], para)``: the mean and variance of the whole
    reduction axis from the per-column Welford statistics, into element 0 of the outputs.

    ``para`` is a :class:`WelfordFinalizePara` (``abLength == headCountLength +
    tailCountLength``, a multiple of 8); ``counts`` (int32) weights each column by its own
    sample count; ``WelfordFinalizeConfig{true}`` scales the variance by
    ``rRecWithCorrection``. The sums are the implementation's binary folds
    (:func:`ascreg.core.advnorm.welford_finalize`).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     m, v, om, ov = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 8) for k in range(4))
    ...     m.GetPhyAddr().write(np.arange(8)); v.GetPhyAddr().write(np.ones(8)); ctx.tracker.barrier()
    ...     para = WelfordFinalizePara(2, 8, 2, 8, 0, 0, 1 / 8, 1 / 16, 1 / 15)
    ...     WelfordFinalize(om, ov, m, v, para); ctx.tracker.barrier()
    ...     float(om.GetPhyAddr().read(1)[0]), float(ov.GetPhyAddr().read(1)[0])
    (3.5, 5.75)
    """,
    [
        Overload(
            (
                Param("isReuseSource", bool, False),
                Param("config", WelfordFinalizeConfig, WFFINALIZE_DEFAULT_CFG),
            ),
            _welford_finalize,
            _welford_finalize_form,
        )
    ],
)


# -- Normalize ---------------------------------------------------------------------------------


GAMMA_TYPES = {
    half: (half, float32_t),
    bfloat16_t: (bfloat16_t, float32_t),
    float32_t: (float32_t,),
}
"""The gamma / beta types (U) of each input type (T)."""


def _check_types(call: str, t: TemplateArgs) -> None:
    check_dtype(call, "T", t.T, FLOATS)
    check_dtype(call, "U", t.U, GAMMA_TYPES[t.T])


def _rows_need(call: str, role: str, tensor: LocalTensor[Any], rows: int, r: int, pad: int) -> None:
    if rows:
        _need(call, role, tensor, (rows - 1) * pad + r)


def _normalize_rows(
    call: str,
    t: TemplateArgs,
    tensors: dict[str, LocalTensor[Any]],
    no_gamma: bool,
    no_beta: bool,
    epsilon: Any,
    shape: tuple[int, int, int],
    mean: Any,
    variance: Any,
) -> Any:
    """Normalize the rows of ``tensors['inputX']`` into ``tensors['output']``; return rstd."""
    a, r, pad = shape
    x, out = tensors["inputX"], tensors["output"]
    _rows_need(call, "inputX", x, a, r, pad)
    _rows_need(call, "output", out, a, r, pad)
    gamma = beta = None
    if not no_gamma:
        _need(call, "gamma", tensors["gamma"], r)
        gamma = read(tensors["gamma"], r)
    if not no_beta:
        _need(call, "beta", tensors["beta"], r)
        beta = read(tensors["beta"], r)
    eps = float(np.float32(epsilon))
    rstd = advnorm.rsqrt(advmath.adds(np.asarray(variance, np.float32), eps))
    rows = _read_rows(x, range(a), pad, r)
    y = advnorm.normalize(rows, np.asarray(mean, np.float32), rstd, gamma, beta, t.T.np_dtype)
    _write_rows(out, range(a), pad, y)
    return rstd


def _normalize_form(args: tuple[Any, ...]) -> bool:
    if len(args) not in (9, 10) or not all(is_tensor(a) for a in args[:7]):
        return False
    if len(args) == 10 and not is_tensor(args[7], uint8_t):
        return False
    return not is_tensor(args[-2]) and isinstance(args[-1], NormalizePara)


def _check_config(call: str, config: Any, a: int, r: int, pad: int) -> None:
    if r > pad:
        raise AscregError(f"rLength {r} is more than rLengthWithPadding {pad}", call=call)
    if config.isOnlyOutput:
        raise UnsupportedError("isOnlyOutput = true is not supported on the 950", call=call)
    if _pattern_name(getattr(config, "reducePattern", "AR")) != "AR":
        raise UnsupportedError(
            f"reducePattern {_pattern_name(config.reducePattern)}: the 950 supports "
            "ReducePattern::AR only",
            call=call,
        )
    promised = int(getattr(config, "aLength", -1))
    if promised != -1 and promised != a:
        raise AscregError(f"config.aLength {promised} does not match aLength {a}", call=call)


def _normalize(t: TemplateArgs, *args: Any) -> None:
    config: NormalizeConfig = t.config
    call = f"Normalize<{t.U.cpp_name}, {t.T.cpp_name}>"
    _check_types(call, t)
    para = args[-1]
    a, r, pad = int(para.aLength), int(para.rLength), int(para.rLengthWithPadding)
    _check_config(call, config, a, r, pad)
    tensors = {
        "output": check_tensor(call, "output", args[0], t.T),
        "inputX": check_tensor(call, "inputX", args[4], t.T),
        "gamma": check_tensor(call, "gamma", args[5], t.U),
        "beta": check_tensor(call, "beta", args[6], t.U),
    }
    rstd_out = _stat(call, "outputRstd", args[1], a)
    mean = read(_stat(call, "inputMean", args[2], a), a)
    variance = read(_stat(call, "inputVariance", args[3], a), a)
    if len(args) == 10:
        check_tmp(call, args[7])
    rstd = _normalize_rows(
        call, t, tensors, config.isNoGamma, config.isNoBeta, args[-2], (a, r, pad), mean, variance
    )
    write(rstd_out, rstd)


Normalize = AdvancedApi(
    "Normalize",
    """``Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance,
    inputX, gamma, beta[, sharedTmpBuffer], epsilon, para)``: ``rstd = 1/sqrt(var + eps)`` per
    row and ``(x - mean) * rstd * gamma + beta`` per element.

    ``para`` is a :class:`NormalizePara` (rows of ``rLengthWithPadding`` elements, the first
    ``rLength`` used); ``config`` (``NLCFG_NORM``, ``NLCFG_NOBETA``, ``NLCFG_NOGAMMA``,
    ``NLCFG_NOOPT``) drops gamma or beta. In float: ``Adds``, the Newton-refined reciprocal
    square root of the implementation (:func:`ascreg.core.advnorm.rsqrt`), ``Sub``, ``Mul``,
    then ``gamma * y + beta`` fused. T: half, bfloat16, float; U: T or float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x, y, g, b, m, v, r = (LocalTensor[float32_t](TPosition.VECCALC, 32 * k, 8) for k in range(7))
    ...     x.GetPhyAddr().write(np.arange(8)); m.GetPhyAddr().write([3.5]); v.GetPhyAddr().write([4.0])
    ...     g.GetPhyAddr().write(np.full(8, 2.0)); b.GetPhyAddr().write(np.ones(8)); ctx.tracker.barrier()
    ...     Normalize[float32_t, float32_t](y, r, m, v, x, g, b, 0.0, NormalizePara(1, 8, 8))
    ...     ctx.tracker.barrier(); y.GetPhyAddr().read(8).tolist(), float(r.GetPhyAddr().read(1)[0])
    ([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5], 0.5)
    """,
    [
        Overload(
            (
                Param("U", TYPENAME),
                Param("T", TYPENAME),
                Param("isReuseSource", bool, False),
                Param("config", NormalizeConfig, NLCFG_NORM),
            ),
            _normalize,
            _normalize_form,
            lambda a: {"U": tensor_dtype(a[5]), "T": tensor_dtype(a[0])},
        )
    ],
)


# -- LayerNorm ---------------------------------------------------------------------------------


def _layernorm_form(args: tuple[Any, ...]) -> bool:
    if len(args) not in (9, 10) or not all(is_tensor(a) for a in args[:6]):
        return False
    if len(args) == 10 and not is_tensor(args[7], uint8_t):
        return False
    return isinstance(args[-2], LayerNormPara) and isinstance(args[-1], LayerNormSeparateTiling)


def _layernorm(t: TemplateArgs, *args: Any) -> None:
    config: LayerNormConfig = t.config
    call = f"LayerNorm<{t.U.cpp_name}, {t.T.cpp_name}>"
    _check_types(call, t)
    para, tiling = args[-2], args[-1]
    a, pad = int(para.aLength), int(para.rLengthWithPadding)
    r = int(tiling.rLength)  # the 950 takes R from the tiling (para.rLength is not read)
    _check_config(call, config, a, r, pad)
    head = int(tiling.rHeadLength)
    if r == 0:
        raise AscregError("tiling.rLength is 0 (fill it with GetLayerNormNDTilingInfo)", call=call)
    if r > 2 * advnorm.VL and (head & (head - 1) or not r < 2 * head <= 2 * r):
        raise AscregError(
            f"tiling.rHeadLength {head} must be the largest power of two not above rLength {r}",
            call=call,
        )
    tensors = {
        "output": check_tensor(call, "output", args[0], t.T),
        "inputX": check_tensor(call, "inputX", args[3], t.T),
        "gamma": check_tensor(call, "gamma", args[4], t.U),
        "beta": check_tensor(call, "beta", args[5], t.U),
    }
    mean_out = _stat(call, "outputMean", args[1], a)
    second = _stat(call, "outputRstd" if config.isOutputRstd else "outputVariance", args[2], a)
    if len(args) == 10:
        check_tmp(call, args[7])
    if r > 2 * advnorm.VL and a:  # the mean / variance partial sums are stored in output
        span = (a - 1) * pad + r
        check_apart(call, ("output", tensors["output"], span), ("inputX", tensors["inputX"], span))
    _rows_need(call, "inputX", tensors["inputX"], a, r, pad)
    rows = _read_rows(tensors["inputX"], range(a), pad, r)
    mean, variance = advnorm.layernorm_mean_variance(
        rows.reshape(a, r), head, float(tiling.k2Rec), float(tiling.k2RRec)
    )
    write(mean_out, mean)
    rstd = _normalize_rows(
        call, t, tensors, config.isNoGamma, config.isNoBeta, args[6], (a, r, pad), mean, variance
    )
    write(second, rstd if config.isOutputRstd else variance)


LayerNorm = AdvancedApi(
    "LayerNorm",
    """``LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma,
    beta, epsilon[, sharedTmpBuffer], para, tiling)``: the ``[A, R]`` layer normalization.

    Per row of ``para.aLength`` (``rLengthWithPadding`` apart, ``tiling.rLength`` used): the
    mean and variance as the implementation sums them, each element scaled by ``tiling.k2Rec``
    and the sum by ``tiling.k2RRec`` (:func:`ascreg.core.advnorm.layernorm_mean_variance`),
    then :func:`Normalize`. ``outputRstd`` gets ``1/sqrt(var + eps)``, or the variance with
    ``LayerNormConfig::isOutputRstd = false``. Fill ``tiling`` on the host with
    :func:`GetLayerNormNDTilingInfo`. T: half, bfloat16, float; U: T or float. Beyond 128
    columns the implementation keeps its partial sums in ``output``, so ``output`` must not
    overlap ``inputX``. The ``[B, S, H]`` form with ``LayerNormTiling`` is not modelled.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x, y = (LocalTensor[float32_t](TPosition.VECCALC, 1024 * k, 200) for k in range(2))
    ...     g, b, m, r = (LocalTensor[float32_t](TPosition.VECCALC, 2048 + 1024 * k, 200) for k in range(4))
    ...     x.GetPhyAddr().write(np.arange(200)); ctx.tracker.barrier()
    ...     tiling = LayerNormSeparateTiling(); GetLayerNormNDTilingInfo((1, 200), 0, 4, False, True, tiling)
    ...     LayerNorm[float32_t, float32_t, False, LayerNormConfig(True, True, False, False)](
    ...         y, m, r, x, g, b, 1e-5, LayerNormPara(1, 200, 200), tiling)
    ...     ctx.tracker.barrier(); float(m.GetPhyAddr().read(1)[0]), float(r.GetPhyAddr().read(1)[0])
    (99.5, 3333.25)
    """,
    [
        Overload(
            (
                Param("U", TYPENAME),
                Param("T", TYPENAME),
                Param("isReuseSource", bool, False),
                Param("config", LayerNormConfig, LNCFG_NORM),
            ),
            _layernorm,
            _layernorm_form,
            lambda a: {"U": tensor_dtype(a[4]), "T": tensor_dtype(a[0])},
        )
    ],
)


def GetLayerNormNDTilingInfo(
    srcShape: Sequence[int],
    stackBufferSize: int,
    typeSize: int,
    isReuseSource: bool,
    isComputeRstd: bool,
    tiling: LayerNormSeparateTiling,
) -> None:
    """Host ``AscendC::GetLayerNormNDTilingInfo`` (the 950 branch): fill *tiling* for ``[A, R]``.

    Sets ``rLength`` (the last extent), ``rHeadLength`` (the largest power of two from 64 not
    above it), ``oneTmpSize`` = ``log2(rHeadLength)``, ``k2Rec = 1 / 2^k'`` and ``k2RRec = 2^k'
    / rLength`` with ``2^k'`` the first power of two from ``rHeadLength`` not below ``rLength``.
    *srcShape* is the ``ge::Shape``'s extents; the other arguments are not read on the 950.

    Examples
    --------
    >>> t = LayerNormSeparateTiling(); GetLayerNormNDTilingInfo((8, 200), 0, 4, False, True, t)
    >>> t.rLength, t.rHeadLength, t.oneTmpSize, float(t.k2Rec), float(t.k2RRec)
    (200, 128, 7, 0.00390625, 1.2799999713897705)
    """
    del stackBufferSize, isReuseSource, isComputeRstd
    if not isinstance(tiling, LayerNormSeparateTiling):
        raise AscregTypeError(
            "tiling must be a LayerNormSeparateTiling", call="GetLayerNormNDTilingInfo"
        )
    if typeSize not in (2, 4) or not srcShape:
        raise AscregError(
            f"typeSize {typeSize} / srcShape {tuple(srcShape)}: need 2 or 4 and an extent",
            call="GetLayerNormNDTilingInfo",
        )
    r = int(srcShape[-1])
    align = 32 // typeSize
    padded = -(-r // align) * align
    head = advnorm.VL
    k = int(math.log2(head))
    for i in range(padded):
        if head * 2 > r:
            k += i
            break
        head *= 2
    overflow_k = k + 1 if 2**k < r else k
    overflow = 2**overflow_k
    out: Any = tiling  # fields take Python values (a C assignment)
    out.rLength = r
    out.oneTmpSize = k
    out.rHeadLength = head
    out.k2Rec = np.float32(1) / np.float32(overflow)
    out.k2RRec = np.float32(overflow) / np.float32(r)


# -- RmsNorm -----------------------------------------------------------------------------------


def _rmsnorm_form(args: tuple[Any, ...]) -> bool:
    if len(args) not in (5, 6) or not all(is_tensor(a) for a in args[:3]):
        return False
    if len(args) == 6 and not is_tensor(args[3], uint8_t):
        return False
    return not is_tensor(args[-2]) and isinstance(args[-1], RmsNormTiling)


def _rmsnorm_rows(call: str, tiling: Any) -> list[int]:
    """Return the rows (of ``hLength`` elements) the implementation's loops visit, in order."""
    h, main = int(tiling.hLength), int(tiling.mainBsLength)
    if h == 0 or main == 0:
        raise AscregError(
            "tiling.hLength and tiling.mainBsLength must be nonzero (GetRmsNormTilingInfo)",
            call=call,
        )
    rows = [
        i * int(tiling.mainBshLength) // h + j
        for i in range(int(tiling.loopRound))
        for j in range(main)
    ]
    tail_rows = int(tiling.tailBsLength)
    first = int(tiling.inputTailPos) // h
    rows += [first + j for j in range(tail_rows)] if tail_rows else []
    return list(dict.fromkeys(rows))


def _rmsnorm(t: TemplateArgs, *args: Any) -> None:
    call = f"RmsNorm<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, (half, float32_t))
    tiling = _struct(call, "tiling", args[-1], RmsNormTiling)
    dst = check_tensor(call, "dstLocal", args[0], t.T)
    src = check_tensor(call, "srcLocal", args[1], t.T)
    gamma = check_tensor(call, "gammaLocal", args[2], t.T)
    if len(args) == 6:
        check_tmp(call, args[3])
    h, n = int(tiling.hLength), int(tiling.originalHLength)
    if n > h:
        raise AscregError(f"originalHLength {n} is more than hLength {h}", call=call)
    rows = _rmsnorm_rows(call, tiling)
    if not rows or not n:
        return
    for role, tensor in (("srcLocal", src), ("dstLocal", dst)):
        _need(call, role, tensor, max(rows) * h + n)
    _need(call, "gammaLocal", gamma, n)
    epsilon = float(np.float32(t.T.np_dtype.type(args[-2])))
    y = advnorm.rmsnorm(
        _read_rows(src, rows, h, n), read(gamma, n), float(tiling.reciprocalOfHLength), epsilon,
        t.T.np_dtype,
    )  # fmt: skip
    _write_rows(dst, rows, h, y)


RmsNorm = AdvancedApi(
    "RmsNorm",
    """``RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal[, sharedTmpBuffer], epsilon,
    tiling)``: ``x / sqrt(mean(x^2) + eps) * gamma`` over each row of ``[B, S, H]``.

    The rows are the ones the tiling's loops visit (``loopRound`` rounds of ``mainBsLength``
    rows, then ``tailBsLength`` rows from ``inputTailPos``), ``hLength`` apart, of
    ``originalHLength`` elements; fill ``tiling`` with :func:`GetRmsNormTilingInfo`. In float
    (:func:`ascreg.core.advnorm.rmsnorm`): squares added lane-wise per 64, one register
    ``ReduceSum``, ``* reciprocalOfHLength + eps``, then ``exp(-0.5 ln(.))``. T: half, float
    (``epsilon`` is a T).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x, y, g = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 16) for k in range(3))
    ...     x.GetPhyAddr().write([3.0, 4.0] + [0.0] * 14)
    ...     g.GetPhyAddr().write(np.ones(16)); ctx.tracker.barrier()
    ...     tiling = RmsNormTiling()
    ...     ok = GetRmsNormTilingInfo((1, 2, 8), (1, 2, 8), 1024, 4, tiling)
    ...     RmsNorm(y, x, g, 1e-30, tiling); ctx.tracker.barrier()
    ...     ok, y.GetPhyAddr().read(2).tolist(), int(tiling.mainBsLength)
    (True, [1.6970561742782593, 2.2627415657043457], 2)
    """,
    [
        Overload(
            (Param("T", TYPENAME), Param("isBasicBlock", bool, False)),
            _rmsnorm,
            _rmsnorm_form,
            lambda a: {"T": tensor_dtype(a[0])},
        )
    ],
)


def GetRmsNormTilingInfo(
    srcShape: Sequence[int],
    originSrcShape: Sequence[int],
    stackBufferByteSize: int,
    typeSize: int,
    tiling: RmsNormTiling,
    isBasicBlock: bool = False,
) -> bool:
    """Host ``AscendC::GetRmsNormTilingInfo``: fill *tiling* for ``[B, S, H]``; False if it can't.

    The shapes are ``(B, S, H)`` and ``(B, S, originalH)``; ``H * typeSize`` must be a multiple
    of 32 and the buffer at least ``GetRmsNormMinTmpSize``. The rows per round grow while
    ``(rows + 1) * H * coeff + AlignUp(rows + 1, 8)`` floats fit (coeff 2 for half), capped by
    the input and 255 (or, for basic blocks, a multiple of 8).

    Examples
    --------
    >>> t = RmsNormTiling()
    >>> GetRmsNormTilingInfo((2, 3, 16), (2, 3, 13), 1024, 4, t)
    True
    >>> t.mainBsLength, t.loopRound, t.tailBsLength, t.inputTailPos, float(t.reciprocalOfHLength)
    (6, 1, 0, 96, 0.07692307978868484)
    """
    if not isinstance(tiling, RmsNormTiling):
        raise AscregTypeError("tiling must be a RmsNormTiling", call="GetRmsNormTilingInfo")
    if len(srcShape) != 3 or len(originSrcShape) != 3 or typeSize not in (2, 4):
        return False
    b, s, h = (int(v) for v in srcShape)
    ob, os_, oh = (int(v) for v in originSrcShape)
    if b != ob or s != os_ or h < oh or oh == 0 or h * typeSize % 32:
        return False
    if isBasicBlock and (h % 64 or b * s % 8 or h >= 2048):
        return False
    coeff = 1 if typeSize == 4 else 2
    if stackBufferByteSize < (h * coeff + 8) * 4:
        return False
    total = stackBufferByteSize // 4
    rows = 1
    while total >= (rows + 1) * h * coeff + -(-(rows + 1) // 8) * 8:
        rows += 1
    size = min(rows * h, b * s * h)
    rows = size // h
    if isBasicBlock:
        rows = rows if rows < 8 else rows // 8 * 8
    elif rows > 255:
        rows = 255
    size = rows * h
    out: Any = tiling  # fields take Python values (a C assignment)
    out.bLength, out.sLength, out.hLength = b, s, h
    out.originalHLength = oh
    out.reciprocalOfHLength = np.float32(1.0 / float(np.float32(oh)))
    out.mainBshLength = size
    out.mainBsLength = rows
    out.mainBsLengthAlign = -(-rows // 8) * 8
    out.loopRound = b * s * h // size
    tail = b * s * h % size
    out.tailBshLength = tail
    out.inputTailPos = b * s * h - tail
    out.tailBsLength = tail // h
    return True

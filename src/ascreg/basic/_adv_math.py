"""The advanced API's element-wise math on LocalTensors (数学计算, 激活函数): one table, one loop.

Every function reads the first *calCount* elements of its sources on ``PIPE_V``, applies its
lane function (:mod:`ascreg.core.advmath`, the dav-3510 implementation re-expressed) and writes
the destination. The C++ template parameter lists are kept (``Ceil<T, isReuseSource>``,
``Rint<config, T>``, ``IsFinite<T, U>``); ``sharedTmpBuffer`` is accepted and checked (ascreg
needs no scratch); where the header declares a form without ``calCount`` it is the source's
size.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     x = LocalTensor[half](TPosition.VECCALC, 0, 16)
...     y = LocalTensor[half](TPosition.VECCALC, 64, 16)
...     x.GetPhyAddr().write(np.linspace(-2, 2, 16)); ctx.tracker.barrier()
...     Ceil(y, x, 16); ctx.tracker.barrier()
...     y.GetPhyAddr().read(4).tolist()
[-2.0, -1.0, -1.0, -1.0]
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
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
from ascreg.core import advmath
from ascreg.errors import IllegalDtypeError, UnsupportedError

Lanes = np.ndarray[Any, Any]
FLOATS = (half, float32_t)
INTEGERS = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t)
LOGICAL_SOURCES = (bool_, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float32_t, int64_t, uint64_t)  # fmt: skip


def _config_class(name: str, doc: str) -> type[Any]:
    """Make an ``AscendC::<name>{isReuseSource}`` struct (the reserved-parameter configs)."""
    cls = attrs.make_class(name, {"isReuseSource": attrs.field(default=False)}, frozen=True)
    cls.__module__ = __name__
    cls.__doc__ = (
        f"``AscendC::{name}{{isReuseSource}}``: {doc} (``isReuseSource`` is reserved).\n\n"
        f"Examples\n--------\n>>> {name}().isReuseSource\nFalse\n"
    )
    return cls


_CONFIG_NAMES = {
    "Rint": "RintConfig", "Fma": "FmaConfig", "IsInf": "IsInfConfig", "IsNan": "IsNanConfig",
    "BitwiseAnd": "BitwiseAndConfig", "BitwiseOr": "BitwiseOrConfig",
    "BitwiseXor": "BitwiseXorConfig", "BitwiseNot": "BitwiseNotConfig",
    "LogicalAnd": "LogicalAndConfig", "LogicalOr": "LogicalOrConfig",
    "LogicalXor": "LogicalXorConfig", "LogicalNot": "LogicalNotConfig",
}  # fmt: skip
"""The config-first APIs (``template <const XConfig& config = DEFAULT_X_CONFIG, typename T>``)."""

CONFIGS: dict[str, type[Any]] = {
    api: _config_class(name, f"the ``config`` template argument of ``{api}``")
    for api, name in _CONFIG_NAMES.items()
}


@attrs.frozen
class _Unary:
    """One unary entry of the table: lane function, legal types and the header's forms."""

    name: str
    compute: Callable[[Lanes], Lanes]
    dtypes: tuple[type[Scalar], ...]
    count_optional: bool = True  # the header declares the forms without calCount too
    tmp_form: bool = True  # the header declares the sharedTmpBuffer forms
    config_first: bool = False
    doc: str = ""
    config: Any = None  # a third template parameter: (config class, default, pick)


def _unary_forms(args: tuple[Any, ...], entry: _Unary) -> tuple[Any, Any, Any, Any] | None:
    """Return (dst, src, tmp, count) of ``(dst, src[, tmp][, calCount])``, or None."""
    if len(args) < 2 or not (is_tensor(args[0]) and is_tensor(args[1])):
        return None
    rest = list(args[2:])
    tmp = rest.pop(0) if rest and is_tensor(rest[0], uint8_t) and entry.tmp_form else None
    count = rest.pop(0) if rest and is_count(rest[0]) else None
    if rest or (count is None and not entry.count_optional):
        return None
    return args[0], args[1], tmp, count


def _run_unary(entry: _Unary, t: TemplateArgs, *args: Any) -> None:
    call = f"{entry.name}<{t.T.cpp_name}>"
    compute = entry.compute if entry.config is None else entry.config[2](t.config, call)
    check_dtype(call, "T", t.T, entry.dtypes)
    forms = _unary_forms(args, entry)
    assert forms is not None  # the overload matched these operands
    dst = check_tensor(call, "dstTensor", forms[0], t.T)
    src = check_tensor(call, "srcTensor", forms[1], t.T)
    tmp, count = forms[2], forms[3]
    if tmp is not None:
        check_tmp(call, tmp)
    n = check_count(
        call,
        "calCount",
        src.GetSize() if count is None else count,
        ("srcTensor", src),
        ("dstTensor", dst),
    )
    write(dst, compute(read(src, n)).astype(t.T.np_dtype))


def _unary_api(entry: _Unary) -> AdvancedApi:
    if entry.config_first:
        config = CONFIGS[entry.name]
        params: tuple[Param, ...] = (Param("config", config, config()), Param("T", TYPENAME))
    else:
        params = (Param("T", TYPENAME), Param("isReuseSource", bool, False))
        if entry.config is not None:
            params = (*params, Param("config", entry.config[0], entry.config[1]))
    overload = Overload(
        params,
        lambda t, *args: _run_unary(entry, t, *args),
        lambda args: _unary_forms(args, entry) is not None,
        lambda args: {"T": tensor_dtype(args[1])},
    )
    return AdvancedApi(entry.name, _unary_doc(entry, params), [overload])


def _unary_doc(entry: _Unary, params: Sequence[Param]) -> str:
    forms = "dst, src[, sharedTmpBuffer]" + (
        "[, calCount]" if entry.count_optional else ", calCount"
    )
    example_type = entry.dtypes[-1] if entry.dtypes[-1] in (*FLOATS, int64_t) else int32_t
    data = "np.linspace(-2, 2, 8)" if example_type in FLOATS else "np.arange(-4, 4)"
    values = np.linspace(-2, 2, 8) if example_type in FLOATS else np.arange(-4, 4)
    expected = entry.compute(values.astype(example_type.np_dtype)).tolist()
    subscript = ", ".join(p.name for p in params)
    return (
        f"``{entry.name}<{subscript}>({forms})``: {entry.doc}\n\n"
        f"T: {', '.join(d.cpp_name for d in entry.dtypes)}.\n\n"
        "Examples\n--------\n"
        ">>> import numpy as np\n"
        f">>> from ascreg import {example_type.__name__}\n"
        ">>> from ascreg.basic import LocalTensor, TPosition\n"
        ">>> from ascreg.machine.block import BlockContext, block\n"
        ">>> with block(BlockContext()) as ctx:\n"
        f"...     x = LocalTensor[{example_type.__name__}](TPosition.VECCALC, 0, 8)\n"
        f"...     y = LocalTensor[{example_type.__name__}](TPosition.VECCALC, 64, 8)\n"
        f"...     x.GetPhyAddr().write({data}); ctx.tracker.barrier()\n"
        f"...     {entry.name}(y, x, 8); ctx.tracker.barrier()\n"
        "...     y.GetPhyAddr().read(8).tolist()\n"
        f"{expected}\n"
    )


class SinAlgo(enum.Enum):
    """``AscendC::SinAlgo``: ``POLYNOMIAL_APPROXIMATION`` (the default) or ``RADIAN_REDUCTION``.

    Examples
    --------
    >>> SinAlgo.RADIAN_REDUCTION.value
    1
    """

    POLYNOMIAL_APPROXIMATION = 0
    RADIAN_REDUCTION = 1


class CosAlgo(enum.Enum):
    """``AscendC::CosAlgo``: ``POLYNOMIAL_APPROXIMATION`` (the default) or ``RADIAN_REDUCTION``.

    Examples
    --------
    >>> CosAlgo.POLYNOMIAL_APPROXIMATION.value
    0
    """

    POLYNOMIAL_APPROXIMATION = 0
    RADIAN_REDUCTION = 1


class TanhAlgo(enum.Enum):
    """``AscendC::TanhAlgo``: ``INTRINSIC`` (the default) or ``SUBSECTION_COMPENSATION``.

    Examples
    --------
    >>> TanhAlgo.SUBSECTION_COMPENSATION.value
    1
    """

    INTRINSIC = 0
    SUBSECTION_COMPENSATION = 1


@attrs.frozen
class SinConfig:
    """``AscendC::SinConfig{algo}``: the ``config`` template argument of ``Sin``.

    Examples
    --------
    >>> SinConfig().algo.name
    'POLYNOMIAL_APPROXIMATION'
    """

    algo: SinAlgo = SinAlgo.POLYNOMIAL_APPROXIMATION


@attrs.frozen
class CosConfig:
    """``AscendC::CosConfig{algo}``: the ``config`` template argument of ``Cos``.

    Examples
    --------
    >>> CosConfig(CosAlgo.RADIAN_REDUCTION).algo.value
    1
    """

    algo: CosAlgo = CosAlgo.POLYNOMIAL_APPROXIMATION


@attrs.frozen
class TanhConfig:
    """``AscendC::TanhConfig{algo}``: the ``config`` template argument of ``Tanh``.

    Examples
    --------
    >>> TanhConfig().algo.name
    'INTRINSIC'
    """

    algo: TanhAlgo = TanhAlgo.INTRINSIC


defaultSinConfig = SinConfig()
"""``AscendC::defaultSinConfig``: ``{SinAlgo::POLYNOMIAL_APPROXIMATION}``."""
defaultCosConfig = CosConfig()
"""``AscendC::defaultCosConfig``: ``{CosAlgo::POLYNOMIAL_APPROXIMATION}``."""
DEFAULT_TANH_CONFIG = TanhConfig()
"""``AscendC::DEFAULT_TANH_CONFIG``: ``{TanhAlgo::INTRINSIC}``."""


class AtanAlgo(enum.Enum):
    """``AscendC::AtanAlgo``: ``TAYLOR_EXPANSION`` (the default) or ``POLYNOMIAL_APPROXIMATION``.

    Examples
    --------
    >>> AtanAlgo.POLYNOMIAL_APPROXIMATION.value
    1
    """

    TAYLOR_EXPANSION = 0
    POLYNOMIAL_APPROXIMATION = 1


class ErfAlgo(enum.Enum):
    """``AscendC::ErfAlgo``: ``PADE_APPROXIMATION`` (the default) or the subsection one.

    ``SUBSECTION_POLYNOMIAL_APPROXIMATION`` splits the range at ``|x| = 1.0029``.

    Examples
    --------
    >>> ErfAlgo.SUBSECTION_POLYNOMIAL_APPROXIMATION.value
    1
    """

    PADE_APPROXIMATION = 0
    SUBSECTION_POLYNOMIAL_APPROXIMATION = 1


@attrs.frozen
class AtanConfig:
    """``AscendC::AtanConfig{algo}``: the ``config`` template argument of ``Atan``.

    Examples
    --------
    >>> AtanConfig().algo.name
    'TAYLOR_EXPANSION'
    """

    algo: AtanAlgo = AtanAlgo.TAYLOR_EXPANSION


@attrs.frozen
class ErfConfig:
    """``AscendC::ErfConfig{algo}``: the ``config`` template argument of ``Erf``.

    Examples
    --------
    >>> ErfConfig(ErfAlgo.SUBSECTION_POLYNOMIAL_APPROXIMATION).algo.value
    1
    """

    algo: ErfAlgo = ErfAlgo.PADE_APPROXIMATION


defaultAtanConfig = AtanConfig()
"""``AscendC::defaultAtanConfig``: ``{AtanAlgo::TAYLOR_EXPANSION}``."""
defaultErfConfig = ErfConfig()
"""``AscendC::defaultErfConfig``: ``{ErfAlgo::PADE_APPROXIMATION}``."""


def _radian_reduction_missing(
    name: str, polynomial: Callable[[Lanes], Lanes]
) -> Callable[[Any, str], Any]:
    def pick(config: Any, call: str) -> Callable[[Lanes], Lanes]:
        if config.algo.name == "RADIAN_REDUCTION":
            raise UnsupportedError(
                f"{name}Algo::RADIAN_REDUCTION (the table-driven large-argument reduction of "
                "sincos_3510_impl.h) is not modelled yet; POLYNOMIAL_APPROXIMATION is",
                call=call,
            )
        return polynomial

    return pick


def _tanh_pick(config: Any, call: str) -> Callable[[Lanes], Lanes]:
    return advmath.tanh if config.algo is TanhAlgo.INTRINSIC else advmath.tanh_compensated


def _atan_pick(config: Any, call: str) -> Callable[[Lanes], Lanes]:
    if config.algo is AtanAlgo.TAYLOR_EXPANSION:
        return advmath.atan

    def polynomial(values: Lanes) -> Lanes:
        if values.dtype != np.float32:
            raise IllegalDtypeError(
                "AtanAlgo::POLYNOMIAL_APPROXIMATION supports T = float only", call=call
            )
        return advmath.atan_polynomial(values)

    return polynomial


def _erf_pick(config: Any, call: str) -> Callable[[Lanes], Lanes]:
    return advmath.erf if config.algo is ErfAlgo.PADE_APPROXIMATION else advmath.erf_subsection


UNARY = [
    _Unary("Ceil", advmath.ceil, FLOATS, count_optional=False, doc="round up (``Truncate<T, CAST_CEIL>``)."),
    _Unary("Floor", advmath.floor, FLOATS, count_optional=False, doc="round down (``Truncate<T, CAST_FLOOR>``)."),
    _Unary("Trunc", advmath.trunc, FLOATS, doc="round toward zero (``Truncate<T, CAST_TRUNC>``)."),
    _Unary("Round", advmath.rint, FLOATS, count_optional=False,
           doc="round to the nearest integral value; ties to even on the 950 (``CAST_RINT``)."),
    _Unary("Rint", advmath.rint, FLOATS, count_optional=False, config_first=True,
           doc="round to the nearest integral value, ties to even (``CAST_RINT``)."),
    _Unary("Sign", advmath.sign, (half, float32_t, int64_t),
           doc="-1 for ``x < 0``, 1 for ``x > 0``, else 0 (NaN and -0.0 give +0)."),
    _Unary("Log", advmath.log, FLOATS, tmp_form=False,
           doc="the natural logarithm (the ``Log`` intrinsic on T's lanes)."),
    _Unary("Log2", advmath.log2, FLOATS,
           doc="``Log`` times ``1/ln 2`` in float (half cast up, and back saturating)."),
    _Unary("Log10", advmath.log10, FLOATS, tmp_form=False,
           doc="``Log`` times ``1/ln 10`` in float (half cast up, and back saturating)."),
    _Unary("BitwiseNot", lambda a: advmath.bitwise_op("BitwiseNot", a), INTEGERS,
           count_optional=False, tmp_form=False, config_first=True, doc="every bit inverted."),
    _Unary("Sin", advmath.sin, FLOATS, config=(SinConfig, defaultSinConfig, _radian_reduction_missing("Sin", advmath.sin)),
           doc="the sine: Cody-Waite reduction by pi, then an odd polynomial, in float."),
    _Unary("Cos", advmath.cos, FLOATS, config=(CosConfig, defaultCosConfig, _radian_reduction_missing("Cos", advmath.cos)),
           doc="the cosine: ``sin(x + pi/2)`` by the sine's polynomial, clamped to [-1, 1], in float."),
    _Unary("Tanh", advmath.tanh, FLOATS, config=(TanhConfig, DEFAULT_TANH_CONFIG, _tanh_pick),
           doc="``(e^2x - 1) / (e^2x + 1)`` (x clamped to [-8.8, 8.8]), or with "
               "``SUBSECTION_COMPENSATION`` a polynomial below ``|x| < 0.55``, in float."),
    _Unary("Sinh", advmath.sinh, FLOATS, doc="``e^(x - ln 2) - 0.25 / e^(x - ln 2)`` in float."),
    _Unary("Cosh", advmath.cosh, FLOATS, doc="``e^(x - ln 2) + 0.25 / e^(x - ln 2)`` in float."),
    _Unary("Acosh", advmath.acosh, FLOATS, doc="``ln(x + sqrt(x^2 - 1))`` in float."),
    _Unary("Atanh", advmath.atanh, FLOATS, doc="``0.5 ln((1 + x) / (1 - x))`` in float."),
    _Unary("Sigmoid", advmath.sigmoid, FLOATS, doc="``1 / (1 + e^-x)`` in float."),
    _Unary("Asin", advmath.asin, FLOATS,
           doc="a Taylor series below ``|x| < 1/sqrt 2``, else ``pi/2 - series(sqrt(1 - x^2))``; "
               "half partly on half lanes, as the implementation."),
    _Unary("Acos", advmath.acos, FLOATS, doc="``pi/2 - Asin(x)`` on Asin's lanes."),
    _Unary("Atan", advmath.atan, FLOATS, config=(AtanConfig, defaultAtanConfig, _atan_pick),
           doc="the least of four range-reduced Taylor series (``TAYLOR_EXPANSION``), or a "
               "fused polynomial of ``min(|x|, 1/|x|)`` (``POLYNOMIAL_APPROXIMATION``, float), "
               "in float."),
    _Unary("Tan", advmath.tan, FLOATS,
           doc="reduction by pi in five parts, then ``x P(x^2) / ((pi/2 + x)(x - pi/2) Q)``, "
               "in float (half cast back saturating)."),
    _Unary("Erf", advmath.erf, FLOATS, config=(ErfConfig, defaultErfConfig, _erf_pick),
           doc="``P(c)/Q(c)`` of x clamped to +-3.92 (``PADE_APPROXIMATION``), or a fused "
               "polynomial split at ``|x| = 1.0029`` (``SUBSECTION_POLYNOMIAL_APPROXIMATION``), "
               "in float."),
    _Unary("Erfc", advmath.erfc, FLOATS,
           doc="``e^(-xa^2) (x/xa) R(z)/S(z) + 1 - x/xa`` of x clamped to +-10, in float."),
]  # fmt: skip
"""The unary entries (table order is export order)."""

API: dict[str, AdvancedApi] = {entry.name: _unary_api(entry) for entry in UNARY}

Ceil = API["Ceil"]
Floor = API["Floor"]
Trunc = API["Trunc"]
Round = API["Round"]
Rint = API["Rint"]
Sign = API["Sign"]
Log = API["Log"]
Log2 = API["Log2"]
Log10 = API["Log10"]
BitwiseNot = API["BitwiseNot"]
Sin = API["Sin"]
Cos = API["Cos"]
Tanh = API["Tanh"]
Sinh = API["Sinh"]
Cosh = API["Cosh"]
Acosh = API["Acosh"]
Atanh = API["Atanh"]
Sigmoid = API["Sigmoid"]
Asin = API["Asin"]
Acos = API["Acos"]
Atan = API["Atan"]
Tan = API["Tan"]
Erf = API["Erf"]
Erfc = API["Erfc"]


# -- the other forms ----------------------------------------------------------------------------


def _binary_forms(args: tuple[Any, ...], sources: int) -> tuple[list[Any], Any, Any] | None:
    """Return (tensors, tmp, count) of ``(dst, src0..src{n-1}[, tmp], count)``, or None."""
    tensors = list(args[: 1 + sources])
    rest = list(args[1 + sources :])
    if len(tensors) < 1 + sources or not all(is_tensor(t) for t in tensors):
        return None
    tmp = rest.pop(0) if rest and is_tensor(rest[0], uint8_t) else None
    if len(rest) != 1 or not is_count(rest[0]):
        return None
    return tensors, tmp, rest[0]


def _run(
    call: str,
    dst_type: Any,
    src_type: Any,
    args: tuple[Any, ...],
    sources: int,
    compute: Callable[..., Lanes],
) -> None:
    tensors, tmp, count = _binary_forms(args, sources) or ([], None, 0)
    dst, srcs = tensors[0], tensors[1:]
    check_tensor(call, "dst", dst, dst_type)
    for k, src in enumerate(srcs):
        check_tensor(call, f"src{k}" if sources > 1 else "src", src, src_type)
    if tmp is not None:
        check_tmp(call, tmp)
    n = check_count(
        call, "count", count, ("dst", dst), *((f"src{k}", s) for k, s in enumerate(srcs))
    )
    result = compute(*(read(s, n) for s in srcs))
    write(dst, np.asarray(result).astype(dst_type.np_dtype))


def _fma(t: TemplateArgs, *args: Any) -> None:
    call = f"Fma<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, FLOATS)
    _run(call, t.T, t.T, args, 3, advmath.fma)


Fma = AdvancedApi(
    "Fma",
    """``Fma<config, T>(dst, src0, src1, src2[, sharedTmpBuffer], count)``: ``src0 * src1 + src2``
    rounded once (``FusedMulDstAdd``); T: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     a, b, c, d = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 8) for k in range(4))
    ...     for t, v in ((a, 1 + 2.0**-12), (b, 1 - 2.0**-12), (c, -1.0)):
    ...         t.GetPhyAddr().write(np.full(8, v))
    ...     ctx.tracker.barrier(); Fma(d, a, b, c, 8); ctx.tracker.barrier()
    ...     float(d.GetPhyAddr().read(1)[0]) == -2.0**-24
    True
    """,
    [
        Overload(
            (Param("config", CONFIGS["Fma"], CONFIGS["Fma"]()), Param("T", TYPENAME)),
            _fma,
            lambda a: _binary_forms(a, 3) is not None,
            lambda a: {"T": tensor_dtype(a[1])},
        )
    ],
)


def _bitwise_api(name: str) -> AdvancedApi:
    config = CONFIGS[name]

    def run(t: TemplateArgs, *args: Any) -> None:
        call = f"{name}<{t.T.cpp_name}>"
        check_dtype(call, "T", t.T, INTEGERS)
        _run(call, t.T, t.T, args, 2, lambda a, b: advmath.bitwise_op(name, a, b))

    op = advmath.BITWISE[name]
    return AdvancedApi(
        name,
        f"""``{name}<config, T>(dst, src0, src1, count)``: the bitwise {op.upper()} of integer lanes.

        T: {", ".join(d.cpp_name for d in INTEGERS)}.

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import int16_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()) as ctx:
        ...     a, b, c = (LocalTensor[int16_t](TPosition.VECCALC, 64 * k, 4) for k in range(3))
        ...     a.GetPhyAddr().write([12, -1, 5, 0]); b.GetPhyAddr().write([10, 3, -6, 7])
        ...     ctx.tracker.barrier(); {name}(c, a, b, 4); ctx.tracker.barrier()
        ...     c.GetPhyAddr().read(4).tolist()
        {advmath.bitwise_op(name, np.array([12, -1, 5, 0], np.int16), np.array([10, 3, -6, 7], np.int16)).tolist()}
        """,
        [
            Overload(
                (Param("config", config, config()), Param("T", TYPENAME)),
                run,
                lambda a: _binary_forms(a, 2) is not None and len(a) == 4,
                lambda a: {"T": tensor_dtype(a[1])},
            )
        ],
    )


BitwiseAnd = _bitwise_api("BitwiseAnd")
BitwiseOr = _bitwise_api("BitwiseOr")
BitwiseXor = _bitwise_api("BitwiseXor")


def _logical_api(name: str, sources: int) -> AdvancedApi:
    config = CONFIGS[name]

    def run(t: TemplateArgs, *args: Any) -> None:
        call = f"{name}<{t.T.cpp_name}, {t.U.cpp_name}>"
        check_dtype(call, "T", t.T, (bool_,))
        check_dtype(call, "U", t.U, LOGICAL_SOURCES)
        if sources == 1:
            _run(call, t.T, t.U, args, 1, lambda a: ~advmath.truth(a))
        else:
            _run(call, t.T, t.U, args, 2,
                 lambda a, b: advmath.LOGICAL[name](advmath.truth(a), advmath.truth(b)))  # fmt: skip

    what = "NOT" if sources == 1 else name.removeprefix("Logical").upper()
    operands = "src" if sources == 1 else "src0, src1"
    return AdvancedApi(
        name,
        f"""``{name}<config, T, U>(dst, {operands}, count)``: the logical {what} of the sources'
        truth values (nonzero; -0.0 is zero, NaN is not) into bool lanes (T: bool).

        U: {", ".join(d.cpp_name for d in LOGICAL_SOURCES)}.

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import bool_, float32_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()) as ctx:
        ...     a, b = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 4) for k in range(2))
        ...     r = LocalTensor[bool_](TPosition.VECCALC, 128, 4)
        ...     a.GetPhyAddr().write([0.0, -0.0, np.nan, 2.0]); b.GetPhyAddr().write([1.0, 1.0, 1.0, 0.0])
        ...     ctx.tracker.barrier(); {name}(r, {"a" if sources == 1 else "a, b"}, 4); ctx.tracker.barrier()
        ...     r.GetPhyAddr().read(4).tolist()
        {_logical_example(name, sources)}
        """,
        [
            Overload(
                (Param("config", config, config()), Param("T", TYPENAME), Param("U", TYPENAME)),
                run,
                lambda a: _binary_forms(a, sources) is not None and len(a) == sources + 2,
                lambda a: {"T": tensor_dtype(a[0]), "U": tensor_dtype(a[1])},
            )
        ],
    )


def _logical_example(name: str, sources: int) -> list[bool]:
    a = advmath.truth(np.array([0.0, -0.0, np.nan, 2.0], np.float32))
    b = advmath.truth(np.array([1.0, 1.0, 1.0, 0.0], np.float32))
    result = ~a if sources == 1 else advmath.LOGICAL[name](a, b)
    return [bool(v) for v in result]


LogicalAnd = _logical_api("LogicalAnd", 2)
LogicalOr = _logical_api("LogicalOr", 2)
LogicalXor = _logical_api("LogicalXor", 2)
LogicalNot = _logical_api("LogicalNot", 1)


def _class_api(
    name: str, compute: Callable[[Lanes], Lanes], config_first: bool, doc: str
) -> AdvancedApi:
    """``IsFinite<T, U>(dst U, src T)``; ``IsInf`` / ``IsNan<config, T, U>(dst T, src U)``."""

    def run(t: TemplateArgs, *args: Any) -> None:
        src_type, dst_type = (t.U, t.T) if config_first else (t.T, t.U)
        call = f"{name}<{t.T.cpp_name}, {t.U.cpp_name}>"
        sources = (half, float32_t) if config_first else (half, bfloat16_t, float32_t)
        check_dtype(call, "source type", src_type, sources)
        check_dtype(call, "destination type", dst_type, (bool_, src_type))
        one = {bool_: np.bool_(True)}.get(dst_type, np.array(1, dst_type.np_dtype)[()])
        zero = np.zeros((), dst_type.np_dtype)[()]
        _run(call, dst_type, src_type, args, 1, lambda a: np.where(compute(a), one, zero))

    if config_first:
        config = CONFIGS[name]
        params: tuple[Param, ...] = (
            Param("config", config, config()),
            Param("T", TYPENAME),
            Param("U", TYPENAME),
        )
        order = (0, 1)
    else:
        params = (Param("T", TYPENAME), Param("U", TYPENAME))
        order = (1, 0)

    def deduce(a: tuple[Any, ...]) -> dict[str, Any]:
        return {"T": tensor_dtype(a[order[0]]), "U": tensor_dtype(a[order[1]])}

    example = [float(v) for v in compute(np.array([1.0, np.inf, np.nan, -0.0], np.float32))]
    return AdvancedApi(
        name,
        f"""``{name}<{", ".join(p.name for p in params)}>(dst, src{"[, sharedTmpBuffer]" if config_first else ""}, count)``: {doc}

        The destination is bool (1/0) or the source's type (1.0 / 0.0).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import float32_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()) as ctx:
        ...     x, y = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 4) for k in range(2))
        ...     x.GetPhyAddr().write([1.0, np.inf, np.nan, -0.0]); ctx.tracker.barrier()
        ...     {name}(y, x, 4); ctx.tracker.barrier(); y.GetPhyAddr().read(4).tolist()
        {example}
        """,
        [Overload(params, run, lambda a: _binary_forms(a, 1) is not None, deduce)],
    )


IsFinite = _class_api("IsFinite", advmath.is_finite, False, "whether each lane is finite.")
IsInf = _class_api("IsInf", advmath.is_inf, True, "whether each lane is +-inf.")
IsNan = _class_api("IsNan", advmath.is_nan, True, "whether each lane is a NaN.")

RintConfig = CONFIGS["Rint"]
FmaConfig = CONFIGS["Fma"]
IsInfConfig = CONFIGS["IsInf"]
IsNanConfig = CONFIGS["IsNan"]
BitwiseAndConfig = CONFIGS["BitwiseAnd"]
BitwiseOrConfig = CONFIGS["BitwiseOr"]
BitwiseXorConfig = CONFIGS["BitwiseXor"]
BitwiseNotConfig = CONFIGS["BitwiseNot"]
LogicalAndConfig = CONFIGS["LogicalAnd"]
LogicalOrConfig = CONFIGS["LogicalOr"]
LogicalXorConfig = CONFIGS["LogicalXor"]
LogicalNotConfig = CONFIGS["LogicalNot"]

# literal, so that type checkers see every name through `from ascreg.basic import *`
# (tests/basic/test_adv_math.py checks it lists the table's APIs and configs)
__all__ = [
    "DEFAULT_TANH_CONFIG",
    "Acos",
    "Acosh",
    "Asin",
    "Atan",
    "AtanAlgo",
    "AtanConfig",
    "Atanh",
    "BitwiseAnd",
    "BitwiseAndConfig",
    "BitwiseNot",
    "BitwiseNotConfig",
    "BitwiseOr",
    "BitwiseOrConfig",
    "BitwiseXor",
    "BitwiseXorConfig",
    "Ceil",
    "Cos",
    "CosAlgo",
    "CosConfig",
    "Cosh",
    "Erf",
    "ErfAlgo",
    "ErfConfig",
    "Erfc",
    "FasterGelu",
    "FasterGeluV2",
    "Floor",
    "Fma",
    "FmaConfig",
    "Gelu",
    "IsFinite",
    "IsInf",
    "IsInfConfig",
    "IsNan",
    "IsNanConfig",
    "Log",
    "Log2",
    "Log10",
    "LogicalAnd",
    "LogicalAndConfig",
    "LogicalNot",
    "LogicalNotConfig",
    "LogicalOr",
    "LogicalOrConfig",
    "LogicalXor",
    "LogicalXorConfig",
    "Power",
    "PowerAlgo",
    "PowerConfig",
    "Rint",
    "RintConfig",
    "Round",
    "Sigmoid",
    "Sign",
    "Sin",
    "SinAlgo",
    "SinConfig",
    "Sinh",
    "Swish",
    "Tan",
    "Tanh",
    "TanhAlgo",
    "TanhConfig",
    "Trunc",
    "defaultAtanConfig",
    "defaultCosConfig",
    "defaultErfConfig",
    "defaultPowerConfig",
    "defaultSinConfig",
]  # fmt: skip


def _swish(t: TemplateArgs, dst: Any, src: Any, count: Any, scalarValue: Any) -> None:
    call = f"Swish<{t.T.cpp_name}>"
    check_dtype(call, "T", t.T, FLOATS)
    check_tensor(call, "dstLocal", dst, t.T)
    check_tensor(call, "srcLocal", src, t.T)
    n = check_count(call, "dataSize", count, ("srcLocal", src), ("dstLocal", dst))
    beta = t.T.np_dtype.type(scalarValue)
    write(dst, advmath.swish(read(src, n), beta).astype(t.T.np_dtype))


Swish = AdvancedApi(
    "Swish",
    """``Swish<T, isReuseSource>(dstLocal, srcLocal, dataSize, scalarValue)``: ``x / (1 + e^(-b x))``.

    Computed on T's own lanes (half on half), with ``T(-1.0f * float(scalarValue))`` as the
    scalar, as the implementation does; T: half, float.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x, y = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 8) for k in range(2))
    ...     x.GetPhyAddr().write(np.arange(8)); ctx.tracker.barrier()
    ...     Swish(y, x, 8, 1.0); ctx.tracker.barrier(); y.GetPhyAddr().read(3).tolist()
    [0.0, 0.7310585975646973, 1.7615940570831299]
    """,
    [
        Overload(
            (Param("T", TYPENAME), Param("isReuseSource", bool, False)),
            _swish,
            lambda a: (
                len(a) == 4
                and is_tensor(a[0])
                and is_tensor(a[1])
                and is_count(a[2])
                and not is_tensor(a[3])
            ),
            lambda a: {"T": tensor_dtype(a[0])},
        )
    ],
)


# -- Power --------------------------------------------------------------------------------------


class PowerAlgo(enum.Enum):
    """``AscendC::PowerAlgo``: ``INTRINSIC`` (the default) or ``DOUBLE_FLOAT_TECH``.

    ``INTRINSIC``: integers by square-and-multiply, half and float as ``exp(y ln|x|)``;
    ``DOUBLE_FLOAT_TECH``: half, bfloat16 and float with an extended-precision logarithm.

    Examples
    --------
    >>> PowerAlgo.DOUBLE_FLOAT_TECH.value
    1
    """

    INTRINSIC = 0
    DOUBLE_FLOAT_TECH = 1


@attrs.frozen
class PowerConfig:
    """``AscendC::PowerConfig{algo}``: the ``config`` template argument of ``Power``.

    Examples
    --------
    >>> PowerConfig(PowerAlgo.DOUBLE_FLOAT_TECH).algo.name
    'DOUBLE_FLOAT_TECH'
    """

    algo: PowerAlgo = PowerAlgo.INTRINSIC


defaultPowerConfig = PowerConfig()
"""``AscendC::defaultPowerConfig``: ``{PowerAlgo::INTRINSIC}``."""

POWER_TYPES = {
    PowerAlgo.INTRINSIC: (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, float32_t),
    PowerAlgo.DOUBLE_FLOAT_TECH: (half, float32_t, bfloat16_t),
}
"""The types of each algorithm (Power.md, PowCheckType)."""


def _power_forms(args: tuple[Any, ...]) -> tuple[Any, Any, Any, Any, Any] | None:
    """Return (dst, base, exponent, tmp, count) of the twelve forms, or None."""
    if len(args) < 3 or not is_tensor(args[0]):
        return None
    base, exponent = args[1], args[2]
    if not (is_tensor(base) or is_tensor(exponent)):
        return None
    rest = list(args[3:])
    tmp = rest.pop(0) if rest and is_tensor(rest[0], uint8_t) else None
    count = rest.pop(0) if rest and is_count(rest[0]) else None
    return None if rest else (args[0], base, exponent, tmp, count)


def _power(t: TemplateArgs, *args: Any) -> None:
    config: PowerConfig = t.config
    call = f"Power<{t.T.cpp_name}, {str(bool(t.isReuseSource)).lower()}, {config.algo.name}>"
    check_dtype(call, "T", t.T, POWER_TYPES[config.algo])
    forms = _power_forms(args)
    assert forms is not None  # the overload matched these operands
    dst, base, exponent, tmp, count = forms
    check_tensor(call, "dstTensor", dst, t.T)
    tensors = [("dstTensor", dst)]
    for role, operand in (("src0Tensor", base), ("src1Tensor", exponent)):
        if is_tensor(operand):
            tensors.append((role, check_tensor(call, role, operand, t.T)))
    if tmp is not None:
        check_tmp(call, tmp)
    source = tensors[1][1]
    n = check_count(call, "calCount", source.GetSize() if count is None else count, *tensors)
    a = read(base, n) if is_tensor(base) else np.full(n, t.T(base), t.T.np_dtype)
    b = read(exponent, n) if is_tensor(exponent) else np.full(n, t.T(exponent), t.T.np_dtype)
    if t.T in FLOATS or t.T is bfloat16_t:
        result = advmath.power_float(a, b, double_float=config.algo is PowerAlgo.DOUBLE_FLOAT_TECH)
    else:
        result = advmath.power_int(a, b)
    write(dst, result.astype(t.T.np_dtype))


Power = AdvancedApi(
    "Power",
    """``Power<T, isReuseSource, config>(dst, src0, src1[, sharedTmpBuffer][, calCount])``: ``src0 ** src1``.

    Either operand may be a scalar of T instead of a LocalTensor (``Power(dst, x, 2.0f, n)``,
    ``Power(dst, 2.0f, y, n)``). Floats (half, bfloat16, float) are computed in float32 as the
    dav-3510 implementation does, ``exp(y ln|x|)`` (``INTRINSIC``) or with an extended
    logarithm and a corrected exponential (``DOUBLE_FLOAT_TECH``), followed by the IEEE special
    cases (``pow(x, 0) = pow(1, y) = 1``, signed zeros and infinities, NaN for a negative base
    and a non-integer exponent); integers by square-and-multiply, wrapping, with a negative
    exponent giving 0 (or +-1 for a base of -1).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, int32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     x, y = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 4) for k in range(2))
    ...     i, j = (LocalTensor[int32_t](TPosition.VECCALC, 256 + 64 * k, 4) for k in range(2))
    ...     x.GetPhyAddr().write([2.0, -2.0, 9.0, 0.0]); i.GetPhyAddr().write([3, -2, 10, 0])
    ...     ctx.tracker.barrier()
    ...     Power[float32_t, False, PowerConfig(PowerAlgo.DOUBLE_FLOAT_TECH)](y, x, 3.0, 4)
    ...     Power(j, i, 2, 4); ctx.tracker.barrier()
    ...     y.GetPhyAddr().read(4).tolist(), j.GetPhyAddr().read(4).tolist()
    ([8.0, -8.0, 729.0, 0.0], [9, 4, 100, 0])
    """,
    [
        Overload(
            (
                Param("T", TYPENAME),
                Param("isReuseSource", bool, False),
                Param("config", PowerConfig, defaultPowerConfig),
            ),
            _power,
            lambda a: _power_forms(a) is not None,
            lambda a: {"T": tensor_dtype(a[0])},
        )
    ],
)


# -- Gelu, FasterGelu, FasterGeluV2 ----------------------------------------------------------


def _gelu_forms(args: tuple[Any, ...]) -> bool:
    if len(args) not in (3, 4) or not (is_tensor(args[0]) and is_tensor(args[1])):
        return False
    return (len(args) == 3 or is_tensor(args[2], uint8_t)) and is_count(args[-1])


def _gelu_api(name: str, formula: str) -> AdvancedApi:
    def run(t: TemplateArgs, *args: Any) -> None:
        call = f"{name}<{t.T.cpp_name}>"
        check_dtype(call, "T", t.T, FLOATS)
        dst = check_tensor(call, "dstLocal", args[0], t.T)
        src = check_tensor(call, "srcLocal", args[1], t.T)
        if len(args) == 4:
            check_tmp(call, args[2])
        n = check_count(call, "dataSize", args[-1], ("srcLocal", src), ("dstLocal", dst))
        write(dst, advmath.gelu(name, read(src, n), bool(t.highPrecision)).astype(t.T.np_dtype))

    example = advmath.gelu(name, np.array([-1.0, 0.5, 2.0], np.float32), False).tolist()
    return AdvancedApi(
        name,
        f"""``{name}<T, highPrecision, highPerformance>(dstLocal, srcLocal[, sharedTmpBuffer],
        dataSize)``: {formula}.

        Computed on T's lanes (half on half), or with ``highPrecision`` a half input in float
        and cast back (``CAST_RINT``); ``highPerformance`` is not read on the 950. T: half, float.

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import float32_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()) as ctx:
        ...     x, y = (LocalTensor[float32_t](TPosition.VECCALC, 64 * k, 8) for k in range(2))
        ...     x.GetPhyAddr().write([-1.0, 0.5, 2.0]); ctx.tracker.barrier()
        ...     {name}(y, x, 3); ctx.tracker.barrier(); y.GetPhyAddr().read(3).tolist()
        {example}
        """,
        [
            Overload(
                (
                    Param("T", TYPENAME),
                    Param("highPrecision", bool, False),
                    Param("highPerformance", bool, False),
                ),
                run,
                _gelu_forms,
                lambda a: {"T": tensor_dtype(a[0])},
            )
        ],
    )


Gelu = _gelu_api(
    "Gelu", "``x e^min(t, 0) / (1 + e^-|t|)`` with ``t = 1.5957691 (x + 0.044715 x^3)``"
)
FasterGelu = _gelu_api("FasterGelu", "``x / (1 + e^(-1.702 x))``")
FasterGeluV2 = _gelu_api(
    "FasterGeluV2",
    "``x (0.5 + sgn(x) (0.5 - 0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2))`` with "
    "``sgn(x) = (x + 1e-12) / |x + 1e-12|``",
)

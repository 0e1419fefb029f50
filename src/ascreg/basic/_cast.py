"""Memory-level conversions on ``LocalTensor``: ``Cast``, ``Truncate``, ``SetDeqScale`` and the fused ops.

The fused ops compute in the source type, then convert: ``AddReluCast``, ``SubReluCast`` and
``MulCast`` (``dst = Cast(f(src0, src1))``, the register ``Cast`` of the pair rounding with
``CAST_RINT`` and saturating), ``MulsCast`` (float times a float scalar to half, one
``CAST_ROUND`` rounding) and ``ExpSub`` (``exp(float(src0) - float(src1))`` into float).

``Cast(dst, src, roundMode, count)`` and its two repeat forms convert each selected element
with the register ``Cast`` of the pair (``CastTrait{ZERO, SAT, ZEROING, roundMode}``, so element
``i`` of ``src`` becomes element ``i`` of ``dst``), as the 950 runs them
(``kernel_operator_vec_vconv_impl.h``): ``float -> float`` is ``Reg.Truncate``, and ``int32_t ->
half`` is the dequantisation ``half(float(x) * 2**-17 * scale * 2**17)`` with the scale of
``SetDeqScale`` (its ``roundMode`` is ignored). A round mode the pair does not take is an
``UnsupportedError`` (the chip asserts). The mask of a repeat form counts the wider side's lanes.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     src = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
...     src.GetPhyAddr().write(np.float32([1.0001, 2.5, -2.5, 70000.0] * 16)); PipeBarrier[PIPE_ALL]()
...     Cast(dst, src, RoundMode.CAST_ROUND, 64); PipeBarrier[PIPE_ALL]()
...     dst.GetPhyAddr().read(4).tolist()
[1.0, 2.5, -2.5, 65504.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, float32_t, half, int8_t, int16_t, int32_t
from ascreg._frontend import operands
from ascreg._spec.basic import CAST_NONE_AS_RINT, FUSED_CASTS, MEMORY_CASTS
from ascreg._spec.convert import CAST_PAIRS
from ascreg.basic._engine import run
from ascreg.basic._forms import form_lanes, streams
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import BinaryRepeatParams, UnaryRepeatParams, block_state
from ascreg.basic._structs import BinaryConfig
from ascreg.basic._vector import split_scalar
from ascreg.core.composite import dequantize_to_half
from ascreg.core.compound import exp_sub
from ascreg.core.convert import convert, round_integral, scaled_to_half
from ascreg.enums import RoundMode
from ascreg.errors import AscregTypeError, UnsupportedError

Array = np.ndarray[Any, Any]

DEQ_SCALE = "deq_scale"
"""Block-state key of the ``SetDeqScale(half)`` value (``g_deqValue``; 1 when a kernel starts)."""


def SetDeqScale(scale: Any) -> None:
    """``AscendC::SetDeqScale(half scale)``: the scale of the ``int32_t -> half`` ``Cast``.

    The block starts with 1.0 (the 950's kernel start sets ``g_deqValue = 1``). The other
    overloads (``float scale, int16_t offset, bool signMode`` and the vector form) configure
    ``CastDequant``, which is not modelled: an ``UnsupportedError``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 64]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     src.GetPhyAddr().write(np.arange(64)); PipeBarrier[PIPE_ALL]()
    ...     SetDeqScale(0.25)
    ...     Cast(dst, src, RoundMode.CAST_NONE, 64); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(4).tolist()
    [0.0, 0.25, 0.5, 0.75]
    """
    _ascreg_call = "SetDeqScale"
    if isinstance(scale, np.ndarray) or hasattr(scale, "GetPhyAddr"):
        raise UnsupportedError("the vector SetDeqScale configures CastDequant (not modelled)")
    block_state()[DEQ_SCALE] = operands.scalar(scale, half, "scale")


def deq_scale() -> Any:
    """Return the running block's ``SetDeqScale`` value (1.0 until set)."""
    return block_state().get(DEQ_SCALE, np.float16(1.0))


def _rounding(op: BasicOp, src: type[Scalar], dst: type[Scalar], mode: Any) -> RoundMode:
    """Return the rounding the pair runs with *mode*, or raise for a mode it does not take."""
    if not isinstance(mode, RoundMode):
        raise AscregTypeError(f"roundMode must be a RoundMode, got {mode!r:.40}", call=op.name)
    if mode is RoundMode.CAST_NONE and (src, dst) in CAST_NONE_AS_RINT:
        return RoundMode.CAST_RINT
    documented = MEMORY_CASTS[(src, dst)]
    if mode not in documented:
        raise UnsupportedError(
            f"{mode.name} is not a round mode of {src.cpp_name} -> {dst.cpp_name} on the 950 "
            f"(documented: {', '.join(m.name for m in documented)}; the chip asserts 'illegal "
            "type for cast')",
            call=op.name,
        )
    if mode is RoundMode.CAST_NONE and (src, dst) in CAST_PAIRS:
        return CAST_PAIRS[(src, dst)].default_round
    return mode


def formula(src: type[Scalar], dst: type[Scalar], rounding: RoundMode) -> Any:
    """Return the per-element conversion of one pair.

    The register ``Cast`` (saturating), or the 950's special paths: ``Truncate`` for float ->
    float, the dequantisation for int32 -> half.
    """
    if (src, dst) == (float32_t, float32_t):
        return lambda v: round_integral(v, rounding)
    if (src, dst) == (int32_t, half):
        scale = deq_scale()
        return lambda v: dequantize_to_half(v, scale)
    pair = CAST_PAIRS[(src, dst)]
    saturate = pair.fixed_saturation or pair.sat
    return lambda v: convert(v, src, dst, rounding, saturate)


@basic_op("Cast", value_kinds=(), max_dtypes=2)
def Cast(op: BasicOp, dst: Any, src: Any, roundMode: Any, *rest: Any) -> None:
    """``Cast<T, U>(dst, src, roundMode, count)`` / ``Cast<T, U, isSetMask>(dst, src, roundMode, mask, repeatTime, UnaryRepeatParams)``.

    Converts each selected element of ``src`` (``U``) to ``dst`` (``T``) with the register
    ``Cast`` of the pair, saturating (``SatMode::SAT``), rounding by *roundMode* (the pair's
    modes of the Cast page's 950 table; ``CAST_NONE`` on a lossy pair is ``CAST_RINT``). ``float
    -> float`` rounds to an integral value (``Reg.Truncate``); ``int32_t -> half`` scales by
    ``SetDeqScale`` and ignores *roundMode*. The repeat forms' mask counts the lanes of the wider
    type; pairs with a 64-bit side have the count form only here. Masked-off lanes are not
    written.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[half, 128]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[int8_t, 128]()
    ...     src.GetPhyAddr().write(np.float16([1.5, -2.5, 300.0, -0.4] * 32)); PipeBarrier[PIPE_ALL]()
    ...     Cast(dst, src, RoundMode.CAST_FLOOR, 128); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(4).tolist()
    [1, -3, 127, -1]
    """
    dst_type, src_type = op.dtypes((dst, "dst"), (src, "src"))
    combo = (dst_type, src_type)
    lanes, strides = form_lanes(op, combo, rest, UnaryRepeatParams, "dst, src, roundMode")
    convert_lanes = formula(src_type, dst_type, _rounding(op, src_type, dst_type, roundMode))
    tensors = ((dst, "dst"), (src, "src"))
    run(op.name, lanes, streams(tensors[:1], strides[:1]), streams(tensors[1:], strides[1:]),
        lambda v: [convert_lanes(v)])  # fmt: skip


class _TruncateOp(BasicOp):
    value_kinds = (RoundMode,)


@basic_op("Truncate", base=_TruncateOp)
def Truncate(op: BasicOp, dst: Any, src: Any, count: Any) -> None:
    """``Truncate<T, RoundMode roundMode>(dst, src, count)``: round to an integral value of ``T``.

    ``Truncate[T, RoundMode.CAST_FLOOR](dst, src, count)``: ``Reg.Truncate``'s lane formula
    (NaN and the infinities pass, a zero keeps its sign) on the first *count* elements of half,
    float or bfloat16_t. The round mode is a template argument (``CAST_RINT``, ``CAST_FLOOR``,
    ``CAST_CEIL``, ``CAST_ROUND``, ``CAST_TRUNC``); without one ``Truncate`` is an error, as
    C++ cannot deduce it.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     x.GetPhyAddr().write(np.float32([2.5, -2.5, 0.4, -0.4] * 16)); PipeBarrier[PIPE_ALL]()
    ...     Truncate[float32_t, RoundMode.CAST_ROUND](x, x, 64); PipeBarrier[PIPE_ALL]()
    ...     x.GetPhyAddr().read(4).tolist()
    [3.0, -3.0, 0.0, -0.0]
    """
    mode = op.t.value(RoundMode, None)
    if mode not in (RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
                    RoundMode.CAST_ROUND, RoundMode.CAST_TRUNC):  # fmt: skip
        raise AscregTypeError(
            f"Truncate takes its round mode as a template argument (CAST_RINT, CAST_FLOOR, "
            f"CAST_CEIL, CAST_ROUND or CAST_TRUNC): Truncate[T, RoundMode.CAST_RINT](...), got "
            f"{mode!r}",
            call=op.name,
        )
    (dtype,) = op.dtypes((dst, "dst"))
    if op.tensor(src, "src")._dtype() is not dtype:
        raise AscregTypeError(f"src is a {src._cpp()} but dst is a {dst._cpp()} (one T)")
    lanes, _ = form_lanes(op, (dtype,), (count,), UnaryRepeatParams, "dst, src")
    run(op.name, lanes, streams(((dst, "dst"),), ()), streams(((src, "src"),), ()),
        lambda v: [round_integral(v, mode)])  # fmt: skip


# ---- fused: arithmetic in the source type, then a conversion --------------------------------------

_VIA_HALF = {(int16_t, int8_t): half}
"""The pairs the 950 converts in two steps (``int16_t -> half -> int8_t``, both ``CAST_RINT``
and saturating: ``s162HalfTrait`` then ``AddReluCastTrait``)."""


def fused_conversion(src: type[Scalar], dst: type[Scalar]) -> Any:
    """Return the conversion of a fused op's result: the register ``Cast``, ``CAST_RINT``, SAT.

    Examples
    --------
    >>> import numpy as np
    >>> fused_conversion(int16_t, int8_t)(np.int16([300, 5, 0])).tolist()
    [127, 5, 0]
    """
    middle = _VIA_HALF.get((src, dst))
    if middle is None:
        return formula(src, dst, RoundMode.CAST_RINT)
    first, second = (
        formula(src, middle, RoundMode.CAST_RINT),
        formula(middle, dst, RoundMode.CAST_RINT),
    )
    return lambda v: second(first(v))


def _source_pair(op: BasicOp, dst: Any, src0: Any, src1: Any) -> tuple[type[Scalar], type[Scalar]]:
    """Return ``(T, U)`` of ``dst`` and the two ``U`` sources (one type, checked)."""
    dst_type, src_type = op.dtypes((dst, "dst"), (src0, "src0"))
    other = op.tensor(src1, "src1")._dtype()
    if other is not src_type:
        raise AscregTypeError(
            f"src1 is a {src1._cpp()} but src0 is a {src0._cpp()} (both LocalTensor<U>)",
            call=op.name,
        )
    return dst_type, src_type


def _fused_cast(op: BasicOp, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``Op(dst, src0, src1, count)`` / ``Op(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``."""
    dst_type, src_type = _source_pair(op, dst, src0, src1)
    lanes, strides = form_lanes(op, (dst_type, src_type), rest, BinaryRepeatParams,
                                "dst, src0, src1")  # fmt: skip
    arithmetic = op.spec.core_function()
    conversion = fused_conversion(src_type, dst_type)
    tensors = streams(((dst, "dst"), (src0, "src0"), (src1, "src1")), strides)
    run(op.name, lanes, tensors[:1], tensors[1:], lambda a, b: [conversion(arithmetic(a, b))])


_FUSED_DOC = """``{name}<T, U>(dst, src0, src1, count)`` / ``{name}<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``.

    ``dst = Cast({formula})``: {arithmetic} in the source type ``U`` (``Reg.{reg}``), then the
    register ``Cast`` to ``T`` rounding with ``CAST_RINT`` and saturating (``int16_t -> int8_t``
    through half, as the 950 does). The repeat forms' mask counts the wider type's lanes; the
    pairs with an int64_t source have the count form only. Masked-off lanes are not written.
    Pairs ``(T, U)``: {pairs}.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import {dst}, {src}
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[{src}, 128]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[{src}, 128]()
    ...     d = LocalMemAllocator[Hardware.UB]().Alloc[{dst}, 128]()
    ...     a.GetPhyAddr().write({a}); b.GetPhyAddr().write({b}); PipeBarrier[PIPE_ALL]()
    ...     {name}(d, a, b, 4); PipeBarrier[PIPE_ALL]()
    ...     d.GetPhyAddr().read(4).tolist()
    {result}
"""

_FUSED_EXAMPLES: dict[str, tuple[str, str, str, str, str, str, str, str]] = {
    "AddReluCast": ("Relu(src0 + src1)", "``max(src0 + src1, 0)``", "AddRelu", "int8_t", "half",
                    "[1.0, 0.5, 3.0, 200.0]", "[0.0, 2.0, -4.0, 100.0]", "[1, 2, 0, 127]"),
    "SubReluCast": ("Relu(src0 - src1)", "``max(src0 - src1, 0)``", "SubRelu", "half",
                    "float32_t", "[1.0, 0.5, 1e6, 3.0]", "[0.0, 2.0, -1e6, 1.0]",
                    "[1.0, 0.0, 65504.0, 2.0]"),
    "MulCast": ("src0 * src1", "``src0 * src1``", "Mul", "uint8_t", "half",
                "[1.5, 2.5, -3.0, 20.0]", "[1.0, 1.0, 1.0, 20.0]", "[2, 2, 0, 255]"),
}  # fmt: skip


def _fused_op(name: str) -> Any:
    formula_, arithmetic, reg, dst, src, a, b, result = _FUSED_EXAMPLES[name]
    pairs = "; ".join(f"({t.cpp_name}, {u.cpp_name})" for t, u in FUSED_CASTS[name][1])
    doc = _FUSED_DOC.format(name=name, formula=formula_, arithmetic=arithmetic, reg=reg,
                            pairs=pairs, dst=dst, src=src, a=a, b=b, result=result)  # fmt: skip
    return basic_op(name, doc=doc, max_dtypes=2)(_fused_cast)


AddReluCast, SubReluCast, MulCast = map(_fused_op, FUSED_CASTS)


@basic_op("AddDeqRelu", max_dtypes=2)
def AddDeqRelu(op: BasicOp, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``AddDeqRelu(dst, src0, src1, count)`` / ``AddDeqRelu<isSetMask>(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``.

    ``dst = half(max(Deq(src0 + src1), 0))`` for int32_t sources and a half dst: the sum wraps
    in int32, ``Deq`` is the 950's ``float(x) * 2**-17 * scale * 2**17`` (each step rounded in
    float; ``scale`` the ``SetDeqScale(half)`` value), ``Relu`` compares with +0 in float and the
    conversion to half rounds to nearest even (``RINT``, as the page says) and saturates (the
    950's ``float2halfCastTrait``). The repeat forms' mask counts int32 lanes (64 per repeat).
    ``AddDeqRelu[half, int32_t]`` names the types (the TensorTrait form).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 64]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 64]()
    ...     d = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     a.GetPhyAddr().write(np.int32([3, -9, 200000, 1])); b.GetPhyAddr().write(np.int32([1, 2, 0, 0]))
    ...     PipeBarrier[PIPE_ALL]()
    ...     SetDeqScale(0.5); AddDeqRelu(d, a, b, 4); PipeBarrier[PIPE_ALL]()
    ...     d.GetPhyAddr().read(4).tolist()
    [2.0, 0.0, 65504.0, 0.5]
    """
    dst_type, src_type = _source_pair(op, dst, src0, src1)
    lanes, strides = form_lanes(op, (dst_type, src_type), rest, BinaryRepeatParams,
                                "dst, src0, src1")  # fmt: skip
    core, scale = op.spec.core_function(), deq_scale()
    tensors = streams(((dst, "dst"), (src0, "src0"), (src1, "src1")), strides)
    run(op.name, lanes, tensors[:1], tensors[1:], lambda a, b: [core(a, b, scale)])


@basic_op("CastDequant", max_dtypes=2)
def CastDequant(op: BasicOp, dst: Any, src: Any, *rest: Any) -> None:
    """``CastDequant<T, U[, isSetMask], isVecDeq, halfBlock>(dst, src, count)`` / ``(dst, src, mask, repeatTime, UnaryRepeatParams)``.

    ``int32_t -> half``: ``dst = half(src * scale)`` with the ``SetDeqScale(half)`` scale, the
    950's chain ``float(x) * 2**-17 * scale * 2**17`` (each step rounded in float) then a RINT
    conversion to half (the register ``Cast``'s ``f322F16CastTrait``: overflow is inf). The
    repeat forms' mask counts int32 lanes. The ``int16_t -> int8_t / uint8_t`` pairs (the
    per-tensor and per-block quantisation of ``SetDeqScale(scale, offset, signMode)`` and its
    vector form, with the ``halfBlock`` placement) are not modelled: an ``UnsupportedError``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half, int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 64]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     src.GetPhyAddr().write(np.int32([3, -5, 70000, 1])); PipeBarrier[PIPE_ALL]()
    ...     SetDeqScale(2.0); CastDequant(dst, src, 4); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(4).tolist()
    [6.0, -10.0, inf, 2.0]
    """
    dst_type, src_type = op.dtypes((dst, "dst"), (src, "src"))
    combo = (dst_type, src_type)
    lanes, strides = form_lanes(op, combo, rest, UnaryRepeatParams, "dst, src")
    if src_type is not int32_t:
        raise UnsupportedError(
            f"CastDequant<{dst_type.cpp_name}, {src_type.cpp_name}> (the int16_t quantisation with "
            "SetDeqScale(scale, offset, signMode) and halfBlock) is not modelled; int32_t -> half is",
            call=op.name,
        )
    scale = deq_scale()
    tensors = ((dst, "dst"), (src, "src"))
    run(op.name, lanes, streams(tensors[:1], strides[:1]), streams(tensors[1:], strides[1:]),
        lambda v: [dequantize_to_half(v, scale)])  # fmt: skip


MULS_CAST_PAGE = "复合计算/MulsCast(ISASI).md"


class _MulsCastOp(BasicOp):
    value_kinds = (BinaryConfig,)


@basic_op("MulsCast", base=_MulsCastOp)
def MulsCast(op: BasicOp, dst: Any, src0: Any, src1: Any, count: Any) -> None:
    """``MulsCast<T0, T1, config>(dst, src0, src1, count)``: ``dst = half(src * scalar)``.

    A float ``src`` times a float scalar, rounded once to half with ``CAST_ROUND`` (the
    register ``MulsCast``'s fused product); an overflowing product saturates to +-65504, as the
    page's precision table says ("溢出默认按照饱和处理"). Either source may be the scalar, or
    both LocalTensors: element 0 of source ``BinaryConfig.scalarTensorIndex``
    (``MulsCast[BinaryConfig(0)]``) is then the scalar. The page does not say what an infinite
    or NaN product gives (the register page's instruction does not saturate): such a lane is
    an ``UnsupportedError``. Count form only; the dtype template arguments ``T0`` / ``T1`` are
    reserved (``BinaryDefaultType``): write none.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     src.GetPhyAddr().write(np.float32([6.0, 5.0, 1.0 + 2.0**-11, 1e6] * 16)); PipeBarrier[PIPE_ALL]()
    ...     MulsCast(dst, src, 2.0, 64); PipeBarrier[PIPE_ALL]()
    ...     dst.GetPhyAddr().read(4).tolist()
    [12.0, 10.0, 2.001953125, 65504.0]
    """
    if op.t.dtypes:
        raise AscregTypeError(
            "T0 and T1 are reserved (BinaryDefaultType): write no dtype template argument, "
            f"got {op.t.text()}",
            call=op.name,
        )
    dst_type = op.tensor(dst, "dst")._dtype()
    vector, role, scalar, _left = split_scalar(op, float32_t, src0, src1)
    combo = (dst_type, op.tensor(vector, role)._dtype())
    lanes, _ = form_lanes(op, combo, (count,), UnaryRepeatParams, "dst, src0, src1")

    def compute(values: Array) -> list[Array]:
        with np.errstate(all="ignore"):
            product = values.astype(np.float64) * np.float64(scalar)
        if not np.isfinite(product).all():
            raise UnsupportedError(
                f"src * scalar is not finite ({scalar!r} times "
                f"{values[~np.isfinite(product)][0]!r}): the 950 page ({MULS_CAST_PAGE}) does "
                "not say what an infinite or NaN product gives",
                call=op.name,
            )
        return [scaled_to_half(values, scalar, saturate=True)]

    run(op.name, lanes, streams(((dst, "dst"),), ()), streams(((vector, role),), ()), compute)


@basic_op("ExpSub", max_dtypes=2)
def ExpSub(op: BasicOp, dst: Any, src0: Any, src1: Any, count: Any) -> None:
    """``ExpSub<T, U>(dst, src0, src1, count)``: ``dst = exp(float(src0) - float(src1))``.

    ``T`` is float, ``U`` half or float: the register ``ExpSub`` (``FusedExpSub``) element by
    element, a half source converted exactly to float first (the 950 loads it unpacked, one
    element per float lane). The float difference is rounded once, then ``Exp`` in its default
    mode (correctly rounded here; within 1 ulp on the chip), subnormal results flushed to +0;
    ``inf - inf`` gives NaN. Count form only.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[half, 64]()
    ...     d = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     a.GetPhyAddr().write(np.float16([1.0, 2.0, 0.0, -np.inf])); b.GetPhyAddr().write(np.float16([0.0, 0.0, 0.0, 0.0]))
    ...     PipeBarrier[PIPE_ALL]()
    ...     ExpSub(d, a, b, 4); PipeBarrier[PIPE_ALL]()
    ...     d.GetPhyAddr().read(4).tolist()
    [2.7182817459106445, 7.389056205749512, 1.0, 0.0]
    """
    dst_type, src_type = _source_pair(op, dst, src0, src1)
    lanes, _ = form_lanes(op, (dst_type, src_type), (count,), BinaryRepeatParams,
                          "dst, src0, src1")  # fmt: skip
    tensors = streams(((dst, "dst"), (src0, "src0"), (src1, "src1")), ())

    def compute(a: Array, b: Array) -> list[Array]:
        wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)  # exact: half -> float
        return [exp_sub(wide_a, wide_b, np.ones(a.shape, bool), part=0)]

    run(op.name, lanes, tensors[:1], tensors[1:], compute)


__all__ = ["AddDeqRelu", "AddReluCast", "Cast", "CastDequant", "ExpSub", "MulCast", "MulsCast", "SetDeqScale", "SubReluCast",
           "Truncate"]  # fmt: skip

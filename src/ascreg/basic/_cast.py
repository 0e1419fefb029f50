"""Memory-level conversions on ``LocalTensor``: ``Cast``, ``Truncate`` and ``SetDeqScale``.

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

from ascreg._dtypes import Scalar, float32_t, half, int32_t
from ascreg._frontend import operands
from ascreg._spec.basic import CAST_NONE_AS_RINT, MEMORY_CASTS
from ascreg._spec.convert import CAST_PAIRS
from ascreg.basic._engine import run
from ascreg.basic._forms import form_lanes, streams
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import UnaryRepeatParams, block_state
from ascreg.core.composite import dequantize_to_half
from ascreg.core.convert import convert, round_integral
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


__all__ = ["Cast", "SetDeqScale", "Truncate"]

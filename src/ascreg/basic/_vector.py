"""Memory-level element-wise vector ops on ``LocalTensor``: unary, binary, tensor-and-scalar, fills.

Each op is one row of ``ascreg._spec.basic`` and runs the lane formula of its register twin
(the row's ``core``) over the lanes its form selects (:mod:`ascreg.basic._repeat`), through the
UB model on ``PIPE_V`` (:mod:`ascreg.basic._engine`). Masked-off lanes are not written. The
ops are called in the kernel body, like ``DataCopy``; order their UB accesses against the other
pipes with ``SetFlag`` / ``WaitFlag`` or ``PipeBarrier``.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 128]()
...     Duplicate(x, 1.5, 128)
...     Adds(y, x, 2.0, 100)                                # the count form
...     Muls(y[64], y[64], 2.0, 8, 1, UnaryRepeatParams())  # a repeat form: 8 lanes
...     PipeBarrier[PIPE_ALL]()
...     y.GetPhyAddr().read(100)[[0, 64, 72, 99]].tolist()
[3.5, 7.0, 3.5, 3.5]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg._spec.basic import (
    ACCUMULATING,
    ACCUMULATING_TYPES,
    BINARY_OPS,
    FILL_OPS,
    SCALAR_OPS,
    SHIFT_PAIRS,
    SHIFT_REPEAT,
    UNARY_OPS,
)
from ascreg.basic._engine import Overlap, Stream, run
from ascreg.basic._forms import form_lanes, same_type, streams
from ascreg.basic._op import BasicOp, basic_op
from ascreg.basic._repeat import (
    BinaryRepeatParams,
    Lanes,
    UnaryRepeatParams,
)
from ascreg.basic._structs import (
    DEFAULT_BINARY_CONFIG,
    DEFAULT_DIV_CONFIG,
    DEFAULT_EXP_CONFIG,
    DEFAULT_LN_CONFIG,
    DEFAULT_RECIPROCAL_CONFIG,
    DEFAULT_RSQRT_CONFIG,
    DEFAULT_SQRT_CONFIG,
    BinaryConfig,
    DivConfig,
    ExpConfig,
    LnAlgo,
    LnConfig,
    ReciprocalAlgo,
    ReciprocalConfig,
    RsqrtAlgo,
    RsqrtConfig,
    SqrtConfig,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.core import arith, shifts
from ascreg.enums import SUBNORMAL_ALGOS, DivAlgo, ExpAlgo, SqrtAlgo
from ascreg.errors import (
    AscregTypeError,
    UnsupportedError,
)
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK
from ascreg.machine.sync import Pipe

Array = np.ndarray[Any, Any]

CONFIGS: dict[str, type[Any]] = {"Div": DivConfig, "Exp": ExpConfig, "Ln": LnConfig,
                                 "Reciprocal": ReciprocalConfig, "Sqrt": SqrtConfig,
                                 "Rsqrt": RsqrtConfig}  # fmt: skip
"""The ops with a precision ``config`` template argument, and its struct."""
_KEEPS_SUBNORMALS = SUBNORMAL_ALGOS | {"FAST_INVERSE"}


def keeps_subnormals(op: BasicOp) -> bool:
    """Return True when the op's ``config`` keeps subnormals (its formula's ``ftz`` is False).

    Examples
    --------
    >>> from ascreg import half
    >>> keeps_subnormals(Exp), keeps_subnormals(Exp[half, ExpConfig(ExpAlgo.PRECISION_1ULP_FTZ_FALSE)])
    (False, True)
    """
    kind = CONFIGS[op.name]
    return op.t.value(kind, kind()).algo.name in _KEEPS_SUBNORMALS


# ---- unary and binary ------------------------------------------------------------------------------


def _formula(op: BasicOp, dtype: type[Scalar], repeat: bool) -> Callable[..., Array]:
    """Return the lane formula of one call: the row's core, with the config's subnormal mode."""
    core = op.spec.core_function()
    if op.name not in CONFIGS:
        return core
    ftz = not keeps_subnormals(op)
    if op.name == "Rsqrt":
        return lambda v: core(v, ftz=ftz, newton=not ftz and not repeat)
    return lambda *v: core(*v, ftz=ftz)


def _accumulates(op: Any, dtype: type[Scalar], strides: Any) -> Callable[[Overlap], bool]:
    """Return the documented exception's test: dst read back as src1, with src1 or dst repeat stride 0.

    An op that reads ``dst`` as a source (``FusedMulAdd``) may also read, in a later repeat, the
    ``dst`` an earlier one wrote: the repeats run in order, a barrier between them.
    """

    def allowed(found: Overlap) -> bool:
        if op.reads_dst and found.sources == ("dst",):  # dst is a source: each repeat reads its own
            return True
        if op.name not in ACCUMULATING or dtype not in ACCUMULATING_TYPES or not strides:
            return False
        return found.sources == ("src1",) and (strides[0][1] == 0 or strides[2][1] == 0)

    return allowed


def _elementwise(op: Any, dst: Any, *args: Any) -> None:
    """``Op(dst, src..., count)`` or ``Op(dst, src..., mask, repeatTime, repeatParams)``."""
    sources = args[: op.sources]
    roles = ("src",) if op.sources == 1 else ("src0", "src1")
    tensors = ((dst, "dst"), *zip(sources, roles, strict=True))
    dtype = same_type(op, *tensors)
    kind = UnaryRepeatParams if op.sources == 1 else BinaryRepeatParams
    lanes, strides = form_lanes(
        op, (dtype,), args[op.sources :], kind, ", ".join(r for _, r in tensors)
    )
    formula = _formula(op, dtype, repeat=bool(strides))
    operands_ = streams(tensors, strides)
    inputs = operands_[1:] + (operands_[:1] if op.reads_dst else [])
    run(op.name, lanes, operands_[:1], inputs, lambda *v: [formula(*v)],
        accumulate=_accumulates(op, dtype, strides))  # fmt: skip


class _ConfiguredOp(BasicOp):
    """An op whose template takes ``bool isSetMask`` and a precision config struct."""

    value_kinds = (DivConfig, ExpConfig, LnConfig, ReciprocalConfig, SqrtConfig, RsqrtConfig,
                   BinaryConfig)  # fmt: skip


_UNARY_DOC = """``{name}(dst, src, count)`` / ``{name}(dst, src, mask, repeatTime, UnaryRepeatParams)``.

    {summary} Lane formula: ``Reg.{reg}``'s (``{core}``); masked-off lanes are not written.
    Types: {types} (repeat forms: {repeat}).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import {dtype}
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[{dtype}, 64]()
    ...     x.GetPhyAddr().write({values}); PipeBarrier[PIPE_ALL]()
    ...     {name}(x, x, 4); PipeBarrier[PIPE_ALL]()
    ...     x.GetPhyAddr().read(4).tolist()
    {result}
"""

_UNARY_EXAMPLES: dict[str, tuple[str, str, str, str]] = {
    "Abs": ("``dst = |src|``.", "int16_t", "[-3, 2, -32768, 0]", "[3, 2, -32768, 0]"),
    "Relu": ("``dst = src >= 0 ? src : 0`` (-0 passes, NaN gives +0).", "float32_t",
             "[-1.5, 2.0, -0.0, 3.0]", "[0.0, 2.0, -0.0, 3.0]"),
    "Exp": ("``dst = e**src`` (correctly rounded; ``config`` picks the subnormal mode).",
            "float32_t", "[0.0, 1.0, -np.inf, 2.0]", "[1.0, 2.7182817459106445, 0.0, 7.389056205749512]"),
    "Ln": ("``dst = ln(src)``.", "float32_t", "[1.0, 2.0, 0.0, -1.0]",
           "[0.0, 0.6931471824645996, -inf, nan]"),
    "Sqrt": ("``dst = sqrt(src)``.", "half", "[4.0, 2.0, -0.0, 9.0]", "[2.0, 1.4140625, -0.0, 3.0]"),
    "Reciprocal": ("``dst = 1 / src``, ``Reg.Div(1, src)`` (64-bit integers: 1, -1 or 0).",
                   "float32_t", "[2.0, 4.0, -0.0, 0.5]", "[0.5, 0.25, -inf, 2.0]"),
    "Rsqrt": ("``dst = 1 / sqrt(src)``: ``Reg.Sqrt`` then ``Reg.Div(1, .)`` (``config``: the "
              "precise paths).", "float32_t", "[4.0, 16.0, 0.25, 1.0]", "[0.5, 0.25, 2.0, 1.0]"),
    "Not": ("``dst = ~src`` on the element's bits.", "uint16_t", "[0, 1, 65535, 256]",
            "[65535, 65534, 0, 65279]"),
    "Neg": ("``dst = -src`` (integers wrap, floats flip the sign bit).", "int32_t",
            "[5, -2, 0, -2147483648]", "[-5, 2, 0, -2147483648]"),
}  # fmt: skip

_REG_TWIN = {"Reciprocal": "Div", "Rsqrt": "Sqrt"}


def _types(names: tuple[type[Scalar], ...]) -> str:
    return ", ".join(d.cpp_name for d in names) or "none (count form only)"


def _unary_op(name: str) -> Any:
    _page, count, repeat, core = UNARY_OPS[name]
    summary, dtype, values, result = _UNARY_EXAMPLES[name]
    doc = _UNARY_DOC.format(name=name, summary=summary, reg=_REG_TWIN.get(name, name), core=core,
                            types=_types(count), repeat=_types(repeat), dtype=dtype,
                            values=values, result=result)  # fmt: skip
    return basic_op(name, base=_ConfiguredOp, doc=doc, sources=1, reads_dst=False)(_elementwise)


Abs, Relu, Exp, Ln, Sqrt, Reciprocal, Rsqrt, Not, Neg = map(_unary_op, UNARY_OPS)

_BINARY_DOC = """``{name}(dst, src0, src1, count)`` / ``{name}(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)``.

    {summary} Masked-off lanes are not written. Types: {types} (repeat forms: {repeat}).{extra}

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import {dtype}
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[{dtype}, 64]()
    ...     b = LocalMemAllocator[Hardware.UB]().Alloc[{dtype}, 64]()
    ...     a.GetPhyAddr().write({a}); b.GetPhyAddr().write({b}); PipeBarrier[PIPE_ALL]()
    ...     {name}(a, a, b, 4); PipeBarrier[PIPE_ALL]()
    ...     a.GetPhyAddr().read(4).tolist()
    {result}
"""

_ACCUMULATE_NOTE = """

    Repeat forms on half, int32_t and float may read ``dst`` back as ``src1`` in a later
    repeat when ``src1RepStride`` or ``dstRepStride`` is 0 (the documented accumulation: the
    repeats then run in order); any other overlap between repeats is undefined on the chip
    and an ``UndefinedBehaviourError``."""

_BINARY_EXAMPLES: dict[str, tuple[str, str, str, str, str]] = {
    "Add": ("``dst = src0 + src1`` (``Reg.Add``: integers wrap, floats round once).", "int16_t",
            "[32767, 1, -5, 0]", "[1, 1, 5, 0]", "[-32768, 2, 0, 0]"),
    "Sub": ("``dst = src0 - src1`` (``Reg.Sub``).", "float32_t", "[1.0, 0.5, -0.0, 3.0]",
            "[1.0, 1.0, 0.0, -1.0]", "[0.0, -0.5, -0.0, 4.0]"),
    "Mul": ("``dst = src0 * src1`` (``Reg.Mul``).", "half", "[3.0, 0.5, -2.0, 65504.0]",
            "[2.0, 0.5, 0.0, 2.0]", "[6.0, 0.25, -0.0, inf]"),
    "Div": ("``dst = src0 / src1`` (``Reg.Div``: integers truncate, ``x / 0`` all ones; floats "
            "correctly rounded; ``config`` picks the subnormal mode).", "int32_t",
            "[7, -7, 5, 1]", "[2, 2, 0, 1]", "[3, -3, -1, 1]"),
    "Max": ("``dst = max(src0, src1)`` (``Reg.Max``: NaN propagates, +0 > -0).", "float32_t",
            "[1.0, -0.0, np.nan, 2.0]", "[2.0, 0.0, 1.0, -3.0]", "[2.0, 0.0, nan, 2.0]"),
    "Min": ("``dst = min(src0, src1)`` (``Reg.Min``).", "uint8_t", "[1, 200, 7, 0]",
            "[2, 100, 7, 255]", "[1, 100, 7, 0]"),
    "And": ("``dst = src0 & src1``.", "uint16_t", "[12, 65535, 1, 0]", "[10, 256, 3, 7]",
            "[8, 256, 1, 0]"),
    "Or": ("``dst = src0 | src1``.", "int32_t", "[12, -1, 1, 0]", "[10, 256, 2, 0]",
           "[14, -1, 3, 0]"),
    "AddRelu": ("``dst = max(src0 + src1, 0)`` (``Reg.Add`` then ``Reg.Maxs``).", "int16_t",
                "[5, -5, 32767, 0]", "[-2, 2, 1, 0]", "[3, 0, 0, 0]"),
    "SubRelu": ("``dst = max(src0 - src1, 0)``.", "float32_t", "[5.0, 1.0, np.nan, 0.0]",
                "[2.0, 2.0, 0.0, -0.0]", "[3.0, 0.0, nan, 0.0]"),
    "FusedMulAdd": ("``dst = src0 * dst + src1``, fused (one rounding: ``Reg.MulDstAdd``).",
                    "float32_t", "[2.0, 3.0, 0.5, 1.0]", "[1.0, 1.0, 1.0, -1.0]",
                    "[5.0, 10.0, 1.25, 0.0]"),
    "MulAddRelu": ("``dst = max(src0 * dst + src1, 0)``, the multiply-add fused.", "float32_t",
                   "[2.0, 3.0, 0.5, 1.0]", "[1.0, -20.0, 1.0, -1.0]", "[5.0, 0.0, 1.25, 0.0]"),
    "Prelu": ("``dst = src0 > 0 ? src0 : src0 * src1``.", "half", "[2.0, -2.0, -0.0, 1.0]",
              "[0.5, 0.25, 3.0, 9.0]", "[2.0, -0.5, -0.0, 1.0]"),
    "AbsSub": ("``dst = |src0 - src1|``.", "float32_t", "[1.0, -3.0, 0.5, 2.0]",
               "[4.0, 2.0, 0.5, -2.0]", "[3.0, 5.0, 0.0, 4.0]"),
}  # fmt: skip


def _binary_op(name: str) -> Any:
    _page, count, repeat, _core = BINARY_OPS[name]
    summary, dtype, a, b, result = _BINARY_EXAMPLES[name]
    doc = _BINARY_DOC.format(name=name, summary=summary, types=_types(count),
                             repeat=_types(repeat), dtype=dtype, a=a, b=b, result=result,
                             extra=_ACCUMULATE_NOTE if name in ACCUMULATING else "")  # fmt: skip
    reads_dst = name in ("FusedMulAdd", "MulAddRelu")
    return basic_op(name, base=_ConfiguredOp, doc=doc, sources=2, reads_dst=reads_dst)(_elementwise)


(Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, FusedMulAdd, MulAddRelu, Prelu,
 AbsSub) = map(_binary_op, BINARY_OPS)  # fmt: skip


# ---- tensor and scalar ---------------------------------------------------------------------------


def _vector_read(op: BasicOp, tensor: LocalTensor[Any], role: str) -> Any:
    """Element 0 of *tensor*, read on ``PIPE_V`` (the VF's broadcast load of a scalar operand)."""
    ptr = tensor.GetPhyAddr()
    ptr.require_alignment(DATA_BLOCK, f"{op.name}: {role} of a vector op must be 32-byte aligned")
    with current_block().on_pipe(Pipe.PIPE_V):
        return ptr[np.zeros(1, dtype=np.int64)][0]


def split_scalar(
    op: BasicOp, dtype: type[Scalar], src0: Any, src1: Any
) -> tuple[LocalTensor[Any], str, Any, bool]:
    """Return ``(vector tensor, its role, scalar value, scalar on the left)`` of *src0*, *src1*.

    One source may be a number (the scalar), or both LocalTensors: then element 0 of source
    ``BinaryConfig.scalarTensorIndex`` is the scalar (the "灵活标量位置" forms).
    """
    left = not isinstance(src0, LocalTensor) and isinstance(src1, LocalTensor)
    if isinstance(src0, LocalTensor) and isinstance(src1, LocalTensor):
        index = op.t.value(BinaryConfig, DEFAULT_BINARY_CONFIG).scalarTensorIndex
        if index not in (0, 1):
            raise AscregTypeError(f"BinaryConfig.scalarTensorIndex {index!r} is not 0 or 1")
        scalar_tensor, role = (src0, "src0") if index == 0 else (src1, "src1")
        if scalar_tensor._dtype() is not dtype:
            raise AscregTypeError(
                f"{role} is a {scalar_tensor._cpp()}, not LocalTensor<{dtype.cpp_name}>"
            )
        value = _vector_read(op, scalar_tensor, role)
        vector, vrole = (src1, "src1") if index == 0 else (src0, "src0")
        return vector, vrole, value, index == 0
    vector, vrole, scalar = (src1, "src1", src0) if left else (src0, "src", src1)
    op.tensor(vector, vrole)
    return vector, vrole, operands.scalar(scalar, dtype, "scalarValue"), left


def _scalar_binary(op: BasicOp, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``Op(dst, src, scalar, ...)``, ``Op(dst, scalar, src, ...)`` or two LocalTensors."""
    (dtype,) = op.dtypes((dst, "dst"))
    vector, role, value, left = split_scalar(op, dtype, src0, src1)
    same_type(op, (dst, "dst"), (vector, role))
    lanes, strides = form_lanes(op, (dtype,), rest, UnaryRepeatParams, "dst, src0, src1")
    core = op.spec.core_function()

    def compute(values: Array) -> list[Array]:
        scalar = np.full(values.shape, value, dtype=values.dtype)
        return [core(scalar, values) if left else core(values, scalar)]

    run(op.name, lanes, streams(((dst, "dst"),), strides[:1]),
        streams(((vector, role),), strides[1:]), compute)  # fmt: skip


_SCALAR_DOC = """``{name}(dst, src, scalarValue, count)`` / ``{name}(dst, src, scalarValue, mask, repeatTime, UnaryRepeatParams)``.

    {summary} The scalar is converted to ``T`` (an integer outside ``T``'s range, or a float for
    an integer ``T``, is an error). Either source may be the scalar (the "灵活标量位置" forms:
    ``{name}(dst, scalar, src, ...)``), or both may be LocalTensors: then element 0 of source
    ``BinaryConfig.scalarTensorIndex`` (``{name}[T, BinaryConfig(0)]``) is the scalar.
    Masked-off lanes are not written. Types: {types} (repeat forms: {repeat}).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import {dtype}
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[{dtype}, 64]()
    ...     x.GetPhyAddr().write({values}); PipeBarrier[PIPE_ALL]()
    ...     {name}(x, x, {scalar}, 4); PipeBarrier[PIPE_ALL]()
    ...     x.GetPhyAddr().read(4).tolist()
    {result}
"""

_SCALAR_EXAMPLES: dict[str, tuple[str, str, str, str, str]] = {
    "Adds": ("``dst = src + scalar``.", "int8_t", "[126, 1, -128, 0]", "2", "[-128, 3, -126, 2]"),
    "Subs": ("``dst = src - scalar`` (``dst = scalar - src`` with the scalar first).",
             "float32_t", "[1.0, 2.5, -1.0, 0.0]", "0.5", "[0.5, 2.0, -1.5, -0.5]"),
    "Muls": ("``dst = src * scalar``.", "half", "[1.0, -2.0, 3.0, 0.0]", "0.5",
             "[0.5, -1.0, 1.5, 0.0]"),
    "Divs": ("``dst = src / scalar`` (``dst = scalar / src`` with the scalar first; "
             "``Reg.Div``).", "float32_t", "[1.0, 3.0, -6.0, 0.0]", "2.0",
             "[0.5, 1.5, -3.0, 0.0]"),
    "Maxs": ("``dst = max(src, scalar)``.", "int32_t", "[-5, 7, 0, 100]", "0", "[0, 7, 0, 100]"),
    "Mins": ("``dst = min(src, scalar)``.", "float32_t", "[-5.0, 7.0, 0.5, 100.0]", "1.0",
             "[-5.0, 1.0, 0.5, 1.0]"),
    "Ands": ("``dst = src & scalar``.", "uint16_t", "[255, 256, 15, 0]", "15", "[15, 0, 15, 0]"),
    "Ors": ("``dst = src | scalar``.", "int16_t", "[1, 2, 4, 8]", "16", "[17, 18, 20, 24]"),
    "LeakyRelu": ("``dst = src > 0 ? src : src * scalar`` (``Reg.LeakyRelu``).", "float32_t",
                  "[2.0, -2.0, -0.0, 1.0]", "0.25", "[2.0, -0.5, -0.0, 1.0]"),
}  # fmt: skip


def _scalar_op(name: str) -> Any:
    _page, count, repeat, _core = SCALAR_OPS[name]
    summary, dtype, values, scalar, result = _SCALAR_EXAMPLES[name]
    doc = _SCALAR_DOC.format(name=name, summary=summary, types=_types(count),
                             repeat=_types(repeat), dtype=dtype, values=values, scalar=scalar,
                             result=result)  # fmt: skip
    return basic_op(name, base=_ConfiguredOp, doc=doc)(_scalar_binary)


Adds, Subs, Muls, Divs, Maxs, Mins, Ands, Ors, LeakyRelu = map(_scalar_op, SCALAR_OPS)


# ---- shifts ---------------------------------------------------------------------------------------


def _shift(op: Any, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``Shift(dst, src, scalarValue, ...)`` or the count form with per-element counts."""
    dtype = same_type(op, (dst, "dst"), (src0, "src"))
    if isinstance(src1, LocalTensor):
        counts_type = op.tensor(src1, "src1")._dtype()
        op.spec.check(dtype, counts_type)
        lanes, _ = form_lanes(op, (dtype,), rest, UnaryRepeatParams, "dst, src0, src1")
        if not lanes.contiguous:
            raise AscregTypeError(
                "the per-element shift counts (a LocalTensor src1) take the count form only"
            )
        run(op.name, lanes, [Stream(dst, "dst")], [Stream(src0, "src0"), Stream(src1, "src1")],
            lambda v, c: [shifts.zeroing_shift(v, c, np.ones(v.shape, bool), left=op.left)])  # fmt: skip
        return
    if len(rest) == 4:  # ShiftRight's roundEn
        round_en = rest[-1]
        rest = rest[:3]
        if round_en:
            raise UnsupportedError("roundEn must be false on the 950 (the page: 仅支持传入false)")
    op.spec.check_prefix(dtype)
    value = operands.scalar(src1, dtype, "scalarValue")
    count = np.array(int(np.asarray(value).astype(np.int64)), dtype=np.int64).astype(np.int16)
    lanes, strides = form_lanes(op, (dtype,), rest, UnaryRepeatParams, "dst, src, scalarValue")
    run(op.name, lanes, streams(((dst, "dst"),), strides[:1]),
        streams(((src0, "src"),), strides[1:]),
        lambda v: [shifts.zeroing_shift(v, count, np.ones(v.shape, bool), left=op.left)])  # fmt: skip


def _shift_doc(name: str, direction: str, example: str, result: str) -> str:
    return f"""``{name}(dst, src, scalarValue, count)`` / ``{name}(dst, src, scalarValue, mask, repeatTime, UnaryRepeatParams{", roundEn" if name == "ShiftRight" else ""})``.

    Shift every element {direction} by ``scalarValue`` (``Reg.{name}s``: converted to
    ``int16_t``; unsigned shifts are logical, a signed right shift arithmetic, a signed left
    shift keeps the sign bit; a count at or above the width gives 0 or the sign fill; a
    negative count is undefined and a ``NegativeShiftError``). ``{name}(dst, src0, src1,
    count)`` with a LocalTensor ``src1`` of the signed type of the same width shifts each
    element by its own count (count form only). Types: {_types(tuple(p[0] for p in SHIFT_PAIRS))}
    (repeat forms: {_types(SHIFT_REPEAT)}).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int16_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 64]()
    ...     x.GetPhyAddr().write({example}); PipeBarrier[PIPE_ALL]()
    ...     {name}(x, x, 2, 4); PipeBarrier[PIPE_ALL]()
    ...     x.GetPhyAddr().read(4).tolist()
    {result}
"""


ShiftLeft = basic_op("ShiftLeft", base=_ConfiguredOp, max_dtypes=2,
                     doc=_shift_doc("ShiftLeft", "left", "[1, -1, 8191, 0]", "[4, -4, 32764, 0]"),
                     left=True)(_shift)  # fmt: skip
ShiftRight = basic_op("ShiftRight", base=_ConfiguredOp, max_dtypes=2,
                      doc=_shift_doc("ShiftRight", "right", "[16, -16, 3, 0]", "[4, -4, 0, 0]"),
                      left=False)(_shift)  # fmt: skip


# ---- fills ----------------------------------------------------------------------------------------


def _fill_value(op: BasicOp, dtype: type[Scalar], value: Any, role: str) -> Any:
    if isinstance(value, LocalTensor):
        if value._dtype() is not dtype:
            raise AscregTypeError(
                f"src is a {value._cpp()} but dst is LocalTensor<{dtype.cpp_name}>"
            )
        return _vector_read(op, value, "src")
    return operands.scalar(value, dtype, role)


def _fill_lanes(
    op: BasicOp, dtype: type[Scalar], rest: tuple[Any, ...]
) -> tuple[Lanes, tuple[tuple[int, int], ...]]:
    """``(count)`` or ``(mask, repeatTime, dstBlockStride, dstRepeatStride)``."""
    if len(rest) == 4:
        mask, times, block, repeat = rest
        params = UnaryRepeatParams(operands.integer(block, "dstBlockStride"), 1,
                                   operands.integer(repeat, "dstRepeatStride"), 8)  # fmt: skip
        return form_lanes(op, (dtype,), (mask, times, params), UnaryRepeatParams, "")
    if len(rest) != 1:
        raise AscregTypeError(
            "takes (dst, value, count) or (dst, value, mask, repeatTime, dstBlockStride, "
            f"dstRepeatStride); got {len(rest)} argument(s) after the value",
            call=op.name,
        )
    return form_lanes(op, (dtype,), rest, UnaryRepeatParams, "dst, value")


def _duplicate(op: BasicOp, dst: Any, scalarValue: Any, *rest: Any) -> None:
    (dtype,) = op.dtypes((dst, "dst"))
    if isinstance(scalarValue, LocalTensor) and len(rest) != 1:
        raise AscregTypeError("Duplicate(dst, src LocalTensor, count) has the count form only")
    value = _fill_value(op, dtype, scalarValue, "scalarValue")
    lanes, strides = _fill_lanes(op, dtype, rest)
    run(op.name, lanes, streams(((dst, "dst"),), strides[:1]), [],
        lambda: [np.full(int(lanes.active.sum()), value, dtype=dtype.np_dtype)])  # fmt: skip


def _create_vec_index(op: BasicOp, dst: Any, firstValue: Any, *rest: Any) -> None:
    (dtype,) = op.dtypes((dst, "dst"))
    first = operands.scalar(firstValue, dtype, "firstValue")
    lanes, strides = _fill_lanes(op, dtype, rest)

    def compute() -> list[Array]:
        rep, lane = np.nonzero(lanes.active)
        return [vec_index(first, dtype, lanes, rep, lane)]

    run(op.name, lanes, streams(((dst, "dst"),), strides[:1]), [], compute)


def vec_index(first: Any, dtype: type[Scalar], lanes: Lanes, rep: Array, lane: Array) -> Array:
    """``CreateVecIndex``'s values: ``Reg.Arange(firstValue)``, then ``Reg.Adds(., width)`` per repeat.

    Each repeat adds the lane count to the previous repeat's register, one rounding per add,
    as the 950 does (an int64 count form starts each repeat from ``firstValue + r * 64``:
    integers wrap alike).

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.basic._repeat import count_lanes
    >>> lanes = count_lanes(300, 128); rep, lane = np.nonzero(lanes.active)
    >>> vec_index(np.float16(0.5), half, lanes, rep, lane)[[0, 129, 299]].tolist()
    [0.5, 129.5, 299.5]
    """
    register = arith.arange(first, dtype.np_dtype, lanes.width)
    step = np.full_like(register, np.array(lanes.width).astype(dtype.np_dtype))  # T(width): wraps
    rows = [register]
    for _ in range(1, lanes.repeats):
        register = arith.BINARY_OPS["Add"](register, step)
        rows.append(register)
    table: Array = np.stack(rows)
    return table[rep, lane]


_FILL_DOC = {
    "Duplicate": """``Duplicate(dst, scalarValue | src, count)`` / ``Duplicate(dst, scalarValue, mask, repeatTime, dstBlockStride, dstRepeatStride)``.

    Write ``scalarValue`` (converted to ``T``) to the selected elements; in the count form a
    LocalTensor ``src`` gives its element 0 instead. Masked-off lanes are not written.
    Types: {types} (repeat forms: {repeat}).

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[half, 256]()
    ...     Duplicate(y, 0.0, 256)
    ...     Duplicate[half](y, 2.5, 20)
    ...     Duplicate(y[128], 1.0, [0b101, 0], 1, 1, 8)   # the bit-mask repeat form
    ...     PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(256)[[0, 19, 20, 128, 129, 130]].tolist()
    [2.5, 2.5, 0.0, 1.0, 0.0, 1.0]
""",
    "CreateVecIndex": """``CreateVecIndex(dst, firstValue, count)`` / ``CreateVecIndex(dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride)``.

    Lane ``j`` of repeat ``r`` gets ``firstValue + j`` plus ``r`` times the lane count, each
    step rounded in ``T`` as the 950 computes it (``Reg.Arange``, then one ``Reg.Adds`` per
    repeat). Types: {types} (repeat forms: {repeat}).

    Examples
    --------
    >>> from ascreg import int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[int32_t, 128]()
    ...     CreateVecIndex(y, 10, 100); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(100)[[0, 63, 64, 99]].tolist()
    [10, 73, 74, 109]
""",
}


def _fill_op(name: str, impl: Callable[..., None]) -> Any:
    _page, count, repeat, _core = FILL_OPS[name]
    doc = _FILL_DOC[name].format(types=_types(count), repeat=_types(repeat))
    return basic_op(name, base=_ConfiguredOp, doc=doc)(impl)


Duplicate = _fill_op("Duplicate", _duplicate)
CreateVecIndex = _fill_op("CreateVecIndex", _create_vec_index)

__all__ = [
    "DEFAULT_BINARY_CONFIG",
    "DEFAULT_DIV_CONFIG",
    "DEFAULT_EXP_CONFIG",
    "DEFAULT_LN_CONFIG",
    "DEFAULT_RECIPROCAL_CONFIG",
    "DEFAULT_RSQRT_CONFIG",
    "DEFAULT_SQRT_CONFIG",
    "Abs",
    "AbsSub",
    "Add",
    "AddRelu",
    "Adds",
    "And",
    "Ands",
    "Axpy",
    "BinaryConfig",
    "CreateVecIndex",
    "Div",
    "DivAlgo",
    "DivConfig",
    "Divs",
    "Duplicate",
    "Exp",
    "ExpAlgo",
    "ExpConfig",
    "FusedMulAdd",
    "LeakyRelu",
    "Ln",
    "LnAlgo",
    "LnConfig",
    "Max",
    "Maxs",
    "Min",
    "Mins",
    "Mul",
    "MulAddDst",
    "MulAddRelu",
    "Muls",
    "Neg",
    "Not",
    "Or",
    "Ors",
    "Prelu",
    "Reciprocal",
    "ReciprocalAlgo",
    "ReciprocalConfig",
    "Relu",
    "Rsqrt",
    "RsqrtAlgo",
    "RsqrtConfig",
    "ShiftLeft",
    "ShiftRight",
    "Sqrt",
    "SqrtAlgo",
    "SqrtConfig",
    "Sub",
    "SubRelu",
    "Subs",
]


# ---- mixed-type multiply-adds ------------------------------------------------------------------------


def _mixed(op: Any, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``MulAddDst(dst, src0, src1, ...)`` / ``Axpy(dst, src, scalarValue, ...)``: T dst, U sources."""
    target, source = op.dtypes((dst, "dst"), (src0, "src0" if op.name == "MulAddDst" else "src"))
    core = op.spec.core_function()
    wide = target.np_dtype
    tensors: tuple[tuple[Any, str], ...]
    if op.name == "MulAddDst":
        same_type(op, (src0, "src0"), (src1, "src1"))
        tensors = ((dst, "dst"), (src0, "src0"), (src1, "src1"))
        kind: type[Any] = BinaryRepeatParams
        scalar = None
    else:
        tensors = ((dst, "dst"), (src0, "src"))
        kind = UnaryRepeatParams
        scalar = np.asarray(operands.scalar(src1, source, "scalarValue"), dtype=source.np_dtype)
    lanes, strides = form_lanes(op, (target, source), rest, kind,
                                ", ".join(r for _, r in tensors), target)  # fmt: skip
    operands_ = streams(tensors, strides)

    def compute(*values: Array) -> list[Array]:
        *sources, old = values
        widened = [v.astype(wide) for v in sources]  # half -> float is exact
        if scalar is not None:
            widened.append(np.full(old.shape, scalar.astype(wide), dtype=wide))
        return [core(*widened, old)]

    run(op.name, lanes, operands_[:1], [*operands_[1:], operands_[0]], compute,
        accumulate=lambda found: found.sources == ("dst",))  # fmt: skip


class _MixedOp(BasicOp):
    max_dtypes = 2


MulAddDst = basic_op(
    "MulAddDst",
    base=_MixedOp,
    doc="""``MulAddDst<T, U>(dst, src0, src1, count)`` / ``(..., mask, repeatTime, BinaryRepeatParams)``.

    ``dst = src0 * src1 + dst`` with one rounding (``Reg.MulAddDst``); ``half`` sources of a
    ``float`` dst are converted exactly first and the mask counts float lanes. Pairs (T, U):
    (half, half), (float, float), (float, half), and int64_t / uint64_t (count form only).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     d = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     a.GetPhyAddr().write([0.5, 3.0, -2.0, 1.0]); d.GetPhyAddr().write([1.0, 1.0, 1.0, 1.0])
    ...     PipeBarrier[PIPE_ALL]()
    ...     MulAddDst(d, a, a, 4); PipeBarrier[PIPE_ALL]()
    ...     d.GetPhyAddr().read(4).tolist()
    [1.25, 10.0, 5.0, 2.0]
    """,
)(_mixed)
Axpy = basic_op(
    "Axpy",
    base=_MixedOp,
    doc="""``Axpy<T, U>(dst, src, scalarValue, count)`` / ``(..., mask, repeatTime, UnaryRepeatParams)``.

    ``dst = scalarValue * src + dst`` with one rounding (``Reg.Axpy``); a ``half`` source and
    scalar of a ``float`` dst are converted exactly first. Pairs (T, U): (half, half),
    (float, float), (float, half), (bfloat16_t, bfloat16_t), and int64_t / uint64_t (count form
    only).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     x.GetPhyAddr().write([1.0, 2.0, 3.0]); y.GetPhyAddr().write([10.0, 10.0, 10.0])
    ...     PipeBarrier[PIPE_ALL]()
    ...     Axpy(y, x, 2.0, 3); PipeBarrier[PIPE_ALL]()
    ...     y.GetPhyAddr().read(3).tolist()
    [12.0, 14.0, 16.0]
    """,
)(_mixed)

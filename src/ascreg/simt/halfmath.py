"""The SIMT ``half`` and ``bfloat16_t`` scalar functions (``asc_fp16.h``, ``asc_bf16.h``).

Arithmetic (``__habs`` ... ``__hfma_relu``; ``__hadd`` is the integer ``__hadd`` of
:mod:`ascreg.simt.intrinsics`, which takes half and bfloat16 values too), comparisons
(``__heq`` ... ``__hgtu``, ``__hisnan``, ``__hisinf``), max/min, the math library (``hsin`` ...
``htrunc``) and the scalar conversions (``__float2half_rn``, ``__half2int_rz``,
``__ull2bfloat16_rd``, ``__ushort_as_half`` ...). Every function is one row of
:data:`ascreg._spec.SPECS`, defined by a loop over the tables of :mod:`ascreg._spec.simt`; the
lane math is :mod:`ascreg.core.halfmath`.

Arguments (C parameter rules)
-----------------------------
* ``half`` / ``bfloat16_t`` parameters take ``np.float16`` / ``ml_dtypes.bfloat16`` scalars
  and arrays (a kernel's :class:`~ascreg.simt.Lanes`). For a function with both overloads the
  numpy arguments' dtype picks one; Python numbers alone are ambiguous (as in C++) and raise,
  with at least one typed argument they are converted to its type (nearest even). Other dtypes
  are an error: ascreg never narrows silently.
* ``float`` parameters follow :mod:`ascreg.simt.floatmath`; ``int`` / ``unsigned int`` /
  ``long long`` / ``unsigned long long`` / ``unsigned short`` parameters follow
  :mod:`ascreg.simt.intrinsics` (a Python int must fit the parameter).
* Results have the C return type (``bool`` for comparisons); a numpy scalar when every argument
  was a scalar, ``Lanes`` when an argument was.

Semantics (each a test in ``tests/simt/test_halfmath.py``)
----------------------------------------------------------
* Arithmetic and the math library round once to nearest even (``CAST_RINT``); results are the
  correctly rounded value of the exact result (see :mod:`ascreg.core.halfmath` for why the
  float64 computation is exact enough). The documentation states no ulp bound for the math
  library; ascreg returns the correctly rounded result.
* NaN, ±inf and ±0 follow IEEE 754 and the pages' tables in the default (non-saturating) mode.
  Where a page's table writes an unsigned ``0`` / ``inf`` for a signed zero input, ascreg keeps
  the IEEE sign (``hsqrt(-0) = -0``, ``hrcp(-0) = -inf``); ``__habs`` always clears the sign.
* bfloat16 ``__hdiv``, ``hexp``, ``hexp2``, ``hexp10``, ``hsqrt``, ``hrcp`` and ``hrsqrt``
  flush subnormal inputs and results to a zero of their sign (documented for the 950).
* Conversions to half / bfloat16 round once by the suffix (``rn``, ``rz``, ``rd``, ``ru``,
  ``rna``, ``ro``); out of range gives ±inf (±max where the rounding direction is toward zero).
  The ``_sat`` forms saturate only when CTRL[60] = 0, which a SIMT program cannot set and
  ascreg does not model: in the default CTRL state they return what their non-``_sat`` twin
  returns (documented on each ``_sat`` page).
* Conversions to integers always saturate: NaN gives 0, values beyond the range (and ±inf)
  give the type's maximum / minimum.

Examples
--------
>>> import numpy as np
>>> from ascreg.simt import __hmul, __float2half_rz, __half2int_rn, hsqrt
>>> float(__hmul(np.float16(3), 1.5)), float(__float2half_rz(1.0009)), int(__half2int_rn(np.float16(2.5)))
(4.5, 1.0, 2)
>>> float(hsqrt(np.float16(2)))
1.4140625
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, bfloat16_t, bool_, float32_t, half, uint16_t
from ascreg._frontend import operands
from ascreg._frontend.operands import Signature
from ascreg._frontend.template import define
from ascreg._spec import SPECS
from ascreg._spec.simt import (
    HALF_ARITHMETIC,
    HALF_CLASSIFY,
    HALF_COMPARES,
    HALF_CONVERSIONS,
    HALF_MATH,
)
from ascreg.core import halfmath
from ascreg.machine.simt.lanes import apply_lanewise

Arr = np.ndarray[Any, Any]

CTRL_SATURATION = False
"""Whether the ``_sat`` conversions saturate: CTRL[60] is 1 by default (and a SIMT program cannot
change it), so they do not; the core supports both (``saturate=``)."""


def _overloads(op: Any) -> tuple[Signature, ...]:
    return tuple(Signature(*combo) for combo in op.spec.combos)


def _same_type(op: Any, *values: Any) -> Any:
    """Pick the half or bfloat16 overload, convert the arguments, apply the row's formula."""
    sig = operands.c_half_overload(op.name, values, _overloads(op))
    converted = [
        operands.c_half(op.name, n, v, d)
        for n, v, d in zip(op.spec.roles, values, sig.dtypes, strict=True)
    ]
    return apply_lanewise(values, converted, op.formula)


def _parameter(op: Any, value: Any, ctype: type[Scalar]) -> Arr:
    """Convert the one argument of a conversion to its C parameter type."""
    if ctype in (half, bfloat16_t):
        return operands.c_half(op.name, "x", value, ctype.np_dtype)
    if ctype is float32_t:
        return operands.c_float(op.name, "x", value)
    arg = operands.c_integer(op.name, "x", value)
    if ctype is uint16_t and isinstance(arg, int):  # C converts an int constant that fits
        arg = operands.c_convert(operands.in_range(arg, "x", 0, 0xFFFF), ctype.np_dtype)
    sig = operands.c_overload(op.name, ("x",), [arg], (Signature(ctype),))
    return operands.c_convert(arg, sig.dtypes[0])


def _convert(op: Any, x: Any) -> Any:
    arg = _parameter(op, x, op.spec.combos[0][0])
    return apply_lanewise((x,), [arg], op.formula)


# --- docstrings: the C prototypes, one sentence per kind, an example per row ------------------

_CTYPE = {half: "half", bfloat16_t: "bfloat16_t", float32_t: "float", uint16_t: "unsigned short",
          bool_: "bool"}  # fmt: skip


def _prototypes(name: str) -> str:
    spec = SPECS[name]
    results = spec.shape.results  # type: ignore[union-attr]
    lines = []
    for combo, result in zip(spec.combos, results, strict=True):
        params = ", ".join(
            f"{_CTYPE.get(d) or operands.C_NAMES[d]} {r}"
            for d, r in zip(combo, spec.roles, strict=True)
        )
        lines.append(f"``{_CTYPE.get(result) or operands.C_NAMES[result]} {name}({params})``")
    return " / ".join(lines)


def _doc(name: str, summary: str, example: str) -> str:
    return f"""{_prototypes(name)}.

{summary}

Examples
--------
>>> import numpy as np
{example}
"""


_ARITHMETIC_DOCS = {
    "__habs": ("The absolute value (the sign bit cleared; NaN stays NaN).",
               "np.float16(-2.5)", "2.5"),
    "__hneg": ("The negation (the sign bit flipped).", "np.float16(1.5)", "-1.5"),
    "__hsub": ("``x - y``, rounded once to nearest even.", "np.float16(1), np.float16(2**-12)",
               "1.0"),
    "__hmul": ("``x * y``, rounded once to nearest even (overflow gives ±inf).",
               "np.float16(300), np.float16(300)", "inf"),
    "__hdiv": ("``x / y``, rounded once to nearest even; ``x / ±0`` is ±inf, ``0 / 0`` NaN. "
               "bfloat16: subnormal inputs and results are flushed to ±0 (950).",
               "np.float16(1), np.float16(3)", "0.333251953125"),
    "__hfma": ("``x * y + z`` with a single rounding (nearest even).",
               "np.float16(1 + 2**-10), np.float16(1 + 2**-10), np.float16(-1)", "0.001953125"),
    "__hfma_relu": ("``x * y + z`` with a single rounding; a negative result becomes +0.",
                    "np.float16(2), np.float16(-3), np.float16(1)", "0.0"),
    "__hmax": ("The larger value; a NaN operand is ignored (NaN only if both are); "
               "``max(+0, -0)`` is +0.", "np.float16(np.nan), np.float16(1)", "1.0"),
    "__hmin": ("The smaller value; a NaN operand is ignored; ``min(+0, -0)`` is -0.",
               "np.float16(-0.0), np.float16(0.0)", "-0.0"),
    "__hmax_nan": ("The larger value; NaN when either operand is NaN.",
                   "np.float16(np.nan), np.float16(1)", "nan"),
    "__hmin_nan": ("The smaller value; NaN when either operand is NaN.",
                   "np.float16(2), np.float16(1)", "1.0"),
}  # fmt: skip
"""Summary, example arguments and the example's result of each arithmetic row."""

_COMPARE_DOCS = {
    "eq": ("x == y", "[False, True, False, False]"),
    "ne": ("x != y", "[True, False, True, False]"),
    "le": ("x <= y", "[False, True, True, False]"),
    "ge": ("x >= y", "[True, True, False, False]"),
    "lt": ("x < y", "[False, False, True, False]"),
    "gt": ("x > y", "[True, False, False, False]"),
}
"""The relation and the results of ``x = 1`` against ``y = 0, 1, 2, NaN`` (ordered forms; the
unordered ``u`` forms give True for the NaN)."""

_MATH_DOCS = {
    "sin": ("sin(x)", "0.4794921875"), "cos": ("cos(x)", "0.87744140625"),
    "tanh": ("tanh(x)", "0.462158203125"), "exp": ("e**x", "1.6484375"),
    "exp2": ("2**x", "1.4140625"), "exp10": ("10**x", "3.162109375"),
    "log": ("ln(x)", "-0.693359375"), "log2": ("log2(x)", "-1.0"),
    "log10": ("log10(x)", "-0.301025390625"), "sqrt": ("the square root", "0.70703125"),
    "rsqrt": ("1 / sqrt(x)", "1.4140625"), "rcp": ("1 / x", "2.0"),
    "floor": ("the largest integral value <= x", "-3.0"),
    "rint": ("the nearest integral value (ties to even)", "-2.0"),
    "ceil": ("the smallest integral value >= x", "-2.0"),
    "trunc": ("the integral value toward zero", "-2.0"),
}  # fmt: skip
"""What each ``h<name>`` computes and its half result at ``x = 0.5`` (``-2.5`` for rounding)."""

_MODES = {"rn": "to nearest, ties to even", "rz": "toward zero", "rd": "down (toward -inf)",
          "ru": "up (toward +inf)", "rna": "to nearest, ties away from zero",
          "ro": "to odd (an inexact result takes the odd neighbour)"}  # fmt: skip

_CONVERSION_EXAMPLES = {
    # (source kind, destination kind): (argument, {mode: result list})
    ("float", "half"): ("np.float32([1 + 2**-11 + 2**-13, -1 - 2**-11 - 2**-13])", {
        "rn": "[1.0009765625, -1.0009765625]", "rz": "[1.0, -1.0]",
        "rd": "[1.0, -1.0009765625]", "ru": "[1.0009765625, -1.0]",
        "rna": "[1.0009765625, -1.0009765625]", "ro": "[1.0009765625, -1.0009765625]"}),
    ("float", "bf16"): ("np.float32([1 + 2**-8 + 2**-10, -1 - 2**-8 - 2**-10])", {
        "rn": "[1.0078125, -1.0078125]", "rz": "[1.0, -1.0]", "rd": "[1.0, -1.0078125]",
        "ru": "[1.0078125, -1.0]", "rna": "[1.0078125, -1.0078125]"}),
    ("half", "bf16"): ("np.float16([1 + 2**-8 + 2**-10, 1 + 2**-8])", {
        "rn": "[1.0078125, 1.0]", "rz": "[1.0, 1.0]", "rd": "[1.0, 1.0]",
        "ru": "[1.0078125, 1.0078125]", "rna": "[1.0078125, 1.0078125]"}),
    ("bf16", "half"): ("np.array([99840, 2**-25 + 2**-26], dtype=ml_dtypes.bfloat16)", {
        "rn": "[inf, 5.960464477539063e-08]", "rz": "[65504.0, 0.0]", "rd": "[65504.0, 0.0]",
        "ru": "[inf, 5.960464477539063e-08]", "rna": "[inf, 5.960464477539063e-08]"}),
    ("same", "same"): ("[2.5, 3.5, -2.5]", {
        "rn": "[2.0, 4.0, -2.0]", "rz": "[2.0, 3.0, -2.0]", "rd": "[2.0, 3.0, -3.0]",
        "ru": "[3.0, 4.0, -2.0]", "rna": "[3.0, 4.0, -3.0]"}),
    ("float", "int"): ("[2.5, 3.5, -2.5, np.inf]", {
        "rn": "[2, 4, -2, {max}]", "rz": "[2, 3, -2, {max}]", "rd": "[2, 3, -3, {max}]",
        "ru": "[3, 4, -2, {max}]", "rna": "[3, 4, -3, {max}]"}),
    ("float", "uint"): ("[2.5, 3.5, -2.5, np.inf]", {
        "rn": "[2, 4, 0, {max}]", "rz": "[2, 3, 0, {max}]", "rd": "[2, 3, 0, {max}]",
        "ru": "[3, 4, 0, {max}]", "rna": "[3, 4, 0, {max}]"}),
    ("int", "half"): ("[2049, -2049]", {
        "rn": "[2048.0, -2048.0]", "rz": "[2048.0, -2048.0]", "rd": "[2048.0, -2050.0]",
        "ru": "[2050.0, -2048.0]", "rna": "[2050.0, -2050.0]"}),
    ("uint", "half"): ("[2049, 2051]", {
        "rn": "[2048.0, 2052.0]", "rz": "[2048.0, 2050.0]", "rd": "[2048.0, 2050.0]",
        "ru": "[2050.0, 2052.0]", "rna": "[2050.0, 2052.0]"}),
    ("int", "bf16"): ("[257, -257]", {
        "rn": "[256.0, -256.0]", "rz": "[256.0, -256.0]", "rd": "[256.0, -258.0]",
        "ru": "[258.0, -256.0]", "rna": "[258.0, -258.0]"}),
    ("uint", "bf16"): ("[257, 259]", {
        "rn": "[256.0, 260.0]", "rz": "[256.0, 258.0]", "rd": "[256.0, 258.0]",
        "ru": "[258.0, 260.0]", "rna": "[258.0, 260.0]"}),
}  # fmt: skip
"""Example arguments and the documented results per rounding mode, by conversion kind."""

_NP = {half: "np.float16", bfloat16_t: "ml_dtypes.bfloat16", float32_t: "np.float32"}


def _kind(d: type[Scalar]) -> str:
    if d in (half, float32_t):
        return {half: "half", float32_t: "float"}[d]
    if d is bfloat16_t:
        return "bf16"
    return "uint" if d.np_dtype.kind == "u" else "int"


def _conversion_example(name: str) -> str:
    src, dst, mode, _sat = HALF_CONVERSIONS[name]
    if src is uint16_t:
        one, minus_inf = ("0x3C00", "0xFC00") if dst is half else ("0x3F80", "0xFF80")
        return f">>> float({name}({one})), float({name}({minus_inf}))\n(1.0, -inf)"
    if dst is float32_t:
        return f">>> {name}(np.array([1.5, -np.inf], dtype={_NP[src]})).tolist()\n[1.5, -inf]"
    if src is dst:
        arg, results = _CONVERSION_EXAMPLES[("same", "same")]
        value = f"np.array({arg}, dtype={_NP[src]})"
        return f">>> {name}({value}).tolist()\n{results[mode]}"
    key = (_kind(src), _kind(dst))
    if _kind(dst) in ("int", "uint"):
        arg, results = _CONVERSION_EXAMPLES[("float", _kind(dst))]
        info = np.iinfo(dst.np_dtype)
        value = f"np.array({arg}, dtype={_NP[src]})"
        return f">>> {name}({value}).tolist()\n{results[mode].format(max=int(info.max))}"
    arg, results = _CONVERSION_EXAMPLES[key]
    if key[0] in ("int", "uint"):
        arg = f"np.array({arg}, dtype=np.{src.np_dtype.name})"
    return f">>> {name}({arg}).tolist()\n{results[mode]}"


def _conversion_doc(name: str) -> str:
    src, dst, mode, sat = HALF_CONVERSIONS[name]
    if src is uint16_t:
        text = "Reinterpret the 16 bits of ``x``."
    elif dst is float32_t:
        text = "Widen exactly (NaN, ±inf and ±0 are kept)."
    elif src is dst:
        text = f"Round to an integral value, {_MODES[mode]} (``CAST_{mode.upper()}``)."
    elif dst in (half, bfloat16_t):
        text = (
            f"Convert, rounding {_MODES[mode]}; a value beyond the range gives ±inf (±max "
            "where the rounding goes toward zero), NaN stays NaN."
        )
        if sat:
            text += (
                " ``_sat``: saturation (±inf and overflow to ±max, NaN to 0) takes effect "
                "only under CTRL[60] = 0, which a SIMT program cannot set; ascreg models the "
                "default CTRL state, so this returns what the non-``_sat`` form returns."
            )
    else:
        text = (
            f"Convert, rounding {_MODES[mode]}, saturating: NaN gives 0, +inf and values "
            "above the range the maximum, -inf and values below it the minimum."
        )
    example = _conversion_example(name)
    if "ml_dtypes" in example:
        example = ">>> import ml_dtypes\n" + example
    return _doc(name, text, example)


def _math_doc(name: str) -> str:
    what, result = _MATH_DOCS[name]
    x = "-2.5" if name in ("floor", "rint", "ceil", "trunc") else "0.5"
    flushed = (
        " bfloat16: subnormal inputs and results are flushed to ±0 (950)."
        if name in halfmath.FLUSHED_BF16
        else ""
    )
    text = (f"{what}, correctly rounded to nearest even (the documentation states no ulp bound; "
            f"ascreg returns the correctly rounded value).{flushed}")  # fmt: skip
    return _doc("h" + name, text, f">>> float(h{name}(np.float16({x})))\n{result}")


def _compare_doc(name: str) -> str:
    relation, results = _COMPARE_DOCS[name.removeprefix("__h").removesuffix("u")]
    unordered = name.endswith("u")
    if unordered:
        results = results.rsplit(",", 1)[0] + ", True]"
    nan = "true" if unordered else "false"
    text = f"``{relation}``; {nan} when either operand is NaN."
    example = (f">>> [bool({name}(np.float16(1), np.float16(y))) for y in (0, 1, 2, np.nan)]\n"
               f"{results}")  # fmt: skip
    return _doc(name, text, example)


_CLASSIFY_DOCS = {"__hisnan": ("True for NaN.", "[False, False, True]"),
                  "__hisinf": ("True for +inf and -inf.", "[False, True, False]")}  # fmt: skip


def _classify_doc(name: str) -> str:
    text, results = _CLASSIFY_DOCS[name]
    example = f">>> [bool({name}(np.float16(v))) for v in (1, -np.inf, np.nan)]\n{results}"
    return _doc(name, text, example)


def _arithmetic_doc(name: str) -> str:
    text, args, result = _ARITHMETIC_DOCS[name]
    return _doc(name, text, f">>> float({name}({args}))\n{result}")


def _conversion_formula(name: str) -> Callable[..., Arr]:
    _src, dst, mode, sat = HALF_CONVERSIONS[name]
    function = SPECS[name].core_function()
    target = dst.np_dtype
    if function is halfmath.bits_as or function is halfmath.to_int:
        return (
            functools.partial(function, dst=target)
            if function is halfmath.bits_as
            else (functools.partial(function, dst=target, mode=mode))
        )
    if function is halfmath.round_integral:
        return functools.partial(function, mode=mode)
    return functools.partial(function, dst=target, mode=mode, saturate=sat and CTRL_SATURATION)


def _define_all() -> dict[str, Any]:
    ops: dict[str, Any] = {}
    for name in HALF_ARITHMETIC:
        ops[name] = define(name, doc=_arithmetic_doc(name),
                           formula=staticmethod(SPECS[name].core_function()))(_same_type)  # fmt: skip
    for name in HALF_COMPARES:
        ops[name] = define(name, doc=_compare_doc(name),
                           formula=staticmethod(SPECS[name].core_function()))(_same_type)  # fmt: skip
    for name in HALF_CLASSIFY:
        ops[name] = define(name, doc=_classify_doc(name),
                           formula=staticmethod(SPECS[name].core_function()))(_same_type)  # fmt: skip
    for short in HALF_MATH:
        formula = functools.partial(halfmath.math, short)
        ops["h" + short] = define("h" + short, doc=_math_doc(short),
                                  formula=staticmethod(formula))(_same_type)  # fmt: skip
    for name in HALF_CONVERSIONS:
        ops[name] = define(name, doc=_conversion_doc(name),
                           formula=staticmethod(_conversion_formula(name)))(_convert)  # fmt: skip
    return ops


_OPS = _define_all()
globals().update(_OPS)
for _op in _OPS.values():
    _op.__module__ = __name__

__all__ = sorted(_OPS)


def add_half(x: Any, y: Any) -> Any:
    """Add half or bfloat16 values (the ``__hadd`` overloads), rounding once to nearest even.

    :func:`ascreg.simt.__hadd` calls this when an argument is a half or bfloat16 value (the
    integer overload ``__hadd(int, int)`` shares the name).

    Examples
    --------
    >>> import numpy as np
    >>> float(add_half(np.float16(1), np.float16(2**-11)))  # a tie: to even
    1.0
    """
    sigs = (Signature(half, half), Signature(bfloat16_t, bfloat16_t))
    sig = operands.c_half_overload("__hadd", (x, y), sigs)
    converted = [operands.c_half("__hadd", n, v, sig.dtypes[0]) for n, v in (("x", x), ("y", y))]
    return apply_lanewise((x, y), converted, halfmath.add)


def is_half_call(*values: Any) -> bool:
    """Return True when an argument is a half or bfloat16 numpy value (``__hadd``'s choice).

    Examples
    --------
    >>> import numpy as np
    >>> is_half_call(1, np.float16(2)), is_half_call(1, 2)
    (True, False)
    """
    return any(
        isinstance(v, np.ndarray | np.generic) and np.asarray(v).dtype in halfmath.FORMATS
        for v in values
    )

"""The ``half2`` / ``bfloat16x2_t`` device functions: arithmetic, comparisons, math (``asc_fp16.h``).

Every function takes values of one pair type, :class:`~ascreg.simt.half2` or
:class:`~ascreg.simt.bfloat16x2_t` (both the same: C++ has no implicit conversion between them, or
from a number to a pair), and works on the two components independently through
:mod:`ascreg.core.pairs`: each result component is the exact result rounded once to nearest
even (see that module for how; the transcendental ``h2*`` functions are numpy's float64 function
rounded once). Special values follow IEEE 754, the documented non-saturating mode.

Result forms of the comparisons (``<op>`` is ``eq``, ``ne``, ``lt``, ``le``, ``gt``, ``ge``; a
``u`` after it is the unordered form, true where a component is NaN; the ordered forms, ``ne``
included, are false there):

* ``__h<op>x2(x, y)``: a pair of 1.0 / 0.0, per component;
* ``__hb<op>x2(x, y)``: one ``bool``, true when the comparison holds for both components;
* ``__h<op>x2_mask(x, y)``: an ``unsigned int``, 0xFFFF in the low 16 bits when it holds for
  ``x``, 0xFFFF in the high 16 bits when it holds for ``y``.

``__hmaxx2``/``__hminx2`` and their ``_nan`` forms all return NaN for a NaN component (the
documented tables of both say so); ``max(+0, -0)`` is +0 and ``min(+0, -0)`` is -0.

Per-thread pairs (a kernel's loads through a ``half2`` pointer) give per-thread results: pairs
of the same type, ``Lanes`` of ``bool`` or ``uint32`` for the ``hb`` and ``_mask`` forms.

Examples
--------
>>> from ascreg.simt import half2, __haddx2, __hbltx2, __hlex2_mask
>>> __haddx2(half2(1, 2), half2(0.5, 0.25))
half2(x=1.5, y=2.25)
>>> bool(__hbltx2(half2(1, 2), half2(3, 4))), hex(__hlex2_mask(half2(1, 5), half2(3, 4)))
(True, '0xffff')
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend.template import define
from ascreg._spec import SPECS
from ascreg._spec.shapes import SimtKind
from ascreg._spec.simt import PAIR_ARITHMETIC, pair_compare_names
from ascreg.core import pairs
from ascreg.core.fpenv import quiet
from ascreg.errors import AscregTypeError
from ascreg.machine.simt.lanes import Lanes
from ascreg.simt.vectors import bfloat16x2_t, half2

Arr = np.ndarray[Any, Any]
PAIR_TYPES: dict[str, Any] = {"half": half2, "bfloat16_t": bfloat16x2_t}
"""The pair class of each element type of the rows' combinations."""


def _operands(op: Any, values: tuple[Any, ...]) -> tuple[Any, list[Arr]]:
    """Check *values* against the row: one legal pair type for all. Return it and the components."""
    legal = [PAIR_TYPES[combo[0].__name__] for combo in op.spec.combos]
    names = " or ".join(cls.cpp_name for cls in legal)
    for role, value in zip(op.spec.roles, values, strict=True):
        if type(value) not in legal:
            raise AscregTypeError(
                f"{role} is {type(value).__name__} {value!r:.40}; {op.name} takes {names} "
                "values (C++ converts no number or other pair type to them implicitly)",
                call=op.name,
            )
    kinds = {type(v) for v in values}
    if len(kinds) > 1:
        given = ", ".join(type(v).cpp_name for v in values)
        raise AscregTypeError(
            f"({given}): the arguments of {op.name} must all be {names} of one type",
            call=op.name,
        )
    return kinds.pop(), [v.components() for v in values]


def _per_thread(values: Arr) -> Any:
    """Return one plain result per pair: ``Lanes`` per thread, else a numpy scalar."""
    values = np.asarray(values)
    return values[()] if values.ndim == 0 else values.view(Lanes)


def _arithmetic(op: Any, *values: Any) -> Any:
    cls, parts = _operands(op, values)
    result = op.formula(*parts)
    if result.dtype == np.bool_:  # __isnanx2: 1.0 / 0.0 per component
        result = pairs.as_numbers(result, parts[0].dtype)
    return cls.from_components(result)


def _compare(op: Any, x: Any, y: Any) -> Any:
    cls, parts = _operands(op, (x, y))
    flags = pairs.compare(op.operator, *parts, unordered=op.unordered)
    if op.kind is SimtKind.PAIR:
        return cls.from_components(pairs.as_numbers(flags, parts[0].dtype))
    return _per_thread(pairs.both(flags) if op.kind is SimtKind.PAIR_BOOL else pairs.as_mask(flags))


def _math(op: Any, x: Any) -> Any:
    cls, parts = _operands(op, (x,))
    return cls.from_components(pairs.math_function(op.function, parts[0]))


# -- docstrings: the C prototype, the rule, and an example checked against plain Python --------


def _shown(values: tuple[float, float]) -> str:
    return "half2(" + ", ".join(f"{f}={v!r}" for f, v in zip("xy", values, strict=True)) + ")"


def _half(v: float) -> float:
    with quiet():
        return float(np.float16(v))


_ARITHMETIC_DOCS: dict[str, tuple[str, str, str]] = {
    "__haddx2": ("``x + y`` per component, rounded once.", "half2(1, 2), half2(0.5, 0.25)",
                 "half2(x=1.5, y=2.25)"),
    "__hsubx2": ("``x - y`` per component, rounded once.", "half2(1, 2), half2(0.5, 4)",
                 "half2(x=0.5, y=-2.0)"),
    "__hmulx2": ("``x * y`` per component, rounded once.", "half2(3, 300), half2(0.5, 300)",
                 "half2(x=1.5, y=inf)"),
    "__hdivx2": ("``x / y`` per component, rounded once (``x / 0`` is ±inf).",
                 "half2(1, 1), half2(3, 0)", "half2(x=0.333251953125, y=inf)"),
    "__habsx2": ("``|x|`` per component (the sign bit clears).", "half2(-1.5, 2)",
                 "half2(x=1.5, y=2.0)"),
    "__hnegx2": ("``-x`` per component (the sign bit flips).", "half2(-1.5, 0)",
                 "half2(x=1.5, y=-0.0)"),
    "__hfmax2": ("``x * y + z`` per component with one rounding (fused: here the unfused product "
                 "would round to 1 and give 0).",
                 "half2(1.0009765625, 1), half2(0.9990234375, 1), half2(-1, 0.5)",
                 "half2(x=-9.5367431640625e-07, y=1.5)"),
    "__hfmax2_relu": ("``x * y + z`` per component with one rounding; a result ``<= 0`` is +0 "
                      "(NaN stays NaN).", "half2(2, 2), half2(3, -3), half2(1, 1)",
                      "half2(x=7.0, y=0.0)"),
    "__hcmadd": ("Complex ``x * y + z`` (``.x`` real, ``.y`` imaginary): real part "
                 "``fma(-x.y, y.y, fma(x.x, y.x, z.x))``, imaginary part "
                 "``fma(x.y, y.x, fma(x.x, y.y, z.y))``, each fma rounded once.",
                 "half2(1, 2), half2(3, 4), half2(0.5, 0.25)", "half2(x=-4.5, y=10.25)"),
    "__hmaxx2": ("The larger component; NaN if either is NaN (documented table); "
                 "``max(+0, -0)`` is +0.", "half2(1, float('nan')), half2(2, 1)",
                 "half2(x=2.0, y=nan)"),
    "__hmaxx2_nan": ("The larger component; NaN if either is NaN.",
                     "half2(-0.0, 3), half2(0, 1)", "half2(x=0.0, y=3.0)"),
    "__hminx2": ("The smaller component; NaN if either is NaN (documented table); "
                 "``min(+0, -0)`` is -0.", "half2(-0.0, 3), half2(0, 1)",
                 "half2(x=-0.0, y=1.0)"),
    "__hminx2_nan": ("The smaller component; NaN if either is NaN.",
                     "half2(float('nan'), 3), half2(0, 1)", "half2(x=nan, y=1.0)"),
    "__isnanx2": ("1.0 for a NaN component, else 0.0.", "half2(float('nan'), 3)",
                  "half2(x=1.0, y=0.0)"),
}  # fmt: skip
"""Each pair function returning a pair: its rule, an example's arguments and its result."""


def _prototype(name: str, result: str, count: int) -> str:
    params = ", ".join(f"half2 {r}" for r in "xyz"[:count])
    return f"``{result} {name}({params})``, and the same with ``bfloat16x2_t``"


def _arithmetic_doc(name: str) -> str:
    rule, args, shown = _ARITHMETIC_DOCS[name]
    count = len(PAIR_ARITHMETIC[name][0])
    return (
        f"{_prototype(name, 'half2', count)}.\n\n{rule}\n\nExamples\n--------\n"
        f">>> from ascreg.simt import half2, {name}\n>>> {name}({args})\n{shown}\n"
    )


_OPERATORS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_PYTHON_OPERATORS = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
}  # fmt: skip
_EXAMPLE_X, _EXAMPLE_Y = (1.0, math.nan), (2.0, 1.0)


def _holds(op: str, unordered: bool, a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return unordered
    return bool(_PYTHON_OPERATORS[op](a, b))


def _compare_doc(name: str) -> str:
    op, unordered, kind = pair_compare_names()[name]
    flags = [_holds(op, unordered, a, b) for a, b in zip(_EXAMPLE_X, _EXAMPLE_Y, strict=True)]
    nan = "true" if unordered else "false"
    result, form, shown = {
        SimtKind.PAIR: ("half2", "1.0 per component where it holds, else 0.0",
                        _shown((float(flags[0]), float(flags[1])))),
        SimtKind.PAIR_BOOL: ("bool", "true when it holds for both components",
                             repr(np.bool_(all(flags)))),
        SimtKind.PAIR_MASK: ("unsigned int", "0xFFFF in the low 16 bits where it holds for "
                             "component ``x``, 0xFFFF in the high 16 bits for ``y``",
                             repr(hex(0xFFFF * flags[0] | 0xFFFF0000 * flags[1]))),
    }[kind]  # fmt: skip
    call = f"{name}(half2(1, float('nan')), half2(2, 1))"
    shown_call = f"hex({call})" if kind is SimtKind.PAIR_MASK else call
    return (
        f"{_prototype(name, result, 2)}.\n\n``x {_OPERATORS[op]} y`` per component "
        f"(a NaN component compares {nan}); the result: {form}.\n\nExamples\n--------\n"
        f">>> from ascreg.simt import half2, {name}\n>>> {shown_call}\n{shown}\n"
    )


_MATH_EXAMPLES: dict[str, tuple[float, float]] = {
    "tanh": (0.5, -20), "exp": (1, -20), "exp2": (0.5, -30), "exp10": (2, 5), "log": (2, 0.5),
    "log2": (3, 8), "log10": (1000, 0.5), "cos": (1, 0), "sin": (1, -0.0), "sqrt": (2, 0.25),
    "rsqrt": (4, 0.25), "rcp": (3, -0.5), "rint": (2.5, -1.5), "floor": (-1.5, 2.5),
    "ceil": (-1.5, 2.5), "trunc": (-1.5, 2.5),
}  # fmt: skip
"""Each math function's example arguments (its expected result comes from Python's math)."""
_MATH_REFERENCE: dict[str, Callable[[float], float]] = {
    "exp10": lambda v: 10.0**v, "rsqrt": lambda v: 1 / math.sqrt(v), "rcp": lambda v: 1 / v,
    "rint": round,
}  # fmt: skip


def _reference(function: str, v: float) -> float:
    compute: Callable[[float], float] = _MATH_REFERENCE.get(function) or getattr(math, function)
    return float(compute(v))


def _math_doc(function: str) -> str:
    name = f"h2{function}"
    x = _MATH_EXAMPLES[function]
    shown = _shown((_half(_reference(function, x[0])), _half(_reference(function, x[1]))))
    exact = function in ("rint", "floor", "ceil", "trunc", "sqrt", "rcp", "rsqrt")
    accuracy = (
        "correctly rounded"
        if exact
        else "numpy's float64 result rounded once (correctly rounded except within one float64 "
        "ulp of a rounding midpoint)"
    )
    return (
        f"{_prototype(name, 'half2', 1)}.\n\n``{function}`` of each component, {accuracy}; "
        f"IEEE special values.\n\nExamples\n--------\n"
        f">>> from ascreg.simt import half2, {name}\n>>> {name}(half2{x!r})\n{shown}\n"
    )


# -- the functions, one row each ------------------------------------------------------------------


def _formula(name: str) -> Any:
    return staticmethod(SPECS[name].core_function())


def _comparison(name: str) -> dict[str, Any]:
    op, unordered, kind = pair_compare_names()[name]
    return {"operator": op, "unordered": unordered, "kind": kind}


__haddx2 = define("__haddx2", doc=_arithmetic_doc("__haddx2"), formula=_formula("__haddx2"))(
    _arithmetic
)
__hsubx2 = define("__hsubx2", doc=_arithmetic_doc("__hsubx2"), formula=_formula("__hsubx2"))(
    _arithmetic
)
__hmulx2 = define("__hmulx2", doc=_arithmetic_doc("__hmulx2"), formula=_formula("__hmulx2"))(
    _arithmetic
)
__hdivx2 = define("__hdivx2", doc=_arithmetic_doc("__hdivx2"), formula=_formula("__hdivx2"))(
    _arithmetic
)
__habsx2 = define("__habsx2", doc=_arithmetic_doc("__habsx2"), formula=_formula("__habsx2"))(
    _arithmetic
)
__hnegx2 = define("__hnegx2", doc=_arithmetic_doc("__hnegx2"), formula=_formula("__hnegx2"))(
    _arithmetic
)
__hfmax2 = define("__hfmax2", doc=_arithmetic_doc("__hfmax2"), formula=_formula("__hfmax2"))(
    _arithmetic
)
__hfmax2_relu = define(
    "__hfmax2_relu", doc=_arithmetic_doc("__hfmax2_relu"), formula=_formula("__hfmax2_relu")
)(_arithmetic)
__hcmadd = define("__hcmadd", doc=_arithmetic_doc("__hcmadd"), formula=_formula("__hcmadd"))(
    _arithmetic
)
__hmaxx2 = define("__hmaxx2", doc=_arithmetic_doc("__hmaxx2"), formula=_formula("__hmaxx2"))(
    _arithmetic
)
__hmaxx2_nan = define(
    "__hmaxx2_nan", doc=_arithmetic_doc("__hmaxx2_nan"), formula=_formula("__hmaxx2_nan")
)(_arithmetic)
__hminx2 = define("__hminx2", doc=_arithmetic_doc("__hminx2"), formula=_formula("__hminx2"))(
    _arithmetic
)
__hminx2_nan = define(
    "__hminx2_nan", doc=_arithmetic_doc("__hminx2_nan"), formula=_formula("__hminx2_nan")
)(_arithmetic)
__isnanx2 = define("__isnanx2", doc=_arithmetic_doc("__isnanx2"), formula=_formula("__isnanx2"))(
    _arithmetic
)
__heqx2 = define("__heqx2", doc=_compare_doc("__heqx2"), **_comparison("__heqx2"))(_compare)
__hbeqx2 = define("__hbeqx2", doc=_compare_doc("__hbeqx2"), **_comparison("__hbeqx2"))(_compare)
__heqx2_mask = define(
    "__heqx2_mask", doc=_compare_doc("__heqx2_mask"), **_comparison("__heqx2_mask")
)(_compare)
__hequx2 = define("__hequx2", doc=_compare_doc("__hequx2"), **_comparison("__hequx2"))(_compare)
__hbequx2 = define("__hbequx2", doc=_compare_doc("__hbequx2"), **_comparison("__hbequx2"))(_compare)
__hequx2_mask = define(
    "__hequx2_mask", doc=_compare_doc("__hequx2_mask"), **_comparison("__hequx2_mask")
)(_compare)
__hnex2 = define("__hnex2", doc=_compare_doc("__hnex2"), **_comparison("__hnex2"))(_compare)
__hbnex2 = define("__hbnex2", doc=_compare_doc("__hbnex2"), **_comparison("__hbnex2"))(_compare)
__hnex2_mask = define(
    "__hnex2_mask", doc=_compare_doc("__hnex2_mask"), **_comparison("__hnex2_mask")
)(_compare)
__hneux2 = define("__hneux2", doc=_compare_doc("__hneux2"), **_comparison("__hneux2"))(_compare)
__hbneux2 = define("__hbneux2", doc=_compare_doc("__hbneux2"), **_comparison("__hbneux2"))(_compare)
__hneux2_mask = define(
    "__hneux2_mask", doc=_compare_doc("__hneux2_mask"), **_comparison("__hneux2_mask")
)(_compare)
__hltx2 = define("__hltx2", doc=_compare_doc("__hltx2"), **_comparison("__hltx2"))(_compare)
__hbltx2 = define("__hbltx2", doc=_compare_doc("__hbltx2"), **_comparison("__hbltx2"))(_compare)
__hltx2_mask = define(
    "__hltx2_mask", doc=_compare_doc("__hltx2_mask"), **_comparison("__hltx2_mask")
)(_compare)
__hltux2 = define("__hltux2", doc=_compare_doc("__hltux2"), **_comparison("__hltux2"))(_compare)
__hbltux2 = define("__hbltux2", doc=_compare_doc("__hbltux2"), **_comparison("__hbltux2"))(_compare)
__hltux2_mask = define(
    "__hltux2_mask", doc=_compare_doc("__hltux2_mask"), **_comparison("__hltux2_mask")
)(_compare)
__hlex2 = define("__hlex2", doc=_compare_doc("__hlex2"), **_comparison("__hlex2"))(_compare)
__hblex2 = define("__hblex2", doc=_compare_doc("__hblex2"), **_comparison("__hblex2"))(_compare)
__hlex2_mask = define(
    "__hlex2_mask", doc=_compare_doc("__hlex2_mask"), **_comparison("__hlex2_mask")
)(_compare)
__hleux2 = define("__hleux2", doc=_compare_doc("__hleux2"), **_comparison("__hleux2"))(_compare)
__hbleux2 = define("__hbleux2", doc=_compare_doc("__hbleux2"), **_comparison("__hbleux2"))(_compare)
__hleux2_mask = define(
    "__hleux2_mask", doc=_compare_doc("__hleux2_mask"), **_comparison("__hleux2_mask")
)(_compare)
__hgtx2 = define("__hgtx2", doc=_compare_doc("__hgtx2"), **_comparison("__hgtx2"))(_compare)
__hbgtx2 = define("__hbgtx2", doc=_compare_doc("__hbgtx2"), **_comparison("__hbgtx2"))(_compare)
__hgtx2_mask = define(
    "__hgtx2_mask", doc=_compare_doc("__hgtx2_mask"), **_comparison("__hgtx2_mask")
)(_compare)
__hgtux2 = define("__hgtux2", doc=_compare_doc("__hgtux2"), **_comparison("__hgtux2"))(_compare)
__hbgtux2 = define("__hbgtux2", doc=_compare_doc("__hbgtux2"), **_comparison("__hbgtux2"))(_compare)
__hgtux2_mask = define(
    "__hgtux2_mask", doc=_compare_doc("__hgtux2_mask"), **_comparison("__hgtux2_mask")
)(_compare)
__hgex2 = define("__hgex2", doc=_compare_doc("__hgex2"), **_comparison("__hgex2"))(_compare)
__hbgex2 = define("__hbgex2", doc=_compare_doc("__hbgex2"), **_comparison("__hbgex2"))(_compare)
__hgex2_mask = define(
    "__hgex2_mask", doc=_compare_doc("__hgex2_mask"), **_comparison("__hgex2_mask")
)(_compare)
__hgeux2 = define("__hgeux2", doc=_compare_doc("__hgeux2"), **_comparison("__hgeux2"))(_compare)
__hbgeux2 = define("__hbgeux2", doc=_compare_doc("__hbgeux2"), **_comparison("__hbgeux2"))(_compare)
__hgeux2_mask = define(
    "__hgeux2_mask", doc=_compare_doc("__hgeux2_mask"), **_comparison("__hgeux2_mask")
)(_compare)
h2tanh = define("h2tanh", doc=_math_doc("tanh"), function="tanh")(_math)
h2exp = define("h2exp", doc=_math_doc("exp"), function="exp")(_math)
h2exp2 = define("h2exp2", doc=_math_doc("exp2"), function="exp2")(_math)
h2exp10 = define("h2exp10", doc=_math_doc("exp10"), function="exp10")(_math)
h2log = define("h2log", doc=_math_doc("log"), function="log")(_math)
h2log2 = define("h2log2", doc=_math_doc("log2"), function="log2")(_math)
h2log10 = define("h2log10", doc=_math_doc("log10"), function="log10")(_math)
h2cos = define("h2cos", doc=_math_doc("cos"), function="cos")(_math)
h2sin = define("h2sin", doc=_math_doc("sin"), function="sin")(_math)
h2sqrt = define("h2sqrt", doc=_math_doc("sqrt"), function="sqrt")(_math)
h2rsqrt = define("h2rsqrt", doc=_math_doc("rsqrt"), function="rsqrt")(_math)
h2rcp = define("h2rcp", doc=_math_doc("rcp"), function="rcp")(_math)
h2rint = define("h2rint", doc=_math_doc("rint"), function="rint")(_math)
h2floor = define("h2floor", doc=_math_doc("floor"), function="floor")(_math)
h2ceil = define("h2ceil", doc=_math_doc("ceil"), function="ceil")(_math)
h2trunc = define("h2trunc", doc=_math_doc("trunc"), function="trunc")(_math)

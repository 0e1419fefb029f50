"""The pair conversions and packing functions (``asc_fp16.h``, ``asc_bf16.h``, ``asc_fp8.h``).

Building and taking apart ``half2`` / ``bfloat16x2_t`` values (``__halves2half2``,
``__high2half``, ``__lows2bfloat162``, ``__lowhigh2highlow`` ...), converting a ``float2`` to a
pair with a rounding suffix (``__float22half2_rz``, ``__float22bfloat162_rna_sat`` ...) and
back (``__half22float2``), and the 8-bit float pairs: ``hifloat8x2_t`` (``__float22hif82_rh``,
``__hif822half2`` ...), ``float8_e4m3x2_t`` / ``float8_e5m2x2_t`` (``__e4m3x22float2``,
``__asc_cvt_float2_to_fp8x2``). One row per function in ``ascreg._spec.simt.PACK_ROWS``,
defined by a loop; the lanes are :func:`ascreg.core.packing.pack`, which converts with the
existing exact-rounding cores: the scalar twins' (``__float2half_<mode>``) for float to half /
bfloat16, :mod:`ascreg.core.convert` (``Cast``'s) for hifloat8, fp8 and the widenings.

Arguments: a pair parameter takes a value of exactly that class (C++ converts no number and
no other pair type to it); ``float`` parameters follow :mod:`ascreg.simt.floatmath`, ``half`` /
``bfloat16_t`` parameters :mod:`ascreg.simt.halfmath`. Per-thread arguments give per-thread
results (pairs of the result type, or ``Lanes``).

Semantics (each a test in ``tests/simt/test_packing.py``)
---------------------------------------------------------
* Each converted component rounds once by the suffix (``rn`` nearest-even, ``rz`` toward zero,
  ``rd`` down, ``ru`` up, ``rna`` nearest-away, ``ro`` to odd, ``rh`` hifloat8's hybrid
  rounding); a component of ``__float22half2_<mode>`` equals ``__float2half_<mode>`` of it.
  Out of range: ±inf (±max where the rounding goes toward zero); float8_e4m3 has no inf, so
  its overflow and ±inf give NaN.
* The ``_sat`` forms and ``__ASC_SATFINITE`` saturate only under CTRL[60] = 0, which a SIMT
  program cannot set (:data:`ascreg.simt.halfmath.CTRL_SATURATION`): in the default CTRL state
  they return what the non-saturating form returns (the decision of ``docs/semantics.md``).
* Selections and widenings (``__high2float``, ``__hif822float2`` ...) are exact.

Examples
--------
>>> from ascreg.simt import half2, float2, __lowhigh2highlow, __float22half2_rz
>>> __lowhigh2highlow(half2(1, 2))
half2(x=2.0, y=1.0)
>>> __float22half2_rz(float2(1.0009, 70000))
half2(x=1.0, y=65504.0)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._spec import SPECS
from ascreg._spec.simt import PACK_ROWS, PACK_TYPES
from ascreg.errors import AscregTypeError
from ascreg.machine.simt.lanes import Lanes
from ascreg.simt import _libm
from ascreg.simt.halfmath import CTRL_SATURATION
from ascreg.simt.vectors import VECTOR_CLASSES

Arr = np.ndarray[Any, Any]

__asc_saturation_t = enum.IntEnum(
    "__asc_saturation_t", [("__ASC_NOSAT", 0), ("__ASC_SATFINITE", 1)], module=__name__
)
__asc_fp8_interpretation_t = enum.IntEnum(
    "__asc_fp8_interpretation_t", [("__ASC_E4M3", 0), ("__ASC_E5M2", 1)], module=__name__
)
__asc_saturation_t.__doc__ = """C ``__asc_saturation_t`` (``asc_fp8.h``): ``__ASC_NOSAT`` or ``__ASC_SATFINITE``.

The ``saturate`` argument of :func:`__asc_cvt_float2_to_fp8x2` (its members' names start with
two underscores, as in C: reach them as the module constants ``__ASC_NOSAT`` ...).

Examples
--------
>>> from ascreg.simt import __ASC_SATFINITE
>>> int(__ASC_SATFINITE), type(__ASC_SATFINITE).__name__
(1, '__asc_saturation_t')
"""
__asc_fp8_interpretation_t.__doc__ = """C ``__asc_fp8_interpretation_t`` (``asc_fp8.h``): ``__ASC_E4M3`` or ``__ASC_E5M2``.

The ``fp8_interpretation`` argument of :func:`__asc_cvt_float2_to_fp8x2`: float8_e4m3 or
float8_e5m2 codes.

Examples
--------
>>> from ascreg.simt import __ASC_E5M2
>>> int(__ASC_E5M2), type(__ASC_E5M2).__name__
(1, '__asc_fp8_interpretation_t')
"""
__ASC_NOSAT = __asc_saturation_t["__ASC_NOSAT"]
__ASC_SATFINITE = __asc_saturation_t["__ASC_SATFINITE"]
__ASC_E4M3 = __asc_fp8_interpretation_t["__ASC_E4M3"]
__ASC_E5M2 = __asc_fp8_interpretation_t["__ASC_E5M2"]


def _overload(op: Any, values: tuple[Any, ...]) -> tuple[str, ...]:
    """Return the C overload the first argument's pair class selects (the only one if one)."""
    overloads = PACK_ROWS[op.name].overloads
    if len(overloads) == 1:
        return overloads[0]
    for overload in overloads:
        if type(values[0]) is VECTOR_CLASSES[overload[0]]:
            return overload
    legal = " or ".join(o[0] for o in overloads)
    raise AscregTypeError(
        f"x is {type(values[0]).__name__} {values[0]!r:.40}; {op.name} takes a {legal} "
        "(C++ converts no number or other pair type to them implicitly)",
        call=op.name,
    )


def _argument(op: Any, role: str, ctype: str, value: Any) -> Arr:
    """Check one argument against its C type; return its value (a pair: its components)."""
    if ctype in VECTOR_CLASSES:
        if type(value) is not VECTOR_CLASSES[ctype]:
            raise AscregTypeError(
                f"{role} is {type(value).__name__} {value!r:.40}; {op.name} takes a {ctype} "
                "(C++ converts no number or other pair type to it implicitly)",
                call=op.name,
            )
        components: Arr = value.components()
        return components
    if ctype == "float":
        return operands.c_float(op.name, role, value)
    return operands.c_half(op.name, role, value, PACK_TYPES[ctype][0].np_dtype)


def _result(ctype: str, lanes: Arr) -> Any:
    """Wrap result components: the pair class, or one value (``Lanes`` per thread)."""
    if ctype in VECTOR_CLASSES:
        return VECTOR_CLASSES[ctype].from_components(lanes)
    value = np.asarray(lanes)[..., 0] if ctype != "unsigned short" else np.asarray(lanes)
    return value[()] if value.ndim == 0 else value.view(Lanes)


def _pack(op: Any, *values: Any) -> Any:
    """Check the arguments, gather and convert the picked components (one core call)."""
    row = PACK_ROWS[op.name]
    if len(values) != len(row.roles):
        raise TypeError(f"{op.name} takes {len(row.roles)} arguments, got {len(values)}")
    overload = _overload(op, values)
    arguments = {
        role: _argument(op, role, ctype, value)
        for role, ctype, value in zip(row.roles, overload[:-1], values, strict=True)
    }
    source = overload[row.roles.index(row.picks[0].partition(".")[0])]
    lanes = op.formula(arguments, row.picks, PACK_TYPES[source][0], PACK_TYPES[overload[-1]][0],
                       row.rounding, row.saturating and CTRL_SATURATION)  # fmt: skip
    return _result(overload[-1], lanes)


def _enum(op: Any, role: str, value: Any, kind: type[enum.IntEnum]) -> enum.IntEnum:
    if not isinstance(value, kind):
        names = " or ".join(member.name for member in kind)
        raise AscregTypeError(
            f"{role} is {value!r:.40}; {op.name} takes a {kind.__name__} ({names}; C++ "
            "converts no integer to an enumeration implicitly)",
            call=op.name,
        )
    return value


def _to_fp8x2(op: Any, x: Any, saturate: Any, fp8_interpretation: Any) -> Any:
    """``__asc_cvt_float2_to_fp8x2``: the enumerations pick the format and the saturation."""
    parts = _argument(op, "x", "float2", x)
    saturating = _enum(op, "saturate", saturate, __asc_saturation_t) == __ASC_SATFINITE
    kind = _enum(op, "fp8_interpretation", fp8_interpretation, __asc_fp8_interpretation_t)
    lanes = op.formula(parts, saturating and CTRL_SATURATION, kind == __ASC_E5M2)
    return _result("unsigned short", lanes)


# --- docstrings: the prototypes, the rule, an example ------------------------------------------

_MODES = {
    "rn": "to nearest, ties to even (CAST_RINT)", "rz": "toward zero (CAST_TRUNC)",
    "rd": "down, toward -inf (CAST_FLOOR)", "ru": "up, toward +inf (CAST_CEIL)",
    "rna": "to nearest, ties away from zero (CAST_ROUND)",
    "ro": "to odd (CAST_ODD: an inexact result takes the odd neighbour)",
    "rh": "by hifloat8's hybrid rule (CAST_HYBRID)",
}  # fmt: skip
_SAT = (
    " ``_sat``: saturation (±inf and overflow to ±max, NaN to 0) takes effect only under "
    "CTRL[60] = 0, which a SIMT program cannot set; ascreg models the default CTRL state, so "
    "this returns what the non-``_sat`` form returns."
)
_PICKED = {"x.x": "the low half of ``x``", "x.y": "the high half of ``x``",
           "y.x": "the low half of ``y``", "y.y": "the high half of ``y``",
           "x": "``x``", "y": "``y``"}  # fmt: skip
_PAIR_ARGS = {"x.x": 1.0, "x.y": 2.0, "y.x": 3.0, "y.y": 4.0, "x": 1.5, "y": 2.5}
"""The example's value of each pick: pair arguments ``(1, 2)`` and ``(3, 4)``, scalars 1.5, 2.5."""
_CONVERSION_EXAMPLES: dict[str, tuple[str, dict[str, str]]] = {
    "half2": ("float2(1 + 2**-11 + 2**-13, -1 - 2**-11 - 2**-13)", {
        "rn": "1.0009765625, -1.0009765625", "rz": "1.0, -1.0", "rd": "1.0, -1.0009765625",
        "ru": "1.0009765625, -1.0", "rna": "1.0009765625, -1.0009765625",
        "ro": "1.0009765625, -1.0009765625"}),
    "bfloat16x2_t": ("float2(1 + 2**-8 + 2**-10, -1 - 2**-8 - 2**-10)", {
        "rn": "1.0078125, -1.0078125", "rz": "1.0, -1.0", "rd": "1.0, -1.0078125",
        "ru": "1.0078125, -1.0", "rna": "1.0078125, -1.0078125"}),
}  # fmt: skip
"""The ``__float22<pair>_<mode>`` examples: the argument and the components per mode."""
_FIXED_EXAMPLES = {
    "__float2bfloat162_rn": ("float(1 + 2**-9)", "bfloat16x2_t(x=1.0, y=1.0)"),
    "__floats2half2_rn": ("0.1, 65520.0", "half2(x=0.0999755859375, y=inf)"),
    "__floats2bfloat162_rn": ("0.1, -2.5", "bfloat16x2_t(x=0.10009765625, y=-2.5)"),
    "__hif822float2": ("hifloat8x2_t(0x08, 0x6F)", "float2(x=1.0, y=inf)"),
    "__hif822half2": ("hifloat8x2_t(0x0C, 0x80)", "half2(x=1.5, y=nan)"),
    "__e4m3x22float2": ("float8_e4m3x2_t(1.5, -448)", "float2(x=1.5, y=-448.0)"),
    "__e5m2x22float2": ("float8_e5m2x2_t(-0.0, 57344)", "float2(x=-0.0, y=57344.0)"),
}
"""Examples of the rows with one argument of their own: arguments and the shown result."""
_HIF8_ARGUMENT = {"float2": "float2(1.5, float('inf'))", "half2": "half2(1.5, float('inf'))"}


def _prototypes(name: str) -> str:
    row = PACK_ROWS[name]
    return " / ".join(
        f"``{o[-1]} {name}({', '.join(f'{t} {r}' for t, r in zip(o, row.roles, strict=False))})``"
        for o in row.overloads
    )


def _selection_example(name: str) -> tuple[str, str]:
    row = PACK_ROWS[name]
    overload = row.overloads[0]
    shown_args = []
    for i, (role, ctype) in enumerate(zip(row.roles, overload, strict=False)):
        if ctype in VECTOR_CLASSES:
            shown_args.append(f"{ctype}({1 + 2 * i}, {2 + 2 * i})")
        else:
            shown_args.append(repr(_PAIR_ARGS[role]))
    values = [_PAIR_ARGS[p] for p in row.picks]
    result = overload[-1]
    if result in VECTOR_CLASSES:
        shown = f"{result}(x={values[0]!r}, y={values[1]!r})"
    else:
        shown = f"np.{PACK_TYPES[result][0].np_dtype.name}({values[0]!r})"
        if result == "bfloat16_t":
            shown = f"{values[0]!r}"
            return f"float({name}({', '.join(shown_args)}))", shown
    return f"{name}({', '.join(shown_args)})", shown


def _float2_conversion(name: str) -> tuple[str, str, str]:
    """``__float22half2_<mode>`` ...: the rule, the example call and its result."""
    row = PACK_ROWS[name]
    result = row.overloads[0][-1]
    argument, per_mode = _CONVERSION_EXAMPLES[result]
    x, y = per_mode[row.rounding].split(", ")
    what = (f"Each component of ``x`` converted to {PACK_TYPES[result][0].cpp_name}, rounding "
            f"{_MODES[row.rounding]}; a value beyond the range gives ±inf (±max where the "
            "rounding goes toward zero; to odd: ±inf, as the page says), NaN stays NaN.")  # fmt: skip
    return what + (_SAT if row.saturating else ""), f"{name}({argument})", f"{result}(x={x}, y={y})"


def _hif8_conversion(name: str) -> tuple[str, str, str]:
    """``__float22hif82_<mode>`` ...: the rule, the example call and its result."""
    row = PACK_ROWS[name]
    what = (f"Each component of ``x`` converted to hifloat8, rounding {_MODES[row.rounding]}: "
            "the codes (``.x``, ``.y``); beyond the range ±inf (0x6F, 0xEF), NaN the code 0x80.")  # fmt: skip
    call = f"{name}({_HIF8_ARGUMENT[row.overloads[0][0]]})"
    return what + (_SAT if row.saturating else ""), call, "hifloat8x2_t(x=12, y=111)"


def _fixed(name: str) -> tuple[str, str, str]:
    """Describe a row with an example of its own (``__floats2half2_rn``, ``__hif822float2`` ...)."""
    row = PACK_ROWS[name]
    source, result = row.overloads[0][0], row.overloads[0][-1]
    argument, shown = _FIXED_EXAMPLES[name]
    if result in ("half2", "bfloat16x2_t") and source == "float":
        what = f"``{result}({', '.join(row.picks)})``, each converted rounding {_MODES['rn']}."
    else:
        what = "Each component converted exactly (a widening; NaN stays NaN, ±inf stay)."
    return what, f"{name}({argument})", shown


def _what(name: str) -> tuple[str, str, str]:
    """Return the rule of row *name*, its example call and the example's result."""
    row = PACK_ROWS[name]
    result = row.overloads[0][-1]
    if name.startswith("__float22") and result in _CONVERSION_EXAMPLES:
        return _float2_conversion(name)
    if result == "hifloat8x2_t":
        return _hif8_conversion(name)
    if name in _FIXED_EXAMPLES:
        return _fixed(name)
    picks = " and ".join(_PICKED[p] for p in row.picks)
    exact = " (exactly)" if result in ("float", "float2") else ""
    kind = "The pair of" if result in VECTOR_CLASSES else "The value of"
    call, shown = _selection_example(name)
    return f"{kind} {picks}{exact}.", call, shown


def _doc(name: str) -> str:
    what, call, shown = _what(name)
    imports = sorted({"half2", "bfloat16x2_t", "float2", "hifloat8x2_t", "float8_e4m3x2_t",
                      "float8_e5m2x2_t"} & set(call.replace("(", " ").split()))  # fmt: skip
    header = f">>> import numpy as np\n>>> from ascreg.simt import {', '.join([*imports, name])}\n"
    return (
        f"{_prototypes(name)} (``{PACK_ROWS_HEADER[name]}``).\n\n{what}\n\n"
        f"Examples\n--------\n{header}>>> {call}\n{shown}\n"
    )


_FP8_DOC = """``unsigned short __asc_cvt_float2_to_fp8x2(float2 x, __asc_saturation_t saturate, \
__asc_fp8_interpretation_t fp8_interpretation)`` (``asc_fp8.h``).

Both components of ``x`` converted to float8_e4m3 (``__ASC_E4M3``) or float8_e5m2
(``__ASC_E5M2``), rounding to nearest, ties to even; the two codes packed in 16 bits (``x.x``
in the low byte). Not saturating: ±inf and values beyond the range give NaN (e4m3: no inf) or
±inf (e5m2). ``__ASC_SATFINITE`` takes effect only under CTRL[60] = 0, which a SIMT program
cannot set; ascreg models the default CTRL state, so it gives the ``__ASC_NOSAT`` result.

Examples
--------
>>> from ascreg.simt import float2, __asc_cvt_float2_to_fp8x2, __ASC_NOSAT, __ASC_E4M3
>>> hex(__asc_cvt_float2_to_fp8x2(float2(1, -2), __ASC_NOSAT, __ASC_E4M3))
'0xc038'
"""


PACK_ROWS_HEADER = {name: SPECS[name].source.rsplit("/", 1)[-1] for name in PACK_ROWS}
"""The header of each row (``asc_fp16.h``, ``asc_bf16.h`` or ``asc_fp8.h``)."""


def _define(name: str) -> Callable[..., Any]:
    if name == "__asc_cvt_float2_to_fp8x2":
        return _libm.define_row(name, _FP8_DOC, __name__, _to_fp8x2)
    return _libm.define_row(name, _doc(name), __name__, _pack)


PACKING: dict[str, Callable[..., Any]] = {name: _define(name) for name in PACK_ROWS}
"""The pair conversions and packing functions by C name (each is also a module attribute)."""
globals().update(PACKING)

__all__ = sorted(
    [*PACKING, "__asc_saturation_t", "__asc_fp8_interpretation_t", "__ASC_NOSAT",
     "__ASC_SATFINITE", "__ASC_E4M3", "__ASC_E5M2"]
)  # fmt: skip

"""The rows of the SIMT surface (``ascreg.simt``): one row per device function.

Roles are the Python parameter names; a pointer parameter (``T* address``) is its element type.
The integer rows list the C overloads (``int`` is int32_t, ``long``/``long long`` int64_t) in the
documentation's order; ``ascreg.simt.intrinsics`` picks among them by its documented overload
rule.

Examples
--------
>>> row = next(r for r in SIMT_ROWS if r.name == "ullmax")
>>> row.family, row.shape.kind.value, row.core
('max', 'int', 'ascreg.core.intrinsics:maximum')
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

import attrs

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec.dtypes import (
    SIMT_ACCESS_TYPES,
    SIMT_ATOMIC_TYPES,
    SIMT_REDUCE_TYPES,
    SIMT_SHFL_TYPES,
    Combos,
    each,
    singles,
)
from ascreg._spec.row import MaskRule, OpSpec
from ascreg._spec.shapes import SimtKind, SimtShape

_HEADERS = "include/simt_api/"
_LANE_MATH = "ascreg.core.intrinsics:"

_MAXMIN_TYPES = (int64_t, int32_t, int16_t, int8_t, uint64_t, uint32_t, uint16_t, uint8_t)
SIMT_INT_ROWS: dict[str, tuple[tuple[str, ...], Combos]] = {
    "__byte_perm": (("x", "y", "s"), each(uint32_t, arity=3)),
    "__mulhi": (("x", "y"), each(int32_t, arity=2)),
    "__umulhi": (("x", "y"), each(uint32_t, arity=2)),
    "__mul64hi": (("x", "y"), each(int64_t, arity=2)),
    "__umul64hi": (("x", "y"), each(uint64_t, arity=2)),
    "__mul_i32toi64": (("x", "y"), each(int32_t, uint32_t, arity=2)),
    "__brev": (("x",), singles(uint32_t, uint64_t)),
    "__clz": (("x",), singles(int32_t, int64_t)),
    "__ffs": (("x",), singles(int32_t, int64_t)),
    "__popc": (("x",), singles(uint32_t, uint64_t)),
    "__sad": (("x", "y", "z"), ((int32_t, int32_t, uint32_t),)),
    "__usad": (("x", "y", "z"), each(uint32_t, arity=3)),
    "__mul24": (("x", "y"), each(int32_t, arity=2)),
    "__umul24": (("x", "y"), each(uint32_t, arity=2)),
    "__hadd": (("x", "y"), each(int32_t, arity=2)),
    "__rhadd": (("x", "y"), each(int32_t, arity=2)),
    "__uhadd": (("x", "y"), each(uint32_t, arity=2)),
    "__urhadd": (("x", "y"), each(uint32_t, arity=2)),
    "max": (("x", "y"), each(*_MAXMIN_TYPES, arity=2)),
    "min": (("x", "y"), each(*_MAXMIN_TYPES, arity=2)),
    "umax": (("x", "y"), each(uint32_t, arity=2)),
    "umin": (("x", "y"), each(uint32_t, arity=2)),
    "llmax": (("x", "y"), each(int64_t, arity=2)),
    "llmin": (("x", "y"), each(int64_t, arity=2)),
    "ullmax": (("x", "y"), each(uint64_t, arity=2)),
    "ullmin": (("x", "y"), each(uint64_t, arity=2)),
    "labs": (("x",), singles(int64_t)),
    "llabs": (("x",), singles(int64_t)),
}
"""The integer device functions (``device_functions.h``): parameter names and C overloads."""
SIMT_HALF_OVERLOADS: dict[str, Combos] = {"__hadd": ((half, half), (bfloat16_t, bfloat16_t))}
"""Integer device functions whose name C++ also overloads for ``half`` and ``bfloat16_t``
(``asc_fp16.h``, ``asc_bf16.h``): the extra combinations, each returning its argument type.
They follow the integer overloads in the row; the runtime picks them when an argument is a half
or bfloat16 value (``ascreg.simt.halfmath.add_half``)."""
SIMT_FLOAT_ROWS = {
    "__saturatef": (("x",), singles(float32_t)),
    "__fdividef": (("x", "y"), each(float32_t, arity=2)),
    "fdividef": (("x", "y"), each(float32_t, arity=2)),
}
"""The float device functions (``float`` parameters; ``fdividef`` is in ``math_functions.h``)."""
SIMT_SHFL_ROWS: dict[str, tuple[str, type[Scalar]]] = {
    "asc_shfl": ("src_lane", int32_t),
    "asc_shfl_up": ("delta", uint32_t),
    "asc_shfl_down": ("delta", uint32_t),
    "asc_shfl_xor": ("lane_mask", int32_t),
}
"""``T asc_shfl*(T var, <lane parameter>, int32_t width)``: the lane parameter and its type."""

SIMT_FAMILIES = {
    "__umulhi": "__mulhi", "__umul64hi": "__mul64hi", "__usad": "__sad", "__umul24": "__mul24",
    "__uhadd": "__hadd", "__urhadd": "__rhadd", "umax": "max", "llmax": "max", "ullmax": "max",
    "umin": "min", "llmin": "min", "ullmin": "min", "llabs": "labs", "__fdividef": "fdividef",
}  # fmt: skip
"""Functions that spell another one's op at another width or signedness (family: that one);
every other SIMT row is its own family."""

_LANE_FUNCTIONS = {
    "__usad": "sad", "__umul24": "mul24", "__uhadd": "hadd", "__urhadd": "rhadd", "max": "maximum", "umax": "maximum",
    "llmax": "maximum", "ullmax": "maximum", "min": "minimum", "umin": "minimum",
    "llmin": "minimum", "ullmin": "minimum", "labs": "absolute", "llabs": "absolute",
    "__fdividef": "fdividef",
}  # fmt: skip
"""The ``ascreg.core.intrinsics`` function of each intrinsic whose name is not its own."""


SIMT_INT_RESULTS: dict[str, tuple[type[Scalar], ...]] = {
    "__mul_i32toi64": (int64_t, uint64_t),
    "__clz": (int32_t, int32_t),
    "__ffs": (int32_t, int32_t),
    "__popc": (int32_t, int32_t),
    "__sad": (uint32_t,),
}
"""The C return type of each overload of the intrinsics that do not return their first
argument's type (``int __popc(unsigned long long)``, ``unsigned int __sad(int, int, unsigned)``)."""


def _simt(
    name: str, roles: tuple[str, ...], combos: Combos, header: str, shape: SimtShape, core: str
) -> OpSpec:
    family = SIMT_FAMILIES.get(name, name)
    return OpSpec(name, name, roles, combos, MaskRule.NONE, _HEADERS + header,
                  surface="simt", family=family, shape=shape, core=core)  # fmt: skip


def _lane_math(name: str) -> str:
    return _LANE_MATH + _LANE_FUNCTIONS.get(name, name.lstrip("_"))


def _math_rows() -> list[OpSpec]:
    rows = []
    for name, (roles, integer_combos) in SIMT_INT_ROWS.items():
        extra = SIMT_HALF_OVERLOADS.get(name, ())
        combos = (*integer_combos, *extra)
        results = SIMT_INT_RESULTS.get(name, tuple(c[0] for c in integer_combos))
        results = (*results, *(c[0] for c in extra))
        shape = SimtShape("simt/intrinsics", SimtKind.INT, results)
        rows.append(_simt(name, roles, combos, "device_functions.h", shape, _lane_math(name)))
    floatmath = SimtShape("simt/floatmath", SimtKind.FLOAT)
    for name, (roles, combos) in SIMT_FLOAT_ROWS.items():
        header = "math_functions.h" if name == "fdividef" else "device_functions.h"
        rows.append(_simt(name, roles, combos, header, floatmath, _lane_math(name)))
    return rows


_VOTES = {"asc_ballot": "ballot", "asc_all": "vote_all", "asc_any": "vote_any"}
"""The ``ascreg.core.warp`` function of each vote."""


def _warp_rows() -> list[OpSpec]:
    header, warp = "device_warp_functions.h", "ascreg.core.warp:"
    rows = []
    for name, (lane, lane_type) in SIMT_SHFL_ROWS.items():
        combos = tuple((t, lane_type, int32_t) for t in SIMT_SHFL_TYPES)
        core = warp + name.removeprefix("asc_")
        rows.append(_simt(name, ("var", lane, "width"), combos, header,
                          SimtShape("simt/warp", SimtKind.SHFL), core))  # fmt: skip
    for name, function in _VOTES.items():
        rows.append(_simt(name, ("predicate",), ((int32_t,),), header,
                          SimtShape("simt/warp", SimtKind.PREDICATE), warp + function))  # fmt: skip
    for op in ("add", "max", "min"):
        core = f"{warp}REDUCTIONS.{op}"
        rows.append(_simt(f"asc_reduce_{op}", ("value",), singles(*SIMT_REDUCE_TYPES), header,
                          SimtShape("simt/warp", SimtKind.REDUCE), core))  # fmt: skip
    return rows


def _memory_rows() -> list[OpSpec]:
    rows = []
    for op, types in SIMT_ATOMIC_TYPES.items():
        roles = ("address", "compare", "val") if op == "cas" else ("address", "val")
        rows.append(_simt(f"asc_atomic_{op}", roles, each(*types, arity=len(roles)),
                          "device_atomic_functions.h", SimtShape("simt/atomics", SimtKind.ATOMIC),
                          f"ascreg.core.atomics:UPDATES.{op}"))  # fmt: skip
    access = "ascreg.core.access:"
    for name in ("asc_ldcg", "asc_ldca"):
        rows.append(_simt(name, ("address",), singles(*SIMT_ACCESS_TYPES), "device_functions.h",
                          SimtShape("simt/access", SimtKind.LOAD), access + "load"))  # fmt: skip
    for name in ("asc_stcg", "asc_stwt"):
        rows.append(_simt(name, ("address", "val"), each(*SIMT_ACCESS_TYPES, arity=2),
                          "device_functions.h", SimtShape("simt/access", SimtKind.STORE),
                          access + "store"))  # fmt: skip
    return rows


# --- half and bfloat16_t scalar functions (asc_fp16.h, asc_bf16.h) ---------------------------
# One row per C name; a name C++ overloads for half and bfloat16_t has both combinations. The
# half2 / bfloat16x2_t forms are not here (no packed types yet).

HALF_ARITHMETIC: dict[str, tuple[tuple[str, ...], str]] = {
    "__habs": (("x",), "absolute"), "__hneg": (("x",), "neg"),
    "__hsub": (("x", "y"), "sub"), "__hmul": (("x", "y"), "mul"), "__hdiv": (("x", "y"), "div"),
    "__hfma": (("x", "y", "z"), "fma"), "__hfma_relu": (("x", "y", "z"), "fma_relu"),
    "__hmax": (("x", "y"), "maximum"), "__hmin": (("x", "y"), "minimum"),
    "__hmax_nan": (("x", "y"), "maximum_nan"), "__hmin_nan": (("x", "y"), "minimum_nan"),
}  # fmt: skip
"""Functions of half or bfloat16 values returning the same type: parameters, core function.
(``__hadd`` shares its name with the integer ``__hadd`` row: see ``ascreg.simt.halfmath``.)"""
HALF_COMPARES = tuple(f"__h{c}{u}" for u in ("", "u") for c in ("eq", "ne", "le", "ge", "lt", "gt"))
"""The comparisons (``bool``): ordered ``__heq`` ..., unordered ``__hequ`` ... (NaN gives true)."""
HALF_CLASSIFY = ("__hisnan", "__hisinf")
"""The classification functions (``bool``)."""
HALF_MATH = ("sin", "cos", "tanh", "exp", "exp2", "exp10", "log", "log2", "log10", "sqrt",
             "rsqrt", "rcp", "floor", "rint", "ceil", "trunc")  # fmt: skip
"""The math library: ``h<name>`` (``hsin`` ...) for half and bfloat16."""

ROUNDING_MODES = ("rn", "rz", "rd", "ru", "rna")
"""The rounding suffixes every conversion family has (``ro`` only float -> half)."""
_HALF_C = {half: "half", bfloat16_t: "bfloat16", float32_t: "float", int32_t: "int",
           uint32_t: "uint", int64_t: "ll", uint64_t: "ull"}  # fmt: skip
_SATURATING = {(float32_t, half), (float32_t, bfloat16_t), (bfloat16_t, half),
               (int32_t, half), (uint32_t, half)}  # fmt: skip
"""Conversions with ``_sat`` twins (saturation only takes effect under CTRL[60] = 0)."""


def half_conversions() -> dict[str, tuple[type[Scalar], type[Scalar], str, bool]]:
    """Every scalar conversion: C name -> (source, destination, rounding, ``_sat``).

    Examples
    --------
    >>> table = half_conversions()
    >>> table["__float2half_ro_sat"], table["__half2float"][2], len(table)
    ((<class 'ascreg._dtypes.float32_t'>, <class 'ascreg._dtypes.half'>, 'ro', True), 'rn', 143)
    """
    out: dict[str, tuple[type[Scalar], type[Scalar], str, bool]] = {}
    pairs = [(s, d) for s in (float32_t, half, bfloat16_t) for d in (half, bfloat16_t)]
    pairs += [(s, d) for s in (half, bfloat16_t) for d in (int32_t, uint32_t, int64_t, uint64_t)]
    pairs += [(s, d) for d in (half, bfloat16_t) for s in (int32_t, uint32_t, int64_t, uint64_t)]
    for src, dst in pairs:
        stem = f"__{_HALF_C[src]}2{_HALF_C[dst]}"
        if src is float32_t:
            out[stem] = (src, dst, "rn", False)
        modes = (*ROUNDING_MODES, "ro") if (src, dst) == (float32_t, half) else ROUNDING_MODES
        for mode in modes:
            out[f"{stem}_{mode}"] = (src, dst, mode, False)
            if (src, dst) in _SATURATING:
                out[f"{stem}_{mode}_sat"] = (src, dst, mode, True)
    out["__half2float"] = (half, float32_t, "rn", False)
    out["__bfloat162float"] = (bfloat16_t, float32_t, "rn", False)
    out["__ushort_as_half"] = (uint16_t, half, "rn", False)
    out["__ushort_as_bfloat16"] = (uint16_t, bfloat16_t, "rn", False)
    return out


HALF_CONVERSIONS = half_conversions()
"""The scalar half / bfloat16 conversions (the ``half2`` / ``float2`` pair forms are not here)."""


def _half_rows() -> list[OpSpec]:
    core = "ascreg.core.halfmath:"
    both = ((half,), (bfloat16_t,))
    rows = []

    def add(name: str, roles: tuple[str, ...], combos: Combos, results: tuple[type[Scalar], ...],
            header: str, function: str) -> None:  # fmt: skip
        shape = SimtShape("simt/halfmath", SimtKind.HALF, results)
        rows.append(_simt(name, roles, combos, header, shape, core + function))

    for name, (roles, function) in HALF_ARITHMETIC.items():
        combos = tuple(c * len(roles) for c in both)
        add(name, roles, combos, (half, bfloat16_t), "asc_fp16.h", function)
    for name in HALF_COMPARES:
        add(name, ("x", "y"), tuple(c * 2 for c in both), (bool_, bool_), "asc_fp16.h",
            "COMPARES." + name.removeprefix("__h"))  # fmt: skip
    for name in HALF_CLASSIFY:
        add(name, ("x",), both, (bool_, bool_), "asc_fp16.h", name.removeprefix("__h"))
    for name in HALF_MATH:
        add("h" + name, ("x",), both, (half, bfloat16_t), "asc_fp16.h", "math")
    for name, (src, dst, _mode, _sat) in HALF_CONVERSIONS.items():
        header = (
            "asc_fp16.h" if half in (src, dst) and bfloat16_t not in (src, dst) else "asc_bf16.h"
        )
        add(name, ("x",), ((src,),), (dst,), header, _conversion_core(src, dst))
    return rows


def _conversion_core(src: type[Scalar], dst: type[Scalar]) -> str:
    if src is uint16_t:
        return "bits_as"
    if src in (half, bfloat16_t) and dst is src:
        return "round_integral"
    if dst in (half, bfloat16_t, float32_t):
        return "to_float" if src in (half, bfloat16_t, float32_t) else "from_int"
    return "to_int"


# -- The float math library, conversions and bit casts (issue 12) ------------------------------

LibmRow: TypeAlias = tuple[tuple[str, ...], tuple[type[Scalar], ...], type[Scalar] | None, int]
"""``(roles, C parameter types, C return type or None for void, trailing pointer parameters)``;
a pointer parameter (``int *exp``) is its element type."""

_F, _I, _L = float32_t, int32_t, int64_t
_UNARY = (
    "expf", "exp2f", "exp10f", "expm1f", "logf", "log2f", "log10f", "log1pf", "sqrtf", "rsqrtf",
    "cbrtf", "rcbrtf", "sinf", "cosf", "tanf", "sinpif", "cospif", "tanpif", "asinf", "acosf",
    "atanf", "sinhf", "coshf", "tanhf", "asinhf", "acoshf", "atanhf", "floorf", "ceilf", "truncf",
    "roundf", "rintf", "nearbyintf", "fabsf", "logbf", "erff", "erfcf", "erfcxf", "normcdff",
    "erfinvf", "erfcinvf", "normcdfinvf", "tgammaf", "lgammaf", "cyl_bessel_i0f", "cyl_bessel_i1f",
    "j0f", "j1f", "y0f", "y1f",
)  # fmt: skip
"""``float f(float x)``."""
_BINARY = {
    "powf": ("x", "y"), "atan2f": ("y", "x"), "hypotf": ("x", "y"), "rhypotf": ("x", "y"),
    "fmodf": ("x", "y"), "remainderf": ("x", "y"), "fminf": ("x", "y"), "fmaxf": ("x", "y"),
    "fdimf": ("x", "y"), "copysignf": ("x", "y"), "nextafterf": ("x", "y"),
}  # fmt: skip
"""``float f(float, float)`` with the documented parameter names."""
_SPECIAL: dict[str, LibmRow] = {
    "fmaf": (("x", "y", "z"), (_F, _F, _F), _F, 0),
    "norm3df": (("a", "b", "c"), (_F,) * 3, _F, 0),
    "rnorm3df": (("a", "b", "c"), (_F,) * 3, _F, 0),
    "norm4df": (("a", "b", "c", "d"), (_F,) * 4, _F, 0),
    "rnorm4df": (("a", "b", "c", "d"), (_F,) * 4, _F, 0),
    "ldexpf": (("x", "exp"), (_F, _I), _F, 0),
    "scalbnf": (("x", "n"), (_F, _I), _F, 0),
    "scalblnf": (("x", "n"), (_F, _L), _F, 0),
    "ilogbf": (("x",), (_F,), _I, 0),
    "lrintf": (("x",), (_F,), _L, 0),
    "llrintf": (("x",), (_F,), _L, 0),
    "lroundf": (("x",), (_F,), _L, 0),
    "llroundf": (("x",), (_F,), _L, 0),
    "isnan": (("x",), (_F,), bool_, 0),
    "isinf": (("x",), (_F,), bool_, 0),
    "isfinite": (("x",), (_F,), bool_, 0),
    "signbit": (("x",), (_F,), _I, 0),
    "frexpf": (("x", "exp"), (_F, _I), _F, 1),
    "modff": (("x", "n"), (_F, _F), _F, 1),
    "remquof": (("x", "y", "quo"), (_F, _F, _I), _F, 1),
    "sincosf": (("x", "s", "c"), (_F, _F, _F), None, 2),
    "sincospif": (("x", "s", "c"), (_F, _F, _F), None, 2),
    "normf": (("n", "a"), (_I, _F), _F, 1),
    "rnormf": (("n", "a"), (_I, _F), _F, 1),
    "jnf": (("n", "x"), (_I, _F), _F, 0),
    "ynf": (("n", "x"), (_I, _F), _F, 0),
}
"""The math functions with other parameter or return types, or output pointers."""

ROUNDINGS = ("rn", "rz", "ru", "rd", "rna")
"""The conversions' rounding suffixes: nearest-even, toward zero, up, down, nearest-away."""
_CONVERSION_TYPES = {"int": int32_t, "uint": uint32_t, "ll": int64_t, "ull": uint64_t}
"""The C spelling of each integer type in the conversion names (``__float2ll_rn``)."""
_BIT_CASTS = {"__float_as_int": (_F, int32_t), "__float_as_uint": (_F, uint32_t),
              "__int_as_float": (int32_t, _F), "__uint_as_float": (uint32_t, _F)}  # fmt: skip


def _conversion_rows() -> dict[str, LibmRow]:
    """``__float2int_rn`` ... ``__ull2float_rna``, ``__float2float_*`` and the bit casts."""
    rows: dict[str, LibmRow] = {}
    for rounding in ROUNDINGS:
        rows[f"__float2float_{rounding}"] = (("x",), (_F,), _F, 0)
        for spelling, integer in _CONVERSION_TYPES.items():
            rows[f"__float2{spelling}_{rounding}"] = (("x",), (_F,), integer, 0)
            rows[f"__{spelling}2float_{rounding}"] = (("x",), (integer,), _F, 0)
    for name, (source, result) in _BIT_CASTS.items():
        rows[name] = (("x",), (source,), result, 0)
    return rows


SIMT_LIBM_ROWS: dict[str, LibmRow] = {
    **{name: (("x",), (_F,), _F, 0) for name in _UNARY},
    **{name: (roles, (_F, _F), _F, 0) for name, roles in _BINARY.items()},
    **_SPECIAL,
}
"""The float math library (``math_functions.h``): one row per function."""
SIMT_CONVERSION_ROWS: dict[str, LibmRow] = _conversion_rows()
"""The conversions and bit casts (``device_functions.h``)."""


def _libm_rows() -> list[OpSpec]:
    rows = []
    tables = (
        (SIMT_LIBM_ROWS, "math_functions.h", "simt/floatmath", "ascreg.core.libm:FUNCTIONS."),
        (SIMT_CONVERSION_ROWS, "device_functions.h", "simt/conversions",
         "ascreg.core.conversions:CONVERSIONS."),
    )  # fmt: skip
    for table, header, module, core in tables:
        for name, (roles, params, result, pointers) in table.items():
            results = () if result is None else (result,)
            shape = SimtShape(module, SimtKind.LIBM, results, pointers)
            rows.append(_simt(name, roles, (params,), header, shape, core + name))
    return rows


# ==== half2 / bfloat16x2_t and the vector types (issue 12) =========================================
PAIR_ELEMENTS = (half, bfloat16_t)
"""The element types of the pair types: ``half`` (``half2``) and ``bfloat16_t`` (``bfloat16x2_t``)."""
PAIR_ARITHMETIC: dict[str, tuple[tuple[str, ...], str]] = {
    "__haddx2": (("x", "y"), "add"), "__hsubx2": (("x", "y"), "sub"),
    "__hmulx2": (("x", "y"), "mul"), "__hdivx2": (("x", "y"), "div"),
    "__habsx2": (("x",), "absolute"), "__hnegx2": (("x",), "neg"),
    "__hfmax2": (("x", "y", "z"), "fma"), "__hfmax2_relu": (("x", "y", "z"), "fma_relu"),
    "__hcmadd": (("x", "y", "z"), "cmadd"),
    "__hmaxx2": (("x", "y"), "maximum"), "__hmaxx2_nan": (("x", "y"), "maximum"),
    "__hminx2": (("x", "y"), "minimum"), "__hminx2_nan": (("x", "y"), "minimum"),
    "__isnanx2": (("x",), "isnan"),
}  # fmt: skip
"""The pair functions returning a pair: parameter names and their ``ascreg.core.pairs`` function."""
PAIR_COMPARES = ("eq", "ne", "lt", "le", "gt", "ge")
"""The comparison operators; each has an ordered and an unordered (``u``) form in three result
forms: ``__h<op>[u]x2`` (a pair of 1.0/0.0), ``__hb<op>[u]x2`` (``bool``: both components) and
``__h<op>[u]x2_mask`` (``unsigned int``: 0xFFFF per component)."""
PAIR_MATH = ("tanh", "exp", "exp2", "exp10", "log", "log2", "log10", "cos", "sin", "sqrt",
             "rsqrt", "rcp", "rint", "floor", "ceil", "trunc")  # fmt: skip
"""The ``h2<name>`` math functions (``ascreg.core.pairs.MATH``)."""


def pair_compare_names() -> dict[str, tuple[str, bool, SimtKind]]:
    """Every pair comparison: name -> (operator, unordered, result kind).

    Examples
    --------
    >>> pair_compare_names()["__hbltux2"]
    ('lt', True, <SimtKind.PAIR_BOOL: 'pair_bool'>)
    """
    names = {}
    for op in PAIR_COMPARES:
        for u in ("", "u"):
            names[f"__h{op}{u}x2"] = (op, u == "u", SimtKind.PAIR)
            names[f"__hb{op}{u}x2"] = (op, u == "u", SimtKind.PAIR_BOOL)
            names[f"__h{op}{u}x2_mask"] = (op, u == "u", SimtKind.PAIR_MASK)
    return names


def _pair_rows() -> list[OpSpec]:
    pairs, module, header = "ascreg.core.pairs:", "simt/pairs", "asc_fp16.h"
    rows = []
    for name, (roles, function) in PAIR_ARITHMETIC.items():
        rows.append(_simt(name, roles, each(*PAIR_ELEMENTS, arity=len(roles)), header,
                          SimtShape(module, SimtKind.PAIR), pairs + function))  # fmt: skip
    for name, (_op, _unordered, kind) in pair_compare_names().items():
        rows.append(_simt(name, ("x", "y"), each(*PAIR_ELEMENTS, arity=2), header,
                          SimtShape(module, kind), pairs + "compare"))  # fmt: skip
    for function in PAIR_MATH:
        rows.append(_simt(f"h2{function}", ("x",), singles(*PAIR_ELEMENTS), header,
                          SimtShape(module, SimtKind.PAIR), pairs + "math_function"))  # fmt: skip
    return rows


VECTOR_ELEMENTS: dict[str, type[Scalar]] = {
    "char": int8_t, "uchar": uint8_t, "short": int16_t, "ushort": uint16_t, "int": int32_t,
    "uint": uint32_t, "long": int64_t, "ulong": uint64_t, "longlong": int64_t,
    "ulonglong": uint64_t, "float": float32_t,
}  # fmt: skip
"""The vector type families of ``vector_functions.h`` and their element type (``long`` is 64-bit)."""
VECTOR_TYPES: dict[str, tuple[type[Scalar], int]] = {
    f"{base}{n}": (element, n) for base, element in VECTOR_ELEMENTS.items() for n in (2, 3, 4)
}
"""Every vector type (``int2`` ... ``float4``): element type and component count."""


def _make_rows() -> list[OpSpec]:
    rows = []
    for name, (element, count) in VECTOR_TYPES.items():
        roles = ("x", "y", "z", "w")[:count]
        rows.append(_simt(f"make_{name}", roles, each(element, arity=count),
                          "vector_functions.h", SimtShape("simt/vectors", SimtKind.MAKE),
                          "ascreg.core.vectors:assemble"))  # fmt: skip
    return rows


# ==== cooperative groups (cooperative_groups.h, issue 12) ========================================
_BLOCK, _TILE, _COALESCED = "thread_block", "thread_block_tile", "coalesced_group"
_WARP_GROUPS = (_TILE, _COALESCED)
_ANY_GROUP = (_BLOCK, _TILE, _COALESCED)
_SHFL = tuple((t, uint32_t) for t in SIMT_SHFL_TYPES)
GROUP_FUNCTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Combos]] = {
    "this_thread_block": ((), (), ((),)),
    "coalesced_threads": ((), (), ((),)),
    "tiled_partition": ((_BLOCK,), ("tilesz",), ((uint32_t,),)),
    "binary_partition": (_WARP_GROUPS, ("pred",), ((bool_,),)),
    "sync": (_ANY_GROUP, (), ((),)),
    "thread_rank": (_ANY_GROUP, (), ((),)),
    "num_threads": (_ANY_GROUP, (), ((),)),
    "size": (_ANY_GROUP, (), ((),)),
    "meta_group_rank": (_WARP_GROUPS, (), ((),)),
    "meta_group_size": (_WARP_GROUPS, (), ((),)),
    "shfl": (_WARP_GROUPS, ("var", "src_rank"), _SHFL),
    "shfl_up": (_WARP_GROUPS, ("var", "delta"), _SHFL),
    "shfl_down": (_WARP_GROUPS, ("var", "delta"), _SHFL),
    "shfl_xor": ((_TILE,), ("var", "lane_mask"), _SHFL),
    "ballot": (_WARP_GROUPS, ("predicate",), ((int32_t,),)),
    "any": (_WARP_GROUPS, ("predicate",), ((int32_t,),)),
    "all": (_WARP_GROUPS, ("predicate",), ((int32_t,),)),
    "group_index": ((_BLOCK,), (), ((),)),
    "thread_index": ((_BLOCK,), (), ((),)),
    "dim_threads": ((_BLOCK,), (), ((),)),
    "group_dim": ((_BLOCK,), (), ((),)),
}  # fmt: skip
"""Every cooperative-groups function: (group classes its first parameter takes — empty for the
functions that make a group from nothing —, the value parameters after it, their legal types).
The members are also methods of the group classes (``g.shfl(var, 1)`` is ``shfl(g, var, 1)``);
``any`` and ``all`` are on ``ascreg.simt`` but not in its ``__all__``, so that
``from ascreg.simt import *`` keeps Python's built-ins."""
GROUP_MAKERS = {"this_thread_block": "thread_block", "coalesced_threads": "coalesced_group",
                "tiled_partition": "thread_block_tile", "binary_partition": "coalesced_group"}  # fmt: skip
"""The functions that make a group: the class they make. A member's work is done by the method
of its first group class (its row's ``core``)."""
GROUP_FAMILIES = {"num_threads": "size", "group_dim": "dim_threads"}
"""The older and newer spellings of one member (family: the newer)."""


def _group_rows() -> list[OpSpec]:
    rows = []
    for name, (groups, roles, combos) in GROUP_FUNCTIONS.items():
        shape = SimtShape("simt/cooperative_groups", SimtKind.GROUP, groups=groups)
        maker = GROUP_MAKERS.get(name)
        core = "ascreg.simt.cooperative_groups:" + (maker or f"{groups[0]}.{name}")
        row = _simt(name, roles, combos, "cooperative_groups.h", shape, core)
        rows.append(attrs.evolve(row, family=GROUP_FAMILIES.get(name, name)))
    return rows


# ==== address spaces, cache maintenance and asc_nop (device_functions.h, issue 12) ===============
ADDRESS_SPACES = {"global": "Global", "ubuf": "Ubuf", "local": "Local"}
"""The generic address space's parts: the spelling in the conversions and in the predicates."""


def address_functions() -> dict[str, tuple[str, str, str]]:
    """Every address-space function: name -> (parameter, ``ascreg.core.address`` function, space).

    Examples
    --------
    >>> address_functions()["__cvta_ubuf_to_generic"]
    ('rawbits', 'to_generic', 'ubuf')
    """
    table = {}
    for space, title in ADDRESS_SPACES.items():
        table[f"__is{title}"] = ("ptr", "classify", space)
        table[f"__cvta_generic_to_{space}"] = ("ptr", "from_generic", space)
        table[f"__cvta_{space}_to_generic"] = ("rawbits", "to_generic", space)
    return table


ADDRESS_FUNCTIONS = address_functions()
_ADDRESS_RESULTS = {"classify": uint32_t, "from_generic": uint64_t, "to_generic": uint64_t}
"""``unsigned int`` (the predicates), ``size_t`` (an address value), ``void*`` (a generic
pointer, 64 bits)."""
VOID_FUNCTIONS = {"asc_dcci_entire": ("dst",), "asc_dcci_single": ("dst",), "asc_nop": ()}
"""``void`` functions: the Data Cache flushes of a Global Memory address, and ``asc_nop()``.
(The C API ``asc_dcci_single`` row is keyed ``c_api.asc_dcci_single``.)"""


def _address_rows() -> list[OpSpec]:
    rows, core = [], "ascreg.core.address:"
    for name, (role, function, _space) in ADDRESS_FUNCTIONS.items():
        shape = SimtShape("simt/address", SimtKind.ADDRESS, (_ADDRESS_RESULTS[function],))
        rows.append(
            _simt(name, (role,), ((uint64_t,),), "device_functions.h", shape, core + function)
        )
    for name, roles in VOID_FUNCTIONS.items():
        shape = SimtShape("simt/address", SimtKind.VOID)
        function = "flush_cache" if roles else "idle"
        combos = ((uint64_t,),) if roles else ((),)
        rows.append(_simt(name, roles, combos, "device_functions.h", shape, core + function))
    return rows


# ==== pair conversions and packing, hifloat8 / fp8 pairs (issue 12: SIMT complete) =============
PACK_TYPES: dict[str, tuple[type[Scalar], int]] = {
    "float": (float32_t, 1), "half": (half, 1), "bfloat16_t": (bfloat16_t, 1),
    "unsigned short": (uint16_t, 1), "__asc_saturation_t": (int32_t, 1),
    "__asc_fp8_interpretation_t": (int32_t, 1), "float2": (float32_t, 2), "half2": (half, 2),
    "bfloat16x2_t": (bfloat16_t, 2), "hifloat8x2_t": (hifloat8_t, 2),
    "float8_e4m3x2_t": (fp8_e4m3fn_t, 2), "float8_e5m2x2_t": (fp8_e5m2_t, 2),
}  # fmt: skip
"""The C types of the packing functions: element type and component count (1: a scalar; the
two enums of ``__asc_cvt_float2_to_fp8x2`` are C ``int``-sized)."""


class PackRow(NamedTuple):
    """One pair conversion or packing function (``asc_fp16.h``, ``asc_bf16.h``, ``asc_fp8.h``).

    ``overloads``: each the C parameter types, then the C result type (:data:`PACK_TYPES`);
    ``picks``: the result's components in order, ``"x"`` the scalar argument ``x``, ``"x.y"``
    component ``y`` of the pair argument ``x``; ``rounding``: the conversion's suffix (``rn``
    where the value is exact); ``saturating``: a ``_sat`` form.
    """

    roles: tuple[str, ...]
    overloads: tuple[tuple[str, ...], ...]
    picks: tuple[str, ...]
    rounding: str = "rn"
    saturating: bool = False


_PACK_ELEMENTS = {"half": ("half", "half2"), "bfloat16": ("bfloat16_t", "bfloat16x2_t")}
"""The name part, the scalar type and the pair type of the two 16-bit float families."""
_SELECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "__low2{h}": (("x",), ("{P}", "{E}"), ("x.x",)),
    "__high2{h}": (("x",), ("{P}", "{E}"), ("x.y",)),
    "__low2{h}2": (("x",), ("{P}", "{P}"), ("x.x", "x.x")),
    "__high2{h}2": (("x",), ("{P}", "{P}"), ("x.y", "x.y")),
    "__lows2{h}2": (("x", "y"), ("{P}", "{P}", "{P}"), ("x.x", "y.x")),
    "__highs2{h}2": (("x", "y"), ("{P}", "{P}", "{P}"), ("x.y", "y.y")),
    "__halves2{h}2": (("x", "y"), ("{E}", "{E}", "{P}"), ("x", "y")),
    "make_{h}2": (("x", "y"), ("{E}", "{E}", "{P}"), ("x", "y")),  # make_half2, make_bfloat162
    "__lowhigh2highlow": (("x",), ("{P}", "{P}"), ("x.y", "x.x")),
    "__low2float": (("x",), ("{P}", "float"), ("x.x",)),
    "__high2float": (("x",), ("{P}", "float"), ("x.y",)),
    "__{h}22float2": (("x",), ("{P}", "float2"), ("x.x", "x.y")),
    "__floats2{h}2_rn": (("x", "y"), ("float", "float", "{P}"), ("x", "y")),
}
"""The packing functions of both families (``{h}`` the name part, ``{E}`` the scalar type,
``{P}`` the pair type): roles, parameter and result types, picks. A name without ``{h}`` is one
function overloaded for ``half2`` and ``bfloat16x2_t``."""
FLOAT2_ROUNDINGS = {"half": (*ROUNDING_MODES, "ro"), "bfloat16": ROUNDING_MODES}
"""The rounding suffixes of ``__float22half2_*`` and ``__float22bfloat162_*``."""
HIF8_ROUNDINGS = ("rh", "rna")
"""The hifloat8 rounding suffixes: ``rh`` hybrid (CAST_HYBRID), ``rna`` nearest-away."""
_BOTH = ("x.x", "x.y")


def _add(rows: dict[str, PackRow], name: str, row: PackRow) -> None:
    """Add *row*, or its overloads to the row of the same name."""
    if name in rows:
        row = rows[name]._replace(overloads=rows[name].overloads + row.overloads)
    rows[name] = row


def pack_rows() -> dict[str, PackRow]:
    """Every pair conversion and packing function, by C name.

    Examples
    --------
    >>> rows = pack_rows()
    >>> rows["__highs2bfloat162"].picks, rows["__float22half2_ro_sat"][3:], len(rows)
    (('x.y', 'y.y'), ('ro', True), 60)
    >>> rows["__high2float"].overloads
    (('half2', 'float'), ('bfloat16x2_t', 'float'))
    """
    rows: dict[str, PackRow] = {}
    for h, (element, pair) in _PACK_ELEMENTS.items():
        for template, (roles, types, picks) in _SELECTIONS.items():
            overload = tuple(t.format(E=element, P=pair) for t in types)
            _add(rows, template.format(h=h), PackRow(roles, (overload,), picks))
        for mode in FLOAT2_ROUNDINGS[h]:
            for sat in (False, True):
                name = f"__float22{h}2_{mode}{'_sat' if sat else ''}"
                rows[name] = PackRow(("x",), (("float2", pair),), _BOTH, mode, sat)
    rows["__float2bfloat162_rn"] = PackRow(("x",), (("float", "bfloat16x2_t"),), ("x", "x"))
    rows["__bfloat162bfloat162"] = PackRow(("x",), (("bfloat16_t", "bfloat16x2_t"),), ("x", "x"))
    for source in ("float2", "half2"):
        for mode in HIF8_ROUNDINGS:
            for sat in (False, True):
                name = f"__{source}2hif82_{mode}{'_sat' if sat else ''}"
                rows[name] = PackRow(("x",), ((source, "hifloat8x2_t"),), _BOTH, mode, sat)
    for name, source, result in (("__hif822float2", "hifloat8x2_t", "float2"),
                                 ("__hif822half2", "hifloat8x2_t", "half2"),
                                 ("__e4m3x22float2", "float8_e4m3x2_t", "float2"),
                                 ("__e5m2x22float2", "float8_e5m2x2_t", "float2")):  # fmt: skip
        rows[name] = PackRow(("x",), ((source, result),), _BOTH)
    rows["__asc_cvt_float2_to_fp8x2"] = PackRow(
        ("x", "saturate", "fp8_interpretation"),
        (("float2", "__asc_saturation_t", "__asc_fp8_interpretation_t", "unsigned short"),),
        _BOTH,
    )
    return rows


PACK_ROWS: dict[str, PackRow] = pack_rows()
"""The pair conversions and packing functions (``SimtKind.PACK``)."""


def _pack_header(types: tuple[str, ...]) -> str:
    if any("8" in t for t in types):
        return "asc_fp8.h"
    return "asc_bf16.h" if any("bfloat16" in t for t in types) else "asc_fp16.h"


def _pack_spec_rows() -> list[OpSpec]:
    rows = []
    for name, row in PACK_ROWS.items():
        combos = tuple(tuple(PACK_TYPES[t][0] for t in o[:-1]) for o in row.overloads)
        core = "float2_to_fp8x2" if name == "__asc_cvt_float2_to_fp8x2" else "pack"
        shape = SimtShape("simt/packing", SimtKind.PACK)  # result types: PACK_ROWS
        rows.append(_simt(name, row.roles, combos, _pack_header(row.overloads[0]), shape,
                          "ascreg.core.packing:" + core))  # fmt: skip
    return rows


SIMT_ROWS: tuple[OpSpec, ...] = (
    *_math_rows(),
    *_warp_rows(),
    *_memory_rows(),
    *_libm_rows(),
    *_half_rows(),
    *_pair_rows(),
    *_make_rows(),
    *_group_rows(),
    *_address_rows(),
    *_pack_spec_rows(),
)
"""The SIMT rows, in the order the stubs and type tests list them."""

SIMT_NAMES = frozenset(row.name for row in SIMT_ROWS)
"""Names of the rows of the SIMT surface (``ascreg.simt``; some also start with ``asc_``)."""

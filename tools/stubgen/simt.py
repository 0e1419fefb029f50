"""The SIMT renderer: ``stubs/ascreg/simt/*.pyi`` from the SIMT rows and their shapes.

SIMT values are Python numbers, numpy scalars and numpy arrays (a kernel's per-thread ``Lanes``
is an ``ndarray[Any, Any]``), so the stubs check numpy *dtypes* where the argument's static type
names one: ``np.float32(1)`` or an ``NDArray[np.float32]`` where an integer parameter is
required is an error; a ``Lanes`` value (dtype unknown statically) or ``Any`` passes. Each
``SimtKind`` has its own rendering (``simt_stub``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ascreg._dtypes import Scalar
from ascreg._spec import SPECS, OpSpec, SimtShape
from stubgen.common import (
    SHARED_ALIASES,
    combo_text,
    dtype_imports,
    module_rows,
    pyname,
    stub_text,
)

# numpy scalar classes by (kind, bytes); ml_dtypes.bfloat16 is typed `type[np.generic]` by
# ml_dtypes, so bfloat16 values cannot be named in a stub (see docs/typing.md).
NP_INT = {("i", 1): "np.int8", ("i", 2): "np.int16", ("i", 4): "np.int32", ("i", 8): "np.int64",
          ("u", 1): "np.uint8", ("u", 2): "np.uint16", ("u", 4): "np.uint32", ("u", 8): "np.uint64"}  # fmt: skip


def np_name(d: type[Scalar]) -> str | None:
    """The numpy scalar class of a dtype marker, as a stub spells it (None: not nameable)."""
    names = {"float32": "np.float32", "float16": "np.float16", "bool": "np.bool_"}
    dt = d.np_dtype
    return NP_INT.get((dt.kind, dt.itemsize)) or names.get(dt.name)


def int_alias(kinds: str, width: int) -> str:
    """The alias name of the integer types (of *kinds*, at most *width* bytes) a parameter takes."""
    label = {"iu": "Int", "i": "Signed", "u": "Unsigned"}[kinds]
    return f"_{label}{8 * width}"


def int_alias_defs() -> dict[str, str]:
    """The integer aliases (``_Int8``, ``_Signed32Array``, ...) and their definitions."""
    aliases = {}
    for kinds in ("iu", "i", "u"):
        for width in (1, 2, 4, 8):
            types = ["np.bool_"] + [
                NP_INT[(k, w)] for w in (1, 2, 4, 8) if w <= width for k in "iu" if k in kinds
            ]
            name = int_alias(kinds, width)
            pyint = ["int"] if width >= 4 else []
            aliases[name] = " | ".join(pyint + types)
            aliases[f"{name}Array"] = f"NDArray[{' | '.join(types)}]"
    return aliases


def simt_int_overloads(name: str) -> list[tuple[tuple[type[Scalar], ...], list[str], str]]:
    """(combination, parameter alias per position, result dtype) in the runtime's pick order.

    The runtime picks the narrowest overload wide enough for every argument (by signedness where
    a width has both), so the stub lists them narrowest first: a type checker takes the first
    overload that matches.
    """
    spec = SPECS[name]
    overloads = [
        (c, r)
        for c, r in zip(spec.combos, simt_shape(spec).results, strict=True)
        if c[0].kind.value in ("int", "uint")
    ]
    combos = [c for c, _r in overloads]
    out = []
    for combo, result in sorted(overloads, key=lambda o: max(d.size for d in o[0])):
        width = max(d.size for d in combo)
        split = len({c[0].kind for c in combos if max(d.size for d in c) == width}) > 1
        kinds = ("i" if combo[0].kind.value == "int" else "u") if split else "iu"
        aliases = [int_alias(kinds, d.size) for d in combo]
        out.append((combo, aliases, np_name(result) or ""))
    return out


def simt_int_stub(name: str) -> list[str]:
    spec = SPECS[name]
    lines = []
    for combo, aliases, ret in simt_int_overloads(name):
        tag = combo_text(combo)
        params = [f"{r}: {a}" for r, a in zip(spec.roles, aliases, strict=True)]
        lines.append(f"def {name}({', '.join(params)}) -> {ret}: ...  # {tag}")
        for i in range(len(spec.roles)):
            params = [
                f"{r}: {a}Array" if j == i else f"{r}: {a} | {a}Array"
                for j, (r, a) in enumerate(zip(spec.roles, aliases, strict=True))
            ]
            lines.append(f"def {name}({', '.join(params)}) -> NDArray[{ret}]: ...  # {tag} array")
    return lines + simt_half_overload_stub(spec)


def simt_half_overload_stub(spec: OpSpec) -> list[str]:
    """The half overloads of an integer function (``__hadd``); bfloat16 cannot be named.

    The runtime takes the half overload when an argument is a half value, so each form needs
    one: a half scalar ``x`` (``y`` any number), a half scalar ``y`` after a Python number, then
    the array forms as for the integer overloads.
    """
    lines = []
    for combo in (c for c in spec.combos if c[0].kind.value == "float" and np_name(c[0])):
        ret, tag = np_name(combo[0]), combo_text(combo)
        scalar, array = f"float | {ret}", f"NDArray[{ret}]"
        x, y = spec.roles
        lines += [
            f"def {spec.name}({x}: {ret}, {y}: {scalar}) -> {ret}: ...  # {tag}",
            f"def {spec.name}({x}: float, {y}: {ret}) -> {ret}: ...  # {tag} Python number {x}",
            f"def {spec.name}({x}: {array}, {y}: {scalar} | {array}) -> {array}: ...  # {tag} array",
            f"def {spec.name}({x}: {scalar} | {array}, {y}: {array}) -> {array}: ...  # {tag} array",
        ]
    return lines


def value_types(dtypes: Iterable[type[Scalar]], pyints: bool) -> str:
    """Scalars and arrays of the nameable *dtypes*, plus Python numbers of their kinds."""
    dtypes = list(dtypes)
    names = [n for n in (np_name(d) for d in dict.fromkeys(dtypes)) if n is not None]
    kinds = {d.kind.value for d in dtypes}
    py = (["int"] if pyints and kinds & {"int", "uint"} else []) + (
        ["float"] if "float" in kinds else []
    )
    return " | ".join([*py, *names, f"NDArray[{' | '.join(names)}]"])


_POINTER_VALUE = {"int": "_IntLike", "uint": "_IntLike", "float": "_FloatLike"}


def simt_shape(spec: OpSpec) -> SimtShape:
    assert isinstance(spec.shape, SimtShape), spec.name
    return spec.shape


def half_param(d: type[Scalar]) -> tuple[str, str]:
    """(scalar, array) annotation of a parameter of a half / bfloat16 function (SimtKind.HALF).

    ``bfloat16_t`` values cannot be named in a stub: its parameter takes any numpy value.
    """
    if d.np_dtype.name == "bfloat16":
        return "float | np.generic", "NDArray[Any]"
    if d.np_dtype.kind == "f" and d.np_dtype.itemsize == 4:  # C converts integers to float
        return "_Float32", "_Float32Array"
    if d.np_dtype.kind == "f":
        return "float | np.float16", "NDArray[np.float16]"
    alias = int_alias("iu", d.size)
    return (alias if d.size >= 4 else f"int | {alias}"), f"{alias}Array"


def half_stub(spec: OpSpec) -> list[str]:
    """Scalar and array overloads per nameable combination (half, float, integers).

    A function of bfloat16 only gets one untyped-result def: a bfloat16 value is typed
    ``np.generic[Any]``, which makes every overload match.
    """
    shape = simt_shape(spec)
    pairs = list(zip(spec.combos, shape.results, strict=True))
    named = [(c, r) for c, r in pairs if all(np_name(d) is not None for d in c)]
    if not named:
        params = ", ".join(f"{r}: float | np.generic | NDArray[Any]" for r in spec.roles)
        return [f"def {spec.name}({params}) -> Any: ...  # {combo_text(spec.combos[0])}"]
    lines = []
    for combo, result in named:
        ret = np_name(result) or "Any"
        params = [half_param(d) for d in combo]
        tag = combo_text(combo)
        scalars = ", ".join(f"{r}: {p[0]}" for r, p in zip(spec.roles, params, strict=True))
        arrays = ", ".join(f"{r}: {p[0]} | {p[1]}" for r, p in zip(spec.roles, params, strict=True))
        lines.append(f"def {spec.name}({scalars}) -> {ret}: ...  # {tag}")
        lines.append(f"def {spec.name}({arrays}) -> NDArray[{ret}]: ...  # {tag} arrays")
    return lines


def libm_parameter(d: type[Scalar], array: bool) -> str:
    """The static type of one input of a ``LIBM`` row (a scalar, or a scalar or an array)."""
    alias = "_Float32" if d.kind.value == "float" else int_alias("iu", d.size)
    return f"{alias} | {alias}Array" if array else alias


def libm_stub(spec: OpSpec) -> list[str]:
    """A math library or conversion row: scalars give a scalar, arrays an array; outputs last."""
    shape = simt_shape(spec)
    count = len(spec.roles) - shape.pointers
    combo = spec.combos[0]
    outputs = [f"{r}: Pointer[{pyname(d)}] | LanePointer"
               for r, d in zip(spec.roles[count:], combo[count:], strict=True)]  # fmt: skip
    tag = combo_text(combo)
    if not shape.results:
        params = [
            f"{r}: {libm_parameter(d, True)}"
            for r, d in zip(spec.roles[:count], combo[:count], strict=True)
        ]
        return [f"def {spec.name}({', '.join(params + outputs)}) -> None: ...  # {tag}"]
    ret = np_name(shape.results[0])
    lines = []
    for array in (False, True):
        params = [
            f"{r}: {libm_parameter(d, array)}"
            for r, d in zip(spec.roles[:count], combo[:count], strict=True)
        ]
        result = f"NDArray[{ret}]" if array else ret
        lines.append(f"def {spec.name}({', '.join(params + outputs)}) -> {result}: ...  # {tag}")
    return lines


PAIR_CLASSES = {"half": "half2", "bfloat16_t": "bfloat16x2_t"}
"""The pair class of each element type of the half2 / bfloat16x2_t rows."""
PAIR_RESULTS = {"pair_bool": "np.bool_ | Lanes", "pair_mask": "np.uint32 | Lanes"}
"""The result of the pair comparisons that do not return a pair: one per thread or a scalar."""
_COMPONENT = "float | np.number[Any] | np.bool_ | NDArray[np.number[Any] | np.bool_]"
"""A ``make_*`` argument: any arithmetic value (C converts it to the parameter type)."""


def pair_stub(spec: OpSpec, kind: str) -> list[str]:
    """One def per pair type: ``(half2, half2) -> half2`` and the ``bfloat16x2_t`` twin."""
    lines = []
    for combo in spec.combos:
        cls = PAIR_CLASSES[pyname(combo[0])]
        params = ", ".join(f"{r}: {cls}" for r in spec.roles)
        lines.append(f"def {spec.name}({params}) -> {PAIR_RESULTS.get(kind, cls)}: ...  # {cls}")
    return lines


def make_stub(spec: OpSpec) -> list[str]:
    """``make_int2(x, y) -> int2``: any arithmetic components, the named vector type."""
    params = ", ".join(f"{r}: {_COMPONENT}" for r in spec.roles)
    return [
        f"def {spec.name}({params}) -> {spec.name.removeprefix('make_')}: ...  # {combo_text(spec.combos[0])}"
    ]


_SHFL_VALUE = "int | float | np.int32 | np.uint32 | np.float32 | np.int64 | np.uint64 | np.float16 | NDArray[Any]"
_GROUP_PARAMETERS = {"var": _SHFL_VALUE, "tilesz": "int"}
"""The annotation of a cooperative-groups value parameter (default ``_IntLike | _IntArray``)."""
GROUP_METHODS: dict[str, dict[str, str]] = {
    "thread_block": {
        "sync": "None", "thread_rank": "Lanes", "group_index": "dim3", "thread_index": "Any",
        "dim_threads": "dim3", "group_dim": "dim3", "num_threads": "int", "size": "int",
    },
    "thread_block_tile": {
        "sync": "None", "thread_rank": "Lanes", "num_threads": "int", "size": "int",
        "meta_group_rank": "Lanes", "meta_group_size": "int", "shfl": "Any", "shfl_up": "Any",
        "shfl_down": "Any", "shfl_xor": "Any", "ballot": "Lanes", "any": "Lanes", "all": "Lanes",
    },
    "coalesced_group": {
        "sync": "None", "num_threads": "Lanes", "size": "Lanes", "thread_rank": "Lanes",
        "meta_group_rank": "int", "meta_group_size": "int", "shfl": "Lanes", "shfl_up": "Lanes",
        "shfl_down": "Lanes", "ballot": "Lanes", "any": "Lanes", "all": "Lanes",
    },
}  # fmt: skip
"""What each member of each group class returns (a one-thread tile's shuffle returns its
argument: ``Any``)."""
GROUP_MADE = {"this_thread_block": "thread_block", "coalesced_threads": "coalesced_group",
              "binary_partition": "coalesced_group"}  # fmt: skip


def group_parameters(spec: OpSpec) -> list[str]:
    """The value parameters of a cooperative-groups row, annotated."""
    return [f"{r}: {_GROUP_PARAMETERS.get(r, '_IntLike | _IntArray')}" for r in spec.roles]


def group_class_lines() -> list[str]:
    """The group classes with their members (each member's parameters from its row)."""
    lines = ["MAX_TILE: int", ""]
    for cls, members in GROUP_METHODS.items():
        lines.append(f"class {cls}:")
        if cls == "thread_block_tile":
            lines.append("    parent: thread_block")
            lines.append("    def __init__(self, size: int, parent: thread_block) -> None: ...")
        if cls == "coalesced_group":
            lines.append("    mask: Lanes")
            lines.append(
                "    def __init__(self, mask: Any, meta_rank: int = 0, meta_size: int = 1) -> None: ..."
            )
        for member, returns in members.items():
            params = ", ".join(["self", *group_parameters(SPECS[member])])
            lines.append(f"    def {member}({params}) -> {returns}: ...")
        lines.append("")
    lines += [
        "class _TiledPartition:",
        "    def __call__(self, parent: thread_block, tilesz: int) -> thread_block_tile: ...",
        "    def __getitem__(self, size: int) -> Callable[[thread_block], thread_block_tile]: ...",
    ]
    return lines


def group_stub(spec: OpSpec) -> list[str]:
    """A cooperative-groups function: one def per group class whose member returns differ."""
    name, groups = spec.name, simt_shape(spec).groups
    if name == "tiled_partition":
        return ["tiled_partition: _TiledPartition"]
    values = group_parameters(spec)
    if not groups:
        return [f"def {name}({', '.join(values)}) -> {GROUP_MADE[name]}: ...  # ()"]
    if name in GROUP_MADE:
        params = ", ".join([f"g: {' | '.join(groups)}", *values])
        return [f"def {name}({params}) -> {GROUP_MADE[name]}: ...  # {', '.join(groups)}"]
    returns = {g: GROUP_METHODS[g][name] for g in groups}
    if len(set(returns.values())) == 1:
        params = ", ".join([f"g: {' | '.join(groups)}", *values])
        return [f"def {name}({params}) -> {returns[groups[0]]}: ...  # {', '.join(groups)}"]
    return [
        f"def {name}({', '.join([f'g: {g}', *values])}) -> {ret}: ...  # {g}"
        for g, ret in returns.items()
    ]


_GENERIC = "Pointer[Any] | LanePointer | GenericPointer | None"
"""What a ``const void*`` parameter takes (an ascreg pointer, ``p + idx``, a generic pointer,
``None`` for nullptr)."""


def address_stub(spec: OpSpec) -> list[str]:
    """An address-space function: a pointer or a raw value in; ``void`` functions give None."""
    shape = simt_shape(spec)
    if shape.kind == "void":
        params = ", ".join(f"{r}: {_GENERIC.removesuffix(' | None')}" for r in spec.roles)
        return [f"def {spec.spelling}({params}) -> None: ...  # void"]
    (role,), (result,) = spec.roles, shape.results
    if role == "rawbits":
        return [f"def {spec.name}(rawbits: _IntLike | _IntArray) -> GenericPointer: ...  # void*"]
    ret = np_name(result)
    return [
        f"def {spec.name}(ptr: Pointer[Any] | GenericPointer | None) -> {ret} | Lanes: ...  # {pyname(result)}",
        f"def {spec.name}(ptr: LanePointer) -> Lanes: ...  # {pyname(result)} per thread",
    ]


PACK_PARAMETERS = {
    "float": "_Float32 | _Float32Array",
    "half": "float | np.float16 | NDArray[np.float16]",
    "bfloat16_t": "float | np.generic | NDArray[Any]",
}
"""The static type of a scalar parameter of a packing function (pairs and enums: their class)."""
PACK_RESULTS = {"float": "np.float32 | Lanes", "half": "np.float16 | Lanes", "bfloat16_t": "Any",
                "unsigned short": "np.uint16 | Lanes"}  # fmt: skip
"""The static result of a packing function returning one value (pairs: their class)."""


def pack_stub(spec: OpSpec) -> list[str]:
    """One def per C overload: the pair classes, enumerations and scalar types of the row."""
    from ascreg._spec.simt import PACK_ROWS

    lines = []
    for overload in PACK_ROWS[spec.name].overloads:
        params = ", ".join(
            f"{r}: {PACK_PARAMETERS.get(t, t)}" for r, t in zip(spec.roles, overload, strict=False)
        )
        result = PACK_RESULTS.get(overload[-1], overload[-1])
        lines.append(f"def {spec.name}({params}) -> {result}: ...  # {overload[0]}")
    return lines


def simt_stub(spec: OpSpec) -> list[str]:
    """The stub lines of one SIMT row (each line a def, tagged with its combination)."""
    shape = simt_shape(spec)
    name = spec.name
    if shape.kind == "group":
        return group_stub(spec)
    if shape.kind in ("address", "void"):
        return address_stub(spec)
    if shape.kind in ("pair", "pair_bool", "pair_mask"):
        return pair_stub(spec, shape.kind)
    if shape.kind == "make":
        return make_stub(spec)
    if shape.kind == "pack":
        return pack_stub(spec)
    if shape.kind == "int":
        return simt_int_stub(name)
    if shape.kind == "half":
        return half_stub(spec)
    if shape.kind == "libm":
        return libm_stub(spec)
    if shape.kind == "float":
        params = ", ".join(f"{r}: _Float32" for r in spec.roles)
        arrays = ", ".join(f"{r}: _Float32 | _Float32Array" for r in spec.roles)
        return [
            f"def {name}({params}) -> np.float32: ...  # scalars",
            f"def {name}({arrays}) -> NDArray[np.float32]: ...  # arrays",
        ]
    if shape.kind == "shfl":
        values = value_types((c[0] for c in spec.combos), pyints=True)
        return [
            f"def {name}(var: {values}, {spec.roles[1]}: _IntLike | _IntArray, width: int = 32)"
            f" -> Lanes: ...  # {', '.join(pyname(c[0]) for c in spec.combos)}"
        ]
    if shape.kind == "predicate":
        return [f"def {name}(predicate: _IntLike | _IntArray) -> Lanes: ...  # int32_t"]
    if shape.kind == "reduce":
        values = value_types((c[0] for c in spec.combos), pyints=True)
        return [
            f"def {name}(value: {values}) -> Lanes: ...  # {combo_text(tuple(c[0] for c in spec.combos))}"
        ]
    lines = []
    for combo in spec.combos:
        d = combo[0]
        value = _POINTER_VALUE[d.kind.value]
        value = f"{value} | NDArray[{'np.integer[Any]' if value == '_IntLike' else 'np.floating[Any] | np.integer[Any]'}]"
        rest = [f"{r}: {value}" for r in spec.roles[1:]]
        params = ", ".join([f"address: Pointer[{pyname(d)}]", *rest])
        returns = {"atomic": "Lanes", "load": "Any", "store": "None"}[shape.kind]
        lines.append(f"def {name}({params}) -> {returns}: ...  # {combo_text(combo)}")
    rest = [f"{r}: Any" for r in spec.roles[1:]]
    returns = {"atomic": "Lanes", "load": "Any", "store": "None"}[shape.kind]
    lines.append(
        f"def {name}({', '.join(['address: LanePointer', *rest])}) -> {returns}: ...  # p + idx"
    )
    return lines


SIMT_MODULE_IMPORTS = """\
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, overload

import numpy as np
from numpy.typing import NDArray

from ascreg._dtypes import (
{dtypes}
)
from ascreg.machine.memory import Pointer
from ascreg.simt.engine import LanePointer
from ascreg.simt.lanes import Lanes
"""

SIMT_ALIASES = {
    "_LaneIntLike": "int | np.integer[Any] | np.bool_",
    "_LaneIntArray": "NDArray[np.integer[Any] | np.bool_]",
    "_FloatLike": SHARED_ALIASES["_FloatLike"],
    "_LaneFloat32": "float | np.float32 | np.float16 | np.integer[Any] | np.bool_",
    "_LaneFloat32Array": "NDArray[np.float32 | np.float16 | np.integer[Any] | np.bool_]",
    **int_alias_defs(),
}
"""The shared aliases (see stubgen.shared) the SIMT stubs use: name there -> definition."""
SIMT_LOCAL_NAMES = {
    "_LaneIntLike": "_IntLike",
    "_LaneIntArray": "_IntArray",
    "_LaneFloat32": "_Float32",
    "_LaneFloat32Array": "_Float32Array",
}
"""The name a SIMT stub gives a shared alias, where it differs (the Reg ``_IntLike`` takes no
``np.bool_``)."""

SIMT_MODULE_SURFACE = {
    "simt/intrinsics": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "C_NAMES: dict[type[Scalar], str]",
        "",
        "class Signature:",
        "    ctypes: tuple[str, ...]",
        "    dtypes: tuple[np.dtype[Any], ...]",
        "    width: int",
        "    def __init__(self, *dtypes: type[Scalar]) -> None: ...",
        "    def text(self, names: Sequence[str]) -> str: ...",
        "",
        "def overloads_of(name: str) -> tuple[tuple[str, ...], tuple[Signature, ...]]: ...",
        "",
        "INTRINSICS: tuple[str, ...]",
    ],
    "simt/floatmath": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "LIBRARY: dict[str, Callable[..., Any]]",
    ],
    "simt/conversions": [
        "CONVERSIONS: dict[str, Callable[..., Any]]",
    ],
    "simt/warp": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "SHFL_TYPES: tuple[np.dtype[Any], ...]",
        "REDUCE_TYPES: tuple[np.dtype[Any], ...]",
        "",
        "class WarpRequest:",
        "    key: tuple[Any, ...]",
        "    compute: Callable[..., Arr]",
        "    value: Any",
        "    params: tuple[Any, ...]",
        "    def __init__(self, key: tuple[Any, ...], compute: Callable[..., Arr], value: Any, params: tuple[Any, ...]) -> None: ...",
        "",
        "def complete_rendezvous(lanes: list[int], requests: list[WarpRequest]) -> list[Any]: ...",
        "def asc_activemask() -> Lanes: ...",
        "def laneid() -> Lanes: ...",
        "def lanemask_eq() -> Lanes: ...",
        "def lanemask_lt() -> Lanes: ...",
        "def lanemask_le() -> Lanes: ...",
        "def lanemask_gt() -> Lanes: ...",
        "def lanemask_ge() -> Lanes: ...",
        "def asc_syncthreads() -> None: ...",
        "def asc_threadfence() -> None: ...",
        "def asc_threadfence_block() -> None: ...",
    ],
    "simt/atomics": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "LEGAL: dict[str, tuple[np.dtype[Any], ...]]",
    ],
    "simt/access": ["LEGAL: tuple[np.dtype[Any], ...]"],
    "simt/halfmath": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "CTRL_SATURATION: bool",
        "__all__ = [",
        *(
            f"    {name!r},"
            for name in sorted(
                r.name for r in SPECS.values() if getattr(r.shape, "module", "") == "simt/halfmath"
            )
        ),
        "]",
        "",
        "def add_half(x: Any, y: Any) -> Any: ...",
        "def is_half_call(*values: Any) -> bool: ...",
        "",
    ],
    "simt/pairs": ["Arr: TypeAlias = np.ndarray[Any, Any]", "PAIR_TYPES: dict[str, Any]"],
    "simt/packing": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "PACKING: dict[str, Callable[..., Any]]",
        "PACK_ROWS_HEADER: dict[str, str]",
        "__all__ = [",
        *(
            f"    {name!r},"
            for name in sorted(
                [
                    *(
                        r.name
                        for r in SPECS.values()
                        if getattr(r.shape, "module", "") == "simt/packing"
                    ),
                    "__asc_saturation_t",
                    "__asc_fp8_interpretation_t",
                    "__ASC_NOSAT",
                    "__ASC_SATFINITE",
                    "__ASC_E4M3",
                    "__ASC_E5M2",
                ]
            )
        ),
        "]",
        "",
        # the members' C names start with "__": private (not enum members) to a type checker
        "class __asc_saturation_t(enum.IntEnum): ...  # type: ignore[misc]",
        "class __asc_fp8_interpretation_t(enum.IntEnum): ...  # type: ignore[misc]",
        "",
        "__ASC_NOSAT: __asc_saturation_t",
        "__ASC_SATFINITE: __asc_saturation_t",
        "__ASC_E4M3: __asc_fp8_interpretation_t",
        "__ASC_E5M2: __asc_fp8_interpretation_t",
    ],
    "simt/vectors": [],
    "simt/cooperative_groups": [],
    "simt/address": [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "",
        "class GenericPointer:",
        "    value: Any",
        "    def __init__(self, value: Any) -> None: ...",
        "    def __eq__(self, other: object) -> bool: ...",
        "    def __hash__(self) -> int: ...",
    ],
}
SIMT_MODULE_EXTRA_IMPORTS = {
    "simt/cooperative_groups": "from ascreg.machine.simt.engine import dim3\n",
    "simt/pairs": "from ascreg.simt.vectors import bfloat16x2_t, half2\n",
    "simt/packing": (
        "import enum\n"
        "from ascreg.simt.vectors import (bfloat16x2_t, float2, float8_e4m3x2_t, "
        "float8_e5m2x2_t, half2, hifloat8x2_t)\n"
    ),
    "simt/vectors": (
        "from typing import Self\n"
        "from ascreg.machine.simt.vectors import Vector2 as Vector2\n"
        "from ascreg.machine.simt.vectors import Vector3 as Vector3\n"
        "from ascreg.machine.simt.vectors import Vector4 as Vector4\n"
        "from ascreg.machine.simt.vectors import VectorValue as VectorValue\n"
        "from ascreg.machine.simt.vectors import is_vector_type as is_vector_type\n"
    ),
}
"""Imports only one module's stub needs (the pair and vector classes)."""


def vector_classes() -> list[str]:
    """The class of each vector type (``class int2(Vector2): ...``), table order, pairs first."""
    from ascreg._spec.simt import PAIR_ELEMENTS, VECTOR_TYPES

    kinds = {PAIR_CLASSES[pyname(d)]: 2 for d in PAIR_ELEMENTS}
    kinds.update({name: count for name, (_element, count) in VECTOR_TYPES.items()})
    pair = ["class PairValue(Vector2):"] + [
        f"    def {method}(self, other: Self) -> Self: ...  # type: ignore[override]"
        for method in ("__add__", "__sub__", "__mul__", "__truediv__")
    ]
    pair += [  # numpy's reflected operators would accept the other pair type: narrowed here
        f"    def {method}(self, value: Self, /) -> Self: ...  # type: ignore[override]"
        for method in ("__radd__", "__rsub__", "__rmul__", "__rtruediv__")
    ]
    pair.append("    def __neg__(self) -> Self: ...")
    lines = [
        f"class {name}({'PairValue' if name in PAIR_CLASSES.values() else f'Vector{count}'}): ..."
        for name, count in kinds.items()
    ]
    lines += [  # the 8-bit float pairs (asc_fp8.h)
        "",
        "class CodePairValue(Vector2):",
        "    def __new__(cls, *components: Any) -> Self: ...",
        "",
        "class hifloat8x2_t(CodePairValue): ...",
        "class float8_e4m3x2_t(Vector2): ...",
        "class float8_e5m2x2_t(Vector2): ...",
        "",
        "FP8_PAIRS: tuple[Any, ...]",
    ]
    return [
        "Arr: TypeAlias = np.ndarray[Any, Any]",
        "",
        *pair,
        "",
        *lines,
        "",
        "VECTOR_CLASSES: dict[str, Any]",
    ]


def render_simt_module(module: str) -> str:
    """The stub of one SIMT module (``"simt/warp"``): its surface, then its rows' functions."""
    head = SIMT_MODULE_IMPORTS.format(dtypes=dtype_imports() + "\n    Scalar,")
    head += "\n" + SIMT_MODULE_EXTRA_IMPORTS.get(module, "")
    surface = SIMT_MODULE_SURFACE[module] + (vector_classes() if module == "simt/vectors" else [])
    surface += group_class_lines() if module == "simt/cooperative_groups" else []
    body = ["\n".join(surface)] if surface else []
    for spec in module_rows("simt", module):
        shape = simt_shape(spec)
        doc = f"# {spec.spelling}: legal ({', '.join(spec.roles)}) from the table"
        defs = simt_stub(spec)
        lines = [doc]
        for i, line in enumerate(defs):
            if len(defs) > 1:
                lines.append("@overload")
            if shape.kind in ("int", "float", "half", "libm") and i < len(defs) - 1:
                # Wider overloads accept the narrower types too (C widens implicitly), and the
                # array forms accept scalars: the overlap is intended, the first match wins.
                code, _, tag = line.partition("  # ")
                line = f"{code}  # type: ignore[overload-overlap]  # {tag}"
            lines.append(line)
        body.append("\n".join(lines))
    aliases = {SIMT_LOCAL_NAMES.get(name, name): name for name in SIMT_ALIASES}
    return stub_text(head, body, "\n\n", aliases)

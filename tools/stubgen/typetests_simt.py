"""The SIMT type tests: ``tests/typing/generated/{accept,reject}_simt.py`` from the SIMT rows.

The accept file calls every legal combination with scalars, arrays and Python numbers; the
reject file passes floats, float arrays and too-wide or illegal dtypes, each line carrying the
mypy error code it must raise.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascreg._dtypes import Scalar
from ascreg._spec import REG_TYPES, OpSpec
from stubgen.common import (
    IGNORE,
    TEST_HEADER,
    check_functions,
    combo_text,
    dtype_imports,
    pyname,
    surface_rows,
)
from stubgen.simt import (
    GROUP_MADE,
    GROUP_METHODS,
    PACK_RESULTS,
    PAIR_CLASSES,
    PAIR_RESULTS,
    group_stub,
    np_name,
    simt_int_overloads,
    simt_shape,
)

_HALF_BAD = {"f": ("a_float64", '"1"'), "i": ("a_float64", '"1"'), "u": ("a_float64", '"1"')}
"""Bad arguments for a half-kind parameter, by dtype kind (``"V"``: bfloat16 takes any numpy)."""


def half_value(d: type[Scalar], array: bool) -> str:
    """A legal argument of dtype *d* for a half-kind function (a scalar or an array)."""
    if d.np_dtype.name == "bfloat16":
        return "b_bfloat16" if array else "s_bfloat16"
    return simt_array(d) if array else simt_scalar(d)


def half_accept_lines(spec: OpSpec) -> Iterator[str]:
    shape = simt_shape(spec)
    pairs = list(zip(spec.combos, shape.results, strict=True))
    named = [(c, r) for c, r in pairs if all(np_name(d) is not None for d in c)]
    for combo, result in named or pairs:
        ret = (np_name(result) or "Any") if named else "Any"
        rets = f"NDArray[{ret}]" if named else "Any"
        scalars = ", ".join(half_value(d, False) for d in combo)
        arrays = ", ".join(half_value(d, True) for d in combo)
        yield f"    assert_type({spec.name}({scalars}), {ret})  # {combo_text(combo)}"
        yield f"    assert_type({spec.name}({arrays}), {rets})  # {combo_text(combo)} arrays"


def half_overload_accept_lines(spec: OpSpec) -> Iterator[str]:
    """The half overloads of an integer function (``__hadd``): half scalars, a Python number
    with a half value, arrays."""
    for combo in (c for c in spec.combos if c[0].kind.value == "float" and np_name(c[0])):
        ret, tag = np_name(combo[0]), combo_text(combo)
        s, a = simt_scalar(combo[0]), simt_array(combo[0])
        yield f"    assert_type({spec.name}({s}, {s}), {ret})  # {tag}"
        yield f"    assert_type({spec.name}(1, {s}), {ret})  # {tag} Python number x"
        yield f"    assert_type({spec.name}({s}, 1.5), {ret})  # {tag} Python number y"
        yield f"    assert_type({spec.name}({a}, {s}), NDArray[{ret}])  # {tag} array x"
        yield f"    assert_type({spec.name}(1, {a}), NDArray[{ret}])  # {tag} array y"


def half_overload_reject_lines(spec: OpSpec) -> Iterator[str]:
    """Mixing a half value with an integer or float32 numpy value has no overload."""
    for combo in (c for c in spec.combos if c[0].kind.value == "float" and np_name(c[0])):
        s = simt_scalar(combo[0])
        # mypy: a float32 fits the half overload once type arguments are erased (arg-type)
        for bad, code in (("np.int32(1)", "call-overload"), ("np.float32(1)", "arg-type")):
            yield f"    {spec.name}({s}, {bad}){IGNORE.format(code=code)}  # {bad} with half"


def half_reject_lines(spec: OpSpec) -> Iterator[str]:
    shape = simt_shape(spec)
    pairs = list(zip(spec.combos, shape.results, strict=True))
    named = [c for c, _r in pairs if all(np_name(d) is not None for d in c)] or [pairs[0][0]]
    first = named[0]
    for i, d in enumerate(first):
        bads = ('"1"',) if d.np_dtype.name == "bfloat16" else _HALF_BAD[d.np_dtype.kind]
        for bad in bads:
            args = ", ".join(bad if j == i else half_value(e, False) for j, e in enumerate(first))
            # a bfloat16-only function has one plain def (no overloads): mypy says arg-type
            overloaded = d.np_dtype.name != "bfloat16"
            code = "call-overload" if bad == '"1"' and overloaded else "arg-type"
            yield f"    {spec.name}({args}){IGNORE.format(code=code)}  # {bad} as {spec.roles[i]}"


SIMT_TEST_PRELUDE = """\
from typing import TYPE_CHECKING, Any, assert_type

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

from ascreg import GlobalMemory
from ascreg._dtypes import (
{dtypes}
)
from ascreg.simt import (
{names}
)

"""
# Arrays are held in variables: mypy infers ``np.ones(4, np.float32)`` written as an argument
# against the parameter's type and lets it pass (see docs/typing.md).
ARRAY_VARIABLES = ("bool_", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                   "float16", "float32", "float64")  # fmt: skip


def simt_scalar(d: type[Scalar]) -> str:
    return f"{np_name(d)}(1)"


def simt_array(d: type[Scalar] | str) -> str:
    name = d if isinstance(d, str) else str(np_name(d))
    return "a_" + name.removeprefix("np.")


def pair_value(d: type[Scalar]) -> str:
    """A value of the pair type of element *d* (``half2(1, 2)``)."""
    return f"{PAIR_CLASSES[pyname(d)]}(1, 2)"


def pair_accept_lines(spec: OpSpec, kind: str) -> Iterator[str]:
    for combo in spec.combos:
        cls = PAIR_CLASSES[pyname(combo[0])]
        args = ", ".join(pair_value(d) for d in combo)
        yield f"    assert_type({spec.name}({args}), {PAIR_RESULTS.get(kind, cls)})  # {cls}"


def make_accept_lines(spec: OpSpec) -> Iterator[str]:
    result = spec.name.removeprefix("make_")
    yield f"    assert_type({spec.name}({', '.join('1' for _ in spec.roles)}), {result})"
    yield f"    assert_type({spec.name}({', '.join('1.5' for _ in spec.roles)}), {result})"
    array = simt_array(spec.combos[0][0])
    yield f"    assert_type({spec.name}({', '.join(array for _ in spec.roles)}), {result})  # per thread"


GROUP_VARIABLES = {"thread_block": "block", "thread_block_tile": "tile", "coalesced_group": "warp"}
"""The variable holding a group of each class in the type tests' ``main``."""


def _group_arguments(spec: OpSpec) -> list[str]:
    return ["4" if r == "tilesz" else "1" for r in spec.roles]


def group_accept_lines(spec: OpSpec) -> Iterator[str]:
    """A cooperative-groups function on each group class it takes, and the member method."""
    name, groups = spec.name, simt_shape(spec).groups
    args = _group_arguments(spec)
    if name == "tiled_partition":
        yield "    assert_type(tiled_partition(block, 4), thread_block_tile)"
        yield "    assert_type(tiled_partition[4](block), thread_block_tile)"
        return
    if not groups or name in GROUP_MADE:
        made = GROUP_MADE[name]
        for g in groups or ("",):
            call = ", ".join([GROUP_VARIABLES[g], *args] if g else args)
            yield f"    assert_type({name}({call}), {made})"
        return
    for g in groups:
        ret, var = GROUP_METHODS[g][name], GROUP_VARIABLES[g]
        yield f"    assert_type({name}({', '.join([var, *args])}), {ret})  # {g}"
        yield f"    assert_type({var}.{name}({', '.join(args)}), {ret})  # the member"


def group_reject_lines(spec: OpSpec) -> Iterator[str]:
    """A group class the function does not take, and a value that is not one."""
    name, groups = spec.name, simt_shape(spec).groups
    args = _group_arguments(spec)
    overloaded = len(group_stub(spec)) > 1
    if name == "tiled_partition":
        yield f"    tiled_partition(tile, 4){IGNORE.format(code='arg-type')}  # only a thread_block"
        return
    for g in (g for g in GROUP_VARIABLES if groups and g not in groups):
        code = "call-overload" if overloaded else "arg-type"
        yield f"    {name}({', '.join([GROUP_VARIABLES[g], *args])}){IGNORE.format(code=code)}  # {g}"
    if groups and args:
        code = "call-overload" if overloaded else "arg-type"
        bad = ", ".join([GROUP_VARIABLES[groups[0]], '"1"', *args[1:]])
        yield f"    {name}({bad}){IGNORE.format(code=code)}  # a str value"
    if not groups:
        yield f"    {name}(1){IGNORE.format(code='call-arg')}  # takes no argument"


def address_lines(spec: OpSpec, kind: str) -> Iterator[str]:
    """An address-space function on each kind of pointer (accept), or on a number (reject)."""
    shape, name = simt_shape(spec), spec.spelling
    if shape.kind == "void":
        call = f"{name}(g_uint32_t)" if spec.roles else f"{name}()"
        yield (
            f"    {call}"
            if kind == "accept"
            else f"    {name}(1.5){IGNORE.format(code='arg-type' if spec.roles else 'call-arg')}  # not a pointer"
        )
        return
    if spec.roles == ("rawbits",):
        if kind == "accept":
            yield f"    assert_type({name}(0x400000), GenericPointer)"
            yield f"    assert_type({name}(a_uint64), GenericPointer)  # per thread"
        else:
            yield f"    {name}(1.5){IGNORE.format(code='arg-type')}  # a float"
        return
    ret = np_name(shape.results[0])
    if kind == "accept":
        for ptr in ("g_uint32_t", "None", "__cvta_global_to_generic(0x400000)"):
            yield f"    assert_type({name}({ptr}), {ret} | Lanes)"
        yield f"    assert_type({name}(LanePointer(g_uint32_t, a_int64)), Lanes)  # p + idx"
    else:
        yield f"    {name}(1){IGNORE.format(code='call-overload')}  # an int is no pointer"


PACK_VALUES = {
    "float": "1.5", "half": "np.float16(1)", "bfloat16_t": "s_bfloat16",
    "__asc_saturation_t": "__ASC_NOSAT", "__asc_fp8_interpretation_t": "__ASC_E4M3",
}  # fmt: skip
"""A legal argument of each non-pair C type of the packing functions (a pair: ``cls(1, 2)``)."""
FP8_PAIR_CLASSES = ("hifloat8x2_t", "float8_e4m3x2_t", "float8_e5m2x2_t")


def pack_value(ctype: str) -> str:
    return PACK_VALUES.get(ctype, f"{ctype}(1, 2)")


def pack_accept_lines(spec: OpSpec) -> Iterator[str]:
    from ascreg._spec.simt import PACK_ROWS

    for overload in PACK_ROWS[spec.name].overloads:
        args = ", ".join(pack_value(t) for t in overload[:-1])
        result = PACK_RESULTS.get(overload[-1], overload[-1])
        yield f"    assert_type({spec.name}({args}), {result})  # {overload[0]}"


def pack_reject_lines(spec: OpSpec) -> Iterator[str]:
    """A number or string for each parameter; the other pair types for a pair parameter."""
    from ascreg._spec.simt import PACK_ROWS

    overloads = PACK_ROWS[spec.name].overloads
    first = overloads[0][:-1]
    code = "call-overload" if len(overloads) > 1 else "arg-type"
    for i, ctype in enumerate(first):
        bads = ['"1"'] if ctype in PACK_VALUES else ["1.5", "int2(1, 2)"]
        if ctype.startswith("__asc"):
            bads.append("0")
        for bad in bads:
            args = ", ".join(bad if j == i else pack_value(t) for j, t in enumerate(first))
            yield f"    {spec.name}({args}){IGNORE.format(code=code)}  # {bad} as {spec.roles[i]}"


def simt_accept_lines(spec: OpSpec) -> Iterator[str]:
    """Every legal call of one device function."""
    shape = simt_shape(spec)
    name = spec.name
    yield f"    # {name}: every legal combination (scalars, arrays, Python numbers)"
    if shape.kind == "group":
        yield from group_accept_lines(spec)
        return
    if shape.kind in ("address", "void"):
        yield from address_lines(spec, "accept")
        return
    if shape.kind in ("pair", "pair_bool", "pair_mask"):
        yield from pair_accept_lines(spec, shape.kind)
        return
    if shape.kind == "make":
        yield from make_accept_lines(spec)
        return
    if shape.kind == "pack":
        yield from pack_accept_lines(spec)
        return
    if shape.kind == "int":
        done_py = False
        for combo, _aliases, ret in simt_int_overloads(name):
            scalars = ", ".join(simt_scalar(d) for d in combo)
            yield f"    assert_type({name}({scalars}), {ret})  # {combo_text(combo)}"
            for i in range(len(combo)):
                args = ", ".join(
                    simt_array(d) if j == i else simt_scalar(d) for j, d in enumerate(combo)
                )
                yield f"    assert_type({name}({args}), NDArray[{ret}])  # {combo_text(combo)} array {spec.roles[i]}"
            if not done_py and min(d.size for d in combo) >= 4:
                done_py = True
                yield f"    assert_type({name}({', '.join('1' for _ in combo)}), {ret})  # Python ints"
        yield from half_overload_accept_lines(spec)
        return
    if shape.kind == "libm":
        yield from libm_accept_lines(spec)
        return
    if shape.kind == "float":
        yield f"    assert_type({name}({', '.join('1.5' for _ in spec.roles)}), np.float32)"
        yield f"    assert_type({name}({', '.join('np.float16(1)' for _ in spec.roles)}), np.float32)"
        yield f"    assert_type({name}({', '.join('a_float32' for _ in spec.roles)}), NDArray[np.float32])"
        yield f"    assert_type({name}({', '.join('np.int64(1)' for _ in spec.roles)}), np.float32)  # C converts integers"
        yield f"    assert_type({name}({', '.join('a_int32' for _ in spec.roles)}), NDArray[np.float32])"
        return
    if shape.kind == "half":
        yield from half_accept_lines(spec)
        return
    if shape.kind in ("shfl", "reduce"):
        extra = ", 1" if shape.kind == "shfl" else ""
        for combo in spec.combos:
            if np_name(combo[0]) is None:
                continue  # bfloat16: not nameable in a stub
            yield f"    assert_type({name}({simt_scalar(combo[0])}{extra}), Lanes)  # {pyname(combo[0])}"
            yield f"    assert_type({name}({simt_array(combo[0])}{extra}), Lanes)  # {pyname(combo[0])} array"
        yield f"    assert_type({name}(1{extra}), Lanes)  # Python int"
        yield f"    assert_type({name}(1.5{extra}), Lanes)  # Python float"
        return
    if shape.kind == "predicate":
        yield f"    assert_type({name}(1), Lanes)"
        yield f"    assert_type({name}(a_bool_), Lanes)"
        return
    for combo in spec.combos:
        d = combo[0]
        value = "1.5" if d.kind.value == "float" else "1"
        args = ", ".join([f"g_{pyname(d)}", *(value for _ in spec.roles[1:])])
        returns = {"atomic": "Lanes", "load": "Any", "store": None}[shape.kind]
        text = f"{name}({args})"
        yield f"    {f'assert_type({text}, {returns})' if returns else text}  # {combo_text(combo)}"


def _libm_arguments(spec: OpSpec, inputs: list[str]) -> str:
    """The inputs, then a matching pointer for each output."""
    combo = spec.combos[0]
    outputs = [f"g_{pyname(d)}" for d in combo[len(inputs) :]]
    return ", ".join([*inputs, *outputs])


def _libm_value(d: type[Scalar], array: bool) -> str:
    if d.kind.value == "float":
        return "a_float32" if array else "1.5"
    return simt_array(d) if array else "1"


def libm_accept_lines(spec: OpSpec) -> Iterator[str]:
    """Scalars, arrays and Python numbers for a math library or conversion row."""
    shape = simt_shape(spec)
    name, combo = spec.name, spec.combos[0]
    count = len(spec.roles) - shape.pointers
    ret = np_name(shape.results[0]) if shape.results else None
    for array in (False, True):
        args = _libm_arguments(spec, [_libm_value(d, array) for d in combo[:count]])
        if ret is None:
            yield f"    {name}({args})  # {'arrays' if array else 'scalars'}"
        else:
            want = f"NDArray[{ret}]" if array else ret
            yield f"    assert_type({name}({args}), {want})"
    if count and combo[0].kind.value == "float":
        args = _libm_arguments(spec, [simt_scalar(d) for d in combo[:count]])
        if ret is not None:
            yield f"    assert_type({name}({args}), {ret})  # numpy scalars"
            args = _libm_arguments(spec, ["np.int64(1)", *(simt_scalar(d) for d in combo[1:count])])
            yield f"    assert_type({name}({args}), {ret})  # C converts an integer to float"


def libm_reject_lines(spec: OpSpec) -> Iterator[str]:
    """Wrong kinds of value for the first input, and a wrong pointer for an output."""
    shape = simt_shape(spec)
    name, combo = spec.name, spec.combos[0]
    count = len(spec.roles) - shape.pointers
    rest = [_libm_value(d, False) for d in combo[1:count]]
    first = combo[0]
    bads = (
        [("a_float64", "arg-type"), ('"1"', "call-overload"), ("None", "call-overload")]
        if first.kind.value == "float"
        else [("1.5", "call-overload"), ("np.float32(1)", "call-overload"),
              ("a_float32", "arg-type"), ('"1"', "call-overload")]
    )  # fmt: skip
    if not shape.results:
        bads = [(bad, "arg-type") for bad, _code in bads]
    for bad, code in bads:
        args = _libm_arguments(spec, [bad, *rest])
        yield f"    {name}({args}){IGNORE.format(code=code)}  # {bad}"
    if shape.pointers:
        inputs = [_libm_value(d, False) for d in combo[:count]]
        wrong = "g_int8_t"
        args = ", ".join([*inputs, *(wrong for _ in combo[count:])])
        yield f"    {name}({args}){IGNORE.format(code='arg-type')}  # an int8_t pointer"


def simt_reject_lines(spec: OpSpec) -> Iterator[str]:
    """Calls of one device function that must be rejected."""
    shape = simt_shape(spec)
    name = spec.name
    ignore = IGNORE
    # mypy's code: `arg-type` when the argument fits some overload once type arguments are
    # erased (an ndarray, a numpy integer, a Pointer), `call-overload` when it fits none.
    unfit = {"int": ("1.5", "np.float32(1)"), "float": ('"1"', "None")}.get(shape.kind, ())
    yield f"    # {name}: floats, float arrays and too-wide or illegal dtypes are rejected"
    if shape.kind == "group":
        yield from group_reject_lines(spec)
        return
    if shape.kind in ("address", "void"):
        yield from address_lines(spec, "reject")
        return
    if shape.kind in ("pair", "pair_bool", "pair_mask"):
        yield from pair_reject_lines(spec)
        return
    if shape.kind == "pack":
        yield from pack_reject_lines(spec)
        return
    if shape.kind == "make":
        for bad in ('"1"', "None"):
            args = ", ".join([bad, *("1" for _ in spec.roles[1:])])
            yield f"    {name}({args}){ignore.format(code='arg-type')}  # {bad}: not a number"
        return
    if shape.kind == "int":
        overloads = simt_int_overloads(name)
        first = overloads[0][0]
        widest = max(max(d.size for d in c) for c, _a, _r in overloads)
        for i in range(len(first)):
            for bad in ("1.5", "np.float32(1)", "a_float32", "a_float64"):
                args = ", ".join(bad if j == i else simt_scalar(d) for j, d in enumerate(first))
                code = "call-overload" if bad in unfit else "arg-type"
                yield f"    {name}({args}){ignore.format(code=code)}  # {bad} as {spec.roles[i]}"
            if widest < 8:
                args = ", ".join(
                    "np.int64(1)" if j == i else simt_scalar(d) for j, d in enumerate(first)
                )
                yield f"    {name}({args}){ignore.format(code='arg-type')}  # int64 is wider than every overload"
        splits = [c for c, _a, _r in overloads if c[0].kind.value == "uint"]
        if len(first) == 2 and any(
            c[0].kind.value == "int" and c[0].size == s[0].size
            for c, _a, _r in overloads
            for s in splits
        ):
            s = splits[0]
            yield f"    {name}({simt_scalar(s[0]).replace('np.u', 'np.')}, {simt_scalar(s[0])}){ignore.format(code='call-overload')}  # signed with unsigned: ambiguous in C++"
        yield from half_overload_reject_lines(spec)
        return
    if shape.kind == "half":
        yield from half_reject_lines(spec)
        return
    if shape.kind == "libm":
        yield from libm_reject_lines(spec)
        return
    if shape.kind == "float":
        for bad in ("a_float64", '"1"', "None"):
            args = ", ".join([bad, *("1.0" for _ in spec.roles[1:])])
            code = "call-overload" if bad in unfit else "arg-type"
            yield f"    {name}({args}){ignore.format(code=code)}  # {bad}"
        return
    if shape.kind in ("shfl", "reduce", "predicate"):
        extra = ", 1" if shape.kind == "shfl" else ""
        bads = (
            ['"1"', "a_float64", "a_int8"]
            if shape.kind != "predicate"
            else ['"1"', "1.5", "a_float32"]
        )
        for bad in bads:
            yield f"    {name}({bad}{extra}){ignore.format(code='arg-type')}  # {bad}"
        if shape.kind == "shfl":
            yield f"    {name}(1, 1.5){ignore.format(code='arg-type')}  # a float lane"
        return
    legal = {c[0] for c in spec.combos}
    for d in REG_TYPES:
        if d in legal:
            continue
        args = ", ".join([f"g_{pyname(d)}", *("1" for _ in spec.roles[1:])])
        yield f"    {name}({args}){ignore.format(code='arg-type')}  # {pyname(d)}"
    ints = [c[0] for c in spec.combos if c[0].kind.value in ("int", "uint")]
    floats = "arg-type" if len(ints) < len(spec.combos) else "call-overload"
    if ints and len(spec.roles) > 1:
        args = ", ".join([f"g_{pyname(ints[0])}", *("1.5" for _ in spec.roles[1:])])
        yield f"    {name}({args}){ignore.format(code=floats)}  # a float value through an integer pointer"


def pair_reject_lines(spec: OpSpec) -> Iterator[str]:
    """Numbers, numpy arrays and mixed pair types are no pairs (C++ converts none of them)."""
    first = spec.combos[0]
    for bad in ("1.5", "a_float16"):
        args = ", ".join([bad, *(pair_value(d) for d in first[1:])])
        yield f"    {spec.name}({args}){IGNORE.format(code='call-overload')}  # {bad}"
    if len(spec.roles) > 1:
        mixed = ", ".join(pair_value(c[0]) for c in spec.combos[: len(spec.roles)])
        mixed = mixed if len(spec.roles) == 2 else f"{mixed}, {pair_value(first[0])}"
        yield f"    {spec.name}({mixed}){IGNORE.format(code='call-overload')}  # half2 with bfloat16x2_t"


def vector_class_lines(kind: str) -> Iterator[str]:
    """The vector classes: construction, components, and the pair operators."""
    yield "    # the vector and pair classes: construction, components, C++ operators of the pairs"
    if kind == "accept":
        yield "    assert_type(half2(1, 2) + half2(1, 2), half2)"
        yield "    assert_type(-bfloat16x2_t(1, 2) * bfloat16x2_t(1, 2), bfloat16x2_t)"
        yield "    v = int4(1, 2, 3, 4)"
        yield "    v.w = 5"
        yield "    assert_type(v, int4)"
        return
    yield f"    half2(1, 2) + bfloat16x2_t(1, 2){IGNORE.format(code='operator')}  # two pair types"
    yield f"    __haddx2(int2(1, 2), int2(1, 2)){IGNORE.format(code='call-overload')}  # int2 is no pair"


def render_simt_tests(kind: str) -> str:
    """The accept (*kind* ``"accept"``) or reject type-test file of the SIMT functions."""
    rows = surface_rows("simt")
    classes = [
        *GROUP_METHODS,
        "dim3",
        "GenericPointer",
        "LanePointer",
        *PAIR_CLASSES.values(),
        *(
            r.name.removeprefix("make_")
            for r in rows
            if r.name.startswith("make_") and simt_shape(r).kind == "make"
        ),  # not make_half2
        *FP8_PAIR_CLASSES,
        "__ASC_NOSAT",
        "__ASC_E4M3",
    ]
    names = "\n".join(
        f"    {n}," for n in sorted(["Lanes", *classes, *(row.spelling for row in rows)])
    )
    arrays = "    gm = GlobalMemory()\n"
    arrays += "\n".join(f"    a_{n} = np.ones(4, np.{n})" for n in ARRAY_VARIABLES)
    arrays += "\n" + "\n".join(f"    g_{pyname(d)} = gm.alloc({pyname(d)}, 4)" for d in REG_TYPES)
    arrays += "\n    b_bfloat16 = np.ones(4, ml_dtypes.bfloat16)\n    s_bfloat16: np.generic = ml_dtypes.bfloat16(1)"
    arrays += (
        "\n    block = this_thread_block()\n    tile = tiled_partition(block, 4)"
        "\n    warp = coalesced_threads()"
    )
    prelude = SIMT_TEST_PRELUDE.format(dtypes=dtype_imports(), names=names)
    lines = arrays.splitlines()
    for row in rows:
        lines += simt_accept_lines(row) if kind == "accept" else simt_reject_lines(row)
    lines += vector_class_lines(kind)
    return "\n".join([TEST_HEADER, prelude, *check_functions(lines)]) + "\n"

"""The C API type tests: ``tests/typing/generated/{accept,reject}_c_api.py`` from the C API rows.

The accept file calls every form of every function with every combination it applies to; the
reject file calls every illegal combination of every form (and operands of two dtypes), each
line carrying the mypy error code it must raise; forms of more than two dtype roles and the
conversion families wrong one role at a time instead (the full product would run to 10**4 calls).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from ascreg._dtypes import Scalar, bool_
from ascreg._spec import REG_TYPES, CForm, OpSpec, Param
from ascreg._spec.c_api import L12L0_TYPES
from stubgen.c_api import (
    CUBE_POINTERS,
    MASK_POINTER_DTYPES,
    c_applies,
    c_returns,
    c_shape,
    vector_name,
)
from stubgen.common import (
    IGNORE,
    TEST_HEADER,
    check_functions,
    combo_text,
    dtype_imports,
    pyname,
    scalar_type,
    surface_rows,
)

C_TEST_PRELUDE = """\
from typing import TYPE_CHECKING, Any, assert_type, cast

from ascreg import GlobalMemory, Ref, UnifiedBuffer
from ascreg._dtypes import (
{dtypes}
)
from ascreg.c_api import (
    PAT_ALL,
    PIPE_S,
    VA0,
    addr_reg,
    asc_fill_value_config,
    asc_l13d_fmatrix_config,
    asc_load3d_v2_config,
    asc_ndim_pad_count_config,
    asc_store_atomic_config,
    asc_update_addr_reg_b16,
    vector_load_unalign,
    vector_store_unalign,
{names}
)
from ascreg.machine.cube import CaPtr, CbPtr, CbufPtr, CcPtr, FbufPtr

"""
C_TEST_SETUP = """\
    ub = UnifiedBuffer()
    gm = GlobalMemory()
    m = asc_create_mask_b16(PAT_ALL)
    assert_type(m, vector_bool)
    b = vector_bool()
    a = asc_update_addr_reg_b16(128)
    assert_type(a, addr_reg)
    ul = vector_load_unalign()
    us = vector_store_unalign()
    fb = cast(FbufPtr[Any], None)
"""


SAMPLED_FAMILIES = ("Cast", "Truncate")
"""Families of hundreds of same-signature spellings (``asc_float2half_rn``, ``_rn_sat``, ...):
the reject file takes one spelling per signature and wrongs one dtype role at a time."""
FULL_PRODUCT_ROLES = 2
"""Up to this many dtype roles the reject file lists every illegal combination; a form with more
(``asc_gather``'s dst, src and index: 21**3 calls) wrongs one role at a time from a legal one."""


def c_variables() -> list[str]:
    lines = []
    for d in REG_TYPES:
        n = pyname(d)
        if d is not bool_:
            lines.append(f"    v_{n} = {vector_name(d)}()")
            lines.append(f"    assert_type(v_{n}, {vector_name(d)})")
        lines.append(f"    p_{n} = ub.alloc({n}, 256)")
        lines.append(f"    pr_{n} = Ref(p_{n})")
        lines.append(f"    g_{n} = gm.alloc({n}, 256)")
    for d in cube_pointer_types():  # the cube buffers' pointers (typed only: no block runs here)
        n = pyname(d)
        lines += [f"    {kind}_{n} = cast({cls}[{n}], None)" for kind, cls in CUBE_POINTERS.items()]
    return lines


def cube_pointer_types() -> list[type[Scalar]]:
    """The element types of every cube-buffer pointer a C API row takes, in first-use order
    (the L1 -> L0 loads' types, then the MX scales' ``fp8_e8m0_t``)."""
    found: dict[type[Scalar], None] = dict.fromkeys(L12L0_TYPES)
    for row in surface_rows("c_api"):
        for form in c_shape(row).forms:
            for param in form.params:
                if param.kind in CUBE_POINTERS:
                    found.update(dict.fromkeys(combo[param.arg] for combo in row.combos))
    return list(found)


def c_argument(p: Param, combo: tuple[type[Scalar], ...], mask_ptr: str) -> str:
    if p.kind in ("cmask", "cmask?"):
        return "m"
    fixed = {"idx": "0", "idx?": "1", "count": "Ref(100)", "pattern": "PAT_ALL", "areg": "a",
             "vareg": "VA0",
             "cuload": "ul", "custore": "us", "pipe": "PIPE_S", "anygm": "g_uint8_t",
             "anyub": "p_uint8_t", "anycbuf": "None", "atomiccfg": "asc_store_atomic_config()",
             "ndimcfg": "asc_ndim_pad_count_config()", "flag": "True", "l2load": "0",
             "anyfbuf": "fb", "fillcfg": "asc_fill_value_config()",
             "l13dcfg": "asc_l13d_fmatrix_config()",
             "load3dcfg": "asc_load3d_v2_config()"}  # fmt: skip
    if p.kind in fixed:
        return fixed[p.kind]
    d = combo[p.arg]
    n = pyname(d)
    if p.kind == "scalar":
        return {"bool": "True", "float": "1.5"}.get(d.kind.value, "1")
    if d is bool_:
        return {"vec": "b", "vptr": f"p_{mask_ptr}", "vptrref": f"pr_{mask_ptr}",
                "vptrval": f"pr_{mask_ptr}"}[p.kind]  # fmt: skip
    return {"vec": f"v_{n}", "vptr": f"p_{n}", "vptrref": f"pr_{n}", "vptrval": f"pr_{n}",
            "gptr": f"g_{n}", "vptrs": f"[p_{n}, p_{n}, None, None]",
            **{kind: f"{kind}_{n}" for kind in CUBE_POINTERS}}[p.kind]  # fmt: skip


def c_call(
    spec: OpSpec,
    form: CForm,
    combo: tuple[type[Scalar], ...],
    mask_ptr: str = "uint16_t",
    drop_optional: bool = False,
    check_result: bool = True,
) -> str:
    params = [p for p in form.params if not (drop_optional and p.kind.endswith("?"))]
    text = f"{spec.spelling}({', '.join(c_argument(p, combo, mask_ptr) for p in params)})"
    returns = c_returns(form, combo)
    return f"assert_type({text}, {returns})" if returns != "None" and check_result else text


def c_accept_lines(spec: OpSpec) -> Iterator[str]:
    """Every legal call of one function: each form, each combination it applies to."""
    yield f"    # {spec.spelling}: every legal {', '.join(spec.roles)} combination, every form"
    for form in c_shape(spec).forms:
        for combo in spec.combos:
            if not c_applies(form, combo):
                continue
            tag = f"  # {form.tag} {combo_text(combo)}".replace("#  ", "# ")
            pointers = {p.kind for p in form.params} & {"vptr", "vptrref", "vptrval"}
            for mask_ptr in MASK_POINTER_DTYPES if combo[0] is bool_ and pointers else ("",):
                yield f"    {c_call(spec, form, combo, mask_ptr)}{tag}"
            if any(p.kind.endswith("?") for p in form.params):
                yield f"    {c_call(spec, form, combo, drop_optional=True)}{tag}"


# What a bare argument looks like to mypy once type arguments are erased (its "shape"), and the
# shapes each parameter kind accepts: a call whose shapes fit some overload of its arity is an
# `arg-type` error (mypy checks it against that overload), any other one `call-overload`.
ARG_SHAPE = {"vec": "reg", "vptr": "ptr", "vptrref": "ref", "vptrval": "ref", "cmask": "mask", "cmask?": "mask",
             "idx": "int", "count": "ref", "pattern": "int", "areg": "areg", "idx?": "int",
             "cuload": "uload", "custore": "ustore", "pipe": "pipe", "anygm": "gptr",
             "anyub": "ptr", "anycbuf": "cbuf", "atomiccfg": "cfg", "gptr": "gptr",
             "anyfbuf": "fbuf", "fillcfg": "cfg", "l13dcfg": "cfg", "load3dcfg": "cfg",
             "cbufptr": "cbufptr", "captr": "captr", "cbptr": "cbptr", "ccptr": "ccptr"}  # fmt: skip


def c_arg_shape(p: Param, combo: tuple[type[Scalar], ...]) -> str:
    if p.kind == "scalar":
        return "float" if combo[p.arg].kind.value == "float" else "int"
    if p.kind == "vec" and combo[p.arg] is bool_:
        return "mask"
    return ARG_SHAPE[p.kind]


def c_param_shapes(p: Param, combo: tuple[type[Scalar], ...]) -> set[str]:
    if p.kind == "scalar":
        return {"int", "float"} if scalar_type(combo[p.arg]) == "_FloatLike" else {"int"}
    if p.kind == "vptrval":
        return {"ptr", "ref"}
    return {c_arg_shape(p, combo)}


def c_error_code(spec: OpSpec, args: list[str]) -> str:
    """The mypy error code of a rejected call whose argument shapes are *args*."""
    signatures = sum(c_applies(f, c) for f in c_shape(spec).forms for c in spec.combos)
    if signatures == 1:  # a lone signature is no overload: mypy reports each bad argument
        return "arg-type"
    for form in c_shape(spec).forms:
        for combo in spec.combos:
            if not c_applies(form, combo) or len(form.params) != len(args):
                continue
            if all(a in c_param_shapes(p, combo) for p, a in zip(form.params, args, strict=True)):
                return "arg-type"
    return "call-overload"


# A wrong argument for each parameter kind of a kernel-level function (one overload each, so
# mypy reports `arg-type`): a float for an integer, a UB pointer for a GM one, and so on.
KERNEL_WRONG = {"scalar": "1.5", "pipe": "1", "count": "1", "atomiccfg": "1", "ndimcfg": "1",
                "anygm": "p_uint8_t", "anyub": "g_uint8_t", "vptr": "g_uint8_t", "flag": "1.5",
                "l2load": "1.5", "idx": "1.5", "vptrs": "p_uint8_t",
                "vareg": "1.5", "anyfbuf": "g_uint8_t", "fillcfg": "1", "l13dcfg": "1",
                "load3dcfg": "1",
                **dict.fromkeys(CUBE_POINTERS, "g_uint8_t")}  # fmt: skip


def c_kernel_reject_lines(spec: OpSpec) -> Iterator[str]:
    """Calls of a kernel-level function with one wrong argument each (every parameter)."""
    form = c_shape(spec).forms[0]
    combo = spec.combos[0]
    overloads = sum(c_applies(f, c) for f in c_shape(spec).forms for c in spec.combos)
    code = "arg-type" if overloads == 1 else "call-overload"
    args = [c_argument(p, combo, "uint16_t") for p in form.params]
    for i, p in enumerate(form.params):
        # (shape, code): a GM pointer of another element type fits an overload's shape, so
        # mypy reports `arg-type` even when the function has several overloads.
        if p.kind == "gptr":
            legal = {c[p.arg] for c in spec.combos}
            wrongs = [(f"g_{pyname(d)}", "arg-type") for d in REG_TYPES if d not in legal]
            wrongs.append(("p_uint64_t", code))
        elif p.kind == "anycbuf":
            wrongs = []  # any value type-checks: ascreg has no L1 (the call raises at run time)
        elif p.kind == "scalar" and any(c[p.arg].kind.value == "float" for c in spec.combos):
            wrongs = [("None", code)]  # 1.5 fits the float overload (asc_atomic_add)
        else:
            wrongs = [(KERNEL_WRONG[p.kind], code)]
        for wrong, error in wrongs:
            text = ", ".join([*args[:i], wrong, *args[i + 1 :]])
            yield f"    {spec.spelling}({text}){IGNORE.format(code=error)}  # {p.name}: {wrong}"


def c_reject_lines(spec: OpSpec, accepted: set[str]) -> Iterator[str]:
    """Illegal calls of one function (minus those another form makes legal)."""
    ignore = IGNORE
    lines: list[str] = []
    one_at_a_time = False
    kernel = c_shape(spec).kernel
    if kernel:
        lines += c_kernel_reject_lines(spec)
    for form in () if kernel else c_shape(spec).forms:
        roles = sorted(
            {p.arg for p in form.params if p.kind in ("vec", "vptr", "vptrref", "vptrval")}
        )
        if not roles:
            continue
        legal = [c for c in spec.combos if c_applies(form, c)]  # table order
        choices: Iterable[tuple[type[Scalar], ...]] = itertools.product(
            REG_TYPES, repeat=len(roles)
        )
        sampled = spec.family in SAMPLED_FAMILIES or len(roles) > FULL_PRODUCT_ROLES
        if sampled and len(roles) > 1:  # one role wrong at a time
            one_at_a_time = True
            known = tuple(legal[0][i] for i in roles)
            choices = [
                (*known[:k], d, *known[k + 1 :]) for k in range(len(roles)) for d in REG_TYPES
            ]
        for choice in choices:
            combo = tuple(
                choice[roles.index(i)] if i in roles else spec.combos[0][i]
                for i in range(len(spec.roles))
            )
            if combo in legal or any(
                p.kind == "scalar" and combo[p.arg] is bool_ for p in form.params
            ):
                continue  # (a bool_ scalar has no C spelling)
            text = c_call(spec, form, combo, check_result=False)
            shapes = [c_arg_shape(p, combo) for p in form.params]
            code = c_error_code(spec, shapes)
            lines.append(
                f"    {text}{ignore.format(code=code)}  # {form.tag} {combo_text(combo)}".replace(
                    "#  ", "# "
                )
            )
        # Registers of two dtypes where C has one vector type for all of them.
        same = [i for i, p in enumerate(form.params) if p.kind == "vec" and p.arg == 0]
        firsts = list(dict.fromkeys(c[0] for c in legal))
        for combo in legal if len(same) > 1 else ():
            other = firsts[(firsts.index(combo[0]) + 1) % len(firsts)]
            if other == combo[0]:
                continue
            mixed = (other, *combo[1:])
            args = [c_argument(p, combo, "uint16_t") for p in form.params]
            args[same[-1]] = c_argument(form.params[same[-1]], mixed, "uint16_t")
            shapes = [c_arg_shape(p, combo) for p in form.params]
            shapes[same[-1]] = c_arg_shape(form.params[same[-1]], mixed)
            text = f"{spec.spelling}({', '.join(args)})"
            code = c_error_code(spec, shapes)
            lines.append(f"    {text}{ignore.format(code=code)}  # {form.tag} {combo_text(combo)} with {pyname(other)}".replace("#  ", "# "))  # fmt: skip
    # A call one form renders may be legal through another (asc_copy's vector_bool form).
    lines = [line for line in lines if line.strip().split("  # type: ignore")[0] not in accepted]
    if lines:
        which = "one wrong role at a time" if one_at_a_time else "every illegal combination"
        yield f"    # {spec.spelling}: {which} of {', '.join(spec.roles)}, every form"
    yield from lines


def c_test_names() -> str:
    names = {row.spelling for row in surface_rows("c_api")} | {vector_name(d) for d in REG_TYPES}
    return "\n".join(f"    {n}," for n in sorted(names))


def render_c_tests(kind: str) -> str:
    """The accept (*kind* ``"accept"``) or reject type-test file of the C API."""
    prelude = C_TEST_PRELUDE.format(dtypes=dtype_imports(), names=c_test_names())
    lines = [*C_TEST_SETUP.splitlines(), *c_variables()]
    rows = surface_rows("c_api")
    accepted = [line for row in rows for line in c_accept_lines(row)]
    if kind == "accept":
        lines += accepted
    else:
        texts = {a.strip().split("  # ")[0] for a in accepted}
        texts |= {t.removeprefix("assert_type(").rsplit(", ", 1)[0] for t in texts}
        seen: set[tuple[object, ...]] = set()
        for row in rows:
            key = (row.family, row.shape, row.combos)
            if row.family in SAMPLED_FAMILIES and key in seen:
                continue  # the same signature as a spelling already rejected
            seen.add(key)
            lines += list(c_reject_lines(row, texts))
    return "\n".join([TEST_HEADER, prelude, *check_functions(lines)]) + "\n"

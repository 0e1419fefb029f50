"""The C++ declarations header ``src/ascreg/include/ascreg_decl.h`` from the op table's rows.

``ascreg.emit`` writes Ascend C; this header lets ``g++ -std=c++17 -fsyntax-only -include
ascreg_decl.h`` check it on any machine. Every row of ``ascreg._spec.SPECS`` becomes
declarations in the spelling of its surface:

* a Reg row becomes one function template per call form in ``AscendC::Reg``, with the template
  parameters its subscripts take (dtypes first, each defaulted to ``DefaultType``; then the
  tokens: enumerations, ``PostLiteral``, a ``RegTrait``, an offset) and, in its body, the row's
  legal dtype combinations as a ``static_assert`` over the explicit template arguments and the
  element types of the registers passed;
* a C API row becomes one overload per form and legal combination (``vector_uint16_t
  asc_shiftright(vector_uint16_t, vector_int16_t, vector_bool)``), so an illegal pair has no
  overload;
* a SIMT row becomes the C overloads of its kind (one per combination, or a template with a
  ``static_assert`` for the warp functions).

The enumerations come from ``ascreg.enums`` and the surface modules; the types and the functions
no row describes (``asc_init``, the copies, ``GlobalTensor`` ...) are the hand-written fragments
in ``tools/stubgen/header/``. With ``-DASCREG_EXEC`` the header also defines a CPU implementation
of the ops the seed examples use (``header/exec.h``, written from the spec), so an emitted seed
kernel compiles to a program and runs.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import types
from pathlib import Path

from ascreg._dtypes import Scalar, bool_
from ascreg._spec import SPECS, CForm, OpSpec, Param, RegForm, RegShape, SimtShape
from ascreg.emit._spell import SURFACES, enum_spelling
from stubgen.common import ROOT

HEADER = ROOT / "src" / "ascreg" / "include" / "ascreg_decl.h"
PARTS = Path(__file__).resolve().parent / "header"

EXEC_REG = {
    ("Reg.UpdateMask", ""),
    ("Reg.CreateMask", ""),
    ("Reg.LoadAlign", ""),
    ("Reg.StoreAlign", ""),
    ("Reg.Compare", ""),
    ("Reg.Select", ""),
    ("Reg.ShiftRight", ""),
}
"""The (row, form) pairs ``header/exec.h`` implements (the seed examples' Reg ops)."""
EXEC_C_API = {
    ("asc_create_mask_b16", ""),
    ("asc_loadalign", ""),
    ("asc_storealign", ""),
    ("asc_shiftright", "returning"),
    ("asc_shiftright", "dst"),
}
"""The (row, form) pairs of the C API ``header/exec.h`` implements."""
EXEC_SIMT = {"__byte_perm"}
"""The SIMT rows ``header/exec.h`` implements."""

# -- enumerations --------------------------------------------------------------------------------

DEFAULT_MEMBERS = ("DIST_NORM", "DIST_NORM_B8", "ZEROING", "EQ", "ALL", "POST_MODE_NORMAL",
                   "LOWEST", "INCREASE_ORDER", "NO_STORE_REG", "ZERO", "CAST_NONE", "SUM")  # fmt: skip
"""The member a defaulted enumeration template parameter takes, by preference."""
C_NAMES = {"Pipe": "pipe_t"}
"""Enumerations whose C++ name is not their Python one."""


def public_enums() -> dict[type[enum.Enum], bool]:
    """Every enumeration of the surface modules, and whether its members are global names."""
    found: dict[type[enum.Enum], bool] = {}
    for module_name, _ in SURFACES:
        module = importlib.import_module(module_name)
        for name in sorted(vars(module)):
            value = getattr(module, name)
            if isinstance(value, enum.Enum):  # a global member: its enumeration is public too
                value = type(value)
            if isinstance(value, type) and issubclass(value, enum.Enum) and value not in found:
                members = value.__members__
                found[value] = any(getattr(module, k, None) is v for k, v in members.items())
    for extra in ("ascreg.enums",):
        for value in vars(importlib.import_module(extra)).values():
            if isinstance(value, type) and issubclass(value, enum.Enum) and value not in found:
                found[value] = False
    return found


def enum_name(kind: type[enum.Enum]) -> str:
    """The qualified C++ name of an enumeration."""
    return C_NAMES.get(kind.__name__) or enum_spelling(kind)


def default_member(kind: type[enum.Enum]) -> str:
    """``Kind::MEMBER`` of the member a defaulted template parameter of *kind* takes."""
    names = list(kind.__members__)
    chosen = next((n for n in DEFAULT_MEMBERS if n in names), names[0])
    return f"{enum_name(kind)}::{chosen}"


def render_enums() -> str:
    """The enumerations, each in its namespace (global-member ones unscoped)."""
    by_namespace: dict[str, list[str]] = {}
    for kind, unscoped in public_enums().items():
        qualified = enum_name(kind)
        namespace, _, name = qualified.rpartition("::")
        values = []
        for index, (member, value) in enumerate(kind.__members__.items()):
            number = value.value if isinstance(value.value, int) else index
            values.append(f"{member} = {number}")
        keyword = "enum" if unscoped else "enum class"
        body = ", ".join(values)
        by_namespace.setdefault(namespace, []).append(f"{keyword} {name} {{ {body} }};")
    lines = by_namespace.pop("", [])
    for namespace in sorted(by_namespace):
        opened = namespace.split("::")
        lines += [f"namespace {n} {{" for n in opened]
        lines += by_namespace[namespace]
        lines += ["}" for _ in opened]
    return "\n".join(lines)


def render_deprecated() -> str:
    """The C API's deprecated spellings, forwarding to their successors (ascreg.c_api.deprecated)."""
    from ascreg.c_api.deprecated import DEPRECATED

    lines = []
    for old, new in DEPRECATED.items():
        if old in ("asc_create_iter_reg_b8", "asc_create_iter_reg_b16", "asc_create_iter_reg_b32",
                   "asc_get_ar_spr", "asc_set_gm2ub_pad"):  # fmt: skip
            continue  # declared with their successors (header/api.h)
        lines.append(f"template <typename... A> [[deprecated(\"use {new}\")]] __simd_callee__ inline decltype(auto)"
                     f" {old}(A&&... args) {{ return {new}(static_cast<A&&>(args)...); }}")  # fmt: skip
    return "\n".join(lines)


def render_constants() -> str:
    """The C API's mask pattern and event names, the C API register types."""
    from ascreg.c_api import _types, masks
    from ascreg.c_api.memvector import ASC_C_API_MRGSORT_ELEMENT_LEN

    lines = [f"constexpr uint32_t ASC_C_API_MRGSORT_ELEMENT_LEN = {ASC_C_API_MRGSORT_ELEMENT_LEN};"]
    for name, value in vars(masks).items():
        if name.startswith("PAT_"):
            lines.append(
                f"constexpr {enum_name(type(value))} {name} = {enum_name(type(value))}::{value.name};"
            )
    lines.append("enum event_t { " + ", ".join(f"EVENT_ID{i} = {i}" for i in range(8)) + " };")
    for dtype, cls in _types.VECTOR_TYPES.items():
        if dtype is bool_:
            continue
        lanes = 256 // dtype.size
        lines.append(f"using {cls.__name__} = ascreg_vector<{dtype.cpp_name}, {lanes}>;")
    return "\n".join(lines)


def render_simt_types() -> str:
    """The SIMT vector and pair types (``int2``, ``half2`` ...) from ascreg.simt."""
    import ascreg.simt as simt

    lines = []
    for name in sorted(vars(simt)):
        cls = getattr(simt, name)
        fields = getattr(cls, "fields", None)
        element = getattr(cls, "element", None)
        if isinstance(cls, type) and fields and element is not None and name == cls.cpp_name:
            members = " ".join(f"{element.cpp_name} {f};" for f in fields)
            lines.append(f"struct {name} {{ {members} }};")
    for pair in ("half2", "bfloat16x2_t"):  # C++'s operators on the pair types
        lines += [f"__simt_callee__ {pair} operator{op}({pair} a, {pair} b);" for op in "+-*/"]
    return "\n".join(lines)


# -- Reg rows --------------------------------------------------------------------------------------

TOKEN_KINDS = {
    "POST": "AscendC::Reg::PostLiteral",
    "NORMAL": "AscendC::Reg::PostLiteral",
}
"""The C++ type of the non-enumeration subscript tokens (``TRAIT`` and ``OFFSET`` are special)."""


def token_type(token: str) -> str:
    """The C++ type of a template parameter of subscript token *token*."""
    if token in TOKEN_KINDS:
        return TOKEN_KINDS[token]
    enums = importlib.import_module("ascreg.enums")
    kind = getattr(enums, token, None)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return enum_name(kind)
    if token == "CastTrait":  # by reference, as the toolchain takes it (C++17 has no class NTTPs)
        return "const AscendC::Reg::CastTrait&"
    return "auto"  # a mode struct (``&mode``)


def token_default(token: str) -> str:
    """The default of a template parameter of subscript token *token*."""
    if token in ("POST", "NORMAL"):
        return "AscendC::Reg::PostLiteral::POST_MODE_NORMAL"
    if token == "TRAIT":
        return "AscendC::Reg::RegTraitNumOne"
    if token == "OFFSET":
        return "0"
    enums = importlib.import_module("ascreg.enums")
    kind = getattr(enums, token, None)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return default_member(kind)
    if token == "CastTrait":
        return "AscendC::Reg::castTrait"
    return "AscendC::Reg::MaskMergeMode::ZEROING"


TYPE_TOKENS = ("T", "X")
"""Subscript tokens of a row dtype (``"X"``: one the op checks itself): the leading type
parameters ``T0, T1, ...``."""


def leading_types(pattern: tuple[str, ...]) -> int:
    """How many dtype tokens a template argument list starts with."""
    n = 0
    while n < len(pattern) and pattern[n] in TYPE_TOKENS:
        n += 1
    return n


def dtype_count(shape: RegShape) -> int:
    """How many dtype template parameters (``T0, T1, ...``) the op's templates declare."""
    return max((leading_types(p) for p in shape.all_patterns()), default=0)


def is_token_only(shape: RegShape) -> bool:
    """Whether a subscript may be tokens alone (C++ ``Pack<part>``; not the dtype lists)."""
    return not shape.lead and any(p and p[0] not in TYPE_TOKENS for p in shape.patterns("plain"))


def tails(shape: RegShape, bound: str) -> tuple[tuple[str, ...], ...]:
    """The template argument lists of *bound* after their leading dtypes, without repeats."""
    return tuple(dict.fromkeys(p[leading_types(p) :] for p in shape.patterns(bound)))


def token_families(spelled: tuple[tuple[str, ...], ...]) -> list[list[tuple[str, bool]]]:
    """The C++ template parameter lists the token tails spell: ``(token, may be left out)`` each.

    Every tail that no other tail extends is one list (one overload); a list's trailing
    parameters default where a shorter tail is its prefix. A later list requires its parameters
    up to where it parts from the earlier ones, so a call fits one overload only
    (``Duplicate<T, U>``, ``Duplicate<T, mode, U>``, ``Duplicate<T, part, mode>``).
    """
    present = set(spelled)
    maximal = [t for t in spelled if not any(len(o) > len(t) and o[: len(t)] == t for o in present)]
    families = []
    for i, tail in enumerate(maximal):
        shortest = min(n for n in range(len(tail) + 1) if tail[:n] in present)
        shared = max((_common(tail, other) for other in maximal[:i]), default=-1)
        required = max(shortest, shared + 1)
        families.append([(token, j >= required) for j, token in enumerate(tail)])
    return families or [[]]


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def token_parameter(index: int, kinds: list[str], optional: bool) -> str:
    """One template parameter declaration of a token column."""
    if kinds == ["U"]:  # the scalar operand's type (Muls<T, U, mode>)
        return f"typename t{index}" + (" = AscendC::DefaultType" if optional else "")
    if kinds == ["TRAIT"]:
        head = f"const AscendC::Reg::RegTrait& t{index}"
    elif kinds == ["OFFSET"]:
        head = f"int16_t t{index}"
    else:
        types = {token_type(k) for k in kinds}
        head = f"{types.pop() if len(types) == 1 else 'auto'} t{index}"
    if optional:
        head += f" = {token_default(kinds[0])}"
    return head


def reg_param(p: Param, roles: int, template_dtypes: int) -> str:
    """The C++ declaration of one Reg form parameter (deduced types: ``U<role>``, ``A<name>``)."""
    kind = p.kind.value
    role_t = f"T{p.arg}" if p.arg < template_dtypes else f"P{p.arg}"
    table = {
        "reg": f"U{p.arg}& {p.name}",
        "regr": f"U{p.arg}& {p.name}",
        "reg2": f"U{p.arg}& {p.name}",
        "anyreg": f"A_{p.name}& {p.name}",
        "scalar": f"S{p.arg} {p.name}",
        "ptr": f"__ubuf__ {role_t}* {p.name}",
        "ptrval": f"__ubuf__ {role_t}* {p.name}",
        "ptrref": f"__ubuf__ {role_t}*& {p.name}",
        "anyptr": f"__ubuf__ A_{p.name}* {p.name}",
        "anyptrref": f"__ubuf__ A_{p.name}*& {p.name}",
        "mask": f"AscendC::Reg::MaskReg& {p.name}",
        "mask?": f"AscendC::Reg::MaskReg& {p.name}",
        "addr": f"AscendC::Reg::AddrReg {p.name}",
        "int": f"int32_t {p.name}",
        "int?": f"int32_t {p.name}",
        "count": f"uint32_t& {p.name}",
        "uload": f"AscendC::Reg::UnalignRegForLoad& {p.name}",
        "ustore": f"AscendC::Reg::UnalignRegForStore& {p.name}",
    }
    return table[kind]


def _optional_variants(params: tuple[Param, ...]) -> list[tuple[Param, ...]]:
    """The parameter lists of a form: with every optional parameter, then without each tail."""
    variants = [params]
    trimmed = params
    while trimmed and trimmed[-1].kind.value.endswith("?"):
        trimmed = trimmed[:-1]
        variants.append(trimmed)
    return variants


def reg_form(spec: OpSpec, shape: RegShape, form: RegForm, params: tuple[Param, ...],
             lead: str | None) -> str:  # fmt: skip
    """The function templates of a Reg form: one per C++ template parameter list it takes."""
    spelled = tails(shape, form.bound)
    if not form.per_combo and is_token_only(shape):
        spelled = tuple(p for p in spelled if p)
    return "\n".join(
        reg_template(spec, shape, form, params, lead, [([k], opt) for k, opt in family])
        for family in token_families(spelled)
    )


def reg_template(spec: OpSpec, shape: RegShape, form: RegForm, params: tuple[Param, ...],
                 lead: str | None, columns: list[tuple[list[str], bool]]) -> str:  # fmt: skip
    """One function template of a Reg form with the token parameters *columns*."""
    name = shape.attr
    roles = len(spec.roles)
    td = dtype_count(shape)
    token_only = is_token_only(shape)
    template: list[str] = []
    if lead is not None:
        template.append(f"{lead} tlead")
    if form.per_combo or not token_only:
        first_default = "" if shape.needs_template else " = AscendC::DefaultType"
        template += [f"typename T{i}{first_default if i == 0 else ' = AscendC::DefaultType'}"
                     for i in range(td)]  # fmt: skip
    template += [token_parameter(j, kinds, opt) for j, (kinds, opt) in enumerate(columns)]
    deduced: list[str] = []
    for k in range(roles):
        if any(p.arg == k and p.kind.value in ("reg", "regr", "reg2") for p in params):
            deduced.append(f"typename U{k}")
    for p in params:
        if p.kind.value in ("anyreg", "anyptr", "anyptrref"):
            deduced.append(f"typename A_{p.name}")
    for k in range(roles):
        if any(p.arg == k and p.kind.value == "scalar" for p in params):
            deduced.append(f"typename S{k}")
        if k >= td and any(
            p.arg == k and p.kind.value in ("ptr", "ptrval", "ptrref") for p in params
        ):
            deduced.append(f"typename P{k}")
    template += deduced
    for j, (kinds, _) in enumerate(columns):  # POST / NORMAL stand for one PostLiteral value each
        if kinds in (["POST"], ["NORMAL"]):
            value = "POST_MODE_UPDATE" if kinds == ["POST"] else "POST_MODE_NORMAL"
            template.append(
                f"std::enable_if_t<t{j} == AscendC::Reg::PostLiteral::{value}, int> = 0"
            )
    args = ", ".join(reg_param(p, roles, td) for p in params)
    returns = "AscendC::Reg::MaskReg" if form.returns == "MaskReg" else "void"
    body = reg_checks(spec, shape, form, params, lead)
    call = ", ".join(p.name for p in params)
    targs = ", ".join([*(f"T{i}" for i in range(td)), *(f"t{j}" for j in range(len(columns)))])
    if (spec.name, form.tag) in EXEC_REG and (form.per_combo or not token_only):
        exec_line = f"return ascreg_exec::{name}<{targs}>({call});"
    else:
        exec_line = (
            f'static_assert(ascreg_detail::always_false<T0>, "AscendC::Reg::{name} has no CPU implementation in ascreg_decl.h");'
            if td and (form.per_combo or not token_only)
            else ""
        )
    fallback = "return {};" if returns != "void" else ""
    lines = [f"template <{', '.join(template)}>",
             f"__simd_callee__ inline {returns} {name}({args})", "{", *body]  # fmt: skip
    if exec_line and exec_line.startswith("static_assert"):
        lines += ["#ifdef ASCREG_EXEC", f"    {exec_line}", "#endif"]
        if fallback:
            lines.append(f"    {fallback}")
    elif exec_line:
        lines += ["#ifdef ASCREG_EXEC", f"    {exec_line}", "#else", f"    {fallback}", "#endif"]
    elif fallback:
        lines.append(f"    {fallback}")
    return "\n".join([*lines, "}"])


def combos_list(combos: tuple[tuple[type[Scalar], ...], ...]) -> str:
    """``ascreg_detail::list<combo<...>, ...>`` of a row's combinations."""
    inner = ", ".join(
        "ascreg_detail::combo<" + ", ".join(d.cpp_name for d in c) + ">" for c in combos
    )
    return f"ascreg_detail::list<{inner}>"


def reg_checks(spec: OpSpec, shape: RegShape, form: RegForm, params: tuple[Param, ...],
               lead: str | None) -> list[str]:  # fmt: skip
    """The static_asserts of a form: registers are registers, dtypes agree and are legal."""
    roles = len(spec.roles)
    td = dtype_count(shape)
    lines = []
    for k in range(roles):
        if any(p.arg == k and p.kind.value in ("reg", "regr", "reg2") for p in params):
            lines.append(f'    static_assert(ascreg_detail::is_reg<U{k}>::value, '
                         f'"AscendC::Reg::{shape.attr}: argument of role {spec.roles[k]} is not a RegTensor");')  # fmt: skip
    if not form.per_combo:
        return lines
    role_types = []
    for k in range(roles):
        sources = []
        if k < td:
            sources.append(f"AscendC::ascreg_given::known<T{k}>")
        if any(p.arg == k and p.kind.value in ("reg", "regr", "reg2") for p in params):
            sources.append(f"ascreg_detail::elem_t<U{k}>")
        if k >= td and any(
            p.arg == k and p.kind.value in ("ptr", "ptrval", "ptrref") for p in params
        ):
            sources.append(f"P{k}")
        if len(sources) > 1:
            lines.append(f'    static_assert(ascreg_detail::agree<{sources[0]}, {sources[1]}>, '
                         f'"AscendC::Reg::{shape.attr}: the template argument of {spec.roles[k]} does not match the register");')  # fmt: skip
        role_types.append(
            f"ascreg_detail::pick_t<{', '.join(sources)}>" if sources else "ascreg_detail::unknown"
        )
    query = f"ascreg_detail::combo<{', '.join(role_types)}>"
    combos = spec.combos
    if form.dtypes is not None:
        combos = tuple(c for c in combos if c[0] in form.dtypes)
    legal = "AscendC::Reg::" + shape.attr + "_combos"
    del legal
    if lead is None:
        lines.append(f'    static_assert(ascreg_detail::legal_v<{query}, {combos_list(combos)}>, '
                     f'"AscendC::Reg::{shape.attr}: illegal dtype combination (see the legal ones in ascreg_decl.h)");')  # fmt: skip
    else:
        alternatives = []
        for member, member_combos in shape.lead:
            kept = tuple(c for c in member_combos if form.dtypes is None or c[0] in form.dtypes)
            spelled = f"{lead}::{member.split('.')[1]}"
            alternatives.append(
                f"(tlead == {spelled} && ascreg_detail::legal_v<{query}, {combos_list(kept)}>)"
            )
        lines.append(f'    static_assert({" || ".join(alternatives)}, '
                     f'"AscendC::Reg::{shape.attr}: illegal dtype combination for this {lead}");')  # fmt: skip
    return lines


def render_reg() -> str:
    """Every Reg row's function templates, in ``AscendC::Reg``."""
    out = []
    for spec in SPECS.values():
        if spec.surface != "reg":
            continue
        shape = spec.shape
        assert isinstance(shape, RegShape)
        lead = None
        if shape.lead:
            lead = enum_name(
                getattr(importlib.import_module("ascreg.enums"), shape.lead[0][0].split(".")[0])
            )
        out.append(f"// {spec.name}: dtypes ({', '.join(spec.roles)}); source {spec.source}")
        for form in shape.forms:
            for params in _optional_variants(form.params):
                out.append(reg_form(spec, shape, form, params, lead))
        for alias in spec.aliases:
            out.append(reg_alias(spec, shape, alias))
    return (
        "namespace AscendC {\nnamespace Reg {\n"
        + "\n".join(out)
        + "\n}  // namespace Reg\n}  // namespace AscendC"
    )


def reg_alias(spec: OpSpec, shape: RegShape, alias: str) -> str:
    """An older spelling: a forwarding template (a fixed lead is spliced in first)."""
    short = alias.removeprefix("Reg.")
    fixed = dict(shape.fixed).get(alias)
    if fixed is not None:
        kind, _, member_name = fixed.partition(".")
        member = (
            enum_name(getattr(importlib.import_module("ascreg.enums"), kind)) + "::" + member_name
        )
        return (f"template <typename... T, typename... A>\n__simd_callee__ inline void {short}(A&&... args)"
                f" {{ {shape.attr}<{member}, T...>(static_cast<A&&>(args)...); }}")  # fmt: skip
    return (f"template <typename... T, typename... A>\n__simd_callee__ inline decltype(auto) {short}(A&&... args)"
            f" {{ return {shape.attr}<T...>(static_cast<A&&>(args)...); }}")  # fmt: skip


# -- C API rows ----------------------------------------------------------------------------------

C_OUTPUTS = ("dst", "dst0", "dst1", "carry")
"""Register parameter names that are outputs (passed by reference)."""
MASK_POINTERS = ("uint8_t", "uint16_t", "uint32_t")


def vector_name(d: type[Scalar]) -> str:
    from ascreg.c_api._types import VECTOR_TYPES

    return "vector_bool" if d is bool_ else VECTOR_TYPES[d].__name__


def c_param(p: Param, combo: tuple[type[Scalar], ...], mask_pointer: str) -> str:
    """The C declaration of one C API parameter for *combo*."""
    kind = p.kind.value
    fixed = {
        "cmask": "vector_bool" + ("&" if p.name in C_OUTPUTS else ""),
        "cmask?": "vector_bool",
        "idx": "int64_t",
        "idx?": "int64_t",
        "count": "uint32_t&",
        "pattern": "AscendC::Reg::MaskPattern",
        "areg": "addr_reg",
        "vareg": "ub_addr8_t",
        "cuload": "vector_load_unalign&",
        "custore": "vector_store_unalign&",
        "pipe": "pipe_t",
        "anygm": "__gm__ void*",
        "anyub": "__ubuf__ void*",
        "anycbuf": "__cbuf__ void*",
        "anyfbuf": "__fbuf__ void*",
        "fillcfg": "const asc_fill_value_config&",
        "l13dcfg": "asc_l13d_fmatrix_config&",
        "load3dcfg": "asc_load3d_v2_config&",
        "atomiccfg": "asc_store_atomic_config&",
        "ndimcfg": "asc_ndim_pad_count_config",
        "flag": "bool",
        "l2load": "asc_load_l2_cache_mode",
    }
    if kind in fixed:
        return f"{fixed[kind]} {p.name}"
    d = combo[p.arg]
    element = mask_pointer if d is bool_ else d.cpp_name
    if kind == "vec":
        return f"{vector_name(d)}{'&' if p.name in C_OUTPUTS else ''} {p.name}"
    table = {
        "vptr": f"__ubuf__ {element}* {p.name}",
        "vptrref": f"__ubuf__ {element}*& {p.name}",
        "vptrval": f"__ubuf__ {element}* {p.name}",
        "vptrs": f"__ubuf__ {element}* {p.name}[4]",
        "scalar": f"{d.cpp_name} {p.name}",
        "gptr": f"__gm__ {d.cpp_name}* {p.name}",
        "cbufptr": f"__cbuf__ {d.cpp_name}* {p.name}",
        "captr": f"__ca__ {d.cpp_name}* {p.name}",
        "cbptr": f"__cb__ {d.cpp_name}* {p.name}",
        "ccptr": f"__cc__ {d.cpp_name}* {p.name}",
    }
    return table[kind]


def c_returns(form: CForm, combo: tuple[type[Scalar], ...]) -> str:
    if form.returns == "None":
        return "void"
    if form.returns == "{vec0}":
        return vector_name(combo[0])
    if form.returns == "{py0}":
        return combo[0].cpp_name
    if form.returns == "int":
        return "int64_t"
    return form.returns


def render_c_api() -> str:
    """One overload per C API form and combination (an illegal combination has no overload)."""
    out = []
    seen: set[str] = set()
    for spec in SPECS.values():
        if spec.surface != "c_api":
            continue
        out.append(f"// {spec.spelling}: ({', '.join(spec.roles)}); source {spec.source}")
        for form in spec.shape.forms:  # type: ignore[union-attr]
            for combo in spec.combos:
                if not form.applies(combo):
                    continue
                uses_mask_ptr = combo[0] is bool_ and any(
                    p.kind.value.startswith("vptr") for p in form.params
                )
                for pointer in MASK_POINTERS if uses_mask_ptr else ("",):
                    for params in _optional_variants(form.params):
                        text = c_overload(spec, form, combo, params, pointer)
                        key = text.split("\n", 1)[0]
                        if key not in seen:
                            seen.add(key)
                            out.append(text)
    return "\n".join(out)


def c_overload(spec: OpSpec, form: CForm, combo: tuple[type[Scalar], ...],
               params: tuple[Param, ...], pointer: str) -> str:  # fmt: skip
    returns = c_returns(form, combo)
    args = ", ".join(c_param(p, combo, pointer) for p in params)
    head = f"__simd_callee__ {returns} {spec.spelling}({args})"
    bool_vector = combo[0] is bool_ and any(p.kind.value in ("vec", "vptr") for p in params)
    if (spec.spelling, form.tag) in EXEC_C_API and not bool_vector:
        call = ", ".join(p.name for p in params)
        ret = "return " if returns != "void" else ""
        body = f"inline {returns} {spec.spelling}({args}) {{ {ret}ascreg_exec::{spec.spelling}({call}); }}"
        return f"{head};\n#ifdef ASCREG_EXEC\n{body}\n#endif"
    return head + ";"


# -- SIMT rows -----------------------------------------------------------------------------------


def simt_type(d: type[Scalar]) -> str:
    return d.cpp_name


def render_simt() -> str:
    """The C declarations of the SIMT rows, kind by kind."""
    from ascreg._spec.simt import PACK_ROWS

    out = []
    seen: set[str] = set()

    def add(text: str) -> None:
        if text not in seen:
            seen.add(text)
            out.append(text)

    for spec in SPECS.values():
        if spec.surface != "simt":
            continue
        shape = spec.shape
        assert isinstance(shape, SimtShape)
        kind = shape.kind.value
        name = spec.spelling
        if name.startswith("c_api."):
            continue
        if kind in ("int", "half"):
            for combo, result in zip(spec.combos, shape.results, strict=True):
                args = ", ".join(
                    f"{simt_type(d)} {r}" for r, d in zip(spec.roles, combo, strict=True)
                )
                text = f"__simt_callee__ {simt_type(result)} {name}({args});"
                if name in EXEC_SIMT:
                    call = ", ".join(spec.roles)
                    text += (f"\n#ifdef ASCREG_EXEC\ninline {simt_type(result)} {name}({args})"
                             f" {{ return ascreg_exec::{name}({call}); }}\n#endif")  # fmt: skip
                add(text)
        elif kind == "float":
            args = ", ".join(f"float {r}" for r in spec.roles)
            add(f"__simt_callee__ float {name}({args});")
        elif kind == "libm":
            count = len(spec.roles) - shape.pointers
            for combo in spec.combos:
                values = [
                    f"{simt_type(d)} {r}"
                    for r, d in zip(spec.roles[:count], combo[:count], strict=True)
                ]
                pointers = [
                    f"{simt_type(d)}* {r}"
                    for r, d in zip(spec.roles[count:], combo[count:], strict=True)
                ]
                result = simt_type(shape.results[0]) if shape.results else "void"
                add(f"__simt_callee__ {result} {name}({', '.join(values + pointers)});")
        elif kind in ("shfl", "reduce", "predicate"):
            add(simt_template(spec, kind))
        elif kind in ("atomic", "load", "store"):
            for combo in spec.combos:
                d = simt_type(combo[0])
                rest = [
                    f"{simt_type(t)} {r}" for r, t in zip(spec.roles[1:], combo[1:], strict=True)
                ]
                result = "void" if kind == "store" else d
                add(f"__simt_callee__ {result} {name}({', '.join([f'{d}* address', *rest])});")
        elif kind in ("pair", "pair_bool", "pair_mask"):
            for combo in spec.combos:
                cls = {"half": "half2", "bfloat16_t": "bfloat16x2_t"}[combo[0].cpp_name]
                result = {"pair": cls, "pair_bool": "bool", "pair_mask": "uint32_t"}[kind]
                args = ", ".join(f"{cls} {r}" for r in spec.roles)
                add(f"__simt_callee__ {result} {name}({args});")
        elif kind == "make":
            (combo,) = spec.combos[:1]
            args = ", ".join(f"{simt_type(d)} {r}" for r, d in zip(spec.roles, combo, strict=True))
            add(f"__simt_callee__ {name.removeprefix('make_')} {name}({args});")
        elif kind == "pack":
            for overload in PACK_ROWS[name].overloads:
                args = ", ".join(f"{t} {r}" for r, t in zip(spec.roles, overload, strict=False))
                add(f"__simt_callee__ {overload[-1]} {name}({args});")
        elif kind == "address":
            ((role,), (result,)) = spec.roles, shape.results
            param = "uint64_t rawbits" if role == "rawbits" else "const void* ptr"
            returns = "void*" if role == "rawbits" else simt_type(result)
            add(f"__simt_callee__ {returns} {name}({param});")
        elif kind == "void":
            args = ", ".join(f"__gm__ void* {r}" for r in spec.roles)
            add(f"__simt_callee__ void {name}({args});")
        elif kind == "group" and group_declaration(spec):
            add(group_declaration(spec))
    return "\n".join(out)


def simt_template(spec: OpSpec, kind: str) -> str:
    """A warp function: a template whose value type must be one of the row's."""
    name = spec.spelling
    values = ", ".join(f"ascreg_detail::combo<{c[0].cpp_name}>" for c in spec.combos)
    check = (f'static_assert(ascreg_detail::legal_v<ascreg_detail::combo<T>, ascreg_detail::list<{values}>>, '
             f'"{name}: illegal value type"); ')  # fmt: skip
    if kind == "predicate":
        result = "uint32_t" if name == "asc_ballot" else "int32_t"
        return f"__simt_callee__ {result} {name}(int32_t predicate);"
    if kind == "reduce":
        return f"template <typename T> __simt_callee__ inline T {name}(T value) {{ {check}return value; }}"
    lane = spec.roles[1]
    lane_type = spec.combos[0][1].cpp_name
    return (f"template <typename T> __simt_callee__ inline T {name}(T var, {lane_type} {lane}, int32_t width = 32)"
            f" {{ {check}return var; }}")  # fmt: skip


def group_declaration(spec: OpSpec) -> str:
    """A cooperative-groups function as the free function ascreg spells (group first)."""
    shape = spec.shape
    assert isinstance(shape, SimtShape)
    name = spec.spelling
    values = [f"{d.cpp_name} {r}" for r, d in zip(spec.roles, spec.combos[0], strict=False)]
    if not shape.groups or name in ("tiled_partition", "binary_partition"):
        return ""  # the constructors are declared with the classes (COOPERATIVE)
    first = (
        "template <class G> "
        + f"__simt_callee__ auto {name}(G& g{''.join(', ' + v for v in values)}) -> decltype(g.{name}({', '.join(spec.roles)}));"
    )
    return first


COOPERATIVE = """\
namespace cooperative_groups {
struct thread_block {
    void sync(); uint32_t thread_rank(); dim3 group_index(); dim3 thread_index();
    dim3 dim_threads(); dim3 group_dim(); uint32_t num_threads(); uint32_t size();
};
struct thread_block_tile {
    void sync(); uint32_t thread_rank(); uint32_t num_threads(); uint32_t size();
    uint32_t meta_group_rank(); uint32_t meta_group_size();
    template <class T> T shfl(T var, uint32_t src_rank); template <class T> T shfl_up(T var, uint32_t delta);
    template <class T> T shfl_down(T var, uint32_t delta); template <class T> T shfl_xor(T var, uint32_t lane_mask);
    uint32_t ballot(int32_t predicate); int32_t any(int32_t predicate); int32_t all(int32_t predicate);
};
struct coalesced_group {
    void sync(); uint32_t thread_rank(); uint32_t num_threads(); uint32_t size();
    uint32_t meta_group_rank(); uint32_t meta_group_size();
    template <class T> T shfl(T var, uint32_t src_rank); template <class T> T shfl_up(T var, uint32_t delta);
    template <class T> T shfl_down(T var, uint32_t delta);
    uint32_t ballot(int32_t predicate); int32_t any(int32_t predicate); int32_t all(int32_t predicate);
};
thread_block this_thread_block();
coalesced_group coalesced_threads();
thread_block_tile tiled_partition(const thread_block& parent, uint32_t tilesz);
coalesced_group binary_partition(const thread_block_tile& parent, bool pred);
coalesced_group binary_partition(const coalesced_group& parent, bool pred);
}  // namespace cooperative_groups
using cooperative_groups::this_thread_block;
using cooperative_groups::coalesced_threads;
using cooperative_groups::tiled_partition;
using cooperative_groups::binary_partition;
"""


# -- the header ----------------------------------------------------------------------------------

PREAMBLE = """\
// Generated by tools/gen_stubs.py from ascreg._spec (the rows the typing stubs come from) and the
// fragments in tools/stubgen/header/; do not edit.
// ascreg_decl.h: C++ declarations of the Ascend C APIs ascreg emulates (Ascend 950, dav-3510).
// Check emitted code with
//     g++ -std=c++17 -fsyntax-only -include ascreg_decl.h kernel.asc
// and compile the seed kernels to a CPU program with -DASCREG_EXEC.
#ifndef ASCREG_DECL_H
#define ASCREG_DECL_H
"""


def _hand_declared() -> frozenset[str]:
    """The names the fragments, the enumerations and the constants declare."""
    from ascreg.emit._tokens import api_names

    texts = [_part(n) for n in HAND_WRITTEN]
    return api_names("\n".join([*texts, render_enums(), render_constants(), render_simt_types()]))


def _part(name: str) -> str:
    return (PARTS / name).read_text(encoding="utf-8").rstrip() + "\n"


# -- the rest of ascreg.basic --------------------------------------------------------------------

HAND_WRITTEN = ("base.h", "types.h", "api.h")


def render_basic(declared: frozenset[str]) -> str:
    """A declaration of every public ``ascreg.basic`` name no fragment or enumeration declares.

    They are generated from the Python objects, as loosely as the object says: a constant is a
    ``constexpr`` of its value; a function template or class template has its C++ template
    parameter lists (``Signature``), a memory-level vector row (``Add(dst, src0, src1, count)``)
    or another function is a template taking any arguments (``<T>`` or ``<T, U>`` then
    enumeration members), returning a value that converts to any type; a struct is constructible
    from any fields. So emitted code that uses them compiles and is checked by name, arity of
    template arguments where a signature gives it, not by operand types.
    """
    import ascreg.basic as basic
    from ascreg.basic import _template

    names = [n for n in basic.__all__ if n not in declared]
    names.sort(key=lambda n: _order(n, getattr(basic, n)))
    lines = []
    for name in names:
        value = getattr(basic, name)
        text = "" if inspect.ismodule(value) else _basic_declaration(name, value, _template)
        if text:
            lines.append(text)
    return "namespace AscendC {\n" + "\n".join(lines) + "\n}  // namespace AscendC"


def _order(name: str, value: object) -> int:
    """Types first, then their other names, then the rest (constants of a struct type)."""
    if not isinstance(value, type):
        return 2
    return 0 if value.__name__ == name or issubclass(value, enum.Enum) else 1


QUALIFIER_MACROS = frozenset({"__cube__", "__mix__"})
"""``ascreg.basic`` names that C++ spells as kernel qualifiers (macros of base.h), not functions."""


def _basic_declaration(name: str, value: object, template: types.ModuleType) -> str:
    """The C++ declaration of one ``ascreg.basic`` object (empty: nothing to declare)."""
    if name in QUALIFIER_MACROS:
        return ""
    if isinstance(value, type) and issubclass(value, enum.Enum):
        return f"using {name} = {enum_name(value)};"  # an alias (QuePosition is TPosition)
    declare = getattr(value, "cpp_declaration", None)
    if callable(declare):  # a per-core value (ASCEND_IS_AIV, g_coreType): one core's view
        return str(declare(name))
    if isinstance(value, bool):
        return f"constexpr bool {name} = {'true' if value else 'false'};"
    if isinstance(value, int) and not isinstance(value, enum.Enum):
        return f"constexpr {_int_type(value)} {name} = {value}{'ULL' if value >= 2**63 else ''};"
    if isinstance(value, float):
        text = (
            "__builtin_nanf(\"\")" if value != value
            else f"{'-' if value < 0 else ''}__builtin_inff()" if abs(value) == float("inf")
            else repr(value) + "f"
        )  # fmt: skip
        return f"constexpr float {name} = {text};"
    if isinstance(value, str):
        return f'constexpr ascreg_detail::cstr {name} = "{value}";'
    if isinstance(value, type):
        signatures = getattr(value, "template_signatures", None)
        head = _template_head(signatures[0], template) + " " if signatures else ""
        real = value.__name__
        if real != name and real in vars(importlib.import_module("ascreg.basic")):
            if not signatures:  # another name of a declared struct (MultiCopyConfig)
                return f"using {name} = {real};"
            args = ", ".join(p[0] for p in signatures[0].params)
            return f"{head}using {name} = {real}<{args}>;"
        return f"{head}struct {name} {{ template <typename... A> constexpr {name}(A&&...) {{}} }};"
    if callable(value) and isinstance(getattr(value, "spec", None), template.TemplateSpec):
        return "\n".join(
            f"{_template_head(sig, template, variadic=True)} __aicore__ ascreg_detail::any "
            f"{name}(A&&... args);"
            for sig in value.spec.signatures
        )
    if callable(value):
        return (
            f"template <typename T = DefaultType, auto... modes, typename... A> __aicore__ "
            f"ascreg_detail::any {name}(A&&... args);\n"
            f"template <typename T, typename U, auto... modes, typename... A> __aicore__ "
            f"ascreg_detail::any {name}(A&&... args);"
        )
    kind = type(value).__name__
    if kind in vars(importlib.import_module("ascreg.basic")):
        return f"constexpr {kind} {name} = {{}};"  # a struct value (DEFAULT_SORT_CONFIG)
    return f"inline ascreg_detail::any {name};"


def _int_type(value: int) -> str:
    for spelled, low, high in (("uint32_t", 0, 2**32), ("int32_t", -(2**31), 2**31),
                               ("int64_t", -(2**63), 2**63)):  # fmt: skip
        if low <= value < high:
            return spelled
    return "uint64_t"


def _template_head(sig: object, template: types.ModuleType, variadic: bool = False) -> str:
    """``template <...>`` of one ``Signature`` (a type, an integer, a bool, an enum member)."""
    params = []
    for pname, kind, default in sig.params:  # type: ignore[attr-defined]
        if kind is template.TYPENAME:
            head = f"typename {pname}"
            spelled = "DefaultType"
        elif (constant := _constant_name(default)) is not None:
            head, spelled = f"const auto& {pname}", f"AscendC::{constant}"  # a struct constant
        else:
            head = {template.INTEGER: "int64_t", template.BOOLEAN: "bool"}.get(kind, "auto")
            head = f"{head} {pname}"
            spelled = _default_text(default)
        if default is not template.NO_DEFAULT and spelled:
            head += f" = {spelled}"
        elif default is not template.NO_DEFAULT and kind is template.TYPENAME:
            head += " = DefaultType"
        params.append(head)
    if variadic:
        params.append("typename... A")
    return f"template <{', '.join(params)}>"


def _constant_name(value: object) -> str | None:
    """The ``ascreg.basic`` name of a struct constant (``CFG_ROW_MAJOR``), or None."""
    if value is None or isinstance(value, bool | int | float | str | enum.Enum | type):
        return None
    basic = vars(importlib.import_module("ascreg.basic"))
    return next((name for name, found in basic.items() if found is value), None)


def _default_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, enum.Enum):
        return f"{enum_name(type(value))}::{value.name}"
    return ""


def render_header() -> str:
    """The whole header."""
    sections = [
        PREAMBLE,
        _part("base.h"),
        "// ---- enumerations (ascreg.enums and the surface modules) ----",
        render_enums(),
        _part("types.h"),
        "// ---- constants and C API register types ----",
        render_constants(),
        "// ---- SIMT vector types (ascreg.simt) ----",
        render_simt_types(),
        COOPERATIVE,
        _part("exec.h"),
        "// ---- Reg rows ----",
        render_reg(),
        "// ---- C API rows ----",
        render_c_api(),
        "// ---- deprecated C API spellings ----",
        render_deprecated(),
        "// ---- SIMT rows ----",
        render_simt(),
        _part("api.h"),
        "// ---- the rest of ascreg.basic (generated from the Python objects) ----",
        render_basic(_hand_declared()),
        "#endif  // ASCREG_DECL_H",
    ]
    return "\n".join(s.rstrip() for s in sections) + "\n"

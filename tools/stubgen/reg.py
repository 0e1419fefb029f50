"""The Reg renderer: ``stubs/ascreg/reg/*.pyi`` from the Reg rows and their shapes.

Each op object becomes a stub class with one ``__getitem__`` overload per legal dtype prefix and
subscript kind (returning a class of the specialised call) and one ``__call__`` overload per
legal combination and deduced form, in table order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ascreg._dtypes import Scalar
from ascreg._spec import OpSpec, Param, RegForm, RegShape
from stubgen.common import (
    SHARED_ALIASES,
    combo_text,
    dtype_imports,
    is64,
    module_rows,
    overloads,
    pyname,
    scalar_type,
    stub_text,
)

# The stub type of each parameter kind that names no dtype (see ascreg._spec.shapes.ParamKind).
KIND_TYPES = {
    "mask": "MaskReg",
    "mask?": "MaskReg | None = None",
    "addr": "AddrReg",
    "int": "int",
    "count": "Ref[int]",
    "anyptr": "UbPtr[Any]",
    "anyptrref": "Ref[UbPtr[Any]]",
    "anyreg": "RegTensor[Any, Any]",
    "uload": "UnalignRegForLoad",
    "ustore": "UnalignRegForStore",
    "int?": "_IntLike | None = None",
}
EXTRA_TYPES = {  # template arguments after the dtypes
    "POST": "Literal[PostLiteral.POST_MODE_UPDATE]",
    "NORMAL": "Literal[PostLiteral.POST_MODE_NORMAL]",
    "OFFSET": "int",  # an int16_t non-type template argument (MaskGenWithRegTensor<T, offset>)
    "U": "type[Scalar]",  # the scalar operand's type (Muls<T, U, mode>)
    "X": "type[Scalar]",  # a dtype the op checks itself (Gather<T0, T1, T2>)
}


# What each stub module declares besides its ops (hand-written, kept in step by stubtest).
MODULE_IMPORTS = """\
from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeAlias, TypeVar, overload

import enum

import numpy as np

from ascreg._dtypes import (
    Scalar,
{dtypes}
)
from ascreg.enums import (
    CMPMODE,
    CastTrait,
    DataCopyMode,
    DivSpecificMode,
    ExpSpecificMode,
    GatherMaskMode,
    HistogramsBinType,
    HistogramsType,
    IndexOrder,
    LnSpecificMode,
    Log2SpecificMode,
    Log10SpecificMode,
    LogSpecificMode,
    LoadDist,
    MaskDist,
    MaskMergeMode,
    MaskPattern,
    MemType,
    PostLiteral,
    HighLowPart,
    RegLayout,
    PairReduce,
    ReduceType,
    RegLayout,
    RoundMode,
    SpecialPurposeReg,
    SqrtSpecificMode,
    StoreDist,
)
from ascreg.machine.memory import UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor, RegTrait, RegTraitNumOne, RegTraitNumTwo
{extra_imports}
"""

REG_ALIASES = {
    "_R": 'TypeVar("_R", bound=RegTrait)',
    "_IntLike": SHARED_ALIASES["_IntLike"],
    "_FloatLike": SHARED_ALIASES["_FloatLike"],
    "_BoolLike": "bool | np.bool_",
}
"""The shared aliases (see stubgen.shared) the Reg stubs use, by their name there and in a stub."""

MODULE_SURFACE = {
    "reg/compute": """\
Lanes: TypeAlias = np.ndarray[Any, Any]
BINARY_OPS: dict[str, Callable[[Lanes, Lanes], Lanes]]
""",
    "reg/datamove": """\
class AddrReg:
    __attrs_attrs__: ClassVar[Any]
    __attrs_props__: ClassVar[Any]
    __match_args__ = ("offset", "width")
    @property
    def offset(self) -> int: ...
    @property
    def width(self) -> int: ...
    @property
    def byte_offset(self) -> int: ...
    def at(self, ptr: UbPtr[Any]) -> UbPtr[Any]: ...
    def __init__(self, offset: int, width: int) -> None: ...

class _CreateAddrReg:
    name: ClassVar[str]
    def __getitem__(self, items: type[Scalar]) -> _CreateAddrReg: ...
    def __call__(self, *indices_and_strides: int) -> AddrReg: ...

CreateAddrReg: _CreateAddrReg

class _LocalMemBar:
    name: ClassVar[str]
    def __getitem__(self, items: tuple[MemType, MemType]) -> _LocalMemBar: ...
    def __call__(self) -> None: ...

LocalMemBar: _LocalMemBar

class _DataCopy:
    \"\"\"``Reg.DataCopy``: ``LoadAlign`` (a register first) or ``StoreAlign`` (an address first).\"\"\"
    name: str
    def __getitem__(self, items: Any) -> _DataCopy: ...
    def __call__(self, *args: Any) -> None: ...

DataCopy: _DataCopy
""",
    "reg/masks": "",
    "reg/arith": """\
Lanes: TypeAlias = np.ndarray[Any, Any]
B64_DECREASE_SPAN: int
REDUCE_SPECS: dict[ReduceType, OpSpec]
""",
    "reg/rearrange": """\
class _ClearSpr:
    name: ClassVar[str]
    def __getitem__(self, items: SpecialPurposeReg) -> _ClearSpr: ...
    def __call__(self) -> None: ...

ClearSpr: _ClearSpr
""",
    "reg/discrete": "",
    "reg/compound": "",
    "reg/convert": "",
    "reg/unaligned": """\
class _DataCopyUnAlign:
    \"\"\"``Reg.DataCopyUnAlign``: ``LoadUnAlign`` or ``StoreUnAlign``, by the unaligned register.\"\"\"
    name: str
    def __getitem__(self, items: Any) -> _DataCopyUnAlign: ...
    def __call__(self, *args: Any) -> None: ...

DataCopyUnAlign: _DataCopyUnAlign

__all__ = [
    "DataCopyUnAlign",
    "DataCopyUnAlignPost",
    "DataCopyUnAlignPre",
    "Load",
    "LoadUnAlign",
    "LoadUnAlignPre",
    "Store",
    "StoreUnAlign",
    "StoreUnAlignPost",
    "UnalignRegForLoad",
    "UnalignRegForStore",
]
""",
}
MODULE_EXTRA_IMPORTS = {
    "reg/compute": "",
    "reg/datamove": "",
    "reg/masks": "",
    "reg/arith": "from ascreg._spec import OpSpec\n",
    "reg/rearrange": "",
    "reg/compound": "",
    "reg/convert": "",
    "reg/discrete": "",
    "reg/unaligned": (
        "from ascreg.core.unaligned import UnalignRegForLoad, UnalignRegForStore\n"
        "from ascreg.reg.datamove import AddrReg\n"
    ),
}


def param_type(p: Param, combo: tuple[type[Scalar], ...]) -> str:
    if p.kind in KIND_TYPES:
        return KIND_TYPES[p.kind]
    d = combo[p.arg]
    return {
        "reg": f"RegTensor[{pyname(d)}]",
        "regr": f"RegTensor[{pyname(d)}, _R]" if is64(d) else f"RegTensor[{pyname(d)}]",
        "reg2": f"RegTensor[{pyname(d)}, RegTraitNumTwo]" if is64(d) else f"RegTensor[{pyname(d)}]",
        "scalar": scalar_type(d),
        "ptr": f"UbPtr[{pyname(d)}]",
        "ptrref": f"Ref[UbPtr[{pyname(d)}]]",
        "ptrval": f"UbPtr[{pyname(d)}] | Ref[UbPtr[{pyname(d)}]]",
    }[p.kind]


def signature(form: RegForm, combo: tuple[type[Scalar], ...], positional: bool) -> str:
    parts = ["self"]
    parts += [f"{p.name}: {param_type(p, combo)}" for p in form.params]
    return f"def __call__({', '.join(parts)}) -> {form.returns}: ..."


def extra_type(token: str, prefix: tuple[type[Scalar], ...]) -> str:
    if token == "TRAIT":
        traits = "type[RegTraitNumOne]"
        return traits + " | type[RegTraitNumTwo]" if is64(*prefix) else traits
    return EXTRA_TYPES.get(token, token)


def subscript_type(
    prefix: tuple[type[Scalar], ...], patterns: Iterable[tuple[str, ...]], lead: str = ""
) -> str:
    alts = []
    for extra in patterns:
        items = [f"Literal[{lead}]"] if lead else []
        items += [f"type[{pyname(d)}]" for d in prefix] + [extra_type(t, prefix) for t in extra]
        alts.append(items[0] if len(items) == 1 else f"tuple[{', '.join(items)}]")
    return " | ".join(alts)


def bound_name(shape: RegShape, prefix: tuple[type[Scalar], ...], kind: str) -> str:
    return "_".join([f"_{shape.attr}", *(pyname(d) for d in prefix)]) + (
        "" if kind == "plain" else f"_{kind}"
    )


def prefixes(
    shape: RegShape, combos: tuple[tuple[type[Scalar], ...], ...]
) -> list[tuple[type[Scalar], ...]]:
    """Every legal dtype prefix a subscript may spell, shortest first, then in table order."""
    out: list[tuple[type[Scalar], ...]] = []
    for n in range(1, min(shape.template_dtypes, len(combos[0])) + 1):
        for combo in combos:
            if combo[:n] not in out:
                out.append(combo[:n])
    return out


def call_overloads(
    shape: RegShape, combos: Iterable[tuple[type[Scalar], ...]], pick: str, deduced: bool
) -> list[tuple[str, str]]:
    """The __call__ signatures of the forms *pick* offers, combinations in table order."""
    combos = list(combos)
    sigs: list[tuple[str, str]] = []
    for form in shape.forms:
        if form.bound != pick or (deduced and not form.deduced):
            continue
        label = f"{form.tag}: " if form.tag else ""
        if form.per_combo:
            sigs += [(signature(form, c, shape.positional), label + combo_text(c))
                     for c in combos if form.applies(c)]  # fmt: skip
        else:
            sigs.append((signature(form, combos[0], shape.positional), form.tag))
    return sigs


def class_attributes(shape: RegShape) -> list[str]:
    """Declarations of the op class's data attributes: its row name (nothing else is public)."""
    return ["name: ClassVar[str]"]


def render_op(spec: OpSpec) -> list[str]:
    """The stub lines of one op object: its specialised classes, its class, its declaration."""
    shape = spec.shape
    assert isinstance(shape, RegShape)
    lines: list[str] = []
    # The specialised callables a subscript returns, one class per legal prefix and kind.
    getitem: list[tuple[str, str]] = []
    for token, combos in shape.lead:  # Reduce[ReduceType.MAX, T, U]: one family per member
        for prefix in [(), *prefixes(shape, combos)]:
            tails = shape.tails("plain", len(prefix))
            if not tails:
                continue
            matching = [c for c in combos if c[: len(prefix)] == prefix]
            sigs = call_overloads(shape, matching, "plain", deduced=False)
            name = "_".join([f"_{shape.attr}", token.rsplit(".", 1)[1], *map(pyname, prefix)])
            lines += [f"class {name}:", *overloads(sigs), ""]
            items = subscript_type(prefix, tails, lead=token)
            getitem.append((f"def __getitem__(self, items: {items}) -> {name}: ...", f"{token} {combo_text(prefix)}"))  # fmt: skip
    for kind, _patterns in () if shape.lead else shape.subscripts:
        for prefix in prefixes(shape, spec.combos):
            tails = shape.tails(kind, len(prefix))
            if not tails:
                continue
            matching = [c for c in spec.combos if c[: len(prefix)] == prefix]
            sigs = call_overloads(shape, matching, kind, deduced=False)
            name = bound_name(shape, prefix, kind)
            lines += [f"class {name}:", *overloads(sigs), ""]
            getitem.append(
                (
                    f"def __getitem__(self, items: {subscript_type(prefix, tails)}) -> {name}: ...",
                    combo_text(prefix) + ("" if kind == "plain" else f" {kind}"),
                )
            )
    if shape.token_only:  # Pack[HighLowPart.X]: the forms without dtypes (the MaskReg ones)
        name = f"{shape.cls}_tokens"
        sigs = [(signature(form, spec.combos[0], shape.positional), form.tag)
                for form in shape.forms if not form.per_combo and form.bound == "plain"]  # fmt: skip
        lines += [f"class {name}:", *overloads(sigs), ""]
        # An "X" list as long as a dtype list would overlap its overloads (type[Scalar] covers
        # type[half]): the stub leaves Gather[T0] and Gather[T0, T1] of the UB form to the runtime.
        tokens = [p for p in shape.tails("plain", 0)
                  if p and not (p[0] == "X" and len(p) <= shape.template_dtypes)]  # fmt: skip
        getitem.append((f"def __getitem__(self, items: {subscript_type((), tokens)}) -> {name}: ...", "tokens"))  # fmt: skip
    roles = ", ".join(spec.roles)
    lines.append(f"class {shape.cls}:")
    lines.append(f'    """``{spec.name}``: legal ({roles}) in table order below."""')
    lines += [f"    {attr}" for attr in class_attributes(shape)]
    lines += overloads(getitem)
    if shape.needs_template:
        # No __call__: C++ cannot deduce T, so the bare call must not type-check
        # (stubtest allowlist: tests/typing/stubtest-allowlist.txt).
        lines.append(f"    # no __call__: write {shape.attr}[T](...)")
    else:
        lines += overloads(call_overloads(shape, spec.combos, "plain", deduced=True))
    lines += ["", f"{shape.attr}: {shape.cls}", ""]
    return lines + alias_lines(spec)


def alias_lines(spec: OpSpec) -> list[str]:
    """The declarations of the row's older spellings: the op's class, or a fixed-lead class.

    ``MaskAnd: _And``; ``ReduceSum`` (``RegShape.fixed``) gets ``class _ReduceSum(_Reduce_SUM)``
    whose subscripts leave the fixed ``ReduceType.SUM`` out.
    """
    shape = spec.shape
    assert isinstance(shape, RegShape)
    fixed, lead = dict(shape.fixed), dict(shape.lead)
    lines: list[str] = []
    plain = shape.tails  # the lists after the fixed lead member
    for alias in spec.aliases:
        attr = alias.removeprefix("Reg.")
        if alias not in fixed:
            lines += [f"{attr}: {shape.cls}", ""]
            continue
        member = fixed[alias].rsplit(".", 1)[1]
        base = f"_{shape.attr}_{member}"
        getitem = [
            (
                f"def __getitem__(self, items: {subscript_type(prefix, plain('plain', len(prefix)))})"
                f" -> {base}_{'_'.join(map(pyname, prefix))}: ...",
                combo_text(prefix),
            )
            for prefix in prefixes(shape, lead[fixed[alias]])
            if plain("plain", len(prefix))
        ]
        lines += [
            f"class _{attr}({base}):",
            f'    """``{alias}``: ``{spec.name}[{fixed[alias]}]``."""',
        ]
        lines += ["    name: ClassVar[str]", *overloads(getitem), "", f"{attr}: _{attr}", ""]
    return lines


def render_module(module: str) -> str:
    """The stub of one Reg module (``"reg/compute"``): its surface, then its rows' op objects."""
    head = MODULE_IMPORTS.format(dtypes=dtype_imports(), extra_imports=MODULE_EXTRA_IMPORTS[module])
    body = [MODULE_SURFACE[module]] if MODULE_SURFACE[module] else []
    body += ["\n".join(render_op(row)) for row in module_rows("reg", module)]
    return stub_text(head, body, "\n", {name: name for name in REG_ALIASES})

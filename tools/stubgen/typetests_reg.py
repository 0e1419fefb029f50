"""The Reg type tests: ``tests/typing/generated/{accept,reject}_reg.py`` from the Reg rows.

The accept file calls every legal combination of every form, bare and through every subscript
(each line must type-check); the reject file calls illegal combinations (each line carries the
``# type: ignore[<code>]`` mypy must need).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from ascreg._dtypes import Scalar
from ascreg._spec import REG_TYPES, OpSpec, Param, RegForm, RegShape
from stubgen.common import (
    IGNORE,
    TEST_HEADER,
    check_functions,
    combo_text,
    dtype_imports,
    is64,
    pyname,
)

TEST_PRELUDE = """\
from typing import TYPE_CHECKING, assert_type

from ascreg import (
    CMPMODE,
    DataCopyMode,
    GatherMaskMode,
    HistogramsBinType,
    HistogramsType,
    IndexOrder,
    LoadDist,
    MaskDist,
    MaskMergeMode,
    MaskPattern,
    PostLiteral,
    HighLowPart,
    PairReduce,
    ReduceType,
    Ref,
    Reg,
    RegTraitNumOne,
    RegTraitNumTwo,
    StoreDist,
    UnifiedBuffer,
{dtypes}
)
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.reg.datamove import AddrReg

"""
SETUP = """\
    ub = UnifiedBuffer()
    m = Reg.MaskReg()
    ar = Reg.CreateAddrReg[uint8_t](1, 32)
    ul = Reg.UnalignRegForLoad()
    us = Reg.UnalignRegForStore()
"""
EXAMPLE_EXTRA = {
    "CMPMODE": "CMPMODE.GT",
    "MaskMergeMode": "MaskMergeMode.ZEROING",
    "LoadDist": "LoadDist.DIST_NORM",
    "StoreDist": "StoreDist.DIST_NORM",
    "MaskDist": "MaskDist.DIST_NORM",
    "MaskPattern": "MaskPattern.H",
    "POST": "PostLiteral.POST_MODE_UPDATE",
    "NORMAL": "PostLiteral.POST_MODE_NORMAL",
    "TRAIT": "RegTraitNumOne",
    "IndexOrder": "IndexOrder.DECREASE_ORDER",
    "HighLowPart": "HighLowPart.HIGHEST",
    "OFFSET": "1",
    "GatherMaskMode": "GatherMaskMode.NO_STORE_REG",
    "HistogramsBinType": "HistogramsBinType.BIN1",
    "HistogramsType": "HistogramsType.ACCUMULATE",
    "DataCopyMode": "DataCopyMode.DATA_BLOCK_COPY",
    "CastTrait": "Reg.castTrait",
    "RoundMode": "Reg.RoundMode.CAST_RINT",
    "RegLayout": "Reg.RegLayout.ONE",
    **{
        f"{op}SpecificMode": f"Reg.{op}SpecificMode()"
        for op in ("Div", "Sqrt", "Exp", "Ln", "Log", "Log2", "Log10")
    },
}


def variables(dtypes: Iterable[type[Scalar]]) -> list[str]:
    lines = []
    for d in dtypes:
        n = pyname(d)
        lines.append(f"    r_{n} = Reg.RegTensor[{n}]()")
        lines.append(f"    assert_type(r_{n}, RegTensor[{n}])")
        if d.size == 8:
            lines.append(f"    r2_{n} = Reg.RegTensor[{n}, RegTraitNumTwo]()")
        lines.append(f"    p_{n} = ub.alloc({n}, 256)")
        lines.append(f"    pr_{n} = Ref(p_{n})")
    return lines


def argument(
    p: Param, combo: tuple[type[Scalar], ...], two: bool, scalars: tuple[type[Scalar], ...] = ()
) -> str:
    """The test argument of *p* for *combo* (a scalar parameter reads *scalars* when given)."""
    if p.kind in ("mask", "mask?"):
        return "m"
    combo = scalars if scalars and p.kind == "scalar" else combo
    d = combo[p.arg] if p.arg < len(combo) else combo[0]
    n = pyname(d)
    return {
        "reg": f"r_{n}",
        "regr": f"r2_{n}" if two and is64(d) else f"r_{n}",
        "reg2": f"r2_{n}" if is64(d) else f"r_{n}",
        "scalar": {"bool": "True", "float": "1.5"}.get(d.kind.value, "1"),
        "ptr": f"p_{n}",
        "ptrref": f"pr_{n}",
        "ptrval": f"pr_{n}",
        "anyptr": f"p_{n}",
        "anyptrref": f"pr_{n}",
        "anyreg": f"r_{n}",
        "addr": "ar",
        "int": "0",
        "int?": "1",
        "count": "Ref(100)",
        "uload": "ul",
        "ustore": "us",
    }[p.kind]


def call(
    callee: str,
    form: RegForm,
    combo: tuple[type[Scalar], ...],
    two: bool = False,
    scalars: tuple[type[Scalar], ...] = (),
) -> str:
    args = ", ".join(argument(p, combo, two, scalars) for p in form.params)
    text = f"{callee}({args})"
    return f"assert_type({text}, {form.returns})" if form.returns != "None" else text


def example(token: str, combo: tuple[type[Scalar], ...]) -> str:
    """Spell one template argument of kind *token* for a call on *combo*."""
    if token in ("U", "X"):  # the scalar's type: the register's own
        return pyname(combo[0])
    return EXAMPLE_EXTRA[token]


def shortest_list(shape: RegShape, combo: tuple[type[Scalar], ...]) -> list[str]:
    """Spell the op's shortest plain template argument list with dtypes, *combo*'s first."""
    n = min(k for k in shape.dtype_counts("plain") if k >= 1)
    tails = shape.tails("plain", n)
    extra = () if () in tails else tails[0]
    return [*map(pyname, combo[:n]), *(example(t, combo) for t in extra)]


def _shape(spec: OpSpec) -> RegShape:
    assert isinstance(spec.shape, RegShape), spec.name
    return spec.shape


def accept_lines(spec: OpSpec) -> Iterator[str]:
    """Every legal call of one op: each form, bare (if deduced) and through each subscript."""
    shape = _shape(spec)
    yield f"    # {spec.name}: every legal {', '.join(spec.roles)} combination"
    for form in shape.forms:
        combos = [c for c in spec.combos if form.applies(c)] if form.per_combo else spec.combos[:1]
        for combo in combos:
            traits = (False, True) if form.per_combo and is64(*combo) and "regr" in {p.kind for p in form.params} else (False,)  # fmt: skip
            for two in traits:
                tag = f"  # {form.tag} {combo_text(combo)}".rstrip()
                if form.deduced:
                    yield f"    {call('Reg.' + shape.attr, form, combo, two)}{tag}"
                for token, members in shape.lead:
                    for n in range(len(combo) + 1) if combo in members else ():
                        for extra in shape.tails("plain", n):
                            items = [token, *map(pyname, combo[:n])]
                            items += [example(t, combo) for t in extra]
                            callee = f"Reg.{shape.attr}[{', '.join(items)}]"
                            yield f"    {call(callee, form, combo, two)}{tag}"
                for kind, _patterns in () if shape.lead else shape.subscripts:
                    if kind != form.bound:
                        continue
                    for n in range(1, len(combo) + 1):
                        for extra in shape.tails(kind, n):
                            if "TRAIT" in extra and two:
                                continue
                            items = [pyname(d) for d in combo[:n]]
                            items += [example(t, combo) for t in extra]
                            callee = f"Reg.{shape.attr}[{', '.join(items)}]"
                            yield f"    {call(callee, form, combo, two)}{tag}"
            if shape.uses_token("TRAIT") and is64(*combo):
                callee = f"Reg.{shape.attr}[{pyname(combo[0])}, " + (
                    "MaskPattern.ALL, RegTraitNumTwo]"
                    if shape.uses_token("MaskPattern")
                    else "RegTraitNumTwo]"
                )
                yield f"    {call(callee, form, combo)}  # RegTraitNumTwo {combo_text(combo)}"


REG_KINDS = ("reg", "regr", "reg2", "ptr", "ptrref", "ptrval")
"""Parameter kinds whose type carries a dtype role (the first three are registers)."""


def reject_lines(spec: OpSpec) -> Iterator[str]:
    """Illegal calls of one op's main form: bad combinations, mixed operands, bad subscripts."""
    shape = _shape(spec)
    form = shape.forms[0]
    legal = set(spec.combos)
    ignore = IGNORE
    yield f"    # {spec.name}: every illegal {', '.join(spec.roles)} combination"
    reg_roles = sorted({p.arg for p in form.params if p.kind in REG_KINDS})
    fixed = {i: spec.combos[0][i] for i in range(len(spec.roles)) if i not in reg_roles}
    for choice in itertools.product(REG_TYPES, repeat=len(reg_roles)):
        combo_list: list[type[Scalar]] = []
        for i in range(len(spec.roles)):
            combo_list.append(choice[reg_roles.index(i)] if i in reg_roles else fixed[i])
        combo = tuple(combo_list)
        if combo in legal:
            continue
        code = "arg-type"
        if form.deduced:
            line = call("Reg." + shape.attr, form, combo)
            yield f"    {line}{ignore.format(code=code)}  # {combo_text(combo)}"
        if shape.needs_template or not form.deduced:
            prefix = combo[:1]
            if prefix not in {c[:1] for c in spec.combos}:
                items = ", ".join(shortest_list(shape, combo))
                line = f"Reg.{shape.attr}[{items}]"
                if not reg_roles:  # with register operands mypy would also check the call
                    line = call(line, form, combo)
                yield f"    {line}{ignore.format(code='index')}  # {combo_text(combo)}"
    if shape.lead:
        yield from lead_reject_lines(spec, form)
        return
    # Registers of two different dtypes where C++ deduces one type for all of them.
    same = [i for i, p in enumerate(form.params) if p.kind in REG_KINDS[:3] and p.arg == 0]
    if form.deduced and len(same) > 1:
        yield f"    # {spec.name}: operands of two dtypes"
        firsts = [c[0] for c in spec.combos]
        for k, combo in enumerate(spec.combos):
            other = firsts[(k + 1) % len(firsts)]
            if other == combo[0]:
                continue
            args = []
            for i, p in enumerate(form.params):
                arg = argument(p, combo, False)
                if i == same[-1]:
                    arg = f"r_{pyname(other)}"
                args.append(arg)
            line = f"Reg.{shape.attr}({', '.join(args)})"
            yield f"    {line}{ignore.format(code='arg-type')}  # {combo_text(combo)} with {pyname(other)}"
    # A template dtype that disagrees with the operands (static_assert "T type is not correct!").
    if shape.patterns("plain") and form.bound == "plain":
        firsts = list(dict.fromkeys(c[0] for c in spec.combos))
        mismatches = spec.combos if same else ()
        if mismatches:
            yield f"    # {spec.name}: template dtype is not the operands' dtype"
        for combo in mismatches:
            other = firsts[(firsts.index(combo[0]) + 1) % len(firsts)]
            if other == combo[0]:
                continue
            # Only the registers disagree: a scalar of the subscript's type keeps the error an
            # arg-type one when the op has several overloads (Duplicate's scalar / srcReg forms).
            scalars = (other, *combo[1:])
            written = ", ".join(shortest_list(shape, (other, *combo[1:])))
            line = call(f"Reg.{shape.attr}[{written}]", form, combo, scalars=scalars)
            yield f"    {line}{ignore.format(code='arg-type')}  # {pyname(other)} vs {combo_text(combo)}"
        yield f"    # {spec.name}: a template dtype no combination allows"
        allowed = {c[0] for c in spec.combos}
        for d in REG_TYPES:
            if d not in allowed:
                combo = (d, *spec.combos[0][1:])
                line = f"Reg.{shape.attr}[{', '.join(shortest_list(shape, combo))}]"
                yield f"    {line}{ignore.format(code='index')}  # {pyname(d)}"


def lead_reject_lines(spec: OpSpec, form: RegForm) -> Iterator[str]:
    """Rejections of a lead-enum op: per member, the other members' combinations and bad dtypes."""
    shape = _shape(spec)
    ignore = IGNORE
    for token, members in shape.lead:
        callee = f"Reg.{shape.attr}[{token}]"
        yield f"    # {spec.name}[{token}]: combinations only another member allows"
        for combo in spec.combos:
            if combo not in members:
                line = call(callee, form, combo)
                yield f"    {line}{ignore.format(code='arg-type')}  # {combo_text(combo)}"
        yield f"    # {spec.name}[{token}]: template dtype is not the operands' dtype"
        firsts = list(dict.fromkeys(c[0] for c in members))
        for combo in members:
            other = firsts[(firsts.index(combo[0]) + 1) % len(firsts)]
            line = call(f"Reg.{shape.attr}[{token}, {pyname(other)}]", form, combo)
            yield f"    {line}{ignore.format(code='arg-type')}  # {pyname(other)} vs {combo_text(combo)}"
        yield f"    # {spec.name}[{token}]: a template dtype no combination allows"
        for d in REG_TYPES:
            if d not in firsts:
                line = f"Reg.{shape.attr}[{token}, {pyname(d)}]"
                yield f"    {line}{ignore.format(code='index')}  # {pyname(d)}"


def render_tests(kind: str, rows: Iterable[OpSpec]) -> str:
    """The accept (*kind* ``"accept"``) or reject type-test file of *rows*."""
    body = [*SETUP.splitlines(), *variables(REG_TYPES)]
    body.append("    assert_type(m, MaskReg)")
    body.append("    assert_type(ar, AddrReg)")
    body.append("    assert_type(r2_int64_t, RegTensor[int64_t, RegTraitNumTwo])")
    body.append("    assert_type(Reg.RegTensor[int64_t, RegTraitNumOne](), RegTensor[int64_t])")
    for row in rows:
        body += accept_lines(row) if kind == "accept" else reject_lines(row)
    prelude = TEST_PRELUDE.format(dtypes=dtype_imports())
    return "\n".join([TEST_HEADER, prelude, *check_functions(body)]) + "\n"

"""The basic-API type tests: ``tests/typing/generated/{accept,reject}_basic.py`` from the rows.

The accept file calls every form of every memory-level op with every combination it applies to
(LocalTensors of the combination's types, a number of its kind for a scalar). The reject file
calls the count form with the tensors of every type the op does not take, and a repeat form
with every type that has the count form only; each line must be rejected (``call-overload``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ascreg._dtypes import Scalar
from ascreg._spec import REG_TYPES, BasicForm, OpSpec
from stubgen.basic import basic_shape
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

BASIC_TEST_PRELUDE = """\
from typing import TYPE_CHECKING

from ascreg import Ref
from ascreg._dtypes import (
{dtypes}
)
from ascreg.basic import (
    CMPMODE,
    SELMODE,
    BinaryRepeatParams,
    BrcbRepeatParams,
    CopyRepeatParams,
    GatherMaskParams,
    LocalTensor,
    ReduceOrder,
    RoundMode,
    TransDataTo5HDParams,
    UnaryRepeatParams,
{names}
)

"""

_VALUES = {"_FloatLike": "1.0", "_IntLike": "1", "_BoolLike": "True"}
"""A literal of each scalar alias."""
_ARGUMENTS = {
    "_IntLike": "1",
    "Sequence[_IntLike]": "[1, 0]",
    "bool": "False",
    "_BoolLike": "True",
    "_BoolLike = ...": "True",
    "ReduceOrder = ...": "ReduceOrder.ORDER_VALUE_INDEX",
    "LocalTensor[uint8_t]": "t_uint8_t",
    "LocalTensor[uint64_t]": "t_uint64_t",
    "LocalTensor[uint32_t]": "t_uint32_t",
    "BrcbRepeatParams | tuple[_IntLike, ...]": "BrcbRepeatParams()",
    "Sequence[_IntLike | UbPtr[Any]]": "[1, 0]",
    "CopyRepeatParams | tuple[_IntLike, ...]": "CopyRepeatParams()",
    "TransDataTo5HDParams | tuple[Any, ...]": "TransDataTo5HDParams()",
    "GatherMaskParams": "GatherMaskParams()",
    "Ref[Any]": "Ref(0)",
    "RoundMode": "RoundMode.CAST_RINT",
    "CMPMODE": "CMPMODE.EQ",
    "SELMODE": "SELMODE.VSEL_TENSOR_TENSOR_MODE",
    "UnaryRepeatParams | tuple[_IntLike, ...]": "UnaryRepeatParams()",
    "BinaryRepeatParams | tuple[_IntLike, ...]": "BinaryRepeatParams()",
}
"""The argument of each non-dtype annotation."""


def basic_variables() -> list[str]:
    """One LocalTensor variable per element type (``t_half = LocalTensor[half]()``)."""
    return [f"    t_{pyname(d)} = LocalTensor[{pyname(d)}]()" for d in REG_TYPES]


def argument(text: str, combo: tuple[type[Scalar], ...], *, reject: bool = False) -> str:
    """A value of the annotation *text* for *combo*: a tensor variable, a literal, a struct.

    A reject line passes ``1`` for every scalar (every scalar alias takes an int): only the
    tensors' element types are wrong, so mypy reports the argument, not the overload set.
    """
    if text in _ARGUMENTS:
        return _ARGUMENTS[text]
    for i, d in enumerate(combo):
        if text.startswith(f"LocalTensor[{{T{i}}}]"):
            return f"t_{pyname(d)}"
        if text == f"Sequence[LocalTensor[{{T{i}}}]]":
            return f"[t_{pyname(d)}]"
        if text == f"{{S{i}}}":
            return "1" if reject else _VALUES[scalar_type(d)]
    raise AssertionError(f"no test argument for {text!r}")


def call(
    spec: OpSpec, form: BasicForm, combo: tuple[type[Scalar], ...], *, reject: bool = False
) -> str:
    args = ", ".join(argument(text, combo, reject=reject) for _, text in form.params)
    return f"{spec.spelling}({args})"


def reject_code(form: BasicForm) -> str:
    """mypy's code for a call whose tensors have a wrong element type.

    With the element types erased some overload matches, so mypy checks that one and reports
    its argument (``arg-type``; ``list-item`` for a list of tensors) rather than
    ``call-overload``.
    """
    if any(text.startswith("Sequence[LocalTensor[") for _, text in form.params):
        return "list-item"
    return "arg-type"


def basic_accept_lines(spec: OpSpec) -> Iterator[str]:
    yield f"    # {spec.spelling}: every legal combination of {', '.join(spec.roles)}, every form"
    seen = set()
    for form in basic_shape(spec).forms:
        for combo in spec.combos:
            line = call(spec, form, combo)
            if form.applies(combo) and line not in seen:
                seen.add(line)
                yield f"    {line}  # {form.tag} {combo_text(combo)}"


def _wrong(spec: OpSpec, form: BasicForm) -> Iterator[tuple[type[Scalar], ...]]:
    """The combinations the form must reject: every other type as the first role's.

    The forms differ in their parameters, so a type legal in another form only (a count-form
    type called with a repeat form's mask) is rejected as well.
    """
    legal = [c for c in spec.combos if form.applies(c)]
    for d in REG_TYPES:
        combo = (d, *legal[0][1:]) if legal else (d,) * len(spec.roles)
        if combo not in legal:
            yield combo


def basic_reject_lines(spec: OpSpec) -> Iterator[str]:
    lines = []
    legal = {
        call(spec, f, c, reject=True) for f in basic_shape(spec).forms for c in spec.combos
        if f.applies(c)
    }  # fmt: skip
    seen = set()
    for form in basic_shape(spec).forms:
        if not any("{T" in text for _, text in form.params):
            continue  # the arguments carry no element type (TransDataTo5HD's address lists)
        for combo in _wrong(spec, form):
            line = call(spec, form, combo, reject=True)
            if line in legal or line in seen:  # a role the form's arguments do not show
                continue
            seen.add(line)
            ignore = IGNORE.format(code=reject_code(form))
            lines.append(f"    {line}{ignore}  # {form.tag} {combo_text(combo)}")
    if lines:
        yield f"    # {spec.spelling}: a wrong type of {spec.roles[0]}, every form"
        yield from lines


def render_basic_tests(kind: str) -> str:
    """The accept (*kind* ``"accept"``) or reject type-test file of the basic API."""
    rows = surface_rows("basic")
    names = "\n".join(f"    {n}," for n in sorted({row.spelling for row in rows}))
    prelude = BASIC_TEST_PRELUDE.format(dtypes=dtype_imports(), names=names)
    lines = basic_variables()
    for row in rows:
        lines += list(basic_accept_lines(row) if kind == "accept" else basic_reject_lines(row))
    return "\n".join([TEST_HEADER, prelude, *check_functions(lines)]) + "\n"

"""The basic-API renderer: ``stubs/ascreg/basic/*.pyi`` from the memory-level rows and their shapes.

Each op object ``Adds`` is declared as an instance of a stub class ``_Adds`` whose ``__call__``
has one ``@overload`` per form and legal combination the form applies to (forms in order,
combinations in table order), and whose ``__getitem__`` (the C++ template arguments) returns the
same class: the tensors' element types select the overload, as C++ deduces ``T`` from them.
"""

from __future__ import annotations

import importlib

from ascreg._dtypes import Scalar
from ascreg._spec import BasicForm, BasicShape, OpSpec
from stubgen.common import (
    SHARED_ALIASES,
    combo_text,
    dtype_imports,
    module_rows,
    overloads,
    pyname,
    scalar_type,
    stub_text,
)

BASIC_MODULE_IMPORTS = """\
import enum
from collections.abc import Sequence
from typing import Any, overload

from ascreg._dtypes import (
{dtypes}
)
from ascreg.basic._repeat import BinaryRepeatParams, UnaryRepeatParams
from ascreg.basic._tensor import LocalTensor
from ascreg.enums import CMPMODE, RoundMode
from ascreg.machine.memory import UbPtr
from ascreg.enums import DivAlgo as DivAlgo
from ascreg.enums import ExpAlgo as ExpAlgo
from ascreg.enums import SqrtAlgo as SqrtAlgo
"""

BASIC_ALIASES = {
    "_IntLike": SHARED_ALIASES["_IntLike"],
    "_FloatLike": SHARED_ALIASES["_FloatLike"],
    "_BoolLike": "bool | np.bool_",
}
"""The shared aliases the basic-API stubs use."""


_PATTERNS = ("R", "RA", "AR", "ARA", "ARAR", "ARARA", "ARARAR", "ARARARA", "ARARARAR", "ARARARARA",
             "RAR", "RARA", "RARAR", "RARARA", "RARARAR", "RARARARA")  # fmt: skip
"""``AscendC::Pattern::Reduce``'s members (``ascreg.basic.ReducePattern``)."""


_STRUCTS = ("DEFAULT_BINARY_CONFIG", "DEFAULT_DIV_CONFIG", "DEFAULT_EXP_CONFIG",
            "DEFAULT_LN_CONFIG", "DEFAULT_RECIPROCAL_CONFIG", "DEFAULT_RSQRT_CONFIG",
            "DEFAULT_SQRT_CONFIG", "BinaryConfig", "DivConfig", "ExpConfig", "LnAlgo", "LnConfig",
            "ReciprocalAlgo", "ReciprocalConfig", "RsqrtAlgo", "RsqrtConfig", "SqrtConfig")  # fmt: skip
"""The names ``ascreg.basic._vector`` re-exports from ``ascreg.basic._structs`` (a module the
stubs do not replace: its attrs classes are the runtime's own)."""


BASIC_MODULE_SURFACE: dict[str, list[str]] = {
    "basic/_cast": ["def SetDeqScale(scale: _FloatLike) -> None: ...", ""],
    "basic/_layout": [
        "from ascreg.basic._structs import BrcbRepeatParams as BrcbRepeatParams",
        "from ascreg.basic._structs import CopyRepeatParams as CopyRepeatParams",
        "from ascreg.basic._structs import GatherMaskMode as GatherMaskMode",
        "from ascreg.basic._structs import GatherMaskParams as GatherMaskParams",
        "from ascreg.basic._structs import TransDataTo5HDParams as TransDataTo5HDParams",
        "from ascreg.machine.ref import Ref",
        "",
        "BRCB_BROADCAST_NUMBER: int",
        "NCHW_CONV_ADDR_LIST_SIZE: int",
        "defaultGatherMaskMode: GatherMaskMode",
        "",
    ],
    "basic/_reduce": [
        "class ReduceOrder(enum.IntEnum):",
        "    ORDER_VALUE_INDEX = 0",
        "    ORDER_INDEX_VALUE = 1",
        "    ORDER_ONLY_VALUE = 2",
        "    ORDER_ONLY_INDEX = 3",
        "",
        "class ReducePattern(enum.Enum):",
        *(f'    {name} = "{name}"' for name in _PATTERNS),
        "",
        "class Pattern:",
        "    Reduce = ReducePattern",
        "",
    ],
    "basic/_select": [
        "class SELMODE(enum.IntEnum):",
        "    VSEL_CMPMASK_SPR = 0",
        "    VSEL_TENSOR_SCALAR_MODE = 1",
        "    VSEL_TENSOR_TENSOR_MODE = 2",
        "",
    ],
    "basic/_vector": [
        *(f"from ascreg.basic._structs import {name} as {name}" for name in _STRUCTS),
        "",
    ],
}
"""Each module's declarations that are not table rows (configs, constants, aliases)."""


def basic_shape(spec: OpSpec) -> BasicShape:
    assert isinstance(spec.shape, BasicShape), spec.name
    return spec.shape


def annotation(text: str, combo: tuple[type[Scalar], ...]) -> str:
    """Fill ``{T0}`` (the dtype's Python name) and ``{S0}`` (its scalar type) for *combo*.

    Examples
    --------
    >>> from ascreg import half
    >>> annotation("LocalTensor[{T0}] | {S0}", (half,))
    'LocalTensor[half] | _FloatLike'
    """
    names = {f"T{i}": pyname(d) for i, d in enumerate(combo)}
    names |= {f"S{i}": scalar_type(d) for i, d in enumerate(combo)}
    return text.format(**names)


def basic_signature(form: BasicForm, combo: tuple[type[Scalar], ...]) -> str:
    parts = ["self", *(f"{name}: {annotation(text, combo)}" for name, text in form.params)]
    return f"def __call__({', '.join(parts)}) -> None: ..."


def basic_overloads(spec: OpSpec) -> list[tuple[str, str]]:
    """Every (signature, tag) of one op: forms in order, combinations in table order."""
    sigs = []
    seen = set()
    for form in basic_shape(spec).forms:
        for combo in spec.combos:
            signature = basic_signature(form, combo)
            if form.applies(combo) and signature not in seen:  # a form without {T0}: once
                seen.add(signature)
                sigs.append((signature, f"{form.tag}: {combo_text(combo)}"))
    return sigs


def basic_class(spec: OpSpec) -> str:
    """The stub class of one op object and the op's declaration."""
    name = basic_shape(spec).attr
    lines = [f"class _{name}:", *overloads(basic_overloads(spec))]
    lines.append(f"    def __getitem__(self, targs: Any) -> _{name}: ...")
    return "\n".join([*lines, "", f"{name}: _{name}"])


def basic_module_surface(module: str) -> str:
    runtime = importlib.import_module("ascreg." + module.replace("/", "."))
    lines = ["__all__ = [", *(f'    "{name}",' for name in runtime.__all__), "]", ""]
    return "\n".join(lines + BASIC_MODULE_SURFACE[module])


def render_basic_module(module: str) -> str:
    """The stub of one basic-API module (``"basic/_vector"``): its surface, then its ops."""
    head = BASIC_MODULE_IMPORTS.format(dtypes=dtype_imports())
    body = [basic_module_surface(module)]
    for spec in module_rows("basic", module):
        doc = f"# {spec.spelling}: legal ({', '.join(spec.roles)}) in table order, per form"
        body.append(f"{doc}\n{basic_class(spec)}")
    return stub_text(head, body, "\n\n\n", {name: name for name in BASIC_ALIASES})

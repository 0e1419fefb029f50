"""The C++ spelling of ascreg's public objects: which namespace each name lives in.

The C API and the SIMT functions are global C names (``asc_shiftright``, ``PIPE_V``,
``__byte_perm``); the Reg API is ``AscendC::Reg`` (``AscendC::MicroAPI`` when the Python wrote
``MicroAPI``); the basic API and the enumerations are ``AscendC``, each enumeration where its
docstring says (``AscendC::Reg::MaskPattern``, ``AscendC::CMPMODE``).

Examples
--------
>>> from ascreg import CMPMODE, Reg
>>> from ascreg.c_api import PAT_ALL, asc_shiftright
>>> namespace_of("asc_shiftright", asc_shiftright), namespace_of("PAT_ALL", PAT_ALL)
('', '')
>>> namespace_of("Select", Reg.Select), enum_spelling(CMPMODE)
('AscendC::Reg::', 'AscendC::CMPMODE')
"""

from __future__ import annotations

import enum
import functools
import importlib
import re
import types
from typing import Any

SURFACES: tuple[tuple[str, str], ...] = (
    ("ascreg.c_api", ""),
    ("ascreg.simt", ""),
    ("ascreg.reg", "AscendC::Reg::"),
    ("ascreg.basic", "AscendC::"),
    ("ascreg", "AscendC::"),
)
"""The public modules, in the order a name is looked up, and the C++ namespace of their names."""
MODULE_NAMESPACES = {
    "ascreg.reg": "AscendC::Reg::",
    "ascreg.basic": "AscendC::",
    "ascreg.c_api": "",
    "ascreg.simt": "",
    "ascreg": "AscendC::",
}
"""The C++ namespace a module object stands for when the Python writes ``Reg.Add``."""
GLOBAL_NAMES = frozenset({"asc_vf_call", "dim3", "threadIdx", "blockIdx", "blockDim", "gridDim"})
"""Names the C++ spells in the global namespace whatever module the Python took them from."""
SPECIAL = {"VL": "AscendC::GetVecLen()"}
"""Public names whose C++ spelling is an expression (``VL`` is ``GetVecLen()``)."""
_QUALIFIED = re.compile(r"``((?:AscendC::)(?:\w+::)*\w+)")


def surface_modules() -> list[tuple[types.ModuleType, str]]:
    """Return the public modules (imported) and their namespaces, in lookup order."""
    return [(importlib.import_module(name), ns) for name, ns in SURFACES]


def namespace_of(name: str, value: Any) -> str | None:
    """Return the namespace of the public object *value* imported under *name*; None: not ascreg's."""
    if name in GLOBAL_NAMES:
        return ""
    for module, namespace in surface_modules():
        if getattr(module, name, _MISSING) is value:
            return namespace
    return None


def spelling(name: str, value: Any) -> str | None:
    """Return the C++ spelling of the public object *value* imported under *name* (None: not ascreg's)."""
    namespace = namespace_of(name, value)
    if namespace is None:
        return None
    return SPECIAL.get(name) or namespace + name


def find_public_name(value: Any) -> tuple[str, str] | None:
    """``(namespace, name)`` of a public ascreg object imported under another name."""
    if isinstance(value, int | float | str | bool) or value is None:
        return None
    for module, namespace in surface_modules():
        for name, held in vars(module).items():
            if held is value and not name.startswith("_"):
                return ("" if name in GLOBAL_NAMES else namespace), name
    return None


_MISSING = object()


@functools.cache
def enum_spelling(kind: type[enum.Enum] | type) -> str:
    """Return the qualified C++ name of an enumeration (or mode struct) class, from its docstring."""
    found = _QUALIFIED.search(kind.__doc__ or "")
    if found and found.group(1).endswith("::" + kind.__name__):
        return found.group(1)
    module = kind.__module__
    for prefix, namespace in MODULE_NAMESPACES.items():
        if module == prefix or module.startswith(prefix + "."):
            return namespace + kind.__name__
    return "AscendC::" + kind.__name__


def member_spelling(member: enum.Enum) -> str:
    """``AscendC::CMPMODE::EQ`` for ``CMPMODE.EQ``."""
    return f"{enum_spelling(type(member))}::{member.name}"

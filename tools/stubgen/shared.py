"""The shared aliases: ``stubs/ascreg/_typing.pyi``, one definition of every alias the stubs use.

Each surface's renderer names the aliases its stubs use (``REG_ALIASES``, ``C_ALIASES``,
``SIMT_ALIASES``, ``BASIC_ALIASES``: name -> definition); a stub module imports only those its declarations use
(:func:`stubgen.common.alias_imports`). The runtime module ``ascreg._typing`` is empty: the
aliases are private, so stubtest does not look for them at runtime.
"""

from __future__ import annotations

from stubgen.basic import BASIC_ALIASES
from stubgen.c_api import C_ALIASES
from stubgen.common import STUB_HEADER
from stubgen.reg import REG_ALIASES
from stubgen.simt import SIMT_ALIASES

SHARED_IMPORTS = """\
from typing import Any, TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from ascreg._dtypes import uint8_t, uint16_t, uint32_t
from ascreg.machine.memory import UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import RegTrait
"""


def shared_aliases() -> dict[str, str]:
    """Every surface's aliases, name -> definition; a name has one definition on all surfaces."""
    aliases: dict[str, str] = {}
    for table in (REG_ALIASES, C_ALIASES, SIMT_ALIASES, BASIC_ALIASES):
        for name, definition in table.items():
            assert aliases.setdefault(name, definition) == definition, f"{name} defined twice"
    return aliases


def alias_line(name: str, definition: str) -> str:
    """``_IntLike: TypeAlias = ...``, or ``_R = TypeVar(...)`` for a type variable."""
    if definition.startswith("TypeVar("):
        return f"{name} = {definition}"
    return f"{name}: TypeAlias = {definition}"


def render_shared_module() -> str:
    """The text of ``stubs/ascreg/_typing.pyi``."""
    lines = [alias_line(name, definition) for name, definition in shared_aliases().items()]
    return STUB_HEADER + "\n" + SHARED_IMPORTS + "\n" + "\n".join(lines) + "\n"

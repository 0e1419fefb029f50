"""Say so when a kernel uses an API the asc-devkit documents but ascreg does not have yet.

``asc_transpose`` (documented, not emulated) raises :class:`~ascreg.errors.MissingApiError`, an
``AttributeError`` that names the API and points to the limitations page, instead of Python's
bare ``module 'ascreg.c_api' has no attribute 'asc_transpose'``. The documented names come from
``ascreg/_data/documented_names.txt``, written once from the asc-devkit documents by
``tools/gen_documented_names.py``.

Examples
--------
>>> from ascreg import Reg, c_api
>>> c_api.asc_transpose
Traceback (most recent call last):
...
ascreg.errors.MissingApiError: asc_transpose is documented by the asc-devkit but ascreg does not emulate it yet; see docs/limitations.md
>>> Reg.NoSuchThing
Traceback (most recent call last):
...
AttributeError: module 'ascreg.reg' has no attribute 'NoSuchThing'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import resources

from ascreg.errors import MissingApiError

LIMITATIONS = "docs/limitations.md"
"""The page that lists what ascreg does not emulate."""
SPELLING = {"reg": "Reg.{}", "c_api": "{}", "simt": "{}"}
"""How each surface's names are written in a message."""


@functools.cache
def documented_names() -> dict[str, frozenset[str]]:
    """Return the asc-devkit's documented API names per surface (``reg``, ``c_api``, ``simt``).

    Examples
    --------
    >>> "asc_add" in documented_names()["c_api"], sorted(documented_names())
    (True, ['c_api', 'reg', 'simt'])
    """
    text = (resources.files("ascreg") / "_data" / "documented_names.txt").read_text()
    names: dict[str, set[str]] = {}
    for line in text.splitlines():
        surface, _, name = line.partition(" ")
        names.setdefault(surface, set()).add(name)
    return {surface: frozenset(found) for surface, found in names.items()}


def module_getattr(module: str, surface: str) -> Callable[[str], object]:
    """Return a module ``__getattr__`` that explains documented-but-missing names.

    Examples
    --------
    >>> getattr_ = module_getattr("ascreg.simt", "simt")
    >>> getattr_("__nonsense")
    Traceback (most recent call last):
    ...
    AttributeError: module 'ascreg.simt' has no attribute '__nonsense'
    """

    def __getattr__(name: str) -> object:  # noqa: N807 (the module hook's name)
        if name in documented_names().get(surface, ()):
            error = MissingApiError(
                f"{SPELLING[surface].format(name)} is documented by the asc-devkit but ascreg "
                f"does not emulate it yet; see {LIMITATIONS}",
                call="",
            )
            error.name, error.obj = name, module
            raise error
        raise AttributeError(f"module {module!r} has no attribute {name!r}", name=name, obj=module)

    return __getattr__

"""Say so when a kernel uses an API the asc-devkit documents but ascreg does not have yet.

``GmAlloc`` (documented, not emulated) raises :class:`~ascreg.errors.MissingApiError`, an
``AttributeError`` that names the API and points to the limitations page, instead of Python's
bare ``module 'ascreg.basic' has no attribute 'GmAlloc'``; the name of a page that
documents a family of functions says which. The documented names come from
``ascreg/_data/documented_names.txt``, written once from the asc-devkit documents by
``tools/gen_documented_names.py``.

Examples
--------
>>> from ascreg import Reg, c_api
>>> c_api.asc_transto5hd
Traceback (most recent call last):
...
ascreg.errors.MissingApiError: asc_transto5hd is the name of an asc-devkit page, not a function: it documents asc_transto5hd_b32, asc_transto5hd_b16, asc_transto5hd_b8, asc_transto5hd_b32_sync, asc_transto5hd_b16_sync, asc_transto5hd_b8_sync
>>> Reg.NoSuchThing
Traceback (most recent call last):
...
AttributeError: module 'ascreg.reg' has no attribute 'NoSuchThing'
>>> import ascreg.basic
>>> ascreg.basic.GmAlloc
Traceback (most recent call last):
...
ascreg.errors.MissingApiError: GmAlloc is documented by the asc-devkit but ascreg does not emulate it yet; see docs/limitations.md
>>> import ascreg.c_api
>>> ascreg.c_api.asc_repeat_reduce_sum
Traceback (most recent call last):
...
ascreg.errors.MissingApiError: asc_repeat_reduce_sum is documented by the asc-devkit for other Ascend products, but the Ascend 950 (dav-3510), which ascreg emulates, does not support it
>>> ascreg.c_api.asc_create_mask
Traceback (most recent call last):
...
ascreg.errors.MissingApiError: asc_create_mask is the name of an asc-devkit page, not a function: it documents asc_create_mask_b8, asc_create_mask_b16, asc_create_mask_b32
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ascreg.errors import MissingApiError

LIMITATIONS = "docs/limitations.md"
"""The page that lists what ascreg does not emulate."""
NOT_ON_950 = "not-on-950"
"""The flag of a documented name the Ascend 950 (dav-3510, what ascreg emulates) lacks."""
FAMILY = "family="
"""The flag of a C API page named after the functions it declares (``asc_create_mask``)."""
SPELLING = {"reg": "Reg.{}", "c_api": "{}", "simt": "{}", "basic": "{}"}
"""How each surface's names are written in a message."""


@functools.cache
def _lines() -> tuple[tuple[str, ...], ...]:
    from importlib import resources  # (only when a missing name is looked up)

    text = (resources.files("ascreg") / "_data" / "documented_names.txt").read_text()
    return tuple(tuple(line.split()) for line in text.splitlines())


@functools.cache
def documented_names() -> dict[str, frozenset[str]]:
    """Return the asc-devkit's documented API names per surface (``reg``, ``c_api``, ``simt``, ``basic``).

    A basic-API member function documented on its class's page is ``Class.Member``
    (``TQue.EnQue``).

    Examples
    --------
    >>> "asc_add" in documented_names()["c_api"], sorted(documented_names())
    (True, ['basic', 'c_api', 'reg', 'simt'])
    >>> "TQue.EnQue" in documented_names()["basic"]
    True
    """
    names: dict[str, set[str]] = {}
    for surface, name, *_ in _lines():
        names.setdefault(surface, set()).add(name)
    return {surface: frozenset(found) for surface, found in names.items()}


@functools.cache
def not_on_950() -> frozenset[tuple[str, str]]:
    """Return the ``(surface, name)`` pairs whose pages say the Ascend 950 does not support them.

    Examples
    --------
    >>> ("c_api", "asc_repeat_reduce_sum") in not_on_950(), ("c_api", "asc_add") in not_on_950()
    (True, False)
    """
    return frozenset((surface, name) for surface, name, *flags in _lines() if NOT_ON_950 in flags)


@functools.cache
def families() -> dict[tuple[str, str], tuple[str, ...]]:
    """Return the documented page names that are no function, each with the functions it declares.

    ``asc_create_mask.md`` documents ``asc_create_mask_b8``, ``_b16`` and ``_b32``: the page's
    name is no C function (a kernel calls one of its members).

    Examples
    --------
    >>> families()["c_api", "asc_create_mask"]
    ('asc_create_mask_b8', 'asc_create_mask_b16', 'asc_create_mask_b32')
    """
    found = {
        (surface, name): tuple(flag.removeprefix(FAMILY).split(","))
        for surface, name, *flags in _lines()
        for flag in flags
        if flag.startswith(FAMILY)
    }
    elsewhere = not_on_950()  # a page of the same name for other products adds its functions
    return {
        (surface, name): tuple(m for m in members if (surface, m) not in elsewhere) or members
        for (surface, name), members in found.items()
    }


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
        members = families().get((surface, name))
        if members is not None:
            error = MissingApiError(
                f"{SPELLING[surface].format(name)} is the name of an asc-devkit page, not a "
                f"function: it documents {', '.join(members)}",
                call="",
            )
            error.name, error.obj = name, module
            raise error
        if name in documented_names().get(surface, ()):
            spelled = SPELLING[surface].format(name)
            reason = (
                "for other Ascend products, but the Ascend 950 (dav-3510), which ascreg "
                "emulates, does not support it"
                if (surface, name) in not_on_950()
                else f"but ascreg does not emulate it yet; see {LIMITATIONS}"
            )
            error = MissingApiError(f"{spelled} is documented by the asc-devkit {reason}", call="")
            error.name, error.obj = name, module
            raise error
        raise AttributeError(f"module {module!r} has no attribute {name!r}", name=name, obj=module)

    return __getattr__

"""Every public name is documented: a docstring with a runnable Examples section, and a page.

The API reference is generated from the same walk (``docs/_ext/ascreg_api.py``), so this test
checks both halves without building the docs: the documented modules cover every public module
that exists, the plan has a page for every public name, and every name's docstring (the
attribute docstring for constants) has an ``Examples`` section with at least one ``>>>`` line.

Decision: a module-level *constant* (an int, a dict, an enum member re-exported as ``PIPE_V``)
needs a docstring (its attribute docstring, or its enum class's docstring) but not an example
of its own; classes, functions and op instances need an ``Examples`` section.

There is no list of known gaps: a public name without its docstring fails this test.
"""

from __future__ import annotations

import enum
import importlib
import importlib.util
import inspect

import pytest

from docs_api import EXT, api

MODULES = {module.name: module for module in api.plan()}


def _exists(path: str) -> bool:
    try:
        importlib.import_module(path)
    except ModuleNotFoundError:
        return False
    return True


def test_documented_modules_cover_the_public_modules() -> None:
    paths = {documented: path for documented, path, _ in api.API_MODULES}
    for name in api.COVERED_MODULES:
        assert name in paths, f"{name} is missing from API_MODULES in {EXT}"
        if _exists(paths[name]):
            assert name in MODULES, f"{name} exists but the API reference skips it"


def _covered_pages() -> list[object]:
    return [page for name in api.COVERED_MODULES if name in MODULES for page in MODULES[name].pages]


def test_no_public_name_is_exported_twice() -> None:
    """A name twice in ``__all__`` gets two API pages and breaks the docs toctree."""
    for name in api.COVERED_MODULES:
        if name in MODULES:
            names = list(getattr(MODULES[name].obj, "__all__", ()))
            twice = sorted({n for n in names if names.count(n) > 1})
            assert not twice, f"{name}.__all__ lists {twice} more than once"


def test_every_public_name_has_a_page() -> None:
    for name in api.COVERED_MODULES:
        if name not in MODULES:
            continue
        module = MODULES[name]
        documented = {page.name for page in module.pages}
        missing = sorted(set(api.public_names(module.obj)) - documented)
        assert not missing, f"{name}: no API page for {missing}"
        for page in module.pages:
            assert api.page_rst(page).strip(), f"{page.fullname}: empty page"


@pytest.mark.parametrize("page", _covered_pages(), ids=lambda page: page.fullname)
def test_public_name_has_docstring_with_examples(page: object) -> None:
    if page.kind == "alias":  # documented (and checked) where it first appears
        return
    doc = page.doc
    if page.kind == "data":
        if not doc and isinstance(page.obj, enum.Enum):
            doc = inspect.getdoc(type(page.obj)) or ""
        assert doc.strip(), f"{page.fullname}: the constant has no (attribute) docstring"
        return
    assert doc.strip(), f"{page.fullname} has no docstring"
    assert api.has_examples(doc), (
        f"{page.fullname}: the docstring has no 'Examples' section with a '>>>' example"
    )

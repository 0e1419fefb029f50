"""Every op row of ``ascreg._spec.SPECS`` has a reference test and a docs entry.

*Reference test*: a test that checks the op's results against a scalar reference
(``tests/reference/``) or a C++ golden (``tests/cpp/``) declares the rows it covers with the
``rows`` marker, next to the test itself::

    @pytest.mark.rows("Reg.ShiftRight", "Reg.ShiftLeft")
    def test_vector_shift(...): ...

Only such tests carry the marker: a test that compares a front end with the core function it
calls, or only checks errors, covers no row. The marks are read by importing the test modules
that use the marker (nothing runs), so a row counts as covered whichever tests a run selects.

*Docs entry*: the row's public object exists on its surface (``Reg.X`` -> ``ascreg.Reg.X``,
C API rows -> ``ascreg.c_api``, SIMT rows -> ``ascreg.simt``, ``basic.X`` -> ``ascreg.basic.X``),
has a docstring with an
``Examples`` section, and has a page in the API reference that ``docs/_ext/ascreg_api.py``
generates, showing this row's dtype table.

:data:`KNOWN_GAPS` lists the rows still without a reference test. It may only shrink: the test
fails when a listed row is covered after all, or is not a row.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ascreg._spec import BASIC_NAMES, C_API_NAMES, SIMT_NAMES, SPECS
from docs_api import api

TESTS = Path(__file__).resolve().parents[1]
MARKER = "rows"

KNOWN_GAPS: frozenset[str] = frozenset()
"""Rows with no reference test yet (each entry says why it is hard); this set must shrink."""


def _import(path: Path) -> ModuleType:
    """The test module at *path*: the copy pytest imported already, else a fresh import."""
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) == str(path):
            return module
    name = "row_coverage." + ".".join(path.relative_to(TESTS).with_suffix("").parts)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _marks(obj: Any) -> list[Any]:
    return [mark for mark in getattr(obj, "pytestmark", []) if mark.name == MARKER]


def declared_rows() -> dict[str, list[str]]:
    """Row name -> the tests (``path::function``) whose ``rows`` marker names it."""
    found: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        if path == Path(__file__).resolve() or f"mark.{MARKER}(" not in path.read_text("utf-8"):
            continue
        module = _import(path)
        where = path.relative_to(TESTS).as_posix()
        for mark in _marks(module):
            for row in mark.args:
                found.setdefault(row, []).append(where)
        for name, obj in vars(module).items():
            if name.startswith("test"):
                for mark in _marks(obj):
                    for row in mark.args:
                        found.setdefault(row, []).append(f"{where}::{name}")
    return found


DECLARED = declared_rows()


def test_declared_names_are_rows() -> None:
    unknown = {row: tests for row, tests in DECLARED.items() if row not in SPECS}
    assert not unknown, f"rows markers name rows that ascreg._spec.SPECS does not have: {unknown}"


def test_every_row_has_a_reference_test() -> None:
    missing = sorted(set(SPECS) - set(DECLARED) - KNOWN_GAPS)
    assert not missing, (
        f"no test compares these rows against a scalar reference or a C++ golden: {missing}; "
        "write one (tests/reference/ holds the references) and mark it "
        "@pytest.mark.rows(...), or, only if that is hard, add the row to KNOWN_GAPS with why"
    )


def test_known_gaps_only_shrink() -> None:
    stale = sorted(KNOWN_GAPS & set(DECLARED))
    assert not stale, f"covered now: remove {stale} from KNOWN_GAPS"
    unknown = sorted(KNOWN_GAPS - set(SPECS))
    assert not unknown, f"not rows of ascreg._spec.SPECS: remove {unknown} from KNOWN_GAPS"


def surface(row: str) -> tuple[str, str]:
    """(documented module, public name) of a row: where a user finds it and the docs list it."""
    if row.startswith("Reg."):
        return "ascreg.Reg", row.removeprefix("Reg.")
    if row in C_API_NAMES:
        return "ascreg.c_api", SPECS[row].spelling
    if row in SIMT_NAMES:
        return "ascreg.simt", SPECS[row].spelling
    if row in BASIC_NAMES:
        return "ascreg.basic", SPECS[row].spelling
    raise AssertionError(f"{row}: neither a Reg row nor in C_API_NAMES / SIMT_NAMES / BASIC_NAMES")


PAGES = {page.fullname: page for module in api.plan() for page in module.pages}


@pytest.mark.parametrize("row", sorted(SPECS))
def test_row_has_a_docs_entry(row: str) -> None:
    module, name = surface(row)
    page = PAGES.get(f"{module}.{name}")
    assert page is not None, f"{row}: {module}.{name} is not public, so the API reference skips it"
    if page.kind == "alias":  # documented in full where the object first appears
        page = PAGES[page.canonical]
    assert page.doc.strip(), f"{row}: {page.fullname} has no docstring"
    assert api.has_examples(page.doc), f"{row}: the docstring of {page.fullname} has no Examples"
    assert page.spec is SPECS[row], f"{row}: the page {page.fullname} does not show this row"

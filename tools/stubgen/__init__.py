"""The stub generator: typing stubs and type tests from the op table's rows, one renderer per surface.

* :mod:`stubgen.reg`, :mod:`stubgen.c_api`, :mod:`stubgen.simt`, :mod:`stubgen.basic` render
  ``stubs/ascreg/<surface>/``.
* :mod:`stubgen.typetests_reg`, ``typetests_c_api``, ``typetests_simt``, ``typetests_basic`` render
  ``tests/typing/generated/{accept,reject}_<surface>.py``.
* :mod:`stubgen.enums` renders the stubs of modules whose names are enum members made globals.
* :mod:`stubgen.shared` renders ``stubs/ascreg/_typing.pyi``, the aliases the stub modules share.
* :mod:`stubgen.common` holds what they share.

Every per-op fact comes from ``ascreg._spec.SPECS`` (each row's dtypes and its ``shape``); the
renderers only add each module's boilerplate (imports and non-op declarations).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from ascreg._spec import SPECS, BasicShape, CShape, RegShape, SimtShape
from stubgen.basic import render_basic_module
from stubgen.c_api import render_c_module
from stubgen.common import ROOT, stub_modules, surface_rows
from stubgen.enums import ENUM_GLOBAL_MODULES, render_enum_globals
from stubgen.exports import EXPORT_FILES, STAR_MODULES, render_exports, render_star_tests
from stubgen.header import HEADER, render_header
from stubgen.reg import render_module
from stubgen.shared import render_shared_module
from stubgen.simt import render_simt_module
from stubgen.typetests_basic import render_basic_tests
from stubgen.typetests_c_api import render_c_tests
from stubgen.typetests_reg import render_tests
from stubgen.typetests_simt import render_simt_tests

SHAPE_CLASSES = {"reg": RegShape, "c_api": CShape, "simt": SimtShape, "basic": BasicShape}
"""The shape class each surface's rows must carry."""


def outputs() -> dict[Path, str]:
    """Every generated file and its content."""
    stubs = ROOT / "stubs" / "ascreg"
    gen = ROOT / "tests" / "typing" / "generated"
    files: dict[Path, str] = {stubs / "_typing.pyi": render_shared_module()}
    for module in stub_modules("reg"):
        files[stubs / f"{module}.pyi"] = render_module(module)
    for module in stub_modules("c_api"):
        files[stubs / f"{module}.pyi"] = render_c_module(module)
    files[gen / "accept_reg.py"] = render_tests("accept", surface_rows("reg"))
    files[gen / "reject_reg.py"] = render_tests("reject", surface_rows("reg"))
    files[gen / "accept_c_api.py"] = render_c_tests("accept")
    files[gen / "reject_c_api.py"] = render_c_tests("reject")
    for module in stub_modules("simt"):
        files[stubs / f"{module}.pyi"] = render_simt_module(module)
    files[gen / "accept_simt.py"] = render_simt_tests("accept")
    files[gen / "reject_simt.py"] = render_simt_tests("reject")
    for module in stub_modules("basic"):
        files[stubs / f"{module}.pyi"] = render_basic_module(module)
    files[gen / "accept_basic.py"] = render_basic_tests("accept")
    files[gen / "reject_basic.py"] = render_basic_tests("reject")
    for module in ENUM_GLOBAL_MODULES:
        path = stubs.joinpath(*module.split(".")[1:]).with_suffix(".pyi")
        files[path] = render_enum_globals(module)
    files[HEADER] = render_header()
    for source in EXPORT_FILES:
        files[ROOT / source] = render_exports(ROOT / source)
    for module in STAR_MODULES:
        files[gen / f"accept_star_{module.replace('.', '_')}.py"] = render_star_tests(module)
    return files


def missing_shapes() -> list[str]:
    """Table rows without a shape of their surface (their op would be untyped)."""
    return [
        name
        for name, row in SPECS.items()
        if not isinstance(row.shape, SHAPE_CLASSES.get(row.surface, type(None)))
    ]


def check(files: dict[Path, str]) -> int:
    """Print a diff of every stale file in *files*; return 1 when one is stale."""
    stale = 0
    for path, text in files.items():
        old = path.read_text() if path.exists() else ""
        if old != text:
            stale += 1
            rel = path.relative_to(ROOT)
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), f"a/{rel}", f"b/{rel}"
                )
            )
    if stale:
        print(f"\n{stale} generated file(s) are stale: run `nox -s stubs`", file=sys.stderr)
    return 1 if stale else 0

"""Generate the typing stubs (stubs/) and the exhaustive type tests from the op table.

Every row of ``ascreg._spec.SPECS`` says which dtype combinations its op accepts and, in its
``shape``, how the op is called (its forms and subscripts). The renderers in ``tools/stubgen/``
(one per surface, plus the type-test generators) turn every row into ``@overload`` declarations
(one per legal combination, in table order, each tagged with its combination) in PEP 561 stubs
for the op modules, and into type-test files that call every legal combination (must
type-check) and every illegal one (each line must be rejected).

Usage::

    python tools/gen_stubs.py           # (re)write stubs/ and tests/typing/generated/
    python tools/gen_stubs.py --check   # print a diff and exit 1 when a file is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
for _path in (TOOLS.parent / "src", TOOLS):  # run from a checkout without installing
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from stubgen import check, missing_shapes, outputs  # noqa: E402
from stubgen.c_api import c_applies  # noqa: E402
from stubgen.common import ROOT, combo_text, surface_rows  # noqa: E402

from ascreg._spec import SPECS  # noqa: E402

__all__ = ["C_SHAPES", "SHAPES", "SIMT_SHAPES", "SPECS", "c_applies", "check", "combo_text",
           "missing_shapes", "outputs"]  # fmt: skip


class RowShape:
    """A row's shape that also answers ``.spec`` (the row's name), as tests/test_stubs.py reads it."""

    def __init__(self, name: str) -> None:
        self.spec = name

    def __getattr__(self, attr: str) -> object:
        return getattr(SPECS[self.spec].shape, attr)


SHAPES = tuple(RowShape(row.name) for row in surface_rows("reg"))
C_SHAPES = tuple(RowShape(row.name) for row in surface_rows("c_api"))
SIMT_SHAPES = tuple(RowShape(row.name) for row in surface_rows("simt"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="diff against the files; exit 1")
    args = parser.parse_args(argv)
    files = outputs()
    if args.check:
        return check(files)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

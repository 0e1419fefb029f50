"""``python -m ascreg.emit module:function [-o file.asc]``: print a kernel's Ascend C.

``module`` is an importable module (``ascreg.examples.select_vf``) or a path to a ``.py`` file;
``function`` is a kernel or VF in it (several: ``module:f,g``; none: every kernel and VF of the
module). The run that shows the C++ types is the module's ``main()`` unless ``--run
module:callable`` names another (``--no-run``: types from the source only).
``--header-path`` prints where ``ascreg_decl.h`` is, for ``g++ -include``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

from ascreg.emit import EmitError, emit, header_path, kernels_of


def _module(name: str) -> types.ModuleType:
    if name.endswith(".py") or "/" in name:
        path = Path(name).resolve()
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise SystemExit(f"cannot import {name}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(name)


def _target(text: str) -> tuple[types.ModuleType, list[Any]]:
    module_name, _, names = text.rpartition(":") if ":" in text else (text, "", "")
    module = _module(module_name)
    if not names:
        return module, kernels_of(module)
    return module, [getattr(module, n) for n in names.split(",")]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m ascreg.emit", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "target", nargs="?", help="module:function (or module, or file.py:function)"
    )
    parser.add_argument("-o", "--output", help="write the C++ here instead of standard output")
    parser.add_argument("--run", help="module:callable that runs the kernel (default: module:main)")
    parser.add_argument("--no-run", action="store_true", help="type from the source only")
    parser.add_argument(
        "--header-path", action="store_true", help="print the path of ascreg_decl.h"
    )
    args = parser.parse_args(argv)
    if args.header_path:
        print(header_path())
        return 0
    if not args.target:
        parser.error("give module:function (or --header-path)")
    module, functions = _target(args.target)
    run = None
    if args.run:
        run_module, _, run_name = args.run.rpartition(":")
        run = getattr(_module(run_module), run_name)
    elif not args.no_run:
        run = getattr(module, "main", None)
    try:
        if run is not None:
            stdout, sys.stdout = sys.stdout, sys.stderr  # the run's prints do not mix with the C++
            try:
                text = emit(*functions, run=run)
            finally:
                sys.stdout = stdout
        else:
            text = emit(*functions)
    except EmitError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

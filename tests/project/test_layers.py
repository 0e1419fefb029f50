"""tools/layers.py: the import graph of src/ascreg has no cycle and no layer violation.

The script is also run by the lint session; these tests check that it finds what it must find
(function-level imports, relative imports, submodules named by ``from pkg import name``) on a
small package written to a temporary directory.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[2] / "tools" / "layers.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ascreg_layers_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


layers = _load_tool()


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "ascreg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "ascreg"


def test_the_source_tree_is_clean() -> None:
    assert layers.problems(layers.SOURCE) == []
    assert layers.main() == 0


def test_a_function_level_import_closes_a_cycle_and_breaks_a_layer(tmp_path: Path) -> None:
    source = _package(
        tmp_path,
        {
            "__init__.py": "",
            "machine/__init__.py": "",
            "machine/kernel.py": "def run():\n    import ascreg.simt\n",
            "simt/__init__.py": "from .engine import go\n",
            "simt/engine.py": "from ascreg.machine import kernel\n",
        },
    )
    found = layers.problems(source)
    assert any(line.startswith("cycle of 3 modules") for line in found), found
    assert (
        "ascreg.machine.kernel -> ascreg.simt: machine layer imports the higher front end layer"
        in found
    )


def test_front_ends_may_not_import_each_other(tmp_path: Path) -> None:
    source = _package(
        tmp_path,
        {
            "__init__.py": "",
            "reg/__init__.py": "",
            "reg/datamove.py": "",
            "c_api/__init__.py": "",
            "c_api/addr.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ascreg.reg import datamove\n",
            "extra.py": "",
        },
    )
    found = layers.problems(source)
    assert (
        "ascreg.c_api.addr -> ascreg.reg.datamove: one front end (ascreg.c_api) imports another (ascreg.reg)"
        in found
    )
    assert "ascreg.extra: in no layer (add it to LAYERS)" in found


def test_the_root_package_counts_only_when_imported_by_name(tmp_path: Path) -> None:
    source = _package(
        tmp_path,
        {
            "__init__.py": "",
            "errors.py": "",
            "machine/__init__.py": "",
            "machine/memory.py": "import ascreg.errors\nfrom ascreg import errors\n",
            "machine/ref.py": "from ascreg import Ref\n",
        },
    )
    assert layers.problems(source) == [
        "ascreg.machine.ref -> ascreg: machine layer imports the higher top layer"
    ]


def test_only_the_engine_imports_the_engine(tmp_path: Path) -> None:
    source = _package(
        tmp_path,
        {
            "__init__.py": "",
            "engine/__init__.py": "from ascreg.engine import loops\n",
            "engine/loops.py": "from ascreg.machine import kernel\n",
            "machine/__init__.py": "",
            "machine/kernel.py": "",
            "reg/__init__.py": "def run():\n    from ascreg.engine import loops\n",
        },
    )
    found = layers.problems(source)
    assert (
        "ascreg.reg -> ascreg.engine.loops: imports the lazy ascreg.engine "
        "(reach it through ascreg.machine.hook)" in found
    ), found
    assert not any(line.startswith("ascreg.engine") for line in found), found


def test_import_ascreg_loads_no_engine_module() -> None:
    import subprocess

    script = (
        "import sys, ascreg; print(sorted(m for m in sys.modules if m.startswith('ascreg.engine')))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_ascreg_is_lazy() -> None:
    """``import ascreg`` loads no front end, no op table, no host runtime and no SIMT engine;
    ``Reg``, ``MicroAPI`` and ``acl`` are made on first use."""
    import subprocess

    script = "\n".join(
        (
            "import sys, ascreg",
            "heavy = ('ascreg.reg', 'ascreg.acl', 'ascreg._spec', 'ascreg._frontend',",
            "         'ascreg.core', 'ascreg.engine', 'ascreg.machine.simt')",
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))",
            "from ascreg import Reg, acl",
            "print(ascreg.MicroAPI is Reg is sys.modules['ascreg.reg'], acl.__name__)",
            "print({'Reg', 'MicroAPI', 'acl'} <= set(dir(ascreg)))",
            "try:",
            "    ascreg.NoSuchName",
            "except AttributeError as exc:",
            "    print(exc)",
        )
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "[]",
        "True ascreg.acl",
        "True",
        "module 'ascreg' has no attribute 'NoSuchName'",
    ], out.stdout + out.stderr

"""The docs' API generator (``docs/_ext/ascreg_api.py``), loaded once for the tests that read its plan.

The extension is plain Python apart from its Sphinx ``setup``, so the coverage tests call
:func:`plan` and :func:`has_examples` without building the docs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXT = Path(__file__).resolve().parents[1] / "docs" / "_ext" / "ascreg_api.py"
"""Path of the Sphinx extension that generates the API pages."""


def _load_ext() -> ModuleType:
    name = "ascreg_docs_api"
    if name in sys.modules:
        return sys.modules[name]
    if str(EXT.parent) not in sys.path:  # its sibling module ascreg_signatures
        sys.path.insert(0, str(EXT.parent))
    spec = importlib.util.spec_from_file_location(name, EXT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


api = _load_ext()
"""The loaded extension module (``api.plan()``, ``api.has_examples(doc)``, ``api.COVERED_MODULES``)."""

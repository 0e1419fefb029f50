"""The documented star imports: every __all__ name exists once (a duplicate breaks the docs toctree)."""

from __future__ import annotations

import collections
import importlib

import pytest

MODULES = ("ascreg", "ascreg.basic", "ascreg.c_api", "ascreg.reg", "ascreg.simt")


@pytest.mark.parametrize("name", MODULES)
def test_all_lists_each_name_once_and_it_exists(name: str) -> None:
    module = importlib.import_module(name)
    twice = [n for n, k in collections.Counter(module.__all__).items() if k > 1]
    assert twice == [], f"{name}.__all__ lists these twice: {twice}"
    assert [n for n in module.__all__ if not hasattr(module, n)] == []

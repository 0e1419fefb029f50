"""A precompiled ascreg_decl.h for the tests that compile emitted C++ (the header is large)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ascreg.emit import header_path


@pytest.fixture(scope="session")
def declarations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The header to ``-include``: a copy with its precompiled form beside it when g++ makes one.

    g++ uses ``<header>.gch`` for ``-include <header>`` when the flags match (``-std=c++17``),
    so each emitted file compiles without parsing the header again.
    """
    copy = tmp_path_factory.mktemp("pch") / header_path().name
    shutil.copyfile(header_path(), copy)
    compiler = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("g++")
    if compiler is not None:
        subprocess.run(
            [compiler, "-std=c++17", "-x", "c++-header", str(copy), "-o", str(copy) + ".gch"],
            capture_output=True,
            check=False,
        )
    return copy

"""Shared test setup: hypothesis profiles, the import path of the shared helpers, the ``rows``
marker, the C++ golden program.

The helpers shared by several test folders live at ``tests/`` (``strategies``, ``helpers``,
``docs_api`` and the ``reference`` package); this file puts ``tests/`` on ``sys.path`` so every
test module imports them by their plain names under ``--import-mode=importlib``.

Profiles (``HYPOTHESIS_PROFILE`` picks one; ``ci`` is the default):

* ``ci``: moderate example counts so the whole suite stays fast on a 2-core machine;
* ``thorough``: many more examples, for a local soak run;
* ``dev``: a handful of examples, for quick iteration.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from ascreg import UnifiedBuffer

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # lets test modules `import reference` under importlib mode
    sys.path.insert(0, str(TESTS))

_common = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
# Under CI (the CI variable is set) the examples are derandomised, so a run is reproducible and
# a landing never hinges on the luck of the draw; locally each run explores new examples.
settings.register_profile("ci", max_examples=50, derandomize=bool(os.environ.get("CI")), **_common)
settings.register_profile("dev", max_examples=10, **_common)
settings.register_profile("thorough", max_examples=1000, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# On a failure hypothesis imports its patch writer, which may pull in libcst -> mypy_extensions;
# under `filterwarnings = error` that import's DeprecationWarning would replace the failure
# report with an INTERNALERROR. Import it once here, quietly.
with warnings.catch_warnings(), contextlib.suppress(ImportError):
    warnings.simplefilter("ignore", DeprecationWarning)
    import hypothesis.extra._patching  # noqa: F401


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``rows`` marker (``--strict-markers`` rejects unknown ones)."""
    config.addinivalue_line(
        "markers",
        "rows(*names): the ascreg._spec rows this test checks against a scalar reference or a "
        "C++ golden; tests/project/test_row_coverage.py reads them",
    )


def compile_cpp(
    tmp_path_factory: pytest.TempPathFactory, source_name: str
) -> Callable[[list[str]], list[str]]:
    """Compile tests/cpp/<source_name> and return ``run(lines) -> output lines``.

    The program reads one query per input line and prints one answer per line. Skips only when
    no C++ compiler is installed.
    """
    compiler = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed: the C++ reference checks need a C++17 compiler")
    exe = tmp_path_factory.mktemp("cpp") / Path(source_name).stem
    source = TESTS / "cpp" / source_name
    build = subprocess.run(
        [compiler, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, f"compiling {source} failed:\n{build.stderr}"

    def run(lines: list[str]) -> list[str]:
        done = subprocess.run(
            [str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
        )
        out = done.stdout.splitlines()
        assert len(out) == len(lines), done.stderr
        return out

    return run


@pytest.fixture(scope="session")
def cpp_golden(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], list[str]]:
    """Compile tests/cpp/golden.cpp once and return ``run(lines) -> output lines``.

    The program reads one query per input line and prints one answer per line (see the
    source for the query format). Skips only when no C++ compiler is installed.
    """
    return compile_cpp(tmp_path_factory, "golden.cpp")


@pytest.fixture(scope="session")
def cpp_scalar_bits(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], list[str]]:
    """Compile tests/cpp/scalar_bits.cpp once (the C API scalar bit functions' C++ reference)."""
    return compile_cpp(tmp_path_factory, "scalar_bits.cpp")


@pytest.fixture
def ub() -> UnifiedBuffer:
    """A fresh, empty Unified Buffer."""
    return UnifiedBuffer()

"""Every check of the project; `nox` runs the default sessions (what CI runs)."""

from __future__ import annotations

import os

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["lint", "mypy", "tests", "docs", "typing", "generated"]

PYPROJECT = nox.project.load_toml("pyproject.toml")


def install_group(session: nox.Session, *groups: str) -> None:
    for group in groups:
        session.install(*nox.project.dependency_groups(PYPROJECT, group))


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check; import cycles and layer violations (tools/layers.py)."""
    install_group(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("python", "tools/layers.py")


@nox.session
def mypy(session: nox.Session) -> None:
    """mypy --strict on the implementation (src/)."""
    install_group(session, "typing")
    session.install(".")
    session.run("mypy", "--strict", "src/ascreg")


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, property and C++-reference tests, doctests, and the bundled examples.

    The tests run on every core (pytest-xdist, ``-n auto``); ``nox -s tests -- -n 0 ...``
    runs them in one process (for ``--pdb`` or ``-s``).
    """
    install_group(session, "tests")
    session.install(".")
    session.run("pytest", "-n", "auto", *session.posargs)
    session.run("python", "-m", "ascreg.examples")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the Sphinx site (nitpicky, warnings are errors) and run every doctest in it."""
    install_group(session, "docs")
    session.install(".")
    # One doctree cache for both builders: the doctest build reuses what the html build read.
    common = ["-n", "-W", "--keep-going", "-q", "-j", "auto", "-d", "docs/_build/doctrees", "docs"]
    session.run("sphinx-build", "-b", "html", *common, "docs/_build/html")
    session.run("sphinx-build", "-b", "doctest", *common, "docs/_build/doctest")


@nox.session
def benchmarks(session: nox.Session) -> None:
    """Speed ratios against plain numpy (not part of the default run)."""
    session.install(".")
    session.run("python", "-m", "benchmarks", *session.posargs)


TORCH = os.environ.get("ASCREG_TORCH", "torch==2.13.0+cpu")
"""The torch the `torch` session installs: a CPU build (the default build of torch on Linux pulls
in several GB of CUDA libraries); set ASCREG_TORCH to another requirement where that wheel is
not at hand."""


@nox.session
def torch(session: nox.Session) -> None:
    """The host-tensor tests with torch installed (not part of the default run)."""
    install_group(session, "tests")
    session.install(".", TORCH)
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/acl", *session.posargs)


@nox.session(name="typing")
def typing_(session: nox.Session) -> None:
    """Type tests: stubtest, mypy and pyright on tests/typing/ against a freshly built wheel."""
    install_group(session, "typing")
    wheel_dir = f"{session.create_tmp()}/wheel"
    session.run("python", "-c", f"import shutil; shutil.rmtree({wheel_dir!r}, True)")
    session.run("python", "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheel_dir, ".")
    (wheel,) = __import__("glob").glob(f"{wheel_dir}/ascreg-*.whl")
    session.install(wheel)  # dependencies
    session.install("--force-reinstall", "--no-deps", wheel)  # this build, not a cached one
    session.run("python", "tests/typing/run.py", "--wheel", wheel)


@nox.session
def stubs(session: nox.Session) -> None:
    """Regenerate stubs/ and tests/typing/generated/ from the rows of ascreg._spec."""
    session.install(".")
    session.run("python", "tools/gen_stubs.py")


@nox.session
def generated(session: nox.Session) -> None:
    """Fail (with a diff) when a generated file is stale: run `nox -s stubs` to fix."""
    session.install(".")
    session.run("python", "tools/gen_stubs.py", "--check")

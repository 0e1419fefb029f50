"""Run the type tests against the *installed* ascreg (a wheel), as a user's checker sees it.

1. The installed package must be a real install (not the source tree) with the stubs inside.
2. mypy's stubtest compares the stubs with the runtime (allowlist: stubtest-allowlist.txt).
3. mypy (pinned, strict, warn_unused_ignores) checks the accept and reject files.
4. pyright (pinned, strict, reportUnnecessaryTypeIgnoreComment) checks the same files (in the
   background while 2 and 3 run: it takes the longest).
5. Both must fail on canary.py, a legal call marked as rejected: what a reject line looks like
   once its rejection has gone missing from the stubs.

Usage (nox -s typing does all of this in a fresh venv)::

    python tests/typing/run.py [--wheel dist/ascreg-...whl]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STUBS = ROOT / "stubs"
FILES = [str(p) for p in sorted([*HERE.glob("generated/*.py"), *HERE.glob("cases/*.py")])]
CANARY = str(HERE / "canary.py")


def stub_modules() -> list[str]:
    """Dotted names of the modules that have a generated stub."""
    return [
        ".".join(p.relative_to(STUBS).with_suffix("").parts) for p in sorted(STUBS.rglob("*.pyi"))
    ]


def check_install(wheel: str | None) -> None:
    spec = importlib.util.find_spec("ascreg")
    assert spec is not None and spec.origin is not None, "ascreg is not installed"
    package = Path(spec.origin).parent
    if ROOT / "src" in package.parents or package.parent == ROOT / "src":
        sys.exit(f"ascreg is imported from the source tree ({package}); install the wheel")
    wanted = [p.relative_to(STUBS).as_posix() for p in STUBS.rglob("*.pyi")]
    missing = [w for w in wanted if not (package.parent / w).is_file()]
    if missing:
        sys.exit(f"the installed ascreg ({package}) lacks the stubs {missing}")
    if wheel:
        names = set(zipfile.ZipFile(wheel).namelist())
        absent = [w for w in wanted if w not in names]
        if absent:
            sys.exit(f"{wheel} does not ship {absent}")
        print(f"{wheel} ships {len(wanted)} stub file(s); installed at {package}")


def run(*cmd: str, cwd: Path) -> None:
    print("+", " ".join(cmd), flush=True)
    if subprocess.run(cmd, cwd=cwd).returncode:
        sys.exit(f"type tests failed: {cmd[2]} reported errors (see above)")


def start(*cmd: str, cwd: Path) -> subprocess.Popen[str]:
    """Start *cmd* in the background (its output kept for :func:`finish`)."""
    print("+", " ".join(cmd), "(in the background)", flush=True)
    return subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(process: subprocess.Popen[str]) -> None:
    """Wait for a :func:`start`-ed checker; print its output; exit if it reported errors."""
    output, _ = process.communicate()
    print(output, end="", flush=True)
    if process.returncode:
        sys.exit(f"type tests failed: {process.args[2]} reported errors (see above)")


def run_canary(*cmd: str, cwd: Path, needle: str) -> None:
    """Run a checker on :data:`CANARY`; exit unless it fails and names the needless ignore."""
    print("+", " ".join(cmd), "(must fail)", flush=True)
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if not done.returncode or needle not in done.stdout:
        print(done.stdout, done.stderr, sep="\n")
        sys.exit(f"type tests failed: {cmd[2]} accepts a needless ignore ({needle} missing)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", help="the wheel that was installed (checked for the stubs)")
    args = parser.parse_args()
    check_install(args.wheel)
    with tempfile.TemporaryDirectory() as tmp:
        # Run outside the checkout so nothing resolves ascreg to src/.
        cwd = Path(tmp)
        pyright = [sys.executable, "-m", "pyright", "--project", str(HERE / "pyrightconfig.json")]
        pyright += ["--pythonpath", sys.executable]
        # pyright (the longest, about one core) runs while stubtest and mypy run in turn
        checking = start(*pyright, "--threads", *FILES, cwd=cwd)  # one checker thread per core
        try:
            run(
                sys.executable,
                "-m",
                "mypy.stubtest",
                *stub_modules(),
                "--mypy-config-file",
                str(HERE / "stubtest.ini"),
                "--allowlist",
                str(HERE / "stubtest-allowlist.txt"),
                cwd=cwd,
            )
            mypy = [sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy.ini")]
            mypy += ["--cache-dir", str(cwd / "mypy-cache")]
            run(*mypy, *FILES, cwd=cwd)
        except SystemExit:
            checking.kill()  # (a failed check ends the run: no checker left behind)
            raise
        finish(checking)
        run_canary(*mypy, CANARY, cwd=cwd, needle="[unused-ignore]")
        run_canary(*pyright, CANARY, cwd=cwd, needle="reportUnnecessaryTypeIgnoreComment")
    print(f"type tests passed: {len(FILES)} files, mypy + pyright + stubtest; the canary fails")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

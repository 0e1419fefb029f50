"""Write ``src/ascreg/_data/documented_names.txt``: the API names the asc-devkit documents.

Run once against a checkout (or bare clone) of the public asc-devkit repository; the result is
committed, so ascreg never needs the documents at run time. Only the names are kept (one
``<surface> <name>`` a line), taken from the documents' file names: a page per API, named after
it (``Exp.md``, ``连续对齐搬入（LoadAlign）.md``, ``asc_add.md``, ``__hgtx2-218.md``).

Usage::

    python tools/gen_documented_names.py /path/to/asc-devkit[.git]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

OUT = Path(__file__).resolve().parents[1] / "src" / "ascreg" / "_data" / "documented_names.txt"
SURFACES = {
    "reg": "docs/zh/api/SIMD-API/基础API/Reg矢量计算/",
    "c_api": "docs/zh/api/SIMD-API/C-API/",
    "simt": "docs/zh/api/SIMT-API/",
}
"""Surface -> the documents' folder whose pages each describe one API."""
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def page_name(path: str) -> str | None:
    """Return the API a page documents, from its file name (None for overview pages)."""
    stem = PurePosixPath(path).stem
    inner = re.search(r"（([^）]+)）", stem)  # "连续对齐搬入（LoadAlign）"
    name = re.sub(r"-\d+$", "", inner.group(1) if inner else stem)  # "__hgtx2-218"
    if not IDENTIFIER.fullmatch(name) or name in ("README",):
        return None
    return name


def list_files(repo: str) -> list[str]:
    """Every file of the newest commit of *repo* (a work tree or a bare repository)."""
    out = subprocess.run(
        ["git", "-C", repo, "-c", "core.quotepath=off", "ls-tree", "-r", "--name-only", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.splitlines()


def main(repo: str) -> None:
    files = [f for f in list_files(repo) if f.endswith(".md")]
    lines = sorted(
        {
            f"{surface} {name}"
            for surface, folder in SURFACES.items()
            for f in files
            if f.startswith(folder) and (name := page_name(f))
        }
    )
    OUT.write_text("".join(f"{line}\n" for line in lines))
    print(f"wrote {len(lines)} names to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])

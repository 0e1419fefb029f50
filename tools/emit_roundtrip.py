"""Round trip of the ported asc-devkit examples: Python port -> ascreg.emit -> C++ vs. the original.

For every asc-devkit example listed in docs/ported-examples.md (and the three seed examples),
this script runs the port under a recording, emits its kernels and VFs with ``ascreg.emit``,
compiles the result with ``g++ -std=c++17 -fsyntax-only -include ascreg_decl.h``, and compares
each emitted definition with the original's definition of the same name, token by token after
``ascreg.emit._tokens.normalise`` (whitespace, comments, fundamental type spellings, namespace
qualification, and the names the code chose). It writes:

* the table between the ``roundtrip`` markers of docs/emit.md;
* tests/emit/roundtrip.json: per example and definition, the normalised original's token count
  and digest (no original text), which tests/emit/test_roundtrip.py checks the seeds against.

The originals are read from the asc-devkit mirror (a bare git repository) and, for the seeds,
from the seed pages; nothing of them is committed. Usage::

    python tools/emit_roundtrip.py --devkit <asc-devkit.git> [--seeds <seed dir>] [--only name]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from ascreg.emit import EmitError, emit_program, header_path, kernels_of, record  # noqa: E402
from ascreg.emit._tokens import api_names, compare, definitions, digest, normalise  # noqa: E402

DOC = ROOT / "docs" / "emit.md"
DIGESTS = ROOT / "tests" / "emit" / "roundtrip.json"
START, END = "<!-- roundtrip:start -->", "<!-- roundtrip:end -->"

SEEDS = (
    # (name, port, sources: seed file or mirror path, tried in order)
    ("SelectVF (Reg `Select` page)", "src/ascreg/examples/select_vf.py",
     ["mirror:docs/zh/api/SIMD-API/基础API/Reg矢量计算/比较与选择/Select.md"]),
    ("`asc_shiftright` (C API page)", "src/ascreg/examples/asc_shiftright.py",
     ["seed:003_b810aaa2751fc1ea.txt"]),
    ("`KernelByte_perm` (`__byte_perm` page)", "src/ascreg/examples/byte_perm_simt.py",
     ["seed:000_0df2cf7ad44398f5.txt",
      "mirror:docs/zh/api/SIMT-API/数学函数/整型数学库函数/__byte_perm.md#2"]),
)  # fmt: skip


def ported_examples() -> list[tuple[str, str, list[str]]]:
    """(asc-devkit example, port, original paths) of every asc-devkit row of the ported list."""
    rows = []
    for line in (ROOT / "docs" / "ported-examples.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) < 2 or not cells[0].startswith("`examples/"):
            continue
        paths = re.findall(r"`([^`]+\.asc)`", cells[0])
        ports = re.findall(r"`([^`]+\.py)`", cells[1])
        if not paths or not ports:
            continue
        base = paths[0].rsplit("/", 1)[0]
        full = [p if p.startswith("examples/") else f"{base}/{p}" for p in paths]
        rows.append((full[0], ports[0], full))
    return rows


def read_source(source: str, devkit: Path | None, seeds: Path | None) -> str | None:
    """The text of one original: ``mirror:<path>[#n]`` (the n-th cpp block) or ``seed:<file>``."""
    kind, _, path = source.partition(":")
    if kind == "seed":
        file = seeds / path if seeds else None
        return file.read_text(encoding="utf-8") if file and file.is_file() else None
    if devkit is None:
        return None
    path, _, block = path.partition("#")
    done = subprocess.run(["git", "-C", str(devkit), "show", f"HEAD:{path}"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode:
        return None
    text = done.stdout
    if path.endswith(".md"):
        blocks = re.findall(r"```(?:cpp|c\+\+)?\n(.*?)```", text, re.DOTALL)
        if block:
            return blocks[int(block) - 1] if len(blocks) >= int(block) else None
        return "\n".join(blocks)
    return text


def load(port: str) -> Any:
    path = ROOT / port
    if port.startswith("src/"):
        return importlib.import_module(
            port.removeprefix("src/").removesuffix(".py").replace("/", ".")
        )
    spec = importlib.util.spec_from_file_location(f"roundtrip_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run_port(port: str, module: Any) -> Any:
    """Run the port under a recording: a bundled example's main(), a test module's tests."""
    import pytest

    with record(module) as seen, contextlib.redirect_stdout(io.StringIO()):
        if port.startswith("src/"):
            module.main()
        else:
            code = pytest.main([str(ROOT / port), "-q", "-x", "-p", "no:cacheprovider", "--no-header",
                                "--assert=plain", "-o", "addopts=--import-mode=importlib"])  # fmt: skip
            if code not in (0, 5):
                raise RuntimeError(f"the port's tests failed (pytest exit {code})")
    return seen


def compile_ok(text: str) -> tuple[bool, str]:
    compiler = shutil.which("g++")
    if compiler is None:
        return False, "no g++"
    with tempfile.NamedTemporaryFile("w", suffix=".asc", delete=False) as handle:
        handle.write(text)
    done = subprocess.run([compiler, "-std=c++17", "-fsyntax-only", "-include", str(header_path()),
                           "-x", "c++", handle.name], capture_output=True, text=True, check=False)  # fmt: skip
    Path(handle.name).unlink()
    first = next((line for line in done.stderr.splitlines() if "error" in line), "")
    return done.returncode == 0, first.split("error:", 1)[-1].strip()


def round_trip(name: str, port: str, sources: list[str], devkit: Path | None,
               seeds: Path | None, api: frozenset[str]) -> dict[str, Any]:  # fmt: skip
    """One row: emit, compile, compare."""
    row: dict[str, Any] = {"example": name, "port": port, "definitions": {}}
    originals: dict[str, list[str]] = {}
    found_any = False
    for source in sources:
        text = read_source(source, devkit, seeds)
        if text is None:
            continue
        found_any = True
        for key, value in definitions(text).items():
            originals.setdefault(key, value)
        if source.startswith("seed:") or "#" in source:
            break
    row["original"] = found_any
    try:
        module = load(port)
        recording = run_port(port, module)
        program = emit_program(kernels_of(module, recording), recording)
    except EmitError as error:
        row["error"] = str(error).replace(str(ROOT) + "/", "")
        return row
    except Exception as error:
        row["error"] = f"{type(error).__name__}: {error}"
        traceback.print_exc()
        return row
    text = program.text()
    row["compiles"], row["compile_error"] = compile_ok(text)
    emitted = definitions(text)
    matched = original_total = emitted_total = 0
    for key, toks in emitted.items():
        if key not in originals:
            continue
        a, b = normalise(originals[key], api), normalise(toks, api)
        same = compare(a, b)
        row["definitions"][key] = {"tokens": len(a), "digest": digest(a), "emitted": len(b),
                                   "matched": same, "exact": a == b}  # fmt: skip
        matched += same
        original_total += len(a)
        emitted_total += len(b)
    row["matched"], row["original_tokens"], row["emitted_tokens"] = (
        matched,
        original_total,
        emitted_total,
    )
    row["missing"] = sorted(k for k in emitted if k not in originals)
    return row


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| example | port | compiles | definitions compared | tokens (original / emitted) | match | exact |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        port = f"`{row['port']}`"
        if "error" in row:
            lines.append(
                f"| {row['example']} | {port} | — | emit stops: {_cell(row['error'])} | | | |"
            )
            continue
        compiled = "yes" if row["compiles"] else f"no: {_cell(row['compile_error'])}"
        defs = row["definitions"]
        names = ", ".join(f"`{k}`" for k in defs) or "none (no definition of the same name)"
        if not row["original"]:
            names = "original not available"
        total = row["original_tokens"] + row["emitted_tokens"]
        ratio = f"{100 * 2 * row['matched'] / total:.0f} %" if total else "—"
        exact = "yes" if defs and all(d["exact"] for d in defs.values()) else "no"
        lines.append(f"| {row['example']} | {port} | {compiled} | {names} | "
                     f"{row['original_tokens']} / {row['emitted_tokens']} | {ratio} | {exact} |")  # fmt: skip
    return "\n".join([*lines, "", summary(rows)])


def summary(rows: list[dict[str, Any]]) -> str:
    """One sentence of totals: rows, how many emit, compile and match exactly, the token match."""
    emitted = [row for row in rows if "error" not in row]
    compiled = sum(bool(row["compiles"]) for row in emitted)
    exact = sum(
        bool(row["definitions"]) and all(d["exact"] for d in row["definitions"].values())
        for row in emitted
    )
    matched = sum(row["matched"] for row in emitted)
    total = sum(row["original_tokens"] + row["emitted_tokens"] for row in emitted)
    share = f"{100 * 2 * matched / total:.1f} %" if total else "—"
    return (
        f"{len(rows)} examples: {len(emitted)} emit, {compiled} compile, {exact} match exactly; "
        f"{share} of the compared tokens match ({2 * matched} of {total})."
    )


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) < 160 else text[:157] + "..."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--devkit", type=Path, help="the asc-devkit repository (bare mirror or checkout)"
    )
    parser.add_argument("--seeds", type=Path, help="the directory of the seed pages")
    parser.add_argument(
        "--only",
        help="run only the rows whose example or port this regex finds (and update only their digests)",
    )
    parser.add_argument("--no-write", action="store_true", help="print the table; write nothing")
    args = parser.parse_args(argv)
    api = api_names(header_path().read_text(encoding="utf-8"))
    jobs = [(name, port, sources) for name, port, sources in SEEDS]
    jobs += [
        (f"`{example}`", port, [f"mirror:{p}" for p in paths])
        for example, port, paths in ported_examples()
    ]
    if args.only:
        jobs = [j for j in jobs if re.search(args.only, j[0]) or re.search(args.only, j[1])]
    rows = []
    for name, port, sources in jobs:
        print(f"{port} ...", file=sys.stderr, flush=True)
        rows.append(round_trip(name, port, sources, args.devkit, args.seeds, api))
    text = table(rows)
    print(text)
    if args.no_write:
        return 0
    if not args.only:
        page = DOC.read_text(encoding="utf-8")
        head, _, rest = page.partition(START)
        _, _, tail = rest.partition(END)
        DOC.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")
    record_rows = (
        json.loads(DIGESTS.read_text(encoding="utf-8")) if args.only and DIGESTS.exists() else {}
    )
    record_rows |= {
        row["port"]: {
            k: {"tokens": d["tokens"], "digest": d["digest"]} for k, d in row["definitions"].items()
        }
        for row in rows
        if row.get("definitions")
    }
    DIGESTS.parent.mkdir(parents=True, exist_ok=True)
    DIGESTS.write_text(json.dumps(record_rows, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Print import cycles and layer violations in src/ascreg; exit 1 when there is any.

Run from the repository root as ``python tools/layers.py``. The script reads the source files
with :mod:`ast` and never imports ascreg, so it runs in a bare environment (the nox lint session).

Every ``import`` and ``from ... import`` statement counts, wherever it stands: at module level,
inside a function or a method, or under ``if TYPE_CHECKING:``. Relative imports are resolved.
``from pkg import name`` imports the submodule ``pkg.name`` when there is one, else ``pkg``.
Importing ``a.b.c`` also executes the ``__init__`` of its parent packages ``a.b``, so those
count as imported as well, except the root package ``ascreg`` and the packages the importer
itself lives in (Python has started executing them before the importer). Naming a package
explicitly (``from ascreg import Reg``, ``from ascreg.machine import x``) always counts.

Each module belongs to the layer of the longest prefix in ``LAYERS`` that matches its name; a
module may import modules of its own layer or of a lower one. In a layer marked ``isolated``,
the groups (one per prefix) may not import each other either: no front end imports another.

The execution engine (``ascreg.engine``) is a layer of its own above the model, the core and
the front-end support, and it is *lazy*: no module outside it imports it (``LAZY``). The
model reaches it through one hook (``ascreg.machine.hook``) that the engine fills when the top
package's loader imports it, on the first VF call or launch, never at ``import ascreg``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

# Layers, lowest first: (layer name, module prefixes, whether its groups may import each other).
# A prefix matches the module of that name and everything below it; ROOT matches only itself.
LAYERS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("base", ("ascreg._dtypes", "ascreg.errors", "ascreg.enums"), False),
    ("machine", ("ascreg.machine",), False),
    ("core", ("ascreg.core",), False),
    ("spec", ("ascreg._spec",), False),
    ("front-end support", ("ascreg._frontend", "ascreg._typing"), False),  # _typing: stub aliases
    ("engine", ("ascreg.engine",), False),
    ("front end", ("ascreg.reg", "ascreg.c_api", "ascreg.simt", "ascreg.basic"), True),
    ("host", ("ascreg.acl",), False),
    (
        "top",
        ("ascreg", "ascreg.examples", "ascreg.testing", "ascreg.profile", "ascreg.emit"),
        False,
    ),
)
LAZY = ("ascreg.engine",)
"""Packages loaded on first use through ``ascreg.machine.hook``: only their own modules import them."""
ROOT = "ascreg"
SOURCE = Path(__file__).resolve().parent.parent / "src" / ROOT


def discover(source: Path) -> dict[str, Path]:
    """Map every module name under ``source`` (a package directory) to its file."""
    modules = {}
    for path in sorted(source.rglob("*.py")):
        parts = path.relative_to(source.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """Yield the module named by each import statement in ``path``, however deeply nested."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield submodule if submodule in modules else base


def dependencies(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The ascreg modules that importing ``module`` makes Python execute directly."""
    own_packages = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    found = set()
    for name in imported_names(module, path, modules):
        parts = name.split(".")
        parents = {".".join(parts[:i]) for i in range(2, len(parts))} - own_packages
        found |= {m for m in parents | {name} if m in modules}
    found.discard(module)
    return found


def layer_of(module: str) -> tuple[int, str] | None:
    """(layer index, matching prefix) of ``module``, by the longest matching prefix."""
    matches = [
        (len(prefix), index, prefix)
        for index, (_, prefixes, _) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or (prefix != ROOT and module.startswith(prefix + "."))
    ]
    if not matches:
        return None
    _, index, prefix = max(matches)
    return index, prefix


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def violation(importer: str, imported: str) -> str | None:
    """The rule that ``importer -> imported`` breaks, or None."""
    for package in LAZY:
        if _inside(imported, package) and not _inside(importer, package):
            return f"imports the lazy {package} (reach it through ascreg.machine.hook)"
    source, target = layer_of(importer), layer_of(imported)
    if source is None or target is None:
        return None  # reported once per module by `unassigned`
    (low, group), (high, other) = source, target
    name, _, isolated = LAYERS[low]
    if high > low:
        return f"{name} layer imports the higher {LAYERS[high][0]} layer"
    if high == low and isolated and group != other:
        return f"one {name} ({group}) imports another ({other})"
    return None


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return components


def cycle_path(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete cycle through the first module of ``component`` (breadth-first, shortest)."""
    members, start = set(component), component[0]
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in component {component}")


def problems(source: Path) -> list[str]:
    """Every cycle, layer violation and unassigned module under ``source``, one line each."""
    modules = discover(source)
    graph = {name: dependencies(name, path, modules) for name, path in modules.items()}
    lines = [f"{name}: in no layer (add it to LAYERS)" for name in graph if layer_of(name) is None]
    for component in strongly_connected(graph):
        if len(component) > 1:
            path = " -> ".join(cycle_path(graph, component))
            lines.append(f"cycle of {len(component)} modules ({', '.join(component)}): {path}")
    for importer in sorted(graph):
        for imported in sorted(graph[importer]):
            rule = violation(importer, imported)
            if rule:
                lines.append(f"{importer} -> {imported}: {rule}")
    return lines


def main() -> int:
    """Print the problems (or a one-line summary) and return the exit status."""
    found = problems(SOURCE)
    for line in found:
        print(line)
    if found:
        print(f"layers: {len(found)} problem(s)")
        return 1
    modules = discover(SOURCE)
    print(f"layers: {len(modules)} modules in {len(LAYERS)} layers, no cycles, no violations")
    return 0


if __name__ == "__main__":
    sys.exit(main())

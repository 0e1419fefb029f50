"""Generate the API reference and the dtype tables of the ascreg docs from the code.

Two halves:

* :func:`plan` (plain Python, no Sphinx needed) walks the public modules listed in
  :data:`API_MODULES` that exist, and returns one :class:`Page` per public name. The coverage
  test (``tests/project/test_docs_coverage.py``) calls it, so "a page exists for every public name" is
  checked without building the docs.
* :func:`setup` (the Sphinx extension) writes those pages, one reST file per name, plus one
  page per module and one dtype table per row of ``ascreg._spec.SPECS``, into
  ``docs/api/generated/`` when the build starts (never committed), and resolves cross-references
  that name an object by a private path (``ascreg._dtypes.Scalar`` -> ``ascreg.Scalar``).

A new public module needs one line in :data:`API_MODULES`; a new public name needs nothing.
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib
import inspect
import textwrap
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascreg_signatures import cpp_spellings, signatures_of

API_MODULES: tuple[tuple[str, str, str], ...] = (
    # (documented name, import path, title)
    ("ascreg", "ascreg", "ascreg: dtypes, registers, memory, Ref, policy"),
    ("ascreg.Reg", "ascreg.reg", "ascreg.Reg: the AscendC::Reg (MicroAPI) C++ API"),
    ("ascreg.c_api", "ascreg.c_api", "ascreg.c_api: the Ascend C C API (asc_*)"),
    ("ascreg.simt", "ascreg.simt", "ascreg.simt: SIMT device functions"),
    ("ascreg.simt.Simt", "ascreg.simt.cpp", "ascreg.simt.Simt: the AscendC::Simt C++ namespace"),
    ("ascreg.basic", "ascreg.basic", "ascreg.basic: the basic API around a VF (tensors, queues)"),
    ("ascreg.acl", "ascreg.acl", "ascreg.acl: the host runtime"),
    ("ascreg.errors", "ascreg.errors", "ascreg.errors: errors and the undefined-behaviour policy"),
    ("ascreg.examples", "ascreg.examples", "ascreg.examples: the bundled example kernels"),
    ("ascreg.emit", "ascreg.emit", "ascreg.emit: from Python to Ascend C"),
    ("ascreg.profile", "ascreg.profile", "ascreg.profile: a pipe timeline and cycle estimate"),
    ("ascreg.profile.costs", "ascreg.profile.costs", "ascreg.profile.costs: the cost model"),
    ("ascreg.profile.schedule", "ascreg.profile.schedule", "ascreg.profile.schedule: the schedule"),
    ("ascreg.profile.chrome", "ascreg.profile.chrome", "ascreg.profile.chrome: Trace Event JSON"),
    ("ascreg.profile.report", "ascreg.profile.report", "ascreg.profile.report: summary and plot"),
    ("ascreg.profile.fit", "ascreg.profile.fit", "ascreg.profile.fit: fitting to a real trace"),
    ("ascreg.profile.record", "ascreg.profile.record", "Internals: recording a run"),
    ("ascreg.machine.trace", "ascreg.machine.trace", "Internals: the profiler's recording hook"),
    ("ascreg.testing", "ascreg.testing", "ascreg.testing: lane diffs and ulp comparisons"),
    (
        "ascreg.testing.strategies",
        "ascreg.testing.strategies",
        "ascreg.testing.strategies: hypothesis",
    ),
    (
        "ascreg.testing.pytest_plugin",
        "ascreg.testing.pytest_plugin",
        "ascreg.testing.pytest_plugin",
    ),
    ("ascreg.machine.memory", "ascreg.machine.memory", "Internals: memories and pointers"),
    ("ascreg.machine.registers", "ascreg.machine.registers", "Internals: the register file"),
    ("ascreg.machine.convert", "ascreg.machine.convert", "Internals: values becoming lanes"),
    ("ascreg.machine.tensors", "ascreg.machine.tensors", "Internals: host tensors (DLPack)"),
    ("ascreg.machine.block", "ascreg.machine.block", "Internals: the running block"),
    ("ascreg.machine.kernel", "ascreg.machine.kernel", "Internals: the kernel runtime"),
    ("ascreg.machine.coop", "ascreg.machine.coop", "Internals: blocks and SyncAll phases"),
    ("ascreg.machine.progress", "ascreg.machine.progress", "Internals: long launches' progress"),
    (
        "ascreg.machine.crosscore",
        "ascreg.machine.crosscore",
        "Internals: mixed launches and cross-core flags",
    ),
    (
        "ascreg.machine.mixsync",
        "ascreg.machine.mixsync",
        "Internals: SyncAll and the C API flags in mixed launches",
    ),
    ("ascreg.machine.races", "ascreg.machine.races", "Internals: cross-block GM races"),
    ("ascreg.machine.sync", "ascreg.machine.sync", "Internals: pipes and events"),
    ("ascreg.machine.sysregs", "ascreg.machine.sysregs", "Internals: system registers, core sync"),
    ("ascreg.machine.undefined", "ascreg.machine.undefined", "Internals: undefined lanes"),
    ("ascreg.machine.hook", "ascreg.machine.hook", "Internals: the model's hook to the engine"),
    ("ascreg.engine", "ascreg.engine", "Internals: the execution engine"),
    ("ascreg.engine.loops", "ascreg.engine.loops", "Internals: which VF loops run batched"),
    ("ascreg.engine.batch", "ascreg.engine.batch", "Internals: running a VF loop batched"),
    ("ascreg.engine.nested", "ascreg.engine.nested", "Internals: nested loops flattened"),
    ("ascreg.engine.plans", "ascreg.engine.plans", "Internals: recorded plans of VF loops"),
    ("ascreg.engine.batching", "ascreg.engine.batching", "Internals: ops on a batch"),
    ("ascreg.engine.sites", "ascreg.engine.sites", "Internals: loop sites and refusals"),
    ("ascreg.machine.cube", "ascreg.machine.cube", "Internals: the cube core's buffers"),
    ("ascreg.core.cube", "ascreg.core.cube", "Internals: cube layouts and accumulation model"),
    ("ascreg._frontend.cube_mx", "ascreg._frontend.cube_mx", "Internals: the MX cube forms"),
    ("ascreg._spec", "ascreg._spec", "Internals: the op table"),
)
"""Every documented module, in reading order. Modules that do not exist (yet) are skipped."""

COVERED_MODULES = (
    "ascreg",
    "ascreg.Reg",
    "ascreg.c_api",
    "ascreg.simt",
    "ascreg.simt.Simt",
    "ascreg.acl",
    "ascreg.basic",
    "ascreg.testing",
    "ascreg.profile",
    "ascreg.emit",
    "ascreg.testing.strategies",
    "ascreg.testing.pytest_plugin",
)
"""Modules whose every public name must have a docstring with an ``Examples`` section."""

EXTERNAL_PREFIXES = (
    "numpy.", "np.", "typing.", "typing_extensions.", "collections.", "enum.", "attrs.",
    "ml_dtypes.", "contextlib.", "types.", "builtins.", "abc.", "pathlib.",
    "ml_dtypes.", "contextlib.", "types.", "builtins.", "abc.", "pytest.", "_pytest.",
    "hypothesis.", "weakref.",
)  # fmt: skip
"""References into these packages render as plain text (the build fetches no inventories)."""

_PRIMITIVES = (int, float, str, bytes, bool, type(None), complex, tuple, frozenset)


@dataclass
class Page:
    """One public name and how to document it."""

    module: str  # documented module name ("ascreg.Reg")
    name: str  # public name in that module
    obj: Any
    kind: str  # "module", "alias", "class", "exception", "enum", "function", "data"
    canonical: str = ""  # for aliases: the documented full name of the same object
    home: str = ""  # module whose globals the docstring examples use
    doc: str = ""  # docstring as documented (attribute docstrings for data)
    spec: Any = None  # the ascreg._spec.OpSpec row, if the name is an op

    @property
    def fullname(self) -> str:
        """The documented dotted name."""
        return f"{self.module}.{self.name}"


@dataclass
class Module:
    """One documented module and its pages."""

    name: str
    path: str
    title: str
    obj: types.ModuleType
    pages: list[Page] = field(default_factory=list)


def is_public(name: str) -> bool:
    """``_private`` names are not public; ``__byte_perm``-style C names are, dunders are not."""
    if name.startswith("__"):
        return not name.endswith("__")
    return not name.startswith("_")


def public_names(module: types.ModuleType) -> list[str]:
    """Return ``__all__``, or (without one) the public names the module or its package defines.

    Names a module keeps out of ``__all__`` on purpose (``ascreg.simt.all``: a star import must
    not replace the built-in) are listed in its ``_PUBLIC_NOT_STARRED`` and documented too.
    """
    names = getattr(module, "__all__", None)
    if names is not None:
        return [*names, *getattr(module, "_PUBLIC_NOT_STARRED", ())]
    own = module.__name__
    found = []
    lazy = getattr(module, "_LAZY_NAMES", {})  # names a module __getattr__ makes on first use
    for name, value in {**vars(module), **{n: getattr(module, n) for n in lazy}}.items():
        if not is_public(name) or name == "annotations" or isinstance(value, types.ModuleType):
            continue
        if isinstance(value, typing.TypeVar | typing.ParamSpec):
            continue
        home = getattr(value, "__module__", None) if not isinstance(value, _PRIMITIVES) else own
        if isinstance(home, str) and (home == own or home.startswith(own + ".")):
            found.append(name)
    return sorted(found)


@functools.cache
def _module_body(module: types.ModuleType) -> list[ast.stmt] | None:
    """Return the statements of *module*'s source, parsed once (None: no source)."""
    try:
        return ast.parse(inspect.getsource(module)).body
    except (OSError, TypeError):
        return None


def attribute_doc(module: types.ModuleType, name: str, depth: int = 0) -> tuple[str, str]:
    """Return ``(docstring, defining module)`` of a module-level constant, following imports.

    The docstring is the string literal right after the assignment (PEP 257 attribute
    docstring), as Sphinx reads it.
    """
    body = _module_body(module)
    if body is None:
        return "", module.__name__
    for i, node in enumerate(body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            nxt = body[i + 1] if i + 1 < len(body) else None
            if (
                isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                return inspect.cleandoc(nxt.value.value), module.__name__
            return "", module.__name__
        if isinstance(node, ast.ImportFrom) and node.module and depth < 5:
            for alias in node.names:
                star = alias.name == "*"  # ``from m import *``: the names of m's __all__
                if star or (alias.asname or alias.name) == name:
                    try:
                        source_module = importlib.import_module(node.module)
                    except ImportError:
                        return "", module.__name__
                    if star and name not in getattr(source_module, "__all__", ()):
                        continue
                    return attribute_doc(source_module, name if star else alias.name, depth + 1)
    lazy = getattr(module, "_LAZY_NAMES", {}).get(name)  # made on first use from that module
    if lazy is not None and depth < 5:
        return attribute_doc(importlib.import_module(lazy), name, depth + 1)
    return "", module.__name__


def _kind(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        if issubclass(obj, BaseException):
            return "exception"
        if issubclass(obj, enum.Enum):
            return "enum"
        return "class"
    if isinstance(obj, (*_PRIMITIVES, enum.Enum)):
        return "data"
    if callable(obj):
        return "function"
    return "data"


def _home(obj: Any, fallback: str) -> str:
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    module = getattr(obj, "__module__", None) if isinstance(obj, type) or callable(obj) else None
    if not isinstance(module, str) or isinstance(obj, _PRIMITIVES):
        module = getattr(type(obj), "__module__", None) if not isinstance(obj, type) else None
    if not isinstance(module, str) or module == "builtins" or isinstance(obj, _PRIMITIVES):
        return fallback
    return module


def _spec_of(obj: Any, module: str, name: str) -> Any:
    try:
        from ascreg._spec import SPECS
    except ImportError:
        return None
    own = getattr(obj, "name", None) if not isinstance(obj, type) else None
    short = module.removeprefix("ascreg.").removeprefix("ascreg")
    for key in (own, f"{short}.{name}" if short else name, name):
        if isinstance(key, str) and key in SPECS:
            return SPECS[key]
    return None


def _older_spelling_of(obj: Any, module: str, name: str) -> str | None:
    """Return the op's page name when *name* is one of its row's ``aliases``, else None."""
    spec = _spec_of(obj, module, name)
    if spec is None or not any(a.rsplit(".", 1)[-1] == name for a in spec.aliases):
        return None
    return f"{module}.{spec.name.rsplit('.', 1)[-1]}"


def _older_text(obj: Any, name: str) -> str:
    """The sentence of an older spelling's page: the same op, or the op with a fixed lead."""
    fixed = {a.rsplit(".", 1)[-1]: lead for a, lead in getattr(obj.spec.shape, "fixed", ())}
    if name in fixed:
        return f"The older spelling of ``{obj.spec.name}[{fixed[name]}, ...]``."
    return "The older spelling of the same op (still accepted)."


def _identity(obj: Any) -> Any:
    """The key that identifies one documented object (None: never treated as an alias)."""
    if isinstance(obj, _PRIMITIVES):
        return None
    return id(obj)


def plan() -> list[Module]:
    """Import every documented module that exists and plan one page per public name.

    An object exported by several modules (``ascreg.MaskReg`` is ``ascreg.Reg.MaskReg``) is
    documented in full at its first appearance and as an alias page everywhere else.
    """
    modules: list[Module] = []
    seen: dict[Any, str] = {}
    for documented, path, title in API_MODULES:
        try:
            module_obj = importlib.import_module(path)
        except ModuleNotFoundError as error:
            if error.name is not None and path.startswith(error.name):
                continue  # the module does not exist (yet)
            raise
        module = Module(documented, path, title, module_obj)
        modules.append(module)
        for name in public_names(module_obj):
            obj = getattr(module_obj, name)
            kind = _kind(obj)
            page = Page(documented, name, obj, kind, home=_home(obj, path))
            key = _identity(obj)
            older = _older_spelling_of(obj, documented, name)
            if older is not None:  # an older spelling: a short page pointing at the op
                page.kind, page.canonical, page.spec = "alias", older, None
                page.doc = _older_text(obj, name)
            elif kind == "module":
                page.canonical = next(
                    (d for d, p, _ in API_MODULES if p == obj.__name__), obj.__name__
                )
                page.doc = inspect.getdoc(obj) or ""
            elif key is not None and key in seen:
                page.kind, page.canonical = "alias", seen[key]
            elif isinstance(obj, enum.Enum) and id(type(obj)) in seen:
                page.kind = "alias"
                page.canonical = f"{seen[id(type(obj))]}.{obj.name}"
            else:
                if key is not None:
                    seen[key] = page.fullname
                if kind == "data":
                    page.doc, page.home = attribute_doc(module_obj, name)
                else:
                    page.doc = _docstring(obj)
            if older is None:
                page.spec = _spec_of(obj, documented, name)
            module.pages.append(page)
    return modules


def _docstring(obj: Any) -> str:
    doc = obj.__doc__ if not isinstance(obj, type) else obj.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def has_examples(doc: str) -> bool:
    """Return True when a numpy-style docstring has a runnable ``Examples`` section."""
    lines = doc.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == "Examples" and set(lines[i + 1].strip()) == {"-"}:
            return any(rest.lstrip().startswith(">>>") for rest in lines[i + 2 :])
    return False


# --------------------------------------------------------------------------------------------
# reST writers


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def _indent(text: str, spaces: int = 3) -> str:
    return textwrap.indent(text, " " * spaces)


def _setup_block(home: str) -> str:
    """A hidden doctest setup giving the examples the globals of their defining module."""
    return (
        ".. testsetup:: *\n\n"
        "   import importlib\n"
        f"   globals().update(vars(importlib.import_module({home!r})))\n\n"
    )


def dtype_table(spec: Any) -> str:
    """Render one ``OpSpec`` row as a reST list-table: one line per legal dtype combination."""
    if not spec.roles:  # asc_nop(), this_thread_block(): no value parameters
        return (
            f"``{spec.name}`` (C++ ``{spec.cpp}``) takes no value parameters. "
            f"Source: ``{spec.source}`` in the asc-devkit repository.\n"
        )
    header = "   * - " + "\n     - ".join(f"``{r}``" for r in spec.roles)
    rows = [
        "   * - " + "\n     - ".join(f"``{d.cpp_name}``" for d in combo) for combo in spec.combos
    ]
    return (
        f".. list-table:: Legal dtypes of ``{spec.name}`` (C++ ``{spec.cpp}``)\n"
        "   :header-rows: 1\n\n" + header + "\n" + "\n".join(rows) + "\n\n"
        f"Mask rule: **{spec.mask.name}** ({spec.mask.value}). "
        f"Source: ``{spec.source}`` in the asc-devkit repository.\n"
    )


def page_rst(page: Page, napoleon: Any = None) -> str:
    """Return the reST of the page documenting one public name."""
    full = page.fullname
    # an orphan: reached from its module page's table and the search, not the sidebar (a
    # sidebar of ~3000 pages made every page ~400 KB and the html build take an hour)
    out = [":orphan:\n\n", _title(full), "\n"]
    out.append(f".. py:currentmodule:: {page.module}\n\n")
    if page.kind not in ("alias", "module"):
        out.append(_setup_block(page.home))
    if page.kind == "module":
        out.append(f"``{full}`` is the module :py:mod:`{page.canonical}`.\n\n")
    elif page.kind == "alias":
        role = "py:obj"
        out.append(f".. py:data:: {page.name}\n\n")
        if page.doc:  # an older spelling of an op
            out.append(_indent(f"{page.doc} See :{role}:`{page.canonical}`.") + "\n\n")
        else:
            out.append(_indent(f"The same object as :{role}:`{page.canonical}`.") + "\n\n")
    elif page.kind in ("class", "exception", "enum"):
        directive = "autoexception" if page.kind == "exception" else "autoclass"
        out.append(f".. {directive}:: {full}\n   :members:\n   :show-inheritance:\n")
        if page.kind == "enum":
            out.append("   :undoc-members:\n   :member-order: bysource\n")
        out.append("\n")
    elif page.kind == "function" and (stubbed := signatures_of(page.obj)):
        # the stub's typed overloads, not the run-time ``Any`` (ascreg_signatures)
        out.append(_function_directive(page.name, stubbed))
        out.append(_indent(_body(page, napoleon)) + "\n\n")
    elif page.kind == "function":
        out.append(f".. autofunction:: {full}\n\n")
    else:
        out.append(f".. py:data:: {page.name}\n   :value: {_value_text(page.obj)}\n\n")
        out.append(_indent(_body(page, napoleon)) + "\n\n")
    spellings = cpp_spellings(page.module, page.name)
    if spellings and page.kind != "module":
        # plain text the search indexes: ``AscendC::Reg::Compare`` finds this page
        shown = " or ".join(f"``{s}``" for s in spellings)
        out.append(f".. rubric:: C++ spelling\n\n{shown}\n\n")
    if page.spec is not None:
        out.append(".. rubric:: Dtype support\n\n")
        out.append(f".. include:: /api/generated/dtypes/{page.spec.name}.rst\n\n")
    return "".join(out)


def _body(page: Page, napoleon: Any) -> str:
    body = page.doc or "(no docstring)"
    return "\n".join(napoleon(body)) if napoleon is not None else body


def _function_directive(name: str, signatures: list[str]) -> str:
    prefix = ".. py:function:: "
    lines = [f"{prefix}{name}{signatures[0]}"]
    lines += [f"{' ' * len(prefix)}{name}{sig}" for sig in signatures[1:]]
    return "\n".join(lines) + "\n\n"


def _value_text(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) < 80 and "\n" not in text else f"<{type(obj).__name__}>"


def module_rst(index: int, module: Module) -> str:
    """Return the reST of one module page: its docstring and a table linking the name pages."""
    out = [f".. _api-module-{module.name}:\n\n", _title(module.title), "\n"]
    if module.path != module.name:
        out.append(f".. automodule:: {module.path}\n   :no-members:\n\n")
        out.append(f".. py:module:: {module.name}\n\n")
        out.append(f"``{module.name}`` is the module :py:mod:`{module.path}`.\n\n")
    else:
        out.append(f".. automodule:: {module.name}\n   :no-members:\n\n")
    out.append(_setup_block(module.path))
    out.append(f".. py:currentmodule:: {module.name}\n\n.. rubric:: Public names\n\n")
    out.append(".. list-table::\n   :widths: 25 75\n\n")
    for page in module.pages:
        if page.kind in ("alias", "module"):
            summary = f"same as :py:obj:`{page.canonical}`"
        else:
            summary = summary_of(page.doc) or "(no docstring)"
        out.append(f"   * - :doc:`{page.name} <{page.fullname}>`\n")
        out.append(f"     - {summary}\n")
    return "".join(out)


def summary_of(doc: str) -> str:
    """The first paragraph of a docstring on one line (whole, so its markup stays balanced)."""
    paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def dtypes_index_rst(specs: dict[str, Any]) -> str:
    """Return the page listing every row of the table."""
    out = [
        ".. _dtype-tables:\n\n",
        _title("Dtype support tables"),
        "\nGenerated when the docs are built from ``ascreg._spec.SPECS`` (the table the runtime "
        "check and the typing stubs read), so they cannot drift from the code.\n\n",
    ]
    for name, spec in specs.items():
        # a rubric, not a section: ~1,600 sections in one page's table of contents were
        # copied into the sidebar of every page (most of the html build's time)
        out.append(f".. rubric:: {name}\n\n")
        out.append(f".. include:: /api/generated/dtypes/{spec.name}.rst\n\n")
    return "".join(out)


def write_all(outdir: Path, napoleon: Any = None) -> list[Module]:
    """Write every generated page under *outdir*; return the plan.

    A page whose text is unchanged is left alone (its mtime too), and pages no longer planned
    are deleted: Sphinx then rereads only what changed, and a second builder sharing the
    doctrees (``-d``, as ``nox -s docs`` runs html then doctest) rereads nothing.
    """
    from ascreg._spec import SPECS

    pages: dict[Path, str] = {}
    modules = plan()
    for spec in SPECS.values():
        pages[outdir / "dtypes" / f"{spec.name}.rst"] = dtype_table(spec)
    pages[outdir / "dtype-tables.rst"] = dtypes_index_rst(SPECS)
    for i, module in enumerate(modules):
        pages[outdir / f"module-{i:02d}-{module.name}.rst"] = module_rst(i, module)
        for page in module.pages:
            pages[outdir / f"{page.fullname}.rst"] = page_rst(page, napoleon)
    (outdir / "dtypes").mkdir(parents=True, exist_ok=True)
    for stale in set(outdir.rglob("*.rst")) - set(pages):
        stale.unlink()
    for path, text in pages.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return modules


# --------------------------------------------------------------------------------------------
# Sphinx glue


def _import_dotted(target: str) -> tuple[bool, Any]:
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return False, None
        return True, obj
    return False, None


def setup(app: Any) -> dict[str, Any]:
    """Register the generator (``builder-inited``) and the reference resolver."""
    from sphinx.ext.napoleon import Config, NumpyDocstring

    state: dict[str, Any] = {"ids": {}}
    config = Config(napoleon_use_param=True, napoleon_use_rtype=True)

    def generate(app: Any) -> None:
        outdir = Path(app.srcdir) / "api" / "generated"
        modules = write_all(outdir, lambda doc: NumpyDocstring(doc, config).lines())
        ids: dict[int, str] = {}
        for module in modules:
            for page in module.pages:
                if page.kind not in ("alias", "module") and _identity(page.obj) is not None:
                    ids.setdefault(id(page.obj), page.fullname)
                    if isinstance(page.obj, type):
                        ids.setdefault(id(page.obj), page.fullname)
        state["ids"] = ids

    def retarget(env: Any, node: Any, contnode: Any, target: str) -> Any:
        results = env.get_domain("py").resolve_any_xref(
            env, node["refdoc"], app.builder, target, node, contnode
        )
        return results[0][1] if results else None

    def canonical_of(obj: Any) -> str | None:
        canonical = state["ids"].get(id(obj))
        if canonical is None and isinstance(obj, types.ModuleType):
            canonical = next((d for d, p, _ in API_MODULES if p == obj.__name__), None)
        if canonical is None and inspect.isfunction(obj):
            owner, _, attr = getattr(obj, "__qualname__", "").rpartition(".")
            found_cls, cls = _import_dotted(f"{obj.__module__}.{owner}") if owner else (False, None)
            base = state["ids"].get(id(cls)) if found_cls else None
            canonical = f"{base}.{attr}" if base else None
        return canonical

    def resolve(app: Any, env: Any, node: Any, contnode: Any) -> Any:
        if node.get("refdomain") != "py":
            return None
        target = node.get("reftarget", "").lstrip(".~").split("[", 1)[0]
        if target.startswith(EXTERNAL_PREFIXES) or target in {"Any", "Self", "None"}:
            return contnode
        found, obj = _import_dotted(target)
        module = node.get("py:module") or ""
        if not found and module:
            found, obj = _import_dotted(f"{module}.{target}")
        if found and isinstance(obj, typing.TypeVar | typing.ParamSpec):
            return contnode
        if found and _identity(obj) is not None:
            canonical = canonical_of(obj)
            if canonical is not None and canonical != target:
                resolved = retarget(env, node, contnode, canonical)
                if resolved is not None:
                    return resolved
        if found and isinstance(obj, types.ModuleType):
            return contnode  # an internal module without a page of its own
        if found and target.rpartition(".")[2].startswith("_"):
            return contnode  # a private helper (a base class of a public one) has no page
        if not found and "." not in target and len(target) <= 2 and target[:1].isupper():
            return contnode  # a type variable of a signature (T, P, R)
        # a unique suffix match among documented objects (``Memory.alloc`` in a docstring)
        matches = env.get_domain("py").ending_with(target)
        if len(matches) == 1:
            return retarget(env, node, contnode, matches[0])
        return None

    app.add_domain(_indexed_python_domain(), override=True)
    app.connect("builder-inited", generate)
    app.connect("missing-reference", resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


def _indexed_python_domain() -> type:
    """Return the Python domain with its fuzzy search indexed (made when Sphinx is there).

    Sphinx's fuzzy search (a reference no exact name resolves, as a docstring's types are)
    scans every documented object for a name ending in ``.name``: with thousands of API pages
    and tens of thousands of such references that scan was most of the writing phase. The
    same matches, in the same order, come from an index of every dotted suffix, rebuilt when
    the objects change.
    """
    from sphinx.domains.python import PythonDomain

    class IndexedPythonDomain(PythonDomain):  # type: ignore[misc]
        _suffixes: dict[str, list[str]] | None = None

        def ending_with(self, name: str) -> list[str]:
            """Return the documented objects whose full name ends in ``"." + name``, in order."""
            if self._suffixes is None:
                suffixes: dict[str, list[str]] = {}
                for fullname in self.objects:
                    parts = fullname.split(".")
                    for k in range(1, len(parts)):
                        suffixes.setdefault(".".join(parts[k:]), []).append(fullname)
                self._suffixes = suffixes
            return self._suffixes.get(name, [])

        def note_object(self, *args: Any, **kwargs: Any) -> None:
            self._suffixes = None
            super().note_object(*args, **kwargs)

        def clear_doc(self, docname: str) -> None:
            self._suffixes = None
            super().clear_doc(docname)

        def merge_domaindata(self, docnames: Any, otherdata: dict[str, Any]) -> None:
            self._suffixes = None
            super().merge_domaindata(docnames, otherdata)

        def find_obj(
            self, env: Any, modname: str, classname: str, name: str, type: str | None,
            searchmode: int = 0,
        ) -> list[tuple[str, Any]]:  # fmt: skip
            name = name.removesuffix("()")
            if searchmode != 1 or not name:
                return super().find_obj(env, modname, classname, name, type, searchmode)
            objtypes = list(self.object_types) if type is None else self.objtypes_for_role(type)
            if objtypes is None:
                return []
            objects = self.objects
            exact = [f"{modname}.{classname}.{name}"] if modname and classname else []
            exact += [f"{modname}.{name}"] if modname else []
            for candidate in [*exact, name]:  # Sphinx's order of the exact names
                if candidate in objects and objects[candidate].objtype in objtypes:
                    return [(candidate, objects[candidate])]
            return [
                (n, objects[n]) for n in self.ending_with(name) if objects[n].objtype in objtypes
            ]

    return IndexedPythonDomain

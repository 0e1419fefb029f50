"""Census of the AscendC names production kernels use, and whether ascreg accepts each.

Reads the ``op_kernel/arch35/`` kernels of a public operator repository (hicann/ops-nn,
hicann/ops-math: a work tree, or a bare mirror with ``--git``), finds every AscendC identifier
they use (functions, types, enum members and constants, methods such as ``.EnQue<...>``, with
their template argument forms, under ``AscendC::``, ``AscendC::Reg::``/``MicroAPI::``,
``Simt::`` or unqualified after ``using namespace``), counts the files using each and says whether
ascreg has it under its Python spelling on the right surface (``Reg.X``, ``ascreg.c_api``,
``ascreg.simt``, ``ascreg.basic``; the scalar types, and the enums ascreg shares between its
surfaces such as ``RoundMode``, also on ``ascreg`` itself; a method or field on the class, on
its base classes, or on an object the class's accepted subscript makes) and whether ascreg's
subscript takes each template form (tried with the C++ arguments mapped to Python: dtypes,
enum members, integers, a legal dtype of the op's row for a kernel's ``typename T``).

What is an AscendC name comes from the asc-devkit (``--devkit``, a work tree or bare mirror):
the names its headers declare (in ``AscendC``, ``AscendC::Reg``, ``AscendC::Simt`` or, for the C
API and SIMT, at global scope) and the names its API pages document. Each name is classed:

``documented``
    on an Ascend 950 page of the API documents (not a cube page): the figure counts these.
``cube``
    documented only on the cube (matrix/convolution) pages: excluded, it has its own issue.
``undocumented``
    declared by the headers, on no page (internal helpers kernels reach into).
``cpp-std``
    the C++ standard-library look-alikes (``Std::``, type traits): Python has its own.
``opbase``
    the operator base library's helpers (``Ops::Base::``, ``ops::``, ``platform::``): not
    AscendC, not in the operator repositories either; listed for information.

The operator's own helpers (functions, structs, tiling data, constants defined in the kernel's
files or the repository files they include) are kernel-local and left out. The parse is lexical
(comments, strings and preprocessor branches are not evaluated), so counts are close, not exact.

Usage::

    python tools/census.py --devkit /path/to/asc-devkit --git /path/to/ops-nn.git \\
        --git /path/to/ops-math.git --out census.md [--gaps gaps.md]

Examples
--------
>>> api = ApiIndex.from_headers({"impl/x.h": "namespace AscendC { void Foo(int a); }"})
>>> sorted(api.names["basic"])
['Foo']
"""

from __future__ import annotations

import argparse
import collections
import enum
import importlib
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

# ---------------------------------------------------------------------------------------------
# Sources: a directory or a bare git repository, read as {path: text}
# ---------------------------------------------------------------------------------------------

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".asc", ".inl", ".cce")
"""The C++ files read."""


class Tree:
    """The files of a checkout: a work tree (``Tree(dir)``) or a bare repository (``git=True``).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.h").write_text("int x;")
    ...     t = Tree(d)
    ...     t.paths(), t.read(["a.h"])
    (['a.h'], {'a.h': 'int x;'})
    """

    def __init__(self, root: str | Path, *, git: bool = False) -> None:
        self.root = Path(root)
        self.git = git
        self.name = (
            self.root.name if self.root.name not in ("repo", ".git") else self.root.parent.name
        )

    def paths(self) -> list[str]:
        """Every file path, relative and POSIX, sorted."""
        if self.git:
            out = subprocess.run(
                [
                    "git",
                    "-C",
                    str(self.root),
                    "-c",
                    "core.quotepath=off",
                    "ls-tree",
                    "-r",
                    "--name-only",
                    "HEAD",
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            return sorted(out.splitlines())
        return sorted(
            p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file()
        )

    def read(self, paths: Iterable[str]) -> dict[str, str]:
        """The text of each of *paths* (undecodable bytes replaced)."""
        paths = list(paths)
        if not self.git:
            return {p: (self.root / p).read_text("utf-8", "replace") for p in paths}
        request = "".join(f"HEAD:{p}\n" for p in paths).encode()
        out = subprocess.run(
            ["git", "-C", str(self.root), "cat-file", "--batch"],
            input=request,
            check=True,
            capture_output=True,
        ).stdout
        texts, at = {}, 0
        for p in paths:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if header[-1] == b"missing":
                at = end + 1
                continue
            size = int(header[2])
            texts[p] = out[end + 1 : end + 1 + size].decode("utf-8", "replace")
            at = end + 1 + size + 1
        return texts


# ---------------------------------------------------------------------------------------------
# Lexing
# ---------------------------------------------------------------------------------------------

_COMMENT_OR_LITERAL = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S
)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', re.M)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(?)", re.M)
_TOKEN = re.compile(r"[A-Za-z_]\w*|::|->|\.\.\.|\d[\w.]*(?:[eE][+-]\d+)?\w*|\.\d\w*|\S")


def _blank(match: re.Match[str]) -> str:
    text = match.group(0)
    if text[0] in "\"'":
        return '""' if text[0] == '"' else "0"
    return " " if "\n" not in text else "\n" * text.count("\n")


def includes(text: str) -> list[str]:
    """The files *text* ``#include``s, as written.

    Examples
    --------
    >>> includes('#include "a/b.h"\\n #include <c.h>')
    ['a/b.h', 'c.h']
    """
    return _INCLUDE.findall(text)


def split_preprocessor(text: str) -> tuple[str, list[tuple[str, bool]], list[str]]:
    """Return *text* without comments, literals and preprocessor lines; its macros; their bodies.

    The macros are ``(name, function_like)``; a body is the text after the name (continuation
    lines joined), read apart for the names it uses.

    Examples
    --------
    >>> code, macros, bodies = split_preprocessor('#define N 4 // x\\nint a = N; /* c */')
    >>> code.split(), macros, bodies
    (['int', 'a', '=', 'N;'], [('N', False)], [' 4 '])
    """
    text = _COMMENT_OR_LITERAL.sub(_blank, text)
    macros = [(name, paren == "(") for name, paren in _DEFINE.findall(text)]
    lines, bodies, out = text.split("\n"), [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("#"):
            joined = [line]
            while joined[-1].endswith("\\") and i + 1 < len(lines):
                i += 1
                joined.append(lines[i])
            out.extend([""] * len(joined))
            directive = " ".join(part.rstrip("\\") for part in joined)
            found = _DEFINE.match(directive)
            if found:
                bodies.append(directive[found.start(2) :])  # with a function-like macro's "(a, b)"
        else:
            out.append(line)
        i += 1
    return "\n".join(out), macros, bodies


def tokenize(text: str) -> list[str]:
    """The C++ tokens of preprocessed *text* (``>>`` is two tokens, so templates close).

    Examples
    --------
    >>> tokenize("A::B<T<int>> x; p->f(1.5f);")
    ['A', '::', 'B', '<', 'T', '<', 'int', '>', '>', 'x', ';', 'p', '->', 'f', '(', '1.5f', ')', ';']
    """
    return _TOKEN.findall(text)


def is_identifier(token: str) -> bool:
    """True for a C++ identifier token."""
    return token[:1].isalpha() or token[:1] == "_"


CPP_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "asm",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "while",
        "override",
        "final",
        "__attribute__",
        "__restrict__",
        "restrict",
        "defined",
    ]
)
"""C++ words that are never API names."""

SCALAR_TYPES = {
    "float": "float32_t",
    "bool": "bool_",
    "half": "half",
    "bfloat16_t": "bfloat16_t",
    "float32_t": "float32_t",
    "int8_t": "int8_t",
    "int16_t": "int16_t",
    "int32_t": "int32_t",
    "int64_t": "int64_t",
    "uint8_t": "uint8_t",
    "uint16_t": "uint16_t",
    "uint32_t": "uint32_t",
    "uint64_t": "uint64_t",
    "fp8_e4m3fn_t": "fp8_e4m3fn_t",
    "fp8_e5m2_t": "fp8_e5m2_t",
    "fp8_e8m0_t": "fp8_e8m0_t",
    "float8_e4m3_t": "float8_e4m3_t",
    "float8_e5m2_t": "float8_e5m2_t",
    "hifloat8_t": "hifloat8_t",
    "fp4x2_e2m1_t": "fp4x2_e2m1_t",
    "fp4x2_e1m2_t": "fp4x2_e1m2_t",
    "int4x2_t": "int4x2_t",
}
"""C++ scalar type -> its ascreg dtype (a template argument of this kind is a dtype)."""
LANGUAGE_TYPES = frozenset(
    [
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "size_t",
        "float",
        "double",
        "char",
        "int",
        "long",
        "short",
        "unsigned",
        "bool",
        "void",
    ]
)
"""Scalar types of C++ itself: not AscendC names (``half``, ``bfloat16_t`` ... are)."""
KERNEL_KEYWORDS = frozenset(
    [
        "__aicore__",
        "__global__",
        "__gm__",
        "__ubuf__",
        "__simd_vf__",
        "__simd_callee__",
        "__simt_vf__",
        "__simt_callee__",
        "__vector__",
        "__cube__",
        "__mix__",
        "__inline__",
        "__sync_alias__",
        "__sync_noalias__",
        "__in_pipe__",
        "__out_pipe__",
        "__cce_simt_entry__",
        "LAUNCH_BOUND",
        "__CCE_AICORE__",
        "__CCE_KT_TEST__",
        "__NPU_ARCH__",
        "__DAV_C310__",
        "__DAV_C220_VEC__",
        "__DAV_C220_CUBE__",
        "__DAV_M200__",
    ]
)
"""Kernel-language qualifiers and the compiler's own macros: spelled by decorators in ascreg."""

# ---------------------------------------------------------------------------------------------
# The declaration walker: namespaces, classes, enums, functions, variables, template parameters
# ---------------------------------------------------------------------------------------------


@dataclass
class Decls:
    """What a set of C++ files declares, by scope."""

    names: dict[str, set[tuple[str, ...]]] = field(
        default_factory=lambda: collections.defaultdict(set)
    )
    """name -> the namespaces declaring it (``()`` is the global one)."""
    kinds: dict[tuple[tuple[str, ...], str], str] = field(default_factory=dict)
    """(namespace, name) -> ``type``, ``enum``, ``function``, ``variable``, ``macro``, ``enumerator``."""
    members: dict[str, set[str]] = field(default_factory=lambda: collections.defaultdict(set))
    """class or enum name -> its member functions, fields and enumerators."""
    returns: dict[str, str] = field(default_factory=dict)
    """function or method name -> the class name it returns (when a plain name)."""
    template_types: set[str] = field(default_factory=set)
    """the names of ``typename T`` template parameters."""
    value_params: dict[str, str] = field(default_factory=dict)
    """non-type template parameter -> its type's last name (``mode`` -> ``MaskMergeMode``)."""
    variables: dict[str, str] = field(default_factory=dict)
    """variable (any scope) -> the last name of its declared type."""
    sites: dict[str, list[tuple[int, str]]] = field(
        default_factory=lambda: collections.defaultdict(list)
    )
    """variable -> (token index, type) of each declaration in the file walked (not merged)."""
    macros: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)
    """every namespace name opened."""
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """``namespace A = B::C`` -> A: (B, C)."""
    type_aliases: dict[str, str] = field(default_factory=dict)
    """``using QuePosition = TPosition;`` -> QuePosition: TPosition."""
    bases: dict[str, set[str]] = field(default_factory=dict)
    """class -> the classes it derives from."""
    using_namespaces: set[tuple[str, ...]] = field(default_factory=set)
    vf_spans: list[tuple[int, int]] = field(default_factory=list)
    """token index ranges of vector-function bodies (``__simd_vf__``, ``__VEC_SCOPE__``)."""
    paths: dict[tuple[tuple[str, ...], str], set[str]] = field(
        default_factory=lambda: collections.defaultdict(set)
    )
    """(namespace, name) -> the files declaring it."""

    def add(self, namespace: tuple[str, ...], name: str, kind: str, path: str) -> None:
        if not is_identifier(name) or name in CPP_KEYWORDS:
            return
        self.names[name].add(namespace)
        self.kinds.setdefault((namespace, name), kind)
        self.paths[(namespace, name)].add(path)

    def declare(self, name: str, type_: str, at: int) -> None:
        """Record a variable *name* of *type_* declared at token *at*."""
        self.variables.setdefault(name, type_)
        self.sites[name].append((at, type_))

    def type_at(self, name: str, at: int | None) -> str | None:
        """The type of variable *name* as seen at token *at* of the file walked.

        A name declared with different types in different functions of one file (a
        ``copyParams`` of ``NdDmaParams`` here, of ``DataCopyExtParams`` there) takes the type
        of its last declaration before *at* (the first one when none precedes it); elsewhere
        (*at* None, one type, a name only an included file declares) the first type seen.

        Examples
        --------
        >>> d = Decls()
        >>> d.declare("p", "NdDmaParams", 3); d.declare("p", "DataCopyExtParams", 40)
        >>> d.type_at("p", 10), d.type_at("p", 50), d.type_at("p", 1), d.type_at("p", None)
        ('NdDmaParams', 'DataCopyExtParams', 'NdDmaParams', 'NdDmaParams')
        """
        sites = self.sites.get(name, ())
        if at is None or len({type_ for _, type_ in sites}) < 2:
            return self.variables.get(name)
        before = [type_ for k, type_ in sites if k < at]
        return before[-1] if before else sites[0][1]

    def merge(self, other: Decls) -> None:
        for name, spaces in other.names.items():
            self.names[name] |= spaces
        for key, kind in other.kinds.items():
            self.kinds.setdefault(key, kind)
        for key, found in other.members.items():
            self.members[key] |= found
        for key, found in other.paths.items():
            self.paths[key] |= found
        self.returns.update(other.returns)
        self.template_types |= other.template_types
        self.value_params.update(other.value_params)
        self.variables.update(other.variables)
        self.macros |= other.macros
        self.namespaces |= other.namespaces
        self.aliases.update(other.aliases)
        self.type_aliases.update(other.type_aliases)
        for key, found in other.bases.items():
            self.bases.setdefault(key, set()).update(found)
        self.using_namespaces |= other.using_namespaces


_QUALIFIERS = frozenset(
    {"const", "constexpr", "static", "inline", "volatile", "extern", "mutable", "typename"}
    | {"virtual", "explicit", "friend", "struct", "class", "unsigned", "signed"}
    | KERNEL_KEYWORDS
)
_NOT_A_FUNCTION = CPP_KEYWORDS | {"__attribute__", "LAUNCH_BOUND", "alignas", "ASSERT"}


def _match(tokens: list[str], i: int, open_: str, close: str, stop: str = "") -> int:
    """Index of the token closing the bracket at *i* (or -1 at a *stop* token / the end)."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t == open_:
            depth += 1
        elif t == close:
            depth -= 1
            if depth == 0:
                return j
        elif t in stop:
            return -1
    return -1


def template_close(tokens: list[str], i: int) -> int:
    """Index of the ``>`` closing the ``<`` at *i*, or -1 when *i* does not open a template.

    Examples
    --------
    >>> t = tokenize("F<A, (b > c), G<int>>(x)")
    >>> t[template_close(t, 1)], template_close(tokenize("a < b; c > d"), 1)
    ('>', -1)
    """
    depth = 0
    j = i
    while j < len(tokens):
        t = tokens[j]
        if t == "<":
            depth += 1
        elif t == ">":
            depth -= 1
            if depth == 0:
                return j
        elif t in "([{":
            j = _match(tokens, j, t, {"(": ")", "[": "]", "{": "}"}[t], ";")
            if j < 0:
                return -1
        elif t in (";", "}", ")", "]", "&&", "||") or t == "{":
            return -1
        j += 1
    return -1


def split_arguments(tokens: list[str]) -> list[list[str]]:
    """Split a template argument list at its top-level commas."""
    args: list[list[str]] = [[]]
    depth = 0
    for t in tokens:
        if t in "<([{":
            depth += 1
        elif t in ">)]}":
            depth -= 1
        if t == "," and depth == 0:
            args.append([])
        else:
            args[-1].append(t)
    return [a for a in args if a]


def _type_name(tokens: list[str], end: int, start: int) -> str | None:
    """The last plain name of the type written in ``tokens[start:end]`` (skipping ``<...>``)."""
    j = end - 1
    while j >= start:
        t = tokens[j]
        if t in ("*", "&", "&&") or t in _QUALIFIERS:
            j -= 1
        elif t == ">":
            depth = 0
            while j >= start:
                if tokens[j] == ">":
                    depth += 1
                elif tokens[j] == "<":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            j -= 1
        elif is_identifier(t):
            return t
        else:
            return None
    return None


def _parameters(tokens: list[str], open_: int, close: int, decls: Decls) -> None:
    """Record the parameters of the list ``tokens[open_:close + 1]`` as variables."""
    for param in split_arguments(tokens[open_ + 1 : close]):
        end = param.index("=") if "=" in param else len(param)
        if end >= 2 and is_identifier(param[end - 1]) and param[end - 1] not in CPP_KEYWORDS:
            type_ = _type_name(param, end - 1, 0)
            if type_:
                decls.declare(param[end - 1], type_, open_)


def walk(tokens: list[str], path: str, decls: Decls) -> None:
    """Record what *tokens* (one file) declare into *decls*.

    Namespace and class scope declarations are recorded with their namespace; function bodies
    only give variable types and vector-function spans.

    Examples
    --------
    >>> d = Decls()
    >>> walk(tokenize("namespace A { namespace R = A; enum class E { X, Y }; "
    ...   "struct S { int f; void M(); }; template <typename T, E m> T* G(int); }"), "p", d)
    >>> sorted(d.names), sorted(d.members["E"]), sorted(d.members["S"]), d.value_params, d.aliases
    (['E', 'G', 'S'], ['X', 'Y'], ['M', 'f'], {'m': 'E'}, {'R': ('A',)})
    """
    stack: list[tuple[str, str]] = []  # (kind, name): ns, class, enum, block
    vf_pending = False
    n = len(tokens)
    i = 0
    statement = 0  # index where the current statement began

    def namespace() -> tuple[str, ...]:
        return tuple(name for kind, name in stack if kind == "ns" and name)

    def scope() -> str:
        return stack[-1][0] if stack else "ns"

    while i < n:
        t = tokens[i]
        kind = scope()
        if t == "namespace":
            j, parts = i + 1, []
            while j < n and (is_identifier(tokens[j]) or tokens[j] in ("::", "inline")):
                if is_identifier(tokens[j]) and tokens[j] != "inline":
                    parts.append(tokens[j])
                j += 1
            if j < n and tokens[j] == "=":
                k, target = j + 1, []
                while k < n and tokens[k] != ";":
                    if is_identifier(tokens[k]):
                        target.append(tokens[k])
                    k += 1
                if parts:
                    decls.aliases[parts[0]] = tuple(target)
                i, statement = k + 1, k + 1
                continue
            if j < n and tokens[j] == "{":
                decls.namespaces.update(parts)
                stack.extend(("ns", p) for p in parts or [""])
                if len(parts) > 1:  # one "}" closes A::B: remember how many to pop
                    stack[-len(parts) :] = [("ns", "::".join(parts))]
                i, statement = j + 1, j + 1
                continue
        if t == "using" and i + 1 < n and tokens[i + 1] == "namespace":
            k, target = i + 2, []
            while k < n and tokens[k] != ";":
                if is_identifier(tokens[k]):
                    target.append(tokens[k])
                k += 1
            decls.using_namespaces.add(tuple(target))
            i, statement = k + 1, k + 1
            continue
        if t == "template" and i + 1 < n and tokens[i + 1] == "<":
            close = template_close(tokens, i + 1)
            if close > 0:
                for arg in split_arguments(tokens[i + 2 : close]):
                    head = [a for a in arg if a != "..."]
                    eq = head.index("=") if "=" in head else len(head)
                    if len(head) >= 2 and head[0] in ("typename", "class") and eq >= 2:
                        decls.template_types.add(head[1])
                    elif eq >= 2 and is_identifier(head[eq - 1]):
                        type_ = _type_name(head, eq - 1, 0)
                        if type_:
                            decls.value_params[head[eq - 1]] = type_
                i = statement = close + 1
                continue
        if t in ("__simd_vf__", "__simd_callee__", "__VEC_SCOPE__"):
            vf_pending = True
        if t == "enum" and kind in ("ns", "class"):
            j = i + 1
            if j < n and tokens[j] in ("class", "struct"):
                j += 1
            name = tokens[j] if j < n and is_identifier(tokens[j]) else ""
            while j < n and tokens[j] not in ("{", ";"):
                j += 1
            if j < n and tokens[j] == "{":
                close = _match(tokens, j, "{", "}")
                body = split_arguments(tokens[j + 1 : close if close > 0 else n])
                members = [item[0] for item in body if is_identifier(item[0])]
                if name:
                    decls.add(namespace(), name, "enum", path)
                    decls.members[name].update(members)
                if tokens[i + 1] not in ("class", "struct"):  # unscoped: members are in scope
                    for m in members:
                        decls.add(namespace(), m, "enumerator", path)
                i = (close if close > 0 else n) + 1
                statement = i
                continue
        if t in ("class", "struct", "union") and kind in ("ns", "class", "block"):
            j = i + 1
            while (j < n and tokens[j] in ("alignas", "__attribute__")) or (
                j < n and tokens[j] == "("
            ):
                j = _match(tokens, j + 1, "(", ")") + 1 if tokens[j] != "(" else j + 1
            name = tokens[j] if j < n and is_identifier(tokens[j]) else ""
            k = j + 1
            if k < n and tokens[k] == "<":  # a specialisation
                k = max(template_close(tokens, k), k) + 1
            if k < n and tokens[k] == "final":
                k += 1
            if k < n and tokens[k] == ":" and name:  # base classes: scan to the body
                bases, depth = [], 0
                while k < n and tokens[k] not in ("{", ";"):
                    if tokens[k] == "(":
                        k = max(_match(tokens, k, "(", ")"), k)
                    elif tokens[k] == "<":
                        depth += 1
                    elif tokens[k] == ">":
                        depth -= 1
                    elif (
                        depth == 0 and is_identifier(tokens[k]) and tokens[k + 1] in ("<", "{", ",")
                    ):
                        bases.append(tokens[k])
                    k += 1
                decls.bases.setdefault(name, set()).update(bases)
            while k < n and tokens[k] not in ("{", ";", "(", ")", "=", ",", ">"):
                k += 1
            if k < n and tokens[k] == "{":
                if name and kind != "block":
                    decls.add(namespace(), name, "type", path)
                stack.append(("class", name))
                if vf_pending:
                    vf_pending = False
                i, statement = k + 1, k + 1
                continue
            if k < n and tokens[k] == ";" and name and kind == "ns":
                decls.add(namespace(), name, "type", path)
        if t == "using" and kind in ("ns", "class", "block") and i + 2 < n and tokens[i + 2] == "=":
            if kind == "ns":
                decls.add(namespace(), tokens[i + 1], "type", path)
            k = i + 3
            while k < n and tokens[k] != ";":
                k += 1
            target = _type_name(tokens, k, i + 3)
            if target and k - (i + 3) <= 4:
                decls.type_aliases.setdefault(tokens[i + 1], target)
            if kind != "ns":
                decls.template_types.add(tokens[i + 1])  # a local type name: a type argument
        if t == "typedef" and kind in ("ns", "class"):
            k = i
            while k < n and tokens[k] not in (";", "{"):
                k += 1
            if k < n and tokens[k] == "{":  # typedef struct {...} Name;: the struct handles it
                i += 1
                continue
            k = i
            while k < n and tokens[k] != ";":
                k += 1
            last = _type_name(tokens, k, i)
            if last and kind == "ns":
                decls.add(namespace(), last, "type", path)
            i, statement = k + 1, k + 1
            continue
        if t == "{":
            span_kind = "vf" if vf_pending else "block"
            if kind in ("ns", "class") or span_kind == "vf":
                stack.append((span_kind, str(i)))
            else:
                stack.append(("block", ""))
            vf_pending = False
            i, statement = i + 1, i + 1
            continue
        if t == "}":
            if stack:
                kind_, name = stack.pop()
                if kind_ == "vf":
                    decls.vf_spans.append((int(name), i))
            i, statement = i + 1, i + 1
            continue
        if t == ";":
            vf_pending = False if kind != "block" else vf_pending
            i, statement = i + 1, i + 1
            continue
        if is_identifier(t) and t not in CPP_KEYWORDS and i + 1 < n:
            nxt = tokens[i + 1]
            prev = tokens[i - 1] if i else ""
            if nxt == "<" and kind in ("ns", "class") and prev not in (".", "->"):
                close = template_close(tokens, i + 1)
                if close > 0 and close + 1 < n and tokens[close + 1] == "(":
                    params = _match(tokens, close + 1, "(", ")")  # F<half>(...): a specialisation
                    if params > 0 and prev != "::" and statement < i:
                        decls.add(namespace(), t, "function", path)
                        _parameters(tokens, close + 1, params, decls)
                        i = params + 1
                        continue
                if close > 0 and close + 2 < n and tokens[close + 1] == "::":
                    k = close + 2  # C<T>::Method(...): an out-of-class member definition
                    if is_identifier(tokens[k]) and k + 1 < n and tokens[k + 1] == "(":
                        decls.members[t].add(tokens[k])
                        params = _match(tokens, k + 1, "(", ")")
                        if params > 0:
                            _parameters(tokens, k + 1, params, decls)
                            i = params + 1
                            continue
            if nxt == "(" and kind in ("ns", "class") and t not in _NOT_A_FUNCTION:
                close = _match(tokens, i + 1, "(", ")")
                if prev in (".", "->") or prev == "~":
                    pass
                elif prev == "::" and i >= 2 and is_identifier(tokens[i - 2]) and close > 0:
                    decls.members[tokens[i - 2]].add(t)  # out-of-class definition
                    returned = _type_name(tokens, i - 2, statement)
                    if returned:
                        decls.returns.setdefault(t, returned)
                    _parameters(tokens, i + 1, close, decls)
                    i = close + 1
                    continue
                elif close > 0 and (statement < i or kind == "class"):
                    if kind == "class" and stack:
                        if t != stack[-1][1]:
                            decls.members[stack[-1][1]].add(t)
                    else:
                        decls.add(namespace(), t, "function", path)
                    returned = _type_name(tokens, i, statement)
                    if returned:
                        decls.returns.setdefault(t, returned)
                    if close > 0 and any(
                        tokens[k] in ("__simd_vf__", "__simd_callee__") for k in range(statement, i)
                    ):
                        vf_pending = True
                    _parameters(tokens, i + 1, close, decls)
                    i = close + 1
                    continue
            elif prev == "," and nxt in ("=", ",", ";") and kind == "block":
                decls.variables.setdefault(t, "")  # int a = 0, b = a; RegTensor<T> x, y;
            elif (
                nxt in ("=", ";", "{", "[", ",", ")", ":")
                and prev
                and (is_identifier(prev) or prev in ("*", "&", ">"))
                and prev not in ("return", "case", "goto", "public", "private", "protected")
                and prev not in ("delete", "new", "throw", "else", "do")
            ):
                type_ = _type_name(tokens, i, max(statement, i - 12))
                if type_ and type_ not in CPP_KEYWORDS - {"float", "bool", "int", "double"}:
                    decls.declare(t, type_, i)
                elif type_ == "auto":  # a variable all the same, of a type not written
                    decls.variables.setdefault(t, "")
                if kind == "ns" and statement <= i - 1 and nxt != ")" and nxt != ":":
                    decls.add(namespace(), t, "variable", path)
                elif kind == "class" and stack and nxt != ")":
                    decls.members[stack[-1][1]].add(t)
        i += 1


def scan(path: str, text: str, decls: Decls) -> list[str]:
    """Preprocess, tokenize and walk one file into *decls*; return its tokens."""
    code, macros, _ = split_preprocessor(text)
    tokens = tokenize(code)
    for name, _function_like in macros:
        decls.macros.add(name)
        decls.add((), name, "macro", path)
    walk(tokens, path, decls)
    return tokens


# ---------------------------------------------------------------------------------------------
# The asc-devkit: the API names its headers declare, and the names its pages document
# ---------------------------------------------------------------------------------------------

Surface = str
"""``reg``, ``c_api``, ``simt`` or ``basic``."""
SURFACES: tuple[Surface, ...] = ("basic", "reg", "c_api", "simt")
REG_NAMESPACES = frozenset({"Reg", "MicroAPI"})
OTHER_ARCH = re.compile(r"/(?:dav_(?!3510)|arch_(?!3510))[a-z0-9_]+/|_(?:2201|m200|m300|m310)_")
"""Header paths of other chips (the 950 is dav-3510 / arch_3510): not read."""
HEADER_ROOTS = ("include/", "impl/")


def surface_of(namespace: tuple[str, ...], path: str, name: str) -> Surface | None:
    """The surface a declaration belongs to (None: not an API name)."""
    if namespace[:1] == ("AscendC",) or namespace[:1] in (("Reg",), ("MicroAPI",), ("Simt",)):
        inner = namespace[1:] if namespace[:1] == ("AscendC",) else namespace
        if inner[:1] and inner[0] in REG_NAMESPACES:
            return "reg"
        if inner[:1] == ("Simt",):
            return "simt"
        if inner[:1] and inner[0] in ("Internal", "internal", "Impl", "impl", "Detail", "detail"):
            return None
        return "basic" if len(inner) <= 1 else None
    if namespace:
        return None
    parts = PurePosixPath(path).parts
    if "simt_api" in parts:
        return "simt"
    if "c_api" in parts:
        return "c_api"
    if name.startswith("asc_") or name.startswith("vector_"):
        return "c_api"
    return "basic"


@dataclass
class ApiIndex:
    """The AscendC API: surface -> name -> kind, with the members of its classes and enums."""

    names: dict[Surface, dict[str, str]]
    members: dict[str, set[str]]
    returns: dict[str, str]
    enums: set[str]
    classes: set[str]
    type_aliases: dict[str, str] = field(default_factory=dict)
    """``QuePosition`` -> ``TPosition``: a type the headers declare as another's alias."""
    bases: dict[str, set[str]] = field(default_factory=dict)
    """class -> every class it derives from (or aliases), transitively."""

    @classmethod
    def from_headers(cls, texts: Mapping[str, str]) -> ApiIndex:
        """Index the declarations of the devkit header *texts* (``{path: text}``)."""
        decls = Decls()
        for path, text in texts.items():
            scan(path, text, decls)
        names: dict[Surface, dict[str, str]] = {s: {} for s in SURFACES}
        for (namespace, name), kind in decls.kinds.items():
            for path in decls.paths[(namespace, name)]:
                surface = surface_of(namespace, path, name)
                if (surface and not name.startswith("__")) or name in KERNEL_SURFACE_NAMES:
                    names[surface or "basic"].setdefault(name, kind)
        declared = {n for found in names.values() for n in found}
        enums = {n for (_, n), k in decls.kinds.items() if k == "enum" and n in declared}
        classes = {n for (_, n), k in decls.kinds.items() if k == "type" and n in declared}
        aliases = {a: b for a, b in decls.type_aliases.items() if a in declared}
        members = {c: set(m) for c, m in decls.members.items()}
        bases: dict[str, set[str]] = {}
        for klass in list(decls.bases) + list(aliases):
            inherited, todo, seen = set(), [klass], set()
            while todo:
                k = todo.pop()
                if k in seen:
                    continue
                seen.add(k)
                inherited |= decls.members.get(k, set())
                todo += list(decls.bases.get(k, ())) + ([aliases[k]] if k in aliases else [])
            members[klass] = inherited
            bases[klass] = seen - {klass}
        return cls(names, members, decls.returns, enums, classes, aliases, bases)

    @classmethod
    def from_devkit(cls, tree: Tree) -> ApiIndex:
        """Index the 950's public headers of an asc-devkit checkout."""
        paths = [
            p
            for p in tree.paths()
            if p.startswith(HEADER_ROOTS)
            and p.endswith((".h", ".hpp", ".inl"))
            and not OTHER_ARCH.search(p)
        ]
        return cls.from_headers(tree.read(paths))

    def surfaces(self, name: str) -> list[Surface]:
        """The surfaces declaring *name*."""
        return [s for s in SURFACES if name in self.names[s]]


KERNEL_SURFACE_NAMES = frozenset({"__VEC_SCOPE__"})
"""Double-underscore names that are API, not compiler keywords."""

DOCS_ROOT = "docs/zh/api/"
CUBE_FOLDERS = (
    "SIMD-API/基础API/矩阵计算",
    "SIMD-API/基础API/Cube分组管理",
    "SIMD-API/基础API/data_structure_TensorAPI",
    "SIMD-API/高阶API/矩阵计算",
    "SIMD-API/高阶API/卷积计算",
    "SIMD-API/C-API/cube_",
)
"""Folders of the cube (matrix, convolution) API pages."""
CPP_STD_FOLDERS = ("Utils-API/CPP标准库",)
HOST_FOLDERS = ("Utils-API/",)
DOC_SURFACES = (
    ("SIMD-API/基础API/Reg矢量计算", "reg"),
    ("SIMD-API/C-API", "c_api"),
    ("SIMT-API", "simt"),
    ("SIMD-API", "basic"),
    ("Utils-API/CPP标准库", "basic"),
)
"""Docs folder prefix -> the surface its pages document (first match)."""
_NPU_950 = re.compile(r'<!-- npu="950"[^>]*-->(.*?)<!-- end', re.S)
_CODE = re.compile(r"```[^\n]*\n(.*?)```|`([^`\n]+)`", re.S)
_TITLE = re.compile(r"^#\s+([^<\n]+)", re.M)
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass
class DocIndex:
    """The names the asc-devkit's API pages document, per surface and per class of page."""

    documented: dict[Surface, set[str]] = field(
        default_factory=lambda: collections.defaultdict(set)
    )
    """surface -> names on its 950 pages that are not cube pages."""
    cube: set[str] = field(default_factory=set)
    """names on cube pages."""
    cpp_std: set[str] = field(default_factory=set)
    methods: set[tuple[str, str]] = field(default_factory=set)
    """(class, method) of each method page (``TQue/EnQue.md``)."""
    titles: set[str] = field(default_factory=set)
    """the API names pages are about (file names and headings)."""
    folders: dict[str, set[str]] = field(default_factory=lambda: collections.defaultdict(set))
    """API name -> the docs folders (``SIMD-API/基础API/Memory矢量计算``) of its own pages."""

    @classmethod
    def from_pages(cls, pages: Mapping[str, str]) -> DocIndex:
        """Index API pages ``{path under docs/zh/api/: text}``.

        Examples
        --------
        >>> d = DocIndex.from_pages({"SIMD-API/基础API/资源管理/TQue/EnQue.md": "# EnQue\\n`bool EnQue()`"})
        >>> sorted(d.documented["basic"]), d.methods
        (['EnQue', 'TQue', 'bool'], {('TQue', 'EnQue')})
        """
        index = cls()
        unsupported = _unsupported_folders(pages)
        for path, text in pages.items():
            block = _NPU_950.search(text)
            if block is not None and "不支持" in block.group(1):
                continue
            if block is None and str(PurePosixPath(path).parent) in unsupported:
                continue  # a class's overview page, in a folder of pages the 950 lacks
            words = set()
            for fenced, inline in _CODE.findall(text):
                words.update(_WORD.findall(fenced or inline))
            parts = PurePosixPath(path).parts
            stem = re.sub(r"-\d+$|\(ISASI\)|-?\(ISASI\)", "", PurePosixPath(path).stem)
            titled = set(_WORD.findall(stem)) | {
                w for heading in _TITLE.findall(text)[:1] for w in _WORD.findall(heading)
            }
            folder_names = {part for part in parts[:-1] if _WORD.fullmatch(part)}
            index.titles |= titled
            for name in titled:
                index.folders[name].add("/".join(parts[:-1]))
            names = words | titled | folder_names
            if len(parts) >= 2 and _WORD.fullmatch(parts[-2]):
                for method in titled:
                    index.methods.add((parts[-2], method))
            if path.startswith(CUBE_FOLDERS):
                index.cube |= names
            elif path.startswith(CPP_STD_FOLDERS):
                index.cpp_std |= names
            elif path.startswith(HOST_FOLDERS):
                continue
            else:
                surface = next((s for prefix, s in DOC_SURFACES if path.startswith(prefix)), None)
                if surface is not None:
                    index.documented[surface] |= names
        return index

    @classmethod
    def from_devkit(cls, tree: Tree) -> DocIndex:
        """Index the API pages of an asc-devkit checkout."""
        paths = [p for p in tree.paths() if p.startswith(DOCS_ROOT) and p.endswith(".md")]
        pages = tree.read(paths)
        return cls.from_pages({p.removeprefix(DOCS_ROOT): t for p, t in pages.items()})


def _unsupported_folders(pages: Mapping[str, str]) -> set[str]:
    """The class folders whose pages with a product table all say the Ascend 950 lacks them.

    A page without that table (a class's overview, ``TensorDesc简介.md``) takes its folder's
    verdict: the ``TensorDesc`` methods' pages all say 950 不支持, so its overview's names are
    not the 950's either.

    Examples
    --------
    >>> no = '<!-- npu="950" id1 -->\\n- Ascend 950PR：不支持\\n<!-- end id1 -->'
    >>> sorted(_unsupported_folders({"A/X/Get.md": no, "A/X/intro.md": "# X", "其他/Y.md": no}))
    ['A/X']
    """
    verdicts: dict[str, set[bool]] = collections.defaultdict(set)
    for path, text in pages.items():
        block = _NPU_950.search(text)
        if block is not None:
            verdicts[str(PurePosixPath(path).parent)].add("不支持" not in block.group(1))
    return {
        folder
        for folder, supported in verdicts.items()
        if supported == {False} and _WORD.fullmatch(PurePosixPath(folder).name)
    }


# ---------------------------------------------------------------------------------------------
# The kernels: uses of API names
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Use:
    """One API name a kernel file uses."""

    surface: Surface
    name: str
    """``LoadAlign``, ``MaskMergeMode::ZEROING``, ``TQue::EnQue`` (a method: class::method)."""
    kind: str
    """``name`` (function, type, constant), ``member`` (enum member), ``method``, ``opbase``."""
    template: tuple[str, ...] | None = None
    """the template arguments as written, each normalised to one string."""


MAX_GUESSED_CLASSES = 4
"""A method of an unknown receiver is counted when at most this many API classes have it."""
NAMESPACE_NAMES = frozenset({"AscendC", "Reg", "MicroAPI", "Simt", "std", "Std", "tiling"})
"""Namespaces, not API names (``AscendC::tiling`` holds the matmul tiling structs)."""
OPBASE_NAMESPACES = frozenset({"Ops", "ops", "platform", "Base"})
"""The operator base library's namespaces (not AscendC, not in the operator repositories)."""
STD_NAMESPACES = frozenset({"std", "Std"})
NAME_PASTING_MACROS = frozenset({"ASCENDC_TPL_ARGS_DECL"})
"""Macros that paste their first argument into a name they declare: the ``Quantize`` of
``ASCENDC_TPL_ARGS_DECL(Quantize, ...)`` names an op's tiling key set (``x`` in the header's
``#define ASCENDC_TPL_ARGS_DECL(x, ...)``), not a use of the API ``Quantize``."""


def kernel_paths(paths: Iterable[str]) -> list[str]:
    """The ``op_kernel/arch35/`` source files of a repository listing (tests left out)."""
    return [
        p
        for p in paths
        if "/op_kernel/arch35/" in f"/{p}" and p.endswith(SOURCE_SUFFIXES) and "/tests/" not in p
    ]


class Repository:
    """An operator repository: its kernel files, what they include, what they define."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.all_paths = [p for p in tree.paths() if p.endswith(SOURCE_SUFFIXES)]
        self.by_name: dict[str, list[str]] = collections.defaultdict(list)
        for p in self.all_paths:
            self.by_name[PurePosixPath(p).name].append(p)
        self.kernels = kernel_paths(self.all_paths)
        self.texts: dict[str, str] = {}
        self._load(self.kernels)

    def _load(self, paths: Iterable[str]) -> None:
        wanted = [p for p in paths if p not in self.texts]
        while wanted:
            self.texts.update(self.tree.read(wanted))
            found = {
                r
                for p in wanted
                for inc in includes(self.texts.get(p, ""))
                if (r := self.resolve(p, inc)) is not None
            }
            wanted = sorted(found - set(self.texts))

    def resolve(self, at: str, written: str) -> str | None:
        """The repository file an ``#include "written"`` in *at* names (None: outside)."""
        candidates = [
            p
            for p in self.by_name.get(PurePosixPath(written).name, ())
            if p == written or p.endswith("/" + written)
        ]
        if not candidates:
            return None

        def shared(p: str) -> int:
            a, b = PurePosixPath(p).parts, PurePosixPath(at).parts
            return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)

        return max(candidates, key=shared)

    def closure(self, path: str) -> list[str]:
        """*path* and every repository file it includes, transitively."""
        seen, todo = [path], [path]
        while todo:
            p = todo.pop()
            for inc in includes(self.texts.get(p, "")):
                r = self.resolve(p, inc)
                if r is not None and r not in seen:
                    seen.append(r)
                    todo.append(r)
        return seen


def _enumerators(tokens: list[str]) -> list[str]:
    """The enumerators of the ``enum { ... }`` bodies in *tokens* (a macro body).

    Examples
    --------
    >>> _enumerators(tokenize("struct S { enum { value = X<T>::value, other }; };"))
    ['value', 'other']
    """
    found = []
    for i, t in enumerate(tokens):
        if t != "enum":
            continue
        j = i + 1
        while j < len(tokens) and tokens[j] not in ("{", ";"):
            j += 1
        close = _match(tokens, j, "{", "}") if j < len(tokens) and tokens[j] == "{" else -1
        for arg in split_arguments(tokens[j + 1 : close]) if close > 0 else []:
            if arg and is_identifier(arg[0]):
                found.append(arg[0])
    return found


def _normalise(arg: list[str]) -> str:
    text = "".join(a if not is_identifier(a) else f" {a} " for a in arg)
    return re.sub(r"\s+", " ", text).strip().replace(" :: ", "::")


class KernelScanner:
    """Find the API uses of one kernel file, given its repository's local declarations."""

    def __init__(
        self,
        api: ApiIndex,
        local: Decls,
        tokens: list[str],
        macro_bodies: list[str],
        docs: DocIndex | None = None,
    ) -> None:
        self.api = api
        self.docs = docs or DocIndex()
        self.local = local
        self.tokens = tokens
        self.bodies = [tokenize(b) for b in macro_bodies]
        for body in self.bodies:  # a function-like macro's parameters are its own names
            if body[:1] == ["("]:
                close = _match(body, 0, "(", ")")
                local.variables.update(
                    {t: "" for t in body[1:close] if is_identifier(t) and t not in local.variables}
                )
            for name in _enumerators(body):  # enum { value = ... } in a macro: its own too
                local.variables.setdefault(name, "")
            declared = Decls()  # what a macro body declares (a struct's members) is local too
            walk(body, "<macro>", declared)
            for name, type_ in declared.variables.items():
                local.variables.setdefault(name, type_)
            for owner, members in declared.members.items():
                local.members[owner] |= members
        reg_aliases = {
            a for a, target in local.aliases.items() if target[-1:] in (("Reg",), ("MicroAPI",))
        }
        self.reg_names = REG_NAMESPACES | reg_aliases
        self.reg_in_scope = any(
            ns[-1:] and ns[-1] in REG_NAMESPACES for ns in local.using_namespaces
        )
        self.vf = sorted(local.vf_spans)
        self.local_names = set(local.names) | local.macros | local.template_types
        self.local_names |= set(local.value_params) | set(local.variables)
        self.local_names |= {m for members in local.members.values() for m in members}
        self.local_namespaces = local.namespaces - {"AscendC", "Reg", "MicroAPI", "Simt"}

    def in_vf(self, i: int) -> bool:
        return any(a <= i <= b for a, b in self.vf)

    def uses(self) -> Iterator[Use]:
        yield from self._uses(self.tokens, vf_known=True)
        for body in self.bodies:
            yield from self._uses(body, vf_known=False)

    def _template(self, tokens: list[str], i: int) -> tuple[tuple[str, ...] | None, int]:
        """The template arguments starting at *i* (a ``<``) and the index after them."""
        if i < len(tokens) and tokens[i] == "<":
            close = template_close(tokens, i)
            if close > 0:
                args = split_arguments(tokens[i + 1 : close])
                return tuple(_normalise(a) for a in args), close + 1
        return None, i

    def _uses(self, tokens: list[str], *, vf_known: bool) -> Iterator[Use]:
        n = len(tokens)
        i = 0
        while i < n:
            t = tokens[i]
            if not is_identifier(t) or t in CPP_KEYWORDS:
                i += 1
                continue
            prev = tokens[i - 1] if i else ""
            if prev in (".", "->"):
                yield from self._member(tokens, i, i - 2)
                i += 1
                continue
            if prev == "template" and i >= 2 and tokens[i - 2] in (".", "->"):
                yield from self._member(tokens, i, i - 3)
                i += 1
                continue
            if prev == "::":
                i += 1
                continue
            chain, j = [t], i + 1
            while j + 1 < n and tokens[j] == "::" and is_identifier(tokens[j + 1]):
                chain.append(tokens[j + 1])
                j += 2
            template, _ = self._template(tokens, j)
            found = self._resolve(chain, template, vf=vf_known and self.in_vf(i))
            if found:
                yield from found
            i = j  # template arguments are scanned for their own uses
            if t in NAME_PASTING_MACROS and tokens[j : j + 1] == ["("]:
                i = j + 2  # the pasted name is no use

    def _resolve(
        self, chain: list[str], template: tuple[str, ...] | None, *, vf: bool
    ) -> list[Use]:
        """The uses a name written ``A::B::C`` (*chain*) stands for."""
        head = chain[0]
        if head in OPBASE_NAMESPACES and len(chain) > 1:
            rest = chain[2:] if head == "Ops" and chain[1] == "Base" else chain[1:]
            return [Use("basic", "::".join(rest[:2]), "opbase", template)] if rest else []
        qualified = head == "AscendC"
        if qualified:
            chain = chain[1:]
            if not chain:
                return []
            head = chain[0]
        elif head in self.local_namespaces or head in STD_NAMESPACES:
            return []
        if head in STD_NAMESPACES:
            return []
        surface: Surface | None = None
        if head in self.reg_names and len(chain) > 1:
            surface, chain = "reg", chain[1:]
        elif head == "Simt" and len(chain) > 1:
            surface, chain = "simt", chain[1:]
        elif qualified:
            surface = "basic"
        else:
            surface = self._unqualified_surface(head, vf=vf)
            if surface != "reg" and len(chain) == 1 and self._reg_by_adl(head, template):
                surface = "reg"
            if surface is None:
                return []
        name = chain[0]
        if name in LANGUAGE_TYPES or name in KERNEL_KEYWORDS or name in NAMESPACE_NAMES:
            return []
        uses = [Use(surface, name, "name", template if len(chain) == 1 else None)]
        if len(chain) >= 2:
            uses.append(Use(surface, f"{name}::{chain[1]}", "member", None))
        return uses

    def _reg_by_adl(self, name: str, template: tuple[str, ...] | None) -> bool:
        """True when an unqualified call of *name* (in Reg and elsewhere) is Reg's by ADL.

        ``Cast<float, T, castTrait>(dst, src, mask)`` after only ``using namespace AscendC``
        finds ``Reg::Cast`` through its ``RegTensor`` arguments (argument-dependent lookup).
        The arguments are not typed here, so a template argument that only Reg declares (a
        ``MicroAPI::`` name, a Reg-only type's member, a variable or parameter of a Reg-only
        type such as ``CastTrait``) stands for them: no other overload takes it.
        """
        if not template or name in self.local_names or "reg" not in self.api.surfaces(name):
            return False
        return any(self._reg_only(arg) for arg in template)

    def _reg_only(self, arg: str) -> bool:
        text = arg.replace(" ", "").removeprefix("AscendC::")
        parts = text.split("::")
        if len(parts) > 1 and parts[0] in self.reg_names:
            return True
        declared = self.local.variables.get(text) or self.local.value_params.get(text)
        owner = declared or (parts[0] if len(parts) == 2 else "")
        return bool(owner) and self.api.surfaces(owner) == ["reg"]

    def _unqualified_surface(self, name: str, *, vf: bool) -> Surface | None:
        if name in self.local_names or name in LANGUAGE_TYPES:
            return None
        found = self.api.surfaces(name)
        if not found:
            return None
        if "reg" in found and (vf or self.reg_in_scope) and (vf or "basic" not in found):
            return "reg"
        found = [s for s in found if s != "reg"]
        documented = [s for s in found if name in self.docs.documented.get(s, ())]
        for surface in ("basic", "simt", "c_api"):
            if surface in documented:
                return surface
        for surface in ("basic", "simt", "c_api"):
            if surface in found:
                return surface
        return None

    def _member(self, tokens: list[str], i: int, receiver_end: int) -> Iterator[Use]:
        """A ``recv.name`` or ``recv->name`` use: an API method when the receiver is API."""
        name = tokens[i]
        if name == "template":
            return
        template, after = self._template(tokens, i + 1)
        called = after < len(tokens) and tokens[after] == "("
        receiver = self._receiver_type(tokens, receiver_end)
        classes: list[str]
        if receiver is not None:
            if receiver not in self.api.classes or receiver in self.local.members:
                return
            classes = [receiver]
        else:
            if not called or any(name in m for m in self.local.members.values()):
                return
            classes = sorted(
                c for c, m in self.api.members.items() if name in m and c in self.api.classes
            )
            if not classes or len(classes) > MAX_GUESSED_CLASSES:
                return
        surface = "reg" if all(c in self.api.names["reg"] for c in classes) else "basic"
        kind = "method" if called else "field"
        yield Use(surface, f"{'|'.join(classes)}::{name}", kind, template)

    def _receiver_type(self, tokens: list[str], j: int) -> str | None:
        """The class of the expression ending at token *j* (a name, call or index), if known."""
        if j < 0:
            return None
        t = tokens[j]
        if t == "]":
            depth = 0
            while j >= 0:
                if tokens[j] == "]":
                    depth += 1
                elif tokens[j] == "[":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            return self._receiver_type(tokens, j - 1)
        if t == ")":
            depth = 0
            while j >= 0:
                if tokens[j] == ")":
                    depth += 1
                elif tokens[j] == "(":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            if j >= 1 and tokens[j - 1] == ">":
                k, depth = j - 1, 0
                while k >= 0:
                    if tokens[k] == ">":
                        depth += 1
                    elif tokens[k] == "<":
                        depth -= 1
                        if depth == 0:
                            break
                    k -= 1
                j = k
            if j >= 1 and is_identifier(tokens[j - 1]):
                return self.api.returns.get(tokens[j - 1])
            return None
        if is_identifier(t):
            if t == "this":
                return None
            return self.local.type_at(t, j if tokens is self.tokens else None)
        return None


# ---------------------------------------------------------------------------------------------
# ascreg: is a name there, does a template form subscript
# ---------------------------------------------------------------------------------------------

MODULES = {
    "reg": "ascreg.reg",
    "c_api": "ascreg.c_api",
    "simt": "ascreg.simt",
    "basic": "ascreg.basic",
}
SPELLING = {"reg": "Reg.{}", "c_api": "c_api.{}", "simt": "simt.{}", "basic": "basic.{}"}


def _module(surface: Surface) -> Any:
    return importlib.import_module(MODULES[surface])


def lookup(surface: Surface, name: str) -> Any:
    """The ascreg object spelling *name* (``E::M``, ``C::m``) on *surface*, or None.

    Examples
    --------
    >>> lookup("reg", "MaskMergeMode::ZEROING").name, lookup("reg", "NoSuchThing")
    ('ZEROING', None)
    """
    parts = name.split("::")
    heads = parts[0].split("|")
    if len(parts) == 1 and parts[0] in SCALAR_TYPES and parts[0] not in LANGUAGE_TYPES:
        import ascreg  # the dtypes are ascreg's own names on every surface

        return getattr(ascreg, SCALAR_TYPES[parts[0]])
    for head in heads:
        found = _get(_module(surface), head)
        if found is None and surface == "basic" and head[:1].isupper():
            found = _get(importlib.import_module("ascreg"), head)  # RoundMode, CMPMODE: shared
        if found is None and surface == "simt":
            simt_ns = _get(_module("simt"), "Simt")
            found = _get(simt_ns, head) if simt_ns is not None else None
        for part in parts[1:]:
            if found is None:
                break
            found = _member(found, part)
        if found is not None:
            return found
    return None


def _get(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name)
    except AttributeError:
        return None
    except Exception:
        return None


def _member(obj: Any, name: str) -> Any:
    """*obj*'s attribute *name*, a field declared by annotation included."""
    found = _get(obj, name)
    if found is not None:
        return found
    if isinstance(obj, type):
        for klass in obj.__mro__:
            if name in getattr(klass, "__annotations__", {}) or name in getattr(
                klass, "__slots__", ()
            ):
                return name
            fields = getattr(klass, "__attrs_attrs__", ())
            if any(f.name == name for f in fields):
                return name
            if name in getattr(klass, "__dataclass_fields__", {}):
                return name
    return None


def subscriptable(obj: Any) -> bool:
    """True when ``obj[...]`` is spelled (a template op, a generic class, a template method)."""
    if isinstance(obj, type):
        return hasattr(obj, "__class_getitem__") or hasattr(type(obj), "__getitem__")
    return hasattr(obj, "__getitem__") or hasattr(type(obj), "__getitem__")


def _member_template(obj: Any) -> bool:
    """True for an ascreg member function template read from its class (``TPipe.AllocEventID``)."""
    return not subscriptable(obj) and callable(getattr(obj, "instance", None))


def _representatives(obj: Any) -> list[Any]:
    """Dtypes to stand for a kernel's ``typename T`` in a trial subscript of *obj*."""
    import ascreg

    spec = getattr(obj, "spec", None)
    combos = list(getattr(spec, "combos", ()) or ())
    firsts = []
    for combo in combos:
        if combo and combo[0] not in firsts:
            firsts.append(combo[0])
    defaults = [ascreg.float32_t, ascreg.half, ascreg.int32_t, ascreg.uint8_t, ascreg.int64_t]
    return (firsts + [d for d in defaults if d not in firsts])[:6]


class Trial:
    """Try a template form written in C++ as an ascreg subscript."""

    def __init__(self, surface: Surface, api: ApiIndex, local: Decls) -> None:
        self.surface = surface
        self.api = api
        self.local = local

    def argument(self, arg: str, type_param: Any) -> Any:
        """The Python value of one template argument (``type_param`` for a ``typename T``).

        Raises ``LookupError`` when it cannot be decided statically.
        """
        import ascreg

        text = arg.replace(" ", "")
        text = self.local.type_aliases.get(text, text)
        if text in SCALAR_TYPES:
            return getattr(ascreg, SCALAR_TYPES[text])
        if text in self.local.template_types or text in self.local.type_aliases:
            return type_param
        if re.fullmatch(r"-?\d+[uUlL]*", text):
            return int(re.sub(r"[uUlL]", "", text))
        parts = [p for p in text.split("::") if p and p != "AscendC"]
        if parts and parts[0] in REG_NAMESPACES | {"Simt"}:
            surface, parts = ("reg" if parts[0] != "Simt" else "simt"), parts[1:]
        else:
            surface = self.surface
        if len(parts) == 2:  # an enum member; through its alias (QuePosition: TPosition) too
            owners = dict.fromkeys((parts[0], self.api.type_aliases.get(parts[0], parts[0])))
            for where in dict.fromkeys((surface, "reg", "basic")):
                for owner in owners:
                    found = lookup(where, f"{owner}::{parts[1]}")
                    if found is not None:
                        return found
            raise KeyError(text)
        if len(parts) == 1 and is_identifier(parts[0]):
            name = parts[0]
            enum_type = self.local.value_params.get(name)
            if enum_type:
                klass = (
                    lookup(surface, enum_type)
                    or lookup("reg", enum_type)
                    or lookup("basic", enum_type)
                )
                if isinstance(klass, type) and issubclass(klass, enum.Enum):
                    return next(iter(klass))
                if enum_type in LANGUAGE_TYPES:
                    return 1
                raise LookupError(text)
            type_ = self.local.variables.get(name)
            if type_ in LANGUAGE_TYPES or (name.isupper() and name in self.local.names):
                return 1
            found = lookup(surface, name)
            if found is not None:
                return found
        raise LookupError(text)

    def run(self, obj: Any, args: tuple[str, ...]) -> tuple[bool | None, Any]:
        """Whether ``obj[args]`` is taken (None: not decidable statically), and what it made."""
        if not args:  # C<>: the defaults; the Python spelling is the plain name
            return True, obj
        has_param = any(
            a.replace(" ", "") in self.local.template_types
            or self.local.type_aliases.get(a.replace(" ", ""), "") not in ("", *SCALAR_TYPES)
            for a in args
        )
        candidates = _representatives(obj) if has_param else [None]
        decided = False
        for dtype in candidates:
            try:
                items = tuple(self.argument(a, dtype) for a in args)
            except LookupError:
                return None, None
            decided = True
            try:
                made = obj[items if len(items) != 1 else items[0]]
            except Exception:
                continue
            return True, made
        return (False if decided else None), None


# ---------------------------------------------------------------------------------------------
# The census
# ---------------------------------------------------------------------------------------------


@dataclass
class Entry:
    """One identifier: where it is used, how it is classed, whether ascreg takes it."""

    surface: Surface
    name: str
    kind: str
    files: set[str] = field(default_factory=set)
    forms: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    form_results: dict[tuple[str, ...], bool | None] = field(default_factory=dict)
    status: str = ""
    accepted: bool = False

    @property
    def cpp(self) -> str:
        prefix = "Reg::" if self.surface == "reg" else ""
        if self.kind in ("method", "field"):
            cls, _, method = self.name.rpartition("::")
            return f"{cls}::{method}" if "|" not in cls else f"({cls})::{method}"
        return f"{prefix}{self.name}"


def form_shape(args: tuple[str, ...], local: Decls, api: ApiIndex) -> str:
    """A template form by kinds: ``<T, T, MaskMergeMode>`` -> ``<type, type, MaskMergeMode>``.

    Examples
    --------
    >>> local = Decls(template_types={"T"}, value_params={"mode": "MaskMergeMode"})
    >>> api = ApiIndex({}, {}, {}, {"MaskMergeMode"}, set())
    >>> form_shape(("T", "float", "mode", "MicroAPI::MaskMergeMode::ZEROING", "4"), local, api)
    '<type, type, MaskMergeMode, MaskMergeMode, int>'
    """
    kinds = []
    for arg in args:
        a = arg.removeprefix("typename ").replace(" ", "")
        parts = [p for p in a.split("::") if p not in ("AscendC", "Reg", "MicroAPI")]
        if a in SCALAR_TYPES or a in local.template_types or a in local.type_aliases:
            kinds.append("type")
        elif a in local.value_params:
            kinds.append(local.value_params[a])
        elif is_identifier(a) and a in local.variables:
            type_ = local.variables[a]
            kinds.append("int" if type_ in LANGUAGE_TYPES or not type_ else type_)
        elif re.fullmatch(r"-?\d+[uUlL]*", a) or (a.isupper() and "::" not in a):
            kinds.append("int")
        elif len(parts) == 2 and (parts[0] in api.enums or parts[0] in api.type_aliases):
            kinds.append(parts[0])
        else:
            kinds.append("expr")
    return "<" + ", ".join(kinds) + ">"


@dataclass
class Census:
    """The census of one or more repositories."""

    api: ApiIndex
    docs: DocIndex
    entries: dict[tuple[Surface, str, str], Entry] = field(default_factory=dict)
    files: int = 0
    products: dict[tuple[Surface, str], list[Any]] = field(default_factory=dict)
    """what the accepted subscripts of a class made (``TQue[VECIN, 1]``): to find its methods."""

    def add_repository(self, repo: Repository) -> None:
        decls_of: dict[str, Decls] = {}
        tokens_of: dict[str, tuple[list[str], list[str]]] = {}

        def decls_for(path: str) -> Decls:
            if path not in decls_of:
                d = Decls()
                code, macros, bodies = split_preprocessor(repo.texts.get(path, ""))
                tokens = tokenize(code)
                for name, _ in macros:
                    d.macros.add(name)
                    d.add((), name, "macro", path)
                walk(tokens, path, d)
                decls_of[path] = d
                tokens_of[path] = (tokens, bodies)
            return decls_of[path]

        for path in repo.kernels:
            local = Decls()
            for included in repo.closure(path):
                local.merge(decls_for(included))
            own = decls_for(path)
            local.vf_spans, local.sites = own.vf_spans, own.sites
            tokens, bodies = tokens_of[path]
            self.add_file(repo.tree.name + ":" + path, tokens, bodies, local)

    def add_text(self, path: str, text: str, local_texts: Mapping[str, str] = {}) -> None:
        """Census one kernel *text* (its repository's other files in *local_texts*)."""
        local = Decls()
        for other, other_text in local_texts.items():
            scan(other, other_text, local)
        own = Decls()
        code, macros, bodies = split_preprocessor(text)
        tokens = tokenize(code)
        for name, _ in macros:
            own.macros.add(name)
            own.add((), name, "macro", path)
        walk(tokens, path, own)
        local.merge(own)
        local.vf_spans, local.sites = own.vf_spans, own.sites
        self.add_file(path, tokens, bodies, local)

    def add_file(self, path: str, tokens: list[str], bodies: list[str], local: Decls) -> None:
        """Census one preprocessed kernel file (*local*: what its repository files declare)."""
        self.files += 1
        scanner = KernelScanner(self.api, local, tokens, bodies, self.docs)
        trials = {s: Trial(s, self.api, local) for s in SURFACES}
        for use in scanner.uses():
            key = (use.surface, use.name, use.kind)
            entry = self.entries.get(key)
            if entry is None:
                entry = self.entries[key] = Entry(use.surface, use.name, use.kind)
            entry.files.add(path)
            if use.template is None or use.kind == "member":
                continue
            shape = (form_shape(use.template, local, self.api),)
            entry.forms.setdefault(shape, set()).add(path)
            if use.kind != "name" or entry.form_results.get(shape) is True:
                continue
            obj = lookup(use.surface, use.name)
            if obj is None:
                entry.form_results[shape] = False
                continue
            result, made = trials[use.surface].run(obj, use.template)
            previous = entry.form_results.get(shape)
            entry.form_results[shape] = result if previous is None else previous or bool(result)
            products = self.products.setdefault((use.surface, use.name), [])
            if made is not None and len(products) < 4:
                products.append(made)

    def instances(self, surface: Surface, cls: str) -> list[Any]:
        """Objects standing for a C++ *cls* on *surface*: the class, what its subscripts made
        and, where a plain call builds one, an instance (the members of which are checked)."""
        found: list[Any] = []
        names = [cls, *sorted(self.api.bases.get(cls, ()))]
        for name in names:
            obj = lookup(surface, name)
            if obj is None:
                continue
            found.append(obj)
            for made in [obj, *self.products.get((surface, name), ())]:
                if made is not obj:
                    found.append(made)
                if callable(made):
                    try:
                        found.append(made())
                    except Exception:
                        continue
        return found

    def members(self, entry: Entry) -> Iterator[Any]:
        """Every ascreg attribute a method or field entry names, on each object standing for
        its class (the class itself, what its subscripts made, an instance)."""
        owners, _, name = entry.name.rpartition("::")
        for owner in owners.split("|"):
            for obj in self.instances(entry.surface, owner):
                found = _member(obj, name)
                if found is None and not isinstance(obj, type):
                    found = _member(type(obj), name)
                if found is not None:
                    yield found

    def member(self, entry: Entry) -> Any:
        """The first ascreg attribute a method or field entry names, or None."""
        return next(self.members(entry), None)

    def classify(self) -> None:
        """Set each entry's class, whether ascreg has it and whether its method forms subscript."""
        for entry in self.entries.values():
            entry.status = self.status(entry)
            if entry.kind in ("method", "field"):
                found = self.member(entry)
                templated = any(
                    subscriptable(m) or _member_template(m) for m in self.members(entry)
                )
                for shape in entry.forms:
                    entry.form_results[shape] = templated
            elif entry.kind == "opbase":
                found = lookup("basic", entry.name)
            else:
                found = lookup(entry.surface, entry.name)
            entry.accepted = found is not None

    def status(self, entry: Entry) -> str:
        """The class of *entry* (``documented``, ``cube``, ``undocumented``, ...)."""
        if entry.kind == "opbase":
            return "opbase"
        words = entry.name.replace("|", "::").split("::")
        if words[-1] in CPP_STD_NAMES and entry.kind == "name":
            return "cpp-std"
        documented = self.docs.documented.get(entry.surface, set())

        def known(word: str, where: set[str]) -> bool:
            return word in where or self.api.type_aliases.get(word, "") in where

        last, owners = words[-1], words[:-1]

        def cube_pages(name: str) -> bool:  # its own pages are all cube pages
            pages = self.docs.folders.get(name, set())
            return bool(pages) and all(p.startswith(CUBE_FOLDERS) for p in pages)

        def declared(owner: str) -> bool:
            """Whether *last* can be *owner*'s: the headers declare it there, or say nothing.

            A class or enum whose body the headers show has exactly those members (inherited
            ones included); a name the headers declare only as a function has none (a kernel's
            ``namespace RmsNorm`` is not the ``RmsNorm`` API).
            """
            name = self.api.type_aliases.get(owner, owner)
            members = self.api.members.get(name, set()) | self.api.members.get(owner, set())
            if (name in self.api.classes or name in self.api.enums) and members:
                return last in members
            kinds = {k.get(name) for k in self.api.names.values()} - {None}
            return not (kinds == {"function"} and name not in self.api.classes)

        if owners and all(cube_pages(c) for c in owners):
            return "cube"
        if entry.kind in ("method", "field"):
            if any((c, last) in self.docs.methods for c in owners) or (
                last in documented and any(known(c, documented) and declared(c) for c in owners)
            ):
                return "documented"
            if last in self.docs.cube and any(known(c, self.docs.cube) for c in owners):
                return "cube"
            return "undocumented"
        if entry.kind == "member":
            owner = self.api.type_aliases.get(owners[0], owners[0])
            if owner == "TPosition" and last in CUBE_POSITIONS:
                return "cube"
            if known(owners[0], documented) and last in documented and declared(owners[0]):
                return "documented"
            if last in self.docs.cube:
                return "cube"
            return "undocumented"
        if cube_pages(last) or cube_pages(self.api.type_aliases.get(last, "")):
            return "cube"  # other pages only mention it
        if known(last, documented):
            return "documented"
        if known(last, self.docs.cube):
            return "cube"
        if last in self.docs.cpp_std:
            return "cpp-std"
        return "undocumented"

    def has_page(self, entry: Entry) -> bool:
        """True when the API a documented entry names (its class, for a member) has a page."""
        head = entry.name.replace("|", "::").split("::")[0]
        return bool(
            self.docs.folders.get(head) or self.docs.folders.get(entry.name.split("::")[-1])
        )

    def summary(self) -> dict[str, Any]:
        counted = [e for e in self.entries.values() if e.status == "documented"]
        accepted = [e for e in counted if e.accepted]
        forms = [(e, f) for e in counted for f, ok in e.form_results.items() if ok is not None]
        forms_ok = [(e, f) for e, f in forms if e.form_results[f]]
        weight = sum(len(e.files) for e in counted)
        weight_ok = sum(len(e.files) for e in accepted)
        paged = [e for e in counted if self.has_page(e)]
        return {
            "files": self.files,
            "identifiers": len(self.entries),
            "documented": len(counted),
            "accepted": len(accepted),
            "percent": 100.0 * len(accepted) / max(len(counted), 1),
            "uses_percent": 100.0 * weight_ok / max(weight, 1),
            "paged": len(paged),
            "paged_accepted": sum(e.accepted for e in paged),
            "forms": len(forms),
            "forms_accepted": len(forms_ok),
            "by_status": collections.Counter(e.status for e in self.entries.values()),
        }


CUBE_POSITIONS = frozenset({"A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "SHM"})
"""TPosition members of the cube unit's buffers."""
CPP_STD_NAMES = frozenset(
    {"is_same", "is_same_v", "IsSameType", "conditional", "conditional_t", "enable_if"}
    | {"SupportType", "SupportBytes", "Conditional", "EnableIf", "IsSame", "is_same_type"}
    | {"integral_constant", "tuple", "get", "min", "max", "is_integral", "is_floating_point"}
    | {"sqrt", "offsetof"}
)
"""C++ metaprogramming names AscendC re-declares (their Python spelling is the language's own),
and the C library's ``sqrt`` / ``offsetof`` kernels call on scalars (the headers' mentions of
them are in comments and examples, not AscendC declarations)."""


def render(census: Census, *, limit: int | None = None) -> str:
    """The census as markdown: the summary, then one row per identifier (most-used first)."""
    s = census.summary()
    lines = [
        f"Kernel files: {s['files']}; distinct AscendC identifiers: {s['identifiers']} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(s['by_status'].items()))}).",
        "",
        f"**Documented non-cube identifiers ascreg accepts: {s['accepted']} of {s['documented']} "
        f"({s['percent']:.1f} %)**; weighted by the files using each: {s['uses_percent']:.1f} %; "
        f"of those whose API has its own page: {s['paged_accepted']} of {s['paged']} "
        f"({100.0 * s['paged_accepted'] / max(s['paged'], 1):.1f} %). "
        f"Template forms of those (decidable statically): {s['forms_accepted']} of {s['forms']} taken.",
        "",
        "| identifier | surface | kind | class | files | ascreg | template forms (files, taken) |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = sorted(census.entries.values(), key=lambda e: (-len(e.files), e.surface, e.name))
    for entry in rows[:limit]:
        forms = "; ".join(
            f"`{f[0]}` ({len(paths)}, {_mark(entry.form_results.get(f))})"
            for f, paths in sorted(entry.forms.items(), key=lambda kv: -len(kv[1]))[:4]
        )
        spelled = SPELLING[entry.surface].format(entry.name.replace("::", "."))
        lines.append(
            f"| `{entry.cpp}` | {entry.surface} | {entry.kind} | {entry.status} | {len(entry.files)} "
            f"| {'yes' if entry.accepted else 'no'} (`{spelled}`) | {forms} |"
        )
    return "\n".join(lines) + "\n"


def _mark(result: bool | None) -> str:
    return {True: "yes", False: "no", None: "?"}[result]


MEMORY_VECTOR_FOLDER = "SIMD-API/基础API/Memory矢量计算"
"""The docs folder of the memory-level (LocalTensor) vector API."""


FOLDER_OWNERS = (
    (MEMORY_VECTOR_FOLDER, "memvec"),
    ("SIMD-API/高阶API", "none (advanced API)"),
    ("SIMD-API/基础API/Kernel-Tiling", "none (tiling macros)"),
)
"""Docs folder -> who builds its names (issue 25's split); the rest of the basic API is glue's."""


def owner(census: Census, entry: Entry) -> str:
    """Whose work a gap is, by the issue's split (a guess from the surface and the docs folder):
    the memory-level vector API (memvec), the Reg / C API / SIMT spellings (spell), the basic-API
    glue (glue), or nobody's (the advanced API, the tiling macros)."""
    if entry.surface in ("reg", "c_api", "simt"):
        return "spell"
    head = entry.name.replace("|", "::").split("::")[0]
    for folder in sorted(census.docs.folders.get(head, ())):
        for prefix, who in FOLDER_OWNERS:
            if folder.startswith(prefix) or f"{folder}/".startswith(prefix):
                return who
    return "glue"


def gaps(census: Census, *, limit: int = 80) -> str:
    """The documented non-cube identifiers ascreg lacks, and refused template forms, most-used first."""
    missing = sorted(
        (e for e in census.entries.values() if e.status == "documented" and not e.accepted),
        key=lambda e: (-len(e.files), e.name),
    )
    owners = collections.Counter(owner(census, e) for e in missing)
    s = census.summary()
    lines = [
        f"{s['accepted']} of {s['documented']} documented non-cube identifiers accepted "
        f"({s['percent']:.1f} %; {s['uses_percent']:.1f} % weighted by files). "
        f"Missing by owner (guess): "
        + ", ".join(f"{k} {v}" for k, v in owners.most_common())
        + ".",
        "",
        "| identifier | surface | kind | files | Python spelling | owner (guess) |",
        "|---|---|---|---|---|---|",
    ]
    for e in missing[:limit]:
        spelled = SPELLING[e.surface].format(e.name.replace("::", "."))
        lines.append(
            f"| `{e.cpp}` | {e.surface} | {e.kind} | {len(e.files)} | `{spelled}` "
            f"| {owner(census, e)} |"
        )
    refused = sorted(
        (
            (e, f, len(paths))
            for e in census.entries.values()
            if e.status == "documented" and e.accepted
            for f, paths in e.forms.items()
            if e.form_results.get(f) is False
        ),
        key=lambda x: -x[2],
    )
    lines += ["", "Template forms refused (identifier present):", ""]
    lines += ["| identifier | form | files |", "|---|---|---|"]
    lines += [f"| `{e.cpp}` | `{f[0]}` | {n} |" for e, f, n in refused[:limit]]
    undocumented = sorted(
        (
            e
            for e in census.entries.values()
            if e.status in ("undocumented", "opbase") and not e.accepted
        ),
        key=lambda e: -len(e.files),
    )
    lines += ["", "Not documented for the 950 (or the operator base library), not in ascreg:", ""]
    lines += ["| identifier | class | files |", "|---|---|---|"]
    lines += [f"| `{e.cpp}` | {e.status} | {len(e.files)} |" for e in undocumented[:limit]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="*", help="operator repository work trees")
    parser.add_argument("--git", action="append", default=[], help="a bare operator repository")
    parser.add_argument("--devkit", required=True, help="asc-devkit work tree or bare repository")
    parser.add_argument("--out", help="write the full markdown table here (default: stdout)")
    parser.add_argument("--gaps", help="write the gap list here")
    parser.add_argument("--limit", type=int, default=None, help="rows of the table")
    args = parser.parse_args(argv)
    devkit_path = Path(args.devkit)
    devkit = Tree(
        devkit_path, git=not (devkit_path / ".git").exists() and (devkit_path / "HEAD").exists()
    )
    census = Census(ApiIndex.from_devkit(devkit), DocIndex.from_devkit(devkit))
    trees = [Tree(p) for p in args.checkouts] + [Tree(p, git=True) for p in args.git]
    for tree in trees:
        census.add_repository(Repository(tree))
    census.classify()
    table = render(census, limit=args.limit)
    if args.out:
        Path(args.out).write_text(table)
    else:
        sys.stdout.write(table)
    if args.gaps:
        Path(args.gaps).write_text(gaps(census))
    s = census.summary()
    print(
        f"{s['accepted']} of {s['documented']} documented non-cube identifiers accepted "
        f"({s['percent']:.1f} %), {s['forms_accepted']} of {s['forms']} template forms",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

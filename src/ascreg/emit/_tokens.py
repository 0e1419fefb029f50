"""C++ tokens, normalised for the round trip: how close emitted code is to the original kernel.

:func:`tokens` splits C++ into tokens without comments, preprocessor lines and whitespace;
:func:`normalise` then makes spellings of the same thing equal:

* the fundamental types are written as the fixed-width types they are on the target
  (``unsigned int`` is ``uint32_t``, ``int`` is ``int32_t``, ``long`` is ``int64_t`` ...);
* ``__inline__`` is ``inline``, and ``class`` in a template head is ``typename``;
* namespace qualification is dropped (``AscendC::Reg::Add`` is ``Add``: the same function,
  whether the code qualifies it or says ``using namespace AscendC``);
* the names the code chose (locals, parameters, members, its own constants and functions) are
  renamed in order of first appearance; the API's names (every name ``ascreg_decl.h``
  declares), keywords and types must match as written.

:func:`definitions` cuts a translation unit into its top-level definitions (functions,
classes, constants), so an emitted function is compared with the original function of its
name; :func:`compare` gives the matching tokens.

Examples
--------
>>> a = normalise(tokens("unsigned int f(unsigned int x) { return x + 1; }"), {"f"})
>>> b = normalise(tokens("uint32_t f(uint32_t y) { return y + 1; }"), {"f"})
>>> a == b, a[:4]
(True, ['uint32_t', 'f', '(', 'uint32_t'])
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import re
from collections.abc import Iterable

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pre>^[ \t]*\#[^\n]*(?:\\\n[^\n]*)*)
  | (?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<number>(?:0[xX][0-9a-fA-F']+|\d[\d']*\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>::|->\*?|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<|\.\.\.|[{}()\[\];,.<>?:=+\-*/%&|^!~])
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)
KEYWORDS = frozenset(
    [
        "alignas",
        "auto",
        "bool",
        "break",
        "case",
        "char",
        "class",
        "const",
        "constexpr",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "else",
        "enum",
        "explicit",
        "extern",
        "false",
        "float",
        "for",
        "if",
        "inline",
        "int",
        "long",
        "namespace",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
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
        "true",
        "typename",
        "union",
        "unsigned",
        "using",
        "void",
        "volatile",
        "while",
        "reinterpret_cast",
        "const_cast",
        "dynamic_cast",
    ]
)
FIXED = {
    ("unsigned", "int"): "uint32_t", ("unsigned",): "uint32_t", ("int",): "int32_t",
    ("signed", "int"): "int32_t", ("unsigned", "short"): "uint16_t", ("short",): "int16_t",
    ("unsigned", "char"): "uint8_t", ("signed", "char"): "int8_t",
    ("unsigned", "long", "long"): "uint64_t", ("long", "long"): "int64_t",
    ("unsigned", "long"): "uint64_t", ("long",): "int64_t", ("size_t",): "uint64_t",
}  # fmt: skip
"""Fundamental type spellings and the fixed-width type each is on the target (LP64)."""
NAMESPACES = frozenset({"AscendC", "Reg", "MicroAPI", "std", "cooperative_groups"})
SYNONYMS = {"__inline__": "inline", "__inline": "inline"}
"""Keywords spelled two ways (GNU's ``__inline__`` is ``inline``)."""


def tokens(text: str) -> list[str]:
    """Return the C++ tokens of *text*: no whitespace, comments or preprocessor lines; ``>>`` split."""
    out = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("space", "comment", "pre"):
            continue
        value = match.group()
        if value == ">>":
            out += [">", ">"]
        else:
            out.append(value)
    return out


def _fixed_types(toks: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(toks):
        for length in (3, 2, 1):
            key = tuple(toks[i : i + length])
            if key in FIXED:
                out.append(FIXED[key])
                i += length
                break
        else:
            out.append(toks[i])
            i += 1
    return out


def normalise(toks: Iterable[str], api: Iterable[str]) -> list[str]:
    """Fixed-width types, no namespace qualifiers, the code's own names renamed by order."""
    known = set(api) | KEYWORDS
    listed = _fixed_types(list(toks))
    out: list[str] = []
    i = 0
    heading = 0  # the depth of `<` inside a `template <...>` head
    while i < len(listed):
        tok = SYNONYMS.get(listed[i], listed[i])
        if tok == "<" and (heading or (out and out[-1] == "template")):
            heading += 1
        elif tok == ">" and heading:
            heading -= 1
        elif tok == "class" and heading == 1:
            tok = "typename"  # template <class T> is template <typename T>
        if tok in NAMESPACES and i + 1 < len(listed) and listed[i + 1] == "::":
            i += 2
            continue
        if tok == "::" and (not out or not re.fullmatch(r"\w+", out[-1])):
            i += 1  # a leading ::
            continue
        out.append(tok)
        i += 1
    names: dict[str, str] = {}
    renamed = []
    for tok in out:
        if re.fullmatch(r"[A-Za-z_]\w*", tok) and tok not in known and not tok.endswith("_t"):
            tok = names.setdefault(tok, f"${len(names)}")
        renamed.append(tok)
    return renamed


@functools.cache
def api_names(header: str) -> frozenset[str]:
    """Every name *header* (the text of ``ascreg_decl.h``) declares at namespace or class scope."""
    found: set[str] = set()
    header = re.sub(r"//[^\n]*|/\*.*?\*/", "", header, flags=re.DOTALL)
    patterns = (
        r"\b(?:struct|class|enum class|enum|union|namespace|using)\s+(\w+)",
        r"#define\s+(\w+)",
        r"^ASCREG_BYTE_TYPE\((\w+)\)",
        r"(\w+)\s*\(",
        r"constexpr\s+[\w:<>, ]+?\s(\w+)\s*=",
        r"inline\s+[\w:<>, ]+?\s(\w+)\s*[{;=]",
        r"struct \w+ \{ (?:\w+ (\w+); )+",
    )
    for pattern in patterns:
        found.update(re.findall(pattern, header, re.MULTILINE))
    for members in re.findall(r"struct \w+ \{ ((?:\w+ \w+; )+)\}", header):
        found.update(re.findall(r"\w+ (\w+);", members))
    for body in re.findall(r"\benum(?: class)? \w+ \{([^}]*)\}", header):
        found.update(re.findall(r"(\w+) = -?\d+", body))
    found.update({"x", "y", "z", "w"})
    return frozenset(found)


def _matching(toks: list[str], start: int, opening: str, closing: str) -> int:
    """Return the index of the bracket closing the one at *start*."""
    depth = 0
    for index in range(start, len(toks)):
        if toks[index] == opening:
            depth += 1
        elif toks[index] == closing:
            depth -= 1
            if depth == 0:
                return index
    return len(toks) - 1


def _head(toks: list[str], name: int, floor: int) -> int:
    """Where the declaration of the function named at *name* starts (its template and type)."""
    i = name - 1
    while i >= floor:
        tok = toks[i]
        if tok == ">":
            depth = 0
            while i >= floor:
                depth += {">": 1, "<": -1}.get(toks[i], 0)
                if depth == 0:
                    break
                i -= 1
            i -= 1
            continue
        if tok == ")":  # __launch_bounds__(n) and __attribute__((...)) belong to the head
            depth, j = 0, i
            while j >= floor:
                depth += {")": 1, "(": -1}.get(toks[j], 0)
                if depth == 0:
                    break
                j -= 1
            if j > floor and toks[j - 1] in ("__launch_bounds__", "__attribute__"):
                i = j - 2
                continue
            break
        if tok in (";", "{", "}", "]") or not (
            re.fullmatch(r"\w+", tok) or tok in ("::", "*", "&")
        ):
            break
        i -= 1
    return i + 1


def definitions(text: str) -> dict[str, list[str]]:
    """Return the top-level definitions of a translation unit by name: functions, classes, constants.

    Each is its tokens from the start of its declaration (``template <...>``, qualifiers) to
    its closing brace or semicolon. Namespace blocks are looked into; the first definition of
    a name wins.

    Examples
    --------
    >>> found = definitions("constexpr int N = 4; namespace { __global__ void k(int* p) { p[0] = N; } }")
    >>> sorted(found), found["k"][:3]
    (['N', 'k'], ['__global__', 'void', 'k'])
    """
    toks = tokens(text)
    found: dict[str, list[str]] = {}
    start = 0
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok == "namespace":
            brace = toks.index("{", i) if "{" in toks[i:] else len(toks)
            i = start = brace + 1
            continue
        if tok in (";", "}"):
            i += 1
            start = i
            continue
        if tok in ("class", "struct") and i + 2 < len(toks) and toks[i + 2] in ("{", ":"):
            name = toks[i + 1]
            brace = toks.index("{", i)
            end = _matching(toks, brace, "{", "}")
            end = end + 1 if end + 1 < len(toks) and toks[end + 1] == ";" else end
            found.setdefault(name, toks[start : end + 1])
            i = start = end + 1
            continue
        if (
            tok == "("
            and i > 0
            and re.fullmatch(r"\w+", toks[i - 1])
            and toks[i - 1] not in KEYWORDS
        ):
            close = _matching(toks, i, "(", ")")
            after = close + 1
            while after < len(toks) and toks[after] in ("const", "noexcept", "override"):
                after += 1
            if after < len(toks) and toks[after] == "{":
                end = _matching(toks, after, "{", "}")
                found.setdefault(toks[i - 1], toks[_head(toks, i - 1, start) : end + 1])
                i = start = end + 1
                continue
            i = close + 1
            continue
        if tok == "=" and i > 0 and start < i and "constexpr" in toks[start:i]:
            end = toks.index(";", i) if ";" in toks[i:] else len(toks) - 1
            found.setdefault(toks[i - 1], toks[start : end + 1])
            i = start = end + 1
            continue
        if tok == "{":
            i = _matching(toks, i, "{", "}") + 1
            continue
        i += 1
    return found


def compare(original: list[str], emitted: list[str]) -> int:
    """How many tokens the two sequences share in order (difflib's matching blocks)."""
    matcher = difflib.SequenceMatcher(None, original, emitted, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def digest(toks: list[str]) -> str:
    """Return a short stable digest of a normalised token list (the round trip's committed record)."""
    return hashlib.sha256("\x00".join(toks).encode()).hexdigest()[:16]

"""Write ``src/ascreg/_data/documented_names.txt``: the API names the asc-devkit documents.

Run once against a checkout (or bare clone) of the public asc-devkit repository; the result is
committed, so ascreg never needs the documents at run time. Only the names are kept, one
``<surface> <name>`` a line, taken from the documents' file names: a page per API, named after
it (``Exp.md``, ``连续对齐搬入（LoadAlign）.md``, ``asc_add.md``, ``__hgtx2-218.md``), plus
every ``asc_*`` function a C API page declares (``asc_half2int32.md`` declares
``asc_half2int32_rn``, ``asc_half2int32_rn_sat``, ...). A third field ``not-on-950`` marks a
name whose pages all say the Ascend 950 does not support it; ``family=a,b,...`` marks a C API
page named after a family of functions it declares but which is not one itself
(``asc_create_mask.md`` declares ``asc_create_mask_b8`` ...). A C API overview page (named after
its folder, declaring nothing: ``reg/reg_load/reg_load.md``) documents no API and is left out.

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
    "basic": "docs/zh/api/SIMD-API/基础API/",
}
"""Surface -> the documents' folder whose pages each describe one API (a page in a folder of
another surface inside it, the Reg pages inside the basic API's, belongs to that surface)."""
C_DECLARATION = re.compile(r"(?:inline|__aicore__|__simd_callee__)[^\n(]*?\b(asc_\w+)\s*\(")
"""A C API function declared in a page's prototypes (the page name is often its family's)."""
PROTOTYPES = re.compile(r"^## 函数原型.*?(?=^## )", re.M | re.S)
"""A page's prototype section (its declarations, qualified or not: ``asc_create_mask_b8(pat)``)."""
C_CALL = re.compile(r"\b(asc_\w+)\s*\(")
NOT_ON_950 = "not-on-950"
"""The third field of a line whose every page says the Ascend 950 does not support the API."""
FAMILY = "family="
"""The field of a C API page name that is no function: ``family=`` its functions, by commas."""
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def page_name(path: str) -> str | None:
    """Return the API a page documents, from its file name (None for overview pages)."""
    stem = PurePosixPath(path).stem
    inner = re.search(r"（([^）]+)）", stem)  # "连续对齐搬入（LoadAlign）"
    name = re.sub(r"-\d+$", "", inner.group(1) if inner else stem)  # "__hgtx2-218"
    if not IDENTIFIER.fullmatch(name) or name in ("README",):
        return None
    return name


CPP_KEYWORDS = frozenset({"operator"})
"""Page names that are C++ keywords (``operator.md`` documents ``operator[]``), not API names."""
DECLARED = re.compile(r"(?:inline|__aicore__)[^\n(]*?\b(\w+)\s*\(")
"""A function a basic-API page declares (its spelling is the C++ one when the file's differs
only in case: ``SetSysWorkSpace.md`` declares ``SetSysWorkspace``)."""


def basic_page_names(path: str, page: str, files: set[str]) -> list[str]:
    """Return the API names a basic-API page documents (two for ``SetFlag/WaitFlag``).

    The names come from the page's title (else its file name): split at ``/``, with notes in
    parentheses (``(ISASI)``, ``（GMToUB多维数据搬运NDDMA）``) dropped unless the parenthesis
    holds the name itself; titles that are not identifiers (``F32 Channel Split``) document a
    concept, not an API. A page in a folder named after a class whose own page is there
    (``TQue/TQue.md``, ``NumericLimits工具类/NumericLimits工具类.md``) documents a member,
    written ``TQue.EnQue``, ``NumericLimits.Infinity``.
    """
    posix = PurePosixPath(path)
    title = HEADING.search(page)
    text = re.sub(r"<a [^>]*></a>|\\", "", title.group(1) if title else posix.stem)
    inner = re.search(r"（([^）]+)）", text)
    if inner and IDENTIFIER.fullmatch(inner.group(1)):
        text = inner.group(1)
    text = re.sub(r"（[^）]*）|\([^)]*\)", "", text)
    parts = [re.sub(r"-\d*$", "", part.strip()) for part in text.split("/")]
    names = [p for p in parts if IDENTIFIER.fullmatch(p) and p not in CPP_KEYWORDS]
    declared = {d.lower(): d for d in DECLARED.findall(page)}
    names = [declared.get(name.lower(), name) for name in names]
    names = [_static_owner(page, name) for name in names]
    folder = posix.parent.name
    owner = CLASS_FOLDER.sub("", folder)  # "NumericLimits工具类" documents NumericLimits
    if (
        IDENTIFIER.fullmatch(owner)
        and f"{posix.parent}/{folder}.md" in files
        and owner not in names
    ):
        names = [f"{owner}.{name}" for name in names]
    return names


def _static_owner(page: str, name: str) -> str:
    """Return ``Class.name`` for a static member the page declares and calls qualified.

    ``Lock.md`` declares ``static ... void Lock(MutexID id)`` and calls
    ``AscendC::Mutex::Lock<PIPE_V>(0)``: it documents ``Mutex.Lock``.
    """
    static = re.search(rf"\bstatic\b[^\n;{{]*\b{re.escape(name)}\s*\(", page)
    called = re.search(rf"\bAscendC::(\w+)::{re.escape(name)}\b", page)
    return f"{called.group(1)}.{name}" if static and called else name


def sibling_owner(path: str, pages: dict[str, str], names: dict[str, list[str]]) -> list[str]:
    """Return the names of *path*, a static member qualified as the sibling page it links to.

    ``Unlock.md`` declares ``static ... void Unlock(MutexID id)`` and names no class, but links
    to ``Lock.md``, which documents ``Mutex.Lock``: it documents ``Mutex.Unlock``.
    """
    folder = PurePosixPath(path).parent
    result = []
    for name in names[path]:
        owners = {
            other.split(".")[0]
            for link in SIBLING_LINK.findall(pages[path])
            for other in names.get(f"{folder}/{link}", [])
            if "." in other
        }
        static = re.search(rf"\bstatic\b[^\n;{{]*\b{re.escape(name)}\s*\(", pages[path])
        result.append(
            f"{owners.pop()}.{name}" if static and len(owners) == 1 and "." not in name else name
        )
    return result


SIBLING_LINK = re.compile(r"\]\(([^/()#]+\.md)")
"""A link to a page in the same folder (``[Lock](Lock.md#section...)``)."""
CLASS_FOLDER = re.compile(r"工具类$")
"""The suffix of a folder named after a utility class (``NumericLimits工具类``): its pages are
the class's members."""


TITLE = re.compile(r"^# (\S+)\s*$", re.M)
HEADING = re.compile(r"^# (.+?)\s*$", re.M)
"""A page's first heading with its spaces (the basic API's titles: ``SetFlag/WaitFlag\\(ISASI\\)``)."""
"""A page's first heading: the API name it documents."""


def c_declared(page: str) -> list[str]:
    """Return the ``asc_*`` functions a C API page declares, in order, each once.

    Qualified declarations anywhere (``__aicore__ inline void asc_x(...)``) and every call-like
    name in the prototype section (some pages write the prototypes bare).
    """
    names = C_DECLARATION.findall(page)
    for section in PROTOTYPES.findall(page):
        names += C_CALL.findall(section)
    return list(dict.fromkeys(names))


def c_overview(path: str, declared: list[str]) -> bool:
    """Return True for a C API page of no API: it declares nothing and is named after its
    folder (``reg/reg_load/reg_load.md``) or a concept (``rounding_mode.md``)."""
    posix = PurePosixPath(path)
    return not declared and (posix.stem == posix.parent.name or not posix.stem.startswith("asc_"))


def titled(name: str, page: str) -> str:
    """Return the API *page* documents when its file *name* only adds a digit to it.

    Pages of a C++ overload set share a title; their files are told apart by a digit
    (``max1.md`` and ``isnan1.md`` document ``max`` and ``isnan``).
    """
    title = TITLE.search(page)
    if title and title.group(1) != name and re.sub(r"\d+$", "", name) == title.group(1):
        return title.group(1)
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


NPU_950 = re.compile(r'<!-- npu="950"[^>]*-->(.*?)<!-- end', re.S)
"""The product-support block of a page for the Ascend 950 (dav-3510)."""


def unsupported_on_950(page: str) -> bool:
    """Return True when *page*'s Ascend 950 support block says 不支持 (not supported)."""
    block = NPU_950.search(page)
    return block is not None and "不支持" in block.group(1)


NOT_SUPPORTED_FUNCTION = re.compile(r"不支持(asc_\w+)接口")
"""A 950 note naming one function of a page the chip lacks (``不支持asc_dcci_entire_ub接口``)."""


def functions_not_on_950(page: str) -> set[str]:
    """Return the functions a page's Ascend 950 notes say the chip does not support."""
    return {
        name for block in NPU_950.findall(page) for name in NOT_SUPPORTED_FUNCTION.findall(block)
    }


def read_pages(repo: str, paths: list[str]) -> dict[str, str]:
    """The text of each of *paths* at the newest commit of *repo* (one ``git cat-file`` run)."""
    request = "".join(f"HEAD:{path}\n" for path in paths).encode()
    out = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch"], input=request, check=True, capture_output=True
    ).stdout
    pages, at = {}, 0
    for path in paths:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        pages[path] = out[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        at = header_end + 1 + size + 1
    return pages


def surface_of(path: str) -> str | None:
    """Return the surface whose folder holds *path* most closely (None: no surface's)."""
    matches = [
        (len(folder), surface) for surface, folder in SURFACES.items() if path.startswith(folder)
    ]
    return max(matches)[1] if matches else None


def main(repo: str) -> None:
    files = [f for f in list_files(repo) if f.endswith(".md")]
    found = [
        (surface, name, f)
        for f in files
        if (surface := surface_of(f)) not in (None, "basic") and (name := page_name(f))
    ]
    basic = [f for f in files if surface_of(f) == "basic"]
    pages = read_pages(repo, [f for _, _, f in found] + basic)
    found = [(surface, titled(name, pages[f]), f) for surface, name, f in found]
    every = set(files)
    basic_names = {f: basic_page_names(f, pages[f], every) for f in basic}
    found += [("basic", name, f) for f in basic for name in sibling_owner(f, pages, basic_names)]
    declared = {f: c_declared(pages[f]) for surface, _, f in found if surface == "c_api"}
    found = [
        (surface, name, f)
        for surface, name, f in found
        if surface != "c_api" or not c_overview(f, declared[f])
    ]
    families: dict[str, list[str]] = {}  # a page named after the functions it declares
    for surface, name, f in list(found):
        if surface == "c_api" and declared[f] and name not in declared[f]:
            families.setdefault(name, []).extend(declared[f])
    found += [("c_api", d, f) for f, names in declared.items() for d in names]
    supported: dict[tuple[str, str], bool] = {}
    for surface, name, f in found:  # a name some page supports on the 950 is supported
        key = (surface, name)
        here = not unsupported_on_950(pages[f]) and name not in functions_not_on_950(pages[f])
        supported[key] = supported.get(key, False) or here

    def line(surface: str, name: str, ok: bool) -> str:
        flags = [] if ok else [NOT_ON_950]
        if surface == "c_api" and name in families:
            flags.append(FAMILY + ",".join(dict.fromkeys(families[name])))
        return " ".join([surface, name, *flags])

    lines = sorted(line(surface, name, ok) for (surface, name), ok in supported.items())
    OUT.write_text("".join(f"{line}\n" for line in lines))
    print(f"wrote {len(lines)} names to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])

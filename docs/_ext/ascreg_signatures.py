"""Signatures of the API pages from the typing stubs, and the C++ spellings the search finds.

At run time an op such as ``Reg.Add`` takes ``Any`` (it checks dtypes itself and raises the
ascreg error); its stub in ``stubs/ascreg/`` has one ``@overload`` per legal dtype. The API
pages show the stub's signatures with the dtypes turned into type variables, by first
appearance (``RegTensor[half]`` ... ``RegTensor[float32_t]`` become ``RegTensor[T]`` ...
``RegTensor[U]``), so ``Reg.Add`` reads ``(dst: RegTensor[T], src0: RegTensor[T], src1:
RegTensor[T], mask: MaskReg) -> None`` and a cast ``(dst: RegTensor[T], src: RegTensor[U], ...)``;
the page's dtype table says which ``T`` and ``U`` are legal. A name with at most
:data:`CONCRETE_UP_TO` distinct overloads, or whose overloads do not differ in dtype, keeps them
as written.

The stubs' private aliases read as what they accept (``_IntLike`` as ``int``, a C API
``vector_half`` as ``RegTensor[half]`` before the dtypes are generalised).
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

STUBS = Path(__file__).resolve().parents[2] / "stubs"
CONCRETE_UP_TO = 3
"""Overloads shown as written when there are at most this many distinct ones."""

TYPE_VARIABLES = ("T", "U", "V", "W", "X", "Y", "Z")

DTYPES = (
    "uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t", "int32_t", "uint64_t", "int64_t",
    "half", "float32_t", "bfloat16_t", "hifloat8_t", "float8_e4m3_t", "float8_e5m2_t",
    "fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "fp4x2_e1m2_t", "fp4x2_e2m1_t", "int4b_t",
    "int4x2_t", "bool_", "complex32", "complex64",
)  # fmt: skip
_DTYPE = re.compile(r"\b(" + "|".join(DTYPES) + r")\b")

# private stub aliases -> what a reader should see (the scalar the parameter takes)
_ALIASES = {
    "_IntLike": "int",
    "_FloatLike": "float",
    "_BoolLike": "bool",
    "_LaneIntLike": "int",
    "_LaneFloat32": "float",
    "_IntArray": "np.ndarray[int]",
    "_LaneIntArray": "np.ndarray[int]",
    "_LaneFloat32Array": "np.ndarray[float]",
    "_MaskPtr": "UbPtr",
    "_MaskPtrRef": "Ref[UbPtr]",
}
_SCALAR_ALIAS = re.compile(r"\b_(Int|Signed|Unsigned|Float|Half|Bfloat)(\d+)(Array)?\b")
_SCALAR_NAMES = {"Signed": "int", "Unsigned": "uint", "Float": "float"}


def _scalar_alias(found: re.Match[str]) -> str:
    kind, bits, array = found.group(1), found.group(2), found.group(3)
    if kind in ("Half", "Bfloat"):
        name = "half" if kind == "Half" else "bfloat16_t"
    elif kind == "Int":  # any integer of at most that many bits, signed or not
        name = "int"
    else:
        name = f"{_SCALAR_NAMES[kind]}{bits}_t"
    return f"np.ndarray[{name}]" if array else name


def readable(text: str) -> str:
    """A stub signature's text with its private aliases spelled as what they accept."""
    text = re.sub(r"\bvector_(\w+?_t|half|bool)\b", r"RegTensor[\1]", text)
    text = re.sub(r",\s*_R\]", "]", text)  # RegTensor[int64_t, _R]: the register trait
    text = _SCALAR_ALIAS.sub(_scalar_alias, text)
    text = re.sub(r"\bNDArray\[", "np.ndarray[", text)
    for alias, shown in _ALIASES.items():
        text = re.sub(rf"\b{alias}\b", shown, text)
    return text


def generalised(text: str) -> str:
    """The dtypes of one signature as type variables by first appearance."""
    names: dict[str, str] = {}

    def variable(found: re.Match[str]) -> str:
        dtype = found.group(1)
        if dtype not in names:
            names[dtype] = TYPE_VARIABLES[min(len(names), len(TYPE_VARIABLES) - 1)]
        return names[dtype]

    return _DTYPE.sub(variable, text)


def _signature_text(func: ast.FunctionDef, method: bool) -> str:
    args = copy.copy(func.args)  # the parsed stubs are cached: never edit them
    if method:  # drop self
        if args.posonlyargs:
            args.posonlyargs = args.posonlyargs[1:]
        else:
            args.args = args.args[1:]
    text = ast.unparse(args)
    returns = f" -> {ast.unparse(func.returns)}" if func.returns is not None else ""
    return f"({text}){returns}"


def _stub_path(module: str) -> Path:
    return STUBS.joinpath(*module.split(".")).with_suffix(".pyi")


@cache
def _stub_tree(module: str) -> ast.Module | None:
    path = _stub_path(module)
    return ast.parse(path.read_text(encoding="utf-8")) if path.exists() else None


def _overloads(body: list[ast.stmt], name: str) -> Iterator[ast.FunctionDef]:
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            yield node


def _stub_overloads(module: str, name: str, owner: str | None) -> list[str]:
    tree = _stub_tree(module)
    if tree is None:
        return []
    if owner is None:
        return [_signature_text(f, method=False) for f in _overloads(tree.body, name)]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            return [_signature_text(f, method=True) for f in _overloads(node.body, "__call__")]
    return []


def signatures_of(obj: Any) -> list[str]:
    """The signatures to show for *obj* from its stub, or ``[]`` when it has no stub.

    A function is looked up by its name in its module's stub; a callable instance (an op
    object such as ``Reg.Add``) by its class's ``__call__`` overloads.
    """
    if isinstance(obj, type):
        return []
    if callable(obj) and hasattr(obj, "__qualname__") and hasattr(obj, "__module__"):
        texts = _stub_overloads(obj.__module__, obj.__name__, None)
    else:
        cls = type(obj)
        texts = _stub_overloads(cls.__module__, obj.__class__.__name__, cls.__name__)
    shown = list(dict.fromkeys(readable(text) for text in texts))
    if len(shown) > CONCRETE_UP_TO:
        general = list(dict.fromkeys(generalised(text) for text in shown))
        # only where the overloads differ in dtype (``__byte_perm`` takes uint32_t throughout)
        shown = general if len(general) < len(shown) else shown
    return shown


def cpp_spellings(documented_module: str, name: str) -> list[str]:
    """The C++ names a page documents (``AscendC::Reg::Compare`` for ``ascreg.Reg.Compare``).

    Only the surfaces whose C++ name differs from the Python one have any: the register API
    (``AscendC::Reg::``, older ``AscendC::MicroAPI::``), the basic API (``AscendC::``) and the
    SIMT C++ namespace (``AscendC::Simt::``).
    """
    namespaces = {
        "ascreg.Reg": ("AscendC::Reg::", "AscendC::MicroAPI::"),
        "ascreg.basic": ("AscendC::",),
        "ascreg.simt.Simt": ("AscendC::Simt::",),
    }
    return [f"{space}{name}" for space in namespaces.get(documented_module, ())]

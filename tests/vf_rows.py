"""Loops generated from the op table: a ``__simd_vf__`` per call form of every Reg and C API row.

The generated type tests (``tests/typing/generated/accept_*.py``, written by
``tools/gen_stubs.py`` from ``ascreg._spec.SPECS``) call every legal combination and form of
every row, on operands named by kind and dtype (``r_half``: a ``RegTensor[half]``, ``v_int8_t``:
a ``vector_int8_t``, ``m``: a mask, ``p_half``: a UB pointer ...). :func:`row_calls` reads those
calls back, row by row; :func:`program` wraps one of them in a VF whose loop loads every
register operand from UB (one row per iteration), makes every mask operand by a per-iteration
compare, makes the call, and stores every register and mask operand (and a returned one) back,
so that whatever the op reads or writes shows in UB. The differential tests run each VF batched
and eagerly on the same data (``tests/machine/test_batch_equivalence.py``).

Examples
--------
>>> calls = row_calls()
>>> calls["Reg.Add"][0].text
'Reg.Add(r_uint8_t, r_uint8_t, r_uint8_t, m)'
"""

from __future__ import annotations

import ast
import itertools
import linecache
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import ascreg
import ascreg.c_api as C  # noqa: N812 (the C namespace)
from ascreg import Reg, RegTraitNumTwo, UnifiedBuffer
from ascreg._dtypes import Scalar
from ascreg._spec import SPECS

GENERATED = Path(__file__).resolve().parent / "typing" / "generated"
SURFACES = {"reg": GENERATED / "accept_reg.py", "c_api": GENERATED / "accept_c_api.py"}
ITERATIONS = 4
VL = 256
_ROW_COMMENT = re.compile(r"#\s*(\S+): every legal")
_OPERAND = re.compile(r"^(r2|r|v|p|pr)_(.+)$")
_RESULT = re.compile(r"^(vector_\w+|MaskReg)$")
_KNOWN_NAMES = {"m", "b", "ar", "a", "ul", "us"}


@dataclass(frozen=True)
class RowCall:
    """One generated call: its row, surface, source text, operand names and result type."""

    row: str
    surface: str
    text: str
    names: tuple[str, ...]
    result: str | None


def _row_key(spelling: str, surface: str) -> str | None:
    qualified = f"c_api.{spelling}"
    if surface == "c_api" and qualified in SPECS:
        return qualified
    return spelling if spelling in SPECS else None


def row_calls() -> dict[str, list[RowCall]]:
    """Return the generated calls of every row of the Reg and C API surfaces, by row."""
    found: dict[str, list[RowCall]] = {}
    for surface, path in SURFACES.items():
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.parse(text).body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("check_")):
                continue
            match = _ROW_COMMENT.search(lines[node.lineno])  # the comment under the def
            key = None if match is None else _row_key(match.group(1), surface)
            if key is None:
                continue
            for statement in node.body:
                call = _call(statement)
                if call is not None:
                    found.setdefault(key, []).append(_row_call(key, surface, *call))
    return found


def _call(statement: ast.stmt) -> tuple[ast.Call, str | None] | None:
    """The call of a statement ``call`` or ``assert_type(call, T)``, with ``T``'s text."""
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    if isinstance(call.func, ast.Name) and call.func.id == "assert_type":
        inner, asserted = call.args
        if not isinstance(inner, ast.Call):
            return None
        return inner, ast.unparse(asserted)
    return call, None


def _row_call(key: str, surface: str, call: ast.Call, asserted: str | None) -> RowCall:
    names = tuple(
        dict.fromkeys(
            n.id
            for arg in [*call.args, *(k.value for k in call.keywords)]
            for n in ast.walk(arg)
            if isinstance(n, ast.Name) and (n.id in _KNOWN_NAMES or _OPERAND.match(n.id))
        )
    )
    result = asserted if asserted is not None and _RESULT.match(asserted) else None
    return RowCall(key, surface, ast.unparse(call), names, result)


def sample(calls: list[RowCall], per_row: int = 2) -> list[RowCall]:
    """Pick up to *per_row* calls of one row: the first of each distinct operand-kind pattern."""
    chosen: dict[tuple[str, ...], RowCall] = {}
    for call in calls:
        kinds = tuple(re.sub(r"_.*", "", n) for n in call.names)
        chosen.setdefault((*kinds, str(call.result)), call)
    return list(itertools.islice(chosen.values(), per_row))


# -- the VF around one call ---------------------------------------------------------------------


@dataclass
class Program:
    """A generated VF and the UB buffers it reads and writes (by parameter name)."""

    source: str
    buffers: dict[str, tuple[type[Scalar], int]]
    """Each pointer parameter's element type and element count."""
    call: RowCall


def _dtype_of(name: str) -> type[Scalar]:
    return getattr(ascreg, _OPERAND.match(name).group(2))  # type: ignore[union-attr]


def _lanes(dtype: type[Scalar], two: bool = False) -> int:
    return VL // dtype.size * (2 if two else 1)


def _vector_class(dtype: type[Scalar]) -> str:
    name = "float" if dtype.__name__ == "float32_t" else dtype.__name__.removesuffix("_t")
    name = {"bool": "bool"}.get(name, name)
    for candidate in (f"vector_{dtype.__name__}", f"vector_{name}"):
        if hasattr(C, candidate):
            return candidate
    raise KeyError(dtype)


def program(call: RowCall) -> Program:
    """Wrap *call* in a VF: per-iteration loads, masks and stores around it (module docstring)."""
    reg = call.surface == "reg"
    buffers: dict[str, tuple[type[Scalar], int]] = {}
    prelude = [
        "u8 = Reg.RegTensor[uint8_t]()" if reg else "u8 = vector_uint8_t()",
        "one8 = Reg.RegTensor[uint8_t]()" if reg else "one8 = vector_uint8_t()",
        "zero8 = Reg.RegTensor[uint8_t]()" if reg else "zero8 = vector_uint8_t()",
        "half8 = Reg.RegTensor[uint8_t]()" if reg else "half8 = vector_uint8_t()",
        "full8 = Reg.CreateMask[uint8_t]()" if reg else "full8 = asc_create_mask_b8(PAT_ALL)",
        "Reg.Duplicate(one8, 1)" if reg else "asc_duplicate_scalar(one8, 1)",
        "Reg.Duplicate(zero8, 0)" if reg else "asc_duplicate_scalar(zero8, 0)",
        "Reg.Duplicate(half8, 128)" if reg else "asc_duplicate_scalar(half8, 128)",
    ]
    before: list[str] = []
    after: list[str] = []
    load = "Reg.LoadAlign({r}, {p} + i * {n})" if reg else "asc_loadalign({r}, {p} + i * {n})"
    store = (
        "Reg.StoreAlign({p} + i * {n}, {r}, {mask})"
        if reg
        else "asc_storealign({p} + i * {n}, {r}, {mask})"
    )
    compare = (
        "Reg.Compare[uint8_t, CMPMODE.LT]({m}, u8, half8, full8)"
        if reg
        else "asc_lt({m}, u8, half8, full8)"
    )
    select = "Reg.Select(u8, one8, zero8, {m})" if reg else "asc_select(u8, one8, zero8, {m})"

    def register(name: str, dtype: type[Scalar], two: bool) -> None:
        lanes = _lanes(dtype, two)
        buffers[f"in_{name}"] = buffers[f"out_{name}"] = (dtype, ITERATIONS * lanes)
        full = f"full_{name}"
        if reg:
            trait = ", RegTraitNumTwo" if two else ""
            prelude.append(f"{name} = Reg.RegTensor[{dtype.__name__}{trait}]()")
            prelude.append(
                f"{full} = Reg.CreateMask[{dtype.__name__}{trait and ', Reg.MaskPattern.ALL' + trait}]()"
            )
        else:
            prelude.append(f"{name} = {_vector_class(dtype)}()")
            width = {1: "b8", 2: "b16"}.get(dtype.size, "b32")
            prelude.append(f"{full} = asc_create_mask_{width}(PAT_ALL)")
        before.append(load.format(r=name, p=f"in_{name}", n=lanes))
        after.append(store.format(p=f"out_{name}", r=name, n=lanes, mask=full))

    def mask(name: str, make: str) -> None:
        buffers[f"in_{name}"] = buffers[f"out_{name}"] = (ascreg.uint8_t, ITERATIONS * VL)
        prelude.append(make)
        before.append(load.format(r="u8", p=f"in_{name}", n=VL))
        before.append(compare.format(m=name))
        after.append(select.format(m=name))
        after.append(store.format(p=f"out_{name}", r="u8", n=VL, mask="full8"))

    for name in call.names:
        kind = _OPERAND.match(name)
        if name in ("m", "b"):
            mask(name, f"{name} = Reg.MaskReg()" if reg else f"{name} = vector_bool()")
        elif name == "ar":
            prelude.append("ar = Reg.CreateAddrReg[uint8_t](1, 32)")
        elif name == "a":
            prelude.append("a = asc_update_addr_reg_b16(128)")
        elif name == "ul":
            prelude.append("ul = Reg.UnalignRegForLoad()" if reg else "ul = vector_load_unalign()")
        elif name == "us":
            prelude.append(
                "us = Reg.UnalignRegForStore()" if reg else "us = vector_store_unalign()"
            )
        elif kind is not None and kind.group(1) in ("r", "r2", "v"):
            register(name, _dtype_of(name), kind.group(1) == "r2")
        elif kind is not None and kind.group(1) in ("p", "pr"):
            dtype = _dtype_of(name)
            buffers[f"p_{dtype.__name__}"] = (dtype, 256)
            if kind.group(1) == "pr":
                prelude.append(f"{name} = Ref(p_{dtype.__name__})")
    result = []
    if call.result is not None:
        if call.result in ("MaskReg", "vector_bool"):
            result = [select.format(m="res"), store.format(p="out_res", r="u8", n=VL, mask="full8")]
            buffers["out_res"] = (ascreg.uint8_t, ITERATIONS * VL)
        else:
            dtype = _result_dtype(call.result)
            lanes = _lanes(dtype)
            buffers["out_res"] = (dtype, ITERATIONS * lanes)
            width = {1: "b8", 2: "b16"}.get(dtype.size, "b32")
            prelude.append(f"full_res = asc_create_mask_{width}(PAT_ALL)")
            result = [store.format(p="out_res", r="res", n=lanes, mask="full_res")]
    made = f"res = {call.text}" if result else call.text
    params = ", ".join(buffers)
    body = "\n".join(f"        {line}" for line in (*before, made, *after, *result))
    source = (
        f"def vf({params}):\n"
        + "".join(f"    {line}\n" for line in prelude)
        + f"    for i in range({ITERATIONS}):\n{body}\n"
    )
    return Program(source, buffers, call)


def _result_dtype(vector: str) -> type[Scalar]:
    cls = getattr(C, vector)
    dtype: type[Scalar] = cls().dtype
    return dtype


_COUNTER = itertools.count()


def compile_vf(program: Program) -> Any:
    """Compile *program* (registered in :mod:`linecache`, so the loop analysis reads it)."""
    filename = f"<vf_rows {next(_COUNTER)}>"
    linecache.cache[filename] = (
        len(program.source),
        None,
        program.source.splitlines(keepends=True),
        filename,
    )
    namespace: dict[str, Any] = {**vars(ascreg), **vars(C), "Reg": Reg, "Ref": ascreg.Ref}
    namespace["RegTraitNumTwo"] = RegTraitNumTwo
    exec(compile(program.source, filename, "exec"), namespace)
    return ascreg.__simd_vf__(namespace["vf"])


def run(program: Program, vf: Any, seed: int, *, eager: bool) -> tuple[dict[str, bytes], str]:
    """Run *vf* on random UB data; return every buffer's bytes and the error (``""``: none)."""
    rng = np.random.default_rng(seed)
    ub = UnifiedBuffer()
    pointers = {}
    for name, (dtype, count) in program.buffers.items():
        pointer = ub.alloc(dtype, max(count, 256))
        pointer.cast(ascreg.uint8_t).write(rng.integers(0, 256, pointer_bytes(pointer)))
        pointers[name] = pointer
    error = ""
    try:
        with ascreg.policy(execution="eager" if eager else "batched"):
            vf(*pointers.values())
    except Exception as exc:  # the same first error, or none, is what the test compares
        error = f"{type(exc).__name__}: {exc}"
    return {
        name: p.cast(ascreg.uint8_t).read(pointer_bytes(p)).tobytes()
        for name, p in pointers.items()
    }, error


def pointer_bytes(pointer: Any) -> int:
    """The size of a pointer's allocation in bytes."""
    block = pointer.block
    return int(block.end - block.start)

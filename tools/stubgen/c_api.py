"""The C API renderer: ``stubs/ascreg/c_api/*.pyi`` from the C API rows and their shapes.

Each ``asc_*`` function gets one ``@overload`` per form and legal combination the form applies
to, forms in order, combinations in table order.
"""

from __future__ import annotations

import importlib

from ascreg._dtypes import Scalar, bool_
from ascreg._spec import REG_TYPES, CForm, CShape, OpSpec, Param
from stubgen.common import (
    SHARED_ALIASES,
    combo_text,
    dtype_imports,
    module_rows,
    overloads,
    pyname,
    scalar_type,
    stub_text,
)

# The stub type of each parameter kind that names no dtype (see ascreg._spec.shapes.ParamKind).
# Parameters take RegTensor[D] / MaskReg, as the runtime does (a vector_uint16_t *is* a
# RegTensor[uint16_t]); results are the precise vector_* / vector_bool classes.
C_KIND_TYPES = {
    "cmask": "MaskReg",
    "cmask?": "MaskReg | None = None",
    "idx": "_IntLike",
    "count": "Ref[int]",
    "pattern": "MaskPattern",
    "areg": "addr_reg",
    "vareg": "ub_addr8_t",
    "idx?": "_IntLike | None = None",
    "cuload": "vector_load_unalign",
    "custore": "vector_store_unalign",
    "pipe": "Pipe",
    "anygm": "GmPtr[Any]",
    "anyub": "UbPtr[Any]",
    "anycbuf": "object",  # any value: asc_copy_ub2l1 raises UnsupportedError, others check it
    "anyfbuf": "FbufPtr[Any]",
    "fillcfg": "asc_fill_value_config",
    "l13dcfg": "asc_l13d_fmatrix_config",
    "load3dcfg": "asc_load3d_v2_config",
    "atomiccfg": "asc_store_atomic_config",
    "ndimcfg": "asc_ndim_pad_count_config",
    "flag": "bool",
    "l2load": "asc_load_l2_cache_mode | int",
}
MASK_POINTER_DTYPES = ("uint8_t", "uint16_t", "uint32_t")
CUBE_POINTERS = {"cbufptr": "CbufPtr", "captr": "CaPtr", "cbptr": "CbPtr", "ccptr": "CcPtr"}
"""The typed pointer class of each cube-buffer parameter kind (``ascreg.machine.cube``)."""


C_MODULE_IMPORTS = """\
from collections.abc import Callable
from typing import Any, Literal, TypeAlias, overload

import numpy as np

from ascreg._dtypes import (
{dtypes}
)
from ascreg.c_api._types import (
{vectors}
)
from ascreg.c_api.addr import addr_reg
from ascreg.c_api.kernel import asc_load_l2_cache_mode
from ascreg.enums import MaskPattern
from ascreg.machine.cube import CaPtr, CbPtr, CbufPtr, CcPtr, FbufPtr
from ascreg.machine.memory import GmPtr, UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.machine.sync import Pipe
"""

C_ALIASES = {
    "_IntLike": SHARED_ALIASES["_IntLike"],
    "_FloatLike": SHARED_ALIASES["_FloatLike"],
    "_MaskPtr": " | ".join(f"UbPtr[{n}]" for n in MASK_POINTER_DTYPES),
    "_MaskPtrRef": " | ".join(f"Ref[UbPtr[{n}]]" for n in MASK_POINTER_DTYPES),
}
"""The shared aliases (see stubgen.shared) the C API stubs use, by their name there and in a stub."""


def c_module_surface(module: str) -> str:
    """The module's names that are not table rows (constants, tables, aliases)."""
    runtime = importlib.import_module("ascreg." + module.replace("/", "."))
    lines: list[str] = []
    if hasattr(runtime, "__all__"):
        lines.append("__all__ = [")
        lines += [f'    "{name}",' for name in runtime.__all__]
        lines.append("]")
        lines.append("")
    lines += C_MODULE_SURFACE[module]
    if module == "c_api/masks":  # PAT_* are MaskPattern members under their C names
        lines += [
            f"{name}: Literal[MaskPattern.{value.name}]"
            for name, value in vars(runtime).items()
            if name.startswith("PAT_")
        ]
    return "\n".join(lines)


C_MODULE_SURFACE = {
    "c_api/compute": ["Lanes: TypeAlias = np.ndarray[Any, Any]"],
    "c_api/compound": [],
    "c_api/datamove": [
        "Dist: TypeAlias = Callable[[int], str]",
        "LOAD_DISTS: dict[str, tuple[Dist, str | None]]",
        "STORE_DISTS: dict[str, tuple[Dist, str | None]]",
        "UNMASKED_STORES: tuple[str, ...]",
        "LOADS: dict[str, Callable[..., None]]",
        "STORES: dict[str, Callable[..., None]]",
        "UNALIGNED: dict[str, Callable[..., None]]",
        "",
        "from ascreg.core.unaligned import UnalignRegForLoad, UnalignRegForStore",
        "",
        "class vector_load_unalign(UnalignRegForLoad): ...",
        "class vector_store_unalign(UnalignRegForStore): ...",
        "",
    ],
    "c_api/scalar": [],
    "c_api/cube": [],
    "c_api/cube_l1": [
        "class asc_fill_value_config:",
        "    config: int",
        "    repeat: int",
        "    blk_num: int",
        "    dst_gap: int",
        "    def __init__(self, config: int | None = None) -> None: ...",
        "",
        "class asc_l13d_fmatrix_config:",
        "    config: int",
        *(
            f"    {name}: int"
            for name in (
                "l1_height",
                "l1_width",
                "padding_left_size",
                "padding_right_size",
                "padding_top_size",
                "padding_bottom_size",
            )
        ),
        "    def __init__(self, config: int | None = None) -> None: ...",
        "",
        "class asc_load3d_v2_config:",
        "    config: int",
        "    rpt_stride: int",
        "    rpt_time: int",
        "    rpt_mode: int",
        "    def __init__(self, config: int | None = None) -> None: ...",
        "",
    ],
    "c_api/cube_copy": [],
    "c_api/cube_mx": [],
    "c_api/memvector": [
        "from collections.abc import Sequence",
        "",
        "from ascreg.c_api.vareg import ub_addr8_t",
        "",
        "ASC_C_API_MRGSORT_ELEMENT_LEN: int",
        "",
    ],
    "c_api/dma": [
        "class asc_ndim_pad_count_config:",
        "    config: int",
        *(f"    loop{n}_{side}_count: int" for n in range(1, 5) for side in ("lp", "rp")),
        "    def __init__(self, config: int = 0) -> None: ...",
        "",
    ],
    "c_api/coresync": [
        "class asc_store_atomic_config:",
        "    config: int",
        "    def __init__(self, config: int = 0) -> None: ...",
        "    @property",
        "    def atomic_type(self) -> int: ...",
        "    @atomic_type.setter",
        "    def atomic_type(self, value: int) -> None: ...",
        "    @property",
        "    def atomic_op(self) -> int: ...",
        "    @atomic_op.setter",
        "    def atomic_op(self, value: int) -> None: ...",
        "",
    ],
    "c_api/convert": [
        "CONVERSIONS: dict[str, Callable[..., None]]",
        "TRUNCATIONS: dict[str, Callable[..., None]]",
    ],
    "c_api/movement": [
        "def asc_clear_ar_spr() -> None: ...",
        "def asc_get_squeeze_status() -> int: ...",
    ],
    "c_api/masks": [
        "WIDTHS: dict[str, int]",
        "def asc_get_mask_spr_b16() -> vector_bool: ...",
        "def asc_get_mask_spr_b32() -> vector_bool: ...",
    ],
}


def vector_name(d: type[Scalar]) -> str:
    """The C register class of *d* (``vector_float`` for float32_t, ``vector_bool`` for bool_)."""
    from ascreg.c_api._types import VECTOR_TYPES

    return "vector_bool" if d is bool_ else VECTOR_TYPES[d].__name__


def c_param_type(p: Param, combo: tuple[type[Scalar], ...]) -> str:
    if p.kind in C_KIND_TYPES:
        return C_KIND_TYPES[p.kind]
    d = combo[p.arg]
    if d is bool_:
        return {"vec": "MaskReg", "vptr": "_MaskPtr", "vptrref": "_MaskPtrRef",
                "vptrval": "_MaskPtr | _MaskPtrRef"}[p.kind]  # fmt: skip
    return {
        "vec": f"RegTensor[{pyname(d)}]",
        "vptr": f"UbPtr[{pyname(d)}]",
        "vptrref": f"Ref[UbPtr[{pyname(d)}]]",
        "vptrs": f"Sequence[UbPtr[{pyname(d)}] | None]",
        "vptrval": f"UbPtr[{pyname(d)}] | Ref[UbPtr[{pyname(d)}]]",
        "scalar": scalar_type(d),
        "gptr": f"GmPtr[{pyname(d)}]",
        **{kind: f"{cls}[{pyname(d)}]" for kind, cls in CUBE_POINTERS.items()},
    }[p.kind]


def c_applies(form: CForm, combo: tuple[type[Scalar], ...]) -> bool:
    """Whether *form* exists for *combo* (the bool_ combination is the vector_bool form)."""
    return form.applies(combo)


def c_returns(form: CForm, combo: tuple[type[Scalar], ...]) -> str:
    """The return annotation: ``{vec0}`` is the first role's register class, ``{py0}`` the
    Python number type of its scalar (``float`` or ``int``)."""
    py0 = "float" if combo[0].kind.value == "float" else "int"
    if "{vec0}" not in form.returns:  # a kernel-level function (its types need no register)
        return form.returns.format(py0=py0)
    return form.returns.format(vec0=vector_name(combo[0]), py0=py0)


def c_shape(spec: OpSpec) -> CShape:
    assert isinstance(spec.shape, CShape), spec.name
    return spec.shape


def c_signature(spec: OpSpec, form: CForm, combo: tuple[type[Scalar], ...]) -> str:
    parts = [f"{p.name}: {c_param_type(p, combo)}" for p in form.params]
    if c_shape(spec).positional:
        parts.append("/")
    return f"def {spec.spelling}({', '.join(parts)}) -> {c_returns(form, combo)}: ..."


def c_overloads(spec: OpSpec) -> list[tuple[str, str]]:
    """Every (signature, tag) of one function: forms in order, combinations in table order."""
    sigs = []
    for form in c_shape(spec).forms:
        label = f"{form.tag}: " if form.tag else ""
        for combo in spec.combos:
            if c_applies(form, combo):
                sigs.append((c_signature(spec, form, combo), label + combo_text(combo)))
    return sigs


def render_c_module(module: str) -> str:
    """The stub of one C API module (``"c_api/compute"``): its surface, then its functions."""
    vectors = sorted({vector_name(d) for d in REG_TYPES})
    head = C_MODULE_IMPORTS.format(
        dtypes=dtype_imports(), vectors="\n".join(f"    {v}," for v in vectors)
    )
    body = [c_module_surface(module)]
    for spec in module_rows("c_api", module):
        doc = f"# {spec.spelling}: legal ({', '.join(spec.roles)}) in table order, per form"
        body.append("\n".join([doc, *overloads(c_overloads(spec), indent="")]))
    return stub_text(head, body, "\n\n", {name: name for name in C_ALIASES})

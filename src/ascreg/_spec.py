"""The op table: one row per intrinsic, the single source of truth for legal dtype combinations.

Each :class:`OpSpec` names the op as the user writes it, its C++ name, the role of each dtype
position, the legal combinations (in the documentation's order), the mask rule and the source
document in the public asc-devkit repository. The runtime dtype check, the generated typing
stubs and the documentation tables all read this table.

Examples
--------
>>> from ascreg._spec import SPECS
>>> from ascreg import uint16_t, int16_t
>>> SPECS["Reg.ShiftRight"].is_legal(uint16_t, int16_t)
True
>>> SPECS["Reg.ShiftRight"].check(uint16_t, uint16_t)
Traceback (most recent call last):
...
ascreg.errors.IllegalDtypeError: Reg.ShiftRight: illegal dtypes (src=uint16_t, shift=uint16_t); legal: ...
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.errors import IllegalDtypeError


class MaskRule(enum.Enum):
    """How an op treats lanes its mask does not select."""

    ZEROING = "masked-off destination lanes become 0"
    MERGING = "masked-off destination lanes keep their old value"
    SELECTOR = "the mask chooses between the two sources; nothing is zeroed"
    STORE = "masked-off lanes are not written to memory"
    PREDICATE = "the predicate mask's unselected bits become 0"
    NONE = "the op takes no mask"
    REDUCE = "masked-off source lanes count as the reduction's identity (0, type-min, type-max)"


@attrs.frozen
class OpSpec:
    """One row of the table.

    Attributes
    ----------
    name
        The spelling users call, e.g. ``"Reg.ShiftRight"`` or ``"asc_shiftright"``.
    cpp
        The C++ / C name.
    roles
        What each dtype position is (``("src", "shift")``).
    combos
        Every legal dtype tuple, in the documentation's order.
    mask
        The mask rule.
    source
        Where the facts come from (a path in the asc-devkit repository).
    """

    name: str
    cpp: str
    roles: tuple[str, ...]
    combos: tuple[tuple[type[Scalar], ...], ...]
    mask: MaskRule
    source: str
    _legal: frozenset[tuple[type[Scalar], ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_legal", frozenset(self.combos))

    def is_legal(self, *dtypes: type[Scalar]) -> bool:
        """Return True when *dtypes* is one of the legal combinations."""
        return dtypes in self._legal

    def check(self, *dtypes: type[Scalar]) -> None:
        """Raise :class:`~ascreg.errors.IllegalDtypeError` unless *dtypes* is legal."""
        if dtypes not in self._legal:
            raise IllegalDtypeError(
                f"illegal dtypes ({self.describe(dtypes)}); legal: {self.legal_text()}",
                call=self.name,
            )

    def check_prefix(self, *dtypes: type[Scalar]) -> None:
        """Like :meth:`check` for the leading positions only (template arguments may stop early)."""
        n = len(dtypes)
        if not any(combo[:n] == dtypes for combo in self.combos):
            raise IllegalDtypeError(
                f"illegal template dtypes ({self.describe(dtypes)}); legal: {self.legal_text()}",
                call=self.name,
            )

    def describe(self, dtypes: tuple[Any, ...]) -> str:
        """Render a dtype tuple with its roles: ``src=uint16_t, shift=int16_t``."""
        names = [getattr(d, "cpp_name", repr(d)) for d in dtypes]
        return ", ".join(f"{r}={n}" for r, n in zip(self.roles, names, strict=False))

    def legal_text(self) -> str:
        """Render the legal combinations compactly."""
        if len(self.roles) == 1:
            return ", ".join(c[0].cpp_name for c in self.combos)
        return "; ".join("(" + ", ".join(d.cpp_name for d in c) + ")" for c in self.combos)


def _singles(*dtypes: type[Scalar]) -> tuple[tuple[type[Scalar], ...], ...]:
    return tuple((d,) for d in dtypes)


B8_TYPES = (bool_, int8_t, uint8_t, fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t,
            int4x2_t, fp4x2_e2m1_t, fp4x2_e1m2_t)  # fmt: skip
REG_TYPES = (*B8_TYPES, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
             int64_t, uint64_t)  # fmt: skip
"""Every dtype a RegTensor may hold on dav-3510."""
MASK_TYPES = (int8_t, uint8_t, bool_, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
              float32_t, int64_t, uint64_t)  # fmt: skip
CMP_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
             int64_t, uint64_t)  # fmt: skip
SELECT_TYPES = (bool_, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t,
                float32_t, uint64_t, int64_t)  # fmt: skip
SHIFT_PAIRS = ((int8_t, int8_t), (uint8_t, int8_t), (int16_t, int16_t), (uint16_t, int16_t),
               (int32_t, int32_t), (uint32_t, int32_t), (int64_t, int64_t), (uint64_t, int64_t))  # fmt: skip
SHIFT_DATA = tuple(p[0] for p in SHIFT_PAIRS)
ADD_TYPES = (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, float32_t, bfloat16_t,
             uint64_t, int64_t)  # fmt: skip
MUL_TYPES = (uint16_t, int16_t, uint32_t, int32_t, half, float32_t, bfloat16_t, uint64_t, int64_t)
MAXMIN_TYPES = ADD_TYPES
LOGIC_TYPES = (bool_, uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t)
NOT_TYPES = (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, float32_t, uint64_t,
             int64_t)  # fmt: skip
DUP_TYPES = REG_TYPES
MULS_TYPES = (int16_t, uint16_t, half, float32_t, int32_t, uint32_t, int64_t, uint64_t)
ABS_TYPES = (int8_t, int16_t, int32_t, half, float32_t, int64_t)
NEG_TYPES = (int8_t, int16_t, int32_t, int64_t, half, float32_t)
INTERLEAVE_TYPES = REG_TYPES  # any b8/b16/b32 type, bool; 64-bit only as RegTraitNumTwo
ARANGE_TYPES = (int8_t, int16_t, int32_t, half, float32_t, int64_t)
REDUCE_COMBOS: dict[str, tuple[tuple[type[Scalar], type[Scalar]], ...]] = {
    "SUM": ((half, half), (float32_t, float32_t), (int32_t, int32_t), (uint32_t, uint32_t),
            (int32_t, int16_t), (uint32_t, uint16_t), (int64_t, int64_t), (uint64_t, uint64_t)),
    "MAX": ((int16_t, int16_t), (uint16_t, uint16_t), (half, half), (int32_t, int32_t),
            (uint32_t, uint32_t), (float32_t, float32_t), (int64_t, int64_t),
            (uint64_t, uint64_t)),
}  # fmt: skip
REDUCE_COMBOS["MIN"] = REDUCE_COMBOS["MAX"]
"""``Reduce<ReduceType, T = dst, U = src>``: the legal (dst, src) pairs of each ReduceType
(spec §7; D/归约计算/Reduce.md tables 3 and 4). The ``Reg.Reduce`` row lists their union."""

_REG = "docs/zh/api/SIMD-API/基础API/Reg矢量计算/"


def _reg(name: str, roles: tuple[str, ...], combos: Any, mask: MaskRule, doc: str) -> OpSpec:
    return OpSpec(f"Reg.{name}", f"AscendC::Reg::{name}", roles, combos, mask, _REG + doc)


# ==== C API (asc_*) tables: the dav-3510 C API, one row per C function name ====================
# Type sets per function as declared in include/c_api/reg_compute/reg_{load,store,vector}.h.
C_B8 = (int8_t, uint8_t, fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t, int4x2_t, fp4x2_e2m1_t,
        fp4x2_e1m2_t)  # fmt: skip
C_B16 = (int16_t, uint16_t, half, bfloat16_t)
C_B32 = (int32_t, uint32_t, float32_t)
C_B64 = (int64_t, uint64_t)
C_VECTOR_TYPES = (*C_B8, *C_B16, *C_B32, *C_B64)
"""Every element type of a C API ``vector_*`` register."""
C_BASIC = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
C_B8_TO_B32 = (*C_B8, *C_B16, *C_B32)
C_FP8_BITS = (fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t)

_C = "docs/zh/api/SIMD-API/C-API/reg/"
C_LOAD_FAMILY: dict[str, tuple[type[Scalar], ...]] = {
    "": (*C_VECTOR_TYPES, bool_),
    "_brc": C_B8_TO_B32,
    "_brc_elem": C_B8_TO_B32,
    "_brc_datablock": C_B8_TO_B32,
    "_brc_elem2datablock": (*C_B16, *C_B32),
    "_upsample": (*C_B8, *C_B16, bool_),
    "_downsample": (*C_B8, *C_B16, bool_),
    "_unpack": C_B8_TO_B32,
    "_unpack4": C_B8,
    "_deintlv": C_B8_TO_B32,
}
"""``asc_loadalign<suffix>`` (and its ``_postupdate`` twin): legal element types."""
C_STORE_FAMILY: dict[str, tuple[type[Scalar], ...]] = {
    "": (*C_B8_TO_B32, bool_),
    "_postupdate": (int8_t, uint8_t, *C_FP8_BITS, *C_B16, *C_B32, bool_),
    "_1st": C_B8_TO_B32,
    "_1st_postupdate": C_BASIC,
    "_pack": (*C_B16, *C_B32, *C_B64, bool_),
    "_pack_postupdate": (*C_B16, *C_B32, *C_B64, bool_),
    "_pack_quarter": (int32_t, uint32_t, float32_t),
    "_pack_quarter_postupdate": (int32_t, uint32_t, float32_t),
    "_intlv": (*C_B8, *C_B16, int32_t, uint32_t),
}
"""``asc_storealign<suffix>``: legal element types."""
C_SHIFT_PAIRS = SHIFT_PAIRS[:6]
C_COMPARES = ("eq", "ne", "lt", "gt", "ge", "le")
C_LOGIC: dict[str, tuple[type[Scalar], ...]] = {
    "and": (uint8_t, int8_t, fp8_e4m3fn_t, fp8_e5m2_t, uint16_t, int16_t, half, bfloat16_t,
            uint32_t, int32_t, float32_t, bool_),
    "or": (int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float32_t, bool_),
    "xor": (int32_t, uint32_t, uint16_t, int16_t, uint8_t, int8_t, bool_),
    "not": (uint8_t, int8_t, uint16_t, int16_t, half, uint32_t, int32_t, float32_t, bool_),
}  # fmt: skip
"""``asc_and/or/xor/not``: vector element types, plus ``bool`` for the ``vector_bool`` form."""
C_COPY_MASK_PART = (uint16_t, uint32_t)
"""``asc_copy(vector_bool& dst, vector_T src, int16_t part)``: the source types (a b16 / b32
block of the register, each bit repeated 2 / 4 times)."""
C_UNALIGNED = (*C_B8, *C_B16, *C_B32, int64_t)
"""Element types of the unaligned accesses (reg_load.h / reg_store.h declare no uint64_t form;
a few ``asc_store(dst, src, count)`` overloads, such as half's, are missing from the header and
are accepted here)."""
C_UNALIGNED_NAMES = ("asc_loadunalign_pre", "asc_loadunalign", "asc_loadunalign_postupdate",
                     "asc_storeunalign", "asc_storeunalign_postupdate", "asc_storeunalign_post",
                     "asc_storeunalign_post_postupdate", "asc_load", "asc_store")  # fmt: skip
"""The unaligned-access functions (the same core as ``Reg.LoadUnAlign`` / ``Reg.StoreUnAlign``)."""
C_SELECT = (bool_, uint8_t, int8_t, fp8_e4m3fn_t, hifloat8_t, fp8_e5m2_t, uint16_t, int16_t, half,
            bfloat16_t, uint32_t, int32_t, float32_t)  # fmt: skip


def _c(name: str, roles: tuple[str, ...], combos: Any, mask: MaskRule, doc: str) -> OpSpec:
    return OpSpec(name, name, roles, combos, mask, _C + doc)


def _c_api_rows() -> tuple[OpSpec, ...]:
    """Generate the C API rows from the tables above (families by loops, not by hand)."""
    rows: list[OpSpec] = []
    for width in ("b8", "b16", "b32"):
        for kind in ("create", "update"):
            rows.append(_c(f"asc_{kind}_mask_{width}", ("dst",), ((bool_,),), MaskRule.NONE,
                           f"reg_data_types/asc_{kind}_mask.md"))  # fmt: skip
    for suffix, types in C_LOAD_FAMILY.items():
        for post in ("", "_postupdate"):
            name = f"asc_loadalign{suffix}{post}"
            rows.append(_c(name, ("T",), _singles(*types), MaskRule.NONE, f"reg_load/{name}.md"))
    for suffix, types in C_STORE_FAMILY.items():
        name = f"asc_storealign{suffix}"
        rule = MaskRule.NONE if suffix.startswith(("_1st", "_intlv")) else MaskRule.STORE
        rows.append(_c(name, ("T",), _singles(*types), rule, f"reg_store/{name}.md"))
    for direction in ("right", "left"):
        name = f"asc_shift{direction}"
        rows.append(_c(name, ("src", "shift"), C_SHIFT_PAIRS, MaskRule.ZEROING,
                       f"logic_compute/{name}.md"))  # fmt: skip
        rows.append(_c(f"{name}_scalar", ("src", "scalar"),
                       tuple((p[0], int16_t) for p in C_SHIFT_PAIRS), MaskRule.ZEROING,
                       f"logic_compute/{name}_scalar.md"))  # fmt: skip
    for op in C_COMPARES:
        vector_types = tuple(t for t in C_BASIC if not (op == "ne" and t is bfloat16_t))
        for suffix, types in (("", vector_types), ("_scalar", C_BASIC)):
            name = f"asc_{op}{suffix}"
            rows.append(_c(name, ("T",), _singles(*types), MaskRule.ZEROING,
                           f"compare_and_select/{name}.md"))  # fmt: skip
    rows.append(_c("asc_select", ("T",), _singles(*C_SELECT), MaskRule.SELECTOR,
                   "compare_and_select/asc_select.md"))  # fmt: skip
    for op, types in C_LOGIC.items():
        rows.append(_c(f"asc_{op}", ("T",), _singles(*types), MaskRule.ZEROING,
                       f"logic_compute/asc_{op}.md"))  # fmt: skip
    rows.append(_c("asc_duplicate_scalar", ("T",), _singles(*C_BASIC, fp8_e4m3fn_t, fp8_e5m2_t,
                   fp8_e8m0_t), MaskRule.ZEROING, "data_fill/asc_duplicate_scalar.md"))  # fmt: skip
    rows.append(_c("asc_duplicate", ("T",), _singles(*C_BASIC, fp8_e4m3fn_t, fp8_e5m2_t),
                   MaskRule.ZEROING, "data_fill/asc_duplicate.md"))  # fmt: skip
    rows.append(_c("asc_copy", ("T",), _singles(*C_BASIC, bool_), MaskRule.MERGING,
                   "reg_load/asc_copy.md"))  # fmt: skip
    for name in C_UNALIGNED_NAMES:
        folder = "reg_load" if name.startswith("asc_load") else "reg_store"
        rows.append(_c(name, ("T",), _singles(*C_UNALIGNED), MaskRule.NONE, f"{folder}/{name}.md"))
    return tuple(rows)


# ==== end of the C API tables =====================================================================

# ==== SIMT tables: the device functions of ascreg.simt, one row per function ======================
# Roles are the Python parameter names; a pointer parameter (``T* address``) is its element type.
# The integer rows list the C overloads (``int`` is int32_t, ``long``/``long long`` int64_t) in the
# documentation's order; ascreg.simt.intrinsics picks among them by its documented overload rule.
_SIMT = "include/simt_api/"


def _simt(name: str, roles: tuple[str, ...], combos: Any, header: str) -> OpSpec:
    return OpSpec(name, name, roles, combos, MaskRule.NONE, _SIMT + header)


def _each(*dtypes: type[Scalar], arity: int) -> tuple[tuple[type[Scalar], ...], ...]:
    """One combination per dtype, the dtype in every position: ``max(T, T)``."""
    return tuple((d,) * arity for d in dtypes)


SIMT_INT_ROWS: dict[str, tuple[tuple[str, ...], tuple[tuple[type[Scalar], ...], ...]]] = {
    "__byte_perm": (("x", "y", "s"), _each(uint32_t, arity=3)),
    "__mulhi": (("x", "y"), _each(int32_t, arity=2)),
    "__umulhi": (("x", "y"), _each(uint32_t, arity=2)),
    "__mul64hi": (("x", "y"), _each(int64_t, arity=2)),
    "__umul64hi": (("x", "y"), _each(uint64_t, arity=2)),
    "__mul_i32toi64": (("x", "y"), _each(int32_t, uint32_t, arity=2)),
    "__brev": (("x",), _singles(uint32_t, uint64_t)),
    "__clz": (("x",), _singles(int32_t, int64_t)),
    "__ffs": (("x",), _singles(int32_t, int64_t)),
    "__popc": (("x",), _singles(uint32_t, uint64_t)),
    "__sad": (("x", "y", "z"), ((int32_t, int32_t, uint32_t),)),
    "__usad": (("x", "y", "z"), _each(uint32_t, arity=3)),
    "__mul24": (("x", "y"), _each(int32_t, arity=2)),
    "__umul24": (("x", "y"), _each(uint32_t, arity=2)),
    "__hadd": (("x", "y"), _each(int32_t, arity=2)),
    "__rhadd": (("x", "y"), _each(int32_t, arity=2)),
    "__uhadd": (("x", "y"), _each(uint32_t, arity=2)),
    "__urhadd": (("x", "y"), _each(uint32_t, arity=2)),
    "max": (("x", "y"), _each(int64_t, int32_t, int16_t, int8_t, uint64_t, uint32_t, uint16_t,
                               uint8_t, arity=2)),
    "min": (("x", "y"), _each(int64_t, int32_t, int16_t, int8_t, uint64_t, uint32_t, uint16_t,
                               uint8_t, arity=2)),
    "umax": (("x", "y"), _each(uint32_t, arity=2)),
    "umin": (("x", "y"), _each(uint32_t, arity=2)),
    "llmax": (("x", "y"), _each(int64_t, arity=2)),
    "llmin": (("x", "y"), _each(int64_t, arity=2)),
    "ullmax": (("x", "y"), _each(uint64_t, arity=2)),
    "ullmin": (("x", "y"), _each(uint64_t, arity=2)),
    "labs": (("x",), _singles(int64_t)),
    "llabs": (("x",), _singles(int64_t)),
}  # fmt: skip
"""The integer device functions (``device_functions.h``): parameter names and C overloads."""
SIMT_FLOAT_ROWS = {
    "__saturatef": (("x",), _singles(float32_t)),
    "__fdividef": (("x", "y"), _each(float32_t, arity=2)),
    "fdividef": (("x", "y"), _each(float32_t, arity=2)),
}
"""The float device functions (``float`` parameters; ``fdividef`` is in ``math_functions.h``)."""
SIMT_SHFL_TYPES = (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t)
"""Value types of ``asc_shfl*`` (``half2``/``bfloat16x2_t`` do not exist in ascreg)."""
SIMT_SHFL_ROWS = {
    "asc_shfl": ("src_lane", int32_t),
    "asc_shfl_up": ("delta", uint32_t),
    "asc_shfl_down": ("delta", uint32_t),
    "asc_shfl_xor": ("lane_mask", int32_t),
}
"""``T asc_shfl*(T var, <lane parameter>, int32_t width)``: the lane parameter and its type."""
SIMT_REDUCE_TYPES = (int32_t, uint32_t, float32_t, half)
SIMT_ATOMIC_TYPES: dict[str, tuple[type[Scalar], ...]] = {
    "add": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "sub": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "exch": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "cas": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "max": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "min": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "inc": (uint32_t, uint64_t),
    "dec": (uint32_t, uint64_t),
    "and": (int32_t, uint32_t, int64_t, uint64_t),
    "or": (int32_t, uint32_t, int64_t, uint64_t),
    "xor": (int32_t, uint32_t, int64_t, uint64_t),
}
"""``T asc_atomic_<op>(T* address, T val)`` (``cas``: ``T compare, T val``): element types."""
SIMT_ACCESS_TYPES = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t,
                     float32_t, half, bfloat16_t)  # fmt: skip
"""Element types of the cache-hinted ``asc_ldcg/ldca/stcg/stwt`` (the scalar overloads)."""


def _simt_rows() -> tuple[OpSpec, ...]:
    """Generate the SIMT rows from the tables above."""
    rows = [_simt(n, r, c, "device_functions.h") for n, (r, c) in SIMT_INT_ROWS.items()]
    for name, (roles, combos) in SIMT_FLOAT_ROWS.items():
        header = "math_functions.h" if name == "fdividef" else "device_functions.h"
        rows.append(_simt(name, roles, combos, header))
    for name, (lane, lane_type) in SIMT_SHFL_ROWS.items():
        combos = tuple((t, lane_type, int32_t) for t in SIMT_SHFL_TYPES)
        rows.append(_simt(name, ("var", lane, "width"), combos, "device_warp_functions.h"))
    for name in ("asc_ballot", "asc_all", "asc_any"):
        rows.append(_simt(name, ("predicate",), ((int32_t,),), "device_warp_functions.h"))
    for op in ("add", "max", "min"):
        rows.append(_simt(f"asc_reduce_{op}", ("value",), _singles(*SIMT_REDUCE_TYPES),
                          "device_warp_functions.h"))  # fmt: skip
    for op, types in SIMT_ATOMIC_TYPES.items():
        roles = ("address", "compare", "val") if op == "cas" else ("address", "val")
        rows.append(_simt(f"asc_atomic_{op}", roles, _each(*types, arity=len(roles)),
                          "device_atomic_functions.h"))  # fmt: skip
    for name in ("asc_ldcg", "asc_ldca"):
        rows.append(_simt(name, ("address",), _singles(*SIMT_ACCESS_TYPES), "device_functions.h"))
    for name in ("asc_stcg", "asc_stwt"):
        rows.append(_simt(name, ("address", "val"), _each(*SIMT_ACCESS_TYPES, arity=2),
                          "device_functions.h"))  # fmt: skip
    return tuple(rows)


# ==== end of the SIMT tables ======================================================================

_ROWS = (
    _reg("CreateMask", ("T",), _singles(*MASK_TYPES), MaskRule.NONE, "寄存器数据类型/MaskReg.md"),
    _reg("UpdateMask", ("T",), _singles(*MASK_TYPES), MaskRule.NONE, "寄存器数据类型/MaskReg.md"),
    _reg(
        "LoadAlign",
        ("T",),
        _singles(*REG_TYPES),
        MaskRule.NONE,
        "Reg数据搬入/连续对齐搬入（LoadAlign）.md",
    ),
    _reg(
        "StoreAlign",
        ("T",),
        _singles(*REG_TYPES),
        MaskRule.STORE,
        "Reg数据搬出/连续对齐搬出（StoreAlign）.md",
    ),
    _reg("Compare", ("T",), _singles(*CMP_TYPES), MaskRule.ZEROING, "比较与选择/Compare.md"),
    _reg("Compares", ("T",), _singles(*CMP_TYPES), MaskRule.ZEROING, "比较与选择/Compares.md"),
    _reg("Select", ("T",), _singles(*SELECT_TYPES), MaskRule.SELECTOR, "比较与选择/Select.md"),
    _reg("ShiftRight", ("src", "shift"), SHIFT_PAIRS, MaskRule.ZEROING, "逻辑计算/ShiftRight.md"),
    _reg("ShiftLeft", ("src", "shift"), SHIFT_PAIRS, MaskRule.ZEROING, "逻辑计算/ShiftLeft.md"),
    _reg(
        "ShiftRights",
        ("src", "scalar"),
        tuple((d, int16_t) for d in SHIFT_DATA),
        MaskRule.ZEROING,
        "逻辑计算/ShiftRights.md",
    ),
    _reg(
        "ShiftLefts",
        ("src", "scalar"),
        tuple((d, int16_t) for d in SHIFT_DATA),
        MaskRule.ZEROING,
        "逻辑计算/ShiftLefts.md",
    ),
    _reg("Add", ("T",), _singles(*ADD_TYPES), MaskRule.ZEROING, "基础算术/Add.md"),
    _reg("Sub", ("T",), _singles(*ADD_TYPES), MaskRule.ZEROING, "基础算术/Sub.md"),
    _reg("Mul", ("T",), _singles(*MUL_TYPES), MaskRule.ZEROING, "基础算术/Mul.md"),
    _reg("Max", ("T",), _singles(*MAXMIN_TYPES), MaskRule.ZEROING, "基础算术/Max.md"),
    _reg("Min", ("T",), _singles(*MAXMIN_TYPES), MaskRule.ZEROING, "基础算术/Min.md"),
    _reg("And", ("T",), _singles(*LOGIC_TYPES), MaskRule.ZEROING, "逻辑计算/And.md"),
    _reg("Or", ("T",), _singles(*LOGIC_TYPES), MaskRule.ZEROING, "逻辑计算/Or.md"),
    _reg("Xor", ("T",), _singles(*LOGIC_TYPES), MaskRule.ZEROING, "逻辑计算/Xor.md"),
    _reg("Not", ("T",), _singles(*NOT_TYPES), MaskRule.ZEROING, "逻辑计算/Not.md"),
    _reg("Duplicate", ("T",), _singles(*DUP_TYPES), MaskRule.ZEROING, "数据填充/Duplicate.md"),
    _reg("Move", ("T",), _singles(*SELECT_TYPES), MaskRule.MERGING, "Reg数据搬入/Move.md"),
    _reg("Adds", ("T",), _singles(*ADD_TYPES), MaskRule.ZEROING, "基础算术/Adds.md"),
    _reg("Muls", ("T",), _singles(*MULS_TYPES), MaskRule.ZEROING, "基础算术/Muls.md"),
    _reg("Maxs", ("T",), _singles(*MAXMIN_TYPES), MaskRule.ZEROING, "基础算术/Maxs.md"),
    _reg("Mins", ("T",), _singles(*MAXMIN_TYPES), MaskRule.ZEROING, "基础算术/Mins.md"),
    _reg("Abs", ("T",), _singles(*ABS_TYPES), MaskRule.ZEROING, "基础算术/Abs.md"),
    _reg("Neg", ("T",), _singles(*NEG_TYPES), MaskRule.ZEROING, "基础算术/Neg.md"),
    _reg(
        "Interleave",
        ("T",),
        _singles(*INTERLEAVE_TYPES),
        MaskRule.NONE,
        "数据重排/Interleave.md",
    ),
    _reg(
        "DeInterleave",
        ("T",),
        _singles(*INTERLEAVE_TYPES),
        MaskRule.NONE,
        "数据重排/DeInterleave.md",
    ),
    _reg("Arange", ("T",), _singles(*ARANGE_TYPES), MaskRule.NONE, "索引操作/Arange.md"),
    _reg(
        "Reduce",
        ("T", "U"),
        tuple(dict.fromkeys(c for combos in REDUCE_COMBOS.values() for c in combos)),
        MaskRule.REDUCE,
        "归约计算/Reduce.md",
    ),
    *(
        _reg(name, ("T",), _singles(*REG_TYPES), rule, doc)
        for name, rule, doc in (
            ("LoadUnAlignPre", MaskRule.NONE, "Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
            ("LoadUnAlign", MaskRule.NONE, "Reg数据搬入/连续非对齐搬入（LoadUnAlign）.md"),
            ("StoreUnAlign", MaskRule.NONE, "Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md"),
            ("StoreUnAlignPost", MaskRule.NONE, "Reg数据搬出/连续非对齐搬出（StoreUnAlign）.md"),
            ("Load", MaskRule.NONE, "Reg数据搬入/Load.md"),
            ("Store", MaskRule.NONE, "Reg数据搬出/Store.md"),
        )
    ),
    # ---- C API (asc_*) rows, generated from the C API tables above ----
    *(_C_API_ROWS := _c_api_rows()),
    # ---- end of the C API rows ----
    # ---- SIMT rows (ascreg.simt), generated from the SIMT tables above ----
    *(_SIMT_ROWS := _simt_rows()),
    # ---- end of the SIMT rows ----
)

C_API_NAMES = frozenset(row.name for row in _C_API_ROWS)
"""Names of the rows of the C API surface (``ascreg.c_api``)."""
SIMT_NAMES = frozenset(row.name for row in _SIMT_ROWS)
"""Names of the rows of the SIMT surface (``ascreg.simt``; some also start with ``asc_``)."""

SPECS: dict[str, OpSpec] = {row.name: row for row in _ROWS}
"""Every row, keyed by the spelling users call."""

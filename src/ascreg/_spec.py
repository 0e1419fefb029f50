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

_REG = "docs/zh/api/SIMD-API/基础API/Reg矢量计算/"


def _reg(name: str, roles: tuple[str, ...], combos: Any, mask: MaskRule, doc: str) -> OpSpec:
    return OpSpec(f"Reg.{name}", f"AscendC::Reg::{name}", roles, combos, mask, _REG + doc)


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
)

SPECS: dict[str, OpSpec] = {row.name: row for row in _ROWS}
"""Every row, keyed by the spelling users call."""

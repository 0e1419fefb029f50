"""The op table: one row per spelling of an op, the single source of truth about it.

Each :class:`OpSpec` row carries everything about one spelling users call (``Reg.ShiftRight``,
``asc_shiftright``, ``__byte_perm``): its C++ name, the role of each dtype position, the legal
combinations (in the documentation's order), the mask rule, the source document in the public
asc-devkit repository, its surface and family (the op its twins on other surfaces share), its
call shape (the overload forms and subscripts) and the function that does its work. The runtime
dtype check, the generated typing stubs and type tests, and the documentation tables all read
this table and nothing else.

The package is split by concern: ``row`` (the row type), ``dtypes`` (the dtype sets), ``shapes``
(the call-shape vocabulary) and one module of rows per surface (``reg``, ``c_api``, ``simt``).

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
>>> [row.name for row in family_rows("ShiftRight")]
['Reg.ShiftRight', 'asc_shiftright', 'basic.ShiftRight']
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any

from ascreg._spec.dtypes import ABS_TYPES as ABS_TYPES
from ascreg._spec.dtypes import ADD_TYPES as ADD_TYPES
from ascreg._spec.dtypes import ARANGE_TYPES as ARANGE_TYPES
from ascreg._spec.dtypes import B8_TYPES as B8_TYPES
from ascreg._spec.dtypes import C_B8 as C_B8
from ascreg._spec.dtypes import C_B8_TO_B32 as C_B8_TO_B32
from ascreg._spec.dtypes import C_B16 as C_B16
from ascreg._spec.dtypes import C_B32 as C_B32
from ascreg._spec.dtypes import C_B64 as C_B64
from ascreg._spec.dtypes import C_BASIC as C_BASIC
from ascreg._spec.dtypes import C_COPY_MASK_PART as C_COPY_MASK_PART
from ascreg._spec.dtypes import C_FP8_BITS as C_FP8_BITS
from ascreg._spec.dtypes import C_LOAD_FAMILY as C_LOAD_FAMILY
from ascreg._spec.dtypes import C_LOGIC as C_LOGIC
from ascreg._spec.dtypes import C_SELECT as C_SELECT
from ascreg._spec.dtypes import C_SHIFT_PAIRS as C_SHIFT_PAIRS
from ascreg._spec.dtypes import C_STORE_FAMILY as C_STORE_FAMILY
from ascreg._spec.dtypes import C_UNALIGNED as C_UNALIGNED
from ascreg._spec.dtypes import C_VECTOR_TYPES as C_VECTOR_TYPES
from ascreg._spec.dtypes import CMP_TYPES as CMP_TYPES
from ascreg._spec.dtypes import DUP_TYPES as DUP_TYPES
from ascreg._spec.dtypes import INTERLEAVE_TYPES as INTERLEAVE_TYPES
from ascreg._spec.dtypes import LOGIC_TYPES as LOGIC_TYPES
from ascreg._spec.dtypes import MASK_GEN_TYPES as MASK_GEN_TYPES
from ascreg._spec.dtypes import MASK_TYPES as MASK_TYPES
from ascreg._spec.dtypes import MAXMIN_TYPES as MAXMIN_TYPES
from ascreg._spec.dtypes import MUL_TYPES as MUL_TYPES
from ascreg._spec.dtypes import MULS_TYPES as MULS_TYPES
from ascreg._spec.dtypes import NEG_TYPES as NEG_TYPES
from ascreg._spec.dtypes import NOT_TYPES as NOT_TYPES
from ascreg._spec.dtypes import PACK_COMBOS as PACK_COMBOS
from ascreg._spec.dtypes import PAIR_REDUCE_TYPES as PAIR_REDUCE_TYPES
from ascreg._spec.dtypes import REDUCE_BLOCK_COMBOS as REDUCE_BLOCK_COMBOS
from ascreg._spec.dtypes import REDUCE_COMBOS as REDUCE_COMBOS
from ascreg._spec.dtypes import REG_TYPES as REG_TYPES
from ascreg._spec.dtypes import SELECT_TYPES as SELECT_TYPES
from ascreg._spec.dtypes import SHIFT_DATA as SHIFT_DATA
from ascreg._spec.dtypes import SHIFT_PAIRS as SHIFT_PAIRS
from ascreg._spec.dtypes import SIMT_ACCESS_TYPES as SIMT_ACCESS_TYPES
from ascreg._spec.dtypes import SIMT_ATOMIC_TYPES as SIMT_ATOMIC_TYPES
from ascreg._spec.dtypes import SIMT_REDUCE_TYPES as SIMT_REDUCE_TYPES
from ascreg._spec.dtypes import SIMT_SHFL_TYPES as SIMT_SHFL_TYPES
from ascreg._spec.dtypes import UNPACK_COMBOS as UNPACK_COMBOS
from ascreg._spec.reg import REG_ROWS as REG_ROWS
from ascreg._spec.row import Combo as Combo
from ascreg._spec.row import MaskRule as MaskRule
from ascreg._spec.row import OpSpec as OpSpec
from ascreg._spec.row import Surface as Surface
from ascreg._spec.shapes import BasicForm as BasicForm
from ascreg._spec.shapes import BasicShape as BasicShape
from ascreg._spec.shapes import CForm as CForm
from ascreg._spec.shapes import CShape as CShape
from ascreg._spec.shapes import Param as Param
from ascreg._spec.shapes import ParamKind as ParamKind
from ascreg._spec.shapes import RegForm as RegForm
from ascreg._spec.shapes import RegShape as RegShape
from ascreg._spec.shapes import Shape as Shape
from ascreg._spec.shapes import SimtKind as SimtKind
from ascreg._spec.shapes import SimtShape as SimtShape

_LAZY_NAMES = {
    **dict.fromkeys(
        ("C_API_ROWS", "C_API_NAMES", "C_COMPARES", "C_MULS_PARTS", "C_SCALAR_ATOMIC_TYPES",
         "C_UNALIGNED_NAMES"),
        "ascreg._spec.c_api",
    ),
    **dict.fromkeys(
        ("SIMT_CONVERSION_ROWS", "SIMT_FLOAT_ROWS", "SIMT_INT_ROWS", "SIMT_LIBM_ROWS", "SIMT_ROWS",
         "SIMT_NAMES", "SIMT_SHFL_ROWS"),
        "ascreg._spec.simt",
    ),
    **dict.fromkeys(("BASIC_ROWS", "BASIC_NAMES"), "ascreg._spec.basic"),
}  # fmt: skip
"""The names of the C API, SIMT and basic row modules, made on first use (the Reg front end
needs the Reg rows only): the module that defines each (the docs read their docstrings there)."""

_LATER = (("ascreg._spec.c_api", "C_API_ROWS"), ("ascreg._spec.simt", "SIMT_ROWS"),
          ("ascreg._spec.basic", "BASIC_ROWS"))  # fmt: skip
"""The rows :data:`SPECS` makes on first use, in table order after the Reg rows."""


class _Table(MutableMapping[str, OpSpec]):
    """:data:`SPECS`: the Reg rows at once, the others made when first asked for.

    A look-up of a Reg row costs a dict look-up; anything else (another row, iterating,
    ``len``) makes the C API, SIMT and basic rows first. Tests may add or replace rows.
    """

    def __init__(self) -> None:
        self._rows = {row.name: row for row in REG_ROWS}
        self._complete = False

    def _all(self) -> dict[str, OpSpec]:
        if not self._complete:
            self._complete = True
            rows = (getattr(importlib.import_module(m), name) for m, name in _LATER)
            later = {row.name: row for row in (r for group in rows for r in group)}
            added = {k: v for k, v in self._rows.items() if k not in later and k not in _REG}
            self._rows = {**{k: self._rows[k] for k in _REG if k in self._rows}, **later, **added}
        return self._rows

    def _later(self, key: object) -> dict[str, OpSpec]:
        """Return the rows to look *key* up in: all of them, unless it is a Reg name."""
        reg = isinstance(key, str) and key.startswith("Reg.")
        return self._rows if reg else self._all()

    def __getitem__(self, key: str) -> OpSpec:
        found = self._rows.get(key)
        return found if found is not None else self._later(key)[key]

    def get(self, key: str, default: Any = None) -> Any:
        """Return the row *key*, or *default*."""
        found = self._rows.get(key)
        return found if found is not None else self._later(key).get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._rows or key in self._later(key)

    def __setitem__(self, key: str, row: OpSpec) -> None:
        self._all()[key] = row

    def __delitem__(self, key: str) -> None:
        del self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"<SPECS: {len(self)} rows>"


_REG = tuple(row.name for row in REG_ROWS)
SPECS: MutableMapping[str, OpSpec] = _Table()
"""Every row, keyed by the spelling users call: the Reg rows, then the C API's, then SIMT's, then
the memory-level basic API's (keyed ``basic.<name>``); all but the Reg rows made on first use."""


def __getattr__(name: str) -> Any:
    """Make the C API, SIMT and basic rows (and their names) on first use."""
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ascreg._spec' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_NAMES})


def family_rows(family: str) -> tuple[OpSpec, ...]:
    """Return every row of *family* (the same op on each surface), in table order.

    Examples
    --------
    >>> [row.name for row in family_rows("Move")]
    ['Reg.Move', 'asc_copy']
    >>> [row.surface for row in family_rows("max")]
    ['simt', 'simt', 'simt', 'simt']
    """
    return tuple(row for row in SPECS.values() if row.family == family)

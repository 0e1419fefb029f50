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
['Reg.ShiftRight', 'asc_shiftright']
"""

from __future__ import annotations

from ascreg._spec.basic import BASIC_ROWS as BASIC_ROWS
from ascreg._spec.c_api import C_API_ROWS as C_API_ROWS
from ascreg._spec.c_api import C_COMPARES as C_COMPARES
from ascreg._spec.c_api import C_MULS_PARTS as C_MULS_PARTS
from ascreg._spec.c_api import C_SCALAR_ATOMIC_TYPES as C_SCALAR_ATOMIC_TYPES
from ascreg._spec.c_api import C_UNALIGNED_NAMES as C_UNALIGNED_NAMES
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
from ascreg._spec.simt import SIMT_CONVERSION_ROWS as SIMT_CONVERSION_ROWS
from ascreg._spec.simt import SIMT_FLOAT_ROWS as SIMT_FLOAT_ROWS
from ascreg._spec.simt import SIMT_INT_ROWS as SIMT_INT_ROWS
from ascreg._spec.simt import SIMT_LIBM_ROWS as SIMT_LIBM_ROWS
from ascreg._spec.simt import SIMT_ROWS as SIMT_ROWS
from ascreg._spec.simt import SIMT_SHFL_ROWS as SIMT_SHFL_ROWS

SPECS: dict[str, OpSpec] = {
    row.name: row for row in (*REG_ROWS, *C_API_ROWS, *SIMT_ROWS, *BASIC_ROWS)
}
"""Every row, keyed by the spelling users call: the Reg rows, then the C API's, then SIMT's, then
the memory-level basic API's (keyed ``basic.<name>``)."""

C_API_NAMES = frozenset(row.name for row in C_API_ROWS)
"""Names of the rows of the C API surface (``ascreg.c_api``)."""
SIMT_NAMES = frozenset(row.name for row in SIMT_ROWS)
"""Names of the rows of the SIMT surface (``ascreg.simt``; some also start with ``asc_``)."""
BASIC_NAMES = frozenset(row.name for row in BASIC_ROWS)
"""Names of the rows of the memory-level basic API (``ascreg.basic``; keyed ``basic.<name>``)."""


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

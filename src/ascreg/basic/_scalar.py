"""Scalar-unit helpers of the basic API: ``GetUintDivMagicAndShift``.

``AscendC::GetUintDivMagicAndShift<T>(T& magic, T& shift, T divisor)`` prepares a divisor for
``Simt::UintDiv`` (:mod:`ascreg.core.uintdiv`): the kernel body computes it once, the SIMT VF
divides many per-thread values by it. ``magic`` and ``shift`` are C++ references, so
:class:`~ascreg.Ref` boxes here; ``T`` (``uint32_t`` or ``uint64_t``) is a subscript or
deduced from the typed arguments.

Examples
--------
>>> from ascreg import Ref, uint64_t
>>> magic, shift = Ref(uint64_t(0)), Ref(uint64_t(0))
>>> GetUintDivMagicAndShift(magic, shift, uint64_t(10))
>>> hex(int(magic.value)), int(shift.value)
('0x999999999999999a', 4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, uint32_t, uint64_t
from ascreg._frontend import operands
from ascreg.core.uintdiv import magic_and_shift
from ascreg.errors import AscregTypeError
from ascreg.machine.ref import require_ref

_TYPES = {np.dtype(np.uint32): uint32_t, np.dtype(np.uint64): uint64_t}


class _GetUintDivMagicAndShift:
    """``AscendC::GetUintDivMagicAndShift<T>(T& magic, T& shift, T divisor)``.

    Sets ``magic`` and ``shift`` (two :class:`~ascreg.Ref`) so that ``Simt::UintDiv<T>(n, magic,
    shift)`` is ``n / divisor`` (:mod:`ascreg.core.uintdiv`, the header's formula bit for bit);
    ``divisor`` in ``[1, INT32_MAX]`` (``uint32_t``) or ``[1, INT64_MAX]`` (``uint64_t``).

    Examples
    --------
    >>> from ascreg import Ref, uint32_t
    >>> m, s = Ref(0), Ref(0)
    >>> GetUintDivMagicAndShift[uint32_t](m, s, 7); int(m.value), int(s.value)
    (613566757, 3)
    """

    def __getitem__(self, dtype: Any) -> Callable[[Any, Any, Any], None]:
        if dtype not in (uint32_t, uint64_t):
            raise AscregTypeError(
                f"T must be uint32_t or uint64_t, got {dtype!r} (C++: static_assert 'Input type "
                "T only supports uint32_t, uint64_t.')",
                call="GetUintDivMagicAndShift",
            )
        return lambda magic, shift, divisor: self._run(dtype, magic, shift, divisor)

    def __call__(self, magic: Any, shift: Any, divisor: Any) -> None:
        typed = {np.asarray(v).dtype for v in (getattr(magic, "value", magic),
                                               getattr(shift, "value", shift), divisor)
                 if isinstance(v, np.generic | np.ndarray)}  # fmt: skip
        if len(typed) != 1 or next(iter(typed)) not in _TYPES:
            raise AscregTypeError(
                "cannot deduce T (uint32_t or uint64_t) from the arguments' types "
                f"{sorted(map(str, typed))}: write GetUintDivMagicAndShift[uint32_t](...) or "
                "pass uint32_t / uint64_t values",
                call="GetUintDivMagicAndShift",
            )
        self._run(_TYPES[next(iter(typed))], magic, shift, divisor)

    def _run(self, dtype: type[Scalar], magic: Any, shift: Any, divisor: Any) -> None:
        _ascreg_call = f"GetUintDivMagicAndShift<{dtype.cpp_name}>"
        magic_box = require_ref(magic, f"{dtype.cpp_name}& magic")
        shift_box = require_ref(shift, f"{dtype.cpp_name}& shift")
        value = operands.c_integer(_ascreg_call, "divisor", divisor)
        if not isinstance(value, int) and value.ndim:
            raise AscregTypeError(f"divisor must be one value, got {np.size(value)}")
        m, s = magic_and_shift(int(value), 8 * dtype.size)
        magic_box.value = dtype.np_dtype.type(m)
        shift_box.value = dtype.np_dtype.type(s)

    def __repr__(self) -> str:
        return "GetUintDivMagicAndShift"


GetUintDivMagicAndShift = _GetUintDivMagicAndShift()

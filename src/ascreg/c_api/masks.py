"""Mask creation: ``asc_create_mask_b8/b16/b32(PAT_*)``, ``asc_update_mask_b8/b16/b32(count)``.

Also ``asc_get_mask_spr_b16/_b32()``, which read the mask special-purpose register.

Examples
--------
>>> from ascreg import Ref
>>> print(asc_create_mask_b16(PAT_VL16))
MaskReg(b16: lanes 0-15 on, 16 of 128)
>>> count = Ref(320)
>>> [asc_update_mask_b16(count).count() for _ in range(3)], count.value
([128, 128, 64], 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend import operands, rules
from ascreg._frontend.template import define
from ascreg.c_api._types import vector_bool
from ascreg.core import masks as core
from ascreg.enums import MaskPattern
from ascreg.errors import AscregTypeError
from ascreg.machine.ref import require_ref
from ascreg.machine.registers import VL
from ascreg.machine.spr import read_mask_spr

(
    PAT_ALL, PAT_VL1, PAT_VL2, PAT_VL3, PAT_VL4, PAT_VL8, PAT_VL16, PAT_VL32, PAT_VL64, PAT_VL128,
    PAT_M3, PAT_M4, PAT_H, PAT_Q, PAT_ALLF,
) = tuple(MaskPattern)  # fmt: skip
"""The C ``PAT_*`` pattern constants (the ``pset`` encoding, shared with ``MaskPattern``)."""

WIDTHS = {"b8": 1, "b16": 2, "b32": 4}
"""Bytes per lane of each mask width suffix."""


def _create(op: Any, pattern: Any) -> Any:
    code = int(pattern) if isinstance(pattern, int) else None
    if code not in core.PATTERN_CODES.values():
        raise AscregTypeError(f"{pattern!r} is not a PAT_* pattern (PAT_ALL ... PAT_ALLF)")
    assert code is not None
    bits, enables = core.pattern_mask(code, VL // op.stride, op.stride)
    mask = vector_bool()
    mask.set_bits(bits, enables, op.stride)  # fresh bits; the enables as Reg.CreateMask keeps them
    return mask


def _update(op: Any, count: Any) -> Any:
    box = require_ref(count, "uint32_t& value")
    value = box.value
    if isinstance(value, np.ndarray):  # one count per iteration of a batched loop
        rows, enables, box.value = core.tail_rows(value, VL // op.stride, op.stride)
        batched = vector_bool()
        # the shared read-only rows and their enables, as Reg.UpdateMask holds them
        batched.set_bits(rows, enables, op.stride)
        return batched
    if not operands.is_integer(value) or not 0 <= value < 1 << 32:
        raise AscregTypeError(f"count {value!r} is not a uint32_t value")
    lanes = VL // op.stride
    bits, enables, box.value = core.update_mask_enables(int(value), lanes, op.stride)
    mask = vector_bool()
    # the shared read-only prefix and its enables, as Reg.UpdateMask holds them (no copy)
    mask.set_bits(bits, enables, op.stride)
    return mask


def _create_doc(name: str, width: str, size: int) -> str:
    return f"""``vector_bool {name}(pattern)``: the fixed lane pattern for {width} lanes.

    ``PAT_ALL`` / ``PAT_ALLF`` (none), ``PAT_VLn`` (the first n lanes, all of them when n exceeds
    the {VL // size} lanes), ``PAT_M3`` / ``PAT_M4`` (every 3rd / 4th lane), ``PAT_H`` /
    ``PAT_Q`` (the first half / quarter). Lane i is bit ``i * {size}``.

    Examples
    --------
    >>> {name}(PAT_M4).count(), {name}(PAT_VL3).count()
    ({VL // size // 4}, 3)
    """


def _update_doc(name: str, size: int) -> str:
    lanes = VL // size
    return f"""``vector_bool {name}(uint32_t& value)``: the first ``min(value, {lanes})`` lanes.

    Then ``value`` becomes ``0`` if it was below {lanes}, else ``value - {lanes}`` (the tail
    idiom of a VF loop). Pass the count as an :class:`ascreg.Ref`.

    Examples
    --------
    >>> from ascreg import Ref
    >>> n = Ref({lanes + 3}); {name}(n).count(), n.value
    ({lanes}, 3)
    """


def _mask_op(kind: str, width: str) -> Any:
    name, size = f"asc_{kind}_mask_{width}", WIDTHS[width]
    doc = _create_doc(name, width, size) if kind == "create" else _update_doc(name, size)
    if kind == "create":
        return define(name, doc=doc, stride=size, batch=rules.ROWS)(_create)
    return define(name, doc=doc, stride=size, geometry=(VL // size, size), batch=rules.TAIL_COUNT)(
        _update
    )


asc_create_mask_b8, asc_create_mask_b16, asc_create_mask_b32 = (
    _mask_op("create", w) for w in WIDTHS
)
asc_update_mask_b8, asc_update_mask_b16, asc_update_mask_b32 = (
    _mask_op("update", w) for w in WIDTHS
)


def _get_mask_spr(width: str) -> Callable[[], vector_bool]:
    name = f"asc_get_mask_spr_{width}"
    size = WIDTHS[width]

    def get() -> vector_bool:
        _ascreg_call = name
        return vector_bool.from_bits(core.spr_bits(read_mask_spr(), size))  # type: ignore[return-value]

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"""``vector_bool {name}()``: the mask SPR, each of its low {256 // size} bits
    repeated {size} times (one b{8 * size} lane each).

    On dav-3510 only ``asc_init()`` writes the SPR (all ones; ``asc_set_vector_mask`` is not
    supported on this chip), so after ``asc_init()`` this is the all-lanes mask. Reading it before
    ``asc_init()`` in the kernel is an error.

    Examples
    --------
    >>> from ascreg.c_api import asc_init
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_init(); {name}().count()
    256
    """
    return get


asc_get_mask_spr_b16, asc_get_mask_spr_b32 = (_get_mask_spr(w) for w in ("b16", "b32"))

"""Atomic read-modify-write on UB or GM: ``asc_atomic_add`` ... ``asc_atomic_cas`` (return the old value).

In the vectorised tier one call stands for every thread of the block, or, in divergent code,
for the threads of the active mask (the others change nothing and get 0). Threads that hit the
same address are serialised in thread order (one of the orders the hardware may pick); the update
formulas and the serialisation are :mod:`ascreg.core.atomics`, this module checks the arguments
against each function's row. The model's order over a launch: blocks in launch order, calls in
program order, each call's lanes in thread order (float sums are rounded in that order); a call
whose value the kernel drops updates by ``ufunc.at`` in the same order, and blocks run side by
side keep it (see the "SIMT order of atomics" section of the semantics page).

The address is a pointer (the same address for every thread) or ``p + idx`` with a per-thread
``idx`` (a :class:`~ascreg.simt.LanePointer`). 64-bit atomics are GM-only.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.simt import dim3, threadIdx, run_simt_kernel, asc_atomic_add
>>> gm = GlobalMemory(); counter = gm.alloc(uint32_t, 1); old = gm.alloc(uint32_t, 8)
>>> def k(counter, old):
...     old[threadIdx.x] = asc_atomic_add(counter, 1)
>>> run_simt_kernel(k, dim3(1), dim3(8), 0, (counter, old))
>>> counter.read(1), old.read(8)
(array([8], dtype=uint32), array([0, 1, 2, 3, 4, 5, 6, 7], dtype=uint32))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec import SIMT_ATOMIC_TYPES, SPECS
from ascreg.core import atomics
from ascreg.errors import AddressSpaceError
from ascreg.machine.memory import UbPtr
from ascreg.machine.races import atomic_access
from ascreg.machine.simt.engine import current_group
from ascreg.machine.simt.lanes import Lanes

Arr = np.ndarray[Any, Any]
LEGAL: dict[str, tuple[np.dtype[Any], ...]] = {
    op: tuple(combo[0].np_dtype for combo in SPECS[f"asc_atomic_{op}"].combos)
    for op in SIMT_ATOMIC_TYPES
}
"""Legal element types per atomic (the ``address`` column of the ``asc_atomic_*`` rows)."""


def _atomic(op: Any, address: Any, *values: Any) -> Any:
    """Check the address and operands of *op* against its row, then update for every thread."""
    group = current_group(op.name)
    pointees = tuple(combo[0] for combo in op.spec.combos)
    per_block = getattr(address, "atomic_target", None)  # UB of a batch of blocks
    if per_block is not None:
        address = per_block()
    base, target = operands.simt_address(op.name, address, pointees)
    if base.dtype.size == 8 and isinstance(base, UbPtr):
        raise AddressSpaceError(f"64-bit atomics work on GM only, not on {base!r}")
    roles = op.spec.roles[1:]
    converted = [
        operands.scalar(v, base.dtype, r, per_thread=True)
        for v, r in zip(values, roles, strict=True)
    ]
    update = op.name.removeprefix("asc_atomic_")
    # a call whose value the kernel drops (a statement of its masked form): ufunc.at updates
    discard = group.discarding is not None and group.discarding is _FORWARDERS.get(op.name)
    if group.batch is not None:  # blocks side by side (ascreg.engine.simt.blocks)
        if discard and group.batch.defer(update, target, converted):
            return np.zeros(group.size, dtype=base.dtype.np_dtype).view(Lanes)
        group.batch.atomic(target)
    with atomic_access():  # blocks may combine results here: exempt from the GM race check
        old = atomics.read_modify_write(
            update, target, group.size, converted, group.active, discard=discard
        )
        return old.view(Lanes)


def _update(op: Any, address: Any, val: Any) -> Any:
    return _atomic(op, address, val)


def _doc(op: str, formula: str, example_result: int) -> str:
    """Return the docstring of ``asc_atomic_<op>`` (its example applies it to old 6 and val 3)."""
    return f"""``T asc_atomic_{op}(T* address, T val)``: store ``{formula}``; return the old value.

    Legal T: {", ".join(d.name for d in LEGAL[op])}.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(uint32_t, 1); p.write([6])
    >>> run_simt_kernel(lambda p: asc_atomic_{op}(p, 3), dim3(1), dim3(1), 0, (p,))
    >>> int(p.read(1)[0])
    {example_result}
    """


asc_atomic_add = define("asc_atomic_add", doc=_doc("add", "old + val", 9))(_update)
asc_atomic_sub = define("asc_atomic_sub", doc=_doc("sub", "old - val", 3))(_update)
asc_atomic_exch = define("asc_atomic_exch", doc=_doc("exch", "val", 3))(_update)
asc_atomic_max = define("asc_atomic_max", doc=_doc("max", "max(old, val)", 6))(_update)
asc_atomic_min = define("asc_atomic_min", doc=_doc("min", "min(old, val)", 3))(_update)
asc_atomic_inc = define("asc_atomic_inc", doc=_doc("inc", "old >= val ? 0 : old + 1", 0))(_update)
asc_atomic_dec = define(
    "asc_atomic_dec", doc=_doc("dec", "(old == 0 || old > val) ? val : old - 1", 3)
)(_update)
asc_atomic_and = define("asc_atomic_and", doc=_doc("and", "old & val", 2))(_update)
asc_atomic_or = define("asc_atomic_or", doc=_doc("or", "old | val", 7))(_update)
asc_atomic_xor = define("asc_atomic_xor", doc=_doc("xor", "old ^ val", 5))(_update)


@define("asc_atomic_cas")
def asc_atomic_cas(op: Any, address: Any, compare: Any, val: Any) -> Any:
    """``T asc_atomic_cas(T* address, T compare, T val)``: store ``val`` if ``old == compare``.

    Returns the old value. Legal T: int32, uint32, float32, int64, uint64.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(int32_t, 1)
    >>> won = GlobalMemory().alloc(int32_t, 4)
    >>> def k(p, won):  # only the first thread (in thread order) swaps 0 -> its id + 1
    ...     won[threadIdx.x] = asc_atomic_cas(p, 0, threadIdx.x.astype('int32') + 1)
    >>> run_simt_kernel(k, dim3(1), dim3(4), 0, (p, won))
    >>> p.read(1), won.read(4)
    (array([1], dtype=int32), array([0, 1, 1, 1], dtype=int32))
    """
    return _atomic(op, address, compare, val)


_FORWARDERS: dict[str, Any] = {
    f.__name__: f
    for f in (
        asc_atomic_add,
        asc_atomic_sub,
        asc_atomic_exch,
        asc_atomic_max,
        asc_atomic_min,
        asc_atomic_inc,
        asc_atomic_dec,
        asc_atomic_and,
        asc_atomic_or,
        asc_atomic_xor,
        asc_atomic_cas,
    )
}
"""Each atomic's own entry point, by name: what ``Group.discarding`` holds for a call whose value
is dropped."""

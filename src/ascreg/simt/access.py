"""Cache-hinted loads and stores: ``asc_ldcg``, ``asc_ldca``, ``asc_stcg``, ``asc_stwt``.

The hints choose which caches (Data Cache, L2) keep the line; the value loaded or stored is that
of a plain ``*address`` / ``*address = val`` (c_api_simt.md §6.6), so each of them is one table row
over a plain access (:mod:`ascreg.core.access`). The address is a pointer (every thread uses the same element) or
``p + idx`` with a per-thread ``idx``.

Decisions where the documentation is silent: ``asc_ldcg``, ``asc_stcg`` and ``asc_stwt`` are
documented as Global Memory accesses and reject a ``__ubuf__`` pointer
(:class:`~ascreg.errors.AddressSpaceError`); ``asc_ldca`` is documented as what a plain access
does and accepts both. Legal element types are the documented scalar ones (``char`` ...
``unsigned long long``, ``float``, ``half``, ``bfloat16_t``); the vector types (``int2``,
``float4``, ``half2``, ``bfloat16x2_t`` ...) do not exist in ascreg.

Examples
--------
>>> from ascreg import GlobalMemory, float32_t
>>> from ascreg.simt import dim3, threadIdx, run_simt_kernel, asc_ldcg, asc_stcg
>>> gm = GlobalMemory(); src = gm.alloc(float32_t, 4); dst = gm.alloc(float32_t, 4)
>>> src.write([1, 2, 3, 4])
>>> def k(dst, src):
...     asc_stcg(dst + threadIdx.x, asc_ldcg(src + (3 - threadIdx.x)) * 2)
>>> run_simt_kernel(k, dim3(1), dim3(4), 0, (dst, src))
>>> dst.read(4)
array([8., 6., 4., 2.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec import SPECS
from ascreg.core import access
from ascreg.errors import AddressSpaceError
from ascreg.machine.memory import GmPtr, Pointer
from ascreg.machine.simt.engine import LanePointer

LEGAL: tuple[np.dtype[Any], ...] = tuple(combo[0].np_dtype for combo in SPECS["asc_ldcg"].combos)
"""Element types of the cache-hinted accesses (the ``address`` column of the ``asc_ldcg`` row)."""
_NO_VECTORS = "; vector types such as half2 do not exist"


def _address(op: Any, address: Any) -> Pointer[Any] | LanePointer:
    """Return the target of *op*'s address after checking it against the row (and GM-only)."""
    pointees = tuple(combo[0] for combo in op.spec.combos)
    base, target = operands.simt_address(op.name, address, pointees, _NO_VECTORS)
    if op.gm_only and not isinstance(base, GmPtr):
        raise AddressSpaceError(
            f"{base!r} is not in Global Memory; this hint is documented for GM accesses"
        )
    return target


def _load(op: Any, address: Any) -> Any:
    return access.load(_address(op, address))


def _store(op: Any, address: Any, val: Any) -> None:
    access.store(_address(op, address), val)


_CACHES = {
    "asc_ldcg": "cached in L2 only",
    "asc_ldca": "cached in the Data Cache and L2; the default load",
    "asc_stcg": "cached in L2, not in the Data Cache",
    "asc_stwt": "written through, cached in the Data Cache and L2",
}
"""Where each hint keeps the line (its docstring says so; the value is a plain access's)."""


def _load_doc(name: str, gm_only: bool) -> str:
    """Return the docstring of the load *name*."""
    caches = _CACHES[name]
    return f"""``T {name}(T* address)``: load ``*address`` ({caches}).

    Returns what a plain load returns: one value per thread for ``p + idx``.
    {"Global Memory only." if gm_only else "GM or UB (a plain access is an asc_ldca)."}

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(int32_t, 4); p.write([10, 20, 30, 40])
    >>> run_simt_kernel(lambda p: p.__setitem__(threadIdx.x, {name}(p + (3 - threadIdx.x))), dim3(1), dim3(4), 0, (p,))
    >>> p.read(4)
    array([40, 30, 20, 10], dtype=int32)
    """


def _store_doc(name: str) -> str:
    """Return the docstring of the store *name*."""
    caches = _CACHES[name]
    return f"""``void {name}(T* address, T val)``: store ``*address = val`` ({caches}).

    The value rules are a plain store's (no silent integer wrap). Global Memory only.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint16_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> p = GlobalMemory().alloc(uint16_t, 4)
    >>> run_simt_kernel(lambda p: {name}(p + threadIdx.x, threadIdx.x * 3), dim3(1), dim3(4), 0, (p,))
    >>> p.read(4)
    array([0, 3, 6, 9], dtype=uint16)
    """


asc_ldcg = define("asc_ldcg", doc=_load_doc("asc_ldcg", True), gm_only=True)(_load)
asc_ldca = define("asc_ldca", doc=_load_doc("asc_ldca", False), gm_only=False)(_load)
asc_stcg = define("asc_stcg", doc=_store_doc("asc_stcg"), gm_only=True)(_store)
asc_stwt = define("asc_stwt", doc=_store_doc("asc_stwt"), gm_only=True)(_store)

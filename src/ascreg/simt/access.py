"""Cache-hinted loads and stores: ``asc_ldcg``, ``asc_ldca``, ``asc_stcg``, ``asc_stwt``.

The hints choose which caches (Data Cache, L2) keep the line; the value loaded or stored is that
of a plain ``*address`` / ``*address = val`` (c_api_simt.md §6.6), so each of them is one table row
over a plain access. The address is a pointer (every thread uses the same element) or
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

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._spec import SPECS
from ascreg.errors import AddressSpaceError, AscregTypeError
from ascreg.machine.memory import GmPtr, Pointer
from ascreg.machine.simt.engine import LanePointer, wrap_pointer

LEGAL: tuple[np.dtype[Any], ...] = tuple(combo[0].np_dtype for combo in SPECS["asc_ldcg"].combos)
"""Element types of the cache-hinted accesses (the ``address`` column of the ``asc_ldcg`` row)."""


def _address(call: str, address: Any, gm_only: bool) -> Pointer[Any] | LanePointer:
    if isinstance(address, LanePointer):
        base: Pointer[Any] = address.base
        target: Pointer[Any] | LanePointer = address
    elif isinstance(address, Pointer):
        base = target = wrap_pointer(address)
    else:
        raise AscregTypeError(
            f"the address must be a __gm__ or __ubuf__ pointer, got {address!r:.60}", call=call
        )
    dtype = base.dtype.np_dtype
    if dtype not in LEGAL:
        raise AscregTypeError(
            f"{base.dtype.cpp_name} is not supported (legal: "
            f"{', '.join(d.name for d in LEGAL)}; vector types such as half2 do not exist)",
            call=call,
        )
    if gm_only and not isinstance(base, GmPtr):
        raise AddressSpaceError(
            f"{base!r} is not in Global Memory; this hint is documented for GM accesses", call=call
        )
    return target


def _load(name: str, gm_only: bool, caches: str) -> Callable[[Any], Any]:
    def load(address: Any) -> Any:
        _ascreg_call = name
        return _address(_ascreg_call, address, gm_only)[0]

    load.__name__ = load.__qualname__ = name
    load.__doc__ = f"""``T {name}(T* address)``: load ``*address`` ({caches}).

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
    return load


def _store(name: str, caches: str) -> Callable[[Any, Any], None]:
    def store(address: Any, val: Any) -> None:
        _ascreg_call = name
        _address(_ascreg_call, address, True)[0] = val

    store.__name__ = store.__qualname__ = name
    store.__doc__ = f"""``void {name}(T* address, T val)``: store ``*address = val`` ({caches}).

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
    return store


asc_ldcg = _load("asc_ldcg", True, "cached in L2 only")
asc_ldca = _load("asc_ldca", False, "cached in the Data Cache and L2; the default load")
asc_stcg = _store("asc_stcg", "cached in L2, not in the Data Cache")
asc_stwt = _store("asc_stwt", "written through, cached in the Data Cache and L2")

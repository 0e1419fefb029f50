"""Address spaces: ``__isGlobal`` ..., ``__cvta_*``, ``asc_dcci_entire`` / ``_single``, ``asc_nop``.

A generic pointer (C's ``void*``) is one of:

* an ascreg pointer (``GlobalMemory().alloc(...)``, a ``__ubuf__`` array, ``p + idx`` with a
  per-thread ``idx``): it knows its memory, so ``__isGlobal`` of a ``__gm__`` pointer is 1 and
  ``__isUbuf`` of a ``__ubuf__`` pointer is 1 whatever its address, and its address value
  (``__cvta_generic_to_global`` / ``_ubuf``) is its ascreg address;
* a :class:`GenericPointer`, what ``__cvta_*_to_generic`` returns: a 64-bit generic address
  (one per thread when the raw value was), classified and converted by the windows of
  :mod:`ascreg.core.address` (which meet every special case the pages list);
* ``None`` (``nullptr``, generic address 0).

What C rejects at compile time (``__cvta_generic_to_global`` or ``_local`` of a ``__ubuf__``
pointer, ``_ubuf`` of a stack pointer) and what the pages call undefined (``_ubuf`` or
``_local`` of a ``__gm__`` pointer) is an :class:`~ascreg.errors.AscregTypeError`. ascreg has
no stack memory, so only a :class:`GenericPointer` can be in the local window.

``asc_dcci_entire(dst)`` and ``asc_dcci_single(dst)`` flush the Data Cache: ascreg models none
(every load reads memory), so they only check that *dst* is a Global Memory address (the pages
require one). ``asc_nop()`` does nothing (15 cycles on the chip; ascreg has no clock).

Examples
--------
>>> from ascreg import GlobalMemory, UnifiedBuffer, uint32_t
>>> gm, ub = GlobalMemory().alloc(uint32_t, 4), UnifiedBuffer().alloc(uint32_t, 4)
>>> int(__isGlobal(gm)), int(__isUbuf(gm)), int(__isUbuf(ub)), int(__isGlobal(None))
(1, 0, 1, 0)
>>> p = __cvta_ubuf_to_generic(0x40); p, int(__isUbuf(p)), hex(int(__cvta_generic_to_ubuf(p)))
(GenericPointer(0x80040), 1, '0x40')
>>> hex(int(__cvta_generic_to_ubuf(None)))
'0xfff80000'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec.simt import ADDRESS_FUNCTIONS, ADDRESS_SPACES
from ascreg.core import address
from ascreg.errors import AscregTypeError
from ascreg.machine.memory import Pointer
from ascreg.machine.simt.engine import LanePointer
from ascreg.machine.simt.lanes import Lanes

Arr = np.ndarray[Any, Any]
_SPACE_OF = {"__gm__": "global", "__ubuf__": "ubuf"}
"""The generic-space name of an ascreg memory's qualifier."""


class GenericPointer:
    """A generic pointer (``void*``) made from a raw address: ``__cvta_*_to_generic``'s result.

    ``value`` is the 64-bit generic address (``Lanes`` when each thread has its own). It cannot
    be dereferenced (ascreg does not know which memory object it would name); the predicates
    classify it and the ``__cvta_generic_to_*`` conversions turn it back into an address value.

    Examples
    --------
    >>> GenericPointer(0x200010).value
    np.uint64(2097168)
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = _unsigned64(value)

    def __repr__(self) -> str:
        if np.ndim(self.value) == 0:
            return f"GenericPointer({int(self.value):#x})"
        return f"GenericPointer(lanes {[hex(v) for v in np.asarray(self.value).tolist()]})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GenericPointer):
            return NotImplemented
        return bool(np.all(np.asarray(self.value) == np.asarray(other.value)))

    def __hash__(self) -> int:
        return hash(np.asarray(self.value).tobytes())


def _unsigned64(value: Any) -> Any:
    """*value* as ``uint64``: a numpy scalar, or ``Lanes`` for per-thread values."""
    array = np.asarray(value).astype(np.uint64)
    return array.view(Lanes) if array.ndim else array[()]


def _space_and_addresses(op: Any, ptr: Any) -> tuple[str | None, Any]:
    """Return (the space an ascreg pointer is in — None for a generic value —, its addresses)."""
    if ptr is None:
        return None, np.uint64(0)
    if isinstance(ptr, GenericPointer):
        return None, ptr.value
    if isinstance(ptr, LanePointer):
        step = np.int64(ptr.base.dtype.size)
        lanes = np.int64(ptr.base.address) + np.asarray(ptr.offsets).astype(np.int64) * step
        return _SPACE_OF[ptr.base.space], _unsigned64(lanes)
    if isinstance(ptr, Pointer):
        return _SPACE_OF[ptr.space], np.uint64(ptr.address)
    raise AscregTypeError(
        f"{op.spec.roles[0]} is {type(ptr).__name__} {ptr!r:.40}; the C parameter is a pointer "
        "(an ascreg pointer, p + idx, a GenericPointer, or None for nullptr)",
        call=op.name,
    )


def _result(value: Any) -> Any:
    """Return a lane result as ``Lanes`` (per-thread input) or a numpy scalar."""
    array = np.asarray(value)
    return array.view(Lanes) if array.ndim else array[()]


_RULES = {("global", "ubuf"): "C rejects it at compile time", ("local", "ubuf"): "C rejects it "
          "at compile time", ("ubuf", "global"): "the pages call it undefined",
          ("local", "global"): "the pages call it undefined"}  # fmt: skip
"""(target space, the pointer's space) of the conversions that are not defined, and why."""


def _address(op: Any, ptr: Any) -> Any:
    """``__is<Space>(ptr)`` and ``__cvta_generic_to_<space>(ptr)`` of the row of *op*."""
    _role, function, space = ADDRESS_FUNCTIONS[op.name]
    known, addresses = _space_and_addresses(op, ptr)
    if known is None:
        return _result(op.formula(space, addresses))
    if function == "classify":
        return _result(np.full(np.shape(addresses), int(known == space), np.uint32))
    if known != space:
        raise AscregTypeError(
            f"ptr is a {ptr.base.space if isinstance(ptr, LanePointer) else ptr.space} pointer; "
            f"converting it to a {space} address: {_RULES[space, known]}",
            call=op.name,
        )
    return _result(addresses)


def _to_generic(op: Any, rawbits: Any) -> GenericPointer:
    """``__cvta_<space>_to_generic(rawbits)``: the generic pointer of a raw address value."""
    _role, _function, space = ADDRESS_FUNCTIONS[op.name]
    raw = operands.c_integer(op.name, "rawbits", rawbits)
    sig = operands.c_overload(
        op.name, ("rawbits",), [raw], (operands.Signature(*op.spec.combos[0]),)
    )
    return GenericPointer(op.formula(space, operands.c_convert(raw, sig.dtypes[0])))


def _flush(op: Any, dst: Any) -> None:
    """``asc_dcci_*(dst)``: check *dst* is a Global Memory address; ascreg has no cache."""
    known, addresses = _space_and_addresses(op, dst)
    in_global = known == "global" if known else bool(np.all(address.classify("global", addresses)))
    if not in_global:
        raise AscregTypeError(
            f"dst is {dst!r:.60}, not a Global Memory address (the pages require one)",
            call=op.name,
        )
    op.formula(addresses)


def _doc(name: str) -> str:
    """Return the docstring of an address function: prototype, rule, example."""
    role, function, space = ADDRESS_FUNCTIONS[name]
    what = {
        "classify": (f"unsigned int {name}(const void* ptr)", f"1 if *ptr* is a {space} address, else 0"),
        "from_generic": (f"size_t {name}(const void* ptr)", f"the {space} address value of *ptr*"),
        "to_generic": (f"void* {name}(size_t rawbits)", f"the generic pointer of the {space} address *rawbits*"),
    }[function]  # fmt: skip
    raw = "0x400000" if space == "global" else "0x20"  # a global address above the windows
    example = {
        "classify": f">>> int({name}(__cvta_{space}_to_generic({raw})))\n1",
        "from_generic": f">>> hex(int({name}(__cvta_{space}_to_generic({raw}))))\n'{raw}'",
        "to_generic": f">>> int(__is{ADDRESS_SPACES[space]}({name}({raw})))\n1",
    }[function]
    return (
        f"``{what[0]}``: {what[1]}.\n\nSee :mod:`ascreg.simt.address` for the generic address "
        f"model and what each kind of {role} gives.\n\nExamples\n--------\n"
        f">>> from ascreg.simt import *\n{example}\n"
    )


def _define(name: str) -> Any:
    function = ADDRESS_FUNCTIONS[name][1]
    impl = _to_generic if function == "to_generic" else _address
    formula = staticmethod(getattr(address, function))
    return define(name, doc=_doc(name), formula=formula)(impl)


__isGlobal = _define("__isGlobal")
__isUbuf = _define("__isUbuf")
__isLocal = _define("__isLocal")
__cvta_generic_to_global = _define("__cvta_generic_to_global")
__cvta_generic_to_ubuf = _define("__cvta_generic_to_ubuf")
__cvta_generic_to_local = _define("__cvta_generic_to_local")
__cvta_global_to_generic = _define("__cvta_global_to_generic")
__cvta_ubuf_to_generic = _define("__cvta_ubuf_to_generic")
__cvta_local_to_generic = _define("__cvta_local_to_generic")

_FLUSH_DOC = """``void {name}(void* dst)``: flush {what} of the Data Cache (Global Memory *dst*).

ascreg models no Data Cache (every load reads memory), so this only checks that *dst* is a
Global Memory address: a ``__gm__`` pointer, ``p + idx``, or a generic pointer in the global
window. Anything else is an :class:`~ascreg.errors.AscregTypeError`.

Examples
--------
>>> from ascreg import GlobalMemory, uint32_t
>>> {name}(GlobalMemory().alloc(uint32_t, 4)) is None
True
"""

asc_dcci_entire = define(
    "asc_dcci_entire",
    doc=_FLUSH_DOC.format(name="asc_dcci_entire", what="the whole cache"),
    formula=staticmethod(address.flush_cache),
)(_flush)
asc_dcci_single = define(
    "asc_dcci_single",
    doc=_FLUSH_DOC.format(name="asc_dcci_single", what="the cache line holding *dst*"),
    formula=staticmethod(address.flush_cache),
)(_flush)


@define("asc_nop", formula=staticmethod(address.idle))
def asc_nop(op: Any) -> None:
    """``void asc_nop()``: one no-operation instruction (15 cycles on the chip).

    ascreg has no clock: it does nothing.

    Examples
    --------
    >>> asc_nop() is None
    True
    """
    op.formula()

"""The basic API's scalar atomics on one GM element: ``AtomicAdd`` ... ``AtomicCas`` (原子操作).

``AtomicAdd<T>(__gm__ T* address, T value)`` and the others read the element, store the update
and return the old value, as one indivisible step of the scalar unit (``PIPE_S``); the updates
are :mod:`ascreg.core.atomics`' (those of the C API's ``asc_atomic_*``). The compiler inserts
no synchronisation between a scalar atomic and the copy engines (the pages' constraint), so an
unsynchronised MTE2/MTE3 access of the same bytes is a hazard; the write is exempt from the
cross-block race check (combining blocks' results is what atomics are for).

Examples
--------
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.machine.block import BlockContext, block
>>> counter = GlobalMemory().alloc(uint32_t, 1); counter.write([5])
>>> with block(BlockContext()):
...     AtomicAdd(counter, 2), AtomicExch[uint32_t](counter, 9), AtomicCas(counter, 9, 1)
(5, 7, 9)
>>> counter.read(1).tolist()
[1]
"""

from __future__ import annotations

from typing import Any

from ascreg._dtypes import Scalar, float32_t, int32_t, int64_t, uint32_t, uint64_t
from ascreg._frontend import operands
from ascreg.basic._template import TYPENAME, Signature, function_template
from ascreg.core import atomics
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.memory import GmPtr
from ascreg.machine.races import atomic_access
from ascreg.machine.sync import Pipe

__all__ = ["AtomicAdd", "AtomicCas", "AtomicExch", "AtomicMax", "AtomicMin"]

_WIDE = (int32_t, uint32_t, float32_t, int64_t, uint64_t)
_UNSIGNED = (uint32_t, uint64_t)
TYPES: dict[str, tuple[str, tuple[type[Scalar], ...]]] = {
    "AtomicAdd": ("add", _WIDE),
    "AtomicMax": ("max", _WIDE),
    "AtomicMin": ("min", _WIDE),
    "AtomicExch": ("exch", _UNSIGNED),
    "AtomicCas": ("cas", _UNSIGNED),
}
"""Each function's update (``ascreg.core.atomics.UPDATES``) and element types (its page)."""


def _update(name: str, address: Any, values: tuple[Any, ...], T: Any) -> Any:
    update, legal = TYPES[name]
    gm = operands.instance(address, GmPtr, "address")
    if T is not None and T is not gm.dtype:
        raise AscregTypeError(f"address is {gm.dtype.cpp_name}* but T is {T.cpp_name}")
    if gm.dtype not in legal:
        raise AscregTypeError(
            f"T = {gm.dtype.cpp_name} is not one of {', '.join(t.cpp_name for t in legal)}"
        )
    converted = [operands.scalar(v, gm.dtype, f"value{i + 1}") for i, v in enumerate(values)]
    gm.view(1)  # bounds first: an address outside its allocation names the call
    start = gm.address
    ctx = current_block()
    ctx.tracker.access(Pipe.PIPE_S, start, start + gm.dtype.size, write=True, space=id(gm.memory))
    with atomic_access():
        old = atomics.read_modify_write(update, gm, 1, converted)
    return old[0].item()


def _binary(name: str, formula: str, example: str) -> Any:
    def atomic(address: Any, value: Any, *, T: Any = None) -> Any:
        _ascreg_call = name
        return _update(name, address, (value,), T)

    legal = ", ".join(t.cpp_name for t in TYPES[name][1])
    atomic.__name__ = atomic.__qualname__ = name
    atomic.__doc__ = f"""``AscendC::{name}<T>(__gm__ T* address, T value)``: store ``{formula}``.

    Returns the old value; one indivisible step of the scalar unit (see
    :mod:`ascreg.basic._atomic`). T: {legal}.

    Examples
    --------
    >>> from ascreg import GlobalMemory, {TYPES[name][1][0].__name__}
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc({TYPES[name][1][0].__name__}, 1); x.write([6])
    >>> with block(BlockContext()):
    ...     {name}(x, 4)
    6
    >>> x.read(1).tolist()
    [{example}]
    """
    return function_template(Signature(T=TYPENAME), name=name)(atomic)


AtomicAdd = _binary("AtomicAdd", "old + value", "10")
AtomicMax = _binary("AtomicMax", "max(old, value)", "6")
AtomicMin = _binary("AtomicMin", "min(old, value)", "4")
AtomicExch = _binary("AtomicExch", "value", "4")


@function_template(Signature(T=TYPENAME), name="AtomicCas")
def AtomicCas(address: Any, value1: Any, value2: Any, *, T: Any = None) -> Any:
    """``AscendC::AtomicCas<T>(__gm__ T* address, T value1, T value2)``: compare and swap.

    Stores ``value2`` if the old value equals ``value1`` (else keeps it); returns the old
    value. T: uint32_t, uint64_t.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(uint64_t, 1); x.write([6])
    >>> with block(BlockContext()):
    ...     AtomicCas(x, 5, 1), AtomicCas(x, 6, 1)
    (6, 6)
    >>> x.read(1).tolist()
    [1]
    """
    _ascreg_call = "AtomicCas"
    return _update("AtomicCas", address, (value1, value2), T)

"""Operand checks shared by every front end: registers, masks, scalars, integers and addresses.

A front-end op is *check the operands against the row, then one core call*; this module is the
checking half for the Reg API, the C API and the SIMT functions alike. The wording of an error
follows the surface the user wrote (``RegTensor`` / ``MaskReg`` for Reg, ``vector_*`` /
``vector_bool`` for the C API), so a message always uses the names of the call it came from.

Examples
--------
>>> from ascreg import Reg, uint16_t
>>> register(Reg.RegTensor[uint16_t](), "dst", REG).lanes
128
>>> register(3, "src", C_API)
Traceback (most recent call last):
...
ascreg.errors.AscregTypeError: src must be a vector register (vector_uint16_t, ...), got int 3
>>> integer(True, "count")
Traceback (most recent call last):
...
ascreg.errors.AscregTypeError: count must be an integer, got True
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs
import numpy as np

from ascreg._dtypes import Scalar
from ascreg.errors import AddressSpaceError, AscregTypeError, RefRequiredError
from ascreg.machine.memory import Pointer, to_dtype
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumOne

Lanes = np.ndarray[Any, Any]
T = TypeVar("T")


@attrs.frozen
class Surface:
    """How one front end names its operands in messages, and what it accepts.

    Attributes
    ----------
    register
        The noun for a vector register operand.
    mask
        The noun for a mask register operand.
    one_register_only
        True when only one-register (``RegTraitNumOne``) vectors are operands (the C API).
    same_dtype_only
        True when operands must agree on the element type only (the C API, whose register
        classes are subclasses of the Reg ones); False when they must have the same type,
        trait included (Reg, where C++ deduces one ``U`` for all of them).
    """

    register: str
    mask: str
    one_register_only: bool
    same_dtype_only: bool


REG = Surface("RegTensor", "MaskReg", one_register_only=False, same_dtype_only=False)
"""The ``AscendC::Reg`` surface."""
C_API = Surface(
    "vector register (vector_uint16_t, ...)", "vector_bool", one_register_only=True,
    same_dtype_only=True,
)  # fmt: skip
"""The C API surface."""


def register(obj: Any, role: str, surface: Surface) -> RegTensor[Any, Any]:
    """Return *obj* if it is a vector register operand of *surface*, else raise.

    Examples
    --------
    >>> from ascreg import Reg, RegTraitNumTwo, int64_t
    >>> register(Reg.RegTensor[int64_t, RegTraitNumTwo](), "src", C_API)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: src must be a vector register (vector_uint16_t, ...), got RegTensor[int64_t, RegTraitNumTwo] RegTensor[int64_t, RegTraitNumTwo] <never written>
    """
    if isinstance(obj, RegTensor) and not (
        surface.one_register_only and obj.trait is not RegTraitNumOne
    ):
        return obj
    raise AscregTypeError(
        f"{role} must be a {surface.register}, got {type(obj).__name__} {obj!r:.60}"
    )


def mask(obj: Any, role: str, surface: Surface) -> MaskReg:
    """Return *obj* if it is a mask register, else raise.

    Examples
    --------
    >>> mask(None, "mask", REG)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: mask must be a MaskReg, got NoneType None
    """
    if isinstance(obj, MaskReg):
        return obj
    detail = "" if surface is C_API else f" {obj!r:.60}"
    raise AscregTypeError(f"{role} must be a {surface.mask}, got {type(obj).__name__}{detail}")


def same_type(surface: Surface, first: RegTensor[Any, Any], *others: RegTensor[Any, Any]) -> None:
    """Raise unless every register agrees with *first* as *surface* requires.

    Examples
    --------
    >>> from ascreg import Reg, half, float32_t
    >>> same_type(REG, Reg.RegTensor[half](), Reg.RegTensor[float32_t]())
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: registers of different types: RegTensor[half] and RegTensor[float] (C++ deduces one U for all of them)
    """
    for other in others:
        if surface.same_dtype_only:
            if other.dtype is not first.dtype:
                raise AscregTypeError(
                    f"registers of different types: {type(first).__name__} and "
                    f"{type(other).__name__}"
                )
        elif type(other) is not type(first):
            raise AscregTypeError(
                f"registers of different types: {type(first).__name__} and "
                f"{type(other).__name__} (C++ deduces one U for all of them)"
            )


def lane_enables(mask_reg: MaskReg, reg: RegTensor[Any, Any]) -> Lanes:
    """Return the lane enables of *mask_reg* for an op on *reg* (bit ``i * mask_stride``).

    Examples
    --------
    >>> from ascreg import Reg, MaskPattern, uint32_t
    >>> m = Reg.CreateMask[uint32_t, MaskPattern.VL2]()
    >>> lane_enables(m, Reg.RegTensor[uint32_t]())[:3].tolist()
    [True, True, False]
    """
    stride = reg.mask_stride
    enables: Lanes = mask_reg.bits()[0 : reg.lanes * stride : stride]
    return enables


def integer(value: Any, role: str) -> int:
    """Return *value* as an int if it is a Python or numpy integer (``bool`` is not), else raise.

    Examples
    --------
    >>> import numpy as np
    >>> integer(np.int16(-3), "stride")
    -3
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise AscregTypeError(f"{role} must be an integer, got {value!r:.40}")
    return int(value)


def is_integer(value: Any) -> bool:
    """Return True for a Python or numpy integer that is not a ``bool``.

    Examples
    --------
    >>> is_integer(3), is_integer(True), is_integer(3.0)
    (True, False, False)
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def scalar(value: Any, dtype: type[Scalar], role: str = "scalar") -> Any:
    """Convert a scalar operand to *dtype*; a register given as a scalar is an error.

    Examples
    --------
    >>> from ascreg import Reg, int8_t
    >>> scalar(-3, int8_t)
    array(-3, dtype=int8)
    >>> scalar(Reg.RegTensor[int8_t](), int8_t)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: scalar must be a scalar, got RegTensor[int8_t]
    """
    if isinstance(value, RegTensor | MaskReg):
        raise AscregTypeError(f"{role} must be a scalar, got {type(value).__name__}")
    return to_dtype(value, dtype)


def ub_pointer(obj: Any, role: str) -> Pointer[Any]:
    """Return *obj* if it is a ``__ubuf__`` pointer, else raise.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> ub_pointer(GlobalMemory().alloc(uint8_t, 32), "dst")
    Traceback (most recent call last):
    ...
    ascreg.errors.AddressSpaceError: dst is <__gm__ uint8_t* ...>: vector loads and stores address __ubuf__ only
    """
    if not isinstance(obj, Pointer):
        raise AscregTypeError(
            f"{role} must be a __ubuf__ pointer, got {type(obj).__name__} {obj!r:.60}"
        )
    if obj.space != "__ubuf__":
        raise AddressSpaceError(f"{role} is {obj!r}: vector loads and stores address __ubuf__ only")
    return obj


def address(obj: Any, post: bool, role: str) -> tuple[Pointer[Any], Ref[Any] | None]:
    """Return the UB pointer of an address operand and its ``Ref`` for a post-update form.

    A post-update form updates the address (``T*& addr``), so it needs a :class:`Ref`; the
    other forms need the plain pointer.

    Examples
    --------
    >>> from ascreg import Ref, UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 256)
    >>> address(Ref(p), True, "src")[1] is not None
    True
    """
    if post:
        if not isinstance(obj, Ref):
            raise RefRequiredError(
                f"the _postupdate form updates the address ('T*& {role}'): pass "
                f"ascreg.Ref({obj!r:.40}), not the plain pointer"
            )
        return ub_pointer(obj.value, role), obj
    if isinstance(obj, Ref):
        raise AscregTypeError(f"a Ref address needs the _postupdate form (got Ref as {role})")
    return ub_pointer(obj, role), None


def matching_pointer(ptr: Pointer[Any], reg: RegTensor[Any, Any], surface: Surface) -> Pointer[Any]:
    """Return *ptr* if it points at elements of *reg*'s type, else raise.

    Examples
    --------
    >>> from ascreg import Reg, UnifiedBuffer, half, uint16_t
    >>> matching_pointer(UnifiedBuffer().alloc(half, 128), Reg.RegTensor[uint16_t](), C_API)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: the pointer is __ubuf__ half* but the register is RegTensor[uint16_t] (C has no implicit conversion between them)
    """
    if ptr.dtype is not reg.dtype:
        rule = (
            "C has no implicit conversion between them"
            if surface is C_API
            else "C++ deduces one T for both"
        )
        raise AscregTypeError(
            f"the pointer is {ptr.space} {ptr.dtype.cpp_name}* but the register is "
            f"{type(reg).__name__} ({rule})"
        )
    return ptr


def instance(obj: Any, cls: type[T], role: str) -> T:
    """Return *obj* if it is a *cls* (an operand of one fixed class), else raise.

    Examples
    --------
    >>> from ascreg.machine.registers import UnalignRegForStore
    >>> instance(3, UnalignRegForStore, "src0")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: src0 must be a UnalignRegForStore, got int 3
    """
    if not isinstance(obj, cls):
        raise AscregTypeError(
            f"{role} must be a {cls.__name__}, got {type(obj).__name__} {obj!r:.60}"
        )
    return obj


def lane_count(value: Any, reg: RegTensor[Any, Any], role: str) -> int:
    """Return *value* as a number of *reg*'s lanes: an integer in ``[0, reg.lanes]``.

    Examples
    --------
    >>> from ascreg import Reg, uint32_t
    >>> lane_count(65, Reg.RegTensor[uint32_t](), "count")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: count 65 is outside [0, 64] (the register's lanes)
    """
    count = integer(value, role)
    if not 0 <= count <= reg.lanes:
        raise AscregTypeError(f"{role} {count} is outside [0, {reg.lanes}] (the register's lanes)")
    return count

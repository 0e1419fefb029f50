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
from ascreg.core.datamove import check_in_ub
from ascreg.errors import AscregTypeError, RefRequiredError
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
    accesses
        The noun for the surface's UB loads and stores.
    post_form
        How the surface asks for the post-update form that moves an address (``T*&``).
    pointer_rule
        Why a pointer's element type must be the register's.
    """

    register: str
    mask: str
    one_register_only: bool
    same_dtype_only: bool
    accesses: str
    post_form: str
    pointer_rule: str


REG = Surface(
    "RegTensor", "MaskReg", one_register_only=False, same_dtype_only=False,
    accesses="Reg loads and stores", post_form="PostLiteral.POST_MODE_UPDATE",
    pointer_rule="C++ deduces one T for both",
)  # fmt: skip
"""The ``AscendC::Reg`` surface."""
C_API = Surface(
    "vector register (vector_uint16_t, ...)", "vector_bool", one_register_only=True,
    same_dtype_only=True, accesses="vector loads and stores", post_form="the _postupdate form",
    pointer_rule="C has no implicit conversion between them",
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


def instance(obj: Any, kind: type[T], role: str) -> T:
    """Return *obj* if it is a *kind* (an operand class with no dtype, e.g. an unaligned register).

    Examples
    --------
    >>> from ascreg.machine.registers import UnalignRegForLoad
    >>> instance(3, UnalignRegForLoad, "ureg")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: ureg must be an UnalignRegForLoad, got int 3
    """
    if isinstance(obj, kind):
        return obj
    article = "an" if kind.__name__[0] in "AEIOU" else "a"
    raise AscregTypeError(
        f"{role} must be {article} {kind.__name__}, got {type(obj).__name__} {obj!r:.60}"
    )


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


def in_range(value: Any, role: str, low: int, high: int, rule: str) -> int:
    """Return *value* as an int if it is an integer in ``[low, high]``, else raise naming *rule*.

    Examples
    --------
    >>> in_range(129, "count", 0, 128, "the register's lanes")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: count 129 is outside [0, 128] (the register's lanes)
    """
    number = integer(value, role)
    if not low <= number <= high:
        raise AscregTypeError(f"{role} {number} is outside [{low}, {high}] ({rule})")
    return number


UINT32_MAX = (1 << 32) - 1
"""The largest ``uint32_t`` (counts and strides)."""


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


def ub_pointer(obj: Any, role: str, surface: Surface = C_API) -> Pointer[Any]:
    """Return *obj* if it is a pointer into a Unified Buffer, else raise.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> ub_pointer(GlobalMemory().alloc(uint8_t, 32), "dst", REG)
    Traceback (most recent call last):
    ...
    ascreg.errors.AddressSpaceError: dst is <__gm__ uint8_t* ...>: Reg loads and stores address __ubuf__ only
    """
    if not isinstance(obj, Pointer):
        raise AscregTypeError(
            f"{role} must be a __ubuf__ pointer, got {type(obj).__name__} {obj!r:.60}"
        )
    check_in_ub(obj, role, surface.accesses)
    return obj


def address(
    obj: Any, post: bool, role: str, surface: Surface = C_API
) -> tuple[Pointer[Any], Ref[Any] | None]:
    """Return the UB pointer of an address operand and its ``Ref`` for a post-update form.

    A post-update form updates the address (``T*& addr``), so it needs a :class:`Ref`; the
    other forms need the plain pointer.

    Examples
    --------
    >>> from ascreg import Ref, UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 256)
    >>> address(Ref(p), True, "src")[1] is not None
    True
    >>> address(p, True, "src", REG)
    Traceback (most recent call last):
    ...
    ascreg.errors.RefRequiredError: PostLiteral.POST_MODE_UPDATE updates the address ('T*& src'): pass ascreg.Ref(<__ubuf__ uint8_t* ...), not the plain pointer
    """
    if post:
        if not isinstance(obj, Ref):
            raise RefRequiredError(
                f"{surface.post_form} updates the address ('T*& {role}'): pass "
                f"ascreg.Ref({obj!r:.40}), not the plain pointer"
            )
        return ub_pointer(obj.value, role, surface), obj
    if isinstance(obj, Ref):
        raise AscregTypeError(f"a Ref address needs {surface.post_form} (got Ref as {role})")
    return ub_pointer(obj, role, surface), None


def pointer_type(ptr: Pointer[Any], reg: RegTensor[Any, Any], surface: Surface) -> None:
    """Raise unless *ptr* points to elements of *reg*'s dtype.

    Examples
    --------
    >>> from ascreg import Reg, UnifiedBuffer, half, uint16_t
    >>> pointer_type(UnifiedBuffer().alloc(half, 128), Reg.RegTensor[uint16_t](), REG)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: the pointer is __ubuf__ half* but the register is RegTensor[uint16_t] (C++ deduces one T for both)
    """
    if ptr.dtype is not reg.dtype:
        raise AscregTypeError(
            f"the pointer is {ptr.space} {ptr.dtype.cpp_name}* but the register is "
            f"{type(reg).__name__} ({surface.pointer_rule})"
        )

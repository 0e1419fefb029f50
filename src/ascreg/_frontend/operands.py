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

import builtins
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import ml_dtypes
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.core import masks as mask_core
from ascreg.core.datamove import check_in_ub
from ascreg.core.fpenv import quiet
from ascreg.errors import AscregTypeError, RefRequiredError
from ascreg.machine.convert import to_dtype
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumOne, plain_class

if TYPE_CHECKING:
    from ascreg.machine.simt.engine import LanePointer

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
SIMT = Surface(
    "C value", "mask", one_register_only=True, same_dtype_only=True,
    accesses="SIMT loads and stores", post_form="a pointer update",
    pointer_rule="C has no implicit conversion between them",
)  # fmt: skip
"""The SIMT device functions (C scalars and per-thread lanes; no registers)."""


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
        elif type(other) is not type(first) and plain_class(other) is not plain_class(first):
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
    known = mask_reg.kept_enables(stride)  # the enables the mask was made from (set_bits)
    if known is not None and known.shape[-1] == reg.lanes:
        return known
    enables: Lanes = mask_core.enables_of(mask_reg.bits(), reg.lanes, stride)
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


def in_range(value: Any, role: str, low: int, high: int, rule: str = "") -> int:
    """Return *value* as an int if it is an integer in ``[low, high]``, else raise naming *rule*.

    Examples
    --------
    >>> in_range(129, "count", 0, 128, "the register's lanes")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: count 129 is outside [0, 128] (the register's lanes)
    """
    because = f" ({rule})" if rule else ""
    if not is_integer(value):
        raise AscregTypeError(
            f"{role} must be an integer in [{low}, {high}]{because}, got "
            f"{type(value).__name__} {value!r:.40}"
        )
    number = int(value)
    if not low <= number <= high:
        raise AscregTypeError(f"{role} {number} is outside [{low}, {high}]{because}")
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


def integer_in(value: Any, role: str, low: int, high: int, *, multiple: int = 1) -> int:
    """Return *value* as an int if it is an integer in ``[low, high]`` and a multiple of *multiple*.

    Examples
    --------
    >>> integer_in(8, "width", 2, 32, multiple=2)
    8
    >>> integer_in(3, "width", 2, 32, multiple=2)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: width 3 must be a multiple of 2 in [2, 32]
    """
    number = integer(value, role)
    if not low <= number <= high or number % multiple:
        step = f"a multiple of {multiple} " if multiple > 1 else ""
        raise AscregTypeError(f"{role} {number} must be {step}in [{low}, {high}]")
    return number


def non_negative(value: Any, role: str, ctype: str) -> Any:
    """Return *value* (an integer or an array of them) if no element is negative, else raise.

    *ctype* names the unsigned parameter type in the message.

    Examples
    --------
    >>> import numpy as np
    >>> non_negative(np.array([0, -1]), "delta", "uint32_t")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: delta array([ 0, -1]) must be >= 0 (uint32_t)
    """
    if np.any(np.asarray(value) < 0):
        raise AscregTypeError(f"{role} {value!r} must be >= 0 ({ctype})")
    return value


def scalar(
    value: Any, dtype: type[Scalar], role: str = "scalar", *, per_thread: bool = False
) -> Any:
    """Convert a scalar operand to *dtype* (:func:`~ascreg.machine.convert.to_dtype`), or raise.

    The one conversion of a scalar operand for every front end: a register, a sequence or an
    array is not a scalar (``per_thread=True`` admits arrays: the SIMT functions get one value
    per thread); ``None`` or a ``str`` is not a number; an integer outside the lane type is not
    wrapped; a float lane type rounds once, to nearest even.

    Examples
    --------
    >>> from ascreg import Reg, int8_t
    >>> scalar(-3, int8_t)
    array(-3, dtype=int8)
    >>> scalar(Reg.RegTensor[int8_t](), int8_t)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: scalar must be a scalar, got RegTensor[int8_t]
    >>> scalar([1, 2], int8_t, "value")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: value must be a scalar, got list of 2 values ([1, 2])
    """
    kind = type(value)
    if kind is int or kind is float or kind in _NUMPY_SCALARS:  # converted once per value and type
        key = (
            (dtype, kind, value, math.copysign(1.0, value) if kind is float else 0)  # -0.0 != 0.0
            if kind is int or kind is float
            else (dtype, kind, value.tobytes())  # a numpy scalar: its bits (NaN payloads too)
        )
        converted = _CONVERTED.get(key)
        if converted is None:
            converted = to_dtype(value, dtype)
            converted.flags.writeable = False  # shared by every call with this value
            if len(_CONVERTED) >= 4096:
                _CONVERTED.clear()
            _CONVERTED[key] = converted
        return converted
    if isinstance(value, RegTensor | MaskReg):
        raise AscregTypeError(f"{role} must be a scalar, got {type(value).__name__}")
    if not per_thread and np.ndim(value) != 0 and not isinstance(value, str | bytes):
        raise AscregTypeError(
            f"{role} must be a scalar, got {type(value).__name__} of {np.size(value)} values "
            f"({value!r:.40})"
        )
    return to_dtype(value, dtype)


_CONVERTED: dict[tuple[Any, ...], Any] = {}
_NUMPY_SCALARS = frozenset(
    {np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8}
    | {np.uint16, np.uint32, np.uint64, np.bool_}
)
"""The numpy scalar types :func:`scalar` converts once per value (``np.float32(1.0)`` in a loop)."""


def template_scalar(op: Any, value: Any, dtype: type[Scalar], role: str = "scalar") -> Any:
    """Convert a scalar operand of an op whose subscript may name its type (``Muls<T, U>``).

    C++ converts the argument to the template's ``U`` first, then ``U`` to the register's
    type ``T`` (one rounding each: ``Muls<half, float>(d, s, x)`` rounds ``x`` to float, then
    that float to half). Without ``U`` (or with ``U`` = ``T``) this is :func:`scalar`.

    Examples
    --------
    >>> from ascreg import Reg, half, float32_t
    >>> x = 1 + 2**-11 + 2**-30  # just above the half tie; float32 rounds it onto the tie
    >>> float(template_scalar(Reg.Muls[half, float32_t], x, half))
    1.0
    >>> float(template_scalar(Reg.Muls[half], x, half))
    1.0009765625
    """
    given = op.t.scalar
    if given is not None and given is not dtype:
        value = scalar(value, given, role)[()]
    return scalar(value, dtype, role)


"""Python numbers already converted by :func:`scalar` (a conversion depends on nothing else)."""


HOST_ARRAY_RULE = (
    "a kernel reaches device memory only: copy the host data to device memory "
    "(acl.rt.malloc + acl.rt.memcpy, acl.to_device(tensor), or GlobalMemory().alloc + write) and "
    "pass that __gm__ pointer"
)
"""Why a host numpy array is no device pointer (the end of the error that says so)."""


def device_pointer(obj: Any, role: str, space: str = "__gm__") -> Pointer[Any]:
    """Return *obj* if it is a device pointer, else raise naming it (a host array explained).

    Examples
    --------
    >>> import numpy as np
    >>> device_pointer(np.zeros(4), "src")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: src is a host numpy array (float64[4]), not a __gm__ pointer: a kernel reaches device memory only: copy the host data to device memory (acl.rt.malloc + acl.rt.memcpy, acl.to_device(tensor), or GlobalMemory().alloc + write) and pass that __gm__ pointer
    """
    if isinstance(obj, Pointer):
        return obj
    if isinstance(obj, np.ndarray):
        raise AscregTypeError(
            f"{role} is a host numpy array ({obj.dtype}{list(obj.shape)}), not a {space} "
            f"pointer: {HOST_ARRAY_RULE}"
        )
    if hasattr(obj, "__dlpack__"):  # a torch, JAX or CuPy tensor
        raise AscregTypeError(
            f"{role} is a host {type(obj).__name__}, not a {space} pointer: {HOST_ARRAY_RULE}"
        )
    raise AscregTypeError(f"{role} must be a {space} pointer, got {type(obj).__name__} {obj!r:.60}")


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


def value_address(obj: Any, role: str, surface: Surface = C_API) -> Pointer[Any]:
    """Return the UB pointer of a by-value address parameter (``__ubuf__ T* src``).

    C++ binds a pointer variable there as well as a pointer expression, so the :class:`Ref`
    that holds the pointer of a stream (the variable the next post-update call advances) is
    accepted too: its current pointer is passed.

    Examples
    --------
    >>> from ascreg import Ref, UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64)
    >>> value_address(Ref(p + 3), "src") == value_address(p + 3, "src")
    True
    """
    return ub_pointer(obj.value if isinstance(obj, Ref) else obj, role, surface)


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


# ---- SIMT: C scalar parameters ------------------------------------------------------------

Arr = np.ndarray[Any, Any]

C_NAMES: dict[type[Scalar], str] = {
    int8_t: "char",
    uint8_t: "unsigned char",
    int16_t: "short",
    uint16_t: "unsigned short",
    int32_t: "int",
    uint32_t: "unsigned int",
    int64_t: "long long",
    uint64_t: "unsigned long long",
    half: "half",
    bfloat16_t: "bfloat16_t",
    float32_t: "float",
    bool_: "bool",
}
"""The C spelling of each parameter dtype in error messages (``long`` and ``long long`` are both
64-bit on the device: ``labs(long)`` is shown as ``long long``)."""


class Signature:
    """One C overload, from a combination of a table row: ``Signature(int32_t, int32_t)``.

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> Signature(uint32_t, uint32_t).text(("x", "y"))
    '(unsigned int x, unsigned int y)'
    """

    __slots__ = ("ctypes", "dtypes", "width")

    def __init__(self, *dtypes: type[Scalar]) -> None:
        self.ctypes = tuple(C_NAMES[d] for d in dtypes)
        self.dtypes = tuple(d.np_dtype for d in dtypes)
        self.width = builtins.max(d.itemsize for d in self.dtypes)

    def text(self, names: Sequence[str]) -> str:
        """Render the parameter list with *names*."""
        return "(" + ", ".join(f"{c} {n}" for c, n in zip(self.ctypes, names, strict=True)) + ")"


def _fits(value: int, dtype: np.dtype[Any]) -> bool:
    info = np.iinfo(dtype)
    return int(info.min) <= value <= int(info.max)


def c_integer(call: str, name: str, value: Any) -> int | Arr:
    """Return a Python int, or the argument as a numpy integer array (0-d for scalars).

    Examples
    --------
    >>> c_integer("__clz", "x", 2.5)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: __clz: argument 'x' is 2.5 (float); the C parameter is an integer ...
    """
    if isinstance(value, bool | int) and not isinstance(value, np.generic):
        return int(value)
    array = np.asarray(value) if isinstance(value, np.ndarray | np.generic) else None
    if array is None or array.dtype.kind not in "iub":
        kind = array.dtype if array is not None else type(value).__name__
        raise AscregTypeError(
            f"argument '{name}' is {value!r} ({kind}); the C parameter is an integer and ascreg "
            "does not convert floats or other objects implicitly — pass an int or an integer array",
            call=call,
        )
    return array


def c_overload(
    call: str, names: Sequence[str], args: list[int | Arr], overloads: Sequence[Signature]
) -> Signature:
    """Pick the C overload a SIMT call resolves to (the narrowest that holds every argument).

    Examples
    --------
    >>> from ascreg import int32_t, int64_t
    >>> sig = c_overload("__clz", ("x",), [2**40], (Signature(int32_t), Signature(int64_t)))
    >>> sig.ctypes
    ('long long',)
    """
    arrays = [a for a in args if not isinstance(a, int)]
    widest = builtins.max((a.dtype.itemsize for a in arrays), default=1)
    kinds = {a.dtype.kind for a in arrays if a.dtype.kind in "iu"}
    if len(kinds) > 1 and len({sig.dtypes[0].kind for sig in overloads}) > 1:
        raise AscregTypeError(
            f"mixing signed and unsigned arguments ({', '.join(str(a.dtype) for a in arrays)}) "
            "makes the C++ overload ambiguous; cast one side explicitly",
            call=call,
        )
    for sig in sorted(overloads, key=lambda s: s.width):
        if sig.width < widest:
            continue
        if (
            kinds
            and sig.dtypes[0].kind not in kinds
            and any(s.width == sig.width and s.dtypes[0].kind in kinds for s in overloads)
        ):
            continue  # an overload of the same width with the arrays' signedness exists
        ints_fit = all(
            _fits(a, d) for a, d in zip(args, sig.dtypes, strict=True) if isinstance(a, int)
        )
        if ints_fit and (sig.width >= 4 or len(arrays) == len(args)):  # a Python int is a C int
            return sig
    described = ", ".join(
        f"{n}={a}" if isinstance(a, int) else f"{n}: {a.dtype}"
        for n, a in zip(names, args, strict=True)
    )
    legal = "; ".join(sig.text(names) for sig in overloads)
    raise AscregTypeError(
        f"no overload takes ({described}): an argument is wider than the parameter or a Python "
        f"int is outside its range (ascreg never truncates silently); overloads: {legal}",
        call=call,
    )


def c_convert(arg: int | Arr, dtype: np.dtype[Any]) -> Arr:
    """Convert an argument to a C parameter type as C does (same width: reinterpret; wider: value).

    Examples
    --------
    >>> c_convert(np.asarray(np.int32(-1)), np.dtype(np.uint32))
    array(4294967295, dtype=uint32)
    """
    if isinstance(arg, int):
        return np.asarray(arg, dtype=dtype)
    if arg.dtype == dtype:
        return arg
    if arg.dtype.itemsize == dtype.itemsize and arg.dtype.kind != "b":
        return arg.view(dtype)  # C's same-width conversion: reinterpret modulo 2**N
    return arg.astype(dtype)  # widening (C integer promotion / conversion)


_F32 = np.dtype(np.float32)
_WIDENED = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
_FLOAT_MAX = float(np.finfo(np.float32).max)


def _int_to_float(value: int) -> Arr:
    """Round a Python int of any size once to nearest-even float32 (inf beyond the range).

    A value of 64 bits or fewer is the C conversion of ``long long`` / ``unsigned long long``;
    a wider one keeps its top 64 bits plus a sticky bit (round to odd), which rounds to float32
    exactly as the whole value would.
    """
    magnitude, shift = abs(value), max(abs(value).bit_length() - 64, 0)
    top = magnitude >> shift
    if shift and magnitude & ((1 << shift) - 1):
        top |= 1
    from ascreg.core import conversions  # (the SIMT math library: loaded when SIMT code runs)

    rounded = conversions.integer_to_float(np.asarray(top, np.uint64), "rn")
    with quiet():
        scaled = np.ldexp(rounded.astype(np.float64), shift).astype(_F32)
    return np.asarray(-scaled if value < 0 else scaled)


def c_float(call: str, name: str, value: Any) -> Arr:
    """Convert one argument to a float32 array (0-d for scalars) or raise naming the rule.

    C converts an argument to a ``float`` parameter: a Python float (a ``double``) rounds to
    nearest; an integer (a Python int, a numpy integer or bool value or array) rounds once to
    nearest-even (``16777217`` gives ``16777216.0``); ``half`` and ``bfloat16`` widen exactly.
    A finite value beyond the float range is an error (undefined in C), never a silent inf.

    Examples
    --------
    >>> c_float("__saturatef", "x", 0.5)
    array(0.5, dtype=float32)
    >>> c_float("sinf", "x", np.array([2**24 + 1, 2**62 + 2**38 + 1], np.int64)).tolist()
    [16777216.0, 4.611686568183202e+18]
    """
    if isinstance(value, bool | int) and not isinstance(value, np.generic):
        return _within_float(call, name, value, _int_to_float(int(value)))
    if isinstance(value, float) and not isinstance(value, np.generic):
        with quiet():
            converted = np.asarray(value, dtype=np.float64).astype(_F32)
        return _within_float(call, name, value, converted) if math.isfinite(value) else converted
    array = np.asarray(value) if isinstance(value, np.ndarray | np.generic) else None
    if array is not None and array.dtype == _F32:
        return array
    if array is not None and array.dtype in _WIDENED:
        return array.astype(_F32)
    if array is not None and array.dtype.kind in "biu":
        from ascreg.core import conversions  # (the SIMT math library: loaded when SIMT code runs)

        wide = array.astype(_WIDE_INTEGER[array.dtype.kind])
        return np.asarray(conversions.integer_to_float(wide, "rn"))
    kind = array.dtype if array is not None else type(value).__name__
    raise AscregTypeError(
        f"argument '{name}' is {value!r:.60} ({kind}); the C parameter is a float: pass a number, "
        "integer values or float32 values (integers round to nearest, half/bfloat16 widen exactly; "
        "cast float64 arrays explicitly, ascreg never narrows silently)",
        call=call,
    )


_WIDE_INTEGER: dict[str, np.dtype[Any]] = {
    "b": np.dtype(np.int32),
    "i": np.dtype(np.int64),
    "u": np.dtype(np.uint64),
}
"""The integer type an integer or bool array widens to (exactly) before it rounds to float."""


def _within_float(call: str, name: str, value: Any, converted: Arr) -> Arr:
    """Return *converted*, or raise if the finite *value* rounded beyond the float range."""
    if not np.isfinite(converted):
        raise AscregTypeError(
            f"argument '{name}' is {value!r:.60}, outside the float range (±{_FLOAT_MAX:.6g}); "
            "converting it to float is undefined in C",
            call=call,
        )
    return converted


def c_template_value(call: str, name: str, value: Any, legal: Sequence[np.dtype[Any]]) -> Arr:
    """Return a ``T`` argument of a SIMT function template as an array of a *legal* dtype.

    C++ deduces ``T`` from the argument: a Python int is ``int`` (``long long`` when it does not
    fit), a Python float is ``float``; a numpy value keeps its dtype.

    Examples
    --------
    >>> c_template_value("asc_shfl", "var", 2**40, (np.dtype(np.int32), np.dtype(np.int64)))
    array(1099511627776)
    >>> c_template_value("asc_shfl", "var", np.int8(1), (np.dtype(np.int32),))
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_shfl: var has dtype int8, which is not supported; legal: int32
    """
    array = np.asarray(value)
    if not isinstance(value, np.ndarray | np.generic):
        if array.dtype.kind == "i":
            array = array.astype(np.int32 if -(2**31) <= int(value) < 2**31 else np.int64)
        elif array.dtype.kind == "f":
            array = array.astype(np.float32)
    if array.dtype not in legal:
        raise AscregTypeError(
            f"{name} has dtype {array.dtype}, which is not supported; legal: "
            + ", ".join(d.name for d in legal),
            call=call,
        )
    return array


def simt_address(
    call: str, address: Any, legal: Sequence[type[Scalar]], note: str = ""
) -> tuple[Pointer[Any], Pointer[Any] | LanePointer]:
    """Return the base pointer and the target of a SIMT address operand (``p`` or ``p + idx``).

    The target is what the call accesses: the (SIMT) pointer itself, or the per-thread
    :class:`~ascreg.machine.simt.engine.LanePointer`. Its element type must be in *legal*;
    *note* is added to that message.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int8_t, int32_t
    >>> base, target = simt_address("asc_ldcg", GlobalMemory().alloc(int32_t, 4), (int32_t,))
    >>> type(base).__name__, base is target
    ('SimtGmPtr', True)
    >>> simt_address("asc_atomic_add", GlobalMemory().alloc(int8_t, 4), (int32_t,))
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_atomic_add: int8_t is not supported (legal: int32_t)
    """
    from ascreg.machine.simt.engine import LanePointer, wrap_pointer  # (SIMT code: loaded)

    if isinstance(address, LanePointer):
        base: Pointer[Any] = address.base
        target: Pointer[Any] | LanePointer = address
    elif isinstance(address, Pointer):
        base = target = wrap_pointer(address)
    else:
        raise AscregTypeError(
            f"the address must be a __gm__ or __ubuf__ pointer, got {address!r:.60}", call=call
        )
    if base.dtype not in legal:
        names = ", ".join(d.cpp_name for d in legal)
        raise AscregTypeError(
            f"{base.dtype.cpp_name} is not supported (legal: {names}{note})", call=call
        )
    return base, target


# --- half and bfloat16_t parameters of the SIMT scalar functions (ascreg.simt.halfmath) --------

_HALF_NAMES = {np.dtype(np.float16): "half", np.dtype(ml_dtypes.bfloat16): "bfloat16_t"}


def c_half_overload(call: str, values: Sequence[Any], overloads: Sequence[Signature]) -> Signature:
    """Pick the ``half`` or ``bfloat16_t`` overload of a SIMT call from its numpy arguments.

    The dtype of the numpy arguments decides (``float16`` or ``ml_dtypes.bfloat16``); Python
    numbers alone do not (C++ reports the call ambiguous), and mixing the two types is an error.

    Examples
    --------
    >>> from ascreg import bfloat16_t, half
    >>> sigs = (Signature(half, half), Signature(bfloat16_t, bfloat16_t))
    >>> c_half_overload("__hsub", [np.float16(1), 2.0], sigs).ctypes
    ('half', 'half')
    >>> c_half_overload("__hsub", [1.0, 2.0], sigs)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: __hsub: Python numbers alone do not choose between the overloads ...
    """
    found = {
        np.asarray(v).dtype
        for v in values
        if isinstance(v, np.ndarray | np.generic) and np.asarray(v).dtype in _HALF_NAMES
    }
    if len(found) == 1:
        dtype = found.pop()
        for sig in overloads:
            if sig.dtypes[0] == dtype:
                return sig
    legal = " or ".join(_HALF_NAMES[sig.dtypes[0]] for sig in overloads)
    others = sorted(
        {str(np.asarray(v).dtype) for v in values if isinstance(v, np.ndarray | np.generic)}
        - {"float16", "bfloat16"}
    )
    if others and not found:
        raise AscregTypeError(
            f"the C parameters are {legal}, the arguments are {', '.join(others)}: convert "
            "explicitly (__float2half_rn, __float2bfloat16_rn ...; ascreg never narrows silently)",
            call=call,
        )
    if found:
        raise AscregTypeError(
            "mixing half and bfloat16_t arguments makes the C++ overload ambiguous; convert one "
            "side explicitly (__half2bfloat16_rn, __bfloat162half_rn)",
            call=call,
        )
    raise AscregTypeError(
        f"Python numbers alone do not choose between the overloads ({legal}): pass np.float16 "
        "or ml_dtypes.bfloat16 values (other dtypes are never narrowed silently)",
        call=call,
    )


def c_half(call: str, name: str, value: Any, dtype: np.dtype[Any]) -> Arr:
    """Convert one argument to a ``half`` or ``bfloat16_t`` parameter (array, 0-d for scalars).

    A numpy value must already have the parameter's dtype; a Python number is converted as C
    converts a ``double`` (rounded to nearest even; a finite value beyond the type's range is an
    error, never a silent inf).

    Examples
    --------
    >>> c_half("hsin", "x", 0.1, np.dtype(np.float16))
    array(0.1, dtype=float16)
    >>> c_half("hsin", "x", np.float32(1), np.dtype(np.float16))
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: hsin: argument 'x' is np.float32(1.0) (float32); the C parameter is a half: ...
    """
    ctype = _HALF_NAMES[dtype]
    if isinstance(value, bool | int | float) and not isinstance(value, np.generic):
        try:
            as_double = float(value)
        except OverflowError:
            as_double = math.inf
        with quiet():
            converted = np.asarray(as_double).astype(dtype)
        if math.isfinite(as_double) and not np.isfinite(converted):
            raise AscregTypeError(
                f"argument '{name}' is {value!r}, outside the {ctype} range; converting it is "
                "undefined in C",
                call=call,
            )
        return converted
    array = np.asarray(value) if isinstance(value, np.ndarray | np.generic) else None
    if array is not None and array.dtype == dtype:
        return array
    kind = array.dtype if array is not None else type(value).__name__
    raise AscregTypeError(
        f"argument '{name}' is {value!r:.60} ({kind}); the C parameter is a {ctype}: pass a "
        f"Python number or {dtype} values (convert other types explicitly, e.g. "
        "__float2half_rn; ascreg never narrows silently)",
        call=call,
    )

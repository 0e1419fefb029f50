"""The kernel-source names of production kernels: ``GM_ADDR``, tiling macros, kernel types.

Also the core-type tests, branch hints, assertions, ``NumericLimits`` and the scalar bit
utilities.

A production kernel entry reads::

    extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
    {
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
        REGISTER_TILING_DEFAULT(OpTilingData);
        GET_TILING_DATA(tilingData, tiling);
        if (TILING_KEY_IS(1)) { ... }
    }

and ports as::

    @__global__
    @__aicore__
    def op(x: GM_ADDR, y: GM_ADDR, workspace: GM_ADDR, tiling: GM_ADDR) -> None:
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
        REGISTER_TILING_DEFAULT(OpTilingData)
        tilingData = GET_TILING_DATA(tiling)
        if TILING_KEY_IS(1): ...

The one spelling change: a macro that *declares* a variable (``GET_TILING_DATA(tilingData,
tiling)``) returns it instead, ``tilingData = GET_TILING_DATA(tiling)``, as every C++
declaration becomes a Python assignment. The host writes the struct's bytes to GM
(:class:`~ascreg.machine.tiling.Struct`, ``tobytes``) and sets the key with
:func:`~ascreg.machine.tiling.ICPU_SET_TILING_KEY`.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t, uint8_t
>>> from ascreg.machine.kernel import __aicore__, __global__
>>> class AddTiling(Struct):
...     totalLength: uint32_t
>>> @__global__
... @__aicore__
... def add(x: GM_ADDR, tiling: GM_ADDR) -> None:
...     KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
...     REGISTER_TILING_DEFAULT(AddTiling)
...     tilingData = GET_TILING_DATA(tiling)
...     if TILING_KEY_IS(1):
...         print("key 1, length", int(tilingData.totalLength))
>>> gm = GlobalMemory()
>>> t = gm.alloc(uint8_t, AddTiling.size); t.write(np.frombuffer(AddTiling(48).tobytes(), np.uint8))
>>> ICPU_SET_TILING_KEY(1)
>>> add[1, 0, None](gm.alloc(uint8_t, 32), t)
key 1, length 48
"""

from __future__ import annotations

import enum
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar, cast

import ml_dtypes
import numpy as np

from ascreg._dtypes import Scalar, int4b_t, int64_t, is_scalar_type, uint8_t
from ascreg.basic._tensor import LocalTensor
from ascreg.core import bits
from ascreg.errors import AscregError, AscregTypeError, LaunchError, UnsupportedError
from ascreg.machine.block import current_block, running_block
from ascreg.machine.crosscore import CORES_STATE, core_of, running_kind
from ascreg.machine.memory import GmPtr
from ascreg.machine.simt.engine import __launch_bounds__
from ascreg.machine.tiling import (
    ICPU_SET_TILING_KEY,
    REGISTER_TILING_DATA_CLASS,
    CArray,
    Struct,
    c_condition,
    registered_tiling,
    tiling_key,
)

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "AIC",
    "AIV",
    "ASCENDC_ASSERT",
    "ASCEND_IS_AIC",
    "ASCEND_IS_AIV",
    "ASCEND_IS_NOT_AIC",
    "ASCEND_IS_NOT_AIV",
    "ASSERT",
    "COPY_TILING_WITH_ARRAY",
    "COPY_TILING_WITH_STRUCT",
    "GET_TILING_DATA",
    "GET_TILING_DATA_MEMBER",
    "GET_TILING_DATA_PTR_WITH_STRUCT",
    "GET_TILING_DATA_WITH_STRUCT",
    "GM_ADDR",
    "ICPU_SET_TILING_KEY",
    "KERNEL_DEBUG",
    "KERNEL_ERROR",
    "KERNEL_INFO",
    "KERNEL_LOG",
    "KERNEL_TASK_TYPE",
    "KERNEL_TASK_TYPE_DEFAULT",
    "KERNEL_TYPE_AICORE",
    "KERNEL_TYPE_AIC_ONLY",
    "KERNEL_TYPE_AIV_ONLY",
    "KERNEL_TYPE_MAX",
    "KERNEL_TYPE_MIX_AICORE",
    "KERNEL_TYPE_MIX_AIC_1_0",
    "KERNEL_TYPE_MIX_AIC_1_1",
    "KERNEL_TYPE_MIX_AIC_1_2",
    "KERNEL_TYPE_MIX_AIV_1_0",
    "KERNEL_TYPE_MIX_VECTOR_CORE",
    "KERNEL_TYPE_VECTORCORE",
    "KERNEL_WARN",
    "LAUNCH_BOUND",
    "MIX",
    "REGISTER_NONE_TILING",
    "REGISTER_TILING_DATA_CLASS",
    "REGISTER_TILING_DEFAULT",
    "REGISTER_TILING_FOR_TILINGKEY",
    "TILING_KEY_IS",
    "TILING_KEY_LIST",
    "TILING_KEY_VAR",
    "CArray",
    "CountBitsCntSameAsSignBit",
    "CountLeadingZero",
    "GetBitCount",
    "GetSFFValue",
    "KernelMetaType",
    "NumericLimits",
    "ScalarCountLeadingZero",
    "ScalarGetCountOfValue",
    "ScalarGetSFFValue",
    "Struct",
    "ascendc_assert",
    "g_coreType",
    "int4b_t",
    "likely",
    "unlikely",
]

GM_ADDR = GmPtr[uint8_t]
GM_ADDR.__doc__ = """``GM_ADDR`` (``__gm__ uint8_t*``): the type of a kernel's GM parameters, as an annotation.

A launch checks each argument annotated ``GM_ADDR`` is a ``__gm__ uint8_t*``
(``ptr.cast(uint8_t)``); the kernel casts it to its element type (``x.cast(half)``,
``GlobalTensor.SetGlobalBuffer``). (The alias is ``GmPtr[uint8_t]``.)

Examples
--------
>>> from ascreg import GlobalMemory, GmPtr, half, uint8_t
>>> p = GlobalMemory().alloc(half, 4).cast(uint8_t)
>>> isinstance(p, GmPtr) and p.dtype is uint8_t
True
"""

# -- the core type -------------------------------------------------------------------------------

MIX = 0
"""``AscendC::MIX``: the core type of a kernel built for both cores (not ascreg's)."""
AIC = 1
"""``AscendC::AIC``: the cube core's type."""
AIV = 2
"""``AscendC::AIV``: the vector core's type."""
_KIND_CODES = {"AIC": AIC, "AIV": AIV}


class _CoreType:
    """``g_coreType``: the type of the core the code runs on (:data:`AIC` or :data:`AIV`).

    It is asked when compared: an AIC of a ``__mix__`` or ``__cube__`` launch sees ``AIC``,
    every other core (and code outside a kernel) ``AIV``.

    Examples
    --------
    >>> g_coreType == AIV, int(g_coreType)
    (True, 2)
    """

    def __int__(self) -> int:
        return _KIND_CODES[running_kind()]

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int) and int(self) == other

    def __hash__(self) -> int:
        return hash(int(self))

    def __repr__(self) -> str:
        return "AIC" if int(self) == AIC else "AIV"

    def cpp_declaration(self, name: str) -> str:
        """Return the C++ declaration of the name (a vector core's value) for the header."""
        return f"inline uint32_t {name} = {int(self)};"


class _IsCore:
    """``ASCEND_IS_AIV`` / ``ASCEND_IS_AIC`` (and ``_NOT_``): true on the named kind of core.

    C++ ``if ASCEND_IS_AIV {`` is ``if ASCEND_IS_AIV:``; the value is asked each time, so each
    core of a ``__mix__`` launch takes its own branch.
    """

    __slots__ = ("kind", "negated")

    def __init__(self, kind: str, negated: bool) -> None:
        self.kind, self.negated = kind, negated

    def __bool__(self) -> bool:
        return (running_kind() == self.kind) != self.negated

    def __eq__(self, other: object) -> bool:
        return bool(self) == other

    def __hash__(self) -> int:
        return hash(bool(self))

    def __repr__(self) -> str:
        return repr(bool(self))

    def cpp_declaration(self, name: str) -> str:
        """Return the C++ declaration of the name (a vector core's value) for the header."""
        return f"inline bool {name} = {'true' if self else 'false'};"


g_coreType = _CoreType()
"""``g_coreType``: the type of the running core (``AIC`` on a cube core, else ``AIV``).

Examples
--------
>>> g_coreType == AIV, ASCEND_IS_AIV, ASCEND_IS_AIC
(True, True, False)
"""
ASCEND_IS_AIV = _IsCore("AIV", False)
"""``ASCEND_IS_AIV`` (``g_coreType == AIV``): true on a vector core.
C++ ``if ASCEND_IS_AIV {`` is ``if ASCEND_IS_AIV:``."""
ASCEND_IS_AIC = _IsCore("AIC", False)
"""``ASCEND_IS_AIC`` (``g_coreType == AIC``): true on a cube core (a ``__mix__`` or ``__cube__``
kernel's AIC)."""
ASCEND_IS_NOT_AIV = _IsCore("AIV", True)
"""``ASCEND_IS_NOT_AIV``: true on a cube core."""
ASCEND_IS_NOT_AIC = _IsCore("AIC", True)
"""``ASCEND_IS_NOT_AIC``: true on a vector core."""


class KernelMetaType(enum.IntEnum):
    """``KernelMetaType``: the kernel types of ``KERNEL_TASK_TYPE_DEFAULT`` (设置Kernel类型).

    A launch takes its cores from the kernel's qualifier; the kernel type must name the same
    ones (``KERNEL_TYPE_AIV_ONLY`` / ``MIX_AIV_1_0`` a ``__vector__`` kernel,
    ``KERNEL_TYPE_AIC_ONLY`` a ``__cube__`` one, ``KERNEL_TYPE_MIX_AIC_1_2`` a ``__mix__(1, 2)``
    one, ...), else it is an :class:`~ascreg.errors.UnsupportedError`.

    Examples
    --------
    >>> KernelMetaType.KERNEL_TYPE_MIX_AIC_1_2.value, KERNEL_TYPE_AIV_ONLY.name
    (5, 'KERNEL_TYPE_AIV_ONLY')
    """

    KERNEL_TYPE_AIV_ONLY = 0
    KERNEL_TYPE_AIC_ONLY = 1
    KERNEL_TYPE_MIX_AIV_1_0 = 2
    KERNEL_TYPE_MIX_AIC_1_0 = 3
    KERNEL_TYPE_MIX_AIC_1_1 = 4
    KERNEL_TYPE_MIX_AIC_1_2 = 5
    KERNEL_TYPE_AICORE = 6
    KERNEL_TYPE_VECTORCORE = 7
    KERNEL_TYPE_MIX_AICORE = 8
    KERNEL_TYPE_MIX_VECTOR_CORE = 9
    KERNEL_TYPE_MAX = 10


KERNEL_TYPE_AIV_ONLY = KernelMetaType.KERNEL_TYPE_AIV_ONLY
"""Only the vector cores start (numBlocks of them)."""
KERNEL_TYPE_AIC_ONLY = KernelMetaType.KERNEL_TYPE_AIC_ONLY
"""Only the cube cores start (not in ascreg)."""
KERNEL_TYPE_MIX_AIV_1_0 = KernelMetaType.KERNEL_TYPE_MIX_AIV_1_0
"""Vector cores only, with the cross-core hard sync."""
KERNEL_TYPE_MIX_AIC_1_0 = KernelMetaType.KERNEL_TYPE_MIX_AIC_1_0
"""Cube cores only, with the hard sync (not in ascreg)."""
KERNEL_TYPE_MIX_AIC_1_1 = KernelMetaType.KERNEL_TYPE_MIX_AIC_1_1
"""One cube and one vector core per block (not in ascreg)."""
KERNEL_TYPE_MIX_AIC_1_2 = KernelMetaType.KERNEL_TYPE_MIX_AIC_1_2
"""One cube and two vector cores per block (not in ascreg)."""
KERNEL_TYPE_AICORE = KernelMetaType.KERNEL_TYPE_AICORE
"""Whole AI Cores (not in ascreg)."""
KERNEL_TYPE_VECTORCORE = KernelMetaType.KERNEL_TYPE_VECTORCORE
"""Reserved (not supported by the docs)."""
KERNEL_TYPE_MIX_AICORE = KernelMetaType.KERNEL_TYPE_MIX_AICORE
"""Reserved (not supported by the docs)."""
KERNEL_TYPE_MIX_VECTOR_CORE = KernelMetaType.KERNEL_TYPE_MIX_VECTOR_CORE
"""Vector Core products (not the 950)."""
KERNEL_TYPE_MAX = KernelMetaType.KERNEL_TYPE_MAX
"""The enum's end marker."""

VECTOR_ONLY = (KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_MIX_AIV_1_0)
"""The kernel types a ``__vector__`` launch runs as: the vector cores, numBlocks of them."""
MIX_TYPES = {
    KERNEL_TYPE_MIX_AIC_1_0: (1, 0),
    KERNEL_TYPE_MIX_AIC_1_1: (1, 1),
    KERNEL_TYPE_MIX_AIC_1_2: (1, 2),
}
"""The mixed kernel types and the ``__mix__(aic, aiv)`` ratio each starts."""


def _kernel_type(value: Any, call: str) -> KernelMetaType:
    """Check *value* names the cores the running launch runs (its qualifier decides them)."""
    if not isinstance(value, KernelMetaType):
        raise AscregTypeError(f"{value!r:.40} is not a KernelMetaType (KERNEL_TYPE_AIV_ONLY, ...)")
    ratio = _launch_ratio()
    if value in VECTOR_ONLY and ratio in (None, (0, 1)):
        return value
    if ratio is not None and (
        MIX_TYPES.get(value) == ratio or (value is KERNEL_TYPE_AIC_ONLY and ratio == "cube")
    ):
        return value
    qualifier = {None: "__vector__", "cube": "__cube__"}.get(ratio, f"__mix__{ratio}")
    raise UnsupportedError(
        f"{value.name} does not match the kernel's {qualifier}: an ascreg launch takes its "
        "cores from the kernel's qualifier (__vector__, __cube__, __mix__(1, 2), ...), so the "
        "kernel type must name the same cores",
        call=call,
    )


def _launch_ratio() -> Any:
    """Return the running launch's ``__mix__`` ratio, ``"cube"``, or None (vector cores)."""
    ctx = running_block()
    if ctx is None:
        return None
    core = core_of(ctx)
    if core is not None:
        flags = ctx.shared[CORES_STATE]
        kinds = [c.kind for c in flags.cores if c.block == 0]
        return kinds.count("AIC"), kinds.count("AIV")
    return "cube" if running_kind(ctx) == "AIC" else None


def KERNEL_TASK_TYPE_DEFAULT(value: KernelMetaType) -> None:
    """``KERNEL_TASK_TYPE_DEFAULT(value)``: the kernel type of every tiling key.

    Examples
    --------
    >>> KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: KERNEL_TASK_TYPE_DEFAULT: KERNEL_TYPE_MIX_AIC_1_2 does not match the kernel's __vector__: an ascreg launch takes its cores from the kernel's qualifier (__vector__, __cube__, __mix__(1, 2), ...), so the kernel type must name the same cores
    """
    _ascreg_call = "KERNEL_TASK_TYPE_DEFAULT"
    kind = _kernel_type(value, _ascreg_call)
    _state().setdefault("kernel_type", kind)


def KERNEL_TASK_TYPE(key: int, value: KernelMetaType) -> None:
    """``KERNEL_TASK_TYPE(key, value)``: the kernel type of one tiling key (overrides the default).

    Examples
    --------
    >>> KERNEL_TASK_TYPE(1, KERNEL_TYPE_AIC_ONLY)
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: KERNEL_TASK_TYPE: KERNEL_TYPE_AIC_ONLY does not match the kernel's __vector__: an ascreg launch takes its cores from the kernel's qualifier (__vector__, __cube__, __mix__(1, 2), ...), so the kernel type must name the same cores
    """
    _ascreg_call = "KERNEL_TASK_TYPE"
    _key_argument(key, "key")
    _kernel_type(value, _ascreg_call)


def _state() -> dict[str, Any]:
    """Return the running block's kernel-source state (registrations, kernel type)."""
    state: dict[str, Any] = current_block().state.setdefault("kernel_source", {})
    return state


# -- tiling keys -------------------------------------------------------------------------------


def _key_argument(key: Any, role: str) -> int:
    if isinstance(key, bool) or not isinstance(key, int | np.integer) or int(key) < 0:
        raise AscregTypeError(f"{role} {key!r:.40} must be a non-negative integer tiling key")
    return int(key)


def TILING_KEY_IS(key: int) -> bool:
    """``TILING_KEY_IS(key)``: whether this launch runs with tiling key *key*.

    The key is the host's (:func:`~ascreg.machine.tiling.ICPU_SET_TILING_KEY`); none set is a
    :class:`~ascreg.errors.LaunchError`.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> ICPU_SET_TILING_KEY(2)
    >>> with block(BlockContext()):
    ...     TILING_KEY_IS(1), TILING_KEY_IS(2)
    (False, True)
    """
    _ascreg_call = "TILING_KEY_IS"
    wanted = _key_argument(key, "key")
    current_block()
    return tiling_key() == wanted


def TILING_KEY_LIST(key1: int, key2: int) -> bool:
    """``TILING_KEY_LIST(key1, key2)``: whether the launch's tiling key is *key1* or *key2*.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> ICPU_SET_TILING_KEY(4)
    >>> with block(BlockContext()):
    ...     TILING_KEY_LIST(3, 4)
    True
    """
    _ascreg_call = "TILING_KEY_LIST"
    keys = {_key_argument(key1, "key1"), _key_argument(key2, "key2")}
    current_block()
    return tiling_key() in keys


class _TilingKeyVar:
    """``TILING_KEY_VAR``: the tiling key the kernel runs with, for ``#if TILING_KEY_VAR == K``.

    The C++ compiles one kernel per key with ``TILING_KEY_VAR`` defined as that key; the port's
    ``if TILING_KEY_VAR == K:`` compares the launch's key (``ICPU_SET_TILING_KEY``) instead.
    ``int(TILING_KEY_VAR)`` is the key.

    Examples
    --------
    >>> ICPU_SET_TILING_KEY(2000000001)
    >>> TILING_KEY_VAR == 2000000001, TILING_KEY_VAR != 5, int(TILING_KEY_VAR) % 10
    (True, True, 1)
    """

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return tiling_key() == other

    def __ne__(self, other: object) -> bool:
        return tiling_key() != other

    def __lt__(self, other: int) -> bool:
        return tiling_key() < other

    def __le__(self, other: int) -> bool:
        return tiling_key() <= other

    def __gt__(self, other: int) -> bool:
        return tiling_key() > other

    def __ge__(self, other: int) -> bool:
        return tiling_key() >= other

    def __int__(self) -> int:
        return tiling_key()

    def __index__(self) -> int:
        return tiling_key()

    def __repr__(self) -> str:
        return "TILING_KEY_VAR"


TILING_KEY_VAR = _TilingKeyVar()
"""``TILING_KEY_VAR``: the launch's tiling key in comparisons (see ``_TilingKeyVar``)."""


# -- tiling structs ----------------------------------------------------------------------------


def _struct(value: Any, role: str) -> type[Struct]:
    if not (isinstance(value, type) and issubclass(value, Struct)):
        raise AscregTypeError(
            f"{role} {value!r:.60} is not a tiling struct (a subclass of ascreg.basic.Struct)"
        )
    return value


def REGISTER_TILING_DEFAULT(TILING_STRUCT: type[Struct]) -> None:
    """``REGISTER_TILING_DEFAULT(TilingData)``: the struct ``GET_TILING_DATA`` reads.

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class T(Struct):
    ...     n: uint32_t
    >>> with block(BlockContext()):
    ...     REGISTER_TILING_DEFAULT(T); REGISTER_NONE_TILING()
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: REGISTER_NONE_TILING: the kernel registered a tiling struct already (REGISTER_TILING_DEFAULT / REGISTER_TILING_FOR_TILINGKEY): the page forbids mixing the registered and unregistered styles
    """
    _ascreg_call = "REGISTER_TILING_DEFAULT"
    struct = _struct(TILING_STRUCT, "TILING_STRUCT")
    state = _state()
    _not_none_tiling(state, _ascreg_call)
    state["default"] = struct


def REGISTER_TILING_FOR_TILINGKEY(EXPRESSION: str, TILING_STRUCT: type[Struct]) -> None:
    """``REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", TilingDataA)``.

    ``GET_TILING_DATA`` reads *TILING_STRUCT* when the launch's key satisfies the C condition
    *EXPRESSION* (``TILING_KEY_VAR`` is the key; see
    ``c_condition``). A default must be registered too.

    Examples
    --------
    >>> from ascreg import uint32_t, uint64_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class A(Struct):
    ...     n: uint32_t
    >>> class B(Struct):
    ...     n: uint64_t
    >>> ICPU_SET_TILING_KEY(12)
    >>> with block(BlockContext()):
    ...     REGISTER_TILING_DEFAULT(A)
    ...     REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", B)
    ...     _registered_default("GET_TILING_DATA") is B
    True
    """
    _ascreg_call = "REGISTER_TILING_FOR_TILINGKEY"
    struct = _struct(TILING_STRUCT, "TILING_STRUCT")
    if not isinstance(EXPRESSION, str):
        raise AscregTypeError(f"EXPRESSION {EXPRESSION!r:.40} must be a string over TILING_KEY_VAR")
    c_condition(EXPRESSION, 0)  # check the syntax now, as the compiler does
    state = _state()
    _not_none_tiling(state, _ascreg_call)
    state.setdefault("for_key", []).append((EXPRESSION, struct))


def _not_none_tiling(state: dict[str, Any], call: str) -> None:
    if state.get("none"):
        raise AscregError(
            "the kernel used REGISTER_NONE_TILING: the page forbids mixing it with registered "
            "tiling structs",
            call=call,
        )


def REGISTER_NONE_TILING() -> None:
    """``REGISTER_NONE_TILING;``: the kernel reads unregistered structs (``..._WITH_STRUCT``).

    C++ writes it without parentheses; a bare name does nothing in Python, so the port calls it.
    ``GET_TILING_DATA`` is then an error (it needs a registered default).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     REGISTER_NONE_TILING(); GET_TILING_DATA(None)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: GET_TILING_DATA: the kernel used REGISTER_NONE_TILING, which registers no default struct: read the tiling with GET_TILING_DATA_WITH_STRUCT(Struct, tiling)
    """
    _ascreg_call = "REGISTER_NONE_TILING"
    state = _state()
    if "default" in state or "for_key" in state:
        raise AscregError(
            "the kernel registered a tiling struct already (REGISTER_TILING_DEFAULT / "
            "REGISTER_TILING_FOR_TILINGKEY): the page forbids mixing the registered and "
            "unregistered styles"
        )
    state["none"] = True


def _registered_default(call: str) -> type[Struct]:
    ctx = current_block()
    state = _state()
    if state.get("none"):
        raise AscregError(
            "the kernel used REGISTER_NONE_TILING, which registers no default struct: read the "
            "tiling with GET_TILING_DATA_WITH_STRUCT(Struct, tiling)",
            call=call,
        )
    for expression, struct in state.get("for_key", ()):
        if c_condition(expression, tiling_key()):
            return cast(type[Struct], struct)
    if "default" in state:
        return cast(type[Struct], state["default"])
    found = registered_tiling(ctx.kernel, tiling_key() if _key_set() else None)
    if found is None:
        raise AscregError(
            f"kernel {ctx.kernel!r} has no default tiling struct: register one in the kernel "
            "with REGISTER_TILING_DEFAULT(Struct) (or on the host with "
            "REGISTER_TILING_DATA_CLASS('OpType', Struct)), or read a named struct with "
            "GET_TILING_DATA_WITH_STRUCT(Struct, tiling)",
            call=call,
        )
    return found


def _key_set() -> bool:
    try:
        tiling_key()
    except LaunchError:
        return False
    return True


def _read(struct: type[Struct], tiling: Any, call: str) -> Any:
    if isinstance(tiling, Struct):
        raise AscregTypeError(
            f"tiling is a {tiling.cpp_name} object: pass the GM_ADDR the host wrote its bytes to "
            "(a __gm__ uint8_t*)",
            call=call,
        )
    if not isinstance(tiling, GmPtr):
        raise AscregTypeError(
            f"tiling must be the kernel's GM_ADDR tiling argument, got {tiling!r:.60}", call=call
        )
    current_block()
    data = tiling.cast(uint8_t).read(struct.size)
    return struct.frombytes(data)


def GET_TILING_DATA(tiling_arg: GmPtr[Any]) -> Any:
    """``GET_TILING_DATA(tilingData, tiling)`` as ``tilingData = GET_TILING_DATA(tiling)``.

    Reads the default struct (``REGISTER_TILING_DEFAULT``; a ``REGISTER_TILING_FOR_TILINGKEY``
    struct whose condition the key meets; else the host's ``REGISTER_TILING_DATA_CLASS``) from
    the first ``sizeof`` bytes at *tiling_arg*: a copy, as the C++ struct on the stack.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class T(Struct):
    ...     n: uint32_t
    >>> g = GlobalMemory().alloc(uint8_t, 4); g.write(np.frombuffer(T(9).tobytes(), np.uint8))
    >>> with block(BlockContext()):
    ...     REGISTER_TILING_DEFAULT(T); int(GET_TILING_DATA(g).n)
    9
    """
    _ascreg_call = "GET_TILING_DATA"
    return _read(_registered_default(_ascreg_call), tiling_arg, _ascreg_call)


def GET_TILING_DATA_WITH_STRUCT(struct_name: type[Struct], tiling_arg: GmPtr[Any]) -> Any:
    """``GET_TILING_DATA_WITH_STRUCT(S, tilingData, tiling)`` as ``tilingData = ...(S, tiling)``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, int64_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class S(Struct):
    ...     rows: int64_t
    >>> g = GlobalMemory().alloc(uint8_t, 8); g.write(np.frombuffer(S(-3).tobytes(), np.uint8))
    >>> with block(BlockContext()):
    ...     GET_TILING_DATA_WITH_STRUCT(S, g)
    S(rows=-3)
    """
    _ascreg_call = "GET_TILING_DATA_WITH_STRUCT"
    return _read(_struct(struct_name, "struct_name"), tiling_arg, _ascreg_call)


def GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct: type[Struct], tiling_ptr: GmPtr[Any]) -> Any:
    """``GET_TILING_DATA_PTR_WITH_STRUCT(S, ptr, tiling)`` as ``ptr = ...(S, tiling)``.

    The C++ returns a pointer to the struct; in Python the struct object is that pointer
    (``ptr->field`` is ``ptr.field``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class S(Struct):
    ...     tileNum: uint32_t
    >>> g = GlobalMemory().alloc(uint8_t, 4); g.write(np.frombuffer(S(8).tobytes(), np.uint8))
    >>> with block(BlockContext()):
    ...     int(GET_TILING_DATA_PTR_WITH_STRUCT(S, g).tileNum)
    8
    """
    _ascreg_call = "GET_TILING_DATA_PTR_WITH_STRUCT"
    return _read(_struct(tiling_struct, "tiling_struct"), tiling_ptr, _ascreg_call)


def GET_TILING_DATA_MEMBER(struct_name: type[Struct], mem_name: str, tiling_arg: GmPtr[Any]) -> Any:
    """``GET_TILING_DATA_MEMBER(S, member, var, tiling)`` as ``var = ...(S, "member", tiling)``.

    The member is named by a string (a bare identifier in C++).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> class S(Struct):
    ...     a: uint32_t
    ...     blockNum: uint32_t
    >>> g = GlobalMemory().alloc(uint8_t, 8); g.write(np.frombuffer(S(1, 40).tobytes(), np.uint8))
    >>> with block(BlockContext()):
    ...     int(GET_TILING_DATA_MEMBER(S, "blockNum", g))
    40
    """
    _ascreg_call = "GET_TILING_DATA_MEMBER"
    struct = _struct(struct_name, "struct_name")
    if mem_name not in (f.name for f in struct.fields):
        raise AscregTypeError(f"{struct.cpp_name} has no member {mem_name!r}")
    return getattr(_read(struct, tiling_arg, _ascreg_call), mem_name)


def COPY_TILING_WITH_STRUCT(tiling_struct: type[Struct], src_ptr: Any) -> Any:
    """``COPY_TILING_WITH_STRUCT(S, src, dst)`` as ``dst = COPY_TILING_WITH_STRUCT(S, src)``.

    *src_ptr* is a struct (usually a member of a ``GET_TILING_DATA_PTR_WITH_STRUCT`` result);
    the result is a copy of it.

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> class V(Struct):
    ...     n: uint32_t
    >>> v = V(3); c = COPY_TILING_WITH_STRUCT(V, v); v.n = 4; int(c.n)
    3
    """
    _ascreg_call = "COPY_TILING_WITH_STRUCT"
    struct = _struct(tiling_struct, "tiling_struct")
    if not isinstance(src_ptr, struct):
        raise AscregTypeError(f"src_ptr {src_ptr!r:.60} is not a {struct.cpp_name}")
    return struct.frombytes(src_ptr.tobytes())


def COPY_TILING_WITH_ARRAY(arr_type: type[Scalar], arr_count: int, src_ptr: Any) -> Any:
    """``COPY_TILING_WITH_ARRAY(T, n, src, dst)`` as ``dst = COPY_TILING_WITH_ARRAY(T, n, src)``.

    Copies the first *arr_count* elements of the array member *src_ptr*; ``(*dst)[i]`` is
    ``dst[i]``.

    Examples
    --------
    >>> from ascreg import uint64_t
    >>> class A(Struct):
    ...     arr: CArray[uint64_t, 4]
    >>> a = A(); a.arr[:] = [5, 6, 7, 8]
    >>> COPY_TILING_WITH_ARRAY(uint64_t, 2, a.arr).tolist()
    [5, 6]
    """
    _ascreg_call = "COPY_TILING_WITH_ARRAY"
    if not is_scalar_type(arr_type):
        raise AscregTypeError(f"arr_type {arr_type!r:.40} is not a dtype")
    values = np.asarray(src_ptr)
    if values.dtype != arr_type.np_dtype:
        raise AscregTypeError(f"src_ptr holds {values.dtype}, not {arr_type.cpp_name}")
    count = _key_argument(arr_count, "arr_count")
    if count > values.size:
        raise AscregTypeError(f"arr_count {count} is more than the array's {values.size} elements")
    return values.reshape(-1)[:count].copy()


# -- branch hints, assertions, logs -----------------------------------------------------------


def likely(x: Any) -> Any:
    """``likely(x)`` (``__builtin_expect(!!(x), 1)``): the condition itself.

    Examples
    --------
    >>> likely(3 > 2), unlikely(0)
    (True, 0)
    """
    return x


def unlikely(x: Any) -> Any:
    """``unlikely(x)`` (``__builtin_expect(!!(x), 0)``): the condition itself; see :func:`likely`.

    Examples
    --------
    >>> unlikely(1 > 2)
    False
    """
    return x


def LAUNCH_BOUND(n: int) -> Callable[[F], F]:
    """``LAUNCH_BOUND(n)``: the kernels' macro for ``__launch_bounds__(n)`` on a SIMT VF.

    Examples
    --------
    >>> @LAUNCH_BOUND(512)
    ... def f(): ...
    >>> f.__ascreg_launch_bounds__
    512
    """
    return __launch_bounds__(n)


KERNEL_DEBUG = "DEBUG"
"""``KERNEL_DEBUG``: a ``KERNEL_LOG`` level."""
KERNEL_INFO = "INFO"
"""``KERNEL_INFO``: a ``KERNEL_LOG`` level."""
KERNEL_WARN = "WARN"
"""``KERNEL_WARN``: a ``KERNEL_LOG`` level."""
KERNEL_ERROR = "ERROR"
"""``KERNEL_ERROR``: a ``KERNEL_LOG`` level."""

_CONVERSION = re.compile(r"%([-+ #0]*\d*(?:\.\d+)?)(?:hh|h|ll|l|z|j|t)?([diuxXfFeEgGscp%])")


def _printf(fmt: str, args: tuple[Any, ...], call: str) -> str:
    """C ``printf`` formatting of *args* (``%u`` as ``%d``, ``%p`` as hex)."""
    values = [a.item() if isinstance(a, np.generic) else a for a in args]
    pieces: list[str] = []
    position = 0
    used = 0
    for match in _CONVERSION.finditer(fmt):
        pieces.append(fmt[position : match.start()])
        position = match.end()
        flags, kind = match.groups()
        if kind == "%":
            pieces.append("%")
            continue
        if used >= len(values):
            raise AscregError(f"the format {fmt!r} has more conversions than arguments", call=call)
        value = values[used]
        used += 1
        if kind == "p":
            pieces.append(hex(int(getattr(value, "address", value))))
            continue
        if kind in "u":
            kind = "d"
        if kind in "di" and isinstance(value, float):
            value = int(value)
        pieces.append(("%" + flags + kind) % value)
    pieces.append(fmt[position:])
    if used != len(values):
        raise AscregError(
            f"the format {fmt!r} takes {used} arguments, got {len(values)}", call=call
        )
    return "".join(pieces)


def _where() -> str:
    try:
        ctx = current_block()
    except AscregError:
        return ""
    return f"{ctx.kernel} block {ctx.block_idx}: "


def KERNEL_LOG(level: str, fmt: str, *args: Any) -> None:
    """``KERNEL_LOG(KERNEL_ERROR, "fmt", args...)``: print a log line (C ``printf`` formats).

    Examples
    --------
    >>> KERNEL_LOG(KERNEL_ERROR, "calCount is %u, more than %d", 9, 8)
    [ERROR] calCount is 9, more than 8
    """
    _ascreg_call = "KERNEL_LOG"
    if level not in (KERNEL_DEBUG, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR):
        raise AscregTypeError(f"level {level!r:.30} is not KERNEL_DEBUG/INFO/WARN/ERROR")
    sys.stdout.write(f"[{level}] {_where()}{_printf(fmt, args, _ascreg_call)}\n")


class KernelAssertion(AscregError):
    """A kernel's assertion failed (``ascendc_assert``, ``ASSERT``, ``ASCENDC_ASSERT``)."""


def _caller_text() -> str:
    frame = inspect.currentframe()
    for _ in range(3):
        frame = frame.f_back if frame is not None else None
    if frame is None:
        return "?"
    info = inspect.getframeinfo(frame)
    line = (info.code_context or ["?"])[0].strip()
    return f"{info.filename.rsplit('/', 1)[-1]}:{info.lineno}: `{line}'"


def ascendc_assert(expr: Any, fmt: str | None = None, *args: Any) -> None:
    """``ascendc_assert(expr[, fmt, args...])``: stop the kernel when *expr* is false.

    The chip prints ``[ASSERT] file:line: Assertion `expr' <message>`` and stops; ascreg raises
    ``KernelAssertion`` with that text (and which block failed).

    Examples
    --------
    >>> assertFlag = 10
    >>> ascendc_assert(assertFlag != 10, "The assertFlag value is %d.", assertFlag)
    Traceback (most recent call last):
    ...
    ascreg.basic._kernel_source.KernelAssertion: ascendc_assert: [ASSERT] <doctest ...>:1: `ascendc_assert(assertFlag != 10, "The assertFlag value is %d.", assertFlag)' The assertFlag value is 10.
    """
    _ascreg_call = "ascendc_assert"
    _assert(expr, fmt, args, _ascreg_call)


def _assert(expr: Any, fmt: str | None, args: tuple[Any, ...], call: str) -> None:
    if bool(expr):
        return
    message = "" if fmt is None else " " + _printf(fmt, args, call)
    raise KernelAssertion(f"{_where()}[ASSERT] {_caller_text()}{message}", call=call)


def ASSERT(x: Any) -> None:
    """``ASSERT(x)`` (``assert(x)`` of the CPU debug build): stop the kernel when *x* is false.

    Examples
    --------
    >>> ASSERT(1 + 1 == 2)
    """
    _ascreg_call = "ASSERT"
    _assert(x, None, (), _ascreg_call)


def ASCENDC_ASSERT(cond: Any, behavior: Callable[[], Any] | None = None) -> None:
    """``ASCENDC_ASSERT(cond, { KERNEL_LOG(...); })``: run *behavior*, then stop, when *cond* fails.

    The C++ passes a statement block; the port passes it as a function:
    ``ASCENDC_ASSERT(n <= size, lambda: KERNEL_LOG(KERNEL_ERROR, "n is %u", n))``.

    Examples
    --------
    >>> ASCENDC_ASSERT(False, lambda: KERNEL_LOG(KERNEL_ERROR, "PopStackBuffer Error!"))
    Traceback (most recent call last):
    ...
    ascreg.basic._kernel_source.KernelAssertion: ASCENDC_ASSERT: [ASSERT] <doctest ...>:1: `ASCENDC_ASSERT(False, lambda: KERNEL_LOG(KERNEL_ERROR, "PopStackBuffer Error!"))'
    """
    _ascreg_call = "ASCENDC_ASSERT"
    if bool(cond):
        return
    if behavior is not None:
        if not callable(behavior):
            raise AscregTypeError("behavior must be a function (the C++ statement block)")
        behavior()
    _assert(False, None, (), _ascreg_call)


# -- scalar bit utilities (标量计算) -----------------------------------------------------------------


def _u64(value: Any, role: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise AscregTypeError(f"{role} {value!r:.40} is not an integer (uint64_t)")
    return bits.as_u64(int(value))


def CountLeadingZero(valueIn: int) -> Any:
    """``CountLeadingZero(uint64_t valueIn)``: leading zero bits (64 for 0), as ``int64_t``.

    The scalar unit's ``clz`` (the C API's ``asc_clz``).

    Examples
    --------
    >>> int(CountLeadingZero(0x0100000000000020)), int(CountLeadingZero(0))
    (7, 64)
    """
    _ascreg_call = "CountLeadingZero"
    return int64_t(bits.clz(_u64(valueIn, "valueIn")))


def CountBitsCntSameAsSignBit(valueIn: int) -> Any:
    """``CountBitsCntSameAsSignBit(int64_t valueIn)``: bits after the sign bit equal to it.

    The scalar unit's ``sflbits`` (``asc_sflbits``): 0 and -1 give -1.

    Examples
    --------
    >>> int(CountBitsCntSameAsSignBit(0x0100000000000020)), int(CountBitsCntSameAsSignBit(-2))
    (6, 62)
    """
    _ascreg_call = "CountBitsCntSameAsSignBit"
    return int64_t(bits.sflbits(_u64(valueIn, "valueIn")))


class _BitTemplate:
    """``F<countValue>(valueIn)`` with ``countValue`` 0 or 1, subscripted: ``GetBitCount[1](x)``."""

    def __init__(self, name: str, compute: Callable[[int, int], int], doc: str) -> None:
        self.__name__ = self.__qualname__ = name
        self.__doc__ = doc
        self._compute = compute
        self.__module__ = "ascreg.basic"

    def __getitem__(self, countValue: Any) -> Callable[[int], Any]:
        name = f"{self.__name__}<{countValue!r}>"
        if countValue not in (0, 1) or isinstance(countValue, float):
            raise AscregTypeError(f"countValue {countValue!r:.30} must be 0 or 1", call=name)

        def bound(valueIn: int) -> Any:
            _ascreg_call = name
            return int64_t(self._compute(_u64(valueIn, "valueIn"), int(countValue)))

        return bound

    def __call__(self, valueIn: int) -> Any:
        raise AscregTypeError(
            f"{self.__name__} needs its countValue: {self.__name__}[1](valueIn)",
            call=self.__name__,
        )

    def __repr__(self) -> str:
        return self.__name__


def _bit_count(value: int, wanted: int) -> int:
    return bits.popc(value) if wanted else bits.zero_bits_cnt(value)


def _first_set(value: int, wanted: int) -> int:
    return bits.ffs(value) if wanted else bits.ffz(value)


GetBitCount = _BitTemplate(
    "GetBitCount",
    _bit_count,
    """``GetBitCount<countValue>(uint64_t valueIn)``: how many bits of *valueIn* are *countValue*.

    Examples
    --------
    >>> int(GetBitCount[1](0b1011)), int(GetBitCount[0](0b1011))
    (3, 61)
    """,
)
GetSFFValue = _BitTemplate(
    "GetSFFValue",
    _first_set,
    """``GetSFFValue<countValue>(uint64_t valueIn)``: the lowest position holding *countValue*.

    -1 when no bit holds it.

    Examples
    --------
    >>> int(GetSFFValue[1](0x1000000000000100)), int(GetSFFValue[0](2**64 - 1))
    (8, -1)
    """,
)
ScalarGetCountOfValue = GetBitCount
"""``ScalarGetCountOfValue<countValue>``: the earlier name of :data:`GetBitCount` (接口变更说明)."""
ScalarGetSFFValue = GetSFFValue
"""``ScalarGetSFFValue<countValue>``: the earlier name of :data:`GetSFFValue`."""
ScalarCountLeadingZero = CountLeadingZero
"""``ScalarCountLeadingZero``: the earlier name of :func:`CountLeadingZero`."""


# -- NumericLimits ----------------------------------------------------------------------------------


def _finfo(dtype: np.dtype[Any]) -> Any:
    return ml_dtypes.finfo(dtype)  # type: ignore[no-untyped-call]


def _float_bits(dtype: np.dtype[Any], sign: int, exponent: str, mantissa_top: int) -> Any:
    """Return the float of *dtype* with this sign, all-ones/zero exponent and top mantissa bits."""
    info = _finfo(dtype)
    bits = info.bits
    mant = info.nmant
    exp_bits = bits - 1 - mant
    word = (sign << (bits - 1)) | ((((1 << exp_bits) - 1) if exponent == "ones" else 0) << mant)
    word |= mantissa_top << (mant - 2)
    return np.array(word, dtype=f"u{bits // 8}").view(dtype)[()]


_LIMITS: dict[str, Callable[[np.dtype[Any]], Any]] = {
    "Max": lambda d: _finfo(d).max if d.kind in "fV" else np.iinfo(d).max,
    "Min": lambda d: _finfo(d).smallest_normal if d.kind in "fV" else np.iinfo(d).min,
    "Lowest": lambda d: _finfo(d).min if d.kind in "fV" else np.iinfo(d).min,
    "DeNormMin": lambda d: _finfo(d).smallest_subnormal,
    "Infinity": lambda d: _float_bits(d, 0, "ones", 0),
    "NegativeInfinity": lambda d: _float_bits(d, 1, "ones", 0),
    "QuietNaN": lambda d: _float_bits(d, 0, "ones", 0b10),
    "SignalingNaN": lambda d: _float_bits(d, 0, "ones", 0b01),
}
"""Each member's value as a function of the numpy dtype (the pages' bit tables)."""

_LIMIT_TYPES = ("int8_t", "uint8_t", "int16_t", "uint16_t", "half", "bfloat16_t", "int32_t",
                "uint32_t", "float")  # fmt: skip
_FLOAT_ONLY = ("DeNormMin", "Infinity", "NegativeInfinity", "QuietNaN", "SignalingNaN")


class _Limits:
    """``NumericLimits<T>``: the members for one dtype (see :class:`NumericLimits`)."""

    def __init__(self, dtype: type[Scalar]) -> None:
        self.dtype = dtype
        if dtype.cpp_name not in _LIMIT_TYPES:
            raise AscregTypeError(
                f"NumericLimits<{dtype.cpp_name}>: T must be one of {', '.join(_LIMIT_TYPES)}"
            )
        for member in _LIMITS:
            setattr(self, member, self._member(member))

    def _member(self, member: str) -> Callable[..., Any]:
        dtype = self.dtype
        call = f"NumericLimits<{dtype.cpp_name}>::{member}"
        if member in _FLOAT_ONLY and dtype.cpp_name not in ("half", "bfloat16_t", "float"):

            def refused(*args: Any) -> Any:
                raise AscregTypeError("T must be half, bfloat16_t or float", call=call)

            return refused

        def value() -> Any:
            return np.array(_LIMITS[member](dtype.np_dtype), dtype=dtype.np_dtype)[()]

        def limit(*args: Any) -> Any:
            _ascreg_call = call
            if not args:
                return value()
            if len(args) != 2:
                raise AscregTypeError("takes () for the scalar or (dst, count) for the vector form")
            dst, count = args
            if not isinstance(dst, LocalTensor) or dst._dtype() is not dtype:
                raise AscregTypeError(
                    f"dst must be a LocalTensor[{dtype.cpp_name}], got {dst!r:.60}"
                )
            from ascreg.basic._vector import Duplicate

            Duplicate(dst, value(), count)
            return None

        limit.__name__ = member
        return limit


def _untyped(member: str) -> Callable[..., Any]:
    """``NumericLimits.<member>`` without ``T``: the member exists, a call names the fix."""

    def member_without_type(*args: Any) -> Any:
        raise AscregTypeError(
            f"NumericLimits<T>::{member} needs T: write NumericLimits[T].{member}() (the C++ "
            f"NumericLimits<T>::{member}())",
            call=f"NumericLimits::{member}",
        )

    member_without_type.__name__ = member
    member_without_type.__doc__ = (
        f"``NumericLimits<T>::{member}``: call it as ``NumericLimits[T].{member}()``."
    )
    return member_without_type


class _NumericLimits:
    """``AscendC::NumericLimits<T>``: ``NumericLimits[float32_t].Max()`` and the vector forms.

    Members: ``Max``, ``Min`` (the smallest normal of a float type), ``Lowest``, ``DeNormMin``,
    ``Infinity``, ``NegativeInfinity``, ``QuietNaN``, ``SignalingNaN``, each with a scalar form
    ``M()`` and a vector form ``M(dst, count)`` that fills *count* elements (``Duplicate``).
    ``NumericLimits.M`` without ``T`` exists too (the documented member) but calling it is an
    error naming ``NumericLimits[T].M()``.

    Examples
    --------
    >>> from ascreg import bfloat16_t, float32_t, half, int32_t
    >>> int(NumericLimits[int32_t].Max()), float(NumericLimits[half].Lowest())
    (2147483647, -65504.0)
    >>> hex(NumericLimits[float32_t].SignalingNaN().view(np.uint32)), hex(NumericLimits[bfloat16_t].QuietNaN().view(np.uint16))
    ('0x7fa00000', '0x7fc0')
    """

    def __init__(self) -> None:
        self._made: dict[Any, _Limits] = {}
        self.__name__ = "NumericLimits"
        self.__module__ = "ascreg.basic"
        for member in _LIMITS:
            setattr(self, member, _untyped(member))

    def __getitem__(self, dtype: Any) -> _Limits:
        if not is_scalar_type(dtype):
            raise AscregTypeError(f"NumericLimits<T>: T must be a dtype, got {dtype!r:.40}")
        if dtype not in self._made:
            self._made[dtype] = _Limits(dtype)
        return self._made[dtype]

    def __repr__(self) -> str:
        return "NumericLimits"


NumericLimits = _NumericLimits()
"""``AscendC::NumericLimits<T>`` (see ``_NumericLimits``).

Examples
--------
>>> from ascreg import float32_t
>>> NumericLimits[float32_t].DeNormMin()
np.float32(1e-45)
"""

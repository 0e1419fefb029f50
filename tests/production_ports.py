"""Shared pieces of the production-kernel ports (``tests/production``).

Each port re-expresses one ``op_kernel/arch35/`` kernel of hicann/ops-nn or hicann/ops-math line
for line; this module holds what the ports share and the C++ does not spell:

* the host side: device buffers (:func:`to_device`, :func:`from_device`) and the launch;
* goldens: :func:`assert_ulp` (a float result within a few units in the last place of an
  independent float64 reference rounded to the output type) and exact comparison;
* stand-ins (:func:`stand_ins`) for spellings another helper of issue 25 is adding. A port is
  written exactly as the C++ spells it, and its ``as written`` test is marked
  ``xfail(strict=True)`` until those spellings land; its ``with stand-ins`` test runs the same
  code with each missing name supplied here (only where ascreg lacks it), so the port and its
  golden are checked today and the stand-ins name exactly what is missing.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, Reg, uint8_t
from ascreg._dtypes import Scalar, is_scalar_type
from ascreg._frontend.template import Template
from ascreg.basic import LocalTensor, Struct, TPosition, TQueBind
from ascreg.machine.block import current_block
from ascreg.machine.sync import Pipe
from ascreg.simt import __umulhi as _umulhi

# -- host side ------------------------------------------------------------------------------


def to_device(gm: GlobalMemory, array: np.ndarray[Any, Any], dtype: type[Scalar]) -> GmPtr[Any]:
    """A ``GM_ADDR`` (``__gm__ uint8_t*``) holding *array* as *dtype*."""
    ptr = gm.alloc(dtype, max(array.size, 1))
    ptr.write(np.asarray(array).reshape(-1).astype(dtype.np_dtype))
    return ptr.cast(uint8_t)


def empty_device(gm: GlobalMemory, count: int, dtype: type[Scalar], fill: Any = 0) -> GmPtr[Any]:
    """A ``GM_ADDR`` of *count* elements of *dtype*, each *fill*."""
    ptr = gm.alloc(dtype, max(count, 1))
    ptr.write(np.full(max(count, 1), fill, dtype=dtype.np_dtype))
    return ptr.cast(uint8_t)


def tiling_to_device(gm: GlobalMemory, tiling: Struct) -> GmPtr[Any]:
    """The host's copy of a tiling struct's bytes to GM: the kernel's ``GM_ADDR tiling``."""
    data = np.frombuffer(tiling.tobytes(), np.uint8)
    ptr = gm.alloc(uint8_t, data.size)
    ptr.write(data)
    return ptr


def from_device(ptr: GmPtr[Any], count: int, dtype: type[Scalar]) -> np.ndarray[Any, Any]:
    """*count* elements of *dtype* read back from a ``GM_ADDR``."""
    return ptr.cast(dtype).read(count).copy()


def ceil_div(a: int, b: int) -> int:
    """``(a + b - 1) / b`` of the host tiling code."""
    return -(-a // b)


def align_up(a: int, b: int) -> int:
    """*a* rounded up to a multiple of *b*."""
    return ceil_div(a, b) * b


class ClassTemplate:
    """``template <typename T> class C { ... };`` as ``C[T]``: a factory making the class for *T*.

    The port writes the C++ class body inside ``def C(T): class C: ...; return C`` so the body
    uses ``T`` as the C++ does; ``C[half]`` builds (once) and returns the class for ``half``.
    """

    def __init__(self, factory: Any) -> None:
        self._make = functools.cache(factory)  # (not a dict it writes: a kernel's host objects
        self.__name__ = factory.__name__  # stay unchanged, so its blocks may run as one group)

    def __getitem__(self, arguments: Any) -> Any:
        return self._make(*(arguments if isinstance(arguments, tuple) else (arguments,)))


def run_elementwise(
    compute: Any,
    x: np.ndarray[Any, Any],
    dtype: type[Scalar],
    *,
    tile: int,
    blocks: int = 2,
    out_dtype: Any = None,
) -> np.ndarray[Any, Any]:
    """Run an element-wise ``compute(dst, src, count)`` over *x* as a DAG schedule would.

    Stands in for the operator base library's ``DAGSch`` (not public) around a ``*Custom``
    struct of a ``*_dag.h``: each of *blocks* blocks takes a contiguous share of *x*, copies it
    in *tile*-element pieces into a VECIN queue (``DataCopyPad``), calls *compute* on a VECOUT
    tensor and copies the result out. The result's element type is *out_dtype* (default:
    *dtype*), as for the ``*Custom<T, U>`` structs whose output type differs.
    """
    from ascreg.basic import (
        DataCopyExtParams,
        DataCopyPad,
        GetBlockIdx,
        GlobalTensor,
        TPipe,
        TQue,
    )
    from ascreg.machine.kernel import __aicore__, __global__

    n = x.size
    out_t = out_dtype or dtype
    share = align_up(ceil_div(n, blocks), 256 // dtype.size)

    @__global__
    @__aicore__
    def elementwise(xGm: GmPtr[uint8_t], yGm: GmPtr[uint8_t]) -> None:
        pipe = TPipe()
        inQue, outQue = TQue[TPosition.VECIN, 1](), TQue[TPosition.VECOUT, 1]()
        pipe.InitBuffer(inQue, 1, tile * dtype.size)
        pipe.InitBuffer(outQue, 1, tile * out_t.size)
        src, dst = GlobalTensor[dtype](), GlobalTensor[out_t]()
        src.SetGlobalBuffer(xGm.cast(dtype))
        dst.SetGlobalBuffer(yGm.cast(out_t))
        start = GetBlockIdx() * share
        end = min(start + share, n)
        for offset in range(start, end, tile):
            count = min(tile, end - offset)
            params = DataCopyExtParams(1, count * dtype.size, 0, 0, 0)
            xLocal = inQue.AllocTensor[dtype]()
            DataCopyPad(xLocal, src[offset], params, (False, 0, 0, 0))
            inQue.EnQue(xLocal)
            xLocal = inQue.DeQue[dtype]()
            yLocal = outQue.AllocTensor[out_t]()
            compute(yLocal, xLocal, count)
            outQue.EnQue(yLocal)
            inQue.FreeTensor(xLocal)
            yLocal = outQue.DeQue[out_t]()
            DataCopyPad(dst[offset], yLocal, DataCopyExtParams(1, count * out_t.size, 0, 0, 0))
            outQue.FreeTensor(yLocal)

    gm = GlobalMemory()
    xDevice, yDevice = to_device(gm, x, dtype), empty_device(gm, n, out_t, np.nan)
    elementwise[ceil_div(n, share), 0, None](xDevice, yDevice)
    return from_device(yDevice, n, out_t)


class _OpBase:
    """The operator base library's helpers (``Ops::Base::``, ``ops::``, ``platform::``).

    Not AscendC and not in the operator repositories (the kernels include
    ``op_kernel/platform_util.h`` from it): the ports take them from here, re-expressed from
    their names and uses. ``GetVRegSize`` and ``GetUbBlockSize`` are the dav-3510 sizes.
    """

    @staticmethod
    def GetVRegSize() -> int:
        return 256

    @staticmethod
    def GetUbBlockSize() -> int:
        return 32

    @staticmethod
    def CeilDiv(a: Any, b: Any) -> Any:
        return type(a)((int(a) + int(b) - 1) // int(b)) if int(b) else type(a)(0)

    @staticmethod
    def FloorDiv(a: Any, b: Any) -> Any:
        return type(a)(int(a) // int(b)) if int(b) else type(a)(0)

    @staticmethod
    def CeilAlign(a: Any, b: Any) -> Any:
        return type(a)(-(-int(a) // int(b)) * int(b)) if int(b) else type(a)(0)

    Aligned = CeilAlign


ops = platform = _OpBase()
"""``ops::CeilDiv``, ``platform::GetUbBlockSize``: see :class:`_OpBase`."""


class Ops:
    """``Ops::`` of the operator base library: ``Ops::Base::CeilDiv`` is ``Ops.Base.CeilDiv``."""

    Base = ops


GetVRegSize, GetUbBlockSize = _OpBase.GetVRegSize, _OpBase.GetUbBlockSize


# -- goldens --------------------------------------------------------------------------------


def rounded(golden: np.ndarray[Any, Any], dtype: type[Scalar]) -> np.ndarray[Any, Any]:
    """A float64 reference rounded to *dtype* (half and float directly; bfloat16 via ml_dtypes)."""
    return np.asarray(golden, dtype=np.float64).astype(dtype.np_dtype)


def _ordered(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Map floats to integers that count representable values (so ulps are differences)."""
    width = values.dtype.itemsize * 8
    bits = values.view({16: np.int16, 32: np.int32, 64: np.int64}[width]).astype(np.int64)
    return np.where(bits < 0, -(bits & ((1 << (width - 1)) - 1)), bits)


def ulp_distance(out: np.ndarray[Any, Any], golden: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Units in the last place between two arrays of the same float dtype (NaN pairs: 0)."""
    out, golden = np.asarray(out), np.asarray(golden)
    assert out.dtype == golden.dtype, (out.dtype, golden.dtype)
    distance = np.abs(_ordered(out) - _ordered(golden))
    both_nan = np.isnan(out.astype(np.float64)) & np.isnan(golden.astype(np.float64))
    return np.where(both_nan, 0, distance)


def assert_ulp(
    out: np.ndarray[Any, Any], golden: np.ndarray[Any, Any], ulps: Any, *, atol: float = 0.0
) -> None:
    """Fail unless every element of *out* is within *ulps* (a number, or one per element) of
    *golden* (same dtype), or within *atol* of it (for results the output type can only hold as
    subnormals)."""
    distance = ulp_distance(out, golden)
    with np.errstate(invalid="ignore"):  # inf - inf: equal infinities are 0 ulp apart anyway
        near = np.abs(out.astype(np.float64) - golden.astype(np.float64)) <= atol
    distance = (np.where(near, 0, distance) - np.broadcast_to(ulps, distance.shape)).reshape(-1)
    worst = int(np.argmax(distance)) if distance.size else 0
    assert distance.size == 0 or distance[worst] <= 0, (
        f"element {worst}: {out.reshape(-1)[worst]!r} vs golden {golden.reshape(-1)[worst]!r} "
        f"({int(distance[worst])} ulp past the tolerance); {int(np.count_nonzero(distance > 0))} "
        f"of {distance.size} elements off"
    )


# -- stand-ins for what other helpers add ---------------------------------------------------


class _VecScope:
    """``__VEC_SCOPE__ { ... }``: its body runs on PIPE_V as a VF does (stand-in: glue)."""

    def __enter__(self) -> None:
        ctx = current_block()
        ctx.tracker.complete(Pipe.PIPE_S, Pipe.PIPE_V)
        self._saved = ctx.in_simd_vf, ctx.pipe
        ctx.mem_bar()
        ctx.in_simd_vf, ctx.pipe = True, Pipe.PIPE_V

    def __exit__(self, *exc: object) -> None:
        ctx = current_block()
        ctx.in_simd_vf, ctx.pipe = self._saved
        ctx.mem_bar()
        ctx.tracker.complete(Pipe.PIPE_V, Pipe.PIPE_S)


class _FullTemplate:
    """A Reg op that also takes the C++'s full template list (stand-in: spell).

    ``Muls<T, U, mode>``, ``Adds<T, U, mode>``, ``Duplicate<T, mode, U>``: when ascreg refuses
    the full list, the op is subscripted with its first dtype and its enum arguments only (the
    other dtypes are the scalar's, which the call deduces).
    """

    def __init__(self, op: Any) -> None:
        self._op = op

    def __getitem__(self, items: Any) -> Any:
        try:
            return self._op[items]
        except Exception:
            items = items if isinstance(items, tuple) else (items,)
            dtypes = [i for i in items if is_scalar_type(i)]
            others = [i for i in items if not is_scalar_type(i)]
            kept = (*dtypes[:1], *others)
            return self._op[kept if len(kept) != 1 else kept[0]]

    def __call__(self, *args: Any) -> Any:
        return self._op(*args)


class _RegNamespace:
    """``MicroAPI`` / ``Reg`` whose ops take the full template lists (stand-in: spell)."""

    def __getattr__(self, name: str) -> Any:
        found = getattr(Reg, name)
        return _FullTemplate(found) if isinstance(found, Template) else found


VECTOR_REG_WIDTH = 256
"""``AscendC::VECTOR_REG_WIDTH``: the vector register's bytes on dav-3510 (stand-in: glue)."""


class _TemplateMethod:
    """A member template called ``obj.Method[T](...)`` (stand-in: glue).

    ``EnQue<T>(t)`` and ``FreeTensor<T>(t)`` deduce ``T`` from the tensor (the subscript is
    dropped); ``ReinterpretCast<U>()`` passes ``U`` to ascreg's ``ReinterpretCast(U)``.
    """

    def __init__(self, method: Any, *, passes_type: bool) -> None:
        self._method, self._passes_type = method, passes_type

    def __get__(self, obj: Any, owner: type) -> Any:
        bound = self._method.__get__(obj, owner)
        passes_type = self._passes_type

        class Bound:
            def __call__(self, *args: Any) -> Any:
                return bound(*args)

            def __getitem__(self, dtype: Any) -> Any:
                return (lambda *args: bound(dtype, *args)) if passes_type else bound

        return Bound()


TEMPLATE_METHODS = (
    (TQueBind, "EnQue", False),
    (TQueBind, "FreeTensor", False),
    (LocalTensor, "ReinterpretCast", True),
)
"""(class, member template, whether the subscript's type is an argument of ascreg's call)."""


STAND_INS: dict[str, tuple[Any, str]] = {
    "QuePosition": (TPosition, "glue: QuePosition, the alias of TPosition"),
    "VECTOR_REG_WIDTH": (VECTOR_REG_WIDTH, "glue: kernel constants"),
    "__VEC_SCOPE__": (_VecScope(), "glue: __VEC_SCOPE__"),
}
"""name -> (its stand-in, who adds it)."""


def GetUintDivMagicAndShift(magic: Any, shift: Any, divisor: Any) -> None:
    """``GetUintDivMagicAndShift<T>(magic, shift, divisor)`` for ``uint32_t`` (stand-in: spell).

    The asc-devkit's 950 formula: ``shift`` is the divisor's bit length (less one for a power
    of two), ``magic = 2^32 * (2^shift - divisor) / divisor + 1`` in ``T``.
    """
    dtype = type(magic.value)
    d = int(divisor)
    pos = d.bit_length()
    s = pos - 1 if d & (d - 1) == 0 else pos
    shift.value = dtype(s)
    magic.value = dtype(((1 << 32) * ((1 << s) - d) // d + 1) & 0xFFFFFFFF)


class _Simt:
    """``Simt::`` (stand-in: spell): ``Simt::UintDiv(dividend, magic, shift)`` for ``uint32_t``:
    ``(dividend + __umulhi(dividend, magic)) >> shift``, the sum wrapping in ``T``."""

    @staticmethod
    def UintDiv(dividend: Any, magic: Any, shift: Any) -> Any:
        dividend = type(magic)(dividend)  # C++: all three are T (a range() loop gives int64)
        return (dividend + _umulhi(dividend, magic)) >> shift


class _RegisterCast:
    """``(RegTensor<U>&)reg`` written ``RegTensor[U](reg)`` (stand-in: spell).

    Where ascreg does not take a register in ``RegTensor[U](...)`` yet, the stand-in makes a
    ``U`` register holding a copy of *reg*'s bytes: right where the cast register is only read
    (an operand), not where it is written (spell's casts share the lanes).
    """

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getitem__(self, items: Any) -> Any:
        made = self._real[items]

        def build(*args: Any) -> Any:
            if not args:
                return made()
            try:
                return made(*args)
            except Exception:
                (source,) = args
                register = made()
                register.set(np.asarray(source).view(register.dtype.np_dtype))
                return register

        return build


SIMT_STAND_INS = {
    "Simt": _Simt(),
    "GetUintDivMagicAndShift": GetUintDivMagicAndShift,
}
"""The SIMT kernels' stand-ins: ``Simt::UintDiv``, ``GetUintDivMagicAndShift`` (spell)."""


@contextlib.contextmanager
def tail_over_read() -> Iterator[None]:
    """Let a read run past its allocation while it stays inside UB (stand-in: fixes).

    The chip loads whatever the bytes hold; kernels load whole registers past a tile's end and
    mask the lanes off. Writes past an allocation stay errors. The bytes past the allocation are
    not reported to the pipe/ordering checks (their lanes are never used: a kernel may have
    stored them earlier in the same VF). (The fixes helper's policy also tracks the undefined
    lanes; this stand-in only lets the read through.)
    """
    from ascreg.errors import OutOfBoundsError
    from ascreg.machine.memory import Memory

    original = Memory.check

    def check(self: Memory, ptr: Any, nbytes: int, action: str) -> int:
        try:
            return original(self, ptr, nbytes, action)
        except OutOfBoundsError:
            start, end = ptr.address, ptr.address + nbytes
            block = ptr.block
            if not action.startswith("read") or block is None or not block.live:
                raise
            if start < block.start or end > self.capacity or "ubuf" not in self.space:
                raise
            if end > self.data.size:
                self._grow(end)
            if self.on_access is not None:  # the bytes past the allocation feed no used lane
                self.on_access(start, min(end, block.end), action)
            return int(start)

    Memory.check = check  # type: ignore[method-assign]
    try:
        yield
    finally:
        Memory.check = original  # type: ignore[method-assign]


@contextlib.contextmanager
def stand_ins(
    namespace: dict[str, Any],
    *,
    reg_names: tuple[str, ...] = (),
    extra: dict[str, Any] | None = None,
) -> Iterator[list[str]]:
    """Supply, in a port module's *namespace*, each :data:`STAND_INS` name it lacks.

    *reg_names* are the module's names for the Reg namespace (``MicroAPI``): for the run they
    take the full C++ template lists (:class:`_FullTemplate`). *extra* are the port's own
    stand-ins (:data:`SIMT_STAND_INS`, ...), also supplied only where missing. Yields the names
    supplied.
    """
    table = {**{name: value for name, (value, _) in STAND_INS.items()}, **(extra or {})}
    supplied = [name for name in table if name not in namespace]
    saved = {name: namespace[name] for name in reg_names}
    methods = [
        (cls, name, cls.__dict__[name])
        for cls, name, _ in TEMPLATE_METHODS
        if name in cls.__dict__
        and not hasattr(cls.__dict__[name], "__getitem__")
        and not isinstance(cls.__dict__[name], _TemplateMethod)
    ]
    for name in supplied:
        namespace[name] = table[name]
    for name in reg_names:
        namespace[name] = _RegNamespace()
    for cls, name, method in methods:
        passes = next(p for c, n, p in TEMPLATE_METHODS if c is cls and n == name)
        setattr(cls, name, _TemplateMethod(method, passes_type=passes))
    try:
        yield supplied + [f"{cls.__name__}.{name}[T]" for cls, name, _ in methods]
    finally:
        for name in supplied:
            del namespace[name]
        namespace.update(saved)
        for cls, name, method in methods:
            setattr(cls, name, method)

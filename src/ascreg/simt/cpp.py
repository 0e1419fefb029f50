"""``AscendC::Simt``: the C++ SIMT namespace production kernels use, as ``ascreg.simt.Simt``.

``Simt::UintDiv<T>(dividend, magic, shift)`` divides by a run-time constant through the magic
number ``GetUintDivMagicAndShift`` prepared (:mod:`ascreg.core.uintdiv`, bit-exact with the
header's formula); ``Simt::Dim3`` is ``dim3``; ``Simt::VF_CALL<f>(Dim3(n), args...)`` starts the
SIMT VF ``f`` on ``n`` threads, as ``asc_vf_call<f>(dim3(n), args...)`` does. Template arguments
are subscripts: ``Simt.UintDiv[uint32_t](n, magic, shift)``, ``Simt.VF_CALL[f](Simt.Dim3(256),
...)``. The other functions the ``Simt`` headers declare (``Simt::Abs``, ``Simt::AtomicAdd`` ...)
are not provided: naming one raises :class:`~ascreg.errors.MissingApiError`.

Examples
--------
>>> import numpy as np
>>> from ascreg import Ref, uint32_t
>>> from ascreg.basic import GetUintDivMagicAndShift
>>> from ascreg.simt import Simt
>>> magic, shift = Ref(uint32_t(0)), Ref(uint32_t(0))
>>> GetUintDivMagicAndShift(magic, shift, uint32_t(12))
>>> Simt.UintDiv(np.uint32(100), magic.value, shift.value)
np.uint32(8)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, uint32_t, uint64_t
from ascreg._frontend import operands
from ascreg.core.uintdiv import uint_div
from ascreg.errors import AscregTypeError, MissingApiError
from ascreg.machine.kernel import asc_vf_call
from ascreg.machine.simt.engine import dim3
from ascreg.machine.simt.lanes import apply_lanewise

__all__ = ["VF_CALL", "Dim3", "UintDiv"]

Dim3 = dim3
"""``AscendC::Simt::Dim3`` (``cce::dim3``): the thread counts of a SIMT VF, ``Dim3(1024)``.

Examples
--------
>>> Dim3(256).x, Dim3(8, 4).y
(256, 4)
"""

_WIDTHS = {uint32_t: 32, uint64_t: 64}
_BY_NUMPY = {np.dtype(np.uint32): uint32_t, np.dtype(np.uint64): uint64_t}
_ROLES = ("dividend", "magic", "shift")


def _deduce(values: tuple[Any, ...]) -> type[Scalar]:
    """Return the ``T`` C++ deduces from the typed arguments (all must agree)."""
    found: set[Any] = set()
    for name, value in zip(_ROLES, values, strict=True):
        array = operands.c_integer("Simt::UintDiv", name, value)
        if not isinstance(array, int):
            found.add(array.dtype)
    if len(found) != 1:
        what = "no argument has a type" if not found else f"they have {sorted(map(str, found))}"
        raise AscregTypeError(
            f"cannot deduce T from (dividend, magic, shift): {what}; write "
            "Simt.UintDiv[uint32_t](...) or pass uint32_t / uint64_t values",
            call="Simt::UintDiv",
        )
    (kind,) = found
    if kind not in _BY_NUMPY:
        raise AscregTypeError(
            f"T is {kind}: UintDiv takes uint32_t or uint64_t (C++: static_assert 'Input type T "
            "only supports uint32_t, uint64_t.')",
            call="Simt::UintDiv",
        )
    return _BY_NUMPY[kind]


class _UintDiv:
    """``AscendC::Simt::UintDiv<T>(dividend, magic, shift)``: the quotient by a prepared divisor.

    ``T`` is ``uint32_t`` or ``uint64_t``, written (``UintDiv[uint32_t](...)``) or deduced from the
    arguments' types. The result is the header's ``(dividend + mulhi(dividend, magic)) >> shift``
    with the sum wrapping in ``T``: the quotient for dividends below ``2**31`` (``2**63``), what the
    chip gives above (:mod:`ascreg.core.uintdiv`). Per-thread arguments give one value per thread.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint32_t
    >>> int(UintDiv[uint32_t](1000, 613566757, 3))  # magic and shift of 7
    142
    """

    def __getitem__(self, dtype: Any) -> Callable[[Any, Any, Any], Any]:
        if dtype not in _WIDTHS:
            raise AscregTypeError(
                f"T must be uint32_t or uint64_t, got {dtype!r}", call="Simt::UintDiv"
            )
        return lambda dividend, magic, shift: self._run(dtype, (dividend, magic, shift))

    def __call__(self, dividend: Any, magic: Any, shift: Any) -> Any:
        values = (dividend, magic, shift)
        return self._run(_deduce(values), values)

    def _run(self, dtype: type[Scalar], values: tuple[Any, ...]) -> Any:
        _ascreg_call = f"Simt::UintDiv<{dtype.cpp_name}>"
        target = dtype.np_dtype
        args = [operands.c_integer(_ascreg_call, n, v) for n, v in zip(_ROLES, values, strict=True)]
        converted = [operands.c_convert(a, target) for a in args]
        bits = _WIDTHS[dtype]
        return apply_lanewise(values, converted, lambda n, m, s: uint_div(n, m, s, bits))

    def __repr__(self) -> str:
        return "Simt::UintDiv"


UintDiv = _UintDiv()


class _VfCall:
    """``AscendC::Simt::VF_CALL<f>(Simt::Dim3(n), args...)``: ``asc_vf_call[f](dim3(n), args...)``.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.simt import __simt_vf__, threadIdx
    >>> @__simt_vf__
    ... def count(out) -> None:
    ...     if threadIdx.x == 0:
    ...         out[0] = 7
    >>> import numpy as np
    >>> out = np.zeros(1, np.int32)
    >>> with block(BlockContext()):
    ...     VF_CALL[count](Dim3(32), out)
    >>> int(out[0])
    7
    """

    def __getitem__(self, func: Callable[..., Any]) -> Callable[..., None]:
        start = asc_vf_call[func]

        def call(threads: Any, *args: Any) -> None:
            _ascreg_call = f"Simt::VF_CALL<{getattr(func, '__name__', func)}>"
            if not isinstance(threads, dim3):
                raise AscregTypeError(
                    f"the first argument is the thread count Simt::Dim3(n), got {threads!r}"
                )
            start(threads, *args)

        return call

    def __repr__(self) -> str:
        return "Simt::VF_CALL"


VF_CALL = _VfCall()
"""``AscendC::Simt::VF_CALL<f>(Simt::Dim3(n), args...)``, written ``VF_CALL[f](Dim3(n), args...)``:
start the SIMT VF ``f`` on ``n`` threads, as ``asc_vf_call[f](dim3(n), args...)`` does."""

_DECLARED = frozenset(
    [
        "Abs",
        "Acos",
        "Acosh",
        "Asin",
        "Asinh",
        "Atan",
        "Atan2",
        "Atanh",
        "AtomicAdd",
        "AtomicAnd",
        "AtomicCas",
        "AtomicDec",
        "AtomicExch",
        "AtomicInc",
        "AtomicMax",
        "AtomicMin",
        "AtomicOr",
        "AtomicSub",
        "AtomicXor",
        "Brev",
        "BytePerm",
        "Cast",
        "Cbrt",
        "Ceil",
        "Clz",
        "CopySign",
        "Cos",
        "Cosh",
        "Cospi",
        "CylBesselI0",
        "CylBesselI1",
        "Erf",
        "Erfc",
        "Erfcinv",
        "Erfcx",
        "Erfinv",
        "Exp",
        "Exp10",
        "Exp2",
        "Expm1",
        "Fdim",
        "Ffs",
        "Floor",
        "Fma",
        "Frexp",
        "GetBlockIdx",
        "GetBlockNum",
        "GetThreadIdx",
        "GetThreadNum",
        "GetWarpSize",
        "Hypot",
        "Ilogb",
        "IsFinite",
        "IsInf",
        "IsNan",
        "J0",
        "J1",
        "Jn",
        "Ldexp",
        "Lgamma",
        "Log",
        "Log10",
        "Log1p",
        "Log2",
        "Logb",
        "Max",
        "Min",
        "Mod",
        "MulHi",
        "NearbyInt",
        "NextAfter",
        "Norm",
        "Norm3d",
        "Norm4d",
        "Normcdf",
        "PRINTF",
        "Popc",
        "Pow",
        "Rcbrt",
        "RemQuo",
        "Remainder",
        "Rhypot",
        "Rint",
        "Rnorm",
        "Rnorm3d",
        "Rnorm4d",
        "Round",
        "Rsqrt",
        "ScaLbn",
        "Sin",
        "Sincos",
        "Sincospi",
        "Sinh",
        "Sinpi",
        "Sqrt",
        "Tan",
        "Tanh",
        "Tanpi",
        "Tgamma",
        "ThreadBarrier",
        "ThreadFence",
        "Trunc",
        "Uni",
        "WarpActiveMask",
        "WarpAllSync",
        "WarpAnySync",
        "WarpBallotSync",
        "WarpReduceAddSync",
        "WarpReduceMaxSync",
        "WarpReduceMinSync",
        "WarpShflDownSync",
        "WarpShflSync",
        "WarpShflUpSync",
        "WarpShflXorSync",
        "Y0",
        "Y1",
        "Yn",
    ]
)
"""The other functions the ``Simt`` headers (include/simt_api/cpp/kernel_simt_*_intf.h) declare."""


def __getattr__(name: str) -> Any:
    if name in _DECLARED:
        error = MissingApiError(
            f"Simt::{name} is declared by the asc-devkit's Simt headers but ascreg does not "
            "emulate it yet; the C SIMT functions of ascreg.simt (see docs/limitations.md) "
            "cover most of them",
            call="",
        )
        error.name, error.obj = name, __name__
        raise error
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name, obj=__name__)

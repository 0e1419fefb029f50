"""The SIMT integer device functions under their C names (``__byte_perm``, ``__clz``, ``umax`` ...).

Each function accepts Python ints, numpy integer scalars and numpy integer arrays (including the
per-thread :class:`~ascreg.simt.Lanes` values of a running kernel) and computes every lane
bit-exactly through :mod:`ascreg.simt._core`.

How an argument becomes the C parameter type (the overload rule)
-----------------------------------------------------------------
* **Overload width** (``__clz(int)`` vs ``__clz(long long)``, ``__popc(unsigned)`` vs
  ``__popc(unsigned long long)``, ``max(short, short)`` ...): the narrowest overload at least as
  wide as every numpy argument's dtype. A Python int counts as 32-bit (C ``int``) when it fits the
  32-bit parameter type and as 64-bit when it only fits the 64-bit one; a Python int that fits
  neither is an error, so ``__popc(-1)`` must be written ``__popc(0xFFFFFFFF)``.
* **Overload signedness** (only ``__mul_i32toi64`` and ``max``/``min`` have both at one width): the
  signedness of the numpy arguments; mixing signed and unsigned arrays is an error (C++ would
  report an ambiguous call); Python ints alone pick the signed overload if they fit it.
* **Conversion** to the chosen parameter type follows C: a same-width dtype of the other
  signedness is reinterpreted (``int32`` -1 passed as ``unsigned`` is 0xFFFFFFFF), a narrower dtype
  is widened by value; a wider dtype, a float, or a Python int outside the parameter's range is
  an :class:`~ascreg.errors.AscregTypeError` naming the call, the argument and the rule — ascreg
  never truncates silently and never lets numpy's promotion choose a width.
* **Overloads** are the combinations of the function's row in :data:`ascreg._spec.SPECS`
  (``__clz``: ``(int32_t,)``, ``(int64_t,)``); the same rows give the typing stubs and the docs'
  dtype tables.
* **Result**: an array of the C return type (a ``Lanes`` array if any argument was one), or a
  numpy scalar when every argument was a scalar.

Examples
--------
>>> from ascreg.simt import __byte_perm, __clz, __popc
>>> int(__byte_perm(1, 1, 1)), int(__clz(1)), int(__clz(2**40)), int(__popc(0xFFFFFFFF))
(16843008, 31, 23, 32)
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ascreg._dtypes import (
    Scalar,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec import SIMT_INT_ROWS, SPECS
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.simt.lanes import STATE, apply_lanewise
from ascreg.simt import _core

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


def overloads_of(name: str) -> tuple[tuple[str, ...], tuple[Signature, ...]]:
    """Return the parameter names and the C overloads of the table row *name* (``SPECS[name]``).

    Examples
    --------
    >>> names, sigs = overloads_of("__clz")
    >>> names, [sig.text(names) for sig in sigs]
    (('x',), ['(int x)', '(long long x)'])
    """
    spec = SPECS[name]
    return spec.roles, tuple(Signature(*combo) for combo in spec.combos)


_OVERLOADS = {name: overloads_of(name) for name in SIMT_INT_ROWS}


def _fits(value: int, dtype: np.dtype[Any]) -> bool:
    info = np.iinfo(dtype)
    return int(info.min) <= value <= int(info.max)


def _classify(call: str, name: str, value: Any) -> int | Arr:
    """Return a Python int, or the argument as a numpy integer array (0-d for scalars)."""
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


def _choose(
    call: str, names: Sequence[str], args: list[int | Arr], overloads: Sequence[Signature]
) -> Signature:
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


def _convert(arg: int | Arr, dtype: np.dtype[Any]) -> Arr:
    if isinstance(arg, int):
        return np.asarray(arg, dtype=dtype)
    if arg.dtype == dtype:
        return arg
    if arg.dtype.itemsize == dtype.itemsize and arg.dtype.kind != "b":
        return arg.view(dtype)  # C's same-width conversion: reinterpret modulo 2**N
    return arg.astype(dtype)  # widening (C integer promotion / conversion)


def _apply(call: str, values: Sequence[Any], impl: Callable[..., Any]) -> Any:
    """Resolve *call*'s overload (its table row), convert the arguments, run *impl*, shape."""
    names, overloads = _OVERLOADS[call]
    args = [_classify(call, n, v) for n, v in zip(names, values, strict=True)]
    sig = _choose(call, names, args, overloads)
    converted = [_convert(a, d) for a, d in zip(args, sig.dtypes, strict=True)]
    return apply_lanewise(values, converted, impl)


def __byte_perm(x: Any, y: Any, s: Any) -> Any:
    """``unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)``.

    Byte n of the result is byte ``(s >> 4n) & 7`` of the 64-bit value ``(y << 32) | x``; bit 3
    of each selector nibble and bits 16-31 of ``s`` are ignored. Not available in pure SIMT
    kernels (the documentation's restriction): only in ``__simt_vf__`` functions and host code.

    Examples
    --------
    >>> int(__byte_perm(0, 0, 0)), int(__byte_perm(1, 1, 1))
    (0, 16843008)
    >>> hex(int(__byte_perm(0x33221100, 0x77665544, 0xFFFF_8888)))  # bit 3 ignored: 0x0000
    '0x0'
    """
    _ascreg_call = "__byte_perm"
    group = STATE.group
    if group is not None and group.pure_simt:
        raise UnsupportedError(
            "__byte_perm is not supported in pure SIMT programs (documented restriction); call "
            "it from a __simt_vf__ function started with asc_vf_call[f](dim3(n), ...)",
            call=_ascreg_call,
        )
    return _apply(_ascreg_call, (x, y, s), _core.byte_perm)


def __mulhi(x: Any, y: Any) -> Any:
    """``int __mulhi(int x, int y)``: high 32 bits of the 64-bit product.

    Examples
    --------
    >>> int(__mulhi(-2**31, -2**31)), int(__mulhi(-1, 1))
    (1073741824, -1)
    """
    _ascreg_call = "__mulhi"
    return _apply(_ascreg_call, (x, y), _core.mulhi)


def __umulhi(x: Any, y: Any) -> Any:
    """``unsigned int __umulhi(unsigned int x, unsigned int y)``: high 32 bits of the product.

    Examples
    --------
    >>> int(__umulhi(0xFFFFFFFF, 2))
    1
    """
    _ascreg_call = "__umulhi"
    return _apply(_ascreg_call, (x, y), _core.umulhi)


def __mul64hi(x: Any, y: Any) -> Any:
    """``long long __mul64hi(long long x, long long y)``: high 64 bits of the 128-bit product.

    Examples
    --------
    >>> int(__mul64hi(-2**63, -2**63))
    4611686018427387904
    """
    _ascreg_call = "__mul64hi"
    return _apply(_ascreg_call, (x, y), _core.mul64hi)


def __umul64hi(x: Any, y: Any) -> Any:
    """``unsigned long long __umul64hi(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(__umul64hi(2**64 - 1, 2**64 - 1))
    18446744073709551614
    """
    _ascreg_call = "__umul64hi"
    return _apply(_ascreg_call, (x, y), _core.umul64hi)


def __mul_i32toi64(x: Any, y: Any) -> Any:
    """``long long __mul_i32toi64(int, int)`` / ``unsigned long long (unsigned, unsigned)``.

    The full 64-bit product; the overload follows the signedness of the arguments.

    Examples
    --------
    >>> import numpy as np
    >>> int(__mul_i32toi64(-3, 5)), int(__mul_i32toi64(np.uint32(2**32 - 1), np.uint32(2)))
    (-15, 8589934590)
    """
    _ascreg_call = "__mul_i32toi64"
    return _apply(_ascreg_call, (x, y), _core.mul_i32toi64)


def __brev(x: Any) -> Any:
    """``unsigned int __brev(unsigned int x)`` / ``unsigned long long __brev(unsigned long long)``.

    Examples
    --------
    >>> int(__brev(1)), int(__brev(123)), int(__brev(2**32))
    (2147483648, 3724541952, 2147483648)
    """
    _ascreg_call = "__brev"
    return _apply(_ascreg_call, (x,), _core.brev)


def __clz(x: Any) -> Any:
    """``int __clz(int x)`` / ``int __clz(long long x)``: count leading zero bits.

    Examples
    --------
    >>> import numpy as np
    >>> int(__clz(0)), int(__clz(np.int64(0))), int(__clz(-1))
    (32, 64, 0)
    """
    _ascreg_call = "__clz"
    return _apply(_ascreg_call, (x,), _core.clz)


def __ffs(x: Any) -> Any:
    """``int __ffs(int x)`` / ``int __ffs(long long x)``: 1-based lowest set bit, 0 if none.

    Examples
    --------
    >>> import numpy as np
    >>> int(__ffs(0)), int(__ffs(123)), int(__ffs(np.uint32(3724541952))), int(__ffs(2**40))
    (0, 1, 26, 41)
    """
    _ascreg_call = "__ffs"
    return _apply(_ascreg_call, (x,), _core.ffs)


def __popc(x: Any) -> Any:
    """``int __popc(unsigned int x)`` / ``int __popc(unsigned long long x)``: count set bits.

    Examples
    --------
    >>> import numpy as np
    >>> int(__popc(0xFFFFFFFF)), int(__popc(np.int64(-1)))
    (32, 64)
    """
    _ascreg_call = "__popc"
    return _apply(_ascreg_call, (x,), _core.popc)


def __sad(x: Any, y: Any, z: Any) -> Any:
    """``unsigned int __sad(int x, int y, unsigned int z)``: ``|x - y| + z`` (mod 2**32).

    Examples
    --------
    >>> int(__sad(-5, 5, 1)), int(__sad(-2**31, 2**31 - 1, 0))
    (11, 4294967295)
    """
    _ascreg_call = "__sad"
    return _apply(_ascreg_call, (x, y, z), _core.sad)


def __usad(x: Any, y: Any, z: Any) -> Any:
    """``unsigned int __usad(unsigned int x, unsigned int y, unsigned int z)``: ``|x - y| + z``.

    Examples
    --------
    >>> int(__usad(0, 0xFFFFFFFF, 1))
    0
    """
    _ascreg_call = "__usad"
    return _apply(_ascreg_call, (x, y, z), _core.sad)


def __mul24(x: Any, y: Any) -> Any:
    """``int __mul24(int x, int y)``: low 32 bits of the product of the signed low 24 bits.

    Examples
    --------
    >>> int(__mul24(0x7FFFFF, 0x7FFFFF)), int(__mul24(0x01000003, 2))
    (-16777215, 6)
    """
    _ascreg_call = "__mul24"
    return _apply(_ascreg_call, (x, y), _core.mul24)


def __umul24(x: Any, y: Any) -> Any:
    """``unsigned int __umul24(unsigned int x, unsigned int y)``: low 32 bits of the 24-bit product.

    Examples
    --------
    >>> int(__umul24(0xFFFFFFFF, 0xFFFFFFFF))
    4261412865
    """
    _ascreg_call = "__umul24"
    return _apply(_ascreg_call, (x, y), _core.mul24)


def _halving(call: str, x: Any, y: Any, round_up: bool) -> Any:
    def impl(a: Arr, b: Arr) -> Arr:
        return _core.halving_add(a, b, round_up=round_up)

    return _apply(call, (x, y), impl)


def __hadd(x: Any, y: Any) -> Any:
    """``int __hadd(int x, int y)``: ``floor((x + y) / 2)`` without overflow.

    Examples
    --------
    >>> int(__hadd(2**31 - 1, 2**31 - 1)), int(__hadd(-1, 0))
    (2147483647, -1)
    """
    _ascreg_call = "__hadd"
    return _halving(_ascreg_call, x, y, False)


def __rhadd(x: Any, y: Any) -> Any:
    """``int __rhadd(int x, int y)``: ``ceil((x + y) / 2)`` without overflow.

    Examples
    --------
    >>> int(__rhadd(-1, 0)), int(__rhadd(1, 2))
    (0, 2)
    """
    _ascreg_call = "__rhadd"
    return _halving(_ascreg_call, x, y, True)


def __uhadd(x: Any, y: Any) -> Any:
    """``unsigned int __uhadd(unsigned int x, unsigned int y)``: floor of the average.

    Examples
    --------
    >>> int(__uhadd(0xFFFFFFFF, 0xFFFFFFFE))
    4294967294
    """
    _ascreg_call = "__uhadd"
    return _halving(_ascreg_call, x, y, False)


def __urhadd(x: Any, y: Any) -> Any:
    """``unsigned int __urhadd(unsigned int x, unsigned int y)``: ceiling of the average.

    Examples
    --------
    >>> int(__urhadd(0xFFFFFFFF, 0xFFFFFFFE))
    4294967295
    """
    _ascreg_call = "__urhadd"
    return _halving(_ascreg_call, x, y, True)


def max(x: Any, y: Any) -> Any:
    """``max`` for (unsigned) char/short/int/long long: the larger of x and y.

    Examples
    --------
    >>> import numpy as np
    >>> max(np.int8(-3), np.int8(2)), int(max(-1, 5))
    (np.int8(2), 5)
    """
    _ascreg_call = "max"
    return _apply(_ascreg_call, (x, y), _core.maximum)


def min(x: Any, y: Any) -> Any:
    """``min`` for (unsigned) char/short/int/long long: the smaller of x and y.

    Examples
    --------
    >>> import numpy as np
    >>> min(np.array([1, 9], np.uint16), np.uint16(5))
    array([1, 5], dtype=uint16)
    """
    _ascreg_call = "min"
    return _apply(_ascreg_call, (x, y), _core.minimum)


def umax(x: Any, y: Any) -> Any:
    """``unsigned int umax(unsigned int x, unsigned int y)``.

    Examples
    --------
    >>> int(umax(3, 0xFFFFFFFF))
    4294967295
    """
    _ascreg_call = "umax"
    return _apply(_ascreg_call, (x, y), _core.maximum)


def umin(x: Any, y: Any) -> Any:
    """``unsigned int umin(unsigned int x, unsigned int y)``.

    Examples
    --------
    >>> int(umin(3, 0xFFFFFFFF))
    3
    """
    _ascreg_call = "umin"
    return _apply(_ascreg_call, (x, y), _core.minimum)


def llmax(x: Any, y: Any) -> Any:
    """``long long llmax(long long x, long long y)``.

    Examples
    --------
    >>> int(llmax(-2**63, 0))
    0
    """
    _ascreg_call = "llmax"
    return _apply(_ascreg_call, (x, y), _core.maximum)


def llmin(x: Any, y: Any) -> Any:
    """``long long llmin(long long x, long long y)``.

    Examples
    --------
    >>> int(llmin(-2**63, 0))
    -9223372036854775808
    """
    _ascreg_call = "llmin"
    return _apply(_ascreg_call, (x, y), _core.minimum)


def ullmax(x: Any, y: Any) -> Any:
    """``unsigned long long ullmax(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(ullmax(2**64 - 1, 1))
    18446744073709551615
    """
    _ascreg_call = "ullmax"
    return _apply(_ascreg_call, (x, y), _core.maximum)


def ullmin(x: Any, y: Any) -> Any:
    """``unsigned long long ullmin(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(ullmin(2**64 - 1, 1))
    1
    """
    _ascreg_call = "ullmin"
    return _apply(_ascreg_call, (x, y), _core.minimum)


def labs(x: Any) -> Any:
    """``long labs(long x)`` (64-bit ``long``): absolute value.

    ``labs(LONG_MIN)`` is undefined in C; ascreg returns the two's complement wrap (LONG_MIN),
    which is what an ``abs`` instruction produces.

    Examples
    --------
    >>> int(labs(-7)), int(labs(-2**63))
    (7, -9223372036854775808)
    """
    _ascreg_call = "labs"
    return _apply(_ascreg_call, (x,), _core.absolute)


def llabs(x: Any) -> Any:
    """``long long llabs(long long x)``: absolute value (``LLONG_MIN`` wraps, as :func:`labs`).

    Examples
    --------
    >>> int(llabs(-2**40))
    1099511627776
    """
    _ascreg_call = "llabs"
    return _apply(_ascreg_call, (x,), _core.absolute)


INTRINSICS: tuple[str, ...] = tuple(SIMT_INT_ROWS)
"""Every integer device function this module defines."""

"""The SIMT integer device functions under their C names (``__byte_perm``, ``__clz``, ``umax`` ...).

Each function accepts Python ints, numpy integer scalars and numpy integer arrays (including the
per-thread :class:`~ascreg.simt.Lanes` values of a running kernel) and computes every lane
bit-exactly through :mod:`ascreg.core.intrinsics`.

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

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.operands import C_NAMES as C_NAMES
from ascreg._frontend.operands import Signature
from ascreg._frontend.template import define
from ascreg._spec import SIMT_INT_ROWS, SPECS
from ascreg._spec.simt import SIMT_HALF_OVERLOADS
from ascreg.errors import UnsupportedError
from ascreg.machine.simt.lanes import STATE, Lanes, apply_lanewise
from ascreg.simt import halfmath

Arr = np.ndarray[Any, Any]


def overloads_of(name: str) -> tuple[tuple[str, ...], tuple[Signature, ...]]:
    """Return the parameter names and the C overloads of the table row *name* (``SPECS[name]``).

    Examples
    --------
    >>> names, sigs = overloads_of("__clz")
    >>> names, [sig.text(names) for sig in sigs]
    (('x',), ['(int x)', '(long long x)'])
    """
    spec = SPECS[name]
    integer = [c for c in spec.combos if c not in SIMT_HALF_OVERLOADS.get(name, ())]
    return spec.roles, tuple(Signature(*combo) for combo in integer)


_OVERLOADS = {name: overloads_of(name) for name in SIMT_INT_ROWS}


_FORMULAS: dict[str, Callable[..., Arr]] = {
    name: SPECS[name].core_function() for name in SIMT_INT_ROWS
}
"""The lane formula of each intrinsic: its row's core function (``ascreg.core.intrinsics``)."""


_RESOLVED: dict[tuple[Any, ...], Signature] = {}
"""The overload of each (row, argument dtypes) met so far, for calls without Python ints."""


def _lanewise(op: Any, *values: Any) -> Any:
    """Resolve the C overload of *op*'s row, convert the arguments, apply the row's formula."""
    key = (op.name, *(v.dtype if type(v) is Lanes else None for v in values))
    sig = _RESOLVED.get(key)
    if sig is not None and sig.dtypes == key[1:]:  # per-thread values of the parameter types
        return apply_lanewise(values, [np.asarray(v) for v in values], _FORMULAS[op.name])
    names, overloads = _OVERLOADS[op.name]
    args = [operands.c_integer(op.name, n, v) for n, v in zip(names, values, strict=True)]
    arrays_only = not any(isinstance(a, int) for a in args)
    key = (op.name, *(getattr(a, "dtype", None) for a in args))
    sig = _RESOLVED.get(key) if arrays_only else None
    if sig is None:
        sig = operands.c_overload(op.name, names, args, overloads)
        if arrays_only:  # the overload of array arguments depends on their dtypes alone
            _RESOLVED[key] = sig
    converted = [operands.c_convert(a, d) for a, d in zip(args, sig.dtypes, strict=True)]
    return apply_lanewise(values, converted, _FORMULAS[op.name])


@define("__byte_perm")
def __byte_perm(op: Any, x: Any, y: Any, s: Any) -> Any:
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
    group = STATE.group
    if group is not None and group.pure_simt:
        raise UnsupportedError(
            "__byte_perm is not supported in pure SIMT programs (documented restriction); call "
            "it from a __simt_vf__ function started with asc_vf_call[f](dim3(n), ...)",
        )
    return _lanewise(op, x, y, s)


@define("__mulhi")
def __mulhi(op: Any, x: Any, y: Any) -> Any:
    """``int __mulhi(int x, int y)``: high 32 bits of the 64-bit product.

    Examples
    --------
    >>> int(__mulhi(-2**31, -2**31)), int(__mulhi(-1, 1))
    (1073741824, -1)
    """
    return _lanewise(op, x, y)


@define("__umulhi")
def __umulhi(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int __umulhi(unsigned int x, unsigned int y)``: high 32 bits of the product.

    Examples
    --------
    >>> int(__umulhi(0xFFFFFFFF, 2))
    1
    """
    return _lanewise(op, x, y)


@define("__mul64hi")
def __mul64hi(op: Any, x: Any, y: Any) -> Any:
    """``long long __mul64hi(long long x, long long y)``: high 64 bits of the 128-bit product.

    Examples
    --------
    >>> int(__mul64hi(-2**63, -2**63))
    4611686018427387904
    """
    return _lanewise(op, x, y)


@define("__umul64hi")
def __umul64hi(op: Any, x: Any, y: Any) -> Any:
    """``unsigned long long __umul64hi(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(__umul64hi(2**64 - 1, 2**64 - 1))
    18446744073709551614
    """
    return _lanewise(op, x, y)


@define("__mul_i32toi64")
def __mul_i32toi64(op: Any, x: Any, y: Any) -> Any:
    """``long long __mul_i32toi64(int, int)`` / ``unsigned long long (unsigned, unsigned)``.

    The full 64-bit product; the overload follows the signedness of the arguments.

    Examples
    --------
    >>> import numpy as np
    >>> int(__mul_i32toi64(-3, 5)), int(__mul_i32toi64(np.uint32(2**32 - 1), np.uint32(2)))
    (-15, 8589934590)
    """
    return _lanewise(op, x, y)


@define("__brev")
def __brev(op: Any, x: Any) -> Any:
    """``unsigned int __brev(unsigned int x)`` / ``unsigned long long __brev(unsigned long long)``.

    Examples
    --------
    >>> int(__brev(1)), int(__brev(123)), int(__brev(2**32))
    (2147483648, 3724541952, 2147483648)
    """
    return _lanewise(op, x)


@define("__clz")
def __clz(op: Any, x: Any) -> Any:
    """``int __clz(int x)`` / ``int __clz(long long x)``: count leading zero bits.

    Examples
    --------
    >>> import numpy as np
    >>> int(__clz(0)), int(__clz(np.int64(0))), int(__clz(-1))
    (32, 64, 0)
    """
    return _lanewise(op, x)


@define("__ffs")
def __ffs(op: Any, x: Any) -> Any:
    """``int __ffs(int x)`` / ``int __ffs(long long x)``: 1-based lowest set bit, 0 if none.

    Examples
    --------
    >>> import numpy as np
    >>> int(__ffs(0)), int(__ffs(123)), int(__ffs(np.uint32(3724541952))), int(__ffs(2**40))
    (0, 1, 26, 41)
    """
    return _lanewise(op, x)


@define("__popc")
def __popc(op: Any, x: Any) -> Any:
    """``int __popc(unsigned int x)`` / ``int __popc(unsigned long long x)``: count set bits.

    Examples
    --------
    >>> import numpy as np
    >>> int(__popc(0xFFFFFFFF)), int(__popc(np.int64(-1)))
    (32, 64)
    """
    return _lanewise(op, x)


@define("__sad")
def __sad(op: Any, x: Any, y: Any, z: Any) -> Any:
    """``unsigned int __sad(int x, int y, unsigned int z)``: ``|x - y| + z`` (mod 2**32).

    Examples
    --------
    >>> int(__sad(-5, 5, 1)), int(__sad(-2**31, 2**31 - 1, 0))
    (11, 4294967295)
    """
    return _lanewise(op, x, y, z)


@define("__usad")
def __usad(op: Any, x: Any, y: Any, z: Any) -> Any:
    """``unsigned int __usad(unsigned int x, unsigned int y, unsigned int z)``: ``|x - y| + z``.

    Examples
    --------
    >>> int(__usad(0, 0xFFFFFFFF, 1))
    0
    """
    return _lanewise(op, x, y, z)


@define("__mul24")
def __mul24(op: Any, x: Any, y: Any) -> Any:
    """``int __mul24(int x, int y)``: low 32 bits of the product of the signed low 24 bits.

    Examples
    --------
    >>> int(__mul24(0x7FFFFF, 0x7FFFFF)), int(__mul24(0x01000003, 2))
    (-16777215, 6)
    """
    return _lanewise(op, x, y)


@define("__umul24")
def __umul24(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int __umul24(unsigned int x, unsigned int y)``: low 32 bits of the 24-bit product.

    Examples
    --------
    >>> int(__umul24(0xFFFFFFFF, 0xFFFFFFFF))
    4261412865
    """
    return _lanewise(op, x, y)


@define("__hadd")
def __hadd(op: Any, x: Any, y: Any) -> Any:
    """``int __hadd(int x, int y)``: ``floor((x + y) / 2)`` without overflow.

    The same name is ``half __hadd(half, half)`` / ``bfloat16_t __hadd(bfloat16_t, bfloat16_t)``
    (``asc_fp16.h``, ``asc_bf16.h``): with a half or bfloat16 argument it returns ``x + y``
    rounded once to nearest even (``ascreg.simt.halfmath.add_half``).

    Examples
    --------
    >>> int(__hadd(2**31 - 1, 2**31 - 1)), int(__hadd(-1, 0))
    (2147483647, -1)
    >>> import numpy as np
    >>> float(__hadd(np.float16(1.5), np.float16(2.25)))
    3.75
    """
    if halfmath.is_half_call(x, y):
        return halfmath.add_half(x, y)
    return _lanewise(op, x, y)


@define("__rhadd")
def __rhadd(op: Any, x: Any, y: Any) -> Any:
    """``int __rhadd(int x, int y)``: ``ceil((x + y) / 2)`` without overflow.

    Examples
    --------
    >>> int(__rhadd(-1, 0)), int(__rhadd(1, 2))
    (0, 2)
    """
    return _lanewise(op, x, y)


@define("__uhadd")
def __uhadd(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int __uhadd(unsigned int x, unsigned int y)``: floor of the average.

    Examples
    --------
    >>> int(__uhadd(0xFFFFFFFF, 0xFFFFFFFE))
    4294967294
    """
    return _lanewise(op, x, y)


@define("__urhadd")
def __urhadd(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int __urhadd(unsigned int x, unsigned int y)``: ceiling of the average.

    Examples
    --------
    >>> int(__urhadd(0xFFFFFFFF, 0xFFFFFFFE))
    4294967295
    """
    return _lanewise(op, x, y)


@define("max")
def max(op: Any, x: Any, y: Any) -> Any:
    """``max`` for (unsigned) char/short/int/long long: the larger of x and y.

    Examples
    --------
    >>> import numpy as np
    >>> max(np.int8(-3), np.int8(2)), int(max(-1, 5))
    (np.int8(2), 5)
    """
    return _lanewise(op, x, y)


@define("min")
def min(op: Any, x: Any, y: Any) -> Any:
    """``min`` for (unsigned) char/short/int/long long: the smaller of x and y.

    Examples
    --------
    >>> import numpy as np
    >>> min(np.array([1, 9], np.uint16), np.uint16(5))
    array([1, 5], dtype=uint16)
    """
    return _lanewise(op, x, y)


@define("umax")
def umax(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int umax(unsigned int x, unsigned int y)``.

    Examples
    --------
    >>> int(umax(3, 0xFFFFFFFF))
    4294967295
    """
    return _lanewise(op, x, y)


@define("umin")
def umin(op: Any, x: Any, y: Any) -> Any:
    """``unsigned int umin(unsigned int x, unsigned int y)``.

    Examples
    --------
    >>> int(umin(3, 0xFFFFFFFF))
    3
    """
    return _lanewise(op, x, y)


@define("llmax")
def llmax(op: Any, x: Any, y: Any) -> Any:
    """``long long llmax(long long x, long long y)``.

    Examples
    --------
    >>> int(llmax(-2**63, 0))
    0
    """
    return _lanewise(op, x, y)


@define("llmin")
def llmin(op: Any, x: Any, y: Any) -> Any:
    """``long long llmin(long long x, long long y)``.

    Examples
    --------
    >>> int(llmin(-2**63, 0))
    -9223372036854775808
    """
    return _lanewise(op, x, y)


@define("ullmax")
def ullmax(op: Any, x: Any, y: Any) -> Any:
    """``unsigned long long ullmax(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(ullmax(2**64 - 1, 1))
    18446744073709551615
    """
    return _lanewise(op, x, y)


@define("ullmin")
def ullmin(op: Any, x: Any, y: Any) -> Any:
    """``unsigned long long ullmin(unsigned long long x, unsigned long long y)``.

    Examples
    --------
    >>> int(ullmin(2**64 - 1, 1))
    1
    """
    return _lanewise(op, x, y)


@define("labs")
def labs(op: Any, x: Any) -> Any:
    """``long labs(long x)`` (64-bit ``long``): absolute value.

    ``labs(LONG_MIN)`` is undefined in C; ascreg returns the two's complement wrap (LONG_MIN),
    which is what an ``abs`` instruction produces.

    Examples
    --------
    >>> int(labs(-7)), int(labs(-2**63))
    (7, -9223372036854775808)
    """
    return _lanewise(op, x)


@define("llabs")
def llabs(op: Any, x: Any) -> Any:
    """``long long llabs(long long x)``: absolute value (``LLONG_MIN`` wraps, as :func:`labs`).

    Examples
    --------
    >>> int(llabs(-2**40))
    1099511627776
    """
    return _lanewise(op, x)


INTRINSICS: tuple[str, ...] = tuple(SIMT_INT_ROWS)
"""Every integer device function this module defines."""

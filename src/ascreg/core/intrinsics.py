"""Lane semantics of the SIMT integer device functions (the SIMT part of the core layer).

Every function here takes numpy arrays (or 0-d arrays) that already have the C parameter types
of the intrinsic (``uint32`` for ``unsigned int``, ``int64`` for ``long long`` ...), computes every
lane bit-exactly with explicit casts (numpy's type promotion never decides a width), and returns
values of the C return type (a numpy scalar for 0-d input, as numpy does; the front end
normalises). Argument parsing, overload choice and error reporting live in
:mod:`ascreg.simt.intrinsics`; nothing here knows about Python ints or thread lanes.

Examples
--------
>>> import numpy as np
>>> byte_perm(np.uint32(1), np.uint32(1), np.uint32(1))
np.uint32(16843008)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ascreg.core.fpenv import quiet

Arr = np.ndarray[Any, Any]

U32, U64, I32, I64 = (
    np.dtype(np.uint32),
    np.dtype(np.uint64),
    np.dtype(np.int32),
    np.dtype(np.int64),
)
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
_LE32 = np.dtype("<u4")  # byte k of a little-endian uint32 is bits 8k..8k+7
_NIBBLE_SHIFTS = np.array([0, 4, 8, 12], dtype=np.uint32)  # the selector of result byte n
# Bit-reversed value of every byte (bit n <- bit 7-n), for __brev.
_BREV_BYTE = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)


def _u64(a: Arr) -> Arr:
    return np.asarray(a).astype(U64)


def byte_perm(x: Arr, y: Arr, s: Arr) -> Arr:
    """``__byte_perm``: result byte n = byte ``(s >> 4n) & 7`` of ``(y << 32) | x``.

    Bit 3 of each selector nibble and bits 16-31 of *s* are ignored (3-bit selectors).

    Examples
    --------
    >>> import numpy as np
    >>> hex(int(byte_perm(np.uint32(0x03020100), np.uint32(0x07060504), np.uint32(0x4567))))
    '0x4050607'
    """
    xs, ys, ss = (np.asarray(v, U32) for v in (x, y, s))
    if not xs.shape == ys.shape == ss.shape:
        xs, ys, ss = np.broadcast_arrays(xs, ys, ss)
    table = np.empty((*xs.shape, 2), dtype=_LE32)  # per lane the 8 bytes of (y << 32) | x
    table[..., 0], table[..., 1] = xs, ys
    # result byte n of lane k is byte 8k + ((s >> 4n) & 7) of the table
    picks = ((ss.reshape(-1, 1) >> _NIBBLE_SHIFTS) & np.uint32(7)) + _row_starts(xs.size)
    result: Arr = table.view(np.uint8).reshape(-1)[picks].view(_LE32).reshape(xs.shape)
    return result[()] if result.ndim == 0 else result.astype(U32, copy=False)


@functools.lru_cache(maxsize=8)
def _row_starts(lanes: int) -> Arr:
    """``[[0], [8], [16], ...]``: the first table byte of each of *lanes* lanes (read-only)."""
    starts = np.arange(0, 8 * lanes, 8, dtype=np.intp).reshape(lanes, 1)
    starts.flags.writeable = False
    return starts


def mulhi(x: Arr, y: Arr) -> Arr:
    """``__mulhi(int, int)``: high 32 bits of the signed 64-bit product.

    Examples
    --------
    >>> import numpy as np
    >>> mulhi(np.int32(-1), np.int32(1))
    np.int32(-1)
    """
    return ((np.asarray(x).astype(I64) * np.asarray(y).astype(I64)) >> np.int64(32)).astype(I32)


def umulhi(x: Arr, y: Arr) -> Arr:
    """``__umulhi(unsigned, unsigned)``: high 32 bits of the unsigned 64-bit product.

    Examples
    --------
    >>> import numpy as np
    >>> umulhi(np.uint32(0xFFFFFFFF), np.uint32(0xFFFFFFFF))
    np.uint32(4294967294)
    """
    return ((_u64(x) * _u64(y)) >> _SHIFT32).astype(U32)


def umul64hi(x: Arr, y: Arr) -> Arr:
    """``__umul64hi``: high 64 bits of the unsigned 128-bit product (32-bit limbs, no overflow).

    Examples
    --------
    >>> import numpy as np
    >>> umul64hi(np.uint64(2**63), np.uint64(4))
    np.uint64(2)
    """
    a, b = _u64(x), _u64(y)
    a_lo, a_hi, b_lo, b_hi = a & _LOW32, a >> _SHIFT32, b & _LOW32, b >> _SHIFT32
    lo_lo, lo_hi, hi_lo = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo
    middle = (lo_lo >> _SHIFT32) + (lo_hi & _LOW32) + (hi_lo & _LOW32)  # < 3 * 2**32
    high: Arr = a_hi * b_hi + (lo_hi >> _SHIFT32) + (hi_lo >> _SHIFT32) + (middle >> _SHIFT32)
    return high


def mul64hi(x: Arr, y: Arr) -> Arr:
    """``__mul64hi``: high 64 bits of the signed 128-bit product.

    The unsigned high word minus ``y`` when ``x < 0`` and minus ``x`` when ``y < 0`` (mod 2**64).

    Examples
    --------
    >>> import numpy as np
    >>> mul64hi(np.array([-1, 2**62]), np.array([1, 8]))
    array([-1,  2])
    """
    a, b = np.asarray(x).astype(I64), np.asarray(y).astype(I64)
    high = umul64hi(a.view(U64), b.view(U64))
    high = high - np.where(a < 0, b.view(U64), np.uint64(0))
    high = high - np.where(b < 0, a.view(U64), np.uint64(0))
    return np.asarray(high).view(I64)


def mul_i32toi64(x: Arr, y: Arr) -> Arr:
    """``__mul_i32toi64``: the full 64-bit product of two 32-bit values (signed or unsigned).

    Examples
    --------
    >>> import numpy as np
    >>> mul_i32toi64(np.int32(-2**31), np.int32(-2**31))
    np.int64(4611686018427387904)
    >>> mul_i32toi64(np.uint32(2**32 - 1), np.uint32(2**32 - 1))
    np.uint64(18446744065119617025)
    """
    wide = I64 if np.asarray(x).dtype.kind == "i" else U64
    return np.asarray(x).astype(wide) * np.asarray(y).astype(wide)


def _unsigned(x: Arr) -> Arr:
    a = np.asarray(x)
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def brev(x: Arr) -> Arr:
    """``__brev``: reverse the bits of a 32- or 64-bit unsigned value (bit n <- bit W-1-n).

    Examples
    --------
    >>> import numpy as np
    >>> brev(np.uint32(123)), brev(np.uint64(1))
    (np.uint32(3724541952), np.uint64(9223372036854775808))
    """
    a = np.atleast_1d(_unsigned(x))
    swapped = np.ascontiguousarray(a.byteswap())
    out = _BREV_BYTE[swapped.view(np.uint8)].view(a.dtype).reshape(a.shape)
    return out.reshape(np.shape(x))[()]


def clz(x: Arr) -> Arr:
    """``__clz``: leading zero bits of the 32- or 64-bit pattern (0 gives the width), as int32.

    Examples
    --------
    >>> import numpy as np
    >>> clz(np.array([0, 1, -1], np.int32)), clz(np.int64(1))
    (array([32, 31,  0], dtype=int32), np.int32(63))
    """
    u = _unsigned(x)
    width = 8 * u.dtype.itemsize
    count = np.zeros(u.shape, dtype=I32)
    step = width // 2
    while step:
        top_clear = u < u.dtype.type(1 << (width - step))
        count += np.where(top_clear, np.int32(step), np.int32(0))
        u = np.where(top_clear, u << u.dtype.type(step), u)
        step //= 2
    result: Arr = count + (u == 0).astype(I32)
    return result


def ffs(x: Arr) -> Arr:
    """``__ffs``: 1-based index of the lowest set bit, 0 when none, as int32.

    Examples
    --------
    >>> import numpy as np
    >>> ffs(np.array([0, 1, 123, -2**31], np.int32))
    array([ 0,  1,  1, 32], dtype=int32)
    """
    u = _unsigned(x)
    lowest = u & (~u + u.dtype.type(1))  # two's complement: u & -u
    return np.int32(8 * u.dtype.itemsize) - clz(lowest)


def popc(x: Arr) -> Arr:
    """``__popc``: number of set bits of the 32- or 64-bit pattern, as int32.

    Examples
    --------
    >>> import numpy as np
    >>> popc(np.array([0, 0xFFFFFFFF], np.uint32))
    array([ 0, 32], dtype=int32)
    """
    return np.bitwise_count(_unsigned(x)).astype(I32)


def sad(x: Arr, y: Arr, z: Arr) -> Arr:
    """``__sad`` / ``__usad``: ``|x - y| + z`` with the exact difference, wrapped to 32 bits.

    Examples
    --------
    >>> import numpy as np
    >>> sad(np.int32(-2**31), np.int32(2**31 - 1), np.uint32(1))
    np.uint32(0)
    """
    diff = np.abs(np.asarray(x).astype(I64) - np.asarray(y).astype(I64))  # < 2**32: exact
    return ((diff.astype(U64) + _u64(z)) & _LOW32).astype(U32)


def mul24(x: Arr, y: Arr) -> Arr:
    """``__mul24`` / ``__umul24``: low 32 bits of the product of the low 24 bits.

    Signed operands are read as signed 24-bit fields (bit 23 is the sign), as CUDA does.

    Examples
    --------
    >>> import numpy as np
    >>> mul24(np.int32(0xFFFFFF), np.int32(2)), mul24(np.uint32(0xFFFFFF), np.uint32(2))
    (np.int32(-2), np.uint32(33554430))
    """
    dtype = np.asarray(x).dtype
    if dtype.kind == "i":
        a = (np.asarray(x).astype(I32) << np.int32(8)) >> np.int32(8)
        b = (np.asarray(y).astype(I32) << np.int32(8)) >> np.int32(8)
        return (a.astype(I64) * b.astype(I64)).astype(I32)
    field = np.uint64(0xFFFFFF)
    return (((_u64(x) & field) * (_u64(y) & field)) & _LOW32).astype(U32)


def halving_add(x: Arr, y: Arr, *, round_up: bool) -> Arr:
    """``__hadd``/``__uhadd`` (floor) and ``__rhadd``/``__urhadd`` (ceil) of ``(x + y) / 2``.

    The sum is formed in 64 bits, so it never overflows.

    Examples
    --------
    >>> import numpy as np
    >>> halving_add(np.int32(-3), np.int32(0), round_up=False), halving_add(np.int32(-3), np.int32(0), round_up=True)
    (np.int32(-2), np.int32(-1))
    """
    dtype = np.asarray(x).dtype
    wide = I64 if dtype.kind == "i" else U64
    total = np.asarray(x).astype(wide) + np.asarray(y).astype(wide)
    if round_up:
        total = total + wide.type(1)
    return (total >> wide.type(1)).astype(dtype)


def maximum(x: Arr, y: Arr) -> Arr:
    """``max`` and its family on two arrays of the same integer dtype.

    Examples
    --------
    >>> import numpy as np
    >>> maximum(np.uint64(2**64 - 1), np.uint64(0))
    np.uint64(18446744073709551615)
    """
    return np.maximum(x, y)


def minimum(x: Arr, y: Arr) -> Arr:
    """``min`` and its family on two arrays of the same integer dtype.

    Examples
    --------
    >>> import numpy as np
    >>> minimum(np.int8(-128), np.int8(127))
    np.int8(-128)
    """
    return np.minimum(x, y)


def absolute(x: Arr) -> Arr:
    """``labs`` / ``llabs``: absolute value with two's complement wrap (``INT64_MIN`` stays).

    Examples
    --------
    >>> import numpy as np
    >>> absolute(np.array([-5, -2**63], np.int64))
    array([                   5, -9223372036854775808])
    """
    return np.abs(x)


# -- float device functions (float32 lanes) ---------------------------------------------------

_F32 = np.dtype(np.float32)
_SMALLEST_NORMAL = np.float32(2.0**-126)


def flush_subnormal(x: Arr) -> Arr:
    """Replace float32 subnormals by a zero of the same sign (NaN and inf pass through).

    Examples
    --------
    >>> import numpy as np
    >>> flush_subnormal(np.array([1e-40, -1e-40, 1.0], np.float32))
    array([ 0., -0.,  1.], dtype=float32)
    """
    x = np.asarray(x, dtype=_F32)
    return np.where(np.abs(x) < _SMALLEST_NORMAL, np.copysign(_F32.type(0), x), x).astype(_F32)


def saturatef(x: Arr) -> Arr:
    """``__saturatef``: 1 for ``x >= 1``, x for ``0 < x < 1``, +0 otherwise (``x <= 0``, NaN).

    ``-0.0`` gives ``+0.0`` (the documented rule "x <= 0 returns 0"); a subnormal in (0, 1) is
    returned unchanged (the documentation states no flush for this function).

    Examples
    --------
    >>> import numpy as np
    >>> saturatef(np.array([-2, -0.0, 0.25, 1.5, np.nan], np.float32))
    array([0.  , 0.  , 0.25, 1.  , 0.  ], dtype=float32)
    """
    x = np.asarray(x, dtype=_F32)
    one, zero = _F32.type(1), _F32.type(0)
    return np.where(x >= one, one, np.where(x > zero, x, zero)).astype(_F32)


def fdividef(x: Arr, y: Arr) -> Arr:
    """``__fdividef`` / ``fdividef``: x / y with subnormal inputs and outputs flushed to ±0.

    The quotient of the flushed inputs is the correctly rounded IEEE float32 quotient
    (round to nearest even): ``x / ±0`` is ±inf by the sign rule, ``0 / 0``, ``inf / inf`` and any
    NaN operand give NaN. A quotient that rounds to a subnormal becomes a zero of its sign (the
    flush is decided on the rounded float32 result).

    Examples
    --------
    >>> import numpy as np
    >>> fdividef(np.array([1, -1, 0, 1e-40], np.float32), np.array([2, 0, 0, 1], np.float32))
    array([ 0.5, -inf,  nan,  0. ], dtype=float32)
    """
    with quiet():
        quotient = flush_subnormal(x) / flush_subnormal(y)
    return flush_subnormal(quotient)


def hadd(x: Arr, y: Arr) -> Arr:
    """``floor((x + y) / 2)`` without overflow (``__hadd``, ``__uhadd``).

    Examples
    --------
    >>> hadd(np.int32([-3]), np.int32([0]))
    array([-2], dtype=int32)
    """
    return halving_add(x, y, round_up=False)


def rhadd(x: Arr, y: Arr) -> Arr:
    """``ceil((x + y) / 2)`` without overflow (``__rhadd``, ``__urhadd``).

    Examples
    --------
    >>> rhadd(np.int32([-3]), np.int32([0]))
    array([-1], dtype=int32)
    """
    return halving_add(x, y, round_up=True)

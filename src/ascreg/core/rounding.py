"""Correct rounding from float64 approximations, decided lane by lane; 8- and 16-bit tables.

The interval test
-----------------
Let ``y`` be the exact value of a lane's function and ``a`` the float64 value numpy computes,
with ``|y - a| <= b |a|`` (a relative error bound ``b``; a few float64 ulps, ``2**-51`` or
better, for numpy's ``exp``, ``log``, ``log2``, ``log10``, ``sin`` ...: :data:`RELATIVE_BOUND`
is 128 times larger). Let ``R`` be rounding to nearest even in the lane format, with overflow
to ±inf. ``R`` is monotone: ``u <= v`` implies ``R(u) <= R(v)``. :func:`round_decided` computes
``lo = fl(a (1 - 2b))`` and ``hi = fl(a (1 + 2b))`` (one float64 product each), rounds both and
compares the two results bit for bit:

* ``y`` lies between ``lo`` and ``hi``: ``|fl(a (1 ± 2b)) - a (1 ± 2b)| <= 2**-53 |a| (1 + 2b)``,
  less than ``b |a|``, so ``a (1 + 2b)`` moved by a rounding still exceeds ``a (1 + b)``, which
  is at least ``y`` (and symmetrically below; for ``a < 0`` the two change places).
* so when ``R(lo) == R(hi)``, monotony gives ``R(y) == R(lo)``: the lane is **proven** correctly
  rounded. Otherwise a rounding boundary (a midpoint) lies within about ``2b`` of ``a`` and the
  lane is *undecided*: its caller computes it exactly (decimal arithmetic, Ziv's strategy).
  For float32 results the chance is about ``4b / 2**-24 = 2**-18`` per lane.
* ±inf and NaN give the same bits in both products; ``a = 0`` gives ``lo = hi = 0``. A float64
  overflow (``a = ±inf``) means ``|y| > 2**1023``, which rounds to ±inf in every lane format;
  a float64 result below ``2**-1022`` (where the relative bound is not promised) stands for a
  ``|y| < 2**-1000`` of its sign, which rounds to the zero of that sign like ``lo`` and ``hi``.

For float32 and half results the rounding of a float64 value is numpy's ``astype``, which rounds
directly (round to nearest even, subnormals included). FTZ (a subnormal result becomes a zero of
its sign) is a monotone step after ``R``, so the same test holds for ``FTZ(R(y))``.

The integer test
----------------
For float32 results that are normal (or overflow, or zero), :func:`float32_undecided` proves
the same lanes' rounding from the float64 bit patterns alone, in place and in fewer passes
(the bulk path of :mod:`ascreg.core.elementary`): a lane is undecided when the low 29 bits of
its mantissa lie within ``2**9`` of ``2**28``, float32's rounding midpoint.

Where no test is needed
-----------------------
``+ - * /`` and ``sqrt`` of float32 (or half) operands in float64 are correctly rounded float64
values, and rounding those again to ``p`` bits gives the correctly rounded result whenever
``53 >= 2p + 2`` (Figueroa, "When is double rounding innocuous?", 1995): p = 24 and p = 11 both
qualify. (ml_dtypes' float64 to bfloat16 cast rounds through float32 first and is *not* a
correct rounding; bfloat16 results go through :func:`ascreg.core.halfmath.round_to`.)

Lookup tables
-------------
A 16-bit format has 65536 inputs (an 8-bit one 256): :func:`table` builds a unary function's
result for every one of them once (with the proven path above, or a conversion's general path)
and a call is one indexing of the table.

Examples
--------
>>> import numpy as np
>>> a = np.exp(np.array([0.0, 1.0, 88.0]))
>>> result, undecided = round_decided(a, np.dtype(np.float32))
>>> result.tolist(), undecided
([1.0, 2.7182817459106445, 1.6516362661361307e+38], None)
>>> tie = np.array([1 + 2.0**-24])  # exactly halfway between two float32 values
>>> round_decided(tie, np.dtype(np.float32))[1]
array([0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.machine.undefined import looked_up

Lanes = np.ndarray[Any, Any]

RELATIVE_BOUND = 2.0**-44
"""The relative error bound ``b`` of the float64 evaluations checked with :func:`round_decided`
(numpy's float64 ``exp``/``log``/``log2``/``log10`` are within a few ulps, ``2**-51``)."""

_BELOW, _ABOVE = np.array(1 - 2 * RELATIVE_BOUND), np.array(1 + 2 * RELATIVE_BOUND)
"""The factors ``1 -+ 2b`` of the interval ends (0-d arrays: a numpy scalar operand costs a
conversion on every call, and two products are cheaper than one broadcast to two rows)."""

_UNSIGNED = {2: np.dtype(np.uint16), 4: np.dtype(np.uint32)}


def round_decided(approx: Lanes, dtype: np.dtype[Any]) -> tuple[Lanes, Lanes | None]:
    """Round float64 *approx* to *dtype* (float32 or half), proving each lane (module docstring).

    Call it in a :func:`ascreg.core.fpenv.quiet` section (a lane format's overflow to inf is a
    result, not a warning; the lane functions run in one already).

    Parameters
    ----------
    approx
        Float64 values within :data:`RELATIVE_BOUND` (relative) of the exact results.
    dtype
        The result format: ``float32`` or ``float16``.

    Returns
    -------
    tuple
        The rounded lanes (a new array of *approx*'s shape), and None when every lane is
        proven, else the flat indices of the undecided lanes (their result is a neighbour of
        the correct one: the caller replaces it with the exact rounding).

    Examples
    --------
    >>> import numpy as np
    >>> round_decided(np.array([[0.1, 2.0**-140]]), np.dtype(np.float16))
    (array([[0.1, 0. ]], dtype=float16), None)
    """
    low, high = (approx * _BELOW).astype(dtype), (approx * _ABOVE).astype(dtype)
    if low.tobytes() == high.tobytes():
        return low, None
    unsigned = _UNSIGNED[dtype.itemsize]
    return low, np.flatnonzero(low.view(unsigned) != high.view(unsigned))


FLOAT32_WINDOW = int(RELATIVE_BOUND * 2.0**53)
"""Float64 ulps either side of a float32 rounding midpoint where :func:`float32_undecided`
gives up: ``b 2**53`` (``= 2**9``), since ``b |a| < b 2**53 ulp(a)`` for every ``a``."""

_SHIFT = np.array(64 - 29, np.int64)
"""Float64 stores 52 mantissa bits, float32 23: the low 29 bits lie below float32's grid."""
_UNDECIDED_FROM = np.array(np.uint64(((1 << 28) - FLOAT32_WINDOW) << 35))
"""The nearness (``2**63`` at a midpoint) of a lane at :data:`FLOAT32_WINDOW` ulps from one."""


def float32_undecided(approx: Lanes) -> Lanes | None:
    """Return the lanes of float64 *approx* whose float32 rounding is not proven (overwrites it).

    The promise of :func:`round_decided` by integer operations on the bit patterns, two
    in-place passes and one reduction: ``approx.astype(float32)``, taken before the call, is
    the correctly rounded result of every lane not returned.

    Let ``a`` (a lane) lie in the binade ``[2**e, 2**(e+1))`` of float32's normal range and
    ``b`` be :data:`RELATIVE_BOUND`. The exact value ``y`` is within ``b |a| < b 2**53 = 2**9``
    float64 ulps (``2**(e-52)``) of ``a``. Float32's rounding midpoints in the binade are the
    values whose low 29 mantissa bits are ``2**28``; the nearest one outside it (under
    ``2**e``, above ``2**(e+1)``) is ``2**27`` ulps away or more. So when the low 29 bits of
    ``a`` differ from ``2**28`` by more than :data:`FLOAT32_WINDOW` ``= 2**9``, no midpoint
    lies between ``y`` and ``a`` and ``R(y) = R(a)``. Overflow is the same test: its threshold
    ``2**128 - 2**103`` is the midpoint above the largest float32, and ``y`` exceeds it when
    ``a >= 2**128``. Zeros, infinities and the NaNs of float32 inputs have zero low bits.

    The nearness ``|t|`` is computed with ``t`` the pattern shifted left by 35 (the low 29
    bits, as a signed 64-bit integer: ``2**28`` wraps to ``-2**63``): the lanes with
    ``|t| >= (2**28 - 2**9) 2**35`` (unsigned) are undecided, about one in ``2**19``.

    Parameters
    ----------
    approx
        Contiguous float64 values within :data:`RELATIVE_BOUND` (relative) of the exact results,
        each ``0``, ``±inf``, a NaN of a float32 input or of a magnitude at least ``2**-126``
        (results that are normal, overflow or zero; subnormal ones need :func:`round_decided`).

    Returns
    -------
    numpy.ndarray or None
        The flat indices of the undecided lanes, None if there are none.

    Examples
    --------
    >>> import numpy as np
    >>> float32_undecided(np.exp(np.array([0.0, 1.0, 88.0]))) is None
    True
    >>> float32_undecided(np.array([3.0, 1 + 2.0**-24, 1 + 2.0**-24 - 2.0**-44, 1 + 2.0**-25]))
    array([1, 2])
    """
    nearness = approx.view(np.int64)
    np.left_shift(nearness, _SHIFT, out=nearness)
    np.abs(nearness, out=nearness)  # -2**63 stays: 2**63 unsigned, the midpoint itself
    unsigned = nearness.view(np.uint64)
    if unsigned.size == 0 or np.maximum.reduce(unsigned) < _UNDECIDED_FROM:
        return None
    return np.flatnonzero(unsigned >= _UNDECIDED_FROM)


_TABLES: dict[Any, Lanes] = {}


def table(key: Any, dtype: np.dtype[Any], build: Callable[[Lanes], Lanes]) -> Lanes:
    """Return the results of an 8- or 16-bit *dtype*'s unary function, built once per *key*.

    *build* gets every value of the format (index = bit pattern: 256 or 65536 of them) and
    returns their results; a call then looks its lanes up with :func:`lookup`.

    Examples
    --------
    >>> import numpy as np
    >>> t = table("negate-half-doc", np.dtype(np.float16), lambda v: -v)
    >>> t.shape, float(t[0x3C00])
    ((65536,), -1.0)
    """
    found = _TABLES.get(key)
    if found is None:
        codes = _CODES[dtype.itemsize]
        values = np.arange(1 << 8 * codes.itemsize, dtype=np.uint32).astype(codes).view(dtype)
        found = _TABLES[key] = np.ascontiguousarray(build(values))
        found.flags.writeable = False
    return found


def lookup(results: Lanes, values: Lanes) -> Lanes:
    """Return ``results[bit pattern]`` for each 8- or 16-bit lane of *values* (a new array).

    A lane that is undefined (:mod:`ascreg.machine.undefined`) gives an undefined lane.

    Examples
    --------
    >>> import numpy as np
    >>> t = table("negate-half-doc", np.dtype(np.float16), lambda v: -v)
    >>> lookup(t, np.float16([1.5, -0.0]))
    array([-1.5,  0. ], dtype=float16)
    """
    return looked_up(results, values.view(_CODES[values.dtype.itemsize]))


_CODES: dict[int, np.dtype[Any]] = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16)}
"""The unsigned type of an 8- or 16-bit format's bit patterns (the index of its table)."""

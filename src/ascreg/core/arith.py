"""Lane arithmetic on numpy lane arrays: the binary formulas, ``Abs``, ``Neg``, ``Arange``.

Integers wrap (the default CTRL[53]=0 mode): ``abs(INT_MIN) = INT_MIN``, ``-INT_MIN = INT_MIN``.
Floats are sign-bit operations: ``Abs`` clears the sign bit and ``Neg`` flips it, so a NaN keeps
its payload and ``-0`` / ``+0`` map onto each other exactly.

Examples
--------
>>> import numpy as np
>>> abs_lanes(np.array([-128, -1, 5], np.int8))
array([-128,    1,    5], dtype=int8)
>>> neg_lanes(np.array([0.0, -1.5], np.float16))
array([-0. ,  1.5], dtype=float16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import bfloat16_t
from ascreg.core.bitwise import bitwise
from ascreg.core.elementary import any_set, divide
from ascreg.core.fpenv import IGNORE, STATE, quiet

_BFLOAT16 = bfloat16_t.np_dtype  # compared by equality: dtype.name is slow in numpy

Lanes = np.ndarray[Any, Any]


def _sign_bit(dtype: np.dtype[Any]) -> Any:
    unsigned = np.dtype(f"u{dtype.itemsize}")
    return unsigned.type(1 << (8 * dtype.itemsize - 1)), unsigned


def abs_lanes(values: Lanes) -> Lanes:
    """``|x|`` per lane: integers wrap, floats clear the sign bit (NaN payload kept).

    Examples
    --------
    >>> abs_lanes(np.array([-0.0, np.nan], np.float32)).view(np.uint32)
    array([         0, 2143289344], dtype=uint32)
    """
    if values.dtype.kind in "iu":
        with quiet():
            return np.abs(values)  # numpy wraps: abs(INT_MIN) == INT_MIN
    sign, unsigned = _sign_bit(values.dtype)
    cleared: Lanes = values.view(unsigned) & ~sign
    return cleared.view(values.dtype)


def neg_lanes(values: Lanes) -> Lanes:
    """``-x`` per lane: integers wrap (two's complement), floats flip the sign bit.

    Examples
    --------
    >>> neg_lanes(np.array([-32768, 7], np.int16))
    array([-32768,     -7], dtype=int16)
    """
    if values.dtype.kind in "iu":
        unsigned = np.dtype(f"u{values.dtype.itemsize}")
        negated: Lanes = (np.zeros_like(values.view(unsigned)) - values.view(unsigned)).view(
            values.dtype
        )
        return negated
    sign, unsigned = _sign_bit(values.dtype)
    flipped: Lanes = values.view(unsigned) ^ sign
    return flipped.view(values.dtype)


def relu_lanes(values: Lanes) -> Lanes:
    """``x >= 0 ? x : 0`` per lane (``asc_relu``): ``-0`` passes (``-0 >= 0``), a NaN gives +0.

    Examples
    --------
    >>> relu_lanes(np.array([-1.5, -0.0, np.nan, 2.0], np.float32)).tolist()
    [0.0, -0.0, 0.0, 2.0]
    """
    kept: Lanes = np.where(values >= 0, values, np.zeros_like(values))
    return kept


SIGN_OPS: dict[str, Callable[[Lanes], Lanes]] = {
    "Abs": abs_lanes,
    "Neg": neg_lanes,
    "Relu": relu_lanes,
}
"""The exact unary lane formulas by family name (no rounding: sign-bit and select operations)."""


def arange(
    start: Any, dtype: np.dtype[Any], lanes: int, *, decrease: bool = False, span: int = 0
) -> Lanes:
    """Lane ``i`` = ``start + i`` (or ``start + span - 1 - i`` when *decrease*) in *dtype*.

    *span* defaults to *lanes*. Integers wrap modulo ``2**bits``. Floats add in the element
    type with one IEEE rounding to nearest even (numpy computes a half add in float32 and
    rounds once more, which is still the correctly rounded half result).

    Examples
    --------
    >>> arange(np.int8(126), np.dtype(np.int8), 4)
    array([ 126,  127, -128, -127], dtype=int8)
    >>> arange(np.int8(0), np.dtype(np.int8), 4, decrease=True)
    array([3, 2, 1, 0], dtype=int8)
    >>> [float(x) for x in arange(np.float16(65504), np.dtype(np.float16), 18)[[0, 15, 16]]]
    [65504.0, 65504.0, inf]
    """
    index = np.arange(lanes, dtype=np.int64)
    if decrease:
        index = (span or lanes) - 1 - index
    if dtype.kind in "iu":
        unsigned = np.dtype(f"u{dtype.itemsize}")
        base = np.asarray(start, dtype=dtype).view(unsigned)
        with quiet():
            result: Lanes = (index.astype(unsigned) + base).view(dtype)  # wraps modulo 2**bits
        return result
    with quiet():  # overflow to inf is the IEEE result, not a warning
        summed: Lanes = np.add(np.asarray(start, dtype=dtype), index.astype(dtype), dtype=dtype)
    return summed


def _float_minmax(
    pick: Callable[[Lanes, Lanes], Lanes], sign_merge: Callable[[Any, Any], Any]
) -> Callable[[Lanes, Lanes], Lanes]:
    """Max/Min with IEEE NaN propagation and the spec's signed-zero rule."""

    def op(a: Lanes, b: Lanes) -> Lanes:
        token = STATE.set(IGNORE)  # NaN operands are data here, not numpy warnings
        try:
            result = pick(a, b)
            if a.dtype.kind == "f" or a.dtype == _BFLOAT16:
                # only a zero result can come from two zeros: one test in the common case
                zero = result == 0
                if any_set(zero):
                    both_zero = zero & (a == 0) & (b == 0)
                    bits = a.view(f"u{a.itemsize}")
                    merged = sign_merge(bits, b.view(f"u{a.itemsize}")).view(a.dtype)
                    result = np.where(both_zero, merged, result)
            return result
        finally:
            STATE.reset(token)

    return op


def _widened(op: Callable[[Lanes, Lanes], Lanes]) -> Callable[[Lanes, Lanes], Lanes]:
    """Compute bfloat16 in float32 and round to nearest even, as the hardware does."""

    def run(a: Lanes, b: Lanes) -> Lanes:
        if a.dtype.kind in "iu":  # integers wrap without a warning: no error state to set
            return op(a, b)
        token = STATE.set(IGNORE)  # IEEE overflow/NaN results are data, not warnings
        try:
            if a.dtype == _BFLOAT16:
                return op(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
            return op(a, b)
        finally:
            STATE.reset(token)

    return run


def prelu(a: Lanes, b: Lanes) -> Lanes:
    """Return ``a > 0 ? a : a * b`` per lane (parametric ReLU), the product rounded once (RNE).

    A NaN or a zero of either sign in ``a`` takes the product branch (``-0 * b``, ``NaN * b``).

    Examples
    --------
    >>> prelu(np.float16([2.0, -2.0, -0.0]), np.float16([0.5, 0.25, 3.0]))
    array([ 2. , -0.5, -0. ], dtype=float16)
    """
    with quiet():  # inf * 0 = NaN and overflow are IEEE results here
        product: Lanes = np.multiply(a, b)
        return np.where(a > 0, a, product)


def _bits(name: str) -> Callable[[Lanes, Lanes], Lanes]:
    return lambda a, b: bitwise(name, a, b)


BINARY_OPS: dict[str, Callable[[Lanes, Lanes], Lanes]] = {
    "Add": _widened(np.add),
    "Sub": _widened(np.subtract),
    "Mul": _widened(np.multiply),
    "Max": _float_minmax(np.maximum, np.bitwise_and),
    "Min": _float_minmax(np.minimum, np.bitwise_or),
    "Prelu": prelu,
    "Div": divide,  # the default (flushing) mode; Reg.Div passes its mode's ftz itself
    "And": _bits("and"),
    "Or": _bits("or"),
    "Xor": _bits("xor"),
}
"""Lane formula of each element-wise binary op (integers wrap; floats are IEEE; the logic ops
work on the raw bits of any lane type).

Examples
--------
>>> import numpy as np
>>> BINARY_OPS["Max"](np.array([-0.0], np.float32), np.array([0.0], np.float32))
array([0.], dtype=float32)
>>> BINARY_OPS["Add"](np.array([127], np.int8), np.array([1], np.int8))
array([-128], dtype=int8)
"""


def _accumulation(ufunc: Any, *, signed_zeros: bool) -> Callable[[Lanes, Lanes], Lanes | None]:
    """Return the chain of *ufunc*'s binary op: every ``acc = op(acc, step)`` at once.

    The calls are made in order, ``out[k] = op(out[k - 1], in[k])``, in the element type,
    each on one step's row of every lane at once (``ufunc.accumulate`` runs element by
    element: five times slower). bfloat16 (computed in float32, rounded each call) has no
    chain; with *signed_zeros* (Max, Min) a chain in which any result is zero has none
    either (a zero from two zeros takes the spec's sign rule).
    """

    def chain(initial: Lanes, steps: Lanes) -> Lanes | None:
        if steps.dtype == _BFLOAT16 or initial.dtype != steps.dtype:
            return None
        partials = np.empty(steps.shape, steps.dtype)
        with quiet():  # IEEE overflow/NaN results are data, not warnings
            ufunc(initial[..., 0, :], steps[..., 0, :], out=partials[..., 0, :])
            for k in range(1, steps.shape[-2]):
                ufunc(partials[..., k - 1, :], steps[..., k, :], out=partials[..., k, :])
        if signed_zeros and steps.dtype.kind == "f" and any_set(partials == 0):
            return None
        return partials

    return chain


ACCUMULATIONS: dict[str, Callable[[Lanes, Lanes], Lanes | None]] = {
    "Add": _accumulation(np.add, signed_zeros=False),
    "Mul": _accumulation(np.multiply, signed_zeros=False),
    "Max": _accumulation(np.maximum, signed_zeros=True),
    "Min": _accumulation(np.minimum, signed_zeros=True),
}
"""The chains of the binary ops an accumulator loop repeats (``Add(acc, acc, x)``):
``ACCUMULATIONS[op](initial, steps)`` takes the accumulator's first value (``... x 1 x lanes``)
and one step per row (``... x k x lanes``) and returns the accumulator after each step, or None
when the chain must run call by call. Each agrees with ``BINARY_OPS[op]`` applied in order.

Examples
--------
>>> import numpy as np
>>> steps = np.array([[1e8], [1.0], [-1e8]], np.float32)  # 1e8 + 1 rounds back to 1e8
>>> ACCUMULATIONS["Add"](np.zeros((1, 1), np.float32), steps)[:, 0].tolist()
[100000000.0, 100000000.0, 0.0]
>>> ACCUMULATIONS["Max"](np.zeros((1, 1), np.float32), steps) is None  # a zero: the sign rule
True
"""


def fill(value: Any, dtype: np.dtype[Any], lanes: int) -> Lanes:
    """Return *lanes* lanes of *dtype*, every one *value* (Duplicate's broadcast).

    *value* may also be a column of values (shape ``(rows, 1)``, one per row of a batched
    loop): each row then holds its own value in every lane.

    Examples
    --------
    >>> fill(np.float16(1.5), np.dtype(np.float16), 3)
    array([1.5, 1.5, 1.5], dtype=float16)
    >>> fill(np.array([[1], [2]], np.int8), np.dtype(np.int8), 3).tolist()
    [[1, 1, 1], [2, 2, 2]]
    """
    if isinstance(value, np.ndarray) and value.ndim > 1:
        if value.dtype == np.bool_:  # as one value of a bool register reads: True or False
            value = value != 0
        return np.repeat(value.astype(dtype, copy=False), lanes, axis=-1)
    return np.full(lanes, value, dtype=dtype)

"""Compare and select semantics.

Comparisons follow IEEE 754 for floats (a NaN makes every predicate false except NE; +0 == -0)
and the type's signedness for integers. Formats numpy cannot compare natively (bfloat16, fp8)
are widened to float32 first, which is exact.

Examples
--------
>>> import numpy as np
>>> compare("NE", np.array([np.nan], np.float32), np.array([np.nan], np.float32))
array([ True])
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ascreg.core.masks import _ALL_ON_IDS, enabled, lane_words, predicate_mask
from ascreg.machine.registers import MASK_BITS, spread_enables

Lanes = np.ndarray[Any, Any]

CMP_MODES = {
    "LT": np.less,
    "GT": np.greater,
    "EQ": np.equal,
    "LE": np.less_equal,
    "GE": np.greater_equal,
    "NE": np.not_equal,
}
"""Predicate of each ``CMPMODE`` name."""


_WIDENED = frozenset(
    np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2,
                          ml_dtypes.float8_e8m0fnu)
)  # fmt: skip


_WIDENED_TYPES = frozenset(d.type for d in _WIDENED)  # scalar types hash faster than dtypes


def compare(mode: str, a: Lanes, b: Lanes | Any) -> Lanes:
    """Return the per-lane predicate ``a <mode> b`` as a bool array.

    Examples
    --------
    >>> compare("GE", np.array([-0.0, 1.0], np.float16), np.array([0.0, 2.0], np.float16))
    array([ True, False])
    """
    if not isinstance(b, np.ndarray) or (b.dtype is not a.dtype and b.dtype != a.dtype):
        b = np.asarray(b, dtype=a.dtype)
    if a.dtype.type in _WIDENED_TYPES:
        a, b = a.astype(np.float32), b.astype(np.float32)
    result: Lanes = CMP_MODES[mode](a, b)
    return result


def select(selector: Lanes, a: Lanes, b: Lanes) -> Lanes:
    """``selector ? a : b`` per lane, bit-exact (NaN payloads are copied unchanged).

    Examples
    --------
    >>> select(np.array([True, False]), np.array([1, 2]), np.array([3, 4]))
    array([1, 4])
    """
    if selector.size >= BITWISE_SELECT_FROM and a.dtype == b.dtype and selector.dtype == np.bool_:
        # rows of a batched loop: b ^ ((a ^ b) & all-ones-where-selected) on the raw bits is
        # the same copy, at about half the cost of np.where on a large unpredictable selector
        size = a.dtype.itemsize
        words = lane_words(selector, size)  # the selector as 1/0 integers of the lanes' width
        if words is not None and a.shape == words.shape:
            return select_words(words, a, b)
        bits = np.dtype(f"u{size}")
        x, y = a.view(bits), b.view(bits)
        chosen: Lanes = np.bitwise_xor(x, y)
        ones = selector.view(np.uint8).astype(bits)
        np.negative(ones, out=ones)
        if chosen.shape != ones.shape:  # a selector broadcast over rows: no in-place ops
            broadcast: Lanes = y ^ (chosen & ones)
            return broadcast.view(a.dtype)
        chosen &= ones  # in place on the fresh temporaries: the same values
        chosen ^= y
        return chosen.view(a.dtype)
    if id(selector) in _ALL_ON_IDS and a.dtype is b.dtype and a.shape == b.shape == selector.shape:
        # every lane selected: a itself
        return a.copy()
    return np.where(selector, a, b)


def select_words(words: Lanes, a: Lanes, b: Lanes) -> Lanes:
    """:func:`select` with the selector as *words*: 1 or 0 per lane, unsigned, of *a*'s width.

    ``b ^ ((a ^ b) * words)`` on the raw bits, where ``* 1 or 0`` is ``& all-ones or 0``: the
    same bit-exact copy in three passes (*a* and *b* of one dtype and shape).

    Examples
    --------
    >>> select_words(np.array([1, 0], np.uint16), np.float16([1.5, 2]), np.float16([3, 4]))
    array([1.5, 4. ], dtype=float16)
    """
    bits = words.dtype
    y = b.view(bits)
    chosen: Lanes = np.bitwise_xor(a.view(bits), y)
    np.multiply(chosen, words, out=chosen)
    chosen ^= y
    return chosen.view(a.dtype)


BITWISE_SELECT_FROM = 4096
"""Selectors with this many lanes or more (batched rows) select on the raw bits."""


def zero_masked(values: Lanes, active: Lanes) -> Lanes:
    """ZEROING merge mode: lanes not in *active* become all-zero bits.

    Examples
    --------
    >>> zero_masked(np.array([5, 6], np.int8), np.array([False, True]))
    array([0, 6], dtype=int8)
    """
    if id(active) in _ALL_ON_IDS and active.shape == values.shape[values.ndim - active.ndim :]:
        return values  # every lane on (of each row of a batch, each block of a group)
    if (
        values.size >= _WHOLE_TEST_FROM
        and active.size <= values.size
        and active.all()
        and _fits_in(active.shape, values.shape)
    ):
        return values  # a large batch with every lane on: one test instead of a copy
    return np.where(active, values, np.zeros((), dtype=values.dtype))


def _fits_in(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Say whether *shape* broadcasts to *target* (so ``where`` would give *target*'s shape)."""
    if len(shape) > len(target):
        return False
    return all(a in (1, b) for a, b in zip(shape[::-1], target[::-1], strict=False))


_WHOLE_TEST_FROM = 1 << 14
"""From this many lanes, :func:`zero_masked` first tests whether every lane is on."""


def compare_bits(mode: str, a: Lanes, b: Lanes | Any, active: Lanes, stride: int) -> Lanes:
    """Return the 256 mask bits of ``a <mode> b`` on the *active* lanes (compare results).

    Examples
    --------
    >>> import numpy as np
    >>> bits = compare_bits("LT", np.array([1, 5], np.int16), 3, np.array([True, True]), 2)
    >>> bits[:4].astype(int)
    array([1, 0, 0, 0])
    """
    return predicate_mask(compare(mode, a, b), active, stride)[0]


def compare_enables(mode: str, a: Lanes, b: Lanes | Any, active: Lanes) -> Lanes:
    """Return the lane enables ``(a <mode> b) & active`` of a compare's result (one register).

    Examples
    --------
    >>> import numpy as np
    >>> compare_enables("GT", np.array([1, 5], np.int16), 3, np.array([True, False]))
    array([False, False])
    """
    return enabled(compare(mode, a, b), active)


def compare_mask(
    mode: str, a: Lanes, b: Lanes | Any, active: Lanes, stride: int
) -> tuple[Lanes, Lanes | None]:
    """Return :func:`compare_bits` and, for whole registers, the lane enables of the bits.

    The enables (None for a short register) let the next op reading the mask at
    *stride* skip the strided view of the bits (``MaskReg.set_bits``).

    Examples
    --------
    >>> import numpy as np
    >>> a, on = np.arange(128, dtype=np.int16), np.ones(128, bool)
    >>> bits, enables = compare_mask("LT", a, 3, on, 2)  # a whole int16 register
    >>> int(bits.sum()), enables[:4].tolist()
    (3, [True, True, True, False])
    >>> compare_mask("LT", a[:2], 3, on[:2], 2)[1] is None  # two lanes: a short register
    True
    """
    enables = enabled(compare(mode, a, b), active)
    if enables.shape[-1] * stride != MASK_BITS:  # a short register: the other bits are 0
        return predicate_mask(enables, enables, stride)[0], None
    # the mask keeps the enables (MaskReg.set_bits): readers at *stride* take them, not the bits
    return spread_enables(enables, stride), enables


def merge_masked(result: Lanes, active: Lanes, old: Lanes | None) -> Lanes:
    """Apply a merge mode: masked-off lanes keep *old* (MERGING) or become 0 (*old* None).

    Examples
    --------
    >>> import numpy as np
    >>> on = np.array([True, False])
    >>> merge_masked(np.int8([5, 6]), on, None), merge_masked(np.int8([5, 6]), on, np.int8([1, 2]))
    (array([5, 0], dtype=int8), array([5, 2], dtype=int8))
    """
    return zero_masked(result, active) if old is None else select(active, result, old)

"""Shift semantics (``vshl`` / ``vshr``) on numpy lane arrays.

* Unsigned lanes shift logically; signed right shifts are arithmetic.
* A signed left shift keeps the sign bit and drops the bit below it:
  ``(x & SIGN) | ((x << n) & ~SIGN)`` (the spec's example: int16 0xAAAA << 1 = 0xD554).
* A count at or above the bit width gives 0, except an arithmetic right shift of a negative
  value, which gives -1. (The docs say "greater than the width"; equal is treated the same, as
  the b64 software emulation relies on.)
* Negative counts are undefined on the chip. The front ends reject them (or, under the
  ``warn`` policy, call :func:`shift` which shifts the other way by ``|n|``).
* A b64 vector count is the whole ``int64_t`` lane (:data:`B64_COUNT_RULE`), for both
  directions and both traits, like the counts of every other width.

Examples
--------
>>> import numpy as np
>>> shift_left(np.array([-21846], np.int16), np.array([1])).view(np.uint16)
array([54612], dtype=uint16)
>>> hex(54612)
'0xd554'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg.core.compare import zero_masked
from ascreg.core.masks import _ALL_ON_IDS
from ascreg.errors import NegativeShiftError, undefined_behaviour
from ascreg.machine.undefined import UndefinedLanes

Lanes = np.ndarray[Any, Any]

B64_COUNT_RULE = (
    "a b64 vector shift count is the whole int64_t value: >= 64 gives 0 (or the sign fill), "
    "negative is undefined (docs/zh/api/SIMD-API/基础API/Reg矢量计算/逻辑计算/ShiftLeft.md and "
    "ShiftRight.md: int64_t counts, 'greater than the width gives 0', negative undefined)"
)
"""The decision for b64 vector shift counts, where the documents and the emulation disagree.

The Reg pages list ``int64_t`` counts for ``int64_t``/``uint64_t`` data and state the rule for a
count above the width and for a negative count, with no word about a 64-bit count being cut to
32 bits. The dav-3510 software emulation
(``impl/basic_api/reg_compute/dav_3510/kernel_reg_compute_vec_binary_impl.h``, ``ShiftL`` /
``ShiftR`` called from ``ShiftLeftImpl``/``ShiftRightImpl`` with ``(RegTensor<int32_t>&)``)
reads only the low word of each count; its results for counts of 32 or more already rely on
negative 32-bit shift counts, which the same pages call undefined. ascreg follows the
documented contract: the whole 64-bit count, as for every other width (a count of ``2**32``
gives 0, not a shift by 0; ``2**31`` is a large count, not a negative one)."""


def _clamped(values: Lanes, counts: Lanes) -> tuple[Lanes, Lanes, int]:
    width = 8 * values.dtype.itemsize
    big = counts >= width
    return np.minimum(counts, width - 1).astype(values.dtype), big, width


def shift_right(values: Lanes, counts: Lanes) -> Lanes:
    """Shift each lane right by its (non-negative) count; arithmetic for signed dtypes.

    Examples
    --------
    >>> shift_right(np.array([-8, 8], np.int8), np.array([9, 9]))
    array([-1,  0], dtype=int8)
    """
    clamped, big, _ = _clamped(values, counts)
    result = np.right_shift(values, clamped)
    if values.dtype.kind == "u":
        result[big] = 0
    return result  # signed: a shift by width-1 already yields the sign fill


def shift_left(values: Lanes, counts: Lanes) -> Lanes:
    """Shift each lane left by its (non-negative) count; sign-preserving for signed dtypes.

    Examples
    --------
    >>> shift_left(np.array([0x81], np.uint8), np.array([1]))
    array([2], dtype=uint8)
    """
    clamped, big, width = _clamped(values, counts)
    shifted = np.left_shift(values, clamped)
    if values.dtype.kind == "i":
        sign = np.array(-(1 << (width - 1)), dtype=values.dtype)
        shifted = (values & sign) | (shifted & ~sign)
    shifted[big] = 0
    return shifted


def shift(values: Lanes, counts: Lanes, *, left: bool) -> Lanes:
    """Shift with possibly negative counts: a negative count shifts the other way by ``|n|``.

    This is the fallback used only under the ``warn`` policy (hardware behaviour for negative
    counts is undefined; this is what the b64 software emulation in the spec assumes).

    Examples
    --------
    >>> shift(np.array([4, 4], np.uint8), np.array([1, -1]), left=True)
    array([8, 2], dtype=uint8)
    """
    negative = counts < 0
    magnitude = np.abs(counts)
    forward = shift_left(values, magnitude) if left else shift_right(values, magnitude)
    if not negative.any():
        return forward
    backward = shift_right(values, magnitude) if left else shift_left(values, magnitude)
    return np.where(negative, backward, forward)


def masked_shift(
    values: Lanes, counts: Lanes, active: Lanes, *, left: bool
) -> tuple[Lanes, Lanes | None]:
    """Apply the ZEROING shift op in as few numpy passes as possible.

    *counts* holds per-lane counts of the same element width as *values* (or is a 0-d array
    for a scalar count). Returns ``(result, negative_active)``: *negative_active* flags the
    enabled lanes whose count is negative, or is None when no count is negative. The caller
    decides what a negative count means; *result* then holds the :func:`shift` fallback for
    those lanes.

    Examples
    --------
    >>> v = np.array([8, 8, 8], np.uint8)
    >>> masked_shift(v, np.array([1, 9, -1], np.int8), np.array([True, True, False]), left=False)
    (array([4, 0, 0], dtype=uint8), array([False, False, False]))
    >>> masked_shift(v, np.array([1, 2, 3], np.int8), np.array([True, True, False]), left=True)
    (array([16, 32,  0], dtype=uint8), None)
    """
    size = values.dtype.itemsize
    width = 8 * size
    if counts.ndim == 0 or counts.dtype.itemsize != size:
        clamped = np.clip(counts.astype(np.int64), -width, width)  # same result, fits the width
        counts = np.broadcast_to(clamped, values.shape).astype(_SIGNED[size])
    signed = counts if counts.dtype.kind == "i" else counts.view(_SIGNED[size])
    # the lowest count (argmin and one element: cheaper than a reduction on a register's lanes)
    if signed.item(signed.argmin()) < 0:  # a negative count somewhere: the rare, slow path
        wide = signed.astype(np.int64)
        return np.where(active, shift(values, wide, left=left), 0), (wide < 0) & active
    # numpy defines shifts by the width or more as the chip does (0, or the sign fill of a
    # signed right shift), so non-negative counts need no clamping.
    amounts = counts if counts.dtype is values.dtype else counts.view(values.dtype)
    if not left:
        result = np.right_shift(values, amounts)
    else:
        result = np.left_shift(values, amounts)
        if values.dtype.kind == "i":  # the sign bit stays; a count of width or more gives 0
            sign = _SIGN[size].view(values.dtype)
            result = (values & sign) | (result & ~sign)
            if signed.item(signed.argmax()) >= width:
                active = active & (signed < width)
    if type(result) is UndefinedLanes:  # (x * 0 keeps x's taint: a zeroed lane is defined)
        return zero_masked(result, active), None
    if result.shape != active.shape:  # one register's lanes under rows of enables (a batch)
        return np.multiply(result, active), None
    if id(active) in _ALL_ON_IDS:
        return result, None  # every lane on: nothing to zero
    return np.multiply(result, active, out=result), None  # zeroing; cheaper than np.where


_SIGNED = {n: np.dtype(f"i{n}") for n in (1, 2, 4, 8)}
_UNSIGNED = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}
_SIGN = {n: np.array(1 << (8 * n - 1), dtype=_UNSIGNED[n]) for n in (1, 2, 4, 8)}


def zeroing_shift(values: Lanes, counts: Lanes, active: Lanes, *, left: bool) -> Lanes:
    """Shift as both front ends do: :func:`masked_shift`, then apply the negative-count rule.

    A negative count in an enabled lane is undefined on the chip: a
    :class:`~ascreg.errors.NegativeShiftError` (or, under ``undefined="warn"``, a warning and the
    :func:`shift` fallback).

    Examples
    --------
    >>> zeroing_shift(np.array([8, 8], np.int8), np.array([1, -1], np.int8),
    ...               np.array([True, True]), left=False)
    Traceback (most recent call last):
    ...
    ascreg.errors.NegativeShiftError: shift count -1 is negative (1 active lane(s)); negative counts are undefined on the chip
    """
    result, negative = masked_shift(values, counts, active, left=left)
    if negative is not None and negative.any():
        bad = counts if counts.ndim == 0 else counts[negative]
        undefined_behaviour(
            NegativeShiftError(
                f"shift count {int(bad.flat[0])} is negative ({int(negative.sum())} active "
                "lane(s)); negative counts are undefined on the chip"
            )
        )
    return result

"""Lane semantics of the advanced API's normalizations (归一化操作) on dav-3510.

Each function re-expresses the dav-3510 implementation (``impl/adv_api/detail/normalization/
*_3510_impl.h`` of asc-devkit) with the core functions of the register ops it is built from, in
the same order, so the sums are the chip's: the 64 float lanes of a register are added by
``ReduceSum`` in the pairwise tree of :func:`ascreg.core.reduce.tree_sum` (masked-off lanes
count as ``+0``), ``Axpy`` / ``MulAddDst`` / ``FusedMulDstAdd`` round once, ``Sub``, ``Mul``,
``Muls``, ``Adds`` and ``Add`` are IEEE float32. Half and bfloat16 inputs are cast up exactly
and results cast back with ``CAST_RINT`` without saturation (``LayoutZMrgZRndRSatNS``).

* :func:`welford_update`: one Welford step per element (``WelfordUpdate``);
* :func:`welford_finalize`: the binary-fold reductions of the per-column statistics to one mean
  and one variance (``WelfordFinalize``), with and without ``counts``;
* :func:`layernorm_mean_variance`: the mean and variance of each row for the ``[A, R]``
  ``LayerNorm`` (three algorithms by ``rLength``: up to 64, up to 128, the fold through a
  ``2^k`` head block);
* :func:`rsqrt` and :func:`normalize`: the Newton-refined reciprocal square root and
  ``(x - mean) * rstd * gamma + beta`` (``Normalize``);
* :func:`rmsnorm`: ``x * exp(-0.5 ln(sum(x^2) / n + eps)) * gamma`` per row (``RmsNorm``).

Examples
--------
>>> import numpy as np
>>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
>>> mean, var = layernorm_mean_variance(x, 64, 1 / 64, 64 / 3)
>>> mean.tolist(), var.tolist()
([1.0, 4.0], [0.6666666865348816, 0.6666666865348816])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import bfloat16_t, float32_t, half, int32_t
from ascreg.core import advmath, convert
from ascreg.core.reduce import tree_sum
from ascreg.enums import RoundMode

Lanes = np.ndarray[Any, Any]

VL = 64
"""The float lanes of one register (``GetVecLen() / sizeof(float)``)."""

F32 = np.dtype(np.float32)

_NARROW = {np.dtype(np.float16): half, np.dtype(bfloat16_t.np_dtype): bfloat16_t}


def widen(values: Lanes) -> Lanes:
    """Return half / bfloat16 / float lanes as float32 (``Cast<float, T>``, exact)."""
    return np.asarray(values).astype(np.float32)


def narrow(values: Lanes, dtype: np.dtype[Any]) -> Lanes:
    """Return float32 lanes as *dtype* (``Cast<T, float>`` with ``CAST_RINT``, no saturation).

    Examples
    --------
    >>> narrow(np.float32([1.0 + 2.0**-11, 70000.0]), np.dtype(np.float16)).tolist()
    [1.0, inf]
    """
    if np.dtype(dtype) == F32:
        return values.astype(np.float32)
    return convert.convert(values, float32_t, _NARROW[np.dtype(dtype)], RoundMode.CAST_RINT, False)


def _full(values: Lanes, s: Any) -> Lanes:
    return np.full(values.shape, np.float32(s), np.float32)


def _masked(values: Lanes, count: int) -> Lanes:
    """Zero the lanes from *count* on (a ``ZEROING`` op under ``UpdateMask(count)``)."""
    out = values.copy()
    out[..., count:] = 0
    return out


def _chunk(rows: Lanes, start: int, count: int) -> Lanes:
    """Return the register of ``rows[:, start:start + count]``, masked-off lanes ``+0``."""
    out = np.zeros((rows.shape[0], VL), np.float32)
    out[:, :count] = rows[:, start : start + count]
    return out


def _reduce(registers: Lanes) -> Lanes:
    """``ReduceSum`` of each row's 64 lanes (the pairwise tree), as a column vector."""
    return np.asarray(tree_sum(registers)).reshape(-1, 1)


def _fold(partials: Lanes, repeat: int) -> Lanes:
    """Add the halves of the per-row partial sums *repeat* times, then ``ReduceSum`` 64 lanes.

    *partials* has one stored ``ReduceSum`` per 64-lane block; with more than 64 of them the
    work buffer is folded in registers (``W[i] += W[cur + i]``, ``cur`` halving) first.
    """
    rows, count = partials.shape
    if count <= VL:
        return _reduce(_chunk(partials, 0, count))
    work = partials.reshape(rows, count // VL, VL).copy()
    current = count // VL
    for _ in range(repeat):
        current //= 2
        work[:, :current] = advmath.add(work[:, :current], work[:, current : 2 * current])
    return _reduce(work[:, 0])


def _power_of_two_at_most(n: int) -> int:
    """``CalculateMainBlock``: the largest power of two not above *n* (0 for 0)."""
    return 1 << (n.bit_length() - 1) if n else 0


def _log2_floor(n: int) -> int:
    return max(n.bit_length() - 1, 0)


# -- WelfordUpdate ---------------------------------------------------------------------------


def welford_update(x: Lanes, mean: Lanes, variance: Lanes, n_rec: float) -> tuple[Lanes, Lanes]:
    """One Welford step per element: ``mean + (x - mean) * nRec`` and ``M2 + (x - mean) (x - mean')``.

    ``tmp = x - mean``; ``mean' = tmp * nRec + mean`` (``Muls`` then ``Add``, two roundings);
    ``var' = tmp * (x - mean') + var`` (``Mul`` then ``Add``).

    Examples
    --------
    >>> m, v = welford_update(np.float32([4.0]), np.float32([2.0]), np.float32([1.0]), 0.5)
    >>> m.tolist(), v.tolist()
    ([3.0], [3.0])
    """
    x = widen(x)
    tmp = advmath.sub(x, mean)
    new_mean = advmath.add(advmath.muls(tmp, n_rec), mean)
    new_variance = advmath.add(advmath.mul(tmp, advmath.sub(x, new_mean)), variance)
    return new_mean, new_variance


# -- WelfordFinalize ---------------------------------------------------------------------------


def binary_reduce_sum(values: Lanes, head: int, k2_rec: float, scale: float) -> np.float32:
    """``BinaryReduceSum`` of ``welfordfinalize_3510_impl.h``: ``sum(v * k2Rec) * scale``.

    Below 64 values one masked ``ReduceSum``; else the tail beyond the ``head`` block (a power
    of two) is added to the head's first lanes register by register, each register reduced
    to one partial sum, and the partial sums folded and reduced once more.

    Examples
    --------
    >>> float(binary_reduce_sum(np.ones(100, np.float32), 64, 1 / 128, 128 / 100))
    1.0
    """
    values = widen(values).reshape(1, -1)
    length = values.shape[1]
    if length < VL:
        total = _reduce(advmath.muls(_chunk(values, 0, length), k2_rec))
        return np.float32(advmath.muls(total, scale)[0, 0])
    tail = length - head
    tail_span = -(-tail // VL) * VL
    partials = []
    for i in range(-(-tail // VL)):
        count = min(VL, tail - i * VL)
        main = advmath.muls(values[:, i * VL : (i + 1) * VL], k2_rec)
        extra = advmath.muls(_chunk(values, head + i * VL, count), k2_rec)
        partials.append(_reduce(advmath.add(main, extra)))
    for start in range(tail_span, head, VL):
        partials.append(_reduce(advmath.muls(values[:, start : start + VL], k2_rec)))
    padded = -(-length // VL) * VL
    k = 6
    block = VL
    for i in range(padded):
        if block * 2 > padded:
            k += i
            break
        block *= 2
    total = _fold(np.concatenate(partials, axis=1), max(k - 12, 0))
    return np.float32(advmath.muls(total, scale)[0, 0])


def welford_finalize(
    mean: Lanes,
    variance: Lanes,
    para: Any,
    *,
    correction: bool = False,
    counts: Lanes | None = None,
) -> tuple[np.float32, np.float32]:
    """Return the (mean, variance) ``WelfordFinalize`` reduces the per-column statistics to.

    *para* has the fields of ``WelfordFinalizePara``. Without *counts*: with no tail
    (``tailCount == 0`` or ``tailCountLength == 0``) the ``headCountLength`` columns are
    averaged with ``abRec`` and the variance is ``sum(var + (mean - mean')^2 * rnLength) *
    rRec``; with a tail every column is weighted by ``tailCount`` and the head columns then by
    ``headCount / tailCount``. With *counts* each column is weighted by its count. Each sum is
    :func:`binary_reduce_sum` with ``k`` the largest power of two in the column count and
    ``kOverflow`` twice that when it is short (of ``abLength`` without a tail). *correction*
    (``WelfordFinalizeConfig::isCorrection``) scales the variance by ``rRecWithCorrection``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> p = SimpleNamespace(rnLength=2, abLength=8, headCount=2, headCountLength=8, tailCount=0,
    ...                     tailCountLength=0, abRec=1 / 8, rRec=1 / 16, rRecWithCorrection=1 / 15)
    >>> m, v = welford_finalize(np.arange(8, dtype=np.float32), np.ones(8, np.float32), p)
    >>> float(m), float(v)
    (3.5, 5.75)
    """
    f = np.float32
    variance_rec = f(para.rRecWithCorrection) if correction else f(para.rRec)
    head_count = int(para.headCountLength)
    no_tail = int(para.tailCount) == 0 or int(para.tailCountLength) == 0
    if counts is not None:
        length = against = head_count + int(para.tailCountLength)
        weights = convert.convert(counts[:length], int32_t, float32_t, RoundMode.CAST_ROUND, False)
        mean_terms, mean_rec = advmath.mul(weights, mean[:length]), f(para.rRec)
    elif no_tail:
        length, against = head_count, int(para.abLength)
        mean_terms, mean_rec = mean[:length], f(para.abRec)
    else:
        length = against = int(para.abLength)
        tail, ratio = f(para.tailCount), float(f(para.headCount) / f(para.tailCount))
        mean_terms, mean_rec = advmath.muls(mean[:length], float(tail)), f(para.rRec)
        mean_terms[:head_count] = advmath.muls(mean_terms[:head_count], ratio)
    head = _power_of_two_at_most(length)
    overflow = head * 2 if head < against else head
    k2_rec = float(f(1) / f(overflow))
    out_mean = binary_reduce_sum(mean_terms, head, k2_rec, float(mean_rec * f(overflow)))
    spread = advmath.sub(mean[:length], _full(mean[:length], out_mean))
    square = advmath.mul(spread, spread)
    if counts is not None:
        terms = advmath.add(advmath.mul(square, weights), variance[:length])
    elif no_tail:
        terms = advmath.add(variance[:length], advmath.muls(square, float(f(para.rnLength))))
    else:
        terms = advmath.muls(square, float(tail))
        terms[:head_count] = advmath.muls(terms[:head_count], ratio)
        terms = advmath.add(variance[:length], terms)
    out_variance = binary_reduce_sum(terms, head, k2_rec, float(variance_rec * f(overflow)))
    return out_mean, out_variance


# -- LayerNorm ---------------------------------------------------------------------------------


def layernorm_mean_variance(
    rows: Lanes, head: int, k2_rec: float, k2_rrec: float
) -> tuple[Lanes, Lanes]:
    """Return the mean and variance of each row (``rLength`` columns) as ``LayerNorm`` sums them.

    Every element is scaled by ``k2Rec = 1/2^k`` before it is added and the register sum by
    ``k2RRec = 2^k / rLength`` after (``LayerNormSeparateTiling``). Up to 64 columns one masked
    register; up to 128 two registers added lane by lane; beyond, the columns past the
    ``head`` block (``rHeadLength``, a power of two) are added to the head's first columns
    (``Axpy``), two registers at a time are added and reduced to a partial sum, and the
    partial sums are folded and reduced. The variance repeats this on ``(x - mean)^2``.

    Examples
    --------
    >>> x = np.arange(200, dtype=np.float32).reshape(1, 200)
    >>> mean, var = layernorm_mean_variance(x, 128, 1 / 256, 256 / 200)
    >>> float(mean[0]), float(var[0])
    (99.5, 3333.25)
    """
    rows = widen(rows)
    length = rows.shape[1]
    if length <= VL:
        mean = advmath.muls(_reduce(advmath.muls(_chunk(rows, 0, length), k2_rec)), k2_rrec)
        spread = advmath.sub(_chunk(rows, 0, length), mean)
        terms = _masked(advmath.muls(advmath.mul(spread, spread), k2_rec), length)
        return mean[:, 0], advmath.muls(_reduce(terms), k2_rrec)[:, 0]
    if length <= 2 * VL:
        return _mean_variance_128(rows, k2_rec, k2_rrec)
    mean = advmath.muls(_use_y(rows, head, k2_rec, None), k2_rrec)
    variance = advmath.muls(_use_y(rows, head, k2_rec, mean), k2_rrec)
    return mean[:, 0], variance[:, 0]


def _mean_variance_128(rows: Lanes, k2_rec: float, k2_rrec: float) -> tuple[Lanes, Lanes]:
    count = rows.shape[1] - VL
    low, high = rows[:, :VL], _chunk(rows, VL, count)
    total = advmath.add(advmath.muls(low, k2_rec), advmath.muls(high, k2_rec))
    mean = advmath.muls(_reduce(total), k2_rrec)
    low_d = advmath.sub(low, mean)
    high_d = advmath.sub(high, mean)
    low_t = advmath.muls(advmath.mul(low_d, low_d), k2_rec)
    high_t = _masked(advmath.muls(advmath.mul(high_d, high_d), k2_rec), count)
    variance = advmath.muls(_reduce(advmath.add(low_t, high_t)), k2_rrec)
    return mean[:, 0], variance[:, 0]


def _use_y(rows: Lanes, head: int, k2_rec: float, mean: Lanes | None) -> Lanes:
    """``ComputeMeanUseY`` (*mean* None) or ``ComputeVarianceUseY``: the folded, unscaled sum."""
    length = rows.shape[1]
    tail = length - head

    def term(block: Lanes, count: int = VL) -> Lanes:
        """Return the block's (x - mean)^2 (or x), lanes from *count* on zero."""
        if mean is None:
            return block
        spread = advmath.sub(block, mean)
        return _masked(advmath.mul(spread, spread), count)

    def pair(first: int, second: int, count: int) -> Lanes:
        """``Muls(dst, tailBlock, k2Rec); Axpy(dst, headBlock, k2Rec)`` with the tail masked."""
        extra = _masked(advmath.muls(term(_chunk(rows, second, count), count), k2_rec), count)
        return advmath.fma(term(rows[:, first : first + VL]), _full(extra, k2_rec), extra)

    partials = []
    repeat1 = -(-tail // VL) // 2
    remaining = tail
    for i in range(repeat1):
        halves = []
        for block in (2 * i, 2 * i + 1):
            count = min(VL, remaining)
            remaining -= count
            halves.append(pair(block * VL, head + block * VL, count))
        partials.append(_reduce(advmath.add(*halves)))
    count2 = 0 if repeat1 * 2 * VL > tail else tail % (2 * VL)
    repeat2 = -(-count2 // VL)
    base = repeat1 * 2 * VL
    for _ in range(repeat2):
        first = pair(base, head + base, count2)
        second = advmath.muls(term(rows[:, base + VL : base + 2 * VL]), k2_rec)
        partials.append(_reduce(advmath.add(first, second)))
    start = (repeat1 + repeat2) * 2 * VL
    for offset in range(start, head, 2 * VL):
        first = advmath.muls(term(rows[:, offset : offset + VL]), k2_rec)
        second = advmath.muls(term(rows[:, offset + VL : offset + 2 * VL]), k2_rec)
        partials.append(_reduce(advmath.add(first, second)))
    work = np.concatenate(partials, axis=1)
    half_add_times = -(-work.shape[1] // VL)
    return _fold(work, _log2_floor(half_add_times))


# -- Normalize ---------------------------------------------------------------------------------


def rsqrt(values: Lanes) -> Lanes:
    """``RsqrtUtil``: ``1/sqrt(x)`` from ``Sqrt(1/x)`` with one Newton step and a correction.

    ``x = +inf`` gives 0 and ``x = 0`` gives ``+inf``.

    Examples
    --------
    >>> rsqrt(np.float32([4.0, 0.0, np.inf, 2.0])).tolist()
    [0.5, inf, 0.0, 0.7071067690849304]
    """
    x = values.astype(np.float32)
    one = _full(x, 1.0)
    r = advmath.div(one, x)
    y = advmath.sqrt(r)
    t = advmath.mul(advmath.muls(x, -0.5), y)
    y = advmath.mul(y, advmath.fma(t, y, _full(x, 1.5)))
    s = advmath.fma(advmath.muls(x, -1.0), r, one)
    r = advmath.fma(advmath.muls(y, -1.0), y, r)
    s = advmath.mul(advmath.fma(x, r, s), y)
    y = advmath.fma(s, _full(x, 0.5), y)
    y = np.where(x == np.float32(np.inf), np.float32(0), y)
    result: Lanes = np.where(x == 0, np.float32(np.inf), y).astype(np.float32)
    return result


def normalize(
    rows: Lanes,
    mean: Lanes,
    rstd: Lanes,
    gamma: Lanes | None,
    beta: Lanes | None,
    out_dtype: np.dtype[Any],
) -> Lanes:
    """Return ``(x - mean) * rstd``, then ``gamma * y + beta`` (fused), cast to *out_dtype*.

    *mean* and *rstd* are per row; without gamma or beta the other one is applied alone
    (``Mul`` / ``Add``).

    Examples
    --------
    >>> normalize(np.float32([[1.0, 3.0]]), np.float32([2.0]), np.float32([0.5]),
    ...           np.float32([2.0, 2.0]), np.float32([1.0, 1.0]), np.dtype(np.float32)).tolist()
    [[0.0, 2.0]]
    """
    x = widen(rows)
    y = advmath.mul(advmath.sub(x, mean.reshape(-1, 1)), rstd.reshape(-1, 1))
    g = None if gamma is None else np.broadcast_to(widen(gamma), y.shape)
    b = None if beta is None else np.broadcast_to(widen(beta), y.shape)
    if g is not None and b is not None:
        y = advmath.fma(g, y, b)
    else:
        if g is not None:
            y = advmath.mul(y, g)
        if b is not None:
            y = advmath.add(y, b)
    return narrow(y, out_dtype)


# -- RmsNorm -----------------------------------------------------------------------------------


def rmsnorm(
    rows: Lanes, gamma: Lanes, reciprocal: float, epsilon: float, out_dtype: np.dtype[Any]
) -> Lanes:
    """``x * exp(-0.5 * ln(sum(x^2) * reciprocal + eps)) * gamma`` per row, as ``RmsNorm`` does.

    The squares are added lane-wise over the row's 64-element registers (the partial last one
    under its mask), then the register is reduced; the reciprocal square root is ``Ln``,
    ``Muls(-0.5)``, ``Exp``.

    Examples
    --------
    >>> rmsnorm(np.float32([[3.0, 4.0]]), np.float32([1.0, 2.0]), 0.04, 0.0,
    ...         np.dtype(np.float32)).tolist()
    [[3.0, 8.0]]
    """
    x = widen(rows)
    length = x.shape[1]
    acc = np.zeros((x.shape[0], VL), np.float32)
    for start in range(0, length, VL):
        count = min(VL, length - start)
        block = _chunk(x, start, count)
        acc = np.where(
            np.arange(VL) < count, advmath.add(acc, advmath.mul(block, block)), acc
        ).astype(np.float32)
    total = _reduce(acc)
    r = advmath.adds(advmath.muls(total, reciprocal), epsilon)
    r = advmath.exp(advmath.muls(advmath.ln(r), -0.5))
    y = advmath.mul(advmath.mul(x, r), np.broadcast_to(widen(gamma), x.shape))
    return narrow(y, out_dtype)

"""The advanced API's normalizations one value at a time, on float32 bit patterns.

The steps are the ones the API pages describe and the dav-3510 implementations fix (the order
of every addition, ``docs/limitations.md``), written as explicit loops over 64-lane registers
with the per-lane references of the register ops (reference.advmath: ``Mul``, ``Add``,
``Muls``, fused multiply-add, ``Div``, ``Sqrt``, ``Exp``, ``Ln``) and the register ``ReduceSum``
pairwise tree: an independent, scalar path to :mod:`ascreg.core.advnorm`. Nothing here calls
ascreg's core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ascreg import RoundMode, float32_t, int32_t
from ascreg._dtypes import Scalar
from reference import advmath as m
from reference.convert import convert_element

F = float32_t
LANES = 64
ZERO = 0
INF = 0x7F800000


def up(bits: int, dtype: type[Scalar]) -> int:
    """A half / bfloat16 / float element as float32 bits (exact)."""
    return bits if dtype is F else convert_element(bits, dtype, F, RoundMode.CAST_RINT, False)


def down(bits: int, dtype: type[Scalar]) -> int:
    """float32 bits to *dtype* (``CAST_RINT``, no saturation)."""
    return bits if dtype is F else convert_element(bits, F, dtype, RoundMode.CAST_RINT, False)


def reduce_sum(lanes: Sequence[int], active: int = LANES) -> int:
    """``ReduceSum`` of a 64-lane register: lanes from *active* on count as +0; pairwise tree."""
    values = [v if i < active else ZERO for i, v in enumerate(lanes)]
    values += [ZERO] * (LANES - len(values))
    while len(values) > 1:
        values = [m.add(values[i], values[i + 1]) for i in range(0, len(values), 2)]
    return values[0]


def fold(partials: list[int]) -> int:
    """Reduce the stored partial sums: fold halves of 64-lane blocks, then one ReduceSum."""
    if len(partials) <= LANES:
        return reduce_sum(partials, len(partials))
    blocks = [partials[i : i + LANES] for i in range(0, len(partials), LANES)]
    while len(blocks) > 1:
        half_count = len(blocks) // 2
        blocks = [
            [m.add(a, b) for a, b in zip(blocks[i], blocks[half_count + i], strict=True)]
            for i in range(half_count)
        ]
    return reduce_sum(blocks[0])


# -- WelfordUpdate -----------------------------------------------------------------------------


def welford_update(x: int, mean: int, var: int, n_rec: float) -> tuple[int, int]:
    """One element: ``d = x - mean; mean' = d * nRec + mean; var' = d * (x - mean') + var``."""
    d = m.sub(x, mean)
    new_mean = m.add(m.muls(d, n_rec), mean)
    return new_mean, m.add(m.mul(d, m.sub(x, new_mean)), var)


# -- WelfordFinalize ---------------------------------------------------------------------------


def binary_reduce_sum(values: Sequence[int], head: int, k2_rec: float, scale: float) -> int:
    """``sum(v * k2Rec) * scale`` with the tail past *head* added onto the head first."""
    n = len(values)
    if n < LANES:
        return m.muls(reduce_sum([m.muls(v, k2_rec) for v in values], n), scale)
    tail = n - head
    partials = []
    blocks = -(-tail // LANES)
    for b in range(blocks):
        lanes = []
        for lane in range(LANES):
            main = m.muls(values[b * LANES + lane], k2_rec)
            j = head + b * LANES + lane
            extra = m.muls(values[j], k2_rec) if j < n else ZERO
            lanes.append(m.add(main, extra))
        partials.append(reduce_sum(lanes))
    for start in range(blocks * LANES, head, LANES):
        partials.append(reduce_sum([m.muls(v, k2_rec) for v in values[start : start + LANES]]))
    return m.muls(fold(partials), scale)


def _largest_power_of_two(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def welford_finalize(
    mean: Sequence[int], var: Sequence[int], para: Any, correction: bool,
    counts: Sequence[int] | None,
) -> tuple[int, int]:  # fmt: skip
    """(mean, variance) of ``WelfordFinalize``: weights per column, two binary reductions."""
    f = m.const
    head_len, tail_len = int(para.headCountLength), int(para.tailCountLength)
    no_tail = int(para.tailCount) == 0 or tail_len == 0
    if counts is not None:
        n = against = head_len + tail_len
        weights = [convert_element(c, int32_t, F, RoundMode.CAST_ROUND, False) for c in counts[:n]]
    elif no_tail:
        n, against = head_len, int(para.abLength)
    else:
        n = against = int(para.abLength)
        ratio = m.div(f(float(para.headCount)), f(float(para.tailCount)))
        tail = f(float(para.tailCount))

    def weigh(i: int, v: int) -> int:
        if counts is not None:
            return m.mul(v, weights[i])
        if no_tail:
            return v
        w = m.mul(v, tail)
        return m.mul(w, ratio) if i < head_len else w

    head = _largest_power_of_two(n)
    overflow = 2 * head if head < against else head
    k2_rec = m.value(m.div(f(1.0), f(float(overflow))))
    mean_rec = float(para.rRec) if counts is not None or not no_tail else float(para.abRec)
    out_mean = binary_reduce_sum(
        [weigh(i, mean[i]) for i in range(n)], head, k2_rec,
        m.value(m.mul(f(mean_rec), f(float(overflow)))),
    )  # fmt: skip
    terms = []
    for i in range(n):
        d = m.sub(mean[i], out_mean)
        square = m.mul(d, d)
        if counts is None and no_tail:
            terms.append(m.add(var[i], m.muls(square, float(para.rnLength))))
        else:
            terms.append(m.add(weigh(i, square), var[i]))
    rec = float(para.rRecWithCorrection) if correction else float(para.rRec)
    out_var = binary_reduce_sum(terms, head, k2_rec, m.value(m.mul(f(rec), f(float(overflow)))))
    return out_mean, out_var


# -- LayerNorm ---------------------------------------------------------------------------------


def _scaled(values: Sequence[int], k2_rec: float) -> list[int]:
    return [m.muls(v, k2_rec) for v in values]


def _square(v: int, mean: int) -> int:
    d = m.sub(v, mean)
    return m.mul(d, d)


def _row_sum(row: Sequence[int], head: int, k2_rec: float) -> int:
    """The folded sum of ``row[i] * k2Rec``: tail blocks onto the head, two blocks a partial."""
    n = len(row)
    if n <= LANES:
        return reduce_sum(_scaled(row, k2_rec), n)
    if n <= 2 * LANES:
        high = row[LANES:] + [ZERO] * (2 * LANES - n)
        lanes = [
            m.add(m.muls(row[i], k2_rec), m.muls(high[i], k2_rec) if LANES + i < n else ZERO)
            for i in range(LANES)
        ]
        return reduce_sum(lanes)
    tail = n - head
    tail_blocks = -(-tail // LANES)
    block_sums = []  # one register per 64-column block of the head, the tail block added on
    for b in range(head // LANES):
        lanes = []
        for lane in range(LANES):
            i = b * LANES + lane
            extra = m.muls(row[head + i], k2_rec) if b < tail_blocks and head + i < n else ZERO
            lanes.append(
                m.fma(row[i], m.const(k2_rec), extra) if b < tail_blocks else m.muls(row[i], k2_rec)
            )
        block_sums.append(lanes)
    partials = [
        reduce_sum(
            [m.add(a, b) for a, b in zip(block_sums[2 * p], block_sums[2 * p + 1], strict=True)]
        )
        for p in range(len(block_sums) // 2)
    ]
    return fold(partials)


def layernorm_mean_variance(
    row: Sequence[int], head: int, k2_rec: float, k2_rrec: float
) -> tuple[int, int]:
    """The row's mean and variance as ``LayerNorm`` sums them (float32 bits)."""
    mean = m.muls(_row_sum(row, head, k2_rec), k2_rrec)
    squares = [_square(v, mean) for v in row]
    return mean, m.muls(_row_sum(squares, head, k2_rec), k2_rrec)


# -- Normalize ---------------------------------------------------------------------------------


def rsqrt(x: int) -> int:
    """``RsqrtUtil``: ``y = sqrt(1/x)``, one Newton step, one residual correction."""
    if x == INF:
        return ZERO
    if x & 0x7FFFFFFF == 0:
        return INF
    one = m.const(1.0)
    r = m.div(one, x)
    y = m.sqrt(r)
    t = m.mul(m.muls(x, -0.5), y)
    y = m.mul(y, m.fma(t, y, m.const(1.5)))
    s = m.fma(m.muls(x, -1.0), r, one)
    r = m.fma(m.muls(y, -1.0), y, r)
    s = m.mul(m.fma(x, r, s), y)
    return m.fma(s, m.const(0.5), y)


def normalize(x: int, mean: int, rstd: int, gamma: int | None, beta: int | None) -> int:
    """One element: ``(x - mean) * rstd``, then ``gamma * y + beta`` fused, or one of them."""
    y = m.mul(m.sub(x, mean), rstd)
    if gamma is not None and beta is not None:
        return m.fma(gamma, y, beta)
    if gamma is not None:
        y = m.mul(y, gamma)
    if beta is not None:
        y = m.add(y, beta)
    return y


# -- RmsNorm -----------------------------------------------------------------------------------


def rmsnorm_row(
    row: Sequence[int], gamma: Sequence[int], reciprocal: float, eps: float
) -> list[int]:
    """``x * exp(-0.5 ln(sum(x^2) * reciprocal + eps)) * gamma`` (float32 bits)."""
    acc = [ZERO] * LANES
    for i, v in enumerate(row):
        acc[i % LANES] = m.add(acc[i % LANES], m.mul(v, v))
    scale = m.adds(m.muls(reduce_sum(acc), reciprocal), eps)
    scale = m.exp(m.muls(m.ln(scale), -0.5))
    return [m.mul(m.mul(v, scale), g) for v, g in zip(row, gamma, strict=True)]

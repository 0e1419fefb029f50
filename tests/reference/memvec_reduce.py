"""The 950's memory-level reductions, loop by loop, on bit patterns.

Written from ``impl/basic_api/dav_3510/kernel_operator_vec_reduce_impl.h`` (the basic API's
``ReduceSum`` / ``ReduceMax`` / ``ReduceMin``) and ``impl/adv_api/detail/reduce/
reduce_common_*_3510_impl.h`` (the ``Pattern::Reduce::AR`` / ``RA`` ones), keeping their loops:
a register is a list of lane bit patterns, the register ops are the lane references
(:func:`reference.arith.binary`, :func:`reference.reduce.reduce`), the buffer an algorithm
stores into is a list of bit patterns addressed as the C++ addresses it. Nothing here calls
``ascreg``'s implementation (``ascreg.basic._reduce`` / ``_fold``) or its core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ascreg._dtypes import Scalar
from reference.arith import binary
from reference.common import FLOAT_FORMATS, SIGNED, encode_float, is_float, is_nan_bits, width
from reference.reduce import reduce, reduce_datablock

VL = 256
BLOCK = 32
Vec = list[int]


def lanes(dtype: type[Scalar]) -> int:
    """``vlSize``: 64 for the 64-bit types (two registers), else ``256 / sizeof(T)``."""
    return 64 if dtype.size == 8 else VL // dtype.size


def _op(kind: str) -> str:
    return {"SUM": "Add", "MAX": "Max", "MIN": "Min", "PROD": "Mul"}[kind]


def _prod(dtype: type[Scalar], vec: Vec, on: Sequence[bool]) -> int:
    """``ReduceProd`` (reduce_prod_3510_impl.h): inactive lanes 1, then DeInterleave + Mul."""
    one = encode_float(1.0, dtype)
    lanes_ = [v if active else one for v, active in zip(vec, on, strict=True)]
    while len(lanes_) > 1:
        even, odd = lanes_[0::2], lanes_[1::2]
        lanes_ = [binary("Mul", dtype, a, b) for a, b in zip(even, odd, strict=True)]
    return lanes_[0]


def vadd(kind: str, dtype: type[Scalar], a: Vec, b: Vec, mask: Sequence[bool] | None = None) -> Vec:
    """``Binaryfunc(dst, a, b, mask)`` in ZEROING mode (inactive lanes 0)."""
    return [
        binary(_op(kind), dtype, x, y) if mask is None or mask[j] else 0
        for j, (x, y) in enumerate(zip(a, b, strict=True))
    ]


def vreduce(kind: str, dtype: type[Scalar], vec: Vec, active: Sequence[bool] | None = None) -> int:
    """The register ``ReduceSum`` / ``ReduceMax`` / ``ReduceMin``: lane 0 of the result."""
    on = [True] * len(vec) if active is None else list(active)
    if kind == "PROD":
        return _prod(dtype, vec, on)
    return reduce(kind, dtype, dtype, vec, on, len(vec))[0]


def block_vreduce(kind: str, dtype: type[Scalar], vec: Vec, active: Sequence[bool]) -> Vec:
    """``ReduceSumWithDataBlock`` / ``ReduceMaxWithDataBlock`` / ``ReduceMinWithDataBlock``."""
    return reduce_datablock(kind, dtype, dtype, vec, active, len(vec))


def update_mask(count: list[int], n: int) -> list[bool]:
    """``UpdateMask<T>(sreg)``: the first ``min(sreg, n)`` lanes; ``sreg`` goes down by n."""
    on = [j < count[0] for j in range(n)]
    count[0] = max(count[0] - n, 0)
    return on


# ---- the basic API's ReduceSum ------------------------------------------------------------------
def reduce_count(dtype: type[Scalar], regs: list[Vec], count: int, repeats: int) -> list[int]:
    """``ReduceCount``: *repeats* registers, ``UpdateMask(count)`` each, one sum stored each."""
    left = [count]
    return [vreduce("SUM", dtype, regs[i], update_mask(left, len(regs[i]))) for i in range(repeats)]


def chunks(values: list[int], n: int) -> list[Vec]:
    """Registers loaded from a buffer holding *values* (lanes past them: 0, masked off anyway)."""
    padded = values + [0] * (-len(values) % n)
    return [padded[k : k + n] for k in range(0, max(len(padded), n), n)]


def reduce_sum_counter(dtype: type[Scalar], regs: list[Vec], count: int) -> tuple[int, list[int]]:
    """``DispatchReduceSumCounterMode``: (dst bits, the final contents of the work buffer)."""
    n = lanes(dtype)
    if count <= n:
        return reduce_count(dtype, regs, count, 1)[0], []
    if count <= 4 * n:
        m = count - (count - 1) // n * n  # the last register's active lanes
        last = len(regs) - 1
        if count <= 2 * n:
            acc = [
                binary("Add", dtype, regs[0][j], regs[1][j]) if j < m else regs[0][j]
                for j in range(n)
            ]
        elif count <= 3 * n:
            acc = vadd("SUM", dtype, regs[0], regs[1])
            acc = [binary("Add", dtype, acc[j], regs[2][j]) if j < m else acc[j] for j in range(n)]
        else:
            acc = vadd("SUM", dtype, regs[0], regs[1])
            two = [
                binary("Add", dtype, regs[2][j], regs[last][j]) if j < m else regs[2][j]
                for j in range(n)
            ]
            acc = vadd("SUM", dtype, acc, two)
        return vreduce("SUM", dtype, acc), []
    count2 = -(-count // n)
    work = reduce_count(dtype, regs, count, count2)
    if count <= n * n:
        return reduce_count(dtype, chunks(work, n), count2, 1)[0], work
    count3 = -(-count2 // n)
    second = reduce_count(dtype, chunks(work, n), count2, count3)
    work[:count3] = second
    return reduce_count(dtype, chunks(second, n), count3, 1)[0], work


def reduce_sum_normal(
    dtype: type[Scalar], regs: list[Vec], mask: Sequence[bool], repeat: int
) -> tuple[int, list[int]]:
    """``ReduceSumNormalMode``: (dst bits, the final contents of the work buffer)."""
    n = lanes(dtype)
    if repeat <= 1:
        return vreduce("SUM", dtype, regs[0], mask), []
    work = [vreduce("SUM", dtype, regs[i], mask) for i in range(repeat)]
    if repeat <= n:
        return reduce_count(dtype, chunks(work, n), repeat, 1)[0], work
    count = -(-repeat // n)
    second = reduce_count(dtype, chunks(work, n), repeat, count)
    work[:count] = second
    return reduce_count(dtype, chunks(second, n), count, 1)[0], work


def reduce_sum_b64(dtype: type[Scalar], regs: list[Vec], count: int) -> int:
    """``ReduceB64SumImpl``: lane-wise sums (Add then Select by the mask), then one reduce."""
    acc = [0] * 64
    left = [count]
    for reg in regs:
        on = update_mask(left, 64)
        acc = [
            binary("Add", dtype, a, x) if on[j] else a
            for j, (a, x) in enumerate(zip(acc, reg, strict=True))
        ]
    return vreduce("SUM", dtype, acc)


# ---- the basic API's ReduceMax / ReduceMin -------------------------------------------------------
def finite_extreme(dtype: type[Scalar], kind: str) -> int:
    """``GetMinValue`` (MAX starts there) / ``GetMaxValue`` (MIN): the lowest/highest finite."""
    w = width(dtype)
    if is_float(dtype):
        ebits, mbits = FLOAT_FORMATS[dtype]
        biggest = ((1 << ebits) - 2) << mbits | ((1 << mbits) - 1)
        return biggest | (1 << (w - 1)) if kind == "MAX" else biggest
    if dtype in SIGNED:
        return 1 << (w - 1) if kind == "MAX" else (1 << (w - 1)) - 1
    return 0 if kind == "MAX" else (1 << w) - 1


def _ne(dtype: type[Scalar], a: int, b: int) -> bool:
    """``Compare<NE>``: NaN differs from everything, +0 equals -0."""
    if is_float(dtype):
        if is_nan_bits(a, dtype) or is_nan_bits(b, dtype):
            return True
        zero = (1 << (width(dtype) - 1)) - 1
        return not (a == b or (a & zero) == 0 == (b & zero))
    return a != b


def reduce_extreme(
    kind: str,
    dtype: type[Scalar],
    regs: list[Vec],
    actives: list[list[bool]],
    fixed: Sequence[bool] | None,
    step: int,
) -> tuple[int, int]:
    """``ReduceIndexTemplate`` (counter: *fixed* None; normal: the mask): (value bits, index).

    The index lanes start at ``1 .. n``, move by *step* per repeat, change where the value
    changes; the result is the smallest nonzero index among the lanes equal to the extreme,
    minus one, in ``uint16_t`` (2-byte types) or ``uint32_t``.
    """
    n = len(regs[0]) if regs else lanes(dtype)
    bits = 16 if dtype.size == 2 else 32
    top = (1 << bits) - 1
    value = [finite_extreme(dtype, kind)] * n
    index = [j + 1 for j in range(n)]
    position = list(index)
    for reg, active in zip(regs, actives, strict=True):
        lanes_on = active if fixed is None else fixed
        new = [
            binary(_op(kind), dtype, v, x) if lanes_on[j] else (v if fixed is None else 0)
            for j, (v, x) in enumerate(zip(value, reg, strict=True))
        ]
        for j in range(n):
            counted = fixed is None or fixed[j]
            if counted and _ne(dtype, value[j], new[j]):
                index[j] = position[j]
            position[j] = (position[j] + step) & top if counted else 0
        value = new
    on = [True] * n if fixed is None else list(fixed)
    best = vreduce(kind, dtype, value, on)
    equal = [
        on[j] and not _ne(dtype, value[j], best) and not is_nan_bits(best, dtype) for j in range(n)
    ]
    found = [index[j] for j in range(n) if equal[j] and index[j]]
    low = min(found) if found else top
    return best, (low - 1) & top


# ---- the advanced API's ReduceSum / Max / Min<T, Pattern::Reduce::AR> -----------------------------
def _main_r(dim: int) -> int:
    main = 1
    for i in range(1, 16):
        if dim >> i == 0:
            break
        main = 1 << i
    return main


def _folds(count: int) -> int:
    return sum(1 for i in range(1, 16) if count >> i)


class Buffer:
    """A UB buffer of bit patterns: loads of a register, masked stores, what was stored."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.stored = [False] * len(values)

    def load(self, at: int, n: int) -> Vec:
        return [self.values[at + j] if 0 <= at + j < len(self.values) else 0 for j in range(n)]

    def store(self, at: int, vec: Vec, mask: Sequence[bool] | None = None) -> None:
        for j, v in enumerate(vec):
            if (mask is None or mask[j]) and at + j < len(self.values):
                self.values[at + j] = v
                self.stored[at + j] = True


def _fold_group(kind: str, dtype: type[Scalar], regs: list[Vec]) -> Vec:
    """The L1 .. L4 adds of the 16 (8, 4, 2) loaded registers: reg k plus reg k + half."""
    while len(regs) > 1:
        half = len(regs) // 2
        regs = [vadd(kind, dtype, regs[k], regs[k + half]) for k in range(half)]
    return regs[0]


def ar(
    kind: str, dtype: type[Scalar], x: list[list[int]], reuse: bool
) -> tuple[list[int], Buffer | None, Buffer | None]:
    """``Reduce<kind>ARReuseSourceCompute``: (dst, src buffer if stored into, tmp buffer if used)."""
    dim_a, dim_r = len(x), len(x[0])
    n = lanes(dtype)
    aligned = dim_r * dtype.size % BLOCK == 0 or (dim_r == 1 and dtype.size != 8)
    flat = [v for row in x for v in row]
    if dim_r == 1:
        return [row[0] for row in x], None, None
    if aligned and dim_r <= n:
        return [_ar_short(kind, dtype, row, n) for row in x], None, None
    if not aligned and dim_r < n:  # LoadUnAlign of dimR elements, the reduce over dimR lanes
        return (
            [
                vreduce(kind, dtype, row + [0] * (n - dim_r), [j < dim_r for j in range(n)])
                for row in x
            ],
            None,
            None,
        )
    main = _main_r(dim_r)
    tail = dim_r - main
    inplace = reuse or not aligned
    if not inplace:
        main = main if tail > 0 else main // 2
        tail = tail if tail > 0 else main
    if inplace:
        buf, stride = Buffer(flat), dim_r
        for a in range(dim_a):
            left = [tail]
            for r in range(-(-tail // n)):
                on = update_mask(left, n)
                main_v = buf.load(a * dim_r + r * n, n)
                tail_v = buf.load(a * dim_r + main + r * n, n)
                buf.store(a * dim_r + r * n, vadd(kind, dtype, main_v, tail_v, on), on)
    else:
        src = Buffer(flat)
        buf, stride = Buffer([0] * (dim_a * main)), main
        full, rest = tail // n, tail % n
        for a in range(dim_a):
            for r in range(full):
                buf.store(
                    a * main + r * n,
                    vadd(
                        kind,
                        dtype,
                        src.load(a * dim_r + r * n, n),
                        src.load(a * dim_r + main + r * n, n),
                    ),
                )
            for r in range(full, -(-main // n)):
                buf.store(a * main + r * n, src.load(a * dim_r + r * n, n))
        if rest:
            on = [j < rest for j in range(n)]
            for a in range(dim_a):
                tail_v = src.load(a * dim_r + main + full * n, n)
                main_v = buf.load(a * main, n)
                buf.store(a * main, vadd(kind, dtype, main_v, tail_v, on), on)
    group = 3 if dtype.size == 8 else 4
    consecutive = aligned and dtype.size != 8
    count = main // n
    for _ in range(_folds(count) // group):
        count >>= group
        for a in range(dim_a):
            for r in range(count):
                if consecutive:  # POST_MODE_UPDATE loads: registers 16r .. 16r + 15
                    regs = [
                        buf.load(a * stride + ((r << group) + k) * n, n) for k in range(1 << group)
                    ]
                else:  # addr + k * offsetR + loopR * vlSize
                    regs = [
                        buf.load(a * stride + (k * count + r) * n, n) for k in range(1 << group)
                    ]
                buf.store(a * stride + r * n, _fold_group(kind, dtype, regs))
    dst = []
    for a in range(dim_a):
        regs = [buf.load(a * stride + k * n, n) for k in range(count)]
        dst.append(vreduce(kind, dtype, _fold_group(kind, dtype, regs)))
    return dst, (buf if inplace else None), (None if inplace else buf)


def _ar_short(kind: str, dtype: type[Scalar], row: list[int], n: int) -> int:
    """``ReduceARReuseSourceLessThanVL`` for one row of ``1 < dimR <= vl`` (32-byte aligned)."""
    dim_r = len(row)
    padded = row + [0] * (n - dim_r)
    on = [j < dim_r for j in range(n)]
    if dtype.size in (1, 8) or dtype.__name__ == "bfloat16_t" or kind == "PROD":
        return vreduce(kind, dtype, padded, on)
    block = BLOCK // dtype.size
    if dim_r == block:
        return block_vreduce(kind, dtype, padded, on)[0]
    if dim_r < n // 2:
        acc = row[:block]
        for k in range(1, dim_r // block):
            acc = [
                binary(_op(kind), dtype, x, y)
                for x, y in zip(row[k * block : (k + 1) * block], acc, strict=True)
            ]
        acc = acc + [0] * (n - block)
        return block_vreduce(kind, dtype, acc, [j < block for j in range(n)])[0]
    return vreduce(kind, dtype, padded, on)


# ---- the advanced API's ReduceSum / Max / Min<T, Pattern::Reduce::RA> -----------------------------
def ra(
    kind: str, dtype: type[Scalar], x: list[list[int]], reuse: bool
) -> tuple[list[int], Buffer | None, Buffer | None]:
    """``Reduce<kind>RAReuseSourceCompute``: (dst, src buffer if stored into, tmp buffer if used)."""
    dim_r, dim_a = len(x), len(x[0])
    n = lanes(dtype)
    aligned = dim_a * dtype.size % BLOCK == 0
    flat = [v for row in x for v in row]
    op = _op(kind)

    def row_op(a: list[int], b: list[int]) -> list[int]:
        return [binary(op, dtype, u, v) for u, v in zip(a, b, strict=True)]

    if dim_r == 1:
        return list(x[0]), None, None
    b64 = dtype.size == 8
    concat = aligned and (
        (not b64 and (dim_a <= n // 2 or dim_a > 65535))
        or (b64 and kind == "MIN" and dim_a * 8 <= 128)
    )
    if concat:  # ReduceRAConcatImpl: FindClosestPowerOfTwo, every fold but the last stored
        if dim_r == 2:
            return row_op(x[0], x[1]), None, None
        main = 1 << (dim_r.bit_length() - 1)
        fold_time = dim_r.bit_length() - 2
        tail = dim_r - main
        if not reuse and tail == 0:
            main, tail, fold_time = main // 2, main // 2, fold_time - 1
        src = Buffer(flat)
        buf = src if reuse else Buffer([0] * (main * dim_a))
        if not reuse:
            for r in range(tail, main):
                buf.store(r * dim_a, src.load(r * dim_a, dim_a))
        for r in range(tail):
            buf.store(
                r * dim_a, row_op(src.load(r * dim_a, dim_a), src.load((main + r) * dim_a, dim_a))
            )
        for _ in range(fold_time):
            main >>= 1
            for r in range(main):
                buf.store(
                    r * dim_a,
                    row_op(buf.load(r * dim_a, dim_a), buf.load((main + r) * dim_a, dim_a)),
                )
        dst = row_op(buf.load(0, dim_a), buf.load(dim_a, dim_a))
        return dst, (buf if reuse else None), (None if reuse else buf)
    less_than_vl = aligned and not b64 and dim_a <= n
    main = _main_r(dim_r)
    tail = dim_r - main
    inplace = reuse or not aligned
    if not inplace and tail == 0 and main > 1:
        main, tail = main // 2, main // 2
    if aligned and not b64 and not less_than_vl and main == 1:  # noNeedCopy: straight to dst
        return row_op(x[0], x[1]), None, None
    src = Buffer(flat)
    buf = src if inplace else Buffer([0] * (main * dim_a))
    if not inplace:
        for r in range(tail, main):
            buf.store(r * dim_a, src.load(r * dim_a, dim_a))
    for r in range(tail):
        buf.store(
            r * dim_a, row_op(src.load(r * dim_a, dim_a), src.load((main + r) * dim_a, dim_a))
        )
    group = 3 if b64 else 4
    count = main
    for _ in range(_folds(main) // group):
        count >>= group
        for r in range(count):
            if less_than_vl:  # POST_MODE_UPDATE by dimA from addr: rows 16r .. 16r + 15
                rows = [buf.load(((r << group) + k) * dim_a, dim_a) for k in range(1 << group)]
            else:  # addr + k * offsetR + loopR * dimA
                rows = [buf.load((k * count + r) * dim_a, dim_a) for k in range(1 << group)]
            buf.store(r * dim_a, _fold_group(kind, dtype, rows))
    rows = [buf.load(k * dim_a, dim_a) for k in range(count)]
    dst = _fold_group(kind, dtype, rows)
    return dst, (buf if inplace else None), (None if inplace else buf)


def run_rows(
    func: Callable[..., tuple[list[int], Buffer | None, Buffer | None]], *args: object
) -> tuple[list[int], Buffer | None, Buffer | None]:
    """Call *func* (``ar`` / ``ra``): a seam for the tests."""
    return func(*args)

"""The memory-level basic API (Memory矢量计算) on a ``bytearray``, one element at a time.

Written from the pages, not from ``ascreg.basic``:

* SIMD计算说明/连续计算.md: the count form processes elements ``0 .. count-1`` of every operand.
* SIMD计算说明/高维切分.md: a repeat reads eight 32-byte DataBlocks; block ``b`` of repeat ``r``
  of an operand starts ``r * repStride + b * blkStride`` blocks after its base; a lane's element
  sits at its place inside its block. SIMD计算说明/掩码.md: the mask selects lanes per repeat (a
  bit per lane, or the first *mask* lanes); in counter mode *mask* is the element count of the
  whole op and the repeats follow from it.
* Each op "通过VF调用Reg矢量计算API实现": every repeat loads its sources, applies the register op
  of the same name (the lane references of :mod:`reference.arith`, :mod:`reference.elementary`,
  :mod:`reference.compound`, :mod:`reference.shifts`) and stores the selected lanes; masked-off
  lanes of the destination keep their bytes.

Memory is a ``bytearray``; an operand is ``(byte offset, element type, blkStride, repStride)``.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ascreg._dtypes import Scalar
from reference.arith import abs_lane, arange, binary, bit_not, neg_lane, relu_lane
from reference.common import decode_float, encode_float, is_float, put, width
from reference.compound import abs_sub_lane, fma_lane
from reference.elementary import div_lane, unary_lane
from reference.shifts import shift_left, shift_right, vector_shift_count

BLOCK = 32
VL = 256

Operand = tuple[int, type[Scalar], int, int]
"""``(byte offset in memory, element type, block stride, repeat stride)`` (strides in blocks)."""


def lanes_per_repeat(dtype: type[Scalar], count_form: bool = False) -> int:
    """A register of *dtype*; the 64-bit count forms use two registers (64 lanes)."""
    return 64 if count_form and dtype.size == 8 else VL // dtype.size


def count_plan(count: int, lanes: int) -> list[list[int]]:
    """The active lanes of each repeat of a count form: the first *count* elements."""
    return [list(range(min(lanes, count - r * lanes))) for r in range(-(-count // lanes))]


def mask_plan(mask: Any, repeat_time: int, lanes: int, counter: bool = False) -> list[list[int]]:
    """The active lanes of each repeat of a repeat form (``mask`` words, or a lane count)."""
    words = None if isinstance(mask, int) else list(mask)
    if counter:
        total = words[0] if words is not None else mask
        return [list(range(min(lanes, total - r * lanes))) for r in range(-(-total // lanes))]
    if words is None:
        active = list(range(min(mask, lanes)))
    else:
        bits = sum(w << (64 * i) for i, w in enumerate(words))
        active = [j for j in range(lanes) if bits >> j & 1]
    return [active for _ in range(repeat_time)]


def address(operand: Operand, r: int, j: int, lanes: int, count_form: bool) -> int:
    """The byte address of lane *j* of repeat *r* of *operand* (高维切分.md, 连续计算.md)."""
    base, dtype, blk, rep = operand
    if count_form:
        return base + (r * lanes + j) * dtype.size
    per_block = BLOCK // dtype.size
    return base + (r * rep + (j // per_block) * blk) * BLOCK + (j % per_block) * dtype.size


def get(memory: bytearray, at: int, dtype: type[Scalar]) -> int:
    return int.from_bytes(memory[at : at + dtype.size], "little")


def run(
    memory: bytearray,
    plan: Sequence[Sequence[int]],
    dsts: Sequence[Operand],
    srcs: Sequence[Operand],
    lane: Callable[..., Sequence[int]],
    *,
    lanes: int,
    count_form: bool,
    where: bool = False,
) -> None:
    """Run an op repeat by repeat: load every active lane of *srcs*, then store *dsts*.

    ``lane(*source_bits)`` returns the destination bits of one lane (one per destination);
    with *where* it is ``lane(r, j, *source_bits)`` (repeat and lane first).
    """
    for r, active in enumerate(plan):
        loaded = {
            j: [get(memory, address(s, r, j, lanes, count_form), s[1]) for s in srcs]
            for j in active
        }
        for j in active:
            results = lane(r, j, *loaded[j]) if where else lane(*loaded[j])
            for d, value in zip(dsts, results, strict=True):
                put(memory, address(d, r, j, lanes, count_form), value, d[1].size)


def _one(dtype: type[Scalar]) -> int:
    return encode_float(1.0, dtype) if is_float(dtype) else 1


def _max_zero(x: int, dtype: type[Scalar]) -> int:
    """``Maxs(x, 0)``: the register Max against +0 (AddRelu.md: "和0对比取较大值")."""
    return binary("Max", dtype, x, 0)


def _negative_value(x: int, dtype: type[Scalar]) -> bool:
    return is_float(dtype) and decode_float(x, dtype) < 0


def rsqrt_lane(x: int, dtype: type[Scalar], ftz: bool = True) -> int:
    """``Rsqrt`` (Rsqrt.md, the 950 path): ``Sqrt``, then ``Div(1, .)``; a negative lane keeps
    ``Sqrt``'s NaN in the default mode."""
    root = unary_lane("Sqrt", x, dtype, ftz)
    if ftz and _negative_value(x, dtype):
        return root
    return div_lane(_one(dtype), root, dtype, ftz)


def exact_rsqrt_lane(x: int, dtype: type[Scalar]) -> int:
    """The 0-ulp ``Rsqrt`` (``RsqrtAlgo::PRECISION_0ULP_FTZ_FALSE``, float) on ``[0, 8.5e37]``:
    the correctly rounded ``1 / sqrt(x)``, subnormals kept (Rsqrt.md); ``1/sqrt(+-0)`` is +-inf."""
    value = decode_float(x, dtype)
    if value == 0:
        return encode_float(-math.inf if x >> (width(dtype) - 1) else math.inf, dtype)
    with decimal.localcontext(decimal.Context(prec=80)):
        exact = 1 / decimal.Decimal(value).sqrt()
    return encode_float(Fraction(exact), dtype)


def unary(op: str, dtype: type[Scalar], ftz: bool = True) -> Callable[[int], int]:
    """The lane reference of a unary op."""
    table: dict[str, Callable[[int], int]] = {
        "Abs": lambda x: abs_lane(x, dtype),
        "Relu": lambda x: relu_lane(x, dtype),
        "Neg": lambda x: neg_lane(x, dtype),
        "Not": lambda x: bit_not(x, dtype),
        "Reciprocal": lambda x: div_lane(_one(dtype), x, dtype, ftz),
        "Rsqrt": lambda x: rsqrt_lane(x, dtype, ftz),
    }
    return table.get(op, lambda x: unary_lane(op, x, dtype, ftz))


def two(op: str, dtype: type[Scalar], ftz: bool = True) -> Callable[[int, int], int]:
    """The lane reference of a two-source op ``f(src0, src1)``."""
    table: dict[str, Callable[[int, int], int]] = {
        "Div": lambda x, y: div_lane(x, y, dtype, ftz),
        "AddRelu": lambda x, y: _max_zero(binary("Add", dtype, x, y), dtype),
        "SubRelu": lambda x, y: _max_zero(binary("Sub", dtype, x, y), dtype),
        "AbsSub": lambda x, y: abs_sub_lane(x, y, dtype),
    }
    return table.get(op, lambda x, y: binary(op, dtype, x, y))


def with_dst(op: str, dtype: type[Scalar]) -> Callable[[int, int, int], int]:
    """The lane reference of an op that reads dst too: ``f(src0, src1, dst)``.

    FusedMulAdd.md: ``dst = src0 * dst + src1`` (fused); MulAddRelu.md: its Relu.
    """
    if op == "FusedMulAdd":
        return lambda a, b, d: fma_lane(a, d, b, dtype)
    return lambda a, b, d: _max_zero(fma_lane(a, d, b, dtype), dtype)


SCALAR_FAMILY = {"Adds": "Add", "Subs": "Sub", "Muls": "Mul", "Divs": "Div", "Maxs": "Max",
                 "Mins": "Min", "Ands": "And", "Ors": "Or", "LeakyRelu": "Prelu"}  # fmt: skip
"""The two-source op a tensor-and-scalar op applies with one source the scalar."""


def shift(left: bool, dtype: type[Scalar]) -> Callable[[int, int], int]:
    """``ShiftLeft`` / ``ShiftRight`` of *bits* by a non-negative count."""
    return lambda bits, n: (shift_left if left else shift_right)(bits, n, dtype)


def signed_count(bits: int, dtype: type[Scalar]) -> int:
    """A per-element shift count: the signed value of its element (ShiftLeft（左移位数为Tensor）.md)."""
    return vector_shift_count(bits, dtype)


def put_element(memory: bytearray, at: int, value: int, dtype: type[Scalar]) -> None:
    put(memory, at, value, dtype.size)


def int16_count(value: int) -> int:
    """A scalar shift count converted to ``int16_t`` (the register op's count type)."""
    return ((value + (1 << 15)) % (1 << 16)) - (1 << 15)


def vec_index(first: int, dtype: type[Scalar], lanes: int, repeats: int) -> list[list[int]]:
    """``CreateVecIndex``: ``Arange(first)``, then ``Adds(., lanes)`` once per repeat."""
    rows = [arange(dtype, first, lanes, False, lanes)]
    step = encode_float(float(lanes), dtype) if is_float(dtype) else lanes
    for _ in range(1, repeats):
        rows.append([binary("Add", dtype, x, step) for x in rows[-1]])
    return rows


def compare_run(
    memory: bytearray,
    plan: Sequence[Sequence[int]],
    srcs: Sequence[Operand],
    test: Callable[..., bool],
    dst: int,
    *,
    lanes: int,
    count_form: bool,
) -> None:
    """``Compare`` / ``Compares`` (Compare.md: dst's bits from the left, one per element): each
    repeat stores its ``lanes`` bits, LSB first, after the previous repeat's; a lane that is not
    active gives 0."""
    for r, active in enumerate(plan):
        bits = [0] * lanes
        for j in active:
            bits[j] = int(
                test(*(get(memory, address(s, r, j, lanes, count_form), s[1]) for s in srcs))
            )
        for i in range(lanes // 8):
            memory[dst + r * lanes // 8 + i] = sum(bits[8 * i + k] << k for k in range(8))


def sel_bit(memory: bytearray, sel: int, r: int, j: int, lanes: int, same_bits: bool) -> int:
    """The ``selMask`` bit of lane *j* of repeat *r* (Select.md: mode 0 reuses the first
    ``lanes`` bits in every repeat; modes 1 and 2 consume them repeat after repeat)."""
    k = j if same_bits else r * lanes + j
    return memory[sel + k // 8] >> (k % 8) & 1

"""Arange and PhiloxRandom one element at a time (Python ints and the register-op references).

Arange.md: the first register holds ``lane * diff + first`` (``Muls`` then ``Adds`` on T), each
next register the previous one plus ``lanes * diff``. PhiloxRandom: the Philox4x32 round of
Salmon et al. (SC 2011) on Python integers, the 128-bit counter incremented with carry. Nothing
here calls ascreg's core.
"""

from __future__ import annotations

from ascreg import float32_t
from ascreg._dtypes import Scalar
from reference.arith import binary
from reference.common import encode_float, is_float, wrap

MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
WEYL = (0x9E3779B9, 0xBB67AE85)
M32 = 0xFFFFFFFF


def _scalar(value: float | int, dtype: type[Scalar]) -> int:
    return encode_float(float(value), dtype) if is_float(dtype) else wrap(int(value), dtype)


def arange(dtype: type[Scalar], first: float | int, diff: float | int, count: int) -> list[int]:
    """The first *count* elements (bit patterns) of the register-by-register progression."""
    lanes = 256 // dtype.size * (2 if dtype.size == 8 else 1)
    d, f = _scalar(diff, dtype), _scalar(first, dtype)
    register = [
        binary("Add", dtype, binary("Mul", dtype, _scalar(i, dtype), d), f) for i in range(lanes)
    ]
    step = binary("Mul", dtype, _scalar(lanes, dtype), d)
    out: list[int] = []
    while len(out) < count:
        out += register
        register = [binary("Add", dtype, v, step) for v in register]
    return out[:count]


def philox_block(key: tuple[int, int], counter: int, rounds: int) -> list[int]:
    """The four words of one 128-bit *counter* (a Python int)."""
    c = [(counter >> (32 * i)) & M32 for i in range(4)]
    k0, k1 = key
    for _ in range(rounds):
        p0, p1 = c[0] * MULTIPLIERS[0], c[2] * MULTIPLIERS[1]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
        k0, k1 = (k0 + WEYL[0]) & M32, (k1 + WEYL[1]) & M32
    return c


def philox_element(
    key: tuple[int, int], counter: tuple[int, ...], position: int, rounds: int
) -> int:
    """Word ``position % 4`` of the block ``counter + position // 4`` (mod 2**128)."""
    base = sum(w << (32 * i) for i, w in enumerate(counter))
    return philox_block(key, (base + position // 4) % (1 << 128), rounds)[position % 4]


def unit_float(word: int) -> int:
    """float32 bits of ``float(0x3F800000 | (w & 0x7FFFFF)) - 1.0`` (exact: Sterbenz)."""
    return binary("Add", float32_t, 0x3F800000 | (word & 0x7FFFFF), encode_float(-1.0, float32_t))


def broadcast_index(position: int, dst_shape: list[int], src_shape: list[int]) -> int:
    """The src element (dense) that dst element *position* (dense) copies."""
    index, src_stride = 0, 1
    for d, s in reversed(list(zip(dst_shape, src_shape, strict=True))):
        coord = position % d
        position //= d
        index += (coord if s == d else 0) * src_stride
        src_stride *= s
    return index

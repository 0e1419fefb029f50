"""Hypothesis strategies for kernel inputs: lane values, registers, masks, buffers, launches.

Each strategy draws bit patterns, so every value of a type can come up, and weights the values
where kernels go wrong: zeros of both signs, infinities, NaNs, subnormals, the largest and
smallest finite values, integer limits. Needs ``hypothesis`` (``pip install ascreg[testing]``).

Examples
--------
A user kernel's VF body against a numpy golden, over every legal input:

>>> import numpy as np
>>> from hypothesis import given, settings
>>> from ascreg import Reg, uint16_t
>>> from ascreg.testing import assert_lanes_equal
>>> from ascreg.testing.strategies import mask_lanes, masks, registers
>>> @settings(max_examples=20, derandomize=True)
... @given(registers(uint16_t), registers(uint16_t), masks(uint16_t))
... def test_add_wraps(a, b, mask):
...     out = Reg.RegTensor[uint16_t]()
...     Reg.Add(out, a, b, mask)
...     on = mask_lanes(mask, uint16_t)
...     golden = np.where(on, np.asarray(a) + np.asarray(b), 0).astype(np.uint16)
...     assert_lanes_equal(out, golden)
>>> test_add_wraps()
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

import ml_dtypes
import numpy as np
from hypothesis import strategies as st

from ascreg import reg as Reg
from ascreg._dtypes import ALL_SCALARS, UNSIGNED_OF_WIDTH, Kind, Scalar, bool_
from ascreg.enums import MaskPattern
from ascreg.machine.constants import VECTOR_REG_WIDTH
from ascreg.machine.memory import DATA_BLOCK, GlobalMemory, GmPtr, UbPtr, UnifiedBuffer
from ascreg.machine.registers import MASK_BITS, MaskReg, RegTensor, RegTraitNumOne, RegTraitNumTwo

__all__ = [
    "DTYPES",
    "LaunchShape",
    "arrays",
    "dtypes",
    "gm_buffers",
    "launch_shapes",
    "mask_lanes",
    "masks",
    "registers",
    "special_bits",
    "ub_buffers",
    "values",
]

DTYPES: tuple[type[Scalar], ...] = ALL_SCALARS
"""Every ascreg scalar type, in declaration order (what :func:`dtypes` draws from)."""


def _unsigned(dtype: type[Scalar]) -> np.dtype[Any]:
    return np.dtype(f"<u{dtype.size}")


def _finfo(dtype: type[Scalar]) -> Any:
    return ml_dtypes.finfo(dtype.np_dtype)  # type: ignore[no-untyped-call]


def _float_specials(dtype: type[Scalar]) -> list[float]:
    info = _finfo(dtype)
    tiny, sub, big = float(info.smallest_normal), float(info.smallest_subnormal), float(info.max)
    return [0.0, -0.0, 1.0, -1.0, 2.0, -0.5, big, -big, tiny, -tiny, sub, -sub,
            float(info.eps), np.inf, -np.inf, np.nan]  # fmt: skip


def special_bits(dtype: type[Scalar]) -> tuple[int, ...]:
    """Return the bit patterns of the values of *dtype* most likely to break a kernel.

    Floats: signed zeros, +-1, +-max, +-smallest normal, +-smallest and the largest subnormal,
    infinities and NaNs (where the format has them). Integers: 0, +-1, the limits and their
    neighbours. Raw-bit types (``hifloat8_t``, ``int4x2_t``, ...): the extreme bytes.

    Examples
    --------
    >>> from ascreg import half, int8_t
    >>> [hex(b) for b in special_bits(half)][:6]
    ['0x0', '0x8000', '0x3c00', '0xbc00', '0x4000', '0xb800']
    >>> sorted(special_bits(int8_t))
    [0, 1, 2, 127, 128, 129, 254, 255]
    """
    mask = (1 << dtype.bits) - 1
    if dtype is bool_:
        return (0, 1)
    if dtype.kind is Kind.FLOAT:
        with np.errstate(all="ignore"):
            cast = np.array(_float_specials(dtype)).astype(dtype.np_dtype)
        patterns = [int(b) for b in cast.view(_unsigned(dtype))]
        normal = int(np.array(_finfo(dtype).smallest_normal, dtype.np_dtype)
                     .reshape(1).view(_unsigned(dtype))[0])  # fmt: skip
        patterns.append(max(normal - 1, 0))  # the largest subnormal
    elif dtype.kind is Kind.INT:
        top = 1 << (dtype.bits - 1)
        patterns = [0, 1, mask, 2, top - 1, top, top + 1, mask - 1]
    else:  # unsigned integers and raw bytes
        top = 1 << (dtype.bits - 1)
        patterns = [0, 1, 2, mask, mask - 1, top - 1, top]
    return tuple(dict.fromkeys(p & mask for p in patterns))


def dtypes(*, kinds: tuple[str, ...] | None = None) -> st.SearchStrategy[type[Scalar]]:
    """Draw an ascreg scalar type, optionally only of the given kinds.

    *kinds* names them: ``"bool"``, ``"int"``, ``"uint"``, ``"float"`` or ``"raw"`` (the
    raw-bit types such as ``hifloat8_t``).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=5, derandomize=True)
    ... @given(dtypes(kinds=("float",)))
    ... def check(t):
    ...     assert t.np_dtype.kind == "f" or t.cpp_name == "bfloat16_t" or "fp8" in t.cpp_name
    >>> check()
    """
    return st.sampled_from([t for t in DTYPES if kinds is None or t.kind.value in kinds])


@st.composite
def _bits(draw: Any, dtype: type[Scalar], count: int) -> np.ndarray[Any, Any]:
    """*count* bit patterns of *dtype*: random with specials sprinkled, or specials only."""
    specials = special_bits(dtype)
    unsigned = _unsigned(dtype)
    if dtype is bool_:
        return np.frombuffer(draw(st.binary(min_size=count, max_size=count)), np.uint8) & 1
    if draw(st.integers(0, 3)) == 0:  # specials only: equal pairs, NaN meets NaN
        picks = np.frombuffer(draw(st.binary(min_size=count, max_size=count)), np.uint8)
        return np.array(specials, dtype=unsigned)[picks % len(specials)]
    raw = draw(st.binary(min_size=count * dtype.size, max_size=count * dtype.size))
    bits = np.frombuffer(raw, dtype=unsigned).copy()
    if count:
        where = st.integers(0, count - 1)
        for index, value in draw(
            st.lists(st.tuples(where, st.sampled_from(specials)), max_size=16)
        ):
            bits[index] = value
    return bits


def arrays(dtype: type[Scalar], count: int) -> st.SearchStrategy[np.ndarray[Any, Any]]:
    """Draw a 1-D numpy array of *count* values of *dtype* (specials weighted).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import bfloat16_t
    >>> @settings(max_examples=10, derandomize=True)
    ... @given(arrays(bfloat16_t, 64))
    ... def check(x):
    ...     assert x.dtype == bfloat16_t.np_dtype and x.shape == (64,)
    >>> check()
    """
    return _bits(dtype, count).map(lambda bits: bits.astype(_unsigned(dtype)).view(dtype.np_dtype))


def values(dtype: type[Scalar]) -> st.SearchStrategy[Any]:
    """Draw one value of *dtype* as a numpy scalar (specials weighted).

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import given, settings
    >>> from ascreg import float32_t
    >>> @settings(max_examples=20, derandomize=True)
    ... @given(values(float32_t))
    ... def check(x):
    ...     assert x.dtype == np.float32
    >>> check()
    """
    return arrays(dtype, 1).map(lambda a: a[0])


def registers(dtype: type[Scalar], *, trait_two: bool = False) -> st.SearchStrategy[Any]:
    """Draw a ``RegTensor[dtype]`` with every lane set (``trait_two``: the 64-bit pair layout).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import int64_t
    >>> @settings(max_examples=5, derandomize=True)
    ... @given(registers(int64_t, trait_two=True))
    ... def check(r):
    ...     assert r.lanes == 64
    >>> check()
    """
    trait = RegTraitNumTwo if trait_two else RegTraitNumOne
    lanes = VECTOR_REG_WIDTH // dtype.size * (2 if trait_two else 1)

    def build(lane_values: np.ndarray[Any, Any]) -> Any:
        reg = RegTensor[dtype, trait]()  # type: ignore[valid-type]
        reg.set(lane_values)
        return reg

    return arrays(dtype, lanes).map(build)


def mask_lanes(mask: MaskReg, dtype: type[Scalar]) -> np.ndarray[Any, Any]:
    """Return which lanes of a *dtype* register *mask* enables (bit ``i * sizeof(T)``).

    Examples
    --------
    >>> from ascreg import Reg, uint32_t
    >>> mask_lanes(Reg.CreateMask[uint32_t, Reg.MaskPattern.VL4](), uint32_t)[:6].tolist()
    [True, True, True, True, False, False]
    """
    return np.asarray(mask)[:: dtype.size][: VECTOR_REG_WIDTH // dtype.size].copy()


@st.composite
def masks(draw: Any, dtype: type[Scalar] = bool_) -> MaskReg:
    """Draw a ``MaskReg`` for registers of *dtype*: a prefix, a ``MaskPattern`` or any lanes.

    A prefix is what ``UpdateMask`` makes for a tail (0 to all lanes), a pattern what
    ``CreateMask`` makes; random masks set only the bits of lanes (bit ``i * sizeof(T)``), as
    the producers do. ``bool_`` (the default) means one bit per lane of a b8 register.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import half
    >>> @settings(max_examples=10, derandomize=True)
    ... @given(masks(half))
    ... def check(m):
    ...     assert not np.asarray(m)[1::2].any()  # only lane bits are set
    >>> check()
    """
    lanes = VECTOR_REG_WIDTH // dtype.size
    how = draw(st.sampled_from(["prefix", "pattern", "random"]))
    if how == "pattern":
        unsigned = UNSIGNED_OF_WIDTH[min(dtype.size, 4)]
        made: MaskReg = Reg.CreateMask[unsigned, draw(st.sampled_from(list(MaskPattern)))]()
        if dtype.size != 8:
            return made
        on = mask_lanes(made, unsigned)[:lanes]  # b64 lanes: the first 32 lanes of a b32 pattern
    elif how == "prefix":
        on = np.arange(lanes) < draw(st.integers(0, lanes))
    else:
        on = np.frombuffer(draw(st.binary(min_size=lanes, max_size=lanes)), np.uint8) & 1 > 0
    bits = np.zeros(MASK_BITS, dtype=bool)
    bits[: lanes * dtype.size : dtype.size] = on
    return MaskReg.from_bits(bits)


def _offsets(dtype: type[Scalar], aligned: bool | None) -> st.SearchStrategy[int]:
    """Element offsets from a 32-byte boundary: aligned, unaligned, or either (None)."""
    per_block = DATA_BLOCK // dtype.size
    choices = []
    if aligned in (True, None):
        choices.append(st.integers(0, 3).map(lambda k: k * per_block))
    if aligned in (False, None) and per_block > 1:
        choices.append(st.integers(1, per_block - 1))
    return st.one_of(*choices)


@st.composite
def ub_buffers(
    draw: Any, dtype: type[Scalar], count: int, *, aligned: bool | None = None
) -> UbPtr[Any]:
    """Draw a ``__ubuf__`` pointer to *count* values of *dtype* in a fresh Unified Buffer.

    The pointer starts *aligned* on a 32-byte boundary (``True``), at an element offset that
    is not (``False``), or either (``None``); the values are those of :func:`arrays`.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import half
    >>> @settings(max_examples=10, derandomize=True)
    ... @given(ub_buffers(half, 40, aligned=False))
    ... def check(p):
    ...     assert p.address % 32 and p.read(40).shape == (40,)
    >>> check()
    """
    offset = draw(_offsets(dtype, aligned))
    base = UnifiedBuffer().alloc(dtype, offset + count + DATA_BLOCK // dtype.size)
    base.write(np.zeros(offset + count, dtype.np_dtype))
    ptr: Any = base + offset
    ptr.write(draw(arrays(dtype, count)))
    return cast(UbPtr[Any], ptr)


@st.composite
def gm_buffers(
    draw: Any, dtype: type[Scalar], count: int, *, aligned: bool | None = None
) -> GmPtr[Any]:
    """Draw a ``__gm__`` pointer to *count* values of *dtype* in a fresh Global Memory.

    Alignment as for :func:`ub_buffers`.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import uint8_t
    >>> @settings(max_examples=10, derandomize=True)
    ... @given(gm_buffers(uint8_t, 100, aligned=True))
    ... def check(p):
    ...     assert p.address % 32 == 0
    >>> check()
    """
    offset = draw(_offsets(dtype, aligned))
    base = GlobalMemory(capacity=1 << 24).alloc(dtype, offset + count)
    ptr: Any = base + offset
    ptr.write(draw(arrays(dtype, count)))
    return cast(GmPtr[Any], ptr)


class LaunchShape(NamedTuple):
    """A kernel launch: *blocks* blocks of *block_length* elements each, the last *tail* shorter.

    Examples
    --------
    >>> LaunchShape(blocks=4, block_length=256, tail=100).total
    868
    """

    blocks: int
    block_length: int
    tail: int

    @property
    def total(self) -> int:
        """Elements over all blocks (``blocks - 1`` full ones and the last)."""
        return (self.blocks - 1) * self.block_length + (self.tail or self.block_length)


@st.composite
def launch_shapes(
    draw: Any,
    dtype: type[Scalar] = bool_,
    *,
    max_blocks: int = 8,
    max_block_bytes: int = 8 * 1024,
    tails: bool = True,
) -> LaunchShape:
    """Draw a launch: a block count and a per-block length in whole 32-byte blocks of *dtype*.

    With *tails*, the last block may hold fewer elements (``tail``, 0 = a full block), the
    case a kernel's ``UpdateMask`` loop and its final copy must get right.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from ascreg import float32_t
    >>> @settings(max_examples=10, derandomize=True)
    ... @given(launch_shapes(float32_t, max_blocks=4))
    ... def check(shape):
    ...     assert 1 <= shape.blocks <= 4 and shape.block_length % 8 == 0
    ...     assert 0 <= shape.tail < shape.block_length
    >>> check()
    """
    per_block = DATA_BLOCK // dtype.size
    length = per_block * draw(st.integers(1, max(1, max_block_bytes // DATA_BLOCK)))
    blocks = draw(st.integers(1, max_blocks))
    tail = draw(st.integers(0, length - 1)) if tails else 0
    return LaunchShape(blocks, length, tail)

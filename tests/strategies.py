"""Hypothesis strategies shared by the Reg property tests (lanes as bit patterns, masks)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from ascreg import MaskPattern, MaskReg, RegTraitNumOne, RegTraitNumTwo, bool_
from ascreg._dtypes import Scalar
from ascreg.reg import CreateMask, RegTensor
from reference.common import (
    MASK_BITS,
    boundary_bits,
    first_difference,
    from_bits,
    lane_count,
    mask_stride,
    same_lanes,
    to_bits,
)


@st.composite
def lane_bits(draw: Any, dtype: type[Scalar], lanes: int) -> list[int]:
    """Random bit patterns for *lanes* lanes, with boundary values sprinkled in.

    One of: fully random lanes with up to 32 boundary values overwritten, or lanes drawn only
    from the boundary values (so equal pairs, NaNs and signed zeros meet each other often).
    """
    bounds = boundary_bits(dtype)
    if dtype is bool_:
        raw = draw(st.binary(min_size=lanes, max_size=lanes))
        return [b & 1 for b in raw]
    if draw(st.booleans()):
        picks = draw(st.binary(min_size=lanes, max_size=lanes))
        return [bounds[p % len(bounds)] for p in picks]
    raw = draw(st.binary(min_size=lanes * dtype.size, max_size=lanes * dtype.size))
    bits = to_bits(np.frombuffer(raw, dtype=f"<u{dtype.size}"))
    for index, value in draw(
        st.lists(st.tuples(st.integers(0, lanes - 1), st.sampled_from(bounds)), max_size=32)
    ):
        bits[index] = value
    return bits


@st.composite
def mask_bits(draw: Any) -> list[int]:
    """256 mask bits: random (non-LSB bits set too, which consumers must ignore) or a pattern."""
    if draw(st.integers(0, 3)) == 0:
        choice = draw(st.sampled_from([p for p in MaskPattern]))
        width = draw(st.sampled_from([1, 2, 4]))
        from ascreg import uint8_t, uint16_t, uint32_t

        dtype = {1: uint8_t, 2: uint16_t, 4: uint32_t}[width]
        return [int(b) for b in CreateMask[dtype, choice]().bits()]
    raw = draw(st.binary(min_size=MASK_BITS // 8, max_size=MASK_BITS // 8))
    return [(raw[k // 8] >> (k % 8)) & 1 for k in range(MASK_BITS)]


def traits_for(dtype: type[Scalar]) -> list[bool]:
    """The layouts a register of *dtype* may use: TraitTwo exists only for 64-bit types."""
    return [False, True] if dtype.size == 8 else [False]


def make_reg(dtype: type[Scalar], bits: list[int], trait_two: bool = False) -> Any:
    """A register of *dtype* whose lanes hold *bits*."""
    reg = RegTensor[dtype, RegTraitNumTwo if trait_two else RegTraitNumOne]()  # type: ignore[valid-type]
    reg.set(from_bits(bits, dtype))
    return reg


def new_reg(dtype: type[Scalar], trait_two: bool = False) -> Any:
    return RegTensor[dtype, RegTraitNumTwo if trait_two else RegTraitNumOne]()  # type: ignore[valid-type]


def make_mask(bits: list[int]) -> MaskReg:
    return MaskReg.from_bits(np.array(bits, dtype=bool))


def reg_bits(reg: Any) -> list[int]:
    return to_bits(np.asarray(reg))


def mask_list(mask: MaskReg) -> list[int]:
    return [int(b) for b in np.asarray(mask)]


def geometry(dtype: type[Scalar], trait_two: bool) -> tuple[int, int]:
    return lane_count(dtype, trait_two), mask_stride(dtype, trait_two)


def trait_id(trait_two: bool) -> str:
    return "TraitTwo" if trait_two else "TraitOne"


def dtype_params(combos: Any, with_traits: bool = True) -> list[Any]:
    """pytest params ``(dtype, trait_two)`` for every single-dtype combo of a spec row."""
    import pytest

    out = []
    for (dtype,) in combos:
        for two in traits_for(dtype) if with_traits else [False]:
            out.append(pytest.param(dtype, two, id=f"{dtype.cpp_name}-{trait_id(two)}"))
    return out


def scalar_bits(data: Any, dtype: type[Scalar]) -> int:
    """Draw one scalar's bit pattern: a boundary value of *dtype* or any pattern of its width."""
    bounds = boundary_bits(dtype)
    return int(
        data.draw(st.one_of(st.sampled_from(bounds), st.integers(0, (1 << 8 * dtype.size) - 1)))
    )


def assert_same_lanes(got: list[int], want: list[int], dtype: type[Scalar]) -> None:
    """Bit-exact lanes, except that any NaN matches any NaN (arithmetic NaN payloads are undocumented)."""
    assert same_lanes(got, want, dtype), first_difference(got, want)

"""Drivers shared by the Reg and C API movement tests: one random case each, checked against
``reference.movement`` (the twins of both surfaces run the same cases)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from ascreg import UnifiedBuffer, uint8_t, uint16_t, uint32_t
from ascreg._dtypes import Scalar
from reference import movement as ref
from reference.common import from_bits, to_bits
from strategies import geometry, lane_bits, make_mask, make_reg, mask_bits, mask_list, reg_bits

VL = 256


def filled(dtype: type[Scalar], count: int, bits: list[int]) -> Any:
    """A fresh UB array of *count* elements of *dtype* holding *bits* (written raw)."""
    ptr = UnifiedBuffer().alloc(dtype, count)
    ptr.view(count, "writes")[:] = from_bits(bits, dtype)
    return ptr


def _slots(dst: type[Scalar], two: bool, index: type[Scalar], index_two: bool, bits: list[int]) -> tuple[int, int, list[bool]]:  # fmt: skip
    """(slot count, slot bytes, enables) as the pages define them (see ``_frontend.movement``)."""
    if dst.size == 8:
        lanes, stride = geometry(dst, two)
        return lanes, 8, [bool(bits[i * stride]) for i in range(lanes)]
    lanes = geometry(index, index_two)[0]
    slot = VL // lanes
    return lanes, slot, [bool(bits[i * slot]) for i in range(lanes)]


def gather_case(call: Callable[..., Any], combo: tuple[Any, ...], two: bool, index_two: bool, data: Any) -> None:  # fmt: skip
    """``call(dst, base, index, mask)`` against :func:`reference.movement.gather_ub`."""
    dst_t, src_t, idx_t = combo
    count = 128
    memory = data.draw(lane_bits(src_t, count))
    _slots_used, slot, enabled = _slots(
        dst_t, two, idx_t, index_two, bits := data.draw(mask_bits())
    )
    lanes = geometry(idx_t, index_two)[0]
    index = [b % count for b in data.draw(st.binary(min_size=lanes, max_size=lanes))]
    dst, idx = (
        make_reg(dst_t, [0] * geometry(dst_t, two)[0], two),
        make_reg(idx_t, index, index_two),
    )
    call(dst, filled(src_t, count, memory), idx, make_mask(bits))
    assert reg_bits(dst) == ref.gather_ub(memory, index, enabled, src_t.size, slot, dst_t.size)


def scatter_case(call: Callable[..., Any], combo: tuple[Any, ...], two: bool, index_two: bool, data: Any) -> None:  # fmt: skip
    """``call(base, src, index, mask)`` against :func:`reference.movement.scatter`."""
    dtype, idx_t = combo
    lanes = geometry(dtype, two)[0]
    src = data.draw(lane_bits(dtype, lanes))
    _slots_used, slot, enabled = _slots(
        dtype, two, idx_t, index_two, bits := data.draw(mask_bits())
    )
    count = 2 * geometry(idx_t, index_two)[0]
    memory = data.draw(lane_bits(dtype, count))
    unique = data.draw(st.permutations(range(count)))
    index = unique[: geometry(idx_t, index_two)[0]]
    base = filled(dtype, count, memory)
    reg = make_reg(dtype, src, two)
    call(base, reg, make_reg(idx_t, index, index_two), make_mask(bits))
    src_bytes = [int(b) for b in np.asarray(reg).view(np.uint8)]
    want = ref.scatter(memory, src_bytes, index, enabled, dtype.size, slot)
    assert to_bits(base.view(count)) == want


def gather_blocks_case(call: Callable[..., Any], dtype: type[Scalar], masked: bool, data: Any) -> None:  # fmt: skip
    """``call(dst, base, index[, mask])`` against :func:`reference.movement.gather_blocks`."""
    blocks = 16
    memory = data.draw(st.binary(min_size=32 * blocks, max_size=32 * blocks))
    base = filled(uint8_t, 32 * blocks, list(memory)).cast(dtype)
    picks = [b % blocks for b in data.draw(st.binary(min_size=64, max_size=64))]
    offsets = [32 * p for p in picks]
    bits = data.draw(mask_bits()) if masked else [1] * 256
    enabled = [bool(bits[4 * k]) for k in range(8)]
    dst = make_reg(dtype, [0] * geometry(dtype, False)[0])
    index = make_reg(uint32_t, offsets)
    call(dst, base, index, make_mask(bits)) if masked else call(dst, base, index)
    assert reg_bits(dst) == ref.gather_blocks(list(memory), offsets, enabled, dtype.size)


def histogram_case(call: Callable[..., Any], high: bool, cumulative: bool, data: Any) -> None:
    """``call(dst, src, mask)`` against :func:`reference.movement.histogram`."""
    src = data.draw(lane_bits(uint8_t, 256))
    raw = data.draw(st.binary(min_size=256, max_size=256))
    start = [raw[2 * n] | raw[2 * n + 1] << 8 for n in range(128)]
    bits = data.draw(mask_bits())
    dst = make_reg(uint16_t, start)
    call(dst, make_reg(uint8_t, src), make_mask(bits))
    assert reg_bits(dst) == ref.histogram(start, src, [bool(b) for b in bits], high, cumulative)


def unsqueeze_case(call: Callable[..., Any], dtype: type[Scalar], data: Any) -> None:
    """``call(dst, mask)`` against :func:`reference.movement.unsqueeze`."""
    lanes, stride = geometry(dtype, False)
    bits = data.draw(mask_bits())
    dst = make_reg(dtype, [0] * lanes)
    call(dst, make_mask(bits))
    enabled = [bool(bits[i * stride]) for i in range(lanes)]
    assert reg_bits(dst) == ref.unsqueeze(enabled, 8 * dtype.size)


def mask_interleave_case(call: Callable[..., Any], group: int, inverse: bool, data: Any) -> None:
    """``call(dst0, dst1, src0, src1)`` on masks against :func:`reference.movement.mask_interleave`."""
    a, b = data.draw(mask_bits()), data.draw(mask_bits())
    m0, m1 = make_mask(a), make_mask(b)
    call(m0, m1, m0, m1)  # the sources are read before the destinations are written
    assert (mask_list(m0), mask_list(m1)) == ref.mask_interleave(a, b, group, inverse)


def trait_pairs(combo: tuple[Any, ...], index_role: int) -> list[tuple[bool, bool]]:
    """The legal (data RegTraitNumTwo?, index RegTraitNumTwo?) layouts of a gather/scatter combo.

    64-bit data takes either layout; a uint64 index either layout too, except a RegTraitNumOne
    index (32 lanes) for RegTraitNumTwo data (64 lanes; C++ static_assert).
    """
    if combo[0].size != 8:
        return [(False, False)]
    if combo[index_role].size != 8:
        return [(False, False), (True, False)]
    return [(False, False), (False, True), (True, True)]

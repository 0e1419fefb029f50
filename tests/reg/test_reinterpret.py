"""Register reinterpret casts ``Reg.RegTensor[U](reg)`` and ``vector_U(reg)`` (docs/porting.md).

The view shares the register's bytes both ways (checked against ``reference.reinterpret``), is
written exactly when the register is, reads masks at its own lane width, keeps the total bits,
and runs the same in eager and batched VF loops (plans and their aliasing guard included).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg
from ascreg import (
    Ref,
    Reg,
    RegTraitNumTwo,
    UnifiedBuffer,
    float32_t,
    half,
    int16_t,
    int32_t,
    int64_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec.dtypes import REG_TYPES
from ascreg.c_api import asc_storealign_pack, vector_float, vector_int16_t, vector_int32_t
from ascreg.errors import AscregTypeError, UninitializedRegisterError
from ascreg.machine.kernel import __simd_vf__
from ascreg.machine.registers import plain_class, storage
from reference.common import first_difference, lane_count
from reference.masks import mask_to_lanes
from reference.reinterpret import recast
from strategies import lane_bits, make_mask, make_reg, mask_bits, reg_bits

RegTensor = Reg.RegTensor
_IDS = [t.cpp_name for t in REG_TYPES]


@pytest.mark.parametrize("src", REG_TYPES, ids=_IDS)
@given(data=st.data())
def test_view_reads_and_writes_the_same_bytes(src: Any, data: Any) -> None:
    dst = data.draw(st.sampled_from(REG_TYPES), label="dst")
    bits = data.draw(lane_bits(src, lane_count(src)))
    x = make_reg(src, bits)
    view = RegTensor[dst](x)
    got = reg_bits(view)
    want = recast(bits, src.size, dst.size)
    assert got == want, first_difference(got, want)
    new = data.draw(lane_bits(dst, lane_count(dst)))
    view.set(np.array(new, dtype=f"<u{dst.size}").view(dst.np_dtype))
    got = reg_bits(x)
    want = recast(new, dst.size, src.size)
    assert got == want, first_difference(got, want)
    assert plain_class(view) is RegTensor[dst] and isinstance(view, RegTensor[dst])


@given(bits=lane_bits(int64_t, 64), mask=mask_bits())
def test_trait_two_view_is_the_same_two_registers(bits: list[int], mask: list[int]) -> None:
    x = make_reg(int64_t, bits, trait_two=True)
    view = RegTensor[uint64_t, RegTraitNumTwo](x)
    assert reg_bits(view) == bits
    dst = RegTensor[uint64_t, RegTraitNumTwo]()
    Reg.Move(dst, view)
    assert reg_bits(dst) == bits


@pytest.mark.rows("Reg.ShiftLefts")
@given(
    x_bits=lane_bits(float32_t, 64),
    old=lane_bits(float32_t, 64),
    mask=mask_bits(),
)
def test_zeroing_copy_through_uint32_views(
    x_bits: list[int], old: list[int], mask: list[int]
) -> None:
    """``ShiftLefts((RegTensor<uint32_t>&)dst, (RegTensor<uint32_t>&)x, 0, preg)``: the norm
    kernels' masked copy: dst's float lanes are x's where the b32 mask is on, +0.0 elsewhere."""
    x, dst = make_reg(float32_t, x_bits), make_reg(float32_t, old)
    Reg.ShiftLefts(RegTensor[uint32_t](dst), RegTensor[uint32_t](x), int16_t(0), make_mask(mask))
    active = mask_to_lanes(mask, 64, 4)
    want = [b if a else 0 for b, a in zip(x_bits, active, strict=True)]
    assert reg_bits(dst) == want, first_difference(reg_bits(dst), want)
    assert reg_bits(x) == x_bits


@given(bits=lane_bits(uint16_t, 128), mask=mask_bits())
def test_mask_is_read_at_the_view_width(bits: list[int], mask: list[int]) -> None:
    """``Duplicate`` of 0x00070007 into a uint32_t view of a uint16_t register: lane i of the
    view is on by mask bit 4 i, and it writes (or zeroes) both uint16_t lanes 2i and 2i+1."""
    dst = make_reg(uint16_t, bits)
    Reg.Duplicate(RegTensor[uint32_t](dst), 0x00070007, make_mask(mask))
    active = mask_to_lanes(mask, 64, 4)
    want = [7 if active[i // 2] else 0 for i in range(128)]
    assert reg_bits(dst) == want


def test_unwritten_state_is_shared() -> None:
    x = RegTensor[half]()
    view = RegTensor[int16_t](x)
    assert not view.written and repr(view).endswith("<never written>")
    with pytest.raises(UninitializedRegisterError):
        Reg.Abs(RegTensor[int16_t](), view, Reg.CreateMask[int16_t]())
    Reg.Duplicate(view, 1, Reg.CreateMask[int16_t]())
    assert x.written and int(np.asarray(x).view(np.int16)[0]) == 1
    assert "a view of RegTensor[half]" in repr(view)


def test_a_view_of_a_view_views_the_register() -> None:
    x = RegTensor[float32_t]()
    inner = RegTensor[uint32_t](x)
    outer = RegTensor[int16_t](inner)
    assert storage(outer) is x and storage(inner) is x and storage(x) is x
    outer.set(-1)
    assert np.isnan(np.asarray(x)).all()


@pytest.mark.parametrize(
    ("target", "source"),
    [
        (lambda r: RegTensor[uint32_t](r), RegTensor[int64_t, RegTraitNumTwo]()),
        (lambda r: RegTensor[uint64_t, RegTraitNumTwo](r), RegTensor[uint32_t]()),
        (lambda r: RegTensor[uint32_t](r), Reg.MaskReg()),
        (lambda r: RegTensor[uint32_t](r), np.zeros(64, np.uint32)),
        (lambda r: vector_int32_t(r), 3),
    ],
    ids=["trait-two-to-one", "one-to-trait-two", "mask", "array", "int"],
)
def test_bad_casts_are_refused(target: Any, source: Any) -> None:
    with pytest.raises(AscregTypeError, match="register cast"):
        target(source)


def test_c_value_cast_pack_stores_a_narrowed_result() -> None:
    """``asc_storealign_pack(dst, (vector_int32_t)dst_reg, mask)`` stores the low halves."""
    ub = UnifiedBuffer()
    out = ub.alloc(int32_t, 64)
    narrowed = vector_int16_t()
    narrowed.set(np.arange(128) * np.array([1, -1] * 64))
    mask = ascreg.c_api.asc_create_mask_b32(ascreg.c_api.PAT_ALL)
    asc_storealign_pack(out, vector_int32_t(narrowed), mask)
    assert out.cast(int16_t).read(64).tolist() == list(range(0, 128, 2))
    assert isinstance(vector_int32_t(narrowed), vector_int32_t)
    with pytest.raises(AscregTypeError, match="vector_float: a register cast"):
        vector_float(Reg.MaskReg())


# -- in a VF: eager and batched loops, recorded plans ---------------------------------------------

VL_F32 = 64


@__simd_vf__
def _tail_add(dst: Any, tmpUb: Any, curAloops: int, tail: int) -> None:
    """add_layer_norm's tail fold, written as the C++ (``arch35/*_full_load.h``)."""
    x1 = RegTensor[float32_t]()
    x2 = RegTensor[float32_t]()
    shlReg = RegTensor[float32_t]()
    sumReg = RegTensor[float32_t]()
    pregFull = Reg.CreateMask[float32_t]()
    pregLast = Reg.UpdateMask[float32_t](Ref(tail))
    for aIdx in range(curAloops):
        Reg.LoadAlign(x1, tmpUb + aIdx * 2 * VL_F32)
        Reg.LoadAlign(x2, tmpUb + aIdx * 2 * VL_F32 + VL_F32)
        Reg.ShiftLefts(RegTensor[uint32_t](shlReg), RegTensor[uint32_t](x2), 0, pregLast)
        Reg.Add(sumReg, x1, shlReg, pregFull)
        Reg.StoreAlign(dst + aIdx * VL_F32, sumReg, pregFull)


@pytest.mark.parametrize("execution", ["eager", "batched"])
def test_views_in_a_vf_loop(execution: str) -> None:
    ub = UnifiedBuffer()
    rows = 5
    src, dst = ub.alloc(float32_t, 128 * rows), ub.alloc(float32_t, 64 * rows)
    rng = np.random.default_rng(7)
    for tail in (10, 10, 10, 33):  # the later calls replay the recorded plan
        x = rng.standard_normal(128 * rows).astype(np.float32)
        src.write(x)
        with ascreg.policy(execution=execution):
            _tail_add(dst, src, rows, tail)
        pairs = x.reshape(rows, 128)
        want = pairs[:, :64].copy()
        want[:, :tail] += pairs[:, 64 : 64 + tail]
        assert np.array_equal(dst.read(64 * rows).reshape(rows, 64), want)


@__simd_vf__
def _accumulate(dst: Any, src: Any, n: int, alias: bool) -> None:
    """acc += x through an int16_t view that is acc itself (loop-carried) or another register."""
    acc = RegTensor[uint16_t]()
    other = RegTensor[uint16_t]()
    x = RegTensor[uint16_t]()
    full = Reg.CreateMask[int16_t]()
    Reg.Duplicate(acc, 1)
    Reg.Duplicate(other, 1)
    target = RegTensor[int16_t](acc if alias else other)
    for i in range(n):
        Reg.LoadAlign(x, src + i * 128)
        Reg.Add(target, RegTensor[int16_t](acc), RegTensor[int16_t](x), full)
    Reg.StoreAlign(dst, RegTensor[uint16_t](target), full)


def test_aliasing_through_a_view_is_loop_carried() -> None:
    ub = UnifiedBuffer()
    n = 4
    src, dst = ub.alloc(uint16_t, 128 * n), ub.alloc(uint16_t, 128)
    x = np.arange(128 * n, dtype=np.uint16) % 97
    src.write(x)
    rows = x.reshape(n, 128)
    for alias in (False, False, True, False, True):  # plans recorded without aliasing
        _accumulate(dst, src, n, alias)
        want = 1 + rows.sum(0) if alias else 1 + rows[-1]
        assert dst.read(128).tolist() == want.astype(np.uint16).tolist(), alias

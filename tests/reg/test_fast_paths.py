"""The per-form fast paths of eager Reg calls: same results and same errors as the checked path.

An op remembers the operand types of a call that passed every check and skips the checks on the
next call of that form; these tests run a form once (so it is cached), then call the op with
a changed form and expect exactly the error a first call would raise.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import CMPMODE, LoadDist, Ref, Reg, UnifiedBuffer, float32_t, half, int16_t, uint16_t
from ascreg.core import masks as mask_core
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    NegativeShiftError,
    OutOfBoundsError,
    UninitializedRegisterError,
)


def _regs(dtype: type, n: int = 3) -> list[Reg.RegTensor]:  # type: ignore[type-arg]
    regs = [Reg.RegTensor[dtype]() for _ in range(n)]
    for k, reg in enumerate(regs):
        reg.set(np.arange(reg.lanes) % 7 + k)
    return regs


def test_compare_form_change_still_checked() -> None:
    a, b, _ = _regs(uint16_t)
    out, full = Reg.MaskReg(), Reg.CreateMask[uint16_t]()
    gt = Reg.Compare[uint16_t, CMPMODE.GT]
    gt(out, a, b, full)  # caches the form
    gt(out, a, b, full)
    assert np.array_equal(out.active(uint16_t), a.get() > b.get())
    with pytest.raises(AscregTypeError, match="mask must be a MaskReg"):
        gt(out, a, b, None)
    with pytest.raises(AscregTypeError, match="registers of different types"):
        gt(out, a, Reg.RegTensor[int16_t](), full)


def test_compare_cached_form_reads_unwritten_registers_as_before() -> None:
    a, b, _ = _regs(uint16_t)
    out, full = Reg.MaskReg(), Reg.CreateMask[uint16_t]()
    Reg.Compare[uint16_t, CMPMODE.LT](out, a, b, full)
    with pytest.raises(UninitializedRegisterError):
        Reg.Compare[uint16_t, CMPMODE.LT](out, a, Reg.RegTensor[uint16_t](), full)
    with pytest.raises(UninitializedRegisterError, match="MaskReg"):
        Reg.Compare[uint16_t, CMPMODE.LT](out, a, b, Reg.MaskReg())


def test_select_form_change_still_checked() -> None:
    a, b, d = _regs(half)
    mask = Reg.CreateMask[half]()
    Reg.Select(d, a, b, mask)
    Reg.Select(d, a, b, mask)
    assert np.array_equal(d.get(), a.get())
    with pytest.raises(AscregTypeError, match="mask must be a MaskReg"):
        Reg.Select(d, a, b, 1)
    with pytest.raises(AscregTypeError, match="registers of different types"):
        Reg.Select(Reg.RegTensor[float32_t](), a, b, mask)


def test_shift_cached_form_still_rejects_negative_counts_and_bad_masks() -> None:
    values, _, out = _regs(uint16_t)
    counts = Reg.RegTensor[int16_t]()
    counts.set(np.full(128, 3))
    mask = Reg.UpdateMask[uint16_t](Ref(100))
    Reg.ShiftRight(out, values, counts, mask)
    Reg.ShiftRight(out, values, counts, mask)  # the cached form
    expected = np.where(np.arange(128) < 100, values.get() >> 3, 0)
    assert np.array_equal(out.get(), expected)
    counts.set(np.full(128, -1))
    with pytest.raises(NegativeShiftError):
        Reg.ShiftRight(out, values, counts, mask)
    with pytest.raises(AscregTypeError, match="mask must be a MaskReg"):
        Reg.ShiftRight(out, values, counts, None)


def test_update_mask_fast_path_keeps_its_checks() -> None:
    assert Reg.UpdateMask[uint16_t](Ref(5)).count() == 5
    with pytest.raises(AscregTypeError, match="outside"):
        Reg.UpdateMask[uint16_t](Ref(-1))
    with pytest.raises(AscregTypeError):
        Reg.UpdateMask[uint16_t](Ref(True))
    with pytest.raises(AscregTypeError):
        Reg.UpdateMask(Ref(5))
    count = Ref(np.uint32(300))  # a numpy count takes the checked path, same result
    assert Reg.UpdateMask[uint16_t](count).count() == 128
    assert count.value == 172


def test_load_store_dist_norm_keep_alignment_and_bounds_errors() -> None:
    p = UnifiedBuffer().alloc(uint16_t, 256)
    p.write(np.arange(256))
    r = Reg.RegTensor[uint16_t]()
    Reg.LoadAlign(r, p)
    Reg.StoreAlign(p + 128, r, Reg.CreateMask[uint16_t]())
    assert np.array_equal(p.read(256)[128:], np.arange(128))
    with pytest.raises(AlignmentError, match="32-byte"):
        Reg.LoadAlign(r, p + 1)
    with pytest.raises(AlignmentError, match="32-byte"):
        Reg.StoreAlign(p + 1, r, Reg.CreateMask[uint16_t]())
    with pytest.raises(OutOfBoundsError):
        Reg.LoadAlign(r, p + 256)  # starts past the allocation (a tail over-read is legal)
    with pytest.raises(IllegalDtypeError, match="32-bit elements, not 16-bit ones"):
        Reg.LoadAlign[uint16_t, LoadDist.DIST_BRC_B32](r, p)


def test_checked_dist_modes_are_cached_per_width() -> None:
    p = UnifiedBuffer().alloc(uint16_t, 256)
    p.write(np.arange(256))
    Reg.LoadAlign[uint16_t, LoadDist.DIST_BRC_B16](Reg.RegTensor[uint16_t](), p)  # cached
    q = p.cast(float32_t)
    with pytest.raises(IllegalDtypeError, match="16-bit elements, not 32-bit ones"):
        Reg.LoadAlign[float32_t, LoadDist.DIST_BRC_B16](Reg.RegTensor[float32_t](), q)


def test_all_on_enables_only_for_prefixes_covering_every_lane() -> None:
    reg = Reg.RegTensor[uint16_t]()
    full = Reg.UpdateMask[uint16_t](Ref(1000)).bits()
    part = Reg.UpdateMask[uint16_t](Ref(50)).bits()
    assert mask_core.is_all_on(mask_core.enables_of(full, reg.lanes, reg.mask_stride))
    assert not mask_core.is_all_on(mask_core.enables_of(part, reg.lanes, reg.mask_stride))
    # the same bits read with another stride (a b16 mask on a b32 op) are not all on
    assert not mask_core.is_all_on(mask_core.enables_of(full, 64, 4))
    assert not mask_core.is_all_on(np.ones(128, bool))
    on = mask_core.all_on(128)
    assert on.all() and not on.flags.writeable


def test_all_on_shortcuts_match_the_masked_computation() -> None:
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 1 << 16, 128).astype(np.uint16) for _ in range(2))
    counts = rng.integers(0, 20, 128).astype(np.int16)
    on, ones = mask_core.all_on(128), np.ones(128, bool)
    from ascreg.core import compare, shifts

    assert np.array_equal(compare.select(on, a, b), compare.select(ones, a, b))
    assert np.array_equal(
        compare.compare_bits("GT", a, b, on, 2), compare.compare_bits("GT", a, b, ones, 2)
    )
    assert np.array_equal(
        shifts.zeroing_shift(a, counts, on, left=False),
        shifts.zeroing_shift(a, counts, ones, left=False),
    )
    assert np.array_equal(
        shifts.zeroing_shift(a.view(np.int16), counts, on, left=True),
        shifts.zeroing_shift(a.view(np.int16), counts, ones, left=True),
    )


def test_a_compare_mask_held_as_enables_reads_the_same_at_every_width() -> None:
    """An eager compare keeps its lane enables; bits are spread only when something reads them."""
    a, b, d = _regs(uint16_t)
    b.set(np.arange(128) * 37 % 11)
    tail = Reg.UpdateMask[uint16_t](Ref(100))
    gt = Reg.MaskReg()
    for _ in range(2):  # the second call takes the cached form
        Reg.Compare[uint16_t, CMPMODE.GT](gt, a, b, tail)
    expected = (a.get() > b.get()) & (np.arange(128) < 100)
    Reg.Select(d, a, b, gt)  # reads the enables at the compare's own width
    assert np.array_equal(d.get(), np.where(expected, a.get(), b.get()))
    bits = np.zeros(256, dtype=bool)
    bits[0::2] = expected
    assert np.array_equal(gt.bits(), bits)
    assert np.array_equal(gt.active(uint16_t), expected)
    assert expected.any() and not expected.all()
    assert np.array_equal(gt.active(float32_t), bits[0::4])  # another width: lane i is bit 4i


def test_a_loop_carrying_a_compare_mask_reads_what_the_eager_compare_left() -> None:
    """A batch that reads a mask an eager compare left as lane enables, then undoes itself."""
    import ascreg

    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
    values = np.arange(512, dtype=np.uint16) * 7 % 300
    src.write(values)
    a = Reg.RegTensor[uint16_t]()
    a.set(150)
    gt = Reg.MaskReg()
    full = Reg.CreateMask[uint16_t]()
    for _ in range(2):  # the second call takes the cached form: enables only
        Reg.Compare[uint16_t, CMPMODE.LT](gt, a, a, full)  # all off

    @ascreg.__simd_vf__
    def body(n: int) -> None:
        r = Reg.RegTensor[uint16_t]()
        for i in range(n):
            Reg.LoadAlign(r, src + i * 128)
            Reg.StoreAlign(dst + i * 128, r, gt)  # the previous iteration's mask: loop-carried
            Reg.Compare[uint16_t, CMPMODE.GT](gt, r, a, full)

    body(4)  # the batched attempt finds the carried mask, undoes, runs eagerly
    rows = values.reshape(4, 128)
    expected = np.zeros((4, 128), dtype=np.uint16)  # row 0: the all-off mask from before
    expected[1:] = np.where(rows[:-1] > 150, rows[1:], 0)
    assert np.array_equal(dst.read(512).reshape(4, 128), expected)
    assert np.array_equal(gt.active(uint16_t), rows[3] > 150)


def test_numpy_scalars_are_converted_once_per_type_and_bits() -> None:
    """A numpy scalar operand's conversion is kept by its type and bits: -0.0 is not 0.0, a
    float16 1/3 is not a float32 1/3, and an out-of-range integer raises on every call."""
    dst, full = Reg.RegTensor[half](), Reg.CreateMask[half]()
    for value, want in [
        (np.float32(0.0), 0.0), (np.float32(-0.0), -0.0), (np.float32(1 / 3), np.float16(1 / 3)),
        (np.float16(1 / 3), np.float16(1 / 3)), (np.float64(1 / 3), np.float16(1 / 3)),
    ]:  # fmt: skip
        Reg.Duplicate(dst, value, full)
        got = dst.get()[0]
        assert got == want and np.signbit(got) == np.signbit(want), (value, got)
    small = Reg.RegTensor[int16_t]()
    for _ in range(2):
        with pytest.raises(AscregError, match="outside"):
            Reg.Duplicate(small, np.int64(1 << 20), Reg.CreateMask[int16_t]())

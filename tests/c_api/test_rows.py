"""Every C API function maps to the core function it wraps and to its own dtype table row (the
reference checks of the same rows are in test_compute.py, test_masks.py and test_datamove.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import MaskReg, Ref, RegTensor, UnifiedBuffer
from ascreg._dtypes import ALL_SCALARS, Kind, bool_, int16_t
from ascreg._spec import C_API_NAMES, C_COMPARES, C_LOAD_FAMILY, SPECS
from ascreg.c_api import datamove as dm
from ascreg.core import bitwise, compare, datamove, masks, shifts
from ascreg.errors import AlignmentError, AscregTypeError, IllegalDtypeError, RefRequiredError

C_ROWS = {name: SPECS[name] for name in sorted(C_API_NAMES)}
RNG = np.random.default_rng(5)


def random_lanes(dtype: Any, lanes: int) -> np.ndarray[Any, Any]:
    raw = RNG.integers(0, 256, lanes * dtype.size, dtype=np.uint8)
    values = raw.view(dtype.np_dtype)
    if dtype.kind is Kind.FLOAT:  # keep NaNs out of bit-exact comparisons except where wanted
        values = np.where(np.isnan(values.astype(np.float32)), 0, values).astype(dtype.np_dtype)
    return values


def vector(dtype: Any, values: Any = None) -> Any:
    reg = C.vector_of(dtype)()
    reg.set(random_lanes(dtype, reg.lanes) if values is None else values)
    return reg


def random_mask() -> Any:
    return C.vector_bool.from_bits(RNG.integers(0, 2, 256).astype(bool))


def test_every_c_row_has_a_function() -> None:
    # 59 aligned/mask/compute rows + 9 unaligned accesses + 7 binary and 3 unary arithmetic
    # + abs/neg/relu + 4 scalar forms + asc_leakyrelu + asc_arange[_descend]
    # + asc_gather/asc_squeeze + 3 datablock reduces + pair reduce
    # + asc_pack_to_{low,high} + asc_unpack_{lower,upper} + asc_reduce_{sum,max,min}
    # + compound/carry: asc_abs_sub, asc_axpy, asc_madd, asc_mull, asc_addc, asc_subc,
    #   asc_exp_sub, asc_exp_sub_v2
    # + kernel level: 8 scalar bit functions, 15 system variables, 9 cache controls,
    #   11 syncs (4 kinds x arrive/wait, mte2, mte3, vec), 18 + 1 store-atomic modes and
    #   asc_get_store_atomic_config; asc_store_dev, asc_copy_ub2ub[_sync]; 6 copy-loop
    #   registers, 5 n-d strides, asc_set_ndim_pad_count/_value and asc_ndim_copy_gm2ub;
    #   asc_transpose[_sync]
    # + 437 asc_<src>2<dst>... conversions + asc_rint/round/floor/ceil/trunc
    # + scatter, gather_datablock, histograms, intlv/deintlv (+_b8/_b16/_b32), unsqueeze,
    #   squeeze_with_status, get_squeeze_status, clear_ar_spr
    # + 11 scalar GM atomics c_api.asc_atomic_<op> + asc_muls[_v2]
    #   + asc_set_store_atomic_config_v2
    # + memory-level sorting: asc_bitsort[_sync], asc_mrgsort4[_sync]
    # + asc_set_va_reg, asc_transto5hd_b8/_b16/_b32[_sync]
    # + asc_ndim_copy_dci, asc_copy_ub2l1[_sync]
    # + the cube: asc_copy_l12l0a / l12l0b [_transpose] [_sync], asc_mmad[_sync]
    # + the cube copies: asc_copy_gm2l1[_align/_nd2nz/_dn2nz][_sync], asc_copy_l0c2gm/ub[_sync],
    #   asc_copy_l0c2l1 and 12 registers
    # + the cube's L1 side: asc_copy_l12bt / l12fb / l12l0b_trans / fill_l1 / l12ub [_sync],
    #   the mode setters, the img2col settings and asc_mmad_s4[_sync]
    # + the MX forms: asc_copy_l12l0a_mx / l12l0b_mx / mmad_mx [_sync]
    assert (
        len(C_ROWS) == 109 + 63 + 3 + 14 + 2 + 442 + 16 + 11 + 2 + 1 + 4 + 7 + 3 + 10 + 25 + 25 + 6
    )
    for row in C_ROWS.values():
        assert callable(getattr(C, row.spelling)), row.name
        assert row.spelling in C.__all__


def test_vector_classes_cover_every_c_type_and_are_final() -> None:
    assert set(C.VECTOR_TYPES) == {t for t in ALL_SCALARS if t is not bool_}
    for dtype, cls in C.VECTOR_TYPES.items():
        reg = cls()
        assert not reg.written and reg.dtype is dtype and reg.lanes == 256 // dtype.size
        assert getattr(cls, "__final__", False)  # typing.final: type checkers reject subclasses
        assert cls.__mro__[1] is RegTensor[dtype]  # the machine's storage, not a copy
    assert getattr(C.vector_bool, "__final__", False)
    assert issubclass(C.vector_bool, MaskReg)


def _illegal(row: Any) -> list[Any]:
    legal = {c[0] for c in row.combos}
    return [t for t in C.VECTOR_TYPES if t not in legal]


@pytest.mark.parametrize("op", C_COMPARES)
@pytest.mark.parametrize("scalar", [False, True])
def test_compares_map_to_core_and_their_table(op: str, scalar: bool) -> None:
    name = f"asc_{op}{'_scalar' if scalar else ''}"
    func, row = getattr(C, name), C_ROWS[name]
    for (dtype,) in row.combos:
        a, b, mask, out = vector(dtype), vector(dtype), random_mask(), C.vector_bool()
        other = b.get()[3] if scalar else b
        func(out, a, other, mask)
        enabled = mask.active(dtype)
        expected = compare.compare(op.upper(), a.get(), b.get()[3] if scalar else b.get())
        assert np.array_equal(out.active(dtype), expected & enabled), (name, dtype)
        assert out.count() == int((expected & enabled).sum())
    for dtype in _illegal(row):
        if dtype.size > 4 or dtype.kind is Kind.RAW:
            continue
        with pytest.raises(IllegalDtypeError, match=name):
            func(
                C.vector_bool(),
                vector(dtype),
                vector(dtype).get()[0] if scalar else vector(dtype),
                random_mask(),
            )


def test_vector_ne_has_no_bfloat16_but_the_scalar_form_does() -> None:
    bf = C.bfloat16_t
    assert not SPECS["asc_ne"].is_legal(bf) and SPECS["asc_ne_scalar"].is_legal(bf)
    assert SPECS["asc_eq"].is_legal(bf)


@pytest.mark.parametrize("direction", ["right", "left"])
@pytest.mark.parametrize("scalar", [False, True])
def test_shifts_both_forms_map_to_core(direction: str, scalar: bool) -> None:
    name = f"asc_shift{direction}{'_scalar' if scalar else ''}"
    func = getattr(C, name)
    for dtype, count_type in C_ROWS[name].combos:
        src, mask = vector(dtype), random_mask()
        width = 8 * dtype.size
        if scalar:
            count: Any = int(RNG.integers(0, width + 3))
            counts = np.asarray(count, dtype=np.int16)
        else:
            count = vector(count_type, RNG.integers(0, width + 3, 256 // dtype.size))
            counts = count.get()
        expected, _ = shifts.masked_shift(
            src.get(), counts, mask.active(dtype), left=direction == "left"
        )
        dst = C.vector_of(dtype)()
        assert func(dst, src, count, mask) is None
        returned = func(src, count, mask)
        assert type(returned) is C.vector_of(dtype)
        assert np.array_equal(dst.get(), expected) and np.array_equal(returned.get(), expected)
    with pytest.raises(IllegalDtypeError, match=name):
        func(vector(C.half), 1 if scalar else vector(int16_t), random_mask())


def test_shift_vector_count_must_be_the_signed_type_of_the_same_width() -> None:
    with pytest.raises(
        IllegalDtypeError, match=r"asc_shiftright: illegal dtypes \(src=uint16_t, shift=uint16_t\)"
    ):
        C.asc_shiftright(vector(C.uint16_t), vector(C.uint16_t), random_mask())


def test_negative_shift_is_an_error() -> None:
    from ascreg.errors import NegativeShiftError

    with pytest.raises(NegativeShiftError, match="asc_shiftleft_scalar"):
        C.asc_shiftleft_scalar(vector(C.int32_t), -1, C.asc_create_mask_b32(C.PAT_ALL))


@pytest.mark.parametrize("op", ["and", "or", "xor", "not"])
def test_logic_on_vectors_and_masks(op: str) -> None:
    name = f"asc_{op}"
    func, row = getattr(C, name), C_ROWS[name]
    for (dtype,) in row.combos:
        if dtype is bool_:
            a, b, pred, out = random_mask(), random_mask(), random_mask(), C.vector_bool()
            func(out, a, pred) if op == "not" else func(out, a, b, pred)
            expected = masks.mask_logic(
                op.capitalize(), a.bits(), None if op == "not" else b.bits(), pred.bits()
            )
            assert np.array_equal(out.bits(), expected)
            continue
        a, b, mask, out = vector(dtype), vector(dtype), random_mask(), C.vector_of(dtype)()
        func(out, a, mask) if op == "not" else func(out, a, b, mask)
        raw = bitwise.bitwise(op, a.get(), None if op == "not" else b.get())
        expected = compare.zero_masked(raw, mask.active(dtype))
        assert np.array_equal(out.get().view(np.uint8), expected.view(np.uint8)), (name, dtype)
    for dtype in _illegal(row):
        with pytest.raises(IllegalDtypeError, match=name):
            func(C.vector_of(dtype)(), vector(dtype), random_mask()) if op == "not" else func(
                C.vector_of(dtype)(), vector(dtype), vector(dtype), random_mask()
            )


def test_select_copy_duplicate() -> None:
    for (dtype,) in C_ROWS["asc_select"].combos:
        if dtype is bool_:
            continue
        a, b, mask, out = vector(dtype), vector(dtype), random_mask(), C.vector_of(dtype)()
        C.asc_select(out, a, b, mask)
        expected = compare.select(mask.active(dtype), a.get(), b.get())
        assert np.array_equal(out.get().view(np.uint8), expected.view(np.uint8))
    a, d, mask = vector(C.int32_t), vector(C.int32_t), C.asc_create_mask_b32(C.PAT_H)
    old = d.get().copy()
    C.asc_copy(d, a, mask)
    assert np.array_equal(d.get()[:32], a.get()[:32]) and np.array_equal(d.get()[32:], old[32:])
    dup = C.vector_half()
    C.asc_duplicate_scalar(dup, 2.5, C.asc_create_mask_b16(C.PAT_VL3))
    assert dup.get()[:4].tolist() == [2.5, 2.5, 2.5, 0]
    C.asc_duplicate(
        dup, vector(C.half, np.arange(128, dtype=np.float16) + 1), C.asc_create_mask_b16(C.PAT_ALL)
    )
    assert set(dup.get().tolist()) == {1.0}
    with pytest.raises(IllegalDtypeError, match="asc_select"):
        C.asc_select(C.vector_int64_t(), vector(C.int64_t), vector(C.int64_t), mask)


@pytest.mark.parametrize("width,size", [("b8", 1), ("b16", 2), ("b32", 4)])
def test_masks(width: str, size: int) -> None:
    create = getattr(C, f"asc_create_mask_{width}")
    update = getattr(C, f"asc_update_mask_{width}")
    lanes = 256 // size
    for code in masks.PATTERN_CODES.values():
        expected = masks.lanes_to_bits(masks.pattern_lanes(code, lanes), size)
        assert np.array_equal(create(code).bits(), expected)
    assert isinstance(create(C.PAT_ALL), C.vector_bool)
    count = Ref(lanes + 5)
    assert update(count).count() == lanes and count.value == 5
    assert update(count).count() == 5 and count.value == 0
    with pytest.raises(RefRequiredError):
        update(5)
    with pytest.raises(AscregTypeError):
        create(14)


LOAD_SUFFIXES = list(C_LOAD_FAMILY)


@pytest.mark.parametrize("suffix", LOAD_SUFFIXES)
@pytest.mark.parametrize("post", [False, True])
def test_loads_map_to_their_dist_and_table(suffix: str, post: bool) -> None:
    name = f"asc_loadalign{suffix}{'_postupdate' if post else ''}"
    func, row = getattr(C, name), C_ROWS[name]
    vector_dist, mask_dist = dm.LOAD_DISTS[suffix]
    for (dtype,) in row.combos:
        ub = UnifiedBuffer()
        p = ub.alloc(
            C.uint8_t if dtype is bool_ else dtype, 1024 // (1 if dtype is bool_ else dtype.size)
        )
        p.cast(C.uint8_t).write(RNG.integers(0, 256, 1024, dtype=np.uint8))
        if dtype is bool_:
            m = C.vector_bool()
            mp = p.cast(C.uint32_t)
            func(m, Ref(mp), 32) if post else func(m, mp)
            assert np.array_equal(m.bits(), datamove.load_mask(mp, mask_dist))
            continue
        regs = [C.vector_of(dtype)() for _ in range(2 if suffix == "_deintlv" else 1)]
        ref = Ref(p)
        func(*regs, ref, 8) if post else func(*regs, p)
        lanes = datamove.load(p, vector_dist(dtype.size), regs[0].lanes, dual=suffix == "_deintlv")
        expected = datamove.deinterleave(lanes) if suffix == "_deintlv" else (lanes,)
        for reg, exp in zip(regs, expected, strict=True):
            assert np.array_equal(reg.get().view(np.uint8), exp.view(np.uint8)), (name, dtype)
        if post:
            assert ref.value - p == 8
    illegal = [t for t in _illegal(row) if suffix != "_deintlv"]
    for dtype in illegal:
        with pytest.raises(IllegalDtypeError, match=name):
            func(C.vector_of(dtype)(), Ref(UnifiedBuffer().alloc(dtype, 512)), 0) if post else func(
                C.vector_of(dtype)(), UnifiedBuffer().alloc(dtype, 512)
            )


def test_load_offsets_and_block_stride() -> None:
    p = UnifiedBuffer().alloc(C.uint16_t, 1024)
    p.write(np.arange(1024))
    r = C.vector_uint16_t()
    C.asc_loadalign(r, p, 16)
    assert r.get()[0] == 16
    mask = C.asc_create_mask_b16(C.PAT_ALL)
    C.asc_loadalign(r, p, 2, 16, mask)  # block stride 2, repeat stride 16 blocks (= 256 elements)
    assert r.get()[:18].tolist() == [*range(256, 272), 288, 289]
    ref = Ref(p)
    C.asc_loadalign_postupdate(r, ref, 2, 16, mask)
    assert r.get()[16] == 32 and ref.value - p == 256
    with pytest.raises(AlignmentError, match="asc_loadalign"):
        C.asc_loadalign(r, p + 1)
    with pytest.raises(RefRequiredError, match="asc_loadalign_postupdate"):
        C.asc_loadalign_postupdate(r, p, 128)


def test_stores() -> None:
    ub = UnifiedBuffer()
    p = ub.alloc(C.uint16_t, 512)
    p.write(np.full(512, 7))
    r = vector(C.uint16_t, np.arange(128))
    C.asc_storealign(p, r, C.asc_create_mask_b16(C.PAT_VL4))
    assert p.read(6).tolist() == [0, 1, 2, 3, 7, 7]
    ref = Ref(p)
    C.asc_storealign_postupdate(ref, r, 128, C.asc_create_mask_b16(C.PAT_ALL))
    assert ref.value - p == 128
    C.asc_storealign(p, r, 2, 0, C.asc_create_mask_b16(C.PAT_VL32))
    assert p.read(48)[32:34].tolist() == [16, 17]
    C.asc_storealign_1st(p + 256, vector(C.uint16_t, np.arange(128) + 40))
    assert p.read(258)[256:].tolist() == [40, 7]
    C.asc_storealign_intlv(p, r, vector(C.uint16_t, np.zeros(128, np.uint16)))
    assert p.read(4).tolist() == [0, 0, 1, 0]
    q = ub.alloc(C.uint8_t, 64)
    C.asc_storealign(q, C.asc_create_mask_b8(C.PAT_VL8))
    assert q.read(2).tolist() == [255, 0]
    with pytest.raises(IllegalDtypeError, match="asc_storealign_pack_quarter"):
        C.asc_storealign_pack_quarter(p, r, C.asc_create_mask_b16(C.PAT_ALL))
    with pytest.raises(AscregTypeError, match="asc_storealign"):
        C.asc_storealign(p.cast(C.int16_t), r, C.asc_create_mask_b16(C.PAT_ALL))

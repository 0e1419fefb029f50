"""UB Gather, GatherB, Scatter, Histograms, Unsqueeze, MoveMask and the MaskReg Interleave
against the scalar references (``reference.movement``), every legal dtype and random masks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (the kernel scaffolding)
from ascreg import (
    HistogramsBinType,
    HistogramsType,
    MemType,
    Ref,
    Reg,
    SpecialPurposeReg,
    UnifiedBuffer,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    policy,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec import SPECS
from ascreg._spec.dtypes import GATHER_UB_COMBOS
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    IllegalDtypeError,
    SyncError,
    UndefinedBehaviourError,
)
from ascreg.machine import spr
from ascreg.machine.block import BlockContext, block
from helpers import launch
from movement_cases import (
    gather_blocks_case,
    gather_case,
    histogram_case,
    mask_interleave_case,
    scatter_case,
    trait_pairs,
    unsqueeze_case,
)
from reference.movement import spr_mask
from strategies import make_mask, make_reg, mask_list


def _params(combos: Any, index_role: int) -> list[Any]:
    return [
        pytest.param(c, two, itwo, id="-".join([*(d.cpp_name for d in c), str(two), str(itwo)]))
        for c in combos
        for two, itwo in trait_pairs(c, index_role)
    ]


@pytest.mark.rows("Reg.Gather")
@pytest.mark.parametrize(("combo", "two", "index_two"), _params(GATHER_UB_COMBOS, 2))
@settings(max_examples=5, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_gather_from_ub(combo: Any, two: bool, index_two: bool, data: Any) -> None:
    gather_case(Reg.Gather, combo, two, index_two, data)


@pytest.mark.rows("Reg.Scatter")
@pytest.mark.parametrize(("combo", "two", "index_two"), _params(SPECS["Reg.Scatter"].combos, 1))
@settings(max_examples=5, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_scatter(combo: Any, two: bool, index_two: bool, data: Any) -> None:
    scatter_case(Reg.Scatter, combo, two, index_two, data)


@pytest.mark.rows("Reg.GatherB")
@pytest.mark.parametrize("dtype", [c[0] for c in SPECS["Reg.GatherB"].combos], ids=str)
@settings(max_examples=4, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_gather_blocks(dtype: Any, data: Any) -> None:
    gather_blocks_case(Reg.GatherB, dtype, True, data)


@pytest.mark.rows("Reg.Histograms")
@pytest.mark.parametrize("mode", list(HistogramsBinType))
@pytest.mark.parametrize("kind", list(HistogramsType))
@settings(max_examples=10, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_histograms(mode: Any, kind: Any, data: Any) -> None:
    op = Reg.Histograms[uint8_t, uint16_t, mode, kind]
    histogram_case(op, mode is HistogramsBinType.BIN1, kind is HistogramsType.ACCUMULATE, data)


@pytest.mark.rows("Reg.Unsqueeze")
@pytest.mark.parametrize("dtype", [c[0] for c in SPECS["Reg.Unsqueeze"].combos], ids=str)
@settings(max_examples=10, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_unsqueeze(dtype: Any, data: Any) -> None:
    unsqueeze_case(Reg.Unsqueeze, dtype, data)


@pytest.mark.rows("Reg.Interleave", "Reg.DeInterleave")
@pytest.mark.parametrize("op", ["Interleave", "DeInterleave"])
@pytest.mark.parametrize("dtype", [uint8_t, half, uint32_t], ids=str)
@settings(max_examples=10, suppress_health_check=[HealthCheck.large_base_example])
@given(st.data())
def test_mask_interleave(op: str, dtype: Any, data: Any) -> None:
    mask_interleave_case(getattr(Reg, op)[dtype], dtype.size, op == "DeInterleave", data)


@pytest.mark.rows("Reg.MoveMask")
@pytest.mark.parametrize("dtype", [c[0] for c in SPECS["Reg.MoveMask"].combos], ids=str)
@settings(max_examples=10, suppress_health_check=[HealthCheck.large_base_example])
@given(st.integers(0, (1 << 128) - 1))
def test_move_mask_reads_the_spr(dtype: Any, value: int) -> None:
    with block(BlockContext()) as ctx, ctx.simd_vf():
        spr.write_mask_spr(value)
        assert mask_list(Reg.MoveMask[dtype]()) == spr_mask(value, dtype.size)


# ---- the documented rules and errors ---------------------------------------------------------


def test_scatter_b8_writes_the_even_lanes_and_leaves_the_rest() -> None:
    base = UnifiedBuffer().alloc(int8_t, 256)
    base.write([7] * 256)
    src, idx = make_reg(int8_t, list(range(256))), make_reg(uint16_t, list(range(128)))
    Reg.Scatter(base, src, idx, Reg.CreateMask[int16_t, Reg.MaskPattern.VL4]())
    assert base.read(6).tolist() == [0, 2, 4, 6, 7, 7]


def test_scatter_repeated_index_is_undefined_unless_allowed() -> None:
    base = UnifiedBuffer().alloc(uint32_t, 64)
    base.write([0] * 64)
    src, idx = make_reg(uint32_t, list(range(1, 65))), make_reg(uint32_t, [3] * 64)
    mask = Reg.CreateMask[uint32_t, Reg.MaskPattern.VL3]()
    with pytest.raises(UndefinedBehaviourError, match=r"Reg\.Scatter: index 3 is written by more"):
        Reg.Scatter(base, src, idx, mask)
    with policy(undefined="warn"), pytest.warns(UserWarning):
        Reg.Scatter(base, src, idx, mask)
    assert base.read(4).tolist() == [0, 0, 0, 3]  # the highest selected lane wins


def test_gather_ub_disabled_indices_are_not_read_and_b64_traitone_uses_32() -> None:
    base = UnifiedBuffer().alloc(int64_t, 32)
    base.write(list(range(100, 132)))
    dst, idx = Reg.RegTensor[int64_t](), make_reg(uint32_t, [5] * 32 + [10**6] * 32)
    Reg.Gather(dst, base, idx, Reg.CreateMask[int64_t, Reg.MaskPattern.VL2]())
    assert np.asarray(dst)[:3].tolist() == [105, 105, 0]


def test_gather_ub_errors_name_the_rule() -> None:
    base = UnifiedBuffer().alloc(int16_t, 256)
    base.write([1] * 256)
    dst, idx = Reg.RegTensor[int32_t](), make_reg(uint16_t, [0] * 128)
    with pytest.raises(
        IllegalDtypeError, match=r"Reg.Gather: illegal dtypes \(dst=int32_t, src=int16_t"
    ):
        Reg.Gather(dst, base, idx, Reg.CreateMask[int32_t]())
    with pytest.raises(AlignmentError, match="32-byte aligned"):
        Reg.Gather(Reg.RegTensor[int16_t](), base + 1, idx, Reg.CreateMask[int16_t]())


def test_gather_b_rules() -> None:
    base = UnifiedBuffer().alloc(uint32_t, 64)
    base.write(list(range(64)))
    dst = Reg.RegTensor[uint32_t]()
    with pytest.raises(AlignmentError, match="index 40 is not a multiple of 32"):
        Reg.GatherB(dst, base, make_reg(uint32_t, [40] * 64), Reg.CreateMask[uint32_t]())
    two = Reg.RegTensor[uint64_t, Reg.RegTraitNumTwo]()
    with pytest.raises(AscregTypeError, match="RegTraitNumOne"):
        Reg.GatherB(
            two, base.cast(uint64_t), make_reg(uint32_t, [0] * 64), Reg.CreateMask[uint32_t]()
        )


def test_histograms_needs_its_modes_and_wraps() -> None:
    with pytest.raises(AscregTypeError, match=r"write Histograms\[T, T, HistogramsBinType, Hi"):
        Reg.Histograms[uint8_t, uint16_t]
    dst, src = make_reg(uint16_t, [65535] * 128), make_reg(uint8_t, [0] * 256)
    op = Reg.Histograms[uint8_t, uint16_t, HistogramsBinType.BIN0, HistogramsType.FREQUENCY]
    op(dst, src, Reg.CreateMask[uint8_t, Reg.MaskPattern.VL2]())
    assert np.asarray(dst)[:2].tolist() == [1, 65535]


def test_mask_interleave_needs_t_and_distinct_destinations() -> None:
    m = Reg.CreateMask[uint16_t]()
    with pytest.raises(AscregTypeError, match=r"needs its element type .*Interleave\[T\]"):
        Reg.Interleave(Reg.MaskReg(), Reg.MaskReg(), m, m)
    with pytest.raises(AscregTypeError, match="b8/b16/b32"):
        Reg.Interleave[uint64_t](Reg.MaskReg(), Reg.MaskReg(), m, m)
    out = Reg.MaskReg()
    with pytest.raises(AscregTypeError, match="must be different"):
        Reg.MaskInterleave[uint16_t](out, out, m, m)


def test_move_mask_before_the_spr_is_set_is_an_error() -> None:
    with (
        block(BlockContext()) as ctx,
        ctx.simd_vf(),
        pytest.raises(Exception, match="mask SPR is read before"),
    ):
        Reg.MoveMask[half]()


def test_clear_spr_zeroes_ar() -> None:
    with block(BlockContext()) as ctx, ctx.simd_vf():
        spr.add_ar(64)
        Reg.ClearSpr[SpecialPurposeReg.AR]()
        assert spr.read_ar() == 0
        with pytest.raises(AscregTypeError, match="ClearSpr"):
            Reg.ClearSpr()


def test_local_mem_bar_informs_the_store_load_check() -> None:
    @C.__simd_vf__
    def vf(buf: Any, pair: Any) -> None:
        r = Reg.RegTensor[uint32_t]()
        Reg.LoadAlign(r, buf)
        Reg.StoreAlign(buf + 64, r, Reg.CreateMask[uint32_t]())
        if pair:
            Reg.LocalMemBar[pair]()
        Reg.LoadAlign(r, buf + 64)
        Reg.StoreAlign(buf, r, Reg.CreateMask[uint32_t]())  # uses what the load read

    def body(pair: Any) -> None:
        buf = C.__ubuf__(uint32_t, 128)
        buf.write(list(range(64)))
        C.asc_sync()
        vf(buf, pair)

    for pair in (None, (MemType.VEC_LOAD, MemType.VEC_STORE)):  # no barrier; loads before stores
        with pytest.raises(SyncError, match="LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>"):
            launch(body, pair)
    for pair in ((MemType.VEC_STORE, MemType.VEC_LOAD), (MemType.VEC_ALL, MemType.VEC_ALL)):
        launch(body, pair)
    with pytest.raises(AscregTypeError, match="__simd_vf__"):
        launch(lambda: Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]())
    with pytest.raises(AscregTypeError, match="two MemType"):
        Reg.LocalMemBar[uint16_t]


def test_data_copy_dispatches_by_operand_kinds() -> None:
    p = UnifiedBuffer().alloc(half, 256)
    p.write([0.5] * 256)
    r, q = Reg.RegTensor[half](), Ref(p)
    Reg.DataCopy(r, p)
    Reg.DataCopy[half, Reg.PostLiteral.POST_MODE_UPDATE](
        p + 128 and q, r, 128, Reg.CreateMask[half]()
    )
    assert q.value - p == 128
    Reg.DataCopy(r, q.value)
    assert float(np.asarray(r)[0]) == 0.5
    with pytest.raises(
        AscregTypeError,
        match=r"Reg.DataCopy: no form takes \(int\); the forms are: DataCopy\(dst register",
    ):
        Reg.DataCopy(3)


def test_data_copy_unalign_dispatches_by_the_unaligned_register() -> None:
    a, b = UnifiedBuffer().alloc(uint32_t, 160), UnifiedBuffer().alloc(uint32_t, 160)
    a.write(list(range(160)))
    src, dst = Ref(a + 3), Ref(b + 5)
    r, ul, us = Reg.RegTensor[uint32_t](), Reg.UnalignRegForLoad(), Reg.UnalignRegForStore()
    Reg.DataCopyUnAlignPre(ul, src)
    Reg.DataCopyUnAlign(r, ul, src, 64)
    Reg.DataCopyUnAlign(dst, r, us, 64)
    Reg.DataCopyUnAlignPost(dst, us, 0)
    assert b.read(69)[5:].tolist() == list(range(3, 67))
    with pytest.raises(AscregTypeError, match=r"Reg\.DataCopyUnAlign: no form takes"):
        Reg.DataCopyUnAlign(r, r, r)


def test_older_spellings_of_rearrangements() -> None:
    assert Reg.GatherMask is Reg.Squeeze and Reg.PrefixSum is Reg.Unsqueeze
    assert Reg.MaskPack is Reg.Pack and Reg.DataCopyGather is Reg.Gather
    assert Reg.DataCopyScatter is Reg.Scatter and Reg.DataCopyGatherB is Reg.GatherB
    src, a, b = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[half]()
    src.set(1.0)
    Reg.ReduceSumWithDataBlock(a, src, Reg.CreateMask[half]())
    Reg.ReduceDataBlock[Reg.ReduceType.SUM](b, src, Reg.CreateMask[half]())
    assert np.array_equal(np.asarray(a), np.asarray(b))
    Reg.PairReduceSum(a, src, Reg.CreateMask[half]())
    assert float(np.asarray(a)[0]) == 2.0
    assert make_mask([1] * 256).count() == 256

"""Unaligned loads and stores (spec §3.7): LoadUnAlignPre/LoadUnAlign, StoreUnAlign/Post, Load/Store.

The references are written from the documents' description of the streams: a load stream
delivers the VL bytes at each address; a store stream has written, after each StoreUnAlign,
every byte up to the last 32-byte boundary at or before its end and nothing past it, and all of
them after StoreUnAlignPost (``reference.unaligned.unaligned_store_visible``). UB is compared bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    GatherMaskMode,
    PostLiteral,
    Ref,
    Reg,
    SpecialPurposeReg,
    UnifiedBuffer,
    int16_t,
    policy,
    uint8_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec import SPECS
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    RefRequiredError,
    UndefinedBehaviourError,
    UninitializedRegisterError,
    UnsupportedError,
)
from ascreg.machine import spr
from ascreg.machine.block import BlockContext, block
from reference.common import elements
from reference.unaligned import mask_store_bytes, squeezed_bytes, unaligned_store_visible
from strategies import lane_bits, make_mask, make_reg, mask_bits, new_reg, reg_bits

REGION = 2048
TYPES = [combo[0] for combo in SPECS["Reg.LoadUnAlign"].combos]
SOME = settings(max_examples=max(4, settings.default.max_examples // 8))


def _ub(data: bytes) -> Any:
    base = UnifiedBuffer().alloc(uint8_t, REGION)
    base.write(np.frombuffer(data, dtype=np.uint8))
    return base


@pytest.mark.rows("Reg.LoadUnAlignPre", "Reg.LoadUnAlign", "Reg.Load")
@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_load_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    lanes, size = 256 // dtype.size, dtype.size
    repeats = st_data.draw(st.integers(1, 3))
    start = st_data.draw(st.integers(0, (REGION - 256 * repeats) // size)) * size
    base = _ub(data)
    src = Ref(base.cast(dtype) + start // size)
    u, reg = Reg.UnalignRegForLoad(), new_reg(dtype)
    Reg.LoadUnAlignPre(u, src.value)
    for k in range(repeats):
        Reg.LoadUnAlign(reg, u, src, lanes)
        assert reg_bits(reg) == elements(data, start + 256 * k, lanes, size)
    assert src.value == base.cast(dtype) + start // size + repeats * lanes
    plain = new_reg(dtype)
    Reg.Load(plain, base.cast(dtype) + start // size)
    assert reg_bits(plain) == elements(data, start, lanes, size)


@pytest.mark.parametrize("dtype", [uint64_t], ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), k=st.integers(0, (REGION - 1024) // 8))
def test_load_stream_trait_two(dtype: Any, data: bytes, k: int) -> None:
    """A RegTraitNumTwo register reads 2*VL bytes per call (post-update form only)."""
    base = _ub(data)
    src = Ref(base.cast(dtype) + k)
    u, reg = Reg.UnalignRegForLoad(), new_reg(dtype, True)
    Reg.LoadUnAlignPre(u, src.value)
    for step in range(2):
        Reg.LoadUnAlign[dtype, PostLiteral.POST_MODE_UPDATE](reg, u, src, 64)
        assert reg_bits(reg) == elements(data, 8 * k + 512 * step, 64, 8)
    with pytest.raises(AscregTypeError, match="post-update form only"):
        Reg.LoadUnAlign(reg, u, src.value)


@pytest.mark.rows("Reg.StoreUnAlign", "Reg.StoreUnAlignPost", "Reg.Store")
@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_store_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    lanes, size = 256 // dtype.size, dtype.size
    counts = st_data.draw(st.lists(st.integers(0, lanes), min_size=1, max_size=4))
    start = st_data.draw(st.integers(0, (REGION - 256 * len(counts)) // size)) * size
    base = _ub(data)
    dst = Ref(base.cast(dtype) + start // size)
    u = Reg.UnalignRegForStore()
    written = b""
    for count in counts:
        values = st_data.draw(lane_bits(dtype, lanes))
        Reg.StoreUnAlign(dst, make_reg(dtype, values), u, count)
        written += b"".join(v.to_bytes(size, "little") for v in values[:count])
        assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, False)
    assert dst.value == base.cast(dtype) + (start + len(written)) // size
    Reg.StoreUnAlignPost(dst, u, 0)
    assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, True)
    assert not u.pending
    # the one-shot Store writes exactly count elements
    values = st_data.draw(lane_bits(dtype, lanes))
    count = st_data.draw(st.integers(0, lanes))
    base2 = _ub(data)
    Reg.Store(base2.cast(dtype) + start // size, make_reg(dtype, values), count)
    chunk = b"".join(v.to_bytes(size, "little") for v in values[:count])
    assert bytes(base2.read(REGION)) == unaligned_store_visible(data, start, chunk, True)


def test_doc_example_uint32_round_trip() -> None:
    """The documents' figure: 128 uint32 at UB 48..560, two iterations, one Pre, one Post."""
    ub = UnifiedBuffer()
    src_buf, dst_buf = ub.alloc(uint32_t, 160), ub.alloc(uint32_t, 160)
    src_buf.write(np.arange(160))
    src, dst = Ref(src_buf + 12), Ref(dst_buf + 12)  # byte 48 of each buffer
    ul, us, reg = Reg.UnalignRegForLoad(), Reg.UnalignRegForStore(), Reg.RegTensor[uint32_t]()
    Reg.LoadUnAlignPre(ul, src.value)
    for _ in range(2):
        Reg.LoadUnAlign(reg, ul, src, 64)
        Reg.StoreUnAlign(dst, reg, us, 64)
    out = dst_buf.read(160)
    assert (out[12:136] == np.arange(12, 136)).all() and (out[136:140] == 0).all()  # held
    Reg.StoreUnAlignPost(dst, us, 0)
    assert (dst_buf.read(160)[12:140] == np.arange(12, 140)).all()


def test_load_register_keeps_what_it_read() -> None:
    """Bytes between src and the end of the held block come from the register, not from UB."""
    p = UnifiedBuffer().alloc(uint8_t, 512)
    p.write(np.arange(512) % 256)
    u, r = Reg.UnalignRegForLoad(), Reg.RegTensor[uint8_t]()
    Reg.LoadUnAlignPre(u, p + 5)
    (p + 5).write([200])  # after the Pre: the register still holds the old byte
    Reg.LoadUnAlign(r, u, p + 5)
    assert int(r.get()[0]) == 5


def test_misuse_is_reported() -> None:
    ub = UnifiedBuffer()
    p = ub.alloc(uint32_t, 256)
    r = Reg.RegTensor[uint32_t]()
    r.set(1)
    with pytest.raises(UninitializedRegisterError, match="no LoadUnAlignPre"):
        Reg.LoadUnAlign(r, Reg.UnalignRegForLoad(), p + 1)
    u = Reg.UnalignRegForLoad()
    src = Ref(p + 1)
    Reg.LoadUnAlignPre(u, src.value)
    Reg.LoadUnAlign(r, u, src, 32)  # half a register: the next block is not the held one
    with pytest.raises(UndefinedBehaviourError, match="not the block"):
        Reg.LoadUnAlign(r, u, src, 32)
    with pytest.raises(RefRequiredError):
        Reg.StoreUnAlign(p, r, Reg.UnalignRegForStore(), 4)
    with pytest.raises(AscregTypeError, match="POST_MODE_NORMAL"):
        Reg.StoreUnAlign[uint32_t, PostLiteral.POST_MODE_NORMAL](
            Ref(p), r, Reg.UnalignRegForStore(), 4
        )
    with pytest.raises(AscregTypeError, match="outside"):
        Reg.StoreUnAlign(Ref(p), r, Reg.UnalignRegForStore(), 65)
    with pytest.raises(AscregError, match="no kernel is running"):
        Reg.StoreUnAlign(p, r, Reg.UnalignRegForStore())  # the AR form needs a block's AR
    with pytest.raises(AscregTypeError, match="AddrReg form takes 2"):
        Reg.LoadUnAlign(r, u, p, Reg.CreateAddrReg[uint32_t](1, 1))  # no inc
    us = Reg.UnalignRegForStore()
    with pytest.raises(UninitializedRegisterError):
        Reg.StoreUnAlignPost(Ref(p + 3), us, 0)
    dst = Ref(p + 1)
    Reg.StoreUnAlign(dst, r, us, 3)  # 12 bytes from byte 4: all held
    assert us.pending and int(p.read(4)[1]) == 0
    with pytest.raises(UndefinedBehaviourError, match="would be lost"):
        Reg.StoreUnAlign(Ref(p + 100), r, us, 3)
    with pytest.raises(UndefinedBehaviourError, match="stream stopped"):
        Reg.StoreUnAlignPost(Ref(p + 100), us, 0)
    with pytest.raises(AscregTypeError):
        Reg.Load(Reg.RegTensor[uint8_t](), p)


def test_warn_policy_falls_back() -> None:
    """Under undefined="warn": a load re-primes at src, a store drops the held bytes."""
    p = UnifiedBuffer().alloc(uint8_t, 1024)
    p.write(np.arange(1024) % 256)
    r = Reg.RegTensor[uint8_t]()
    with policy(undefined="warn"), pytest.warns(UserWarning):
        Reg.LoadUnAlign(r, Reg.UnalignRegForLoad(), p + 9)
    assert int(r.get()[0]) == 9
    us = Reg.UnalignRegForStore()
    Reg.StoreUnAlign(Ref(p + 1), r, us, 4)
    with policy(undefined="warn"), pytest.warns(UserWarning):
        Reg.StoreUnAlign(Ref(p + 600), r, us, 4)
    assert us.end == 604


def test_tail_past_the_buffer_is_an_error() -> None:
    p = UnifiedBuffer().alloc(uint32_t, 70)
    r = Reg.RegTensor[uint32_t]()
    r.set(0)
    with pytest.raises(IndexError):
        Reg.Store(p + 10, r)  # 64 lanes from element 10 leave the 70-element buffer
    with pytest.raises(IndexError):
        Reg.Load(r, p + 10)


def test_ref_is_accepted_where_cpp_passes_the_pointer_by_value() -> None:
    """``LoadUnAlignPre(ureg, src)`` with ``src`` the variable the next call advances."""
    from ascreg import Ref, Reg, UnifiedBuffer, uint16_t

    p = UnifiedBuffer().alloc(uint16_t, 400)
    p.write(np.arange(400))
    out = UnifiedBuffer().alloc(uint16_t, 400)
    src, ureg, r = Ref(p + 3), Reg.UnalignRegForLoad(), Reg.RegTensor[uint16_t]()
    Reg.LoadUnAlignPre(ureg, src)
    Reg.LoadUnAlign(r, ureg, src, 128)
    Reg.LoadUnAlign(r, ureg, src)  # the by-value form reads at the advanced pointer
    assert r.get()[0] == 131 and src.value - p == 131
    Reg.Load(r, src)
    Reg.Store(Ref(out + 1), r, 2)
    assert out.read(3).tolist() == [0, 131, 132]


# ---- the AR form: Squeeze<T, STORE_REG> + StoreUnAlign(dst, src, ureg) (issue 10) ----

SQUEEZE_TYPES = [combo[0] for combo in SPECS["Reg.Squeeze"].combos]


@pytest.mark.rows("Reg.Squeeze", "Reg.StoreUnAlign", "Reg.StoreUnAlignPost")
@pytest.mark.parametrize("dtype", SQUEEZE_TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_squeeze_ar_store_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    lanes, size = 256 // dtype.size, dtype.size
    repeats = st_data.draw(st.integers(1, 4))
    start = st_data.draw(st.integers(0, (REGION - 256 * repeats) // size)) * size
    base = _ub(data)
    dst = base.cast(dtype) + start // size
    u, kept = Reg.UnalignRegForStore(), new_reg(dtype)
    written = b""
    with block(BlockContext()) as ctx, ctx.simd_vf():
        spr.add_ar(4096)  # stale: ClearSpr<AR> starts the stream
        Reg.ClearSpr[SpecialPurposeReg.AR]()
        for _ in range(repeats):
            src, mask = st_data.draw(lane_bits(dtype, lanes)), st_data.draw(mask_bits())
            Reg.Squeeze[dtype, GatherMaskMode.STORE_REG](
                kept, make_reg(dtype, src), make_mask(mask)
            )
            Reg.StoreUnAlign[dtype, PostLiteral.POST_MODE_UPDATE](dst, kept, u)
            written += squeezed_bytes(src, mask, size)
            assert spr.read_ar() == len(written)
            assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, False)
        Reg.StoreUnAlignPost(dst, u)
    assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, True)
    assert not u.pending


def test_ar_store_must_alternate_with_squeeze() -> None:
    p = UnifiedBuffer().alloc(int16_t, 512)
    r, m = make_reg(int16_t, [7] * 128), Reg.CreateMask[int16_t]()
    with block(BlockContext()) as ctx, ctx.simd_vf():
        with pytest.raises(UndefinedBehaviourError, match="found 0"):
            Reg.StoreUnAlign(p, r, Reg.UnalignRegForStore())
        Reg.Squeeze[int16_t, GatherMaskMode.STORE_REG](r, r, m)
        Reg.Squeeze[int16_t, GatherMaskMode.STORE_REG](r, r, m)
        with pytest.raises(UndefinedBehaviourError, match="found 2"):
            Reg.StoreUnAlign(p, r, Reg.UnalignRegForStore())
        Reg.Squeeze[int16_t, GatherMaskMode.STORE_REG](r, r, m)
        with pytest.raises(UnsupportedError, match="POST_MODE_NORMAL"):
            Reg.StoreUnAlign[int16_t, PostLiteral.POST_MODE_NORMAL](p, r, Reg.UnalignRegForStore())


# ---- the AddrReg forms (issue 10) ----


@pytest.mark.rows(
    "Reg.LoadUnAlignPre", "Reg.LoadUnAlign", "Reg.StoreUnAlign", "Reg.StoreUnAlignPost"
)
@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_addr_reg_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    """The pages' AddrReg loop: CreateAddrReg(i, VL elements) each repeat; the bases never move."""
    lanes, size = 256 // dtype.size, dtype.size
    repeats = st_data.draw(st.integers(1, 3))
    room = (REGION - 256 * repeats) // size
    src_at, dst_at = (st_data.draw(st.integers(0, room)) for _ in range(2))
    source, target = _ub(data), _ub(bytes(REGION))
    src, dst = source.cast(dtype) + src_at, target.cast(dtype) + dst_at
    u0, u1, reg = Reg.UnalignRegForLoad(), Reg.UnalignRegForStore(), new_reg(dtype)
    written = b""
    for i in range(repeats):
        areg = Reg.CreateAddrReg[dtype](i, lanes)
        Reg.LoadUnAlignPre(u0, src, areg)
        Reg.LoadUnAlign(reg, u0, src, areg, 0)
        assert reg_bits(reg) == elements(data, (src_at + i * lanes) * size, lanes, size)
        Reg.StoreUnAlign(dst, reg, u1, areg)
        written += data[(src_at + i * lanes) * size : (src_at + (i + 1) * lanes) * size]
        visible = unaligned_store_visible(bytes(REGION), dst_at * size, written, False)
        assert bytes(target.read(REGION)) == visible
    Reg.StoreUnAlignPost(dst, u1, areg)
    assert bytes(target.read(REGION)) == unaligned_store_visible(
        bytes(REGION), dst_at * size, written, True
    )
    assert not u1.pending


def test_addr_reg_forms_take_trait_one_and_check_the_stream() -> None:
    p = UnifiedBuffer().alloc(uint32_t, 512)
    r = make_reg(uint32_t, [1] * 64)
    us = Reg.UnalignRegForStore()
    Reg.StoreUnAlign(p, r, us, Reg.CreateAddrReg[uint32_t](1, 3))  # ends at element 67: held
    with pytest.raises(UndefinedBehaviourError, match="stream stopped"):
        Reg.StoreUnAlignPost(p, us, Reg.CreateAddrReg[uint32_t](0, 3))  # not the same areg
    two = Reg.RegTensor[uint64_t, Reg.RegTraitNumTwo]()
    two.set(0)
    with pytest.raises(AscregTypeError, match="RegTraitNumOne"):
        Reg.StoreUnAlign(p.cast(uint64_t), two, us, Reg.CreateAddrReg[uint64_t](0, 1))


# ---- the MaskReg form of StoreUnAlign (issue 10) ----

MASK_STORE_TYPES = [dtype for dtype in TYPES if dtype.size in (2, 4)]


@pytest.mark.rows("Reg.StoreUnAlign", "Reg.StoreUnAlignPost")
@pytest.mark.parametrize("dtype", MASK_STORE_TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_mask_store_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    step = 32 // dtype.size  # bytes per store: 16 (b16) or 8 (b32), the required alignment
    repeats = st_data.draw(st.integers(1, 6))
    start = st_data.draw(st.integers(0, (REGION - step * repeats) // step)) * step
    base = _ub(data)
    dst = Ref(base.cast(dtype) + start // dtype.size)
    u = Reg.UnalignRegForStore()
    written = b""
    for _ in range(repeats):
        bits = st_data.draw(mask_bits())
        Reg.StoreUnAlign(dst, make_mask(bits), u)
        written += mask_store_bytes(bits, dtype.size)
        assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, False)
    assert dst.value == base.cast(dtype) + (start + len(written)) // dtype.size
    Reg.StoreUnAlignPost(dst, u, 0)
    assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, True)


def test_mask_store_checks_alignment_and_width() -> None:
    p = UnifiedBuffer().alloc(uint32_t, 64)
    mask = Reg.CreateMask[uint32_t]()
    with pytest.raises(AlignmentError, match="8-byte alignment"):
        Reg.StoreUnAlign(Ref(p + 1), mask, Reg.UnalignRegForStore())
    with pytest.raises(IllegalDtypeError, match="b16 or b32"):
        Reg.StoreUnAlign(Ref(p.cast(uint8_t)), mask, Reg.UnalignRegForStore())

"""The C API unaligned streams against the reference (spec §3.7, as for the Reg twins).

``asc_loadunalign_pre`` / ``asc_loadunalign*``, ``asc_storeunalign*`` / ``asc_storeunalign_post*``,
``asc_load`` and ``asc_store``; UB is compared bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import Ref, UnifiedBuffer, uint8_t, uint16_t, uint32_t, uint64_t
from ascreg._spec import SPECS
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    RefRequiredError,
    UndefinedBehaviourError,
    UninitializedRegisterError,
)
from ascreg.machine import spr
from ascreg.machine.block import BlockContext, block
from reference.common import elements, from_bits
from reference.unaligned import mask_store_bytes, squeezed_bytes, unaligned_store_visible
from strategies import lane_bits, make_mask, make_reg, mask_bits, reg_bits

REGION = 2048
SOME = settings(max_examples=max(4, settings.default.max_examples // 8))


def _ub(data: bytes) -> Any:
    base = UnifiedBuffer().alloc(uint8_t, REGION)
    base.write(np.frombuffer(data, dtype=np.uint8))
    return base


C_TYPES = [combo[0] for combo in SPECS["asc_loadunalign"].combos]


@pytest.mark.rows(
    "asc_loadunalign_pre",
    "asc_loadunalign_postupdate",
    "asc_load",
    "asc_storeunalign",
    "asc_storeunalign_postupdate",
    "asc_storeunalign_post",
    "asc_storeunalign_post_postupdate",
    "asc_store",
)
@pytest.mark.parametrize("dtype", C_TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_c_api_streams(dtype: Any, data: bytes, st_data: Any) -> None:
    """The C twins: same streams, same reference (they share ascreg.core.unaligned)."""
    from ascreg import c_api

    lanes, size = 256 // dtype.size, dtype.size
    start = st_data.draw(st.integers(0, (REGION - 512) // size)) * size
    base = _ub(data)
    src = Ref(base.cast(dtype) + start // size)
    ul, reg = c_api.vector_load_unalign(), c_api.VECTOR_TYPES[dtype]()
    c_api.asc_loadunalign_pre(ul, src.value)
    for k in range(2):
        c_api.asc_loadunalign_postupdate(reg, ul, src, lanes)
        assert reg_bits(reg) == elements(data, start + 256 * k, lanes, size)
    c_api.asc_load(reg, base.cast(dtype) + start // size)
    assert reg_bits(reg) == elements(data, start, lanes, size)
    # a store stream through the postupdate form, then through the plain form (dst by hand)
    counts = st_data.draw(st.lists(st.integers(0, lanes), min_size=1, max_size=2))
    values = st_data.draw(lane_bits(dtype, lanes))
    src_reg = c_api.VECTOR_TYPES[dtype]()
    src_reg.set(from_bits(values, dtype))
    chunk = b"".join(v.to_bytes(size, "little") for v in values)
    for plain in (False, True):
        base2 = _ub(data)
        dst = Ref(base2.cast(dtype) + start // size)
        us, written = c_api.vector_store_unalign(), b""
        for count in counts:
            if plain:
                c_api.asc_storeunalign(dst.value, us, src_reg, count)
                dst.value = dst.value + count
            else:
                c_api.asc_storeunalign_postupdate(dst, us, src_reg, count)
            written += chunk[: count * size]
            visible = unaligned_store_visible(data, start, written, False)
            assert bytes(base2.read(REGION)) == visible
        if plain:
            c_api.asc_storeunalign_post(base2.cast(dtype), us, (start + len(written)) // size)
        else:
            c_api.asc_storeunalign_post_postupdate(dst, us, 0)
        assert bytes(base2.read(REGION)) == unaligned_store_visible(data, start, written, True)
    base3 = _ub(data)
    c_api.asc_store(base3.cast(dtype) + start // size, src_reg, counts[0])
    want = unaligned_store_visible(data, start, chunk[: counts[0] * size], True)
    assert bytes(base3.read(REGION)) == want


def test_c_api_misuse() -> None:
    from ascreg import c_api

    p = UnifiedBuffer().alloc(uint32_t, 256)
    r = c_api.vector_uint32_t()
    r.set(0)
    with pytest.raises(UninitializedRegisterError):
        c_api.asc_loadunalign(r, c_api.vector_load_unalign(), p + 1)
    with pytest.raises(AscregTypeError, match="vector_store_unalign"):
        c_api.asc_storeunalign(p, c_api.vector_load_unalign(), r, 4)
    with pytest.raises(AscregError, match="no kernel is running"):
        c_api.asc_storeunalign_postupdate(Ref(p), c_api.vector_store_unalign(), r)  # AR form
    with pytest.raises(AscregTypeError, match="must be an addr_reg"):  # not a plain offset
        c_api.asc_loadunalign_pre(c_api.vector_load_unalign(), p, 4)
    with pytest.raises(RefRequiredError):
        c_api.asc_loadunalign_postupdate(r, c_api.vector_load_unalign(), p, 64)
    with pytest.raises(Exception, match="uint64_t"):
        c_api.asc_load(c_api.vector_uint64_t(), p.cast(uint64_t))


@pytest.mark.rows("asc_loadunalign")
@pytest.mark.parametrize("dtype", C_TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_c_api_plain_load_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    """``asc_loadunalign`` without post-update: the caller moves the address by VL each call."""
    from ascreg import c_api

    lanes, size = 256 // dtype.size, dtype.size
    start = st_data.draw(st.integers(0, (REGION - 768) // size)) * size
    src = _ub(data).cast(dtype) + start // size
    ul, reg = c_api.vector_load_unalign(), c_api.VECTOR_TYPES[dtype]()
    c_api.asc_loadunalign_pre(ul, src)
    for k in range(3):
        c_api.asc_loadunalign(reg, ul, src + k * lanes)
        assert reg_bits(reg) == elements(data, start + 256 * k, lanes, size)


def test_ref_is_accepted_where_c_passes_the_pointer_by_value() -> None:
    from ascreg import Ref, UnifiedBuffer, uint16_t
    from ascreg.c_api import (
        asc_load,
        asc_loadunalign,
        asc_loadunalign_postupdate,
        asc_loadunalign_pre,
        asc_store,
        asc_storeunalign,
        asc_storeunalign_post,
        vector_load_unalign,
        vector_store_unalign,
        vector_uint16_t,
    )

    p = UnifiedBuffer().alloc(uint16_t, 400)
    p.write(np.arange(400))
    out = UnifiedBuffer().alloc(uint16_t, 400)
    src, u, r = Ref(p + 5), vector_load_unalign(), vector_uint16_t()
    asc_loadunalign_pre(u, src)
    asc_loadunalign_postupdate(r, u, src, 128)
    asc_loadunalign(r, u, src)
    assert r.get()[0] == 133
    asc_load(r, src)
    dst, us = Ref(out + 1), vector_store_unalign()
    asc_storeunalign(dst, us, r, 2)
    asc_storeunalign_post(dst, us, 2)
    asc_store(Ref(out + 4), r, 1)
    assert out.read(5).tolist() == [0, 133, 134, 0, 133]


@pytest.mark.rows("asc_squeeze_with_status", "asc_storeunalign_postupdate", "asc_storeunalign_post")
@pytest.mark.parametrize(
    "combo", SPECS["asc_squeeze_with_status"].combos, ids=lambda c: c[0].cpp_name
)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_c_api_ar_store_stream(combo: Any, data: bytes, st_data: Any) -> None:
    """The AR form after asc_squeeze_with_status: the same stream as Reg.StoreUnAlign's."""
    from ascreg import c_api

    (dtype,) = combo
    lanes, size = 256 // dtype.size, dtype.size
    repeats = st_data.draw(st.integers(1, 3))
    start = st_data.draw(st.integers(0, (REGION - 256 * repeats) // size)) * size
    base = _ub(data)
    dst = base.cast(dtype) + start // size
    us, kept, written = c_api.vector_store_unalign(), c_api.VECTOR_TYPES[dtype](), b""
    with block(BlockContext()) as ctx, ctx.simd_vf():
        c_api.asc_clear_ar_spr()
        for _ in range(repeats):
            src, mask = st_data.draw(lane_bits(dtype, lanes)), st_data.draw(mask_bits())
            c_api.asc_squeeze_with_status(kept, make_reg(dtype, src), make_mask(mask))
            c_api.asc_storeunalign_postupdate(dst, us, kept)
            written += squeezed_bytes(src, mask, size)
            assert spr.read_ar() == len(written)
            assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, False)
        c_api.asc_storeunalign_post(dst, us)
    assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, True)


# ---- the addr_reg forms and the vector_bool store (the C twins of the Reg AddrReg / MaskReg forms) ----

AREG_UPDATES = {
    1: "asc_update_addr_reg_b8",
    2: "asc_update_addr_reg_b16",
    4: "asc_update_addr_reg_b32",
}


@pytest.mark.rows(
    "asc_loadunalign_pre",
    "asc_loadunalign_postupdate",
    "asc_storeunalign_postupdate",
    "asc_storeunalign_post",
)
@pytest.mark.parametrize("dtype", C_TYPES, ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_c_api_addr_reg_stream(dtype: Any, data: bytes, st_data: Any) -> None:
    """asc_loadunalign_postupdate.md's addr_reg loop: the offset grows by VL each hardware-loop
    iteration; neither base pointer nor the offset moves by itself."""
    from ascreg import c_api

    lanes, size = 256 // dtype.size, dtype.size
    unit = min(size, 4)  # the addr_reg unit (b8 / b16 / b32): 64-bit elements step in b32 units
    repeats = st_data.draw(st.integers(1, 3))
    room = (REGION - 256 * repeats) // size
    src_at, dst_at = (st_data.draw(st.integers(0, room)) for _ in range(2))
    source, target = _ub(data), _ub(bytes(REGION))
    src, dst = source.cast(dtype) + src_at, target.cast(dtype) + dst_at
    u0, u1 = c_api.vector_load_unalign(), c_api.vector_store_unalign()
    reg = c_api.VECTOR_TYPES[dtype]()
    written = b""
    for i in c_api.hw_range(repeats):
        areg = getattr(c_api, AREG_UPDATES[unit])(256 // unit)
        c_api.asc_loadunalign_pre(u0, src, areg)
        c_api.asc_loadunalign_postupdate(reg, u0, src, areg, 0)
        assert reg_bits(reg) == elements(data, (src_at + i * lanes) * size, lanes, size)
        c_api.asc_storeunalign_postupdate(dst, u1, reg, areg)
        written += data[(src_at + i * lanes) * size : (src_at + (i + 1) * lanes) * size]
        visible = unaligned_store_visible(bytes(REGION), dst_at * size, written, False)
        assert bytes(target.read(REGION)) == visible
        if i == repeats - 1:
            c_api.asc_storeunalign_post(dst, u1, areg)
    flushed = unaligned_store_visible(bytes(REGION), dst_at * size, written, True)
    assert bytes(target.read(REGION)) == flushed
    assert not u1.pending


MASK_POINTERS = {uint8_t: 4, uint16_t: 2, uint32_t: 4}
"""The pointer types of the vector_bool unaligned store and the element size each stands for."""


@pytest.mark.rows("asc_storeunalign_postupdate", "asc_storeunalign_post_postupdate")
@pytest.mark.parametrize("pointer", list(MASK_POINTERS), ids=lambda t: t.cpp_name)
@SOME
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_c_api_mask_store_stream(pointer: Any, data: bytes, st_data: Any) -> None:
    from ascreg import c_api

    element = MASK_POINTERS[pointer]
    step = 32 // element  # bytes per store: 16 (b16) or 8 (b32), the required alignment
    repeats = st_data.draw(st.integers(1, 6))
    start = st_data.draw(st.integers(0, (REGION - step * repeats) // step)) * step
    base = _ub(data)
    dst = Ref(base.cast(pointer) + start // pointer.size)
    u = c_api.vector_store_unalign()
    written = b""
    for _ in range(repeats):
        bits = st_data.draw(mask_bits())
        c_api.asc_storeunalign_postupdate(dst, u, make_mask(bits))
        written += mask_store_bytes(bits, element)
        assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, False)
    assert dst.value.address == base.address + start + len(written)
    c_api.asc_storeunalign_post_postupdate(dst, u, 0)
    assert bytes(base.read(REGION)) == unaligned_store_visible(data, start, written, True)


def test_c_api_addr_reg_and_mask_forms_check_their_operands() -> None:
    from ascreg import c_api

    p = UnifiedBuffer().alloc(uint32_t, 512)
    r = c_api.vector_uint32_t()
    r.set(1)
    us = c_api.vector_store_unalign()
    for _ in c_api.hw_range(2):
        areg = c_api.asc_update_addr_reg_b32(3)  # the last iteration's: 3 elements
    with pytest.raises(AscregTypeError, match="takes \\(dst, src0, src1, count\\) or"):
        c_api.asc_loadunalign_postupdate(r, c_api.vector_load_unalign(), p, areg)  # no inc
    with pytest.raises(AscregTypeError, match="inc must be an integer"):
        c_api.asc_loadunalign_postupdate(r, c_api.vector_load_unalign(), p, areg, 0.5)
    c_api.asc_storeunalign_postupdate(p, us, r, areg)  # at element 3: ends at 67, bytes held
    with pytest.raises(UndefinedBehaviourError, match="stream stopped"):
        c_api.asc_storeunalign_post(p, us, 0)  # not where the addr_reg store ended
    with pytest.raises(AscregTypeError, match="uint8_t/uint16_t/uint32_t"):
        c_api.asc_storeunalign_postupdate(Ref(p.cast(uint64_t)), us, c_api.vector_bool())
    with pytest.raises(AlignmentError, match="8-byte alignment"):
        c_api.asc_storeunalign_postupdate(Ref(p + 1), us, make_mask([1] * 256))

"""LoadAlign and StoreAlign (every dist, post-update, AddrReg, dual, MaskReg, TraitTwo b64).

The reference reads and writes a ``bytearray`` copy of the UB bytes lane by lane (spec §2.4,
§3.1-3.5); the test compares registers and the whole UB region bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    DataCopyMode,
    LoadDist,
    MaskDist,
    PostLiteral,
    Ref,
    Reg,
    StoreDist,
    UnifiedBuffer,
    int64_t,
    uint8_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec import SPECS
from ascreg.errors import AlignmentError, AscregTypeError, IllegalDtypeError, RefRequiredError
from reference.common import MASK_BITS, elements, lane_count, put
from reference.datamove import (
    load_blocks,
    load_dist,
    load_dual,
    load_mask,
    store_blocks,
    store_intlv,
    store_mask,
    store_norm,
    store_pack,
)
from reference.masks import mask_to_lanes
from strategies import (
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    mask_list,
    new_reg,
    reg_bits,
)

REGION = 2048  # bytes of UB each example works in
# Data movement is the same byte shuffling for every dtype of a width, and the grid below is
# large (dist x dtype x form), so each case runs a third of the profile's examples.
FEWER = settings(max_examples=max(5, settings.default.max_examples // 3))
REG_TYPES = [combo[0] for combo in SPECS["Reg.LoadAlign"].combos]

# Restated from the spec (§3.3 / §3.5): element width each dist is defined for (None: any),
# bytes it touches for a register of VL bytes, and the alignment it needs.
LOAD_DISTS: dict[str, tuple[int | None, int, int]] = {
    "DIST_NORM": (None, 256, 32),
    "DIST_BRC_B8": (1, 1, 1),
    "DIST_BRC_B16": (2, 2, 2),
    "DIST_BRC_B32": (4, 4, 4),
    "DIST_US_B8": (1, 128, 32),
    "DIST_US_B16": (2, 128, 32),
    "DIST_DS_B8": (1, 512, 32),
    "DIST_DS_B16": (2, 512, 32),
    "DIST_UNPACK_B8": (1, 128, 32),
    "DIST_UNPACK_B16": (2, 128, 32),
    "DIST_UNPACK_B32": (4, 128, 32),
    "DIST_UNPACK4_B8": (1, 64, 32),
    "DIST_BLK": (None, 32, 32),
    "DIST_E2B_B16": (2, 16, 16),
    "DIST_E2B_B32": (4, 32, 32),
}
DUAL_LOADS = {"DIST_DINTLV_B8": 1, "DIST_DINTLV_B16": 2, "DIST_DINTLV_B32": 4}
REJECTED_LOADS = ["DIST_BDINTLV", "DIST_SPLT4CHN_B8", "DIST_SPLT2CHN_B8", "DIST_SPLT2CHN_B16"]
# StoreDist -> (element width or None, bytes written per lane or None for the whole lane)
STORE_DISTS: dict[str, tuple[int | None, int | None]] = {
    "DIST_NORM": (None, None),
    "DIST_NORM_B8": (1, None),
    "DIST_NORM_B16": (2, None),
    "DIST_NORM_B32": (4, None),
    "DIST_PACK_B16": (2, 1),
    "DIST_PACK_B32": (4, 2),
    "DIST_PACK_B64": (8, 4),
    "DIST_PACK4_B32": (4, 1),
}
FIRST_ELEMENT = {
    "DIST_FIRST_ELEMENT_B8": 1,
    "DIST_FIRST_ELEMENT_B16": 2,
    "DIST_FIRST_ELEMENT_B32": 4,
}
DUAL_STORES = {"DIST_INTLV_B8": 1, "DIST_INTLV_B16": 2, "DIST_INTLV_B32": 4}
REJECTED_STORES = ["DIST_MRG4CHN_B8", "DIST_MRG2CHN_B8", "DIST_MRG2CHN_B16"]


def test_tables_cover_every_enum_member() -> None:
    assert set(LOAD_DISTS) | set(DUAL_LOADS) | set(REJECTED_LOADS) == {d.name for d in LoadDist}
    stores = set(STORE_DISTS) | set(FIRST_ELEMENT) | set(DUAL_STORES) | set(REJECTED_STORES)
    assert stores == {d.name for d in StoreDist}


def _ub(data: bytes) -> tuple[Any, Any]:
    ub = UnifiedBuffer()
    base = ub.alloc(uint8_t, REGION)
    base.write(np.frombuffer(data, dtype=np.uint8))
    return ub, base


def _ub_bytes(base: Any) -> bytes:
    return bytes(base.read(REGION))


def _offsets(align: int, span: int) -> st.SearchStrategy[int]:
    """Byte offsets that are multiples of *align* and leave room for *span* bytes."""
    return st.integers(0, (REGION - span) // align).map(lambda k: k * align)


def _params(pairs: Any) -> list[Any]:
    return [pytest.param(d, t, id=f"{d}-{t.cpp_name}") for d, t in pairs]


SINGLE_LOADS = _params(
    (dist, t) for dist, (w, _, _) in LOAD_DISTS.items() for t in REG_TYPES if w in (None, t.size)
)


@pytest.mark.rows("Reg.LoadAlign")
@pytest.mark.parametrize(("dist", "dtype"), SINGLE_LOADS)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_load_single(dist: str, dtype: Any, data: bytes, st_data: Any) -> None:
    _, span, align = LOAD_DISTS[dist]
    reads = 2 * span if dist.startswith("DIST_DS") else span  # DS reads 2*VL for VL of output
    reads = 512 if dist.startswith("DIST_DS") else reads
    offset = st_data.draw(_offsets(align, max(reads, 256)))
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // dtype.size
    lanes = lane_count(dtype)
    want = load_dist(data, offset, dist, dtype.size, lanes)
    reg = new_reg(dtype)
    Reg.LoadAlign[dtype, LoadDist[dist]](reg, ptr)
    assert reg_bits(reg) == want
    # POST_MODE_UPDATE: same data, then the address moves by the stride (in elements)
    stride = st_data.draw(st.integers(-8, 8)) * max(align // dtype.size, 1)
    box = Ref(ptr)
    reg2 = new_reg(dtype)
    Reg.LoadAlign[dtype, PostLiteral.POST_MODE_UPDATE, LoadDist[dist]](reg2, box, stride)
    assert reg_bits(reg2) == want
    assert box.value == ptr + stride
    # AddrReg: address = src + offset (elements)
    reg3 = new_reg(dtype)
    Reg.LoadAlign[dtype, LoadDist[dist]](
        reg3, base.cast(dtype), Reg.CreateAddrReg[dtype](offset // dtype.size, 1)
    )
    assert reg_bits(reg3) == want


@pytest.mark.parametrize("dtype", [int64_t, uint64_t], ids=lambda t: t.cpp_name)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), k=st.integers(0, (REGION - 512) // 32))
def test_load_trait_two_b64(dtype: Any, data: bytes, k: int) -> None:
    """TraitTwo b64 NORM reads 512 B: 64 elements; reg[0] = low words, reg[1] = high words."""
    _, base = _ub(data)
    reg = new_reg(dtype, True)
    ptr = base.cast(dtype) + 4 * k
    Reg.LoadAlign(reg, ptr)
    want = elements(data, 32 * k, 64, 8)
    assert reg_bits(reg) == want
    assert [int(w) for w in reg.reg[0]] == [v & 0xFFFFFFFF for v in want]
    assert [int(w) for w in reg.reg[1]] == [v >> 32 for v in want]
    box = Ref(ptr)
    Reg.LoadAlign[dtype, PostLiteral.POST_MODE_UPDATE](new_reg(dtype, True), box, 64)
    assert box.value == ptr + 64


DUAL = _params((dist, t) for dist, w in DUAL_LOADS.items() for t in REG_TYPES if t.size == w)


@pytest.mark.parametrize(("dist", "dtype"), DUAL)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_load_dual(dist: str, dtype: Any, data: bytes, st_data: Any) -> None:
    offset = st_data.draw(_offsets(32, 512))
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // dtype.size
    lanes = lane_count(dtype)
    want0, want1 = load_dual(data, offset, dtype.size, lanes)
    forms: list[Any] = [
        lambda r0, r1: Reg.LoadAlign[dtype, LoadDist[dist]](r0, r1, ptr),
        lambda r0, r1: Reg.LoadAlign[dtype, LoadDist[dist]](
            r0, r1, base.cast(dtype), Reg.CreateAddrReg[dtype](offset // dtype.size, 1)
        ),
    ]
    for form in forms:
        r0, r1 = new_reg(dtype), new_reg(dtype)
        form(r0, r1)
        assert reg_bits(r0) == want0
        assert reg_bits(r1) == want1
    box = Ref(ptr)
    r0, r1 = new_reg(dtype), new_reg(dtype)
    Reg.LoadAlign[dtype, PostLiteral.POST_MODE_UPDATE, LoadDist[dist]](r0, r1, box, 2 * lanes)
    assert (reg_bits(r0), reg_bits(r1)) == (want0, want1)
    assert box.value == ptr + 2 * lanes


@pytest.mark.parametrize("dist", ["DIST_NORM", "DIST_US", "DIST_DS"])
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_load_mask(dist: str, data: bytes, st_data: Any) -> None:
    align = 16 if dist == "DIST_US" else 32
    offset = st_data.draw(_offsets(align, 64))
    _, base = _ub(data)
    want = load_mask(data, offset, dist)
    mask = Reg.MaskReg()
    Reg.LoadAlign[uint8_t, MaskDist[dist]](mask, base + offset)
    assert mask_list(mask) == want
    box = Ref(base + offset)
    step = st_data.draw(st.sampled_from([0, 16, 32, 64]))
    Reg.LoadAlign[uint8_t, PostLiteral.POST_MODE_UPDATE, MaskDist[dist]](mask, box, step)
    assert mask_list(mask) == want
    assert box.value == base + offset + step  # MaskReg post-update counts bytes
    addr = Reg.CreateAddrReg[uint8_t](offset, 1)
    Reg.LoadAlign[uint8_t, MaskDist[dist]](mask, base, addr)
    assert mask_list(mask) == want


STORES = _params(
    (dist, t) for dist, (w, _) in STORE_DISTS.items() for t in REG_TYPES if w in (None, t.size)
)


@pytest.mark.rows("Reg.StoreAlign")
@pytest.mark.parametrize(("dist", "dtype"), STORES)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_store(dist: str, dtype: Any, data: bytes, st_data: Any) -> None:
    _, narrow = STORE_DISTS[dist]
    lanes, stride = geometry(dtype, False)
    values = st_data.draw(lane_bits(dtype, lanes))
    mbits = st_data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    offset = st_data.draw(_offsets(32, 256))
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // dtype.size
    want = bytearray(data)
    if narrow is None:
        store_norm(want, offset, values, active, dtype.size)
    else:
        store_pack(want, offset, values, active, narrow)
    Reg.StoreAlign[dtype, StoreDist[dist]](ptr, make_reg(dtype, values), make_mask(mbits))
    assert _ub_bytes(base) == bytes(want)  # masked-off lanes leave UB untouched
    # POST_MODE_UPDATE and AddrReg forms write the same bytes
    step = st_data.draw(st.integers(-4, 4)) * (32 // dtype.size)
    box = Ref(ptr)
    _, base2 = _ub(data)
    box = Ref(base2.cast(dtype) + offset // dtype.size)
    start = box.value
    Reg.StoreAlign[dtype, PostLiteral.POST_MODE_UPDATE, StoreDist[dist]](
        box, make_reg(dtype, values), step, make_mask(mbits)
    )
    assert _ub_bytes(base2) == bytes(want)
    assert box.value == start + step
    _, base3 = _ub(data)
    Reg.StoreAlign[dtype, StoreDist[dist]](
        base3.cast(dtype),
        make_reg(dtype, values),
        Reg.CreateAddrReg[dtype](offset // dtype.size, 1),
        make_mask(mbits),
    )
    assert _ub_bytes(base3) == bytes(want)


FIRST = _params((dist, t) for dist, w in FIRST_ELEMENT.items() for t in REG_TYPES if t.size == w)


@pytest.mark.parametrize(("dist", "dtype"), FIRST)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_store_first_element(dist: str, dtype: Any, data: bytes, st_data: Any) -> None:
    lanes = lane_count(dtype)
    values = st_data.draw(lane_bits(dtype, lanes))
    offset = st_data.draw(_offsets(dtype.size, 256))
    _, base = _ub(data)
    want = bytearray(data)
    put(want, offset, values[0], dtype.size)  # only element 0, whatever the mask says
    off_mask = make_mask([0] * MASK_BITS)
    Reg.StoreAlign[dtype, StoreDist[dist]](
        base.cast(dtype) + offset // dtype.size, make_reg(dtype, values), off_mask
    )
    assert _ub_bytes(base) == bytes(want)


INTLV = _params((dist, t) for dist, w in DUAL_STORES.items() for t in REG_TYPES if t.size == w)


@pytest.mark.parametrize(("dist", "dtype"), INTLV)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_store_interleaved(dist: str, dtype: Any, data: bytes, st_data: Any) -> None:
    lanes = lane_count(dtype)
    a, b = st_data.draw(lane_bits(dtype, lanes)), st_data.draw(lane_bits(dtype, lanes))
    mbits = st_data.draw(mask_bits())  # ignored by INTLV
    offset = st_data.draw(_offsets(32, 512))
    want = bytearray(data)
    store_intlv(want, offset, a, b, dtype.size)
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // dtype.size
    Reg.StoreAlign[dtype, StoreDist[dist]](
        ptr, make_reg(dtype, a), make_reg(dtype, b), make_mask(mbits)
    )
    assert _ub_bytes(base) == bytes(want)
    _, base2 = _ub(data)
    Reg.StoreAlign[dtype, StoreDist[dist]](
        base2.cast(dtype), make_reg(dtype, a), make_reg(dtype, b),
        Reg.CreateAddrReg[dtype](offset // dtype.size, 1), make_mask(mbits),
    )  # fmt: skip
    assert _ub_bytes(base2) == bytes(want)


@pytest.mark.parametrize("dtype", [int64_t, uint64_t], ids=lambda t: t.cpp_name)
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_store_trait_two_b64(dtype: Any, data: bytes, st_data: Any) -> None:
    """TraitTwo b64: 64 lanes, b32-format mask; post-update stores the second half at
    dst + min(stride, 32) and advances by stride (spec §3.5)."""
    lanes, stride_bits = geometry(dtype, True)
    values = st_data.draw(lane_bits(dtype, lanes))
    mbits = st_data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride_bits)
    offset = st_data.draw(_offsets(32, 1024))
    reg = make_reg(dtype, values, True)
    want = bytearray(data)
    store_norm(want, offset, values, active, 8)
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // 8
    Reg.StoreAlign(ptr, reg, make_mask(mbits))
    assert _ub_bytes(base) == bytes(want)
    step = st_data.draw(st.sampled_from([0, 4, 8, 28, 32, 36, 64, 96]))
    want = bytearray(data)
    store_norm(want, offset, values[:32], active[:32], 8)
    store_norm(want, offset + 8 * min(step, 32), values[32:], active[32:], 8)
    _, base2 = _ub(data)
    box = Ref(base2.cast(dtype) + offset // 8)
    start = box.value
    Reg.StoreAlign[dtype, PostLiteral.POST_MODE_UPDATE](box, reg, step, make_mask(mbits))
    assert _ub_bytes(base2) == bytes(want)
    assert box.value == start + step


@pytest.mark.parametrize("dist", ["DIST_NORM", "DIST_PACK"])
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), bits=mask_bits(), st_data=st.data())
def test_store_mask(dist: str, data: bytes, bits: list[int], st_data: Any) -> None:
    align = 16 if dist == "DIST_PACK" else 32
    offset = st_data.draw(_offsets(align, 64))
    want = bytearray(data)
    written = store_mask(want, offset, bits, dist)
    assert written == (16 if dist == "DIST_PACK" else 32)
    _, base = _ub(data)
    Reg.StoreAlign[uint8_t, MaskDist[dist]](base + offset, make_mask(bits))
    assert _ub_bytes(base) == bytes(want)
    _, base2 = _ub(data)
    box = Ref(base2 + offset)
    Reg.StoreAlign[uint8_t, PostLiteral.POST_MODE_UPDATE, MaskDist[dist]](
        box, make_mask(bits), written
    )
    assert _ub_bytes(base2) == bytes(want)
    assert box.value == base2 + offset + written  # bytes
    # round trip through UB
    back = Reg.MaskReg()
    Reg.LoadAlign[uint8_t, MaskDist.DIST_NORM](back, base + (offset - offset % 32))
    if dist == "DIST_NORM":
        assert mask_list(back) == bits


def test_masked_tail_store_past_the_end_is_legal() -> None:
    """Masked-off lanes are never accessed: a tail store may run past its allocation."""
    from ascreg import uint16_t

    ub = UnifiedBuffer()
    dst = ub.alloc(uint16_t, 100)
    reg = make_reg(uint16_t, list(range(128)))
    Reg.StoreAlign(dst, reg, Reg.UpdateMask[uint16_t](Ref(100)))
    assert dst.read(100).tolist() == list(range(100))


def test_template_arguments_of_equal_value_stay_distinct() -> None:
    """IntEnum members of different enums compare equal (PostLiteral.POST_MODE_UPDATE ==
    StoreDist.DIST_NORM_B16 == LoadDist.DIST_BRC_B8 == 1); the subscript cache must not mix them."""
    from ascreg import uint16_t

    store_b16 = Reg.StoreAlign[uint16_t, StoreDist.DIST_NORM_B16]
    store_post = Reg.StoreAlign[uint16_t, PostLiteral.POST_MODE_UPDATE]
    assert store_b16 is not store_post
    assert "POST_MODE_UPDATE" in repr(store_post)
    load_brc = Reg.LoadAlign[uint8_t, LoadDist.DIST_BRC_B8]
    load_post = Reg.LoadAlign[uint8_t, PostLiteral.POST_MODE_UPDATE]
    assert "DIST_BRC_B8" in repr(load_brc) and "POST_MODE_UPDATE" in repr(load_post)
    ub = UnifiedBuffer()
    src = ub.alloc(uint8_t, 512)
    src.write(np.arange(256, dtype=np.uint8))
    box = Ref(src)
    reg = new_reg(uint8_t)
    load_post(reg, box, 256)  # a plain NORM load plus the update, not a broadcast
    assert reg_bits(reg)[:3] == [0, 1, 2] and box.value == src + 256


def test_mask_offsets_post_update_in_bytes_addr_reg_in_elements() -> None:
    # MaskReg post-update strides count bytes; an AddrReg counts elements of its T (issue 25).
    ub = UnifiedBuffer()
    base = ub.alloc(uint32_t, 64)  # 256 bytes
    base.cast(uint8_t).write(np.r_[np.zeros(128), np.full(32, 0xFF), np.zeros(96)].astype(np.uint8))
    mask = Reg.MaskReg()
    Reg.LoadAlign[uint32_t, MaskDist.DIST_NORM](mask, base, Reg.CreateAddrReg[uint32_t](1, 32))
    assert mask.count() == 256  # element 32 = bytes 128..159
    box = Ref(base)
    Reg.StoreAlign[uint32_t, PostLiteral.POST_MODE_UPDATE, MaskDist.DIST_NORM](box, mask, 32)
    assert box.value == base + 8  # 32 bytes
    assert (base.cast(uint8_t).read(32) == 0xFF).all()


BLOCK_TYPES = [t for t in REG_TYPES if t.size in (1, 2, 4)]
BLOCK = DataCopyMode.DATA_BLOCK_COPY
UPDATE, NORMAL = PostLiteral.POST_MODE_UPDATE, PostLiteral.POST_MODE_NORMAL


@pytest.mark.rows("Reg.LoadAlign", "Reg.StoreAlign", "asc_loadalign")
@pytest.mark.parametrize("dtype", BLOCK_TYPES, ids=lambda t: t.cpp_name)
@settings(max_examples=max(3, settings.default.max_examples // 10))
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_data_block_load_and_store(dtype: Any, data: bytes, st_data: Any) -> None:
    """Both DataBlock overloads of each direction against the reference, and the C API twin."""
    from ascreg import c_api

    lanes, stride = geometry(dtype, False)
    bits = st_data.draw(mask_bits())
    active = mask_to_lanes(bits, lanes, stride)
    bs, rs = st_data.draw(st.integers(0, 4)), st_data.draw(st.integers(0, 8))
    offset = st_data.draw(_offsets(32, 7 * 4 * 32 + 32 + 8 * 32))
    _, base = _ub(data)
    ptr = base.cast(dtype) + offset // dtype.size
    step = rs * 32 // dtype.size  # repeatStride counts DataBlocks
    want = load_blocks(data, offset, dtype.size, active, bs)
    want_normal = load_blocks(data, offset + rs * 32, dtype.size, active, bs)
    reg = new_reg(dtype)
    Reg.LoadAlign[dtype, BLOCK](reg, ptr, bs, make_mask(bits))
    assert reg_bits(reg) == want
    box = Ref(ptr)
    Reg.LoadAlign[dtype, BLOCK, UPDATE](reg, box, bs, rs, make_mask(bits))
    assert reg_bits(reg) == want and box.value == ptr + step
    Reg.LoadAlign[dtype, BLOCK, NORMAL](reg, ptr, bs, rs, make_mask(bits))
    assert reg_bits(reg) == want_normal
    if dtype in c_api.VECTOR_TYPES:  # the C form reads through the same core function
        creg = c_api.VECTOR_TYPES[dtype]()
        c_api.asc_loadalign(creg, ptr, bs, rs, make_mask(bits))
        assert reg_bits(creg) == want_normal
    # stores: the same placement, masked-off lanes untouched
    values = st_data.draw(lane_bits(dtype, lanes))
    expect = bytearray(data)
    store_blocks(expect, offset, values, active, dtype.size, bs)
    _, base2 = _ub(data)
    ptr2 = base2.cast(dtype) + offset // dtype.size
    Reg.StoreAlign[dtype, BLOCK](ptr2, make_reg(dtype, values), bs, make_mask(bits))
    assert _ub_bytes(base2) == bytes(expect)
    _, base3 = _ub(data)
    box = Ref(base3.cast(dtype) + offset // dtype.size)
    start = box.value
    Reg.StoreAlign[dtype, BLOCK, UPDATE](box, make_reg(dtype, values), bs, rs, make_mask(bits))
    assert _ub_bytes(base3) == bytes(expect) and box.value == start + step


def test_data_block_misuse() -> None:
    ub = UnifiedBuffer()
    p = ub.alloc(uint32_t, 1024)
    r, m = Reg.RegTensor[uint32_t](), Reg.CreateMask[uint32_t]()
    r.set(0)
    with pytest.raises(AscregTypeError, match="DATA_BLOCK_COPY takes"):
        Reg.LoadAlign[uint32_t, BLOCK](r, p, 1, 2, m)  # repeatStride needs a PostLiteral
    with pytest.raises(RefRequiredError):
        Reg.LoadAlign[uint32_t, BLOCK, UPDATE](r, p, 1, 2, m)
    with pytest.raises(IllegalDtypeError, match="16-bit stride field"):
        Reg.StoreAlign[uint32_t, BLOCK](p, r, 1 << 16, m)
    with pytest.raises(IllegalDtypeError, match="b8/b16/b32"):
        Reg.LoadAlign[uint64_t, BLOCK](Reg.RegTensor[uint64_t](), p.cast(uint64_t), 1, m)
    with pytest.raises(AlignmentError):
        Reg.LoadAlign[uint32_t, BLOCK](r, p + 1, 1, m)

"""addr_reg and hardware loops (asc_update_addr_reg_b*, hw_range) with every load and store."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import Reg, UbPtr, UnifiedBuffer, half, uint8_t, uint16_t, uint32_t
from ascreg.c_api import addr
from ascreg.c_api.datamove import LOADS
from ascreg.errors import AscregError, AscregTypeError


@pytest.mark.parametrize(("width", "unit"), [("b8", 1), ("b16", 2), ("b32", 4)])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_update_addr_reg_sums_index_times_offset_innermost_first(
    width: str, unit: int, depth: int
) -> None:
    update = getattr(C, f"asc_update_addr_reg_{width}")
    offsets = [3, 50, 700, 9000][:depth]
    trips = [2, 3, 2, 2][:depth]
    got = []

    def nest(level: int) -> None:
        if level == depth:
            got.append(update(*offsets))
            return
        for _ in C.hw_range(trips[level]):
            nest(level + 1)

    nest(0)
    # Reference: the outermost loop is the last index (index0 = innermost).
    expected = [
        sum(i * off for i, off in zip(reversed(idx), offsets, strict=True))
        for idx in itertools.product(*(range(t) for t in trips))
    ]
    assert [a.offset for a in got] == expected
    assert {a.width for a in got} == {unit}
    assert all(isinstance(a, Reg.AddrReg) for a in got)  # the Reg API's AddrReg, plus its unit
    assert addr._LOOPS == []


def test_fewer_offsets_than_loops_read_the_innermost_counters() -> None:
    seen = [C.asc_update_addr_reg_b32(10).offset for _ in C.hw_range(3) for _ in C.hw_range(2)]
    assert seen == [0, 10] * 3


@pytest.mark.parametrize("suffix", [s for s in LOADS if not s.endswith("_postupdate")])
def test_every_load_accepts_an_addr_reg_like_the_int_offset(suffix: str) -> None:
    load = LOADS[suffix]
    ub = UnifiedBuffer()
    dtype = uint8_t if suffix.endswith("unpack4") else uint16_t
    src = ub.alloc(dtype, 2048)
    src.write(np.arange(2048) % 251)
    dual = suffix.endswith("deintlv")
    vec = C.vector_of(dtype)
    for i in C.hw_range(3):
        a, b = vec(), vec()
        a2, b2 = vec(), vec()
        area = C.asc_update_addr_reg_b8(32) if dtype is uint8_t else C.asc_update_addr_reg_b16(16)
        load(*((a, b) if dual else (a,)), src, area)
        load(*((a2, b2) if dual else (a2,)), src, i * 32 // dtype.size)
        assert np.array_equal(np.asarray(a), np.asarray(a2))
        if dual:
            assert np.array_equal(np.asarray(b), np.asarray(b2))


def test_stores_accept_an_addr_reg_and_its_unit_is_bytes() -> None:
    ub = UnifiedBuffer()
    dst = ub.alloc(uint32_t, 256)
    r, m = C.vector_uint32_t(), C.asc_create_mask_b32(C.PAT_ALL)
    for i in C.hw_range(4):
        r.set(np.full(64, i + 1))
        C.asc_storealign(dst, r, C.asc_update_addr_reg_b32(64), m)
    assert dst.read(256).reshape(4, 64)[:, 0].tolist() == [1, 2, 3, 4]
    # A b8 addr_reg counts bytes whatever the pointer type: 64 units = 16 uint32_t.
    r.set(np.full(64, 9))
    for _ in C.hw_range(2):
        area = C.asc_update_addr_reg_b8(64)
        C.asc_storealign_1st(dst, r, area)
    assert dst.read(17)[[0, 16]].tolist() == [9, 9]
    a, b = C.vector_uint32_t(), C.vector_uint32_t()
    a.set(5)
    b.set(6)
    for _ in C.hw_range(2):
        C.asc_storealign_intlv(dst, a, b, C.asc_update_addr_reg_b32(128))
    assert dst.read(256)[[0, 1, 128, 129]].tolist() == [5, 6, 5, 6]


def test_mask_loads_and_stores_with_an_addr_reg() -> None:
    ub = UnifiedBuffer()
    buf = ub.alloc(uint32_t, 64)
    masks = [C.asc_create_mask_b8(p) for p in (C.PAT_VL3, C.PAT_M4)]
    for i in C.hw_range(2):
        C.asc_storealign(buf, masks[i], C.asc_update_addr_reg_b32(8))  # 8 x 4 bytes = one mask
    back = C.vector_bool()
    for i in C.hw_range(2):
        C.asc_loadalign(back, buf, C.asc_update_addr_reg_b16(16))
        assert np.array_equal(back.bits(), masks[i].bits())


def test_addr_reg_errors() -> None:
    with pytest.raises(
        AscregError, match=r"asc_update_addr_reg_b16: 1 offset\(s\) read .* 0 are open"
    ):
        C.asc_update_addr_reg_b16(64)
    for _ in C.hw_range(1):
        with pytest.raises(AscregError, match=r"2 offset\(s\) .* but 1 are open"):
            C.asc_update_addr_reg_b8(1, 2)
        with pytest.raises(AscregTypeError, match=r"takes 1 to 4 uint32_t offsets, got 5"):
            C.asc_update_addr_reg_b8(1, 2, 3, 4, 5)
        with pytest.raises(AscregTypeError, match=r"offset0 -1 is not a uint32_t"):
            C.asc_update_addr_reg_b32(-1)
        with pytest.raises(AscregTypeError, match=r"offset0 must be a uint32_t, got 1.5"):
            C.asc_update_addr_reg_b32(1.5)  # type: ignore[arg-type]
    with pytest.raises(AscregTypeError, match=r"hw_range: the trip count must be"):
        C.hw_range(-1)
    with pytest.raises(AscregError, match=r"nests at most 4 deep"):
        for _ in C.hw_range(1):
            for _ in C.hw_range(1):
                for _ in C.hw_range(1):
                    for _ in C.hw_range(1):
                        C.hw_range(1)
    assert addr._LOOPS == []
    for _ in C.hw_range(5):
        break
    assert addr._LOOPS == []
    ub = UnifiedBuffer()
    p = ub.alloc(uint16_t, 256)
    r = C.vector_uint16_t()
    for _ in C.hw_range(1):
        area = C.asc_update_addr_reg_b16(0)
    with pytest.raises(
        AscregTypeError, match=r"_postupdate form takes an int32_t offset, not an addr_reg"
    ):
        C.asc_loadalign_postupdate(r, C.Ref(p), area)
    with pytest.raises(AscregTypeError, match=r"offset must be an addr_reg .* got 3"):
        C.asc_loadunalign_pre(C.vector_load_unalign(), p, 3)


def test_half_addr_reg_docstring_example_runs_in_a_vf() -> None:
    """The asc_update_addr_reg doc sample: copy repeat_time VL-sized chunks through addr_reg."""
    ub = UnifiedBuffer()
    src, dst = ub.alloc(half, 512), ub.alloc(half, 512)
    src.write(np.arange(512))

    @C.__simd_vf__
    def update_addr_reg_vf(
        dst_addr: UbPtr[half], src_addr: UbPtr[half], size: int, times: int
    ) -> None:
        data, mask = C.vector_half(), C.asc_create_mask_b16(C.PAT_ALL)
        for _ in C.hw_range(times):
            offset = C.asc_update_addr_reg_b16(size)
            C.asc_loadalign(data, src_addr, offset)
            C.asc_storealign(dst_addr, data, offset, mask)

    update_addr_reg_vf(dst, src, 128, 4)
    assert np.array_equal(dst.read(512), src.read(512))

"""The unit of an AddrReg offset, on every consumer of both surfaces (issue 25).

``CreateAddrReg<T>(i, s)`` counts elements of ``T`` (the AddrReg page: strides "in elements"),
and so does ``asc_update_addr_reg_b8/_b16/_b32`` in its 1, 2 or 4-byte unit: every consumer
accesses ``base + offset * sizeof(T)`` bytes, the MaskReg forms included (their pages: "the
offset stored in the AddrReg * sizeof(T)"). ascreg used to count the MaskReg forms' offset in
bytes, and the register forms in elements of the *pointer's* type. Each consumer below runs
with AddrRegs of every width against a base pointer of another element type, and is compared
with the scalar references at ``reference.address.addr_reg_bytes`` bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    LoadDist,
    MaskDist,
    Reg,
    StoreDist,
    UnifiedBuffer,
    half,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg._spec import SPECS
from ascreg._spec.shapes import ParamKind
from reference.address import addr_reg_bytes
from reference.common import MASK_BITS, elements, lane_count, put
from reference.datamove import (
    load_dist,
    load_dual,
    load_mask,
    store_intlv,
    store_mask,
    store_norm,
    store_pack,
)
from reference.masks import mask_from_bytes, mask_to_lanes
from reference.unaligned import unaligned_store_visible
from strategies import make_mask, mask_list, new_reg, reg_bits

REGION = 2048
UNIT_TYPES = {1: uint8_t, 2: uint16_t, 4: uint32_t, 8: uint64_t}
REG_WIDTHS = (1, 2, 4, 8)  # CreateAddrReg<T>: b8 .. b64
C_WIDTHS = (1, 2, 4)  # asc_update_addr_reg_b8/_b16/_b32


class Draws(NamedTuple):
    """What one example draws besides the UB bytes: register lanes and mask bits."""

    lanes: bytes  # 512 bytes: two registers' worth
    mask: list[int]

    def reg(self, dtype: Any, second: bool = False) -> Any:
        reg = new_reg(dtype)
        raw = self.lanes[256:] if second else self.lanes[:256]
        reg.set(np.frombuffer(raw, dtype=dtype.np_dtype))
        return reg

    def values(self, dtype: Any, second: bool = False) -> list[int]:
        raw = self.lanes[256:] if second else self.lanes[:256]
        return elements(raw, 0, lane_count(dtype), dtype.size)


class Consumer(NamedTuple):
    """One AddrReg consumer: its row and form, the access it makes, and its reference.

    ``run(base, areg, draws)`` makes the access through the AddrReg form on the uint8_t
    pointer *base* and returns what it observes (register bits, mask bits or the UB bytes);
    ``want(data, offset, draws)`` gives the same from the scalar references at byte *offset*.
    """

    rows: tuple[str, ...]  # the rows whose AddrReg form the access goes through
    tag: str
    align: int  # bytes the access address must be a multiple of
    span: int  # bytes the access touches from the address
    run: Callable[[Any, Any, Draws], Any]
    want: Callable[[bytes, int, Draws], Any]
    surface: str = "reg"


def _ub_bytes(base: Any) -> bytes:
    return bytes(base.read(REGION))


def _store_want(fill: Callable[[bytearray, int, Draws], None]) -> Callable[..., bytes]:
    def want(data: bytes, offset: int, draws: Draws) -> bytes:
        out = bytearray(data)
        fill(out, offset, draws)
        return bytes(out)

    return want


def _active(draws: Draws, dtype: Any) -> list[bool]:
    return mask_to_lanes(draws.mask, lane_count(dtype), dtype.size)


# -- Reg consumers ------------------------------------------------------------------------------

REG_LOAD_DISTS = {  # dist: (pointer type, span, align)
    "DIST_NORM": (half, 256, 32),
    "DIST_BRC_B16": (half, 2, 2),
    "DIST_US_B16": (half, 128, 32),
    "DIST_DS_B16": (half, 512, 32),
    "DIST_UNPACK_B16": (half, 128, 32),
    "DIST_BLK": (uint32_t, 32, 32),
    "DIST_E2B_B32": (uint32_t, 32, 32),
}


def _reg_load(dist: str) -> Consumer:
    dtype, span, align = REG_LOAD_DISTS[dist]

    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        reg = new_reg(dtype)
        Reg.LoadAlign[dtype, LoadDist[dist]](reg, base.cast(dtype), areg)
        return reg_bits(reg)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return load_dist(data, offset, dist, dtype.size, lane_count(dtype))

    return Consumer(("Reg.LoadAlign",), "AddrReg", align, span, run, want)


def _reg_load_dual() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> tuple[list[int], list[int]]:
        r0, r1 = new_reg(uint16_t), new_reg(uint16_t)
        Reg.LoadAlign[uint16_t, LoadDist.DIST_DINTLV_B16](r0, r1, base.cast(uint16_t), areg)
        return reg_bits(r0), reg_bits(r1)

    def want(data: bytes, offset: int, draws: Draws) -> tuple[list[int], list[int]]:
        return load_dual(data, offset, 2, 128)

    return Consumer(("Reg.LoadAlign",), "dual AddrReg", 32, 512, run, want)


MASK_LOADS = {"DIST_NORM": (32, 32), "DIST_US": (16, 16), "DIST_DS": (32, 64)}  # align, span


def _reg_load_mask(dist: str) -> Consumer:
    align, span = MASK_LOADS[dist]

    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        mask = Reg.MaskReg()
        Reg.LoadAlign[uint32_t, MaskDist[dist]](mask, base.cast(uint32_t), areg)
        return mask_list(mask)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return load_mask(data, offset, dist)

    return Consumer(("Reg.LoadAlign",), "MaskReg AddrReg", align, span, run, want)


def _reg_store(dist: str, dtype: Any, narrow: int | None) -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        mask = make_mask(draws.mask)
        Reg.StoreAlign[dtype, StoreDist[dist]](base.cast(dtype), draws.reg(dtype), areg, mask)
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        values, active = draws.values(dtype), _active(draws, dtype)
        if narrow is None:
            store_norm(out, offset, values, active, dtype.size)
        else:
            store_pack(out, offset, values, active, narrow)

    return Consumer(("Reg.StoreAlign",), "AddrReg", 32, 256, run, _store_want(fill))


def _reg_store_dual() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        a, b = draws.reg(uint16_t), draws.reg(uint16_t, second=True)
        Reg.StoreAlign[uint16_t, StoreDist.DIST_INTLV_B16](
            base.cast(uint16_t), a, b, areg, make_mask(draws.mask)
        )
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        a, b = draws.values(uint16_t), draws.values(uint16_t, second=True)
        store_intlv(out, offset, a, b, 2)

    return Consumer(("Reg.StoreAlign",), "dual AddrReg", 32, 512, run, _store_want(fill))


def _reg_store_mask(dist: str) -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        Reg.StoreAlign[uint32_t, MaskDist[dist]](base.cast(uint32_t), make_mask(draws.mask), areg)
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        store_mask(out, offset, draws.mask, dist)

    align = 32 if dist == "DIST_NORM" else 16
    return Consumer(("Reg.StoreAlign",), "MaskReg AddrReg", align, 32, run, _store_want(fill))


def _reg_load_unaligned() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        ureg, reg, src = Reg.UnalignRegForLoad(), new_reg(half), base.cast(half)
        Reg.LoadUnAlignPre(ureg, src, areg)
        Reg.LoadUnAlign(reg, ureg, src, areg, 0)
        return reg_bits(reg)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return elements(data, offset, 128, 2)

    rows = ("Reg.LoadUnAlignPre", "Reg.LoadUnAlign")
    return Consumer(rows, "AddrReg", 2, 256 + 32, run, want)


def _reg_store_unaligned() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        ureg, dst = Reg.UnalignRegForStore(), base.cast(half)
        Reg.StoreUnAlign(dst, draws.reg(half), ureg, areg)
        Reg.StoreUnAlignPost(dst, ureg, areg)
        return _ub_bytes(base)

    def want(data: bytes, offset: int, draws: Draws) -> bytes:
        return unaligned_store_visible(data, offset, draws.lanes[:256], True)

    return Consumer(("Reg.StoreUnAlign", "Reg.StoreUnAlignPost"), "AddrReg", 2, 256, run, want)


# -- C API consumers ----------------------------------------------------------------------------

C_LOADS = {  # function: (pointer type, reference dist, span, align)
    "asc_loadalign": (half, "DIST_NORM", 256, 32),
    "asc_loadalign_brc": (half, "DIST_BRC_B16", 2, 2),
    "asc_loadalign_brc_elem": (uint32_t, "DIST_BRC_B32", 4, 4),
    "asc_loadalign_brc_datablock": (half, "DIST_BLK", 32, 32),
    "asc_loadalign_brc_elem2datablock": (half, "DIST_E2B_B16", 16, 16),
    "asc_loadalign_upsample": (half, "DIST_US_B16", 128, 32),
    "asc_loadalign_downsample": (uint8_t, "DIST_DS_B8", 512, 32),
    "asc_loadalign_unpack": (uint32_t, "DIST_UNPACK_B32", 128, 32),
    "asc_loadalign_unpack4": (uint8_t, "DIST_UNPACK4_B8", 64, 32),
}


def _c_load(name: str) -> Consumer:
    dtype, dist, span, align = C_LOADS[name]

    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        reg = C.vector_of(dtype)()
        getattr(C, name)(reg, base.cast(dtype), areg)
        return reg_bits(reg)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return load_dist(data, offset, dist, dtype.size, lane_count(dtype))

    return Consumer((name,), "addr_reg", align, span, run, want, "c")


def _c_load_dual() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> tuple[list[int], list[int]]:
        a, b = C.vector_uint32_t(), C.vector_uint32_t()
        C.asc_loadalign_deintlv(a, b, base.cast(uint32_t), areg)
        return reg_bits(a), reg_bits(b)

    def want(data: bytes, offset: int, draws: Draws) -> tuple[list[int], list[int]]:
        return load_dual(data, offset, 4, 64)

    return Consumer(("asc_loadalign_deintlv",), "addr_reg", 32, 512, run, want, "c")


def _c_load_bool() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        mask = C.vector_bool()
        C.asc_loadalign(mask, base.cast(uint16_t), areg)
        return mask_list(mask)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return load_mask(data, offset, "DIST_NORM")

    return Consumer(("asc_loadalign",), "addr_reg", 32, 32, run, want, "c")


C_STORES = {  # function: (pointer type, narrow bytes or None, masked)
    "asc_storealign": (half, None, True),
    "asc_storealign_pack": (uint32_t, 2, True),
    "asc_storealign_pack_quarter": (uint32_t, 1, True),
    "asc_storealign_1st": (uint16_t, None, False),
}


def _c_store(name: str) -> Consumer:
    dtype, narrow, masked = C_STORES[name]

    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        reg = C.vector_of(dtype)()
        reg.set(np.frombuffer(draws.lanes[:256], dtype=dtype.np_dtype))
        mask = (make_mask(draws.mask),) if masked else ()
        getattr(C, name)(base.cast(dtype), reg, areg, *mask)
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        values = draws.values(dtype)
        if not masked:  # _1st: element 0 only
            put(out, offset, values[0], dtype.size)
        elif narrow is None:
            store_norm(out, offset, values, _active(draws, dtype), dtype.size)
        else:
            store_pack(out, offset, values, _active(draws, dtype), narrow)

    align = 32 if masked else dtype.size
    return Consumer((name,), "addr_reg", align, 256, run, _store_want(fill), "c")


def _c_store_intlv() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        a, b = C.vector_uint8_t(), C.vector_uint8_t()
        a.set(np.frombuffer(draws.lanes[:256], dtype=np.uint8))
        b.set(np.frombuffer(draws.lanes[256:], dtype=np.uint8))
        C.asc_storealign_intlv(base, a, b, areg)
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        store_intlv(out, offset, draws.values(uint8_t), draws.values(uint8_t, True), 1)

    return Consumer(("asc_storealign_intlv",), "addr_reg", 32, 512, run, _store_want(fill), "c")


def _c_store_bool(name: str) -> Consumer:
    dist = "DIST_NORM" if name == "asc_storealign" else "DIST_PACK"

    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        getattr(C, name)(base.cast(uint32_t), make_mask(draws.mask), areg)
        return _ub_bytes(base)

    def fill(out: bytearray, offset: int, draws: Draws) -> None:
        store_mask(out, offset, draws.mask, dist)

    align = 32 if dist == "DIST_NORM" else 16
    return Consumer((name,), "vector_bool addr_reg", align, 32, run, _store_want(fill), "c")


def _c_load_unaligned() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> list[int]:
        ureg, reg, src = C.vector_load_unalign(), C.vector_int16_t(), base.cast(C.int16_t)
        C.asc_loadunalign_pre(ureg, src, areg)
        C.asc_loadunalign_postupdate(reg, ureg, src, areg, 0)
        return reg_bits(reg)

    def want(data: bytes, offset: int, draws: Draws) -> list[int]:
        return elements(data, offset, 128, 2)

    rows = ("asc_loadunalign_pre", "asc_loadunalign_postupdate")
    return Consumer(rows, "addr_reg", 2, 256 + 32, run, want, "c")


def _c_store_unaligned() -> Consumer:
    def run(base: Any, areg: Any, draws: Draws) -> bytes:
        ureg, reg, dst = C.vector_store_unalign(), C.vector_int16_t(), base.cast(C.int16_t)
        reg.set(np.frombuffer(draws.lanes[:256], dtype=np.int16))
        C.asc_storeunalign_postupdate(dst, ureg, reg, areg)
        C.asc_storeunalign_post(dst, ureg, areg)
        return _ub_bytes(base)

    def want(data: bytes, offset: int, draws: Draws) -> bytes:
        return unaligned_store_visible(data, offset, draws.lanes[:256], True)

    rows = ("asc_storeunalign_postupdate", "asc_storeunalign_post")
    return Consumer(rows, "addr_reg", 2, 256, run, want, "c")


CONSUMERS: dict[str, Consumer] = {
    **{f"Reg.LoadAlign[{d}]": _reg_load(d) for d in REG_LOAD_DISTS},
    "Reg.LoadAlign[DIST_DINTLV_B16]": _reg_load_dual(),
    **{f"Reg.LoadAlign[MaskDist.{d}]": _reg_load_mask(d) for d in MASK_LOADS},
    "Reg.StoreAlign[DIST_NORM_B16]": _reg_store("DIST_NORM_B16", half, None),
    "Reg.StoreAlign[DIST_PACK_B32]": _reg_store("DIST_PACK_B32", uint32_t, 2),
    "Reg.StoreAlign[DIST_INTLV_B16]": _reg_store_dual(),
    **{f"Reg.StoreAlign[MaskDist.{d}]": _reg_store_mask(d) for d in ("DIST_NORM", "DIST_PACK")},
    "Reg.LoadUnAlignPre+LoadUnAlign": _reg_load_unaligned(),
    "Reg.StoreUnAlign+StoreUnAlignPost": _reg_store_unaligned(),
    **{name: _c_load(name) for name in C_LOADS},
    "asc_loadalign_deintlv": _c_load_dual(),
    "asc_loadalign(vector_bool)": _c_load_bool(),
    **{name: _c_store(name) for name in C_STORES},
    "asc_storealign_intlv": _c_store_intlv(),
    **{f"{n}(vector_bool)": _c_store_bool(n) for n in ("asc_storealign", "asc_storealign_pack")},
    "asc_loadunalign_pre+postupdate": _c_load_unaligned(),
    "asc_storeunalign_postupdate+post": _c_store_unaligned(),
}
"""Every AddrReg consumer form (a row's form with an AddrReg / addr_reg parameter)."""


def _addr_reg_forms() -> set[tuple[str, str]]:
    """Every (row, form tag) whose parameters include an AddrReg or addr_reg."""
    found = set()
    for key, row in SPECS.items():
        for form in getattr(row.shape, "forms", ()):
            if any(p.kind in (ParamKind.ADDR, ParamKind.AREG) for p in form.params):
                found.add((key, form.tag))
    return found


def test_every_addr_reg_consumer_has_a_unit_test() -> None:
    """A new AddrReg form in the rows fails here until it has an entry in CONSUMERS."""
    tested = {(row, c.tag) for c in CONSUMERS.values() for row in c.rows}
    assert _addr_reg_forms() == tested


def _reg_addr_reg(width: int, units: int) -> Any:
    """``CreateAddrReg<T>(1, units)`` with ``sizeof(T) == width`` (index 1 of a loop)."""
    return Reg.CreateAddrReg[UNIT_TYPES[width]](1, units)


def _c_addr_reg(width: int, units: int) -> Any:
    """``asc_update_addr_reg_b<8*width>(units)`` at iteration 1 of a hardware loop."""
    update = getattr(C, f"asc_update_addr_reg_b{8 * width}")
    for _ in C.hw_range(2):
        areg = update(units)
    return areg


@pytest.mark.rows(*sorted({row for c in CONSUMERS.values() for row in c.rows}))
@pytest.mark.parametrize("name", list(CONSUMERS))
@settings(max_examples=max(4, settings.default.max_examples // 6))
@given(
    data=st.binary(min_size=REGION, max_size=REGION),
    lanes=st.binary(min_size=512, max_size=512),
    mask=st.binary(min_size=MASK_BITS // 8, max_size=MASK_BITS // 8),
    st_data=st.data(),
)
def test_addr_reg_offset_counts_elements_of_its_type(
    name: str, data: bytes, lanes: bytes, mask: bytes, st_data: Any
) -> None:
    """The access lands at ``base + offset * sizeof(T)`` bytes, for every AddrReg width."""
    consumer = CONSUMERS[name]
    widths = REG_WIDTHS if consumer.surface == "reg" else C_WIDTHS
    width = st_data.draw(st.sampled_from(widths), label="width")
    step = math.lcm(consumer.align, width)
    units = st_data.draw(st.integers(1, (REGION - consumer.span - 64) // step)) * step // width
    offset = addr_reg_bytes([(1, units)], width)
    make = _reg_addr_reg if consumer.surface == "reg" else _c_addr_reg
    areg = make(width, units)
    base = UnifiedBuffer().alloc(uint8_t, REGION)
    base.write(np.frombuffer(data, dtype=np.uint8))
    draws = Draws(lanes, mask_from_bytes(mask))
    assert consumer.run(base, areg, draws) == consumer.want(data, offset, draws)


def test_the_issue_example_stores_a_mask_at_byte_128() -> None:
    """``CreateAddrReg<uint32_t>(1, 32)`` on a MaskReg StoreAlign: element 32, byte 128."""
    base = UnifiedBuffer().alloc(uint32_t, 64)
    base.write(np.zeros(64, dtype=np.uint32))
    mask = Reg.CreateMask[uint8_t]()
    Reg.StoreAlign[uint32_t, MaskDist.DIST_NORM](base, mask, Reg.CreateAddrReg[uint32_t](1, 32))
    assert base.cast(uint8_t).read(256).nonzero()[0].tolist() == list(range(128, 160))
    back = Reg.MaskReg()
    Reg.LoadAlign[uint32_t, MaskDist.DIST_NORM](back, base, Reg.CreateAddrReg[uint32_t](1, 32))
    assert back.count() == 256


def test_one_register_on_both_surfaces() -> None:
    """A Reg AddrReg and a C addr_reg are the same ``vector_address``: each works on the other."""
    src = UnifiedBuffer().alloc(uint32_t, 192)
    src.write(np.arange(192))
    c_reg = C.vector_uint32_t()
    C.asc_loadalign(c_reg, src, Reg.CreateAddrReg[uint64_t](1, 32))  # 32 b64 = 64 uint32_t
    assert int(np.asarray(c_reg)[0]) == 64
    r = Reg.RegTensor[uint32_t]()
    for _ in C.hw_range(2):
        areg = C.asc_update_addr_reg_b16(64)  # 64 b16 units = 32 uint32_t
    Reg.LoadAlign(r, src, areg)
    assert int(np.asarray(r)[0]) == 32


def test_create_addr_reg_needs_its_type() -> None:
    from ascreg.errors import AscregTypeError

    with pytest.raises(AscregTypeError, match=r"Reg.CreateAddrReg: needs its template argument T"):
        Reg.CreateAddrReg(1, 32)

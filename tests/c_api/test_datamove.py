"""The asc_loadalign* and asc_storealign* families against the scalar reference (spec §3.1-3.5).

Each C function is one dist of the Reg LoadAlign / StoreAlign (the C API pages name it), so the
same per-dist reference (``reference.datamove``) is the expectation; the tables below restate
which dist each suffix is. Every legal dtype of every row runs, the ``_postupdate`` twins too.
UB is compared bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import Ref, UnifiedBuffer, bool_, uint8_t
from ascreg._spec import C_API_NAMES, SPECS
from reference.common import MASK_BITS, lane_count, mask_stride, put
from reference.datamove import (
    load_dist,
    load_dual,
    load_mask,
    store_intlv,
    store_mask,
    store_norm,
    store_pack,
)
from reference.masks import mask_to_lanes
from strategies import lane_bits, make_mask, mask_bits, mask_list, reg_bits

REGION = 2048
FEWER = settings(max_examples=max(4, settings.default.max_examples // 5))

# asc_loadalign<suffix>: the vector dist ({bits}: element width) and the vector_bool dist
LOAD_DIST: dict[str, tuple[str | None, str | None]] = {
    "": ("DIST_NORM", "DIST_NORM"),
    "_brc": ("DIST_BRC_B{bits}", None),
    "_brc_elem": ("DIST_BRC_B{bits}", None),
    "_brc_datablock": ("DIST_BLK", None),
    "_brc_elem2datablock": ("DIST_E2B_B{bits}", None),
    "_upsample": ("DIST_US_B{bits}", "DIST_US"),
    "_downsample": ("DIST_DS_B{bits}", "DIST_DS"),
    "_unpack": ("DIST_UNPACK_B{bits}", None),
    "_unpack4": ("DIST_UNPACK4_B8", None),
    "_deintlv": (None, None),  # dual: even elements to dst0, odd to dst1
}
# asc_storealign<suffix>: bytes each enabled lane writes (the element width divided by this);
# "1st" writes element 0 only, "intlv" interleaves two registers; vector_bool: NORM or PACK
STORE_KIND = {"": 1, "_1st": "1st", "_pack": 2, "_pack_quarter": 4, "_intlv": "intlv"}
MASK_STORE = {"": "DIST_NORM", "_pack": "DIST_PACK"}


def _rows(prefix: str) -> list[Any]:
    """(row name, dtype) params for every legal dtype of every row of one family."""
    return [
        pytest.param(name, dtype, id=f"{name}-{dtype.cpp_name}")
        for name in sorted(C_API_NAMES)
        if name.startswith(prefix)
        for (dtype,) in SPECS[name].combos
    ]


def _suffix(name: str, prefix: str) -> tuple[str, bool]:
    rest = name.removeprefix(prefix)
    post = rest.endswith("_postupdate")
    return rest.removesuffix("_postupdate"), post


def _ub(data: bytes) -> Any:
    base = UnifiedBuffer().alloc(uint8_t, REGION)
    base.write(np.frombuffer(data, dtype=np.uint8))
    return base


def _vector(dtype: Any, bits: list[int] | None = None) -> Any:
    reg = C.vector_of(dtype)()
    if bits is not None:
        reg.set(np.array(bits, dtype=f"<u{dtype.size}").view(dtype.np_dtype))
    return reg


@pytest.mark.rows(*sorted(n for n in C_API_NAMES if n.startswith("asc_loadalign")))
@pytest.mark.parametrize(("name", "dtype"), _rows("asc_loadalign"))
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_loads(name: str, dtype: Any, data: bytes, st_data: Any) -> None:
    suffix, post = _suffix(name, "asc_loadalign")
    func = getattr(C, name)
    offset = 32 * st_data.draw(st.integers(0, (REGION - 512) // 32))
    base = _ub(data)
    vector_dist, mask_dist = LOAD_DIST[suffix]
    if dtype is bool_:
        assert mask_dist is not None
        mask, ptr = C.vector_bool(), base + offset
        func(mask, Ref(ptr), 32) if post else func(mask, ptr)
        assert mask_list(mask) == load_mask(data, offset, mask_dist)
        return
    ptr = base.cast(dtype) + offset // dtype.size
    lanes = lane_count(dtype)
    if vector_dist is None:
        regs = [_vector(dtype), _vector(dtype)]
        want = list(load_dual(data, offset, dtype.size, lanes))
    else:
        regs = [_vector(dtype)]
        dist = vector_dist.format(bits=8 * dtype.size)
        want = [load_dist(data, offset, dist, dtype.size, lanes)]
    box = Ref(ptr)
    func(*regs, box, lanes) if post else func(*regs, ptr)
    assert [reg_bits(r) for r in regs] == want
    assert box.value == (ptr + lanes if post else ptr)


@pytest.mark.rows(*sorted(n for n in C_API_NAMES if n.startswith("asc_storealign")))
@pytest.mark.parametrize(("name", "dtype"), _rows("asc_storealign"))
@FEWER
@given(data=st.binary(min_size=REGION, max_size=REGION), st_data=st.data())
def test_stores(name: str, dtype: Any, data: bytes, st_data: Any) -> None:
    suffix, post = _suffix(name, "asc_storealign")
    func = getattr(C, name)
    offset = 32 * st_data.draw(st.integers(0, (REGION - 512) // 32))
    base = _ub(data)
    want = bytearray(data)
    mbits = st_data.draw(mask_bits())
    if dtype is bool_:
        written = store_mask(want, offset, mbits, MASK_STORE[suffix])
        box = Ref(base + offset)
        func(box, make_mask(mbits), written) if post else func(base + offset, make_mask(mbits))
        assert bytes(base.read(REGION)) == bytes(want)
        return
    lanes = lane_count(dtype)
    values = st_data.draw(lane_bits(dtype, lanes))
    active = mask_to_lanes(mbits, lanes, mask_stride(dtype))
    kind = STORE_KIND[suffix]
    args: list[Any] = [_vector(dtype, values)]
    if kind == "1st":
        put(want, offset, values[0], dtype.size)  # element 0 only, no mask
    elif kind == "intlv":
        other = st_data.draw(lane_bits(dtype, lanes))
        store_intlv(want, offset, values, other, dtype.size)
        args.append(_vector(dtype, other))
    else:
        assert isinstance(kind, int)
        store_pack(want, offset, values, active, dtype.size // kind)
    ptr = base.cast(dtype) + offset // dtype.size
    step = lanes
    mask = [make_mask(mbits)] if kind not in ("1st", "intlv") else []
    box = Ref(ptr)
    func(box, *args, step, *mask) if post else func(ptr, *args, *mask)
    assert bytes(base.read(REGION)) == bytes(want)
    assert box.value == (ptr + step if post else ptr)


def test_store_references_agree_on_full_width() -> None:
    """``store_pack`` with the full width is ``store_norm`` (the NORM store above uses it)."""
    values, active = list(range(64)), [i % 3 != 0 for i in range(64)]
    a, b = bytearray(512), bytearray(512)
    store_norm(a, 32, values, active, 4)
    store_pack(b, 32, values, active, 4)
    assert a == b and MASK_BITS == 256

"""addr_reg and hardware loops, mask-from-vector copies, the mask SPR, mutexes, barriers and the
end-of-kernel sync check."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, UnifiedBuffer, half, uint8_t, uint16_t, uint32_t
from ascreg.c_api import addr
from ascreg.c_api.datamove import LOADS
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, SyncError
from ascreg.machine.kernel import BlockContext, block


def run(body: Any, *args: Any, blocks: int = 1) -> None:
    C.__global__(C.__vector__(body))[blocks, 0, None](*args)


# -- addr_reg ----------------------------------------------------------------------------------


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
    with pytest.raises(AscregTypeError, match=r"Reg.CreateAddrReg register without a unit"):
        C.asc_loadalign(r, p, Reg.CreateAddrReg[uint16_t](0, 1))


# -- asc_copy(vector_bool&, vector_u16/u32, part), asc_get_mask_spr -----------------------------


def _reference_part_mask(lanes: np.ndarray[Any, Any], part: int, size: int) -> list[bool]:
    """Per-bit reference from the doc: block *part* of 32 / size bytes, each bit repeated size times."""
    block_bytes = 32 // size
    raw = lanes.astype(lanes.dtype.newbyteorder("<")).tobytes()[part * block_bytes :][:block_bytes]
    bits = [(raw[k // 8] >> (k % 8)) & 1 == 1 for k in range(8 * block_bytes)]
    return [bit for bit in bits for _ in range(size)]


@pytest.mark.parametrize(("dtype", "parts"), [(uint16_t, 16), (uint32_t, 32)])
def test_copy_mask_from_every_block_of_a_vector(dtype: Any, parts: int) -> None:
    rng = np.random.default_rng(7)
    src = C.vector_of(dtype)()
    src.set(rng.integers(0, 1 << (8 * dtype.size), src.lanes, dtype=np.uint64))
    dst = C.vector_bool()
    for part in range(parts):
        C.asc_copy(dst, src, part)
        assert dst.bits().tolist() == _reference_part_mask(np.asarray(src), part, dtype.size)


def test_copy_mask_from_vector_errors() -> None:
    dst = C.vector_bool()
    s16, s32 = C.vector_uint16_t(), C.vector_uint32_t()
    s16.set(1)
    s32.set(1)
    bad = C.vector_int16_t()
    bad.set(1)
    with pytest.raises(IllegalDtypeError, match=r"asc_copy: .*not vector_int16_t"):
        C.asc_copy(dst, bad, 0)
    with pytest.raises(AscregTypeError, match=r"part 16 is outside \[0, 15\]"):
        C.asc_copy(dst, s16, 16)
    with pytest.raises(AscregTypeError, match=r"part 32 is outside \[0, 31\]"):
        C.asc_copy(dst, s32, 32)
    with pytest.raises(AscregTypeError, match=r"part must be an int16_t"):
        C.asc_copy(dst, s32, True)
    with pytest.raises(AscregTypeError, match=r"takes a part: \(dst, src, part\)"):
        C.asc_copy(dst, s32)  # type: ignore[call-overload]
    with pytest.raises(AscregTypeError, match=r"takes \(dst, src, mask \| part\), got 4"):
        C.asc_copy(dst, s32, 0, 0)  # type: ignore[call-overload]


@pytest.mark.parametrize("width", ["b16", "b32"])
def test_mask_spr_is_all_ones_after_asc_init_and_unset_before(width: str) -> None:
    get = getattr(C, f"asc_get_mask_spr_{width}")
    with block(BlockContext()):
        with pytest.raises(
            AscregError, match=rf"asc_get_mask_spr_{width}: the mask SPR is read before asc_init"
        ):
            get()
        C.asc_init()
        assert get().bits().all()
    with pytest.raises(AscregError, match="no kernel is running"):
        get()


# -- mutexes, barriers, _sync copies -------------------------------------------------------------


def _locked_add(lock: bool, mode: Any = C.ASC_LOCK_BLOCK) -> tuple[GmPtr[Any], GmPtr[Any]]:
    """The c_api_simd_add example's shape: MTE2 / V / MTE3 each under mutex 1."""
    gm = GlobalMemory()
    x, z = gm.alloc(uint32_t, 64), gm.alloc(uint32_t, 64)
    x.write(np.arange(64))

    @C.__simd_vf__
    def vf(src: UbPtr[uint32_t], dst: UbPtr[uint32_t]) -> None:
        r, m = C.vector_uint32_t(), C.asc_create_mask_b32(C.PAT_ALL)
        C.asc_loadalign(r, src)
        C.asc_storealign(dst, r, m)

    def body(x: GmPtr[uint32_t], z: GmPtr[uint32_t]) -> None:
        xl, zl = C.__ubuf__(uint32_t, 64), C.__ubuf__(uint32_t, 64)
        for pipe, work in (
            (C.PIPE_MTE2, lambda: C.asc_copy_gm2ub_align(xl, x, 256)),
            (C.PIPE_V, lambda: vf(xl, zl)),
            (C.PIPE_MTE3, lambda: C.asc_copy_ub2gm_align(z, zl, 256)),
        ):
            if lock:
                C.asc_lock(pipe, 1, mode)
            work()
            if lock:
                C.asc_unlock(pipe, 1, mode)

    run(body, x, z)
    return x, z


def test_lock_unlock_pairs_order_the_pipes() -> None:
    _, z = _locked_add(lock=True)
    assert z.read(64).tolist() == list(range(64))
    with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        _locked_add(lock=False)
    with pytest.raises(SyncError, match=r"PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        _locked_add(lock=True, mode=C.ASC_LOCK_NON_BLOCK)  # a non-blocking lock orders nothing


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        ([("lock", 1), ("lock", 1)], r"asc_lock: .* still locked .* must not nest"),
        ([("unlock", 2)], r"asc_unlock: .* without an earlier asc_lock of mutex 2"),
        ([("lock", 32)], r"asc_lock: mutex id 32 is outside \[0, 31\]"),
        ([("lock", -1)], r"mutex id -1 is outside"),
        ([("lock", 3)], r"block 0 ended holding asc_lock\(PIPE_MTE2, 3\) with no asc_unlock"),
    ],
)
def test_lock_misuse(calls: list[tuple[str, int]], message: str) -> None:
    def body() -> None:
        for kind, mutex in calls:
            getattr(C, f"asc_{kind}")(C.PIPE_MTE2, mutex)

    with pytest.raises(SyncError, match=message):
        run(body)


def test_lock_mode_and_pipe_checks() -> None:
    with block(BlockContext()):
        C.asc_lock(C.PIPE_V, 0)
        with pytest.raises(SyncError, match="another mode than its asc_lock"):
            C.asc_unlock(C.PIPE_V, 0, C.ASC_LOCK_NON_BLOCK)
        with pytest.raises(AscregTypeError, match="is not ASC_LOCK_BLOCK or ASC_LOCK_NON_BLOCK"):
            C.asc_unlock(C.PIPE_V, 0, 0)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="is not a single pipe"):
            C.asc_lock(C.PIPE_ALL, 4)


@pytest.mark.parametrize(
    "name",
    [
        "asc_copy_gm2ub_sync",
        "asc_copy_gm2ub_align_sync",
        "asc_copy_ub2gm_sync",
        "asc_copy_ub2gm_align_sync",
    ],
)
def test_sync_copies_end_with_a_full_barrier(name: str) -> None:
    gm = GlobalMemory()
    g = gm.alloc(uint32_t, 64)
    g.write(np.arange(64))
    copy = getattr(C, name)
    assert copy.__name__ == name

    def body(g: GmPtr[uint32_t]) -> None:
        u = C.__ubuf__(uint32_t, 64)
        if "gm2ub" in name:
            copy(u, g, 256)
            u.write(u.read(64) + 1)  # scalar after MTE2: ordered by the barrier
            C.asc_sync()
            C.asc_copy_ub2gm_align(g, u, 256)
        else:
            u.write(np.arange(64, dtype=np.uint32) * 2)
            C.asc_sync()
            copy(g, u, 256)
            u.write(np.zeros(64, np.uint32))  # overwrite after MTE3: ordered by the barrier

    run(body, g)
    assert g.read(2).tolist() == ([1, 2] if "gm2ub" in name else [0, 2])
    with block(BlockContext()), pytest.raises(TypeError):
        copy(C.__ubuf__(uint32_t, 8), g, 1, 32, 0, 0)  # no burst form


def test_data_barrier_mem_bar_and_sync_pipe_arguments() -> None:
    with block(BlockContext()):
        for arg in (C.mem_dsb_t.DSB_ALL, C.mem_dsb_t.DSB_DDR, C.mem_dsb_t.DSB_UB):
            C.asc_sync_data_barrier(arg)
        with pytest.raises(AscregTypeError, match="DSB_SEQ is reserved"):
            C.asc_sync_data_barrier(C.mem_dsb_t.DSB_SEQ)
        with pytest.raises(AscregTypeError, match="is not a mem_dsb_t"):
            C.asc_sync_data_barrier(2)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="asc_sync_pipe: 7 is not a pipe_t"):
            C.asc_sync_pipe(7)  # type: ignore[arg-type]
        with pytest.raises(SyncError, match="asc_mem_bar orders UB streams inside a __simd_vf__"):
            C.asc_mem_bar(C.VST_VLD)

    names = [m.name for m in C.MEM_TYPE]
    assert all(getattr(C, n) is C.MEM_TYPE[n] for n in names) and len(names) == 16

    @C.__simd_vf__
    def vf() -> None:
        for kind in C.MEM_TYPE:
            C.asc_mem_bar(kind)
        with pytest.raises(AscregTypeError, match="is not a MEM_TYPE"):
            C.asc_mem_bar("VST_VLD")  # type: ignore[arg-type]

    run(lambda: C.asc_vf_call[vf]())


# -- the end-of-kernel check -----------------------------------------------------------------------


def test_a_notify_without_wait_fails_the_launch_naming_the_flag() -> None:
    def body() -> None:
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID2)

    with pytest.raises(
        SyncError,
        match=r"body<<<2, 0, None>>>: block 0 ended with flags set but never waited for: "
        r"\(PIPE_MTE2 -> PIPE_V, EVENT_ID2\) x1; on the chip a leftover flag",
    ):
        run(body, blocks=2)


def test_pre_set_flags_balanced_after_the_loop_pass() -> None:
    """The floor_mod example's pattern: notify before the loop, wait after it."""

    def body() -> None:
        for event in (C.EVENT_ID0, C.EVENT_ID1):
            C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE2, event)
        for tile in range(4):
            C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE2, tile % 2)
            C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE2, tile % 2)
        for event in (C.EVENT_ID0, C.EVENT_ID1):
            C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE2, event)

    run(body)


def test_an_error_inside_the_kernel_is_not_replaced_by_the_end_check() -> None:
    def body() -> None:
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        raise ValueError("user bug")

    with pytest.raises(ValueError, match="user bug"):
        run(body)


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

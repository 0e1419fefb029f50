"""The cube core's moves into a vector core's UB in a ``__mix__`` launch (ascreg.machine.cubeub).

``DataCopyL1ToUB`` / ``asc_copy_l12ub`` (L1 -> UB) and ``Fixpipe`` to UB / ``asc_copy_l0c2ub``
(L0C -> UB) on the AIC write the UB of the AIV their sub-block names, at the address the AIC
passes. Each kernel here has the AIC move data, set a cross-core flag, and the AIVs wait,
post-process with a vector op and copy to GM; the goldens are numpy. The race check reports an
AIV read with no flag ordering it after the AIC's write, and the bytes the AIC wrote survive an
AIV allocation over them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812
from ascreg import UB_BYTES, GlobalMemory, GmPtr, float32_t, half, int32_t
from ascreg.basic import (
    ASCEND_IS_AIC,
    ASCEND_IS_AIV,
    EVENT_ID0,
    PIPE_FIX,
    PIPE_MTE1,
    PIPE_V,
    CO2Layout,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DataCopy,
    DataCopyL1ToUB,
    DataCopyParams,
    Fixpipe,
    FixpipeConfig,
    FixpipeParamsArch3510,
    GetSubBlockIdx,
    GlobalTensor,
    HardEvent,
    LocalTensor,
    Muls,
    Nd2NzParams,
    SetFlag,
    TPosition,
    WaitFlag,
    __mix__,
)
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    SyncError,
    UninitializedMemoryError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.cube import __cube__, cube_buffers
from ascreg.machine.kernel import __global__

TILE = 256
"""Halves each AIV gets (512 bytes, 16 rows of 16)."""


def _tensors(x: GmPtr[Any], y: GmPtr[Any], dtype: Any = half) -> tuple[Any, Any]:
    xg, yg = GlobalTensor[dtype](), GlobalTensor[dtype]()
    xg.SetGlobalBuffer(x)
    yg.SetGlobalBuffer(y)
    return xg, yg


def _aiv_scale_out(ub: Any, yg: Any, wait: bool = True, count: int = TILE) -> None:
    """The AIV side: wait for flag 3, ``Muls`` by 2 into another buffer, copy to y[sub]."""
    if wait:
        CrossCoreWaitFlag(3)
    out = LocalTensor[ub.GetPhyAddr().dtype](TPosition.VECOUT, 64 * 1024, count)
    Muls(out, ub, 2, count)
    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
    DataCopy(yg[GetSubBlockIdx() * count], out, count)


def l1_kernel(subs: tuple[int, int], wait: bool = True) -> Any:
    """AIC: x (2 tiles) -> A1 -> tile i to AIV ``subs[i]``'s UB; flag 3. AIVs: y = 2 * tile."""

    @__global__
    @__mix__(1, 2)
    def kernel(x: GmPtr[half], y: GmPtr[half]) -> None:
        xg, yg = _tensors(x, y)
        ub = LocalTensor[half](TPosition.VECIN, 0, TILE)
        if ASCEND_IS_AIC:
            a1 = LocalTensor[half](TPosition.A1, 0, 2 * TILE)
            rows = 2 * TILE // 16  # one 16-column block: NZ is ND
            DataCopy(a1, xg, Nd2NzParams(1, rows, 16, 0, 16, rows, 1, 0))
            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            DataCopyL1ToUB[half, subs[0]](ub, a1, TILE)
            DataCopyL1ToUB[half, subs[1]](ub, a1[TILE], DataCopyParams(1, TILE * 2 // 32, 0, 0))
            CrossCoreSetFlag[2, PIPE_MTE1](3)
        if ASCEND_IS_AIV:
            _aiv_scale_out(ub, yg, wait)

    return kernel


def run_l1(subs: tuple[int, int], x: np.ndarray, wait: bool = True) -> np.ndarray:
    gm = GlobalMemory()
    xs, ys = gm.alloc(half, 2 * TILE), gm.alloc(half, 2 * TILE)
    xs.write(x)
    l1_kernel(subs, wait)[1, 0, None](xs, ys)
    return np.asarray(ys.read(2 * TILE))


@settings(max_examples=8, derandomize=True, deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=2 * TILE, max_size=2 * TILE))
def test_l1_to_ub_feeds_each_aiv_its_tile(values: list[int]) -> None:
    x = np.asarray(values, np.float16)
    np.testing.assert_array_equal(run_l1((0, 1), x), (x * np.float16(2)).astype(np.float16))


def test_the_sub_block_picks_the_aiv() -> None:
    x = np.arange(2 * TILE, dtype=np.float16)
    swapped = run_l1((1, 0), x)  # tile 0 to AIV 1, tile 1 to AIV 0
    np.testing.assert_array_equal(swapped[:TILE], x[TILE:] * 2)
    np.testing.assert_array_equal(swapped[TILE:], x[:TILE] * 2)


def test_a_read_with_no_wait_after_the_move_is_a_race() -> None:
    x = np.arange(2 * TILE, dtype=np.float16)
    with pytest.raises(SyncError, match=r"AIV 0 reads the UB of AIV 0 byte 0x0, which AIC 0 "
                       r"wrote with no CrossCoreSetFlag / CrossCoreWaitFlag"):  # fmt: skip
        run_l1((0, 1), x, wait=False)


@pytest.mark.parametrize("reader", ["scalar", "copy out"])
def test_every_kind_of_read_is_checked(reader: str) -> None:
    """A scalar read and an MTE3 copy to GM of the AIC's bytes with no wait are races too."""

    @__global__
    @__mix__(1, 2)
    def kernel(x: GmPtr[half], y: GmPtr[half]) -> None:
        xg, yg = _tensors(x, y)
        ub = LocalTensor[half](TPosition.VECIN, 0, TILE)
        if ASCEND_IS_AIC:
            a1 = LocalTensor[half](TPosition.A1, 0, TILE)
            DataCopy(a1, xg, Nd2NzParams(1, TILE // 16, 16, 0, 16, TILE // 16, 1, 0))
            SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
            DataCopyL1ToUB[half, 1](ub, a1, TILE)
        if ASCEND_IS_AIV and GetSubBlockIdx() == 1:
            if reader == "scalar":
                ub.GetValue(3)
            else:
                DataCopy(yg, ub, TILE)

    gm = GlobalMemory()
    xs, ys = gm.alloc(half, TILE), gm.alloc(half, TILE)
    xs.write(np.arange(TILE, dtype=np.float16))
    byte = "0x6" if reader == "scalar" else "0x0"
    with pytest.raises(SyncError, match=f"AIV 1 reads the UB of AIV 1 byte {byte}, which AIC 0"):
        kernel[1, 0, None](xs, ys)


def test_an_aic_overwriting_what_an_aiv_read_needs_its_flag() -> None:
    """The second move must wait until the AIV has read the first (a flag back, mode 2)."""

    def make(back: bool) -> Any:
        @__global__
        @__mix__(1, 2)
        def kernel(x: GmPtr[half], y: GmPtr[half]) -> None:
            xg, yg = _tensors(x, y)
            ub = LocalTensor[half](TPosition.VECIN, 0, TILE)
            if ASCEND_IS_AIC:
                a1 = LocalTensor[half](TPosition.A1, 0, TILE)
                DataCopy(a1, xg, Nd2NzParams(1, TILE // 16, 16, 0, 16, TILE // 16, 1, 0))
                SetFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
                WaitFlag[HardEvent.MTE2_MTE1](EVENT_ID0)
                DataCopyL1ToUB[half, 0](ub, a1, TILE)
                CrossCoreSetFlag[2, PIPE_MTE1](3)
                CrossCoreWaitFlag(4)  # both AIVs have set 4
                if back:
                    CrossCoreWaitFlag(5)  # AIV 0 has read its tile
                DataCopyL1ToUB[half, 0](ub, a1, TILE)
            if ASCEND_IS_AIV:
                CrossCoreSetFlag[2, PIPE_MTE1](4)  # (before reading: orders nothing)
                CrossCoreWaitFlag(3)
                if GetSubBlockIdx() == 0:
                    _aiv_scale_out(ub, yg, wait=False)
                if back:
                    CrossCoreSetFlag[2, PIPE_MTE1](5)

        return kernel

    gm = GlobalMemory()
    xs, ys = gm.alloc(half, TILE), gm.alloc(half, 2 * TILE)
    xs.write(np.arange(TILE, dtype=np.float16))
    make(True)[1, 0, None](xs, ys)
    np.testing.assert_array_equal(ys.read(TILE), np.arange(TILE, dtype=np.float16) * 2)
    with pytest.raises(SyncError, match=r"AIC 0 writes the UB of AIV 0 byte 0x0, which AIV 0 "
                       "read"):  # fmt: skip
        make(False)[1, 0, None](xs, ys)


def test_an_aiv_allocation_keeps_what_the_aic_wrote_and_unwritten_bytes_stay_undefined() -> None:
    """The AIV allocates its tile with ``__ubuf__`` after the AIC wrote it: UB is not cleared.
    A read past the bytes the AIC wrote is an uninitialised read."""

    def make(extra: int) -> Any:
        @__global__
        @__mix__(1, 2)
        def kernel(x: GmPtr[half], y: GmPtr[half]) -> None:
            if ASCEND_IS_AIC:
                l1 = cube_buffers().pointer("l1", half, 0)
                C.asc_copy_gm2l1_align_sync(l1, x, 1, TILE * 2, 0, 0, False, 0, 0, 0)
                C.asc_copy_l12ub_sync(C.__ubuf__(half, TILE), l1, False, 1, TILE * 2 // 32, 0, 0)
                CrossCoreSetFlag[2, PIPE_MTE1](3)
            if ASCEND_IS_AIV:
                CrossCoreWaitFlag(3)
                if GetSubBlockIdx() == 0:
                    tile = C.__ubuf__(half, TILE + extra)  # the same address as the AIC's array
                    C.asc_sync()
                    C.asc_copy_ub2gm(y, tile, (TILE + extra) * 2)

        return kernel

    gm = GlobalMemory()
    xs, ys = gm.alloc(half, TILE), gm.alloc(half, 2 * TILE)
    xs.write(np.arange(TILE, dtype=np.float16) - 7)
    make(0)[1, 0, None](xs, ys)
    np.testing.assert_array_equal(ys.read(TILE), np.arange(TILE, dtype=np.float16) - 7)
    with pytest.raises(UninitializedMemoryError, match=r"byte 0x200 was not written"):
        make(16)[1, 0, None](xs, ys)


# -- L0C -> UB ---------------------------------------------------------------------------------


def l0c_kernel(api: str, sub: int, dual: int = 0, n: int = 32) -> Any:
    """AIC: a 16 x n int32 L0C tile (NZ, 16-column blocks) -> AIV UB as ND rows; flag 3."""

    @__global__
    @__mix__(1, 2)
    def kernel(x: GmPtr[int32_t], y: GmPtr[int32_t]) -> None:
        _, yg = _tensors(x, y, int32_t)
        count = 16 * n // (2 if dual else 1)
        ub = LocalTensor[int32_t](TPosition.VECIN, 0, count)
        if ASCEND_IS_AIC:
            l0c = cube_buffers().pointer("l0c", int32_t, 0)
            C.asc_copy_gm2l1_align_sync(cube_buffers().pointer("l1", int32_t, 0), x, 1,
                                        16 * n * 4, 0, 0, False, 0, 0, 0)  # fmt: skip
            l0c.write(cube_buffers().pointer("l1", int32_t, 0).read(16 * n))
            C.asc_sync()
            stride = n // 2 if dual == 2 else n
            if api == "basic":
                p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](n, 16, 16, stride)
                p.subBlockId, p.dualDstCtl = bool(sub), dual
                config = FixpipeConfig(CO2Layout.ROW_MAJOR, True)
                Fixpipe[int32_t, int32_t, config](
                    ub, LocalTensor[int32_t](TPosition.CO1, 0, 16 * n), p
                )
            else:
                C.asc_set_l0c2gm_nz2nd(1, 0, 0)
                C.asc_copy_l0c2ub_sync(ub.GetPhyAddr(), l0c, n, 16, stride, 16, dual, bool(sub),
                                       0, 0, 0, 0, False, True, 0, 0, False, 0, False, False,
                                       False, False)  # fmt: skip
            CrossCoreSetFlag[2, PIPE_MTE1](3)
        if ASCEND_IS_AIV:
            CrossCoreWaitFlag(3)
            if dual or GetSubBlockIdx() == sub:
                _aiv_scale_out(ub, yg, wait=False, count=count)

    return kernel


def nz_of(nd: np.ndarray) -> np.ndarray:
    """The NZ layout of a 16-row ND matrix: its 16-column blocks one after the other."""
    return nd.reshape(16, -1, 16).transpose(1, 0, 2).reshape(-1)


@pytest.mark.parametrize("api", ["basic", "c"])
@pytest.mark.parametrize(("sub", "dual"), [(0, 0), (1, 0), (0, 1), (0, 2)])
def test_l0c_to_ub_lands_in_the_named_aiv(api: str, sub: int, dual: int) -> None:
    n = 64 if dual == 2 else 32
    c = np.arange(16 * n, dtype=np.int32).reshape(16, n) * 3 - 500
    gm = GlobalMemory()
    xs, ys = gm.alloc(int32_t, 16 * n), gm.alloc(int32_t, 2 * 16 * n)
    xs.write(nz_of(c))
    ys.write(np.zeros(2 * 16 * n, np.int32))
    l0c_kernel(api, sub, dual, n)[1, 0, None](xs, ys)
    got = np.asarray(ys.read(2 * 16 * n))
    if dual == 1:  # rows 0..7 to AIV 0, 8..15 to AIV 1, each 8 x n ND
        want = np.concatenate([c[:8].reshape(-1), c[8:].reshape(-1)]) * 2
        np.testing.assert_array_equal(got[: 16 * n], want)
    elif dual == 2:  # columns split: each AIV gets 16 x n/2 ND
        want = np.concatenate([c[:, : n // 2].reshape(-1), c[:, n // 2 :].reshape(-1)]) * 2
        np.testing.assert_array_equal(got[: 16 * n], want)
    else:
        slot = got[sub * 16 * n : (sub + 1) * 16 * n]
        np.testing.assert_array_equal(slot, c.reshape(-1) * 2)
        assert not got[(1 - sub) * 16 * n : (2 - sub) * 16 * n].any()


# -- refusals ----------------------------------------------------------------------------------


def _lone(body: Any) -> None:
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 2 * TILE)
        a1.GetPhyAddr().write(np.zeros(2 * TILE, np.float16))
        C.asc_sync()
        body(a1)


@pytest.mark.parametrize(
    ("body", "error", "match"),
    [
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.VECIN, 0, TILE)[1], a1, 16),
         AlignmentError, "DataCopyL1ToUB: dst at __ubuf__ 0x2 is not 32-byte aligned"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.VECIN, 0, TILE), a1[8], 16),
         AlignmentError, "src at __cbuf__ 0x10 is not 32-byte aligned"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.VECIN, UB_BYTES - 64, 32), a1,
                                   DataCopyParams(1, 4, 0, 0)),
         OutOfBoundsError, r"leaves the 253952-byte __ubuf__ memory"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.VECIN, 0, TILE), a1,
                                   DataCopyParams(0, 1, 0, 0)),
         AscregTypeError, r"blockCount 0 is outside \[1, 4095\]"),
        (lambda a1: DataCopyL1ToUB[half, 2](LocalTensor[half](TPosition.VECIN, 0, TILE), a1, 16),
         AscregError, "subBlockId must be 0 or 1"),
        (lambda a1: DataCopyL1ToUB[half, 1](LocalTensor[half](TPosition.VECIN, 0, TILE), a1, 16),
         AscregError, "sub-block 1 outside a mixed launch"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[float32_t](TPosition.VECIN, 0, TILE), a1, 16),
         AscregTypeError, "dst holds float and src half"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.B2, 0, TILE), a1, 16),
         AscregTypeError, "dst is a B2 tensor but must be at TPosition VECIN / VECOUT"),
        (lambda a1: DataCopyL1ToUB(LocalTensor[half](TPosition.VECIN, 0, TILE), a1, 2**22),
         AscregError, "one copy moves at most 65535"),
        (lambda a1: C.asc_copy_l12ub(C.__ubuf__(half, 16), a1.GetPhyAddr(), False, 1, 2, 0, 0),
         OutOfBoundsError, "leaves the allocation"),
        (lambda a1: C.asc_copy_l12ub(C.__ubuf__(half, 16), a1.GetPhyAddr(), 0, 1, 1, 0, 0),
         AscregTypeError, "sub_blockid must be a bool"),
        (lambda a1: C.asc_copy_l12ub(C.__ubuf__(half, 16), a1.GetPhyAddr(), False, 4096, 1, 0, 0),
         AscregTypeError, r"n_burst 4096 is outside \[1, 4095\]"),
        (lambda a1: C.asc_copy_l12ub(C.__ubuf__(half, 16), a1.GetPhyAddr(), False, 1, 0, 0, 0),
         AscregTypeError, r"len_burst 0 is outside \[1, 65535\]"),
        (lambda a1: C.asc_copy_l12ub(C.__ubuf__(half, 16), a1.GetPhyAddr(), False, 1, 1, 0),
         AscregTypeError, "takes .dst_addr, src_addr, sub_blockid"),
    ],
)  # fmt: skip
def test_l1_to_ub_checks_its_operands(body: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _lone(body)


def test_the_count_form_rounds_down_to_whole_blocks() -> None:
    """The page: ``count * sizeof(T)`` not a multiple of 32 bytes is rounded down."""
    with block(BlockContext()) as ctx:
        a1 = LocalTensor[half](TPosition.A1, 0, 64)
        a1.GetPhyAddr().write(np.arange(64, dtype=np.float16))
        ub = LocalTensor[half](TPosition.VECIN, 0, 64)
        ub.GetPhyAddr().write(np.full(64, -1, np.float16))
        ctx.tracker.barrier()
        DataCopyL1ToUB(ub, a1, 31)  # 62 bytes: one block
        ctx.tracker.barrier()
        got = ub.GetPhyAddr().read(64)
    np.testing.assert_array_equal(got[:16], np.arange(16))
    assert (got[16:] == -1).all()


def _mix_or_cube(kind: str, body: Any) -> None:
    decorate = {"cube": __cube__, "mix11": __mix__(1, 1)}[kind]

    @__global__
    @decorate
    def kernel(x: GmPtr[half]) -> None:
        if ASCEND_IS_AIC:
            a1 = LocalTensor[half](TPosition.A1, 0, TILE)
            body(a1)

    kernel[1, 0, None](GlobalMemory().alloc(half, 16))


def test_the_kernel_kind_must_have_the_target_aiv() -> None:
    ub = lambda: LocalTensor[half](TPosition.VECIN, 0, TILE)  # noqa: E731
    with pytest.raises(AscregError, match="DataCopyL1ToUB: a __cube__ kernel has no vector core"):
        _mix_or_cube("cube", lambda a1: DataCopyL1ToUB(ub(), a1, 16))
    with pytest.raises(AscregError, match="one vector core per AI Core: the move needs __mix__"):
        _mix_or_cube("mix11", lambda a1: DataCopyL1ToUB(ub(), a1, 16))
    with pytest.raises(AscregError, match="asc_copy_l12ub: sub-block 1: AI Core 0 of this launch "
                       "has 1 vector core"):  # fmt: skip
        _mix_or_cube("mix11", lambda a1: C.asc_copy_l12ub(ub().GetPhyAddr(), a1.GetPhyAddr(),
                                                          True, 1, 1, 0, 0))  # fmt: skip


@pytest.mark.parametrize(
    ("dual", "n", "m", "layout", "error", "match"),
    [
        (3, 32, 16, CO2Layout.ROW_MAJOR, AscregError, "dualDstCtl 3 is reserved"),
        (1, 32, 15, CO2Layout.ROW_MAJOR, AscregError, "needs an even mSize"),
        (2, 48, 16, CO2Layout.ROW_MAJOR, AscregError, "needs nSize a multiple of 32"),
        (1, 32, 16, CO2Layout.COLUMN_MAJOR, AscregError, "plain NZ or the NZ2ND move"),
        (2, 32, 16, CO2Layout.NZ, UnsupportedError, "the NZ move split in N"),
    ],
)
def test_dual_destination_checks(
    dual: int, n: int, m: int, layout: CO2Layout, error: type, match: str
) -> None:
    with block(BlockContext()):
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 1024)
        c1.GetPhyAddr().write(np.zeros(1024, np.float32))
        C.asc_sync()
        p = FixpipeParamsArch3510[layout](n, m, 16, 64)
        if layout is CO2Layout.COLUMN_MAJOR:
            p.params.srcNzC0Stride = 1
        p.dualDstCtl = dual
        config = FixpipeConfig(layout, True)
        with pytest.raises(error, match=match):
            Fixpipe[float32_t, float32_t, config](
                LocalTensor[float32_t](TPosition.VECOUT, 0, 2048), c1, p
            )


def dual_model(c: np.ndarray, dual: int, layout: str, stride: int, span: int) -> np.ndarray:
    """The L0C -> UB page's dual destination, element by element: (AIV 0's UB, AIV 1's UB)."""
    m, n = c.shape
    out = np.full((2, span), -1, np.int32)
    for r in range(m):
        for col in range(n):
            half = int(r >= m // 2) if dual == 1 else int(col >= n // 2)
            rr = r - half * (m // 2) if dual == 1 else r
            cc = col - half * (n // 2) if dual == 2 else col
            at = (cc // 16) * stride + rr * 16 + cc % 16 if layout == "nz" else rr * stride + cc
            out[half, at] = c[r, col]
    return out


@pytest.mark.rows("asc_copy_l0c2ub")
@settings(max_examples=10, derandomize=True, deadline=None)
@given(
    dual=st.sampled_from([1, 2]),
    layout=st.sampled_from(["nd", "nz"]),
    m_half=st.integers(1, 12),
    blocks=st.integers(1, 3),
    extra=st.integers(0, 24),
)
def test_dual_destination_matches_the_page(
    dual: int, layout: str, m_half: int, blocks: int, extra: int
) -> None:
    """Each AIV fills its UB with -1 and hands it to the AIC (mode-2 flag 4), which splits a
    ``2 m_half x 32 blocks`` L0C matrix between them (flag 3); each copies its UB out."""
    if dual == 2 and layout == "nz":
        layout = "nd"  # refused (test_dual_destination_checks)
    m, n = 2 * m_half, 32 * blocks
    rows, cols = (m // 2, n) if dual == 1 else (m, n // 2)
    stride = (cols + extra) if layout == "nd" else 16 * (rows + extra)
    span = 8192
    c = (np.arange(m * n, dtype=np.int32).reshape(m, n) * 7) - 300
    l0c_nz = np.zeros(((m + 15) // 16 * 16) * n, np.int32)  # srcStride: M rounded up to 16
    src_stride = (m + 15) // 16 * 16
    for r in range(m):
        for col in range(n):
            l0c_nz[(col // 16) * src_stride * 16 + r * 16 + col % 16] = c[r, col]

    @__global__
    @__mix__(1, 2)
    def kernel(x: GmPtr[int32_t], y: GmPtr[int32_t]) -> None:
        ub = C.__ubuf__(int32_t, span)
        if ASCEND_IS_AIV:
            ub.write(np.full(span, -1, np.int32))
            CrossCoreSetFlag[2, PIPE_MTE1](4)
            CrossCoreWaitFlag(3)
            C.asc_sync()
            C.asc_copy_ub2gm(y + C.asc_get_sub_block_id() * span, ub, span * 4)
        if ASCEND_IS_AIC:
            l0c = cube_buffers().pointer("l0c", int32_t, 0)
            l0c.write(x.read(l0c_nz.size))
            C.asc_sync()
            C.asc_set_l0c2gm_nz2nd(1, 0, 0)
            CrossCoreWaitFlag(4)
            C.asc_copy_l0c2ub(ub, l0c, n, m, stride, src_stride, dual, False, 0, 0, 0, 0, False,
                              layout == "nd", 0, 0, False, 0, False, False, False, False)  # fmt: skip
            CrossCoreSetFlag[2, PIPE_FIX](3)

    gm = GlobalMemory()
    xs, ys = gm.alloc(int32_t, l0c_nz.size), gm.alloc(int32_t, 2 * span)
    xs.write(l0c_nz)
    kernel[1, 0, None](xs, ys)
    got = np.asarray(ys.read(2 * span)).reshape(2, span)
    np.testing.assert_array_equal(got, dual_model(c, dual, layout, stride, span))


# -- the synchronisation of matmul_gelu_high_performance's UB pass-through (scenario 2) ---------


def gelu_like_kernel(back_flag: bool) -> Any:
    """The skeleton of ``05_best_practices/03_fusion_compute/matmul_gelu_high_performance``'s
    ``SCENARIO_NUM=2`` loop, two M blocks per core: the AIC moves each 2 x 16 float block from
    L0C into ``xUB`` by a dual-destination ``Fixpipe`` (M split) and sets mode-2 flag 8
    (``CopyOutAic``); each AIV waits for 8, computes into ``geluOutUB`` (here ``Muls`` by 2)
    and copies its row to GM (``GeluFromUB``). The example sets nothing back before the next
    ``Fixpipe`` overwrites ``xUB``; *back_flag* adds that flag (mode 2, flag 9) and the
    ``MTE3_V`` flag the example also lacks (the next block's GELU overwrites ``geluOutUB`` while
    the copy out of the previous one may still read it)."""

    @__global__
    @__mix__(1, 2)
    def kernel(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
        _, cGM = _tensors(x, y, float32_t)
        xUB = LocalTensor[float32_t](TPosition.VECCALC, 0, 16)
        for mBlockIdx in range(2):
            if ASCEND_IS_AIC:
                if back_flag and mBlockIdx:
                    CrossCoreWaitFlag(9)
                cLocal = LocalTensor[float32_t](TPosition.CO1, 0, 256)
                C.asc_sync()  # (the example's Mmad writes L0C: stands in for it)
                cLocal.GetPhyAddr().write(x.read(512)[256 * mBlockIdx : 256 * (mBlockIdx + 1)])
                C.asc_sync()
                p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](16, 2, 16, 16)
                p.dualDstCtl = 0b01
                Fixpipe[float32_t, float32_t, FixpipeConfig(CO2Layout.ROW_MAJOR, True)](
                    xUB, cLocal, p
                )
                CrossCoreSetFlag[0x2, PIPE_FIX](0x8)
            if ASCEND_IS_AIV:
                CrossCoreWaitFlag(0x8)
                geluOutUB = LocalTensor[float32_t](TPosition.VECCALC, 1024, 16)
                Muls(geluOutUB, xUB, 2.0, 16)
                SetFlag[HardEvent.V_MTE3](EVENT_ID0)
                WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
                DataCopy(cGM[mBlockIdx * 32 + GetSubBlockIdx() * 16], geluOutUB, 16)
                if back_flag and mBlockIdx == 0:
                    CrossCoreSetFlag[0x2, PIPE_V](9)
                    SetFlag[HardEvent.MTE3_V](EVENT_ID0)  # the next Muls overwrites geluOutUB
                    WaitFlag[HardEvent.MTE3_V](EVENT_ID0)

    return kernel


def test_the_gelu_examples_ub_pass_through_needs_a_flag_back() -> None:
    """ascreg finds the example's missing AIV -> AIC flag: the second block's ``Fixpipe`` may
    overwrite ``xUB`` while the AIV still computes on the first."""
    blocks = np.arange(512, dtype=np.float32).reshape(2, 256) - 100  # two L0C tiles (NZ)
    gm = GlobalMemory()
    xs, ys = gm.alloc(float32_t, 512), gm.alloc(float32_t, 64)
    xs.write(blocks.reshape(-1))
    with pytest.raises(SyncError, match=r"AIV 0 reads the UB of AIV 0 byte 0x0, which AIC 0 "
                       "wrote with no CrossCoreSetFlag"):  # fmt: skip
        gelu_like_kernel(False)[1, 0, None](xs, ys)
    gelu_like_kernel(True)[1, 0, None](xs, ys)
    rows = blocks[:, :32].reshape(2, 2, 16)  # the first 16-column block: rows 0 and 1 of each
    np.testing.assert_array_equal(ys.read(64), (rows * 2).reshape(-1))

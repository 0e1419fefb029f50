"""SyncAll: all blocks of a launch meet, as production kernels use it (~135 ops-nn files).

The blocks run as cooperative phases: every block runs to its first SyncAll, then every block to
its next, and so on, in block order. Misuse the chip hangs on is a SyncError.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, float32_t, int32_t
from ascreg.basic import (
    AIV_CORE_NUM,
    PIPE_ALL,
    PIPE_MTE3,
    PIPE_V,
    DataCopy,
    GetBlockIdx,
    GetBlockNum,
    GlobalTensor,
    HardEvent,
    LocalMemAllocator,
    SetFlag,
    SyncAll,
    SyncAllConfig,
    TBuf,
    TPipe,
    WaitFlag,
    asc_vf_call,
)
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __vector__
from ascreg.simt import __simt_vf__, blockDim, blockIdx, dim3, threadIdx

TILE = 64


@__global__
@__vector__
def partial_sums(x: GmPtr[float32_t], work: GmPtr[float32_t], out: GmPtr[float32_t]) -> None:
    """Phase 1: each block sums its tile into work[b]; phase 2: block 0 adds the partials."""
    pipe = TPipe()
    buf = TBuf()
    pipe.InitBuffer(buf, TILE * 4)
    idx, num = GetBlockIdx(), GetBlockNum()
    xGm, workGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + idx * TILE, TILE)
    workGm.SetGlobalBuffer(work, 8 * num)
    t = buf.Get[float32_t]()
    DataCopy(t, xGm, TILE)
    eventId = pipe.FetchEventID(HardEvent.MTE2_S)
    SetFlag[HardEvent.MTE2_S](eventId)
    WaitFlag[HardEvent.MTE2_S](eventId)
    workGm.SetValue(8 * idx, t.GetPhyAddr().read(TILE).sum())
    SyncAll()
    if idx == 0:
        out.write([sum(workGm.GetValue(8 * b) for b in range(num))])


@pytest.mark.parametrize("blocks", [1, 2, 5])
def test_a_two_phase_reduction(blocks: int) -> None:
    x = GlobalMemory().alloc(float32_t, blocks * TILE)
    work = GlobalMemory().alloc(float32_t, 8 * blocks)
    out = GlobalMemory().alloc(float32_t, 1)
    data = np.arange(blocks * TILE, dtype=np.float32) % 7
    x.write(data)
    partial_sums[blocks, 0](x, work, out)
    assert out.read(1)[0] == data.sum()


def test_blocks_run_phase_by_phase_in_block_order() -> None:
    log: list[tuple[int, int]] = []

    @__global__
    @__vector__
    def phases() -> None:
        for phase in range(3):
            log.append((int(GetBlockIdx()), phase))
            SyncAll()

    phases[3, 0]()
    assert log == [(b, p) for p in range(3) for b in range(3)]


def test_writes_of_different_phases_do_not_race() -> None:
    @__global__
    @__vector__
    def overwrite(out: GmPtr[int32_t]) -> None:
        out.write([GetBlockIdx()])  # every block writes the same bytes in one phase: a race
        SyncAll()

    out = GlobalMemory().alloc(int32_t, 1)
    with pytest.raises(SyncError, match=r"block 1 writes __gm__ .* that block 0 wrote"):
        overwrite[2, 0](out)

    @__global__
    @__vector__
    def take_turns(out: GmPtr[int32_t]) -> None:
        for turn in range(GetBlockNum()):
            if GetBlockIdx() == turn:
                out.write([turn * 10])
            SyncAll()

    take_turns[3, 0](out)
    assert out.read(1)[0] == 20


def test_syncall_in_a_branch_some_blocks_skip_hangs() -> None:
    @__global__
    @__vector__
    def skipping(skip: int) -> None:
        if GetBlockIdx() != skip:
            SyncAll()

    with pytest.raises(SyncError) as info:
        skipping[3, 0](2)
    assert str(info.value) == (
        "SyncAll(): block(s) 0, 1 wait at SyncAll() but block(s) 2 ended without reaching it: "
        "every participating block must call each SyncAll (on the chip the waiting blocks hang; "
        "a SyncAll inside a branch some blocks skip does this)"
    )
    with pytest.raises(SyncError, match=r"block 1 reached SyncAll\(\) but block\(s\) 0 of the"):
        skipping[3, 0](0)
    with pytest.raises(SyncError, match=r"block 2 reached SyncAll\(\) but block\(s\) 1 of the"):
        skipping[3, 0](1)


def test_a_block_with_one_syncall_too_many_hangs() -> None:
    @__global__
    @__vector__
    def extra() -> None:
        SyncAll()
        if GetBlockIdx() == 0:
            SyncAll()

    with pytest.raises(SyncError, match=r"block\(s\) 0 wait at SyncAll\(\) but block\(s\) 1"):
        extra[2, 0]()


def test_an_error_in_a_later_block_ends_the_launch_and_its_threads() -> None:
    before = threading.active_count()

    @__global__
    @__vector__
    def failing() -> None:
        SyncAll()
        if GetBlockIdx() == 2:
            raise ValueError("block 2 fails")
        SyncAll()

    with pytest.raises(ValueError, match="block 2 fails"):
        failing[4, 0]()
    assert threading.active_count() == before


def test_hardware_sync_forms_and_config() -> None:
    @__global__
    @__vector__
    def configured(out: GmPtr[float32_t]) -> None:
        t = LocalMemAllocator().Alloc[float32_t, 8]()
        t.GetPhyAddr().write(np.full(8, GetBlockIdx() + 1, dtype=np.float32))
        SetFlag[HardEvent.S_MTE3](0)
        WaitFlag[HardEvent.S_MTE3](0)
        g = GlobalTensor[float32_t]()
        g.SetGlobalBuffer(out + 8 * GetBlockIdx(), 8)
        DataCopy(g, t, 8)
        SyncAll[True, SyncAllConfig(PIPE_MTE3, PIPE_ALL)]()
        SyncAll[True]()

    out = GlobalMemory().alloc(float32_t, 16)
    configured[2, 0](out)
    assert out.read(16).tolist() == [1.0] * 8 + [2.0] * 8
    with block(BlockContext()):
        with pytest.raises(SyncError, match="SyncAll<false> synchronises the cube cores"):
            SyncAll[False]()
        with pytest.raises(AscregTypeError, match=r"triggerPipe .* is not PIPE_MTE2"):
            SyncAll[True, SyncAllConfig(PIPE_V, PIPE_ALL)]()
        SyncAll()  # one block: nothing to wait for


def test_launch_size_and_bare_blocks() -> None:
    @__global__
    @__vector__
    def everyone() -> None:
        SyncAll()

    with pytest.raises(SyncError, match=f"dav-3510 has {AIV_CORE_NUM} vector cores"):
        everyone[AIV_CORE_NUM + 1, 0]()
    with block(BlockContext(0, 2)), pytest.raises(AscregError, match="runs outside a launch"):
        SyncAll()


def test_the_software_sync_through_a_gm_workspace() -> None:
    blocks = 3

    @__global__
    @__vector__
    def soft(sync: GmPtr[int32_t], seen: GmPtr[int32_t]) -> None:
        pipe = TPipe()
        buf = TBuf()
        pipe.InitBuffer(buf, blocks * 32)
        syncGm = GlobalTensor[int32_t]()
        syncGm.SetGlobalBuffer(sync, blocks * 8)
        work = buf.Get[int32_t]()
        for _ in range(2):
            SyncAll(syncGm, work)
        if GetBlockIdx() == 0:
            seen.write(work.GetPhyAddr().read(blocks * 8))

    sync = GlobalMemory().alloc(int32_t, blocks * 8)
    seen = GlobalMemory().alloc(int32_t, blocks * 8)
    soft[blocks, 0](sync, seen)
    flags = sync.read(blocks * 8).reshape(blocks, 8)
    assert flags[:, 0].tolist() == [2, 2, 2] and not flags[:, 1:].any()
    assert seen.read(blocks * 8).reshape(blocks, 8)[:, 0].tolist() == [2, 2, 2]


def test_the_software_sync_of_some_blocks_and_its_rules() -> None:
    @__global__
    @__vector__
    def some(sync: GmPtr[int32_t], used: int, caller_limit: int) -> None:
        syncGm = GlobalTensor[int32_t]()
        syncGm.SetGlobalBuffer(sync, GetBlockNum() * 8)
        work = LocalMemAllocator().Alloc[int32_t](GetBlockNum() * 8)
        if GetBlockIdx() < caller_limit:
            SyncAll(syncGm, work, used)

    sync = GlobalMemory().alloc(int32_t, 32)
    some[4, 0](sync, 2, 2)  # blocks 2 and 3 run on
    assert sync.read(32)[[0, 8, 16, 24]].tolist() == [1, 1, 0, 0]
    with pytest.raises(SyncError, match=r"synchronises blocks 0..1 only"):
        some[4, 0](GlobalMemory().alloc(int32_t, 32), 2, 3)
    with pytest.raises(AscregError, match=r"usedCores 5 is outside \[0, GetBlockNum\(\) = 4\]"):
        some[4, 0](GlobalMemory().alloc(int32_t, 32), 5, 4)
    with block(BlockContext(0, 1)):
        g = GlobalTensor[int32_t]()
        g.SetGlobalBuffer(GlobalMemory().alloc(int32_t, 4), 4)
        work = LocalMemAllocator().Alloc[int32_t](8)
        with pytest.raises(AscregError, match="gmWorkspace holds 4 int32_t but SyncAll needs"):
            SyncAll(g, work)
        with pytest.raises(AscregTypeError, match="takes both gmWorkspace and ubWorkspace"):
            SyncAll(g)


@__simt_vf__
def double_vf(dst: Any, src: Any) -> None:
    i = blockIdx.x * blockDim.x + threadIdx.x
    dst[i] = src[i] * 2


def test_simt_vfs_run_in_every_phase() -> None:
    @__global__
    @__vector__
    def simt_phases(x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t]) -> None:
        asc_vf_call[double_vf](dim3(32), y, x)
        SyncAll()
        asc_vf_call[double_vf](dim3(32), z, y)

    x, y, z = (GlobalMemory().alloc(int32_t, 64) for _ in range(3))
    x.write(np.arange(64, dtype=np.int32))
    simt_phases[2, 0](x, y, z)
    np.testing.assert_array_equal(z.read(64), np.arange(64) * 4)

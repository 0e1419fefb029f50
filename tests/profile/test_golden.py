"""Schedules of tiny kernels computed by hand (the cost table of ``golden_table``).

Costs: issue 1, set 1, wait 1, barrier 2, VF call 4; a copy in of 1 KiB 10 + 1024 / 32 = 42,
out 6 + 1024 / 64 = 22; a VF over one tile: call 4, CreateMask 1, four LoadAlign 4, four Add
8, four StoreAlign 4 = 21. Instruction k of the program (from 0) is in its queue at k + 1.
"""

from __future__ import annotations

import numpy as np
import pytest

import ascreg
from ascreg import GlobalMemory, GmPtr, float32_t
from ascreg.c_api import (
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync,
)
from profile_kernels import golden_table, record, slices

VF = [
    ("VECTOR", "double_vf (VF call)", 0, 4),
    ("VECTOR", "Reg.CreateMask", 4, 5),
    ("VECTOR", "Reg.LoadAlign", 5, 9),
    ("VECTOR", "Reg.Add", 9, 17),
    ("VECTOR", "Reg.StoreAlign", 17, 21),
]


def vf_at(start: int) -> list[tuple[str, str, float, float]]:
    return [(track, name, start + a, start + b) for track, name, a, b in VF]


@__global__
@__vector__
def copy_barrier_copy(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    a = __ubuf__(float32_t, 64)
    asc_copy_gm2ub_align(a, x, 256)
    asc_sync()
    asc_copy_ub2gm_align(y, a, 256)


def test_copy_barrier_copy() -> None:
    # copy in issued at 1: 10 + 256 / 32 = 18 -> [1, 19]; the barrier waits from 1 until MTE2
    # drains at 19, then costs 2 -> 21; the copy out is issued at 22: 6 + 256 / 64 = 10
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 64), gm.alloc(float32_t, 64)
    x.write(np.arange(64, dtype=np.float32))
    with ascreg.profile(costs=golden_table()) as prof:
        copy_barrier_copy[1, 0, None](x, y)
    assert slices(prof) == [
        ("SCALAR", "issue", 0, 1),
        ("MTE2", "asc_copy_gm2ub_align", 1, 19),
        ("SCALAR wait", "PipeBarrier<PIPE_ALL>", 1, 21),
        ("SCALAR", "issue", 21, 22),
        ("MTE3", "asc_copy_ub2gm_align", 22, 32),
    ]
    assert prof.makespan == 32


def test_one_tile() -> None:
    # 0 copy in [1, 43]; 1 set MTE2->V [43, 44]; 2 wait on V from 3 until 44, + 1 -> 45;
    # 3 VF [45, 66]; 4, 5 sets on V [66, 67], [67, 68]; 6 wait on MTE3 from 7 until 68 -> 69;
    # 7 copy out [69, 91]; 8 set MTE3->V [91, 92]; 9 drain wait on MTE2 from 44 until 67 -> 68;
    # 10 drain wait on V from 68 until 92 -> 93
    prof = record(1, 1).with_costs(golden_table())
    assert slices(prof) == [
        ("SCALAR", "issue", 0, 11),
        ("MTE2", "asc_copy_gm2ub_align", 1, 43),
        ("MTE2", "SetFlag MTE2->V #0", 43, 44),
        ("VECTOR wait", "WaitFlag MTE2->V #0", 3, 45),
        *vf_at(45),
        ("VECTOR", "SetFlag V->MTE2 #0", 66, 67),
        ("VECTOR", "SetFlag V->MTE3 #0", 67, 68),
        ("MTE3 wait", "WaitFlag V->MTE3 #0", 7, 69),
        ("MTE3", "asc_copy_ub2gm_align", 69, 91),
        ("MTE3", "SetFlag MTE3->V #0", 91, 92),
        ("MTE2 wait", "WaitFlag V->MTE2 #0", 44, 68),
        ("VECTOR wait", "WaitFlag MTE3->V #0", 68, 93),
    ]
    assert prof.makespan == 93


def test_one_tile_then_barrier() -> None:
    # as test_one_tile up to instruction 8; 9 the barrier: the scalar unit (at 9) waits until
    # MTE3 drains at 92, + 2 -> 94; the drain waits are issued at 95 and 96, their sets long done
    prof = record(1, 1, (0,)).with_costs(golden_table())
    found = slices(prof)
    assert found[0] == ("SCALAR", "issue", 0, 9)
    assert found[-5:] == [
        ("MTE3", "SetFlag MTE3->V #0", 91, 92),
        ("SCALAR wait", "PipeBarrier<PIPE_ALL>", 9, 94),
        ("SCALAR", "issue", 94, 96),
        ("MTE2 wait", "WaitFlag V->MTE2 #0", 95, 96),
        ("VECTOR wait", "WaitFlag MTE3->V #0", 96, 97),
    ]
    assert prof.makespan == 97


def test_two_tiles_double_buffered() -> None:
    # tile 1's copy in (instruction 9) needs no wait: MTE2 takes it at 44, [44, 86], its set
    # [86, 87]; V, free at 68, waits for it until 87 -> 88, then the VF [88, 109]; its sets
    # [109, 110], [110, 111]; MTE3, free at 92, waits until 111 -> 112; copy out [112, 134],
    # set [134, 135]; the drain waits: MTE2 [87, 88] and [88, 111], V [111, 112] and [112, 136]
    prof = record(2, 2).with_costs(golden_table())
    found = slices(prof)
    assert found[:5] == [
        ("SCALAR", "issue", 0, 22),
        ("MTE2", "asc_copy_gm2ub_align", 1, 43),
        ("MTE2", "SetFlag MTE2->V #0", 43, 44),
        ("VECTOR wait", "WaitFlag MTE2->V #0", 3, 45),
        ("VECTOR", "double_vf (VF call)", 45, 49),
    ]
    assert found[14:] == [
        ("MTE2", "asc_copy_gm2ub_align", 44, 86),
        ("MTE2", "SetFlag MTE2->V #1", 86, 87),
        ("VECTOR wait", "WaitFlag MTE2->V #1", 68, 88),
        *vf_at(88),
        ("VECTOR", "SetFlag V->MTE2 #1", 109, 110),
        ("VECTOR", "SetFlag V->MTE3 #1", 110, 111),
        ("MTE3 wait", "WaitFlag V->MTE3 #1", 92, 112),
        ("MTE3", "asc_copy_ub2gm_align", 112, 134),
        ("MTE3", "SetFlag MTE3->V #1", 134, 135),
        ("MTE2 wait", "WaitFlag V->MTE2 #0", 87, 88),
        ("VECTOR wait", "WaitFlag MTE3->V #0", 111, 112),
        ("MTE2 wait", "WaitFlag V->MTE2 #1", 88, 111),
        ("VECTOR wait", "WaitFlag MTE3->V #1", 112, 136),
    ]
    assert prof.makespan == 136


@pytest.mark.parametrize("shape", [(1, 1, ()), (2, 2, ())])
def test_every_wait_has_its_arrow(shape: tuple[int, int, tuple[int, ...]]) -> None:
    prof = record(*shape).with_costs(golden_table())
    block = prof.timeline.blocks[0]
    waits = [s for s in block.slices if s.kind == "wait"]
    assert len(block.flows) == len(waits)
    assert all(flow.set.kind == "set" and flow.wait in waits for flow in block.flows)

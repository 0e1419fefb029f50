"""The L0C unit flags of ``Mmad`` and ``Fixpipe`` (``unitFlag`` 2 / 3) and ``SetFixPipeConfig``.

Reference: asc-devkit ``docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/Mmad计算关键特性说明/
UnitFlag.md``: each 512-byte L0C block has a unit flag; a unit-flag Mmad writes a block whose
flag is 0 (else it waits) and a unit-flag Fixpipe reads one whose flag is 1 (else it waits);
unitFlag 3 flips the flag after the instruction (a Mmad to 1, a Fixpipe to 0), 2 keeps it;
``SetFixPipeConfig(co1, true)`` sets every flag to 0.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half
from ascreg.basic import (
    PIPE_ALL,
    CO2Layout,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    LocalTensor,
    Mmad,
    MmadParams,
    Nz2DnParams,
    PipeBarrier,
    SetFixPipeConfig,
    TPosition,
)
from ascreg.errors import AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, block


class Cube:
    """One 16 x 16 half multiply into CO1 and its move to GM, with a chosen unitFlag."""

    def __init__(self, c_addr: int = 0) -> None:
        self.a = LocalTensor[half](TPosition.A2, 0, 256)
        self.b = LocalTensor[half](TPosition.B2, 0, 256)
        self.a.GetPhyAddr().write(np.eye(16).reshape(-1))
        self.b.GetPhyAddr().write(np.arange(256) % 5)
        self.c = LocalTensor[float32_t](TPosition.CO1, c_addr, 256)
        self.out = GlobalMemory().alloc(float32_t, 256)
        self.gm = GlobalTensor[float32_t]()
        self.gm.SetGlobalBuffer(self.out)
        PipeBarrier[PIPE_ALL]()

    def mmad(self, flag: int) -> None:
        p = MmadParams(16, 16, 16)
        p.unitFlag = flag
        Mmad(self.c, self.a, self.b, p)

    def fixpipe(self, flag: int) -> None:
        p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](16, 16, 16, 16)
        p.unitFlag = flag
        Fixpipe(self.gm, self.c, p)


def test_the_documented_k_loop_runs_and_leaves_the_flags_clear() -> None:
    with block(BlockContext()):
        cube = Cube()
        for flag in (2, 2, 3):  # the first n - 1 Mmads keep the flag, the last sets it
            cube.mmad(flag)
        cube.fixpipe(3)  # reads, sets it back to 0
        cube.mmad(3)  # may write again
        cube.fixpipe(3)
    assert np.array_equal(
        cube.out.read(256).reshape(16, 16), (np.arange(256) % 5).reshape(16, 16).T
    )


def test_the_unit_flag_orders_mmad_before_fixpipe_without_a_flag() -> None:
    with block(BlockContext()):
        cube = Cube()
        cube.mmad(3)
        cube.fixpipe(3)  # no M_FIX flag: the unit flag orders the read after the write
        cube.mmad(3)  # and this write after the read
        cube.fixpipe(3)
    with block(BlockContext()), pytest.raises(SyncError):
        cube = Cube()
        cube.mmad(0)
        cube.fixpipe(0)


def test_one_mmad_read_by_two_fixpipes_keeps_the_flag_with_2() -> None:
    with block(BlockContext()):
        cube = Cube()
        cube.mmad(3)
        cube.fixpipe(2)
        cube.fixpipe(3)
        with pytest.raises(UnsupportedError, match=r"Fixpipe with unitFlag 3: .* is 0"):
            cube.fixpipe(3)


def test_set_fixpipe_config_clears_every_flag() -> None:
    with block(BlockContext()):
        cube = Cube()
        cube.mmad(3)
        SetFixPipeConfig[float32_t](cube.c, False)  # isUnitFlag false: nothing changes
        with pytest.raises(UnsupportedError, match=r"UnitFlag\.md"):
            cube.mmad(3)
        SetFixPipeConfig[float32_t](cube.c, True)
        cube.mmad(3)


def test_flags_are_per_512_byte_block() -> None:
    with block(BlockContext()):
        cube, other = Cube(0), Cube(1024)  # a 16 x 16 float tile is two blocks
        cube.mmad(3)
        other.mmad(3)  # different blocks: free
        with pytest.raises(UnsupportedError, match="block 2 "):
            other.mmad(3)


def reference(ops: list[tuple[str, int]]) -> list[bool]:
    """Per op, whether it may run in program order (the page's rules on one block)."""
    ready, allowed = False, []
    for op, flag in ops:
        if op == "reset":
            ready = False
            allowed.append(True)
            continue
        write = op == "mmad"
        ok = not flag or ready != write
        allowed.append(ok)
        if not ok:
            break
        if flag == 3:
            ready = write
    return allowed


@settings(max_examples=30, derandomize=True, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["mmad", "fixpipe", "reset"]), st.sampled_from([0, 2, 3])),
        max_size=8,
    )
)
def test_unit_flags_follow_the_page(ops: list[tuple[str, int]]) -> None:
    expected = reference(ops)
    with block(BlockContext()):
        cube = Cube()
        for (op, flag), ok in zip(ops, expected, strict=False):
            run = {
                "mmad": lambda f=flag: cube.mmad(f),
                "fixpipe": lambda f=flag: cube.fixpipe(f),
                "reset": lambda: SetFixPipeConfig[float32_t](cube.c, True),
            }[op]
            if ok:
                run()
                PipeBarrier[PIPE_ALL]()
            else:
                with pytest.raises(UnsupportedError, match="unitFlag"):
                    run()


def test_bad_unit_flags_name_the_field_and_the_values() -> None:
    with block(BlockContext()):
        cube = Cube()
        with pytest.raises(AscregError, match=r"MmadParams.unitFlag must be 0, 2 or 3 .* got 1"):
            cube.mmad(1)
        with pytest.raises(
            AscregError, match=r"FixpipeParamsArch3510.unitFlag must be 0, 2 or 3 .* got True"
        ):
            cube.fixpipe(True)  # type: ignore[arg-type]
        p = FixpipeParamsArch3510[CO2Layout.COLUMN_MAJOR](16, 16, 16, 16)
        p.params = Nz2DnParams(1, 0, 0, 2)
        p.unitFlag = 3
        with pytest.raises(AscregError, match="srcNzC0Stride 1"):
            Fixpipe(cube.gm, cube.c, p)


def test_set_fixpipe_config_errors() -> None:
    with block(BlockContext()):
        cube = Cube()
        with pytest.raises(AscregError, match="setRelu must be false"):
            SetFixPipeConfig[float32_t, True](cube.c, True)
        with pytest.raises(AscregTypeError, match="isUnitFlag must be a bool"):
            SetFixPipeConfig[float32_t](cube.c, 1)
        with pytest.raises(AscregTypeError, match="does not hold T = half"):
            SetFixPipeConfig[half](cube.c, True)
        with pytest.raises(UnsupportedError, match="Fixpipe Buffer"):
            SetFixPipeConfig(cube.c, cube.c)


def test_two_blocks_move_column_tiles_of_the_same_rows_without_a_race() -> None:
    """A Fixpipe writes the elements of its ND rows, not the span between them."""
    from ascreg import GmPtr, uint8_t
    from ascreg.basic import GetBlockIdx, __cube__
    from ascreg.machine.kernel import __global__

    @__global__
    @__cube__
    def tiles(c: GmPtr[uint8_t]) -> None:
        cube = Cube()
        cube.gm.SetGlobalBuffer(c.cast(float32_t) + GetBlockIdx() * 16)
        cube.mmad(3)
        p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](16, 16, 16, 32)  # rows of 32
        p.unitFlag = 3
        Fixpipe(cube.gm, cube.c, p)

    out = GlobalMemory().alloc(uint8_t, 16 * 32 * 4)
    tiles[2, 0, None](out)
    tile = (np.arange(256) % 5).reshape(16, 16).T
    assert np.array_equal(
        out.read(16 * 32 * 4).view(np.float32).reshape(16, 32), np.hstack([tile] * 2)
    )

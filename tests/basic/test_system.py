"""SetAtomicAdd<T> / SetAtomicNone, the workspace GM (SetSysWorkspace, GetUserWorkspace)."""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    GlobalMemory,
    GmPtr,
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    uint8_t,
    uint32_t,
)
from ascreg.basic import (
    RESERVED_WORKSPACE,
    DisableDmaAtomic,
    GetSysWorkSpacePtr,
    GetUserWorkspace,
    InitSocState,
    SetAtomicAdd,
    SetAtomicMax,
    SetAtomicMin,
    SetAtomicNone,
    SetSysWorkspace,
)
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __vector__
from ascreg.machine.sysregs import system_registers

C_SWITCHES = {
    ("add", float32_t): C.asc_set_atomic_add_float,
    ("add", half): C.asc_set_atomic_add_float16,
    ("add", bfloat16_t): C.asc_set_atomic_add_bfloat,
    ("add", int32_t): C.asc_set_atomic_add_int,
    ("add", int16_t): C.asc_set_atomic_add_int16,
    ("add", int8_t): C.asc_set_atomic_add_int8,
    ("max", float32_t): C.asc_set_atomic_max_float,
    ("min", int8_t): C.asc_set_atomic_min_int8,
}
BASIC = {"add": SetAtomicAdd, "max": SetAtomicMax, "min": SetAtomicMin}


@pytest.mark.parametrize(("op", "dtype"), list(C_SWITCHES))
def test_the_basic_switch_sets_the_c_api_mode(op: str, dtype: type) -> None:
    with block(BlockContext()):
        C_SWITCHES[op, dtype]()
        wanted = system_registers().atomic
        SetAtomicNone()
        assert system_registers().atomic is None
        BASIC[op][dtype]()
        assert system_registers().atomic == wanted == (op, dtype)
        DisableDmaAtomic()
        assert system_registers().atomic is None
        BASIC[op][dtype]()
        InitSocState()
        assert system_registers().atomic is None


def test_bad_atomic_types_and_forms() -> None:
    with block(BlockContext()):
        with pytest.raises(UnsupportedError, match=r"SetAtomicAdd<uint32_t>: the store atomic"):
            SetAtomicAdd[uint32_t]()
        with pytest.raises(AscregTypeError, match=r"write SetAtomicAdd\[T\]\(\)"):
            SetAtomicAdd()
        with pytest.raises(AscregTypeError, match="matches no template parameter list"):
            SetAtomicMax[3]


@__global__
@__vector__
def accumulate(out: GmPtr[float32_t]) -> None:
    """Each block adds its row into out under SetAtomicAdd<float> (a C API copy honours it)."""
    ub = C.__ubuf__(float32_t, 8)
    ub.write(np.full(8, 1.0, dtype=np.float32))
    C.asc_sync_notify(C.PIPE_S, C.PIPE_MTE3, C.EVENT_ID0)
    C.asc_sync_wait(C.PIPE_S, C.PIPE_MTE3, C.EVENT_ID0)
    SetAtomicAdd[float32_t]()
    C.asc_copy_ub2gm_align(out, ub, 32)
    SetAtomicNone()


def test_the_mode_makes_copies_add() -> None:
    out = GlobalMemory().alloc(float32_t, 8)
    out.write(np.full(8, 7.0, dtype=np.float32))
    accumulate[3, 0](out)
    assert out.read(8).tolist() == [10.0] * 8


def test_user_workspace_is_past_the_system_reserve() -> None:
    ws = GlobalMemory().alloc(uint8_t, RESERVED_WORKSPACE + 1024)
    other = GlobalMemory().alloc(uint8_t, RESERVED_WORKSPACE + 64)
    with block(BlockContext()):
        assert GetSysWorkSpacePtr() is None
        assert GetUserWorkspace(ws) == ws + RESERVED_WORKSPACE  # the framework's workspace
        SetSysWorkspace(other)
        SetSysWorkspace(ws)  # the first call sets it
        assert GetSysWorkSpacePtr() == other
        assert GetUserWorkspace(ws) == other + RESERVED_WORKSPACE
    with block(BlockContext()):
        SetSysWorkspace(ws.cast(uint32_t))  # any __gm__ pointer, as GM_ADDR (uint8_t*)
        assert GetSysWorkSpacePtr() == ws


def test_workspace_rules() -> None:
    with block(BlockContext()):
        with pytest.raises(AscregError, match="smaller than the 16777216-byte system reserve"):
            GetUserWorkspace(GlobalMemory().alloc(uint8_t, 1024))
        with pytest.raises(AscregTypeError, match=r"workspace must be a GM_ADDR"):
            SetSysWorkspace(np.zeros(4, np.uint8))  # type: ignore[arg-type]
        with pytest.raises(AscregTypeError, match=r"workspace must be a GM_ADDR"):
            GetUserWorkspace(None)  # type: ignore[arg-type]


@__global__
@__vector__
def with_workspace(x: GmPtr[float32_t], workspace: GmPtr[uint8_t]) -> None:
    SetSysWorkspace(workspace)
    user = GetUserWorkspace(workspace).cast(float32_t)
    idx = int(C.block_idx)
    (user + 8 * idx).write(x.read(8) + idx)


def test_blocks_use_the_user_workspace() -> None:
    x = GlobalMemory().alloc(float32_t, 8)
    x.write(np.arange(8, dtype=np.float32))
    ws = GlobalMemory().alloc(uint8_t, RESERVED_WORKSPACE + 64)
    with_workspace[2, 0](x, ws)
    user = (ws + RESERVED_WORKSPACE).cast(float32_t).read(16)
    np.testing.assert_array_equal(user, np.concatenate([np.arange(8), np.arange(8) + 1]))

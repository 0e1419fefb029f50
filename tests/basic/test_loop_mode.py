"""DataCopyPad's PaddingMode and the loop mode (SetLoopModePara / ResetLoopModePara)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half, int8_t, int16_t
from ascreg.basic import (
    PIPE_ALL,
    DataCopy,
    DataCopyExtParams,
    DataCopyMVType,
    DataCopyPad,
    DataCopyPadExtParams,
    Duplicate,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    LoopModeParams,
    PaddingMode,
    PipeBarrier,
    ResetLoopModePara,
    SetLoopModePara,
)
from ascreg.errors import AscregTypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.sysregs import system_registers
from reference import copy_loops as ref

UB_BYTES = 2048


def gm_tensor(dtype: Any, data: np.ndarray[Any, Any]) -> GlobalTensor[Any]:
    ptr = GlobalMemory().alloc(dtype, data.size)
    ptr.write(data)
    tensor = GlobalTensor[dtype]()
    tensor.SetGlobalBuffer(ptr, data.size)
    return tensor


def devkit_input(count: int) -> np.ndarray[Any, Any]:
    return (np.arange(count) * 7 % 251 - 125).astype(np.int8)


def run_in(dtype: Any, src: np.ndarray[Any, Any], ub_elems: int, body: Any) -> np.ndarray[Any, Any]:
    """Zero a UB tensor, run ``body(local, global)`` in a block, return the UB contents."""
    xGm = gm_tensor(dtype, src)
    with block(BlockContext()):
        local = LocalMemAllocator[Hardware.UB]().Alloc[dtype, ub_elems]()
        Duplicate(local, 0, ub_elems)
        PipeBarrier[PIPE_ALL]()
        body(local, xGm)
        PipeBarrier[PIPE_ALL]()
        return local.GetPhyAddr().read(ub_elems)


def test_compact_packs_the_blocks_and_fills_the_end() -> None:
    """The devkit's scenario 3: 3 rows of 24 halves packed, then filled to 160 bytes."""
    src = np.arange(1, 73).astype(np.float16)

    def body(local: Any, xGm: Any) -> None:
        DataCopyPad[half, PaddingMode.Compact](
            local, xGm, DataCopyExtParams(3, 48, 0, 0, 0), DataCopyPadExtParams(True, 0, 8, 0.0)
        )

    out = run_in(half, src, 96, body)
    assert out[:72].tolist() == src.tolist()
    assert out[72:96].tolist() == [0.0] * 24


@pytest.mark.parametrize(
    ("mode", "expected_fill"), [(PaddingMode.Compact, (80, 96)), (PaddingMode.Normal, None)]
)
def test_loop_mode_matches_the_devkit_scenarios(mode: PaddingMode, expected_fill: Any) -> None:
    """Scenarios 4 and 5: two loops of two copies of two 40-byte blocks, pad value -1."""
    src = devkit_input(320)

    def body(local: Any, xGm: Any) -> None:
        SetLoopModePara(LoopModeParams(2, 2, 80, 128, 160, 288), DataCopyMVType.OUT_TO_UB)
        DataCopyPad[int8_t, mode](local, xGm, (2, 40, 0, 0, 0), (True, 0, 0, -1))
        ResetLoopModePara(DataCopyMVType.OUT_TO_UB)

    out = run_in(int8_t, src, 576, body)
    want = bytearray(576)
    ref.gm_to_ub(
        want,
        src.tobytes(),
        1,
        (2, 40, 0, 0),
        (True, 0, 0, b"\xff"),
        mode is PaddingMode.Compact,
        (2, 2, 80, 128, 160, 288),
    )
    assert out.tobytes() == bytes(want)
    if mode is PaddingMode.Normal:  # each 40-byte block filled to 64 with -1
        assert out[40:64].tolist() == [-1] * 24
    else:
        assert out[slice(*expected_fill)].tolist() == [-1] * 16


def test_loop_mode_five_dimensional_copy() -> None:
    """Scenario 6, smaller: GM [2, 3, 8, 14] int8, copy [2, 2, 4, 14] padded to 16 per row."""
    src = devkit_input(2 * 3 * 8 * 14)
    volume = src.reshape(2, 3, 8, 14)

    def body(local: Any, xGm: Any) -> None:
        SetLoopModePara(LoopModeParams(2, 2, 8 * 14, 4 * 32, 3 * 8 * 14, 2 * 4 * 32),
                        DataCopyMVType.OUT_TO_UB)  # fmt: skip
        DataCopyPad(local, xGm, DataCopyExtParams(4, 14, 0, 0, 0), (True, 0, 0, 0))
        ResetLoopModePara(DataCopyMVType.OUT_TO_UB)

    out = run_in(int8_t, src, 16 * 32, body).reshape(2, 2, 4, 32)
    assert (out[:, :, :, :14] == volume[:2, :2, :4]).all()
    assert (out[:, :, :, 14:] == 0).all()


def test_loop_mode_ub_to_gm_and_plain_datacopy() -> None:
    """UB_TO_OUT repeats UB -> GM copies; OUT_TO_UB repeats a plain DataCopy too."""
    src = np.arange(64, dtype=np.float32)
    out_ptr = GlobalMemory().alloc(float32_t, 64)
    out_ptr.write(np.zeros(64, np.float32))
    outGm = GlobalTensor[float32_t]()
    outGm.SetGlobalBuffer(out_ptr, 64)
    xGm = gm_tensor(float32_t, src)
    with block(BlockContext()):
        local = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
        SetLoopModePara(LoopModeParams(2, 1, 128, 64, 0, 0), DataCopyMVType.OUT_TO_UB)
        DataCopy(local, xGm, 16)  # GM [0, 16) and [32, 48) -> UB [0, 16) and [16, 32)
        ResetLoopModePara(DataCopyMVType.OUT_TO_UB)
        PipeBarrier[PIPE_ALL]()
        SetLoopModePara(LoopModeParams(1, 2, 0, 0, 64, 160), DataCopyMVType.UB_TO_OUT)
        DataCopyPad(outGm, local, DataCopyExtParams(2, 8, 0, 4, 0))
        ResetLoopModePara(DataCopyMVType.UB_TO_OUT)
        PipeBarrier[PIPE_ALL]()
        ub = local.GetPhyAddr().read(32)
    assert ub.tolist() == list(range(16)) + list(range(32, 48))
    want = bytearray(256)
    ref.ub_to_gm(want, ub.tobytes() + bytes(128), (2, 8, 0, 4), False, (1, 2, 0, 0, 64, 160))
    assert out_ptr.read(64).tobytes() == bytes(want)


def test_compact_ub_to_gm_reads_packed_blocks() -> None:
    out_ptr = GlobalMemory().alloc(int16_t, 32)
    out_ptr.write(np.zeros(32, np.int16))
    outGm = GlobalTensor[int16_t]()
    outGm.SetGlobalBuffer(out_ptr, 32)
    with block(BlockContext()):
        local = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 16]()
        local.GetPhyAddr().write(np.arange(16, dtype=np.int16))
        PipeBarrier[PIPE_ALL]()
        DataCopyPad[int16_t, PaddingMode.Compact](outGm, local, (3, 6, 5, 2, 0))
        PipeBarrier[PIPE_ALL]()
    assert out_ptr.read(12).tolist() == [0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0]


@given(
    dtype=st.sampled_from([(int8_t, 1), (half, 2), (float32_t, 4)]),
    count=st.integers(1, 3),
    length=st.integers(1, 12),
    src_gap=st.integers(0, 8),
    dst_gap=st.integers(0, 1),
    pads=st.tuples(st.booleans(), st.integers(0, 2), st.integers(0, 2)),
    compact=st.booleans(),
    loop=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 64), st.integers(0, 2)),
)
def test_datacopypad_gm_to_ub_matches_the_reference(
    dtype: Any,
    count: int,
    length: int,
    src_gap: int,
    dst_gap: int,
    pads: tuple[bool, int, int],
    compact: bool,
    loop: tuple[int, int, int, int],
) -> None:
    ctype, size = dtype
    is_pad, left, right = pads
    l1, l2, s1, d1_blocks = loop
    block_bytes = -(-((left + right) * size + length * size) // 32) * 32 + dst_gap * 32
    d1 = d1_blocks * 32 + count * block_bytes
    loops = (l1, l2, s1 * size, d1, 2 * s1 * size + 64 * size, 2 * d1 + 64)
    src = (np.arange(1024) % 97 + 1).astype(ctype.np_dtype)
    ub_elems = UB_BYTES // size

    def body(local: Any, xGm: Any) -> None:
        SetLoopModePara(LoopModeParams(*loops), DataCopyMVType.OUT_TO_UB)
        mode = PaddingMode.Compact if compact else PaddingMode.Normal
        DataCopyPad[ctype, mode](
            local, xGm, (count, length * size, src_gap * size, dst_gap, 0), (is_pad, left, right, 5)
        )
        ResetLoopModePara(DataCopyMVType.OUT_TO_UB)

    out = run_in(ctype, src, ub_elems, body)
    want = bytearray(UB_BYTES)
    copy = (count, length * size, src_gap * size, dst_gap)
    value = ref.as_bytes([5], ctype.np_dtype)
    ref.gm_to_ub(want, src.tobytes(), size, copy, (is_pad, left, right, value), compact, loops)
    assert out.tobytes() == bytes(want)


def test_loop_mode_rules() -> None:
    xGm = gm_tensor(int8_t, devkit_input(64))
    with block(BlockContext()):
        local = LocalMemAllocator[Hardware.UB]().Alloc[int8_t, 64]()
        with pytest.raises(AscregTypeError, match="loop1DstStride 48 must be a multiple of 32"):
            SetLoopModePara(LoopModeParams(2, 1, 0, 48, 0, 0), DataCopyMVType.OUT_TO_UB)
        with pytest.raises(AscregTypeError, match="loop1SrcStride 48 must be a multiple of 32"):
            SetLoopModePara(LoopModeParams(2, 1, 48, 0, 0, 0), DataCopyMVType.UB_TO_OUT)
        with pytest.raises(AscregTypeError, match=r"loop2Size 2097152 must be in \[0, 2097151\]"):
            SetLoopModePara(LoopModeParams(1, 1 << 21, 0, 0, 0, 0), DataCopyMVType.OUT_TO_UB)
        with pytest.raises(AscregTypeError, match="must be a DataCopyMVType member"):
            ResetLoopModePara(1)  # type: ignore[arg-type]
        SetLoopModePara(LoopModeParams(3, 1, 0, 32, 0, 0), DataCopyMVType.OUT_TO_UB)
        with pytest.raises(OutOfBoundsError, match="the copy spans 96 bytes of dst"):
            DataCopy(local, xGm, 32)
        ResetLoopModePara(DataCopyMVType.OUT_TO_UB)
        assert system_registers().copy_loops["gm2ub"].sizes == (1, 1)
        with pytest.raises(AscregTypeError, match="a PaddingMode member"):
            DataCopyPad[int8_t, 1](local, xGm, (1, 32, 0, 0, 0), (True, 0, 0, 0))  # type: ignore[misc]

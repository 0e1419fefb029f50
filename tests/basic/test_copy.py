"""DataCopy / DataCopyPad / Duplicate on tensors, and the tensor views they take."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, float32_t, half, int16_t, uint8_t
from ascreg.basic import (
    PIPE_ALL,
    CeilDivision,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    DataCopyPadExtParams,
    DataCopyParams,
    Duplicate,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    LocalTensor,
    PipeBarrier,
    TPosition,
)
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError, SyncError
from ascreg.machine.block import BlockContext, block


def gm(dtype, values):  # type: ignore[no-untyped-def]
    ptr = GlobalMemory().alloc(dtype, len(values))
    ptr.write(values)
    tensor = GlobalTensor[dtype]()
    tensor.SetGlobalBuffer(ptr, len(values))
    return tensor


def ub(dtype, count):  # type: ignore[no-untyped-def]
    return LocalMemAllocator[Hardware.UB]().Alloc[dtype, count]()


def test_datacopypad_pads_each_block_to_32_bytes() -> None:
    """Two blocks of 5 halves (10 bytes) 2 bytes apart in GM; each fills 32 bytes in UB."""
    src = gm(half, np.arange(1, 13))
    with block(BlockContext()):
        dst = ub(half, 48)
        Duplicate(dst, -9.0, 48)
        PipeBarrier[PIPE_ALL]()
        DataCopyPad(
            dst, src, DataCopyExtParams(2, 10, 2, 1, 0), DataCopyPadExtParams(False, 0, 0, 0)
        )
        PipeBarrier[PIPE_ALL]()
        out = dst.GetPhyAddr().read(48).tolist()
    # block 0: 1..5 then dummy = its first element; block 1 starts 32 + 32 (dstStride 1) bytes on
    assert out[:16] == [1, 2, 3, 4, 5] + [1] * 11
    assert out[16:32] == [-9.0] * 16
    assert out[32:48] == [7, 8, 9, 10, 11] + [7] * 11


def test_datacopypad_left_and_right_pads_take_the_pad_value() -> None:
    src = gm(float32_t, [1, 2, 3])
    with block(BlockContext()):
        dst = ub(float32_t, 8)
        DataCopyPad[float32_t](dst, src, (1, 12, 0, 0, 0), (True, 1, 2, 5.0))
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(8).tolist() == [5, 1, 2, 3, 5, 5, 5, 5]
        PipeBarrier[PIPE_ALL]()
        # isPad false: the SetPadValue constant (0 after InitSocState) stands in for the
        # chip's undefined pad bytes
        DataCopyPad(dst, src, (1, 12, 0, 0, 0), (False, 0, 1, 5.0))
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(8).tolist() == [1, 2, 3, 0, 0, 0, 0, 0]


def test_datacopypad_ub_to_gm_drops_the_fill() -> None:
    out = gm(int16_t, [0] * 12)
    with block(BlockContext()):
        src = ub(int16_t, 32)
        src.GetPhyAddr().write(np.arange(32))
        PipeBarrier[PIPE_ALL]()
        DataCopyPad(out, src, DataCopyExtParams(2, 6, 0, 2, 0))
    assert out.GetPhyAddr().read(12).tolist() == [0, 1, 2, 0, 16, 17, 18, 0, 0, 0, 0, 0]


def test_datacopypad_rules() -> None:
    src = gm(float32_t, [1, 2, 3, 4])
    with block(BlockContext()):
        dst = ub(float32_t, 24)
        with pytest.raises(AscregError, match="blockLen 6 is not a multiple of sizeof"):
            DataCopyPad(dst, src, (1, 6, 0, 0, 0), (False, 0, 0, 0))
        with pytest.raises(AscregError, match="right_pad 9 elements is more than 32 bytes"):
            DataCopyPad(dst, src, (1, 4, 0, 0, 0), (True, 0, 9, 0))
        with pytest.raises(
            AscregTypeError,
            match=r"DataCopyPad<half, PaddingMode.Normal>: LocalTensor<float> does not hold T = half",
        ):
            DataCopyPad[half](dst, src, (1, 4, 0, 0, 0), (True, 0, 0, 0))
        with pytest.raises(AscregTypeError, match="takes DataCopyPadExtParams"):
            DataCopyPad(dst, src, (1, 4, 0, 0, 0))
        with pytest.raises(OutOfBoundsError, match="holds 4 elements"):
            DataCopyPad(dst, src, (2, 8, 4, 0, 0), (False, 0, 0, 0))
        DataCopyPad(dst, src, (0, 16, 0, 0, 0), (False, 0, 0, 0))  # blockCount 0: a no-op


def test_datacopy_params_and_count_rules() -> None:
    src = gm(float32_t, np.arange(64))
    with block(BlockContext()):
        dst = ub(float32_t, 32)
        DataCopy(dst, src, DataCopyParams(2, 1, 2, 1))
        PipeBarrier[PIPE_ALL]()
        first, second = (
            dst.GetPhyAddr().read(8),
            (dst.GetPhyAddr() + 16).read(8),
        )  # the gap is garbage
        assert first.tolist() == list(range(8)) and second.tolist() == list(range(24, 32))
        with pytest.raises(AscregError, match="positive multiple of 32"):
            DataCopy(dst, src, 7)
        with pytest.raises(OutOfBoundsError, match="holds 32 elements"):
            DataCopy(dst, src, 64)
        with pytest.raises(AscregTypeError, match="dst holds float but src holds uint8_t"):
            DataCopy(dst, gm(uint8_t, [0] * 32), 32)
        with pytest.raises(AscregTypeError, match="GM -> UB"):
            DataCopy(dst, dst, 32)


def test_duplicate_rules_and_pipe() -> None:
    with block(BlockContext()):
        dst = ub(int16_t, 16)
        Duplicate(dst, 7, 16)
        with pytest.raises(SyncError, match="PIPE_S reads"):
            dst.GetValue(0)  # a scalar read of what the vector pipe wrote needs V_S first
    with block(BlockContext()):
        dst = ub(int16_t, 16)
        with pytest.raises(AscregError, match="cannot store 70000 as int16_t"):
            Duplicate(dst, 70000, 16)
        with pytest.raises(OutOfBoundsError, match="reaches element 16 of the 16-element"):
            Duplicate(dst, 1, 17)
        with pytest.raises(AscregTypeError, match=r"Duplicate: template argument half does not"):
            Duplicate[half](dst, 1, 16)
        src = ub(int16_t, 16)
        src.SetValue(0, -4)
        PipeBarrier[PIPE_ALL]()
        Duplicate(dst, src, 16)
        PipeBarrier[PIPE_ALL]()
        assert dst.GetPhyAddr().read(16).tolist() == [-4] * 16


def test_tensor_views() -> None:
    g = gm(float32_t, np.arange(16))
    assert g[4][2].GetValue(0) == 6 and g[4].GetSize() == 12
    g[15].SetValue(0, -1)
    assert g.GetValue(15) == -1
    with pytest.raises(OutOfBoundsError, match=r"GlobalTensor::operator\[\]: offset 17"):
        g[17]
    with pytest.raises(OutOfBoundsError, match="element 16 of the 16-element"):
        g.GetValue(16)
    with block(BlockContext()):
        t = LocalTensor[float32_t](TPosition.VECCALC, 256, 8)
        assert t[3].GetPhyAddr().address == 256 + 12 and t.GetLength() == 32
        with pytest.raises(AscregError, match="not 32-byte aligned"):
            LocalTensor[float32_t](TPosition.VECCALC, 4, 8)
        with pytest.raises(OutOfBoundsError, match="leaves the 253952-byte UB"):
            LocalTensor[float32_t](TPosition.VECCALC, 253952 - 32, 16)
        with pytest.raises(AscregError, match="has no buffer"):
            LocalTensor[float32_t]().GetPhyAddr()


def test_ceil_division() -> None:
    assert [CeilDivision(a, 64) for a in (1, 64, 65)] == [1, 1, 2]
    assert CeilDivision(3, 0) == 0


def test_a_known_copy_form_is_checked_again_where_it_depends_on_the_call() -> None:
    """A form checked once (its burst kept) still meets each call's bounds, pads and flags."""
    src = gm(float32_t, np.arange(16))
    with block(BlockContext()) as ctx:
        big, small = ub(float32_t, 16), ub(float32_t, 8)
        form = ((1, 16 * 4, 0, 0, 0), (False, 0, 0, 0))
        DataCopyPad(big, src, *form)
        with pytest.raises(OutOfBoundsError, match="holds 8 elements"):
            DataCopyPad(small, src, *form)
        with pytest.raises(SyncError, match="an earlier PIPE_MTE2 copy wrote"):
            DataCopyPad(big, src, *form)
        PipeBarrier[PIPE_ALL]()
        with pytest.raises(OutOfBoundsError, match="holds 8 elements"):
            DataCopy(small, src, 16)
        pads = ((1, 3 * 4, 0, 0, 0), (False, 1, 0, 0))  # a left pad, three elements, the fill
        for fill in (7, 9):  # the SetPadValue value is read by every call
            ctx.state["pad_value"] = fill
            DataCopyPad(small, src, *pads)
            PipeBarrier[PIPE_ALL]()
            assert small.GetPhyAddr().read(8).tolist() == [fill, 0, 1, 2] + [fill] * 4
            PipeBarrier[PIPE_ALL]()


def test_blocks_writing_apart_then_one_overwriting_another_still_race() -> None:
    """The race check notes writes to unwritten bytes; a later overlap still names the writer."""
    from ascreg.machine.races import GmRaceCheck

    out = GlobalMemory().alloc(float32_t, 64)
    check = GmRaceCheck("k", (out,), {})
    try:
        for b in range(4):
            check.block = b
            (out + 16 * b).write(np.zeros(16, np.float32))
        check.block = 1
        (out + 16).write(np.ones(16, np.float32))  # its own bytes again: fine
        check.block = 3
        with pytest.raises(SyncError, match=r"block 3 writes __gm__ \[0x3c, 0x44\) that block 0"):
            (out + 15).write(np.ones(2, np.float32))
        check.new_phase()
        (out + 15).write(np.ones(2, np.float32))  # a new phase forgets the writers
    finally:
        check.detach()


@pytest.mark.parametrize(("count", "length", "src_gap", "dst_gap"), [(1, 40, 0, 0), (3, 12, 1, 20)])
def test_datacopypad_ub_to_gm_takes_datacopyparams_as_the_ext_params(
    count: int, length: int, src_gap: int, dst_gap: int
) -> None:
    """The dav-3510 header's ``DataCopyPad(GlobalTensor, LocalTensor, DataCopyParams)``: the
    fields mean what the ``DataCopyExtParams`` ones do (blockLen bytes, srcStride blocks,
    dstStride bytes)."""
    outs = []
    for params in (
        DataCopyParams(count, length, src_gap, dst_gap),
        DataCopyExtParams(count, length, src_gap, dst_gap, 0),
    ):
        out = GlobalMemory().alloc(uint8_t, 512)
        out.write(np.zeros(512, np.uint8))
        gm = GlobalTensor[uint8_t]()
        gm.SetGlobalBuffer(out)
        with block(BlockContext()):
            ub = LocalTensor[uint8_t](TPosition.VECOUT, 0, 512)
            ub.GetPhyAddr().write((np.arange(512) % 251).astype(np.uint8))
            PipeBarrier[PIPE_ALL]()
            DataCopyPad(gm, ub, params)
        outs.append(out.read(512))
    np.testing.assert_array_equal(outs[0], outs[1])
    assert outs[0].any()


def test_datacopypad_gm_to_ub_refuses_datacopyparams() -> None:
    gm = GlobalTensor[uint8_t]()
    gm.SetGlobalBuffer(GlobalMemory().alloc(uint8_t, 64))
    with block(BlockContext()):
        ub = LocalTensor[uint8_t](TPosition.VECIN, 0, 64)
        with pytest.raises(AscregTypeError, match="the DataCopyParams form is UB -> GM only"):
            DataCopyPad(ub, gm, DataCopyParams(1, 32, 0, 0), DataCopyPadExtParams[uint8_t]())

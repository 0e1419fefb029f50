"""TBuffAddr and LocalTensor.SetAddr: a kernel points a tensor at a buffer address record.

The conv kernels (conv2d_v2 / conv3d_v2 ``*_instr_base_impl.h``) keep a ``TBuffAddr`` member,
fill ``dataLen`` (bytes), ``logicPos`` (``(uint8_t)QuePosition::A1``) and ``bufferAddr`` (an
L1 tensor's ``GetPhyAddr()``), then ``al1tmp.SetAddr(buffAddr)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import float32_t, half, int8_t, uint16_t
from ascreg.basic import LocalTensor, QuePosition, TBuffAddr, TPosition
from ascreg.errors import AlignmentError, AscregTypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block

UB_BYTES = 253952
DTYPES = (int8_t, half, uint16_t, float32_t)


def test_the_conv_kernels_spelling_points_a_tensor_into_l1() -> None:
    with block(BlockContext()):
        al1 = LocalTensor[half](TPosition.A1, 1024, 256)
        buffAddr = TBuffAddr()
        buffAddr.dataLen = 512
        buffAddr.logicPos = np.uint8(QuePosition.A1.value)
        buffAddr.bufferAddr = al1.GetPhyAddr()
        al1tmp = LocalTensor[uint16_t]()
        al1tmp.SetAddr(buffAddr)
        assert al1tmp.GetPosition() is TPosition.A1
        assert (al1tmp.GetSize(), al1tmp.GetPhyAddr().address) == (256, 1024)
        assert al1tmp.GetPhyAddr().space == al1.GetPhyAddr().space == "__cbuf__"


def test_writes_through_the_tensor_land_at_the_recorded_ub_bytes() -> None:
    with block(BlockContext()) as ctx:
        t = LocalTensor[float32_t]()
        t.SetAddr(TBuffAddr(dataLen=40, bufferAddr=128, logicPos=TPosition.VECIN))
        for i in range(t.GetSize()):
            t.SetValue(i, float(i) + 0.5)
        raw = ctx.ub.pointer(float32_t, 128).read(10)
        np.testing.assert_array_equal(raw, np.arange(10, dtype=np.float32) + 0.5)
        assert t.GetSize() == 10
        with pytest.raises(OutOfBoundsError, match="element 10 of the 10-element"):
            t.GetValue(10)


@given(
    dtype=st.sampled_from(DTYPES),
    blocks=st.integers(0, UB_BYTES // 32 - 1),
    data_len=st.integers(0, 4096),
    pos=st.sampled_from((TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)),
)
def test_set_addr_is_the_position_address_and_length_constructor(
    dtype: Any, blocks: int, data_len: int, pos: TPosition
) -> None:
    """Reference: ``SetAddr`` makes the tensor ``LocalTensor<T>(pos, addr, dataLen / sizeof(T))``
    (``address_ = address``: the record's byte length in whole elements)."""
    addr = blocks * 32
    fits = addr + data_len // dtype.size * dtype.size <= UB_BYTES
    with block(BlockContext()):
        t = LocalTensor[dtype]()
        if not fits:
            with pytest.raises(OutOfBoundsError, match="leaves the 253952-byte UB"):
                t.SetAddr(TBuffAddr(data_len, addr, None, pos.value))
            return
        t.SetAddr(TBuffAddr(data_len, addr, None, pos.value))
        assert (t.GetPosition(), t.GetSize()) == (pos, data_len // dtype.size)
        assert t.GetPhyAddr().address == addr
        assert t.GetLength() == data_len - data_len % dtype.size


@pytest.mark.parametrize(
    ("address", "error", "message"),
    [
        (TBuffAddr(64, 16, None, TPosition.VECCALC.value), AlignmentError, "0x10 is not 32-byte"),
        (TBuffAddr(64, 256, None, TPosition.A2.value), AlignmentError, "not 512-byte aligned"),
        (TBuffAddr(64, UB_BYTES - 32, None, 11), OutOfBoundsError, "leaves the 253952-byte UB"),
        (TBuffAddr(64, 0, None, 0), AscregTypeError, "lives in UB .* not TPosition.GM"),
        (TBuffAddr(64, 0, None, 99), AscregTypeError, "logicPos 99 is no TPosition value"),
        (TBuffAddr(64, -32, None, 11), AscregTypeError, r"bufferAddr -32 is outside \[0,"),
        (TBuffAddr(1.5, 0, None, 11), AscregTypeError, "dataLen"),
    ],
)
def test_set_addr_errors_name_the_call_the_value_and_the_rule(
    address: TBuffAddr, error: type[Exception], message: str
) -> None:
    with block(BlockContext()), pytest.raises(error, match=message) as info:
        LocalTensor[half]().SetAddr(address)
    assert "LocalTensor" in str(info.value)


def test_set_addr_takes_only_an_address_record() -> None:
    with block(BlockContext()), pytest.raises(AscregTypeError, match="SetAddr takes a TBuffAddr"):
        LocalTensor[half]().SetAddr(128)  # type: ignore[arg-type]

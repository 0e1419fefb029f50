"""LocalTensor.SetSize / SetBufferLen: the length a reused tensor reports and is checked by."""

from __future__ import annotations

import pytest

from ascreg import float32_t, half
from ascreg.basic import LocalTensor, TPosition
from ascreg.errors import AscregTypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block


def test_set_size_and_buffer_len() -> None:
    with block(BlockContext()):
        t = LocalTensor[half](TPosition.VECCALC, 64, 32)
        t.SetSize(100)
        assert (t.GetSize(), t.GetLength()) == (100, 200)
        t.SetBufferLen(30)  # bytes: 15 halves
        assert t.GetSize() == 15
        assert t[10].GetSize() == 5
        with pytest.raises(OutOfBoundsError, match="past the 253952-byte UB"):
            t.SetSize(200000)
        with pytest.raises(AscregTypeError, match="size"):
            t.SetSize(-1)
        u = LocalTensor[float32_t](TPosition.VECCALC, 0, 8)
        u.SetBufferLen(1024)
        assert u.GetSize() == 256

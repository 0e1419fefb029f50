"""``LocalTensor.SetAddrWithOffset`` and ``LocalTensor.ToFile`` (the 950 pages of LocalTensor)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import float32_t, half, int16_t, uint8_t
from ascreg.basic import Hardware, LocalMemAllocator, LocalTensor, TPosition
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError
from ascreg.machine.block import BlockContext, block


@given(offset=st.integers(0, 63), seed=st.integers(0, 2**16))
def test_the_view_reads_the_source_bytes_from_the_offset(offset: int, seed: int) -> None:
    """The view starts ``offset * sizeof(S)`` bytes into src, as reinterpreting its bytes does."""
    values = np.random.default_rng(seed).integers(-(2**15), 2**15, 64).astype(np.int16)
    with block(BlockContext()):
        src = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 64]()
        src.GetPhyAddr().write(values)
        view = LocalTensor[uint8_t]()
        view.SetAddrWithOffset(src, offset)
        assert view.GetSize() == 128 and view.GetPosition() is TPosition.VECCALC
        tail = 128 - 2 * offset  # the bytes of src after the offset
        got = view.GetPhyAddr().read(tail)
        assert got.tobytes() == values[offset:].tobytes()
        if offset:
            with pytest.raises(OutOfBoundsError):  # the view runs past src's allocation
                view.GetPhyAddr().read(128)


def test_set_addr_with_offset_refuses_bad_operands() -> None:
    with block(BlockContext()):
        src = LocalTensor[float32_t](TPosition.VECIN, 0, 16)
        view = LocalTensor[half]()
        with pytest.raises(AscregTypeError, match="src must be a LocalTensor"):
            view.SetAddrWithOffset(np.zeros(4), 1)  # type: ignore[arg-type]
        with pytest.raises(AscregError, match="offset"):
            view.SetAddrWithOffset(src, -1)
        with pytest.raises(AscregError, match="has no buffer"):
            view.SetAddrWithOffset(LocalTensor[float32_t](), 0)


def test_to_file_writes_the_raw_elements(tmp_path: Path) -> None:
    path = tmp_path / "t.bin"
    values = (np.arange(32) * 1.5).astype(np.float16)
    with block(BlockContext()):
        t = LocalMemAllocator[Hardware.UB]().Alloc[half, 32]()
        t.GetPhyAddr().write(values)
        assert t.ToFile(str(path)) == 0
        assert t.ToFile(str(tmp_path)) == 1  # a directory: the write fails, non-zero
        with pytest.raises(AscregTypeError, match="fileName must be a str"):
            t.ToFile(path)  # type: ignore[arg-type]
    assert path.read_bytes() == values.tobytes()

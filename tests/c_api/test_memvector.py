"""Memory-level vector functions of the C API (asc_transpose) against a per-element reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import int16_t, int32_t, uint16_t
from ascreg.errors import AlignmentError, AscregTypeError, IllegalDtypeError, SyncError
from ascreg.machine.kernel import BlockContext, block


def transposed(values: list[int]) -> list[int]:
    """asc_transpose.md: element (row, column) of the 16 x 16 source lands at (column, row)."""
    out = [0] * 256
    for row in range(16):
        for column in range(16):
            out[column * 16 + row] = values[row * 16 + column]
    return out


@pytest.mark.rows("asc_transpose", "asc_transpose_sync")
@pytest.mark.parametrize("dtype", [int16_t, uint16_t], ids=str)
@pytest.mark.parametrize("name", ["asc_transpose", "asc_transpose_sync"])
@given(raw=st.binary(min_size=512, max_size=512))
def test_transpose_matches_the_reference(dtype: Any, name: str, raw: bytes) -> None:
    values = np.frombuffer(raw, dtype.np_dtype)
    with block(BlockContext()):
        dst, src = C.__ubuf__(dtype, 256), C.__ubuf__(dtype, 256)
        src.write(values)
        C.asc_sync()
        getattr(C, name)(dst, src)
        if name == "asc_transpose":
            C.asc_sync_vec()
        got = dst.read(256).tolist()
    assert got == transposed(values.tolist())


def test_transpose_checks_types_alignment_and_ordering() -> None:
    with block(BlockContext()):
        a, b = C.__ubuf__(int16_t, 512), C.__ubuf__(int16_t, 256)
        a.write(np.zeros(512, np.int16))
        with pytest.raises(SyncError):
            C.asc_transpose(b, a)  # PIPE_V reads what PIPE_S wrote, unordered
        C.asc_sync()
        with pytest.raises(AlignmentError):
            C.asc_transpose(b, a + 1)
        with pytest.raises(IllegalDtypeError, match="asc_transpose: illegal dtypes"):
            C.asc_transpose(C.__ubuf__(int32_t, 128), C.__ubuf__(int32_t, 128))
        with pytest.raises(AscregTypeError, match="one element type"):
            C.asc_transpose(b, C.__ubuf__(uint16_t, 256))
        with pytest.raises(AscregTypeError, match="src"):
            C.asc_transpose(b, 3)

"""The basic API's Mmad mode switches: SetHF32Mode, SetHF32TransMode, SetMMRowMajor/ColumnMajor.

They write the CTRL bits of the 950 header (46, 47, 51), the C API's mode setters write the
same bits, and ``Mmad`` consults them: a float Mmad with HF32 on raises (the HF32 format is a
figure only), the result order changes no value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import float32_t, half
from ascreg.basic import (
    PIPE_ALL,
    GetCtrlSpr,
    HF32Mode,
    HF32TransMode,
    LocalTensor,
    Mmad,
    MmadParams,
    PipeBarrier,
    SetHF32Mode,
    SetHF32TransMode,
    SetMMColumnMajor,
    SetMMRowMajor,
    TPosition,
)
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block


def _mmad(dtype: Any) -> np.ndarray:
    """A 16 x k x 16 Mmad of *dtype* operands 1.5 and 2; return C's first row."""
    n = 512 // dtype.size
    a = LocalTensor[dtype](TPosition.A2, 0, n)
    b = LocalTensor[dtype](TPosition.B2, 0, n)
    a.GetPhyAddr().write(np.full(n, 1.5, dtype.np_dtype))
    b.GetPhyAddr().write(np.full(n, 2.0, dtype.np_dtype))
    c = LocalTensor[float32_t](TPosition.CO1, 0, 256)
    PipeBarrier[PIPE_ALL]()
    Mmad(c, a, b, MmadParams(16, 16, 32 // dtype.size))
    PipeBarrier[PIPE_ALL]()
    return np.asarray(c.GetPhyAddr().read(16))


def test_hf32_refuses_a_float_mmad_and_leaves_half_alone() -> None:
    with block(BlockContext()):
        SetHF32Mode(HF32Mode.ENABLE)
        assert GetCtrlSpr[46, 46]() == 1
        assert _mmad(half)[0] == 16 * 3.0
        with pytest.raises(UnsupportedError, match="Mmad: float32 operands with HF32 on"):
            _mmad(float32_t)
        SetHF32Mode(HF32Mode.DISABLE)
        assert _mmad(float32_t)[0] == 8 * 3.0


def test_the_rounding_and_order_bits() -> None:
    with block(BlockContext()):
        SetHF32TransMode(HF32TransMode.NEAREST_ZERO)
        assert GetCtrlSpr[47, 47]() == 1
        SetHF32TransMode(HF32TransMode.NEAREST_EVEN)
        assert GetCtrlSpr[47, 47]() == 0
        first = _mmad(half)
        SetMMRowMajor()
        assert GetCtrlSpr[51, 51]() == 1
        assert (_mmad(half) == first).all()
        SetMMColumnMajor()
        assert GetCtrlSpr[51, 51]() == 0


def test_the_c_api_and_the_basic_api_share_the_bits() -> None:
    with block(BlockContext()):
        C.asc_enable_hf32()
        with pytest.raises(UnsupportedError, match="HF32 on"):
            _mmad(float32_t)
        SetHF32Mode(HF32Mode.DISABLE)
        assert not C.asc_get_ctrl() >> 46 & 1
        C.asc_set_mmad_direction_n()
        assert GetCtrlSpr[51, 51]() == 1


@pytest.mark.parametrize(
    ("call", "arg", "match"),
    [
        (SetHF32Mode, True, "SetHF32Mode: mode must be an HF32Mode, got True"),
        (SetHF32TransMode, HF32Mode.ENABLE, "SetHF32TransMode: mode must be an HF32TransMode"),
    ],
)
def test_the_setters_take_their_enums(call: Any, arg: Any, match: str) -> None:
    with block(BlockContext()), pytest.raises(AscregTypeError, match=match):
        call(arg)

"""Debugging aids: registers print their lanes in their dtype, masks print a summary, and
``numpy.asarray`` hands out copies."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import MaskPattern, Ref, Reg, RegTraitNumTwo, half, int8_t, int64_t, uint16_t, uint32_t


def test_print_register_shows_lanes_in_dtype(capsys: pytest.CaptureFixture[str]) -> None:
    reg = Reg.RegTensor[half]()
    reg.set(np.arange(128, dtype=np.float16) / 2)
    print(reg)
    out = capsys.readouterr().out
    assert out.startswith("RegTensor[half]")
    assert "0.5" in out and "63.5" in out  # values as half, not raw bits

    signed = Reg.RegTensor[int8_t]()
    signed.set(np.full(256, -3, dtype=np.int8))
    print(signed)
    assert "-3" in capsys.readouterr().out


def test_print_unwritten_register() -> None:
    assert str(Reg.RegTensor[uint32_t]()) == "RegTensor[uint32_t] <never written>"


def test_print_mask_summary(capsys: pytest.CaptureFixture[str]) -> None:
    print(Reg.UpdateMask[uint16_t](Ref(100)))
    print(Reg.CreateMask[uint32_t, MaskPattern.ALLF]())
    print(Reg.CreateMask[int64_t, MaskPattern.Q]())
    print(Reg.MaskReg())
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "MaskReg(b16: lanes 0-99 on, 100 of 128)",
        "MaskReg(all off)",
        "MaskReg(b64: lanes 0-7 on, 8 of 32)",
        "MaskReg(<never written>)",
    ]


def test_asarray_of_a_register_is_a_copy() -> None:
    reg = Reg.RegTensor[uint16_t]()
    reg.set(np.arange(128))
    lanes = np.asarray(reg)
    assert lanes.dtype == np.uint16 and lanes.shape == (128,)
    lanes[:] = 0
    assert np.asarray(reg)[5] == 5
    assert np.asarray(reg, dtype=np.float32)[5] == np.float32(5)


def test_asarray_of_trait_two_register_and_mask() -> None:
    reg = Reg.RegTensor[int64_t, RegTraitNumTwo]()
    reg.set(np.arange(64) - 1)
    assert np.asarray(reg).tolist() == list(range(-1, 63))
    mask = Reg.CreateMask[uint16_t, MaskPattern.VL2]()
    bits = np.asarray(mask)
    assert bits.shape == (256,) and bits[:5].tolist() == [True, False, True, False, False]
    bits[:] = True
    assert mask.count() == 2

"""GM <-> UB copies (asc_copy_gm2ub_align and friends): alignment, bounds, burst padding and strides."""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, uint8_t, uint16_t
from ascreg.errors import AlignmentError, AscregError, OutOfBoundsError
from helpers import launch


def test_misaligned_ub_and_gm_addresses_and_copies_past_an_allocation() -> None:
    gm = GlobalMemory().alloc(uint16_t, 256)

    def misaligned_ub() -> None:
        buf = C.__ubuf__(uint16_t, 256)
        C.asc_copy_gm2ub_align(buf + 1, gm, 64)

    with pytest.raises(AlignmentError, match=r"asc_copy_gm2ub_align: dst .* not 32-byte aligned"):
        launch(misaligned_ub)

    def misaligned_gm() -> None:
        C.asc_copy_gm2ub_align(
            C.__ubuf__(uint16_t, 256), gm.cast(uint8_t).offset_bytes(1).cast(uint16_t), 64
        )

    with pytest.raises(AlignmentError, match=r"src .* not 2-byte aligned"):
        launch(misaligned_gm)

    def past_ub() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 16), gm, 64)

    with pytest.raises(
        OutOfBoundsError, match=r"asc_copy_gm2ub_align: writes 64 bytes .* leaves the allocation"
    ):
        launch(past_ub)

    def past_gm() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 512), gm, 1024)

    with pytest.raises(OutOfBoundsError, match="asc_copy_gm2ub_align: reads 1024 bytes"):
        launch(past_gm)

    def odd_size() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 16), gm, 30)

    with pytest.raises(AscregError, match="multiple of 32"):
        launch(odd_size)


def test_burst_copy_with_padding_and_strides() -> None:
    gm = GlobalMemory().alloc(uint16_t, 64)
    gm.write(np.arange(1, 65))

    def body() -> None:
        buf = C.__ubuf__(uint16_t, 64)
        buf.write(np.zeros(64, np.uint16))  # the gap between the bursts is read below
        C.asc_sync()
        C.asc_set_copy_pad_val(9)
        C.asc_copy_gm2ub_align(buf, gm, 2, 6, 2, 1, True, 0, 20, 32)
        C.asc_sync()
        assert buf.read(22).tolist() == [
            9,
            9,
            1,
            2,
            3,
            9,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            9,
            9,
            11,
            12,
            13,
            9,
        ]

    launch(body)

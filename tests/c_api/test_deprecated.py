"""Deprecated C API spellings: each warns naming the current function, then behaves as it."""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import UnifiedBuffer, half, uint16_t
from ascreg.c_api.deprecated import DEPRECATED
from ascreg.machine.kernel import BlockContext, block


@pytest.mark.parametrize(("old", "new"), DEPRECATED.items())
def test_every_alias_wraps_its_current_function(old: str, new: str) -> None:
    alias = getattr(C, old)
    assert alias.__wrapped__ is getattr(C, new) and alias.__name__ == old
    assert old in C.__all__


def test_pack_aliases_warn_and_give_the_current_result() -> None:
    src = C.vector_uint32_t()
    src.set(np.arange(64, dtype=np.uint32) * 0x10001)
    for old, new in (("asc_pack", "asc_pack_to_low"), ("asc_pack_v2", "asc_pack_to_high")):
        want, got = C.vector_uint16_t(), C.vector_uint16_t()
        getattr(C, new)(want, src)
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: use {new}"):
            getattr(C, old)(got, src)
        assert np.array_equal(np.asarray(got), np.asarray(want))


def test_load_alias_warns_and_loads_like_the_current_function() -> None:
    ub = UnifiedBuffer()
    p = ub.alloc(half, 128)
    p.write(np.arange(128, dtype=np.float16))
    want, got = C.vector_half(), C.vector_half()
    C.asc_loadalign_brc_datablock(want, p)
    with pytest.warns(DeprecationWarning, match="use asc_loadalign_brc_datablock"):
        C.asc_loadalign_brc_v2(got, p)
    assert np.array_equal(np.asarray(got), np.asarray(want))


def test_pad_alias_sets_the_copy_pad_value() -> None:
    with block(BlockContext()) as ctx:
        with pytest.warns(DeprecationWarning, match="use asc_set_copy_pad_val"):
            C.asc_set_gm2ub_pad(7)
        assert ctx.state["pad_value"] == 7


def test_iter_reg_alias_gives_an_addr_reg() -> None:
    with pytest.warns(DeprecationWarning, match="use asc_update_addr_reg_b16"):
        for _ in C.hw_range(2):
            offset = C.asc_create_iter_reg_b16(uint16_t.size * 64)
    assert isinstance(offset, C.addr_reg)

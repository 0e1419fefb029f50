"""Deprecated C API spellings: each warns naming the current function, then behaves as it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, UnifiedBuffer, half, uint16_t
from ascreg._spec.c_api import STORE_ATOMIC_V2_TYPES
from ascreg.c_api.deprecated import DEPRECATED
from ascreg.errors import UnsupportedError
from ascreg.machine.kernel import BlockContext, __ubuf__, block
from ascreg.machine.sysregs import system_registers


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


# ---- issue 11: asc_get_ar_spr, asc_squeeze_v2, asc_set_store_atomic_config_v2 ------------------


def test_squeeze_v2_and_get_ar_spr_are_the_status_squeeze() -> None:
    src = C.vector_int32_t()
    src.set(np.arange(64, dtype=np.int32))
    want, got = C.vector_int32_t(), C.vector_int32_t()
    with block(BlockContext()) as ctx, ctx.simd_vf():
        C.asc_clear_ar_spr()
        C.asc_squeeze_with_status(want, src, C.asc_create_mask_b32(C.PAT_VL3))
        with pytest.warns(
            DeprecationWarning, match="asc_squeeze_v2 is deprecated: use asc_squeeze_with_status"
        ):
            C.asc_squeeze_v2(got, src, C.asc_create_mask_b32(C.PAT_VL3))
        with pytest.warns(DeprecationWarning, match="use asc_get_squeeze_status"):
            assert C.asc_get_ar_spr() == C.asc_get_squeeze_status() == 24
    assert np.array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.rows("asc_set_store_atomic_config_v2")
@pytest.mark.parametrize("code", sorted(STORE_ATOMIC_V2_TYPES))
def test_store_atomic_config_v2_enables_the_add_of_its_type(code: int) -> None:
    dtype = STORE_ATOMIC_V2_TYPES[code]
    n = 32  # one 32-byte block of int8_t, two or four of the wider types
    gm = GlobalMemory().alloc(dtype, n)
    gm.write(np.full(n, 3, dtype.np_dtype))
    with block(BlockContext()):
        ub = __ubuf__(dtype, n)
        ub.write(np.full(n, 2, dtype.np_dtype))
        C.asc_sync()
        with pytest.warns(DeprecationWarning, match="use asc_atomic_add"):
            C.asc_set_store_atomic_config_v2(code, 2)
        assert system_registers().atomic == ("add", dtype)
        C.asc_copy_ub2gm(gm, ub, n * dtype.size)
        C.asc_set_atomic_none()
    assert gm.read(n).astype(np.float64).tolist() == [5.0] * n


@pytest.mark.rows("asc_set_store_atomic_config_v2")
def test_store_atomic_config_v2_rejects_undocumented_codes() -> None:
    with block(BlockContext()), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(
            UnsupportedError, match=r"asc_set_store_atomic_config_v2: atomic_type 2 .*1 \(int32_t\)"
        ):
            C.asc_set_store_atomic_config_v2(2, 2)
        with pytest.raises(
            UnsupportedError, match=r"asc_set_store_atomic_config_v2: atomic_op 0 .*2 \(add\)"
        ):
            C.asc_set_store_atomic_config_v2(1, 0)
        assert system_registers().atomic is None

"""asc_set_va_reg and asc_transto5hd_b8/_b16/_b32[_sync] against the element-by-element
reference of tests/reference/transto5hd.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import float32_t, half, int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t
from ascreg.errors import (
    AlignmentError,
    AscregTypeError,
    IllegalDtypeError,
    SyncError,
    UninitializedRegisterError,
)
from ascreg.machine.kernel import BlockContext, block
from reference.transto5hd import transto5hd

VA_TYPES = [int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float32_t]
NAMES = [f"asc_transto5hd_b{w}{s}" for w in (8, 16, 32) for s in ("", "_sync")]
BUFFER_BLOCKS = 64


def load_registers(first: Any, pointers: list[Any]) -> None:
    """asc_set_va_reg of the first eight pointers to VA *first*, the last eight to the next."""
    C.asc_set_va_reg(first, pointers)
    C.asc_set_va_reg(C.ub_addr8_t(first + 1), pointers[8:])


@pytest.mark.rows("asc_set_va_reg", *NAMES)
@pytest.mark.parametrize("name", NAMES)
@given(
    seed=st.integers(0, 2**32 - 1),
    pointer_type=st.sampled_from(VA_TYPES),
    repeat=st.integers(0, 3),
    strides=st.tuples(st.integers(0, 4), st.integers(0, 4)),
    halves=st.tuples(st.booleans(), st.booleans()),
    registers=st.sampled_from([(0, 2), (2, 0), (4, 6), (6, 3)]),
)
def test_transto5hd_matches_the_reference(
    name: str,
    seed: int,
    pointer_type: Any,
    repeat: int,
    strides: tuple[int, int],
    halves: tuple[bool, bool],
    registers: tuple[int, int],
) -> None:
    width = int(name.split("_b")[1].split("_")[0]) // 8
    rng = np.random.default_rng(seed)  # block addresses and memory bytes (too many to draw)
    src_blocks, dst_blocks = ([32 * int(b) for b in rng.permutation(32)[:16]] for _ in range(2))
    size = BUFFER_BLOCKS * 32
    src_bytes, dst_bytes = (bytearray(rng.bytes(size)) for _ in range(2))
    want = bytearray(dst_bytes)
    transto5hd(src_bytes, want, src_blocks, dst_blocks, width, repeat, strides, halves)
    per = size // pointer_type.size
    with block(BlockContext()):
        src, dst = C.__ubuf__(pointer_type, per), C.__ubuf__(pointer_type, per)
        src.cast(uint8_t).write(np.frombuffer(src_bytes, np.uint8))
        dst.cast(uint8_t).write(np.frombuffer(dst_bytes, np.uint8))
        C.asc_sync()
        dst_va, src_va = (C.ub_addr8_t(r) for r in registers)
        load_registers(dst_va, [dst.offset_bytes(a) for a in dst_blocks])
        load_registers(src_va, [src.offset_bytes(a) for a in src_blocks])
        extra = halves if width == 1 else ()
        getattr(C, name)(dst_va, src_va, repeat, *strides, *extra)
        if not name.endswith("_sync"):
            C.asc_sync_vec()
        got = dst.cast(uint8_t).read(size).tobytes()
    assert got == bytes(want)


@pytest.mark.parametrize("c0", [16])
def test_nchw_to_nc1hwc0_as_the_page_shows(c0: int) -> None:
    """asc_transto5hd.md, example two: NCHW (2, 32, 16, 16) half to NC1HWC0 in four calls."""
    values = np.random.default_rng(3).standard_normal((2, 32, 16, 16)).astype(np.float16)
    hw = 16 * 16
    with block(BlockContext()):
        src, dst = C.__ubuf__(half, values.size), C.__ubuf__(half, values.size)
        src.write(values.reshape(-1))
        C.asc_sync()
        for j in range(4):
            load_registers(C.VA0, [dst + 16 * 16 * 16 * j + i * 16 for i in range(16)])
            load_registers(C.VA2, [src + 16 * 16 * 16 * j + i * hw for i in range(16)])
            C.asc_transto5hd_b16(C.VA0, C.VA2, 16, 16, 1)
        C.asc_sync_vec()
        got = dst.read(values.size)
    golden = values.reshape(2, 2, c0, 16, 16).transpose(0, 1, 3, 4, 2).reshape(-1)
    assert got.tobytes() == golden.tobytes()


def test_va_registers_and_transto5hd_check_their_operands() -> None:
    with block(BlockContext()):
        src, dst = C.__ubuf__(half, 256), C.__ubuf__(half, 256)
        src.write(np.zeros(256, np.float16))
        pointers = [src + 16 * i for i in range(16)]
        with pytest.raises(UninitializedRegisterError, match="needs VA4"):
            C.asc_transto5hd_b16(C.VA4, C.VA4, 1, 0, 0)
        with pytest.raises(AscregTypeError, match="must be a ub_addr8_t"):
            C.asc_set_va_reg(0, pointers)
        with pytest.raises(AscregTypeError, match="holds 7 pointers"):
            C.asc_set_va_reg(C.VA0, pointers[:7])
        with pytest.raises(AscregTypeError, match="one element type"):
            C.asc_set_va_reg(C.VA0, [*pointers[:7], dst.cast(uint16_t)])
        with pytest.raises(IllegalDtypeError, match="asc_set_va_reg: illegal dtypes"):
            C.asc_set_va_reg(C.VA0, [C.__ubuf__(C.bfloat16_t, 16)] * 8)
        load_registers(C.VA0, [dst + 16 * i for i in range(16)])
        load_registers(C.VA2, pointers)
        with pytest.raises(AscregTypeError, match="VA7 has no next register"):
            C.asc_transto5hd_b16(C.VA7, C.VA2, 1, 0, 0)
        with pytest.raises(SyncError):
            C.asc_transto5hd_b16(C.VA0, C.VA2, 1, 0, 0)  # PIPE_V reads what PIPE_S wrote
        C.asc_sync()
        with pytest.raises(AscregTypeError, match="repeat 256"):
            C.asc_transto5hd_b16(C.VA0, C.VA2, 256, 0, 0)
        with pytest.raises(AscregTypeError, match="dst_high_half must be a bool"):
            C.asc_transto5hd_b8(C.VA0, C.VA2, 1, 0, 0, 1, False)
        load_registers(C.VA2, [src + 1 + 16 * i for i in range(16)])
        with pytest.raises(AlignmentError):
            C.asc_transto5hd_b16(C.VA0, C.VA2, 1, 0, 0)

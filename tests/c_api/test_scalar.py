"""The scalar unit's C API functions: bit arithmetic against a scalar reference and a C++
program, the system variables and the cache controls (ascreg.c_api.scalar)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, Ref, float32_t, uint8_t, uint32_t, uint64_t
from ascreg._spec import SPECS
from ascreg.core import bits
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    SyncError,
    UnsupportedError,
)
from ascreg.machine.kernel import BlockContext, block
from ascreg.machine.sysregs import ARCH_VERSION, CTRL_RESET, PC_BASE
from reference.scalar_bits import REFERENCES

BIT_ROWS = tuple(f"asc_{name}" for name in REFERENCES)
TWO_ARGS = ("set_nthbit", "clear_nthbit")
BOUNDARIES = [0, 1, 2, 3, 10, 33, 0x7F, 0x80, 0xFF, (1 << 31) - 1, 1 << 31, (1 << 32) - 1,
              1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, -1, -2, -(1 << 63),
              0x0FFF_FFFF_FFFF_FFFF, 0x0F00_0000_0000_0000, 0x000F00FF0FF0FFFF]  # fmt: skip
INDICES = [0, 1, 2, 31, 32, 63, 64, 65, 127, 128, -1, -2, -63, -64, -65, -(1 << 63), (1 << 63) - 1]
any64 = st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)


def _cases(name: str, values: list[int], indices: list[int]) -> list[tuple[int, ...]]:
    return [(v, i) for v in values for i in indices] if name in TWO_ARGS else [(v,) for v in values]


@pytest.mark.rows(*BIT_ROWS)
@pytest.mark.parametrize("name", list(REFERENCES))
def test_bit_functions_match_the_reference_on_boundaries(name: str) -> None:
    function = getattr(C, f"asc_{name}")
    for args in _cases(name, BOUNDARIES, INDICES):
        assert function(*args) == REFERENCES[name](*args), (name, args)


@pytest.mark.rows(*BIT_ROWS)
@pytest.mark.parametrize("name", list(REFERENCES))
@given(value=any64, idx=any64)
def test_bit_functions_match_the_reference(name: str, value: int, idx: int) -> None:
    args = (value, idx) if name in TWO_ARGS else (value,)
    assert getattr(C, f"asc_{name}")(*args) == REFERENCES[name](*args)


@pytest.mark.rows(*BIT_ROWS)
def test_bit_functions_match_cpp(cpp_scalar_bits: Callable[[list[str]], list[str]]) -> None:
    rng = random.Random(64)
    values = BOUNDARIES + [rng.getrandbits(64) for _ in range(40)]
    indices = INDICES + [rng.randrange(-200, 200) for _ in range(4)]
    queries = [(n, args) for n in REFERENCES for args in _cases(n, values, indices)]
    lines = [" ".join([name, *map(str, args)]) for name, args in queries]
    for (name, args), answer in zip(queries, cpp_scalar_bits(lines), strict=True):
        got = bits.SCALAR_BITS[name](*args)
        assert got == int(answer), (name, args)


def test_documented_examples() -> None:
    assert C.asc_clz(0x0FFF_FFFF_FFFF_FFFF) == 4
    assert C.asc_ffz(33) == 1 and C.asc_popc(33) == 2
    assert C.asc_sflbits(0x0F00_0000_0000_0000) == 3 and C.asc_sflbits(0x000F00FF0FF0FFFF) == 11
    assert C.asc_sflbits(0) == C.asc_sflbits(-1) == -1
    assert C.asc_set_nthbit(0, 2) == 0x4
    assert C.asc_ffs(0) == -1 and C.asc_ffz(-1) == -1


def test_bit_functions_take_numpy_integers_and_reject_others() -> None:
    assert C.asc_popc(np.uint64(7)) == 3 and C.asc_clz(np.int8(-1)) == 0
    with pytest.raises(AscregTypeError, match=r"asc_clz: value_in must be an integer"):
        C.asc_clz(1.5)
    with pytest.raises(AscregTypeError, match=r"asc_set_nthbit: takes \(bits, idx\)"):
        C.asc_set_nthbit(1)


def test_bit_functions_run_in_a_kernel_body() -> None:
    out = GlobalMemory().alloc(uint64_t, 4)

    @C.__global__
    @C.__aicore__
    def kernel(out: GmPtr[uint64_t]) -> None:
        buf = C.__ubuf__(uint64_t, 4)
        row = [C.asc_clz(1), C.asc_popc(255), C.asc_set_nthbit(0, 63), C.asc_ffs(8)]
        buf.write(np.array(row, np.uint64))
        C.asc_sync()
        C.asc_copy_ub2gm(out, buf, 32)

    kernel[1, 0, None](out)
    assert out.read(4).tolist() == [63, 8, 1 << 63, 3]


# ---- system variables ----------------------------------------------------------------------------


@pytest.mark.rows("asc_get_ctrl", "asc_set_ctrl")
def test_ctrl_reads_back_what_was_set() -> None:
    with block(BlockContext()):
        assert C.asc_get_ctrl() == CTRL_RESET
        C.asc_set_ctrl(C.asc_get_ctrl() | 1 << 59 | 1 << 49 | 0b10_001 << 6)
        assert C.asc_get_ctrl() == CTRL_RESET | 1 << 59 | 1 << 49 | 0b10_001 << 6
        with pytest.raises(UnsupportedError, match="CTRL\\[50\\]"):
            C.asc_set_ctrl(-1)  # every bit: CTRL[50], [53] are not modelled
        assert C.asc_get_ctrl() == CTRL_RESET | 1 << 59 | 1 << 49 | 0b10_001 << 6
    with block(BlockContext()):
        assert C.asc_get_ctrl() == CTRL_RESET  # per block (per core)


@pytest.mark.rows(
    "asc_get_core_id", "asc_get_sub_block_id", "asc_get_sub_block_num", "asc_get_arch_ver"
)
def test_core_identity_in_a_launch() -> None:
    out = GlobalMemory().alloc(uint32_t, 3 * 8)

    @C.__global__
    @C.__aicore__
    def kernel(out: GmPtr[uint32_t]) -> None:
        version = Ref(0)
        C.asc_get_arch_ver(version)
        buf = C.__ubuf__(uint32_t, 8)
        row = [C.asc_get_core_id(), C.asc_get_sub_block_id(), C.asc_get_sub_block_num(),
               version.value, C.asc_get_block_idx(), 0, 0, 0]  # fmt: skip
        buf.write(np.array(row, np.uint32))
        C.asc_sync()
        C.asc_copy_ub2gm_align(out + 8 * C.asc_get_block_idx(), buf, 32)

    kernel[3, 0, None](out)
    rows = out.read(24).reshape(3, 8)[:, :5].tolist()
    assert rows == [[i, 0, 1, ARCH_VERSION, i] for i in range(3)]


@pytest.mark.rows("asc_get_system_cycle", "asc_get_program_counter")
def test_cycle_and_pc_are_deterministic_and_increasing() -> None:
    def trace() -> list[int]:
        with block(BlockContext()):
            buf = C.__ubuf__(uint8_t, 64)
            first = C.asc_get_system_cycle()
            buf.write(np.zeros(64, np.uint8))
            second = C.asc_get_system_cycle()
            return [first, second, C.asc_get_program_counter(), C.asc_get_program_counter()]

    once = trace()
    assert once == trace()
    assert once[0] < once[1] and once[2:] == [PC_BASE, PC_BASE + 4]


@pytest.mark.rows(
    "asc_get_phy_buf_addr",
    "asc_get_status",
    "asc_get_phy_stack_base",
    "asc_get_sys_virtual_base",
    "asc_get_smmu_tag_version",
    "asc_get_ffts_base_addr",
    "asc_set_ffts_base_addr",
)
def test_other_system_registers() -> None:
    with block(BlockContext()):
        assert C.asc_get_phy_buf_addr(0) == 0 and C.asc_get_phy_buf_addr(128) == 128
        with pytest.raises(AscregTypeError, match=r"asc_get_phy_buf_addr: offset 253953"):
            C.asc_get_phy_buf_addr(248 * 1024 + 1)
        assert C.asc_get_status() == 0
        assert C.asc_get_phy_stack_base() == C.asc_get_sys_virtual_base() == 0
        assert C.asc_get_smmu_tag_version() == 0
        assert C.asc_get_ffts_base_addr() == 0
        C.asc_set_ffts_base_addr(0x1234)
        assert C.asc_get_ffts_base_addr() == 0x1234
        with pytest.raises(AscregTypeError, match="core_version"):
            C.asc_get_arch_ver(0)


def test_system_variables_need_a_running_block() -> None:
    with pytest.raises(AscregError, match="asc_get_core_id: no kernel is running"):
        C.asc_get_core_id()


# ---- cache control -------------------------------------------------------------------------------


CACHE_ROWS = ("c_api.asc_dcci_single", "asc_ub_dcci_single", "asc_dcci_entire_all",
              "asc_dcci_entire_out", "asc_dcci_entire_atomic", "asc_dci",
              "asc_datacache_preload", "asc_icache_preload", "asc_get_icache_preload_status")  # fmt: skip


@pytest.mark.rows(*CACHE_ROWS)
def test_cache_control_validates_and_changes_nothing() -> None:
    gm = GlobalMemory().alloc(uint64_t, 8)
    gm.write(np.arange(8, dtype=np.uint64))
    with block(BlockContext()):
        ub = C.__ubuf__(uint8_t, 64)
        C.asc_dcci_single(gm)
        C.asc_ub_dcci_single(ub)
        for flush in (C.asc_dcci_entire_all, C.asc_dcci_entire_out, C.asc_dcci_entire_atomic):
            flush()
        C.asc_sync_data_barrier(C.mem_dsb_t.DSB_ALL)
        C.asc_dci()
        C.asc_datacache_preload(gm, 63)
        C.asc_icache_preload(C.asc_get_program_counter() & 0xFFFF_FFFF_FFFF, 32)
        assert C.asc_get_icache_preload_status() == 0
        bad: list[tuple[Callable[..., Any], tuple[Any, ...], str]] = [
            (C.asc_dcci_single, (ub,), "dst"),
            (C.asc_ub_dcci_single, (gm,), "dst"),
            (C.asc_datacache_preload, (gm.cast(uint32_t), 0), "__gm__ uint64_t"),
            (C.asc_datacache_preload, (gm, 64), "offset 64"),
            (C.asc_datacache_preload, (gm, -1), "offset -1"),
            (C.asc_icache_preload, (0, -1), "prefetch_len -1"),
        ]
        for function, args, message in bad:
            with pytest.raises(AscregTypeError, match=message):
                function(*args)
    assert gm.read(8).tolist() == list(range(8))


# ---- scalar GM store and UB -> UB copies ---------------------------------------------------------


@pytest.mark.rows("asc_store_dev")
@pytest.mark.parametrize("dtype", [c[0] for c in SPECS["asc_store_dev"].combos], ids=str)
def test_store_dev_writes_one_element(dtype: Any) -> None:
    addr = GlobalMemory().alloc(dtype, 4)
    addr.write(np.zeros(4, dtype.np_dtype))
    low, high = (-(1 << (8 * dtype.size - 1)), 0) if dtype.np_dtype.kind == "i" else (0, 0)
    with block(BlockContext()):
        C.asc_store_dev(addr + 1, low or 5)
        with pytest.raises(AscregError, match="asc_store_dev"):
            C.asc_store_dev(addr, (1 << (8 * dtype.size)) + high)  # out of the type's range
        with pytest.raises(IllegalDtypeError, match="asc_store_dev"):
            C.asc_store_dev(addr.cast(float32_t), 1)
    assert addr.read(4).tolist() == [0, low or 5, 0, 0]


def _ub2ub_reference(
    src: bytes, n_burst: int, len_blocks: int, src_gap: int, dst_gap: int, dst: bytearray
) -> bytearray:
    """Burst by burst, 32-byte block by block, as asc_copy_ub2ub.md describes the gaps."""
    out = bytearray(dst)
    for burst in range(n_burst):
        for block_ in range(len_blocks):
            s = (burst * (len_blocks + src_gap) + block_) * 32
            d = (burst * (len_blocks + dst_gap) + block_) * 32
            out[d : d + 32] = src[s : s + 32]
    return out


@pytest.mark.rows("asc_copy_ub2ub", "asc_copy_ub2ub_sync")
@given(
    n_burst=st.integers(1, 4),
    len_blocks=st.integers(1, 3),
    src_gap=st.integers(0, 2),
    dst_gap=st.integers(0, 2),
)
def test_copy_ub2ub_bursts_match_the_reference(
    n_burst: int, len_blocks: int, src_gap: int, dst_gap: int
) -> None:
    nbytes = 4 * 5 * 32
    source = bytes(random.Random(n_burst * 7 + len_blocks).randbytes(nbytes))
    with block(BlockContext()):
        a, b = C.__ubuf__(uint8_t, nbytes), C.__ubuf__(uint8_t, nbytes)
        a.write(np.frombuffer(source, np.uint8))
        b.write(np.full(nbytes, 0xEE, np.uint8))
        C.asc_sync()
        C.asc_copy_ub2ub(b, a, n_burst, len_blocks, src_gap, dst_gap)
        C.asc_sync_vec()
        got = bytes(b.read(nbytes))
        C.asc_sync()  # the scalar read of b, before the copy overwrites it
        C.asc_copy_ub2ub_sync(b, a, 64)
        synced = bytes(b.read(64))
    want = _ub2ub_reference(
        source, n_burst, len_blocks, src_gap, dst_gap, bytearray([0xEE] * nbytes)
    )
    assert got == bytes(want)
    assert synced == source[:64]


def test_copy_ub2ub_is_a_vector_pipe_access_and_checks_its_arguments() -> None:
    with block(BlockContext()):
        a, b = C.__ubuf__(uint8_t, 64), C.__ubuf__(uint8_t, 64)
        a.write(np.ones(64, np.uint8))
        with pytest.raises(SyncError):
            C.asc_copy_ub2ub(b, a, 64)  # PIPE_V reads what PIPE_S wrote, unordered
        C.asc_sync()
        with pytest.raises(AscregTypeError, match="size 48 must be a multiple of 32"):
            C.asc_copy_ub2ub(b, a, 48)
        with pytest.raises(AscregTypeError, match="takes"):
            C.asc_copy_ub2ub(b, a, 1, 1)
        with pytest.raises(AscregTypeError, match="src"):
            C.asc_copy_ub2ub(b, GlobalMemory().alloc(uint8_t, 64), 32)

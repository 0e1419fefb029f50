"""Every UB -> GM copy of every surface honours the store-atomic mode (issue 25).

``SetAtomicAdd`` / ``asc_set_atomic_add_*`` (and max / min) switch on the atomic for "later data
moves whose destination is GM" (the SetAtomicAdd and asc_set_atomic_add pages): the mode is the
block's system register, and the copy engine (``ascreg.machine.mte.ub_to_gm``) applies it to
every copy, whichever API made it. ``DataCopyPad`` used to overwrite GM (and raise a SyncError
across blocks) while ``asc_copy_ub2gm_align`` added. Each copy form below runs under every mode
and legal type against the scalar reference of the merge, in one block and in four blocks
writing the same GM bytes (no race: that is what the atomics are for).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, float32_t, int32_t
from ascreg import basic as B  # noqa: N812 (short alias for the basic namespace)
from ascreg._spec.c_api import STORE_ATOMIC_OPS, STORE_ATOMIC_TYPES
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __vector__
from reference.common import to_bits
from reference.store_atomic import merge
from strategies import assert_same_lanes, lane_bits

ELEMENTS = 64
"""Elements per copy (ELEMENTS * sizeof(T) is a multiple of 32 for every type)."""

Copy = Callable[[Any, Any, int], None]
"""``copy(gm, ub, nbytes)``: one UB -> GM copy form writing *nbytes* from *ub* to *gm*."""


def _tensors(gm: Any, ub: Any) -> tuple[Any, Any]:
    """The basic API's views of the two pointers."""
    dtype = gm.dtype
    out = B.GlobalTensor[dtype]()
    out.SetGlobalBuffer(gm, ELEMENTS)
    local = B.LocalMemAllocator[B.Hardware.UB]().Alloc[dtype, ELEMENTS]()
    local.GetPhyAddr().write(ub.read(ELEMENTS))
    B.PipeBarrier[B.PIPE_ALL]()
    return out, local


def _datacopy_count(gm: Any, ub: Any, nbytes: int) -> None:
    out, local = _tensors(gm, ub)
    B.DataCopy(out, local, nbytes // gm.dtype.size)


def _datacopy_params(gm: Any, ub: Any, nbytes: int) -> None:
    out, local = _tensors(gm, ub)
    B.DataCopy(out, local, B.DataCopyParams(2, nbytes // 64, 0, 0))  # two blocks of half each


def _datacopypad(gm: Any, ub: Any, nbytes: int) -> None:
    out, local = _tensors(gm, ub)
    B.DataCopyPad(out, local, B.DataCopyExtParams(1, nbytes, 0, 0, 0))


def _datacopypad_blocks(gm: Any, ub: Any, nbytes: int) -> None:
    """Four GM blocks of a quarter each (not whole DataBlocks for the narrow types)."""
    out, local = _tensors(gm, ub)
    quarter = nbytes // 4
    if quarter % 32:  # each block of UB starts on a DataBlock: lay the source out that way
        local = B.LocalMemAllocator[B.Hardware.UB]().Alloc[gm.dtype, 4 * 32 // gm.dtype.size]()
        n = quarter // gm.dtype.size
        for k in range(4):
            (local.GetPhyAddr() + k * 32 // gm.dtype.size).write(ub.read(ELEMENTS)[k * n :][:n])
        B.PipeBarrier[B.PIPE_ALL]()
    B.DataCopyPad(out, local, B.DataCopyExtParams(4, quarter, 0, 0, 0))


def _c_size(name: str) -> Copy:
    def copy(gm: Any, ub: Any, nbytes: int) -> None:
        getattr(C, name)(gm, ub, nbytes)

    return copy


def _c_bursts(gm: Any, ub: Any, nbytes: int) -> None:
    C.asc_copy_ub2gm(gm, ub, 2, nbytes // 2, nbytes // 2, nbytes // 2)


def _c_align_bursts(gm: Any, ub: Any, nbytes: int) -> None:
    C.asc_copy_ub2gm_align(gm, ub, 2, nbytes // 2, 0, nbytes // 2, nbytes // 2)


def _c_loop_registers(gm: Any, ub: Any, nbytes: int) -> None:
    """``asc_set_ub2gm_loop*``: the copy of one half repeated twice by the loop registers."""
    C.asc_set_ub2gm_loop_size(2, 1)
    C.asc_set_ub2gm_loop1_stride(nbytes // 2, nbytes // 2)
    C.asc_copy_ub2gm_align(gm, ub, nbytes // 2)
    C.asc_set_ub2gm_loop_size(1, 1)


C_SIZE_FORMS = ("asc_copy_ub2gm", "asc_copy_ub2gm_align", "asc_copy_ub2gm_sync",
                "asc_copy_ub2gm_align_sync")  # fmt: skip
COPIES: dict[str, Copy] = {
    "DataCopy(count)": _datacopy_count,
    "DataCopy(DataCopyParams)": _datacopy_params,
    "DataCopyPad": _datacopypad,
    "DataCopyPad(4 blocks)": _datacopypad_blocks,
    **{name: _c_size(name) for name in C_SIZE_FORMS},
    "asc_copy_ub2gm(bursts)": _c_bursts,
    "asc_copy_ub2gm_align(bursts)": _c_align_bursts,
    "asc_copy_ub2gm_align(loop registers)": _c_loop_registers,
}
"""Every UB -> GM copy form of the basic API and the C API."""
MODES = [(op, suffix) for op in STORE_ATOMIC_OPS for suffix in STORE_ATOMIC_TYPES]


def test_the_table_holds_every_c_api_ub_to_gm_copy() -> None:
    copies = {name for name in C.__all__ if name.startswith("asc_copy_ub2gm")}
    assert copies <= {name.split("(")[0] for name in COPIES}


def _set_mode(op: str, suffix: str) -> None:
    getattr(C, f"asc_set_atomic_{op}_{suffix}")()


def _array(bits: list[int], dtype: Any) -> np.ndarray[Any, Any]:
    return np.array(bits, f"<u{dtype.size}").view(dtype.np_dtype)


@pytest.mark.rows(*(f"asc_set_atomic_{op}_{s}" for op, s in MODES), "asc_set_atomic_none")
@pytest.mark.parametrize("form", list(COPIES))
@pytest.mark.parametrize(("op", "suffix"), MODES, ids=[f"{o}_{s}" for o, s in MODES])
@settings(max_examples=max(2, settings.default.max_examples // 12))
@given(data=st.data())
def test_every_copy_merges_under_every_mode(form: str, op: str, suffix: str, data: Any) -> None:
    dtype = STORE_ATOMIC_TYPES[suffix]
    old, new = (data.draw(lane_bits(dtype, ELEMENTS)) for _ in range(2))
    gm = GlobalMemory().alloc(dtype, ELEMENTS)
    gm.write(_array(old, dtype))
    with block(BlockContext()):
        ub = C.__ubuf__(dtype, ELEMENTS)
        ub.write(_array(new, dtype))
        C.asc_sync()
        _set_mode(op, suffix)
        COPIES[form](gm, ub, ELEMENTS * dtype.size)
        C.asc_set_atomic_none()
    want = [merge(op, a, b, dtype) for a, b in zip(old, new, strict=True)]
    assert_same_lanes(to_bits(gm.read(ELEMENTS)), want, dtype)


BLOCKS = 4


@pytest.mark.parametrize("form", list(COPIES))
@pytest.mark.parametrize(("op", "suffix"), MODES, ids=[f"{o}_{s}" for o, s in MODES])
def test_blocks_combine_into_one_gm_range_without_a_race(form: str, op: str, suffix: str) -> None:
    """Four blocks merge into the same GM bytes; the result folds them in block order."""
    dtype = STORE_ATOMIC_TYPES[suffix]
    rng = np.random.default_rng(ELEMENTS)
    start = rng.integers(0, 1 << (8 * dtype.size), ELEMENTS, dtype=np.uint64).tolist()
    parts = [rng.integers(0, 1 << (8 * dtype.size), ELEMENTS, dtype=np.uint64).tolist()]
    parts += [rng.permutation(parts[0]).tolist() for _ in range(BLOCKS - 1)]
    gm = GlobalMemory().alloc(dtype, ELEMENTS)
    gm.write(_array(start, dtype))

    @__global__
    @__vector__
    def kernel(out: Any) -> None:
        ub = C.__ubuf__(dtype, ELEMENTS)
        ub.write(_array(parts[C.asc_get_block_idx()], dtype))
        C.asc_sync()
        _set_mode(op, suffix)
        COPIES[form](out, ub, ELEMENTS * dtype.size)
        C.asc_set_atomic_none()

    kernel[BLOCKS, 0, None](gm)
    want = start
    for part in parts:
        want = [merge(op, a, b, dtype) for a, b in zip(want, part, strict=True)]
    assert_same_lanes(to_bits(gm.read(ELEMENTS)), want, dtype)


def test_the_issue_example_adds_seven_and_one() -> None:
    """DataCopyPad under asc_set_atomic_add_float: GM 7.0 plus UB 1.0 is 8.0, not 1.0."""
    gm = GlobalMemory().alloc(float32_t, 8)
    gm.write(np.full(8, 7.0, np.float32))
    with block(BlockContext()):
        out = B.GlobalTensor[float32_t]()
        out.SetGlobalBuffer(gm, 8)
        local = B.LocalMemAllocator[B.Hardware.UB]().Alloc[float32_t, 8]()
        B.Duplicate(local, 1.0, 8)
        B.PipeBarrier[B.PIPE_ALL]()
        C.asc_set_atomic_add_float()
        B.DataCopyPad(out, local, B.DataCopyExtParams(1, 8 * 4, 0, 0, 0))
    assert gm.read(8).tolist() == [8.0] * 8


def test_reads_and_later_plain_copies_are_not_atomic() -> None:
    """The mode changes GM writes only; ``asc_set_atomic_none`` makes copies overwrite again."""
    gm = GlobalMemory().alloc(float32_t, 8)
    gm.write(np.full(8, 2.0, np.float32))
    with block(BlockContext()):
        ub = C.__ubuf__(float32_t, 8)
        C.asc_set_atomic_add_float()
        C.asc_copy_gm2ub_align(ub, gm, 32)  # a read: UB gets GM's values as they are
        C.asc_sync()
        assert ub.read(8).tolist() == [2.0] * 8
        C.asc_copy_ub2gm_align(gm, ub, 32)
        C.asc_sync_pipe(C.PIPE_MTE3)
        C.asc_set_atomic_none()
        C.asc_copy_ub2gm_align(gm, ub, 32)
    assert gm.read(8).tolist() == [2.0] * 8


def test_set_atomic_add_of_the_basic_api_sets_the_same_mode() -> None:
    gm = GlobalMemory().alloc(float32_t, 8)
    gm.write(np.full(8, 7.0, np.float32))
    with block(BlockContext()):
        out = B.GlobalTensor[float32_t]()
        out.SetGlobalBuffer(gm, 8)
        local = B.LocalMemAllocator[B.Hardware.UB]().Alloc[float32_t, 8]()
        B.Duplicate(local, 1.0, 8)
        B.PipeBarrier[B.PIPE_ALL]()
        B.SetAtomicAdd[float32_t]()  # type: ignore[attr-defined]
        B.DataCopyPad(out, local, B.DataCopyExtParams(1, 8 * 4, 0, 0, 0))
    assert gm.read(8).tolist() == [8.0] * 8


def test_simt_stores_are_not_data_moves() -> None:
    """The mode covers data moves into GM (UB -> GM copies), not a SIMT thread's GM store."""
    from ascreg.simt import __simt_vf__, dim3, threadIdx

    out = GlobalMemory().alloc(int32_t, 32)
    out.write(np.ones(32, np.int32))

    @__simt_vf__
    def store(dst: Any) -> None:
        dst[threadIdx.x] = 5

    @__global__
    @__vector__
    def kernel(dst: GmPtr[int32_t]) -> None:
        C.asc_set_atomic_add_int()
        C.asc_vf_call[store](dim3(32), dst)
        C.asc_set_atomic_none()

    kernel[1, 0, None](out)
    assert out.read(32).tolist() == [5] * 32

"""The C API's scalar GM atomics ``asc_atomic_<op>`` (rows ``c_api.asc_atomic_<op>``): each call
against a typed scalar reference, the pipe tracker's view of them, and their argument checks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, UnifiedBuffer, float32_t, int32_t, uint32_t
from ascreg._spec import C_SCALAR_ATOMIC_TYPES, SPECS
from ascreg.errors import AscregError, AscregTypeError, IllegalDtypeError, SyncError
from ascreg.machine.kernel import BlockContext, __global__, __ubuf__, __vector__, block
from reference.atomics import ATOMIC_UPDATE, atomic_cas

ROWS = tuple(f"c_api.asc_atomic_{op}" for op in C_SCALAR_ATOMIC_TYPES)
CASES = [(op, t) for op, types in C_SCALAR_ATOMIC_TYPES.items() for t in types]


def _wrap(value: Any, dtype: Any) -> Any:
    """The reference's result as the element type: integers wrap, float rounds once to float."""
    if dtype is float32_t:
        return float(np.float32(value))
    bits = 8 * dtype.size
    value %= 1 << bits
    signed = dtype.np_dtype.kind == "i"
    return value - (1 << bits) if signed and value >= 1 << (bits - 1) else value


def _values(dtype: Any) -> st.SearchStrategy[Any]:
    if dtype is float32_t:
        return st.floats(-1e6, 1e6, width=32)
    info = np.iinfo(dtype.np_dtype)
    return st.integers(int(info.min), int(info.max))


def _reference(op: str, old: Any, operands: list[Any], dtype: Any) -> Any:
    if op == "cas":
        return atomic_cas(old, *operands)
    if dtype is float32_t and op in ("add", "sub"):  # float32 arithmetic: one rounding
        return ATOMIC_UPDATE[op](np.float32(old), np.float32(operands[0]))
    return ATOMIC_UPDATE[op](old, operands[0])


@pytest.mark.rows(*ROWS)
@pytest.mark.parametrize(("op", "dtype"), CASES, ids=[f"{o}-{t}" for o, t in CASES])
@settings(max_examples=15)
@given(data=st.data())
def test_atomics_return_the_old_value_and_store_the_update(op: str, dtype: Any, data: Any) -> None:
    func = getattr(C, f"asc_atomic_{op}")
    slots = 3
    init = data.draw(st.lists(_values(dtype), min_size=slots, max_size=slots))
    calls = data.draw(st.lists(st.integers(0, slots - 1), min_size=1, max_size=8))
    mem = GlobalMemory().alloc(dtype, slots)
    mem.write(np.array(init, dtype.np_dtype))
    state = [_wrap(v, dtype) for v in init]
    arity = 2 if op == "cas" else 1
    with block(BlockContext()):
        for where in calls:
            operands = [data.draw(_values(dtype)) for _ in range(arity)]
            if op == "cas" and data.draw(st.booleans()):
                operands[0] = state[where]  # make the compare hit half of the time
            old = func(mem + where, *operands)
            assert old == state[where]
            assert isinstance(old, float if dtype is float32_t else int)
            state[where] = _wrap(_reference(op, state[where], operands, dtype), dtype)
    assert mem.read(slots).tolist() == state


@pytest.mark.rows(*ROWS)
def test_rows_are_keyed_apart_from_the_simt_functions() -> None:
    for op in C_SCALAR_ATOMIC_TYPES:
        c_row, simt_row = SPECS[f"c_api.asc_atomic_{op}"], SPECS[f"asc_atomic_{op}"]
        assert (c_row.surface, simt_row.surface) == ("c_api", "simt")
        assert c_row.spelling == simt_row.spelling == getattr(C, c_row.spelling).__name__
        assert c_row.family == simt_row.family
        assert c_row.core == simt_row.core
    # no half / bfloat16_t on the C API (scalar_compute.h), unlike the SIMT functions
    assert len(SPECS["c_api.asc_atomic_add"].combos) == 5
    assert len(SPECS["asc_atomic_add"].combos) == 7


@pytest.mark.rows("c_api.asc_atomic_add")
def test_atomic_after_an_unsynchronised_copy_to_gm_is_a_hazard() -> None:
    dst = GlobalMemory().alloc(int32_t, 8)
    with block(BlockContext()):
        src = __ubuf__(int32_t, 8)
        src.write(np.arange(8, dtype=np.int32))
        C.asc_sync()
        C.asc_copy_ub2gm(dst, src, 32)
        with pytest.raises(SyncError, match=r"PIPE_S writes GM .* PIPE_MTE3 wrote"):
            C.asc_atomic_add(dst + 2, 1)
    with block(BlockContext()):
        src = __ubuf__(int32_t, 8)
        src.write(np.arange(8, dtype=np.int32))
        C.asc_sync()
        C.asc_copy_ub2gm(dst, src, 32)
        C.asc_sync_notify(C.PIPE_MTE3, C.PIPE_S, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_MTE3, C.PIPE_S, C.EVENT_ID0)
        assert C.asc_atomic_add(dst + 2, 1) == 2
        C.asc_atomic_add(dst + 7, 1)  # other bytes than the copy's are no hazard either way
    assert dst.read(8).tolist() == [0, 1, 3, 3, 4, 5, 6, 8]


@pytest.mark.rows("c_api.asc_atomic_exch")
def test_copy_from_gm_after_an_unsynchronised_atomic_is_a_hazard() -> None:
    src = GlobalMemory().alloc(int32_t, 8)
    with block(BlockContext()):
        dst = __ubuf__(int32_t, 8)
        C.asc_atomic_exch(src + 1, 5)
        with pytest.raises(SyncError, match=r"PIPE_MTE2 reads GM .* PIPE_S wrote"):
            C.asc_copy_gm2ub(dst, src, 32)
    with block(BlockContext()):
        dst = __ubuf__(int32_t, 8)
        C.asc_atomic_exch(src + 1, 7)
        C.asc_sync_notify(C.PIPE_S, C.PIPE_MTE2, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_S, C.PIPE_MTE2, C.EVENT_ID0)
        C.asc_copy_gm2ub(dst, src, 32)
        C.asc_sync()
        assert dst.read(2).tolist() == [0, 7]


@pytest.mark.rows("c_api.asc_atomic_add", "c_api.asc_atomic_max")
def test_blocks_combine_results_through_atomics_without_a_race() -> None:
    total, peak = GlobalMemory().alloc(uint32_t, 1), GlobalMemory().alloc(int32_t, 1)

    @__global__
    @__vector__
    def count(total: Any, peak: Any) -> None:
        C.asc_atomic_add(total, C.block_idx + 1)
        C.asc_atomic_max(peak, 10 * C.block_idx)

    count[4, 0, None](total, peak)
    assert (int(total.read(1)[0]), int(peak.read(1)[0])) == (10, 30)


@pytest.mark.rows("c_api.asc_atomic_add", "c_api.asc_atomic_inc", "c_api.asc_atomic_cas")
def test_bad_arguments_name_the_call_the_value_and_the_rule() -> None:
    gm = GlobalMemory().alloc(uint32_t, 1)
    with block(BlockContext()):
        with pytest.raises(AscregTypeError, match="asc_atomic_add: address must be a GmPtr"):
            C.asc_atomic_add(UnifiedBuffer().alloc(uint32_t, 1), 1)
        with pytest.raises(IllegalDtypeError, match=r"asc_atomic_inc: .*legal: uint32_t, uint64_t"):
            C.asc_atomic_inc(gm.cast(int32_t), 1)
        with pytest.raises(AscregError, match=r"asc_atomic_add.*4294967296"):
            C.asc_atomic_add(gm, 1 << 32)
        with pytest.raises(
            AscregTypeError, match=r"asc_atomic_cas: takes \(address, compare, val\); got 2"
        ):
            C.asc_atomic_cas(gm, 1)
        with pytest.raises(AscregError, match="asc_atomic_add"):
            C.asc_atomic_add(gm + 1, 1)  # past the end of its allocation
    with pytest.raises(AscregError, match="asc_atomic_add"):
        C.asc_atomic_add(gm, 1)  # outside a kernel: no scalar unit to run it
    assert gm.read(1).tolist() == [0]

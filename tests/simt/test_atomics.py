"""SIMT atomics serialise in thread order: every read-modify-write against its reference."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, int32_t, uint32_t, uint64_t
from ascreg.simt import (
    asc_atomic_add,
    asc_atomic_and,
    asc_atomic_cas,
    asc_atomic_dec,
    asc_atomic_exch,
    asc_atomic_inc,
    asc_atomic_max,
    asc_atomic_min,
    asc_atomic_or,
    asc_atomic_sub,
    asc_atomic_xor,
    dim3,
    run_simt_kernel,
    threadIdx,
)
from reference.atomics import ATOMIC_UPDATE, atomic_cas


def launch(kernel: Any, threads: int, *args: Any, blocks: int = 1) -> None:
    run_simt_kernel(kernel, dim3(blocks), dim3(threads), 0, args)


ATOMICS = {
    "add": asc_atomic_add,
    "sub": asc_atomic_sub,
    "exch": asc_atomic_exch,
    "max": asc_atomic_max,
    "min": asc_atomic_min,
    "inc": asc_atomic_inc,
    "dec": asc_atomic_dec,
    "and": asc_atomic_and,
    "or": asc_atomic_or,
    "xor": asc_atomic_xor,
}


@pytest.mark.rows(*(f"asc_atomic_{op}" for op in ATOMICS))
@pytest.mark.parametrize("op", list(ATOMICS))
@given(data=st.data())
def test_atomics_serialise_in_thread_order(op: str, data: Any) -> None:
    func, ref = ATOMICS[op], ATOMIC_UPDATE[op]
    n = data.draw(st.integers(1, 70))
    slots = data.draw(st.integers(1, 6))
    where = data.draw(st.lists(st.integers(0, slots - 1), min_size=n, max_size=n))
    vals = data.draw(st.lists(st.integers(0, 2**32 - 1), min_size=n, max_size=n))
    init = data.draw(st.lists(st.integers(0, 2**32 - 1), min_size=slots, max_size=slots))
    diverge = data.draw(st.booleans())
    gm = GlobalMemory()
    mem, idx, val, old = (
        gm.alloc(uint32_t, slots),
        gm.alloc(int32_t, n),
        gm.alloc(uint32_t, n),
        gm.alloc(uint32_t, n),
    )
    mem.write(init), idx.write(where), val.write(vals)

    def k(mem: Any, idx: Any, val: Any, old: Any) -> None:
        t = threadIdx.x
        if diverge and t % 2 == 0:
            pass
        old[t] = func(mem + idx[t], val[t])

    launch(k, n, mem, idx, val, old)
    state = list(init)
    expected_old = []
    for w, v in zip(where, vals, strict=True):
        expected_old.append(state[w])
        state[w] = ref(state[w], v) % 2**32
    assert old.read(n).tolist() == expected_old
    assert mem.read(slots).tolist() == state


def test_cas_and_64_bit_rules() -> None:
    gm = GlobalMemory()
    lock, got = gm.alloc(int32_t, 1), gm.alloc(int32_t, 8)

    def k(lock: Any, got: Any) -> None:
        got[threadIdx.x] = asc_atomic_cas(lock, 0, 1)

    launch(k, 8, lock, got)
    assert got.read(8).tolist() == [0] + [1] * 7
    counter = gm.alloc(uint64_t, 1)
    launch(lambda c: asc_atomic_add(c, 2**40), 100, counter)
    assert int(counter.read(1)[0]) == 100 * 2**40


@pytest.mark.rows("asc_atomic_cas")
@given(data=st.data())
def test_cas_serialises_in_thread_order(data: Any) -> None:
    n = data.draw(st.integers(1, 70))
    slots = data.draw(st.integers(1, 4))
    small = st.integers(0, 3)  # few distinct values, so compares succeed often
    where = data.draw(st.lists(st.integers(0, slots - 1), min_size=n, max_size=n))
    compares = data.draw(st.lists(small, min_size=n, max_size=n))
    vals = data.draw(st.lists(st.one_of(small, st.integers(0, 2**32 - 1)), min_size=n, max_size=n))
    init = data.draw(st.lists(small, min_size=slots, max_size=slots))
    diverge = data.draw(st.booleans())
    gm = GlobalMemory()
    mem, idx, cmp, val, old = (
        gm.alloc(uint32_t, slots),
        gm.alloc(int32_t, n),
        gm.alloc(uint32_t, n),
        gm.alloc(uint32_t, n),
        gm.alloc(uint32_t, n),
    )
    mem.write(init), idx.write(where), cmp.write(compares), val.write(vals)

    def k(mem: Any, idx: Any, cmp: Any, val: Any, old: Any) -> None:
        t = threadIdx.x
        if diverge and t % 2 == 0:
            pass
        old[t] = asc_atomic_cas(mem + idx[t], cmp[t], val[t])

    launch(k, n, mem, idx, cmp, val, old)
    state = list(init)
    expected_old = []
    for w, c, v in zip(where, compares, vals, strict=True):
        expected_old.append(state[w])
        state[w] = atomic_cas(state[w], c, v)
    assert old.read(n).tolist() == expected_old
    assert mem.read(slots).tolist() == state

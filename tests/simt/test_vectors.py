"""The vector types and ``make_*`` against the C conversion of each component
(``reference.vectors``), pointers cast to them, and the masked merge in kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, int32_t
from ascreg._spec.simt import VECTOR_ELEMENTS, VECTOR_TYPES
from ascreg.errors import AscregTypeError
from ascreg.machine.simt.engine import divergence
from ascreg.simt import dim3, int2, run_simt_kernel, threadIdx
from reference.vectors import INTEGER_BITS, ref_component


def base_of(name: str) -> str:
    return name.rstrip("234")


@pytest.mark.rows(*(f"make_{n}" for n in VECTOR_TYPES))
@pytest.mark.parametrize("name", list(VECTOR_TYPES))
@settings(max_examples=20)
@given(data=st.data())
def test_make_converts_each_component_as_c(name: str, data: st.DataObject) -> None:
    base, (_element, count) = base_of(name), VECTOR_TYPES[name]
    if base == "float":
        number = st.floats(-3e38, 3e38, allow_nan=False) | st.integers(-(2**24), 2**24)
    else:
        bits = INTEGER_BITS[base][0]
        number = st.integers(-(2 ** (bits + 2)), 2 ** (bits + 2))
    args = data.draw(st.lists(number, min_size=count, max_size=count))
    value = getattr(simt, f"make_{name}")(*args)
    assert type(value) is getattr(simt, name)
    for field, arg in zip("xyzw", args, strict=False):
        assert getattr(value, field) == ref_component(base, arg), (name, field, arg)


def test_vector_types_are_the_c_structs() -> None:
    for name, (element, count) in VECTOR_TYPES.items():
        cls = getattr(simt, name)
        assert cls.size == element.size * count and cls.element is VECTOR_ELEMENTS[base_of(name)]
        assert cls.np_dtype.names == tuple("xyzw"[:count])
    with pytest.raises(TypeError, match="int2 takes 2 components"):
        int2(1, 2, 3)


def test_a_pointer_cast_to_a_vector_type_reads_and_writes_structs() -> None:
    gm = GlobalMemory()
    p = gm.alloc(int32_t, 8)
    p.write(np.arange(8))
    q = p.cast(int2)
    assert (q[1].x, q[1].y) == (2, 3)
    q[3] = int2(-1, -2)
    assert p.read(8).tolist() == [0, 1, 2, 3, 4, 5, -1, -2]
    with pytest.raises(AscregTypeError, match="int2 element takes int2 values"):
        q[0] = 5


def test_vectors_in_a_divergent_kernel_merge_per_lane() -> None:
    gm = GlobalMemory()
    out = gm.alloc(int32_t, 64)

    def kernel(out: Any) -> None:
        i = threadIdx.x
        v = simt.make_int2(i, 2 * i)
        if i % 2 == 0:
            v = simt.make_int2(-i, 7)
        v.y = v.y + 1
        out.cast(int2)[i] = v

    run_simt_kernel(kernel, dim3(1), dim3(32), 0, (out,))
    got = out.read(64).reshape(32, 2)
    i = np.arange(32)
    assert np.array_equal(got[:, 0], np.where(i % 2 == 0, -i, i))
    assert np.array_equal(got[:, 1], np.where(i % 2 == 0, 8, 2 * i + 1))


@pytest.mark.parametrize("mode", ["masked", "unmasked", "per-thread"])
def test_assignment_copies_a_vector_value_as_c_does(mode: str) -> None:
    # int2 b = a; b.x = ...; leaves a unchanged (C structs are values), in every tier
    gm = GlobalMemory()
    out = gm.alloc(int32_t, 16)

    def kernel(out: Any) -> None:
        t = threadIdx.x
        a = simt.make_int2(t, 10 * t)
        b = a
        b.x = 100
        c: Any = b
        if t % 2 == 0:
            c = a
            c.y = -1
        out[4 * t] = a.x
        out[4 * t + 1] = a.y
        out[4 * t + 2] = b.x
        out[4 * t + 3] = c.y

    with divergence(mode):
        run_simt_kernel(kernel, dim3(1), dim3(4), 0, (out,))
    want = [[t, 10 * t, 100, -1 if t % 2 == 0 else 10 * t] for t in range(4)]
    assert out.read(16).reshape(4, 4).tolist() == want


def test_a_few_active_lanes_load_structs_and_numbers_of_their_own_indices() -> None:
    # 4 lanes of 32 active: they gather their own elements alone (the sparse load path)
    gm = GlobalMemory()
    table, out = gm.alloc(int32_t, 64), gm.alloc(int32_t, 96)
    table.write(np.arange(64) * 10)

    def kernel(out: Any, table: Any) -> None:
        i = threadIdx.x
        if i % 8 == 3:
            v = table.cast(int2)[31 - i]
            out.cast(int2)[i] = v
            out[64 + i] = table[63 - i] + 1

    run_simt_kernel(kernel, dim3(1), dim3(32), 0, (out, table))
    got = out.read(96)
    i = np.arange(3, 32, 8)
    pairs = got[:64].reshape(32, 2)
    assert pairs[i].tolist() == [[20 * (31 - k), 20 * (31 - k) + 10] for k in i]
    assert got[64 + i].tolist() == (10 * (63 - i) + 1).tolist()
    others = np.setdiff1d(np.arange(32), i)
    assert not pairs[others].any() and not got[64 + others].any()

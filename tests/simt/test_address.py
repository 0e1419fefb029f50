"""Address-space predicates and conversions, ``asc_dcci_*`` and ``asc_nop``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg import GlobalMemory, UnifiedBuffer, uint32_t, uint64_t
from ascreg._spec.simt import ADDRESS_FUNCTIONS, ADDRESS_SPACES
from ascreg.errors import AscregTypeError
from ascreg.simt import GenericPointer, dim3, run_simt_kernel, threadIdx
from reference.address import ref_from_generic, ref_space, ref_to_generic

ONES = 2**64 - 1
SPACES = tuple(ADDRESS_SPACES)


def is_in(space: str, ptr: Any) -> int:
    return int(getattr(simt, f"__is{ADDRESS_SPACES[space]}")(ptr))


def to_generic(space: str, raw: int) -> Any:
    return getattr(simt, f"__cvta_{space}_to_generic")(raw)


# (pointer, the space the pages say the predicates find: None for none of them)
DOCUMENTED = [
    (None, None),  # nullptr
    (GenericPointer(1), None),  # (void*)0x1
    (GenericPointer(ONES), "global"),  # all ones: __isGlobal 1, __isUbuf 0, __isLocal 0
    (to_generic("global", 0), None),
    (to_generic("global", 1), None),
    (to_generic("global", ONES), "global"),
    (to_generic("ubuf", 0), "ubuf"),
    (to_generic("ubuf", 1), "ubuf"),
    (to_generic("ubuf", ONES), None),
    (to_generic("local", 0), "local"),
    (to_generic("local", 1), "local"),
    (to_generic("local", ONES), "ubuf"),  # "the classification of bad rawbits is not reliable"
]


@pytest.mark.parametrize(("ptr", "space"), DOCUMENTED, ids=repr)
def test_the_documented_special_cases(ptr: Any, space: str | None) -> None:
    assert [is_in(s, ptr) for s in SPACES] == [int(s == space) for s in SPACES]


def test_the_documented_address_values() -> None:
    assert int(simt.__cvta_generic_to_global(None)) == 0
    assert int(simt.__cvta_generic_to_ubuf(None)) == 0x00000000FFF80000
    assert int(simt.__cvta_generic_to_local(None)) == 0x00000000FFF00000


@pytest.mark.rows(*ADDRESS_FUNCTIONS)
@given(st.sampled_from(SPACES), st.integers(0, ONES), st.integers(0, ONES))
def test_generic_addresses_match_the_reference(space: str, raw: int, generic: int) -> None:
    made = to_generic(space, raw)
    assert isinstance(made, GenericPointer) and int(made.value) == ref_to_generic(space, raw)
    ptr = GenericPointer(generic)
    assert is_in(space, ptr) == int(ref_space(generic) == space)
    back = getattr(simt, f"__cvta_generic_to_{space}")(ptr)
    assert isinstance(back, np.uint64) and int(back) == ref_from_generic(space, generic)


def test_ascreg_pointers_know_their_memory() -> None:
    gm, ub = GlobalMemory().alloc(uint32_t, 8), UnifiedBuffer().alloc(uint32_t, 8)
    assert [is_in(s, gm) for s in SPACES] == [1, 0, 0]
    assert [is_in(s, ub + 3) for s in SPACES] == [0, 1, 0]
    assert int(simt.__cvta_generic_to_global(gm + 2)) == gm.address + 8
    assert int(simt.__cvta_generic_to_ubuf(ub + 3)) == ub.address + 12
    for call, ptr, why in [
        (simt.__cvta_generic_to_global, ub, "compile time"),
        (simt.__cvta_generic_to_local, ub, "compile time"),
        (simt.__cvta_generic_to_ubuf, gm, "undefined"),
        (simt.__cvta_generic_to_local, gm, "undefined"),
    ]:
        with pytest.raises(AscregTypeError, match=why):
            call(ptr)
    with pytest.raises(AscregTypeError, match="the C parameter is a pointer"):
        simt.__isGlobal(0x1000)


@pytest.mark.rows("asc_dcci_entire", "asc_dcci_single", "asc_nop")
def test_per_thread_pointers_cache_flushes_and_nop_in_a_kernel() -> None:
    gm = GlobalMemory()
    data, out = gm.alloc(uint32_t, 8), gm.alloc(uint64_t, 16)
    data.write(np.arange(8))

    def kernel(data: Any, out: Any) -> None:
        t = threadIdx.x
        simt.asc_nop()
        simt.asc_dcci_entire(data)
        simt.asc_dcci_single(data + t)
        out[t] = simt.__cvta_generic_to_global(data + t)
        out[8 + t] = simt.__isGlobal(data + t) + 10 * simt.__isUbuf(data + t)

    run_simt_kernel(kernel, dim3(1), dim3(8), 0, (data, out))
    got = out.read(16).tolist()
    assert got[:8] == [data.address + 4 * t for t in range(8)] and got[8:] == [1] * 8
    for bad in (UnifiedBuffer().alloc(uint32_t, 1), GenericPointer(0x80000), None):
        with pytest.raises(AscregTypeError, match="not a Global Memory address"):
            simt.asc_dcci_single(bad)
    simt.asc_dcci_entire(GenericPointer(ONES))  # in the global window

"""Cache-hinted SIMT loads and stores (``asc_ldcg`` / ``asc_ldca`` / ``asc_stcg`` / ``asc_stwt``)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    UnifiedBuffer,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.errors import AddressSpaceError, AscregError, AscregTypeError
from ascreg.simt import asc_ldca, asc_ldcg, asc_stcg, asc_stwt, dim3, run_simt_kernel, threadIdx

ACCESS_TYPES = [
    int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, float32_t, half,
    bfloat16_t,
]  # fmt: skip


@pytest.mark.rows("asc_ldcg", "asc_stcg", "asc_ldca", "asc_stwt")
@pytest.mark.parametrize("dtype", ACCESS_TYPES, ids=lambda t: t.cpp_name)
@pytest.mark.parametrize(
    ("load", "store"), [(asc_ldcg, asc_stcg), (asc_ldca, asc_stwt)], ids=["cg", "ca-wt"]
)
def test_hinted_round_trip_is_a_plain_copy(dtype: Any, load: Any, store: Any) -> None:
    gm = GlobalMemory()
    src, dst = gm.alloc(dtype, 40), gm.alloc(dtype, 40)
    kind = np.dtype(dtype.np_dtype).kind
    info = np.iinfo(dtype.np_dtype) if kind in "iu" else ml_dtypes.finfo(dtype.np_dtype)
    values = np.linspace(float(info.min) / 2, float(info.max) / 2, 40).astype(dtype.np_dtype)
    src.write(values)

    def k(dst: Any, src: Any) -> None:
        t = threadIdx.x
        store(dst + t, load(src + (39 - t)))

    run_simt_kernel(k, dim3(1), dim3(40), 0, (dst, src))
    assert dst.read(40).tobytes() == values[::-1].tobytes()


def test_uniform_address_loads_one_value_and_last_thread_store_wins() -> None:
    gm = GlobalMemory()
    p, q = gm.alloc(int32_t, 1), gm.alloc(int32_t, 8)
    p.write([7])

    def k(p: Any, q: Any) -> None:
        q[threadIdx.x] = asc_ldcg(p) + threadIdx.x.astype(np.int32)
        asc_stwt(p, threadIdx.x.astype(np.int32) * 10)

    run_simt_kernel(k, dim3(1), dim3(8), 0, (p, q))
    assert q.read(8).tolist() == list(range(7, 15))
    assert p.read(1).tolist() == [70]


def test_hinted_store_of_a_diverged_block_is_undone_once() -> None:
    gm = GlobalMemory()
    p = gm.alloc(uint32_t, 8)

    def k(p: Any) -> None:
        t = threadIdx.x
        asc_stcg(p + t, asc_ldca(p + t) + 1)
        if t < 4:
            asc_stcg(p + t, asc_ldcg(p + t) + 10)

    run_simt_kernel(k, dim3(1), dim3(8), 0, (p,))
    assert p.read(8).tolist() == [11] * 4 + [1] * 4


def test_hinted_access_rules() -> None:
    ub = UnifiedBuffer().alloc(uint32_t, 4)
    ub.write([1, 2, 3, 4])
    assert int(asc_ldca(ub + 2)) == 3  # a plain access: UB is fine
    for call, args in ((asc_ldcg, (ub,)), (asc_stcg, (ub, 1)), (asc_stwt, (ub, 1))):
        with pytest.raises(AddressSpaceError, match=f"{call.__name__}: .*not in Global Memory"):
            call(*args)
    with pytest.raises(AscregTypeError, match="fp8_e4m3fn_t is not supported"):
        asc_ldcg(GlobalMemory().alloc(fp8_e4m3fn_t, 1))
    with pytest.raises(AscregTypeError, match="must be a __gm__ or __ubuf__ pointer"):
        asc_stwt(np.zeros(4), 1)
    with pytest.raises(AscregError, match="asc_stcg: cannot store 300 as uint8_t"):
        asc_stcg(GlobalMemory().alloc(uint8_t, 1), 300)

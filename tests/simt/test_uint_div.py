"""``GetUintDivMagicAndShift`` (ascreg.basic) and ``Simt::UintDiv`` (ascreg.simt.Simt), issue 25.

Bit-exact against ``reference.uintdiv`` and against tests/cpp/uint_div.cpp, a C++ program
compiled at test time from the headers' formulas with 128-bit arithmetic; and in a SIMT VF as
ops-nn's deformable_offsets (arch35) writes it: the kernel body prepares the divisors, the VF
splits each thread's linear index with ``Simt::UintDiv``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, GmPtr, Ref, int32_t, uint32_t, uint64_t
from ascreg.basic import GetUintDivMagicAndShift
from ascreg.c_api import __global__, __vector__
from ascreg.errors import AscregError, AscregTypeError, MissingApiError, RefRequiredError
from ascreg.simt import Simt, __simt_vf__, blockIdx, threadIdx
from conftest import compile_cpp
from reference import uintdiv as ref

LIMIT = {32: (1 << 31) - 1, 64: (1 << 63) - 1}
TYPE = {32: uint32_t, 64: uint64_t}


@pytest.fixture(scope="module")
def cpp(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], list[str]]:
    return compile_cpp(tmp_path_factory, "uint_div.cpp")


def divisors(bits: int) -> st.SearchStrategy[int]:
    edges = [1, 2, 3, 7, 10, 255, 256, 257, LIMIT[bits], LIMIT[bits] - 1, 1 << (bits - 2)]
    return st.one_of(st.sampled_from(edges), st.integers(1, LIMIT[bits]))


@pytest.mark.parametrize("bits", [32, 64])
@settings(max_examples=60)
@given(data=st.data())
def test_magic_and_division_match_the_reference_and_cpp(cpp: Any, bits: int, data: Any) -> None:
    d = data.draw(divisors(bits), label="divisor")
    dtype = TYPE[bits]
    n = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=1, max_size=16), label="n")
    magic, shift = Ref(dtype(0)), Ref(dtype(0))
    GetUintDivMagicAndShift(magic, shift, dtype(d))
    m, s = int(magic.value), int(shift.value)
    assert (m, s) == ref.magic_and_shift(d, bits)
    assert cpp([f"magic {bits} {d}"]) == [f"{m} {s}"]
    got = Simt.UintDiv(np.array(n, dtype.np_dtype), magic.value, shift.value)
    want = [ref.uint_div(v, m, s, bits) for v in n]
    assert [int(x) for x in got] == want
    assert [int(x) for x in cpp([f"div {bits} {v} {m} {s}" for v in n])] == want
    # the quotient, wherever the sum cannot wrap (the indices kernels divide)
    assert all(w == v // d for v, w in zip(n, want, strict=True) if v <= LIMIT[bits])


def test_template_argument_deduction_and_refusals() -> None:
    m, s = Ref(0), Ref(0)
    with pytest.raises(AscregTypeError, match="cannot deduce T"):
        GetUintDivMagicAndShift(m, s, 12)
    GetUintDivMagicAndShift[uint32_t](m, s, 12)
    assert type(m.value) is np.uint32 and int(Simt.UintDiv(np.uint32(100), m.value, s.value)) == 8
    assert int(Simt.UintDiv[uint32_t](100, int(m.value), int(s.value))) == 8
    with pytest.raises(AscregTypeError, match="cannot deduce T"):
        Simt.UintDiv(100, 1, 0)
    with pytest.raises(AscregTypeError, match="cannot deduce T"):
        Simt.UintDiv(np.uint32(100), np.uint64(1), np.uint32(0))
    with pytest.raises(AscregTypeError, match="uint32_t or uint64_t"):
        Simt.UintDiv(np.int32(100), np.int32(1), np.int32(0))
    with pytest.raises(AscregTypeError, match="uint32_t or uint64_t"):
        GetUintDivMagicAndShift[int32_t]
    with pytest.raises(RefRequiredError):
        GetUintDivMagicAndShift[uint32_t](0, s, 3)
    for bad in (0, 1 << 31):
        with pytest.raises(AscregError, match="INT32_MAX"):
            GetUintDivMagicAndShift[uint32_t](m, s, bad)
    with pytest.raises(AscregError, match="not below 32"):
        Simt.UintDiv(np.uint32(1), np.uint32(1), np.uint32(32))
    with pytest.raises(MissingApiError, match="Simt::Fma"):
        Simt.Fma  # noqa: B018


# -- deformable_offsets' index split, as the C++ writes it ---------------------------------------

VF_MAX_THREAD_NUM = 256


@__simt_vf__
def ComputeIndices(out: GmPtr[int32_t], numKernels: int, blockNumber: int, outImgSize: int,
                   imgOutWidth: int, imgChannel: int, shiftB_: Any, mB_: Any, shiftH_: Any,
                   mH_: Any, shiftW_: Any, mW_: Any) -> None:  # fmt: skip
    index = blockIdx.x * VF_MAX_THREAD_NUM + threadIdx.x
    while index < numKernels:
        batchNum = int32_t(Simt.UintDiv(uint32_t(index), mB_, shiftB_))
        remain = index - batchNum * outImgSize
        heightCol = int32_t(Simt.UintDiv(uint32_t(remain), mH_, shiftH_))
        remain = remain - heightCol * (imgOutWidth * imgChannel)
        widthCol = int32_t(Simt.UintDiv(uint32_t(remain), mW_, shiftW_))
        channelIndex = remain - widthCol * imgChannel
        out[index * 4 + 0] = batchNum
        out[index * 4 + 1] = heightCol
        out[index * 4 + 2] = widthCol
        out[index * 4 + 3] = channelIndex
        index += blockNumber * VF_MAX_THREAD_NUM


@__global__
@__vector__
def deformable_indices(out: GmPtr[int32_t], numKernels: int, blockNumber: int, imgOutHeight: int,
                       imgOutWidth: int, imgChannel: int) -> None:  # fmt: skip
    outImgSize = imgOutWidth * imgOutHeight * imgChannel
    shiftB_, mB_, shiftH_, mH_ = (
        Ref(uint32_t(0)),
        Ref(uint32_t(0)),
        Ref(uint32_t(0)),
        Ref(uint32_t(0)),
    )
    shiftW_, mW_ = Ref(uint32_t(0)), Ref(uint32_t(0))
    GetUintDivMagicAndShift(mB_, shiftB_, uint32_t(outImgSize))
    GetUintDivMagicAndShift(mH_, shiftH_, uint32_t(imgOutWidth * imgChannel))
    GetUintDivMagicAndShift(mW_, shiftW_, uint32_t(imgChannel))
    Simt.VF_CALL[ComputeIndices](
        Simt.Dim3(VF_MAX_THREAD_NUM), out, numKernels, blockNumber, outImgSize, imgOutWidth,
        imgChannel, shiftB_.value, mB_.value, shiftH_.value, mH_.value, shiftW_.value, mW_.value,
    )  # fmt: skip


def test_deformable_offsets_index_split() -> None:
    batch, height, width, channel, blocks = 3, 5, 7, 6, 2
    total = batch * height * width * channel
    gm = GlobalMemory()
    out = gm.alloc(int32_t, total * 4)
    deformable_indices[blocks, 0, None](out, total, blocks, height, width, channel)
    got = out.read(total * 4).reshape(total, 4)
    index = np.arange(total)
    want = np.stack(
        [index // (height * width * channel), index // (width * channel) % height,
         index // channel % width, index % channel], axis=1,
    )  # fmt: skip
    assert np.array_equal(got, want)

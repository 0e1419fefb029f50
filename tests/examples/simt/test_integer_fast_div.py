"""Port of asc-devkit examples/05_simd_simt_hybrid/02_best_practices/simd_simt_integer_fast_div/integer_div.asc.

Line for line: ``integer_div_kernel<scenario>`` (a ``__global__ __vector__`` kernel) copies its
block's 2048 ``uint32_t`` values GM -> UB, starts a 2048-thread ``__simt_vf__`` that divides by
7 -- scenario 0 with ``value / divisor``, scenario 1 with the precomputed magic number and
shift (``__umulhi(value, magic)``, then ``(value + q) >> shift``) -- and copies the quotients
back. Inputs are the example's: ``std::mt19937(12345)`` fed to
``std::uniform_int_distribution<uint32_t>(0, INT32_MAX)``; numpy's legacy ``RandomState(12345)``
is the same Mersenne Twister, and libstdc++ maps each 32-bit draw to this range as ``draw >> 1``
(checked against g++ for the first 16384 values). Golden ``input / divisor``, compared with
``std::equal``. ``DATA_SIZE`` is cut from 8388608 to 8 blocks of 2048 (16384) for speed.

Not line for line: the scalar builtins ``clz`` and ``bcnt1`` of ``calc_magic_shift`` are not in
ascreg, so they are written here on Python ints; ``if ASC_IS_AIV`` is the constant it is on a
vector core.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, UbPtr, acl, int64_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_load_l2_cache_mode,
    asc_store_l2_cache_mode,
    asc_sync_notify,
    asc_sync_wait,
    asc_vf_call,
    block_idx,
)
from ascreg.simt import (
    __launch_bounds__,
    __simt_vf__,
    __umulhi,
    blockDim,
    blockIdx,
    dim3,
    threadIdx,
)

THREAD_COUNT = 2048
THREAD_LIMIT = 2048
MAX_UB_ELEMENTS = 32768
BIT_64_LEN = 64
BIT_32_LEN = 32

DATA_SIZE = 8 * THREAD_COUNT  # number of input elements (the example: 8388608)
DIVISOR = 7  # fixed divisor
INT32_MAX = 2**31 - 1
ASC_IS_AIV = True  # the kernel runs on a vector core


def clz(x: int) -> int:
    """The 64-bit scalar builtin ``clz`` (not in ascreg): leading zero bits."""
    return BIT_64_LEN - int(x).bit_length()


def bcnt1(x: int) -> int:
    """The 64-bit scalar builtin ``bcnt1`` (not in ascreg): one bits."""
    return bin(int(x)).count("1")


@__aicore__
def count_leading_zero(x: int) -> int:
    return clz(x)


@__aicore__
def get_bit_count1(x: int) -> int:
    return bcnt1(x)


@__aicore__
def calc_magic_shift(magic_out: Ref[int], shift_out: Ref[int], divisor: int) -> None:
    if divisor == 0:
        magic_out.value = 0
        shift_out.value = 0
        return

    pos = BIT_64_LEN - count_leading_zero(divisor)
    cnt1 = get_bit_count1(divisor)
    shift = (pos - 1) if cnt1 == 1 else pos
    one = int64_t(1)  # 1l
    magic = (one << BIT_32_LEN) * ((one << shift) - divisor) // divisor + 1

    magic_out.value = uint32_t(magic)
    shift_out.value = shift


@__simt_vf__
@__launch_bounds__(THREAD_LIMIT)
def simt_normal_div(
    input: UbPtr[uint32_t], output: UbPtr[uint32_t], divisor: int, total_length: int
) -> None:
    local_idx = threadIdx.x
    idx = blockIdx.x * blockDim.x + local_idx

    if idx >= total_length:
        return

    value = input[local_idx]
    result = value // divisor
    output[local_idx] = result


@__simt_vf__
@__launch_bounds__(THREAD_LIMIT)
def simt_fast_div(
    input: UbPtr[uint32_t], output: UbPtr[uint32_t], magic: int, shift: int, total_length: int
) -> None:
    local_idx = threadIdx.x
    idx = blockIdx.x * blockDim.x + local_idx

    if idx >= total_length:
        return

    value = input[local_idx]
    q = __umulhi(value, magic)
    result = (value + q) >> shift
    output[local_idx] = result


def integer_div_kernel(scenario: int):  # template <int scenario>
    @__global__
    @__vector__
    def kernel(
        input: GmPtr[uint32_t], output: GmPtr[uint32_t], divisor: int, total_length: int
    ) -> None:
        magic = Ref(0)
        shift = Ref(0)
        if scenario == 1:
            calc_magic_shift(magic, shift, divisor)

        block_offset = block_idx * THREAD_COUNT

        input_buf = __ubuf__(uint32_t, THREAD_COUNT)
        output_buf = __ubuf__(uint32_t, THREAD_COUNT)
        blk_length = THREAD_COUNT * uint32_t.size
        asc_copy_gm2ub_align(
            input_buf, input + block_offset, 1, blk_length, 0, 0, False,
            asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM, 0, 0,
        )  # fmt: skip

        if ASC_IS_AIV:
            asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
            asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

        if scenario == 0:
            asc_vf_call[simt_normal_div](
                dim3(THREAD_COUNT), input_buf, output_buf, divisor, total_length
            )
        else:
            asc_vf_call[simt_fast_div](
                dim3(THREAD_COUNT),
                input_buf,
                output_buf,
                uint32_t(magic.value),
                uint32_t(shift.value),
                total_length,
            )

        if ASC_IS_AIV:
            asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
            asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

        asc_copy_ub2gm_align(
            output + block_offset,
            output_buf,
            1,
            blk_length,
            asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
            0,
            0,
        )

    return kernel


def integer_div_compute(input: np.ndarray, divisor: int, scenario: int) -> np.ndarray:
    total_length = input.size
    assert THREAD_COUNT <= MAX_UB_ELEMENTS

    num_blocks = (total_length + THREAD_COUNT - 1) // THREAD_COUNT
    total_byte_size = total_length * uint32_t.size

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    output_host, _ = acl.rt.malloc_host(total_byte_size)
    input_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(
        input_device, total_byte_size, input, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )

    dyn_ubuf_size = 0  # No need to alloc dynamic memory.

    integer_div_kernel(scenario)[num_blocks, dyn_ubuf_size, stream](
        input_device.cast(uint32_t),
        output_device.cast(uint32_t),
        uint32_t(divisor),
        uint32_t(total_length),
    )
    acl.rt.synchronize_stream(stream)

    acl.rt.memcpy(
        output_host, total_byte_size, output_device, total_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )

    output = output_host.view(np.uint32).copy()

    acl.rt.free(input_device)
    acl.rt.free(output_device)
    acl.rt.free_host(output_host)

    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()

    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``std::equal``."""
    return bool(np.array_equal(output, golden))


def random_uint32(count: int) -> np.ndarray:
    """``count`` draws of ``uniform_int_distribution<uint32_t>(0, INT32_MAX)(mt19937(12345))``."""
    engine = np.random.RandomState(12345)  # the same MT19937 seeding as std::mt19937(12345)
    return engine.randint(0, 2**32, count, dtype=np.uint32) >> np.uint32(1)


def make_data() -> tuple[np.ndarray, np.ndarray]:
    input = random_uint32(DATA_SIZE)
    golden = input // np.uint32(DIVISOR)
    return input, golden


@pytest.mark.parametrize("scenario", [0, 1])
def test_integer_div_matches_the_examples_golden(scenario: int) -> None:
    input, golden = make_data()
    assert int(input.max()) <= INT32_MAX
    output = integer_div_compute(input, DIVISOR, scenario)
    assert verify_result(output, golden)
    assert not verify_result(output, golden + np.uint32(input % 2 == 0))  # the check can fail


def test_magic_and_shift_for_7() -> None:
    magic, shift = Ref(0), Ref(0)
    calc_magic_shift(magic, shift, DIVISOR)
    assert (magic.value, shift.value) == (613566757, 3)


def test_fast_div_with_a_wrong_shift_fails() -> None:
    input, golden = make_data()
    wrong = calc_magic_shift

    def off_by_one(magic_out: Ref[int], shift_out: Ref[int], divisor: int) -> None:
        wrong(magic_out, shift_out, divisor)
        shift_out.value -= 1

    globals()["calc_magic_shift"] = off_by_one
    try:
        assert not verify_result(integer_div_compute(input, DIVISOR, 1), golden)
    finally:
        globals()["calc_magic_shift"] = wrong

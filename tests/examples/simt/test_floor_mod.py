"""Port of asc-devkit examples/05_simd_simt_hybrid/02_best_practices/simd_simt_high_performance/floor_mod.asc.

Line for line, all four scenarios of ``SCENARIO_NUM``, each a ``__global__ __vector__`` kernel on
64 blocks: 0 starts ``floor_mod_simt_gm_contiguous`` (1024 SIMT threads, a grid-stride loop over
GM); 1, 2 and 3 run ``process_tiles``, which double-buffers 8192-element tiles through dynamic
UB (``asc_copy_gm2ub_align`` on MTE2, the compute on V, ``asc_copy_ub2gm_align`` on MTE3, ping
and pong flags) and computes each tile with the ``__simd_vf__ floor_mod_simd`` (1: ``asc_div``,
``asc_mul``, ``asc_sub``, the ``y == 0`` select and the sign adjustment) or the ``__simt_vf__``
``floor_mod_simt_non_contiguous`` (2: eight consecutive elements per thread, ``break`` past the
end) or ``floor_mod_simt_contiguous`` (3: a block-stride loop). The SIMT kernels branch per
element on the signs of the remainder and the divisor: they run vectorised under active masks.

Data as scripts/gen_data.py makes them (``default_rng(20260516)``: ``integers(-100000, 100001)``
dividends, ``integers(-127, 128)`` divisors with 0 replaced by 7, every 64th dividend a multiple
of its divisor; the golden from truncated division and the sign fix, in 2**20-element chunks),
checked as scripts/verify_result.py checks (error ratio 0).

Smaller: the tensor is 16 x 8192 instead of 8192 x 8192, on 8 blocks instead of 64 (two tiles
per block instead of 16, so ping and pong are both used).

Not line for line: C's ``%`` (the remainder truncated toward zero) is written ``fmod`` (numpy's
``np.fmod``, exact on integers): Python's ``%`` floors, which would hide the sign adjustment.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, Ref, UbPtr, acl, int32_t
from ascreg.c_api import (
    EVENT_ID0,
    EVENT_ID1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_add,
    asc_and,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_div,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_init,
    asc_load_l2_cache_mode,
    asc_loadalign,
    asc_mul,
    asc_ne,
    asc_ne_scalar,
    asc_select,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sub,
    asc_sync_data_barrier,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    asc_vf_call,
    block_idx,
    mem_dsb_t,
    vector_bool,
    vector_int32_t,
)
from ascreg.simt import __simt_vf__, blockDim, blockIdx, dim3, gridDim, threadIdx

fmod = np.fmod  # C's % on integers: truncated toward zero


def ceil_div(a: int, b: int) -> int:
    return (a + b - 1) // b


SHAPE_H = 16  # the example: 8192
SHAPE_W = 8192
INPUT_TOTAL_LENGTH = SHAPE_H * SHAPE_W
BLOCK_NUM = 8  # the example: 64
THREAD_COUNT = 1024
TILE_LENGTH = 8192
DATA_LEN_PER_CORE = INPUT_TOTAL_LENGTH // BLOCK_NUM
TILE_NUM_PER_CORE = DATA_LEN_PER_CORE // TILE_LENGTH
UB_KERNEL_DYN_UBUF_SIZE = TILE_LENGTH * int32_t.size * 6
FMOD_B32_SIGN = 0x80000000


# SCENARIO_NUM=0: pure SIMT, direct GM access
@__simt_vf__
def floor_mod_simt_gm_contiguous(
    x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t], input_total_length: int
) -> None:
    index = blockIdx.x * blockDim.x + threadIdx.x
    while index < input_total_length:
        y_value = y[index]
        rem = fmod(x[index], y_value)
        signs_differ = (rem < 0) != (y_value < 0)
        if signs_differ and (rem != 0):
            z[index] = rem + y_value
        else:
            z[index] = rem
        index += gridDim.x * blockDim.x


# SCENARIO_NUM=1: SIMD (Div, then the y == 0 protection)
@__simd_vf__
def floor_mod_simd(
    z_addr: UbPtr[int32_t], x_addr: UbPtr[int32_t], y_addr: UbPtr[int32_t], count: int
) -> None:
    one_repeat_size = asc_get_vf_len() // int32_t.size
    loop_times = ceil_div(count, one_repeat_size)

    x_value = vector_int32_t()
    y_value = vector_int32_t()
    mod_value = vector_int32_t()
    temp_value = vector_int32_t()
    default_value = vector_int32_t()
    sign_value = vector_int32_t()

    mask = vector_bool()
    select_mask = vector_bool()
    adjust_mask = vector_bool()
    mask_count = Ref(count)

    asc_duplicate_scalar(default_value, int32_t(-1))
    asc_duplicate_scalar(sign_value, np.uint32(FMOD_B32_SIGN).view(np.int32))

    for i in range(loop_times):
        mask = asc_update_mask_b32(mask_count)
        asc_loadalign(x_value, x_addr + i * one_repeat_size)
        asc_loadalign(y_value, y_addr + i * one_repeat_size)

        asc_div(temp_value, x_value, y_value, mask)
        asc_mul(temp_value, y_value, temp_value, mask)
        asc_sub(mod_value, x_value, temp_value, mask)

        # divide-by-zero protection: y == 0 gives -1
        asc_ne_scalar(select_mask, y_value, int32_t(0), mask)
        asc_select(temp_value, mod_value, default_value, select_mask)

        # adjust the truncated remainder to floor_mod
        asc_add(mod_value, temp_value, y_value, mask)
        asc_ne_scalar(adjust_mask, temp_value, int32_t(0), mask)
        asc_and(x_value, temp_value, sign_value, mask)
        asc_and(y_value, y_value, sign_value, mask)
        asc_ne(select_mask, x_value, y_value, mask)
        asc_and(adjust_mask, select_mask, adjust_mask, mask)
        asc_select(mod_value, mod_value, temp_value, adjust_mask)
        asc_storealign(z_addr + i * one_repeat_size, mod_value, mask)


# SCENARIO_NUM=2: SIMT, non-contiguous access
@__simt_vf__
def floor_mod_simt_non_contiguous(
    x: UbPtr[int32_t], y: UbPtr[int32_t], z: UbPtr[int32_t], input_total_length: int
) -> None:
    elems_per_thread = TILE_LENGTH // THREAD_COUNT
    tid = threadIdx.x
    for i in range(elems_per_thread):
        index = tid * elems_per_thread + i
        if index >= input_total_length:
            break
        y_value = y[index]
        rem = fmod(x[index], y_value)
        signs_differ = (rem < 0) != (y_value < 0)
        if signs_differ and (rem != 0):
            z[index] = rem + y_value
        else:
            z[index] = rem


# SCENARIO_NUM=3: SIMT, contiguous access
@__simt_vf__
def floor_mod_simt_contiguous(
    x: UbPtr[int32_t], y: UbPtr[int32_t], z: UbPtr[int32_t], input_total_length: int
) -> None:
    index = threadIdx.x
    while index < input_total_length:
        y_value = y[index]
        rem = fmod(x[index], y_value)
        signs_differ = (rem < 0) != (y_value < 0)
        if signs_differ and (rem != 0):
            z[index] = rem + y_value
        else:
            z[index] = rem
        index += blockDim.x


def process_tiles(
    x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t], compute_mode: int
) -> None:
    core_offset = block_idx * DATA_LEN_PER_CORE
    x_gm = x + core_offset
    y_gm = y + core_offset
    z_gm = z + core_offset

    ub_buf = __ubuf__.extern(int32_t)
    x_ping = ub_buf
    y_ping = ub_buf + TILE_LENGTH
    z_ping = ub_buf + TILE_LENGTH * 2
    x_pong = ub_buf + TILE_LENGTH * 3
    y_pong = ub_buf + TILE_LENGTH * 4
    z_pong = ub_buf + TILE_LENGTH * 5

    asc_sync_notify(PIPE_V, PIPE_MTE2, EVENT_ID0)
    asc_sync_notify(PIPE_V, PIPE_MTE2, EVENT_ID1)
    asc_sync_notify(PIPE_MTE3, PIPE_V, EVENT_ID0)
    asc_sync_notify(PIPE_MTE3, PIPE_V, EVENT_ID1)

    for tile_idx in range(TILE_NUM_PER_CORE):
        event_id = EVENT_ID0 if (tile_idx & 1) == 0 else EVENT_ID1
        tile_offset = tile_idx * TILE_LENGTH
        tile_bytes = TILE_LENGTH * int32_t.size
        x_local = x_ping if (tile_idx & 1) == 0 else x_pong
        y_local = y_ping if (tile_idx & 1) == 0 else y_pong
        z_local = z_ping if (tile_idx & 1) == 0 else z_pong

        asc_sync_wait(PIPE_V, PIPE_MTE2, event_id)
        l2 = asc_load_l2_cache_mode.NOTALLOC_KEEP
        asc_copy_gm2ub_align(x_local, x_gm + tile_offset, 1, tile_bytes, 0, 0, False, l2, 0, 0)
        asc_copy_gm2ub_align(y_local, y_gm + tile_offset, 1, tile_bytes, 0, 0, False, l2, 0, 0)
        asc_sync_notify(PIPE_MTE2, PIPE_V, event_id)

        asc_sync_wait(PIPE_MTE2, PIPE_V, event_id)
        asc_sync_wait(PIPE_MTE3, PIPE_V, event_id)
        if compute_mode == 1:
            asc_vf_call[floor_mod_simd](z_local, x_local, y_local, TILE_LENGTH)
        elif compute_mode == 2:
            asc_vf_call[floor_mod_simt_non_contiguous](
                dim3(THREAD_COUNT), x_local, y_local, z_local, TILE_LENGTH
            )
            asc_sync_data_barrier(mem_dsb_t.DSB_UB)
        else:
            asc_vf_call[floor_mod_simt_contiguous](
                dim3(THREAD_COUNT), x_local, y_local, z_local, TILE_LENGTH
            )
            asc_sync_data_barrier(mem_dsb_t.DSB_UB)
        asc_sync_notify(PIPE_V, PIPE_MTE2, event_id)

        asc_sync_notify(PIPE_V, PIPE_MTE3, event_id)
        asc_sync_wait(PIPE_V, PIPE_MTE3, event_id)
        l2_out = asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM
        asc_copy_ub2gm_align(z_gm + tile_offset, z_local, 1, tile_bytes, l2_out, 0, 0)
        asc_sync_notify(PIPE_MTE3, PIPE_V, event_id)

    asc_sync_wait(PIPE_V, PIPE_MTE2, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE2, EVENT_ID1)
    asc_sync_wait(PIPE_MTE3, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE3, PIPE_V, EVENT_ID1)


@__global__
@__vector__
def floor_mod_gm_simt_custom(x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t]) -> None:
    asc_init()
    asc_vf_call[floor_mod_simt_gm_contiguous](dim3(THREAD_COUNT), x, y, z, INPUT_TOTAL_LENGTH)


@__global__
@__vector__
def floor_mod_simd_custom(x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t]) -> None:
    asc_init()
    process_tiles(x, y, z, 1)


@__global__
@__vector__
def floor_mod_simt_non_contiguous_custom(
    x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t]
) -> None:
    asc_init()
    process_tiles(x, y, z, 2)


@__global__
@__vector__
def floor_mod_simt_contiguous_custom(
    x: GmPtr[int32_t], y: GmPtr[int32_t], z: GmPtr[int32_t]
) -> None:
    asc_init()
    process_tiles(x, y, z, 3)


def gen_golden_data_int() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py, at this port's size (returns self, other, golden)."""
    input_total_length = INPUT_TOTAL_LENGTH
    rng = np.random.default_rng(20260516)
    self_data = rng.integers(-100000, 100001, input_total_length, dtype=np.int32)
    other_data = rng.integers(-127, 128, input_total_length, dtype=np.int32)
    other_data[other_data == 0] = 7

    divisible_indexes = np.arange(0, input_total_length, 64)
    multipliers = rng.integers(-2048, 2049, divisible_indexes.size, dtype=np.int32)
    self_data[divisible_indexes] = other_data[divisible_indexes] * multipliers

    golden = np.zeros(input_total_length, dtype=np.int32)
    chunk_size = 1 << 20
    for start in range(0, input_total_length, chunk_size):
        end = min(start + chunk_size, input_total_length)
        self_chunk = self_data[start:end].astype(np.int64)
        other_chunk = other_data[start:end].astype(np.int64)
        quotient = np.abs(self_chunk) // np.abs(other_chunk)
        quotient = np.where((self_chunk >= 0) == (other_chunk >= 0), quotient, -quotient)
        rem = self_chunk - quotient * other_chunk
        signs_differ = (rem < 0) != (other_chunk < 0)
        golden[start:end] = np.where(signs_differ & (rem != 0), rem + other_chunk, rem).astype(
            np.int32
        )
    return self_data, other_data, golden


def verify_result_int(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: the share of differing elements must be 0."""
    different_element_indexes = np.where(np.equal(output, golden) == False)[0]  # noqa: E712
    error_ratio = float(different_element_indexes.size) / golden.size
    return error_ratio == 0.0


KERNELS: dict[int, Any] = {
    0: (floor_mod_gm_simt_custom, 0),
    1: (floor_mod_simd_custom, UB_KERNEL_DYN_UBUF_SIZE),
    2: (floor_mod_simt_non_contiguous_custom, UB_KERNEL_DYN_UBUF_SIZE),
    3: (floor_mod_simt_contiguous_custom, UB_KERNEL_DYN_UBUF_SIZE),
}
"""``if constexpr (scenario_num == ...)``: the kernel and its dynamic UB bytes."""


def run_scenario(scenario_num: int, x_host: np.ndarray, y_host: np.ndarray) -> np.ndarray:
    """``main``: copy in, launch the scenario's kernel on BLOCK_NUM blocks, copy out."""
    input_byte_size = INPUT_TOTAL_LENGTH * int32_t.size
    z_byte_size = INPUT_TOTAL_LENGTH * int32_t.size
    acl.init(None)
    device_id = 0
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    x_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(x_device, input_byte_size, x_host, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    y_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(y_device, input_byte_size, y_host, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    z_device, _ = acl.rt.malloc(z_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    kernel, dyn_ubuf_size = KERNELS[scenario_num]
    kernel[BLOCK_NUM, dyn_ubuf_size, stream](
        x_device.cast(int32_t), y_device.cast(int32_t), z_device.cast(int32_t)
    )
    acl.rt.synchronize_stream(stream)

    z_host = np.zeros(INPUT_TOTAL_LENGTH, dtype=np.int32)
    acl.rt.memcpy(z_host, z_byte_size, z_device, z_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for buffer in (x_device, y_device, z_device):
        acl.rt.free(buffer)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return z_host


@pytest.mark.parametrize("scenario_num", [0, 1, 2, 3])
def test_floor_mod_matches_the_golden(scenario_num: int) -> None:
    self_data, other_data, golden = gen_golden_data_int()
    output = run_scenario(scenario_num, self_data, other_data)
    assert verify_result_int(output, golden)
    truncated = fmod(self_data, other_data)  # without the sign adjustment
    assert not verify_result_int(truncated, golden)  # the check catches it

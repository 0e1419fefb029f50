"""Port of asc-devkit examples/05_simd_simt_hybrid/00_introduction/simd_simt_gather_and_adds/gather_and_adds.asc.

Line for line: ``gather_and_adds_kernel<<<8, 1024 * sizeof(float), stream>>>`` -- each vector
core starts the 1024-thread ``__simt_vf__ simt_gather`` (``local_output[threadIdx.x] =
input[index[idx]]`` into the dynamic UB, with its three range guards), then the ``__simd_vf__
simd_adds`` (``asc_update_mask_b32``, ``asc_loadalign``, add 1.0, ``asc_storealign``) on the
same UB, then ``asc_copy_ub2gm_align`` of its 1024 results. Data as scripts/gen_data.py makes
them (``uniform(0, 100)`` float32 input of 100000, ``randint(0, 100000)`` uint32 index of 8192,
golden ``input_x[index] + 1``; the script sets no seed, the test seeds numpy's legacy generator
so runs repeat), checked as scripts/verify_result.py checks (``isclose`` rtol 1e-5, atol 1e-5,
error ratio at most 1e-5). Sizes are the example's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_add_scalar,
    asc_copy_ub2gm_align,
    asc_get_vf_len,
    asc_loadalign,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    asc_vf_call,
    block_idx,
    block_num,
    vector_bool,
    vector_float,
)
from ascreg.simt import __launch_bounds__, __simt_vf__, blockDim, blockIdx, dim3, threadIdx

# The scalar addend of the Adds stage ("+ 1").
ADDS_ADDEND = 1.0
# Each vector core handles 1024 index elements: one SIMT thread per element.
THREAD_COUNT = 1024


@__simt_vf__
@__launch_bounds__(THREAD_COUNT)
def simt_gather(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    local_output: UbPtr[float32_t],
    input_total_length: int,
    index_total_length: int,
    output_total_length: int,
) -> None:
    # Guard the core's output range (more threads than elements would write past the UB).
    if threadIdx.x >= output_total_length:
        return
    # The element of the global index array this core and thread handle.
    idx = blockIdx.x * blockDim.x + threadIdx.x
    # Guard the index read.
    if idx >= index_total_length:
        return
    # The input element to fetch.
    gather_idx = index[idx]
    # Guard the input read against an illegal index.
    if gather_idx >= input_total_length:
        return
    # Scattered GM reads land contiguously in UB for the SIMD stage.
    local_output[threadIdx.x] = input[gather_idx]


@__simd_vf__
def simd_adds(
    output: UbPtr[float32_t],
    input: UbPtr[float32_t],
    count: int,
    one_repeat_size: int,
    repeat_times: int,
) -> None:
    src_reg0 = vector_float()
    dst_reg0 = vector_float()
    mask_reg = vector_bool()
    count_ = Ref(count)  # asc_update_mask_b32 updates its uint32_t& argument

    for i in range(repeat_times):
        mask_reg = asc_update_mask_b32(count_)
        asc_loadalign(src_reg0, input + i * one_repeat_size)
        asc_add_scalar(dst_reg0, src_reg0, ADDS_ADDEND, mask_reg)
        asc_storealign(output + i * one_repeat_size, dst_reg0, mask_reg)


@__global__
@__vector__
def gather_and_adds_kernel(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    output: GmPtr[float32_t],
    input_total_length: int,
    index_total_length: int,
) -> None:
    # The index elements split evenly over the launched cores (8192 / 8 = 1024 each).
    index_total_length_per_block = index_total_length // block_num
    # The dynamic UB holds the Gather and then the Adds results.
    local_output = __ubuf__.extern(float32_t)
    asc_vf_call[simt_gather](
        dim3(THREAD_COUNT),
        input,
        index,
        local_output,
        input_total_length,
        index_total_length,
        index_total_length_per_block,
    )
    one_repeat_size = asc_get_vf_len() // float32_t.size
    repeat_times = (index_total_length_per_block + one_repeat_size - 1) // one_repeat_size
    asc_vf_call[simd_adds](
        local_output, local_output, index_total_length_per_block, one_repeat_size, repeat_times
    )
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        output + index_total_length_per_block * block_idx,
        local_output,
        1,
        index_total_length_per_block * float32_t.size,
        asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        0,
        0,
    )


input_total_length = 100000
index_total_length = 8 * 1024
num_blocks = 8


def main(input_x: np.ndarray, index: np.ndarray) -> np.ndarray:
    input_byte_size = input_total_length * float32_t.size
    index_byte_size = index_total_length * uint32_t.size
    output_byte_size = index_total_length * float32_t.size

    acl.init(None)
    device_id = 0
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    input_host, _ = acl.rt.malloc_host(input_byte_size)
    input_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    input_host[:] = input_x.view(np.uint8)  # ReadFile("./input/input_x.bin", ...)
    acl.rt.memcpy(
        input_device, input_byte_size, input_host, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )

    index_host, _ = acl.rt.malloc_host(index_byte_size)
    index_device, _ = acl.rt.malloc(index_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    index_host[:] = index.view(np.uint8)  # ReadFile("./input/index.bin", ...)
    acl.rt.memcpy(
        index_device, index_byte_size, index_host, index_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )

    output_host, _ = acl.rt.malloc_host(output_byte_size)
    output_device, _ = acl.rt.malloc(output_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    # The launch's second argument is the dynamic UB size.
    dyn_ub_size = THREAD_COUNT * float32_t.size
    gather_and_adds_kernel[num_blocks, dyn_ub_size, stream](
        input_device.cast(float32_t),
        index_device.cast(uint32_t),
        output_device.cast(float32_t),
        uint32_t(input_total_length),
        uint32_t(index_total_length),
    )

    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(
        output_host,
        output_byte_size,
        output_device,
        output_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )
    output = output_host.view(np.float32).copy()  # WriteFile("./output/output.bin", ...)

    acl.rt.free(input_device)
    acl.rt.free(index_device)
    acl.rt.free(output_device)
    acl.rt.free_host(input_host)
    acl.rt.free_host(index_host)
    acl.rt.free_host(output_host)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py (seeded here): uniform input, random index, ``input_x[index] + 1``."""
    random: Any = np.random.RandomState(seed)
    adds_addend = 1.0
    input_x = random.uniform(0.0, 100.0, [input_total_length]).astype(np.float32)
    index = random.randint(0, input_total_length, [index_total_length]).astype(np.uint32)
    golden = input_x[index] + adds_addend
    return input_x, index, golden


RELATIVE_TOL = 1e-5
ABSOLUTE_TOL = 1e-5
ERROR_TOL = 1e-5


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose with the script's tolerances, error ratio <= 1e-5."""
    different_element_results = np.isclose(
        output, golden, rtol=RELATIVE_TOL, atol=ABSOLUTE_TOL, equal_nan=True
    )
    different_element_indexes = np.where(~different_element_results)[0]
    error_ratio = float(different_element_indexes.size) / golden.size
    return error_ratio <= ERROR_TOL


def test_gather_and_adds_matches_the_examples_golden() -> None:
    input_x, index, golden = gen_golden_data_simple(2026)
    output = main(input_x, index)
    assert verify_result(output, golden)
    assert not verify_result(output - np.float32(ADDS_ADDEND), golden)  # a missing Adds fails


def test_gather_and_adds_catches_a_wrong_index() -> None:
    input_x, index, golden = gen_golden_data_simple(2026)
    index[5000] = (index[5000] + 1) % input_total_length
    assert not verify_result(main(input_x, index), golden)

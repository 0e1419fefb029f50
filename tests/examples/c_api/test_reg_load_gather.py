"""Port of asc-devkit examples/02_simd_c_api/03_c_api/00_data_movement/reg_load_gather/reg_load_gather.asc.

Line for line, both scenarios (``SCENARIO_NUM`` 1 and 2): ``gather_elements`` gathers 256
halves from a 1024-half UB source through a uint16 index with the UB form of ``asc_gather``;
``gather_datablocks`` gathers DataBlocks with ``asc_gather_datablock`` (the C++ pads its uint32
index array itself, ``datablock_index_ub_length``, for the whole-register index load). Inputs
and goldens are made as scripts/gen_data.py makes them and checked as scripts/verify_result.py
does (every half equal).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, UbPtr, acl, half, uint16_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub,
    asc_copy_ub2gm,
    asc_gather,
    asc_gather_datablock,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_storealign,
    asc_sync_notify,
    asc_sync_pipe,
    asc_sync_wait,
    asc_update_mask_b16,
    asc_vf_call,
    vector_half,
    vector_uint16_t,
    vector_uint32_t,
)

TOTAL_LENGTH = 256
SRC_LENGTH = 1024
HALF_ELEMENTS_PER_BLOCK = 32 // half.size
DATABLOCK_INDEX_LENGTH = TOTAL_LENGTH // HALF_ELEMENTS_PER_BLOCK


@__simd_vf__
def gather_elements(dst: UbPtr[half], src: UbPtr[half], index: UbPtr[uint16_t], count: int, one_repeat_size: int) -> None:  # fmt: skip
    dst_reg = vector_half()
    index_reg = vector_uint16_t()
    remaining = Ref(count)  # asc_update_mask_b16's uint32_t&
    repeat_times = (count + one_repeat_size - 1) // one_repeat_size
    for i in range(repeat_times):
        mask = asc_update_mask_b16(remaining)
        asc_loadalign(index_reg, index + i * one_repeat_size)
        asc_gather(dst_reg, src, index_reg, mask)
        asc_storealign(dst + i * one_repeat_size, dst_reg, mask)


@__simd_vf__
def gather_datablocks(dst: UbPtr[half], src: UbPtr[half], index: UbPtr[uint32_t], count: int, one_repeat_size: int, index_repeat_size: int) -> None:  # fmt: skip
    dst_reg = vector_half()
    index_reg = vector_uint32_t()
    remaining = Ref(count)
    repeat_times = (count + one_repeat_size - 1) // one_repeat_size
    for i in range(repeat_times):
        mask = asc_update_mask_b16(remaining)
        asc_loadalign(index_reg, index + i * index_repeat_size)
        asc_gather_datablock(dst_reg, src, index_reg, mask)
        asc_storealign(dst + i * one_repeat_size, dst_reg, mask)


@__global__
@__vector__
def reg_load_gather(src: GmPtr[half], index: GmPtr[uint16_t], dst: GmPtr[half], scenarioNum: int) -> None:  # fmt: skip
    asc_init()
    half_elements_per_vf = asc_get_vf_len() // half.size
    uint32_elements_per_vf = asc_get_vf_len() // uint32_t.size
    datablocks_per_vf = half_elements_per_vf // HALF_ELEMENTS_PER_BLOCK
    datablock_index_ub_length = DATABLOCK_INDEX_LENGTH + uint32_elements_per_vf - datablocks_per_vf
    src_ub = __ubuf__(half, SRC_LENGTH)
    dst_ub = __ubuf__(half, TOTAL_LENGTH)
    asc_copy_gm2ub(src_ub, src, SRC_LENGTH * half.size)
    if scenarioNum == 1:
        index_ub = __ubuf__(uint16_t, TOTAL_LENGTH)
        asc_copy_gm2ub(index_ub, index.cast(uint16_t), TOTAL_LENGTH * uint16_t.size)
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_vf_call[gather_elements](dst_ub, src_ub, index_ub, TOTAL_LENGTH, half_elements_per_vf)
    else:
        index32_ub = __ubuf__(uint32_t, datablock_index_ub_length)
        asc_copy_gm2ub(index32_ub, index.cast(uint32_t), DATABLOCK_INDEX_LENGTH * uint32_t.size)
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_vf_call[gather_datablocks](dst_ub, src_ub, index32_ub, TOTAL_LENGTH, half_elements_per_vf, datablocks_per_vf)  # fmt: skip
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm(dst, dst_ub, TOTAL_LENGTH * half.size)
    asc_sync_pipe(PIPE_ALL)


def main(src_host: np.ndarray, index_host: np.ndarray, scenarioNum: int) -> np.ndarray:
    src_size, dst_size, index_size = SRC_LENGTH * half.size, TOTAL_LENGTH * half.size, index_host.nbytes  # fmt: skip
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    src_device, _ = acl.rt.malloc(src_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src_device, src_size, src_host, src_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    index_device, _ = acl.rt.malloc(index_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(index_device, index_size, index_host, index_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    dst_host = np.zeros(TOTAL_LENGTH, dtype=np.float16)
    dst_device, _ = acl.rt.malloc(dst_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    reg_load_gather[1, 0, stream](src_device.cast(half), index_device.cast(uint16_t), dst_device.cast(half), scenarioNum)  # fmt: skip
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dst_host, dst_size, dst_device, dst_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for ptr in (src_device, index_device, dst_device):
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return dst_host


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: the same element count and every half equal."""
    return output.size == golden.size and np.where(output != golden)[0].size == 0


def generate_element_gather_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    src = rng.uniform(0, 1, SRC_LENGTH).astype(np.float16)
    index = rng.integers(0, SRC_LENGTH, TOTAL_LENGTH).astype(np.uint16)
    return src, index, src[index]


def generate_datablock_gather_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    per_block = 32 // 2
    src = rng.uniform(0, 1, SRC_LENGTH).astype(np.float16)
    block_index = rng.integers(0, SRC_LENGTH // per_block, TOTAL_LENGTH // per_block).astype(np.uint32)  # fmt: skip
    golden = np.concatenate([src[b * per_block : (b + 1) * per_block] for b in block_index])
    return src, block_index * 32, golden


GENERATORS = {1: generate_element_gather_data, 2: generate_datablock_gather_data}


@pytest.mark.parametrize("scenarioNum", [1, 2])
@pytest.mark.parametrize("seed", [0, 1])
def test_reg_load_gather_matches_the_golden(scenarioNum: int, seed: int) -> None:
    src, index, golden = GENERATORS[scenarioNum](seed)
    assert verify_result(main(src, index, scenarioNum), golden)


@pytest.mark.parametrize("scenarioNum", [1, 2])
def test_reg_load_gather_check_rejects_a_reversed_golden(scenarioNum: int) -> None:
    src, index, golden = GENERATORS[scenarioNum](2)
    assert not verify_result(main(src, index, scenarioNum), golden[::-1])

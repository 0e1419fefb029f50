"""Port of asc-devkit examples/02_simd_c_api/03_c_api/00_data_movement/reg_load_store_align/reg_load_store_align.asc.

Line for line, all six scenarios of the compile-time ``SCENARIO_NUM`` (here the module global
``scenarioNum``, set per test as ``-DSCENARIO_NUM=n`` sets it per build), each computing
``dst = src0 + src1`` on half data with a different aligned C API load/store addressing:

1. ``add_with_offset``: ``ptr + i * one_repeat_size``, 1021 lanes; each repeat first stores a
   zero register, so the last 3 lanes stay 0;
2. ``add_with_postupdate``: ``asc_loadalign_postupdate`` / ``asc_storealign_postupdate``;
3. ``add_with_addr_reg``: an ``addr_reg`` from ``asc_update_addr_reg_b16`` in the hardware loop
   (the C++ ``for`` over ``repeat_times`` is :func:`~ascreg.c_api.hw_range` here);
4. ``add_with_datablock``: the DataBlock forms, reading every other 32-byte block (512 outputs);
5. ``add_with_broadcast``: ``asc_loadalign_brc`` (each repeat is its first element);
6. ``add_with_upsample``: ``asc_loadalign_upsample`` (each element twice, 2048 outputs).

Inputs and goldens are made as scripts/gen_data.py makes them (``src0 = src1 = arange(1024)``
as float16; the golden per scenario) and checked as scripts/verify_result.py checks them: the
output's bytes equal to the golden's. ``main``'s ``check_acl_status`` / ``goto cleanup`` error
path is left out (ascreg's ``acl`` raises instead of returning a status).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import GmPtr, Ref, UbPtr, acl, half
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    addr_reg,
    asc_add,
    asc_copy_gm2ub,
    asc_copy_ub2gm,
    asc_create_mask_b16,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_loadalign_brc,
    asc_loadalign_postupdate,
    asc_loadalign_upsample,
    asc_storealign,
    asc_storealign_postupdate,
    asc_sync_notify,
    asc_sync_pipe,
    asc_sync_wait,
    asc_update_addr_reg_b16,
    asc_update_mask_b16,
    asc_vf_call,
    hw_range,
    vector_bool,
    vector_half,
)

scenarioNum = 1  # SCENARIO_NUM, a compile-time define in the example
INPUT_LENGTH = 1024
HALF_ELEMENTS_PER_DATABLOCK = 32 // half.size


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def add_with_offset(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int, element_count: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    zero_reg = vector_half()
    mask = vector_bool()
    all_mask = asc_create_mask_b16(PAT_ALL)
    count = Ref(element_count)  # asc_update_mask_b16 updates the by-value parameter
    asc_duplicate_scalar(zero_reg, half(0), all_mask)
    for i in range(repeat_times):
        asc_storealign(dst + i * one_repeat_size, zero_reg, all_mask)
        mask = asc_update_mask_b16(count)
        asc_loadalign(src0_reg, src0 + i * one_repeat_size)
        asc_loadalign(src1_reg, src1 + i * one_repeat_size)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign(dst + i * one_repeat_size, dst_reg, mask)


@__simd_vf__
def add_with_postupdate(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int, output_length: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    mask = vector_bool()
    d, s0, s1, count = Ref(dst), Ref(src0), Ref(src1), Ref(output_length)  # the T*& parameters
    for _ in range(repeat_times):
        mask = asc_update_mask_b16(count)
        asc_loadalign_postupdate(src0_reg, s0, one_repeat_size)
        asc_loadalign_postupdate(src1_reg, s1, one_repeat_size)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign_postupdate(d, dst_reg, one_repeat_size, mask)


@__simd_vf__
def add_with_addr_reg(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int, output_length: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    mask = vector_bool()
    offset: addr_reg  # declared, as `addr_reg offset;` (ascreg has no empty addr_reg)
    count = Ref(output_length)
    for _ in hw_range(repeat_times):
        offset = asc_update_addr_reg_b16(one_repeat_size)
        mask = asc_update_mask_b16(count)
        asc_loadalign(src0_reg, src0, offset)
        asc_loadalign(src1_reg, src1, offset)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign(dst, dst_reg, offset, mask)


@__simd_vf__
def add_with_datablock(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int, output_length: int, src_block_stride: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    mask = vector_bool()
    blocks_per_vector = one_repeat_size // HALF_ELEMENTS_PER_DATABLOCK
    src_repeat_stride = src_block_stride * blocks_per_vector
    dst_block_stride = 1
    dst_repeat_stride = dst_block_stride * blocks_per_vector
    d, s0, s1, count = Ref(dst), Ref(src0), Ref(src1), Ref(output_length)
    for _ in range(repeat_times):
        mask = asc_update_mask_b16(count)
        asc_loadalign_postupdate(src0_reg, s0, src_block_stride, src_repeat_stride, mask)
        asc_loadalign_postupdate(src1_reg, s1, src_block_stride, src_repeat_stride, mask)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign_postupdate(d, dst_reg, dst_block_stride, dst_repeat_stride, mask)


@__simd_vf__
def add_with_broadcast(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    mask = asc_create_mask_b16(PAT_ALL)
    for i in range(repeat_times):
        asc_loadalign_brc(src0_reg, src0 + i * one_repeat_size)
        asc_loadalign_brc(src1_reg, src1 + i * one_repeat_size)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign(dst + i * one_repeat_size, dst_reg, mask)


@__simd_vf__
def add_with_upsample(dst: UbPtr[half], src0: UbPtr[half], src1: UbPtr[half], one_repeat_size: int, repeat_times: int) -> None:  # fmt: skip
    src0_reg = vector_half()
    src1_reg = vector_half()
    dst_reg = vector_half()
    mask = asc_create_mask_b16(PAT_ALL)
    for i in range(repeat_times):
        asc_loadalign_upsample(src0_reg, src0 + i * one_repeat_size // 2)
        asc_loadalign_upsample(src1_reg, src1 + i * one_repeat_size // 2)
        asc_add(dst_reg, src0_reg, src1_reg, mask)
        asc_storealign(dst + i * one_repeat_size, dst_reg, mask)


def output_length_of_scenario() -> int:
    """The ``constexpr output_length`` that the kernel and ``main`` both compute."""
    if scenarioNum == 4:
        return INPUT_LENGTH // 2
    if scenarioNum == 6:
        return INPUT_LENGTH * 2
    return INPUT_LENGTH


@__global__
@__vector__
def reg_load_store_align(src0: GmPtr[half], src1: GmPtr[half], dst: GmPtr[half]) -> None:
    asc_init()
    half_elements_per_vf = asc_get_vf_len() // half.size
    src0_ub = __ubuf__(half, INPUT_LENGTH)
    src1_ub = __ubuf__(half, INPUT_LENGTH)
    output_length = output_length_of_scenario()
    dst_ub = __ubuf__(half, output_length)
    asc_copy_gm2ub(src0_ub, src0, INPUT_LENGTH * half.size)
    asc_copy_gm2ub(src1_ub, src1, INPUT_LENGTH * half.size)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    input_repeat_times = ceil_division(INPUT_LENGTH, half_elements_per_vf)
    if scenarioNum == 1:
        asc_vf_call[add_with_offset](
            dst_ub, src0_ub, src1_ub, half_elements_per_vf, input_repeat_times, output_length - 3
        )
    elif scenarioNum == 2:
        asc_vf_call[add_with_postupdate](
            dst_ub, src0_ub, src1_ub, half_elements_per_vf, input_repeat_times, output_length
        )
    elif scenarioNum == 3:
        asc_vf_call[add_with_addr_reg](
            dst_ub, src0_ub, src1_ub, half_elements_per_vf, input_repeat_times, output_length
        )
    elif scenarioNum == 4:
        asc_vf_call[add_with_datablock](
            dst_ub,
            src0_ub,
            src1_ub,
            half_elements_per_vf,
            input_repeat_times // 2,
            output_length,
            2,
        )
    elif scenarioNum == 5:
        asc_vf_call[add_with_broadcast](dst_ub, src0_ub, src1_ub, half_elements_per_vf, input_repeat_times)  # fmt: skip
    else:
        asc_vf_call[add_with_upsample](dst_ub, src0_ub, src1_ub, half_elements_per_vf, input_repeat_times * 2)  # fmt: skip
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm(dst, dst_ub, output_length * half.size)
    asc_sync_pipe(PIPE_ALL)


def main(src0_host: np.ndarray, src1_host: np.ndarray) -> np.ndarray:
    """``main`` without its file I/O: the output bytes (``WriteFile``) are returned."""
    input_size = INPUT_LENGTH * half.size
    output_size = output_length_of_scenario() * half.size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    src0_device, _ = acl.rt.malloc(input_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src0_device, input_size, src0_host, input_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    src1_device, _ = acl.rt.malloc(input_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src1_device, input_size, src1_host, input_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    dst_host, _ = acl.rt.malloc_host(output_size)
    dst_device, _ = acl.rt.malloc(output_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    reg_load_store_align[1, 0, stream](src0_device.cast(half), src1_device.cast(half), dst_device.cast(half))  # fmt: skip
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dst_host, output_size, dst_device, output_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    output: np.ndarray = dst_host.view(np.uint8).copy()
    acl.rt.free(dst_device)
    acl.rt.free(src1_device)
    acl.rt.free(src0_device)
    acl.rt.free_host(dst_host)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


VECTOR_LENGTH = 128  # scripts/gen_data.py's constant


def generate_golden(scenario_num: int, src0: np.ndarray, src1: np.ndarray) -> np.ndarray:
    """scripts/gen_data.py ``generate_golden``."""
    if scenario_num == 1:
        output = np.zeros(INPUT_LENGTH, dtype=np.float16)
        output[: INPUT_LENGTH - 3] = src0[: INPUT_LENGTH - 3] + src1[: INPUT_LENGTH - 3]
        return output
    if scenario_num in (2, 3):
        return src0 + src1
    if scenario_num == 4:
        return (src0 + src1).reshape(INPUT_LENGTH // 32, 32)[:, :16].reshape(-1)
    if scenario_num == 5:
        return np.repeat(src0[::VECTOR_LENGTH] + src1[::VECTOR_LENGTH], VECTOR_LENGTH).astype(np.float16)  # fmt: skip
    return np.repeat(src0 + src1, 2).astype(np.float16)


def gen_data(scenario_num: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py ``main``: ``src0 = src1 = arange(1024)`` as float16, and the golden."""
    src0 = np.arange(INPUT_LENGTH, dtype=np.float16)
    src1 = np.arange(INPUT_LENGTH, dtype=np.float16)
    return src0, src1, generate_golden(scenario_num, src0, src1)


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: same byte count, every byte equal."""
    output_bytes = output.view(np.uint8).reshape(-1)
    golden_bytes = golden.view(np.uint8).reshape(-1)
    if output_bytes.size != golden_bytes.size:
        return False
    return bool(np.all(output_bytes == golden_bytes))


@pytest.fixture(params=[1, 2, 3, 4, 5, 6])
def SCENARIO_NUM(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


def test_reg_load_store_align_matches_the_golden(SCENARIO_NUM: int) -> None:
    src0, src1, golden = gen_data(SCENARIO_NUM)
    assert verify_result(main(src0, src1), golden)


def test_reg_load_store_align_check_rejects_a_shifted_output(SCENARIO_NUM: int) -> None:
    """The output one half off its place fails every scenario's golden."""
    src0, src1, golden = gen_data(SCENARIO_NUM)
    assert not verify_result(np.roll(main(src0, src1).view(np.float16), 1), golden)

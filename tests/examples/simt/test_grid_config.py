"""Port of asc-devkit examples/03_simt_api/03_best_practices/01_execution_conf_optimizations/grid_dim_config/grid_config.asc.

Line for line, all thirteen scenarios of ``SCENARIO_NUM`` (``get_scenario_config``): an empty
kernel after a device-to-device copy of the input (1, 32, all 64, 128 and 1024 blocks of 2048
threads), ``gather_naive_kernel`` (1024 blocks of 2048 threads, one element each, an
out-of-range index read as 0) and ``gather_strided_kernel`` (a grid-stride loop; threads per
block from ``resolve_thread_num``: the elements per block, at most 2048) on the large shape
``[1024, 2048]`` (2097152 elements) and the small one (16384 elements) on 4 .. 64 blocks.
``blocks_per_grid == 0`` means every vector core (``query_aiv_core_num``: 64 here). Input
``input[i] = i * 1.2f`` (2100000 floats), ``index[i] = rand() % 2100000``; golden the input
(empty kernel) or ``input[index[i]]``, compared with ``std::equal``. Full size.

Not line for line: the example seeds ``rand`` with ``srand(time(nullptr))``; the port uses
``srand(2026)`` (glibc's generator, ``tests/stdrandom.py``) so a run is reproducible.

Finding: ``rand() % 2100000`` is always a valid index, so the kernels' ``gather_idx >=
input_total_length`` branch never runs (the tests pass with it writing 1 instead of 0).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from enum import Enum

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import __launch_bounds__, blockDim, blockIdx, gridDim, threadIdx
from stdrandom import glibc_rand

MAX_THREAD_NUM = 2048
INDEX_WIDTH = 2048
INDEX_ROWS = 1024
LARGE_SHAPE_TOTAL_LENGTH = INDEX_ROWS * INDEX_WIDTH  # [1024, 2048] (scenarios 1 .. 8)
SMALL_SHAPE_TOTAL_LENGTH = 16384  # [8, 2048] (scenarios 9 .. 13)
AIV_CORE_NUM = 64
INPUT_TOTAL_LENGTH = 2100000
SEED = 2026  # the example: time(nullptr)


class KernelType(Enum):
    EMPTY = 0  # an empty kernel: the launch overhead only
    GATHER_NAIVE = 1  # one element per thread, no loop
    GATHER_STRIDED = 2  # a grid-stride loop


@dataclass
class ScenarioConfig:
    blocks_per_grid: int  # 0: every physical vector core
    total_length: int
    kernel: KernelType
    name: str


def query_aiv_core_num(device_id: int) -> int:
    core_num, ret = acl.rt.get_device_info(device_id, acl.ACL_DEV_ATTR_VECTOR_CORE_NUM)
    return core_num if ret == acl.ACL_SUCCESS and core_num and core_num > 0 else AIV_CORE_NUM


def resolve_thread_num(blocks_per_grid: int, total_length: int) -> int:
    """The elements per block (rounded up), at most ``MAX_THREAD_NUM``."""
    per_core = (total_length + blocks_per_grid - 1) // blocks_per_grid
    return per_core if per_core < MAX_THREAD_NUM else MAX_THREAD_NUM


LARGE, SMALL = LARGE_SHAPE_TOTAL_LENGTH, SMALL_SHAPE_TOTAL_LENGTH
EMPTY, NAIVE, STRIDED = KernelType.EMPTY, KernelType.GATHER_NAIVE, KernelType.GATHER_STRIDED
SCENARIOS = {
    1: ScenarioConfig(1, LARGE, EMPTY, "large shape, 1 core, empty kernel"),
    2: ScenarioConfig(32, LARGE, EMPTY, "large shape, 32 cores, empty kernel"),
    3: ScenarioConfig(0, LARGE, EMPTY, "large shape, full physical cores, empty kernel"),
    4: ScenarioConfig(128, LARGE, EMPTY, "large shape, 128 cores, empty kernel"),
    5: ScenarioConfig(1024, LARGE, EMPTY, "large shape, 1024 cores, empty kernel"),
    6: ScenarioConfig(1024, LARGE, NAIVE, "large shape, 1024 cores, gather naive"),
    7: ScenarioConfig(0, LARGE, STRIDED, "large shape, full physical cores, gather strided"),
    8: ScenarioConfig(32, LARGE, STRIDED, "large shape, 32 cores, gather strided"),
    9: ScenarioConfig(4, SMALL, STRIDED, "small shape(16384), 4 cores, gather strided"),
    10: ScenarioConfig(8, SMALL, STRIDED, "small shape(16384), 8 cores, gather strided"),
    11: ScenarioConfig(16, SMALL, STRIDED, "small shape(16384), 16 cores, gather strided"),
    12: ScenarioConfig(32, SMALL, STRIDED, "small shape(16384), 32 cores, gather strided"),
    13: ScenarioConfig(
        0, SMALL, STRIDED, "small shape(16384), full physical cores, gather strided"
    ),
}
"""``get_scenario_config``."""


@__global__
@__launch_bounds__(MAX_THREAD_NUM)
def empty_kernel(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    output: GmPtr[float32_t],
    input_total_length: int,
    index_total_length: int,
) -> None:
    pass


# one element per thread; needs gridDim.x * blockDim.x == index_total_length
@__global__
@__launch_bounds__(MAX_THREAD_NUM)
def gather_naive_kernel(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    output: GmPtr[float32_t],
    input_total_length: int,
    index_total_length: int,
) -> None:
    global_idx = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)

    gather_idx = index[global_idx]
    if gather_idx >= input_total_length:
        gather_idx = uint32_t(0)
    output[global_idx] = input[gather_idx]


# a grid-stride loop over the whole array
@__global__
@__launch_bounds__(MAX_THREAD_NUM)
def gather_strided_kernel(
    input: GmPtr[float32_t],
    index: GmPtr[uint32_t],
    output: GmPtr[float32_t],
    input_total_length: int,
    index_total_length: int,
) -> None:
    global_idx = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
    stride = uint32_t(gridDim.x * blockDim.x)

    for i in range(global_idx, index_total_length, stride):
        gather_idx = index[i]
        if gather_idx >= input_total_length:
            gather_idx = uint32_t(0)
        output[i] = input[gather_idx]


def run_kernel(
    input: np.ndarray, index: np.ndarray, blocks_per_grid: int, kernel: KernelType
) -> np.ndarray:
    input_total_length = input.size
    input_total_byte_size = input_total_length * float32_t.size
    index_total_length = index.size
    index_total_byte_size = index_total_length * uint32_t.size
    output_total_byte_size = index.size * float32_t.size

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    if blocks_per_grid == 0:  # every physical core: ask the runtime
        blocks_per_grid = query_aiv_core_num(device_id)

    output_host, _ = acl.rt.malloc_host(output_total_byte_size)
    huge = acl.ACL_MEM_MALLOC_HUGE_FIRST
    input_device, _ = acl.rt.malloc(input_total_byte_size, huge)
    index_device, _ = acl.rt.malloc(index_total_byte_size, huge)
    output_device, _ = acl.rt.malloc(output_total_byte_size, huge)
    h2d = acl.ACL_MEMCPY_HOST_TO_DEVICE
    acl.rt.memcpy(input_device, input_total_byte_size, input, input_total_byte_size, h2d)
    acl.rt.memcpy(index_device, index_total_byte_size, index, index_total_byte_size, h2d)

    args = (
        input_device.cast(float32_t),
        index_device.cast(uint32_t),
        output_device.cast(float32_t),
        uint32_t(input_total_length),
        uint32_t(index_total_length),
    )
    if kernel == KernelType.GATHER_NAIVE:
        gather_naive_kernel[blocks_per_grid, INDEX_WIDTH, 0, stream](*args)
    elif kernel == KernelType.GATHER_STRIDED:
        threads_per_block = resolve_thread_num(blocks_per_grid, index_total_length)
        gather_strided_kernel[blocks_per_grid, threads_per_block, 0, stream](*args)
    else:
        acl.rt.memcpy(
            output_device,
            output_total_byte_size,
            input_device,
            output_total_byte_size,
            acl.ACL_MEMCPY_DEVICE_TO_DEVICE,
        )
        empty_kernel[blocks_per_grid, MAX_THREAD_NUM, 0, stream](*args)
    acl.rt.synchronize_stream(stream)

    d2h = acl.ACL_MEMCPY_DEVICE_TO_HOST
    acl.rt.memcpy(output_host, output_total_byte_size, output_device, output_total_byte_size, d2h)
    output = output_host.view(np.float32)[: index.size].copy()
    for buffer in (input_device, index_device, output_device):
        acl.rt.free(buffer)
    acl.rt.free_host(output_host)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``std::equal``."""
    return bool(np.array_equal(output, golden))


@functools.cache
def random_indices(total_length: int) -> np.ndarray:
    """``index[i] = rand() % input_total_length`` after ``srand(SEED)``."""
    return (np.array(glibc_rand(SEED, total_length), np.int64) % INPUT_TOTAL_LENGTH).astype(
        np.uint32
    )


def make_data(config: ScenarioConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``main``'s input, index and golden."""
    input = np.arange(INPUT_TOTAL_LENGTH, dtype=np.uint32).astype(np.float32) * np.float32(1.2)
    index = random_indices(config.total_length)
    empty = config.kernel == KernelType.EMPTY
    golden = input[: config.total_length] if empty else input[index]
    return input, index, golden


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_grid_config_matches_the_golden(scenario: int) -> None:
    config = SCENARIOS[scenario]
    input, index, golden = make_data(config)
    output = run_kernel(input, index, config.blocks_per_grid, config.kernel)
    assert verify_result(output, golden)
    assert not verify_result(input[: index.size], input[index])  # the two goldens differ
    wrong = output.copy()
    wrong[-1] = np.nextafter(wrong[-1], np.float32(np.inf))
    assert not verify_result(wrong, golden)

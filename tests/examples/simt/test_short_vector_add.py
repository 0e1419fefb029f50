"""Port of asc-devkit examples/03_simt_api/03_best_practices/00_memory_optimizations/short_vector_add/short_vector_add.asc.

Line for line: scenario 1 launches ``add<half><<<64, 1024, 0, stream>>>`` (a grid-stride loop
``z[idx] = x[idx] + y[idx]`` over halves), scenario 2 ``add2<half, half2>`` (the same over
``half2`` pairs through ``reinterpret_cast<const half2*>``, then thread 0 of block 0 adds the
odd last element). The template arguments are the example's only instantiations, so ``T`` and
``U`` are module constants. Data as the example's ``gen_data.py`` makes them (uniform in
[1, 100) rounded to half, golden ``(x + y).astype(float16)``); checked as its
``verify_result.py`` does (``isclose`` with rtol 1e-4, atol 1e-5, error ratio <= 1e-4), and
also bit-exactly (one rounding per half is what both the chip and numpy do).

Full size: ``TOTAL_LENGTH`` is the example's 64 * 256 * 1024 (about 3 s per scenario); a second
case of 64 * 1024 * 4 + 1 elements takes the odd-tail branch the example's size never takes.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, acl, half, int32_t, uint64_t
from ascreg.machine.kernel import __global__
from ascreg.simt import blockDim, blockIdx, gridDim, half2, threadIdx

TOTAL_LENGTH = 64 * 256 * 1024
ODD_LENGTH = 64 * 1024 * 4 + 1
THREAD_NUM_PER_BLOCK = 1024
BLOCK_NUM = 64
T, U = half, half2  # add<half>, add2<half, half2>


@__global__
def add(x: GmPtr[half], y: GmPtr[half], z: GmPtr[half], size: int) -> None:
    # gridDim.x * blockDim.x threads in total (64 * 1024)
    stride = int32_t(gridDim.x * blockDim.x)

    # each thread starts at its global idx and steps by the thread count until the end
    idx = int32_t(blockIdx.x * blockDim.x + threadIdx.x)
    while idx < size:
        z[idx] = x[idx] + y[idx]
        idx += stride


@__global__
def add2(x: GmPtr[half], y: GmPtr[half], z: GmPtr[half], size: int) -> None:
    # to the vector type
    x2 = x.cast(U)
    y2 = y.cast(U)
    z2 = z.cast(U)
    # the loop bound, computed once with a division
    vector_size = uint64_t(size) // 2
    stride = int32_t(gridDim.x * blockDim.x)

    # the vectorised loop over the pairs (the same stride: the thread count)
    idx = int32_t(blockIdx.x * blockDim.x + threadIdx.x)
    while idx < vector_size:
        z2[idx] = x2[idx] + y2[idx]
        idx += stride

    # the odd last element (if size is odd), by global thread 0 at the end
    if blockIdx.x == 0 and threadIdx.x == 0 and (size % 2 != 0):
        last_idx = uint64_t(size) - 1
        z[last_idx] = x[last_idx] + y[last_idx]


def gen_golden_data(total_length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2026)
    input_x = rng.uniform(1, 100, [1, total_length]).astype(np.float16)
    input_y = rng.uniform(1, 100, [1, total_length]).astype(np.float16)
    golden = (input_x + input_y).astype(np.float16)
    return input_x.reshape(-1), input_y.reshape(-1), golden.reshape(-1)


def run(scenario_num: int, x_host: np.ndarray, y_host: np.ndarray) -> np.ndarray:
    total_length = x_host.size
    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()

    tensor_byte_size = total_length * half.size
    z_host, _ = acl.rt.malloc_host(tensor_byte_size)
    x_device, _ = acl.rt.malloc(tensor_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(tensor_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(tensor_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        x_device, tensor_byte_size, x_host, tensor_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    acl.rt.memcpy(
        y_device, tensor_byte_size, y_host, tensor_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    args = (x_device.cast(T), y_device.cast(T), z_device.cast(T), total_length)
    if scenario_num == 1:
        add[BLOCK_NUM, THREAD_NUM_PER_BLOCK, 0, stream](*args)
    elif scenario_num == 2:
        add2[BLOCK_NUM, THREAD_NUM_PER_BLOCK, 0, stream](*args)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(
        z_host, tensor_byte_size, z_device, tensor_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    output = z_host.view(np.float16).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free(z_device)
    acl.rt.free_host(z_host)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """The example's check: ``isclose`` per element, at most 1e-4 of them may differ."""
    close = np.isclose(output, golden, rtol=1e-4, atol=1e-5, equal_nan=True)
    return float((~close).sum()) / golden.size <= 1e-4


@pytest.mark.parametrize("scenario_num", [1, 2])
@pytest.mark.parametrize("total_length", [TOTAL_LENGTH, ODD_LENGTH], ids=["full", "odd"])
def test_short_vector_add(scenario_num: int, total_length: int) -> None:
    x, y, golden = gen_golden_data(total_length)
    output = run(scenario_num, x, y)
    assert verify_result(output, golden)
    assert np.array_equal(output.view(np.uint16), golden.view(np.uint16))


def test_a_wrong_sum_fails_the_check() -> None:
    *_inputs, golden = gen_golden_data(1024)
    wrong = golden.copy()
    wrong[::2] = (wrong[::2].astype(np.float32) + 1).astype(np.float16)
    assert not verify_result(wrong, golden)

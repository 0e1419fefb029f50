"""Port of asc-devkit examples/03_simt_api/02_features/01_api_features/01_sync_instruction/memory_fence/memory_fence.asc and sync_barrier.asc.

``sync_barrier.asc``, line for line: ``kernel_sync_barrier`` (one block of 1024 threads) sums
each warp with ``asc_reduce_add``, lane 0 of each warp writes its sum to the dynamic
``__ubuf__`` array (32 floats), ``asc_syncthreads``, then thread 0 adds the 31 other warp sums
to its own and writes the result. Host: ``input[i] = i % 10`` (1024 floats); the golden is its
pairwise tree per warp, then the warp sums in order.

``memory_fence.asc``, line for line: ``kernel_memory_fence`` (``__launch_bounds__(1024)``, one
thread per input element) reduces each block with the inline helper ``block_reduce`` (the same
warp sums, barrier and thread-0 sum; a ``__simt_callee__`` here, so its branches run masked),
thread 0 writes the block's sum to GM, ``asc_threadfence`` makes it visible, thread 0 takes a
ticket with ``asc_atomic_add(counter, 1)`` and stores ``is_last`` (a one-element ``__ubuf__``
``uint32_t``), ``asc_syncthreads`` broadcasts it, and the block that drew the last ticket sums
every block's partial sum (a block-strided loop, then ``block_reduce`` again) into
``output[0]``. Host: ``input[i] = i % 10``; the golden is its ``host_block_reduce`` per block,
the block-strided partials, then ``host_block_reduce`` of those. Both check as the example's
``verify_result`` (absolute and relative error below ``1e-4``).

Smaller: ``memory_fence`` runs 64 blocks (65536 elements) instead of 1024 blocks (1024 * 1024);
``sync_barrier`` is full size. ascreg runs the blocks one after the other, so block 63 draws the
last ticket; the result shows that it summed every block's partial. A second length (64536)
leaves the last block partly past the input (those threads add 0).

Findings: every value is a small integer and every sum stays below 2**24, so both reductions
are exact in any order and the tolerance never matters; ``abs_err < 1e-4`` on a sum near
3e5 (memory_fence at full size: 4.7e6) is an exact comparison.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, float32_t, uint32_t
from ascreg.machine.kernel import __global__, __ubuf__
from ascreg.simt import (
    __launch_bounds__,
    __simt_callee__,
    asc_atomic_add,
    asc_reduce_add,
    asc_syncthreads,
    asc_threadfence,
    blockDim,
    blockIdx,
    gridDim,
    laneid,
    threadIdx,
    warpSize,
)

THREAD_COUNT = 1024
WARP_SIZE = 32


# -- sync_barrier.asc ---------------------------------------------------------------------------


@__global__
@__launch_bounds__(THREAD_COUNT)
def kernel_sync_barrier(
    input: GmPtr[float32_t], output: GmPtr[float32_t], input_total_length: int
) -> None:
    smem = __ubuf__.extern(float32_t)
    tid = uint32_t(threadIdx.x)
    lane_id = uint32_t(laneid())
    warp_id = tid // warpSize

    val = input[tid] if tid < input_total_length else float32_t(0.0)

    # the warp's sum, in every lane
    val = asc_reduce_add(val)
    # lane 0 writes it to UB
    if lane_id == 0:
        smem[warp_id] = val

    asc_syncthreads()  # across warps

    if tid == 0:
        for i in range(1, blockDim.x // warpSize):
            val += smem[i]
        output[0] = val


def sync_barrier_golden(input: np.ndarray) -> np.float32:
    """The host check of ``sync_barrier.asc``: a pairwise tree per warp, then warp sums in order."""
    warp_count = THREAD_COUNT // WARP_SIZE
    reduce_buf = input.astype(np.float32).copy()
    for w in range(warp_count):
        base = w * WARP_SIZE
        s = 1
        while s < WARP_SIZE:
            for i in range(0, WARP_SIZE, 2 * s):
                reduce_buf[base + i] += reduce_buf[base + i + s]
            s <<= 1
    golden = reduce_buf[0]
    for i in range(1, warp_count):
        golden += reduce_buf[i * WARP_SIZE]
    return np.float32(golden)


# -- memory_fence.asc ---------------------------------------------------------------------------


@__simt_callee__
def block_reduce(smem: UbPtr[float32_t], tid: np.ndarray, val: np.ndarray) -> None:
    lane_id = uint32_t(laneid())
    warp_id = tid // warpSize

    # the warp's sum, in every lane
    val = asc_reduce_add(val)
    # lane 0 writes it to UB
    if lane_id == 0:
        smem[warp_id] = val

    asc_syncthreads()  # across warps

    # thread 0 adds the warp sums in order
    if tid == 0:
        for i in range(1, blockDim.x // warpSize):
            val += smem[i]
        smem[0] = val


@__global__
@__launch_bounds__(THREAD_COUNT)
def kernel_memory_fence(
    input: GmPtr[float32_t],
    block_sums: GmPtr[float32_t],
    output: GmPtr[float32_t],
    counter: GmPtr[uint32_t],
    input_total_length: int,
) -> None:
    smem = __ubuf__.extern(float32_t)
    is_last = __ubuf__(uint32_t, 1)
    tid = uint32_t(threadIdx.x)
    idx = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)

    val = input[idx] if idx < input_total_length else float32_t(0.0)

    # the block's sum
    block_reduce(smem, tid, val)

    if tid == 0:
        block_sums[blockIdx.x] = smem[0]

    # make this block's block_sums write visible to the other blocks
    asc_threadfence()

    if tid == 0:
        ticket = asc_atomic_add(counter, uint32_t(1))
        is_last[0] = ticket == gridDim.x - 1

    # broadcast is_last from thread 0 to the block
    asc_syncthreads()

    # the block with the last ticket sums every block's partial sum
    if is_last[0]:
        my_sum = float32_t(0.0)  # this thread's share of the partial sums
        for i in range(tid, gridDim.x, blockDim.x):
            my_sum += block_sums[i]
        block_reduce(smem, tid, my_sum)

        if tid == 0:
            output[0] = smem[0]


def host_block_reduce(data: np.ndarray, warp_size: int, thread_count: int) -> np.float32:
    warp_count = thread_count // warp_size
    warp_sums = np.zeros(warp_count, dtype=np.float32)
    for w in range(warp_count):  # each warp's lanes in order
        base = w * warp_size
        for lane in range(warp_size):
            warp_sums[w] += data[base + lane]
    result = warp_sums[0]
    for i in range(1, warp_count):  # then the warp sums in order
        result += warp_sums[i]
    return np.float32(result)


def memory_fence_golden(input: np.ndarray, blocks_per_grid: int) -> np.float32:
    threads_per_block = THREAD_COUNT
    host_block_sums = np.zeros(blocks_per_grid, dtype=np.float32)
    for b in range(blocks_per_grid):
        base = b * threads_per_block
        reduce_buf = input[base : base + threads_per_block]
        host_block_sums[b] = host_block_reduce(reduce_buf, WARP_SIZE, threads_per_block)
    grid_partial = np.zeros(threads_per_block, dtype=np.float32)
    for tid in range(threads_per_block):
        my_sum = np.float32(0)
        for i in range(tid, blocks_per_grid, threads_per_block):
            my_sum += host_block_sums[i]
        grid_partial[tid] = my_sum
    return host_block_reduce(grid_partial, WARP_SIZE, threads_per_block)


# -- host ---------------------------------------------------------------------------------------


def verify_result(output: np.float32, golden: np.float32) -> bool:
    abs_err = np.float32(abs(np.float32(output) - golden))
    rel_err = abs_err / np.float32(abs(golden))
    return bool(abs_err < np.float32(1e-4) and rel_err < np.float32(1e-4))


def run(kernel_name: str, input_total_length: int) -> tuple[np.float32, np.ndarray]:
    """Either example's ``main`` up to the copy back: returns the output and the input."""
    threads_per_block = THREAD_COUNT
    blocks_per_grid = (input_total_length + threads_per_block - 1) // threads_per_block
    dyn_ubuf_size = threads_per_block // 32 * float32_t.size
    input = (np.arange(input_total_length) % 10).astype(np.float32)
    input_total_byte_size = input_total_length * float32_t.size
    huge = acl.ACL_MEM_MALLOC_HUGE_FIRST

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    output_host, _ = acl.rt.malloc_host(float32_t.size)
    input_device, _ = acl.rt.malloc(input_total_byte_size, huge)
    output_device, _ = acl.rt.malloc(float32_t.size, huge)
    h2d = acl.ACL_MEMCPY_HOST_TO_DEVICE
    acl.rt.memcpy(input_device, input_total_byte_size, input, input_total_byte_size, h2d)
    buffers = [input_device, output_device]
    if kernel_name == "sync_barrier":
        kernel_sync_barrier[blocks_per_grid, threads_per_block, dyn_ubuf_size, stream](
            input_device.cast(float32_t),
            output_device.cast(float32_t),
            uint32_t(input_total_length),
        )
    else:
        block_sums_device, _ = acl.rt.malloc(blocks_per_grid * float32_t.size, huge)
        counter_device, _ = acl.rt.malloc(uint32_t.size, huge)  # the last block's ticket
        init_count = np.zeros(1, dtype=np.uint32)
        acl.rt.memcpy(counter_device, uint32_t.size, init_count, uint32_t.size, h2d)
        kernel_memory_fence[blocks_per_grid, threads_per_block, dyn_ubuf_size, stream](
            input_device.cast(float32_t),
            block_sums_device.cast(float32_t),
            output_device.cast(float32_t),
            counter_device.cast(uint32_t),
            uint32_t(input_total_length),
        )
        buffers += [block_sums_device, counter_device]
    acl.rt.synchronize_stream(stream)
    d2h = acl.ACL_MEMCPY_DEVICE_TO_HOST
    acl.rt.memcpy(output_host, float32_t.size, output_device, float32_t.size, d2h)
    output = output_host.view(np.float32)[0]
    for buffer in buffers:
        acl.rt.free(buffer)
    acl.rt.free_host(output_host)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output, input


def test_sync_barrier_matches_the_golden() -> None:
    output, input = run("sync_barrier", 1024)
    golden = sync_barrier_golden(input)
    assert golden == np.float32(4596)  # 102 decades of 0 .. 9 (45 each), then 0 1 2 3
    assert verify_result(output, golden)
    assert not verify_result(output - np.float32(1), golden)  # one off fails


@pytest.mark.parametrize("input_total_length", [64 * 1024, 64 * 1024 - 1000])
def test_memory_fence_matches_the_golden(input_total_length: int) -> None:
    output, input = run("memory_fence", input_total_length)
    blocks_per_grid = (input_total_length + THREAD_COUNT - 1) // THREAD_COUNT
    padded = np.zeros(blocks_per_grid * THREAD_COUNT, dtype=np.float32)
    padded[:input_total_length] = input  # the threads past the end add 0
    golden = memory_fence_golden(padded, blocks_per_grid)
    assert golden == np.float32(input.sum(dtype=np.float64))  # exact
    assert verify_result(output, golden)
    assert not verify_result(output - np.float32(1), golden)

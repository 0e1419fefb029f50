"""Port of asc-devkit examples/03_simt_api/02_features/01_api_features/02_atomic_operation/histogram/histogram.asc.

Line for line: ``accumulate_block_local_histogram`` (72 blocks x 1024 threads) zeroes a
``__ubuf__`` array of 32 per-warp 256-bin histograms, walks the input words in a grid-stride loop
(``for (tid = blockIdx.x * blockDim.x + threadIdx.x; tid < word_count; tid += blockDim.x *
gridDim.x)``, a ``while`` here), adds each of a word's four bytes to its warp's histogram with
``asc_atomic_add``, then sums the 32 warp histograms of each bin into the block's partial
histogram. ``merge_block_local_histogram`` (256 blocks x 128 threads, one block per bin) sums the
72 partial histograms of its bin in a strided loop, then halves a 128-entry ``__ubuf__`` array in
a tree reduction (``if (threadIdx.x < stride)`` between ``asc_syncthreads``), and thread 0
writes the bin. Full size: 72 * 1024 * 4 bytes.

Input as the example makes it: ``std::srand(2009)`` then one ``std::rand() % 256`` per byte
(glibc's ``rand``, re-expressed in :func:`glibc_rand`); golden from its
``compute_histogram_cpu``; checked as its ``histograms_match`` does (every bin equal).

The grid-stride loop, the strided sum and the tree reduction are thread-dependent control flow:
they run vectorised under active masks (about a second for both launches).
"""

from __future__ import annotations

import sys

import numpy as np

from ascreg import GmPtr, acl, uint32_t
from ascreg.c_api import __global__, __ubuf__
from ascreg.simt import asc_atomic_add, asc_syncthreads, blockDim, blockIdx, gridDim, threadIdx
from stdrandom import glibc_rand

HISTOGRAM_BIN_COUNT = 256
WARP_SHIFT = 5
WARP_SIZE = 1 << WARP_SHIFT
WARP_COUNT = 32
THREADS_PER_BLOCK = WARP_COUNT * WARP_SIZE
HISTOGRAM_TEMP_MEMORY = WARP_COUNT * HISTOGRAM_BIN_COUNT
REDUCE_BLOCK_SIZE = 128
PARTIAL_HISTOGRAM_COUNT = 72
FIXED_INPUT_BYTE_COUNT = 72 * 1024 * 4
FIXED_SEED = 2009


def compute_histogram_cpu(byte_data: np.ndarray, byte_count: int) -> np.ndarray:
    histogram_out = np.zeros(HISTOGRAM_BIN_COUNT, dtype=np.uint32)
    assert byte_count % uint32_t.size == 0
    packed_words = byte_data.view(np.uint32)
    for shift in (0, 8, 16, 24):  # the four histogram_out[(packed_word >> s) & 0xFF]++
        np.add.at(histogram_out, (packed_words >> shift) & 0xFF, 1)
    return histogram_out


def seed_input_bytes(byte_count: int, seed: int) -> np.ndarray:
    values = np.array(glibc_rand(seed, byte_count), dtype=np.int64)
    return (values % HISTOGRAM_BIN_COUNT).astype(np.uint8)


def histograms_match(lhs: np.ndarray, rhs: np.ndarray) -> tuple[bool, int]:
    for bin_index in range(HISTOGRAM_BIN_COUNT):
        if lhs[bin_index] != rhs[bin_index]:
            return False, bin_index
    return True, 0


@__global__
def accumulate_block_local_histogram(
    partial_histogram: GmPtr[uint32_t], input_words: GmPtr[uint32_t], word_count: int
) -> None:
    s_mem_histogram = __ubuf__(uint32_t, HISTOGRAM_TEMP_MEMORY)
    warp_histogram = s_mem_histogram + (threadIdx.x >> WARP_SHIFT) * HISTOGRAM_BIN_COUNT

    for chunk_index in range(HISTOGRAM_TEMP_MEMORY // THREADS_PER_BLOCK):
        s_mem_histogram[threadIdx.x + chunk_index * THREADS_PER_BLOCK] = 0
    asc_syncthreads()
    tid = blockIdx.x * blockDim.x + threadIdx.x
    while tid < word_count:
        packed_word = input_words[tid]
        # byte 0 (bits 0-7) of the word is the bin: add 1 to it
        asc_atomic_add(warp_histogram + ((packed_word >> 0) & 0xFF), uint32_t(1))
        # byte 1 (bits 8-15)
        asc_atomic_add(warp_histogram + ((packed_word >> 8) & 0xFF), uint32_t(1))
        # byte 2 (bits 16-23)
        asc_atomic_add(warp_histogram + ((packed_word >> 16) & 0xFF), uint32_t(1))
        # byte 3 (bits 24-31)
        asc_atomic_add(warp_histogram + ((packed_word >> 24) & 0xFF), uint32_t(1))
        tid += blockDim.x * gridDim.x
    asc_syncthreads()
    bin_index = threadIdx.x
    while bin_index < HISTOGRAM_BIN_COUNT:
        bin_sum = uint32_t(0)
        for warp_index in range(WARP_COUNT):
            bin_sum += s_mem_histogram[bin_index + warp_index * HISTOGRAM_BIN_COUNT]
        partial_histogram[blockIdx.x * HISTOGRAM_BIN_COUNT + bin_index] = bin_sum
        bin_index += THREADS_PER_BLOCK


@__global__
def merge_block_local_histogram(
    final_histogram: GmPtr[uint32_t], partial_histogram: GmPtr[uint32_t], partial_count: int
) -> None:
    his_bins_reduction = __ubuf__(uint32_t, REDUCE_BLOCK_SIZE)
    bin_accumulator = uint32_t(0)
    partial_index = threadIdx.x
    while partial_index < partial_count:
        bin_accumulator += partial_histogram[blockIdx.x + partial_index * HISTOGRAM_BIN_COUNT]
        partial_index += REDUCE_BLOCK_SIZE
    his_bins_reduction[threadIdx.x] = bin_accumulator
    stride = REDUCE_BLOCK_SIZE // 2
    while stride > 0:
        asc_syncthreads()
        if threadIdx.x < stride:
            his_bins_reduction[threadIdx.x] += his_bins_reduction[threadIdx.x + stride]
        stride >>= 1

    if threadIdx.x == 0:
        final_histogram[blockIdx.x] = his_bins_reduction[0]


def compute_histogram_npu(input_bytes: np.ndarray) -> np.ndarray:
    """``allocate_device_buffers``, the copy in, ``compute_histogram_npu``, the copy out."""
    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    input_words, _ = acl.rt.malloc(FIXED_INPUT_BYTE_COUNT, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    final_bytes = HISTOGRAM_BIN_COUNT * uint32_t.size
    final_histogram, _ = acl.rt.malloc(final_bytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    partial_bytes = PARTIAL_HISTOGRAM_COUNT * HISTOGRAM_BIN_COUNT * uint32_t.size
    partial_histogram, _ = acl.rt.malloc(partial_bytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        input_words,
        FIXED_INPUT_BYTE_COUNT,
        input_bytes,
        FIXED_INPUT_BYTE_COUNT,
        acl.ACL_MEMCPY_HOST_TO_DEVICE,
    )

    word_count = FIXED_INPUT_BYTE_COUNT // uint32_t.size
    dynamic_ubuf_size = 0
    accumulate_block_local_histogram[
        PARTIAL_HISTOGRAM_COUNT, THREADS_PER_BLOCK, dynamic_ubuf_size, stream
    ](partial_histogram.cast(uint32_t), input_words.cast(uint32_t), uint32_t(word_count))
    merge_block_local_histogram[HISTOGRAM_BIN_COUNT, REDUCE_BLOCK_SIZE, dynamic_ubuf_size, stream](
        final_histogram.cast(uint32_t),
        partial_histogram.cast(uint32_t),
        uint32_t(PARTIAL_HISTOGRAM_COUNT),
    )
    acl.rt.synchronize_stream(stream)

    actual_histogram = np.zeros(HISTOGRAM_BIN_COUNT, dtype=np.uint32)
    acl.rt.memcpy(
        actual_histogram, final_bytes, final_histogram, final_bytes, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    for buffer in (partial_histogram, final_histogram, input_words):
        acl.rt.free(buffer)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return actual_histogram


def test_glibc_rand_is_reproduced() -> None:
    assert glibc_rand(1, 3) == [1804289383, 846930886, 1681692777]  # glibc's well-known start


def test_histogram256_matches_the_cpu_histogram() -> None:
    input_bytes = seed_input_bytes(FIXED_INPUT_BYTE_COUNT, FIXED_SEED)
    expected_histogram = compute_histogram_cpu(input_bytes, FIXED_INPUT_BYTE_COUNT)
    actual_histogram = compute_histogram_npu(input_bytes)
    assert histograms_match(actual_histogram, expected_histogram) == (True, 0)
    assert int(actual_histogram.sum()) == FIXED_INPUT_BYTE_COUNT
    wrong = actual_histogram.copy()
    wrong[7] += 1
    assert histograms_match(wrong, expected_histogram) == (False, 7)  # the check catches a bin

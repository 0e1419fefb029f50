"""Port of asc-devkit examples/05_simd_simt_hybrid/02_best_practices/simd_simt_matrix_transpose/matrix_transpose.asc.

Line for line, all five scenarios of ``SCENARIO_NUM`` (``__global__ __vector__`` kernels that
start ``__simt_vf__`` functions of 2048 threads): 0 ``simt_transpose_naive`` transposes GM to
GM in a grid-stride loop on ``core_num`` blocks; 1 .. 4 move two 32 x 32 tiles at a time
GM -> UB with ``asc_copy_gm2ub_align`` (32 bursts of one row, the GM row pitch as source
stride), transpose them in UB with ``simt_transpose_2tile`` (a 32 x 64 thread block, one
element per thread) and copy the transposed tiles UB -> GM with ``asc_copy_ub2gm_align``;
MTE2, V and MTE3 are ordered by ``asc_lock``/``asc_unlock``. 1 gives each block one tile pair
(static), 2 loops over tile pairs on ``core_num`` blocks, 3 lands the input tile in a padded 32 x
40 UB layout (``simt_transpose_2tile_pad``) and 4 double-buffers it with four mutexes (input
and output buffer per parity). Input ``input[i] = i * 1.25f``; golden and check as the example's
``compute_golden`` and ``verify_result`` (``|out - golden| <= 1e-3``). Smaller: 512 x 512
instead of the default 1024 x 1024 (the size is the example's ``argv[1]``): 256 tiles, so the
looping scenarios run two tile pairs per block and scenario 4 uses both buffers (about 4 s a
scenario at full size, 1 s here).

Not line for line: the multi-dimensional ``__ubuf__`` arrays are flat (``in_tile +
curr_buffer * TILES_PER_BLOCK * TILE_PAD_ELEMENTS`` for ``&in_tile[curr_buffer][0][0][0]``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, float32_t, uint32_t
from ascreg.c_api import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_load_l2_cache_mode,
    asc_lock,
    asc_store_l2_cache_mode,
    asc_unlock,
    asc_vf_call,
    block_idx,
    block_num,
)
from ascreg.simt import (
    __launch_bounds__,
    __simt_vf__,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    threadIdx,
)

TILE_DIM = 32
TILE_PAD = 8  # MTE moves need 32-byte rows: a 32 x 40 UB layout
TILE_PAD_STRIDE = TILE_DIM + TILE_PAD
THREADS_2048 = 2048
THREADS_PER_BLOCK = THREADS_2048
TILES_PER_BLOCK = 2  # 2048 threads: two 32 x 32 tiles
TILE_ELEMENTS = TILE_DIM * TILE_DIM
TILE_ROW_BYTES = TILE_DIM * float32_t.size
TILE_PAD_ELEMENTS = TILE_DIM * TILE_PAD_STRIDE
SINGLE_BUFFER_MUTEX = 0
DB_INPUT_MUTEX_BASE = 1
DB_OUTPUT_MUTEX_BASE = 3
MATRIX_SIZE = 512  # the example's default: 1024


def verify_result(output: np.ndarray, golden: np.ndarray, abs_tolerance: float = 1e-3) -> bool:
    if output.size != golden.size:
        return False
    difference = np.abs(output.astype(np.float32) - golden.astype(np.float32))
    return not bool(np.any(difference > np.float32(abs_tolerance)))


def compute_golden(input: np.ndarray, input_shape: list[int]) -> np.ndarray:
    """``output(col, row) = input(row, col)``."""
    height, width = input_shape
    assert input.size == height * width
    output = np.zeros(input.size, dtype=np.float32)
    for row in range(height):  # the column loop, at once
        output[np.arange(width) * height + row] = input[row * width : (row + 1) * width]
    return output


def get_vector_core_num(device_id: int) -> int:
    core_num, ret = acl.rt.get_device_info(device_id, acl.ACL_DEV_ATTR_VECTOR_CORE_NUM)
    return 0 if ret != acl.ACL_SUCCESS or core_num is None else core_num


# -- scenario 0 ---------------------------------------------------------------------------------


@__simt_vf__
@__launch_bounds__(THREADS_2048)
def simt_transpose_naive(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total: int
) -> None:
    tid = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
    stride = uint32_t(gridDim.x * blockDim.x)
    for i in range(tid, total, stride):
        row = i // width
        col = i - row * width
        # the transposed GM address: the writes jump a row apart
        output[col * height + row] = input[i]


@__global__
@__vector__
def transpose_naive_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int
) -> None:
    total = width * height
    asc_vf_call[simt_transpose_naive](dim3(THREADS_PER_BLOCK), output, input, width, height, total)


# -- the tile moves (scenarios 1 .. 4) ----------------------------------------------------------


def copy_gm_tile_to_ub(
    in_tile: UbPtr[float32_t],
    input: GmPtr[float32_t],
    width: int,
    tiles_x: int,
    tile_id: int,
    ub_row_bytes: int,
) -> None:
    tile_y = tile_id // tiles_x
    tile_x = tile_id - tile_y * tiles_x
    input_offset = tile_y * TILE_DIM * width + tile_x * TILE_DIM
    # MTE2 moves one 32 x 32 tile, row by row, into UB
    asc_copy_gm2ub_align(
        in_tile,
        input + input_offset,
        TILE_DIM,
        TILE_ROW_BYTES,
        0,
        0,
        False,
        asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM,
        width * float32_t.size,
        ub_row_bytes,
    )


def copy_gm_2tile_to_ub(
    in_tile: UbPtr[float32_t],
    input: GmPtr[float32_t],
    width: int,
    tiles_x: int,
    tile_base: int,
    total_tiles: int,
    *,
    padded: bool = False,
) -> None:
    """``copy_gm_2tile_to_ub`` and (``padded``) ``copy_gm_2tile_to_padded_ub``."""
    tile_elements = TILE_PAD_ELEMENTS if padded else TILE_ELEMENTS
    ub_row_bytes = TILE_PAD_STRIDE * float32_t.size if padded else TILE_ROW_BYTES
    for local_tile in range(TILES_PER_BLOCK):
        tile_id = tile_base + local_tile
        if tile_id < total_tiles:
            copy_gm_tile_to_ub(
                in_tile + local_tile * tile_elements, input, width, tiles_x, tile_id, ub_row_bytes
            )


def copy_ub_tile_to_gm(
    output: GmPtr[float32_t], out_tile: UbPtr[float32_t], height: int, tiles_x: int, tile_id: int
) -> None:
    tile_y = tile_id // tiles_x
    tile_x = tile_id - tile_y * tiles_x
    output_offset = tile_x * TILE_DIM * height + tile_y * TILE_DIM
    # out_tile already holds output rows: MTE3 moves them back row by row
    asc_copy_ub2gm_align(
        output + output_offset,
        out_tile,
        TILE_DIM,
        TILE_ROW_BYTES,
        asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        height * float32_t.size,
        TILE_ROW_BYTES,
    )


def copy_ub_2tile_to_gm(
    output: GmPtr[float32_t],
    out_tile: UbPtr[float32_t],
    height: int,
    tiles_x: int,
    tile_base: int,
    total_tiles: int,
) -> None:
    for local_tile in range(TILES_PER_BLOCK):
        tile_id = tile_base + local_tile
        if tile_id < total_tiles:
            copy_ub_tile_to_gm(
                output, out_tile + local_tile * TILE_ELEMENTS, height, tiles_x, tile_id
            )


def make_simt_transpose_2tile(in_tile_elements: int, in_row_stride: int) -> Any:
    """``simt_transpose_2tile`` (32 x 32 input tiles) and ``_pad`` (32 x 40)."""

    @__simt_vf__
    @__launch_bounds__(THREADS_2048)
    def simt_transpose_2tile(
        out_tile: UbPtr[float32_t], in_tile: UbPtr[float32_t], tile_base: int, total_tiles: int
    ) -> None:
        local_tile = threadIdx.y >> 5
        ty = threadIdx.y & (TILE_DIM - 1)
        tx = threadIdx.x
        tile_id = tile_base + local_tile
        if tile_id >= total_tiles:
            return

        # read in_tile along the transpose, write out_tile row by row
        out_tile[local_tile * TILE_ELEMENTS + ty * TILE_DIM + tx] = in_tile[
            local_tile * in_tile_elements + tx * in_row_stride + ty
        ]

    return simt_transpose_2tile


simt_transpose_2tile = make_simt_transpose_2tile(TILE_ELEMENTS, TILE_DIM)
simt_transpose_2tile_pad = make_simt_transpose_2tile(TILE_PAD_ELEMENTS, TILE_PAD_STRIDE)


def transpose_tiles(
    output: GmPtr[float32_t],
    input: GmPtr[float32_t],
    width: int,
    height: int,
    total_tiles: int,
    *,
    static: bool,
    padded: bool,
) -> None:
    """The bodies of scenarios 1 (``static``), 2 and 3 (``padded``): one buffer, one mutex."""
    in_tile = __ubuf__(
        float32_t, TILES_PER_BLOCK * (TILE_PAD_ELEMENTS if padded else TILE_ELEMENTS)
    )
    out_tile = __ubuf__(float32_t, TILES_PER_BLOCK * TILE_ELEMENTS)
    tiles_x = width // TILE_DIM
    loop_start = block_idx * TILES_PER_BLOCK
    loop_step = block_num * TILES_PER_BLOCK
    loop_end = loop_start + TILES_PER_BLOCK if static else total_tiles
    transpose = simt_transpose_2tile_pad if padded else simt_transpose_2tile

    tile_base = loop_start
    while tile_base < loop_end and tile_base < total_tiles:
        asc_lock(PIPE_MTE2, SINGLE_BUFFER_MUTEX)
        copy_gm_2tile_to_ub(in_tile, input, width, tiles_x, tile_base, total_tiles, padded=padded)
        asc_unlock(PIPE_MTE2, SINGLE_BUFFER_MUTEX)

        # the SIMT VF reads the input buffer once MTE2 has filled it
        asc_lock(PIPE_V, SINGLE_BUFFER_MUTEX)
        asc_vf_call[transpose](
            dim3(TILE_DIM, TILE_DIM * TILES_PER_BLOCK, 1), out_tile, in_tile, tile_base, total_tiles
        )
        asc_unlock(PIPE_V, SINGLE_BUFFER_MUTEX)

        # MTE3 moves the output buffer once the VF has written it
        asc_lock(PIPE_MTE3, SINGLE_BUFFER_MUTEX)
        copy_ub_2tile_to_gm(output, out_tile, height, tiles_x, tile_base, total_tiles)
        asc_unlock(PIPE_MTE3, SINGLE_BUFFER_MUTEX)
        tile_base += loop_step


@__global__
@__vector__
def transpose_ub_2tile_static_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    transpose_tiles(output, input, width, height, total_tiles, static=True, padded=False)


@__global__
@__vector__
def transpose_ub_2tile_loop_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    transpose_tiles(output, input, width, height, total_tiles, static=False, padded=False)


@__global__
@__vector__
def transpose_ub_pad_loop_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    transpose_tiles(output, input, width, height, total_tiles, static=False, padded=True)


@__global__
@__vector__
def transpose_ub_pad_db_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    # two sets of buffers in turn: one in the VF / MTE3, the other filled by MTE2
    in_tile = __ubuf__(float32_t, 2 * TILES_PER_BLOCK * TILE_PAD_ELEMENTS)
    out_tile = __ubuf__(float32_t, 2 * TILES_PER_BLOCK * TILE_ELEMENTS)
    tiles_x = width // TILE_DIM
    loop_step = block_num * TILES_PER_BLOCK
    curr_tile_base = block_idx * TILES_PER_BLOCK
    if curr_tile_base >= total_tiles:
        return

    loop_count = 0
    for tile_base in range(curr_tile_base, total_tiles, loop_step):
        curr_buffer = loop_count & 1
        input_mutex = DB_INPUT_MUTEX_BASE + curr_buffer
        output_mutex = DB_OUTPUT_MUTEX_BASE + curr_buffer
        in_buffer = in_tile + curr_buffer * TILES_PER_BLOCK * TILE_PAD_ELEMENTS
        out_buffer = out_tile + curr_buffer * TILES_PER_BLOCK * TILE_ELEMENTS

        asc_lock(PIPE_MTE2, input_mutex)
        copy_gm_2tile_to_ub(in_buffer, input, width, tiles_x, tile_base, total_tiles, padded=True)
        asc_unlock(PIPE_MTE2, input_mutex)

        # the VF waits for its input buffer, and for MTE3 to have emptied its output buffer
        asc_lock(PIPE_V, input_mutex)
        asc_lock(PIPE_V, output_mutex)
        asc_vf_call[simt_transpose_2tile_pad](
            dim3(TILE_DIM, TILE_DIM * TILES_PER_BLOCK, 1),
            out_buffer,
            in_buffer,
            tile_base,
            total_tiles,
        )
        asc_unlock(PIPE_V, input_mutex)
        asc_unlock(PIPE_V, output_mutex)

        asc_lock(PIPE_MTE3, output_mutex)
        copy_ub_2tile_to_gm(output, out_buffer, height, tiles_x, tile_base, total_tiles)
        asc_unlock(PIPE_MTE3, output_mutex)
        loop_count += 1  # noqa: SIM113 (the C++ counter)


def launch_case_kernel(
    kernel_kind: int, output: GmPtr[float32_t], input: GmPtr[float32_t], config: dict[str, Any]
) -> None:
    width, height, core_num, stream = (config[k] for k in ("width", "height", "core_num", "stream"))
    total_tiles = (width // TILE_DIM) * (height // TILE_DIM)
    u = uint32_t
    if kernel_kind == 0:
        transpose_naive_kernel[core_num, 0, stream](output, input, u(width), u(height))
        return
    kernel, blocks = {
        1: (
            transpose_ub_2tile_static_kernel,
            (total_tiles + TILES_PER_BLOCK - 1) // TILES_PER_BLOCK,
        ),
        2: (transpose_ub_2tile_loop_kernel, core_num),
        3: (transpose_ub_pad_loop_kernel, core_num),
        4: (transpose_ub_pad_db_kernel, core_num),
    }[kernel_kind]
    kernel[blocks, 0, stream](output, input, u(width), u(height), u(total_tiles))


def run_case(kernel_kind: int, input_host: np.ndarray, input_shape: list[int]) -> np.ndarray:
    tensor_byte_size = input_host.size * float32_t.size
    output_host = np.zeros(input_host.size, dtype=np.float32)
    matrix_height, matrix_width = input_shape
    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    input_device, _ = acl.rt.malloc(tensor_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(tensor_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        input_device, tensor_byte_size, input_host, tensor_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    launch_config = {
        "width": matrix_width,
        "height": matrix_height,
        "core_num": get_vector_core_num(0),
        "stream": stream,
    }
    launch_case_kernel(
        kernel_kind, output_device.cast(float32_t), input_device.cast(float32_t), launch_config
    )
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(
        output_host,
        tensor_byte_size,
        output_device,
        tensor_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.free(input_device)
    acl.rt.free(output_device)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return output_host


@pytest.mark.parametrize("kernel_kind", [0, 1, 2, 3, 4])
def test_simd_simt_matrix_transpose_matches_the_golden(kernel_kind: int) -> None:
    matrix_size = MATRIX_SIZE
    assert matrix_size % TILE_DIM == 0
    input_shape = [matrix_size, matrix_size]
    input = np.arange(matrix_size * matrix_size).astype(np.float32) * np.float32(1.25)
    golden = compute_golden(input, input_shape)
    output = run_case(kernel_kind, input, input_shape)
    assert verify_result(output, golden)
    assert not verify_result(input, golden)  # an untransposed copy fails
    wrong = output.copy()
    wrong[-1] = np.nextafter(wrong[-1], np.float32(np.inf))
    assert not verify_result(wrong, golden)

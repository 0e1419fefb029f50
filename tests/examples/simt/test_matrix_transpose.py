"""Port of asc-devkit examples/03_simt_api/03_best_practices/00_memory_optimizations/matrix_transpose_practice/matrix_transpose.asc.

Line for line, all eight scenarios of ``SCENARIO_NUM`` (pure SIMT, ``float``): 0 and 1
``copy_kernel`` (a grid-stride copy, 2048 and 1024 threads a block), 2
``transpose_naive_kernel`` (grid-stride, ``output[col * height + row] = input[i]``), 3
``transpose_ub_2tile_naive_kernel`` (a 32 x 64 block holds two 32 x 32 tiles of a ``__ubuf__``
array, one launch block per tile pair), 4 ``transpose_ub_2tile_kernel`` (the same on
``core_num`` blocks with a tile loop and a trailing ``asc_syncthreads``), 5
``transpose_ub_kernel`` (one 32 x 32 tile per step), 6 ``transpose_ub_pad_kernel`` (the tile
padded to 32 x 34 against bank conflicts) and 7 ``transpose_ub_pad_db_kernel`` (two padded
tiles used in turn, so the trailing barrier goes: a tile is rewritten only two steps later,
after the next step's barrier). ``core_num`` is ``aclrtGetDeviceInfo(...,
ACL_DEV_ATTR_VECTOR_CORE_NUM)`` (64 on the emulated device). Input as the example's ``main``:
``input[i] = float(i) * 1.25f``; golden from its ``compute_golden`` (the input for 0 and 1, the
transpose otherwise); checked as its ``verify_result`` (sizes, then ``|out - golden| <=
1e-3``).

Full size: the example's default 1024 x 1024 (1024 tiles, 16 steps on each of 64 blocks in
5 .. 7, so scenario 7 rewrites each buffer seven times). The tiles' loops are uniform within a
block; scenario 3's ``if (active)`` is the only per-thread branch.

Finding: the tolerance ``1e-3`` is finer than the float spacing of most outputs (``i * 1.25f``
reaches 1.3e6, where floats are 0.125 apart), so the check is exact there and a tolerance only
for the first few thousand elements.

A dropped ``asc_syncthreads`` would go unseen here: ascreg runs a block's threads in lockstep,
every store of a statement before any later load, so the barriers' order is always met (the
test checks results, not races; docs/limitations.md, SIMT divergence).

Not line for line: the C++ ``__ubuf__`` arrays are multi-dimensional (``tile[2][32][34]``);
ascreg's ``__ubuf__`` is flat, so the index is written out (``tile + (cnt * TILE_DIM + ty) *
TILE_PAD_STRIDE + tx``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, uint32_t
from ascreg.machine.kernel import __global__, __ubuf__
from ascreg.simt import (
    __launch_bounds__,
    asc_syncthreads,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    threadIdx,
)

TILE_DIM = 32
TILE_PAD = 2  # padding columns of scenarios 6 and 7 (32 x 34)
TILE_PAD_STRIDE = TILE_DIM + TILE_PAD
THREADS_2048 = 2048
THREADS_1024 = 1024
TILES_PER_BLOCK = 2  # scenarios 3 and 4: 2048 threads are two 32 x 32 tiles
MATRIX_SIZE = 1024  # the example's default


def verify_result(output: np.ndarray, golden: np.ndarray, abs_tolerance: float = 1e-3) -> bool:
    if output.size != golden.size:
        return False
    difference = np.abs(output.astype(np.float32) - golden.astype(np.float32))
    return not bool(np.any(difference > np.float32(abs_tolerance)))


def compute_golden(input: np.ndarray, input_shape: list[int], kernel_kind: int) -> np.ndarray:
    """The input for the copies (kind 0), else ``output(col, row) = input(row, col)``."""
    height, width = input_shape
    assert input.size == height * width
    if kernel_kind == 0:
        return input
    output = np.zeros(input.size, dtype=np.float32)
    for row in range(height):  # the column loop, at once: output[col * height + row]
        output[np.arange(width) * height + row] = input[row * width : (row + 1) * width]
    return output


def get_vector_core_num(device_id: int) -> int:
    core_num, ret = acl.rt.get_device_info(device_id, acl.ACL_DEV_ATTR_VECTOR_CORE_NUM)
    if ret != acl.ACL_SUCCESS or core_num is None:
        return 0
    return core_num


# scenarios 0 and 1
def make_copy_kernel(threads_per_block: int) -> Any:
    @__global__
    @__launch_bounds__(threads_per_block)
    def copy_kernel(output: GmPtr[float32_t], input: GmPtr[float32_t], elements: int) -> None:
        tid = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
        stride = uint32_t(gridDim.x * blockDim.x)
        i = tid
        while i < elements:
            output[i] = input[i]
            i += stride

    return copy_kernel


copy_kernel_2048 = make_copy_kernel(THREADS_2048)
copy_kernel_1024 = make_copy_kernel(THREADS_1024)


# scenario 2
@__global__
@__launch_bounds__(THREADS_2048)
def transpose_naive_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int
) -> None:
    tid = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
    stride = uint32_t(gridDim.x * blockDim.x)
    total = width * height
    i = tid
    while i < total:
        row = i // width
        col = i - row * width
        # input(row, col) -> output(col, row)
        output[col * height + row] = input[i]
        i += stride


# scenario 3
@__global__
@__launch_bounds__(THREADS_2048)
def transpose_ub_2tile_naive_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    tile = __ubuf__(float32_t, TILES_PER_BLOCK * TILE_DIM * TILE_DIM)
    tiles_x = width // TILE_DIM
    local_tile = threadIdx.y >> 5  # 0 or 1: which of the block's two tiles
    ty = threadIdx.y & (TILE_DIM - 1)
    tx = threadIdx.x
    tile_id = blockIdx.x * TILES_PER_BLOCK + local_tile
    active = tile_id < total_tiles

    if active:
        tile_y = tile_id // tiles_x
        tile_x = tile_id - tile_y * tiles_x
        x_index = tile_x * TILE_DIM + tx
        y_index = tile_y * TILE_DIM + ty
        tile[(local_tile * TILE_DIM + ty) * TILE_DIM + tx] = input[x_index + y_index * width]
    asc_syncthreads()

    if active:
        tile_y = tile_id // tiles_x
        tile_x = tile_id - tile_y * tiles_x
        x_index = tile_y * TILE_DIM + tx
        y_index = tile_x * TILE_DIM + ty
        output[x_index + y_index * height] = tile[(local_tile * TILE_DIM + tx) * TILE_DIM + ty]


# scenario 4
@__global__
@__launch_bounds__(THREADS_2048)
def transpose_ub_2tile_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    tile = __ubuf__(float32_t, TILES_PER_BLOCK * TILE_DIM * TILE_DIM)
    tiles_x = width // TILE_DIM
    local_tile = threadIdx.y >> 5  # 0 or 1: which of the block's two tiles
    ty = threadIdx.y & (TILE_DIM - 1)
    tx = threadIdx.x

    for tile_base in range(blockIdx.x * TILES_PER_BLOCK, total_tiles, gridDim.x * TILES_PER_BLOCK):
        tile_id = tile_base + local_tile
        active = tile_id < total_tiles
        if active:
            tile_y = tile_id // tiles_x
            tile_x = tile_id - tile_y * tiles_x
            x_index = tile_x * TILE_DIM + tx
            y_index = tile_y * TILE_DIM + ty
            tile[(local_tile * TILE_DIM + ty) * TILE_DIM + tx] = input[x_index + y_index * width]
        asc_syncthreads()

        if active:
            tile_y = tile_id // tiles_x
            tile_x = tile_id - tile_y * tiles_x
            x_index = tile_y * TILE_DIM + tx
            y_index = tile_x * TILE_DIM + ty
            output[x_index + y_index * height] = tile[(local_tile * TILE_DIM + tx) * TILE_DIM + ty]
        asc_syncthreads()


def make_transpose_ub_kernel(row_stride: int) -> Any:
    """Scenarios 5 (``tile[32][32]``) and 6 (``tile[32][34]``): the same body."""

    @__global__
    @__launch_bounds__(THREADS_1024)
    def transpose_ub_kernel(
        output: GmPtr[float32_t],
        input: GmPtr[float32_t],
        width: int,
        height: int,
        total_tiles: int,
    ) -> None:
        tile = __ubuf__(float32_t, TILE_DIM * row_stride)
        tiles_x = width // TILE_DIM
        tx = threadIdx.x
        ty = threadIdx.y
        step = gridDim.x

        for tile_id in range(blockIdx.x, total_tiles, step):
            tile_y = tile_id // tiles_x
            tile_x = tile_id - tile_y * tiles_x
            x_index = tile_x * TILE_DIM + tx
            y_index = tile_y * TILE_DIM + ty
            tile[ty * row_stride + tx] = input[x_index + y_index * width]
            asc_syncthreads()

            x_index = tile_y * TILE_DIM + tx
            y_index = tile_x * TILE_DIM + ty
            output[x_index + y_index * height] = tile[tx * row_stride + ty]
            asc_syncthreads()

    return transpose_ub_kernel


transpose_ub_kernel = make_transpose_ub_kernel(TILE_DIM)
transpose_ub_pad_kernel = make_transpose_ub_kernel(TILE_PAD_STRIDE)


# scenario 7
@__global__
@__launch_bounds__(THREADS_1024)
def transpose_ub_pad_db_kernel(
    output: GmPtr[float32_t], input: GmPtr[float32_t], width: int, height: int, total_tiles: int
) -> None:
    tile = __ubuf__(float32_t, 2 * TILE_DIM * TILE_PAD_STRIDE)  # two buffers used in turn
    tiles_x = width // TILE_DIM
    tx = threadIdx.x
    ty = threadIdx.y
    cnt = 0
    step = gridDim.x

    for tile_id in range(blockIdx.x, total_tiles, step):
        tile_y = tile_id // tiles_x
        tile_x = tile_id - tile_y * tiles_x
        x_index = tile_x * TILE_DIM + tx
        y_index = tile_y * TILE_DIM + ty
        tile[(cnt * TILE_DIM + ty) * TILE_PAD_STRIDE + tx] = input[x_index + y_index * width]
        asc_syncthreads()  # the barrier after the load stays

        x_index = tile_y * TILE_DIM + tx
        y_index = tile_x * TILE_DIM + ty
        output[x_index + y_index * height] = tile[(cnt * TILE_DIM + tx) * TILE_PAD_STRIDE + ty]

        cnt ^= 1  # the other buffer next


def launch_case_kernel(
    kernel_kind: int, output: GmPtr[float32_t], input: GmPtr[float32_t], config: dict[str, Any]
) -> None:
    """Each scenario's ``launch_case_kernel``."""
    width, height, core_num, stream = (config[k] for k in ("width", "height", "core_num", "stream"))
    total_tiles = (width // TILE_DIM) * (height // TILE_DIM)
    u = uint32_t
    if kernel_kind in (0, 1):
        kernel = copy_kernel_2048 if kernel_kind == 0 else copy_kernel_1024
        threads = THREADS_2048 if kernel_kind == 0 else THREADS_1024
        kernel[dim3(core_num, 1, 1), dim3(threads, 1, 1), 0, stream](
            output, input, u(width * height)
        )
    elif kernel_kind == 2:
        transpose_naive_kernel[dim3(core_num, 1, 1), dim3(THREADS_2048, 1, 1), 0, stream](
            output, input, u(width), u(height)
        )
    elif kernel_kind in (3, 4):
        blocks = (
            (total_tiles + TILES_PER_BLOCK - 1) // TILES_PER_BLOCK if kernel_kind == 3 else core_num
        )
        kernel = transpose_ub_2tile_naive_kernel if kernel_kind == 3 else transpose_ub_2tile_kernel
        kernel[dim3(blocks, 1, 1), dim3(TILE_DIM, TILE_DIM * TILES_PER_BLOCK, 1), 0, stream](
            output, input, u(width), u(height), u(total_tiles)
        )
    else:
        kernel = {5: transpose_ub_kernel, 6: transpose_ub_pad_kernel}.get(
            kernel_kind, transpose_ub_pad_db_kernel
        )
        kernel[dim3(core_num, 1, 1), dim3(TILE_DIM, TILE_DIM, 1), 0, stream](
            output, input, u(width), u(height), u(total_tiles)
        )


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


def main(kernel_kind: int, matrix_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The example's ``main`` (returns output and golden)."""
    assert matrix_size % TILE_DIM == 0  # the shape must be a multiple of TILE_DIM
    input_shape = [matrix_size, matrix_size]
    tensor_elem_count = matrix_size * matrix_size
    input = np.arange(tensor_elem_count).astype(np.float32) * np.float32(1.25)
    golden_kind = 0 if kernel_kind <= 1 else 1  # the copies compare with the input itself
    golden = compute_golden(input, input_shape, golden_kind)
    output = run_case(kernel_kind, input, input_shape)
    return output, golden


@pytest.mark.parametrize("kernel_kind", range(8))
def test_matrix_transpose_matches_the_golden(kernel_kind: int) -> None:
    output, golden = main(kernel_kind, MATRIX_SIZE)
    assert verify_result(output, golden)
    wrong = output.copy()
    wrong[-1] = np.nextafter(wrong[-1], np.float32(np.inf))  # 0.125 above: the next float
    assert not verify_result(wrong, golden)  # the tolerance catches a wrong element
    if kernel_kind >= 2:
        assert not verify_result(golden.reshape(MATRIX_SIZE, -1).T.reshape(-1), golden)
